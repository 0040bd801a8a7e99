//! A seat call's life (PT-2007 12, BSOP 44, 51, 55, 57) once made: acknowledged, escalated,
//! confirmed (the player sits), cancelled or expired. Making one: `calling`; what it checks
//! about the player: `player_checks`.

use super::*;
use crate::domain::ids::PlayerId;
use crate::domain::ids::SeatCallId;
use crate::domain::ids::TableId;
use crate::domain::refusal::CallRefusal;
use crate::domain::states::CallSource;
use crate::domain::states::CallState;
use crate::domain::states::EntryState;
use crate::domain::states::SeatChangeState;
use crate::services::Act;

pub(super) fn has_open_call(conn: &mut DbConn, player_id: PlayerId) -> AppResult<bool> {
    Ok(crate::native!(conn, |dbc| seat_calls::table
        .filter(seat_calls::player_id.eq(player_id))
        .filter(call_open!())
        .count()
        .get_result::<i64>(dbc))?
        > 0)
}

/// Cancels open seat calls; the list entries they called go back to waiting, in their place.
pub(super) fn cancel_open_calls(
    conn: &mut DbConn,
    act: &Act,
    call_ids: &[SeatCallId],
) -> AppResult<()> {
    if call_ids.is_empty() {
        return Ok(());
    }
    let open: Vec<SeatCallRow> = crate::native!(conn, |dbc| seat_calls::table
        .filter(seat_calls::id.eq_any(call_ids))
        .filter(call_open!())
        .select(SeatCallRow::as_select())
        .load(dbc))?;
    cancel_call_rows(conn, act, open)
}

/// [`cancel_open_calls`] for calls read open in this write (and not changed since).
pub(super) fn cancel_call_rows(
    conn: &mut DbConn,
    act: &Act,
    open: Vec<SeatCallRow>,
) -> AppResult<()> {
    let (now, actor) = (act.now, &act.actor);
    for c in open {
        crate::native!(conn, |dbc| crate::db::Cached(
            diesel::update(seat_calls::table.find(c.id))
                .set((
                    seat_calls::state.eq(CallState::Cancelled),
                    seat_calls::resolved_at.eq(Some(now.naive_utc()))
                ))
                .returning(seat_calls::id)
        )
        .changed(dbc))?;
        // The player keeps their place on the list.
        if let Some(eid) = c.entry_id {
            crate::native!(conn, |dbc| crate::db::Cached(
                diesel::update(
                    waitlist_entries::table
                        .find(eid)
                        .filter(waitlist_entries::state.eq(EntryState::Called))
                )
                .set(waitlist_entries::state.eq(EntryState::Waiting))
                .returning(waitlist_entries::id)
            )
            .changed(dbc))?;
        }
        audit::record::<SeatCallRow, ()>(
            conn,
            now,
            actor,
            "seat.call_cancelled",
            "player",
            Some(c.player_id.get()),
            Some(&c),
            None,
        )?;
        emit(
            conn,
            now,
            Some(c.table_id),
            "seat.call_cancelled",
            &serde_json::json!({ "call_id": c.id, "seat": c.seat_no, "player_id": c.player_id }),
        )?;
    }
    Ok(())
}

/// The dealer at the table acknowledges a seat call (the tablet got it and the seat is kept
/// for the player). `at_table`: the tablet's table — a call for another table is not theirs.
/// Acknowledging twice is harmless (the first time is kept).
pub fn acknowledge_call(
    conn: &mut DbConn,
    act: &Act,
    call_id: SeatCallId,
    at_table: Option<TableId>,
) -> AppResult<SeatCallRow> {
    let (now, actor) = (act.now, &act.actor);
    let c = call(conn, call_id)?;
    if at_table.is_some_and(|t| t != c.table_id) {
        return Err(AppError::NotFound);
    }
    match c.state {
        CallState::Acknowledged => return Ok(c),
        CallState::Pending => {}
        _ => return Err(CallRefusal::CallNotOpen.into()),
    }
    // The response window is over by the clock: nothing left to acknowledge, even before the
    // scheduler marks the call expired.
    if c.respond_by.and_utc() <= now {
        return Err(CallRefusal::CallExpired.into());
    }
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(
            seat_calls::table
                .find(call_id)
                .filter(seat_calls::state.eq(CallState::Pending))
        )
        .set((
            seat_calls::state.eq(CallState::Acknowledged),
            seat_calls::acknowledged_at.eq(Some(now.naive_utc()))
        ))
        .returning(seat_calls::id)
    )
    .changed(dbc))?;
    let after = call(conn, call_id)?;
    audit::record(
        conn,
        now,
        actor,
        "seat.call_ack",
        "player",
        Some(c.player_id.get()),
        Some(&c),
        Some(&after),
    )?;
    emit(
        conn,
        now,
        Some(c.table_id),
        "seat.call_ack",
        &serde_json::json!({ "call_id": c.id, "seat": c.seat_no, "player_id": c.player_id }),
    )?;
    Ok(after)
}

/// Seat calls the table has not acknowledged within the profile's
/// `seat_call_ack_escalation_min`: marked once, audited, and pushed so the floor dashboard
/// shows them escalated.
pub(super) fn escalate_unacknowledged(conn: &mut DbConn, act: &Act) -> AppResult<usize> {
    let (now, profile, system) = (act.now, act.profile(), &act.actor);
    let limit = (now - Duration::minutes(profile.seat_call_ack_escalation_min as i64)).naive_utc();
    let late: Vec<SeatCallRow> = crate::native!(conn, |dbc| seat_calls::table
        .filter(crate::db::conditions::CallPending)
        .filter(seat_calls::escalated_at.is_null())
        .filter(seat_calls::called_at.le(limit))
        .select(SeatCallRow::as_select())
        .load(dbc))?;
    for c in &late {
        crate::native!(conn, |dbc| crate::db::Cached(
            diesel::update(seat_calls::table.find(c.id))
                .set(seat_calls::escalated_at.eq(Some(now.naive_utc())))
                .returning(seat_calls::id)
        )
        .changed(dbc))?;
        let after = call(conn, c.id)?;
        audit::record(
            conn,
            now,
            system,
            "seat.call_escalated",
            "player",
            Some(c.player_id.get()),
            Some(c),
            Some(&after),
        )?;
        emit(
            conn,
            now,
            Some(c.table_id),
            "seat.call_escalated",
            &serde_json::json!({ "call_id": c.id, "seat": c.seat_no, "player_id": c.player_id }),
        )?;
    }
    Ok(late.len())
}

/// The called player arrived: the floor (or the dealer) confirms the seating (BSOP 44).
/// A must-move call (BSOP 55) moves the player from the must-move table and a seat-change
/// call (PT-2007 12, BSOP 51) moves them within their table: the old seating ends and the new
/// one starts in the same transaction, so the player never holds two seats (BSOP 46).
pub fn confirm_call(conn: &mut DbConn, act: &Act, call_id: SeatCallId) -> AppResult<SeatingRow> {
    let now = act.now;
    // The call and its table in one statement (statements per seating).
    let (c, t): (SeatCallRow, TableRow) = crate::native!(conn, |dbc| seat_calls::table
        .inner_join(card_tables::table.on(card_tables::id.eq(seat_calls::table_id)))
        .filter(seat_calls::id.eq(call_id))
        .select((SeatCallRow::as_select(), TableRow::as_select()))
        .first(dbc))?;
    if !c.state.is_open() {
        return Err(CallRefusal::CallNotOpen.into());
    }
    // The response window is over: the call is expired even before the scheduler says so.
    if c.respond_by.and_utc() <= now {
        return Err(CallRefusal::CallExpired.into());
    }
    let seating = match c.source {
        CallSource::MustMove | CallSource::SeatChange => {
            let from = current_seating(conn, c.player_id)?.ok_or(CallRefusal::MoveNotSeated)?;
            let kind = if c.source == CallSource::MustMove {
                // The player must still be at the game's must-move table, of the same limit
                // as this one (BSOP 55; a limit may have changed since the call, PT-2007 22).
                let ft = table(conn, from.table_id)?;
                if !ft.must_move || ft.game_id != t.game_id {
                    return Err(CallRefusal::MoveNotSeated.into());
                }
                if !same_limits(conn, &ft, &t, t.game_id.unwrap_or_default())? {
                    return Err(CallRefusal::MoveOtherLimit.into());
                }
                Move::MustMove
            } else {
                if from.table_id != t.id {
                    return Err(CallRefusal::MoveNotSeated.into());
                }
                Move::SeatChange
            };
            move_player(conn, act, &from, &t, c.seat_no, Some(c.id), kind)?
        }
        _ => seat_player(
            conn,
            act,
            &t,
            c.seat_no,
            c.player_id,
            c.entry_id,
            Some(c.id),
        )?,
    };
    let n = crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(seat_calls::table.find(call_id).filter(call_open!()))
            .set((
                seat_calls::state.eq(CallState::Seated),
                seat_calls::resolved_at.eq(Some(now.naive_utc()))
            ))
            .returning(seat_calls::id)
    )
    .changed(dbc))?;
    if n != 1 {
        return Err(CallRefusal::CallNotOpen.into());
    }
    if c.source == CallSource::SeatChange {
        crate::native!(conn, |dbc| crate::db::Cached(
            diesel::update(
                seat_change_requests::table
                    .filter(seat_change_requests::player_id.eq(c.player_id))
                    .filter(crate::db::conditions::SeatChangeOpen)
            )
            .set((
                seat_change_requests::state.eq(SeatChangeState::Served),
                seat_change_requests::resolved_at.eq(Some(now.naive_utc()))
            ))
            .returning(seat_change_requests::id)
        )
        .changed(dbc))?;
    }
    Ok(seating)
}

/// Ends a seat call whose response window is over: expired, the player to the bottom of the
/// list or off it as the room decided, told so, and the table told. The scheduler does this
/// for every due call; an action on the seat does it for that seat's call at once (the clock
/// decides, not whether the scheduler has run). False when the call was no longer open.
pub(super) fn expire_call(conn: &mut DbConn, act: &Act, c: &SeatCallRow) -> AppResult<bool> {
    let (now, profile, system) = (act.now, act.profile(), &act.actor);
    let n = crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(seat_calls::table.find(c.id).filter(call_open!()))
            .set((
                seat_calls::state.eq(CallState::Expired),
                seat_calls::resolved_at.eq(Some(now.naive_utc()))
            ))
            .returning(seat_calls::id)
    )
    .changed(dbc))?;
    if n != 1 {
        return Ok(false);
    }
    audit::record::<SeatCallRow, ()>(
        conn,
        now,
        system,
        "seat.call_expired",
        "player",
        Some(c.player_id.get()),
        Some(c),
        None,
    )?;
    if let Some(eid) = c.entry_id.filter(|_| c.source == CallSource::List) {
        let e = entry(conn, eid)?;
        match profile.call_expiry {
            CallExpiry::Remove => {
                end_entry(
                    conn,
                    act,
                    &e,
                    EntryState::Removed,
                    "call expired",
                    "list.call_expired",
                )?;
            }
            CallExpiry::BottomOfList => {
                let key = bottom_key(conn, e.game_id)?;
                crate::native!(conn, |dbc| crate::db::Cached(
                    diesel::update(waitlist_entries::table.find(eid))
                        .set((
                            waitlist_entries::state.eq(EntryState::Waiting),
                            waitlist_entries::order_key.eq(key)
                        ))
                        .returning(waitlist_entries::id)
                )
                .changed(dbc))?;
                let note = serde_json::json!({ "call_id": c.id, "to": "bottom" });
                audit::record::<(), _>(
                    conn,
                    now,
                    system,
                    "list.call_expired",
                    "player",
                    Some(e.player_id.get()),
                    None,
                    Some(&note),
                )?;
                notify_heads(conn, now, e.game_id, None)?;
            }
        }
        let number = table(conn, c.table_id)?.number;
        let back = profile.call_expiry == CallExpiry::BottomOfList;
        tell_entry(conn, now, &e, Kind::CallExpired, |p| {
            p.table = Some(number);
            p.back_on_list = Some(back);
        })?;
    }
    emit(
        conn,
        now,
        Some(c.table_id),
        "seat.call_expired",
        &serde_json::json!({ "call_id": c.id, "seat": c.seat_no, "player_id": c.player_id }),
    )?;
    Ok(true)
}
