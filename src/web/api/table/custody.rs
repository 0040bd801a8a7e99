//! Chips removed from a seat into custody by two staff members: starting a removal, the
//! custody list, confirming, cancelling and resolving it.

use super::utc;
use crate::db::models::CustodyRow;
use crate::domain::ids::PlayerId;
use crate::domain::ids::SeatingId;
use crate::domain::ids::TableId;
use crate::error::{AppError, AppResult};
use crate::services::table_side::{self};
use crate::web::extract::{ActingAs, AnyStaff, DealerStaff};
use crate::web::json::ApiJson;
use crate::web::openapi::ErrorResponse;
use crate::web::state::AppState;
use actix_web::{web, HttpResponse};
// The route macros: utoipa reads the path and method from them (a bare name).
use actix_web::{get, post};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Chips taken off for absence (BSOP 36).
#[derive(Debug, Serialize, ToSchema)]
pub struct CustodyOut {
    pub id: i64,
    #[schema(value_type = i64)]
    pub seating_id: SeatingId,
    #[schema(value_type = i64)]
    pub table_id: TableId,
    pub seat_no: i32,
    #[schema(value_type = i64)]
    pub player_id: PlayerId,
    pub amount: i64,
    /// Where the chips are kept (e.g. "cage, box 4").
    #[schema(min_length = 1, max_length = 100, pattern = r"\S")]
    pub storage: String,
    /// counting | held | reclaimed | settled | cancelled
    pub state: String,
    pub counted_by: i64,
    pub counted_at: DateTime<Utc>,
    pub confirmed_by: Option<i64>,
    pub confirmed_at: Option<DateTime<Utc>>,
    pub note: Option<String>,
}

fn custody_out(c: &CustodyRow) -> CustodyOut {
    CustodyOut {
        id: c.id,
        seating_id: c.seating_id,
        table_id: c.table_id,
        seat_no: c.seat_no,
        player_id: c.player_id,
        amount: c.amount,
        storage: c.storage.clone(),
        state: c.state.to_string(),
        counted_by: c.counted_by,
        counted_at: utc(c.counted_at),
        confirmed_by: c.confirmed_by,
        confirmed_at: c.confirmed_at.map(utc),
        note: c.note.clone(),
    }
}

/// How chips in custody ended (the schema of [`ResolveRequest::how`]).
#[derive(ToSchema)]
#[allow(dead_code)]
pub enum CustodyOutcome {
    #[schema(rename = "reclaimed")]
    Reclaimed,
    #[schema(rename = "settled")]
    Settled,
}

/// The first count of an absent player's chips (BSOP 36).
#[derive(Debug, Deserialize, ToSchema)]
pub struct RemovalRequest {
    /// Minor units: 0 to 100 maximum buy-ins of the game (100,000,000,000 without a maximum),
    /// else 422.
    #[schema(minimum = 0, maximum = 100000000000_i64)]
    pub amount: i64,
    /// Where the chips are kept (e.g. "cage, box 4").
    #[schema(min_length = 1, max_length = 100, pattern = r"\S")]
    pub storage: String,
}

/// The second count, by the signed-in staff member (not the one who counted first).
#[derive(Debug, Deserialize, ToSchema)]
pub struct ConfirmRequest {
    /// Minor units: 0 to 100 maximum buy-ins of the game (100,000,000,000 without a maximum),
    /// else 422.
    #[schema(minimum = 0, maximum = 100000000000_i64)]
    pub amount: i64,
}

/// reclaimed | settled, with an optional note.
#[derive(Debug, Deserialize, ToSchema)]
pub struct ResolveRequest {
    #[schema(value_type = CustodyOutcome)]
    pub how: String,
    #[serde(default)]
    #[schema(max_length = 300)]
    pub note: String,
}

/// The first count of an absent player's chips (BSOP 36): only when the seat is due.
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Seating id")),
    request_body = RemovalRequest,
    responses((status = 201, body = CustodyOut), (status = 409, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[post("/seatings/{id}/removal")]
pub async fn start_removal(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<SeatingId>,
    body: ApiJson<RemovalRequest>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    let b = body.into_inner();
    let k = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            table_side::start_removal(c, act, id, b.amount, &b.storage, None)
        })
        .await?;
    Ok(HttpResponse::Created().json(custody_out(&k)))
}

/// Chips in custody and counts waiting (admin, floor, cashier, dealer).
#[utoipa::path(
    tag = "table",
    responses((status = 200, body = Vec<CustodyOut>))
)]
#[get("/custody")]
pub async fn list_custody(
    st: web::Data<AppState>,
    _who: AnyStaff,
) -> AppResult<web::Json<Vec<CustodyOut>>> {
    let rows = st.run(|_, c| table_side::custody_list(c, true)).await?;
    Ok(web::Json(
        rows.iter().map(|(k, _, _)| custody_out(k)).collect(),
    ))
}

/// The second count by the signed-in staff member (BSOP 36): a different person, the same
/// amount. The seat is freed and the next player called.
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Custody id")),
    request_body = ConfirmRequest,
    responses((status = 200, body = CustodyOut), (status = 409, body = ErrorResponse))
)]
#[post("/custody/{id}/confirm")]
pub async fn confirm_removal(
    st: web::Data<AppState>,
    who: ActingAs<AnyStaff>,
    path: web::Path<i64>,
    body: ApiJson<ConfirmRequest>,
) -> AppResult<web::Json<CustodyOut>> {
    let id = path.into_inner();
    let acting = who.acting;
    let amount = body.amount;
    let (k, _) = st
        .write(move |_, c| {
            let act = acting.in_room(c)?;
            table_side::confirm_removal(c, &act, id, amount, None)
        })
        .await?;
    Ok(web::Json(custody_out(&k)))
}

/// A count not yet confirmed is dropped.
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Custody id")),
    responses((status = 200, body = CustodyOut), (status = 409, body = ErrorResponse))
)]
#[post("/custody/{id}/cancel")]
pub async fn cancel_removal(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<i64>,
) -> AppResult<web::Json<CustodyOut>> {
    let id = path.into_inner();
    let acting = who.acting;
    let k = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            table_side::cancel_removal(c, act, id, None)
        })
        .await?;
    Ok(web::Json(custody_out(&k)))
}

/// Chips leave custody: reclaimed by the player or settled by the cashier (admin, floor,
/// cashier).
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Custody id")),
    request_body = ResolveRequest,
    responses((status = 200, body = CustodyOut), (status = 403, body = ErrorResponse), (status = 409, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[post("/custody/{id}/resolve")]
pub async fn resolve_custody(
    st: web::Data<AppState>,
    who: ActingAs<AnyStaff>,
    path: web::Path<i64>,
    body: Result<ApiJson<ResolveRequest>, actix_web::Error>,
) -> AppResult<web::Json<CustodyOut>> {
    // The role is checked before the body is looked at: a dealer gets 403 whatever it sends
    // (the extractor alone would answer 400 for a bad body first).
    if !matches!(who.who.0.staff.role.as_str(), "admin" | "floor" | "cashier") {
        return Err(AppError::Forbidden(crate::domain::Problem::new(
            "err-forbidden",
        )));
    }
    let body = body?;
    let id = path.into_inner();
    let acting = who.acting;
    let b = body.into_inner();
    let k = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            table_side::resolve_custody(c, act, id, &b.how, &b.note)
        })
        .await?;
    Ok(web::Json(custody_out(&k)))
}
