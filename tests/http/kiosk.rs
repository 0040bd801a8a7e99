//! The desk kiosk — a tablet paired as a kiosk from `/floor/tablets`, its
//! token refused as a dealer tablet and as staff, `/kiosk` refused to other browsers, the whole
//! walk-in join with the code read from the outbox (entries marked kiosk on the board and the
//! list API), a guest, the seat preference step, the limits (per phone yes, per address no),
//! revocation and the idle setting.

use crate::floor::eligible_players;
use crate::pages::nl_game;
use crate::support::*;
use actix_web::cookie::Cookie;
use actix_web::test::TestRequest;
use diesel::prelude::*;
use serde_json::json;

const PHONE: &str = "+351912000001";
const GUEST_PHONE: &str = "+351913000077";

/// The code on the pairing page, without the dash.
fn shown_code(html: &str) -> String {
    let i = html.find("id=\"pair-code\"").expect("pairing code");
    let rest = &html[i..];
    let start = rest.find('>').unwrap() + 1;
    let end = rest.find('<').unwrap();
    rest[start..end].trim().replace('-', "")
}

/// The desk kiosk's browser: its device cookie and the CSRF value its pages carry.
struct Kiosk {
    device: String,
    csrf: String,
}

impl Kiosk {
    fn c(&self) -> Cookie<'static> {
        Cookie::new("cr_device", self.device.clone())
    }

    async fn get(&self, app: &TestApp, uri: &str) -> Resp {
        app.call(TestRequest::get().uri(uri).cookie(self.c()).to_request())
            .await
    }

    async fn post(&self, app: &TestApp, uri: &str, fields: &[(&str, &str)]) -> Resp {
        let mut all: Vec<(&str, &str)> = vec![("csrf", self.csrf.as_str())];
        all.extend_from_slice(fields);
        post_raw(app, uri, Some(self.c()), &all).await
    }
}

async fn post_raw(
    app: &TestApp,
    uri: &str,
    cookie: Option<Cookie<'static>>,
    fields: &[(&str, &str)],
) -> Resp {
    let mut r = TestRequest::post()
        .uri(uri)
        .insert_header(("Content-Type", "application/x-www-form-urlencoded"))
        .set_payload(serde_urlencoded::to_string(fields).unwrap());
    if let Some(c) = cookie {
        r = r.cookie(c);
    }
    app.call(r.to_request()).await
}

fn csrf_of(html: &str) -> String {
    let i = html
        .find("name=\"csrf\" value=\"")
        .expect("a form with its CSRF value");
    let rest = &html[i + 19..];
    rest[..rest.find('"').unwrap()].to_string()
}

/// A device opens /tablet (the pairing code); the floor pairs it with `table` ("kiosk": as
/// the desk kiosk); the device collects its token. Returns the device cookie's value.
async fn pair_device(app: &TestApp, floor: &WebSession, table: &str, label: &str) -> String {
    let page = app
        .call(TestRequest::get().uri("/tablet").to_request())
        .await;
    assert_eq!(page.status, 200);
    let pairing = page.cookie("cr_pairing").expect("pairing secret");
    let code = shown_code(&page.text());
    let r = app
        .post_form(
            "/floor/tablets/pair",
            floor,
            &[("code", &code), ("table_id", table), ("label", label)],
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(r.text().contains("id=\"tablets-paired\""), "{}", r.text());
    let r = app
        .call(
            TestRequest::get()
                .uri("/tablet/pair/status")
                .cookie(Cookie::new("cr_pairing", pairing))
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 200);
    let to = if table == "kiosk" {
        "/kiosk"
    } else {
        "/tablet"
    };
    assert_eq!(r.header("hx-redirect").as_deref(), Some(to));
    r.cookie("cr_device").expect("device token")
}

async fn pair_kiosk(app: &TestApp, floor: &WebSession, label: &str) -> Kiosk {
    let device = pair_device(app, floor, "kiosk", label).await;
    let k = app
        .call(
            TestRequest::get()
                .uri("/kiosk")
                .cookie(Cookie::new("cr_device", device.clone()))
                .to_request(),
        )
        .await;
    assert_eq!(k.status, 200, "{}", k.text());
    Kiosk {
        csrf: csrf_of(&k.text()),
        device,
    }
}

async fn json_anon(app: &TestApp, uri: &str, body: serde_json::Value) -> Resp {
    app.call(
        TestRequest::post()
            .uri(uri)
            .insert_header(("Content-Type", "application/json"))
            .set_payload(body.to_string())
            .to_request(),
    )
    .await
}

/// NL 1/2 (game 1) running at table 1; PLO (game 2) running at table 2; player ids[0] has
/// `PHONE` (SMS).
async fn room(app: &TestApp) -> (String, WebSession, Vec<i64>) {
    let token = app.admin_token().await;
    nl_game(app, &token).await;
    let g = json!({"name": "PLO 2/5", "variant": "plo", "small_blind": 200, "big_blind": 500,
        "limit_class": "low", "buy_in_min": 10000, "buy_in_max": 50000});
    assert_eq!(
        app.send_json("POST", "/api/v1/games", &token, g)
            .await
            .status,
        201
    );
    for (n, g) in [(1, 1), (2, 2)] {
        let t = json!({"number": n, "game_id": g, "mode": "continuous", "seats": 9});
        assert_eq!(
            app.send_json("POST", "/api/v1/tables", &token, t)
                .await
                .status,
            201
        );
    }
    let s = app.web_login("admin", ADMIN_PW).await;
    for t in [1, 2] {
        let r = app
            .post_form(&format!("/floor/tables/{t}/open"), &s, &[])
            .await;
        assert_eq!(r.status, 303, "{}", r.text());
    }
    let ids = eligible_players(app, 2);
    app.with_conn(|c| {
        use cardroom::db::schema::players::dsl as p;
        diesel::update(p::players.find(ids[0]))
            .set((p::phone.eq(Some(PHONE)), p::notify.eq("sms")))
            .execute(c)
            .unwrap();
    });
    (token, s, ids)
}

/// The last join code sent: (recipient, code), from the outbox.
fn last_code(app: &TestApp) -> (String, String) {
    use cardroom::db::schema::outbox::dsl as o;
    let (to, params): (String, String) = app.with_conn(|c| {
        o::outbox
            .filter(o::kind.eq("join_code"))
            .order(o::id.desc())
            .select((o::recipient, o::params))
            .first(c)
            .unwrap()
    });
    let v: serde_json::Value = serde_json::from_str(&params).unwrap();
    (to, v["code"].as_str().unwrap().to_string())
}

fn audit_actions(app: &TestApp) -> Vec<String> {
    use cardroom::db::schema::audit_log::dsl as a;
    app.with_conn(|c| {
        a::audit_log
            .order(a::seq)
            .select(a::action)
            .load(c)
            .unwrap()
    })
}

/// The hidden `token` of the code step.
fn code_token(html: &str) -> String {
    let i = html
        .find("name=\"token\" value=\"")
        .expect("the code form's token");
    let rest = &html[i + 20..];
    rest[..rest.find('"').unwrap()].to_string()
}

/// Phone → lists → code sent; returns the code step's token.
async fn ask(k: &Kiosk, app: &TestApp, phone: &str, name: &str, games: &[&str]) -> String {
    let r = k.post(app, "/kiosk/phone", &[("phone", phone)]).await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(r.text().contains("id=\"kiosk-lists-form\""), "{}", r.text());
    let mut f = vec![("phone", phone), ("name", name)];
    for g in games {
        f.push(("games", g));
    }
    let r = k.post(app, "/kiosk/send", &f).await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(r.text().contains("id=\"kiosk-code-form\""), "{}", r.text());
    code_token(&r.text())
}

#[actix_web::test]
async fn a_tablet_pairs_as_the_desk_kiosk_and_shows_the_kiosk_only() {
    let app = TestApp::new().await;
    let (_, floor, _) = room(&app).await;
    let k = pair_kiosk(&app, &floor, "Desk left").await;
    assert!(audit_actions(&app).contains(&"kiosk.pair".to_string()));
    // The floor sees it among the tablets.
    let page = app.page("/floor/tablets", &floor).await.text();
    assert!(
        page.contains("id=\"kiosks-table\"") && page.contains("Desk left"),
        "{page}"
    );
    // /tablet on the kiosk goes to /kiosk.
    let r = k.get(&app, "/tablet").await;
    assert_eq!(r.status, 303);
    assert_eq!(r.header("location").as_deref(), Some("/kiosk"));
    // The start screen: in the room's language (pt) whatever the browser says, no player
    // data, not stored, no autofill, the idle time for the script, no inline script or style.
    let r = app
        .call(
            TestRequest::get()
                .uri("/kiosk")
                .cookie(k.c())
                .insert_header(("Accept-Language", "en"))
                .to_request(),
        )
        .await;
    let html = r.text();
    assert_eq!(r.header("cache-control").as_deref(), Some("no-store"));
    assert!(html.contains("<html lang=\"pt\""), "{html}");
    assert!(html.contains("data-idle=\"30\""), "{html}");
    assert!(html.contains("autocomplete=\"off\""));
    assert!(html.contains("/static/kiosk.js?v=") && html.contains("/static/kiosk.css?v="));
    assert!(
        !html.contains("<script>") && !html.contains("style=\""),
        "{html}"
    );
    assert!(html.contains("href=\"/kiosk?lang=en\""));
    for static_file in ["/static/kiosk.js", "/static/kiosk.css"] {
        let r = app
            .call(TestRequest::get().uri(static_file).to_request())
            .await;
        assert_eq!(r.status, 200, "{static_file}");
    }
    // The switch: English for this player only (no cookie is set).
    let r = k.get(&app, "/kiosk?lang=en").await;
    assert!(r.text().contains("<html lang=\"en\""));
    assert!(r.text().contains("Join a waiting list"));
    assert!(r.cookie("cr_lang").is_none());
}

#[actix_web::test]
async fn the_kiosk_token_is_neither_a_tablet_nor_staff_and_others_get_403() {
    let app = TestApp::new().await;
    let (_, floor, _) = room(&app).await;
    let k = pair_kiosk(&app, &floor, "").await;
    // A dealer signed in on the kiosk's browser: the tablet's routes refuse the kiosk.
    app.create_staff("dealer1", "dealer");
    let d = app.web_login("dealer1", STAFF_PW).await;
    for uri in ["/tablet/view", "/tablet/stream"] {
        let r = app
            .call(
                TestRequest::get()
                    .uri(uri)
                    .cookie(k.c())
                    .cookie(d.c())
                    .to_request(),
            )
            .await;
        assert_eq!(r.status, 403, "{uri}: {}", r.text());
    }
    // The kiosk token as a staff session or an API token: not signed in.
    let r = app
        .call(
            TestRequest::get()
                .uri("/floor")
                .cookie(Cookie::new("cr_session", k.device.clone()))
                .to_request(),
        )
        .await;
    assert!(
        r.status == 303 || r.status == 401,
        "{}: {}",
        r.status,
        r.text()
    );
    assert!(r.header("location").is_none_or(|l| l.starts_with("/login")));
    let r = app
        .call(
            TestRequest::get()
                .uri("/api/v1/tables")
                .insert_header(("Authorization", format!("Bearer {}", k.device)))
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 401);
    // Staff pages with only the kiosk's cookie: not signed in.
    let r = k.get(&app, "/floor/tablets").await;
    assert_ne!(r.status, 200);
    // A browser that is not a kiosk: 403 with a clear page (and a dealer tablet too).
    let r = app
        .call(
            TestRequest::get()
                .uri("/kiosk")
                .insert_header(("Accept-Language", "en"))
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 403);
    assert!(r.text().contains("not a paired desk kiosk"), "{}", r.text());
    let tablet = pair_device(&app, &floor, "1", "T1").await;
    let r = app
        .call(
            TestRequest::get()
                .uri("/kiosk")
                .cookie(Cookie::new("cr_device", tablet))
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 403);
    let r = post_raw(&app, "/kiosk/phone", None, &[("phone", PHONE)]).await;
    assert_eq!(r.status, 403);
    // The kiosk's own forms need its CSRF value.
    let r = post_raw(&app, "/kiosk/phone", Some(k.c()), &[("phone", PHONE)]).await;
    assert_eq!(r.status, 403);
    let r = post_raw(
        &app,
        "/kiosk/phone",
        Some(k.c()),
        &[("csrf", "wrong"), ("phone", PHONE)],
    )
    .await;
    assert_eq!(r.status, 403);
    // The tablet API does not hand a kiosk pairing out as a dealer tablet.
    let p = json_anon(&app, "/api/v1/tablet-pairings", json!({}))
        .await
        .json();
    let code = p["code"].as_str().unwrap().to_string();
    let r = app
        .post_form(
            "/floor/tablets/pair",
            &floor,
            &[("code", &code), ("table_id", "kiosk")],
        )
        .await;
    assert_eq!(r.status, 200);
    let r = json_anon(
        &app,
        "/api/v1/tablet-pairings/collect",
        json!({"code": code, "secret": p["secret"]}),
    )
    .await;
    assert_eq!(r.status, 409, "{}", r.text());
}

#[actix_web::test]
async fn a_registered_player_joins_at_the_kiosk_and_states_a_seat_preference() {
    let app = TestApp::new().await;
    let (token, floor, ids) = room(&app).await;
    let k = pair_kiosk(&app, &floor, "Desk").await;
    // A bad phone: said on the start screen, as typed.
    let r = k.post(&app, "/kiosk/phone", &[("phone", "12ab")]).await;
    assert_eq!(r.status, 422);
    assert!(r.text().contains("value=\"12ab\"") && r.text().contains("id=\"kiosk-errors\""));
    // The lists screen is the same for anyone: no name looked up from the phone.
    let r = k
        .post(&app, "/kiosk/phone", &[("phone", "912 000 001")])
        .await;
    assert_eq!(r.status, 200);
    let html = r.text();
    assert!(
        html.contains("NL 1/2") && html.contains("PLO 2/5"),
        "{html}"
    );
    let name: String = app.with_conn(|c| {
        use cardroom::db::schema::players::dsl as p;
        p::players
            .find(ids[0])
            .select(p::full_name)
            .first(c)
            .unwrap()
    });
    assert!(!html.contains(&name), "no player data before the code");
    // Too many lists, and no list: refused, as typed.
    let r = k
        .post(
            &app,
            "/kiosk/send",
            &[("phone", "912 000 001"), ("name", "A"), ("games", "99")],
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(r.text().contains("value=\"A\""));
    let outbox0 = app.count("outbox");
    // Both lists: the code goes to the phone.
    let t = ask(&k, &app, "912 000 001", "Walk In", &["1", "2"]).await;
    assert_eq!(app.count("outbox"), outbox0 + 1);
    let (to, code) = last_code(&app);
    assert_eq!(to, PHONE);
    // A wrong code: said, one try fewer; then the right one.
    let wrong = format!("{:06}", (code.parse::<u32>().unwrap() + 1) % 1_000_000);
    let r = k
        .post(&app, "/kiosk/code", &[("token", &t), ("code", &wrong)])
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(r.text().contains("id=\"kiosk-code-form\""));
    let r = k
        .post(&app, "/kiosk/code", &[("token", &t), ("code", &code)])
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let html = r.text();
    assert!(html.contains("id=\"kiosk-on-list\""), "{html}");
    assert!(
        html.contains("Está nas listas") && html.contains("lugar 1"),
        "{html}"
    );
    assert!(html.contains("id=\"kiosk-done\"") && html.contains("data-replace"));
    assert!(html.contains("id=\"kiosk-pref-form\""), "{html}");
    // The entries: marked kiosk, at the desk (no check-in needed).
    let rows: Vec<(i64, String, Option<String>)> = app.with_conn(|c| {
        use cardroom::db::schema::waitlist_entries::dsl as w;
        w::waitlist_entries
            .filter(w::player_id.eq(ids[0]))
            .order(w::game_id)
            .select((w::game_id, w::source, w::via))
            .load(c)
            .unwrap()
    });
    assert_eq!(
        rows,
        vec![
            (1, "desk".to_string(), Some("kiosk".to_string())),
            (2, "desk".to_string(), Some("kiosk".to_string()))
        ]
    );
    let l = app.get("/api/v1/games/1/waitlist", &token).await.json();
    assert_eq!(l["lines"][0]["origin"], "kiosk", "{l}");
    let board = app.page("/floor", &floor).await.text();
    assert!(board.contains("data-source=\"kiosk\""), "{board}");
    let acts = audit_actions(&app);
    for a in [
        "join.code_sent",
        "join.code_failed",
        "join.remote",
        "list.join",
    ] {
        assert!(acts.contains(&a.to_string()), "{a} in {acts:?}");
    }
    // The seat preference step: a refused number, said with the typed values kept…
    let ticket = {
        let i = html.find("name=\"ticket\" value=\"").unwrap();
        let rest = &html[i + 21..];
        rest[..rest.find('"').unwrap()].to_string()
    };
    let audit0 = app.audit_count();
    let r = k
        .post(
            &app,
            "/kiosk/pref",
            &[
                ("ticket", &ticket),
                ("seats", "1, 40"),
                ("avoid_tables", "2"),
            ],
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(r.text().contains("value=\"1, 40\"") && r.text().contains("id=\"kiosk-errors\""));
    assert_eq!(
        app.audit_count(),
        audit0,
        "a refused preference changes nothing"
    );
    // … then saved as the player's, audited with the player as the actor.
    let r = k
        .post(
            &app,
            "/kiosk/pref",
            &[
                ("ticket", &ticket),
                ("seats", "1, 9"),
                ("avoid_tables", "2"),
                ("accessible", "true"),
            ],
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(r.text().contains("id=\"kiosk-pref-saved\""), "{}", r.text());
    let pref = app
        .get(
            &format!("/api/v1/players/{}/seat-preference", ids[0]),
            &token,
        )
        .await;
    assert_eq!(pref.status, 200, "{}", pref.text());
    let pref = pref.json();
    assert_eq!(pref["seats"], json!([1, 9]), "{pref}");
    assert_eq!(pref["avoid_tables"], json!([2]));
    assert_eq!(pref["accessible"], true);
    let (action, actor): (String, Option<i64>) = app.with_conn(|c| {
        use cardroom::db::schema::audit_log::dsl as a;
        a::audit_log
            .order(a::seq.desc())
            .select((a::action, a::actor_id))
            .first(c)
            .unwrap()
    });
    assert_eq!(action, "player.seat_preference");
    assert_eq!(actor, None, "the player, not a staff member");
    // A forged or foreign ticket is refused.
    let forged = ticket.replacen(&format!("{}.", ids[0]), &format!("{}.", ids[1]), 1);
    let r = k
        .post(&app, "/kiosk/pref", &[("ticket", &forged), ("seats", "3")])
        .await;
    assert_eq!(r.status, 403);
    // The used code cannot be used again.
    let r = k
        .post(&app, "/kiosk/code", &[("token", &t), ("code", &code)])
        .await;
    assert_eq!(r.status, 409, "{}", r.text());
    assert!(r.text().contains("id=\"kiosk-again\""));
}

#[actix_web::test]
async fn a_guest_joins_at_the_kiosk_and_is_told_to_register_at_the_desk() {
    let app = TestApp::new().await;
    let (_, floor, _) = room(&app).await;
    let k = pair_kiosk(&app, &floor, "Desk").await;
    let t = ask(&k, &app, GUEST_PHONE, "Ana Nova", &["1"]).await;
    let (to, code) = last_code(&app);
    assert_eq!(to, GUEST_PHONE);
    // In English: the language switched on the start screen rides on the forms.
    let r = k
        .post(
            &app,
            "/kiosk/code",
            &[("token", &t), ("code", &code), ("lang", "en")],
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let html = r.text();
    assert!(
        html.contains("id=\"kiosk-guest\"") && html.contains("id=\"kiosk-register\""),
        "{html}"
    );
    assert!(html.contains("photo ID"), "{html}");
    assert!(
        !html.contains("kiosk-pref-form"),
        "a guest has no record to keep a preference"
    );
    let via: Vec<String> = app.with_conn(|c| {
        use cardroom::db::schema::guest_entries::dsl as g;
        g::guest_entries.select(g::via).load(c).unwrap()
    });
    assert_eq!(via, vec!["kiosk".to_string()]);
    let board = app.page("/floor", &floor).await.text();
    assert!(board.contains("Ana Nova"), "{board}");
}

#[actix_web::test]
async fn the_kiosk_is_limited_per_phone_and_room_but_not_per_address() {
    let app = TestApp::tuned(|c| {
        c.join.codes_per_address = 1;
        c.join.codes_per_phone = 1;
    })
    .await;
    let (_, floor, _) = room(&app).await;
    let k = pair_kiosk(&app, &floor, "Desk").await;
    // Two walk-ins from the kiosk's one address: both get their code.
    ask(&k, &app, "+351913000001", "Um", &["1"]).await;
    ask(&k, &app, "+351913000002", "Dois", &["1"]).await;
    // The same phone again: the per-phone limit, with Retry-After, nothing sent.
    let outbox0 = app.count("outbox");
    let r = k
        .post(
            &app,
            "/kiosk/send",
            &[("phone", "+351913000002"), ("name", "Dois"), ("games", "1")],
        )
        .await;
    assert_eq!(r.status, 429, "{}", r.text());
    assert!(r.header("retry-after").is_some());
    assert!(r.text().contains("value=\"Dois\""));
    assert_eq!(app.count("outbox"), outbox0);
    // A blocked phone: the same answer as anyone, nothing sent.
    let r = app
        .post_form(
            "/floor/phones",
            &floor,
            &[("phone", "+351913000003"), ("reason", "spam")],
        )
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    ask(&k, &app, "+351913000003", "Três", &["1"]).await;
    assert_eq!(app.count("outbox"), outbox0);
    assert!(audit_actions(&app).contains(&"join.code_withheld".to_string()));
}

#[actix_web::test]
async fn a_revoked_kiosk_shows_the_pairing_screen_again() {
    let app = TestApp::new().await;
    let (_, floor, _) = room(&app).await;
    let k = pair_kiosk(&app, &floor, "Desk").await;
    let id: i64 = app.with_conn(|c| {
        use cardroom::db::schema::kiosks::dsl as k;
        k::kiosks.select(k::id).first(c).unwrap()
    });
    let r = app
        .post_form(&format!("/floor/kiosks/{id}/revoke"), &floor, &[])
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    assert!(audit_actions(&app).contains(&"kiosk.revoke".to_string()));
    let page = app.page("/floor/tablets", &floor).await.text();
    assert!(page.contains("id=\"kiosks-none\""), "{page}");
    // Revoked twice: 409.
    let r = app
        .post_form(&format!("/floor/kiosks/{id}/revoke"), &floor, &[])
        .await;
    assert_eq!(r.status, 409);
    // The kiosk: back to the pairing screen.
    let r = k.get(&app, "/kiosk").await;
    assert_eq!(r.status, 303);
    assert_eq!(r.header("location").as_deref(), Some("/tablet"));
    let r = k.get(&app, "/tablet").await;
    assert_eq!(r.status, 200);
    assert!(r.text().contains("id=\"pair-code\""), "{}", r.text());
    let r = k.post(&app, "/kiosk/phone", &[("phone", PHONE)]).await;
    assert_eq!(r.status, 303);
}

#[actix_web::test]
async fn the_idle_time_is_a_validated_setting_given_to_the_page() {
    let mut c = cardroom::config::Settings::default();
    for bad in [0, 1, 601] {
        c.room.kiosk_idle_secs = bad;
        assert_eq!(
            c.validate().unwrap_err().setting,
            "CARDROOM_KIOSK_IDLE_SECS",
            "{bad}"
        );
    }
    let app = TestApp::tuned(|c| c.room.kiosk_idle_secs = 3).await;
    let (_, floor, _) = room(&app).await;
    let k = pair_kiosk(&app, &floor, "Desk").await;
    let r = k.get(&app, "/kiosk").await;
    assert!(r.text().contains("data-idle=\"3\""), "{}", r.text());
}

#[actix_web::test]
async fn the_api_pairs_lists_and_revokes_desk_kiosks() {
    let app = TestApp::new().await;
    let (token, _, _) = room(&app).await;
    let p = json_anon(&app, "/api/v1/tablet-pairings", json!({}))
        .await
        .json();
    let code = p["code"].as_str().unwrap().to_string();
    // A dealer may not; a bad code or a long name is a 422 naming the field.
    let dealer = app.staff_token("dealer9", "dealer").await;
    let r = app
        .send_json("POST", "/api/v1/kiosks", &dealer, json!({"code": code}))
        .await;
    assert_eq!(r.status, 403);
    let r = app
        .send_json("POST", "/api/v1/kiosks", &token, json!({"code": "AAA"}))
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
    let r = app
        .send_json(
            "POST",
            "/api/v1/kiosks",
            &token,
            json!({"code": code, "label": "x".repeat(41)}),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
    let r = app
        .send_json("POST", "/api/v1/kiosks", &token, json!({"code": code}))
        .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let k = r.json();
    let id = k["id"].as_i64().unwrap();
    assert_eq!(k["label"], format!("Kiosk {id}"));
    // The code is used up: neither a tablet nor another kiosk takes it.
    let r = app
        .send_json("POST", "/api/v1/kiosks", &token, json!({"code": code}))
        .await;
    assert_eq!(r.status, 422);
    let r = app
        .send_json(
            "POST",
            "/api/v1/tablets",
            &token,
            json!({"code": code, "table_id": 1}),
        )
        .await;
    assert_eq!(r.status, 422);
    let l = app.get("/api/v1/kiosks", &token).await.json();
    assert_eq!(l.as_array().map(Vec::len), Some(1), "{l}");
    let r = app
        .send_json(
            "POST",
            &format!("/api/v1/kiosks/{id}/revoke"),
            &token,
            json!({}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(r.json()["revoked_at"].is_string());
    let r = app
        .send_json(
            "POST",
            &format!("/api/v1/kiosks/{id}/revoke"),
            &token,
            json!({}),
        )
        .await;
    assert_eq!(r.status, 409);
    let r = app
        .send_json("POST", "/api/v1/kiosks/999/revoke", &token, json!({}))
        .await;
    assert_eq!(r.status, 404);
    let l = app.get("/api/v1/kiosks", &token).await.json();
    assert_eq!(l, json!([]));
}

/// A refused pairing (a wrong code) shows the form again with what was chosen: the desk kiosk
/// stays chosen (it used to fall back to the first table), a table stays that table.
#[actix_web::test]
async fn a_refused_pairing_keeps_the_desk_kiosk_or_the_table_chosen() {
    let app = TestApp::new().await;
    let (_, floor, _) = room(&app).await;
    let r = app
        .post_form(
            "/floor/tablets/pair",
            &floor,
            &[("code", "ZZZZZZ"), ("table_id", "kiosk"), ("label", "Desk")],
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
    let html = r.text();
    assert!(html.contains("id=\"tablets-problem\""), "{html}");
    assert!(
        html.contains("<option value=\"kiosk\" id=\"pair-as-kiosk\" selected>"),
        "{html}"
    );
    assert!(html.contains("value=\"Desk\""), "{html}");
    assert_eq!(app.count("kiosks"), 0);
    let r = app
        .post_form(
            "/floor/tablets/pair",
            &floor,
            &[("code", "ZZZZZZ"), ("table_id", "2")],
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
    let html = r.text();
    assert!(html.contains("<option value=\"2\" selected>"), "{html}");
    assert!(!html.contains("id=\"pair-as-kiosk\" selected"), "{html}");
}
