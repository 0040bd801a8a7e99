//! The floor's rulings and the incident log (BSOP 16-22): a dealer asks from the tablet naming
//! the hand in play, the floor sees it pushed on its board and decides; a decision is final
//! (BSOP 17), corrected only by a later ruling naming it; a ruling asked late keeps the hand's
//! result unless overridden with a reason (BSOP 19); a pot held aside (BSOP 21) and a pot
//! reconstructed (BSOP 20) move chips only once a second staff member confirms; the log's
//! filters, its CSV, and a player's record. Every refusal changes nothing, audit included.

use crate::pages::{eligible_players, read_stream_until};
use crate::support::{Resp, TestApp, WebSession, STAFF_PW};
use crate::tablets::{paired_room, Tablet};
use actix_web::test::TestRequest;
use cardroom::db::models::RulingRow;
use cardroom::db::schema::{held_pots, ruling_moves, rulings, seatings};
use diesel::prelude::*;
use serde_json::{json, Value};

struct Room {
    app: TestApp,
    /// The admin's API token (a supervisor).
    token: String,
    /// The admin signed in on the floor's pages.
    floor: WebSession,
    tablet: Tablet,
    /// dealer1 signed in on table 1's tablet.
    dealer: WebSession,
    players: Vec<i64>,
}

impl Room {
    /// A POST from the tablet, signed in as `who`.
    async fn tap(&self, who: &WebSession, uri: &str, fields: &[(&str, &str)]) -> Resp {
        let mut form: Vec<(&str, &str)> = vec![("csrf", who.csrf.as_str())];
        form.extend_from_slice(fields);
        self.app
            .call(
                TestRequest::post()
                    .uri(uri)
                    .cookie(self.tablet.c())
                    .cookie(who.c())
                    .set_form(form)
                    .to_request(),
            )
            .await
    }

    async fn tablet_get(&self, uri: &str) -> Resp {
        self.app
            .call(
                TestRequest::get()
                    .uri(uri)
                    .cookie(self.tablet.c())
                    .cookie(self.dealer.c())
                    .to_request(),
            )
            .await
    }

    /// Puts player `i` on table 1's list, calls them to `seat` and seats them from the
    /// tablet with `amount` (euros); the seating's id.
    async fn seat(&self, i: usize, seat: i32, amount: &str) -> i64 {
        let r = self
            .app
            .send_json(
                "POST",
                "/api/v1/games/1/waitlist",
                &self.token,
                json!({ "player_id": self.players[i] }),
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.text());
        let r = self
            .app
            .send_json(
                "POST",
                &format!("/api/v1/tables/1/seats/{seat}/call-next"),
                &self.token,
                json!({}),
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.text());
        let call = r.json()["id"].as_i64().unwrap();
        let r = self
            .tap(
                &self.dealer,
                &format!("/tablet/calls/{call}/seat"),
                &[("amount", amount)],
            )
            .await;
        assert_eq!(r.status, 303, "{}", r.text());
        self.app.with_conn(|c| {
            seatings::table
                .filter(seatings::table_id.eq(1))
                .filter(seatings::seat_no.eq(seat))
                .filter(seatings::left_at.is_null())
                .select(seatings::id)
                .first(c)
                .unwrap()
        })
    }

    /// The dealer's "new hand" tap (the first riffle of the next hand, BSOP 19).
    async fn new_hand(&self) -> i64 {
        let r = self
            .app
            .send_json("POST", "/api/v1/tables/1/hands", &self.token, json!({}))
            .await;
        assert_eq!(r.status, 201, "{}", r.text());
        r.json()["number"].as_i64().unwrap()
    }

    async fn post(&self, token: &str, uri: &str, body: Value) -> Resp {
        self.app.send_json("POST", uri, token, body).await
    }

    /// Asks for a ruling through the API as the admin; its id.
    async fn ask(&self, table: i64, body: Value) -> i64 {
        let r = self
            .post(
                &self.token,
                &format!("/api/v1/tables/{table}/rulings"),
                body,
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.text());
        r.json()["id"].as_i64().unwrap()
    }

    fn ruling(&self, id: i64) -> RulingRow {
        self.app.with_conn(|c| {
            rulings::table
                .find(id)
                .select(RulingRow::as_select())
                .first(c)
                .unwrap()
        })
    }

    fn stack(&self, seating: i64) -> i64 {
        self.app.with_conn(|c| {
            seatings::table
                .find(seating)
                .select(seatings::stack)
                .first(c)
                .unwrap()
        })
    }

    fn last_audit(&self) -> (String, String) {
        use cardroom::db::schema::audit_log;
        self.app.with_conn(|c| {
            audit_log::table
                .order(audit_log::seq.desc())
                .select((audit_log::action, audit_log::subject_kind))
                .first(c)
                .unwrap()
        })
    }

    async fn advance(&self, minutes: i64) {
        let r = self
            .post(
                &self.token,
                "/api/v1/test/clock/advance",
                json!({ "minutes": minutes }),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.text());
    }
}

/// Two open tables of NL 1/2 (buy-in €40–€200, 9 seats), table 1's tablet paired with dealer1
/// signed in, `n` eligible players of whom the first `seated` sit at table 1 in seats 1, 2, …
/// with €100 each.
async fn room(n: usize, seated: usize) -> (Room, Vec<i64>) {
    let app = TestApp::with_clock(true).await;
    let (token, floor, tablet) = paired_room(&app).await;
    app.create_staff("dealer1", "dealer");
    let dealer = app.web_login("dealer1", STAFF_PW).await;
    let players = eligible_players(&app, n);
    let r = Room {
        app,
        token,
        floor,
        tablet,
        dealer,
        players,
    };
    let mut seatings = Vec::new();
    for i in 0..seated {
        seatings.push(r.seat(i, i as i32 + 1, "100").await);
    }
    (r, seatings)
}

#[actix_web::test]
async fn bsop_18_the_dealer_asks_from_the_tablet_the_board_shows_it_and_the_floor_decides() {
    let (r, _) = room(4, 4).await;
    let hand = r.new_hand().await;
    // The board's stream, open before the request.
    let stream = r
        .app
        .call_raw(
            TestRequest::get()
                .uri("/floor/stream")
                .cookie(r.floor.c())
                .to_request(),
        )
        .await;
    assert_eq!(stream.status(), 200);
    // The tablet offers the hand in play and the seats.
    let form = r.tablet_get("/tablet/ruling").await;
    assert_eq!(form.status, 200, "{}", form.text());
    assert!(
        form.text().contains("id=\"ruling-seat-3\""),
        "{}",
        form.text()
    );
    assert!(form.text().contains(&format!("#{hand}")), "{}", form.text());
    let audit0 = r.app.audit_count();
    let res = r
        .tap(
            &r.dealer,
            "/tablet/ruling",
            &[
                ("hand", ""),
                ("seat", "3"),
                ("seat", "1"),
                ("note", "pot pushed to seat 3"),
            ],
        )
        .await;
    assert_eq!(res.status, 303, "{}", res.text());
    assert_eq!(r.app.count("rulings"), 1);
    let id: i64 = r
        .app
        .with_conn(|c| rulings::table.select(rulings::id).first(c).unwrap());
    let row = r.ruling(id);
    // BSOP 18: the hand in play, taken by the server; asked in time (BSOP 19).
    assert_eq!(row.hand_number, Some(hand as i32));
    assert_eq!(row.seats, "3, 1");
    assert_eq!(row.note, "pot pushed to seat 3");
    assert_eq!(row.late_reason, None);
    assert!(row.decided_at.is_none());
    assert_eq!(
        r.app.count("ruling_players"),
        2,
        "the players of seats 3 and 1"
    );
    assert_eq!(r.app.audit_count(), audit0 + 1);
    assert_eq!(r.last_audit(), ("ruling.ask".into(), "ruling".into()));
    // Pushed to the floor's board: the stream carries it with the table.
    let seen = read_stream_until(stream, "ruling.asked").await;
    assert!(seen.contains("ruling.asked"), "{seen}");
    // The board's alert strip and table 1's tile show it; so does the tablet.
    let live = r.app.page("/floor/live", &r.floor).await.text();
    assert!(
        live.contains(&format!("id=\"ruling-alert-{id}\"")),
        "{live}"
    );
    assert!(live.contains("id=\"tile-ruling-1\""), "{live}");
    let view = r.tablet_get("/tablet/view").await.text();
    assert!(view.contains(&format!("id=\"ruling-{id}\"")), "{view}");
    let side = r.app.get("/api/v1/tables/1/side", &r.token).await.json();
    assert_eq!(side["rulings"][0]["id"], id, "{side}");
    assert_eq!(side["rulings"][0]["state"], "open");
    // The floor's answer page.
    let page = r.app.page(&format!("/floor/rulings/{id}"), &r.floor).await;
    assert_eq!(page.status, 200);
    assert!(
        page.text().contains("id=\"decide-form\""),
        "{}",
        page.text()
    );
    let res = r
        .app
        .post_form(
            &format!("/floor/rulings/{id}/decide"),
            &r.floor,
            &[
                ("decision", "Pot to seat 1, who showed the better hand."),
                ("rule", "BSOP 20"),
            ],
        )
        .await;
    assert_eq!(res.status, 303, "{}", res.text());
    let row = r.ruling(id);
    assert_eq!(
        row.decision.as_deref(),
        Some("Pot to seat 1, who showed the better hand.")
    );
    assert_eq!(row.rule_cited.as_deref(), Some("BSOP 20"));
    assert_eq!(row.result_stands, None, "asked in time: nothing to keep");
    assert!(row.decided_by.is_some());
    assert_eq!(r.last_audit(), ("ruling.decide".into(), "ruling".into()));
    // Gone from the alert strip and the tile; the tablet shows the decision.
    let live = r.app.page("/floor/live", &r.floor).await.text();
    assert!(!live.contains(&format!("id=\"ruling-alert-{id}\"")));
    assert!(!live.contains("id=\"tile-ruling-1\""));
    let view = r.tablet_get("/tablet/view").await.text();
    assert!(
        view.contains("Pot to seat 1, who showed the better hand."),
        "{view}"
    );
    // The audit trail links the record to the ruling's page.
    let audit = r
        .app
        .page("/admin/audit?subject_kind=ruling", &r.floor)
        .await
        .text();
    assert!(audit.contains(&format!("/floor/rulings/{id}")), "{audit}");
}

#[actix_web::test]
async fn bsop_17_a_decision_is_final_neither_edited_nor_deleted() {
    let (r, _) = room(2, 0).await;
    let id = r.ask(1, json!({ "note": "string bet" })).await;
    // Without a decision text: 422 naming the field, nothing changed.
    let audit0 = r.app.audit_count();
    let res = r
        .post(
            &r.token,
            &format!("/api/v1/rulings/{id}/decision"),
            json!({ "decision": "   " }),
        )
        .await;
    assert_eq!(res.status, 422, "{}", res.text());
    assert_eq!(res.json()["error"]["fields"][0]["field"], "decision");
    assert!(res.text().contains("(BSOP 17)"), "{}", res.text());
    // In the floor manager's language, naming the rule too.
    let res = r
        .app
        .call(
            TestRequest::post()
                .uri(&format!("/api/v1/rulings/{id}/decision"))
                .insert_header(("Authorization", format!("Bearer {}", r.token)))
                .insert_header(("accept-language", "pt"))
                .set_json(json!({ "decision": "" }))
                .to_request(),
        )
        .await;
    assert_eq!(res.status, 422, "{}", res.text());
    assert!(
        res.text().contains("Escreva a decisão") && res.text().contains("(BSOP 17)"),
        "{}",
        res.text()
    );
    assert_eq!(r.app.audit_count(), audit0);
    assert!(r.ruling(id).decided_at.is_none());
    let res = r
        .post(
            &r.token,
            &format!("/api/v1/rulings/{id}/decision"),
            json!({ "decision": "The bet stands as a call." }),
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.text());
    assert_eq!(res.json()["state"], "decided");
    // A second decision is refused (BSOP 17): 409, the first one kept, nothing audited.
    let audit1 = r.app.audit_count();
    let res = r
        .post(
            &r.token,
            &format!("/api/v1/rulings/{id}/decision"),
            json!({ "decision": "The bet stands as a raise." }),
        )
        .await;
    assert_eq!(res.status, 409, "{}", res.text());
    assert_eq!(res.json()["error"]["reason"], "ruling_decided");
    assert!(res.json()["error"]["message"]
        .as_str()
        .unwrap()
        .contains("BSOP 17"));
    assert_eq!(
        r.ruling(id).decision.as_deref(),
        Some("The bet stands as a call.")
    );
    assert_eq!(r.app.audit_count(), audit1);
    // No route edits or deletes one.
    for method in ["PUT", "PATCH", "DELETE"] {
        let res = r
            .app
            .send_json(
                method,
                &format!("/api/v1/rulings/{id}"),
                &r.token,
                json!({}),
            )
            .await;
        assert_eq!(res.status, 405, "{method}");
    }
    // And the database refuses it, whatever a program does.
    let (upd, del) = r.app.with_conn(|c| {
        (
            diesel::sql_query(format!(
                "UPDATE rulings SET decision = 'changed' WHERE id = {id}"
            ))
            .execute(c),
            diesel::sql_query(format!("DELETE FROM rulings WHERE id = {id}")).execute(c),
        )
    });
    assert!(upd.is_err(), "a decided ruling cannot be updated");
    assert!(del.is_err(), "a ruling cannot be deleted");
    assert_eq!(
        r.ruling(id).decision.as_deref(),
        Some("The bet stands as a call.")
    );
}

#[actix_web::test]
async fn bsop_17_a_correction_is_a_later_ruling_that_names_the_one_it_corrects() {
    let (r, _) = room(4, 4).await;
    r.new_hand().await;
    let id = r.ask(1, json!({ "seats": [2] })).await;
    // An open ruling is decided, not corrected.
    let res = r
        .post(
            &r.token,
            &format!("/api/v1/rulings/{id}/corrections"),
            json!({ "decision": "x" }),
        )
        .await;
    assert_eq!(res.status, 409, "{}", res.text());
    assert_eq!(r.app.count("rulings"), 1);
    r.post(
        &r.token,
        &format!("/api/v1/rulings/{id}/decision"),
        json!({ "decision": "Misdeal." }),
    )
    .await;
    let res = r
        .post(
            &r.token,
            &format!("/api/v1/rulings/{id}/corrections"),
            json!({ "decision": "Not a misdeal: the hand plays on.", "rule": "TDA 35" }),
        )
        .await;
    assert_eq!(res.status, 201, "{}", res.text());
    let new = res.json();
    let nid = new["id"].as_i64().unwrap();
    assert_eq!(new["corrects"], id);
    assert_eq!(new["hand_number"], r.ruling(id).hand_number.unwrap());
    assert_eq!(new["seats"], json!([2]));
    assert_eq!(
        new["players"].as_array().unwrap().len(),
        1,
        "the same players"
    );
    assert_eq!(r.last_audit(), ("ruling.correct".into(), "ruling".into()));
    // The earlier ruling is unchanged and shows "corrected by #N".
    assert_eq!(r.ruling(id).decision.as_deref(), Some("Misdeal."));
    let earlier = r
        .app
        .get(&format!("/api/v1/rulings/{id}"), &r.token)
        .await
        .json();
    assert_eq!(earlier["ruling"]["corrected_by"], nid);
    let page = r
        .app
        .page(&format!("/floor/rulings/{id}"), &r.floor)
        .await
        .text();
    assert!(page.contains("id=\"ruling-corrected-by\""), "{page}");
    assert!(page.contains(&format!("/floor/rulings/{nid}")));
    // Correct the correction, not the corrected one again.
    let audit0 = r.app.audit_count();
    let res = r
        .post(
            &r.token,
            &format!("/api/v1/rulings/{id}/corrections"),
            json!({ "decision": "again" }),
        )
        .await;
    assert_eq!(res.status, 409, "{}", res.text());
    assert_eq!(res.json()["error"]["reason"], "ruling_corrected");
    assert_eq!(r.app.audit_count(), audit0);
    assert_eq!(r.app.count("rulings"), 2);
    // A ruling never disappears: both are in the log.
    let log = r.app.get("/api/v1/rulings", &r.token).await.json();
    assert_eq!(log.as_array().unwrap().len(), 2);
}

#[actix_web::test]
async fn bsop_19_a_late_ruling_keeps_the_result_unless_the_floor_overrides_it_with_a_reason() {
    let (r, _) = room(4, 4).await;
    let first = r.new_hand().await;
    r.new_hand().await;
    // Asked about the hand before the one in play: the next hand has started.
    let id = r
        .ask(1, json!({ "hand_number": first, "seats": [1] }))
        .await;
    let row = r.ruling(id);
    assert_eq!(row.late_reason.as_deref(), Some("next_hand"));
    assert_eq!(row.hand_number, Some(first as i32));
    // Overriding without a reason: 422 on the reason, naming the rule; nothing changed.
    let audit0 = r.app.audit_count();
    let res = r
        .post(
            &r.token,
            &format!("/api/v1/rulings/{id}/decision"),
            json!({ "decision": "Pot to seat 2.", "override_result": true }),
        )
        .await;
    assert_eq!(res.status, 422, "{}", res.text());
    let f = &res.json()["error"]["fields"][0];
    assert_eq!(f["field"], "override_reason");
    assert!(f["message"].as_str().unwrap().contains("BSOP 19"), "{f}");
    assert_eq!(r.app.audit_count(), audit0);
    // Decided without overriding: the result stands.
    let res = r
        .post(
            &r.token,
            &format!("/api/v1/rulings/{id}/decision"),
            json!({ "decision": "Too late: the pot stays with seat 1." }),
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.text());
    assert_eq!(res.json()["result_stands"], true);
    assert_eq!(res.json()["late_reason"], "next_hand");
    // Another late one, overridden with a reason.
    let id2 = r.ask(1, json!({ "hand_number": first })).await;
    let res = r
        .post(
            &r.token,
            &format!("/api/v1/rulings/{id2}/decision"),
            json!({ "decision": "Pot to seat 2.", "override_result": true,
                    "override_reason": "Footage shows the dealer pushed the pot while seat 2 protested." }),
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.text());
    let row = r.ruling(id2);
    assert_eq!(row.result_stands, Some(false));
    assert_eq!(
        row.override_reason.as_deref(),
        Some("Footage shows the dealer pushed the pot while seat 2 protested.")
    );
    // A ruling asked in time has no kept result to override.
    let id3 = r.ask(1, json!({})).await;
    let res = r
        .post(
            &r.token,
            &format!("/api/v1/rulings/{id3}/decision"),
            json!({ "decision": "x", "override_result": true, "override_reason": "y" }),
        )
        .await;
    assert_eq!(res.status, 422, "{}", res.text());
    assert_eq!(res.json()["error"]["fields"][0]["field"], "override_result");
    assert!(r.ruling(id3).decided_at.is_none());
    // More seats than a table has, duplicates counted as sent: 422.
    let res = r
        .post(
            &r.token,
            "/api/v1/tables/1/rulings",
            json!({ "seats": vec![1; 12] }),
        )
        .await;
    assert_eq!(res.status, 422, "{}", res.text());
    assert_eq!(res.json()["error"]["fields"][0]["field"], "seats");
    // A hand the table never dealt: 422 naming the field.
    let res = r
        .post(
            &r.token,
            "/api/v1/tables/1/rulings",
            json!({ "hand_number": 99 }),
        )
        .await;
    assert_eq!(res.status, 422, "{}", res.text());
    assert_eq!(res.json()["error"]["fields"][0]["field"], "hand_number");
}

#[actix_web::test]
async fn bsop_19_late_once_a_player_involved_left_or_moved_or_the_table_broke() {
    let (r, s) = room(4, 4).await;
    r.new_hand().await;
    // Seat 4 cashes out after the hand started: a ruling naming seat 4 is late.
    let res = r
        .post(
            &r.token,
            &format!("/api/v1/seatings/{}/cash-out", s[3]),
            json!({ "stack": 10000 }),
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.text());
    let id = r.ask(1, json!({ "seats": [4] })).await;
    assert_eq!(r.ruling(id).late_reason.as_deref(), Some("player_left"));
    // The players still seated: in time.
    let id = r.ask(1, json!({ "seats": [1, 2] })).await;
    assert_eq!(r.ruling(id).late_reason, None);
    // Seat 3 moves to table 2 with the stack: late, "moved".
    let res = r
        .post(
            &r.token,
            &format!("/api/v1/seatings/{}/transfer-with-stack", s[2]),
            json!({ "table_id": 2, "stack": 10000 }),
        )
        .await;
    assert_eq!(res.status, 201, "{}", res.text());
    let id = r.ask(1, json!({ "seats": [3] })).await;
    assert_eq!(r.ruling(id).late_reason.as_deref(), Some("player_moved"));
    // Two players left at table 1 (under four, PT-2007 24): suspended, then closed after the
    // grace period. The table broke: late.
    r.advance(16).await;
    let now = r.app.state.clock.now();
    r.app.with_conn(|c| {
        r.app
            .state
            .db
            .write(c, |c| {
                let act = cardroom::services::Acting::system(now).in_room(c)?;
                cardroom::services::floor::tick(c, &act)
            })
            .expect("tick")
    });
    let state: String = r.app.with_conn(|c| {
        cardroom::db::schema::card_tables::table
            .find(1)
            .select(cardroom::db::schema::card_tables::state)
            .first(c)
            .unwrap()
    });
    assert_eq!(state, "closed");
    let id = r.ask(1, json!({})).await;
    assert_eq!(r.ruling(id).late_reason.as_deref(), Some("table_broken"));
    // An empty seat named: 422 on the seats, nothing saved.
    let n = r.app.count("rulings");
    let res = r
        .post(
            &r.token,
            "/api/v1/tables/2/rulings",
            json!({ "seats": [9] }),
        )
        .await;
    assert_eq!(res.status, 422, "{}", res.text());
    assert_eq!(res.json()["error"]["fields"][0]["field"], "seats");
    assert_eq!(r.app.count("rulings"), n);
}

#[actix_web::test]
async fn bsop_19_a_seat_change_at_the_same_table_is_not_leaving_it() {
    let (r, s) = room(4, 4).await;
    r.new_hand().await;
    // Seat 1 asks for another seat (BSOP 51); seat 4 cashes out and its seat is offered to
    // seat 1 first; the move is confirmed.
    let res = r
        .post(
            &r.token,
            &format!("/api/v1/seatings/{}/seat-change", s[0]),
            json!({}),
        )
        .await;
    assert_eq!(res.status, 201, "{}", res.text());
    let res = r
        .post(
            &r.token,
            &format!("/api/v1/seatings/{}/cash-out", s[3]),
            json!({ "stack": 10000 }),
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.text());
    let call: i64 = r.app.with_conn(|c| {
        use cardroom::db::schema::seat_calls;
        seat_calls::table
            .filter(seat_calls::source.eq("seat_change"))
            .select(seat_calls::id)
            .first(c)
            .unwrap()
    });
    let res = r
        .post(
            &r.token,
            &format!("/api/v1/seat-calls/{call}/seat"),
            json!({}),
        )
        .await;
    assert_eq!(res.status, 201, "{}", res.text());
    // A ruling on the hand naming seat 1 (where the player sat when it began) is in time:
    // the player is still at the table.
    let id = r.ask(1, json!({ "seats": [1] })).await;
    assert_eq!(r.ruling(id).late_reason, None);
}

#[actix_web::test]
async fn bsop_21_a_held_pot_is_released_to_named_players_by_two_staff_members() {
    let (r, s) = room(4, 4).await;
    r.new_hand().await;
    let id = r
        .ask(1, json!({ "seats": [1, 2], "note": "who won?" }))
        .await;
    let url = format!("/api/v1/rulings/{id}/held-pot");
    // Bad amounts: 422 on `amount` naming BSOP 21; nothing saved, nothing audited.
    let audit0 = r.app.audit_count();
    for (amount, key) in [
        (-500, "ruling_pot_positive"),
        (0, "ruling_pot_positive"),
        (40_001, "ruling_pot_over_table"),
    ] {
        let res = r
            .post(
                &r.token,
                &url,
                json!({ "amount": amount, "storage": "cage, box 2" }),
            )
            .await;
        assert_eq!(res.status, 422, "{amount}: {}", res.text());
        let f = &res.json()["error"]["fields"][0];
        assert_eq!(f["field"], "amount");
        assert_eq!(f["code"], key);
        assert!(f["message"].as_str().unwrap().contains("BSOP 21"), "{f}");
    }
    // The message says the table's chips on record (4 × €100).
    let res = r
        .post(
            &r.token,
            &url,
            json!({ "amount": 40_001, "storage": "cage" }),
        )
        .await;
    assert!(res.text().contains("€400.00"), "{}", res.text());
    let res = r
        .post(&r.token, &url, json!({ "amount": 3000, "storage": " " }))
        .await;
    assert_eq!(res.status, 422);
    assert_eq!(res.json()["error"]["fields"][0]["field"], "storage");
    assert!(res.text().contains("(BSOP 21)"), "{}", res.text());
    assert_eq!(r.app.count("held_pots"), 0);
    assert_eq!(r.app.audit_count(), audit0);
    // Held: €30.00 in the cage.
    let res = r
        .post(
            &r.token,
            &url,
            json!({ "amount": 3000, "storage": "cage, box 2" }),
        )
        .await;
    assert_eq!(res.status, 201, "{}", res.text());
    assert_eq!(res.json()["state"], "held");
    assert_eq!(res.json()["seats"], json!([1, 2]));
    assert_eq!(r.last_audit(), ("ruling.pot_held".into(), "ruling".into()));
    let res = r
        .post(&r.token, &url, json!({ "amount": 100, "storage": "x" }))
        .await;
    assert_eq!(res.status, 409, "one pot per ruling");
    // The decision must release it, the shares summing to it.
    let decide = format!("/api/v1/rulings/{id}/decision");
    let audit1 = r.app.audit_count();
    let res = r
        .post(&r.token, &decide, json!({ "decision": "Split." }))
        .await;
    assert_eq!(res.status, 422, "{}", res.text());
    assert_eq!(res.json()["error"]["fields"][0]["field"], "release");
    let (p1, p2) = (r.players[0], r.players[1]);
    let res = r
        .post(
            &r.token,
            &decide,
            json!({ "decision": "Split.", "release": [{ "player_id": p1, "amount": 1500 }, { "player_id": p2, "amount": 1000 }] }),
        )
        .await;
    assert_eq!(res.status, 422, "{}", res.text());
    assert_eq!(
        res.json()["error"]["fields"][0]["code"],
        "ruling_release_sum"
    );
    assert_eq!(r.app.audit_count(), audit1);
    assert!(r.ruling(id).decided_at.is_none());
    let res = r
        .post(
            &r.token,
            &decide,
            json!({ "decision": "Split between seats 1 and 2.", "rule": "BSOP 21",
                    "release": [{ "player_id": p1, "amount": 1500 }, { "player_id": p2, "amount": 1500 }] }),
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.text());
    let out = res.json();
    assert_eq!(out["chips"]["state"], "recorded");
    assert_eq!(out["chips"]["lines"].as_array().unwrap().len(), 2);
    // Recorded, not moved: the stacks and the pot wait for a second person.
    assert_eq!((r.stack(s[0]), r.stack(s[1])), (10000, 10000));
    // The same person again is refused; nothing changes.
    let confirm = format!("/api/v1/rulings/{id}/chips/confirm");
    let audit2 = r.app.audit_count();
    let res = r.post(&r.token, &confirm, json!({})).await;
    assert_eq!(res.status, 409, "{}", res.text());
    assert_eq!(res.json()["error"]["reason"], "ruling_same_staff");
    assert_eq!(r.app.audit_count(), audit2);
    assert_eq!((r.stack(s[0]), r.stack(s[1])), (10000, 10000));
    let pot_state: String = r
        .app
        .with_conn(|c| held_pots::table.select(held_pots::state).first(c).unwrap());
    assert_eq!(pot_state, "held");
    // A second floor manager confirms: the pot is released, the stacks on record change.
    let second = r.app.staff_token("floor2", "floor").await;
    let res = r.post(&second, &confirm, json!({})).await;
    assert_eq!(res.status, 200, "{}", res.text());
    let out = res.json();
    assert_eq!(out["chips"]["state"], "confirmed");
    assert_eq!(out["pot"]["state"], "released");
    assert!(out["chips"]["confirmed_by"].as_i64().is_some());
    assert_ne!(out["chips"]["confirmed_by"], out["chips"]["recorded_by"]);
    assert_eq!((r.stack(s[0]), r.stack(s[1])), (11500, 11500));
    assert_eq!(
        r.last_audit(),
        ("ruling.move_confirm".into(), "ruling".into())
    );
    // The log's file says who got what, in the room's language.
    let csv = r.app.get("/api/v1/rulings.csv", &r.token).await.text();
    assert!(
        csv.contains("Movidas: 15,00 € do pote retido para FP0; 15,00 € do pote retido para FP1"),
        "{csv}"
    );
    // Confirmed once only.
    let res = r.post(&second, &confirm, json!({})).await;
    assert_eq!(res.status, 409);
    assert_eq!((r.stack(s[0]), r.stack(s[1])), (11500, 11500));
}

#[actix_web::test]
async fn bsop_20_a_reconstruction_moves_the_stacks_and_is_refused_when_late() {
    let (r, s) = room(4, 4).await;
    let first = r.new_hand().await;
    let (p1, p3) = (r.players[0], r.players[2]);
    let id = r.ask(1, json!({ "seats": [1, 3] })).await;
    let decide = format!("/api/v1/rulings/{id}/decision");
    // More than the stack on record: 422 naming the field; nothing changed.
    let audit0 = r.app.audit_count();
    let res = r
        .post(
            &r.token,
            &decide,
            json!({ "decision": "Pot to seat 3.", "reconstruction": { "to_player_id": p3, "from": [{ "player_id": p1, "amount": 10001 }] } }),
        )
        .await;
    assert_eq!(res.status, 422, "{}", res.text());
    assert_eq!(res.json()["error"]["fields"][0]["field"], "reconstruction");
    assert_eq!(r.app.audit_count(), audit0);
    let res = r
        .post(
            &r.token,
            &decide,
            json!({ "decision": "The pot was pushed to seat 1 by mistake: €25.00 back to seat 3.",
                    "reconstruction": { "to_player_id": p3, "from": [{ "player_id": p1, "amount": 2500 }] } }),
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.text());
    assert_eq!(res.json()["chips"]["lines"][0]["kind"], "reconstruction");
    assert_eq!(r.stack(s[0]), 10000, "not before a second person confirms");
    // The dealer at the table confirms it on the tablet (the second person).
    let view = r.tablet_get("/tablet/view").await.text();
    assert!(
        view.contains(&format!("id=\"ruling-confirm-{id}\"")),
        "{view}"
    );
    let res = r
        .tap(&r.dealer, &format!("/tablet/rulings/{id}/confirm"), &[])
        .await;
    assert_eq!(res.status, 303, "{}", res.text());
    assert_eq!((r.stack(s[0]), r.stack(s[2])), (7500, 12500));
    let state: String = r.app.with_conn(|c| {
        ruling_moves::table
            .select(ruling_moves::state)
            .first(c)
            .unwrap()
    });
    assert_eq!(state, "confirmed");
    // A ruling asked late (the next hand started) reconstructs nothing: 409, nothing changed.
    r.new_hand().await;
    let late = r
        .ask(1, json!({ "hand_number": first, "seats": [1, 3] }))
        .await;
    let audit1 = r.app.audit_count();
    let res = r
        .post(
            &r.token,
            &format!("/api/v1/rulings/{late}/decision"),
            json!({ "decision": "Give it back.", "reconstruction": { "to_player_id": p3, "from": [{ "player_id": p1, "amount": 100 }] } }),
        )
        .await;
    assert_eq!(res.status, 409, "{}", res.text());
    assert_eq!(res.json()["error"]["reason"], "ruling_reconstruction_late");
    assert!(res.json()["error"]["message"]
        .as_str()
        .unwrap()
        .contains("BSOP 20"));
    assert_eq!(r.app.audit_count(), audit1);
    assert!(r.ruling(late).decided_at.is_none());
    assert_eq!((r.stack(s[0]), r.stack(s[2])), (7500, 12500));
    assert_eq!(r.app.count("ruling_moves"), 1);
}

#[actix_web::test]
async fn the_floor_opens_a_ruling_from_the_board_and_a_dealer_asks_only_at_their_table() {
    let (r, _) = room(2, 2).await;
    // The table's panel links the request form; the floor opens one.
    let panel = r.app.page("/floor/panel?table=1", &r.floor).await.text();
    assert!(panel.contains("id=\"open-ruling-1\""), "{panel}");
    let form = r.app.page("/floor/rulings/new?table=1", &r.floor).await;
    assert_eq!(form.status, 200, "{}", form.text());
    let res = r
        .app
        .post_form(
            "/floor/tables/1/rulings",
            &r.floor,
            &[("seat", "2"), ("note", "angle shot?")],
        )
        .await;
    assert_eq!(res.status, 303, "{}", res.text());
    let id: i64 = r
        .app
        .with_conn(|c| rulings::table.select(rulings::id).first(c).unwrap());
    assert_eq!(
        res.header("location").as_deref(),
        Some(format!("/floor/rulings/{id}").as_str())
    );
    // A seat beyond the table: the form again with the reason, nothing saved.
    let res = r
        .app
        .post_form("/floor/tables/1/rulings", &r.floor, &[("seat", "12")])
        .await;
    assert_eq!(res.status, 422, "{}", res.text());
    assert!(res.text().contains("id=\"ruling-problem\""));
    assert_eq!(r.app.count("rulings"), 1);
    // A dealer asks at their own table only, and never decides.
    let dealer = r.app.api_login("dealer1", STAFF_PW).await;
    r.app.assign_dealer(&dealer, 1).await;
    let res = r.post(&dealer, "/api/v1/tables/2/rulings", json!({})).await;
    assert_eq!(res.status, 403, "{}", res.text());
    let res = r
        .post(&dealer, "/api/v1/tables/1/rulings", json!({ "seats": [1] }))
        .await;
    assert_eq!(res.status, 201, "{}", res.text());
    let did = res.json()["id"].as_i64().unwrap();
    let res = r
        .post(
            &dealer,
            &format!("/api/v1/rulings/{did}/decision"),
            json!({ "decision": "mine" }),
        )
        .await;
    assert_eq!(res.status, 403);
    assert!(r.ruling(did).decided_at.is_none());
    // The tablet no longer sends a "decision" request: it asks for a ruling.
    let res = r
        .tap(&r.dealer, "/tablet/service", &[("kind", "decision")])
        .await;
    assert_eq!(res.status, 422, "{}", res.text());
    assert_eq!(r.app.count("service_requests"), 0);
    let view = r.tablet_get("/tablet/view").await.text();
    assert!(view.contains("id=\"ask-ruling\""), "{view}");
    assert!(!view.contains("id=\"service-decision\""));
}

/// The ids the log answers for a query string.
async fn ids(r: &Room, q: &str) -> Vec<i64> {
    let res = r.app.get(&format!("/api/v1/rulings{q}"), &r.token).await;
    assert_eq!(res.status, 200, "{q}: {}", res.text());
    res.json()
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["id"].as_i64().unwrap())
        .collect()
}

#[actix_web::test]
async fn the_incident_log_filters_by_day_table_player_staff_and_state_and_exports_csv() {
    let (r, _) = room(4, 2).await;
    let (p1, p2) = (r.players[0], r.players[1]);
    let a = r.ask(1, json!({ "seats": [1], "note": "first" })).await;
    let b = r
        .ask(1, json!({ "seats": [2], "note": "second, \"quoted\"" }))
        .await;
    let c = r.ask(2, json!({ "note": "at table two" })).await;
    // Decided by a second floor manager.
    let floor2 = r.app.staff_token("floor2", "floor").await;
    let res = r
        .post(
            &floor2,
            &format!("/api/v1/rulings/{b}/decision"),
            json!({ "decision": "Chop." }),
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.text());
    assert_eq!(ids(&r, "").await, vec![c, b, a], "newest first");
    assert_eq!(ids(&r, "?table=1").await, vec![b, a]);
    assert_eq!(ids(&r, "?table=2").await, vec![c]);
    assert_eq!(ids(&r, &format!("?player={p1}")).await, vec![a]);
    assert_eq!(ids(&r, &format!("?player={p2}")).await, vec![b]);
    let floor2_id = r.app.get("/api/v1/me", &floor2).await.json()["id"]
        .as_i64()
        .unwrap();
    assert_eq!(ids(&r, &format!("?staff={floor2_id}")).await, vec![b]);
    assert_eq!(ids(&r, "?state=open").await, vec![c, a]);
    assert_eq!(ids(&r, "?state=decided").await, vec![b]);
    // The gaming day in the room's zone: today's holds them, another day none.
    let today = {
        let now = r.app.state.clock.now();
        let tz: chrono_tz::Tz = "Europe/Lisbon".parse().unwrap();
        cardroom::services::reports::gaming_date(
            now,
            tz,
            chrono::NaiveTime::from_hms_opt(6, 0, 0).unwrap(),
        )
    };
    assert_eq!(ids(&r, &format!("?day={today}")).await.len(), 3);
    assert_eq!(ids(&r, "?day=2020-01-01").await.len(), 0);
    // The API is not a form: an empty value is refused; the page's form means "any" by it.
    let res = r.app.get("/api/v1/rulings?day=&table=", &r.token).await;
    assert_eq!(res.status, 422, "{}", res.text());
    let page = r
        .app
        .page("/floor/rulings?day=&table=&state=", &r.floor)
        .await;
    assert_eq!(page.status, 200);
    assert!(page.text().contains(&format!("id=\"ruling-row-{c}\"")));
    // Malformed filters: 422 naming each field.
    let res = r
        .app
        .get(
            "/api/v1/rulings?day=yesterday&state=closed&table=x",
            &r.token,
        )
        .await;
    assert_eq!(res.status, 422, "{}", res.text());
    let fields: Vec<String> = res.json()["error"]["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["field"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(fields, vec!["day", "table", "state"]);
    // One ruling.
    let one = r.app.get(&format!("/api/v1/rulings/{b}"), &r.token).await;
    assert_eq!(one.status, 200);
    assert_eq!(one.json()["ruling"]["decision"], "Chop.");
    assert_eq!(r.app.get("/api/v1/rulings/999", &r.token).await.status, 404);
    // The CSV, in the room's language (Portuguese here), with the same filters.
    let res = r.app.get("/api/v1/rulings.csv?table=1", &r.token).await;
    assert_eq!(res.status, 200, "{}", res.text());
    assert!(res.header("content-type").unwrap().starts_with("text/csv"));
    let csv = res.text();
    let mut lines = csv.lines();
    let head = lines.next().unwrap();
    // A Portuguese spreadsheet's conventions: UTF-8 with its byte order mark, `;` between
    // cells (and a decimal comma in amounts).
    assert!(
        head.starts_with("\u{feff}N.º da decisão;Pedida em;Mesa"),
        "{head}"
    );
    let body: Vec<&str> = lines.collect();
    assert_eq!(body.len(), 2, "{csv}");
    assert!(body[0].starts_with(&format!("{b};")), "{csv}");
    assert!(
        body[0].contains("Chop.") && body[0].contains("Decidida"),
        "{csv}"
    );
    assert!(
        csv.contains("\"second, \"\"quoted\"\"\""),
        "quoted as CSV: {csv}"
    );
    // The floor's page and its CSV link; the log is linked from the board and the reports.
    let page = r.app.page("/floor/rulings?state=open", &r.floor).await;
    assert_eq!(page.status, 200);
    let text = page.text();
    assert!(text.contains(&format!("id=\"ruling-row-{a}\"")));
    assert!(!text.contains(&format!("id=\"ruling-row-{b}\"")));
    assert!(text.contains("/floor/rulings.csv?state=open"));
    let file = r.app.page("/floor/rulings.csv?state=open", &r.floor).await;
    assert_eq!(file.status, 200);
    assert_eq!(file.text().lines().count(), 3);
    // The page's file follows the page's language: English here, `,` between cells.
    assert!(
        file.text().starts_with("\u{feff}Ruling no.,Asked at,Table"),
        "{}",
        file.text()
    );
    // The API's file in the language asked for.
    let res = r
        .app
        .call(
            TestRequest::get()
                .uri("/api/v1/rulings.csv?table=1")
                .insert_header(("Authorization", format!("Bearer {}", r.token)))
                .insert_header(("accept-language", "en"))
                .to_request(),
        )
        .await;
    assert!(
        res.text().starts_with("\u{feff}Ruling no.,Asked at,Table"),
        "{}",
        res.text()
    );
    let bad = r.app.page("/floor/rulings?limit=0", &r.floor).await;
    assert_eq!(bad.status, 422);
    assert!(bad.text().contains("id=\"rulings-problem\""));
    assert!(r
        .app
        .page("/floor", &r.floor)
        .await
        .text()
        .contains("id=\"rulings-link\""));
    assert!(r
        .app
        .page("/floor/reports", &r.floor)
        .await
        .text()
        .contains("id=\"report-rulings-link\""));
    // A dealer does not read the log.
    let dealer = r.app.api_login("dealer1", STAFF_PW).await;
    assert_eq!(r.app.get("/api/v1/rulings", &dealer).await.status, 403);
}

#[actix_web::test]
async fn a_players_record_shows_the_rulings_that_involved_them_and_bsop_22_beside_the_answer() {
    let (r, _) = room(3, 3).await;
    let (p1, p3) = (r.players[0], r.players[2]);
    let a = r.ask(1, json!({ "seats": [1], "note": "slow roll" })).await;
    r.post(
        &r.token,
        &format!("/api/v1/rulings/{a}/decision"),
        json!({ "decision": "Warning for slow rolling." }),
    )
    .await;
    let b = r.ask(1, json!({ "seats": [1, 2], "note": "again?" })).await;
    // The player's record lists both; another player's none of the first.
    let page = r.app.page(&format!("/players/{p1}"), &r.floor).await.text();
    assert!(page.contains(&format!("id=\"ruling-row-{a}\"")), "{page}");
    assert!(page.contains(&format!("id=\"ruling-row-{b}\"")));
    let other = r.app.page(&format!("/players/{p3}"), &r.floor).await.text();
    assert!(!other.contains("ruling-row-"), "{other}");
    assert!(other.contains("id=\"rulings-none\""));
    // BSOP 22: the answer form of the second shows the first beside it.
    let answer = r
        .app
        .page(&format!("/floor/rulings/{b}"), &r.floor)
        .await
        .text();
    assert!(answer.contains(&format!("id=\"earlier-{a}\"")), "{answer}");
    assert!(answer.contains("Warning for slow rolling."));
    let api = r
        .app
        .get(&format!("/api/v1/rulings/{b}"), &r.token)
        .await
        .json();
    assert_eq!(api["earlier"][0]["id"], a);
}

#[actix_web::test]
async fn the_rulings_page_holds_refuses_corrects_and_confirms_keeping_what_was_typed() {
    let (r, s) = room(4, 4).await;
    r.new_hand().await;
    let (p1, p2, p3) = (r.players[0], r.players[1], r.players[2]);
    let id = r.ask(1, json!({ "seats": [1, 2] })).await;
    let page = format!("/floor/rulings/{id}");
    // A refused pot: the page again with the reason, what was typed kept, nothing saved.
    let audit0 = r.app.audit_count();
    let res = r
        .app
        .post_form(
            &format!("{page}/hold"),
            &r.floor,
            &[("amount", "500"), ("storage", "cage 3")],
        )
        .await;
    assert_eq!(res.status, 422, "{}", res.text());
    let text = res.text();
    assert!(text.contains("id=\"ruling-problem\""), "{text}");
    assert!(text.contains("BSOP 21"), "{text}");
    assert!(
        text.contains("value=\"cage 3\""),
        "the storage typed is kept: {text}"
    );
    assert_eq!(r.app.count("held_pots"), 0);
    assert_eq!(r.app.audit_count(), audit0);
    let res = r
        .app
        .post_form(
            &format!("{page}/hold"),
            &r.floor,
            &[("amount", "30"), ("storage", "cage 3")],
        )
        .await;
    assert_eq!(res.status, 303, "{}", res.text());
    // The decision releases it to seat 1's player; the recorder refuses it on second thought.
    let res = r
        .app
        .post_form(
            &format!("{page}/decide"),
            &r.floor,
            &[
                ("decision", "Pot to seat 1."),
                (&format!("release_{p1}"), "30"),
            ],
        )
        .await;
    assert_eq!(res.status, 303, "{}", res.text());
    let text = r.app.page(&page, &r.floor).await.text();
    assert!(
        !text.contains("id=\"chips-confirm\""),
        "the recorder is not offered to confirm"
    );
    assert!(text.contains("id=\"chips-refuse\""));
    let res = r
        .app
        .post_form(&format!("{page}/confirm"), &r.floor, &[])
        .await;
    assert_eq!(res.status, 409, "the same person: {}", res.text());
    assert!(res.text().contains("id=\"ruling-problem\""));
    let res = r
        .app
        .post_form(&format!("{page}/refuse"), &r.floor, &[])
        .await;
    assert_eq!(res.status, 303, "{}", res.text());
    let (move_state, pot_state): (String, String) = r.app.with_conn(|c| {
        (
            ruling_moves::table
                .select(ruling_moves::state)
                .first(c)
                .unwrap(),
            held_pots::table.select(held_pots::state).first(c).unwrap(),
        )
    });
    assert_eq!(
        (move_state.as_str(), pot_state.as_str()),
        ("cancelled", "held")
    );
    assert_eq!(r.stack(s[0]), 10000);
    assert_eq!(
        r.last_audit(),
        ("ruling.move_cancel".into(), "ruling".into())
    );
    // The correction releases the pot held to seat 2's player instead.
    let res = r
        .app
        .post_form(
            &format!("{page}/correct"),
            &r.floor,
            &[
                ("decision", "Pot to seat 2: seat 1 had folded."),
                (&format!("release_{p2}"), "30"),
            ],
        )
        .await;
    assert_eq!(res.status, 303, "{}", res.text());
    let to = res.header("location").unwrap();
    let nid: i64 = to.trim_start_matches("/floor/rulings/").parse().unwrap();
    assert_eq!(r.ruling(nid).corrects, Some(id));
    // A second floor manager confirms it on the page: seat 2's stack on record grows.
    r.app.create_staff("floor2", "floor");
    let second = r.app.web_login("floor2", STAFF_PW).await;
    let res = r
        .app
        .post_form(&format!("/floor/rulings/{nid}/confirm"), &second, &[])
        .await;
    assert_eq!(res.status, 303, "{}", res.text());
    assert_eq!((r.stack(s[0]), r.stack(s[1])), (10000, 13000));
    let pot_state: String = r
        .app
        .with_conn(|c| held_pots::table.select(held_pots::state).first(c).unwrap());
    assert_eq!(pot_state, "released");
    let text = r
        .app
        .page(&format!("/floor/rulings/{nid}"), &r.floor)
        .await
        .text();
    assert!(text.contains("id=\"chips-confirmed-by\""), "{text}");
    // A reconstruction from the page: the right player and the amount taken.
    let id2 = r.ask(1, json!({ "seats": [3] })).await;
    let res = r
        .app
        .post_form(
            &format!("/floor/rulings/{id2}/decide"),
            &r.floor,
            &[
                ("decision", "Seat 3's call was taken by seat 1."),
                ("to", &p3.to_string()),
                (&format!("from_{p1}"), "10"),
            ],
        )
        .await;
    assert_eq!(res.status, 303, "{}", res.text());
    let out = r
        .app
        .get(&format!("/api/v1/rulings/{id2}"), &r.token)
        .await
        .json();
    let line = &out["ruling"]["chips"]["lines"][0];
    assert_eq!(
        (
            line["from_player_id"].as_i64(),
            line["to_player_id"].as_i64(),
            line["amount"].as_i64()
        ),
        (Some(p1), Some(p3), Some(1000))
    );
    // An amount without the right player: the page again naming BSOP 20.
    let id3 = r.ask(1, json!({})).await;
    let res = r
        .app
        .post_form(
            &format!("/floor/rulings/{id3}/decide"),
            &r.floor,
            &[("decision", "x"), (&format!("from_{p1}"), "10")],
        )
        .await;
    assert_eq!(res.status, 422, "{}", res.text());
    assert!(res.text().contains("BSOP 20"));
    assert!(r.ruling(id3).decided_at.is_none());
}
