//! A running table's limits (PT-2007 22, BSOP 34): approved by the floor, announced on the
//! tablet, in force only from the first hand started once announced and due; cancelled by
//! the floor; a game's edit as pending changes; transfers only between tables of the same
//! limits; the reports' hours per limit; bad input refused with nothing saved.

use crate::pages::eligible_players;
use crate::support::{TestApp, WebSession, STAFF_PW};
use crate::tablets::{paired_room, Tablet};
use actix_web::test::TestRequest;
use cardroom::db::schema::{card_tables, limit_changes, seatings};
use cardroom::domain::ids::PlayerId;
use diesel::prelude::*;
use serde_json::{json, Value};

struct Room {
    app: TestApp,
    token: String,
    floor: WebSession,
    tablet: Tablet,
    dealer: WebSession,
    players: Vec<i64>,
}

/// Two open tables of NL 1/2 (buy-in €40–€200), a tablet at table 1 with dealer1 signed in,
/// `n` eligible players; the test clock.
async fn room(n: usize) -> Room {
    let app = TestApp::with_clock(true).await;
    let (token, floor, tablet) = paired_room(&app).await;
    // Players join these tables under way at the limits' range: the room keeps PT-2007 28's
    // average to session tables (its narrow reading).
    app.set_profile(&token, |p| p.join_at_average_session_only = true)
        .await;
    app.create_staff("dealer1", "dealer");
    let dealer = app.web_login("dealer1", STAFF_PW).await;
    let players = eligible_players(&app, n);
    Room {
        app,
        token,
        floor,
        tablet,
        dealer,
        players,
    }
}

impl Room {
    /// A POST from the tablet, signed in as the dealer.
    async fn tap(&self, uri: &str, fields: &[(&str, &str)]) -> crate::support::Resp {
        let mut form: Vec<(&str, &str)> = vec![("csrf", self.dealer.csrf.as_str())];
        form.extend_from_slice(fields);
        self.app
            .call(
                TestRequest::post()
                    .uri(uri)
                    .cookie(self.tablet.c())
                    .cookie(self.dealer.c())
                    .set_form(form)
                    .to_request(),
            )
            .await
    }

    async fn view(&self, lang: &str) -> String {
        self.app
            .call(
                TestRequest::get()
                    .uri("/tablet/view")
                    .insert_header(("accept-language", lang))
                    .cookie(self.tablet.c())
                    .cookie(self.dealer.c())
                    .to_request(),
            )
            .await
            .text()
    }

    async fn join(&self, player: i64) {
        let r = self
            .app
            .send_json(
                "POST",
                "/api/v1/games/1/waitlist",
                &self.token,
                json!({ "player_id": player }),
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.text());
    }

    async fn call(&self, table: i64, seat: i32) -> i64 {
        let r = self
            .app
            .send_json(
                "POST",
                &format!("/api/v1/tables/{table}/seats/{seat}/call-next"),
                &self.token,
                json!({}),
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.text());
        r.json()["id"].as_i64().unwrap()
    }

    /// Players 0..n seated at table 1 with €100 each (from the tablet).
    async fn seat_players(&self, n: usize) {
        for (i, p) in self.players.iter().take(n).enumerate() {
            self.join(*p).await;
            let call = self.call(1, i as i32 + 1).await;
            let r = self
                .tap(&format!("/tablet/calls/{call}/seat"), &[("amount", "100")])
                .await;
            assert_eq!(r.status, 303, "{}", r.text());
        }
    }

    /// `player` seated at table 2 (seat 1) with €100, through the API.
    async fn seat_at_2(&self, player: i64) {
        self.join(player).await;
        let call = self.call(2, 1).await;
        let res = self
            .app
            .send_json(
                "POST",
                &format!("/api/v1/seat-calls/{call}/seat-with-buyin"),
                &self.token,
                json!({ "amount": 10000 }),
            )
            .await;
        assert_eq!(res.status, 201, "{}", res.text());
    }

    /// The dealer's "new hand" tap.
    async fn hand(&self) {
        let r = self.tap("/tablet/hand", &[]).await;
        assert_eq!(r.status, 303, "{}", r.text());
    }

    async fn limits(&self, table: i64) -> Value {
        let r = self
            .app
            .get(&format!("/api/v1/tables/{table}/limits"), &self.token)
            .await;
        assert_eq!(r.status, 200, "{}", r.text());
        r.json()
    }

    async fn propose(&self, table: i64, body: Value) -> crate::support::Resp {
        self.app
            .send_json(
                "POST",
                &format!("/api/v1/tables/{table}/limit-changes"),
                &self.token,
                body,
            )
            .await
    }

    async fn advance(&self, minutes: i64) {
        let r = self
            .app
            .send_json(
                "POST",
                "/api/v1/test/clock/advance",
                &self.token,
                json!({ "minutes": minutes }),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.text());
    }

    /// The table's own limits as stored (blinds, buy-ins).
    fn stored(&self, table: i64) -> (Option<i64>, Option<i64>, Option<i64>, Option<i64>) {
        self.app.with_conn(|c| {
            card_tables::table
                .find(table)
                .select((
                    card_tables::small_blind,
                    card_tables::big_blind,
                    card_tables::buy_in_min,
                    card_tables::buy_in_max,
                ))
                .first(c)
                .unwrap()
        })
    }

    fn actions(&self, action: &str) -> i64 {
        use cardroom::db::schema::audit_log;
        self.app.with_conn(|c| {
            audit_log::table
                .filter(audit_log::action.eq(action))
                .count()
                .get_result(c)
                .unwrap()
        })
    }

    fn events(&self, kind: &str) -> i64 {
        use cardroom::db::schema::events;
        self.app.with_conn(|c| {
            events::table
                .filter(events::kind.eq(kind))
                .count()
                .get_result(c)
                .unwrap()
        })
    }

    /// One pass of the scheduler, as the server runs it.
    fn tick(&self) -> usize {
        cardroom::app::run_timers(&self.app.state).expect("timers")
    }
}

/// NL 2/4, buy-in €80–€400.
fn two_four() -> Value {
    json!({ "small_blind": 200, "big_blind": 400, "buy_in_min": 8000, "buy_in_max": 40000 })
}

#[actix_web::test]
async fn pt2007_22_a_change_waits_for_the_announcement_and_the_next_hand() {
    let r = room(5).await;
    r.seat_players(4).await;
    r.hand().await; // hand 1 is being played
    assert_eq!(r.stored(1), (Some(100), Some(200), Some(4000), Some(20000)));
    // The floor approves NL 2/4 from the next hand (BSOP 34): pending, audited, pushed.
    let (audit0, events0) = (r.app.audit_count(), r.events("table.limits"));
    let res = r.propose(1, two_four()).await;
    assert_eq!(res.status, 201, "{}", res.text());
    let change = res.json();
    let id = change["id"].as_i64().unwrap();
    assert_eq!(change["state"], "pending");
    assert_eq!(change["kind"], "floor");
    assert_eq!(change["from"]["big_blind"], 200);
    assert_eq!(change["to"]["big_blind"], 400);
    assert_eq!(change["effective_at"], Value::Null);
    assert_eq!(change["approved_by"], "Administrator");
    assert_eq!(r.app.audit_count(), audit0 + 1);
    assert_eq!(r.actions("table.limits_change"), 1);
    assert_eq!(r.events("table.limits"), events0 + 1);
    // The hand being played keeps its limits: a player called now buys in at €40–€200.
    r.join(r.players[4]).await;
    let call = r.call(1, 9).await;
    let view = r.view("en").await;
    assert!(view.contains("id=\"limit-announced\""), "{view}");
    assert!(view.contains("New limits approved by the floor"), "{view}");
    assert!(
        view.contains("€2.00 / €4.00 · buy-in €80.00 – €400.00"),
        "{view}"
    );
    assert!(view.contains("€40.00 – €200.00"), "{view}");
    let side = r.app.get("/api/v1/tables/1/side", &r.token).await.json();
    assert_eq!(side["limits"]["big_blind"], 200);
    assert_eq!(side["limit_change"]["id"], id);
    assert_eq!(side["calls"][0]["buyin"]["min"], 4000);
    // Not announced: the next hand does not bring it.
    r.hand().await;
    assert_eq!(r.stored(1), (Some(100), Some(200), Some(4000), Some(20000)));
    assert_eq!(r.limits(1).await["pending"]["state"], "pending");
    // The dealer confirms the announcement (audited); the hand in play is still at 1/2.
    let res = r
        .tap(&format!("/tablet/limit-changes/{id}/announced"), &[])
        .await;
    assert_eq!(res.status, 303, "{}", res.text());
    assert_eq!(r.actions("table.limits_announced"), 1);
    let l = r.limits(1).await;
    assert_eq!(l["pending"]["announced_by"], "dealer1");
    assert_eq!(l["limits"]["big_blind"], 200);
    let view = r.view("en").await;
    assert!(!view.contains("id=\"limit-announced\""), "{view}");
    assert!(
        view.contains("they apply when the next hand starts"),
        "{view}"
    );
    assert!(view.contains("€40.00 – €200.00"), "{view}");
    // Confirming again changes nothing.
    let audit1 = r.app.audit_count();
    let again = r
        .app
        .send_json(
            "POST",
            &format!("/api/v1/limit-changes/{id}/announced"),
            &r.token,
            json!({}),
        )
        .await;
    assert_eq!(again.status, 200, "{}", again.text());
    assert_eq!(r.app.audit_count(), audit1);
    // The next hand (hand 3) is the first at NL 2/4.
    r.hand().await;
    assert_eq!(r.stored(1), (Some(200), Some(400), Some(8000), Some(40000)));
    let l = r.limits(1).await;
    assert_eq!(l["limits"]["big_blind"], 400);
    assert_eq!(l["pending"], Value::Null);
    assert_eq!(l["history"][0]["state"], "applied");
    assert_eq!(l["history"][0]["applied_hand"], 3);
    assert_eq!(l["history"][0]["applied_by"], "dealer1");
    assert_eq!(l["history"][1]["kind"], "opening");
    assert_eq!(r.actions("table.limits_applied"), 1);
    // The called player now buys in at €80–€400: €50 is refused, nothing changes.
    let view = r.view("en").await;
    assert!(view.contains("€80.00 – €400.00"), "{view}");
    let audit2 = r.app.audit_count();
    let res = r
        .tap(&format!("/tablet/calls/{call}/seat"), &[("amount", "50")])
        .await;
    assert_eq!(res.status, 422, "{}", res.text());
    assert!(res.text().contains("€80.00"), "{}", res.text());
    assert_eq!(r.app.audit_count(), audit2);
    let res = r
        .tap(&format!("/tablet/calls/{call}/seat"), &[("amount", "300")])
        .await;
    assert_eq!(res.status, 303, "{}", res.text());
    // A rebuy is bounded by the new maximum (PT-2007 79).
    let s9: i64 = r.app.with_conn(|c| {
        seatings::table
            .filter(seatings::table_id.eq(1))
            .filter(seatings::seat_no.eq(9))
            .filter(seatings::left_at.is_null())
            .select(seatings::id)
            .first(c)
            .unwrap()
    });
    let rebuy = r
        .app
        .send_json(
            "POST",
            &format!("/api/v1/seatings/{s9}/chips"),
            &r.token,
            json!({ "stack": 30000, "amount": 15000 }),
        )
        .await;
    assert_eq!(rebuy.status, 422, "{}", rebuy.text());
    // The tables API shows the table's limits (and table 2 still its game's).
    let tables = r.app.get("/api/v1/tables", &r.token).await.json();
    assert_eq!(tables[0]["limits"]["big_blind"], 400);
    assert_eq!(tables[1]["limits"]["big_blind"], 200);
}

#[actix_web::test]
async fn pt2007_22_a_stated_time_change_applies_at_the_first_hand_from_that_time() {
    let r = room(4).await;
    r.seat_players(4).await;
    r.hand().await;
    // A time that is not one is refused on its field; an empty one says "the next hand".
    let res = r
        .propose(
            1,
            json!({ "small_blind": 200, "big_blind": 400, "buy_in_min": 8000, "buy_in_max": 40000,
                "effective_at": "tonight" }),
        )
        .await;
    assert_eq!(res.status, 422, "{}", res.text());
    assert_eq!(res.json()["error"]["fields"][0]["field"], "effective_at");
    let res = r
        .propose(
            1,
            json!({ "small_blind": 200, "big_blind": 400, "buy_in_min": 8000, "buy_in_max": 40000,
                "effective_at": "" }),
        )
        .await;
    assert_eq!(res.status, 201, "{}", res.text());
    assert!(res.json()["effective_at"].is_null());
    let first = res.json()["id"].as_i64().unwrap();
    let res = r
        .app
        .send_json(
            "POST",
            &format!("/api/v1/limit-changes/{first}/cancel"),
            &r.token,
            json!({}),
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.text());
    let at = r.app.state.clock.now() + chrono::Duration::minutes(30);
    let res = r
        .propose(
            1,
            json!({ "small_blind": 200, "big_blind": 400, "buy_in_min": 8000, "buy_in_max": 40000,
                "effective_at": at.to_rfc3339() }),
        )
        .await;
    assert_eq!(res.status, 201, "{}", res.text());
    let id = res.json()["id"].as_i64().unwrap();
    // The tablet says when.
    let hm = at
        .with_timezone(&chrono_tz::Europe::Lisbon)
        .format("%H:%M")
        .to_string();
    let view = r.view("pt").await;
    assert!(view.contains(&format!("a partir das {hm}")), "{hm}: {view}");
    let res = r
        .tap(&format!("/tablet/limit-changes/{id}/announced"), &[])
        .await;
    assert_eq!(res.status, 303);
    // Announced but not due: the hands before the time keep the limits.
    r.advance(20).await;
    r.hand().await;
    assert_eq!(r.stored(1).1, Some(200));
    // The scheduler leaves a table that records hands to its dealer's tap.
    r.advance(15).await;
    assert_eq!(r.tick(), 0);
    assert_eq!(r.stored(1).1, Some(200));
    // The first hand after the time brings it.
    r.hand().await;
    assert_eq!(r.stored(1).1, Some(400));
    assert_eq!(r.limits(1).await["history"][0]["applied_hand"], 3);
}

#[actix_web::test]
async fn at_a_table_that_records_no_hands_the_scheduler_applies_a_stated_time_once_announced() {
    let r = room(1).await;
    // Table 2 is open with a player seated; its dealer records no hands.
    r.seat_at_2(r.players[0]).await;
    let at = r.app.state.clock.now() + chrono::Duration::minutes(10);
    let res = r
        .propose(
            2,
            json!({ "small_blind": 200, "big_blind": 400, "buy_in_min": 8000, "buy_in_max": 40000,
                "effective_at": at.to_rfc3339() }),
        )
        .await;
    assert_eq!(res.status, 201, "{}", res.text());
    let id = res.json()["id"].as_i64().unwrap();
    // Due but not announced: nothing.
    r.advance(11).await;
    assert_eq!(r.tick(), 0);
    assert_eq!(r.stored(2).1, Some(200));
    // Announced (from the API, by the table's dealer): applied at once, as it is due; no hand
    // number.
    let dealer = r.app.api_login("dealer1", STAFF_PW).await;
    r.app.assign_dealer(&dealer, 2).await;
    let res = r
        .app
        .send_json(
            "POST",
            &format!("/api/v1/limit-changes/{id}/announced"),
            &dealer,
            json!({}),
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.text());
    assert_eq!(res.json()["state"], "applied");
    assert_eq!(res.json()["applied_hand"], Value::Null);
    assert_eq!(r.stored(2).1, Some(400));
    // Another change, announced before its time: the scheduler applies it at the time.
    let at = r.app.state.clock.now() + chrono::Duration::minutes(10);
    let res = r
        .propose(
            2,
            json!({ "small_blind": 500, "big_blind": 1000, "buy_in_min": 20000, "buy_in_max": 100000,
                "effective_at": at.to_rfc3339() }),
        )
        .await;
    assert_eq!(res.status, 201, "{}", res.text());
    let id = res.json()["id"].as_i64().unwrap();
    let res = r
        .app
        .send_json(
            "POST",
            &format!("/api/v1/limit-changes/{id}/announced"),
            &dealer,
            json!({}),
        )
        .await;
    assert_eq!(res.json()["state"], "pending");
    assert_eq!(r.tick(), 0);
    r.advance(10).await;
    assert_eq!(r.tick(), 1);
    assert_eq!(
        r.stored(2),
        (Some(500), Some(1000), Some(20000), Some(100000))
    );
    let l = r.limits(2).await;
    assert_eq!(l["history"][0]["state"], "applied");
    assert_eq!(l["history"][0]["applied_by"], Value::Null, "the system");
    assert_eq!(r.actions("table.limits_applied"), 2);
}

#[actix_web::test]
async fn the_floor_cancels_a_pending_change_and_the_table_keeps_its_limits() {
    let r = room(4).await;
    r.seat_players(4).await;
    r.hand().await;
    let id = r.propose(1, two_four()).await.json()["id"]
        .as_i64()
        .unwrap();
    // The board shows it on the tile and in the table's panel.
    let board = r.app.page("/floor?table=1", &r.floor).await.text();
    assert!(board.contains("id=\"panel-limit-change\""), "{board}");
    assert!(board.contains("New limits"), "{board}");
    // A dealer may not cancel it.
    let dealer = r.app.api_login("dealer1", STAFF_PW).await;
    let audit0 = r.app.audit_count();
    let res = r
        .app
        .send_json(
            "POST",
            &format!("/api/v1/limit-changes/{id}/cancel"),
            &dealer,
            json!({}),
        )
        .await;
    assert_eq!(res.status, 403, "{}", res.text());
    assert_eq!(r.app.audit_count(), audit0);
    // The floor cancels it from the panel.
    let res = r
        .app
        .post_form(
            &format!("/floor/limit-changes/{id}/cancel"),
            &r.floor,
            &[("reason", "players asked to stay")],
        )
        .await;
    assert_eq!(res.status, 303, "{}", res.text());
    assert_eq!(r.actions("table.limits_cancelled"), 1);
    let l = r.limits(1).await;
    assert_eq!(l["pending"], Value::Null);
    assert_eq!(l["history"][0]["state"], "cancelled");
    assert_eq!(l["history"][0]["cancel_reason"], "players asked to stay");
    assert_eq!(l["history"][0]["cancelled_by"], "Administrator");
    // Announcing it now is refused and changes nothing; the hands keep NL 1/2.
    let audit1 = r.app.audit_count();
    let res = r
        .tap(&format!("/tablet/limit-changes/{id}/announced"), &[])
        .await;
    assert_eq!(res.status, 409, "{}", res.text());
    assert!(res.text().contains("no longer pending"), "{}", res.text());
    assert_eq!(r.app.audit_count(), audit1);
    r.hand().await;
    assert_eq!(r.stored(1).1, Some(200));
    assert!(!r.view("en").await.contains("id=\"limit-change\""));
}

#[actix_web::test]
async fn editing_a_game_gives_its_running_tables_pending_changes_and_new_tables_its_limits() {
    let r = room(4).await;
    r.seat_players(4).await;
    r.hand().await;
    let game = json!({"name": "NL 1/2", "variant": "holdem_nl", "small_blind": 200, "big_blind": 400,
        "limit_class": "low", "buy_in_min": 8000, "buy_in_max": 40000});
    let res = r
        .app
        .send_json("PUT", "/api/v1/games/1", &r.token, game.clone())
        .await;
    assert_eq!(res.status, 200, "{}", res.text());
    let saved = res.json();
    assert_eq!(
        saved["big_blind"], 400,
        "the game has the new limits: {saved}"
    );
    // Table 1 (four players) gets a pending change; it keeps its limits: nothing changed
    // silently.
    let changes = saved["limit_changes"].as_array().unwrap();
    assert_eq!(changes.len(), 1, "{saved}");
    assert_eq!(changes[0]["table_number"], 1);
    assert_eq!(changes[0]["kind"], "game_edit");
    assert_eq!(changes[0]["state"], "pending");
    assert_eq!(changes[0]["from"]["big_blind"], 200);
    assert_eq!(changes[0]["to"]["big_blind"], 400);
    assert_eq!(r.stored(1), (Some(100), Some(200), Some(4000), Some(20000)));
    assert_eq!(r.limits(1).await["limits"]["big_blind"], 200);
    // Table 2 is open with nobody seated: nobody to tell, no hand in play; it changed at once.
    assert_eq!(r.stored(2).1, Some(400));
    let l2 = r.limits(2).await;
    assert_eq!(l2["history"][0]["kind"], "game_edit");
    assert_eq!(l2["history"][0]["state"], "applied");
    // The admin's page says so.
    let page = r.app.page("/admin/games/1", &r.floor).await.text();
    assert!(page.contains("id=\"game-pending-limits\""), "{page}");
    assert!(page.contains("id=\"game-pending-table-1\""), "{page}");
    // Saving the same limits again changes nothing more.
    let res = r
        .app
        .send_json("PUT", "/api/v1/games/1", &r.token, game)
        .await;
    assert_eq!(res.json()["limit_changes"].as_array().unwrap().len(), 1);
    let n: i64 = r.app.with_conn(|c| {
        limit_changes::table
            .filter(limit_changes::kind.eq("game_edit"))
            .count()
            .get_result(c)
            .unwrap()
    });
    assert_eq!(n, 2);
    // A table opened afterwards plays the game's new limits.
    let t = json!({"number": 3, "game_id": 1, "mode": "continuous", "seats": 9});
    assert_eq!(
        r.app
            .send_json("POST", "/api/v1/tables", &r.token, t)
            .await
            .status,
        201
    );
    let res = r.app.post_form("/floor/tables/3/open", &r.floor, &[]).await;
    assert_eq!(res.status, 303, "{}", res.text());
    assert_eq!(r.stored(3), (Some(200), Some(400), Some(8000), Some(40000)));
    assert_eq!(r.limits(3).await["history"][0]["kind"], "opening");
    // Table 1 follows the usual steps: announced, then the next hand.
    let id = changes[0]["id"].as_i64().unwrap();
    r.tap(&format!("/tablet/limit-changes/{id}/announced"), &[])
        .await;
    r.hand().await;
    assert_eq!(r.stored(1).1, Some(400));
}

#[actix_web::test]
async fn bsop_27_58_no_transfer_between_tables_of_other_limits() {
    let r = room(5).await;
    r.seat_players(4).await;
    // One player at table 2.
    r.seat_at_2(r.players[4]).await;
    // Table 1 moves to NL 2/4.
    let id = r.propose(1, two_four()).await.json()["id"]
        .as_i64()
        .unwrap();
    r.tap(&format!("/tablet/limit-changes/{id}/announced"), &[])
        .await;
    r.hand().await;
    assert_eq!(r.stored(1).1, Some(400));
    // The board offers no transfer from table 1 to table 2 any more.
    let s1: i64 = r.app.with_conn(|c| {
        seatings::table
            .filter(seatings::table_id.eq(1))
            .filter(seatings::seat_no.eq(1))
            .filter(seatings::left_at.is_null())
            .select(seatings::id)
            .first(c)
            .unwrap()
    });
    let panel = r.app.page("/floor?table=1", &r.floor).await.text();
    assert!(
        !panel.contains(&format!("/floor/seatings/{s1}/transfer")),
        "{panel}"
    );
    // Its tile says the limits it plays, not its game's.
    assert!(
        panel.contains("class=\"badge badge-muted t-limits\" title=\"PT-2007 22\">€2.00/€4.00"),
        "{panel}"
    );
    // Asked anyway: refused with the reason, nothing changes.
    let audit0 = r.app.audit_count();
    let res = r
        .app
        .send_json(
            "POST",
            &format!("/api/v1/seatings/{s1}/transfer"),
            &r.token,
            json!({ "table_id": 2 }),
        )
        .await;
    assert_eq!(res.status, 409, "{}", res.text());
    assert!(
        res.text().contains("Table 2 plays other limits"),
        "{}",
        res.text()
    );
    assert_eq!(r.app.audit_count(), audit0);
    // From the tablet (with the stack) too.
    let res = r
        .tap(
            &format!("/tablet/seats/{s1}/transfer"),
            &[("table_id", "2"), ("stack", "100")],
        )
        .await;
    assert_eq!(res.status, 409, "{}", res.text());
    assert_eq!(r.app.audit_count(), audit0);
}

#[actix_web::test]
async fn bad_limits_are_refused_naming_the_field_and_nothing_is_saved() {
    let r = room(1).await;
    r.seat_players(1).await;
    let dealer = r.app.api_login("dealer1", STAFF_PW).await;
    let before = (r.app.audit_count(), r.app.count("limit_changes"));
    let check = |res: &crate::support::Resp, status: u16, field: &str, text: &str| {
        assert_eq!(res.status, status, "{}", res.text());
        let body = res.json();
        if !field.is_empty() {
            let fields = body["error"]["fields"].as_array().unwrap();
            assert!(
                fields.iter().any(|f| f["field"] == field),
                "{field}: {body}"
            );
        }
        assert!(res.text().contains(text), "{text}: {}", res.text());
    };
    let res = r
        .propose(1, json!({ "small_blind": 100, "big_blind": 200, "buy_in_min": 40000, "buy_in_max": 20000 }))
        .await;
    check(&res, 422, "buy_in_max", "BSOP 24");
    let res = r
        .propose(1, json!({ "small_blind": 400, "big_blind": 200, "buy_in_min": 4000, "buy_in_max": 20000 }))
        .await;
    check(&res, 422, "big_blind", "PT-2007 22");
    let res = r
        .propose(1, json!({ "small_blind": 0, "big_blind": 200, "buy_in_min": 4000, "buy_in_max": 2_000_000_000_i64 }))
        .await;
    check(&res, 422, "small_blind", "€10,000,000.00");
    check(&res, 422, "buy_in_max", "");
    let past = r.app.state.clock.now() - chrono::Duration::minutes(5);
    let res = r
        .propose(
            1,
            json!({ "small_blind": 200, "big_blind": 400, "buy_in_min": 8000, "buy_in_max": 40000,
                "effective_at": past.to_rfc3339() }),
        )
        .await;
    check(&res, 422, "effective_at", "PT-2007 22");
    // The limits in force are not a change.
    let res = r
        .propose(1, json!({ "small_blind": 100, "big_blind": 200, "buy_in_min": 4000, "buy_in_max": 20000 }))
        .await;
    check(&res, 409, "", "already plays these limits");
    // A table not in play (closed).
    let t = json!({"number": 3, "game_id": 1, "mode": "continuous", "seats": 9});
    r.app.send_json("POST", "/api/v1/tables", &r.token, t).await;
    let before = (before.0 + 1, before.1);
    let res = r.propose(3, two_four()).await;
    check(&res, 409, "", "Table 3 is not in play");
    // In Portuguese too.
    let res = r
        .app
        .call(
            TestRequest::post()
                .uri("/api/v1/tables/3/limit-changes")
                .insert_header(("Authorization", format!("Bearer {}", r.token)))
                .insert_header(("Accept-Language", "pt"))
                .set_json(two_four())
                .to_request(),
        )
        .await;
    check(&res, 409, "", "A mesa 3 não está em jogo");
    // A dealer may not approve a change (BSOP 34: the floor's approval).
    let res = r
        .app
        .send_json(
            "POST",
            "/api/v1/tables/1/limit-changes",
            &dealer,
            two_four(),
        )
        .await;
    assert_eq!(res.status, 403);
    assert_eq!((r.app.audit_count(), r.app.count("limit_changes")), before);
    // From the board's form: a time typed wrongly, amounts not amounts; nothing saved.
    let res = r
        .app
        .post_form(
            "/floor/tables/1/limits",
            &r.floor,
            &[
                ("small_blind", "2"),
                ("big_blind", "lots"),
                ("buy_in_min", "80"),
                ("buy_in_max", "400"),
                ("effective", "at"),
                ("at", "25:99"),
            ],
        )
        .await;
    assert_eq!(res.status, 422, "{}", res.text());
    assert!(res.text().contains("HH:MM"), "{}", res.text());
    assert_eq!((r.app.audit_count(), r.app.count("limit_changes")), before);
    // A second change while one is pending: cancel it first.
    let res = r.propose(1, two_four()).await;
    assert_eq!(res.status, 201);
    let res = r
        .propose(1, json!({ "small_blind": 500, "big_blind": 1000, "buy_in_min": 20000, "buy_in_max": 100000 }))
        .await;
    check(&res, 409, "", "cancel it first");
    // The board's form approves with the room's money as typed.
    let id = r.limits(1).await["pending"]["id"].as_i64().unwrap();
    r.app
        .send_json(
            "POST",
            &format!("/api/v1/limit-changes/{id}/cancel"),
            &r.token,
            json!({ "reason": "typo" }),
        )
        .await;
    let res = r
        .app
        .post_form(
            "/floor/tables/1/limits",
            &r.floor,
            &[
                ("small_blind", "5"),
                ("big_blind", "10"),
                ("buy_in_min", "200"),
                ("buy_in_max", ""),
                ("effective", "next_hand"),
            ],
        )
        .await;
    // PT-2007 7b: this game's session percentage is of the table maximum: it must keep one.
    assert_eq!(res.status, 422, "{}", res.text());
    assert!(
        res.text().contains("must keep a maximum buy-in"),
        "{}",
        res.text()
    );
    let res = r
        .app
        .post_form(
            "/floor/tables/1/limits",
            &r.floor,
            &[
                ("small_blind", "5"),
                ("big_blind", "10"),
                ("buy_in_min", "200"),
                ("buy_in_max", "1000"),
                ("effective", "next_hand"),
            ],
        )
        .await;
    assert_eq!(res.status, 303, "{}", res.text());
    let l = r.limits(1).await;
    assert_eq!(l["pending"]["to"]["big_blind"], 1000);
    assert_eq!(l["pending"]["to"]["buy_in_max"], 100000);
    // At table 2 nobody is seated: nobody to tell, no hand in play; the change applies now.
    let res = r.propose(2, two_four()).await;
    assert_eq!(res.status, 201, "{}", res.text());
    assert_eq!(res.json()["state"], "applied");
    assert_eq!(r.stored(2).1, Some(400));
}

#[actix_web::test]
async fn the_lobby_and_the_player_page_show_the_change_coming() {
    let r = room(4).await;
    r.seat_players(4).await;
    r.hand().await;
    r.propose(1, two_four()).await;
    let lobby = r
        .app
        .call(
            TestRequest::get()
                .uri("/lobby/live")
                .insert_header(("accept-language", "pt"))
                .to_request(),
        )
        .await
        .text();
    assert!(lobby.contains("id=\"lobby-limits-1\""), "{lobby}");
    assert!(lobby.contains("a partir da próxima mão"), "{lobby}");
    assert!(lobby.contains("cave 80,00"), "{lobby}");
    // The player's own page (their link) tells the players of that table.
    let p = r.players[0];
    let now = r.app.state.clock.now();
    let token = r.app.with_conn(|c| {
        cardroom::notify::link::issue_for(
            c,
            &r.app.state.keys,
            PlayerId(p),
            now,
            chrono_tz::Europe::Lisbon,
            cardroom::domain::clock::parse_hhmm("06:00").unwrap(),
        )
        .unwrap()
    });
    let page = r
        .app
        .call(
            TestRequest::get()
                .uri(&format!("/p/{token}"))
                .insert_header(("accept-language", "en"))
                .to_request(),
        )
        .await
        .text();
    assert!(page.contains("id=\"plink-limits-coming\""), "{page}");
    // In the player's own language (Portuguese, on the record).
    assert!(page.contains("a partir da próxima mão"), "{page}");
    assert!(page.contains("1,00 € / 2,00 €"), "{page}");
    assert!(
        page.contains("2,00 € / 4,00 € · cave 80,00 € – 400,00 €"),
        "{page}"
    );
}

/// The report's hours per limit of the gaming days from `from` to now (summed per limits).
async fn hours_per_limit(r: &Room, from: chrono::DateTime<chrono::Utc>) -> Vec<(i64, i64)> {
    let tz = chrono_tz::Europe::Lisbon;
    let start = chrono::NaiveTime::from_hms_opt(6, 0, 0).unwrap();
    let now = r.app.state.clock.now();
    let mut days = vec![cardroom::services::reports::gaming_date(from, tz, start)];
    let last = cardroom::services::reports::gaming_date(now, tz, start);
    if last != days[0] {
        days.push(last);
    }
    let mut out: Vec<(i64, i64)> = Vec::new();
    for d in days {
        let j = r
            .app
            .page(&format!("/floor/reports.json?day={d}"), &r.floor)
            .await
            .json();
        for l in j["limits"].as_array().unwrap() {
            let bb = l["big_blind"].as_i64().unwrap();
            let s = l["open_secs"].as_i64().unwrap();
            match out.iter_mut().find(|(b, _)| *b == bb) {
                Some((_, t)) => *t += s,
                None => out.push((bb, s)),
            }
        }
    }
    out.sort_unstable();
    out
}

#[actix_web::test]
async fn the_reports_split_a_tables_open_time_at_each_change() {
    let r = room(4).await;
    let t0 = r.app.state.clock.now();
    r.seat_players(4).await;
    r.hand().await;
    r.advance(60).await;
    let id = r.propose(1, two_four()).await.json()["id"]
        .as_i64()
        .unwrap();
    r.tap(&format!("/tablet/limit-changes/{id}/announced"), &[])
        .await;
    r.hand().await;
    r.advance(30).await;
    let split = hours_per_limit(&r, t0).await;
    assert_eq!(split.len(), 2, "{split:?}");
    assert_eq!(split[0].0, 200);
    assert_eq!(split[1].0, 400);
    // An hour at 1/2 and half an hour at 2/4 (the seating took no measurable time).
    assert!((3590..=3610).contains(&split[0].1), "{split:?}");
    assert!((1790..=1810).contains(&split[1].1), "{split:?}");
    // The CSV carries the same lines.
    let d = cardroom::services::reports::gaming_date(
        r.app.state.clock.now(),
        chrono_tz::Europe::Lisbon,
        chrono::NaiveTime::from_hms_opt(6, 0, 0).unwrap(),
    );
    let csv = r
        .app
        .page(&format!("/floor/reports.csv?day={d}&part=limits"), &r.floor)
        .await;
    assert_eq!(csv.status, 200, "{}", csv.text());
    let text = csv.text();
    assert!(text.lines().next().unwrap().contains("Big blind"), "{text}");
    assert!(text.contains("NL 1/2,2.00,4.00,80.00,400.00,1,"), "{text}");
    let page = r
        .app
        .page(&format!("/floor/reports?day={d}"), &r.floor)
        .await
        .text();
    assert!(page.contains("id=\"report-limits\""), "{page}");
    assert!(page.contains("Hours per limit"), "{page}");
}

#[actix_web::test]
async fn a_closed_table_ends_its_pending_change_and_reopens_at_its_games_limits() {
    let r = room(4).await;
    r.seat_players(4).await;
    r.hand().await;
    let id = r.propose(1, two_four()).await.json()["id"]
        .as_i64()
        .unwrap();
    // Below four players the table is suspended (PT-2007 24); 15 minutes later it closes.
    let s1: i64 = r.app.with_conn(|c| {
        seatings::table
            .filter(seatings::table_id.eq(1))
            .filter(seatings::seat_no.eq(1))
            .filter(seatings::left_at.is_null())
            .select(seatings::id)
            .first(c)
            .unwrap()
    });
    let res = r
        .app
        .send_json(
            "POST",
            &format!("/api/v1/seatings/{s1}/leave"),
            &r.token,
            json!({ "reason": "cashed out" }),
        )
        .await;
    assert!(res.status < 300, "{}", res.text());
    r.advance(16).await;
    r.tick();
    let state: String = r.app.with_conn(|c| {
        card_tables::table
            .find(1)
            .select(card_tables::state)
            .first(c)
            .unwrap()
    });
    assert_eq!(state, "closed");
    // The change ended with the table (audited); the table has no limits of its own.
    let l = r.limits(1).await;
    assert_eq!(l["pending"], Value::Null);
    let ended = l["history"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id)
        .cloned()
        .unwrap();
    assert_eq!(ended["state"], "cancelled");
    assert_eq!(ended["cancel_reason"], "table closed");
    assert_eq!(r.stored(1), (None, None, None, None));
    assert_eq!(r.actions("table.limits_cancelled"), 1);
    // Reopened, it plays its game's limits (NL 1/2), recorded as its opening.
    let res = r.app.post_form("/floor/tables/1/open", &r.floor, &[]).await;
    assert_eq!(res.status, 303, "{}", res.text());
    assert_eq!(r.stored(1), (Some(100), Some(200), Some(4000), Some(20000)));
    assert_eq!(r.limits(1).await["history"][0]["kind"], "opening");
}

#[actix_web::test]
async fn a_dealer_announces_only_their_own_tables_limit_change() {
    let r = room(5).await;
    let dealer = r.app.staff_token("dealer7", "dealer").await;
    r.app.assign_dealer(&dealer, 1).await;
    // Someone seated at each table: a change there waits for its announcement.
    r.seat_players(4).await;
    r.seat_at_2(r.players[4]).await;
    let at_1 = r.propose(1, two_four()).await.json()["id"]
        .as_i64()
        .unwrap();
    let res = r.propose(2, two_four()).await;
    assert_eq!(res.status, 201, "{}", res.text());
    let at_2 = res.json()["id"].as_i64().unwrap();
    let audit = r.app.audit_count();
    let res = r
        .app
        .send_json(
            "POST",
            &format!("/api/v1/limit-changes/{at_2}/announced"),
            &dealer,
            json!({}),
        )
        .await;
    assert_eq!(res.status, 403, "{}", res.text());
    assert_eq!(r.app.audit_count(), audit, "a refusal changes nothing");
    let res = r
        .app
        .send_json(
            "POST",
            &format!("/api/v1/limit-changes/{at_1}/announced"),
            &dealer,
            json!({}),
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.text());
}
