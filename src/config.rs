//! Configuration from an optional TOML file and `CARDROOM_*` environment variables, checked
//! and read into typed values once, at start: an invalid setting stops the start with a
//! message naming it.
//!
//! [`Settings`] is what the file and the environment say, by section, as written;
//! [`Settings::validate`] checks every setting and reads it into its type, giving the
//! [`Config`] the server reads (addresses, times, paths and modes already parsed). The file
//! has a section per concern (`[mail] smtp_host = …`); the environment keeps one flat name per
//! setting (`CARDROOM_SMTP_HOST`): [`SETTINGS`] pairs them.

use figment::providers::{Format, Serialized, Toml};
use figment::Figment;
use serde::{Deserialize, Deserializer, Serialize};
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};

/// Every setting: its environment variable (`CARDROOM_` and this, upper case) and its key in
/// the file (`section.key`). The one place the two names meet.
pub const SETTINGS: &[(&str, &str)] = &[
    ("bind", "server.bind"),
    ("workers", "server.workers"),
    ("public_url", "server.public_url"),
    ("secure_cookies", "server.secure_cookies"),
    ("trusted_proxies", "server.trusted_proxies"),
    ("session_hours", "server.session_hours"),
    ("test_clock", "server.test_clock"),
    ("database_url", "database.url"),
    ("pool_size", "database.pool_size"),
    ("sqlite_synchronous", "database.sqlite_synchronous"),
    ("secret", "security.secret"),
    ("admin_password", "security.admin_password"),
    ("metrics_token", "security.metrics_token"),
    ("audit_dir", "audit.dir"),
    ("backup_dir", "backup.dir"),
    ("backup_every_min", "backup.every_min"),
    ("backup_keep", "backup.keep"),
    ("gaming_day_ends", "room.gaming_day_ends"),
    ("call_extension_min", "room.call_extension_min"),
    ("player_link_rate", "room.player_link_rate"),
    ("kiosk_idle_secs", "room.kiosk_idle_secs"),
    ("join_codes_per_phone", "join.codes_per_phone"),
    ("join_codes_per_address", "join.codes_per_address"),
    ("join_codes_per_room", "join.codes_per_room"),
    ("join_entries_per_address", "join.entries_per_address"),
    ("join_entries_per_room", "join.entries_per_room"),
    ("join_sms_cost", "join.sms_cost"),
    ("join_sms_cost_cap", "join.sms_cost_cap"),
    ("smtp_host", "mail.smtp_host"),
    ("smtp_port", "mail.smtp_port"),
    ("smtp_tls", "mail.smtp_tls"),
    ("smtp_user", "mail.smtp_user"),
    ("smtp_password", "mail.smtp_password"),
    ("mail_from", "mail.from"),
    ("sms_provider", "sms.provider"),
    ("sms_url", "sms.url"),
    ("sms_user", "sms.user"),
    ("sms_password", "sms.password"),
    ("sms_token", "sms.token"),
    ("sms_from", "sms.from"),
    ("sms_template", "sms.template"),
    ("sms_content_type", "sms.content_type"),
    ("notify_sink", "notify.sink"),
    ("notify_max_attempts", "notify.max_attempts"),
    ("notify_backoff_ms", "notify.backoff_ms"),
    ("notify_backoff_max_ms", "notify.backoff_max_ms"),
    ("notify_poll_ms", "notify.poll_ms"),
    ("notify_lease_secs", "notify.lease_secs"),
    ("notify_timeout_secs", "notify.timeout_secs"),
];

/// The environment variable of a file key (`mail.from` → `CARDROOM_MAIL_FROM`).
pub fn env_name(key: &str) -> Option<String> {
    SETTINGS
        .iter()
        .find(|(_, k)| *k == key)
        .map(|(e, _)| format!("CARDROOM_{}", e.to_ascii_uppercase()))
}

/// The file key of an environment variable (`CARDROOM_MAIL_FROM` → `mail.from`); `None` for
/// the variables that are not settings (`CARDROOM_CONFIG`, `CARDROOM_LOG_FORMAT`, the tests').
fn key_of_env(name: &str) -> Option<&'static str> {
    let rest = name.strip_prefix("CARDROOM_")?.to_ascii_lowercase();
    SETTINGS.iter().find(|(e, _)| *e == rest).map(|(_, k)| *k)
}

// ---- the settings as given ----------------------------------------------------------------

/// The settings as the file and the environment give them, by section (the file's
/// `[section]`s). Unknown keys are refused.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// Keys the file wrote at its top, as before the sections, read in their sections.
    #[serde(skip)]
    pub flat_keys: Vec<String>,
    pub server: ServerSettings,
    pub database: DatabaseSettings,
    pub security: SecuritySettings,
    pub audit: AuditSettings,
    pub backup: BackupSettings,
    pub room: RoomSettings,
    pub join: JoinSettings,
    pub mail: MailSettings,
    pub sms: SmsSettings,
    pub notify: NotifySettings,
}

/// `[server]`: how the server answers.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerSettings {
    /// `CARDROOM_BIND`: address to listen on.
    pub bind: String,
    /// `CARDROOM_WORKERS`: HTTP worker threads (default: one per core).
    pub workers: Option<usize>,
    /// `CARDROOM_PUBLIC_URL`: the address players reach the server at, for the links in
    /// messages (default `http://` + `CARDROOM_BIND`).
    pub public_url: Option<String>,
    /// `CARDROOM_SECURE_COOKIES=1` when served over HTTPS.
    #[serde(deserialize_with = "flag")]
    pub secure_cookies: bool,
    /// `CARDROOM_TRUSTED_PROXIES`: comma-separated addresses of reverse proxies in front of
    /// the server. A request from one of them is attributed to the client its
    /// `X-Forwarded-For` names (sign-in throttling, sessions, player-link rate limits);
    /// from anyone else that header is ignored (a client could write anything in it).
    pub trusted_proxies: Option<String>,
    /// `CARDROOM_SESSION_HOURS`: how long a sign-in lasts.
    pub session_hours: u32,
    /// `CARDROOM_TEST_CLOCK=1`: an admin-only API may move the clock forward (tests, demos).
    #[serde(deserialize_with = "flag")]
    pub test_clock: bool,
}

impl Default for ServerSettings {
    fn default() -> Self {
        ServerSettings {
            bind: "127.0.0.1:8080".into(),
            workers: None,
            public_url: None,
            secure_cookies: false,
            trusted_proxies: None,
            session_hours: 12,
            test_clock: false,
        }
    }
}

/// `[database]`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DatabaseSettings {
    /// `CARDROOM_DATABASE_URL`: `sqlite://file.db` (default) or `postgres://…`.
    pub url: String,
    /// `CARDROOM_POOL_SIZE`: database connections.
    pub pool_size: u32,
    /// `CARDROOM_SQLITE_SYNCHRONOUS`: `full` (default: every acknowledged write is on disk,
    /// it survives a power loss or an OS crash) or `normal` (faster commits; the last
    /// transactions before a power loss or OS crash may be lost, never the database's
    /// integrity; a crash of the server process alone loses nothing). SQLite only.
    pub sqlite_synchronous: String,
}

impl Default for DatabaseSettings {
    fn default() -> Self {
        DatabaseSettings {
            url: "sqlite://cardroom.db".into(),
            pool_size: 8,
            sqlite_synchronous: "full".into(),
        }
    }
}

/// `[security]`: the signing key, the first admin's password, the metrics token.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SecuritySettings {
    /// `CARDROOM_SECRET`: key that signs sessions and links (generated and stored in the
    /// database on first start when absent).
    pub secret: Option<String>,
    /// `CARDROOM_ADMIN_PASSWORD`: password of the `admin` account created on first start.
    pub admin_password: Option<String>,
    /// `CARDROOM_METRICS_TOKEN`: the bearer token `GET /metrics` wants (≥ 16 characters).
    /// Unset: `/metrics` answers only requests from the machine itself (loopback).
    pub metrics_token: Option<String>,
}

/// `[audit]`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuditSettings {
    /// `CARDROOM_AUDIT_DIR`: where the audit trail's signing key and signed checkpoints are
    /// kept — outside the database on purpose (default: the SQLite file's directory; on
    /// PostgreSQL `audit` in the service's state directory — systemd's `STATE_DIRECTORY`,
    /// `/var/lib/cardroom/audit` in the Debian package — else in the user's
    /// (`$XDG_STATE_HOME` or `~/.local/state`)`/cardroom/audit`). Back it up apart from the
    /// database.
    pub dir: Option<String>,
}

/// `[backup]`: SQLite's scheduled backups.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BackupSettings {
    /// `CARDROOM_BACKUP_DIR`: SQLite only — the server backs the database up there on its own
    /// (checked copies, see `cardroom backup`); unset: no scheduled backups.
    pub dir: Option<String>,
    /// `CARDROOM_BACKUP_EVERY_MIN`: minutes between scheduled backups (5-1440, default 60).
    pub every_min: u32,
    /// `CARDROOM_BACKUP_KEEP`: scheduled backups kept in the directory (1-1000, default 48).
    pub keep: u32,
}

impl Default for BackupSettings {
    fn default() -> Self {
        BackupSettings {
            dir: None,
            every_min: 60,
            keep: 48,
        }
    }
}

/// `[room]`: the room's day, the players' links and the desk kiosk.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoomSettings {
    /// `CARDROOM_GAMING_DAY_ENDS`: local time (HH:MM, room's zone) at which the gaming day
    /// ends and players' links expire (default 06:00).
    pub gaming_day_ends: String,
    /// `CARDROOM_CALL_EXTENSION_MIN`: minutes a player's "need more time" (on their link)
    /// adds to a seat call's response window, once per call (1–30).
    pub call_extension_min: u32,
    /// `CARDROOM_PLAYER_LINK_RATE`: requests per minute one player's link may take on `/p/…`
    /// (a bucket of this size refilled over a minute; 10–1,000,000); one client address may
    /// make `web::limits::ADDRESS_FACTOR` times that in all.
    pub player_link_rate: u32,
    /// `CARDROOM_KIOSK_IDLE_SECS`: seconds without a touch after which the desk
    /// kiosk returns to its start screen, clearing every field (2–600; default 30).
    pub kiosk_idle_secs: u32,
}

impl Default for RoomSettings {
    fn default() -> Self {
        RoomSettings {
            gaming_day_ends: "06:00".into(),
            call_extension_min: 5,
            player_link_rate: 240,
            kiosk_idle_secs: crate::domain::kiosk::IDLE_SECS_DEFAULT,
        }
    }
}

/// `[join]`: players joining the lists from their phone, limited per hour.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JoinSettings {
    /// `CARDROOM_JOIN_CODES_PER_PHONE`: join codes one phone number may be sent
    /// in an hour (1–20).
    pub codes_per_phone: u32,
    /// `CARDROOM_JOIN_CODES_PER_ADDRESS`: join codes asked for from one client address in an
    /// hour (1–10000; a room's guest Wi-Fi is one address behind NAT).
    pub codes_per_address: u32,
    /// `CARDROOM_JOIN_CODES_PER_ROOM`: join codes the whole room sends in an hour (1–100000).
    pub codes_per_room: u32,
    /// `CARDROOM_JOIN_ENTRIES_PER_ADDRESS`: list entries made from one client address in an
    /// hour (1–10000).
    pub entries_per_address: u32,
    /// `CARDROOM_JOIN_ENTRIES_PER_ROOM`: list entries made from phones in the whole room in an
    /// hour (1–100000).
    pub entries_per_room: u32,
    /// `CARDROOM_JOIN_SMS_COST`: what one SMS costs the room, in the currency's minor units
    /// (0–100000), for the cap below.
    pub sms_cost: u32,
    /// `CARDROOM_JOIN_SMS_COST_CAP`: the most the join codes sent by SMS may cost in an hour,
    /// in minor units (0–100000000); past it codes wait (429) until the hour's spend falls.
    pub sms_cost_cap: u32,
}

impl Default for JoinSettings {
    fn default() -> Self {
        JoinSettings {
            codes_per_phone: 3,
            codes_per_address: 20,
            codes_per_room: 300,
            entries_per_address: 30,
            entries_per_room: 600,
            sms_cost: 8,
            sms_cost_cap: 2_000,
        }
    }
}

/// `[mail]`: e-mail by SMTP.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MailSettings {
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
    pub from: Option<String>,
}

impl Default for MailSettings {
    fn default() -> Self {
        MailSettings {
            smtp_host: None,
            smtp_port: None,
            smtp_tls: "starttls".into(),
            smtp_user: None,
            smtp_password: None,
            from: None,
        }
    }
}

/// `[sms]`: SMS by an HTTP gateway.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SmsSettings {
    /// `CARDROOM_SMS_PROVIDER`: `generic` or `twilio` (unset: SMS go to the local sink).
    pub provider: Option<String>,
    /// `CARDROOM_SMS_URL`: generic: the gateway's endpoint; twilio: the API base URL
    /// (default `https://api.twilio.com`).
    pub url: Option<String>,
    /// `CARDROOM_SMS_USER` / `CARDROOM_SMS_PASSWORD`: HTTP basic credentials (Twilio: the
    /// Account SID and the auth token).
    pub user: Option<String>,
    pub password: Option<String>,
    /// `CARDROOM_SMS_TOKEN`: generic: a Bearer token instead of basic credentials.
    pub token: Option<String>,
    /// `CARDROOM_SMS_FROM`: the sender number or name.
    pub from: Option<String>,
    /// `CARDROOM_SMS_TEMPLATE`: generic: the request body, with `{to}`, `{from}`, `{text}`
    /// and `{key}` (the idempotency key), escaped for the content type.
    pub template: String,
    /// `CARDROOM_SMS_CONTENT_TYPE`: generic: `application/json` (default) or
    /// `application/x-www-form-urlencoded`.
    pub content_type: String,
}

impl Default for SmsSettings {
    fn default() -> Self {
        SmsSettings {
            provider: None,
            url: None,
            user: None,
            password: None,
            token: None,
            from: None,
            template: DEFAULT_SMS_TEMPLATE.into(),
            content_type: "application/json".into(),
        }
    }
}

/// `[notify]`: the delivery of messages to players.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NotifySettings {
    /// `CARDROOM_NOTIFY_SINK`: the file the local sink appends to (JSON lines); default
    /// `cardroom-messages.log` beside the SQLite file (in the working directory on PostgreSQL).
    pub sink: Option<String>,
    /// `CARDROOM_NOTIFY_MAX_ATTEMPTS`: attempts before a message is marked failed.
    pub max_attempts: u32,
    /// `CARDROOM_NOTIFY_BACKOFF_MS`: the wait after the first failed attempt; it doubles
    /// after each one, up to `CARDROOM_NOTIFY_BACKOFF_MAX_MS`.
    pub backoff_ms: u64,
    pub backoff_max_ms: u64,
    /// `CARDROOM_NOTIFY_POLL_MS`: how often the delivery worker looks for due messages.
    pub poll_ms: u64,
    /// `CARDROOM_NOTIFY_LEASE_SECS`: how long a claimed message is left to its worker before
    /// another may take it over (a crashed worker's messages are re-sent after it).
    pub lease_secs: u64,
    /// `CARDROOM_NOTIFY_TIMEOUT_SECS`: network timeout of one send.
    pub timeout_secs: u64,
}

impl Default for NotifySettings {
    fn default() -> Self {
        NotifySettings {
            sink: None,
            max_attempts: 8,
            backoff_ms: 5_000,
            backoff_max_ms: 600_000,
            poll_ms: 1_000,
            lease_secs: 120,
            timeout_secs: 20,
        }
    }
}

// ---- the settings read into their types ----------------------------------------------------

/// The configuration the server reads: every setting checked and in its type (made by
/// [`Settings::validate`], once, at start).
#[derive(Debug, Clone)]
pub struct Config {
    pub server: Server,
    pub database: Database,
    pub security: Security,
    pub audit: Audit,
    pub backup: Backup,
    pub room: Room,
    pub join: Join,
    pub mail: Mail,
    pub sms: Sms,
    pub notify: Notify,
}

/// The defaults, read (as the server reads an empty file).
impl Default for Config {
    fn default() -> Self {
        Settings::default()
            .validate()
            .expect("the default settings are valid")
    }
}

#[derive(Debug, Clone)]
pub struct Server {
    pub bind: SocketAddr,
    pub workers: Option<usize>,
    /// The base of players' links: `CARDROOM_PUBLIC_URL` without a trailing slash, or
    /// `http://` + the bind address.
    pub public_base: String,
    pub secure_cookies: bool,
    /// The reverse proxies whose `X-Forwarded-For` is believed.
    pub trusted_proxies: Vec<IpAddr>,
    pub session_hours: u32,
    pub test_clock: bool,
}

#[derive(Debug, Clone)]
pub struct Database {
    pub url: String,
    pub pool_size: u32,
    /// SQLite's `PRAGMA synchronous`.
    pub sqlite_synchronous: crate::db::Synchronous,
}

#[derive(Debug, Clone)]
pub struct Security {
    pub secret: Option<String>,
    pub admin_password: Option<String>,
    pub metrics_token: Option<String>,
}

#[derive(Debug, Clone)]
pub struct Audit {
    /// The directory of the audit trail's key and checkpoints (`CARDROOM_AUDIT_DIR` or its
    /// default).
    pub dir: PathBuf,
    /// Unset, and defaulted to [`OLD_PG_AUDIT_DIR`] because the key is still there (the
    /// start warns that it should move).
    pub in_former_default: bool,
}

#[derive(Debug, Clone)]
pub struct Backup {
    pub dir: Option<PathBuf>,
    pub every_min: u32,
    pub keep: u32,
}

#[derive(Debug, Clone)]
pub struct Room {
    /// The local time the gaming day ends (players' links expire then).
    pub gaming_day_ends: chrono::NaiveTime,
    pub call_extension_min: u32,
    pub player_link_rate: u32,
    pub kiosk_idle_secs: u32,
}

#[derive(Debug, Clone)]
pub struct Join {
    pub codes_per_phone: u32,
    pub codes_per_address: u32,
    pub codes_per_room: u32,
    pub entries_per_address: u32,
    pub entries_per_room: u32,
    pub sms_cost: u32,
    pub sms_cost_cap: u32,
}

#[derive(Debug, Clone)]
pub struct Mail {
    /// The SMTP relay (`None`: e-mail goes to the local sink).
    pub smtp_host: Option<String>,
    /// `CARDROOM_SMTP_PORT`, or the TLS mode's port.
    pub smtp_port: u16,
    pub smtp_tls: SmtpTls,
    /// Both or neither.
    pub smtp_user: Option<String>,
    pub smtp_password: Option<String>,
    /// The sender (set whenever `smtp_host` is).
    pub from: Option<lettre::message::Mailbox>,
}

/// How the SMTP connection is secured (`CARDROOM_SMTP_TLS`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SmtpTls {
    /// `starttls`: plain, then upgraded (port 587).
    StartTls,
    /// `tls`: implicit TLS (port 465).
    Tls,
    /// `none` (port 25).
    None,
}

impl SmtpTls {
    fn parse(s: &str) -> Option<SmtpTls> {
        match s {
            "starttls" => Some(SmtpTls::StartTls),
            "tls" => Some(SmtpTls::Tls),
            "none" => Some(SmtpTls::None),
            _ => None,
        }
    }

    /// The port a relay listens on in this mode.
    pub fn default_port(self) -> u16 {
        match self {
            SmtpTls::StartTls => 587,
            SmtpTls::Tls => 465,
            SmtpTls::None => 25,
        }
    }
}

#[derive(Debug, Clone)]
pub struct Sms {
    /// The gateway (`None`: SMS go to the local sink).
    pub provider: Option<SmsProvider>,
    pub url: Option<String>,
    pub user: Option<String>,
    pub password: Option<String>,
    /// Set and not empty.
    pub token: Option<String>,
    pub from: Option<String>,
    pub template: String,
    /// `application/json` or `application/x-www-form-urlencoded`.
    pub content_type: String,
}

/// The SMS gateway (`CARDROOM_SMS_PROVIDER`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SmsProvider {
    /// Any HTTP gateway, by URL, credentials and a body template.
    Generic,
    /// Twilio's Messages API.
    Twilio,
}

#[derive(Debug, Clone)]
pub struct Notify {
    /// The local sink's file.
    pub sink: PathBuf,
    pub max_attempts: u32,
    pub backoff_ms: u64,
    pub backoff_max_ms: u64,
    pub poll_ms: u64,
    pub lease_secs: u64,
    pub timeout_secs: u64,
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

/// The file's settings with the keys written at the top of the file, as before the sections,
/// moved into their sections, so a room's existing file keeps working (a key already in its
/// section wins). Returns the keys moved, for the warning at start.
fn sectioned(
    file: impl figment::Provider,
    name: &str,
) -> Result<(Serialized<figment::value::Dict>, Vec<String>), ConfigError> {
    use figment::value::{Dict, Tag, Value};
    let data = file.data().map_err(|e| bad(name, e.to_string()))?;
    let mut dict: Dict = data.into_values().flatten().collect();
    let mut moved = Vec::new();
    for (flat, nested) in SETTINGS {
        let Some(v) = dict.remove(*flat) else {
            continue;
        };
        let (section, key) = nested.split_once('.').expect("section.key");
        let entry = dict
            .entry(section.to_string())
            .or_insert_with(|| Value::Dict(Tag::Default, Dict::new()));
        if let Value::Dict(_, d) = entry {
            d.entry(key.to_string()).or_insert(v);
        }
        moved.push(flat.to_string());
    }
    Ok((Serialized::defaults(dict), moved))
}

impl Settings {
    /// The defaults, then `file` (named `name` in errors), then the `CARDROOM_*` variables
    /// among `vars` that are settings (see [`SETTINGS`]); not yet checked.
    pub fn from_sources(
        file: impl figment::Provider,
        name: &str,
        vars: impl IntoIterator<Item = (String, String)>,
    ) -> Result<Settings, ConfigError> {
        let (file, flat_keys) = sectioned(file, name)?;
        let mut figment = Figment::from(Serialized::defaults(Settings::default())).merge(file);
        for (var, value) in vars {
            if let Some(key) = key_of_env(&var) {
                let value: figment::value::Value = value.parse().expect("infallible");
                figment = figment.merge(Serialized::default(key, value));
            }
        }
        let mut settings: Settings = figment.extract().map_err(|e| {
            let path = e.path.join(".");
            if let figment::error::Kind::UnknownField(field, _) = &e.kind {
                // The path names the unknown key itself, under its section if any.
                let key = if path.is_empty() {
                    field.clone()
                } else {
                    path
                };
                let message = match SETTINGS.iter().find(|(flat, _)| *flat == key) {
                    Some((_, nested)) => {
                        let (section, k) = nested.split_once('.').expect("section.key");
                        format!("{name}: `{key}` is not a key at the top of the file: write it as `{k}` in its section [{section}]")
                    }
                    None => format!("{name}: `{key}` is not a setting"),
                };
                return bad(&key, message);
            }
            let setting = env_name(&path).unwrap_or_else(|| {
                if path.is_empty() {
                    name.to_string()
                } else {
                    path
                }
            });
            bad(&setting, e.kind.to_string())
        })?;
        settings.flat_keys = flat_keys;
        Ok(settings)
    }

    /// [`Audit::dir`] with the environment and the former default directory given (`None`:
    /// on PostgreSQL, no state directory to default to).
    fn audit_dir_from(&self, env: impl Fn(&str) -> Option<String>, old: &Path) -> Option<PathBuf> {
        if let Some(d) = set(&self.audit.dir) {
            return Some(d.into());
        }
        if crate::db::Backend::of_url(&self.database.url) == crate::db::Backend::Sqlite {
            let db = PathBuf::from(crate::db::sqlite_path(&self.database.url));
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

    /// The local sink's file: `notify.sink`, else `cardroom-messages.log` beside the SQLite
    /// file (in the working directory on PostgreSQL).
    fn sink_path(&self) -> PathBuf {
        if let Some(s) = set(&self.notify.sink) {
            return s.into();
        }
        let name = "cardroom-messages.log";
        let url = &self.database.url;
        if crate::db::Backend::of_url(url) == crate::db::Backend::Sqlite {
            if let Some(dir) = Path::new(crate::db::sqlite_path(url))
                .parent()
                .filter(|d| !d.as_os_str().is_empty())
            {
                return dir.join(name);
            }
        }
        name.into()
    }

    /// Checks every setting and reads it into its type: the [`Config`] the server runs on.
    /// The first setting found invalid is named in the error.
    pub fn validate(&self) -> Result<Config, ConfigError> {
        let server = self.server()?;
        let database = self.database()?;
        let security = self.security()?;
        let audit = self.audit()?;
        let backup = self.backup()?;
        if !(1..=64).contains(&database.pool_size) {
            return Err(bad("CARDROOM_POOL_SIZE", "must be between 1 and 64"));
        }
        if !(1..=48).contains(&server.session_hours) {
            return Err(bad("CARDROOM_SESSION_HOURS", "must be between 1 and 48"));
        }
        let room = self.room()?;
        let join = self.join()?;
        if let Some(w) = server.workers {
            if !(1..=64).contains(&w) {
                return Err(bad("CARDROOM_WORKERS", "must be between 1 and 64"));
            }
        }
        let (mail, sms, notify) = self.messages()?;
        Ok(Config {
            server,
            database,
            security,
            audit,
            backup,
            room,
            join,
            mail,
            sms,
            notify,
        })
    }

    fn server(&self) -> Result<Server, ConfigError> {
        let s = &self.server;
        let bind = s.bind.parse::<SocketAddr>().map_err(|_| {
            bad(
                "CARDROOM_BIND",
                format!("{:?} is not an address like 127.0.0.1:8080", s.bind),
            )
        })?;
        let trusted_proxies = s
            .trusted_proxies
            .iter()
            .flat_map(|s| s.split(','))
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(|p| {
                p.parse::<IpAddr>().map_err(|_| {
                    bad(
                        "CARDROOM_TRUSTED_PROXIES",
                        format!("{p:?} is not an IP address (give addresses, comma-separated)"),
                    )
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let public_base = match set(&s.public_url) {
            Some(u) if !(u.starts_with("http://") || u.starts_with("https://")) || u.len() < 10 => {
                return Err(bad(
                    "CARDROOM_PUBLIC_URL",
                    format!("{u:?} is not an address like https://room.example.com"),
                ))
            }
            Some(u) => u.trim_end_matches('/').to_string(),
            None => format!("http://{}", s.bind),
        };
        Ok(Server {
            bind,
            workers: s.workers,
            public_base,
            secure_cookies: s.secure_cookies,
            trusted_proxies,
            session_hours: s.session_hours,
            test_clock: s.test_clock,
        })
    }

    fn database(&self) -> Result<Database, ConfigError> {
        let url = self.database.url.as_str();
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
        let sync = &self.database.sqlite_synchronous;
        Ok(Database {
            url: url.to_string(),
            pool_size: self.database.pool_size,
            sqlite_synchronous: crate::db::Synchronous::parse(sync).ok_or_else(|| {
                bad(
                    "CARDROOM_SQLITE_SYNCHRONOUS",
                    format!("{sync:?}: must be full or normal"),
                )
            })?,
        })
    }

    fn security(&self) -> Result<Security, ConfigError> {
        let s = &self.security;
        if let Some(secret) = &s.secret {
            if secret.len() < 32 {
                return Err(bad("CARDROOM_SECRET", "must be at least 32 characters"));
            }
        }
        if let Some(p) = &s.admin_password {
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
        if s.metrics_token
            .as_ref()
            .is_some_and(|t| t.len() < 16 || t.chars().any(char::is_whitespace))
        {
            return Err(bad(
                "CARDROOM_METRICS_TOKEN",
                "must be at least 16 characters, without spaces",
            ));
        }
        Ok(Security {
            secret: s.secret.clone(),
            admin_password: s.admin_password.clone(),
            metrics_token: s.metrics_token.clone(),
        })
    }

    fn audit(&self) -> Result<Audit, ConfigError> {
        let old = Path::new(OLD_PG_AUDIT_DIR);
        let dir = self
            .audit_dir_from(|k| std::env::var(k).ok(), old)
            .ok_or_else(|| bad(
                "CARDROOM_AUDIT_DIR",
                "is needed on PostgreSQL when there is no state directory to default to (STATE_DIRECTORY, XDG_STATE_HOME or HOME)",
            ))?;
        Ok(Audit {
            in_former_default: self.audit.dir.is_none() && dir == old,
            dir,
        })
    }

    fn backup(&self) -> Result<Backup, ConfigError> {
        let b = &self.backup;
        if !(5..=1440).contains(&b.every_min) {
            return Err(bad(
                "CARDROOM_BACKUP_EVERY_MIN",
                "must be between 5 and 1440 (minutes)",
            ));
        }
        if !(1..=1000).contains(&b.keep) {
            return Err(bad("CARDROOM_BACKUP_KEEP", "must be between 1 and 1000"));
        }
        if let Some(d) = &b.dir {
            if self.database.url.starts_with("postgres") {
                return Err(bad("CARDROOM_BACKUP_DIR", "is for the embedded SQLite database; back PostgreSQL up with pg_dump or WAL archiving (see `cardroom backup`)"));
            }
            let p = Path::new(d);
            if p.exists() && !p.is_dir() {
                return Err(bad(
                    "CARDROOM_BACKUP_DIR",
                    format!("{d} is not a directory"),
                ));
            }
        }
        Ok(Backup {
            dir: b.dir.as_ref().map(PathBuf::from),
            every_min: b.every_min,
            keep: b.keep,
        })
    }

    fn room(&self) -> Result<Room, ConfigError> {
        let r = &self.room;
        if !(1..=30).contains(&r.call_extension_min) {
            return Err(bad(
                "CARDROOM_CALL_EXTENSION_MIN",
                "must be between 1 and 30 (minutes)",
            ));
        }
        if !(10..=1_000_000).contains(&r.player_link_rate) {
            return Err(bad(
                "CARDROOM_PLAYER_LINK_RATE",
                "must be between 10 and 1000000 (requests per minute)",
            ));
        }
        if !crate::domain::kiosk::idle_secs_valid(r.kiosk_idle_secs) {
            return Err(bad(
                "CARDROOM_KIOSK_IDLE_SECS",
                format!(
                    "must be between {} and {} (seconds)",
                    crate::domain::kiosk::IDLE_SECS_MIN,
                    crate::domain::kiosk::IDLE_SECS_MAX
                ),
            ));
        }
        Ok(Room {
            gaming_day_ends: crate::domain::clock::parse_hhmm(&r.gaming_day_ends).ok_or_else(
                || {
                    bad(
                        "CARDROOM_GAMING_DAY_ENDS",
                        "must be a time HH:MM such as 06:00",
                    )
                },
            )?,
            call_extension_min: r.call_extension_min,
            player_link_rate: r.player_link_rate,
            kiosk_idle_secs: r.kiosk_idle_secs,
        })
    }

    fn join(&self) -> Result<Join, ConfigError> {
        let j = &self.join;
        for (setting, v, min, max) in [
            ("CARDROOM_JOIN_CODES_PER_PHONE", j.codes_per_phone, 1, 20),
            (
                "CARDROOM_JOIN_CODES_PER_ADDRESS",
                j.codes_per_address,
                1,
                10_000,
            ),
            ("CARDROOM_JOIN_CODES_PER_ROOM", j.codes_per_room, 1, 100_000),
            (
                "CARDROOM_JOIN_ENTRIES_PER_ADDRESS",
                j.entries_per_address,
                1,
                10_000,
            ),
            (
                "CARDROOM_JOIN_ENTRIES_PER_ROOM",
                j.entries_per_room,
                1,
                100_000,
            ),
            ("CARDROOM_JOIN_SMS_COST", j.sms_cost, 0, 100_000),
            ("CARDROOM_JOIN_SMS_COST_CAP", j.sms_cost_cap, 0, 100_000_000),
        ] {
            if !(min..=max).contains(&v) {
                return Err(bad(setting, format!("must be between {min} and {max}")));
            }
        }
        Ok(Join {
            codes_per_phone: j.codes_per_phone,
            codes_per_address: j.codes_per_address,
            codes_per_room: j.codes_per_room,
            entries_per_address: j.entries_per_address,
            entries_per_room: j.entries_per_room,
            sms_cost: j.sms_cost,
            sms_cost_cap: j.sms_cost_cap,
        })
    }

    /// The message settings (README "Messages"): each provider complete or absent.
    fn messages(&self) -> Result<(Mail, Sms, Notify), ConfigError> {
        let (m, s, n) = (&self.mail, &self.sms, &self.notify);
        let smtp_tls = SmtpTls::parse(&m.smtp_tls)
            .ok_or_else(|| bad("CARDROOM_SMTP_TLS", "must be starttls, tls or none"))?;
        let smtp_host = set(&m.smtp_host);
        let mut from = None;
        if smtp_host.is_some() {
            let f = set(&m.from).ok_or_else(|| {
                bad(
                    "CARDROOM_MAIL_FROM",
                    "is needed when CARDROOM_SMTP_HOST is set",
                )
            })?;
            from = Some(f.parse::<lettre::message::Mailbox>().map_err(|_| {
                bad(
                    "CARDROOM_MAIL_FROM",
                    format!("{f:?} is not an address like Cardroom <floor@example.com>"),
                )
            })?);
            if set(&m.smtp_user).is_some() != set(&m.smtp_password).is_some() {
                return Err(bad(
                    "CARDROOM_SMTP_PASSWORD",
                    "CARDROOM_SMTP_USER and CARDROOM_SMTP_PASSWORD go together",
                ));
            }
        } else if m.smtp_port.is_some() || set(&m.smtp_user).is_some() {
            return Err(bad(
                "CARDROOM_SMTP_HOST",
                "is needed when other CARDROOM_SMTP_* settings are given",
            ));
        }
        if m.smtp_port == Some(0) {
            return Err(bad("CARDROOM_SMTP_PORT", "must be between 1 and 65535"));
        }
        let mail = Mail {
            smtp_host: smtp_host.map(str::to_string),
            smtp_port: m.smtp_port.unwrap_or(smtp_tls.default_port()),
            smtp_tls,
            smtp_user: m.smtp_user.clone(),
            smtp_password: m.smtp_password.clone(),
            from,
        };
        let http = |url: &str| url.starts_with("http://") || url.starts_with("https://");
        let provider = match set(&s.provider) {
            None => {
                if set(&s.url).is_some() {
                    return Err(bad(
                        "CARDROOM_SMS_PROVIDER",
                        "must be generic or twilio when CARDROOM_SMS_URL is set",
                    ));
                }
                None
            }
            Some("generic") => {
                let url = set(&s.url).ok_or_else(|| {
                    bad(
                        "CARDROOM_SMS_URL",
                        "is needed with CARDROOM_SMS_PROVIDER=generic",
                    )
                })?;
                if !http(url) {
                    return Err(bad(
                        "CARDROOM_SMS_URL",
                        "must start with http:// or https://",
                    ));
                }
                if !matches!(
                    s.content_type.as_str(),
                    "application/json" | "application/x-www-form-urlencoded"
                ) {
                    return Err(bad(
                        "CARDROOM_SMS_CONTENT_TYPE",
                        "must be application/json or application/x-www-form-urlencoded",
                    ));
                }
                if !s.template.contains("{to}") || !s.template.contains("{text}") {
                    return Err(bad("CARDROOM_SMS_TEMPLATE", "must contain {to} and {text}"));
                }
                Some(SmsProvider::Generic)
            }
            Some("twilio") => {
                if set(&s.url).is_some_and(|url| !http(url)) {
                    return Err(bad(
                        "CARDROOM_SMS_URL",
                        "must start with http:// or https://",
                    ));
                }
                if set(&s.user).is_none() || set(&s.password).is_none() {
                    return Err(bad("CARDROOM_SMS_USER", "Twilio needs CARDROOM_SMS_USER (Account SID) and CARDROOM_SMS_PASSWORD (auth token)"));
                }
                if set(&s.from).is_none() {
                    return Err(bad("CARDROOM_SMS_FROM", "Twilio needs the sender number"));
                }
                Some(SmsProvider::Twilio)
            }
            Some(other) => {
                return Err(bad(
                    "CARDROOM_SMS_PROVIDER",
                    format!("{other:?}: must be generic or twilio"),
                ))
            }
        };
        let sms = Sms {
            provider,
            url: s.url.clone(),
            user: s.user.clone(),
            password: s.password.clone(),
            token: s.token.clone().filter(|t| !t.is_empty()),
            from: s.from.clone(),
            template: s.template.clone(),
            content_type: s.content_type.clone(),
        };
        if n.sink.as_deref().is_some_and(|s| s.trim().is_empty()) {
            return Err(bad("CARDROOM_NOTIFY_SINK", "must name a file"));
        }
        if !(1..=50).contains(&n.max_attempts) {
            return Err(bad(
                "CARDROOM_NOTIFY_MAX_ATTEMPTS",
                "must be between 1 and 50",
            ));
        }
        if n.backoff_ms == 0 || n.backoff_max_ms < n.backoff_ms {
            return Err(bad(
                "CARDROOM_NOTIFY_BACKOFF_MAX_MS",
                "must be at least CARDROOM_NOTIFY_BACKOFF_MS, which must be above 0",
            ));
        }
        if !(1..=60_000).contains(&n.poll_ms) {
            return Err(bad(
                "CARDROOM_NOTIFY_POLL_MS",
                "must be between 1 and 60000",
            ));
        }
        if !(1..=300).contains(&n.timeout_secs) {
            return Err(bad(
                "CARDROOM_NOTIFY_TIMEOUT_SECS",
                "must be between 1 and 300",
            ));
        }
        if n.lease_secs <= n.timeout_secs * 2 {
            return Err(bad("CARDROOM_NOTIFY_LEASE_SECS", "must be more than twice CARDROOM_NOTIFY_TIMEOUT_SECS (a send must end before its lease)"));
        }
        let notify = Notify {
            sink: self.sink_path(),
            max_attempts: n.max_attempts,
            backoff_ms: n.backoff_ms,
            backoff_max_ms: n.backoff_max_ms,
            poll_ms: n.poll_ms,
            lease_secs: n.lease_secs,
            timeout_secs: n.timeout_secs,
        };
        Ok((mail, sms, notify))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid() {
        assert!(Settings::default().validate().is_ok());
    }

    #[test]
    #[allow(clippy::field_reassign_with_default)] // one setting changed from the defaults, each time
    fn invalid_settings_are_named() {
        let mut c = Settings::default();
        c.server.bind = "nowhere".into();
        assert_eq!(c.validate().unwrap_err().setting, "CARDROOM_BIND");
        let mut c = Settings::default();
        c.database.url = "mysql://x".into();
        assert_eq!(c.validate().unwrap_err().setting, "CARDROOM_DATABASE_URL");
        let mut c = Settings::default();
        c.security.secret = Some("short".into());
        assert_eq!(c.validate().unwrap_err().setting, "CARDROOM_SECRET");
        let mut c = Settings::default();
        c.security.admin_password = Some("admin".into());
        assert_eq!(c.validate().unwrap_err().setting, "CARDROOM_ADMIN_PASSWORD");
        for bad in [0, 31] {
            let mut c = Settings::default();
            c.room.call_extension_min = bad;
            assert_eq!(
                c.validate().unwrap_err().setting,
                "CARDROOM_CALL_EXTENSION_MIN"
            );
        }
        let mut c = Settings::default();
        c.join.codes_per_phone = 0;
        assert_eq!(
            c.validate().unwrap_err().setting,
            "CARDROOM_JOIN_CODES_PER_PHONE"
        );
        for bad in [0, 1, 601] {
            let mut c = Settings::default();
            c.room.kiosk_idle_secs = bad;
            assert_eq!(
                c.validate().unwrap_err().setting,
                "CARDROOM_KIOSK_IDLE_SECS"
            );
        }
        let mut c = Settings::default();
        c.room.player_link_rate = 5;
        assert_eq!(
            c.validate().unwrap_err().setting,
            "CARDROOM_PLAYER_LINK_RATE"
        );
        let mut c = Settings::default();
        assert_eq!(
            c.validate().unwrap().database.sqlite_synchronous,
            crate::db::Synchronous::Full
        );
        c.database.sqlite_synchronous = "Normal".into();
        assert!(c.validate().is_ok());
        assert_eq!(
            c.validate().unwrap().database.sqlite_synchronous,
            crate::db::Synchronous::Normal
        );
        c.database.sqlite_synchronous = "off".into();
        assert_eq!(
            c.validate().unwrap_err().setting,
            "CARDROOM_SQLITE_SYNCHRONOUS"
        );
    }

    #[test]
    #[allow(clippy::field_reassign_with_default)]
    fn message_settings_are_checked_together() {
        let mut c = Settings::default();
        c.mail.smtp_host = Some("smtp.example.com".into());
        assert_eq!(c.validate().unwrap_err().setting, "CARDROOM_MAIL_FROM");
        c.mail.from = Some("Cardroom <floor@example.com>".into());
        assert!(c.validate().is_ok());
        c.mail.smtp_user = Some("u".into());
        assert_eq!(c.validate().unwrap_err().setting, "CARDROOM_SMTP_PASSWORD");
        c.mail.smtp_password = Some("p".into());
        c.mail.smtp_tls = "ssl".into();
        assert_eq!(c.validate().unwrap_err().setting, "CARDROOM_SMTP_TLS");
        let mut c = Settings::default();
        c.sms.provider = Some("carrier-pigeon".into());
        assert_eq!(c.validate().unwrap_err().setting, "CARDROOM_SMS_PROVIDER");
        c.sms.provider = Some("generic".into());
        assert_eq!(c.validate().unwrap_err().setting, "CARDROOM_SMS_URL");
        c.sms.url = Some("http://127.0.0.1:9/sms".into());
        assert!(c.validate().is_ok());
        c.sms.provider = Some("twilio".into());
        assert_eq!(c.validate().unwrap_err().setting, "CARDROOM_SMS_USER");
        let mut c = Settings::default();
        c.notify.lease_secs = 10;
        assert_eq!(
            c.validate().unwrap_err().setting,
            "CARDROOM_NOTIFY_LEASE_SECS"
        );
        let mut c = Settings::default();
        c.room.gaming_day_ends = "25:00".into();
        assert_eq!(
            c.validate().unwrap_err().setting,
            "CARDROOM_GAMING_DAY_ENDS"
        );
        let mut c = Settings::default();
        c.server.public_url = Some("room.example.com".into());
        assert_eq!(c.validate().unwrap_err().setting, "CARDROOM_PUBLIC_URL");
        assert_eq!(
            Config::default().server.public_base,
            "http://127.0.0.1:8080"
        );
        let mut c = Settings::default();
        c.database.url = "sqlite:///var/lib/room/cardroom.db".into();
        assert_eq!(
            c.validate().unwrap().notify.sink,
            PathBuf::from("/var/lib/room/cardroom-messages.log")
        );
        assert_eq!(
            Config::default().notify.sink,
            PathBuf::from("cardroom-messages.log")
        );
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
        let mut lite = Settings::default();
        lite.database.url = "sqlite:///var/lib/room/cardroom.db".into();
        assert_eq!(
            lite.audit_dir_from(env(&[("STATE_DIRECTORY", "/srv/x")]), &none),
            Some(PathBuf::from("/var/lib/room"))
        );
        assert_eq!(
            Settings::default().audit_dir_from(env(&[]), &none),
            Some(PathBuf::from("."))
        );
        let mut pg = Settings::default();
        pg.database.url = "postgres://cardroom@db/cardroom".into();
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
        let mut set = pg.clone();
        set.audit.dir = Some("/srv/audit".into());
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

    /// The file's keys (`section.key`) of the settings, from their defaults.
    fn keys() -> Vec<String> {
        let all = serde_json::to_value(Settings::default()).expect("settings as JSON");
        let mut keys = Vec::new();
        for (section, values) in all.as_object().expect("an object") {
            for key in values.as_object().expect("a section").keys() {
                keys.push(format!("{section}.{key}"));
            }
        }
        keys
    }

    /// The example names every setting there is, in its section, and loads as it is shipped.
    #[test]
    fn the_example_file_has_every_key_and_is_valid() {
        let mut written = Vec::new();
        let mut section = String::new();
        for line in EXAMPLE.lines() {
            if let Some(s) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
                section = s.to_string();
            } else if let Some((key, _)) = line.trim_start_matches("# ").split_once(" = ") {
                if !key.contains(' ') {
                    written.push(format!("{section}.{key}"));
                }
            }
        }
        for key in keys() {
            assert!(
                written.contains(&key),
                "the example file lacks `{key}` in its section"
            );
        }
        let c = Settings::from_sources(Toml::string(EXAMPLE), "example", [])
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
        let parsed = Settings::from_sources(Toml::string(&all), "example", []);
        assert!(parsed.is_ok(), "every example value parses: {parsed:?}");
    }

    /// The table of names holds every setting once, and nothing else.
    #[test]
    fn every_setting_has_one_environment_variable() {
        let mut table: Vec<String> = SETTINGS.iter().map(|(_, k)| k.to_string()).collect();
        table.sort();
        let mut keys = keys();
        keys.sort();
        assert_eq!(table, keys);
        let mut vars: Vec<&str> = SETTINGS.iter().map(|(e, _)| *e).collect();
        vars.sort();
        vars.dedup();
        assert_eq!(vars.len(), SETTINGS.len(), "an environment variable twice");
    }

    #[test]
    fn a_sectioned_file_and_the_flat_variables_give_the_same_settings() {
        let file = r#"
[server]
bind = "0.0.0.0:9000"
trusted_proxies = "10.0.0.1, 10.0.0.2"
secure_cookies = 1
[database]
url = "sqlite:///srv/room/cardroom.db"
sqlite_synchronous = "normal"
[room]
gaming_day_ends = "07:30"
[join]
codes_per_phone = 5
[mail]
smtp_host = "smtp.example.pt"
smtp_tls = "tls"
from = "Cardroom <floor@example.pt>"
[sms]
provider = "twilio"
user = "AC1"
password = "token"
from = "Cardroom"
[notify]
timeout_secs = 10
"#;
        let vars = [
            ("CARDROOM_BIND", "0.0.0.0:9000"),
            ("CARDROOM_TRUSTED_PROXIES", "10.0.0.1, 10.0.0.2"),
            ("CARDROOM_SECURE_COOKIES", "1"),
            ("CARDROOM_DATABASE_URL", "sqlite:///srv/room/cardroom.db"),
            ("CARDROOM_SQLITE_SYNCHRONOUS", "normal"),
            ("CARDROOM_GAMING_DAY_ENDS", "07:30"),
            ("CARDROOM_JOIN_CODES_PER_PHONE", "5"),
            ("CARDROOM_SMTP_HOST", "smtp.example.pt"),
            ("CARDROOM_SMTP_TLS", "tls"),
            ("CARDROOM_MAIL_FROM", "Cardroom <floor@example.pt>"),
            ("CARDROOM_SMS_PROVIDER", "twilio"),
            ("CARDROOM_SMS_USER", "AC1"),
            ("CARDROOM_SMS_PASSWORD", "token"),
            ("CARDROOM_SMS_FROM", "Cardroom"),
            ("CARDROOM_NOTIFY_TIMEOUT_SECS", "10"),
            // Not settings: left alone.
            ("CARDROOM_CONFIG", "/etc/cardroom/cardroom.toml"),
            ("CARDROOM_LOG_FORMAT", "json"),
            ("CARDROOM_TEST_DB", "postgres"),
        ]
        .map(|(k, v)| (k.to_string(), v.to_string()));
        let from_file = Settings::from_sources(Toml::string(file), "cardroom.toml", [])
            .expect("the file parses");
        let from_env = Settings::from_sources(Toml::string(""), "cardroom.toml", vars)
            .expect("the variables parse");
        assert_eq!(
            serde_json::to_value(&from_file).unwrap(),
            serde_json::to_value(&from_env).unwrap()
        );
        let c = from_env.validate().expect("valid");
        assert_eq!(c.server.bind, "0.0.0.0:9000".parse().unwrap());
        assert_eq!(
            c.server.trusted_proxies,
            vec![
                "10.0.0.1".parse::<IpAddr>().unwrap(),
                "10.0.0.2".parse().unwrap()
            ]
        );
        assert!(c.server.secure_cookies);
        assert_eq!(c.server.public_base, "http://0.0.0.0:9000");
        assert_eq!(
            c.database.sqlite_synchronous,
            crate::db::Synchronous::Normal
        );
        assert_eq!(
            c.room.gaming_day_ends,
            chrono::NaiveTime::from_hms_opt(7, 30, 0).unwrap()
        );
        assert_eq!(c.join.codes_per_phone, 5);
        assert_eq!((c.mail.smtp_tls, c.mail.smtp_port), (SmtpTls::Tls, 465));
        assert_eq!(
            c.mail.from.map(|m| m.email.to_string()).as_deref(),
            Some("floor@example.pt")
        );
        assert_eq!(c.sms.provider, Some(SmsProvider::Twilio));
        assert_eq!(c.notify.timeout_secs, 10);
        assert_eq!(
            c.notify.sink,
            PathBuf::from("/srv/room/cardroom-messages.log")
        );
        assert_eq!(c.audit.dir, PathBuf::from("/srv/room"));
        // The variables win over the file.
        let both = Settings::from_sources(
            Toml::string(file),
            "cardroom.toml",
            [("CARDROOM_JOIN_CODES_PER_PHONE".to_string(), "7".to_string())],
        )
        .expect("parses");
        assert_eq!(both.join.codes_per_phone, 7);
        assert_eq!(both.server.bind, "0.0.0.0:9000");
        // A value of the wrong type is named by its variable, from either source.
        for (file, vars) in [
            ("[join]\ncodes_per_phone = \"many\"", vec![]),
            (
                "",
                vec![(
                    "CARDROOM_JOIN_CODES_PER_PHONE".to_string(),
                    "many".to_string(),
                )],
            ),
        ] {
            let e = Settings::from_sources(Toml::string(file), "cardroom.toml", vars).unwrap_err();
            assert_eq!(e.setting, "CARDROOM_JOIN_CODES_PER_PHONE");
        }
    }

    #[test]
    fn a_file_written_before_the_sections_still_loads() {
        // Settings written at the top of the file, as every room's file was: read in their
        // sections and named for the warning; a key already in its section wins.
        let s = Settings::from_sources(
            Toml::string(
                "smtp_host = \"smtp.example.pt\"\ndatabase_url = \"sqlite://x.db\"\nbackup_keep = 9\n[backup]\nkeep = 4\n",
            ),
            "cardroom.toml",
            [],
        )
        .expect("a flat file loads");
        assert_eq!(s.mail.smtp_host.as_deref(), Some("smtp.example.pt"));
        assert_eq!(s.database.url, "sqlite://x.db");
        assert_eq!(s.backup.keep, 4);
        let mut flat = s.flat_keys.clone();
        flat.sort();
        assert_eq!(flat, ["backup_keep", "database_url", "smtp_host"]);
    }

    #[test]
    fn a_key_the_file_does_not_know_is_refused_by_name() {
        let e = Settings::from_sources(Toml::string("smtp_hots = \"x\"\n"), "cardroom.toml", [])
            .unwrap_err();
        assert_eq!(e.setting, "smtp_hots");
        assert!(e.message.contains("cardroom.toml"), "{}", e.message);
        // A key no section has.
        let e = Settings::from_sources(
            Toml::string("[mail]\nsmtp_hots = \"smtp.example.pt\"\n"),
            "cardroom.toml",
            [],
        )
        .unwrap_err();
        assert_eq!(e.setting, "mail.smtp_hots");
        let e =
            Settings::from_sources(Toml::string("[mails]\nfrom = \"x\"\n"), "cardroom.toml", [])
                .unwrap_err();
        assert_eq!(e.setting, "mails");
    }
}
