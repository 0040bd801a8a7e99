//! Configuration from an optional TOML file and `CARDROOM_*` environment variables, checked
//! and read into typed values once, at start: an invalid setting stops the start with a
//! message naming it.
//!
//! [`Settings`] is what the file and the environment say, by section, as written;
//! [`Settings::validate`] checks every setting and reads it into its type, giving the
//! [`Config`] the server reads (addresses, times, paths and modes already parsed). The file
//! has a section per concern (`[mail] smtp_host = …`); the environment keeps one flat name per
//! setting (`CARDROOM_SMTP_HOST`): [`SETTINGS`] pairs them.

use figment::providers::{Format, Toml};
use serde::{Deserialize, Deserializer};
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};

#[cfg(test)]
mod example_tests;
mod settings;
mod sources;
#[cfg(test)]
mod tests;
mod typed;
mod validate;

pub use settings::*;
pub use typed::*;

/// Where the audit directory was on PostgreSQL before it defaulted to the state directory:
/// in the working directory.
pub const OLD_PG_AUDIT_DIR: &str = "cardroom-audit";

/// The commented example settings file (`cardroom config --example`): every key, its default
/// and what it does.
pub const EXAMPLE: &str = include_str!("../cardroom.example.toml");

/// The generic SMS gateway's request body unless `CARDROOM_SMS_TEMPLATE` says otherwise.
pub const DEFAULT_SMS_TEMPLATE: &str =
    r#"{"to":"{to}","from":"{from}","text":"{text}","idempotency_key":"{key}"}"#;

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
            other => Err(serde::de::Error::custom(format!(
                "expected 1/0 or true/false, got {other:?}"
            ))),
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
    ConfigError {
        setting: setting.into(),
        message: message.into(),
    }
}

/// A text setting given and not blank, trimmed.
fn set(v: &Option<String>) -> Option<&str> {
    v.as_deref().map(str::trim).filter(|s| !s.is_empty())
}

impl Config {
    /// Defaults, then the file named by `CARDROOM_CONFIG` (default `cardroom.toml`, if it
    /// exists), then `CARDROOM_*` variables; checked and read into their types.
    pub fn load() -> Result<Config, ConfigError> {
        let file = std::env::var("CARDROOM_CONFIG").unwrap_or_else(|_| "cardroom.toml".into());
        let settings = Settings::from_sources(Toml::file(&file), &file, std::env::vars())?;
        for flat in &settings.flat_keys {
            let nested = SETTINGS
                .iter()
                .find(|(f, _)| f == flat)
                .map_or("", |(_, n)| *n);
            let (section, key) = nested.split_once('.').unwrap_or(("", flat));
            eprintln!(
                "cardroom: {file}: `{flat}` is written at the top of the file; it is read as `{key}` in [{section}] (move it there)"
            );
        }
        settings.validate()
    }
}
