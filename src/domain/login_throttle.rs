//! Sign-in throttling that slows guessing without letting a stranger lock staff out.
//!
//! Security policy, not a gaming rule: OWASP's authentication guidance (throttle rather than
//! lock, so lockout cannot be used to deny service). The old rule locked a
//! *username* for 15 minutes after five failures from anywhere: anyone on the network could
//! keep the floor manager at the desk out of the system all night.
//!
//! Failures are counted under three keys, each with its own allowance before delays start:
//! - the username **from one address** ([`PER_USER_ADDRESS`]): the guesser's own attempts;
//! - the **address**, whatever the username ([`PER_ADDRESS`]): a flood of random usernames
//!   (it also spares the server the password hashing that flood would cost);
//! - the username **from anywhere** ([`PER_USER`]): guessing spread over many addresses; a
//!   high allowance and a short ceiling, so it slows an attack without shutting the desk out.
//!
//! Past its allowance, each further failure doubles the wait before the next attempt under
//! that key (1 s, 2 s, 4 s …) up to the key's ceiling. An hour without failures forgets
//! them. Unknown usernames are counted exactly like known ones, so neither the answer nor
//! its timing tells which usernames exist.

use chrono::{DateTime, Duration, Utc};

/// One counter's allowance and ceiling.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Policy {
    /// Failures allowed before any delay.
    pub free: i32,
    /// The longest wait, in seconds.
    pub max_delay_secs: i64,
}

/// The username from one address: three tries, then 1 s, 2 s, 4 s … up to 5 minutes.
pub const PER_USER_ADDRESS: Policy = Policy {
    free: 3,
    max_delay_secs: 300,
};
/// One address, any username: twenty tries, then up to 5 minutes.
pub const PER_ADDRESS: Policy = Policy {
    free: 20,
    max_delay_secs: 300,
};
/// One username from every address together: fifty tries, then at most a minute's wait.
pub const PER_USER: Policy = Policy {
    free: 50,
    max_delay_secs: 60,
};

/// Failures are forgotten after this long without a new one.
pub const FORGET_AFTER_MINUTES: i64 = 60;

/// A counter as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counter {
    pub failures: i32,
    pub last_failure: DateTime<Utc>,
    /// No attempt under this key before this time.
    pub not_before: Option<DateTime<Utc>>,
}

/// The three keys of one attempt (the address as text; the username already normalised).
pub fn keys(username: &str, address: &str) -> [(String, Policy); 3] {
    [
        (format!("u:{username}|a:{address}"), PER_USER_ADDRESS),
        (format!("a:{address}"), PER_ADDRESS),
        (format!("u:{username}"), PER_USER),
    ]
}

/// How long the caller must still wait under this counter (None: may try now).
pub fn wait(counter: Option<&Counter>, now: DateTime<Utc>) -> Option<Duration> {
    let until = counter?.not_before?;
    (until > now).then(|| until - now)
}

/// The counter after one more failure at `now`.
pub fn after_failure(counter: Option<&Counter>, policy: Policy, now: DateTime<Utc>) -> Counter {
    let failures = match counter {
        Some(c) if now - c.last_failure < Duration::minutes(FORGET_AFTER_MINUTES) => {
            c.failures.saturating_add(1)
        }
        _ => 1,
    };
    let over = failures - policy.free;
    let not_before = (over > 0).then(|| {
        // 2^(over-1) seconds, without overflowing the shift.
        let secs = 1i64
            .checked_shl((over - 1).min(30) as u32)
            .unwrap_or(i64::MAX)
            .min(policy.max_delay_secs);
        now + Duration::seconds(secs)
    });
    Counter {
        failures,
        last_failure: now,
        not_before,
    }
}

/// Whole seconds to put in `Retry-After` (at least 1).
pub fn retry_after_secs(d: Duration) -> i64 {
    ((d.num_milliseconds() + 999) / 1000).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn t0() -> DateTime<Utc> {
        DateTime::from_timestamp(1_800_000_000, 0).unwrap()
    }

    #[test]
    fn the_first_failures_are_free_then_the_wait_doubles_up_to_the_ceiling() {
        let mut c: Option<Counter> = None;
        let mut waits = Vec::new();
        for _ in 0..14 {
            let n = after_failure(c.as_ref(), PER_USER_ADDRESS, t0());
            waits.push(wait(Some(&n), t0()).map_or(0, |d| d.num_seconds()));
            c = Some(n);
        }
        assert_eq!(
            waits,
            vec![0, 0, 0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300]
        );
    }

    #[test]
    fn an_hour_without_failures_forgets_them() {
        let mut c = None;
        for _ in 0..10 {
            c = Some(after_failure(c.as_ref(), PER_USER_ADDRESS, t0()));
        }
        let later = t0() + Duration::minutes(FORGET_AFTER_MINUTES);
        let n = after_failure(c.as_ref(), PER_USER_ADDRESS, later);
        assert_eq!(n.failures, 1);
        assert_eq!(wait(Some(&n), later), None);
    }

    #[test]
    fn a_strangers_failures_do_not_touch_the_desks_key() {
        let [(desk, _), (desk_addr, _), (_, _)] = keys("floor1", "10.0.0.5");
        let [(stranger, _), (stranger_addr, _), _] = keys("floor1", "192.0.2.7");
        assert_ne!(desk, stranger);
        assert_ne!(desk_addr, stranger_addr);
    }

    proptest! {
        /// Whatever the history, the wait never exceeds the key's ceiling and never goes
        /// negative; it only ever starts once the allowance is used up.
        #[test]
        fn waits_are_bounded(n in 1usize..200, gaps in proptest::collection::vec(0i64..4000, 1..200)) {
            for p in [PER_USER_ADDRESS, PER_ADDRESS, PER_USER] {
                let mut c: Option<Counter> = None;
                let mut now = t0();
                for g in gaps.iter().take(n) {
                    now += Duration::seconds(*g);
                    let next = after_failure(c.as_ref(), p, now);
                    let w = wait(Some(&next), now).map_or(0, |d| d.num_seconds());
                    prop_assert!((0..=p.max_delay_secs).contains(&w));
                    if next.failures <= p.free {
                        prop_assert_eq!(w, 0);
                    }
                    c = Some(next);
                }
            }
        }
    }
}
