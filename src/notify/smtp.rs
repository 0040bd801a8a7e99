//! E-mail over SMTP with lettre (rustls): host, port, no TLS / STARTTLS / implicit TLS,
//! optional credentials. The message's idempotency key becomes its `Message-ID`
//! (`<key@sender-domain>`): a message re-sent after a crash carries the same Message-ID, so
//! a mail system that drops duplicates by Message-ID shows it once.

use super::transport::{Outgoing, SendError, Transport};
use crate::config::Config;
use lettre::message::header::ContentType;
use lettre::message::Mailbox;
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Tls, TlsParameters};
use lettre::{Message, SmtpTransport, Transport as _};
use std::time::Duration;

pub struct Smtp {
    transport: SmtpTransport,
    from: Mailbox,
    domain: String,
}

/// The `Message-ID` of a message: its idempotency key at the sender's domain.
pub fn message_id(key: &str, domain: &str) -> String {
    format!("<{key}@{domain}>")
}

impl Smtp {
    pub fn from_config(c: &Config) -> Result<Smtp, String> {
        let host = c
            .smtp_host
            .as_deref()
            .map(str::trim)
            .unwrap_or_default()
            .to_string();
        let from: Mailbox = c
            .mail_from
            .as_deref()
            .unwrap_or_default()
            .parse()
            .map_err(|e| format!("CARDROOM_MAIL_FROM: {e}"))?;
        let domain = from.email.domain().to_string();
        let tls_params =
            || TlsParameters::new(host.clone()).map_err(|e| format!("CARDROOM_SMTP_TLS: {e}"));
        let (tls, default_port) = match c.smtp_tls.as_str() {
            "none" => (Tls::None, 25),
            "tls" => (Tls::Wrapper(tls_params()?), 465),
            _ => (Tls::Required(tls_params()?), 587),
        };
        let mut b = SmtpTransport::builder_dangerous(host.clone())
            .port(c.smtp_port.unwrap_or(default_port))
            .tls(tls)
            .timeout(Some(Duration::from_secs(c.notify_timeout_secs)));
        if let (Some(u), Some(p)) = (c.smtp_user.as_deref(), c.smtp_password.as_deref()) {
            b = b.credentials(Credentials::new(u.to_string(), p.to_string()));
        }
        Ok(Smtp {
            transport: b.build(),
            from,
            domain,
        })
    }
}

impl Transport for Smtp {
    fn name(&self) -> &'static str {
        "smtp"
    }

    fn send(&self, m: &Outgoing<'_>) -> Result<Option<String>, SendError> {
        let to: Mailbox =
            m.to.parse()
                .map_err(|e| SendError::permanent(format!("recipient {:?}: {e}", m.to)))?;
        let id = message_id(m.key, &self.domain);
        let msg = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(m.subject.unwrap_or_default())
            .message_id(Some(id.clone()))
            .header(ContentType::TEXT_PLAIN)
            .body(m.body.to_string())
            .map_err(|e| SendError::permanent(format!("message: {e}")))?;
        match self.transport.send(&msg) {
            Ok(_) => Ok(Some(id)),
            // 5xx: the server refused this message for good.
            Err(e) if e.is_permanent() => Err(SendError::permanent(format!("SMTP: {e}"))),
            Err(e) => Err(SendError::transient(format!("SMTP: {e}"))),
        }
    }
}
