//! The lobby board: a read-only screen for the room (no sign-in). BSOP 24: buy-in minimum and
//! maximum are shown; players appear by their public alias only — never names or documents.

use super::render;
use crate::domain::limits::Limits;
use crate::error::AppResult;
use crate::services;
use crate::state::AppState;
use crate::web::ctx::Ctx;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use serde::Serialize;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/lobby", web::get().to(board))
        .route("/lobby/live", web::get().to(live));
}

/// One game on the board.
#[derive(Serialize)]
pub struct BoardGame {
    pub name: String,
    pub small_blind: i64,
    pub big_blind: i64,
    pub buy_in_min: i64,
    pub buy_in_max: Option<i64>,
    pub tables: Vec<i32>,
    pub seats_free: usize,
    /// Aliases at the top of the list, in order.
    pub waiting: Vec<String>,
    /// Everyone on the list.
    pub waiting_total: usize,
    pub needed: Option<usize>,
    /// The wait of a player joining now (`services::waits`, as `/join` shows it).
    pub wait: Option<crate::domain::waits::WaitEstimate>,
    /// BSOP 24, PT-2007 22: the tables of this game playing other limits than the game's, and
    /// the changes coming at its tables.
    pub limits: Vec<TableLimits>,
}

/// A table of a game whose limits differ from the game's, or change soon (PT-2007 22).
#[derive(Serialize)]
pub struct TableLimits {
    pub table: i32,
    /// Its limits now, when they are not the game's.
    pub now: Option<Limits>,
    /// A pending change: the new limits and when ("from the next hand" or a time).
    pub coming: Option<(Limits, Option<chrono::NaiveDateTime>)>,
}

fn board_games(d: services::floor::Dashboard) -> Vec<BoardGame> {
    d.lists
        .into_iter()
        .map(|l| {
            let tables: Vec<&services::floor::TableView> = d
                .tables
                .iter()
                .filter(|t| {
                    t.table.game_id == Some(l.game.id)
                        && matches!(t.table.state.as_str(), "open" | "running" | "suspended")
                })
                .collect();
            let game_limits = services::limits::of_game(&l.game);
            let limits = tables
                .iter()
                .filter_map(|t| {
                    let now = t.limits.filter(|x| *x != game_limits);
                    let coming = t
                        .limit_change
                        .as_ref()
                        .map(|c| (services::limits::to_of(c), c.effective_at));
                    (now.is_some() || coming.is_some()).then_some(TableLimits {
                        table: t.table.number,
                        now,
                        coming,
                    })
                })
                .collect();
            BoardGame {
                limits,
                name: l.game.name.clone(),
                small_blind: l.game.small_blind,
                big_blind: l.game.big_blind,
                buy_in_min: l.game.buy_in_min,
                buy_in_max: l.game.buy_in_max,
                tables: tables.iter().map(|t| t.table.number).collect(),
                seats_free: tables
                    .iter()
                    .map(|t| {
                        t.seats
                            .iter()
                            .filter(|s| s.seating.is_none() && s.call.is_none() && !s.held)
                            .count()
                    })
                    .sum(),
                waiting: l.lines.iter().map(|x| x.player.alias.clone()).collect(),
                waiting_total: l.total,
                needed: l.needed,
                wait: l.join_wait,
            }
        })
        .collect()
}

#[derive(Template)]
#[template(path = "lobby.html")]
struct Board {
    c: Ctx,
    games: Vec<BoardGame>,
    /// Issue 18: the join page's short address, beside its QR code (`/join/qr.svg`).
    join_address: String,
}

#[derive(Template)]
#[template(path = "lobby_live.html")]
struct BoardLive {
    c: Ctx,
    games: Vec<BoardGame>,
}

async fn data(req: &HttpRequest, st: &AppState) -> AppResult<(Ctx, Vec<BoardGame>)> {
    let now = st.clock.now();
    let (room, d) = st
        .run(move |_, conn| {
            let room = services::room::get(conn)?;
            let d = services::floor::dashboard(conn, now, &room.profile)?;
            Ok((room, d))
        })
        .await?;
    let mut c = Ctx::new(req, st.i18n.clone(), &room, None, String::new(), now);
    // A screen in the room speaks the room's language unless the browser asks otherwise.
    if req.headers().get("accept-language").is_none()
        && req.cookie(crate::web::ctx::LANG_COOKIE).is_none()
    {
        c.lang = room.default_language;
    }
    Ok((c, board_games(d)))
}

async fn board(req: HttpRequest, st: web::Data<AppState>) -> AppResult<HttpResponse> {
    let (c, games) = data(&req, &st).await?;
    let join_address = super::join::short_join_address(&st);
    render(
        StatusCode::OK,
        &Board {
            c,
            games,
            join_address,
        },
    )
}

async fn live(req: HttpRequest, st: web::Data<AppState>) -> AppResult<HttpResponse> {
    let (c, games) = data(&req, &st).await?;
    render(StatusCode::OK, &BoardLive { c, games })
}
