//! SMS through an HTTP gateway (ureq, rustls):
//!
//! - **generic**: `POST CARDROOM_SMS_URL` with the body `CARDROOM_SMS_TEMPLATE`, whose
//!   placeholders `{to}`, `{from}`, `{text}`, `{key}` are filled in escaped for
//!   `CARDROOM_SMS_CONTENT_TYPE` (JSON string or form value); HTTP basic credentials
//!   (`CARDROOM_SMS_USER`/`PASSWORD`) or a Bearer token (`CARDROOM_SMS_TOKEN`); the
//!   idempotency key also goes in an `Idempotency-Key` header.
//! - **twilio**: Twilio's Messages REST API, `POST {base}/2010-04-01/Accounts/{sid}/Messages.json`
//!   with the form `To`, `From`, `Body`, basic auth (Account SID, auth token) and the
//!   idempotency key in `I-Twilio-Idempotency-Token`. The base URL (`CARDROOM_SMS_URL`,
//!   default `https://api.twilio.com`) can point at a local server for tests.
//!
//! A 2xx answer is a delivery to the gateway; a 4xx answer (other than 408, 425, 429) is
//! a refusal for good (bad number, bad credentials): no retry; anything else is retried.

use super::transport::{Outgoing, SendError, Transport};
use crate::config::Config;
use base64::Engine;
use std::time::Duration;

fn agent(timeout_secs: u64) -> ureq::Agent {
    ureq::Agent::config_builder()
        .timeout_global(Some(Duration::from_secs(timeout_secs)))
        .http_status_as_error(false)
        .build()
        .into()
}

fn basic(user: &str, password: &str) -> String {
    format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(format!("{user}:{password}"))
    )
}

/// The outcome of an HTTP answer: the gateway's reference on 2xx, else why.
fn answer(
    provider: &str,
    r: Result<ureq::http::Response<ureq::Body>, ureq::Error>,
    reference: &[&str],
) -> Result<Option<String>, SendError> {
    let resp = r.map_err(|e| SendError::transient(format!("{provider}: {e}")))?;
    let status = resp.status().as_u16();
    let text = resp.into_body().read_to_string().unwrap_or_default();
    if (200..300).contains(&status) {
        let id = serde_json::from_str::<serde_json::Value>(&text)
            .ok()
            .and_then(|j| {
                reference
                    .iter()
                    .find_map(|k| j.get(*k).and_then(|v| v.as_str()).map(str::to_string))
            });
        return Ok(id);
    }
    let detail: String = text.chars().take(300).collect();
    let msg = format!("{provider}: HTTP {status} {detail}");
    if (400..500).contains(&status) && !matches!(status, 408 | 425 | 429) {
        Err(SendError::permanent(msg))
    } else {
        Err(SendError::transient(msg))
    }
}

/// Fills the generic gateway's body template, escaping each value for the content type.
pub fn fill_template(
    template: &str,
    json: bool,
    to: &str,
    from: &str,
    text: &str,
    key: &str,
) -> String {
    let esc = |v: &str| -> String {
        if json {
            let q = serde_json::to_string(v).unwrap_or_default();
            q[1..q.len() - 1].to_string()
        } else {
            serde_urlencoded::to_string([("", v)])
                .unwrap_or_default()
                .trim_start_matches('=')
                .to_string()
        }
    };
    // One pass, so a value that happens to contain "{text}" is never filled in again.
    let mut out = String::with_capacity(template.len() + text.len());
    let mut rest = template;
    while let Some(i) = rest.find('{') {
        out.push_str(&rest[..i]);
        let after = &rest[i..];
        let (value, len) = if after.starts_with("{to}") {
            (Some(esc(to)), 4)
        } else if after.starts_with("{from}") {
            (Some(esc(from)), 6)
        } else if after.starts_with("{text}") {
            (Some(esc(text)), 6)
        } else if after.starts_with("{key}") {
            (Some(esc(key)), 5)
        } else {
            (None, 1)
        };
        match value {
            Some(v) => out.push_str(&v),
            None => out.push('{'),
        }
        rest = &after[len..];
    }
    out.push_str(rest);
    out
}

/// A gateway configured by URL, credentials and a body template.
pub struct Generic {
    agent: ureq::Agent,
    url: String,
    auth: Option<String>,
    from: String,
    template: String,
    content_type: String,
}

impl Generic {
    pub fn from_config(c: &Config) -> Result<Generic, String> {
        let auth = match (
            c.sms.token.as_deref(),
            c.sms.user.as_deref(),
            c.sms.password.as_deref(),
        ) {
            (Some(t), _, _) if !t.is_empty() => Some(format!("Bearer {t}")),
            (_, Some(u), Some(p)) => Some(basic(u, p)),
            _ => None,
        };
        Ok(Generic {
            agent: agent(c.notify.timeout_secs),
            url: c.sms.url.clone().ok_or("CARDROOM_SMS_URL is needed")?,
            auth,
            from: c.sms.from.clone().unwrap_or_default(),
            template: c.sms.template.clone(),
            content_type: c.sms.content_type.clone(),
        })
    }
}

impl Transport for Generic {
    fn name(&self) -> &'static str {
        "sms-generic"
    }

    fn send(&self, m: &Outgoing<'_>) -> Result<Option<String>, SendError> {
        let json = self.content_type == "application/json";
        let body = fill_template(&self.template, json, m.to, &self.from, m.body, m.key);
        let mut req = self
            .agent
            .post(&self.url)
            .header("Content-Type", &self.content_type)
            .header("Idempotency-Key", m.key);
        if let Some(a) = &self.auth {
            req = req.header("Authorization", a);
        }
        answer(
            "SMS gateway",
            req.send(body.as_str()),
            &["id", "message_id", "sid"],
        )
    }
}

/// Twilio's Messages API (or a server speaking it).
pub struct Twilio {
    agent: ureq::Agent,
    url: String,
    auth: String,
    from: String,
}

impl Twilio {
    pub fn from_config(c: &Config) -> Result<Twilio, String> {
        let sid = c
            .sms
            .user
            .clone()
            .ok_or("CARDROOM_SMS_USER (Account SID) is needed")?;
        let token = c
            .sms
            .password
            .clone()
            .ok_or("CARDROOM_SMS_PASSWORD (auth token) is needed")?;
        let base = c
            .sms
            .url
            .as_deref()
            .unwrap_or("https://api.twilio.com")
            .trim_end_matches('/')
            .to_string();
        Ok(Twilio {
            agent: agent(c.notify.timeout_secs),
            url: format!("{base}/2010-04-01/Accounts/{sid}/Messages.json"),
            auth: basic(&sid, &token),
            from: c.sms.from.clone().unwrap_or_default(),
        })
    }
}

impl Transport for Twilio {
    fn name(&self) -> &'static str {
        "twilio"
    }

    fn send(&self, m: &Outgoing<'_>) -> Result<Option<String>, SendError> {
        let req = self
            .agent
            .post(&self.url)
            .header("Authorization", &self.auth)
            .header("I-Twilio-Idempotency-Token", m.key);
        answer(
            "Twilio",
            req.send_form([("To", m.to), ("From", self.from.as_str()), ("Body", m.body)]),
            &["sid"],
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_template_is_filled_with_escaped_values() {
        let t = r#"{"to":"{to}","text":"{text}","k":"{key}","from":"{from}"}"#;
        let body = fill_template(
            t,
            true,
            "+351912345678",
            "Room",
            "Say \"hi\"\n{text}",
            "cr1-x",
        );
        let j: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert_eq!(j["text"], "Say \"hi\"\n{text}");
        assert_eq!(j["to"], "+351912345678");
        assert_eq!(j["k"], "cr1-x");
        let form = fill_template("to={to}&body={text}", false, "+351 91", "R", "a&b=c é", "k");
        let back: Vec<(String, String)> = serde_urlencoded::from_str(&form).unwrap();
        assert_eq!(
            back,
            vec![
                ("to".into(), "+351 91".into()),
                ("body".into(), "a&b=c é".into())
            ]
        );
    }
}
