//! The audit trail's signed checkpoints on disk (see `domain::audit_seal` for what they
//! detect and what they cannot).
//!
//! Two files in `CARDROOM_AUDIT_DIR` (default: next to the SQLite file; on PostgreSQL the
//! server's working directory): `audit.key` (32 random bytes, hex, mode 0600, created at
//! first start) and `audit-checkpoints.log` (one signed line per checkpoint, appended and
//! flushed to disk). Neither is in the database, so a copy of the database — or a
//! PostgreSQL superuser — has neither.

use crate::db::schema::audit_log::dsl as a;
use crate::db::DbConn;
use crate::domain::audit_seal::{self, Checkpoint, SealBreak};
use chrono::{DateTime, Utc};
use diesel::prelude::*;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

pub const KEY_FILE: &str = "audit.key";
pub const LOG_FILE: &str = "audit-checkpoints.log";

/// A checkpoint is written when the head moved and this long has passed since the last one
/// (and always when the gaming day changes, and at a clean stop).
pub const EVERY_SECS: i64 = 60;

/// The key and the checkpoint file of one server.
pub struct Seal {
    dir: PathBuf,
    key: Vec<u8>,
    /// The last checkpoint written or read: (sequence number, when).
    last: Mutex<Option<(i64, DateTime<Utc>)>>,
}

/// What happened when the seal was opened at start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Opened {
    /// The key and the checkpoints were there.
    Continued,
    /// No checkpoint file (first start, an upgrade, a restore — or someone deleted it): a new
    /// series starts at the current head. Recorded in the trail as a security event.
    NewSeries { key_created: bool },
}

fn io(what: &str, p: &Path, e: std::io::Error) -> String {
    format!("{what} {}: {e}", p.display())
}

impl Seal {
    /// Opens (or creates) the key in `dir`.
    pub fn open(dir: &Path) -> Result<(Seal, bool), String> {
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
                last: Mutex::new(None),
            },
            created,
        ))
    }

    pub fn log_path(&self) -> PathBuf {
        self.dir.join(LOG_FILE)
    }

    /// The checkpoint file's lines (`None` when there is no file).
    pub fn lines(&self) -> Result<Option<String>, String> {
        match std::fs::read_to_string(self.log_path()) {
            Ok(s) => Ok(Some(s)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(io("read", &self.log_path(), e)),
        }
    }

    fn append(&self, c: &Checkpoint) -> Result<(), String> {
        let p = self.log_path();
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&p)
            .map_err(|e| io("open", &p, e))?;
        f.write_all(audit_seal::encode(&self.key, c).as_bytes())
            .and_then(|_| f.sync_data())
            .map_err(|e| io("write", &p, e))?;
        *self.last.lock().unwrap_or_else(|e| e.into_inner()) =
            Some((c.seq, DateTime::from_timestamp(c.at, 0).unwrap_or_default()));
        Ok(())
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
        self.append(&Checkpoint {
            seq,
            hash,
            at: now.timestamp(),
            reason: reason.into(),
        })?;
        Ok(Some(seq))
    }

    fn last_in_file(&self) -> Result<Option<(i64, DateTime<Utc>)>, String> {
        let Some(text) = self.lines()? else {
            return Ok(None);
        };
        let last = text
            .lines()
            .rev()
            .find_map(|l| audit_seal::decode(&self.key, l))
            .map(|c| (c.seq, DateTime::from_timestamp(c.at, 0).unwrap_or_default()));
        *self.last.lock().unwrap_or_else(|e| e.into_inner()) = last;
        Ok(last)
    }

    /// At start: a checkpoint file must exist; without one a new series starts at the head
    /// (the caller records that in the trail, then calls [`Seal::tick`] with `start`).
    pub fn opened(&self, key_created: bool) -> Result<Opened, String> {
        Ok(match self.lines()? {
            Some(t) if t.lines().any(|l| !l.trim().is_empty()) => Opened::Continued,
            _ => Opened::NewSeries { key_created },
        })
    }

    /// Checks every checkpoint against the database.
    pub fn verify(&self, conn: &mut DbConn) -> Result<SealReport, String> {
        let Some(text) = self.lines()? else {
            return Ok(SealReport {
                checkpoints: 0,
                sealed_up_to: None,
                problem: Some(SealProblem::NoFile),
            });
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
        let r = audit_seal::check(&self.key, &lines, |seq| Ok(known.get(&seq).cloned()))?;
        Ok(match r {
            Ok((n, last)) => SealReport {
                checkpoints: n,
                sealed_up_to: last.map(|c| c.seq),
                problem: None,
            },
            Err(b) => SealReport {
                checkpoints: 0,
                sealed_up_to: None,
                problem: Some(SealProblem::Broken(b)),
            },
        })
    }

    /// Moves the checkpoint file aside (a restore replaced the database: its checkpoints
    /// speak of records the restored copy never had). Kept, not deleted: it is evidence.
    pub fn retire(dir: &Path, now: DateTime<Utc>) -> Result<Option<PathBuf>, String> {
        let p = dir.join(LOG_FILE);
        if !p.exists() {
            return Ok(None);
        }
        let to = dir.join(format!(
            "audit-checkpoints.before-restore-{}.log",
            now.format("%Y%m%dT%H%M%SZ")
        ));
        std::fs::rename(&p, &to).map_err(|e| io("rename", &p, e))?;
        Ok(Some(to))
    }
}

/// The outcome of checking the checkpoints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SealReport {
    pub checkpoints: usize,
    /// The last record a checkpoint vouches for.
    pub sealed_up_to: Option<i64>,
    pub problem: Option<SealProblem>,
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

/// Whether a missing checkpoint file is expected: `cardroom restore` set the previous one
/// aside (the next start begins a new series).
pub fn log_expected_absent(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries.flatten().any(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("audit-checkpoints.before-restore-")
        })
    }) && !dir.join(LOG_FILE).exists()
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
