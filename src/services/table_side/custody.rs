//! Chip removal and custody (BSOP 36, 37): counted by two staff members, held, and resolved.

use super::*;
use crate::domain::ids::SeatingId;
use crate::domain::ids::TableId;
use crate::domain::refusal::{AbsenceRefusal, CustodyRefusal, GeneralRefusal};
use crate::domain::states::CustodyState;
use crate::services::Act;

pub fn custody(conn: &mut DbConn, id: i64) -> AppResult<CustodyRow> {
    Ok(crate::native!(conn, |dbc| chip_custody::table
        .find(id)
        .select(CustodyRow::as_select())
        .first(dbc))?)
}

/// BSOP 36: the first staff member counts an absent player's chips for removal (amount and
/// where they will be kept). Only a seat due for removal; the count waits for a second,
/// different staff member's confirmation ([`confirm_removal`]).
pub fn start_removal(
    conn: &mut DbConn,
    act: &Act,
    seating_id: SeatingId,
    amount: i64,
    storage: &str,
    at_table: Option<TableId>,
) -> AppResult<CustodyRow> {
    let room = &act.room;
    let (now, actor) = (act.now, &act.actor);
    let counted_by = actor
        .id
        .ok_or_else(|| AppError::Forbidden(Problem::from(GeneralRefusal::Forbidden)))?;
    let (s, sd) = open_seating(conn, seating_id, at_table)?;
    match status_of(&sd, &room.profile, now) {
        AbsenceStatus::DueForRemoval { .. } => {}
        AbsenceStatus::Present => return Err(AbsenceRefusal::NotAway.into()),
        AbsenceStatus::Away { due_at } => {
            let minutes = ((due_at - now).num_seconds() + 59) / 60;
            return Err(CustodyRefusal::RemovalNotDue {
                minutes: minutes.max(1),
            }
            .into());
        }
    }
    let max = buy_in_max_of(conn, &s)?;
    check_stack(conn, "amount", max, amount)?;
    let storage = text("storage", storage, 100)?;
    let row = CustodyRow {
        id: next_seq(conn, "custody")?,
        seating_id: s.id,
        table_id: s.table_id,
        seat_no: s.seat_no,
        player_id: s.player_id,
        amount,
        storage,
        state: CustodyState::Counting,
        counted_by,
        counted_at: now.naive_utc(),
        confirmed_by: None,
        confirmed_at: None,
        resolved_at: None,
        resolved_by: None,
        note: None,
    };
    crate::native!(conn, |dbc| diesel::insert_into(chip_custody::table)
        .values(&row)
        .execute(dbc))
    .map_err(|e| {
        if is_unique_violation(&e) {
            AppError::from(CustodyRefusal::RemovalPending)
        } else {
            e.into()
        }
    })?;
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "custody.count",
        "player",
        Some(s.player_id.get()),
        None,
        Some(&row),
    )?;
    emit(
        conn,
        now,
        Some(s.table_id),
        "custody.counting",
        &serde_json::json!({ "custody_id": row.id, "seat": s.seat_no, "player_id": s.player_id }),
    )?;
    Ok(row)
}

/// BSOP 36: a second staff member (not the one who counted) counts the same amount: the chips
/// go into custody, the seat is freed (the amount is what the player took off, BSOP 37) and
/// the next player is called for it. A different amount is refused: both count again.
pub fn confirm_removal(
    conn: &mut DbConn,
    act: &Act,
    custody_id: i64,
    amount: i64,
    at_table: Option<TableId>,
) -> AppResult<(CustodyRow, Option<SeatCallRow>)> {
    let (now, room, confirmer) = (act.now, &act.room, &act.actor);
    let by = confirmer
        .id
        .ok_or_else(|| AppError::Forbidden(Problem::from(GeneralRefusal::Forbidden)))?;
    let c = custody(conn, custody_id)?;
    if at_table.is_some_and(|t| t != c.table_id) {
        return Err(AppError::NotFound);
    }
    if c.state != CustodyState::Counting {
        return Err(CustodyRefusal::NotCounting.into());
    }
    if c.counted_by == by {
        return Err(CustodyRefusal::SameStaff.into());
    }
    let seated = floor::seating(conn, c.seating_id)?;
    let max = buy_in_max_of(conn, &seated)?;
    check_stack(conn, "amount", max, amount)?;
    if amount != c.amount {
        return Err(rule_refusal(
            Problem::from(CustodyRefusal::AmountDiffers {
                first: c.amount,
                second: amount,
            }),
            room,
        ));
    }
    let n = crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(
            chip_custody::table
                .find(c.id)
                .filter(chip_custody::state.eq(CustodyState::Counting))
        )
        .set((
            chip_custody::state.eq(CustodyState::Held),
            chip_custody::confirmed_by.eq(Some(by)),
            chip_custody::confirmed_at.eq(Some(now.naive_utc()))
        ))
        .returning(chip_custody::id)
    )
    .changed(dbc))?;
    if n != 1 {
        return Err(CustodyRefusal::NotCounting.into());
    }
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(seatings::table.find(c.seating_id))
            .set((
                seatings::stack.eq(c.amount),
                seatings::taken_off.eq(Some(c.amount))
            ))
            .returning(seatings::id)
    )
    .changed(dbc))?;
    floor::leave(conn, act, c.seating_id, REMOVED_FOR_ABSENCE)?;
    let after = custody(conn, c.id)?;
    audit::record(
        conn,
        now,
        confirmer,
        "custody.held",
        "player",
        Some(c.player_id.get()),
        Some(&c),
        Some(&after),
    )?;
    emit(
        conn,
        now,
        Some(c.table_id),
        "custody.held",
        &serde_json::json!({ "custody_id": c.id, "seat": c.seat_no, "player_id": c.player_id, "amount": c.amount }),
    )?;
    let next = call_next_quietly(conn, act, c.table_id, c.seat_no)?;
    Ok((after, next))
}

pub(super) fn end_custody(
    conn: &mut DbConn,
    act: &Act,
    c: &CustodyRow,
    state: &str,
    note: Option<&str>,
) -> AppResult<CustodyRow> {
    let (now, actor) = (act.now, &act.actor);
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(chip_custody::table.find(c.id))
            .set((
                chip_custody::state.eq(state),
                chip_custody::resolved_at.eq(Some(now.naive_utc())),
                chip_custody::resolved_by.eq(actor.id),
                chip_custody::note.eq(note)
            ))
            .returning(chip_custody::id)
    )
    .changed(dbc))?;
    let after = custody(conn, c.id)?;
    audit::record(
        conn,
        now,
        actor,
        &format!("custody.{state}"),
        "player",
        Some(c.player_id.get()),
        Some(c),
        Some(&after),
    )?;
    emit(
        conn,
        now,
        Some(c.table_id),
        "custody.changed",
        &serde_json::json!({ "custody_id": c.id, "state": state, "player_id": c.player_id }),
    )?;
    Ok(after)
}

/// A count not yet confirmed is dropped (to count again).
pub fn cancel_removal(
    conn: &mut DbConn,
    act: &Act,
    custody_id: i64,
    at_table: Option<TableId>,
) -> AppResult<CustodyRow> {
    let c = custody(conn, custody_id)?;
    if at_table.is_some_and(|t| t != c.table_id) {
        return Err(AppError::NotFound);
    }
    if c.state != CustodyState::Counting {
        return Err(CustodyRefusal::NotCounting.into());
    }
    end_custody(conn, act, &c, "cancelled", None)
}

/// Chips in custody leave it: the player reclaimed them, or the cashier settled them (a note
/// says how).
pub fn resolve_custody(
    conn: &mut DbConn,
    act: &Act,
    custody_id: i64,
    how: &str,
    note: &str,
) -> AppResult<CustodyRow> {
    let c = custody(conn, custody_id)?;
    if c.state != CustodyState::Held {
        return Err(CustodyRefusal::NotHeld.into());
    }
    let state = match how {
        "reclaimed" => "reclaimed",
        "settled" => "settled",
        _ => return Err(AppError::field("how", "err-custody-how")),
    };
    let note = note.trim();
    if note.chars().count() > 300 {
        return Err(AppError::Validation(vec![FieldError::new(
            "note",
            "err-too-long",
        )
        .arg("max", 300)]));
    }
    end_custody(conn, act, &c, state, (!note.is_empty()).then_some(note))
}

/// Chips in custody or being counted, newest first, with the player and the table number.
pub fn custody_list(
    conn: &mut DbConn,
    include_resolved: bool,
) -> AppResult<Vec<(CustodyRow, PlayerRow, i32)>> {
    let mut q = chip_custody::table
        .inner_join(players::table)
        .inner_join(card_tables::table.on(card_tables::id.eq(chip_custody::table_id)))
        .into_boxed();
    if !include_resolved {
        q = q.filter(
            chip_custody::state
                .eq(CustodyState::Held)
                .or(chip_custody::state.eq(CustodyState::Counting)),
        );
    }
    Ok(q.order(chip_custody::id.desc())
        .limit(200)
        .select((
            CustodyRow::as_select(),
            PlayerRow::as_select(),
            card_tables::number,
        ))
        .load(conn)?)
}
