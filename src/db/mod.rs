//! Storage: diesel over SQLite (embedded default) or PostgreSQL (production), chosen by the
//! database URL. One connection type, [`DbConn`], serves both; migrations for each backend are
//! embedded in the binary and run at start.

pub mod audit;
pub mod models;
pub mod schema;

use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use diesel::r2d2::{self, ManageConnection, Pool, PooledConnection};
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
    url.strip_prefix("sqlite://").or_else(|| url.strip_prefix("sqlite:")).unwrap_or(url)
}

/// Opens connections for the pool and applies per-connection settings: SQLite in WAL mode,
/// with a busy timeout and foreign keys on; PostgreSQL in UTC.
#[derive(Debug, Clone)]
pub struct Manager {
    url: String,
    backend: Backend,
}

impl ManageConnection for Manager {
    type Connection = DbConn;
    type Error = r2d2::Error;

    fn connect(&self) -> Result<DbConn, r2d2::Error> {
        match self.backend {
            Backend::Sqlite => {
                let mut c = diesel::SqliteConnection::establish(sqlite_path(&self.url))
                    .map_err(r2d2::Error::ConnectionError)?;
                // WAL is a property of the file, set once in `Db::open`.
                c.batch_execute("PRAGMA busy_timeout = 10000; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;")
                .map_err(r2d2::Error::QueryError)?;
                Ok(DbConn::Sqlite(c))
            }
            Backend::Postgres => {
                let mut c = diesel::PgConnection::establish(&self.url).map_err(r2d2::Error::ConnectionError)?;
                c.batch_execute("SET TIME ZONE 'UTC';").map_err(r2d2::Error::QueryError)?;
                Ok(DbConn::Postgres(c))
            }
        }
    }

    fn is_valid(&self, conn: &mut DbConn) -> Result<(), r2d2::Error> {
        conn.batch_execute("SELECT 1").map_err(r2d2::Error::QueryError)
    }

    fn has_broken(&self, _conn: &mut DbConn) -> bool {
        false
    }
}

pub type Conn = PooledConnection<Manager>;

/// The pool plus, for SQLite, a writer lock: SQLite allows one writer at a time, and taking
/// turns in the process avoids "database is locked" when a read turns into a write.
#[derive(Clone)]
pub struct Db {
    pub pool: Pool<Manager>,
    pub backend: Backend,
    writer: Arc<Mutex<()>>,
}

#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("cannot open the database: {0}")]
    Open(String),
    #[error("migrations failed: {0}")]
    Migrate(String),
}

impl Db {
    pub fn open(url: &str, pool_size: u32) -> Result<Db, DbError> {
        let backend = Backend::of_url(url);
        if backend == Backend::Sqlite {
            let path = std::path::Path::new(sqlite_path(url));
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir).map_err(|e| DbError::Open(format!("{}: {e}", dir.display())))?;
            }
        }
        if backend == Backend::Sqlite {
            // Switching to WAL needs the file to itself: do it once, before the pool opens
            // its connections in parallel.
            let mut c = diesel::SqliteConnection::establish(sqlite_path(url)).map_err(|e| DbError::Open(e.to_string()))?;
            c.batch_execute("PRAGMA busy_timeout = 10000; PRAGMA journal_mode = WAL;")
                .map_err(|e| DbError::Open(e.to_string()))?;
        }
        let manager = Manager { url: url.to_string(), backend };
        let pool = Pool::builder()
            .max_size(pool_size)
            // No "SELECT 1" on every checkout: a broken connection shows up as a query error
            // (answered 503) and r2d2 replaces it.
            .test_on_check_out(false)
            .connection_timeout(Duration::from_secs(10))
            .build(manager)
            .map_err(|e| DbError::Open(e.to_string()))?;
        Ok(Db { pool, backend, writer: Arc::new(Mutex::new(())) })
    }

    pub fn conn(&self) -> Result<Conn, r2d2::PoolError> {
        self.pool.get()
    }

    /// Applies pending migrations for this backend.
    pub fn migrate(&self) -> Result<usize, DbError> {
        let mut conn = self.conn().map_err(|e| DbError::Open(e.to_string()))?;
        run_migrations(&mut conn)
    }

    /// Runs `f` in one write transaction: everything it writes commits together, or nothing.
    pub fn write<T, E>(&self, conn: &mut DbConn, f: impl FnOnce(&mut DbConn) -> Result<T, E>) -> Result<T, E>
    where
        E: From<diesel::result::Error>,
    {
        let _turn = self.writer_turn();
        conn.transaction(|c| {
            take_pg_turn(c)?;
            f(c)
        })
    }

    /// SQLite takes one writer at a time: wait for the turn (PostgreSQL needs none).
    fn writer_turn(&self) -> Option<std::sync::MutexGuard<'_, ()>> {
        match self.backend {
            Backend::Sqlite => Some(self.writer.lock().unwrap_or_else(|e| e.into_inner())),
            Backend::Postgres => None,
        }
    }

    /// Like [`write`](Self::write), taking a connection from the pool only once it is this
    /// writer's turn: waiting writers hold no connection, so readers are never starved.
    pub fn write_new<T, E>(&self, f: impl FnOnce(&mut DbConn) -> Result<T, E>) -> Result<T, E>
    where
        E: From<diesel::result::Error> + From<r2d2::PoolError>,
    {
        let _turn = self.writer_turn();
        let mut conn = self.conn()?;
        let c: &mut DbConn = &mut conn;
        c.transaction(|c| {
            take_pg_turn(c)?;
            f(c)
        })
    }
}

/// PostgreSQL: writers take turns too, across every server process, with a transaction-level
/// advisory lock. Every rule check then reads a state no other writer is changing, and rows
/// are always locked in one order (no deadlocks). SQLite takes its turn in-process.
fn take_pg_turn(conn: &mut DbConn) -> QueryResult<()> {
    match conn {
        DbConn::Postgres(c) => c.batch_execute("SELECT pg_advisory_xact_lock(72010001)"),
        DbConn::Sqlite(_) => Ok(()),
    }
}

pub fn run_migrations(conn: &mut DbConn) -> Result<usize, DbError> {
    let r = match conn {
        DbConn::Sqlite(c) => c.run_pending_migrations(SQLITE_MIGRATIONS).map(|v| v.len()),
        DbConn::Postgres(c) => c.run_pending_migrations(POSTGRES_MIGRATIONS).map(|v| v.len()),
    };
    r.map_err(|e| DbError::Migrate(e.to_string()))
}

/// Reverts every applied migration (used by the migration test).
pub fn revert_all_migrations(conn: &mut DbConn) -> Result<usize, DbError> {
    let r = match conn {
        DbConn::Sqlite(c) => c.revert_all_migrations(SQLITE_MIGRATIONS).map(|v| v.len()),
        DbConn::Postgres(c) => c.revert_all_migrations(POSTGRES_MIGRATIONS).map(|v| v.len()),
    };
    r.map_err(|e| DbError::Migrate(e.to_string()))
}

/// Takes the next number of a named sequence inside the current transaction. The row lock
/// this update takes serialises concurrent writers until commit, on both backends.
pub fn next_seq(conn: &mut DbConn, name: &str) -> QueryResult<i64> {
    use schema::sequences::dsl as s;
    diesel::update(s::sequences.filter(s::name.eq(name))).set(s::value.eq(s::value + 1)).execute(conn)?;
    s::sequences.filter(s::name.eq(name)).select(s::value).first(conn)
}

/// Reads a setting.
pub fn get_setting(conn: &mut DbConn, key: &str) -> QueryResult<Option<String>> {
    use schema::settings::dsl as s;
    s::settings.filter(s::key.eq(key)).select(s::value).first(conn).optional()
}

/// Stores a setting if it is not there yet; returns the value in force.
pub fn init_setting(conn: &mut DbConn, key: &str, value: &str) -> QueryResult<String> {
    use schema::settings::dsl as s;
    if let Some(v) = get_setting(conn, key)? {
        return Ok(v);
    }
    diesel::insert_into(s::settings).values((s::key.eq(key), s::value.eq(value))).execute(conn)?;
    Ok(value.to_string())
}

/// True when the error is a unique-constraint violation (a concurrent or duplicate insert).
pub fn is_unique_violation(e: &diesel::result::Error) -> bool {
    matches!(e, diesel::result::Error::DatabaseError(diesel::result::DatabaseErrorKind::UniqueViolation, _))
}
