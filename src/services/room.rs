//! The room: name, time zone, currency, language, the screens' theme, how a seat call is
//! announced on the tablets, how late a tablet's tap may arrive, and the rule profile.

use crate::db::audit::{self, Actor};
use crate::db::models::RoomRow;
use crate::db::schema::room;
use crate::db::DbConn;
use crate::domain::call_alert::CallAlert;
use crate::domain::error::Errors;
use crate::domain::money::{minor_digits, CURRENCIES};
use crate::domain::player::Language;
use crate::domain::profile::{
    self as rules, validate_profile, ProfileKind, RuleProfile, SettingChange,
};
use crate::domain::theme::Theme;
use crate::domain::FieldError;
use crate::error::{AppError, AppResult};
use crate::services::Act;
use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use diesel::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The room as the rest of the code uses it.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Room {
    pub name: String,
    /// IANA zone, e.g. Europe/Lisbon, America/Sao_Paulo, Asia/Macau.
    pub timezone: String,
    /// ISO 4217: EUR, BRL, MOP, HKD…
    pub currency: String,
    pub default_language: Language,
    pub profile: RuleProfile,
    /// Night mode: the theme of the tablets, the floor board and the lobby screen (a device
    /// may choose its own).
    pub theme: Theme,
    /// How a seat call arriving on a dealer's tablet is announced: a chime and a vibration
    /// (sound), a vibration only, or neither (each tablet may also mute itself for a while).
    pub call_alert: CallAlert,
    /// How late (seconds) a tablet's tap made offline may arrive and still apply (0-900).
    pub tap_late_max_s: i32,
    #[serde(skip)]
    #[schema(ignore)]
    pub tz: Tz,
}

/// What the admin sends to change the room.
#[derive(Debug, Clone, Deserialize, Serialize, utoipa::ToSchema)]
pub struct RoomUpdate {
    #[schema(min_length = 1, max_length = 80, pattern = r"\S")]
    pub name: String,
    /// An IANA time zone, e.g. Europe/Lisbon, America/Sao_Paulo, Asia/Macau.
    pub timezone: String,
    pub currency: String,
    pub default_language: Language,
    pub profile: RuleProfile,
    /// The screens' theme; absent: unchanged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub theme: Option<Theme>,
    /// How a seat call is announced on the tablets; absent: unchanged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_alert: Option<CallAlert>,
    /// How late (seconds, 0-900) a tablet's tap made offline may arrive and still apply;
    /// absent: unchanged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 0, maximum = 900)]
    pub tap_late_max_s: Option<i32>,
}

impl RoomUpdate {
    /// The room as it is, every member given (the base a patch applies to).
    pub fn of(room: &Room) -> RoomUpdate {
        RoomUpdate {
            name: room.name.clone(),
            timezone: room.timezone.clone(),
            currency: room.currency.clone(),
            default_language: room.default_language,
            profile: room.profile.clone(),
            theme: Some(room.theme),
            call_alert: Some(room.call_alert),
            tap_late_max_s: Some(room.tap_late_max_s),
        }
    }
}

/// The members a whole room (`PUT`) must give: the room's own and every setting of its
/// profile. A member left out is refused, each one named (`profile.` before a setting),
/// never reset to a default; the screens' settings (`theme`, `call_alert`,
/// `tap_late_max_s`) may be left out and are then kept.
pub fn check_whole(body: &Value) -> Result<(), Vec<FieldError>> {
    let Some(given) = body.as_object() else {
        // Not an object: the reading of the body says so.
        return Ok(());
    };
    let mut e = Errors::default();
    for name in [
        "name",
        "timezone",
        "currency",
        "default_language",
        "profile",
    ] {
        if !given.contains_key(name) {
            e.add(name, "err-required");
        }
    }
    if let Some(Value::Object(profile)) = given.get("profile") {
        for name in rules::missing_settings(profile) {
            e.add(&format!("profile.{name}"), "err-profile-setting-missing");
        }
    }
    e.into_result(())
}

/// The members of the room a patch may name (`Room` as `GET /api/v1/room` shows it).
const MEMBERS: &[&str] = &[
    "name",
    "timezone",
    "currency",
    "default_language",
    "profile",
    "theme",
    "call_alert",
    "tap_late_max_s",
];

/// A JSON merge patch (RFC 7396) of the room: each member named takes the value given
/// (`profile` is merged setting by setting, `domain::profile::merge_patch`), every other
/// keeps its own. A member that is none of the room's, a `null` (nothing can be removed) or a
/// value of the wrong type is refused naming it, each one; the result is then checked as a
/// whole room is ([`validate`]).
pub fn apply_patch(room: &Room, patch: &Map<String, Value>) -> Result<RoomUpdate, Vec<FieldError>> {
    let base = RoomUpdate::of(room);
    let base_doc = match serde_json::to_value(&base) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    };
    let mut merged = base_doc.clone();
    let mut profile = Ok(room.profile.clone());
    let mut e = Errors::default();
    for (name, value) in patch {
        if !MEMBERS.contains(&name.as_str()) {
            e.push(FieldError::new(name, "err-unknown-setting").arg("setting", name));
        } else if value.is_null() {
            e.add(name, "err-setting-null");
        } else if name == "profile" {
            profile = match value {
                Value::Object(p) => rules::merge_patch(&room.profile, p, "profile."),
                _ => Err(vec![FieldError::new(name, "err-field-type")
                    .arg("detail", "expected an object of settings")]),
            };
        } else {
            let mut alone = base_doc.clone();
            alone.insert(name.clone(), value.clone());
            match serde_json::from_value::<RoomUpdate>(Value::Object(alone)) {
                Ok(_) => {
                    merged.insert(name.clone(), value.clone());
                }
                Err(err) => e.push(rules::value_refused(name, &err)),
            }
        }
    }
    if let Err(fields) = &profile {
        for f in fields {
            e.push(f.clone());
        }
    }
    let profile = match (e.is_empty(), profile) {
        (true, Ok(p)) => p,
        _ => return Err(e.0),
    };
    let mut u: RoomUpdate = serde_json::from_value(Value::Object(merged))
        .map_err(|err| vec![rules::value_refused("", &err)])?;
    u.profile = profile;
    validate(&u)?;
    Ok(u)
}

/// Changes some of the room's settings (`PATCH /api/v1/room`, and the admin page's switch of
/// the rule profile): [`apply_patch`] to the room as it is in this transaction, then saved
/// and audited as a whole update is. A patch that changes nothing writes nothing.
pub fn patch(conn: &mut DbConn, act: &Act, patch: &Map<String, Value>) -> AppResult<Room> {
    let room = get(conn)?;
    let u = apply_patch(&room, patch)?;
    let unchanged =
        serde_json::to_value(&u).ok() == serde_json::to_value(RoomUpdate::of(&room)).ok();
    if unchanged {
        return Ok(room);
    }
    update(conn, act, &u)
}

/// What switching the room to the rule profile `to` could change: its settings whose value
/// differs from `to`'s seed defaults (each applied only if the admin confirms it).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct ProfileSwitch {
    /// The rule profile the room follows now.
    pub from: ProfileKind,
    /// The rule profile switched to.
    pub to: ProfileKind,
    /// Each setting that differs, with the room's value and `to`'s default (empty: switching
    /// changes only the profile's name).
    pub changes: Vec<SettingChange>,
}

pub fn profile_switch(room: &Room, to: ProfileKind) -> ProfileSwitch {
    ProfileSwitch {
        from: room.profile.kind,
        to,
        changes: rules::differences(&room.profile, to),
    }
}

fn from_row(r: RoomRow) -> AppResult<Room> {
    let tz: Tz = r
        .timezone
        .parse()
        .map_err(|_| AppError::internal(format!("stored time zone {}", r.timezone)))?;
    let profile = RuleProfile::from_stored(&r.profile)
        .map_err(|e| AppError::internal_from("stored profile", e))?;
    Ok(Room {
        name: r.name,
        timezone: r.timezone,
        currency: r.currency,
        default_language: r.default_language.parse().unwrap_or(Language::Pt),
        profile,
        theme: r.theme.parse().unwrap_or_default(),
        call_alert: r.call_alert.parse().unwrap_or_default(),
        tap_late_max_s: r.tap_late_max_s,
        tz,
    })
}

/// The room. Inside a write, read once per transaction (`db::tail::remembered_room`: a
/// group-commit batch of floor writes reads it once, not once per write).
pub fn get(conn: &mut DbConn) -> AppResult<Room> {
    if let Some(room) = crate::db::tail::remembered_room::<Room>(conn) {
        return Ok(room);
    }
    let row: RoomRow = crate::native!(conn, |c| room::table
        .find(1i64)
        .select(RoomRow::as_select())
        .first(c))?;
    let room = from_row(row)?;
    crate::db::tail::remember_room(conn, &room);
    Ok(room)
}

/// Creates the room on the very first start (Lisbon, euros, `pt-casino`), if absent.
pub fn ensure(conn: &mut DbConn, now: DateTime<Utc>) -> AppResult<()> {
    if room::table.find(1i64).count().get_result::<i64>(conn)? > 0 {
        return Ok(());
    }
    let row = RoomRow {
        id: 1,
        name: "Cardroom".into(),
        timezone: "Europe/Lisbon".into(),
        currency: "EUR".into(),
        default_language: "pt".into(),
        profile: serde_json::to_string(&RuleProfile::defaults(ProfileKind::PtCasino))
            .unwrap_or_default(),
        updated_at: now.naive_utc(),
        theme: Theme::default().to_string(),
        call_alert: CallAlert::default().to_string(),
        tap_late_max_s: crate::domain::tap::LATE_DEFAULT_S,
    };
    diesel::insert_into(room::table)
        .values(&row)
        .execute(conn)?;
    audit::record::<(), _>(
        conn,
        now,
        &Actor::system(),
        "room.create",
        "room",
        Some(1),
        None,
        Some(&row),
    )?;
    Ok(())
}

pub fn validate(u: &RoomUpdate) -> Result<Tz, Vec<FieldError>> {
    let mut e = Errors::default();
    let name = u.name.trim();
    if name.is_empty() {
        e.add("name", "err-required");
    } else if name.chars().count() > 80 {
        e.push(FieldError::new("name", "err-too-long").arg("max", 80));
    }
    let tz = u.timezone.trim().parse::<Tz>().ok();
    if tz.is_none() {
        e.add("timezone", "err-timezone");
    }
    if minor_digits(&u.currency).is_none() {
        e.push(FieldError::new("currency", "err-currency").arg("list", CURRENCIES.join(", ")));
    }
    if u.tap_late_max_s
        .is_some_and(|s| !crate::domain::tap::valid_late_max(s))
    {
        e.push(
            FieldError::new("tap_late_max_s", "err-range")
                .arg("min", 0)
                .arg("max", crate::domain::tap::LATE_MAX_S),
        );
    }
    if let Err(fields) = validate_profile(&u.profile) {
        for f in fields {
            e.push(f);
        }
    }
    e.into_result(tz.unwrap_or(chrono_tz::UTC))
}

pub fn update(conn: &mut DbConn, act: &Act, u: &RoomUpdate) -> AppResult<Room> {
    let (now, actor) = (act.now, &act.actor);
    validate(u)?;
    crate::db::tail::forget_room(conn);
    let before: RoomRow = room::table
        .find(1i64)
        .select(RoomRow::as_select())
        .first(conn)?;
    let after = RoomRow {
        id: 1,
        name: u.name.trim().to_string(),
        timezone: u.timezone.trim().to_string(),
        currency: u.currency.clone(),
        default_language: u.default_language.to_string(),
        profile: serde_json::to_string(&u.profile)
            .map_err(|e| AppError::internal_from("the profile as JSON", e))?,
        updated_at: now.naive_utc(),
        theme: match u.theme {
            Some(t) => t.to_string(),
            None => before.theme.clone(),
        },
        call_alert: match u.call_alert {
            Some(a) => a.to_string(),
            None => before.call_alert.clone(),
        },
        tap_late_max_s: u.tap_late_max_s.unwrap_or(before.tap_late_max_s),
    };
    diesel::update(room::table.find(1i64))
        .set(&after)
        .execute(conn)?;
    audit::record(
        conn,
        now,
        actor,
        "room.update",
        "room",
        Some(1),
        Some(&before),
        Some(&after),
    )?;
    from_row(after)
}

/// The profile a kind starts from (the admin page's "reset to seed defaults").
pub fn profile_defaults(kind: ProfileKind) -> RuleProfile {
    RuleProfile::defaults(kind)
}
