//! PostgreSQL only: the writer thread (group commit across the process's writes, the room's
//! write turn taken once per batch) and the classification of errors that mean "try again".
//!
//! It follows the SQLite writer thread in `db/sqlite.rs` without sharing it: the two loops
//! differ in where the turn is taken and how a connection is obtained, and SQLite's has the
//! checkpoints.

use super::{Answer, Job, Manager, WriteStats, SUSPECT_WAIT};
use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use diesel::r2d2::Pool;
use std::sync::Arc;
use std::time::Duration;

/// The advisory lock every write transaction takes: the room's one write turn, across every
/// server process on the database (see `take_pg_turn`), sent with the transaction's plan
/// setting in one round trip.
///
/// Write transactions use generic plans (`SET LOCAL plan_cache_mode = force_generic_plan`): a
/// statement kept prepared is planned once per connection. With PostgreSQL's default (`auto`)
/// a statement whose custom plans look cheaper than its generic one is planned afresh on every
/// run, for good. A generic plan cannot use a partial index whose predicate only a bound value
/// proves, so the states a write filters on with a partial index behind them are literals
/// (`db::conditions`); the other bound states have full indexes (`…_by_state`, `…_by_guest`,
/// `seat_calls_due`). Reads outside writes keep `auto` (`SET LOCAL` ends with the
/// transaction): a report's plan may well depend on its dates. Measured: `benches/README.md`.
pub(super) const TURN_LOCK: &str = turn_lock!();

/// [`TURN_LOCK`]'s text, for the constants that send more in the same round trip.
macro_rules! turn_lock {
    () => {
        "SET LOCAL plan_cache_mode = force_generic_plan; SELECT pg_advisory_xact_lock(72010001)"
    };
}
use turn_lock;

/// The savepoint each write of a batch runs in. The writer thread opens it before the write
/// — the first write's in the round trip of the batch's lock ([`TURN_LOCK_THEN_SAVEPOINT`])
/// — and never releases it: PostgreSQL keeps savepoints of one name stacked, a rollback goes
/// back to the newest, and the commit ends them all. diesel's nested transaction would send a
/// `SAVEPOINT` and a `RELEASE` per write: one round trip per write more.
const WRITE_SAVEPOINT: &str = "SAVEPOINT write";

/// The batch's turn and its first write's savepoint, in one round trip.
const TURN_LOCK_THEN_SAVEPOINT: &str = concat!(turn_lock!(), "; SAVEPOINT write");

/// A failed write goes back to its savepoint (the newest `write`), which stays for the next.
pub(super) fn rollback_write(c: &mut super::DbConn) -> diesel::QueryResult<()> {
    c.batch_execute("ROLLBACK TO SAVEPOINT write")
}

/// The write before answered success but left the transaction unusable — a statement of it
/// failed and the error went unnoticed, so PostgreSQL refuses every statement until a
/// rollback (the next savepoint, or the batch's tail, failed): it goes back to its savepoint
/// after all, takes back what it kept, and its caller is told it was not saved. Fails when
/// even the rollback does (the connection is gone): then the batch is rolled back whole.
fn undo_last_write(
    c: &mut super::DbConn,
    answers: &mut Vec<Answer>,
    mark: Option<super::tail::Mark>,
    why: &diesel::result::Error,
) -> diesel::QueryResult<()> {
    let Some(mark) = mark else {
        return Err(super::db_error(format!("the batch cannot go on: {why}")));
    };
    rollback_write(c)?;
    super::tail::rewind(c, mark);
    if let Some(answer) = answers.pop() {
        // (A write that failed is answered its own error all the same.)
        log::error!("the last write left its transaction unusable; it is undone: {why}");
        // Answered 503, as a batch that could not be committed: whether the failure was
        // this write's own (it ignored a failed statement) or a passing one of the batch's
        // end (a cancelled statement) cannot be told apart here — diesel does not give the
        // SQLSTATE — and a failure that passes must never be answered 500.
        // Either way nothing of the write was kept, so trying again is right.
        let why = format!("a statement of it or of the batch's end failed: {why}");
        answers.push(Box::new(move |_: &Result<(), String>| answer(&Err(why))));
    }
    Ok(())
}

/// At most this many writes in one batch (SQLite: `BATCH_JOBS`, 64). Every write of a batch
/// is a subtransaction nested in the one before (its savepoint is never released), and each
/// gets a transaction id once the batch writes; past 64 per transaction PostgreSQL's cache of
/// them overflows and every other session's snapshot checks get slower (`pg_subtrans`
/// lookups). 48 leaves room for the savepoints some writes take inside their own.
const PG_BATCH_JOBS: usize = 48;

/// How long a batch keeps taking writes already queued. Longer than SQLite's (6 ms): on
/// PostgreSQL a floor write is a few dozen round trips and a commit an fsync, so a shorter
/// bound leaves most batches holding one write, each paying its own fsync
/// (`benches/README.md`, "the batch's length"). Only writes already waiting join: the thread
/// never idles for more to come.
const PG_BATCH_TIME: Duration = Duration::from_millis(8);

/// The PostgreSQL writer thread: takes the first waiting write, then every write queued
/// behind it (up to [`PG_BATCH_JOBS`] or [`PG_BATCH_TIME`]), runs them in ONE transaction that
/// takes the room's advisory lock once, each write in its own savepoint, commits, and answers
/// them all. Why: a transaction per write would pay the lock and a commit (an fsync) per
/// write while every other writer of the room waits on the lock, and under load the commits
/// would queue one behind the other; a batch pays one lock and one commit.
///
/// Rules still see what they would one transaction at a time: the writes of a batch run one
/// after another, and every other process waits for the lock, so a rule check spanning tables
/// (one seat per player, separations) never races. A write that fails is rolled back to its
/// savepoint alone; the others commit. Nobody is answered before the commit.
#[allow(clippy::disallowed_methods)] // db opens the transactions (clippy.toml)
pub(super) fn writer_loop(
    pool: Pool<Manager>,
    health: Arc<super::Health>,
    stats: Arc<WriteStats>,
    rx: std::sync::mpsc::Receiver<Job>,
) {
    use std::sync::atomic::Ordering::Relaxed;
    while let Ok(first) = rx.recv() {
        let t0 = std::time::Instant::now();
        // As `Db::conn`: while the database is suspect, give up quickly (503) rather than
        // keep every queued write waiting for the pool's full timeout.
        let got = if health.suspect() {
            pool.get_timeout(SUSPECT_WAIT)
        } else {
            pool.get()
        };
        let mut conn = match got {
            Ok(c) => c,
            Err(e) => {
                first(Err(format!("database pool: {e}")))(&Ok(()));
                continue;
            }
        };
        let mut answers: Vec<Answer> = Vec::new();
        let mut first = Some(first);
        let mut t1 = t0;
        let r = conn.transaction::<(), diesel::result::Error, _>(|c| {
            // The turn: waits for any other process's write transaction to end; and the
            // first write's savepoint.
            c.batch_execute(TURN_LOCK_THEN_SAVEPOINT)?;
            t1 = std::time::Instant::now();
            // The batch's audit records, events, messages and numbers go in one statement
            // at its end (`db::tail`); the counters are read once for the whole batch.
            let _keeping = super::tail::begin(c);
            let mut job = first.take();
            // Where the tail stood before the last write ran (see `undo_last_write`).
            let mut last_mark = None;
            while let Some(j) = job.take() {
                if !answers.is_empty() {
                    if let Err(e) = c.batch_execute(WRITE_SAVEPOINT) {
                        undo_last_write(c, &mut answers, last_mark.take(), &e)?;
                        c.batch_execute(WRITE_SAVEPOINT)?;
                    }
                }
                last_mark = super::tail::mark(c);
                answers.push(j(Ok(c)));
                if answers.len() >= PG_BATCH_JOBS || t1.elapsed() >= PG_BATCH_TIME {
                    break;
                }
                job = rx.try_recv().ok();
            }
            // What the batch's writes kept, in one statement before the commit
            // (`flush_before_commit`). If it fails, the last write may be why (see
            // `undo_last_write`): without it, once more; if that fails too the whole batch is
            // rolled back and every write answered so.
            match super::flush_before_commit(c) {
                Ok(()) => Ok(()),
                Err(e) => {
                    undo_last_write(c, &mut answers, last_mark.take(), &e)?;
                    super::flush_before_commit(c)
                }
            }
        });
        let committed = r.map_err(|e| e.to_string());
        if let Err(e) = &committed {
            log::error!(
                "a batch of {} write(s) could not be committed: {e}",
                answers.len()
            );
        }
        stats.turns.fetch_add(answers.len() as u64, Relaxed);
        stats.batches.fetch_add(1, Relaxed);
        stats
            .wait_ns
            .fetch_add((t1 - t0).as_nanos() as u64, Relaxed);
        stats
            .hold_ns
            .fetch_add(t1.elapsed().as_nanos() as u64, Relaxed);
        drop(conn);
        for a in answers {
            a(&committed);
        }
        // BEGIN or the lock failed: the first write never ran; its caller is told why.
        if let Some(first) = first {
            let why = committed
                .err()
                .unwrap_or_else(|| "the write could not start".into());
            first(Err(why))(&Ok(()));
        }
    }
}
