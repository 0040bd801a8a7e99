//! The steps of [`build`](fn@super::build) that read the waiting lists: entries joined and seated, the
//! waits (median, 90th percentile), the lists' lengths over time, and the no-shows.

use super::buckets::{add, Acc, Buckets};
use super::figures::WaitLine;
use super::intervals::{median, percentile};
use super::rows;
use super::scope::{Scope, Span};
use crate::db::DbConn;
use crate::error::AppResult;
use std::collections::{BTreeMap, HashSet};

/// No-shows: expired seat calls (the game of the list the call came from), added to their
/// rows; the count per game, for the lists.
pub(super) fn add_no_shows(
    conn: &mut DbConn,
    span: &Span,
    scope: &Scope,
    clock: &Buckets,
    acc: &mut Acc,
) -> AppResult<BTreeMap<i64, i64>> {
    let mut no_shows: BTreeMap<i64, i64> = BTreeMap::new();
    for (table, own_game, t) in rows::no_shows(conn, span.nf, span.nt)? {
        let game = scope.game_of(table, own_game);
        if !scope.keep(table, game) {
            continue;
        }
        add!(acc, clock, table, game, t, clock.shift_of(table, t), |f| {
            f.no_shows += 1
        });
        *no_shows.entry(game).or_default() += 1;
    }
    Ok(no_shows)
}

/// The lists' rows: per game (by name), then every game together (`game_id` 0) last. With a
/// table filter, only the games played at the table (`acc.games`).
pub(super) fn wait_lines(
    conn: &mut DbConn,
    span: &Span,
    scope: &Scope,
    acc: &Acc,
    no_shows: &BTreeMap<i64, i64>,
) -> AppResult<Vec<WaitLine>> {
    let (from, to, until) = (span.from, span.to, span.until);
    let filter = &scope.filter;
    let games_seen: HashSet<i64> = acc.games.keys().copied().collect();
    let keep_list = |game: i64| {
        filter.game.is_none_or(|g| g == game)
            && (filter.table.is_none() || games_seen.contains(&game))
    };
    let mut lists: BTreeMap<i64, ListAcc> = BTreeMap::new();
    let mut all = ListAcc::default();
    for (game, j, e, seated) in rows::entries(conn, span.nf, span.nu)? {
        if !keep_list(game) {
            continue;
        }
        for l in [lists.entry(game).or_default(), &mut all] {
            if j >= from {
                l.joined += 1;
            }
            if let (Some(e), Some(true)) = (e, seated) {
                if e >= from && e < to {
                    l.waits.push(e - j);
                }
            }
            let a = j.max(from);
            let b = e.unwrap_or(until).min(until);
            if a < b {
                l.steps.push((a, 1));
                l.steps.push((b, -1));
                l.time += b - a;
            }
        }
    }
    for (game, n) in no_shows {
        if keep_list(*game) {
            lists.entry(*game).or_default().no_shows += n;
            all.no_shows += n;
        }
    }
    let period_secs = until - from;
    let mut waits: Vec<WaitLine> = lists
        .into_iter()
        .map(|(g, l)| {
            l.finish(
                g,
                scope
                    .game_names
                    .get(&g)
                    .cloned()
                    .unwrap_or_else(|| "—".into()),
                period_secs,
            )
        })
        .collect();
    waits.sort_by(|a, b| a.game.cmp(&b.game));
    waits.push(all.finish(0, String::new(), period_secs));
    Ok(waits)
}

/// A list's entries over the period.
#[derive(Default)]
struct ListAcc {
    joined: i64,
    waits: Vec<i64>,
    /// +1 when an entry joins (or the period starts with it), −1 when it leaves.
    steps: Vec<(i64, i64)>,
    /// Entry-seconds on the list.
    time: i64,
    no_shows: i64,
}

impl ListAcc {
    fn finish(mut self, game_id: i64, game: String, span: i64) -> WaitLine {
        self.waits.sort_unstable();
        // Leaving before joining at the same instant: a seat handed on is not a longer list.
        self.steps.sort_unstable();
        let (mut n, mut max) = (0i64, 0i64);
        for (_, d) in &self.steps {
            n += d;
            max = max.max(n);
        }
        WaitLine {
            game_id,
            game,
            joined: self.joined,
            seated: self.waits.len() as i64,
            median_secs: median(&self.waits),
            p90_secs: percentile(&self.waits, 90),
            list_max: max,
            list_avg_tenths: if span > 0 {
                (self.time * 10 + span / 2) / span
            } else {
                0
            },
            no_shows: self.no_shows,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_lengths_and_waits() {
        let mut l = ListAcc::default();
        // Three entries over [0, 100): [0, 50), [10, 60), [50, 100) → at most 2 at once
        // (the one leaving at 50 makes room for the one joining at 50).
        for (a, b) in [(0, 50), (10, 60), (50, 100)] {
            l.steps.push((a, 1));
            l.steps.push((b, -1));
            l.time += b - a;
        }
        l.waits = vec![600, 60, 180];
        let w = l.finish(1, "NL".into(), 100);
        assert_eq!(w.list_max, 2);
        assert_eq!(w.list_avg_tenths, 15);
        assert_eq!(
            (w.seated, w.median_secs, w.p90_secs),
            (3, Some(180), Some(600))
        );
    }
}
