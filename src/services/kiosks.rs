//! Tablets paired as the desk's kiosk. The pairing is a dealer tablet's
//! (`services::tablets`: a code shown on the device, entered by the floor on `/floor/tablets`);
//! the floor picks "desk kiosk" instead of a table and gives it a name. The device then holds a
//! kiosk token (`TokenKind::Kiosk`: kiosk id + token version) that opens `/kiosk` only; revoking
//! the kiosk moves its version on, so the token is refused at once and the device shows the
//! pairing screen again.

use crate::db::audit::{self};
use crate::db::models::KioskRow;
use crate::db::schema::{kiosks, tablet_pairings};
use crate::db::{next_seq, DbConn};
use crate::domain::FieldError;
use crate::error::{AppError, AppResult};
use crate::services::pairing::{normalize_code, open_pairing, CODE_LEN};
use crate::services::Act;
use chrono::{DateTime, Duration, Utc};
use diesel::prelude::*;

/// The longest name a kiosk may have (as a tablet's).
pub const LABEL_MAX: usize = 40;

/// A floor manager (or admin) pairs the device showing `code` as a desk kiosk, audited
/// (`kiosk.pair`). An empty name becomes "Kiosk N".
pub fn pair(conn: &mut DbConn, act: &Act, code: &str, label: &str) -> AppResult<KioskRow> {
    let (now, actor) = (act.now, &act.actor);
    let code = normalize_code(code);
    let label = label.trim();
    let mut errs = Vec::new();
    if code.len() != CODE_LEN {
        errs.push(FieldError::new("code", "err-pairing-code-format").arg("len", CODE_LEN));
    }
    if label.chars().count() > LABEL_MAX {
        errs.push(FieldError::new("label", "err-too-long").arg("max", LABEL_MAX));
    }
    if !errs.is_empty() {
        return Err(AppError::Validation(errs));
    }
    let p = open_pairing(conn, now, &code)?;
    let id = next_seq(conn, "kiosk")?;
    let row = KioskRow {
        id,
        label: if label.is_empty() {
            format!("Kiosk {id}")
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
    diesel::insert_into(kiosks::table)
        .values(&row)
        .execute(conn)?;
    // The code is used up by this kiosk unless another pairing took it meanwhile.
    let n = diesel::update(
        tablet_pairings::table
            .find(&p.code)
            .filter(tablet_pairings::tablet_id.is_null())
            .filter(tablet_pairings::kiosk_id.is_null()),
    )
    .set(tablet_pairings::kiosk_id.eq(Some(row.id)))
    .execute(conn)?;
    if n != 1 {
        return Err(AppError::field("code", "err-pairing-code-used"));
    }
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "kiosk.pair",
        "kiosk",
        Some(row.id),
        None,
        Some(&row),
    )?;
    Ok(row)
}

crate::services::pairing::device_rows!(
    kiosks,
    KioskRow,
    "kiosk",
    crate::domain::refusal::TabletRefusal::KioskRevoked
);

/// Revokes a kiosk (audited `kiosk.revoke`): its token stops working at once and the device
/// shows the pairing screen again.
pub fn revoke(conn: &mut DbConn, act: &Act, id: i64) -> AppResult<KioskRow> {
    revoke_row(conn, act, id).map(|(_, after)| after)
}

/// Kiosks still paired, oldest first.
pub fn list(conn: &mut DbConn) -> AppResult<Vec<KioskRow>> {
    Ok(kiosks::table
        .filter(kiosks::revoked_at.is_null())
        .order(kiosks::id.asc())
        .select(KioskRow::as_select())
        .load(conn)?)
}
