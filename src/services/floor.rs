//! The floor's core loop: waiting lists, seat calls and seating, with every rule asked of
//! the domain and every change audited and pushed as an event in the same transaction.

use super::conflict;
use crate::db::audit::{self, Actor};
use crate::db::models::{
    GameRow, MustMoveRefusalRow, PlayerRow, SeatCallRow, SeatChangeRow, SeatHoldRow, SeatSideRow,
    SeatingRow, TableRow, WaitlistRow,
};
use crate::db::schema::{
    card_tables, dealer_shifts, events, games, must_move_refusals, players, seat_calls,
    seat_change_requests, seat_holds, seat_preferences, seatings, separations, staff,
    waitlist_entries,
};
use crate::db::{is_unique_violation, next_seq, DbConn};
use crate::domain::eligibility::Ineligible;
use crate::domain::profile::{CallExpiry, RuleProfile};
use crate::domain::table::{
    evaluate, may_rejoin_after_refusal, must_move_due, must_move_table, neediest_table,
    transfer_allowed, GameTable, MustMovePlayer, TableState, TransferRefusal, Transition,
};
use crate::domain::waitlist::{self, Candidate, Entry, PassOver, Place};
use crate::domain::{FieldError, Problem};
use crate::error::{AppError, AppResult};
use crate::notify::{self, messages, Kind, Params};
use crate::services::players as registry;
use chrono::{DateTime, Duration, Utc};
use chrono_tz::Tz;
use diesel::prelude::*;
use serde::Serialize;

const ACTIVE: [&str; 2] = ["waiting", "called"];

// State filters written as equalities joined by OR rather than `IN (…)`: diesel prepares an
// `IN` list afresh on every run, these once per connection (the statement cache), which
// matters on the hot path of calls and seatings.

/// A seat call still open: pending or acknowledged.
macro_rules! call_open {
    () => {
        seat_calls::state
            .eq("pending")
            .or(seat_calls::state.eq("acknowledged"))
    };
}

/// A list entry still active: waiting or called.
macro_rules! entry_active {
    () => {
        waitlist_entries::state
            .eq("waiting")
            .or(waitlist_entries::state.eq("called"))
    };
}

/// A table in play: open, running or suspended.
macro_rules! table_in_play {
    () => {
        card_tables::state
            .eq("open")
            .or(card_tables::state.eq("running"))
            .or(card_tables::state.eq("suspended"))
    };
}

mod board;
pub use board::*;

/// Appends an event to the push stream (same transaction as the change).
pub fn emit<P: Serialize>(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    table_id: Option<i64>,
    kind: &str,
    payload: &P,
) -> AppResult<i64> {
    let seq = next_seq(conn, "event")?;
    crate::native!(conn, |dbc| diesel::insert_into(events::table)
        .values((
            events::seq.eq(seq),
            events::at.eq(now.naive_utc()),
            events::table_id.eq(table_id),
            events::kind.eq(kind),
            events::payload.eq(serde_json::to_string(payload).unwrap_or_default()),
        ))
        .execute(dbc))?;
    // PostgreSQL: a trigger on `events` wakes the push hubs of every server process at
    // commit (migration 000015; `push` module documentation).
    // BSOP 36: chips removed into custody (services::table_side): the player is told how
    // much and where to reclaim them, in the same transaction.
    if kind == "custody.held" {
        if let Some(id) = serde_json::to_value(payload)
            .ok()
            .and_then(|v| v["custody_id"].as_i64())
        {
            tell_custody(conn, now, id)?;
        }
    }
    Ok(seq)
}

// ---- messages to players (issue 5; `crate::notify`) ----------------------------------------
// Each is put in the outbox in the transaction of the action that causes it.

/// BSOP 36: "your chips are in custody": amount, table, where they are kept.
fn tell_custody(conn: &mut DbConn, now: DateTime<Utc>, custody_id: i64) -> AppResult<()> {
    use crate::db::schema::chip_custody;
    let (player_id, table_id, amount, storage): (i64, i64, i64, String) =
        crate::native!(conn, |dbc| chip_custody::table
            .find(custody_id)
            .select((
                chip_custody::player_id,
                chip_custody::table_id,
                chip_custody::amount,
                chip_custody::storage
            ))
            .first(dbc))?;
    notify::tell(conn, now, player_id, Kind::Custody, |c, p| {
        p.table = Some(table(c, table_id)?.number);
        p.amount = Some(amount);
        p.storage = Some(storage);
        Ok(())
    })?;
    Ok(())
}

/// The seat call as the player hears it: "your seat is ready" (a list call) or "must-move:
/// move now" (BSOP 55, 57). Seat-change calls (PT-2007 12, BSOP 51) go to a player already
/// at the table: no message.
fn tell_call(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    t: &TableRow,
    call: &SeatCallRow,
    game_name: &mut GameName,
) -> AppResult<()> {
    let kind = match call.source.as_str() {
        "list" => Kind::SeatReady,
        "must_move" => Kind::MustMove,
        _ => return Ok(()),
    };
    notify::tell(conn, now, call.player_id, kind, |c, p| {
        p.game = game_name.get(c)?;
        p.table = Some(t.number);
        p.seat = Some(call.seat_no);
        p.respond_by = Some(call.respond_by.and_utc());
        Ok(())
    })?;
    Ok(())
}

/// A message about a list entry, with the game's name.
fn tell_entry(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    e: &WaitlistRow,
    kind: Kind,
    fill: impl FnOnce(&mut Params),
) -> AppResult<()> {
    tell_entry_of_game(conn, now, e, kind, &mut GameName::of(Some(e.game_id)), fill)
}

/// [`tell_entry`] with the game's name shared among a change's messages (read once, and
/// only for a player some channel reaches).
fn tell_entry_of_game(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    e: &WaitlistRow,
    kind: Kind,
    game_name: &mut GameName,
    fill: impl FnOnce(&mut Params),
) -> AppResult<()> {
    notify::tell(conn, now, e.player_id, kind, |c, p| {
        p.game = game_name.get(c)?;
        fill(p);
        Ok(())
    })?;
    Ok(())
}

/// "You are next" (first in line among the players waiting to be called) and "nearly next"
/// (second and third), each once per list entry and "nearly next" never after "next"
/// (`notify_marks`). Runs after every change that can move the head of a list. `quiet`: an
/// entry marked without a message (a player who just joined is told the place in the
/// "added" message).
fn notify_heads(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    game_id: i64,
    quiet: Option<i64>,
) -> AppResult<()> {
    notify_heads_of(conn, now, &mut GameName::of(Some(game_id)), quiet)
}

/// A game's name, read once for all the messages of one change (issue 14: statements).
struct GameName {
    id: Option<i64>,
    name: Option<Option<String>>,
}

impl GameName {
    fn of(id: Option<i64>) -> GameName {
        GameName { id, name: None }
    }

    fn get(&mut self, conn: &mut DbConn) -> AppResult<Option<String>> {
        if self.name.is_none() {
            self.name = Some(self.id.map(|g| game(conn, g)).transpose()?.map(|g| g.name));
        }
        Ok(self.name.clone().flatten())
    }
}

/// [`notify_heads`] with the game's name shared with the change's other messages.
fn notify_heads_of(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    game_name: &mut GameName,
    quiet: Option<i64>,
) -> AppResult<()> {
    let Some(game_id) = game_name.id else {
        return Ok(());
    };
    let rows = waiting_page(conn, game_id, 0, 8)?;
    let head: Vec<&WaitlistRow> = rows
        .iter()
        .filter(|r| !as_entry(r).lapsed(now))
        .take(messages::NEARLY_NEXT_UP_TO)
        .collect();
    if head.is_empty() {
        return Ok(());
    }
    let marks = messages::marks_of(conn, &head.iter().map(|e| e.id).collect::<Vec<_>>())?;
    let has = |id: i64, k: Kind| marks.iter().any(|(e, m)| *e == id && m == k.as_str());
    for (i, e) in head.into_iter().enumerate() {
        let kind = if i == 0 { Kind::Next } else { Kind::NearlyNext };
        if has(e.id, Kind::Next) || (kind == Kind::NearlyNext && has(e.id, Kind::NearlyNext)) {
            continue;
        }
        messages::mark_once(conn, now, e.id, kind)?;
        if quiet != Some(e.id) {
            tell_entry_of_game(conn, now, e, kind, game_name, |p| {
                p.position = Some(i as i64 + 1)
            })?;
        }
    }
    Ok(())
}

/// The place a player who just joined (at the bottom) has: everyone on the list who has not
/// lapsed, this player included (PT-2007 8a, as `domain::waitlist::positions` counts).
fn place_at_bottom(conn: &mut DbConn, now: DateTime<Utc>, game_id: i64) -> AppResult<i64> {
    let t = now.naive_utc();
    Ok(crate::native!(conn, |dbc| waitlist_entries::table
        .filter(waitlist_entries::game_id.eq(game_id))
        .filter(entry_active!())
        .filter(
            waitlist_entries::call_in_expires_at
                .is_null()
                .or(waitlist_entries::checked_in_at.is_not_null())
                .or(waitlist_entries::call_in_expires_at.gt(t)),
        )
        .count()
        .get_result(dbc))?)
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
    Ok(crate::native!(conn, |dbc| games::table
        .find(id)
        .select(GameRow::as_select())
        .first(dbc))?)
}

fn table(conn: &mut DbConn, id: i64) -> AppResult<TableRow> {
    Ok(crate::native!(conn, |dbc| card_tables::table
        .find(id)
        .select(TableRow::as_select())
        .first(dbc))?)
}

fn entries(conn: &mut DbConn, game_id: i64) -> AppResult<Vec<WaitlistRow>> {
    Ok(crate::native!(conn, |dbc| waitlist_entries::table
        .filter(waitlist_entries::game_id.eq(game_id))
        .filter(entry_active!())
        .select(WaitlistRow::as_select())
        .load(dbc))?)
}

/// The key for the bottom of a game's list. Keys only ever grow within a game (the maximum
/// over every entry it ever had, seated or removed ones included), so the order of players
/// who were seated from the list stays comparable with later ones: the must-move order
/// (BSOP 55) reads it.
fn bottom_key(conn: &mut DbConn, game_id: i64) -> AppResult<i64> {
    let max: Option<i64> = crate::native!(conn, |dbc| waitlist_entries::table
        .filter(waitlist_entries::game_id.eq(game_id))
        .select(diesel::dsl::max(waitlist_entries::order_key))
        .first(dbc))?;
    Ok(max.map_or(waitlist::KEY_STEP, |k| k + waitlist::KEY_STEP))
}

/// A page of a game's waiting entries (not yet called), in list order: calling the next
/// player reads only as far down the list as it has to.
fn waiting_page(
    conn: &mut DbConn,
    game_id: i64,
    offset: i64,
    limit: i64,
) -> AppResult<Vec<WaitlistRow>> {
    Ok(crate::native!(conn, |dbc| waitlist_entries::table
        .filter(waitlist_entries::game_id.eq(game_id))
        .filter(waitlist_entries::state.eq("waiting"))
        .order((
            waitlist_entries::order_key.asc(),
            waitlist_entries::joined_at.asc(),
            waitlist_entries::id.asc()
        ))
        .offset(offset)
        .limit(limit)
        .select(WaitlistRow::as_select())
        .load(dbc))?)
}

fn as_entry(r: &WaitlistRow) -> Entry {
    Entry {
        id: r.id,
        player_id: r.player_id,
        order_key: r.order_key,
        joined_at: r.joined_at.and_utc(),
        call_in_expires_at: if r.checked_in_at.is_some() {
            None
        } else {
            r.call_in_expires_at.map(|t| t.and_utc())
        },
        called: r.state == "called",
    }
}

/// One line of a waiting list as pages and the API show it.
#[derive(Debug, Clone, Serialize)]
pub struct ListLine {
    pub entry: WaitlistRow,
    pub player: PlayerRow,
    pub place: Place,
    /// Estimated wait in minutes, from the game's measured seat turnover (None: not enough
    /// history yet).
    pub wait_min: Option<i64>,
    /// Issue 18 §4: the player's seat preference, for the floor to see.
    pub pref: Option<crate::services::seat_prefs::PrefSummary>,
}

/// How many recent seat openings of a game the wait estimate looks at.
const TURNOVER_SAMPLE: i64 = 12;

/// The times seats of a game were freed recently (newest first), for wait estimates.
pub fn recent_openings(conn: &mut DbConn, game_id: i64) -> AppResult<Vec<DateTime<Utc>>> {
    let t: Vec<chrono::NaiveDateTime> = crate::native!(conn, |dbc| seatings::table
        .filter(seatings::game_id.eq(game_id))
        .filter(seatings::left_at.is_not_null())
        .order(seatings::left_at.desc())
        .limit(TURNOVER_SAMPLE)
        .select(seatings::left_at.assume_not_null())
        .load(dbc))?;
    Ok(t.into_iter().map(|x| x.and_utc()).collect())
}

fn wait_minutes(ahead: usize, openings: &[DateTime<Utc>]) -> Option<i64> {
    waitlist::estimated_wait(ahead, openings).map(|d| (d.num_seconds() + 59) / 60)
}

/// PT-2007 8a: a game's list in order, with each player's place (one computation for every
/// page, the API and the player's link).
pub fn list(conn: &mut DbConn, game_id: i64, now: DateTime<Utc>) -> AppResult<Vec<ListLine>> {
    game(conn, game_id)?;
    let rows: Vec<(WaitlistRow, PlayerRow)> = crate::native!(conn, |dbc| waitlist_entries::table
        .inner_join(players::table)
        .filter(waitlist_entries::game_id.eq(game_id))
        .filter(entry_active!())
        .select((WaitlistRow::as_select(), PlayerRow::as_select()))
        .load(dbc))?;
    let domain: Vec<Entry> = rows.iter().map(|(e, _)| as_entry(e)).collect();
    let openings = recent_openings(conn, game_id)?;
    let prefs = crate::services::seat_prefs::of_players(
        conn,
        &rows.iter().map(|(e, _)| e.player_id).collect::<Vec<_>>(),
    )?;
    let mut by_id: std::collections::HashMap<i64, (WaitlistRow, PlayerRow)> =
        rows.into_iter().map(|r| (r.0.id, r)).collect();
    Ok(waitlist::positions(&domain, now)
        .into_iter()
        .filter_map(|(id, place)| {
            by_id.remove(&id).map(|(entry, player)| ListLine {
                pref: prefs
                    .get(&player.id)
                    .and_then(crate::services::seat_prefs::PrefSummary::of),
                entry,
                player,
                place,
                wait_min: wait_minutes(place.ahead, &openings),
            })
        })
        .collect())
}

/// One entry's place on its game's list and its estimated wait in minutes, as [`list`] and
/// the dashboard give it (`domain::waitlist::positions` over the game's active entries:
/// list order by key, then joining time, then id; lapsed call-ins left out), counted in the
/// database instead of loading the list: the entries before this one, and all of them
/// (`tests/http/invariants.rs` checks both ways agree). For the player's own link: reads no
/// other player's record. None: the entry is not on the list (ended, or a lapsed call-in).
pub fn place_of(
    conn: &mut DbConn,
    game_id: i64,
    entry_id: i64,
    now: DateTime<Utc>,
) -> AppResult<Option<(Place, Option<i64>)>> {
    let Some(e) = crate::native!(conn, |dbc| waitlist_entries::table
        .find(entry_id)
        .filter(waitlist_entries::game_id.eq(game_id))
        .filter(entry_active!())
        .select(WaitlistRow::as_select())
        .first(dbc)
        .optional())?
    else {
        return Ok(None);
    };
    if as_entry(&e).lapsed(now) {
        return Ok(None);
    }
    let t = now.naive_utc();
    let (k, j, id) = (e.order_key, e.joined_at, e.id);
    let ahead: i64 = crate::native!(conn, |dbc| waitlist_entries::table
        .filter(waitlist_entries::game_id.eq(game_id))
        .filter(entry_active!())
        .filter(
            waitlist_entries::call_in_expires_at
                .is_null()
                .or(waitlist_entries::checked_in_at.is_not_null())
                .or(waitlist_entries::call_in_expires_at.gt(t)),
        )
        .filter(
            waitlist_entries::order_key
                .lt(k)
                .or(waitlist_entries::order_key
                    .eq(k)
                    .and(waitlist_entries::joined_at.lt(j)))
                .or(waitlist_entries::order_key
                    .eq(k)
                    .and(waitlist_entries::joined_at.eq(j))
                    .and(waitlist_entries::id.lt(id))),
        )
        .count()
        .get_result(dbc))?;
    let of = place_at_bottom(conn, now, game_id)?;
    let place = Place {
        position: ahead as usize + 1,
        ahead: ahead as usize,
        of: of as usize,
    };
    let openings = recent_openings(conn, game_id)?;
    Ok(Some((place, wait_minutes(place.ahead, &openings))))
}

/// BSOP 43: the player leaves a list from their own link ("leave this list"): ended as the
/// floor's removal ends it ([`remove`]: an open call for it is cancelled, the entry is
/// `removed` with the reason, audited as `list.leave` with the player as the actor, pushed),
/// without the "removed" message — the player did it and sees it on the page.
pub fn leave_by_player(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    actor: &Actor,
    entry_id: i64,
) -> AppResult<WaitlistRow> {
    let e = entry(conn, entry_id)?;
    if !ACTIVE.contains(&e.state.as_str()) {
        return Err(conflict("err-entry-not-active"));
    }
    cancel_calls_of_entry(conn, now, actor, entry_id)?;
    end_entry(
        conn,
        now,
        actor,
        &e,
        "removed",
        LEFT_BY_PLAYER,
        "list.leave",
    )
}

/// The end reason of an entry the player left from their link.
pub const LEFT_BY_PLAYER: &str = "left by the player";

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
    // BSOP 55: a must-move player who refused to move and chose to come back later may
    // re-join this game's list only after the return window (one hour).
    refuse_before_rejoin(conn, profile, tz, game_id, player_id, now)?;
    let already: i64 = crate::native!(conn, |dbc| waitlist_entries::table
        .filter(waitlist_entries::game_id.eq(game_id))
        .filter(waitlist_entries::player_id.eq(player_id))
        .filter(entry_active!())
        .count()
        .get_result(dbc))?;
    if already > 0 {
        return Err(conflict("err-already-on-list"));
    }
    let row = WaitlistRow {
        id: next_seq(conn, "waitlist")?,
        game_id,
        player_id,
        order_key: bottom_key(conn, game_id)?,
        joined_at: now.naive_utc(),
        source: if call_in { "call_in" } else { "desk" }.into(),
        call_in_expires_at: call_in
            .then(|| (now + Duration::minutes(profile.call_in_expiry_min as i64)).naive_utc()),
        checked_in_at: None,
        state: "waiting".into(),
        ended_at: None,
        end_reason: None,
        created_by: actor.id,
    };
    crate::native!(conn, |dbc| diesel::insert_into(waitlist_entries::table)
        .values(&row)
        .execute(dbc))
    .map_err(|e| {
        if is_unique_violation(&e) {
            conflict("err-already-on-list")
        } else {
            e.into()
        }
    })?;
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "list.join",
        "player",
        Some(player_id),
        None,
        Some(&row),
    )?;
    emit(
        conn,
        now,
        None,
        "list.changed",
        &serde_json::json!({ "game_id": game_id }),
    )?;
    // BSOP 43: the player is told the place and gets the link to follow it.
    let place = place_at_bottom(conn, now, game_id)?;
    tell_entry(conn, now, &row, Kind::Added, |p| p.position = Some(place))?;
    notify_heads(conn, now, game_id, Some(row.id))?;
    Ok(row)
}

/// One list entry, whatever its state.
pub fn entry(conn: &mut DbConn, id: i64) -> AppResult<WaitlistRow> {
    Ok(crate::native!(conn, |dbc| waitlist_entries::table
        .find(id)
        .select(WaitlistRow::as_select())
        .first(dbc))?)
}

fn end_entry(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    actor: &Actor,
    e: &WaitlistRow,
    state: &str,
    reason: &str,
    action: &str,
) -> AppResult<WaitlistRow> {
    let n = crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(waitlist_entries::table.find(e.id).filter(entry_active!()))
            .set((
                waitlist_entries::state.eq(state),
                waitlist_entries::ended_at.eq(Some(now.naive_utc())),
                waitlist_entries::end_reason.eq(Some(reason)),
            ))
            .returning(waitlist_entries::id)
    )
    .changed(dbc))?;
    if n != 1 {
        return Err(conflict("err-entry-not-active"));
    }
    let after = entry(conn, e.id)?;
    list_changed(conn, now, actor, action, e, &after)?;
    notify_heads(conn, now, e.game_id, None)?;
    Ok(after)
}

/// A list entry changed: the audit record (before and after) and the event the floor's
/// board and the players' pages follow.
fn list_changed(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    actor: &Actor,
    action: &str,
    before: &WaitlistRow,
    after: &WaitlistRow,
) -> AppResult<()> {
    audit::record(
        conn,
        now,
        actor,
        action,
        "player",
        Some(before.player_id),
        Some(before),
        Some(after),
    )?;
    emit(
        conn,
        now,
        None,
        "list.changed",
        &serde_json::json!({ "game_id": before.game_id }),
    )?;
    Ok(())
}

/// Takes a player off a list (their choice or the floor's), with a reason.
pub fn remove(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    actor: &Actor,
    entry_id: i64,
    reason: &str,
) -> AppResult<WaitlistRow> {
    let e = entry(conn, entry_id)?;
    let reason = reason.trim();
    if reason.is_empty() {
        return Err(AppError::field("reason", "err-required"));
    }
    // A pending call for this entry is cancelled with it.
    cancel_calls_of_entry(conn, now, actor, entry_id)?;
    let after = end_entry(conn, now, actor, &e, "removed", reason, "list.remove")?;
    tell_entry(conn, now, &e, Kind::Removed, |_| {})?;
    Ok(after)
}

/// How long after a removal from a list the floor may undo it (issue 17 §2: a slip of the
/// hand on a busy night is put right at once, before anyone else moved up for long).
pub const UNDO_REMOVAL_SECS: i64 = 10;

/// Undoes a removal from a list made less than [`UNDO_REMOVAL_SECS`] ago: the entry waits
/// again at its old place (its order key is kept: PT-2007 12, BSOP 51 order is unchanged).
/// A call the removal cancelled stays cancelled (the seat was freed for someone else). Refused
/// when the player is on that list again, seated at the game, or the time has passed.
pub fn restore(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    actor: &Actor,
    entry_id: i64,
) -> AppResult<WaitlistRow> {
    let e = entry(conn, entry_id)?;
    let recent = e
        .ended_at
        .is_some_and(|t| (now - t.and_utc()).num_seconds() <= UNDO_REMOVAL_SECS);
    if e.state != "removed" || !recent {
        return Err(conflict("err-undo-too-late"));
    }
    let seated: bool = crate::native!(conn, |dbc| diesel::select(diesel::dsl::exists(
        seatings::table
            .filter(seatings::player_id.eq(e.player_id))
            .filter(seatings::left_at.is_null())
    ))
    .get_result(dbc))?;
    if seated {
        return Err(conflict("err-already-seated"));
    }
    let n = crate::native!(conn, |dbc| diesel::update(
        waitlist_entries::table
            .find(e.id)
            .filter(waitlist_entries::state.eq("removed"))
    )
    .set((
        waitlist_entries::state.eq("waiting"),
        waitlist_entries::ended_at.eq(None::<chrono::NaiveDateTime>),
        waitlist_entries::end_reason.eq(None::<String>),
    ))
    .execute(dbc))
    .map_err(|e| {
        if is_unique_violation(&e) {
            conflict("err-already-on-list")
        } else {
            e.into()
        }
    })?;
    if n != 1 {
        return Err(conflict("err-undo-too-late"));
    }
    let after = entry(conn, e.id)?;
    list_changed(conn, now, actor, "list.restore", &e, &after)?;
    // The player was told they left the list: they are told they are back, at which place.
    let place = place_of(conn, after.game_id, after.id, now)?.map(|(p, _)| p.position);
    tell_entry(conn, now, &after, Kind::Added, |p| {
        p.position = place.map(|n| n as i64)
    })?;
    notify_heads(conn, now, e.game_id, None)?;
    Ok(after)
}

fn cancel_calls_of_entry(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    actor: &Actor,
    entry_id: i64,
) -> AppResult<()> {
    let ids: Vec<i64> = crate::native!(conn, |dbc| seat_calls::table
        .filter(seat_calls::entry_id.eq(entry_id))
        .filter(call_open!())
        .select(seat_calls::id)
        .load(dbc))?;
    cancel_open_calls(conn, now, actor, &ids)
}

/// Moves a player to another place on the list; the floor must say why (audited).
pub fn reorder(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    actor: &Actor,
    entry_id: i64,
    position: i64,
    reason: &str,
) -> AppResult<()> {
    let e = entry(conn, entry_id)?;
    if !ACTIVE.contains(&e.state.as_str()) {
        return Err(conflict("err-entry-not-active"));
    }
    if reason.trim().is_empty() {
        return Err(AppError::field("reason", "err-required"));
    }
    if position < 1 {
        return Err(AppError::Validation(vec![FieldError::new(
            "position",
            "err-range",
        )
        .arg("min", 1)
        .arg("max", 9999)]));
    }
    let rows = entries(conn, e.game_id)?;
    // Positions as the screens show them: lapsed call-ins do not count.
    let domain: Vec<Entry> = rows
        .iter()
        .map(as_entry)
        .filter(|x| !x.lapsed(now))
        .collect();
    let before = waitlist::place_of(&domain, entry_id, now);
    for (id, key) in waitlist::reorder(&domain, entry_id, position as usize) {
        crate::native!(conn, |dbc| crate::db::Cached(
            diesel::update(waitlist_entries::table.find(id))
                .set(waitlist_entries::order_key.eq(key))
                .returning(waitlist_entries::id)
        )
        .changed(dbc))?;
    }
    let note = serde_json::json!({ "entry_id": entry_id, "from": before.map(|p| p.position), "to": position, "reason": reason.trim() });
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "list.reorder",
        "player",
        Some(e.player_id),
        None,
        Some(&note),
    )?;
    emit(
        conn,
        now,
        None,
        "list.changed",
        &serde_json::json!({ "game_id": e.game_id }),
    )?;
    notify_heads(conn, now, e.game_id, None)?;
    Ok(())
}

/// A call-in arrives at the desk: their entry no longer lapses.
pub fn check_in(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    actor: &Actor,
    entry_id: i64,
) -> AppResult<WaitlistRow> {
    let e = entry(conn, entry_id)?;
    if !ACTIVE.contains(&e.state.as_str()) || e.checked_in_at.is_some() || e.source != "call_in" {
        return Err(conflict("err-entry-not-call-in"));
    }
    if e.call_in_expires_at.is_some_and(|t| t.and_utc() <= now) {
        return Err(conflict("err-call-in-lapsed"));
    }
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(waitlist_entries::table.find(entry_id))
            .set(waitlist_entries::checked_in_at.eq(Some(now.naive_utc())))
            .returning(waitlist_entries::id)
    )
    .changed(dbc))?;
    let after = entry(conn, entry_id)?;
    list_changed(conn, now, actor, "list.check_in", &e, &after)?;
    Ok(after)
}

/// Players seated at a table now.
/// How many players sit at a table.
pub fn seated_count(conn: &mut DbConn, table_id: i64) -> AppResult<usize> {
    let n: i64 = crate::native!(conn, |dbc| seatings::table
        .filter(seatings::table_id.eq(table_id))
        .filter(seatings::left_at.is_null())
        .count()
        .get_result(dbc))?;
    Ok(n as usize)
}

pub fn seated_at(conn: &mut DbConn, table_id: i64) -> AppResult<Vec<SeatingRow>> {
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
    table_id: i64,
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
fn separated_from(conn: &mut DbConn, player_id: i64) -> AppResult<Vec<i64>> {
    let rows: Vec<(i64, i64)> = crate::native!(conn, |dbc| separations::table
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

fn has_open_call(conn: &mut DbConn, player_id: i64) -> AppResult<bool> {
    Ok(crate::native!(conn, |dbc| seat_calls::table
        .filter(seat_calls::player_id.eq(player_id))
        .filter(call_open!())
        .count()
        .get_result::<i64>(dbc))?
        > 0)
}

/// Cancels open seat calls; the list entries they called go back to waiting, in their place.
fn cancel_open_calls(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    actor: &Actor,
    call_ids: &[i64],
) -> AppResult<()> {
    if call_ids.is_empty() {
        return Ok(());
    }
    let open: Vec<SeatCallRow> = crate::native!(conn, |dbc| seat_calls::table
        .filter(seat_calls::id.eq_any(call_ids))
        .filter(call_open!())
        .select(SeatCallRow::as_select())
        .load(dbc))?;
    for c in open {
        crate::native!(conn, |dbc| crate::db::Cached(
            diesel::update(seat_calls::table.find(c.id))
                .set((
                    seat_calls::state.eq("cancelled"),
                    seat_calls::resolved_at.eq(Some(now.naive_utc()))
                ))
                .returning(seat_calls::id)
        )
        .changed(dbc))?;
        // The player keeps their place on the list.
        if let Some(eid) = c.entry_id {
            crate::native!(conn, |dbc| crate::db::Cached(
                diesel::update(
                    waitlist_entries::table
                        .find(eid)
                        .filter(waitlist_entries::state.eq("called"))
                )
                .set(waitlist_entries::state.eq("waiting"))
                .returning(waitlist_entries::id)
            )
            .changed(dbc))?;
        }
        audit::record::<SeatCallRow, ()>(
            conn,
            now,
            actor,
            "seat.call_cancelled",
            "player",
            Some(c.player_id),
            Some(&c),
            None,
        )?;
        emit(
            conn,
            now,
            Some(c.table_id),
            "seat.call_cancelled",
            &serde_json::json!({ "call_id": c.id, "seat": c.seat_no, "player_id": c.player_id }),
        )?;
    }
    Ok(())
}

/// Whether a player has an open seat call (other than `except_call`), and whether they hold
/// a seat (BSOP 46), in one statement: what calling or seating a listed player checks first
/// (issue 14: statements per call and per seating).
fn called_or_seated(
    conn: &mut DbConn,
    player_id: i64,
    except_call: Option<i64>,
) -> AppResult<(bool, bool)> {
    let (called, seated, _) = call_checks(conn, player_id, except_call)?;
    Ok((called, seated))
}

/// [`called_or_seated`], and whether the player stated a seat preference (issue 18 §4), in
/// the same statement: a call reads the preference only for those who have one.
fn call_checks(
    conn: &mut DbConn,
    player_id: i64,
    except_call: Option<i64>,
) -> AppResult<(bool, bool, bool)> {
    use diesel::dsl::exists;
    Ok(crate::native!(conn, |dbc| diesel::select((
        exists(
            seat_calls::table
                .filter(seat_calls::player_id.eq(player_id))
                .filter(call_open!())
                .filter(seat_calls::id.ne(except_call.unwrap_or(-1)))
        ),
        exists(
            seatings::table
                .filter(seatings::player_id.eq(player_id))
                .filter(seatings::left_at.is_null())
        ),
        exists(seat_preferences::table.filter(seat_preferences::player_id.eq(player_id)))
    ))
    .get_result::<(bool, bool, bool)>(dbc))?)
}

/// BSOP 46: does this player hold a seat at any table?
pub fn seated_at_any(conn: &mut DbConn, player_id: i64) -> AppResult<bool> {
    Ok(crate::native!(conn, |dbc| seatings::table
        .filter(seatings::player_id.eq(player_id))
        .filter(seatings::left_at.is_null())
        .count()
        .get_result::<i64>(dbc))?
        > 0)
}

/// Why a seat cannot be given now (the seat itself, not the player). A seat held for a
/// named player (BSOP 49) is free for that player only (`for_player`).
/// Judged by the clock (`now`), not by whether the scheduler has run: a suspended table
/// past its close deadline (PT-2007 24) and a hold past its `until` are over already.
fn check_seat_free(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    profile: &RuleProfile,
    t: &TableRow,
    seat_no: i32,
    except_call: Option<i64>,
    for_player: Option<i64>,
) -> AppResult<Option<SeatHoldRow>> {
    let last = t.seats + i32::from(t.extra_seat);
    if !(1..=last).contains(&seat_no) {
        // The table's own size (the document bounds the number itself: 1 to 12).
        return Err(AppError::Validation(vec![FieldError::new(
            "seat_no",
            "err-no-such-seat",
        )
        .arg("max", last)]));
    }
    if !matches!(
        TableState::parse(&t.state),
        Some(TableState::Open | TableState::Running | TableState::Suspended)
    ) {
        return Err(conflict("err-table-not-open"));
    }
    check_not_closing(now, profile, t)?;
    let taken: i64 = crate::native!(conn, |dbc| seatings::table
        .filter(seatings::table_id.eq(t.id))
        .filter(seatings::seat_no.eq(seat_no))
        .filter(seatings::left_at.is_null())
        .count()
        .get_result(dbc))?;
    if taken > 0 {
        return Err(conflict("err-seat-taken"));
    }
    let calls: Vec<SeatCallRow> = crate::native!(conn, |dbc| seat_calls::table
        .filter(seat_calls::table_id.eq(t.id))
        .filter(seat_calls::seat_no.eq(seat_no))
        .filter(call_open!())
        .filter(seat_calls::id.ne(except_call.unwrap_or(-1)))
        .select(SeatCallRow::as_select())
        .load(dbc))?;
    let system = Actor::system();
    for c in &calls {
        // A call whose response window is over no longer reserves the seat: expired now,
        // with the bookkeeping the scheduler's next pass would have done.
        if c.respond_by.and_utc() > now || !expire_call(conn, now, profile, &system, c)? {
            return Err(conflict("err-seat-called"));
        }
    }
    // BSOP 45, 49: a held seat is not called nor given, except to the player it is held for
    // (that hold is answered: the seating that follows ends it without reading it again).
    match active_hold(conn, now, t.id, seat_no)? {
        Some(h) if for_player.is_none() || h.player_id != for_player => {
            Err(conflict("err-seat-held"))
        }
        hold => Ok(hold),
    }
}

/// PT-2007 24: a suspended table whose grace ran out is closed by the clock, even before
/// the scheduler's pass does the closing: nothing is called, seated or held for it.
fn check_not_closing(now: DateTime<Utc>, profile: &RuleProfile, t: &TableRow) -> AppResult<()> {
    let grace = Duration::minutes(profile.suspension_grace_min as i64);
    let state = TableState::parse(&t.state).unwrap_or(TableState::Closed);
    if crate::domain::table::suspension_over(state, t.suspended_at.map(|x| x.and_utc()), grace, now)
    {
        return Err(AppError::Conflict(
            Problem::new("err-table-suspension-over")
                .arg("table", t.number)
                .arg("minutes", profile.suspension_grace_min),
        ));
    }
    Ok(())
}

/// Why a player cannot sit at this table now (the player, not the seat).
/// `seated`: whether the player holds a seat, when the caller has read it already.
fn player_may_sit_row(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    tz: Tz,
    t: &TableRow,
    p: &PlayerRow,
    seated: Option<bool>,
) -> AppResult<Option<PassOver>> {
    let player_id = p.id;
    if !registry::eligibility(conn, p, now, tz)?.is_empty() {
        return Ok(Some(PassOver::Ineligible));
    }
    // BSOP 46: a player may not hold a seat at more than one table.
    let seated = match seated {
        Some(s) => s,
        None => seated_at_any(conn, player_id)?,
    };
    if seated {
        return Ok(Some(PassOver::AlreadySeated));
    }
    // BSOP 47: never at the same table as someone they are kept apart from.
    let apart = separated_from(conn, player_id)?;
    if !apart.is_empty()
        && seated_at(conn, t.id)?
            .iter()
            .any(|s| apart.contains(&s.player_id))
    {
        return Ok(Some(PassOver::Separated));
    }
    Ok(None)
}

fn pass_over_error(
    p: PassOver,
    conn: &mut DbConn,
    now: DateTime<Utc>,
    tz: Tz,
    player_id: i64,
) -> AppResult<AppError> {
    Ok(match p {
        PassOver::Ineligible => {
            let pl = registry::get(conn, player_id)?;
            ineligible_error(&registry::eligibility(conn, &pl, now, tz)?)
        }
        PassOver::AlreadySeated => conflict("err-already-seated"),
        PassOver::Separated => conflict("err-separated-at-table"),
        PassOver::AlreadyCalled => conflict("err-already-called"),
        PassOver::Lapsed => conflict("err-call-in-lapsed"),
        PassOver::WaitsForSeat => conflict("err-waits-for-preferred-seat"),
    })
}

/// PT-2007 12, BSOP 51: a seat is free — call the next player for it: seat-change requests
/// at this table first (first asked, first served), then, at a main table of a game with a
/// must-move table, the must-move player due (BSOP 55, 57), then the waiting list in order,
/// passing over who cannot take it. The call reserves the seat for the response window and
/// is pushed to the table.
pub fn call_next(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    tz: Tz,
    profile: &RuleProfile,
    actor: &Actor,
    table_id: i64,
    seat_no: i32,
) -> AppResult<SeatCallRow> {
    let t = table(conn, table_id)?;
    check_seat_free(conn, now, profile, &t, seat_no, None, None)?;
    let game_id = t.game_id.ok_or_else(|| conflict("err-table-no-game"))?;
    // Seat-change requests of players still seated here and not already called elsewhere.
    let requests: Vec<(i64, chrono::NaiveDateTime)> =
        crate::native!(conn, |dbc| seat_change_requests::table
            .filter(seat_change_requests::table_id.eq(table_id))
            .filter(seat_change_requests::state.eq("open"))
            .select((
                seat_change_requests::player_id,
                seat_change_requests::requested_at
            ))
            .load(dbc))?;
    let here: Vec<i64> = if requests.is_empty() {
        Vec::new()
    } else {
        seated_at(conn, table_id)?
            .iter()
            .map(|s| s.player_id)
            .collect()
    };
    let mut changes: Vec<(i64, DateTime<Utc>)> = Vec::new();
    for (p, at) in requests {
        if here.contains(&p) && !has_open_call(conn, p)? {
            changes.push((p, at.and_utc()));
        }
    }
    // BSOP 55, 57: a seat at a main game goes to the must-move players first.
    let (due, must_move_waits) = must_move_due_for(conn, now, tz, &t, game_id)?;
    // The domain picks in order; whether a listed player may take this seat needs the
    // database, asked lazily (only until someone can), reading the list a page at a time.
    // A short first page (the next player is usually among the first few), longer ones after.
    let mut page = 8;
    let mut offset = 0;
    // The last listed player checked, kept for the call (their alias: no second read).
    let checked: std::cell::RefCell<Option<PlayerRow>> = std::cell::RefCell::new(None);
    // Issue 18 §4: the table's free and accessible seats (read once, for the first player
    // with a preference), another seat offered to a player it fits better, and the entries
    // passed over because their players wait for a preferred seat.
    let seats_now: std::cell::RefCell<Option<(Vec<i32>, Vec<i32>)>> = Default::default();
    let offered: std::cell::Cell<Option<(i64, i32)>> = Default::default();
    let waiting: std::cell::RefCell<Vec<i64>> = Default::default();
    let pick = loop {
        let rows = waiting_page(conn, game_id, offset, page)?;
        let domain: Vec<Entry> = rows.iter().map(as_entry).collect();
        let db = std::cell::RefCell::new(&mut *conn);
        let failure = std::cell::RefCell::new(None);
        let pick = waitlist::next_for_seat(&changes, &due, &domain, now, |p| {
            let mut c = db.borrow_mut();
            // A player already called to another table (another list) waits for that answer:
            // passed over here, keeping the place (one open call per player).
            let verdict = match call_checks(&mut c, p, None) {
                Ok((true, _, _)) => Ok(Some(PassOver::AlreadyCalled)),
                Ok((false, seated, has_pref)) => match registry::get(&mut c, p).and_then(|row| {
                    let why = player_may_sit_row(&mut c, now, tz, &t, &row, Some(seated));
                    *checked.borrow_mut() = Some(row);
                    why
                }) {
                    // BSOP 55: who refused a must-move and gave up may not play at that
                    // must-move table (the domain has no reason of its own for it: passed over
                    // as not able to play here, keeping the place).
                    Ok(None) => barred_from_table(&mut c, p, &t).and_then(|barred| {
                        if barred {
                            return Ok(Some(PassOver::Ineligible));
                        }
                        if !has_pref {
                            return Ok(None);
                        }
                        let entry = rows.iter().find(|r| r.player_id == p).map(|r| r.id);
                        prefer_seat(
                            &mut c, profile, &t, seat_no, p, entry, &seats_now, &offered, &waiting,
                        )
                    }),
                    other => other,
                },
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
        if let Some(e) = failure.into_inner() {
            return Err(e);
        }
        if pick.is_some() || (rows.len() as i64) < page {
            break pick;
        }
        offset += page;
        page = 64;
    };
    let waiting = waiting.into_inner();
    let Some(candidate) = pick else {
        // BSOP 57: with nobody else to call, say why the seat waits rather than "nobody".
        return Err(match must_move_waits {
            Some(p) => AppError::Conflict(p),
            // Issue 18 §4: only players waiting for a preferred seat are left. Their wait is
            // their choice: the seat is not forced on them (the floor may still call one by
            // choice), and no offer is counted against them since nobody else took it.
            None if !waiting.is_empty() => AppError::Conflict(
                Problem::new("err-nobody-but-preferences").arg("count", waiting.len()),
            ),
            None => conflict("err-nobody-to-call"),
        });
    };
    // BSOP 57: the seat waits for the must-move player; the list does not take it.
    if let (Candidate::List { .. }, Some(p)) = (&candidate, must_move_waits) {
        return Err(AppError::Conflict(p));
    }
    let (player_id, entry_id, source) = match candidate {
        Candidate::SeatChange { player_id } => (player_id, None, "seat_change"),
        Candidate::MustMove { player_id } => (player_id, None, "must_move"),
        Candidate::List {
            entry_id,
            player_id,
        } => (player_id, Some(entry_id), "list"),
    };
    let alias = checked
        .into_inner()
        .filter(|p| p.id == player_id)
        .map(|p| p.alias);
    // Issue 18 §4: the seat offered is a free one of this table that fits the player better,
    // when there is one (still free: checked as the asked seat was).
    let seat = match offered.get() {
        Some((p, s)) if p == player_id && entry_id.is_some() => {
            match check_seat_free(conn, now, profile, &t, s, None, None) {
                Ok(None) => s,
                _ => seat_no,
            }
        }
        _ => seat_no,
    };
    // Each player who let this seat go by to wait for a preferred one has one offer fewer.
    for e in waiting {
        crate::services::seat_prefs::count_pass(conn, now, actor, e, t.id, seat)?;
    }
    create_call(
        conn, now, profile, actor, &t, seat, player_id, entry_id, source, alias,
    )
}

/// Issue 18 §4, for a listed player who can take this seat and stated a seat preference:
/// `None` to call them (for another free seat of the table when one fits better: noted in
/// `offered`), or `WaitsForSeat` when no free seat fits and they keep their place to wait
/// for one, while they have offers left (noted in `waiting`, counted once someone else is
/// called). Without offers left, or without asking to wait, they are called like anyone.
#[allow(clippy::too_many_arguments)]
fn prefer_seat(
    conn: &mut DbConn,
    profile: &RuleProfile,
    t: &TableRow,
    seat_no: i32,
    player_id: i64,
    entry_id: Option<i64>,
    seats_now: &std::cell::RefCell<Option<(Vec<i32>, Vec<i32>)>>,
    offered: &std::cell::Cell<Option<(i64, i32)>>,
    waiting: &std::cell::RefCell<Vec<i64>>,
) -> AppResult<Option<PassOver>> {
    use crate::domain::seat_pref::{fit, waits_for_match, Fit};
    use crate::services::seat_prefs;
    let pref = seat_prefs::get(conn, player_id)?;
    if seats_now.borrow().is_none() {
        let free = free_seats(conn, t)?;
        let accessible = seat_prefs::accessible_seats(conn, t.id)?;
        *seats_now.borrow_mut() = Some((free, accessible));
    }
    let seats = seats_now.borrow();
    let (free, accessible) = seats
        .as_ref()
        .map(|(f, a)| (f.as_slice(), a.as_slice()))
        .unwrap_or_default();
    match fit(&pref, t.number, seat_no, free, accessible) {
        Fit::Any | Fit::Matches => Ok(None),
        Fit::OtherSeat(s) => {
            offered.set(Some((player_id, s)));
            Ok(None)
        }
        Fit::NoMatch => {
            let Some(entry) = entry_id else {
                return Ok(None);
            };
            let passes = seat_prefs::passes(conn, entry)?;
            if waits_for_match(&pref, passes, profile.pref_max_passes) {
                waiting.borrow_mut().push(entry);
                Ok(Some(PassOver::WaitsForSeat))
            } else {
                Ok(None)
            }
        }
    }
}

/// Issue 17 §2: the floor calls a player of the list out of order (e.g. the one standing at
/// the desk), saying why. PT-2007 12 and BSOP 51 make list order the rule and the default, so
/// the reason is required and audited with the player who was next in order. Every other rule
/// still holds: the seat must be free, the player eligible (BSOP 1-3, 10), not seated or called
/// elsewhere (BSOP 46), not separated from a player at the table; and a seat a must-move
/// player is due (BSOP 55, 57) is theirs, whoever the floor chooses.
#[allow(clippy::too_many_arguments)]
pub fn call_chosen(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    tz: Tz,
    profile: &RuleProfile,
    actor: &Actor,
    table_id: i64,
    seat_no: i32,
    entry_id: i64,
    reason: &str,
) -> AppResult<SeatCallRow> {
    let reason = reason.trim();
    if reason.is_empty() {
        return Err(AppError::field("reason", "err-required"));
    }
    if reason.chars().count() > 500 {
        return Err(AppError::Validation(vec![FieldError::new(
            "reason",
            "err-too-long",
        )
        .arg("max", 500)]));
    }
    let t = table(conn, table_id)?;
    check_seat_free(conn, now, profile, &t, seat_no, None, None)?;
    let game_id = t.game_id.ok_or_else(|| conflict("err-table-no-game"))?;
    let e = entry(conn, entry_id)?;
    if e.game_id != game_id {
        return Err(conflict("err-entry-other-game"));
    }
    if e.state != "waiting" || as_entry(&e).lapsed(now) {
        return Err(conflict("err-entry-not-active"));
    }
    let (due, must_move_waits) = must_move_due_for(conn, now, tz, &t, game_id)?;
    if !due.is_empty() && !due.contains(&e.player_id) {
        return Err(AppError::Conflict(
            must_move_waits.unwrap_or_else(|| Problem::new("err-seat-for-must-move")),
        ));
    }
    if let Some(p) = must_move_waits {
        return Err(AppError::Conflict(p));
    }
    let (called, seated) = called_or_seated(conn, e.player_id, None)?;
    if called {
        return Err(conflict("err-already-called"));
    }
    let row = registry::get(conn, e.player_id)?;
    if let Some(p) = player_may_sit_row(conn, now, tz, &t, &row, Some(seated))? {
        return Err(pass_over_error(p, conn, now, tz, e.player_id)?);
    }
    if barred_from_table(conn, e.player_id, &t)? {
        return Err(conflict("err-refused-must-move-table"));
    }
    // Who list order would have called (for the record): the first waiting entry.
    let next_in_order = waiting_page(conn, game_id, 0, 1)?
        .first()
        .map(|n| n.player_id);
    let call = create_call(
        conn,
        now,
        profile,
        actor,
        &t,
        seat_no,
        e.player_id,
        Some(e.id),
        "list",
        Some(row.alias.clone()),
    )?;
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "seat.call_out_of_order",
        "player",
        Some(e.player_id),
        None,
        Some(&serde_json::json!({
            "call_id": call.id,
            "table_id": t.id,
            "seat": seat_no,
            "entry_id": e.id,
            "reason": reason,
            "next_in_order_player_id": next_in_order,
        })),
    )?;
    Ok(call)
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
    alias: Option<String>,
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
        escalated_at: None,
        player_answer: None,
        answered_at: None,
        extended_at: None,
    };
    crate::native!(conn, |dbc| diesel::insert_into(seat_calls::table)
        .values(&row)
        .execute(dbc))
    .map_err(|e| {
        if is_unique_violation(&e) {
            conflict("err-seat-called")
        } else {
            e.into()
        }
    })?;
    if let Some(eid) = entry_id {
        let n = crate::native!(conn, |dbc| crate::db::Cached(
            diesel::update(
                waitlist_entries::table
                    .find(eid)
                    .filter(waitlist_entries::state.eq("waiting"))
            )
            .set(waitlist_entries::state.eq("called"))
            .returning(waitlist_entries::id)
        )
        .changed(dbc))?;
        if n != 1 {
            return Err(conflict("err-entry-not-active"));
        }
    }
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "seat.call",
        "player",
        Some(player_id),
        None,
        Some(&row),
    )?;
    let alias: String = match alias {
        Some(a) => a,
        None => crate::native!(conn, |dbc| players::table
            .find(player_id)
            .select(players::alias)
            .first(dbc))?,
    };
    emit(
        conn,
        now,
        Some(t.id),
        "seat.call",
        &serde_json::json!({ "call_id": row.id, "table": t.number, "seat": seat_no, "player_id": player_id,
            "alias": alias, "respond_by": row.respond_by.and_utc(), "source": source }),
    )?;
    let mut game_name = GameName::of(t.game_id);
    tell_call(conn, now, t, &row, &mut game_name)?;
    // The list's head moved on: the players now first in line are told.
    if entry_id.is_some() {
        notify_heads_of(conn, now, &mut game_name, None)?;
    }
    // BSOP 55, 57: a must-move order shows on the tablet of the table the player leaves too.
    if source == "must_move" {
        if let Some(from) = current_seating(conn, player_id)?.filter(|f| f.table_id != t.id) {
            emit(
                conn,
                now,
                Some(from.table_id),
                "seat.move_due",
                &serde_json::json!({ "call_id": row.id, "seat": from.seat_no, "player_id": player_id, "to_table": t.number, "to_seat": seat_no }),
            )?;
        }
    }
    Ok(row)
}

/// The dealer at the table acknowledges a seat call (the tablet got it and the seat is kept
/// for the player). `at_table`: the tablet's table — a call for another table is not theirs.
/// Acknowledging twice is harmless (the first time is kept).
pub fn acknowledge_call(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    actor: &Actor,
    call_id: i64,
    at_table: Option<i64>,
) -> AppResult<SeatCallRow> {
    let c = call(conn, call_id)?;
    if at_table.is_some_and(|t| t != c.table_id) {
        return Err(AppError::NotFound);
    }
    match c.state.as_str() {
        "acknowledged" => return Ok(c),
        "pending" => {}
        _ => return Err(conflict("err-call-not-open")),
    }
    // The response window is over by the clock: nothing left to acknowledge, even before the
    // scheduler marks the call expired.
    if c.respond_by.and_utc() <= now {
        return Err(conflict("err-call-expired"));
    }
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(
            seat_calls::table
                .find(call_id)
                .filter(seat_calls::state.eq("pending"))
        )
        .set((
            seat_calls::state.eq("acknowledged"),
            seat_calls::acknowledged_at.eq(Some(now.naive_utc()))
        ))
        .returning(seat_calls::id)
    )
    .changed(dbc))?;
    let after = call(conn, call_id)?;
    audit::record(
        conn,
        now,
        actor,
        "seat.call_ack",
        "player",
        Some(c.player_id),
        Some(&c),
        Some(&after),
    )?;
    emit(
        conn,
        now,
        Some(c.table_id),
        "seat.call_ack",
        &serde_json::json!({ "call_id": c.id, "seat": c.seat_no, "player_id": c.player_id }),
    )?;
    Ok(after)
}

/// Seat calls the table has not acknowledged within the profile's
/// `seat_call_ack_escalation_min`: marked once, audited, and pushed so the floor dashboard
/// shows them escalated.
fn escalate_unacknowledged(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    profile: &RuleProfile,
    system: &Actor,
) -> AppResult<usize> {
    let limit = (now - Duration::minutes(profile.seat_call_ack_escalation_min as i64)).naive_utc();
    let late: Vec<SeatCallRow> = crate::native!(conn, |dbc| seat_calls::table
        .filter(seat_calls::state.eq("pending"))
        .filter(seat_calls::escalated_at.is_null())
        .filter(seat_calls::called_at.le(limit))
        .select(SeatCallRow::as_select())
        .load(dbc))?;
    for c in &late {
        crate::native!(conn, |dbc| crate::db::Cached(
            diesel::update(seat_calls::table.find(c.id))
                .set(seat_calls::escalated_at.eq(Some(now.naive_utc())))
                .returning(seat_calls::id)
        )
        .changed(dbc))?;
        let after = call(conn, c.id)?;
        audit::record(
            conn,
            now,
            system,
            "seat.call_escalated",
            "player",
            Some(c.player_id),
            Some(c),
            Some(&after),
        )?;
        emit(
            conn,
            now,
            Some(c.table_id),
            "seat.call_escalated",
            &serde_json::json!({ "call_id": c.id, "seat": c.seat_no, "player_id": c.player_id }),
        )?;
    }
    Ok(late.len())
}

pub fn call(conn: &mut DbConn, id: i64) -> AppResult<SeatCallRow> {
    Ok(crate::native!(conn, |dbc| seat_calls::table
        .find(id)
        .select(SeatCallRow::as_select())
        .first(dbc))?)
}

/// The called player arrived: the floor (or the dealer) confirms the seating (BSOP 44).
/// A must-move call (BSOP 55) moves the player from the must-move table and a seat-change
/// call (PT-2007 12, BSOP 51) moves them within their table: the old seating ends and the new
/// one starts in the same transaction, so the player never holds two seats (BSOP 46).
pub fn confirm_call(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    tz: Tz,
    profile: &RuleProfile,
    actor: &Actor,
    call_id: i64,
) -> AppResult<SeatingRow> {
    // The call and its table in one statement (issue 14: statements per seating).
    let (c, t): (SeatCallRow, TableRow) = crate::native!(conn, |dbc| seat_calls::table
        .inner_join(card_tables::table.on(card_tables::id.eq(seat_calls::table_id)))
        .filter(seat_calls::id.eq(call_id))
        .select((SeatCallRow::as_select(), TableRow::as_select()))
        .first(dbc))?;
    if !matches!(c.state.as_str(), "pending" | "acknowledged") {
        return Err(conflict("err-call-not-open"));
    }
    // The response window is over: the call is expired even before the scheduler says so.
    if c.respond_by.and_utc() <= now {
        return Err(conflict("err-call-expired"));
    }
    let seating = match c.source.as_str() {
        "must_move" | "seat_change" => {
            let from = current_seating(conn, c.player_id)?
                .ok_or_else(|| conflict("err-move-not-seated"))?;
            let (reason, action) = if c.source == "must_move" {
                // The player must still be at the game's must-move table.
                let ft = table(conn, from.table_id)?;
                if !ft.must_move || ft.game_id != t.game_id {
                    return Err(conflict("err-move-not-seated"));
                }
                ("must-move", "seat.must_move")
            } else {
                if from.table_id != t.id {
                    return Err(conflict("err-move-not-seated"));
                }
                ("seat change", "seat.change")
            };
            move_player(
                conn,
                now,
                tz,
                profile,
                actor,
                &from,
                &t,
                c.seat_no,
                Some(c.id),
                reason,
                action,
            )?
        }
        _ => seat_player(
            conn,
            now,
            tz,
            profile,
            actor,
            &t,
            c.seat_no,
            c.player_id,
            c.entry_id,
            Some(c.id),
        )?,
    };
    let n = crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(seat_calls::table.find(call_id).filter(call_open!()))
            .set((
                seat_calls::state.eq("seated"),
                seat_calls::resolved_at.eq(Some(now.naive_utc()))
            ))
            .returning(seat_calls::id)
    )
    .changed(dbc))?;
    if n != 1 {
        return Err(conflict("err-call-not-open"));
    }
    if c.source == "seat_change" {
        crate::native!(conn, |dbc| crate::db::Cached(
            diesel::update(
                seat_change_requests::table
                    .filter(seat_change_requests::player_id.eq(c.player_id))
                    .filter(seat_change_requests::state.eq("open"))
            )
            .set((
                seat_change_requests::state.eq("served"),
                seat_change_requests::resolved_at.eq(Some(now.naive_utc()))
            ))
            .returning(seat_change_requests::id)
        )
        .changed(dbc))?;
    }
    Ok(seating)
}

/// The floor seats a player directly (BSOP 44), with every check a call would make.
pub fn seat_directly(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    tz: Tz,
    profile: &RuleProfile,
    actor: &Actor,
    table_id: i64,
    seat_no: i32,
    player_id: i64,
) -> AppResult<SeatingRow> {
    let t = table(conn, table_id)?;
    registry::get(conn, player_id).map_err(|e| match e {
        AppError::NotFound => AppError::field("player_id", "err-player-unknown"),
        e => e,
    })?;
    // The player's active entry on this game's list, if any, is used up by the seating.
    let entry_id: Option<i64> = match t.game_id {
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
            return move_player(
                conn,
                now,
                tz,
                profile,
                actor,
                &from,
                &t,
                seat_no,
                None,
                "moved to held seat",
                "seat.move",
            );
        }
    }
    seat_player(
        conn, now, tz, profile, actor, &t, seat_no, player_id, entry_id, None,
    )
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
    let hold = check_seat_free(conn, now, profile, t, seat_no, call_id, Some(player_id))?;
    if t.game_id.is_none() {
        return Err(conflict("err-table-no-game"));
    }
    let (other_calls, seated) = called_or_seated(conn, player_id, call_id)?;
    let player = registry::get(conn, player_id)?;
    if let Some(p) = player_may_sit_row(conn, now, tz, t, &player, Some(seated))? {
        return Err(pass_over_error(p, conn, now, tz, player_id)?);
    }
    // BSOP 55: who refused a must-move and gave up may not play at that must-move table.
    if barred_from_table(conn, player_id, t)? {
        return Err(conflict("err-refused-must-move-table"));
    }
    // BSOP 55: who chose to come back later sits in this game again only after the window.
    if let Some(g) = t.game_id {
        refuse_before_rejoin(conn, profile, tz, g, player_id, now)?;
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
    start_seating(conn, now, actor, &row, entry_id, call_id, Some(other_calls))?;
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
        Some(player_id),
        None,
        Some(&row),
    )?;
    // BSOP 49: the player took the seat held for them: the hold ends.
    release_holds_taken_by(conn, now, actor, hold, player_id)?;
    emit(
        conn,
        now,
        Some(t.id),
        "seat.taken",
        &serde_json::json!({ "table": t.number, "seat": seat_no, "player_id": player_id, "alias": player.alias }),
    )?;
    apply_table_rules_to(conn, now, profile, actor, t)?;
    Ok(row)
}

/// Starts a sit-down: the seating row (the unique indexes settle a race between two floor
/// managers: the loser gets a 409), the list entry it uses up, and — BSOP 46 — the end of
/// the player's other open calls (those entries wait again, in their place). `keep_call` is
/// the call being answered by this seating.
fn start_seating(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    actor: &Actor,
    row: &SeatingRow,
    entry_id: Option<i64>,
    keep_call: Option<i64>,
    other_calls: Option<bool>,
) -> AppResult<()> {
    crate::native!(conn, |dbc| diesel::insert_into(seatings::table)
        .values(row)
        .execute(dbc))
    .map_err(|e| {
        if is_unique_violation(&e) {
            conflict("err-seat-race")
        } else {
            e.into()
        }
    })?;
    // PT-2007 7b: a late seat owes the table's session.
    crate::services::cagnotte::on_seat(conn, now, actor, row)?;
    if let Some(eid) = entry_id {
        crate::native!(conn, |dbc| crate::db::Cached(
            diesel::update(waitlist_entries::table.find(eid))
                .set((
                    waitlist_entries::state.eq("seated"),
                    waitlist_entries::ended_at.eq(Some(now.naive_utc())),
                    waitlist_entries::end_reason.eq(Some("seated"))
                ))
                .returning(waitlist_entries::id)
        )
        .changed(dbc))?;
    }
    // `other_calls`: the caller read in this transaction that there are none (one statement
    // less per seating, issue 14).
    if other_calls == Some(false) {
        return Ok(());
    }
    let others: Vec<i64> = crate::native!(conn, |dbc| seat_calls::table
        .filter(seat_calls::player_id.eq(row.player_id))
        .filter(call_open!())
        .filter(seat_calls::id.ne(keep_call.unwrap_or(-1)))
        .select(seat_calls::id)
        .load(dbc))?;
    cancel_open_calls(conn, now, actor, &others)
}

/// A player leaves their seat (the next player can then be called).
pub fn leave(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    profile: &RuleProfile,
    actor: &Actor,
    seating_id: i64,
    reason: &str,
) -> AppResult<SeatingRow> {
    let s: SeatingRow = crate::native!(conn, |dbc| seatings::table
        .find(seating_id)
        .select(SeatingRow::as_select())
        .first(dbc))?;
    if s.left_at.is_some() {
        return Err(conflict("err-already-left"));
    }
    let n = crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(
            seatings::table
                .find(seating_id)
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
        return Err(conflict("err-already-left"));
    }
    let after: SeatingRow = crate::native!(conn, |dbc| seatings::table
        .find(seating_id)
        .select(SeatingRow::as_select())
        .first(dbc))?;
    // A seat-change request only makes sense while seated at that table, and a must-move
    // call while seated at the must-move table: both end with the seating.
    cancel_seat_changes(conn, now, actor, s.player_id, s.table_id)?;
    let must_move_calls: Vec<i64> = crate::native!(conn, |dbc| seat_calls::table
        .filter(seat_calls::player_id.eq(s.player_id))
        .filter(seat_calls::source.eq("must_move"))
        .filter(call_open!())
        .select(seat_calls::id)
        .load(dbc))?;
    cancel_open_calls(conn, now, actor, &must_move_calls)?;
    audit::record(
        conn,
        now,
        actor,
        "seat.leave",
        "player",
        Some(s.player_id),
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
    remove_extra_seat(conn, now, actor, s.table_id, s.seat_no)?;
    apply_table_rules(conn, now, profile, actor, s.table_id)?;
    Ok(after)
}

/// BSOP 50: a game started with one extra player loses the extra seat as soon as someone
/// leaves: the player in the extra seat takes the freed seat (or, if they are the one
/// leaving, the extra seat simply goes).
fn remove_extra_seat(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    actor: &Actor,
    table_id: i64,
    freed_seat: i32,
) -> AppResult<()> {
    let t = table(conn, table_id)?;
    if !t.extra_seat {
        return Ok(());
    }
    let extra_no = t.seats + 1;
    if freed_seat != extra_no {
        let extra: Option<SeatingRow> = crate::native!(conn, |dbc| seatings::table
            .filter(seatings::table_id.eq(table_id))
            .filter(seatings::seat_no.eq(extra_no))
            .filter(seatings::left_at.is_null())
            .select(SeatingRow::as_select())
            .first(dbc))
        .optional()?;
        if let Some(x) = extra {
            crate::native!(conn, |dbc| crate::db::Cached(
                diesel::update(seatings::table.find(x.id))
                    .set(seatings::seat_no.eq(freed_seat))
                    .returning(seatings::id)
            )
            .changed(dbc))?;
            let moved: SeatingRow = crate::native!(conn, |dbc| seatings::table
                .find(x.id)
                .select(SeatingRow::as_select())
                .first(dbc))?;
            audit::record(
                conn,
                now,
                actor,
                "seat.extra_removed",
                "player",
                Some(x.player_id),
                Some(&x),
                Some(&moved),
            )?;
            emit(
                conn,
                now,
                Some(table_id),
                "seat.moved",
                &serde_json::json!({ "table": t.number, "from": extra_no, "to": freed_seat, "player_id": x.player_id }),
            )?;
        }
    }
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(card_tables::table.find(table_id))
            .set(card_tables::extra_seat.eq(false))
            .returning(card_tables::id)
    )
    .changed(dbc))?;
    let after = table(conn, table_id)?;
    audit::record(
        conn,
        now,
        actor,
        "table.extra_seat_removed",
        "table",
        Some(table_id),
        Some(&t),
        Some(&after),
    )?;
    Ok(())
}

/// PT-2007 24: after a change of players, run / suspend / resume the table as the domain says.
fn apply_table_rules(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    profile: &RuleProfile,
    actor: &Actor,
    table_id: i64,
) -> AppResult<()> {
    let t = table(conn, table_id)?;
    apply_table_rules_to(conn, now, profile, actor, &t)
}

/// [`apply_table_rules`] for a table row read in this transaction and not changed since.
fn apply_table_rules_to(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    profile: &RuleProfile,
    actor: &Actor,
    t: &TableRow,
) -> AppResult<()> {
    let table_id = t.id;
    let Some(state) = TableState::parse(&t.state) else {
        return Ok(());
    };
    let seated = seated_count(conn, table_id)?;
    let grace = Duration::minutes(profile.suspension_grace_min as i64);
    let decision = evaluate(
        state,
        seated,
        profile.min_players_to_run,
        t.suspended_at.map(|x| x.and_utc()),
        grace,
        now,
    );
    let (new_state, suspended_at) = match decision {
        Transition::Stay => return Ok(()),
        Transition::Run => (TableState::Running, None),
        Transition::Suspend { .. } => (TableState::Suspended, Some(now.naive_utc())),
        Transition::Close => (TableState::Closed, None),
    };
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(card_tables::table.find(table_id))
            .set((
                card_tables::state.eq(new_state.as_str()),
                card_tables::suspended_at.eq(suspended_at),
                card_tables::updated_at.eq(now.naive_utc())
            ))
            .returning(card_tables::id)
    )
    .changed(dbc))?;
    // PT-2007 24, 7b: the suspension history (suspension is not play).
    if new_state == TableState::Suspended {
        crate::services::cagnotte::suspension_started(conn, now, table_id)?;
    } else if t.state == TableState::Suspended.as_str() {
        crate::services::cagnotte::suspension_ended(conn, now, table_id)?;
    }
    if new_state == TableState::Closed {
        crate::services::cagnotte::on_table_closed(conn, now, actor, table_id)?;
    }
    let after = table(conn, table_id)?;
    audit::record(
        conn,
        now,
        actor,
        "table.state",
        "table",
        Some(table_id),
        Some(t),
        Some(&after),
    )?;
    emit(
        conn,
        now,
        Some(table_id),
        "table.state",
        &serde_json::json!({ "table": t.number, "state": new_state, "decision": decision }),
    )?;
    if new_state == TableState::Closed {
        // BSOP 50: no extra seat outlives the game.
        crate::native!(conn, |dbc| crate::db::Cached(
            diesel::update(card_tables::table.find(table_id))
                .set(card_tables::extra_seat.eq(false))
                .returning(card_tables::id)
        )
        .changed(dbc))?;
        // PT-2007 24: the game is closed and its players are offered seats elsewhere, so
        // they no longer hold seats here (BSOP 46), and open calls to it end, as do its
        // holds and seat-change requests.
        let calls: Vec<i64> = crate::native!(conn, |dbc| seat_calls::table
            .filter(seat_calls::table_id.eq(table_id))
            .filter(call_open!())
            .select(seat_calls::id)
            .load(dbc))?;
        cancel_open_calls(conn, now, actor, &calls)?;
        let holds: Vec<SeatHoldRow> = crate::native!(conn, |dbc| seat_holds::table
            .filter(seat_holds::table_id.eq(table_id))
            .filter(seat_holds::released_at.is_null())
            .select(SeatHoldRow::as_select())
            .load(dbc))?;
        for h in holds {
            end_hold(conn, now, actor, &h, "table closed")?;
        }
        let mut left = Vec::new();
        for s in seated_at(conn, table_id)? {
            crate::native!(conn, |dbc| crate::db::Cached(
                diesel::update(
                    seatings::table
                        .find(s.id)
                        .filter(seatings::left_at.is_null())
                )
                .set((
                    seatings::left_at.eq(Some(now.naive_utc())),
                    seatings::left_reason.eq(Some("table closed"))
                ))
                .returning(seatings::id)
            )
            .changed(dbc))?;
            cancel_seat_changes(conn, now, actor, s.player_id, table_id)?;
            // A move this player was called for (must-move, seat change) ends with the seat.
            let moves: Vec<i64> = crate::native!(conn, |dbc| seat_calls::table
                .filter(seat_calls::player_id.eq(s.player_id))
                .filter(seat_calls::source.ne("list"))
                .filter(call_open!())
                .select(seat_calls::id)
                .load(dbc))?;
            cancel_open_calls(conn, now, actor, &moves)?;
            let after: SeatingRow = crate::native!(conn, |dbc| seatings::table
                .find(s.id)
                .select(SeatingRow::as_select())
                .first(dbc))?;
            audit::record(
                conn,
                now,
                actor,
                "seat.leave",
                "player",
                Some(s.player_id),
                Some(&s),
                Some(&after),
            )?;
            emit(
                conn,
                now,
                Some(table_id),
                "seat.freed",
                &serde_json::json!({ "seat": s.seat_no, "player_id": s.player_id }),
            )?;
            left.push(s.player_id);
        }
        if let Some(game_id) = t.game_id {
            // PT-2007 24: offered the next seats of their game: back on its list, at the top.
            // BSOP 52, 56: a high card per player (dealt from seat 1, clockwise) sets the
            // order in which they pick the next seats; the draw is recorded.
            let order = if left.len() > 1 {
                use crate::domain::draw::{Draw, DrawSeed, HighCardPurpose};
                let d = Draw::high_card(DrawSeed::random(), HighCardPurpose::TableBreak, &left)
                    .map_err(|e| AppError::Conflict(e.problem()))?;
                crate::services::draws::record(
                    conn,
                    now,
                    actor,
                    &d,
                    Some(game_id),
                    Some(table_id),
                )?;
                match d {
                    Draw::HighCard { result, .. } => result.order,
                    _ => left.clone(),
                }
            } else {
                left.clone()
            };
            relist_at_top(conn, now, actor, game_id, table_id, &order)?;
            // BSOP 56: with a table gone, the must-move is recomputed (the third breaks:
            // the second-formed becomes the must-move).
            recompute_must_move(conn, now, actor, game_id)?;
        }
    }
    Ok(())
}

/// Opens a closed table for its game (waiting for players).
pub fn open_table(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    actor: &Actor,
    table_id: i64,
) -> AppResult<TableRow> {
    let t = table(conn, table_id)?;
    if t.game_id.is_none() {
        return Err(conflict("err-table-no-game"));
    }
    if t.state != "closed" {
        return Err(conflict("err-table-already-open"));
    }
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(
            card_tables::table
                .find(table_id)
                .filter(card_tables::state.eq("closed"))
        )
        .set((
            card_tables::state.eq("open"),
            card_tables::opened_at.eq(Some(now.naive_utc())),
            card_tables::updated_at.eq(now.naive_utc())
        ))
        .returning(card_tables::id)
    )
    .changed(dbc))?;
    let after = table(conn, table_id)?;
    audit::record(
        conn,
        now,
        actor,
        "table.open",
        "table",
        Some(table_id),
        Some(&t),
        Some(&after),
    )?;
    emit(
        conn,
        now,
        Some(table_id),
        "table.state",
        &serde_json::json!({ "table": t.number, "state": "open" }),
    )?;
    // BSOP 55, 56: another table of the same game: the newest is the must-move.
    if let Some(game_id) = t.game_id {
        recompute_must_move(conn, now, actor, game_id)?;
    }
    table(conn, table_id)
}

/// Ends a seat call whose response window is over: expired, the player to the bottom of the
/// list or off it as the room decided, told so, and the table told. The scheduler does this
/// for every due call; an action on the seat does it for that seat's call at once (the clock
/// decides, not whether the scheduler has run). False when the call was no longer open.
fn expire_call(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    profile: &RuleProfile,
    system: &Actor,
    c: &SeatCallRow,
) -> AppResult<bool> {
    let n = crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(seat_calls::table.find(c.id).filter(call_open!()))
            .set((
                seat_calls::state.eq("expired"),
                seat_calls::resolved_at.eq(Some(now.naive_utc()))
            ))
            .returning(seat_calls::id)
    )
    .changed(dbc))?;
    if n != 1 {
        return Ok(false);
    }
    audit::record::<SeatCallRow, ()>(
        conn,
        now,
        system,
        "seat.call_expired",
        "player",
        Some(c.player_id),
        Some(c),
        None,
    )?;
    if let Some(eid) = c.entry_id.filter(|_| c.source == "list") {
        let e = entry(conn, eid)?;
        match profile.call_expiry {
            CallExpiry::Remove => {
                end_entry(
                    conn,
                    now,
                    system,
                    &e,
                    "removed",
                    "call expired",
                    "list.call_expired",
                )?;
            }
            CallExpiry::BottomOfList => {
                let key = bottom_key(conn, e.game_id)?;
                crate::native!(conn, |dbc| crate::db::Cached(
                    diesel::update(waitlist_entries::table.find(eid))
                        .set((
                            waitlist_entries::state.eq("waiting"),
                            waitlist_entries::order_key.eq(key)
                        ))
                        .returning(waitlist_entries::id)
                )
                .changed(dbc))?;
                let note = serde_json::json!({ "call_id": c.id, "to": "bottom" });
                audit::record::<(), _>(
                    conn,
                    now,
                    system,
                    "list.call_expired",
                    "player",
                    Some(e.player_id),
                    None,
                    Some(&note),
                )?;
                notify_heads(conn, now, e.game_id, None)?;
            }
        }
        let number = table(conn, c.table_id)?.number;
        let back = profile.call_expiry == CallExpiry::BottomOfList;
        tell_entry(conn, now, &e, Kind::CallExpired, |p| {
            p.table = Some(number);
            p.back_on_list = Some(back);
        })?;
    }
    emit(
        conn,
        now,
        Some(c.table_id),
        "seat.call_expired",
        &serde_json::json!({ "call_id": c.id, "seat": c.seat_no, "player_id": c.player_id }),
    )?;
    Ok(true)
}

/// The scheduler's pass: expires unanswered seat calls (the player goes to the bottom of
/// the list or off it, as the room decided, and the next is called), and closes suspended
/// tables whose 15 minutes ran out (PT-2007 24). Reads only stored times, so a restart
/// after a deadline acts at once.
pub fn tick(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    tz: Tz,
    profile: &RuleProfile,
) -> AppResult<usize> {
    let system = Actor::system();
    let mut actions = escalate_unacknowledged(conn, now, profile, &system)?;
    let due: Vec<SeatCallRow> = crate::native!(conn, |dbc| seat_calls::table
        .filter(call_open!())
        .filter(seat_calls::respond_by.le(now.naive_utc()))
        .select(SeatCallRow::as_select())
        .load(dbc))?;
    for c in due {
        if !expire_call(conn, now, profile, &system, &c)? {
            continue;
        }
        actions += 1;
        // The seat is still free: call the next one, if anyone can take it. A seat that can
        // no longer be called (taken, held, gone after a change of seats) is left alone: one
        // table's state never stops the timers of the others.
        match call_next(conn, now, tz, profile, &system, c.table_id, c.seat_no) {
            Ok(_)
            | Err(AppError::Conflict(_))
            | Err(AppError::Validation(_))
            | Err(AppError::NotFound) => {}
            Err(e) => return Err(e),
        }
    }
    // Call-ins that were not checked in lapse.
    let lapsed: Vec<WaitlistRow> = crate::native!(conn, |dbc| waitlist_entries::table
        .filter(waitlist_entries::state.eq("waiting"))
        .filter(waitlist_entries::checked_in_at.is_null())
        .filter(waitlist_entries::call_in_expires_at.le(now.naive_utc()))
        .select(WaitlistRow::as_select())
        .load(dbc))?;
    for e in lapsed {
        end_entry(
            conn,
            now,
            &system,
            &e,
            "lapsed",
            "call-in not checked in",
            "list.lapse",
        )?;
        tell_entry(conn, now, &e, Kind::Removed, |_| {})?;
        actions += 1;
    }
    // BSOP 36: absent players whose time ran out: the floor is alerted.
    actions += crate::services::table_side::alert_due_removals(conn, now, profile)?;
    let suspended: Vec<i64> = crate::native!(conn, |dbc| card_tables::table
        .filter(card_tables::state.eq("suspended"))
        .select(card_tables::id)
        .load(dbc))?;
    for id in suspended {
        apply_table_rules(conn, now, profile, &system, id)?;
    }
    Ok(actions)
}

// ---- moves, holds and balance (BSOP 45, 49, 51, 55-58; PT-2007 12, 24, 26) ---------------

/// A table in play: open, running or suspended.
fn in_play(t: &TableRow) -> bool {
    matches!(t.state.as_str(), "open" | "running" | "suspended")
}

/// When a table was formed for its game (older tables are main games, BSOP 56).
fn formed_at(t: &TableRow) -> DateTime<Utc> {
    t.opened_at.unwrap_or(t.created_at).and_utc()
}

/// One seating, whatever its state.
pub fn seating(conn: &mut DbConn, id: i64) -> AppResult<SeatingRow> {
    Ok(crate::native!(conn, |dbc| seatings::table
        .find(id)
        .select(SeatingRow::as_select())
        .first(dbc))?)
}

/// BSOP 46: the one seat a player holds now, if any.
fn current_seating(conn: &mut DbConn, player_id: i64) -> AppResult<Option<SeatingRow>> {
    Ok(crate::native!(conn, |dbc| seatings::table
        .filter(seatings::player_id.eq(player_id))
        .filter(seatings::left_at.is_null())
        .select(SeatingRow::as_select())
        .first(dbc))
    .optional()?)
}

/// BSOP 55, 56: among a game's tables in play, the newest is the must-move (none with a
/// single table). Stored in `card_tables.must_move`, exactly one per game or none; each change
/// is audited and pushed. Runs when a table of the game opens or closes.
pub fn recompute_must_move(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    actor: &Actor,
    game_id: i64,
) -> AppResult<Option<i64>> {
    let all: Vec<TableRow> = crate::native!(conn, |dbc| card_tables::table
        .filter(card_tables::game_id.eq(game_id))
        .select(TableRow::as_select())
        .load(dbc))?;
    // The choice reads only when each table was formed; the seat counts do not matter.
    let live: Vec<GameTable> = all
        .iter()
        .filter(|t| in_play(t))
        .map(|t| GameTable {
            table_id: t.id,
            formed_at: formed_at(t),
            seated: 0,
            seats: t.seats.max(0) as usize,
        })
        .collect();
    let chosen = must_move_table(&live);
    // Clear before set, so the game never shows two must-move tables.
    let mut changed: Vec<&TableRow> = all
        .iter()
        .filter(|t| t.must_move && Some(t.id) != chosen)
        .collect();
    changed.extend(all.iter().filter(|t| !t.must_move && Some(t.id) == chosen));
    for t in changed {
        let want = Some(t.id) == chosen;
        crate::native!(conn, |dbc| crate::db::Cached(
            diesel::update(card_tables::table.find(t.id))
                .set((
                    card_tables::must_move.eq(want),
                    card_tables::updated_at.eq(now.naive_utc())
                ))
                .returning(card_tables::id)
        )
        .changed(dbc))?;
        let after = table(conn, t.id)?;
        audit::record(
            conn,
            now,
            actor,
            "table.must_move",
            "table",
            Some(t.id),
            Some(t),
            Some(&after),
        )?;
        emit(
            conn,
            now,
            Some(t.id),
            "table.must_move",
            &serde_json::json!({ "table": t.number, "game_id": game_id, "must_move": want }),
        )?;
    }
    Ok(chosen)
}

/// The game's must-move table in play, if any.
fn must_move_table_of(conn: &mut DbConn, game_id: i64) -> AppResult<Option<TableRow>> {
    Ok(crate::native!(conn, |dbc| card_tables::table
        .filter(card_tables::game_id.eq(game_id))
        .filter(card_tables::must_move.eq(true))
        .filter(table_in_play!())
        .select(TableRow::as_select())
        .first(dbc))
    .optional()?)
}

/// BSOP 55: the players at a must-move table in the original waiting-list order: by the
/// order key of the list entry each was seated from (`seatings.entry_id`), then by joining
/// time; players seated without a list entry come after, by the time they sat down.
fn must_move_players(conn: &mut DbConn, table_id: i64) -> AppResult<Vec<(SeatingRow, PlayerRow)>> {
    let mut rows: Vec<(
        SeatingRow,
        PlayerRow,
        Option<i64>,
        Option<chrono::NaiveDateTime>,
    )> = crate::native!(conn, |dbc| seatings::table
        .inner_join(players::table)
        .left_join(
            waitlist_entries::table.on(waitlist_entries::id.nullable().eq(seatings::entry_id))
        )
        .filter(seatings::table_id.eq(table_id))
        .filter(seatings::left_at.is_null())
        .select((
            SeatingRow::as_select(),
            PlayerRow::as_select(),
            waitlist_entries::order_key.nullable(),
            waitlist_entries::joined_at.nullable()
        ))
        .load(dbc))?;
    rows.sort_by_key(|(s, _, key, joined)| {
        (
            key.is_none(),
            key.unwrap_or(0),
            joined.unwrap_or(s.sat_at),
            s.sat_at,
            s.id,
        )
    });
    Ok(rows.into_iter().map(|(s, p, _, _)| (s, p)).collect())
}

/// A game's must-move table and its players in must-move order (BSOP 55).
#[allow(clippy::type_complexity)]
pub fn must_move_list(
    conn: &mut DbConn,
    game_id: i64,
) -> AppResult<Option<(TableRow, Vec<(SeatingRow, PlayerRow)>)>> {
    game(conn, game_id)?;
    let Some(m) = must_move_table_of(conn, game_id)? else {
        return Ok(None);
    };
    let players = must_move_players(conn, m.id)?;
    Ok(Some((m, players)))
}

/// BSOP 55, 57: for a free seat at table `t`, the must-move player due now (at most one), and
/// whether the must-move players are waiting (nobody may take the seat from the list).
/// Only at a main game (not the must-move table) of a game that has a must-move table.
/// Players who cannot take this seat now are left out: already called, no longer eligible,
/// or kept apart from someone at the main table (BSOP 47).
///
/// BSOP 57: the move waits while the player is in the small blind or on the button of the
/// must-move table (the button the dealer's "new hand" taps move; no button known: nobody
/// waits).
fn must_move_due_for(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    tz: Tz,
    t: &TableRow,
    game_id: i64,
) -> AppResult<(Vec<i64>, Option<Problem>)> {
    if t.must_move {
        return Ok((Vec::new(), None));
    }
    let Some(m) = must_move_table_of(conn, game_id)? else {
        return Ok((Vec::new(), None));
    };
    if m.id == t.id {
        return Ok((Vec::new(), None));
    }
    let waiting = must_move_players(conn, m.id)?;
    if waiting.is_empty() {
        return Ok((Vec::new(), None));
    }
    // Read only when needed (issue 14: statements per call): who sits at the main table
    // (for a separation), the must-move table's protected seats (for the one player due).
    let mut here: Option<Vec<i64>> = None;
    let mut players = Vec::new();
    let mut seats = std::collections::HashMap::new();
    for (i, (s, p)) in waiting.into_iter().enumerate() {
        if has_open_call(conn, s.player_id)?
            || !registry::eligibility(conn, &p, now, tz)?.is_empty()
        {
            continue;
        }
        let apart = separated_from(conn, s.player_id)?;
        if !apart.is_empty() {
            if here.is_none() {
                here = Some(seated_at(conn, t.id)?.iter().map(|s| s.player_id).collect());
            }
            if here.iter().flatten().any(|h| apart.contains(h)) {
                continue;
            }
        }
        let protected = crate::services::table_side::protected_seats(conn, &m)?;
        let seat_no = s.seat_no;
        seats.insert(s.player_id, (seat_no, p.alias));
        players.push(MustMovePlayer {
            player_id: s.player_id,
            list_order: i as i64,
            in_small_blind_or_button: protected.contains(&seat_no),
        });
        // BSOP 57: only the first in order who can take the seat is ever due (or waited
        // for), so the others need not be checked: three queries per call instead of three
        // per player at the must-move table (issue 14: 30 of a call's 59 statements).
        break;
    }
    let due = must_move_due(&players);
    // BSOP 57: nobody due although must-move players wait: the first in order is in the
    // small blind or on the button, and the seat waits for them (said with who and where).
    let first = players
        .iter()
        .min_by_key(|p| (p.list_order, p.player_id))
        .and_then(|p| seats.get(&p.player_id));
    let waits = match (due, first) {
        (None, Some((seat_no, alias))) => {
            let position = if Some(*seat_no) == m.button_seat {
                "button"
            } else {
                "small_blind"
            };
            Some(
                Problem::new("err-seat-waits-for-must-move")
                    .arg("alias", alias)
                    .arg("table", m.number)
                    .arg("seat", seat_no)
                    .arg("position", position),
            )
        }
        _ => None,
    };
    Ok((due.into_iter().collect(), waits))
}

/// BSOP 55: a player who refused a must-move and gave up may not play at that must-move
/// table (while it is the must-move table, since it was opened).
fn barred_from_table(conn: &mut DbConn, player_id: i64, t: &TableRow) -> AppResult<bool> {
    let Some(opened) = t.opened_at else {
        return Ok(false);
    };
    if !t.must_move {
        return Ok(false);
    }
    let n: i64 = crate::native!(conn, |dbc| must_move_refusals::table
        .filter(must_move_refusals::player_id.eq(player_id))
        .filter(must_move_refusals::table_id.eq(t.id))
        .filter(must_move_refusals::choice.eq("give_up"))
        .filter(must_move_refusals::refused_at.ge(opened))
        .count()
        .get_result(dbc))?;
    Ok(n > 0)
}

/// BSOP 55: the earliest time a player who refused a must-move (and chose to come back) may
/// join the game's list again, if that is still in the future: the latest refusal plus the
/// room's return window (`may_rejoin_after_refusal`).
/// BSOP 55: the refusal to re-join (the list or a seat of the game) before the return window.
fn refuse_before_rejoin(
    conn: &mut DbConn,
    profile: &RuleProfile,
    tz: Tz,
    game_id: i64,
    player_id: i64,
    now: DateTime<Utc>,
) -> AppResult<()> {
    match rejoin_not_before(conn, profile, game_id, player_id, now)? {
        Some(from) => {
            let time = from.with_timezone(&tz).format("%H:%M").to_string();
            Err(AppError::Conflict(
                Problem::new("err-must-move-rejoin-later").arg("time", time),
            ))
        }
        None => Ok(()),
    }
}

fn rejoin_not_before(
    conn: &mut DbConn,
    profile: &RuleProfile,
    game_id: i64,
    player_id: i64,
    now: DateTime<Utc>,
) -> AppResult<Option<DateTime<Utc>>> {
    let last: Option<chrono::NaiveDateTime> = crate::native!(conn, |dbc| must_move_refusals::table
        .filter(must_move_refusals::player_id.eq(player_id))
        .filter(must_move_refusals::game_id.eq(game_id))
        .filter(must_move_refusals::choice.eq("rejoin_later"))
        .order(must_move_refusals::refused_at.desc())
        .select(must_move_refusals::refused_at)
        .first(dbc))
    .optional()?;
    Ok(last
        .map(|at| {
            may_rejoin_after_refusal(
                at.and_utc(),
                Duration::minutes(profile.return_window_min as i64),
            )
        })
        .filter(|until| now < *until))
}

/// What a must-move player who refuses to move chooses (BSOP 55).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RefusalChoice {
    /// Gives up: leaves, and may not play at the must-move table.
    GiveUp,
    /// Leaves, and may join the waiting list again no sooner than the return window.
    RejoinLater,
}

impl RefusalChoice {
    pub fn parse(s: &str) -> Option<RefusalChoice> {
        match s {
            "give_up" => Some(RefusalChoice::GiveUp),
            "rejoin_later" => Some(RefusalChoice::RejoinLater),
            _ => None,
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            RefusalChoice::GiveUp => "give_up",
            RefusalChoice::RejoinLater => "rejoin_later",
        }
    }
}

/// BSOP 55: a must-move player refuses to move to the main game. Either way they leave the
/// must-move table (their seating ends, reason "refused must-move"): giving up, they may not
/// play at that must-move table again; coming back later, they are taken off the game's
/// list and may join it again only after the return window (one hour). The must-move call
/// they refused is declined and the seat is offered to the next must-move player. Returns
/// the refusal and that next call, if someone could be called.
#[allow(clippy::too_many_arguments)]
pub fn refuse_must_move(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    tz: Tz,
    profile: &RuleProfile,
    actor: &Actor,
    seating_id: i64,
    choice: RefusalChoice,
) -> AppResult<(MustMoveRefusalRow, Option<SeatCallRow>)> {
    let s = seating(conn, seating_id)?;
    if s.left_at.is_some() {
        return Err(conflict("err-already-left"));
    }
    let t = table(conn, s.table_id)?;
    if !t.must_move {
        return Err(conflict("err-not-must-move-table"));
    }
    let game_id = t.game_id.ok_or_else(|| conflict("err-table-no-game"))?;
    let n = crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(
            seatings::table
                .find(s.id)
                .filter(seatings::left_at.is_null())
        )
        .set((
            seatings::left_at.eq(Some(now.naive_utc())),
            seatings::left_reason.eq(Some("refused must-move"))
        ))
        .returning(seatings::id)
    )
    .changed(dbc))?;
    if n != 1 {
        return Err(conflict("err-already-left"));
    }
    let ended = seating(conn, s.id)?;
    cancel_seat_changes(conn, now, actor, s.player_id, t.id)?;
    // The must-move call is declined; any other open call of the player ends.
    let open: Vec<SeatCallRow> = crate::native!(conn, |dbc| seat_calls::table
        .filter(seat_calls::player_id.eq(s.player_id))
        .filter(call_open!())
        .select(SeatCallRow::as_select())
        .load(dbc))?;
    let declined: Vec<&SeatCallRow> = open.iter().filter(|c| c.source == "must_move").collect();
    for c in &declined {
        crate::native!(conn, |dbc| crate::db::Cached(
            diesel::update(seat_calls::table.find(c.id))
                .set((
                    seat_calls::state.eq("declined"),
                    seat_calls::resolved_at.eq(Some(now.naive_utc()))
                ))
                .returning(seat_calls::id)
        )
        .changed(dbc))?;
    }
    let others: Vec<i64> = open
        .iter()
        .filter(|c| c.source != "must_move")
        .map(|c| c.id)
        .collect();
    cancel_open_calls(conn, now, actor, &others)?;
    let rejoin_after = (choice == RefusalChoice::RejoinLater).then(|| {
        may_rejoin_after_refusal(now, Duration::minutes(profile.return_window_min as i64))
            .naive_utc()
    });
    if choice == RefusalChoice::RejoinLater {
        let active: Option<WaitlistRow> = crate::native!(conn, |dbc| waitlist_entries::table
            .filter(waitlist_entries::game_id.eq(game_id))
            .filter(waitlist_entries::player_id.eq(s.player_id))
            .filter(entry_active!())
            .select(WaitlistRow::as_select())
            .first(dbc))
        .optional()?;
        if let Some(e) = active {
            cancel_calls_of_entry(conn, now, actor, e.id)?;
            end_entry(
                conn,
                now,
                actor,
                &e,
                "removed",
                "refused must-move",
                "list.remove",
            )?;
        }
    }
    let row = MustMoveRefusalRow {
        id: next_seq(conn, "must_move_refusal")?,
        game_id,
        table_id: t.id,
        player_id: s.player_id,
        seating_id: s.id,
        choice: choice.as_str().into(),
        refused_at: now.naive_utc(),
        rejoin_after,
        created_by: actor.id,
    };
    crate::native!(conn, |dbc| diesel::insert_into(must_move_refusals::table)
        .values(&row)
        .execute(dbc))?;
    let after = serde_json::json!({ "seating": ended, "refusal": row });
    audit::record(
        conn,
        now,
        actor,
        "seat.refuse_must_move",
        "player",
        Some(s.player_id),
        Some(&s),
        Some(&after),
    )?;
    emit(
        conn,
        now,
        Some(t.id),
        "seat.freed",
        &serde_json::json!({ "seat": s.seat_no, "player_id": s.player_id, "reason": "refused must-move", "choice": choice }),
    )?;
    apply_table_rules(conn, now, profile, actor, t.id)?;
    // The main-game seat goes to the next must-move player.
    let mut next = None;
    for c in declined {
        match call_next(conn, now, tz, profile, actor, c.table_id, c.seat_no) {
            Ok(call) => next = Some(call),
            Err(AppError::Conflict(_)) => {}
            Err(e) => return Err(e),
        }
    }
    Ok((row, next))
}

/// Moves a seated player to another seat, at their table or another (a must-move, a
/// seat change, a voluntary transfer, a held seat): the old seating ends with `reason` and
/// the new one starts in the same transaction, so the player never holds two seats
/// (BSOP 46). The destination seat must be free (a call for it: `call_id`; a hold: held for
/// this player), the player eligible and not kept apart from anyone there (BSOP 47).
#[allow(clippy::too_many_arguments)]
fn move_player(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    tz: Tz,
    profile: &RuleProfile,
    actor: &Actor,
    from: &SeatingRow,
    to: &TableRow,
    seat_no: i32,
    call_id: Option<i64>,
    reason: &str,
    action: &str,
) -> AppResult<SeatingRow> {
    let player_id = from.player_id;
    let hold = check_seat_free(conn, now, profile, to, seat_no, call_id, Some(player_id))?;
    let game_id = to.game_id.ok_or_else(|| conflict("err-table-no-game"))?;
    let p = registry::get(conn, player_id)?;
    let why = registry::eligibility(conn, &p, now, tz)?;
    if !why.is_empty() {
        return Err(ineligible_error(&why));
    }
    let apart = separated_from(conn, player_id)?;
    if !apart.is_empty()
        && seated_at(conn, to.id)?
            .iter()
            .any(|s| s.player_id != player_id && apart.contains(&s.player_id))
    {
        return Err(conflict("err-separated-at-table"));
    }
    if barred_from_table(conn, player_id, to)? {
        return Err(conflict("err-refused-must-move-table"));
    }
    let n = crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(
            seatings::table
                .find(from.id)
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
        return Err(conflict("err-already-left"));
    }
    let ended = seating(conn, from.id)?;
    // Within a game the seating keeps the list entry it came from (the original list order,
    // BSOP 55); into another game it uses up the player's entry on that game's list.
    let (entry_id, new_entry) = if from.game_id == Some(game_id) {
        (from.entry_id, false)
    } else {
        let e: Option<i64> = crate::native!(conn, |dbc| waitlist_entries::table
            .filter(waitlist_entries::game_id.eq(game_id))
            .filter(waitlist_entries::player_id.eq(player_id))
            .filter(entry_active!())
            .select(waitlist_entries::id)
            .first(dbc))
        .optional()?;
        (e, e.is_some())
    };
    let row = SeatingRow {
        id: next_seq(conn, "seating")?,
        table_id: to.id,
        seat_no,
        player_id,
        game_id: Some(game_id),
        entry_id,
        sat_at: now.naive_utc(),
        left_at: None,
        left_reason: None,
        seated_by: actor.id,
    };
    if let (true, Some(eid)) = (new_entry, entry_id) {
        cancel_calls_of_entry(conn, now, actor, eid)?;
    }
    start_seating(
        conn,
        now,
        actor,
        &row,
        entry_id.filter(|_| new_entry),
        call_id,
        None,
    )?;
    // The player moves with their chips, what they bought in, buttons and hand counters.
    crate::services::table_side::carry_side(conn, from.id, row.id)?;
    if to.id != from.table_id {
        cancel_seat_changes(conn, now, actor, player_id, from.table_id)?;
    }
    let after = serde_json::json!({ "left": ended, "seated": row, "reason": reason });
    audit::record(
        conn,
        now,
        actor,
        action,
        "player",
        Some(player_id),
        Some(from),
        Some(&after),
    )?;
    release_holds_taken_by(conn, now, actor, hold, player_id)?;
    let from_t = table(conn, from.table_id)?;
    emit(
        conn,
        now,
        Some(from.table_id),
        "seat.freed",
        &serde_json::json!({ "seat": from.seat_no, "player_id": player_id, "reason": reason, "to_table": to.number, "to_seat": seat_no }),
    )?;
    emit(
        conn,
        now,
        Some(to.id),
        "seat.taken",
        &serde_json::json!({ "table": to.number, "seat": seat_no, "player_id": player_id, "alias": p.alias, "reason": reason,
            "from_table": from_t.number, "from_seat": from.seat_no }),
    )?;
    apply_table_rules(conn, now, profile, actor, from.table_id)?;
    if to.id != from.table_id {
        apply_table_rules(conn, now, profile, actor, to.id)?;
    }
    Ok(row)
}

/// PT-2007 24: the players of a closed table are offered the next seats of their game: back
/// on its list at the top, in the order of the table-break high-card draw (BSOP 52, 56;
/// source `table_break`). A player already on
/// the list moves to the top instead. Audited per player, pushed once.
fn relist_at_top(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    actor: &Actor,
    game_id: i64,
    table_id: i64,
    players_in_order: &[i64],
) -> AppResult<()> {
    if players_in_order.is_empty() || !game(conn, game_id)?.active {
        return Ok(());
    }
    let current = entries(conn, game_id)?;
    let n = players_in_order.len() as i64;
    let top = current
        .iter()
        .map(|e| e.order_key)
        .min()
        .unwrap_or((n + 1) * waitlist::KEY_STEP);
    for (i, p) in players_in_order.iter().enumerate() {
        let key = top - (n - i as i64) * waitlist::KEY_STEP;
        if let Some(e) = current.iter().find(|e| e.player_id == *p) {
            crate::native!(conn, |dbc| crate::db::Cached(
                diesel::update(waitlist_entries::table.find(e.id))
                    .set(waitlist_entries::order_key.eq(key))
                    .returning(waitlist_entries::id)
            )
            .changed(dbc))?;
            let after = entry(conn, e.id)?;
            audit::record(
                conn,
                now,
                actor,
                "list.table_break",
                "player",
                Some(*p),
                Some(e),
                Some(&after),
            )?;
        } else {
            let row = WaitlistRow {
                id: next_seq(conn, "waitlist")?,
                game_id,
                player_id: *p,
                order_key: key,
                joined_at: now.naive_utc(),
                source: "table_break".into(),
                call_in_expires_at: None,
                checked_in_at: None,
                state: "waiting".into(),
                ended_at: None,
                end_reason: None,
                created_by: actor.id,
            };
            crate::native!(conn, |dbc| diesel::insert_into(waitlist_entries::table)
                .values(&row)
                .execute(dbc))?;
            audit::record::<(), _>(
                conn,
                now,
                actor,
                "list.table_break",
                "player",
                Some(*p),
                None,
                Some(&row),
            )?;
        }
    }
    emit(
        conn,
        now,
        None,
        "list.changed",
        &serde_json::json!({ "game_id": game_id, "table_break": table_id }),
    )?;
    notify_heads(conn, now, game_id, None)?;
    Ok(())
}

// ---- seat-change requests (PT-2007 12, BSOP 51) -----------------------------------------

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
    now: DateTime<Utc>,
    actor: &Actor,
    seating_id: i64,
) -> AppResult<SeatChangeRow> {
    let s = seating(conn, seating_id)?;
    if s.left_at.is_some() {
        return Err(conflict("err-already-left"));
    }
    let open: i64 = crate::native!(conn, |dbc| seat_change_requests::table
        .filter(seat_change_requests::player_id.eq(s.player_id))
        .filter(seat_change_requests::state.eq("open"))
        .count()
        .get_result(dbc))?;
    if open > 0 {
        return Err(conflict("err-seat-change-open"));
    }
    let row = SeatChangeRow {
        id: next_seq(conn, "seat_change")?,
        table_id: s.table_id,
        player_id: s.player_id,
        requested_at: now.naive_utc(),
        resolved_at: None,
        state: "open".into(),
    };
    crate::native!(conn, |dbc| diesel::insert_into(seat_change_requests::table)
        .values(&row)
        .execute(dbc))
    .map_err(|e| {
        if is_unique_violation(&e) {
            conflict("err-seat-change-open")
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
        Some(s.player_id),
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
pub fn cancel_seat_change(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    actor: &Actor,
    id: i64,
) -> AppResult<SeatChangeRow> {
    let r = seat_change(conn, id)?;
    if r.state != "open" {
        return Err(conflict("err-seat-change-not-open"));
    }
    cancel_seat_changes(conn, now, actor, r.player_id, r.table_id)?;
    let after = seat_change(conn, id)?;
    audit::record(
        conn,
        now,
        actor,
        "seat.change_cancel",
        "player",
        Some(r.player_id),
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
fn cancel_seat_changes(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    actor: &Actor,
    player_id: i64,
    table_id: i64,
) -> AppResult<()> {
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(
            seat_change_requests::table
                .filter(seat_change_requests::player_id.eq(player_id))
                .filter(seat_change_requests::table_id.eq(table_id))
                .filter(seat_change_requests::state.eq("open")),
        )
        .set((
            seat_change_requests::state.eq("cancelled"),
            seat_change_requests::resolved_at.eq(Some(now.naive_utc()))
        ))
        .returning(seat_change_requests::id)
    )
    .changed(dbc))?;
    let calls: Vec<i64> = crate::native!(conn, |dbc| seat_calls::table
        .filter(seat_calls::player_id.eq(player_id))
        .filter(seat_calls::table_id.eq(table_id))
        .filter(seat_calls::source.eq("seat_change"))
        .filter(call_open!())
        .select(seat_calls::id)
        .load(dbc))?;
    cancel_open_calls(conn, now, actor, &calls)
}

/// The open seat-change requests at a table, first asked first, each with the player and
/// their seat.
pub fn seat_changes_at(
    conn: &mut DbConn,
    table_id: i64,
) -> AppResult<Vec<(SeatChangeRow, PlayerRow, Option<i32>)>> {
    table(conn, table_id)?;
    let rows: Vec<(SeatChangeRow, PlayerRow)> =
        crate::native!(conn, |dbc| seat_change_requests::table
            .inner_join(players::table.on(players::id.eq(seat_change_requests::player_id)))
            .filter(seat_change_requests::table_id.eq(table_id))
            .filter(seat_change_requests::state.eq("open"))
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

// ---- seat holds (BSOP 45, 49) -----------------------------------------------------------

pub fn hold(conn: &mut DbConn, id: i64) -> AppResult<SeatHoldRow> {
    Ok(crate::native!(conn, |dbc| seat_holds::table
        .find(id)
        .select(SeatHoldRow::as_select())
        .first(dbc))?)
}

/// The hold on a seat now: one past its `until` holds nothing any more (BSOP 49), whether
/// or not it was released yet.
fn active_hold(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    table_id: i64,
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
#[allow(clippy::too_many_arguments)]
pub fn hold_seat(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    tz: Tz,
    actor: &Actor,
    table_id: i64,
    seat_no: i32,
    player_id: Option<i64>,
    reason: Option<&str>,
) -> AppResult<SeatHoldRow> {
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
    let profile = crate::services::room::get(conn)?.profile;
    check_seat_free(conn, now, &profile, &t, seat_no, None, None)?;
    if t.game_id.is_none() {
        return Err(conflict("err-table-no-game"));
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
            return Err(conflict("err-separated-at-table"));
        }
        let held: i64 = crate::native!(conn, |dbc| seat_holds::table
            .filter(seat_holds::player_id.eq(p.id))
            .filter(seat_holds::released_at.is_null())
            .count()
            .get_result(dbc))?;
        if held > 0 {
            return Err(conflict("err-player-has-hold"));
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
            conflict("err-seat-held")
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
        Some(table_id),
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
pub fn release_hold(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    actor: &Actor,
    id: i64,
) -> AppResult<SeatHoldRow> {
    let h = hold(conn, id)?;
    if h.released_at.is_some() {
        return Err(conflict("err-hold-released"));
    }
    end_hold(conn, now, actor, &h, "released")
}

fn end_hold(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    actor: &Actor,
    h: &SeatHoldRow,
    why: &str,
) -> AppResult<SeatHoldRow> {
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
        return Err(conflict("err-hold-released"));
    }
    let after = hold(conn, h.id)?;
    audit::record(
        conn,
        now,
        actor,
        "seat.hold_release",
        "table",
        Some(h.table_id),
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
/// `hold`: the seat's active hold as [`check_seat_free`] found it in this transaction.
fn release_holds_taken_by(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    actor: &Actor,
    hold: Option<SeatHoldRow>,
    player_id: i64,
) -> AppResult<()> {
    if let Some(h) = hold {
        if h.player_id == Some(player_id) {
            end_hold(conn, now, actor, &h, "seated")?;
        }
    }
    Ok(())
}

/// The active holds at a table, each with the alias of the player it is held for.
pub fn holds_at(conn: &mut DbConn, table_id: i64) -> AppResult<Vec<(SeatHoldRow, Option<String>)>> {
    Ok(crate::native!(conn, |dbc| seat_holds::table
        .left_join(players::table.on(players::id.nullable().eq(seat_holds::player_id)))
        .filter(seat_holds::table_id.eq(table_id))
        .filter(seat_holds::released_at.is_null())
        .order(seat_holds::seat_no.asc())
        .select((SeatHoldRow::as_select(), players::alias.nullable()))
        .load(dbc))?)
}

// ---- balance (BSOP 58, PT-2007 26) ------------------------------------------------------

/// The first seat of a table that is free now: nobody sitting, no open call, no hold.
fn first_free_seat(conn: &mut DbConn, t: &TableRow) -> AppResult<Option<i32>> {
    Ok(free_seats(conn, t)?.first().copied())
}

/// The table's seats neither taken, called nor held, in order.
fn free_seats(conn: &mut DbConn, t: &TableRow) -> AppResult<Vec<i32>> {
    let taken: Vec<i32> = seated_at(conn, t.id)?.iter().map(|s| s.seat_no).collect();
    let called: Vec<i32> = crate::native!(conn, |dbc| seat_calls::table
        .filter(seat_calls::table_id.eq(t.id))
        .filter(call_open!())
        .select(seat_calls::seat_no)
        .load(dbc))?;
    let held: Vec<i32> = crate::native!(conn, |dbc| seat_holds::table
        .filter(seat_holds::table_id.eq(t.id))
        .filter(seat_holds::released_at.is_null())
        .select(seat_holds::seat_no)
        .load(dbc))?;
    Ok((1..=t.seats)
        .filter(|n| !taken.contains(n) && !called.contains(n) && !held.contains(n))
        .collect())
}

fn first_free_in_view(v: &TableView) -> Option<i32> {
    v.seats
        .iter()
        .find(|s| s.seating.is_none() && s.call.is_none() && s.hold.is_none())
        .map(|s| s.seat_no)
}

/// BSOP 55, 58: where a new player of a game goes, among its tables in play given as
/// (table, seated, has a free seat): the must-move table when the game has one (it feeds
/// the main games); otherwise the table that needs a player most (`neediest_table`). Only a
/// table with a free seat is suggested. Returns the table id and the rule applied.
fn suggest_among(tables: &[(&TableRow, usize, bool)]) -> Option<(i64, &'static str)> {
    if let Some((t, _, free)) = tables.iter().find(|(t, _, _)| t.must_move) {
        return free.then_some((t.id, "must_move"));
    }
    let g: Vec<GameTable> = tables
        .iter()
        .map(|(t, seated, free)| GameTable {
            table_id: t.id,
            formed_at: formed_at(t),
            seated: *seated,
            // A table without a free seat counts as full.
            seats: if *free {
                t.seats.max(0) as usize
            } else {
                *seated
            },
        })
        .collect();
    neediest_table(&g).map(|id| (id, "neediest"))
}

/// The suggestion for a new player of a game.
#[derive(Debug, Clone, Serialize)]
pub struct Suggestion {
    pub table: Option<TableRow>,
    /// must_move (BSOP 55) | neediest (BSOP 58); none when no table has a free seat.
    pub rule: Option<&'static str>,
    pub seated: usize,
    /// The first free seat of the suggested table (not taken, called or held).
    pub free_seat: Option<i32>,
}

/// BSOP 58: the table of a game that needs a player most (or BSOP 55 its must-move table).
pub fn suggest_table(conn: &mut DbConn, game_id: i64) -> AppResult<Suggestion> {
    game(conn, game_id)?;
    let tables: Vec<TableRow> = crate::native!(conn, |dbc| card_tables::table
        .filter(card_tables::game_id.eq(game_id))
        .filter(table_in_play!())
        .select(TableRow::as_select())
        .load(dbc))?;
    let mut info = Vec::with_capacity(tables.len());
    for t in &tables {
        let seated = seated_count(conn, t.id)?;
        let free = first_free_seat(conn, t)?;
        info.push((t, seated, free));
    }
    let pick = suggest_among(
        &info
            .iter()
            .map(|(t, n, f)| (*t, *n, f.is_some()))
            .collect::<Vec<_>>(),
    );
    Ok(
        match pick
            .and_then(|(id, rule)| info.iter().find(|(t, _, _)| t.id == id).map(|i| (i, rule)))
        {
            Some(((t, seated, free), rule)) => Suggestion {
                table: Some((*t).clone()),
                rule: Some(rule),
                seated: *seated,
                free_seat: *free,
            },
            None => Suggestion {
                table: None,
                rule: None,
                seated: 0,
                free_seat: None,
            },
        },
    )
}

fn transfer_error(
    r: TransferRefusal,
    session: bool,
    profile: &RuleProfile,
    from_seated: usize,
    to_seated: usize,
) -> AppError {
    AppError::Conflict(match r {
        TransferRefusal::DestinationFull => Problem::new("err-transfer-destination-full"),
        TransferRefusal::CaveNotLost => Problem::new("err-transfer-cave-not-lost"),
        TransferRefusal::LeavesTableShort => {
            Problem::new("err-transfer-leaves-table-short").arg("min", profile.min_players_to_run)
        }
        TransferRefusal::Unbalances if session => Problem::new("err-transfer-unbalances-session")
            .arg("from", from_seated)
            .arg("to", to_seated),
        TransferRefusal::Unbalances => Problem::new("err-transfer-unbalances")
            .arg("from", from_seated)
            .arg("to", to_seated),
    })
}

/// BSOP 58, PT-2007 26: a player asks to move to a similar table (same game and limit).
/// Refused when the table left has fewer players than the destination (BSOP 58); in session
/// mode (either table's mode is `session`) only after losing the cave, and not if the move
/// leaves the table below the minimum or unbalances the tables (PT-2007 26). The player
/// takes the destination's first free seat (not taken, called or held). `cave_lost` comes
/// from the floor for now; the dealer tablet will report it later.
#[allow(clippy::too_many_arguments)]
pub fn transfer(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    tz: Tz,
    profile: &RuleProfile,
    actor: &Actor,
    seating_id: i64,
    to_table_id: i64,
    cave_lost: bool,
) -> AppResult<SeatingRow> {
    let s = seating(conn, seating_id)?;
    let to = table(conn, to_table_id).map_err(|e| match e {
        AppError::NotFound => AppError::field("table_id", "err-table-unknown"),
        e => e,
    })?;
    if s.left_at.is_some() {
        return Err(conflict("err-already-left"));
    }
    let from = table(conn, s.table_id)?;
    if to.id == from.id {
        return Err(conflict("err-transfer-same-table"));
    }
    if to.game_id.is_none() || to.game_id != from.game_id {
        return Err(conflict("err-transfer-not-similar"));
    }
    if !in_play(&to) {
        return Err(conflict("err-table-not-open"));
    }
    // BSOP 55, 57: players of the must-move table reach the main games in their original
    // list order: only the one whose turn it is may move to a main game now.
    if from.must_move && !to.must_move {
        let game_id = to.game_id.unwrap_or_default();
        let (due, _) = must_move_due_for(conn, now, tz, &to, game_id)?;
        if due.first() != Some(&s.player_id) {
            return Err(conflict("err-transfer-from-must-move"));
        }
    }
    let from_seated = seated_count(conn, from.id)?;
    let to_seated = seated_count(conn, to.id)?;
    let free = first_free_seat(conn, &to)?;
    let to_seats = if free.is_some() {
        to.seats.max(0) as usize
    } else {
        to_seated
    };
    let session = from.mode == "session" || to.mode == "session";
    transfer_allowed(
        from_seated,
        to_seated,
        to_seats,
        session,
        cave_lost,
        profile.min_players_to_run,
    )
    .map_err(|r| transfer_error(r, session, profile, from_seated, to_seated))?;
    let seat_no = free.ok_or_else(|| conflict("err-transfer-destination-full"))?;
    move_player(
        conn,
        now,
        tz,
        profile,
        actor,
        &s,
        &to,
        seat_no,
        None,
        "transfer",
        "seat.transfer",
    )
}
