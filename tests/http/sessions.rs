//! Sessions that really end (sign-out, one's own sessions, an admin,
//! deactivation, password change), and sign-in throttling by username *and* address that a
//! stranger cannot turn against the desk.

use crate::support::*;
use actix_web::test::TestRequest;
use serde_json::{json, Value};

const STRANGER: &str = "192.0.2.7:40000";
const DESK: &str = "10.0.0.5:40000";

async fn login_from(app: &TestApp, peer: &str, username: &str, password: &str) -> Resp {
    app.call(
        TestRequest::post()
            .uri("/api/v1/auth/login")
            .peer_addr(peer.parse().unwrap())
            .insert_header((
                "user-agent",
                "Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0 Safari/537.36",
            ))
            .set_json(json!({ "username": username, "password": password }))
            .to_request(),
    )
    .await
}

async fn bearer(app: &TestApp, method: &str, uri: &str, token: &str) -> Resp {
    let req = match method {
        "GET" => TestRequest::get(),
        "POST" => TestRequest::post(),
        "DELETE" => TestRequest::delete(),
        m => panic!("{m}"),
    };
    app.call(
        req.uri(uri)
            .insert_header(("Authorization", format!("Bearer {token}")))
            .to_request(),
    )
    .await
}

fn is_ended(r: &Resp) -> bool {
    r.status == 401
        && r.json()["error"]["message"]
            .as_str()
            .unwrap_or("")
            .contains("ended")
}

#[actix_web::test]
async fn signing_out_of_a_page_ends_the_session_on_the_server() {
    let app = TestApp::new().await;
    app.create_staff("cash1", "cashier");
    let s = app.web_login("cash1", STAFF_PW).await;
    // A copy of the cookie, as someone could have kept.
    let copy = s.clone();
    assert_eq!(app.page("/players", &copy).await.status, 200);
    let audit = app.audit_count();
    let r = app.post_form("/logout", &s, &[]).await;
    assert_eq!(r.status, 303, "{}", r.text());
    assert_eq!(app.audit_count(), audit + 1, "the sign-out is audited");
    // The kept copy no longer opens anything: the sign-in page (pages) …
    let r = app.page("/players", &copy).await;
    assert!(
        r.status == 303 || r.status == 401,
        "a signed-out cookie still works: {} {}",
        r.status,
        r.text()
    );
    assert_ne!(r.status, 200);
    // … and forms with it are refused too.
    let r = app.post_form("/logout", &copy, &[]).await;
    assert_ne!(r.status, 200);
}

#[actix_web::test]
async fn an_api_token_is_refused_once_signed_out() {
    let app = TestApp::new().await;
    let r = login_from(&app, DESK, "admin", ADMIN_PW).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let token = r.json()["token"].as_str().unwrap().to_string();
    assert_eq!(bearer(&app, "GET", "/api/v1/me", &token).await.status, 200);
    let r = bearer(&app, "POST", "/api/v1/auth/logout", &token).await;
    assert_eq!(r.status, 204, "{}", r.text());
    let r = bearer(&app, "GET", "/api/v1/me", &token).await;
    assert!(is_ended(&r), "{} {}", r.status, r.text());
    // Signing out twice: the token is already refused.
    assert_eq!(
        bearer(&app, "POST", "/api/v1/auth/logout", &token)
            .await
            .status,
        401
    );
}

/// A session row counts only for the staff member it was opened for: a token signed with the
/// room's keys (it could only come from the server) that names someone else's open session
/// is refused, and the session's owner keeps theirs. (The session and the staff member are
/// read in one statement: the pairing is part of that statement.)
#[actix_web::test]
async fn a_token_naming_another_staff_members_session_is_refused() {
    let app = TestApp::new().await;
    app.create_staff("floor1", "floor");
    let r = login_from(&app, DESK, "floor1", STAFF_PW).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let floor_token = r.json()["token"].as_str().unwrap().to_string();
    let now = app.state.clock.now();
    let floor = cardroom::auth::verify(
        &app.state.keys,
        &floor_token,
        cardroom::auth::TokenKind::Api,
        now,
    )
    .expect("the server's own token");
    let (admin, admin_ver) = app.with_conn(|c| {
        let s = cardroom::services::staff::list(c)
            .unwrap()
            .into_iter()
            .find(|s| s.username == "admin")
            .unwrap();
        (s.id, s.token_version)
    });
    // The admin's id and token version, the floor member's session.
    let (forged, _) = cardroom::auth::issue(
        &app.state.keys,
        admin,
        admin_ver,
        cardroom::auth::TokenKind::Api,
        &floor.sid,
        now,
        8,
    );
    let r = bearer(&app, "GET", "/api/v1/me", &forged).await;
    assert!(is_ended(&r), "{} {}", r.status, r.text());
    // The same token with the admin's own session would pass: only the pairing refused it.
    let r = login_from(&app, DESK, "admin", ADMIN_PW).await;
    let admin_token = r.json()["token"].as_str().unwrap().to_string();
    let admin_sid = cardroom::auth::verify(
        &app.state.keys,
        &admin_token,
        cardroom::auth::TokenKind::Api,
        now,
    )
    .unwrap()
    .sid;
    let (own, _) = cardroom::auth::issue(
        &app.state.keys,
        admin,
        admin_ver,
        cardroom::auth::TokenKind::Api,
        &admin_sid,
        now,
        8,
    );
    let r = bearer(&app, "GET", "/api/v1/me", &own).await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["username"], "admin", "{}", r.text());
    let r = bearer(&app, "GET", "/api/v1/me", &floor_token).await;
    assert_eq!(r.status, 200, "the floor member's session is untouched");
    assert_eq!(r.json()["username"], "floor1", "{}", r.text());
}

#[actix_web::test]
async fn a_staff_member_sees_their_sessions_and_ends_one_elsewhere() {
    let app = TestApp::new().await;
    let phone = login_from(&app, STRANGER, "admin", ADMIN_PW).await.json()["token"]
        .as_str()
        .unwrap()
        .to_string();
    let desk = login_from(&app, DESK, "admin", ADMIN_PW).await.json()["token"]
        .as_str()
        .unwrap()
        .to_string();
    let r = bearer(&app, "GET", "/api/v1/me/sessions", &desk).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let list: Vec<Value> = r.json().as_array().unwrap().clone();
    assert_eq!(list.len(), 2, "{list:?}");
    let mine: Vec<&Value> = list.iter().filter(|s| s["current"] == true).collect();
    assert_eq!(mine.len(), 1);
    assert_eq!(mine[0]["address"], "10.0.0.5");
    assert_eq!(mine[0]["device"], "Chrome · Linux");
    assert_eq!(mine[0]["kind"], "api");
    let other = list.iter().find(|s| s["current"] == false).unwrap();
    assert_eq!(other["address"], "192.0.2.7");
    let id = other["id"].as_str().unwrap();
    let r = bearer(&app, "DELETE", &format!("/api/v1/me/sessions/{id}"), &desk).await;
    assert_eq!(r.status, 204, "{}", r.text());
    assert!(is_ended(&bearer(&app, "GET", "/api/v1/me", &phone).await));
    assert_eq!(bearer(&app, "GET", "/api/v1/me", &desk).await.status, 200);
    // Someone else's session, or an ended one: 404, nothing changes.
    let audit = app.audit_count();
    let r = bearer(&app, "DELETE", &format!("/api/v1/me/sessions/{id}"), &desk).await;
    assert_eq!(r.status, 404);
    assert_eq!(app.audit_count(), audit);
    // The page shows the same list and ends a session with a button.
    let s = app.web_login("admin", ADMIN_PW).await;
    let page = app.page("/account/sessions", &s).await;
    assert_eq!(page.status, 200, "{}", page.text());
    assert!(page.text().contains("10.0.0.5"), "{}", page.text());
    let desk_id = bearer(&app, "GET", "/api/v1/me/sessions", &desk)
        .await
        .json()
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["current"] == true)
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let r = app
        .post_form(&format!("/account/sessions/{desk_id}/end"), &s, &[])
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    assert!(is_ended(&bearer(&app, "GET", "/api/v1/me", &desk).await));
    assert_eq!(app.page("/account/sessions", &s).await.status, 200);
}

#[actix_web::test]
async fn an_admin_ends_every_session_of_someone_and_deactivation_does_too() {
    let app = TestApp::new().await;
    app.create_staff("floor9", "floor");
    let admin = app.admin_token().await;
    let t1 = app.api_login("floor9", STAFF_PW).await;
    let t2 = app.api_login("floor9", STAFF_PW).await;
    let web = app.web_login("floor9", STAFF_PW).await;
    let id = bearer(&app, "GET", "/api/v1/me", &t1).await.json()["id"]
        .as_i64()
        .unwrap();
    // Not an admin: refused, nothing ended.
    let r = bearer(
        &app,
        "POST",
        &format!("/api/v1/staff/{id}/sessions/end"),
        &t1,
    )
    .await;
    assert_eq!(r.status, 403);
    assert_eq!(bearer(&app, "GET", "/api/v1/me", &t2).await.status, 200);
    let r = bearer(
        &app,
        "POST",
        &format!("/api/v1/staff/{id}/sessions/end"),
        &admin,
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["ended"], 3);
    assert!(is_ended(&bearer(&app, "GET", "/api/v1/me", &t1).await));
    assert!(is_ended(&bearer(&app, "GET", "/api/v1/me", &t2).await));
    assert_ne!(app.page("/floor", &web).await.status, 200);
    // Signed in again, then deactivated: ended at once.
    let t3 = app.api_login("floor9", STAFF_PW).await;
    let staff = bearer(&app, "GET", "/api/v1/me", &t3).await.json();
    let r = app
        .send_json(
            "PUT",
            &format!("/api/v1/staff/{id}"),
            &admin,
            json!({ "display_name": staff["display_name"], "role": "floor", "active": false }),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(bearer(&app, "GET", "/api/v1/me", &t3).await.status, 401);
    let open: i64 = app.with_conn(|c| {
        use cardroom::db::schema::staff_sessions as s;
        use diesel::prelude::*;
        s::table
            .filter(s::staff_id.eq(id))
            .filter(s::ended_at.is_null())
            .count()
            .get_result(c)
            .unwrap()
    });
    assert_eq!(
        open, 0,
        "every session row of a deactivated member is ended"
    );
}

#[actix_web::test]
async fn a_strangers_failures_slow_the_stranger_not_the_desk() {
    let app = TestApp::with_clock(true).await;
    let clock_token = app.admin_token().await;
    for _ in 0..3 {
        let r = login_from(&app, STRANGER, "admin", "wrong-password-1").await;
        assert_eq!(r.status, 401, "{}", r.text());
        assert!(r.header("retry-after").is_none());
    }
    // Past the allowance the waits grow: 1 s, 2 s, 4 s — each 429 says how long.
    let mut waits = Vec::new();
    for _ in 0..3 {
        let r = login_from(&app, STRANGER, "admin", "wrong-password-1").await;
        assert_eq!(r.status, 429, "{}", r.text());
        waits.push(r.header("retry-after").unwrap());
        advance_minutes(&app, &clock_token, 1).await;
    }
    assert_eq!(waits, ["1", "2", "4"]);
    let r = login_from(&app, STRANGER, "admin", "wrong-password-1").await;
    assert_eq!(r.json()["error"]["reason"], "login_throttled");
    advance_minutes(&app, &clock_token, 1).await;
    let r = login_from(&app, STRANGER, "admin", "wrong-password-1").await;
    assert_eq!(r.header("retry-after").as_deref(), Some("16"));
    // The stranger must wait, even with the right password; nothing is written meanwhile.
    let audit = app.audit_count();
    let r = login_from(&app, STRANGER, "admin", ADMIN_PW).await;
    assert_eq!(r.status, 429);
    let secs: i64 = r.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=16).contains(&secs));
    assert_eq!(app.audit_count(), audit);
    // The floor manager at the desk signs in at once.
    let r = login_from(&app, DESK, "admin", ADMIN_PW).await;
    assert_eq!(r.status, 200, "the desk was locked out: {}", r.text());
    // Once the wait is over, the stranger's right password works too.
    advance_minutes(&app, &clock_token, 1).await;
    assert_eq!(
        login_from(&app, STRANGER, "admin", ADMIN_PW).await.status,
        200
    );
}

#[actix_web::test]
async fn unknown_usernames_get_the_same_answers_and_a_flood_from_one_address_is_slowed() {
    let app = TestApp::new().await;
    let mut known = Vec::new();
    let mut unknown = Vec::new();
    for _ in 0..5 {
        let k = login_from(&app, STRANGER, "admin", "wrong-password-1").await;
        known.push((
            k.status,
            k.header("retry-after"),
            k.json()["error"]["message"].clone(),
        ));
        let u = login_from(&app, DESK, "nobody-here", "wrong-password-1").await;
        unknown.push((
            u.status,
            u.header("retry-after"),
            u.json()["error"]["message"].clone(),
        ));
    }
    assert_eq!(known, unknown, "an unknown username must not be told apart");
    // Twenty different usernames from one address: then everyone from it waits — before
    // any password is hashed (the flood costs the server nothing more).
    let flood = "198.51.100.9:1000";
    for i in 0..20 {
        let r = login_from(&app, flood, &format!("user{i}"), "wrong-password-1").await;
        assert_eq!(r.status, 401, "attempt {i}: {}", r.text());
    }
    let r = login_from(&app, flood, "user-new", "wrong-password-1").await;
    assert_eq!(r.status, 429);
    assert!(r.header("retry-after").is_some());
    let r = login_from(&app, flood, "user-newer", "wrong-password-1").await;
    assert_eq!(r.status, 429);
    // Elsewhere nobody is affected.
    assert_eq!(
        login_from(&app, "10.0.0.6:1", "admin", ADMIN_PW)
            .await
            .status,
        200
    );
}

#[actix_web::test]
async fn behind_a_trusted_proxy_the_forwarded_client_is_counted() {
    let app = TestApp::tuned(|c| c.server.trusted_proxies = Some("10.9.9.9".into())).await;
    let via = |client: &'static str, pw: &'static str| {
        TestRequest::post()
            .uri("/api/v1/auth/login")
            .peer_addr("10.9.9.9:5000".parse().unwrap())
            .insert_header(("x-forwarded-for", client))
            .set_json(json!({ "username": "admin", "password": pw }))
            .to_request()
    };
    for _ in 0..4 {
        app.call(via("203.0.113.50", "wrong-password-1")).await;
    }
    assert_eq!(app.call(via("203.0.113.50", ADMIN_PW)).await.status, 429);
    // Another client behind the same proxy is not the stranger.
    let r = app.call(via("203.0.113.51", ADMIN_PW)).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let token = r.json()["token"].as_str().unwrap().to_string();
    let list = bearer(&app, "GET", "/api/v1/me/sessions", &token)
        .await
        .json();
    assert!(list
        .as_array()
        .unwrap()
        .iter()
        .any(|s| s["address"] == "203.0.113.51"));
    // A client's own X-Forwarded-For (not through the proxy) is ignored.
    let r = app
        .call(
            TestRequest::post()
                .uri("/api/v1/auth/login")
                .peer_addr("192.0.2.200:1".parse().unwrap())
                .insert_header(("x-forwarded-for", "203.0.113.51"))
                .set_json(json!({ "username": "admin", "password": ADMIN_PW }))
                .to_request(),
        )
        .await;
    let token = r.json()["token"].as_str().unwrap().to_string();
    let list = bearer(&app, "GET", "/api/v1/me/sessions", &token)
        .await
        .json();
    let me = list
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["current"] == true)
        .unwrap();
    assert_eq!(me["address"], "192.0.2.200");
}

async fn advance_minutes(app: &TestApp, token: &str, minutes: i64) {
    let r = app
        .send_json(
            "POST",
            "/api/v1/test/clock/advance",
            token,
            json!({ "minutes": minutes }),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
}
