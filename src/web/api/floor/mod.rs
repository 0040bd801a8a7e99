//! The floor's JSON API under `/api/v1`: waiting lists, seat calls, seating, tables.
//!
//! Thin handlers over `services::floor` (the same rules as the pages): every refusal is an
//! `AppError` turned into the localized `{"error":{…}}` body; every change is audited and
//! pushed as an event by the service, in the handler's one write transaction.

mod calls;
mod holds;
mod lists;
mod must_move;
mod seat_changes;
mod seating;
mod tables;

pub use calls::*;
pub use holds::*;
pub use lists::*;
pub use must_move::*;
pub use seat_changes::*;
pub use seating::*;
pub use tables::*;

use crate::domain::FieldError;
use crate::error::{AppError, AppResult};
use chrono::{DateTime, Utc};
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;

/// Registered inside the `/api/v1` scope: each handler carries its path and method
/// (`#[post(…)]`) and its documentation (`#[utoipa::path]`), registered together.
pub fn routes(cfg: &mut ServiceConfig) {
    cfg.service(list_waitlist)
        .service(join_waitlist)
        .service(remove_entry)
        .service(reorder_entry)
        .service(check_in)
        .service(open_table)
        .service(table_seats)
        .service(call_next)
        .service(call_chosen)
        .service(seat_directly)
        .service(confirm_call)
        .service(leave_seat)
        .service(must_move_list)
        .service(suggest_table)
        .service(refuse_must_move)
        .service(request_seat_change)
        .service(transfer)
        .service(list_seat_changes)
        .service(cancel_seat_change)
        .service(hold_seat)
        .service(release_hold);
}

fn utc(t: chrono::NaiveDateTime) -> DateTime<Utc> {
    t.and_utc()
}

/// Why (audited).
#[derive(Debug, Deserialize, ToSchema)]
pub struct FloorReason {
    /// Required, at most 500 characters.
    #[schema(value_type = String, required = true, min_length = 1, max_length = 500, pattern = r"\S")]
    pub reason: Option<String>,
}

/// A required reason of at most 500 characters.
fn reason_text(v: Option<&str>) -> AppResult<String> {
    let r = v.unwrap_or("").trim();
    if r.is_empty() {
        return Err(AppError::field("reason", "err-required"));
    }
    if r.chars().count() > 500 {
        return Err(AppError::Validation(vec![FieldError::new(
            "reason",
            "err-too-long",
        )
        .arg("max", 500)]));
    }
    Ok(r.to_string())
}

fn required_id(field: &str, v: Option<i64>) -> AppResult<i64> {
    v.ok_or_else(|| AppError::field(field, "err-required"))
}
