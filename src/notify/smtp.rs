//! E-mail over SMTP with lettre (rustls): host, port, no TLS / STARTTLS / implicit TLS,
//! optional credentials. The message's idempotency key becomes its `Message-ID`
//! (`<key@sender-domain>`): a message re-sent after a crash carries the same Message-ID, so
//! a mail system that drops duplicates by Message-ID shows it once.

use super::transport::{Outgoing, SendError, Transport};
use crate::config::{Config, SmtpTls};
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
        let host = c.mail.smtp_host.clone().unwrap_or_default();
        let from: Mailbox = c.mail.from.clone().ok_or("CARDROOM_MAIL_FROM is needed")?;
        let domain = from.email.domain().to_string();
        let tls_params =
            || TlsParameters::new(host.clone()).map_err(|e| format!("CARDROOM_SMTP_TLS: {e}"));
        let tls = match c.mail.smtp_tls {
            SmtpTls::None => Tls::None,
            SmtpTls::Tls => Tls::Wrapper(tls_params()?),
            SmtpTls::StartTls => Tls::Required(tls_params()?),
        };
        let mut b = SmtpTransport::builder_dangerous(host.clone())
            .port(c.mail.smtp_port)
            .tls(tls)
            .timeout(Some(Duration::from_secs(c.notify.timeout_secs)));
        if let (Some(u), Some(p)) = (c.mail.smtp_user.as_deref(), c.mail.smtp_password.as_deref()) {
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
