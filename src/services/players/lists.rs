//! A player put on waiting lists from the registry, and the lists they are on.

use super::search::get;
use crate::db::DbConn;
use crate::domain::ids::GameId;
use crate::domain::ids::PlayerId;
use crate::error::{AppError, AppResult};
use crate::services::Act;
use diesel::prelude::*;

/// One list's outcome in [`join_lists`].
#[derive(Debug)]
pub struct ListJoin {
    pub game_id: GameId,
    /// The game's name, to say which list (the id when there is no such game).
    pub game: String,
    pub result: AppResult<crate::db::models::WaitlistRow>,
}

/// "add to a list from the player's record": adds the player to several games'
/// lists at once, each through [`crate::services::floor::join`] — the floor's own join, with its rules
/// (BSOP 1-3, 10 eligibility, BSOP 55 return window, one entry per list), audit record
/// (`list.join`), live update and message to the player. Each join runs in its own savepoint:
/// a list that refuses is undone alone and named in the outcome, the others are joined (a
/// floor manager at the desk wants the player on every list that can take them). Errors
/// other than a refusal (the database) end the whole write.
pub fn join_lists(
    conn: &mut DbConn,
    act: &Act,
    player_id: PlayerId,
    game_ids: &[GameId],
    call_in: bool,
) -> AppResult<Vec<ListJoin>> {
    // An unknown player is the request's refusal, not each list's.
    get(conn, player_id)?;
    let mut out = Vec::with_capacity(game_ids.len());
    for &game_id in game_ids {
        let game = crate::services::games::get_game(conn, game_id)
            .map(|g| g.name)
            .unwrap_or_else(|_| format!("#{game_id}"));
        let result = crate::db::savepoint(conn, |c| {
            crate::services::floor::join(c, act, game_id, player_id, call_in)
        });
        match result {
            Err(e @ (AppError::Conflict(_) | AppError::Validation(_) | AppError::NotFound)) => out
                .push(ListJoin {
                    game_id,
                    game,
                    result: Err(e),
                }),
            Err(e) => return Err(e),
            Ok(row) => out.push(ListJoin {
                game_id,
                game,
                result: Ok(row),
            }),
        }
    }
    Ok(out)
}

/// The games whose lists the player is on now (waiting or called): the record shows them
/// ticked and not to be ticked again.
pub fn lists_of(conn: &mut DbConn, player_id: PlayerId) -> AppResult<Vec<GameId>> {
    use crate::db::schema::waitlist_entries as w;
    // The same states as the floor's "active entry" (`services::floor`).
    Ok(crate::native!(conn, |dbc| w::table
        .filter(w::player_id.eq(player_id))
        .filter(crate::db::conditions::EntryActive)
        .select(w::game_id)
        .distinct()
        .load(dbc))?)
}
