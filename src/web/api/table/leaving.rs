//! Counting a stack, cashing out and moving to another table with the stack.

use super::view::{side_of, side_out, SeatSideOut};
use crate::domain::ids::SeatingId;
use crate::domain::ids::TableId;
use crate::error::AppResult;
use crate::services::table_side::{self};
use crate::web::extract::{ActingAs, DealerStaff};
use crate::web::json::ApiJson;
use crate::web::openapi::ErrorResponse;
use crate::web::state::AppState;
use actix_web::{web, HttpResponse};
// The route macros: utoipa reads the path and method from them (a bare name).
use actix_web::post;
use serde::Deserialize;
use utoipa::ToSchema;

/// A stack count (minor units).
#[derive(Debug, Deserialize, ToSchema)]
pub struct StackRequest {
    /// Minor units: 0 to 100 maximum buy-ins of the game (100,000,000,000 without a maximum),
    /// else 422.
    #[schema(minimum = 0, maximum = 100000000000_i64)]
    pub stack: i64,
}

/// Leaving with the counted stack; a floor manager may override BSOP 38 with a reason.
#[derive(Debug, Deserialize, ToSchema)]
pub struct CashOutRequest {
    /// Minor units: 0 to 100 maximum buy-ins of the game (100,000,000,000 without a maximum),
    /// else 422.
    #[schema(minimum = 0, maximum = 100000000000_i64)]
    pub stack: i64,
    #[schema(max_length = 300)]
    pub override_reason: Option<String>,
}

/// A change to a similar table with the whole stack (BSOP 27, 58; PT-2007 26).
#[derive(Debug, Deserialize, ToSchema)]
pub struct StackTransferRequest {
    #[schema(value_type = i64)]
    pub table_id: TableId,
    /// Minor units: 0 to 100 maximum buy-ins of the game (100,000,000,000 without a maximum),
    /// else 422.
    #[schema(minimum = 0, maximum = 100000000000_i64)]
    pub stack: i64,
    #[serde(default)]
    pub cave_lost: bool,
}

fn supervisor(role: &str) -> bool {
    matches!(role, "admin" | "floor")
}

/// A stack count (PT-2007 28 averages, PT-2007 79 rebuy notice).
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Seating id")),
    request_body = StackRequest,
    responses((status = 200, body = SeatSideOut), (status = 409, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[post("/seatings/{id}/count")]
pub async fn count(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<SeatingId>,
    body: ApiJson<StackRequest>,
) -> AppResult<web::Json<SeatSideOut>> {
    let id = path.into_inner();
    let acting = who.acting;
    let stack = body.stack;
    let s = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            table_side::count_stack(c, act, id, stack, None)
        })
        .await?;
    Ok(web::Json(side_out(&s)))
}

/// The player leaves with the counted stack (recorded as taken off, BSOP 26); the next
/// player is called for the seat. BSOP 38: a winner before the minimum stay is refused (409,
/// with the time left) unless a floor manager gives `override_reason` (audited); a dealer's
/// override is 403.
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Seating id")),
    request_body = CashOutRequest,
    responses((status = 200, body = SeatSideOut), (status = 403, body = ErrorResponse), (status = 409, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[post("/seatings/{id}/cash-out")]
pub async fn cash_out(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<SeatingId>,
    body: ApiJson<CashOutRequest>,
) -> AppResult<web::Json<SeatSideOut>> {
    let id = path.into_inner();
    let acting = who.acting;
    let sup = supervisor(&who.who.0.staff.role);
    let b = body.into_inner();
    st.write(move |_, c| {
        let act = &acting.in_room(c)?;
        table_side::cash_out(c, act, sup, id, b.stack, b.override_reason.as_deref(), None)
    })
    .await?;
    Ok(web::Json(side_of(&st, id).await?))
}

/// A change to a similar table with the whole stack: BSOP 27 (not in the first hour with a
/// stack above the maximum), BSOP 58 and PT-2007 26 (balance). Answers the new seat.
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Seating id")),
    request_body = StackTransferRequest,
    responses((status = 201, body = SeatSideOut), (status = 409, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[post("/seatings/{id}/transfer-with-stack")]
pub async fn transfer_with_stack(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<SeatingId>,
    body: ApiJson<StackTransferRequest>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    let b = body.into_inner();
    let s = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            table_side::transfer_with_stack(c, act, id, b.table_id, b.stack, b.cave_lost, None)
        })
        .await?;
    Ok(HttpResponse::Created().json(side_of(&st, s.id).await?))
}
