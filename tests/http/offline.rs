//! The dealer's tablet through a Wi-Fi drop: a tap made offline reaches the server later with
//! the instant it was made (`tapped_at`) and asks for a JSON answer (`X-Tablet-Queue: 1`). The
//! absence starts when the dealer tapped (BSOP 36), within the room's bound; a tap older than
//! the bound is refused and changes nothing; a tap whose premise changed meanwhile (the player
//! left, a newer count) is refused with that reason, never applied to the wrong player.

use crate::admin::room_form;
use crate::support::ADMIN_PW;
use crate::table_side::{room, Room};
use actix_web::test::TestRequest;
use cardroom::db::schema::{audit_log, seatings};
use chrono::{DateTime, Duration, Utc};
use diesel::prelude::*;

/// A tap sent by the tablet's queue: the form with `tapped_at` (if any), the queue's header.
async fn queued(
    r: &Room,
    uri: &str,
    fields: &[(&str, &str)],
    tapped_at: Option<DateTime<Utc>>,
) -> crate::support::Resp {
    // Each tap its own key, as the tablet's queue gives it.
    static TAPS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let key = format!(
        "tap-{}",
        TAPS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    );
    let at = tapped_at.map(|t| t.to_rfc3339());
    let mut form: Vec<(&str, &str)> = vec![
        ("csrf", r.dealer.csrf.as_str()),
        ("idempotency_key", key.as_str()),
    ];
    form.extend_from_slice(fields);
    if let Some(at) = at.as_deref() {
        form.push(("tapped_at", at));
    }
    r.app
        .call(
            TestRequest::post()
                .uri(uri)
                .cookie(r.tablet.c())
                .cookie(r.dealer.c())
                .insert_header(("X-Tablet-Queue", "1"))
                .insert_header(("Idempotency-Key", key.as_str()))
                .set_form(form)
                .to_request(),
        )
        .await
}

fn now(r: &Room) -> DateTime<Utc> {
    r.app.state.clock.now()
}

fn away_since(r: &Room, seating: i64) -> Option<chrono::NaiveDateTime> {
    r.app.with_conn(|c| {
        seatings::table
            .find(seating)
            .select(seatings::away_since)
            .first(c)
            .unwrap()
    })
}

fn missed_bb(r: &Room, seating: i64) -> i32 {
    r.app.with_conn(|c| {
        seatings::table
            .find(seating)
            .select(seatings::missed_bb)
            .first(c)
            .unwrap()
    })
}

/// The last audit record of `action`: when it was written and its state after.
fn last_audit(r: &Room, action: &str) -> (chrono::NaiveDateTime, serde_json::Value) {
    let (at, after): (chrono::NaiveDateTime, String) = r.app.with_conn(|c| {
        audit_log::table
            .filter(audit_log::action.eq(action))
            .order(audit_log::seq.desc())
            .select((audit_log::at, audit_log::after_json))
            .first(c)
            .unwrap()
    });
    (at, serde_json::from_str(&after).unwrap_or_default())
}

fn form<'a>(f: &'a [(&'static str, String)]) -> Vec<(&'a str, &'a str)> {
    f.iter().map(|(k, v)| (*k, v.as_str())).collect()
}

#[actix_web::test]
async fn bsop_36_an_absence_tapped_offline_starts_when_tapped_and_the_audit_shows_both_times() {
    let r = room(1).await;
    r.join(r.players[0]).await;
    let s = r.seat(4, "120").await;
    r.advance(10).await;
    let received = now(&r);
    let tapped = received - Duration::seconds(90);
    let res = queued(&r, &format!("/tablet/seats/{s}/away"), &[], Some(tapped)).await;
    assert_eq!(res.status, 200, "{}", res.text());
    let j = res.json();
    assert_eq!(j["ok"], true);
    assert_eq!(j["to"], "/tablet");
    // BSOP 36: the 15 minutes count from the tap: 13:30 left, not 15:00.
    assert_eq!(
        away_since(&r, s).map(|t| t.and_utc().timestamp()),
        Some(tapped.timestamp())
    );
    let view = r.view().await;
    assert!(
        (806..=810).any(|n| view.contains(&format!("data-seconds=\"{n}\""))),
        "13:30 to go: {view}"
    );
    let (at, after) = last_audit(&r, "seat.away");
    assert_eq!(
        at.and_utc().timestamp(),
        received.timestamp(),
        "written when received"
    );
    let t = |k: &str| {
        after[k]
            .as_str()
            .and_then(|v| DateTime::parse_from_rfc3339(v).ok())
            .map(|v| v.timestamp())
    };
    assert_eq!(t("tapped_at"), Some(tapped.timestamp()));
    assert_eq!(t("received_at"), Some(received.timestamp()));
    // BSOP 39: a blind the dealer tapped as missed before the absence began is refused; one
    // tapped after it is counted.
    let before = r.app.audit_count();
    let res = queued(
        &r,
        &format!("/tablet/seats/{s}/missed"),
        &[("blind", "big")],
        Some(tapped - Duration::seconds(10)),
    )
    .await;
    assert_eq!(res.status, 409, "{}", res.text());
    assert_eq!(res.json()["ok"], false);
    assert!(
        res.json()["message"]
            .as_str()
            .unwrap()
            .contains("before the player was marked away"),
        "{}",
        res.text()
    );
    assert_eq!(missed_bb(&r, s), 0);
    assert_eq!(r.app.audit_count(), before);
    let res = queued(
        &r,
        &format!("/tablet/seats/{s}/missed"),
        &[("blind", "big")],
        Some(tapped + Duration::seconds(30)),
    )
    .await;
    assert_eq!(res.status, 200, "{}", res.text());
    assert_eq!(missed_bb(&r, s), 1);
    let (_, after) = last_audit(&r, "seat.missed_blind");
    assert!(after["tapped_at"].is_string(), "{after}");
}

#[actix_web::test]
async fn a_tap_older_than_the_rooms_bound_is_refused_and_changes_nothing() {
    let r = room(1).await;
    r.join(r.players[0]).await;
    let s = r.seat(4, "120").await;
    let before = r.app.audit_count();
    let hands = r.app.count("hands");
    let tapped = now(&r) - Duration::seconds(121);
    let lisbon = tapped
        .with_timezone(&chrono_tz::Europe::Lisbon)
        .format("%H:%M")
        .to_string();
    let res = queued(&r, &format!("/tablet/seats/{s}/away"), &[], Some(tapped)).await;
    assert_eq!(res.status, 409, "{}", res.text());
    let j = res.json();
    assert_eq!(j["ok"], false);
    assert_eq!(
        j["message"],
        format!(
            "Tapped at {lisbon}, more than 2 min ago: not applied — tap again if it still holds."
        )
    );
    // A table action (tablet_act) too, and the page form without the queue's header.
    let res = queued(&r, "/tablet/hand", &[], Some(tapped)).await;
    assert_eq!(res.status, 409, "{}", res.text());
    let at = tapped.to_rfc3339();
    let res = r
        .tap(&r.dealer, "/tablet/hand", &[("tapped_at", at.as_str())])
        .await;
    assert_eq!(res.status, 409);
    assert!(res.text().contains("id=\"tablet-problem\""), "the page");
    assert!(res.text().contains("more than 2 min ago"));
    assert_eq!(away_since(&r, s), None);
    assert_eq!(r.app.count("hands"), hands);
    assert_eq!(r.app.audit_count(), before, "nothing audited");
    // Within the bound: applied. Not an instant: 422.
    let res = queued(
        &r,
        &format!("/tablet/seats/{s}/away"),
        &[],
        Some(now(&r) - Duration::seconds(118)),
    )
    .await;
    assert_eq!(res.status, 200, "{}", res.text());
    let res = r
        .tap(&r.dealer, "/tablet/hand", &[("tapped_at", "yesterday")])
        .await;
    assert_eq!(res.status, 422);
}

#[actix_web::test]
async fn a_tapped_at_in_the_future_is_taken_as_the_arrival() {
    let r = room(1).await;
    r.join(r.players[0]).await;
    let s = r.seat(4, "120").await;
    let received = now(&r);
    let res = queued(
        &r,
        &format!("/tablet/seats/{s}/away"),
        &[],
        Some(received + Duration::hours(2)),
    )
    .await;
    assert_eq!(res.status, 200, "{}", res.text());
    // The test clock runs on: the arrival, seconds after `received`, not two hours ahead.
    let since = away_since(&r, s).expect("away").and_utc();
    assert!(
        since >= received && since - received < Duration::seconds(30),
        "{since} vs {received}"
    );
    let (_, after) = last_audit(&r, "seat.away");
    assert!(
        after.get("tapped_at").is_none(),
        "applied as received: {after}"
    );
}

#[actix_web::test]
async fn the_rooms_bound_for_late_taps_is_saved_audited_validated_and_used() {
    let r = room(1).await;
    let admin = r.app.web_login("admin", ADMIN_PW).await;
    let page = r.app.page("/admin/room", &admin).await.text();
    assert!(
        page.contains("name=\"tap_late_max_s\" inputmode=\"numeric\" value=\"120\""),
        "the default, 120 s"
    );
    for bad in ["901", "-1", "two"] {
        let before = r.app.audit_count();
        let res = r
            .app
            .post_form(
                "/admin/room",
                &admin,
                &form(&room_form(&[("tap_late_max_s", bad)])),
            )
            .await;
        assert_eq!(res.status, 422, "{bad}");
        assert!(
            res.text().contains("data-field=\"tap_late_max_s\""),
            "{bad}"
        );
        assert_eq!(r.app.audit_count(), before);
    }
    let res = r
        .app
        .post_form(
            "/admin/room",
            &admin,
            &form(&room_form(&[("tap_late_max_s", "300")])),
        )
        .await;
    assert_eq!(res.status, 303, "{}", res.text());
    let (_, after) = last_audit(&r, "room.update");
    assert_eq!(after["tap_late_max_s"], 300);
    let room = r.app.get("/api/v1/room", &r.token).await.json();
    assert_eq!(room["tap_late_max_s"], 300);
    // The API: out of range refused, absent unchanged.
    let mut body = room.clone();
    body["tap_late_max_s"] = serde_json::json!(1000);
    let res = r.app.send_json("PUT", "/api/v1/room", &r.token, body).await;
    assert_eq!(res.status, 422, "{}", res.text());
    // Used: a tap 200 s late is applied now.
    r.join(r.players[0]).await;
    let s = r.seat(4, "120").await;
    let res = queued(
        &r,
        &format!("/tablet/seats/{s}/away"),
        &[],
        Some(now(&r) - Duration::seconds(200)),
    )
    .await;
    assert_eq!(res.status, 200, "{}", res.text());
}

#[actix_web::test]
async fn a_tap_whose_player_left_or_whose_stack_was_counted_again_is_refused() {
    let r = room(2).await;
    let (a, b) = (r.players[0], r.players[1]);
    r.join(a).await;
    let s = r.seat(4, "120").await;
    // The floor frees the seat and the next player sits there.
    let res = r
        .app
        .send_json(
            "POST",
            &format!("/api/v1/seatings/{s}/leave"),
            &r.token,
            serde_json::json!({ "reason": "Went home" }),
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.text());
    r.join(b).await;
    let s2 = r.seat(4, "100").await;
    assert_ne!(s, s2);
    let before = r.app.audit_count();
    // A tap made for the player who left: refused, the new player untouched.
    for (uri, fields) in [
        (format!("/tablet/seats/{s}/away"), vec![]),
        (format!("/tablet/seats/{s}/count"), vec![("stack", "90")]),
        (format!("/tablet/seats/{s}/flags"), vec![("resting", "1")]),
    ] {
        let res = queued(&r, &uri, &fields, Some(now(&r))).await;
        assert_eq!(res.status, 409, "{uri}: {}", res.text());
        assert_eq!(res.json()["ok"], false);
        assert!(!res.json()["message"].as_str().unwrap().is_empty());
    }
    assert_eq!(away_since(&r, s2), None);
    assert_eq!(r.stack(s2).0, 10000);
    assert_eq!(r.app.audit_count(), before);
    // A count made from a stack that was counted again meanwhile: refused with the stack now.
    let res = r
        .tap(
            &r.dealer,
            &format!("/tablet/seats/{s2}/count"),
            &[("stack", "150"), ("stack_was", "10000")],
        )
        .await;
    assert_eq!(res.status, 303, "{}", res.text());
    let before = r.app.audit_count();
    for (uri, fields) in [
        (
            format!("/tablet/seats/{s2}/count"),
            vec![("stack", "80"), ("stack_was", "10000")],
        ),
        (
            format!("/tablet/seats/{s2}/chips"),
            vec![("stack", "100"), ("amount", "20"), ("stack_was", "10000")],
        ),
    ] {
        let res = queued(&r, &uri, &fields, Some(now(&r))).await;
        assert_eq!(res.status, 409, "{uri}: {}", res.text());
        assert!(
            res.json()["message"]
                .as_str()
                .unwrap()
                .contains("counted again meanwhile"),
            "{}",
            res.text()
        );
    }
    assert_eq!(r.stack(s2).0, 15000);
    assert_eq!(r.app.audit_count(), before);
    // The seat page carries the stack it shows.
    let page = r.seat_page(s2).await.text();
    assert!(
        page.contains("name=\"stack_was\" value=\"15000\""),
        "{page}"
    );
}
