//! The pool's connection manager: opens a connection of either backend and applies its
//! per-connection settings.

use super::{sqlite_path, Backend, DbConn};
use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use diesel::r2d2::{self, ManageConnection};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Opens connections for the pool and applies per-connection settings: SQLite in WAL mode,
/// with a busy timeout and foreign keys on; PostgreSQL in UTC.
///
/// PostgreSQL outages: a connection whose server went away (stopped, restarted,
/// failed over) must never be handed out again. Each checkout and each return probes the
/// connection without a round trip ([`probe`]); a connection that fails the probe, or whose
/// transaction could not be closed, is dropped and the pool opens a new one. While the
/// database has recently failed ([`Health`]), checkouts also run `SELECT 1` and give up
/// quickly, so requests are answered 503 at once instead of waiting for the pool.
#[derive(Debug, Clone)]
pub struct Manager {
    pub(super) url: String,
    pub(super) backend: Backend,
    pub(super) health: Arc<Health>,
    /// SQLite: `PRAGMA synchronous` of every connection (`CARDROOM_SQLITE_SYNCHRONOUS`).
    pub(super) synchronous: super::Synchronous,
}

/// How long after the last failure seen the database stays "suspect".
pub const SUSPECT_FOR: Duration = Duration::from_secs(30);

/// What the process knows of the database's reachability: the last time a connection failed
/// (opening one, a probe, a query that lost its connection). Shared by the pool's manager,
/// the error handler and the callers that see a connection-loss error.
#[derive(Debug)]
pub struct Health {
    start: Instant,
    /// Milliseconds after `start` until which the database is suspect (0: never failed).
    suspect_until_ms: AtomicU64,
    /// True from a failure until a connection works again (for the two log lines).
    down: AtomicBool,
    /// Failures seen (connections that could not be opened or were found dead).
    pub failures: AtomicU64,
}

impl Default for Health {
    fn default() -> Self {
        Health {
            start: Instant::now(),
            suspect_until_ms: AtomicU64::new(0),
            down: AtomicBool::new(false),
            failures: AtomicU64::new(0),
        }
    }
}

impl Health {
    fn now_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// A connection failed: the database may be down. Logged once per outage, not per request.
    pub fn failed(&self, why: &str) {
        self.failures.fetch_add(1, Relaxed);
        self.suspect_until_ms
            .store(self.now_ms() + SUSPECT_FOR.as_millis() as u64, Relaxed);
        if !self.down.swap(true, Relaxed) {
            log::error!("database unreachable ({why}); requests are answered 503 until it is back, and every connection is tested before use");
        } else {
            log::debug!("database still unreachable: {why}");
        }
    }

    /// A connection worked (opened, or passed a test while suspect).
    fn worked(&self) {
        if self.down.swap(false, Relaxed) {
            log::warn!("database reachable again");
        }
    }

    /// True within [`SUSPECT_FOR`] of the last failure.
    pub fn suspect(&self) -> bool {
        let until = self.suspect_until_ms.load(Relaxed);
        until != 0 && self.now_ms() < until
    }

    /// True while no connection has worked since the last failure.
    pub fn down(&self) -> bool {
        self.down.load(Relaxed)
    }
}

/// The pool's error handler: a connection that could not be opened marks the database
/// suspect (instead of r2d2's default, an error line per attempt: thousands in an outage).
#[derive(Debug)]
pub struct HealthErrors(pub Arc<Health>);

impl r2d2::HandleError<r2d2::Error> for HealthErrors {
    fn handle_error(&self, error: r2d2::Error) {
        self.0.failed(&error.to_string());
    }
}

/// Is this connection still connected? PostgreSQL: reads what the server may have sent
/// without waiting (libpq's `PQconsumeInput`, non-blocking `recv`s, no round trip): a
/// server that stopped or restarted has closed the socket, and libpq then reports the
/// connection bad. The pool's connections never `LISTEN`, so nothing is lost by reading.
fn probe(conn: &mut DbConn) -> Result<(), String> {
    match conn {
        DbConn::Postgres(c) => {
            // Twice: a server that ends a connection sends its reason (a FATAL message) and
            // then closes the socket. The first read takes the message, the second meets the
            // end of the stream, which is what makes libpq call the connection bad.
            for _ in 0..2 {
                for n in c.notifications_iter() {
                    n.map_err(|e| e.to_string())?;
                }
            }
            Ok(())
        }
        DbConn::Sqlite(_) => Ok(()),
    }
}

/// libpq's `connect_timeout` (seconds) unless the URL sets one: an unreachable host fails
/// the attempt instead of hanging for the kernel's TCP timeout.
fn with_connect_timeout(url: &str) -> String {
    if url.contains("connect_timeout=") {
        url.to_string()
    } else if url.contains('?') {
        format!("{url}&connect_timeout=3")
    } else {
        format!("{url}?connect_timeout=3")
    }
}

impl ManageConnection for Manager {
    type Connection = DbConn;
    type Error = r2d2::Error;

    fn connect(&self) -> Result<DbConn, r2d2::Error> {
        match self.backend {
            Backend::Sqlite => {
                let mut c = diesel::SqliteConnection::establish(sqlite_path(&self.url))
                    .map_err(r2d2::Error::ConnectionError)?;
                // WAL is a property of the file, set once in `Db::open`; the rest (durability,
                // checkpoints left to the checkpointer thread) in `sqlite::connection_pragmas`.
                c.batch_execute(&super::sqlite::connection_pragmas(self.synchronous))
                    .map_err(r2d2::Error::QueryError)?;
                Ok(DbConn::Sqlite(c))
            }
            Backend::Postgres => {
                let mut c = diesel::PgConnection::establish(&with_connect_timeout(&self.url))
                    .map_err(r2d2::Error::ConnectionError)?;
                c.batch_execute("SET TIME ZONE 'UTC';")
                    .map_err(r2d2::Error::QueryError)?;
                self.health.worked();
                Ok(DbConn::Postgres(c))
            }
        }
    }

    /// On every checkout: the probe; while the database is suspect, a query as well.
    fn is_valid(&self, conn: &mut DbConn) -> Result<(), r2d2::Error> {
        if let Err(e) = probe(conn) {
            self.health.failed(&e);
            return Err(r2d2::Error::QueryError(
                diesel::result::Error::DatabaseError(
                    diesel::result::DatabaseErrorKind::ClosedConnection,
                    Box::new(e),
                ),
            ));
        }
        if self.health.suspect() {
            conn.batch_execute("SELECT 1").map_err(|e| {
                self.health.failed(&e.to_string());
                r2d2::Error::QueryError(e)
            })?;
            self.health.worked();
        }
        Ok(())
    }

    /// On every return to the pool: a connection left in a transaction it could not close
    /// (its rollback failed: the server went away) or that fails the probe is dropped.
    fn has_broken(&self, conn: &mut DbConn) -> bool {
        use diesel::r2d2::R2D2Connection;
        if std::thread::panicking() {
            return true;
        }
        let broken = conn.is_broken();
        let gone = probe(conn).err();
        if let Some(why) = &gone {
            self.health.failed(why);
        } else if broken {
            self.health.failed("a transaction could not be closed");
        }
        broken || gone.is_some()
    }
}
