//! The floor dashboard: every list with positions, every table with its seats and pending
//! calls; actions post back here. The live part refreshes itself (htmx) without a reload.

use super::floor_board::{panel_of_referer, BoardFilter, Flash, Said};
use super::{ctx, render, see_other};
use crate::domain::draw::DrawKind;
use crate::domain::refusal::SeatRefusal;
use crate::domain::states::CallState;
use crate::domain::states::EntryState;
use crate::domain::table::TableState;
use crate::error::{AppError, AppResult};
use crate::services::table_side::FloorAlerts;
use crate::services::Act;
use crate::services::Acting;
use crate::services::{self, floor::Dashboard, floor::TableView};
use crate::web::ctx::Ctx;
use crate::web::extract::{CsrfForm, FloorStaff};
use crate::web::state::AppState;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use serde::Deserialize;
use std::collections::HashMap;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/floor", web::get().to(page))
        .route("/floor/live", web::get().to(live))
        .route("/floor/players", web::get().to(suggest_players))
        .route("/floor/lists/{game_id}/join", web::post().to(join))
        .route("/floor/entries/{id}/remove", web::post().to(remove))
        .route("/floor/entries/{id}/restore", web::post().to(restore))
        .route("/floor/entries/{id}/check-in", web::post().to(check_in))
        .route("/floor/tables/{id}/open", web::post().to(open_table))
        .route(
            "/floor/tables/{id}/seats/{seat}/call",
            web::post().to(call_next),
        )
        .route(
            "/floor/tables/{id}/seats/{seat}/call-chosen",
            web::post().to(call_chosen),
        )
        .route("/floor/calls/{id}/seat", web::post().to(confirm))
        .route("/floor/seatings/{id}/leave", web::post().to(leave))
        .route("/floor/tables/{id}/draw-seats", web::post().to(draw_seats))
        .route(
            "/floor/tables/{id}/draw-button",
            web::post().to(draw_button),
        )
        .route(
            "/floor/tables/{id}/draw-seats-extra",
            web::post().to(draw_seats_extra),
        )
        .route(
            "/floor/tables/{id}/draw-special/{kind}",
            web::post().to(draw_special),
        )
        .route(
            "/floor/seatings/{id}/seat-change",
            web::post().to(request_seat_change),
        )
        .route(
            "/floor/seat-changes/{id}/cancel",
            web::post().to(cancel_seat_change),
        )
        .route(
            "/floor/seatings/{id}/refuse-must-move",
            web::post().to(refuse_must_move),
        )
        .route("/floor/seatings/{id}/transfer", web::post().to(transfer))
        .route(
            "/floor/tables/{id}/seats/{seat}/hold",
            web::post().to(hold_seat),
        )
        .route("/floor/holds/{id}/release", web::post().to(release_hold))
        .route("/draws/{id:\\d+}.json", web::get().to(draw_json))
        .route("/draws/{id:\\d+}", web::get().to(show_draw))
        .route(
            "/floor/lists/{game_id}/draw-by-suits",
            web::post().to(draw_by_suits),
        );
}

#[derive(Template)]
#[template(path = "floor/dashboard.html")]
struct Page {
    c: Ctx,
    d: Dashboard,
    a: FloorAlerts,
    /// The last event this render includes: the live stream starts after it.
    since: i64,
    /// A refusal to show above everything (the action changed nothing).
    problem: Option<String>,
    /// The draw just made (`/floor?draw=N` after a draw): its result, linked to its record.
    draw: Option<services::draws::DrawView>,
    /// Each table's newest draw (table id → draw id), linked from the table.
    draws: LastDraws,
    /// The board's search and game filter (from the address: a reload keeps them).
    filter: BoardFilter,
    /// What was typed in the join form when it was refused (kept).
    typed: String,
    /// The table whose panel is open (`/floor?table=N`).
    panel: Option<TableView>,
    /// What the last action did, with its undo if it has one.
    done: Option<Flash>,
    /// Tiles and lists render for the page, not as out-of-band swaps.
    oob: bool,
}

#[derive(Template)]
#[template(path = "floor/live.html")]
struct Live {
    c: Ctx,
    d: Dashboard,
    a: FloorAlerts,
    oob: bool,
}

async fn load(
    st: &AppState,
    now: chrono::DateTime<chrono::Utc>,
) -> AppResult<(Dashboard, FloorAlerts, LastDraws)> {
    let (d, a, _, draws) = load_since(st, now).await?;
    Ok((d, a, draws))
}

/// The dashboard and the last event number read just before it (a change committed in
/// between is pushed again: at worst one extra refresh, never a missed one).
pub(super) async fn load_since(
    st: &AppState,
    now: chrono::DateTime<chrono::Utc>,
) -> AppResult<(Dashboard, FloorAlerts, i64, LastDraws)> {
    st.run(move |st, conn| {
        let since = crate::web::stream::last_seq(conn)?;
        let room = services::room::get(conn)?;
        let d = services::floor::dashboard(conn, &st.waits, now, &room.profile)?;
        let a = services::table_side::floor_alerts(conn, now, &room.profile)?;
        let draws = LastDraws(services::draws::latest_by_table(conn)?);
        Ok((d, a, since, draws))
    })
    .await
}

/// Each table's newest draw, linked from the table.
pub(super) struct LastDraws(HashMap<i64, i64>);

impl LastDraws {
    /// The newest draw of a table (templates pass the id by value or by reference).
    pub(super) fn of<T: std::borrow::Borrow<i64>>(&self, table: T) -> Option<i64> {
        self.0.get(table.borrow()).copied()
    }
}

#[derive(Deserialize)]
struct PageQuery {
    /// Set by the redirect after a draw: the dashboard names its result.
    draw: Option<i64>,
    /// The table (number) whose panel is open.
    table: Option<String>,
    /// The board's search.
    q: Option<String>,
    /// The board's game filter (a game id; empty: every game).
    game: Option<String>,
}

async fn page(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    q: web::Query<PageQuery>,
) -> AppResult<HttpResponse> {
    let c = ctx(&req, &st, &who.0).await?;
    let (d, a, since, draws) = load_since(&st, c.now).await?;
    // A draw id that does not exist (an old bookmark) shows no banner rather than an error.
    let draw = match q.draw {
        Some(id) => {
            st.run(move |_, conn| match services::draws::view(conn, id) {
                Ok(v) => Ok(Some(v)),
                Err(AppError::NotFound) => Ok(None),
                Err(e) => Err(e),
            })
            .await?
        }
        None => None,
    };
    let panel = q
        .table
        .as_deref()
        .and_then(|t| t.trim().parse::<i32>().ok())
        .and_then(|n| d.tables.iter().find(|v| v.table.number == n).cloned());
    let filter = BoardFilter {
        q: q.q.clone().unwrap_or_default().chars().take(60).collect(),
        game: q.game.as_deref().and_then(|g| g.trim().parse().ok()),
    };
    let done = Flash::read(&req);
    let mut res = render(
        StatusCode::OK,
        &Page {
            c,
            d,
            a,
            since,
            problem: None,
            draw,
            draws,
            filter,
            typed: String::new(),
            panel,
            done: done.clone(),
            oob: false,
        },
    )?;
    if done.is_some() {
        Flash::clear(&mut res);
    }
    Ok(res)
}

async fn live(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
) -> AppResult<HttpResponse> {
    let c = ctx(&req, &st, &who.0).await?;
    let (d, a, _) = load(&st, c.now).await?;
    render(
        StatusCode::OK,
        &Live {
            c,
            d,
            a,
            oob: false,
        },
    )
}

/// Runs a floor action in one write transaction, then shows the dashboard (or, refused, the
/// dashboard with the reason on top: nothing changed).
async fn act(
    req: &HttpRequest,
    st: &AppState,
    who: &FloorStaff,
    f: impl FnOnce(&mut crate::db::DbConn, &Act) -> AppResult<()> + Send + 'static,
) -> AppResult<HttpResponse> {
    act_to(req, st, who, move |conn, a| {
        f(conn, a).map(|()| "/floor".to_string())
    })
    .await
}

/// Like [`act`], but a success goes where the action says (e.g. a draw: the dashboard naming
/// its result).
async fn act_to(
    req: &HttpRequest,
    st: &AppState,
    who: &FloorStaff,
    f: impl FnOnce(&mut crate::db::DbConn, &Act) -> AppResult<String> + Send + 'static,
) -> AppResult<HttpResponse> {
    let r = run_act(st, who, f).await;
    done(req, st, who, r.map(|to| (to, None)), String::new()).await
}

/// Like [`act`], and the dashboard then says what happened (a toast naming the player, the
/// list or the seat). `typed`: what the form's player field held, kept if the
/// action is refused.
pub(super) async fn act_said(
    req: &HttpRequest,
    st: &AppState,
    who: &FloorStaff,
    typed: String,
    f: impl FnOnce(&mut crate::db::DbConn, &Act) -> AppResult<Said> + Send + 'static,
) -> AppResult<HttpResponse> {
    let r = run_act(st, who, f).await;
    done(
        req,
        st,
        who,
        r.map(|said| ("/floor".to_string(), Some(said))),
        typed,
    )
    .await
}

async fn run_act<T: Send + 'static>(
    st: &AppState,
    who: &FloorStaff,
    f: impl FnOnce(&mut crate::db::DbConn, &Act) -> AppResult<T> + Send + 'static,
) -> AppResult<T> {
    let acting = Acting::new(st.clock.now(), services::staff::actor(&who.0.staff));
    st.write(move |_, conn| {
        let act = acting.in_room(conn)?;
        f(conn, &act)
    })
    .await
}

/// Where the floor lands after a draw: the dashboard with the draw's result on top.
fn after_draw(id: i64) -> String {
    format!("/floor?draw={id}#draw-result")
}

/// After an action: back to the dashboard — with the table's panel open again when the form
/// was sent from it — or the dashboard with the refusal on top.
async fn done(
    req: &HttpRequest,
    st: &AppState,
    who: &FloorStaff,
    result: AppResult<(String, Option<Said>)>,
    typed: String,
) -> AppResult<HttpResponse> {
    let from_panel = panel_of_referer(req);
    match result {
        Ok((to, said)) => {
            let to = match (to.as_str(), from_panel) {
                ("/floor", Some(n)) => format!("/floor?table={n}"),
                // After a draw from a table's panel: its result, and the panel still open.
                (t, Some(n)) if t.starts_with("/floor?draw=") => match t.split_once('#') {
                    Some((a, b)) => format!("{a}&table={n}#{b}"),
                    None => format!("{t}&table={n}"),
                },
                _ => to,
            };
            let mut res = see_other(&to);
            if let Some(said) = said {
                let lang = crate::web::ctx::request_lang(req);
                said.flash(&st.i18n, lang).set(&mut res);
            }
            Ok(res)
        }
        Err(e @ (AppError::Conflict(_) | AppError::Validation(_) | AppError::NotFound)) => {
            let c = ctx(req, st, &who.0).await?;
            let (message, fields) = crate::web::errors::describe(&st.i18n, c.lang, &e);
            let detail: Vec<String> = fields.into_iter().map(|(_, _, m)| m).collect();
            let problem = if detail.is_empty() {
                message
            } else {
                format!("{message} {}", detail.join(" "))
            };
            let (d, a, since, draws) = load_since(st, c.now).await?;
            let panel =
                from_panel.and_then(|n| d.tables.iter().find(|v| v.table.number == n).cloned());
            render(
                actix_web::ResponseError::status_code(&e),
                &Page {
                    c,
                    d,
                    a,
                    since,
                    problem: Some(problem),
                    draw: None,
                    draws,
                    filter: BoardFilter::default(),
                    typed,
                    panel,
                    done: None,
                    oob: false,
                },
            )
        }
        Err(e) => Err(e),
    }
}

#[derive(Deserialize)]
struct JoinForm {
    /// Player number or document number.
    player: String,
    call_in: Option<String>,
}

async fn join(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<i64>,
    form: CsrfForm<JoinForm>,
) -> AppResult<HttpResponse> {
    let game_id = path.into_inner();
    let f = form.0;
    let typed = f.player.clone();
    act_said(&req, &st, &who, typed, move |conn, a| {
        let player_id = find_player(conn, &f.player)?;
        let e = services::floor::join(conn, a, game_id, player_id, f.call_in.is_some())?;
        let (alias, game, _) = services::floor::names(conn, player_id, Some(game_id), None)?;
        let place = services::floor::place_of(conn, game_id, e.id, a.now)?
            .map(|p| p.position)
            .unwrap_or_default();
        Ok(Said::new("board-did-join")
            .arg("alias", alias)
            .arg("game", game)
            .arg("place", place))
    })
    .await
}

/// A player typed at the desk: an entry of the type-ahead ("Alias — Name (#37)"), `#number`,
/// a document number, a player number, or a name, alias or phone that only one player has
///. Several matches: refused, naming them, so the floor picks one.
fn find_player(conn: &mut crate::db::DbConn, typed: &str) -> AppResult<i64> {
    let t = typed.trim();
    if t.is_empty() {
        return Err(AppError::field("player", "err-required"));
    }
    // A type-ahead entry ends with the player's number.
    let picked = t
        .strip_suffix(')')
        .and_then(|r| r.rsplit_once("(#"))
        .map(|(_, n)| format!("#{n}"));
    if let Some(id) = services::players::find_typed(conn, picked.as_deref().unwrap_or(t))? {
        return Ok(id);
    }
    if picked.is_some() {
        return Err(AppError::field("player", "err-player-unknown"));
    }
    let found = services::players::search(conn, t, 6)?;
    let folded = t.to_lowercase();
    let exact: Vec<&crate::db::models::PlayerRow> = found
        .iter()
        .filter(|p| p.alias.to_lowercase() == folded || p.full_name.to_lowercase() == folded)
        .collect();
    match (found.as_slice(), exact.as_slice()) {
        ([one], _) => Ok(one.id),
        (_, [one]) => Ok(one.id),
        ([], _) => Err(AppError::field("player", "err-player-unknown")),
        (many, _) => {
            let names: Vec<String> = many.iter().take(5).map(player_option).collect();
            Err(AppError::Validation(vec![crate::domain::FieldError::new(
                "player",
                "err-player-ambiguous",
            )
            .arg("typed", t.chars().take(40).collect::<String>())
            .arg("players", names.join(", "))]))
        }
    }
}

/// A player as the type-ahead offers them (and [`find_player`] reads back).
fn player_option(p: &crate::db::models::PlayerRow) -> String {
    if p.alias == p.full_name {
        format!("{} (#{})", p.alias, p.id)
    } else {
        format!("{} — {} (#{})", p.alias, p.full_name, p.id)
    }
}

#[derive(Deserialize)]
struct SuggestQuery {
    /// What is typed (`other`: the separation form's field on a player's record).
    #[serde(default, alias = "other")]
    player: String,
}

/// The type-ahead of the join form: players matching what is typed (name, alias, phone,
/// document or number), as `<option>`s of its datalist.
async fn suggest_players(
    st: web::Data<AppState>,
    _who: FloorStaff,
    q: web::Query<SuggestQuery>,
) -> AppResult<HttpResponse> {
    let typed: String = q.player.trim().chars().take(100).collect();
    let found = if typed.chars().count() < 2 || typed.ends_with(')') {
        Vec::new()
    } else {
        st.run(move |_, conn| {
            let mut v = services::players::search(conn, &typed, 8)?;
            if let Some(id) = services::players::find_typed(conn, &typed)? {
                if !v.iter().any(|p| p.id == id) {
                    v.insert(0, services::players::get(conn, id)?);
                }
            }
            Ok(v)
        })
        .await?
    };
    let mut html = String::new();
    for p in &found {
        let o = askama::filters::escape(player_option(p), askama::filters::Html)
            .map(|e| e.to_string())
            .unwrap_or_default();
        html.push_str(&format!("<option value=\"{o}\"></option>"));
    }
    Ok(HttpResponse::Ok()
        .content_type("text/html; charset=utf-8")
        .body(html))
}

#[derive(Deserialize)]
struct ReasonForm {
    reason: Option<String>,
}

async fn remove(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<i64>,
    form: CsrfForm<ReasonForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let reason = form.0.reason.unwrap_or_default();
    act_said(&req, &st, &who, String::new(), move |conn, a| {
        let e = services::floor::remove(conn, a, id, &reason)?;
        let (alias, game, _) = services::floor::names(conn, e.player_id, Some(e.game_id), None)?;
        Ok(Said::new("board-did-remove")
            .arg("alias", alias)
            .arg("game", game)
            .arg("seconds", services::floor::UNDO_REMOVAL_SECS)
            .undo(format!("/floor/entries/{id}/restore")))
    })
    .await
}

/// A removal from a list undone within seconds (the toast's "Undo").
async fn restore(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<i64>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    act_said(&req, &st, &who, String::new(), move |conn, a| {
        let e = services::floor::restore(conn, a, id)?;
        let (alias, game, _) = services::floor::names(conn, e.player_id, Some(e.game_id), None)?;
        let place = services::floor::place_of(conn, e.game_id, e.id, a.now)?
            .map(|p| p.position)
            .unwrap_or_default();
        Ok(Said::new("board-did-restore")
            .arg("alias", alias)
            .arg("game", game)
            .arg("place", place))
    })
    .await
}

#[derive(Deserialize)]
struct Empty {}

async fn check_in(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<i64>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    act(&req, &st, &who, move |conn, a| {
        services::floor::check_in(conn, a, id).map(|_| ())
    })
    .await
}

async fn open_table(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<i64>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    act(&req, &st, &who, move |conn, a| {
        services::floor::open_table(conn, a, id).map(|_| ())
    })
    .await
}

async fn call_next(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<(i64, i32)>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let (table_id, seat) = path.into_inner();
    act_said(&req, &st, &who, String::new(), move |conn, a| {
        let call = services::floor::call_next(conn, a, table_id, seat)?;
        let (alias, _, table) = services::floor::names(conn, call.player_id, None, Some(table_id))?;
        Ok(Said::new("board-did-call")
            .arg("alias", alias)
            .arg("table", table)
            .arg("seat", seat))
    })
    .await
}

#[derive(Deserialize)]
struct ChosenForm {
    /// The list entry of the player chosen.
    entry: Option<String>,
    reason: Option<String>,
}

/// A chosen player of the list called out of order, with the floor's reason.
async fn call_chosen(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<(i64, i32)>,
    form: CsrfForm<ChosenForm>,
) -> AppResult<HttpResponse> {
    let (table_id, seat) = path.into_inner();
    let f = form.0;
    act_said(&req, &st, &who, String::new(), move |conn, a| {
        let entry: i64 = f
            .entry
            .as_deref()
            .and_then(|e| e.trim().parse().ok())
            .ok_or_else(|| AppError::field("entry", "err-required"))?;
        let call = services::floor::call_chosen(
            conn,
            a,
            table_id,
            seat,
            entry,
            f.reason.as_deref().unwrap_or(""),
        )?;
        let (alias, _, table) = services::floor::names(conn, call.player_id, None, Some(table_id))?;
        Ok(Said::new("board-did-call")
            .arg("alias", alias)
            .arg("table", table)
            .arg("seat", seat))
    })
    .await
}

async fn confirm(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<i64>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    act_said(&req, &st, &who, String::new(), move |conn, a| {
        let s = services::floor::confirm_call(conn, a, id)?;
        let (alias, _, table) = services::floor::names(conn, s.player_id, None, Some(s.table_id))?;
        Ok(Said::new("board-did-seat")
            .arg("alias", alias)
            .arg("table", table)
            .arg("seat", s.seat_no))
    })
    .await
}

/// The floor's "Leaves" in a seat's menu: two taps. The first changes nothing and says on
/// the board who would leave which seat, with a confirmation; only the second (`confirm=1`)
/// ends the seating (and so frees the seat for the next call).
async fn leave(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<i64>,
    form: CsrfForm<LeaveForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let confirmed = form.0.confirm.as_deref().map(str::trim) == Some("1");
    let reason = form
        .0
        .reason
        .filter(|r| !r.trim().is_empty())
        .unwrap_or_else(|| "left".into());
    if !confirmed {
        return act_said(&req, &st, &who, String::new(), move |conn, _| {
            let s = services::floor::seating(conn, id)?;
            if s.left_at.is_some() {
                return Err(SeatRefusal::AlreadyLeft.into());
            }
            let (alias, _, table) =
                services::floor::names(conn, s.player_id, None, Some(s.table_id))?;
            Ok(Said::new("safe-leave-confirm")
                .arg("alias", alias)
                .arg("table", table)
                .arg("seat", s.seat_no)
                .confirm(format!("/floor/seatings/{id}/leave")))
        })
        .await;
    }
    act_said(&req, &st, &who, String::new(), move |conn, a| {
        let s = services::floor::leave(conn, a, id, &reason)?;
        let (alias, _, table) = services::floor::names(conn, s.player_id, None, Some(s.table_id))?;
        Ok(Said::new("board-did-leave")
            .arg("alias", alias)
            .arg("table", table)
            .arg("seat", s.seat_no))
    })
    .await
}

#[derive(Deserialize)]
struct LeaveForm {
    reason: Option<String>,
    /// `1` on the second tap.
    confirm: Option<String>,
}

async fn draw_seats(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<i64>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    act_to(&req, &st, &who, move |conn, a| {
        services::draws::start_game(conn, a, id).map(|r| after_draw(r.draw.id))
    })
    .await
}

async fn draw_button(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<i64>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    act_to(&req, &st, &who, move |conn, a| {
        services::draws::button(conn, a, id).map(|(row, _)| after_draw(row.id))
    })
    .await
}

/// BSOP 115, 116: the floor draws where a special button starts (again: with a reason).
async fn draw_special(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<(i64, String)>,
    form: CsrfForm<ReasonForm>,
) -> AppResult<HttpResponse> {
    let (id, kind) = path.into_inner();
    let kind: crate::domain::special_buttons::SpecialButton =
        kind.parse().map_err(|_| AppError::NotFound)?;
    let reason = form.0.reason;
    act_to(&req, &st, &who, move |conn, a| {
        services::special_buttons::draw(conn, a, id, kind, reason.as_deref())
            .map(|d| after_draw(d.draw.id))
    })
    .await
}

#[derive(Template)]
#[template(path = "floor/draw.html")]
struct DrawPage {
    c: Ctx,
    v: services::draws::DrawView,
    /// When the draw was made, in the room's zone, to the second (a dispute is about minutes).
    when: String,
}

/// A recorded draw as a person reads it: who drew which card, the resulting order or seats,
/// the seed, and the replay (recomputed now from the seed and inputs with the domain code).
async fn show_draw(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let c = ctx(&req, &st, &who.0).await?;
    let v = st
        .run(move |_, conn| services::draws::view(conn, id))
        .await?;
    let local = v.draw.created_at.and_utc().with_timezone(&c.tz);
    let when = match c.lang {
        crate::domain::player::Language::Pt => local.format("%d/%m/%Y %H:%M:%S"),
        crate::domain::player::Language::En => local.format("%d %b %Y %H:%M:%S"),
    };
    let when = format!("{when} ({})", c.tz);
    render(StatusCode::OK, &DrawPage { c, v, when })
}

/// The stored record, byte for byte as kept (kind, seed, inputs, result), as a download.
async fn draw_json(
    st: web::Data<AppState>,
    _who: FloorStaff,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let row = st
        .run(move |_, conn| services::draws::get(conn, id))
        .await?;
    // The stored text is the whole record; pretty-printed when it parses, as kept otherwise
    // (a damaged record must still be downloadable to be examined).
    let body = serde_json::from_str::<serde_json::Value>(&row.inputs)
        .and_then(|v| serde_json::to_string_pretty(&v))
        .unwrap_or(row.inputs);
    Ok(HttpResponse::Ok()
        .content_type("application/json")
        .insert_header((
            actix_web::http::header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"draw-{id}.json\""),
        ))
        .body(body))
}

// ---- moves and holds (BSOP 45, 49, 51, 55, 58; PT-2007 12, 26) --------------------------

/// PT-2007 12, BSOP 51: a seated player asks for another seat at the same table.
async fn request_seat_change(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<i64>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    act(&req, &st, &who, move |conn, a| {
        services::floor::request_seat_change(conn, a, id).map(|_| ())
    })
    .await
}

async fn cancel_seat_change(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<i64>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    act(&req, &st, &who, move |conn, a| {
        services::floor::cancel_seat_change(conn, a, id).map(|_| ())
    })
    .await
}

#[derive(Deserialize)]
struct RefusalForm {
    /// give_up | rejoin_later
    choice: Option<String>,
}

/// BSOP 55: a must-move player refused to move to the main game.
async fn refuse_must_move(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<i64>,
    form: CsrfForm<RefusalForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let choice = form
        .0
        .choice
        .as_deref()
        .and_then(|c| c.parse::<crate::domain::states::MustMoveChoice>().ok());
    match choice {
        None => {
            done(
                &req,
                &st,
                &who,
                Err(AppError::field("choice", "err-required")),
                String::new(),
            )
            .await
        }
        Some(choice) => {
            act(&req, &st, &who, move |conn, a| {
                services::floor::refuse_must_move(conn, a, id, choice).map(|_| ())
            })
            .await
        }
    }
}

#[derive(Deserialize)]
struct TransferForm {
    table_id: Option<i64>,
    cave_lost: Option<String>,
}

/// BSOP 58, PT-2007 26: a player moves to a similar table at their request.
async fn transfer(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<i64>,
    form: CsrfForm<TransferForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let f = form.0;
    match f.table_id {
        None => {
            done(
                &req,
                &st,
                &who,
                Err(AppError::field("table_id", "err-required")),
                String::new(),
            )
            .await
        }
        Some(to) => {
            let cave_lost = f.cave_lost.is_some();
            act(&req, &st, &who, move |conn, a| {
                services::floor::transfer(conn, a, id, to, cave_lost).map(|_| ())
            })
            .await
        }
    }
}

#[derive(Deserialize)]
struct HoldForm {
    /// The player it is held for (number or document number), or empty for a reservation.
    player: Option<String>,
    reason: Option<String>,
}

/// BSOP 45, 49: holds a free seat for a player, or reserves it with a reason.
async fn hold_seat(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<(i64, i32)>,
    form: CsrfForm<HoldForm>,
) -> AppResult<HttpResponse> {
    let (table_id, seat) = path.into_inner();
    let f = form.0;
    act(&req, &st, &who, move |conn, a| {
        let player = match f.player.as_deref().map(str::trim).filter(|p| !p.is_empty()) {
            Some(p) => Some(find_player(conn, p)?),
            None => None,
        };
        let reason = f
            .reason
            .as_deref()
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .map(|r| r.chars().take(500).collect::<String>());
        services::floor::hold_seat(conn, a, table_id, seat, player, reason.as_deref()).map(|_| ())
    })
    .await
}

async fn release_hold(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<i64>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    act(&req, &st, &who, move |conn, a| {
        services::floor::release_hold(conn, a, id).map(|_| ())
    })
    .await
}

/// PT-2007 25: several empty open tables of a game are filled by a draw by suits.
async fn draw_by_suits(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<i64>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let game_id = path.into_inner();
    act_to(&req, &st, &who, move |conn, a| {
        services::draws::start_tables_by_suit(conn, a, game_id).map(|r| after_draw(r.draw.id))
    })
    .await
}

/// BSOP 50: the start-of-game draw with one extra player.
async fn draw_seats_extra(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<i64>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    act_to(&req, &st, &who, move |conn, a| {
        services::draws::start_game_with_extra(conn, a, id).map(|r| after_draw(r.draw.id))
    })
    .await
}
