//! Backups of the embedded (SQLite) database that are known to restore.
//!
//! `cardroom backup` copies the database while the server is serving — `VACUUM INTO`, which
//! reads one consistent snapshot (a read transaction: writers go on) and writes a compact,
//! self-contained file without a write-ahead log — then checks the copy before it is called a
//! backup: `PRAGMA integrity_check`, the tables of a cardroom database, and the audit trail's
//! hash chain from its first record to its last. The copy is written under a temporary name
//! in the target directory and renamed only once it passed, so a failed backup (unwritable
//! target, full disk, a copy that fails its checks) leaves no file that looks like a backup
//! and never touches the good ones already there.
//!
//! `cardroom restore FILE` puts a checked backup in place of the room's database, with the
//! server stopped: a serving process holds [`ServeLock`] on the database, and restore refuses
//! while it is held. The database it replaces is kept beside it.
//!
//! PostgreSQL keeps its own tools: [`postgres_advice`] says which and prints a ready command.

use crate::db::{sqlite_path, Backend, DbConn};
use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    #[error("{0}")]
    Io(String),
    #[error("the copy failed its check: {0}")]
    Check(String),
    #[error("{0}")]
    Refused(String),
    #[error("database: {0}")]
    Db(String),
}

/// What a checked file holds.
#[derive(Debug, Clone)]
pub struct Checked {
    pub path: PathBuf,
    pub bytes: u64,
    /// Audit records verified (the whole chain).
    pub audit_records: u64,
    /// Players in the registry (a figure an operator recognises).
    pub players: i64,
}

/// Tables every cardroom database has (and a stray SQLite file does not).
const REQUIRED_TABLES: [&str; 5] = [
    "__diesel_schema_migrations",
    "audit_log",
    "sequences",
    "players",
    "settings",
];

/// Checks a SQLite file: it opens read-only, `PRAGMA integrity_check` says `ok`, it has the
/// tables of a cardroom database, and its audit chain verifies from the first record to the
/// last (and reaches the audit sequence's last number: a copy cut short is refused).
pub fn check_file(path: &Path) -> Result<Checked, BackupError> {
    let bytes = std::fs::metadata(path)
        .map_err(|e| BackupError::Io(format!("{}: {e}", path.display())))?
        .len();
    let url = format!("file:{}?mode=ro", path.display());
    let mut c = diesel::SqliteConnection::establish(&url)
        .map_err(|e| BackupError::Check(format!("cannot open {}: {e}", path.display())))?;
    #[derive(QueryableByName)]
    struct Text {
        #[diesel(sql_type = diesel::sql_types::Text)]
        v: String,
    }
    let integrity: Vec<Text> =
        diesel::sql_query("SELECT integrity_check AS v FROM pragma_integrity_check")
            .load(&mut c)
            .map_err(|e| {
                BackupError::Check(format!("{} is not a SQLite database: {e}", path.display()))
            })?;
    if integrity.len() != 1 || integrity[0].v != "ok" {
        let first: Vec<&str> = integrity.iter().take(3).map(|t| t.v.as_str()).collect();
        return Err(BackupError::Check(format!(
            "integrity_check: {}",
            first.join("; ")
        )));
    }
    let tables: Vec<Text> =
        diesel::sql_query("SELECT name AS v FROM sqlite_master WHERE type = 'table'")
            .load(&mut c)
            .map_err(|e| BackupError::Check(e.to_string()))?;
    for t in REQUIRED_TABLES {
        if !tables.iter().any(|x| x.v == t) {
            return Err(BackupError::Check(format!(
                "{} is not a cardroom database (no table {t})",
                path.display()
            )));
        }
    }
    let mut conn = DbConn::Sqlite(c);
    let chain = crate::db::audit::verify(&mut conn)
        .map_err(|e| BackupError::Check(format!("audit trail: {e}")))?;
    if !chain.ok {
        return Err(BackupError::Check(format!(
            "audit trail broken at record {} ({})",
            chain.broken_at.unwrap_or_default(),
            chain.problem.unwrap_or("?")
        )));
    }
    let last = crate::db::current_seq(&mut conn, "audit")
        .map_err(|e| BackupError::Check(format!("audit sequence: {e}")))?;
    if last != chain.records as i64 {
        return Err(BackupError::Check(format!(
            "the audit trail has {} records but its sequence says {last}: records are missing",
            chain.records
        )));
    }
    use crate::db::schema::players::dsl as p;
    let players = p::players
        .count()
        .get_result(&mut conn)
        .map_err(|e| BackupError::Check(e.to_string()))?;
    Ok(Checked {
        path: path.to_path_buf(),
        bytes,
        audit_records: chain.records,
        players,
    })
}

/// The default name of a backup: `cardroom-YYYYMMDD-HHMMSS.mmm.db` (UTC; the milliseconds
/// keep a "back up now" right after another from colliding with it).
pub fn default_name(now: chrono::DateTime<chrono::Utc>) -> String {
    format!("cardroom-{}.db", now.format(NAME_TIME))
}

const NAME_TIME: &str = "%Y%m%d-%H%M%S%.3f";

/// Copies the room's SQLite database to `dest` while it may be in use, checks the copy, and
/// only then gives it its name. `dest` must not exist yet.
pub fn backup_to(database_url: &str, dest: &Path) -> Result<Checked, BackupError> {
    if Backend::of_url(database_url) != Backend::Sqlite {
        return Err(BackupError::Refused(postgres_advice(database_url, dest)));
    }
    let src = sqlite_path(database_url);
    if !Path::new(src).exists() {
        return Err(BackupError::Io(format!("no database at {src}")));
    }
    if dest.exists() {
        return Err(BackupError::Refused(format!(
            "{} exists already; a backup never overwrites a file",
            dest.display()
        )));
    }
    let dir = match dest.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if !dir.is_dir() {
        return Err(BackupError::Io(format!(
            "the backup directory {} does not exist",
            dir.display()
        )));
    }
    let name = dest
        .file_name()
        .ok_or_else(|| BackupError::Io(format!("{} is not a file name", dest.display())))?;
    let tmp = dir.join(format!(".{}.partial", name.to_string_lossy()));
    let _ = std::fs::remove_file(&tmp);
    let result = (|| {
        let mut c =
            diesel::SqliteConnection::establish(src).map_err(|e| BackupError::Db(e.to_string()))?;
        c.batch_execute("PRAGMA busy_timeout = 10000;")
            .map_err(|e| BackupError::Db(e.to_string()))?;
        diesel::sql_query("VACUUM INTO ?")
            .bind::<diesel::sql_types::Text, _>(tmp.to_string_lossy().to_string())
            .execute(&mut c)
            .map_err(|e| BackupError::Io(format!("writing {}: {e}", tmp.display())))?;
        drop(c);
        // On disk before it is called a backup.
        std::fs::File::open(&tmp)
            .and_then(|f| f.sync_all())
            .map_err(|e| BackupError::Io(format!("{}: {e}", tmp.display())))?;
        let checked = check_file(&tmp)?;
        std::fs::rename(&tmp, dest)
            .map_err(|e| BackupError::Io(format!("{} → {}: {e}", tmp.display(), dest.display())))?;
        if let Ok(d) = std::fs::File::open(&dir) {
            let _ = d.sync_all();
        }
        Ok(Checked {
            path: dest.to_path_buf(),
            ..checked
        })
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Restores a backup in place of the room's SQLite database, with no server running on it.
/// The file is checked first; the database it replaces is renamed
/// `<db>.before-restore-<time>` (with its `-wal`), never deleted. Returns the check of the
/// restored database and where the old one went.
pub fn restore(
    database_url: &str,
    file: &Path,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<(Checked, Option<PathBuf>), BackupError> {
    if Backend::of_url(database_url) != Backend::Sqlite {
        return Err(BackupError::Refused(
            "the database is PostgreSQL: restore with pg_restore (see `cardroom backup` for the matching pg_dump command)".into(),
        ));
    }
    let db = PathBuf::from(sqlite_path(database_url));
    let _lock = ServeLock::acquire(&db).map_err(|_| {
        BackupError::Refused(format!("a cardroom server is running on {}: stop it first (restore replaces the database under it)", db.display()))
    })?;
    check_file(file)?;
    let dir = match db.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let tmp = dir.join(format!(
        ".{}.restoring",
        db.file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default()
    ));
    std::fs::copy(file, &tmp)
        .map_err(|e| BackupError::Io(format!("{} → {}: {e}", file.display(), tmp.display())))?;
    std::fs::File::open(&tmp)
        .and_then(|f| f.sync_all())
        .map_err(|e| BackupError::Io(e.to_string()))?;
    let mut kept = None;
    if db.exists() {
        let old = PathBuf::from(format!(
            "{}.before-restore-{}",
            db.display(),
            now.format("%Y%m%d-%H%M%S")
        ));
        std::fs::rename(&db, &old)
            .map_err(|e| BackupError::Io(format!("{}: {e}", db.display())))?;
        for suffix in ["-wal", "-shm"] {
            let side = PathBuf::from(format!("{}{suffix}", db.display()));
            if side.exists() {
                let _ = std::fs::rename(&side, format!("{}{suffix}", old.display()));
            }
        }
        kept = Some(old);
    }
    std::fs::rename(&tmp, &db).map_err(|e| BackupError::Io(format!("{}: {e}", db.display())))?;
    let checked = check_file(&db)?;
    Ok((checked, kept))
}

/// What to do on PostgreSQL instead, with a ready command.
pub fn postgres_advice(database_url: &str, dest: &Path) -> String {
    format!(
        "the database is PostgreSQL: back it up with PostgreSQL's own tools, which copy a live database consistently:\n  \
         pg_dump --format=custom --file={} '{}'\n\
         (the password from PGPASSWORD or ~/.pgpass; restore with pg_restore --clean --dbname=…). For point-in-time \
         recovery, archive the write-ahead log (archive_mode, pg_basebackup) as PostgreSQL's manual describes. Check a \
         dump by restoring it into a scratch database and running `cardroom verify-audit` against it.",
        dest.with_extension("dump").display(),
        without_password(database_url)
    )
}

/// `postgres://user:secret@host/db` → `postgres://user@host/db` (never print a password).
fn without_password(url: &str) -> String {
    if let Some((scheme, rest)) = url.split_once("://") {
        if let Some((creds, host)) = rest.rsplit_once('@') {
            let user = creds.split(':').next().unwrap_or_default();
            return format!("{scheme}://{user}@{host}");
        }
    }
    url.to_string()
}

/// Held by a serving process for its whole life: an exclusive advisory lock (`flock`) on
/// `<db>.lock`. `restore` takes it too, so it cannot replace a database under a server, and a
/// second server on the same SQLite file is refused at start.
pub struct ServeLock {
    _file: std::fs::File,
}

impl ServeLock {
    pub fn acquire(db: &Path) -> Result<ServeLock, String> {
        let path = PathBuf::from(format!("{}.lock", db.display()));
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        file.try_lock()
            .map_err(|e| format!("{} is locked by another process: {e}", path.display()))?;
        Ok(ServeLock { _file: file })
    }
}

// ---- scheduled backups (`CARDROOM_BACKUP_DIR`) -------------------------------------------

/// A backup the server made, as found in the directory: only files named
/// `cardroom-YYYYMMDD-HHMMSS.mmm.db` count (a file gets that name only once it passed its check).
#[derive(Debug, Clone)]
pub struct BackupFile {
    pub name: String,
    pub bytes: u64,
    pub at: chrono::DateTime<chrono::Utc>,
}

/// The scheduled backups, newest first.
pub fn list(dir: &Path) -> Vec<BackupFile> {
    let mut out: Vec<BackupFile> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .filter_map(|e| {
                    let name = e.file_name().to_string_lossy().to_string();
                    let stamp = name.strip_prefix("cardroom-")?.strip_suffix(".db")?;
                    let at = chrono::NaiveDateTime::parse_from_str(stamp, NAME_TIME)
                        .ok()?
                        .and_utc();
                    let bytes = e.metadata().ok()?.len();
                    Some(BackupFile { name, bytes, at })
                })
                .collect()
        })
        .unwrap_or_default();
    out.sort_by_key(|f| std::cmp::Reverse(f.at));
    out
}

/// Deletes the oldest scheduled backups beyond `keep` (never anything else in the directory).
pub fn prune(dir: &Path, keep: usize) -> usize {
    list(dir)
        .into_iter()
        .skip(keep)
        .filter(|f| std::fs::remove_file(dir.join(&f.name)).is_ok())
        .count()
}

/// What the server knows of its own scheduled backups (shown on `/admin/backups`; a failure
/// is an alert on every staff page until a backup succeeds again).
#[derive(Debug, Clone, Default)]
pub struct Status {
    pub last_ok: Option<(chrono::DateTime<chrono::Utc>, String)>,
    pub last_error: Option<(chrono::DateTime<chrono::Utc>, String)>,
}

impl Status {
    /// The failure to show, if the last attempt failed.
    pub fn failing(&self) -> Option<&(chrono::DateTime<chrono::Utc>, String)> {
        match (&self.last_ok, &self.last_error) {
            (Some((ok, _)), Some(e)) if e.0 > *ok => Some(e),
            (None, Some(e)) => Some(e),
            _ => None,
        }
    }
}

/// One scheduled backup: a checked copy in `dir`, then the oldest beyond `keep` removed.
pub fn scheduled(
    database_url: &str,
    dir: &Path,
    keep: usize,
    now: chrono::DateTime<chrono::Utc>,
    status: &std::sync::Mutex<Status>,
) -> Result<Checked, BackupError> {
    let r = std::fs::create_dir_all(dir)
        .map_err(|e| BackupError::Io(format!("{}: {e}", dir.display())))
        .and_then(|_| backup_to(database_url, &dir.join(default_name(now))));
    let mut s = status.lock().unwrap_or_else(|p| p.into_inner());
    match &r {
        Ok(c) => {
            let pruned = prune(dir, keep);
            tracing::info!(file = %c.path.display(), bytes = c.bytes, audit_records = c.audit_records, pruned, "scheduled backup written and checked");
            s.last_ok = Some((now, c.path.display().to_string()));
        }
        Err(e) => {
            tracing::error!(error = %e, dir = %dir.display(), "scheduled backup FAILED (the backups already there are untouched)");
            s.last_error = Some((now, e.to_string()));
        }
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_postgresql_advice_never_shows_the_password() {
        let a = postgres_advice(
            "postgres://cardroom:s3cr3t@db.example:5432/room",
            Path::new("/var/backups/cardroom-1.db"),
        );
        assert!(!a.contains("s3cr3t"), "{a}");
        assert!(a.contains("pg_dump --format=custom --file=/var/backups/cardroom-1.dump 'postgres://cardroom@db.example:5432/room'"), "{a}");
        assert_eq!(without_password("postgres://u@h/d"), "postgres://u@h/d");
    }

    #[test]
    fn a_file_that_is_not_a_cardroom_database_is_refused() {
        let dir = tempfile_dir();
        let f = dir.join("notes.db");
        std::fs::write(&f, b"not a database at all, just text").unwrap();
        assert!(matches!(check_file(&f), Err(BackupError::Check(_))));
        let g = dir.join("other.db");
        let mut c = diesel::SqliteConnection::establish(&g.to_string_lossy()).unwrap();
        c.batch_execute("CREATE TABLE t (x INTEGER)").unwrap();
        drop(c);
        let e = check_file(&g).unwrap_err().to_string();
        assert!(e.contains("is not a cardroom database"), "{e}");
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn only_scheduled_backups_are_listed_and_pruned() {
        let dir = tempfile_dir();
        for n in [
            "cardroom-20261101-010000.000.db",
            "cardroom-20261102-010000.000.db",
            "cardroom-20261103-010000.500.db",
            "notes.txt",
            ".cardroom-x.db.partial",
            "cardroom-bad.db",
        ] {
            std::fs::write(dir.join(n), b"x").unwrap();
        }
        let l = list(&dir);
        assert_eq!(
            l.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(),
            [
                "cardroom-20261103-010000.500.db",
                "cardroom-20261102-010000.000.db",
                "cardroom-20261101-010000.000.db"
            ]
        );
        assert_eq!(prune(&dir, 2), 1);
        assert!(!dir.join("cardroom-20261101-010000.000.db").exists());
        assert!(
            dir.join("notes.txt").exists() && dir.join("cardroom-bad.db").exists(),
            "nothing else is touched"
        );
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn a_failure_shows_until_a_later_success() {
        let t = |h: i64| chrono::DateTime::<chrono::Utc>::from_timestamp(h * 3600, 0).unwrap();
        let mut s = Status::default();
        assert!(s.failing().is_none());
        s.last_error = Some((t(1), "disk full".into()));
        assert!(s.failing().is_some());
        s.last_ok = Some((t(2), "f".into()));
        assert!(s.failing().is_none());
        s.last_error = Some((t(3), "disk full".into()));
        assert_eq!(s.failing().unwrap().1, "disk full");
    }

    #[test]
    fn the_serve_lock_is_held_once() {
        let dir = tempfile_dir();
        let db = dir.join("room.db");
        let a = ServeLock::acquire(&db).expect("first");
        assert!(
            ServeLock::acquire(&db).is_err(),
            "a second holder is refused"
        );
        drop(a);
        assert!(ServeLock::acquire(&db).is_ok(), "free again once released");
        let _ = std::fs::remove_dir_all(dir);
    }

    fn tempfile_dir() -> PathBuf {
        let d = std::env::temp_dir().join(format!(
            "cardroom-backup-unit-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }
}
