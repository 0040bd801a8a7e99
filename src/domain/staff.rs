//! Staff roles and password policy (PT-2007 8, 9: the house runs the game; the dealer runs
//! the table; BSOP 16-22: floor decisions).

use super::enums::string_enum;
use super::error::{Errors, FieldError};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

string_enum! {
    /// Who a staff member is to the system.
    Role { Admin = "admin", Floor = "floor", Dealer = "dealer", Cashier = "cashier" }
}

pub const PASSWORD_MIN: usize = 10;
pub const PASSWORD_MAX: usize = 128;
pub const USERNAME_MAX: usize = 32;

pub fn validate_password(pw: &str, username: &str) -> Result<(), FieldError> {
    let n = pw.chars().count();
    if n < PASSWORD_MIN {
        return Err(FieldError::new("new_password", "err-password-short").arg("min", PASSWORD_MIN));
    }
    if n > PASSWORD_MAX {
        return Err(FieldError::new("new_password", "err-too-long").arg("max", PASSWORD_MAX));
    }
    if pw.eq_ignore_ascii_case(username) {
        return Err(FieldError::new("new_password", "err-password-is-username"));
    }
    Ok(())
}

/// Usernames: lower-case letters, digits, dot, dash, underscore.
pub fn validate_staff(username: &str, display_name: &str) -> Result<(), Vec<FieldError>> {
    let mut e = Errors::default();
    if username.is_empty() {
        e.add("username", "err-required");
    } else if username.len() > USERNAME_MAX
        || !username
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '.' | '-' | '_'))
    {
        e.add("username", "err-username");
    }
    let d = display_name.trim();
    if d.is_empty() {
        e.add("display_name", "err-required");
    } else if d.chars().count() > 60 {
        e.push(FieldError::new("display_name", "err-too-long").arg("max", 60));
    }
    e.into_result(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn password_policy() {
        assert!(validate_password("short", "ana").is_err());
        assert!(validate_password("anaana1234", "anaana1234").is_err());
        assert!(validate_password("correct horse", "ana").is_ok());
    }

    #[test]
    fn usernames() {
        assert!(validate_staff("floor.ana", "Ana").is_ok());
        assert!(validate_staff("Floor Ana", "Ana").is_err());
        assert!(validate_staff("ana", " ").is_err());
    }
}
