//! A player leaving their seat (the next player can then be called).

use super::*;
use crate::domain::ids::SeatingId;
use crate::domain::refusal::SeatRefusal;
use crate::domain::states::CallSource;
use crate::services::Act;

/// A player leaves their seat (the next player can then be called).
pub fn leave(
    conn: &mut DbConn,
    act: &Act,
    seating_id: SeatingId,
    reason: &str,
) -> AppResult<SeatingRow> {
    let (now, actor) = (act.now, &act.actor);
    let (s, t, seated, calls_open, changes_open) = seating_to_end(conn, seating_id)?;
    if s.left_at.is_some() {
        return Err(SeatRefusal::AlreadyLeft.into());
    }
    let ended = end_open_seating(conn, act, &s, reason)?.ok_or(SeatRefusal::AlreadyLeft)?;
    // The row as the update left it (no second read; `now` is already truncated
    // to what both databases store).
    let after = SeatingRow {
        left_at: Some(now.naive_utc()),
        left_reason: Some(reason.to_string()),
        ..s.clone()
    };
    end_requests_and_moves(conn, act, &s, changes_open, calls_open)?;
    audit::record(
        conn,
        now,
        actor,
        "seat.leave",
        "player",
        Some(s.player_id.get()),
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
    let t = ended.table_after.unwrap_or(t);
    let seated = (seated.unwrap_or(0) as usize).saturating_sub(1);
    apply_table_rules_counted(conn, act, &t, seated)?;
    Ok(after)
}

/// The seating, its table, how many sit there, and whether the player has an open call or
/// seat-change request anywhere, in one statement (statements per leave; what
/// ends with the seating is read only when there is some).
fn seating_to_end(
    conn: &mut DbConn,
    seating_id: SeatingId,
) -> AppResult<(SeatingRow, TableRow, Option<i64>, bool, bool)> {
    Ok(crate::native!(conn, |dbc| {
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
    })?)
}

/// A seat-change request only makes sense while seated at that table, and a must-move
/// call while seated at the must-move table: both end with the seating (the player's
/// open calls of either kind read in one statement).
fn end_requests_and_moves(
    conn: &mut DbConn,
    act: &Act,
    s: &SeatingRow,
    changes_open: bool,
    calls_open: bool,
) -> AppResult<()> {
    if changes_open {
        end_seat_change_requests(conn, act.now, s.player_id, s.table_id)?;
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
    Ok(())
}
