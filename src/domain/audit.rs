//! The audit trail is append-only and hash-chained: each record holds the hash of the one
//! before it, so any edit or deletion breaks the chain at a findable place.

use chrono::{DateTime, SecondsFormat, Utc};
use sha2::{Digest, Sha256};

/// The hash "before" the first record.
pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// The fields of one audit record that the hash covers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditFields<'a> {
    pub seq: i64,
    pub at: DateTime<Utc>,
    pub actor_id: Option<i64>,
    pub actor_name: &'a str,
    pub action: &'a str,
    pub subject_kind: &'a str,
    pub subject_id: Option<i64>,
    pub before: &'a str,
    pub after: &'a str,
    pub prev_hash: &'a str,
}

/// SHA-256 over a length-prefixed encoding of every field, so no two different records
/// encode to the same bytes.
pub fn record_hash(f: &AuditFields<'_>) -> String {
    let mut h = Sha256::new();
    let at = f.at.to_rfc3339_opts(SecondsFormat::Micros, true);
    let actor = f.actor_id.map(|a| a.to_string()).unwrap_or_default();
    let subject = f.subject_id.map(|a| a.to_string()).unwrap_or_default();
    let seq = f.seq.to_string();
    for part in [
        seq.as_str(),
        at.as_str(),
        actor.as_str(),
        f.actor_name,
        f.action,
        f.subject_kind,
        subject.as_str(),
        f.before,
        f.after,
        f.prev_hash,
    ] {
        h.update((part.len() as u64).to_be_bytes());
        h.update(part.as_bytes());
    }
    hex::encode(h.finalize())
}

/// Where a chain breaks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChainBreak {
    /// The record's stored hash does not match its content.
    Tampered { seq: i64 },
    /// The record does not point at the previous record's hash (a record removed or replaced).
    Unlinked { seq: i64 },
    /// Sequence numbers are not consecutive (a record removed).
    Gap { after: i64, found: i64 },
}

/// Checks records one at a time, in sequence order, so a long chain is verified in pages.
#[derive(Debug, Clone)]
pub struct ChainVerifier {
    prev_hash: String,
    prev_seq: i64,
    pub verified: u64,
}

impl Default for ChainVerifier {
    fn default() -> Self {
        ChainVerifier {
            prev_hash: GENESIS.to_string(),
            prev_seq: 0,
            verified: 0,
        }
    }
}

impl ChainVerifier {
    /// Feeds the next record and the hash stored with it.
    pub fn feed(&mut self, fields: &AuditFields<'_>, stored_hash: &str) -> Result<(), ChainBreak> {
        if fields.seq != self.prev_seq + 1 {
            return Err(ChainBreak::Gap {
                after: self.prev_seq,
                found: fields.seq,
            });
        }
        if fields.prev_hash != self.prev_hash {
            return Err(ChainBreak::Unlinked { seq: fields.seq });
        }
        if record_hash(fields) != stored_hash {
            return Err(ChainBreak::Tampered { seq: fields.seq });
        }
        self.prev_hash = stored_hash.to_string();
        self.prev_seq = fields.seq;
        self.verified += 1;
        Ok(())
    }
}

/// Walks the records in sequence order and reports the first broken link.
pub fn verify_chain<'a>(
    records: impl IntoIterator<Item = (AuditFields<'a>, &'a str)>,
) -> Result<u64, ChainBreak> {
    let mut v = ChainVerifier::default();
    for (fields, stored_hash) in records {
        v.feed(&fields, stored_hash)?;
    }
    Ok(v.verified)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    struct Rec {
        seq: i64,
        after: String,
        prev: String,
        hash: String,
    }

    fn chain(n: i64) -> Vec<Rec> {
        let mut prev = GENESIS.to_string();
        (1..=n)
            .map(|seq| {
                let after = format!("{{\"n\":{seq}}}");
                let hash = record_hash(&fields(seq, &after, &prev));
                let r = Rec {
                    seq,
                    after,
                    prev: prev.clone(),
                    hash: hash.clone(),
                };
                prev = hash;
                r
            })
            .collect()
    }

    fn fields<'a>(seq: i64, after: &'a str, prev: &'a str) -> AuditFields<'a> {
        AuditFields {
            seq,
            at: Utc.with_ymd_and_hms(2026, 11, 21, 20, 0, 0).unwrap(),
            actor_id: Some(1),
            actor_name: "admin",
            action: "player.create",
            subject_kind: "player",
            subject_id: Some(seq),
            before: "",
            after,
            prev_hash: prev,
        }
    }

    fn verify(rs: &[Rec]) -> Result<u64, ChainBreak> {
        verify_chain(
            rs.iter()
                .map(|r| (fields(r.seq, &r.after, &r.prev), r.hash.as_str())),
        )
    }

    #[test]
    fn intact_chain_verifies() {
        assert_eq!(verify(&chain(5)), Ok(5));
        assert_eq!(verify(&[]), Ok(0));
    }

    #[test]
    fn edited_record_is_found() {
        let mut c = chain(5);
        c[2].after = "{\"n\":999}".into();
        assert_eq!(verify(&c), Err(ChainBreak::Tampered { seq: 3 }));
    }

    #[test]
    fn deleted_record_is_found() {
        let mut c = chain(5);
        c.remove(3);
        assert_eq!(verify(&c), Err(ChainBreak::Gap { after: 3, found: 5 }));
    }

    #[test]
    fn rehashed_record_breaks_the_next_link() {
        let mut c = chain(5);
        c[1].after = "{\"n\":42}".into();
        c[1].hash = record_hash(&fields(2, &c[1].after, &c[1].prev));
        assert_eq!(verify(&c), Err(ChainBreak::Unlinked { seq: 3 }));
    }

    #[test]
    fn field_boundaries_matter() {
        let a = record_hash(&AuditFields {
            actor_name: "ab",
            action: "c",
            ..fields(1, "", GENESIS)
        });
        let b = record_hash(&AuditFields {
            actor_name: "a",
            action: "bc",
            ..fields(1, "", GENESIS)
        });
        assert_ne!(a, b);
    }
}
