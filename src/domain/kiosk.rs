//! The desk kiosk: a tablet at the desk where walk-ins join the lists by
//! themselves, through the phone join's own rules (`services::join`, `Via::Kiosk`).
//!
//! What is particular to a kiosk is that strangers use it one after the other: it returns to
//! its start screen after a short idle time, and what lets the player who just joined state
//! a seat preference is a short-lived ticket bound to this kiosk and player —
//! never a credential that outlives the screen it is on.

use crate::domain::ids::PlayerId;
use chrono::{DateTime, Duration, Utc};
use hmac::{Hmac, Mac};
use sha2::Sha256;

/// The kiosk goes back to its start screen after 30 s without a touch.
pub const IDLE_SECS_DEFAULT: u32 = 30;
/// The idle times a room may set (`CARDROOM_KIOSK_IDLE_SECS`): 2 s (tests) to 10 minutes. Longer
/// would leave a player's lists and places on the screen for the next one to read.
pub const IDLE_SECS_MIN: u32 = 2;
pub const IDLE_SECS_MAX: u32 = 600;

/// How long the done screen's seat-preference form stays good. The screen itself is gone
/// after the idle time; this bounds a ticket copied off it.
pub const PREF_TICKET_MIN: i64 = 5;

fn mac(key: &[u8], kiosk_id: i64, player_id: PlayerId, expires: i64) -> String {
    // HMAC accepts keys of any length: `new_from_slice` cannot fail for it.
    let mut m = <Hmac<Sha256> as Mac>::new_from_slice(key).unwrap_or_else(|_| unreachable!());
    for part in [
        b"kiosk seat preference".as_slice(),
        kiosk_id.to_string().as_bytes(),
        player_id.to_string().as_bytes(),
        expires.to_string().as_bytes(),
    ] {
        m.update(part);
        m.update(b"\0");
    }
    hex::encode(m.finalize().into_bytes())
}

/// The ticket the done screen carries so that the player just verified by their code (and only
/// them, only on this kiosk, only for [`PREF_TICKET_MIN`] minutes) may save a seat preference:
/// `player.expires.mac`.
pub fn pref_ticket(key: &[u8], kiosk_id: i64, player_id: PlayerId, now: DateTime<Utc>) -> String {
    let expires = (now + Duration::minutes(PREF_TICKET_MIN)).timestamp();
    format!(
        "{player_id}.{expires}.{}",
        mac(key, kiosk_id, player_id, expires)
    )
}

/// The player a ticket names, if it was made for this kiosk and has not expired.
pub fn check_pref_ticket(
    key: &[u8],
    kiosk_id: i64,
    ticket: &str,
    now: DateTime<Utc>,
) -> Option<PlayerId> {
    let mut parts = ticket.trim().splitn(3, '.');
    let player: PlayerId = parts.next()?.parse().ok()?;
    let expires: i64 = parts.next()?.parse().ok()?;
    let given = parts.next()?;
    let want = mac(key, kiosk_id, player, expires);
    (same_hex(&want, given) && now.timestamp() < expires).then_some(player)
}

/// Constant-time comparison of two hex strings.
fn same_hex(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// Whether an idle time may be set (checked when the server starts).
pub fn idle_secs_valid(secs: u32) -> bool {
    (IDLE_SECS_MIN..=IDLE_SECS_MAX).contains(&secs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pref_ticket_names_its_player_on_its_kiosk_until_it_expires() {
        let key = b"k".repeat(32);
        let now = Utc::now();
        let t = pref_ticket(&key, 3, PlayerId(42), now);
        assert_eq!(check_pref_ticket(&key, 3, &t, now), Some(PlayerId(42)));
        // Another kiosk, another key, a changed player, later, garbage: refused.
        assert_eq!(check_pref_ticket(&key, 4, &t, now), None);
        assert_eq!(check_pref_ticket(b"other", 3, &t, now), None);
        let forged = t.replacen("42.", "43.", 1);
        assert_eq!(check_pref_ticket(&key, 3, &forged, now), None);
        assert_eq!(
            check_pref_ticket(&key, 3, &t, now + Duration::minutes(PREF_TICKET_MIN)),
            None
        );
        for bad in ["", "1", "1.2", "x.y.z", "1.2.zz"] {
            assert_eq!(check_pref_ticket(&key, 3, bad, now), None, "{bad}");
        }
    }

    #[test]
    fn idle_times_are_bounded() {
        assert!(idle_secs_valid(IDLE_SECS_DEFAULT));
        assert!(idle_secs_valid(2) && idle_secs_valid(600));
        assert!(!idle_secs_valid(1) && !idle_secs_valid(601) && !idle_secs_valid(0));
    }
}
