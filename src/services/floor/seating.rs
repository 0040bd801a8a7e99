//! Seating (BSOP 44, 46, 47, 50): who sits at a table, whether a seat is free and a player
//! may sit there, seating a player, moving a seated one, and leaving a seat.

use super::*;
use crate::domain::refusal::{SeatRefusal, TableRefusal};
use crate::domain::states::CallSource;
use crate::domain::states::EntryState;
use crate::services::Act;

/// Players seated at a table now.
/// How many players sit at a table.
pub fn seated_count(conn: &mut DbConn, table_id: i64) -> AppResult<usize> {
    let n: i64 = crate::native!(conn, |dbc| seatings::table
        .filter(seatings::table_id.eq(table_id))
        .filter(seatings::left_at.is_null())
        .count()
        .get_result(dbc))?;
    Ok(n as usize)
}

pub fn seated_at(conn: &mut DbConn, table_id: i64) -> AppResult<Vec<SeatingRow>> {
    Ok(crate::native!(conn, |dbc| seatings::table
        .filter(seatings::table_id.eq(table_id))
        .filter(seatings::left_at.is_null())
        .order(seatings::seat_no.asc())
        .select(SeatingRow::as_select())
        .load(dbc))?)
}

/// Who sits at a table and the open calls reserving its seats, each with the player (one
/// query each, for the table's seat view).
#[allow(clippy::type_complexity)]
pub fn seats_of(
    conn: &mut DbConn,
    table_id: i64,
) -> AppResult<(Vec<(SeatingRow, PlayerRow)>, Vec<(SeatCallRow, PlayerRow)>)> {
    let seated: Vec<(SeatingRow, PlayerRow)> = crate::native!(conn, |dbc| seatings::table
        .inner_join(players::table)
        .filter(seatings::table_id.eq(table_id))
        .filter(seatings::left_at.is_null())
        .order(seatings::seat_no.asc())
        .select((SeatingRow::as_select(), PlayerRow::as_select()))
        .load(dbc))?;
    let calls: Vec<(SeatCallRow, PlayerRow)> = crate::native!(conn, |dbc| seat_calls::table
        .inner_join(players::table.on(players::id.eq(seat_calls::player_id)))
        .filter(seat_calls::table_id.eq(table_id))
        .filter(call_open!())
        .order(seat_calls::seat_no.asc())
        .select((SeatCallRow::as_select(), PlayerRow::as_select()))
        .load(dbc))?;
    Ok((seated, calls))
}

/// BSOP 47: the players this one must never sit with.
pub(super) fn separated_from(conn: &mut DbConn, player_id: i64) -> AppResult<Vec<i64>> {
    let rows: Vec<(i64, i64)> = crate::native!(conn, |dbc| separations::table
        .filter(separations::removed_at.is_null())
        .filter(
            separations::player_a
                .eq(player_id)
                .or(separations::player_b.eq(player_id))
        )
        .select((separations::player_a, separations::player_b))
        .load(dbc))?;
    Ok(rows
        .into_iter()
        .map(|(a, b)| if a == player_id { b } else { a })
        .collect())
}

/// BSOP 46: does this player hold a seat at any table?
pub fn seated_at_any(conn: &mut DbConn, player_id: i64) -> AppResult<bool> {
    Ok(crate::native!(conn, |dbc| seatings::table
        .filter(seatings::player_id.eq(player_id))
        .filter(seatings::left_at.is_null())
        .count()
        .get_result::<i64>(dbc))?
        > 0)
}

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
    let (now, profile) = (act.now, act.profile());
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
    check_not_closing(now, profile, t)?;
    // Whether the seat is taken, called or held, the table's players, and whether a seat
    // change is asked there or a cagnotte session is open, in one statement; the calls
    // and the hold are read only when there are some.
    let (taken, called, held, seated, seat_changes, session_open) = {
        use diesel::dsl::exists;
        crate::native!(conn, |dbc| diesel::select((
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
        .get_result::<(bool, bool, bool, Option<i64>, bool, bool)>(dbc))?
    };
    let seated = seated.unwrap_or(0) as usize;
    if taken {
        return Err(SeatRefusal::SeatTaken.into());
    }
    let calls: Vec<SeatCallRow> = if called {
        crate::native!(conn, |dbc| seat_calls::table
            .filter(seat_calls::table_id.eq(t.id))
            .filter(seat_calls::seat_no.eq(seat_no))
            .filter(call_open!())
            .filter(seat_calls::id.ne(except_call.unwrap_or(-1)))
            .select(SeatCallRow::as_select())
            .load(dbc))?
    } else {
        Vec::new()
    };
    let system = act.by(Actor::system());
    for c in &calls {
        // A call whose response window is over no longer reserves the seat: expired now,
        // with the bookkeeping the scheduler's next pass would have done.
        if c.respond_by.and_utc() > now || !expire_call(conn, &system, c)? {
            return Err(SeatRefusal::SeatCalled.into());
        }
    }
    // BSOP 45, 49: a held seat is not called nor given, except to the player it is held for
    // (that hold is answered: the seating that follows ends it without reading it again).
    let hold = if held {
        active_hold(conn, now, t.id, seat_no)?
    } else {
        None
    };
    match hold {
        Some(h) if for_player.is_none() || h.player_id != for_player => {
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

/// The floor seats a player directly (BSOP 44), with every check a call would make.
pub fn seat_directly(
    conn: &mut DbConn,
    act: &Act,
    table_id: i64,
    seat_no: i32,
    player_id: i64,
) -> AppResult<SeatingRow> {
    let now = act.now;
    let t = table(conn, table_id)?;
    registry::get(conn, player_id).map_err(|e| match e {
        AppError::NotFound => AppError::field("player_id", "err-player-unknown"),
        e => e,
    })?;
    // The player's active entry on this game's list, if any, is used up by the seating.
    let entry_id: Option<i64> = match t.game_id {
        Some(g) => crate::native!(conn, |dbc| waitlist_entries::table
            .filter(waitlist_entries::game_id.eq(g))
            .filter(waitlist_entries::player_id.eq(player_id))
            .filter(entry_active!())
            .select(waitlist_entries::id)
            .first(dbc))
        .optional()?,
        None => None,
    };
    // BSOP 49: a seat held for a player finishing a hand at another table: seating them
    // there moves them (the seat they leave ends in the same transaction, BSOP 46).
    if let Some(from) = current_seating(conn, player_id)? {
        if active_hold(conn, now, t.id, seat_no)?.is_some_and(|h| h.player_id == Some(player_id)) {
            return move_player(conn, act, &from, &t, seat_no, None, Move::HeldSeat);
        }
    }
    seat_player(conn, act, &t, seat_no, player_id, entry_id, None)
}

pub(super) fn seat_player(
    conn: &mut DbConn,
    act: &Act,
    t: &TableRow,
    seat_no: i32,
    player_id: i64,
    entry_id: Option<i64>,
    call_id: Option<i64>,
) -> AppResult<SeatingRow> {
    let (now, tz, profile, actor) = (act.now, act.tz(), act.profile(), &act.actor);
    let SeatCheck {
        hold,
        seated,
        session_open,
        ..
    } = check_seat(conn, act, t, seat_no, call_id, Some(player_id))?;
    if t.game_id.is_none() {
        return Err(TableRefusal::NoGame.into());
    }
    let (player, k) = player_checks(conn, player_id, call_id)?;
    let other_calls = k.called;
    if let Some(p) = player_may_sit_row(conn, now, tz, t, &player, Some(k))? {
        return Err(pass_over_error(p, conn, now, tz, player_id)?);
    }
    // BSOP 55: who refused a must-move and gave up may not play at that must-move table.
    if barred_from_table(conn, player_id, t, Some(k))? {
        return Err(SeatRefusal::RefusedMustMoveTable.into());
    }
    // BSOP 55: who chose to come back later sits in this game again only after the window
    // (nothing to read for a player who never refused a must-move).
    if let (Some(g), true) = (t.game_id, k.has_refusals) {
        refuse_before_rejoin(conn, profile, tz, g, player_id, now)?;
    }
    let row = SeatingRow {
        id: next_seq(conn, "seating")?,
        table_id: t.id,
        seat_no,
        player_id,
        game_id: t.game_id,
        entry_id,
        sat_at: now.naive_utc(),
        left_at: None,
        left_reason: None,
        seated_by: actor.id,
    };
    let known = SeatingReads {
        other_calls,
        session_open,
    };
    start_seating(conn, act, &row, entry_id, call_id, Some(known))?;
    // Seated straight from the list (no call): the next in line are told.
    if let (Some(g), Some(_), None) = (t.game_id, entry_id, call_id) {
        notify_heads(conn, now, g, None)?;
    }
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "seat.take",
        "player",
        Some(player_id),
        None,
        Some(&row),
    )?;
    // BSOP 49: the player took the seat held for them: the hold ends.
    release_holds_taken_by(conn, act, hold, player_id)?;
    emit(
        conn,
        now,
        Some(t.id),
        "seat.taken",
        &serde_json::json!({ "table": t.number, "seat": seat_no, "player_id": player_id, "alias": player.alias }),
    )?;
    // The table's players: those counted with the seat's check, and this one.
    apply_table_rules_counted(conn, act, t, seated + 1)?;
    Ok(row)
}

/// What a seating's checks read in this transaction, so that [`start_seating`] does not
/// read it again (statements per seating).
struct SeatingReads {
    /// The player has open calls (other than the one answered).
    other_calls: bool,
    /// The table has an open cagnotte session.
    session_open: bool,
}

/// Starts a sit-down: the seating row (the unique indexes settle a race between two floor
/// managers: the loser gets a 409), the list entry it uses up, and — BSOP 46 — the end of
/// the player's other open calls (those entries wait again, in their place). `keep_call` is
/// the call being answered by this seating.
fn start_seating(
    conn: &mut DbConn,
    act: &Act,
    row: &SeatingRow,
    entry_id: Option<i64>,
    keep_call: Option<i64>,
    known: Option<SeatingReads>,
) -> AppResult<()> {
    let now = act.now;
    let seat_race = |e: diesel::result::Error| {
        if is_unique_violation(&e) {
            AppError::from(SeatRefusal::SeatRace)
        } else {
            e.into()
        }
    };
    // The seating and the entry it uses up: on PostgreSQL in one statement.
    match (&mut *conn, entry_id) {
        (DbConn::Postgres(pg), Some(eid)) => {
            crate::db::floor_writes::insert_seating_using_entry(pg, row, eid, now.naive_utc())
                .map_err(seat_race)?;
        }
        _ => {
            // Kept prepared (`Cached`), as the call's insert.
            crate::native!(conn, |dbc| crate::db::Cached(
                diesel::insert_into(seatings::table)
                    .values(row)
                    .returning(seatings::id)
            )
            .get_result::<i64>(dbc))
            .map_err(seat_race)?;
            if let Some(eid) = entry_id {
                crate::native!(conn, |dbc| crate::db::Cached(
                    diesel::update(waitlist_entries::table.find(eid))
                        .set((
                            waitlist_entries::state.eq(EntryState::Seated),
                            waitlist_entries::ended_at.eq(Some(now.naive_utc())),
                            waitlist_entries::end_reason.eq(Some("seated"))
                        ))
                        .returning(waitlist_entries::id)
                )
                .changed(dbc))?;
            }
        }
    }
    // PT-2007 7b: a late seat owes the table's session.
    let session_open = known.as_ref().map(|k| k.session_open);
    crate::services::cagnotte::on_seat(conn, act, row, session_open)?;
    // The caller read in this transaction that there are none (one statement less per
    // seating).
    if known.is_some_and(|k| !k.other_calls) {
        return Ok(());
    }
    let others: Vec<i64> = crate::native!(conn, |dbc| seat_calls::table
        .filter(seat_calls::player_id.eq(row.player_id))
        .filter(call_open!())
        .filter(seat_calls::id.ne(keep_call.unwrap_or(-1)))
        .select(seat_calls::id)
        .load(dbc))?;
    cancel_open_calls(conn, act, &others)
}

/// A player leaves their seat (the next player can then be called).
pub fn leave(conn: &mut DbConn, act: &Act, seating_id: i64, reason: &str) -> AppResult<SeatingRow> {
    let (now, actor) = (act.now, &act.actor);
    // The seating, its table, how many sit there, and whether the player has an open call or
    // seat-change request anywhere, in one statement (statements per leave; what
    // ends with the seating is read only when there is some).
    let (s, t, seated, calls_open, changes_open): (SeatingRow, TableRow, Option<i64>, bool, bool) =
        crate::native!(conn, |dbc| {
            use diesel::dsl::exists;
            // The subqueries read `seatings` under names of their own.
            diesel::alias!(seatings as leaving: Leaving, seatings as sitting: Sitting);
            let this = || leaving.filter(leaving.field(seatings::id).eq(seating_id));
            seatings::table
                .inner_join(card_tables::table.on(card_tables::id.eq(seatings::table_id)))
                .filter(seatings::id.eq(seating_id))
                .select((
                    SeatingRow::as_select(),
                    TableRow::as_select(),
                    sitting
                        .filter(
                            sitting
                                .field(seatings::table_id)
                                .eq_any(this().select(leaving.field(seatings::table_id))),
                        )
                        .filter(sitting.field(seatings::left_at).is_null())
                        .count()
                        .single_value(),
                    exists(
                        seat_calls::table
                            .filter(
                                seat_calls::player_id
                                    .eq_any(this().select(leaving.field(seatings::player_id))),
                            )
                            .filter(call_open!()),
                    ),
                    exists(
                        seat_change_requests::table
                            .filter(
                                seat_change_requests::player_id
                                    .eq_any(this().select(leaving.field(seatings::player_id))),
                            )
                            .filter(crate::db::conditions::SeatChangeOpen),
                    ),
                ))
                .first(dbc)
        })?;
    if s.left_at.is_some() {
        return Err(SeatRefusal::AlreadyLeft.into());
    }
    let n = crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(
            seatings::table
                .find(seating_id)
                .filter(seatings::left_at.is_null())
        )
        .set((
            seatings::left_at.eq(Some(now.naive_utc())),
            seatings::left_reason.eq(Some(reason))
        ))
        .returning(seatings::id)
    )
    .changed(dbc))?;
    if n != 1 {
        return Err(SeatRefusal::AlreadyLeft.into());
    }
    // The row as the update left it (no second read; `now` is already truncated
    // to what both databases store).
    let after = SeatingRow {
        left_at: Some(now.naive_utc()),
        left_reason: Some(reason.to_string()),
        ..s.clone()
    };
    // A seat-change request only makes sense while seated at that table, and a must-move
    // call while seated at the must-move table: both end with the seating (the player's
    // open calls of either kind read in one statement).
    if changes_open {
        end_seat_change_requests(conn, now, s.player_id, s.table_id)?;
    }
    if calls_open {
        let calls: Vec<SeatCallRow> = crate::native!(conn, |dbc| seat_calls::table
            .filter(seat_calls::player_id.eq(s.player_id))
            .filter(
                seat_calls::source
                    .eq(CallSource::MustMove)
                    .or(seat_calls::source
                        .eq(CallSource::SeatChange)
                        .and(seat_calls::table_id.eq(s.table_id)))
            )
            .filter(call_open!())
            .order(seat_calls::id)
            .select(SeatCallRow::as_select())
            .load(dbc))?;
        cancel_call_rows(conn, act, calls)?;
    }
    audit::record(
        conn,
        now,
        actor,
        "seat.leave",
        "player",
        Some(s.player_id),
        Some(&s),
        Some(&after),
    )?;
    emit(
        conn,
        now,
        Some(s.table_id),
        "seat.freed",
        &serde_json::json!({ "seat": s.seat_no, "player_id": s.player_id }),
    )?;
    // The table's players: those counted above but the one who left (a player moved out of
    // the extra seat stays).
    let t = remove_extra_seat(conn, act, t, s.seat_no)?;
    let seated = (seated.unwrap_or(0) as usize).saturating_sub(1);
    apply_table_rules_counted(conn, act, &t, seated)?;
    Ok(after)
}

/// BSOP 50: a game started with one extra player loses the extra seat as soon as someone
/// leaves: the player in the extra seat takes the freed seat (or, if they are the one
/// leaving, the extra seat simply goes). Answers the table's row as it is afterwards.
fn remove_extra_seat(
    conn: &mut DbConn,
    act: &Act,
    t: TableRow,
    freed_seat: i32,
) -> AppResult<TableRow> {
    let (now, actor) = (act.now, &act.actor);
    if !t.extra_seat {
        return Ok(t);
    }
    let table_id = t.id;
    let extra_no = t.seats + 1;
    if freed_seat != extra_no {
        let extra: Option<SeatingRow> = crate::native!(conn, |dbc| seatings::table
            .filter(seatings::table_id.eq(table_id))
            .filter(seatings::seat_no.eq(extra_no))
            .filter(seatings::left_at.is_null())
            .select(SeatingRow::as_select())
            .first(dbc))
        .optional()?;
        if let Some(x) = extra {
            crate::native!(conn, |dbc| crate::db::Cached(
                diesel::update(seatings::table.find(x.id))
                    .set(seatings::seat_no.eq(freed_seat))
                    .returning(seatings::id)
            )
            .changed(dbc))?;
            let moved: SeatingRow = crate::native!(conn, |dbc| seatings::table
                .find(x.id)
                .select(SeatingRow::as_select())
                .first(dbc))?;
            audit::record(
                conn,
                now,
                actor,
                "seat.extra_removed",
                "player",
                Some(x.player_id),
                Some(&x),
                Some(&moved),
            )?;
            emit(
                conn,
                now,
                Some(table_id),
                "seat.moved",
                &serde_json::json!({ "table": t.number, "from": extra_no, "to": freed_seat, "player_id": x.player_id }),
            )?;
        }
    }
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(card_tables::table.find(table_id))
            .set(card_tables::extra_seat.eq(false))
            .returning(card_tables::id)
    )
    .changed(dbc))?;
    let after = table(conn, table_id)?;
    audit::record(
        conn,
        now,
        actor,
        "table.extra_seat_removed",
        "table",
        Some(table_id),
        Some(&t),
        Some(&after),
    )?;
    Ok(after)
}

/// Why a seated player moves to another seat. The old seating ends with [`Move::reason`]
/// (`seatings.left_reason`) and the move is audited as [`Move::action`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    /// BSOP 58, PT-2007 26, BSOP 27: the player asked to change to a similar table.
    Transfer,
    /// BSOP 49: the player takes a seat held for them while finishing a hand elsewhere.
    HeldSeat,
    /// BSOP 55, 57: from the must-move table to a main game, in list order (the room's move).
    MustMove,
    /// PT-2007 12, BSOP 51: another seat at the same table.
    SeatChange,
}

impl Move {
    /// Every reason a seating can end with when its player moves on (BSOP 27 follows them).
    pub const ALL: [Move; 4] = [
        Move::Transfer,
        Move::HeldSeat,
        Move::MustMove,
        Move::SeatChange,
    ];

    pub fn reason(self) -> &'static str {
        match self {
            Move::Transfer => "transfer",
            Move::HeldSeat => "moved to held seat",
            Move::MustMove => "must-move",
            Move::SeatChange => "seat change",
        }
    }

    pub fn action(self) -> &'static str {
        match self {
            Move::Transfer => "seat.transfer",
            Move::HeldSeat => "seat.move",
            Move::MustMove => "seat.must_move",
            Move::SeatChange => "seat.change",
        }
    }

    /// BSOP 27 «transferências voluntárias»: the player's own choice of another table. A
    /// must-move is the room's (BSOP 55-57), a seat change stays at the table.
    pub fn voluntary(self) -> bool {
        matches!(self, Move::Transfer | Move::HeldSeat)
    }
}

/// BSOP 27: since when the player has played this game without a break: the seating's own
/// start, or, when it began with a move (the seating before it, of the same game, ended at
/// that instant with a move's reason), the start of that one, followed back. A player
/// must-moved after 30 minutes is still in the first hour.
pub fn in_game_since(conn: &mut DbConn, s: &SeatingRow) -> AppResult<DateTime<Utc>> {
    let reasons: Vec<&str> = Move::ALL.iter().map(|m| m.reason()).collect();
    let mut since = s.sat_at;
    // A night has a bounded number of moves; the bound only guards against a loop.
    for _ in 0..100 {
        let before: Option<chrono::NaiveDateTime> = crate::native!(conn, |dbc| seatings::table
            .filter(seatings::player_id.eq(s.player_id))
            .filter(seatings::game_id.eq(s.game_id))
            .filter(seatings::left_at.eq(Some(since)))
            .filter(seatings::left_reason.eq_any(&reasons))
            .select(seatings::sat_at)
            .first(dbc))
        .optional()?;
        match before {
            Some(t) if t < since => since = t,
            _ => break,
        }
    }
    Ok(since.and_utc())
}

/// BSOP 27: «Se um jogo tiver um buy-in máximo, não serão permitidas transferências
/// voluntárias de mesa para um novo jogo na primeira hora se você exceder o buy-in máximo do
/// jogo.» A voluntary move to another table with the stack on record above the maximum of
/// the destination's game, within the first hour in the game, is refused (409 naming the
/// stack, the maximum and the minute the hour ends). Every path that changes a player's
/// table by their choice comes through here.
fn check_voluntary_move(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    from: &SeatingRow,
    to: &TableRow,
    game_id: i64,
) -> AppResult<()> {
    // BSOP 20, 21: chips a ruling moves to or from the player wait for a second staff
    // member at this table: the player stays until they are settled.
    if crate::services::rulings::chips_pending_for(conn, from.player_id)? {
        return Err(SeatRefusal::MoveRulingChipsPending.into());
    }
    let g = crate::services::games::get_game(conn, game_id)?;
    // The maximum of the table moved to, as it plays now (PT-2007 22, BSOP 34).
    let max = crate::services::limits::of(to, Some(&g))
        .map(|l| l.buy_in_max)
        .unwrap_or(g.buy_in_max);
    if max.is_none() {
        return Ok(());
    }
    let stack = crate::services::table_side::side(conn, from.id)?.stack;
    let since = in_game_since(conn, from)?;
    if let Err(p) = crate::domain::seat_rules::check_stack_transfer(stack, max, since, now) {
        let room = crate::services::room::get(conn)?;
        return Err(AppError::Conflict(crate::services::table_side::localize(
            p, &room,
        )));
    }
    Ok(())
}

/// Moves a seated player to another seat, at their table or another (a must-move, a
/// seat change, a voluntary transfer, a held seat): the old seating ends with the move's
/// reason and the new one starts in the same transaction, so the player never holds two
/// seats (BSOP 46), and brings the whole stack (BSOP 27). The destination seat must be free
/// (a call for it: `call_id`; a hold: held for this player), the player eligible and not kept
/// apart from anyone there (BSOP 47); a voluntary move to another table obeys BSOP 27.
pub(super) fn move_player(
    conn: &mut DbConn,
    act: &Act,
    from: &SeatingRow,
    to: &TableRow,
    seat_no: i32,
    call_id: Option<i64>,
    kind: Move,
) -> AppResult<SeatingRow> {
    let (now, tz, actor) = (act.now, act.tz(), &act.actor);
    let (reason, action) = (kind.reason(), kind.action());
    let player_id = from.player_id;
    let hold = check_seat(conn, act, to, seat_no, call_id, Some(player_id))?.hold;
    let game_id = to.game_id.ok_or(TableRefusal::NoGame)?;
    if kind.voluntary() && to.id != from.table_id {
        check_voluntary_move(conn, now, from, to, game_id)?;
    }
    let p = registry::get(conn, player_id)?;
    let why = registry::eligibility(conn, &p, now, tz)?;
    if !why.is_empty() {
        return Err(ineligible_error(&why));
    }
    let apart = separated_from(conn, player_id)?;
    if !apart.is_empty()
        && seated_at(conn, to.id)?
            .iter()
            .any(|s| s.player_id != player_id && apart.contains(&s.player_id))
    {
        return Err(SeatRefusal::SeparatedAtTable.into());
    }
    if barred_from_table(conn, player_id, to, None)? {
        return Err(SeatRefusal::RefusedMustMoveTable.into());
    }
    let n = crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(
            seatings::table
                .find(from.id)
                .filter(seatings::left_at.is_null())
        )
        .set((
            seatings::left_at.eq(Some(now.naive_utc())),
            seatings::left_reason.eq(Some(reason))
        ))
        .returning(seatings::id)
    )
    .changed(dbc))?;
    if n != 1 {
        return Err(SeatRefusal::AlreadyLeft.into());
    }
    let ended = seating(conn, from.id)?;
    // Within a game the seating keeps the list entry it came from (the original list order,
    // BSOP 55); into another game it uses up the player's entry on that game's list.
    let (entry_id, new_entry) = if from.game_id == Some(game_id) {
        (from.entry_id, false)
    } else {
        let e: Option<i64> = crate::native!(conn, |dbc| waitlist_entries::table
            .filter(waitlist_entries::game_id.eq(game_id))
            .filter(waitlist_entries::player_id.eq(player_id))
            .filter(entry_active!())
            .select(waitlist_entries::id)
            .first(dbc))
        .optional()?;
        (e, e.is_some())
    };
    let row = SeatingRow {
        id: next_seq(conn, "seating")?,
        table_id: to.id,
        seat_no,
        player_id,
        game_id: Some(game_id),
        entry_id,
        sat_at: now.naive_utc(),
        left_at: None,
        left_reason: None,
        seated_by: actor.id,
    };
    if let (true, Some(eid)) = (new_entry, entry_id) {
        cancel_calls_of_entry(conn, act, eid)?;
    }
    start_seating(
        conn,
        act,
        &row,
        entry_id.filter(|_| new_entry),
        call_id,
        None,
    )?;
    // The player moves with their chips, what they bought in, buttons and hand counters.
    crate::services::table_side::carry_side(conn, from.id, row.id)?;
    if to.id != from.table_id {
        cancel_seat_changes(conn, act, player_id, from.table_id)?;
    }
    let after = serde_json::json!({ "left": ended, "seated": row, "reason": reason });
    audit::record(
        conn,
        now,
        actor,
        action,
        "player",
        Some(player_id),
        Some(from),
        Some(&after),
    )?;
    release_holds_taken_by(conn, act, hold, player_id)?;
    let from_t = table(conn, from.table_id)?;
    emit(
        conn,
        now,
        Some(from.table_id),
        "seat.freed",
        &serde_json::json!({ "seat": from.seat_no, "player_id": player_id, "reason": reason, "to_table": to.number, "to_seat": seat_no }),
    )?;
    emit(
        conn,
        now,
        Some(to.id),
        "seat.taken",
        &serde_json::json!({ "table": to.number, "seat": seat_no, "player_id": player_id, "alias": p.alias, "reason": reason,
            "from_table": from_t.number, "from_seat": from.seat_no }),
    )?;
    apply_table_rules(conn, act, from.table_id)?;
    if to.id != from.table_id {
        apply_table_rules(conn, act, to.id)?;
    }
    Ok(row)
}
