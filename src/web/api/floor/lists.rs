//! The waiting lists: a game's list with each player's place, joining, leaving, moving a line
//! (PT-2007 8a, BSOP 44) and checking in.

use super::{reason_text, required_id, utc, FloorReason};
use crate::db::models::WaitlistRow;
use crate::domain::ids::EntryId;
use crate::domain::ids::GameId;
use crate::domain::ids::PlayerId;
use crate::domain::refusal::ListRefusal;
use crate::domain::waitlist;
use crate::domain::FieldError;
use crate::error::{AppError, AppResult};
use crate::services::floor::{self, ListLine};
use crate::services::{self, games};
use crate::web::extract::ActingAs;
use crate::web::extract::{FloorStaff, RegistryReader};
use crate::web::json::ApiJson;
use crate::web::openapi::ErrorResponse;
use crate::web::state::AppState;
use actix_web::{web, HttpResponse};
// The route macros: utoipa reads the path and method from them (a bare name).
use actix_web::{get, post};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// One player on a waiting list, with their place (PT-2007 8a).
#[derive(Debug, Serialize, ToSchema)]
pub struct WaitlistLineOut {
    #[schema(value_type = i64)]
    pub entry_id: EntryId,
    #[schema(value_type = i64)]
    pub game_id: GameId,
    #[schema(value_type = i64)]
    pub player_id: PlayerId,
    pub alias: String,
    pub full_name: String,
    /// 1 = next to be called.
    pub position: usize,
    /// Players before this one.
    pub ahead: usize,
    /// Players on the list.
    pub of: usize,
    pub joined_at: DateTime<Utc>,
    /// desk | call_in
    pub source: String,
    /// Where the entry came from — desk, call_in (telephone to the desk), phone
    /// (the player joined from their phone; lapses unless checked in, like a call-in),
    /// kiosk, must_move, table_break.
    pub origin: crate::domain::remote_join::EntrySource,
    /// A call-in not yet checked in lapses at this time.
    pub call_in_expires_at: Option<DateTime<Utc>>,
    /// A call-in who has arrived at the desk (it no longer lapses). Always false for desk
    /// entries, which never lapse.
    pub checked_in: bool,
    /// waiting | called (called: a seat call is waiting for the answer; keeps the place).
    pub state: String,
    /// The wait in minutes, as the screens show it (`services::waits`): the middle of the
    /// interval shown; 0: a seat is free now for this place; N when the screens say "more
    /// than N"; null: no table of the game in play, or too little history at this hour.
    pub estimated_wait_min: Option<i64>,
}

impl From<&ListLine> for WaitlistLineOut {
    fn from(l: &ListLine) -> Self {
        WaitlistLineOut {
            entry_id: l.entry.id,
            game_id: l.entry.game_id,
            player_id: l.player.id,
            alias: l.player.alias.clone(),
            full_name: l.player.full_name.clone(),
            position: l.place.position,
            ahead: l.place.ahead,
            of: l.place.of,
            joined_at: utc(l.entry.joined_at),
            source: l.entry.source.to_string(),
            // The stored source alone; `via` (phone, kiosk) is filled in by the handlers
            // that list entries (`services::join::origins`).
            origin: crate::domain::remote_join::EntrySource::of(l.entry.source.as_str(), None),
            call_in_expires_at: l.entry.call_in_expires_at.map(utc),
            checked_in: l.entry.checked_in_at.is_some(),
            state: l.entry.state.to_string(),
            estimated_wait_min: l.wait.and_then(|w| w.minutes()),
        }
    }
}

/// A game's waiting list in order.
#[derive(Debug, Serialize, ToSchema)]
pub struct WaitlistOut {
    #[schema(value_type = i64)]
    pub game_id: GameId,
    pub game_name: String,
    pub lines: Vec<WaitlistLineOut>,
    /// An interest list (no table of the game open, running or suspended): how many more
    /// players would start one (PT-2007 24). Null while a table of the game is in play.
    pub players_needed: Option<usize>,
}

/// A list entry that left the list (removed, seated, lapsed).
#[derive(Debug, Serialize, ToSchema)]
pub struct WaitlistEntryOut {
    pub id: i64,
    #[schema(value_type = i64)]
    pub game_id: GameId,
    #[schema(value_type = i64)]
    pub player_id: PlayerId,
    pub joined_at: DateTime<Utc>,
    /// desk | call_in
    pub source: String,
    pub call_in_expires_at: Option<DateTime<Utc>>,
    pub checked_in_at: Option<DateTime<Utc>>,
    /// waiting | called | seated | removed | lapsed
    pub state: String,
    pub ended_at: Option<DateTime<Utc>>,
    pub end_reason: Option<String>,
}

impl From<&WaitlistRow> for WaitlistEntryOut {
    fn from(e: &WaitlistRow) -> Self {
        WaitlistEntryOut {
            id: e.id.get(),
            game_id: e.game_id,
            player_id: e.player_id,
            joined_at: utc(e.joined_at),
            source: e.source.to_string(),
            call_in_expires_at: e.call_in_expires_at.map(utc),
            checked_in_at: e.checked_in_at.map(utc),
            state: e.state.to_string(),
            ended_at: e.ended_at.map(utc),
            end_reason: e.end_reason.clone(),
        }
    }
}

/// Adds a player to a game's list.
#[derive(Debug, Deserialize, ToSchema)]
pub struct JoinRequest {
    #[schema(value_type = i64, required = true)]
    pub player_id: Option<PlayerId>,
    /// A telephone sign-up: lapses unless the player checks in at the desk within the
    /// room's `call_in_expiry_min`. Default false (the player is at the desk).
    #[serde(default)]
    pub call_in: bool,
}

/// Moves a player to another place on the list.
#[derive(Debug, Deserialize, ToSchema)]
pub struct ReorderRequest {
    /// The new place, from 1 (a place past the end moves the player to the bottom).
    #[schema(value_type = i64, required = true, minimum = 1)]
    pub position: Option<i64>,
    /// Required: why the order changes (audited).
    #[schema(value_type = String, required = true, min_length = 1, max_length = 500, pattern = r"\S")]
    pub reason: Option<String>,
}

/// The entry's line on its list now (after a change).
fn line_of(
    conn: &mut crate::db::DbConn,
    models: &services::waits::Models,
    game_id: GameId,
    entry_id: EntryId,
    now: DateTime<Utc>,
) -> AppResult<WaitlistLineOut> {
    floor::list(conn, Some(models), game_id, now)?
        .iter()
        .find(|l| l.entry.id == entry_id)
        .map(WaitlistLineOut::from)
        .ok_or_else(|| ListRefusal::EntryNotActive.into())
}

/// A game's waiting list in order, each player with their place (PT-2007 8a), and for an
/// interest list how many more players would start a table (PT-2007 24).
#[utoipa::path(
    tag = "floor",
    params(("id" = i64, Path, description = "Game id")),
    responses((status = 200, body = WaitlistOut), (status = 401, body = ErrorResponse), (status = 404, body = ErrorResponse))
)]
#[get("/games/{id}/waitlist")]
pub async fn list_waitlist(
    st: web::Data<AppState>,
    _who: RegistryReader,
    path: web::Path<GameId>,
) -> AppResult<web::Json<WaitlistOut>> {
    let id = path.into_inner();
    let now = st.clock.now();
    let out = st
        .run(move |st, conn| {
            let room = services::room::get(conn)?;
            let game = games::get_game(conn, id)?;
            let lines = floor::list(conn, Some(&st.waits), id, now)?;
            let in_play = games::list_tables(conn)?
                .iter()
                .any(|(t, _)| t.game_id == Some(id) && t.state.in_play());
            let players_needed = (!in_play)
                .then(|| waitlist::players_needed(lines.len(), room.profile.min_players_to_run));
            let ids: Vec<EntryId> = lines.iter().map(|l| l.entry.id).collect();
            let origins = services::join::origins(conn, &ids)?;
            let mut out: Vec<WaitlistLineOut> = lines.iter().map(WaitlistLineOut::from).collect();
            for o in out.iter_mut() {
                if let Some((_, src)) = origins.iter().find(|(e, _)| *e == o.entry_id) {
                    o.origin = *src;
                }
            }
            Ok(WaitlistOut {
                game_id: id,
                game_name: game.name,
                lines: out,
                players_needed,
            })
        })
        .await?;
    Ok(web::Json(out))
}

/// Adds an eligible player to a game's list, at the bottom (admin, floor). BSOP 1, 2, 3,
/// 10: a player under 18, without a photo, with an expired ID or banned is refused (409).
#[utoipa::path(
    tag = "floor",
    params(("id" = i64, Path, description = "Game id")),
    request_body = JoinRequest,
    responses(
        (status = 201, body = WaitlistLineOut),
        (status = 403, body = ErrorResponse),
        (status = 404, body = ErrorResponse),
        (status = 409, description = "Not eligible, already on the list, or the game is not offered", body = ErrorResponse),
        (status = 422, body = ErrorResponse),
    )
)]
#[post("/games/{id}/waitlist")]
pub async fn join_waitlist(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<GameId>,
    body: Result<ApiJson<JoinRequest>, actix_web::Error>,
) -> AppResult<HttpResponse> {
    // The role is checked before the body is looked at.
    let body = body?;
    let game_id = path.into_inner();
    let player_id = required_id("player_id", body.player_id.map(PlayerId::get))?;
    let call_in = body.call_in;
    let now = who.acting.now;
    let acting = who.acting;
    let line = st
        .write(move |st, conn| {
            let act = &acting.in_room(conn)?;
            games::get_game(conn, game_id)?;
            let row = floor::join(conn, act, game_id, PlayerId(player_id), call_in)?;
            line_of(conn, &st.waits, game_id, row.id, now)
        })
        .await?;
    Ok(HttpResponse::Created().json(line))
}

/// Takes a player off a list, with a reason (admin, floor). A pending seat call for the
/// entry is cancelled with it.
#[utoipa::path(
    tag = "floor",
    params(("id" = i64, Path, description = "List entry id")),
    request_body = FloorReason,
    responses(
        (status = 200, body = WaitlistEntryOut),
        (status = 403, body = ErrorResponse),
        (status = 404, body = ErrorResponse),
        (status = 409, description = "No longer on the list", body = ErrorResponse),
        (status = 422, body = ErrorResponse),
    )
)]
#[post("/waitlist/{id}/remove")]
pub async fn remove_entry(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<EntryId>,
    body: Result<ApiJson<FloorReason>, actix_web::Error>,
) -> AppResult<web::Json<WaitlistEntryOut>> {
    // The role is checked before the body is looked at.
    let body = body?;
    let id = path.into_inner();
    let reason = reason_text(body.reason.as_deref())?;
    let acting = who.acting;
    let row = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            floor::remove(conn, act, id, &reason)
        })
        .await?;
    Ok(web::Json(WaitlistEntryOut::from(&row)))
}

/// Moves a player to another place on the list (admin, floor); the reason is required and
/// audited with the old and new places.
#[utoipa::path(
    tag = "floor",
    params(("id" = i64, Path, description = "List entry id")),
    request_body = ReorderRequest,
    responses(
        (status = 200, body = WaitlistLineOut),
        (status = 403, body = ErrorResponse),
        (status = 404, body = ErrorResponse),
        (status = 409, description = "No longer on the list", body = ErrorResponse),
        (status = 422, body = ErrorResponse),
    )
)]
#[post("/waitlist/{id}/reorder")]
pub async fn reorder_entry(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<EntryId>,
    body: Result<ApiJson<ReorderRequest>, actix_web::Error>,
) -> AppResult<web::Json<WaitlistLineOut>> {
    // The role is checked before the body is looked at.
    let body = body?;
    let id = path.into_inner();
    let mut errors = Vec::new();
    if body.position.is_none() {
        errors.push(FieldError::new("position", "err-required"));
    }
    if let Err(AppError::Validation(v)) = reason_text(body.reason.as_deref()) {
        errors.extend(v);
    }
    if !errors.is_empty() {
        return Err(AppError::Validation(errors));
    }
    let position = body.position.unwrap_or(1);
    let reason = reason_text(body.reason.as_deref())?;
    let now = who.acting.now;
    let acting = who.acting;
    let line = st
        .write(move |st, conn| {
            let act = &acting.in_room(conn)?;
            floor::reorder(conn, act, id, position, &reason)?;
            let game_id = floor::entry(conn, id)?.game_id;
            line_of(conn, &st.waits, game_id, id, now)
        })
        .await?;
    Ok(web::Json(line))
}

/// A call-in arrived at the desk (admin, floor): the entry no longer lapses.
#[utoipa::path(
    tag = "floor",
    params(("id" = i64, Path, description = "List entry id")),
    responses(
        (status = 200, body = WaitlistLineOut),
        (status = 403, body = ErrorResponse),
        (status = 404, body = ErrorResponse),
        (status = 409, description = "Not a call-in waiting for check-in, or it lapsed", body = ErrorResponse),
    )
)]
#[post("/waitlist/{id}/check-in")]
pub async fn check_in(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<EntryId>,
) -> AppResult<web::Json<WaitlistLineOut>> {
    let id = path.into_inner();
    let now = who.acting.now;
    let acting = who.acting;
    let line = st
        .write(move |st, conn| {
            let act = &acting.in_room(conn)?;
            let row = floor::check_in(conn, act, id)?;
            line_of(conn, &st.waits, row.game_id, id, now)
        })
        .await?;
    Ok(web::Json(line))
}
