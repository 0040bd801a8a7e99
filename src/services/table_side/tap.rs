//! The time of a tablet's tap (`domain::tap`): the instant sent with a tap made offline, read
//! against the room's bound, and shown in the audit next to the instant it arrived.

use super::*;
use crate::domain::ids::SeatingId;
use crate::domain::refusal::ChipsRefusal;

/// When the tap counts as made: `raw` (`tapped_at`, RFC 3339, as the tablet sent it) within the
/// room's bound before `now`; none: `now`. Not an instant: 422 on `tapped_at`. Older than the
/// bound: refused (409) with the instant in the room's zone and the bound, nothing applied.
pub fn when_tapped(room: &Room, raw: Option<&str>, now: DateTime<Utc>) -> AppResult<DateTime<Utc>> {
    let tapped = match raw.map(str::trim).filter(|s| !s.is_empty()) {
        None => None,
        Some(s) => Some(
            DateTime::parse_from_rfc3339(s)
                .map_err(|_| AppError::field("tapped_at", "err-tapped-at"))?
                .with_timezone(&Utc),
        ),
    };
    crate::domain::tap::when_tapped(tapped, now, room.tap_late_max_s).map_err(|p| {
        let mut p = localize(p, room);
        for (k, v) in p.args.iter_mut() {
            if *k == "limit_s" {
                let s: i64 = v.parse().unwrap_or(0);
                *v = if s % 60 == 0 {
                    format!("{} min", s / 60)
                } else {
                    format!("{s} s")
                };
            }
        }
        AppError::Conflict(p)
    })
}

/// An audit record's state after a tap that arrived later than it was made: the state, with
/// both instants (`tapped_at`, `received_at`). A tap applied at once: the state as it is.
pub fn with_tap<T: Serialize>(
    after: &T,
    tapped: DateTime<Utc>,
    now: DateTime<Utc>,
) -> serde_json::Value {
    let mut v = serde_json::to_value(after).unwrap_or(serde_json::Value::Null);
    if tapped != now {
        if let serde_json::Value::Object(m) = &mut v {
            m.insert("tapped_at".into(), serde_json::json!(tapped));
            m.insert("received_at".into(), serde_json::json!(now));
        }
    }
    v
}

/// The stack a count or a rebuy was made from (`stack_was`, as the tablet showed it) is still
/// the seat's: otherwise another count or rebuy came in between and this one, made from a
/// superseded stack, is refused (nothing changed) with the stack now.
pub fn check_stack_was(
    conn: &mut DbConn,
    room: &Room,
    seating_id: SeatingId,
    stack_was: Option<i64>,
) -> AppResult<()> {
    let Some(was) = stack_was else {
        return Ok(());
    };
    let now = side(conn, seating_id)?;
    if now.stack != was {
        return Err(AppError::Conflict(localize(
            Problem::from(ChipsRefusal::StackChanged { stack: now.stack }),
            room,
        )));
    }
    Ok(())
}
