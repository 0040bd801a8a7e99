//! Pairing codes, shared by the two kinds of paired device (dealer tablets, `services::tablets`,
//! and desk kiosks, `services::kiosks`): the short code an unpaired device shows with the secret
//! it keeps, the pairing a typed code names, and the rows both kinds of device are read by.

use crate::db::models::TabletPairingRow;
use crate::db::schema::tablet_pairings;
use crate::db::{is_unique_violation, DbConn};
use crate::error::{AppError, AppResult};
use chrono::{DateTime, Duration, Utc};
use diesel::prelude::*;
use sha2::{Digest, Sha256};

/// How long a pairing code stays valid.
pub const CODE_VALID_MIN: i64 = 10;
/// Letters and digits that cannot be mistaken for each other when read across a table
/// (no 0/O, 1/I/L).
const CODE_ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";
pub(crate) const CODE_LEN: usize = 6;

fn hash(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

/// A typed code as stored: upper case, without spaces or dashes (the screen shows `ABC-DEF`).
pub fn normalize_code(typed: &str) -> String {
    typed
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_uppercase())
        .collect()
}

/// How a code is shown: two groups of three.
pub fn display_code(code: &str) -> String {
    if code.len() == CODE_LEN {
        format!("{}-{}", &code[..3], &code[3..])
    } else {
        code.to_string()
    }
}

fn random_code() -> String {
    use rand::Rng;
    let mut rng = rand::rng();
    (0..CODE_LEN)
        .map(|_| CODE_ALPHABET[rng.random_range(0..CODE_ALPHABET.len())] as char)
        .collect()
}

/// A new pairing code for an unpaired tablet, with the secret the tablet keeps.
pub fn start_pairing(
    conn: &mut DbConn,
    now: DateTime<Utc>,
) -> AppResult<(TabletPairingRow, String)> {
    // Expired codes are of no use to anyone: clear them as new ones are made.
    diesel::delete(tablet_pairings::table.filter(tablet_pairings::expires_at.lt(now.naive_utc())))
        .execute(conn)?;
    let secret = crate::auth::random_token(24);
    for _ in 0..20 {
        let row = TabletPairingRow {
            code: random_code(),
            secret_hash: hash(&secret),
            created_at: now.naive_utc(),
            expires_at: (now + Duration::minutes(CODE_VALID_MIN)).naive_utc(),
            tablet_id: None,
            collected_at: None,
            kiosk_id: None,
        };
        match diesel::insert_into(tablet_pairings::table)
            .values(&row)
            .execute(conn)
        {
            Ok(_) => return Ok((row, secret)),
            Err(e) if is_unique_violation(&e) => continue,
            Err(e) => return Err(e.into()),
        }
    }
    Err(AppError::Unavailable("no free pairing code".into()))
}

/// The pairing this tablet is waiting on, if its code and secret still match and it has
/// not expired.
pub fn pairing(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    code: &str,
    secret: &str,
) -> AppResult<Option<TabletPairingRow>> {
    let row: Option<TabletPairingRow> = tablet_pairings::table
        .find(normalize_code(code))
        .select(TabletPairingRow::as_select())
        .first(conn)
        .optional()?;
    Ok(row.filter(|r| {
        crate::auth::same_token(&r.secret_hash, &hash(secret))
            && (r.tablet_id.is_some() || r.kiosk_id.is_some() || r.expires_at.and_utc() > now)
    }))
}

/// The pairing a floor manager's typed code names, if it is still waiting to be paired (422
/// naming the code otherwise: unknown, used, expired). `code` is normalized.
pub(crate) fn open_pairing(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    code: &str,
) -> AppResult<TabletPairingRow> {
    let p: Option<TabletPairingRow> = tablet_pairings::table
        .find(code)
        .select(TabletPairingRow::as_select())
        .first(conn)
        .optional()?;
    match p {
        None => Err(AppError::field("code", "err-pairing-code-unknown")),
        Some(p) if p.tablet_id.is_some() || p.kiosk_id.is_some() => {
            Err(AppError::field("code", "err-pairing-code-used"))
        }
        Some(p) if p.expires_at.and_utc() <= now => {
            Err(AppError::field("code", "err-pairing-code-expired"))
        }
        Some(p) => Ok(p),
    }
}

/// What the two kinds of paired device have alike — dealer tablets (`tablets`) and desk
/// kiosks (`kiosks`): both rows carry `id`, `token_version`, `revoked_at`, `revoked_by` and
/// `last_seen_at`, and a device token names the row and its version. diesel has no generic
/// over the same columns of two tables, so this writes, in the module that names a table and
/// its row type: `get`, `active` (the row behind a token, if still paired with that version),
/// `seen` (the device's last request, written at most once a minute to keep writes rare) and
/// `revoke_row` (revoked, version moved on so every token of it is refused at once, audited
/// `<kind>.revoke`; returns the row before and after).
macro_rules! device_rows {
    ($table:ident, $Row:ty, $kind:literal, $revoked:expr) => {
        pub fn get(conn: &mut DbConn, id: i64) -> AppResult<$Row> {
            Ok($table::table
                .find(id)
                .select(<$Row>::as_select())
                .first(conn)?)
        }

        /// The device behind a token, if it is still paired with this token version.
        pub fn active(conn: &mut DbConn, id: i64, version: i32) -> AppResult<Option<$Row>> {
            let row: Option<$Row> = $table::table
                .find(id)
                .select(<$Row>::as_select())
                .first(conn)
                .optional()?;
            Ok(row.filter(|r| r.revoked_at.is_none() && r.token_version == version))
        }

        /// Records that the device was seen (at most once a minute, to keep writes rare).
        pub fn seen(conn: &mut DbConn, now: DateTime<Utc>, row: &$Row) -> AppResult<()> {
            if row
                .last_seen_at
                .is_none_or(|at| now.naive_utc() - at >= Duration::minutes(1))
            {
                diesel::update($table::table.find(row.id))
                    .set($table::last_seen_at.eq(Some(now.naive_utc())))
                    .execute(conn)?;
            }
            Ok(())
        }

        /// Revokes the device, audited: its token stops working at once. (before, after).
        fn revoke_row(conn: &mut DbConn, act: &Act, id: i64) -> AppResult<($Row, $Row)> {
            let (now, actor) = (act.now, &act.actor);
            let before = get(conn, id)?;
            if before.revoked_at.is_some() {
                return Err($revoked.into());
            }
            diesel::update($table::table.find(id))
                .set((
                    $table::revoked_at.eq(Some(now.naive_utc())),
                    $table::revoked_by.eq(actor.id),
                    $table::token_version.eq(before.token_version + 1),
                ))
                .execute(conn)?;
            let after = get(conn, id)?;
            audit::record(
                conn,
                now,
                actor,
                concat!($kind, ".revoke"),
                $kind,
                Some(id),
                Some(&before),
                Some(&after),
            )?;
            Ok((before, after))
        }
    };
}
pub(crate) use device_rows;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_read_back_whatever_the_typing() {
        assert_eq!(normalize_code(" abc-d2f "), "ABCD2F");
        assert_eq!(display_code("ABCD2F"), "ABC-D2F");
        let c = random_code();
        assert_eq!(c.len(), CODE_LEN);
        assert!(c.bytes().all(|b| CODE_ALPHABET.contains(&b)), "{c}");
        assert!(!c.contains('0') && !c.contains('O') && !c.contains('1') && !c.contains('I'));
    }
}
