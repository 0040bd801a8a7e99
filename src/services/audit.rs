//! Browsing and verifying the audit trail.

use crate::db::audit::{verify, ChainReport};
use crate::db::models::AuditRow;
use crate::db::schema::audit_log;
use crate::db::DbConn;
use crate::error::{AppError, AppResult};
use chrono::{DateTime, Utc};
use diesel::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, Deserialize, Serialize, utoipa::IntoParams)]
pub struct AuditFilter {
    /// Staff username (exact).
    pub actor: Option<String>,
    /// Action or its prefix, e.g. `player.` or `player.ban`.
    pub action: Option<String>,
    /// player | staff | game | table | room
    pub subject_kind: Option<String>,
    pub subject_id: Option<i64>,
    /// Records up to (not including) this sequence number: the next page.
    pub before_seq: Option<i64>,
    /// Page size, 1 to 200 (default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<i64>,
}

pub fn list(
    conn: &mut DbConn,
    f: &AuditFilter,
    from: Option<DateTime<Utc>>,
    to: Option<DateTime<Utc>>,
) -> AppResult<Vec<AuditRow>> {
    let limit = f.limit.unwrap_or(50);
    if !(1..=200).contains(&limit) {
        return Err(AppError::field("limit", "err-limit"));
    }
    let mut q = audit_log::table.into_boxed();
    if let Some(a) = f.actor.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        q = q.filter(audit_log::actor_name.eq(a.to_lowercase()));
    }
    if let Some(a) = f.action.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        let escaped: String = a
            .chars()
            .flat_map(|c| {
                if matches!(c, '%' | '_' | '\\') {
                    vec!['\\', c]
                } else {
                    vec![c]
                }
            })
            .collect();
        q = q.filter(audit_log::action.like(format!("{escaped}%")).escape('\\'));
    }
    if let Some(k) = f
        .subject_kind
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        q = q.filter(audit_log::subject_kind.eq(k.to_string()));
    }
    if let Some(id) = f.subject_id {
        q = q.filter(audit_log::subject_id.eq(id));
    }
    if let Some(b) = f.before_seq {
        q = q.filter(audit_log::seq.lt(b));
    }
    if let Some(t) = from {
        q = q.filter(audit_log::at.ge(t.naive_utc()));
    }
    if let Some(t) = to {
        q = q.filter(audit_log::at.lt(t.naive_utc()));
    }
    Ok(q.order(audit_log::seq.desc())
        .limit(limit)
        .select(AuditRow::as_select())
        .load(conn)?)
}

pub fn history(conn: &mut DbConn, kind: &str, id: i64, limit: i64) -> AppResult<Vec<AuditRow>> {
    Ok(audit_log::table
        .filter(audit_log::subject_kind.eq(kind))
        .filter(audit_log::subject_id.eq(id))
        .order(audit_log::seq.desc())
        .limit(limit)
        .select(AuditRow::as_select())
        .load(conn)?)
}

pub fn verify_chain(conn: &mut DbConn) -> AppResult<ChainReport> {
    Ok(verify(conn)?)
}

/// The chain and its signed checkpoints, verified together.
#[derive(Debug, Clone)]
pub struct Verification {
    pub chain: ChainReport,
    pub seal: crate::audit_seal::SealReport,
}

impl Verification {
    pub fn ok(&self) -> bool {
        self.chain.ok && self.seal.problem.is_none()
    }

    /// A stable name for the first problem: the chain's (`tampered`, `unlinked`, `gap`) or the
    /// checkpoints' (`truncated`, `rewritten`, `checkpoint_forged`, `checkpoints_reordered`,
    /// `checkpoints_missing`).
    pub fn problem(&self) -> Option<&'static str> {
        self.chain
            .problem
            .or_else(|| self.seal.problem.as_ref().map(|p| p.code()))
    }

    /// The record (or, for a checkpoint line, the line) the problem is at.
    pub fn broken_at(&self) -> Option<i64> {
        if !self.chain.ok {
            self.chain.broken_at
        } else {
            self.seal.problem.as_ref().and_then(|p| p.at())
        }
    }
}

/// A failed verification is a security event: it is written to the trail itself
/// (`audit.verify_failed`, with who or what checked, the problem and where), so that the
/// moment it was first seen stays on record beside the damage.
pub fn record_failure(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    by: &crate::db::audit::Actor,
    v: &Verification,
) -> AppResult<()> {
    let Some(problem) = v.problem() else {
        return Ok(());
    };
    crate::db::audit::record(
        conn,
        now,
        by,
        "audit.verify_failed",
        "audit",
        None,
        None::<&()>,
        Some(&serde_json::json!({
            "problem": problem,
            "at": v.broken_at(),
            "records": v.chain.records,
            "sealed_up_to": v.seal.sealed_up_to,
        })),
    )?;
    Ok(())
}

pub fn verify_all(conn: &mut DbConn, seal: &crate::audit_seal::Seal) -> AppResult<Verification> {
    let chain = verify(conn)?;
    let seal = seal
        .verify(conn)
        .map_err(|e| AppError::internal(format!("audit checkpoints: {e}")))?;
    Ok(Verification { chain, seal })
}
