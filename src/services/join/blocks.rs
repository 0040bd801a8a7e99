//! The phones the desk blocked: a blocked phone is answered as any other, but no code is sent.

use super::request::parse_phone;
use crate::db::audit::{self};
use crate::db::schema::phone_blocks;
use crate::db::DbConn;
use crate::domain::refusal::JoinRefusal;
use crate::domain::FieldError;
use crate::error::{AppError, AppResult};
use crate::services::Act;
use chrono::{DateTime, NaiveDateTime, Utc};
use diesel::prelude::*;
use serde::Serialize;

/// The floor blocks a phone number from asking for codes (with a reason).
pub fn block_phone(conn: &mut DbConn, act: &Act, typed: &str, reason: &str) -> AppResult<String> {
    let room = &act.room;
    let (now, actor) = (act.now, &act.actor);
    let mut errs = Vec::new();
    let phone = parse_phone(typed, room).map_err(|e| errs.push(e)).ok();
    let reason = reason.trim();
    if reason.is_empty() {
        errs.push(FieldError::new("reason", "err-required"));
    } else if reason.chars().count() > 200 {
        errs.push(FieldError::new("reason", "err-too-long").arg("max", 200));
    }
    let (Some(phone), true) = (phone, errs.is_empty()) else {
        return Err(AppError::Validation(errs));
    };
    let n = crate::native!(conn, |c| diesel::insert_into(phone_blocks::table)
        .values((
            phone_blocks::phone.eq(&phone),
            phone_blocks::reason.eq(reason),
            phone_blocks::blocked_at.eq(now.naive_utc()),
            phone_blocks::blocked_by.eq(actor.id),
        ))
        .on_conflict_do_nothing()
        .execute(c))?;
    if n != 1 {
        return Err(JoinRefusal::PhoneAlreadyBlocked.into());
    }
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "join.phone_block",
        "phone",
        None,
        None,
        Some(&serde_json::json!({ "phone": phone, "reason": reason })),
    )?;
    Ok(phone)
}

/// The floor lifts a block.
pub fn unblock_phone(conn: &mut DbConn, act: &Act, phone: &str) -> AppResult<()> {
    let (now, actor) = (act.now, &act.actor);
    let before: Option<(String, String)> = phone_blocks::table
        .find(phone)
        .select((phone_blocks::phone, phone_blocks::reason))
        .first(conn)
        .optional()?;
    let Some((phone, reason)) = before else {
        return Err(AppError::NotFound);
    };
    diesel::delete(phone_blocks::table.find(&phone)).execute(conn)?;
    audit::record::<_, ()>(
        conn,
        now,
        actor,
        "join.phone_unblock",
        "phone",
        None,
        Some(&serde_json::json!({ "phone": phone, "reason": reason })),
        None,
    )?;
    Ok(())
}

/// A blocked phone as the floor's page lists it.
#[derive(Debug, Clone, Serialize)]
pub struct Block {
    pub phone: String,
    pub reason: String,
    pub blocked_at: DateTime<Utc>,
}

pub fn blocks(conn: &mut DbConn) -> AppResult<Vec<Block>> {
    let rows: Vec<(String, String, NaiveDateTime)> = phone_blocks::table
        .order(phone_blocks::blocked_at.desc())
        .select((
            phone_blocks::phone,
            phone_blocks::reason,
            phone_blocks::blocked_at,
        ))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(phone, reason, t)| Block {
            phone,
            reason,
            blocked_at: t.and_utc(),
        })
        .collect())
}
