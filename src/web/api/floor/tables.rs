//! A table as the floor sees it: opening it and its seats (who sits, who is called, what is held).

use super::holds::{hold_out, SeatHoldOut};
use super::utc;
use crate::db::models::{GameRow, TableRow};
use crate::domain::ids::GameId;
use crate::domain::ids::PlayerId;
use crate::domain::ids::SeatCallId;
use crate::domain::ids::SeatingId;
use crate::domain::ids::TableId;
use crate::domain::table::TableState;
use crate::error::AppResult;
use crate::services::floor::{self};
use crate::services::{self, games};
use crate::web::api::games::GameOut;
use crate::web::extract::ActingAs;
use crate::web::extract::{AnyStaff, FloorStaff};
use crate::web::openapi::ErrorResponse;
use crate::web::state::AppState;
use actix_web::web;
// The route macros: utoipa reads the path and method from them (a bare name).
use actix_web::{get, post};
use chrono::{DateTime, Duration, Utc};
use serde::Serialize;
use utoipa::ToSchema;

/// A table as the floor sees it (PT-2007 24: state, suspension and its deadline).
#[derive(Debug, Serialize, ToSchema)]
pub struct FloorTableOut {
    pub id: i64,
    pub number: i32,
    /// The table's normal number of places.
    pub seats: i32,
    /// BSOP 50: the game started with one extra player, who sits in seat `seats + 1` until
    /// anyone leaves the table.
    pub extra_seat: bool,
    /// continuous | session
    pub mode: String,
    /// closed | open | running | suspended
    pub state: String,
    #[schema(value_type = Option<i64>)]
    pub game_id: Option<GameId>,
    pub game: Option<GameOut>,
    pub opened_at: Option<DateTime<Utc>>,
    /// BSOP 55, 56: the must-move table of its game (the newest of two or more in play);
    /// its players move to the main games in the original waiting-list order.
    pub must_move: bool,
    pub suspended_at: Option<DateTime<Utc>>,
    /// A suspended table closes at this time unless the minimum is back (PT-2007 24).
    pub closes_at: Option<DateTime<Utc>>,
}

pub(super) fn floor_table(t: &TableRow, game: Option<&GameRow>, grace_min: i32) -> FloorTableOut {
    let suspended_at = if t.state == TableState::Suspended {
        t.suspended_at.map(utc)
    } else {
        None
    };
    FloorTableOut {
        id: t.id.get(),
        number: t.number,
        seats: t.seats,
        extra_seat: t.extra_seat,
        mode: t.mode.clone(),
        state: t.state.to_string(),
        game_id: t.game_id,
        game: game.map(GameOut::from),
        opened_at: t.opened_at.map(utc),
        must_move: t.must_move,
        suspended_at,
        closes_at: suspended_at.map(|s| s + Duration::minutes(grace_min as i64)),
    }
}

/// Who sits in a seat.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeatedOut {
    #[schema(value_type = i64)]
    pub seating_id: SeatingId,
    #[schema(value_type = i64)]
    pub player_id: PlayerId,
    pub alias: String,
    pub sat_at: DateTime<Utc>,
}

/// The open call for a seat: reserved for this player until `respond_by`.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeatCallBrief {
    #[schema(value_type = i64)]
    pub call_id: SeatCallId,
    #[schema(value_type = i64)]
    pub player_id: PlayerId,
    pub alias: String,
    pub respond_by: DateTime<Utc>,
    /// pending | acknowledged
    pub state: String,
}

/// One seat: empty, taken, reserved by an open call, or held.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeatOut {
    /// 1 to the table's seats, from the dealer's left (PT-2007 6); one more while the table
    /// has its extra seat (BSOP 50).
    pub seat_no: i32,
    /// BSOP 50: the extra seat of a game started with one more player than its places
    /// (it goes as soon as anyone leaves the table).
    pub extra: bool,
    /// empty | seated | called | held
    pub state: String,
    pub seated: Option<SeatedOut>,
    pub call: Option<SeatCallBrief>,
    /// BSOP 45, 49: the hold on this (free) seat.
    pub hold: Option<SeatHoldOut>,
}

/// A table with every seat.
#[derive(Debug, Serialize, ToSchema)]
pub struct TableSeatsOut {
    pub table: FloorTableOut,
    /// Players seated now.
    pub seated: usize,
    pub seats: Vec<SeatOut>,
}

/// Opens a closed table for its game, waiting for players (admin, floor). It starts running
/// when the room's minimum is seated (PT-2007 24).
#[utoipa::path(
    tag = "floor",
    params(("id" = i64, Path, description = "Table id")),
    responses(
        (status = 200, body = FloorTableOut),
        (status = 403, body = ErrorResponse),
        (status = 404, body = ErrorResponse),
        (status = 409, description = "Already open, or no game", body = ErrorResponse),
    )
)]
#[post("/tables/{id}/open")]
pub async fn open_table(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<TableId>,
) -> AppResult<web::Json<FloorTableOut>> {
    let id = path.into_inner();
    let acting = who.acting;
    let out = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            let room = &act.room;
            let t = floor::open_table(conn, act, id)?;
            let game = t.game_id.map(|g| games::get_game(conn, g)).transpose()?;
            Ok(floor_table(
                &t,
                game.as_ref(),
                room.profile.suspension_grace_min,
            ))
        })
        .await?;
    Ok(web::Json(out))
}

/// A table and every seat: who sits there, or the open call reserving it, or empty; the
/// extra seat too while the table has one (BSOP 50).
#[utoipa::path(
    tag = "floor",
    params(("id" = i64, Path, description = "Table id")),
    responses((status = 200, body = TableSeatsOut), (status = 401, body = ErrorResponse), (status = 404, body = ErrorResponse))
)]
#[get("/tables/{id}/seats")]
pub async fn table_seats(
    st: web::Data<AppState>,
    _who: AnyStaff,
    path: web::Path<TableId>,
) -> AppResult<web::Json<TableSeatsOut>> {
    let id = path.into_inner();
    let out = st
        .run(move |_, conn| {
            let room = services::room::get(conn)?;
            let t = games::get_table(conn, id)?;
            let game = t.game_id.map(|g| games::get_game(conn, g)).transpose()?;
            let (seated, calls) = floor::seats_of(conn, id)?;
            let holds = floor::holds_at(conn, id)?;
            // BSOP 50: the extra seat is one of the table's while it lasts.
            let seats = (1..=t.seats + i32::from(t.extra_seat))
                .map(|n| {
                    let s = seated.iter().find(|(s, _)| s.seat_no == n);
                    let c = calls.iter().find(|(c, _)| c.seat_no == n);
                    let h = holds.iter().find(|(h, _)| h.seat_no == n);
                    SeatOut {
                        seat_no: n,
                        extra: n > t.seats,
                        state: if s.is_some() {
                            "seated"
                        } else if c.is_some() {
                            "called"
                        } else if h.is_some() {
                            "held"
                        } else {
                            "empty"
                        }
                        .into(),
                        hold: h.map(|(h, alias)| hold_out(h, alias.clone())),
                        seated: s.map(|(s, p)| SeatedOut {
                            seating_id: s.id,
                            player_id: s.player_id,
                            alias: p.alias.clone(),
                            sat_at: utc(s.sat_at),
                        }),
                        call: c.map(|(c, p)| SeatCallBrief {
                            call_id: c.id,
                            player_id: c.player_id,
                            alias: p.alias.clone(),
                            respond_by: utc(c.respond_by),
                            state: c.state.to_string(),
                        }),
                    }
                })
                .collect();
            Ok(TableSeatsOut {
                table: floor_table(&t, game.as_ref(), room.profile.suspension_grace_min),
                seated: seated.len(),
                seats,
            })
        })
        .await?;
    Ok(web::Json(out))
}
