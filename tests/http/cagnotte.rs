//! Cagnotte billing over HTTP, with worked examples in exact amounts:
//! per-session dues (PT-2007 7b: one hour of play plus the hand in progress, the 30-minute
//! late seat, suspensions not counted), the rake per hand under the 5 % and the game's cap
//! (PT-2007 7a, PT-ONL 17a), no flop no drop (PT-ONL 18), rounding to the smallest chip
//! (BSOP 80), the floor's exemption, tips, drop box and commission (MO-13 11). Every refusal
//! changes nothing; every amount due, collected or exempted is audited.

use crate::pages::eligible_players;
use crate::support::{TestApp, STAFF_PW};
use cardroom::db::schema::{audit_log, cagnotte_dues, cagnotte_sessions, hands, seatings};
use diesel::prelude::*;
use serde_json::{json, Value};

struct Room {
    app: TestApp,
    admin: String,
    floor: String,
    dealer: String,
    players: Vec<i64>,
    table: i64,
}

impl Room {
    async fn post(&self, token: &str, uri: &str, body: Value) -> crate::support::Resp {
        self.app.send_json("POST", uri, token, body).await
    }

    async fn advance(&self, minutes: i64) {
        let r = self
            .post(
                &self.admin,
                "/api/v1/test/clock/advance",
                json!({ "minutes": minutes }),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.text());
    }

    /// Seats player `i` (of `players`) at `seat` and records a buy-in of `cave`.
    async fn sit(&self, i: usize, seat: i32, cave: i64) -> i64 {
        let r = self
            .post(
                &self.floor,
                &format!("/api/v1/tables/{}/seats/{seat}", self.table),
                json!({ "player_id": self.players[i] }),
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.text());
        let seating = r.json()["id"].as_i64().unwrap();
        let r = self
            .post(
                &self.dealer,
                &format!("/api/v1/seatings/{seating}/chips"),
                json!({ "amount": cave }),
            )
            .await;
        assert!(r.status == 201 || r.status == 200, "{}", r.text());
        seating
    }

    async fn leave(&self, seating: i64) {
        let r = self
            .post(
                &self.floor,
                &format!("/api/v1/seatings/{seating}/leave"),
                json!({ "reason": "left" }),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.text());
    }

    async fn hand(&self, body: Value) -> crate::support::Resp {
        self.post(
            &self.dealer,
            &format!("/api/v1/tables/{}/hands", self.table),
            body,
        )
        .await
    }

    async fn cagnotte(&self) -> Value {
        let r = self
            .app
            .get(
                &format!("/api/v1/tables/{}/cagnotte", self.table),
                &self.dealer,
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.text());
        r.json()
    }

    /// (player, amount, late) of a session's dues, by seat.
    fn dues(&self, session_number: i32) -> Vec<(i64, i64, bool)> {
        self.app.with_conn(|c| {
            cagnotte_dues::table
                .inner_join(cagnotte_sessions::table)
                .filter(cagnotte_sessions::table_id.eq(self.table))
                .filter(cagnotte_sessions::number.eq(session_number))
                .order(cagnotte_dues::seat_no.asc())
                .select((
                    cagnotte_dues::player_id,
                    cagnotte_dues::amount,
                    cagnotte_dues::late,
                ))
                .load(c)
                .unwrap()
        })
    }

    /// (number, started minutes after `t0`, closed minutes after `t0`, reason) of each session.
    fn sessions(&self, t0: chrono::NaiveDateTime) -> Vec<(i32, i64, Option<i64>, Option<String>)> {
        let rows: Vec<(
            i32,
            chrono::NaiveDateTime,
            Option<chrono::NaiveDateTime>,
            Option<String>,
        )> = self.app.with_conn(|c| {
            cagnotte_sessions::table
                .filter(cagnotte_sessions::table_id.eq(self.table))
                .order(cagnotte_sessions::number.asc())
                .select((
                    cagnotte_sessions::number,
                    cagnotte_sessions::started_at,
                    cagnotte_sessions::closed_at,
                    cagnotte_sessions::close_reason,
                ))
                .load(c)
                .unwrap()
        });
        rows.into_iter()
            .map(|(n, s, e, r)| {
                (
                    n,
                    (s - t0).num_minutes(),
                    e.map(|e| (e - t0).num_minutes()),
                    r,
                )
            })
            .collect()
    }

    fn now(&self) -> chrono::NaiveDateTime {
        self.app.state.clock.now().naive_utc()
    }
}

/// A room with one open table of `game` (JSON for POST /api/v1/games), a floor manager and a
/// dealer, and `n` eligible players.
async fn room(game: Value, n: usize) -> Room {
    let app = TestApp::with_clock(true).await;
    let admin = app.admin_token().await;
    // These scenes seat players with the caves they need at a continuous table under way:
    // the room keeps PT-2007 28's average to session tables (its narrow reading).
    app.set_profile(&admin, |p| p.join_at_average_session_only = true)
        .await;
    let r = app.send_json("POST", "/api/v1/games", &admin, game).await;
    assert_eq!(r.status, 201, "{}", r.text());
    let game_id = r.json()["id"].as_i64().unwrap();
    let r = app
        .send_json(
            "POST",
            "/api/v1/tables",
            &admin,
            json!({ "number": 1, "game_id": game_id, "mode": "continuous", "seats": 10 }),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let table = r.json()["id"].as_i64().unwrap();
    let floor = app.staff_token("floor1", "floor").await;
    let dealer = app.staff_token("dealer1", "dealer").await;
    // The floor assigns the dealer to the table (dealers act at their own table only).
    app.assign_dealer(&dealer, table).await;
    let r = app
        .send_json(
            "POST",
            &format!("/api/v1/tables/{table}/open"),
            &floor,
            json!({}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let players = eligible_players(&app, n);
    Room {
        app,
        admin,
        floor,
        dealer,
        players,
        table,
    }
}

/// NL €2/€5, table maximum €500, 20 % per session, €1 smallest chip.
fn session_game() -> Value {
    json!({
        "name": "NL 2/5 session", "variant": "holdem_nl", "small_blind": 200, "big_blind": 500,
        "limit_class": "mid", "buy_in_min": 10000, "buy_in_max": 50000,
        "cagnotte_mode": "per_session", "cagnotte_bp": 2000, "cagnotte_base": "table_max", "smallest_chip": 100
    })
}

#[actix_web::test]
async fn pt_2007_7b_a_session_of_seven_players_minute_29_pays_minute_31_does_not_and_the_hour_closes_at_the_next_hand_over(
) {
    let r = room(session_game(), 7).await;
    let mut seatings = Vec::new();
    for i in 0..5 {
        seatings.push(r.sit(i, i as i32 + 1, 50_000).await);
    }
    let t0 = r.now();
    // Before the first hand there is no session.
    assert!(r.cagnotte().await["session"].is_null());
    let h = r.hand(json!({})).await;
    assert_eq!(h.status, 201, "{}", h.text());
    assert_eq!(h.json()["session_started"], 1);
    // 20 % of the €500 table maximum: €100 from each of the five seated.
    let c = r.cagnotte().await;
    assert_eq!(c["session"]["state"], "running");
    assert_eq!(c["session"]["to_collect"], 50_000);
    assert_eq!(
        r.dues(1).iter().map(|d| d.1).collect::<Vec<_>>(),
        vec![10_000; 5]
    );
    // Minute 29: charged (late); minute 31: not.
    r.advance(29).await;
    r.sit(5, 6, 20_000).await;
    r.advance(2).await;
    r.sit(6, 7, 20_000).await;
    let dues = r.dues(1);
    assert_eq!(
        dues.len(),
        6,
        "the minute-31 player owes nothing for this session: {dues:?}"
    );
    assert_eq!(dues[5], (r.players[5], 10_000, true));
    assert!(!dues.iter().any(|d| d.0 == r.players[6]));
    // Hands go on; at minute 60 the hour is up: the hand in progress is finished first.
    r.advance(20).await;
    assert_eq!(
        r.hand(json!({})).await.json()["session_closed"],
        Value::Null
    );
    r.advance(8).await;
    assert_eq!(
        r.cagnotte().await["session"]["state"],
        "running",
        "minute 59"
    );
    r.advance(1).await;
    let c = r.cagnotte().await;
    assert_eq!(
        c["session"]["state"], "finishing",
        "minute 60: the hand in progress is finished first: {c}"
    );
    r.advance(3).await;
    let h = r.hand(json!({})).await;
    assert_eq!(h.status, 201, "{}", h.text());
    assert_eq!(h.json()["session_closed"], 1);
    assert_eq!(h.json()["session_started"], 2);
    assert_eq!(
        r.sessions(t0),
        vec![
            (1, 0, Some(63), Some("hand_over".into())),
            (2, 63, None, None)
        ],
        "session 1 closed by the first hand over after the hour (minute 63); session 2 starts then"
    );
    // Session 2: all seven seated owe from its start.
    assert_eq!(r.dues(2).len(), 7);
    assert!(r.dues(2).iter().all(|d| d.1 == 10_000 && !d.2));
    // Every due is audited.
    let audited: i64 = r.app.with_conn(|c| {
        audit_log::table
            .filter(audit_log::action.eq("cagnotte.due"))
            .count()
            .get_result(c)
            .unwrap()
    });
    assert_eq!(audited, 13);
    let _ = seatings;
}

#[actix_web::test]
async fn pt_2007_7b_24_ten_minutes_of_suspension_inside_the_hour_are_not_play() {
    let r = room(session_game(), 7).await;
    let mut s = Vec::new();
    for i in 0..4 {
        s.push(r.sit(i, i as i32 + 1, 50_000).await);
    }
    let t0 = r.now();
    assert_eq!(r.hand(json!({})).await.status, 201);
    // Minute 20: one leaves, three remain: the table is suspended (PT-2007 24, four to run).
    r.advance(20).await;
    r.leave(s[3]).await;
    r.advance(10).await;
    // Minute 30: a fourth player: the game runs again after 10 minutes of suspension. Minute 30
    // of the clock is minute 20 of play: a late seat within the window.
    r.sit(4, 4, 50_000).await;
    assert_eq!(
        r.dues(1).len(),
        5,
        "minute 30 on the clock, 20 of play: charged (the one who left keeps their due)"
    );
    // Minute 38 on the clock is minute 28 of play: charged; minute 42 is 32 of play: not.
    r.advance(8).await;
    r.sit(5, 5, 50_000).await;
    assert_eq!(r.dues(1).len(), 6, "minute 28 of play: charged");
    r.advance(4).await;
    r.sit(6, 6, 50_000).await;
    assert_eq!(r.dues(1).len(), 6, "minute 32 of play: not charged");
    // Minute 65: 55 minutes of play; the hour is up at minute 70.
    r.advance(23).await;
    let c = r.cagnotte().await;
    assert_eq!(c["session"]["state"], "running", "{c}");
    let up = c["session"]["hour_up_at"].as_str().unwrap().to_string();
    let h = r.hand(json!({})).await;
    assert_eq!(
        h.json()["session_closed"],
        Value::Null,
        "not yet: suspension time is not play"
    );
    r.advance(5).await;
    assert_eq!(r.cagnotte().await["session"]["state"], "finishing");
    let h = r.hand(json!({})).await;
    assert_eq!(h.json()["session_closed"], 1, "{}", h.text());
    let sessions = r.sessions(t0);
    assert_eq!(sessions[0], (1, 0, Some(70), Some("hand_over".into())));
    let up = chrono::DateTime::parse_from_rfc3339(&up)
        .unwrap()
        .naive_utc();
    assert_eq!((up - t0).num_minutes(), 70);
}

#[actix_web::test]
async fn pt_2007_7b_the_percentage_of_the_cave_is_rounded_down_to_the_smallest_chip() {
    let mut g = session_game();
    g["cagnotte_base"] = json!("cave");
    g["buy_in_max"] = Value::Null;
    g["buy_in_min"] = json!(5_000);
    let r = room(g, 5).await;
    r.sit(0, 1, 8_750).await; // €87.50 × 20 % = €17.50 → €17 with a €1 smallest chip (BSOP 80)
    r.sit(1, 2, 20_000).await;
    // Four seated: no hand is dealt below the minimum to run (PT-2007 24).
    r.sit(3, 4, 10_000).await;
    r.sit(4, 5, 10_000).await;
    assert_eq!(r.hand(json!({})).await.status, 201);
    assert_eq!(
        r.dues(1).iter().map(|d| d.1).collect::<Vec<_>>(),
        vec![1_700, 4_000, 2_000, 2_000]
    );
    // A late seat's due is set once the chips are in: €150 → €30.
    r.advance(5).await;
    r.sit(2, 3, 15_000).await;
    assert_eq!(r.dues(1)[2], (r.players[2], 3_000, true));
}

#[actix_web::test]
async fn dues_are_collected_by_the_dealer_or_exempted_by_the_floor_with_a_reason() {
    // Four seated: no hand is dealt below the minimum to run (PT-2007 24).
    let r = room(session_game(), 4).await;
    for i in 0..4 {
        r.sit(i, i as i32 + 1, 50_000).await;
    }
    assert_eq!(r.hand(json!({})).await.status, 201);
    let c = r.cagnotte().await;
    let ids: Vec<i64> = c["session"]["dues"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["id"].as_i64().unwrap())
        .collect();
    let audit0 = r.app.audit_count();
    // More than is due: 422 in the user's language, nothing changes.
    let x = r
        .post(
            &r.dealer,
            &format!("/api/v1/cagnotte/dues/{}/collect", ids[0]),
            json!({ "amount": 10_100 }),
        )
        .await;
    assert_eq!(x.status, 422, "{}", x.text());
    assert!(x.text().contains("€100"), "{}", x.text());
    let pt = r
        .app
        .call(
            actix_web::test::TestRequest::post()
                .uri(&format!("/api/v1/cagnotte/dues/{}/collect", ids[0]))
                .insert_header(("Authorization", format!("Bearer {}", r.dealer)))
                .insert_header(("Accept-Language", "pt-PT"))
                .set_json(json!({ "amount": 10_100 }))
                .to_request(),
        )
        .await;
    assert_eq!(pt.status, 422);
    assert!(pt.text().contains("No máximo"), "{}", pt.text());
    assert_eq!(r.app.audit_count(), audit0);
    // Collected in full; a second collection is refused.
    let ok = r
        .post(
            &r.dealer,
            &format!("/api/v1/cagnotte/dues/{}/collect", ids[0]),
            json!({}),
        )
        .await;
    assert_eq!(ok.status, 200, "{}", ok.text());
    assert_eq!(ok.json()["state"], "collected");
    assert_eq!(ok.json()["collected"], 10_000);
    assert_eq!(
        r.post(
            &r.dealer,
            &format!("/api/v1/cagnotte/dues/{}/collect", ids[0]),
            json!({})
        )
        .await
        .status,
        409
    );
    // Less than due is recorded as such (a difference in the reports).
    let part = r
        .post(
            &r.dealer,
            &format!("/api/v1/cagnotte/dues/{}/collect", ids[1]),
            json!({ "amount": 5_000 }),
        )
        .await;
    assert_eq!(part.json()["collected"], 5_000);
    // The fourth seat pays in full too.
    assert_eq!(
        r.post(
            &r.dealer,
            &format!("/api/v1/cagnotte/dues/{}/collect", ids[3]),
            json!({})
        )
        .await
        .status,
        200
    );
    // Exemption: the floor only, with a reason.
    assert_eq!(
        r.post(
            &r.dealer,
            &format!("/api/v1/cagnotte/dues/{}/exempt", ids[2]),
            json!({ "reason": "house guest" })
        )
        .await
        .status,
        403
    );
    let e = r
        .post(
            &r.floor,
            &format!("/api/v1/cagnotte/dues/{}/exempt", ids[2]),
            json!({ "reason": "  " }),
        )
        .await;
    assert_eq!(e.status, 422, "{}", e.text());
    assert_eq!(e.error().0, "validation_failed");
    let e = r
        .post(
            &r.floor,
            &format!("/api/v1/cagnotte/dues/{}/exempt", ids[2]),
            json!({ "reason": "house guest" }),
        )
        .await;
    assert_eq!(e.status, 200, "{}", e.text());
    assert_eq!(e.json()["state"], "exempt");
    assert_eq!(e.json()["reason"], "house guest");
    let actions: Vec<String> = r.app.with_conn(|c| {
        audit_log::table
            .filter(audit_log::seq.gt(0))
            .select(audit_log::action)
            .load(c)
            .unwrap()
    });
    assert_eq!(
        actions
            .iter()
            .filter(|a| *a == "cagnotte.collected")
            .count(),
        3
    );
    assert_eq!(
        actions.iter().filter(|a| *a == "cagnotte.exempt").count(),
        1
    );
    // Nothing left to collect.
    assert_eq!(r.cagnotte().await["session"]["to_collect"], 0);
    let open = r.app.get("/api/v1/cagnotte/dues", &r.floor).await;
    assert_eq!(open.json().as_array().unwrap().len(), 0);
    // The floor cannot close a session before the hour is up.
    let x = r
        .post(
            &r.floor,
            &format!("/api/v1/tables/{}/cagnotte/close", r.table),
            json!({}),
        )
        .await;
    assert_eq!(x.status, 409, "{}", x.text());
    r.advance(61).await;
    let x = r
        .post(
            &r.floor,
            &format!("/api/v1/tables/{}/cagnotte/close", r.table),
            json!({}),
        )
        .await;
    assert_eq!(x.status, 200, "{}", x.text());
    assert_eq!(x.json()["session"]["number"], 2);
    assert_eq!(x.json()["session"]["to_collect"], 40_000);
}

/// NL €1/€2, 5 % per hand, capped at €10, €1 smallest chip.
fn hand_game() -> Value {
    json!({
        "name": "NL 1/2 rake", "variant": "holdem_nl", "small_blind": 100, "big_blind": 200,
        "limit_class": "low", "buy_in_min": 4000, "buy_in_max": 20000,
        "cagnotte_mode": "per_hand", "cagnotte_bp": 500, "rake_cap": 1000, "smallest_chip": 100
    })
}

#[actix_web::test]
async fn pt_2007_7a_the_rake_per_hand_is_at_most_5_percent_and_the_cap_and_none_without_a_flop() {
    let r = room(hand_game(), 4).await;
    r.sit(0, 1, 20_000).await;
    r.sit(1, 2, 20_000).await;
    // Four seated: no hand is dealt below the minimum to run (PT-2007 24).
    r.sit(2, 3, 20_000).await;
    r.sit(3, 4, 20_000).await;
    // The first tap deals hand 1: there is nothing to record yet.
    let x = r.hand(json!({ "pot": 1_000, "rake": 0 })).await;
    assert_eq!(x.status, 409, "{}", x.text());
    assert_eq!(r.app.count("hands"), 0);
    assert_eq!(r.hand(json!({})).await.status, 201);
    let hands0 = r.app.count("hands");
    let audit0 = r.app.audit_count();
    // €300 pot: 5 % is €15, the cap €10.
    let x = r.hand(json!({ "pot": 30_000, "rake": 1_500 })).await;
    assert_eq!(x.status, 422, "{}", x.text());
    assert!(x.text().contains("€10"), "{}", x.text());
    assert_eq!(x.error().0, "validation_failed");
    assert_eq!(
        (r.app.count("hands"), r.app.audit_count()),
        (hands0, audit0),
        "a refused rake changes nothing"
    );
    // €87 pot: 5 % is €4.35, rounded down to the €1 chip: €4 (BSOP 80).
    let x = r.hand(json!({ "pot": 8_700, "rake": 435 })).await;
    assert_eq!(x.status, 422, "{}", x.text());
    assert!(x.text().contains("€4"), "{}", x.text());
    // No flop, no drop (PT-ONL 18).
    let x = r
        .hand(json!({ "pot": 300, "rake": 100, "preflop_no_bet": true }))
        .await;
    assert_eq!(x.status, 422, "{}", x.text());
    // At the cap: recorded on hand 1, and hand 2 is dealt.
    let ok = r.hand(json!({ "pot": 30_000, "rake": 1_000 })).await;
    assert_eq!(ok.status, 201, "{}", ok.text());
    assert_eq!(ok.json()["number"], 2);
    let ok = r
        .hand(json!({ "pot": 300, "rake": 0, "preflop_no_bet": true }))
        .await;
    assert_eq!(ok.status, 201, "{}", ok.text());
    let recorded: Vec<(i32, Option<i64>, Option<i64>, bool)> = r.app.with_conn(|c| {
        hands::table
            .order(hands::number.asc())
            .select((
                hands::number,
                hands::pot,
                hands::rake,
                hands::preflop_no_bet,
            ))
            .load(c)
            .unwrap()
    });
    assert_eq!(
        recorded,
        vec![
            (1, Some(30_000), Some(1_000), false),
            (2, Some(300), Some(0), true),
            (3, None, None, false)
        ]
    );
    // Not valid JSON: 400.
    let bad = r
        .app
        .call(
            actix_web::test::TestRequest::post()
                .uri(&format!("/api/v1/tables/{}/hands", r.table))
                .insert_header(("Authorization", format!("Bearer {}", r.dealer)))
                .insert_header(("Content-Type", "application/json"))
                .set_payload("{\"pot\": ")
                .to_request(),
        )
        .await;
    assert_eq!(bad.status, 400, "{}", bad.text());
}

#[actix_web::test]
async fn bsop_90_a_hand_run_more_than_once_is_raked_once_on_its_whole_pot() {
    let r = room(hand_game(), 4).await;
    for (i, seat) in [1, 2, 3, 4].into_iter().enumerate() {
        r.sit(i, seat, 20_000).await;
    }
    assert_eq!(r.hand(json!({})).await.status, 201);
    let before = (r.app.count("hands"), r.app.audit_count());
    // €100 pot run twice: the rake is 5 % of the whole pot once (€5), never per board...
    let x = r
        .hand(json!({ "pot": 10_000, "rake": 1_000, "boards": 2 }))
        .await;
    assert_eq!(x.status, 422, "{}", x.text());
    assert!(x.text().contains("€5"), "{}", x.text());
    // ... and not left out because the players agreed to run it again.
    let x = r
        .hand(json!({ "pot": 10_000, "rake": 0, "boards": 2 }))
        .await;
    assert_eq!(x.status, 422, "{}", x.text());
    let fields = x.json()["error"]["fields"].clone();
    assert_eq!(fields[0]["field"], "rake", "{fields}");
    assert!(
        fields[0]["message"].as_str().unwrap().contains("BSOP 90"),
        "{fields}"
    );
    // Run twice with no pot recorded: the pot is asked for.
    let x = r.hand(json!({ "boards": 2 })).await;
    assert_eq!(x.status, 422, "{}", x.text());
    assert_eq!(x.json()["error"]["fields"][0]["field"], "pot");
    // Four boards, or a board run again on a hand without a bet: refused on the field.
    let x = r
        .hand(json!({ "pot": 10_000, "rake": 500, "boards": 4 }))
        .await;
    assert_eq!(x.status, 422, "{}", x.text());
    assert_eq!(x.json()["error"]["fields"][0]["field"], "boards");
    let x = r
        .hand(json!({ "pot": 300, "rake": 0, "boards": 2, "preflop_no_bet": true }))
        .await;
    assert_eq!(x.status, 422, "{}", x.text());
    assert_eq!(x.json()["error"]["fields"][0]["field"], "boards");
    assert_eq!(
        (r.app.count("hands"), r.app.audit_count()),
        before,
        "a refused result changes nothing"
    );
    // Raked once: recorded with its boards.
    let ok = r
        .hand(json!({ "pot": 10_000, "rake": 500, "boards": 2 }))
        .await;
    assert_eq!(ok.status, 201, "{}", ok.text());
    let ok = r.hand(json!({ "pot": 4_000, "rake": 0 })).await;
    assert_eq!(ok.status, 201, "{}", ok.text());
    let recorded: Vec<(i32, Option<i64>, Option<i64>, i32)> = r.app.with_conn(|c| {
        hands::table
            .order(hands::number.asc())
            .select((hands::number, hands::pot, hands::rake, hands::boards))
            .load(c)
            .unwrap()
    });
    assert_eq!(
        recorded,
        vec![
            (1, Some(10_000), Some(500), 2),
            (2, Some(4_000), Some(0), 1),
            (3, None, None, 1)
        ]
    );
    let (action, after): (String, String) = r.app.with_conn(|c| {
        use cardroom::db::schema::audit_log::dsl::*;
        audit_log
            .filter(action.eq("cagnotte.rake"))
            .order(seq.asc())
            .select((action, after_json))
            .first(c)
            .unwrap()
    });
    assert_eq!(action, "cagnotte.rake");
    assert!(after.contains("\"boards\":2"), "{after}");
}

#[actix_web::test]
async fn a_session_game_takes_no_rake_and_game_settings_out_of_range_are_refused() {
    let r = room(session_game(), 4).await;
    r.sit(0, 1, 50_000).await;
    r.sit(1, 2, 50_000).await;
    // Four seated: no hand is dealt below the minimum to run (PT-2007 24).
    r.sit(2, 3, 50_000).await;
    r.sit(3, 4, 50_000).await;
    assert_eq!(r.hand(json!({})).await.status, 201);
    let x = r.hand(json!({ "pot": 10_000, "rake": 500 })).await;
    assert_eq!(x.status, 422, "{}", x.text());
    // PT-2007 7b: 5-20 %.
    for bp in [499, 2_001] {
        let mut g = session_game();
        g["name"] = json!(format!("bad {bp}"));
        g["cagnotte_bp"] = json!(bp);
        let x = r.app.send_json("POST", "/api/v1/games", &r.admin, g).await;
        assert_eq!(x.status, 422, "{}", x.text());
    }
    // A percentage of the table maximum needs one; the chip must divide the blinds.
    let mut g = session_game();
    g["buy_in_max"] = Value::Null;
    let x = r.app.send_json("POST", "/api/v1/games", &r.admin, g).await;
    assert_eq!(x.status, 422, "{}", x.text());
    assert!(x.text().contains("cagnotte_base"), "{}", x.text());
    let mut g = session_game();
    g["smallest_chip"] = json!(300);
    let x = r.app.send_json("POST", "/api/v1/games", &r.admin, g).await;
    assert_eq!(x.status, 422, "{}", x.text());
    assert!(x.text().contains("smallest_chip"), "{}", x.text());
    // PT-2007 7: the base cannot change while the game is in play.
    let game_id: i64 = r.app.with_conn(|c| {
        cardroom::db::schema::card_tables::table
            .find(r.table)
            .select(cardroom::db::schema::card_tables::game_id)
            .first::<Option<i64>>(c)
            .unwrap()
            .unwrap()
    });
    let mut g = session_game();
    g["cagnotte_base"] = json!("cave");
    let x = r
        .app
        .send_json("PUT", &format!("/api/v1/games/{game_id}"), &r.admin, g)
        .await;
    assert_eq!(x.status, 409, "{}", x.text());
}

#[actix_web::test]
async fn tips_and_the_drop_box_go_to_the_dealers_shift_and_the_13_card_game_takes_2_percent() {
    let r = room(hand_game(), 4).await;
    r.sit(0, 1, 20_000).await;
    r.sit(1, 2, 20_000).await;
    // Four seated: no hand is dealt below the minimum to run (PT-2007 24).
    r.sit(2, 3, 20_000).await;
    r.sit(3, 4, 20_000).await;
    assert_eq!(r.hand(json!({})).await.status, 201);
    let x = r
        .post(
            &r.dealer,
            &format!("/api/v1/tables/{}/tips", r.table),
            json!({ "amount": 0 }),
        )
        .await;
    assert_eq!(x.status, 422, "{}", x.text());
    let t = r
        .post(
            &r.dealer,
            &format!("/api/v1/tables/{}/tips", r.table),
            json!({ "amount": 500 }),
        )
        .await;
    assert_eq!(t.status, 201, "{}", t.text());
    let shift = t.json()["shift_id"]
        .as_i64()
        .expect("on the dealer's shift (begun by the hand tap)");
    let d = r
        .post(
            &r.dealer,
            &format!("/api/v1/tables/{}/drop-box", r.table),
            json!({ "amount": 12_300, "end_shift": true }),
        )
        .await;
    assert_eq!(d.status, 201, "{}", d.text());
    assert_eq!(d.json()["shift_id"].as_i64(), Some(shift));
    // The shift ended with the drop box: nothing left to end (the floor hears so), and the
    // dealer, no longer dealing there, may not act at the table any more.
    assert_eq!(
        r.post(
            &r.floor,
            &format!("/api/v1/tables/{}/shift/end", r.table),
            json!({})
        )
        .await
        .status,
        409
    );
    assert_eq!(
        r.post(
            &r.dealer,
            &format!("/api/v1/tables/{}/shift/end", r.table),
            json!({})
        )
        .await
        .status,
        403
    );
    // Another dealer takes over (the floor assigns them): their own shift starts.
    let dealer2 = r.app.staff_token("dealer2", "dealer").await;
    r.app.assign_dealer(&dealer2, r.table).await;
    let h = r
        .app
        .send_json(
            "POST",
            &format!("/api/v1/tables/{}/hands", r.table),
            &dealer2,
            json!({}),
        )
        .await;
    assert_eq!(h.status, 201);
    let t2 = r
        .post(
            &dealer2,
            &format!("/api/v1/tables/{}/tips", r.table),
            json!({ "amount": 200 }),
        )
        .await;
    assert_ne!(t2.json()["shift_id"].as_i64(), Some(shift));
    // Commission only in the 13-card game.
    let x = r
        .post(
            &dealer2,
            &format!("/api/v1/tables/{}/commissions", r.table),
            json!({ "payout": 10_000 }),
        )
        .await;
    assert_eq!(x.status, 409, "{}", x.text());
    let g = json!({ "name": "13 cartas", "variant": "thirteen_cards", "small_blind": 0, "big_blind": 0, "limit_class": "low", "buy_in_min": 1000, "buy_in_max": 100000, "cagnotte_mode": "per_hand", "cagnotte_bp": 0 });
    let gr = r.app.send_json("POST", "/api/v1/games", &r.admin, g).await;
    assert_eq!(gr.status, 201, "{}", gr.text());
    let tr = r
        .app
        .send_json(
            "POST",
            "/api/v1/tables",
            &r.admin,
            json!({ "number": 2, "game_id": gr.json()["id"], "mode": "continuous" }),
        )
        .await;
    assert_eq!(tr.status, 201, "{}", tr.text());
    let t13 = tr.json()["id"].as_i64().unwrap();
    // The first dealer moves to the 13-card table (the floor assigns them).
    r.app.assign_dealer(&r.dealer, t13).await;
    let c = r
        .post(
            &r.dealer,
            &format!("/api/v1/tables/{t13}/commissions"),
            json!({ "payout": 12_345 }),
        )
        .await;
    assert_eq!(c.status, 201, "{}", c.text());
    assert_eq!(
        c.json()["amount"],
        246,
        "2 % of €123.45 is €2.469, rounded down to the cent"
    );
    let audited: i64 = r.app.with_conn(|c| {
        audit_log::table
            .filter(audit_log::action.eq_any([
                "cagnotte.tip",
                "cagnotte.drop",
                "cagnotte.commission",
            ]))
            .count()
            .get_result(c)
            .unwrap()
    });
    assert_eq!(audited, 4);
    let _ = seatings::table;
    let _ = STAFF_PW;
}

#[actix_web::test]
async fn the_tablet_shows_each_seats_due_the_dealer_collects_and_the_floor_exempts_with_a_reason() {
    use actix_web::test::TestRequest;
    let app = TestApp::with_clock(true).await;
    let (token, floor, tablet) = crate::tablets::paired_room(&app).await;
    app.create_staff("dealer1", "dealer");
    let dealer = app.web_login("dealer1", STAFF_PW).await;
    // Four seated: no hand is dealt below the minimum to run (PT-2007 24).
    let players = eligible_players(&app, 4);
    // The room's default profile (PT casino): 10 % of the €200 table maximum per session.
    for (i, p) in players.iter().enumerate() {
        let r = app
            .send_json(
                "POST",
                &format!("/api/v1/tables/1/seats/{}", i + 1),
                &token,
                json!({ "player_id": p }),
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.text());
        let s = r.json()["id"].as_i64().unwrap();
        assert_eq!(
            app.send_json(
                "POST",
                &format!("/api/v1/seatings/{s}/chips"),
                &token,
                json!({ "amount": 10_000 })
            )
            .await
            .status,
            201
        );
    }
    let tap = |uri: String, fields: Vec<(&'static str, String)>| {
        let mut form: Vec<(String, String)> = vec![("csrf".into(), dealer.csrf.clone())];
        form.extend(fields.into_iter().map(|(k, v)| (k.to_string(), v)));
        TestRequest::post()
            .uri(&uri)
            .cookie(tablet.c())
            .cookie(dealer.c())
            .set_form(form)
            .to_request()
    };
    let view = || {
        TestRequest::get()
            .uri("/tablet/view")
            .cookie(tablet.c())
            .cookie(dealer.c())
            .to_request()
    };
    let v = app.call(view()).await.text();
    assert!(
        !v.contains("id=\"cagnotte\""),
        "no session before the first hand"
    );
    // A session game asks for no pot or rake at the hand over.
    assert!(!v.contains("id=\"hand-rake\""));
    let r = app.call(tap("/tablet/hand".into(), vec![])).await;
    assert_eq!(r.status, 303, "{}", r.text());
    let v = app.call(view()).await.text();
    assert!(v.contains("id=\"cagnotte\""), "{v}");
    assert!(
        v.contains("To collect: €80.00") || v.contains("To collect: €80"),
        "{v}"
    );
    assert!(v.contains("id=\"seat-due-1\""), "seat 1 shows what it owes");
    let dues: Vec<i64> = app.with_conn(|c| {
        cagnotte_dues::table
            .order(cagnotte_dues::seat_no.asc())
            .select(cagnotte_dues::id)
            .load(c)
            .unwrap()
    });
    assert_eq!(dues.len(), 4);
    // Not collected a quarter of an hour later: the floor's dashboard says so.
    assert!(!app
        .page("/floor/live", &floor)
        .await
        .text()
        .contains("id=\"dues-late\""));
    let r = app
        .send_json(
            "POST",
            "/api/v1/test/clock/advance",
            &token,
            json!({ "minutes": 16 }),
        )
        .await;
    assert_eq!(r.status, 200);
    let live = app.page("/floor/live", &floor).await.text();
    assert!(
        live.contains("id=\"dues-late\"") && live.contains("4 session dues have waited"),
        "{live}"
    );
    // The dealer taps "Collected" for seat 1.
    let r = app
        .call(tap(format!("/tablet/dues/{}/collect", dues[0]), vec![]))
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    // Seats 3 and 4 pay too.
    for d in &dues[2..] {
        let r = app
            .call(tap(format!("/tablet/dues/{d}/collect"), vec![]))
            .await;
        assert_eq!(r.status, 303, "{}", r.text());
    }
    let v = app.call(view()).await.text();
    assert!(!v.contains("id=\"seat-due-1\""));
    assert!(v.contains("id=\"seat-due-2\""));
    // Tapping it again: refused on the tablet, nothing changes.
    let r = app
        .call(tap(format!("/tablet/dues/{}/collect", dues[0]), vec![]))
        .await;
    assert_eq!(r.status, 409, "{}", r.text());
    assert!(r.text().contains("already been collected"), "{}", r.text());
    // The floor's page lists seat 2's due; an exemption without a reason is refused and the
    // page says why; with one it is recorded.
    let p = app.page("/floor/cagnotte", &floor).await;
    assert_eq!(p.status, 200);
    assert!(
        p.text().contains(&format!("id=\"open-due-{}\"", dues[1])),
        "{}",
        p.text()
    );
    let r = app
        .post_form(
            &format!("/floor/cagnotte/dues/{}/exempt", dues[1]),
            &floor,
            &[("reason", " ")],
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(r.text().contains("Give a reason"), "{}", r.text());
    let r = app
        .post_form(
            &format!("/floor/cagnotte/dues/{}/exempt", dues[1]),
            &floor,
            &[("reason", "Tournament winner, house offer")],
        )
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    let p = app.page("/floor/cagnotte", &floor).await.text();
    assert!(p.contains("id=\"dues-none\""), "{p}");
    assert!(p.contains("Tournament winner, house offer"));
    let states: Vec<String> = app.with_conn(|c| {
        cagnotte_dues::table
            .order(cagnotte_dues::seat_no.asc())
            .select(cagnotte_dues::state)
            .load(c)
            .unwrap()
    });
    assert_eq!(
        states,
        vec!["collected", "exempt", "collected", "collected"]
    );
    // The floor cannot close the session before the hour is up; after it, it can.
    let r = app
        .post_form("/floor/cagnotte/tables/1/close", &floor, &[])
        .await;
    assert_eq!(r.status, 409, "{}", r.text());
    let r = app
        .send_json(
            "POST",
            "/api/v1/test/clock/advance",
            &token,
            json!({ "minutes": 60 }),
        )
        .await;
    assert_eq!(r.status, 200);
    let live = app.page("/floor/live", &floor).await.text();
    assert!(
        live.contains("id=\"session-up-1\""),
        "the dashboard shows the hour is up: {live}"
    );
    assert!(!live.contains("id=\"dues-late\""), "all settled");
    let r = app
        .post_form("/floor/cagnotte/tables/1/close", &floor, &[])
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    assert!(!app
        .page("/floor/live", &floor)
        .await
        .text()
        .contains("id=\"session-up-1\""));
    assert_eq!(app.count("cagnotte_sessions"), 2);
    // Tips from the tablet: an amount that is not money is refused.
    let r = app
        .call(tap("/tablet/tips".into(), vec![("amount", "abc".into())]))
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
    let r = app
        .call(tap("/tablet/tips".into(), vec![("amount", "12.50".into())]))
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    let tipped: Vec<i64> = app.with_conn(|c| {
        cardroom::db::schema::tips::table
            .select(cardroom::db::schema::tips::amount)
            .load(c)
            .unwrap()
    });
    assert_eq!(tipped, vec![1_250]);
    let v = app.call(view()).await.text();
    assert!(
        v.contains("id=\"shift-dealer\""),
        "the shift shows its dealer"
    );
}

#[actix_web::test]
async fn the_tablets_hand_over_takes_the_pot_and_rake_of_a_per_hand_game_and_refuses_a_rake_over_the_cap(
) {
    use actix_web::test::TestRequest;
    use cardroom::db::schema::games;
    let app = TestApp::with_clock(true).await;
    let (token, _floor, tablet) = crate::tablets::paired_room(&app).await;
    // Arranged directly (the tables are already open): 5 % per hand, capped at €10.
    app.with_conn(|c| {
        diesel::update(games::table.find(1))
            .set((
                games::cagnotte_mode.eq("per_hand"),
                games::cagnotte_bp.eq(500),
                games::rake_cap.eq(Some(1_000i64)),
            ))
            .execute(c)
            .unwrap()
    });
    app.create_staff("dealer1", "dealer");
    let dealer = app.web_login("dealer1", STAFF_PW).await;
    // Four seated: no hand is dealt below the minimum to run (PT-2007 24).
    for (i, p) in eligible_players(&app, 4).iter().enumerate() {
        let r = app
            .send_json(
                "POST",
                &format!("/api/v1/tables/1/seats/{}", i + 1),
                &token,
                json!({ "player_id": p }),
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.text());
    }
    let tap = |fields: Vec<(&'static str, &'static str)>| {
        let mut form: Vec<(&str, &str)> = vec![("csrf", dealer.csrf.as_str())];
        form.extend(fields);
        TestRequest::post()
            .uri("/tablet/hand")
            .cookie(tablet.c())
            .cookie(dealer.c())
            .set_form(form)
            .to_request()
    };
    assert_eq!(app.call(tap(vec![])).await.status, 303);
    let v = app
        .call(
            TestRequest::get()
                .uri("/tablet/view")
                .cookie(tablet.c())
                .cookie(dealer.c())
                .to_request(),
        )
        .await
        .text();
    assert!(
        v.contains("id=\"hand-rake\"") && v.contains("id=\"hand-pot\""),
        "a per-hand game asks for the pot and rake: {v}"
    );
    assert!(
        !v.contains("id=\"cagnotte\""),
        "no session in a per-hand game"
    );
    let hands0 = app.count("hands");
    let r = app.call(tap(vec![("pot", "300"), ("rake", "15")])).await;
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(r.text().contains("€10"), "{}", r.text());
    assert_eq!(app.count("hands"), hands0, "a refused rake deals no hand");
    // BSOP 90: run twice, the rake is still taken.
    assert!(v.contains("id=\"hand-boards\""), "{v}");
    let r = app
        .call(tap(vec![("pot", "300"), ("rake", "0"), ("boards", "2")]))
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(r.text().contains("BSOP 90"), "{}", r.text());
    let r = app.call(tap(vec![("pot", "300"), ("rake", "10")])).await;
    assert_eq!(r.status, 303, "{}", r.text());
    let first: (Option<i64>, Option<i64>) = app.with_conn(|c| {
        hands::table
            .filter(hands::number.eq(1))
            .select((hands::pot, hands::rake))
            .first(c)
            .unwrap()
    });
    assert_eq!(first, (Some(30_000), Some(1_000)));
}

#[actix_web::test]
async fn the_reports_api_counts_what_the_tables_recorded() {
    // Four seated: no hand is dealt below the minimum to run (PT-2007 24).
    let r = room(session_game(), 4).await;
    for i in 0..4 {
        r.sit(i, i as i32 + 1, 50_000).await;
    }
    assert_eq!(r.hand(json!({})).await.status, 201);
    let ids: Vec<i64> = r.cagnotte().await["session"]["dues"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["id"].as_i64().unwrap())
        .collect();
    assert_eq!(
        r.post(
            &r.dealer,
            &format!("/api/v1/cagnotte/dues/{}/collect", ids[0]),
            json!({})
        )
        .await
        .status,
        200
    );
    assert_eq!(
        r.post(
            &r.floor,
            &format!("/api/v1/cagnotte/dues/{}/exempt", ids[1]),
            json!({ "reason": "house guest" })
        )
        .await
        .status,
        200
    );
    assert_eq!(
        r.post(
            &r.dealer,
            &format!("/api/v1/tables/{}/tips", r.table),
            json!({ "amount": 500 })
        )
        .await
        .status,
        201
    );
    let rep = r.app.get("/api/v1/reports", &r.floor).await;
    assert_eq!(rep.status, 200, "{}", rep.text());
    let t = &rep.json()["totals"];
    assert_eq!(
        (
            t["due"].as_i64(),
            t["collected"].as_i64(),
            t["exempt"].as_i64(),
            t["difference"].as_i64()
        ),
        (Some(40_000), Some(10_000), Some(10_000), Some(20_000)),
        "{t}"
    );
    assert_eq!(t["tips"], 500);
    assert_eq!(t["hands"], 1);
    assert_eq!(r.app.get("/api/v1/reports", &r.dealer).await.status, 403);
    // A query value it cannot take is a refused field, like a body's.
    for (uri, field) in [
        ("/api/v1/reports?day=2026-13-40", "day"),
        ("/api/v1/reports?day=", "day"),
        ("/api/v1/reports?game=999999", "game"),
        ("/api/v1/reports?day=2026-11-20&month=2026-11", "month"),
    ] {
        let bad = r.app.get(uri, &r.floor).await;
        assert_eq!(bad.status, 422, "{uri}: {}", bad.text());
        assert_eq!(bad.json()["error"]["fields"][0]["field"], field, "{uri}");
    }
}

/// A buy-in looks for the seating's due (`cagnotte::on_buyin`) inside the room's write turn:
/// by an index (migration 000020), not by a scan of every due ever recorded — a table that
/// grows every night. Asked of each backend's planner; on PostgreSQL with table scans priced
/// out, so that an empty table does not decide the plan.
#[actix_web::test]
async fn a_buyins_due_is_found_by_an_index_not_a_scan() {
    let app = TestApp::new().await;
    let plan = app.plan_of("SELECT id FROM cagnotte_dues WHERE seating_id = 7 AND state = 'due'");
    assert!(
        plan.iter().any(|l| l.contains("cagnotte_dues_by_seating")),
        "{plan:?}"
    );
}
