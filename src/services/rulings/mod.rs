//! The floor's rulings and the incident log (BSOP 16-22): a dealer (or the floor) asks for a
//! ruling naming the hand in play, the seats and what happened; the floor decides it, final
//! (BSOP 17), or corrects a decision only by a later ruling naming it; a pot may be held aside
//! meanwhile (BSOP 21), released by the decision; a pot awarded wrongly may be reconstructed
//! while BSOP 19's window is open (BSOP 20); the chips a decision moves are recorded by the
//! supervisor and confirmed by a second staff member. Every rule is asked of
//! `domain::ruling`; every change is audited (subject `ruling`) and pushed as an event of its
//! table, in the same transaction.
//!
//! This file holds what every action shares: imports, readers and the refusals said in the
//! room's currency; the actions live in submodules by topic, re-exported here.

use crate::db::audit::{self, Actor};
use crate::db::models::{
    HandRow, HeldPotRow, PlayerRow, RulingMoveLineRow, RulingMoveRow, RulingPlayerRow, RulingRow,
    SeatingRow, TableRow,
};
use crate::db::schema::{
    card_tables, games, hands, held_pots, players, ruling_move_lines, ruling_moves, ruling_players,
    rulings, seatings, staff,
};
use crate::db::{is_unique_violation, next_seq, DbConn};
use crate::domain::ids::PlayerId;
use crate::domain::ids::TableId;
use crate::domain::refusal::GeneralRefusal;
use crate::domain::ruling::{
    self as rule, HeldPotState, LateReason, MoveLineKind, NamedAt, Refusal, RulingMoveState,
    RulingState,
};
use crate::domain::{FieldError, Problem};
use crate::error::{AppError, AppResult};
use crate::services::floor::emit;
use crate::services::room::Room;
use chrono::{DateTime, NaiveDateTime, Utc};
use diesel::prelude::*;
use serde::Serialize;
use std::collections::HashMap;
use std::str::FromStr;

mod ask;
mod chips;
mod decide;
mod read;
pub use ask::*;
pub use chips::*;
pub use decide::*;
pub use read::*;

/// The audit trail's subject kind of every ruling record (`/admin/audit` links it to the
/// ruling's page).
pub const SUBJECT: &str = "ruling";

impl RulingRow {
    /// Open until decided; then final (BSOP 17).
    pub fn state(&self) -> RulingState {
        if self.decided_at.is_some() {
            RulingState::Decided
        } else {
            RulingState::Open
        }
    }

    /// BSOP 19: why it was asked too late, if it was.
    pub fn late(&self) -> Option<LateReason> {
        self.late_reason
            .as_deref()
            .and_then(|s| LateReason::from_str(s).ok())
    }

    /// The seats named, as numbers.
    pub fn seat_numbers(&self) -> Vec<i32> {
        rule::parse_seats(&self.seats)
    }
}

impl RulingMoveRow {
    pub fn move_state(&self) -> RulingMoveState {
        self.state
    }
}

impl HeldPotRow {
    pub fn pot_state(&self) -> HeldPotState {
        self.state
    }
}

// ---- reading -----------------------------------------------------------------------------

/// One ruling, whatever its state (404 when there is none).
pub fn ruling(conn: &mut DbConn, id: i64) -> AppResult<RulingRow> {
    Ok(crate::native!(conn, |dbc| rulings::table
        .find(id)
        .select(RulingRow::as_select())
        .first(dbc))?)
}

fn table(conn: &mut DbConn, id: TableId) -> AppResult<TableRow> {
    crate::services::games::get_table(conn, id)
}

/// The players a ruling involves, in the order named.
pub fn players_of(conn: &mut DbConn, ruling_id: i64) -> AppResult<Vec<RulingPlayerRow>> {
    Ok(crate::native!(conn, |dbc| ruling_players::table
        .filter(ruling_players::ruling_id.eq(ruling_id))
        .order((
            ruling_players::named_at.asc(),
            ruling_players::seat_no.asc(),
            ruling_players::player_id.asc()
        ))
        .select(RulingPlayerRow::as_select())
        .load(dbc))?)
}

/// The pot held for a ruling, if any.
pub fn held_pot_of(conn: &mut DbConn, ruling_id: i64) -> AppResult<Option<HeldPotRow>> {
    Ok(crate::native!(conn, |dbc| held_pots::table
        .filter(held_pots::ruling_id.eq(ruling_id))
        .select(HeldPotRow::as_select())
        .first(dbc))
    .optional()?)
}

/// The chips a ruling's decision moves, with their lines, if it moves any.
pub fn move_of(
    conn: &mut DbConn,
    ruling_id: i64,
) -> AppResult<Option<(RulingMoveRow, Vec<RulingMoveLineRow>)>> {
    let m: Option<RulingMoveRow> = crate::native!(conn, |dbc| ruling_moves::table
        .filter(ruling_moves::ruling_id.eq(ruling_id))
        .select(RulingMoveRow::as_select())
        .first(dbc))
    .optional()?;
    let Some(m) = m else {
        return Ok(None);
    };
    let lines = crate::native!(conn, |dbc| ruling_move_lines::table
        .filter(ruling_move_lines::move_id.eq(m.id))
        .order(ruling_move_lines::line_no.asc())
        .select(RulingMoveLineRow::as_select())
        .load(dbc))?;
    Ok(Some((m, lines)))
}

/// The ruling that corrects this one (BSOP 17: the later ruling names the earlier).
pub fn corrected_by(conn: &mut DbConn, ruling_id: i64) -> AppResult<Option<i64>> {
    Ok(crate::native!(conn, |dbc| rulings::table
        .filter(rulings::corrects.eq(Some(ruling_id)))
        .select(rulings::id)
        .first(dbc))
    .optional()?)
}

/// The first ruling of a chain of corrections (the one a pot may have been held for).
fn root_of(conn: &mut DbConn, r: &RulingRow) -> AppResult<i64> {
    let mut id = r.id;
    let mut up = r.corrects;
    // A chain is short (each correction names one earlier ruling); the bound only guards
    // against a loop written by hand in the database.
    for _ in 0..1000 {
        let Some(prev) = up else {
            return Ok(id);
        };
        id = prev;
        up = crate::native!(conn, |dbc| rulings::table
            .find(prev)
            .select(rulings::corrects)
            .first(dbc))?;
    }
    Ok(id)
}

/// The seated players of a table now (open seatings), by seat.
fn seated_at(conn: &mut DbConn, table_id: TableId) -> AppResult<Vec<SeatingRow>> {
    Ok(crate::native!(conn, |dbc| seatings::table
        .filter(seatings::table_id.eq(table_id))
        .filter(seatings::left_at.is_null())
        .order(seatings::seat_no.asc())
        .select(SeatingRow::as_select())
        .load(dbc))?)
}

/// A player's open seating at a table with its stack on record.
fn open_seating_at(
    conn: &mut DbConn,
    table_id: TableId,
    player_id: PlayerId,
) -> AppResult<Option<(i64, i64)>> {
    Ok(crate::native!(conn, |dbc| seatings::table
        .filter(seatings::table_id.eq(table_id))
        .filter(seatings::player_id.eq(player_id))
        .filter(seatings::left_at.is_null())
        .select((seatings::id, seatings::stack))
        .first(dbc))
    .optional()?)
}

/// The largest stack at the table (`domain::money::stack`), from the maximum buy-in it plays
/// now (its own limits, PT-2007 22, else its game's).
fn stack_max_of(conn: &mut DbConn, t: &TableRow) -> AppResult<i64> {
    let max = match t.game_id {
        Some(g) => {
            let g = crate::services::games::get_game(conn, g)?;
            crate::services::limits::of(t, Some(&g))
                .map(|l| l.buy_in_max)
                .unwrap_or(g.buy_in_max)
        }
        None => None,
    };
    Ok(crate::domain::money::stack_max(max))
}

// ---- refusals ---------------------------------------------------------------------------------

/// The arguments of this feature's refusals that are money, said in the room's currency.
const MONEY_ARGS: [&str; 4] = ["amount", "total", "stack", "max"];
/// The refusals whose `max` is money (elsewhere `max` counts seats or characters).
const MONEY_KEYS: [&str; 7] = [
    "err-ruling-pot-over-table",
    "err-ruling-release-sum",
    "err-ruling-release-required",
    "err-ruling-over-stack",
    "err-ruling-over-stack-max",
    "err-ruling-move-over-stack",
    "err-ruling-move-over-stack-max",
];

fn in_currency(key: &str, args: &mut [(&'static str, String)], room: &Room) {
    if !MONEY_KEYS.contains(&key) {
        return;
    }
    for (k, v) in args.iter_mut() {
        if MONEY_ARGS.contains(k) {
            if let Ok(minor) = v.parse::<i64>() {
                *v = crate::i18n::money(minor, &room.currency);
            }
        }
    }
}

/// A field refused by the domain: 422, its money said in the room's currency.
fn field_refusal(mut f: FieldError, room: &Room) -> AppError {
    in_currency(f.key, &mut f.args, room);
    AppError::Validation(vec![f])
}

/// A rule of the state refusing: 409, its money said in the room's currency.
fn rule_refusal(mut p: Problem, room: &Room) -> AppError {
    in_currency(p.key, &mut p.args, room);
    AppError::Conflict(p)
}

fn refusal(r: Refusal, room: &Room) -> AppError {
    match r {
        Refusal::Rule(p) => rule_refusal(p, room),
        Refusal::Field(f) => field_refusal(f, room),
    }
}

/// A player named by id (an unknown one: 422 on `field`).
fn known_player(conn: &mut DbConn, field: &str, id: PlayerId) -> AppResult<PlayerRow> {
    crate::services::players::get(conn, id).map_err(|e| match e {
        AppError::NotFound => {
            AppError::Validation(vec![
                FieldError::new(field, "err-ruling-player-unknown").arg("player", id)
            ])
        }
        other => other,
    })
}

/// The staff member acting (a ruling is always some person's: the system never decides).
fn staff_id(actor: &Actor) -> AppResult<i64> {
    actor
        .id
        .ok_or_else(|| AppError::Forbidden(Problem::from(GeneralRefusal::Forbidden)))
}

/// What every audit record of a ruling carries: the ruling as it is after the change, with
/// its players.
#[derive(Debug, Serialize)]
struct Recorded<'a> {
    ruling: &'a RulingRow,
    players: &'a [RulingPlayerRow],
}
