//! Small reads the pages share to fill their choices and headings: names and numbers of
//! games, tables and staff, in the order a person looks for them.

use crate::db::models::OutboxStatus;
use crate::db::schema::{cagnotte_sessions, card_tables, games, players, staff, waitlist_entries};
use crate::db::DbConn;
use crate::domain::ids::EntryId;
use crate::domain::ids::GameId;
use crate::domain::ids::PlayerId;
use crate::domain::states::CallState;
use crate::error::AppResult;
use diesel::prelude::*;

/// The names of these games, alphabetically.
pub fn game_names(conn: &mut DbConn, ids: &[GameId]) -> AppResult<Vec<String>> {
    Ok(crate::native!(conn, |c| games::table
        .filter(games::id.eq_any(ids))
        .order(games::name.asc())
        .select(games::name)
        .load(c))?)
}

/// Every game, (id, name), alphabetically.
pub fn games(conn: &mut DbConn) -> AppResult<Vec<(i64, String)>> {
    Ok(crate::native!(conn, |c| games::table
        .order(games::name.asc())
        .select((games::id, games::name))
        .load(c))?)
}

/// Every table, (id, number), by number; `active_only` leaves out the tables taken out of
/// service.
pub fn tables(conn: &mut DbConn, active_only: bool) -> AppResult<Vec<(i64, i32)>> {
    let all: Vec<(i64, i32, bool)> = crate::native!(conn, |c| card_tables::table
        .order(card_tables::number.asc())
        .select((card_tables::id, card_tables::number, card_tables::active))
        .load(c))?;
    Ok(all
        .into_iter()
        .filter(|(_, _, active)| *active || !active_only)
        .map(|(id, number, _)| (id, number))
        .collect())
}

/// Every staff member, (id, name shown), alphabetically.
pub fn staff(conn: &mut DbConn) -> AppResult<Vec<(i64, String)>> {
    Ok(crate::native!(conn, |c| staff::table
        .order(staff::display_name.asc())
        .select((staff::id, staff::display_name))
        .load(c))?)
}

/// The tables with a cagnotte session open (PT-2007 7b), (id, number), by number.
pub fn tables_with_open_session(conn: &mut DbConn) -> AppResult<Vec<(i64, i32)>> {
    Ok(crate::native!(conn, |c| cagnotte_sessions::table
        .inner_join(card_tables::table.on(card_tables::id.eq(cagnotte_sessions::table_id)))
        .filter(cagnotte_sessions::closed_at.is_null())
        .order(card_tables::number.asc())
        .select((card_tables::id, card_tables::number))
        .load(c))?)
}

/// A player's language as recorded, if the player exists.
pub fn player_language(conn: &mut DbConn, player: PlayerId) -> AppResult<Option<String>> {
    Ok(crate::native!(conn, |c| players::table
        .find(player)
        .select(players::language)
        .first::<String>(c)
        .optional())?)
}

/// A player's active list entries on the games named: (entry, game, game's name), by name.
pub fn entries_on_games_named(
    conn: &mut DbConn,
    player: PlayerId,
    names: &[String],
) -> AppResult<Vec<(EntryId, GameId, String)>> {
    Ok(crate::native!(conn, |c| waitlist_entries::table
        .inner_join(games::table.on(games::id.eq(waitlist_entries::game_id)))
        .filter(waitlist_entries::player_id.eq(player))
        .filter(crate::db::conditions::EntryActive)
        .filter(games::name.eq_any(names))
        .order(games::name.asc())
        .select((waitlist_entries::id, waitlist_entries::game_id, games::name))
        .load(c))?)
}

/// What `GET /metrics` reads of the database: messages waiting and failed, the oldest
/// waiting, seat calls open, and the audit trail's length.
pub struct Backlog {
    pub outbox_pending: i64,
    pub outbox_failed: i64,
    pub outbox_oldest_pending: Option<chrono::NaiveDateTime>,
    pub seat_calls_open: i64,
    pub audit_records: i64,
}

pub fn backlog(conn: &mut DbConn) -> AppResult<Backlog> {
    use crate::db::schema::{outbox::dsl as o, seat_calls::dsl as s};
    let (outbox_pending, outbox_failed, outbox_oldest_pending, seat_calls_open) =
        crate::native!(conn, |c| (|| -> QueryResult<_> {
            let pending: i64 = o::outbox
                .filter(o::status.eq_any([OutboxStatus::Pending, OutboxStatus::Sending]))
                .count()
                .get_result(c)?;
            let failed: i64 = o::outbox
                .filter(o::status.eq(OutboxStatus::Failed))
                .count()
                .get_result(c)?;
            let oldest: Option<chrono::NaiveDateTime> = o::outbox
                .filter(o::status.eq_any([OutboxStatus::Pending, OutboxStatus::Sending]))
                .select(diesel::dsl::min(o::created_at))
                .first(c)?;
            let open: i64 = s::seat_calls
                .filter(s::state.eq_any([CallState::Pending, CallState::Acknowledged]))
                .count()
                .get_result(c)?;
            Ok((pending, failed, oldest, open))
        })())?;
    Ok(Backlog {
        outbox_pending,
        outbox_failed,
        outbox_oldest_pending,
        seat_calls_open,
        audit_records: crate::db::current_seq(conn, "audit")?,
    })
}
