//! A running table's limits as a JSON API under `/api/v1` (PT-2007 22, BSOP 34): the limits
//! in force with the pending change and the history; the floor's approval of a change with
//! its effective point; the dealer's confirmation that it was announced at the table; the
//! floor's cancellation. Thin handlers over `services::limits`: the same rules, refusals,
//! audit and pushed events as the floor's board and the tablet.

use crate::db::models::TableRow;
use crate::domain::ids::GameId;
use crate::domain::ids::TableId;
use crate::domain::limits::{Effective, Limits};
use crate::error::AppResult;
use crate::services::limits::{self, ChangeLine};
use crate::services::{self};
use crate::web::extract::ActingAs;
use crate::web::extract::{AnyStaff, DealerStaff, FloorStaff};
use crate::web::json::ApiJson;
use crate::web::openapi::ErrorResponse;
use crate::web::state::AppState;
use actix_web::{web, HttpResponse};
// The route macros: utoipa reads the path and method from them (a bare name).
use actix_web::{get, post};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;

/// Registered inside the `/api/v1` scope, as the other API modules.
pub fn routes(cfg: &mut ServiceConfig) {
    cfg.service(table_limits)
        .service(propose)
        .service(announce)
        .service(cancel);
}

/// A table's limits: blinds and buy-ins in minor units; no `buy_in_max`: no maximum.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct LimitsOut {
    pub small_blind: i64,
    pub big_blind: i64,
    pub buy_in_min: i64,
    pub buy_in_max: Option<i64>,
}

impl From<Limits> for LimitsOut {
    fn from(l: Limits) -> Self {
        LimitsOut {
            small_blind: l.small_blind,
            big_blind: l.big_blind,
            buy_in_min: l.buy_in_min,
            buy_in_max: l.buy_in_max,
        }
    }
}

/// One record of a table's limits history: the limits it opened with, or a change.
#[derive(Debug, Serialize, ToSchema)]
pub struct LimitChangeOut {
    pub id: i64,
    #[schema(value_type = i64)]
    pub table_id: TableId,
    pub table_number: i32,
    #[schema(value_type = Option<i64>)]
    pub game_id: Option<GameId>,
    /// opening (the limits the table opened with) | floor (approved by the floor, BSOP 34) |
    /// game_edit (the admin edited the table's game)
    pub kind: String,
    /// pending | applied | cancelled
    pub state: String,
    /// The limits in force when the change was approved (none for an opening).
    pub from: Option<LimitsOut>,
    pub to: LimitsOut,
    /// The stated time it takes effect from (none: from the next hand).
    pub effective_at: Option<DateTime<Utc>>,
    pub approved_at: DateTime<Utc>,
    pub approved_by: Option<String>,
    /// When the dealer confirmed it was announced to the players (PT-2007 22).
    pub announced_at: Option<DateTime<Utc>>,
    pub announced_by: Option<String>,
    pub applied_at: Option<DateTime<Utc>>,
    pub applied_by: Option<String>,
    /// The first hand played at the new limits (none at a table that records no hands).
    pub applied_hand: Option<i32>,
    pub cancelled_at: Option<DateTime<Utc>>,
    pub cancelled_by: Option<String>,
    pub cancel_reason: Option<String>,
}

pub fn change_out(l: &ChangeLine) -> LimitChangeOut {
    let c = &l.change;
    let utc = |t: chrono::NaiveDateTime| t.and_utc();
    LimitChangeOut {
        id: c.id,
        table_id: c.table_id,
        table_number: l.table_number,
        game_id: c.game_id,
        kind: c.kind.to_string(),
        state: c.state.to_string(),
        from: l.from().map(LimitsOut::from),
        to: l.to().into(),
        effective_at: c.effective_at.map(utc),
        approved_at: utc(c.approved_at),
        approved_by: l.approved_by.clone(),
        announced_at: c.announced_at.map(utc),
        announced_by: l.announced_by.clone(),
        applied_at: c.applied_at.map(utc),
        applied_by: l.applied_by.clone(),
        applied_hand: c.applied_hand,
        cancelled_at: c.cancelled_at.map(utc),
        cancelled_by: l.cancelled_by.clone(),
        cancel_reason: c.cancel_reason.clone(),
    }
}

/// A table's limits now, its pending change and its history.
#[derive(Debug, Serialize, ToSchema)]
pub struct TableLimitsOut {
    #[schema(value_type = i64)]
    pub table_id: TableId,
    pub table_number: i32,
    pub state: String,
    /// The limits in force (its own in play, else its game's; none without a game).
    pub limits: Option<LimitsOut>,
    pub pending: Option<LimitChangeOut>,
    /// Newest first (the last 100).
    pub history: Vec<LimitChangeOut>,
}

/// New limits for a table in play, approved by the floor (BSOP 34), with their effective
/// point (PT-2007 22). Amounts in minor units, each 1 to 1,000,000,000 (a banked game's
/// blinds 0); the big blind at least the small blind, the maximum at least the minimum.
#[derive(Debug, Deserialize, ToSchema)]
pub struct LimitChangeRequest {
    #[schema(minimum = 0, maximum = 1_000_000_000)]
    pub small_blind: i64,
    #[schema(minimum = 0, maximum = 1_000_000_000)]
    pub big_blind: i64,
    #[schema(minimum = 1, maximum = 1_000_000_000)]
    pub buy_in_min: i64,
    /// None: no maximum buy-in.
    #[schema(minimum = 1, maximum = 1_000_000_000)]
    pub buy_in_max: Option<i64>,
    /// From the first hand started at or after this instant (RFC 3339, in the future, and
    /// at most the room's horizon ahead: `CARDROOM_LIMIT_CHANGE_HORIZON_HOURS`, 12 hours by
    /// default); none (or empty): from the next hand. Either way only once the dealer
    /// confirmed the announcement.
    #[serde(default, deserialize_with = "instant_or_none")]
    pub effective_at: Option<DateTime<Utc>>,
}

/// An optional instant where an empty string says "none", as a form would send it.
fn instant_or_none<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<DateTime<Utc>>, D::Error> {
    match Option::<String>::deserialize(d)?.as_deref().map(str::trim) {
        None | Some("") => Ok(None),
        Some(t) => DateTime::parse_from_rfc3339(t)
            .map(|t| Some(t.with_timezone(&Utc)))
            .map_err(serde::de::Error::custom),
    }
}

/// Why the floor cancels a change (optional, at most 200 characters).
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct LimitCancelRequest {
    #[serde(default)]
    #[schema(max_length = 200)]
    pub reason: String,
}

fn table_out(t: &TableRow, limits: Option<Limits>, history: Vec<ChangeLine>) -> TableLimitsOut {
    TableLimitsOut {
        table_id: t.id,
        table_number: t.number,
        state: t.state.to_string(),
        limits: limits.map(LimitsOut::from),
        pending: history
            .iter()
            .find(|l| l.change.state == crate::domain::states::LimitChangeState::Pending)
            .map(change_out),
        history: history.iter().map(change_out).collect(),
    }
}

/// A table's limits in force, its pending change and its history (any staff member).
#[utoipa::path(
    tag = "limits",
    params(("id" = i64, Path, description = "Table id")),
    responses((status = 200, body = TableLimitsOut), (status = 404, body = ErrorResponse))
)]
#[get("/tables/{id}/limits")]
pub async fn table_limits(
    st: web::Data<AppState>,
    _who: AnyStaff,
    path: web::Path<TableId>,
) -> AppResult<web::Json<TableLimitsOut>> {
    let id = path.into_inner();
    let (t, l, h) = st
        .run(move |_, c| {
            let t = services::games::get_table(c, id)?;
            Ok((t, limits::of_table(c, id)?, limits::history(c, id)?))
        })
        .await?;
    Ok(web::Json(table_out(&t, l, h)))
}

/// The floor approves new limits for a table in play (admin, floor; BSOP 34), from the next
/// hand or a stated time. The tablet shows it for the dealer to announce; it takes effect at
/// the first hand started once announced and due (PT-2007 22). 409: the table is not in play,
/// the limits are those in force, or a change is already pending; 422: limits a table cannot
/// play, or a time already past or beyond the room's horizon (12 hours ahead by default),
/// naming the field. Nothing changes on a refusal.
#[utoipa::path(
    tag = "limits",
    params(("id" = i64, Path, description = "Table id")),
    request_body = LimitChangeRequest,
    responses(
        (status = 201, body = LimitChangeOut),
        (status = 403, body = ErrorResponse),
        (status = 404, body = ErrorResponse),
        (status = 409, body = ErrorResponse),
        (status = 422, body = ErrorResponse),
    )
)]
#[post("/tables/{id}/limit-changes")]
pub async fn propose(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<TableId>,
    body: Result<ApiJson<LimitChangeRequest>, actix_web::Error>,
) -> AppResult<HttpResponse> {
    // The role is checked before the body is looked at.
    let b = body?.into_inner();
    let id = path.into_inner();
    let acting = who.acting;
    let to = Limits {
        small_blind: b.small_blind,
        big_blind: b.big_blind,
        buy_in_min: b.buy_in_min,
        buy_in_max: b.buy_in_max,
    };
    let effective = b.effective_at.map_or(Effective::NextHand, Effective::At);
    let horizon = st.config.room.limit_change_horizon_hours;
    let line = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            let row = limits::propose(c, act, id, &to, effective, horizon)?;
            limits::line(c, row.id)
        })
        .await?;
    Ok(HttpResponse::Created().json(change_out(&line)))
}

/// The dealer confirms the change was announced to the players (admin, floor, dealer;
/// PT-2007 22): audited. Confirming again changes nothing. 409 when it is no longer pending.
#[utoipa::path(
    tag = "limits",
    params(("id" = i64, Path, description = "Limit change id")),
    responses(
        (status = 200, body = LimitChangeOut),
        (status = 404, body = ErrorResponse),
        (status = 409, body = ErrorResponse),
    )
)]
#[post("/limit-changes/{id}/announced")]
pub async fn announce(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<i64>,
) -> AppResult<web::Json<LimitChangeOut>> {
    let id = path.into_inner();
    let acting = who.acting;
    let line = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            limits::announce(c, act, id, None)?;
            limits::line(c, id)
        })
        .await?;
    Ok(web::Json(change_out(&line)))
}

/// The floor cancels a pending change (admin, floor): the table keeps its limits. 409 when
/// it is no longer pending.
#[utoipa::path(
    tag = "limits",
    params(("id" = i64, Path, description = "Limit change id")),
    request_body(content = Option<LimitCancelRequest>, description = "The reason (optional)"),
    responses(
        (status = 200, body = LimitChangeOut),
        (status = 403, body = ErrorResponse),
        (status = 404, body = ErrorResponse),
        (status = 409, body = ErrorResponse),
        (status = 422, body = ErrorResponse),
    )
)]
#[post("/limit-changes/{id}/cancel")]
pub async fn cancel(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<i64>,
    body: web::Bytes,
) -> AppResult<web::Json<LimitChangeOut>> {
    // The body is optional (empty or `null`: no reason), read like every API body.
    let reason = if body.iter().all(u8::is_ascii_whitespace) {
        String::new()
    } else {
        let mut value: serde_json::Value = serde_json::from_slice(&body).map_err(|e| {
            crate::error::AppError::BadRequest(
                crate::domain::Problem::new("err-json").arg("detail", e),
            )
        })?;
        crate::web::json::integral_floats(&mut value);
        crate::web::json::from_value::<Option<LimitCancelRequest>>(value)?
            .unwrap_or_default()
            .reason
    };
    let id = path.into_inner();
    let acting = who.acting;
    let line = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            limits::cancel(c, act, id, &reason)?;
            limits::line(c, id)
        })
        .await?;
    Ok(web::Json(change_out(&line)))
}
