//! Staff accounts in the JSON API (admin).

use super::utc;
use crate::db::models::StaffRow;
use crate::error::AppResult;
use crate::services;
use crate::services::staff::{NewStaff, StaffInput};
use crate::web::extract::AdminStaff;
use crate::web::json::ApiJson;
use crate::web::openapi::ErrorResponse;
use crate::web::state::AppState;
use actix_web::{web, HttpResponse};
// The route macros: utoipa reads the path and method from them (a bare name).
use actix_web::{get, post, put};
use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;

/// Registered inside the `/api/v1` scope: each handler carries its path and method
/// (`#[get(…)]`) and its documentation (`#[utoipa::path]`), registered together.
pub fn routes(cfg: &mut ServiceConfig) {
    cfg.service(list_staff)
        .service(create_staff)
        .service(update_staff);
}

/// A staff account (never its password hash).
#[derive(Debug, Serialize, ToSchema)]
pub struct StaffOut {
    pub id: i64,
    pub username: String,
    pub display_name: String,
    /// admin | floor | dealer | cashier
    pub role: String,
    pub active: bool,
    /// pt | en, when the person chose one.
    pub language: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

impl From<&StaffRow> for StaffOut {
    fn from(s: &StaffRow) -> Self {
        StaffOut {
            id: s.id,
            username: s.username.clone(),
            display_name: s.display_name.clone(),
            role: s.role.clone(),
            active: s.active,
            language: s.language.clone(),
            created_at: utc(s.created_at),
            updated_at: utc(s.updated_at),
        }
    }
}

/// Every staff account (admin).
#[utoipa::path(
    tag = "staff", responses((status = 200, body = [StaffOut]), (status = 403, body = ErrorResponse)))]
#[get("/staff")]
pub async fn list_staff(
    st: web::Data<AppState>,
    _who: AdminStaff,
) -> AppResult<web::Json<Vec<StaffOut>>> {
    let rows = st.run(|_, conn| services::staff::list(conn)).await?;
    Ok(web::Json(rows.iter().map(StaffOut::from).collect()))
}

/// Creates a staff account (admin).
#[utoipa::path(
    tag = "staff",
    request_body = NewStaff,
    responses(
        (status = 201, body = StaffOut),
        (status = 403, body = ErrorResponse),
        (status = 409, description = "Username taken", body = ErrorResponse),
        (status = 422, body = ErrorResponse),
    )
)]
#[post("/staff")]
pub async fn create_staff(
    st: web::Data<AppState>,
    who: AdminStaff,
    body: Result<ApiJson<NewStaff>, actix_web::Error>,
) -> AppResult<HttpResponse> {
    // The role is checked before the body is looked at.
    let body = body?;
    let now = st.clock.now();
    let actor = services::staff::actor(&who.0.staff);
    let i = StaffInput::from(body.into_inner());
    let row = st
        .write(move |_, conn| services::staff::create(conn, now, &actor, &i))
        .await?;
    Ok(HttpResponse::Created().json(StaffOut::from(&row)))
}

/// Changes a staff account (admin). An admin cannot demote or deactivate themselves (409).
#[utoipa::path(
    tag = "staff",
    params(("id" = i64, Path, description = "Staff id")),
    request_body = StaffInput,
    responses(
        (status = 200, body = StaffOut),
        (status = 403, body = ErrorResponse),
        (status = 404, body = ErrorResponse),
        (status = 409, body = ErrorResponse),
        (status = 422, body = ErrorResponse),
    )
)]
#[put("/staff/{id}")]
pub async fn update_staff(
    st: web::Data<AppState>,
    who: AdminStaff,
    path: web::Path<i64>,
    body: Result<ApiJson<StaffInput>, actix_web::Error>,
) -> AppResult<web::Json<StaffOut>> {
    // The role is checked before the body is looked at.
    let body = body?;
    let id = path.into_inner();
    let now = st.clock.now();
    let by = who.0.staff;
    let i = body.into_inner();
    let row = st
        .write(move |_, conn| services::staff::update(conn, now, &by, id, &i))
        .await?;
    Ok(web::Json(StaffOut::from(&row)))
}
