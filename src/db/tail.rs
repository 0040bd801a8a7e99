//! A write's **tail** — its audit records, events and messages, and the sequence numbers its
//! rows take — kept in the thread running the write and written in one statement per
//! group-commit batch instead of a statement each: on PostgreSQL every statement is a round
//! trip, and on SQLite each is work for the room's one writer (there only the counters are
//! kept; the rows are inserted at once). The counters are read once per batch, under the
//! room's write turn. A failed write goes back to its [`mark`]; nobody is answered before the
//! rows are in the transaction that commits. Anything that reads one of these tables back
//! inside the same write calls [`flush`] first. Outside a write path of `db::Db` nothing is
//! kept: every function answers `None` and the caller writes at once. How it runs and what it
//! saved: `benches/README.md` ("How the write path works", "a write's tail").

use super::models::{AuditRow, OutboxRow};
use super::DbConn;
use crate::domain::ids::TableId;
use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Nullable, Text};
use std::cell::RefCell;
use std::collections::BTreeMap;

thread_local! {
    static TAIL: RefCell<Option<Tail>> = const { RefCell::new(None) };
}

#[derive(Default)]
struct Tail {
    /// The connection of the write transaction (its address), so only its statements are kept.
    conn: usize,
    /// The counters, read at the first number asked for in the transaction.
    counters: Option<Counters>,
    audit: Vec<AuditRow>,
    events: Vec<EventRow>,
    outbox: Vec<OutboxRow>,
    /// How many of `audit`, `events` and `outbox` a [`flush`] already wrote (the rows stay
    /// kept until the transaction ends, so a savepoint rolled back after a flush can write
    /// the earlier writes' rows again: see [`rewind`]).
    flushed: Flushed3,
    /// PostgreSQL: the rows are kept for the one statement of [`flush`]. SQLite: only the
    /// counters are kept; the rows are inserted at once.
    keep_rows: bool,
    /// The room's settings as read in this transaction ([`remembered_room`]).
    room: Option<std::rc::Rc<dyn std::any::Any>>,
}

#[derive(Clone, Default)]
struct Counters {
    /// Every sequence's value as this write sees it.
    values: BTreeMap<String, i64>,
    /// The ones changed since they were read or last written back, with the value they had
    /// then ([`flush`] writes them back only over that value).
    moved: BTreeMap<String, i64>,
    /// The audit trail's last record: its number and hash.
    audit_last: Option<(i64, String)>,
}

struct EventRow {
    seq: i64,
    at: NaiveDateTime,
    table_id: Option<TableId>,
    kind: String,
    payload: String,
}

/// Positions in the kept audit records, events and messages.
#[derive(Clone, Copy, Default, PartialEq, Debug)]
struct Flushed3 {
    audit: usize,
    events: usize,
    outbox: usize,
}

/// Where a savepoint (or a write of a batch) started: what [`rewind`] goes back to.
pub struct Mark {
    counters: Option<Counters>,
    kept: Flushed3,
    flushed: Flushed3,
}

fn key(conn: &DbConn) -> usize {
    conn as *const DbConn as usize
}

/// Keeps the tail of a write transaction while it lives (see [`begin`]).
#[must_use = "the tail is kept only while this lives"]
pub struct Keeping(bool);

impl Drop for Keeping {
    /// The transaction's writes are over (its write path flushed before the commit):
    /// whatever is still kept is dropped.
    fn drop(&mut self) {
        if self.0 {
            TAIL.with(|t| *t.borrow_mut() = None);
        }
    }
}

/// Starts keeping the tail of the write transaction run on `conn` (on SQLite, its counters
/// only), until the returned guard is dropped. A transaction already keeping one in this
/// thread (never expected: writes do not nest) keeps its own, and this one writes at once.
pub fn begin(conn: &DbConn) -> Keeping {
    TAIL.with(|t| {
        let mut t = t.borrow_mut();
        if t.is_some() {
            return Keeping(false);
        }
        *t = Some(Tail {
            conn: key(conn),
            keep_rows: matches!(conn, DbConn::Postgres(_)),
            ..Tail::default()
        });
        Keeping(true)
    })
}

/// Runs `f` on the kept tail of `conn`'s transaction, if there is one.
fn with<R>(conn: &DbConn, f: impl FnOnce(&mut Tail) -> R) -> Option<R> {
    TAIL.with(|t| {
        let mut t = t.borrow_mut();
        match t.as_mut() {
            Some(tail) if tail.conn == key(conn) => Some(f(tail)),
            _ => None,
        }
    })
}

#[derive(QueryableByName)]
struct CounterRow {
    #[diesel(sql_type = Text)]
    name: String,
    #[diesel(sql_type = BigInt)]
    value: i64,
    #[diesel(sql_type = Nullable<BigInt>)]
    last_seq: Option<i64>,
    #[diesel(sql_type = Nullable<Text>)]
    last_hash: Option<String>,
}

/// Every counter and the audit trail's last record, in one statement.
const LOAD: &str = "SELECT s.name, s.value, h.seq AS last_seq, h.hash AS last_hash \
     FROM sequences s \
     LEFT JOIN LATERAL (SELECT seq, hash FROM audit_log WHERE s.name = 'audit' \
                        ORDER BY seq DESC LIMIT 1) h ON true";

/// [`LOAD`] in SQLite's words (no `LATERAL`).
const LOAD_SQLITE: &str = "SELECT s.name, s.value, \
       CASE WHEN s.name = 'audit' THEN (SELECT seq FROM audit_log ORDER BY seq DESC LIMIT 1) \
       END AS last_seq, \
       CASE WHEN s.name = 'audit' THEN (SELECT hash FROM audit_log ORDER BY seq DESC LIMIT 1) \
       END AS last_hash \
     FROM sequences s";

/// The counters of `conn`'s transaction, read at the first use.
fn counters<R>(
    conn: &mut DbConn,
    f: impl FnOnce(&mut Counters) -> QueryResult<R>,
) -> Option<QueryResult<R>> {
    let loaded = with(conn, |t| t.counters.is_some())?;
    if !loaded {
        let rows = match &mut *conn {
            DbConn::Postgres(pg) => super::Cached(diesel::sql_query(LOAD)).load::<CounterRow>(pg),
            DbConn::Sqlite(lite) => {
                super::Cached(diesel::sql_query(LOAD_SQLITE)).load::<CounterRow>(lite)
            }
        };
        let rows = match rows {
            Ok(rows) => rows,
            Err(e) => return Some(Err(e)),
        };
        let mut c = Counters::default();
        for r in rows {
            if let (Some(seq), Some(hash)) = (r.last_seq, r.last_hash) {
                c.audit_last = Some((seq, hash));
            }
            c.values.insert(r.name, r.value);
        }
        with(conn, |t| t.counters = Some(c));
    }
    with(conn, |t| f(t.counters.as_mut().expect("read above")))
}

/// The next number of a named sequence, when `conn`'s tail is kept (else `None`: the caller
/// takes it from the database). An unknown name is refused as the `UPDATE` would be.
pub fn next_seq(conn: &mut DbConn, name: &str) -> Option<QueryResult<i64>> {
    counters(conn, |c| c.set(name, |v| v + 1))
}

/// Moves a named sequence to `value`, when `conn`'s tail is kept.
pub fn set_seq(conn: &mut DbConn, name: &str, value: i64) -> Option<QueryResult<()>> {
    counters(conn, |c| c.set(name, |_| value).map(|_| ()))
}

impl Counters {
    /// Sets a counter to `to(its value)`, noting the value it had when read (for [`flush`]'s
    /// check); an unknown name is refused as the `UPDATE` would be.
    fn set(&mut self, name: &str, to: impl FnOnce(i64) -> i64) -> QueryResult<i64> {
        let v = self
            .values
            .get_mut(name)
            .ok_or(diesel::result::Error::NotFound)?;
        self.moved.entry(name.to_string()).or_insert(*v);
        *v = to(*v);
        Ok(*v)
    }
}

/// The last number a named sequence gave, when `conn`'s tail is kept and has read them.
pub fn current_seq(conn: &mut DbConn, name: &str) -> Option<QueryResult<i64>> {
    counters(conn, |c| {
        c.values
            .get(name)
            .copied()
            .ok_or(diesel::result::Error::NotFound)
    })
}

/// An audit record numbered and chained from the counters kept here: kept for [`flush`]
/// (PostgreSQL), or handed back for the caller to insert at once (SQLite).
pub enum Audit {
    Kept(i64),
    ToWrite(Box<AuditRow>),
}

/// Numbers and chains an audit record, when `conn`'s tail is kept: `make` gets the record's
/// number and the hash it chains to — the numbering and chaining `db::audit::record` does,
/// from the counters held here — and returns the record.
pub fn record_audit(
    conn: &mut DbConn,
    make: impl FnOnce(i64, Option<String>) -> AuditRow,
) -> Option<QueryResult<Audit>> {
    let r = counters(conn, |c| {
        // As `db::audit::record`: a counter behind the trail catches up with its last record.
        let after = c.audit_last.as_ref().map_or(0, |(last, _)| last + 1);
        let seq = c.set("audit", |v| (v + 1).max(after))?;
        let row = make(seq, c.audit_last.as_ref().map(|(_, h)| h.clone()));
        c.audit_last = Some((row.seq, row.hash.clone()));
        Ok(row)
    })?;
    Some(r.map(|row| {
        let seq = row.seq;
        match keep(conn, row, |t| &mut t.audit) {
            Some(row) => Audit::ToWrite(Box::new(row)),
            None => Audit::Kept(seq),
        }
    }))
}

/// Keeps `row` in the list `of` picks, when `conn`'s tail keeps rows; else hands it back,
/// for the caller to write at once.
fn keep<R>(conn: &DbConn, row: R, of: impl FnOnce(&mut Tail) -> &mut Vec<R>) -> Option<R> {
    let mut row = Some(row);
    with(conn, |t| {
        if t.keep_rows {
            of(t).extend(row.take());
        }
    });
    row
}

/// Keeps an event (its number taken here), when `conn`'s tail keeps rows (PostgreSQL); else
/// `None`, and the caller numbers it with `db::next_seq` and writes it at once.
pub fn push_event(
    conn: &mut DbConn,
    at: NaiveDateTime,
    table_id: Option<TableId>,
    kind: &str,
    payload: &str,
) -> Option<QueryResult<i64>> {
    if !with(conn, |t| t.keep_rows)? {
        return None;
    }
    Some(next_seq(conn, "event")?.inspect(|&seq| {
        with(conn, |t| {
            t.events.push(EventRow {
                seq,
                at,
                table_id,
                kind: kind.to_string(),
                payload: payload.to_string(),
            })
        });
    }))
}

/// Keeps a message for the outbox, when `conn`'s tail keeps rows (PostgreSQL); else hands
/// it back, for the caller to write at once.
pub fn push_outbox(conn: &mut DbConn, row: OutboxRow) -> Option<OutboxRow> {
    keep(conn, row, |t| &mut t.outbox)
}

/// The room's settings as a write of this transaction already read them, when `conn`'s
/// tail is kept and has them (every floor write starts by reading the room, one
/// statement — and on PostgreSQL one round trip — per write; now one per group-commit
/// batch). Nobody else changes the room meanwhile: the transaction holds the room's write
/// turn. A write that changes the room calls [`forget_room`], and a write or savepoint
/// rolled back forgets it too ([`rewind`], [`discard`]), so what is kept is always what the
/// database holds in this transaction.
pub fn remembered_room<R: Clone + 'static>(conn: &DbConn) -> Option<R> {
    with(conn, |t| {
        t.room.as_ref().and_then(|r| r.downcast_ref::<R>()).cloned()
    })
    .flatten()
}

/// Keeps the room's settings read in this transaction (see [`remembered_room`]).
pub fn remember_room<R: Clone + 'static>(conn: &DbConn, room: &R) {
    with(conn, |t| t.room = Some(std::rc::Rc::new(room.clone())));
}

/// The room's settings are changing in this transaction: read them again next time.
pub fn forget_room(conn: &DbConn) {
    with(conn, |t| t.room = None);
}

/// Where a savepoint inside a write, or a write of a group-commit batch, starts (`None`
/// when nothing is kept for `conn`).
pub fn mark(conn: &DbConn) -> Option<Mark> {
    with(conn, |t| Mark {
        counters: t.counters.clone(),
        kept: Flushed3 {
            audit: t.audit.len(),
            events: t.events.len(),
            outbox: t.outbox.len(),
        },
        flushed: t.flushed,
    })
}

/// Back to `mark`: the savepoint was rolled back, and what was kept since goes with it.
///
/// What the database held at the mark is what it holds again, so the counters go back to
/// what they were then (with the values they were read at), and rows a [`flush`] wrote
/// since — the earlier writes' rows among them, when a flush ran inside the savepoint —
/// are written by the next flush.
pub fn rewind(conn: &DbConn, mark: Mark) {
    with(conn, |t| {
        t.counters = mark.counters;
        // What was undone may have changed the room (kept again at the next read).
        t.room = None;
        t.audit.truncate(mark.kept.audit);
        t.events.truncate(mark.kept.events);
        t.outbox.truncate(mark.kept.outbox);
        t.flushed = mark.flushed;
    });
}

/// The write's transaction failed and is rolled back as a whole: what it kept goes, and
/// the counters are read again by the next write.
pub fn discard(conn: &DbConn) {
    with(conn, |t| {
        t.counters = None;
        t.room = None;
        t.audit.clear();
        t.events.clear();
        t.outbox.clear();
        t.flushed = Flushed3::default();
    });
}

fn ts(t: &NaiveDateTime) -> String {
    // Microseconds, cut as diesel cuts them when it binds a timestamp (not rounded): a
    // record's hash covers its time as it reads back.
    t.format("%Y-%m-%d %H:%M:%S%.6f").to_string()
}

fn opt_ts(t: &Option<NaiveDateTime>) -> serde_json::Value {
    t.as_ref()
        .map(ts)
        .map_or(serde_json::Value::Null, Into::into)
}

/// The one statement of a flush. Each kind's rows come as one JSON array.
const FLUSH: &str = "WITH s AS (\
       UPDATE sequences SET value = v.value \
       FROM json_to_recordset($1::json) AS v(name text, old bigint, value bigint) \
       WHERE sequences.name = v.name AND sequences.value = v.old RETURNING 1), \
     a AS (\
       INSERT INTO audit_log (seq, at, actor_id, actor_name, action, subject_kind, subject_id, \
                              before_json, after_json, prev_hash, hash) \
       SELECT seq, at, actor_id, actor_name, action, subject_kind, subject_id, before_json, \
              after_json, prev_hash, hash \
       FROM json_to_recordset($2::json) AS r(seq bigint, at timestamp, actor_id bigint, \
            actor_name text, action text, subject_kind text, subject_id bigint, \
            before_json text, after_json text, prev_hash text, hash text) RETURNING 1), \
     e AS (\
       INSERT INTO events (seq, at, table_id, kind, payload) \
       SELECT seq, at, table_id, kind, payload \
       FROM json_to_recordset($3::json) AS r(seq bigint, at timestamp, table_id bigint, \
            kind text, payload text) RETURNING 1), \
     o AS (\
       INSERT INTO outbox (id, player_id, kind, channel, recipient, language, params, subject, \
                           body, idem_key, status, attempts, next_attempt_at, lease_until, \
                           claimed_by, last_error, provider_ref, created_at, sent_at, failed_at) \
       SELECT id, player_id, kind, channel, recipient, language, params, subject, body, \
              idem_key, status, attempts, next_attempt_at, lease_until, claimed_by, \
              last_error, provider_ref, created_at, sent_at, failed_at \
       FROM json_to_recordset($4::json) AS r(id bigint, player_id bigint, kind text, \
            channel text, recipient text, language text, params text, subject text, \
            body text, idem_key text, status text, attempts integer, \
            next_attempt_at timestamp, lease_until timestamp, claimed_by text, \
            last_error text, provider_ref text, created_at timestamp, sent_at timestamp, \
            failed_at timestamp) RETURNING 1) \
     SELECT (SELECT count(*) FROM s) AS s, (SELECT count(*) FROM a) AS a, \
            (SELECT count(*) FROM e) AS e, (SELECT count(*) FROM o) AS o";

/// SQLite's flush: the moved counters only (the rows went in at once), each written back
/// over the value it had when read.
const FLUSH_SQLITE: &str = "UPDATE sequences SET value = v.value \
     FROM (SELECT j.value ->> 'name' AS name, j.value ->> 'old' AS old, \
                  j.value ->> 'value' AS value FROM json_each(?) AS j) AS v \
     WHERE sequences.name = v.name AND sequences.value = v.old RETURNING 1 AS one";

#[derive(QueryableByName)]
struct One {
    #[diesel(sql_type = diesel::sql_types::Integer)]
    #[allow(dead_code)] // counted, not read
    one: i32,
}

#[derive(QueryableByName)]
struct Flushed {
    #[diesel(sql_type = BigInt)]
    s: i64,
    #[diesel(sql_type = BigInt)]
    a: i64,
    #[diesel(sql_type = BigInt)]
    e: i64,
    #[diesel(sql_type = BigInt)]
    o: i64,
}

/// Writes what `conn`'s write kept, in one statement (nothing when nothing was kept). The
/// counters stay read for the next write of the same transaction.
pub fn flush(conn: &mut DbConn) -> QueryResult<()> {
    flush_sent(conn).map(|_| ())
}

/// [`flush`], telling whether it sent a statement (`false`: nothing was kept to write).
pub(super) fn flush_sent(conn: &mut DbConn) -> QueryResult<bool> {
    let Some(taken) = with(conn, |t| {
        let moved: Vec<(String, i64, i64)> = match t.counters.as_mut() {
            Some(c) => std::mem::take(&mut c.moved)
                .into_iter()
                .map(|(n, old)| {
                    let v = c.values[&n];
                    (n, old, v)
                })
                .collect(),
            None => Vec::new(),
        };
        // The rows not written yet; they stay kept (see `Tail::flushed`).
        let from = std::mem::replace(
            &mut t.flushed,
            Flushed3 {
                audit: t.audit.len(),
                events: t.events.len(),
                outbox: t.outbox.len(),
            },
        );
        let rows = Rows::of(
            &t.audit[from.audit..],
            &t.events[from.events..],
            &t.outbox[from.outbox..],
        );
        (moved, rows)
    }) else {
        return Ok(false);
    };
    let (moved, rows) = taken;
    if moved.is_empty() && rows.counts == (0, 0, 0) {
        return Ok(false);
    }
    let seqs: Vec<_> = moved
        .iter()
        .map(|(n, old, v)| serde_json::json!({ "name": n, "old": old, "value": v }))
        .collect();
    let seqs = serde_json::Value::from(seqs).to_string();
    let pg = match conn {
        DbConn::Sqlite(lite) => {
            let q = diesel::sql_query(FLUSH_SQLITE).bind::<Text, _>(seqs);
            let done = super::Cached(q).load::<One>(lite)?.len();
            return check_flushed((done, 0, 0, 0), (moved.len(), 0, 0, 0)).map(|()| true);
        }
        DbConn::Postgres(pg) => pg,
    };
    let q = diesel::sql_query(FLUSH)
        .bind::<Text, _>(seqs)
        .bind::<Text, _>(rows.audit)
        .bind::<Text, _>(rows.events)
        .bind::<Text, _>(rows.outbox);
    let done: Flushed = super::Cached(q).get_result(pg)?;
    let (a, e, o) = rows.counts;
    let expected = (moved.len(), a, e, o);
    let got = (
        done.s as usize,
        done.a as usize,
        done.e as usize,
        done.o as usize,
    );
    check_flushed(got, expected).map(|()| true)
}

/// The rows of one flush, each kind as one JSON array (one parameter of [`FLUSH`]).
struct Rows {
    audit: String,
    events: String,
    outbox: String,
    counts: (usize, usize, usize),
}

impl Rows {
    fn of(audit: &[AuditRow], events: &[EventRow], outbox: &[OutboxRow]) -> Rows {
        use serde_json::json;
        let audit_json: Vec<_> = audit
            .iter()
            .map(|r| {
                json!({
                    "seq": r.seq, "at": ts(&r.at), "actor_id": r.actor_id,
                    "actor_name": r.actor_name, "action": r.action,
                    "subject_kind": r.subject_kind, "subject_id": r.subject_id,
                    "before_json": r.before_json, "after_json": r.after_json,
                    "prev_hash": r.prev_hash, "hash": r.hash,
                })
            })
            .collect();
        let events_json: Vec<_> = events
            .iter()
            .map(|e| {
                json!({
                    "seq": e.seq, "at": ts(&e.at), "table_id": e.table_id,
                    "kind": e.kind, "payload": e.payload,
                })
            })
            .collect();
        let outbox_json: Vec<_> = outbox
            .iter()
            .map(|m| {
                json!({
                    "id": m.id, "player_id": m.player_id, "kind": m.kind, "channel": m.channel,
                    "recipient": m.recipient, "language": m.language, "params": m.params,
                    "subject": m.subject, "body": m.body, "idem_key": m.idem_key,
                    "status": m.status, "attempts": m.attempts,
                    "next_attempt_at": ts(&m.next_attempt_at),
                    "lease_until": opt_ts(&m.lease_until),
                    "claimed_by": m.claimed_by, "last_error": m.last_error,
                    "provider_ref": m.provider_ref, "created_at": ts(&m.created_at),
                    "sent_at": opt_ts(&m.sent_at), "failed_at": opt_ts(&m.failed_at),
                })
            })
            .collect();
        Rows {
            audit: serde_json::Value::from(audit_json).to_string(),
            events: serde_json::Value::from(events_json).to_string(),
            outbox: serde_json::Value::from(outbox_json).to_string(),
            counts: (audit.len(), events.len(), outbox.len()),
        }
    }
}

/// The rows a flush wrote (counters, audit records, events, messages) against the rows it
/// had to write.
fn check_flushed(
    got: (usize, usize, usize, usize),
    expected: (usize, usize, usize, usize),
) -> QueryResult<()> {
    if got != expected {
        // A counter moved meanwhile by a statement outside the write turn (every write path
        // takes it, so never expected): the numbers handed out may be taken — the write is
        // undone rather than written over them.
        return Err(super::db_error(format!(
            "the write's tail was not written whole: {got:?} of {expected:?} rows"
        )));
    }
    Ok(())
}
