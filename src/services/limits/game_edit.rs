//! A game's limits edited, or a table given another game: each table in play gets a pending
//! change to the new limits.

use super::changes::{at_once_if_empty, end_pending};
use super::current::{in_play, of, of_game, pending, to_of};
use super::store::{insert, new_row, push};
use crate::db::audit::{self};
use crate::db::models::{GameRow, LimitChangeRow, TableRow};
use crate::db::schema::card_tables;
use crate::db::{next_seq, DbConn};
use crate::domain::ids::GameId;
use crate::domain::limits::Limits;
use crate::domain::states::LimitChangeKind;
use crate::error::AppResult;
use crate::services::Act;
use diesel::prelude::*;

/// A table of `game_id` in play should come to play `target` (the game's new limits, or a
/// new game's): a pending change to it (from the next hand, after the announcement) unless
/// one is pending already or the table plays them now; another pending change is replaced.
fn retarget(
    conn: &mut DbConn,
    act: &Act,
    t: &TableRow,
    game_id: GameId,
    target: &Limits,
) -> AppResult<Option<LimitChangeRow>> {
    let (now, actor) = (act.now, &act.actor);
    let old = pending(conn, t.id)?;
    if let Some(p) = &old {
        if to_of(p) == *target {
            return Ok(Some(p.clone()));
        }
        end_pending(conn, act, t, p, "replaced by the game's new limits")?;
    }
    // A table in play has limits of its own (set when it opened); one without them plays its
    // game's, which are the target already.
    let Some(current) = of(t, None) else {
        return Ok(None);
    };
    if current == *target {
        return Ok(None);
    }
    let row = new_row(
        next_seq(conn, "limit_change")?,
        act,
        t,
        Some(game_id),
        LimitChangeKind::GameEdit,
        Some(&current),
        target,
        None,
    );
    insert(conn, &row)?;
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "table.limits_change",
        "table",
        Some(t.id.get()),
        None,
        Some(&row),
    )?;
    push(conn, now, t, &row)?;
    Ok(Some(at_once_if_empty(conn, act, t, row)?))
}

/// The admin edited a game (PT-2007 22, BSOP 34): its new limits apply to the tables opened
/// afterwards; each of its tables in play keeps its limits and gets a pending change to the
/// new ones, announced and applied like the floor's (at once where nobody is seated).
/// Returns the changes toward the new limits (none when the limits did not change).
pub fn on_game_edit(
    conn: &mut DbConn,
    act: &Act,
    before: &GameRow,
    after: &GameRow,
) -> AppResult<Vec<LimitChangeRow>> {
    let target = of_game(after);
    if of_game(before) == target {
        return Ok(Vec::new());
    }
    let tables: Vec<TableRow> = crate::native!(conn, |dbc| card_tables::table
        .filter(card_tables::game_id.eq(after.id))
        .filter(crate::db::conditions::TableInPlay)
        .order(card_tables::number.asc())
        .select(TableRow::as_select())
        .load(dbc))?;
    let mut out = Vec::new();
    for t in tables {
        if let Some(c) = retarget(conn, act, &t, after.id, &target)? {
            out.push(c);
        }
    }
    Ok(out)
}

/// The admin gave a table in play another game: it keeps its limits and gets a pending change
/// to the new game's (as a game's edit does).
pub fn on_table_game_changed(
    conn: &mut DbConn,
    act: &Act,
    t: &TableRow,
    g: &GameRow,
) -> AppResult<Option<LimitChangeRow>> {
    if !in_play(t) {
        return Ok(None);
    }
    retarget(conn, act, t, g.id, &of_game(g))
}
