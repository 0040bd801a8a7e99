//! The floor board's moving parts: a table's panel, the live update that
//! re-renders only the tiles and lists an event touched, and the toast that says what the
//! last action did.

use super::floor::board::{load_since, LastDraws};
use super::{ctx, render};
use crate::domain::ids::GameId;
use crate::domain::ids::TableId;
use crate::domain::states::CallState;
use crate::domain::states::EntryState;
use crate::domain::table::TableState;
use crate::error::{AppError, AppResult};
use crate::services::floor::{Dashboard, TableView};
use crate::services::table_side::FloorAlerts;
use crate::web::ctx::Ctx;
use crate::web::extract::FloorStaff;
use crate::web::state::AppState;
use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use serde::Deserialize;

pub use super::floor::shared::{panel_of_referer, BoardFilter, Flash, Said};

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/floor/panel", web::get().to(panel))
        .route("/floor/board", web::get().to(board_update))
        .route("/floor/colours.css", web::get().to(colours));
}

#[derive(Template)]
#[template(path = "floor/panel.html")]
struct Panel {
    c: Ctx,
    v: TableView,
    draws: LastDraws,
}

#[derive(Deserialize)]
struct PanelQuery {
    table: String,
}

/// A table's panel alone (the board loads it in place when a tile is clicked).
async fn panel(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    q: web::Query<PanelQuery>,
) -> AppResult<HttpResponse> {
    let n: i32 = q
        .table
        .trim()
        .parse()
        .map_err(|_| AppError::field("table", "err-number"))?;
    let c = ctx(&req, &st, &who.0).await?;
    let (d, _, _, draws) = load_since(&st, c.now).await?;
    let v = d
        .tables
        .into_iter()
        .find(|v| v.table.number == n)
        .ok_or(AppError::NotFound)?;
    render(StatusCode::OK, &Panel { c, v, draws })
}

#[derive(Template)]
#[template(path = "floor/board_update.html")]
struct Update {
    c: Ctx,
    d: Dashboard,
    a: FloorAlerts,
    draws: LastDraws,
    tables: Vec<TableId>,
    games: Vec<GameId>,
    panel: Option<i64>,
    oob: bool,
}

impl Update {
    fn tiles(&self) -> impl Iterator<Item = &TableView> {
        self.d
            .tables
            .iter()
            .filter(|v| self.tables.contains(&v.table.id))
    }

    fn lists(&self) -> impl Iterator<Item = &crate::services::floor::GameList> {
        self.d
            .lists
            .iter()
            .filter(|l| self.games.contains(&l.game.id))
    }

    fn panel_table(&self) -> Option<&TableView> {
        let id = self.panel?;
        self.d.tables.iter().find(|v| v.table.id == TableId(id))
    }
}

#[derive(Deserialize)]
struct UpdateQuery {
    /// Table ids, comma-separated.
    #[serde(default)]
    t: String,
    /// Game ids, comma-separated.
    #[serde(default)]
    g: String,
    /// The table (id) whose panel is open, if an event touched it.
    panel: Option<i64>,
}

/// At most this many tiles or lists per update (the board asks for a full refresh beyond).
const UPDATE_MAX: usize = 300;

fn ids(s: &str) -> Vec<i64> {
    s.split(',')
        .filter_map(|x| x.trim().parse().ok())
        .take(UPDATE_MAX)
        .collect()
}

/// The tiles and lists an event touched, the alerts, and the open panel if it was touched, as
/// out-of-band swaps: the board changes where something changed, nothing else moves (the
/// floor keeps its place and what it typed).
async fn board_update(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    q: web::Query<UpdateQuery>,
) -> AppResult<HttpResponse> {
    let c = ctx(&req, &st, &who.0).await?;
    let (d, a, _, draws) = load_since(&st, c.now).await?;
    let tables: Vec<TableId> = ids(&q.t).into_iter().map(TableId).collect();
    let mut games: Vec<GameId> = ids(&q.g).into_iter().map(GameId).collect();
    // A table's game list moves with its seats (a call, a seating take players off it).
    for v in d.tables.iter().filter(|v| tables.contains(&v.table.id)) {
        if let Some(g) = v.table.game_id {
            if !games.contains(&g) {
                games.push(g);
            }
        }
    }
    render(
        StatusCode::OK,
        &Update {
            c,
            d,
            a,
            draws,
            tables,
            games,
            panel: q.panel,
            oob: true,
        },
    )
}

/// Each game's board colour as a class (`.g12 { --g: #1f6feb }`): the pages' security policy
/// allows no inline styles, so the colours the admin sets come as a stylesheet, cached under
/// a version that changes with them.
async fn colours(st: web::Data<AppState>, _who: FloorStaff) -> AppResult<HttpResponse> {
    let games = st
        .run(|_, conn| crate::services::games::list_games(conn))
        .await?;
    let mut css = String::new();
    for g in &games {
        css.push_str(&format!(".g{} {{ --g: {}; }}\n", g.id, g.board_colour()));
    }
    Ok(HttpResponse::Ok()
        .content_type("text/css; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "private, max-age=86400"))
        .body(css))
}
