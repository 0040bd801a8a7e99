//! The floor's JSON API under `/api/v1`: waiting lists, seat calls, seating, tables.
//!
//! Thin handlers over `services::floor` (the same rules as the pages): every refusal is an
//! `AppError` turned into the localized `{"error":{…}}` body; every change is audited and
//! pushed as an event by the service, in the handler's one write transaction.

use crate::db::models::{GameRow, PlayerRow, SeatCallRow, SeatingRow, TableRow, WaitlistRow};
use crate::domain::refusal::ListRefusal;
use crate::domain::table::TableState;
use crate::domain::waitlist;
use crate::domain::FieldError;
use crate::error::{AppError, AppResult};
use crate::services::floor::{self, ListLine};
use crate::services::players as registry;
use crate::services::{self, games};
use crate::web::api::games::GameOut;
use crate::web::extract::ActingAs;
use crate::web::extract::{AnyStaff, FloorStaff, RegistryReader};
use crate::web::json::ApiJson;
use crate::web::openapi::ErrorResponse;
use crate::web::state::AppState;
use actix_web::{web, HttpResponse};
// The route macros: utoipa reads the path and method from them (a bare name).
use actix_web::{get, post};
use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;

/// Registered inside the `/api/v1` scope: each handler carries its path and method
/// (`#[post(…)]`) and its documentation (`#[utoipa::path]`), registered together.
pub fn routes(cfg: &mut ServiceConfig) {
    cfg.service(list_waitlist)
        .service(join_waitlist)
        .service(remove_entry)
        .service(reorder_entry)
        .service(check_in)
        .service(open_table)
        .service(table_seats)
        .service(call_next)
        .service(call_chosen)
        .service(seat_directly)
        .service(confirm_call)
        .service(leave_seat)
        .service(must_move_list)
        .service(suggest_table)
        .service(refuse_must_move)
        .service(request_seat_change)
        .service(transfer)
        .service(list_seat_changes)
        .service(cancel_seat_change)
        .service(hold_seat)
        .service(release_hold);
}

// ---- response types --------------------------------------------------------------------

fn utc(t: chrono::NaiveDateTime) -> DateTime<Utc> {
    t.and_utc()
}

/// One player on a waiting list, with their place (PT-2007 8a).
#[derive(Debug, Serialize, ToSchema)]
pub struct WaitlistLineOut {
    pub entry_id: i64,
    pub game_id: i64,
    pub player_id: i64,
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
    pub game_id: i64,
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
    pub game_id: i64,
    pub player_id: i64,
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
            id: e.id,
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

/// A table as the floor sees it (PT-2007 24: state, suspension and its deadline).
#[derive(Debug, Serialize, ToSchema)]
pub struct FloorTableOut {
    pub id: i64,
    pub number: i32,
    pub seats: i32,
    /// continuous | session
    pub mode: String,
    /// closed | open | running | suspended
    pub state: String,
    pub game_id: Option<i64>,
    pub game: Option<GameOut>,
    pub opened_at: Option<DateTime<Utc>>,
    /// BSOP 55, 56: the must-move table of its game (the newest of two or more in play);
    /// its players move to the main games in the original waiting-list order.
    pub must_move: bool,
    pub suspended_at: Option<DateTime<Utc>>,
    /// A suspended table closes at this time unless the minimum is back (PT-2007 24).
    pub closes_at: Option<DateTime<Utc>>,
}

fn floor_table(t: &TableRow, game: Option<&GameRow>, grace_min: i32) -> FloorTableOut {
    let suspended_at = if t.state == TableState::Suspended {
        t.suspended_at.map(utc)
    } else {
        None
    };
    FloorTableOut {
        id: t.id,
        number: t.number,
        seats: t.seats,
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
    pub seating_id: i64,
    pub player_id: i64,
    pub alias: String,
    pub sat_at: DateTime<Utc>,
}

/// The open call for a seat: reserved for this player until `respond_by`.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeatCallBrief {
    pub call_id: i64,
    pub player_id: i64,
    pub alias: String,
    pub respond_by: DateTime<Utc>,
    /// pending | acknowledged
    pub state: String,
}

/// One seat: empty, taken, reserved by an open call, or held.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeatOut {
    /// 1 to the table's seats, from the dealer's left (PT-2007 6).
    pub seat_no: i32,
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

/// A seat call: the player is asked to take the seat before `respond_by`.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeatCallOut {
    pub id: i64,
    pub table_id: i64,
    pub table_number: i32,
    pub seat_no: i32,
    pub player_id: i64,
    pub alias: String,
    /// list | seat_change | must_move
    pub source: String,
    /// The list entry called (source list).
    pub entry_id: Option<i64>,
    pub called_at: DateTime<Utc>,
    pub respond_by: DateTime<Utc>,
    /// pending | acknowledged | seated | expired | cancelled
    pub state: String,
}

fn seat_call_out(c: &SeatCallRow, t: &TableRow, p: &PlayerRow) -> SeatCallOut {
    SeatCallOut {
        id: c.id,
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

/// A player in a seat (one row per sit-down).
#[derive(Debug, Serialize, ToSchema)]
pub struct SeatingOut {
    pub id: i64,
    pub table_id: i64,
    pub table_number: i32,
    pub seat_no: i32,
    pub player_id: i64,
    pub alias: String,
    pub game_id: Option<i64>,
    /// The list entry used up by this seating, if any.
    pub entry_id: Option<i64>,
    pub sat_at: DateTime<Utc>,
    pub left_at: Option<DateTime<Utc>>,
    pub left_reason: Option<String>,
}

fn seating_out(s: &SeatingRow, t: &TableRow, p: &PlayerRow) -> SeatingOut {
    SeatingOut {
        id: s.id,
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
fn seating_answer(conn: &mut crate::db::DbConn, s: &SeatingRow) -> AppResult<SeatingOut> {
    let (t, p) = games::table_and_player(conn, s.table_id, s.player_id)?;
    Ok(seating_out(s, &t, &p))
}

// ---- request bodies --------------------------------------------------------------------

/// Adds a player to a game's list.
#[derive(Debug, Deserialize, ToSchema)]
pub struct JoinRequest {
    #[schema(value_type = i64, required = true)]
    pub player_id: Option<i64>,
    /// A telephone sign-up: lapses unless the player checks in at the desk within the
    /// room's `call_in_expiry_min`. Default false (the player is at the desk).
    #[serde(default)]
    pub call_in: bool,
}

/// Why (audited).
#[derive(Debug, Deserialize, ToSchema)]
pub struct FloorReason {
    /// Required, at most 500 characters.
    #[schema(value_type = String, required = true, min_length = 1, max_length = 500, pattern = r"\S")]
    pub reason: Option<String>,
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

/// Calls a chosen player of the list out of order.
#[derive(Debug, Deserialize, ToSchema)]
pub struct CallChosenRequest {
    /// The chosen player's list entry (of the table's game).
    #[schema(value_type = i64, required = true)]
    pub entry_id: Option<i64>,
    /// Required: why the list order is not followed (audited with the player who was next).
    #[schema(value_type = String, required = true, min_length = 1, max_length = 500, pattern = r"\S")]
    pub reason: Option<String>,
}

/// Seats a player directly (BSOP 44).
#[derive(Debug, Deserialize, ToSchema)]
pub struct SeatRequest {
    #[schema(value_type = i64, required = true)]
    pub player_id: Option<i64>,
}

/// A required reason of at most 500 characters.
fn reason_text(v: Option<&str>) -> AppResult<String> {
    let r = v.unwrap_or("").trim();
    if r.is_empty() {
        return Err(AppError::field("reason", "err-required"));
    }
    if r.chars().count() > 500 {
        return Err(AppError::Validation(vec![FieldError::new(
            "reason",
            "err-too-long",
        )
        .arg("max", 500)]));
    }
    Ok(r.to_string())
}

fn required_id(field: &str, v: Option<i64>) -> AppResult<i64> {
    v.ok_or_else(|| AppError::field(field, "err-required"))
}

/// The entry's line on its list now (after a change).
fn line_of(
    conn: &mut crate::db::DbConn,
    models: &services::waits::Models,
    game_id: i64,
    entry_id: i64,
    now: DateTime<Utc>,
) -> AppResult<WaitlistLineOut> {
    floor::list(conn, Some(models), game_id, now)?
        .iter()
        .find(|l| l.entry.id == entry_id)
        .map(WaitlistLineOut::from)
        .ok_or_else(|| ListRefusal::EntryNotActive.into())
}

// ---- waiting lists ---------------------------------------------------------------------

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
    path: web::Path<i64>,
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
            let ids: Vec<i64> = lines.iter().map(|l| l.entry.id).collect();
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
    path: web::Path<i64>,
    body: Result<ApiJson<JoinRequest>, actix_web::Error>,
) -> AppResult<HttpResponse> {
    // The role is checked before the body is looked at.
    let body = body?;
    let game_id = path.into_inner();
    let player_id = required_id("player_id", body.player_id)?;
    let call_in = body.call_in;
    let now = who.acting.now;
    let acting = who.acting;
    let line = st
        .write(move |st, conn| {
            let act = &acting.in_room(conn)?;
            games::get_game(conn, game_id)?;
            let row = floor::join(conn, act, game_id, player_id, call_in)?;
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
    path: web::Path<i64>,
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
    path: web::Path<i64>,
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
    path: web::Path<i64>,
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

// ---- tables and seats ------------------------------------------------------------------

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
    path: web::Path<i64>,
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

/// A table and every seat: who sits there, or the open call reserving it, or empty.
#[utoipa::path(
    tag = "floor",
    params(("id" = i64, Path, description = "Table id")),
    responses((status = 200, body = TableSeatsOut), (status = 401, body = ErrorResponse), (status = 404, body = ErrorResponse))
)]
#[get("/tables/{id}/seats")]
pub async fn table_seats(
    st: web::Data<AppState>,
    _who: AnyStaff,
    path: web::Path<i64>,
) -> AppResult<web::Json<TableSeatsOut>> {
    let id = path.into_inner();
    let out = st
        .run(move |_, conn| {
            let room = services::room::get(conn)?;
            let t = games::get_table(conn, id)?;
            let game = t.game_id.map(|g| games::get_game(conn, g)).transpose()?;
            let (seated, calls) = floor::seats_of(conn, id)?;
            let holds = floor::holds_at(conn, id)?;
            let seats = (1..=t.seats)
                .map(|n| {
                    let s = seated.iter().find(|(s, _)| s.seat_no == n);
                    let c = calls.iter().find(|(c, _)| c.seat_no == n);
                    let h = holds.iter().find(|(h, _)| h.seat_no == n);
                    SeatOut {
                        seat_no: n,
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
            floor::call_next(conn, act, table_id, seat_no)
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
    let entry_id = required_id("entry_id", body.entry_id)?;
    let reason = reason_text(body.reason.as_deref())?;
    let acting = who.acting;
    let c = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            floor::call_chosen(conn, act, table_id, seat_no, entry_id, &reason)
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
    path: web::Path<i64>,
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
    let player_id = required_id("player_id", body.player_id)?;
    let acting = who.acting;
    let out = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            let s = floor::seat_directly(conn, act, table_id, seat_no, player_id)?;
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
    path: web::Path<i64>,
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

// ---- must-move, seat changes, holds and balance -----------------------------------------

/// One player at a must-move table, in must-move order (BSOP 55).
#[derive(Debug, Serialize, ToSchema)]
pub struct MustMovePlayerOut {
    /// 1 = the next to move to a main game.
    pub order: usize,
    pub seating_id: i64,
    pub player_id: i64,
    pub alias: String,
    pub seat_no: i32,
    /// The list entry the player was seated from (its place sets the order); null for a
    /// player seated without one (they come after, by the time they sat down).
    pub entry_id: Option<i64>,
    pub sat_at: DateTime<Utc>,
}

/// A game's must-move table and its players in the original waiting-list order (BSOP 55).
#[derive(Debug, Serialize, ToSchema)]
pub struct MustMoveOut {
    pub game_id: i64,
    /// Null when the game has no must-move table (fewer than two tables in play).
    pub table: Option<FloorTableOut>,
    pub players: Vec<MustMovePlayerOut>,
}

/// Where a new player of a game should sit (BSOP 55, 58).
#[derive(Debug, Serialize, ToSchema)]
pub struct SuggestTableOut {
    pub game_id: i64,
    /// Null when no table of the game in play has a free seat.
    pub table_id: Option<i64>,
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
    pub game_id: i64,
    /// The must-move table the player left.
    pub table_id: i64,
    pub player_id: i64,
    /// The seating that ended (reason "refused must-move").
    pub seating_id: i64,
    /// give_up | rejoin_later
    pub choice: String,
    pub refused_at: DateTime<Utc>,
    /// rejoin_later: the player may not join this game's list before this time.
    pub rejoin_after: Option<DateTime<Utc>>,
    /// The main-game seat the player refused, called for the next must-move player.
    pub next_call: Option<SeatCallOut>,
}

/// A seat-change request (PT-2007 12, BSOP 51).
#[derive(Debug, Serialize, ToSchema)]
pub struct SeatChangeOut {
    pub id: i64,
    pub table_id: i64,
    pub player_id: i64,
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
    pub table_id: i64,
    pub requests: Vec<SeatChangeOut>,
}

/// Holds a free seat (BSOP 45, 49).
#[derive(Debug, Deserialize, ToSchema)]
pub struct HoldRequest {
    /// BSOP 49: the player the seat is held for (still in a hand at another table); seating
    /// them there releases the hold.
    pub player_id: Option<i64>,
    /// BSOP 45: why the floor reserves the seat (required without a player; at most 500
    /// characters).
    #[schema(max_length = 500)]
    pub reason: Option<String>,
}

/// A seat hold.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeatHoldOut {
    pub id: i64,
    pub table_id: i64,
    pub seat_no: i32,
    /// The player it is held for (BSOP 49), or null for a reservation by the floor (BSOP 45).
    pub player_id: Option<i64>,
    pub alias: Option<String>,
    pub reason: String,
    pub held_at: DateTime<Utc>,
    pub released_at: Option<DateTime<Utc>>,
}

fn hold_out(h: &crate::db::models::SeatHoldRow, alias: Option<String>) -> SeatHoldOut {
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

/// A voluntary move to a similar table (BSOP 58, PT-2007 26).
#[derive(Debug, Deserialize, ToSchema)]
pub struct TransferRequest {
    /// The destination: a table of the same game in play.
    #[schema(value_type = i64, required = true)]
    pub table_id: Option<i64>,
    /// PT-2007 26: in session mode a player may change table only after losing their whole
    /// buy-in (the cave), as the floor or the dealer says. Default false.
    #[serde(default)]
    pub cave_lost: bool,
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
    path: web::Path<i64>,
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
    path: web::Path<i64>,
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
    path: web::Path<i64>,
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
    path: web::Path<i64>,
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
    path: web::Path<i64>,
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
            let h = floor::hold_seat(conn, act, table_id, seat_no, player_id, reason.as_deref())?;
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
    path: web::Path<i64>,
) -> AppResult<web::Json<SeatHoldOut>> {
    let id = path.into_inner();
    let acting = who.acting;
    let out = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            let h = floor::release_hold(conn, act, id)?;
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
    path: web::Path<i64>,
    body: Result<ApiJson<TransferRequest>, actix_web::Error>,
) -> AppResult<HttpResponse> {
    // The role is checked before the body is looked at.
    let body = body?;
    let id = path.into_inner();
    let to = required_id("table_id", body.table_id)?;
    let cave_lost = body.cave_lost;
    let acting = who.acting;
    let out = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            let s = floor::transfer(conn, act, id, to, cave_lost)?;
            seating_answer(conn, &s)
        })
        .await?;
    Ok(HttpResponse::Created().json(out))
}
