//! Seatings: seating a player directly, leaving a seat, moving a player to another table.

use super::{reason_text, required_id, utc, FloorReason};
use crate::db::models::{PlayerRow, SeatingRow, TableRow};
use crate::domain::ids::EntryId;
use crate::domain::ids::GameId;
use crate::domain::ids::PlayerId;
use crate::domain::ids::SeatingId;
use crate::domain::ids::TableId;
use crate::error::AppResult;
use crate::services::floor::{self};
use crate::services::games;
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

/// A player in a seat (one row per sit-down).
#[derive(Debug, Serialize, ToSchema)]
pub struct SeatingOut {
    pub id: i64,
    #[schema(value_type = i64)]
    pub table_id: TableId,
    pub table_number: i32,
    pub seat_no: i32,
    #[schema(value_type = i64)]
    pub player_id: PlayerId,
    pub alias: String,
    #[schema(value_type = Option<i64>)]
    pub game_id: Option<GameId>,
    /// The list entry used up by this seating, if any.
    #[schema(value_type = Option<i64>)]
    pub entry_id: Option<EntryId>,
    pub sat_at: DateTime<Utc>,
    pub left_at: Option<DateTime<Utc>>,
    pub left_reason: Option<String>,
}

fn seating_out(s: &SeatingRow, t: &TableRow, p: &PlayerRow) -> SeatingOut {
    SeatingOut {
        id: s.id.get(),
        table_id: s.table_id,
        table_number: t.number,
        seat_no: s.seat_no,
        player_id: s.player_id,
        alias: p.alias.clone(),
        game_id: s.game_id,
        entry_id: s.entry_id,
        sat_at: utc(s.sat_at),
        left_at: s.left_at.map(utc),
        left_reason: s.left_reason.clone(),
    }
}

/// Reads what a seating answer shows (same transaction as the change).
pub(super) fn seating_answer(
    conn: &mut crate::db::DbConn,
    s: &SeatingRow,
) -> AppResult<SeatingOut> {
    let (t, p) = games::table_and_player(conn, s.table_id, s.player_id)?;
    Ok(seating_out(s, &t, &p))
}

/// Seats a player directly (BSOP 44).
#[derive(Debug, Deserialize, ToSchema)]
pub struct SeatRequest {
    #[schema(value_type = i64, required = true)]
    pub player_id: Option<PlayerId>,
}

/// The floor seats a player directly (admin, floor; BSOP 44), with every check a call
/// makes: eligibility (BSOP 1, 2, 3, 10), one seat per player (BSOP 46), separations
/// (BSOP 47), and the seat free. Of two simultaneous requests for one seat, one wins and
/// the other gets 409.
#[utoipa::path(
    tag = "floor",
    params(("id" = i64, Path, description = "Table id"), ("seat" = i32, Path, description = "Seat number, from 1 to the table's size (422 `no_such_seat` beyond it)", minimum = 1, maximum = 12)),
    request_body = SeatRequest,
    responses(
        (status = 201, body = SeatingOut),
        (status = 403, body = ErrorResponse),
        (status = 404, body = ErrorResponse),
        (status = 409, description = "Table not open, seat taken, called or held, or the player may not sit here now", body = ErrorResponse),
        (status = 422, description = "No such seat at this table, or no such player", body = ErrorResponse),
    )
)]
#[post("/tables/{id}/seats/{seat}")]
pub async fn seat_directly(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<(i64, i32)>,
    body: Result<ApiJson<SeatRequest>, actix_web::Error>,
) -> AppResult<HttpResponse> {
    // The role is checked before the body is looked at.
    let body = body?;
    let (table_id, seat_no) = path.into_inner();
    let player_id = required_id("player_id", body.player_id.map(PlayerId::get))?;
    let acting = who.acting;
    let out = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            let s =
                floor::seat_directly(conn, act, TableId(table_id), seat_no, PlayerId(player_id))?;
            seating_answer(conn, &s)
        })
        .await?;
    Ok(HttpResponse::Created().json(out))
}

/// A player leaves their seat (admin, floor). Below the room's minimum a running table is
/// suspended, and closes if the minimum is not back in time (PT-2007 24).
#[utoipa::path(
    tag = "floor",
    params(("id" = i64, Path, description = "Seating id")),
    request_body = FloorReason,
    responses(
        (status = 200, body = SeatingOut),
        (status = 403, body = ErrorResponse),
        (status = 404, body = ErrorResponse),
        (status = 409, description = "Already left", body = ErrorResponse),
        (status = 422, body = ErrorResponse),
    )
)]
#[post("/seatings/{id}/leave")]
pub async fn leave_seat(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<SeatingId>,
    body: Result<ApiJson<FloorReason>, actix_web::Error>,
) -> AppResult<web::Json<SeatingOut>> {
    // The role is checked before the body is looked at.
    let body = body?;
    let id = path.into_inner();
    let reason = reason_text(body.reason.as_deref())?;
    let acting = who.acting;
    let s = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            floor::leave(conn, act, id, &reason)
        })
        .await?;
    // Read after the commit, outside the room's write turn.
    let out = st.run(move |_, conn| seating_answer(conn, &s)).await?;
    Ok(web::Json(out))
}

/// A voluntary move to a similar table (BSOP 58, PT-2007 26).
#[derive(Debug, Deserialize, ToSchema)]
pub struct TransferRequest {
    /// The destination: a table of the same game in play.
    #[schema(value_type = i64, required = true)]
    pub table_id: Option<TableId>,
    /// PT-2007 26: in session mode a player may change table only after losing their whole
    /// buy-in (the cave), as the floor or the dealer says. Default false.
    #[serde(default)]
    pub cave_lost: bool,
}

/// A player moves to a similar table (same game) at their request (admin, floor), into its
/// first free seat: the old seating ends (reason "transfer") and the new one starts at once
/// (BSOP 46). Refused (409, naming the rule) when the table left has fewer players than the
/// destination (BSOP 58); at a session-mode table, before the cave is lost, when the move
/// leaves the table below the minimum, or when it unbalances the tables (PT-2007 26); or
/// when the destination has no free seat.
#[utoipa::path(
    tag = "floor",
    params(("id" = i64, Path, description = "Seating id")),
    request_body = TransferRequest,
    responses(
        (status = 201, body = SeatingOut),
        (status = 403, body = ErrorResponse),
        (status = 404, body = ErrorResponse),
        (status = 409, description = "Refused by BSOP 58 or PT-2007 26, not a similar table (another game, or other limits now: PT-2007 22), destination full or not open, already left", body = ErrorResponse),
        (status = 422, description = "No destination, or no such table", body = ErrorResponse),
    )
)]
#[post("/seatings/{id}/transfer")]
pub async fn transfer(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<SeatingId>,
    body: Result<ApiJson<TransferRequest>, actix_web::Error>,
) -> AppResult<HttpResponse> {
    // The role is checked before the body is looked at.
    let body = body?;
    let id = path.into_inner();
    let to = required_id("table_id", body.table_id.map(TableId::get))?;
    let cave_lost = body.cave_lost;
    let acting = who.acting;
    let out = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            let s = floor::transfer(conn, act, id, TableId(to), cave_lost)?;
            seating_answer(conn, &s)
        })
        .await?;
    Ok(HttpResponse::Created().json(out))
}
