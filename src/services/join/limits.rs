//! The limits on join codes and entries (per phone, per client address, per room, the SMS
//! cost cap): a refusal is a 429 with the seconds to wait.

use crate::db::schema::join_codes;
use crate::db::DbConn;
use crate::domain::refusal::JoinRefusal;
use crate::domain::remote_join::{self as rj, within, Limit, Via};
use crate::error::{AppError, AppResult};
use chrono::{DateTime, Duration, NaiveDateTime, Utc};
use diesel::prelude::*;

/// The limits on join codes and entries, from the settings (`CARDROOM_JOIN_*`).
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub codes_per_phone: i64,
    pub codes_per_address: i64,
    pub codes_per_room: i64,
    pub entries_per_address: i64,
    pub entries_per_room: i64,
    pub sms_cost: i64,
    pub sms_cost_cap: i64,
}

impl Limits {
    pub fn of(c: &crate::config::Config) -> Limits {
        Limits {
            codes_per_phone: c.join.codes_per_phone.into(),
            codes_per_address: c.join.codes_per_address.into(),
            codes_per_room: c.join.codes_per_room.into(),
            entries_per_address: c.join.entries_per_address.into(),
            entries_per_room: c.join.entries_per_room.into(),
            sms_cost: c.join.sms_cost.into(),
            sms_cost_cap: c.join.sms_cost_cap.into(),
        }
    }
}

fn too_many(limit: Limit, seconds: i64) -> AppError {
    let (minutes, limit_name) = ((seconds + 59) / 60, limit.as_str());
    AppError::TooManyRequests(if limit == Limit::SmsCost {
        JoinRefusal::Busy {
            seconds,
            minutes,
            limit: limit_name,
        }
        .into()
    } else {
        JoinRefusal::TooMany {
            seconds,
            minutes,
            limit: limit_name,
        }
        .into()
    })
}

fn hour_ago(now: DateTime<Utc>) -> NaiveDateTime {
    (now - Duration::minutes(rj::LIMIT_WINDOW_MIN)).naive_utc()
}

fn times(rows: Vec<(NaiveDateTime, i32)>) -> Vec<(DateTime<Utc>, i64)> {
    rows.into_iter()
        .map(|(t, n)| (t.and_utc(), i64::from(n)))
        .collect()
}

/// The limits on codes and entries for one more request. `Err`: 429 with the
/// seconds to wait and which limit (for the log and the metrics; the page says it plainly).
// The request's counters: who asks (phone, address), for how many lists, by which way.
#[allow(clippy::too_many_arguments)]
pub(super) fn check_limits(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    limits: &Limits,
    phone: &str,
    address: &str,
    lists: usize,
    sms: bool,
    via: Via,
) -> AppResult<()> {
    let since = hour_ago(now);
    let rows: Vec<(NaiveDateTime, String, String, i32, bool, String)> = join_codes::table
        .filter(join_codes::created_at.gt(since))
        .select((
            join_codes::created_at,
            join_codes::phone,
            join_codes::address,
            join_codes::entries,
            join_codes::sent,
            join_codes::channel,
        ))
        .load(conn)?;
    let pick = |f: &dyn Fn(&(NaiveDateTime, String, String, i32, bool, String)) -> Option<i32>| {
        times(rows.iter().filter_map(|r| f(r).map(|n| (r.0, n))).collect())
    };
    let checks: [(Limit, Vec<(DateTime<Utc>, i64)>, i64, i64); 6] = [
        (
            Limit::CodesPerPhone,
            pick(&|r| (r.1 == phone).then_some(1)),
            1,
            limits.codes_per_phone,
        ),
        (
            Limit::CodesPerAddress,
            pick(&|r| (r.2 == address).then_some(1)),
            1,
            limits.codes_per_address,
        ),
        (
            Limit::CodesPerRoom,
            pick(&|_| Some(1)),
            1,
            limits.codes_per_room,
        ),
        (
            Limit::EntriesPerAddress,
            pick(&|r| (r.2 == address).then_some(r.3)),
            lists as i64,
            limits.entries_per_address,
        ),
        (
            Limit::EntriesPerRoom,
            pick(&|r| Some(r.3)),
            lists as i64,
            limits.entries_per_room,
        ),
        (
            Limit::SmsCost,
            pick(&|r| (r.4 && r.5 == "sms").then_some(1)),
            if sms { 1 } else { 0 },
            // The cap in SMS: what the hour may spend over what one costs (free SMS: no cap).
            if limits.sms_cost > 0 {
                limits.sms_cost_cap / limits.sms_cost
            } else {
                i64::MAX
            },
        ),
    ];
    for (limit, events, add, max) in checks {
        if add == 0 {
            continue;
        }
        // Every walk-in at the desk kiosk comes from the kiosk's one address, so a
        // per-address limit would lock the kiosk after a few players. A paired kiosk (its token
        // checked by the page) is exempt from the per-address limits only: the per-phone and
        // per-room limits, the SMS cost cap and the phone blocks still apply to it.
        if via == Via::Kiosk && matches!(limit, Limit::CodesPerAddress | Limit::EntriesPerAddress) {
            continue;
        }
        if let Err(secs) = within(&events, add, max, now) {
            return Err(too_many(limit, secs));
        }
    }
    Ok(())
}
