//! A change taking effect: at the dealer's "new hand" tap, or by the scheduler at a table
//! that records no hands.

use super::current::{change, in_play, pending, pending_of, records_hands, to_of};
use super::store::{push, set_table_limits};
use crate::db::audit::{self};
use crate::db::models::{LimitChangeRow, TableRow};
use crate::db::schema::{card_tables, limit_changes};
use crate::db::DbConn;
use crate::domain::limits::takes_effect;
use crate::domain::states::LimitChangeState;
use crate::error::AppResult;
use crate::services::Act;
use diesel::prelude::*;

/// The change takes effect now (`hand`: the number of the first hand played at the new
/// limits; none at a table that records no hands).
pub(super) fn apply(
    conn: &mut DbConn,
    act: &Act,
    t: &TableRow,
    c: &LimitChangeRow,
    hand: Option<i32>,
) -> AppResult<LimitChangeRow> {
    let (now, actor) = (act.now, &act.actor);
    let to = to_of(c);
    set_table_limits(conn, t.id, Some(&to), Some(now.naive_utc()))?;
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(
            limit_changes::table
                .find(c.id)
                .filter(crate::db::conditions::LimitChangePending)
        )
        .set((
            limit_changes::state.eq(LimitChangeState::Applied),
            limit_changes::applied_at.eq(Some(now.naive_utc())),
            limit_changes::applied_by.eq(actor.id),
            limit_changes::applied_hand.eq(hand),
        ))
        .returning(limit_changes::id)
    )
    .changed(dbc))?;
    let after = change(conn, c.id)?;
    audit::record(
        conn,
        now,
        actor,
        "table.limits_applied",
        "table",
        Some(t.id.get()),
        Some(c),
        Some(&after),
    )?;
    push(conn, now, t, &after)?;
    Ok(after)
}

/// The dealer's "new hand" tap starts hand number `hand` at `now`: the table's pending change
/// takes effect with it if it is announced and due (PT-2007 22, BSOP 34); otherwise the hand
/// is played at the limits in force.
pub fn at_new_hand(
    conn: &mut DbConn,
    act: &Act,
    t: &TableRow,
    hand: i32,
) -> AppResult<Option<LimitChangeRow>> {
    let now = act.now;
    match pending(conn, t.id)? {
        Some(c) if takes_effect(&pending_of(&c), now) => {
            Ok(Some(apply(conn, act, t, &c, Some(hand))?))
        }
        _ => Ok(None),
    }
}

/// The scheduler's pass: at tables in play that record no hands, a pending change announced
/// and due takes effect (a stated time reached). Returns how many were applied.
pub fn tick(conn: &mut DbConn, act: &Act) -> AppResult<usize> {
    let now = act.now;
    let due: Vec<(LimitChangeRow, TableRow)> = crate::native!(conn, |dbc| limit_changes::table
        .inner_join(card_tables::table)
        .filter(crate::db::conditions::LimitChangePending)
        .filter(limit_changes::announced_at.is_not_null())
        .filter(
            limit_changes::effective_at
                .is_null()
                .or(limit_changes::effective_at.le(now.naive_utc()))
        )
        .select((LimitChangeRow::as_select(), TableRow::as_select()))
        .load(dbc))?;
    let mut n = 0;
    for (c, t) in due {
        if in_play(&t) && takes_effect(&pending_of(&c), now) && !records_hands(conn, &t)? {
            apply(conn, act, &t, &c, None)?;
            n += 1;
        }
    }
    Ok(n)
}
