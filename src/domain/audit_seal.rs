//! Signed checkpoints of the audit chain's head, kept outside the database.
//!
//! The chain in the database (`domain::audit`) shows a record changed *without* re-chaining
//! the records after it. Whoever holds the database file (or, on PostgreSQL, a superuser)
//! could still cut the tail off, or edit a record and recompute every hash after it: the
//! result verifies. Regulators ask for more — "records are unalterable and any change is
//! detectable" (Nevada MICS, GLI-13 event logs) — so the server regularly writes the head of
//! the chain (sequence number + hash) to a file outside the database, each line signed with
//! an HMAC-SHA256 key that is not in the database either. Verification then also checks
//! that every checkpoint still matches the record it names and that no checkpoint names a
//! record that is gone.
//!
//! Detected: truncation, deletion, insertion and re-chaining of any record up to the last
//! checkpoint (at most a minute old while the room works, and one at every gaming-day end),
//! by anyone without the key; a checkpoint file edited or cut (a bad or missing MAC, or
//! sequence numbers going backwards). Not detected: changes to the records written after
//! the last checkpoint; someone holding the key file, the checkpoint file and the database
//! together (the server's own account, or root) — keep a copy of the checkpoints elsewhere
//! (they are small) to cover that.

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// One signed line. Written: `v2 <database id> <host> <seq> <hash> <unix seconds> <reason>
/// <mac>`, the MAC covering the database's identity and the host as well, so that a
/// checkpoint vouches for one database's records and says which server wrote it. Still read:
/// `v1 <seq> <hash> <unix seconds> <reason> <mac>` (files written before checkpoints named
/// their database; `db` and `host` are then `None`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checkpoint {
    /// The identity of the database it seals (`None`: an old line, which does not say).
    pub db: Option<String>,
    /// The host name of the server that wrote it (`None`: an old line).
    pub host: Option<String>,
    pub seq: i64,
    /// The hash of record `seq` (hex).
    pub hash: String,
    /// When it was taken (Unix seconds).
    pub at: i64,
    /// `start` (a new series of checkpoints), `minute`, `day-end`, `stop`, `check`.
    pub reason: String,
}

/// A database identity or a host name as a line (and a file name) may carry it: 1 to 64
/// letters, digits, `.`, `-` or `_` (the host name is made so by [`host_label`]).
pub fn valid_label(s: &str) -> bool {
    (1..=64).contains(&s.len())
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_'))
}

/// A host name made fit for a line and a file name: other characters become `_`, at most
/// 64 of them; empty gives `host`.
pub fn host_label(name: &str) -> String {
    let s: String = name
        .trim()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .take(64)
        .collect();
    if s.is_empty() {
        "host".into()
    } else {
        s
    }
}

fn signed_text(c: &Checkpoint) -> String {
    match (&c.db, &c.host) {
        (Some(db), Some(host)) => {
            format!("v2|{db}|{host}|{}|{}|{}|{}", c.seq, c.hash, c.at, c.reason)
        }
        _ => format!("v1|{}|{}|{}|{}", c.seq, c.hash, c.at, c.reason),
    }
}

fn mac_of(key: &[u8], c: &Checkpoint) -> String {
    let mut m = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes any key length");
    m.update(signed_text(c).as_bytes());
    hex::encode(m.finalize().into_bytes())
}

/// The line written to the file (with its newline): `v2` when the checkpoint names its
/// database and host (as every new one does), `v1` otherwise.
pub fn encode(key: &[u8], c: &Checkpoint) -> String {
    let head = match (&c.db, &c.host) {
        (Some(db), Some(host)) => format!("v2 {db} {host} "),
        _ => "v1 ".to_string(),
    };
    format!(
        "{head}{} {} {} {} {}\n",
        c.seq,
        c.hash,
        c.at,
        c.reason,
        mac_of(key, c)
    )
}

/// Reads one line back (either format); `None` if it is malformed or its MAC does not
/// verify.
pub fn decode(key: &[u8], line: &str) -> Option<Checkpoint> {
    let parts: Vec<&str> = line.split_whitespace().collect();
    let (db, host, rest) = match parts.as_slice() {
        ["v2", db, host, rest @ ..] if valid_label(db) && valid_label(host) => {
            (Some(db.to_string()), Some(host.to_string()), rest)
        }
        ["v1", rest @ ..] => (None, None, rest),
        _ => return None,
    };
    let [seq, hash, at, reason, mac] = rest else {
        return None;
    };
    let c = Checkpoint {
        db,
        host,
        seq: seq.parse().ok()?,
        hash: hash.to_string(),
        at: at.parse().ok()?,
        reason: reason.to_string(),
    };
    // Constant-time comparison of the MAC.
    let mut m = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes any key length");
    m.update(signed_text(&c).as_bytes());
    let given = hex::decode(mac).ok()?;
    m.verify_slice(&given).ok()?;
    Some(c)
}

/// What checking the checkpoints against the database found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SealBreak {
    /// Line `line` (1-based) is malformed or its signature does not verify: the file was
    /// edited, or signed with another key.
    BadLine { line: usize },
    /// Checkpoints go backwards at line `line`: the file was cut and written again.
    OutOfOrder { line: usize },
    /// The record a checkpoint names is missing: the trail was cut short (or records were
    /// deleted).
    Missing { seq: i64 },
    /// The record a checkpoint names has another hash now: it or an earlier one was changed
    /// and the chain recomputed.
    Rewritten { seq: i64 },
}

/// Checks the lines of a checkpoint file against the database, through `hash_at`
/// (the stored hash of record `seq`, `None` when there is no such record). Returns how
/// many checkpoints verified and the last one, or the first problem. With `db`, every line
/// must name that database (a line of another database's series, copied in, is not one of
/// this file's: a bad line), except old lines naming none before the first that does (an old
/// file adopted by its database, continued since); without it (an old file) the lines name
/// none.
pub fn check(
    key: &[u8],
    db: Option<&str>,
    lines: &[&str],
    mut hash_at: impl FnMut(i64) -> Result<Option<String>, String>,
) -> Result<Result<(usize, Option<Checkpoint>), SealBreak>, String> {
    let mut last: Option<Checkpoint> = None;
    let mut n = 0;
    let mut named = false;
    for (i, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let ours = |c: &Checkpoint| match (c.db.as_deref(), db) {
            (Some(named_db), Some(d)) => named_db == d,
            (None, Some(_)) => !named,
            (None, None) => true,
            (Some(_), None) => false,
        };
        let Some(c) = decode(key, line).filter(ours) else {
            return Ok(Err(SealBreak::BadLine { line: i + 1 }));
        };
        named |= c.db.is_some();
        if last.as_ref().is_some_and(|l| c.seq < l.seq) {
            return Ok(Err(SealBreak::OutOfOrder { line: i + 1 }));
        }
        match hash_at(c.seq)? {
            None if c.seq > 0 => return Ok(Err(SealBreak::Missing { seq: c.seq })),
            Some(h) if h != c.hash => return Ok(Err(SealBreak::Rewritten { seq: c.seq })),
            _ => {}
        }
        n += 1;
        last = Some(c);
    }
    Ok(Ok((n, last)))
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &[u8] = b"0123456789abcdef0123456789abcdef";

    const DB: &str = "0f1e2d3c4b5a69788796a5b4c3d2e1f0";

    fn cp(seq: i64, hash: &str) -> Checkpoint {
        Checkpoint {
            db: Some(DB.into()),
            host: Some("floor-1.room".into()),
            seq,
            hash: hash.into(),
            at: 1_800_000_000 + seq,
            reason: "minute".into(),
        }
    }

    #[test]
    fn a_line_reads_back_only_with_its_key_and_unchanged() {
        let line = encode(KEY, &cp(7, "ab12"));
        assert_eq!(decode(KEY, &line), Some(cp(7, "ab12")));
        assert_eq!(decode(b"another key", &line), None);
        let forged = line.replace(" 7 ", " 8 ");
        assert_eq!(decode(KEY, &forged), None);
        assert_eq!(decode(KEY, "v1 7 ab12"), None);
    }

    #[test]
    fn a_line_names_its_database_and_host_under_the_signature() {
        let line = encode(KEY, &cp(7, "ab12"));
        assert!(
            line.starts_with(&format!("v2 {DB} floor-1.room 7 ab12 ")),
            "{line}"
        );
        assert!(line.ends_with('\n'));
        // Neither the database nor the host can be changed without the key.
        let other_db = line.replace(DB, "ffffffffffffffffffffffffffffffff");
        assert_eq!(decode(KEY, &other_db), None);
        let other_host = line.replace("floor-1.room", "floor-2.room");
        assert_eq!(decode(KEY, &other_host), None);
        // Nor dropped to pass for an old line.
        let mac = line.split_whitespace().last().unwrap();
        assert_eq!(
            decode(KEY, &format!("v1 7 ab12 1800000007 minute {mac}")),
            None
        );
        // A name that does not fit a line is not read.
        assert_eq!(decode(KEY, &line.replace("floor-1.room", "floor/1")), None);
    }

    #[test]
    fn an_old_line_without_database_is_still_read() {
        let old = Checkpoint {
            db: None,
            host: None,
            ..cp(7, "ab12")
        };
        let line = encode(KEY, &old);
        assert!(line.starts_with("v1 7 ab12 1800000007 minute "), "{line}");
        assert_eq!(decode(KEY, &line), Some(old.clone()));
        // As the server wrote them before (the signed text is unchanged).
        let mut m = Hmac::<Sha256>::new_from_slice(KEY).unwrap();
        m.update(b"v1|7|ab12|1800000007|minute");
        let mac = hex::encode(m.finalize().into_bytes());
        assert_eq!(
            decode(KEY, &format!("v1 7 ab12 1800000007 minute {mac}")),
            Some(old)
        );
    }

    #[test]
    fn host_names_are_made_fit_for_a_file_name() {
        assert_eq!(host_label("floor-1.casino"), "floor-1.casino");
        assert_eq!(host_label(" a b/c\n"), "a_b_c");
        assert_eq!(host_label(""), "host");
        assert_eq!(host_label(&"x".repeat(100)).len(), 64);
        assert!(valid_label(&host_label("sala de jogo 2")));
        assert!(!valid_label(""));
        assert!(!valid_label("a b"));
    }

    #[test]
    fn every_kind_of_tampering_is_named() {
        let db = |seq: i64| -> Result<Option<String>, String> {
            Ok((1..=10).contains(&seq).then(|| format!("h{seq}")))
        };
        let good: Vec<String> = [3, 6, 10]
            .iter()
            .map(|s| encode(KEY, &cp(*s, &format!("h{s}"))))
            .collect();
        let lines: Vec<&str> = good.iter().map(String::as_str).collect();
        let (n, last) = check(KEY, Some(DB), &lines, db).unwrap().unwrap();
        assert_eq!((n, last.unwrap().seq), (3, 10));
        // The tail cut: the last checkpoint names a record that is gone.
        let cut = |seq: i64| -> Result<Option<String>, String> {
            Ok((1..=8).contains(&seq).then(|| format!("h{seq}")))
        };
        assert_eq!(
            check(KEY, Some(DB), &lines, cut).unwrap(),
            Err(SealBreak::Missing { seq: 10 })
        );
        // Re-chained from record 5 on: the checkpoint at 6 no longer matches.
        let rechained = |seq: i64| -> Result<Option<String>, String> {
            Ok((1..=10).contains(&seq).then(|| {
                if seq >= 5 {
                    format!("x{seq}")
                } else {
                    format!("h{seq}")
                }
            }))
        };
        assert_eq!(
            check(KEY, Some(DB), &lines, rechained).unwrap(),
            Err(SealBreak::Rewritten { seq: 6 })
        );
        // The file edited, or its lines reordered.
        let mut edited = lines.clone();
        let changed = good[1].replace("h6", "h7");
        edited[1] = &changed;
        assert_eq!(
            check(KEY, Some(DB), &edited, db).unwrap(),
            Err(SealBreak::BadLine { line: 2 })
        );
        // A line of another database's series (same key) copied in.
        let foreign = encode(
            KEY,
            &Checkpoint {
                db: Some("ffffffffffffffffffffffffffffffff".into()),
                ..cp(6, "h6")
            },
        );
        let mixed = vec![lines[0], foreign.as_str(), lines[2]];
        assert_eq!(
            check(KEY, Some(DB), &mixed, db).unwrap(),
            Err(SealBreak::BadLine { line: 2 })
        );
        // An old file's lines name no database; the new ones are not read as old.
        assert_eq!(
            check(KEY, None, &lines, db).unwrap(),
            Err(SealBreak::BadLine { line: 1 })
        );
        // An old file adopted, continued with new lines: read; old lines after new ones: not.
        let old: Vec<String> = [3, 6]
            .iter()
            .map(|s| {
                encode(
                    KEY,
                    &Checkpoint {
                        db: None,
                        host: None,
                        ..cp(*s, &format!("h{s}"))
                    },
                )
            })
            .collect();
        let adopted = vec![old[0].as_str(), old[1].as_str(), lines[2]];
        assert_eq!(check(KEY, Some(DB), &adopted, db).unwrap().unwrap().0, 3);
        let late = vec![lines[0], old[1].as_str(), lines[2]];
        assert_eq!(
            check(KEY, Some(DB), &late, db).unwrap(),
            Err(SealBreak::BadLine { line: 2 })
        );
        let reordered = vec![lines[1], lines[0]];
        assert_eq!(
            check(KEY, Some(DB), &reordered, db).unwrap(),
            Err(SealBreak::OutOfOrder { line: 2 })
        );
    }
}
