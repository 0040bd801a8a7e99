//! Seating (BSOP 44, 46, 47, 50): who sits at a table, and seating a player. Whether a seat
//! is free and a player may sit: `seat_checks`; moving a seated player: `moves`; leaving a
//! seat: `leave`.

use super::*;
use crate::domain::ids::EntryId;
use crate::domain::ids::PlayerId;
use crate::domain::ids::SeatCallId;
use crate::domain::ids::SeatingId;
use crate::domain::ids::TableId;
use crate::domain::refusal::{SeatRefusal, TableRefusal};
use crate::domain::states::EntryState;
use crate::services::Act;

/// Players seated at a table now.
/// How many players sit at a table.
pub fn seated_count(conn: &mut DbConn, table_id: TableId) -> AppResult<usize> {
    let n: i64 = crate::native!(conn, |dbc| seatings::table
        .filter(seatings::table_id.eq(table_id))
        .filter(seatings::left_at.is_null())
        .count()
        .get_result(dbc))?;
    Ok(n as usize)
}

pub fn seated_at(conn: &mut DbConn, table_id: TableId) -> AppResult<Vec<SeatingRow>> {
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
    table_id: TableId,
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
pub(super) fn separated_from(conn: &mut DbConn, player_id: PlayerId) -> AppResult<Vec<PlayerId>> {
    let rows: Vec<(PlayerId, PlayerId)> = crate::native!(conn, |dbc| separations::table
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
pub fn seated_at_any(conn: &mut DbConn, player_id: PlayerId) -> AppResult<bool> {
    Ok(crate::native!(conn, |dbc| seatings::table
        .filter(seatings::player_id.eq(player_id))
        .filter(seatings::left_at.is_null())
        .count()
        .get_result::<i64>(dbc))?
        > 0)
}

/// The floor seats a player directly (BSOP 44), with every check a call would make.
pub fn seat_directly(
    conn: &mut DbConn,
    act: &Act,
    table_id: TableId,
    seat_no: i32,
    player_id: PlayerId,
) -> AppResult<SeatingRow> {
    let now = act.now;
    let t = table(conn, table_id)?;
    registry::get(conn, player_id).map_err(|e| match e {
        AppError::NotFound => AppError::field("player_id", "err-player-unknown"),
        e => e,
    })?;
    // The player's active entry on this game's list, if any, is used up by the seating.
    let entry_id: Option<EntryId> = match t.game_id {
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
    player_id: PlayerId,
    entry_id: Option<EntryId>,
    call_id: Option<SeatCallId>,
) -> AppResult<SeatingRow> {
    let (now, tz, profile, actor) = (act.now, act.tz(), act.profile(), &act.actor);
    let SeatCheck {
        hold,
        seated,
        session_open,
        ..
    } = check_seat(
        conn,
        act,
        t,
        seat_no,
        call_id.map(SeatCallId::get),
        Some(player_id.get()),
    )?;
    if t.game_id.is_none() {
        return Err(TableRefusal::NoGame.into());
    }
    let (player, k) = player_checks(conn, player_id, call_id.map(SeatCallId::get))?;
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
        id: SeatingId(next_seq(conn, "seating")?),
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
    start_seating(
        conn,
        act,
        &row,
        entry_id,
        call_id.map(SeatCallId::get),
        Some(known),
    )?;
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
        Some(player_id.get()),
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
pub(super) struct SeatingReads {
    /// The player has open calls (other than the one answered).
    other_calls: bool,
    /// The table has an open cagnotte session.
    session_open: bool,
}

/// Starts a sit-down: the seating row (the unique indexes settle a race between two floor
/// managers: the loser gets a 409), the list entry it uses up, and — BSOP 46 — the end of
/// the player's other open calls (those entries wait again, in their place). `keep_call` is
/// the call being answered by this seating.
pub(super) fn start_seating(
    conn: &mut DbConn,
    act: &Act,
    row: &SeatingRow,
    entry_id: Option<EntryId>,
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
    let others: Vec<SeatCallId> = crate::native!(conn, |dbc| seat_calls::table
        .filter(seat_calls::player_id.eq(row.player_id))
        .filter(call_open!())
        .filter(seat_calls::id.ne(keep_call.unwrap_or(-1)))
        .select(seat_calls::id)
        .load(dbc))?;
    cancel_open_calls(conn, act, &others)
}
