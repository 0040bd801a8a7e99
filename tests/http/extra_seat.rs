//! BSOP 50: «um supervisor pode decidir iniciar o jogo com um participante extra acima do
//! número normal de participantes. Nesse caso, um assento será removido assim que alguém sair
//! do jogo» — whoever leaves, by whatever path. A four-seat table is started by the draw with
//! five players (seats 1-4 and the extra seat 5); each test ends one seating by one path and
//! checks that the table is back to four places, every player in a numbered seat, no seat
//! offered, and the audit trail saying which seat went.

use crate::floor::{
    advance, join, leave, open_seatings, open_table, post, seats, table_state, waitlist,
};
use crate::support::*;
use serde_json::{json, Value};

/// A game of the given table policy, the four-seat table `a` started with an extra player
/// (five seated by the draw), and the four-seat table `b`: opened first and full when
/// `b_full` (then `a`, opened after it, is the game's must-move table under the must-move
/// policy), else opened empty after `a`.
struct Scene {
    admin: String,
    game: i64,
    a: i64,
    b: i64,
    /// The five at `a`, (seat, seating id, player id), by seat.
    at_a: Vec<(i64, i64, i64)>,
    /// The four at `b` (when full), (seat, seating id, player id), by seat.
    at_b: Vec<(i64, i64, i64)>,
}

impl Scene {
    fn seating_at_a(&self, seat: i64) -> i64 {
        self.at_a.iter().find(|s| s.0 == seat).unwrap().1
    }
    fn player_at_a(&self, seat: i64) -> i64 {
        self.at_a.iter().find(|s| s.0 == seat).unwrap().2
    }
}

async fn table(app: &TestApp, admin: &str, number: i32, game: i64) -> i64 {
    let r = post(
        app,
        "/api/v1/tables",
        admin,
        json!({"number": number, "game_id": game, "mode": "continuous", "seats": 4}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text());
    r.json()["id"].as_i64().unwrap()
}

/// (seat, seating id, player id) of everyone seated at `t`, by seat.
async fn seated(app: &TestApp, token: &str, t: i64) -> Vec<(i64, i64, i64)> {
    seats(app, token, t).await["seats"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["state"] == "seated")
        .map(|s| {
            (
                s["seat_no"].as_i64().unwrap(),
                s["seated"]["seating_id"].as_i64().unwrap(),
                s["seated"]["player_id"].as_i64().unwrap(),
            )
        })
        .collect()
}

async fn scene(app: &TestApp, policy: &str, b_full: bool) -> Scene {
    let admin = app.admin_token().await;
    let g = json!({"name": "NL 1/2", "variant": "holdem_nl", "small_blind": 100, "big_blind": 200,
        "limit_class": "low", "buy_in_min": 4000, "buy_in_max": 20000, "seats": 10,
        "table_policy": policy});
    let r = post(app, "/api/v1/games", &admin, g).await;
    assert_eq!(r.status, 201, "{}", r.text());
    let game = r.json()["id"].as_i64().unwrap();
    let a = table(app, &admin, 1, game).await;
    let b = table(app, &admin, 2, game).await;
    let players = crate::floor::eligible_players(app, 9);
    let mut at_b = Vec::new();
    if b_full {
        open_table(app, &admin, b).await;
        for (i, p) in players[5..].iter().enumerate() {
            crate::floor::seat(app, &admin, b, i as i32 + 1, *p).await;
        }
        at_b = seated(app, &admin, b).await;
        advance(app, &admin, 1).await;
    }
    for p in &players[..5] {
        join(app, &admin, game, *p, false).await;
    }
    open_table(app, &admin, a).await;
    let r = post(
        app,
        &format!("/api/v1/tables/{a}/draws"),
        &admin,
        json!({"kind": "seats_with_extra"}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text());
    if !b_full {
        open_table(app, &admin, b).await;
    }
    let at_a = seated(app, &admin, a).await;
    assert_eq!(
        at_a.iter().map(|s| s.0).collect::<Vec<_>>(),
        vec![1, 2, 3, 4, 5],
        "four seats and the extra one"
    );
    Scene {
        admin,
        game,
        a,
        b,
        at_a,
        at_b,
    }
}

fn extra_seat_of(app: &TestApp, t: i64) -> bool {
    use cardroom::db::schema::card_tables;
    use diesel::prelude::*;
    app.with_conn(|c| {
        card_tables::table
            .find(t)
            .select(card_tables::extra_seat)
            .first(c)
            .unwrap()
    })
}

/// The `table.extra_seat_removed` records' after-images.
fn removals(app: &TestApp) -> Vec<Value> {
    use cardroom::db::schema::audit_log;
    use diesel::prelude::*;
    app.with_conn(|c| {
        audit_log::table
            .filter(audit_log::action.eq("table.extra_seat_removed"))
            .select(audit_log::after_json)
            .load::<String>(c)
            .unwrap()
    })
    .iter()
    .map(|s| serde_json::from_str(s).unwrap())
    .collect()
}

/// The table is back to four places: the extra seat is gone from its row and from every
/// view of it; the four players left sit in seats 1-4 (the extra player, if still there, in
/// the seat freed); no seat can be called, and seat 5 is no seat at all; the audit trail says
/// seat 5 went and which seat was freed.
async fn back_to_four(app: &TestApp, s: &Scene, freed: i64, mover: Option<i64>) {
    assert!(!extra_seat_of(app, s.a), "the extra seat went");
    let view = seats(app, &s.admin, s.a).await;
    assert_eq!(view["table"]["extra_seat"], false, "{view}");
    let list = view["seats"].as_array().unwrap();
    assert_eq!(list.len(), 4, "four places: {view}");
    assert!(
        list.iter()
            .all(|x| x["state"] == "seated" && x["extra"] == false),
        "every place taken by the four left: {view}"
    );
    assert_eq!(view["seated"], 4, "{view}");
    if let Some(p) = mover {
        assert_eq!(open_seatings(app, p), vec![(s.a, freed as i32)]);
    }
    // Every player left is in the seat the API says, and none in seat 5.
    let at = seated(app, &s.admin, s.a).await;
    assert_eq!(at.iter().map(|x| x.0).collect::<Vec<_>>(), vec![1, 2, 3, 4]);
    // No seat is offered: calling for any of them is refused, and seat 5 does not exist.
    let before = app.audit_count();
    for n in 1..=4 {
        let r = post(
            app,
            &format!("/api/v1/tables/{}/seats/{n}/call-next", s.a),
            &s.admin,
            json!({}),
        )
        .await;
        assert_eq!(r.status, 409, "seat {n}: {}", r.text());
    }
    let r = post(
        app,
        &format!("/api/v1/tables/{}/seats/5/call-next", s.a),
        &s.admin,
        json!({}),
    )
    .await;
    assert_eq!(r.status, 422, "{}", r.text());
    assert_eq!(app.audit_count(), before, "nothing written");
    let r = removals(app);
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!(r[0]["removed_seat"], 5, "{:?}", r[0]);
    assert_eq!(r[0]["freed_seat"], freed, "{:?}", r[0]);
    assert!(
        r[0]["draw_id"].is_i64(),
        "the draw that added it: {:?}",
        r[0]
    );
    assert_eq!(
        r[0]["moved_player_id"],
        mover.map_or(Value::Null, Value::from),
        "{:?}",
        r[0]
    );
}

#[actix_web::test]
async fn bsop_50_the_extra_seat_is_in_every_view_of_the_table_while_it_lasts() {
    let app = TestApp::with_clock(true).await;
    let s = scene(&app, "balanced", false).await;
    let view = seats(&app, &s.admin, s.a).await;
    assert_eq!(view["seated"], 5);
    assert_eq!(view["table"]["seats"], 4);
    assert_eq!(view["table"]["extra_seat"], true);
    let list = view["seats"].as_array().unwrap();
    assert_eq!(list.len(), 5, "{view}");
    assert_eq!(list[4]["seat_no"], 5);
    assert_eq!(list[4]["extra"], true);
    assert_eq!(list[4]["state"], "seated");
    assert_eq!(list[4]["seated"]["player_id"], s.player_at_a(5));
    assert!(list[..4].iter().all(|x| x["extra"] == false));
    // The board, the table's tablet and the lobby show the fifth player too.
    let web = app.web_login("admin", ADMIN_PW).await;
    let board = app.floor_all(&web).await;
    let alias = |p: i64| format!("P{p}");
    assert!(board.contains(&alias(s.player_at_a(5))), "board");
    let dealer = app.staff_token("dealer1", "dealer").await;
    app.assign_dealer(&dealer, s.a).await;
    let tablet = app
        .get(&format!("/api/v1/tables/{}/side", s.a), &dealer)
        .await;
    assert_eq!(tablet.status, 200, "{}", tablet.text());
    let at_tablet: Vec<i64> = tablet.json()["seated"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["seat_no"].as_i64().unwrap())
        .collect();
    assert_eq!(
        at_tablet,
        vec![1, 2, 3, 4, 5],
        "the tablet: {}",
        tablet.text()
    );
    let lobby = app.page("/lobby/live", &web).await;
    assert_eq!(lobby.status, 200);
    assert!(
        !lobby.text().contains("free seat"),
        "no free seat at a full table: {}",
        lobby.text()
    );
}

#[actix_web::test]
async fn bsop_50_a_player_leaving_gives_the_extra_player_their_seat() {
    let app = TestApp::with_clock(true).await;
    let s = scene(&app, "balanced", false).await;
    let mover = s.player_at_a(5);
    leave(&app, &s.admin, s.seating_at_a(2)).await;
    back_to_four(&app, &s, 2, Some(mover)).await;
}

#[actix_web::test]
async fn bsop_50_the_extra_player_leaving_takes_the_extra_seat_with_them() {
    let app = TestApp::with_clock(true).await;
    let s = scene(&app, "balanced", false).await;
    leave(&app, &s.admin, s.seating_at_a(5)).await;
    back_to_four(&app, &s, 5, None).await;
}

#[actix_web::test]
async fn bsop_50_a_cash_out_at_the_table_removes_the_extra_seat() {
    let app = TestApp::with_clock(true).await;
    let s = scene(&app, "balanced", false).await;
    let dealer = app.staff_token("dealer1", "dealer").await;
    app.assign_dealer(&dealer, s.a).await;
    let r = post(
        &app,
        &format!("/api/v1/seatings/{}/cash-out", s.seating_at_a(3)),
        &dealer,
        json!({"stack": 0}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
    back_to_four(&app, &s, 3, Some(s.player_at_a(5))).await;
}

#[actix_web::test]
async fn bsop_50_a_player_removed_for_absence_frees_their_seat_for_the_extra_player() {
    let app = TestApp::with_clock(true).await;
    let s = scene(&app, "balanced", false).await;
    let dealer = app.staff_token("dealer1", "dealer").await;
    app.assign_dealer(&dealer, s.a).await;
    let floor = app.staff_token("floor1", "floor").await;
    let seating = s.seating_at_a(1);
    let r = post(
        &app,
        &format!("/api/v1/seatings/{seating}/away"),
        &dealer,
        json!({}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
    advance(&app, &s.admin, 16).await;
    let r = post(
        &app,
        &format!("/api/v1/seatings/{seating}/removal"),
        &dealer,
        json!({"amount": 10000, "storage": "Box 1"}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let custody = r.json()["id"].as_i64().unwrap();
    let r = post(
        &app,
        &format!("/api/v1/custody/{custody}/confirm"),
        &floor,
        json!({"amount": 10000}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
    back_to_four(&app, &s, 1, Some(s.player_at_a(5))).await;
}

#[actix_web::test]
async fn bsop_50_a_transfer_to_another_table_removes_the_extra_seat() {
    let app = TestApp::with_clock(true).await;
    let s = scene(&app, "balanced", false).await;
    let moving = s.player_at_a(1);
    let r = post(
        &app,
        &format!("/api/v1/seatings/{}/transfer", s.seating_at_a(1)),
        &s.admin,
        json!({"table_id": s.b}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text());
    assert_eq!(open_seatings(&app, moving), vec![(s.b, 1)]);
    back_to_four(&app, &s, 1, Some(s.player_at_a(5))).await;
}

#[actix_web::test]
async fn bsop_50_a_transfer_with_the_stack_removes_the_extra_seat() {
    let app = TestApp::with_clock(true).await;
    let s = scene(&app, "balanced", false).await;
    let dealer = app.staff_token("dealer1", "dealer").await;
    app.assign_dealer(&dealer, s.a).await;
    let r = post(
        &app,
        &format!("/api/v1/seatings/{}/transfer-with-stack", s.seating_at_a(4)),
        &dealer,
        json!({"table_id": s.b, "stack": 5000}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text());
    back_to_four(&app, &s, 4, Some(s.player_at_a(5))).await;
}

#[actix_web::test]
async fn bsop_50_a_move_into_a_seat_held_elsewhere_removes_the_extra_seat() {
    let app = TestApp::with_clock(true).await;
    let s = scene(&app, "balanced", false).await;
    let moving = s.player_at_a(2);
    let r = post(
        &app,
        &format!("/api/v1/tables/{}/seats/3/hold", s.b),
        &s.admin,
        json!({"player_id": moving}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let r = post(
        &app,
        &format!("/api/v1/tables/{}/seats/3", s.b),
        &s.admin,
        json!({"player_id": moving}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text());
    assert_eq!(open_seatings(&app, moving), vec![(s.b, 3)]);
    back_to_four(&app, &s, 2, Some(s.player_at_a(5))).await;
}

#[actix_web::test]
async fn bsop_50_a_must_move_player_moving_to_the_main_game_removes_the_extra_seat() {
    let app = TestApp::with_clock(true).await;
    let s = scene(&app, "must_move", true).await;
    assert_eq!(
        seats(&app, &s.admin, s.a).await["table"]["must_move"],
        true,
        "the table started with the extra player is the newer: the must-move table"
    );
    // A main-game seat frees up: the first must-move player in list order is called to it.
    leave(&app, &s.admin, s.at_b[1].1).await;
    let call = crate::floor::call_next(&app, &s.admin, s.b, 2).await;
    assert_eq!(call["source"], "must_move", "{call}");
    let moving = call["player_id"].as_i64().unwrap();
    let (freed, seating, _) = *s.at_a.iter().find(|x| x.2 == moving).unwrap();
    let r = post(
        &app,
        &format!("/api/v1/seat-calls/{}/seat", call["id"]),
        &s.admin,
        json!({}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text());
    assert_eq!(open_seatings(&app, moving), vec![(s.b, 2)]);
    assert_eq!(
        crate::floor::left_reason_of(&app, seating).as_deref(),
        Some("must-move")
    );
    let mover = (freed != 5).then(|| s.player_at_a(5));
    back_to_four(&app, &s, freed, mover).await;
}

#[actix_web::test]
async fn bsop_50_a_refused_must_move_removes_the_extra_seat() {
    let app = TestApp::with_clock(true).await;
    let s = scene(&app, "must_move", true).await;
    let refusing = s.seating_at_a(3);
    let r = post(
        &app,
        &format!("/api/v1/seatings/{refusing}/refuse-must-move"),
        &s.admin,
        json!({"choice": "give_up"}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text());
    back_to_four(&app, &s, 3, Some(s.player_at_a(5))).await;
}

/// Nothing but the extra seat's own rule gives a table more players than places: a call,
/// a seating or a transfer to a full table is refused, nothing written (BSOP 50).
#[actix_web::test]
async fn bsop_50_nothing_seats_more_players_than_the_places_and_a_refusal_writes_nothing() {
    let app = TestApp::with_clock(true).await;
    let s = scene(&app, "balanced", false).await;
    let extra = crate::floor::eligible_players(&app, 1)[0];
    join(&app, &s.admin, s.game, extra, false).await;
    let before = app.audit_count();
    for seat in 1..=5 {
        let r = post(
            &app,
            &format!("/api/v1/tables/{}/seats/{seat}/call-next", s.a),
            &s.admin,
            json!({}),
        )
        .await;
        assert_eq!(r.status, 409, "seat {seat}: {}", r.text());
        let r = post(
            &app,
            &format!("/api/v1/tables/{}/seats/{seat}", s.a),
            &s.admin,
            json!({"player_id": extra}),
        )
        .await;
        assert_eq!(r.status, 409, "seat {seat}: {}", r.text());
    }
    // A sixth seat is no seat.
    let r = post(
        &app,
        &format!("/api/v1/tables/{}/seats/6/call-next", s.a),
        &s.admin,
        json!({}),
    )
    .await;
    assert_eq!(r.status, 422, "{}", r.text());
    // A second draw with an extra player at a full table: refused.
    let r = post(
        &app,
        &format!("/api/v1/tables/{}/draws", s.a),
        &s.admin,
        json!({"kind": "seats_with_extra"}),
    )
    .await;
    assert!(r.status == 409 || r.status == 422, "{}", r.text());
    assert_eq!(app.audit_count(), before, "nothing written");
    assert_eq!(seats(&app, &s.admin, s.a).await["seated"], 5);
    assert_eq!(table_state(&app, &s.admin, s.a).await, "running");
    let list = waitlist(&app, &s.admin, s.game).await;
    assert_eq!(crate::floor::lines(&list).len(), 1, "{list}");
}
