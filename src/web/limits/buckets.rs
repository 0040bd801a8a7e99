//! The process's token buckets: per player link, per client address, for pairing codes per
//! address and for the room (see `web::limits` for what is limited and why).

use crate::config::Config;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultDirectRateLimiter, DefaultKeyedRateLimiter, Quota, RateLimiter};
use sha2::{Digest, Sha256};
use std::net::{IpAddr, Ipv6Addr};
use std::num::NonZeroU32;
use std::sync::Mutex;
use std::time::{Duration, Instant};

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

/// New pairing codes a minute from every address together: a room's tablets all asking at
/// once (they restart after a power cut) stay far below it; an attacker spread over many
/// addresses is held to it.
pub const PAIRING_ROOM_PER_MIN: u32 = 300;

/// Buckets kept before idle ones are dropped (a bucket untouched for a minute is full again
/// and can go); looked at no more than every [`SWEEP_EVERY`].
const SWEEP_ABOVE: usize = 50_000;
const SWEEP_EVERY: Duration = Duration::from_secs(10);

/// A link longer than this is no link of ours: counted by its address only.
const LINK_MAX: usize = 2048;

/// The process's request-rate limits (see `web::limits`).
pub struct Limits {
    /// Per player link: the first 128 bits of the SHA-256 of the decoded token (a key of
    /// fixed size, the same for every spelling of one token).
    link: DefaultKeyedRateLimiter<u128>,
    link_address: DefaultKeyedRateLimiter<IpAddr>,
    pairing_address: DefaultKeyedRateLimiter<IpAddr>,
    pairing_room: DefaultDirectRateLimiter,
    clock: DefaultClock,
    last_sweep: Mutex<Instant>,
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

/// The key of a client address: an IPv4 address as it is (an IPv4 address written as IPv6
/// too), an IPv6 address by its /64 network — one home or phone network is given a whole
/// /64, so counting single addresses there would limit nothing.
pub fn client_key(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V4(_) => address,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(Ipv6Addr::from(
                u128::from(v6) & 0xffff_ffff_ffff_ffff_0000_0000_0000_0000,
            )),
        },
    }
}

/// The key of a link as it appears in a path: its percent-decoded token, hashed.
fn link_key(link: &str) -> Option<u128> {
    if link.len() > LINK_MAX {
        return None;
    }
    let decoded: Vec<u8> = percent_encoding::percent_decode_str(link).collect();
    let digest = Sha256::digest(&decoded);
    let mut first = [0u8; 16];
    first.copy_from_slice(&digest[..16]);
    Some(u128::from_be_bytes(first))
}

impl Limits {
    /// The limits from the validated configuration.
    pub fn new(config: &Config) -> Self {
        let link = config.room.player_link_rate;
        Limits {
            link: RateLimiter::keyed(per_minute(link)),
            link_address: RateLimiter::keyed(per_minute(link.saturating_mul(ADDRESS_FACTOR))),
            pairing_address: RateLimiter::keyed(per_minute(PAIRING_PER_MIN)),
            pairing_room: RateLimiter::direct(per_minute(PAIRING_ROOM_PER_MIN)),
            clock: DefaultClock::default(),
            last_sweep: Mutex::new(Instant::now()),
        }
    }

    /// One more request for a player's page (`link`: the token in its path, if any) from
    /// `address`. `Err`: how long until one is allowed. The address is counted first: a
    /// client over its address's limit is refused without a bucket kept for the link it
    /// tried.
    pub fn player_link(&self, link: Option<&str>, address: IpAddr) -> Result<(), Duration> {
        self.sweep();
        self.take(&self.link_address, &client_key(address))?;
        match link.and_then(link_key) {
            Some(k) => self.take(&self.link, &k),
            None => Ok(()),
        }
    }

    /// One more pairing code for `address`. `Err`: how long until one is allowed.
    pub fn pairing(&self, address: IpAddr) -> Result<(), Duration> {
        self.sweep();
        self.take(&self.pairing_address, &client_key(address))?;
        self.pairing_room
            .check()
            .map_err(|not_until| not_until.wait_time_from(self.clock.now()))
    }

    fn take<K>(&self, limiter: &DefaultKeyedRateLimiter<K>, key: &K) -> Result<(), Duration>
    where
        K: std::hash::Hash + Eq + Clone,
    {
        limiter
            .check_key(key)
            .map_err(|not_until| not_until.wait_time_from(self.clock.now()))
    }

    /// Drops buckets that are full again once the maps grow (many addresses or links seen),
    /// at most every [`SWEEP_EVERY`].
    fn sweep(&self) {
        let Ok(mut last) = self.last_sweep.try_lock() else {
            return;
        };
        if last.elapsed() < SWEEP_EVERY {
            return;
        }
        *last = Instant::now();
        drop(last);
        drop_full_buckets(&self.link);
        drop_full_buckets(&self.link_address);
        drop_full_buckets(&self.pairing_address);
    }
}

fn drop_full_buckets<K>(limiter: &DefaultKeyedRateLimiter<K>)
where
    K: std::hash::Hash + Eq + Clone,
{
    if limiter.len() > SWEEP_ABOVE {
        limiter.retain_recent();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(link_rate: u32) -> Limits {
        let mut config = Config::default();
        config.room.player_link_rate = link_rate;
        Limits::new(&config)
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
        // The same /64 is the same client; another network is not held up.
        assert!(l.pairing("2001:db8::2".parse().unwrap()).is_err());
        assert!(l.pairing("2001:db8:0:1::1".parse().unwrap()).is_ok());
    }

    #[test]
    fn an_ipv6_network_is_one_client_and_a_link_is_one_key_however_spelled() {
        let l = limits(10);
        let allowed = (0..PAIRING_PER_MIN + 5)
            .filter(|i| {
                let a: IpAddr = format!("2001:db8:1:2::{:x}", i + 1).parse().unwrap();
                l.pairing(a).is_ok()
            })
            .count();
        assert_eq!(allowed, PAIRING_PER_MIN as usize, "one /64");
        assert_eq!(
            client_key("::ffff:192.0.2.9".parse().unwrap()),
            "192.0.2.9".parse::<IpAddr>().unwrap()
        );
        assert_eq!(link_key("abc%2Ed"), link_key("abc.d"));
        assert_eq!(link_key(&"x".repeat(LINK_MAX + 1)), None);
        let a: IpAddr = "192.0.2.20".parse().unwrap();
        for _ in 0..10 {
            assert!(l.player_link(Some("abc.d"), a).is_ok());
        }
        assert!(l.player_link(Some("abc%2Ed"), a).is_err());
    }

    #[test]
    fn the_room_as_a_whole_is_held_to_its_pairing_rate() {
        let l = limits(10);
        let allowed = (0..PAIRING_ROOM_PER_MIN + 20)
            .filter(|i| {
                let a: IpAddr = format!("10.{}.{}.1", i / 250, i % 250).parse().unwrap();
                l.pairing(a).is_ok()
            })
            .count();
        assert_eq!(allowed, PAIRING_ROOM_PER_MIN as usize);
    }
}
