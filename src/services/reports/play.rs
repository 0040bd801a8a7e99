//! The steps of [`build`](fn@super::build) that measure play: seated player-time, the tables' open
//! time and capacity, and the hours per limit (PT-2007 22).

use super::buckets::Acc;
use super::figures::LimitLine;
use super::intervals::{spread, union};
use super::rows;
use super::scope::{Scope, Span};
use crate::db::DbConn;
use crate::domain::ids::TableId;
use crate::domain::limits::Limits;
use crate::error::AppResult;
use std::collections::HashMap;

/// Per (table, game): the seatings' intervals clipped to the period.
pub(super) type Spans = HashMap<(i64, i64), Vec<(i64, i64)>>;
/// Per (game, limits): the tables that played at them (by number) and their open time.
pub(super) type PerLimit = HashMap<(i64, Limits), (Vec<i32>, i64)>;

/// Play: seatings clipped to the period (open ones up to now), added as played time; their
/// intervals per table and game (a table is open while someone sits at it).
pub(super) fn add_played(
    conn: &mut DbConn,
    span: &Span,
    scope: &Scope,
    acc: &mut Acc,
) -> AppResult<Spans> {
    let (from, until) = (span.from, span.until);
    let mut spans: Spans = HashMap::new();
    for (table, own_game, sat, left) in rows::seatings(conn, span.nf, span.nu)? {
        let game = scope.game_of(table, own_game);
        if !scope.keep(table, game) {
            continue;
        }
        let a = sat.max(from);
        let b = left.unwrap_or(until).min(until);
        if a >= b {
            continue;
        }
        let d = b - a;
        acc.total.played_secs += d;
        acc.tables.entry(table).or_default().played_secs += d;
        acc.games.entry(game).or_default().played_secs += d;
        spread(a, b, &span.day_bounds, |i, s| acc.days[i].played_secs += s);
        spread(a, b, &span.hour_bounds, |i, s| {
            acc.hours[span.hour_of[i] as usize].played_secs += s
        });
        spans.entry((table, game)).or_default().push((a, b));
    }
    Ok(spans)
}

/// The tables' open time (the union of their seatings) and capacity (seats × open time);
/// PT-2007 22: each table's open time split at its limit changes.
pub(super) fn add_open_time(
    conn: &mut DbConn,
    span: &Span,
    scope: &Scope,
    spans: Spans,
    acc: &mut Acc,
) -> AppResult<PerLimit> {
    let tables_by_id = &scope.tables_by_id;
    let timelines = crate::services::limits::timelines(conn)?;
    let mut per_limit: PerLimit = HashMap::new();
    for ((table, game), v) in spans {
        let seats = tables_by_id.get(&table).map(|t| t.1 as i64).unwrap_or(0);
        let open = union(v);
        if let Some(tl) = timelines.get(&TableId(table)) {
            let number = tables_by_id.get(&table).map(|t| t.0).unwrap_or(0);
            for (l, secs) in tl.split(&open) {
                let e = per_limit.entry((game, l)).or_default();
                if !e.0.contains(&number) {
                    e.0.push(number);
                }
                e.1 += secs;
            }
        }
        for (a, b) in open {
            let d = b - a;
            for f in [&mut acc.total, acc.tables.entry(table).or_default()] {
                f.open_secs += d;
                f.capacity_secs += seats * d;
            }
            let g = acc.games.entry(game).or_default();
            g.open_secs += d;
            g.capacity_secs += seats * d;
            spread(a, b, &span.day_bounds, |i, s| {
                acc.days[i].open_secs += s;
                acc.days[i].capacity_secs += seats * s;
            });
            spread(a, b, &span.hour_bounds, |i, s| {
                acc.hours[span.hour_of[i] as usize].capacity_secs += seats * s
            });
        }
    }
    Ok(per_limit)
}

/// Hours per limit's rows (PT-2007 22): by game, then by blinds and buy-ins.
pub(super) fn limit_lines(scope: &Scope, per_limit: PerLimit) -> Vec<LimitLine> {
    let mut limits: Vec<LimitLine> = per_limit
        .into_iter()
        .map(|((game_id, l), (mut tables, open_secs))| {
            tables.sort_unstable();
            LimitLine {
                game_id,
                game: scope
                    .game_names
                    .get(&game_id)
                    .cloned()
                    .unwrap_or_else(|| "—".into()),
                small_blind: l.small_blind,
                big_blind: l.big_blind,
                buy_in_min: l.buy_in_min,
                buy_in_max: l.buy_in_max,
                tables,
                open_secs,
            }
        })
        .collect();
    limits.sort_by(|a, b| {
        (
            &a.game,
            a.game_id,
            a.big_blind,
            a.small_blind,
            a.buy_in_min,
            a.buy_in_max,
        )
            .cmp(&(
                &b.game,
                b.game_id,
                b.big_blind,
                b.small_blind,
                b.buy_in_min,
                b.buy_in_max,
            ))
    });
    limits
}
