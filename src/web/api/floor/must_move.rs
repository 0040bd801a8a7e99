//! Must-move tables (BSOP 55, 58): who must move, where a new player should sit, a player
//! refusing to move.

use super::calls::{seat_call_out, SeatCallOut};
use super::tables::{floor_table, FloorTableOut};
use super::utc;
use crate::domain::ids::EntryId;
use crate::domain::ids::GameId;
use crate::domain::ids::PlayerId;
use crate::domain::ids::SeatingId;
use crate::domain::ids::TableId;
use crate::domain::FieldError;
use crate::error::{AppError, AppResult};
use crate::services::floor::{self};
use crate::services::players as registry;
use crate::services::{self, games};
use crate::web::extract::ActingAs;
use crate::web::extract::{AnyStaff, FloorStaff};
use crate::web::json::ApiJson;
use crate::web::openapi::ErrorResponse;
use crate::web::state::AppState;
use actix_web::{web, HttpResponse};
// The route macros: utoipa reads the path and method from them (a bare name).
use actix_web::{get, post};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// One player at a must-move table, in must-move order (BSOP 55).
#[derive(Debug, Serialize, ToSchema)]
pub struct MustMovePlayerOut {
    /// 1 = the next to move to a main game.
    pub order: usize,
    #[schema(value_type = i64)]
    pub seating_id: SeatingId,
    #[schema(value_type = i64)]
    pub player_id: PlayerId,
    pub alias: String,
    pub seat_no: i32,
    /// The list entry the player was seated from (its place sets the order); null for a
    /// player seated without one (they come after, by the time they sat down).
    #[schema(value_type = Option<i64>)]
    pub entry_id: Option<EntryId>,
    pub sat_at: DateTime<Utc>,
}

/// A game's must-move table and its players in the original waiting-list order (BSOP 55).
#[derive(Debug, Serialize, ToSchema)]
pub struct MustMoveOut {
    #[schema(value_type = i64)]
    pub game_id: GameId,
    /// Null when the game has no must-move table (fewer than two tables in play).
    pub table: Option<FloorTableOut>,
    pub players: Vec<MustMovePlayerOut>,
}

/// Where a new player of a game should sit (BSOP 55, 58).
#[derive(Debug, Serialize, ToSchema)]
pub struct SuggestTableOut {
    #[schema(value_type = i64)]
    pub game_id: GameId,
    /// Null when no table of the game in play has a free seat.
    #[schema(value_type = Option<i64>)]
    pub table_id: Option<TableId>,
    pub table_number: Option<i32>,
    /// must_move: the game's must-move table, whose players take the main games' free seats
    /// (BSOP 55); main_game: a main game with more free seats than the must-move table has
    /// players to move (BSOP 55); neediest: the table that needs a player most (BSOP 58).
    pub rule: Option<String>,
    /// Players seated at the suggested table.
    pub seated: usize,
    /// Its first free seat (not taken, called or held).
    pub free_seat: Option<i32>,
}

/// A must-move player refuses to move to the main game (BSOP 55).
/// The choices of [`RefuseMustMoveRequest`] (its schema only).
#[derive(ToSchema)]
#[allow(dead_code)]
pub enum MustMoveChoice {
    #[schema(rename = "give_up")]
    GiveUp,
    #[schema(rename = "rejoin_later")]
    RejoinLater,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct RefuseMustMoveRequest {
    /// give_up: leaves and may not play at the must-move table; rejoin_later: leaves and may
    /// join the waiting list again only after the room's return window (one hour).
    #[schema(value_type = MustMoveChoice, required = true)]
    pub choice: Option<String>,
}

/// A recorded must-move refusal.
#[derive(Debug, Serialize, ToSchema)]
pub struct MustMoveRefusalOut {
    pub id: i64,
    #[schema(value_type = i64)]
    pub game_id: GameId,
    /// The must-move table the player left.
    #[schema(value_type = i64)]
    pub table_id: TableId,
    #[schema(value_type = i64)]
    pub player_id: PlayerId,
    /// The seating that ended (reason "refused must-move").
    #[schema(value_type = i64)]
    pub seating_id: SeatingId,
    /// give_up | rejoin_later
    pub choice: String,
    pub refused_at: DateTime<Utc>,
    /// rejoin_later: the player may not join this game's list before this time.
    pub rejoin_after: Option<DateTime<Utc>>,
    /// The main-game seat the player refused, called for the next must-move player.
    pub next_call: Option<SeatCallOut>,
}

/// A game's must-move table and its players in the original waiting-list order (BSOP 55):
/// when a seat frees up at a main game, the first of them is called to it.
#[utoipa::path(
    tag = "floor",
    params(("id" = i64, Path, description = "Game id")),
    responses((status = 200, body = MustMoveOut), (status = 401, body = ErrorResponse), (status = 404, body = ErrorResponse))
)]
#[get("/games/{id}/must-move")]
pub async fn must_move_list(
    st: web::Data<AppState>,
    _who: AnyStaff,
    path: web::Path<GameId>,
) -> AppResult<web::Json<MustMoveOut>> {
    let id = path.into_inner();
    let out = st
        .run(move |_, conn| {
            let room = services::room::get(conn)?;
            let Some((t, players)) = floor::must_move_list(conn, id)? else {
                return Ok(MustMoveOut {
                    game_id: id,
                    table: None,
                    players: Vec::new(),
                });
            };
            let game = games::get_game(conn, id)?;
            Ok(MustMoveOut {
                game_id: id,
                table: Some(floor_table(
                    &t,
                    Some(&game),
                    room.profile.suspension_grace_min,
                )),
                players: players
                    .iter()
                    .enumerate()
                    .map(|(i, (s, p))| MustMovePlayerOut {
                        order: i + 1,
                        seating_id: s.id,
                        player_id: s.player_id,
                        alias: p.alias.clone(),
                        seat_no: s.seat_no,
                        entry_id: s.entry_id,
                        sat_at: utc(s.sat_at),
                    })
                    .collect(),
            })
        })
        .await?;
    Ok(web::Json(out))
}

/// The table a new player of this game should sit at, by the game's policy: with must-move,
/// a main game while its free seats outnumber the must-move table's players, else the
/// must-move table (BSOP 55); balanced (or no must-move table), the table that needs a player
/// most (BSOP 58: fewest seated, the older on a tie). Only a table with a free seat is
/// suggested; `table_id` is null if none.
#[utoipa::path(
    tag = "floor",
    params(("id" = i64, Path, description = "Game id")),
    responses((status = 200, body = SuggestTableOut), (status = 401, body = ErrorResponse), (status = 404, body = ErrorResponse))
)]
#[get("/games/{id}/suggest-table")]
pub async fn suggest_table(
    st: web::Data<AppState>,
    _who: AnyStaff,
    path: web::Path<GameId>,
) -> AppResult<web::Json<SuggestTableOut>> {
    let id = path.into_inner();
    let s = st
        .run(move |_, conn| floor::suggest_table(conn, id))
        .await?;
    Ok(web::Json(SuggestTableOut {
        game_id: id,
        table_id: s.table.as_ref().map(|t| t.id),
        table_number: s.table.as_ref().map(|t| t.number),
        rule: s.rule.map(str::to_string),
        seated: s.seated,
        free_seat: s.free_seat,
    }))
}

/// A must-move player refuses to move to the main game (admin, floor; BSOP 55). Either way
/// their seating at the must-move table ends (reason "refused must-move"). `give_up`: they
/// may not play at that must-move table again. `rejoin_later`: they leave the game's list
/// and may join it again only after the room's return window (one hour): until then joining
/// is refused with 409 naming the time. The main-game seat they were called to is offered
/// to the next must-move player.
#[utoipa::path(
    tag = "floor",
    params(("id" = i64, Path, description = "Seating id (at the must-move table)")),
    request_body = RefuseMustMoveRequest,
    responses(
        (status = 201, body = MustMoveRefusalOut),
        (status = 403, body = ErrorResponse),
        (status = 404, body = ErrorResponse),
        (status = 409, description = "Already left, or not at the must-move table", body = ErrorResponse),
        (status = 422, body = ErrorResponse),
    )
)]
#[post("/seatings/{id}/refuse-must-move")]
pub async fn refuse_must_move(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<SeatingId>,
    body: Result<ApiJson<RefuseMustMoveRequest>, actix_web::Error>,
) -> AppResult<HttpResponse> {
    // The role is checked before the body is looked at.
    let body = body?;
    let id = path.into_inner();
    let choice = match body.choice.as_deref().map(str::trim) {
        None | Some("") => return Err(AppError::field("choice", "err-required")),
        Some(c) => c
            .parse::<crate::domain::states::MustMoveChoice>()
            .ok()
            .ok_or_else(|| {
                AppError::Validation(vec![FieldError::new("choice", "err-choice").arg("value", c)])
            })?,
    };
    let acting = who.acting;
    let out = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            let (r, next) = floor::refuse_must_move(conn, act, id, choice)?;
            let next_call = match next {
                Some(c) => {
                    let t = games::get_table(conn, c.table_id)?;
                    let p = registry::get(conn, c.player_id)?;
                    Some(seat_call_out(&c, &t, &p))
                }
                None => None,
            };
            Ok(MustMoveRefusalOut {
                id: r.id,
                game_id: r.game_id,
                table_id: r.table_id,
                player_id: r.player_id,
                seating_id: r.seating_id,
                choice: r.choice.to_string(),
                refused_at: utc(r.refused_at),
                rejoin_after: r.rejoin_after.map(utc),
                next_call,
            })
        })
        .await?;
    Ok(HttpResponse::Created().json(out))
}
