//! The wait a listed player is shown (PT-2007 8a: the house keeps the list of players waiting
//! for a seat; BSOP 43: a player must be there when called — a wait they can trust tells them
//! when to be), calibrated against the room's own past.
//!
//! The estimate is what the room's history supports, and no more:
//! - a seat of the game free now (not taken, called or held, at a table in play) that a call
//!   could fill for this place says so, whatever the history ([`WaitEstimate::FreeNow`]);
//! - with too little history at this hour it says so and shows no figure
//!   ([`WaitEstimate::Unknown`]);
//! - otherwise an interval ([`WaitEstimate::Between`]) from a model fitted to the game's
//!   recent nights at the same hour ([`calibrate`]): how often a seated player leaves
//!   (seat openings per seated player-hour), how often a waiting player gives up (entries
//!   removed, lapsed or expired per waiting player-hour), and how much those rates vary from
//!   night to night; an interval reaching past the longest wait the room has seen lately is
//!   said as "more than" its lower end ([`WaitEstimate::MoreThan`]).
//!
//! The bound (see [`estimate`]): no figure shown — the upper end of an interval, a "more
//! than" — exceeds the longest real wait of the game seen in the windows the fit looks at
//! ([`longest_wait_min`]: a player seated from the list there, counted from joining to being
//! seated, only while the game had someone seated: a night the game was closed, or the
//! time before its table opened, is no wait for a seat). No such wait of at least five
//! minutes seen: no figure at all.
//!
//! The model: with `s` players seated, seats open at `s × h` a minute (`h` the measured
//! leave rate); each of the `m` players still ahead gives up at `d` a minute, so the place
//! moves up at `s × h + m × d`; the free seats now go to the first players at once. The wait
//! is the sum of those stages (exponential times); its mean and variance, widened by the
//! rate's uncertainty (few openings seen, or nights unlike each other), give a gamma law
//! whose quantiles bound the interval. `benches/waits.rs` replays simulated nights and
//! measures how often the real wait fell inside.

use chrono::{DateTime, Duration, Utc};
use serde::Serialize;

/// Past nights looked at, at the same hour as now (and tonight so far).
pub const NIGHTS: i64 = 14;
/// Half-width of the window around the same hour on each past night, in minutes.
pub const WINDOW_MIN: i64 = 90;
/// Fewer seat openings than this in the windows: not enough history to say.
pub const MIN_OPENINGS: usize = 6;
/// The longest wait the estimate may state, whatever the room has seen (4 h).
pub const MAX_HORIZON_MIN: i64 = 240;
/// Figures are said in steps of this many minutes: a history whose longest wait is shorter
/// supports none.
pub const STEP_MIN: i64 = 5;
/// The share of real waits the interval is built to hold: from the 7.5th to the 92.5th
/// percentile of the model's law (the standard normal's 0.925 quantile).
const Z: f64 = 1.44;

/// One seating of the game in the history.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stay {
    pub from: DateTime<Utc>,
    /// None: still seated.
    pub to: Option<DateTime<Utc>>,
    /// The seat was freed for someone else: the player left the game (not a move to another
    /// seat or table, BSOP 51, 58, and not the table closing, PT-2007 24).
    pub freed_seat: bool,
}

/// How a list entry ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Still on the list.
    Waiting,
    /// Seated from the list: its wait is a real one.
    Seated,
    /// Left the list without a seat: removed, a call not answered, a call-in lapsed.
    GaveUp,
}

/// One list entry of the game in the history.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListStay {
    pub joined: DateTime<Utc>,
    pub ended: Option<DateTime<Utc>>,
    pub outcome: Outcome,
}

/// The game's rates at this hour, fitted to its recent nights.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Model {
    /// Seat openings per seated player-minute.
    pub leave_rate: f64,
    /// Players giving up per waiting player-minute.
    pub give_up_rate: f64,
    /// Relative uncertainty of the leave rate (squared): the larger of 1/openings seen and
    /// the night-to-night variance of the rate.
    pub rate_var: f64,
    /// Seat openings the fit rests on.
    pub openings: usize,
    /// The longest wait the estimate may state, in minutes: the longest real wait seen in
    /// the windows looked at ([`longest_wait_min`]), at most [`MAX_HORIZON_MIN`].
    pub horizon_min: i64,
}

/// The game as it is now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct GameNow {
    /// Players seated at the game's tables in play.
    pub seated: usize,
    /// Seats a call could fill now: not taken, not called, not held, at a table in play.
    pub free: usize,
}

/// What a player is shown, in whole minutes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum WaitEstimate {
    /// A seat is free now for this place.
    FreeNow,
    /// Too little history at this hour to say.
    Unknown,
    /// Between `low` and `high` minutes (`low` 0: "up to `high`").
    Between { low: i64, high: i64 },
    /// More than `minutes`: the interval reaches past what the history covers.
    MoreThan { minutes: i64 },
}

impl WaitEstimate {
    /// Anything but "too little history".
    pub fn is_known(&self) -> bool {
        *self != WaitEstimate::Unknown
    }

    pub fn is_free_now(&self) -> bool {
        *self == WaitEstimate::FreeNow
    }

    /// A middle figure for ordering and the JSON API's single number (None: no figure).
    pub fn minutes(&self) -> Option<i64> {
        match *self {
            WaitEstimate::FreeNow => Some(0),
            WaitEstimate::Unknown => None,
            WaitEstimate::Between { low, high } => Some((low + high) / 2),
            WaitEstimate::MoreThan { minutes } => Some(minutes),
        }
    }
}

fn overlap_min(
    from: DateTime<Utc>,
    to: DateTime<Utc>,
    w0: DateTime<Utc>,
    w1: DateTime<Utc>,
) -> f64 {
    let a = from.max(w0);
    let b = to.min(w1);
    if b > a {
        (b - a).num_seconds() as f64 / 60.0
    } else {
        0.0
    }
}

/// The windows looked at: the last [`WINDOW_MIN`] minutes tonight, and ± [`WINDOW_MIN`]
/// around this hour on each of the [`NIGHTS`] nights before.
pub fn windows(now: DateTime<Utc>) -> Vec<(DateTime<Utc>, DateTime<Utc>)> {
    let w = Duration::minutes(WINDOW_MIN);
    let mut v = vec![(now - w, now)];
    for d in 1..=NIGHTS {
        let c = now - Duration::days(d);
        v.push((c - w, c + w));
    }
    v
}

/// The earliest time the history must reach back to (for the service's reads).
pub fn history_since(now: DateTime<Utc>) -> DateTime<Utc> {
    now - Duration::days(NIGHTS) - Duration::minutes(WINDOW_MIN)
}

/// The times the game had someone seated (`stays`, up to `now`), merged and in order.
fn in_play(now: DateTime<Utc>, stays: &[Stay]) -> Vec<(DateTime<Utc>, DateTime<Utc>)> {
    let mut spans: Vec<(DateTime<Utc>, DateTime<Utc>)> = stays
        .iter()
        .map(|s| (s.from, s.to.unwrap_or(now).min(now)))
        .filter(|(a, b)| b > a)
        .collect();
    spans.sort();
    let mut merged: Vec<(DateTime<Utc>, DateTime<Utc>)> = Vec::with_capacity(spans.len());
    for (a, b) in spans {
        match merged.last_mut() {
            Some(last) if a <= last.1 => last.1 = last.1.max(b),
            _ => merged.push((a, b)),
        }
    }
    merged
}

/// PT-2007 8a, BSOP 43: the longest real wait of the game seen in the windows the fit looks
/// at ([`windows`]), in whole minutes: a list entry seated there (at or before `now`), from
/// joining to being seated, counting only the time the game had someone seated (`stays`) —
/// the hours the game was closed (between nights, before its table opened) are not a wait
/// for a seat, and an instant written ahead of `now` (a clock running ahead) counts up to
/// `now`. 0 when no player was seated from the list there. This is what bounds every figure
/// shown ([`Model::horizon_min`], [`estimate`]).
pub fn longest_wait_min(now: DateTime<Utc>, stays: &[Stay], entries: &[ListStay]) -> i64 {
    let play = in_play(now, stays);
    let wins = windows(now);
    let mut longest = 0i64;
    for l in entries {
        let Some(seated) = l.ended.filter(|_| l.outcome == Outcome::Seated) else {
            continue;
        };
        if seated > now || !wins.iter().any(|(w0, w1)| seated > *w0 && seated <= *w1) {
            continue;
        }
        // The spans of play that end after joining, up to the seat.
        let first = play.partition_point(|(_, b)| *b <= l.joined);
        let secs: i64 = play[first..]
            .iter()
            .take_while(|(a, _)| *a < seated)
            .map(|(a, b)| ((*b).min(seated) - (*a).max(l.joined)).num_seconds().max(0))
            .sum();
        longest = longest.max(secs / 60);
    }
    longest
}

/// Fits the game's rates to its recent nights at this hour. None: fewer than
/// [`MIN_OPENINGS`] seat openings in those windows — no figure can be supported.
pub fn calibrate(now: DateTime<Utc>, stays: &[Stay], entries: &[ListStay]) -> Option<Model> {
    let mut exposure = 0.0;
    let mut openings = 0usize;
    let mut per_night: Vec<(f64, usize)> = Vec::new();
    let mut waiting = 0.0;
    let mut gave_up = 0usize;
    for (w0, w1) in windows(now) {
        let mut e = 0.0;
        let mut n = 0usize;
        for s in stays {
            e += overlap_min(s.from, s.to.unwrap_or(now).min(now), w0, w1);
            // A stay that ended before it began (a clock set wrong) opened no seat.
            if s.freed_seat
                && s.to
                    .is_some_and(|t| t > w0 && t <= w1 && t <= now && t >= s.from)
            {
                n += 1;
            }
        }
        for l in entries {
            waiting += overlap_min(l.joined, l.ended.unwrap_or(now).min(now), w0, w1);
            if l.outcome == Outcome::GaveUp && l.ended.is_some_and(|t| t > w0 && t <= w1) {
                gave_up += 1;
            }
        }
        if e > 0.0 {
            per_night.push((e, n));
        }
        exposure += e;
        openings += n;
    }
    if openings < MIN_OPENINGS || exposure <= 0.0 {
        return None;
    }
    let leave_rate = openings as f64 / exposure;
    // Night-to-night spread of the rate, weighted by each night's exposure, beyond what the
    // counts alone would scatter (a Poisson count's own variance is taken off).
    let spread = per_night
        .iter()
        .map(|(e, n)| {
            let r = *n as f64 / e;
            e * ((r - leave_rate).powi(2) - leave_rate / e)
        })
        .sum::<f64>()
        / exposure;
    let rate_var = (1.0 / openings as f64).max(spread.max(0.0) / leave_rate.powi(2));
    let give_up_rate = if waiting > 0.0 {
        gave_up as f64 / waiting
    } else {
        0.0
    };
    Some(Model {
        leave_rate,
        give_up_rate,
        rate_var,
        openings,
        horizon_min: longest_wait_min(now, stays, entries).min(MAX_HORIZON_MIN),
    })
}

/// The mean and variance (minutes, minutes²) of the wait with `ahead` players before this
/// place, from the model; None when nothing can free a seat (nobody seated).
/// A rate that is not a finite number (a model not fitted from real counts) is none.
pub fn wait_law(model: &Model, game: GameNow, ahead: usize) -> Option<(f64, f64)> {
    let opening = game.seated as f64 * model.leave_rate;
    if opening.is_nan() || opening <= 0.0 || opening.is_infinite() {
        return None;
    }
    let give_up = if model.give_up_rate.is_finite() {
        model.give_up_rate.max(0.0)
    } else {
        0.0
    };
    if !model.rate_var.is_finite() {
        return None;
    }
    // The free seats go to the first players now; the rest wait for openings.
    let still = ahead.saturating_sub(game.free);
    let (mut mean, mut var) = (0.0, 0.0);
    for m in 0..=still {
        let r = opening + m as f64 * give_up;
        mean += 1.0 / r;
        var += 1.0 / (r * r);
    }
    let var = var + mean * mean * model.rate_var.max(0.0);
    (mean.is_finite() && var.is_finite()).then_some((mean, var))
}

/// The `z` quantile of the gamma law with this mean and variance (Wilson-Hilferty). The
/// approximation fails for a very spread law (a small shape: nights very unlike each other),
/// where it would put the upper quantile near zero: an upper quantile (`z` > 0) is never
/// taken below the mean.
fn gamma_quantile(mean: f64, var: f64, z: f64) -> f64 {
    let k = mean * mean / var;
    let c = 1.0 / (9.0 * k);
    let q = mean * (1.0 - c + z * c.sqrt()).max(0.0).powi(3);
    let q = if z > 0.0 { q.max(mean) } else { q };
    q.max(0.0)
}

/// Rounds minutes out to 5 (down for a lower end, up for an upper end).
fn round5(m: f64, up: bool) -> i64 {
    let m = m.clamp(0.0, 1.0e6);
    if up {
        ((m / 5.0).ceil() as i64 * 5).max(5)
    } else {
        (m / 5.0).floor() as i64 * 5
    }
}

/// PT-2007 8a, BSOP 43: the wait shown to the player with `ahead` players before them.
/// `model` None: too little history. A free seat for this place beats any figure.
///
/// The bound every screen shares: no figure exceeds what the room's history supports — the
/// longest real wait of the game seen in the windows the model was fitted to
/// ([`Model::horizon_min`], [`longest_wait_min`]), rounded down to the 5-minute steps figures
/// are said in (and never past [`MAX_HORIZON_MIN`]). An interval whose upper end would pass
/// it is said as "more than" its lower end, itself within the bound; a history whose longest
/// wait is under five minutes supports no figure ([`WaitEstimate::Unknown`]).
pub fn estimate(model: Option<&Model>, game: GameNow, ahead: usize) -> WaitEstimate {
    if game.free > ahead {
        return WaitEstimate::FreeNow;
    }
    let Some(m) = model else {
        return WaitEstimate::Unknown;
    };
    let bound = m.horizon_min.min(MAX_HORIZON_MIN) / STEP_MIN * STEP_MIN;
    if bound < STEP_MIN {
        return WaitEstimate::Unknown;
    }
    let Some((mean, var)) = wait_law(m, game, ahead) else {
        return WaitEstimate::Unknown;
    };
    let low = round5(gamma_quantile(mean, var, -Z), false);
    let high = round5(gamma_quantile(mean, var, Z), true).max(low + STEP_MIN);
    if high > bound {
        WaitEstimate::MoreThan {
            minutes: low.max(STEP_MIN).min(bound),
        }
    } else {
        WaitEstimate::Between { low, high }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;
    use proptest::prelude::*;

    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 21, 22, 0, 0).unwrap()
    }

    /// Ten players seated through each of the last `nights` nights, one leaving every
    /// `every` minutes (replaced at once), and list entries seated after `wait` minutes.
    fn history(nights: i64, every: i64, wait: i64) -> (Vec<Stay>, Vec<ListStay>) {
        let mut stays = Vec::new();
        let mut entries = Vec::new();
        for d in 0..=nights {
            let start = now() - Duration::days(d) - Duration::hours(3);
            for seat in 0..10 {
                stays.push(Stay {
                    from: start,
                    to: Some(start + Duration::minutes(every * (seat + 1))),
                    freed_seat: true,
                });
            }
            for k in 1..=(180 / every) {
                let t = start + Duration::minutes(every * k);
                entries.push(ListStay {
                    joined: t - Duration::minutes(wait),
                    ended: Some(t),
                    outcome: Outcome::Seated,
                });
            }
        }
        (stays, entries)
    }

    fn model() -> Model {
        Model {
            leave_rate: 1.0 / 100.0,
            give_up_rate: 0.0,
            rate_var: 0.05,
            openings: 40,
            horizon_min: 240,
        }
    }

    #[test]
    fn pt2007_8a_no_history_no_figure() {
        assert_eq!(calibrate(now(), &[], &[]), None);
        let game = GameNow { seated: 9, free: 0 };
        assert_eq!(estimate(None, game, 0), WaitEstimate::Unknown);
        // A free seat needs no history.
        let game = GameNow { seated: 9, free: 1 };
        assert_eq!(estimate(None, game, 0), WaitEstimate::FreeNow);
        assert_eq!(estimate(None, game, 1), WaitEstimate::Unknown);
    }

    #[test]
    fn too_few_openings_at_this_hour_is_not_enough() {
        // Five openings tonight only.
        let (stays, _) = history(0, 30, 10);
        let few: Vec<Stay> = stays.into_iter().take(5).collect();
        assert_eq!(calibrate(now(), &few, &[]), None);
    }

    #[test]
    fn the_rates_are_those_of_the_past_nights() {
        let (stays, entries) = history(NIGHTS, 20, 35);
        let m = calibrate(now(), &stays, &entries).unwrap();
        assert!(m.openings >= MIN_OPENINGS);
        assert!(m.leave_rate > 0.0);
        assert_eq!(m.give_up_rate, 0.0);
        // The longest wait seen in the windows: 35 minutes, waited while the game ran (the
        // first seated of each night joined before its table opened: only 20 minutes count).
        assert_eq!(m.horizon_min, 35);
        // Every night alike: the uncertainty is the counts' own.
        assert!((m.rate_var - 1.0 / m.openings as f64).abs() < 1e-9);
    }

    #[test]
    fn the_longest_wait_seen_bounds_the_figure() {
        let m = Model {
            horizon_min: 60,
            ..model()
        };
        let game = GameNow {
            seated: 10,
            free: 0,
        };
        // Ten minutes a seat: the 30th in line waits far beyond an hour.
        match estimate(Some(&m), game, 30) {
            WaitEstimate::MoreThan { minutes } => assert!(minutes <= 60),
            e => panic!("{e:?}"),
        }
        match estimate(Some(&m), game, 0) {
            WaitEstimate::Between { low, high } => assert!(low < high && high <= 60),
            e => panic!("{e:?}"),
        }
    }

    #[test]
    fn players_giving_up_shorten_the_wait() {
        let game = GameNow {
            seated: 10,
            free: 0,
        };
        let stay = wait_law(&model(), game, 8).unwrap().0;
        let leave = wait_law(
            &Model {
                give_up_rate: 1.0 / 60.0,
                ..model()
            },
            game,
            8,
        )
        .unwrap()
        .0;
        assert!(leave < stay);
    }

    #[test]
    fn nobody_seated_nothing_to_say() {
        let game = GameNow { seated: 0, free: 0 };
        assert_eq!(estimate(Some(&model()), game, 2), WaitEstimate::Unknown);
    }

    fn upper(e: WaitEstimate) -> i64 {
        match e {
            WaitEstimate::FreeNow => 0,
            WaitEstimate::Unknown => -1,
            WaitEstimate::Between { high, .. } => high,
            WaitEstimate::MoreThan { .. } => i64::MAX,
        }
    }

    fn lower(e: WaitEstimate) -> i64 {
        match e {
            WaitEstimate::FreeNow => 0,
            WaitEstimate::Unknown => -1,
            WaitEstimate::Between { low, .. } => low,
            WaitEstimate::MoreThan { minutes } => minutes,
        }
    }

    /// Twelve players seated at 20:00 on each of the last `nights` nights, one leaving every
    /// 10 minutes until the last at 22:00; the game closed the rest of the day.
    fn evenings(nights: i64) -> Vec<Stay> {
        let mut stays = Vec::new();
        for d in 1..=nights {
            let open = now() - Duration::days(d) - Duration::hours(2);
            for k in 0..12 {
                stays.push(Stay {
                    from: open,
                    to: Some(open + Duration::minutes(10 * (k + 1))),
                    freed_seat: true,
                });
            }
        }
        stays
    }

    #[test]
    fn pt2007_8a_a_closed_night_is_no_wait() {
        let stays = evenings(NIGHTS);
        // Joined at 21:30 the night before last, seated at 21:00 last night: 23h30 between,
        // but the game was in play for 30 + 60 minutes of it.
        let joined = now() - Duration::days(2) - Duration::minutes(30);
        let seated = now() - Duration::days(1) - Duration::minutes(60);
        let entries = [ListStay {
            joined,
            ended: Some(seated),
            outcome: Outcome::Seated,
        }];
        assert_eq!(longest_wait_min(now(), &stays, &entries), 90);
        // Joined an hour before the table opened, seated 45 minutes after: 45 minutes.
        let open = now() - Duration::days(3) - Duration::hours(2);
        let entries = [ListStay {
            joined: open - Duration::hours(1),
            ended: Some(open + Duration::minutes(45)),
            outcome: Outcome::Seated,
        }];
        assert_eq!(longest_wait_min(now(), &stays, &entries), 45);
        let m = calibrate(now(), &stays, &entries).expect("fitted");
        assert_eq!(m.horizon_min, 45);
        // A player given up, a wait seated outside the windows, or a seat written ahead of
        // the clock: not a wait seen (the last counts up to now).
        let far = now() - Duration::days(3) - Duration::hours(6);
        let entries = [
            ListStay {
                joined: open,
                ended: Some(open + Duration::minutes(100)),
                outcome: Outcome::GaveUp,
            },
            ListStay {
                joined: far - Duration::minutes(100),
                ended: Some(far),
                outcome: Outcome::Seated,
            },
        ];
        assert_eq!(longest_wait_min(now(), &stays, &entries), 0);
        let mut tonight = stays.clone();
        tonight.push(Stay {
            from: now() - Duration::minutes(60),
            to: None,
            freed_seat: false,
        });
        let ahead = [ListStay {
            joined: now() - Duration::minutes(20),
            ended: Some(now() + Duration::hours(5)),
            outcome: Outcome::Seated,
        }];
        assert_eq!(longest_wait_min(now(), &tonight, &ahead), 0);
    }

    #[test]
    fn no_figure_past_the_longest_wait_seen_nor_without_one() {
        let game = GameNow {
            seated: 10,
            free: 0,
        };
        // The longest wait seen was 25 minutes: nothing beyond 25 is said.
        let m = Model {
            horizon_min: 27,
            ..model()
        };
        for ahead in 0..40 {
            match estimate(Some(&m), game, ahead) {
                WaitEstimate::Between { high, .. } => assert!(high <= 25, "{ahead}: {high}"),
                WaitEstimate::MoreThan { minutes } => assert!(minutes <= 25, "{ahead}"),
                e => panic!("{ahead}: {e:?}"),
            }
        }
        // No wait of five minutes seen: no figure (a free seat still says so).
        for horizon in [0, 4] {
            let m = Model {
                horizon_min: horizon,
                ..model()
            };
            assert_eq!(estimate(Some(&m), game, 3), WaitEstimate::Unknown);
            let free = GameNow { seated: 9, free: 1 };
            assert_eq!(estimate(Some(&m), free, 0), WaitEstimate::FreeNow);
        }
    }

    #[test]
    fn a_rate_that_is_not_a_number_says_nothing_and_a_spread_law_is_not_short() {
        let game = GameNow {
            seated: 10,
            free: 0,
        };
        for bad in [f64::NAN, f64::INFINITY, 0.0, -1.0, 1e-300] {
            let m = Model {
                leave_rate: bad,
                ..model()
            };
            let e = estimate(Some(&m), game, 3);
            assert!(
                matches!(e, WaitEstimate::Unknown | WaitEstimate::MoreThan { .. }),
                "{bad}: {e:?}"
            );
        }
        let m = Model {
            rate_var: f64::NAN,
            ..model()
        };
        assert_eq!(estimate(Some(&m), game, 3), WaitEstimate::Unknown);
        // Nights very unlike each other: the interval's upper end is never under the mean
        // wait (the approximation of the law would put it near zero: "up to 5 min").
        let m = Model {
            rate_var: 60.0,
            ..model()
        };
        let (mean, _) = wait_law(&m, game, 8).unwrap();
        match estimate(Some(&m), game, 8) {
            WaitEstimate::Between { high, .. } => assert!(high as f64 >= mean, "{high}"),
            WaitEstimate::MoreThan { .. } => {}
            e => panic!("{e:?}"),
        }
    }

    /// The longest wait seen, counted minute by minute (the property test's own reading of
    /// the rule: whole-minute instants, a minute counts when someone sat through it).
    fn longest_by_the_minute(now: DateTime<Utc>, stays: &[Stay], entries: &[ListStay]) -> i64 {
        let wins = windows(now);
        let seated_in = |t: DateTime<Utc>| {
            stays
                .iter()
                .any(|s| s.from <= t && t + Duration::minutes(1) <= s.to.unwrap_or(now).min(now))
        };
        entries
            .iter()
            .filter(|l| l.outcome == Outcome::Seated)
            .filter_map(|l| l.ended.map(|e| (l.joined, e)))
            .filter(|(_, e)| *e <= now && wins.iter().any(|(w0, w1)| e > w0 && e <= w1))
            .map(|(j, e)| {
                let mut n = 0;
                let mut t = j;
                while t < e {
                    if seated_in(t) {
                        n += 1;
                    }
                    t += Duration::minutes(1);
                }
                n
            })
            .max()
            .unwrap_or(0)
    }

    /// An instant near this hour on night `night` (0: tonight, before now), whole minutes.
    fn near(night: i64, minute: i64) -> DateTime<Utc> {
        let c = now() - Duration::days(night);
        if night == 0 {
            c - Duration::minutes(minute.rem_euclid(WINDOW_MIN + 30))
        } else {
            c + Duration::minutes(minute)
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(96))]

        /// PT-2007 8a, BSOP 43: whatever the history (nights closed in between, waits across
        /// them, tables opening after the list formed, instants written ahead of the clock),
        /// no estimate shown exceeds the longest wait the history shows for the game around
        /// this hour — counted independently here, minute by minute — or, without one of five
        /// minutes, no figure is shown at all; a free seat is said only when there is one.
        #[test]
        fn no_estimate_exceeds_what_the_history_supports(
            stays in proptest::collection::vec(
                (0i64..=NIGHTS, -150i64..150, 1i64..240, any::<bool>(), any::<bool>()), 0..40),
            entries in proptest::collection::vec(
                (0i64..=NIGHTS, -150i64..150, -30i64..400, 0u8..4, 0i64..=3), 0..25),
            seated in 0usize..30, free in 0usize..4, ahead in 0usize..25,
        ) {
            let stays: Vec<Stay> = stays
                .iter()
                .map(|(night, at, len, open, freed)| {
                    let from = near(*night, *at);
                    Stay {
                        from,
                        to: (!open || *night > 0).then(|| from + Duration::minutes(*len)),
                        freed_seat: *freed,
                    }
                })
                .collect();
            let entries: Vec<ListStay> = entries
                .iter()
                .map(|(night, at, wait, how, back)| {
                    // Seated `wait` minutes after joining (`back` nights later: across closed
                    // nights), given up, still waiting, or seated "ahead" of the clock.
                    let ended = near(*night, *at);
                    let joined = ended - Duration::days(*back) - Duration::minutes(*wait);
                    let (ended, outcome) = match how {
                        0 => (Some(ended), Outcome::Seated),
                        1 => (Some(ended), Outcome::GaveUp),
                        2 => (None, Outcome::Waiting),
                        _ => (Some(now() + Duration::minutes(*wait)), Outcome::Seated),
                    };
                    ListStay { joined, ended, outcome }
                })
                .collect();
            let model = calibrate(now(), &stays, &entries);
            let supported = longest_by_the_minute(now(), &stays, &entries).min(MAX_HORIZON_MIN);
            if let Some(m) = &model {
                prop_assert_eq!(m.horizon_min, supported);
            }
            let game = GameNow { seated, free };
            for place in 0..=ahead {
                match estimate(model.as_ref(), game, place) {
                    WaitEstimate::FreeNow => prop_assert!(free > place),
                    WaitEstimate::Unknown => {}
                    WaitEstimate::Between { low, high } => {
                        prop_assert!(low < high && high <= supported, "{} {} of {}", low, high, supported);
                    }
                    WaitEstimate::MoreThan { minutes } => {
                        prop_assert!(minutes >= STEP_MIN && minutes <= supported, "{} of {}", minutes, supported);
                    }
                }
            }
        }

        /// Further down the list never waits less: both ends of the interval grow with the
        /// place (a "more than" figure is beyond any interval).
        #[test]
        fn monotone_in_the_place(
            seated in 1usize..60, free in 0usize..5, ahead in 0usize..80,
            leave in 1u32..200, give_up in 0u32..100, var in 0u32..100, horizon in 60i64..240,
        ) {
            let m = Model {
                leave_rate: leave as f64 / 10_000.0,
                give_up_rate: give_up as f64 / 10_000.0,
                rate_var: var as f64 / 100.0,
                openings: 10,
                horizon_min: horizon,
            };
            let g = GameNow { seated, free };
            let a = estimate(Some(&m), g, ahead);
            let b = estimate(Some(&m), g, ahead + 1);
            prop_assert!(upper(b) >= upper(a), "{:?} then {:?}", a, b);
            if !matches!(a, WaitEstimate::MoreThan { .. }) {
                prop_assert!(lower(b) >= lower(a), "{:?} then {:?}", a, b);
            }
            // Never a figure beyond the horizon, never an empty interval.
            match b {
                WaitEstimate::Between { low, high } => {
                    prop_assert!(low < high && high <= horizon);
                }
                WaitEstimate::MoreThan { minutes } => prop_assert!(minutes <= horizon),
                _ => {}
            }
        }

        /// A seat free for this place beats any figure, with or without history.
        #[test]
        fn a_free_seat_beats_any_figure(
            seated in 0usize..60, free in 1usize..10, ahead in 0usize..10, known: bool,
        ) {
            let g = GameNow { seated, free };
            let m = model();
            let e = estimate(known.then_some(&m), g, ahead);
            prop_assert_eq!(e == WaitEstimate::FreeNow, ahead < free);
        }

        /// Whatever the history, a fit has positive finite rates and a bounded horizon.
        #[test]
        fn a_fit_is_sane(
            leaves in proptest::collection::vec((0i64..(NIGHTS * 1440), 1i64..600, any::<bool>()), 0..120),
        ) {
            let stays: Vec<Stay> = leaves
                .iter()
                .map(|(back, len, freed)| {
                    let from = now() - Duration::minutes(*back);
                    Stay { from, to: Some(from + Duration::minutes(*len)), freed_seat: *freed }
                })
                .collect();
            if let Some(m) = calibrate(now(), &stays, &[]) {
                prop_assert!(m.leave_rate.is_finite() && m.leave_rate > 0.0);
                prop_assert!(m.rate_var.is_finite() && m.rate_var > 0.0);
                prop_assert!((0..=MAX_HORIZON_MIN).contains(&m.horizon_min));
            }
        }
    }
}
