//! Cagnotte sessions, dues, rake, tips, drop box and commission: the persistence
//! around the pure rules of [`crate::domain::cagnotte`].
//!
//! - **Sessions** (PT-2007 7b) exist for games billed per session. A table's first "hand
//!   over" tap (the first hand dealt) starts session 1; a tap at or after the hour of play is
//!   up (suspensions do not count, PT-2007 24) closes it and starts the next at that instant;
//!   the floor may confirm the close instead ([`close_by_floor`]); closing the table closes it.
//!   Every player seated when a session starts owes at once; a player who sits down within
//!   the late window (30 minutes of play) owes from the moment they sit ([`on_seat`]).
//! - **Dues** are settled by the dealer (collected, at most the amount due) or exempted by the
//!   floor with a reason. Each due, collection and exemption is audited.
//! - **Rake per hand** (PT-2007 7a, PT-ONL 17a, 18) is recorded on the hand it was taken from,
//!   at the tap that ends it; the quick mode records a drop box total per shift instead.
//! - **Tips** (PT-2007 5, 9d) per table and dealer shift; **commission** (MO-13 11) per round.
//!
//! All amounts are integer minor units; what the house takes is rounded down to the smallest
//! chip in play (BSOP 80, [`crate::domain::cagnotte::round_down_to_chip`]).

use crate::db::audit::{self};
use crate::db::models::{
    CagnotteDueRow, CagnotteSessionRow, CommissionRow, DealerShiftRow, DropBoxRow, GameRow,
    HandRow, SeatSideRow, SeatingRow, SuspensionRow, TableRow, TipRow,
};
use crate::db::schema::{
    cagnotte_dues, cagnotte_sessions, commissions, dealer_shifts, drop_boxes, hands, players,
    seatings, staff, table_suspensions, tips,
};
use crate::db::{next_seq, DbConn};
use crate::domain::cagnotte::{
    self as rules, SeatSpan, SessionBase, SessionBilling, SessionState, Suspension,
};
use crate::domain::game::Variant;
use crate::domain::limits::Limits;
use crate::domain::money;
use crate::domain::profile::CagnotteMode;
use crate::domain::refusal::{CagnotteRefusal, TableRefusal};
use crate::domain::states::DueState;
use crate::domain::{FieldError, Problem};
use crate::error::{AppError, AppResult};
use crate::services::floor::emit;
use crate::services::room::Room;
use crate::services::Act;
use chrono::{DateTime, Duration, NaiveDateTime, Utc};
use diesel::prelude::*;
use serde::{Deserialize, Serialize};

fn utc(t: NaiveDateTime) -> DateTime<Utc> {
    t.and_utc()
}

/// A rule's refusal of an amount typed in a field: a 422 on that field, amounts said in the
/// room's currency.
fn field_refusal(field: &str, p: Problem, room: &Room) -> AppError {
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
fn limits_now(conn: &mut DbConn, t: &TableRow, g: &GameRow) -> AppResult<Limits> {
    Ok(crate::services::limits::of_table(conn, t.id)?
        .unwrap_or_else(|| crate::services::limits::of_game(g)))
}

fn per_session(g: &GameRow) -> bool {
    g.cagnotte_mode == CagnotteMode::PerSession.to_string()
}

fn game(conn: &mut DbConn, id: i64) -> AppResult<GameRow> {
    crate::services::games::get_game(conn, id)
}

// ---- suspensions (PT-2007 24) -----------------------------------------------------------------

/// The table was suspended at `now` (called where the table's state changes).
pub fn suspension_started(conn: &mut DbConn, now: DateTime<Utc>, table_id: i64) -> AppResult<()> {
    let row = SuspensionRow {
        id: next_seq(conn, "suspension")?,
        table_id,
        from_at: now.naive_utc(),
        to_at: None,
    };
    crate::native!(conn, |dbc| diesel::insert_into(table_suspensions::table)
        .values(&row)
        .execute(dbc))?;
    Ok(())
}

/// The table's suspension ended at `now` (it runs again, or it closed).
pub fn suspension_ended(conn: &mut DbConn, now: DateTime<Utc>, table_id: i64) -> AppResult<()> {
    crate::native!(conn, |dbc| diesel::update(
        table_suspensions::table
            .filter(table_suspensions::table_id.eq(table_id))
            .filter(table_suspensions::to_at.is_null())
    )
    .set(table_suspensions::to_at.eq(Some(now.naive_utc())))
    .execute(dbc))?;
    Ok(())
}

/// The table's suspensions that end after `since` (or are still running).
pub fn suspensions_since(
    conn: &mut DbConn,
    table_id: i64,
    since: NaiveDateTime,
) -> AppResult<Vec<Suspension>> {
    let rows: Vec<SuspensionRow> = crate::native!(conn, |dbc| table_suspensions::table
        .filter(table_suspensions::table_id.eq(table_id))
        .filter(
            table_suspensions::to_at
                .is_null()
                .or(table_suspensions::to_at.gt(since))
        )
        .select(SuspensionRow::as_select())
        .load(dbc))?;
    Ok(rows
        .into_iter()
        .map(|r| Suspension {
            from: utc(r.from_at),
            to: r.to_at.map(utc),
        })
        .collect())
}

// ---- sessions (PT-2007 7b) --------------------------------------------------------------------

/// The table's open session, if any.
pub fn open_session(conn: &mut DbConn, table_id: i64) -> AppResult<Option<CagnotteSessionRow>> {
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
fn seated(conn: &mut DbConn, table_id: i64) -> AppResult<Vec<(SeatingRow, SeatSideRow)>> {
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
    seating_id: i64,
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
        Some(d.player_id),
        None,
        Some(&row),
    )?;
    Ok(row)
}

/// Starts the table's next session at `now`: the game's settings are copied onto it and every
/// player seated now owes (PT-2007 7b).
fn start_session(
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
        Some(t.id),
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

fn close_session(
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
        Some(s.table_id),
        Some(s),
        Some(&serde_json::json!({ "closed_at": now, "reason": reason })),
    )?;
    Ok(())
}

/// What the dealer recorded about the hand that just ended (PT-2007 7a).
#[derive(Debug, Clone, Default, Deserialize, Serialize, utoipa::ToSchema)]
pub struct HandResult {
    /// The pot, minor units: 0 to 11 stacks of 100 maximum buy-ins of the game
    /// (1,100,000,000,000 without a maximum), else 422.
    #[schema(minimum = 0, maximum = 1100000000000_i64)]
    pub pot: Option<i64>,
    /// The rake taken from it, minor units: at most the pot and PT-2007 7a's 5 % (422).
    #[schema(minimum = 0)]
    pub rake: Option<i64>,
    /// PT-ONL 18: the hand ended before the flop without a voluntary bet.
    #[serde(default)]
    pub preflop_no_bet: bool,
    /// BSOP 90: the boards the hand was run on, 1 to 3 (absent: 1). A hand run more than
    /// once is raked once, on its whole pot, and not left unraked.
    #[schema(minimum = 1, maximum = 3)]
    pub boards: Option<i32>,
}

impl HandResult {
    pub fn is_empty(&self) -> bool {
        self.pot.is_none() && self.rake.is_none() && !self.preflop_no_bet && self.boards.is_none()
    }
}

/// What the "hand over" tap did to the cagnotte.
#[derive(Debug, Clone, Default, Serialize)]
pub struct HandOver {
    /// The session closed by this tap (its number).
    pub closed: Option<i32>,
    /// The session started by this tap (its number).
    pub started: Option<i32>,
}

/// The dealer's "hand over" tap (called by [`crate::services::table_side::new_hand`] before the
/// new hand is counted, in its transaction): records the ended hand's pot and rake, keeps the
/// dealer's shift, and for per-session games starts the first session or — the hour of play
/// being up — closes the session and starts the next (PT-2007 7b).
pub fn on_hand_over(
    conn: &mut DbConn,
    act: &Act,
    t: &TableRow,
    result: &HandResult,
) -> AppResult<HandOver> {
    let (now, actor) = (act.now, &act.actor);
    let Some(game_id) = t.game_id else {
        return Ok(HandOver::default());
    };
    let g = game(conn, game_id)?;
    let last: Option<HandRow> = crate::native!(conn, |dbc| hands::table
        .filter(hands::table_id.eq(t.id))
        .order(hands::number.desc())
        .select(HandRow::as_select())
        .first(dbc)
        .optional())?;
    if !result.is_empty() {
        let Some(h) = last.as_ref() else {
            return Err(CagnotteRefusal::HandNoneToRecord.into());
        };
        // The ended hand was played at the limits `t` was read with (before any change the
        // new hand brings, PT-2007 22).
        let lim = crate::services::limits::of(t, Some(&g))
            .unwrap_or_else(|| crate::services::limits::of_game(&g));
        record_result(conn, act, &g, &lim, h, result)?;
    } else if let Some(h) = last.as_ref() {
        crate::native!(conn, |dbc| diesel::update(hands::table.find(h.id))
            .set(hands::ended_at.eq(Some(now.naive_utc())))
            .execute(dbc))?;
    }
    if let Some(id) = actor.id {
        keep_shift(conn, act, t.id, id)?;
    }
    let mut out = HandOver::default();
    if !per_session(&g) {
        return Ok(out);
    }
    match open_session(conn, t.id)? {
        None => {
            out.started = Some(start_session(conn, act, t, &g)?.number);
        }
        Some(s) => {
            if matches!(state_of(conn, &s, now)?, SessionState::Finishing { .. }) {
                close_session(conn, act, &s, "hand_over")?;
                out.closed = Some(s.number);
                out.started = Some(start_session(conn, act, t, &g)?.number);
            }
        }
    }
    Ok(out)
}

fn record_result(
    conn: &mut DbConn,
    act: &Act,
    g: &GameRow,
    lim: &Limits,
    h: &HandRow,
    r: &HandResult,
) -> AppResult<()> {
    let room = &act.room;
    let (now, actor) = (act.now, &act.actor);
    let pot = r.pot.unwrap_or(0);
    let rake = r.rake.unwrap_or(0);
    // A pot is at most every seat's stack (domain::money::pot); the rake is then
    // bounded by it (PT-2007 7a, below).
    money::pot(lim.buy_in_max)
        .check(pot)
        .map_err(|p| field_refusal("pot", p, room))?;
    if rake > 0 && per_session(g) {
        return Err(field_refusal(
            "rake",
            Problem::from(CagnotteRefusal::RakeSessionGame),
            room,
        ));
    }
    if r.pot.is_none() && rake > 0 {
        return Err(AppError::field("pot", "err-required"));
    }
    let p = &room.profile;
    rules::check_rake(
        pot,
        rake,
        g.cagnotte_bp,
        g.rake_cap,
        chip_of(g, lim),
        r.preflop_no_bet,
        p.no_flop_no_drop,
    )
    .map_err(|e| field_refusal("rake", e, room))?;
    // BSOP 90: run more than once, raked once by the hand's result (a game charged per
    // session takes nothing per hand).
    let boards = r.boards.unwrap_or(1);
    if boards > 1 && r.pot.is_none() && !per_session(g) {
        return Err(field_refusal(
            "pot",
            Problem::from(CagnotteRefusal::BoardsPotMissing),
            room,
        ));
    }
    let allowed = if per_session(g) {
        0
    } else {
        rules::max_rake(
            pot,
            g.cagnotte_bp,
            g.rake_cap,
            chip_of(g, lim),
            r.preflop_no_bet,
            p.no_flop_no_drop,
        )
    };
    rules::check_boards(boards, rake, allowed, r.preflop_no_bet).map_err(|e| {
        let field = if e.key == "rules-boards-rake-missing" {
            "rake"
        } else {
            "boards"
        };
        field_refusal(field, e, room)
    })?;
    crate::native!(conn, |dbc| diesel::update(hands::table.find(h.id))
        .set((
            hands::ended_at.eq(Some(now.naive_utc())),
            hands::pot.eq(r.pot),
            hands::rake.eq(Some(rake)),
            hands::preflop_no_bet.eq(r.preflop_no_bet),
            hands::result_by.eq(actor.id),
            hands::boards.eq(boards),
        ))
        .execute(dbc))?;
    audit::record(
        conn,
        now,
        actor,
        "cagnotte.rake",
        "table",
        Some(h.table_id),
        Some(h),
        Some(
            &serde_json::json!({ "hand": h.number, "pot": r.pot, "rake": rake, "preflop_no_bet": r.preflop_no_bet, "boards": boards }),
        ),
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
pub fn on_buyin(conn: &mut DbConn, act: &Act, seating_id: i64) -> AppResult<()> {
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
            Some(due.player_id),
            Some(&due),
            Some(&serde_json::json!({ "amount": amount, "cave": cave })),
        )?;
    }
    Ok(())
}

/// The table closed (PT-2007 24): its open session ends, as does the dealer's shift.
pub fn on_table_closed(conn: &mut DbConn, act: &Act, table_id: i64) -> AppResult<()> {
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
    table_id: i64,
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

// ---- settling dues ----------------------------------------------------------------------------

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
        Some(d.player_id),
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
/// shows as a difference in the reports.
pub fn collect(
    conn: &mut DbConn,
    act: &Act,
    id: i64,
    amount: Option<i64>,
    at_table: Option<i64>,
) -> AppResult<CagnotteDueRow> {
    let room = &act.room;
    let d = due(conn, id)?;
    if at_table.is_some_and(|t| t != d.table_id) {
        return Err(AppError::NotFound);
    }
    if d.state != DueState::Due {
        return Err(CagnotteRefusal::DueSettled.into());
    }
    let amount = amount.unwrap_or(d.amount);
    rules::check_collected(amount, d.amount).map_err(|p| field_refusal("amount", p, room))?;
    settle(conn, act, &d, "collected", Some(amount), None)
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
pub fn open_dues(conn: &mut DbConn, table_id: Option<i64>) -> AppResult<Vec<DueLine>> {
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
    table_id: i64,
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

// ---- dealer shifts, tips, drop box, commission -------------------------------------------------

/// The table's open dealer shift, if any.
pub fn open_shift(conn: &mut DbConn, table_id: i64) -> AppResult<Option<DealerShiftRow>> {
    Ok(crate::native!(conn, |dbc| dealer_shifts::table
        .filter(dealer_shifts::table_id.eq(table_id))
        .filter(dealer_shifts::ended_at.is_null())
        .select(DealerShiftRow::as_select())
        .first(dbc)
        .optional())?)
}

/// A shift begins (or goes on) for this dealer at this table (a floor manager's assignment,
/// `services::dealer_scope::assign`).
pub fn begin_shift(
    conn: &mut DbConn,
    act: &Act,
    table_id: i64,
    dealer_id: i64,
) -> AppResult<DealerShiftRow> {
    keep_shift(conn, act, table_id, dealer_id)
}

/// The staff member dealing at the table: their shift goes on, or begins (ending another's).
fn keep_shift(
    conn: &mut DbConn,
    act: &Act,
    table_id: i64,
    dealer_id: i64,
) -> AppResult<DealerShiftRow> {
    let (now, actor) = (act.now, &act.actor);
    if let Some(s) = open_shift(conn, table_id)? {
        if s.dealer_id == dealer_id {
            return Ok(s);
        }
        end_shift_row(conn, act, &s)?;
    }
    let row = DealerShiftRow {
        id: next_seq(conn, "dealer_shift")?,
        table_id,
        dealer_id,
        started_at: now.naive_utc(),
        ended_at: None,
    };
    crate::native!(conn, |dbc| diesel::insert_into(dealer_shifts::table)
        .values(&row)
        .execute(dbc))?;
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "shift.start",
        "table",
        Some(table_id),
        None,
        Some(&row),
    )?;
    Ok(row)
}

fn end_shift_row(conn: &mut DbConn, act: &Act, s: &DealerShiftRow) -> AppResult<()> {
    let (now, actor) = (act.now, &act.actor);
    crate::native!(conn, |dbc| diesel::update(
        dealer_shifts::table
            .find(s.id)
            .filter(dealer_shifts::ended_at.is_null())
    )
    .set(dealer_shifts::ended_at.eq(Some(now.naive_utc())))
    .execute(dbc))?;
    audit::record(
        conn,
        now,
        actor,
        "shift.end",
        "table",
        Some(s.table_id),
        Some(s),
        Some(&serde_json::json!({ "ended_at": now })),
    )?;
    Ok(())
}

/// The dealer's shift at the table ends (the tips and drop box recorded with it stay on it).
pub fn end_shift(conn: &mut DbConn, act: &Act, table_id: i64) -> AppResult<DealerShiftRow> {
    let s = open_shift(conn, table_id)?.ok_or(CagnotteRefusal::ShiftNone)?;
    end_shift_row(conn, act, &s)?;
    Ok(s)
}

/// The shift a tip or drop box recorded now at the table belongs to: the open one, or one
/// begun by whoever records it.
fn shift_for(conn: &mut DbConn, act: &Act, table_id: i64) -> AppResult<Option<DealerShiftRow>> {
    let actor = &act.actor;
    if let Some(s) = open_shift(conn, table_id)? {
        return Ok(Some(s));
    }
    match actor.id {
        Some(id) => Ok(Some(keep_shift(conn, act, table_id, id)?)),
        None => Ok(None),
    }
}

/// PT-2007 5, 9d: tips given at the table, recorded apart from the cagnotte, on the dealer's
/// shift.
pub fn record_tip(conn: &mut DbConn, act: &Act, table_id: i64, amount: i64) -> AppResult<TipRow> {
    let (now, actor) = (act.now, &act.actor);
    super::check_amount(conn, "amount", money::TIP, amount)?;
    let t = crate::services::games::get_table(conn, table_id)?;
    let shift = shift_for(conn, act, table_id)?;
    let row = TipRow {
        id: next_seq(conn, "tip")?,
        table_id,
        game_id: t.game_id,
        shift_id: shift.as_ref().map(|s| s.id),
        dealer_id: shift.as_ref().map(|s| s.dealer_id),
        amount,
        at: now.naive_utc(),
        recorded_by: actor.id,
    };
    crate::native!(conn, |dbc| diesel::insert_into(tips::table)
        .values(&row)
        .execute(dbc))?;
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "cagnotte.tip",
        "table",
        Some(table_id),
        None,
        Some(&row),
    )?;
    Ok(row)
}

/// The quick mode of per-hand rake: the drop box's total at the end of the dealer's shift
/// (the shift ends with it when `end`).
pub fn record_drop(
    conn: &mut DbConn,
    act: &Act,
    table_id: i64,
    amount: i64,
    end: bool,
) -> AppResult<DropBoxRow> {
    let (now, actor) = (act.now, &act.actor);
    super::check_amount(conn, "amount", money::DROP_BOX, amount)?;
    let t = crate::services::games::get_table(conn, table_id)?;
    let shift = shift_for(conn, act, table_id)?;
    let row = DropBoxRow {
        id: next_seq(conn, "drop_box")?,
        table_id,
        game_id: t.game_id,
        shift_id: shift.as_ref().map(|s| s.id),
        dealer_id: shift.as_ref().map(|s| s.dealer_id),
        amount,
        at: now.naive_utc(),
        recorded_by: actor.id,
    };
    crate::native!(conn, |dbc| diesel::insert_into(drop_boxes::table)
        .values(&row)
        .execute(dbc))?;
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "cagnotte.drop",
        "table",
        Some(table_id),
        None,
        Some(&row),
    )?;
    if end {
        if let Some(s) = shift {
            end_shift_row(conn, act, &s)?;
        }
    }
    Ok(row)
}

/// MO-13 11: the house's 2 % of a winner's payout in the current round (the table's hand
/// number), rounded down to the smallest chip. Only for the 13-card game.
pub fn record_commission(
    conn: &mut DbConn,
    act: &Act,
    table_id: i64,
    payout: i64,
    player_id: Option<i64>,
) -> AppResult<CommissionRow> {
    let (now, actor) = (act.now, &act.actor);
    let t = crate::services::games::get_table(conn, table_id)?;
    let g = game(conn, t.game_id.ok_or(TableRefusal::NoGame)?)?;
    if g.variant != Variant::ThirteenCards.to_string() {
        return Err(CagnotteRefusal::CommissionNotThirteen.into());
    }
    // A payout comes out of a round's bets, so at most a pot of the game; a
    // payout of nothing pays no commission.
    let lim = limits_now(conn, &t, &g)?;
    let range = money::pot(lim.buy_in_max);
    super::check_amount(
        conn,
        "payout",
        money::AmountRange::new(1, range.max),
        payout,
    )?;
    if let Some(p) = player_id {
        let seated: i64 = crate::native!(conn, |dbc| seatings::table
            .filter(seatings::table_id.eq(table_id))
            .filter(seatings::player_id.eq(p))
            .filter(seatings::left_at.is_null())
            .count()
            .get_result(dbc))?;
        if seated == 0 {
            return Err(AppError::field("player_id", "err-player-not-seated-here"));
        }
    }
    let round: Option<i32> = crate::native!(conn, |dbc| hands::table
        .filter(hands::table_id.eq(table_id))
        .select(diesel::dsl::max(hands::number))
        .first(dbc))?;
    let row = CommissionRow {
        id: next_seq(conn, "commission")?,
        table_id,
        game_id: t.game_id,
        round: round.unwrap_or(0),
        player_id,
        payout,
        amount: rules::commission(payout, chip_of(&g, &lim)),
        at: now.naive_utc(),
        recorded_by: actor.id,
    };
    crate::native!(conn, |dbc| diesel::insert_into(commissions::table)
        .values(&row)
        .execute(dbc))?;
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "cagnotte.commission",
        "table",
        Some(table_id),
        None,
        Some(&row),
    )?;
    Ok(row)
}

/// The open shift's dealer name, for the tablet's header.
pub fn shift_dealer(
    conn: &mut DbConn,
    table_id: i64,
) -> AppResult<Option<(DealerShiftRow, String)>> {
    let Some(s) = open_shift(conn, table_id)? else {
        return Ok(None);
    };
    let name: String = crate::native!(conn, |dbc| staff::table
        .find(s.dealer_id)
        .select(staff::display_name)
        .first(dbc))?;
    Ok(Some((s, name)))
}
