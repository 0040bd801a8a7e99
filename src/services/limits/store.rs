//! Writing a change: its row, the table's limits it sets, and the pushed event.

use super::current::to_of;
use crate::db::models::{LimitChangeRow, TableRow};
use crate::db::schema::{card_tables, limit_changes};
use crate::db::DbConn;
use crate::domain::ids::GameId;
use crate::domain::ids::TableId;
use crate::domain::limits::Limits;
use crate::domain::refusal::LimitRefusal;
use crate::domain::states::{LimitChangeKind, LimitChangeState};
use crate::error::{AppError, AppResult};
use crate::services::floor::emit;
use crate::services::Act;
use chrono::{DateTime, NaiveDateTime, Utc};
use diesel::prelude::*;

pub(super) fn set_table_limits(
    conn: &mut DbConn,
    table_id: TableId,
    l: Option<&Limits>,
    since: Option<NaiveDateTime>,
) -> AppResult<()> {
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(card_tables::table.find(table_id))
            .set((
                card_tables::small_blind.eq(l.map(|l| l.small_blind)),
                card_tables::big_blind.eq(l.map(|l| l.big_blind)),
                card_tables::buy_in_min.eq(l.map(|l| l.buy_in_min)),
                card_tables::buy_in_max.eq(l.and_then(|l| l.buy_in_max)),
                card_tables::limits_since.eq(since),
            ))
            .returning(card_tables::id)
    )
    .changed(dbc))?;
    Ok(())
}

// One limit-change row, built from what the caller decided.
#[allow(clippy::too_many_arguments)]
pub(super) fn new_row(
    id: i64,
    act: &Act,
    t: &TableRow,
    game_id: Option<GameId>,
    kind: LimitChangeKind,
    from: Option<&Limits>,
    to: &Limits,
    effective_at: Option<DateTime<Utc>>,
) -> LimitChangeRow {
    let (now, actor) = (act.now, &act.actor);
    LimitChangeRow {
        id,
        table_id: t.id,
        game_id,
        kind,
        state: LimitChangeState::Pending,
        from_small_blind: from.map(|l| l.small_blind),
        from_big_blind: from.map(|l| l.big_blind),
        from_buy_in_min: from.map(|l| l.buy_in_min),
        from_buy_in_max: from.and_then(|l| l.buy_in_max),
        to_small_blind: to.small_blind,
        to_big_blind: to.big_blind,
        to_buy_in_min: to.buy_in_min,
        to_buy_in_max: to.buy_in_max,
        effective_at: effective_at.map(|t| t.naive_utc()),
        approved_at: now.naive_utc(),
        approved_by: actor.id,
        announced_at: None,
        announced_by: None,
        applied_at: None,
        applied_by: None,
        applied_hand: None,
        cancelled_at: None,
        cancelled_by: None,
        cancel_reason: None,
    }
}

pub(super) fn insert(conn: &mut DbConn, row: &LimitChangeRow) -> AppResult<()> {
    crate::native!(conn, |dbc| diesel::insert_into(limit_changes::table)
        .values(row)
        .execute(dbc))
    .map_err(|e| {
        if crate::db::is_unique_violation(&e) {
            AppError::from(LimitRefusal::PendingRace)
        } else {
            e.into()
        }
    })?;
    Ok(())
}

/// The pushed event of a change (the table's stream: its tablet and the floor's board).
pub(super) fn push(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    t: &TableRow,
    c: &LimitChangeRow,
) -> AppResult<()> {
    emit(
        conn,
        now,
        Some(t.id),
        "table.limits",
        &serde_json::json!({
            "table": t.number, "change_id": c.id, "state": c.state, "kind": c.kind,
            "to": to_of(c), "effective_at": c.effective_at.map(|x| x.and_utc()),
            "announced": c.announced_at.is_some(), "applied_hand": c.applied_hand,
        }),
    )?;
    Ok(())
}
