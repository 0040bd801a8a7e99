//! Seat-change requests (PT-2007 12, BSOP 51).

use super::*;
use crate::domain::ids::PlayerId;
use crate::domain::ids::SeatCallId;
use crate::domain::ids::SeatingId;
use crate::domain::ids::TableId;
use crate::domain::refusal::SeatRefusal;
use crate::domain::states::CallSource;
use crate::domain::states::SeatChangeState;
use crate::services::Act;

pub fn seat_change(conn: &mut DbConn, id: i64) -> AppResult<SeatChangeRow> {
    Ok(crate::native!(conn, |dbc| seat_change_requests::table
        .find(id)
        .select(SeatChangeRow::as_select())
        .first(dbc))?)
}

/// PT-2007 12, BSOP 51: a seated player asks for another seat at the same table; when a seat
/// there frees up, the requests are served first, first asked first served. One open
/// request per player.
pub fn request_seat_change(
    conn: &mut DbConn,
    act: &Act,
    seating_id: SeatingId,
) -> AppResult<SeatChangeRow> {
    let (now, actor) = (act.now, &act.actor);
    let s = seating(conn, seating_id)?;
    if s.left_at.is_some() {
        return Err(SeatRefusal::AlreadyLeft.into());
    }
    let open: i64 = crate::native!(conn, |dbc| seat_change_requests::table
        .filter(seat_change_requests::player_id.eq(s.player_id))
        .filter(crate::db::conditions::SeatChangeOpen)
        .count()
        .get_result(dbc))?;
    if open > 0 {
        return Err(SeatRefusal::SeatChangeOpen.into());
    }
    let row = SeatChangeRow {
        id: next_seq(conn, "seat_change")?,
        table_id: s.table_id,
        player_id: s.player_id,
        requested_at: now.naive_utc(),
        resolved_at: None,
        state: SeatChangeState::Open,
    };
    crate::native!(conn, |dbc| diesel::insert_into(seat_change_requests::table)
        .values(&row)
        .execute(dbc))
    .map_err(|e| {
        if is_unique_violation(&e) {
            AppError::from(SeatRefusal::SeatChangeOpen)
        } else {
            e.into()
        }
    })?;
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "seat.change_request",
        "player",
        Some(s.player_id.get()),
        None,
        Some(&row),
    )?;
    emit(
        conn,
        now,
        Some(s.table_id),
        "seat.change_requested",
        &serde_json::json!({ "request_id": row.id, "seat": s.seat_no, "player_id": s.player_id }),
    )?;
    Ok(row)
}

/// Withdraws an open seat-change request; a call it received ends (the seat is free again).
pub fn cancel_seat_change(conn: &mut DbConn, act: &Act, id: i64) -> AppResult<SeatChangeRow> {
    let (now, actor) = (act.now, &act.actor);
    let r = seat_change(conn, id)?;
    if r.state != SeatChangeState::Open {
        return Err(SeatRefusal::SeatChangeNotOpen.into());
    }
    cancel_seat_changes(conn, act, r.player_id, r.table_id)?;
    let after = seat_change(conn, id)?;
    audit::record(
        conn,
        now,
        actor,
        "seat.change_cancel",
        "player",
        Some(r.player_id.get()),
        Some(&r),
        Some(&after),
    )?;
    emit(
        conn,
        now,
        Some(r.table_id),
        "seat.change_cancelled",
        &serde_json::json!({ "request_id": r.id, "player_id": r.player_id }),
    )?;
    Ok(after)
}

/// Ends a player's open seat-change requests at a table, and the seat-change calls they got.
pub(super) fn cancel_seat_changes(
    conn: &mut DbConn,
    act: &Act,
    player_id: PlayerId,
    table_id: TableId,
) -> AppResult<()> {
    let now = act.now;
    end_seat_change_requests(conn, now, player_id, table_id)?;
    let calls: Vec<SeatCallId> = crate::native!(conn, |dbc| seat_calls::table
        .filter(seat_calls::player_id.eq(player_id))
        .filter(seat_calls::table_id.eq(table_id))
        .filter(seat_calls::source.eq(CallSource::SeatChange))
        .filter(call_open!())
        .select(seat_calls::id)
        .load(dbc))?;
    cancel_open_calls(conn, act, &calls)
}

/// The player's open seat-change requests at the table end (cancelled); their open
/// seat-change calls are left to the caller (see [`cancel_seat_changes`]).
pub(super) fn end_seat_change_requests(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    player_id: PlayerId,
    table_id: TableId,
) -> AppResult<()> {
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(
            seat_change_requests::table
                .filter(seat_change_requests::player_id.eq(player_id))
                .filter(seat_change_requests::table_id.eq(table_id))
                .filter(crate::db::conditions::SeatChangeOpen),
        )
        .set((
            seat_change_requests::state.eq(SeatChangeState::Cancelled),
            seat_change_requests::resolved_at.eq(Some(now.naive_utc()))
        ))
        .returning(seat_change_requests::id)
    )
    .changed(dbc))?;
    Ok(())
}

/// The open seat-change requests at a table, first asked first, each with the player and
/// their seat.
pub fn seat_changes_at(
    conn: &mut DbConn,
    table_id: TableId,
) -> AppResult<Vec<(SeatChangeRow, PlayerRow, Option<i32>)>> {
    table(conn, table_id)?;
    let rows: Vec<(SeatChangeRow, PlayerRow)> =
        crate::native!(conn, |dbc| seat_change_requests::table
            .inner_join(players::table.on(players::id.eq(seat_change_requests::player_id)))
            .filter(seat_change_requests::table_id.eq(table_id))
            .filter(crate::db::conditions::SeatChangeOpen)
            .order((
                seat_change_requests::requested_at.asc(),
                seat_change_requests::id.asc()
            ))
            .select((SeatChangeRow::as_select(), PlayerRow::as_select()))
            .load(dbc))?;
    let seated = seated_at(conn, table_id)?;
    Ok(rows
        .into_iter()
        .map(|(r, p)| {
            let seat = seated
                .iter()
                .find(|s| s.player_id == r.player_id)
                .map(|s| s.seat_no);
            (r, p, seat)
        })
        .collect())
}
