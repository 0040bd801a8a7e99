//! The dues: collected by the dealer or exempted by the floor, listed, shown on the tablet and
//! raised to the floor when they wait too long.

use super::common::field_refusal;
use super::sessions::{open_session, state_of};
use crate::db::audit::{self};
use crate::db::models::{CagnotteDueRow, CagnotteSessionRow};
use crate::db::schema::{cagnotte_dues, cagnotte_sessions, players};
use crate::db::DbConn;
use crate::domain::cagnotte::{self as rules, SessionState};
use crate::domain::ids::TableId;
use crate::domain::money;
use crate::domain::refusal::CagnotteRefusal;
use crate::domain::states::DueState;
use crate::domain::FieldError;
use crate::error::{AppError, AppResult};
use crate::services::floor::emit;
use crate::services::Act;
use chrono::{DateTime, Duration, Utc};
use diesel::prelude::*;
use serde::Serialize;

pub fn due(conn: &mut DbConn, id: i64) -> AppResult<CagnotteDueRow> {
    Ok(crate::native!(conn, |dbc| cagnotte_dues::table
        .find(id)
        .select(CagnotteDueRow::as_select())
        .first(dbc))?)
}

fn settle(
    conn: &mut DbConn,
    act: &Act,
    d: &CagnotteDueRow,
    state: &str,
    collected: Option<i64>,
    reason: Option<&str>,
) -> AppResult<CagnotteDueRow> {
    let (now, actor) = (act.now, &act.actor);
    let n = crate::native!(conn, |dbc| diesel::update(
        cagnotte_dues::table
            .find(d.id)
            .filter(cagnotte_dues::state.eq(DueState::Due))
    )
    .set((
        cagnotte_dues::state.eq(state),
        cagnotte_dues::collected.eq(collected),
        cagnotte_dues::settled_at.eq(Some(now.naive_utc())),
        cagnotte_dues::settled_by.eq(actor.id),
        cagnotte_dues::reason.eq(reason),
    ))
    .execute(dbc))?;
    if n != 1 {
        return Err(CagnotteRefusal::DueSettled.into());
    }
    let after = due(conn, d.id)?;
    audit::record(
        conn,
        now,
        actor,
        &format!("cagnotte.{state}"),
        "player",
        Some(d.player_id.get()),
        Some(d),
        Some(&after),
    )?;
    emit(
        conn,
        now,
        Some(d.table_id),
        "cagnotte.settled",
        &serde_json::json!({ "seat": d.seat_no, "state": state }),
    )?;
    Ok(after)
}

/// The dealer took the session's percentage from the player (PT-2007 7b). `amount`: what was
/// taken (default: the amount due); more than is due is refused, less is recorded as such and
/// shows as a difference in the reports. A player no longer seated at the due's table is not
/// collected from (PT-2007 9c, [`rules::check_collectable`]): 409, nothing written.
pub fn collect(
    conn: &mut DbConn,
    act: &Act,
    id: i64,
    amount: Option<i64>,
    at_table: Option<TableId>,
) -> AppResult<CagnotteDueRow> {
    let room = &act.room;
    let d = due(conn, id)?;
    if at_table.is_some_and(|t| t != d.table_id) {
        return Err(AppError::NotFound);
    }
    if d.state != DueState::Due {
        return Err(CagnotteRefusal::DueSettled.into());
    }
    rules::check_collectable(seated_at(conn, &d)?).map_err(AppError::Conflict)?;
    let amount = amount.unwrap_or(d.amount);
    rules::check_collected(amount, d.amount).map_err(|p| field_refusal("amount", p, room))?;
    settle(conn, act, &d, "collected", Some(amount), None)
}

/// Whether the due's player is seated at its table now (its own seating, or a later one there).
fn seated_at(conn: &mut DbConn, d: &CagnotteDueRow) -> AppResult<bool> {
    use crate::db::schema::seatings;
    let open: i64 = crate::native!(conn, |dbc| seatings::table
        .filter(seatings::player_id.eq(d.player_id))
        .filter(seatings::table_id.eq(d.table_id))
        .filter(seatings::left_at.is_null())
        .count()
        .get_result(dbc))?;
    Ok(open > 0)
}

/// The floor exempts a player from a session's percentage, with a reason (audited).
pub fn exempt(conn: &mut DbConn, act: &Act, id: i64, reason: &str) -> AppResult<CagnotteDueRow> {
    let reason = reason.trim();
    if reason.is_empty() {
        return Err(AppError::field("reason", "err-reason-required"));
    }
    if reason.chars().count() > 200 {
        return Err(AppError::Validation(vec![FieldError::new(
            "reason",
            "err-too-long",
        )
        .arg("max", 200)]));
    }
    let d = due(conn, id)?;
    if d.state != DueState::Due {
        return Err(CagnotteRefusal::DueSettled.into());
    }
    settle(conn, act, &d, "exempt", None, Some(reason))
}

/// A due with the player's alias and the table number, for lists.
#[derive(Debug, Clone, Serialize)]
pub struct DueLine {
    pub due: CagnotteDueRow,
    pub alias: String,
    pub table: i32,
}

/// Dues still to settle (all tables, or one), oldest first.
pub fn open_dues(conn: &mut DbConn, table_id: Option<TableId>) -> AppResult<Vec<DueLine>> {
    use crate::db::schema::card_tables;
    let mut q = cagnotte_dues::table
        .inner_join(players::table)
        .inner_join(card_tables::table.on(card_tables::id.eq(cagnotte_dues::table_id)))
        .filter(cagnotte_dues::state.eq(DueState::Due))
        .into_boxed();
    if let Some(t) = table_id {
        q = q.filter(cagnotte_dues::table_id.eq(t));
    }
    let rows: Vec<(CagnotteDueRow, String, i32)> = q
        .order((cagnotte_dues::due_at.asc(), cagnotte_dues::seat_no.asc()))
        .select((
            CagnotteDueRow::as_select(),
            players::alias,
            card_tables::number,
        ))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(due, alias, table)| DueLine { due, alias, table })
        .collect())
}

/// The table's session as the tablet shows it: the session, where it stands, and its dues.
#[derive(Debug, Clone)]
pub struct SessionPanel {
    pub session: CagnotteSessionRow,
    pub state: SessionState,
    pub dues: Vec<DueLine>,
}

impl SessionPanel {
    pub fn hour_up_at(&self) -> Option<DateTime<Utc>> {
        match self.state {
            SessionState::Running { hour_up_at } => hour_up_at,
            SessionState::Finishing { since } => Some(since),
            SessionState::Closed { at } => Some(at),
        }
    }
    pub fn finishing(&self) -> bool {
        matches!(self.state, SessionState::Finishing { .. })
    }
    /// What is still due in the session (shown on the tablet and the floor's panel): added in
    /// i128, never wrapped.
    pub fn to_collect(&self) -> i64 {
        money::sum_wide(
            self.dues
                .iter()
                .filter(|d| d.due.state == DueState::Due)
                .map(|d| d.due.amount),
        )
    }
    /// The due of a seat in this session, if any.
    pub fn due_of_seat(&self, seat_no: i32) -> Option<&DueLine> {
        self.dues.iter().find(|d| d.due.seat_no == seat_no)
    }
}

/// The table's open session with its dues (none when the game is billed per hand or no hand
/// has been dealt yet).
pub fn panel(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    table_id: TableId,
) -> AppResult<Option<SessionPanel>> {
    use crate::db::schema::card_tables;
    let Some(s) = open_session(conn, table_id)? else {
        return Ok(None);
    };
    let state = state_of(conn, &s, now)?;
    let rows: Vec<(CagnotteDueRow, String, i32)> =
        crate::native!(conn, |dbc| cagnotte_dues::table
            .inner_join(players::table)
            .inner_join(card_tables::table.on(card_tables::id.eq(cagnotte_dues::table_id)))
            .filter(cagnotte_dues::session_id.eq(s.id))
            .order(cagnotte_dues::seat_no.asc())
            .select((
                CagnotteDueRow::as_select(),
                players::alias,
                card_tables::number
            ))
            .load(dbc))?;
    let dues = rows
        .into_iter()
        .map(|(due, alias, table)| DueLine { due, alias, table })
        .collect();
    Ok(Some(SessionPanel {
        session: s,
        state,
        dues,
    }))
}

/// How long a due may wait to be collected before the floor is told.
pub const DUE_ALERT_AFTER_MIN: i64 = 15;

/// For the floor's dashboard: the tables whose session has had its hour of play (PT-2007 7b:
/// waiting for the next hand over, or the floor's close), and how many dues are still open
/// [`DUE_ALERT_AFTER_MIN`] minutes after they arose.
pub fn alerts(conn: &mut DbConn, now: DateTime<Utc>) -> AppResult<(Vec<i32>, i64)> {
    use crate::db::schema::card_tables;
    let open: Vec<(CagnotteSessionRow, i32)> =
        crate::native!(conn, |dbc| cagnotte_sessions::table
            .inner_join(card_tables::table.on(card_tables::id.eq(cagnotte_sessions::table_id)))
            .filter(cagnotte_sessions::closed_at.is_null())
            .order(card_tables::number.asc())
            .select((CagnotteSessionRow::as_select(), card_tables::number))
            .load(dbc))?;
    let mut up = Vec::new();
    for (s, number) in open {
        if matches!(state_of(conn, &s, now)?, SessionState::Finishing { .. }) {
            up.push(number);
        }
    }
    let before = (now - Duration::minutes(DUE_ALERT_AFTER_MIN)).naive_utc();
    let late: i64 = crate::native!(conn, |dbc| cagnotte_dues::table
        .filter(cagnotte_dues::state.eq(DueState::Due))
        .filter(cagnotte_dues::due_at.le(before))
        .count()
        .get_result(dbc))?;
    Ok((up, late))
}
