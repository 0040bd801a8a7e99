//! Joining a waiting list from a phone: where an entry came from, the
//! one-time code that proves the phone, the limits that keep strangers from flooding the
//! lists, the lists a player may pick, a guest's kept place, and the desk's check-in code.
//!
//! BSOP 43 makes being there when called the player's duty: a remote entry is a call-in —
//! it lapses unless the player checks in at the desk in time (`call_in_expiry_min`). BSOP 1
//! and 3 keep the identity check (photo ID, 18 or over) at the desk: someone not registered
//! joins as a *guest* whose place is kept but who is never called until registered. BSOP 44:
//! the floor still seats every player.

use super::enums::string_enum;
use super::ids::GameId;
use super::states::ListSource;
use super::waitlist::{self, Entry};
use crate::domain::ids::PlayerId;
use chrono::{DateTime, Duration, Utc};
use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use sha2::Sha256;
use std::fmt;
use std::str::FromStr;

string_enum! {
    /// How a remote entry reached the list (stored in `waitlist_entries.via`,
    /// `join_codes.via`, `guest_entries.via`). A join service takes it as an argument, so the
    /// desk kiosk reuses the phone's flow.
    Via { Phone = "phone", Kiosk = "kiosk" }
}

string_enum! {
    /// Where a list entry came from, as the board and the lists show it.
    /// Read from the entry's `source` and `via` by [`EntrySource::of`]: nothing else
    /// compares those strings.
    EntrySource {
        /// Put on the list at the desk by the floor.
        Desk = "desk",
        /// A telephone sign-up taken by the desk (lapses unless checked in).
        CallIn = "call_in",
        /// The player joined from their phone (lapses unless checked in: BSOP 43).
        Phone = "phone",
        /// The player joined at the desk's kiosk.
        Kiosk = "kiosk",
        /// BSOP 55, 57: relisted by a must-move.
        MustMove = "must_move",
        /// PT-2007 24: relisted at the top when their table broke.
        TableBreak = "table_break",
    }
}

impl EntrySource {
    /// The entry's origin from its stored `source` and `via` (unknown values read as the desk:
    /// the most conservative label, it claims nothing about presence).
    pub fn of(source: &str, via: Option<&str>) -> EntrySource {
        match via.and_then(|v| v.parse::<Via>().ok()) {
            Some(Via::Phone) => EntrySource::Phone,
            Some(Via::Kiosk) => EntrySource::Kiosk,
            None => source.parse().unwrap_or(EntrySource::Desk),
        }
    }

    /// Put on the list at the desk (the boards show no origin for these).
    pub fn is_desk(self) -> bool {
        self == EntrySource::Desk
    }

    /// BSOP 43: entries made away from the desk lapse unless the player checks in.
    pub fn needs_check_in(self) -> bool {
        matches!(self, EntrySource::CallIn | EntrySource::Phone)
    }

    /// The stored `source` of a new entry made this way: a phone entry is a call-in as far as
    /// the list's rules go (it lapses unless checked in); the kiosk stands at the desk.
    pub fn stored_source(self) -> ListSource {
        match self {
            EntrySource::CallIn | EntrySource::Phone => ListSource::CallIn,
            EntrySource::MustMove => ListSource::MustMove,
            EntrySource::TableBreak => ListSource::TableBreak,
            EntrySource::Desk | EntrySource::Kiosk => ListSource::Desk,
        }
    }
}

/// The domain's view of one list entry, whatever its source: only whether it lapses depends
/// on the source (BSOP 43), never its key or its joining time — so the order of the list and
/// of the calls (PT-2007 12, BSOP 51) cannot depend on where an entry came from.
// One list entry, field by field (a constructor for the rule's tests and callers).
#[allow(clippy::too_many_arguments)]
pub fn list_entry(
    id: i64,
    player_id: PlayerId,
    order_key: i64,
    joined_at: DateTime<Utc>,
    source: EntrySource,
    lapses_at: Option<DateTime<Utc>>,
    checked_in: bool,
    called: bool,
) -> Entry {
    Entry {
        id,
        player_id,
        order_key,
        joined_at,
        call_in_expires_at: (source.needs_check_in() && !checked_in)
            .then_some(lapses_at)
            .flatten(),
        called,
    }
}

// ---- the one-time code -----------------------------------------------------------------------

/// Digits of a code.
pub const CODE_DIGITS: usize = 6;
/// A code is good for 10 minutes.
pub const CODE_TTL_MIN: i64 = 10;
/// At most 5 tries per code; the fifth wrong one ends it.
pub const MAX_TRIES: i32 = 5;

/// A code from a number drawn uniformly in 0..10^6 (the caller's secure random source).
pub fn code_from(n: u32) -> String {
    format!("{:0width$}", n % 1_000_000, width = CODE_DIGITS)
}

/// The code as typed: digits only (spaces and dashes people type are dropped), else None.
pub fn clean_code(typed: &str) -> Option<String> {
    let t: String = typed
        .chars()
        .filter(|c| !matches!(c, ' ' | '-' | '.'))
        .collect();
    (t.len() == CODE_DIGITS && t.chars().all(|c| c.is_ascii_digit())).then_some(t)
}

fn mac(key: &[u8], parts: &[&[u8]]) -> Hmac<Sha256> {
    // HMAC accepts keys of any length: `new_from_slice` cannot fail for it.
    let mut m = <Hmac<Sha256> as Mac>::new_from_slice(key).unwrap_or_else(|_| unreachable!());
    for p in parts {
        m.update(p);
        m.update(b"\0");
    }
    m
}

/// What is stored of a code: HMAC-SHA256 keyed with the room's secret over the request and
/// the code (never the code itself; a database reader cannot try the million codes without
/// the key).
pub fn code_hash(key: &[u8], request_id: i64, code: &str) -> String {
    hex::encode(
        mac(
            key,
            &[
                b"join code",
                request_id.to_string().as_bytes(),
                code.as_bytes(),
            ],
        )
        .finalize()
        .into_bytes(),
    )
}

/// A stored hash of an opaque token (the address of a code request).
pub fn token_hash(key: &[u8], token: &str) -> String {
    hex::encode(
        mac(key, &[b"join request", token.as_bytes()])
            .finalize()
            .into_bytes(),
    )
}

/// A code request as the check needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeState {
    pub id: i64,
    pub code_hash: String,
    pub expires_at: DateTime<Utc>,
    pub attempts: i32,
    pub used: bool,
}

/// The answer to a typed code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CodeCheck {
    Good,
    /// Wrong; this many tries are left.
    Wrong {
        tries_left: i32,
    },
    /// Past its 10 minutes.
    Expired,
    /// Five wrong tries: the code is dead (ask for a new one).
    TooManyTries,
    /// Already used.
    Used,
}

/// Checks a typed code against its request at `now` (compared in constant time
/// through the HMAC's own verification). The caller counts the try when the answer is
/// `Wrong` or `TooManyTries`.
pub fn check_code(key: &[u8], s: &CodeState, typed: &str, now: DateTime<Utc>) -> CodeCheck {
    if s.used {
        return CodeCheck::Used;
    }
    if s.attempts >= MAX_TRIES {
        return CodeCheck::TooManyTries;
    }
    if now >= s.expires_at {
        return CodeCheck::Expired;
    }
    let good = match (clean_code(typed), hex::decode(&s.code_hash)) {
        (Some(code), Ok(stored)) => mac(
            key,
            &[b"join code", s.id.to_string().as_bytes(), code.as_bytes()],
        )
        .verify_slice(&stored)
        .is_ok(),
        _ => false,
    };
    if good {
        CodeCheck::Good
    } else if s.attempts + 1 >= MAX_TRIES {
        CodeCheck::TooManyTries
    } else {
        CodeCheck::Wrong {
            tries_left: MAX_TRIES - s.attempts - 1,
        }
    }
}

// ---- limits ----------------------------------------------------------------------------------

/// What a limit counts, for the message and the audit record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Limit {
    CodesPerPhone,
    CodesPerAddress,
    CodesPerRoom,
    EntriesPerAddress,
    EntriesPerRoom,
    SmsCost,
}

impl Limit {
    pub fn as_str(self) -> &'static str {
        match self {
            Limit::CodesPerPhone => "codes_per_phone",
            Limit::CodesPerAddress => "codes_per_address",
            Limit::CodesPerRoom => "codes_per_room",
            Limit::EntriesPerAddress => "entries_per_address",
            Limit::EntriesPerRoom => "entries_per_room",
            Limit::SmsCost => "sms_cost",
        }
    }
}

/// The window every limit counts over.
pub const LIMIT_WINDOW_MIN: i64 = 60;

/// `events` happened at these times, each weighing `n` (codes: 1, entries: how
/// many, SMS: their cost); one more of weight `add` is allowed when the window's total stays
/// within `max`. Else the seconds until enough of the window's events fall out of it for one
/// more (at least 1: the `Retry-After`). An event heavier than `max` alone is never allowed
/// (the wait is then the whole window).
pub fn within(
    events: &[(DateTime<Utc>, i64)],
    add: i64,
    max: i64,
    now: DateTime<Utc>,
) -> Result<(), i64> {
    let window = Duration::minutes(LIMIT_WINDOW_MIN);
    let mut live: Vec<(DateTime<Utc>, i64)> = events
        .iter()
        .copied()
        .filter(|(t, _)| *t > now - window && *t <= now)
        .collect();
    let total: i64 = live.iter().map(|(_, n)| n).sum();
    if total + add <= max {
        return Ok(());
    }
    if add > max {
        return Err(window.num_seconds());
    }
    // Oldest first: the wait is until the oldest events whose weight must go have left.
    live.sort_by_key(|(t, _)| *t);
    let mut left = total;
    for (t, n) in live {
        left -= n;
        if left + add <= max {
            return Err(((t + window) - now).num_seconds().max(1));
        }
    }
    Err(window.num_seconds())
}

// ---- the lists a player picks ----------------------------------------------------------------

/// Why a choice of lists is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListsRefusal {
    None,
    TooMany {
        max: usize,
    },
    /// A game that is not offered (inactive, unknown, or neither running nor on an interest
    /// list — e.g. it closed meanwhile).
    NotOffered,
}

/// The lists chosen, each once, in the order given: at least one, at most `max` (the room's
/// `remote_max_lists`), every one of them among `offered`.
pub fn choose_lists(
    chosen: &[GameId],
    offered: &[GameId],
    max: usize,
) -> Result<Vec<GameId>, ListsRefusal> {
    let mut v: Vec<GameId> = Vec::new();
    for g in chosen {
        if !v.contains(g) {
            v.push(*g);
        }
    }
    if v.is_empty() {
        return Err(ListsRefusal::None);
    }
    if v.len() > max {
        return Err(ListsRefusal::TooMany { max });
    }
    if v.iter().any(|g| !offered.contains(g)) {
        return Err(ListsRefusal::NotOffered);
    }
    Ok(v)
}

// ---- guests: a kept place --------------------------------------------------------------------

/// The key of a guest's place at the bottom of a list: after every key the list's entries and
/// its guests ever had (keys only grow, as `services::floor` keeps them), so the place sits in
/// the list's own order and is kept while the guest registers.
pub fn guest_key(max_entry_key: Option<i64>, max_guest_key: Option<i64>) -> i64 {
    match max_entry_key.max(max_guest_key) {
        Some(k) => k + waitlist::KEY_STEP,
        None => waitlist::KEY_STEP,
    }
}

/// Where a guest's kept place is among the list's entries (1 = next): the live entries that
/// come before it in list order (key, joining time), plus one. The guest is not called before
/// registering (BSOP 1, 3): the list's own places do not count the guest; once registered,
/// the entry takes this place.
pub fn guest_place(
    entries: &[Entry],
    key: i64,
    joined_at: DateTime<Utc>,
    now: DateTime<Utc>,
) -> usize {
    entries
        .iter()
        .filter(|e| !e.lapsed(now))
        .filter(|e| (e.order_key, e.joined_at) < (key, joined_at))
        .count()
        + 1
}

// ---- the desk's check-in code ---------------------------------------------------------------

/// The desk shows a QR code of a check-in address that changes every this many
/// seconds; a photo of it taken away stops working within two periods.
pub const DESK_PERIOD_SECS: i64 = 120;

fn desk_mac(key: &[u8], period: i64) -> String {
    let full = mac(key, &[b"desk check-in", period.to_string().as_bytes()])
        .finalize()
        .into_bytes();
    // 16 bytes are plenty for a code that lives four minutes.
    format!("{period}-{}", hex::encode(&full[..16]))
}

/// The desk's check-in token now.
pub fn desk_token(key: &[u8], now: DateTime<Utc>) -> String {
    desk_mac(key, now.timestamp().div_euclid(DESK_PERIOD_SECS))
}

/// True when `token` is the desk's token of this period or the one before (a scan at the turn
/// of a period still works).
pub fn desk_token_valid(key: &[u8], token: &str, now: DateTime<Utc>) -> bool {
    let p = now.timestamp().div_euclid(DESK_PERIOD_SECS);
    let Some((period, _)) = token.split_once('-') else {
        return false;
    };
    let Ok(period) = period.parse::<i64>() else {
        return false;
    };
    if period != p && period != p - 1 {
        return false;
    }
    let want = desk_mac(key, period);
    // Constant time: compare the MACs of both strings.
    mac(key, &[want.as_bytes()])
        .verify_slice(&mac(key, &[token.as_bytes()]).finalize().into_bytes())
        .is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::waitlist::{next_for_seat, positions, Candidate, KEY_STEP};
    use chrono::TimeZone;
    use proptest::prelude::*;

    const KEY: &[u8] = b"room secret for the tests, long enough";

    fn t0() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 24, 21, 0, 0).unwrap()
    }

    #[test]
    fn sources_are_read_from_source_and_via_bsop_43() {
        assert_eq!(EntrySource::of("desk", None), EntrySource::Desk);
        assert_eq!(EntrySource::of("call_in", None), EntrySource::CallIn);
        assert_eq!(
            EntrySource::of("call_in", Some("phone")),
            EntrySource::Phone
        );
        assert_eq!(EntrySource::of("desk", Some("kiosk")), EntrySource::Kiosk);
        assert_eq!(
            EntrySource::of("table_break", None),
            EntrySource::TableBreak
        );
        assert_eq!(EntrySource::of("???", None), EntrySource::Desk);
        assert!(EntrySource::Phone.needs_check_in());
        assert!(!EntrySource::Kiosk.needs_check_in());
        assert_eq!(EntrySource::Phone.stored_source(), ListSource::CallIn);
        assert_eq!(EntrySource::Kiosk.stored_source(), ListSource::Desk);
    }

    #[test]
    fn a_code_is_six_digits_stored_only_as_its_hmac() {
        assert_eq!(code_from(42), "000042");
        assert_eq!(code_from(1_999_999), "999999");
        let h = code_hash(KEY, 7, "123456");
        assert!(!h.contains("123456"));
        assert_ne!(h, code_hash(KEY, 8, "123456"), "bound to its request");
        assert_ne!(h, code_hash(b"another room's key", 7, "123456"));
        assert_eq!(clean_code(" 123-456 "), Some("123456".into()));
        assert_eq!(clean_code("12345"), None);
        assert_eq!(clean_code("12345a"), None);
    }

    #[test]
    fn codes_expire_after_10_minutes_and_5_tries() {
        let s = CodeState {
            id: 7,
            code_hash: code_hash(KEY, 7, "123456"),
            expires_at: t0() + Duration::minutes(CODE_TTL_MIN),
            attempts: 0,
            used: false,
        };
        assert_eq!(check_code(KEY, &s, "123 456", t0()), CodeCheck::Good);
        assert_eq!(
            check_code(KEY, &s, "654321", t0()),
            CodeCheck::Wrong { tries_left: 4 }
        );
        assert_eq!(
            check_code(KEY, &s, "123456", t0() + Duration::minutes(10)),
            CodeCheck::Expired
        );
        let four = CodeState {
            attempts: 4,
            ..s.clone()
        };
        assert_eq!(
            check_code(KEY, &four, "000000", t0()),
            CodeCheck::TooManyTries
        );
        assert_eq!(check_code(KEY, &four, "123456", t0()), CodeCheck::Good);
        let five = CodeState {
            attempts: 5,
            ..s.clone()
        };
        assert_eq!(
            check_code(KEY, &five, "123456", t0()),
            CodeCheck::TooManyTries
        );
        let used = CodeState { used: true, ..s };
        assert_eq!(check_code(KEY, &used, "123456", t0()), CodeCheck::Used);
    }

    #[test]
    fn limits_count_an_hour_and_say_when_to_come_back() {
        let at = |m: i64| t0() - Duration::minutes(m);
        let ev = [(at(50), 1), (at(20), 1), (at(5), 1)];
        assert_eq!(within(&ev, 1, 4, t0()), Ok(()));
        // Full: the oldest leaves the window 10 minutes from now.
        assert_eq!(within(&ev, 1, 3, t0()), Err(600));
        // Older than the hour: not counted.
        assert_eq!(within(&[(at(61), 5)], 1, 1, t0()), Ok(()));
        // Weighted (an SMS cost): two must leave.
        assert_eq!(within(&[(at(50), 5), (at(30), 5)], 5, 10, t0()), Err(600));
        assert_eq!(
            within(&[(at(50), 5), (at(30), 5)], 6, 10, t0()),
            Err(30 * 60)
        );
        assert_eq!(within(&[], 11, 10, t0()), Err(3600));
    }

    #[test]
    fn lists_are_one_to_max_of_the_offered_ones() {
        let g = |ids: &[i64]| ids.iter().copied().map(GameId).collect::<Vec<_>>();
        assert_eq!(
            choose_lists(&g(&[3, 1, 3]), &g(&[1, 2, 3]), 3),
            Ok(g(&[3, 1]))
        );
        assert_eq!(choose_lists(&[], &g(&[1]), 3), Err(ListsRefusal::None));
        assert_eq!(
            choose_lists(&g(&[1, 2, 3, 4]), &g(&[1, 2, 3, 4]), 3),
            Err(ListsRefusal::TooMany { max: 3 })
        );
        assert_eq!(
            choose_lists(&g(&[9]), &g(&[1, 2]), 3),
            Err(ListsRefusal::NotOffered)
        );
    }

    fn e(id: i64, key: i64, min: i64) -> Entry {
        list_entry(
            id,
            PlayerId(100 + id),
            key,
            t0() + Duration::minutes(min),
            EntrySource::Desk,
            None,
            false,
            false,
        )
    }

    #[test]
    fn bsop_1_3_a_guest_keeps_the_place_it_joined_at() {
        let l = vec![e(1, KEY_STEP, 0), e(2, 2 * KEY_STEP, 1)];
        let k = guest_key(Some(2 * KEY_STEP), None);
        assert_eq!(k, 3 * KEY_STEP);
        assert_eq!(guest_key(Some(KEY_STEP), Some(5 * KEY_STEP)), 6 * KEY_STEP);
        assert_eq!(guest_key(None, None), KEY_STEP);
        let joined = t0() + Duration::minutes(2);
        assert_eq!(guest_place(&l, k, joined, t0()), 3);
        // A desk join after the guest with an equal key (the desk counts its entries' keys
        // only) comes after the guest: the joining time decides.
        let mut l2 = l.clone();
        l2.push(e(3, k, 3));
        assert_eq!(guest_place(&l2, k, joined, t0()), 3);
        // The guest registered: their entry (same key and time) is third, the desk's fourth.
        l2.push(e(4, k, 2));
        let order: Vec<i64> = waitlist::ordered(&l2).iter().map(|x| x.id).collect();
        assert_eq!(order, vec![1, 2, 4, 3]);
    }

    #[test]
    fn bsop_43_a_phone_entry_lapses_unless_checked_in() {
        let lapse = Some(t0() + Duration::minutes(30));
        let p = list_entry(
            1,
            PlayerId(1),
            KEY_STEP,
            t0(),
            EntrySource::Phone,
            lapse,
            false,
            false,
        );
        assert!(p.lapsed(t0() + Duration::minutes(30)));
        let checked = list_entry(
            1,
            PlayerId(1),
            KEY_STEP,
            t0(),
            EntrySource::Phone,
            lapse,
            true,
            false,
        );
        assert!(!checked.lapsed(t0() + Duration::minutes(30)));
        let desk = list_entry(
            1,
            PlayerId(1),
            KEY_STEP,
            t0(),
            EntrySource::Desk,
            lapse,
            false,
            false,
        );
        assert!(!desk.lapsed(t0() + Duration::minutes(30)));
    }

    #[test]
    fn the_desk_token_turns_over_and_cannot_be_forged() {
        let tok = desk_token(KEY, t0());
        assert!(desk_token_valid(KEY, &tok, t0()));
        assert!(desk_token_valid(
            KEY,
            &tok,
            t0() + Duration::seconds(DESK_PERIOD_SECS)
        ));
        assert!(!desk_token_valid(
            KEY,
            &tok,
            t0() + Duration::seconds(3 * DESK_PERIOD_SECS)
        ));
        assert!(!desk_token_valid(b"another key", &tok, t0()));
        assert!(!desk_token_valid(KEY, "garbage", t0()));
        let (p, _) = tok.split_once('-').unwrap();
        assert!(!desk_token_valid(KEY, &format!("{p}-00"), t0()));
    }

    proptest! {
        /// PT-2007 12, BSOP 51: the places on a list and who is called for a seat are the same
        /// whatever each entry's source (desk, call-in, phone, kiosk), as long as no entry
        /// lapsed (checked in, or within its time) — the source never moves a player.
        #[test]
        fn order_and_calls_do_not_depend_on_the_source(
            rows in proptest::collection::vec((-50i64..50, 0i64..30, 0usize..4, any::<bool>(), any::<bool>()), 0..30),
            passed in proptest::collection::vec(0i64..30, 0..5),
        ) {
            let sources = [EntrySource::Desk, EntrySource::CallIn, EntrySource::Phone, EntrySource::Kiosk];
            let lapse = Some(t0() + Duration::minutes(30));
            let make = |uniform: bool| -> Vec<Entry> {
                rows.iter().enumerate().map(|(i, (k, m, s, checked, called))| {
                    let src = if uniform { EntrySource::Desk } else { sources[*s] };
                    list_entry(i as i64, PlayerId(1000 + i as i64), k * KEY_STEP, t0() + Duration::minutes(*m), src, lapse, *checked, *called)
                }).collect()
            };
            let (mixed, desk) = (make(false), make(true));
            let now = t0() + Duration::minutes(10);
            prop_assert_eq!(positions(&mixed, now), positions(&desk, now));
            let pass = |p: PlayerId| passed.contains(&(p.get() - 1000)).then_some(waitlist::PassOver::Separated);
            let a: Option<Candidate> = next_for_seat(&[], &[], &mixed, now, pass);
            let b: Option<Candidate> = next_for_seat(&[], &[], &desk, now, pass);
            prop_assert_eq!(a, b);
        }
    }
}
