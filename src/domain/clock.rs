//! The one source of "now" for every rule.
//!
//! Production uses [`SystemClock`]. End-to-end tests and demos start the server with
//! `CARDROOM_TEST_CLOCK=1`, which installs an [`OffsetClock`] that an admin-only API can move
//! forward, so the 15-minute, one-hour and two-hour rules can be exercised without waiting.

use chrono::{DateTime, Duration, DurationRound, NaiveTime, Utc};
use std::sync::Mutex;

/// `HH:MM` → a time of day (the gaming day's end, a room's quiet hours).
pub fn parse_hhmm(s: &str) -> Option<NaiveTime> {
    let (h, m) = s.trim().split_once(':')?;
    if h.len() != 2 || m.len() != 2 {
        return None;
    }
    NaiveTime::from_hms_opt(h.parse().ok()?, m.parse().ok()?, 0)
}

pub trait Clock: Send + Sync {
    /// The current instant, truncated to microseconds (what both databases store).
    fn now(&self) -> DateTime<Utc>;
    /// Moves the clock forward, when this clock can be moved (test clocks only).
    fn advance(&self, _by: Duration) -> Option<DateTime<Utc>> {
        None
    }
    /// How far this clock is ahead of the wall clock, when it can be moved (test clocks):
    /// what is stored so that a restart keeps the moved time.
    fn offset(&self) -> Option<Duration> {
        None
    }
}

fn micros(t: DateTime<Utc>) -> DateTime<Utc> {
    t.duration_trunc(Duration::microseconds(1)).unwrap_or(t)
}

/// Wall-clock time.
#[derive(Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        micros(Utc::now())
    }
}

/// Wall-clock time plus an offset that only grows (time never goes backwards).
#[derive(Debug, Default)]
pub struct OffsetClock {
    offset: Mutex<Duration>,
}

impl OffsetClock {
    /// A test clock already moved forward by `offset` (the one stored before a restart, so
    /// that "the server was down when the deadline passed" can be played end to end).
    pub fn ahead_by(offset: Duration) -> Self {
        OffsetClock {
            offset: Mutex::new(offset.max(Duration::zero())),
        }
    }
}

impl Clock for OffsetClock {
    fn now(&self) -> DateTime<Utc> {
        let off = *self.offset.lock().unwrap_or_else(|e| e.into_inner());
        micros(Utc::now() + off)
    }
    fn advance(&self, by: Duration) -> Option<DateTime<Utc>> {
        if by <= Duration::zero() {
            return None;
        }
        {
            let mut off = self.offset.lock().unwrap_or_else(|e| e.into_inner());
            *off += by;
        }
        Some(self.now())
    }
    fn offset(&self) -> Option<Duration> {
        Some(*self.offset.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

/// A clock frozen at a given instant, for unit tests.
#[derive(Debug)]
pub struct FixedClock(Mutex<DateTime<Utc>>);

impl FixedClock {
    pub fn at(t: DateTime<Utc>) -> Self {
        FixedClock(Mutex::new(micros(t)))
    }
}

impl Clock for FixedClock {
    fn now(&self) -> DateTime<Utc> {
        *self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
    fn advance(&self, by: Duration) -> Option<DateTime<Utc>> {
        let mut t = self.0.lock().unwrap_or_else(|e| e.into_inner());
        *t += by;
        Some(*t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offset_clock_moves_forward_only() {
        let c = OffsetClock::default();
        let before = c.now();
        assert!(c.advance(Duration::minutes(-5)).is_none());
        let after = c.advance(Duration::minutes(15)).unwrap();
        assert!(after - before >= Duration::minutes(15));
        assert!(SystemClock.advance(Duration::minutes(1)).is_none());
        assert_eq!(c.offset(), Some(Duration::minutes(15)));
        assert_eq!(SystemClock.offset(), None);
    }

    #[test]
    fn an_offset_clock_restarts_ahead_never_behind() {
        let c = OffsetClock::ahead_by(Duration::minutes(44));
        assert!(c.now() - Utc::now() >= Duration::minutes(43));
        assert_eq!(c.offset(), Some(Duration::minutes(44)));
        assert_eq!(
            OffsetClock::ahead_by(Duration::minutes(-3)).offset(),
            Some(Duration::zero())
        );
    }
}
