//! Cagnotte sessions (PT-2007 7b): started, closed (by the hour of play, the floor or the
//! table closing), and the dues of the players seated in them.

use super::common::{chip_of, game, limits_now, utc};
use super::suspensions::suspensions_since;
use crate::db::audit::{self};
use crate::db::models::{
    CagnotteDueRow, CagnotteSessionRow, GameRow, SeatSideRow, SeatingRow, TableRow,
};
use crate::db::schema::{cagnotte_dues, cagnotte_sessions, dealer_shifts, seatings};
use crate::db::{next_seq, DbConn};
use crate::domain::cagnotte::{self as rules, SeatSpan, SessionBase, SessionBilling, SessionState};
use crate::domain::ids::SeatingId;
use crate::domain::ids::TableId;
use crate::domain::refusal::CagnotteRefusal;
use crate::domain::states::DueState;
use crate::error::AppResult;
use crate::services::floor::emit;
use crate::services::Act;
use chrono::{DateTime, Duration, Utc};
use diesel::prelude::*;

/// The table's open session, if any.
pub fn open_session(conn: &mut DbConn, table_id: TableId) -> AppResult<Option<CagnotteSessionRow>> {
    Ok(crate::native!(conn, |dbc| cagnotte_sessions::table
        .filter(cagnotte_sessions::table_id.eq(table_id))
        .filter(cagnotte_sessions::closed_at.is_null())
        .select(CagnotteSessionRow::as_select())
        .first(dbc)
        .optional())?)
}

fn billing(s: &CagnotteSessionRow) -> SessionBilling {
    SessionBilling {
        bp: s.bp,
        base: SessionBase::parse(&s.base).unwrap_or(SessionBase::TableMax),
        table_max: s.table_max.unwrap_or(0),
        smallest_chip: s.smallest_chip,
        late_window: Duration::minutes(s.late_window_min as i64),
    }
}

/// Where the session stands at `now` (a tap at `now` would close it when the hour is up).
pub fn state_of(
    conn: &mut DbConn,
    s: &CagnotteSessionRow,
    now: DateTime<Utc>,
) -> AppResult<SessionState> {
    if let Some(at) = s.closed_at {
        return Ok(SessionState::Closed { at: utc(at) });
    }
    let susp = suspensions_since(conn, s.table_id, s.started_at)?;
    Ok(rules::session_state(
        utc(s.started_at),
        Duration::minutes(s.length_min as i64),
        &susp,
        &[],
        now,
    ))
}

/// The seats open at the table, with the cave (what each player brought).
fn seated(conn: &mut DbConn, table_id: TableId) -> AppResult<Vec<(SeatingRow, SeatSideRow)>> {
    Ok(crate::native!(conn, |dbc| seatings::table
        .filter(seatings::table_id.eq(table_id))
        .filter(seatings::left_at.is_null())
        .order(seatings::seat_no.asc())
        .select((SeatingRow::as_select(), SeatSideRow::as_select()))
        .load(dbc))?)
}

fn span(s: &SeatingRow, sd: &SeatSideRow) -> SeatSpan {
    SeatSpan {
        player_id: s.player_id,
        seat_no: s.seat_no,
        sat_at: utc(s.sat_at),
        left_at: s.left_at.map(utc),
        cave: sd.bought_in,
    }
}

fn insert_due(
    conn: &mut DbConn,
    act: &Act,
    s: &CagnotteSessionRow,
    seating_id: SeatingId,
    d: &rules::SessionDue,
) -> AppResult<CagnotteDueRow> {
    let (now, actor) = (act.now, &act.actor);
    let row = CagnotteDueRow {
        id: next_seq(conn, "cagnotte_due")?,
        session_id: s.id,
        table_id: s.table_id,
        game_id: s.game_id,
        player_id: d.player_id,
        seating_id,
        seat_no: d.seat_no,
        amount: d.amount,
        late: d.late,
        due_at: d.at.naive_utc(),
        state: DueState::Due,
        collected: None,
        settled_at: None,
        settled_by: None,
        reason: None,
    };
    crate::native!(conn, |dbc| diesel::insert_into(cagnotte_dues::table)
        .values(&row)
        .execute(dbc))?;
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "cagnotte.due",
        "player",
        Some(d.player_id.get()),
        None,
        Some(&row),
    )?;
    Ok(row)
}

/// Starts the table's next session at `now`: the game's settings are copied onto it and every
/// player seated now owes (PT-2007 7b).
pub(super) fn start_session(
    conn: &mut DbConn,
    act: &Act,
    t: &TableRow,
    g: &GameRow,
) -> AppResult<CagnotteSessionRow> {
    let (now, profile, actor) = (act.now, act.profile(), &act.actor);
    let number: Option<i32> = crate::native!(conn, |dbc| cagnotte_sessions::table
        .filter(cagnotte_sessions::table_id.eq(t.id))
        .select(diesel::dsl::max(cagnotte_sessions::number))
        .first(dbc))?;
    // PT-2007 7b, 22: the session is taken of the table's maximum in force when it starts
    // (read afresh: a limit change may take effect with the hand that starts it).
    let lim = limits_now(conn, t, g)?;
    let s = CagnotteSessionRow {
        id: next_seq(conn, "cagnotte_session")?,
        table_id: t.id,
        game_id: g.id,
        number: number.unwrap_or(0) + 1,
        started_at: now.naive_utc(),
        closed_at: None,
        close_reason: None,
        closed_by: None,
        bp: g.cagnotte_bp,
        base: g.cagnotte_base.clone(),
        table_max: lim.buy_in_max,
        smallest_chip: chip_of(g, &lim),
        length_min: profile.session_length_min,
        late_window_min: profile.late_seat_window_min,
    };
    crate::native!(conn, |dbc| diesel::insert_into(cagnotte_sessions::table)
        .values(&s)
        .execute(dbc))?;
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "cagnotte.session_start",
        "table",
        Some(t.id.get()),
        None,
        Some(&s),
    )?;
    let seats = seated(conn, t.id)?;
    let spans: Vec<SeatSpan> = seats.iter().map(|(a, b)| span(a, b)).collect();
    let dues = rules::session_dues(now, None, &billing(&s), &[], &spans);
    for d in &dues {
        let seating_id = seats
            .iter()
            .find(|(x, _)| x.player_id == d.player_id)
            .map(|(x, _)| x.id)
            .unwrap_or_default();
        insert_due(conn, act, &s, seating_id, d)?;
    }
    emit(
        conn,
        now,
        Some(t.id),
        "cagnotte.session",
        &serde_json::json!({ "table": t.number, "session": s.number, "dues": dues.len() }),
    )?;
    Ok(s)
}

pub(super) fn close_session(
    conn: &mut DbConn,
    act: &Act,
    s: &CagnotteSessionRow,
    reason: &str,
) -> AppResult<()> {
    let (now, actor) = (act.now, &act.actor);
    let n = crate::native!(conn, |dbc| diesel::update(
        cagnotte_sessions::table
            .find(s.id)
            .filter(cagnotte_sessions::closed_at.is_null())
    )
    .set((
        cagnotte_sessions::closed_at.eq(Some(now.naive_utc())),
        cagnotte_sessions::close_reason.eq(Some(reason)),
        cagnotte_sessions::closed_by.eq(actor.id)
    ))
    .execute(dbc))?;
    if n != 1 {
        return Err(CagnotteRefusal::SessionClosed.into());
    }
    audit::record(
        conn,
        now,
        actor,
        "cagnotte.session_close",
        "table",
        Some(s.table_id.get()),
        Some(s),
        Some(&serde_json::json!({ "closed_at": now, "reason": reason })),
    )?;
    Ok(())
}

/// PT-2007 7b: a player sat down (called where every seating starts, in its transaction).
/// Within the late window of the table's open session, and not already charged in it, the
/// player owes the session from now. Reads one row when no session is open, none when the
/// caller already knows (`session_open`, read in this transaction).
pub fn on_seat(
    conn: &mut DbConn,
    act: &Act,
    row: &SeatingRow,
    session_open: Option<bool>,
) -> AppResult<Option<CagnotteDueRow>> {
    let now = act.now;
    // The caller read in this transaction that the table has no open session.
    if session_open == Some(false) {
        return Ok(None);
    }
    let Some(s) = open_session(conn, row.table_id)? else {
        return Ok(None);
    };
    let already: i64 = crate::native!(conn, |dbc| cagnotte_dues::table
        .filter(cagnotte_dues::session_id.eq(s.id))
        .filter(cagnotte_dues::player_id.eq(row.player_id))
        .count()
        .get_result(dbc))?;
    if already > 0 {
        return Ok(None);
    }
    let susp = suspensions_since(conn, s.table_id, s.started_at)?;
    let cave: i64 = crate::native!(conn, |dbc| seatings::table
        .find(row.id)
        .select(seatings::bought_in)
        .first(dbc))?;
    let spans = [SeatSpan {
        player_id: row.player_id,
        seat_no: row.seat_no,
        sat_at: now,
        left_at: None,
        cave,
    }];
    let dues = rules::session_dues(utc(s.started_at), None, &billing(&s), &susp, &spans);
    let Some(d) = dues.first() else {
        return Ok(None);
    };
    let due = insert_due(conn, act, &s, row.id, d)?;
    emit(
        conn,
        now,
        Some(s.table_id),
        "cagnotte.due",
        &serde_json::json!({ "seat": row.seat_no, "amount": d.amount, "late": true }),
    )?;
    Ok(Some(due))
}

/// The cave (what the player brought) is known only once the chips are in: for a game charged
/// on the cave, a due not yet settled is set from the seat's first buy-in.
pub fn on_buyin(conn: &mut DbConn, act: &Act, seating_id: SeatingId) -> AppResult<()> {
    let (now, actor) = (act.now, &act.actor);
    let due: Option<CagnotteDueRow> = crate::native!(conn, |dbc| cagnotte_dues::table
        .filter(cagnotte_dues::seating_id.eq(seating_id))
        .filter(cagnotte_dues::state.eq(DueState::Due))
        .select(CagnotteDueRow::as_select())
        .first(dbc)
        .optional())?;
    let Some(due) = due else { return Ok(()) };
    let s: CagnotteSessionRow = crate::native!(conn, |dbc| cagnotte_sessions::table
        .find(due.session_id)
        .select(CagnotteSessionRow::as_select())
        .first(dbc))?;
    if s.base != SessionBase::Cave.as_str() {
        return Ok(());
    }
    let cave: i64 = crate::native!(conn, |dbc| seatings::table
        .find(seating_id)
        .select(seatings::bought_in)
        .first(dbc))?;
    let amount = rules::session_charge(cave, s.bp, s.smallest_chip);
    if amount != due.amount {
        crate::native!(conn, |dbc| diesel::update(
            cagnotte_dues::table.find(due.id)
        )
        .set(cagnotte_dues::amount.eq(amount))
        .execute(dbc))?;
        audit::record(
            conn,
            now,
            actor,
            "cagnotte.due_cave",
            "player",
            Some(due.player_id.get()),
            Some(&due),
            Some(&serde_json::json!({ "amount": amount, "cave": cave })),
        )?;
    }
    Ok(())
}

/// The table closed (PT-2007 24): its open session ends, as does the dealer's shift.
pub fn on_table_closed(conn: &mut DbConn, act: &Act, table_id: TableId) -> AppResult<()> {
    let now = act.now;
    if let Some(s) = open_session(conn, table_id)? {
        close_session(conn, act, &s, "table_closed")?;
    }
    crate::native!(conn, |dbc| diesel::update(
        dealer_shifts::table
            .filter(dealer_shifts::table_id.eq(table_id))
            .filter(dealer_shifts::ended_at.is_null())
    )
    .set(dealer_shifts::ended_at.eq(Some(now.naive_utc())))
    .execute(dbc))?;
    Ok(())
}

/// PT-2007 7b: the floor confirms the end of a session whose hour of play is up (when the
/// hand in progress is over but nobody tapped); the next session starts now.
pub fn close_by_floor(
    conn: &mut DbConn,
    act: &Act,
    table_id: TableId,
) -> AppResult<CagnotteSessionRow> {
    let now = act.now;
    let t = crate::services::games::get_table(conn, table_id)?;
    let s = open_session(conn, table_id)?.ok_or(CagnotteRefusal::SessionNone)?;
    if !matches!(state_of(conn, &s, now)?, SessionState::Finishing { .. }) {
        return Err(CagnotteRefusal::SessionHourNotUp.into());
    }
    let g = game(conn, s.game_id)?;
    close_session(conn, act, &s, "floor")?;
    start_session(conn, act, &t, &g)
}
