//! The audit trail's signed checkpoints on disk (see `domain::audit_seal` for what they
//! detect and what they cannot).
//!
//! In `CARDROOM_AUDIT_DIR` (default: next to the SQLite file; on PostgreSQL `audit` in the
//! service's state directory, see `Settings::audit_dir_from`): `audit.key` (32 random bytes,
//! hex, mode 0600, created at first start; one per directory) and one checkpoint file per
//! database and host, `audit-checkpoints-<database id>-<host>.log` (one signed line per
//! checkpoint, appended and flushed to disk). The database's identity is a random id kept in
//! the database (`database_identity`, made with it; a restored copy keeps it: it is the same
//! trail), so that servers of several databases may share the directory, each database with
//! its own series, and several hosts serving one database each write theirs. Neither the key
//! nor the checkpoints are in the database, so a copy of the database — or a PostgreSQL
//! superuser — has neither.
//!
//! Two processes on one host and database append to the same file: each line is written
//! whole by one `write` on a file opened with `O_APPEND`, under an exclusive `flock` taken
//! while the last line is read back, so lines never interleave nor go backwards (a local
//! file system is assumed: `O_APPEND` and `flock` are not to be relied on over NFS; give each
//! host its own directory).

use crate::db::schema::audit_log::dsl as a;
use crate::db::schema::database_identity::dsl as di;
use crate::db::DbConn;
use crate::domain::audit_seal::{self, Checkpoint, SealBreak};
use chrono::{DateTime, Utc};
use diesel::prelude::*;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

pub const KEY_FILE: &str = "audit.key";
/// The one checkpoint file of the versions whose checkpoints did not name their database.
/// At start it is adopted by the database whose trail it matches (renamed to that
/// database's series of this host) and otherwise left alone, reported as another
/// database's.
pub const LEGACY_FILE: &str = "audit-checkpoints.log";
const PREFIX: &str = "audit-checkpoints-";
const RETIRED: &str = ".before-restore-";

/// A checkpoint is written when the head moved and this long has passed since the last one
/// (and always when the gaming day changes, and at a clean stop).
pub const EVERY_SECS: i64 = 60;

/// The file of one database's series written from one host.
pub fn series_file(db: &str, host: &str) -> String {
    format!("{PREFIX}{db}-{host}.log")
}

/// This machine's host name, made fit for a file name (`domain::audit_seal::host_label`).
pub fn host_name() -> String {
    let name = ["/proc/sys/kernel/hostname", "/etc/hostname"]
        .iter()
        .find_map(|p| std::fs::read_to_string(p).ok())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_default();
    audit_seal::host_label(&name)
}

/// The database's identity (`None` only if its row was deleted).
pub fn database_id(conn: &mut DbConn) -> QueryResult<Option<String>> {
    di::database_identity.select(di::id).first(conn).optional()
}

/// The database's identity, made now if its row is missing (the migration makes it with the
/// database; a row deleted since gives the database a new identity, and a new series).
pub fn ensure_database_id(conn: &mut DbConn, now: DateTime<Utc>) -> QueryResult<String> {
    if let Some(id) = database_id(conn)? {
        return Ok(id);
    }
    let mut raw = [0u8; 16];
    rand::Rng::fill(&mut rand::rng(), &mut raw[..]);
    let id = hex::encode(raw);
    diesel::insert_into(di::database_identity)
        .values((
            di::one.eq(1),
            di::id.eq(&id),
            di::created_at.eq(now.naive_utc()),
        ))
        .execute(conn)?;
    Ok(id)
}

/// The key and this database's checkpoint file of this host.
pub struct Seal {
    dir: PathBuf,
    key: Vec<u8>,
    db: String,
    host: String,
    /// The last checkpoint written or read: (sequence number, when).
    last: Mutex<Option<(i64, DateTime<Utc>)>>,
    /// At start this host's series file was missing although nothing explains it (not a
    /// first start, no restore, no old file left to another database).
    missing_at_start: std::sync::atomic::AtomicBool,
}

/// What happened when the seal was opened at start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Opened {
    /// The key and this host's checkpoints of this database were there.
    Continued,
    /// No checkpoint file of this database from this host (first start, another database
    /// or host, an upgrade, a restore — or someone deleted it): a new series starts at the
    /// current head. Recorded in the trail as a security event.
    NewSeries { key_created: bool },
}

fn io(what: &str, p: &Path, e: std::io::Error) -> String {
    format!("{what} {}: {e}", p.display())
}

/// The last line of an open file that reads as a checkpoint (from its last 8 KiB: lines are
/// a few hundred bytes).
fn last_checkpoint(f: &mut std::fs::File, key: &[u8]) -> std::io::Result<Option<Checkpoint>> {
    let len = f.seek(SeekFrom::End(0))?;
    f.seek(SeekFrom::Start(len.saturating_sub(8192)))?;
    let mut buf = Vec::new();
    f.read_to_end(&mut buf)?;
    Ok(String::from_utf8_lossy(&buf)
        .lines()
        .rev()
        .find_map(|l| audit_seal::decode(key, l)))
}

impl Seal {
    /// Opens (or creates) the key in `dir`, for database `db` served from host `host`.
    pub fn open(dir: &Path, db: &str, host: &str) -> Result<(Seal, bool), String> {
        if !audit_seal::valid_label(db) || !audit_seal::valid_label(host) {
            return Err(format!(
                "audit checkpoints: {db:?} / {host:?} cannot name a checkpoint file"
            ));
        }
        std::fs::create_dir_all(dir).map_err(|e| io("create", dir, e))?;
        let key_path = dir.join(KEY_FILE);
        let (key, created) = match std::fs::read_to_string(&key_path) {
            Ok(s) => (
                hex::decode(s.trim()).map_err(|_| {
                    format!("{}: not a key (64 hex digits expected)", key_path.display())
                })?,
                false,
            ),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let mut k = vec![0u8; 32];
                rand::Rng::fill(&mut rand::rng(), &mut k[..]);
                write_private(&key_path, &hex::encode(&k))?;
                (k, true)
            }
            Err(e) => return Err(io("read", &key_path, e)),
        };
        if key.len() < 16 {
            return Err(format!("{}: the key is too short", key_path.display()));
        }
        Ok((
            Seal {
                dir: dir.to_path_buf(),
                key,
                db: db.into(),
                host: host.into(),
                last: Mutex::new(None),
                missing_at_start: false.into(),
            },
            created,
        ))
    }

    /// The database's identity the checkpoints name.
    pub fn database_id(&self) -> &str {
        &self.db
    }

    /// The host name this server's checkpoints name.
    pub fn host(&self) -> &str {
        &self.host
    }

    /// This database's series of this host.
    pub fn log_path(&self) -> PathBuf {
        self.dir.join(series_file(&self.db, &self.host))
    }

    /// Whether this host's series of the database was missing at start, unexplained (see
    /// [`Seal::opened`]).
    pub fn missing_at_start(&self) -> bool {
        self.missing_at_start
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The file's text (`None` when there is no file).
    fn read(p: &Path) -> Result<Option<String>, String> {
        match std::fs::read_to_string(p) {
            Ok(s) => Ok(Some(s)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(io("read", p, e)),
        }
    }

    /// This host's checkpoint file's lines (`None` when there is no file).
    pub fn lines(&self) -> Result<Option<String>, String> {
        Self::read(&self.log_path())
    }

    /// Appends `c` unless the file already ends with a checkpoint at or past its record
    /// (another process on this host wrote one meanwhile). Returns whether it was written.
    fn append(&self, c: &Checkpoint) -> Result<bool, String> {
        let p = self.log_path();
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .read(true)
            .open(&p)
            .map_err(|e| io("open", &p, e))?;
        // Released when `f` is closed.
        f.lock().map_err(|e| io("lock", &p, e))?;
        let last = last_checkpoint(&mut f, &self.key).map_err(|e| io("read", &p, e))?;
        if let Some(l) = last.filter(|l| l.seq >= c.seq) {
            *self.last.lock().unwrap_or_else(|e| e.into_inner()) =
                Some((l.seq, DateTime::from_timestamp(l.at, 0).unwrap_or_default()));
            return Ok(false);
        }
        let line = audit_seal::encode(&self.key, c);
        // One write of the whole line (O_APPEND: at the end, whatever another process did).
        let n = f.write(line.as_bytes()).map_err(|e| io("write", &p, e))?;
        if n != line.len() {
            return Err(format!("write {}: a short write ({n} bytes)", p.display()));
        }
        f.sync_data().map_err(|e| io("write", &p, e))?;
        *self.last.lock().unwrap_or_else(|e| e.into_inner()) =
            Some((c.seq, DateTime::from_timestamp(c.at, 0).unwrap_or_default()));
        Ok(true)
    }

    /// Writes a checkpoint of the current head if it moved since the last one and `force`
    /// or [`EVERY_SECS`] have passed. Returns the sequence number written.
    pub fn tick(
        &self,
        conn: &mut DbConn,
        now: DateTime<Utc>,
        reason: &str,
        force: bool,
    ) -> Result<Option<i64>, String> {
        let last = *self.last.lock().unwrap_or_else(|e| e.into_inner());
        let last = match last {
            Some(l) => Some(l),
            None => self.last_in_file()?,
        };
        let Some((seq, hash)) = head(conn).map_err(|e| e.to_string())? else {
            return Ok(None);
        };
        let due = match last {
            None => true,
            Some((s, at)) => seq > s && (force || (now - at).num_seconds() >= EVERY_SECS),
        };
        if !due {
            return Ok(None);
        }
        let written = self.append(&Checkpoint {
            db: Some(self.db.clone()),
            host: Some(self.host.clone()),
            seq,
            hash,
            at: now.timestamp(),
            reason: reason.into(),
        })?;
        Ok(written.then_some(seq))
    }

    fn last_in_file(&self) -> Result<Option<(i64, DateTime<Utc>)>, String> {
        let p = self.log_path();
        let mut f = match std::fs::File::open(&p) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(io("open", &p, e)),
        };
        let last = last_checkpoint(&mut f, &self.key)
            .map_err(|e| io("read", &p, e))?
            .map(|c| (c.seq, DateTime::from_timestamp(c.at, 0).unwrap_or_default()));
        *self.last.lock().unwrap_or_else(|e| e.into_inner()) = last;
        Ok(last)
    }

    /// At start, before [`Seal::opened`]: the old single checkpoint file, if there is one
    /// and this host has no series of this database yet, becomes this database's series when
    /// every checkpoint in it matches this database's trail; otherwise it is left as it is
    /// (another database's, or several databases' in turn). Returns the file adopted.
    pub fn adopt_legacy(&self, conn: &mut DbConn) -> Result<Option<PathBuf>, String> {
        let old = self.dir.join(LEGACY_FILE);
        if !old.exists() || self.log_path().exists() {
            return Ok(None);
        }
        match self.check_file(conn, &old, None)? {
            Some(Ok((n, _))) if n > 0 => {}
            _ => return Ok(None),
        }
        match std::fs::rename(&old, self.log_path()) {
            Ok(()) => Ok(Some(self.log_path())),
            // Another process on this host adopted it first.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(io("rename", &old, e)),
        }
    }

    /// At start: this host's series of the database must exist; without one a new series
    /// starts at the head (the caller records that in the trail, then calls [`Seal::tick`]
    /// with `start`). A missing series is expected when this host never began one for this
    /// database (the trail says so: `audit.seal_started` names the host), after a restore
    /// (the old one set aside) and when an old checkpoint file was left to another
    /// database; otherwise `verify-audit` reports it.
    pub fn opened(&self, conn: &mut DbConn, key_created: bool) -> Result<Opened, String> {
        Ok(match self.lines()? {
            Some(t) if t.lines().any(|l| !l.trim().is_empty()) => Opened::Continued,
            _ => {
                let explained = key_created
                    || !self.began_here_before(conn)?
                    || self.dir.join(LEGACY_FILE).exists()
                    || self.retired_exists()?;
                self.missing_at_start
                    .store(!explained, std::sync::atomic::Ordering::Relaxed);
                Opened::NewSeries { key_created }
            }
        })
    }

    /// Whether the trail records a series begun by this host (or by a server that did not
    /// say which host it was).
    fn began_here_before(&self, conn: &mut DbConn) -> Result<bool, String> {
        let notes: Vec<String> = a::audit_log
            .filter(a::action.eq("audit.seal_started"))
            .select(a::after_json)
            .load(conn)
            .map_err(|e| e.to_string())?;
        Ok(notes.iter().any(|n| {
            let host = serde_json::from_str::<serde_json::Value>(n)
                .ok()
                .and_then(|v| v.get("host").and_then(|h| h.as_str()).map(str::to_string));
            host.is_none_or(|h| h == self.host)
        }))
    }

    fn retired_exists(&self) -> Result<bool, String> {
        let own = format!("{PREFIX}{}-", self.db);
        let old = LEGACY_FILE.trim_end_matches(".log");
        Ok(self.entries()?.iter().any(|n| {
            n.contains(RETIRED) && (n.starts_with(&own) || n.starts_with(&format!("{old}.")))
        }))
    }

    fn entries(&self) -> Result<Vec<String>, String> {
        let mut names: Vec<String> = std::fs::read_dir(&self.dir)
            .map_err(|e| io("read", &self.dir, e))?
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        Ok(names)
    }

    /// This database's series in the directory: (host, file name), this host's first.
    fn series(&self) -> Result<Vec<(String, String)>, String> {
        let own = format!("{PREFIX}{}-", self.db);
        let mut found: Vec<(String, String)> = self
            .entries()?
            .into_iter()
            .filter(|n| !n.contains(RETIRED))
            .filter_map(|n| {
                let host = n.strip_prefix(&own)?.strip_suffix(".log")?;
                audit_seal::valid_label(host).then(|| (host.to_string(), n.clone()))
            })
            .collect();
        found.sort_by_key(|(h, _)| (h != &self.host, h.clone()));
        Ok(found)
    }

    /// Checks one file's checkpoints against the database (`None`: no such file).
    #[allow(clippy::type_complexity)]
    fn check_file(
        &self,
        conn: &mut DbConn,
        path: &Path,
        db: Option<&str>,
    ) -> Result<Option<Result<(usize, Option<Checkpoint>), SealBreak>>, String> {
        let Some(text) = Self::read(path)? else {
            return Ok(None);
        };
        let lines: Vec<&str> = text.lines().collect();
        // The hashes the checkpoints name, read in pages rather than one query each.
        let wanted: Vec<i64> = lines
            .iter()
            .filter_map(|l| audit_seal::decode(&self.key, l))
            .map(|c| c.seq)
            .collect();
        let mut known = std::collections::HashMap::new();
        for chunk in wanted.chunks(500) {
            let rows: Vec<(i64, String)> = a::audit_log
                .filter(a::seq.eq_any(chunk))
                .select((a::seq, a::hash))
                .load(conn)
                .map_err(|e| e.to_string())?;
            known.extend(rows);
        }
        audit_seal::check(&self.key, db, &lines, |seq| Ok(known.get(&seq).cloned())).map(Some)
    }

    /// Checks every series of this database the directory holds (this host's and any other
    /// host's written there), and says what it made of an old checkpoint file left there.
    pub fn verify(&self, conn: &mut DbConn) -> Result<SealReport, String> {
        let mut series = Vec::new();
        let found = self.series()?;
        if !found.iter().any(|(h, _)| h == &self.host) {
            series.push(SeriesReport {
                host: Some(self.host.clone()),
                file: series_file(&self.db, &self.host),
                checkpoints: 0,
                last_seq: None,
                result: SeriesResult::Broken(SealProblem::NoFile),
            });
        }
        for (host, file) in found {
            let r = self.check_file(conn, &self.dir.join(&file), Some(&self.db))?;
            series.push(match r {
                None => SeriesReport {
                    host: Some(host),
                    file,
                    checkpoints: 0,
                    last_seq: None,
                    result: SeriesResult::Broken(SealProblem::NoFile),
                },
                Some(Ok((n, last))) => SeriesReport {
                    host: Some(host),
                    file,
                    checkpoints: n,
                    last_seq: last.map(|c| c.seq),
                    result: SeriesResult::Ok,
                },
                Some(Err(b)) => SeriesReport {
                    host: Some(host),
                    file,
                    checkpoints: 0,
                    last_seq: None,
                    result: SeriesResult::Broken(SealProblem::Broken(b)),
                },
            });
        }
        let old = self.dir.join(LEGACY_FILE);
        if let Some(r) = self.check_file(conn, &old, None)? {
            // Not adopted at start: another database's (or several in turn). What it says
            // of this database is no finding against it.
            let (checkpoints, last_seq, result) = match r {
                Ok((n, last)) if n > 0 => (n, last.map(|c| c.seq), SeriesResult::Ok),
                _ => (0, None, SeriesResult::NotThisDatabase),
            };
            series.push(SeriesReport {
                host: None,
                file: LEGACY_FILE.into(),
                checkpoints,
                last_seq,
                result,
            });
        }
        let ours = series.iter().filter(|s| s.host.is_some());
        let problem = ours.clone().find_map(|s| match &s.result {
            SeriesResult::Broken(p) => Some(p.clone()),
            _ => None,
        });
        Ok(SealReport {
            database_id: self.db.clone(),
            host: self.host.clone(),
            checkpoints: if problem.is_some() {
                0
            } else {
                ours.clone().map(|s| s.checkpoints).sum()
            },
            sealed_up_to: if problem.is_some() {
                None
            } else {
                ours.filter_map(|s| s.last_seq).max()
            },
            problem,
            series,
        })
    }

    /// Moves database `db`'s series (every host's) aside: a restore replaced the database
    /// and its checkpoints speak of records the restored copy never had. Kept, not deleted:
    /// they are evidence. Other databases' series and an old checkpoint file not adopted are
    /// left as they are.
    pub fn retire(dir: &Path, db: &str, now: DateTime<Utc>) -> Result<Vec<PathBuf>, String> {
        let own = format!("{PREFIX}{db}-");
        let stamp = now.format("%Y%m%dT%H%M%SZ");
        let mut moved = Vec::new();
        let names = match std::fs::read_dir(dir) {
            Ok(rd) => rd
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect::<Vec<_>>(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(moved),
            Err(e) => return Err(io("read", dir, e)),
        };
        for n in names {
            let Some(stem) = n
                .strip_suffix(".log")
                .filter(|_| n.starts_with(&own) && !n.contains(RETIRED))
            else {
                continue;
            };
            let (from, to) = (
                dir.join(&n),
                dir.join(format!("{stem}{RETIRED}{stamp}.log")),
            );
            std::fs::rename(&from, &to).map_err(|e| io("rename", &from, e))?;
            moved.push(to);
        }
        Ok(moved)
    }
}

/// The outcome of checking the checkpoints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SealReport {
    /// The database's identity the checkpoints must name.
    pub database_id: String,
    /// This server's host name.
    pub host: String,
    /// Checkpoints verified in this database's series (0 when one is broken).
    pub checkpoints: usize,
    /// The last record a checkpoint vouches for.
    pub sealed_up_to: Option<i64>,
    /// The first problem in this database's series (this host's first).
    pub problem: Option<SealProblem>,
    /// Every series looked at.
    pub series: Vec<SeriesReport>,
}

/// One checkpoint file checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeriesReport {
    /// The host that wrote it (`None`: the old single file, which does not say).
    pub host: Option<String>,
    /// Its file name in the audit directory.
    pub file: String,
    pub checkpoints: usize,
    /// The last record it vouches for.
    pub last_seq: Option<i64>,
    pub result: SeriesResult,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SeriesResult {
    Ok,
    Broken(SealProblem),
    /// The old single file, not this database's checkpoints (not a finding).
    NotThisDatabase,
}

impl SeriesResult {
    /// A stable name (API, CLI, page keys): `ok`, a [`SealProblem::code`], or
    /// `other_database`.
    pub fn code(&self) -> &'static str {
        match self {
            SeriesResult::Ok => "ok",
            SeriesResult::Broken(p) => p.code(),
            SeriesResult::NotThisDatabase => "other_database",
        }
    }

    pub fn at(&self) -> Option<i64> {
        match self {
            SeriesResult::Broken(p) => p.at(),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SealProblem {
    /// The checkpoint file is missing.
    NoFile,
    Broken(SealBreak),
}

impl SealProblem {
    /// A stable name (API, CLI, page keys).
    pub fn code(&self) -> &'static str {
        match self {
            SealProblem::NoFile => "checkpoints_missing",
            SealProblem::Broken(SealBreak::BadLine { .. }) => "checkpoint_forged",
            SealProblem::Broken(SealBreak::OutOfOrder { .. }) => "checkpoints_reordered",
            SealProblem::Broken(SealBreak::Missing { .. }) => "truncated",
            SealProblem::Broken(SealBreak::Rewritten { .. }) => "rewritten",
        }
    }

    /// The record (or for file problems the line) it is about.
    pub fn at(&self) -> Option<i64> {
        match self {
            SealProblem::NoFile => None,
            SealProblem::Broken(SealBreak::BadLine { line })
            | SealProblem::Broken(SealBreak::OutOfOrder { line }) => Some(*line as i64),
            SealProblem::Broken(SealBreak::Missing { seq })
            | SealProblem::Broken(SealBreak::Rewritten { seq }) => Some(*seq),
        }
    }
}

/// The newest record: its sequence number and hash.
pub fn head(conn: &mut DbConn) -> QueryResult<Option<(i64, String)>> {
    a::audit_log
        .order(a::seq.desc())
        .select((a::seq, a::hash))
        .first(conn)
        .optional()
}

fn write_private(p: &Path, text: &str) -> Result<(), String> {
    let mut o = std::fs::OpenOptions::new();
    o.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.mode(0o600);
    }
    let mut f = o.open(p).map_err(|e| io("create", p, e))?;
    f.write_all(text.as_bytes())
        .and_then(|_| f.sync_all())
        .map_err(|e| io("write", p, e))
}
