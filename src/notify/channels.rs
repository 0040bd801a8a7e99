//! The transport of each channel, chosen from the configuration: SMTP or the local sink for
//! e-mail, an SMS gateway (generic or Twilio) or the local sink for SMS.

use super::sms::{Generic, Twilio};
use super::smtp::Smtp;
use super::transport::{Sink, Transport};
use crate::config::{Config, SmsProvider};

/// The transports in use, one per channel.
pub struct Transports {
    pub email: Box<dyn Transport>,
    pub sms: Box<dyn Transport>,
}

impl Transports {
    /// From the configuration (validated at start): a channel without a provider goes to
    /// the local sink.
    pub fn from_config(c: &Config) -> Result<Transports, String> {
        let sink =
            || -> Box<dyn Transport> { Box::new(Sink::new(&c.notify.sink.to_string_lossy())) };
        let email: Box<dyn Transport> = match c.mail.smtp_host {
            Some(_) => Box::new(Smtp::from_config(c)?),
            None => sink(),
        };
        let sms: Box<dyn Transport> = match c.sms.provider {
            Some(SmsProvider::Generic) => Box::new(Generic::from_config(c)?),
            Some(SmsProvider::Twilio) => Box::new(Twilio::from_config(c)?),
            None => sink(),
        };
        Ok(Transports { email, sms })
    }

    pub fn for_channel(&self, channel: &str) -> &dyn Transport {
        if channel == "email" {
            self.email.as_ref()
        } else {
            self.sms.as_ref()
        }
    }
}
