//! The dealers' night under `/api/v1`: the roster with each dealer's state, the open tables'
//! downs and the pushes proposed for the next hour; clocking in and out, breaks. Thin
//! handlers over `services::dealers`.

use crate::db::models::{DealerBreakRow, DealerClockRow};
use crate::db::DbConn;
use crate::domain::ids::TableId;
use crate::domain::refusal::DealerRefusal;
use crate::domain::staff::Role;
use crate::error::{AppError, AppResult};
use crate::services::dealers::{self, AfterPush, Night, PushOrder, Pushed, Relieved};
use crate::services::Act;
use crate::web::extract::{ActingAs, DealerStaff, FloorStaff};
use crate::web::json::ApiJson;
use crate::web::openapi::ErrorResponse;
use crate::web::state::AppState;
use actix_web::{get, post};
use actix_web::{web, HttpResponse};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;

pub fn routes(cfg: &mut ServiceConfig) {
    cfg.service(night)
        .service(push)
        .service(clock_in)
        .service(clock_out)
        .service(start_break)
        .service(end_break)
        .service(relieve);
}

/// The night: each dealer's state (dealing, on a break, available, off), each open table's
/// dealer and down, and the pushes proposed for the next hour by the room's push rules
/// (the dealer off the tables longest relieves the table whose down is up; a dealer due a
/// break gets it when relieved).
#[utoipa::path(tag = "dealers", responses((status = 200, body = Night)))]
#[get("/dealers/night")]
pub async fn night(st: web::Data<AppState>, who: ActingAs<DealerStaff>) -> AppResult<HttpResponse> {
    let acting = who.acting;
    let n = st.run(move |_, c| dealers::tonight(c, acting.now)).await?;
    Ok(HttpResponse::Ok().json(n))
}

/// A push: the dealer takes the table over now; the dealer relieved there goes to a break
/// (when one is due by the room's push rules, or when `outgoing_to` says so) or is free for
/// the next push. Accepting the night's proposal and choosing another dealer are the same
/// request; the audit record names the proposal it followed or overrode.
#[utoipa::path(
    tag = "dealers",
    request_body = PushOrder,
    responses(
        (status = 201, body = Pushed),
        (status = 403, body = ErrorResponse),
        (status = 404, description = "No such table", body = ErrorResponse),
        (status = 409, description = "The dealer is not clocked in, deals here already or at another table, or the table has no game", body = ErrorResponse),
        (status = 422, description = "Not an active dealer", body = ErrorResponse),
    )
)]
#[post("/dealers/push")]
pub async fn push(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    body: Result<ApiJson<PushOrder>, actix_web::Error>,
) -> AppResult<HttpResponse> {
    let order = body?.into_inner();
    let acting = who.acting;
    let done = st
        .write(move |_, c| {
            let act = acting.in_room(c)?;
            dealers::push(c, &act, &order)
        })
        .await?;
    Ok(HttpResponse::Created().json(done))
}

/// A clock-in or a break, as recorded.
#[derive(Debug, Serialize, ToSchema)]
pub struct RosterOut {
    pub id: i64,
    pub dealer_id: i64,
    pub from: DateTime<Utc>,
    pub until: Option<DateTime<Utc>>,
}

impl From<DealerClockRow> for RosterOut {
    fn from(r: DealerClockRow) -> Self {
        RosterOut {
            id: r.id,
            dealer_id: r.dealer_id,
            from: r.clocked_in_at.and_utc(),
            until: r.clocked_out_at.map(|t| t.and_utc()),
        }
    }
}

impl From<DealerBreakRow> for RosterOut {
    fn from(r: DealerBreakRow) -> Self {
        RosterOut {
            id: r.id,
            dealer_id: r.dealer_id,
            from: r.started_at.and_utc(),
            until: r.ended_at.map(|t| t.and_utc()),
        }
    }
}

/// One change to dealer `id`'s roster, in a write turn: a dealer acts for themselves only,
/// the floor for any dealer.
async fn on_roster<R: Into<RosterOut> + Send + 'static>(
    st: &AppState,
    who: &ActingAs<DealerStaff>,
    id: i64,
    change: fn(&mut DbConn, &Act, i64) -> AppResult<R>,
) -> AppResult<RosterOut> {
    let me = &who.who.0.staff;
    if me.role == Role::Dealer.as_str() && me.id != id {
        return Err(AppError::Forbidden(DealerRefusal::SelfOnly.into()));
    }
    let acting = who.acting.clone();
    let r = st
        .write(move |_, c| {
            let act = acting.in_room(c)?;
            change(c, &act, id)
        })
        .await?;
    Ok(r.into())
}

/// The dealer clocks in for the night.
#[utoipa::path(
    tag = "dealers",
    params(("id" = i64, Path, description = "The dealer's staff id")),
    responses(
        (status = 201, body = RosterOut),
        (status = 403, body = ErrorResponse),
        (status = 409, description = "Already clocked in", body = ErrorResponse),
        (status = 422, description = "Not an active dealer", body = ErrorResponse),
    )
)]
#[post("/dealers/{id}/clock-in")]
pub async fn clock_in(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    let r = on_roster(&st, &who, path.into_inner(), dealers::clock_in).await?;
    Ok(HttpResponse::Created().json(r))
}

/// The dealer clocks out: their down ends, and so does a break they were on.
#[utoipa::path(
    tag = "dealers",
    params(("id" = i64, Path, description = "The dealer's staff id")),
    responses(
        (status = 200, body = RosterOut),
        (status = 403, body = ErrorResponse),
        (status = 409, description = "Not clocked in", body = ErrorResponse),
        (status = 422, description = "Not an active dealer", body = ErrorResponse),
    )
)]
#[post("/dealers/{id}/clock-out")]
pub async fn clock_out(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    let r = on_roster(&st, &who, path.into_inner(), dealers::clock_out).await?;
    Ok(HttpResponse::Ok().json(r))
}

/// The dealer goes on a break: clocked in, at no table. A dealer dealing is refused (409
/// `dealer_break_while_dealing`): the floor takes them off their table first, by a push
/// (`POST /api/v1/dealers/push`, the relieved dealer to a break) or with nobody to take the
/// table over (`POST /api/v1/tables/{id}/dealer/relieve`).
#[utoipa::path(
    tag = "dealers",
    params(("id" = i64, Path, description = "The dealer's staff id")),
    responses(
        (status = 201, body = RosterOut),
        (status = 403, body = ErrorResponse),
        (status = 409, description = "Not clocked in, already on a break, or dealing", body = ErrorResponse),
        (status = 422, description = "Not an active dealer", body = ErrorResponse),
    )
)]
#[post("/dealers/{id}/break")]
pub async fn start_break(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    let r = on_roster(&st, &who, path.into_inner(), dealers::start_break).await?;
    Ok(HttpResponse::Created().json(r))
}

/// The dealer is back from their break.
#[utoipa::path(
    tag = "dealers",
    params(("id" = i64, Path, description = "The dealer's staff id")),
    responses(
        (status = 200, body = RosterOut),
        (status = 403, body = ErrorResponse),
        (status = 409, description = "Not on a break", body = ErrorResponse),
        (status = 422, description = "Not an active dealer", body = ErrorResponse),
    )
)]
#[post("/dealers/{id}/back")]
pub async fn end_break(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    let r = on_roster(&st, &who, path.into_inner(), dealers::end_break).await?;
    Ok(HttpResponse::Ok().json(r))
}

/// Where the dealer taken off a table goes.
#[derive(Debug, Deserialize, ToSchema)]
pub struct RelieveRequest {
    /// `break` (for the room's break length) or `available` (free for the next push).
    pub to: AfterPush,
}

/// The floor takes the dealer off table `id` with nobody to take it over (a table about to
/// break, a dealer needed elsewhere): their down ends, they go to a break or are free for the
/// next push, and the table is without a dealer until the next push (the board and the
/// dealers' page say so). Audited as `dealer.relieve`.
#[utoipa::path(
    tag = "dealers",
    params(("id" = i64, Path, description = "Table id")),
    request_body = RelieveRequest,
    responses(
        (status = 200, body = Relieved),
        (status = 403, body = ErrorResponse),
        (status = 404, description = "No such table", body = ErrorResponse),
        (status = 409, description = "The table has no dealer (`dealer_none_here`)", body = ErrorResponse),
        (status = 422, description = "`to` is neither `break` nor `available`", body = ErrorResponse),
    )
)]
#[post("/tables/{id}/dealer/relieve")]
pub async fn relieve(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<TableId>,
    body: Result<ApiJson<RelieveRequest>, actix_web::Error>,
) -> AppResult<HttpResponse> {
    // The role is checked before the body is looked at.
    let to = body?.into_inner().to;
    let id = path.into_inner();
    let acting = who.acting;
    let done = st
        .write(move |_, c| {
            let act = acting.in_room(c)?;
            dealers::relieve(c, &act, id, to)
        })
        .await?;
    Ok(HttpResponse::Ok().json(done))
}
