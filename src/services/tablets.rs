//! Dealer tablets: pairing a tablet with a table, revoking it, and the device it signs in as.
//!
//! An unpaired tablet asks for a short code (shown in large type) and keeps a secret only it
//! knows. A floor manager or admin enters the code and picks the table; the tablet, polling
//! with its secret, then collects a signed device token (tablet id + token version). A
//! revoked tablet (or one whose version changed) is refused on its next request.
//!
//! The same code may instead be paired as the desk's kiosk (`services::kiosks`);
//! the pairing then names the kiosk (`kiosk_id`) and the device collects a kiosk token.

use crate::db::audit::{self};
use crate::db::models::{KioskRow, TabletRow};
use crate::db::schema::{card_tables, tablet_pairings, tablets};
use crate::db::{next_seq, DbConn};
use crate::domain::ids::TableId;
use crate::domain::refusal::TabletRefusal;
use crate::domain::FieldError;
use crate::error::{AppError, AppResult};
use crate::services::pairing::{device_rows, open_pairing, CODE_LEN};
use crate::services::Act;
use chrono::{DateTime, Duration, Utc};
use diesel::prelude::*;

pub use crate::services::pairing::{
    display_code, normalize_code, pairing, start_pairing, CODE_VALID_MIN,
};

/// A floor manager (or admin) pairs the tablet showing `code` with a table.
pub fn pair(
    conn: &mut DbConn,
    act: &Act,
    code: &str,
    table_id: TableId,
    label: &str,
) -> AppResult<TabletRow> {
    let (now, actor) = (act.now, &act.actor);
    let code = normalize_code(code);
    let label = label.trim();
    let mut errs = Vec::new();
    if code.len() != CODE_LEN {
        errs.push(FieldError::new("code", "err-pairing-code-format").arg("len", CODE_LEN));
    }
    if label.chars().count() > 40 {
        errs.push(FieldError::new("label", "err-too-long").arg("max", 40));
    }
    let table_number: Option<i32> = card_tables::table
        .find(table_id)
        .select(card_tables::number)
        .first(conn)
        .optional()?;
    if table_number.is_none() {
        errs.push(FieldError::new("table_id", "err-table-unknown"));
    }
    if !errs.is_empty() {
        return Err(AppError::Validation(errs));
    }
    let p = open_pairing(conn, now, &code)?;
    let number = table_number.unwrap_or_default();
    let row = TabletRow {
        id: next_seq(conn, "tablet")?,
        table_id,
        label: if label.is_empty() {
            format!("{number}")
        } else {
            label.to_string()
        },
        token_version: 1,
        paired_at: now.naive_utc(),
        paired_by: actor.id,
        revoked_at: None,
        revoked_by: None,
        last_seen_at: None,
    };
    diesel::insert_into(tablets::table)
        .values(&row)
        .execute(conn)?;
    let n = diesel::update(
        tablet_pairings::table
            .find(&p.code)
            .filter(tablet_pairings::tablet_id.is_null())
            .filter(tablet_pairings::kiosk_id.is_null()),
    )
    .set(tablet_pairings::tablet_id.eq(Some(row.id)))
    .execute(conn)?;
    if n != 1 {
        return Err(AppError::field("code", "err-pairing-code-used"));
    }
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "tablet.pair",
        "tablet",
        Some(row.id),
        None,
        Some(&row),
    )?;
    Ok(row)
}

/// What a pairing code was paired as.
#[derive(Debug, Clone)]
pub enum Paired {
    Tablet(TabletRow),
    /// The desk's kiosk.
    Kiosk(KioskRow),
}

/// The device collects its token once: the pairing is then used up. `kiosk_ok`: the caller
/// can hand a kiosk its token (the pages can; the tablet API, whose answer is a dealer
/// tablet's, cannot — a kiosk pairing is then refused there and left for the page).
pub fn collect(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    code: &str,
    secret: &str,
    kiosk_ok: bool,
) -> AppResult<Option<Paired>> {
    let Some(p) = pairing(conn, now, code, secret)? else {
        return Err(TabletRefusal::PairingExpired.into());
    };
    if p.collected_at.is_some() {
        return Err(TabletRefusal::PairingExpired.into());
    }
    let paired = match (p.tablet_id, p.kiosk_id) {
        (Some(id), _) => {
            let t = get(conn, id)?;
            if t.revoked_at.is_some() {
                return Err(TabletRefusal::TabletRevoked.into());
            }
            Paired::Tablet(t)
        }
        (None, Some(_)) if !kiosk_ok => return Err(TabletRefusal::PairingKiosk.into()),
        (None, Some(id)) => {
            let k = crate::services::kiosks::get(conn, id)?;
            if k.revoked_at.is_some() {
                return Err(TabletRefusal::KioskRevoked.into());
            }
            Paired::Kiosk(k)
        }
        (None, None) => return Ok(None),
    };
    diesel::update(tablet_pairings::table.find(&p.code))
        .set(tablet_pairings::collected_at.eq(Some(now.naive_utc())))
        .execute(conn)?;
    Ok(Some(paired))
}

device_rows!(tablets, TabletRow, "tablet", TabletRefusal::TabletRevoked);

/// Revokes a tablet (audited `tablet.revoke`): its device token stops working at once and its
/// open stream ends.
pub fn revoke(conn: &mut DbConn, act: &Act, id: i64) -> AppResult<TabletRow> {
    let now = act.now;
    let (before, after) = revoke_row(conn, act, id)?;
    crate::services::floor::emit(
        conn,
        now,
        Some(before.table_id),
        "tablet.revoked",
        &serde_json::json!({ "tablet_id": id }),
    )?;
    Ok(after)
}

/// Tablets still paired, each with its table's number, by table.
pub fn list(conn: &mut DbConn) -> AppResult<Vec<(TabletRow, i32)>> {
    Ok(tablets::table
        .inner_join(card_tables::table)
        .filter(tablets::revoked_at.is_null())
        .order((card_tables::number.asc(), tablets::id.asc()))
        .select((TabletRow::as_select(), card_tables::number))
        .load(conn)?)
}
