//! The lobby board: a read-only screen for the room (no sign-in), made for a TV at 1920×1080
//! read from across the room: dark unless the room or the device chooses light, the games as
//! cards that fit the screen and page through when they do not (`lobby.js`), who is called now,
//! the free seats, the room's clock and the QR code to join from a phone. BSOP 24: buy-in
//! minimum and maximum are shown; players appear by their public alias only — never names or
//! documents.

use super::render;
use crate::domain::limits::Limits;
use crate::error::AppResult;
use crate::services;
use crate::web::ctx::Ctx;
use crate::web::state::AppState;
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
    /// Aliases at the top of the list, in order (the first [`WAITING_SHOWN`]).
    pub waiting: Vec<String>,
    /// The players called to a seat of the game now (PT-2007 8a, BSOP 43), oldest call first.
    pub called: Vec<CalledNow>,
    /// Everyone on the list.
    pub waiting_total: usize,
    pub needed: Option<usize>,
    /// The wait of a player joining now (`services::waits`, as `/join` shows it).
    pub wait: Option<crate::domain::waits::WaitEstimate>,
    /// BSOP 24, PT-2007 22: the tables of this game playing other limits than the game's, and
    /// the changes coming at its tables.
    pub limits: Vec<TableLimits>,
}

/// A player called to a seat, as the lobby shows the call: alias and table.
#[derive(Serialize)]
pub struct CalledNow {
    pub alias: String,
    pub table: i32,
}

/// How many of a list's players a game's card names (the rest are counted): the card keeps a
/// height that lets two rows of games share the screen.
pub const WAITING_SHOWN: usize = 6;

impl BoardGame {
    /// Free seats and players waiting at once: the lobby says the calls are under way, so that
    /// nobody reads "22 waiting" beside "36 free seats" as a list that does not move.
    pub fn calling(&self) -> bool {
        self.seats_free > 0 && self.waiting_total > 0
    }

    /// The players on the list beyond those named.
    pub fn waiting_more(&self) -> usize {
        self.waiting_total.saturating_sub(self.waiting.len())
    }
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
                .filter(|t| t.table.game_id == Some(l.game.id) && t.table.state.in_play())
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
            let mut called: Vec<(chrono::NaiveDateTime, CalledNow)> = tables
                .iter()
                .flat_map(|t| {
                    t.calls().into_iter().map(move |(c, alias)| {
                        (
                            c.called_at,
                            CalledNow {
                                alias: alias.clone(),
                                table: t.table.number,
                            },
                        )
                    })
                })
                .collect();
            called.sort_by_key(|(at, _)| *at);
            BoardGame {
                limits,
                called: called.into_iter().map(|(_, c)| c).collect(),
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
                waiting: l
                    .lines
                    .iter()
                    .take(WAITING_SHOWN)
                    .map(|x| x.player.alias.clone())
                    .collect(),
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
    /// The join page's short address, beside its QR code (`/join/qr.svg`).
    join_address: String,
}

#[derive(Template)]
#[template(path = "lobby_live.html")]
struct BoardLive {
    c: Ctx,
    games: Vec<BoardGame>,
    /// Shown with the QR code when the room has no game.
    join_address: String,
}

async fn data(req: &HttpRequest, st: &AppState) -> AppResult<(Ctx, Vec<BoardGame>)> {
    let now = st.clock.now();
    let (room, d) = st
        .run(move |st, conn| {
            let room = services::room::get(conn)?;
            let d = services::floor::dashboard(conn, &st.waits, now, &room.profile)?;
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
    let join_address = super::join::short_join_address(&st);
    render(
        StatusCode::OK,
        &BoardLive {
            c,
            games,
            join_address,
        },
    )
}
