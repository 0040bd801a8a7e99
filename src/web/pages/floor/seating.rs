//! Tables and seats from the dashboard: opening a table, calling the next or a chosen player,
//! confirming that the called player sat, a player leaving.

use super::act::{act, act_said};
use super::lists::Empty;
use super::shared::Said;
use crate::domain::ids::EntryId;
use crate::domain::ids::SeatCallId;
use crate::domain::ids::SeatingId;
use crate::domain::ids::TableId;
use crate::domain::refusal::SeatRefusal;
use crate::error::{AppError, AppResult};
use crate::services::{self};
use crate::web::extract::{CsrfForm, FloorStaff};
use crate::web::state::AppState;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;

pub(super) async fn open_table(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<TableId>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    act(&req, &st, &who, move |conn, a| {
        services::floor::open_table(conn, a, id).map(|_| ())
    })
    .await
}

pub(super) async fn call_next(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<(i64, i32)>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let (table_id, seat) = path.into_inner();
    act_said(&req, &st, &who, String::new(), move |conn, a| {
        let call = services::floor::call_next(conn, a, TableId(table_id), seat)?;
        let (alias, _, table) =
            services::floor::names(conn, call.player_id, None, Some(TableId(table_id)))?;
        Ok(Said::new("board-did-call")
            .arg("alias", alias)
            .arg("table", table)
            .arg("seat", seat))
    })
    .await
}

#[derive(Deserialize)]
pub(super) struct ChosenForm {
    /// The list entry of the player chosen.
    entry: Option<String>,
    reason: Option<String>,
}

/// A chosen player of the list called out of order, with the floor's reason.
pub(super) async fn call_chosen(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<(i64, i32)>,
    form: CsrfForm<ChosenForm>,
) -> AppResult<HttpResponse> {
    let (table_id, seat) = path.into_inner();
    let f = form.0;
    act_said(&req, &st, &who, String::new(), move |conn, a| {
        let entry: i64 = f
            .entry
            .as_deref()
            .and_then(|e| e.trim().parse().ok())
            .ok_or_else(|| AppError::field("entry", "err-required"))?;
        let call = services::floor::call_chosen(
            conn,
            a,
            TableId(table_id),
            seat,
            EntryId(entry),
            f.reason.as_deref().unwrap_or(""),
        )?;
        let (alias, _, table) =
            services::floor::names(conn, call.player_id, None, Some(TableId(table_id)))?;
        Ok(Said::new("board-did-call")
            .arg("alias", alias)
            .arg("table", table)
            .arg("seat", seat))
    })
    .await
}

pub(super) async fn confirm(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<SeatCallId>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    act_said(&req, &st, &who, String::new(), move |conn, a| {
        let s = services::floor::confirm_call(conn, a, id)?;
        let (alias, _, table) = services::floor::names(conn, s.player_id, None, Some(s.table_id))?;
        Ok(Said::new("board-did-seat")
            .arg("alias", alias)
            .arg("table", table)
            .arg("seat", s.seat_no))
    })
    .await
}

/// The floor's "Leaves" in a seat's menu: two taps. The first changes nothing and says on
/// the board who would leave which seat, with a confirmation; only the second (`confirm=1`)
/// ends the seating (and so frees the seat for the next call).
pub(super) async fn leave(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<SeatingId>,
    form: CsrfForm<LeaveForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let confirmed = form.0.confirm.as_deref().map(str::trim) == Some("1");
    let reason = form
        .0
        .reason
        .filter(|r| !r.trim().is_empty())
        .unwrap_or_else(|| "left".into());
    if !confirmed {
        return act_said(&req, &st, &who, String::new(), move |conn, _| {
            let s = services::floor::seating(conn, id)?;
            if s.left_at.is_some() {
                return Err(SeatRefusal::AlreadyLeft.into());
            }
            let (alias, _, table) =
                services::floor::names(conn, s.player_id, None, Some(s.table_id))?;
            Ok(Said::new("safe-leave-confirm")
                .arg("alias", alias)
                .arg("table", table)
                .arg("seat", s.seat_no)
                .confirm(format!("/floor/seatings/{id}/leave")))
        })
        .await;
    }
    act_said(&req, &st, &who, String::new(), move |conn, a| {
        let s = services::floor::leave(conn, a, id, &reason)?;
        let (alias, _, table) = services::floor::names(conn, s.player_id, None, Some(s.table_id))?;
        Ok(Said::new("board-did-leave")
            .arg("alias", alias)
            .arg("table", table)
            .arg("seat", s.seat_no))
    })
    .await
}

#[derive(Deserialize)]
pub(super) struct LeaveForm {
    reason: Option<String>,
    /// `1` on the second tap.
    confirm: Option<String>,
}
