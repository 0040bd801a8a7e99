//! Configuration from an optional TOML file and `CARDROOM_*` environment variables,
//! validated at start: an invalid setting stops the start with a message naming it.

use figment::providers::{Env, Format, Serialized, Toml};
use figment::Figment;
use serde::{Deserialize, Deserializer, Serialize};
use std::net::SocketAddr;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Config {
    /// `CARDROOM_BIND`: address to listen on.
    pub bind: String,
    /// `CARDROOM_DATABASE_URL`: `sqlite://file.db` (default) or `postgres://…`.
    pub database_url: String,
    /// `CARDROOM_SECRET`: key that signs sessions and links (generated and stored in the
    /// database on first start when absent).
    pub secret: Option<String>,
    /// `CARDROOM_ADMIN_PASSWORD`: password of the `admin` account created on first start.
    pub admin_password: Option<String>,
    /// `CARDROOM_TEST_CLOCK=1`: an admin-only API may move the clock forward (tests, demos).
    #[serde(deserialize_with = "flag")]
    pub test_clock: bool,
    /// `CARDROOM_SECURE_COOKIES=1` when served over HTTPS.
    #[serde(deserialize_with = "flag")]
    pub secure_cookies: bool,
    /// `CARDROOM_POOL_SIZE`: database connections.
    pub pool_size: u32,
    /// `CARDROOM_SESSION_HOURS`: how long a sign-in lasts.
    pub session_hours: u32,
    /// `CARDROOM_WORKERS`: HTTP worker threads (default: one per core).
    pub workers: Option<usize>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            bind: "127.0.0.1:8080".into(),
            database_url: "sqlite://cardroom.db".into(),
            secret: None,
            admin_password: None,
            test_clock: false,
            secure_cookies: false,
            pool_size: 8,
            session_hours: 12,
            workers: None,
        }
    }
}

fn flag<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum F {
        B(bool),
        I(i64),
        S(String),
    }
    match F::deserialize(d)? {
        F::B(b) => Ok(b),
        F::I(i) => Ok(i != 0),
        F::S(s) => match s.trim().to_ascii_lowercase().as_str() {
            "1" | "true" | "yes" | "on" => Ok(true),
            "0" | "false" | "no" | "off" | "" => Ok(false),
            other => Err(serde::de::Error::custom(format!("expected 1/0 or true/false, got {other:?}"))),
        },
    }
}

#[derive(Debug, thiserror::Error)]
#[error("invalid configuration: {setting}: {message}")]
pub struct ConfigError {
    pub setting: String,
    pub message: String,
}

fn bad(setting: &str, message: impl Into<String>) -> ConfigError {
    ConfigError { setting: setting.into(), message: message.into() }
}

impl Config {
    /// Defaults, then the file named by `CARDROOM_CONFIG` (default `cardroom.toml`, if it
    /// exists), then `CARDROOM_*` variables.
    pub fn load() -> Result<Config, ConfigError> {
        let file = std::env::var("CARDROOM_CONFIG").unwrap_or_else(|_| "cardroom.toml".into());
        let c: Config = Figment::from(Serialized::defaults(Config::default()))
            .merge(Toml::file(&file))
            .merge(Env::prefixed("CARDROOM_").ignore(&["config"]))
            .extract()
            .map_err(|e| {
                let setting = e.path.first().map(|p| format!("CARDROOM_{}", p.to_ascii_uppercase())).unwrap_or_else(|| file.clone());
                bad(&setting, e.kind.to_string())
            })?;
        c.validate()?;
        Ok(c)
    }

    pub fn validate(&self) -> Result<(), ConfigError> {
        self.bind
            .parse::<SocketAddr>()
            .map_err(|_| bad("CARDROOM_BIND", format!("{:?} is not an address like 127.0.0.1:8080", self.bind)))?;
        let url = self.database_url.as_str();
        let ok_scheme = url.starts_with("sqlite:") || url.starts_with("postgres://") || url.starts_with("postgresql://");
        if !ok_scheme {
            return Err(bad("CARDROOM_DATABASE_URL", "must start with sqlite:// or postgres://"));
        }
        if crate::db::sqlite_path(url).is_empty() {
            return Err(bad("CARDROOM_DATABASE_URL", "the SQLite file name is empty"));
        }
        if let Some(s) = &self.secret {
            if s.len() < 32 {
                return Err(bad("CARDROOM_SECRET", "must be at least 32 characters"));
            }
        }
        if let Some(p) = &self.admin_password {
            crate::domain::staff::validate_password(p, "admin")
                .map_err(|_| bad("CARDROOM_ADMIN_PASSWORD", format!("must be {} to 128 characters and not the username", crate::domain::staff::PASSWORD_MIN)))?;
        }
        if !(1..=64).contains(&self.pool_size) {
            return Err(bad("CARDROOM_POOL_SIZE", "must be between 1 and 64"));
        }
        if !(1..=48).contains(&self.session_hours) {
            return Err(bad("CARDROOM_SESSION_HOURS", "must be between 1 and 48"));
        }
        if let Some(w) = self.workers {
            if !(1..=64).contains(&w) {
                return Err(bad("CARDROOM_WORKERS", "must be between 1 and 64"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid() {
        assert!(Config::default().validate().is_ok());
    }

    #[test]
    fn invalid_settings_are_named() {
        let mut c = Config::default();
        c.bind = "nowhere".into();
        assert_eq!(c.validate().unwrap_err().setting, "CARDROOM_BIND");
        let mut c = Config::default();
        c.database_url = "mysql://x".into();
        assert_eq!(c.validate().unwrap_err().setting, "CARDROOM_DATABASE_URL");
        let mut c = Config::default();
        c.secret = Some("short".into());
        assert_eq!(c.validate().unwrap_err().setting, "CARDROOM_SECRET");
        let mut c = Config::default();
        c.admin_password = Some("admin".into());
        assert_eq!(c.validate().unwrap_err().setting, "CARDROOM_ADMIN_PASSWORD");
    }
}
