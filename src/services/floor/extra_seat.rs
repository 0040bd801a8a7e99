//! BSOP 50: a game started with one extra player loses the extra seat as soon as anyone
//! leaves it, by whatever path: a player leaving or cashing out, removed for absence, moved
//! to another table (a transfer, a held seat, a must-move), refusing a must-move, or the
//! table closing. Every one of them ends the seating through [`end_open_seating`], which
//! applies the rule in the same transaction.

use super::*;
use crate::services::Act;

/// A seating ended by [`end_open_seating`].
#[derive(Debug)]
pub(crate) struct Ended {
    /// BSOP 50: the table as it is once its extra seat went, when this ending removed it
    /// (none: the table had no extra seat).
    pub table_after: Option<TableRow>,
}

/// Ends seating `s` if still open, at `act.now`, for `reason`, and applies BSOP 50 to its
/// table. None when another write ended it first (the caller refuses or moves on).
///
/// BSOP 50: «um assento será removido assim que alguém sair do jogo». When the table was
/// started with an extra player, the extra seat goes now: the player in it takes the seat
/// just freed (or, when they are the one leaving, the extra seat simply goes), so the table
/// is back to its normal number of places and every remaining player sits in a numbered
/// seat. Audited as `seat.extra_removed` (the player moved) and `table.extra_seat_removed`
/// (which seat went, and the draw that had added it).
pub(crate) fn end_open_seating(
    conn: &mut DbConn,
    act: &Act,
    s: &SeatingRow,
    reason: &str,
) -> AppResult<Option<Ended>> {
    let now = act.now;
    let n = crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(
            seatings::table
                .find(s.id)
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
        return Ok(None);
    }
    let table_after = remove_extra_seat(conn, act, s)?;
    Ok(Some(Ended { table_after }))
}

/// BSOP 50 after seating `left` ended: the table's extra seat goes, in one statement that
/// both tests and clears it (a table without one costs nothing more). The table as it is
/// afterwards, when it had one.
fn remove_extra_seat(
    conn: &mut DbConn,
    act: &Act,
    left: &SeatingRow,
) -> AppResult<Option<TableRow>> {
    let table_id = left.table_id;
    let cleared: Option<TableRow> = crate::native!(conn, |dbc| diesel::update(
        card_tables::table
            .find(table_id)
            .filter(card_tables::extra_seat.eq(true))
    )
    .set(card_tables::extra_seat.eq(false))
    .returning(TableRow::as_returning())
    .get_result(dbc))
    .optional()?;
    let Some(after) = cleared else {
        return Ok(None);
    };
    let before = TableRow {
        extra_seat: true,
        ..after.clone()
    };
    let extra_no = after.seats + 1;
    let moved = if left.seat_no == extra_no {
        None
    } else {
        move_out_of_extra_seat(conn, act, &after, left.seat_no)?
    };
    let draw_id = extra_seat_draw(conn, table_id)?;
    audit::record(
        conn,
        act.now,
        &act.actor,
        "table.extra_seat_removed",
        "table",
        Some(table_id.get()),
        Some(&before),
        Some(&serde_json::json!({
            "table": after,
            // The seat that is no longer there: the extra one, whose player (if still
            // seated) now sits in the seat the leaving player freed.
            "removed_seat": extra_no,
            "freed_seat": left.seat_no,
            "left_seating_id": left.id,
            "moved_player_id": moved,
            "draw_id": draw_id,
        })),
    )?;
    Ok(Some(after))
}

/// The player in the extra seat takes seat `freed` (audited and pushed); their id, or none
/// when the extra seat was empty.
fn move_out_of_extra_seat(
    conn: &mut DbConn,
    act: &Act,
    t: &TableRow,
    freed: i32,
) -> AppResult<Option<PlayerId>> {
    let extra_no = t.seats + 1;
    let extra: Option<SeatingRow> = crate::native!(conn, |dbc| seatings::table
        .filter(seatings::table_id.eq(t.id))
        .filter(seatings::seat_no.eq(extra_no))
        .filter(seatings::left_at.is_null())
        .select(SeatingRow::as_select())
        .first(dbc))
    .optional()?;
    let Some(x) = extra else {
        return Ok(None);
    };
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(seatings::table.find(x.id))
            .set(seatings::seat_no.eq(freed))
            .returning(seatings::id)
    )
    .changed(dbc))?;
    let moved = SeatingRow {
        seat_no: freed,
        ..x.clone()
    };
    audit::record(
        conn,
        act.now,
        &act.actor,
        "seat.extra_removed",
        "player",
        Some(x.player_id.get()),
        Some(&x),
        Some(&moved),
    )?;
    emit(
        conn,
        act.now,
        Some(t.id),
        "seat.moved",
        &serde_json::json!({ "table": t.number, "from": extra_no, "to": freed, "player_id": x.player_id }),
    )?;
    Ok(Some(x.player_id))
}

/// The last seat draw with an extra player at the table (the one that added its extra seat).
fn extra_seat_draw(conn: &mut DbConn, table_id: TableId) -> AppResult<Option<i64>> {
    use crate::db::schema::draws;
    Ok(crate::native!(conn, |dbc| draws::table
        .filter(draws::table_id.eq(table_id))
        .filter(draws::kind.eq(crate::domain::draw::DrawKind::SeatWithExtra))
        .order(draws::id.desc())
        .select(draws::id)
        .first(dbc))
    .optional()?)
}
