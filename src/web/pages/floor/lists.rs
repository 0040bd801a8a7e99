//! The waiting lists from the dashboard: adding a player (found by what the floor typed),
//! removing and restoring an entry, checking a player in.

use super::act::{act, act_said};
use super::shared::Said;
use crate::domain::ids::EntryId;
use crate::domain::ids::GameId;
use crate::domain::ids::PlayerId;
use crate::error::{AppError, AppResult};
use crate::services::{self};
use crate::web::extract::{CsrfForm, FloorStaff};
use crate::web::state::AppState;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;

#[derive(Deserialize)]
pub(super) struct JoinForm {
    /// Player number or document number.
    player: String,
    call_in: Option<String>,
}

pub(super) async fn join(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<GameId>,
    form: CsrfForm<JoinForm>,
) -> AppResult<HttpResponse> {
    let game_id = path.into_inner();
    let f = form.0;
    let typed = f.player.clone();
    act_said(&req, &st, &who, typed, move |conn, a| {
        let player_id = find_player(conn, &f.player)?;
        let e = services::floor::join(conn, a, game_id, PlayerId(player_id), f.call_in.is_some())?;
        let (alias, game, _) =
            services::floor::names(conn, PlayerId(player_id), Some(game_id), None)?;
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
pub(super) fn find_player(conn: &mut crate::db::DbConn, typed: &str) -> AppResult<i64> {
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
        return Ok(id.get());
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
        ([one], _) => Ok(one.id.get()),
        (_, [one]) => Ok(one.id.get()),
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
pub(super) struct SuggestQuery {
    /// What is typed (`other`: the separation form's field on a player's record).
    #[serde(default, alias = "other")]
    player: String,
}

/// The type-ahead of the join form: players matching what is typed (name, alias, phone,
/// document or number), as `<option>`s of its datalist.
pub(super) async fn suggest_players(
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
pub(super) struct ReasonForm {
    pub(super) reason: Option<String>,
}

pub(super) async fn remove(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<EntryId>,
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
pub(super) async fn restore(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<EntryId>,
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
pub(super) struct Empty {}

pub(super) async fn check_in(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<EntryId>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    act(&req, &st, &who, move |conn, a| {
        services::floor::check_in(conn, a, id).map(|_| ())
    })
    .await
}
