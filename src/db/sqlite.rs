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
///
/// It keeps one connection of the pool from batch to batch (taking another only after a
/// batch that failed): a SQLite connection keeps the pages it read in its own cache, which
/// another connection's commit empties. Taking whichever connection the pool handed out
/// (the one a reader had just used) meant starting every batch with a cold cache: with its
/// own connection the writer spends ~4 % less time per write (floor bench, 2026-11-25). The
/// readers keep the rest of the pool.
#[allow(clippy::disallowed_methods)] // db opens the transactions (clippy.toml)
pub(super) fn writer_loop(
    pool: Pool<Manager>,
    writer: Arc<Mutex<()>>,
    stats: Arc<WriteStats>,
    rx: std::sync::mpsc::Receiver<Job>,
) {
    use std::sync::atomic::Ordering::Relaxed;
    let mut kept: Option<diesel::r2d2::PooledConnection<Manager>> = None;
    while let Ok(first) = rx.recv() {
        let t0 = std::time::Instant::now();
        let _turn = writer.lock().unwrap_or_else(|e| e.into_inner());
        let t1 = std::time::Instant::now();
        let got = match kept.take() {
            Some(c) => Ok(c),
            None => pool.get(),
        };
        let mut conn = match got {
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
            // The counters are read once for the whole batch and the ones its writes moved
            // written back in one statement at its end (`db::tail`).
            let _keeping = super::tail::begin(c);
            let mut job = first.take();
            while let Some(j) = job.take() {
                answers.push(j(Ok(c)));
                if answers.len() >= BATCH_JOBS || t1.elapsed() >= BATCH_TIME {
                    break;
                }
                job = rx.try_recv().ok();
            }
            // What the batch's writes kept — moved counters; on PostgreSQL also their
            // audit records, events and messages — in one statement before the commit. If
            // it fails the whole batch is rolled back and every write answered so.
            super::tail::flush(c)
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
        kept = committed.is_ok().then_some(conn);
        drop(_turn);
        for a in answers {
            a(&committed);
        }
        // BEGIN itself failed: the first write never ran; dropping it tells its caller.
        drop(first);
    }
}

/// How often the checkpointer looks at the write-ahead log. A `PASSIVE` pass over a small
/// log costs little; four a second because, under the soak benchmark's load with
/// `synchronous = FULL`, the log grew by up to ~40 MB/s (large group-commit batches), and
/// with one pass a second it peaked at 58 MB of the 64 allowed.
///
/// The passes looked like most of SQLite's call+seat p99 on a disk (measured 2026-11-25,
/// floor bench, 8 clients): p99 19–21 ms with this interval; 10–11 ms with a pass every 2 s
/// (too seldom for the log's bound); 17–19 ms with passes every 50 ms (and 5–8 % less
/// throughput); 12–13 ms on a RAM disk. Traced on 2026-11-28: what cost the p99 was not the
/// passes' syncs but their escalations to `TRUNCATE`, which hold the writer's turn (see
/// [`ESCALATE_AT_BYTES`]); with those halved the p99 is 12–13 ms at this interval.
const CHECKPOINT_EVERY: Duration = Duration::from_millis(250);

/// Log size (frames × page size, after a `PASSIVE` pass) from which the checkpointer takes
/// the writer's turn and runs a `TRUNCATE` checkpoint (see [`checkpointer_loop`]). Half of
/// the 64 MB the log must stay under, leaving room for what is written between
/// two passes (~25 MB at the floor bench's peak of ~100 MB/s of log, [`CHECKPOINT_EVERY`]).
///
/// Why not lower (it was 16 MB until 2026-11-28): with readers always at work (dashboards,
/// answers, player pages) a `PASSIVE` pass copies everything but cannot start the log over,
/// so the log only grows until a `TRUNCATE`, and each one holds the writer's turn for
/// 10–30 ms. Traced in the floor bench: its writes grow the log by ~10 MB every 100 ms, so
/// at 16 MB nearly every pass escalated — several writer stalls a second, which was SQLite's
/// call+seat p99 with 8 clients (22.8–24.5 ms in four runs that night). At 32 MB, two runs
/// the same night: p99 12.4 and 12.8 ms (the 250 ms timer and everything else unchanged).
pub const ESCALATE_AT_BYTES: u64 = 32 << 20;

/// `PRAGMA journal_size_limit`: when the writer starts the log over from its beginning it
/// also cuts the file back to this size (otherwise the file keeps its largest size forever).
pub const JOURNAL_SIZE_LIMIT_BYTES: u64 = 16 << 20;

/// How long a `TRUNCATE` checkpoint waits for readers still using the log (SQLite's busy
/// handler, on the checkpointer's own connection). The writer waits this long at most (it
/// waits for the turn the checkpointer holds); a reader longer than that (a month's report)
/// makes the checkpoint give up until the next pass, nothing else.
const TRUNCATE_WAIT_MS: u32 = 100;

/// How SQLite makes a commit durable (`CARDROOM_SQLITE_SYNCHRONOUS`, README "Durability").
///
/// With the log (WAL), `FULL` syncs the log at every commit, so a commit acknowledged to the
/// floor is on disk: it survives a power loss or an OS crash. `NORMAL` syncs only at
/// checkpoints: the last transactions before a power loss or OS crash may be lost (the
/// database is never corrupted; a crash of the process alone loses nothing, the OS has the
/// writes). Group commit (see [`writer_loop`]) shares one sync among the writes of a batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Synchronous {
    #[default]
    Full,
    Normal,
}

impl Synchronous {
    /// `full` or `normal` (any case); anything else is refused.
    pub fn parse(s: &str) -> Option<Synchronous> {
        match s.trim().to_ascii_lowercase().as_str() {
            "full" => Some(Synchronous::Full),
            "normal" => Some(Synchronous::Normal),
            _ => None,
        }
    }

    /// The value for `PRAGMA synchronous`.
    pub fn pragma(self) -> &'static str {
        match self {
            Synchronous::Full => "FULL",
            Synchronous::Normal => "NORMAL",
        }
    }
}

/// The per-connection settings of a SQLite connection of the room's pool.
///
/// `wal_autocheckpoint = 0`: no checkpoint at commit, the checkpointer thread does it (see
/// [`checkpointer_loop`]); `journal_size_limit`: see [`JOURNAL_SIZE_LIMIT_BYTES`].
pub(super) fn connection_pragmas(sync: Synchronous) -> String {
    format!(
        "PRAGMA busy_timeout = 10000; PRAGMA synchronous = {}; PRAGMA foreign_keys = ON; PRAGMA wal_autocheckpoint = 0; PRAGMA journal_size_limit = {JOURNAL_SIZE_LIMIT_BYTES};",
        sync.pragma()
    )
}

/// What the checkpointer should do after a `PASSIVE` pass, from what it answered (frames in
/// the log, frames copied) and the log file's size: escalate to `TRUNCATE` when the log
/// holds [`ESCALATE_AT_BYTES`] or more, or when the file is larger than that (a log that
/// was reset but whose file kept its size).
///
/// Why escalating is needed at all: SQLite starts the log over only once every frame has
/// been copied into the database *and* no reader still reads from the log. A `PASSIVE`
/// checkpoint copies only what no reader may still need; with player pages and dashboards
/// reading all the time there is always a reader on a snapshot a few commits old, so the
/// copy never catches up and the log only grows (1.3 GB in 10 minutes). A
/// `TRUNCATE` checkpoint holds the writer's turn, waits for the readers of older snapshots
/// (new readers then read the database file alone), copies the rest and empties the file.
pub fn should_truncate(log_frames: i64, page_size: u64, wal_file_bytes: u64) -> bool {
    let log_bytes = (log_frames.max(0) as u64).saturating_mul(page_size);
    log_bytes >= ESCALATE_AT_BYTES || wal_file_bytes > ESCALATE_AT_BYTES
}

/// What one pass of the checkpointer did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CheckpointPass {
    /// Frames in the log after the `PASSIVE` checkpoint, and how many of them were copied.
    pub log_frames: i64,
    pub checkpointed: i64,
    /// A `TRUNCATE` checkpoint was tried, and it emptied the log.
    pub escalated: bool,
    pub truncated: bool,
    /// How long the writer's turn was held for it (ms).
    pub held_ms: f64,
    /// The `-wal` file's size after the pass.
    pub wal_bytes: u64,
}

/// Counters of the checkpointer (read by the soak benchmark).
#[derive(Debug, Default)]
pub struct CheckpointStats {
    pub passes: std::sync::atomic::AtomicU64,
    pub escalations: std::sync::atomic::AtomicU64,
    pub truncations: std::sync::atomic::AtomicU64,
    /// Longest time the writer's turn was held by a `TRUNCATE` (µs).
    pub max_held_us: std::sync::atomic::AtomicU64,
    pub held_us: std::sync::atomic::AtomicU64,
}

/// A request to the checkpointer thread: `Some(reply)`: a pass now, answered on `reply`;
/// `None` (or every sender gone): a last pass, then stop.
pub(super) type CheckpointRequest =
    Option<std::sync::mpsc::SyncSender<Result<CheckpointPass, String>>>;

/// The checkpointer thread's handle, held by every clone of the `Db`.
#[derive(Debug)]
pub struct Checkpointer {
    pub(super) requests: Mutex<std::sync::mpsc::Sender<CheckpointRequest>>,
    pub stats: Arc<CheckpointStats>,
}

struct CheckpointerState {
    path: String,
    conn: Option<diesel::SqliteConnection>,
    page_size: u64,
    writer: Arc<Mutex<()>>,
    stats: Arc<CheckpointStats>,
}

#[derive(QueryableByName)]
struct CheckpointRow {
    #[diesel(sql_type = diesel::sql_types::Integer)]
    busy: i32,
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    log: i64,
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    checkpointed: i64,
}

/// A `TRUNCATE` checkpoint on `c`: `true` when it could not finish (another checkpoint
/// running, or a reader still using the log), so the log was not emptied.
pub(super) fn truncate_checkpoint(c: &mut super::DbConn) -> Result<bool, String> {
    let r: CheckpointRow = diesel::sql_query("PRAGMA wal_checkpoint(TRUNCATE)")
        .get_result(c)
        .map_err(|e| e.to_string())?;
    Ok(r.busy != 0)
}

#[derive(QueryableByName)]
struct PageSize {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    page_size: i64,
}

impl CheckpointerState {
    fn wal_bytes(path: &str) -> u64 {
        std::fs::metadata(format!("{path}-wal"))
            .map(|m| m.len())
            .unwrap_or(0)
    }

    fn pass(&mut self) -> Result<CheckpointPass, String> {
        use std::sync::atomic::Ordering::Relaxed;
        if self.conn.is_none() {
            let mut c =
                diesel::SqliteConnection::establish(&self.path).map_err(|e| e.to_string())?;
            c.batch_execute(&format!("PRAGMA busy_timeout = {TRUNCATE_WAIT_MS};"))
                .map_err(|e| e.to_string())?;
            let ps: PageSize = diesel::sql_query("PRAGMA page_size")
                .get_result(&mut c)
                .map_err(|e| e.to_string())?;
            self.page_size = ps.page_size.max(512) as u64;
            self.conn = Some(c);
        }
        let Some(c) = self.conn.as_mut() else {
            return Err("no connection".into());
        };
        let r: CheckpointRow = diesel::sql_query("PRAGMA wal_checkpoint(PASSIVE)")
            .get_result(c)
            .map_err(|e| e.to_string())?;
        let mut out = CheckpointPass {
            log_frames: r.log,
            checkpointed: r.checkpointed,
            ..CheckpointPass::default()
        };
        let _ = r.busy;
        self.stats.passes.fetch_add(1, Relaxed);
        if should_truncate(r.log, self.page_size, Self::wal_bytes(&self.path)) {
            out.escalated = true;
            self.stats.escalations.fetch_add(1, Relaxed);
            // The writer's turn first (the writer thread takes it per batch): the checkpoint
            // then never waits for a writer, and the writer waits on a mutex that wakes it
            // the moment the checkpoint is done (not in SQLite's busy-handler sleeps).
            let turn = self.writer.lock().unwrap_or_else(|e| e.into_inner());
            let t = std::time::Instant::now();
            let r: Result<CheckpointRow, _> =
                diesel::sql_query("PRAGMA wal_checkpoint(TRUNCATE)").get_result(c);
            let held = t.elapsed();
            drop(turn);
            out.held_ms = held.as_secs_f64() * 1e3;
            let us = held.as_micros() as u64;
            self.stats.held_us.fetch_add(us, Relaxed);
            self.stats.max_held_us.fetch_max(us, Relaxed);
            match r {
                Ok(r) if r.busy == 0 => {
                    out.truncated = true;
                    out.log_frames = r.log;
                    out.checkpointed = r.checkpointed;
                    self.stats.truncations.fetch_add(1, Relaxed);
                }
                Ok(_) => log::debug!(
                    "checkpointer: a reader held the log for over {TRUNCATE_WAIT_MS} ms; next pass"
                ),
                Err(e) => return Err(e.to_string()),
            }
        }
        out.wal_bytes = Self::wal_bytes(&self.path);
        Ok(out)
    }
}

/// SQLite: copies the write-ahead log back into the database file from its own connection,
/// every [`CHECKPOINT_EVERY`], instead of SQLite doing it inside whichever commit crosses
/// 1,000 pages (the default). That commit was the writer thread's, so every write queued
/// behind it waited for the copy and its `fsync`: the floor benchmark's p99 went from
/// ~20 ms to ~13 ms, and its throughput up by a third, once moved here.
///
/// Each pass is a `PASSIVE` checkpoint (never blocks the writer or readers: it copies what
/// no reader still needs). That alone cannot keep the log small under a steady read load
/// (see [`should_truncate`]): past [`ESCALATE_AT_BYTES`] the pass escalates to `TRUNCATE`,
/// holding the writer's turn (`writer`, the writer thread's mutex) for the copy of what
/// the `PASSIVE` pass left, at most [`TRUNCATE_WAIT_MS`] of waiting for older readers.
/// Ends (after a last pass) when the `Db` is dropped.
pub(super) fn checkpointer_loop(
    path: &str,
    writer: Arc<Mutex<()>>,
    stats: Arc<CheckpointStats>,
    requests: std::sync::mpsc::Receiver<CheckpointRequest>,
) {
    use std::sync::mpsc::RecvTimeoutError;
    let mut state = CheckpointerState {
        path: path.to_string(),
        conn: None,
        page_size: 4096,
        writer,
        stats,
    };
    loop {
        let (reply, last) = match requests.recv_timeout(CHECKPOINT_EVERY) {
            Err(RecvTimeoutError::Timeout) => (None, false),
            Ok(Some(reply)) => (Some(reply), false),
            Ok(None) | Err(RecvTimeoutError::Disconnected) => (None, true),
        };
        let r = state.pass();
        if let Err(e) = &r {
            log::debug!("checkpointer: {path}: {e}");
            state.conn = None;
        }
        if let Some(reply) = reply {
            let _ = reply.send(r);
        }
        if last {
            return;
        }
    }
}

/// How much of a transaction's sub-journal SQLite keeps in memory before it moves it to a
/// temporary file (`SQLITE_CONFIG_STMTJRNL_SPILL`; SQLite's default is 64 KiB).
///
/// The sub-journal holds, for every savepoint, the first image of each page the savepoint
/// changes, so it can be rolled back alone. Every write of a group-commit batch runs in its
/// own savepoint (see [`writer_loop`]), so a batch of ~20 floor writes journals ~1 MB of
/// pages: with the 64 KiB default, nearly every batch created a temporary file and wrote
/// each page to it with its own system call — 13 % of the writer thread's time in the floor
/// bench (measured with `perf`, 2026-11-24). 16 MiB covers any batch of floor writes with
/// room to spare; a larger transaction (an import) still spills, so memory stays bounded.
/// The journal is only ever read back to roll a savepoint back, so memory or file makes no
/// difference to what is kept on disk at commit.
pub(super) const SUBJOURNAL_SPILL_BYTES: usize = 16 << 20;

/// SQLite library settings, once per process and before its first connection: "multi-thread"
/// mode (a connection is only ever used by one thread at a time — the pool hands it out —
/// so SQLite's per-call connection mutex is pure overhead), and no global memory statistics
/// (their mutex is taken on every allocation, by every connection in the process).
///
/// And a larger spill threshold for the sub-journal ([`SUBJOURNAL_SPILL_BYTES`]).
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
            let d = ffi::sqlite3_config(
                ffi::SQLITE_CONFIG_STMTJRNL_SPILL,
                SUBJOURNAL_SPILL_BYTES as std::ffi::c_int,
            );
            if a != ffi::SQLITE_OK || b != ffi::SQLITE_OK || d != ffi::SQLITE_OK {
                log::warn!("SQLite kept some of its default settings (sqlite3_config: threading {a}, memory statistics {b}, sub-journal spill {d})");
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
        ffi::sqlite3_db_config(
            db,
            ffi::SQLITE_DBCONFIG_ENABLE_QPSG,
            1 as std::ffi::c_int,
            std::ptr::null_mut::<std::ffi::c_int>(),
        );
    }
    ffi::SQLITE_OK
}

impl super::Db {
    /// SQLite: runs one pass of the checkpointer thread now and tells what it did (tests,
    /// benchmarks); `None` on PostgreSQL.
    pub fn checkpoint_now(&self) -> Option<Result<CheckpointPass, String>> {
        let cp = self.checkpointer.as_ref()?;
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        if cp
            .requests
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .send(Some(tx))
            .is_err()
        {
            return Some(Err("the checkpointer has stopped".into()));
        }
        Some(
            rx.recv()
                .unwrap_or_else(|_| Err("the checkpointer has stopped".into())),
        )
    }

    /// SQLite: the checkpointer's counters; `None` on PostgreSQL.
    pub fn checkpoint_stats(&self) -> Option<&CheckpointStats> {
        self.checkpointer.as_deref().map(|c| &*c.stats)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escalates_past_the_threshold_only() {
        let at = (ESCALATE_AT_BYTES / 4096) as i64;
        assert!(!should_truncate(0, 4096, 0));
        assert!(!should_truncate(at - 1, 4096, (at as u64 - 1) * 4096));
        assert!(should_truncate(at, 4096, at as u64 * 4096));
        // A log started over whose file kept a large size.
        assert!(should_truncate(10, 4096, ESCALATE_AT_BYTES + 1));
        assert!(!should_truncate(-1, 4096, 0));
    }

    #[test]
    fn synchronous_setting_parses() {
        assert_eq!(Synchronous::parse("full"), Some(Synchronous::Full));
        assert_eq!(Synchronous::parse(" NORMAL "), Some(Synchronous::Normal));
        assert_eq!(Synchronous::parse("off"), None);
        assert_eq!(Synchronous::default().pragma(), "FULL");
    }
}
