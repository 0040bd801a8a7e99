//! The admin's games: the list with the new-game form, and a game's edit page.

use super::{
    bp_to_percent, check_value, checkbox, just_saved, money_input, opts, saved_redirect, show,
    shown, summary, Opt, Parser, Shown, SumLine,
};
use crate::db::models::GameRow;
use crate::domain::game::{LimitClass, TablePolicy, Variant};
use crate::domain::ids::GameId;
use crate::domain::player::Language;
use crate::domain::profile::CagnotteMode;
use crate::domain::FieldError;
use crate::error::{AppError, AppResult};
use crate::services;
use crate::services::games::GameInput;
use crate::services::room::Room;
use crate::web::ctx::{Ctx, Errs, Vals};
use crate::web::extract::{ActingAs, AdminStaff, CsrfForm};
use crate::web::pages::{ctx, render};
use crate::web::state::AppState;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use serde::{Deserialize, Serialize};

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/admin/games", web::get().to(games_page))
        .route("/admin/games", web::post().to(game_create))
        .route("/admin/games/{id}", web::get().to(game_edit))
        .route("/admin/games/{id}", web::post().to(game_update));
}

const GAME_LABELS: &[(&str, &str)] = &[
    ("name", "admin-game-name"),
    ("variant", "admin-game-variant"),
    ("limit_class", "admin-game-limit"),
    ("small_blind", "admin-game-small-blind"),
    ("big_blind", "admin-game-big-blind"),
    ("buy_in_min", "admin-game-buy-in-min"),
    ("buy_in_max", "admin-game-buy-in-max"),
    ("seats", "admin-game-seats"),
    ("cagnotte_mode", "admin-game-cagnotte-mode"),
    ("cagnotte_bp", "admin-game-cagnotte-percent"),
    ("cagnotte_base", "admin-game-cagnotte-base"),
    ("rake_cap", "admin-game-rake-cap"),
    ("smallest_chip", "admin-game-smallest-chip"),
    ("colour", "admin-game-colour"),
    ("cucurucho", "buttons-cucurucho"),
    ("cucurucho_bb", "buttons-admin-cucurucho-bb"),
    ("macaca", "buttons-macaca"),
    ("macaca_bb", "buttons-admin-macaca-bb"),
    ("macaca_cap_bb", "buttons-admin-macaca-cap"),
];

/// The game form as posted: text only; amounts in major units.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(default)]
struct GameForm {
    name: String,
    variant: String,
    small_blind: String,
    big_blind: String,
    limit_class: String,
    buy_in_min: String,
    buy_in_max: String,
    /// Empty: the variant's default.
    seats: String,
    /// Empty: the profile's mode.
    cagnotte_mode: String,
    /// Typed in percent; empty: the profile's percentage for the mode.
    cagnotte_bp: String,
    /// table_max | cave (PT-2007 7b).
    #[serde(default)]
    cagnotte_base: String,
    /// Empty: no cap per hand.
    #[serde(default)]
    rake_cap: String,
    /// Empty: from the blinds (BSOP 80).
    #[serde(default)]
    smallest_chip: String,
    /// The board colour (`#rrggbb`).
    #[serde(default)]
    colour: String,
    /// BSOP 55, 58: must_move | balanced.
    #[serde(default)]
    table_policy: String,
    /// BSOP 115, 116: the special buttons (checkboxes: absent is off) and their figures in
    /// big blinds.
    cucurucho: Option<String>,
    cucurucho_bb: String,
    macaca: Option<String>,
    macaca_bb: String,
    macaca_cap_bb: String,
    /// Only on the edit form.
    active: Option<String>,
}

impl GameForm {
    fn from_row(g: &GameRow, currency: &str, lang: Language) -> GameForm {
        let banked = g.variant.parse::<Variant>().is_ok_and(|v| v.is_banked());
        let blind = |m: i64| {
            if banked && m == 0 {
                String::new()
            } else {
                money_input(m, currency, lang)
            }
        };
        GameForm {
            name: g.name.clone(),
            variant: g.variant.clone(),
            small_blind: blind(g.small_blind),
            big_blind: blind(g.big_blind),
            limit_class: g.limit_class.clone(),
            buy_in_min: money_input(g.buy_in_min, currency, lang),
            buy_in_max: g
                .buy_in_max
                .map(|m| money_input(m, currency, lang))
                .unwrap_or_default(),
            seats: g.seats.to_string(),
            cagnotte_mode: g.cagnotte_mode.clone(),
            cagnotte_bp: bp_to_percent(g.cagnotte_bp, lang),
            cagnotte_base: g.cagnotte_base.clone(),
            rake_cap: g
                .rake_cap
                .map(|m| money_input(m, currency, lang))
                .unwrap_or_default(),
            smallest_chip: g
                .smallest_chip
                .map(|m| money_input(m, currency, lang))
                .unwrap_or_default(),
            colour: g.board_colour().to_string(),
            table_policy: g.table_policy.clone(),
            cucurucho: check_value(g.cucurucho),
            cucurucho_bb: g.cucurucho_bb.to_string(),
            macaca: check_value(g.macaca),
            macaca_bb: g.macaca_bb.to_string(),
            macaca_cap_bb: g.macaca_cap_bb.to_string(),
            active: check_value(g.active),
        }
    }

    /// `editing`: the form has the `active` checkbox (absent = inactive).
    fn parse(&self, room: &Room, editing: bool) -> Result<GameInput, Vec<FieldError>> {
        let cur = room.currency.as_str();
        let mut p = Parser::default();
        // Banked games have no blinds: an empty blind box is zero.
        let g = GameInput {
            name: self.name.clone(),
            variant: self.variant.trim().to_string(),
            small_blind: p
                .money("small_blind", &self.small_blind, cur, Some(0))
                .unwrap_or(0),
            big_blind: p
                .money("big_blind", &self.big_blind, cur, Some(0))
                .unwrap_or(0),
            limit_class: self.limit_class.trim().to_string(),
            buy_in_min: p
                .money("buy_in_min", &self.buy_in_min, cur, None)
                .unwrap_or(0),
            buy_in_max: p.opt_money("buy_in_max", &self.buy_in_max, cur),
            seats: p.opt_int("seats", &self.seats),
            cagnotte_mode: Some(self.cagnotte_mode.trim().to_string()).filter(|s| !s.is_empty()),
            cagnotte_bp: p.opt_percent("cagnotte_bp", &self.cagnotte_bp),
            cagnotte_base: Some(self.cagnotte_base.trim().to_string()).filter(|s| !s.is_empty()),
            rake_cap: p.opt_money("rake_cap", &self.rake_cap, cur),
            smallest_chip: p.opt_money("smallest_chip", &self.smallest_chip, cur),
            active: editing.then(|| checkbox(&self.active)),
            colour: Some(self.colour.clone()),
            table_policy: Some(self.table_policy.trim().to_string()).filter(|s| !s.is_empty()),
            cucurucho: Some(checkbox(&self.cucurucho)),
            cucurucho_bb: p.opt_int("cucurucho_bb", &self.cucurucho_bb),
            macaca: Some(checkbox(&self.macaca)),
            macaca_bb: p.opt_int("macaca_bb", &self.macaca_bb),
            macaca_cap_bb: p.opt_int("macaca_cap_bb", &self.macaca_cap_bb),
        };
        p.finish(|| {
            let errs = services::games::check_game(&g, &room.profile)
                .err()
                .unwrap_or_default();
            services::in_currency(errs, cur)
        })?;
        Ok(g)
    }
}

/// What the game form offers, shared by the new and the edit form.
pub struct GameChoices {
    pub variants: Vec<Opt>,
    pub limits: Vec<Opt>,
    pub modes: Vec<Opt>,
    /// BSOP 55, 58: must-move or balanced.
    pub policies: Vec<Opt>,
    /// "Hold'em No Limit 10, …": the seats each variant gets by default.
    pub seat_defaults: String,
    /// The profile's cagnotte mode and percentages, for the "empty = default" hint.
    pub profile_cagnotte: String,
}

fn game_choices(c: &Ctx, room: &Room) -> GameChoices {
    let p = &room.profile;
    let seat_defaults = Variant::ALL
        .iter()
        .map(|v| format!("{} {}", c.tk("variant-", v), v.default_seats()))
        .collect::<Vec<_>>()
        .join(" · ");
    let profile_cagnotte = c.i18n.msg(
        c.lang,
        "admin-game-cagnotte-default",
        &[
            ("mode", c.tk("cagnotte-", p.cagnotte_mode)),
            ("hand", bp_to_percent(p.rake_percent_bp, c.lang)),
            ("session", bp_to_percent(p.session_percent_bp, c.lang)),
        ],
    );
    GameChoices {
        variants: opts(c, Variant::ALL, "variant-"),
        limits: opts(c, LimitClass::ALL, "limit-"),
        modes: opts(c, CagnotteMode::ALL, "cagnotte-"),
        policies: opts(c, TablePolicy::ALL, "table-policy-"),
        seat_defaults,
        profile_cagnotte,
    }
}

/// A game in the list, formatted.
pub struct GameLine {
    pub g: GameRow,
    pub blinds: String,
    pub buy_in: String,
    pub cagnotte: String,
}

fn game_line(c: &Ctx, g: GameRow) -> GameLine {
    let banked = g.variant.parse::<Variant>().is_ok_and(|v| v.is_banked());
    let blinds = if banked {
        "—".to_string()
    } else {
        format!("{} / {}", c.money(g.small_blind), c.money(g.big_blind))
    };
    let buy_in = match g.buy_in_max {
        Some(max) => format!("{} – {}", c.money(g.buy_in_min), c.money(max)),
        None => format!("{} – {}", c.money(g.buy_in_min), c.t("admin-game-no-max")),
    };
    let cagnotte = format!(
        "{} · {} %",
        c.tk("cagnotte-", &g.cagnotte_mode),
        bp_to_percent(g.cagnotte_bp, c.lang)
    );
    GameLine {
        g,
        blinds,
        buy_in,
        cagnotte,
    }
}

#[derive(Template)]
#[template(path = "admin/games.html")]
struct GamesPage {
    c: Ctx,
    games: Vec<GameLine>,
    v: Vals,
    errs: Errs,
    summary: Vec<SumLine>,
    problem: Option<String>,
    saved: bool,
    gc: GameChoices,
    /// None: the new-game form.
    game_id: Option<GameId>,
}

#[derive(Template)]
#[template(path = "admin/game_edit.html")]
struct GameEditPage {
    c: Ctx,
    v: Vals,
    errs: Errs,
    summary: Vec<SumLine>,
    problem: Option<String>,
    saved: bool,
    gc: GameChoices,
    game_id: Option<GameId>,
    name: String,
    /// PT-2007 22, BSOP 34: the game's tables in play waiting for a change to its limits.
    pending_limits: Vec<services::limits::ChangeLine>,
}

async fn games_view(
    req: &HttpRequest,
    st: &AppState,
    who: &AdminStaff,
    v: Option<Vals>,
    s: Shown,
    saved: bool,
) -> AppResult<GamesPage> {
    let c = ctx(req, st, &who.0).await?;
    let (room, games) = st
        .run(|_, conn| {
            Ok((
                services::room::get(conn)?,
                services::games::list_games(conn)?,
            ))
        })
        .await?;
    let v = v.unwrap_or_else(|| {
        let mut v = Vals::default();
        v.0.insert("variant".into(), Variant::HoldemNl.to_string());
        v.0.insert("limit_class".into(), LimitClass::Low.to_string());
        // BSOP 115, 116: off, with the usual figures ready for when they are turned on.
        let special = crate::domain::special_buttons::Settings::default();
        v.0.insert("cucurucho_bb".into(), special.cucurucho_bb.to_string());
        v.0.insert("macaca_bb".into(), special.macaca_bb.to_string());
        v.0.insert("macaca_cap_bb".into(), special.macaca_cap_bb.to_string());
        v
    });
    Ok(GamesPage {
        gc: game_choices(&c, &room),
        games: games.into_iter().map(|g| game_line(&c, g)).collect(),
        v,
        summary: summary(&c, &s.errs, GAME_LABELS),
        errs: s.errs,
        problem: s.problem,
        saved,
        game_id: None,
        c,
    })
}

async fn games_page(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: AdminStaff,
) -> AppResult<HttpResponse> {
    let saved = just_saved(&req);
    let page = games_view(&req, &st, &who, None, Shown::none(), saved).await?;
    show(&st, StatusCode::OK, &page, saved)
}

async fn game_create(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: ActingAs<AdminStaff>,
    form: CsrfForm<GameForm>,
) -> AppResult<HttpResponse> {
    let f = form.0;
    let room = st.run(|_, conn| services::room::get(conn)).await?;
    let result = match f.parse(&room, false) {
        Err(fields) => Err(AppError::Validation(fields)),
        Ok(input) => {
            let acting = who.acting;
            st.write(move |_, conn| {
                let act = &acting.in_room(conn)?;
                services::games::create_game(conn, act, &input)
            })
            .await
        }
    };
    match result {
        Ok(_) => Ok(saved_redirect(&st, "/admin/games")),
        Err(e) => {
            let c = ctx(&req, &st, &who.who.0).await?;
            let s = shown(&c, e)?;
            let status = s.status;
            let page = games_view(&req, &st, &who.who, Some(Vals::of(&f)), s, false).await?;
            render(status, &page)
        }
    }
}

async fn game_edit_view(
    req: &HttpRequest,
    st: &AppState,
    who: &AdminStaff,
    id: GameId,
    v: Option<Vals>,
    s: Shown,
    saved: bool,
) -> AppResult<GameEditPage> {
    let c = ctx(req, st, &who.0).await?;
    let (room, g, pending_limits) = st
        .run(move |_, conn| {
            Ok((
                services::room::get(conn)?,
                services::games::get_game(conn, id)?,
                services::limits::pending_of_game(conn, id)?,
            ))
        })
        .await?;
    let v = v.unwrap_or_else(|| Vals::of(&GameForm::from_row(&g, &room.currency, c.lang)));
    Ok(GameEditPage {
        pending_limits,
        gc: game_choices(&c, &room),
        v,
        summary: summary(&c, &s.errs, GAME_LABELS),
        errs: s.errs,
        problem: s.problem,
        saved,
        game_id: Some(id),
        name: g.name,
        c,
    })
}

async fn game_edit(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: AdminStaff,
    path: web::Path<GameId>,
) -> AppResult<HttpResponse> {
    let saved = just_saved(&req);
    let page = game_edit_view(
        &req,
        &st,
        &who,
        path.into_inner(),
        None,
        Shown::none(),
        saved,
    )
    .await?;
    show(&st, StatusCode::OK, &page, saved)
}

async fn game_update(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: ActingAs<AdminStaff>,
    path: web::Path<GameId>,
    form: CsrfForm<GameForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let f = form.0;
    let room = st.run(|_, conn| services::room::get(conn)).await?;
    let result = match f.parse(&room, true) {
        Err(fields) => Err(AppError::Validation(fields)),
        Ok(input) => {
            let acting = who.acting;
            st.write(move |_, conn| {
                let act = &acting.in_room(conn)?;
                services::games::update_game(conn, act, id, &input)
            })
            .await
        }
    };
    match result {
        Ok(_) => Ok(saved_redirect(&st, &format!("/admin/games/{id}"))),
        Err(e) => {
            let c = ctx(&req, &st, &who.who.0).await?;
            let s = shown(&c, e)?;
            let status = s.status;
            let page =
                game_edit_view(&req, &st, &who.who, id, Some(Vals::of(&f)), s, false).await?;
            render(status, &page)
        }
    }
}
