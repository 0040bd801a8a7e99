//! The floor board's moving parts: a table's panel, the live update that
//! re-renders only the tiles and lists an event touched, and the toast that says what the
//! last action did.

use super::floor::{load_since, LastDraws};
use super::{ctx, render};
use crate::domain::player::Language;
use crate::domain::states::CallState;
use crate::domain::states::EntryState;
use crate::domain::table::TableState;
use crate::error::{AppError, AppResult};
use crate::i18n::I18n;
use crate::services::floor::{Dashboard, TableView};
use crate::services::table_side::FloorAlerts;
use crate::web::ctx::Ctx;
use crate::web::extract::FloorStaff;
use crate::web::state::AppState;
use actix_web::cookie::{time::Duration as CookieDuration, Cookie, SameSite};
use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use serde::Deserialize;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/floor/panel", web::get().to(panel))
        .route("/floor/board", web::get().to(board_update))
        .route("/floor/colours.css", web::get().to(colours));
}

/// The board's search and game filter, as the address carries them.
#[derive(Debug, Default, Clone)]
pub struct BoardFilter {
    pub q: String,
    pub game: Option<i64>,
}

/// The table whose panel a form was sent from (`/floor?table=N` as its referrer): the floor
/// comes back to it after the action.
pub fn panel_of_referer(req: &HttpRequest) -> Option<i32> {
    let r = req.headers().get(header::REFERER)?.to_str().ok()?;
    let rest = r
        .strip_prefix("http://")
        .or_else(|| r.strip_prefix("https://"))?;
    let (host, path) = rest.split_once('/')?;
    if host != req.connection_info().host() {
        return None;
    }
    let query = path.strip_prefix("floor?")?;
    let query = query.split('#').next().unwrap_or("");
    serde_urlencoded::from_str::<Vec<(String, String)>>(query)
        .ok()?
        .into_iter()
        .find(|(k, _)| k == "table")
        .and_then(|(_, v)| v.trim().parse().ok())
}

/// What an action did, to be said on the dashboard it lands on: a message key with its
/// arguments, and the address that undoes it, if it can be undone — or, for an action asked
/// for the first time that frees a seat, the address that does it on the second tap.
pub struct Said {
    pub key: &'static str,
    pub args: Vec<(&'static str, String)>,
    pub undo: Option<String>,
    pub confirm: Option<String>,
}

impl Said {
    pub fn new(key: &'static str) -> Said {
        Said {
            key,
            args: Vec::new(),
            undo: None,
            confirm: None,
        }
    }

    pub fn arg(mut self, name: &'static str, value: impl ToString) -> Said {
        self.args.push((name, value.to_string()));
        self
    }

    pub fn undo(mut self, path: String) -> Said {
        self.undo = Some(path);
        self
    }

    /// The second tap's address (only `/floor/seatings/{id}/leave`).
    pub fn confirm(mut self, path: String) -> Said {
        self.confirm = Some(path);
        self
    }

    /// In the user's language.
    pub fn flash(&self, i18n: &I18n, lang: Language) -> Flash {
        Flash {
            text: i18n.msg(lang, self.key, &self.args),
            undo: self.undo.clone(),
            confirm: self.confirm.clone(),
        }
    }
}

/// The toast after an action: carried by a short-lived cookie across the redirect, shown
/// once (the dashboard clears it).
#[derive(Debug, Clone)]
pub struct Flash {
    pub text: String,
    /// Where a form undoes the action (only `/floor/entries/{id}/restore`).
    pub undo: Option<String>,
    /// Where a form confirms a seat-ending action (only `/floor/seatings/{id}/leave`): the
    /// first tap said what would happen and changed nothing.
    pub confirm: Option<String>,
}

const FLASH_COOKIE: &str = "floor_done";

impl Flash {
    pub fn set(&self, res: &mut HttpResponse) {
        let mut pairs = vec![("m", self.text.chars().take(300).collect::<String>())];
        if let Some(u) = &self.undo {
            pairs.push(("u", u.clone()));
        }
        if let Some(k) = &self.confirm {
            pairs.push(("k", k.clone()));
        }
        let value = serde_urlencoded::to_string(pairs).unwrap_or_default();
        let c = Cookie::build(FLASH_COOKIE, value)
            .path("/floor")
            .http_only(true)
            .same_site(SameSite::Strict)
            .max_age(CookieDuration::seconds(30))
            .finish();
        let _ = res.add_cookie(&c);
    }

    /// The toast the last action left, if any. The undo address is only ever a restore of a
    /// list entry (a cookie is the browser's: nothing else may come through it).
    pub fn read(req: &HttpRequest) -> Option<Flash> {
        let c = req.cookie(FLASH_COOKIE)?;
        let pairs: Vec<(String, String)> = serde_urlencoded::from_str(c.value()).ok()?;
        let mut f = Flash {
            text: String::new(),
            undo: None,
            confirm: None,
        };
        for (k, v) in pairs {
            match k.as_str() {
                "m" => f.text = v.chars().take(300).collect(),
                "u" if is_restore_path(&v) => f.undo = Some(v),
                "k" if is_leave_path(&v) => f.confirm = Some(v),
                _ => {}
            }
        }
        (!f.text.is_empty()).then_some(f)
    }

    pub fn clear(res: &mut HttpResponse) {
        let mut c = Cookie::build(FLASH_COOKIE, "").path("/floor").finish();
        c.make_removal();
        let _ = res.add_cookie(&c);
    }
}

fn is_leave_path(p: &str) -> bool {
    p.strip_prefix("/floor/seatings/")
        .and_then(|r| r.strip_suffix("/leave"))
        .is_some_and(|id| !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()))
}

fn is_restore_path(p: &str) -> bool {
    p.strip_prefix("/floor/entries/")
        .and_then(|r| r.strip_suffix("/restore"))
        .is_some_and(|id| !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()))
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
    tables: Vec<i64>,
    games: Vec<i64>,
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
        self.d.tables.iter().find(|v| v.table.id == id)
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
    let tables = ids(&q.t);
    let mut games = ids(&q.g);
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
