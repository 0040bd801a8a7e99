//! Whether a player may play now (BSOP 1, 2, 3): their registration and any ban in force.

use crate::db::models::{ExclusionRow, PlayerRow};
use crate::db::schema::exclusions;
use crate::db::DbConn;
use crate::domain::age::room_date;
use crate::domain::eligibility::{eligible_to_play, Ban, Ineligible, PlayerFacts};
use crate::domain::ids::PlayerId;
use crate::error::AppResult;
use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use diesel::prelude::*;

pub(super) fn bans_of(conn: &mut DbConn, player_id: PlayerId) -> AppResult<Vec<ExclusionRow>> {
    Ok(crate::native!(conn, |dbc| exclusions::table
        .filter(exclusions::player_id.eq(player_id))
        .order(exclusions::starts_at.desc())
        .select(ExclusionRow::as_select())
        .load(dbc))?)
}

pub(super) fn as_ban(e: &ExclusionRow) -> Ban {
    Ban {
        starts_at: e.starts_at.and_utc(),
        ends_at: e.ends_at.map(|t| t.and_utc()),
        lifted_at: e.lifted_at.map(|t| t.and_utc()),
    }
}

/// The one check every seating path uses (BSOP 1, 2, 3, 10): empty means eligible.
pub fn eligibility(
    conn: &mut DbConn,
    player: &PlayerRow,
    now: DateTime<Utc>,
    tz: Tz,
) -> AppResult<Vec<Ineligible>> {
    let bans: Vec<Ban> = bans_of(conn, player.id)?.iter().map(as_ban).collect();
    Ok(eligible_with(player, &bans, now, tz))
}

/// [`eligibility`] of a player known to have no exclusion on record (in force or not): the
/// same answer without reading the exclusions.
pub fn eligibility_without_bans(player: &PlayerRow, now: DateTime<Utc>, tz: Tz) -> Vec<Ineligible> {
    eligible_with(player, &[], now, tz)
}

fn eligible_with(player: &PlayerRow, bans: &[Ban], now: DateTime<Utc>, tz: Tz) -> Vec<Ineligible> {
    let facts = PlayerFacts {
        date_of_birth: player.date_of_birth,
        doc_expiry: player.doc_expiry,
        has_photo: player.has_photo,
    };
    eligible_to_play(&facts, bans, now, room_date(now, tz))
}

/// Of these players, the ones with a ban in force now (for lists).
pub fn banned_now(
    conn: &mut DbConn,
    ids: &[PlayerId],
    now: DateTime<Utc>,
) -> AppResult<std::collections::HashSet<PlayerId>> {
    let rows: Vec<ExclusionRow> = crate::native!(conn, |dbc| exclusions::table
        .filter(exclusions::player_id.eq_any(ids))
        .filter(exclusions::lifted_at.is_null())
        .select(ExclusionRow::as_select())
        .load(dbc))?;
    Ok(rows
        .iter()
        .filter(|e| as_ban(e).in_force(now))
        .map(|e| e.player_id)
        .collect())
}
