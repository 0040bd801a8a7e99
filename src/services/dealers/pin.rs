//! A dealer's short PIN, for taking a table over at its tablet without the floor: the
//! relieving dealer picks their name and types the PIN; the push happens at that moment and
//! the tablet becomes theirs.
//!
//! A wrong PIN says only that it is wrong, whichever name was picked (a dealer without a PIN,
//! or a staff id that is no dealer, is answered the same, after the same hashing work).
//! Five wrong PINs in a row at one tablet stop it taking PINs for five minutes
//! ([`LOCK_AFTER`], [`LOCK_MINUTES`]); a right one starts the count over.

use super::roster::dealer;
use crate::auth::hash_password;
use crate::db::audit;
use crate::db::models::ThrottleRow;
use crate::db::schema::{login_throttle, staff};
use crate::db::DbConn;
use crate::domain::error::FieldError;
use crate::domain::refusal::DealerRefusal;
use crate::domain::staff::Role;
use crate::error::{AppError, AppResult};
use crate::services::Act;
use chrono::{DateTime, Duration, Utc};
use diesel::prelude::*;

/// Wrong PINs in a row that stop a tablet taking PINs.
pub const LOCK_AFTER: i32 = 5;
/// How long a tablet takes no PIN after [`LOCK_AFTER`] wrong ones.
pub const LOCK_MINUTES: i64 = 5;

fn key(tablet_id: i64) -> String {
    format!("pin:tablet:{tablet_id}")
}

/// A PIN is 4 to 6 digits.
pub fn check_format(pin: &str) -> Result<(), AppError> {
    let ok = (4..=6).contains(&pin.len()) && pin.bytes().all(|b| b.is_ascii_digit());
    if ok {
        Ok(())
    } else {
        Err(AppError::Validation(vec![FieldError::new(
            "pin",
            "err-dealer-pin-format",
        )]))
    }
}

/// A dealer sets their own PIN (argon2, like a password; the audit record keeps no trace of
/// it).
pub fn set_pin(conn: &mut DbConn, act: &Act, dealer_id: i64, pin: &str) -> AppResult<()> {
    check_format(pin)?;
    let d = dealer(conn, dealer_id)?;
    diesel::update(staff::table.find(d.id))
        .set(staff::relief_pin_hash.eq(Some(hash_password(pin))))
        .execute(conn)?;
    audit::record::<(), _>(
        conn,
        act.now,
        &act.actor,
        "dealer.pin_set",
        "staff",
        Some(d.id),
        None,
        Some(&serde_json::json!({ "pin": "set" })),
    )?;
    Ok(())
}

/// The PIN hash of active dealer `id` (none: no such dealer, or no PIN set).
pub fn pin_hash(conn: &mut DbConn, id: i64) -> AppResult<Option<String>> {
    Ok(staff::table
        .find(id)
        .filter(staff::role.eq(Role::Dealer.as_str()))
        .filter(staff::active.eq(true))
        .select(staff::relief_pin_hash)
        .first::<Option<String>>(conn)
        .optional()?
        .flatten())
}

/// Must this tablet wait before the next PIN? The refusal, with the seconds left.
pub fn locked(
    conn: &mut DbConn,
    tablet_id: i64,
    now: DateTime<Utc>,
) -> AppResult<Option<AppError>> {
    let row: Option<ThrottleRow> = login_throttle::table
        .find(key(tablet_id))
        .select(ThrottleRow::as_select())
        .first(conn)
        .optional()?;
    Ok(row
        .and_then(|r| r.not_before)
        .map(|t| t.and_utc())
        .filter(|t| *t > now)
        .map(|t| {
            AppError::TooManyRequests(
                DealerRefusal::PinLocked {
                    seconds: (t - now).num_seconds().max(1),
                }
                .into(),
            )
        }))
}

/// A wrong PIN at this tablet: counted (the fifth in a row locks it, audited as a security
/// event); the refusal to answer.
pub fn failed(conn: &mut DbConn, tablet_id: i64, now: DateTime<Utc>) -> AppResult<AppError> {
    let k = key(tablet_id);
    let before: Option<ThrottleRow> = login_throttle::table
        .find(&k)
        .select(ThrottleRow::as_select())
        .first(conn)
        .optional()?;
    // A lock that has run out, or an hour without a wrong PIN, starts a new count.
    let failures = match &before {
        Some(r)
            if r.not_before.is_none() && now - r.last_failure.and_utc() < Duration::minutes(60) =>
        {
            r.failures + 1
        }
        _ => 1,
    };
    let lock = (failures >= LOCK_AFTER).then(|| now + Duration::minutes(LOCK_MINUTES));
    diesel::delete(login_throttle::table.find(&k)).execute(conn)?;
    diesel::insert_into(login_throttle::table)
        .values(&ThrottleRow {
            throttle_key: k,
            failures,
            last_failure: now.naive_utc(),
            not_before: lock.map(|t| t.naive_utc()),
        })
        .execute(conn)?;
    Ok(match lock {
        Some(t) => {
            let note = serde_json::json!({ "tablet": tablet_id, "failures": failures });
            audit::record::<(), _>(
                conn,
                now,
                &crate::db::audit::Actor::system(),
                "security.pin_locked",
                "tablet",
                Some(tablet_id),
                None,
                Some(&note),
            )?;
            AppError::TooManyRequests(
                DealerRefusal::PinLocked {
                    seconds: (t - now).num_seconds(),
                }
                .into(),
            )
        }
        None => AppError::Unauthorized(DealerRefusal::PinWrong.into()),
    })
}

/// A right PIN: the tablet's count starts over.
pub fn passed(conn: &mut DbConn, tablet_id: i64) -> AppResult<()> {
    diesel::delete(login_throttle::table.find(key(tablet_id))).execute(conn)?;
    Ok(())
}
