//! The dealers' night: where each dealer is, the room's push rules (how long a down lasts,
//! when a break is due), and the pushes proposed next — which dealer relieves which table,
//! when, and where the relieved dealer goes.
//!
//! PT-2007 5 and 9d place a dealer at every table in play (the tips box at the dealer's
//! left); how the dealers rotate is the room's own rule, set here per room.

use super::error::FieldError;
use super::ids::TableId;
use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};

/// A down lasts 10 to 90 minutes.
pub const DOWN_MIN: i64 = 10;
pub const DOWN_MAX: i64 = 90;
/// A break lasts 5 to 60 minutes.
pub const BREAK_MIN: i64 = 5;
pub const BREAK_MAX: i64 = 60;
/// The longest night the break rule is checked against: a rule that leaves a dealer without
/// a break for this long is refused.
pub const NIGHT_MIN: i64 = 12 * 60;

/// The room's push rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct PushRules {
    /// How long a dealer deals at one table before the next push, in minutes (10-90).
    pub down_min: i64,
    /// How long a break lasts, in minutes (5-60).
    pub break_min: i64,
    /// A break is due after this many downs in a row (none: only the time rule).
    pub break_after_downs: Option<u32>,
    /// A break is due after this long dealing since the last break, in minutes (none: only
    /// the downs rule).
    pub break_after_min: Option<i64>,
}

impl Default for PushRules {
    fn default() -> Self {
        PushRules {
            down_min: 30,
            break_min: 20,
            break_after_downs: Some(3),
            break_after_min: None,
        }
    }
}

impl PushRules {
    /// The rules as a room may set them: a down of 10-90 minutes, a break of 5-60, and a
    /// break rule that gives a break within a 12-hour night. Each refusal names its field.
    pub fn check(&self) -> Result<(), Vec<FieldError>> {
        let mut out = Vec::new();
        if !(DOWN_MIN..=DOWN_MAX).contains(&self.down_min) {
            out.push(
                FieldError::new("down_min", "err-push-down-range")
                    .arg("min", DOWN_MIN)
                    .arg("max", DOWN_MAX),
            );
        }
        if !(BREAK_MIN..=BREAK_MAX).contains(&self.break_min) {
            out.push(
                FieldError::new("break_min", "err-push-break-range")
                    .arg("min", BREAK_MIN)
                    .arg("max", BREAK_MAX),
            );
        }
        // A rule of zero downs or minutes never triggers; one past 12 hours, not in a night.
        let never =
            self.break_after_downs == Some(0) || self.break_after_min.is_some_and(|m| m < 1);
        if never || (out.is_empty() && self.longest_without_break() > NIGHT_MIN) {
            out.push(FieldError::new("break_after", "err-push-no-break"));
        }
        if out.is_empty() {
            Ok(())
        } else {
            Err(out)
        }
    }

    /// The longest a dealer can deal without a break under these rules, in minutes (a down
    /// begun before the time rule is reached is dealt to its end).
    pub fn longest_without_break(&self) -> i64 {
        let by_downs = self
            .break_after_downs
            .map(|n| i64::from(n).saturating_mul(self.down_min));
        let by_time = self.break_after_min.map(|m| {
            let downs = (m + self.down_min - 1) / self.down_min.max(1);
            downs.saturating_mul(self.down_min)
        });
        match (by_downs, by_time) {
            (Some(a), Some(b)) => a.min(b),
            (Some(a), None) | (None, Some(a)) => a,
            (None, None) => i64::MAX,
        }
    }

    /// Is a break due after `downs` downs and `dealt` minutes dealing since the last one?
    pub fn break_due(&self, downs: u32, dealt: i64) -> bool {
        self.break_after_downs.is_some_and(|n| downs >= n)
            || self.break_after_min.is_some_and(|m| dealt >= m)
    }
}

/// Where a dealer is now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum DealerNow {
    /// Dealing at one table since `since` (the down's start).
    Dealing {
        table: TableId,
        since: DateTime<Utc>,
    },
    /// On a break since `since`.
    OnBreak { since: DateTime<Utc> },
    /// Clocked in, at no table, since `since`.
    Available { since: DateTime<Utc> },
    /// Not clocked in.
    Off,
}

/// One dealer as the push needs them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dealer {
    /// The dealer's staff id.
    pub id: i64,
    pub now: DealerNow,
    /// Downs dealt since the last break (the current one included).
    pub downs: u32,
    /// Minutes dealt since the last break, up to the current down's start.
    pub dealt_min: i64,
}

/// One table the push covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Table {
    pub id: TableId,
    pub number: i32,
    /// About to close or break: not relieved, its dealer leaves with it.
    pub closing: bool,
}

/// Where a relieved dealer goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "to", rename_all = "snake_case")]
pub enum Next {
    /// A break, until `until`.
    Break { until: DateTime<Utc> },
    /// Free for the next push.
    Available,
}

/// One proposed push: at `at`, `incoming` takes table `table` over from `outgoing` (none: the
/// table has no dealer), who goes to `next`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Push {
    pub table: TableId,
    /// When the push happens: when the table's down is up, or once a dealer is free.
    pub at: DateTime<Utc>,
    /// When the table's down is up (now, for a table without a dealer).
    pub due: DateTime<Utc>,
    pub incoming: i64,
    pub outgoing: Option<i64>,
    pub next: Option<Next>,
    /// After the table's down was up: no dealer was free in time.
    pub late: bool,
}

/// The pushes for the next `horizon` from `now`, in time order, each table relieved when its
/// down is up (a table without a dealer at once), fairly:
/// - the relieving dealer is the one off the tables longest (a break counts from its end);
/// - a dealer whose break is due goes to it when relieved, and never deals again before it;
/// - a table about to close or break is skipped;
/// - a table whose down is up waits only while no dealer is free.
///
/// Ties go to the lower table number, then the lower dealer id, so the same room gives the
/// same proposal.
pub fn propose(
    rules: &PushRules,
    dealers: &[Dealer],
    tables: &[Table],
    now: DateTime<Utc>,
    horizon: Duration,
) -> Vec<Push> {
    let down = Duration::minutes(rules.down_min);
    let brk = Duration::minutes(rules.break_min);
    let end = now + horizon;
    let mut state: Vec<Dealer> = dealers.to_vec();
    // Each table's next relief: when its down is up (now for a table with no dealer).
    let mut due: Vec<(DateTime<Utc>, i32, TableId)> = tables
        .iter()
        .filter(|t| !t.closing)
        .map(|t| {
            let at = state
                .iter()
                .find_map(|d| match d.now {
                    DealerNow::Dealing { table, since } if table == t.id => Some(since + down),
                    _ => None,
                })
                .unwrap_or(now);
            (at, t.number, t.id)
        })
        .collect();
    let mut out = Vec::new();
    loop {
        due.sort();
        let Some(&(at, number, table)) = due.first() else {
            break;
        };
        if at > end {
            break;
        }
        // When the push can happen: at its due time, or once a dealer is free.
        let Some(when) = first_free(&state, rules, at.max(now)) else {
            break;
        };
        if when > end {
            break;
        }
        let Some(i) = pick(&state, rules, when) else {
            break;
        };
        let incoming = state[i].id;
        let outgoing = state
            .iter()
            .position(|d| matches!(d.now, DealerNow::Dealing { table: t, .. } if t == table));
        let mut next = None;
        if let Some(o) = outgoing {
            let d = &mut state[o];
            if let DealerNow::Dealing { since, .. } = d.now {
                d.dealt_min += (when - since).num_minutes();
            }
            if rules.break_due(d.downs, d.dealt_min) {
                d.now = DealerNow::OnBreak { since: when };
                next = Some(Next::Break { until: when + brk });
            } else {
                d.now = DealerNow::Available { since: when };
                next = Some(Next::Available);
            }
        }
        let d = &mut state[i];
        if matches!(d.now, DealerNow::OnBreak { .. }) || rules.break_due(d.downs, d.dealt_min) {
            d.downs = 0;
            d.dealt_min = 0;
        }
        d.downs += 1;
        d.now = DealerNow::Dealing { table, since: when };
        out.push(Push {
            table,
            at: when,
            incoming,
            outgoing: outgoing.map(|o| state[o].id),
            next,
            due: at,
            late: when > at,
        });
        due[0] = (when + down, number, table);
    }
    out
}

/// When a dealer may take a down: an available one at once, one on a break at its end; a
/// dealer whose break is due, only after a break (counted from when they were relieved).
fn free_at(d: &Dealer, rules: &PushRules) -> Option<DateTime<Utc>> {
    match d.now {
        DealerNow::Available { since } if !rules.break_due(d.downs, d.dealt_min) => Some(since),
        DealerNow::Available { since } => Some(since + Duration::minutes(rules.break_min)),
        DealerNow::OnBreak { since } => Some(since + Duration::minutes(rules.break_min)),
        DealerNow::Dealing { .. } | DealerNow::Off => None,
    }
}

fn first_free(state: &[Dealer], rules: &PushRules, from: DateTime<Utc>) -> Option<DateTime<Utc>> {
    state
        .iter()
        .filter_map(|d| free_at(d, rules))
        .min()
        .map(|t| t.max(from))
}

/// The dealer off the tables longest among those free at `when`.
fn pick(state: &[Dealer], rules: &PushRules, when: DateTime<Utc>) -> Option<usize> {
    state
        .iter()
        .enumerate()
        .filter_map(|(i, d)| {
            free_at(d, rules)
                .filter(|t| *t <= when)
                .map(|t| (t, d.id, i))
        })
        .min()
        .map(|(_, _, i)| i)
}

/// PT-2007 5, 9d: tips pooled and shared by time dealt. Each share is `total × weight ÷ Σ
/// weights` rounded down; the units left over go one each to the largest remainders (ties:
/// the first listed), so the shares add up to the total exactly. With nothing dealt, nobody
/// gets a share (all zero).
pub fn pool(total: i64, weights: &[i64]) -> Vec<i64> {
    let w: Vec<i128> = weights.iter().map(|x| i128::from((*x).max(0))).collect();
    let sum: i128 = w.iter().sum();
    if sum == 0 || total <= 0 {
        return vec![0; weights.len()];
    }
    let t = i128::from(total);
    let mut shares: Vec<i128> = w.iter().map(|x| t * x / sum).collect();
    let mut rest: Vec<(i128, usize)> = w
        .iter()
        .enumerate()
        .map(|(i, x)| (-(t * x % sum), i))
        .collect();
    rest.sort();
    let left = t - shares.iter().sum::<i128>();
    for (_, i) in rest.into_iter().take(usize::try_from(left).unwrap_or(0)) {
        shares[i] += 1;
    }
    shares
        .into_iter()
        .map(|x| i64::try_from(x).unwrap_or(0))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;
    use proptest::prelude::*;

    fn t0() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 28, 20, 0, 0).unwrap()
    }
    fn m(n: i64) -> DateTime<Utc> {
        t0() + Duration::minutes(n)
    }
    fn table(n: i32) -> Table {
        Table {
            id: TableId(i64::from(n)),
            number: n,
            closing: false,
        }
    }
    fn dealing(id: i64, t: i32, since: i64, downs: u32) -> Dealer {
        Dealer {
            id,
            now: DealerNow::Dealing {
                table: TableId(i64::from(t)),
                since: m(since),
            },
            downs,
            dealt_min: i64::from(downs.saturating_sub(1)) * 30,
        }
    }
    fn available(id: i64, since: i64) -> Dealer {
        Dealer {
            id,
            now: DealerNow::Available { since: m(since) },
            downs: 0,
            dealt_min: 0,
        }
    }

    #[test]
    fn rules_outside_their_ranges_are_refused_by_field() {
        assert!(PushRules::default().check().is_ok());
        let bad = PushRules {
            down_min: 5,
            break_min: 90,
            ..PushRules::default()
        };
        let e = bad.check().unwrap_err();
        let fields: Vec<&str> = e.iter().map(|f| f.field.as_str()).collect();
        assert_eq!(fields, ["down_min", "break_min"]);
        assert_eq!(e[0].key, "err-push-down-range");
    }

    #[test]
    fn a_break_rule_that_leaves_no_break_in_a_night_is_refused() {
        let none = PushRules {
            break_after_downs: None,
            break_after_min: None,
            ..PushRules::default()
        };
        assert_eq!(none.check().unwrap_err()[0].key, "err-push-no-break");
        let too_late = PushRules {
            down_min: 60,
            break_after_downs: Some(13),
            ..PushRules::default()
        };
        assert!(
            too_late.check().is_err(),
            "13 downs of an hour: no break in 12 hours"
        );
        let zero = PushRules {
            break_after_downs: Some(0),
            ..PushRules::default()
        };
        assert!(zero.check().is_err());
        let by_time = PushRules {
            break_after_downs: None,
            break_after_min: Some(120),
            ..PushRules::default()
        };
        assert!(by_time.check().is_ok());
        assert_eq!(by_time.longest_without_break(), 120);
    }

    #[test]
    fn the_dealer_off_the_tables_longest_relieves_the_table_whose_down_is_up() {
        let rules = PushRules::default();
        let dealers = [
            dealing(1, 1, -20, 1),
            dealing(2, 2, -5, 1),
            available(3, -2),
            available(4, -15),
        ];
        let p = propose(
            &rules,
            &dealers,
            &[table(1), table(2)],
            t0(),
            Duration::minutes(30),
        );
        assert_eq!(p.len(), 2);
        assert_eq!((p[0].table, p[0].at, p[0].incoming), (TableId(1), m(10), 4));
        assert_eq!(p[0].outgoing, Some(1));
        assert_eq!(p[0].next, Some(Next::Available));
        assert_eq!((p[1].table, p[1].at, p[1].incoming), (TableId(2), m(25), 3));
        assert!(!p[0].late);
    }

    #[test]
    fn a_dealer_due_a_break_goes_to_it_and_does_not_deal_before_it_ends() {
        let rules = PushRules::default();
        // Dealer 1 is in their third down: relieved, they go on a break of 20 minutes.
        let dealers = [dealing(1, 1, -25, 3), available(2, -10)];
        let p = propose(&rules, &dealers, &[table(1)], t0(), Duration::minutes(60));
        assert_eq!(p[0].incoming, 2);
        assert_eq!(p[0].next, Some(Next::Break { until: m(25) }));
        // Dealer 2's down is up at 35: dealer 1 is back from the break and relieves them.
        assert_eq!((p[1].at, p[1].incoming, p[1].outgoing), (m(35), 1, Some(2)));
    }

    #[test]
    fn a_dealer_relieved_with_a_break_due_deals_again_only_after_the_break() {
        let rules = PushRules::default();
        // Dealer 1 was relieved 5 minutes ago after their third down, and nobody sent them
        // on their break: the push counts it from then, and they deal again at minute 15.
        let due = Dealer {
            downs: 3,
            dealt_min: 90,
            ..available(1, -5)
        };
        let p = propose(&rules, &[due], &[table(1)], t0(), Duration::minutes(60));
        assert_eq!((p[0].at, p[0].incoming, p[0].late), (m(15), 1, true));
        assert_eq!(p.len(), 1, "nobody else is free to relieve them");
    }

    #[test]
    fn a_table_without_a_dealer_is_pushed_at_once_and_late_when_overdue() {
        let rules = PushRules::default();
        let dealers = [dealing(1, 1, -40, 1), available(2, -3)];
        let p = propose(
            &rules,
            &dealers,
            &[table(1), table(2)],
            t0(),
            Duration::minutes(5),
        );
        // Table 1's down ran 10 minutes over and table 2 has nobody: the one free dealer
        // relieves the table due first (table 1, since minute -10), late; the dealer relieved
        // there, not due a break, takes table 2 at once rather than leave it without one.
        assert_eq!(p.len(), 2);
        assert_eq!((p[0].table, p[0].at, p[0].late), (TableId(1), t0(), true));
        assert_eq!((p[0].due, p[0].incoming), (m(-10), 2));
        assert_eq!(
            (p[1].table, p[1].incoming, p[1].late),
            (TableId(2), 1, false)
        );
    }

    #[test]
    fn a_closing_table_is_skipped_and_nobody_off_is_pushed() {
        let rules = PushRules::default();
        let closing = Table {
            closing: true,
            ..table(1)
        };
        let off = Dealer {
            now: DealerNow::Off,
            ..available(3, 0)
        };
        let dealers = [dealing(1, 1, -40, 1), off];
        assert!(propose(&rules, &dealers, &[closing], t0(), Duration::minutes(60)).is_empty());
        assert!(propose(&rules, &[off], &[table(2)], t0(), Duration::minutes(60)).is_empty());
    }

    /// A night of `n` dealers over `k` tables, every push accepted as proposed, for `hours`.
    fn night(rules: &PushRules, n: i64, k: i32, hours: i64) -> Vec<Push> {
        let dealers: Vec<Dealer> = (1..=n)
            .map(|id| {
                if id <= i64::from(k) {
                    dealing(id, id as i32, -(id * 3) % rules.down_min, 1)
                } else {
                    available(id, -id)
                }
            })
            .collect();
        let tables: Vec<Table> = (1..=k).map(table).collect();
        propose(rules, &dealers, &tables, t0(), Duration::hours(hours))
    }

    /// The break rules over a night's pushes (dealers `1..=dealing` start at their tables):
    /// nobody deals more than `after` downs in a row, a break comes exactly when due, and
    /// nobody deals during one.
    fn keeps_breaks(pushes: &[Push], dealing: i64, after: u32) -> Result<(), TestCaseError> {
        let mut in_a_row: std::collections::HashMap<i64, u32> =
            (1..=dealing).map(|d| (d, 1)).collect();
        let mut back_at: std::collections::HashMap<i64, DateTime<Utc>> = Default::default();
        for p in pushes {
            if let Some(until) = back_at.get(&p.incoming) {
                prop_assert!(p.at >= *until, "dealer {} dealt during a break", p.incoming);
            }
            let c = in_a_row.entry(p.incoming).or_insert(0);
            *c += 1;
            prop_assert!(
                *c <= after,
                "dealer {} dealt {} downs in a row",
                p.incoming,
                c
            );
            if let Some(o) = p.outgoing {
                let done = in_a_row.get(&o).copied().unwrap_or(0);
                if let Some(Next::Break { until }) = p.next {
                    prop_assert_eq!(done, after, "a break only when due");
                    in_a_row.insert(o, 0);
                    back_at.insert(o, until);
                } else {
                    prop_assert!(done < after, "dealer {} skipped a break due", o);
                }
            }
        }
        Ok(())
    }

    /// Dealers enough for `k` tables to be relieved on time all night whatever the breaks'
    /// timing: `k` dealing, at most `k` relieved per down and so at most `k·⌈break/down⌉` on
    /// a break at once, and one free.
    fn enough(rules: &PushRules, k: i64) -> i64 {
        let breaks = (rules.break_min + rules.down_min - 1) / rules.down_min;
        k + k * breaks + 1
    }

    proptest! {
        /// A night of eight tables, every push accepted: nobody deals more downs in a row than
        /// the rule allows, every dealer due a break gets it before dealing again, and with
        /// dealers enough no table waits past its down.
        #[test]
        fn a_night_of_pushes_is_fair(
            down in 15i64..=45, brk in 10i64..=30, after in 2u32..=5, extra in 0i64..=3,
        ) {
            let rules = PushRules { down_min: down, break_min: brk, break_after_downs: Some(after), break_after_min: None };
            let k = 8;
            let n = enough(&rules, k) + extra;
            let pushes = night(&rules, n, k as i32, 10);
            prop_assert!(!pushes.is_empty());
            keeps_breaks(&pushes, k, after)?;
            for p in &pushes {
                prop_assert!(!p.late, "table {:?} waited from {} to {}", p.table, p.due, p.at);
            }
            for t in 1..=k {
                let times: Vec<_> = pushes.iter().filter(|p| p.table == TableId(t)).map(|p| p.at).collect();
                prop_assert!(times.windows(2).all(|w| w[1] - w[0] == Duration::minutes(down)));
            }
        }

        /// Twelve dealers for eight tables over a ten-hour night, whatever the room's rules:
        /// nobody deals more downs in a row than the rule allows, everyone due a break gets it
        /// before another down and deals only after it ends, and a table waits past its down
        /// only until the moment a dealer is freed.
        #[test]
        fn twelve_dealers_and_eight_tables_keep_the_rules(
            down in 20i64..=45, brk in 10i64..=25, after in 2u32..=4,
        ) {
            let rules = PushRules { down_min: down, break_min: brk, break_after_downs: Some(after), break_after_min: None };
            let pushes = night(&rules, 12, 8, 10);
            prop_assert!(pushes.len() >= 8);
            keeps_breaks(&pushes, 8, after)?;
            for p in &pushes {
                if p.late {
                    let freed = pushes.iter().any(|q| match q.next {
                        Some(Next::Break { until }) => until == p.at,
                        Some(Next::Available) => q.at == p.at,
                        None => false,
                    });
                    prop_assert!(p.at == t0() || freed, "table {:?} waited past a free dealer", p.table);
                }
            }
        }

        /// With too few dealers, a table waits only while nobody is free: a late push is
        /// made at the moment a dealer comes back, never later.
        #[test]
        fn a_table_waits_only_while_nobody_is_free(
            down in 15i64..=45, brk in 10i64..=30, after in 1u32..=3, n in 8i64..=10,
        ) {
            let rules = PushRules { down_min: down, break_min: brk, break_after_downs: Some(after), break_after_min: None };
            let pushes = night(&rules, n, 8, 6);
            for p in pushes.iter().filter(|p| p.late) {
                let mut freed = pushes.iter().filter_map(|q| match q.next {
                    Some(Next::Break { until }) => Some(until),
                    Some(Next::Available) => Some(q.at),
                    None => None,
                });
                prop_assert!(p.at == t0() || freed.any(|t| t == p.at),
                    "a late push at {} with no dealer freed then", p.at);
            }
        }
    }

    #[test]
    fn pooled_tips_are_shared_by_time_dealt_to_the_unit() {
        // 100.00 over 3 h, 2 h and 1 h: 50.00, 33.33 and 16.66 rounded down; the cent left
        // goes to the largest remainder (16.666…).
        assert_eq!(pool(10_000, &[3, 2, 1]), vec![5_000, 3_333, 1_667]);
        assert_eq!(pool(10_000, &[0, 0]), vec![0, 0]);
        assert_eq!(pool(0, &[1, 2]), vec![0, 0]);
    }

    proptest! {
        #[test]
        fn pooled_shares_add_up_and_follow_the_time_dealt(
            total in 0i64..=100_000_000,
            weights in proptest::collection::vec(0i64..=50_000, 1..14),
        ) {
            let shares = pool(total, &weights);
            let sum: i64 = weights.iter().sum();
            if sum == 0 {
                prop_assert!(shares.iter().all(|s| *s == 0));
            } else {
                prop_assert_eq!(shares.iter().sum::<i64>(), total);
                for (s, w) in shares.iter().zip(&weights) {
                    // Within one unit of the exact share.
                    let exact = i128::from(total) * i128::from(*w);
                    let got = i128::from(*s) * i128::from(sum);
                    prop_assert!((got - exact).abs() < i128::from(sum), "{} for {}", s, w);
                }
            }
        }
    }
}
