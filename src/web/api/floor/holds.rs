//! Seats held for a player and releasing them.

use super::{reason_text, utc};
use crate::domain::ids::PlayerId;
use crate::domain::ids::TableId;
use crate::error::AppResult;
use crate::services::floor::{self};
use crate::services::players as registry;
use crate::web::extract::ActingAs;
use crate::web::extract::FloorStaff;
use crate::web::json::ApiJson;
use crate::web::openapi::ErrorResponse;
use crate::web::state::AppState;
use actix_web::{web, HttpResponse};
// The route macros: utoipa reads the path and method from them (a bare name).
use actix_web::post;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Holds a free seat (BSOP 45, 49).
#[derive(Debug, Deserialize, ToSchema)]
pub struct HoldRequest {
    /// BSOP 49: the player the seat is held for (still in a hand at another table); seating
    /// them there releases the hold.
    #[schema(value_type = Option<i64>)]
    pub player_id: Option<PlayerId>,
    /// BSOP 45: why the floor reserves the seat (required without a player; at most 500
    /// characters).
    #[schema(max_length = 500)]
    pub reason: Option<String>,
}

/// A seat hold.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeatHoldOut {
    pub id: i64,
    #[schema(value_type = i64)]
    pub table_id: TableId,
    pub seat_no: i32,
    /// The player it is held for (BSOP 49), or null for a reservation by the floor (BSOP 45).
    #[schema(value_type = Option<i64>)]
    pub player_id: Option<PlayerId>,
    pub alias: Option<String>,
    pub reason: String,
    pub held_at: DateTime<Utc>,
    pub released_at: Option<DateTime<Utc>>,
}

pub(super) fn hold_out(h: &crate::db::models::SeatHoldRow, alias: Option<String>) -> SeatHoldOut {
    SeatHoldOut {
        id: h.id,
        table_id: h.table_id,
        seat_no: h.seat_no,
        player_id: h.player_id,
        alias,
        reason: h.reason.clone(),
        held_at: utc(h.held_at),
        released_at: h.released_at.map(utc),
    }
}

/// Holds a free seat (admin, floor): BSOP 49, for a named player still in a hand at
/// another table (seating them there releases the hold, and moves them from the table
/// they leave); BSOP 45, reserved by the floor for a good reason. A held seat is not called
/// nor given to anyone else.
#[utoipa::path(
    tag = "floor",
    params(("id" = i64, Path, description = "Table id"), ("seat" = i32, Path, description = "Seat number, from 1 to the table's size (422 `no_such_seat` beyond it)", minimum = 1, maximum = 12)),
    request_body = HoldRequest,
    responses(
        (status = 201, body = SeatHoldOut),
        (status = 403, body = ErrorResponse),
        (status = 404, body = ErrorResponse),
        (status = 409, description = "Table not open, seat taken, called or held, the player holds another seat already, or may not play here", body = ErrorResponse),
        (status = 422, description = "No such seat or player, or no reason for a reservation", body = ErrorResponse),
    )
)]
#[post("/tables/{id}/seats/{seat}/hold")]
pub async fn hold_seat(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<(i64, i32)>,
    body: Result<ApiJson<HoldRequest>, actix_web::Error>,
) -> AppResult<HttpResponse> {
    // The role is checked before the body is looked at.
    let body = body?;
    let (table_id, seat_no) = path.into_inner();
    let player_id = body.player_id;
    let reason = match body
        .reason
        .as_deref()
        .map(str::trim)
        .filter(|r| !r.is_empty())
    {
        Some(r) => Some(reason_text(Some(r))?),
        None => None,
    };
    let acting = who.acting;
    let out = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            let h = floor::hold_seat(
                conn,
                act,
                TableId(table_id),
                seat_no,
                player_id,
                reason.as_deref(),
            )?;
            let alias = h
                .player_id
                .map(|p| registry::get(conn, p))
                .transpose()?
                .map(|p| p.alias);
            Ok(hold_out(&h, alias))
        })
        .await?;
    Ok(HttpResponse::Created().json(out))
}

/// Releases a seat hold (admin, floor): the seat can be called or given again.
#[utoipa::path(
    tag = "floor",
    params(("id" = i64, Path, description = "Seat hold id")),
    responses(
        (status = 200, body = SeatHoldOut),
        (status = 403, body = ErrorResponse),
        (status = 404, body = ErrorResponse),
        (status = 409, description = "Already released", body = ErrorResponse),
    )
)]
#[post("/seat-holds/{id}/release")]
pub async fn release_hold(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<PlayerId>,
) -> AppResult<web::Json<SeatHoldOut>> {
    let id = path.into_inner();
    let acting = who.acting;
    let out = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            let h = floor::release_hold(conn, act, id.get())?;
            let alias = h
                .player_id
                .map(|p| registry::get(conn, p))
                .transpose()?
                .map(|p| p.alias);
            Ok(hold_out(&h, alias))
        })
        .await?;
    Ok(web::Json(out))
}
