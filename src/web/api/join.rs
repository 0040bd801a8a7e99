//! The floor's blocked phones as a JSON API under `/api/v1` (admin, floor) — the
//! same service and audit as the page `/floor/phones`. A blocked number gets no join codes
//! (the person sees the usual answer). Checking a remote entry in is `POST
//! /waitlist/{id}/check-in`, as for a call-in.

use crate::error::AppResult;
use crate::services::join as svc;
use crate::web::extract::ActingAs;
use crate::web::extract::FloorStaff;
use crate::web::json::ApiJson;
use crate::web::openapi::ErrorResponse;
use crate::web::state::AppState;
use actix_web::{web, HttpResponse};
// The route macros: utoipa reads the path and method from them (a bare name).
use actix_web::{get, post};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;

/// Registered inside the `/api/v1` scope, as the other API modules.
pub fn routes(cfg: &mut ServiceConfig) {
    cfg.service(list_blocks)
        .service(block_phone)
        .service(unblock_phone);
}

/// A blocked phone number.
#[derive(Debug, Serialize, ToSchema)]
pub struct PhoneBlockOut {
    /// E.164.
    pub phone: String,
    pub reason: String,
    pub blocked_at: DateTime<Utc>,
}

impl From<svc::Block> for PhoneBlockOut {
    fn from(b: svc::Block) -> Self {
        PhoneBlockOut {
            phone: b.phone,
            reason: b.reason,
            blocked_at: b.blocked_at,
        }
    }
}

/// A phone number to block, and why.
#[derive(Debug, Deserialize, ToSchema)]
pub struct PhoneBlockIn {
    /// E.164, or a national number of the room's country (as the registration form takes it).
    #[schema(min_length = 1, max_length = 32)]
    pub phone: String,
    #[schema(min_length = 1, max_length = 200, pattern = r"\S")]
    pub reason: String,
}

/// A phone number to unblock.
#[derive(Debug, Deserialize, ToSchema)]
pub struct PhoneUnblockIn {
    #[schema(min_length = 1, max_length = 32)]
    pub phone: String,
}

/// The blocked phone numbers, newest first.
#[utoipa::path(
    tag = "join",
    responses((status = 200, body = Vec<PhoneBlockOut>))
)]
#[get("/phone-blocks")]
pub async fn list_blocks(
    st: web::Data<AppState>,
    _who: FloorStaff,
) -> AppResult<web::Json<Vec<PhoneBlockOut>>> {
    let v = st.run(|_, c| svc::blocks(c)).await?;
    Ok(web::Json(v.into_iter().map(PhoneBlockOut::from).collect()))
}

/// Blocks a phone number from asking for join codes (audited `join.phone_block`). 409 when
/// it is blocked already; 422 for a number that is not one or an empty reason.
#[utoipa::path(
    tag = "join",
    request_body = PhoneBlockIn,
    responses(
        (status = 201, body = PhoneBlockOut),
        (status = 409, body = ErrorResponse),
        (status = 422, body = ErrorResponse),
    )
)]
#[post("/phone-blocks")]
pub async fn block_phone(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    body: Result<ApiJson<PhoneBlockIn>, actix_web::Error>,
) -> AppResult<HttpResponse> {
    // The role is checked before the body is looked at.
    let PhoneBlockIn { phone, reason } = body?.into_inner();
    let now = who.acting.now;
    let acting = who.acting;
    let out = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            let phone = svc::block_phone(conn, act, &phone, &reason)?;
            Ok(PhoneBlockOut {
                phone,
                reason: reason.trim().to_string(),
                blocked_at: now,
            })
        })
        .await?;
    Ok(HttpResponse::Created().json(out))
}

/// Lifts a block (audited `join.phone_unblock`); 404 when the number is not blocked.
#[utoipa::path(
    tag = "join",
    request_body = PhoneUnblockIn,
    responses(
        (status = 204, description = "Unblocked"),
        (status = 404, body = ErrorResponse),
        (status = 422, body = ErrorResponse),
    )
)]
#[post("/phone-blocks/unblock")]
pub async fn unblock_phone(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    body: Result<ApiJson<PhoneUnblockIn>, actix_web::Error>,
) -> AppResult<HttpResponse> {
    let PhoneUnblockIn { phone } = body?.into_inner();
    let acting = who.acting;
    st.write(move |_, conn| {
        let act = &acting.in_room(conn)?;
        let room = &act.room;
        let phone = svc::parse_phone(&phone, room)
            .map_err(|f| crate::error::AppError::Validation(vec![f]))?;
        svc::unblock_phone(conn, act, &phone)
    })
    .await?;
    Ok(HttpResponse::NoContent().finish())
}
