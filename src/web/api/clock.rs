//! The test clock in the JSON API: mounted only when the server runs with
//! `CARDROOM_TEST_CLOCK=1`.

use crate::db::audit::record as audit_record;
use crate::domain::FieldError;
use crate::error::{AppError, AppResult};
use crate::services;
use crate::web::extract::AdminStaff;
use crate::web::json::ApiJson;
use crate::web::openapi::ErrorResponse;
use crate::web::state::AppState;
use actix_web::web;
// The route macros: utoipa reads the path and method from them (a bare name).
use actix_web::{get, post};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;

/// Registered inside the `/api/v1` scope: each handler carries its path and method
/// (`#[get(…)]`) and its documentation (`#[utoipa::path]`), registered together.
pub fn routes(cfg: &mut ServiceConfig) {
    cfg.service(get_clock).service(advance_clock);
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ClockOut {
    pub now: DateTime<Utc>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ClockAdvance {
    /// 1 to 10080 (one week).
    pub minutes: i64,
}

/// The longest single move of the test clock: one week.
pub const MAX_ADVANCE_MINUTES: i64 = 7 * 24 * 60;

/// The server's clock (admin; only when the server runs with `CARDROOM_TEST_CLOCK=1`).
#[utoipa::path(
    tag = "test", responses((status = 200, body = ClockOut), (status = 403, body = ErrorResponse), (status = 404, description = "Test clock off", body = ErrorResponse)))]
#[get("/test/clock")]
pub async fn get_clock(st: web::Data<AppState>, _who: AdminStaff) -> web::Json<ClockOut> {
    web::Json(ClockOut {
        now: st.clock.now(),
    })
}

/// Moves the server's clock forward (admin; only with `CARDROOM_TEST_CLOCK=1`), audited.
#[utoipa::path(
    tag = "test",
    request_body = ClockAdvance,
    responses(
        (status = 200, body = ClockOut),
        (status = 403, body = ErrorResponse),
        (status = 404, description = "Test clock off", body = ErrorResponse),
        (status = 422, body = ErrorResponse),
    )
)]
#[post("/test/clock/advance")]
pub async fn advance_clock(
    st: web::Data<AppState>,
    who: AdminStaff,
    body: Result<ApiJson<ClockAdvance>, actix_web::Error>,
) -> AppResult<web::Json<ClockOut>> {
    // The role is checked before the body is looked at.
    let body = body?;
    let minutes = body.minutes;
    if !(1..=MAX_ADVANCE_MINUTES).contains(&minutes) {
        return Err(AppError::Validation(vec![FieldError::new(
            "minutes",
            "err-range",
        )
        .arg("min", 1)
        .arg("max", MAX_ADVANCE_MINUTES)]));
    }
    let by = chrono::Duration::minutes(minutes);
    let actor = services::staff::actor(&who.0.staff);
    let now = st
        .write(move |s, conn| {
            let from = s.clock.now();
            let note = serde_json::json!({ "minutes": minutes, "from": from, "to": from + by });
            audit_record::<(), _>(
                conn,
                from,
                &actor,
                "clock.advance",
                "clock",
                None,
                None,
                Some(&note),
            )?;
            // Stored, so a restart keeps the moved time (CARDROOM_TEST_CLOCK only).
            let offset = s.clock.offset().ok_or(AppError::NotFound)? + by;
            let us = offset.num_microseconds().unwrap_or(i64::MAX).to_string();
            crate::db::set_setting(conn, crate::db::TEST_CLOCK_OFFSET, &us)?;
            // Last, so a failed audit record leaves the clock where it was.
            s.clock.advance(by).ok_or(AppError::NotFound)
        })
        .await?;
    Ok(web::Json(ClockOut { now }))
}
