//! Chips and rulings: a pot held aside while the decision is pending (BSOP 21), and the chips
//! a decision moves — confirmed by a second staff member, as chips in custody are (BSOP 36).

use super::*;
use crate::domain::ids::PlayerId;
use crate::domain::ids::SeatingId;
use crate::domain::ids::TableId;
use crate::domain::refusal::RulingRefusal;
use crate::services::Act;

/// The chips the table has on record: the sum of the seated players' stacks (their last
/// count, `seatings.stack`), added without wrapping.
pub fn chips_on_table(conn: &mut DbConn, table_id: TableId) -> AppResult<i64> {
    let stacks: Vec<i64> = crate::native!(conn, |dbc| seatings::table
        .filter(seatings::table_id.eq(table_id))
        .filter(seatings::left_at.is_null())
        .select(seatings::stack)
        .load(dbc))?;
    crate::domain::money::sum(stacks.iter().map(|s| (*s).max(0)))
        .map_err(|_| AppError::internal("the stacks on record overflow"))
}

/// BSOP 20, 21: the player is named in chips a decision moves that still wait for a second
/// staff member (giving or receiving): they stay at the table until it is settled.
pub fn chips_pending_for(conn: &mut DbConn, player_id: PlayerId) -> AppResult<bool> {
    let n: i64 = crate::native!(conn, |dbc| ruling_moves::table
        .inner_join(ruling_move_lines::table.on(ruling_move_lines::move_id.eq(ruling_moves::id)))
        .filter(ruling_moves::state.eq(RulingMoveState::Recorded))
        .filter(
            ruling_move_lines::to_player_id
                .eq(player_id)
                .or(ruling_move_lines::from_player_id.eq(Some(player_id)))
        )
        .count()
        .get_result(dbc))?;
    Ok(n > 0)
}

/// BSOP 21: "um pote ou parte dele pode ser retirado da mesa pela direção enquanto a decisão
/// estiver pendente" (to check surveillance footage, or for the manager). Only while the
/// ruling is open, once per ruling. The amount is at least one minor unit and no more than
/// the chips on the table on record (422 on `amount`, nothing saved); `storage` says where it
/// is kept; `seats` default to the ruling's. Audited as `ruling.pot_held`, pushed.
pub fn hold_pot(
    conn: &mut DbConn,
    act: &Act,
    ruling_id: i64,
    amount: i64,
    seats: &[i32],
    storage: &str,
) -> AppResult<HeldPotRow> {
    let room = &act.room;
    let (now, actor) = (act.now, &act.actor);
    let r = ruling(conn, ruling_id)?;
    if r.state() == RulingState::Decided {
        return Err(RulingRefusal::PotDecided { id: r.id }.into());
    }
    if held_pot_of(conn, r.id)?.is_some() {
        return Err(RulingRefusal::PotHeld { id: r.id }.into());
    }
    // BSOP 19, 21: a late ruling's hand is over and its result stands: no pot of the game
    // going on is taken off the table for it.
    if let Some(why) = r.late() {
        return Err(RulingRefusal::PotLate { why: why.as_str() }.into());
    }
    let t = table(conn, r.table_id)?;
    let on_table = chips_on_table(conn, r.table_id)?;
    rule::check_held_amount(amount, on_table).map_err(|f| field_refusal(f, room))?;
    let seats = if seats.is_empty() {
        r.seat_numbers()
    } else {
        rule::check_seats(seats, t.seats + i32::from(t.extra_seat))
            .map_err(|f| AppError::Validation(vec![f]))?
    };
    let storage = rule::text(
        "storage",
        storage,
        rule::STORAGE_MAX,
        Some(rule::STORAGE_REQUIRED),
    )
    .map_err(|f| AppError::Validation(vec![f]))?;
    let row = HeldPotRow {
        id: next_seq(conn, "held_pot")?,
        ruling_id: r.id,
        table_id: r.table_id,
        amount,
        seats: rule::format_seats(&seats),
        storage,
        state: HeldPotState::Held,
        held_at: now.naive_utc(),
        held_by: actor.id,
        released_at: None,
        released_by: None,
    };
    crate::native!(conn, |dbc| diesel::insert_into(held_pots::table)
        .values(&row)
        .execute(dbc))
    .map_err(|e| {
        if is_unique_violation(&e) {
            AppError::from(RulingRefusal::PotHeld { id: r.id })
        } else {
            e.into()
        }
    })?;
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "ruling.pot_held",
        SUBJECT,
        Some(r.id),
        None,
        Some(&row),
    )?;
    emit(
        conn,
        now,
        Some(r.table_id),
        "ruling.pot_held",
        &serde_json::json!({ "id": r.id, "table": t.number, "pot": row.id, "amount": amount }),
    )?;
    Ok(row)
}

/// One seat's stack before and after a move, for the audit record.
#[derive(Debug, Clone, Serialize)]
pub struct StackChange {
    pub player_id: PlayerId,
    pub seating_id: SeatingId,
    pub before: i64,
    pub after: i64,
}

/// The move of a ruling still waiting for its second staff member (409 otherwise; 404 from
/// another table's tablet).
fn recorded_move(
    conn: &mut DbConn,
    ruling_id: i64,
    at_table: Option<TableId>,
) -> AppResult<(RulingRow, RulingMoveRow, Vec<RulingMoveLineRow>)> {
    let r = ruling(conn, ruling_id)?;
    if at_table.is_some_and(|t| t != r.table_id) {
        return Err(AppError::NotFound);
    }
    let Some((m, lines)) = move_of(conn, r.id)? else {
        return Err(RulingRefusal::NoMove { id: r.id }.into());
    };
    if m.move_state() != RulingMoveState::Recorded {
        return Err(RulingRefusal::MoveDone { id: r.id }.into());
    }
    Ok((r, m, lines))
}

/// BSOP 20, 21: a second staff member — not the supervisor who recorded the decision —
/// confirms the chips it moves: the held pot is released and each named player's stack on
/// record at the table changes (a player no longer seated there is paid the share at the cage:
/// the line is kept, no stack changes). A reconstruction whose stacks changed since it was
/// recorded (less left than it takes) is refused, nothing moved. Audited as
/// `ruling.move_confirm` with each stack before and after; pushed.
pub fn confirm_move(
    conn: &mut DbConn,
    act: &Act,
    ruling_id: i64,
    at_table: Option<TableId>,
) -> AppResult<RulingMoveRow> {
    let (now, room, confirmer) = (act.now, &act.room, &act.actor);
    let by = staff_id(confirmer)?;
    let (r, m, lines) = recorded_move(conn, ruling_id, at_table)?;
    rule::check_second_staff(m.recorded_by, by).map_err(AppError::Conflict)?;
    let t = table(conn, r.table_id)?;
    let max = stack_max_of(conn, &t)?;
    let stacks = stacks_after(conn, room, r.table_id, &lines, max)?;
    let n = crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(
            ruling_moves::table
                .find(m.id)
                .filter(ruling_moves::state.eq(RulingMoveState::Recorded))
        )
        .set((
            ruling_moves::state.eq(RulingMoveState::Confirmed),
            ruling_moves::confirmed_by.eq(Some(by)),
            ruling_moves::confirmed_at.eq(Some(now.naive_utc()))
        ))
        .returning(ruling_moves::id)
    )
    .changed(dbc))?;
    if n != 1 {
        return Err(RulingRefusal::MoveDone { id: r.id }.into());
    }
    let changes = write_stacks(conn, &stacks)?;
    let pot_after = release_held_pot(conn, now, &m)?;
    let after = move_of(conn, r.id)?
        .map(|(m, _)| m)
        .ok_or(AppError::NotFound)?;
    audit::record(
        conn,
        now,
        confirmer,
        "ruling.move_confirm",
        SUBJECT,
        Some(r.id),
        Some(&m),
        Some(&serde_json::json!({
            "move": after,
            "lines": lines,
            "stacks": changes,
            "pot": pot_after,
        })),
    )?;
    emit(
        conn,
        now,
        Some(r.table_id),
        "ruling.move_confirmed",
        &serde_json::json!({ "id": r.id, "table": t.number, "move": m.id }),
    )?;
    Ok(after)
}

/// Every stack as it will be (player → seating, before, after), checked before anything
/// is written: a player giving chips must still be seated with enough left, a player
/// getting them stays within the table's maximum.
fn stacks_after(
    conn: &mut DbConn,
    room: &Room,
    table_id: TableId,
    lines: &[RulingMoveLineRow],
    max: i64,
) -> AppResult<HashMap<PlayerId, (i64, i64, i64)>> {
    let mut stacks: HashMap<PlayerId, (i64, i64, i64)> = HashMap::new();
    for l in lines {
        if let Some(from) = l.from_player_id {
            let (sid, before, now_at) = match stacks.get(&from) {
                Some(&x) => x,
                None => match open_seating_at(conn, table_id, from)? {
                    Some((sid, stack)) => (sid, stack, stack),
                    None => {
                        let alias = crate::services::players::get(conn, from)?.alias;
                        return Err(RulingRefusal::MoveLeft { player: alias }.into());
                    }
                },
            };
            if l.amount > now_at {
                let alias = crate::services::players::get(conn, from)?.alias;
                return Err(rule_refusal(
                    Problem::from(RulingRefusal::MoveOverStack {
                        player: alias,
                        stack: now_at.max(0),
                    }),
                    room,
                ));
            }
            stacks.insert(from, (sid, before, now_at - l.amount));
        }
        let to = l.to_player_id;
        let seat = match stacks.get(&to) {
            Some(&x) => Some(x),
            None => open_seating_at(conn, table_id, to)?.map(|(sid, s)| (sid, s, s)),
        };
        // A player no longer at the table is paid the share at the cage: no stack changes.
        if let Some((sid, before, now_at)) = seat {
            match crate::domain::money::add(now_at, l.amount) {
                Ok(after) if after <= max => {
                    stacks.insert(to, (sid, before, after));
                }
                _ => {
                    let alias = crate::services::players::get(conn, to)?.alias;
                    return Err(rule_refusal(
                        Problem::from(RulingRefusal::MoveOverStackMax { player: alias, max }),
                        room,
                    ));
                }
            }
        }
    }
    Ok(stacks)
}

/// The stacks that change, written by player; what changed, for the audit record.
fn write_stacks(
    conn: &mut DbConn,
    stacks: &HashMap<PlayerId, (i64, i64, i64)>,
) -> AppResult<Vec<StackChange>> {
    let mut changes: Vec<StackChange> = Vec::new();
    let mut order: Vec<(&PlayerId, &(i64, i64, i64))> = stacks.iter().collect();
    order.sort_by_key(|(p, _)| **p);
    for (player, &(sid, before, after)) in order {
        if before == after {
            continue;
        }
        crate::native!(conn, |dbc| crate::db::Cached(
            diesel::update(seatings::table.find(sid))
                .set(seatings::stack.eq(after))
                .returning(seatings::id)
        )
        .changed(dbc))?;
        changes.push(StackChange {
            player_id: *player,
            seating_id: SeatingId(sid),
            before,
            after,
        });
    }
    Ok(changes)
}

/// BSOP 21: the move's held pot, if any, is released; the pot as it is after.
fn release_held_pot(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    m: &RulingMoveRow,
) -> AppResult<Option<HeldPotRow>> {
    let Some(pid) = m.held_pot_id else {
        return Ok(None);
    };
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(
            held_pots::table
                .find(pid)
                .filter(held_pots::state.eq(HeldPotState::Held))
        )
        .set((
            held_pots::state.eq(HeldPotState::Released),
            held_pots::released_at.eq(Some(now.naive_utc())),
            held_pots::released_by.eq(Some(m.recorded_by))
        ))
        .returning(held_pots::id)
    )
    .changed(dbc))?;
    Ok(Some(crate::native!(conn, |dbc| held_pots::table
        .find(pid)
        .select(HeldPotRow::as_select())
        .first(dbc))?))
}

/// The second staff member refuses the chips as recorded (or the supervisor withdraws them):
/// nothing moves, a held pot stays held, and the decision stands (BSOP 17) — the floor puts
/// the amounts right with a correction naming the ruling. Audited as `ruling.move_cancel`.
pub fn cancel_move(
    conn: &mut DbConn,
    act: &Act,
    ruling_id: i64,
    at_table: Option<TableId>,
) -> AppResult<RulingMoveRow> {
    let (now, actor) = (act.now, &act.actor);
    let by = staff_id(actor)?;
    let (r, m, _) = recorded_move(conn, ruling_id, at_table)?;
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(
            ruling_moves::table
                .find(m.id)
                .filter(ruling_moves::state.eq(RulingMoveState::Recorded))
        )
        .set((
            ruling_moves::state.eq(RulingMoveState::Cancelled),
            ruling_moves::cancelled_by.eq(Some(by)),
            ruling_moves::cancelled_at.eq(Some(now.naive_utc()))
        ))
        .returning(ruling_moves::id)
    )
    .changed(dbc))?;
    let after = move_of(conn, r.id)?
        .map(|(m, _)| m)
        .ok_or(AppError::NotFound)?;
    audit::record(
        conn,
        now,
        actor,
        "ruling.move_cancel",
        SUBJECT,
        Some(r.id),
        Some(&m),
        Some(&after),
    )?;
    let number = table(conn, r.table_id)?.number;
    emit(
        conn,
        now,
        Some(r.table_id),
        "ruling.move_cancelled",
        &serde_json::json!({ "id": r.id, "table": number, "move": m.id }),
    )?;
    Ok(after)
}
