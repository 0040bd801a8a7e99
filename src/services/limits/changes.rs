//! The floor's change (BSOP 34): proposed, announced at the table (PT-2007 22), or cancelled.

use super::apply::apply;
use super::current::{change, fit_of, in_play, of, of_game, pending, pending_of, records_hands};
use super::store::{insert, new_row, push};
use crate::db::audit::{self};
use crate::db::models::{LimitChangeRow, TableRow};
use crate::db::schema::{limit_changes, seatings};
use crate::db::{next_seq, DbConn};
use crate::domain::ids::TableId;
use crate::domain::limits::{check_effective, check_limits, takes_effect, Effective, Limits};
use crate::domain::refusal::{LimitRefusal, TableRefusal};
use crate::domain::states::{LimitChangeKind, LimitChangeState};
use crate::domain::FieldError;
use crate::error::{AppError, AppResult};
use crate::services::Act;
use diesel::prelude::*;

/// The floor's approval of a change (BSOP 34), with its effective point (PT-2007 22). Refused:
/// a table not in play (409), limits a table cannot play or a stated time already past or
/// more than `horizon_hours` ahead (422, naming the field; `CARDROOM_LIMIT_CHANGE_HORIZON_HOURS`),
/// the limits in force (409), a change already pending (409: cancel it first). Nothing is
/// written on a refusal. At a table where nobody is seated it applies at once (nobody to
/// tell, no hand in play).
pub fn propose(
    conn: &mut DbConn,
    act: &Act,
    table_id: TableId,
    to: &Limits,
    effective: Effective,
    horizon_hours: u32,
) -> AppResult<LimitChangeRow> {
    let (now, actor) = (act.now, &act.actor);
    let t = crate::services::games::get_table(conn, table_id)?;
    if !in_play(&t) {
        return Err(LimitRefusal::NotInPlay { table: t.number }.into());
    }
    let g = match t.game_id {
        Some(g) => crate::services::games::get_game(conn, g)?,
        None => return Err(TableRefusal::NoGame.into()),
    };
    let mut errs = check_limits(to, &fit_of(&g)).err().unwrap_or_default();
    if let Err(f) = check_effective(effective, now, horizon_hours) {
        errs.push(f);
    }
    if !errs.is_empty() {
        let currency = crate::services::room::get(conn)?.currency;
        for f in errs.iter_mut().filter(|f| f.key == "limits-err-chip") {
            for (_, v) in f.args.iter_mut() {
                if let Ok(minor) = v.parse::<i64>() {
                    *v = crate::i18n::money(minor, &currency);
                }
            }
        }
        return Err(AppError::Validation(crate::services::in_currency(
            errs, &currency,
        )));
    }
    let current = of(&t, Some(&g)).unwrap_or_else(|| of_game(&g));
    if current == *to {
        return Err(LimitRefusal::Unchanged { table: t.number }.into());
    }
    if let Some(p) = pending(conn, t.id)? {
        return Err(LimitRefusal::Pending { id: p.id }.into());
    }
    let row = new_row(
        next_seq(conn, "limit_change")?,
        act,
        &t,
        Some(g.id),
        LimitChangeKind::Floor,
        Some(&current),
        to,
        effective.at(),
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
    push(conn, now, &t, &row)?;
    at_once_if_empty(conn, act, &t, row)
}

/// Nobody seated at the table: nobody to tell, no hand in play; the change applies now.
pub(super) fn at_once_if_empty(
    conn: &mut DbConn,
    act: &Act,
    t: &TableRow,
    c: LimitChangeRow,
) -> AppResult<LimitChangeRow> {
    let seated: i64 = crate::native!(conn, |dbc| seatings::table
        .filter(seatings::table_id.eq(t.id))
        .filter(seatings::left_at.is_null())
        .count()
        .get_result(dbc))?;
    if seated == 0 {
        apply(conn, act, t, &c, None)
    } else {
        Ok(c)
    }
}

/// A pending change of the table `at_table` (the tablet's; another table's is not found).
fn pending_change(
    conn: &mut DbConn,
    id: i64,
    at_table: Option<TableId>,
) -> AppResult<LimitChangeRow> {
    let c = change(conn, id)?;
    if at_table.is_some_and(|t| t != c.table_id) {
        return Err(AppError::NotFound);
    }
    if c.state != LimitChangeState::Pending {
        return Err(LimitRefusal::NotPending {
            state: c.state.to_string(),
        }
        .into());
    }
    Ok(c)
}

/// The dealer confirms the change was announced to the players at the table (PT-2007 22's
/// notice; audited). Confirming again changes nothing. At a table that records no hands a
/// change already due takes effect now (see the module's documentation).
pub fn announce(
    conn: &mut DbConn,
    act: &Act,
    id: i64,
    at_table: Option<TableId>,
) -> AppResult<LimitChangeRow> {
    let (now, actor) = (act.now, &act.actor);
    let c = pending_change(conn, id, at_table)?;
    if c.announced_at.is_some() {
        return Ok(c);
    }
    let t = crate::services::games::get_table(conn, c.table_id)?;
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(
            limit_changes::table
                .find(id)
                .filter(limit_changes::announced_at.is_null())
        )
        .set((
            limit_changes::announced_at.eq(Some(now.naive_utc())),
            limit_changes::announced_by.eq(actor.id),
        ))
        .returning(limit_changes::id)
    )
    .changed(dbc))?;
    let after = change(conn, id)?;
    audit::record(
        conn,
        now,
        actor,
        "table.limits_announced",
        "table",
        Some(c.table_id.get()),
        Some(&c),
        Some(&after),
    )?;
    push(conn, now, &t, &after)?;
    if takes_effect(&pending_of(&after), now) && !records_hands(conn, &t)? {
        return apply(conn, act, &t, &after, None);
    }
    Ok(after)
}

pub(super) fn end_pending(
    conn: &mut DbConn,
    act: &Act,
    t: &TableRow,
    c: &LimitChangeRow,
    reason: &str,
) -> AppResult<LimitChangeRow> {
    let (now, actor) = (act.now, &act.actor);
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(
            limit_changes::table
                .find(c.id)
                .filter(crate::db::conditions::LimitChangePending)
        )
        .set((
            limit_changes::state.eq(LimitChangeState::Cancelled),
            limit_changes::cancelled_at.eq(Some(now.naive_utc())),
            limit_changes::cancelled_by.eq(actor.id),
            limit_changes::cancel_reason.eq(Some(reason)),
        ))
        .returning(limit_changes::id)
    )
    .changed(dbc))?;
    let after = change(conn, c.id)?;
    audit::record(
        conn,
        now,
        actor,
        "table.limits_cancelled",
        "table",
        Some(c.table_id.get()),
        Some(c),
        Some(&after),
    )?;
    push(conn, now, t, &after)?;
    Ok(after)
}

/// The longest reason the floor may give for a cancellation.
pub const REASON_MAX: usize = 200;

/// The floor cancels a pending change (BSOP 34: the floor's approval withdrawn). The table's
/// limits stay as they are; audited and pushed.
pub fn cancel(conn: &mut DbConn, act: &Act, id: i64, reason: &str) -> AppResult<LimitChangeRow> {
    let reason = reason.trim();
    if reason.chars().count() > REASON_MAX {
        return Err(AppError::Validation(vec![FieldError::new(
            "reason",
            "err-too-long",
        )
        .arg("max", REASON_MAX)]));
    }
    let c = pending_change(conn, id, None)?;
    let t = crate::services::games::get_table(conn, c.table_id)?;
    end_pending(
        conn,
        act,
        &t,
        &c,
        if reason.is_empty() { "floor" } else { reason },
    )
}
