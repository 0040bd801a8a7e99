//! `GET /metrics`: Prometheus' text format. Protected: with `CARDROOM_METRICS_TOKEN` set, a
//! scrape must send `Authorization: Bearer <token>`; without it, only the machine itself
//! (loopback) may scrape — behind a reverse proxy on the same machine, set the token. Anything
//! else is a 401 that says nothing of the figures.

use crate::domain::Problem;
use crate::error::AppError;
use crate::metrics::Snapshot;
use crate::web::state::AppState;
use actix_web::{web, HttpRequest, HttpResponse};

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
    if !allowed(&req, st.config.security.metrics_token.as_deref()) {
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
        .run(move |_, c| crate::services::lookups::backlog(c))
        .await;
    if let Ok(b) = read {
        snap.outbox_pending = b.outbox_pending;
        snap.outbox_failed = b.outbox_failed;
        snap.outbox_oldest_pending_s = b
            .outbox_oldest_pending
            .map(|t| (now - t).num_seconds().max(0))
            .unwrap_or(0);
        snap.seat_calls_open = b.seat_calls_open;
        snap.audit_records = b.audit_records;
    }
    let body = st
        .metrics
        .encode(snap)
        .map_err(|e| AppError::internal(format!("metrics: {e}")))?;
    Ok(HttpResponse::Ok()
        .content_type("text/plain; version=0.0.4; charset=utf-8")
        .body(body))
}
