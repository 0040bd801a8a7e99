//! A table opening with its game's limits (PT-2007 22) and closing with its pending change
//! ended (PT-2007 24).

use super::changes::end_pending;
use super::current::{of_game, pending};
use super::store::{new_row, set_table_limits};
use crate::db::audit::{self};
use crate::db::models::{GameRow, TableRow};
use crate::db::schema::limit_changes;
use crate::db::{next_seq, DbConn};
use crate::domain::states::{LimitChangeKind, LimitChangeState};
use crate::error::AppResult;
use crate::services::Act;
use diesel::prelude::*;

/// The table opened (PT-2007 22): it plays its game's limits, recorded as its opening limits.
pub fn on_open(conn: &mut DbConn, act: &Act, t: &TableRow, g: &GameRow) -> AppResult<()> {
    let (now, actor) = (act.now, &act.actor);
    let l = of_game(g);
    set_table_limits(conn, t.id, Some(&l), Some(now.naive_utc()))?;
    let mut row = new_row(
        next_seq(conn, "limit_change")?,
        act,
        t,
        Some(g.id),
        LimitChangeKind::Opening,
        None,
        &l,
        None,
    );
    row.state = LimitChangeState::Applied;
    row.applied_at = Some(now.naive_utc());
    row.applied_by = actor.id;
    crate::native!(conn, |dbc| diesel::insert_into(limit_changes::table)
        .values(&row)
        .execute(dbc))?;
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "table.limits_opened",
        "table",
        Some(t.id.get()),
        None,
        Some(&row),
    )?;
    Ok(())
}

/// The table closed (PT-2007 24): a pending change ends with it (audited), and the table
/// plays its game's limits again when it reopens.
pub fn on_close(conn: &mut DbConn, act: &Act, t: &TableRow) -> AppResult<()> {
    if let Some(c) = pending(conn, t.id)? {
        end_pending(conn, act, t, &c, "table closed")?;
    }
    set_table_limits(conn, t.id, None, None)
}
