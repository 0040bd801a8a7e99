//! The configuration the server reads: every setting checked and parsed into its type
//! (addresses, times, paths, modes).

use super::Settings;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;

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
    /// How far ahead a limit change may be stated (hours; PT-2007 22).
    pub limit_change_horizon_hours: u32,
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
    pub(super) fn parse(s: &str) -> Option<SmtpTls> {
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
