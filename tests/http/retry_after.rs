//! Every 429 says when to try again (`Retry-After`, in seconds): the dealers' PIN lock at a
//! table's tablet (with the lock's seconds left), the sign-in throttle (API and page) and a
//! player's join codes. (The kiosk's codes, a player's link and the pairing codes are checked
//! with their own features.)

use crate::support::*;
use crate::tablets::paired_room;
use actix_web::cookie::Cookie;
use actix_web::test::TestRequest;
use cardroom::services::dealers::pin::{LOCK_AFTER, LOCK_MINUTES};
use serde_json::json;

fn wait_of(r: &Resp) -> i64 {
    assert_eq!(r.status, 429, "{}", r.text());
    r.header("retry-after")
        .unwrap_or_else(|| panic!("a 429 without Retry-After: {}", r.text()))
        .parse()
        .unwrap()
}

#[actix_web::test]
async fn a_locked_tablet_says_how_long_the_pin_lock_lasts() {
    let app = TestApp::with_clock(true).await;
    let (admin, _floor, tablet) = paired_room(&app).await;
    let _ = app.staff_token("dealer1", "dealer").await;
    let d1: i64 = {
        use cardroom::db::schema::staff::dsl as s;
        use diesel::prelude::*;
        app.with_conn(|c| {
            s::staff
                .filter(s::username.eq("dealer1"))
                .select(s::id)
                .first(c)
                .unwrap()
        })
    };
    let r = app
        .send_json(
            "POST",
            "/api/v1/tables/1/dealer",
            &admin,
            json!({ "dealer_id": d1 }),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let on_tablet = app.web_login("dealer1", STAFF_PW).await;
    let relieve = || {
        TestRequest::post()
            .uri("/tablet/relieve")
            .cookie(on_tablet.c())
            .cookie(tablet.c())
            .insert_header(("Accept-Language", "en"))
            .set_form([
                ("csrf", on_tablet.csrf.as_str()),
                ("dealer_id", "1"),
                ("pin", "1111"),
            ])
            .to_request()
    };
    for _ in 1..LOCK_AFTER {
        let r = app.call(relieve()).await;
        assert_eq!(r.status, 401, "{}", r.text());
        assert!(r.header("retry-after").is_none());
    }
    // The PIN that locks: the whole lock.
    let r = app.call(relieve()).await;
    assert_eq!(wait_of(&r), LOCK_MINUTES * 60);
    assert!(
        r.text().contains("Too many wrong PINs at this tablet"),
        "{}",
        r.text()
    );
    // Locked: what is left of it.
    app.state.clock.advance(chrono::Duration::minutes(2));
    let r = app.call(relieve()).await;
    let left = wait_of(&r);
    assert!(
        (LOCK_MINUTES * 60 - 121..=LOCK_MINUTES * 60 - 119).contains(&left),
        "{left}"
    );
}

#[actix_web::test]
async fn the_sign_in_throttle_and_the_join_codes_say_when_to_try_again() {
    let app = TestApp::tuned(|c| c.join.codes_per_phone = 1).await;
    // A player's join codes: one per phone an hour (first: the room is set up signed in).
    paired_room(&app).await;
    let page = app.call(TestRequest::get().uri("/join").to_request()).await;
    let pre = page.cookie("cr_pre").unwrap();
    let join = || {
        let body = serde_urlencoded::to_string([
            ("csrf", pre.as_str()),
            ("phone", "+351912000009"),
            ("name", "Ana"),
            ("games", "1"),
        ])
        .unwrap();
        TestRequest::post()
            .uri("/join")
            .insert_header(("Content-Type", "application/x-www-form-urlencoded"))
            .cookie(Cookie::new("cr_pre", pre.clone()))
            .set_payload(body)
            .to_request()
    };
    assert_eq!(app.call(join()).await.status, 303);
    let w = wait_of(&app.call(join()).await);
    assert!((3500..=3600).contains(&w), "{w}");
    // The sign-in throttle last: the admin waits from then on.
    // The API's sign-in: past the allowance, every failure waits.
    let login = || {
        TestRequest::post()
            .uri("/api/v1/auth/login")
            .set_json(json!({ "username": "admin", "password": "wrong-password-1" }))
            .to_request()
    };
    let mut r = app.call(login()).await;
    for _ in 0..10 {
        if r.status == 429 {
            break;
        }
        r = app.call(login()).await;
    }
    assert!(wait_of(&r) >= 1);
    // The sign-in page (another client address, its own count).
    let page = app
        .call(
            TestRequest::get()
                .uri("/login")
                .peer_addr("192.0.2.7:4000".parse().unwrap())
                .to_request(),
        )
        .await;
    let pre = page.cookie("cr_pre").unwrap();
    let csrf = hidden_csrf(&page.text());
    let attempt = || {
        TestRequest::post()
            .uri("/login")
            .peer_addr("192.0.2.7:4000".parse().unwrap())
            .cookie(Cookie::new("cr_pre", pre.clone()))
            .set_form([
                ("csrf", csrf.as_str()),
                ("username", "admin"),
                ("password", "wrong-password-1"),
            ])
            .to_request()
    };
    let mut r = app.call(attempt()).await;
    for _ in 0..10 {
        if r.status == 429 {
            break;
        }
        r = app.call(attempt()).await;
    }
    assert!(wait_of(&r) >= 1);
}
