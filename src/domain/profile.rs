//! The rule profile: every house-rule number later features read, with the seeds' defaults
//! and the ranges the seeds allow. Two profiles ship: `pt-casino` (PT-2007) and `bsop`.

use super::dealers::PushRules;
use super::enums::string_enum;
use super::error::{Errors, FieldError};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
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
///
/// Read from a request, every setting must be there (a whole profile replaces the stored one:
/// a setting left out is refused, never reset to a default); one setting at a time is
/// [`merge_patch`]. A stored profile of before a setting existed is read by
/// [`RuleProfile::from_stored`].
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
    pub join_at_average_session_only: bool,
    /// PT-2007 90: missed blinds are paid dead on return (else BSOP 39: post or wait for BB).
    pub missed_blinds_dead: bool,
    /// PT-ONL 18: no rake on a hand that ends pre-flop without a voluntary bet.
    pub no_flop_no_drop: bool,
    /// How many lists a player may join at once from their phone (a room stored
    /// before this setting existed reads the default).
    pub remote_max_lists: i32,
    /// How many offers of a seat a listed player who waits for a preferred seat
    /// may let go by, keeping their place, before they are called like anyone (PT-2007 12,
    /// BSOP 51: the list order itself never changes). Rooms saved before it have 2.
    pub pref_max_passes: i32,
    /// The dealers' push (`domain::dealers`): how long a down lasts, 10-90 minutes. Rooms
    /// stored before the setting read 30-minute downs, a 20-minute break after 3 downs.
    pub push_down_min: i32,
    /// How long a dealer's break lasts, 5-60 minutes.
    pub push_break_min: i32,
    /// A break is due after this many downs in a row, 0-24 (0: only the time rule).
    pub push_break_after_downs: i32,
    /// A break is due after this long dealing, 0-720 minutes (0: only the downs rule).
    pub push_break_after_min: i32,
    /// PT-2007 5, 9d: the dealers' tips are pooled and shared by hours dealt (else each
    /// down keeps its own tips box).
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

/// Every setting of the profile by its name in the API, in the profile's order (`kind`, the
/// rule profile followed, first).
pub const SETTINGS: &[&str] = &[
    "kind",
    "min_players_to_run",
    "suspension_grace_min",
    "absence_limit_min",
    "missed_bb_before_removal",
    "return_window_min",
    "min_stay_mid_min",
    "min_stay_high_min",
    "cagnotte_mode",
    "rake_percent_bp",
    "session_percent_bp",
    "session_length_min",
    "late_seat_window_min",
    "seat_call_response_min",
    "call_expiry",
    "call_in_expiry_min",
    "seat_call_ack_escalation_min",
    "join_at_average_stack",
    "join_at_average_session_only",
    "missed_blinds_dead",
    "no_flop_no_drop",
    "remote_max_lists",
    "pref_max_passes",
    "push_down_min",
    "push_break_min",
    "push_break_after_downs",
    "push_break_after_min",
    "tips_pooled",
];

/// The settings added after rooms were first stored: a stored profile without one reads its
/// seed default (the same in both profiles).
const ADDED_LATER: &[&str] = &[
    "join_at_average_session_only",
    "remote_max_lists",
    "pref_max_passes",
    "push_down_min",
    "push_break_min",
    "push_break_after_downs",
    "push_break_after_min",
    "tips_pooled",
];

impl RuleProfile {
    /// The profile as the room stores it: a profile stored before a setting existed reads
    /// that setting's seed default. (Only the stored profile: a request must send every
    /// setting.)
    pub fn from_stored(json: &str) -> Result<RuleProfile, serde_json::Error> {
        let mut stored: Value = serde_json::from_str(json)?;
        if let Value::Object(given) = &mut stored {
            let kind = given
                .get("kind")
                .and_then(Value::as_str)
                .and_then(|k| k.parse().ok())
                .unwrap_or(ProfileKind::PtCasino);
            let seed = RuleProfile::defaults(kind).to_map();
            for name in ADDED_LATER {
                if let (false, Some(v)) = (given.contains_key(*name), seed.get(*name)) {
                    given.insert((*name).to_string(), v.clone());
                }
            }
        }
        serde_json::from_value(stored)
    }

    /// The profile as a JSON object: each setting's name and value.
    pub fn to_map(&self) -> Map<String, Value> {
        match serde_json::to_value(self) {
            Ok(Value::Object(m)) => m,
            _ => Map::new(),
        }
    }
}

/// The settings a whole profile (as a `PUT` sends it) leaves out, in the profile's order.
pub fn missing_settings(given: &Map<String, Value>) -> Vec<&'static str> {
    SETTINGS
        .iter()
        .copied()
        .filter(|s| !given.contains_key(*s))
        .collect()
}

/// A JSON merge patch (RFC 7396) of the profile: each setting named takes the value given,
/// every other keeps its own; a patch naming only `kind` changes the rule profile followed
/// and nothing else. A name that is no setting, a `null` (a setting cannot be removed) or a
/// value of the wrong type is refused naming it (`path` before its name, e.g. `profile.`),
/// each one, and then nothing is applied. The ranges are [`validate_profile`]'s, checked on
/// the result by the caller as for a whole profile.
pub fn merge_patch(
    current: &RuleProfile,
    patch: &Map<String, Value>,
    path: &str,
) -> Result<RuleProfile, Vec<FieldError>> {
    let base = current.to_map();
    let mut merged = base.clone();
    let mut e = Errors::default();
    for (name, value) in patch {
        let field = format!("{path}{name}");
        if !SETTINGS.contains(&name.as_str()) {
            e.push(FieldError::new(&field, "err-unknown-setting").arg("setting", name));
            continue;
        }
        if value.is_null() {
            e.add(&field, "err-setting-null");
            continue;
        }
        // Each value read on its own (the others as they are), so each bad one is named.
        let mut alone = base.clone();
        alone.insert(name.clone(), value.clone());
        if let Err(err) = serde_json::from_value::<RuleProfile>(Value::Object(alone)) {
            e.push(value_refused(&field, &err));
            continue;
        }
        merged.insert(name.clone(), value.clone());
    }
    if !e.is_empty() {
        return Err(e.0);
    }
    serde_json::from_value(Value::Object(merged))
        .map_err(|err| vec![value_refused(path.trim_end_matches('.'), &err)])
}

/// A value that does not read as its field's type, said as the JSON API says it: a choice
/// not offered, a number that is not a whole number in range, any other type.
pub fn value_refused(field: &str, err: &serde_json::Error) -> FieldError {
    let detail = err.to_string();
    if let Some(rest) = detail.strip_prefix("unknown variant `") {
        let value = rest.split('`').next().unwrap_or_default();
        return FieldError::new(field, "err-choice").arg("value", value);
    }
    let number = detail.starts_with("invalid type: floating point")
        || detail.starts_with("invalid value: integer")
        || (detail.starts_with("invalid type: integer") && detail.contains("expected i"));
    if number {
        return FieldError::new(field, "err-number");
    }
    FieldError::new(field, "err-field-type").arg("detail", detail)
}

/// One setting whose value in the room differs from another profile's default.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct SettingChange {
    /// The setting's name, as in the profile.
    pub setting: String,
    /// Its value in the room now.
    pub now: Value,
    /// The other profile's seed default.
    pub default: Value,
}

/// What switching to the profile `to` could change: each setting (other than `kind`) whose
/// value now differs from `to`'s seed default, in the profile's order. Switching applies
/// only the ones the admin confirms.
pub fn differences(now: &RuleProfile, to: ProfileKind) -> Vec<SettingChange> {
    let (now, seed) = (now.to_map(), RuleProfile::defaults(to).to_map());
    SETTINGS[1..]
        .iter()
        .filter_map(|name| {
            let (a, b) = (now.get(*name)?, seed.get(*name)?);
            (a != b).then(|| SettingChange {
                setting: (*name).to_string(),
                now: a.clone(),
                default: b.clone(),
            })
        })
        .collect()
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
    use serde_json::json;

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

    fn obj(v: Value) -> Map<String, Value> {
        v.as_object().cloned().expect("an object")
    }

    #[test]
    fn the_settings_are_every_member_of_the_profile_once() {
        let names: std::collections::BTreeSet<&str> = SETTINGS.iter().copied().collect();
        assert_eq!(names.len(), SETTINGS.len(), "a setting named twice");
        let map = RuleProfile::defaults(ProfileKind::Bsop).to_map();
        let members: std::collections::BTreeSet<&str> = map.keys().map(String::as_str).collect();
        assert_eq!(names, members);
        assert!(ADDED_LATER.iter().all(|s| names.contains(s)));
        assert!(missing_settings(&map).is_empty());
    }

    #[test]
    fn a_stored_profile_of_before_a_setting_reads_its_seed_default_a_request_does_not() {
        for kind in ProfileKind::ALL {
            let seed = RuleProfile::defaults(*kind);
            // The later settings' seed defaults are the same in both profiles.
            let other = RuleProfile::defaults(ProfileKind::PtCasino).to_map();
            for name in ADDED_LATER {
                assert_eq!(seed.to_map()[*name], other[*name], "{name}");
            }
            let mut changed = seed.clone();
            changed.push_down_min = 40;
            changed.min_players_to_run = 6;
            let mut old = changed.to_map();
            for name in ADDED_LATER {
                old.remove(*name);
            }
            let stored = Value::Object(old.clone()).to_string();
            let read = RuleProfile::from_stored(&stored).unwrap();
            assert_eq!(read.min_players_to_run, 6, "kept as stored");
            assert_eq!(read.push_down_min, 30, "not stored: the seed default");
            assert_eq!(read.kind, *kind);
            // A whole profile from a client must name them all: no silent default.
            assert!(serde_json::from_value::<RuleProfile>(Value::Object(old.clone())).is_err());
            assert_eq!(missing_settings(&old), ADDED_LATER);
        }
        // A setting that is no later one is not made up for a stored profile either.
        let mut broken = RuleProfile::defaults(ProfileKind::Bsop).to_map();
        broken.remove("join_at_average_stack");
        assert!(RuleProfile::from_stored(&Value::Object(broken).to_string()).is_err());
    }

    #[test]
    fn pt2007_28_a_patch_of_one_setting_keeps_a_bsop_room_off_the_average_stack() {
        // A BSOP room: PT-2007 28 is off. A client changes the down's length only.
        let room = RuleProfile::defaults(ProfileKind::Bsop);
        assert!(!room.join_at_average_stack);
        let after = merge_patch(&room, &obj(json!({"push_down_min": 40})), "profile.").unwrap();
        assert_eq!(after.push_down_min, 40);
        let mut expected = room.clone();
        expected.push_down_min = 40;
        assert_eq!(after, expected, "only the setting named changes");
        assert!(!after.join_at_average_stack);
        // An empty patch changes nothing; several settings at once.
        assert_eq!(merge_patch(&room, &Map::new(), "").unwrap(), room);
        let after = merge_patch(
            &room,
            &obj(json!({"tips_pooled": true, "cagnotte_mode": "per_session"})),
            "",
        )
        .unwrap();
        assert!(after.tips_pooled);
        assert_eq!(after.cagnotte_mode, CagnotteMode::PerSession);
    }

    #[test]
    fn a_patch_naming_only_the_profile_changes_only_the_profile_followed() {
        let room = RuleProfile::defaults(ProfileKind::PtCasino);
        let after = merge_patch(&room, &obj(json!({"kind": "bsop"})), "").unwrap();
        assert_eq!(after.kind, ProfileKind::Bsop);
        assert_eq!(
            Value::Object({
                let mut m = after.to_map();
                m.insert("kind".into(), json!("pt-casino"));
                m
            }),
            Value::Object(room.to_map()),
            "every setting kept"
        );
    }

    #[test]
    fn a_patch_refuses_each_unknown_null_or_mistyped_setting_by_name_and_applies_none() {
        let room = RuleProfile::defaults(ProfileKind::Bsop);
        let patch = obj(json!({
            "push_down_min": 40,
            "join_at_avg": true,
            "tips_pooled": null,
            "min_players_to_run": "four",
            "remote_max_lists": 4_000_000_000_i64,
            "call_expiry": "forever",
            "kind": "vegas",
        }));
        let mut errs: Vec<(String, &str)> = merge_patch(&room, &patch, "profile.")
            .unwrap_err()
            .into_iter()
            .map(|f| (f.field, f.key))
            .collect();
        errs.sort();
        assert_eq!(
            errs,
            vec![
                ("profile.call_expiry".to_string(), "err-choice"),
                ("profile.join_at_avg".to_string(), "err-unknown-setting"),
                ("profile.kind".to_string(), "err-choice"),
                ("profile.min_players_to_run".to_string(), "err-field-type"),
                ("profile.remote_max_lists".to_string(), "err-number"),
                ("profile.tips_pooled".to_string(), "err-setting-null"),
            ]
        );
    }

    #[test]
    fn switching_pt_casino_to_bsop_differs_in_the_cagnotte_pt2007_28_and_dead_blinds() {
        let room = RuleProfile::defaults(ProfileKind::PtCasino);
        let d = differences(&room, ProfileKind::Bsop);
        let names: Vec<&str> = d.iter().map(|c| c.setting.as_str()).collect();
        assert_eq!(
            names,
            [
                "cagnotte_mode",
                "join_at_average_stack",
                "missed_blinds_dead"
            ]
        );
        assert_eq!((&d[1].now, &d[1].default), (&json!(true), &json!(false)));
        // The room's own values differ from its own profile's seeds too: a reset shows them.
        let mut own = room.clone();
        own.return_window_min = 90;
        let d = differences(&own, ProfileKind::PtCasino);
        assert_eq!(d.len(), 1);
        assert_eq!(
            (d[0].setting.as_str(), &d[0].now, &d[0].default),
            ("return_window_min", &json!(90), &json!(60))
        );
        assert!(differences(&room, ProfileKind::PtCasino).is_empty());
    }

    proptest! {
        /// Switching profiles with any choice of the differing rows confirmed: the profile
        /// followed changes, each confirmed setting takes the new default, every other keeps
        /// its value, and the result is still a valid profile.
        #[test]
        fn a_switch_applies_exactly_the_confirmed_defaults(
            from in 0usize..2,
            to in 0usize..2,
            return_window in 30i32..=240,
            pooled in any::<bool>(),
            confirm in proptest::collection::vec(any::<bool>(), 32),
        ) {
            let mut room = RuleProfile::defaults(ProfileKind::ALL[from]);
            room.return_window_min = return_window;
            room.tips_pooled = pooled;
            let to = ProfileKind::ALL[to];
            let diff = differences(&room, to);
            let mut patch = Map::new();
            patch.insert("kind".into(), json!(to.as_str()));
            for (c, yes) in diff.iter().zip(&confirm) {
                if *yes {
                    patch.insert(c.setting.clone(), c.default.clone());
                }
            }
            let after = merge_patch(&room, &patch, "profile.").unwrap();
            prop_assert_eq!(after.kind, to);
            prop_assert!(validate_profile(&after).is_ok());
            let (was, now, seed) = (room.to_map(), after.to_map(), RuleProfile::defaults(to).to_map());
            for name in &SETTINGS[1..] {
                let confirmed = diff.iter().zip(&confirm).any(|(c, yes)| *yes && c.setting == *name);
                let expected = if confirmed { &seed[*name] } else { &was[*name] };
                prop_assert_eq!(&now[*name], expected, "{}", name);
            }
        }

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
