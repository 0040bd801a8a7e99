//! Request rates held in memory by each server process: token buckets per key (the
//! `governor` crate; each bucket holds `n` requests and refills at `n` a minute), kept in the
//! [`AppState`](crate::state::AppState) so that every app built — a test's included — has
//! its own.
//!
//! What is limited here is what anyone may ask without signing in and what costs the room
//! something each time:
//! - the player's page `/p/{token}` (issue 5): per link (`CARDROOM_PLAYER_LINK_RATE` a
//!   minute) and per client address ([`ADDRESS_FACTOR`] times that);
//! - a new tablet pairing code (`POST /api/v1/tablet-pairings`, and `/tablet` in a browser
//!   without a code): per client address ([`PAIRING_PER_MIN`]). Each code is a row, a write
//!   through the room's one write turn, and one of a finite set of six-character codes
//!   valid ten minutes: unlimited, one address could slow the floor's writes and leave no
//!   code free for a real tablet.
//!
//! The sign-in throttle and the phone-join limits are kept in the database instead
//! (`domain::login_throttle`, `services::join`): they must hold across processes and
//! restarts, and they are checked in a write anyway.

use crate::config::Config;
use crate::domain::Problem;
use crate::error::{AppError, AppResult};
use crate::state::AppState;
use actix_web::HttpRequest;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::time::Duration;

/// How many times the per-link rate one client address may make in all: the phones of a
/// room's guest Wi-Fi reach us from one public address (NAT), each polling its own link
/// (20 requests a minute), so the address gets room for dozens of them; guessing links from
/// one address is still held to this.
pub const ADDRESS_FACTOR: u32 = 25;

/// New pairing codes a minute from one client address. A tablet asks for one when it
/// starts and again when its code runs out (ten minutes); a floor manager setting up a
/// room's tablets behind one address pairs them one after another. Thirty a minute is far
/// above both and still bounds the rows one address can make.
pub const PAIRING_PER_MIN: u32 = 30;

/// Buckets kept before idle ones are dropped (a bucket untouched for a minute is full again
/// and can go).
const SWEEP_ABOVE: usize = 50_000;

/// The process's request-rate limits (see the module's doc).
pub struct Limits {
    link: DefaultKeyedRateLimiter<String>,
    link_address: DefaultKeyedRateLimiter<IpAddr>,
    pairing_address: DefaultKeyedRateLimiter<IpAddr>,
    clock: DefaultClock,
}

impl std::fmt::Debug for Limits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Limits")
            .field("links", &self.link.len())
            .field("link_addresses", &self.link_address.len())
            .field("pairing_addresses", &self.pairing_address.len())
            .finish()
    }
}

fn per_minute(n: u32) -> Quota {
    Quota::per_minute(NonZeroU32::new(n.max(1)).unwrap_or(NonZeroU32::MIN))
}

impl Limits {
    /// The limits from the validated configuration.
    pub fn new(config: &Config) -> Self {
        let link = config.player_link_rate;
        Limits {
            link: RateLimiter::keyed(per_minute(link)),
            link_address: RateLimiter::keyed(per_minute(link.saturating_mul(ADDRESS_FACTOR))),
            pairing_address: RateLimiter::keyed(per_minute(PAIRING_PER_MIN)),
            clock: DefaultClock::default(),
        }
    }

    /// One more request for a player's page (`link`: the token in its path, if any) from
    /// `address`. `Err`: how long until one is allowed. Both buckets are counted even when
    /// the first refuses: a client guessing links is held by its address too.
    pub fn player_link(&self, link: Option<&str>, address: IpAddr) -> Result<(), Duration> {
        self.sweep();
        let by_link = match link {
            Some(t) => self.take(&self.link, &t.to_string()),
            None => Ok(()),
        };
        let by_address = self.take(&self.link_address, &address);
        by_link.and(by_address)
    }

    /// One more pairing code for `address`. `Err`: how long until one is allowed.
    pub fn pairing(&self, address: IpAddr) -> Result<(), Duration> {
        self.sweep();
        self.take(&self.pairing_address, &address)
    }

    fn take<K>(&self, limiter: &DefaultKeyedRateLimiter<K>, key: &K) -> Result<(), Duration>
    where
        K: std::hash::Hash + Eq + Clone,
    {
        limiter
            .check_key(key)
            .map_err(|not_until| not_until.wait_time_from(self.clock.now()))
    }

    /// Drops buckets that are full again once the maps grow (many addresses or links seen).
    fn sweep(&self) {
        for_each_big(&self.link);
        for_each_big(&self.link_address);
        for_each_big(&self.pairing_address);
    }
}

fn for_each_big<K>(limiter: &DefaultKeyedRateLimiter<K>)
where
    K: std::hash::Hash + Eq + Clone,
{
    if limiter.len() > SWEEP_ABOVE {
        limiter.retain_recent();
        limiter.shrink_to_fit();
    }
}

/// A new pairing code for the client of `req`, or the 429 that says how long to wait.
pub fn pairing_code(st: &AppState, req: &HttpRequest) -> AppResult<()> {
    let address = crate::web::client::client_ip(req, &st.config.trusted_proxy_ips());
    st.limits.pairing(address).map_err(|wait| {
        AppError::TooManyRequests(
            Problem::new("err-pairing-too-many").arg("seconds", retry_after_secs(wait)),
        )
    })
}

/// Whole seconds to tell a client in `Retry-After` (at least one).
pub fn retry_after_secs(wait: Duration) -> u64 {
    u64::try_from(wait.as_millis().div_ceil(1000))
        .unwrap_or(u64::MAX)
        .max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(link_rate: u32) -> Limits {
        Limits::new(&Config {
            player_link_rate: link_rate,
            ..Config::default()
        })
    }

    #[test]
    fn a_link_gets_its_rate_at_once_then_waits() {
        let l = limits(10);
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        for _ in 0..10 {
            assert!(l.player_link(Some("tok"), a).is_ok());
        }
        let wait = l.player_link(Some("tok"), a).unwrap_err();
        // One request comes back every 6 s at 10 a minute.
        assert!(
            wait > Duration::from_secs(4) && wait <= Duration::from_secs(6),
            "{wait:?}"
        );
        // Another link from the same address is its own bucket.
        assert!(l.player_link(Some("other"), a).is_ok());
    }

    #[test]
    fn an_address_is_held_to_the_factor_across_links() {
        let l = limits(10);
        let a: IpAddr = "192.0.2.2".parse().unwrap();
        let allowed = (0..10 * ADDRESS_FACTOR + 20)
            .filter(|i| l.player_link(Some(&format!("t{i}")), a).is_ok())
            .count();
        assert_eq!(allowed, (10 * ADDRESS_FACTOR) as usize);
        let b: IpAddr = "192.0.2.3".parse().unwrap();
        assert!(l.player_link(Some("t1"), b).is_ok());
    }

    #[test]
    fn pairing_codes_are_limited_per_address() {
        let l = limits(240);
        let a: IpAddr = "2001:db8::1".parse().unwrap();
        let allowed = (0..PAIRING_PER_MIN + 5)
            .filter(|_| l.pairing(a).is_ok())
            .count();
        assert_eq!(allowed, PAIRING_PER_MIN as usize);
        assert!(l.pairing("2001:db8::2".parse().unwrap()).is_ok());
    }

    #[test]
    fn retry_after_is_whole_seconds_rounded_up() {
        assert_eq!(retry_after_secs(Duration::from_millis(1)), 1);
        assert_eq!(retry_after_secs(Duration::from_millis(2000)), 2);
        assert_eq!(retry_after_secs(Duration::from_millis(2001)), 3);
        assert_eq!(retry_after_secs(Duration::ZERO), 1);
    }
}
