//! Where an event at a table falls (its gaming day, dealer shift and local hour), the
//! accumulator every figure is added into, and the hands counted by runs.

use super::figures::{Figures, HourLine};
use super::intervals::bucket;
use super::rows;
use crate::domain::money;
use std::collections::HashMap;

/// The figures of one row, per bucket of the period.
pub(super) struct Acc {
    pub(super) total: Figures,
    pub(super) tables: HashMap<i64, Figures>,
    pub(super) games: HashMap<i64, Figures>,
    pub(super) days: Vec<Figures>,
    pub(super) shifts: HashMap<i64, Figures>,
    pub(super) hours: [HourLine; 24],
}

impl Acc {
    /// Nothing counted yet, over `days` gaming days.
    pub(super) fn new(days: usize) -> Self {
        Acc {
            total: Figures::default(),
            tables: HashMap::new(),
            games: HashMap::new(),
            days: vec![Figures::default(); days],
            shifts: HashMap::new(),
            hours: std::array::from_fn(|h| HourLine {
                hour: h as u32,
                ..Default::default()
            }),
        }
    }
}

/// Adds to every row of `acc` of a table, a game, a gaming day (its index) and a shift.
macro_rules! add_in {
    ($acc:expr, $table:expr, $game:expr, $day:expr, $shift:expr, |$f:ident| $body:expr) => {{
        let acc: &mut $crate::services::reports::buckets::Acc = $acc;
        let (table, game, day): (i64, i64, Option<usize>) = ($table, $game, $day);
        {
            let $f = &mut acc.total;
            $body;
        }
        {
            let $f = acc.tables.entry(table).or_default();
            $body;
        }
        {
            let $f = acc.games.entry(game).or_default();
            $body;
        }
        if let Some(d) = day {
            let $f = &mut acc.days[d];
            $body;
        }
        if let Some(s) = $shift {
            let $f = acc.shifts.entry(s).or_default();
            $body;
        }
    }};
}
pub(super) use add_in;

/// Adds to every row of `acc` an event at `t` belongs to (its gaming day found by `clock`).
macro_rules! add {
    ($acc:expr, $clock:expr, $table:expr, $game:expr, $t:expr, $shift:expr, |$f:ident| $body:expr) => {{
        let t: i64 = $t;
        let day = $crate::services::reports::intervals::bucket(t, $clock.days);
        $crate::services::reports::buckets::add_in!($acc, $table, $game, day, $shift, |$f| $body)
    }};
}
pub(super) use add;

/// Where an event at a table falls: its gaming day, its dealer shift, its local hour.
pub(super) struct Buckets<'a> {
    pub(super) days: &'a [i64],
    hours: &'a [i64],
    hour_of: &'a [u32],
    /// Per table, its shifts `(start, end, id)` in order.
    shifts: &'a HashMap<i64, Vec<(i64, i64, i64)>>,
    /// Per table, every instant its shift can change (its shifts' starts and ends), sorted.
    cuts: HashMap<i64, Vec<i64>>,
}

/// A hands group: table, game, gaming day (index), shift, hour of the clock.
pub(super) type HandKey = (i64, i64, Option<usize>, Option<i64>, Option<usize>);

impl<'a> Buckets<'a> {
    pub(super) fn new(
        days: &'a [i64],
        hours: &'a [i64],
        hour_of: &'a [u32],
        shifts: &'a HashMap<i64, Vec<(i64, i64, i64)>>,
    ) -> Self {
        let cuts = shifts
            .iter()
            .map(|(table, v)| {
                let mut c: Vec<i64> = v.iter().flat_map(|s| [s.0, s.1]).collect();
                c.sort_unstable();
                c.dedup();
                (*table, c)
            })
            .collect();
        Buckets {
            days,
            hours,
            hour_of,
            shifts,
            cuts,
        }
    }

    /// The shift at `table` at `t`: the last to start at or before `t`, if not yet over.
    pub(super) fn shift_of(&self, table: i64, t: i64) -> Option<i64> {
        let v = self.shifts.get(&table)?;
        let i = v.partition_point(|s| s.0 <= t);
        let s = v.get(i.checked_sub(1)?)?;
        (t < s.1).then_some(s.2)
    }

    /// The index of the hour bucket's hour of the clock (0–23).
    pub(super) fn hour_at(&self, t: i64) -> Option<usize> {
        bucket(t, self.hours).map(|i| self.hour_of[i] as usize)
    }

    fn key(&self, table: i64, game: i64, t: i64) -> HandKey {
        (
            table,
            game,
            bucket(t, self.days),
            self.shift_of(table, t),
            self.hour_at(t),
        )
    }

    /// `[lo, hi)` around `t` with no cut inside: every instant in it has the day, shift and
    /// hour of `t` at `table` (they change only at a day's or an hour's bound, or where one
    /// of the table's shifts starts or ends).
    fn span(&self, table: i64, t: i64) -> (i64, i64) {
        let (mut lo, mut hi) = (i64::MIN, i64::MAX);
        let mut around = |v: &[i64]| {
            let i = v.partition_point(|c| *c <= t);
            if let Some(c) = i.checked_sub(1).and_then(|i| v.get(i)) {
                lo = lo.max(*c);
            }
            if let Some(c) = v.get(i) {
                hi = hi.min(*c);
            }
        };
        around(self.days);
        around(self.hours);
        if let Some(v) = self.cuts.get(&table) {
            around(v);
        }
        (lo, hi)
    }
}

/// The hands counted and their rake added per [`HandKey`] (money checked).
///
/// A month is ~650k hands, and looking up five buckets and hashing a key for each was most
/// of the report's own work. Instead each table keeps its current *run*: the hands of one
/// game since the table's last cut (a day's or an hour's bound, a shift's start or end —
/// [`Buckets::span`]), which all share one key; a run is added to its group when the
/// table's next hand falls outside it. Rows come in time order (the index), so a table's
/// hands make ~one run per hour: a comparison per hand. Any order gives the same groups
/// (a run is only ever hands of one key); the test `hands_grouped_by_runs_as_one_by_one`
/// compares it with the hand-by-hand way.
pub(super) fn group_hands(
    hands: Vec<rows::Hand>,
    b: &Buckets,
    game_of: &impl Fn(i64, Option<i64>) -> i64,
    keep: &impl Fn(i64, i64) -> bool,
) -> Result<HashMap<HandKey, (i64, i64)>, money::Overflow> {
    struct Run {
        lo: i64,
        hi: i64,
        key: HandKey,
        count: i64,
        rake: i64,
    }
    fn flush(groups: &mut HashMap<HandKey, (i64, i64)>, r: &Run) -> Result<(), money::Overflow> {
        let g = groups.entry(r.key).or_default();
        g.0 += r.count;
        money::add_to(&mut g.1, r.rake)
    }
    let mut runs: HashMap<i64, Run> = HashMap::new();
    let mut groups: HashMap<HandKey, (i64, i64)> = HashMap::new();
    for (table, own_game, t, rake) in hands {
        let game = game_of(table, own_game);
        if !keep(table, game) {
            continue;
        }
        let rake = rake.unwrap_or(0);
        let start = || {
            let (lo, hi) = b.span(table, t);
            Run {
                lo,
                hi,
                key: b.key(table, game, t),
                count: 1,
                rake,
            }
        };
        match runs.get_mut(&table) {
            Some(r) if r.key.1 == game && r.lo <= t && t < r.hi => {
                r.count += 1;
                money::add_to(&mut r.rake, rake)?;
            }
            Some(r) => {
                flush(&mut groups, r)?;
                *r = start();
            }
            None => {
                runs.insert(table, start());
            }
        }
    }
    for r in runs.values() {
        flush(&mut groups, r)?;
    }
    Ok(groups)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::services::reports::{day_bounds, hour_buckets, Period};
    use chrono::{NaiveDate, NaiveTime};
    use chrono_tz::Tz;

    fn d(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }
    const LISBON: Tz = chrono_tz::Europe::Lisbon;

    /// The hand-by-hand way [`group_hands`] replaced: five buckets and a hash per hand.
    fn one_by_one(
        hands: &[rows::Hand],
        b: &Buckets,
        game_of: &impl Fn(i64, Option<i64>) -> i64,
        keep: &impl Fn(i64, i64) -> bool,
    ) -> HashMap<HandKey, (i64, i64)> {
        let mut groups: HashMap<HandKey, (i64, i64)> = HashMap::new();
        for &(table, own_game, t, rake) in hands {
            let game = game_of(table, own_game);
            if !keep(table, game) {
                continue;
            }
            let g = groups
                .entry((
                    table,
                    game,
                    bucket(t, b.days),
                    b.shift_of(table, t),
                    b.hour_at(t),
                ))
                .or_default();
            g.0 += 1;
            money::add_to(&mut g.1, rake.unwrap_or(0)).unwrap();
        }
        groups
    }

    #[test]
    fn hands_grouped_by_runs_as_one_by_one() {
        // xorshift64*: the same cases on every run.
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut rng = move |lo: i64, hi: i64| {
            seed ^= seed >> 12;
            seed ^= seed << 25;
            seed ^= seed >> 27;
            lo + (seed.wrapping_mul(0x2545_F491_4F6C_DD1D) % (hi - lo + 1) as u64) as i64
        };
        let hm = |h: u32, m: u32| NaiveTime::from_hms_opt(h, m, 0).unwrap();
        // Lisbon's October (clocks back on the 25th) and March (forward on the 29th);
        // Lord Howe's half-hour change in April with a 05:30 cut-over; Kolkata (+05:30).
        let cases = [
            (LISBON, d("2026-10-01"), hm(6, 0)),
            (LISBON, d("2026-03-01"), hm(6, 0)),
            (chrono_tz::Australia::Lord_Howe, d("2026-04-01"), hm(5, 30)),
            (chrono_tz::Asia::Kolkata, d("2026-11-01"), hm(0, 0)),
        ];
        for (tz, month, day_start) in cases {
            let period = Period::Month(month);
            let (from_t, to_t) = period.bounds(tz, day_start);
            let (from, to) = (from_t.timestamp(), to_t.timestamp());
            let until = to - 86_400 * 3;
            let mut days: Vec<i64> = period
                .days()
                .iter()
                .map(|d| day_bounds(tz, *d, day_start).0.timestamp())
                .collect();
            days.push(to);
            let (hours, hour_of) = hour_buckets(tz, from, to);
            // Tables 1–6 with shifts: back to back on the hour, at odd seconds, overlapping,
            // with gaps, one still going, some from before the month; table 7 has none.
            let mut shifts: HashMap<i64, Vec<(i64, i64, i64)>> = HashMap::new();
            let mut id = 0;
            for table in 1..=6i64 {
                let mut t = from - 7_200;
                while t < to {
                    id += 1;
                    let len = match table {
                        1 => 3_600,
                        2 => rng(600, 5_000),
                        _ => rng(60, 9_000),
                    };
                    let end = if rng(0, 200) == 0 {
                        until.max(t)
                    } else {
                        t + len
                    };
                    shifts.entry(table).or_default().push((t, end, id));
                    t += match table {
                        1 => 3_600,
                        3 => len - rng(0, 900),   // overlaps the next
                        4 => len + rng(0, 3_000), // gaps
                        _ => len,
                    };
                }
            }
            for v in shifts.values_mut() {
                v.sort_unstable();
            }
            let b = Buckets::new(&days, &hours, &hour_of, &shifts);
            // Hands in time order, a few past both ends; own game or none; rake or none.
            let mut hands: Vec<rows::Hand> = Vec::new();
            let mut t = from - 600;
            while t < to + 600 {
                let table = rng(1, 7);
                let game = (rng(0, 9) > 0).then(|| rng(1, 3));
                let rake = (rng(0, 4) > 0).then(|| rng(0, 700));
                hands.push((table, game, t, rake));
                t += rng(0, 40);
            }
            let table_game = |table: i64| (table % 3 != 0).then_some(table % 2 + 1);
            let game_of = |table: i64, own: Option<i64>| own.or(table_game(table)).unwrap_or(0);
            let mut shuffled = hands.clone();
            for i in (1..shuffled.len()).rev() {
                shuffled.swap(i, rng(0, i as i64) as usize);
            }
            for filter in [
                (None, None),
                (Some(2), None),
                (None, Some(1)),
                (Some(3), Some(0)),
            ] {
                let keep = |table: i64, game: i64| {
                    filter.0.is_none_or(|t| t == table) && filter.1.is_none_or(|g| g == game)
                };
                let want = one_by_one(&hands, &b, &game_of, &keep);
                assert!(want.len() > 10, "{tz} {filter:?}: {} groups", want.len());
                for v in [&hands, &shuffled] {
                    let got = group_hands(v.clone(), &b, &game_of, &keep).unwrap();
                    assert_eq!(got, want, "{tz} {month} {filter:?}");
                }
            }
        }
        // A group's rake that leaves i64 is the overflow error, as before.
        let (days, hours, hour_of) = (vec![0, 100], vec![0, 100], vec![6]);
        let none = HashMap::new();
        let b = Buckets::new(&days, &hours, &hour_of, &none);
        let big = vec![(1, Some(1), 5, Some(i64::MAX)), (1, Some(1), 6, Some(1))];
        assert!(group_hands(big, &b, &|_, g: Option<i64>| g.unwrap_or(0), &|_, _| true).is_err());
    }
}
