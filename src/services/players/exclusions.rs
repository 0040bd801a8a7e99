//! Exclusions (BSOP 2, 10, 11): a ban set for a time or for good, and lifted with a reason.

use super::eligibility::{as_ban, bans_of};
use super::search::get;
use crate::db::audit::{self};
use crate::db::models::ExclusionRow;
use crate::db::schema::exclusions;
use crate::db::{next_seq, DbConn};
use crate::domain::error::Errors;
use crate::domain::ids::PlayerId;
use crate::domain::refusal::PlayerRefusal;
use crate::domain::FieldError;
use crate::error::AppResult;
use crate::services::Act;
use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};
use chrono_tz::Tz;
use diesel::prelude::*;
use serde::{Deserialize, Serialize};

/// Exclusions of a player, newest first, with whether each is in force now.
pub fn exclusions_of(
    conn: &mut DbConn,
    player_id: PlayerId,
    now: DateTime<Utc>,
) -> AppResult<Vec<(ExclusionRow, bool)>> {
    Ok(bans_of(conn, player_id)?
        .into_iter()
        .map(|e| {
            let on = as_ban(&e).in_force(now);
            (e, on)
        })
        .collect())
}

#[derive(Debug, Clone, Default, Deserialize, Serialize, utoipa::ToSchema)]
pub struct BanForm {
    #[schema(value_type = String, required = true, min_length = 1, max_length = 500, pattern = r"\S")]
    pub reason: Option<String>,
    /// Start (room's local time, `YYYY-MM-DDTHH:MM`); empty: now.
    pub starts_at: Option<String>,
    /// End (room's local time); empty: permanent.
    pub ends_at: Option<String>,
}

/// Reads a local date-time typed in the room's zone and converts it to UTC.
pub fn parse_local(field: &str, s: &str, tz: Tz) -> Result<DateTime<Utc>, FieldError> {
    let s = s.trim();
    // Four-digit years only (chrono would take "-5000" or "+20000", which databases refuse).
    let year_ok = s.len() >= 4
        && s.as_bytes()[..4].iter().all(u8::is_ascii_digit)
        && s.as_bytes().get(4) == Some(&b'-');
    if !year_ok || &s[..4] < "1900" {
        return Err(FieldError::new(field, "err-datetime"));
    }
    let naive = NaiveDateTime::parse_from_str(s, "%Y-%m-%dT%H:%M")
        .or_else(|_| NaiveDateTime::parse_from_str(s, "%Y-%m-%dT%H:%M:%S"))
        .or_else(|_| {
            NaiveDate::parse_from_str(s, "%Y-%m-%d")
                .map(|d| d.and_hms_opt(0, 0, 0).unwrap_or_default())
        })
        .map_err(|_| FieldError::new(field, "err-datetime"))?;
    naive
        .and_local_timezone(tz)
        .earliest()
        .map(|t| t.with_timezone(&Utc))
        .ok_or_else(|| FieldError::new(field, "err-datetime"))
}

pub(super) fn reason(e: &mut Errors, v: &Option<String>) -> String {
    let r = v.as_deref().unwrap_or("").trim().to_string();
    if r.is_empty() {
        e.add("reason", "err-required");
    } else if r.chars().count() > 500 {
        e.push(FieldError::new("reason", "err-too-long").arg("max", 500));
    }
    r
}

/// BSOP 2, 10, 11: bans a player, from a start (default now) until an end or permanently.
pub fn ban(
    conn: &mut DbConn,
    act: &Act,
    player_id: PlayerId,
    form: &BanForm,
) -> AppResult<ExclusionRow> {
    let (now, tz, actor) = (act.now, act.tz(), &act.actor);
    get(conn, player_id)?;
    let mut e = Errors::default();
    let reason = reason(&mut e, &form.reason);
    let starts = match form.starts_at.as_deref().filter(|s| !s.trim().is_empty()) {
        None => Some(now),
        Some(s) => parse_local("starts_at", s, tz).map_err(|x| e.push(x)).ok(),
    };
    let ends = match form.ends_at.as_deref().filter(|s| !s.trim().is_empty()) {
        None => None,
        Some(s) => parse_local("ends_at", s, tz).map_err(|x| e.push(x)).ok(),
    };
    if let (Some(s), Some(en)) = (starts, ends) {
        if en <= s {
            e.add("ends_at", "err-ban-end-before-start");
        } else if en <= now {
            e.add("ends_at", "err-ban-end-past");
        }
    }
    e.into_result(())?;
    let row = ExclusionRow {
        id: next_seq(conn, "exclusion")?,
        player_id,
        reason,
        starts_at: starts.unwrap_or(now).naive_utc(),
        ends_at: ends.map(|t| t.naive_utc()),
        created_by: actor.id,
        created_at: now.naive_utc(),
        lifted_at: None,
        lifted_by: None,
        lift_reason: None,
    };
    crate::native!(conn, |dbc| diesel::insert_into(exclusions::table)
        .values(&row)
        .execute(dbc))?;
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "player.ban",
        "player",
        Some(player_id.get()),
        None,
        Some(&row),
    )?;
    Ok(row)
}

#[derive(Debug, Clone, Default, Deserialize, Serialize, utoipa::ToSchema)]
pub struct ReasonForm {
    #[schema(value_type = String, required = true, min_length = 1, max_length = 500, pattern = r"\S")]
    pub reason: Option<String>,
}

/// Lifts a ban (with a reason). Lifting one already lifted or ended is refused.
pub fn lift_ban(
    conn: &mut DbConn,
    act: &Act,
    exclusion_id: i64,
    form: &ReasonForm,
) -> AppResult<ExclusionRow> {
    let (now, actor) = (act.now, &act.actor);
    let before: ExclusionRow = crate::native!(conn, |dbc| exclusions::table
        .find(exclusion_id)
        .select(ExclusionRow::as_select())
        .first(dbc))?;
    let mut e = Errors::default();
    let why = reason(&mut e, &form.reason);
    e.into_result(())?;
    if before.lifted_at.is_some() || before.ends_at.is_some_and(|t| t.and_utc() <= now) {
        return Err(PlayerRefusal::BanNotActive.into());
    }
    let n = crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(
            exclusions::table
                .find(exclusion_id)
                .filter(exclusions::lifted_at.is_null())
        )
        .set((
            exclusions::lifted_at.eq(Some(now.naive_utc())),
            exclusions::lifted_by.eq(actor.id),
            exclusions::lift_reason.eq(Some(why)),
        ))
        .returning(exclusions::id)
    )
    .changed(dbc))?;
    if n != 1 {
        return Err(PlayerRefusal::BanNotActive.into());
    }
    let after: ExclusionRow = crate::native!(conn, |dbc| exclusions::table
        .find(exclusion_id)
        .select(ExclusionRow::as_select())
        .first(dbc))?;
    audit::record(
        conn,
        now,
        actor,
        "player.unban",
        "player",
        Some(before.player_id.get()),
        Some(&before),
        Some(&after),
    )?;
    Ok(after)
}
