//! The admin's audit trail: the records with their filter, and the verification of the chain
//! and its signed checkpoints.

use super::{summary, Opt, Parser, SumLine};
use crate::db::models::AuditRow;
use crate::domain::FieldError;
use crate::error::{AppError, AppResult};
use crate::services;
use crate::services::audit::AuditFilter;
use crate::web::ctx::{Ctx, Errs, Vals};
use crate::web::extract::AdminStaff;
use crate::web::pages::{ctx, render};
use crate::web::state::AppState;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/admin/audit", web::get().to(audit_page))
        .route("/admin/audit/verify", web::get().to(audit_verify));
}

const AUDIT_LABELS: &[(&str, &str)] = &[
    ("actor", "audit-who"),
    ("action", "admin-audit-action"),
    ("subject_kind", "admin-audit-subject-kind"),
    ("subject_id", "admin-audit-subject-id"),
    ("from", "field-from"),
    ("to", "field-until"),
    ("limit", "admin-audit-page-size"),
];

/// The audit filter as typed (a GET form: no CSRF). Dates are in the room's zone.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(default)]
struct AuditQuery {
    actor: String,
    action: String,
    subject_kind: String,
    subject_id: String,
    from: String,
    to: String,
    limit: String,
    before_seq: String,
}

const SUBJECT_KINDS: &[&str] = &["player", "staff", "game", "table", "room", "ruling"];

/// One audit record, formatted.
pub struct AuditLine {
    pub r: AuditRow,
    /// Where the subject can be seen, if anywhere.
    pub link: Option<String>,
    pub short_hash: String,
    /// For a `draw.record`: the draw's id, linked to `/draws/{id}`.
    pub draw: Option<i64>,
}

fn audit_line(r: AuditRow) -> AuditLine {
    let link = match (r.subject_kind.as_str(), r.subject_id) {
        ("player", Some(id)) => Some(format!("/players/{id}")),
        ("game", Some(id)) => Some(format!("/admin/games/{id}")),
        ("table", Some(id)) => Some(format!("/admin/tables/{id}")),
        ("staff", Some(id)) => Some(format!("/admin/staff/{id}")),
        ("room", _) => Some("/admin/room".to_string()),
        ("ruling", Some(id)) => Some(format!("/floor/rulings/{id}")),
        _ => None,
    };
    let short_hash = r.hash.chars().take(12).collect();
    // A draw's record names its draw: the row links to the readable record.
    let draw = if r.action == "draw.record" {
        serde_json::from_str::<serde_json::Value>(&r.after_json)
            .ok()
            .and_then(|v| v.get("id")?.as_i64())
    } else {
        None
    };
    AuditLine {
        r,
        link,
        short_hash,
        draw,
    }
}

#[derive(Template)]
#[template(path = "admin/audit.html")]
struct AuditPage {
    c: Ctx,
    v: Vals,
    errs: Errs,
    summary: Vec<SumLine>,
    kinds: Vec<Opt>,
    lines: Vec<AuditLine>,
    /// The next (older) page, with the same filters.
    older: Option<String>,
    /// A page further back than the newest (a link back to the start is shown).
    paged: bool,
}

/// From (inclusive) and to (exclusive), in UTC.
struct Period {
    from: Option<DateTime<Utc>>,
    to: Option<DateTime<Utc>>,
}

impl AuditQuery {
    /// The service's filter, plus the period in UTC.
    fn parse(&self, tz: chrono_tz::Tz) -> Result<(AuditFilter, Period), Vec<FieldError>> {
        let mut p = Parser::default();
        let nonempty = |s: &str| Some(s.trim().to_string()).filter(|s| !s.is_empty());
        let f = AuditFilter {
            actor: nonempty(&self.actor),
            action: nonempty(&self.action),
            subject_kind: nonempty(&self.subject_kind),
            subject_id: p.opt_i64("subject_id", &self.subject_id),
            before_seq: p.opt_i64("before_seq", &self.before_seq),
            limit: p.opt_i64("limit", &self.limit),
        };
        let mut date = |field: &str, s: &str, next_day: bool| -> Option<DateTime<Utc>> {
            let t = s.trim();
            if t.is_empty() {
                return None;
            }
            // A date alone: from its start; "to" a date includes that whole day.
            let t = match chrono::NaiveDate::parse_from_str(t, "%Y-%m-%d") {
                Ok(d) if next_day => d
                    .succ_opt()
                    .map(|d| d.format("%Y-%m-%d").to_string())
                    .unwrap_or_else(|| t.to_string()),
                _ => t.to_string(),
            };
            match services::players::parse_local(field, &t, tz) {
                Ok(at) => Some(at),
                Err(_) => {
                    // The boxes take a date (a date and time is accepted too).
                    p.errs.push(FieldError::new(field, "err-date"));
                    None
                }
            }
        };
        let from = date("from", &self.from, false);
        let to = date("to", &self.to, true);
        if let Some(k) = &f.subject_kind {
            if !SUBJECT_KINDS.contains(&k.as_str()) {
                p.errs.push(
                    FieldError::new("subject_kind", "err-choice")
                        .arg("value", k.chars().take(40).collect::<String>()),
                );
            }
        }
        if let Some(l) = f.limit {
            if !(1..=200).contains(&l) {
                p.errs.push(FieldError::new("limit", "err-limit"));
            }
        }
        p.finish(Vec::new)?;
        Ok((f, Period { from, to }))
    }

    /// The same filters, one page further back.
    fn older_than(&self, seq: i64) -> String {
        let pairs: Vec<(&str, &str)> = [
            ("actor", self.actor.as_str()),
            ("action", self.action.as_str()),
            ("subject_kind", self.subject_kind.as_str()),
            ("subject_id", self.subject_id.as_str()),
            ("from", self.from.as_str()),
            ("to", self.to.as_str()),
            ("limit", self.limit.as_str()),
        ]
        .into_iter()
        .filter(|(_, v)| !v.trim().is_empty())
        .collect();
        let seq = seq.to_string();
        let mut all = pairs;
        all.push(("before_seq", &seq));
        format!(
            "/admin/audit?{}",
            serde_urlencoded::to_string(&all).unwrap_or_default()
        )
    }
}

async fn audit_page(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: AdminStaff,
    q: web::Query<AuditQuery>,
) -> AppResult<HttpResponse> {
    let c = ctx(&req, &st, &who.0).await?;
    let q = q.into_inner();
    let kinds: Vec<Opt> = SUBJECT_KINDS
        .iter()
        .map(|k| Opt {
            value: k.to_string(),
            label: c.tk("admin-audit-kind-", k),
        })
        .collect();
    let v = Vals::of(&q);
    let paged = !q.before_seq.trim().is_empty();
    let rows = match q.parse(c.tz) {
        Ok((filter, period)) => {
            st.run(move |_, conn| services::audit::list(conn, &filter, period.from, period.to))
                .await
        }
        Err(fields) => Err(AppError::Validation(fields)),
    };
    match rows {
        Ok(rows) => {
            let limit = q.limit.trim().parse::<usize>().unwrap_or(50);
            let older = match rows.last() {
                Some(last) if rows.len() >= limit => Some(q.older_than(last.seq)),
                _ => None,
            };
            let lines = rows.into_iter().map(audit_line).collect();
            render(
                StatusCode::OK,
                &AuditPage {
                    c,
                    v,
                    errs: Errs::default(),
                    summary: Vec::new(),
                    kinds,
                    lines,
                    older,
                    paged,
                },
            )
        }
        Err(AppError::Validation(fields)) => {
            let errs = c.errors(&fields);
            let summary = summary(&c, &errs, AUDIT_LABELS);
            render(
                StatusCode::UNPROCESSABLE_ENTITY,
                &AuditPage {
                    c,
                    v,
                    errs,
                    summary,
                    kinds,
                    lines: Vec::new(),
                    older: None,
                    paged,
                },
            )
        }
        Err(e) => Err(e),
    }
}

#[derive(Template)]
#[template(path = "admin/audit_verify.html")]
struct VerifyPage {
    c: Ctx,
    ok: bool,
    broken_at: Option<i64>,
    records: u64,
    checkpoints: usize,
    sealed_up_to: Option<i64>,
    /// The problem with the first broken record, in the reader's language.
    problem: String,
    /// The database's identity the checkpoints name.
    database_id: String,
    /// Every checkpoint file checked.
    series: Vec<SeriesRow>,
}

/// One checkpoint file on the verify page, said in the reader's language.
struct SeriesRow {
    host: String,
    file: String,
    checkpoints: usize,
    last_seq: Option<i64>,
    result: String,
    /// Not a finding (`ok`, or the old file left to another database).
    fine: bool,
}

async fn audit_verify(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: AdminStaff,
) -> AppResult<HttpResponse> {
    let c = ctx(&req, &st, &who.0).await?;
    let v = st
        .run(|st, conn| services::audit::verify_all(conn, &st.seal))
        .await?;
    if !v.ok() {
        let (now, actor, failed) = (
            st.clock.now(),
            services::staff::actor(&who.0.staff),
            v.clone(),
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
    // The report names the problem by code; each is said in the reader's language.
    let problem = v
        .problem()
        .map(|p| c.tk("admin-audit-broken-", p))
        .unwrap_or_default();
    let page = VerifyPage {
        ok: v.ok(),
        broken_at: v.broken_at(),
        records: v.chain.records,
        checkpoints: v.seal.checkpoints,
        sealed_up_to: v.seal.sealed_up_to,
        database_id: v.seal.database_id.clone(),
        series: v
            .seal
            .series
            .iter()
            .map(|s| SeriesRow {
                host: match &s.host {
                    Some(h) if h == &v.seal.host => c.t1("audit-seal-this-host", "host", h),
                    Some(h) => h.clone(),
                    None => c.t("audit-seal-no-host"),
                },
                file: s.file.clone(),
                checkpoints: s.checkpoints,
                last_seq: s.last_seq,
                result: c.tk("audit-seal-result-", s.result.code()),
                fine: !matches!(s.result, crate::audit_seal::SeriesResult::Broken(_)),
            })
            .collect(),
        c,
        problem,
    };
    render(StatusCode::OK, &page)
}
