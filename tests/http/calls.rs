//! A seat call on the dealer's tablet: first on the table screen, above the cagnotte and the
//! seats however many dues are open; a banner on a seat's page leads back to it; the room's
//! choice of how a call is announced (a chime and a vibration, a vibration only, or neither),
//! set through the API and on the admin's room page, audited, refused when unknown.

use crate::admin::{room_form, selected};
use crate::support::*;
use crate::table_side::room;
use cardroom::db::schema::audit_log;
use diesel::prelude::*;
use serde_json::json;

/// Where `needle` is in `page` (panics with the page if absent).
fn at(page: &str, needle: &str) -> usize {
    page.find(needle)
        .unwrap_or_else(|| panic!("{needle} not in the page: {page}"))
}

#[actix_web::test]
async fn an_open_seat_call_comes_first_on_the_table_screen_and_a_seat_page_leads_back_to_it() {
    let r = room(9).await;
    for p in &r.players {
        r.join(*p).await;
    }
    let mut seated = Vec::new();
    for seat in 1..=8 {
        seated.push(r.seat(seat, "100").await);
    }
    // The first hand starts the cagnotte session (PT-2007 7b): eight dues to collect.
    let res = r.tap(&r.dealer, "/tablet/hand", &[]).await;
    assert_eq!(res.status, 303, "{}", res.text());
    let view = r.view().await;
    assert_eq!(view.matches("id=\"collect-").count(), 8, "{view}");
    assert!(!view.contains("id=\"tablet-calls\""), "no call yet");

    // The floor calls the ninth player for the last seat: the call comes before the cagnotte and
    // the seats, with its Acknowledge, buy-in field and Seat button, marked for calls.js.
    let call = r.call(9).await;
    let view = r.view().await;
    let calls = at(&view, "id=\"tablet-calls\"");
    assert!(
        calls < at(&view, "id=\"cagnotte\""),
        "the call before the cagnotte"
    );
    assert!(
        calls < at(&view, "class=\"tablet-seats\""),
        "the call before the seats"
    );
    let block = &view[calls..at(&view, "id=\"cagnotte\"")];
    for part in [
        format!("data-call-id=\"{call}\""),
        "data-call-state=\"pending\"".to_string(),
        format!("id=\"ack-{call}\""),
        format!("id=\"amount-{call}\""),
        format!("id=\"seat-{call}\""),
    ] {
        assert!(block.contains(&part), "{part} in the call's block: {block}");
    }

    // The table page: the room's alert (a chime by default), the script, the mute button.
    let page = r
        .app
        .call(
            actix_web::test::TestRequest::get()
                .uri("/tablet")
                .cookie(r.tablet.c())
                .cookie(r.dealer.c())
                .to_request(),
        )
        .await
        .text();
    assert!(page.contains("data-alert=\"sound\""), "{page}");
    assert!(page.contains("id=\"sound-arm\"") && page.contains("id=\"call-mute\""));
    assert!(page.contains("/static/calls.js?v="), "calls.js in the head");

    // A seat's page says a call is open and leads back to the table screen.
    let seat_page = r.seat_page(seated[0]).await;
    assert_eq!(seat_page.status, 200);
    let seat_page = seat_page.text();
    let banner = at(&seat_page, "id=\"calls-banner\"");
    assert!(
        banner < at(&seat_page, "id=\"seat-summary\""),
        "the banner before the seat's own sections"
    );
    let banner = &seat_page[banner..banner + seat_page[banner..].find("</section>").unwrap()];
    assert!(banner.contains("A seat call is open"), "{banner}");
    assert!(
        banner.contains(&format!("data-call-id=\"{call}\"")),
        "{banner}"
    );
    assert!(banner.contains("href=\"/tablet\""), "{banner}");

    // Acknowledged, the call stays first (the player is on the way) but is not "new" any more.
    let res = r
        .tap(&r.dealer, &format!("/tablet/calls/{call}/ack"), &[])
        .await;
    assert_eq!(res.status, 303, "{}", res.text());
    let view = r.view().await;
    assert!(view.contains("data-call-state=\"acknowledged\""), "{view}");
    assert!(at(&view, "id=\"tablet-calls\"") < at(&view, "id=\"cagnotte\""));

    // Seated: no call left, no banner.
    let res = r
        .tap(
            &r.dealer,
            &format!("/tablet/calls/{call}/seat"),
            &[("amount", "100")],
        )
        .await;
    assert_eq!(res.status, 303, "{}", res.text());
    assert!(!r.view().await.contains("data-call-id"));
    let seat_page = r.seat_page(seated[0]).await.text();
    assert!(!seat_page.contains("id=\"calls-banner\""), "{seat_page}");
}

#[actix_web::test]
async fn the_call_alert_is_a_room_setting_of_the_api_audited_and_refused_when_unknown() {
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    let room = app.get("/api/v1/room", &token).await.json();
    assert_eq!(room["call_alert"], "sound", "on by default: {room}");

    // Unknown, or not a string: 422 on the field, nothing saved nor audited.
    let audit = app.audit_count();
    for bad in [json!("loud"), json!(true), json!(2)] {
        let mut body = room.clone();
        body["call_alert"] = bad.clone();
        body["name"] = json!("Renamed");
        let r = app.send_json("PUT", "/api/v1/room", &token, body).await;
        assert_eq!(r.status, 422, "{bad}: {}", r.text());
        assert_eq!(r.json()["error"]["fields"][0]["field"], "call_alert");
        let now = app.get("/api/v1/room", &token).await.json();
        assert_eq!(
            (now["call_alert"].as_str(), now["name"].as_str()),
            (Some("sound"), Some("Cardroom"))
        );
    }
    assert_eq!(app.audit_count(), audit, "a refusal changes nothing");

    // A dealer may not change it.
    let dealer = app.staff_token("dealer1", "dealer").await;
    let audit = app.audit_count();
    let mut body = room.clone();
    body["call_alert"] = json!("off");
    let r = app
        .send_json("PUT", "/api/v1/room", &dealer, body.clone())
        .await;
    assert_eq!(r.status, 403, "{}", r.text());
    assert_eq!(app.audit_count(), audit);

    // Vibration only: saved, audited with the change, worn by the tablet's bar.
    body["call_alert"] = json!("vibrate");
    let r = app.send_json("PUT", "/api/v1/room", &token, body).await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["call_alert"], "vibrate");
    assert_eq!(app.audit_count(), audit + 1);
    let (before, after): (String, String) = app.with_conn(|c| {
        audit_log::table
            .filter(audit_log::action.eq("room.update"))
            .order(audit_log::seq.desc())
            .select((audit_log::before_json, audit_log::after_json))
            .first(c)
            .unwrap()
    });
    assert!(
        before.contains("\"call_alert\":\"sound\"") && after.contains("\"call_alert\":\"vibrate\""),
        "{before} → {after}"
    );

    // A PUT without the field keeps it.
    let mut body = app.get("/api/v1/room", &token).await.json();
    body.as_object_mut().unwrap().remove("call_alert");
    body["name"] = json!("Sala Norte");
    let r = app.send_json("PUT", "/api/v1/room", &token, body).await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["call_alert"], "vibrate");
}

#[actix_web::test]
async fn the_admin_room_page_sets_the_call_alert_and_the_tablet_wears_it() {
    let r = room(0).await;
    let app = &r.app;
    let token = &r.token;
    let s = app.web_login("admin", ADMIN_PW).await;
    let page = app.page("/admin/room", &s).await.text();
    assert_eq!(selected(&page, "call_alert").as_deref(), Some("sound"));
    assert!(page.contains("Chime and vibration") && page.contains("Vibration only"));

    // Unknown: 422 next to the field, nothing saved nor audited.
    let audit = app.audit_count();
    let form = room_form(&[("call_alert", "loud"), ("name", "Changed")]);
    let f: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let res = app.post_form("/admin/room", &s, &f).await;
    assert_eq!(res.status, 422, "{}", res.text());
    assert!(
        res.text().contains("data-field=\"call_alert\""),
        "the message is next to the field: {}",
        res.text()
    );
    assert_eq!(app.audit_count(), audit, "a refusal changes nothing");
    let now = app.get("/api/v1/room", token).await.json();
    assert_eq!(
        (now["call_alert"].as_str(), now["name"].as_str()),
        (Some("sound"), Some("Cardroom"))
    );

    // Off: saved and audited; the tablet's bar has neither the sound badge nor the mute.
    let form = room_form(&[("call_alert", "off")]);
    let f: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let res = app.post_form("/admin/room", &s, &f).await;
    assert_eq!(res.status, 303, "{}", res.text());
    assert_eq!(app.audit_count(), audit + 1);
    let page = app.page("/admin/room", &s).await.text();
    assert_eq!(selected(&page, "call_alert").as_deref(), Some("off"));
    let tablet = |lang: &'static str| {
        app.call(
            actix_web::test::TestRequest::get()
                .uri("/tablet")
                .insert_header(("accept-language", lang))
                .cookie(r.tablet.c())
                .cookie(r.dealer.c())
                .to_request(),
        )
    };
    let page = tablet("en").await.text();
    assert!(!page.contains("id=\"call-alert\""), "{page}");

    // A form without the field (a page of before the setting) keeps it.
    let form = room_form(&[("name", "Sala Sul")]);
    let f: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
    assert_eq!(app.post_form("/admin/room", &s, &f).await.status, 303);
    assert_eq!(
        app.get("/api/v1/room", token).await.json()["call_alert"],
        "off"
    );

    // Vibration only: the mute, no sound badge; in Portuguese.
    let form = room_form(&[("call_alert", "vibrate")]);
    let f: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
    assert_eq!(app.post_form("/admin/room", &s, &f).await.status, 303);
    let page = tablet("pt").await.text();
    assert!(page.contains("data-alert=\"vibrate\""), "{page}");
    assert!(page.contains("Silenciar 10 min") && !page.contains("id=\"sound-arm\""));
}
