//! The table's requests to the floor and the floor's messages to the table.

use super::utc;
use crate::db::models::{FloorMessageRow, ServiceRequestRow};
use crate::domain::ids::TableId;
use crate::error::AppResult;
use crate::services::table_side::{self};
use crate::services::{self};
use crate::web::extract::{ActingAs, AnyStaff, DealerStaff, FloorStaff};
use crate::web::json::ApiJson;
use crate::web::openapi::ErrorResponse;
use crate::web::state::AppState;
use actix_web::{web, HttpResponse};
// The route macros: utoipa reads the path and method from them (a bare name).
use actix_web::{get, post};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A message from the floor to a table's tablet.
#[derive(Debug, Serialize, ToSchema)]
pub struct FloorMessageOut {
    pub id: i64,
    #[schema(value_type = i64)]
    pub table_id: TableId,
    pub table_number: i32,
    pub body: String,
    pub created_at: DateTime<Utc>,
    pub sent_by: Option<String>,
    /// When the dealer marked it seen (absent: still shown on the tablet).
    pub seen_at: Option<DateTime<Utc>>,
    pub seen_by: Option<String>,
}

pub(super) fn message_out(
    m: &FloorMessageRow,
    number: i32,
    sent_by: Option<String>,
    seen_by: Option<String>,
) -> FloorMessageOut {
    FloorMessageOut {
        id: m.id,
        table_id: m.table_id,
        table_number: number,
        body: m.body.clone(),
        created_at: utc(m.created_at),
        sent_by,
        seen_at: m.seen_at.map(utc),
        seen_by,
    }
}

fn line_out(l: table_side::MessageLine) -> FloorMessageOut {
    message_out(&l.message, l.table_number, l.sent_by, l.seen_by)
}

/// A table's request to the floor.
#[derive(Debug, Serialize, ToSchema)]
pub struct ServiceRequestOut {
    pub id: i64,
    #[schema(value_type = i64)]
    pub table_id: TableId,
    pub table_number: i32,
    /// floor | chips
    pub kind: String,
    pub note: String,
    pub created_at: DateTime<Utc>,
    pub handled_at: Option<DateTime<Utc>>,
}

pub(super) fn service_out(r: &ServiceRequestRow, number: i32) -> ServiceRequestOut {
    ServiceRequestOut {
        id: r.id,
        table_id: r.table_id,
        table_number: number,
        kind: r.kind.clone(),
        note: r.note.clone(),
        created_at: utc(r.created_at),
        handled_at: r.handled_at.map(utc),
    }
}

/// What a table asks the floor for (the schema of [`ServiceRequestBody::kind`];
/// `table_side::SERVICE_KINDS`).
#[derive(ToSchema)]
#[allow(dead_code)]
pub enum ServiceKind {
    #[schema(rename = "floor")]
    Floor,
    #[schema(rename = "chips")]
    Chips,
}

/// A free-text message for a table's tablet (at most 300 characters).
#[derive(Debug, Deserialize, ToSchema)]
pub struct FloorMessageBody {
    #[schema(min_length = 1, max_length = 300, pattern = r"\S")]
    pub body: String,
}

/// floor | chips, with an optional note (a decision is asked for as a ruling).
#[derive(Debug, Deserialize, ToSchema)]
pub struct ServiceRequestBody {
    #[schema(value_type = ServiceKind)]
    pub kind: String,
    #[serde(default)]
    #[schema(max_length = 200)]
    pub note: String,
}

/// A table asks for the floor or chips; asking again while open changes nothing. A decision
/// is asked for as a ruling (`POST /tables/{id}/rulings`, BSOP 16-22).
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Table id")),
    request_body = ServiceRequestBody,
    responses((status = 201, body = ServiceRequestOut), (status = 422, body = ErrorResponse))
)]
#[post("/tables/{id}/service-requests")]
pub async fn request_service(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<TableId>,
    body: ApiJson<ServiceRequestBody>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    let b = body.into_inner();
    let r = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            table_side::request_service(c, act, id, &b.kind, &b.note)
        })
        .await?;
    let number = st
        .run(move |_, c| Ok(services::games::get_table(c, id)?.number))
        .await?;
    Ok(HttpResponse::Created().json(service_out(&r, number)))
}

/// Open requests from the tables, oldest first.
#[utoipa::path(
    tag = "table",
    responses((status = 200, body = Vec<ServiceRequestOut>))
)]
#[get("/service-requests")]
pub async fn list_service_requests(
    st: web::Data<AppState>,
    _who: AnyStaff,
) -> AppResult<web::Json<Vec<ServiceRequestOut>>> {
    let rows = st.run(|_, c| table_side::open_requests(c, None)).await?;
    Ok(web::Json(
        rows.iter().map(|(r, n)| service_out(r, *n)).collect(),
    ))
}

/// The floor handled a request (admin, floor).
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Request id")),
    responses((status = 200, body = ServiceRequestOut), (status = 404, body = ErrorResponse))
)]
#[post("/service-requests/{id}/handled")]
pub async fn handle_service(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<i64>,
) -> AppResult<web::Json<ServiceRequestOut>> {
    let id = path.into_inner();
    let acting = who.acting;
    let r = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            table_side::handle_service(c, act, id)
        })
        .await?;
    let tid = r.table_id;
    let number = st
        .run(move |_, c| Ok(services::games::get_table(c, tid)?.number))
        .await?;
    Ok(web::Json(service_out(&r, number)))
}

/// The last 50 messages the floor sent a table, newest first, with who saw them.
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Table id")),
    responses((status = 200, body = Vec<FloorMessageOut>), (status = 404, body = ErrorResponse))
)]
#[get("/tables/{id}/floor-messages")]
pub async fn list_floor_messages(
    st: web::Data<AppState>,
    _who: AnyStaff,
    path: web::Path<TableId>,
) -> AppResult<web::Json<Vec<FloorMessageOut>>> {
    let id = path.into_inner();
    let rows = st
        .run(move |_, c| {
            services::games::get_table(c, id)?;
            table_side::messages(c, Some(id), 50)
        })
        .await?;
    Ok(web::Json(rows.into_iter().map(line_out).collect()))
}

/// The floor sends a free-text message to a table's tablet (admin, floor); it stays on the
/// tablet until the dealer marks it seen. 409 when no tablet is paired with the table.
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Table id")),
    request_body = FloorMessageBody,
    responses((status = 201, body = FloorMessageOut), (status = 404, body = ErrorResponse), (status = 409, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[post("/tables/{id}/floor-messages")]
pub async fn send_floor_message(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<TableId>,
    body: ApiJson<FloorMessageBody>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    let b = body.into_inner();
    let name = who.who.0.staff.display_name.clone();
    let (m, number) = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            let m = table_side::send_message(c, act, id, &b.body)?;
            Ok((m, services::games::get_table(c, id)?.number))
        })
        .await?;
    Ok(HttpResponse::Created().json(message_out(&m, number, Some(name), None)))
}

/// The dealer marks a message seen (it leaves the tablet; the floor sees who and when).
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Message id")),
    responses((status = 200, body = FloorMessageOut), (status = 404, body = ErrorResponse))
)]
#[post("/floor-messages/{id}/seen")]
pub async fn floor_message_seen(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<i64>,
) -> AppResult<web::Json<FloorMessageOut>> {
    let id = path.into_inner();
    let acting = who.acting;
    let line = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            table_side::message_seen(c, act, id, None)?;
            table_side::message_line(c, id)
        })
        .await?;
    Ok(web::Json(line_out(line)))
}
