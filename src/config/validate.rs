//! Checking every setting and reading it into its type: one function per section.

use super::*;

impl Settings {
    /// [`Audit::dir`] with the environment and the former default directory given (`None`:
    /// on PostgreSQL, no state directory to default to).
    pub(super) fn audit_dir_from(
        &self,
        env: impl Fn(&str) -> Option<String>,
        old: &Path,
    ) -> Option<PathBuf> {
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
    pub(super) fn sink_path(&self) -> PathBuf {
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

    pub(super) fn server(&self) -> Result<Server, ConfigError> {
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

    pub(super) fn database(&self) -> Result<Database, ConfigError> {
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

    pub(super) fn security(&self) -> Result<Security, ConfigError> {
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

    pub(super) fn audit(&self) -> Result<Audit, ConfigError> {
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

    pub(super) fn backup(&self) -> Result<Backup, ConfigError> {
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

    pub(super) fn room(&self) -> Result<Room, ConfigError> {
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
        {
            use crate::domain::limits::{HORIZON_HOURS_MAX as MAX, HORIZON_HOURS_MIN as MIN};
            if !(MIN..=MAX).contains(&r.limit_change_horizon_hours) {
                return Err(bad(
                    "CARDROOM_LIMIT_CHANGE_HORIZON_HOURS",
                    format!("must be between {MIN} and {MAX} (hours)"),
                ));
            }
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
            limit_change_horizon_hours: r.limit_change_horizon_hours,
        })
    }

    pub(super) fn join(&self) -> Result<Join, ConfigError> {
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
    pub(super) fn messages(&self) -> Result<(Mail, Sms, Notify), ConfigError> {
        let mail = self.mail()?;
        let sms = self.sms()?;
        let notify = self.notify()?;
        Ok((mail, sms, notify))
    }

    /// E-mail by SMTP: a host and a sender, or neither.
    fn mail(&self) -> Result<Mail, ConfigError> {
        let m = &self.mail;
        let smtp_tls = SmtpTls::parse(&m.smtp_tls)
            .ok_or_else(|| bad("CARDROOM_SMTP_TLS", "must be starttls, tls or none"))?;
        let smtp_host = set(&m.smtp_host);
        let from = if smtp_host.is_some() {
            Some(self.mail_sender()?)
        } else if m.smtp_port.is_some() || set(&m.smtp_user).is_some() {
            return Err(bad(
                "CARDROOM_SMTP_HOST",
                "is needed when other CARDROOM_SMTP_* settings are given",
            ));
        } else {
            None
        };
        if m.smtp_port == Some(0) {
            return Err(bad("CARDROOM_SMTP_PORT", "must be between 1 and 65535"));
        }
        Ok(Mail {
            smtp_host: smtp_host.map(str::to_string),
            smtp_port: m.smtp_port.unwrap_or(smtp_tls.default_port()),
            smtp_tls,
            smtp_user: m.smtp_user.clone(),
            smtp_password: m.smtp_password.clone(),
            from,
        })
    }

    /// With an SMTP host: the sender's address, and the user and password both or neither.
    fn mail_sender(&self) -> Result<lettre::message::Mailbox, ConfigError> {
        let m = &self.mail;
        let f = set(&m.from).ok_or_else(|| {
            bad(
                "CARDROOM_MAIL_FROM",
                "is needed when CARDROOM_SMTP_HOST is set",
            )
        })?;
        let from = f.parse::<lettre::message::Mailbox>().map_err(|_| {
            bad(
                "CARDROOM_MAIL_FROM",
                format!("{f:?} is not an address like Cardroom <floor@example.com>"),
            )
        })?;
        if set(&m.smtp_user).is_some() != set(&m.smtp_password).is_some() {
            return Err(bad(
                "CARDROOM_SMTP_PASSWORD",
                "CARDROOM_SMTP_USER and CARDROOM_SMTP_PASSWORD go together",
            ));
        }
        Ok(from)
    }

    /// SMS: no provider, or one with what it needs.
    fn sms(&self) -> Result<Sms, ConfigError> {
        let s = &self.sms;
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
            Some("generic") => Some(self.generic_sms()?),
            Some("twilio") => Some(self.twilio_sms()?),
            Some(other) => {
                return Err(bad(
                    "CARDROOM_SMS_PROVIDER",
                    format!("{other:?}: must be generic or twilio"),
                ))
            }
        };
        Ok(Sms {
            provider,
            url: s.url.clone(),
            user: s.user.clone(),
            password: s.password.clone(),
            token: s.token.clone().filter(|t| !t.is_empty()),
            from: s.from.clone(),
            template: s.template.clone(),
            content_type: s.content_type.clone(),
        })
    }

    /// The generic HTTP provider: its address, content type and body template.
    fn generic_sms(&self) -> Result<SmsProvider, ConfigError> {
        let s = &self.sms;
        let url = set(&s.url).ok_or_else(|| {
            bad(
                "CARDROOM_SMS_URL",
                "is needed with CARDROOM_SMS_PROVIDER=generic",
            )
        })?;
        if !is_http(url) {
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
        Ok(SmsProvider::Generic)
    }

    /// Twilio: its credentials and the sender number (the address is optional).
    fn twilio_sms(&self) -> Result<SmsProvider, ConfigError> {
        let s = &self.sms;
        if set(&s.url).is_some_and(|url| !is_http(url)) {
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
        Ok(SmsProvider::Twilio)
    }

    /// The outbox: the local sink, retries and timing.
    fn notify(&self) -> Result<Notify, ConfigError> {
        let n = &self.notify;
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
        Ok(Notify {
            sink: self.sink_path(),
            max_attempts: n.max_attempts,
            backoff_ms: n.backoff_ms,
            backoff_max_ms: n.backoff_max_ms,
            poll_ms: n.poll_ms,
            lease_secs: n.lease_secs,
            timeout_secs: n.timeout_secs,
        })
    }
}

fn is_http(url: &str) -> bool {
    url.starts_with("http://") || url.starts_with("https://")
}
