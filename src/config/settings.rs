//! The settings as the file and the environment write them, by section, before they are
//! checked: every key with its default, and the table pairing each file key with its
//! `CARDROOM_*` variable.

use super::{flag, DEFAULT_SMS_TEMPLATE};
use serde::{Deserialize, Serialize};

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
    (
        "limit_change_horizon_hours",
        "room.limit_change_horizon_hours",
    ),
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
pub(super) fn key_of_env(name: &str) -> Option<&'static str> {
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
    /// `CARDROOM_LIMIT_CHANGE_HORIZON_HOURS`: how far ahead the floor may state the time a
    /// table's new limits take effect (PT-2007 22: notice for the session under way; 1–24,
    /// default 12, what the board's form can state).
    pub limit_change_horizon_hours: u32,
}

impl Default for RoomSettings {
    fn default() -> Self {
        RoomSettings {
            gaming_day_ends: "06:00".into(),
            call_extension_min: 5,
            player_link_rate: 240,
            kiosk_idle_secs: crate::domain::kiosk::IDLE_SECS_DEFAULT,
            limit_change_horizon_hours: crate::domain::limits::HORIZON_HOURS_DEFAULT,
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
