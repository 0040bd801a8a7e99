//! Signed checkpoints of the audit chain's head, kept outside the database (issue 16 §2).
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

/// One signed line: `v1 <seq> <hash> <unix seconds> <reason> <mac>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checkpoint {
    pub seq: i64,
    /// The hash of record `seq` (hex).
    pub hash: String,
    /// When it was taken (Unix seconds).
    pub at: i64,
    /// `start` (a new series of checkpoints), `minute`, `day-end`, `stop`, `check`.
    pub reason: String,
}

fn mac_of(key: &[u8], c: &Checkpoint) -> String {
    let mut m = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes any key length");
    m.update(format!("v1|{}|{}|{}|{}", c.seq, c.hash, c.at, c.reason).as_bytes());
    hex::encode(m.finalize().into_bytes())
}

/// The line written to the file (with its newline).
pub fn encode(key: &[u8], c: &Checkpoint) -> String {
    format!(
        "v1 {} {} {} {} {}\n",
        c.seq,
        c.hash,
        c.at,
        c.reason,
        mac_of(key, c)
    )
}

/// Reads one line back; `None` if it is malformed or its MAC does not verify.
pub fn decode(key: &[u8], line: &str) -> Option<Checkpoint> {
    let parts: Vec<&str> = line.split_whitespace().collect();
    let [v, seq, hash, at, reason, mac] = parts.as_slice() else {
        return None;
    };
    if *v != "v1" {
        return None;
    }
    let c = Checkpoint {
        seq: seq.parse().ok()?,
        hash: hash.to_string(),
        at: at.parse().ok()?,
        reason: reason.to_string(),
    };
    // Constant-time comparison of the MAC.
    let mut m = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes any key length");
    m.update(format!("v1|{}|{}|{}|{}", c.seq, c.hash, c.at, c.reason).as_bytes());
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
/// many checkpoints verified and the last one, or the first problem.
pub fn check(
    key: &[u8],
    lines: &[&str],
    mut hash_at: impl FnMut(i64) -> Result<Option<String>, String>,
) -> Result<Result<(usize, Option<Checkpoint>), SealBreak>, String> {
    let mut last: Option<Checkpoint> = None;
    let mut n = 0;
    for (i, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let Some(c) = decode(key, line) else {
            return Ok(Err(SealBreak::BadLine { line: i + 1 }));
        };
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

    fn cp(seq: i64, hash: &str) -> Checkpoint {
        Checkpoint {
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
    fn every_kind_of_tampering_is_named() {
        let db = |seq: i64| -> Result<Option<String>, String> {
            Ok((1..=10).contains(&seq).then(|| format!("h{seq}")))
        };
        let good: Vec<String> = [3, 6, 10]
            .iter()
            .map(|s| encode(KEY, &cp(*s, &format!("h{s}"))))
            .collect();
        let lines: Vec<&str> = good.iter().map(String::as_str).collect();
        let (n, last) = check(KEY, &lines, db).unwrap().unwrap();
        assert_eq!((n, last.unwrap().seq), (3, 10));
        // The tail cut: the last checkpoint names a record that is gone.
        let cut = |seq: i64| -> Result<Option<String>, String> {
            Ok((1..=8).contains(&seq).then(|| format!("h{seq}")))
        };
        assert_eq!(
            check(KEY, &lines, cut).unwrap(),
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
            check(KEY, &lines, rechained).unwrap(),
            Err(SealBreak::Rewritten { seq: 6 })
        );
        // The file edited, or its lines reordered.
        let mut edited = lines.clone();
        let changed = good[1].replace("h6", "h7");
        edited[1] = &changed;
        assert_eq!(
            check(KEY, &edited, db).unwrap(),
            Err(SealBreak::BadLine { line: 2 })
        );
        let reordered = vec![lines[1], lines[0]];
        assert_eq!(
            check(KEY, &reordered, db).unwrap(),
            Err(SealBreak::OutOfOrder { line: 2 })
        );
    }
}
