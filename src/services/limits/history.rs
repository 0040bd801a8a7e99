//! The changes as the screens, the API and the reports show them.

use super::current::{from_of, of, to_of};
use crate::db::models::{GameRow, LimitChangeRow, TableRow};
use crate::db::schema::{card_tables, games, limit_changes, staff};
use crate::db::DbConn;
use crate::domain::ids::GameId;
use crate::domain::ids::TableId;
use crate::domain::limits::Limits;
use crate::domain::states::LimitChangeState;
use crate::error::{AppError, AppResult};
use diesel::prelude::*;
use serde::Serialize;
use std::collections::HashMap;

/// A change as the screens and the API show it: the table's number and who did each step.
#[derive(Debug, Clone, Serialize)]
pub struct ChangeLine {
    pub change: LimitChangeRow,
    pub table_number: i32,
    pub approved_by: Option<String>,
    pub announced_by: Option<String>,
    pub applied_by: Option<String>,
    pub cancelled_by: Option<String>,
}

impl ChangeLine {
    pub fn to(&self) -> Limits {
        to_of(&self.change)
    }
    pub fn from(&self) -> Option<Limits> {
        from_of(&self.change)
    }
}

/// Changes as lines: one table's (newest first, the last `limit`) or given ids.
fn lines(
    conn: &mut DbConn,
    table_id: Option<TableId>,
    ids: Option<&[i64]>,
    limit: i64,
) -> AppResult<Vec<ChangeLine>> {
    let mut q = limit_changes::table
        .inner_join(card_tables::table)
        .into_boxed();
    if let Some(t) = table_id {
        q = q.filter(limit_changes::table_id.eq(t));
    }
    if let Some(ids) = ids {
        q = q.filter(limit_changes::id.eq_any(ids.to_vec()));
    }
    let rows: Vec<(LimitChangeRow, i32)> = q
        .order(limit_changes::id.desc())
        .limit(limit)
        .select((LimitChangeRow::as_select(), card_tables::number))
        .load(conn)?;
    let mut who: Vec<i64> = rows
        .iter()
        .flat_map(|(c, _)| [c.approved_by, c.announced_by, c.applied_by, c.cancelled_by])
        .flatten()
        .collect();
    who.sort_unstable();
    who.dedup();
    let names: HashMap<i64, String> = crate::native!(conn, |dbc| staff::table
        .filter(staff::id.eq_any(&who))
        .select((staff::id, staff::display_name))
        .load::<(i64, String)>(dbc))?
    .into_iter()
    .collect();
    let name = |id: Option<i64>| id.and_then(|i| names.get(&i).cloned());
    Ok(rows
        .into_iter()
        .map(|(c, n)| ChangeLine {
            table_number: n,
            approved_by: name(c.approved_by),
            announced_by: name(c.announced_by),
            applied_by: name(c.applied_by),
            cancelled_by: name(c.cancelled_by),
            change: c,
        })
        .collect())
}

/// A table's limits history, newest first (the last 100).
pub fn history(conn: &mut DbConn, table_id: TableId) -> AppResult<Vec<ChangeLine>> {
    crate::services::games::get_table(conn, table_id)?;
    lines(conn, Some(table_id), None, 100)
}

/// One change as a line.
pub fn line(conn: &mut DbConn, id: i64) -> AppResult<ChangeLine> {
    lines(conn, None, Some(&[id]), 1)?
        .pop()
        .ok_or(AppError::NotFound)
}

/// Changes by id, as lines, by table number.
pub fn lines_of(conn: &mut DbConn, ids: &[i64]) -> AppResult<Vec<ChangeLine>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut v = lines(conn, None, Some(ids), ids.len() as i64)?;
    v.sort_by_key(|l| l.table_number);
    Ok(v)
}

/// The pending changes of the tables of a game, by table number (the admin's game page).
pub fn pending_of_game(conn: &mut DbConn, game_id: GameId) -> AppResult<Vec<ChangeLine>> {
    let ids: Vec<i64> = crate::native!(conn, |dbc| limit_changes::table
        .inner_join(card_tables::table)
        .filter(card_tables::game_id.eq(game_id))
        .filter(crate::db::conditions::LimitChangePending)
        .select(limit_changes::id)
        .load(dbc))?;
    lines_of(conn, &ids)
}

/// Each table's limits over time, for the reports (seconds since the epoch): the limits it
/// opened with and every change applied, in order. Before a table's first record (it last
/// opened before the tables kept their limits) its first change's "from", else its limits
/// now (its own in play, else its game's).
pub fn timelines(
    conn: &mut DbConn,
) -> AppResult<HashMap<TableId, crate::domain::limits::Timeline>> {
    let rows: Vec<LimitChangeRow> = crate::native!(conn, |dbc| limit_changes::table
        .filter(limit_changes::state.eq(LimitChangeState::Applied))
        .order((limit_changes::applied_at.asc(), limit_changes::id.asc()))
        .select(LimitChangeRow::as_select())
        .load(dbc))?;
    let tables: Vec<(TableRow, Option<GameRow>)> = crate::native!(conn, |dbc| card_tables::table
        .left_join(games::table)
        .select((TableRow::as_select(), Option::<GameRow>::as_select()))
        .load(dbc))?;
    let mut out = HashMap::new();
    for (t, g) in &tables {
        let mine: Vec<&LimitChangeRow> = rows.iter().filter(|c| c.table_id == t.id).collect();
        let Some(now_limits) = of(t, g.as_ref()) else {
            continue;
        };
        let before = mine
            .first()
            .and_then(|c| from_of(c))
            .unwrap_or_else(|| mine.first().map(|c| to_of(c)).unwrap_or(now_limits));
        let steps = mine
            .iter()
            .filter_map(|c| c.applied_at.map(|a| (a.and_utc().timestamp(), to_of(c))))
            .collect();
        out.insert(t.id, crate::domain::limits::Timeline { before, steps });
    }
    Ok(out)
}
