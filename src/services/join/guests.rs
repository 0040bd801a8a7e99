//! The guest places the desk sees: registering a guest as a player (BSOP 1, 3, 44) or
//! removing their place.

use super::verify::list_entries;
use crate::db::audit::{self};
use crate::db::schema::{games, guest_entries, guests, waitlist_entries};
use crate::db::{next_seq, DbConn};
use crate::domain::ids::EntryId;
use crate::domain::ids::GameId;
use crate::domain::ids::PlayerId;
use crate::domain::refusal::{JoinRefusal, ListRefusal};
use crate::domain::remote_join::{self as rj, EntrySource};
use crate::domain::states::EntryState;
use crate::domain::states::GuestState;
use crate::domain::waitlist::Entry;
use crate::error::AppResult;
use crate::notify::Kind;
use crate::services::floor;
use crate::services::Act;
use chrono::{DateTime, NaiveDateTime, Utc};
use diesel::prelude::*;
use serde::Serialize;

/// A guest keeping places, as the board shows them.
#[derive(Debug, Clone, Serialize)]
pub struct GuestLine {
    pub entry_id: i64,
    pub guest_id: i64,
    pub game_id: GameId,
    pub name: String,
    pub phone: String,
    /// The place kept among the list's entries (1 = next).
    pub place: usize,
    pub expires_at: DateTime<Utc>,
    pub source: EntrySource,
}

/// Every guest place still kept (not registered, not lapsed), by game, each with its place.
pub fn guest_lines(conn: &mut DbConn, now: DateTime<Utc>) -> AppResult<Vec<GuestLine>> {
    let rows: Vec<(
        i64,
        i64,
        GameId,
        i64,
        NaiveDateTime,
        String,
        NaiveDateTime,
        String,
        String,
    )> = guest_entries::table
        .inner_join(guests::table)
        .filter(crate::db::conditions::GuestWaiting)
        .filter(guest_entries::expires_at.gt(now.naive_utc()))
        .order((
            guest_entries::order_key.asc(),
            guest_entries::joined_at.asc(),
        ))
        .select((
            guest_entries::id,
            guest_entries::guest_id,
            guest_entries::game_id,
            guest_entries::order_key,
            guest_entries::joined_at,
            guest_entries::via,
            guest_entries::expires_at,
            guests::full_name,
            guests::phone,
        ))
        .load(conn)?;
    let mut lists: std::collections::HashMap<GameId, Vec<Entry>> = std::collections::HashMap::new();
    let mut out = Vec::new();
    for (entry_id, guest_id, game_id, key, joined, via, exp, name, phone) in rows {
        let list = match lists.entry(game_id) {
            std::collections::hash_map::Entry::Occupied(o) => o.into_mut(),
            std::collections::hash_map::Entry::Vacant(v) => v.insert(list_entries(conn, game_id)?),
        };
        let place = rj::guest_place(list, key, joined.and_utc(), now);
        out.push(GuestLine {
            entry_id,
            guest_id,
            game_id,
            name,
            phone,
            place,
            expires_at: exp.and_utc(),
            source: EntrySource::of("call_in", Some(&via)),
        });
    }
    Ok(out)
}

/// A guest as the registration form starts from (name, phone), if still unregistered.
pub fn guest(conn: &mut DbConn, id: i64) -> AppResult<(String, String)> {
    Ok(guests::table
        .find(id)
        .filter(guests::player_id.is_null())
        .select((guests::full_name, guests::phone))
        .first(conn)?)
}

/// BSOP 1, 3: the desk registered a guest (photo ID, 18 or over): each place the guest still
/// keeps becomes the new player's list entry at that very place (its key and joining time),
/// checked in (they are at the desk), marked with its origin; the player is told as a desk
/// join is. Runs in the registration's transaction.
pub fn adopt_guest(
    conn: &mut DbConn,
    act: &Act,
    guest_id: i64,
    player_id: PlayerId,
) -> AppResult<usize> {
    let (now, actor) = (act.now, &act.actor);
    let n = diesel::update(
        guests::table
            .find(guest_id)
            .filter(guests::player_id.is_null()),
    )
    .set((
        guests::player_id.eq(Some(player_id)),
        guests::registered_at.eq(Some(now.naive_utc())),
    ))
    .execute(conn)?;
    if n != 1 {
        return Err(JoinRefusal::GuestRegistered.into());
    }
    let places: Vec<(i64, GameId, i64, NaiveDateTime, String)> = guest_entries::table
        .filter(guest_entries::guest_id.eq(guest_id))
        .filter(crate::db::conditions::GuestWaiting)
        .filter(guest_entries::expires_at.gt(now.naive_utc()))
        .select((
            guest_entries::id,
            guest_entries::game_id,
            guest_entries::order_key,
            guest_entries::joined_at,
            guest_entries::via,
        ))
        .load(conn)?;
    let mut moved = 0;
    for (gid, game_id, key, joined, via) in places {
        // One entry per player per list: a new player has none, but the unique index decides.
        let entry_id = EntryId(next_seq(conn, "waitlist")?);
        let row = crate::db::models::WaitlistRow {
            id: entry_id,
            game_id,
            player_id,
            order_key: key,
            joined_at: joined,
            source: EntrySource::Desk.stored_source(),
            call_in_expires_at: None,
            checked_in_at: Some(now.naive_utc()),
            state: EntryState::Waiting,
            ended_at: None,
            end_reason: None,
            created_by: actor.id,
        };
        diesel::insert_into(waitlist_entries::table)
            .values(&row)
            .execute(conn)?;
        diesel::update(waitlist_entries::table.find(entry_id))
            .set(waitlist_entries::via.eq(Some(via.as_str())))
            .execute(conn)?;
        diesel::update(guest_entries::table.find(gid))
            .set((
                guest_entries::state.eq(GuestState::Registered),
                guest_entries::ended_at.eq(Some(now.naive_utc())),
                guest_entries::entry_id.eq(Some(entry_id)),
            ))
            .execute(conn)?;
        audit::record::<(), _>(
            conn,
            now,
            actor,
            "list.join_guest",
            "player",
            Some(player_id.get()),
            None,
            Some(&serde_json::json!({ "guest_id": guest_id, "guest_entry": gid, "entry": row })),
        )?;
        floor::emit(
            conn,
            now,
            None,
            "list.changed",
            &serde_json::json!({ "game_id": game_id }),
        )?;
        let place = floor::place_of(conn, game_id, entry_id, now)?.map(|p| p.position as i64);
        let gname: String = games::table.find(game_id).select(games::name).first(conn)?;
        crate::notify::tell(conn, now, player_id, Kind::Added, |_, p| {
            p.game = Some(gname);
            p.position = place;
            Ok(())
        })?;
        // As a desk join: the new entry is marked (it was told its place just now) and whoever
        // the list's head now holds is told once, so a guest registered at the head is not
        // sent "you are next" again by the next change of the list.
        floor::notify_heads(conn, now, game_id, Some(entry_id))?;
        moved += 1;
    }
    Ok(moved)
}

/// The floor takes a guest's kept place off a list (the guest left, or will not register),
/// with a reason (audited `list.guest_remove`).
pub fn remove_guest_entry(conn: &mut DbConn, act: &Act, id: i64, reason: &str) -> AppResult<()> {
    let (now, actor) = (act.now, &act.actor);
    let (game_id, guest_id): (GameId, i64) = guest_entries::table
        .find(id)
        .select((guest_entries::game_id, guest_entries::guest_id))
        .first(conn)?;
    let n = diesel::update(
        guest_entries::table
            .find(id)
            .filter(crate::db::conditions::GuestWaiting),
    )
    .set((
        guest_entries::state.eq(GuestState::Removed),
        guest_entries::ended_at.eq(Some(now.naive_utc())),
    ))
    .execute(conn)?;
    if n != 1 {
        return Err(ListRefusal::EntryNotActive.into());
    }
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "list.guest_remove",
        "guest",
        Some(guest_id),
        None,
        Some(
            &serde_json::json!({ "guest_entry": id, "game_id": game_id, "reason": reason.trim() }),
        ),
    )?;
    floor::emit(
        conn,
        now,
        None,
        "list.changed",
        &serde_json::json!({ "game_id": game_id }),
    )?;
    Ok(())
}
