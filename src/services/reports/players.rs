//! A player's hours at the tables in a month, per gaming day (for comps).

use super::{day_bounds, refused, secs, spread, Period};
use crate::db::schema::{players, seatings};
use crate::db::DbConn;
use crate::domain::ids::PlayerId;
use crate::domain::refusal::ReportRefusal;
use crate::domain::Problem;
use crate::error::AppResult;
use chrono::{DateTime, Datelike, NaiveDate, NaiveDateTime, NaiveTime, Utc};
use chrono_tz::Tz;
use diesel::prelude::*;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// One player's time at the tables in a month, per gaming day.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct PlayerHours {
    #[schema(value_type = i64)]
    pub player_id: PlayerId,
    pub alias: String,
    pub full_name: String,
    pub total_secs: i64,
    /// Each gaming day of the month the player sat.
    pub days: Vec<PlayerDay>,
}

/// A player's time at the tables in one gaming day.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct PlayerDay {
    pub date: NaiveDate,
    pub secs: i64,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct PlayersMonth {
    pub month: String,
    pub from: DateTime<Utc>,
    pub to: DateTime<Utc>,
    #[schema(value_type = Option<i64>)]
    pub player: Option<PlayerId>,
    pub players: Vec<PlayerHours>,
    pub total_secs: i64,
}

/// Every player's hours in the month (or one player's), from the seatings clipped to each
/// gaming day (open seatings up to now); players with no time are left out. Ordered by
/// hours, most first.
pub fn player_hours(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    tz: Tz,
    day_start: NaiveTime,
    month: NaiveDate,
    player: Option<PlayerId>,
) -> AppResult<PlayersMonth> {
    let period = Period::Month(month.with_day(1).unwrap_or(month));
    if let Some(p) = player {
        if players::table.find(p).count().get_result::<i64>(conn)? == 0 {
            return Err(refused(
                "player",
                Problem::from(ReportRefusal::Player {
                    value: p.to_string(),
                }),
            ));
        }
    }
    let (from_t, to_t) = period.bounds(tz, day_start);
    let until_t = to_t.min(now).max(from_t);
    let (from, until) = (from_t.timestamp(), until_t.timestamp());
    let dates = period.days();
    let mut bounds: Vec<i64> = dates
        .iter()
        .map(|d| day_bounds(tz, *d, day_start).0.timestamp())
        .collect();
    bounds.push(to_t.timestamp());
    let mut q = seatings::table
        .filter(seatings::sat_at.lt(until_t.naive_utc()))
        .filter(
            seatings::left_at
                .is_null()
                .or(seatings::left_at.gt(from_t.naive_utc())),
        )
        .select((seatings::player_id, seatings::sat_at, seatings::left_at))
        .into_boxed();
    if let Some(p) = player {
        q = q.filter(seatings::player_id.eq(p));
    }
    let sits: Vec<(i64, NaiveDateTime, Option<NaiveDateTime>)> = q.load(conn)?;
    let mut per: BTreeMap<i64, Vec<i64>> = BTreeMap::new();
    for (p, sat, left) in sits {
        let a = secs(sat).max(from);
        let b = left.map(secs).unwrap_or(until).min(until);
        let v = per.entry(p).or_insert_with(|| vec![0; dates.len()]);
        spread(a, b, &bounds, |i, s| v[i] += s);
    }
    let names: HashMap<i64, (String, String)> = if per.is_empty() {
        HashMap::new()
    } else if let Some(p) = player {
        players::table
            .find(p)
            .select((players::id, players::alias, players::full_name))
            .load::<(i64, String, String)>(conn)?
            .into_iter()
            .map(|(i, a, n)| (i, (a, n)))
            .collect()
    } else {
        players::table
            .select((players::id, players::alias, players::full_name))
            .load::<(i64, String, String)>(conn)?
            .into_iter()
            .map(|(i, a, n)| (i, (a, n)))
            .collect()
    };
    let mut out: Vec<PlayerHours> = per
        .into_iter()
        .filter(|(_, v)| v.iter().any(|s| *s > 0))
        .map(|(id, v)| {
            let (alias, full_name) = names.get(&id).cloned().unwrap_or_default();
            PlayerHours {
                player_id: PlayerId(id),
                alias,
                full_name,
                total_secs: v.iter().sum(),
                days: dates
                    .iter()
                    .zip(v)
                    .filter(|(_, s)| *s > 0)
                    .map(|(d, s)| PlayerDay { date: *d, secs: s })
                    .collect(),
            }
        })
        .collect();
    out.sort_by(|a, b| {
        b.total_secs
            .cmp(&a.total_secs)
            .then(a.player_id.cmp(&b.player_id))
    });
    Ok(PlayersMonth {
        month: period.key(),
        from: from_t,
        to: to_t,
        player,
        total_secs: out.iter().map(|p| p.total_secs).sum(),
        players: out,
    })
}
