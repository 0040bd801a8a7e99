//! `GET /metrics`: Prometheus' text format. Protected: with `CARDROOM_METRICS_TOKEN` set, a
//! scrape must send `Authorization: Bearer <token>`; without it, only the machine itself
//! (loopback) may scrape — behind a reverse proxy on the same machine, set the token. Anything
//! else is a 401 that says nothing of the figures.

use crate::domain::Problem;
use crate::error::AppError;
use crate::metrics::Snapshot;
use crate::web::state::AppState;
use actix_web::{web, HttpRequest, HttpResponse};
use diesel::prelude::*;

fn allowed(req: &HttpRequest, token: Option<&str>) -> bool {
    match token {
        Some(t) => req
            .headers()
            .get(actix_web::http::header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .is_some_and(|given| constant_time_eq(given.trim().as_bytes(), t.as_bytes())),
        None => req.peer_addr().is_some_and(|a| a.ip().is_loopback()),
    }
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

pub async fn scrape(req: HttpRequest, st: web::Data<AppState>) -> Result<HttpResponse, AppError> {
    if !allowed(&req, st.config.metrics_token.as_deref()) {
        return Err(AppError::Unauthorized(Problem::new("err-metrics-token")));
    }
    let stats = st.db.write_stats();
    use std::sync::atomic::Ordering::Relaxed;
    let pool = st.db.pool.state();
    let mut snap = Snapshot {
        write_turns: stats.turns.load(Relaxed),
        write_batches: stats.batches.load(Relaxed),
        write_wait_ns: stats.wait_ns.load(Relaxed),
        write_hold_ns: stats.hold_ns.load(Relaxed),
        pool_connections: pool.connections,
        pool_idle: pool.idle_connections,
        db_failures: st.db.health.failures.load(Relaxed),
        db_down: st.db.health.down(),
        scheduler_since_pass_s: st.metrics.since_scheduler_pass(),
        ..Snapshot::default()
    };
    // The database's figures; in an outage the rest is still worth scraping (db_up says 0).
    let now = st.clock.now().naive_utc();
    let read = st
        .run(move |_, c| {
            use crate::db::schema::{outbox::dsl as o, seat_calls::dsl as s};
            let pending: i64 = o::outbox
                .filter(o::status.eq_any(["pending", "sending"]))
                .count()
                .get_result(c)?;
            let failed: i64 = o::outbox
                .filter(o::status.eq("failed"))
                .count()
                .get_result(c)?;
            let oldest: Option<chrono::NaiveDateTime> = o::outbox
                .filter(o::status.eq_any(["pending", "sending"]))
                .select(diesel::dsl::min(o::created_at))
                .first(c)?;
            let open: i64 = s::seat_calls
                .filter(s::state.eq_any(["pending", "acknowledged"]))
                .count()
                .get_result(c)?;
            let audit = crate::db::current_seq(c, "audit")?;
            Ok((pending, failed, oldest, open, audit))
        })
        .await;
    if let Ok((pending, failed, oldest, open, audit)) = read {
        snap.outbox_pending = pending;
        snap.outbox_failed = failed;
        snap.outbox_oldest_pending_s = oldest.map(|t| (now - t).num_seconds().max(0)).unwrap_or(0);
        snap.seat_calls_open = open;
        snap.audit_records = audit;
    }
    let body = st
        .metrics
        .encode(snap)
        .map_err(|e| AppError::Internal(format!("metrics: {e}")))?;
    Ok(HttpResponse::Ok()
        .content_type("text/plain; version=0.0.4; charset=utf-8")
        .body(body))
}
