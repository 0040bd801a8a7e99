//! Whether a seat is free (BSOP 44, 49; PT-2007 24: not at a table closing) and whether a
//! player may sit at a table (BSOP 1-3, 10, 46, 47).

use super::*;
use crate::domain::ids::PlayerId;
use crate::domain::refusal::{SeatRefusal, TableRefusal};
use crate::services::Act;

/// What [`check_seat`] read about a free seat's table, in the statement that checked it.
pub(super) struct SeatCheck {
    /// The seat's hold, for the player it is held for (see [`check_seat`]).
    pub hold: Option<SeatHoldRow>,
    /// How many players are seated at the table now (a seating then applies the table's
    /// rules without counting again).
    pub seated: usize,
    /// Whether any seat-change request is open at the table (a call reads them only then).
    pub seat_changes: bool,
    /// Whether the table has an open cagnotte session (a seating reads it only then).
    pub session_open: bool,
}

/// Why a seat cannot be given now (the seat itself, not the player). A seat held for a
/// named player (BSOP 49) is free for that player only (`for_player`).
/// Judged by the clock (`now`), not by whether the scheduler has run: a suspended table
/// past its close deadline (PT-2007 24) and a hold past its `until` are over already.
/// Answers what the same statement read about the table ([`SeatCheck`]).
pub(super) fn check_seat(
    conn: &mut DbConn,
    act: &Act,
    t: &TableRow,
    seat_no: i32,
    except_call: Option<i64>,
    for_player: Option<i64>,
) -> AppResult<SeatCheck> {
    let now = act.now;
    check_seat_open(act, t, seat_no)?;
    let (taken, called, held, seated, seat_changes, session_open) =
        seat_at_a_glance(conn, t, seat_no, except_call)?;
    let seated = seated.unwrap_or(0) as usize;
    if taken {
        return Err(SeatRefusal::SeatTaken.into());
    }
    // BSOP 50: never more players than places, whatever a seat's number says (a free seat
    // has a number no player holds, so a full table has none: this holds the line should a
    // table's rows ever disagree).
    let places = t.seats + i32::from(t.extra_seat);
    if seated >= places as usize {
        return Err(SeatRefusal::TableFull { places }.into());
    }
    if called {
        expire_lapsed_calls(conn, act, t, seat_no, except_call)?;
    }
    // BSOP 45, 49: a held seat is not called nor given, except to the player it is held for
    // (that hold is answered: the seating that follows ends it without reading it again).
    let hold = if held {
        active_hold(conn, now, t.id, seat_no)?
    } else {
        None
    };
    match hold {
        Some(h) if for_player.is_none() || h.player_id != for_player.map(PlayerId) => {
            Err(SeatRefusal::SeatHeld.into())
        }
        hold => Ok(SeatCheck {
            hold,
            seated,
            seat_changes,
            session_open,
        }),
    }
}

/// The seat is one of the table's, and the table takes players (open, running or
/// suspended, and not closing).
fn check_seat_open(act: &Act, t: &TableRow, seat_no: i32) -> AppResult<()> {
    let last = t.seats + i32::from(t.extra_seat);
    if !(1..=last).contains(&seat_no) {
        // The table's own size (the document bounds the number itself: 1 to 12).
        return Err(AppError::Validation(vec![FieldError::new(
            "seat_no",
            "err-no-such-seat",
        )
        .arg("max", last)]));
    }
    if !matches!(
        t.state,
        TableState::Open | TableState::Running | TableState::Suspended
    ) {
        return Err(TableRefusal::NotOpen.into());
    }
    check_not_closing(act.now, act.profile(), t)
}

/// Whether the seat is taken, called or held, the table's players, and whether a seat
/// change is asked there or a cagnotte session is open, in one statement; the calls
/// and the hold are read only when there are some.
fn seat_at_a_glance(
    conn: &mut DbConn,
    t: &TableRow,
    seat_no: i32,
    except_call: Option<i64>,
) -> AppResult<(bool, bool, bool, Option<i64>, bool, bool)> {
    use diesel::dsl::exists;
    Ok(crate::native!(conn, |dbc| diesel::select((
        exists(
            seatings::table
                .filter(seatings::table_id.eq(t.id))
                .filter(seatings::seat_no.eq(seat_no))
                .filter(seatings::left_at.is_null())
        ),
        exists(
            seat_calls::table
                .filter(seat_calls::table_id.eq(t.id))
                .filter(seat_calls::seat_no.eq(seat_no))
                .filter(call_open!())
                .filter(seat_calls::id.ne(except_call.unwrap_or(-1)))
        ),
        exists(
            seat_holds::table
                .filter(seat_holds::table_id.eq(t.id))
                .filter(seat_holds::seat_no.eq(seat_no))
                .filter(seat_holds::released_at.is_null())
        ),
        seatings::table
            .filter(seatings::table_id.eq(t.id))
            .filter(seatings::left_at.is_null())
            .count()
            .single_value(),
        exists(
            seat_change_requests::table
                .filter(seat_change_requests::table_id.eq(t.id))
                .filter(crate::db::conditions::SeatChangeOpen)
        ),
        exists(
            crate::db::schema::cagnotte_sessions::table
                .filter(crate::db::schema::cagnotte_sessions::table_id.eq(t.id))
                .filter(crate::db::schema::cagnotte_sessions::closed_at.is_null())
        )
    ))
    .get_result::<(bool, bool, bool, Option<i64>, bool, bool)>(
        dbc
    ))?)
}

/// The seat's open calls (but `except_call`) are refused, unless their response window is
/// over: such a call no longer reserves the seat and is expired now, with the bookkeeping
/// the scheduler's next pass would have done.
fn expire_lapsed_calls(
    conn: &mut DbConn,
    act: &Act,
    t: &TableRow,
    seat_no: i32,
    except_call: Option<i64>,
) -> AppResult<()> {
    let calls: Vec<SeatCallRow> = crate::native!(conn, |dbc| seat_calls::table
        .filter(seat_calls::table_id.eq(t.id))
        .filter(seat_calls::seat_no.eq(seat_no))
        .filter(call_open!())
        .filter(seat_calls::id.ne(except_call.unwrap_or(-1)))
        .select(SeatCallRow::as_select())
        .load(dbc))?;
    let system = act.by(Actor::system());
    for c in &calls {
        if c.respond_by.and_utc() > act.now || !expire_call(conn, &system, c)? {
            return Err(SeatRefusal::SeatCalled.into());
        }
    }
    Ok(())
}

/// PT-2007 24: a suspended table whose grace ran out is closed by the clock, even before
/// the scheduler's pass does the closing: nothing is called, seated or held for it.
fn check_not_closing(now: DateTime<Utc>, profile: &RuleProfile, t: &TableRow) -> AppResult<()> {
    let grace = Duration::minutes(profile.suspension_grace_min as i64);
    if crate::domain::table::suspension_over(
        t.state,
        t.suspended_at.map(|x| x.and_utc()),
        grace,
        now,
    ) {
        return Err(TableRefusal::SuspensionOver {
            table: t.number,
            minutes: profile.suspension_grace_min,
        }
        .into());
    }
    Ok(())
}

/// Why a player cannot sit at this table now (the player, not the seat).
/// `known`: what [`player_checks`] answered, when the caller has asked already (then the
/// exclusions and separations are read only for a player who has some).
pub(super) fn player_may_sit_row(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    tz: Tz,
    t: &TableRow,
    p: &PlayerRow,
    known: Option<PlayerChecks>,
) -> AppResult<Option<PassOver>> {
    let player_id = p.id;
    let why = match known {
        Some(k) if !k.has_bans => registry::eligibility_without_bans(p, now, tz),
        _ => registry::eligibility(conn, p, now, tz)?,
    };
    if !why.is_empty() {
        return Ok(Some(PassOver::Ineligible));
    }
    // BSOP 46: a player may not hold a seat at more than one table.
    let seated = match known {
        Some(k) => k.seated,
        None => seated_at_any(conn, player_id)?,
    };
    if seated {
        return Ok(Some(PassOver::AlreadySeated));
    }
    // BSOP 47: never at the same table as someone they are kept apart from.
    let apart = match known {
        Some(k) if !k.has_separations => Vec::new(),
        _ => separated_from(conn, player_id)?,
    };
    if !apart.is_empty()
        && seated_at(conn, t.id)?
            .iter()
            .any(|s| apart.contains(&s.player_id))
    {
        return Ok(Some(PassOver::Separated));
    }
    Ok(None)
}
