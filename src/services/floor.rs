//! The floor's core loop: waiting lists, seat calls and seating, with every rule asked of
//! the domain and every change audited and pushed as an event in the same transaction.

use super::conflict;
use crate::db::audit::{self, Actor};
use crate::db::models::{GameRow, PlayerRow, SeatCallRow, SeatingRow, TableRow, WaitlistRow};
use crate::db::schema::{card_tables, events, games, players, seat_calls, seat_change_requests, seat_holds, seatings, separations, waitlist_entries};
use crate::db::{is_unique_violation, next_seq, DbConn};
use crate::domain::eligibility::Ineligible;
use crate::domain::profile::{CallExpiry, RuleProfile};
use crate::domain::table::{evaluate, TableState, Transition};
use crate::domain::waitlist::{self, Candidate, Entry, PassOver, Place};
use crate::domain::{FieldError, Problem};
use crate::error::{AppError, AppResult};
use crate::services::players as registry;
use chrono::{DateTime, Duration, Utc};
use chrono_tz::Tz;
use diesel::prelude::*;
use serde::Serialize;

const ACTIVE: [&str; 2] = ["waiting", "called"];

/// Appends an event to the push stream (same transaction as the change).
pub fn emit<P: Serialize>(conn: &mut DbConn, now: DateTime<Utc>, table_id: Option<i64>, kind: &str, payload: &P) -> AppResult<i64> {
    let seq = next_seq(conn, "event")?;
    diesel::insert_into(events::table)
        .values((
            events::seq.eq(seq),
            events::at.eq(now.naive_utc()),
            events::table_id.eq(table_id),
            events::kind.eq(kind),
            events::payload.eq(serde_json::to_string(payload).unwrap_or_default()),
        ))
        .execute(conn)?;
    Ok(seq)
}

/// BSOP 1, 2, 3, 10: the refusal names the first reason (the player page lists them all).
fn ineligible_error(reasons: &[Ineligible]) -> AppError {
    let key = match reasons.first() {
        Some(Ineligible::Under18) => "err-cannot-play-under-18",
        Some(Ineligible::NoPhoto) => "err-cannot-play-no-photo",
        Some(Ineligible::IdExpired) => "err-cannot-play-id-expired",
        Some(Ineligible::Banned) | None => "err-cannot-play-banned",
    };
    AppError::Conflict(Problem::new(key))
}

fn game(conn: &mut DbConn, id: i64) -> AppResult<GameRow> {
    Ok(games::table.find(id).select(GameRow::as_select()).first(conn)?)
}

fn table(conn: &mut DbConn, id: i64) -> AppResult<TableRow> {
    Ok(card_tables::table.find(id).select(TableRow::as_select()).first(conn)?)
}

fn entries(conn: &mut DbConn, game_id: i64) -> AppResult<Vec<WaitlistRow>> {
    Ok(waitlist_entries::table
        .filter(waitlist_entries::game_id.eq(game_id))
        .filter(waitlist_entries::state.eq_any(ACTIVE))
        .select(WaitlistRow::as_select())
        .load(conn)?)
}

fn as_entry(r: &WaitlistRow) -> Entry {
    Entry {
        id: r.id,
        player_id: r.player_id,
        order_key: r.order_key,
        joined_at: r.joined_at.and_utc(),
        call_in_expires_at: if r.checked_in_at.is_some() { None } else { r.call_in_expires_at.map(|t| t.and_utc()) },
        called: r.state == "called",
    }
}

/// One line of a waiting list as pages and the API show it.
#[derive(Debug, Clone, Serialize)]
pub struct ListLine {
    pub entry: WaitlistRow,
    pub player: PlayerRow,
    pub place: Place,
}

/// PT-2007 8a: a game's list in order, with each player's place (one computation for every
/// page, the API and the player's link).
pub fn list(conn: &mut DbConn, game_id: i64, now: DateTime<Utc>) -> AppResult<Vec<ListLine>> {
    game(conn, game_id)?;
    let rows: Vec<(WaitlistRow, PlayerRow)> = waitlist_entries::table
        .inner_join(players::table)
        .filter(waitlist_entries::game_id.eq(game_id))
        .filter(waitlist_entries::state.eq_any(ACTIVE))
        .select((WaitlistRow::as_select(), PlayerRow::as_select()))
        .load(conn)?;
    let domain: Vec<Entry> = rows.iter().map(|(e, _)| as_entry(e)).collect();
    let mut by_id: std::collections::HashMap<i64, (WaitlistRow, PlayerRow)> = rows.into_iter().map(|r| (r.0.id, r)).collect();
    Ok(waitlist::positions(&domain, now)
        .into_iter()
        .filter_map(|(id, place)| by_id.remove(&id).map(|(entry, player)| ListLine { entry, player, place }))
        .collect())
}

/// Adds a registered, eligible player to a game's list, at the desk or as a call-in that
/// lapses unless the player checks in (profile `call_in_expiry_min`).
pub fn join(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    tz: Tz,
    profile: &RuleProfile,
    actor: &Actor,
    game_id: i64,
    player_id: i64,
    call_in: bool,
) -> AppResult<WaitlistRow> {
    let g = game(conn, game_id).map_err(|e| match e {
        AppError::NotFound => AppError::field("game_id", "err-game-unknown"),
        e => e,
    })?;
    if !g.active {
        return Err(conflict("err-game-inactive"));
    }
    let p = registry::get(conn, player_id).map_err(|e| match e {
        AppError::NotFound => AppError::field("player_id", "err-player-unknown"),
        e => e,
    })?;
    // BSOP 1, 2, 3, 10: banned or ineligible players cannot be added, with the reasons.
    let why = registry::eligibility(conn, &p, now, tz)?;
    if !why.is_empty() {
        return Err(ineligible_error(&why));
    }
    let current = entries(conn, game_id)?;
    if current.iter().any(|e| e.player_id == player_id) {
        return Err(conflict("err-already-on-list"));
    }
    let domain: Vec<Entry> = current.iter().map(as_entry).collect();
    let row = WaitlistRow {
        id: next_seq(conn, "waitlist")?,
        game_id,
        player_id,
        order_key: waitlist::key_at_bottom(&domain),
        joined_at: now.naive_utc(),
        source: if call_in { "call_in" } else { "desk" }.into(),
        call_in_expires_at: call_in.then(|| (now + Duration::minutes(profile.call_in_expiry_min as i64)).naive_utc()),
        checked_in_at: None,
        state: "waiting".into(),
        ended_at: None,
        end_reason: None,
        created_by: actor.id,
    };
    diesel::insert_into(waitlist_entries::table).values(&row).execute(conn).map_err(|e| {
        if is_unique_violation(&e) { conflict("err-already-on-list") } else { e.into() }
    })?;
    audit::record::<(), _>(conn, now, actor, "list.join", "player", Some(player_id), None, Some(&row))?;
    emit(conn, now, None, "list.changed", &serde_json::json!({ "game_id": game_id }))?;
    Ok(row)
}

/// One list entry, whatever its state.
pub fn entry(conn: &mut DbConn, id: i64) -> AppResult<WaitlistRow> {
    Ok(waitlist_entries::table.find(id).select(WaitlistRow::as_select()).first(conn)?)
}

fn end_entry(conn: &mut DbConn, now: DateTime<Utc>, actor: &Actor, e: &WaitlistRow, state: &str, reason: &str, action: &str) -> AppResult<WaitlistRow> {
    let n = diesel::update(waitlist_entries::table.find(e.id).filter(waitlist_entries::state.eq_any(ACTIVE)))
        .set((
            waitlist_entries::state.eq(state),
            waitlist_entries::ended_at.eq(Some(now.naive_utc())),
            waitlist_entries::end_reason.eq(Some(reason)),
        ))
        .execute(conn)?;
    if n != 1 {
        return Err(conflict("err-entry-not-active"));
    }
    let after = entry(conn, e.id)?;
    audit::record(conn, now, actor, action, "player", Some(e.player_id), Some(e), Some(&after))?;
    emit(conn, now, None, "list.changed", &serde_json::json!({ "game_id": e.game_id }))?;
    Ok(after)
}

/// Takes a player off a list (their choice or the floor's), with a reason.
pub fn remove(conn: &mut DbConn, now: DateTime<Utc>, actor: &Actor, entry_id: i64, reason: &str) -> AppResult<WaitlistRow> {
    let e = entry(conn, entry_id)?;
    let reason = reason.trim();
    if reason.is_empty() {
        return Err(AppError::field("reason", "err-required"));
    }
    // A pending call for this entry is cancelled with it.
    cancel_calls_of_entry(conn, now, entry_id)?;
    end_entry(conn, now, actor, &e, "removed", reason, "list.remove")
}

fn cancel_calls_of_entry(conn: &mut DbConn, now: DateTime<Utc>, entry_id: i64) -> AppResult<()> {
    diesel::update(seat_calls::table.filter(seat_calls::entry_id.eq(entry_id)).filter(seat_calls::state.eq_any(["pending", "acknowledged"])))
        .set((seat_calls::state.eq("cancelled"), seat_calls::resolved_at.eq(Some(now.naive_utc()))))
        .execute(conn)?;
    Ok(())
}

/// Moves a player to another place on the list; the floor must say why (audited).
pub fn reorder(conn: &mut DbConn, now: DateTime<Utc>, actor: &Actor, entry_id: i64, position: i64, reason: &str) -> AppResult<()> {
    let e = entry(conn, entry_id)?;
    if !ACTIVE.contains(&e.state.as_str()) {
        return Err(conflict("err-entry-not-active"));
    }
    if reason.trim().is_empty() {
        return Err(AppError::field("reason", "err-required"));
    }
    if position < 1 {
        return Err(AppError::Validation(vec![FieldError::new("position", "err-range").arg("min", 1).arg("max", 9999)]));
    }
    let rows = entries(conn, e.game_id)?;
    let domain: Vec<Entry> = rows.iter().map(as_entry).collect();
    let before = waitlist::place_of(&domain, entry_id, now);
    for (id, key) in waitlist::reorder(&domain, entry_id, position as usize) {
        diesel::update(waitlist_entries::table.find(id)).set(waitlist_entries::order_key.eq(key)).execute(conn)?;
    }
    let note = serde_json::json!({ "entry_id": entry_id, "from": before.map(|p| p.position), "to": position, "reason": reason.trim() });
    audit::record::<(), _>(conn, now, actor, "list.reorder", "player", Some(e.player_id), None, Some(&note))?;
    emit(conn, now, None, "list.changed", &serde_json::json!({ "game_id": e.game_id }))?;
    Ok(())
}

/// A call-in arrives at the desk: their entry no longer lapses.
pub fn check_in(conn: &mut DbConn, now: DateTime<Utc>, actor: &Actor, entry_id: i64) -> AppResult<WaitlistRow> {
    let e = entry(conn, entry_id)?;
    if !ACTIVE.contains(&e.state.as_str()) || e.checked_in_at.is_some() || e.source != "call_in" {
        return Err(conflict("err-entry-not-call-in"));
    }
    if e.call_in_expires_at.is_some_and(|t| t.and_utc() <= now) {
        return Err(conflict("err-call-in-lapsed"));
    }
    diesel::update(waitlist_entries::table.find(entry_id)).set(waitlist_entries::checked_in_at.eq(Some(now.naive_utc()))).execute(conn)?;
    let after = entry(conn, entry_id)?;
    audit::record(conn, now, actor, "list.check_in", "player", Some(e.player_id), Some(&e), Some(&after))?;
    emit(conn, now, None, "list.changed", &serde_json::json!({ "game_id": e.game_id }))?;
    Ok(after)
}

/// Players seated at a table now.
pub fn seated_at(conn: &mut DbConn, table_id: i64) -> AppResult<Vec<SeatingRow>> {
    Ok(seatings::table
        .filter(seatings::table_id.eq(table_id))
        .filter(seatings::left_at.is_null())
        .order(seatings::seat_no.asc())
        .select(SeatingRow::as_select())
        .load(conn)?)
}

/// Who sits at a table and the open calls reserving its seats, each with the player (one
/// query each, for the table's seat view).
#[allow(clippy::type_complexity)]
pub fn seats_of(conn: &mut DbConn, table_id: i64) -> AppResult<(Vec<(SeatingRow, PlayerRow)>, Vec<(SeatCallRow, PlayerRow)>)> {
    let seated: Vec<(SeatingRow, PlayerRow)> = seatings::table
        .inner_join(players::table)
        .filter(seatings::table_id.eq(table_id))
        .filter(seatings::left_at.is_null())
        .order(seatings::seat_no.asc())
        .select((SeatingRow::as_select(), PlayerRow::as_select()))
        .load(conn)?;
    let calls: Vec<(SeatCallRow, PlayerRow)> = seat_calls::table
        .inner_join(players::table.on(players::id.eq(seat_calls::player_id)))
        .filter(seat_calls::table_id.eq(table_id))
        .filter(seat_calls::state.eq_any(["pending", "acknowledged"]))
        .order(seat_calls::seat_no.asc())
        .select((SeatCallRow::as_select(), PlayerRow::as_select()))
        .load(conn)?;
    Ok((seated, calls))
}

/// BSOP 47: the players this one must never sit with.
fn separated_from(conn: &mut DbConn, player_id: i64) -> AppResult<Vec<i64>> {
    let rows: Vec<(i64, i64)> = separations::table
        .filter(separations::removed_at.is_null())
        .filter(separations::player_a.eq(player_id).or(separations::player_b.eq(player_id)))
        .select((separations::player_a, separations::player_b))
        .load(conn)?;
    Ok(rows.into_iter().map(|(a, b)| if a == player_id { b } else { a }).collect())
}

fn has_open_call(conn: &mut DbConn, player_id: i64) -> AppResult<bool> {
    Ok(seat_calls::table.filter(seat_calls::player_id.eq(player_id)).filter(seat_calls::state.eq_any(["pending", "acknowledged"])).count().get_result::<i64>(conn)? > 0)
}

/// Cancels open seat calls; the list entries they called go back to waiting, in their place.
fn cancel_open_calls(conn: &mut DbConn, now: DateTime<Utc>, call_ids: &[i64]) -> AppResult<()> {
    if call_ids.is_empty() {
        return Ok(());
    }
    let open = seat_calls::table.filter(seat_calls::id.eq_any(call_ids)).filter(seat_calls::state.eq_any(["pending", "acknowledged"]));
    let entry_ids: Vec<i64> = open.clone().select(seat_calls::entry_id).load::<Option<i64>>(conn)?.into_iter().flatten().collect();
    diesel::update(open).set((seat_calls::state.eq("cancelled"), seat_calls::resolved_at.eq(Some(now.naive_utc())))).execute(conn)?;
    diesel::update(waitlist_entries::table.filter(waitlist_entries::id.eq_any(&entry_ids)).filter(waitlist_entries::state.eq("called")))
        .set(waitlist_entries::state.eq("waiting"))
        .execute(conn)?;
    Ok(())
}

/// BSOP 46: does this player hold a seat at any table?
pub fn seated_at_any(conn: &mut DbConn, player_id: i64) -> AppResult<bool> {
    Ok(seatings::table.filter(seatings::player_id.eq(player_id)).filter(seatings::left_at.is_null()).count().get_result::<i64>(conn)? > 0)
}

/// Why a seat cannot be given now (the seat itself, not the player).
fn check_seat_free(conn: &mut DbConn, t: &TableRow, seat_no: i32, except_call: Option<i64>) -> AppResult<()> {
    if !(1..=t.seats).contains(&seat_no) {
        return Err(AppError::Validation(vec![FieldError::new("seat_no", "err-range").arg("min", 1).arg("max", t.seats)]));
    }
    if !matches!(TableState::parse(&t.state), Some(TableState::Open | TableState::Running | TableState::Suspended)) {
        return Err(conflict("err-table-not-open"));
    }
    let taken: i64 = seatings::table
        .filter(seatings::table_id.eq(t.id))
        .filter(seatings::seat_no.eq(seat_no))
        .filter(seatings::left_at.is_null())
        .count()
        .get_result(conn)?;
    if taken > 0 {
        return Err(conflict("err-seat-taken"));
    }
    let mut calls = seat_calls::table
        .filter(seat_calls::table_id.eq(t.id))
        .filter(seat_calls::seat_no.eq(seat_no))
        .filter(seat_calls::state.eq_any(["pending", "acknowledged"]))
        .into_boxed();
    if let Some(c) = except_call {
        calls = calls.filter(seat_calls::id.ne(c));
    }
    if calls.count().get_result::<i64>(conn)? > 0 {
        return Err(conflict("err-seat-called"));
    }
    let held: i64 = seat_holds::table
        .filter(seat_holds::table_id.eq(t.id))
        .filter(seat_holds::seat_no.eq(seat_no))
        .filter(seat_holds::released_at.is_null())
        .count()
        .get_result(conn)?;
    if held > 0 {
        return Err(conflict("err-seat-held"));
    }
    Ok(())
}

/// Why a player cannot sit at this table now (the player, not the seat).
fn check_player_may_sit(conn: &mut DbConn, now: DateTime<Utc>, tz: Tz, t: &TableRow, player_id: i64) -> AppResult<Option<PassOver>> {
    let p = registry::get(conn, player_id)?;
    if !registry::eligibility(conn, &p, now, tz)?.is_empty() {
        return Ok(Some(PassOver::Ineligible));
    }
    // BSOP 46: a player may not hold a seat at more than one table.
    if seated_at_any(conn, player_id)? {
        return Ok(Some(PassOver::AlreadySeated));
    }
    // BSOP 47: never at the same table as someone they are kept apart from.
    let apart = separated_from(conn, player_id)?;
    if !apart.is_empty() && seated_at(conn, t.id)?.iter().any(|s| apart.contains(&s.player_id)) {
        return Ok(Some(PassOver::Separated));
    }
    Ok(None)
}

fn pass_over_error(p: PassOver, conn: &mut DbConn, now: DateTime<Utc>, tz: Tz, player_id: i64) -> AppResult<AppError> {
    Ok(match p {
        PassOver::Ineligible => {
            let pl = registry::get(conn, player_id)?;
            ineligible_error(&registry::eligibility(conn, &pl, now, tz)?)
        }
        PassOver::AlreadySeated => conflict("err-already-seated"),
        PassOver::Separated => conflict("err-separated-at-table"),
        PassOver::AlreadyCalled => conflict("err-already-called"),
        PassOver::Lapsed => conflict("err-call-in-lapsed"),
    })
}

/// PT-2007 12, BSOP 51: a seat is free — call the next player for it (seat-change requests
/// at this table first, then the waiting list in order, passing over who cannot take it).
/// The call reserves the seat for the response window and is pushed to the table.
pub fn call_next(conn: &mut DbConn, now: DateTime<Utc>, tz: Tz, profile: &RuleProfile, actor: &Actor, table_id: i64, seat_no: i32) -> AppResult<SeatCallRow> {
    let t = table(conn, table_id)?;
    check_seat_free(conn, &t, seat_no, None)?;
    let game_id = t.game_id.ok_or_else(|| conflict("err-table-no-game"))?;
    let changes: Vec<(i64, chrono::NaiveDateTime)> = seat_change_requests::table
        .filter(seat_change_requests::table_id.eq(table_id))
        .filter(seat_change_requests::state.eq("open"))
        .select((seat_change_requests::player_id, seat_change_requests::requested_at))
        .load(conn)?;
    let changes: Vec<(i64, DateTime<Utc>)> = changes.into_iter().map(|(p, at)| (p, at.and_utc())).collect();
    let rows = entries(conn, game_id)?;
    let domain: Vec<Entry> = rows.iter().map(as_entry).collect();
    // The domain picks in order; whether a listed player may take this seat needs the
    // database, asked lazily (only until someone can).
    let db = std::cell::RefCell::new(&mut *conn);
    let failure = std::cell::RefCell::new(None);
    let pick = waitlist::next_for_seat(&changes, &[], &domain, now, |p| {
        let mut c = db.borrow_mut();
        // A player already called to another table (another list) waits for that answer:
        // passed over here, keeping the place (one open call per player).
        let verdict = match has_open_call(&mut c, p) {
            Ok(true) => Ok(Some(PassOver::AlreadyCalled)),
            Ok(false) => check_player_may_sit(&mut c, now, tz, &t, p),
            Err(e) => Err(e),
        };
        match verdict {
            Ok(v) => v,
            Err(e) => {
                failure.borrow_mut().get_or_insert(e);
                Some(PassOver::Ineligible)
            }
        }
    });
    drop(db);
    if let Some(e) = failure.into_inner() {
        return Err(e);
    }
    let Some(candidate) = pick else { return Err(conflict("err-nobody-to-call")) };
    let (player_id, entry_id, source) = match candidate {
        Candidate::SeatChange { player_id } => (player_id, None, "seat_change"),
        Candidate::MustMove { player_id } => (player_id, None, "must_move"),
        Candidate::List { entry_id, player_id } => (player_id, Some(entry_id), "list"),
    };
    create_call(conn, now, profile, actor, &t, seat_no, player_id, entry_id, source)
}

#[allow(clippy::too_many_arguments)]
fn create_call(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    profile: &RuleProfile,
    actor: &Actor,
    t: &TableRow,
    seat_no: i32,
    player_id: i64,
    entry_id: Option<i64>,
    source: &str,
) -> AppResult<SeatCallRow> {
    let row = SeatCallRow {
        id: next_seq(conn, "seat_call")?,
        table_id: t.id,
        seat_no,
        player_id,
        entry_id,
        source: source.into(),
        called_at: now.naive_utc(),
        respond_by: (now + Duration::minutes(profile.seat_call_response_min as i64)).naive_utc(),
        state: "pending".into(),
        acknowledged_at: None,
        resolved_at: None,
        created_by: actor.id,
    };
    diesel::insert_into(seat_calls::table).values(&row).execute(conn).map_err(|e| {
        if is_unique_violation(&e) { conflict("err-seat-called") } else { e.into() }
    })?;
    if let Some(eid) = entry_id {
        diesel::update(waitlist_entries::table.find(eid)).set(waitlist_entries::state.eq("called")).execute(conn)?;
    }
    audit::record::<(), _>(conn, now, actor, "seat.call", "player", Some(player_id), None, Some(&row))?;
    let p: PlayerRow = players::table.find(player_id).select(PlayerRow::as_select()).first(conn)?;
    emit(
        conn,
        now,
        Some(t.id),
        "seat.call",
        &serde_json::json!({ "call_id": row.id, "table": t.number, "seat": seat_no, "player_id": player_id,
            "alias": p.alias, "respond_by": row.respond_by.and_utc(), "source": source }),
    )?;
    Ok(row)
}

pub fn call(conn: &mut DbConn, id: i64) -> AppResult<SeatCallRow> {
    Ok(seat_calls::table.find(id).select(SeatCallRow::as_select()).first(conn)?)
}

/// The called player arrived: the floor (or the dealer) confirms the seating (BSOP 44).
pub fn confirm_call(conn: &mut DbConn, now: DateTime<Utc>, tz: Tz, profile: &RuleProfile, actor: &Actor, call_id: i64) -> AppResult<SeatingRow> {
    let c = call(conn, call_id)?;
    if !matches!(c.state.as_str(), "pending" | "acknowledged") {
        return Err(conflict("err-call-not-open"));
    }
    let t = table(conn, c.table_id)?;
    let seating = seat_player(conn, now, tz, profile, actor, &t, c.seat_no, c.player_id, c.entry_id, Some(c.id))?;
    let n = diesel::update(seat_calls::table.find(call_id).filter(seat_calls::state.eq_any(["pending", "acknowledged"])))
        .set((seat_calls::state.eq("seated"), seat_calls::resolved_at.eq(Some(now.naive_utc()))))
        .execute(conn)?;
    if n != 1 {
        return Err(conflict("err-call-not-open"));
    }
    if c.source == "seat_change" {
        diesel::update(seat_change_requests::table.filter(seat_change_requests::player_id.eq(c.player_id)).filter(seat_change_requests::state.eq("open")))
            .set((seat_change_requests::state.eq("served"), seat_change_requests::resolved_at.eq(Some(now.naive_utc()))))
            .execute(conn)?;
    }
    Ok(seating)
}

/// The floor seats a player directly (BSOP 44), with every check a call would make.
pub fn seat_directly(conn: &mut DbConn, now: DateTime<Utc>, tz: Tz, profile: &RuleProfile, actor: &Actor, table_id: i64, seat_no: i32, player_id: i64) -> AppResult<SeatingRow> {
    let t = table(conn, table_id)?;
    registry::get(conn, player_id).map_err(|e| match e {
        AppError::NotFound => AppError::field("player_id", "err-player-unknown"),
        e => e,
    })?;
    // The player's active entry on this game's list, if any, is used up by the seating.
    let entry_id: Option<i64> = match t.game_id {
        Some(g) => waitlist_entries::table
            .filter(waitlist_entries::game_id.eq(g))
            .filter(waitlist_entries::player_id.eq(player_id))
            .filter(waitlist_entries::state.eq_any(ACTIVE))
            .select(waitlist_entries::id)
            .first(conn)
            .optional()?,
        None => None,
    };
    seat_player(conn, now, tz, profile, actor, &t, seat_no, player_id, entry_id, None)
}

#[allow(clippy::too_many_arguments)]
fn seat_player(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    tz: Tz,
    profile: &RuleProfile,
    actor: &Actor,
    t: &TableRow,
    seat_no: i32,
    player_id: i64,
    entry_id: Option<i64>,
    call_id: Option<i64>,
) -> AppResult<SeatingRow> {
    check_seat_free(conn, t, seat_no, call_id)?;
    if t.game_id.is_none() {
        return Err(conflict("err-table-no-game"));
    }
    if let Some(p) = check_player_may_sit(conn, now, tz, t, player_id)? {
        return Err(pass_over_error(p, conn, now, tz, player_id)?);
    }
    let row = SeatingRow {
        id: next_seq(conn, "seating")?,
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
    // The unique indexes settle a race between two floor managers: the loser gets a 409.
    diesel::insert_into(seatings::table).values(&row).execute(conn).map_err(|e| {
        if is_unique_violation(&e) { conflict("err-seat-race") } else { e.into() }
    })?;
    if let Some(eid) = entry_id {
        diesel::update(waitlist_entries::table.find(eid))
            .set((waitlist_entries::state.eq("seated"), waitlist_entries::ended_at.eq(Some(now.naive_utc())), waitlist_entries::end_reason.eq(Some("seated"))))
            .execute(conn)?;
    }
    // BSOP 46: a player seated here leaves every other list's pending call (those entries
    // wait again, in their place, passed over while the player is seated).
    let others: Vec<i64> = seat_calls::table
        .filter(seat_calls::player_id.eq(player_id))
        .filter(seat_calls::state.eq_any(["pending", "acknowledged"]))
        .filter(seat_calls::id.ne(call_id.unwrap_or(-1)))
        .select(seat_calls::id)
        .load(conn)?;
    cancel_open_calls(conn, now, &others)?;
    audit::record::<(), _>(conn, now, actor, "seat.take", "player", Some(player_id), None, Some(&row))?;
    let p: PlayerRow = players::table.find(player_id).select(PlayerRow::as_select()).first(conn)?;
    emit(conn, now, Some(t.id), "seat.taken", &serde_json::json!({ "table": t.number, "seat": seat_no, "player_id": player_id, "alias": p.alias }))?;
    apply_table_rules(conn, now, profile, actor, t.id)?;
    Ok(row)
}

/// A player leaves their seat (the next player can then be called).
pub fn leave(conn: &mut DbConn, now: DateTime<Utc>, profile: &RuleProfile, actor: &Actor, seating_id: i64, reason: &str) -> AppResult<SeatingRow> {
    let s: SeatingRow = seatings::table.find(seating_id).select(SeatingRow::as_select()).first(conn)?;
    if s.left_at.is_some() {
        return Err(conflict("err-already-left"));
    }
    let n = diesel::update(seatings::table.find(seating_id).filter(seatings::left_at.is_null()))
        .set((seatings::left_at.eq(Some(now.naive_utc())), seatings::left_reason.eq(Some(reason))))
        .execute(conn)?;
    if n != 1 {
        return Err(conflict("err-already-left"));
    }
    let after: SeatingRow = seatings::table.find(seating_id).select(SeatingRow::as_select()).first(conn)?;
    audit::record(conn, now, actor, "seat.leave", "player", Some(s.player_id), Some(&s), Some(&after))?;
    emit(conn, now, Some(s.table_id), "seat.freed", &serde_json::json!({ "seat": s.seat_no, "player_id": s.player_id }))?;
    apply_table_rules(conn, now, profile, actor, s.table_id)?;
    Ok(after)
}

/// PT-2007 24: after a change of players, run / suspend / resume the table as the domain says.
fn apply_table_rules(conn: &mut DbConn, now: DateTime<Utc>, profile: &RuleProfile, actor: &Actor, table_id: i64) -> AppResult<()> {
    let t = table(conn, table_id)?;
    let Some(state) = TableState::parse(&t.state) else { return Ok(()) };
    let seated = seated_at(conn, table_id)?.len();
    let grace = Duration::minutes(profile.suspension_grace_min as i64);
    let decision = evaluate(state, seated, profile.min_players_to_run, t.suspended_at.map(|x| x.and_utc()), grace, now);
    let (new_state, suspended_at) = match decision {
        Transition::Stay => return Ok(()),
        Transition::Run => (TableState::Running, None),
        Transition::Suspend { .. } => (TableState::Suspended, Some(now.naive_utc())),
        Transition::Close => (TableState::Closed, None),
    };
    diesel::update(card_tables::table.find(table_id))
        .set((card_tables::state.eq(new_state.as_str()), card_tables::suspended_at.eq(suspended_at), card_tables::updated_at.eq(now.naive_utc())))
        .execute(conn)?;
    let after = table(conn, table_id)?;
    audit::record(conn, now, actor, "table.state", "table", Some(table_id), Some(&t), Some(&after))?;
    emit(conn, now, Some(table_id), "table.state", &serde_json::json!({ "table": t.number, "state": new_state, "decision": decision }))?;
    if new_state == TableState::Closed {
        // PT-2007 24: the game is closed and its players are offered seats elsewhere, so
        // they no longer hold seats here (BSOP 46), and open calls to it end.
        let calls: Vec<i64> = seat_calls::table
            .filter(seat_calls::table_id.eq(table_id))
            .filter(seat_calls::state.eq_any(["pending", "acknowledged"]))
            .select(seat_calls::id)
            .load(conn)?;
        cancel_open_calls(conn, now, &calls)?;
        for s in seated_at(conn, table_id)? {
            diesel::update(seatings::table.find(s.id).filter(seatings::left_at.is_null()))
                .set((seatings::left_at.eq(Some(now.naive_utc())), seatings::left_reason.eq(Some("table closed"))))
                .execute(conn)?;
            let after: SeatingRow = seatings::table.find(s.id).select(SeatingRow::as_select()).first(conn)?;
            audit::record(conn, now, actor, "seat.leave", "player", Some(s.player_id), Some(&s), Some(&after))?;
            emit(conn, now, Some(table_id), "seat.freed", &serde_json::json!({ "seat": s.seat_no, "player_id": s.player_id }))?;
        }
    }
    Ok(())
}

/// Opens a closed table for its game (waiting for players).
pub fn open_table(conn: &mut DbConn, now: DateTime<Utc>, actor: &Actor, table_id: i64) -> AppResult<TableRow> {
    let t = table(conn, table_id)?;
    if t.game_id.is_none() {
        return Err(conflict("err-table-no-game"));
    }
    if t.state != "closed" {
        return Err(conflict("err-table-already-open"));
    }
    diesel::update(card_tables::table.find(table_id).filter(card_tables::state.eq("closed")))
        .set((card_tables::state.eq("open"), card_tables::opened_at.eq(Some(now.naive_utc())), card_tables::updated_at.eq(now.naive_utc())))
        .execute(conn)?;
    let after = table(conn, table_id)?;
    audit::record(conn, now, actor, "table.open", "table", Some(table_id), Some(&t), Some(&after))?;
    emit(conn, now, Some(table_id), "table.state", &serde_json::json!({ "table": t.number, "state": "open" }))?;
    Ok(after)
}

/// The scheduler's pass: expires unanswered seat calls (the player goes to the bottom of
/// the list or off it, as the room decided, and the next is called), and closes suspended
/// tables whose 15 minutes ran out (PT-2007 24). Reads only stored times, so a restart
/// after a deadline acts at once.
pub fn tick(conn: &mut DbConn, now: DateTime<Utc>, tz: Tz, profile: &RuleProfile) -> AppResult<usize> {
    let system = Actor::system();
    let mut actions = 0;
    let due: Vec<SeatCallRow> = seat_calls::table
        .filter(seat_calls::state.eq_any(["pending", "acknowledged"]))
        .filter(seat_calls::respond_by.le(now.naive_utc()))
        .select(SeatCallRow::as_select())
        .load(conn)?;
    for c in due {
        diesel::update(seat_calls::table.find(c.id))
            .set((seat_calls::state.eq("expired"), seat_calls::resolved_at.eq(Some(now.naive_utc()))))
            .execute(conn)?;
        if let Some(eid) = c.entry_id {
            let e = entry(conn, eid)?;
            match profile.call_expiry {
                CallExpiry::Remove => {
                    end_entry(conn, now, &system, &e, "removed", "call expired", "list.call_expired")?;
                }
                CallExpiry::BottomOfList => {
                    let rest: Vec<Entry> = entries(conn, e.game_id)?.iter().filter(|r| r.id != eid).map(as_entry).collect();
                    let key = waitlist::key_at_bottom(&rest);
                    diesel::update(waitlist_entries::table.find(eid))
                        .set((waitlist_entries::state.eq("waiting"), waitlist_entries::order_key.eq(key)))
                        .execute(conn)?;
                    let note = serde_json::json!({ "call_id": c.id, "to": "bottom" });
                    audit::record::<(), _>(conn, now, &system, "list.call_expired", "player", Some(e.player_id), None, Some(&note))?;
                }
            }
        }
        emit(conn, now, Some(c.table_id), "seat.call_expired", &serde_json::json!({ "call_id": c.id, "seat": c.seat_no, "player_id": c.player_id }))?;
        actions += 1;
        // The seat is still free: call the next one, if anyone can take it.
        match call_next(conn, now, tz, profile, &system, c.table_id, c.seat_no) {
            Ok(_) | Err(AppError::Conflict(_)) => {}
            Err(e) => return Err(e),
        }
    }
    // Call-ins that were not checked in lapse.
    let lapsed: Vec<WaitlistRow> = waitlist_entries::table
        .filter(waitlist_entries::state.eq("waiting"))
        .filter(waitlist_entries::checked_in_at.is_null())
        .filter(waitlist_entries::call_in_expires_at.le(now.naive_utc()))
        .select(WaitlistRow::as_select())
        .load(conn)?;
    for e in lapsed {
        end_entry(conn, now, &system, &e, "lapsed", "call-in not checked in", "list.lapse")?;
        actions += 1;
    }
    let suspended: Vec<i64> = card_tables::table.filter(card_tables::state.eq("suspended")).select(card_tables::id).load(conn)?;
    for id in suspended {
        apply_table_rules(conn, now, profile, &system, id)?;
    }
    Ok(actions)
}

/// One seat on the dashboard.
#[derive(Debug, Clone, Serialize)]
pub struct SeatView {
    pub seat_no: i32,
    pub seating: Option<(SeatingRow, String)>,
    pub call: Option<(SeatCallRow, String)>,
    pub held: bool,
}

/// One table on the dashboard.
#[derive(Debug, Clone, Serialize)]
pub struct TableView {
    pub table: TableRow,
    pub game: Option<GameRow>,
    pub seats: Vec<SeatView>,
    pub seated: usize,
}

/// One game's list on the dashboard.
#[derive(Debug, Clone, Serialize)]
pub struct GameList {
    pub game: GameRow,
    pub lines: Vec<ListLine>,
    /// Interest list (no table of the game open or running): players still needed to start.
    pub needed: Option<usize>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Dashboard {
    pub tables: Vec<TableView>,
    pub lists: Vec<GameList>,
}

/// Everything the floor dashboard shows, in a fixed number of queries whatever the room's
/// size (tables, games, open seatings, open calls, holds, list entries).
pub fn dashboard(conn: &mut DbConn, now: DateTime<Utc>, profile: &RuleProfile) -> AppResult<Dashboard> {
    let tables: Vec<(TableRow, Option<GameRow>)> = card_tables::table
        .left_join(games::table)
        .filter(card_tables::active.eq(true))
        .order(card_tables::number.asc())
        .select((TableRow::as_select(), Option::<GameRow>::as_select()))
        .load(conn)?;
    let seated: Vec<(SeatingRow, PlayerRow)> = seatings::table
        .inner_join(players::table)
        .filter(seatings::left_at.is_null())
        .select((SeatingRow::as_select(), PlayerRow::as_select()))
        .load(conn)?;
    let calls: Vec<SeatCallRow> = seat_calls::table
        .filter(seat_calls::state.eq_any(["pending", "acknowledged"]))
        .select(SeatCallRow::as_select())
        .load(conn)?;
    let call_players: Vec<(i64, String)> = players::table
        .filter(players::id.eq_any(calls.iter().map(|c| c.player_id).collect::<Vec<_>>()))
        .select((players::id, players::alias))
        .load(conn)?;
    let holds: Vec<(i64, i32)> = seat_holds::table
        .filter(seat_holds::released_at.is_null())
        .select((seat_holds::table_id, seat_holds::seat_no))
        .load(conn)?;
    use std::collections::{HashMap, HashSet};
    let seated: HashMap<(i64, i32), (SeatingRow, String)> =
        seated.into_iter().map(|(s, p)| ((s.table_id, s.seat_no), (s, p.alias))).collect();
    let aliases: HashMap<i64, String> = call_players.into_iter().collect();
    let calls: HashMap<(i64, i32), (SeatCallRow, String)> = calls
        .into_iter()
        .map(|c| ((c.table_id, c.seat_no), (c.clone(), aliases.get(&c.player_id).cloned().unwrap_or_default())))
        .collect();
    let holds: HashSet<(i64, i32)> = holds.into_iter().collect();
    let mut views = Vec::with_capacity(tables.len());
    for (t, g) in tables {
        let seats = (1..=t.seats)
            .map(|n| SeatView {
                seat_no: n,
                seating: seated.get(&(t.id, n)).cloned(),
                call: calls.get(&(t.id, n)).cloned(),
                held: holds.contains(&(t.id, n)),
            })
            .collect::<Vec<_>>();
        let n = seats.iter().filter(|s| s.seating.is_some()).count();
        views.push(TableView { table: t, game: g, seats, seated: n });
    }
    let all_entries: Vec<(WaitlistRow, PlayerRow)> = waitlist_entries::table
        .inner_join(players::table)
        .filter(waitlist_entries::state.eq_any(ACTIVE))
        .select((WaitlistRow::as_select(), PlayerRow::as_select()))
        .load(conn)?;
    let games_list: Vec<GameRow> = games::table.filter(games::active.eq(true)).order(games::name.asc()).select(GameRow::as_select()).load(conn)?;
    let mut by_game: HashMap<i64, Vec<(WaitlistRow, PlayerRow)>> = HashMap::new();
    for (e, p) in all_entries {
        by_game.entry(e.game_id).or_default().push((e, p));
    }
    let mut lists = Vec::new();
    for g in games_list {
        let mine = by_game.remove(&g.id).unwrap_or_default();
        let domain: Vec<Entry> = mine.iter().map(|(e, _)| as_entry(e)).collect();
        let mut rows: HashMap<i64, (WaitlistRow, PlayerRow)> = mine.into_iter().map(|r| (r.0.id, r)).collect();
        let lines: Vec<ListLine> = waitlist::positions(&domain, now)
            .into_iter()
            .filter_map(|(id, place)| rows.remove(&id).map(|(entry, player)| ListLine { entry, player, place }))
            .collect();
        let running = views.iter().any(|v| v.table.game_id == Some(g.id) && matches!(v.table.state.as_str(), "open" | "running" | "suspended"));
        let needed = (!running).then(|| waitlist::players_needed(lines.len(), profile.min_players_to_run));
        lists.push(GameList { game: g, lines, needed });
    }
    Ok(Dashboard { tables: views, lists })
}
