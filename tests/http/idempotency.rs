//! Idempotency keys: a request sent again with the same key (an API call retried, a page
//! form sent twice) is applied once and answered with the first answer.

use crate::support::{player_json, TestApp};
use crate::table_side::room;
use actix_web::test::TestRequest;
use cardroom::db::schema::{idempotency_keys, seatings};
use diesel::prelude::*;
use serde_json::Value;

/// A JSON request with a Bearer token and, when given, an `Idempotency-Key`.
async fn keyed(
    app: &TestApp,
    uri: &str,
    token: &str,
    key: Option<&str>,
    body: Value,
) -> crate::support::Resp {
    let mut req = TestRequest::post()
        .uri(uri)
        .insert_header(("Authorization", format!("Bearer {token}")))
        .insert_header(("Accept-Language", "pt"));
    if let Some(k) = key {
        req = req.insert_header(("Idempotency-Key", k));
    }
    app.call(req.set_json(body).to_request()).await
}

fn field_error(r: &crate::support::Resp) -> (String, String) {
    let j = r.json();
    let f = &j["error"]["fields"][0];
    (
        f["field"].as_str().unwrap_or_default().to_string(),
        f["message"].as_str().unwrap_or_default().to_string(),
    )
}

#[actix_web::test]
async fn an_api_post_retried_with_its_key_is_applied_once_and_answered_the_same() {
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    let (players, audit) = (app.count("players"), app.audit_count());
    let first = keyed(
        &app,
        "/api/v1/players",
        &token,
        Some("k-1"),
        player_json("ID-1001"),
    )
    .await;
    assert_eq!(first.status, 201, "{}", first.text());
    assert_eq!(app.count("players"), players + 1);
    assert_eq!(app.audit_count(), audit + 1);
    let again = keyed(
        &app,
        "/api/v1/players",
        &token,
        Some("k-1"),
        player_json("ID-1001"),
    )
    .await;
    assert_eq!(again.status, 201);
    assert_eq!(again.body, first.body, "the first answer, byte for byte");
    assert_eq!(again.header("content-type"), first.header("content-type"));
    assert_eq!(again.header("location"), first.header("location"));
    assert_eq!(again.header("idempotent-replayed").as_deref(), Some("true"));
    assert_eq!(app.count("players"), players + 1, "no second row");
    assert_eq!(app.audit_count(), audit + 1, "no second audit record");

    // The same key with another body: refused, naming the header, in the reader's language.
    let other = keyed(
        &app,
        "/api/v1/players",
        &token,
        Some("k-1"),
        player_json("ID-1002"),
    )
    .await;
    assert_eq!(other.status, 422, "{}", other.text());
    let (field, message) = field_error(&other);
    assert_eq!(field, "Idempotency-Key");
    assert!(message.contains("Idempotency-Key") && message.contains("outro conteúdo"));
    assert_eq!(app.count("players"), players + 1);
    assert_eq!(app.audit_count(), audit + 1);

    // The same key sent to another operation: a request of its own there.
    let elsewhere = app
        .call(
            TestRequest::put()
                .uri("/api/v1/players")
                .insert_header(("Authorization", format!("Bearer {token}")))
                .insert_header(("Idempotency-Key", "k-1"))
                .set_json(player_json("ID-1002"))
                .to_request(),
        )
        .await;
    assert!(
        elsewhere.status == 404 || elsewhere.status == 405,
        "an operation that does not exist is answered as such: {}",
        elsewhere.status
    );
    assert_eq!(app.count("players"), players + 1);

    // Another staff member with the same key: a request of their own, not the first answer.
    let floor = app.staff_token("floor1", "floor").await;
    let theirs = keyed(
        &app,
        "/api/v1/players",
        &floor,
        Some("k-1"),
        player_json("ID-1003"),
    )
    .await;
    assert_eq!(theirs.status, 201, "{}", theirs.text());
    assert_ne!(theirs.body, first.body);
    assert_eq!(theirs.header("idempotent-replayed"), None);
    assert_eq!(app.count("players"), players + 2);

    // Without a key, as ever: each request applies.
    let a = keyed(
        &app,
        "/api/v1/players",
        &token,
        None,
        player_json("ID-1004"),
    )
    .await;
    assert_eq!(a.status, 201);
    let b = keyed(
        &app,
        "/api/v1/players",
        &token,
        None,
        player_json("ID-1004"),
    )
    .await;
    assert_eq!(b.status, 409, "a second registration of the same document");
    assert_eq!(app.count("players"), players + 3);
}

#[actix_web::test]
async fn a_refused_request_keeps_nothing_and_may_be_sent_again_with_its_key() {
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    let mut bad = player_json("ID-2001");
    bad["full_name"] = Value::String(String::new());
    let r = keyed(&app, "/api/v1/players", &token, Some("k-2"), bad.clone()).await;
    assert_eq!(r.status, 422, "{}", r.text());
    let kept: i64 = app.with_conn(|c| {
        idempotency_keys::table
            .count()
            .get_result(c)
            .expect("count")
    });
    assert_eq!(kept, 0, "a refusal keeps no key");
    // Fixed, sent again with the same key: applied.
    let r = keyed(
        &app,
        "/api/v1/players",
        &token,
        Some("k-2"),
        player_json("ID-2001"),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text());
}

#[actix_web::test]
async fn keys_too_long_or_with_control_characters_are_refused() {
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    let (players, audit) = (app.count("players"), app.audit_count());
    let long = "k".repeat(201);
    for key in [long.as_str(), "tab\there", ""] {
        let r = keyed(
            &app,
            "/api/v1/players",
            &token,
            Some(key),
            player_json("ID-3001"),
        )
        .await;
        assert_eq!(r.status, 422, "{key:?}: {}", r.text());
        let (field, message) = field_error(&r);
        assert_eq!(field, "Idempotency-Key");
        assert!(message.contains("Idempotency-Key"), "{message}");
    }
    // A byte outside ASCII (the header is not even text).
    let req = TestRequest::post()
        .uri("/api/v1/players")
        .insert_header(("Authorization", format!("Bearer {token}")))
        .insert_header((
            "Idempotency-Key",
            actix_web::http::header::HeaderValue::from_bytes(b"chave-\xe7").unwrap(),
        ))
        .set_json(player_json("ID-3001"))
        .to_request();
    let r = app.call(req).await;
    assert_eq!(r.status, 422, "{}", r.text());
    // 200 characters are fine.
    let r = keyed(
        &app,
        "/api/v1/players",
        &token,
        Some(&"k".repeat(200)),
        player_json("ID-3001"),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text());
    assert_eq!(app.count("players"), players + 1);
    assert_eq!(app.audit_count(), audit + 1);
    // Without any sign-in, device or cookie, a key cannot be kept apart from a stranger's:
    // the request runs as without one — a sign-in needed is 401, a failed sign-in its 401.
    let r = app
        .call(
            TestRequest::post()
                .uri("/api/v1/players")
                .insert_header(("Idempotency-Key", "k-anon"))
                .set_json(player_json("ID-3002"))
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 401, "{}", r.text());
    assert_eq!(app.count("players"), players + 1);
    let r = app
        .call(
            TestRequest::post()
                .uri("/api/v1/auth/login")
                .insert_header(("Idempotency-Key", "k-anon"))
                .set_json(serde_json::json!({ "username": "admin", "password": "x" }))
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 401, "{}", r.text());
    assert_eq!(
        app.count("idempotency_keys"),
        1,
        "only the signed-in request's key is kept"
    );
}

#[actix_web::test]
async fn bsop_36_the_tablet_form_sent_twice_records_one_missed_big_blind() {
    let r = room(2).await;
    r.join(r.players[0]).await;
    r.join(r.players[1]).await;
    let s1 = r.seat(2, "100").await;
    let s2 = r.seat(3, "100").await;
    for s in [s1, s2] {
        let res = r
            .tap(&r.dealer, &format!("/tablet/seats/{s}/away"), &[])
            .await;
        assert_eq!(res.status, 303);
    }
    // The seat page's form carries its own key.
    let page = r.seat_page(s1).await.text();
    let key = page
        .split("name=\"idempotency_key\" value=\"")
        .nth(1)
        .and_then(|v| v.split('"').next())
        .expect("a form key on the seat page")
        .to_string();
    let missed_bb = |s: i64| -> i32 {
        r.app.with_conn(|c| {
            seatings::table
                .find(s)
                .select(seatings::missed_bb)
                .first(c)
                .unwrap()
        })
    };
    let audit = r.app.audit_count();
    let uri = format!("/tablet/seats/{s1}/missed");
    let first = r
        .tap(
            &r.dealer,
            &uri,
            &[("blind", "big"), ("idempotency_key", &key)],
        )
        .await;
    assert_eq!(first.status, 303, "{}", first.text());
    // The answer was lost on the Wi-Fi: the browser sends the same form again.
    let again = r
        .tap(
            &r.dealer,
            &uri,
            &[("blind", "big"), ("idempotency_key", &key)],
        )
        .await;
    assert_eq!(again.status, 303);
    assert_eq!(again.header("location"), first.header("location"));
    assert_eq!(
        again.headers.get_all("set-cookie").count(),
        first.headers.get_all("set-cookie").count()
    );
    assert_eq!(missed_bb(s1), 1, "one missed big blind, not two");
    assert_eq!(r.app.audit_count(), audit + 1);
    // The same form key with other fields: refused, nothing recorded.
    let other = r
        .tap(
            &r.dealer,
            &uri,
            &[("blind", "small"), ("idempotency_key", &key)],
        )
        .await;
    assert_eq!(other.status, 422, "{}", other.text());
    assert_eq!(r.app.audit_count(), audit + 1);

    // Without a form key, both taps count (the key is what makes the difference).
    let uri = format!("/tablet/seats/{s2}/missed");
    for _ in 0..2 {
        let res = r.tap(&r.dealer, &uri, &[("blind", "big")]).await;
        assert_eq!(res.status, 303, "{}", res.text());
    }
    assert_eq!(missed_bb(s2), 2);
}

#[actix_web::test]
async fn kept_answers_are_pruned_after_24_hours() {
    let app = TestApp::with_clock(true).await;
    let make = |doc: &'static str, key: &'static str| {
        let app = &app;
        async move {
            // A fresh sign-in each time: the clock moves past a token's hours.
            let token = app.admin_token().await;
            let res = keyed(app, "/api/v1/players", &token, Some(key), player_json(doc)).await;
            assert_eq!(res.status, 201, "{}", res.text());
        }
    };
    let advance = |minutes: i64| {
        let app = &app;
        async move {
            let token = app.admin_token().await;
            let res = app
                .send_json(
                    "POST",
                    "/api/v1/test/clock/advance",
                    &token,
                    serde_json::json!({ "minutes": minutes }),
                )
                .await;
            assert_eq!(res.status, 200, "{}", res.text());
        }
    };
    let keys = || -> Vec<String> {
        app.with_conn(|c| {
            idempotency_keys::table
                .select(idempotency_keys::idem_key)
                .order(idempotency_keys::idem_key)
                .load(c)
                .unwrap()
        })
    };
    make("ID-4001", "old").await;
    // 23 hours later: still kept.
    advance(23 * 60).await;
    make("ID-4002", "new").await;
    cardroom::app::run_timers(&app.state).expect("timers");
    assert_eq!(
        keys(),
        ["POST /api/v1/players new", "POST /api/v1/players old"]
    );
    // Past 24 hours for the first: gone; the second stays.
    advance(90).await;
    cardroom::app::run_timers(&app.state).expect("timers");
    assert_eq!(keys(), ["POST /api/v1/players new"]);
}

/// Every POST form of the pages carries its own key (`tests/form_keys.py` adds it).
#[test]
fn every_post_form_carries_a_key() {
    const KEY: &str =
        "<input type=\"hidden\" name=\"idempotency_key\" value=\"{{ c.form_key() }}\">";
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("templates");
    let mut missing = Vec::new();
    let mut dirs = vec![root.clone()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
                continue;
            }
            let s = std::fs::read_to_string(&p).unwrap();
            let lower = s.to_ascii_lowercase();
            let mut at = 0;
            while let Some(i) = lower[at..].find("<form") {
                let start = at + i;
                let end = lower[start..]
                    .find("</form>")
                    .map_or(s.len(), |j| start + j);
                let form = &s[start..end];
                let open = &lower[start..lower[start..].find('\n').map_or(end, |j| start + j)];
                let post = lower[start..end].contains("method=\"post\"");
                if post && !form.contains(KEY) {
                    missing.push(format!("{}: {}", p.display(), open.trim()));
                }
                at = start + 5;
            }
        }
    }
    assert!(
        missing.is_empty(),
        "forms without their key (run `python3 tests/form_keys.py`):\n{}",
        missing.join("\n")
    );
}
