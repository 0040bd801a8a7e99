//! Seat-change requests: asking for another seat or table, the list of requests, cancelling one.

use super::utc;
use crate::domain::ids::PlayerId;
use crate::domain::ids::SeatingId;
use crate::domain::ids::TableId;
use crate::error::AppResult;
use crate::services::floor::{self};
use crate::services::players as registry;
use crate::web::extract::ActingAs;
use crate::web::extract::{AnyStaff, FloorStaff};
use crate::web::openapi::ErrorResponse;
use crate::web::state::AppState;
use actix_web::{web, HttpResponse};
// The route macros: utoipa reads the path and method from them (a bare name).
use actix_web::{get, post};
use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

/// A seat-change request (PT-2007 12, BSOP 51).
#[derive(Debug, Serialize, ToSchema)]
pub struct SeatChangeOut {
    pub id: i64,
    #[schema(value_type = i64)]
    pub table_id: TableId,
    #[schema(value_type = i64)]
    pub player_id: PlayerId,
    pub alias: String,
    /// The seat the player has now (null once they left the table).
    pub seat_no: Option<i32>,
    pub requested_at: DateTime<Utc>,
    pub resolved_at: Option<DateTime<Utc>>,
    /// open | served | cancelled
    pub state: String,
}

/// A table's open seat-change requests, first asked first (they are served in this order).
#[derive(Debug, Serialize, ToSchema)]
pub struct SeatChangesOut {
    #[schema(value_type = i64)]
    pub table_id: TableId,
    pub requests: Vec<SeatChangeOut>,
}

fn seat_change_out(
    conn: &mut crate::db::DbConn,
    r: &crate::db::models::SeatChangeRow,
) -> AppResult<SeatChangeOut> {
    let p = registry::get(conn, r.player_id)?;
    let seat_no = floor::seated_at(conn, r.table_id)?
        .iter()
        .find(|s| s.player_id == r.player_id)
        .map(|s| s.seat_no);
    Ok(SeatChangeOut {
        id: r.id,
        table_id: r.table_id,
        player_id: r.player_id,
        alias: p.alias,
        seat_no,
        requested_at: utc(r.requested_at),
        resolved_at: r.resolved_at.map(utc),
        state: r.state.to_string(),
    })
}

/// A seated player asks for another seat at the same table (admin, floor; PT-2007 12,
/// BSOP 51): when a seat there frees up, the requests are called first, first asked first
/// served; confirming the call moves the player (old seating ends, reason "seat change").
/// One open request per player.
#[utoipa::path(
    tag = "floor",
    params(("id" = i64, Path, description = "Seating id")),
    responses(
        (status = 201, body = SeatChangeOut),
        (status = 403, body = ErrorResponse),
        (status = 404, body = ErrorResponse),
        (status = 409, description = "Already left, or an open request already", body = ErrorResponse),
    )
)]
#[post("/seatings/{id}/seat-change")]
pub async fn request_seat_change(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<SeatingId>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    let out = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            let r = floor::request_seat_change(conn, act, id)?;
            seat_change_out(conn, &r)
        })
        .await?;
    Ok(HttpResponse::Created().json(out))
}

/// A table's open seat-change requests, in the order they are served (PT-2007 12, BSOP 51).
#[utoipa::path(
    tag = "floor",
    params(("id" = i64, Path, description = "Table id")),
    responses((status = 200, body = SeatChangesOut), (status = 401, body = ErrorResponse), (status = 404, body = ErrorResponse))
)]
#[get("/tables/{id}/seat-changes")]
pub async fn list_seat_changes(
    st: web::Data<AppState>,
    _who: AnyStaff,
    path: web::Path<TableId>,
) -> AppResult<web::Json<SeatChangesOut>> {
    let id = path.into_inner();
    let out = st
        .run(move |_, conn| {
            let rows = floor::seat_changes_at(conn, id)?;
            Ok(SeatChangesOut {
                table_id: id,
                requests: rows
                    .into_iter()
                    .map(|(r, p, seat_no)| SeatChangeOut {
                        id: r.id,
                        table_id: r.table_id,
                        player_id: r.player_id,
                        alias: p.alias,
                        seat_no,
                        requested_at: utc(r.requested_at),
                        resolved_at: r.resolved_at.map(utc),
                        state: r.state.to_string(),
                    })
                    .collect(),
            })
        })
        .await?;
    Ok(web::Json(out))
}

/// Withdraws an open seat-change request (admin, floor); a seat call it received ends.
#[utoipa::path(
    tag = "floor",
    params(("id" = i64, Path, description = "Seat-change request id")),
    responses(
        (status = 200, body = SeatChangeOut),
        (status = 403, body = ErrorResponse),
        (status = 404, body = ErrorResponse),
        (status = 409, description = "No longer open", body = ErrorResponse),
    )
)]
#[post("/seat-changes/{id}/cancel")]
pub async fn cancel_seat_change(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<i64>,
) -> AppResult<web::Json<SeatChangeOut>> {
    let id = path.into_inner();
    let acting = who.acting;
    let out = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            let r = floor::cancel_seat_change(conn, act, id)?;
            seat_change_out(conn, &r)
        })
        .await?;
    Ok(web::Json(out))
}
