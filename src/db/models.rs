//! Rows as stored. Times are UTC (`NaiveDateTime` in UTC); money is integer minor units.

use super::schema::*;
use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;
use serde::Serialize;

#[derive(Debug, Clone, Queryable, Selectable, Insertable, AsChangeset, Serialize)]
#[diesel(table_name = room)]
pub struct RoomRow {
    pub id: i64,
    pub name: String,
    pub timezone: String,
    pub currency: String,
    pub default_language: String,
    pub profile: String,
    pub updated_at: NaiveDateTime,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = staff)]
pub struct StaffRow {
    pub id: i64,
    pub username: String,
    pub display_name: String,
    pub role: String,
    #[serde(skip)]
    pub password_hash: String,
    pub active: bool,
    pub language: Option<String>,
    #[serde(skip)]
    pub token_version: i32,
    /// Signed in with a one-time password: must choose a new one before anything else.
    pub must_change_password: bool,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = login_throttle)]
pub struct ThrottleRow {
    pub username: String,
    pub failures: i32,
    pub window_start: NaiveDateTime,
    pub locked_until: Option<NaiveDateTime>,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable, AsChangeset, Serialize)]
#[diesel(table_name = players, treat_none_as_null = true)]
pub struct PlayerRow {
    pub id: i64,
    pub full_name: String,
    pub alias: String,
    pub date_of_birth: NaiveDate,
    pub doc_kind: String,
    pub doc_number: String,
    #[serde(skip)]
    pub doc_number_norm: String,
    pub doc_country: String,
    pub doc_expiry: NaiveDate,
    pub phone: Option<String>,
    pub email: Option<String>,
    pub language: String,
    pub notify: String,
    pub has_photo: bool,
    #[serde(skip)]
    pub search_key: String,
    #[serde(skip)]
    pub link_token_version: i32,
    pub version: i32,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = player_photos)]
pub struct PhotoRow {
    pub player_id: i64,
    pub content_type: String,
    pub data: Vec<u8>,
    pub width: i32,
    pub height: i32,
    pub updated_at: NaiveDateTime,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = exclusions)]
pub struct ExclusionRow {
    pub id: i64,
    pub player_id: i64,
    pub reason: String,
    pub starts_at: NaiveDateTime,
    pub ends_at: Option<NaiveDateTime>,
    /// None: done by the system.
    pub created_by: Option<i64>,
    pub created_at: NaiveDateTime,
    pub lifted_at: Option<NaiveDateTime>,
    pub lifted_by: Option<i64>,
    pub lift_reason: Option<String>,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = separations)]
pub struct SeparationRow {
    pub id: i64,
    pub player_a: i64,
    pub player_b: i64,
    pub reason: String,
    /// None: done by the system.
    pub created_by: Option<i64>,
    pub created_at: NaiveDateTime,
    pub removed_at: Option<NaiveDateTime>,
    pub removed_by: Option<i64>,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable, AsChangeset, Serialize)]
#[diesel(table_name = games, treat_none_as_null = true)]
pub struct GameRow {
    pub id: i64,
    pub name: String,
    pub variant: String,
    pub small_blind: i64,
    pub big_blind: i64,
    pub limit_class: String,
    pub buy_in_min: i64,
    pub buy_in_max: Option<i64>,
    pub seats: i32,
    pub cagnotte_mode: String,
    pub cagnotte_bp: i32,
    pub active: bool,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable, AsChangeset, Serialize)]
#[diesel(table_name = card_tables, treat_none_as_null = true)]
pub struct TableRow {
    pub id: i64,
    pub number: i32,
    pub seats: i32,
    pub game_id: Option<i64>,
    pub mode: String,
    pub state: String,
    pub active: bool,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = audit_log)]
pub struct AuditRow {
    pub seq: i64,
    pub at: NaiveDateTime,
    pub actor_id: Option<i64>,
    pub actor_name: String,
    pub action: String,
    pub subject_kind: String,
    pub subject_id: Option<i64>,
    pub before_json: String,
    pub after_json: String,
    pub prev_hash: String,
    pub hash: String,
}
