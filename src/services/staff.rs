//! Staff accounts, sign-in with throttling, password changes.

use super::conflict;
use crate::auth::{hash_password, random_token, verify_password};
use crate::db::audit::{self, Actor};
use crate::db::models::{StaffRow, ThrottleRow};
use crate::db::schema::{login_throttle, staff};
use crate::db::{next_seq, DbConn};
use crate::domain::error::Errors;
use crate::domain::player::Language;
use crate::domain::staff::{
    validate_password, validate_staff, Role, LOCKOUT_MINUTES, MAX_FAILED_LOGINS,
};
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

pub fn actor(s: &StaffRow) -> Actor {
    Actor {
        id: Some(s.id),
        name: s.username.clone(),
    }
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
                AppError::Conflict(Problem::new("err-username-taken").arg("username", username))
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
    staff: Option<StaffRow>,
    /// Already refused (locked out, or a malformed attempt): no password check needed.
    refused: Option<AppError>,
}

fn login_failed() -> AppError {
    AppError::Unauthorized(Problem::new("err-login-failed"))
}

/// Step 1 of a sign-in, read-only: is the username locked out, and who is it?
pub fn login_prepare(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    username: &str,
    password: &str,
) -> AppResult<LoginAttempt> {
    let username = username.trim().to_lowercase();
    if username.is_empty() || username.len() > 64 || password.is_empty() || password.len() > 1024 {
        return Ok(LoginAttempt {
            username,
            staff: None,
            refused: Some(login_failed()),
        });
    }
    let t = now.naive_utc();
    let throttle: Option<ThrottleRow> = login_throttle::table
        .find(&username)
        .select(ThrottleRow::as_select())
        .first(conn)
        .optional()?;
    if let Some(until) = throttle
        .as_ref()
        .and_then(|r| r.locked_until)
        .filter(|u| *u > t)
    {
        let minutes = ((until - t).num_seconds() + 59) / 60;
        let refused =
            AppError::TooManyRequests(Problem::new("err-login-locked").arg("minutes", minutes));
        return Ok(LoginAttempt {
            username,
            staff: None,
            refused: Some(refused),
        });
    }
    let staff: Option<StaffRow> = staff::table
        .filter(staff::username.eq(&username))
        .select(StaffRow::as_select())
        .first(conn)
        .optional()?;
    Ok(LoginAttempt {
        username,
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

/// Step 3, in a write transaction: records the outcome. Five failures within 15 minutes
/// lock the username for 15 minutes (whether or not it exists, so the answer does not tell
/// which usernames exist).
///
/// The outer result is for storage faults; the inner one is the answer. A refusal is an
/// `Ok(Err(..))` so that the caller's transaction commits the failure count (and its audit
/// record): rolling it back would mean the lockout never comes.
pub fn login_record(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    a: &LoginAttempt,
    ok: bool,
) -> AppResult<Result<StaffRow, AppError>> {
    if let Some(e) = &a.refused {
        return Ok(Err(e.clone()));
    }
    let username = &a.username;
    let t = now.naive_utc();
    if ok {
        diesel::delete(login_throttle::table.find(username)).execute(conn)?;
        return Ok(a.staff.clone().ok_or_else(login_failed));
    }
    // Read again inside the write turn: concurrent failures all count.
    let throttle: Option<ThrottleRow> = login_throttle::table
        .find(username)
        .select(ThrottleRow::as_select())
        .first(conn)
        .optional()?;
    let window = Duration::minutes(LOCKOUT_MINUTES);
    let (failures, start) = match throttle {
        Some(r) if t - r.window_start < window => (r.failures + 1, r.window_start),
        _ => (1, t),
    };
    let locked_until = (failures >= MAX_FAILED_LOGINS).then(|| t + window);
    diesel::delete(login_throttle::table.find(username)).execute(conn)?;
    diesel::insert_into(login_throttle::table)
        .values(&ThrottleRow {
            username: username.clone(),
            failures,
            window_start: start,
            locked_until,
        })
        .execute(conn)?;
    if let Some(s) = &a.staff {
        let note = serde_json::json!({ "failures": failures, "locked": locked_until.is_some() });
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
    if locked_until.is_some() {
        return Ok(Err(AppError::TooManyRequests(
            Problem::new("err-login-locked").arg("minutes", LOCKOUT_MINUTES),
        )));
    }
    Ok(Err(login_failed()))
}

/// All three steps on one connection (scripts and tests; the web layer runs step 2 outside
/// the write turn).
pub fn login(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    username: &str,
    password: &str,
) -> AppResult<Result<StaffRow, AppError>> {
    let a = login_prepare(conn, now, username, password)?;
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
    pub username: Option<String>,
    pub display_name: String,
    /// admin | floor | dealer | cashier
    pub role: String,
    /// Required to create; on edit, sets a new password (and ends the person's sessions).
    pub password: Option<String>,
    pub active: Option<bool>,
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
        return Err(conflict("err-staff-self-demote"));
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
