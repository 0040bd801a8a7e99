//! Staff accounts, sign-in with throttling, password changes.

pub use super::sessions::actor;
use super::sessions::EndReason;
use crate::auth::{hash_password, random_token, verify_password};
use crate::db::audit::{self, Actor};
use crate::db::models::{StaffRow, ThrottleRow};
use crate::db::schema::{login_throttle as login_throttle_t, staff};
use crate::db::{next_seq, DbConn};
use crate::domain::error::Errors;
use crate::domain::login_throttle::{self, Counter, Policy};
use crate::domain::player::Language;
use crate::domain::refusal::StaffRefusal;
use crate::domain::staff::{validate_password, validate_staff, Role};
use crate::domain::{FieldError, Problem};
use crate::error::{AppError, AppResult};
use chrono::{DateTime, Duration, Utc};
use diesel::prelude::*;
use serde::{Deserialize, Serialize};

pub fn get(conn: &mut DbConn, id: i64) -> AppResult<StaffRow> {
    Ok(staff::table
        .find(id)
        .select(StaffRow::as_select())
        .first(conn)?)
}

pub fn list(conn: &mut DbConn) -> AppResult<Vec<StaffRow>> {
    Ok(staff::table
        .order((staff::active.desc(), staff::username.asc()))
        .select(StaffRow::as_select())
        .load(conn)?)
}

/// What the first start did about the admin account.
#[derive(Debug, PartialEq, Eq)]
pub enum Bootstrap {
    AlreadyHasStaff,
    CreatedFromConfig,
    /// Created with this one-time password (printed once at start).
    CreatedWithPassword(String),
}

/// On the very first start (no staff at all) creates `admin`, with `CARDROOM_ADMIN_PASSWORD`
/// or a generated one-time password.
pub fn bootstrap_admin(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    password: Option<&str>,
) -> AppResult<Bootstrap> {
    if staff::table.count().get_result::<i64>(conn)? > 0 {
        return Ok(Bootstrap::AlreadyHasStaff);
    }
    let (pw, outcome) = match password {
        Some(p) => (p.to_string(), Bootstrap::CreatedFromConfig),
        None => {
            let p = random_token(12);
            (p.clone(), Bootstrap::CreatedWithPassword(p))
        }
    };
    let one_time = matches!(outcome, Bootstrap::CreatedWithPassword(_));
    insert(
        conn,
        now,
        &Actor::system(),
        "admin",
        "Administrator",
        Role::Admin,
        &pw,
        one_time,
    )?;
    Ok(outcome)
}

// One staff row: used by sign-up, the first admin at start and the admin pages.
#[allow(clippy::too_many_arguments)]
fn insert(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    actor: &Actor,
    username: &str,
    display: &str,
    role: Role,
    pw: &str,
    one_time: bool,
) -> AppResult<StaffRow> {
    let row = StaffRow {
        id: next_seq(conn, "staff")?,
        username: username.to_string(),
        display_name: display.trim().to_string(),
        role: role.to_string(),
        password_hash: hash_password(pw),
        active: true,
        language: None,
        token_version: 0,
        must_change_password: one_time,
        created_at: now.naive_utc(),
        updated_at: now.naive_utc(),
    };
    diesel::insert_into(staff::table)
        .values(&row)
        .execute(conn)
        .map_err(|e| {
            if crate::db::is_unique_violation(&e) {
                AppError::from(StaffRefusal::UsernameTaken {
                    username: username.to_string(),
                })
            } else {
                e.into()
            }
        })?;
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "staff.create",
        "staff",
        Some(row.id),
        None,
        Some(&row),
    )?;
    Ok(row)
}

/// A sign-in attempt, read before the (slow) password check.
#[derive(Debug, Clone)]
pub struct LoginAttempt {
    username: String,
    /// The client's address (throttling counts per address too).
    address: String,
    staff: Option<StaffRow>,
    /// Already refused (waiting out a throttle, or a malformed attempt): no password check.
    refused: Option<AppError>,
}

fn login_failed() -> AppError {
    AppError::Unauthorized(Problem::from(StaffRefusal::LoginFailed))
}

fn throttled(wait: Duration) -> AppError {
    AppError::TooManyRequests(Problem::from(StaffRefusal::LoginThrottled {
        seconds: login_throttle::retry_after_secs(wait),
    }))
}

fn counter(r: &ThrottleRow) -> Counter {
    Counter {
        failures: r.failures,
        last_failure: r.last_failure.and_utc(),
        not_before: r.not_before.map(|t| t.and_utc()),
    }
}

/// The stored counters of an attempt's three keys (domain::login_throttle).
fn counters(
    conn: &mut DbConn,
    username: &str,
    address: &str,
) -> AppResult<Vec<(String, Policy, Option<Counter>)>> {
    let keys = login_throttle::keys(username, address);
    let names: Vec<&str> = keys.iter().map(|(k, _)| k.as_str()).collect();
    let rows: Vec<ThrottleRow> = login_throttle_t::table
        .filter(login_throttle_t::throttle_key.eq_any(&names))
        .select(ThrottleRow::as_select())
        .load(conn)?;
    Ok(keys
        .into_iter()
        .map(|(k, p)| {
            let c = rows.iter().find(|r| r.throttle_key == k).map(counter);
            (k, p, c)
        })
        .collect())
}

/// Step 1 of a sign-in, read-only: must this attempt wait, and who is it?
pub fn login_prepare(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    username: &str,
    password: &str,
    address: &str,
) -> AppResult<LoginAttempt> {
    let username = username.trim().to_lowercase();
    let address = address.to_string();
    if username.is_empty() || username.len() > 64 || password.is_empty() || password.len() > 1024 {
        return Ok(LoginAttempt {
            username,
            address,
            staff: None,
            refused: Some(login_failed()),
        });
    }
    let wait = counters(conn, &username, &address)?
        .iter()
        .filter_map(|(_, _, c)| login_throttle::wait(c.as_ref(), now))
        .max();
    if let Some(w) = wait {
        return Ok(LoginAttempt {
            username,
            address,
            staff: None,
            refused: Some(throttled(w)),
        });
    }
    let staff: Option<StaffRow> = staff::table
        .filter(staff::username.eq(&username))
        .select(StaffRow::as_select())
        .first(conn)
        .optional()?;
    Ok(LoginAttempt {
        username,
        address,
        staff,
        refused: None,
    })
}

/// Step 2, no database: the argon2 check (slow on purpose, so it runs outside any write
/// turn). Unknown usernames cost the same work, so timing does not tell them apart.
pub fn login_check(a: &LoginAttempt, password: &str) -> bool {
    if a.refused.is_some() {
        return false;
    }
    match &a.staff {
        Some(s) => verify_password(password, &s.password_hash) && s.active,
        None => {
            let _ = hash_password(password);
            false
        }
    }
}

/// Step 3, in a write transaction: records the outcome. A failure counts under the
/// attempt's three keys (domain::login_throttle: growing waits, never a hard lock), whether
/// or not the username exists, so the answer does not tell which usernames exist.
///
/// The outer result is for storage faults; the inner one is the answer. A refusal is an
/// `Ok(Err(..))` so that the caller's transaction commits the failure count (and its audit
/// record): rolling it back would mean the throttle never comes.
pub fn login_record(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    a: &LoginAttempt,
    ok: bool,
) -> AppResult<Result<StaffRow, AppError>> {
    if let Some(e) = &a.refused {
        return Ok(Err(e.clone()));
    }
    let keys = login_throttle::keys(&a.username, &a.address);
    if ok {
        // This person from this address is who they say: their own counter starts over
        // (the address's and the username's counters decay on their own).
        diesel::delete(login_throttle_t::table.find(&keys[0].0)).execute(conn)?;
        return Ok(a.staff.clone().ok_or_else(login_failed));
    }
    // Read again inside the write turn: concurrent failures all count.
    let mut started_waiting = Vec::new();
    let mut longest: Option<Duration> = None;
    for (key, policy, before) in counters(conn, &a.username, &a.address)? {
        let next = login_throttle::after_failure(before.as_ref(), policy, now);
        if let Some(w) = login_throttle::wait(Some(&next), now) {
            longest = Some(longest.map_or(w, |l| l.max(w)));
            if next.failures == policy.free + 1 {
                started_waiting.push(key.clone());
            }
        }
        diesel::delete(login_throttle_t::table.find(&key)).execute(conn)?;
        diesel::insert_into(login_throttle_t::table)
            .values(&ThrottleRow {
                throttle_key: key,
                failures: next.failures,
                last_failure: now.naive_utc(),
                not_before: next.not_before.map(|t| t.naive_utc()),
            })
            .execute(conn)?;
    }
    if let Some(s) = &a.staff {
        let note = serde_json::json!({
            "address": a.address, "waits_s": longest.map(|w| w.num_seconds()),
        });
        audit::record::<(), _>(
            conn,
            now,
            &actor(s),
            "staff.login_failed",
            "staff",
            Some(s.id),
            None,
            Some(&note),
        )?;
    }
    // A counter that starts making someone wait is a security event, whoever the username
    // (recorded once per episode, not per attempt: a flood must not flood the trail).
    if !started_waiting.is_empty() {
        let note = serde_json::json!({ "keys": started_waiting });
        audit::record::<(), _>(
            conn,
            now,
            &Actor::system(),
            "security.login_throttled",
            "address",
            None,
            None,
            Some(&note),
        )?;
    }
    Ok(Err(match longest {
        Some(w) => throttled(w),
        None => login_failed(),
    }))
}

/// All three steps on one connection (scripts and tests; the web layer runs step 2 outside
/// the write turn).
pub fn login(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    username: &str,
    password: &str,
    address: &str,
) -> AppResult<Result<StaffRow, AppError>> {
    let a = login_prepare(conn, now, username, password, address)?;
    let ok = login_check(&a, password);
    login_record(conn, now, &a, ok)
}

#[derive(Debug, Clone, Default, Deserialize, Serialize, utoipa::ToSchema)]
pub struct PasswordChange {
    pub current_password: String,
    pub new_password: String,
    /// Must equal `new_password` when given (the page asks twice).
    pub confirm_password: Option<String>,
}

/// Changes one's own password; every other session of this person ends (token version).
pub fn change_password(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    me: &StaffRow,
    c: &PasswordChange,
) -> AppResult<StaffRow> {
    if !verify_password(&c.current_password, &me.password_hash) {
        return Err(AppError::field("current_password", "err-current-password"));
    }
    validate_password(&c.new_password, &me.username).map_err(|e| AppError::Validation(vec![e]))?;
    if c.confirm_password
        .as_deref()
        .is_some_and(|p| p != c.new_password)
    {
        return Err(AppError::field("confirm_password", "err-password-mismatch"));
    }
    if c.new_password == c.current_password {
        return Err(AppError::field("new_password", "err-password-same"));
    }
    diesel::update(staff::table.find(me.id))
        .set((
            staff::password_hash.eq(hash_password(&c.new_password)),
            staff::token_version.eq(me.token_version + 1),
            staff::must_change_password.eq(false),
            staff::updated_at.eq(now.naive_utc()),
        ))
        .execute(conn)?;
    // Every session of this person ends (the caller opens a fresh one for the browser that
    // changed it).
    super::sessions::end_all(
        conn,
        now,
        &actor(me),
        me.id,
        None,
        EndReason::PasswordChanged,
    )?;
    let note = serde_json::json!({ "password": "changed" });
    audit::record::<(), _>(
        conn,
        now,
        &actor(me),
        "staff.password",
        "staff",
        Some(me.id),
        None,
        Some(&note),
    )?;
    get(conn, me.id)
}

/// Stores the language a staff member picked (used for their pages).
pub fn set_language(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    me: &StaffRow,
    lang: Language,
) -> AppResult<()> {
    diesel::update(staff::table.find(me.id))
        .set(staff::language.eq(Some(lang.to_string())))
        .execute(conn)?;
    let note = serde_json::json!({ "language": lang });
    audit::record::<(), _>(
        conn,
        now,
        &actor(me),
        "staff.language",
        "staff",
        Some(me.id),
        None,
        Some(&note),
    )?;
    Ok(())
}

#[derive(Debug, Clone, Default, Deserialize, Serialize, utoipa::ToSchema)]
pub struct StaffInput {
    /// On edit, the account's own username if sent (it never changes: another one is 422
    /// `username_fixed`).
    #[schema(max_length = 32, pattern = "^[a-z0-9._-]*$")]
    pub username: Option<String>,
    #[schema(min_length = 1, max_length = 60, pattern = r"\S")]
    pub display_name: String,
    #[schema(value_type = crate::domain::staff::Role)]
    pub role: String,
    /// A new password (10 to 128 characters; ends the person's sessions); empty or absent:
    /// unchanged.
    #[schema(pattern = r"^$|^[\s\S]{10,128}$")]
    pub password: Option<String>,
    pub active: Option<bool>,
}

/// A new staff account as the API takes it: [`StaffInput`] with the username and the first
/// password required.
#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
pub struct NewStaff {
    /// Lower-case letters, digits, `.`, `-`, `_`.
    #[schema(min_length = 1, max_length = 32, pattern = "^[a-z0-9._-]+$")]
    pub username: String,
    #[schema(min_length = 1, max_length = 60, pattern = r"\S")]
    pub display_name: String,
    #[schema(value_type = crate::domain::staff::Role)]
    pub role: String,
    #[schema(min_length = 10, max_length = 128)]
    pub password: String,
    /// Default true.
    pub active: Option<bool>,
}

impl From<NewStaff> for StaffInput {
    fn from(n: NewStaff) -> StaffInput {
        StaffInput {
            username: Some(n.username),
            display_name: n.display_name,
            role: n.role,
            password: Some(n.password),
            active: n.active,
        }
    }
}

fn parse_role(e: &mut Errors, s: &str) -> Option<Role> {
    match s.parse::<Role>() {
        Ok(r) => Some(r),
        Err(_) => {
            e.push(
                FieldError::new("role", "err-choice")
                    .arg("value", s.chars().take(40).collect::<String>()),
            );
            None
        }
    }
}

pub fn create(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    by: &Actor,
    i: &StaffInput,
) -> AppResult<StaffRow> {
    let username = i.username.as_deref().unwrap_or("").trim().to_lowercase();
    let mut e = Errors::default();
    if let Err(fs) = validate_staff(&username, &i.display_name) {
        fs.into_iter().for_each(|f| e.push(f));
    }
    let role = parse_role(&mut e, &i.role);
    let pw = i.password.clone().unwrap_or_default();
    if let Err(mut f) = validate_password(&pw, &username) {
        f.field = "password".into();
        e.push(f);
    }
    e.into_result(())?;
    insert(
        conn,
        now,
        by,
        &username,
        &i.display_name,
        role.unwrap_or(Role::Dealer),
        &pw,
        false,
    )
}

/// Admin edits a staff member. An admin cannot remove their own admin role or deactivate
/// themselves (the room would risk having no admin).
pub fn update(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    by: &StaffRow,
    id: i64,
    i: &StaffInput,
) -> AppResult<StaffRow> {
    let before = get(conn, id)?;
    let mut e = Errors::default();
    if let Err(fs) = validate_staff(&before.username, &i.display_name) {
        fs.into_iter().for_each(|f| e.push(f));
    }
    let role = parse_role(&mut e, &i.role);
    // A username never changes (the audit trail names people by it): sent, it must be theirs.
    if let Some(u) = i
        .username
        .as_deref()
        .map(str::trim)
        .filter(|u| !u.is_empty())
    {
        if u != before.username {
            e.add("username", "err-username-fixed");
        }
    }
    let new_pw = i.password.as_deref().filter(|p| !p.is_empty());
    if let Some(p) = new_pw {
        if let Err(mut f) = validate_password(p, &before.username) {
            f.field = "password".into();
            e.push(f);
        }
    }
    e.into_result(())?;
    let role = role.unwrap_or(Role::Dealer);
    let active = i.active.unwrap_or(before.active);
    if by.id == id && (role != Role::Admin || !active) {
        return Err(StaffRefusal::SelfDemote.into());
    }
    let bump = new_pw.is_some() || !active || role.as_str() != before.role;
    diesel::update(staff::table.find(id))
        .set((
            staff::display_name.eq(i.display_name.trim()),
            staff::role.eq(role.as_str()),
            staff::active.eq(active),
            staff::token_version.eq(before.token_version + i32::from(bump)),
            staff::updated_at.eq(now.naive_utc()),
        ))
        .execute(conn)?;
    if let Some(p) = new_pw {
        diesel::update(staff::table.find(id))
            .set(staff::password_hash.eq(hash_password(p)))
            .execute(conn)?;
    }
    if bump {
        let reason = if !active {
            EndReason::Deactivated
        } else if new_pw.is_some() {
            EndReason::PasswordChanged
        } else {
            EndReason::RoleChanged
        };
        super::sessions::end_all(conn, now, &actor(by), id, None, reason)?;
    }
    let after = get(conn, id)?;
    audit::record(
        conn,
        now,
        &actor(by),
        "staff.update",
        "staff",
        Some(id),
        Some(&before),
        Some(&after),
    )?;
    Ok(after)
}

/// An admin ends every session and API token of a staff member at once (their token
/// version moves on too, so even a token from before sessions were recorded is refused).
pub fn end_sessions(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    by: &StaffRow,
    id: i64,
) -> AppResult<usize> {
    let before = get(conn, id)?;
    diesel::update(staff::table.find(id))
        .set(staff::token_version.eq(before.token_version + 1))
        .execute(conn)?;
    super::sessions::end_all(conn, now, &actor(by), id, None, EndReason::EndedByAdmin)
}
