//! Request rates held in memory by each server process: token buckets per key (the
//! `governor` crate; each bucket holds `n` requests and refills at `n` a minute), kept in the
//! [`AppState`](crate::web::state::AppState) so that every app built — a test's included — has
//! its own.
//!
//! What is limited here is what anyone may ask without signing in and what costs the room
//! something each time:
//! - the player's page `/p/{token}`: per link (`CARDROOM_PLAYER_LINK_RATE` a
//!   minute) and per client address ([`ADDRESS_FACTOR`] times that);
//! - a new tablet pairing code (`POST /api/v1/tablet-pairings`, and `/tablet` in a browser
//!   without a code): per client address ([`PAIRING_PER_MIN`]) and for the room
//!   ([`PAIRING_ROOM_PER_MIN`]). Each code is a row, a write
//!   through the room's one write turn, and one of a finite set of six-character codes
//!   valid ten minutes: unlimited, one address could slow the floor's writes and leave no
//!   code free for a real tablet.
//!
//! A client address is an IPv4 address, or an IPv6 /64 network ([`client_key`]).
//!
//! The sign-in throttle and the phone-join limits are kept in the database instead
//! (`domain::login_throttle`, `services::join`): they must hold across processes and
//! restarts, and they are checked in a write anyway.

pub mod buckets;

pub use buckets::{client_key, Limits, ADDRESS_FACTOR, PAIRING_PER_MIN, PAIRING_ROOM_PER_MIN};

use crate::domain::Problem;
use crate::error::{AppError, AppResult};
use crate::web::state::AppState;
use actix_web::HttpRequest;
use std::time::Duration;

/// A new pairing code for the client of `req`, or the 429 that says how long to wait.
pub fn pairing_code(st: &AppState, req: &HttpRequest) -> AppResult<()> {
    let address = crate::web::client::client_ip(req, &st.config.server.trusted_proxies);
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

    #[test]
    fn retry_after_is_whole_seconds_rounded_up() {
        assert_eq!(retry_after_secs(Duration::from_millis(1)), 1);
        assert_eq!(retry_after_secs(Duration::from_millis(2000)), 2);
        assert_eq!(retry_after_secs(Duration::from_millis(2001)), 3);
        assert_eq!(retry_after_secs(Duration::ZERO), 1);
    }
}
