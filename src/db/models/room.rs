//! The room, its staff and their sessions, the audit trail, live events and idempotent writes.

use crate::db::schema::*;
use crate::domain::ids::TableId;
use chrono::NaiveDateTime;
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
    /// `domain::theme::Theme`: light, dark or auto.
    pub theme: String,
    /// `domain::call_alert::CallAlert`: sound, vibrate or off.
    pub call_alert: String,
    /// How late (seconds) a tablet's tap made offline may reach the server and still apply.
    pub tap_late_max_s: i32,
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
    pub throttle_key: String,
    pub failures: i32,
    pub last_failure: NaiveDateTime,
    pub not_before: Option<NaiveDateTime>,
}

/// One sign-in: a page session or an API token. The token carries `id`.
#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = staff_sessions)]
pub struct SessionRow {
    pub id: String,
    pub staff_id: i64,
    /// `web` or `api`.
    pub kind: String,
    pub created_at: NaiveDateTime,
    pub expires_at: NaiveDateTime,
    pub last_seen_at: NaiveDateTime,
    pub user_agent: String,
    pub address: String,
    pub ended_at: Option<NaiveDateTime>,
    pub end_reason: Option<String>,
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

#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = events)]
pub struct EventRow {
    pub seq: i64,
    pub at: NaiveDateTime,
    pub table_id: Option<TableId>,
    pub kind: String,
    pub payload: String,
}

/// A request's idempotency key and, once stored, its answer (`web::idempotency`).
#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = idempotency_keys)]
pub struct IdempotencyRow {
    pub scope: String,
    pub idem_key: String,
    pub request_hash: String,
    pub created_at: NaiveDateTime,
    pub status: Option<i32>,
    pub content_type: Option<String>,
    pub location: Option<String>,
    pub set_cookie: Option<String>,
    pub body: Option<Vec<u8>>,
    pub body_dropped: bool,
}
