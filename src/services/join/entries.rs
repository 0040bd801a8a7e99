//! The phone entries on the lists: where each came from, and the check-in when the player
//! scans the desk's code.

use crate::db::audit::Actor;
use crate::db::schema::waitlist_entries;
use crate::db::DbConn;
use crate::domain::ids::EntryId;
use crate::domain::ids::PlayerId;
use crate::domain::remote_join::EntrySource;
use crate::domain::states::ListSource;
use crate::error::AppResult;
use crate::services::floor;
use crate::services::Acting;
use chrono::{DateTime, NaiveDateTime, Utc};
use diesel::prelude::*;

/// The player scanned the desk's code with their link open: every
/// entry of theirs waiting for a check-in is checked in (`floor::check_in`, audited each).
/// Returns how many.
pub fn check_in_at_desk(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    player_id: PlayerId,
) -> AppResult<usize> {
    let ids: Vec<(i64, Option<NaiveDateTime>)> = waitlist_entries::table
        .filter(waitlist_entries::player_id.eq(player_id))
        .filter(crate::db::conditions::EntryActive)
        .filter(waitlist_entries::source.eq(ListSource::CallIn))
        .filter(waitlist_entries::checked_in_at.is_null())
        .select((waitlist_entries::id, waitlist_entries::call_in_expires_at))
        .load(conn)?;
    let act = &Acting::new(now, Actor::player(player_id)).in_room(conn)?;
    let mut n = 0;
    for (id, exp) in ids {
        if exp.is_some_and(|t| t.and_utc() <= now) {
            continue; // lapsed: the desk puts them back on the list if it will
        }
        floor::check_in(conn, act, EntryId(id))?;
        n += 1;
    }
    Ok(n)
}

/// The entries' origins, for the lines a page shows: entry id → source.
pub fn origins(conn: &mut DbConn, entry_ids: &[EntryId]) -> AppResult<Vec<(EntryId, EntrySource)>> {
    if entry_ids.is_empty() {
        return Ok(Vec::new());
    }
    let rows: Vec<(EntryId, String, Option<String>)> = waitlist_entries::table
        .filter(waitlist_entries::id.eq_any(entry_ids))
        .select((
            waitlist_entries::id,
            waitlist_entries::source,
            waitlist_entries::via,
        ))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(id, s, v)| (id, EntrySource::of(&s, v.as_deref())))
        .collect())
}
