//! The wait every screen shows (PT-2007 8a, BSOP 43): the floor board's lists, the player's
//! own page, `/join` (and the kiosk) and the lobby ask [`of_games`] and read the same figure
//! from it, so a player never sees one wait on their phone and another on the screen.
//!
//! Read in six statements whatever the number of games: the games' tables in play, who sits,
//! is called or holds a seat there now, and the games' seatings and list entries of the nights
//! the estimate looks at (`domain::waits::history_since`); the fit itself is
//! `domain::waits::calibrate`.

use crate::db::schema::{card_tables, seat_calls, seat_holds, seatings, waitlist_entries};
use crate::db::DbConn;
use crate::domain::ids::GameId;
use crate::domain::states::EntryState;
use crate::domain::waits::{self, GameNow, ListStay, Model, Outcome, Stay, WaitEstimate};
use crate::error::AppResult;
use crate::services::floor::Move;
use chrono::{DateTime, NaiveDateTime, Utc};
use diesel::prelude::*;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::Mutex;

/// How long a fitted model is kept (seconds of the room's clock) while no seat of its game has
/// been freed: refitting reads up to [`waits::NIGHTS`] nights of the game's seatings and list
/// entries, far more than a screen should read on every refresh.
pub const MODEL_KEPT_SECS: i64 = 60;

/// The process's fitted models, one per game (`AppState::waits`). A model is refitted when it
/// is older than [`MODEL_KEPT_SECS`], or when a seating of its game ended after it was fitted
/// (the latest `left_at` of the game, read through its index, is the model's fingerprint).
#[derive(Debug, Default)]
pub struct Models {
    fitted: Mutex<HashMap<GameId, Fitted>>,
}

#[derive(Debug, Clone, Copy)]
struct Fitted {
    at: DateTime<Utc>,
    last_left: Option<NaiveDateTime>,
    model: Option<Model>,
}

impl Models {
    fn get(
        &self,
        game: GameId,
        now: DateTime<Utc>,
        last_left: Option<NaiveDateTime>,
    ) -> Option<Option<Model>> {
        let fitted = self.fitted.lock().unwrap_or_else(|e| e.into_inner());
        fitted.get(&game).and_then(|f| {
            let fresh = f.at <= now
                && (now - f.at).num_seconds() < MODEL_KEPT_SECS
                && f.last_left == last_left;
            fresh.then_some(f.model)
        })
    }

    fn put(
        &self,
        game: GameId,
        now: DateTime<Utc>,
        last_left: Option<NaiveDateTime>,
        model: Option<Model>,
    ) {
        let mut fitted = self.fitted.lock().unwrap_or_else(|e| e.into_inner());
        fitted.insert(
            game,
            Fitted {
                at: now,
                last_left,
                model,
            },
        );
    }
}

/// One game's wait figures as of now.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct GameWaits {
    /// A table of the game is in play (else its list is an interest list: no wait shown).
    pub running: bool,
    pub now: GameNow,
    /// The rates fitted to the game's recent nights (None: too little history).
    pub model: Option<Model>,
}

impl GameWaits {
    /// The wait of the player with `ahead` players before them (a player joining now has
    /// everyone on the list ahead). None: no table of the game is in play.
    pub fn for_ahead(&self, ahead: usize) -> Option<WaitEstimate> {
        self.running
            .then(|| waits::estimate(self.model.as_ref(), self.now, ahead))
    }
}

/// A seat was freed for someone else when its seating ended (not a move to another seat or
/// table, not the table closing).
fn freed_seat(reason: Option<&str>) -> bool {
    match reason {
        Some(r) => r != "table closed" && !Move::ALL.iter().any(|m| m.reason() == r),
        None => true,
    }
}

/// Each of these games' wait figures as of `now` (games absent from the database get the
/// default: not running).
pub fn of_games(
    conn: &mut DbConn,
    models: &Models,
    now: DateTime<Utc>,
    game_ids: &[GameId],
) -> AppResult<HashMap<GameId, GameWaits>> {
    let mut ids = game_ids.to_vec();
    ids.sort_unstable();
    ids.dedup();
    let mut out: HashMap<GameId, GameWaits> = HashMap::new();
    if ids.is_empty() {
        return Ok(out);
    }
    seats_now(conn, &ids, &mut out)?;
    let refit = keep_fresh_models(conn, models, now, &ids, &mut out)?;
    if refit.is_empty() {
        return Ok(out);
    }
    let ids: Vec<GameId> = refit.iter().map(|r| r.0).collect();
    // The history the estimate looks at: seatings and list entries not ended before it.
    let since = waits::history_since(now).naive_utc();
    let mut stays = seating_stays(conn, now, since, &ids)?;
    let mut entries = list_stays(conn, now, since, &ids)?;
    for (g, last_left) in refit {
        let s = stays.remove(&g).unwrap_or_default();
        let e = entries.remove(&g).unwrap_or_default();
        let model = waits::calibrate(now, &s, &e);
        models.put(g, now, last_left, model);
        out.entry(g).or_default().model = model;
    }
    Ok(out)
}

/// The games' tables in play: each game is running, with the players seated there and the
/// seats a call could fill now.
fn seats_now(
    conn: &mut DbConn,
    ids: &[GameId],
    out: &mut HashMap<GameId, GameWaits>,
) -> AppResult<()> {
    let tables: Vec<(i64, Option<GameId>, i32, bool)> =
        crate::native!(conn, |dbc| card_tables::table
            .filter(card_tables::game_id.eq_any(ids))
            .filter(crate::db::conditions::TableInPlay)
            .select((
                card_tables::id,
                card_tables::game_id,
                card_tables::seats,
                card_tables::extra_seat,
            ))
            .load(dbc))?;
    let table_ids: Vec<i64> = tables.iter().map(|t| t.0).collect();
    let sitting: Vec<i64> = crate::native!(conn, |dbc| seatings::table
        .filter(seatings::table_id.eq_any(&table_ids))
        .filter(seatings::left_at.is_null())
        .select(seatings::table_id)
        .load(dbc))?;
    let called: Vec<i64> = crate::native!(conn, |dbc| seat_calls::table
        .filter(seat_calls::table_id.eq_any(&table_ids))
        .filter(crate::db::conditions::CallOpen)
        .select(seat_calls::table_id)
        .load(dbc))?;
    let held: Vec<i64> = crate::native!(conn, |dbc| seat_holds::table
        .filter(seat_holds::table_id.eq_any(&table_ids))
        .filter(seat_holds::released_at.is_null())
        .select(seat_holds::table_id)
        .load(dbc))?;
    for (id, game, seats, extra) in &tables {
        let Some(g) = game else { continue };
        let count = |v: &[i64]| v.iter().filter(|t| *t == id).count();
        let places = usize::try_from(*seats).unwrap_or(0) + usize::from(*extra);
        let seated = count(&sitting);
        let w = out.entry(*g).or_default();
        w.running = true;
        w.now.seated += seated;
        w.now.free += places.saturating_sub(seated + count(&called) + count(&held));
    }
    Ok(())
}

/// The models still fresh are kept; the games whose model must be refitted from the history
/// are returned, each with its latest `left_at` (the new model's fingerprint).
fn keep_fresh_models(
    conn: &mut DbConn,
    models: &Models,
    now: DateTime<Utc>,
    ids: &[GameId],
    out: &mut HashMap<GameId, GameWaits>,
) -> AppResult<Vec<(GameId, Option<NaiveDateTime>)>> {
    let mut refit = Vec::new();
    for g in ids {
        let last_left: Option<NaiveDateTime> = crate::native!(conn, |dbc| seatings::table
            .filter(seatings::game_id.eq(*g))
            .select(diesel::dsl::max(seatings::left_at))
            .first(dbc))?;
        match models.get(*g, now, last_left) {
            Some(model) => out.entry(*g).or_default().model = model,
            None => refit.push((*g, last_left)),
        }
    }
    Ok(refit)
}

/// The games' seatings not ended before `since`, by game: whether each freed its seat for
/// someone else.
fn seating_stays(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    since: NaiveDateTime,
    ids: &[GameId],
) -> AppResult<HashMap<GameId, Vec<Stay>>> {
    let t = now.naive_utc();
    type SeatingLine = (
        Option<GameId>,
        NaiveDateTime,
        Option<NaiveDateTime>,
        Option<String>,
    );
    let past: Vec<SeatingLine> = crate::native!(conn, |dbc| seatings::table
        .filter(seatings::game_id.eq_any(ids))
        .filter(seatings::sat_at.le(t))
        .filter(seatings::left_at.is_null().or(seatings::left_at.ge(since)))
        .select((
            seatings::game_id,
            seatings::sat_at,
            seatings::left_at,
            seatings::left_reason,
        ))
        .load(dbc))?;
    let mut stays: HashMap<GameId, Vec<Stay>> = HashMap::new();
    for (g, from, to, reason) in past {
        let Some(g) = g else { continue };
        stays.entry(g).or_default().push(Stay {
            from: from.and_utc(),
            to: to.map(|x| x.and_utc()),
            freed_seat: freed_seat(reason.as_deref()),
        });
    }
    Ok(stays)
}

/// The games' list entries not ended before `since`, by game: how each ended.
fn list_stays(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    since: NaiveDateTime,
    ids: &[GameId],
) -> AppResult<HashMap<GameId, Vec<ListStay>>> {
    let t = now.naive_utc();
    let listed: Vec<(GameId, NaiveDateTime, Option<NaiveDateTime>, EntryState)> =
        crate::native!(conn, |dbc| waitlist_entries::table
            .filter(waitlist_entries::game_id.eq_any(ids))
            .filter(waitlist_entries::joined_at.le(t))
            .filter(
                waitlist_entries::ended_at
                    .is_null()
                    .or(waitlist_entries::ended_at.ge(since)),
            )
            .select((
                waitlist_entries::game_id,
                waitlist_entries::joined_at,
                waitlist_entries::ended_at,
                waitlist_entries::state,
            ))
            .load(dbc))?;
    let mut entries: HashMap<GameId, Vec<ListStay>> = HashMap::new();
    for (g, joined, ended, state) in listed {
        let outcome = match (ended, state) {
            (None, _) | (_, EntryState::Waiting | EntryState::Called) => Outcome::Waiting,
            (_, EntryState::Seated) => Outcome::Seated,
            _ => Outcome::GaveUp,
        };
        entries.entry(g).or_default().push(ListStay {
            joined: joined.and_utc(),
            ended: ended.map(|x| x.and_utc()),
            outcome,
        });
    }
    Ok(entries)
}

/// [`of_games`] for one game.
pub fn of_game(
    conn: &mut DbConn,
    models: &Models,
    now: DateTime<Utc>,
    game_id: GameId,
) -> AppResult<GameWaits> {
    Ok(of_games(conn, models, now, &[game_id])?
        .remove(&game_id)
        .unwrap_or_default())
}
