//! Players, their photos, exclusions, separations and suspensions.

use crate::db::schema::*;
use crate::domain::ids::PlayerId;
use crate::domain::ids::TableId;
use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;
use serde::Serialize;

#[derive(Debug, Clone, Queryable, Selectable, Insertable, AsChangeset, Serialize)]
#[diesel(table_name = players, treat_none_as_null = true)]
pub struct PlayerRow {
    pub id: PlayerId,
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
    pub player_id: PlayerId,
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
    pub player_id: PlayerId,
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
    pub player_a: PlayerId,
    pub player_b: PlayerId,
    pub reason: String,
    /// None: done by the system.
    pub created_by: Option<i64>,
    pub created_at: NaiveDateTime,
    pub removed_at: Option<NaiveDateTime>,
    pub removed_by: Option<i64>,
}

/// PT-2007 24: a time a table was suspended.
#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = table_suspensions)]
pub struct SuspensionRow {
    pub id: i64,
    pub table_id: TableId,
    pub from_at: NaiveDateTime,
    pub to_at: Option<NaiveDateTime>,
}
