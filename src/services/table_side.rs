//! The table side: what the dealer records at each seat (issue 4). Buy-ins with the amount a
//! returning player must bring (BSOP 26, 37; PT-2007 28), rebuys (PT-2007 79), a table change
//! with the whole stack (BSOP 27), cashing out with the minimum stay of winners (BSOP 38),
//! away/back with the missed-blind and absence buttons (BSOP 36, 39; PT-2007 90), chip removal
//! counted by two staff members into custody (BSOP 36, 37), the "new hand" tap (PT-2007 13,
//! 89; BSOP 57) and the table's requests to the floor.
//!
//! Every rule is asked of `domain::seat_rules`; every change is audited and pushed as an event
//! in the same transaction, like the floor's actions.

use super::conflict;
use crate::db::audit::{self, Actor};
use crate::db::models::{
    BuyinRow, CustodyRow, FloorMessageRow, GameRow, HandRow, PlayerRow, SeatCallRow, SeatSideRow,
    SeatingRow, ServiceRequestRow, TableRow,
};
use crate::db::schema::{
    buyins, card_tables, chip_custody, floor_messages, hands, players, seatings, service_requests,
    tablets,
};
use crate::db::{is_unique_violation, next_seq, DbConn};
use crate::domain::game::LimitClass;
use crate::domain::money::{self, AmountRange};
use crate::domain::profile::RuleProfile;
use crate::domain::seat_rules::{
    self, absence_status, average_capital, buyin_requirement, check_buyin, check_leave,
    check_rebuy, check_stack_transfer, AbsenceStatus, Blind, BuyinRequirement, Departure,
    HandCounter, HandNotice, HandPlay, ReturnObligation, SeatAbsence, SeatButtons,
};
use crate::domain::{FieldError, Problem};
use crate::error::{AppError, AppResult};
use crate::services::floor::{self, emit};
use crate::services::room::Room;
use chrono::{DateTime, Duration, NaiveDateTime, Utc};
use diesel::prelude::*;
use serde::Serialize;
use std::str::FromStr;

/// The seating was ended when the chips were taken off for absence (BSOP 36, 37).
pub const REMOVED_FOR_ABSENCE: &str = "removed for absence";
/// The player cashed out at the table.
pub const CASHED_OUT: &str = "cashed out";

/// The longest extension of an absence a supervisor may grant at once (minutes).
pub const MAX_EXTENSION_MIN: i64 = 120;
/// The kinds of request a table sends the floor.
pub const SERVICE_KINDS: [&str; 3] = ["floor", "chips", "decision"];

// ---- reading ---------------------------------------------------------------------------------

pub fn side(conn: &mut DbConn, seating_id: i64) -> AppResult<SeatSideRow> {
    Ok(crate::native!(conn, |dbc| seatings::table
        .find(seating_id)
        .select(SeatSideRow::as_select())
        .first(dbc))?)
}

/// A seating still open, with its table-side state. `at_table`: the tablet's table (a seat
/// of another table is not found from it).
fn open_seating(
    conn: &mut DbConn,
    seating_id: i64,
    at_table: Option<i64>,
) -> AppResult<(SeatingRow, SeatSideRow)> {
    let s = floor::seating(conn, seating_id)?;
    if at_table.is_some_and(|t| t != s.table_id) {
        return Err(AppError::NotFound);
    }
    if s.left_at.is_some() {
        return Err(conflict("err-already-left"));
    }
    Ok((s, side(conn, seating_id)?))
}

fn table(conn: &mut DbConn, id: i64) -> AppResult<TableRow> {
    crate::services::games::get_table(conn, id)
}

fn game_of(conn: &mut DbConn, t: &TableRow) -> AppResult<GameRow> {
    let g = t.game_id.ok_or_else(|| conflict("err-table-no-game"))?;
    crate::services::games::get_game(conn, g)
}

fn limit_of(g: &GameRow) -> LimitClass {
    LimitClass::from_str(&g.limit_class).unwrap_or(LimitClass::Low)
}

/// Money and instants in a rule's refusal, said for the room: amounts in its currency (shown
/// in the reader's language), instants as HH:MM in its zone (the rules give raw minor units and RFC 3339).
pub fn localize(mut p: Problem, room: &Room) -> Problem {
    const MONEY: [&str; 8] = [
        "min", "max", "required", "allowed", "stack", "amount", "first", "second",
    ];
    for (k, v) in p.args.iter_mut() {
        if MONEY.contains(k) {
            if let Ok(minor) = v.parse::<i64>() {
                *v = crate::i18n::money(minor, &room.currency);
            }
        } else if *k == "until" {
            if let Ok(t) = DateTime::parse_from_rfc3339(v) {
                *v = t.with_timezone(&room.tz).format("%H:%M").to_string();
            }
        }
    }
    p
}

fn rule_refusal(p: Problem, room: &Room) -> AppError {
    AppError::Conflict(localize(p, room))
}

/// A rule's refusal of an amount typed in a field: a 422 on that field.
fn amount_refusal(field: &str, p: Problem, room: &Room) -> AppError {
    let p = localize(p, room);
    AppError::Validation(vec![FieldError {
        field: field.to_string(),
        key: p.key,
        args: p.args,
    }])
}

fn positive(field: &str, amount: i64) -> AppResult<()> {
    if amount <= 0 {
        return Err(AppError::Validation(vec![FieldError::new(
            field,
            "rules-amount-not-positive",
        )]));
    }
    Ok(())
}

/// Issue 16.3: the maximum buy-in that bounds a seating's stacks ([`money::stack`]): its own
/// game's, else its table's; `None` (no maximum, or no game) is the global ceiling.
fn buy_in_max_of(conn: &mut DbConn, s: &SeatingRow) -> AppResult<Option<i64>> {
    let game = match s.game_id {
        Some(g) => Some(g),
        None => table(conn, s.table_id)?.game_id,
    };
    match game {
        Some(g) => Ok(crate::services::games::get_game(conn, g)?.buy_in_max),
        None => Ok(None),
    }
}

/// A stack typed in `field` outside [`money::stack`] of the game: 422 on the field, nothing
/// changed.
fn check_stack(
    conn: &mut DbConn,
    field: &str,
    buy_in_max: Option<i64>,
    amount: i64,
) -> AppResult<()> {
    super::check_amount(conn, field, money::stack(buy_in_max), amount)
}

/// Chips bought with `stack` already at the seat: at least one minor unit, and the stack after
/// them within [`money::stack`] (issue 16.3; the game's rules then narrow it).
fn check_chips(
    conn: &mut DbConn,
    buy_in_max: Option<i64>,
    stack: i64,
    amount: i64,
) -> AppResult<()> {
    let max = money::stack_max(buy_in_max);
    let room_left = (max - stack.clamp(0, max)).max(1);
    super::check_amount(conn, "amount", AmountRange::new(1, room_left), amount)
}

fn text(field: &str, v: &str, max: usize) -> AppResult<String> {
    let v = v.trim();
    if v.is_empty() {
        return Err(AppError::field(field, "err-required"));
    }
    if v.chars().count() > max {
        return Err(AppError::Validation(vec![FieldError::new(
            field,
            "err-too-long",
        )
        .arg("max", max)]));
    }
    Ok(v.to_string())
}

// ---- buy-ins -----------------------------------------------------------------------------------

/// BSOP 26, 37: the player's last departure from this game (any table of it).
pub fn departure(conn: &mut DbConn, player_id: i64, game_id: i64) -> AppResult<Option<Departure>> {
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
                    .ne("counting")
                    .and(chip_custody::state.ne("cancelled"))
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
    player_id: i64,
) -> AppResult<BuyinRequirement> {
    let dep = departure(conn, player_id, g.id)?;
    // PT-2007 28: joining a session game already under way (the table is running).
    let avg = if profile.join_at_average_stack && t.mode == "session" && t.state == "running" {
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
    Ok(buyin_requirement(
        g.buy_in_min,
        g.buy_in_max,
        dep.as_ref(),
        avg,
        profile.return_window_min,
        now,
    ))
}

fn record_chips(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    actor: &Actor,
    s: &SeatingRow,
    kind: &str,
    amount: i64,
    stack_before: i64,
    rule: Option<&str>,
) -> AppResult<BuyinRow> {
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
        crate::services::cagnotte::on_buyin(conn, now, actor, s.id)?;
    }
    let after = side(conn, s.id)?;
    audit::record(
        conn,
        now,
        actor,
        &format!("seat.{kind}"),
        "player",
        Some(s.player_id),
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
    now: DateTime<Utc>,
    room: &Room,
    actor: &Actor,
    call_id: i64,
    amount: Option<i64>,
    at_table: Option<i64>,
) -> AppResult<SeatingRow> {
    let c = floor::call(conn, call_id)?;
    if at_table.is_some_and(|t| t != c.table_id) {
        return Err(AppError::NotFound);
    }
    let moving = matches!(c.source.as_str(), "must_move" | "seat_change");
    let checked = if moving {
        None
    } else {
        let t = table(conn, c.table_id)?;
        let g = game_of(conn, &t)?;
        let amount = amount.ok_or_else(|| AppError::field("amount", "err-buyin-required"))?;
        money::chips(g.buy_in_max)
            .check(amount)
            .map_err(|p| amount_refusal("amount", p, room))?;
        let req = requirement(conn, now, &room.profile, &t, &g, c.player_id)?;
        check_buyin(&req, amount).map_err(|p| amount_refusal("amount", p, room))?;
        Some((amount, req))
    };
    let s = floor::confirm_call(conn, now, room.tz, &room.profile, actor, call_id)?;
    if let Some((amount, req)) = checked {
        record_chips(conn, now, actor, &s, "buyin", amount, 0, req.rule)?;
    }
    Ok(s)
}

/// Chips bought at the seat. The first purchase of a seating (a player seated by the floor
/// without one) is the buy-in, checked like one (BSOP 26, 37; PT-2007 28); afterwards it is a
/// rebuy (PT-2007 75, 79: not above the maximum; BSOP 28 / PT-2007 79: between hands, the
/// dealer's judgement). `stack` is the count before the rebuy.
#[allow(clippy::too_many_arguments)]
pub fn buy_chips(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    room: &Room,
    actor: &Actor,
    seating_id: i64,
    stack: i64,
    amount: i64,
    at_table: Option<i64>,
) -> AppResult<BuyinRow> {
    let (s, sd) = open_seating(conn, seating_id, at_table)?;
    let t = table(conn, s.table_id)?;
    let g = game_of(conn, &t)?;
    positive("amount", amount)?;
    if sd.bought_in == 0 {
        check_chips(conn, g.buy_in_max, 0, amount)?;
        let req = requirement(conn, now, &room.profile, &t, &g, s.player_id)?;
        check_buyin(&req, amount).map_err(|p| amount_refusal("amount", p, room))?;
        record_chips(conn, now, actor, &s, "buyin", amount, 0, req.rule)
    } else {
        check_stack(conn, "stack", g.buy_in_max, stack)?;
        check_chips(conn, g.buy_in_max, stack, amount)?;
        check_rebuy(stack, amount, g.buy_in_max).map_err(|p| amount_refusal("amount", p, room))?;
        record_chips(
            conn,
            now,
            actor,
            &s,
            "rebuy",
            amount,
            stack,
            Some("PT-2007 79"),
        )
    }
}

/// The dealer counts a stack (before a table change, or when asked): kept for PT-2007 28
/// (the average capital) and PT-2007 79 (below the minimum a rebuy is needed).
pub fn count_stack(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    actor: &Actor,
    seating_id: i64,
    stack: i64,
    at_table: Option<i64>,
) -> AppResult<SeatSideRow> {
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
        Some(s.player_id),
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

// ---- leaving -----------------------------------------------------------------------------------

/// Calls the next player for a seat just freed; a seat nobody can be called for stays free
/// (the floor sees it).
fn call_next_quietly(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    room: &Room,
    actor: &Actor,
    table_id: i64,
    seat_no: i32,
) -> AppResult<Option<SeatCallRow>> {
    match floor::call_next(conn, now, room.tz, &room.profile, actor, table_id, seat_no) {
        Ok(c) => Ok(Some(c)),
        Err(AppError::Conflict(_) | AppError::Validation(_) | AppError::NotFound) => Ok(None),
        Err(e) => Err(e),
    }
}

/// BSOP 38: leaving with a counted stack. A winner (stack above the total bought in) who has
/// not sat the minimum stay of the table's limit is refused with the time left, unless a
/// floor manager overrides with a reason (`override_reason`, `supervisor`), which is audited.
/// The stack is recorded as taken off (BSOP 26) and the next player is called for the seat.
/// A seating with no buy-in recorded (seated by the floor, chips never entered) has nothing to
/// compare with: the rule cannot tell a winner and does not refuse.
#[allow(clippy::too_many_arguments)]
pub fn cash_out(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    room: &Room,
    actor: &Actor,
    supervisor: bool,
    seating_id: i64,
    stack: i64,
    override_reason: Option<&str>,
    at_table: Option<i64>,
) -> AppResult<(SeatingRow, Option<SeatCallRow>)> {
    let (s, sd) = open_seating(conn, seating_id, at_table)?;
    let t = table(conn, s.table_id)?;
    let g = match t.game_id {
        Some(_) => Some(game_of(conn, &t)?),
        None => None,
    };
    check_stack(conn, "stack", g.as_ref().and_then(|g| g.buy_in_max), stack)?;
    let limit = g.as_ref().map(limit_of).unwrap_or(LimitClass::Low);
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
                    return Err(AppError::Forbidden(Problem::new("err-override-floor-only")))
                }
                Some(r) => {
                    let r = text("override_reason", r, 300)?;
                    let note = serde_json::json!({ "rule": "BSOP 38", "reason": r, "refusal": refusal, "stack": stack, "bought_in": sd.bought_in });
                    audit::record::<(), _>(
                        conn,
                        now,
                        actor,
                        "seat.min_stay_override",
                        "player",
                        Some(s.player_id),
                        None,
                        Some(&note),
                    )?;
                }
            }
        }
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
    let note = serde_json::json!({ "stack": stack, "bought_in": sd.bought_in });
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "seat.cash_out",
        "player",
        Some(s.player_id),
        None,
        Some(&note),
    )?;
    let left = floor::leave(conn, now, &room.profile, actor, s.id, CASHED_OUT)?;
    let next = call_next_quietly(conn, now, room, actor, s.table_id, s.seat_no)?;
    Ok((left, next))
}

/// BSOP 27 with BSOP 58 / PT-2007 26: a voluntary change to a similar table with the whole
/// (counted) stack; refused in the first hour when the stack is above the game's maximum
/// buy-in. The new seat keeps the stack and what was bought in.
#[allow(clippy::too_many_arguments)]
pub fn transfer_with_stack(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    room: &Room,
    actor: &Actor,
    seating_id: i64,
    to_table_id: i64,
    stack: i64,
    cave_lost: bool,
    at_table: Option<i64>,
) -> AppResult<SeatingRow> {
    let (s, _) = open_seating(conn, seating_id, at_table)?;
    let max = buy_in_max_of(conn, &s)?;
    check_stack(conn, "stack", max, stack)?;
    let to = table(conn, to_table_id).map_err(|e| match e {
        AppError::NotFound => AppError::field("table_id", "err-table-unknown"),
        e => e,
    })?;
    if let Some(g) = to.game_id {
        let g = crate::services::games::get_game(conn, g)?;
        check_stack_transfer(stack, g.buy_in_max, s.sat_at.and_utc(), now)
            .map_err(|p| rule_refusal(p, room))?;
    }
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(seatings::table.find(s.id))
            .set(seatings::stack.eq(stack))
            .returning(seatings::id)
    )
    .changed(dbc))?;
    let moved = floor::transfer(
        conn,
        now,
        room.tz,
        &room.profile,
        actor,
        seating_id,
        to_table_id,
        cave_lost,
    )?;
    let note = serde_json::json!({ "rule": "BSOP 27", "stack": stack, "from": s.table_id, "to": to_table_id });
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "seat.transfer_stack",
        "player",
        Some(s.player_id),
        None,
        Some(&note),
    )?;
    Ok(moved)
}

/// A player who moves (must-move, seat change, transfer, held seat) keeps their chips, what
/// they bought in, and their buttons and hand counters: the new seating takes them over.
pub fn carry_side(conn: &mut DbConn, from_id: i64, to_id: i64) -> AppResult<()> {
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

// ---- absence -----------------------------------------------------------------------------------

fn absence_of(sd: &SeatSideRow) -> SeatAbsence {
    SeatAbsence {
        away_since: sd.away_since.map(|t| t.and_utc()),
        extended_until: sd.away_extended_until.map(|t| t.and_utc()),
        missed_big_blinds: sd.missed_bb.max(0) as u32,
    }
}

fn buttons_of(sd: &SeatSideRow) -> SeatButtons {
    SeatButtons {
        missed_blind: sd.missed_blind_button,
        absence: sd.absence_button,
        missed_sb: sd.missed_sb.max(0) as u32,
        missed_bb: sd.missed_bb.max(0) as u32,
    }
}

/// BSOP 36: where a seat stands now.
pub fn status_of(sd: &SeatSideRow, profile: &RuleProfile, now: DateTime<Utc>) -> AbsenceStatus {
    absence_status(&absence_of(sd), profile, now)
}

fn require_away(sd: &SeatSideRow) -> AppResult<()> {
    if sd.away_since.is_none() {
        return Err(conflict("err-not-away"));
    }
    Ok(())
}

/// BSOP 36: the seat became due for removal: the floor is alerted once (audited, pushed).
fn alert_if_due(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    profile: &RuleProfile,
    actor: &Actor,
    s: &SeatingRow,
    sd: &SeatSideRow,
) -> AppResult<bool> {
    if sd.removal_alerted_at.is_some() {
        return Ok(false);
    }
    let AbsenceStatus::DueForRemoval { because } = status_of(sd, profile, now) else {
        return Ok(false);
    };
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(seatings::table.find(s.id))
            .set(seatings::removal_alerted_at.eq(Some(now.naive_utc())))
            .returning(seatings::id)
    )
    .changed(dbc))?;
    let note = serde_json::json!({ "rule": "BSOP 36", "because": because, "seat": s.seat_no, "table_id": s.table_id });
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "seat.removal_due",
        "player",
        Some(s.player_id),
        None,
        Some(&note),
    )?;
    emit(
        conn,
        now,
        Some(s.table_id),
        "seat.removal_due",
        &serde_json::json!({ "seat": s.seat_no, "player_id": s.player_id, "because": because }),
    )?;
    Ok(true)
}

/// BSOP 36: the player leaves the seat for a while: the absence clock starts.
pub fn away(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    profile: &RuleProfile,
    actor: &Actor,
    seating_id: i64,
    at_table: Option<i64>,
) -> AppResult<SeatSideRow> {
    let (s, before) = open_seating(conn, seating_id, at_table)?;
    if before.away_since.is_some() {
        return Err(conflict("err-already-away"));
    }
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(seatings::table.find(s.id))
            .set((
                seatings::away_since.eq(Some(now.naive_utc())),
                seatings::away_extended_until.eq(None::<NaiveDateTime>),
                seatings::removal_alerted_at.eq(None::<NaiveDateTime>)
            ))
            .returning(seatings::id)
    )
    .changed(dbc))?;
    let after = side(conn, s.id)?;
    audit::record(
        conn,
        now,
        actor,
        "seat.away",
        "player",
        Some(s.player_id),
        Some(&before),
        Some(&after),
    )?;
    let due = match status_of(&after, profile, now) {
        AbsenceStatus::Away { due_at } => Some(due_at),
        _ => None,
    };
    emit(
        conn,
        now,
        Some(s.table_id),
        "seat.away",
        &serde_json::json!({ "seat": s.seat_no, "player_id": s.player_id, "due_at": due }),
    )?;
    Ok(after)
}

/// BSOP 39 / PT-2007 90: the player is back. The absence button goes; with missed blinds the
/// tablet says what the player must do (post the big blind or wait; or pay them dead). A
/// removal count not yet confirmed ends.
pub fn back(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    profile: &RuleProfile,
    actor: &Actor,
    seating_id: i64,
    at_table: Option<i64>,
) -> AppResult<ReturnObligation> {
    let (s, before) = open_seating(conn, seating_id, at_table)?;
    require_away(&before)?;
    let mut b = buttons_of(&before);
    let obligation = b.on_return(profile);
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(seatings::table.find(s.id))
            .set((
                seatings::away_since.eq(None::<NaiveDateTime>),
                seatings::away_extended_until.eq(None::<NaiveDateTime>),
                seatings::removal_alerted_at.eq(None::<NaiveDateTime>),
                seatings::absence_button.eq(b.absence),
                seatings::hand_notice.eq(obligation.key()),
            ))
            .returning(seatings::id)
    )
    .changed(dbc))?;
    let counting: Vec<CustodyRow> = crate::native!(conn, |dbc| chip_custody::table
        .filter(chip_custody::seating_id.eq(s.id))
        .filter(chip_custody::state.eq("counting"))
        .select(CustodyRow::as_select())
        .load(dbc))?;
    for c in counting {
        end_custody(conn, now, actor, &c, "cancelled", Some("player back"))?;
    }
    let after = side(conn, s.id)?;
    audit::record(
        conn,
        now,
        actor,
        "seat.back",
        "player",
        Some(s.player_id),
        Some(&before),
        Some(&after),
    )?;
    emit(
        conn,
        now,
        Some(s.table_id),
        "seat.back",
        &serde_json::json!({ "seat": s.seat_no, "player_id": s.player_id, "obligation": obligation }),
    )?;
    Ok(obligation)
}

/// BSOP 39, PT-2007 90: the returning player posted (or paid dead) the missed blinds, or the
/// big blind reached them: the buttons go.
pub fn blinds_settled(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    actor: &Actor,
    seating_id: i64,
    at_table: Option<i64>,
) -> AppResult<SeatSideRow> {
    let (s, before) = open_seating(conn, seating_id, at_table)?;
    if before.away_since.is_some() {
        return Err(conflict("err-still-away"));
    }
    let mut b = buttons_of(&before);
    b.on_blinds_settled();
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(seatings::table.find(s.id))
            .set((
                seatings::missed_sb.eq(0),
                seatings::missed_bb.eq(0),
                seatings::missed_blind_button.eq(false),
                seatings::absence_button.eq(false),
                seatings::hand_notice.eq(None::<String>),
            ))
            .returning(seatings::id)
    )
    .changed(dbc))?;
    let after = side(conn, s.id)?;
    audit::record(
        conn,
        now,
        actor,
        "seat.blinds_settled",
        "player",
        Some(s.player_id),
        Some(&before),
        Some(&after),
    )?;
    emit(
        conn,
        now,
        Some(s.table_id),
        "seat.buttons",
        &serde_json::json!({ "seat": s.seat_no, "player_id": s.player_id }),
    )?;
    Ok(after)
}

/// BSOP 36: an absent player's seat missed a blind: the missed-blind button, and after the
/// profile's count of big blinds the seat is due for removal (the floor is alerted).
pub fn missed_blind(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    profile: &RuleProfile,
    actor: &Actor,
    seating_id: i64,
    blind: Blind,
    at_table: Option<i64>,
) -> AppResult<AbsenceStatus> {
    let (s, before) = open_seating(conn, seating_id, at_table)?;
    require_away(&before)?;
    let mut b = buttons_of(&before);
    b.on_blind_missed(blind);
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(seatings::table.find(s.id))
            .set((
                seatings::missed_sb.eq(b.missed_sb as i32),
                seatings::missed_bb.eq(b.missed_bb as i32),
                seatings::missed_blind_button.eq(b.missed_blind)
            ))
            .returning(seatings::id)
    )
    .changed(dbc))?;
    let after = side(conn, s.id)?;
    audit::record(
        conn,
        now,
        actor,
        "seat.missed_blind",
        "player",
        Some(s.player_id),
        Some(&before),
        Some(&after),
    )?;
    emit(
        conn,
        now,
        Some(s.table_id),
        "seat.buttons",
        &serde_json::json!({ "seat": s.seat_no, "player_id": s.player_id, "missed": blind }),
    )?;
    alert_if_due(conn, now, profile, actor, &s, &after)?;
    Ok(status_of(&after, profile, now))
}

/// BSOP 36: «As ausências poderão ser prorrogadas se o supervisor for previamente avisado e
/// a situação o justificar»: a floor manager extends an absence, with a reason (audited).
#[allow(clippy::too_many_arguments)]
pub fn extend_absence(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    profile: &RuleProfile,
    actor: &Actor,
    supervisor: bool,
    seating_id: i64,
    minutes: i64,
    reason: &str,
    at_table: Option<i64>,
) -> AppResult<SeatSideRow> {
    if !supervisor {
        return Err(AppError::Forbidden(Problem::new("err-extend-floor-only")));
    }
    let (s, before) = open_seating(conn, seating_id, at_table)?;
    require_away(&before)?;
    if !(1..=MAX_EXTENSION_MIN).contains(&minutes) {
        return Err(AppError::Validation(vec![FieldError::new(
            "minutes",
            "err-range",
        )
        .arg("min", 1)
        .arg("max", MAX_EXTENSION_MIN)]));
    }
    let reason = text("reason", reason, 300)?;
    let until = now + Duration::minutes(minutes);
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(seatings::table.find(s.id))
            .set((
                seatings::away_extended_until.eq(Some(until.naive_utc())),
                seatings::removal_alerted_at.eq(None::<NaiveDateTime>)
            ))
            .returning(seatings::id)
    )
    .changed(dbc))?;
    let after = side(conn, s.id)?;
    let note = serde_json::json!({ "rule": "BSOP 36", "reason": reason, "until": until, "before": before });
    audit::record(
        conn,
        now,
        actor,
        "seat.absence_extended",
        "player",
        Some(s.player_id),
        Some(&note),
        Some(&after),
    )?;
    let due = match status_of(&after, profile, now) {
        AbsenceStatus::Away { due_at } => Some(due_at),
        _ => None,
    };
    emit(
        conn,
        now,
        Some(s.table_id),
        "seat.away",
        &serde_json::json!({ "seat": s.seat_no, "player_id": s.player_id, "due_at": due, "extended": true }),
    )?;
    Ok(after)
}

/// The scheduler's pass: absent seats that became due for removal by time (BSOP 36) alert the
/// floor once.
pub fn alert_due_removals(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    profile: &RuleProfile,
) -> AppResult<usize> {
    let away: Vec<(SeatingRow, SeatSideRow)> = crate::native!(conn, |dbc| seatings::table
        .filter(seatings::left_at.is_null())
        .filter(seatings::away_since.is_not_null())
        .filter(seatings::removal_alerted_at.is_null())
        .select((SeatingRow::as_select(), SeatSideRow::as_select()))
        .load(dbc))?;
    let system = Actor::system();
    let mut n = 0;
    for (s, sd) in away {
        if alert_if_due(conn, now, profile, &system, &s, &sd)? {
            n += 1;
        }
    }
    Ok(n)
}

// ---- chip removal and custody (BSOP 36, 37) ---------------------------------------------------

pub fn custody(conn: &mut DbConn, id: i64) -> AppResult<CustodyRow> {
    Ok(crate::native!(conn, |dbc| chip_custody::table
        .find(id)
        .select(CustodyRow::as_select())
        .first(dbc))?)
}

/// BSOP 36: the first staff member counts an absent player's chips for removal (amount and
/// where they will be kept). Only a seat due for removal; the count waits for a second,
/// different staff member's confirmation ([`confirm_removal`]).
#[allow(clippy::too_many_arguments)]
pub fn start_removal(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    room: &Room,
    actor: &Actor,
    seating_id: i64,
    amount: i64,
    storage: &str,
    at_table: Option<i64>,
) -> AppResult<CustodyRow> {
    let counted_by = actor
        .id
        .ok_or_else(|| AppError::Forbidden(Problem::new("err-forbidden")))?;
    let (s, sd) = open_seating(conn, seating_id, at_table)?;
    match status_of(&sd, &room.profile, now) {
        AbsenceStatus::DueForRemoval { .. } => {}
        AbsenceStatus::Present => return Err(conflict("err-not-away")),
        AbsenceStatus::Away { due_at } => {
            let minutes = ((due_at - now).num_seconds() + 59) / 60;
            return Err(AppError::Conflict(
                Problem::new("err-removal-not-due").arg("minutes", minutes.max(1)),
            ));
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
        state: "counting".into(),
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
            conflict("err-removal-pending")
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
        Some(s.player_id),
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
    now: DateTime<Utc>,
    room: &Room,
    confirmer: &Actor,
    custody_id: i64,
    amount: i64,
    at_table: Option<i64>,
) -> AppResult<(CustodyRow, Option<SeatCallRow>)> {
    let by = confirmer
        .id
        .ok_or_else(|| AppError::Forbidden(Problem::new("err-forbidden")))?;
    let c = custody(conn, custody_id)?;
    if at_table.is_some_and(|t| t != c.table_id) {
        return Err(AppError::NotFound);
    }
    if c.state != "counting" {
        return Err(conflict("err-custody-not-counting"));
    }
    if c.counted_by == by {
        return Err(conflict("err-custody-same-staff"));
    }
    let seated = floor::seating(conn, c.seating_id)?;
    let max = buy_in_max_of(conn, &seated)?;
    check_stack(conn, "amount", max, amount)?;
    if amount != c.amount {
        return Err(rule_refusal(
            Problem::new("err-custody-amount-differs")
                .arg("first", c.amount)
                .arg("second", amount),
            room,
        ));
    }
    let n = crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(
            chip_custody::table
                .find(c.id)
                .filter(chip_custody::state.eq("counting"))
        )
        .set((
            chip_custody::state.eq("held"),
            chip_custody::confirmed_by.eq(Some(by)),
            chip_custody::confirmed_at.eq(Some(now.naive_utc()))
        ))
        .returning(chip_custody::id)
    )
    .changed(dbc))?;
    if n != 1 {
        return Err(conflict("err-custody-not-counting"));
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
    floor::leave(
        conn,
        now,
        &room.profile,
        confirmer,
        c.seating_id,
        REMOVED_FOR_ABSENCE,
    )?;
    let after = custody(conn, c.id)?;
    audit::record(
        conn,
        now,
        confirmer,
        "custody.held",
        "player",
        Some(c.player_id),
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
    let next = call_next_quietly(conn, now, room, confirmer, c.table_id, c.seat_no)?;
    Ok((after, next))
}

fn end_custody(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    actor: &Actor,
    c: &CustodyRow,
    state: &str,
    note: Option<&str>,
) -> AppResult<CustodyRow> {
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
        Some(c.player_id),
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
    now: DateTime<Utc>,
    actor: &Actor,
    custody_id: i64,
    at_table: Option<i64>,
) -> AppResult<CustodyRow> {
    let c = custody(conn, custody_id)?;
    if at_table.is_some_and(|t| t != c.table_id) {
        return Err(AppError::NotFound);
    }
    if c.state != "counting" {
        return Err(conflict("err-custody-not-counting"));
    }
    end_custody(conn, now, actor, &c, "cancelled", None)
}

/// Chips in custody leave it: the player reclaimed them, or the cashier settled them (a note
/// says how).
pub fn resolve_custody(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    actor: &Actor,
    custody_id: i64,
    how: &str,
    note: &str,
) -> AppResult<CustodyRow> {
    let c = custody(conn, custody_id)?;
    if c.state != "held" {
        return Err(conflict("err-custody-not-held"));
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
    end_custody(
        conn,
        now,
        actor,
        &c,
        state,
        (!note.is_empty()).then_some(note),
    )
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
                .eq("held")
                .or(chip_custody::state.eq("counting")),
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

// ---- hands (PT-2007 13, 89; BSOP 36, 57) --------------------------------------------------------

/// The dealer marks a seat as resting (sitting out, PT-2007 13) or as not having bet in the
/// hand being played (PT-2007 89); the next "new hand" tap counts it.
pub fn set_hand_flags(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    actor: &Actor,
    seating_id: i64,
    resting: Option<bool>,
    no_bet: Option<bool>,
    at_table: Option<i64>,
) -> AppResult<SeatSideRow> {
    let (s, before) = open_seating(conn, seating_id, at_table)?;
    let resting = resting.unwrap_or(before.resting);
    let no_bet = no_bet.unwrap_or(before.no_bet);
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(seatings::table.find(s.id))
            .set((seatings::resting.eq(resting), seatings::no_bet.eq(no_bet)))
            .returning(seatings::id)
    )
    .changed(dbc))?;
    let after = side(conn, s.id)?;
    audit::record(
        conn,
        now,
        actor,
        "seat.hand_flags",
        "player",
        Some(s.player_id),
        Some(&before),
        Some(&after),
    )?;
    emit(
        conn,
        now,
        Some(s.table_id),
        "seat.hand_flags",
        &serde_json::json!({ "seat": s.seat_no, "resting": resting, "no_bet": no_bet }),
    )?;
    Ok(after)
}

/// One seat's notice after a hand.
#[derive(Debug, Clone, Serialize)]
pub struct SeatNotice {
    pub seat: i32,
    pub player_id: i64,
    pub notice: HandNotice,
}

/// The dealer's "new hand" tap: the hand is counted (PT-2007 13, 89, and the cagnotte
/// sessions), the button moves to the next occupied seat (BSOP 57 reads it), empty seats with
/// a missed-blind button get the absence button (BSOP 36), and each present seat's counters
/// take the hand just finished (resting → rested; marked no-bet → no bet; otherwise a bet).
///
/// The tap also ends the hand before it: its pot and rake (`result`, PT-2007 7a) are checked
/// and recorded on it, and the cagnotte session is started or renewed (PT-2007 7b, see
/// [`crate::services::cagnotte::on_hand_over`]); a refused rake changes nothing.
pub fn new_hand(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    room: &Room,
    actor: &Actor,
    table_id: i64,
    result: &crate::services::cagnotte::HandResult,
) -> AppResult<(
    HandRow,
    Vec<SeatNotice>,
    crate::services::cagnotte::HandOver,
)> {
    let t = table(conn, table_id)?;
    let Some(state) = crate::domain::table::TableState::parse(&t.state) else {
        return Err(conflict("err-table-not-running"));
    };
    let seated: Vec<(SeatingRow, SeatSideRow)> = crate::native!(conn, |dbc| seatings::table
        .filter(seatings::table_id.eq(table_id))
        .filter(seatings::left_at.is_null())
        .order(seatings::seat_no.asc())
        .select((SeatingRow::as_select(), SeatSideRow::as_select()))
        .load(dbc))?;
    // PT-2007 24: no hand — not even the first — below the room's minimum to run.
    crate::domain::table::may_deal_hand(state, seated.len(), room.profile.min_players_to_run)
        .map_err(AppError::Conflict)?;
    let over = crate::services::cagnotte::on_hand_over(conn, now, room, actor, &t, result)?;
    let present: Vec<i32> = seated
        .iter()
        .filter(|(_, sd)| sd.away_since.is_none())
        .map(|(s, _)| s.seat_no)
        .collect();
    let button = seat_rules::next_button(&present, t.button_seat);
    let number: Option<i32> = crate::native!(conn, |dbc| hands::table
        .filter(hands::table_id.eq(table_id))
        .select(diesel::dsl::max(hands::number))
        .first(dbc))?;
    let row = HandRow {
        id: next_seq(conn, "hand")?,
        table_id,
        game_id: t.game_id,
        number: number.unwrap_or(0) + 1,
        button_seat: button,
        at: now.naive_utc(),
        recorded_by: actor.id,
        ended_at: None,
        pot: None,
        rake: None,
        preflop_no_bet: false,
        result_by: None,
    };
    crate::native!(conn, |dbc| diesel::insert_into(hands::table)
        .values(&row)
        .execute(dbc))?;
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(card_tables::table.find(table_id))
            .set(card_tables::button_seat.eq(button))
            .returning(card_tables::id)
    )
    .changed(dbc))?;
    let mut notices = Vec::new();
    for (s, sd) in &seated {
        if sd.away_since.is_some() {
            let mut b = buttons_of(sd);
            b.on_seat_empty_at_hand_start();
            if b.absence != sd.absence_button {
                crate::native!(conn, |dbc| crate::db::Cached(
                    diesel::update(seatings::table.find(s.id))
                        .set(seatings::absence_button.eq(b.absence))
                        .returning(seatings::id)
                )
                .changed(dbc))?;
            }
            continue;
        }
        let mut counter = HandCounter {
            hands_without_betting: sd.hands_no_bet.max(0) as u32,
            rest_hands: sd.rest_hands.max(0) as u32,
            rested_since_bet: sd.rested_since_bet,
        };
        let play = if sd.resting {
            HandPlay::Rested
        } else if sd.no_bet {
            HandPlay::NoBet
        } else {
            HandPlay::Bet
        };
        let notice = counter.on_new_hand(play);
        let key = match notice {
            HandNotice::Resting { hands_left } => Some(format!("rules-hands-resting|{hands_left}")),
            n => n.notice().map(|p| p.key.to_string()),
        };
        // A return obligation (BSOP 39, PT-2007 90) stays shown until the blinds are settled.
        let keep_return = sd
            .hand_notice
            .as_deref()
            .is_some_and(|k| k.starts_with("rules-return-"));
        let shown = if keep_return && key.is_none() {
            sd.hand_notice.clone()
        } else {
            key
        };
        crate::native!(conn, |dbc| crate::db::Cached(
            diesel::update(seatings::table.find(s.id))
                .set((
                    seatings::hands_no_bet.eq(counter.hands_without_betting as i32),
                    seatings::rest_hands.eq(counter.rest_hands as i32),
                    seatings::rested_since_bet.eq(counter.rested_since_bet),
                    seatings::no_bet.eq(false),
                    seatings::hand_notice.eq(shown),
                ))
                .returning(seatings::id)
        )
        .changed(dbc))?;
        if notice != HandNotice::Nothing {
            notices.push(SeatNotice {
                seat: s.seat_no,
                player_id: s.player_id,
                notice,
            });
        }
    }
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "table.hand",
        "table",
        Some(table_id),
        None,
        Some(&serde_json::json!({ "hand": row, "notices": notices })),
    )?;
    emit(
        conn,
        now,
        Some(table_id),
        "table.hand",
        &serde_json::json!({ "table": t.number, "number": row.number, "button": button, "notices": notices, "cagnotte": over }),
    )?;
    Ok((row, notices, over))
}

/// How many hands a table has counted since `since`.
pub fn hands_since(conn: &mut DbConn, table_id: i64, since: NaiveDateTime) -> AppResult<i64> {
    Ok(crate::native!(conn, |dbc| hands::table
        .filter(hands::table_id.eq(table_id))
        .filter(hands::at.ge(since))
        .count()
        .get_result(dbc))?)
}

// ---- requests to the floor -----------------------------------------------------------------------

/// A table asks for the floor, chips or a decision; it shows on the floor dashboard until
/// handled. Asking again for the same thing while it is open changes nothing.
pub fn request_service(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    actor: &Actor,
    table_id: i64,
    kind: &str,
    note: &str,
) -> AppResult<ServiceRequestRow> {
    let t = table(conn, table_id)?;
    if !SERVICE_KINDS.contains(&kind) {
        return Err(AppError::field("kind", "err-service-kind"));
    }
    let note = note.trim();
    if note.chars().count() > 200 {
        return Err(AppError::Validation(vec![FieldError::new(
            "note",
            "err-too-long",
        )
        .arg("max", 200)]));
    }
    let open: Option<ServiceRequestRow> = crate::native!(conn, |dbc| service_requests::table
        .filter(service_requests::table_id.eq(table_id))
        .filter(service_requests::kind.eq(kind))
        .filter(service_requests::handled_at.is_null())
        .select(ServiceRequestRow::as_select())
        .first(dbc))
    .optional()?;
    if let Some(r) = open {
        return Ok(r);
    }
    let row = ServiceRequestRow {
        id: next_seq(conn, "service")?,
        table_id,
        kind: kind.to_string(),
        note: note.to_string(),
        created_at: now.naive_utc(),
        created_by: actor.id,
        handled_at: None,
        handled_by: None,
    };
    crate::native!(conn, |dbc| diesel::insert_into(service_requests::table)
        .values(&row)
        .execute(dbc))?;
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "service.request",
        "table",
        Some(table_id),
        None,
        Some(&row),
    )?;
    emit(
        conn,
        now,
        Some(table_id),
        "service.request",
        &serde_json::json!({ "id": row.id, "table": t.number, "kind": kind }),
    )?;
    Ok(row)
}

/// The floor handled a request.
pub fn handle_service(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    actor: &Actor,
    id: i64,
) -> AppResult<ServiceRequestRow> {
    let r: ServiceRequestRow = crate::native!(conn, |dbc| service_requests::table
        .find(id)
        .select(ServiceRequestRow::as_select())
        .first(dbc))?;
    if r.handled_at.is_some() {
        return Ok(r);
    }
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(
            service_requests::table
                .find(id)
                .filter(service_requests::handled_at.is_null())
        )
        .set((
            service_requests::handled_at.eq(Some(now.naive_utc())),
            service_requests::handled_by.eq(actor.id)
        ))
        .returning(service_requests::id)
    )
    .changed(dbc))?;
    let after: ServiceRequestRow = crate::native!(conn, |dbc| service_requests::table
        .find(id)
        .select(ServiceRequestRow::as_select())
        .first(dbc))?;
    audit::record(
        conn,
        now,
        actor,
        "service.handled",
        "table",
        Some(r.table_id),
        Some(&r),
        Some(&after),
    )?;
    emit(
        conn,
        now,
        Some(r.table_id),
        "service.handled",
        &serde_json::json!({ "id": id, "kind": r.kind }),
    )?;
    Ok(after)
}

/// Open requests, oldest first, with the table number (`table_id`: one table's only).
pub fn open_requests(
    conn: &mut DbConn,
    table_id: Option<i64>,
) -> AppResult<Vec<(ServiceRequestRow, i32)>> {
    let mut q = service_requests::table
        .inner_join(card_tables::table)
        .filter(service_requests::handled_at.is_null())
        .into_boxed();
    if let Some(t) = table_id {
        q = q.filter(service_requests::table_id.eq(t));
    }
    Ok(q.order(service_requests::id.asc())
        .select((ServiceRequestRow::as_select(), card_tables::number))
        .load(conn)?)
}

// ---- messages from the floor to a table ------------------------------------------------------

/// The longest message the floor can send a table (it must fit the tablet's banner).
pub const MESSAGE_MAX: usize = 300;

/// The floor sends a free-text message to a table's tablet; it stays on the tablet until the
/// dealer marks it seen. Refused when no tablet is paired with the table (nobody would see it).
pub fn send_message(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    actor: &Actor,
    table_id: i64,
    body: &str,
) -> AppResult<FloorMessageRow> {
    let t = table(conn, table_id)?;
    let body = body.trim();
    if body.is_empty() {
        return Err(AppError::field("body", "err-required"));
    }
    if body.chars().count() > MESSAGE_MAX {
        return Err(AppError::Validation(vec![FieldError::new(
            "body",
            "err-too-long",
        )
        .arg("max", MESSAGE_MAX as i64)]));
    }
    let paired: i64 = crate::native!(conn, |dbc| tablets::table
        .filter(tablets::table_id.eq(table_id))
        .filter(tablets::revoked_at.is_null())
        .count()
        .get_result(dbc))?;
    if paired == 0 {
        return Err(AppError::Conflict(
            Problem::new("err-message-no-tablet").arg("table", t.number),
        ));
    }
    let row = FloorMessageRow {
        id: next_seq(conn, "floor_message")?,
        table_id,
        body: body.to_string(),
        created_at: now.naive_utc(),
        created_by: actor.id,
        seen_at: None,
        seen_by: None,
    };
    crate::native!(conn, |dbc| diesel::insert_into(floor_messages::table)
        .values(&row)
        .execute(dbc))?;
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "message.sent",
        "table",
        Some(table_id),
        None,
        Some(&row),
    )?;
    emit(
        conn,
        now,
        Some(table_id),
        "floor.message",
        &serde_json::json!({ "id": row.id, "table": t.number, "body": row.body }),
    )?;
    Ok(row)
}

/// The dealer saw a message (`at_table`: the tablet's table; another table's message is not
/// found from it). Seeing it again changes nothing.
pub fn message_seen(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    actor: &Actor,
    id: i64,
    at_table: Option<i64>,
) -> AppResult<FloorMessageRow> {
    let m: FloorMessageRow = crate::native!(conn, |dbc| floor_messages::table
        .find(id)
        .select(FloorMessageRow::as_select())
        .first(dbc))?;
    if at_table.is_some_and(|t| t != m.table_id) {
        return Err(AppError::NotFound);
    }
    if m.seen_at.is_some() {
        return Ok(m);
    }
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(
            floor_messages::table
                .find(id)
                .filter(floor_messages::seen_at.is_null())
        )
        .set((
            floor_messages::seen_at.eq(Some(now.naive_utc())),
            floor_messages::seen_by.eq(actor.id)
        ))
        .returning(floor_messages::id)
    )
    .changed(dbc))?;
    let after: FloorMessageRow = crate::native!(conn, |dbc| floor_messages::table
        .find(id)
        .select(FloorMessageRow::as_select())
        .first(dbc))?;
    audit::record(
        conn,
        now,
        actor,
        "message.seen",
        "table",
        Some(m.table_id),
        Some(&m),
        Some(&after),
    )?;
    emit(
        conn,
        now,
        Some(m.table_id),
        "floor.message_seen",
        &serde_json::json!({ "id": id }),
    )?;
    Ok(after)
}

/// A message as the floor sees it: the table's number, who sent it and who saw it.
#[derive(Debug, Clone, Serialize)]
pub struct MessageLine {
    pub message: FloorMessageRow,
    pub table_number: i32,
    pub sent_by: Option<String>,
    pub seen_by: Option<String>,
}

/// Messages, newest first: one table's (`table_id`) or every table's, the last `limit`.
pub fn messages(
    conn: &mut DbConn,
    table_id: Option<i64>,
    limit: i64,
) -> AppResult<Vec<MessageLine>> {
    message_lines(conn, table_id, None, limit)
}

/// One message as the floor sees it.
pub fn message_line(conn: &mut DbConn, id: i64) -> AppResult<MessageLine> {
    message_lines(conn, None, Some(id), 1)?
        .pop()
        .ok_or(AppError::NotFound)
}

fn message_lines(
    conn: &mut DbConn,
    table_id: Option<i64>,
    id: Option<i64>,
    limit: i64,
) -> AppResult<Vec<MessageLine>> {
    use crate::db::schema::staff;
    let mut q = floor_messages::table
        .inner_join(card_tables::table.on(card_tables::id.eq(floor_messages::table_id)))
        .into_boxed();
    if let Some(t) = table_id {
        q = q.filter(floor_messages::table_id.eq(t));
    }
    if let Some(id) = id {
        q = q.filter(floor_messages::id.eq(id));
    }
    let rows: Vec<(FloorMessageRow, i32)> = q
        .order(floor_messages::id.desc())
        .limit(limit)
        .select((FloorMessageRow::as_select(), card_tables::number))
        .load(conn)?;
    let mut ids: Vec<i64> = rows
        .iter()
        .flat_map(|(m, _)| [m.created_by, m.seen_by])
        .flatten()
        .collect();
    ids.sort_unstable();
    ids.dedup();
    let names: Vec<(i64, String)> = crate::native!(conn, |dbc| staff::table
        .filter(staff::id.eq_any(&ids))
        .select((staff::id, staff::display_name))
        .load(dbc))?;
    let name = |id: Option<i64>| {
        id.and_then(|i| names.iter().find(|(s, _)| *s == i).map(|(_, n)| n.clone()))
    };
    Ok(rows
        .into_iter()
        .map(|(m, n)| MessageLine {
            sent_by: name(m.created_by),
            seen_by: name(m.seen_by),
            table_number: n,
            message: m,
        })
        .collect())
}

/// The messages a table has not marked seen yet, oldest first.
pub fn unseen_messages(conn: &mut DbConn, table_id: i64) -> AppResult<Vec<FloorMessageRow>> {
    Ok(crate::native!(conn, |dbc| floor_messages::table
        .filter(floor_messages::table_id.eq(table_id))
        .filter(floor_messages::seen_at.is_null())
        .order(floor_messages::id.asc())
        .select(FloorMessageRow::as_select())
        .load(dbc))?)
}

// ---- the table as the tablet shows it ----------------------------------------------------------

/// One seated player as the tablet shows them.
#[derive(Debug, Clone, Serialize)]
pub struct SeatedView {
    pub seating: SeatingRow,
    pub side: SeatSideRow,
    pub player: PlayerRow,
    pub absence: AbsenceStatus,
    /// BSOP 36: the removal count waiting for a second staff member.
    pub counting: Option<CustodyRow>,
    /// PT-2007 79: below the table minimum (by the last count) a rebuy is needed to play on.
    pub rebuy_needed: bool,
    /// BSOP 38: by the last count the player is winning and may leave at this time.
    pub min_stay_until: Option<DateTime<Utc>>,
    /// BSOP 55, 57: the player is called to move (must-move or seat change): the table
    /// number and seat they go to.
    pub moving_to: Option<(i32, i32)>,
}

impl SeatedView {
    /// BSOP 36: away, with the chips removable from this instant.
    pub fn away_due(&self) -> Option<DateTime<Utc>> {
        match self.absence {
            AbsenceStatus::Away { due_at } => Some(due_at),
            _ => None,
        }
    }

    /// BSOP 36: the chips may be taken off now.
    pub fn removal_due(&self) -> bool {
        matches!(self.absence, AbsenceStatus::DueForRemoval { .. })
    }

    /// BSOP 36: due for removal because the player was away too long.
    pub fn removal_by_time(&self) -> bool {
        matches!(
            self.absence,
            AbsenceStatus::DueForRemoval {
                because: seat_rules::RemovalReason::AwayTooLong
            }
        )
    }

    /// BSOP 36: why the seat is due for removal (a rule message key).
    pub fn removal_key(&self) -> Option<&'static str> {
        match self.absence {
            AbsenceStatus::DueForRemoval {
                because: seat_rules::RemovalReason::TwoMissedBigBlinds,
            } => Some("rules-absence-due-missed-bb"),
            AbsenceStatus::DueForRemoval {
                because: seat_rules::RemovalReason::AwayTooLong,
            } => Some("rules-absence-due-away"),
            _ => None,
        }
    }
}

/// A seat call as the tablet shows it, with the buy-in the player must bring (none for a
/// move: the player brings their stack).
#[derive(Debug, Clone, Serialize)]
pub struct CallView {
    pub call: SeatCallRow,
    pub player: PlayerRow,
    pub requirement: Option<BuyinRequirement>,
}

#[derive(Debug, Clone, Serialize)]
pub struct SeatLine {
    pub seat_no: i32,
    pub seated: Option<SeatedView>,
    pub call: Option<CallView>,
}

/// Everything the tablet shows for its table.
#[derive(Debug, Clone, Serialize)]
pub struct TableSideView {
    pub table: TableRow,
    pub game: Option<GameRow>,
    pub seats: Vec<SeatLine>,
    pub calls: Vec<CallView>,
    pub requests: Vec<ServiceRequestRow>,
    /// Messages from the floor not marked seen yet.
    pub messages: Vec<FloorMessageRow>,
    /// Hands counted at this table in the last 24 hours.
    pub hands_today: i64,
    /// BSOP 57: the seats on the button and in the small blind.
    pub protected: Vec<i32>,
    /// BSOP 36 (profile): minutes away and big blinds missed before chips may be removed.
    pub absence_limit_min: i32,
    pub missed_bb_limit: i32,
    /// PT-2007 7b: the table's open cagnotte session with its dues (per-session games).
    #[serde(skip)]
    pub cagnotte: Option<crate::services::cagnotte::SessionPanel>,
    /// The dealer on shift at this table.
    pub shift_dealer: Option<String>,
    /// The number of the hand in progress (none before the first tap).
    pub hand_number: Option<i32>,
}

impl TableSideView {
    /// PT-2007 7a: the game takes its cagnotte from each pot (the hand-over tap asks for it).
    pub fn per_hand(&self) -> bool {
        self.game
            .as_ref()
            .is_some_and(|g| g.cagnotte_mode == "per_hand")
    }
    /// MO-13 11: the 13-card game takes a commission on payouts.
    pub fn commission_game(&self) -> bool {
        self.game
            .as_ref()
            .is_some_and(|g| g.variant == "thirteen_cards")
    }
    /// The session's amount still due at a seat (PT-2007 7b), for the seat's badge.
    pub fn due_at_seat(&self, seat_no: &i32) -> Option<i64> {
        let p = self.cagnotte.as_ref()?;
        p.dues
            .iter()
            .find(|d| d.due.seat_no == *seat_no && d.due.state == "due")
            .map(|d| d.due.amount)
    }
    /// An open request of this kind was sent to the floor.
    pub fn requested(&self, kind: &str) -> bool {
        self.requests.iter().any(|r| r.kind == kind)
    }

    pub fn seated(&self, seating_id: i64) -> Option<&SeatedView> {
        self.seats
            .iter()
            .filter_map(|s| s.seated.as_ref())
            .find(|s| s.seating.id == seating_id)
    }
}

pub fn view(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    profile: &RuleProfile,
    table_id: i64,
) -> AppResult<TableSideView> {
    let t = table(conn, table_id)?;
    let game = match t.game_id {
        Some(g) => Some(crate::services::games::get_game(conn, g)?),
        None => None,
    };
    let seated: Vec<(SeatingRow, SeatSideRow, PlayerRow)> =
        crate::native!(conn, |dbc| seatings::table
            .inner_join(players::table)
            .filter(seatings::table_id.eq(table_id))
            .filter(seatings::left_at.is_null())
            .order(seatings::seat_no.asc())
            .select((
                SeatingRow::as_select(),
                SeatSideRow::as_select(),
                PlayerRow::as_select()
            ))
            .load(dbc))?;
    let counting: Vec<CustodyRow> = crate::native!(conn, |dbc| chip_custody::table
        .filter(chip_custody::table_id.eq(table_id))
        .filter(chip_custody::state.eq("counting"))
        .select(CustodyRow::as_select())
        .load(dbc))?;
    let (_, open_calls) = floor::seats_of(conn, table_id)?;
    let mut calls = Vec::new();
    for (c, p) in open_calls {
        let requirement = match &game {
            Some(g) if c.source != "must_move" && c.source != "seat_change" => {
                Some(requirement(conn, now, profile, &t, g, c.player_id)?)
            }
            _ => None,
        };
        calls.push(CallView {
            call: c,
            player: p,
            requirement,
        });
    }
    // BSOP 55, 57: moves called for players seated here (to another table or seat).
    let here: Vec<i64> = seated.iter().map(|(s, _, _)| s.player_id).collect();
    let moves: Vec<(i64, i32, i32)> = crate::db::schema::seat_calls::table
        .inner_join(
            card_tables::table.on(card_tables::id.eq(crate::db::schema::seat_calls::table_id)),
        )
        .filter(crate::db::schema::seat_calls::player_id.eq_any(&here))
        .filter(
            crate::db::schema::seat_calls::source
                .eq("must_move")
                .or(crate::db::schema::seat_calls::source.eq("seat_change")),
        )
        .filter(
            crate::db::schema::seat_calls::state
                .eq("pending")
                .or(crate::db::schema::seat_calls::state.eq("acknowledged")),
        )
        .select((
            crate::db::schema::seat_calls::player_id,
            card_tables::number,
            crate::db::schema::seat_calls::seat_no,
        ))
        .load(conn)?;
    let limit = game.as_ref().map(limit_of).unwrap_or(LimitClass::Low);
    let views: Vec<SeatedView> = seated
        .into_iter()
        .map(|(s, sd, p)| {
            let absence = status_of(&sd, profile, now);
            let rebuy_needed = sd.bought_in > 0
                && game
                    .as_ref()
                    .is_some_and(|g| seat_rules::rebuy_needed(sd.stack, g.buy_in_min));
            let min_stay_until = if sd.bought_in > 0 {
                check_leave(
                    sd.stack,
                    sd.bought_in,
                    s.sat_at.and_utc(),
                    now,
                    limit,
                    profile,
                )
                .err()
                .map(|r| r.allowed_at)
            } else {
                None
            };
            let counting = counting.iter().find(|c| c.seating_id == s.id).cloned();
            let moving_to = moves
                .iter()
                .find(|(pid, _, _)| *pid == s.player_id)
                .map(|(_, t, n)| (*t, *n));
            SeatedView {
                seating: s,
                side: sd,
                player: p,
                absence,
                counting,
                rebuy_needed,
                min_stay_until,
                moving_to,
            }
        })
        .collect();
    let n = t.seats + i32::from(t.extra_seat);
    let seats = (1..=n)
        .map(|seat_no| SeatLine {
            seat_no,
            seated: views.iter().find(|v| v.seating.seat_no == seat_no).cloned(),
            call: calls.iter().find(|c| c.call.seat_no == seat_no).cloned(),
        })
        .collect();
    let requests = open_requests(conn, Some(table_id))?
        .into_iter()
        .map(|(r, _)| r)
        .collect();
    let hands_today = hands_since(conn, table_id, (now - Duration::hours(24)).naive_utc())?;
    let present: Vec<i32> = views
        .iter()
        .filter(|v| v.side.away_since.is_none())
        .map(|v| v.seating.seat_no)
        .collect();
    let protected = seat_rules::button_and_small_blind(&present, t.button_seat);
    Ok(TableSideView {
        table: t,
        game,
        seats,
        calls,
        requests,
        messages: unseen_messages(conn, table_id)?,
        hands_today,
        protected,
        absence_limit_min: profile.absence_limit_min,
        missed_bb_limit: profile.missed_bb_before_removal,
        cagnotte: crate::services::cagnotte::panel(conn, now, table_id)?,
        shift_dealer: crate::services::cagnotte::shift_dealer(conn, table_id)?.map(|(_, n)| n),
        hand_number: crate::native!(conn, |dbc| hands::table
            .filter(hands::table_id.eq(table_id))
            .select(diesel::dsl::max(hands::number))
            .first(dbc))?,
    })
}

/// BSOP 57: the seats of a table on the button and in the small blind now.
pub fn protected_seats(conn: &mut DbConn, t: &TableRow) -> AppResult<Vec<i32>> {
    let present: Vec<i32> = crate::native!(conn, |dbc| seatings::table
        .filter(seatings::table_id.eq(t.id))
        .filter(seatings::left_at.is_null())
        .filter(seatings::away_since.is_null())
        .select(seatings::seat_no)
        .load(dbc))?;
    Ok(seat_rules::button_and_small_blind(&present, t.button_seat))
}

// ---- what the floor dashboard is alerted to -----------------------------------------------------

/// An absent player's seat due for chip removal (BSOP 36).
#[derive(Debug, Clone, Serialize)]
pub struct RemovalAlert {
    pub table_number: i32,
    pub seat_no: i32,
    pub alias: String,
    pub by_time: bool,
    pub counting: bool,
}

/// What needs the floor at the tables: open requests, seats due for chip removal, chips held.
#[derive(Debug, Clone, Serialize, Default)]
pub struct FloorAlerts {
    pub requests: Vec<(ServiceRequestRow, i32)>,
    pub removals: Vec<RemovalAlert>,
    pub in_custody: i64,
    /// PT-2007 7b: tables whose cagnotte session has had its hour of play (the next hand
    /// over closes it, or the floor does).
    pub sessions_up: Vec<i32>,
    /// Session dues still not collected nor exempted a quarter of an hour after they arose.
    pub dues_late: i64,
}

impl FloorAlerts {
    pub fn is_empty(&self) -> bool {
        self.requests.is_empty()
            && self.removals.is_empty()
            && self.sessions_up.is_empty()
            && self.dues_late == 0
    }
}

pub fn floor_alerts(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    profile: &RuleProfile,
) -> AppResult<FloorAlerts> {
    let requests = open_requests(conn, None)?;
    let away: Vec<(SeatingRow, SeatSideRow, String, i32)> =
        crate::native!(conn, |dbc| seatings::table
            .inner_join(players::table)
            .inner_join(card_tables::table.on(card_tables::id.eq(seatings::table_id)))
            .filter(seatings::left_at.is_null())
            .filter(seatings::away_since.is_not_null())
            .order((card_tables::number.asc(), seatings::seat_no.asc()))
            .select((
                SeatingRow::as_select(),
                SeatSideRow::as_select(),
                players::alias,
                card_tables::number
            ))
            .load(dbc))?;
    let counting: Vec<i64> = crate::native!(conn, |dbc| chip_custody::table
        .filter(chip_custody::state.eq("counting"))
        .select(chip_custody::seating_id)
        .load(dbc))?;
    let removals = away
        .into_iter()
        .filter_map(
            |(s, sd, alias, number)| match status_of(&sd, profile, now) {
                AbsenceStatus::DueForRemoval { because } => Some(RemovalAlert {
                    table_number: number,
                    seat_no: s.seat_no,
                    alias,
                    by_time: because == seat_rules::RemovalReason::AwayTooLong,
                    counting: counting.contains(&s.id),
                }),
                _ => None,
            },
        )
        .collect();
    let in_custody = crate::native!(conn, |dbc| chip_custody::table
        .filter(chip_custody::state.eq("held"))
        .count()
        .get_result(dbc))?;
    let (sessions_up, dues_late) = crate::services::cagnotte::alerts(conn, now)?;
    Ok(FloorAlerts {
        requests,
        removals,
        in_custody,
        sessions_up,
        dues_late,
    })
}
