//! Delivery rules as pure code: the retry schedule, what becomes of a message after an
//! attempt, and how many SMS segments a text takes.

use chrono::{DateTime, Duration, Utc};

/// The retry schedule: `base` after the first failed attempt, doubling after each further
/// one, never more than `max` (exponential backoff without jitter: one worker per process
/// and a handful of messages a minute need no spreading, and a fixed schedule is what the
/// floor page can explain).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Backoff {
    pub base: Duration,
    pub max: Duration,
    /// Attempts in all (the first included) before a message is marked failed.
    pub max_attempts: u32,
}

impl Backoff {
    /// The wait after failed attempt number `attempt` (1 = the first attempt).
    pub fn delay(&self, attempt: u32) -> Duration {
        let doublings = attempt.saturating_sub(1).min(30);
        let ms = self
            .base
            .num_milliseconds()
            .saturating_mul(1i64 << doublings);
        Duration::milliseconds(ms).min(self.max)
    }

    /// What becomes of a message whose attempt number `attempt` just failed at `now`.
    pub fn after_failure(&self, attempt: u32, permanent: bool, now: DateTime<Utc>) -> AfterFailure {
        if permanent || attempt >= self.max_attempts {
            AfterFailure::Failed
        } else {
            AfterFailure::RetryAt(now + self.delay(attempt))
        }
    }
}

/// The outcome of a failed attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AfterFailure {
    /// Try again then (same idempotency key).
    RetryAt(DateTime<Utc>),
    /// No more attempts: the provider refused it for good, or the attempts are used up. The
    /// floor sees it on the dashboard and may retry it by hand.
    Failed,
}

/// The GSM 03.38 basic character set (7-bit): a text made only of these (and of the
/// extension characters below, which take two) fits 160 per segment; any other character
/// makes the whole SMS UCS-2, 70 per segment.
const GSM7: &str = "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà";
const GSM7_EXT: &str = "^{}\\[~]|€\u{c}";

/// How many SMS segments a text takes (concatenated segments carry a header: 153 GSM-7
/// characters or 67 UCS-2 characters each).
pub fn sms_segments(text: &str) -> usize {
    let gsm = text
        .chars()
        .all(|c| GSM7.contains(c) || GSM7_EXT.contains(c));
    let (len, single, multi) = if gsm {
        (
            text.chars()
                .map(|c| if GSM7_EXT.contains(c) { 2 } else { 1 })
                .sum::<usize>(),
            160,
            153,
        )
    } else {
        // UCS-2 counts UTF-16 code units.
        (text.encode_utf16().count(), 70, 67)
    };
    if len <= single {
        1
    } else {
        len.div_ceil(multi)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b() -> Backoff {
        Backoff {
            base: Duration::seconds(5),
            max: Duration::minutes(10),
            max_attempts: 5,
        }
    }

    #[test]
    fn backoff_doubles_up_to_its_ceiling() {
        let b = b();
        assert_eq!(b.delay(1), Duration::seconds(5));
        assert_eq!(b.delay(2), Duration::seconds(10));
        assert_eq!(b.delay(3), Duration::seconds(20));
        assert_eq!(b.delay(8), Duration::seconds(600));
        assert_eq!(b.delay(u32::MAX), Duration::seconds(600));
        assert_eq!(b.delay(0), Duration::seconds(5));
    }

    #[test]
    fn failures_retry_until_the_last_attempt() {
        let b = b();
        let now = DateTime::parse_from_rfc3339("2026-11-22T20:00:00Z")
            .unwrap()
            .with_timezone(&Utc);
        assert_eq!(
            b.after_failure(1, false, now),
            AfterFailure::RetryAt(now + Duration::seconds(5))
        );
        assert_eq!(
            b.after_failure(4, false, now),
            AfterFailure::RetryAt(now + Duration::seconds(40))
        );
        assert_eq!(b.after_failure(5, false, now), AfterFailure::Failed);
        // A permanent refusal (unknown number, bad credentials) is not retried.
        assert_eq!(b.after_failure(1, true, now), AfterFailure::Failed);
    }

    #[test]
    fn sms_segments_follow_the_encoding() {
        assert_eq!(sms_segments("Mesa 3, lugar 4: o seu lugar esta pronto."), 1);
        assert_eq!(sms_segments(&"a".repeat(160)), 1);
        assert_eq!(sms_segments(&"a".repeat(161)), 2);
        // The euro sign is an extension character: two septets.
        assert_eq!(sms_segments(&format!("{}€", "a".repeat(158))), 1);
        assert_eq!(sms_segments(&format!("{}€", "a".repeat(159))), 2);
        // One character outside GSM-7 (ã) makes it UCS-2: 70 per segment.
        assert_eq!(sms_segments(&format!("{}ã", "a".repeat(69))), 1);
        assert_eq!(sms_segments(&format!("{}ã", "a".repeat(70))), 2);
    }
}
