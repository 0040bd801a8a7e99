//! The JSON API (`/api/v1`): sign-in and tokens, the player registry (BSOP 1, 2, 3, 10, 47),
//! room, games, tables, the test clock and the OpenAPI document. Every refusal is checked for
//! its status, its `error.code`, a message in the request's language, and that nothing changed.

use crate::support::*;
use actix_web::test;
use base64::Engine;
use chrono::{Duration, Months, NaiveDate, Utc};
use serde_json::{json, Value};

// ---- helpers ---------------------------------------------------------------------------

/// Sends a request with an optional Bearer token, JSON body and `Accept-Language`.
async fn send(
    app: &TestApp,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Option<Value>,
    lang: Option<&str>,
) -> Resp {
    let mut req = match method {
        "GET" => test::TestRequest::get(),
        "POST" => test::TestRequest::post(),
        "PUT" => test::TestRequest::put(),
        "DELETE" => test::TestRequest::delete(),
        other => panic!("method {other}"),
    }
    .uri(uri);
    if let Some(t) = token {
        req = req.insert_header(("Authorization", format!("Bearer {t}")));
    }
    if let Some(l) = lang {
        req = req.insert_header(("Accept-Language", l));
    }
    if let Some(b) = body {
        req = req.set_json(b);
    }
    app.call(req.to_request()).await
}

/// A raw body with a content type (photos, wrong content types, malformed JSON).
async fn send_raw(
    app: &TestApp,
    method: &str,
    uri: &str,
    token: &str,
    content_type: &str,
    body: Vec<u8>,
    lang: Option<&str>,
) -> Resp {
    let mut req = match method {
        "POST" => test::TestRequest::post(),
        "PUT" => test::TestRequest::put(),
        other => panic!("method {other}"),
    }
    .uri(uri)
    .insert_header(("Authorization", format!("Bearer {token}")))
    .insert_header(("Content-Type", content_type))
    .set_payload(body);
    if let Some(l) = lang {
        req = req.insert_header(("Accept-Language", l));
    }
    app.call(req.to_request()).await
}

/// What must not move when a request is refused.
#[derive(Debug, PartialEq, Eq)]
struct Snapshot {
    audit: i64,
    players: i64,
    exclusions: i64,
    separations: i64,
    games: i64,
    tables: i64,
}

fn snapshot(app: &TestApp) -> Snapshot {
    Snapshot {
        audit: app.audit_count(),
        players: app.count("players"),
        exclusions: app.count("exclusions"),
        separations: app.count("separations"),
        games: app.count("games"),
        tables: app.count("card_tables"),
    }
}

/// Checks a JSON refusal: status, `error.code`, a non-empty message; returns the body.
fn refused(r: &Resp, status: u16, code: &str) -> Value {
    assert_eq!(
        r.status,
        status,
        "expected {status}, got {}: {}",
        r.status,
        r.text()
    );
    let j = r.json();
    assert_eq!(j["error"]["code"], code, "{j}");
    let msg = j["error"]["message"].as_str().unwrap_or_default();
    assert!(!msg.trim().is_empty(), "empty message: {j}");
    assert!(
        !msg.starts_with("err-") && !msg.starts_with("api-"),
        "untranslated message: {msg}"
    );
    j
}

fn message(j: &Value) -> String {
    j["error"]["message"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// The `(field, code)` pairs of a 422, each message non-empty and translated.
fn fields(j: &Value) -> Vec<(String, String)> {
    j["error"]["fields"]
        .as_array()
        .unwrap_or_else(|| panic!("no fields: {j}"))
        .iter()
        .map(|f| {
            let m = f["message"].as_str().unwrap_or_default();
            assert!(
                !m.is_empty() && !m.starts_with("err-"),
                "field message: {f}"
            );
            (
                f["field"].as_str().unwrap().to_string(),
                f["code"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn field_message(j: &Value, field: &str) -> String {
    j["error"]["fields"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|f| f["field"] == field)
        .map(|f| f["message"].as_str().unwrap_or_default().to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The room's date (Europe/Lisbon, the default room's zone).
fn lisbon_today() -> NaiveDate {
    Utc::now()
        .with_timezone(&chrono_tz::Europe::Lisbon)
        .date_naive()
}

/// A PNG portrait made with the `image` crate.
fn png(w: u32, h: u32) -> Vec<u8> {
    let img = image::RgbImage::from_fn(w, h, |x, y| {
        image::Rgb([(x % 256) as u8, (y % 256) as u8, 140])
    });
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Png)
        .expect("png");
    out.into_inner()
}

async fn register(app: &TestApp, token: &str, doc: &str) -> i64 {
    let r = send(
        app,
        "POST",
        "/api/v1/players",
        Some(token),
        Some(player_json(doc)),
        None,
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text());
    r.json()["player"]["id"].as_i64().unwrap()
}

async fn put_photo(app: &TestApp, token: &str, id: i64) {
    let r = send_raw(
        app,
        "PUT",
        &format!("/api/v1/players/{id}/photo"),
        token,
        "image/png",
        png(200, 260),
        None,
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
}

async fn eligibility(app: &TestApp, token: &str, id: i64) -> Value {
    let r = app
        .get(&format!("/api/v1/players/{id}/eligibility"), token)
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    r.json()
}

/// Posts a registration that must be refused; checks that nothing changed.
async fn refuse_registration(
    app: &TestApp,
    body: Value,
    status: u16,
    code: &str,
    lang: Option<&str>,
) -> Value {
    let token = app.admin_token().await;
    let before = snapshot(app);
    let r = send(
        app,
        "POST",
        "/api/v1/players",
        Some(&token),
        Some(body),
        lang,
    )
    .await;
    let j = refused(&r, status, code);
    assert_eq!(
        snapshot(app),
        before,
        "a refused registration changed something"
    );
    j
}

// ---- sign-in and tokens ----------------------------------------------------------------

#[actix_rt::test]
async fn login_returns_a_bearer_token_that_opens_the_api() {
    let app = TestApp::new().await;
    let r = send(
        &app,
        "POST",
        "/api/v1/auth/login",
        None,
        Some(json!({"username": "admin", "password": ADMIN_PW})),
        None,
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let j = r.json();
    assert_eq!(j["staff"]["username"], "admin");
    assert_eq!(j["staff"]["role"], "admin");
    assert!(j["staff"]["id"].as_i64().is_some());
    assert!(j["staff"].get("password_hash").is_none());
    let expires: chrono::DateTime<Utc> = j["expires_at"].as_str().unwrap().parse().unwrap();
    let hours = (expires - Utc::now()).num_minutes() as f64 / 60.0;
    assert!((11.9..=12.1).contains(&hours), "session of {hours} h");
    let token = j["token"].as_str().unwrap();
    let me = app.get("/api/v1/me", token).await;
    assert_eq!(me.status, 200, "{}", me.text());
    assert_eq!(me.json()["username"], "admin");
}

#[actix_rt::test]
async fn login_with_a_wrong_password_is_refused_in_the_callers_language() {
    let app = TestApp::new().await;
    let before = snapshot(&app);
    let body = json!({"username": "admin", "password": "not-the-password"});
    let en = send(
        &app,
        "POST",
        "/api/v1/auth/login",
        None,
        Some(body.clone()),
        None,
    )
    .await;
    let j = refused(&en, 401, "unauthorized");
    assert!(message(&j).contains("password"), "{j}");
    assert!(en.json().get("token").is_none());
    let pt = send(
        &app,
        "POST",
        "/api/v1/auth/login",
        None,
        Some(body),
        Some("pt-PT"),
    )
    .await;
    let j = refused(&pt, 401, "unauthorized");
    assert!(message(&j).contains("palavra-passe"), "{j}");
    assert_eq!(pt.header("content-language").as_deref(), Some("pt"));
    // The only trace of the two failures: one audit record each (who tried); nothing else.
    let after = snapshot(&app);
    assert_eq!(after.players, before.players);
    assert_eq!(after.audit, before.audit + 2);
    let last = app.with_conn(|c| {
        use cardroom::db::schema::audit_log::dsl::*;
        use diesel::prelude::*;
        audit_log
            .order(seq.desc())
            .select(action)
            .first::<String>(c)
            .unwrap()
    });
    assert_eq!(last, "staff.login_failed");
}

#[actix_rt::test]
async fn login_with_an_unknown_user_changes_nothing() {
    let app = TestApp::new().await;
    let before = snapshot(&app);
    let r = send(
        &app,
        "POST",
        "/api/v1/auth/login",
        None,
        Some(json!({"username": "nobody", "password": "whatever-it-is"})),
        None,
    )
    .await;
    let j = refused(&r, 401, "unauthorized");
    // Same answer as a wrong password: usernames are not revealed.
    assert_eq!(message(&j), "Wrong username or password.");
    assert_eq!(snapshot(&app), before);
}

#[actix_rt::test]
async fn a_token_expires_with_the_clock() {
    let app = TestApp::with_clock(true).await;
    let token = app.admin_token().await;
    assert_eq!(app.get("/api/v1/me", &token).await.status, 200);
    let r = send(
        &app,
        "POST",
        "/api/v1/test/clock/advance",
        Some(&token),
        Some(json!({"minutes": 13 * 60})),
        None,
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let before = snapshot(&app);
    let r = app.get("/api/v1/me", &token).await;
    let j = refused(&r, 401, "unauthorized");
    assert!(message(&j).contains("expired"), "{j}");
    assert_eq!(r.header("www-authenticate").as_deref(), Some("Bearer"));
    let r = send(
        &app,
        "POST",
        "/api/v1/players",
        Some(&token),
        Some(player_json("EXP123456")),
        Some("pt"),
    )
    .await;
    let j = refused(&r, 401, "unauthorized");
    assert!(message(&j).contains("expirou"), "{j}");
    assert_eq!(snapshot(&app), before);
}

#[actix_rt::test]
async fn a_token_signed_with_another_key_is_refused() {
    let app = TestApp::new().await;
    let real = app.admin_token().await;
    let me = app.get("/api/v1/me", &real).await.json();
    let now = Utc::now();
    let claims = cardroom::auth::Claims {
        sub: me["id"].as_i64().unwrap(),
        ver: 0,
        kind: cardroom::auth::TokenKind::Api,
        csrf: "x".repeat(32),
        sid: String::new(),
        iat: now.timestamp(),
        exp: (now + Duration::hours(1)).timestamp(),
    };
    let forged = jsonwebtoken::encode(
        &jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS256),
        &claims,
        &jsonwebtoken::EncodingKey::from_secret(b"some-other-secret-some-other-secret-0000"),
    )
    .unwrap();
    let before = snapshot(&app);
    let r = send(
        &app,
        "POST",
        "/api/v1/players",
        Some(&forged),
        Some(player_json("FORGED1234")),
        None,
    )
    .await;
    let j = refused(&r, 401, "unauthorized");
    assert!(message(&j).contains("not valid"), "{j}");
    refused(
        &app.get("/api/v1/staff", &forged).await,
        401,
        "unauthorized",
    );
    assert_eq!(snapshot(&app), before);
}

#[actix_rt::test]
async fn an_alg_none_token_is_refused() {
    let app = TestApp::new().await;
    let real = app.admin_token().await;
    let payload = real.split('.').nth(1).unwrap().to_string();
    let header =
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(br#"{"alg":"none","typ":"JWT"}"#);
    let unsigned = format!("{header}.{payload}.");
    let before = snapshot(&app);
    refused(&app.get("/api/v1/me", &unsigned).await, 401, "unauthorized");
    let r = send(
        &app,
        "POST",
        "/api/v1/players",
        Some(&unsigned),
        Some(player_json("NONE123456")),
        None,
    )
    .await;
    refused(&r, 401, "unauthorized");
    assert_eq!(snapshot(&app), before);
}

#[actix_rt::test]
async fn garbage_or_missing_tokens_are_refused() {
    let app = TestApp::new().await;
    let before = snapshot(&app);
    for t in ["garbage", "a.b.c", "eyJhbGciOiJIUzI1NiJ9.e30.xyz"] {
        let r = send(
            &app,
            "POST",
            "/api/v1/players",
            Some(t),
            Some(player_json("GARB12345")),
            None,
        )
        .await;
        refused(&r, 401, "unauthorized");
    }
    let r = send(&app, "GET", "/api/v1/players", None, None, Some("pt-PT")).await;
    let j = refused(&r, 401, "unauthorized");
    assert!(message(&j).contains("Envie um token"), "{j}");
    assert_eq!(snapshot(&app), before);
    // A page session cookie does not open the API (signing in is itself audited).
    let s = app.web_login("admin", ADMIN_PW).await;
    let before = snapshot(&app);
    let r = app
        .call(
            test::TestRequest::get()
                .uri("/api/v1/me")
                .cookie(s.c())
                .to_request(),
        )
        .await;
    refused(&r, 401, "unauthorized");
    assert_eq!(snapshot(&app), before);
}

#[actix_rt::test]
async fn changing_the_password_ends_the_token() {
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    let before = snapshot(&app);
    let r = send(&app, "POST", "/api/v1/auth/password", Some(&token), Some(json!({"current_password": "wrong-wrong-wrong", "new_password": "a-brand-new-password"})), None).await;
    let j = refused(&r, 422, "validation_failed");
    assert_eq!(
        fields(&j),
        vec![("current_password".into(), "current_password".into())]
    );
    assert_eq!(snapshot(&app), before);
    let r = send(
        &app,
        "POST",
        "/api/v1/auth/password",
        Some(&token),
        Some(json!({"current_password": ADMIN_PW, "new_password": "a-brand-new-password"})),
        None,
    )
    .await;
    assert_eq!(r.status, 204, "{}", r.text());
    refused(&app.get("/api/v1/me", &token).await, 401, "unauthorized");
    let fresh = app.api_login("admin", "a-brand-new-password").await;
    assert_eq!(app.get("/api/v1/me", &fresh).await.status, 200);
}

// ---- roles -----------------------------------------------------------------------------

#[actix_rt::test]
async fn a_dealer_cannot_call_admin_routes() {
    let app = TestApp::new().await;
    let dealer = app.staff_token("dina", "dealer").await;
    let before = snapshot(&app);
    let r = send(&app, "GET", "/api/v1/staff", Some(&dealer), None, None).await;
    let j = refused(&r, 403, "forbidden");
    assert!(message(&j).contains("role"), "{j}");
    let r = send(&app, "POST", "/api/v1/games", Some(&dealer), Some(json!({"name": "NL 1/2", "variant": "holdem_nl", "small_blind": 100, "big_blind": 200, "limit_class": "low", "buy_in_min": 5000})), Some("pt-PT")).await;
    let j = refused(&r, 403, "forbidden");
    assert!(message(&j).contains("função"), "{j}");
    refused(
        &send(&app, "GET", "/api/v1/audit", Some(&dealer), None, None).await,
        403,
        "forbidden",
    );
    refused(
        &send(&app, "GET", "/api/v1/players", Some(&dealer), None, None).await,
        403,
        "forbidden",
    );
    // What every staff member may read.
    assert_eq!(app.get("/api/v1/room", &dealer).await.status, 200);
    assert_eq!(app.get("/api/v1/tables", &dealer).await.status, 200);
    assert_eq!(snapshot(&app), before);
}

#[actix_rt::test]
async fn a_dealer_cannot_register_a_player() {
    let app = TestApp::new().await;
    let dealer = app.staff_token("dave", "dealer").await;
    let before = snapshot(&app);
    let r = send(
        &app,
        "POST",
        "/api/v1/players",
        Some(&dealer),
        Some(player_json("DEAL12345")),
        Some("pt-PT"),
    )
    .await;
    let j = refused(&r, 403, "forbidden");
    assert!(message(&j).contains("função"), "{j}");
    assert_eq!(snapshot(&app), before);
    // A cashier reads the registry but does not keep it.
    let cashier = app.staff_token("cara", "cashier").await;
    let before = snapshot(&app);
    assert_eq!(app.get("/api/v1/players", &cashier).await.status, 200);
    refused(
        &send(
            &app,
            "POST",
            "/api/v1/players",
            Some(&cashier),
            Some(player_json("CASH12345")),
            None,
        )
        .await,
        403,
        "forbidden",
    );
    assert_eq!(snapshot(&app), before);
}

// ---- registration ----------------------------------------------------------------------

#[actix_rt::test]
async fn registering_a_player_saves_it_with_its_audit_record() {
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    let before = snapshot(&app);
    let r = send(
        &app,
        "POST",
        "/api/v1/players",
        Some(&token),
        Some(player_json("12345678")),
        None,
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let j = r.json();
    let id = j["player"]["id"].as_i64().unwrap();
    assert_eq!(r.header("location"), Some(format!("/api/v1/players/{id}")));
    assert_eq!(j["player"]["full_name"], "Ana Maria Silva");
    assert_eq!(j["player"]["doc_number"], "12345678");
    assert_eq!(j["player"]["has_photo"], false);
    assert_eq!(j["player"]["version"], 1);
    assert_eq!(j["warnings"], json!([]));
    assert_eq!(j["eligibility"], json!(["no_photo"]));
    let after = snapshot(&app);
    assert_eq!(after.players, before.players + 1);
    assert_eq!(after.audit, before.audit + 1);
    let (action, subject, actor): (String, Option<i64>, String) = app.with_conn(|c| {
        use cardroom::db::schema::audit_log::dsl::*;
        use diesel::prelude::*;
        audit_log
            .order(seq.desc())
            .select((action, subject_id, actor_name))
            .first(c)
            .unwrap()
    });
    assert_eq!(
        (action.as_str(), subject, actor.as_str()),
        ("player.create", Some(id), "admin")
    );
    // The player's history shows the same record.
    let h = app
        .get(&format!("/api/v1/players/{id}/history"), &token)
        .await;
    assert_eq!(h.status, 200, "{}", h.text());
    assert_eq!(h.json()[0]["action"], "player.create");
    assert_eq!(h.json()[0]["after"]["full_name"], "Ana Maria Silva");
    // Found by search, shown in full.
    let s = app.get("/api/v1/players?q=ana%20silva", &token).await;
    assert_eq!(s.json().as_array().unwrap().len(), 1);
    let d = app.get(&format!("/api/v1/players/{id}"), &token).await;
    assert_eq!(d.status, 200, "{}", d.text());
    assert_eq!(d.json()["eligible"], false);
    assert_eq!(d.json()["eligibility"], json!(["no_photo"]));
}

#[actix_rt::test]
async fn bsop_1_under_18_by_one_day_is_refused() {
    let app = TestApp::new().await;
    let dob = lisbon_today()
        .checked_sub_months(Months::new(18 * 12))
        .unwrap()
        + Duration::days(1);
    let mut p = player_json("MINOR1234");
    p["date_of_birth"] = json!(dob.to_string());
    let j = refuse_registration(&app, p, 422, "validation_failed", Some("pt-PT")).await;
    assert!(
        fields(&j).contains(&("date_of_birth".into(), "under_18".into())),
        "{j}"
    );
    assert!(message(&j).contains("campos"), "{j}");
    let m = field_message(&j, "date_of_birth");
    assert!(
        m.contains("18 anos") && m.contains(&dob.format("%d/%m/").to_string()),
        "{m}"
    );
    // One day older: accepted.
    let token = app.admin_token().await;
    let mut p = player_json("ADULT1234");
    p["date_of_birth"] = json!((dob - Duration::days(1)).to_string());
    assert_eq!(
        send(&app, "POST", "/api/v1/players", Some(&token), Some(p), None)
            .await
            .status,
        201
    );
}

#[actix_rt::test]
async fn a_date_of_birth_in_the_future_is_refused() {
    let app = TestApp::new().await;
    let mut p = player_json("FUTURE123");
    p["date_of_birth"] = json!((lisbon_today() + Duration::days(3)).to_string());
    let j = refuse_registration(&app, p, 422, "validation_failed", None).await;
    assert!(
        fields(&j).contains(&("date_of_birth".into(), "dob_future".into())),
        "{j}"
    );
    assert!(field_message(&j, "date_of_birth").contains("future"));
}

#[actix_rt::test]
async fn a_date_of_birth_over_120_years_ago_is_refused() {
    let app = TestApp::new().await;
    let mut p = player_json("OLD1234567");
    p["date_of_birth"] = json!(lisbon_today()
        .checked_sub_months(Months::new(121 * 12))
        .unwrap()
        .to_string());
    let j = refuse_registration(&app, p, 422, "validation_failed", Some("pt-PT")).await;
    assert!(
        fields(&j).contains(&("date_of_birth".into(), "dob_too_old".into())),
        "{j}"
    );
    assert!(field_message(&j, "date_of_birth").contains("120 anos"));
}

#[actix_rt::test]
async fn bsop_3_an_expired_id_is_refused() {
    let app = TestApp::new().await;
    let mut p = player_json("EXPIRED12");
    p["doc_expiry"] = json!((lisbon_today() - Duration::days(1)).to_string());
    let j = refuse_registration(&app, p, 422, "validation_failed", None).await;
    assert!(
        fields(&j).contains(&("doc_expiry".into(), "id_expired".into())),
        "{j}"
    );
    assert!(field_message(&j, "doc_expiry").contains("expired"));
}

#[actix_rt::test]
async fn bsop_3_an_id_expiring_within_30_days_is_accepted_with_a_warning() {
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    let expiry = lisbon_today() + Duration::days(10);
    let mut p = player_json("SOON12345");
    p["doc_expiry"] = json!(expiry.to_string());
    let r = send(
        &app,
        "POST",
        "/api/v1/players",
        Some(&token),
        Some(p),
        Some("pt-PT"),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let w = &r.json()["warnings"];
    assert_eq!(w.as_array().unwrap().len(), 1, "{w}");
    assert_eq!(w[0]["code"], "id_expires_soon");
    assert_eq!(w[0]["days"], 10);
    assert_eq!(w[0]["date"], expiry.to_string());
    assert!(w[0]["message"].as_str().unwrap().contains("caduca"), "{w}");
}

#[actix_rt::test]
async fn a_duplicate_document_is_a_conflict_naming_the_existing_record() {
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    let id = register(&app, &token, "AB123456").await;
    let mut other = player_json("AB123456");
    other["full_name"] = json!("Bruno Costa");
    let j = refuse_registration(&app, other, 409, "conflict", None).await;
    let m = message(&j);
    assert!(
        m.contains("Ana Maria Silva") && m.contains(&id.to_string()),
        "{m}"
    );
    // The same number typed with other spacing, dashes and case.
    let mut other = player_json(" ab 123-456 ");
    other["full_name"] = json!("Bruno Costa");
    let j = refuse_registration(&app, other, 409, "conflict", Some("pt-PT")).await;
    let m = message(&j);
    assert!(
        m.contains("já está registado") && m.contains("Ana Maria Silva"),
        "{m}"
    );
}

#[actix_rt::test]
async fn a_missing_required_field_is_named() {
    let app = TestApp::new().await;
    let mut p = player_json("MISS12345");
    p.as_object_mut().unwrap().remove("full_name");
    p.as_object_mut().unwrap().remove("doc_expiry");
    let j = refuse_registration(&app, p, 422, "validation_failed", None).await;
    let f = fields(&j);
    assert!(f.contains(&("full_name".into(), "required".into())), "{j}");
    assert!(f.contains(&("doc_expiry".into(), "required".into())), "{j}");
}

#[actix_rt::test]
async fn a_ten_thousand_character_name_is_refused() {
    let app = TestApp::new().await;
    let mut p = player_json("LONG12345");
    p["full_name"] = json!("A".repeat(10_000));
    let j = refuse_registration(&app, p, 422, "validation_failed", None).await;
    assert!(
        fields(&j).contains(&("full_name".into(), "too_long".into())),
        "{j}"
    );
    assert!(field_message(&j, "full_name").contains("120"));
}

#[actix_rt::test]
async fn an_invalid_email_is_refused() {
    let app = TestApp::new().await;
    let mut p = player_json("MAIL12345");
    p["email"] = json!("ana.example.pt");
    let j = refuse_registration(&app, p, 422, "validation_failed", None).await;
    assert!(
        fields(&j).contains(&("email".into(), "email".into())),
        "{j}"
    );
}

#[actix_rt::test]
async fn an_invalid_phone_is_refused() {
    let app = TestApp::new().await;
    let mut p = player_json("PHONE1234");
    p["phone"] = json!("912 345");
    let j = refuse_registration(&app, p, 422, "validation_failed", Some("pt-PT")).await;
    assert!(
        fields(&j).contains(&("phone".into(), "phone".into())),
        "{j}"
    );
    assert!(field_message(&j, "phone").contains("formato internacional"));
}

#[actix_rt::test]
async fn an_unknown_document_kind_is_named() {
    let app = TestApp::new().await;
    let mut p = player_json("LIB123456");
    p["doc_kind"] = json!("library_card");
    let j = refuse_registration(&app, p, 422, "validation_failed", None).await;
    assert_eq!(fields(&j), vec![("doc_kind".into(), "choice".into())]);
    assert!(field_message(&j, "doc_kind").contains("library_card"));
}

#[actix_rt::test]
async fn malformed_json_is_a_bad_request() {
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    let before = snapshot(&app);
    let r = send_raw(
        &app,
        "POST",
        "/api/v1/players",
        &token,
        "application/json",
        br#"{"full_name": "Ana", "#.to_vec(),
        None,
    )
    .await;
    let j = refused(&r, 400, "bad_request");
    assert!(message(&j).contains("JSON"), "{j}");
    // JSON, but not the object the operation takes.
    for body in [&b"[1, 2]"[..], b"null", br#""Ana""#] {
        let r = send_raw(
            &app,
            "POST",
            "/api/v1/players",
            &token,
            "application/json",
            body.to_vec(),
            None,
        )
        .await;
        refused(&r, 400, "bad_request");
    }
    assert_eq!(snapshot(&app), before);
}

/// A value of the wrong type or out of range inside the body is a refused field (422 naming
/// it, in the user's language), like any other; a number with a zero fraction is the integer
/// it is (JSON Schema's `integer`).
#[actix_rt::test]
async fn a_field_of_the_wrong_type_or_range_is_named() {
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    let before = snapshot(&app);
    for (body, field, code) in [
        (r#"{"full_name": 42}"#, "full_name", "field_type"),
        (
            r#"{"number": 9223372036854775808, "mode": "continuous"}"#,
            "number",
            "number",
        ),
        (
            r#"{"number": 12.5, "mode": "continuous"}"#,
            "number",
            "number",
        ),
        (
            r#"{"number": 1e300, "mode": "continuous"}"#,
            "number",
            "number",
        ),
        (r#"{"number": 12, "mode": "sometimes"}"#, "mode", "choice"),
        (r#"{"mode": "continuous"}"#, "number", "required"),
    ] {
        let uri = if field == "full_name" {
            "/api/v1/players"
        } else {
            "/api/v1/tables"
        };
        let r = send_raw(
            &app,
            "POST",
            uri,
            &token,
            "application/json",
            body.as_bytes().to_vec(),
            Some("pt-PT"),
        )
        .await;
        let j = refused(&r, 422, "validation_failed");
        assert_eq!(
            fields(&j),
            vec![(field.to_string(), code.to_string())],
            "{body}: {j}"
        );
    }
    assert_eq!(snapshot(&app), before);
    // 12.0 is 12.
    let r = send_raw(
        &app,
        "POST",
        "/api/v1/tables",
        &token,
        "application/json",
        br#"{"number": 12.0, "mode": "continuous", "seats": 9.0}"#.to_vec(),
        None,
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text());
    assert_eq!(r.json()["number"], 12);
    assert_eq!(r.json()["seats"], 9);
}

#[actix_rt::test]
async fn a_body_that_is_not_json_is_unsupported() {
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    let before = snapshot(&app);
    let body = serde_json::to_vec(&player_json("TEXT12345")).unwrap();
    let r = send_raw(
        &app,
        "POST",
        "/api/v1/players",
        &token,
        "text/plain",
        body,
        None,
    )
    .await;
    let j = refused(&r, 415, "unsupported_media_type");
    assert!(message(&j).contains("application/json"), "{j}");
    assert_eq!(snapshot(&app), before);
}

// ---- photos and eligibility ------------------------------------------------------------

#[actix_rt::test]
async fn a_photo_that_is_not_an_image_is_refused() {
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    let id = register(&app, &token, "NOIMG1234").await;
    let before = snapshot(&app);
    let r = send_raw(
        &app,
        "PUT",
        &format!("/api/v1/players/{id}/photo"),
        &token,
        "image/png",
        b"this is plain text, not a PNG".to_vec(),
        Some("pt-PT"),
    )
    .await;
    let j = refused(&r, 422, "validation_failed");
    assert_eq!(fields(&j), vec![("photo".into(), "photo_not_image".into())]);
    assert!(field_message(&j, "photo").contains("imagem"));
    // Neither is an image sent with another content type.
    let r = send_raw(
        &app,
        "PUT",
        &format!("/api/v1/players/{id}/photo"),
        &token,
        "application/pdf",
        png(200, 260),
        Some("pt-PT"),
    )
    .await;
    let j = refused(&r, 415, "unsupported_media_type");
    assert!(message(&j).contains("fotografia"), "{j}");
    assert_eq!(snapshot(&app), before);
    assert_eq!(
        eligibility(&app, &token, id).await["reasons"],
        json!(["no_photo"])
    );
}

#[actix_rt::test]
async fn a_photo_over_5_mb_is_too_large() {
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    let id = register(&app, &token, "BIGIMG123").await;
    let before = snapshot(&app);
    let mut big = png(200, 260);
    big.resize(5 * 1024 * 1024 + 1, 0);
    let r = send_raw(
        &app,
        "PUT",
        &format!("/api/v1/players/{id}/photo"),
        &token,
        "image/png",
        big,
        None,
    )
    .await;
    let j = refused(&r, 413, "payload_too_large");
    assert!(message(&j).contains("5 MB"), "{j}");
    assert_eq!(snapshot(&app), before);
}

#[actix_rt::test]
async fn bsop_3_a_player_without_photo_becomes_eligible_once_it_is_added() {
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    let id = register(&app, &token, "PHOTO1234").await;
    let e = eligibility(&app, &token, id).await;
    assert_eq!(e["eligible"], false);
    assert_eq!(e["reasons"], json!(["no_photo"]));
    assert_eq!(e["messages"], json!(["No photo on record"]));
    refused(
        &app.get(&format!("/api/v1/players/{id}/photo"), &token)
            .await,
        404,
        "not_found",
    );
    let audit = app.audit_count();
    let r = send_raw(
        &app,
        "PUT",
        &format!("/api/v1/players/{id}/photo"),
        &token,
        "image/png",
        png(200, 260),
        None,
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["has_photo"], true);
    assert_eq!(app.audit_count(), audit + 1);
    let e = eligibility(&app, &token, id).await;
    assert_eq!(e["eligible"], true, "{e}");
    assert_eq!(e["reasons"], json!([]));
    // The stored photo is a re-encoded JPEG, never cached.
    let ph = app
        .get(&format!("/api/v1/players/{id}/photo"), &token)
        .await;
    assert_eq!(ph.status, 200);
    assert_eq!(ph.header("content-type").as_deref(), Some("image/jpeg"));
    assert_eq!(
        ph.header("cache-control").as_deref(),
        Some("private, no-store")
    );
    assert_eq!(&ph.body[..2], &[0xFF, 0xD8]);
}

#[actix_rt::test]
async fn bsop_10_a_banned_player_is_ineligible_until_the_ban_is_lifted() {
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    let id = register(&app, &token, "BAN123456").await;
    put_photo(&app, &token, id).await;
    assert_eq!(eligibility(&app, &token, id).await["eligible"], true);
    // A ban without a reason is refused and changes nothing.
    let before = snapshot(&app);
    let r = send(
        &app,
        "POST",
        &format!("/api/v1/players/{id}/exclusions"),
        Some(&token),
        Some(json!({})),
        None,
    )
    .await;
    let j = refused(&r, 422, "validation_failed");
    assert_eq!(fields(&j), vec![("reason".into(), "required".into())]);
    assert_eq!(snapshot(&app), before);
    let r = send(
        &app,
        "POST",
        &format!("/api/v1/players/{id}/exclusions"),
        Some(&token),
        Some(json!({"reason": "Collusion at table 3"})),
        None,
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let ban = r.json();
    assert_eq!(ban["ends_at"], Value::Null);
    let e = eligibility(&app, &token, id).await;
    assert_eq!(e["eligible"], false);
    assert_eq!(e["reasons"], json!(["banned"]));
    let d = app
        .get(&format!("/api/v1/players/{id}"), &token)
        .await
        .json();
    assert_eq!(d["exclusions"][0]["in_force"], true);
    let ban_id = ban["id"].as_i64().unwrap();
    let r = send(
        &app,
        "POST",
        &format!("/api/v1/exclusions/{ban_id}/lift"),
        Some(&token),
        Some(json!({"reason": "Appeal upheld"})),
        None,
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(r.json()["lifted_at"].is_string());
    assert_eq!(eligibility(&app, &token, id).await["eligible"], true);
    // Lifting twice is a conflict.
    let before = snapshot(&app);
    let r = send(
        &app,
        "POST",
        &format!("/api/v1/exclusions/{ban_id}/lift"),
        Some(&token),
        Some(json!({"reason": "again"})),
        None,
    )
    .await;
    refused(&r, 409, "conflict");
    assert_eq!(snapshot(&app), before);
}

#[actix_rt::test]
async fn bsop_47_separations_are_created_once_never_with_oneself_and_removed() {
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    let a = register(&app, &token, "SEPA12345").await;
    let b = register(&app, &token, "SEPB12345").await;
    let r = send(
        &app,
        "POST",
        &format!("/api/v1/players/{a}/separations"),
        Some(&token),
        Some(json!({"other_player_id": b, "reason": "Family"})),
        None,
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let sep = r.json();
    assert_eq!(
        (sep["player_a"].as_i64(), sep["player_b"].as_i64()),
        (Some(a.min(b)), Some(a.max(b)))
    );
    let before = snapshot(&app);
    // The same pair, from the other side.
    let r = send(
        &app,
        "POST",
        &format!("/api/v1/players/{b}/separations"),
        Some(&token),
        Some(json!({"other_player_id": a, "reason": "Again"})),
        Some("pt-PT"),
    )
    .await;
    let j = refused(&r, 409, "conflict");
    assert!(message(&j).contains("já estão separados"), "{j}");
    let r = send(
        &app,
        "POST",
        &format!("/api/v1/players/{a}/separations"),
        Some(&token),
        Some(json!({"other_player_id": a, "reason": "Self"})),
        None,
    )
    .await;
    let j = refused(&r, 422, "validation_failed");
    assert_eq!(
        fields(&j),
        vec![("other_player_id".into(), "separation_self".into())]
    );
    let r = send(
        &app,
        "POST",
        &format!("/api/v1/players/{a}/separations"),
        Some(&token),
        Some(json!({"other_player_id": 999_999, "reason": "Nobody"})),
        None,
    )
    .await;
    refused(&r, 422, "validation_failed");
    assert_eq!(snapshot(&app), before);
    let d = app
        .get(&format!("/api/v1/players/{a}"), &token)
        .await
        .json();
    assert_eq!(d["separations"][0]["other"]["id"], b);
    let sep_id = sep["id"].as_i64().unwrap();
    let r = send(
        &app,
        "DELETE",
        &format!("/api/v1/separations/{sep_id}"),
        Some(&token),
        None,
        None,
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(r.json()["removed_at"].is_string());
    let d = app
        .get(&format!("/api/v1/players/{a}"), &token)
        .await
        .json();
    assert_eq!(d["separations"], json!([]));
    let before = snapshot(&app);
    refused(
        &send(
            &app,
            "DELETE",
            &format!("/api/v1/separations/{sep_id}"),
            Some(&token),
            None,
            None,
        )
        .await,
        409,
        "conflict",
    );
    assert_eq!(snapshot(&app), before);
}

#[actix_rt::test]
async fn an_edit_on_a_stale_version_is_refused() {
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    let id = register(&app, &token, "EDIT12345").await;
    let mut p = player_json("EDIT12345");
    p["alias"] = json!("Aninhas");
    p["version"] = json!(1);
    let r = send(
        &app,
        "PUT",
        &format!("/api/v1/players/{id}"),
        Some(&token),
        Some(p.clone()),
        None,
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["player"]["alias"], "Aninhas");
    assert_eq!(r.json()["player"]["version"], 2);
    let before = snapshot(&app);
    p["alias"] = json!("Other");
    let r = send(
        &app,
        "PUT",
        &format!("/api/v1/players/{id}"),
        Some(&token),
        Some(p),
        None,
    )
    .await;
    refused(&r, 409, "conflict");
    assert_eq!(snapshot(&app), before);
    refused(
        &send(
            &app,
            "PUT",
            "/api/v1/players/999999",
            Some(&token),
            Some(player_json("NONE99999")),
            None,
        )
        .await,
        404,
        "not_found",
    );
    assert_eq!(snapshot(&app), before);
}

// ---- room, games, tables, staff, audit -------------------------------------------------

#[actix_rt::test]
async fn pt_2007_7b_a_session_percent_of_21_is_refused_and_nothing_saved() {
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    let room = app.get("/api/v1/room", &token).await.json();
    assert_eq!(room["timezone"], "Europe/Lisbon");
    let mut bad = room.clone();
    bad["profile"]["session_percent_bp"] = json!(2100);
    bad["name"] = json!("Renamed");
    let before = snapshot(&app);
    let r = send(
        &app,
        "PUT",
        "/api/v1/room",
        Some(&token),
        Some(bad),
        Some("pt-PT"),
    )
    .await;
    let j = refused(&r, 422, "validation_failed");
    assert_eq!(
        fields(&j),
        vec![("session_percent_bp".into(), "range".into())]
    );
    assert!(
        field_message(&j, "session_percent_bp").contains("entre"),
        "{j}"
    );
    assert_eq!(snapshot(&app), before);
    assert_eq!(app.get("/api/v1/room", &token).await.json(), room);
    // A valid change is saved and audited.
    let mut good = room.clone();
    good["profile"]["session_percent_bp"] = json!(2000);
    let r = send(&app, "PUT", "/api/v1/room", Some(&token), Some(good), None).await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["profile"]["session_percent_bp"], 2000);
    assert_eq!(app.audit_count(), before.audit + 1);
}

#[actix_rt::test]
async fn a_game_whose_big_blind_is_below_the_small_blind_is_refused() {
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    let before = snapshot(&app);
    let bad = json!({"name": "NL 2/1", "variant": "holdem_nl", "small_blind": 200, "big_blind": 100, "limit_class": "low", "buy_in_min": 5000});
    let r = send(&app, "POST", "/api/v1/games", Some(&token), Some(bad), None).await;
    let j = refused(&r, 422, "validation_failed");
    assert_eq!(
        fields(&j),
        vec![("big_blind".into(), "game_bb_below_sb".into())]
    );
    assert_eq!(snapshot(&app), before);
    let good = json!({"name": "NL 1/2", "variant": "holdem_nl", "small_blind": 100, "big_blind": 200, "limit_class": "low", "buy_in_min": 5000, "buy_in_max": 20000});
    let r = send(
        &app,
        "POST",
        "/api/v1/games",
        Some(&token),
        Some(good),
        None,
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let g = r.json();
    assert_eq!(g["big_blind"], 200);
    assert_eq!(g["seats"], 10);
    let id = g["id"].as_i64().unwrap();
    assert_eq!(
        app.get(&format!("/api/v1/games/{id}"), &token).await.json()["name"],
        "NL 1/2"
    );
    assert_eq!(
        app.get("/api/v1/games", &token)
            .await
            .json()
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

#[actix_rt::test]
async fn a_taken_table_number_is_a_conflict() {
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    let g = send(&app, "POST", "/api/v1/games", Some(&token), Some(json!({"name": "PLO 1/1", "variant": "plo", "small_blind": 100, "big_blind": 100, "limit_class": "mid", "buy_in_min": 10000})), None).await;
    assert_eq!(g.status, 201, "{}", g.text());
    let game_id = g.json()["id"].as_i64().unwrap();
    let r = send(
        &app,
        "POST",
        "/api/v1/tables",
        Some(&token),
        Some(json!({"number": 7, "game_id": game_id, "mode": "continuous"})),
        None,
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text());
    assert_eq!(r.json()["game"]["id"], game_id);
    let before = snapshot(&app);
    let r = send(
        &app,
        "POST",
        "/api/v1/tables",
        Some(&token),
        Some(json!({"number": 7, "mode": "session"})),
        Some("pt-PT"),
    )
    .await;
    let j = refused(&r, 409, "conflict");
    assert!(message(&j).contains("mesa 7"), "{j}");
    assert_eq!(snapshot(&app), before);
    let list = app.get("/api/v1/tables", &token).await.json();
    assert_eq!(list.as_array().unwrap().len(), 1);
    assert_eq!(list[0]["game"]["name"], "PLO 1/1");
}

#[actix_rt::test]
async fn staff_accounts_are_kept_by_the_admin() {
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    let r = send(&app, "POST", "/api/v1/staff", Some(&token), Some(json!({"username": "flora", "display_name": "Flora", "role": "floor", "password": "flora-password-1"})), None).await;
    assert_eq!(r.status, 201, "{}", r.text());
    let id = r.json()["id"].as_i64().unwrap();
    assert!(r.json().get("password_hash").is_none());
    let before = snapshot(&app);
    let r = send(&app, "POST", "/api/v1/staff", Some(&token), Some(json!({"username": "flora", "display_name": "Flora 2", "role": "floor", "password": "flora-password-2"})), None).await;
    refused(&r, 409, "conflict");
    let r = send(
        &app,
        "POST",
        "/api/v1/staff",
        Some(&token),
        Some(
            json!({"username": "x", "display_name": "X", "role": "croupier", "password": "short"}),
        ),
        None,
    )
    .await;
    let j = refused(&r, 422, "validation_failed");
    let f = fields(&j);
    assert!(
        f.contains(&("role".into(), "choice".into()))
            && f.contains(&("password".into(), "password_short".into())),
        "{j}"
    );
    // The admin cannot demote themselves.
    let me = app.get("/api/v1/me", &token).await.json();
    let r = send(
        &app,
        "PUT",
        &format!("/api/v1/staff/{}", me["id"]),
        Some(&token),
        Some(json!({"display_name": "Admin", "role": "floor"})),
        None,
    )
    .await;
    refused(&r, 409, "conflict");
    assert_eq!(snapshot(&app), before);
    let r = send(
        &app,
        "PUT",
        &format!("/api/v1/staff/{id}"),
        Some(&token),
        Some(json!({"display_name": "Flora Lima", "role": "cashier"})),
        None,
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["role"], "cashier");
    assert_eq!(
        app.get("/api/v1/staff", &token)
            .await
            .json()
            .as_array()
            .unwrap()
            .len(),
        2
    );
}

#[actix_rt::test]
async fn the_audit_trail_is_listed_filtered_and_verified() {
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    let id = register(&app, &token, "AUDIT1234").await;
    let all = app.get("/api/v1/audit", &token).await;
    assert_eq!(all.status, 200, "{}", all.text());
    assert_eq!(
        all.json().as_array().unwrap().len() as i64,
        app.audit_count()
    );
    let players = app
        .get("/api/v1/audit?action=player.&limit=10", &token)
        .await
        .json();
    assert_eq!(players.as_array().unwrap().len(), 1);
    assert_eq!(players[0]["subject_id"], id);
    let from = (Utc::now() - Duration::hours(1)).to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let recent = app
        .get(
            &format!("/api/v1/audit?subject_kind=player&from={from}"),
            &token,
        )
        .await;
    assert_eq!(recent.status, 200, "{}", recent.text());
    assert_eq!(recent.json().as_array().unwrap().len(), 1);
    let future = app
        .get("/api/v1/audit?from=2999-01-01T00:00:00Z", &token)
        .await
        .json();
    assert_eq!(future, json!([]));
    let before = snapshot(&app);
    let r = send(
        &app,
        "GET",
        "/api/v1/audit?from=yesterday&limit=500",
        Some(&token),
        None,
        Some("pt-PT"),
    )
    .await;
    let j = refused(&r, 422, "validation_failed");
    assert_eq!(fields(&j), vec![("from".into(), "api_instant".into())]);
    assert!(field_message(&j, "from").contains("RFC 3339"));
    let r = app.get("/api/v1/audit?limit=0", &token).await;
    assert_eq!(
        fields(&refused(&r, 422, "validation_failed")),
        vec![("limit".into(), "limit".into())]
    );
    let v = app.get("/api/v1/audit/verify", &token).await;
    assert_eq!(v.status, 200, "{}", v.text());
    assert_eq!(v.json()["ok"], true);
    assert_eq!(v.json()["records"].as_i64(), Some(app.audit_count()));
    assert_eq!(snapshot(&app), before);
}

// ---- test clock, OpenAPI, health -------------------------------------------------------

#[actix_rt::test]
async fn the_test_clock_does_not_exist_without_the_setting() {
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    let before = snapshot(&app);
    let r = app.get("/api/v1/test/clock", &token).await;
    refused(&r, 404, "not_found");
    let r = send(
        &app,
        "POST",
        "/api/v1/test/clock/advance",
        Some(&token),
        Some(json!({"minutes": 60})),
        None,
    )
    .await;
    refused(&r, 404, "not_found");
    assert_eq!(snapshot(&app), before);
    let doc = app
        .call(
            test::TestRequest::get()
                .uri("/api/openapi.json")
                .to_request(),
        )
        .await
        .json();
    assert!(doc["paths"].get("/api/v1/test/clock/advance").is_none());
}

#[actix_rt::test]
async fn the_test_clock_moves_forward_when_enabled_and_is_audited() {
    let app = TestApp::with_clock(true).await;
    let token = app.admin_token().await;
    let r = app.get("/api/v1/test/clock", &token).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let t0: chrono::DateTime<Utc> = r.json()["now"].as_str().unwrap().parse().unwrap();
    let before = snapshot(&app);
    for bad in [
        json!({"minutes": 0}),
        json!({"minutes": -5}),
        json!({"minutes": 10081}),
    ] {
        let r = send(
            &app,
            "POST",
            "/api/v1/test/clock/advance",
            Some(&token),
            Some(bad),
            Some("pt-PT"),
        )
        .await;
        let j = refused(&r, 422, "validation_failed");
        assert_eq!(fields(&j), vec![("minutes".into(), "range".into())]);
        assert!(field_message(&j, "minutes").contains("10080"));
    }
    let dealer = app.staff_token("dora", "dealer").await;
    let before = Snapshot {
        audit: app.audit_count(),
        ..before
    };
    refused(
        &send(
            &app,
            "POST",
            "/api/v1/test/clock/advance",
            Some(&dealer),
            Some(json!({"minutes": 5})),
            None,
        )
        .await,
        403,
        "forbidden",
    );
    assert_eq!(snapshot(&app), before);
    let r = send(
        &app,
        "POST",
        "/api/v1/test/clock/advance",
        Some(&token),
        Some(json!({"minutes": 90})),
        None,
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let t1: chrono::DateTime<Utc> = r.json()["now"].as_str().unwrap().parse().unwrap();
    assert!(
        t1 - t0 >= Duration::minutes(90) && t1 - t0 < Duration::minutes(95),
        "{t0} → {t1}"
    );
    assert!(app.state.clock.now() >= t1);
    assert_eq!(app.audit_count(), before.audit + 1);
    let last = app.get("/api/v1/audit?limit=1", &token).await.json();
    assert_eq!(last[0]["action"], "clock.advance");
    assert_eq!(last[0]["after"]["minutes"], 90);
}

#[actix_rt::test]
async fn the_openapi_document_describes_the_api() {
    let app = TestApp::new().await;
    let r = app
        .call(
            test::TestRequest::get()
                .uri("/api/openapi.json")
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(r
        .header("content-type")
        .unwrap_or_default()
        .starts_with("application/json"));
    let doc: Value = serde_json::from_slice(&r.body).expect("valid JSON");
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
    assert_eq!(doc["info"]["title"], "Cardroom API");
    for p in [
        "/api/v1/players",
        "/api/v1/auth/login",
        "/api/v1/players/{id}/eligibility",
        "/api/v1/players/{id}/photo",
        "/api/v1/audit",
    ] {
        assert!(doc["paths"].get(p).is_some(), "missing path {p}");
    }
    assert!(doc["paths"]["/api/v1/players"]["post"].is_object());
    assert_eq!(
        doc["components"]["securitySchemes"]["bearer"]["scheme"],
        "bearer"
    );
    assert_eq!(
        doc["components"]["securitySchemes"]["bearer"]["bearerFormat"],
        "JWT"
    );
    assert!(doc["components"]["schemas"]["ErrorResponse"].is_object());
    assert!(doc["components"]["schemas"]["PlayerForm"].is_object());
}

#[actix_rt::test]
async fn healthz_answers() {
    let app = TestApp::new().await;
    let r = app
        .call(test::TestRequest::get().uri("/healthz").to_request())
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.text(), "ok");
}

#[actix_rt::test]
async fn unknown_api_paths_and_methods_answer_in_json() {
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    refused(
        &app.get("/api/v1/nothing-here", &token).await,
        404,
        "not_found",
    );
    refused(
        &app.get("/api/v1/players/abc", &token).await,
        404,
        "not_found",
    );
    refused(
        &app.get("/api/v1/players/424242", &token).await,
        404,
        "not_found",
    );
    let r = send(&app, "DELETE", "/api/v1/players", Some(&token), None, None).await;
    refused(&r, 405, "method_not_allowed");
    // RFC 9110: a 405 names the methods the resource takes.
    assert_eq!(r.header("allow").as_deref(), Some("GET, POST"));
    let r = send(
        &app,
        "DELETE",
        "/api/v1/players/1",
        Some(&token),
        None,
        None,
    )
    .await;
    refused(&r, 405, "method_not_allowed");
    assert_eq!(r.header("allow").as_deref(), Some("GET, PUT"));
}

/// PT-2007 7: the cagnotte (mode and percentage) is fixed before the game starts. While a
/// table of the game is in play a change is refused (409, in the user's language) and
/// nothing is saved; other changes to the game go through; a game not in play may change it.
#[actix_rt::test]
async fn pt_2007_7_the_cagnotte_of_a_game_in_play_cannot_change() {
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    let game = |name: &str, mode: &str| {
        json!({"name": name, "variant": "holdem_nl", "small_blind": 100, "big_blind": 200, "limit_class": "low",
            "buy_in_min": 4000, "buy_in_max": 20000, "cagnotte_mode": mode})
    };
    let r = send(
        &app,
        "POST",
        "/api/v1/games",
        Some(&token),
        Some(game("NL 1/2", "per_hand")),
        None,
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let playing = r.json()["id"].as_i64().unwrap();
    let r = send(
        &app,
        "POST",
        "/api/v1/games",
        Some(&token),
        Some(game("NL 2/4", "per_hand")),
        None,
    )
    .await;
    let idle = r.json()["id"].as_i64().unwrap();
    let r = send(
        &app,
        "POST",
        "/api/v1/tables",
        Some(&token),
        Some(json!({"number": 1, "game_id": playing, "mode": "continuous"})),
        None,
    )
    .await;
    let table = r.json()["id"].as_i64().unwrap();
    let r = send(
        &app,
        "POST",
        &format!("/api/v1/tables/{table}/open"),
        Some(&token),
        Some(json!({})),
        None,
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());

    let before = snapshot(&app);
    let r = send(
        &app,
        "PUT",
        &format!("/api/v1/games/{playing}"),
        Some(&token),
        Some(game("NL 1/2", "per_session")),
        Some("pt-PT"),
    )
    .await;
    let j = refused(&r, 409, "conflict");
    assert!(message(&j).contains("nova partida"), "{j}");
    let r = send(
        &app,
        "PUT",
        &format!("/api/v1/games/{playing}"),
        Some(&token),
        Some(game("NL 1/2", "per_session")),
        Some("en"),
    )
    .await;
    assert!(message(&refused(&r, 409, "conflict")).contains("PT-2007 7"));
    assert_eq!(snapshot(&app), before);
    assert_eq!(
        app.get(&format!("/api/v1/games/{playing}"), &token)
            .await
            .json()["cagnotte_mode"],
        "per_hand"
    );
    // The name may change while the game runs (the cagnotte stays as it is).
    let r = send(
        &app,
        "PUT",
        &format!("/api/v1/games/{playing}"),
        Some(&token),
        Some(game("NL 1/2 main", "per_hand")),
        None,
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(app.audit_count(), before.audit + 1);
    // A game with no table in play sets its cagnotte before it starts.
    let r = send(
        &app,
        "PUT",
        &format!("/api/v1/games/{idle}"),
        Some(&token),
        Some(game("NL 2/4", "per_session")),
        None,
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["cagnotte_mode"], "per_session");
}
