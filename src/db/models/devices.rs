//! The table tablets, their pairing codes and the reception kiosks.

use crate::db::schema::*;
use crate::domain::ids::TableId;
use chrono::NaiveDateTime;
use diesel::prelude::*;
use serde::Serialize;

/// A dealer tablet paired with a table.
#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = tablets)]
pub struct TabletRow {
    pub id: i64,
    pub table_id: TableId,
    pub label: String,
    pub token_version: i32,
    pub paired_at: NaiveDateTime,
    pub paired_by: Option<i64>,
    pub revoked_at: Option<NaiveDateTime>,
    pub revoked_by: Option<i64>,
    pub last_seen_at: Option<NaiveDateTime>,
}

/// A pairing code shown on an unpaired tablet.
#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = tablet_pairings)]
pub struct TabletPairingRow {
    pub code: String,
    pub secret_hash: String,
    pub created_at: NaiveDateTime,
    pub expires_at: NaiveDateTime,
    pub tablet_id: Option<i64>,
    pub collected_at: Option<NaiveDateTime>,
    /// The code was paired as a desk kiosk (else `tablet_id`).
    pub kiosk_id: Option<i64>,
}

/// A tablet paired as the desk's kiosk (walk-ins join the lists on it).
#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = kiosks)]
pub struct KioskRow {
    pub id: i64,
    pub label: String,
    pub token_version: i32,
    pub paired_at: NaiveDateTime,
    pub paired_by: Option<i64>,
    pub revoked_at: Option<NaiveDateTime>,
    pub revoked_by: Option<i64>,
    pub last_seen_at: Option<NaiveDateTime>,
}
