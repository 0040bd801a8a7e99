//! The room's write path (`Db::write_new`): on SQLite, writes waiting at the same moment share
//! one transaction (group commit), each in its own savepoint. A write that fails or panics is
//! undone alone; every other write commits and gets its own answer. (PostgreSQL batches its
//! writes the same way, under the room's advisory lock; the same outcomes hold.)

use crate::support::TestApp;
use cardroom::db::models::Channel;
use cardroom::db::schema::settings;
use cardroom::error::AppError;
use diesel::prelude::*;

fn key(i: usize) -> String {
    format!("test.write.{i:03}")
}

/// The keys the writes of these tests stored, in order.
fn stored_keys(app: &TestApp) -> Vec<String> {
    app.with_conn(|c| {
        settings::table
            .filter(settings::key.like("test.write.%"))
            .order(settings::key.asc())
            .select(settings::key)
            .load(c)
            .unwrap()
    })
}

/// Runs `n` writes at once, write `i` from a thread of its own through `Db::write_new` (so
/// they meet in the writer thread's batches), and gives back each caller's answer, in order.
fn at_once(
    db: &cardroom::db::Db,
    n: usize,
    write: impl Fn(usize, &mut cardroom::db::DbConn) -> Result<usize, AppError> + Clone + Send + 'static,
) -> Vec<Result<usize, AppError>> {
    let handles: Vec<_> = (0..n)
        .map(|i| {
            let (db, write) = (db.clone(), write.clone());
            std::thread::spawn(move || db.write_new(move |c| write(i, c)))
        })
        .collect();
    handles
        .into_iter()
        .map(|h| h.join().expect("the caller's thread does not panic"))
        .collect()
}

/// 64 writers at once; every third one writes and then fails, every seventh panics after
/// writing. Exactly the others' rows are there, and each caller got its own outcome.
#[actix_web::test]
async fn a_failed_or_panicking_write_is_undone_alone_and_the_others_commit() {
    let app = TestApp::new().await;
    let db = app.state.db.clone();
    let n = 64;
    let answers = at_once(&db, n, move |i, c| {
        diesel::insert_into(settings::table)
            .values((settings::key.eq(key(i)), settings::value.eq(i.to_string())))
            .execute(c)?;
        if i % 7 == 0 {
            panic!("write {i} panics after writing");
        }
        if i % 3 == 0 {
            return Err(AppError::field("value", "err-required"));
        }
        Ok(i)
    });
    let mut ok = Vec::new();
    for (i, answer) in answers.into_iter().enumerate() {
        match answer {
            Ok(v) => {
                assert_eq!(v, i, "each caller gets its own answer");
                ok.push(i);
            }
            Err(AppError::Validation(_)) => assert!(
                i % 3 == 0 && i % 7 != 0,
                "write {i} failed validation unexpectedly"
            ),
            Err(AppError::Internal(m)) => {
                assert!(i % 7 == 0, "write {i}: unexpected internal error {m}")
            }
            Err(e) => panic!("write {i}: unexpected {e:?}"),
        }
    }
    let expected: Vec<usize> = (0..n).filter(|i| i % 3 != 0 && i % 7 != 0).collect();
    assert_eq!(ok, expected);
    let stored = stored_keys(&app);
    assert_eq!(
        stored,
        expected.iter().map(|&i| key(i)).collect::<Vec<_>>(),
        "only the writes that succeeded are stored"
    );
}

/// A write that panics inside a savepoint of its own (`db::savepoint`, as joining several
/// lists does) is undone whole — what it wrote before the savepoint too — and the batch it
/// ran in still commits: the other writes' rows are there and read from a fresh connection,
/// and later writes commit as before. (diesel's `transaction` does not catch a panic; left
/// to it, the write's savepoint was rolled back in the inner one's place and the batch's
/// "commit" only released a savepoint.)
#[actix_web::test]
async fn a_write_panicking_inside_its_own_savepoint_is_undone_whole_and_the_batch_commits() {
    let app = TestApp::new().await;
    let db = app.state.db.clone();
    let n = 40;
    let answers = at_once(&db, n, move |i, c| {
        diesel::insert_into(settings::table)
            .values((settings::key.eq(key(i)), settings::value.eq("outer")))
            .execute(c)?;
        if i % 5 == 0 {
            let _ = cardroom::db::savepoint(c, |c| -> Result<(), AppError> {
                diesel::insert_into(settings::table)
                    .values((settings::key.eq(key(100 + i)), settings::value.eq("in")))
                    .execute(c)?;
                panic!("write {i} panics inside its savepoint");
            });
        }
        Ok(i)
    });
    let mut ok = Vec::new();
    for (i, answer) in answers.into_iter().enumerate() {
        match answer {
            Ok(v) => {
                assert_eq!(v, i);
                ok.push(i);
            }
            Err(AppError::Internal(_)) => assert!(i % 5 == 0, "write {i} failed unexpectedly"),
            Err(e) => panic!("write {i}: unexpected {e:?}"),
        }
    }
    let expected: Vec<usize> = (0..n).filter(|i| i % 5 != 0).collect();
    assert_eq!(ok, expected);
    // One more write after them, answered only once committed.
    db.write_new(move |c| -> Result<(), AppError> {
        diesel::insert_into(settings::table)
            .values((settings::key.eq(key(999)), settings::value.eq("after")))
            .execute(c)?;
        Ok(())
    })
    .unwrap();
    let mut fresh = app.state.db.conn().unwrap();
    let stored: Vec<String> = settings::table
        .filter(settings::key.like("test.write.%"))
        .order(settings::key.asc())
        .select(settings::key)
        .load(&mut *fresh)
        .unwrap();
    let mut want: Vec<String> = expected.iter().map(|&i| key(i)).collect();
    want.push(key(999));
    assert_eq!(
        stored, want,
        "the panicking writes left nothing, the others are committed"
    );
}

/// PostgreSQL: a write transaction plans its statements once per connection (generic plans,
/// `db::postgres::TURN_LOCK`), whichever path runs it; a read outside a write keeps the
/// server's default. (SQLite has no such setting.)
#[actix_web::test]
async fn postgres_write_transactions_use_generic_plans_and_reads_keep_the_default() {
    if !crate::support::is_postgres() {
        return;
    }
    #[derive(diesel::QueryableByName)]
    struct Mode {
        #[diesel(sql_type = diesel::sql_types::Text)]
        plan_cache_mode: String,
    }
    let show = |c: &mut cardroom::db::DbConn| -> Result<String, AppError> {
        Ok(diesel::sql_query("SHOW plan_cache_mode")
            .get_result::<Mode>(c)?
            .plan_cache_mode)
    };
    let app = TestApp::new().await;
    let mut conn = app.state.db.conn().unwrap();
    let default = show(&mut conn).unwrap();
    assert_ne!(default, "force_generic_plan", "the server's own setting");
    let batched = app.state.db.write_new(show).unwrap();
    assert_eq!(
        batched, "force_generic_plan",
        "a write of the writer thread"
    );
    let direct = app.state.db.write(&mut conn, show).unwrap();
    assert_eq!(
        direct, "force_generic_plan",
        "a write in its own transaction"
    );
    assert_eq!(show(&mut conn).unwrap(), default, "a read after them");
}

/// A write whose answer has been given is committed: a fresh connection reads it at once.
#[actix_web::test]
async fn an_answered_write_is_committed() {
    let app = TestApp::new().await;
    for i in 0..20 {
        app.state
            .write(move |_, c| -> Result<(), AppError> {
                diesel::insert_into(settings::table)
                    .values((settings::key.eq(key(i)), settings::value.eq("x")))
                    .execute(c)?;
                Ok(())
            })
            .await
            .unwrap();
        let mut fresh = app.state.db.conn().unwrap();
        let n: i64 = settings::table
            .filter(settings::key.eq(key(i)))
            .count()
            .get_result(&mut *fresh)
            .unwrap();
        assert_eq!(
            n, 1,
            "write {i} is visible to another connection once answered"
        );
    }
}

/// SQLite plans a statement without looking at the values bound to it (the query-planner
/// stability guarantee, `db::stable_plans_on_open`), on every connection of the pool: the
/// bundled SQLite otherwise recompiles a cached statement whenever a bound `LIMIT ?` or a
/// value a partial index could use is bound again, i.e. on every run (see README,
/// Benchmarks). Seen here through a partial index whose condition (`state = 'counting'`)
/// only the bound value could prove: without the guarantee SQLite recompiles the statement
/// once the value is bound and then plans with that partial index. PostgreSQL has no such
/// setting (nothing to check there).
#[actix_web::test]
async fn sqlite_plans_do_not_depend_on_bound_values() {
    if crate::support::is_postgres() {
        return;
    }
    let app = TestApp::new().await;
    #[derive(QueryableByName, Debug)]
    struct Plan {
        #[diesel(sql_type = diesel::sql_types::Text)]
        detail: String,
    }
    let plan = |c: &mut cardroom::db::DbConn, sql: &str, bind_state: bool| -> String {
        let q = diesel::sql_query(format!("EXPLAIN QUERY PLAN {sql}"))
            .bind::<diesel::sql_types::BigInt, _>(1i64);
        let rows: Vec<Plan> = if bind_state {
            q.bind::<diesel::sql_types::Text, _>("counting")
                .load(c)
                .expect("a plan")
        } else {
            q.load(c).expect("a plan")
        };
        rows.into_iter()
            .map(|r| r.detail)
            .collect::<Vec<_>>()
            .join("; ")
    };
    // Every connection the pool hands out, not just the first.
    let conns: Vec<_> = (0..4)
        .map(|_| app.state.db.conn().expect("a connection"))
        .collect();
    for mut c in conns {
        let bound = plan(
            &mut c,
            "SELECT id FROM chip_custody WHERE seating_id = ? AND state = ?",
            true,
        );
        assert!(
            !bound.contains("chip_custody_one_count"),
            "the plan used the bound value: {bound}"
        );
        assert!(bound.contains("chip_custody_by_seating"), "{bound}");
        // With the value written in the statement the partial index can be used.
        let literal = plan(
            &mut c,
            "SELECT id FROM chip_custody WHERE seating_id = ? AND state = 'counting'",
            false,
        );
        assert!(literal.contains("chip_custody_one_count"), "{literal}");
    }
}

/// SQLite: commits never copy the write-ahead log back into the database file (that stalled
/// every write queued behind the one commit that did it); the checkpointer thread does, on
/// its own connection, within about a second. Seen by reading the database file while
/// ignoring the log (`immutable=1`): a committed row gets there without any further write.
#[actix_web::test]
async fn sqlite_the_checkpointer_copies_committed_writes_into_the_database_file() {
    if crate::support::is_postgres() {
        return;
    }
    let app = TestApp::new().await;
    let path = cardroom::db::sqlite_path(&app.db.url).to_string();
    app.state
        .db
        .write_new(|c| -> Result<usize, AppError> {
            Ok(diesel::insert_into(settings::table)
                .values((
                    settings::key.eq("test.checkpoint"),
                    settings::value.eq("in the file"),
                ))
                .execute(c)?)
        })
        .expect("the write");
    // Not there yet: not even the tables, until the first checkpoint after the migrations.
    let in_file = || -> Option<String> {
        let mut c =
            diesel::SqliteConnection::establish(&format!("file:{path}?immutable=1")).ok()?;
        settings::table
            .filter(settings::key.eq("test.checkpoint"))
            .select(settings::value)
            .first(&mut c)
            .ok()
    };
    // The checkpointer looks every second: give it a few.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let mut seen = in_file();
    while seen.is_none() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(100));
        seen = in_file();
    }
    assert_eq!(
        seen.as_deref(),
        Some("in the file"),
        "never copied into the database file"
    );
}

/// What a write leaves behind besides its own rows — audit records, events, messages and the
/// numbers they take — comes out whole for the writes that commit and not at all for the
/// others, whichever way a write ends. (On PostgreSQL this is the batch's tail, sent in one
/// statement before its commit, `db::tail`; on SQLite each row goes at once and only the
/// counters wait for the batch's end.) 48 writers at once, each
/// recording two audit records, one event and one message; every fifth fails after that,
/// every eleventh panics, every third also joins something in a savepoint inside the write
/// that fails after recording (the write goes on without it), every seventh writes what its
/// batch kept so far in the middle of the write (the batch's tail is otherwise written once,
/// before its commit).
#[actix_web::test]
async fn audit_records_events_and_messages_of_a_write_commit_with_it_or_not_at_all() {
    use cardroom::db::audit::{self, Actor};
    use cardroom::db::schema::{events, outbox, sequences};
    use cardroom::domain::player::Language;
    use cardroom::notify::{messages, Kind, Params};
    let app = TestApp::new().await;
    let db = app.state.db.clone();
    let now = app.state.clock.now();
    let count = |app: &TestApp| {
        app.with_conn(|c| {
            let ev: i64 = events::table
                .filter(events::kind.eq("test.tail"))
                .count()
                .get_result(c)
                .unwrap();
            let ob: i64 = outbox::table
                .filter(outbox::recipient.like("+35191000%"))
                .count()
                .get_result(c)
                .unwrap();
            (ev, ob)
        })
    };
    let records_before = app.with_conn(|c| audit::verify(c).unwrap().records);
    let n = 48;
    let answers = at_once(&db, n, move |i, c| {
        let who = Actor::system();
        let note = serde_json::json!({ "write": i });
        audit::record::<(), _>(
            c,
            now,
            &who,
            "test.tail",
            "test",
            Some(i as i64),
            None,
            Some(&note),
        )?;
        cardroom::services::floor::emit(c, now, None, "test.tail", &note)?;
        messages::enqueue_to(
            c,
            now,
            Channel::Sms,
            &format!("+35191000{i:04}"),
            Language::Pt,
            Kind::JoinCode,
            &Params::default(),
        )?;
        if i % 7 == 0 {
            // A flush inside a write (what a write reading these tables back
            // does) writes the earlier writes' rows of its batch too: when this
            // write then fails, they are written again at the batch's end.
            cardroom::db::tail::flush(c)?;
        }
        if i % 3 == 0 {
            let inner = cardroom::db::savepoint(c, |c| -> Result<(), AppError> {
                audit::record::<(), _>(
                    c,
                    now,
                    &who,
                    "test.tail.inner",
                    "test",
                    Some(i as i64),
                    None,
                    Some(&note),
                )?;
                cardroom::services::floor::emit(c, now, None, "test.tail.inner", &note)?;
                Err(AppError::field("value", "err-required"))
            });
            assert!(inner.is_err());
        }
        audit::record::<(), _>(
            c,
            now,
            &who,
            "test.tail.after",
            "test",
            Some(i as i64),
            None,
            Some(&note),
        )?;
        if i % 11 == 0 {
            panic!("write {i} panics after its records");
        }
        if i % 5 == 0 {
            return Err(AppError::field("value", "err-required"));
        }
        Ok(i)
    });
    let mut ok = Vec::new();
    for (i, answer) in answers.into_iter().enumerate() {
        if let Ok(v) = answer {
            assert_eq!(v, i);
            ok.push(i);
        }
    }
    let expected: Vec<usize> = (0..n).filter(|i| i % 5 != 0 && i % 11 != 0).collect();
    assert_eq!(ok, expected);
    let k = expected.len() as i64;
    assert_eq!(
        count(&app),
        (k, k),
        "one event and one message per committed write"
    );
    app.with_conn(|c| {
        let report = audit::verify(c).unwrap();
        assert!(report.ok, "the audit chain holds: {report:?}");
        assert_eq!(
            report.records,
            records_before + 2 * k as u64,
            "two records per committed write"
        );
        let inner: i64 = events::table
            .filter(events::kind.eq("test.tail.inner"))
            .count()
            .get_result(c)
            .unwrap();
        assert_eq!(inner, 0, "what a rolled-back savepoint wrote is gone");
        // The counters stand at the last number used: none taken twice, none skipped.
        let seqs: Vec<i64> = events::table
            .order(events::seq.asc())
            .select(events::seq)
            .load(c)
            .unwrap();
        assert!(
            seqs.windows(2).all(|w| w[1] == w[0] + 1),
            "events are numbered without gaps: {seqs:?}"
        );
        let counter = |c: &mut cardroom::db::DbConn, name: &str| -> i64 {
            sequences::table
                .filter(sequences::name.eq(name))
                .select(sequences::value)
                .first(c)
                .unwrap()
        };
        assert_eq!(counter(c, "event"), *seqs.last().unwrap());
        assert_eq!(counter(c, "audit") as u64, report.records);
        let max_outbox: i64 = outbox::table
            .select(diesel::dsl::max(outbox::id))
            .first::<Option<i64>>(c)
            .unwrap()
            .unwrap();
        assert_eq!(counter(c, "outbox"), max_outbox);
    });
    // A write after all that goes on from the same numbers.
    db.write_new(move |c| -> Result<(), AppError> {
        audit::record::<(), ()>(
            c,
            now,
            &Actor::system(),
            "test.tail.last",
            "test",
            None,
            None,
            None,
        )?;
        Ok(())
    })
    .unwrap();
    app.with_conn(|c| {
        let report = audit::verify(c).unwrap();
        assert!(
            report.ok && report.records == records_before + 2 * k as u64 + 1,
            "{report:?}"
        );
    });
}

/// A write that answers success although one of its statements failed (the error ignored)
/// is never answered as saved when its backend did not keep it: PostgreSQL refuses every
/// later statement of the transaction until a rollback, so the write goes back to its
/// savepoint after all — its row and its audit record gone — and its caller hears "not
/// saved" (503: nothing of it was kept); the other writes of its batch
/// commit, the audit chain holds. It is found by the next write's savepoint, or at the
/// batch's end: by its tail's statement, or — when no write of the batch kept anything for
/// the tail — by a statement sent for that (PostgreSQL would otherwise turn the `COMMIT` into
/// a `ROLLBACK` without an error: every write of the batch lost, each answered saved).
/// SQLite's transaction stays usable after a failed statement: such a write commits what it
/// did write.
#[actix_web::test]
async fn a_write_that_ignores_a_failed_statement_is_not_answered_saved_unless_it_was() {
    use cardroom::db::audit::{self, Actor};
    let app = TestApp::new().await;
    let db = app.state.db.clone();
    let pg = db.backend == cardroom::db::Backend::Postgres;
    let now = app.state.clock.now();
    let records_before = app.with_conn(|c| audit::verify(c).unwrap().records);
    // Write `i`: a row; an audit record when `audited`; when `i` is a multiple of 4 the same
    // row again (a unique violation), its error ignored.
    let write = move |i: usize, audited: bool, c: &mut cardroom::db::DbConn| {
        let row = (settings::key.eq(key(i)), settings::value.eq("x"));
        diesel::insert_into(settings::table)
            .values(row.clone())
            .execute(c)?;
        if audited {
            let a = Actor::system();
            audit::record::<(), ()>(
                c,
                now,
                &a,
                "test.ignored",
                "test",
                Some(i as i64),
                None,
                None,
            )?;
        }
        if i.is_multiple_of(4) {
            let again = diesel::insert_into(settings::table).values(row).execute(c);
            assert!(again.is_err(), "the key is taken");
        }
        Ok::<usize, AppError>(i)
    };
    let bad = |i: usize| pg && i.is_multiple_of(4);
    let mut expected: Vec<String> = Vec::new();
    let mut audited = 0u64;
    let mut check = |i: usize, has_audit: bool, answer: Result<usize, AppError>| match answer {
        Ok(v) if !bad(i) => {
            assert_eq!(v, i);
            expected.push(key(i));
            audited += u64::from(has_audit);
        }
        Err(AppError::Unavailable(_)) if bad(i) => {}
        other => panic!("write {i}: {other:?}"),
    };
    // Alone, with and without anything for the batch's tail.
    check(0, true, db.write_new(move |c| write(0, true, c)));
    check(4, false, db.write_new(move |c| write(4, false, c)));
    // Among others (every eighth, failing, with an audit record to take back).
    let audited_at = |i: usize| i % 2 == 1 || i.is_multiple_of(8);
    let answers = at_once(&db, 40, move |i, c| write(i + 100, audited_at(i), c));
    for (k, answer) in answers.into_iter().enumerate() {
        check(k + 100, audited_at(k), answer);
    }
    // The last of a batch of two: the first write waits until the second is on its way, so
    // they mostly share a batch (counted). In even rounds neither keeps anything for the
    // tail; in odd ones the first keeps an audit record, which the batch's tail must still
    // write once the second is undone.
    let mut shared = [0, 0];
    for round in 0..20 {
        let (i, j) = (1001 + 4 * round, 1004 + 4 * round);
        let first_audited = round % 2 == 1;
        let batches = db
            .write_stats()
            .batches
            .load(std::sync::atomic::Ordering::Relaxed);
        let (on_the_way, wait) = std::sync::mpsc::channel::<()>();
        let (running, started) = std::sync::mpsc::channel::<()>();
        let second = {
            let db = db.clone();
            std::thread::spawn(move || {
                started.recv().unwrap();
                on_the_way.send(()).unwrap();
                db.write_new(move |c| write(j, false, c))
            })
        };
        let first = db.write_new(move |c| {
            running.send(()).unwrap();
            wait.recv_timeout(std::time::Duration::from_secs(5)).ok();
            std::thread::sleep(std::time::Duration::from_millis(1));
            write(i, first_audited, c)
        });
        check(i, first_audited, first);
        check(j, false, second.join().unwrap());
        let now_batches = db
            .write_stats()
            .batches
            .load(std::sync::atomic::Ordering::Relaxed);
        shared[round % 2] += usize::from(now_batches == batches + 1);
    }
    assert!(
        shared[0] > 0 && shared[1] > 0,
        "the two writes never shared a batch: {shared:?}"
    );
    let stored = stored_keys(&app);
    expected.sort();
    assert_eq!(
        stored, expected,
        "exactly the writes answered saved are stored"
    );
    app.with_conn(|c| {
        let report = audit::verify(c).unwrap();
        assert!(report.ok, "the audit chain holds: {report:?}");
        assert_eq!(
            report.records,
            records_before + audited,
            "one record per audited write answered saved"
        );
    });
    // The writer goes on as before.
    db.write_new(move |c| write(9999, true, c)).unwrap();
}

/// The same for a write in a transaction of its own (`Db::write`: start-up's writes, the
/// demo room) that keeps nothing for its tail: on PostgreSQL it is not answered saved.
#[actix_web::test]
async fn a_write_of_its_own_that_ignores_a_failed_statement_is_not_answered_saved_unless_it_was() {
    let app = TestApp::new().await;
    let db = app.state.db.clone();
    let pg = db.backend == cardroom::db::Backend::Postgres;
    let mut conn = db.conn().unwrap();
    let r = db.write(&mut conn, |c| -> Result<(), AppError> {
        let row = (settings::key.eq(key(7)), settings::value.eq("x"));
        diesel::insert_into(settings::table)
            .values(row.clone())
            .execute(c)?;
        let again = diesel::insert_into(settings::table).values(row).execute(c);
        assert!(again.is_err(), "the key is taken");
        Ok(())
    });
    match r {
        Ok(()) if !pg => {}
        Err(AppError::Internal(_)) if pg => {}
        other => panic!("{other:?}"),
    }
    let stored: i64 = app.with_conn(|c| {
        settings::table
            .filter(settings::key.eq(key(7)))
            .count()
            .get_result(c)
            .unwrap()
    });
    assert_eq!(stored == 1, !pg, "stored only where answered saved");
}

/// Writes queued together share a transaction: each sees the room as the writes before it
/// left it — renamed by the one before, or not renamed when that write failed and was undone.
/// (It guards the room kept for a whole batch, `db::tail::remembered_room`: without its
/// invalidations — a rename forgets it, a failed write drops it — this test fails.)
#[actix_web::test]
async fn each_write_of_a_batch_sees_the_room_the_writes_before_it_left() {
    use cardroom::services::room;
    let app = TestApp::new().await;
    let db = app.state.db.clone();
    let now = app.state.clock.now();
    let rename = |name: String, fail: bool| {
        move |c: &mut cardroom::db::DbConn| -> Result<String, AppError> {
            let r = room::get(c)?;
            let u = room::RoomUpdate {
                name,
                timezone: r.timezone.clone(),
                currency: r.currency.clone(),
                default_language: r.default_language,
                profile: r.profile.clone(),
                theme: None,
                call_alert: None,
                tap_late_max_s: None,
            };
            let act = cardroom::services::Acting::system(now)
                .in_room(c)
                .expect("room");
            let after = room::update(c, &act, &u)?;
            // Read back in the same write: the new name.
            assert_eq!(room::get(c)?.name, after.name);
            if fail {
                return Err(AppError::field("name", "err-required"));
            }
            Ok(after.name)
        }
    };
    type Answer = std::pin::Pin<Box<dyn std::future::Future<Output = Result<String, AppError>>>>;
    let read =
        || |c: &mut cardroom::db::DbConn| -> Result<String, AppError> { Ok(room::get(c)?.name) };
    // A slow first write holds the writer while the others queue behind it in this order.
    let mut pending: Vec<(Option<String>, Answer)> = vec![(
        Some(String::new()),
        Box::pin(
            db.write_async(
                |_c: &mut cardroom::db::DbConn| -> Result<String, AppError> {
                    std::thread::sleep(std::time::Duration::from_millis(50));
                    Ok(String::new())
                },
            )
            .expect("a writer thread"),
        ),
    )];
    for k in 0..6 {
        let name = format!("Room {k}");
        pending.push((
            Some(name.clone()),
            Box::pin(db.write_async(rename(name.clone(), false)).unwrap()),
        ));
        pending.push((
            Some(name.clone()),
            Box::pin(db.write_async(read()).unwrap()),
        ));
        pending.push((
            None,
            Box::pin(db.write_async(rename(format!("Undone {k}"), true)).unwrap()),
        ));
        pending.push((Some(name), Box::pin(db.write_async(read()).unwrap())));
    }
    for (i, (expected, answer)) in pending.into_iter().enumerate() {
        match (expected, answer.await) {
            (Some(want), Ok(got)) => assert_eq!(got, want, "write {i}"),
            (None, Err(AppError::Validation(_))) => {}
            (want, got) => panic!("write {i}: expected {want:?}, got {got:?}"),
        }
    }
    assert_eq!(
        app.with_conn(|c| room::get(c).unwrap().name),
        "Room 5",
        "the last rename that was not undone"
    );
}

/// Inside one write, a savepoint that changed the room and was rolled back takes the change
/// with it: the room the write reads next is the one before (the room is read once per
/// transaction, `db::tail::remembered_room`; a rolled-back savepoint forgets it).
#[actix_web::test]
async fn a_rolled_back_savepoint_inside_a_write_takes_its_room_change_with_it() {
    use cardroom::services::room;
    let app = TestApp::new().await;
    let now = app.state.clock.now();
    let before = app.with_conn(|c| room::get(c).unwrap().name);
    let names = app
        .state
        .db
        .write_new(move |c| -> Result<(String, String, String), AppError> {
            let r = room::get(c)?;
            let renamed = cardroom::db::savepoint(c, |c| -> Result<String, AppError> {
                let u = room::RoomUpdate {
                    name: "Renamed, then undone".into(),
                    timezone: r.timezone.clone(),
                    currency: r.currency.clone(),
                    default_language: r.default_language,
                    profile: r.profile.clone(),
                    theme: None,
                    call_alert: None,
                    tap_late_max_s: None,
                };
                let act = cardroom::services::Acting::system(now)
                    .in_room(c)
                    .expect("room");
                room::update(c, &act, &u)?;
                let seen = room::get(c)?.name;
                Err(AppError::field(&seen, "err-required"))
            });
            let seen_inside = match renamed {
                Err(AppError::Validation(f)) => f[0].field.clone(),
                other => panic!("the savepoint should fail: {other:?}"),
            };
            Ok((r.name, seen_inside, room::get(c)?.name))
        })
        .unwrap();
    assert_eq!(names.0, before);
    assert_eq!(
        names.1, "Renamed, then undone",
        "read back inside the savepoint"
    );
    assert_eq!(names.2, before, "after the rollback, the room as it was");
    assert_eq!(app.with_conn(|c| room::get(c).unwrap().name), before);
}
