//! Writing and verifying the hash-chained audit trail.

use super::models::AuditRow;
use super::schema::audit_log::dsl as a;
use super::DbConn;
use crate::domain::audit::{record_hash, AuditFields, ChainBreak, ChainVerifier, GENESIS};
use crate::domain::ids::PlayerId;
use chrono::{DateTime, Utc};
use diesel::prelude::*;
use serde::Serialize;

/// Who did it: a staff member, or the system itself (start-up, scheduler).
#[derive(Debug, Clone, Serialize)]
pub struct Actor {
    pub id: Option<i64>,
    pub name: String,
}

impl Actor {
    pub fn system() -> Actor {
        Actor {
            id: None,
            name: "system".into(),
        }
    }

    /// A player acting through their own signed link (the answers to a seat call,
    /// leaving a list). Not a staff member: no id; the name says who it was.
    pub fn player(player_id: PlayerId) -> Actor {
        Actor {
            id: None,
            name: format!("player #{player_id} (own link)"),
        }
    }
}

/// Serialises a value for the before/after columns ("" for nothing).
pub fn to_json<T: Serialize>(v: Option<&T>) -> String {
    v.map(|v| serde_json::to_string(v).unwrap_or_default())
        .unwrap_or_default()
}

/// Takes the audit trail's next number and reads the last record's number and hash, in one
/// `UPDATE … RETURNING`. Why the last record read is the one just before: every write runs
/// in the room's write turn, taken in an earlier statement of its transaction (SQLite's one
/// writer; PostgreSQL's advisory lock, `db::postgres::TURN_LOCK`), so this statement's
/// snapshot, taken after the turn, already holds every record committed before it. (The
/// sequence row's lock alone would not do on PostgreSQL: a statement that waited for that
/// lock keeps its older snapshot for the subqueries.)
fn next_seq_and_last(conn: &mut DbConn) -> QueryResult<(i64, Option<(i64, String)>)> {
    use crate::db::schema::sequences::dsl as s;
    let (seq, last_seq, last_hash): (i64, Option<i64>, Option<String>) =
        crate::native!(conn, |c| crate::db::Cached(
            diesel::update(s::sequences.filter(s::name.eq("audit")))
                .set(s::value.eq(s::value + 1))
                .returning((
                    s::value,
                    a::audit_log
                        .select(a::seq)
                        .order(a::seq.desc())
                        .single_value(),
                    a::audit_log
                        .select(a::hash)
                        .order(a::seq.desc())
                        .single_value(),
                ))
        )
        .get_result(c))?;
    Ok((seq, last_seq.zip(last_hash)))
}

/// Appends one record, in the caller's transaction, chained to the previous one. The
/// sequence row's lock keeps concurrent writers in line, so the chain never forks.
// The audit record is one row: each argument is one of its columns.
#[allow(clippy::too_many_arguments)]
pub fn record<B: Serialize, A: Serialize>(
    conn: &mut DbConn,
    at: DateTime<Utc>,
    actor: &Actor,
    action: &str,
    subject_kind: &str,
    subject_id: Option<i64>,
    before: Option<&B>,
    after: Option<&A>,
) -> QueryResult<i64> {
    let before = to_json(before);
    let after = to_json(after);
    let make = |seq: i64, prev_hash: Option<String>| {
        let prev_hash = prev_hash.unwrap_or_else(|| GENESIS.to_string());
        let hash = record_hash(&AuditFields {
            seq,
            at,
            actor_id: actor.id,
            actor_name: &actor.name,
            action,
            subject_kind,
            subject_id,
            before: &before,
            after: &after,
            prev_hash: &prev_hash,
        });
        AuditRow {
            seq,
            at: at.naive_utc(),
            actor_id: actor.id,
            actor_name: actor.name.clone(),
            action: action.to_string(),
            subject_kind: subject_kind.to_string(),
            subject_id,
            before_json: before.clone(),
            after_json: after.clone(),
            prev_hash,
            hash,
        }
    };
    // Inside a write: numbered and chained from the counters and last record the write's
    // tail read (`db::tail`), and kept for its one tail statement (PostgreSQL) or written now.
    let row = match super::tail::record_audit(conn, make) {
        Some(r) => match r? {
            super::tail::Audit::Kept(seq) => return Ok(seq),
            super::tail::Audit::ToWrite(row) => *row,
        },
        None => number_and_make(conn, make)?,
    };
    crate::native!(conn, |c| diesel::insert_into(a::audit_log)
        .values(&row)
        .execute(c))?;
    Ok(row.seq)
}

/// Outside a write's kept tail: the record's number and the hash it chains to, read from the
/// database, and the record `make` builds from them.
fn number_and_make(
    conn: &mut DbConn,
    make: impl FnOnce(i64, Option<String>) -> AuditRow,
) -> QueryResult<AuditRow> {
    // The next number and the last record present, in one statement (a round trip
    // less per record). Chained to the last record present: normally `seq - 1`. If records
    // were cut from the end (the counter is ahead), the room keeps working and the new
    // record links over the hole, which `verify` reports as a gap (and the signed
    // checkpoints as a cut) from then on; refusing every write would stop the floor and
    // lose what people do, not undo it.
    let (mut seq, last) = next_seq_and_last(conn)?;
    // The other way round, a counter behind the trail (an older copy of the `sequences` row
    // restored, an edit) would give a number already used and every write would be refused:
    // the counter catches up with the last record instead.
    if let Some((last_seq, _)) = &last {
        if *last_seq >= seq {
            seq = last_seq + 1;
            super::set_seq(conn, "audit", seq)?;
        }
    }
    Ok(make(seq, last.map(|(_, h)| h)))
}

/// The outcome of a verification.
#[derive(Debug, Clone, Serialize)]
pub struct ChainReport {
    pub ok: bool,
    pub records: u64,
    /// The first broken record's sequence number.
    pub broken_at: Option<i64>,
    /// `tampered` (content does not match its hash), `unlinked` (does not point at the
    /// previous record) or `gap` (records missing before it).
    pub problem: Option<&'static str>,
}

/// Verifies the whole chain, reading in pages so memory stays flat.
pub fn verify(conn: &mut DbConn) -> QueryResult<ChainReport> {
    const PAGE: i64 = 2000;
    let mut v = ChainVerifier::default();
    let mut last_seq = 0i64;
    loop {
        let page: Vec<AuditRow> = a::audit_log
            .filter(a::seq.gt(last_seq))
            .order(a::seq.asc())
            .limit(PAGE)
            .select(AuditRow::as_select())
            .load(conn)?;
        let Some(last) = page.last() else { break };
        last_seq = last.seq;
        for r in &page {
            let fields = AuditFields {
                seq: r.seq,
                at: r.at.and_utc(),
                actor_id: r.actor_id,
                actor_name: &r.actor_name,
                action: &r.action,
                subject_kind: &r.subject_kind,
                subject_id: r.subject_id,
                before: &r.before_json,
                after: &r.after_json,
                prev_hash: &r.prev_hash,
            };
            if let Err(b) = v.feed(&fields, &r.hash) {
                let (seq, problem) = match b {
                    ChainBreak::Tampered { seq } => (seq, "tampered"),
                    ChainBreak::Unlinked { seq } => (seq, "unlinked"),
                    ChainBreak::Gap { found, .. } => (found, "gap"),
                };
                return Ok(ChainReport {
                    ok: false,
                    records: v.verified,
                    broken_at: Some(seq),
                    problem: Some(problem),
                });
            }
        }
    }
    Ok(ChainReport {
        ok: true,
        records: v.verified,
        broken_at: None,
        problem: None,
    })
}
