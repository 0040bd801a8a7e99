//! Property test on the real services and database: for random sequences of joins, calls,
//! confirmations, direct seatings, leaves and removals, the floor's invariants always hold —
//! no player ever holds two seats (BSOP 46), no seat holds two players, and every list's
//! positions are 1..n without gaps or repeats (PT-2007 8a).

use crate::support::*;
use cardroom::db::audit::Actor;
use cardroom::db::schema::{seatings, waitlist_entries};
use cardroom::domain::ids::EntryId;
use cardroom::domain::ids::GameId;
use cardroom::domain::ids::PlayerId;
use cardroom::domain::ids::SeatCallId;
use cardroom::domain::ids::SeatingId;
use cardroom::domain::ids::TableId;
use cardroom::services::floor;
use diesel::prelude::*;
use proptest::prelude::*;

#[derive(Debug, Clone)]
enum Op {
    Join {
        player: usize,
        game: usize,
    },
    CallNext {
        table: usize,
        seat: i32,
    },
    ConfirmLatestCall,
    SeatDirectly {
        table: usize,
        seat: i32,
        player: usize,
    },
    Leave {
        nth: usize,
    },
    Remove {
        nth: usize,
    },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (0usize..12, 0usize..2).prop_map(|(player, game)| Op::Join { player, game }),
        3 => (0usize..3, 1i32..=4).prop_map(|(table, seat)| Op::CallNext { table, seat }),
        2 => Just(Op::ConfirmLatestCall),
        2 => (0usize..3, 1i32..=4, 0usize..12).prop_map(|(table, seat, player)| Op::SeatDirectly { table, seat, player }),
        2 => (0usize..20).prop_map(|nth| Op::Leave { nth }),
        1 => (0usize..20).prop_map(|nth| Op::Remove { nth }),
    ]
}

struct Room {
    app: TestApp,
    players: Vec<i64>,
    games: Vec<i64>,
    tables: Vec<i64>,
}

async fn room() -> Room {
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    let mut games = Vec::new();
    for (i, name) in ["NL 1/2", "PLO 2/5"].iter().enumerate() {
        let g = serde_json::json!({"name": name, "variant": if i == 0 { "holdem_nl" } else { "plo" }, "small_blind": 100, "big_blind": 200,
            "limit_class": "low", "buy_in_min": 4000, "buy_in_max": 20000});
        let r = app.send_json("POST", "/api/v1/games", &token, g).await;
        games.push(r.json()["id"].as_i64().unwrap());
    }
    let mut tables = Vec::new();
    for (n, g) in [(1, games[0]), (2, games[0]), (3, games[1])] {
        let t = serde_json::json!({"number": n, "game_id": g, "mode": "continuous", "seats": 4});
        let r = app.send_json("POST", "/api/v1/tables", &token, t).await;
        let id = r.json()["id"].as_i64().unwrap();
        app.with_conn(|c| {
            let act = cardroom::services::Acting::system(app.state.clock.now())
                .in_room(c)
                .expect("room");
            floor::open_table(c, &act, TableId(id)).unwrap()
        });
        tables.push(id);
    }
    let players = crate::pages::eligible_players(&app, 12);
    Room {
        app,
        players,
        games,
        tables,
    }
}

fn apply(r: &Room, op: &Op) {
    let app = &r.app;
    let now = app.state.clock.now();
    let sys = Actor::system();
    app.with_conn(|c| {
        // Refusals are expected; each action runs in its own transaction like a request.
        let _ = r
            .app
            .state
            .db
            .write(c, |c| -> Result<(), cardroom::error::AppError> {
                let act = cardroom::services::Acting::new(now, sys.clone()).in_room(c)?;
                match op {
                    Op::Join { player, game } => floor::join(
                        c,
                        &act,
                        GameId(r.games[*game]),
                        PlayerId(r.players[*player]),
                        false,
                    )
                    .map(|_| ()),
                    Op::CallNext { table, seat } => {
                        floor::call_next(c, &act, TableId(r.tables[*table]), *seat).map(|_| ())
                    }
                    Op::ConfirmLatestCall => {
                        use cardroom::db::schema::seat_calls;
                        let id: Option<i64> = seat_calls::table
                            .filter(seat_calls::state.eq("pending"))
                            .order(seat_calls::id.desc())
                            .select(seat_calls::id)
                            .first(c)
                            .optional()?;
                        match id {
                            Some(id) => floor::confirm_call(c, &act, SeatCallId(id)).map(|_| ()),
                            None => Ok(()),
                        }
                    }
                    Op::SeatDirectly {
                        table,
                        seat,
                        player,
                    } => floor::seat_directly(
                        c,
                        &act,
                        TableId(r.tables[*table]),
                        *seat,
                        PlayerId(r.players[*player]),
                    )
                    .map(|_| ()),
                    Op::Leave { nth } => {
                        let open: Vec<i64> = seatings::table
                            .filter(seatings::left_at.is_null())
                            .order(seatings::id.asc())
                            .select(seatings::id)
                            .load(c)?;
                        match open.get(nth % open.len().max(1)) {
                            Some(id) if !open.is_empty() => {
                                floor::leave(c, &act, SeatingId(*id), "left").map(|_| ())
                            }
                            _ => Ok(()),
                        }
                    }
                    Op::Remove { nth } => {
                        let active: Vec<i64> = waitlist_entries::table
                            .filter(waitlist_entries::state.eq_any(["waiting", "called"]))
                            .order(waitlist_entries::id.asc())
                            .select(waitlist_entries::id)
                            .load(c)?;
                        match active.get(nth % active.len().max(1)) {
                            Some(id) if !active.is_empty() => {
                                floor::remove(c, &act, EntryId(*id), "test").map(|_| ())
                            }
                            _ => Ok(()),
                        }
                    }
                }
            });
    });
}

fn check(r: &Room, history: &[Op]) {
    let app = &r.app;
    let open: Vec<(i64, i32, i64)> = app.with_conn(|c| {
        seatings::table
            .filter(seatings::left_at.is_null())
            .select((seatings::table_id, seatings::seat_no, seatings::player_id))
            .load(c)
            .unwrap()
    });
    let mut players: Vec<i64> = open.iter().map(|(_, _, p)| *p).collect();
    players.sort();
    let before = players.len();
    players.dedup();
    assert_eq!(
        players.len(),
        before,
        "BSOP 46: a player holds two seats after {history:?}"
    );
    let mut seats: Vec<(i64, i32)> = open.iter().map(|(t, s, _)| (*t, *s)).collect();
    seats.sort();
    let before = seats.len();
    seats.dedup();
    assert_eq!(
        seats.len(),
        before,
        "two players in one seat after {history:?}"
    );
    for g in &r.games {
        let lines =
            app.with_conn(|c| floor::list(c, None, GameId(*g), app.state.clock.now()).unwrap());
        let positions: Vec<usize> = lines.iter().map(|l| l.place.position).collect();
        assert_eq!(
            positions,
            (1..=lines.len()).collect::<Vec<_>>(),
            "PT-2007 8a: list order has a gap after {history:?}"
        );
        // The player's link counts its own place in the database (no list loaded): the same
        // place as the floor's list, for every entry.
        for l in &lines {
            let own = app.with_conn(|c| {
                floor::place_of(c, GameId(*g), l.entry.id, app.state.clock.now()).unwrap()
            });
            assert_eq!(own, Some(l.place), "entry {} after {history:?}", l.entry.id);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, .. ProptestConfig::default() })]
    #[test]
    fn bsop_46_pt2007_8a_floor_invariants_hold_for_any_sequence(ops in proptest::collection::vec(op(), 1..40)) {
        let rt = actix_web::rt::System::new();
        rt.block_on(async {
            let r = room().await;
            let mut history = Vec::new();
            for op in &ops {
                history.push(op.clone());
                apply(&r, op);
                check(&r, &history);
            }
        });
    }
}
