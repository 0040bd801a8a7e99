//! Seat calls: calling the next player of a list or a chosen one to a free seat, and
//! confirming that the called player sat.

use super::seating::{seating_answer, SeatingOut};
use super::{reason_text, required_id, utc};
use crate::db::models::{PlayerRow, SeatCallRow, TableRow};
use crate::domain::ids::EntryId;
use crate::domain::ids::PlayerId;
use crate::domain::ids::SeatCallId;
use crate::domain::ids::TableId;
use crate::domain::FieldError;
use crate::error::{AppError, AppResult};
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

/// A seat call: the player is asked to take the seat before `respond_by`.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeatCallOut {
    pub id: i64,
    #[schema(value_type = i64)]
    pub table_id: TableId,
    pub table_number: i32,
    pub seat_no: i32,
    #[schema(value_type = i64)]
    pub player_id: PlayerId,
    pub alias: String,
    /// list | seat_change | must_move
    pub source: String,
    /// The list entry called (source list).
    #[schema(value_type = Option<i64>)]
    pub entry_id: Option<EntryId>,
    pub called_at: DateTime<Utc>,
    pub respond_by: DateTime<Utc>,
    /// pending | acknowledged | seated | expired | cancelled
    pub state: String,
}

pub(super) fn seat_call_out(c: &SeatCallRow, t: &TableRow, p: &PlayerRow) -> SeatCallOut {
    SeatCallOut {
        id: c.id.get(),
        table_id: c.table_id,
        table_number: t.number,
        seat_no: c.seat_no,
        player_id: c.player_id,
        alias: p.alias.clone(),
        source: c.source.to_string(),
        entry_id: c.entry_id,
        called_at: utc(c.called_at),
        respond_by: utc(c.respond_by),
        state: c.state.to_string(),
    }
}

/// Calls a chosen player of the list out of order.
#[derive(Debug, Deserialize, ToSchema)]
pub struct CallChosenRequest {
    /// The chosen player's list entry (of the table's game).
    #[schema(value_type = i64, required = true)]
    pub entry_id: Option<EntryId>,
    /// Required: why the list order is not followed (audited with the player who was next).
    #[schema(value_type = String, required = true, min_length = 1, max_length = 500, pattern = r"\S")]
    pub reason: Option<String>,
}

/// A seat is free: calls the next player for it (admin, floor). PT-2007 12, BSOP 51: players
/// at the table who asked to change seat first; then, at a main game of a game with a
/// must-move table, the first must-move player in the original list order (BSOP 55, 57;
/// `source` must_move); then the list in order, passing over (and
/// keeping the place of) whoever cannot take this seat now: not eligible, seated elsewhere
/// (BSOP 46), kept apart from someone at the table (BSOP 47), already called. The seat is
/// reserved for the room's response window.
#[utoipa::path(
    tag = "floor",
    params(("id" = i64, Path, description = "Table id"), ("seat" = i32, Path, description = "Seat number, from 1 to the table's size (422 `no_such_seat` beyond it)", minimum = 1, maximum = 12)),
    responses(
        (status = 201, body = SeatCallOut),
        (status = 403, body = ErrorResponse),
        (status = 404, body = ErrorResponse),
        (status = 409, description = "Table not open, seat taken, called or held, or nobody can take it", body = ErrorResponse),
        (status = 422, description = "No such seat at this table", body = ErrorResponse),
    )
)]
#[post("/tables/{id}/seats/{seat}/call-next")]
pub async fn call_next(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<(i64, i32)>,
) -> AppResult<HttpResponse> {
    let (table_id, seat_no) = path.into_inner();
    let acting = who.acting;
    let c = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            floor::call_next(conn, act, TableId(table_id), seat_no)
        })
        .await?;
    call_created(&st, c).await
}

/// 201 with a new seat call. Its details are read after the commit, outside the room's write
/// turn.
async fn call_created(st: &AppState, c: SeatCallRow) -> AppResult<HttpResponse> {
    let out = st
        .run(move |_, conn| {
            let (t, p) = games::table_and_player(conn, c.table_id, c.player_id)?;
            Ok(seat_call_out(&c, &t, &p))
        })
        .await?;
    Ok(HttpResponse::Created().json(out))
}

/// A seat is free: calls a chosen player of the list out of order (admin, floor; the board's
/// "call out of order"). PT-2007 12 and BSOP 51 make list order the rule, so the reason is
/// required and audited with the player who was next in order. Every other rule still holds:
/// the seat free, the player eligible (BSOP 1-3, 10), not seated or called elsewhere
/// (BSOP 46), not separated from a player at the table (BSOP 47); a seat a must-move player
/// is due (BSOP 55, 57) is theirs.
#[utoipa::path(
    tag = "floor",
    params(("id" = i64, Path, description = "Table id"), ("seat" = i32, Path, description = "Seat number, from 1 to the table's size (422 `no_such_seat` beyond it)", minimum = 1, maximum = 12)),
    request_body = CallChosenRequest,
    responses(
        (status = 201, body = SeatCallOut),
        (status = 403, body = ErrorResponse),
        (status = 404, description = "No such table or list entry", body = ErrorResponse),
        (status = 409, description = "Table not open, seat taken, called or held, the entry no longer waiting or of another game, or the player cannot take this seat now", body = ErrorResponse),
        (status = 422, description = "Entry or reason missing, reason too long, no such seat", body = ErrorResponse),
    )
)]
#[post("/tables/{id}/seats/{seat}/call-chosen")]
pub async fn call_chosen(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<(i64, i32)>,
    body: Result<ApiJson<CallChosenRequest>, actix_web::Error>,
) -> AppResult<HttpResponse> {
    // The role is checked before the body is looked at.
    let body = body?;
    let (table_id, seat_no) = path.into_inner();
    let mut errors = Vec::new();
    if body.entry_id.is_none() {
        errors.push(FieldError::new("entry_id", "err-required"));
    }
    if let Err(AppError::Validation(v)) = reason_text(body.reason.as_deref()) {
        errors.extend(v);
    }
    if !errors.is_empty() {
        return Err(AppError::Validation(errors));
    }
    let entry_id = required_id("entry_id", body.entry_id.map(EntryId::get))?;
    let reason = reason_text(body.reason.as_deref())?;
    let acting = who.acting;
    let c = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            floor::call_chosen(
                conn,
                act,
                TableId(table_id),
                seat_no,
                EntryId(entry_id),
                &reason,
            )
        })
        .await?;
    call_created(&st, c).await
}

/// The called player arrived: seats them (admin, floor; BSOP 44). Their list entry is used
/// up; any other open call of theirs is cancelled. A must-move call (BSOP 55) or a
/// seat-change call (PT-2007 12, BSOP 51) moves the player: their old seating ends (reason
/// "must-move" or "seat change") and the new one starts in the same transaction (BSOP 46).
#[utoipa::path(
    tag = "floor",
    params(("id" = i64, Path, description = "Seat call id")),
    responses(
        (status = 201, body = SeatingOut),
        (status = 403, body = ErrorResponse),
        (status = 404, body = ErrorResponse),
        (status = 409, description = "The call is no longer open, or the player cannot sit there now", body = ErrorResponse),
    )
)]
#[post("/seat-calls/{id}/seat")]
pub async fn confirm_call(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<SeatCallId>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    let s = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            floor::confirm_call(conn, act, id)
        })
        .await?;
    // Read after the commit, outside the room's write turn.
    let out = st.run(move |_, conn| seating_answer(conn, &s)).await?;
    Ok(HttpResponse::Created().json(out))
}
