//! PostgreSQL, several server processes on one database: two independent
//! `AppState`s — two pools, two writer threads doing group commit, as two processes would
//! have — race seatings at the same tables, seats and players. The rules that span tables
//! (BSOP 46: one seat per player; BSOP 47: separated players never at one table) and the
//! seat itself (one player per seat) must hold: the room's advisory lock serialises every
//! write transaction across processes. On SQLite (one process per file) these tests return
//! at once.

use crate::floor::eligible_players;
use crate::support::{is_postgres, Resp, TestApp};
use actix_web::test;
use diesel::prelude::*;
use serde_json::{json, Value};

async fn post_a(app: &TestApp, uri: &str, token: &str, body: Value) -> Resp {
    let req = test::TestRequest::post()
        .uri(uri)
        .insert_header(("Authorization", format!("Bearer {token}")))
        .set_json(body)
        .to_request();
    app.call(req).await
}

/// The open seatings of some tables: (table, seat, player).
fn open_seatings(app: &TestApp, tables: &[i64]) -> Vec<(i64, i32, i64)> {
    app.with_conn(|c| {
        use cardroom::db::schema::seatings::dsl::*;
        seatings
            .filter(left_at.is_null())
            .filter(table_id.eq_any(tables.to_vec()))
            .select((table_id, seat_no, player_id))
            .order((table_id, seat_no))
            .load(c)
            .unwrap()
    })
}

/// 3 tables of one game; 40 players, of whom 10 pairs are kept apart (BSOP 47). Every player
/// asks for two seats at once — one through each "process", at two different tables — and
/// every seat is asked for by several players, some of them separated pairs at one table.
#[actix_rt::test]
async fn two_processes_racing_seatings_keep_one_seat_per_player_one_player_per_seat_and_separations(
) {
    if !is_postgres() {
        return;
    }
    let a = TestApp::new().await;
    // The second "process": its own state (pool, writer thread) on the same database.
    let b = TestApp::builder().like(&a).start().await;

    let admin = a.admin_token().await;
    let g = json!({"name": "NL 2/5", "variant": "holdem_nl", "small_blind": 200, "big_blind": 500,
        "limit_class": "mid", "buy_in_min": 10000, "buy_in_max": 50000, "seats": 10});
    let r = post_a(&a, "/api/v1/games", &admin, g).await;
    assert_eq!(r.status, 201, "{}", r.text());
    let game = r.json()["id"].as_i64().unwrap();
    let mut tables = Vec::new();
    for n in 1..=3 {
        let r = post_a(
            &a,
            "/api/v1/tables",
            &admin,
            json!({"number": n, "game_id": game, "mode": "continuous"}),
        )
        .await;
        assert_eq!(r.status, 201, "{}", r.text());
        let t = r.json()["id"].as_i64().unwrap();
        let r = post_a(&a, &format!("/api/v1/tables/{t}/open"), &admin, json!({})).await;
        assert_eq!(r.status, 200, "{}", r.text());
        tables.push(t);
    }
    let p = eligible_players(&a, 40);
    let mut apart = Vec::new();
    for k in 0..10 {
        let (x, y) = (p[2 * k], p[2 * k + 1]);
        let r = post_a(
            &a,
            &format!("/api/v1/players/{x}/separations"),
            &admin,
            json!({"other_player_id": y, "reason": "family"}),
        )
        .await;
        assert_eq!(r.status, 201, "{}", r.text());
        apart.push((x, y));
    }

    // Player i asks process A for table (i / 2) % 3, seat i % 10 + 1 — a separated pair
    // (2k, 2k+1) asks for two neighbouring seats of one table — and process B for seat
    // (i + 5) % 10 + 1 of the next table.
    let mut requests = Vec::new();
    for (i, &player) in p.iter().enumerate() {
        for (via_b, table) in [
            (false, tables[(i / 2) % 3]),
            (true, tables[(i / 2 + 1) % 3]),
        ] {
            let seat = if via_b { (i + 5) % 10 + 1 } else { i % 10 + 1 };
            let req = test::TestRequest::post()
                .uri(&format!("/api/v1/tables/{table}/seats/{seat}"))
                .insert_header(("Authorization", format!("Bearer {admin}")))
                .set_json(json!({"player_id": player}))
                .to_request();
            requests.push((via_b, req));
        }
    }
    let answers = futures_util::future::join_all(requests.into_iter().map(|(via_b, req)| {
        let (a, b) = (&a, &b);
        async move {
            if via_b {
                let res = b.call_raw(req).await;
                let status = res.status().as_u16();
                let body = test::read_body(res).await;
                (status, String::from_utf8_lossy(&body).into_owned())
            } else {
                let r = a.call(req).await;
                (r.status, r.text())
            }
        }
    }))
    .await;
    let mut created = 0;
    for (status, body) in &answers {
        match status {
            201 => created += 1,
            409 => {}
            s => panic!("unexpected answer {s}: {body}"),
        }
    }
    let rows = open_seatings(&a, &tables);
    assert_eq!(
        rows.len(),
        created,
        "every 201 is one open seating, nothing else was written"
    );
    // One player per seat.
    let mut seats: Vec<(i64, i32)> = rows.iter().map(|r| (r.0, r.1)).collect();
    seats.dedup();
    assert_eq!(seats.len(), rows.len(), "a seat taken twice: {rows:?}");
    // One seat per player (BSOP 46), across both processes.
    let mut players: Vec<i64> = rows.iter().map(|r| r.2).collect();
    players.sort();
    players.dedup();
    assert_eq!(players.len(), rows.len(), "a player seated twice: {rows:?}");
    // Separated players never at one table (BSOP 47).
    for (x, y) in &apart {
        let tx = rows.iter().find(|r| r.2 == *x).map(|r| r.0);
        let ty = rows.iter().find(|r| r.2 == *y).map(|r| r.0);
        assert!(
            tx.is_none() || tx != ty,
            "separated players {x} and {y} both at table {tx:?}"
        );
    }
    assert!(
        created >= 20,
        "the race seated at least two thirds of the seats ({created})"
    );
    let seat_takes: i64 = a.with_conn(|c| {
        use cardroom::db::schema::audit_log::dsl::*;
        audit_log
            .filter(action.eq("seat.take"))
            .count()
            .get_result(c)
            .unwrap()
    });
    assert_eq!(
        seat_takes as usize, created,
        "each seating audited once, losers leave no trace"
    );
    drop(b);
}

/// The same 100-simultaneous-seatings race as `floor::a_hundred_simultaneous_seatings…`, the
/// requests split between two processes: each seat is filled exactly once.
#[actix_rt::test]
async fn a_hundred_seatings_split_between_two_processes_fill_each_seat_once() {
    if !is_postgres() {
        return;
    }
    let a = TestApp::new().await;
    let b = TestApp::builder().like(&a).start().await;
    let admin = a.admin_token().await;
    let g = json!({"name": "NL 1/2", "variant": "holdem_nl", "small_blind": 100, "big_blind": 200,
        "limit_class": "low", "buy_in_min": 4000, "buy_in_max": 20000, "seats": 10});
    let game = post_a(&a, "/api/v1/games", &admin, g).await.json()["id"]
        .as_i64()
        .unwrap();
    let table = post_a(
        &a,
        "/api/v1/tables",
        &admin,
        json!({"number": 1, "game_id": game, "mode": "continuous"}),
    )
    .await
    .json()["id"]
        .as_i64()
        .unwrap();
    assert_eq!(
        post_a(
            &a,
            &format!("/api/v1/tables/{table}/open"),
            &admin,
            json!({})
        )
        .await
        .status,
        200
    );
    let p = eligible_players(&a, 100);
    let answers = futures_util::future::join_all(p.iter().enumerate().map(|(i, id)| {
        let req = test::TestRequest::post()
            .uri(&format!("/api/v1/tables/{table}/seats/{}", (i % 10) + 1))
            .insert_header(("Authorization", format!("Bearer {admin}")))
            .set_json(json!({"player_id": id}))
            .to_request();
        let (a, b) = (&a, &b);
        async move {
            if i % 2 == 1 {
                b.call_raw(req).await.status().as_u16()
            } else {
                a.call(req).await.status
            }
        }
    }))
    .await;
    let created = answers.iter().filter(|s| **s == 201).count();
    let conflicts = answers.iter().filter(|s| **s == 409).count();
    assert_eq!((created, conflicts), (10, 90), "answers: {answers:?}");
    let rows = open_seatings(&a, &[table]);
    assert_eq!(
        rows.iter().map(|r| r.1).collect::<Vec<_>>(),
        (1..=10).collect::<Vec<_>>()
    );
    let mut players: Vec<i64> = rows.iter().map(|r| r.2).collect();
    players.sort();
    players.dedup();
    assert_eq!(players.len(), 10);
    drop(b);
}

/// Two "processes" writing at once, each batching its writes: a batch takes the room's turn,
/// then reads the counters and the audit trail's head once for its writes (`db::tail`), and
/// that read must see what the other process committed just before the turn was granted —
/// else numbers would be handed out twice. 2 × 60 writes of an audit record and an event
/// each: all succeed, the chain holds, the events are numbered without gaps. (Checked to fail
/// when the read ran with a snapshot taken before the lock wait.)
#[actix_rt::test]
async fn two_processes_writing_at_once_number_and_chain_every_record_once() {
    use cardroom::db::audit::{self, Actor};
    use cardroom::db::schema::events;
    use cardroom::error::AppError;
    if !is_postgres() {
        return;
    }
    let a = TestApp::new().await;
    let state_b = TestApp::builder().like(&a).build().state;
    let before = a.with_conn(|c| audit::verify(c).unwrap().records);
    let now = a.state.clock.now();
    let handles: Vec<_> = (0..120)
        .map(|i| {
            let db = if i % 2 == 0 {
                a.state.db.clone()
            } else {
                state_b.db.clone()
            };
            std::thread::spawn(move || {
                db.write_new(move |c| -> Result<(), AppError> {
                    let note = json!({ "write": i });
                    audit::record::<(), _>(
                        c,
                        now,
                        &Actor::system(),
                        "test.two_processes",
                        "test",
                        Some(i),
                        None,
                        Some(&note),
                    )?;
                    cardroom::services::floor::emit(c, now, None, "test.two_processes", &note)?;
                    Ok(())
                })
            })
        })
        .collect();
    for (i, h) in handles.into_iter().enumerate() {
        h.join()
            .expect("writer thread")
            .unwrap_or_else(|e| panic!("write {i} failed: {e:?}"));
    }
    a.with_conn(|c| {
        let report = audit::verify(c).unwrap();
        assert!(report.ok, "the chain holds: {report:?}");
        assert_eq!(report.records, before + 120);
        let seqs: Vec<i64> = events::table
            .order(events::seq.asc())
            .select(events::seq)
            .load(c)
            .unwrap();
        assert!(seqs.windows(2).all(|w| w[1] == w[0] + 1), "{seqs:?}");
        let ours: i64 = events::table
            .filter(events::kind.eq("test.two_processes"))
            .count()
            .get_result(c)
            .unwrap();
        assert_eq!(ours, 120);
    });
}
