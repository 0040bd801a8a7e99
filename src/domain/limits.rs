//! A running table's limits (blinds and buy-ins) and how they change (PT-2007 22, BSOP 34).
//!
//! PT-2007 22: «Dentro dos limites autorizados, a concessionária pode alterar o limite de
//! aposta numa mesa de jogo com aviso prévio aos jogadores.» BSOP 34: «O limite de apostas do
//! jogo de uma mesa em andamento só poderá ser alterado com a aprovação da direção. Caso o
//! limite de apostas de um jogo tenha sido alterado sem aprovação da administração, quaisquer
//! decisões necessárias serão tomadas considerando o limite de apostas original.»
//!
//! So a table has limits of its own while it is in play, starting as its game's. A change is
//! approved by the floor (BSOP 34, "a aprovação da direção"), given an effective point (the
//! next hand, or a stated time), announced to the players at the table (PT-2007 22, "aviso
//! prévio") and takes effect at the first hand started once it is both announced and due —
//! never in the hand being played. Until then every decision reads the limits in force
//! (BSOP 34, "o limite de apostas original").

use super::cagnotte::{check_settings, SessionBase};
use super::error::{Errors, FieldError, Problem};
use super::money;
use super::refusal::LimitRefusal;
use chrono::{DateTime, Duration, NaiveTime, TimeZone, Utc};
use chrono_tz::Tz;
use serde::{Deserialize, Serialize};

/// A table's limits: blinds and buy-ins, in minor units. `buy_in_max` `None`: no maximum
/// (BSOP 27 "se um jogo tiver um buy-in máximo").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Limits {
    pub small_blind: i64,
    pub big_blind: i64,
    pub buy_in_min: i64,
    pub buy_in_max: Option<i64>,
}

/// What of the game the new limits must still fit (its variant and cagnotte settings).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameFit {
    /// Banked games (Q Poker, 13 cards) have no blinds.
    pub banked: bool,
    /// PT-2007 7b: the game takes a percentage per session of the table maximum.
    pub session_of_table_max: bool,
    /// BSOP 80: the smallest chip the game states (the blinds must be made of it).
    pub smallest_chip: Option<i64>,
}

/// PT-2007 22, BSOP 24: new limits must be limits a table can play: every amount within
/// [`money::GAME_AMOUNT`] (a banked game's blinds are 0), the big blind not below the small
/// blind, the maximum buy-in not below the minimum; and they must fit the game's cagnotte
/// (PT-2007 7b: a percentage of the table maximum needs a maximum; BSOP 80: the blinds are
/// made of the game's smallest chip). Each refusal names its field.
pub fn check_limits(l: &Limits, fit: &GameFit) -> Result<(), Vec<FieldError>> {
    let mut e = Errors::default();
    let amount = |e: &mut Errors, field: &str, v: i64| match money::GAME_AMOUNT.check(v) {
        Ok(()) => true,
        Err(p) => {
            e.push(FieldError::of(field, p));
            false
        }
    };
    if fit.banked {
        if l.small_blind != 0 || l.big_blind != 0 {
            e.add("big_blind", "err-game-banked-no-blinds");
        }
    } else {
        let sb = amount(&mut e, "small_blind", l.small_blind);
        if amount(&mut e, "big_blind", l.big_blind) && sb && l.big_blind < l.small_blind {
            e.add("big_blind", "limits-err-bb-below-sb");
        }
    }
    let min = amount(&mut e, "buy_in_min", l.buy_in_min);
    if let Some(max) = l.buy_in_max {
        if amount(&mut e, "buy_in_max", max) && min && max < l.buy_in_min {
            e.add("buy_in_max", "limits-err-max-below-min");
        }
    }
    if e.is_empty() {
        let base = if fit.session_of_table_max {
            SessionBase::TableMax
        } else {
            SessionBase::Cave
        };
        for f in check_settings(
            fit.session_of_table_max,
            base,
            l.buy_in_max,
            None,
            fit.smallest_chip,
            l.small_blind,
            l.big_blind,
        ) {
            match f.field.as_str() {
                "cagnotte_base" => e.add("buy_in_max", "limits-err-needs-max"),
                "smallest_chip" => e.push(
                    FieldError::new("small_blind", "limits-err-chip")
                        .arg("chip", fit.smallest_chip.unwrap_or(1)),
                ),
                _ => e.push(f),
            }
        }
    }
    e.into_result(())
}

/// When a change takes effect (PT-2007 22: after the players were told).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Effective {
    /// From the next hand started after the announcement.
    NextHand,
    /// From the first hand started at or after this instant (and after the announcement).
    At(DateTime<Utc>),
}

impl Effective {
    pub fn at(self) -> Option<DateTime<Utc>> {
        match self {
            Effective::NextHand => None,
            Effective::At(t) => Some(t),
        }
    }
}

/// How far ahead the floor may state the time of a change, by default
/// (`CARDROOM_LIMIT_CHANGE_HORIZON_HOURS`): what the board's form can state (a time of day,
/// the nearest occurrence: [`time_of_day`]).
pub const HORIZON_HOURS_DEFAULT: u32 = 12;
/// The horizons a room may set: an hour to a day.
pub const HORIZON_HOURS_MIN: u32 = 1;
pub const HORIZON_HOURS_MAX: u32 = 24;

/// PT-2007 22 ("aviso prévio"): a stated time must be ahead of `now`; a time already past
/// would make a change without notice. And it must be within `horizon_hours` of `now`: the
/// notice is given to the players at the table now, for the session under way (a change
/// announced for next year is no notice to anyone), and a pending change holds the table's
/// other changes until it applies.
pub fn check_effective(
    e: Effective,
    now: DateTime<Utc>,
    horizon_hours: u32,
) -> Result<(), FieldError> {
    match e {
        Effective::At(t) if t <= now => Err(FieldError::new("effective_at", "limits-err-past")),
        Effective::At(t) if t > now + Duration::hours(i64::from(horizon_hours)) => {
            Err(FieldError::new("effective_at", "limits-err-horizon").arg("hours", horizon_hours))
        }
        _ => Ok(()),
    }
}

/// A time of day typed by the floor ("22:00") as an instant: the occurrence in the room's
/// zone nearest to `now` (a night goes on past midnight: at 23:50, "00:30" is in 40 minutes;
/// at 22:10, "22:00" is ten minutes ago, which [`check_effective`] refuses). A time the clocks
/// skip (spring) is taken as the first instant after the gap.
pub fn time_of_day(now: DateTime<Utc>, tz: Tz, at: NaiveTime) -> DateTime<Utc> {
    let today = now.with_timezone(&tz).date_naive();
    let instant = |d: chrono::NaiveDate| {
        let naive = d.and_time(at);
        tz.from_local_datetime(&naive)
            .earliest()
            .or_else(|| {
                tz.from_local_datetime(&(naive + Duration::hours(1)))
                    .earliest()
            })
            .map(|t| t.with_timezone(&Utc))
    };
    [today.pred_opt(), Some(today), today.succ_opt()]
        .into_iter()
        .flatten()
        .filter_map(instant)
        .min_by_key(|t| (*t - now).num_seconds().abs())
        .unwrap_or(now)
}

/// A pending change as the rule sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pending {
    pub effective: Effective,
    /// When the dealer confirmed it was announced at the table.
    pub announced_at: Option<DateTime<Utc>>,
}

/// PT-2007 22, BSOP 34: a pending change takes effect at a hand started at `now` only once
/// announced (the players' prior notice) and due (the next hand, or the stated time reached).
/// The hand being played never changes: the caller asks this only when a hand starts.
pub fn takes_effect(p: &Pending, now: DateTime<Utc>) -> bool {
    p.announced_at.is_some_and(|a| a <= now)
        && match p.effective {
            Effective::NextHand => true,
            Effective::At(t) => t <= now,
        }
}

/// BSOP 27, 55, 58: two tables are "the same game and limit" only if they run the same game
/// at the same limits now; a voluntary transfer between tables of one game whose limits
/// differ is refused.
pub fn check_same_limit(from: &Limits, to: &Limits, to_table: i32) -> Result<(), Problem> {
    if from == to {
        Ok(())
    } else {
        Err(LimitRefusal::TransferOtherLimit { table: to_table }.into())
    }
}

/// The limits a table played over time: `before` until the first step, then each step's
/// limits from its instant (steps in order of time). Seconds since the epoch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Timeline {
    pub before: Limits,
    pub steps: Vec<(i64, Limits)>,
}

impl Timeline {
    /// The table's open time (`spans`, disjoint `[a, b)` in seconds) split at each change of
    /// limits: the seconds played at each limits, in order of first play. The parts add up
    /// to the spans' total (nothing is lost or counted twice at a change).
    pub fn split(&self, spans: &[(i64, i64)]) -> Vec<(Limits, i64)> {
        let mut out: Vec<(Limits, i64)> = Vec::new();
        let mut add = |l: Limits, s: i64| {
            if s <= 0 {
                return;
            }
            match out.iter_mut().find(|(x, _)| *x == l) {
                Some((_, t)) => *t += s,
                None => out.push((l, s)),
            }
        };
        for &(a, b) in spans {
            if a >= b {
                continue;
            }
            // The limits in force at `a`, then each step inside the span.
            let mut cur = self.before;
            let mut from = a;
            for &(t, l) in &self.steps {
                if t <= a {
                    cur = l;
                } else if t < b {
                    add(cur, t - from);
                    cur = l;
                    from = t;
                } else {
                    break;
                }
            }
            add(cur, b - from);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;
    use proptest::prelude::*;

    fn nl(sb: i64, bb: i64, min: i64, max: Option<i64>) -> Limits {
        Limits {
            small_blind: sb,
            big_blind: bb,
            buy_in_min: min,
            buy_in_max: max,
        }
    }

    const POKER: GameFit = GameFit {
        banked: false,
        session_of_table_max: false,
        smallest_chip: None,
    };

    fn t(h: u32, m: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 28, h, m, 0).unwrap()
    }

    #[test]
    fn bsop_24_limits_a_table_can_play_pass_and_bad_ones_name_their_field() {
        assert!(check_limits(&nl(100, 200, 4000, Some(20000)), &POKER).is_ok());
        assert!(check_limits(&nl(100, 200, 4000, None), &POKER).is_ok());
        let e = check_limits(&nl(200, 100, 4000, Some(20000)), &POKER).unwrap_err();
        assert_eq!(
            (e[0].field.as_str(), e[0].key),
            ("big_blind", "limits-err-bb-below-sb")
        );
        let e = check_limits(&nl(100, 200, 40000, Some(20000)), &POKER).unwrap_err();
        assert_eq!(
            (e[0].field.as_str(), e[0].key),
            ("buy_in_max", "limits-err-max-below-min")
        );
        let e = check_limits(&nl(0, 200, 4000, Some(i64::MAX)), &POKER).unwrap_err();
        let fields: Vec<&str> = e.iter().map(|f| f.field.as_str()).collect();
        assert_eq!(fields, ["small_blind", "buy_in_max"]);
        assert!(e.iter().all(|f| f.key == money::AMOUNT_RANGE_KEY));
    }

    #[test]
    fn pt2007_7b_and_bsop_80_the_new_limits_fit_the_games_cagnotte() {
        let session = GameFit {
            session_of_table_max: true,
            ..POKER
        };
        let e = check_limits(&nl(100, 200, 4000, None), &session).unwrap_err();
        assert_eq!(
            (e[0].field.as_str(), e[0].key),
            ("buy_in_max", "limits-err-needs-max")
        );
        let chip = GameFit {
            smallest_chip: Some(100),
            ..POKER
        };
        assert!(check_limits(&nl(100, 200, 4000, None), &chip).is_ok());
        let e = check_limits(&nl(50, 100, 4000, None), &chip).unwrap_err();
        assert_eq!(
            (e[0].field.as_str(), e[0].key),
            ("small_blind", "limits-err-chip")
        );
        let banked = GameFit {
            banked: true,
            ..POKER
        };
        assert!(check_limits(&nl(0, 0, 4000, None), &banked).is_ok());
        assert!(check_limits(&nl(100, 200, 4000, None), &banked).is_err());
    }

    #[test]
    fn pt2007_22_a_stated_time_must_give_notice() {
        let now = t(21, 30);
        let h = HORIZON_HOURS_DEFAULT;
        assert!(check_effective(Effective::NextHand, now, h).is_ok());
        assert!(check_effective(Effective::At(t(22, 0)), now, h).is_ok());
        for past in [now, t(21, 0)] {
            let e = check_effective(Effective::At(past), now, h).unwrap_err();
            assert_eq!(
                (e.field.as_str(), e.key),
                ("effective_at", "limits-err-past")
            );
        }
    }

    #[test]
    fn pt2007_22_a_stated_time_is_within_the_horizon() {
        let now = t(21, 30);
        let edge = now + Duration::hours(12);
        assert!(check_effective(Effective::At(edge), now, 12).is_ok());
        for far in [
            edge + Duration::seconds(1),
            Utc.with_ymd_and_hms(9999, 12, 31, 23, 59, 59).unwrap(),
        ] {
            let e = check_effective(Effective::At(far), now, 12).unwrap_err();
            assert_eq!(
                (e.field.as_str(), e.key),
                ("effective_at", "limits-err-horizon")
            );
            assert_eq!(e.args, vec![("hours", "12".to_string())]);
        }
        assert!(check_effective(Effective::At(now + Duration::hours(2)), now, 1).is_err());
    }

    proptest! {
        /// Whatever the time stated, a change accepted is due after now and within the
        /// horizon; one refused is not.
        #[test]
        fn an_accepted_time_is_ahead_and_within_the_horizon(
            offset in -100_000i64..200_000,
            hours in HORIZON_HOURS_MIN..=HORIZON_HOURS_MAX,
        ) {
            let now = t(21, 30);
            let at = now + Duration::seconds(offset);
            let ok = check_effective(Effective::At(at), now, hours).is_ok();
            prop_assert_eq!(ok, offset > 0 && offset <= i64::from(hours) * 3600);
        }
    }

    #[test]
    fn the_board_form_states_nothing_beyond_the_default_horizon() {
        // Whatever the time of day typed, its nearest occurrence is within 12 hours ahead.
        let lisbon = chrono_tz::Europe::Lisbon;
        let now = t(21, 30);
        for h in 0..24 {
            for m in [0, 29, 30, 31, 59] {
                let at = time_of_day(now, lisbon, NaiveTime::from_hms_opt(h, m, 0).unwrap());
                assert!(
                    at <= now + Duration::hours(i64::from(HORIZON_HOURS_DEFAULT)),
                    "{h}:{m}"
                );
            }
        }
    }

    #[test]
    fn a_time_of_day_is_the_nearest_one_in_the_rooms_zone() {
        let lisbon = chrono_tz::Europe::Lisbon;
        let at = |h, m| NaiveTime::from_hms_opt(h, m, 0).unwrap();
        // Lisbon is UTC in November.
        assert_eq!(time_of_day(t(21, 30), lisbon, at(22, 0)), t(22, 0));
        assert_eq!(time_of_day(t(22, 10), lisbon, at(22, 0)), t(22, 0));
        assert_eq!(
            time_of_day(t(23, 50), lisbon, at(0, 30)),
            Utc.with_ymd_and_hms(2026, 11, 29, 0, 30, 0).unwrap()
        );
        assert_eq!(
            time_of_day(
                Utc.with_ymd_and_hms(2026, 11, 29, 0, 20, 0).unwrap(),
                lisbon,
                at(23, 50)
            ),
            t(23, 50)
        );
        // São Paulo is UTC-3: 22:00 there is 01:00 UTC the next day.
        let sp = chrono_tz::America::Sao_Paulo;
        assert_eq!(
            time_of_day(t(23, 0), sp, at(22, 0)),
            Utc.with_ymd_and_hms(2026, 11, 29, 1, 0, 0).unwrap()
        );
        // Spring forward in Lisbon (29 March 2026, 01:00 → 02:00): 01:30 is the gap's end.
        let before = Utc.with_ymd_and_hms(2026, 3, 29, 0, 45, 0).unwrap();
        assert_eq!(
            time_of_day(before, lisbon, at(1, 30)),
            Utc.with_ymd_and_hms(2026, 3, 29, 1, 30, 0).unwrap()
        );
    }

    #[test]
    fn pt2007_22_a_change_takes_effect_only_announced_and_due() {
        let next = Pending {
            effective: Effective::NextHand,
            announced_at: None,
        };
        assert!(!takes_effect(&next, t(22, 0)), "not announced");
        let told = Pending {
            announced_at: Some(t(21, 55)),
            ..next
        };
        assert!(takes_effect(&told, t(22, 0)));
        let at = Pending {
            effective: Effective::At(t(22, 0)),
            announced_at: Some(t(21, 0)),
        };
        assert!(!takes_effect(&at, t(21, 59)), "not due yet");
        assert!(takes_effect(&at, t(22, 0)));
        let late = Pending {
            effective: Effective::At(t(22, 0)),
            announced_at: None,
        };
        assert!(!takes_effect(&late, t(23, 0)), "due but never announced");
    }

    #[test]
    fn bsop_27_58_tables_of_other_limits_are_not_the_same_game_and_limit() {
        let a = nl(100, 200, 4000, Some(20000));
        assert!(check_same_limit(&a, &a, 2).is_ok());
        let b = nl(200, 400, 4000, Some(20000));
        let p = check_same_limit(&a, &b, 2).unwrap_err();
        assert_eq!(p.key, "limits-err-transfer-other-limit");
        assert_eq!(p.args, vec![("table", "2".to_string())]);
        let c = nl(100, 200, 4000, None);
        assert!(
            check_same_limit(&a, &c, 3).is_err(),
            "the maximum counts too"
        );
    }

    #[test]
    fn open_time_is_split_at_each_change() {
        let a = nl(100, 200, 4000, Some(20000));
        let b = nl(200, 400, 8000, Some(40000));
        let tl = Timeline {
            before: a,
            steps: vec![(100, b), (300, a)],
        };
        // Open 0-50 (a), 80-200 (a until 100, then b), 250-400 (b until 300, then a).
        let split = tl.split(&[(0, 50), (80, 200), (250, 400)]);
        assert_eq!(split, vec![(a, 50 + 20 + 100), (b, 100 + 50)]);
        // A change while nobody played moves nothing.
        let tl = Timeline {
            before: a,
            steps: vec![(60, b)],
        };
        assert_eq!(tl.split(&[(0, 50)]), vec![(a, 50)]);
        assert_eq!(tl.split(&[(70, 90)]), vec![(b, 20)]);
    }

    fn limits() -> impl Strategy<Value = Limits> {
        (1i64..4, 1i64..4).prop_map(|(sb, k)| nl(sb * 100, sb * 100 * k, 4000, Some(20000 * k)))
    }

    proptest! {
        #[test]
        fn the_parts_add_up_to_the_open_time(
            before in limits(),
            mut steps in proptest::collection::vec((0i64..10_000, limits()), 0..6),
            mut cuts in proptest::collection::vec(0i64..10_000, 0..10),
        ) {
            steps.sort_by_key(|(t, _)| *t);
            cuts.sort_unstable();
            cuts.dedup();
            let spans: Vec<(i64, i64)> = cuts.chunks(2).filter(|c| c.len() == 2).map(|c| (c[0], c[1])).collect();
            let total: i64 = spans.iter().map(|(a, b)| b - a).sum();
            let tl = Timeline { before, steps: steps.clone() };
            let split = tl.split(&spans);
            prop_assert_eq!(split.iter().map(|(_, s)| s).sum::<i64>(), total);
            prop_assert!(split.iter().all(|(_, s)| *s > 0));
            // Every limits counted were in force at some time.
            for (l, _) in &split {
                prop_assert!(*l == before || steps.iter().any(|(_, x)| x == l));
            }
        }

        #[test]
        fn a_hand_never_plays_a_change_not_announced(
            announced in proptest::option::of(0i64..100),
            at in proptest::option::of(0i64..100),
            hand in 0i64..100,
        ) {
            let base = t(20, 0);
            let p = Pending {
                effective: at.map_or(Effective::NextHand, |m| Effective::At(base + Duration::minutes(m))),
                announced_at: announced.map(|m| base + Duration::minutes(m)),
            };
            let now = base + Duration::minutes(hand);
            if takes_effect(&p, now) {
                prop_assert!(announced.is_some_and(|a| a <= hand));
                prop_assert!(at.is_none_or(|a| a <= hand));
            }
        }
    }
}
