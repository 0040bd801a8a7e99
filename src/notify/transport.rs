//! How a message leaves the room: e-mail over SMTP, SMS through an HTTP gateway, or — with
//! no provider configured for a channel — the local sink (a file of JSON lines, and the log),
//! so the demo works offline and the floor still sees every message on `/floor/messages`.

use std::io::Write;
use std::sync::Mutex;

/// One message to send.
#[derive(Debug, Clone)]
pub struct Outgoing<'a> {
    /// `sms` or `email`.
    pub channel: &'a str,
    pub to: &'a str,
    pub subject: Option<&'a str>,
    pub body: &'a str,
    /// The message's idempotency key: the same on every attempt.
    pub key: &'a str,
}

/// Why a send failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SendError {
    pub message: String,
    /// The provider refused it for good (bad address, bad credentials): no retry.
    pub permanent: bool,
}

impl SendError {
    pub fn transient(message: impl Into<String>) -> SendError {
        SendError {
            message: message.into(),
            permanent: false,
        }
    }
    pub fn permanent(message: impl Into<String>) -> SendError {
        SendError {
            message: message.into(),
            permanent: true,
        }
    }
}

/// A way to send messages of one channel. `send` returns the provider's reference for the
/// message (SMTP Message-ID, gateway message id), when it gives one.
pub trait Transport: Send + Sync {
    /// Shown on the floor page with each attempt: `sink`, `smtp`, `sms-generic`, `twilio`.
    fn name(&self) -> &'static str;
    fn send(&self, m: &Outgoing<'_>) -> Result<Option<String>, SendError>;
}

/// The local sink: appends each message as one JSON line to a file and logs it. Nothing
/// leaves the machine.
pub struct Sink {
    path: String,
    lock: Mutex<()>,
}

impl Sink {
    pub fn new(path: &str) -> Sink {
        Sink {
            path: path.to_string(),
            lock: Mutex::new(()),
        }
    }
}

impl Transport for Sink {
    fn name(&self) -> &'static str {
        "sink"
    }

    fn send(&self, m: &Outgoing<'_>) -> Result<Option<String>, SendError> {
        let line = serde_json::json!({
            "at": chrono::Utc::now(), "channel": m.channel, "to": m.to, "subject": m.subject, "body": m.body, "key": m.key,
        });
        log::info!(
            "message ({}) to {}: {}",
            m.channel,
            m.to,
            m.body.lines().next().unwrap_or_default()
        );
        let _g = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)
            .map_err(|e| SendError::transient(format!("sink {}: {e}", self.path)))?;
        writeln!(f, "{line}")
            .map_err(|e| SendError::transient(format!("sink {}: {e}", self.path)))?;
        Ok(Some(format!("sink:{}", m.key)))
    }
}
