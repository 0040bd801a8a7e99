//! Staff sessions: every sign-in — a page session or an API token — is a row;
//! the signed token names it, and a token whose row has ended is refused at once. Signing
//! out, ending one's own sessions, an admin ending someone's, a password change and a
//! deactivation all end rows; the expiry in the token still bounds a session's life.

use crate::auth::random_token;
use crate::db::audit::{self, Actor};
use crate::db::models::{SessionRow, StaffRow};
use crate::db::schema::staff_sessions as s;
use crate::db::DbConn;
use crate::domain::refusal::StaffRefusal;
use crate::domain::Problem;
use crate::error::{AppError, AppResult};
use chrono::{DateTime, Duration, Utc};
use diesel::prelude::*;
use serde::Serialize;

/// A staff member as the audit trail names them.
pub fn actor(s: &StaffRow) -> Actor {
    Actor {
        id: Some(s.id),
        name: s.username.clone(),
    }
}

/// Where a session is used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionKind {
    /// The page session cookie.
    Web,
    /// A Bearer token for `/api/v1`.
    Api,
}

impl SessionKind {
    pub fn as_str(self) -> &'static str {
        match self {
            SessionKind::Web => "web",
            SessionKind::Api => "api",
        }
    }
}

/// Why a session ended (stored, and shown to the person).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    SignedOut,
    EndedByOwner,
    EndedByAdmin,
    PasswordChanged,
    Deactivated,
    RoleChanged,
}

impl EndReason {
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::SignedOut => "signed_out",
            EndReason::EndedByOwner => "ended_by_owner",
            EndReason::EndedByAdmin => "ended_by_admin",
            EndReason::PasswordChanged => "password_changed",
            EndReason::Deactivated => "deactivated",
            EndReason::RoleChanged => "role_changed",
        }
    }
}

/// `last_seen_at` is written at most this often per session: a write for every request
/// would put each page view through the write turn for a figure nobody needs to the second.
pub const TOUCH_EVERY_SECS: i64 = 300;

/// Longest user agent kept (a header can be anything; the list shows a summary).
const MAX_USER_AGENT: usize = 300;

fn ended() -> AppError {
    AppError::Unauthorized(Problem::from(StaffRefusal::SessionEnded))
}

/// Opens a session for a staff member who just signed in; audited as the sign-in.
pub fn open(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    who: &StaffRow,
    kind: SessionKind,
    hours: u32,
    user_agent: &str,
    address: &str,
) -> AppResult<SessionRow> {
    let row = SessionRow {
        // 144 random bits: the token's signature already protects it; this only has to be
        // unique and not guessable from another session's.
        id: random_token(18),
        staff_id: who.id,
        kind: kind.as_str().into(),
        created_at: now.naive_utc(),
        expires_at: (now + Duration::hours(hours as i64)).naive_utc(),
        last_seen_at: now.naive_utc(),
        user_agent: user_agent.chars().take(MAX_USER_AGENT).collect(),
        address: address.chars().take(64).collect(),
        ended_at: None,
        end_reason: None,
    };
    diesel::insert_into(s::table).values(&row).execute(conn)?;
    let note = serde_json::json!({
        "session": short(&row.id), "kind": row.kind, "address": row.address,
    });
    audit::record::<(), _>(
        conn,
        now,
        &actor(who),
        "staff.sign_in",
        "staff",
        Some(who.id),
        None,
        Some(&note),
    )?;
    Ok(row)
}

/// The session a token names, if it is still open and belongs to that staff member, with
/// that staff member's row as it is now (a role change or deactivation counts at once): one
/// statement, as every signed-in request asks it (one round trip, not two).
pub fn check(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    sid: &str,
    staff_id: i64,
) -> AppResult<(StaffRow, SessionRow)> {
    use crate::db::schema::staff;
    if sid.is_empty() {
        return Err(ended());
    }
    let row: Option<(SessionRow, StaffRow)> = s::table
        .inner_join(staff::table)
        .filter(s::id.eq(sid))
        .filter(s::staff_id.eq(staff_id))
        .select((SessionRow::as_select(), StaffRow::as_select()))
        .first(conn)
        .optional()?;
    match row {
        Some((r, who)) if r.ended_at.is_none() && r.expires_at > now.naive_utc() => Ok((who, r)),
        _ => Err(ended()),
    }
}

/// Whether a session's last use is old enough to be written again.
pub fn needs_touch(r: &SessionRow, now: DateTime<Utc>) -> bool {
    now.naive_utc() - r.last_seen_at >= Duration::seconds(TOUCH_EVERY_SECS)
}

/// Records a use of the session (not audited: not a change of anyone's state).
pub fn touch(conn: &mut DbConn, now: DateTime<Utc>, sid: &str) -> AppResult<()> {
    diesel::update(s::table.find(sid))
        .set(s::last_seen_at.eq(now.naive_utc()))
        .execute(conn)?;
    Ok(())
}

/// A staff member's sessions still open, the most recently used first.
pub fn list_open(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    staff_id: i64,
) -> AppResult<Vec<SessionRow>> {
    Ok(s::table
        .filter(s::staff_id.eq(staff_id))
        .filter(s::ended_at.is_null())
        .filter(s::expires_at.gt(now.naive_utc()))
        .order(s::last_seen_at.desc())
        .select(SessionRow::as_select())
        .load(conn)?)
}

/// Ends one session of `staff_id` (404 if it is not theirs or already ended).
pub fn end(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    by: &Actor,
    staff_id: i64,
    sid: &str,
    reason: EndReason,
) -> AppResult<()> {
    let n = diesel::update(
        s::table
            .find(sid)
            .filter(s::staff_id.eq(staff_id))
            .filter(s::ended_at.is_null()),
    )
    .set((
        s::ended_at.eq(now.naive_utc()),
        s::end_reason.eq(reason.as_str()),
    ))
    .execute(conn)?;
    if n == 0 {
        return Err(AppError::NotFound);
    }
    let note = serde_json::json!({ "session": short(sid), "reason": reason });
    audit::record::<(), _>(
        conn,
        now,
        by,
        "staff.session_end",
        "staff",
        Some(staff_id),
        None,
        Some(&note),
    )?;
    Ok(())
}

/// Ends every open session of `staff_id` except `keep`; returns how many ended. Audited
/// once (with the count) when any did.
pub fn end_all(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    by: &Actor,
    staff_id: i64,
    keep: Option<&str>,
    reason: EndReason,
) -> AppResult<usize> {
    let q = s::table
        .filter(s::staff_id.eq(staff_id))
        .filter(s::ended_at.is_null())
        .filter(s::id.ne(keep.unwrap_or("")));
    let n = diesel::update(q)
        .set((
            s::ended_at.eq(now.naive_utc()),
            s::end_reason.eq(reason.as_str()),
        ))
        .execute(conn)?;
    if n > 0 {
        let note = serde_json::json!({ "sessions": n, "reason": reason });
        audit::record::<(), _>(
            conn,
            now,
            by,
            "staff.sessions_end",
            "staff",
            Some(staff_id),
            None,
            Some(&note),
        )?;
    }
    Ok(n)
}

/// The first characters of a session id: enough to tell sessions apart in the audit trail
/// and on the page, not enough to be one.
pub fn short(sid: &str) -> String {
    sid.chars().take(6).collect()
}

/// "Firefox on Windows"-style summary of a user agent for the sessions list.
pub fn device(user_agent: &str) -> String {
    let ua = user_agent;
    let browser = if ua.contains("Edg/") {
        "Edge"
    } else if ua.contains("Firefox/") {
        "Firefox"
    } else if ua.contains("Chrome/") || ua.contains("Chromium/") {
        "Chrome"
    } else if ua.contains("Safari/") {
        "Safari"
    } else if ua.is_empty() {
        ""
    } else {
        return ua.chars().take(40).collect();
    };
    let os = if ua.contains("Android") {
        "Android"
    } else if ua.contains("iPhone") || ua.contains("iPad") {
        "iOS"
    } else if ua.contains("Windows") {
        "Windows"
    } else if ua.contains("Mac OS X") {
        "macOS"
    } else if ua.contains("Linux") {
        "Linux"
    } else {
        ""
    };
    match (browser, os) {
        ("", _) => String::new(),
        (b, "") => b.to_string(),
        (b, o) => format!("{b} · {o}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_are_summarised() {
        assert_eq!(
            device("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36"),
            "Chrome · Linux"
        );
        assert_eq!(
            device("Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Safari/604.1"),
            "Safari · iOS"
        );
        assert_eq!(device("curl/8.5.0"), "curl/8.5.0");
        assert_eq!(device(""), "");
    }
}
