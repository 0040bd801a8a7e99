//! From a player's page: the seat preference and putting the player on waiting lists.

use super::show::show_page;
use crate::domain::ids::GameId;
use crate::domain::ids::PlayerId;
use crate::domain::Problem;
use crate::error::{AppError, AppResult};
use crate::services::players::{self as svc};
use crate::services::{self};
use crate::web::extract::{check_csrf, ActingAs, FloorStaff};
use crate::web::pages::player_link::PrefForm;
use crate::web::pages::{render, see_other};
use crate::web::state::AppState;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;

/// `POST /players/{id}/seat-preference`: the floor states a player's seat
/// preference for them. Saved: back to the record; refused: the record again (422) with the
/// reason next to the form and what was typed.
pub(super) async fn set_pref(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<PlayerId>,
    form: web::Form<CsrfPrefForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let CsrfPrefForm { csrf, pref: typed } = form.into_inner();
    check_csrf(&req, csrf.as_deref())?;
    let refusal = match typed.parse() {
        Ok(pref) => {
            let acting = who.acting;
            match st
                .write(move |_, conn| {
                    let act = &acting.in_room(conn)?;
                    services::seat_prefs::set(conn, act, id, &pref)
                })
                .await
            {
                Ok(_) => return Ok(see_other(&format!("/players/{id}?pref=saved#seat-pref"))),
                Err(e @ AppError::Validation(_)) => e,
                Err(e) => return Err(e),
            }
        }
        Err(errs) => AppError::Validation(errs),
    };
    let mut page = show_page(&req, &st, &who.who.0, id.get()).await?;
    page.pref_error = Some(crate::web::errors::refusal_text(
        &st.i18n,
        page.c.lang,
        &refusal,
    ));
    page.pref = typed;
    render(StatusCode::UNPROCESSABLE_ENTITY, &page)
}

/// The seat-preference form with the page's CSRF token.
#[derive(Deserialize)]
pub(super) struct CsrfPrefForm {
    csrf: Option<String>,
    #[serde(flatten)]
    pref: PrefForm,
}

/// "Add to a list" on the player's record: the lists ticked, as the call-in box
/// says.
#[derive(Deserialize)]
pub(super) struct JoinListsForm {
    /// Game ids, one per ticked box (`game=3&game=5`).
    #[serde(default)]
    game: Vec<String>,
    call_in: Option<String>,
}

/// Adds the player to every list ticked, each through the floor's own join (same rules, same
/// audit record and messages). A list that refuses is named with its reason and the others
/// are joined — what a floor manager expects at the desk. All joined: back to the record
/// with the lists named; any refused: the record with the refusals on top.
pub(super) async fn join_lists(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<PlayerId>,
    body: web::Bytes,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    // Repeated `game` keys: read as pairs (serde_urlencoded keeps only one into a Vec).
    let pairs: Vec<(String, String)> = serde_urlencoded::from_bytes(&body)
        .map_err(|e| AppError::BadRequest(Problem::new("err-form").arg("detail", e)))?;
    let field = |k: &str| pairs.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
    check_csrf(&req, field("csrf").as_deref())?;
    crate::web::text::check_pairs(&pairs)?;
    let f = JoinListsForm {
        game: pairs
            .iter()
            .filter(|(k, _)| k == "game")
            .map(|(_, v)| v.clone())
            .collect(),
        call_in: field("call_in"),
    };
    let mut ids: Vec<GameId> = Vec::new();
    for g in &f.game {
        match g.trim().parse::<GameId>() {
            Ok(n) if !ids.contains(&n) => ids.push(n),
            Ok(_) => {}
            Err(_) => return Err(AppError::field("game", "err-game-unknown")),
        }
    }
    if ids.is_empty() {
        return Err(AppError::field("game", "err-choose-a-list"));
    }
    let call_in = f.call_in.is_some();
    let acting = who.acting;
    let gids = ids.clone();
    let outcomes = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            svc::join_lists(conn, act, id, &gids, call_in)
        })
        .await?;
    let joined: Vec<GameId> = outcomes
        .iter()
        .filter(|o| o.result.is_ok())
        .map(|o| o.game_id)
        .collect();
    if joined.len() == outcomes.len() {
        let list = joined
            .iter()
            .map(GameId::to_string)
            .collect::<Vec<_>>()
            .join(",");
        return Ok(see_other(&format!("/players/{id}?joined={list}#lists")));
    }
    let mut page = show_page(&req, &st, &who.who.0, id.get()).await?;
    page.call_in = call_in;
    let names: Vec<String> = outcomes
        .iter()
        .filter(|o| o.result.is_ok())
        .map(|o| o.game.clone())
        .collect();
    if !names.is_empty() {
        page.joined_notice = Some(page.c.i18n.msg(
            page.c.lang,
            "players-lists-joined",
            &[
                ("name", page.p.full_name.clone()),
                ("lists", names.join(", ")),
            ],
        ));
    }
    let mut status = StatusCode::OK;
    for o in &outcomes {
        if let Err(e) = &o.result {
            if names.is_empty() && status == StatusCode::OK {
                // Nothing was joined: the answer is the (first) refusal's.
                status = actix_web::ResponseError::status_code(e);
            }
            let why = crate::web::errors::refusal_text(&st.i18n, page.c.lang, e);
            page.refused.push(page.c.i18n.msg(
                page.c.lang,
                "players-list-refused",
                &[("list", o.game.clone()), ("reason", why)],
            ));
        }
    }
    render(status, &page)
}
