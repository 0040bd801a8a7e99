//! Moves and holds (BSOP 45, 49, 51, 55, 58; PT-2007 12, 26): seat changes, a must-move
//! player's refusal, moving a player to another table, seats held.

use super::act::{act, done};
use super::lists::{find_player, Empty};
use crate::domain::ids::PlayerId;
use crate::domain::ids::SeatingId;
use crate::domain::ids::TableId;
use crate::error::{AppError, AppResult};
use crate::services::{self};
use crate::web::extract::{CsrfForm, FloorStaff};
use crate::web::state::AppState;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;

/// PT-2007 12, BSOP 51: a seated player asks for another seat at the same table.
pub(super) async fn request_seat_change(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<SeatingId>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    act(&req, &st, &who, move |conn, a| {
        services::floor::request_seat_change(conn, a, id).map(|_| ())
    })
    .await
}

pub(super) async fn cancel_seat_change(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<i64>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    act(&req, &st, &who, move |conn, a| {
        services::floor::cancel_seat_change(conn, a, id).map(|_| ())
    })
    .await
}

#[derive(Deserialize)]
pub(super) struct RefusalForm {
    /// give_up | rejoin_later
    choice: Option<String>,
}

/// BSOP 55: a must-move player refused to move to the main game.
pub(super) async fn refuse_must_move(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<SeatingId>,
    form: CsrfForm<RefusalForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let choice = form
        .0
        .choice
        .as_deref()
        .and_then(|c| c.parse::<crate::domain::states::MustMoveChoice>().ok());
    match choice {
        None => {
            done(
                &req,
                &st,
                &who,
                Err(AppError::field("choice", "err-required")),
                String::new(),
            )
            .await
        }
        Some(choice) => {
            act(&req, &st, &who, move |conn, a| {
                services::floor::refuse_must_move(conn, a, id, choice).map(|_| ())
            })
            .await
        }
    }
}

#[derive(Deserialize)]
pub(super) struct TransferForm {
    table_id: Option<TableId>,
    cave_lost: Option<String>,
}

/// BSOP 58, PT-2007 26: a player moves to a similar table at their request.
pub(super) async fn transfer(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<SeatingId>,
    form: CsrfForm<TransferForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let f = form.0;
    match f.table_id {
        None => {
            done(
                &req,
                &st,
                &who,
                Err(AppError::field("table_id", "err-required")),
                String::new(),
            )
            .await
        }
        Some(to) => {
            let cave_lost = f.cave_lost.is_some();
            act(&req, &st, &who, move |conn, a| {
                services::floor::transfer(conn, a, id, to, cave_lost).map(|_| ())
            })
            .await
        }
    }
}

#[derive(Deserialize)]
pub(super) struct HoldForm {
    /// The player it is held for (number or document number), or empty for a reservation.
    player: Option<String>,
    reason: Option<String>,
}

/// BSOP 45, 49: holds a free seat for a player, or reserves it with a reason.
pub(super) async fn hold_seat(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<(i64, i32)>,
    form: CsrfForm<HoldForm>,
) -> AppResult<HttpResponse> {
    let (table_id, seat) = path.into_inner();
    let f = form.0;
    act(&req, &st, &who, move |conn, a| {
        let player = match f.player.as_deref().map(str::trim).filter(|p| !p.is_empty()) {
            Some(p) => Some(find_player(conn, p)?),
            None => None,
        };
        let reason = f
            .reason
            .as_deref()
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .map(|r| r.chars().take(500).collect::<String>());
        services::floor::hold_seat(
            conn,
            a,
            TableId(table_id),
            seat,
            player.map(PlayerId),
            reason.as_deref(),
        )
        .map(|_| ())
    })
    .await
}

pub(super) async fn release_hold(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<i64>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    act(&req, &st, &who, move |conn, a| {
        services::floor::release_hold(conn, a, id).map(|_| ())
    })
    .await
}
