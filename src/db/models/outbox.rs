//! Player messages waiting, sent or failed, and each delivery attempt.

use crate::db::schema::*;
use crate::domain::enums::string_enum;
use crate::domain::ids::PlayerId;
use chrono::NaiveDateTime;
use diesel::prelude::*;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

string_enum! {
    /// How a message reaches a player.
    Channel { Sms = "sms", Email = "email" }
}

string_enum! {
    /// Where an outbox message's delivery stands.
    OutboxStatus {
        /// Waiting for its turn (or for its next attempt after a failure).
        Pending = "pending",
        /// Claimed by a worker, being sent.
        Sending = "sending",
        Sent = "sent",
        /// Given up after its attempts.
        Failed = "failed",
    }
}

string_enum! {
    /// How one delivery attempt ended.
    AttemptOutcome {
        Started = "started",
        Sent = "sent",
        Error = "error",
        /// The worker stopped (or the server did) before the attempt ended.
        Interrupted = "interrupted",
    }
}

/// One player message in the outbox: what it says, to whom, by which channel, and
/// where its delivery stands.
#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = outbox)]
pub struct OutboxRow {
    pub id: i64,
    pub player_id: Option<PlayerId>,
    pub kind: String,
    pub channel: Channel,
    pub recipient: String,
    pub language: String,
    pub params: String,
    pub subject: Option<String>,
    pub body: Option<String>,
    #[serde(skip)]
    pub idem_key: String,
    pub status: OutboxStatus,
    pub attempts: i32,
    pub next_attempt_at: NaiveDateTime,
    pub lease_until: Option<NaiveDateTime>,
    pub claimed_by: Option<String>,
    pub last_error: Option<String>,
    pub provider_ref: Option<String>,
    pub created_at: NaiveDateTime,
    pub sent_at: Option<NaiveDateTime>,
    pub failed_at: Option<NaiveDateTime>,
}

/// One delivery attempt of an outbox message.
#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = outbox_attempts)]
pub struct OutboxAttemptRow {
    pub id: i64,
    pub message_id: i64,
    pub attempt: i32,
    pub worker: String,
    pub transport: String,
    pub started_at: NaiveDateTime,
    pub finished_at: Option<NaiveDateTime>,
    pub outcome: AttemptOutcome,
    pub error: Option<String>,
    pub provider_ref: Option<String>,
}
