//! What the process measures, for Prometheus (`GET /metrics`, see `web::metrics`).
//!
//! Kept as they happen: HTTP requests and their latency by route pattern and status, open
//! event streams by kind, the scheduler's last pass. Read at each scrape: the database's
//! write turns (count, wait, hold, transactions — the group-commit size is turns per
//! transaction), the pool, the message outbox, open seat calls, audit records, the database's
//! health. Names follow Prometheus' conventions (`cardroom_…`, `_total`, `_seconds`).

use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeLabelSet, EncodeMetric};
use prometheus_client::metrics::counter::{ConstCounter, Counter};
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::{ConstGauge, Gauge};
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::Instant;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RequestLabels {
    pub method: String,
    /// The route pattern (`/api/v1/tables/{id}/seats`), never the path itself.
    pub route: String,
    pub status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RouteLabels {
    pub method: String,
    pub route: String,
}

/// What became of a join code (or of asking for one).
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct JoinLabels {
    /// `sent`, `verified`, `failed` (a wrong, expired or dead code), `blocked` (a blocked
    /// phone: nothing sent), `rate_limited` (a 429).
    pub outcome: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct StreamLabels {
    /// `floor` (every event) or `tablet` (one table's).
    pub kind: &'static str,
}

/// Values read at scrape time (filled by the handler, encoded by [`SnapshotCollector`]).
#[derive(Debug, Default, Clone)]
pub struct Snapshot {
    pub write_turns: u64,
    pub write_batches: u64,
    pub write_wait_ns: u64,
    pub write_hold_ns: u64,
    pub pool_connections: u32,
    pub pool_idle: u32,
    pub db_failures: u64,
    pub db_down: bool,
    pub outbox_pending: i64,
    pub outbox_failed: i64,
    pub outbox_oldest_pending_s: i64,
    pub seat_calls_open: i64,
    pub audit_records: i64,
    pub scheduler_since_pass_s: f64,
}

#[derive(Debug, Default)]
struct SnapshotCollector(Arc<Mutex<Snapshot>>);

fn counter(e: &mut DescriptorEncoder, name: &str, help: &str, v: u64) -> std::fmt::Result {
    let c = ConstCounter::new(v);
    c.encode(e.encode_descriptor(name, help, None, c.metric_type())?)
}

fn counter_f(e: &mut DescriptorEncoder, name: &str, help: &str, v: f64) -> std::fmt::Result {
    let c = ConstCounter::new(v);
    c.encode(e.encode_descriptor(name, help, None, c.metric_type())?)
}

fn gauge(e: &mut DescriptorEncoder, name: &str, help: &str, v: i64) -> std::fmt::Result {
    let g = ConstGauge::new(v);
    g.encode(e.encode_descriptor(name, help, None, g.metric_type())?)
}

fn gauge_f(e: &mut DescriptorEncoder, name: &str, help: &str, v: f64) -> std::fmt::Result {
    let g = ConstGauge::new(v);
    g.encode(e.encode_descriptor(name, help, None, g.metric_type())?)
}

impl Collector for SnapshotCollector {
    fn encode(&self, mut e: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let s = self.0.lock().unwrap_or_else(|p| p.into_inner()).clone();
        counter(
            &mut e,
            "cardroom_write_turns",
            "Writes run (each in its own transaction or savepoint)",
            s.write_turns,
        )?;
        counter(
            &mut e,
            "cardroom_write_transactions",
            "Write transactions committed or not (SQLite: one per group commit)",
            s.write_batches,
        )?;
        counter_f(
            &mut e,
            "cardroom_write_wait_seconds",
            "Time writes waited for their turn",
            s.write_wait_ns as f64 / 1e9,
        )?;
        counter_f(
            &mut e,
            "cardroom_write_hold_seconds",
            "Time writes held the turn",
            s.write_hold_ns as f64 / 1e9,
        )?;
        gauge(
            &mut e,
            "cardroom_db_pool_connections",
            "Database connections open",
            s.pool_connections as i64,
        )?;
        gauge(
            &mut e,
            "cardroom_db_pool_in_use",
            "Database connections in use",
            s.pool_connections.saturating_sub(s.pool_idle) as i64,
        )?;
        counter(
            &mut e,
            "cardroom_db_failures",
            "Connections found dead or not opened (database unreachable)",
            s.db_failures,
        )?;
        gauge(
            &mut e,
            "cardroom_db_up",
            "1 while the database answers, 0 during an outage",
            i64::from(!s.db_down),
        )?;
        gauge(
            &mut e,
            "cardroom_outbox_pending",
            "Messages to players waiting to be sent",
            s.outbox_pending,
        )?;
        gauge(
            &mut e,
            "cardroom_outbox_failed",
            "Messages to players that failed for good",
            s.outbox_failed,
        )?;
        gauge(
            &mut e,
            "cardroom_outbox_oldest_pending_seconds",
            "Age of the oldest message waiting to be sent",
            s.outbox_oldest_pending_s,
        )?;
        gauge(
            &mut e,
            "cardroom_seat_calls_open",
            "Seat calls waiting for their player",
            s.seat_calls_open,
        )?;
        counter(
            &mut e,
            "cardroom_audit_records",
            "Audit records written",
            s.audit_records.max(0) as u64,
        )?;
        gauge_f(
            &mut e,
            "cardroom_scheduler_seconds_since_pass",
            "Seconds since the scheduler last completed a pass (it runs every second)",
            s.scheduler_since_pass_s,
        )?;
        Ok(())
    }
}

/// The process's metrics (one per process, in `AppState`).
#[derive(Debug)]
pub struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    latency: Family<RouteLabels, Histogram>,
    streams: Family<StreamLabels, Gauge>,
    snapshot: Arc<Mutex<Snapshot>>,
    start: Instant,
    /// Milliseconds after `start` of the scheduler's last completed pass (0: none yet).
    scheduler_pass_ms: AtomicU64,
    /// 1: the last check of the audit trail and its checkpoints passed; 0: it failed;
    /// -1: not checked yet.
    audit_verified: Gauge,
    /// Join codes by outcome.
    join_codes: Family<JoinLabels, Counter>,
}

/// Latency buckets (seconds): a floor click is expected in milliseconds, a report in < 1 s.
const BUCKETS: [f64; 12] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0,
];

impl Default for Metrics {
    fn default() -> Self {
        let mut registry = Registry::default();
        let requests = Family::<RequestLabels, Counter>::default();
        let latency =
            Family::<RouteLabels, Histogram>::new_with_constructor(|| Histogram::new(BUCKETS));
        let streams = Family::<StreamLabels, Gauge>::default();
        let snapshot: Arc<Mutex<Snapshot>> = Arc::default();
        registry.register(
            "cardroom_http_requests",
            "HTTP requests answered, by route pattern and status",
            requests.clone(),
        );
        registry.register(
            "cardroom_http_request_duration_seconds",
            "Time to answer, by route pattern",
            latency.clone(),
        );
        registry.register(
            "cardroom_streams_open",
            "Event streams open (floor screens, tablets)",
            streams.clone(),
        );
        let audit_verified = Gauge::default();
        audit_verified.set(-1);
        registry.register(
            "cardroom_audit_verified",
            "1 when the last check of the audit trail and its signed checkpoints passed, 0 when it failed (alert), -1 before the first (hourly)",
            audit_verified.clone(),
        );
        let join_codes = Family::<JoinLabels, Counter>::default();
        for outcome in ["sent", "verified", "failed", "blocked", "rate_limited"] {
            let _ = join_codes.get_or_create(&JoinLabels { outcome });
        }
        registry.register(
            "cardroom_join_codes",
            "Players joining from their phone: codes sent, verified, failed (wrong, expired, too many tries), blocked (a blocked phone: nothing sent) and rate-limited requests",
            join_codes.clone(),
        );
        registry.register_collector(Box::new(SnapshotCollector(snapshot.clone())));
        Metrics {
            join_codes,
            registry,
            requests,
            latency,
            streams,
            snapshot,
            start: Instant::now(),
            scheduler_pass_ms: AtomicU64::new(0),
            audit_verified,
        }
    }
}

impl Metrics {
    pub fn request(&self, method: &str, route: &str, status: u16, seconds: f64) {
        self.requests
            .get_or_create(&RequestLabels {
                method: method.to_string(),
                route: route.to_string(),
                status,
            })
            .inc();
        self.latency
            .get_or_create(&RouteLabels {
                method: method.to_string(),
                route: route.to_string(),
            })
            .observe(seconds);
    }

    /// A stream opened; it counts until the guard is dropped (the stream ends).
    pub fn stream_opened(self: &Arc<Self>, kind: &'static str) -> StreamGuard {
        self.streams.get_or_create(&StreamLabels { kind }).inc();
        StreamGuard {
            metrics: self.clone(),
            kind,
        }
    }

    /// One join code event (`JoinLabels::outcome`).
    pub fn join_code(&self, outcome: &'static str) {
        self.join_codes.get_or_create(&JoinLabels { outcome }).inc();
    }

    /// The outcome of the hourly audit check.
    pub fn audit_checked(&self, ok: bool) {
        self.audit_verified.set(i64::from(ok));
    }

    pub fn scheduler_passed(&self) {
        self.scheduler_pass_ms
            .store((self.start.elapsed().as_millis() as u64).max(1), Relaxed);
    }

    /// Seconds since the scheduler's last pass (since the start, before the first).
    pub fn since_scheduler_pass(&self) -> f64 {
        let at = self.scheduler_pass_ms.load(Relaxed);
        (self.start.elapsed().as_millis() as u64).saturating_sub(at) as f64 / 1000.0
    }

    /// The text for Prometheus, with the values read at this scrape.
    pub fn encode(&self, snapshot: Snapshot) -> Result<String, std::fmt::Error> {
        *self.snapshot.lock().unwrap_or_else(|p| p.into_inner()) = snapshot;
        let mut out = String::new();
        prometheus_client::encoding::text::encode(&mut out, &self.registry)?;
        Ok(out)
    }
}

pub struct StreamGuard {
    metrics: Arc<Metrics>,
    kind: &'static str,
}

impl Drop for StreamGuard {
    fn drop(&mut self) {
        self.metrics
            .streams
            .get_or_create(&StreamLabels { kind: self.kind })
            .dec();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_streams_and_snapshot_values_are_in_the_text() {
        let m = Arc::new(Metrics::default());
        m.request(
            "POST",
            "/api/v1/tables/{id}/seats/{seat}/call-next",
            201,
            0.004,
        );
        let g = m.stream_opened("tablet");
        let text = m
            .encode(Snapshot {
                seat_calls_open: 3,
                audit_records: 17,
                ..Snapshot::default()
            })
            .unwrap();
        assert!(text.contains(r#"cardroom_http_requests_total{method="POST",route="/api/v1/tables/{id}/seats/{seat}/call-next",status="201"} 1"#), "{text}");
        assert!(
            text.contains(r#"cardroom_streams_open{kind="tablet"} 1"#),
            "{text}"
        );
        assert!(text.contains("cardroom_seat_calls_open 3"), "{text}");
        assert!(text.contains("cardroom_audit_records_total 17"), "{text}");
        drop(g);
        let text = m.encode(Snapshot::default()).unwrap();
        assert!(
            text.contains(r#"cardroom_streams_open{kind="tablet"} 0"#),
            "{text}"
        );
    }
}
