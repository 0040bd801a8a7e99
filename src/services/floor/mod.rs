//! The floor's core loop: waiting lists, seat calls and seating, with every rule asked of
//! the domain and every change audited and pushed as an event in the same transaction.
//!
//! This file holds what every action shares: the imports and state filters, events,
//! messages to players and small readers; the actions live in submodules by topic,
//! re-exported here.

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
use crate::domain::ids::EntryId;
use crate::domain::ids::GameId;
use crate::domain::ids::PlayerId;
use crate::domain::ids::SeatCallId;
use crate::domain::ids::SeatingId;
use crate::domain::ids::TableId;
use crate::domain::profile::{CallExpiry, RuleProfile};
use crate::domain::refusal::PlayerRefusal;
use crate::domain::states::CallSource;
use crate::domain::states::EntryState;
use crate::domain::table::{
    evaluate, may_rejoin_after_refusal, must_move_due, must_move_table, transfer_allowed,
    GameTable, MustMovePlayer, TableState, TransferRefusal, Transition,
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

// State filters written into the SQL as literals (`db::conditions`): PostgreSQL's generic
// plans then use the partial indexes on these states, and every statement stays prepared.

/// A seat call still open: pending or acknowledged.
macro_rules! call_open {
    () => {
        crate::db::conditions::CallOpen
    };
}

/// A list entry still active: waiting or called.
macro_rules! entry_active {
    () => {
        crate::db::conditions::EntryActive
    };
}

/// A table in play: open, running or suspended.
macro_rules! table_in_play {
    () => {
        crate::db::conditions::TableInPlay
    };
}

mod board;
mod calling;
mod calls;
mod extra_seat;
mod holds;
mod leave;
mod lists;
mod moves;
mod must_move;
mod player_checks;
mod seat_changes;
mod seat_checks;
mod seating;
mod table_rules;
mod transfer;
pub use board::*;
pub use calling::*;
pub use calls::*;
pub(crate) use extra_seat::end_open_seating;
pub use holds::*;
pub use leave::*;
pub use lists::*;
pub use moves::*;
pub use must_move::*;
use player_checks::*;
pub use seat_changes::*;
use seat_checks::*;
pub use seating::*;
pub use table_rules::*;
pub use transfer::*;

/// Appends an event to the push stream (same transaction as the change).
pub fn emit<P: Serialize>(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    table_id: Option<TableId>,
    kind: &str,
    payload: &P,
) -> AppResult<i64> {
    let body = serde_json::to_string(payload).unwrap_or_default();
    // PostgreSQL, inside a write: kept for the write's one tail statement (`db::tail`).
    let seq = match crate::db::tail::push_event(conn, now.naive_utc(), table_id, kind, &body) {
        Some(seq) => seq?,
        None => {
            let seq = next_seq(conn, "event")?;
            crate::native!(conn, |dbc| diesel::insert_into(events::table)
                .values((
                    events::seq.eq(seq),
                    events::at.eq(now.naive_utc()),
                    events::table_id.eq(table_id),
                    events::kind.eq(kind),
                    events::payload.eq(&body),
                ))
                .execute(dbc))?;
            seq
        }
    };
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

// ---- messages to players (`crate::notify`) ----------------------------------------
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
    notify::tell(conn, now, PlayerId(player_id), Kind::Custody, |c, p| {
        p.table = Some(table(c, TableId(table_id))?.number);
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
    player: Option<&PlayerRow>,
) -> AppResult<()> {
    let kind = match call.source {
        CallSource::List => Kind::SeatReady,
        CallSource::MustMove => Kind::MustMove,
        CallSource::SeatChange => return Ok(()),
    };
    let fill = |c: &mut DbConn, p: &mut Params| {
        p.game = game_name.get(c)?;
        p.table = Some(t.number);
        p.seat = Some(call.seat_no);
        p.respond_by = Some(call.respond_by.and_utc());
        Ok(())
    };
    match player.filter(|p| p.id == call.player_id) {
        // The player the call checked (not read again).
        Some(p) => {
            let room = room_facts(conn)?;
            messages::tell_player(conn, now, p, &room, kind, fill)?
        }
        None => notify::tell(conn, now, call.player_id, kind, fill)?,
    };
    Ok(())
}

/// The room as a message says it: from the room this write read (`room::get`, read once
/// per write transaction).
fn room_facts(conn: &mut DbConn) -> AppResult<messages::RoomFacts> {
    let r = crate::services::room::get(conn)?;
    Ok(messages::RoomFacts {
        name: r.name,
        tz: r.timezone,
        currency: r.currency,
    })
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
pub(crate) fn notify_heads(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    game_id: GameId,
    quiet: Option<EntryId>,
) -> AppResult<()> {
    notify_heads_of(conn, now, &mut GameName::of(Some(game_id)), quiet, None)
}

/// A game's name, read once for all the messages of one change (statements).
struct GameName {
    id: Option<GameId>,
    name: Option<Option<String>>,
}

impl GameName {
    fn of(id: Option<GameId>) -> GameName {
        GameName { id, name: None }
    }

    fn get(&mut self, conn: &mut DbConn) -> AppResult<Option<String>> {
        if self.name.is_none() {
            self.name = Some(self.id.map(|g| game(conn, g)).transpose()?.map(|g| g.name));
        }
        Ok(self.name.clone().flatten())
    }
}

/// How many entries of a list are read first: the head (told they are next) is among them,
/// and so, usually, is the next player a call picks.
const HEAD_PAGE: i64 = 8;

/// [`notify_heads`] with the game's name shared with the change's other messages. `page`:
/// the list's first entries as this write left them, when the caller has them (at least the
/// first [`messages::NEARLY_NEXT_UP_TO`] not lapsed, or the whole list): not read again.
fn notify_heads_of(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    game_name: &mut GameName,
    quiet: Option<EntryId>,
    page: Option<Vec<WaitlistRow>>,
) -> AppResult<()> {
    let Some(game_id) = game_name.id else {
        return Ok(());
    };
    let rows = match page {
        Some(rows) => rows,
        None => waiting_page(conn, game_id, 0, HEAD_PAGE)?,
    };
    let head: Vec<&WaitlistRow> = rows
        .iter()
        .filter(|r| !as_entry(r).lapsed(now))
        .take(messages::NEARLY_NEXT_UP_TO)
        .collect();
    if head.is_empty() {
        return Ok(());
    }
    let marks = messages::marks_of(conn, &head.iter().map(|e| e.id.get()).collect::<Vec<_>>())?;
    let has = |id: i64, k: Kind| marks.iter().any(|(e, m)| *e == id && m == k.as_str());
    let due: Vec<(usize, &WaitlistRow, Kind)> = head
        .into_iter()
        .enumerate()
        .map(|(i, e)| (i, e, if i == 0 { Kind::Next } else { Kind::NearlyNext }))
        .filter(|&(_, e, kind)| {
            !(has(e.id.get(), Kind::Next)
                || (kind == Kind::NearlyNext && has(e.id.get(), Kind::NearlyNext)))
        })
        .collect();
    let marked: Vec<(i64, Kind)> = due.iter().map(|&(_, e, kind)| (e.id.get(), kind)).collect();
    messages::mark_all(conn, now, &marked)?;
    // The players told, read in one statement (usually two).
    let told: Vec<PlayerId> = due
        .iter()
        .filter(|(_, e, _)| quiet != Some(e.id))
        .map(|(_, e, _)| e.player_id)
        .collect();
    if told.is_empty() {
        return Ok(());
    }
    // Three ids a statement, so that it stays prepared (`messages::in_threes`).
    let mut players: Vec<PlayerRow> = Vec::new();
    for [a, b, c] in messages::in_threes(&told) {
        players.extend(crate::native!(conn, |dbc| players::table
            .filter(
                players::id
                    .eq(a)
                    .or(players::id.eq(b))
                    .or(players::id.eq(c))
            )
            .select(PlayerRow::as_select())
            .load::<PlayerRow>(dbc))?);
    }
    let room = room_facts(conn)?;
    for (i, e, kind) in due {
        if quiet == Some(e.id) {
            continue;
        }
        let Some(p) = players.iter().find(|p| p.id == e.player_id) else {
            continue;
        };
        messages::tell_player(conn, now, p, &room, kind, |c, params| {
            params.game = game_name.get(c)?;
            params.position = Some(i as i64 + 1);
            Ok(())
        })?;
    }
    Ok(())
}

/// The place a player who just joined (at the bottom) has: everyone on the list who has not
/// lapsed, this player included (PT-2007 8a, as `domain::waitlist::positions` counts).
fn place_at_bottom(conn: &mut DbConn, now: DateTime<Utc>, game_id: GameId) -> AppResult<i64> {
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
    AppError::from(match reasons.first() {
        Some(Ineligible::Under18) => PlayerRefusal::CannotPlayUnder18,
        Some(Ineligible::NoPhoto) => PlayerRefusal::CannotPlayNoPhoto,
        Some(Ineligible::IdExpired) => PlayerRefusal::CannotPlayIdExpired,
        Some(Ineligible::Banned) | None => PlayerRefusal::CannotPlayBanned,
    })
}

fn game(conn: &mut DbConn, id: GameId) -> AppResult<GameRow> {
    Ok(crate::native!(conn, |dbc| games::table
        .find(id)
        .select(GameRow::as_select())
        .first(dbc))?)
}

fn table(conn: &mut DbConn, id: TableId) -> AppResult<TableRow> {
    Ok(crate::native!(conn, |dbc| card_tables::table
        .find(id)
        .select(TableRow::as_select())
        .first(dbc))?)
}

fn entries(conn: &mut DbConn, game_id: GameId) -> AppResult<Vec<WaitlistRow>> {
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
fn bottom_key(conn: &mut DbConn, game_id: GameId) -> AppResult<i64> {
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
    game_id: GameId,
    offset: i64,
    limit: i64,
) -> AppResult<Vec<WaitlistRow>> {
    Ok(crate::native!(conn, |dbc| waitlist_entries::table
        .filter(waitlist_entries::game_id.eq(game_id))
        .filter(crate::db::conditions::EntryWaiting)
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
        id: r.id.get(),
        player_id: r.player_id,
        order_key: r.order_key,
        joined_at: r.joined_at.and_utc(),
        call_in_expires_at: if r.checked_in_at.is_some() {
            None
        } else {
            r.call_in_expires_at.map(|t| t.and_utc())
        },
        called: r.state == EntryState::Called,
    }
}

/// One list entry, whatever its state.
pub fn entry(conn: &mut DbConn, id: EntryId) -> AppResult<WaitlistRow> {
    Ok(crate::native!(conn, |dbc| waitlist_entries::table
        .find(id)
        .select(WaitlistRow::as_select())
        .first(dbc))?)
}

pub fn call(conn: &mut DbConn, id: SeatCallId) -> AppResult<SeatCallRow> {
    Ok(crate::native!(conn, |dbc| seat_calls::table
        .find(id)
        .select(SeatCallRow::as_select())
        .first(dbc))?)
}

/// One seating, whatever its state.
pub fn seating(conn: &mut DbConn, id: SeatingId) -> AppResult<SeatingRow> {
    Ok(crate::native!(conn, |dbc| seatings::table
        .find(id)
        .select(SeatingRow::as_select())
        .first(dbc))?)
}

/// BSOP 46: the one seat a player holds now, if any.
fn current_seating(conn: &mut DbConn, player_id: PlayerId) -> AppResult<Option<SeatingRow>> {
    Ok(crate::native!(conn, |dbc| seatings::table
        .filter(seatings::player_id.eq(player_id))
        .filter(seatings::left_at.is_null())
        .select(SeatingRow::as_select())
        .first(dbc))
    .optional()?)
}
