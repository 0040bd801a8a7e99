//! The one check every seating path asks: may this player be seated now?

use super::player::id_valid_on;
use crate::domain::ids::PlayerId;
use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;

/// What the check needs to know about a player.
#[derive(Debug, Clone)]
pub struct PlayerFacts {
    pub date_of_birth: NaiveDate,
    pub doc_expiry: NaiveDate,
    pub has_photo: bool,
}

/// An exclusion (ban) as recorded: BSOP 2, 10, 11.
#[derive(Debug, Clone)]
pub struct Ban {
    pub starts_at: DateTime<Utc>,
    /// `None`: permanent.
    pub ends_at: Option<DateTime<Utc>>,
    pub lifted_at: Option<DateTime<Utc>>,
}

impl Ban {
    /// A ban is in force from its start until its end (exclusive), unless lifted before.
    pub fn in_force(&self, now: DateTime<Utc>) -> bool {
        now >= self.starts_at
            && self.ends_at.is_none_or(|e| now < e)
            && self.lifted_at.is_none_or(|l| now < l)
    }
}

/// Why a player may not be seated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Ineligible {
    /// BSOP 1.
    #[serde(rename = "under_18")]
    Under18,
    /// BSOP 3: no recent, identifiable photo on record.
    NoPhoto,
    /// BSOP 3: the ID document has expired.
    IdExpired,
    /// BSOP 2, 10, 11: an exclusion is in force.
    Banned,
}

impl Ineligible {
    pub fn key(self) -> &'static str {
        match self {
            Ineligible::Under18 => "inelig-under-18",
            Ineligible::NoPhoto => "inelig-no-photo",
            Ineligible::IdExpired => "inelig-id-expired",
            Ineligible::Banned => "inelig-banned",
        }
    }
}

/// BSOP 1, 2, 3, 10: a player may be seated only when 18 or over on the room's date, with a
/// photo on record, an unexpired ID and no exclusion in force. Returns every reason at once
/// (empty = eligible). `today` is the room's local date at `now`.
pub fn eligible_to_play(
    p: &PlayerFacts,
    bans: &[Ban],
    now: DateTime<Utc>,
    today: NaiveDate,
) -> Vec<Ineligible> {
    let mut why = Vec::new();
    if super::age::check_dob(p.date_of_birth, today).is_err() {
        why.push(Ineligible::Under18);
    }
    if !p.has_photo {
        why.push(Ineligible::NoPhoto);
    }
    if !id_valid_on(p.doc_expiry, today) {
        why.push(Ineligible::IdExpired);
    }
    if bans.iter().any(|b| b.in_force(now)) {
        why.push(Ineligible::Banned);
    }
    why
}

/// BSOP 47: an ordered pair key so a separation is stored once.
pub fn separation_pair(a: PlayerId, b: PlayerId) -> Option<(PlayerId, PlayerId)> {
    match a.cmp(&b) {
        std::cmp::Ordering::Less => Some((a, b)),
        std::cmp::Ordering::Greater => Some((b, a)),
        std::cmp::Ordering::Equal => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{Duration, TimeZone};

    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 21, 20, 0, 0).unwrap()
    }
    fn today() -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 11, 21).unwrap()
    }
    fn facts() -> PlayerFacts {
        PlayerFacts {
            date_of_birth: NaiveDate::from_ymd_opt(1990, 1, 1).unwrap(),
            doc_expiry: NaiveDate::from_ymd_opt(2030, 1, 1).unwrap(),
            has_photo: true,
        }
    }

    #[test]
    fn complete_adult_without_ban_is_eligible() {
        assert!(eligible_to_play(&facts(), &[], now(), today()).is_empty());
    }

    #[test]
    fn bsop_3_incomplete_record_cannot_be_seated() {
        let mut p = facts();
        p.has_photo = false;
        p.doc_expiry = NaiveDate::from_ymd_opt(2026, 11, 20).unwrap();
        assert_eq!(
            eligible_to_play(&p, &[], now(), today()),
            vec![Ineligible::NoPhoto, Ineligible::IdExpired]
        );
    }

    #[test]
    fn bsop_10_bans_in_force_until_end_or_lift() {
        let permanent = Ban {
            starts_at: now() - Duration::days(1),
            ends_at: None,
            lifted_at: None,
        };
        assert_eq!(
            eligible_to_play(&facts(), std::slice::from_ref(&permanent), now(), today()),
            vec![Ineligible::Banned]
        );
        let ended = Ban {
            ends_at: Some(now()),
            ..permanent.clone()
        };
        assert!(eligible_to_play(&facts(), &[ended], now(), today()).is_empty());
        let lifted = Ban {
            lifted_at: Some(now() - Duration::minutes(1)),
            ..permanent.clone()
        };
        assert!(eligible_to_play(&facts(), &[lifted], now(), today()).is_empty());
        let future = Ban {
            starts_at: now() + Duration::hours(1),
            ..permanent
        };
        assert!(eligible_to_play(&facts(), &[future], now(), today()).is_empty());
    }

    #[test]
    fn bsop_47_separation_pairs_are_ordered() {
        let (p3, p4, p9) = (PlayerId(3), PlayerId(4), PlayerId(9));
        assert_eq!(separation_pair(p9, p3), Some((p3, p9)));
        assert_eq!(separation_pair(p3, p9), Some((p3, p9)));
        assert_eq!(separation_pair(p4, p4), None);
    }
}
