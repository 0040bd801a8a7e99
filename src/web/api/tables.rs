//! Tables in the JSON API: each with the game it runs and the limits it plays now.

use super::games::GameOut;
use super::utc;
use crate::db::models::{GameRow, TableRow};
use crate::domain::ids::GameId;
use crate::domain::ids::TableId;
use crate::error::AppResult;
use crate::services;
use crate::services::games::TableInput;
use crate::web::extract::ActingAs;
use crate::web::extract::{AdminStaff, AnyStaff};
use crate::web::json::ApiJson;
use crate::web::openapi::ErrorResponse;
use crate::web::state::AppState;
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
    cfg.service(list_tables)
        .service(create_table)
        .service(update_table);
}

/// A table, with the game it runs.
#[derive(Debug, Serialize, ToSchema)]
pub struct TableOut {
    pub id: i64,
    pub number: i32,
    pub seats: i32,
    #[schema(value_type = Option<i64>)]
    pub game_id: Option<GameId>,
    /// continuous | session
    pub mode: String,
    pub state: String,
    pub active: bool,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub game: Option<GameOut>,
    /// The limits the table plays now (PT-2007 22: its own in play, else its game's).
    pub limits: Option<crate::web::api::limits::LimitsOut>,
}

impl TableOut {
    fn new(t: &TableRow, game: Option<&GameRow>) -> Self {
        TableOut {
            id: t.id.get(),
            number: t.number,
            seats: t.seats,
            game_id: t.game_id,
            mode: t.mode.clone(),
            state: t.state.to_string(),
            active: t.active,
            created_at: utc(t.created_at),
            updated_at: utc(t.updated_at),
            game: game.map(GameOut::from),
            limits: services::limits::of(t, game).map(Into::into),
        }
    }
}

/// Every table by number, each with its game.
#[utoipa::path(
    tag = "games", responses((status = 200, body = [TableOut]), (status = 401, body = ErrorResponse)))]
#[get("/tables")]
pub async fn list_tables(
    st: web::Data<AppState>,
    _who: AnyStaff,
) -> AppResult<web::Json<Vec<TableOut>>> {
    let rows = st.run(|_, conn| services::games::list_tables(conn)).await?;
    Ok(web::Json(
        rows.iter()
            .map(|(t, g)| TableOut::new(t, g.as_ref()))
            .collect(),
    ))
}

/// Reads a table's game for the answer (in the same transaction as the change).
fn table_game(conn: &mut crate::db::DbConn, t: &TableRow) -> AppResult<Option<GameRow>> {
    t.game_id
        .map(|g| services::games::get_game(conn, g))
        .transpose()
}

/// Creates a table (admin).
#[utoipa::path(
    tag = "games",
    request_body = TableInput,
    responses(
        (status = 201, body = TableOut),
        (status = 403, body = ErrorResponse),
        (status = 409, description = "Table number taken", body = ErrorResponse),
        (status = 422, body = ErrorResponse),
    )
)]
#[post("/tables")]
pub async fn create_table(
    st: web::Data<AppState>,
    who: ActingAs<AdminStaff>,
    body: Result<ApiJson<TableInput>, actix_web::Error>,
) -> AppResult<HttpResponse> {
    // The role is checked before the body is looked at.
    let body = body?;
    let acting = who.acting;
    let t = body.into_inner();
    let (row, game) = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            let row = services::games::create_table(conn, act, &t)?;
            let game = table_game(conn, &row)?;
            Ok((row, game))
        })
        .await?;
    Ok(HttpResponse::Created().json(TableOut::new(&row, game.as_ref())))
}

/// Changes a table (admin).
#[utoipa::path(
    tag = "games",
    params(("id" = i64, Path, description = "Table id")),
    request_body = TableInput,
    responses(
        (status = 200, body = TableOut),
        (status = 403, body = ErrorResponse),
        (status = 404, body = ErrorResponse),
        (status = 409, description = "Table number taken", body = ErrorResponse),
        (status = 422, body = ErrorResponse),
    )
)]
#[put("/tables/{id}")]
pub async fn update_table(
    st: web::Data<AppState>,
    who: ActingAs<AdminStaff>,
    path: web::Path<TableId>,
    body: Result<ApiJson<TableInput>, actix_web::Error>,
) -> AppResult<web::Json<TableOut>> {
    // The role is checked before the body is looked at.
    let body = body?;
    let id = path.into_inner();
    let acting = who.acting;
    let t = body.into_inner();
    let (row, game) = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            let row = services::games::update_table(conn, act, id, &t)?;
            let game = table_game(conn, &row)?;
            Ok((row, game))
        })
        .await?;
    Ok(web::Json(TableOut::new(&row, game.as_ref())))
}
