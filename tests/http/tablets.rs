//! Dealer tablets: pairing with a code, the dealer's sign-in on the paired
//! tablet, seat calls pushed to the table's tablet only, acknowledgement, escalation of an
//! unacknowledged call on the floor dashboard, revocation.

use crate::pages::{eligible_players, nl_game, read_stream_until};
use crate::support::{TestApp, ADMIN_PW, STAFF_PW};
use actix_web::cookie::Cookie;
use actix_web::test::TestRequest;
use cardroom::db::schema::seat_calls;
use diesel::prelude::*;

/// The code on the pairing page, without the dash.
fn shown_code(html: &str) -> String {
    let i = html
        .find("id=\"pair-code\"")
        .expect("pairing code on the page");
    let rest = &html[i..];
    let start = rest.find('>').unwrap() + 1;
    let end = rest.find('<').unwrap();
    rest[start..end].trim().replace('-', "")
}

pub struct Tablet {
    device: String,
}

impl Tablet {
    pub fn c(&self) -> Cookie<'static> {
        Cookie::new("cr_device", self.device.clone())
    }
}

/// Two tables of NL 1/2 open, and a tablet paired with table 1 by the floor.
pub async fn paired_room(app: &TestApp) -> (String, crate::support::WebSession, Tablet) {
    paired_room_labelled(app, "T1 main").await
}

/// [`paired_room`] with the tablet's label.
pub async fn paired_room_labelled(
    app: &TestApp,
    label: &str,
) -> (String, crate::support::WebSession, Tablet) {
    let token = app.admin_token().await;
    nl_game(app, &token).await;
    for n in 1..=2 {
        let t = serde_json::json!({"number": n, "game_id": 1, "mode": "continuous", "seats": 9});
        assert_eq!(
            app.send_json("POST", "/api/v1/tables", &token, t)
                .await
                .status,
            201
        );
    }
    let floor = app.web_login("admin", ADMIN_PW).await;
    app.post_form("/floor/tables/1/open", &floor, &[]).await;
    app.post_form("/floor/tables/2/open", &floor, &[]).await;
    let page = app
        .call(TestRequest::get().uri("/tablet").to_request())
        .await;
    assert_eq!(page.status, 200);
    let pairing = page
        .cookie("cr_pairing")
        .expect("the tablet keeps its pairing secret");
    let code = shown_code(&page.text());
    let r = app
        .post_form(
            "/floor/tablets/pair",
            &floor,
            &[
                ("code", &code.to_lowercase()),
                ("table_id", "1"),
                ("label", label),
            ],
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
    assert_eq!(r.header("hx-redirect").as_deref(), Some("/tablet"));
    let device = r.cookie("cr_device").expect("device token");
    (token, floor, Tablet { device })
}

#[actix_web::test]
async fn a_tablet_pairs_with_a_code_and_a_dealer_signs_in_on_it() {
    let app = TestApp::new().await;
    let audit0 = app.audit_count();
    let (_, _, tablet) = paired_room(&app).await;
    assert!(app.audit_count() > audit0, "pairing is audited");
    // Paired, nobody signed in: the sign-in page, back to the tablet after.
    let r = app
        .call(
            TestRequest::get()
                .uri("/tablet")
                .cookie(tablet.c())
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 303);
    assert_eq!(r.header("location").as_deref(), Some("/login?next=/tablet"));
    app.create_staff("dealer1", "dealer");
    let d = app.web_login("dealer1", STAFF_PW).await;
    let r = app
        .call(
            TestRequest::get()
                .uri("/tablet")
                .cookie(tablet.c())
                .cookie(d.c())
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let html = r.text();
    assert!(
        html.contains("Table 1") || html.contains("Mesa 1"),
        "{html}"
    );
    assert!(html.contains("T1 main"));
    assert!(html.contains("data-stream=\"/tablet/stream\""));
    // A tablet paired without a name is labelled with its table's number: the header says
    // "Table 1" once, not "Table 1  1".
    app.with_conn(|c| {
        diesel::update(cardroom::db::schema::tablets::table)
            .set(cardroom::db::schema::tablets::label.eq("1"))
            .execute(c)
            .unwrap()
    });
    let r = app
        .call(
            TestRequest::get()
                .uri("/tablet")
                .cookie(tablet.c())
                .cookie(d.c())
                .to_request(),
        )
        .await;
    let html = r.text();
    let bar = &html
        [html.find("class=\"tablet-title\"").unwrap()..html.find("id=\"live-status\"").unwrap()];
    assert!(bar.contains("Table 1") || bar.contains("Mesa 1"), "{bar}");
    assert!(
        !bar.contains("<span class=\"muted\""),
        "the number said once: {bar}"
    );
    // Without the device token a dealer's session does not make a tablet.
    let r = app
        .call(
            TestRequest::get()
                .uri("/tablet/view")
                .cookie(d.c())
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 403);
    // A cashier may not run a table.
    app.create_staff("cash", "cashier");
    let k = app.web_login("cash", STAFF_PW).await;
    let r = app
        .call(
            TestRequest::get()
                .uri("/tablet")
                .cookie(tablet.c())
                .cookie(k.c())
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 403);
}

#[actix_web::test]
async fn a_wrong_expired_or_used_code_is_refused_and_changes_nothing() {
    let app = TestApp::with_clock(true).await;
    let (token, floor, _) = paired_room(&app).await;
    let audit0 = app.audit_count();
    let tablets0 = app.count("tablets");
    let r = app
        .post_form(
            "/floor/tablets/pair",
            &floor,
            &[("code", "ZZZZZZ"), ("table_id", "1")],
        )
        .await;
    assert_eq!(r.status, 422);
    assert!(
        r.text().contains("No tablet shows this code"),
        "{}",
        r.text()
    );
    let r = app
        .post_form(
            "/floor/tablets/pair",
            &floor,
            &[("code", "AB"), ("table_id", "1")],
        )
        .await;
    assert_eq!(r.status, 422);
    assert!(r.text().contains("6 letters and digits"), "{}", r.text());
    // A code shown 11 minutes ago has expired.
    let page = app
        .call(TestRequest::get().uri("/tablet").to_request())
        .await;
    let code = shown_code(&page.text());
    let r = app
        .send_json(
            "POST",
            "/api/v1/test/clock/advance",
            &token,
            serde_json::json!({"minutes": 11}),
        )
        .await;
    assert_eq!(r.status, 200);
    let audit1 = app.audit_count();
    let r = app
        .post_form(
            "/floor/tablets/pair",
            &floor,
            &[("code", &code), ("table_id", "1")],
        )
        .await;
    assert_eq!(r.status, 422);
    assert!(r.text().contains("expired"), "{}", r.text());
    assert_eq!(app.count("tablets"), tablets0, "nothing paired");
    assert_eq!(app.audit_count(), audit1, "refusals write nothing");
    assert!(audit1 > audit0, "the clock move is audited");
}

#[actix_web::test]
async fn seat_calls_reach_their_tablet_and_the_dealer_acknowledges_them() {
    let app = TestApp::new().await;
    let (token, floor, tablet) = paired_room(&app).await;
    app.create_staff("dealer1", "dealer");
    let d = app.web_login("dealer1", STAFF_PW).await;
    let ids = eligible_players(&app, 2);
    for id in &ids {
        let r = app
            .send_json(
                "POST",
                "/api/v1/games/1/waitlist",
                &token,
                serde_json::json!({"player_id": id}),
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.text());
    }
    // The tablet follows its table's stream from now.
    let res = app
        .call_raw(
            TestRequest::get()
                .uri("/tablet/stream")
                .cookie(tablet.c())
                .cookie(d.c())
                .to_request(),
        )
        .await;
    assert_eq!(res.status(), 200);
    let reader = actix_web::rt::spawn(read_stream_until(res, "seat.call\""));
    actix_web::rt::time::sleep(std::time::Duration::from_millis(200)).await;
    // A call at table 2 is not for this tablet; the call at table 1 is.
    let r2 = app
        .send_json(
            "POST",
            "/api/v1/tables/2/seats/1/call-next",
            &token,
            serde_json::json!({}),
        )
        .await;
    assert_eq!(r2.status, 201, "{}", r2.text());
    let r1 = app
        .send_json(
            "POST",
            "/api/v1/tables/1/seats/4/call-next",
            &token,
            serde_json::json!({}),
        )
        .await;
    assert_eq!(r1.status, 201, "{}", r1.text());
    let (c1, c2) = (
        r1.json()["id"].as_i64().unwrap(),
        r2.json()["id"].as_i64().unwrap(),
    );
    let seen = reader.await.unwrap();
    assert!(seen.contains("\"seat\":4"), "{seen}");
    assert!(
        !seen.contains(&format!("\"call_id\":{c2}")),
        "another table's call is not pushed here: {seen}"
    );
    // The tablet lists the call; the dealer acknowledges it.
    let view = app
        .call(
            TestRequest::get()
                .uri("/tablet/view")
                .cookie(tablet.c())
                .cookie(d.c())
                .to_request(),
        )
        .await
        .text();
    assert!(view.contains(&format!("id=\"ack-{c1}\"")), "{view}");
    let audit0 = app.audit_count();
    let r = app
        .call(
            TestRequest::post()
                .uri(&format!("/tablet/calls/{c1}/ack"))
                .cookie(tablet.c())
                .cookie(d.c())
                .set_form([("csrf", d.csrf.as_str())])
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    assert_eq!(app.audit_count(), audit0 + 1);
    let state: String = app.with_conn(|c| {
        seat_calls::table
            .find(c1)
            .select(seat_calls::state)
            .first(c)
            .unwrap()
    });
    assert_eq!(state, "acknowledged");
    // The floor sees it acknowledged.
    let live = app.floor_all(&floor).await;
    assert!(
        live.contains("Acknowledged") || live.contains("Recebida"),
        "{live}"
    );
    // The other table's call is not this tablet's to acknowledge: 404, nothing changes.
    let r = app
        .call(
            TestRequest::post()
                .uri(&format!("/tablet/calls/{c2}/ack"))
                .cookie(tablet.c())
                .cookie(d.c())
                .set_form([("csrf", d.csrf.as_str())])
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 404, "{}", r.text());
    let state: String = app.with_conn(|c| {
        seat_calls::table
            .find(c2)
            .select(seat_calls::state)
            .first(c)
            .unwrap()
    });
    assert_eq!(state, "pending");
    // The dealer seats the player who arrived.
    let r = app
        .call(
            TestRequest::post()
                .uri(&format!("/tablet/calls/{c1}/seat"))
                .cookie(tablet.c())
                .cookie(d.c())
                .set_form([("csrf", d.csrf.as_str())])
                .to_request(),
        )
        .await;
    // A player from the list brings a buy-in (BSOP 26, 37; PT-2007 28): none typed, refused.
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(r.text().contains("Enter the buy-in amount"), "{}", r.text());
    let r = app
        .call(
            TestRequest::post()
                .uri(&format!("/tablet/calls/{c1}/seat"))
                .cookie(tablet.c())
                .cookie(d.c())
                .set_form([("csrf", d.csrf.as_str()), ("amount", "50")])
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    let state: String = app.with_conn(|c| {
        seat_calls::table
            .find(c1)
            .select(seat_calls::state)
            .first(c)
            .unwrap()
    });
    assert_eq!(state, "seated");
}

#[actix_web::test]
async fn a_tablet_gets_every_event_it_missed_after_a_drop() {
    let app = TestApp::new().await;
    let (token, _floor, tablet) = paired_room(&app).await;
    app.create_staff("dealer1", "dealer");
    let d = app.web_login("dealer1", STAFF_PW).await;
    let ids = eligible_players(&app, 3);
    for id in &ids {
        app.send_json(
            "POST",
            "/api/v1/games/1/waitlist",
            &token,
            serde_json::json!({"player_id": id}),
        )
        .await;
    }
    let last: i64 = app.with_conn(|c| cardroom::web::stream::last_seq(c).unwrap());
    // Offline: three calls at table 1 (and one at table 2).
    let mut calls = Vec::new();
    for seat in [2, 5] {
        let r = app
            .send_json(
                "POST",
                &format!("/api/v1/tables/1/seats/{seat}/call-next"),
                &token,
                serde_json::json!({}),
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.text());
        calls.push(r.json()["id"].as_i64().unwrap());
    }
    app.send_json(
        "POST",
        "/api/v1/tables/2/seats/1/call-next",
        &token,
        serde_json::json!({}),
    )
    .await;
    // Back online with Last-Event-ID: both calls, in order, each once; nothing of table 2.
    let res = app
        .call_raw(
            TestRequest::get()
                .uri("/tablet/stream")
                .cookie(tablet.c())
                .cookie(d.c())
                .insert_header(("last-event-id", last.to_string()))
                .to_request(),
        )
        .await;
    let needle = format!("\"call_id\":{}", calls[1]);
    let seen = read_stream_until(res, &needle).await;
    let a = seen
        .find(&format!("\"call_id\":{}", calls[0]))
        .expect("first call delivered");
    let b = seen.find(&needle).expect("second call delivered");
    assert!(a < b, "in order: {seen}");
    assert_eq!(seen.matches(&needle).count(), 1, "once: {seen}");
    assert!(
        !seen.contains("\"table_id\":2"),
        "only this table's events: {seen}"
    );
}

#[actix_web::test]
async fn an_unacknowledged_call_is_escalated_on_the_floor_dashboard() {
    let app = TestApp::with_clock(true).await;
    let (token, floor, _) = paired_room(&app).await;
    let ids = eligible_players(&app, 1);
    app.send_json(
        "POST",
        "/api/v1/games/1/waitlist",
        &token,
        serde_json::json!({"player_id": ids[0]}),
    )
    .await;
    let r = app
        .send_json(
            "POST",
            "/api/v1/tables/1/seats/3/call-next",
            &token,
            serde_json::json!({}),
        )
        .await;
    let call = r.json()["id"].as_i64().unwrap();
    cardroom::app::run_timers(&app.state).unwrap();
    let live = app.floor_all(&floor).await;
    assert!(
        !live.contains("Not acknowledged"),
        "not yet (the window is 2 minutes)"
    );
    // Two minutes without acknowledgement (pt-casino default): escalated, once, audited.
    app.send_json(
        "POST",
        "/api/v1/test/clock/advance",
        &token,
        serde_json::json!({"minutes": 2}),
    )
    .await;
    let audit0 = app.audit_count();
    assert!(cardroom::app::run_timers(&app.state).unwrap() >= 1);
    assert_eq!(app.audit_count(), audit0 + 1);
    cardroom::app::run_timers(&app.state).unwrap();
    assert_eq!(app.audit_count(), audit0 + 1, "escalated once");
    let at: Option<chrono::NaiveDateTime> = app.with_conn(|c| {
        seat_calls::table
            .find(call)
            .select(seat_calls::escalated_at)
            .first(c)
            .unwrap()
    });
    assert!(at.is_some());
    let live = app.floor_all(&floor).await;
    assert!(live.contains("Not acknowledged"), "{live}");
}

#[actix_web::test]
async fn a_revoked_tablet_is_a_tablet_no_more() {
    let app = TestApp::new().await;
    let (_, floor, tablet) = paired_room(&app).await;
    app.create_staff("dealer1", "dealer");
    let d = app.web_login("dealer1", STAFF_PW).await;
    let id: i64 = app.with_conn(|c| {
        cardroom::db::schema::tablets::table
            .select(cardroom::db::schema::tablets::id)
            .first(c)
            .unwrap()
    });
    let list = app.page("/floor/tablets", &floor).await.text();
    assert!(list.contains("T1 main"), "{list}");
    let r = app
        .post_form(&format!("/floor/tablets/{id}/revoke"), &floor, &[])
        .await;
    assert_eq!(r.status, 303);
    // The same device token now opens the pairing page, and its actions are refused.
    let r = app
        .call(
            TestRequest::get()
                .uri("/tablet")
                .cookie(tablet.c())
                .cookie(d.c())
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 200);
    assert!(r.text().contains("id=\"pair-code\""), "{}", r.text());
    let r = app
        .call(
            TestRequest::get()
                .uri("/tablet/view")
                .cookie(tablet.c())
                .cookie(d.c())
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 403);
    // Revoking twice is refused with a reason.
    let r = app
        .post_form(&format!("/floor/tablets/{id}/revoke"), &floor, &[])
        .await;
    assert_eq!(r.status, 409);
    // A dealer cannot reach the floor's tablet page.
    assert_eq!(app.page("/floor/tablets", &d).await.status, 403);
}

#[actix_web::test]
async fn events_written_before_and_after_a_server_restart_all_reach_the_tablet_in_order_once() {
    let app = TestApp::new().await;
    let (token, _floor, tablet) = paired_room(&app).await;
    app.create_staff("dealer1", "dealer");
    let d = app.web_login("dealer1", STAFF_PW).await;
    let ids = eligible_players(&app, 3);
    for id in &ids {
        app.send_json(
            "POST",
            "/api/v1/games/1/waitlist",
            &token,
            serde_json::json!({"player_id": id}),
        )
        .await;
    }
    // The tablet saw everything up to here, then lost its connection.
    let last: i64 = app.with_conn(|c| cardroom::web::stream::last_seq(c).unwrap());
    let r = app
        .send_json(
            "POST",
            "/api/v1/tables/1/seats/2/call-next",
            &token,
            serde_json::json!({}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let before = r.json()["id"].as_i64().unwrap();
    // The server restarts (same database, nothing kept in memory).
    let app = app.restart().await;
    let token = app.admin_token().await;
    let r = app
        .send_json(
            "POST",
            "/api/v1/tables/1/seats/5/call-next",
            &token,
            serde_json::json!({}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let after = r.json()["id"].as_i64().unwrap();
    // The tablet reconnects with its Last-Event-ID: both calls, in order, each once.
    let res = app
        .call_raw(
            TestRequest::get()
                .uri("/tablet/stream")
                .cookie(tablet.c())
                .cookie(d.c())
                .insert_header(("last-event-id", last.to_string()))
                .to_request(),
        )
        .await;
    assert_eq!(res.status(), 200);
    let needle = format!("\"call_id\":{after}");
    let seen = read_stream_until(res, &needle).await;
    let a = seen
        .find(&format!("\"call_id\":{before}"))
        .expect("the call made before the restart");
    let b = seen.find(&needle).expect("the call made after the restart");
    assert!(a < b, "in order: {seen}");
    assert_eq!(
        seen.matches(&format!("\"call_id\":{before},")).count()
            + seen.matches(&format!("\"call_id\":{before}}}")).count(),
        1,
        "once: {seen}"
    );
}

#[actix_web::test]
async fn the_pairing_screen_has_a_qr_code_that_opens_the_floors_form_with_the_code_filled_in() {
    let app = TestApp::new().await;
    let floor = app.web_login("admin", ADMIN_PW).await;
    let page = app
        .call(
            TestRequest::get()
                .uri("/tablet")
                .insert_header(("Host", "room.local:8080"))
                .to_request(),
        )
        .await;
    assert_eq!(page.status, 200);
    let html = page.text();
    let code = shown_code(&html);
    let raw: String = code.chars().filter(|c| c.is_ascii_alphanumeric()).collect();
    assert!(html.contains("id=\"pair-qr\""), "{html}");
    assert!(
        html.contains("src=\"data:image/svg+xml;base64,"),
        "the QR code is an inline SVG image"
    );
    let link = format!("data-link=\"http://room.local:8080/floor/tablets?code={raw}\"");
    assert!(html.contains(&link), "expected {link} in {html}");
    // The link fills the code in; junk in it is dropped.
    let form = app
        .page(&format!("/floor/tablets?code={raw}"), &floor)
        .await
        .text();
    assert!(form.contains(&format!("value=\"{raw}\"")), "{form}");
    let form = app
        .page("/floor/tablets?code=%3Cscript%3E", &floor)
        .await
        .text();
    assert!(
        !form.contains("<script>") && form.contains("value=\"script\""),
        "{form}"
    );
}

#[actix_web::test]
async fn tablet_pairing_through_the_json_api_from_code_to_device_token_and_revocation() {
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    nl_game(&app, &token).await;
    let t = serde_json::json!({"number": 1, "game_id": 1, "mode": "continuous", "seats": 9});
    assert_eq!(
        app.send_json("POST", "/api/v1/tables", &token, t)
            .await
            .status,
        201
    );
    // The tablet asks for a code: no sign-in.
    let r = app
        .call(
            TestRequest::post()
                .uri("/api/v1/tablet-pairings")
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let p = r.json();
    let code = p["code"].as_str().unwrap().to_string();
    let secret = p["secret"].as_str().unwrap().to_string();
    assert_eq!(code.len(), 6);
    assert_eq!(p["display_code"], format!("{}-{}", &code[..3], &code[3..]));
    let collect = |secret: String| {
        let code = code.clone();
        let app = &app;
        async move {
            app.call(
                TestRequest::post()
                    .uri("/api/v1/tablet-pairings/collect")
                    .set_json(serde_json::json!({ "code": code, "secret": secret }))
                    .to_request(),
            )
            .await
        }
    };
    // Not paired yet: ask again later.
    assert_eq!(collect(secret.clone()).await.status, 202);
    // A dealer may not pair; a wrong code is refused on its field, nothing recorded.
    let dealer = app.staff_token("dealer1", "dealer").await;
    let body = serde_json::json!({ "code": code.to_lowercase(), "table_id": 1, "label": "T1 API" });
    assert_eq!(
        app.send_json("POST", "/api/v1/tablets", &dealer, body.clone())
            .await
            .status,
        403
    );
    let audit0 = app.audit_count();
    let r = app
        .send_json(
            "POST",
            "/api/v1/tablets",
            &token,
            serde_json::json!({ "code": "ZZZ-ZZZ", "table_id": 1 }),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
    assert_eq!(r.json()["error"]["fields"][0]["field"], "code");
    assert_eq!(app.audit_count(), audit0);
    // The floor pairs the code (typed in lower case) with table 1: audited.
    let r = app.send_json("POST", "/api/v1/tablets", &token, body).await;
    assert_eq!(r.status, 201, "{}", r.text());
    let tablet = r.json();
    assert_eq!(tablet["table_id"], 1);
    assert_eq!(tablet["table_number"], 1);
    assert_eq!(tablet["label"], "T1 API");
    assert_eq!(app.audit_count(), audit0 + 1);
    let id = tablet["id"].as_i64().unwrap();
    // A wrong secret collects nothing; the right one gets the device token, once.
    assert_eq!(collect("not-the-secret".into()).await.status, 409);
    let r = collect(secret.clone()).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let device = r.json()["device_token"].as_str().unwrap().to_string();
    assert_eq!(r.json()["tablet"]["id"], id);
    assert_eq!(r.cookie("cr_device").as_deref(), Some(device.as_str()));
    assert_eq!(collect(secret).await.status, 409);
    // The token makes this a tablet: a dealer signs in on it.
    app.create_staff("dealer2", "dealer");
    let d = app.web_login("dealer2", STAFF_PW).await;
    let page = app
        .call(
            TestRequest::get()
                .uri("/tablet")
                .cookie(Cookie::new("cr_device", device.clone()))
                .cookie(d.c())
                .to_request(),
        )
        .await;
    assert_eq!(page.status, 200, "{}", page.text());
    assert!(page.text().contains("T1 API"));
    // Listed for the floor; revoked once (then 409), and gone from the list.
    let list = app.get("/api/v1/tablets", &token).await;
    assert_eq!(list.status, 200);
    assert_eq!(list.json().as_array().unwrap().len(), 1);
    assert_eq!(app.get("/api/v1/tablets", &dealer).await.status, 403);
    let uri = format!("/api/v1/tablets/{id}/revoke");
    let r = app
        .send_json("POST", &uri, &token, serde_json::json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(r.json()["revoked_at"].is_string());
    let r = app
        .send_json("POST", &uri, &token, serde_json::json!({}))
        .await;
    assert_eq!(r.status, 409);
    assert_eq!(
        app.get("/api/v1/tablets", &token)
            .await
            .json()
            .as_array()
            .unwrap()
            .len(),
        0
    );
    let page = app
        .call(
            TestRequest::get()
                .uri("/tablet")
                .cookie(Cookie::new("cr_device", device))
                .cookie(d.c())
                .to_request(),
        )
        .await;
    assert!(
        !page.text().contains("T1 API"),
        "a revoked tablet is not a tablet any more"
    );
}

/// Anyone may ask for a pairing code (an unpaired tablet has no sign-in), and each code is a
/// row written in the room's write turn: one client address is held to
/// `web::limits::PAIRING_PER_MIN` a minute, on the API and on the `/tablet` page alike, with
/// a `Retry-After` and a message in the asker's language; other addresses go on.
#[actix_web::test]
async fn pairing_codes_are_limited_per_client_address_and_a_refusal_writes_nothing() {
    let app = TestApp::new().await;
    let ask = |ip: &str, lang: &str| {
        TestRequest::post()
            .uri("/api/v1/tablet-pairings")
            .peer_addr(format!("{ip}:5000").parse().unwrap())
            .insert_header(("Accept-Language", lang))
            .to_request()
    };
    let per_min = cardroom::web::limits::PAIRING_PER_MIN as i64;
    // The bucket gives one code back every 2 s: on a slow machine a few more may pass while
    // the first ones are written, never many more.
    let started = std::time::Instant::now();
    let mut made = 0;
    let r = loop {
        let r = app.call(ask("192.0.2.7", "pt")).await;
        if r.status != 201 {
            break r;
        }
        made += 1;
        assert!(made <= per_min + 10, "no limit after {made} codes");
    };
    let refilled = (started.elapsed().as_secs() / 2) as i64 + 1;
    assert!(
        (per_min..=per_min + refilled).contains(&made),
        "{made} codes before the first refusal"
    );
    assert_eq!(app.count("tablet_pairings"), made);
    let wait: u64 = r.header("retry-after").unwrap().parse().unwrap();
    assert!(
        (1..=2).contains(&wait),
        "one code comes back every 2 s: {wait}"
    );
    let (code, message) = r.error();
    assert_eq!(code, "too_many_requests");
    assert!(message.contains("demasiados códigos"), "{message}");
    assert_eq!(
        app.count("tablet_pairings"),
        made,
        "a refusal writes nothing"
    );
    // The pairing page of a browser without a code is held by the same bucket.
    let r = app
        .call(
            TestRequest::get()
                .uri("/tablet")
                .peer_addr("192.0.2.7:5001".parse().unwrap())
                .insert_header(("Accept-Language", "en"))
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 429);
    assert!(r.text().contains("Too many pairing codes"), "{}", r.text());
    // Another address is not held up.
    assert_eq!(app.call(ask("192.0.2.8", "en")).await.status, 201);
    assert_eq!(app.count("tablet_pairings"), made + 1);
}

#[actix_web::test]
async fn a_tablet_labelled_with_its_tables_title_does_not_say_it_twice() {
    let app = TestApp::new().await;
    let (_, _, tablet) = paired_room_labelled(&app, "Table 1").await;
    app.create_staff("dealer1", "dealer");
    let d = app.web_login("dealer1", STAFF_PW).await;
    let page = app
        .call(
            TestRequest::get()
                .uri("/tablet")
                .cookie(tablet.c())
                .cookie(d.c())
                .insert_header(("accept-language", "en"))
                .to_request(),
        )
        .await;
    assert_eq!(page.status, 200, "{}", page.text());
    let html = page.text();
    let head = &html[html.find("tablet-bar").expect("the tablet's bar")..];
    let head = &head[..head.find("live-status").expect("the live status")];
    assert_eq!(head.matches("Table 1").count(), 1, "{head}");
}
