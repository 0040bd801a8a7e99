//! Messages to players under `/api/v1`: the outbox with each attempt, "retry now"
//! for a failed message, and revoking every link of a player. Floor staff (admin, floor).

use crate::db::models::{OutboxAttemptRow, OutboxRow};
use crate::domain::ids::PlayerId;
use crate::error::AppResult;
use crate::notify::outbox::{self, Filter, Listed};
use crate::web::extract::FloorStaff;
use crate::web::openapi::ErrorResponse;
use crate::web::state::AppState;
use actix_web::web;
// The route macros: utoipa reads the path and method from them (a bare name).
use actix_web::{get, post};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_actix_web::service_config::ServiceConfig;

/// Registered inside the `/api/v1` scope: each handler carries its path and method
/// (`#[post(…)]`) and its documentation (`#[utoipa::path]`), registered together.
pub fn routes(cfg: &mut ServiceConfig) {
    cfg.service(list_messages)
        .service(retry_message)
        .service(revoke_links);
}

fn utc(t: chrono::NaiveDateTime) -> DateTime<Utc> {
    t.and_utc()
}

/// One delivery attempt.
#[derive(Debug, Serialize, ToSchema)]
pub struct AttemptOut {
    /// 1, 2, … over the message's whole life.
    pub attempt: i32,
    /// sink | smtp | sms-generic | twilio
    pub transport: String,
    pub started_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
    /// started | sent | error | interrupted (the worker stopped before recording it; the
    /// message was sent again with the same idempotency key)
    pub outcome: String,
    pub error: Option<String>,
    /// The provider's reference (SMTP Message-ID, gateway message id).
    pub provider_ref: Option<String>,
}

/// A message to a player, where its delivery stands, and every attempt.
#[derive(Debug, Serialize, ToSchema)]
pub struct MessageOut {
    pub id: i64,
    #[schema(value_type = Option<i64>)]
    pub player_id: Option<PlayerId>,
    pub alias: Option<String>,
    /// added | next | nearly_next | seat_ready | call_expired | removed | must_move | custody
    pub kind: String,
    /// sms | email
    pub channel: String,
    pub recipient: String,
    /// pt | en
    pub language: String,
    /// pending | sending | sent | failed
    pub status: String,
    /// E-mail subject, once written (at the first attempt).
    pub subject: Option<String>,
    /// The text as sent, once written (at the first attempt).
    pub body: Option<String>,
    /// Attempts in the current round (a "retry now" starts a new one).
    pub attempts: i32,
    pub next_attempt_at: DateTime<Utc>,
    pub last_error: Option<String>,
    pub created_at: DateTime<Utc>,
    pub sent_at: Option<DateTime<Utc>>,
    pub failed_at: Option<DateTime<Utc>>,
    pub attempt_log: Vec<AttemptOut>,
}

fn attempt_out(a: &OutboxAttemptRow) -> AttemptOut {
    AttemptOut {
        attempt: a.attempt,
        transport: a.transport.clone(),
        started_at: utc(a.started_at),
        finished_at: a.finished_at.map(utc),
        outcome: a.outcome.to_string(),
        error: a.error.clone(),
        provider_ref: a.provider_ref.clone(),
    }
}

fn message_out(m: &OutboxRow, alias: Option<String>, attempts: &[OutboxAttemptRow]) -> MessageOut {
    MessageOut {
        id: m.id,
        player_id: m.player_id,
        alias,
        kind: m.kind.clone(),
        channel: m.channel.to_string(),
        recipient: m.recipient.clone(),
        language: m.language.clone(),
        status: m.status.to_string(),
        subject: m.subject.clone(),
        body: m.body.clone(),
        attempts: m.attempts,
        next_attempt_at: utc(m.next_attempt_at),
        last_error: m.last_error.clone(),
        created_at: utc(m.created_at),
        sent_at: m.sent_at.map(utc),
        failed_at: m.failed_at.map(utc),
        attempt_log: attempts.iter().map(attempt_out).collect(),
    }
}

fn listed_out(l: &Listed) -> MessageOut {
    message_out(&l.message, l.alias.clone(), &l.attempts)
}

/// A message's state (`outbox::STATUSES`; the schema of [`MessageQuery::status`]).
#[derive(ToSchema)]
#[allow(dead_code)]
pub enum MessageStatus {
    #[schema(rename = "pending")]
    Pending,
    #[schema(rename = "sending")]
    Sending,
    #[schema(rename = "sent")]
    Sent,
    #[schema(rename = "failed")]
    Failed,
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct MessageQuery {
    /// Only this player's messages.
    #[param(value_type = Option<i64>)]
    pub player_id: Option<PlayerId>,
    #[param(value_type = Option<MessageStatus>, inline)]
    pub status: Option<String>,
    /// At most this many, newest first (default 100; 1 to 1000, clamped).
    pub limit: Option<i64>,
}

/// Messages to players, newest first, with their attempts (admin, floor).
#[utoipa::path(
    tag = "messages",
    params(MessageQuery),
    responses((status = 200, body = Vec<MessageOut>), (status = 422, body = ErrorResponse))
)]
#[get("/messages")]
pub async fn list_messages(
    st: web::Data<AppState>,
    _who: FloorStaff,
    q: web::Query<MessageQuery>,
) -> AppResult<web::Json<Vec<MessageOut>>> {
    let q = q.into_inner();
    let f = Filter {
        player_id: q.player_id,
        status: q.status.filter(|s| !s.is_empty()),
        limit: q.limit.unwrap_or(100),
    };
    let rows = st.run(move |_, c| outbox::list(c, &f)).await?;
    Ok(web::Json(rows.iter().map(listed_out).collect()))
}

/// Sends a failed message again now: a new round of attempts, with the same idempotency
/// key (audited `message.retry`). 409 unless the message failed.
#[utoipa::path(
    tag = "messages",
    params(("id" = i64, Path, description = "Message id")),
    responses((status = 200, body = MessageOut), (status = 404, body = ErrorResponse), (status = 409, body = ErrorResponse))
)]
#[post("/messages/{id}/retry")]
pub async fn retry_message(
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<i64>,
) -> AppResult<web::Json<MessageOut>> {
    let id = path.into_inner();
    let now = st.clock.now();
    let actor = crate::services::staff::actor(&who.0.staff);
    st.write(move |_, c| outbox::retry_now(c, now, &actor, id))
        .await?;
    let l = st.run(move |_, c| outbox::one(c, id)).await?;
    Ok(web::Json(listed_out(&l)))
}

/// A player's links after a revocation.
#[derive(Debug, Serialize, ToSchema)]
pub struct LinksRevokedOut {
    #[schema(value_type = i64)]
    pub player_id: PlayerId,
    /// Links carrying an older version are refused from now on.
    pub link_token_version: i32,
}

/// Revokes every link of a player at once (audited `player.links_revoked`).
#[utoipa::path(
    tag = "messages",
    params(("id" = i64, Path, description = "Player id")),
    responses((status = 200, body = LinksRevokedOut), (status = 404, body = ErrorResponse))
)]
#[post("/players/{id}/links/revoke")]
pub async fn revoke_links(
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<PlayerId>,
) -> AppResult<web::Json<LinksRevokedOut>> {
    let id = path.into_inner();
    let now = st.clock.now();
    let actor = crate::services::staff::actor(&who.0.staff);
    let v = st
        .write(move |_, c| crate::notify::link::revoke_all(c, now, &actor, id))
        .await?;
    Ok(web::Json(LinksRevokedOut {
        player_id: id,
        link_token_version: v,
    }))
}
