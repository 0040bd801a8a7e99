//! Games and tables (PT-2007 2, 6, 21, 74; BSOP 92; MO-QP 2; MO-13 3).

use crate::db::audit::{self};
use crate::db::models::{GameRow, TableRow};
use crate::db::schema::{card_tables, games};
use crate::db::{next_seq, DbConn};
use crate::domain::cagnotte::SessionBase;
use crate::domain::error::Errors;
use crate::domain::game::{
    validate_game, validate_table, GameSpec, LimitClass, TableMode, TablePolicy, TableSpec, Variant,
};
use crate::domain::ids::GameId;
use crate::domain::ids::PlayerId;
use crate::domain::ids::TableId;
use crate::domain::profile::{CagnotteMode, RuleProfile};
use crate::domain::refusal::TableRefusal;
use crate::domain::special_buttons::{
    check_settings as check_special, Settings as SpecialSettings,
};
use crate::domain::table::TableState;
use crate::domain::FieldError;
use crate::error::{AppError, AppResult};
use crate::services::Act;
use chrono::{DateTime, Utc};
use diesel::prelude::*;
use serde::{Deserialize, Serialize};

/// A game as sent by the admin. Amounts in minor units (cents), each from 1 to 1,000,000,000
/// (10,000,000.00), else 422; blinds are 0 in a banked game (and only there).
#[derive(Debug, Clone, Default, Deserialize, Serialize, utoipa::ToSchema)]
pub struct GameInput {
    #[schema(min_length = 1, max_length = 60, pattern = r"\S")]
    pub name: String,
    /// holdem_nl | holdem_pl | holdem_limit | plo | omaha | short_deck_holdem | short_deck_plo |
    /// synthetic | q_poker | thirteen_cards
    #[schema(value_type = crate::domain::game::Variant)]
    pub variant: String,
    #[schema(minimum = 0, maximum = 1_000_000_000)]
    pub small_blind: i64,
    #[schema(minimum = 0, maximum = 1_000_000_000)]
    pub big_blind: i64,
    /// low | mid | high
    #[schema(value_type = crate::domain::game::LimitClass)]
    pub limit_class: String,
    #[schema(minimum = 1, maximum = 1_000_000_000)]
    pub buy_in_min: i64,
    #[schema(minimum = 1, maximum = 1_000_000_000)]
    pub buy_in_max: Option<i64>,
    /// Default: from the variant.
    pub seats: Option<i32>,
    /// per_hand | per_session; default: the room profile's.
    #[schema(value_type = Option<crate::domain::profile::CagnotteMode>)]
    pub cagnotte_mode: Option<String>,
    /// Basis points (1 % = 100); default: the room profile's for the mode.
    pub cagnotte_bp: Option<i32>,
    /// PT-2007 7b: what the session percentage is taken of: table_max | cave; default: the
    /// table maximum when the game has one, else the cave.
    #[schema(value_type = Option<SessionBaseName>)]
    pub cagnotte_base: Option<String>,
    /// PT-2007 7a: the most the house takes from one hand, minor units; none: no cap.
    #[schema(minimum = 1, maximum = 1_000_000_000)]
    pub rake_cap: Option<i64>,
    /// BSOP 80: the smallest chip in play, minor units; none: derived from the blinds.
    #[schema(minimum = 1, maximum = 1_000_000_000)]
    pub smallest_chip: Option<i64>,
    /// Default true.
    pub active: Option<bool>,
    /// The game's colour on the floor board, `#rrggbb`; empty: one picked for it; absent: as
    /// it was (a new game: picked).
    #[schema(pattern = r"^(#[0-9a-fA-F]{6})?$", max_length = 7)]
    pub colour: Option<String>,
    /// BSOP 55, 58: must_move (the newest table is the must-move table) or balanced (new
    /// players go to the table that needs one most). Absent: must_move for a new game, as it
    /// was for an edited one. A change takes effect when a table of the game next opens or
    /// breaks.
    #[schema(value_type = Option<crate::domain::game::TablePolicy>)]
    pub table_policy: Option<String>,
    /// BSOP 115: the game runs a Cucurucho button; absent: as it was (a new game: off).
    pub cucurucho: Option<bool>,
    /// BSOP 115: each player's fixed contribution on the Cucurucho's hand, in big blinds
    /// (3 to 5; else 422 on this field, also while off); absent: as it was (a new game: 3).
    #[schema(minimum = 3, maximum = 5)]
    pub cucurucho_bb: Option<i32>,
    /// BSOP 116: the game runs a Macaca button; absent: as it was (a new game: off).
    pub macaca: Option<bool>,
    /// BSOP 116: each player's fixed contribution to a new Macaca, in big blinds (3 to 5);
    /// absent: as it was (a new game: 3).
    #[schema(minimum = 3, maximum = 5)]
    pub macaca_bb: Option<i32>,
    /// BSOP 116: the most the Macaca puts all in on one hand, in big blinds (10 to 50); the
    /// rest of her chips waits for her next hand. Absent: as it was (a new game: 20).
    #[schema(minimum = 10, maximum = 50)]
    pub macaca_cap_bb: Option<i32>,
}

/// BSOP 115, 116: the game's special buttons as sent, each setting not sent as it was
/// (`before`; a new game: [`SpecialSettings::default`], off).
pub fn special_settings(g: &GameInput, before: Option<&GameRow>) -> SpecialSettings {
    let was = before
        .map(crate::services::special_buttons::settings_of)
        .unwrap_or_default();
    SpecialSettings {
        cucurucho: g.cucurucho.unwrap_or(was.cucurucho),
        cucurucho_bb: g.cucurucho_bb.unwrap_or(was.cucurucho_bb),
        macaca: g.macaca.unwrap_or(was.macaca),
        macaca_bb: g.macaca_bb.unwrap_or(was.macaca_bb),
        macaca_cap_bb: g.macaca_cap_bb.unwrap_or(was.macaca_cap_bb),
    }
}

/// A game's board colour as typed: `#rrggbb` (stored in lower case) or empty (picked for it).
pub fn check_colour(typed: &str) -> Result<String, FieldError> {
    let t = typed.trim();
    let hex = t.strip_prefix('#').unwrap_or("");
    if t.is_empty() {
        Ok(String::new())
    } else if hex.len() == 6 && hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        Ok(t.to_ascii_lowercase())
    } else {
        Err(FieldError::new("colour", "err-colour")
            .arg("value", t.chars().take(20).collect::<String>()))
    }
}

/// The names of [`SessionBase`] in the API (its schema only).
#[derive(utoipa::ToSchema)]
#[schema(as = SessionBase)]
#[allow(dead_code)]
enum SessionBaseName {
    #[schema(rename = "table_max")]
    TableMax,
    #[schema(rename = "cave")]
    Cave,
}

fn parse_enum<T: std::str::FromStr>(e: &mut Errors, field: &str, s: &str) -> Option<T> {
    match s.trim().parse::<T>() {
        Ok(v) => Some(v),
        Err(_) => {
            if s.trim().is_empty() {
                e.add(field, "err-required");
            } else {
                e.push(
                    FieldError::new(field, "err-choice")
                        .arg("value", s.chars().take(40).collect::<String>()),
                );
            }
            None
        }
    }
}

/// A game's checked cagnotte settings (PT-2007 7).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CagnotteSettings {
    pub mode: CagnotteMode,
    pub bp: i32,
    pub base: SessionBase,
    pub rake_cap: Option<i64>,
    pub smallest_chip: Option<i64>,
}

impl CagnotteSettings {
    fn of(g: &GameRow) -> Option<CagnotteSettings> {
        Some(CagnotteSettings {
            mode: g.cagnotte_mode.parse().ok()?,
            bp: g.cagnotte_bp,
            base: SessionBase::parse(&g.cagnotte_base)?,
            rake_cap: g.rake_cap,
            smallest_chip: g.smallest_chip,
        })
    }
}

/// Checks a game against the domain rules and the profile's cagnotte ranges (PT-2007 7).
pub fn check_game(
    g: &GameInput,
    profile: &RuleProfile,
) -> Result<(GameSpec, CagnotteSettings), Vec<FieldError>> {
    let mut e = Errors::default();
    let variant = parse_enum::<Variant>(&mut e, "variant", &g.variant);
    let limit = parse_enum::<LimitClass>(&mut e, "limit_class", &g.limit_class);
    let mode = match &g.cagnotte_mode {
        None => Some(profile.cagnotte_mode),
        Some(m) => parse_enum::<CagnotteMode>(&mut e, "cagnotte_mode", m),
    };
    if let Some(p) = &g.table_policy {
        parse_enum::<TablePolicy>(&mut e, "table_policy", p);
    }
    e.into_result(())?;
    let (variant, limit, mode) = (
        variant.unwrap_or(Variant::HoldemNl),
        limit.unwrap_or(LimitClass::Low),
        mode.unwrap_or(CagnotteMode::PerHand),
    );
    let spec = GameSpec {
        name: g.name.trim().to_string(),
        variant,
        small_blind: g.small_blind,
        big_blind: g.big_blind,
        limit_class: limit,
        buy_in_min: g.buy_in_min,
        buy_in_max: g.buy_in_max,
        seats: g.seats.unwrap_or_else(|| variant.default_seats()),
    };
    let mut errs = validate_game(&spec).err().unwrap_or_default();
    if let Some(Err(e)) = g.colour.as_deref().map(check_colour) {
        errs.push(e);
    }
    let bp = g.cagnotte_bp.unwrap_or(match mode {
        CagnotteMode::PerHand => profile.rake_percent_bp,
        CagnotteMode::PerSession => profile.session_percent_bp,
    });
    // PT-2007 7a: per hand up to 5 %; 7b: per session 5 % to 20 %.
    let (lo, hi) = match mode {
        CagnotteMode::PerHand => (0, 500),
        CagnotteMode::PerSession => (500, 2000),
    };
    if bp < lo || bp > hi {
        errs.push(
            FieldError::new("cagnotte_bp", "err-percent-range")
                .arg("min", lo / 100)
                .arg("max", hi / 100),
        );
    }
    // Not stated: the table maximum when the game has one, else the cave.
    let base = match g
        .cagnotte_base
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        None if spec.buy_in_max.is_some() => SessionBase::TableMax,
        None => SessionBase::Cave,
        Some(b) => match SessionBase::parse(b) {
            Some(b) => b,
            None => {
                errs.push(
                    FieldError::new("cagnotte_base", "err-choice")
                        .arg("value", b.chars().take(40).collect::<String>()),
                );
                SessionBase::TableMax
            }
        },
    };
    errs.extend(crate::domain::cagnotte::check_settings(
        mode == CagnotteMode::PerSession,
        base,
        spec.buy_in_max,
        g.rake_cap,
        g.smallest_chip,
        spec.small_blind,
        spec.big_blind,
    ));
    // BSOP 115, 116: the figures sent (one not sent is as it was, and was checked then).
    errs.extend(check_special(
        &special_settings(g, None),
        spec.variant.is_banked(),
    ));
    if errs.is_empty() {
        Ok((
            spec,
            CagnotteSettings {
                mode,
                bp,
                base,
                rake_cap: g.rake_cap,
                smallest_chip: g.smallest_chip,
            },
        ))
    } else {
        Err(errs)
    }
}

/// The table policy sent, once [`check_game`] accepted it (`None`: not sent).
fn policy_of(g: &GameInput) -> Option<TablePolicy> {
    g.table_policy
        .as_deref()
        .and_then(|p| p.trim().parse().ok())
}

/// [`check_game`], its refused amounts said in the room's currency; with the special buttons
/// as they will be (the settings not sent as they were, `before`), checked again whole (a
/// banked game keeps no special button it had, BSOP 115, 116).
fn checked(
    conn: &mut DbConn,
    g: &GameInput,
    profile: &RuleProfile,
    before: Option<&GameRow>,
) -> AppResult<(GameSpec, CagnotteSettings, SpecialSettings)> {
    let special = special_settings(g, before);
    let errs = match check_game(g, profile) {
        Ok((spec, cs)) => match check_special(&special, spec.variant.is_banked()) {
            errs if errs.is_empty() => return Ok((spec, cs, special)),
            errs => errs,
        },
        Err(errs) => errs,
    };
    let currency = super::room::get(conn)?.currency;
    Err(AppError::Validation(super::in_currency(errs, &currency)))
}

pub fn list_games(conn: &mut DbConn) -> AppResult<Vec<GameRow>> {
    Ok(games::table
        .order((games::active.desc(), games::name.asc()))
        .select(GameRow::as_select())
        .load(conn)?)
}

pub fn get_game(conn: &mut DbConn, id: GameId) -> AppResult<GameRow> {
    Ok(games::table
        .find(id)
        .select(GameRow::as_select())
        .first(conn)?)
}

// One game row, built from the parts the create and update paths check separately.
#[allow(clippy::too_many_arguments)]
fn game_row(
    id: GameId,
    spec: &GameSpec,
    cs: &CagnotteSettings,
    special: &SpecialSettings,
    active: bool,
    created: chrono::NaiveDateTime,
    now: DateTime<Utc>,
    colour: String,
    policy: TablePolicy,
) -> GameRow {
    GameRow {
        id,
        name: spec.name.clone(),
        variant: spec.variant.to_string(),
        small_blind: spec.small_blind,
        big_blind: spec.big_blind,
        limit_class: spec.limit_class.to_string(),
        buy_in_min: spec.buy_in_min,
        buy_in_max: spec.buy_in_max,
        seats: spec.seats,
        cagnotte_mode: cs.mode.to_string(),
        cagnotte_bp: cs.bp,
        active,
        created_at: created,
        updated_at: now.naive_utc(),
        cagnotte_base: cs.base.as_str().to_string(),
        rake_cap: cs.rake_cap,
        smallest_chip: cs.smallest_chip,
        colour,
        table_policy: policy.to_string(),
        cucurucho: special.cucurucho,
        cucurucho_bb: special.cucurucho_bb,
        macaca: special.macaca,
        macaca_bb: special.macaca_bb,
        macaca_cap_bb: special.macaca_cap_bb,
    }
}

pub fn create_game(conn: &mut DbConn, act: &Act, g: &GameInput) -> AppResult<GameRow> {
    let (now, actor, profile) = (act.now, &act.actor, act.profile());
    let (spec, cs, special) = checked(conn, g, profile, None)?;
    let row = game_row(
        GameId(next_seq(conn, "game")?),
        &spec,
        &cs,
        &special,
        g.active.unwrap_or(true),
        now.naive_utc(),
        now,
        g.colour
            .as_deref()
            .and_then(|c| check_colour(c).ok())
            .unwrap_or_default(),
        policy_of(g).unwrap_or_default(),
    );
    diesel::insert_into(games::table)
        .values(&row)
        .execute(conn)?;
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "game.create",
        "game",
        Some(row.id.get()),
        None,
        Some(&row),
    )?;
    Ok(row)
}

/// Saves a game. PT-2007 22, BSOP 34: its new limits apply to the tables opened afterwards;
/// each of its tables in play keeps its limits and gets a pending change to the new ones
/// (announced at the table, then applied: `services::limits`), returned with the game.
pub fn update_game(
    conn: &mut DbConn,
    act: &Act,
    id: GameId,
    g: &GameInput,
) -> AppResult<(GameRow, Vec<crate::db::models::LimitChangeRow>)> {
    let (now, actor, profile) = (act.now, &act.actor, act.profile());
    let before = get_game(conn, id)?;
    let (spec, cs, special) = checked(conn, g, profile, Some(&before))?;
    // PT-2007 7: the cagnotte (mode, percentage, base, cap and smallest chip) is fixed before
    // the game starts: while a table of this game is open, running or suspended it stays; a
    // new game changes it.
    if CagnotteSettings::of(&before).as_ref() != Some(&cs) {
        let in_play: i64 = card_tables::table
            .filter(card_tables::game_id.eq(id))
            .filter(
                card_tables::state
                    .eq(TableState::Open)
                    .or(card_tables::state.eq(TableState::Running))
                    .or(card_tables::state.eq(TableState::Suspended)),
            )
            .count()
            .get_result(conn)?;
        crate::domain::cagnotte::check_mode_change(in_play > 0).map_err(AppError::Conflict)?;
    }
    let after = game_row(
        id,
        &spec,
        &cs,
        &special,
        g.active.unwrap_or(before.active),
        before.created_at,
        now,
        match g.colour.as_deref() {
            Some(c) => check_colour(c).unwrap_or_default(),
            None => before.colour.clone(),
        },
        policy_of(g).unwrap_or_else(|| before.policy()),
    );
    diesel::update(games::table.find(id))
        .set(&after)
        .execute(conn)?;
    audit::record(
        conn,
        now,
        actor,
        "game.update",
        "game",
        Some(id.get()),
        Some(&before),
        Some(&after),
    )?;
    let changes = super::limits::on_game_edit(conn, act, &before, &after)?;
    Ok((after, changes))
}

/// A table as sent by the admin.
#[derive(Debug, Clone, Default, Deserialize, Serialize, utoipa::ToSchema)]
pub struct TableInput {
    #[schema(minimum = 1, maximum = 999)]
    pub number: i32,
    /// Default: the game's seats (or 10).
    pub seats: Option<i32>,
    #[schema(value_type = Option<i64>)]
    pub game_id: Option<GameId>,
    /// continuous | session
    #[schema(value_type = crate::domain::game::TableMode)]
    pub mode: String,
    pub active: Option<bool>,
}

pub fn list_tables(conn: &mut DbConn) -> AppResult<Vec<(TableRow, Option<GameRow>)>> {
    let rows: Vec<(TableRow, Option<GameRow>)> = card_tables::table
        .left_join(games::table)
        .order(card_tables::number.asc())
        .select((TableRow::as_select(), Option::<GameRow>::as_select()))
        .load(conn)?;
    Ok(rows)
}

pub fn get_table(conn: &mut DbConn, id: TableId) -> AppResult<TableRow> {
    Ok(card_tables::table
        .find(id)
        .select(TableRow::as_select())
        .first(conn)?)
}

/// A table and a player in one statement (`NotFound` when either is missing): an API answer
/// about a call or a seating names both, and reads them after the write's commit
/// (one round trip, not two, per floor request on PostgreSQL).
pub fn table_and_player(
    conn: &mut DbConn,
    table_id: TableId,
    player_id: PlayerId,
) -> AppResult<(TableRow, crate::db::models::PlayerRow)> {
    use crate::db::schema::players;
    Ok(card_tables::table
        .inner_join(players::table.on(players::id.eq(player_id)))
        .filter(card_tables::id.eq(table_id))
        .select((
            TableRow::as_select(),
            crate::db::models::PlayerRow::as_select(),
        ))
        .first(conn)?)
}

fn check_table(conn: &mut DbConn, t: &TableInput) -> AppResult<(TableSpec, Option<GameRow>)> {
    let mut e = Errors::default();
    let mode = parse_enum::<TableMode>(&mut e, "mode", &t.mode);
    let game = match t.game_id {
        None => None,
        Some(gid) => match games::table
            .find(gid)
            .select(GameRow::as_select())
            .first(conn)
            .optional()?
        {
            Some(g) => Some(g),
            None => {
                e.add("game_id", "err-game-unknown");
                None
            }
        },
    };
    e.into_result(())?;
    let variant = game
        .as_ref()
        .and_then(|g| g.variant.parse::<Variant>().ok());
    let spec = TableSpec {
        number: t.number,
        seats: t.seats.or(game.as_ref().map(|g| g.seats)).unwrap_or(10),
        mode: mode.unwrap_or(TableMode::Continuous),
    };
    validate_table(&spec, variant)?;
    Ok((spec, game))
}

fn number_taken(conn: &mut DbConn, number: i32, except: Option<i64>) -> AppResult<bool> {
    let mut q = card_tables::table
        .filter(card_tables::number.eq(number))
        .into_boxed();
    if let Some(id) = except {
        q = q.filter(card_tables::id.ne(id));
    }
    Ok(q.count().get_result::<i64>(conn)? > 0)
}

pub fn create_table(conn: &mut DbConn, act: &Act, t: &TableInput) -> AppResult<TableRow> {
    let (now, actor) = (act.now, &act.actor);
    let (spec, game) = check_table(conn, t)?;
    if number_taken(conn, spec.number, None)? {
        return Err(TableRefusal::NumberTaken {
            number: spec.number,
        }
        .into());
    }
    let row = TableRow {
        id: TableId(next_seq(conn, "table")?),
        number: spec.number,
        seats: spec.seats,
        game_id: game.map(|g| g.id),
        mode: spec.mode.to_string(),
        state: TableState::Closed,
        active: t.active.unwrap_or(true),
        created_at: now.naive_utc(),
        updated_at: now.naive_utc(),
        opened_at: None,
        suspended_at: None,
        must_move: false,
        button_seat: None,
        extra_seat: false,
        small_blind: None,
        big_blind: None,
        buy_in_min: None,
        buy_in_max: None,
        limits_since: None,
    };
    diesel::insert_into(card_tables::table)
        .values(&row)
        .execute(conn)
        .map_err(|e| {
            if crate::db::is_unique_violation(&e) {
                AppError::from(TableRefusal::NumberTaken { number: row.number })
            } else {
                e.into()
            }
        })?;
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "table.create",
        "table",
        Some(row.id.get()),
        None,
        Some(&row),
    )?;
    Ok(row)
}

pub fn update_table(
    conn: &mut DbConn,
    act: &Act,
    id: TableId,
    t: &TableInput,
) -> AppResult<TableRow> {
    let (now, actor) = (act.now, &act.actor);
    let before = get_table(conn, id)?;
    let (spec, game) = check_table(conn, t)?;
    if number_taken(conn, spec.number, Some(id.get()))? {
        return Err(TableRefusal::NumberTaken {
            number: spec.number,
        }
        .into());
    }
    let after = TableRow {
        id,
        number: spec.number,
        seats: spec.seats,
        game_id: game.as_ref().map(|g| g.id),
        mode: spec.mode.to_string(),
        state: before.state,
        active: t.active.unwrap_or(before.active),
        created_at: before.created_at,
        updated_at: now.naive_utc(),
        opened_at: before.opened_at,
        suspended_at: before.suspended_at,
        must_move: before.must_move,
        button_seat: before.button_seat,
        extra_seat: before.extra_seat,
        small_blind: before.small_blind,
        big_blind: before.big_blind,
        buy_in_min: before.buy_in_min,
        buy_in_max: before.buy_in_max,
        limits_since: before.limits_since,
    };
    diesel::update(card_tables::table.find(id))
        .set(&after)
        .execute(conn)?;
    audit::record(
        conn,
        now,
        actor,
        "table.update",
        "table",
        Some(id.get()),
        Some(&before),
        Some(&after),
    )?;
    // PT-2007 22, BSOP 34: a table in play given another game keeps its limits until a change
    // to the new game's is announced and applied.
    if let Some(g) = game.as_ref().filter(|g| before.game_id != Some(g.id)) {
        super::limits::on_table_game_changed(conn, act, &after, g)?;
    }
    Ok(after)
}
