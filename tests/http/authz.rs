//! The authorization matrix: every route × (no session, each role) → allowed or refused.
//! "Allowed" means the role check passed (the request may still be refused for its
//! content, e.g. 422 for an empty form); "refused" means 403 for a signed-in role and
//! 401 (API) or a redirect to the sign-in page (pages) without a session.

use crate::support::*;
use actix_web::test::TestRequest;

const ALL: &[&str] = &["admin", "floor", "dealer", "cashier"];
const REGISTRY: &[&str] = &["admin", "floor", "cashier"];
const FLOOR: &[&str] = &["admin", "floor"];
const ADMIN: &[&str] = &["admin"];

/// (method, path, roles allowed). Ids refer to the fixture below (player 1, 2; game 1;
/// table 1; staff 1; exclusion 1; separation 1).
const PAGES: &[(&str, &str, &[&str])] = &[
    ("GET", "/", ALL),
    ("GET", "/account/password", ALL),
    ("POST", "/account/password", ALL),
    ("GET", "/players", REGISTRY),
    ("GET", "/players/1", REGISTRY),
    ("GET", "/players/1/photo", REGISTRY),
    ("GET", "/players/new", FLOOR),
    ("GET", "/players/1/edit", FLOOR),
    ("POST", "/players/1/bans", FLOOR),
    ("POST", "/bans/1/lift", FLOOR),
    ("POST", "/players/1/separations", FLOOR),
    ("POST", "/separations/1/remove", FLOOR),
    ("GET", "/admin/room", ADMIN),
    ("POST", "/admin/room", ADMIN),
    ("GET", "/admin/room/profile?kind=bsop", ADMIN),
    ("POST", "/admin/room/profile", ADMIN),
    ("GET", "/admin/games", ADMIN),
    ("POST", "/admin/games", ADMIN),
    ("GET", "/admin/games/1", ADMIN),
    ("POST", "/admin/games/1", ADMIN),
    ("GET", "/admin/tables", ADMIN),
    ("POST", "/admin/tables", ADMIN),
    ("GET", "/admin/tables/1", ADMIN),
    ("POST", "/admin/tables/1", ADMIN),
    ("GET", "/admin/staff", ADMIN),
    ("POST", "/admin/staff", ADMIN),
    ("GET", "/admin/staff/1", ADMIN),
    ("POST", "/admin/staff/1", ADMIN),
    ("GET", "/admin/audit", ADMIN),
    ("GET", "/admin/audit/verify", ADMIN),
    ("GET", "/floor", FLOOR),
    ("GET", "/floor/live", FLOOR),
    ("POST", "/floor/lists/1/join", FLOOR),
    ("POST", "/floor/entries/1/remove", FLOOR),
    ("POST", "/floor/entries/1/check-in", FLOOR),
    ("POST", "/floor/tables/1/open", FLOOR),
    ("POST", "/floor/tables/1/seats/1/call", FLOOR),
    ("POST", "/floor/calls/1/seat", FLOOR),
    ("POST", "/floor/seatings/1/leave", FLOOR),
    ("POST", "/floor/tables/1/draw-seats", FLOOR),
    ("POST", "/floor/tables/1/draw-button", FLOOR),
    ("POST", "/floor/tables/1/draw-seats-extra", FLOOR),
    ("POST", "/floor/seatings/1/seat-change", FLOOR),
    ("POST", "/floor/seat-changes/1/cancel", FLOOR),
    ("POST", "/floor/seatings/1/refuse-must-move", FLOOR),
    ("POST", "/floor/seatings/1/transfer", FLOOR),
    ("POST", "/floor/buyins/1/approve", FLOOR),
    ("POST", "/floor/tables/1/seats/1/hold", FLOOR),
    ("POST", "/floor/holds/1/release", FLOOR),
    ("GET", "/draws/1", FLOOR),
    ("GET", "/draws/1.json", FLOOR),
];

/// Multipart page routes (registration and edit with the photo).
const MULTIPART_PAGES: &[(&str, &[&str])] = &[("/players", FLOOR), ("/players/1", FLOOR)];

const API: &[(&str, &str, &[&str])] = &[
    ("GET", "/api/v1/me", ALL),
    ("POST", "/api/v1/auth/password", ALL),
    ("GET", "/api/v1/players", REGISTRY),
    ("POST", "/api/v1/players", FLOOR),
    ("GET", "/api/v1/players/1", REGISTRY),
    ("PUT", "/api/v1/players/1", FLOOR),
    ("PUT", "/api/v1/players/1/photo", FLOOR),
    ("GET", "/api/v1/players/1/photo", REGISTRY),
    ("GET", "/api/v1/players/1/eligibility", REGISTRY),
    ("GET", "/api/v1/players/1/history", REGISTRY),
    ("POST", "/api/v1/players/1/exclusions", FLOOR),
    ("POST", "/api/v1/exclusions/1/lift", FLOOR),
    ("POST", "/api/v1/players/1/separations", FLOOR),
    ("DELETE", "/api/v1/separations/1", FLOOR),
    ("GET", "/api/v1/room", ALL),
    ("PUT", "/api/v1/room", ADMIN),
    ("PATCH", "/api/v1/room", ADMIN),
    ("GET", "/api/v1/room/profiles/bsop/diff", ALL),
    ("GET", "/api/v1/games", ALL),
    ("POST", "/api/v1/games", ADMIN),
    ("GET", "/api/v1/games/1", ALL),
    ("PUT", "/api/v1/games/1", ADMIN),
    ("GET", "/api/v1/tables", ALL),
    ("POST", "/api/v1/tables", ADMIN),
    ("PUT", "/api/v1/tables/1", ADMIN),
    ("GET", "/api/v1/staff", ADMIN),
    ("POST", "/api/v1/staff", ADMIN),
    ("PUT", "/api/v1/staff/1", ADMIN),
    ("GET", "/api/v1/audit", ADMIN),
    ("GET", "/api/v1/audit/verify", ADMIN),
    ("GET", "/api/v1/games/1/waitlist", REGISTRY),
    ("POST", "/api/v1/games/1/waitlist", FLOOR),
    ("POST", "/api/v1/waitlist/1/remove", FLOOR),
    ("POST", "/api/v1/waitlist/1/reorder", FLOOR),
    ("POST", "/api/v1/waitlist/1/check-in", FLOOR),
    ("POST", "/api/v1/tables/1/open", FLOOR),
    ("GET", "/api/v1/tables/1/seats", ALL),
    ("POST", "/api/v1/tables/1/seats/1/call-next", FLOOR),
    ("POST", "/api/v1/tables/1/seats/1", FLOOR),
    ("POST", "/api/v1/seat-calls/1/seat", FLOOR),
    ("POST", "/api/v1/seatings/1/leave", FLOOR),
    ("GET", "/api/v1/games/1/must-move", ALL),
    ("GET", "/api/v1/games/1/suggest-table", ALL),
    ("POST", "/api/v1/seatings/1/refuse-must-move", FLOOR),
    ("POST", "/api/v1/seatings/1/seat-change", FLOOR),
    ("POST", "/api/v1/seatings/1/transfer", FLOOR),
    ("GET", "/api/v1/tables/1/seat-changes", ALL),
    ("POST", "/api/v1/seat-changes/1/cancel", FLOOR),
    ("POST", "/api/v1/tables/1/seats/1/hold", FLOOR),
    ("POST", "/api/v1/seat-holds/1/release", FLOOR),
    ("POST", "/api/v1/tables/1/draws", FLOOR),
    ("POST", "/api/v1/buyins/1/approve", FLOOR),
    ("POST", "/api/v1/games/1/draws", FLOOR),
    ("GET", "/api/v1/tables/1/draws", ALL),
    ("GET", "/api/v1/draws/1", ALL),
    ("GET", "/api/v1/draws/1/replay", ALL),
];

/// One player with a photo, a second one, a ban, a separation, a game and a table.
async fn fixture(app: &TestApp) {
    let admin = app.admin_token().await;
    for doc in ["AUTHZ0001", "AUTHZ0002"] {
        let r = app
            .send_json("POST", "/api/v1/players", &admin, player_json(doc))
            .await;
        assert_eq!(r.status, 201, "{}", r.text());
    }
    let png = cardroom::services::photo::generated_portrait(1);
    let r = app
        .call(
            TestRequest::put()
                .uri("/api/v1/players/1/photo")
                .insert_header(("Authorization", format!("Bearer {admin}")))
                .insert_header(("content-type", "image/png"))
                .set_payload(png)
                .to_request(),
        )
        .await;
    assert!(r.status < 300, "{}", r.text());
    let r = app
        .send_json(
            "POST",
            "/api/v1/players/1/exclusions",
            &admin,
            serde_json::json!({"reason": "test"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let r = app
        .send_json(
            "POST",
            "/api/v1/players/1/separations",
            &admin,
            serde_json::json!({"other_player_id": 2, "reason": "test"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let game = serde_json::json!({"name": "NL 1/2", "variant": "holdem_nl", "small_blind": 100, "big_blind": 200,
        "limit_class": "low", "buy_in_min": 4000, "buy_in_max": 20000});
    assert_eq!(
        app.send_json("POST", "/api/v1/games", &admin, game)
            .await
            .status,
        201
    );
    let table = serde_json::json!({"number": 1, "game_id": 1, "mode": "continuous"});
    assert_eq!(
        app.send_json("POST", "/api/v1/tables", &admin, table)
            .await
            .status,
        201
    );
}

fn allowed(status: u16, location: Option<&str>) -> bool {
    status != 401 && status != 403 && !location.is_some_and(|l| l.starts_with("/login"))
}

#[actix_web::test]
async fn every_page_route_checks_the_role() {
    let app = TestApp::new().await;
    fixture(&app).await;
    for role in ["floor", "dealer", "cashier"] {
        app.create_staff(role, role);
    }
    let mut failures = Vec::new();
    for who in ["none", "admin", "floor", "dealer", "cashier"] {
        let session = match who {
            "none" => None,
            "admin" => Some(app.web_login("admin", ADMIN_PW).await),
            r => Some(app.web_login(r, STAFF_PW).await),
        };
        for (method, path, roles) in PAGES {
            let mut req = if *method == "GET" {
                TestRequest::get()
            } else {
                TestRequest::post()
            };
            req = req.uri(path);
            if let Some(s) = &session {
                req = req.cookie(s.c());
                if *method == "POST" {
                    req = req.set_form([("csrf", s.csrf.as_str())]);
                }
            } else if *method == "POST" {
                req = req.set_form([("csrf", "none")]);
            }
            let r = app.call(req.to_request()).await;
            let expect = who != "none" && roles.contains(&who);
            let got = allowed(r.status, r.header("location").as_deref());
            if got != expect {
                failures.push(format!(
                    "{who} {method} {path}: status {} (expected {})",
                    r.status,
                    if expect { "allowed" } else { "refused" }
                ));
            }
            if who == "none"
                && *method == "GET"
                && !(r.status == 303
                    && r.header("location")
                        .unwrap_or_default()
                        .starts_with("/login"))
            {
                failures.push(format!(
                    "none GET {path}: expected a redirect to /login, got {}",
                    r.status
                ));
            }
        }
        for (path, roles) in MULTIPART_PAGES {
            let csrf = session.as_ref().map(|s| s.csrf.clone()).unwrap_or_default();
            let (ct, body) = multipart(&[("csrf", &csrf)], None);
            let mut req = TestRequest::post()
                .uri(path)
                .insert_header(("content-type", ct))
                .set_payload(body);
            if let Some(s) = &session {
                req = req.cookie(s.c());
            }
            let r = app.call(req.to_request()).await;
            let expect = who != "none" && roles.contains(&who);
            if allowed(r.status, r.header("location").as_deref()) != expect {
                failures.push(format!("{who} POST(multipart) {path}: status {}", r.status));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "authorization matrix (pages):\n{}",
        failures.join("\n")
    );
}

#[actix_web::test]
async fn every_api_route_checks_the_role() {
    let app = TestApp::new().await;
    fixture(&app).await;
    let mut failures = Vec::new();
    for who in ["none", "admin", "floor", "dealer", "cashier"] {
        let token = match who {
            "none" => None,
            "admin" => Some(app.admin_token().await),
            r => Some(app.staff_token(&format!("{r}-api"), r).await),
        };
        for (method, path, roles) in API {
            let mut req = match *method {
                "GET" => TestRequest::get(),
                "POST" => TestRequest::post(),
                "PUT" => TestRequest::put(),
                "PATCH" => TestRequest::patch(),
                _ => TestRequest::delete(),
            }
            .uri(path);
            if let Some(t) = &token {
                req = req.insert_header(("Authorization", format!("Bearer {t}")));
            }
            if *method != "GET" && *method != "DELETE" {
                req = req.set_json(serde_json::json!({}));
            }
            let r = app.call(req.to_request()).await;
            let expect = token.is_some() && roles.contains(&who);
            if allowed(r.status, None) != expect {
                failures.push(format!(
                    "{who} {method} {path}: status {} {}",
                    r.status,
                    r.text()
                ));
            }
            if token.is_none() && r.status != 401 {
                failures.push(format!(
                    "none {method} {path}: expected 401, got {}",
                    r.status
                ));
            }
            if token.is_none() || !expect {
                // Refusals are JSON errors with a code.
                if r.json()["error"]["code"].as_str().is_none() {
                    failures.push(format!(
                        "{who} {method} {path}: refusal without a JSON error body"
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "authorization matrix (API):\n{}",
        failures.join("\n")
    );
}
