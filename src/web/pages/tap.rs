//! A dealer tablet's tap sent by its queue (`static/tablet_queue.js`): the tap carries when it
//! was made (`tapped_at`) and asks, with the `X-Tablet-Queue: 1` header, for a short JSON
//! answer instead of the page: `{ "ok": true, "to": <page to show> }` or, refused (409, 422,
//! 404, 403 with nothing changed), `{ "ok": false, "message": <the reason, in the dealer's
//! language> }`. A form posted without the header (no script) gets the pages as before.

use crate::web::extract::TappedAt;
use actix_web::http::StatusCode;
use actix_web::{HttpMessage, HttpRequest, HttpResponse};

/// The header the tablet's queue sends with each tap.
pub const QUEUE_HEADER: &str = "X-Tablet-Queue";

/// Whether the tap came from the tablet's queue (answered in JSON).
pub(super) fn queued(req: &HttpRequest) -> bool {
    req.headers()
        .get(QUEUE_HEADER)
        .is_some_and(|v| v.as_bytes() == b"1")
}

/// The `tapped_at` the form carried, if any.
pub(super) fn tapped_at(req: &HttpRequest) -> Option<String> {
    req.extensions().get::<TappedAt>().map(|t| t.0.clone())
}

fn json(status: StatusCode, body: serde_json::Value) -> HttpResponse {
    HttpResponse::build(status)
        .insert_header(("Cache-Control", "no-store"))
        .json(body)
}

/// Applied: the page the tablet shows next.
pub(super) fn applied(to: &str) -> HttpResponse {
    json(StatusCode::OK, serde_json::json!({ "ok": true, "to": to }))
}

/// Refused, nothing changed: the status and the reason.
pub(super) fn refused(status: StatusCode, message: &str) -> HttpResponse {
    json(
        status,
        serde_json::json!({ "ok": false, "message": message }),
    )
}
