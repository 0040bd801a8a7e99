//! The limits in force: a table's own while in play, else its game's (PT-2007 22, BSOP 34),
//! and the pending changes.

use crate::db::models::{GameRow, LimitChangeRow, TableRow};
use crate::db::schema::{card_tables, games, hands, limit_changes};
use crate::db::DbConn;
use crate::domain::cagnotte::SessionBase;
use crate::domain::game::Variant;
use crate::domain::ids::TableId;
use crate::domain::limits::{Effective, GameFit, Limits, Pending};
use crate::domain::profile::CagnotteMode;
use crate::error::AppResult;
use diesel::prelude::*;
use std::collections::HashMap;

/// A game's limits (what its tables open with).
pub fn of_game(g: &GameRow) -> Limits {
    Limits {
        small_blind: g.small_blind,
        big_blind: g.big_blind,
        buy_in_min: g.buy_in_min,
        buy_in_max: g.buy_in_max,
    }
}

/// **The limits of this table now** (PT-2007 22, BSOP 34): its own while it is in play, else
/// its game's (`g`, the table's game); `None` for a table without a game.
pub fn of(t: &TableRow, g: Option<&GameRow>) -> Option<Limits> {
    if t.limits_since.is_some() {
        if let (Some(sb), Some(bb), Some(min)) = (t.small_blind, t.big_blind, t.buy_in_min) {
            return Some(Limits {
                small_blind: sb,
                big_blind: bb,
                buy_in_min: min,
                buy_in_max: t.buy_in_max,
            });
        }
    }
    g.filter(|g| Some(g.id) == t.game_id).map(of_game)
}

/// [`of`] for a table read by id (with its game).
pub fn of_table(conn: &mut DbConn, table_id: TableId) -> AppResult<Option<Limits>> {
    let (t, g): (TableRow, Option<GameRow>) = crate::native!(conn, |dbc| card_tables::table
        .left_join(games::table)
        .filter(card_tables::id.eq(table_id))
        .select((TableRow::as_select(), Option::<GameRow>::as_select()))
        .first(dbc))?;
    Ok(of(&t, g.as_ref()))
}

/// A change's new limits.
pub fn to_of(c: &LimitChangeRow) -> Limits {
    Limits {
        small_blind: c.to_small_blind,
        big_blind: c.to_big_blind,
        buy_in_min: c.to_buy_in_min,
        buy_in_max: c.to_buy_in_max,
    }
}

/// A change's limits before it (none for an opening).
pub fn from_of(c: &LimitChangeRow) -> Option<Limits> {
    Some(Limits {
        small_blind: c.from_small_blind?,
        big_blind: c.from_big_blind?,
        buy_in_min: c.from_buy_in_min?,
        buy_in_max: c.from_buy_in_max,
    })
}

/// A change's effective point.
pub fn effective_of(c: &LimitChangeRow) -> Effective {
    match c.effective_at {
        Some(t) => Effective::At(t.and_utc()),
        None => Effective::NextHand,
    }
}

pub(super) fn pending_of(c: &LimitChangeRow) -> Pending {
    Pending {
        effective: effective_of(c),
        announced_at: c.announced_at.map(|t| t.and_utc()),
    }
}

/// What of a game new limits must still fit (PT-2007 7b, BSOP 80).
pub fn fit_of(g: &GameRow) -> GameFit {
    GameFit {
        banked: g.variant.parse::<Variant>().is_ok_and(|v| v.is_banked()),
        session_of_table_max: g.cagnotte_mode == CagnotteMode::PerSession.as_str()
            && SessionBase::parse(&g.cagnotte_base) == Some(SessionBase::TableMax),
        smallest_chip: g.smallest_chip,
    }
}

pub(super) fn in_play(t: &TableRow) -> bool {
    t.state.in_play()
}

pub(super) fn change(conn: &mut DbConn, id: i64) -> AppResult<LimitChangeRow> {
    Ok(crate::native!(conn, |dbc| limit_changes::table
        .find(id)
        .select(LimitChangeRow::as_select())
        .first(dbc))?)
}

/// The table's pending change, if any (at most one: a unique index).
pub fn pending(conn: &mut DbConn, table_id: TableId) -> AppResult<Option<LimitChangeRow>> {
    Ok(crate::native!(conn, |dbc| limit_changes::table
        .filter(limit_changes::table_id.eq(table_id))
        .filter(crate::db::conditions::LimitChangePending)
        .select(LimitChangeRow::as_select())
        .first(dbc))
    .optional()?)
}

/// Every table's pending change, by table id (the board, the lobby, the player pages).
pub fn all_pending(conn: &mut DbConn) -> AppResult<HashMap<TableId, LimitChangeRow>> {
    let rows: Vec<LimitChangeRow> = crate::native!(conn, |dbc| limit_changes::table
        .filter(crate::db::conditions::LimitChangePending)
        .select(LimitChangeRow::as_select())
        .load(dbc))?;
    Ok(rows.into_iter().map(|c| (c.table_id, c)).collect())
}

/// Whether the dealer records hands at this table (a "new hand" tap since it opened).
pub(super) fn records_hands(conn: &mut DbConn, t: &TableRow) -> AppResult<bool> {
    let since = t.opened_at.unwrap_or(t.created_at);
    let n: i64 = crate::native!(conn, |dbc| hands::table
        .filter(hands::table_id.eq(t.id))
        .filter(hands::at.ge(since))
        .count()
        .get_result(dbc))?;
    Ok(n > 0)
}
