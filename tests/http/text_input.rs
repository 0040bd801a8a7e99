//! Free text, wherever a request carries it (a JSON body, a page's form, the player form's
//! parts, a query string, the address), is checked once by the room's rule (`domain::text`,
//! applied by `web::text`): a NUL — which PostgreSQL cannot store — another control
//! character or a direction override is a 422 naming the field (an address: a 400), said in
//! the reader's language, and nothing is written; line breaks only in the fields that take
//! lines. Then the limit change's horizon (PT-2007 22).

use crate::pages::eligible_players;
use crate::support::*;
use crate::tablets::paired_room;
use actix_web::test::TestRequest;
use cardroom::db::schema::rulings;
use diesel::prelude::*;
use serde_json::{json, Value};

/// The refused fields of a 422: (field, reason code).
fn refused(r: &Resp) -> Vec<(String, String)> {
    assert_eq!(r.status, 422, "{}", r.text());
    r.json()["error"]["fields"]
        .as_array()
        .unwrap_or_else(|| panic!("no fields: {}", r.text()))
        .iter()
        .map(|f| {
            (
                f["field"].as_str().unwrap().to_string(),
                f["code"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// What a refusal must leave as it was: the audit trail and the rows of the tables named.
fn snapshot(app: &TestApp, tables: &[&str]) -> Vec<i64> {
    let mut v = vec![app.audit_count()];
    v.extend(tables.iter().map(|t| app.count(t)));
    v
}

/// An open room (tables 1 and 2 of NL 1/2), the admin's token, one eligible player and a
/// ruling asked at table 1.
async fn room() -> (TestApp, String, i64, i64) {
    let app = TestApp::new().await;
    let (token, _floor, _tablet) = paired_room(&app).await;
    let player = eligible_players(&app, 1)[0];
    let r = app
        .send_json(
            "POST",
            "/api/v1/tables/1/rulings",
            &token,
            json!({ "note": "card exposed" }),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let ruling = r.json()["id"].as_i64().unwrap();
    (app, token, player, ruling)
}

#[actix_web::test]
async fn a_nul_in_any_free_text_field_is_a_422_naming_it_and_writes_nothing() {
    let (app, token, player, ruling) = room().await;
    let nul = "a\u{0}b";
    let mut player_alias = player_json("ID-NUL-1");
    player_alias["alias"] = json!(nul);
    let mut player_name = player_json("ID-NUL-2");
    player_name["full_name"] = json!(nul);
    let cases: Vec<(&str, String, Value, &str, &[&str])> = vec![
        (
            "POST",
            "/api/v1/tables/1/rulings".into(),
            json!({ "note": nul }),
            "note",
            &["rulings"],
        ),
        (
            "POST",
            format!("/api/v1/rulings/{ruling}/decision"),
            json!({ "decision": nul }),
            "decision",
            &["rulings"],
        ),
        (
            "POST",
            format!("/api/v1/rulings/{ruling}/decision"),
            json!({ "decision": "The bet stands.", "rule": nul }),
            "rule",
            &["rulings"],
        ),
        (
            "POST",
            "/api/v1/tables/1/floor-messages".into(),
            json!({ "body": nul }),
            "body",
            &["floor_messages"],
        ),
        (
            "POST",
            "/api/v1/phone-blocks".into(),
            json!({ "phone": "+351912000009", "reason": nul }),
            "reason",
            &["phone_blocks"],
        ),
        (
            "POST",
            "/api/v1/staff".into(),
            json!({ "username": "ana.floor", "display_name": nul, "role": "floor",
                    "password": "a-long-password-1" }),
            "display_name",
            &["staff"],
        ),
        (
            "POST",
            format!("/api/v1/players/{player}/exclusions"),
            json!({ "reason": nul }),
            "reason",
            &["exclusions"],
        ),
        (
            "POST",
            "/api/v1/tables/1/service-requests".into(),
            json!({ "kind": "floor", "note": nul }),
            "note",
            &["service_requests"],
        ),
        (
            "POST",
            "/api/v1/players".into(),
            player_alias,
            "alias",
            &["players"],
        ),
        (
            "POST",
            "/api/v1/players".into(),
            player_name,
            "full_name",
            &["players"],
        ),
    ];
    for (method, uri, body, field, tables) in cases {
        let before = snapshot(&app, tables);
        let r = app.send_json(method, &uri, &token, body).await;
        assert_eq!(
            refused(&r),
            vec![(field.to_string(), "text_control".to_string())],
            "{uri}"
        );
        assert_eq!(r.json()["error"]["reason"], "validation", "{uri}");
        assert_eq!(snapshot(&app, tables), before, "{uri}: nothing written");
    }
    // The ruling is still open: no decision was recorded.
    let decided: Option<chrono::NaiveDateTime> = app.with_conn(|c| {
        rulings::table
            .find(ruling)
            .select(rulings::decided_at)
            .first(c)
            .unwrap()
    });
    assert_eq!(decided, None);
    // Each field of a body at once, nested ones by their path.
    let r = app
        .send_json(
            "POST",
            &format!("/api/v1/rulings/{ruling}/decision"),
            &token,
            json!({ "decision": "x\u{1B}[2J", "rule": "BSOP\u{7F}20", "override_reason": "ok" }),
        )
        .await;
    let mut got = refused(&r);
    got.sort();
    assert_eq!(
        got,
        vec![
            ("decision".to_string(), "text_control".to_string()),
            ("rule".to_string(), "text_control".to_string()),
        ]
    );
}

#[actix_web::test]
async fn direction_overrides_are_refused_and_lines_only_where_a_field_takes_them() {
    let (app, token, _player, _ruling) = room().await;
    let ask = |note: &'static str| {
        let (app, token) = (&app, &token);
        async move {
            app.send_json(
                "POST",
                "/api/v1/tables/1/rulings",
                token,
                json!({ "note": note }),
            )
            .await
        }
    };
    // "Trojan Source": shown as "seat 3 wins", stored otherwise.
    let before = snapshot(&app, &["rulings"]);
    for note in ["seat \u{202E}5 wins", "seat 3\u{2066} wins", "pot\u{200F}"] {
        let r = ask(note).await;
        assert_eq!(
            refused(&r),
            vec![("note".to_string(), "text_direction".to_string())],
            "{note:?}"
        );
    }
    assert_eq!(snapshot(&app, &["rulings"]), before);
    // In the reader's language, naming the character.
    let r = app
        .call(
            TestRequest::post()
                .uri("/api/v1/tables/1/rulings")
                .insert_header(("Authorization", format!("Bearer {token}")))
                .insert_header(("accept-language", "pt"))
                .set_json(json!({ "note": "seat \u{202E}5 wins" }))
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 422);
    assert!(
        r.text()
            .contains("carácter invisível de direção do texto (U+202E)"),
        "{}",
        r.text()
    );
    // A note takes lines (LF, CR LF, tabs) and every script and emoji (ZWJ included).
    for note in ["line 1\nline 2", "line 1\r\nline 2\tend", "Ana 👩‍👩‍👧 שלום"] {
        let r = ask(note).await;
        assert_eq!(r.status, 201, "{note:?}: {}", r.text());
        let id = r.json()["id"].as_i64().unwrap();
        let stored: String = app.with_conn(|c| {
            rulings::table
                .find(id)
                .select(rulings::note)
                .first(c)
                .unwrap()
        });
        assert_eq!(stored, note);
    }
    // A lone CR is no line break.
    assert_eq!(
        refused(&ask("a\rb").await),
        vec![("note".to_string(), "text_control".to_string())]
    );
    // One-line fields take no line break and no tab.
    let before = snapshot(&app, &["players", "staff"]);
    let mut p = player_json("ID-LINE-1");
    p["alias"] = json!("Ana\nB");
    let r = app.send_json("POST", "/api/v1/players", &token, p).await;
    assert_eq!(
        refused(&r),
        vec![("alias".to_string(), "text_one_line".to_string())]
    );
    let r = app
        .send_json(
            "POST",
            "/api/v1/staff",
            &token,
            json!({ "username": "ana.floor", "display_name": "Ana\tSousa", "role": "floor",
                    "password": "a-long-password-1" }),
        )
        .await;
    assert_eq!(
        refused(&r),
        vec![("display_name".to_string(), "text_one_line".to_string())]
    );
    assert_eq!(snapshot(&app, &["players", "staff"]), before);
}

#[actix_web::test]
async fn a_page_form_with_a_nul_is_refused_in_the_readers_language_and_writes_nothing() {
    let app = TestApp::new().await;
    let s = app.web_login("admin", ADMIN_PW).await;
    // A page's form (CSRF form): 422, the message in the reader's language.
    let before = snapshot(&app, &["staff"]);
    let r = app
        .call(
            TestRequest::post()
                .uri("/admin/staff")
                .cookie(s.c())
                .insert_header(("accept-language", "pt"))
                .set_form([
                    ("csrf", s.csrf.as_str()),
                    ("username", "marta.floor"),
                    ("display_name", "Marta\u{0}Sousa"),
                    ("role", "floor"),
                    ("password", "a-long-password-1"),
                ])
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(
        r.text()
            .contains("Contém um carácter de controlo invisível (U+0000)"),
        "{}",
        r.text()
    );
    assert_eq!(snapshot(&app, &["staff"]), before);

    // The player form (multipart): the form again with the reason next to the field.
    let before = snapshot(&app, &["players"]);
    let fields = [
        ("csrf", s.csrf.as_str()),
        ("full_name", "Joana Teste"),
        ("date_of_birth", "1990-05-17"),
        ("doc_kind", "national_id"),
        ("doc_number", "CC 1234 5678"),
        ("doc_country", "PT"),
        ("doc_expiry", "2034-01-31"),
        ("phone", "912 345 678"),
        ("email", "joana@example.pt"),
        ("language", "pt"),
        ("notify", "sms"),
        ("alias", "Jo\u{0}ana"),
    ];
    let (ct, body) = multipart(&fields, None);
    let r = app
        .call(
            TestRequest::post()
                .uri("/players")
                .cookie(s.c())
                .insert_header(("content-type", ct))
                .insert_header(("accept-language", "en"))
                .set_payload(body)
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
    let html = r.text();
    let at = html.find("name=\"alias\"").expect("the alias field");
    assert!(
        html[at..].contains("Contains an invisible control character (U+0000)"),
        "{html}"
    );
    assert_eq!(snapshot(&app, &["players"]), before);
}

#[actix_web::test]
async fn the_public_join_form_refuses_a_nul_on_its_own_page() {
    let app = TestApp::new().await;
    paired_room(&app).await;
    let page = app
        .call(
            TestRequest::get()
                .uri("/join")
                .insert_header(("Accept-Language", "en"))
                .to_request(),
        )
        .await;
    let pre = page.cookie("cr_pre").expect("pre-sign-in cookie");
    let before = snapshot(&app, &["join_codes", "outbox"]);
    let body = serde_urlencoded::to_string([
        ("csrf", pre.as_str()),
        ("phone", "+351912000009"),
        ("name", "Ana\u{0}"),
        ("games", "1"),
    ])
    .unwrap();
    let r = app
        .call(
            TestRequest::post()
                .uri("/join")
                .insert_header(("Accept-Language", "en"))
                .insert_header(("Content-Type", "application/x-www-form-urlencoded"))
                .cookie(actix_web::cookie::Cookie::new("cr_pre", pre.clone()))
                .set_payload(body)
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(
        r.text()
            .contains("Contains an invisible control character (U+0000)"),
        "{}",
        r.text()
    );
    // The join page again, with its lists.
    assert!(r.text().contains("name=\"games\""), "{}", r.text());
    assert_eq!(snapshot(&app, &["join_codes", "outbox"]), before);
}

#[actix_web::test]
async fn a_query_or_an_address_with_a_nul_is_refused_not_a_server_error() {
    let (app, token, _player, _ruling) = room().await;
    let s = app.web_login("admin", ADMIN_PW).await;
    // A search: 422 naming the parameter, under the API and on the pages.
    let r = app.get("/api/v1/players?q=a%00b", &token).await;
    assert_eq!(
        refused(&r),
        vec![("q".to_string(), "text_control".to_string())]
    );
    let r = app.page("/players?q=a%00b", &s).await;
    assert_eq!(r.status, 422, "{}", r.text());
    let r = app.get("/api/v1/rulings?table=1&q=%E2%80%AE", &token).await;
    assert_eq!(r.status, 422, "{}", r.text());
    // A query is one line, whatever its name.
    let r = app.get("/api/v1/rulings.csv?note=a%0Ab", &token).await;
    assert_eq!(
        refused(&r),
        vec![("note".to_string(), "text_one_line".to_string())]
    );
    // An address: a player's link, a path parameter.
    for uri in ["/p/abc%00def", "/api/v1/players/1%00", "/join/code/x%00y"] {
        let r = app
            .call(
                TestRequest::get()
                    .uri(uri)
                    .insert_header(("Authorization", format!("Bearer {token}")))
                    .to_request(),
            )
            .await;
        assert_eq!(r.status, 400, "{uri}: {}", r.text());
    }
    let r = app.get("/api/v1/players/1%00", &token).await;
    assert_eq!(r.json()["error"]["reason"], "text_address", "{}", r.text());
    // The same without them: answered as usual.
    assert_eq!(app.get("/api/v1/players?q=ana", &token).await.status, 200);
}

/// PT-2007 22: the notice is for the session under way. A stated time beyond the room's
/// horizon (12 hours by default) is refused naming the field, in both languages, and
/// nothing is written; the table can take its next change.
#[actix_web::test]
async fn a_limit_change_is_stated_within_the_rooms_horizon() {
    let app = TestApp::new().await;
    let (token, _floor, _tablet) = paired_room(&app).await;
    let now = app.state.clock.now();
    let change = |at: chrono::DateTime<chrono::Utc>| {
        json!({ "small_blind": 200, "big_blind": 400, "buy_in_min": 8000, "buy_in_max": 40000,
                "effective_at": at.to_rfc3339() })
    };
    let before = snapshot(&app, &["limit_changes"]);
    for (at, lang, says) in [
        (
            chrono::DateTime::parse_from_rfc3339("9999-12-31T23:00:00Z")
                .unwrap()
                .to_utc(),
            "en",
            "at most 12 hours from now",
        ),
        (
            now + chrono::Duration::hours(12) + chrono::Duration::minutes(1),
            "pt",
            "no máximo 12 horas a partir de agora",
        ),
    ] {
        let r = app
            .call(
                TestRequest::post()
                    .uri("/api/v1/tables/1/limit-changes")
                    .insert_header(("Authorization", format!("Bearer {token}")))
                    .insert_header(("accept-language", lang))
                    .set_json(change(at))
                    .to_request(),
            )
            .await;
        assert_eq!(
            refused(&r),
            vec![("effective_at".to_string(), "limits_err_horizon".to_string())]
        );
        assert!(r.text().contains(says), "{}", r.text());
        assert_eq!(snapshot(&app, &["limit_changes"]), before);
    }
    // Within the horizon: approved.
    let r = app
        .send_json(
            "POST",
            "/api/v1/tables/1/limit-changes",
            &token,
            change(now + chrono::Duration::hours(11)),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text());
    // The room's setting narrows it: the board's form says it next to the field.
    let app2 = TestApp::tuned(|c| c.room.limit_change_horizon_hours = 1).await;
    let (_, floor2, _) = paired_room(&app2).await;
    let before = snapshot(&app2, &["limit_changes"]);
    let later = (app2.state.clock.now() + chrono::Duration::minutes(150))
        .with_timezone(&chrono_tz::Europe::Lisbon)
        .format("%H:%M")
        .to_string();
    let r = app2
        .call(
            TestRequest::post()
                .uri("/floor/tables/1/limits")
                .cookie(floor2.c())
                .insert_header(("accept-language", "en"))
                .set_form([
                    ("csrf", floor2.csrf.as_str()),
                    ("small_blind", "2"),
                    ("big_blind", "4"),
                    ("buy_in_min", "80"),
                    ("buy_in_max", "400"),
                    ("effective", "at"),
                    ("at", later.as_str()),
                ])
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(
        r.text().contains("at most one hour from now"),
        "{}",
        r.text()
    );
    assert_eq!(snapshot(&app2, &["limit_changes"]), before);
}
