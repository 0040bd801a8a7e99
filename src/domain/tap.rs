//! The time of a tap made on a dealer's tablet.
//!
//! A casino floor drops the tablet's Wi-Fi: a tap made while the tablet is offline waits on
//! the device and reaches the server later, carrying the instant the dealer tapped. A rule
//! that depends on when a thing happened (the start of an absence, BSOP 36: «O jogador que se
//! ausentar da mesa por mais de 30 minutos…»; a missed blind while away, BSOP 39) counts from
//! that instant, not from its arrival — within the room's bound: a tap that arrives later than
//! the bound is refused (the dealer taps again if it still holds), so nothing stale is
//! applied. A tablet's clock running ahead cannot put a thing in the future: such an instant
//! is taken as the arrival.

use super::refusal::AbsenceRefusal;
use super::Problem;
use chrono::{DateTime, Duration, Utc};

/// The room's bound when none was set: a tap may arrive at most two minutes late.
pub const LATE_DEFAULT_S: i32 = 120;
/// The largest bound a room may set (fifteen minutes).
pub const LATE_MAX_S: i32 = 900;

/// When the tap counts as made: `tapped` (the tablet's instant, if it sent one) within
/// `late_max_s` seconds before `now`; in the future: `now`; none: `now`. A tap older than the
/// bound: refused (`err-tap-too-late`, args `tapped` as RFC 3339 and `limit_s`).
pub fn when_tapped(
    tapped: Option<DateTime<Utc>>,
    now: DateTime<Utc>,
    late_max_s: i32,
) -> Result<DateTime<Utc>, Problem> {
    let Some(t) = tapped else {
        return Ok(now);
    };
    if t >= now {
        return Ok(now);
    }
    if now - t > Duration::seconds(i64::from(late_max_s.max(0))) {
        return Err(AbsenceRefusal::TapTooLate {
            tapped: t.to_rfc3339(),
            limit_s: late_max_s,
        }
        .into());
    }
    Ok(t)
}

/// BSOP 36, 39: a seat is away or back as the dealer's latest tap says. An away or back made
/// at `tapped` changes the seat only if it is not older than the seat's last away or back
/// (`last`, as tapped): a tap kept on an offline tablet that arrives after a newer one was
/// applied (from the same seat on another device, or the floor) is superseded — refused
/// (`err-tap-superseded`, args `tapped` and `newer` as RFC 3339), nothing changed — so a late
/// "away" never undoes a newer "back", nor a late "back" a newer "away". Taps made at the same
/// instant are both applied, in the order they arrive.
pub fn check_not_superseded(
    tapped: DateTime<Utc>,
    last: Option<DateTime<Utc>>,
) -> Result<(), Problem> {
    match last {
        Some(newer) if tapped < newer => Err(AbsenceRefusal::TapSuperseded {
            tapped: tapped.to_rfc3339(),
            newer: newer.to_rfc3339(),
        }
        .into()),
        _ => Ok(()),
    }
}

/// A room's bound as typed or sent: 0 to [`LATE_MAX_S`] seconds.
pub fn valid_late_max(s: i32) -> bool {
    (0..=LATE_MAX_S).contains(&s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn at(s: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_800_000_000 + s, 0).unwrap()
    }

    #[test]
    fn no_instant_is_now() {
        assert_eq!(when_tapped(None, at(0), 120), Ok(at(0)));
    }

    #[test]
    fn within_the_bound_counts_from_the_tap() {
        assert_eq!(when_tapped(Some(at(-120)), at(0), 120), Ok(at(-120)));
        assert_eq!(when_tapped(Some(at(-5)), at(0), 120), Ok(at(-5)));
    }

    #[test]
    fn beyond_the_bound_is_refused_with_the_instant() {
        let p = when_tapped(Some(at(-121)), at(0), 120).unwrap_err();
        assert_eq!(p.key, "err-tap-too-late");
        assert!(p.args.contains(&("tapped", at(-121).to_rfc3339())));
        assert!(p.args.contains(&("limit_s", "120".to_string())));
        // A bound of zero: only a tap that arrives at once.
        assert!(when_tapped(Some(at(-1)), at(0), 0).is_err());
    }

    #[test]
    fn the_future_is_now() {
        assert_eq!(when_tapped(Some(at(3)), at(0), 120), Ok(at(0)));
        assert_eq!(when_tapped(Some(at(86_400)), at(0), 120), Ok(at(0)));
    }

    #[test]
    fn bounds() {
        assert!(valid_late_max(0) && valid_late_max(120) && valid_late_max(900));
        assert!(!valid_late_max(-1) && !valid_late_max(901));
    }

    #[test]
    fn bsop_36_an_away_or_back_older_than_the_seats_last_is_superseded() {
        // No away or back yet: any tap applies.
        assert_eq!(check_not_superseded(at(-60), None), Ok(()));
        // Back tapped at 0 applied: an away made at -30 arriving now is superseded.
        let p = check_not_superseded(at(-30), Some(at(0))).unwrap_err();
        assert_eq!(p.key, "err-tap-superseded");
        assert!(p.args.contains(&("tapped", at(-30).to_rfc3339())));
        assert!(p.args.contains(&("newer", at(0).to_rfc3339())));
        // Made at the same instant or later: applied.
        assert_eq!(check_not_superseded(at(0), Some(at(0))), Ok(()));
        assert_eq!(check_not_superseded(at(5), Some(at(0))), Ok(()));
    }

    proptest! {
        /// Whatever order the taps arrive in, the taps applied are in the order they were
        /// made: the seat ends as the latest tap made says.
        #[test]
        fn the_seat_ends_as_the_latest_tap_says(
            taps in proptest::collection::vec((0i64..600, any::<bool>()), 1..12),
        ) {
            // (made at, away?) in the order they arrive.
            let mut last: Option<DateTime<Utc>> = None;
            let mut away: Option<bool> = None;
            for (t, a) in &taps {
                if check_not_superseded(at(*t), last).is_ok() {
                    last = Some(at(*t));
                    away = Some(*a);
                }
            }
            let latest = taps.iter().map(|(t, _)| *t).max().unwrap();
            prop_assert_eq!(last, Some(at(latest)));
            // The state is one of the taps made at the latest instant.
            prop_assert!(taps.iter().any(|(t, a)| *t == latest && Some(*a) == away));
        }

        /// Whatever the tablet sends, an applied tap is never after its arrival nor older
        /// than the bound.
        #[test]
        fn applied_instant_is_within_the_bound(d in -100_000i64..100_000, bound in 0i32..=900) {
            let now = at(0);
            if let Ok(t) = when_tapped(Some(at(d)), now, bound) {
                prop_assert!(t <= now);
                prop_assert!(now - t <= Duration::seconds(i64::from(bound)));
            }
        }
    }
}
