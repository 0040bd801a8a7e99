//! Small reads and helpers the cagnotte's parts share: the smallest chip, the limits and the
//! game in force, how a refusal names its field.

use crate::db::models::{GameRow, TableRow};
use crate::db::DbConn;
use crate::domain::cagnotte::{self as rules};
use crate::domain::ids::GameId;
use crate::domain::limits::Limits;
use crate::domain::profile::CagnotteMode;
use crate::domain::{FieldError, Problem};
use crate::error::{AppError, AppResult};
use crate::services::room::Room;
use chrono::{DateTime, NaiveDateTime, Utc};

pub(super) fn utc(t: NaiveDateTime) -> DateTime<Utc> {
    t.and_utc()
}

/// A rule's refusal of an amount typed in a field: a 422 on that field, amounts said in the
/// room's currency.
pub(super) fn field_refusal(field: &str, p: Problem, room: &Room) -> AppError {
    let p = crate::services::table_side::localize(p, room);
    AppError::Validation(vec![FieldError {
        field: field.to_string(),
        key: p.key,
        args: p.args,
    }])
}

/// The smallest chip at a table (BSOP 80): the game's stated one, else the largest unit both
/// of the table's blinds (`l`, its limits: `services::limits::of`) are made of.
pub fn chip_of(g: &GameRow, l: &Limits) -> i64 {
    rules::smallest_chip(l.small_blind, l.big_blind, g.smallest_chip)
}

/// The limits of the table now (PT-2007 22; its game's when it has none of its own).
pub(super) fn limits_now(conn: &mut DbConn, t: &TableRow, g: &GameRow) -> AppResult<Limits> {
    Ok(crate::services::limits::of_table(conn, t.id)?
        .unwrap_or_else(|| crate::services::limits::of_game(g)))
}

pub(super) fn per_session(g: &GameRow) -> bool {
    g.cagnotte_mode == CagnotteMode::PerSession.to_string()
}

pub(super) fn game(conn: &mut DbConn, id: GameId) -> AppResult<GameRow> {
    crate::services::games::get_game(conn, id)
}
