//! The rule profile: every house-rule number later features read, with the seeds' defaults
//! and the ranges the seeds allow. Two profiles ship: `pt-casino` (PT-2007) and `bsop`.

use super::dealers::PushRules;
use super::enums::string_enum;
use super::error::{Errors, FieldError};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

string_enum! {
    /// Where two texts disagree, the profile decides (RULES.md intro).
    ProfileKind { PtCasino = "pt-casino", Bsop = "bsop" }
}

string_enum! {
    /// PT-2007 7: the house's percentage is taken per hand (a) or per session (b).
    CagnotteMode { PerHand = "per_hand", PerSession = "per_session" }
}

string_enum! {
    /// What happens to a called player who does not answer within the response window.
    CallExpiry { BottomOfList = "bottom", Remove = "remove" }
}

/// Every number is an integer; percentages are in basis points (1 % = 100).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct RuleProfile {
    pub kind: ProfileKind,
    /// PT-2007 24 (4), PT-ONL 7 (2): fewer players than this suspend the game.
    pub min_players_to_run: i32,
    /// PT-2007 24: a suspended game closes if not back to the minimum within this time.
    pub suspension_grace_min: i32,
    /// BSOP 36: chips may be removed after this absence.
    pub absence_limit_min: i32,
    /// BSOP 36: chips may be removed after this many missed big blinds.
    pub missed_bb_before_removal: i32,
    /// BSOP 26, 37: the return window.
    pub return_window_min: i32,
    /// BSOP 38: minimum stay for a winner at a Mid Limit table.
    pub min_stay_mid_min: i32,
    /// BSOP 38: minimum stay for a winner at a High Limit table.
    pub min_stay_high_min: i32,
    /// PT-2007 7: default cagnotte mode for new games.
    pub cagnotte_mode: CagnotteMode,
    /// PT-2007 7a: per hand, up to 5 % (basis points).
    pub rake_percent_bp: i32,
    /// PT-2007 7b: per session, 5 % to 20 % (basis points).
    pub session_percent_bp: i32,
    /// PT-2007 7b: one hour of play (plus the hand in progress).
    pub session_length_min: i32,
    /// PT-2007 7b: players seated up to 30 minutes after the session started also pay.
    pub late_seat_window_min: i32,
    /// How long a called player has to answer a seat call.
    pub seat_call_response_min: i32,
    /// What happens when a seat call expires.
    pub call_expiry: CallExpiry,
    /// How long a call-in (telephone) list entry lasts without check-in.
    pub call_in_expiry_min: i32,
    /// After this long an unacknowledged seat call is escalated on the floor dashboard.
    pub seat_call_ack_escalation_min: i32,
    /// PT-2007 28: a player taking a seat in a game under way enters at the table's average
    /// capital.
    pub join_at_average_stack: bool,
    /// PT-2007 28 read narrowly: the average only in session games. The text names no mode,
    /// so the default is every game under way; rooms saved before this setting read `false`.
    #[serde(default)]
    pub join_at_average_session_only: bool,
    /// PT-2007 90: missed blinds are paid dead on return (else BSOP 39: post or wait for BB).
    pub missed_blinds_dead: bool,
    /// PT-ONL 18: no rake on a hand that ends pre-flop without a voluntary bet.
    pub no_flop_no_drop: bool,
    /// How many lists a player may join at once from their phone (a room stored
    /// before this setting existed reads the default).
    #[serde(default = "default_remote_max_lists")]
    pub remote_max_lists: i32,
    /// How many offers of a seat a listed player who waits for a preferred seat
    /// may let go by, keeping their place, before they are called like anyone (PT-2007 12,
    /// BSOP 51: the list order itself never changes). Rooms saved before it have 2.
    #[serde(default = "default_pref_max_passes")]
    pub pref_max_passes: i32,
    /// The dealers' push (`domain::dealers`): how long a down lasts, 10-90 minutes. Rooms
    /// stored before the setting read 30-minute downs, a 20-minute break after 3 downs.
    #[serde(default = "default_push_down_min")]
    pub push_down_min: i32,
    /// How long a dealer's break lasts, 5-60 minutes.
    #[serde(default = "default_push_break_min")]
    pub push_break_min: i32,
    /// A break is due after this many downs in a row, 0-24 (0: only the time rule).
    #[serde(default = "default_push_break_after_downs")]
    pub push_break_after_downs: i32,
    /// A break is due after this long dealing, 0-720 minutes (0: only the downs rule).
    #[serde(default)]
    pub push_break_after_min: i32,
    /// PT-2007 5, 9d: the dealers' tips are pooled and shared by hours dealt (else each
    /// down keeps its own tips box).
    #[serde(default)]
    pub tips_pooled: bool,
}

fn default_push_down_min() -> i32 {
    30
}

fn default_push_break_min() -> i32 {
    20
}

fn default_push_break_after_downs() -> i32 {
    3
}

/// Three lists, as the large rooms that let guests join from their phone allow.
pub const DEFAULT_REMOTE_MAX_LISTS: i32 = 3;

fn default_remote_max_lists() -> i32 {
    DEFAULT_REMOTE_MAX_LISTS
}

fn default_pref_max_passes() -> i32 {
    2
}

impl RuleProfile {
    /// The dealers' push rules as the room set them (0: that break rule is not used).
    pub fn push_rules(&self) -> PushRules {
        PushRules {
            down_min: i64::from(self.push_down_min),
            break_min: i64::from(self.push_break_min),
            break_after_downs: u32::try_from(self.push_break_after_downs)
                .ok()
                .filter(|n| *n > 0),
            break_after_min: Some(i64::from(self.push_break_after_min)).filter(|m| *m > 0),
        }
    }

    /// The seeds' defaults for a profile.
    pub fn defaults(kind: ProfileKind) -> Self {
        let pt = kind == ProfileKind::PtCasino;
        RuleProfile {
            kind,
            min_players_to_run: 4,
            suspension_grace_min: 15,
            absence_limit_min: 15,
            missed_bb_before_removal: 2,
            return_window_min: 60,
            min_stay_mid_min: 60,
            min_stay_high_min: 120,
            cagnotte_mode: if pt {
                CagnotteMode::PerSession
            } else {
                CagnotteMode::PerHand
            },
            rake_percent_bp: 500,
            session_percent_bp: 1000,
            session_length_min: 60,
            late_seat_window_min: 30,
            seat_call_response_min: 5,
            call_expiry: CallExpiry::BottomOfList,
            call_in_expiry_min: 30,
            seat_call_ack_escalation_min: 2,
            join_at_average_stack: pt,
            join_at_average_session_only: false,
            missed_blinds_dead: pt,
            no_flop_no_drop: true,
            remote_max_lists: DEFAULT_REMOTE_MAX_LISTS,
            pref_max_passes: default_pref_max_passes(),
            push_down_min: default_push_down_min(),
            push_break_min: default_push_break_min(),
            push_break_after_downs: default_push_break_after_downs(),
            push_break_after_min: 0,
            tips_pooled: false,
        }
    }
}

/// The range each setting may take, with the rule it comes from.
pub struct Range {
    pub field: &'static str,
    pub min: i32,
    pub max: i32,
}

/// The dealers' push settings' ranges (the room's own rule, `domain::dealers`): checked with
/// the break rule as a whole by [`validate_profile`], and stated in the API document.
pub const PUSH_RANGES: &[Range] = &[
    Range {
        field: "push_down_min",
        min: super::dealers::DOWN_MIN as i32,
        max: super::dealers::DOWN_MAX as i32,
    },
    Range {
        field: "push_break_min",
        min: super::dealers::BREAK_MIN as i32,
        max: super::dealers::BREAK_MAX as i32,
    },
    Range {
        field: "push_break_after_downs",
        min: 0,
        max: 24,
    },
    Range {
        field: "push_break_after_min",
        min: 0,
        max: 720,
    },
];

/// Ranges allowed by the seeds (and, where a seed gives one number, the house latitude).
pub const RANGES: &[Range] = &[
    // PT-ONL 7 runs with 2; PT-2007 24 requires 4; a table has at most 11 seats.
    Range {
        field: "min_players_to_run",
        min: 2,
        max: 10,
    },
    // PT-2007 24: 15 minutes; houses may be stricter, never more lenient than an hour.
    Range {
        field: "suspension_grace_min",
        min: 1,
        max: 60,
    },
    // BSOP 36: "at least 15 minutes"; the house may allow longer.
    Range {
        field: "absence_limit_min",
        min: 15,
        max: 120,
    },
    // BSOP 36: twice.
    Range {
        field: "missed_bb_before_removal",
        min: 1,
        max: 5,
    },
    // BSOP 26, 37: one hour.
    Range {
        field: "return_window_min",
        min: 30,
        max: 240,
    },
    // BSOP 38: 1 hour mid, 2 hours high.
    Range {
        field: "min_stay_mid_min",
        min: 0,
        max: 240,
    },
    Range {
        field: "min_stay_high_min",
        min: 0,
        max: 480,
    },
    // PT-2007 7a, PT-ONL 17a: up to 5 % per hand.
    Range {
        field: "rake_percent_bp",
        min: 0,
        max: 500,
    },
    // PT-2007 7b, PT-ONL 17b: 5 % to 20 %.
    Range {
        field: "session_percent_bp",
        min: 500,
        max: 2000,
    },
    // PT-2007 7b: one hour of play.
    Range {
        field: "session_length_min",
        min: 60,
        max: 60,
    },
    // PT-2007 7b: up to 30 minutes after the start.
    Range {
        field: "late_seat_window_min",
        min: 0,
        max: 30,
    },
    Range {
        field: "seat_call_response_min",
        min: 1,
        max: 30,
    },
    Range {
        field: "call_in_expiry_min",
        min: 5,
        max: 240,
    },
    Range {
        field: "seat_call_ack_escalation_min",
        min: 1,
        max: 15,
    },
    // Lists joined at once from a phone (one to ten).
    Range {
        field: "remote_max_lists",
        min: 1,
        max: 10,
    },
    // 0 = a preference never holds a seat back; more than 5 lets a list stall.
    Range {
        field: "pref_max_passes",
        min: 0,
        max: 5,
    },
];

/// Refuses values outside the seeds' ranges (e.g. session cagnotte outside 5-20 %).
pub fn validate_profile(p: &RuleProfile) -> Result<(), Vec<FieldError>> {
    let mut e = Errors::default();
    let values = [
        p.min_players_to_run,
        p.suspension_grace_min,
        p.absence_limit_min,
        p.missed_bb_before_removal,
        p.return_window_min,
        p.min_stay_mid_min,
        p.min_stay_high_min,
        p.rake_percent_bp,
        p.session_percent_bp,
        p.session_length_min,
        p.late_seat_window_min,
        p.seat_call_response_min,
        p.call_in_expiry_min,
        p.seat_call_ack_escalation_min,
        p.remote_max_lists,
        p.pref_max_passes,
    ];
    for (r, v) in RANGES.iter().zip(values) {
        if v < r.min || v > r.max {
            e.push(
                FieldError::new(r.field, "err-range")
                    .arg("min", r.min)
                    .arg("max", r.max),
            );
        }
    }
    // BSOP 38: high limit never asks less than mid limit.
    if p.min_stay_high_min < p.min_stay_mid_min {
        e.add("min_stay_high_min", "err-profile-high-below-mid");
    }
    check_push(p, &mut e);
    e.into_result(())
}

/// The dealers' push rules: each count and length in its range, and a break within a night.
fn check_push(p: &RuleProfile, e: &mut Errors) {
    let mut in_range = true;
    // The down and the break are checked (with their own messages) by the rules below.
    for (r, v) in PUSH_RANGES[2..]
        .iter()
        .zip([p.push_break_after_downs, p.push_break_after_min])
    {
        if !(r.min..=r.max).contains(&v) {
            in_range = false;
            e.push(
                FieldError::new(r.field, "err-range")
                    .arg("min", r.min)
                    .arg("max", r.max),
            );
        }
    }
    if !in_range {
        return;
    }
    if let Err(v) = p.push_rules().check() {
        for f in v {
            let field = match f.field.as_str() {
                "down_min" => "push_down_min",
                "break_min" => "push_break_min",
                _ => "push_break_after_downs",
            };
            e.push(FieldError {
                field: field.to_string(),
                ..f
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn seed_defaults_are_valid_for_both_profiles() {
        for k in ProfileKind::ALL {
            let p = RuleProfile::defaults(*k);
            assert_eq!(validate_profile(&p), Ok(()));
            assert_eq!(p.min_players_to_run, 4); // PT-2007 24
            assert_eq!(p.absence_limit_min, 15); // BSOP 36
            assert_eq!(p.missed_bb_before_removal, 2); // BSOP 36
            assert_eq!(p.min_stay_high_min, 120); // BSOP 38
            assert_eq!(p.min_stay_mid_min, 60); // BSOP 38
            assert_eq!(p.late_seat_window_min, 30); // PT-2007 7b
        }
        assert!(RuleProfile::defaults(ProfileKind::PtCasino).join_at_average_stack); // PT-2007 28
        assert!(!RuleProfile::defaults(ProfileKind::Bsop).missed_blinds_dead); // BSOP 39
    }

    #[test]
    fn pt2007_7b_session_percent_outside_5_to_20_is_refused() {
        let mut p = RuleProfile::defaults(ProfileKind::PtCasino);
        p.session_percent_bp = 2100;
        let err = validate_profile(&p).unwrap_err();
        assert_eq!(err.len(), 1);
        assert_eq!(err[0].field, "session_percent_bp");
        p.session_percent_bp = 499;
        assert!(validate_profile(&p).is_err());
        p.session_percent_bp = 500;
        assert!(validate_profile(&p).is_ok());
        p.session_percent_bp = 2000;
        assert!(validate_profile(&p).is_ok());
    }

    #[test]
    fn pt2007_7a_rake_over_5_percent_is_refused() {
        let mut p = RuleProfile::defaults(ProfileKind::Bsop);
        p.rake_percent_bp = 501;
        assert_eq!(
            validate_profile(&p).unwrap_err()[0].field,
            "rake_percent_bp"
        );
    }

    proptest! {
        /// Every field is accepted exactly inside its range.
        #[test]
        fn each_field_accepted_iff_within_range(i in 0usize..RANGES.len(), v in -100i32..3000) {
            let mut p = RuleProfile::defaults(ProfileKind::Bsop);
            let r = &RANGES[i];
            let slot = match r.field {
                "min_players_to_run" => &mut p.min_players_to_run,
                "suspension_grace_min" => &mut p.suspension_grace_min,
                "absence_limit_min" => &mut p.absence_limit_min,
                "missed_bb_before_removal" => &mut p.missed_bb_before_removal,
                "return_window_min" => &mut p.return_window_min,
                "min_stay_mid_min" => &mut p.min_stay_mid_min,
                "min_stay_high_min" => &mut p.min_stay_high_min,
                "rake_percent_bp" => &mut p.rake_percent_bp,
                "session_percent_bp" => &mut p.session_percent_bp,
                "session_length_min" => &mut p.session_length_min,
                "late_seat_window_min" => &mut p.late_seat_window_min,
                "seat_call_response_min" => &mut p.seat_call_response_min,
                "call_in_expiry_min" => &mut p.call_in_expiry_min,
                "seat_call_ack_escalation_min" => &mut p.seat_call_ack_escalation_min,
                "remote_max_lists" => &mut p.remote_max_lists,
                "pref_max_passes" => &mut p.pref_max_passes,
                other => panic!("unknown field {other}"),
            };
            *slot = v;
            let in_range = v >= r.min && v <= r.max;
            let res = validate_profile(&p);
            let field_refused = res.as_ref().err().map(|es| es.iter().any(|e| e.field == r.field && e.key == "err-range")).unwrap_or(false);
            prop_assert_eq!(field_refused, !in_range);
        }
    }
}
