//! Recorded draws under `/api/v1`: make one (the seat draw PT-2007 11 with the choice of who
//! plays PT-2007 27, the draw with an extra player BSOP 50, the draw by suits PT-2007 25, the
//! button BSOP 48), read one, list a table's (the break's high-card order BSOP 52 and the
//! must-move order BSOP 56 are recorded there when a table breaks), and replay one: the same
//! seed and inputs give the same result, shown beside the stored one. Thin handlers over
//! `services::draws`, the services the floor's pages use.

use crate::domain::ids::GameId;
use crate::domain::ids::PlayerId;
use crate::domain::ids::SeatingId;
use crate::domain::ids::TableId;
use crate::error::AppResult;
use crate::services::{self, draws};
use crate::web::extract::{ActingAs, AnyStaff, FloorStaff};
use crate::web::json::ApiJson;
use crate::web::openapi::ErrorResponse;
use crate::web::state::AppState;
use actix_web::{get, post};
use actix_web::{web, HttpResponse};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;

/// Registered inside the `/api/v1` scope.
pub fn routes(cfg: &mut ServiceConfig) {
    cfg.service(draw_at_table)
        .service(draw_for_game)
        .service(table_draws)
        .service(get_draw)
        .service(replay_draw);
}

/// The draws made at a table.
#[derive(Debug, Clone, Copy, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TableDrawKind {
    /// PT-2007 11: the seats of a new game, drawn among the first players of the list who may
    /// sit together (PT-2007 27: who plays is drawn first when more are registered than seats
    /// and no other table can open, with priority to the previous session's players). The
    /// table must be open.
    Seats,
    /// BSOP 50: the same with one extra player, seated in a temporary seat until someone
    /// leaves.
    SeatsWithExtra,
    /// BSOP 48, 79: a high card per seated player decides the button (a table in play).
    Button,
}

/// What to draw at a table.
#[derive(Debug, Deserialize, ToSchema)]
pub struct TableDrawRequest {
    pub kind: TableDrawKind,
}

/// The draws made for a game.
#[derive(Debug, Clone, Copy, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum GameDrawKind {
    /// PT-2007 25: two or more open tables of the game with nobody seated are filled by a
    /// draw by suits, one suit per table (BSOP 78 order), then a seat at it.
    BySuit,
}

/// What to draw for a game.
#[derive(Debug, Deserialize, ToSchema)]
pub struct GameDrawRequest {
    pub kind: GameDrawKind,
}

/// One player in a draw and what the draw gave them.
#[derive(Debug, Serialize, ToSchema)]
pub struct DrawPlayerOut {
    #[schema(value_type = i64)]
    pub player_id: PlayerId,
    pub name: String,
    pub alias: String,
    /// The order the cards were dealt in (1 = first).
    pub dealt: usize,
    /// High-card draws at a table: the seat the player sat in then.
    pub seat_then: Option<i32>,
    /// The card drawn (`As`, `Th`, …), for high-card and suit draws.
    pub card: Option<String>,
    /// The place in the resulting order (high card: by card; PT-2007 27: as drawn).
    pub place: Option<usize>,
    /// Suit draws: the number of the table the card's suit sent the player to.
    pub table_number: Option<i32>,
    /// Seat and suit draws: the seat drawn.
    pub seat: Option<i32>,
    /// BSOP 50: the player drew the temporary extra place.
    pub extra: bool,
    /// PT-2007 27: plays (true) or stays on the list (false).
    pub plays: Option<bool>,
    /// PT-2007 27: played in the previous session (drawn first).
    pub previous_session: bool,
    /// The player the draw singles out (the button, the first in the order).
    pub winner: bool,
}

/// A recorded draw.
#[derive(Debug, Serialize, ToSchema)]
pub struct DrawOut {
    pub id: i64,
    pub kind: crate::domain::draw::DrawKind,
    /// High-card draws: what the draw decided (BSOP 48 the button, BSOP 79 who moves,
    /// BSOP 52 the order of picking seats after a table break, BSOP 56 the must-move order).
    pub purpose: Option<crate::domain::draw::HighCardPurpose>,
    /// The seed as recorded (hexadecimal): replaying it with the inputs gives the result.
    pub seed: String,
    #[schema(value_type = Option<i64>)]
    pub table_id: Option<TableId>,
    pub table_number: Option<i32>,
    #[schema(value_type = Option<i64>)]
    pub game_id: Option<GameId>,
    pub game: Option<String>,
    pub created_at: DateTime<Utc>,
    /// The staff member who made it (none: the system, e.g. a table breaking).
    pub created_by: Option<String>,
    /// Who drew what, in the result's order.
    pub players: Vec<DrawPlayerOut>,
    /// BSOP 48: the seat that got the button.
    pub button_seat: Option<i32>,
    /// Seat draws: the seats nobody drew.
    pub free_seats: Vec<i32>,
    /// Replaying the seed and inputs now gives exactly the stored result.
    pub matches: bool,
    /// The whole record as stored: kind, seed, inputs and result.
    #[schema(value_type = Object)]
    pub record: serde_json::Value,
}

impl From<draws::DrawView> for DrawOut {
    fn from(v: draws::DrawView) -> Self {
        let record = serde_json::from_str(&v.draw.inputs).unwrap_or(serde_json::Value::Null);
        DrawOut {
            id: v.draw.id,
            kind: v.kind,
            purpose: v.purpose,
            seed: v.seed,
            table_id: v.draw.table_id,
            table_number: v.table_no,
            game_id: v.draw.game_id,
            game: v.game,
            created_at: v.draw.created_at.and_utc(),
            created_by: v.by,
            players: v
                .participants
                .into_iter()
                .map(|p| DrawPlayerOut {
                    player_id: p.player_id,
                    name: p.name,
                    alias: p.alias,
                    dealt: p.dealt,
                    seat_then: p.seat_then,
                    card: p.card.map(|c| c.code),
                    place: p.place,
                    table_number: p.table_no,
                    seat: p.seat,
                    extra: p.extra,
                    plays: p.plays,
                    previous_session: p.previous,
                    winner: p.winner,
                })
                .collect(),
            button_seat: v.button_seat,
            free_seats: v.free,
            matches: v.matches,
            record,
        }
    }
}

/// A draw made, and the draws it took (PT-2007 27 draws who plays before the seats).
#[derive(Debug, Serialize, ToSchema)]
pub struct DrawMadeOut {
    /// The draw asked for.
    pub draw: DrawOut,
    /// The draw of who plays made before it (PT-2007 27), when there was one.
    pub who_plays: Option<DrawOut>,
    /// The seatings the draw made (seat and suit draws).
    pub seated: Vec<DrawSeatedOut>,
}

/// A player seated by a draw.
#[derive(Debug, Serialize, ToSchema)]
pub struct DrawSeatedOut {
    #[schema(value_type = i64)]
    pub seating_id: SeatingId,
    #[schema(value_type = i64)]
    pub table_id: TableId,
    pub seat_no: i32,
    #[schema(value_type = i64)]
    pub player_id: PlayerId,
}

/// A stored draw and its replay, side by side.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReplayOut {
    pub id: i64,
    pub kind: String,
    pub seed: String,
    /// The result as stored.
    #[schema(value_type = Object)]
    pub stored: serde_json::Value,
    /// The result computed again now from the recorded kind, seed and inputs (null when the
    /// record cannot be replayed: see `problem`).
    #[schema(value_type = Option<Object>)]
    pub replayed: Option<serde_json::Value>,
    /// The replay gives exactly the stored result: the draw was not altered.
    pub matches: bool,
    /// Why there is no replay: `draw-unreadable` (the record is damaged) or the draw's own
    /// refusal of its inputs (`draw-duplicate-player`, …).
    pub problem: Option<String>,
}

async fn draw_out(st: &AppState, id: i64) -> AppResult<DrawOut> {
    st.run(move |_, c| draws::view(c, id))
        .await
        .map(DrawOut::from)
}

/// The draw made and, before it, the PT-2007 27 draw of who plays if the service made one
/// in the same write (at the same table and instant).
async fn made(
    st: &AppState,
    draw_id: i64,
    seated: Vec<crate::db::models::SeatingRow>,
) -> AppResult<DrawMadeOut> {
    let earlier = st
        .run(move |_, c| draws::who_played_before(c, draw_id))
        .await?;
    let who_plays = match earlier {
        Some(id) => Some(draw_out(st, id).await?),
        None => None,
    };
    Ok(DrawMadeOut {
        draw: draw_out(st, draw_id).await?,
        who_plays,
        seated: seated
            .into_iter()
            .map(|s| DrawSeatedOut {
                seating_id: s.id,
                table_id: s.table_id,
                seat_no: s.seat_no,
                player_id: s.player_id,
            })
            .collect(),
    })
}

/// Makes a draw at a table: the seats of a new game (PT-2007 11, 27), with an extra player
/// (BSOP 50), or the button (BSOP 48). Recorded with its seed; answers it and what it seated.
#[utoipa::path(
    tag = "draws",
    params(("id" = i64, Path, description = "Table id")),
    request_body = TableDrawRequest,
    responses((status = 201, body = DrawMadeOut), (status = 409, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[post("/tables/{id}/draws")]
pub async fn draw_at_table(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<TableId>,
    body: ApiJson<TableDrawRequest>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    let kind = body.into_inner().kind;
    let (draw_id, seated) = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            match kind {
                TableDrawKind::Seats => {
                    draws::start_game(c, act, id).map(|r| (r.draw.id, r.seated))
                }
                TableDrawKind::SeatsWithExtra => {
                    draws::start_game_with_extra(c, act, id).map(|r| (r.draw.id, r.seated))
                }
                TableDrawKind::Button => {
                    draws::button(c, act, id).map(|(row, _)| (row.id, Vec::new()))
                }
            }
        })
        .await?;
    Ok(HttpResponse::Created().json(made(&st, draw_id, seated).await?))
}

/// Makes a draw for a game: by suits over its empty open tables (PT-2007 25).
#[utoipa::path(
    tag = "draws",
    params(("id" = i64, Path, description = "Game id")),
    request_body = GameDrawRequest,
    responses((status = 201, body = DrawMadeOut), (status = 409, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[post("/games/{id}/draws")]
pub async fn draw_for_game(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<GameId>,
    body: ApiJson<GameDrawRequest>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    let GameDrawKind::BySuit = body.into_inner().kind;
    let (draw_id, seated) = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            services::games::get_game(c, id)?;
            draws::start_tables_by_suit(c, act, id).map(|r| (r.draw.id, r.seated))
        })
        .await?;
    Ok(HttpResponse::Created().json(made(&st, draw_id, seated).await?))
}

/// A table's draws, newest first: seats, button, the break's high-card order (BSOP 52) and
/// the must-move order (BSOP 56) recorded when a table breaks, who plays (PT-2007 27).
#[utoipa::path(
    tag = "draws",
    params(("id" = i64, Path, description = "Table id")),
    responses((status = 200, body = Vec<DrawOut>))
)]
#[get("/tables/{id}/draws")]
pub async fn table_draws(
    st: web::Data<AppState>,
    _who: AnyStaff,
    path: web::Path<TableId>,
) -> AppResult<web::Json<Vec<DrawOut>>> {
    let id = path.into_inner();
    let out = st
        .run(move |_, c| {
            draws::of_table(c, id)?
                .into_iter()
                .map(|d| draws::view(c, d).map(DrawOut::from))
                .collect::<AppResult<Vec<_>>>()
        })
        .await?;
    Ok(web::Json(out))
}

/// One recorded draw, with who drew what and whether its replay matches.
#[utoipa::path(
    tag = "draws",
    params(("id" = i64, Path, description = "Draw id")),
    responses((status = 200, body = DrawOut))
)]
#[get("/draws/{id}")]
pub async fn get_draw(
    st: web::Data<AppState>,
    _who: AnyStaff,
    path: web::Path<i64>,
) -> AppResult<web::Json<DrawOut>> {
    Ok(web::Json(draw_out(&st, path.into_inner()).await?))
}

/// Replays a recorded draw: the result computed again from its seed and inputs, beside the
/// stored result. The same seed gives the same result; a difference means the record was
/// altered.
#[utoipa::path(
    tag = "draws",
    params(("id" = i64, Path, description = "Draw id")),
    responses((status = 200, body = ReplayOut))
)]
#[get("/draws/{id}/replay")]
pub async fn replay_draw(
    st: web::Data<AppState>,
    _who: AnyStaff,
    path: web::Path<i64>,
) -> AppResult<web::Json<ReplayOut>> {
    let id = path.into_inner();
    let r = st.run(move |_, c| draws::side_by_side(c, id)).await?;
    Ok(web::Json(ReplayOut {
        id: r.draw.id,
        kind: r.draw.kind.to_string(),
        seed: crate::domain::draw::DrawSeed::from_i64(r.draw.seed).to_string(),
        stored: r.stored,
        replayed: r.replayed,
        matches: r.matches,
        problem: r.problem.map(str::to_string),
    }))
}
