//! Every request gets an id: the caller's `X-Request-Id` when it is a sensible one (a proxy or
//! load balancer that already numbers requests), else a new random one. The id is returned in
//! the response's `X-Request-Id`, carried by every log line written while the request is
//! handled (a `tracing` span, also on the blocking threads `AppState::run` uses), and shown in
//! 5xx answers so a person can quote it to whoever reads the logs.
//!
//! One log line per request, at the end: method, route *pattern* (`/p/{token}`, never a
//! player's link itself), status and time.

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::middleware::Next;
use actix_web::HttpMessage;
use tracing::Instrument;

pub const HEADER: &str = "x-request-id";

/// The id of the request being handled (in the request's extensions).
#[derive(Debug, Clone)]
pub struct RequestId(pub String);

/// A caller's id is kept when it is 1-64 characters of letters, digits, `-`, `_`, `.`.
fn acceptable(v: &str) -> bool {
    (1..=64).contains(&v.len())
        && v.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

fn new_id() -> String {
    use rand::Rng;
    let n: u64 = rand::rng().random();
    format!("{n:016x}")
}

/// The id of `req`, if the middleware has run.
pub fn of(req: &actix_web::HttpRequest) -> Option<String> {
    req.extensions().get::<RequestId>().map(|r| r.0.clone())
}

pub async fn trace(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let id = req
        .headers()
        .get(HEADER)
        .and_then(|v| v.to_str().ok())
        .filter(|v| acceptable(v))
        .map(str::to_string)
        .unwrap_or_else(new_id);
    req.extensions_mut().insert(RequestId(id.clone()));
    let metrics = req
        .app_data::<actix_web::web::Data<crate::web::state::AppState>>()
        .map(|s| s.metrics.clone());
    let span = tracing::info_span!("request", id = %id);
    let method = req.method().clone();
    let started = std::time::Instant::now();
    let res = next.call(req).instrument(span.clone()).await;
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    let mut res = match res {
        Ok(r) => r,
        Err(e) => {
            span.in_scope(|| tracing::warn!(target: "http", method = %method, error = %e, ms, "request failed"));
            return Err(e);
        }
    };
    let route = res
        .request()
        .match_pattern()
        .unwrap_or_else(|| "(no route)".into());
    let status = res.status().as_u16();
    if let Some(m) = metrics {
        m.request(method.as_str(), &route, status, ms / 1000.0);
    }
    span.in_scope(|| tracing::info!(target: "http", method = %method, route = %route, status, ms = format_args!("{ms:.1}"), "{method} {route} {status}"));
    if let Ok(v) = HeaderValue::from_str(&id) {
        res.headers_mut().insert(HeaderName::from_static(HEADER), v);
    }
    Ok(res)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_sensible_ids_are_taken_from_the_caller() {
        assert!(acceptable("abc-123_x.y"));
        assert!(acceptable(&"a".repeat(64)));
        assert!(!acceptable(""));
        assert!(!acceptable(&"a".repeat(65)));
        assert!(!acceptable("a b"));
        assert!(!acceptable("x\r\nSet-Cookie: y"));
        let id = new_id();
        assert_eq!(id.len(), 16);
        assert!(acceptable(&id));
    }
}
