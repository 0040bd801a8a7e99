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
    /// `CARDROOM_BACKUP_DIR`: SQLite only — the server backs the database up there on its own
    /// (checked copies, see `cardroom backup`); unset: no scheduled backups.
    pub backup_dir: Option<String>,
    /// `CARDROOM_BACKUP_EVERY_MIN`: minutes between scheduled backups (5-1440, default 60).
    pub backup_every_min: u32,
    /// `CARDROOM_BACKUP_KEEP`: scheduled backups kept in the directory (1-1000, default 48).
    pub backup_keep: u32,
    /// `CARDROOM_METRICS_TOKEN`: the bearer token `GET /metrics` wants (≥ 16 characters).
    /// Unset: `/metrics` answers only requests from the machine itself (loopback).
    pub metrics_token: Option<String>,
    /// `CARDROOM_TRUSTED_PROXIES`: comma-separated addresses of reverse proxies in front of
    /// the server. A request from one of them is attributed to the client its
    /// `X-Forwarded-For` names (sign-in throttling, sessions, player-link rate limits);
    /// from anyone else that header is ignored (a client could write anything in it).
    pub trusted_proxies: Option<String>,
    /// `CARDROOM_AUDIT_DIR`: where the audit trail's signing key and signed checkpoints are
    /// kept — outside the database on purpose (default: the SQLite file's directory; on
    /// PostgreSQL `audit` in the service's state directory — systemd's `STATE_DIRECTORY`,
    /// `/var/lib/cardroom/audit` in the Debian package — else in the user's
    /// (`$XDG_STATE_HOME` or `~/.local/state`)`/cardroom/audit`). Back it up apart from the
    /// database.
    pub audit_dir: Option<String>,
    /// `CARDROOM_SESSION_HOURS`: how long a sign-in lasts.
    pub session_hours: u32,
    /// `CARDROOM_WORKERS`: HTTP worker threads (default: one per core).
    pub workers: Option<usize>,
    /// `CARDROOM_PUBLIC_URL`: the address players reach the server at, for the links in
    /// messages (default `http://` + `CARDROOM_BIND`).
    pub public_url: Option<String>,
    /// `CARDROOM_GAMING_DAY_ENDS`: local time (HH:MM, room's zone) at which the gaming day
    /// ends and players' links expire (default 06:00).
    pub gaming_day_ends: String,
    /// `CARDROOM_SMTP_HOST`: the SMTP relay for e-mail (unset: e-mail goes to the local sink).
    pub smtp_host: Option<String>,
    /// `CARDROOM_SMTP_PORT` (default by `CARDROOM_SMTP_TLS`: 587 starttls, 465 tls, 25 none).
    pub smtp_port: Option<u16>,
    /// `CARDROOM_SMTP_TLS`: `starttls` (default), `tls` (implicit TLS) or `none`.
    pub smtp_tls: String,
    /// `CARDROOM_SMTP_USER` / `CARDROOM_SMTP_PASSWORD`: credentials (both or neither).
    pub smtp_user: Option<String>,
    pub smtp_password: Option<String>,
    /// `CARDROOM_MAIL_FROM`: the sender, e.g. `Cardroom <floor@example.com>` (needed with SMTP).
    pub mail_from: Option<String>,
    /// `CARDROOM_SMS_PROVIDER`: `generic` or `twilio` (unset: SMS go to the local sink).
    pub sms_provider: Option<String>,
    /// `CARDROOM_SMS_URL`: generic: the gateway's endpoint; twilio: the API base URL
    /// (default `https://api.twilio.com`).
    pub sms_url: Option<String>,
    /// `CARDROOM_SMS_USER` / `CARDROOM_SMS_PASSWORD`: HTTP basic credentials (Twilio: the
    /// Account SID and the auth token).
    pub sms_user: Option<String>,
    pub sms_password: Option<String>,
    /// `CARDROOM_SMS_TOKEN`: generic: a Bearer token instead of basic credentials.
    pub sms_token: Option<String>,
    /// `CARDROOM_SMS_FROM`: the sender number or name.
    pub sms_from: Option<String>,
    /// `CARDROOM_SMS_TEMPLATE`: generic: the request body, with `{to}`, `{from}`, `{text}`
    /// and `{key}` (the idempotency key), escaped for the content type.
    pub sms_template: String,
    /// `CARDROOM_SMS_CONTENT_TYPE`: generic: `application/json` (default) or
    /// `application/x-www-form-urlencoded`.
    pub sms_content_type: String,
    /// `CARDROOM_NOTIFY_SINK`: the file the local sink appends to (JSON lines); default
    /// `cardroom-messages.log` beside the SQLite file (in the working directory on PostgreSQL).
    pub notify_sink: Option<String>,
    /// `CARDROOM_NOTIFY_MAX_ATTEMPTS`: attempts before a message is marked failed.
    pub notify_max_attempts: u32,
    /// `CARDROOM_NOTIFY_BACKOFF_MS`: the wait after the first failed attempt; it doubles
    /// after each one, up to `CARDROOM_NOTIFY_BACKOFF_MAX_MS`.
    pub notify_backoff_ms: u64,
    pub notify_backoff_max_ms: u64,
    /// `CARDROOM_NOTIFY_POLL_MS`: how often the delivery worker looks for due messages.
    pub notify_poll_ms: u64,
    /// `CARDROOM_NOTIFY_LEASE_SECS`: how long a claimed message is left to its worker before
    /// another may take it over (a crashed worker's messages are re-sent after it).
    pub notify_lease_secs: u64,
    /// `CARDROOM_NOTIFY_TIMEOUT_SECS`: network timeout of one send.
    pub notify_timeout_secs: u64,
    /// `CARDROOM_CALL_EXTENSION_MIN`: minutes a player's "need more time" (on their link)
    /// adds to a seat call's response window, once per call (1–30).
    pub call_extension_min: u32,
    /// `CARDROOM_PLAYER_LINK_RATE`: requests per minute one player's link may take on `/p/…`
    /// (a bucket of this size refilled over a minute; 10–1,000,000); one client address may
    /// make `web::limits::ADDRESS_FACTOR` times that in all.
    pub player_link_rate: u32,
    /// `CARDROOM_JOIN_CODES_PER_PHONE`: join codes one phone number may be sent
    /// in an hour (1–20).
    pub join_codes_per_phone: u32,
    /// `CARDROOM_JOIN_CODES_PER_ADDRESS`: join codes asked for from one client address in an
    /// hour (1–10000; a room's guest Wi-Fi is one address behind NAT).
    pub join_codes_per_address: u32,
    /// `CARDROOM_JOIN_CODES_PER_ROOM`: join codes the whole room sends in an hour (1–100000).
    pub join_codes_per_room: u32,
    /// `CARDROOM_JOIN_ENTRIES_PER_ADDRESS`: list entries made from one client address in an
    /// hour (1–10000).
    pub join_entries_per_address: u32,
    /// `CARDROOM_JOIN_ENTRIES_PER_ROOM`: list entries made from phones in the whole room in an
    /// hour (1–100000).
    pub join_entries_per_room: u32,
    /// `CARDROOM_JOIN_SMS_COST`: what one SMS costs the room, in the currency's minor units
    /// (0–100000), for the cap below.
    pub join_sms_cost: u32,
    /// `CARDROOM_JOIN_SMS_COST_CAP`: the most the join codes sent by SMS may cost in an hour,
    /// in minor units (0–100000000); past it codes wait (429) until the hour's spend falls.
    pub join_sms_cost_cap: u32,
    /// `CARDROOM_KIOSK_IDLE_SECS`: seconds without a touch after which the desk
    /// kiosk returns to its start screen, clearing every field (2–600; default 30).
    pub kiosk_idle_secs: u32,
    /// `CARDROOM_SQLITE_SYNCHRONOUS`: `full` (default: every acknowledged write is on disk,
    /// it survives a power loss or an OS crash) or `normal` (faster commits; the last
    /// transactions before a power loss or OS crash may be lost, never the database's
    /// integrity; a crash of the server process alone loses nothing). SQLite only.
    pub sqlite_synchronous: String,
    /// The settings given as text, read once into their types (they were validated at
    /// start); filled on first use.
    #[serde(skip)]
    pub parsed: Parsed,
}

/// Settings read once from their text: the trusted proxies' addresses and the gaming day's
/// end.
#[derive(Debug, Clone, Default)]
pub struct Parsed {
    proxies: std::sync::OnceLock<Vec<std::net::IpAddr>>,
    day_ends: std::sync::OnceLock<chrono::NaiveTime>,
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
            metrics_token: None,
            trusted_proxies: None,
            audit_dir: None,
            backup_dir: None,
            backup_every_min: 60,
            backup_keep: 48,
            session_hours: 12,
            workers: None,
            public_url: None,
            gaming_day_ends: "06:00".into(),
            smtp_host: None,
            smtp_port: None,
            smtp_tls: "starttls".into(),
            smtp_user: None,
            smtp_password: None,
            mail_from: None,
            sms_provider: None,
            sms_url: None,
            sms_user: None,
            sms_password: None,
            sms_token: None,
            sms_from: None,
            sms_template: DEFAULT_SMS_TEMPLATE.into(),
            sms_content_type: "application/json".into(),
            notify_sink: None,
            notify_max_attempts: 8,
            notify_backoff_ms: 5_000,
            notify_backoff_max_ms: 600_000,
            notify_poll_ms: 1_000,
            notify_lease_secs: 120,
            notify_timeout_secs: 20,
            call_extension_min: 5,
            player_link_rate: 240,
            join_codes_per_phone: 3,
            join_codes_per_address: 20,
            join_codes_per_room: 300,
            join_entries_per_address: 30,
            join_entries_per_room: 600,
            join_sms_cost: 8,
            join_sms_cost_cap: 2_000,
            kiosk_idle_secs: crate::domain::kiosk::IDLE_SECS_DEFAULT,
            sqlite_synchronous: "full".into(),
            parsed: Parsed::default(),
        }
    }
}

impl Config {
    /// The directory of the audit trail's key and checkpoints (`CARDROOM_AUDIT_DIR`; its
    /// default is checked by `validate`).
    pub fn audit_dir_path(&self) -> std::path::PathBuf {
        self.audit_dir_from(
            |k| std::env::var(k).ok(),
            std::path::Path::new(OLD_PG_AUDIT_DIR),
        )
        .unwrap_or_else(|| OLD_PG_AUDIT_DIR.into())
    }

    /// [`Config::audit_dir_path`] with the environment and the former default directory
    /// given (`None`: on PostgreSQL, no state directory to default to).
    fn audit_dir_from(
        &self,
        env: impl Fn(&str) -> Option<String>,
        old: &std::path::Path,
    ) -> Option<std::path::PathBuf> {
        use std::path::PathBuf;
        if let Some(d) = self.audit_dir.as_deref().filter(|d| !d.trim().is_empty()) {
            return Some(d.into());
        }
        if crate::db::Backend::of_url(&self.database_url) == crate::db::Backend::Sqlite {
            let db = PathBuf::from(crate::db::sqlite_path(&self.database_url));
            return Some(match db.parent() {
                Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
                _ => ".".into(),
            });
        }
        let set = |k: &str| env(k).filter(|v| !v.trim().is_empty());
        // systemd's StateDirectory= (the Debian package's unit: /var/lib/cardroom).
        let state = set("STATE_DIRECTORY")
            .and_then(|v| v.split(':').next().map(PathBuf::from))
            .or_else(|| set("XDG_STATE_HOME").map(|v| PathBuf::from(v).join("cardroom")))
            .or_else(|| set("HOME").map(|v| PathBuf::from(v).join(".local/state/cardroom")))?
            .join("audit");
        // The directory the server used before, in its working directory: kept while it
        // holds the key and the new place has none yet (the key and the checkpoints move
        // together, or the series would start again; see the README).
        if !state.join(crate::audit_seal::KEY_FILE).exists()
            && old.join(crate::audit_seal::KEY_FILE).exists()
        {
            return Some(old.to_path_buf());
        }
        Some(state)
    }

    /// The reverse proxies whose `X-Forwarded-For` is believed (validated at start, read
    /// once).
    pub fn trusted_proxy_ips(&self) -> &[std::net::IpAddr] {
        self.parsed.proxies.get_or_init(|| {
            self.trusted_proxies
                .iter()
                .flat_map(|s| s.split(','))
                .filter_map(|p| p.trim().parse().ok())
                .collect()
        })
    }

    /// `CARDROOM_GAMING_DAY_ENDS` as a time of day (validated at start, read once).
    pub fn day_ends(&self) -> chrono::NaiveTime {
        *self.parsed.day_ends.get_or_init(|| {
            crate::domain::clock::parse_hhmm(&self.gaming_day_ends).unwrap_or_default()
        })
    }
}

/// Where the audit directory was on PostgreSQL before it defaulted to the state directory:
/// in the working directory.
pub const OLD_PG_AUDIT_DIR: &str = "cardroom-audit";

/// The commented example settings file (`cardroom config --example`): every key, its default
/// and what it does.
pub const EXAMPLE: &str = include_str!("cardroom.example.toml");

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
                let setting = e
                    .path
                    .first()
                    .map(|p| format!("CARDROOM_{}", p.to_ascii_uppercase()))
                    .unwrap_or_else(|| file.clone());
                bad(&setting, e.kind.to_string())
            })?;
        c.validate()?;
        Ok(c)
    }

    pub fn validate(&self) -> Result<(), ConfigError> {
        self.bind.parse::<SocketAddr>().map_err(|_| {
            bad(
                "CARDROOM_BIND",
                format!("{:?} is not an address like 127.0.0.1:8080", self.bind),
            )
        })?;
        let url = self.database_url.as_str();
        let ok_scheme = url.starts_with("sqlite:")
            || url.starts_with("postgres://")
            || url.starts_with("postgresql://");
        if !ok_scheme {
            return Err(bad(
                "CARDROOM_DATABASE_URL",
                "must start with sqlite:// or postgres://",
            ));
        }
        if crate::db::sqlite_path(url).is_empty() {
            return Err(bad(
                "CARDROOM_DATABASE_URL",
                "the SQLite file name is empty",
            ));
        }
        if let Some(s) = &self.secret {
            if s.len() < 32 {
                return Err(bad("CARDROOM_SECRET", "must be at least 32 characters"));
            }
        }
        if let Some(p) = &self.admin_password {
            crate::domain::staff::validate_password(p, "admin").map_err(|_| {
                bad(
                    "CARDROOM_ADMIN_PASSWORD",
                    format!(
                        "must be {} to 128 characters and not the username",
                        crate::domain::staff::PASSWORD_MIN
                    ),
                )
            })?;
        }
        if self
            .metrics_token
            .as_ref()
            .is_some_and(|t| t.len() < 16 || t.chars().any(char::is_whitespace))
        {
            return Err(bad(
                "CARDROOM_METRICS_TOKEN",
                "must be at least 16 characters, without spaces",
            ));
        }
        if let Some(bad_ip) = self
            .trusted_proxies
            .iter()
            .flat_map(|s| s.split(','))
            .map(str::trim)
            .find(|p| !p.is_empty() && p.parse::<std::net::IpAddr>().is_err())
        {
            return Err(bad(
                "CARDROOM_TRUSTED_PROXIES",
                format!("{bad_ip:?} is not an IP address (give addresses, comma-separated)"),
            ));
        }
        if self
            .audit_dir_from(
                |k| std::env::var(k).ok(),
                std::path::Path::new(OLD_PG_AUDIT_DIR),
            )
            .is_none()
        {
            return Err(bad(
                "CARDROOM_AUDIT_DIR",
                "is needed on PostgreSQL when there is no state directory to default to (STATE_DIRECTORY, XDG_STATE_HOME or HOME)",
            ));
        }
        if !(5..=1440).contains(&self.backup_every_min) {
            return Err(bad(
                "CARDROOM_BACKUP_EVERY_MIN",
                "must be between 5 and 1440 (minutes)",
            ));
        }
        if !(1..=1000).contains(&self.backup_keep) {
            return Err(bad("CARDROOM_BACKUP_KEEP", "must be between 1 and 1000"));
        }
        if let Some(d) = &self.backup_dir {
            if url.starts_with("postgres") {
                return Err(bad("CARDROOM_BACKUP_DIR", "is for the embedded SQLite database; back PostgreSQL up with pg_dump or WAL archiving (see `cardroom backup`)"));
            }
            let p = std::path::Path::new(d);
            if p.exists() && !p.is_dir() {
                return Err(bad(
                    "CARDROOM_BACKUP_DIR",
                    format!("{d} is not a directory"),
                ));
            }
        }
        if !(1..=64).contains(&self.pool_size) {
            return Err(bad("CARDROOM_POOL_SIZE", "must be between 1 and 64"));
        }
        if !(1..=48).contains(&self.session_hours) {
            return Err(bad("CARDROOM_SESSION_HOURS", "must be between 1 and 48"));
        }
        if !(1..=30).contains(&self.call_extension_min) {
            return Err(bad(
                "CARDROOM_CALL_EXTENSION_MIN",
                "must be between 1 and 30 (minutes)",
            ));
        }
        if !(10..=1_000_000).contains(&self.player_link_rate) {
            return Err(bad(
                "CARDROOM_PLAYER_LINK_RATE",
                "must be between 10 and 1000000 (requests per minute)",
            ));
        }
        for (setting, v, min, max) in [
            (
                "CARDROOM_JOIN_CODES_PER_PHONE",
                self.join_codes_per_phone,
                1,
                20,
            ),
            (
                "CARDROOM_JOIN_CODES_PER_ADDRESS",
                self.join_codes_per_address,
                1,
                10_000,
            ),
            (
                "CARDROOM_JOIN_CODES_PER_ROOM",
                self.join_codes_per_room,
                1,
                100_000,
            ),
            (
                "CARDROOM_JOIN_ENTRIES_PER_ADDRESS",
                self.join_entries_per_address,
                1,
                10_000,
            ),
            (
                "CARDROOM_JOIN_ENTRIES_PER_ROOM",
                self.join_entries_per_room,
                1,
                100_000,
            ),
            ("CARDROOM_JOIN_SMS_COST", self.join_sms_cost, 0, 100_000),
            (
                "CARDROOM_JOIN_SMS_COST_CAP",
                self.join_sms_cost_cap,
                0,
                100_000_000,
            ),
        ] {
            if !(min..=max).contains(&v) {
                return Err(bad(setting, format!("must be between {min} and {max}")));
            }
        }
        if !crate::domain::kiosk::idle_secs_valid(self.kiosk_idle_secs) {
            return Err(bad(
                "CARDROOM_KIOSK_IDLE_SECS",
                format!(
                    "must be between {} and {} (seconds)",
                    crate::domain::kiosk::IDLE_SECS_MIN,
                    crate::domain::kiosk::IDLE_SECS_MAX
                ),
            ));
        }
        if crate::db::Synchronous::parse(&self.sqlite_synchronous).is_none() {
            return Err(bad(
                "CARDROOM_SQLITE_SYNCHRONOUS",
                format!("{:?}: must be full or normal", self.sqlite_synchronous),
            ));
        }
        if let Some(w) = self.workers {
            if !(1..=64).contains(&w) {
                return Err(bad("CARDROOM_WORKERS", "must be between 1 and 64"));
            }
        }
        self.validate_messages()
    }

    /// The message settings (README "Messages"): each provider complete or absent.
    fn validate_messages(&self) -> Result<(), ConfigError> {
        fn set(v: &Option<String>) -> Option<&str> {
            v.as_deref().map(str::trim).filter(|s| !s.is_empty())
        }
        if let Some(u) = set(&self.public_url) {
            if !(u.starts_with("http://") || u.starts_with("https://")) || u.len() < 10 {
                return Err(bad(
                    "CARDROOM_PUBLIC_URL",
                    format!("{u:?} is not an address like https://room.example.com"),
                ));
            }
        }
        if crate::domain::clock::parse_hhmm(&self.gaming_day_ends).is_none() {
            return Err(bad(
                "CARDROOM_GAMING_DAY_ENDS",
                "must be a time HH:MM such as 06:00",
            ));
        }
        if !matches!(self.smtp_tls.as_str(), "starttls" | "tls" | "none") {
            return Err(bad("CARDROOM_SMTP_TLS", "must be starttls, tls or none"));
        }
        if set(&self.smtp_host).is_some() {
            let from = set(&self.mail_from).ok_or_else(|| {
                bad(
                    "CARDROOM_MAIL_FROM",
                    "is needed when CARDROOM_SMTP_HOST is set",
                )
            })?;
            if from.parse::<lettre::message::Mailbox>().is_err() {
                return Err(bad(
                    "CARDROOM_MAIL_FROM",
                    format!("{from:?} is not an address like Cardroom <floor@example.com>"),
                ));
            }
            if set(&self.smtp_user).is_some() != set(&self.smtp_password).is_some() {
                return Err(bad(
                    "CARDROOM_SMTP_PASSWORD",
                    "CARDROOM_SMTP_USER and CARDROOM_SMTP_PASSWORD go together",
                ));
            }
        } else if self.smtp_port.is_some() || set(&self.smtp_user).is_some() {
            return Err(bad(
                "CARDROOM_SMTP_HOST",
                "is needed when other CARDROOM_SMTP_* settings are given",
            ));
        }
        if self.smtp_port == Some(0) {
            return Err(bad("CARDROOM_SMTP_PORT", "must be between 1 and 65535"));
        }
        match set(&self.sms_provider) {
            None => {
                if set(&self.sms_url).is_some() {
                    return Err(bad(
                        "CARDROOM_SMS_PROVIDER",
                        "must be generic or twilio when CARDROOM_SMS_URL is set",
                    ));
                }
            }
            Some("generic") => {
                let url = set(&self.sms_url).ok_or_else(|| {
                    bad(
                        "CARDROOM_SMS_URL",
                        "is needed with CARDROOM_SMS_PROVIDER=generic",
                    )
                })?;
                if !(url.starts_with("http://") || url.starts_with("https://")) {
                    return Err(bad(
                        "CARDROOM_SMS_URL",
                        "must start with http:// or https://",
                    ));
                }
                if !matches!(
                    self.sms_content_type.as_str(),
                    "application/json" | "application/x-www-form-urlencoded"
                ) {
                    return Err(bad(
                        "CARDROOM_SMS_CONTENT_TYPE",
                        "must be application/json or application/x-www-form-urlencoded",
                    ));
                }
                if !self.sms_template.contains("{to}") || !self.sms_template.contains("{text}") {
                    return Err(bad("CARDROOM_SMS_TEMPLATE", "must contain {to} and {text}"));
                }
            }
            Some("twilio") => {
                if let Some(url) = set(&self.sms_url) {
                    if !(url.starts_with("http://") || url.starts_with("https://")) {
                        return Err(bad(
                            "CARDROOM_SMS_URL",
                            "must start with http:// or https://",
                        ));
                    }
                }
                if set(&self.sms_user).is_none() || set(&self.sms_password).is_none() {
                    return Err(bad("CARDROOM_SMS_USER", "Twilio needs CARDROOM_SMS_USER (Account SID) and CARDROOM_SMS_PASSWORD (auth token)"));
                }
                if set(&self.sms_from).is_none() {
                    return Err(bad("CARDROOM_SMS_FROM", "Twilio needs the sender number"));
                }
            }
            Some(other) => {
                return Err(bad(
                    "CARDROOM_SMS_PROVIDER",
                    format!("{other:?}: must be generic or twilio"),
                ))
            }
        }
        if self
            .notify_sink
            .as_deref()
            .is_some_and(|s| s.trim().is_empty())
        {
            return Err(bad("CARDROOM_NOTIFY_SINK", "must name a file"));
        }
        if !(1..=50).contains(&self.notify_max_attempts) {
            return Err(bad(
                "CARDROOM_NOTIFY_MAX_ATTEMPTS",
                "must be between 1 and 50",
            ));
        }
        if self.notify_backoff_ms == 0 || self.notify_backoff_max_ms < self.notify_backoff_ms {
            return Err(bad(
                "CARDROOM_NOTIFY_BACKOFF_MAX_MS",
                "must be at least CARDROOM_NOTIFY_BACKOFF_MS, which must be above 0",
            ));
        }
        if !(1..=60_000).contains(&self.notify_poll_ms) {
            return Err(bad(
                "CARDROOM_NOTIFY_POLL_MS",
                "must be between 1 and 60000",
            ));
        }
        if !(1..=300).contains(&self.notify_timeout_secs) {
            return Err(bad(
                "CARDROOM_NOTIFY_TIMEOUT_SECS",
                "must be between 1 and 300",
            ));
        }
        if self.notify_lease_secs <= self.notify_timeout_secs * 2 {
            return Err(bad("CARDROOM_NOTIFY_LEASE_SECS", "must be more than twice CARDROOM_NOTIFY_TIMEOUT_SECS (a send must end before its lease)"));
        }
        Ok(())
    }

    /// The local sink's file (see `notify_sink`).
    pub fn sink_path(&self) -> String {
        if let Some(s) = self
            .notify_sink
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            return s.to_string();
        }
        let name = "cardroom-messages.log";
        if crate::db::Backend::of_url(&self.database_url) == crate::db::Backend::Sqlite {
            if let Some(dir) = std::path::Path::new(crate::db::sqlite_path(&self.database_url))
                .parent()
                .filter(|d| !d.as_os_str().is_empty())
            {
                return dir.join(name).display().to_string();
            }
        }
        name.to_string()
    }

    /// SQLite's `PRAGMA synchronous` (`CARDROOM_SQLITE_SYNCHRONOUS`, checked by `validate`).
    pub fn sqlite_synchronous(&self) -> crate::db::Synchronous {
        crate::db::Synchronous::parse(&self.sqlite_synchronous).unwrap_or_default()
    }

    /// The base of players' links: `CARDROOM_PUBLIC_URL` without a trailing slash.
    pub fn public_base(&self) -> String {
        match self
            .public_url
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            Some(u) => u.trim_end_matches('/').to_string(),
            None => format!("http://{}", self.bind),
        }
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
    #[allow(clippy::field_reassign_with_default)] // one setting changed from the defaults, each time
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
        for bad in [0, 31] {
            let mut c = Config::default();
            c.call_extension_min = bad;
            assert_eq!(
                c.validate().unwrap_err().setting,
                "CARDROOM_CALL_EXTENSION_MIN"
            );
        }
        let mut c = Config::default();
        c.join_codes_per_phone = 0;
        assert_eq!(
            c.validate().unwrap_err().setting,
            "CARDROOM_JOIN_CODES_PER_PHONE"
        );
        for bad in [0, 1, 601] {
            let mut c = Config::default();
            c.kiosk_idle_secs = bad;
            assert_eq!(
                c.validate().unwrap_err().setting,
                "CARDROOM_KIOSK_IDLE_SECS"
            );
        }
        let mut c = Config::default();
        c.player_link_rate = 5;
        assert_eq!(
            c.validate().unwrap_err().setting,
            "CARDROOM_PLAYER_LINK_RATE"
        );
        let mut c = Config::default();
        assert_eq!(c.sqlite_synchronous(), crate::db::Synchronous::Full);
        c.sqlite_synchronous = "Normal".into();
        assert!(c.validate().is_ok());
        assert_eq!(c.sqlite_synchronous(), crate::db::Synchronous::Normal);
        c.sqlite_synchronous = "off".into();
        assert_eq!(
            c.validate().unwrap_err().setting,
            "CARDROOM_SQLITE_SYNCHRONOUS"
        );
    }

    #[test]
    #[allow(clippy::field_reassign_with_default)]
    fn message_settings_are_checked_together() {
        let mut c = Config::default();
        c.smtp_host = Some("smtp.example.com".into());
        assert_eq!(c.validate().unwrap_err().setting, "CARDROOM_MAIL_FROM");
        c.mail_from = Some("Cardroom <floor@example.com>".into());
        assert!(c.validate().is_ok());
        c.smtp_user = Some("u".into());
        assert_eq!(c.validate().unwrap_err().setting, "CARDROOM_SMTP_PASSWORD");
        c.smtp_password = Some("p".into());
        c.smtp_tls = "ssl".into();
        assert_eq!(c.validate().unwrap_err().setting, "CARDROOM_SMTP_TLS");
        let mut c = Config::default();
        c.sms_provider = Some("carrier-pigeon".into());
        assert_eq!(c.validate().unwrap_err().setting, "CARDROOM_SMS_PROVIDER");
        c.sms_provider = Some("generic".into());
        assert_eq!(c.validate().unwrap_err().setting, "CARDROOM_SMS_URL");
        c.sms_url = Some("http://127.0.0.1:9/sms".into());
        assert!(c.validate().is_ok());
        c.sms_provider = Some("twilio".into());
        assert_eq!(c.validate().unwrap_err().setting, "CARDROOM_SMS_USER");
        let mut c = Config::default();
        c.notify_lease_secs = 10;
        assert_eq!(
            c.validate().unwrap_err().setting,
            "CARDROOM_NOTIFY_LEASE_SECS"
        );
        let mut c = Config::default();
        c.gaming_day_ends = "25:00".into();
        assert_eq!(
            c.validate().unwrap_err().setting,
            "CARDROOM_GAMING_DAY_ENDS"
        );
        let mut c = Config::default();
        c.public_url = Some("room.example.com".into());
        assert_eq!(c.validate().unwrap_err().setting, "CARDROOM_PUBLIC_URL");
        assert_eq!(Config::default().public_base(), "http://127.0.0.1:8080");
        let c = Config {
            database_url: "sqlite:///var/lib/room/cardroom.db".into(),
            ..Config::default()
        };
        assert_eq!(c.sink_path(), "/var/lib/room/cardroom-messages.log");
        assert_eq!(Config::default().sink_path(), "cardroom-messages.log");
    }

    #[test]
    fn the_audit_directory_defaults_to_the_state_directory_on_postgresql() {
        use std::path::PathBuf;
        let env = |vars: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                vars.iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        // The former default directory, here one without a key.
        let none = PathBuf::from("/nonexistent/cardroom-audit");
        // SQLite: beside the database file, whatever the environment.
        let lite = Config {
            database_url: "sqlite:///var/lib/room/cardroom.db".into(),
            ..Config::default()
        };
        assert_eq!(
            lite.audit_dir_from(env(&[("STATE_DIRECTORY", "/srv/x")]), &none),
            Some(PathBuf::from("/var/lib/room"))
        );
        assert_eq!(
            Config::default().audit_dir_from(env(&[]), &none),
            Some(PathBuf::from("."))
        );
        let pg = Config {
            database_url: "postgres://cardroom@db/cardroom".into(),
            ..Config::default()
        };
        // The service's state directory (the Debian package's unit sets it).
        assert_eq!(
            pg.audit_dir_from(
                env(&[
                    ("STATE_DIRECTORY", "/var/lib/cardroom:/var/lib/other"),
                    ("HOME", "/home/x")
                ]),
                &none
            ),
            Some(PathBuf::from("/var/lib/cardroom/audit"))
        );
        assert_eq!(
            pg.audit_dir_from(
                env(&[("XDG_STATE_HOME", "/st"), ("HOME", "/home/x")]),
                &none
            ),
            Some(PathBuf::from("/st/cardroom/audit"))
        );
        assert_eq!(
            pg.audit_dir_from(env(&[("HOME", "/home/x")]), &none),
            Some(PathBuf::from("/home/x/.local/state/cardroom/audit"))
        );
        // Nowhere to default to: the setting is needed.
        assert_eq!(pg.audit_dir_from(env(&[("HOME", " ")]), &none), None);
        // Set, it wins on both backends.
        let set = Config {
            audit_dir: Some("/srv/audit".into()),
            ..pg.clone()
        };
        assert_eq!(
            set.audit_dir_from(env(&[("STATE_DIRECTORY", "/var/lib/cardroom")]), &none),
            Some(PathBuf::from("/srv/audit"))
        );
        // The former default still holding the key, and none at the new place: kept.
        let old = std::env::temp_dir().join(format!("cardroom-old-audit-{}", std::process::id()));
        std::fs::create_dir_all(&old).unwrap();
        std::fs::write(old.join(crate::audit_seal::KEY_FILE), "00").unwrap();
        assert_eq!(
            pg.audit_dir_from(env(&[("STATE_DIRECTORY", "/nonexistent/state")]), &old),
            Some(old.clone())
        );
        std::fs::remove_dir_all(&old).unwrap();
    }
}

#[cfg(test)]
mod example_tests {
    use super::*;

    /// The example names every setting there is, and loads as it is shipped.
    #[test]
    fn the_example_file_has_every_key_and_is_valid() {
        let keys = serde_json::to_value(Config::default()).expect("settings as JSON");
        for key in keys.as_object().expect("an object").keys() {
            assert!(
                EXAMPLE.contains(&format!("{key} = ")),
                "the example file lacks `{key}`"
            );
        }
        let c: Config = Figment::from(Serialized::defaults(Config::default()))
            .merge(Toml::string(EXAMPLE))
            .extract()
            .expect("the example parses");
        c.validate().expect("the example is valid");
        // Uncommenting a line gives a valid value too (each documented example parses).
        let all: String = EXAMPLE
            .lines()
            .map(|l| {
                l.strip_prefix("# ")
                    .filter(|r| r.contains(" = ") && !r.starts_with(' '))
                    .unwrap_or(l)
            })
            .map(|l| format!("{l}\n"))
            .collect();
        let parsed: Result<Config, _> = Figment::from(Serialized::defaults(Config::default()))
            .merge(Toml::string(&all))
            .extract();
        assert!(parsed.is_ok(), "every example value parses: {parsed:?}");
    }
}
