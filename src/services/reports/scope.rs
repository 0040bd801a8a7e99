//! What every step of [`build`](fn@super::build) reads first: the period's instants
//! ([`Span`]) and the room's tables and games with the filter ([`Scope`]).

use super::intervals::hour_buckets;
use super::period::{day_bounds, Period};
use super::{Filter, Setting};
use crate::db::schema::{card_tables, games};
use crate::db::DbConn;
use crate::error::AppResult;
use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};
use diesel::prelude::*;
use std::collections::HashMap;

/// The period's instants: as UTC, as seconds since the epoch (the figures) and as naive UTC
/// (the queries); its gaming days and the local hours, as bucket bounds.
pub(super) struct Span {
    pub(super) from_t: DateTime<Utc>,
    pub(super) to_t: DateTime<Utc>,
    /// Open seatings and list entries count up to here: `min(to, now)`.
    pub(super) until_t: DateTime<Utc>,
    pub(super) from: i64,
    pub(super) to: i64,
    pub(super) until: i64,
    pub(super) nf: NaiveDateTime,
    pub(super) nt: NaiveDateTime,
    pub(super) nu: NaiveDateTime,
    pub(super) dates: Vec<NaiveDate>,
    /// The gaming days' bounds: one more than the days.
    pub(super) day_bounds: Vec<i64>,
    pub(super) hour_bounds: Vec<i64>,
    /// Each hour bucket's hour of the local clock (0–23).
    pub(super) hour_of: Vec<u32>,
}

impl Span {
    /// The bounds of `period` in the room's zone, as of `now`.
    pub(super) fn new(room: &Setting, period: Period, now: DateTime<Utc>) -> Self {
        let tz = room.tz;
        let (from_t, to_t) = period.bounds(tz, room.day_start);
        let until_t = to_t.min(now).max(from_t);
        let (from, to, until) = (from_t.timestamp(), to_t.timestamp(), until_t.timestamp());
        let (nf, nt, nu) = (from_t.naive_utc(), to_t.naive_utc(), until_t.naive_utc());
        let dates = period.days();
        let mut day_bounds_v: Vec<i64> = dates
            .iter()
            .map(|d| day_bounds(tz, *d, room.day_start).0.timestamp())
            .collect();
        day_bounds_v.push(to);
        let (hour_bounds, hour_of) = hour_buckets(tz, from, to);
        Span {
            from_t,
            to_t,
            until_t,
            from,
            to,
            until,
            nf,
            nt,
            nu,
            dates,
            day_bounds: day_bounds_v,
            hour_bounds,
            hour_of,
        }
    }
}

/// The room's tables and games, and which of them the filter keeps.
pub(super) struct Scope {
    /// Per table id: its number, seats and game.
    pub(super) tables_by_id: HashMap<i64, (i32, i32, Option<i64>)>,
    pub(super) game_names: HashMap<i64, String>,
    pub(super) filter: Filter,
}

impl Scope {
    /// Reads the room's tables and games.
    pub(super) fn load(conn: &mut DbConn, filter: Filter) -> AppResult<Self> {
        let table_rows: Vec<(i64, i32, i32, Option<i64>)> = card_tables::table
            .select((
                card_tables::id,
                card_tables::number,
                card_tables::seats,
                card_tables::game_id,
            ))
            .load(conn)?;
        let tables_by_id: HashMap<i64, (i32, i32, Option<i64>)> = table_rows
            .iter()
            .map(|(id, n, s, g)| (*id, (*n, *s, *g)))
            .collect();
        let game_names: HashMap<i64, String> = games::table
            .select((games::id, games::name))
            .load::<(i64, String)>(conn)?
            .into_iter()
            .collect();
        Ok(Scope {
            tables_by_id,
            game_names,
            filter,
        })
    }

    /// The game of an event at `table`: its own, else the table's (0: none).
    pub(super) fn game_of(&self, table: i64, own: Option<i64>) -> i64 {
        own.or_else(|| self.tables_by_id.get(&table).and_then(|t| t.2))
            .unwrap_or(0)
    }

    /// Whether the filter keeps an event at `table` in `game`.
    pub(super) fn keep(&self, table: i64, game: i64) -> bool {
        self.filter.table.is_none_or(|t| t == table) && self.filter.game.is_none_or(|g| g == game)
    }
}
