//! The outbox in the database: which messages are due, claiming them for one worker,
//! recording each attempt, and what the floor sees and does (list, retry now).
//!
//! A claim is a conditional `UPDATE … WHERE id = ? AND (pending and due, or sending with an
//! expired lease)`: of two workers (two server processes on PostgreSQL) that read the same
//! due row, exactly one updates it — the other's UPDATE finds the row no longer matching
//! (PostgreSQL re-checks the condition after waiting for the first one's row lock; SQLite has
//! one writer at a time) and leaves it. Claims also run in the room's write turn.

use super::policy::{AfterFailure, Backoff};
use super::transport::SendError;
use crate::db::audit::{self, Actor};
use crate::db::models::AttemptOutcome;
use crate::db::models::OutboxStatus;
use crate::db::models::{OutboxAttemptRow, OutboxRow};
use crate::db::schema::{outbox, outbox_attempts, players};
use crate::db::{next_seq, DbConn};
use crate::domain::ids::PlayerId;
use crate::domain::Problem;
use crate::error::{AppError, AppResult};
use chrono::{DateTime, Duration, Utc};
use diesel::prelude::*;

/// Due now: pending and its time has come, or being sent by a worker whose lease ran out.
macro_rules! due_now {
    ($now:expr) => {
        outbox::status
            .eq(OutboxStatus::Pending)
            .and(outbox::next_attempt_at.le($now))
            .or(outbox::status
                .eq(OutboxStatus::Sending)
                .and(outbox::lease_until.le($now)))
    };
}

/// The ids of the messages due at `now`, oldest first (a read: no write turn).
pub fn due(conn: &mut DbConn, now: DateTime<Utc>, limit: i64) -> AppResult<Vec<i64>> {
    let now = now.naive_utc();
    Ok(outbox::table
        .filter(due_now!(now))
        .order((outbox::next_attempt_at.asc(), outbox::id.asc()))
        .limit(limit)
        .select(outbox::id)
        .load(conn)?)
}

/// Writes a message's text: (e-mail subject, body), or why it cannot be written.
pub type WriteFn<'a> = &'a dyn Fn(&OutboxRow) -> Result<(Option<String>, String), String>;

/// A message this worker holds: the row after the claim and the attempt started for it.
#[derive(Debug, Clone)]
pub struct Claimed {
    pub message: OutboxRow,
    pub attempt_id: i64,
    pub attempt: i32,
}

/// Claims the messages among `ids` still due, for `worker`, until `now + lease`; starts an
/// attempt for each (and marks as interrupted the attempts a crashed worker never
/// recorded). `write` gives the text of a message not yet written (stored with it: every
/// later attempt sends the same). Runs in the caller's write transaction.
pub fn claim(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    worker: &str,
    lease: Duration,
    ids: &[i64],
    transport_of: &dyn Fn(&str) -> &'static str,
    write: WriteFn<'_>,
) -> AppResult<Vec<Claimed>> {
    let t = now.naive_utc();
    let mut out = Vec::new();
    for &id in ids {
        let n = diesel::update(outbox::table.find(id).filter(due_now!(t)))
            .set((
                outbox::status.eq(OutboxStatus::Sending),
                outbox::lease_until.eq(Some((now + lease).naive_utc())),
                outbox::claimed_by.eq(Some(worker)),
                outbox::attempts.eq(outbox::attempts + 1),
            ))
            .execute(conn)?;
        if n != 1 {
            continue; // another worker has it
        }
        // A started attempt nobody recorded: its worker stopped after claiming (perhaps after
        // sending). This one sends again with the same key.
        diesel::update(
            outbox_attempts::table
                .filter(outbox_attempts::message_id.eq(id))
                .filter(outbox_attempts::outcome.eq(AttemptOutcome::Started)),
        )
        .set((
            outbox_attempts::outcome.eq(AttemptOutcome::Interrupted),
            outbox_attempts::finished_at.eq(Some(t)),
            outbox_attempts::error.eq(Some(
                "the worker stopped before recording the outcome; sent again with the same key",
            )),
        ))
        .execute(conn)?;
        let mut m: OutboxRow = outbox::table
            .find(id)
            .select(OutboxRow::as_select())
            .first(conn)?;
        if m.body.is_none() {
            match write(&m) {
                Ok((subject, body)) => {
                    diesel::update(outbox::table.find(id))
                        .set((outbox::subject.eq(&subject), outbox::body.eq(Some(&body))))
                        .execute(conn)?;
                    m.subject = subject;
                    m.body = Some(body);
                }
                Err(e) => {
                    // Cannot be written (a bug or a corrupted row): failed, visible to the floor.
                    log::error!("message {id} cannot be written: {e}");
                    fail(conn, now, id, &e)?;
                    continue;
                }
            }
        }
        let attempt = 1 + outbox_attempts::table
            .filter(outbox_attempts::message_id.eq(id))
            .count()
            .get_result::<i64>(conn)? as i32;
        let row = OutboxAttemptRow {
            id: next_seq(conn, "outbox_attempt")?,
            message_id: id,
            attempt,
            worker: worker.to_string(),
            transport: transport_of(m.channel.as_str()).to_string(),
            started_at: t,
            finished_at: None,
            outcome: AttemptOutcome::Started,
            error: None,
            provider_ref: None,
        };
        diesel::insert_into(outbox_attempts::table)
            .values(&row)
            .execute(conn)?;
        out.push(Claimed {
            message: m,
            attempt_id: row.id,
            attempt,
        });
    }
    Ok(out)
}

fn fail(conn: &mut DbConn, now: DateTime<Utc>, id: i64, error: &str) -> AppResult<()> {
    diesel::update(outbox::table.find(id))
        .set((
            outbox::status.eq(OutboxStatus::Failed),
            outbox::failed_at.eq(Some(now.naive_utc())),
            outbox::lease_until.eq(None::<chrono::NaiveDateTime>),
            outbox::last_error.eq(Some(error)),
        ))
        .execute(conn)?;
    let after = serde_json::json!({ "message_id": id, "error": error });
    audit::record::<(), _>(
        conn,
        now,
        &Actor::system(),
        "message.failed",
        "message",
        Some(id),
        None,
        Some(&after),
    )?;
    Ok(())
}

/// What became of a recorded attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recorded {
    Sent,
    Retry,
    Failed,
    /// The lease ran out before the outcome was recorded and another worker claimed the
    /// message: only the attempt row is updated (the other worker sends with the same key).
    LeaseLost,
}

/// Records the outcome of a claimed message's attempt (the worker's own write, after the
/// send). Fenced by the claim: only if the message is still this worker's `sending` claim.
pub fn record(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    worker: &str,
    c: &Claimed,
    outcome: &Result<Option<String>, SendError>,
    backoff: &Backoff,
) -> AppResult<Recorded> {
    let t = now.naive_utc();
    let (label, error, reference) = match outcome {
        Ok(r) => ("sent", None, r.clone()),
        Err(e) => ("error", Some(e.message.clone()), None),
    };
    diesel::update(outbox_attempts::table.find(c.attempt_id))
        .set((
            outbox_attempts::outcome.eq(label),
            outbox_attempts::finished_at.eq(Some(t)),
            outbox_attempts::error.eq(&error),
            outbox_attempts::provider_ref.eq(&reference),
        ))
        .execute(conn)?;
    let mine = outbox::table
        .find(c.message.id)
        .filter(outbox::status.eq(OutboxStatus::Sending))
        .filter(outbox::claimed_by.eq(worker))
        .filter(outbox::attempts.eq(c.message.attempts));
    let (n, what) = match outcome {
        Ok(r) => (
            diesel::update(mine)
                .set((
                    outbox::status.eq(OutboxStatus::Sent),
                    outbox::sent_at.eq(Some(t)),
                    outbox::lease_until.eq(None::<chrono::NaiveDateTime>),
                    outbox::provider_ref.eq(r),
                    outbox::last_error.eq(None::<String>),
                ))
                .execute(conn)?,
            Recorded::Sent,
        ),
        Err(e) => match backoff.after_failure(c.message.attempts.max(0) as u32, e.permanent, now) {
            AfterFailure::RetryAt(at) => (
                diesel::update(mine)
                    .set((
                        outbox::status.eq(OutboxStatus::Pending),
                        outbox::next_attempt_at.eq(at.naive_utc()),
                        outbox::lease_until.eq(None::<chrono::NaiveDateTime>),
                        outbox::last_error.eq(Some(&e.message)),
                    ))
                    .execute(conn)?,
                Recorded::Retry,
            ),
            AfterFailure::Failed => {
                let n: i64 = outbox::table
                    .find(c.message.id)
                    .filter(outbox::status.eq(OutboxStatus::Sending))
                    .filter(outbox::claimed_by.eq(worker))
                    .filter(outbox::attempts.eq(c.message.attempts))
                    .count()
                    .get_result(conn)?;
                if n == 1 {
                    fail(conn, now, c.message.id, &e.message)?;
                }
                (n as usize, Recorded::Failed)
            }
        },
    };
    Ok(if n == 1 { what } else { Recorded::LeaseLost })
}

/// The floor sends a failed message again now ("retry now", audited): a new round of
/// attempts with the same idempotency key.
pub fn retry_now(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    actor: &Actor,
    id: i64,
) -> AppResult<OutboxRow> {
    let m = get(conn, id)?;
    if m.status != OutboxStatus::Failed {
        return Err(AppError::Conflict(Problem::new("err-message-not-failed")));
    }
    let n = diesel::update(
        outbox::table
            .find(id)
            .filter(outbox::status.eq(OutboxStatus::Failed)),
    )
    .set((
        outbox::status.eq(OutboxStatus::Pending),
        outbox::attempts.eq(0),
        outbox::next_attempt_at.eq(now.naive_utc()),
        outbox::failed_at.eq(None::<chrono::NaiveDateTime>),
    ))
    .execute(conn)?;
    if n != 1 {
        return Err(AppError::Conflict(Problem::new("err-message-not-failed")));
    }
    let after = get(conn, id)?;
    let b = serde_json::json!({ "status": m.status, "attempts": m.attempts, "last_error": m.last_error });
    let a = serde_json::json!({ "status": after.status, "kind": after.kind, "channel": after.channel, "player_id": after.player_id });
    audit::record(
        conn,
        now,
        actor,
        "message.retry",
        "message",
        Some(id),
        Some(&b),
        Some(&a),
    )?;
    Ok(after)
}

pub fn get(conn: &mut DbConn, id: i64) -> AppResult<OutboxRow> {
    Ok(outbox::table
        .find(id)
        .select(OutboxRow::as_select())
        .first(conn)?)
}

/// How many messages have failed and wait for the floor (the dashboard's alert).
pub fn failed_count(conn: &mut DbConn) -> AppResult<i64> {
    Ok(outbox::table
        .filter(outbox::status.eq(OutboxStatus::Failed))
        .count()
        .get_result(conn)?)
}

/// What the floor page and the API filter by.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    pub player_id: Option<PlayerId>,
    pub status: Option<String>,
    pub limit: i64,
}

/// One message with its player's alias and its attempts (oldest first).
#[derive(Debug, Clone)]
pub struct Listed {
    pub message: OutboxRow,
    pub alias: Option<String>,
    pub attempts: Vec<OutboxAttemptRow>,
}

/// One message with its player's alias and attempts.
pub fn one(conn: &mut DbConn, id: i64) -> AppResult<Listed> {
    let (message, alias): (OutboxRow, Option<String>) = outbox::table
        .left_join(players::table)
        .filter(outbox::id.eq(id))
        .select((OutboxRow::as_select(), players::alias.nullable()))
        .first(conn)?;
    let attempts = outbox_attempts::table
        .filter(outbox_attempts::message_id.eq(id))
        .order(outbox_attempts::attempt.asc())
        .select(OutboxAttemptRow::as_select())
        .load(conn)?;
    Ok(Listed {
        message,
        alias,
        attempts,
    })
}

pub const STATUSES: [&str; 4] = ["pending", "sending", "sent", "failed"];

/// Messages, newest first, with their attempts.
pub fn list(conn: &mut DbConn, f: &Filter) -> AppResult<Vec<Listed>> {
    if let Some(s) = &f.status {
        if !STATUSES.contains(&s.as_str()) {
            return Err(AppError::field("status", "err-message-status"));
        }
    }
    let mut q = outbox::table.left_join(players::table).into_boxed();
    if let Some(p) = f.player_id {
        q = q.filter(outbox::player_id.eq(p));
    }
    if let Some(s) = &f.status {
        q = q.filter(outbox::status.eq(s.clone()));
    }
    let rows: Vec<(OutboxRow, Option<String>)> = q
        .order(outbox::id.desc())
        .limit(f.limit.clamp(1, 1000))
        .select((OutboxRow::as_select(), players::alias.nullable()))
        .load(conn)?;
    let ids: Vec<i64> = rows.iter().map(|(m, _)| m.id).collect();
    let mut attempts: std::collections::HashMap<i64, Vec<OutboxAttemptRow>> =
        std::collections::HashMap::new();
    if !ids.is_empty() {
        let all: Vec<OutboxAttemptRow> = outbox_attempts::table
            .filter(outbox_attempts::message_id.eq_any(&ids))
            .order((
                outbox_attempts::message_id.asc(),
                outbox_attempts::attempt.asc(),
            ))
            .select(OutboxAttemptRow::as_select())
            .load(conn)?;
        for a in all {
            attempts.entry(a.message_id).or_default().push(a);
        }
    }
    Ok(rows
        .into_iter()
        .map(|(message, alias)| {
            let attempts = attempts.remove(&message.id).unwrap_or_default();
            Listed {
                message,
                alias,
                attempts,
            }
        })
        .collect())
}
