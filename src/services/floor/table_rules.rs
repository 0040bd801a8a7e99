//! Table rules (PT-2007 24): run, suspend, resume or close a table after a change of
//! players, the players of a closed table back on their list, opening a table, and the
//! scheduler's pass.

use super::*;
use crate::domain::ids::EntryId;
use crate::domain::ids::GameId;
use crate::domain::ids::PlayerId;
use crate::domain::ids::SeatCallId;
use crate::domain::ids::TableId;
use crate::domain::refusal::TableRefusal;
use crate::domain::states::CallSource;
use crate::domain::states::EntryState;
use crate::domain::states::ListSource;
use crate::services::Act;

/// PT-2007 24: after a change of players, run / suspend / resume the table as the domain says.
pub(super) fn apply_table_rules(conn: &mut DbConn, act: &Act, table_id: TableId) -> AppResult<()> {
    let t = table(conn, table_id)?;
    apply_table_rules_to(conn, act, &t)
}

/// [`apply_table_rules`] for a table row read in this transaction and not changed since.
pub(super) fn apply_table_rules_to(conn: &mut DbConn, act: &Act, t: &TableRow) -> AppResult<()> {
    let seated = seated_count(conn, t.id)?;
    apply_table_rules_counted(conn, act, t, seated)
}

/// [`apply_table_rules_to`] with the number of players seated at the table now, as this
/// transaction knows it (no count read again after a seating or a leave).
pub(super) fn apply_table_rules_counted(
    conn: &mut DbConn,
    act: &Act,
    t: &TableRow,
    seated: usize,
) -> AppResult<()> {
    let (now, profile, actor) = (act.now, act.profile(), &act.actor);
    let table_id = t.id;
    let state = t.state;
    let grace = Duration::minutes(profile.suspension_grace_min as i64);
    let decision = evaluate(
        state,
        seated,
        profile.min_players_to_run,
        t.suspended_at.map(|x| x.and_utc()),
        grace,
        now,
    );
    let (new_state, suspended_at) = match decision {
        Transition::Stay => return Ok(()),
        Transition::Run => (TableState::Running, None),
        Transition::Suspend { .. } => (TableState::Suspended, Some(now.naive_utc())),
        Transition::Close => (TableState::Closed, None),
    };
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(card_tables::table.find(table_id))
            .set((
                card_tables::state.eq(new_state),
                card_tables::suspended_at.eq(suspended_at),
                card_tables::updated_at.eq(now.naive_utc())
            ))
            .returning(card_tables::id)
    )
    .changed(dbc))?;
    end_what_the_state_ends(conn, act, t, new_state)?;
    let after = table(conn, table_id)?;
    audit::record(
        conn,
        now,
        actor,
        "table.state",
        "table",
        Some(table_id.get()),
        Some(t),
        Some(&after),
    )?;
    emit(
        conn,
        now,
        Some(table_id),
        "table.state",
        &serde_json::json!({ "table": t.number, "state": new_state, "decision": decision }),
    )?;
    if new_state == TableState::Closed {
        empty_closed_table(conn, act, t)?;
    }
    Ok(())
}

/// The cagnotte, limits and special buttons follow the table's new state.
fn end_what_the_state_ends(
    conn: &mut DbConn,
    act: &Act,
    t: &TableRow,
    new_state: TableState,
) -> AppResult<()> {
    let (now, table_id) = (act.now, t.id);
    // PT-2007 24, 7b: the suspension history (suspension is not play).
    if new_state == TableState::Suspended {
        crate::services::cagnotte::suspension_started(conn, now, table_id)?;
    } else if t.state == TableState::Suspended {
        crate::services::cagnotte::suspension_ended(conn, now, table_id)?;
    }
    if new_state == TableState::Closed {
        crate::services::cagnotte::on_table_closed(conn, act, table_id)?;
        // PT-2007 22: a closed table's pending limit change ends; it reopens at its game's.
        crate::services::limits::on_close(conn, act, t)?;
        // BSOP 115, 116: the special buttons end with the table (the Macaca's chips recorded).
        crate::services::special_buttons::on_close(conn, act, t)?;
    }
    Ok(())
}

/// A closed table keeps nothing: no extra seat, calls, holds or players; its players go
/// back on their game's list.
fn empty_closed_table(conn: &mut DbConn, act: &Act, t: &TableRow) -> AppResult<()> {
    let table_id = t.id;
    // BSOP 50: no extra seat outlives the game.
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(card_tables::table.find(table_id))
            .set(card_tables::extra_seat.eq(false))
            .returning(card_tables::id)
    )
    .changed(dbc))?;
    // PT-2007 24: the game is closed and its players are offered seats elsewhere, so
    // they no longer hold seats here (BSOP 46), and open calls to it end, as do its
    // holds and seat-change requests.
    let calls: Vec<SeatCallId> = crate::native!(conn, |dbc| seat_calls::table
        .filter(seat_calls::table_id.eq(table_id))
        .filter(call_open!())
        .select(seat_calls::id)
        .load(dbc))?;
    cancel_open_calls(conn, act, &calls)?;
    let holds: Vec<SeatHoldRow> = crate::native!(conn, |dbc| seat_holds::table
        .filter(seat_holds::table_id.eq(table_id))
        .filter(seat_holds::released_at.is_null())
        .select(SeatHoldRow::as_select())
        .load(dbc))?;
    for h in holds {
        end_hold(conn, act, &h, "table closed")?;
    }
    let mut left = Vec::new();
    for s in seated_at(conn, table_id)? {
        unseat_at_close(conn, act, &s)?;
        left.push(s.player_id);
    }
    if let Some(game_id) = t.game_id {
        relist_after_close(conn, act, game_id, table_id, &left)?;
    }
    Ok(())
}

/// One player leaves the closed table: the seating ends, and so do their seat-change
/// requests and any move they were called for.
fn unseat_at_close(conn: &mut DbConn, act: &Act, s: &SeatingRow) -> AppResult<()> {
    let (now, actor, table_id) = (act.now, &act.actor, s.table_id);
    end_open_seating(conn, act, s, "table closed")?;
    cancel_seat_changes(conn, act, s.player_id, table_id)?;
    // A move this player was called for (must-move, seat change) ends with the seat.
    let moves: Vec<SeatCallId> = crate::native!(conn, |dbc| seat_calls::table
        .filter(seat_calls::player_id.eq(s.player_id))
        .filter(seat_calls::source.ne(CallSource::List))
        .filter(call_open!())
        .select(seat_calls::id)
        .load(dbc))?;
    cancel_open_calls(conn, act, &moves)?;
    let after: SeatingRow = crate::native!(conn, |dbc| seatings::table
        .find(s.id)
        .select(SeatingRow::as_select())
        .first(dbc))?;
    audit::record(
        conn,
        now,
        actor,
        "seat.leave",
        "player",
        Some(s.player_id.get()),
        Some(s),
        Some(&after),
    )?;
    emit(
        conn,
        now,
        Some(table_id),
        "seat.freed",
        &serde_json::json!({ "seat": s.seat_no, "player_id": s.player_id }),
    )?;
    Ok(())
}

/// PT-2007 24: the players of a closed table are offered the next seats of their game: back
/// on its list, at the top.
fn relist_after_close(
    conn: &mut DbConn,
    act: &Act,
    game_id: GameId,
    table_id: TableId,
    left: &[PlayerId],
) -> AppResult<()> {
    // BSOP 52, 56: a high card per player (dealt from seat 1, clockwise) sets the
    // order in which they pick the next seats; the draw is recorded.
    let order = if left.len() > 1 {
        use crate::domain::draw::{Draw, DrawSeed, HighCardPurpose};
        let d = Draw::high_card(DrawSeed::random(), HighCardPurpose::TableBreak, left)
            .map_err(|e| AppError::Conflict(e.problem()))?;
        crate::services::draws::record(conn, act, &d, Some(game_id), Some(table_id))?;
        match d {
            Draw::HighCard { result, .. } => result.order,
            _ => left.to_vec(),
        }
    } else {
        left.to_vec()
    };
    relist_at_top(conn, act, game_id, table_id, &order)?;
    // BSOP 56: with a table gone, the must-move is recomputed (the third breaks:
    // the second-formed becomes the must-move).
    recompute_must_move(conn, act, game_id)?;
    Ok(())
}

/// Opens a closed table for its game (waiting for players).
pub fn open_table(conn: &mut DbConn, act: &Act, table_id: TableId) -> AppResult<TableRow> {
    let (now, actor) = (act.now, &act.actor);
    let t = table(conn, table_id)?;
    let Some(game_id) = t.game_id else {
        return Err(TableRefusal::NoGame.into());
    };
    if t.state != TableState::Closed {
        return Err(TableRefusal::AlreadyOpen.into());
    }
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(
            card_tables::table
                .find(table_id)
                .filter(card_tables::state.eq(TableState::Closed))
        )
        .set((
            card_tables::state.eq(TableState::Open),
            card_tables::opened_at.eq(Some(now.naive_utc())),
            card_tables::updated_at.eq(now.naive_utc())
        ))
        .returning(card_tables::id)
    )
    .changed(dbc))?;
    // PT-2007 22: the table plays its game's limits from now on, as its own.
    let g = game(conn, game_id)?;
    crate::services::limits::on_open(conn, act, &t, &g)?;
    let after = table(conn, table_id)?;
    audit::record(
        conn,
        now,
        actor,
        "table.open",
        "table",
        Some(table_id.get()),
        Some(&t),
        Some(&after),
    )?;
    emit(
        conn,
        now,
        Some(table_id),
        "table.state",
        &serde_json::json!({ "table": t.number, "state": "open" }),
    )?;
    // BSOP 55, 56: another table of the same game: the newest is the must-move.
    if let Some(game_id) = t.game_id {
        recompute_must_move(conn, act, game_id)?;
    }
    table(conn, table_id)
}

/// The scheduler's pass: expires unanswered seat calls (the player goes to the bottom of
/// the list or off it, as the room decided, and the next is called), and closes suspended
/// tables whose 15 minutes ran out (PT-2007 24). Reads only stored times, so a restart
/// after a deadline acts at once.
pub fn tick(conn: &mut DbConn, act: &Act) -> AppResult<usize> {
    let now = act.now;
    let mut actions = escalate_unacknowledged(conn, act)?;
    let due: Vec<SeatCallRow> = crate::native!(conn, |dbc| seat_calls::table
        .filter(call_open!())
        .filter(seat_calls::respond_by.le(now.naive_utc()))
        .select(SeatCallRow::as_select())
        .load(dbc))?;
    for c in due {
        if !expire_call(conn, act, &c)? {
            continue;
        }
        actions += 1;
        // The seat is still free: call the next one, if anyone can take it. A seat that can
        // no longer be called (taken, held, gone after a change of seats) is left alone: one
        // table's state never stops the timers of the others.
        match call_next(conn, act, c.table_id, c.seat_no) {
            Ok(_)
            | Err(AppError::Conflict(_))
            | Err(AppError::Validation(_))
            | Err(AppError::NotFound) => {}
            Err(e) => return Err(e),
        }
    }
    // Call-ins that were not checked in lapse.
    let lapsed: Vec<WaitlistRow> = crate::native!(conn, |dbc| waitlist_entries::table
        .filter(crate::db::conditions::EntryWaiting)
        .filter(waitlist_entries::checked_in_at.is_null())
        .filter(waitlist_entries::call_in_expires_at.le(now.naive_utc()))
        .select(WaitlistRow::as_select())
        .load(dbc))?;
    for e in lapsed {
        end_entry(
            conn,
            act,
            &e,
            EntryState::Lapsed,
            "call-in not checked in",
            "list.lapse",
        )?;
        tell_entry(conn, now, &e, Kind::Removed, |_| {})?;
        actions += 1;
    }
    // BSOP 36: absent players whose time ran out: the floor is alerted.
    actions += crate::services::table_side::alert_due_removals(conn, act)?;
    let suspended: Vec<i64> = crate::native!(conn, |dbc| card_tables::table
        .filter(card_tables::state.eq(TableState::Suspended))
        .select(card_tables::id)
        .load(dbc))?;
    for id in suspended {
        apply_table_rules(conn, act, TableId(id))?;
    }
    Ok(actions)
}

/// A table in play: open, running or suspended.
pub(super) fn in_play(t: &TableRow) -> bool {
    t.state.in_play()
}

/// When a table was formed for its game (older tables are main games, BSOP 56).
pub(super) fn formed_at(t: &TableRow) -> DateTime<Utc> {
    t.opened_at.unwrap_or(t.created_at).and_utc()
}

/// PT-2007 24: the players of a closed table are offered the next seats of their game: back
/// on its list at the top, in the order of the table-break high-card draw (BSOP 52, 56;
/// source `table_break`). A player already on
/// the list moves to the top instead. Audited per player, pushed once.
fn relist_at_top(
    conn: &mut DbConn,
    act: &Act,
    game_id: GameId,
    table_id: TableId,
    players_in_order: &[PlayerId],
) -> AppResult<()> {
    let (now, actor) = (act.now, &act.actor);
    if players_in_order.is_empty() || !game(conn, game_id)?.active {
        return Ok(());
    }
    let current = entries(conn, game_id)?;
    let n = players_in_order.len() as i64;
    let top = current
        .iter()
        .map(|e| e.order_key)
        .min()
        .unwrap_or((n + 1) * waitlist::KEY_STEP);
    for (i, p) in players_in_order.iter().enumerate() {
        let key = top - (n - i as i64) * waitlist::KEY_STEP;
        if let Some(e) = current.iter().find(|e| e.player_id == *p) {
            crate::native!(conn, |dbc| crate::db::Cached(
                diesel::update(waitlist_entries::table.find(e.id))
                    .set(waitlist_entries::order_key.eq(key))
                    .returning(waitlist_entries::id)
            )
            .changed(dbc))?;
            let after = entry(conn, e.id)?;
            audit::record(
                conn,
                now,
                actor,
                "list.table_break",
                "player",
                Some(p.get()),
                Some(e),
                Some(&after),
            )?;
        } else {
            let row = WaitlistRow {
                id: EntryId(next_seq(conn, "waitlist")?),
                game_id,
                player_id: *p,
                order_key: key,
                joined_at: now.naive_utc(),
                source: ListSource::TableBreak,
                call_in_expires_at: None,
                checked_in_at: None,
                state: EntryState::Waiting,
                ended_at: None,
                end_reason: None,
                created_by: actor.id,
            };
            crate::native!(conn, |dbc| diesel::insert_into(waitlist_entries::table)
                .values(&row)
                .execute(dbc))?;
            audit::record::<(), _>(
                conn,
                now,
                actor,
                "list.table_break",
                "player",
                Some(p.get()),
                None,
                Some(&row),
            )?;
        }
    }
    emit(
        conn,
        now,
        None,
        "list.changed",
        &serde_json::json!({ "game_id": game_id, "table_break": table_id }),
    )?;
    notify_heads(conn, now, game_id, None)?;
    Ok(())
}
