//! Games in the JSON API: their stakes, buy-ins, cagnotte, table policy and special buttons.

use super::utc;
use crate::db::models::GameRow;
use crate::domain::ids::GameId;
use crate::error::AppResult;
use crate::services;
use crate::services::games::GameInput;
use crate::web::extract::ActingAs;
use crate::web::extract::{AdminStaff, AnyStaff};
use crate::web::json::ApiJson;
use crate::web::openapi::ErrorResponse;
use crate::web::state::AppState;
use actix_web::http::header;
use actix_web::{web, HttpResponse};
// The route macros: utoipa reads the path and method from them (a bare name).
use actix_web::{get, post, put};
use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;

/// Registered inside the `/api/v1` scope: each handler carries its path and method
/// (`#[get(…)]`) and its documentation (`#[utoipa::path]`), registered together.
pub fn routes(cfg: &mut ServiceConfig) {
    cfg.service(list_games)
        .service(create_game)
        .service(get_game)
        .service(update_game);
}

/// A game. Amounts in minor units (cents); percentages in basis points.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameOut {
    #[schema(value_type = i64)]
    pub id: GameId,
    pub name: String,
    pub variant: String,
    pub small_blind: i64,
    pub big_blind: i64,
    pub limit_class: String,
    pub buy_in_min: i64,
    pub buy_in_max: Option<i64>,
    pub seats: i32,
    pub cagnotte_mode: String,
    pub cagnotte_bp: i32,
    pub active: bool,
    /// BSOP 55, 58: how the game's extra tables run; a change applies when a table of the
    /// game next opens or breaks.
    pub table_policy: crate::domain::game::TablePolicy,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// BSOP 115: the game runs a Cucurucho button, each player putting `cucurucho_bb` big
    /// blinds in the pot on its hand.
    pub cucurucho: bool,
    pub cucurucho_bb: i32,
    /// BSOP 116: the game runs a Macaca button, each player putting `macaca_bb` big blinds
    /// for a new Macaca, who is all in for at most `macaca_cap_bb` big blinds a hand.
    pub macaca: bool,
    pub macaca_bb: i32,
    pub macaca_cap_bb: i32,
}

impl From<&GameRow> for GameOut {
    fn from(g: &GameRow) -> Self {
        GameOut {
            id: g.id,
            name: g.name.clone(),
            variant: g.variant.clone(),
            small_blind: g.small_blind,
            big_blind: g.big_blind,
            limit_class: g.limit_class.clone(),
            buy_in_min: g.buy_in_min,
            buy_in_max: g.buy_in_max,
            seats: g.seats,
            cagnotte_mode: g.cagnotte_mode.clone(),
            cagnotte_bp: g.cagnotte_bp,
            active: g.active,
            table_policy: g.policy(),
            created_at: utc(g.created_at),
            updated_at: utc(g.updated_at),
            cucurucho: g.cucurucho,
            cucurucho_bb: g.cucurucho_bb,
            macaca: g.macaca,
            macaca_bb: g.macaca_bb,
            macaca_cap_bb: g.macaca_cap_bb,
        }
    }
}

/// A game as saved, with the pending limit changes of its tables in play, those its edit just
/// made included (PT-2007 22, BSOP 34: a table keeps its limits until the change is announced
/// there and the next hand starts).
#[derive(Debug, Serialize, ToSchema)]
pub struct GameSavedOut {
    #[serde(flatten)]
    pub game: GameOut,
    pub limit_changes: Vec<crate::web::api::limits::LimitChangeOut>,
}

/// Every game, active first.
#[utoipa::path(
    tag = "games", responses((status = 200, body = [GameOut]), (status = 401, body = ErrorResponse)))]
#[get("/games")]
pub async fn list_games(
    st: web::Data<AppState>,
    _who: AnyStaff,
) -> AppResult<web::Json<Vec<GameOut>>> {
    let rows = st.run(|_, conn| services::games::list_games(conn)).await?;
    Ok(web::Json(rows.iter().map(GameOut::from).collect()))
}

/// Creates a game (admin). Amounts in minor units.
#[utoipa::path(
    tag = "games",
    request_body = GameInput,
    responses((status = 201, body = GameOut), (status = 403, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[post("/games")]
pub async fn create_game(
    st: web::Data<AppState>,
    who: ActingAs<AdminStaff>,
    body: Result<ApiJson<GameInput>, actix_web::Error>,
) -> AppResult<HttpResponse> {
    // The role is checked before the body is looked at.
    let body = body?;
    let acting = who.acting;
    let g = body.into_inner();
    let row = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            services::games::create_game(conn, act, &g)
        })
        .await?;
    Ok(HttpResponse::Created()
        .insert_header((header::LOCATION, format!("/api/v1/games/{}", row.id)))
        .json(GameOut::from(&row)))
}

/// One game.
#[utoipa::path(
    tag = "games",
    params(("id" = i64, Path, description = "Game id")),
    responses((status = 200, body = GameOut), (status = 404, body = ErrorResponse))
)]
#[get("/games/{id}")]
pub async fn get_game(
    st: web::Data<AppState>,
    _who: AnyStaff,
    path: web::Path<GameId>,
) -> AppResult<web::Json<GameOut>> {
    let id = path.into_inner();
    let row = st
        .run(move |_, conn| services::games::get_game(conn, id))
        .await?;
    Ok(web::Json(GameOut::from(&row)))
}

/// Changes a game (admin). New limits apply to the tables opened afterwards: each table of
/// the game in play keeps its limits and gets a pending change to the new ones, which the
/// dealer announces at the table and which takes effect at the next hand after it
/// (PT-2007 22, BSOP 34); the answer lists the pending changes of the game's tables.
#[utoipa::path(
    tag = "games",
    params(("id" = i64, Path, description = "Game id")),
    request_body = GameInput,
    responses((status = 200, body = GameSavedOut), (status = 403, body = ErrorResponse), (status = 404, body = ErrorResponse), (status = 409, description = "A change the game's state forbids (e.g. the cagnotte mode once it has started)", body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[put("/games/{id}")]
pub async fn update_game(
    st: web::Data<AppState>,
    who: ActingAs<AdminStaff>,
    path: web::Path<GameId>,
    body: Result<ApiJson<GameInput>, actix_web::Error>,
) -> AppResult<web::Json<GameSavedOut>> {
    // The role is checked before the body is looked at.
    let body = body?;
    let id = path.into_inner();
    let acting = who.acting;
    let g = body.into_inner();
    let (row, lines) = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            let (row, _) = services::games::update_game(conn, act, id, &g)?;
            Ok((row, services::limits::pending_of_game(conn, id)?))
        })
        .await?;
    Ok(web::Json(GameSavedOut {
        game: GameOut::from(&row),
        limit_changes: lines
            .iter()
            .map(crate::web::api::limits::change_out)
            .collect(),
    }))
}
