//! The games a phone may join now, with each running game's wait.

use crate::db::schema::{card_tables, games, guest_entries, waitlist_entries};
use crate::db::DbConn;
use crate::domain::ids::GameId;
use crate::domain::waitlist::{self};
use crate::error::AppResult;
use chrono::{DateTime, NaiveDateTime, Utc};
use diesel::prelude::*;
use serde::Serialize;

/// A game a phone may join: running, or with an interest list.
#[derive(Debug, Clone, Serialize)]
pub struct OfferedGame {
    pub id: GameId,
    pub name: String,
    pub small_blind: i64,
    pub big_blind: i64,
    /// BSOP 24: the buy-in range.
    pub buy_in_min: i64,
    pub buy_in_max: Option<i64>,
    /// A table of the game is in play (else it is an interest list).
    pub running: bool,
    /// Players on the list now (guests keeping a place included).
    pub waiting: usize,
    /// Interest list: players still needed to start (PT-2007 24).
    pub needed: Option<usize>,
    /// The wait of someone joining now (`services::waits`, as every screen shows it; None:
    /// an interest list).
    pub wait: Option<crate::domain::waits::WaitEstimate>,
}

/// The games a phone may join now: every active game — its list when a table is in play,
/// else its interest list (PT-2007 24: players still needed to start one), as the lobby
/// screen shows them; an empty interest list is how a game starts. Read in a few
/// statements whatever the room's size. With `models`, each running game's wait for a player
/// joining now (`services::waits`); without, no wait figures (the rules that only need which
/// games are offered).
pub fn offered(
    conn: &mut DbConn,
    models: Option<&crate::services::waits::Models>,
    now: DateTime<Utc>,
    min_players_to_run: i32,
) -> AppResult<Vec<OfferedGame>> {
    let active: Vec<(GameId, String, i64, i64, i64, Option<i64>)> = games::table
        .filter(games::active.eq(true))
        .order(games::name.asc())
        .select((
            games::id,
            games::name,
            games::small_blind,
            games::big_blind,
            games::buy_in_min,
            games::buy_in_max,
        ))
        .load(conn)?;
    let in_play: Vec<Option<GameId>> = card_tables::table
        .filter(card_tables::active.eq(true))
        .filter(crate::db::conditions::TableInPlay)
        .select(card_tables::game_id)
        .load(conn)?;
    let entries: Vec<(GameId, Option<NaiveDateTime>, Option<NaiveDateTime>)> =
        waitlist_entries::table
            .filter(crate::db::conditions::EntryActive)
            .select((
                waitlist_entries::game_id,
                waitlist_entries::call_in_expires_at,
                waitlist_entries::checked_in_at,
            ))
            .load(conn)?;
    let guests_waiting: Vec<GameId> = guest_entries::table
        .filter(crate::db::conditions::GuestWaiting)
        .filter(guest_entries::expires_at.gt(now.naive_utc()))
        .select(guest_entries::game_id)
        .load(conn)?;
    let t = now.naive_utc();
    let running_ids: Vec<GameId> = active
        .iter()
        .map(|g| g.0)
        .filter(|id| in_play.contains(&Some(*id)))
        .collect();
    let mut waits_of = match models {
        Some(m) => crate::services::waits::of_games(conn, m, now, &running_ids)?,
        None => std::collections::HashMap::new(),
    };
    let mut out = Vec::new();
    for (id, name, small_blind, big_blind, buy_in_min, buy_in_max) in active {
        let running = in_play.contains(&Some(id));
        let on_list = entries
            .iter()
            .filter(|(g, exp, checked)| {
                *g == id && (checked.is_some() || exp.is_none_or(|x| x > t))
            })
            .count();
        let waiting = on_list + guests_waiting.iter().filter(|g| **g == id).count();
        let wait = if running {
            waits_of.remove(&id).unwrap_or_default().for_ahead(waiting)
        } else {
            None
        };
        out.push(OfferedGame {
            id,
            name,
            small_blind,
            big_blind,
            buy_in_min,
            buy_in_max,
            running,
            waiting,
            needed: (!running).then(|| waitlist::players_needed(on_list, min_players_to_run)),
            wait,
        });
    }
    Ok(out)
}
