//! The table side: what the dealer records at each seat. Buy-ins with the amount a
//! returning player must bring (BSOP 26, 37; PT-2007 28), rebuys (PT-2007 79), a table change
//! with the whole stack (BSOP 27), cashing out with the minimum stay of winners (BSOP 38),
//! away/back with the missed-blind and absence buttons (BSOP 36, 39; PT-2007 90), chip removal
//! counted by two staff members into custody (BSOP 36, 37), the "new hand" tap (PT-2007 13,
//! 89; BSOP 57) and the table's requests to the floor (rulings: `services::rulings`).
//!
//! Every rule is asked of `domain::seat_rules`; every change is audited and pushed as an event
//! in the same transaction, like the floor's actions.
//!
//! This file holds what every action shares: the imports, constants and readers; the actions
//! live in submodules by topic, re-exported here.

use crate::db::audit::{self};
use crate::db::models::{
    BuyinRow, CustodyRow, FloorMessageRow, GameRow, HandRow, PlayerRow, SeatCallRow, SeatSideRow,
    SeatingRow, ServiceRequestRow, TableRow,
};
use crate::db::schema::{
    buyins, card_tables, chip_custody, floor_messages, hands, players, seatings, service_requests,
    tablets,
};
use crate::db::{is_unique_violation, next_seq, DbConn};
use crate::domain::game::LimitClass;
use crate::domain::ids::SeatingId;
use crate::domain::ids::TableId;
use crate::domain::limits::Limits;
use crate::domain::money::{self, AmountRange};
use crate::domain::profile::RuleProfile;
use crate::domain::refusal::{SeatRefusal, TableRefusal};
use crate::domain::seat_rules::{
    self, absence_status, average_capital, buyin_requirement, check_buyin, check_leave,
    check_rebuy, joins_at_average, AbsenceStatus, Blind, BuyinRequirement, Departure, HandCounter,
    HandNotice, HandPlay, ReturnObligation, SeatAbsence, SeatButtons,
};
use crate::domain::{FieldError, Problem};
use crate::error::{AppError, AppResult};
use crate::services::floor::{self, emit};
use crate::services::room::Room;
use chrono::{DateTime, Duration, NaiveDateTime, Utc};
use diesel::prelude::*;
use serde::Serialize;
use std::str::FromStr;

mod absence;
mod alerts;
mod chips;
mod custody;
mod hand;
mod messages;
mod requests;
mod tap;
mod view;
pub use absence::*;
pub use alerts::*;
pub use chips::*;
pub use custody::*;
pub use hand::*;
pub use messages::*;
pub use requests::*;
pub use tap::*;
pub use view::*;

/// The seating was ended when the chips were taken off for absence (BSOP 36, 37).
pub const REMOVED_FOR_ABSENCE: &str = "removed for absence";
/// The player cashed out at the table.
pub const CASHED_OUT: &str = "cashed out";

/// The longest extension of an absence a supervisor may grant at once (minutes).
pub const MAX_EXTENSION_MIN: i64 = 120;
/// The kinds of request a table sends the floor. A decision is asked for as a ruling
/// (`services::rulings`, BSOP 16-22), which the floor answers and the incident log keeps.
pub const SERVICE_KINDS: [&str; 2] = ["floor", "chips"];

// ---- reading ---------------------------------------------------------------------------------

pub fn side(conn: &mut DbConn, seating_id: SeatingId) -> AppResult<SeatSideRow> {
    Ok(crate::native!(conn, |dbc| seatings::table
        .find(seating_id)
        .select(SeatSideRow::as_select())
        .first(dbc))?)
}

/// A seating still open, with its table-side state. `at_table`: the tablet's table (a seat
/// of another table is not found from it).
fn open_seating(
    conn: &mut DbConn,
    seating_id: SeatingId,
    at_table: Option<TableId>,
) -> AppResult<(SeatingRow, SeatSideRow)> {
    let s = floor::seating(conn, seating_id)?;
    if at_table.is_some_and(|t| t != s.table_id) {
        return Err(AppError::NotFound);
    }
    if s.left_at.is_some() {
        return Err(SeatRefusal::AlreadyLeft.into());
    }
    Ok((s, side(conn, seating_id)?))
}

fn table(conn: &mut DbConn, id: TableId) -> AppResult<TableRow> {
    crate::services::games::get_table(conn, id)
}

fn game_of(conn: &mut DbConn, t: &TableRow) -> AppResult<GameRow> {
    let g = t.game_id.ok_or(TableRefusal::NoGame)?;
    crate::services::games::get_game(conn, g)
}

fn limit_of(g: &GameRow) -> LimitClass {
    LimitClass::from_str(&g.limit_class).unwrap_or(LimitClass::Low)
}

/// Money and instants in a rule's refusal, said for the room: amounts in its currency (shown
/// in the reader's language), instants as HH:MM in its zone (the rules give raw minor units and RFC 3339).
pub fn localize(mut p: Problem, room: &Room) -> Problem {
    const MONEY: [&str; 8] = [
        "min", "max", "required", "allowed", "stack", "amount", "first", "second",
    ];
    for (k, v) in p.args.iter_mut() {
        if MONEY.contains(k) {
            if let Ok(minor) = v.parse::<i64>() {
                *v = crate::i18n::money(minor, &room.currency);
            }
        } else if *k == "until" || *k == "tapped" || *k == "newer" {
            if let Ok(t) = DateTime::parse_from_rfc3339(v) {
                *v = t.with_timezone(&room.tz).format("%H:%M").to_string();
            }
        }
    }
    p
}

fn rule_refusal(p: Problem, room: &Room) -> AppError {
    AppError::Conflict(localize(p, room))
}

/// A rule's refusal of an amount typed in a field: a 422 on that field.
fn amount_refusal(field: &str, p: Problem, room: &Room) -> AppError {
    let p = localize(p, room);
    AppError::Validation(vec![FieldError {
        field: field.to_string(),
        key: p.key,
        args: p.args,
    }])
}

fn positive(field: &str, amount: i64) -> AppResult<()> {
    if amount <= 0 {
        return Err(AppError::Validation(vec![FieldError::new(
            field,
            "rules-amount-not-positive",
        )]));
    }
    Ok(())
}

/// PT-2007 22, BSOP 34: the limits of table `t` (of game `g`) now — the one reader,
/// `services::limits::of`.
fn limits_of(t: &TableRow, g: &GameRow) -> Limits {
    crate::services::limits::of(t, Some(g)).unwrap_or_else(|| crate::services::limits::of_game(g))
}

/// The maximum buy-in that bounds a seating's stacks ([`money::stack`]): its
/// table's now (PT-2007 22), else its own game's; `None` (no maximum, or no game) is the
/// global ceiling.
fn buy_in_max_of(conn: &mut DbConn, s: &SeatingRow) -> AppResult<Option<i64>> {
    if let Some(l) = crate::services::limits::of_table(conn, s.table_id)? {
        return Ok(l.buy_in_max);
    }
    match s.game_id {
        Some(g) => Ok(crate::services::games::get_game(conn, g)?.buy_in_max),
        None => Ok(None),
    }
}

/// A stack typed in `field` outside [`money::stack`] of the game: 422 on the field, nothing
/// changed.
fn check_stack(
    conn: &mut DbConn,
    field: &str,
    buy_in_max: Option<i64>,
    amount: i64,
) -> AppResult<()> {
    super::check_amount(conn, field, money::stack(buy_in_max), amount)
}

/// Chips bought with `stack` already at the seat: at least one minor unit, and the stack after
/// them within [`money::stack`] (the game's rules then narrow it).
fn check_chips(
    conn: &mut DbConn,
    buy_in_max: Option<i64>,
    stack: i64,
    amount: i64,
) -> AppResult<()> {
    let max = money::stack_max(buy_in_max);
    let room_left = (max - stack.clamp(0, max)).max(1);
    super::check_amount(conn, "amount", AmountRange::new(1, room_left), amount)
}

fn text(field: &str, v: &str, max: usize) -> AppResult<String> {
    let v = v.trim();
    if v.is_empty() {
        return Err(AppError::field(field, "err-required"));
    }
    if v.chars().count() > max {
        return Err(AppError::Validation(vec![FieldError::new(
            field,
            "err-too-long",
        )
        .arg("max", max)]));
    }
    Ok(v.to_string())
}
