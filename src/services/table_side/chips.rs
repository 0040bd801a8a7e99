//! Chips in and out of a seat: what a player must buy in for (BSOP 26, 37; PT-2007 28),
//! buy-ins and rebuys (PT-2007 75, 79), stack counts, cashing out with the minimum stay of
//! winners (BSOP 38), a table change with the whole stack (BSOP 27), and the chips a moving
//! player carries.

use super::*;
use crate::domain::ids::GameId;
use crate::domain::ids::PlayerId;
use crate::domain::ids::SeatCallId;
use crate::domain::ids::SeatingId;
use crate::domain::ids::TableId;
use crate::domain::refusal::{ChipsRefusal, GeneralRefusal};
use crate::domain::states::CallSource;
use crate::domain::states::CustodyState;
use crate::services::Act;

/// BSOP 26, 37: the player's last departure from this game (any table of it).
pub fn departure(
    conn: &mut DbConn,
    player_id: PlayerId,
    game_id: GameId,
) -> AppResult<Option<Departure>> {
    let last: Option<(i64, Option<NaiveDateTime>, Option<String>, Option<i64>)> =
        crate::native!(conn, |dbc| seatings::table
            .filter(seatings::player_id.eq(player_id))
            .filter(seatings::game_id.eq(game_id))
            .filter(seatings::left_at.is_not_null())
            .order(seatings::left_at.desc())
            .select((
                seatings::id,
                seatings::left_at,
                seatings::left_reason,
                seatings::taken_off
            ))
            .first(dbc))
        .optional()?;
    let Some((id, Some(left_at), reason, taken_off)) = last else {
        return Ok(None);
    };
    let removed = reason.as_deref() == Some(REMOVED_FOR_ABSENCE);
    let custody_amount = if removed {
        crate::native!(conn, |dbc| chip_custody::table
            .filter(chip_custody::seating_id.eq(id))
            .filter(
                chip_custody::state
                    .ne(CustodyState::Counting)
                    .and(chip_custody::state.ne(CustodyState::Cancelled))
            )
            .select(chip_custody::amount)
            .first::<i64>(dbc))
        .optional()?
    } else {
        None
    };
    Ok(Some(Departure {
        left_at: left_at.and_utc(),
        taken_off: taken_off.unwrap_or(0),
        removed_for_absence: removed,
        custody_amount,
    }))
}

/// BSOP 26, 37; PT-2007 28, 75, 78: what `player_id` must buy in for at table `t` now (shown
/// on the tablet before the dealer types an amount).
pub fn requirement(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    profile: &RuleProfile,
    t: &TableRow,
    g: &GameRow,
    player_id: PlayerId,
) -> AppResult<BuyinRequirement> {
    let dep = departure(conn, player_id, g.id)?;
    // PT-2007 28: joining a game already under way.
    let under_way = joins_at_average(profile, t.state, t.mode == "session");
    let avg = if under_way {
        let stacks: Vec<i64> = crate::native!(conn, |dbc| seatings::table
            .filter(seatings::table_id.eq(t.id))
            .filter(seatings::left_at.is_null())
            .filter(seatings::player_id.ne(player_id))
            .filter(seatings::bought_in.gt(0))
            .select(seatings::stack)
            .load(dbc))?;
        average_capital(&stacks)
    } else {
        None
    };
    // PT-2007 22: the table's limits in force (a change not yet applied does not count).
    let lim = limits_of(t, g);
    Ok(buyin_requirement(
        lim.buy_in_min,
        lim.buy_in_max,
        dep.as_ref(),
        avg,
        profile.return_window_min,
        now,
    ))
}

// One buy-in row with the seat's bookkeeping: each argument is one of its facts.
#[allow(clippy::too_many_arguments)]
fn record_chips(
    conn: &mut DbConn,
    act: &Act,
    s: &SeatingRow,
    kind: &str,
    amount: i64,
    stack_before: i64,
    rule: Option<&str>,
    arrived_in_hand: Option<i32>,
) -> AppResult<BuyinRow> {
    let (now, actor) = (act.now, &act.actor);
    let before = side(conn, s.id)?;
    let row = BuyinRow {
        id: next_seq(conn, "buyin")?,
        seating_id: s.id,
        table_id: s.table_id,
        player_id: s.player_id,
        game_id: s.game_id,
        kind: kind.to_string(),
        amount,
        stack_before,
        rule: rule.map(str::to_string),
        at: now.naive_utc(),
        recorded_by: actor.id,
        arrived_in_hand,
        approved_by: None,
        approved_at: None,
    };
    crate::native!(conn, |dbc| diesel::insert_into(buyins::table)
        .values(&row)
        .execute(dbc))?;
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(seatings::table.find(s.id))
            .set((
                seatings::stack.eq(money::add(stack_before, amount)?),
                seatings::bought_in.eq(money::add(before.bought_in, amount)?)
            ))
            .returning(seatings::id)
    )
    .changed(dbc))?;
    // PT-2007 7b: a game charged on the cave knows a late seat's due once the chips are in.
    if before.bought_in == 0 {
        crate::services::cagnotte::on_buyin(conn, act, s.id)?;
    }
    let after = side(conn, s.id)?;
    audit::record(
        conn,
        now,
        actor,
        &format!("seat.{kind}"),
        "player",
        Some(s.player_id.get()),
        Some(&before),
        Some(&row),
    )?;
    emit(
        conn,
        now,
        Some(s.table_id),
        "seat.chips",
        &serde_json::json!({ "seat": s.seat_no, "player_id": s.player_id, "kind": kind, "amount": amount, "stack": after.stack }),
    )?;
    Ok(row)
}

/// The called player arrived: seated with their buy-in (BSOP 26, 37; PT-2007 28 checked
/// first: a refused amount changes nothing). A must-move or seat-change call moves the
/// player with the stack they have (no buy-in).
pub fn seat_with_buyin(
    conn: &mut DbConn,
    act: &Act,
    call_id: SeatCallId,
    amount: Option<i64>,
    at_table: Option<TableId>,
) -> AppResult<SeatingRow> {
    let room = &act.room;
    let now = act.now;
    let c = floor::call(conn, call_id)?;
    if at_table.is_some_and(|t| t != c.table_id) {
        return Err(AppError::NotFound);
    }
    let moving = matches!(c.source, CallSource::MustMove | CallSource::SeatChange);
    let checked = if moving {
        None
    } else {
        let t = table(conn, c.table_id)?;
        let g = game_of(conn, &t)?;
        let amount = amount.ok_or_else(|| AppError::field("amount", "err-buyin-required"))?;
        money::chips(limits_of(&t, &g).buy_in_max)
            .check(amount)
            .map_err(|p| amount_refusal("amount", p, room))?;
        let req = requirement(conn, now, &room.profile, &t, &g, c.player_id)?;
        check_buyin(&req, amount).map_err(|p| amount_refusal("amount", p, room))?;
        Some((amount, req))
    };
    let s = floor::confirm_call(conn, act, call_id)?;
    if let Some((amount, req)) = checked {
        record_chips(conn, act, &s, "buyin", amount, 0, req.rule, None)?;
    }
    Ok(s)
}

/// Chips bought at the seat. The first purchase of a seating (a player seated by the floor
/// without one) is the buy-in, checked like one (BSOP 26, 37; PT-2007 28); afterwards it is a
/// rebuy (PT-2007 75, 79: not above the maximum). `stack` is the count before the rebuy.
/// `during_hand`: the chips, asked for before the hand, reached the seat while a hand is being
/// played: BSOP 28 keeps them out of that hand unless the floor approves
/// ([`approve_chips`]); they are recorded with the hand they arrived in.
pub fn buy_chips(
    conn: &mut DbConn,
    act: &Act,
    seating_id: SeatingId,
    stack: i64,
    amount: i64,
    during_hand: bool,
    at_table: Option<TableId>,
) -> AppResult<BuyinRow> {
    let room = &act.room;
    let now = act.now;
    let (s, sd) = open_seating(conn, seating_id, at_table)?;
    let t = table(conn, s.table_id)?;
    let g = game_of(conn, &t)?;
    let max = limits_of(&t, &g).buy_in_max;
    positive("amount", amount)?;
    if sd.bought_in == 0 {
        check_chips(conn, max, 0, amount)?;
        let req = requirement(conn, now, &room.profile, &t, &g, s.player_id)?;
        check_buyin(&req, amount).map_err(|p| amount_refusal("amount", p, room))?;
        record_chips(conn, act, &s, "buyin", amount, 0, req.rule, None)
    } else {
        check_stack(conn, "stack", max, stack)?;
        check_chips(conn, max, stack, amount)?;
        check_rebuy(stack, amount, max).map_err(|p| amount_refusal("amount", p, room))?;
        let arrived_in_hand = if during_hand {
            current_hand(conn, t.id)?
        } else {
            None
        };
        record_chips(
            conn,
            act,
            &s,
            "rebuy",
            amount,
            stack,
            Some("PT-2007 79"),
            arrived_in_hand,
        )
    }
}

/// The number of the hand being played at a table (the last one dealt), if any.
pub fn current_hand(conn: &mut DbConn, table_id: TableId) -> AppResult<Option<i32>> {
    Ok(crate::native!(conn, |dbc| hands::table
        .filter(hands::table_id.eq(table_id))
        .select(diesel::dsl::max(hands::number))
        .first(dbc))?)
}

/// BSOP 28: the floor lets chips that arrived during a hand play in it. Only a floor member
/// (the caller's role), only while that hand is still the one being played, once; audited and
/// pushed to the tablet and the board.
pub fn approve_chips(conn: &mut DbConn, act: &Act, buyin_id: i64) -> AppResult<BuyinRow> {
    let room = &act.room;
    let (now, actor) = (act.now, &act.actor);
    let approver = actor
        .id
        .ok_or_else(|| AppError::Forbidden(Problem::from(GeneralRefusal::Forbidden)))?;
    let before: BuyinRow = crate::native!(conn, |dbc| buyins::table
        .find(buyin_id)
        .select(BuyinRow::as_select())
        .first(dbc))?;
    let current = current_hand(conn, before.table_id)?;
    seat_rules::check_chips_approval(
        before.arrived_in_hand,
        before.approved_by.is_some(),
        current,
    )
    .map_err(|p| rule_refusal(p, room))?;
    crate::native!(conn, |dbc| diesel::update(buyins::table.find(buyin_id))
        .set((
            buyins::approved_by.eq(Some(approver)),
            buyins::approved_at.eq(Some(now.naive_utc())),
        ))
        .execute(dbc))?;
    let after: BuyinRow = crate::native!(conn, |dbc| buyins::table
        .find(buyin_id)
        .select(BuyinRow::as_select())
        .first(dbc))?;
    audit::record(
        conn,
        now,
        actor,
        "seat.chips_approved",
        "player",
        Some(before.player_id.get()),
        Some(&before),
        Some(&after),
    )?;
    let seat: Option<i32> = crate::native!(conn, |dbc| seatings::table
        .find(before.seating_id)
        .select(seatings::seat_no)
        .first(dbc)
        .optional())?;
    emit(
        conn,
        now,
        Some(before.table_id),
        "seat.chips_approved",
        &serde_json::json!({ "buyin_id": buyin_id, "seat": seat, "player_id": before.player_id, "amount": before.amount, "hand": before.arrived_in_hand }),
    )?;
    Ok(after)
}

/// BSOP 28: chips waiting for the floor's approval to play in the hand being played: each
/// with its table number and seat, oldest first (the board's alerts).
pub fn chips_awaiting_approval(conn: &mut DbConn) -> AppResult<Vec<(BuyinRow, i32, i32, String)>> {
    let rows: Vec<(BuyinRow, i32, i32, String)> = crate::native!(conn, |dbc| buyins::table
        .inner_join(seatings::table.on(seatings::id.eq(buyins::seating_id)))
        .inner_join(card_tables::table.on(card_tables::id.eq(buyins::table_id)))
        .inner_join(players::table.on(players::id.eq(buyins::player_id)))
        .filter(buyins::arrived_in_hand.is_not_null())
        .filter(buyins::approved_by.is_null())
        .filter(seatings::left_at.is_null())
        .select((
            BuyinRow::as_select(),
            card_tables::number,
            seatings::seat_no,
            players::alias,
        ))
        .order(buyins::id.asc())
        .load(dbc))?;
    let mut out = Vec::new();
    let mut hands: std::collections::HashMap<TableId, Option<i32>> = Default::default();
    for r in rows {
        let current = match hands.get(&r.0.table_id) {
            Some(h) => *h,
            None => {
                let h = current_hand(conn, r.0.table_id)?;
                hands.insert(r.0.table_id, h);
                h
            }
        };
        if current.is_some() && r.0.arrived_in_hand == current {
            out.push(r);
        }
    }
    Ok(out)
}

/// The dealer counts a stack (before a table change, or when asked): kept for PT-2007 28
/// (the average capital) and PT-2007 79 (below the minimum a rebuy is needed).
pub fn count_stack(
    conn: &mut DbConn,
    act: &Act,
    seating_id: SeatingId,
    stack: i64,
    at_table: Option<TableId>,
) -> AppResult<SeatSideRow> {
    let (now, actor) = (act.now, &act.actor);
    let (s, before) = open_seating(conn, seating_id, at_table)?;
    let max = buy_in_max_of(conn, &s)?;
    check_stack(conn, "stack", max, stack)?;
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(seatings::table.find(s.id))
            .set(seatings::stack.eq(stack))
            .returning(seatings::id)
    )
    .changed(dbc))?;
    let after = side(conn, s.id)?;
    audit::record(
        conn,
        now,
        actor,
        "seat.count",
        "player",
        Some(s.player_id.get()),
        Some(&before),
        Some(&after),
    )?;
    emit(
        conn,
        now,
        Some(s.table_id),
        "seat.chips",
        &serde_json::json!({ "seat": s.seat_no, "player_id": s.player_id, "kind": "count", "stack": stack }),
    )?;
    Ok(after)
}

/// Calls the next player for a seat just freed; a seat nobody can be called for stays free
/// (the floor sees it).
pub(super) fn call_next_quietly(
    conn: &mut DbConn,
    act: &Act,
    table_id: TableId,
    seat_no: i32,
) -> AppResult<Option<SeatCallRow>> {
    match floor::call_next(conn, act, table_id, seat_no) {
        Ok(c) => Ok(Some(c)),
        Err(AppError::Conflict(_) | AppError::Validation(_) | AppError::NotFound) => Ok(None),
        Err(e) => Err(e),
    }
}

/// BSOP 38: what a cash-out of `stack` asks before anything is written: the stack within
/// the game's bounds, and a winner (stack above the total bought in) who has not sat the
/// minimum stay of the table's limit refused with the time left, unless a floor manager
/// overrides with a reason (`override_reason`, `supervisor`). Answers the seating, its
/// table-side state and the override's audit note, if one was needed. A seating with no
/// buy-in recorded (seated by the floor, chips never entered) has nothing to compare with: the
/// rule cannot tell a winner and does not refuse.
fn check_cash_out(
    conn: &mut DbConn,
    act: &Act,
    supervisor: bool,
    seating_id: SeatingId,
    stack: i64,
    override_reason: Option<&str>,
    at_table: Option<TableId>,
) -> AppResult<(SeatingRow, SeatSideRow, Option<serde_json::Value>)> {
    let (now, room) = (act.now, &act.room);
    let (s, sd) = open_seating(conn, seating_id, at_table)?;
    let t = table(conn, s.table_id)?;
    let g = match t.game_id {
        Some(_) => Some(game_of(conn, &t)?),
        None => None,
    };
    check_stack(
        conn,
        "stack",
        g.as_ref().and_then(|g| limits_of(&t, g).buy_in_max),
        stack,
    )?;
    let limit = g.as_ref().map(limit_of).unwrap_or(LimitClass::Low);
    let mut note = None;
    if sd.bought_in > 0 {
        if let Err(refusal) = check_leave(
            stack,
            sd.bought_in,
            s.sat_at.and_utc(),
            now,
            limit,
            &room.profile,
        ) {
            let reason = override_reason.map(str::trim).filter(|r| !r.is_empty());
            match reason {
                None => return Err(rule_refusal(refusal.to_problem(), room)),
                Some(_) if !supervisor => {
                    return Err(AppError::Forbidden(Problem::from(
                        ChipsRefusal::OverrideFloorOnly,
                    )))
                }
                Some(r) => {
                    let r = text("override_reason", r, 300)?;
                    note = Some(
                        serde_json::json!({ "rule": "BSOP 38", "reason": r, "refusal": refusal, "stack": stack, "bought_in": sd.bought_in }),
                    );
                }
            }
        }
    }
    Ok((s, sd, note))
}

/// The receipt a cash-out of `stack` would give now, asked before the dealer confirms it (the
/// second tap): refused exactly as [`cash_out`] would be, and nothing is written.
pub fn preview_cash_out(
    conn: &mut DbConn,
    act: &Act,
    supervisor: bool,
    seating_id: SeatingId,
    stack: i64,
    override_reason: Option<&str>,
    at_table: Option<TableId>,
) -> AppResult<CashOutReceipt> {
    let now = act.now;
    let (s, sd, _) = check_cash_out(
        conn,
        act,
        supervisor,
        seating_id,
        stack,
        override_reason,
        at_table,
    )?;
    receipt_of(conn, &s, stack, sd.bought_in, now)
}

/// BSOP 38: leaving with a counted stack, checked as [`check_cash_out`] says (an override is
/// audited). The stack is recorded as taken off (BSOP 26) and the next player is called for
/// the seat.
pub fn cash_out(
    conn: &mut DbConn,
    act: &Act,
    supervisor: bool,
    seating_id: SeatingId,
    stack: i64,
    override_reason: Option<&str>,
    at_table: Option<TableId>,
) -> AppResult<(SeatingRow, Option<SeatCallRow>)> {
    let (now, actor) = (act.now, &act.actor);
    let (s, sd, override_note) = check_cash_out(
        conn,
        act,
        supervisor,
        seating_id,
        stack,
        override_reason,
        at_table,
    )?;
    if let Some(note) = override_note {
        audit::record::<(), _>(
            conn,
            now,
            actor,
            "seat.min_stay_override",
            "player",
            Some(s.player_id.get()),
            None,
            Some(&note),
        )?;
    }
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(seatings::table.find(s.id))
            .set((
                seatings::stack.eq(stack),
                seatings::taken_off.eq(Some(stack))
            ))
            .returning(seatings::id)
    )
    .changed(dbc))?;
    let r = receipt_of(conn, &s, stack, sd.bought_in, now)?;
    let note = serde_json::json!({ "stack": stack, "bought_in": sd.bought_in, "minutes": r.receipt.minutes, "result": r.receipt.result });
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "seat.cash_out",
        "player",
        Some(s.player_id.get()),
        None,
        Some(&note),
    )?;
    let left = floor::leave(conn, act, s.id, CASHED_OUT)?;
    let next = call_next_quietly(conn, act, s.table_id, s.seat_no)?;
    Ok((left, next))
}

/// A cash-out's receipt (PT-ONL 65-67): where, when, and [`crate::domain::receipt::Receipt`].
#[derive(Debug, Clone, Serialize)]
pub struct CashOutReceipt {
    pub seating_id: SeatingId,
    pub player_id: PlayerId,
    /// The player's alias (as the table knows them).
    pub alias: String,
    pub table_id: TableId,
    pub table_number: i32,
    pub seat_no: i32,
    /// When play in the game began (a move to another table keeps it, BSOP 27).
    pub since: NaiveDateTime,
    /// The cash-out (for a preview, now).
    pub at: NaiveDateTime,
    #[serde(flatten)]
    pub receipt: crate::domain::receipt::Receipt,
}

fn receipt_of(
    conn: &mut DbConn,
    s: &SeatingRow,
    stack: i64,
    bought_in: i64,
    at: DateTime<Utc>,
) -> AppResult<CashOutReceipt> {
    let since = floor::in_game_since(conn, s)?;
    let t = table(conn, s.table_id)?;
    let receipt = crate::domain::receipt::receipt(stack, bought_in, since, at)?;
    let alias: String = crate::native!(conn, |dbc| players::table
        .find(s.player_id)
        .select(players::alias)
        .first(dbc))?;
    Ok(CashOutReceipt {
        seating_id: s.id,
        player_id: s.player_id,
        alias,
        table_id: s.table_id,
        table_number: t.number,
        seat_no: s.seat_no,
        since: since.naive_utc(),
        at: at.naive_utc(),
        receipt,
    })
}

/// The player's cash-outs, newest first (at most `limit`): each seating that ended cashed
/// out, with its receipt as it was when the chips were taken off.
pub fn cash_outs_of(
    conn: &mut DbConn,
    player_id: PlayerId,
    limit: i64,
) -> AppResult<Vec<CashOutReceipt>> {
    let rows: Vec<(SeatingRow, i64, Option<i64>)> = crate::native!(conn, |dbc| seatings::table
        .filter(seatings::player_id.eq(player_id))
        .filter(seatings::left_reason.eq(CASHED_OUT))
        .filter(seatings::taken_off.is_not_null())
        .order((seatings::left_at.desc(), seatings::id.desc()))
        .limit(limit)
        .select((
            SeatingRow::as_select(),
            seatings::bought_in,
            seatings::taken_off
        ))
        .load(dbc))?;
    let mut out = Vec::with_capacity(rows.len());
    for (s, bought_in, taken_off) in rows {
        let (Some(at), Some(stack)) = (s.left_at, taken_off) else {
            continue;
        };
        out.push(receipt_of(conn, &s, stack, bought_in, at.and_utc())?);
    }
    Ok(out)
}

/// The receipt of one seating that ended cashed out (the tablet shows it after the second
/// tap). Not found when the seating did not end with a cash-out.
pub fn cash_out_receipt(conn: &mut DbConn, seating_id: SeatingId) -> AppResult<CashOutReceipt> {
    let (s, bought_in, taken_off): (SeatingRow, i64, Option<i64>) =
        crate::native!(conn, |dbc| seatings::table
            .find(seating_id)
            .filter(seatings::left_reason.eq(CASHED_OUT))
            .select((
                SeatingRow::as_select(),
                seatings::bought_in,
                seatings::taken_off
            ))
            .first(dbc))
        .optional()?
        .ok_or(AppError::NotFound)?;
    let (Some(at), Some(stack)) = (s.left_at, taken_off) else {
        return Err(AppError::NotFound);
    };
    receipt_of(conn, &s, stack, bought_in, at.and_utc())
}

/// BSOP 27 with BSOP 58 / PT-2007 26: a voluntary change to a similar table with the whole
/// (counted) stack; refused in the first hour when the stack is above the game's maximum
/// buy-in. The new seat keeps the stack and what was bought in.
pub fn transfer_with_stack(
    conn: &mut DbConn,
    act: &Act,
    seating_id: SeatingId,
    to_table_id: TableId,
    stack: i64,
    cave_lost: bool,
    at_table: Option<TableId>,
) -> AppResult<SeatingRow> {
    let (now, actor) = (act.now, &act.actor);
    let (s, _) = open_seating(conn, seating_id, at_table)?;
    let max = buy_in_max_of(conn, &s)?;
    check_stack(conn, "stack", max, stack)?;
    table(conn, to_table_id).map_err(|e| match e {
        AppError::NotFound => AppError::field("table_id", "err-table-unknown"),
        e => e,
    })?;
    // BSOP 27's first hour is checked with this stack by the move itself (`floor::transfer`).
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(seatings::table.find(s.id))
            .set(seatings::stack.eq(stack))
            .returning(seatings::id)
    )
    .changed(dbc))?;
    let moved = floor::transfer(conn, act, seating_id, to_table_id, cave_lost)?;
    let note = serde_json::json!({ "rule": "BSOP 27", "stack": stack, "from": s.table_id, "to": to_table_id });
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "seat.transfer_stack",
        "player",
        Some(s.player_id.get()),
        None,
        Some(&note),
    )?;
    Ok(moved)
}

/// A player who moves (must-move, seat change, transfer, held seat) keeps their chips, what
/// they bought in, and their buttons and hand counters: the new seating takes them over.
pub fn carry_side(conn: &mut DbConn, from_id: SeatingId, to_id: SeatingId) -> AppResult<()> {
    let f = side(conn, from_id)?;
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(seatings::table.find(to_id))
            .set((
                seatings::stack.eq(f.stack),
                seatings::bought_in.eq(f.bought_in),
                seatings::missed_sb.eq(f.missed_sb),
                seatings::missed_bb.eq(f.missed_bb),
                seatings::missed_blind_button.eq(f.missed_blind_button),
                seatings::hands_no_bet.eq(f.hands_no_bet),
                seatings::rest_hands.eq(f.rest_hands),
                seatings::rested_since_bet.eq(f.rested_since_bet),
            ))
            .returning(seatings::id)
    )
    .changed(dbc))?;
    Ok(())
}
