//! Storage: diesel over SQLite (embedded default) or PostgreSQL (production), chosen by the
//! database URL. One connection type, [`DbConn`], serves both; migrations for each backend are
//! embedded in the binary and run at start.

pub mod audit;
pub mod conditions;
mod connection;
pub mod floor_writes;
pub mod idempotency;
mod ids;
pub mod models;
mod postgres;
pub mod schema;
mod sqlite;
pub mod tail;
mod text_enum;
pub mod time;

pub use connection::{Health, Manager};
use sqlite::{checkpointer_loop, configure_sqlite_library, writer_loop};
pub use sqlite::{
    should_truncate, CheckpointPass, CheckpointStats, Synchronous, ESCALATE_AT_BYTES,
    JOURNAL_SIZE_LIMIT_BYTES,
};

use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use diesel::r2d2::{self, Pool, PooledConnection};
use diesel_migrations::{embed_migrations, EmbeddedMigrations, MigrationHarness};
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/sqlite");
pub const POSTGRES_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/postgres");

/// A connection to either backend. Queries written against it compile once and run on both.
#[derive(diesel::MultiConnection)]
pub enum DbConn {
    Postgres(diesel::PgConnection),
    Sqlite(diesel::SqliteConnection),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    pub fn of_url(url: &str) -> Backend {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Backend::Postgres
        } else {
            Backend::Sqlite
        }
    }
}

/// The SQLite file path from `sqlite://path`, `sqlite:path` or a bare path.
pub fn sqlite_path(url: &str) -> &str {
    url.strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))
        .unwrap_or(url)
}

pub type Conn = PooledConnection<Manager>;

/// The pool plus, for SQLite, a writer lock: SQLite allows one writer at a time, and taking
/// turns in the process avoids "database is locked" when a read turns into a write.
#[derive(Clone)]
pub struct Db {
    pub pool: Pool<Manager>,
    pub backend: Backend,
    writer: Arc<Mutex<()>>,
    stats: Arc<WriteStats>,
    /// The queue of the writer thread (see [`Db::write_new`]); both backends have one.
    jobs: Option<Arc<Mutex<std::sync::mpsc::Sender<Job>>>>,
    /// SQLite: the checkpointer thread stops when the last clone of this `Db` is dropped.
    checkpointer: Option<Arc<sqlite::Checkpointer>>,
    /// Whether the database failed recently (see [`Health`]).
    pub health: Arc<Health>,
}

/// A write for the writer thread: runs in the batch's transaction (in its own savepoint) and
/// returns what answers its caller once the batch is committed (or not).
/// Without a connection (the pool could not give one) it answers at once.
type Job = Box<dyn FnOnce(Result<&mut DbConn, String>) -> Answer + Send>;
type Answer = Box<dyn FnOnce(&Result<(), String>) + Send>;

/// How long the SQLite writer thread keeps adding waiting writes to one transaction before
/// it commits: bounds what the first write of a batch waits for the others. It only matters
/// while writes keep arriving (a lone write commits at once). 6 ms since commits sync the log
/// (`synchronous = FULL`): with 2 ms a batch held ~9 writes and the floor bench gave 850-860
/// call+seat pairs/s; with 6 ms ~18-20 writes per commit and 1,160-1,550 pairs/s, p99 lower
/// too (the same busy machine, runs interleaved; 8 ms was no better).
const BATCH_TIME: Duration = Duration::from_millis(6);
const BATCH_JOBS: usize = 64;

fn db_error(msg: impl Into<String>) -> diesel::result::Error {
    diesel::result::Error::DatabaseError(
        diesel::result::DatabaseErrorKind::Unknown,
        Box::new(msg.into()),
    )
}

/// The database cannot be reached right now (answered 503: try again).
fn db_unavailable(msg: impl Into<String>) -> diesel::result::Error {
    diesel::result::Error::DatabaseError(
        diesel::result::DatabaseErrorKind::ClosedConnection,
        Box::new(msg.into()),
    )
}

/// Counters of the write turns taken (read by the benchmark): how many, and the time spent
/// waiting for a turn and holding it.
#[derive(Debug, Default)]
pub struct WriteStats {
    pub turns: std::sync::atomic::AtomicU64,
    pub wait_ns: std::sync::atomic::AtomicU64,
    pub hold_ns: std::sync::atomic::AtomicU64,
    /// Transactions (SQLite: several writes may share one, see [`Db::write_new`]).
    pub batches: std::sync::atomic::AtomicU64,
}

/// How long a checkout waits for a connection. r2d2 retries a connection it could not open
/// with a back-off of up to half this: it bounds how long after an outage the pool takes to
/// open its first new connection (serving again within 5 s of the database).
const POOL_WAIT: Duration = Duration::from_secs(4);

/// How long a checkout waits for a connection while the database is suspect.
const SUSPECT_WAIT: Duration = Duration::from_secs(1);

/// PostgreSQL: the pool (and the push hub's listening connection) must fit in what the server
/// allows; otherwise the pool's start fails later with an unclear "timed out". Checked with
/// one connection before the pool opens its own.
fn check_pg_connections(url: &str, pool_size: u32) -> Result<(), DbError> {
    #[derive(QueryableByName)]
    struct Limits {
        #[diesel(sql_type = diesel::sql_types::Integer)]
        max: i32,
        #[diesel(sql_type = diesel::sql_types::Integer)]
        reserved: i32,
    }
    let mut c = diesel::PgConnection::establish(url).map_err(|e| DbError::Open(e.to_string()))?;
    let l: Limits = diesel::sql_query(
        "SELECT current_setting('max_connections')::int AS max, \
         (current_setting('superuser_reserved_connections')::int \
          + COALESCE((SELECT setting::int FROM pg_settings WHERE name = 'reserved_connections'), 0)) AS reserved",
    )
    .get_result(&mut c)
    .map_err(|e| DbError::Open(e.to_string()))?;
    let allowed = (l.max - l.reserved).max(0) as u32;
    let needed = pool_size.saturating_add(1);
    if needed > allowed {
        return Err(DbError::Open(format!(
            "CARDROOM_POOL_SIZE = {pool_size} needs {needed} connections to PostgreSQL (the pool + 1 listening), \
             but the server allows {allowed} (max_connections = {} minus {} reserved); \
             lower CARDROOM_POOL_SIZE or raise max_connections",
            l.max, l.reserved
        )));
    }
    Ok(())
}

#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("cannot open the database: {0}")]
    Open(String),
    #[error("migrations failed: {0}")]
    Migrate(String),
}

impl Db {
    /// Opens the database with the default settings (SQLite: `synchronous = FULL`).
    pub fn open(url: &str, pool_size: u32) -> Result<Db, DbError> {
        Db::open_with(url, pool_size, Synchronous::default())
    }

    /// [`open`](Self::open) with SQLite's durability setting (`CARDROOM_SQLITE_SYNCHRONOUS`).
    pub fn open_with(url: &str, pool_size: u32, synchronous: Synchronous) -> Result<Db, DbError> {
        let backend = Backend::of_url(url);
        if backend == Backend::Sqlite {
            let path = std::path::Path::new(sqlite_path(url));
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir)
                    .map_err(|e| DbError::Open(format!("{}: {e}", dir.display())))?;
            }
        }
        if backend == Backend::Sqlite {
            configure_sqlite_library();
            // Switching to WAL needs the file to itself: do it once, before the pool opens
            // its connections in parallel.
            let mut c = diesel::SqliteConnection::establish(sqlite_path(url))
                .map_err(|e| DbError::Open(e.to_string()))?;
            c.batch_execute("PRAGMA busy_timeout = 10000; PRAGMA journal_mode = WAL;")
                .map_err(|e| DbError::Open(e.to_string()))?;
        }
        if backend == Backend::Postgres {
            check_pg_connections(url, pool_size)?;
        }
        let health: Arc<Health> = Arc::default();
        let manager = Manager {
            url: url.to_string(),
            backend,
            health: health.clone(),
            synchronous,
        };
        let pool = Pool::builder()
            .max_size(pool_size)
            // `is_valid` on every checkout: a probe without a round trip (a test query only
            // while the database is suspect), so a connection the server closed is never
            // handed out (see `connection::Manager`).
            .test_on_check_out(true)
            .connection_timeout(POOL_WAIT)
            .error_handler(Box::new(connection::HealthErrors(health.clone())))
            .build(manager)
            .map_err(|e| DbError::Open(e.to_string()))?;
        let writer = Arc::new(Mutex::new(()));
        let stats: Arc<WriteStats> = Arc::default();
        // Both backends: one writer thread per process doing group commit (see `write_new`).
        let jobs = {
            let (tx, rx) = std::sync::mpsc::channel::<Job>();
            let (p, w, st, h) = (pool.clone(), writer.clone(), stats.clone(), health.clone());
            std::thread::Builder::new()
                .name("db-writer".into())
                .spawn(move || match backend {
                    Backend::Sqlite => writer_loop(p, w, st, rx),
                    Backend::Postgres => postgres::writer_loop(p, h, st, rx),
                })
                .map_err(|e| DbError::Open(format!("writer thread: {e}")))?;
            Some(Arc::new(Mutex::new(tx)))
        };
        let checkpointer = if backend == Backend::Sqlite {
            let (requests, received) = std::sync::mpsc::channel::<sqlite::CheckpointRequest>();
            let path = sqlite_path(url).to_string();
            let (w, cs) = (writer.clone(), Arc::<CheckpointStats>::default());
            let stats = cs.clone();
            std::thread::Builder::new()
                .name("db-checkpoint".into())
                .spawn(move || checkpointer_loop(&path, w, cs, received))
                .map_err(|e| DbError::Open(format!("checkpoint thread: {e}")))?;
            Some(Arc::new(sqlite::Checkpointer {
                requests: Mutex::new(requests),
                stats,
            }))
        } else {
            None
        };
        Ok(Db {
            pool,
            backend,
            writer,
            stats,
            jobs,
            checkpointer,
            health,
        })
    }

    /// A connection from the pool. While the database is suspect (it failed in the last
    /// [`connection::SUSPECT_FOR`]), give up after [`SUSPECT_WAIT`] instead of the pool's 10 s:
    /// in an outage a request is answered 503 at once rather than after a long wait.
    pub fn conn(&self) -> Result<Conn, r2d2::PoolError> {
        if self.health.suspect() {
            self.pool.get_timeout(SUSPECT_WAIT)
        } else {
            self.pool.get()
        }
    }

    /// Tells the database's health that a caller's query lost its connection (the error
    /// mapping calls this for 503 answers): checkouts then test connections with a query.
    pub fn saw_unavailable(&self, why: &str) {
        self.health.failed(why);
    }

    /// A background pass that failed. The database being unreachable is logged once per
    /// outage (by the health), not once a second per thread; the pass simply runs again, on a
    /// fresh connection, once the database is back. Anything else is an error worth a line
    /// each time.
    pub fn log_pass_failure(&self, what: &str, e: &crate::error::AppError) {
        match e {
            crate::error::AppError::Unavailable(why) => {
                self.saw_unavailable(why);
                log::debug!("{what} pass skipped: {e}");
            }
            _ => log::error!("{what} pass failed: {e}"),
        }
    }

    /// Applies pending migrations for this backend.
    pub fn migrate(&self) -> Result<usize, DbError> {
        let mut conn = self.conn().map_err(|e| DbError::Open(e.to_string()))?;
        run_migrations(&mut conn)
    }

    /// Runs `f` in one write transaction: everything it writes commits together, or nothing.
    #[allow(clippy::disallowed_methods)] // db opens the transactions (clippy.toml)
    pub fn write<T, E>(
        &self,
        conn: &mut DbConn,
        f: impl FnOnce(&mut DbConn) -> Result<T, E>,
    ) -> Result<T, E>
    where
        E: From<diesel::result::Error>,
    {
        let _turn = self.writer_turn();
        conn.transaction(|c| {
            take_pg_turn(c)?;
            let _keeping = tail::begin(c);
            with_tail(c, f)
        })
    }

    /// SQLite takes one writer at a time: wait for the turn (PostgreSQL needs none).
    fn writer_turn(&self) -> Option<std::sync::MutexGuard<'_, ()>> {
        match self.backend {
            Backend::Sqlite => Some(self.writer.lock().unwrap_or_else(|e| e.into_inner())),
            Backend::Postgres => None,
        }
    }

    /// Like [`write`](Self::write), taking a connection only once it is this writer's turn:
    /// waiting writers hold no connection, so readers are never starved.
    ///
    /// SQLite: the write goes to the room's one writer thread, which runs the writes waiting
    /// at that moment back to back in one transaction ("group commit"), each in its own
    /// savepoint — a write that fails is undone alone and the others go on — and answers every
    /// one of them only once that transaction is committed. The rules see exactly what they
    /// would see one transaction at a time (the writes still run one after another); the room
    /// saves a commit and a thread hand-over per write. PostgreSQL: the same, the batch taking
    /// the room's advisory lock once (see `postgres::writer_loop`).
    #[allow(clippy::disallowed_methods)] // db opens the transactions (clippy.toml)
    pub fn write_new<T, E>(
        &self,
        f: impl FnOnce(&mut DbConn) -> Result<T, E> + Send + 'static,
    ) -> Result<T, E>
    where
        T: Send + 'static,
        E: From<diesel::result::Error> + From<r2d2::PoolError> + Send + 'static,
    {
        if self.jobs.is_some() {
            let (tx, rx) = std::sync::mpsc::sync_channel::<Result<T, E>>(1);
            self.enqueue(f, move |r| {
                let _ = tx.send(r);
            });
            return rx.recv().unwrap_or_else(|_| {
                Err(E::from(db_unavailable(
                    "the database could not start a transaction; nothing was saved",
                )))
            });
        }
        use std::sync::atomic::Ordering::Relaxed;
        let t0 = std::time::Instant::now();
        let _turn = self.writer_turn();
        let t1 = std::time::Instant::now();
        let mut conn = self.conn()?;
        let c: &mut DbConn = &mut conn;
        let r = c.transaction(|c| {
            take_pg_turn(c)?;
            let _keeping = tail::begin(c);
            // A panic is contained as on SQLite: this write is rolled back, its caller told.
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| with_tail(c, f)))
                .unwrap_or_else(|_| {
                    log::error!("a write panicked; its transaction was rolled back");
                    Err(E::from(db_error(
                        "a write failed inside the server (panic); it was undone",
                    )))
                })
        });
        self.stats.turns.fetch_add(1, Relaxed);
        self.stats.batches.fetch_add(1, Relaxed);
        self.stats
            .wait_ns
            .fetch_add((t1 - t0).as_nanos() as u64, Relaxed);
        self.stats
            .hold_ns
            .fetch_add(t1.elapsed().as_nanos() as u64, Relaxed);
        r
    }

    /// Like [`write_new`](Self::write_new) without blocking the caller's thread: the answer
    /// comes back on a future. `None` when there is no writer thread (never, today).
    pub fn write_async<T, E>(
        &self,
        f: impl FnOnce(&mut DbConn) -> Result<T, E> + Send + 'static,
    ) -> Option<impl std::future::Future<Output = Result<T, E>>>
    where
        T: Send + 'static,
        E: From<diesel::result::Error> + Send + 'static,
    {
        self.jobs.as_ref()?;
        let (tx, rx) = tokio::sync::oneshot::channel::<Result<T, E>>();
        self.enqueue(f, move |r| {
            let _ = tx.send(r);
        });
        Some(async move {
            rx.await.unwrap_or_else(|_| {
                Err(E::from(db_unavailable(
                    "the database could not start a transaction; nothing was saved",
                )))
            })
        })
    }

    /// Hands a write to the writer thread; `reply` gets its outcome once the batch it
    /// ran in is committed (or not). A write that never runs (BEGIN failed, the writer
    /// stopped) drops `reply` unanswered.
    #[allow(clippy::disallowed_methods)] // db opens the transactions (clippy.toml)
    fn enqueue<T, E>(
        &self,
        f: impl FnOnce(&mut DbConn) -> Result<T, E> + Send + 'static,
        reply: impl FnOnce(Result<T, E>) + Send + 'static,
    ) where
        T: Send + 'static,
        E: From<diesel::result::Error> + Send + 'static,
    {
        let Some(jobs) = &self.jobs else { return };
        let job: Job = Box::new(move |c: Result<&mut DbConn, String>| {
            let c = match c {
                Ok(c) => c,
                Err(msg) => {
                    return Box::new(move |_: &Result<(), String>| {
                        reply(Err(E::from(db_unavailable(msg))))
                    }) as Answer;
                }
            };
            let mut panicked = false;
            // The batch's tail is written once, at its end (the writer thread flushes it
            // before the commit); a write that fails — in its work, or (SQLite) when its
            // savepoint is released — takes back only what it kept.
            let mark = tail::mark(c);
            let run = |c: &mut DbConn| {
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(c))).unwrap_or_else(
                    |_| {
                        panicked = true;
                        Err(E::from(db_error(
                            "a write failed inside the server (panic); it was undone",
                        )))
                    },
                )
            };
            let r = if matches!(c, DbConn::Postgres(_)) {
                // PostgreSQL: the writer thread opened this write's savepoint, in the round
                // trip of the batch's lock or on its own (`postgres::writer_loop`), and never
                // releases it (the commit does): one round trip per write fewer than
                // diesel's SAVEPOINT + RELEASE. A failed write goes back to it here.
                let r = run(c);
                if r.is_err() {
                    if let Err(e) = postgres::rollback_write(c) {
                        // The batch cannot go on (the writer finds out at its next statement
                        // and rolls it back whole).
                        log::error!("a failed write could not be rolled back: {e}");
                    }
                }
                r
            } else {
                c.transaction(run)
            };
            if r.is_err() {
                match mark {
                    Some(m) => tail::rewind(c, m),
                    None => tail::discard(c),
                }
            }
            if panicked {
                log::error!("a write panicked; its savepoint was rolled back");
            }
            Box::new(move |committed: &Result<(), String>| {
                reply(match (r, committed) {
                    (Ok(v), Ok(())) => Ok(v),
                    // The batch was rolled back as a whole (its commit failed, or the
                    // connection was lost), or this write alone after it answered
                    // (`postgres::undo_last_write`): nothing of it was kept, so "try again"
                    // (503) is the honest answer, not an internal error.
                    (Ok(_), Err(msg)) => Err(E::from(db_unavailable(format!(
                        "the write was not saved: {msg}"
                    )))),
                    (Err(e), _) => Err(e),
                })
            }) as Answer
        });
        // A send fails only when the writer thread is gone: `job` (and `reply`) are dropped.
        let _ = jobs.lock().unwrap_or_else(|e| e.into_inner()).send(job);
    }

    /// SQLite: copies the write-ahead log into the database file and empties it (at a clean
    /// stop, so the file alone is the whole database). PostgreSQL: nothing to do.
    pub fn checkpoint(&self) -> Result<(), String> {
        if self.backend != Backend::Sqlite {
            return Ok(());
        }
        let mut c = self.conn().map_err(|e| e.to_string())?;
        // The writer's turn, so no write lands between the copy and the truncation. SQLite
        // answers `busy` at once while the checkpointer thread's own pass, or a reader's
        // snapshot, still uses the log (seen in CI, 2026-11-25): try again, for up to 2 s.
        let _turn = self.writer_turn();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
        loop {
            let busy = sqlite::truncate_checkpoint(&mut c)?;
            if !busy {
                return Ok(());
            }
            if std::time::Instant::now() >= deadline {
                return Err("a reader still held the write-ahead log after 2 s".into());
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }

    /// The write-turn counters so far.
    pub fn write_stats(&self) -> &WriteStats {
        &self.stats
    }
}

/// Runs one write `f` in its own transaction and writes its tail (`tail`) before that
/// transaction ends; a write that fails drops its tail. (A write of a group-commit batch
/// leaves its tail to the batch's one flush, see `enqueue`.)
fn with_tail<T, E>(c: &mut DbConn, f: impl FnOnce(&mut DbConn) -> Result<T, E>) -> Result<T, E>
where
    E: From<diesel::result::Error>,
{
    let r = f(c).and_then(|v| flush_before_commit(c).map(|()| v).map_err(E::from));
    if r.is_err() {
        tail::discard(c);
    }
    r
}

/// The end of a write transaction (one write's, or a PostgreSQL batch's), before its commit:
/// what its writes kept — moved counters, audit records, events and messages — in one
/// statement (`db::tail`). On PostgreSQL, when nothing was kept, a statement all the same: a
/// write that ignored a failed statement left the transaction aborted, and that must be found
/// before the `COMMIT`, which PostgreSQL would turn into a `ROLLBACK` without an error — every
/// write in it lost, each answered saved (found in review, 2026-11-25). Floor writes always
/// keep something: no round trip is added there.
pub(super) fn flush_before_commit(c: &mut DbConn) -> QueryResult<()> {
    if tail::flush_sent(c)? || matches!(c, DbConn::Sqlite(_)) {
        return Ok(());
    }
    c.batch_execute("SELECT 1")
}

/// A savepoint inside a write: `f`'s changes are undone alone if it fails, the write goes on
/// (e.g. joining several lists, one refused). Use this, not `transaction`, inside a write:
/// it also rewinds what the write's tail kept meanwhile (`tail`).
#[allow(clippy::disallowed_methods)] // db opens the transactions (clippy.toml)
pub fn savepoint<T, E>(
    conn: &mut DbConn,
    f: impl FnOnce(&mut DbConn) -> Result<T, E>,
) -> Result<T, E>
where
    E: From<diesel::result::Error>,
{
    let mark = tail::mark(conn);
    // A panic inside is caught here so that diesel rolls the savepoint back and counts it
    // closed (its `transaction` does not catch one: diesel would then count this savepoint
    // open after it is gone — on SQLite the write's own savepoint was rolled back in this
    // one's place, and the batch's commit only released a savepoint), then goes on up to the
    // write's own handler.
    let mut panic = None;
    let r = conn.transaction(|c| {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(c))).unwrap_or_else(|p| {
            panic = Some(p);
            Err(E::from(db_error("a savepoint panicked")))
        })
    });
    if r.is_err() {
        if let Some(m) = mark {
            tail::rewind(conn, m);
        }
    }
    if let Some(p) = panic {
        std::panic::resume_unwind(p);
    }
    r
}

/// PostgreSQL: writers take turns too, across every server process, with a transaction-level
/// advisory lock. Every rule check then reads a state no other writer is changing, and rows
/// are always locked in one order (no deadlocks). SQLite takes its turn in-process.
fn take_pg_turn(conn: &mut DbConn) -> QueryResult<()> {
    match conn {
        DbConn::Postgres(c) => c.batch_execute(postgres::TURN_LOCK),
        DbConn::Sqlite(_) => Ok(()),
    }
}

pub fn run_migrations(conn: &mut DbConn) -> Result<usize, DbError> {
    let r = match conn {
        DbConn::Sqlite(c) => c.run_pending_migrations(SQLITE_MIGRATIONS).map(|v| v.len()),
        DbConn::Postgres(c) => c
            .run_pending_migrations(POSTGRES_MIGRATIONS)
            .map(|v| v.len()),
    };
    r.map_err(|e| DbError::Migrate(e.to_string()))
}

/// Reverts every applied migration (used by the migration test).
pub fn revert_all_migrations(conn: &mut DbConn) -> Result<usize, DbError> {
    let r = match conn {
        DbConn::Sqlite(c) => c.revert_all_migrations(SQLITE_MIGRATIONS).map(|v| v.len()),
        DbConn::Postgres(c) => c
            .revert_all_migrations(POSTGRES_MIGRATIONS)
            .map(|v| v.len()),
    };
    r.map_err(|e| DbError::Migrate(e.to_string()))
}

/// Runs a diesel query on the connection's own backend (`SqliteConnection` or
/// `PgConnection`) instead of through the [`DbConn`] `MultiConnection` wrapper: the body is
/// compiled once per backend. Why: diesel caches a prepared statement under the query's
/// Rust type when it runs on a backend's own connection, but under its SQL text when it
/// runs through a `MultiConnection` — so each run through the wrapper writes the statement's
/// SQL out again (quoting every identifier) just to find it in the cache. On the floor's
/// hot path that was a third of a write's time. Used for the statements every seat call,
/// seating and leave runs; everything else goes through the wrapper as usual.
#[macro_export]
macro_rules! native {
    ($conn:expr, |$c:ident| $body:expr) => {
        match $conn {
            $crate::db::DbConn::Sqlite($c) => $body,
            $crate::db::DbConn::Postgres($c) => $body,
        }
    };
}

/// A statement diesel would prepare afresh on every run, marked as fine to keep prepared.
///
/// diesel never keeps an `UPDATE` prepared (its `SET` list may skip `None` fields, so one
/// Rust type can stand for several SQL texts). Wrapped in `Cached`, the statement is kept in
/// the connection's cache **under its SQL text** (`QueryId` is not static, so the cache key
/// is the SQL and the bind types, never the Rust type): a different text is a different
/// statement, so this is safe for any statement. Used on the floor's hot path (sequence
/// numbers, state changes of calls, seatings and list entries), where preparing each
/// `UPDATE` again was a sizeable part of a write.
///
/// Run it by value — `get_result`, `load`, [`Cached::changed`] — not with `execute`: diesel's
/// `execute` hands the statement on by reference, and a reference does not pass the "safe to
/// cache" answer through. So the wrapped updates say `RETURNING id` and count the ids they
/// get back.
#[derive(Debug, Clone, Copy)]
pub struct Cached<Q>(pub Q);

impl<Q> diesel::query_builder::QueryId for Cached<Q> {
    type QueryId = ();
    const HAS_STATIC_QUERY_ID: bool = false;
}

impl<Q: diesel::query_builder::Query> diesel::query_builder::Query for Cached<Q> {
    type SqlType = Q::SqlType;
}

impl<Q, DB> diesel::query_builder::QueryFragment<DB> for Cached<Q>
where
    DB: diesel::backend::Backend,
    Q: diesel::query_builder::QueryFragment<DB>,
{
    fn walk_ast<'b>(&'b self, pass: diesel::query_builder::AstPass<'_, 'b, DB>) -> QueryResult<()> {
        self.0.walk_ast(pass)
    }

    fn is_safe_to_cache_prepared(&self, _backend: &DB) -> QueryResult<bool> {
        Ok(true)
    }
}

impl<Q, Conn> RunQueryDsl<Conn> for Cached<Q> {}

impl<Q> Cached<Q> {
    /// Runs an `UPDATE … RETURNING id` kept prepared and tells how many rows it changed (what
    /// `execute` would answer).
    pub fn changed<'q, C>(self, conn: &mut C) -> QueryResult<usize>
    where
        C: diesel::connection::Connection,
        Self: diesel::query_dsl::LoadQuery<'q, C, i64>,
    {
        self.load::<i64>(conn).map(|ids| ids.len())
    }
}

/// Takes the next number of a named sequence inside the current transaction. The row lock
/// this update takes serialises concurrent writers until commit, on both backends.
pub fn next_seq(conn: &mut DbConn, name: &str) -> QueryResult<i64> {
    use schema::sequences::dsl as s;
    if let Some(r) = tail::next_seq(conn, name) {
        return r;
    }
    native!(conn, |c| Cached(
        diesel::update(s::sequences.filter(s::name.eq(name)))
            .set(s::value.eq(s::value + 1))
            .returning(s::value)
    )
    .get_result(c))
}

/// Moves a named sequence to `value` (its next number is `value + 1`).
pub(crate) fn set_seq(conn: &mut DbConn, name: &str, value: i64) -> QueryResult<()> {
    use schema::sequences::dsl as s;
    if let Some(r) = tail::set_seq(conn, name, value) {
        return r;
    }
    diesel::update(s::sequences.filter(s::name.eq(name)))
        .set(s::value.eq(value))
        .execute(conn)
        .map(|_| ())
}

/// The last number a named sequence gave (nothing taken). `audit`: it changes with every
/// recorded change of state, so it tells whether anything happened since it was last read.
pub fn current_seq(conn: &mut DbConn, name: &str) -> QueryResult<i64> {
    use schema::sequences::dsl as s;
    if let Some(r) = tail::current_seq(conn, name) {
        return r;
    }
    native!(conn, |c| s::sequences
        .filter(s::name.eq(name))
        .select(s::value)
        .first(c))
}

/// Reads a setting.
pub fn get_setting(conn: &mut DbConn, key: &str) -> QueryResult<Option<String>> {
    use schema::settings::dsl as s;
    s::settings
        .filter(s::key.eq(key))
        .select(s::value)
        .first(conn)
        .optional()
}

/// Stores a setting if it is not there yet; returns the value in force.
pub fn init_setting(conn: &mut DbConn, key: &str, value: &str) -> QueryResult<String> {
    use schema::settings::dsl as s;
    if let Some(v) = get_setting(conn, key)? {
        return Ok(v);
    }
    diesel::insert_into(s::settings)
        .values((s::key.eq(key), s::value.eq(value)))
        .execute(conn)?;
    Ok(value.to_string())
}

/// Stores a setting, replacing the value in force.
pub fn set_setting(conn: &mut DbConn, key: &str, value: &str) -> QueryResult<()> {
    use schema::settings::dsl as s;
    let n = diesel::update(s::settings.filter(s::key.eq(key)))
        .set(s::value.eq(value))
        .execute(conn)?;
    if n == 0 {
        diesel::insert_into(s::settings)
            .values((s::key.eq(key), s::value.eq(value)))
            .execute(conn)?;
    }
    Ok(())
}

/// The setting that keeps the test clock's offset (microseconds ahead of the wall clock)
/// across restarts (`CARDROOM_TEST_CLOCK=1` only).
pub const TEST_CLOCK_OFFSET: &str = "test_clock_offset_us";

pub use crate::error::is_unique_violation;

/// One round trip to the database (the health check): an error is the database unavailable.
pub fn ping(c: &mut DbConn) -> Result<(), crate::error::AppError> {
    c.batch_execute("SELECT 1")
        .map_err(|e| crate::error::AppError::Unavailable(e.to_string()))
}
