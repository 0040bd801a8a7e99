//! The hash-chained audit trail in the JSON API (admin): its records and their search, and
//! the verification of the chain and its signed checkpoints.

use super::utc;
use crate::db::models::AuditRow;
use crate::domain::FieldError;
use crate::error::{AppError, AppResult};
use crate::services;
use crate::services::audit::AuditFilter;
use crate::web::extract::AdminStaff;
use crate::web::openapi::ErrorResponse;
use crate::web::state::AppState;
use actix_web::web;
// The route macros: utoipa reads the path and method from them (a bare name).
use actix_web::get;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_actix_web::service_config::ServiceConfig;

/// Registered inside the `/api/v1` scope: each handler carries its path and method
/// (`#[get(…)]`) and its documentation (`#[utoipa::path]`), registered together.
pub fn routes(cfg: &mut ServiceConfig) {
    cfg.service(list_audit).service(verify_audit);
}

/// One record of the hash-chained audit trail.
#[derive(Debug, Serialize, ToSchema)]
pub struct AuditOut {
    pub seq: i64,
    pub at: DateTime<Utc>,
    pub actor_id: Option<i64>,
    pub actor_name: String,
    pub action: String,
    pub subject_kind: String,
    pub subject_id: Option<i64>,
    /// The subject before the action (null when none).
    pub before: serde_json::Value,
    /// The subject after the action (null when none).
    pub after: serde_json::Value,
    pub prev_hash: String,
    pub hash: String,
}

fn stored_json(s: &str) -> serde_json::Value {
    if s.is_empty() {
        serde_json::Value::Null
    } else {
        serde_json::from_str(s).unwrap_or_else(|_| serde_json::Value::String(s.to_string()))
    }
}

impl From<&AuditRow> for AuditOut {
    fn from(a: &AuditRow) -> Self {
        AuditOut {
            seq: a.seq,
            at: utc(a.at),
            actor_id: a.actor_id,
            actor_name: a.actor_name.clone(),
            action: a.action.clone(),
            subject_kind: a.subject_kind.clone(),
            subject_id: a.subject_id,
            before: stored_json(&a.before_json),
            after: stored_json(&a.after_json),
            prev_hash: a.prev_hash.clone(),
            hash: a.hash.clone(),
        }
    }
}

/// The outcome of verifying the audit chain.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChainReportOut {
    /// The chain is intact and every signed checkpoint matches it.
    pub ok: bool,
    pub records: u64,
    /// The first broken record's sequence number (for `checkpoint_forged` and
    /// `checkpoints_reordered`: the line of the checkpoint file).
    pub broken_at: Option<i64>,
    /// The chain's problem (`tampered`, `unlinked`, `gap`) or the checkpoints' (`truncated`:
    /// a record a checkpoint vouched for is gone; `rewritten`: it has another hash now;
    /// `checkpoint_forged`, `checkpoints_reordered`, `checkpoints_missing`).
    pub problem: Option<String>,
    /// Signed checkpoints verified against the chain.
    pub checkpoints: usize,
    /// The last record a signed checkpoint vouches for.
    pub sealed_up_to: Option<i64>,
    /// The database's identity (a random id made with it, kept in it) that the checkpoints
    /// must name.
    pub database_id: String,
    /// The host name of the server that answered (its series is `series[0]`).
    pub host: String,
    /// Every checkpoint file checked: this database's series of each host found in the
    /// audit directory, and the old single file if one was left there.
    pub series: Vec<SealSeriesOut>,
}

/// One checkpoint file checked by the audit verification.
#[derive(Debug, Serialize, ToSchema)]
pub struct SealSeriesOut {
    /// The host that wrote it (null: the old single checkpoint file, which names none).
    pub host: Option<String>,
    /// Its file name in the audit directory.
    pub file: String,
    /// Checkpoints verified in it (0 when it is broken).
    pub checkpoints: usize,
    /// The last record it vouches for.
    pub last_seq: Option<i64>,
    /// `ok`; a problem (`truncated`, `rewritten`, `checkpoint_forged`,
    /// `checkpoints_reordered`, `checkpoints_missing`: this host's series is gone); or
    /// `other_database`: the old single file does not match this database's trail (another
    /// database's, or several in turn), left as it is and no finding against this one.
    pub result: String,
    /// The record (or line) the problem is at.
    pub broken_at: Option<i64>,
}

impl From<&crate::audit_seal::SeriesReport> for SealSeriesOut {
    fn from(s: &crate::audit_seal::SeriesReport) -> Self {
        SealSeriesOut {
            host: s.host.clone(),
            file: s.file.clone(),
            checkpoints: s.checkpoints,
            last_seq: s.last_seq,
            result: s.result.code().to_string(),
            broken_at: s.result.at(),
        }
    }
}

/// The time window of an audit search (RFC 3339 instants, e.g. `2026-11-21T20:00:00Z`).
#[derive(Debug, Deserialize, IntoParams)]
pub struct AuditRange {
    /// Records at or after this instant.
    #[param(format = DateTime)]
    pub from: Option<String>,
    /// Records before this instant.
    #[param(format = DateTime)]
    pub to: Option<String>,
}

fn instant(field: &str, v: Option<&str>) -> Result<Option<DateTime<Utc>>, FieldError> {
    let Some(s) = v.map(str::trim) else {
        return Ok(None);
    };
    // Absent is omitted; an empty value is not an instant (the API is not a form).
    if s.is_empty() {
        return Err(FieldError::new(field, "api-instant"));
    }
    // An unencoded `+` in a query string arrives as a space.
    DateTime::parse_from_rfc3339(s)
        .or_else(|_| DateTime::parse_from_rfc3339(&s.replace(' ', "+")))
        .map(|t| Some(t.with_timezone(&Utc)))
        .map_err(|_| FieldError::new(field, "api-instant"))
}

/// The audit trail, newest first (admin). Page with `before_seq`.
#[utoipa::path(
    tag = "audit",
    params(AuditFilter, AuditRange),
    responses((status = 200, body = [AuditOut]), (status = 403, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[get("/audit")]
pub async fn list_audit(
    st: web::Data<AppState>,
    _who: AdminStaff,
    filter: web::Query<AuditFilter>,
    range: web::Query<AuditRange>,
) -> AppResult<web::Json<Vec<AuditOut>>> {
    let from = instant("from", range.from.as_deref());
    let to = instant("to", range.to.as_deref());
    let (from, to) = match (from, to) {
        (Ok(f), Ok(t)) => (f, t),
        (f, t) => {
            return Err(AppError::Validation(
                f.err().into_iter().chain(t.err()).collect(),
            ))
        }
    };
    let filter = filter.into_inner();
    let rows = st
        .run(move |_, conn| services::audit::list(conn, &filter, from, to))
        .await?;
    Ok(web::Json(rows.iter().map(AuditOut::from).collect()))
}

/// Verifies the whole hash chain and this database's signed checkpoints, every series the
/// audit directory holds (admin).
#[utoipa::path(
    tag = "audit", responses((status = 200, body = ChainReportOut), (status = 403, body = ErrorResponse)))]
#[get("/audit/verify")]
pub async fn verify_audit(
    st: web::Data<AppState>,
    who: AdminStaff,
) -> AppResult<web::Json<ChainReportOut>> {
    let r = st
        .run(|st, conn| services::audit::verify_all(conn, &st.seal))
        .await?;
    // A failure is a security event, recorded with who found it.
    if !r.ok() {
        let (now, actor, failed) = (
            st.clock.now(),
            services::staff::actor(&who.0.staff),
            r.clone(),
        );
        // Best effort: the verification is answered even if the trail cannot take the
        // record (e.g. records slipped in ahead of its counter).
        if let Err(e) = st
            .write(move |_, c| services::audit::record_failure(c, now, &actor, &failed))
            .await
        {
            log::warn!("recording the failed audit check: {e}");
        }
    }
    Ok(web::Json(ChainReportOut {
        ok: r.ok(),
        records: r.chain.records,
        broken_at: r.broken_at(),
        problem: r.problem().map(str::to_string),
        checkpoints: r.seal.checkpoints,
        sealed_up_to: r.seal.sealed_up_to,
        database_id: r.seal.database_id.clone(),
        host: r.seal.host.clone(),
        series: r.seal.series.iter().map(SealSeriesOut::from).collect(),
    }))
}
