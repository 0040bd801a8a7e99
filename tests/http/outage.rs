//! PostgreSQL outages: the database stops, or restarts as a failover would, while
//! the room is working. Every answer meanwhile is a 503 with `Retry-After` (JSON under
//! `/api`, a page elsewhere; never a 500), and once the database is back the same process —
//! not restarted — serves normally within seconds: broken connections are replaced, the
//! scheduler and the message worker act again, the push hub's `LISTEN` connection comes back
//! and a stream resumes from its `Last-Event-ID`. A write cut by the restart is answered 503
//! or committed, never half-done.
//!
//! Each test stops and starts a PostgreSQL cluster of its own (`tests/support/pg_cluster.rs`),
//! so the shared cluster of the suite is never disturbed. They run in the PostgreSQL run of
//! the suite (`CARDROOM_TEST_DB=postgres`); elsewhere they say they were skipped.

use crate::pg_cluster::PgCluster;
use crate::push::{last_seq, room, seqs_after, Sse};
use crate::support::{is_postgres, player_json, Resp, TestApp, ADMIN_PW};
use actix_web::test::TestRequest;
use diesel::prelude::*;
use serde_json::{json, Value};
use std::sync::atomic::Ordering::Relaxed;
use std::time::{Duration, Instant};

/// The promise: serving normally within 5 s of the database being back.
const RECOVERY: Duration = Duration::from_secs(5);
/// A guard against waiting forever (never a timing assertion).
const PATIENCE: Duration = Duration::from_secs(20);

/// A cluster of this test's own, or `None` (skipped) outside the PostgreSQL run.
fn own_cluster(db: &str) -> Option<(PgCluster, String)> {
    if !is_postgres() {
        eprintln!("skipped: PostgreSQL only (CARDROOM_TEST_DB=postgres)");
        return None;
    }
    let pg = PgCluster::start(&[("fsync", "off"), ("synchronous_commit", "off")])
        .expect("a PostgreSQL cluster of the test's own");
    let url = pg.create_database(db).expect("create database");
    Some((pg, url))
}

/// Runs a blocking cluster operation (pg_ctl) off the test's thread, so requests can go on
/// while it runs.
async fn off_thread<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    tokio::task::spawn_blocking(f)
        .await
        .expect("cluster operation")
}

fn is_503_with_retry(r: &Resp) -> bool {
    r.status == 503
        && r.header("retry-after")
            .is_some_and(|v| v.parse::<u32>().is_ok_and(|s| (1..=30).contains(&s)))
}

async fn new_player(app: &TestApp, token: &str, doc: &str) -> Resp {
    app.send_json("POST", "/api/v1/players", token, player_json(doc))
        .await
}

async fn login(app: &TestApp) -> Resp {
    app.call(
        TestRequest::post()
            .uri("/api/v1/auth/login")
            .set_json(json!({"username": "admin", "password": ADMIN_PW}))
            .to_request(),
    )
    .await
}

async fn healthz(app: &TestApp) -> u16 {
    app.call(TestRequest::get().uri("/healthz").to_request())
        .await
        .status
}

/// A player who gets their messages by SMS (the test's sink transport "sends" them).
fn sms_player(app: &TestApp, doc: &str) -> i64 {
    let now = app.state.clock.now();
    let photo =
        cardroom::services::photo::process(&cardroom::services::photo::generated_portrait(9))
            .unwrap();
    let input = cardroom::domain::player::PlayerInput {
        full_name: "Rita Mensagem".into(),
        date_of_birth: chrono::NaiveDate::from_ymd_opt(1980, 1, 1).unwrap(),
        doc_kind: cardroom::domain::player::DocumentKind::Passport,
        doc_number: doc.into(),
        doc_country: "PT".into(),
        doc_expiry: chrono::NaiveDate::from_ymd_opt(2035, 1, 1).unwrap(),
        phone: Some("+351912000111".into()),
        email: None,
        language: cardroom::domain::player::Language::Pt,
        notify: cardroom::domain::player::NotifyPref::Sms,
        alias: "Rita".into(),
    };
    app.with_conn(|c| {
        let act = cardroom::services::Acting::system(now)
            .in_room(c)
            .expect("room");
        cardroom::services::players::create(c, &act, &input, Some(&photo))
            .unwrap()
            .0
            .id
            .get()
    })
}

fn call_state(app: &TestApp, id: i64) -> String {
    use cardroom::db::schema::seat_calls::dsl as s;
    app.with_conn(|c| {
        s::seat_calls
            .find(id)
            .select(s::state)
            .first::<String>(c)
            .unwrap()
    })
}

fn messages_sent_to(app: &TestApp, player: i64) -> i64 {
    use cardroom::db::schema::outbox::dsl as o;
    app.with_conn(|c| {
        o::outbox
            .filter(o::player_id.eq(player))
            .filter(o::status.eq("sent"))
            .count()
            .get_result(c)
            .unwrap()
    })
}

#[actix_web::test]
async fn a_postgresql_outage_is_answered_503_and_the_same_process_serves_again_once_it_is_back() {
    let Some((pg, url)) = own_cluster("cardroom_outage") else {
        return;
    };
    let app = TestApp::on_url(&url, true).await;
    // The scheduler and the message worker, as `cardroom serve` runs them.
    cardroom::app::spawn_scheduler(app.state.clone());
    let (token, admin) = room(&app, 3).await;

    // A stream follows the floor (its hub listens on PostgreSQL), and a seat call waits for
    // its answer: its window will run out while the database is down.
    let start = last_seq(&app);
    let req = TestRequest::get()
        .uri(&format!("/floor/stream?since={start}"))
        .cookie(admin.c())
        .to_request();
    let mut stream = Sse::open(app.call_raw(req).await).await;
    let deadline = Instant::now() + PATIENCE;
    while app.state.push.receivers() < 1 || app.state.push.stats().listens.load(Relaxed) < 1 {
        assert!(
            Instant::now() < deadline,
            "the stream's hub did not start listening"
        );
        stream.pump(Duration::from_millis(20)).await;
    }
    let call = app
        .send_json(
            "POST",
            "/api/v1/tables/1/seats/1/call-next",
            &token,
            json!({}),
        )
        .await;
    assert_eq!(call.status, 201, "{}", call.text());
    let call_id = call.json()["id"].as_i64().unwrap();
    assert!(
        stream
            .read_to(*seqs_after(&app, start, None).last().unwrap())
            .await,
        "{}",
        stream.text
    );
    assert_eq!(new_player(&app, &token, "OUT0001").await.status, 201);
    assert_eq!(healthz(&app).await, 200);

    // ---- the database stops -------------------------------------------------------------
    let mut pg = off_thread(move || {
        let mut pg = pg;
        pg.stop("fast").expect("stop PostgreSQL");
        pg
    })
    .await;

    let mut answers: Vec<(String, Resp)> = Vec::new();
    for i in 0..3 {
        let t = Instant::now();
        let r = new_player(&app, &token, &format!("DOWN{i:04}")).await;
        // Not a hard timing assertion: an outage must not hold requests for the pool's 10 s.
        assert!(
            t.elapsed() < Duration::from_secs(8),
            "a request in the outage waited {:?}",
            t.elapsed()
        );
        answers.push(("POST /api/v1/players".into(), r));
        answers.push((
            "GET /api/v1/tables/1/seats".into(),
            app.get("/api/v1/tables/1/seats", &token).await,
        ));
        answers.push(("POST /api/v1/auth/login".into(), login(&app).await));
    }
    for (what, r) in &answers {
        assert!(
            is_503_with_retry(r),
            "{what} while the database is down: {} {:?} {}",
            r.status,
            r.header("retry-after"),
            r.text()
        );
        assert_eq!(
            r.json()["error"]["code"],
            "unavailable",
            "{what}: {}",
            r.text()
        );
        // The id to quote to whoever reads the logs.
        let id = r.header("x-request-id").expect("X-Request-Id");
        assert_eq!(r.json()["error"]["request_id"], id.as_str(), "{what}");
    }
    // Someone at the floor's desk: a page in their language, not a JSON error or a 500.
    let page = app
        .call(
            TestRequest::get()
                .uri("/floor")
                .cookie(admin.c())
                .insert_header(("Accept-Language", "pt-PT"))
                .to_request(),
        )
        .await;
    assert!(
        is_503_with_retry(&page),
        "page: {} {}",
        page.status,
        page.text()
    );
    assert!(page
        .header("content-type")
        .unwrap_or_default()
        .starts_with("text/html"));
    assert!(
        page.text().contains("A base de dados não está a responder"),
        "{}",
        page.text()
    );
    assert!(
        page.text().contains(&page.header("x-request-id").unwrap()),
        "the page shows the request's reference"
    );
    let h = app
        .call(TestRequest::get().uri("/healthz").to_request())
        .await;
    assert!(is_503_with_retry(&h), "healthz: {} {}", h.status, h.text());
    // Down for a while.
    stream.pump(Duration::from_millis(1500)).await;

    // ---- the database is back ---------------------------------------------------------------
    pg = off_thread(move || {
        pg.start_again().expect("start PostgreSQL again");
        pg
    })
    .await;
    let back = Instant::now();
    let mut n = 0;
    loop {
        n += 1;
        let p = new_player(&app, &token, &format!("BACK{n:04}")).await;
        let (l, h) = (login(&app).await, healthz(&app).await);
        assert!(
            p.status != 500 && l.status != 500 && h != 500,
            "a 500 after the database came back: {} {} {}",
            p.status,
            l.status,
            h
        );
        if p.status == 201 && l.status == 200 && h == 200 {
            break;
        }
        assert!(back.elapsed() < RECOVERY, "not serving {RECOVERY:?} after the database came back: player {} {}, login {}, healthz {h}", p.status, p.text(), l.status);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let recovered = back.elapsed();
    // And then every request goes through: the dead connections have all been replaced.
    for i in 0..20 {
        let r = new_player(&app, &token, &format!("AFTER{i:04}")).await;
        assert_eq!(
            r.status,
            201,
            "request {i} after the recovery: {}",
            r.text()
        );
        assert_eq!(app.get("/api/v1/tables/1/seats", &token).await.status, 200);
    }

    // The scheduler acts again: the call's response window runs out (test clock).
    let r = app
        .send_json(
            "POST",
            "/api/v1/test/clock/advance",
            &token,
            json!({"minutes": 30}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(
        call_state(&app, call_id),
        "pending",
        "the call waits for its player"
    );
    while ["pending", "acknowledged"].contains(&call_state(&app, call_id).as_str()) {
        assert!(
            back.elapsed() < RECOVERY + Duration::from_secs(2),
            "the scheduler did not resume: the call is still open"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // The message worker sends again: a player joins now, and their SMS goes out.
    let rita = sms_player(&app, "OUTSMS01");
    let r = app
        .send_json(
            "POST",
            "/api/v1/games/1/waitlist",
            &token,
            json!({"player_id": rita}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let t = Instant::now();
    while messages_sent_to(&app, rita) == 0 {
        assert!(t.elapsed() < RECOVERY, "the message worker did not resume");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // The hub listens again, and the floor's stream has everything committed, in order, once:
    // if the server ended it in the outage, the browser reconnects with the last id it had.
    while app.state.push.stats().listens.load(Relaxed) < 2 {
        assert!(
            back.elapsed() < PATIENCE,
            "the push hub's listener did not reconnect"
        );
        stream.pump(Duration::from_millis(50)).await;
    }
    let all = seqs_after(&app, start, None);
    let mut got = stream.ids();
    if !stream.ended {
        assert!(
            stream.read_to(*all.last().unwrap()).await || stream.ended,
            "the stream did not catch up: {}",
            stream.text
        );
        got = stream.ids();
    }
    if stream.ended {
        let last = got.last().copied().unwrap_or(start);
        let req = TestRequest::get()
            .uri("/floor/stream")
            .cookie(admin.c())
            .insert_header(("Last-Event-ID", last.to_string()))
            .to_request();
        let mut again = Sse::open(app.call_raw(req).await).await;
        assert!(
            again.read_to(*all.last().unwrap()).await,
            "the reconnected stream did not catch up: {}",
            again.text
        );
        again.pump(Duration::from_millis(300)).await;
        got.extend(again.ids());
    } else {
        stream.pump(Duration::from_millis(300)).await;
        got = stream.ids();
    }
    assert_eq!(got, all, "events across the outage: in order, once");
    // A tablet that had the events up to the outage's start resumes from there.
    let req = TestRequest::get()
        .uri("/floor/stream")
        .cookie(admin.c())
        .insert_header(("Last-Event-ID", start.to_string()))
        .to_request();
    let mut again = Sse::open(app.call_raw(req).await).await;
    assert!(again.read_to(*all.last().unwrap()).await, "{}", again.text);
    assert_eq!(again.ids(), all);
    eprintln!("stream ended in the outage: {}", stream.ended);
    eprintln!(
        "serving again {recovered:?} after PostgreSQL was back ({} attempts)",
        n
    );
    drop(pg);
}

/// What a POST /api/v1/players answered, for a document number.
struct Attempt {
    doc: String,
    status: u16,
    id: Option<i64>,
}

#[actix_web::test]
async fn a_failover_restart_in_the_middle_of_writes_leaves_each_write_answered_503_or_committed_never_half_done(
) {
    let Some((pg, url)) = own_cluster("cardroom_failover") else {
        return;
    };
    let app = TestApp::on_url(&url, false).await;
    let token = app.admin_token().await;
    let pg = std::sync::Arc::new(std::sync::Mutex::new(pg));

    let mut attempts: Vec<Attempt> = Vec::new();
    let mut restarts = 0;
    let mut k = 0usize;
    let began = Instant::now();
    // Three restarts, and more (up to twelve) until at least one write was caught by one: on a
    // fast or a slow machine a restart may fall between two batches of writes.
    while restarts < 3 || (restarts < 12 && !attempts.iter().any(|a| a.status == 503)) {
        // `pg_ctl restart -m fast` a moment after eight writes are sent together.
        let p = pg.clone();
        let delay = Duration::from_millis(15 + 20 * (restarts % 4));
        let restart = tokio::task::spawn_blocking(move || {
            std::thread::sleep(delay);
            p.lock()
                .unwrap()
                .restart("fast")
                .expect("pg_ctl restart -m fast");
        });
        let t = Instant::now();
        while !restart.is_finished() || t.elapsed() < Duration::from_millis(300) {
            let docs: Vec<String> = (0..8).map(|i| format!("FO{:06}", k + i)).collect();
            k += 8;
            let rs =
                futures_util::future::join_all(docs.iter().map(|d| new_player(&app, &token, d)))
                    .await;
            for (doc, r) in docs.into_iter().zip(rs) {
                let id = (r.status == 201).then(|| r.json()["player"]["id"].as_i64().unwrap());
                attempts.push(Attempt {
                    doc,
                    status: r.status,
                    id,
                });
            }
            assert!(
                began.elapsed() < Duration::from_secs(240),
                "the restarts did not finish"
            );
        }
        restart.await.unwrap();
        restarts += 1;
        // Serving again before the next round.
        let back = Instant::now();
        while new_player(
            &app,
            &token,
            &format!("FOB{restarts}{:04}", back.elapsed().as_millis()),
        )
        .await
        .status
            != 201
        {
            assert!(
                back.elapsed() < RECOVERY,
                "not serving {RECOVERY:?} after the restart"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    let odd: Vec<String> = attempts
        .iter()
        .filter(|a| a.status != 201 && a.status != 503)
        .map(|a| format!("{} → {}", a.doc, a.status))
        .collect();
    assert!(
        odd.is_empty(),
        "every write is answered 201 or 503: {odd:?}"
    );
    let cut = attempts.iter().filter(|a| a.status == 503).count();
    assert!(
        cut > 0,
        "no write was cut by the restarts ({} attempts): the test did not test anything",
        attempts.len()
    );

    // Each acknowledged write is there; each one cut is there whole or not at all.
    #[derive(QueryableByName)]
    struct Row {
        #[diesel(sql_type = diesel::sql_types::Text)]
        doc_number: String,
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        id: i64,
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        audited: i64,
    }
    let rows: Vec<Row> = app.with_conn(|c| {
        diesel::sql_query(
            "SELECT p.doc_number, p.id, (SELECT COUNT(*) FROM audit_log a WHERE a.subject_kind = 'player' AND a.subject_id = p.id) AS audited \
             FROM players p",
        )
        .load(c)
        .unwrap()
    });
    let by_doc: std::collections::HashMap<&str, &Row> =
        rows.iter().map(|r| (r.doc_number.as_str(), r)).collect();
    for a in &attempts {
        match (a.status, by_doc.get(a.doc.as_str())) {
            (201, Some(r)) => assert_eq!(Some(r.id), a.id, "{}", a.doc),
            (201, None) => panic!(
                "{} was acknowledged (201) but is not in the database",
                a.doc
            ),
            _ => {}
        }
    }
    let unaudited: Vec<&str> = rows
        .iter()
        .filter(|r| r.audited == 0)
        .map(|r| r.doc_number.as_str())
        .collect();
    assert!(
        unaudited.is_empty(),
        "players written without their audit record (half-done): {unaudited:?}"
    );
    let chain = app.with_conn(|c| cardroom::services::audit::verify_chain(c).unwrap());
    let v: Value = serde_json::to_value(&chain).unwrap_or(Value::Null);
    assert!(chain.ok, "the audit chain after the restarts: {v}");
    eprintln!(
        "{} writes across {restarts} restarts: {} committed, {cut} answered 503 ({} of those committed all the same)",
        attempts.len(),
        attempts.iter().filter(|a| a.status == 201).count(),
        attempts.iter().filter(|a| a.status == 503 && by_doc.contains_key(a.doc.as_str())).count()
    );
}

#[actix_web::test]
async fn a_pool_larger_than_postgresql_allows_stops_the_start_with_both_numbers() {
    if !is_postgres() {
        eprintln!("skipped: PostgreSQL only (CARDROOM_TEST_DB=postgres)");
        return;
    }
    let pg = PgCluster::start(&[("fsync", "off"), ("max_connections", "20")])
        .expect("a PostgreSQL cluster of the test's own");
    let url = pg
        .create_database("cardroom_pool")
        .expect("create database");
    let mut settings = cardroom::config::Settings::default();
    settings.database.url = url.clone();
    settings.database.pool_size = 40;
    let config = settings.validate().expect("valid settings");
    // Built by hand: the test is about `build_state` refusing a pool the server cannot hold.
    let err = match cardroom::app::build_state(config) {
        Ok(_) => panic!("a pool of 40 on a server that allows 17 connections started"),
        Err(e) => e.to_string(),
    };
    assert!(
        err.contains("CARDROOM_POOL_SIZE = 40")
            && err.contains("max_connections = 20")
            && err.contains("allows 17"),
        "{err}"
    );
    // A pool that fits starts.
    let mut settings = cardroom::config::Settings::default();
    settings.database.url = url;
    settings.database.pool_size = 8;
    settings.security.admin_password = Some(ADMIN_PW.into());
    let config = settings.validate().expect("valid settings");
    // Built by hand, as above: `build_state` itself on a server of the test's own settings.
    assert!(cardroom::app::build_state(config).is_ok());
}

#[actix_web::test]
async fn a_statement_postgresql_cancels_is_answered_503_and_changes_nothing() {
    let Some((_pg, url)) = own_cluster("cardroom_timeout") else {
        return;
    };
    // Statements that wait for a lock give up after 300 ms. Set before the app opens its
    // first connection, so every pooled connection starts with it. (Cutting live
    // connections instead raced: a backend leaves pg_stat_activity before its socket is
    // closed, so a probe could still find the connection open.)
    let mut admin = diesel::PgConnection::establish(&url).unwrap();
    diesel::sql_query("ALTER DATABASE cardroom_timeout SET lock_timeout = '300ms'")
        .execute(&mut admin)
        .unwrap();
    let app = TestApp::on_url(&url, false).await;
    let token = app.admin_token().await;
    assert_eq!(new_player(&app, &token, "TMO0001").await.status, 201);
    // Someone holds the players' table (a long maintenance job).
    let before = app.count("players");
    let audit_before = app.audit_count();
    diesel::sql_query("BEGIN").execute(&mut admin).unwrap();
    diesel::sql_query("LOCK TABLE players IN ACCESS EXCLUSIVE MODE")
        .execute(&mut admin)
        .unwrap();
    let r = new_player(&app, &token, "TMO0002").await;
    assert!(
        is_503_with_retry(&r),
        "a write cancelled by lock_timeout: {} {}",
        r.status,
        r.text()
    );
    assert_eq!(r.json()["error"]["code"], "unavailable");
    diesel::sql_query("COMMIT").execute(&mut admin).unwrap();
    assert_eq!(
        app.count("players"),
        before,
        "the cancelled write left nothing"
    );
    assert_eq!(app.audit_count(), audit_before);
    assert_eq!(
        new_player(&app, &token, "TMO0002").await.status,
        201,
        "the same write, once the lock is gone"
    );
}
