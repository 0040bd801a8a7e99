//! SQLite only: the writer thread (group commit), the checkpointer thread, and the library
//! settings made once per process.

use super::{Answer, Job, Manager, WriteStats, BATCH_JOBS, BATCH_TIME};
use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use diesel::r2d2::Pool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The SQLite writer thread: takes the first waiting write, then every write queued behind
/// it (up to [`BATCH_JOBS`] or [`BATCH_TIME`]), runs them in one transaction, commits, and
/// answers them all. It stops when the last handle to the database is dropped.
pub(super) fn writer_loop(pool: Pool<Manager>, writer: Arc<Mutex<()>>, stats: Arc<WriteStats>, rx: std::sync::mpsc::Receiver<Job>) {
    use std::sync::atomic::Ordering::Relaxed;
    while let Ok(first) = rx.recv() {
        let t0 = std::time::Instant::now();
        let _turn = writer.lock().unwrap_or_else(|e| e.into_inner());
        let t1 = std::time::Instant::now();
        let mut conn = match pool.get() {
            Ok(c) => c,
            Err(e) => {
                // Nothing ran: the caller hears why.
                first(Err(format!("database pool: {e}")))(&Ok(()));
                continue;
            }
        };
        let mut answers: Vec<Answer> = Vec::new();
        let mut first = Some(first);
        let r = conn.transaction::<(), diesel::result::Error, _>(|c| {
            let mut job = first.take();
            while let Some(j) = job.take() {
                answers.push(j(Ok(c)));
                if answers.len() >= BATCH_JOBS || t1.elapsed() >= BATCH_TIME {
                    break;
                }
                job = rx.try_recv().ok();
            }
            Ok(())
        });
        let committed = r.map_err(|e| e.to_string());
        if let Err(e) = &committed {
            log::error!("a batch of {} write(s) could not be committed: {e}", answers.len());
        }
        stats.turns.fetch_add(answers.len() as u64, Relaxed);
        stats.batches.fetch_add(1, Relaxed);
        stats.wait_ns.fetch_add((t1 - t0).as_nanos() as u64, Relaxed);
        stats.hold_ns.fetch_add(t1.elapsed().as_nanos() as u64, Relaxed);
        drop(conn);
        drop(_turn);
        for a in answers {
            a(&committed);
        }
        // BEGIN itself failed: the first write never ran; dropping it tells its caller.
        drop(first);
    }
}

/// How often the checkpointer looks at the write-ahead log.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(1);

/// SQLite: copies the write-ahead log back into the database file from its own connection,
/// every [`CHECKPOINT_EVERY`], instead of SQLite doing it inside whichever commit crosses
/// 1,000 pages (the default). That commit was the writer thread's, so every write queued
/// behind it waited for the copy and its `fsync`: the floor benchmark's p99 went from
/// ~20 ms to ~13 ms, and its throughput up by a third, once moved here. A `PASSIVE`
/// checkpoint never blocks the writer or readers (it copies what no reader still needs and
/// leaves the rest for next time), and the log starts over from its beginning once it has
/// all been copied, so it stays small. Ends (after a last checkpoint) when the `Db` is
/// dropped.
pub(super) fn checkpointer_loop(path: &str, stop: std::sync::mpsc::Receiver<()>) {
    use std::sync::mpsc::RecvTimeoutError;
    let mut conn: Option<diesel::SqliteConnection> = None;
    loop {
        let last = match stop.recv_timeout(CHECKPOINT_EVERY) {
            Err(RecvTimeoutError::Timeout) => false,
            Ok(()) | Err(RecvTimeoutError::Disconnected) => true,
        };
        if conn.is_none() {
            conn = diesel::SqliteConnection::establish(path)
                .and_then(|mut c| c.batch_execute("PRAGMA busy_timeout = 1000;").map(|_| c).map_err(|e| diesel::ConnectionError::BadConnection(e.to_string())))
                .map_err(|e| log::debug!("checkpointer: cannot open {path}: {e}"))
                .ok();
        }
        if let Some(c) = conn.as_mut() {
            if let Err(e) = c.batch_execute("PRAGMA wal_checkpoint(PASSIVE);") {
                log::debug!("checkpointer: {e}");
                conn = None;
            }
        }
        if last {
            return;
        }
    }
}

/// SQLite library settings, once per process and before its first connection: "multi-thread"
/// mode (a connection is only ever used by one thread at a time — the pool hands it out —
/// so SQLite's per-call connection mutex is pure overhead), and no global memory statistics
/// (their mutex is taken on every allocation, by every connection in the process).
pub(super) fn configure_sqlite_library() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        use libsqlite3_sys as ffi;
        // SAFETY: sqlite3_config is called before any connection is opened in this process
        // (it answers SQLITE_MISUSE otherwise, changing nothing); the arguments match the
        // documented variadic signatures (no argument; one int).
        unsafe {
            let a = ffi::sqlite3_config(ffi::SQLITE_CONFIG_MULTITHREAD);
            let b = ffi::sqlite3_config(ffi::SQLITE_CONFIG_MEMSTATUS, 0 as std::ffi::c_int);
            if a != ffi::SQLITE_OK || b != ffi::SQLITE_OK {
                log::warn!("SQLite kept its default threading/memory settings (sqlite3_config: {a}, {b})");
            }
            // Runs on every connection this process opens from now on (diesel gives no
            // access to the raw handle, SQLite's auto-extension hook does).
            let c = ffi::sqlite3_auto_extension(Some(stable_plans_on_open));
            if c != ffi::SQLITE_OK {
                log::warn!("SQLite statements may be recompiled on every run (sqlite3_auto_extension: {c})");
            }
        }
    });
}

/// Turns on SQLite's query-planner stability guarantee (`SQLITE_DBCONFIG_ENABLE_QPSG`) for a
/// new connection: plans no longer depend on the values bound to a statement's parameters.
///
/// Why: the bundled SQLite (3.53) marks every statement with a bound `LIMIT ?` — every
/// diesel `.first()` — and every comparison a partial index's `WHERE` could use, as "to be
/// recompiled when that parameter is bound again", so a cached prepared statement was
/// parsed and planned again on every run: about half of the time of a write on the floor's
/// hot path (measured with `perf` on `cargo bench --bench floor`). With the guarantee on,
/// cached statements are reused as they are. The plans do not lose anything the room needs:
/// the partial indexes serve as constraints (one open call per seat, one seat per player…),
/// their `IN (…)` conditions could never be proved from bound values anyway, and plain
/// indexes cover the lookups (migration 000011 adds the two the partial indexes had covered).
unsafe extern "C" fn stable_plans_on_open(
    db: *mut libsqlite3_sys::sqlite3,
    _err: *mut *mut std::ffi::c_char,
    _api: *const libsqlite3_sys::sqlite3_api_routines,
) -> std::ffi::c_int {
    use libsqlite3_sys as ffi;
    // SAFETY: `db` is the connection being opened (SQLite calls this from sqlite3_open_v2);
    // the variadic arguments of this op are documented as (int onoff, int *pResult) and a
    // null pResult is allowed.
    unsafe {
        ffi::sqlite3_db_config(db, ffi::SQLITE_DBCONFIG_ENABLE_QPSG, 1 as std::ffi::c_int, std::ptr::null_mut::<std::ffi::c_int>());
    }
    ffi::SQLITE_OK
}

