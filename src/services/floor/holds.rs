//! Seat holds (BSOP 45, 49).

use super::*;
use crate::domain::ids::PlayerId;
use crate::domain::ids::TableId;
use crate::domain::refusal::{SeatRefusal, TableRefusal};
use crate::services::Act;

pub fn hold(conn: &mut DbConn, id: i64) -> AppResult<SeatHoldRow> {
    Ok(crate::native!(conn, |dbc| seat_holds::table
        .find(id)
        .select(SeatHoldRow::as_select())
        .first(dbc))?)
}

/// The hold on a seat now: one past its `until` holds nothing any more (BSOP 49), whether
/// or not it was released yet.
pub(super) fn active_hold(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    table_id: TableId,
    seat_no: i32,
) -> AppResult<Option<SeatHoldRow>> {
    Ok(crate::native!(conn, |dbc| seat_holds::table
        .filter(seat_holds::table_id.eq(table_id))
        .filter(seat_holds::seat_no.eq(seat_no))
        .filter(seat_holds::released_at.is_null())
        .select(SeatHoldRow::as_select())
        .first(dbc))
    .optional()?
    .filter(|h: &SeatHoldRow| h.until.is_none_or(|u| u.and_utc() > now)))
}

/// The reason stored for a hold for a named player when the floor gives none (BSOP 49).
pub const HOLD_FINISHING_HAND: &str = "finishing a hand at another table";

/// BSOP 49: holds a free seat for a named player still in a hand at another table, until
/// they come (seating them there releases the hold); BSOP 45: or reserves it by the floor
/// for a good reason (e.g. special needs; the reason is then required). A held seat is not
/// called nor given to anyone else.
pub fn hold_seat(
    conn: &mut DbConn,
    act: &Act,
    table_id: TableId,
    seat_no: i32,
    player_id: Option<PlayerId>,
    reason: Option<&str>,
) -> AppResult<SeatHoldRow> {
    let (now, tz, actor) = (act.now, act.tz(), &act.actor);
    let t = table(conn, table_id)?;
    let reason = reason.map(str::trim).filter(|r| !r.is_empty());
    let mut errors = Vec::new();
    if player_id.is_none() && reason.is_none() {
        errors.push(FieldError::new("reason", "err-required"));
    }
    let player = match player_id {
        Some(id) => match registry::get(conn, id) {
            Ok(p) => Some(p),
            Err(AppError::NotFound) => {
                errors.push(FieldError::new("player_id", "err-player-unknown"));
                None
            }
            Err(e) => return Err(e),
        },
        None => None,
    };
    if !errors.is_empty() {
        return Err(AppError::Validation(errors));
    }
    check_seat(conn, act, &t, seat_no, None, None)?;
    if t.game_id.is_none() {
        return Err(TableRefusal::NoGame.into());
    }
    if let Some(p) = &player {
        let why = registry::eligibility(conn, p, now, tz)?;
        if !why.is_empty() {
            return Err(ineligible_error(&why));
        }
        let apart = separated_from(conn, p.id)?;
        if !apart.is_empty()
            && seated_at(conn, t.id)?
                .iter()
                .any(|s| apart.contains(&s.player_id))
        {
            return Err(SeatRefusal::SeparatedAtTable.into());
        }
        let held: i64 = crate::native!(conn, |dbc| seat_holds::table
            .filter(seat_holds::player_id.eq(p.id))
            .filter(seat_holds::released_at.is_null())
            .count()
            .get_result(dbc))?;
        if held > 0 {
            return Err(SeatRefusal::PlayerHasHold.into());
        }
    }
    let row = SeatHoldRow {
        id: next_seq(conn, "seat_hold")?,
        table_id,
        seat_no,
        player_id,
        reason: reason.unwrap_or(HOLD_FINISHING_HAND).to_string(),
        held_at: now.naive_utc(),
        until: None,
        released_at: None,
        created_by: actor.id,
    };
    crate::native!(conn, |dbc| diesel::insert_into(seat_holds::table)
        .values(&row)
        .execute(dbc))
    .map_err(|e| {
        if is_unique_violation(&e) {
            AppError::from(SeatRefusal::SeatHeld)
        } else {
            e.into()
        }
    })?;
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "seat.hold",
        "table",
        Some(table_id.get()),
        None,
        Some(&row),
    )?;
    emit(
        conn,
        now,
        Some(table_id),
        "seat.held",
        &serde_json::json!({ "hold_id": row.id, "table": t.number, "seat": seat_no, "player_id": player_id,
            "alias": player.map(|p| p.alias), "reason": row.reason }),
    )?;
    Ok(row)
}

/// The floor releases a hold: the seat can be called or given again.
pub fn release_hold(conn: &mut DbConn, act: &Act, id: i64) -> AppResult<SeatHoldRow> {
    let h = hold(conn, id)?;
    if h.released_at.is_some() {
        return Err(SeatRefusal::HoldReleased.into());
    }
    end_hold(conn, act, &h, "released")
}

pub(super) fn end_hold(
    conn: &mut DbConn,
    act: &Act,
    h: &SeatHoldRow,
    why: &str,
) -> AppResult<SeatHoldRow> {
    let (now, actor) = (act.now, &act.actor);
    let n = crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(
            seat_holds::table
                .find(h.id)
                .filter(seat_holds::released_at.is_null())
        )
        .set(seat_holds::released_at.eq(Some(now.naive_utc())))
        .returning(seat_holds::id)
    )
    .changed(dbc))?;
    if n != 1 {
        return Err(SeatRefusal::HoldReleased.into());
    }
    let after = hold(conn, h.id)?;
    audit::record(
        conn,
        now,
        actor,
        "seat.hold_release",
        "table",
        Some(h.table_id.get()),
        Some(h),
        Some(&after),
    )?;
    emit(
        conn,
        now,
        Some(h.table_id),
        "seat.hold_released",
        &serde_json::json!({ "hold_id": h.id, "seat": h.seat_no, "player_id": h.player_id, "why": why }),
    )?;
    Ok(after)
}

/// BSOP 49: the player took the seat held for them: the hold ends.
/// `hold`: the seat's active hold as [`check_seat`] found it in this transaction.
pub(super) fn release_holds_taken_by(
    conn: &mut DbConn,
    act: &Act,
    hold: Option<SeatHoldRow>,
    player_id: PlayerId,
) -> AppResult<()> {
    if let Some(h) = hold {
        if h.player_id == Some(player_id) {
            end_hold(conn, act, &h, "seated")?;
        }
    }
    Ok(())
}

/// The active holds at a table, each with the alias of the player it is held for.
pub fn holds_at(
    conn: &mut DbConn,
    table_id: TableId,
) -> AppResult<Vec<(SeatHoldRow, Option<String>)>> {
    Ok(crate::native!(conn, |dbc| seat_holds::table
        .left_join(players::table.on(players::id.nullable().eq(seat_holds::player_id)))
        .filter(seat_holds::table_id.eq(table_id))
        .filter(seat_holds::released_at.is_null())
        .order(seat_holds::seat_no.asc())
        .select((SeatHoldRow::as_select(), players::alias.nullable()))
        .load(dbc))?)
}
