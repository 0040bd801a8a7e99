//! A player's page: the record, bans, separations, lists and history; and their photo.

use crate::db::models::{AuditRow, ExclusionRow, GameRow, PlayerRow, SeparationRow};
use crate::domain::eligibility::Ineligible;
use crate::domain::ids::GameId;
use crate::domain::ids::PlayerId;
use crate::domain::player::{id_warnings, Warning};
use crate::error::AppResult;
use crate::services::players::{self as svc};
use crate::services::{self};
use crate::web::ctx::Ctx;
use crate::web::extract::RegistryReader;
use crate::web::pages::player_link::PrefForm;
use crate::web::pages::{ctx, render};
use crate::web::state::AppState;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use serde::Deserialize;

#[derive(Template)]
#[template(path = "players/show.html")]
pub(super) struct ShowPage {
    pub(super) c: Ctx,
    pub(super) p: PlayerRow,
    pub(super) age: i32,
    pub(super) ineligible: Vec<Ineligible>,
    pub(super) warnings: Vec<String>,
    pub(super) bans: Vec<(ExclusionRow, bool)>,
    pub(super) separations: Vec<(SeparationRow, PlayerRow)>,
    /// The player's history, each record with who did it in the reader's language.
    pub(super) history: Vec<(AuditRow, String)>,
    /// What just happened to the player's link (`?link=sent|revoked`).
    pub(super) link_notice: Option<String>,
    /// "Record saved" after a registration or an edit (`?saved=new|edit`), naming the player.
    pub(super) saved_notice: Option<String>,
    /// The games whose lists the player can be added to from here (active games).
    pub(super) games: Vec<GameRow>,
    /// The games whose lists the player is on now.
    pub(super) on_lists: Vec<GameId>,
    /// After "add to a list": the lists joined, named.
    pub(super) joined_notice: Option<String>,
    /// After "add to a list": each list that refused, with why.
    pub(super) refused: Vec<String>,
    /// The call-in box as it was sent (kept on a refusal).
    pub(super) call_in: bool,
    /// The seat-preference form (as typed when refused, else as stored), its
    /// refusal, and whether it was just saved.
    pub(super) pref: PrefForm,
    pub(super) pref_error: Option<String>,
    pub(super) pref_saved: bool,
    /// BSOP 16-22: the rulings that involved the player (shown to the floor; BSOP 22).
    pub(super) rulings: Vec<crate::services::rulings::RulingLine>,
    /// PT-ONL 65-67: the player's cash-outs with their receipts, newest first.
    pub(super) cash_outs: Vec<crate::services::table_side::CashOutReceipt>,
}

#[derive(Deserialize)]
pub(super) struct ShowQuery {
    link: Option<String>,
    /// `saved` after the seat preference was saved.
    pref: Option<String>,
    saved: Option<String>,
    /// Game ids joined from this page (`3,5`).
    joined: Option<String>,
}

/// Who did a history record, in the reader's language. A player acting through their own
/// link is stored as `player #37 (own link)` (the audit trail is not rewritten): said here.
fn actor_label(c: &Ctx, h: &AuditRow) -> String {
    if h.actor_id.is_none() {
        if let Some(n) = h
            .actor_name
            .strip_prefix("player #")
            .and_then(|r| r.strip_suffix(" (own link)"))
            .filter(|n| n.chars().all(|d| d.is_ascii_digit()))
        {
            return c.t1("players-actor-own-link", "id", n);
        }
        if h.actor_name == "system" {
            return c.t("players-actor-system");
        }
    }
    h.actor_name.clone()
}

pub(super) async fn show_page(
    req: &HttpRequest,
    st: &AppState,
    who: &crate::web::extract::Authed,
    id: i64,
) -> AppResult<ShowPage> {
    let c = ctx(req, st, who).await?;
    let now = c.now;
    let tz = c.tz;
    let (p, ineligible, bans, separations, history, (games, on_lists, pref, rulings, cash_outs)) =
        st.run(move |_, conn| {
            let p = svc::get(conn, PlayerId(id))?;
            let inel = svc::eligibility(conn, &p, now, tz)?;
            let bans = svc::exclusions_of(conn, PlayerId(id), now)?;
            let seps = svc::separations_of(conn, PlayerId(id))?;
            let hist = services::audit::history(conn, "player", id, 50)?;
            let games = services::games::list_games(conn)?
                .into_iter()
                .filter(|g| g.active)
                .collect::<Vec<_>>();
            let on = svc::lists_of(conn, PlayerId(id))?;
            let pref = services::seat_prefs::get(conn, PlayerId(id))?;
            let rulings = services::rulings::of_player(conn, PlayerId(id), 50)?;
            let cash_outs = services::table_side::cash_outs_of(conn, PlayerId(id), 50)?;
            Ok((
                p,
                inel,
                bans,
                seps,
                hist,
                (games, on, pref, rulings, cash_outs),
            ))
        })
        .await?;
    let today = crate::domain::age::room_date(now, tz);
    let warnings = id_warnings(p.doc_expiry, today)
        .into_iter()
        .map(|Warning::IdExpiresSoon { on, days }| {
            c.i18n.msg(
                c.lang,
                "warn-id-expires",
                &[("date", on.to_string()), ("days", days.to_string())],
            )
        })
        .collect();
    let age = crate::domain::age::age_on(p.date_of_birth, today);
    let history = history
        .into_iter()
        .map(|h| {
            let who = actor_label(&c, &h);
            (h, who)
        })
        .collect();
    Ok(ShowPage {
        c,
        p,
        age,
        ineligible,
        warnings,
        bans,
        separations,
        history,
        link_notice: None,
        saved_notice: None,
        games,
        on_lists,
        joined_notice: None,
        refused: Vec::new(),
        call_in: false,
        pref: PrefForm::of(&pref),
        pref_error: None,
        pref_saved: false,
        rulings,
        cash_outs,
    })
}

/// The names of the games with these ids, in the order given, as one phrase ("PLO 2/5, NLH 1/2").
fn game_names(games: &[GameRow], ids: &[GameId]) -> String {
    ids.iter()
        .filter_map(|id| games.iter().find(|g| g.id == *id))
        .map(|g| g.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

pub(super) async fn show(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: RegistryReader,
    path: web::Path<i64>,
    q: web::Query<ShowQuery>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let q = q.into_inner();
    let mut page = show_page(&req, &st, &who.0, id).await?;
    page.link_notice = match q.link.as_deref() {
        Some("sent") => Some("players-link-sent"),
        Some("revoked") => Some("players-links-revoked"),
        _ => None,
    }
    .map(str::to_string);
    // A visible confirmation after saving, naming the player (the name is read
    // from the record, never from the address).
    page.saved_notice = match q.saved.as_deref() {
        Some("new") => Some("players-saved-new"),
        Some("edit") => Some("players-saved-edit"),
        _ => None,
    }
    .map(|k| page.c.t1(k, "name", &page.p.full_name));
    page.pref_saved = q.pref.as_deref() == Some("saved");
    if let Some(j) = q.joined.as_deref() {
        let ids: Vec<GameId> = j
            .split(',')
            .filter_map(|x| x.trim().parse().ok())
            .take(50)
            .collect();
        let names = game_names(&page.games, &ids);
        if !names.is_empty() {
            page.joined_notice = Some(page.c.i18n.msg(
                page.c.lang,
                "players-lists-joined",
                &[("name", page.p.full_name.clone()), ("lists", names)],
            ));
        }
    }
    render(StatusCode::OK, &page)
}

pub(super) async fn photo_file(
    st: web::Data<AppState>,
    _who: RegistryReader,
    path: web::Path<PlayerId>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let ph = st.run(move |_, conn| svc::photo(conn, id)).await?;
    Ok(HttpResponse::Ok()
        .content_type(ph.content_type)
        .insert_header(("Cache-Control", "private, no-store"))
        .body(ph.data))
}
