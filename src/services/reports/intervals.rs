//! Arithmetic on intervals of seconds since the epoch (clipping, buckets, unions, the local
//! hours) and the few statistics the figures take (median, percentile, integer ratios).

use chrono::{DateTime, Timelike, Utc};
use chrono_tz::Tz;

/// The part of `[a, b)` inside `[from, to)`, in seconds (0 when they do not meet).
pub fn clip(a: i64, b: i64, from: i64, to: i64) -> i64 {
    (b.min(to) - a.max(from)).max(0)
}

/// The index of the bucket holding `t`, buckets being `[bounds[i], bounds[i + 1])`.
pub fn bucket(t: i64, bounds: &[i64]) -> Option<usize> {
    if bounds.len() < 2 || t < bounds[0] || t >= bounds[bounds.len() - 1] {
        return None;
    }
    Some(bounds.partition_point(|b| *b <= t) - 1)
}

/// Splits `[a, b)` over the buckets `[bounds[i], bounds[i + 1])`: `f(i, seconds)` for each
/// bucket it meets (parts outside every bucket are dropped).
pub fn spread(a: i64, b: i64, bounds: &[i64], mut f: impl FnMut(usize, i64)) {
    if a >= b || bounds.len() < 2 {
        return;
    }
    let mut i = bounds.partition_point(|x| *x <= a).saturating_sub(1);
    while i + 1 < bounds.len() && bounds[i] < b {
        let part = clip(a, b, bounds[i], bounds[i + 1]);
        if part > 0 {
            f(i, part);
        }
        i += 1;
    }
}

/// Merges intervals into disjoint ones (sorted): the time covered by at least one.
pub fn union(mut v: Vec<(i64, i64)>) -> Vec<(i64, i64)> {
    v.retain(|(a, b)| a < b);
    v.sort_unstable();
    let mut out: Vec<(i64, i64)> = Vec::with_capacity(v.len());
    for (a, b) in v {
        match out.last_mut() {
            Some(last) if a <= last.1 => last.1 = last.1.max(b),
            _ => out.push((a, b)),
        }
    }
    out
}

/// The local hours of `[from, to)` in `tz`: the bucket bounds (UTC seconds) and each
/// bucket's hour of the local clock (0–23). A day when the clocks change has 23 or 25.
pub fn hour_buckets(tz: Tz, from: i64, to: i64) -> (Vec<i64>, Vec<u32>) {
    let mut bounds = vec![from];
    let mut hours = Vec::new();
    let mut t = from;
    while t < to {
        let Some(utc) = DateTime::<Utc>::from_timestamp(t, 0) else {
            break;
        };
        let local = utc.with_timezone(&tz);
        hours.push(local.hour());
        let next = t + 3600 - (local.minute() as i64 * 60 + local.second() as i64);
        t = next.min(to);
        bounds.push(t);
    }
    (bounds, hours)
}

/// The median of sorted values: the middle one, or the mean of the two middle ones rounded
/// down (to the second, for waits).
pub fn median(sorted: &[i64]) -> Option<i64> {
    let n = sorted.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(sorted[n / 2]),
        _ => Some((sorted[n / 2 - 1] + sorted[n / 2]).div_euclid(2)),
    }
}

/// The `p`-th percentile of sorted values by nearest rank: the smallest value with at least
/// `p` % of the values at or below it.
pub fn percentile(sorted: &[i64], p: u32) -> Option<i64> {
    if sorted.is_empty() {
        return None;
    }
    let n = sorted.len() as u64;
    let rank = (p as u64 * n).div_ceil(100).max(1);
    Some(sorted[(rank.min(n) - 1) as usize])
}

/// `num / den` in per mille, rounded half up (None when `den` is 0): seat occupancy.
pub fn per_mille(num: i64, den: i64) -> Option<i64> {
    (den > 0).then(|| (num * 1000 + den / 2) / den)
}

/// Hands per hour in tenths, rounded half up (None without open time).
pub fn per_hour_tenths(count: i64, secs: i64) -> Option<i64> {
    (secs > 0).then(|| (count * 36_000 + secs / 2) / secs)
}

/// The parts of the sorted, disjoint intervals `a` not covered by those of `b` (also sorted
/// and disjoint, as [`union`] returns them).
pub fn minus(a: &[(i64, i64)], b: &[(i64, i64)]) -> Vec<(i64, i64)> {
    let mut out = Vec::new();
    for &(x, y) in a {
        let mut start = x;
        for &(p, q) in b.iter().filter(|(p, q)| *q > x && *p < y) {
            if p > start {
                out.push((start, p));
            }
            start = start.max(q);
        }
        if start < y {
            out.push((start, y));
        }
    }
    out
}

/// Where the sorted, disjoint intervals `a` and `b` overlap.
pub fn intersect(a: &[(i64, i64)], b: &[(i64, i64)]) -> Vec<(i64, i64)> {
    let mut out = Vec::new();
    for &(x, y) in a {
        for &(p, q) in b {
            let (s, e) = (x.max(p), y.min(q));
            if s < e {
                out.push((s, e));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intervals_are_clipped_to_the_period_and_spread_over_buckets() {
        assert_eq!(clip(0, 100, 50, 200), 50);
        assert_eq!(clip(0, 100, 100, 200), 0);
        assert_eq!(clip(150, 300, 100, 200), 50);
        assert_eq!(clip(120, 130, 100, 200), 10);
        assert_eq!(clip(300, 400, 100, 200), 0);
        let bounds = [100, 200, 300, 400];
        let mut got = Vec::new();
        spread(50, 350, &bounds, |i, s| got.push((i, s)));
        assert_eq!(got, vec![(0, 100), (1, 100), (2, 50)]);
        got.clear();
        spread(250, 260, &bounds, |i, s| got.push((i, s)));
        assert_eq!(got, vec![(1, 10)]);
        got.clear();
        spread(400, 500, &bounds, |i, s| got.push((i, s)));
        assert!(got.is_empty());
        assert_eq!(bucket(99, &bounds), None);
        assert_eq!(bucket(100, &bounds), Some(0));
        assert_eq!(bucket(399, &bounds), Some(2));
        assert_eq!(bucket(400, &bounds), None);
        assert_eq!(
            union(vec![(5, 10), (0, 3), (2, 4), (10, 12), (20, 20)]),
            vec![(0, 4), (5, 12)]
        );
    }

    #[test]
    fn median_and_90th_percentile() {
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[7]), Some(7));
        assert_eq!(median(&[1, 2, 3]), Some(2));
        assert_eq!(median(&[60, 120, 180, 300]), Some(150));
        assert_eq!(median(&[1, 2]), Some(1));
        let v: Vec<i64> = (1..=10).collect();
        assert_eq!(percentile(&v, 90), Some(9));
        assert_eq!(percentile(&v, 100), Some(10));
        let v: Vec<i64> = (1..=11).collect();
        assert_eq!(percentile(&v, 90), Some(10));
        assert_eq!(percentile(&[42], 90), Some(42));
        assert_eq!(percentile(&[], 90), None);
    }

    #[test]
    fn minus_and_intersect_keep_what_they_say() {
        let a = [(0, 10), (20, 30)];
        let b = [(2, 4), (8, 22), (29, 40)];
        assert_eq!(minus(&a, &b), vec![(0, 2), (4, 8), (22, 29)]);
        assert_eq!(intersect(&a, &b), vec![(2, 4), (8, 10), (20, 22), (29, 30)]);
        assert_eq!(minus(&a, &[]), a.to_vec());
        assert!(intersect(&a, &[]).is_empty());
    }
}
