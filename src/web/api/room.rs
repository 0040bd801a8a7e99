//! The room and its rule profile in the JSON API.

use crate::error::AppResult;
use crate::services;
use crate::services::room::{Room, RoomUpdate};
use crate::web::extract::ActingAs;
use crate::web::extract::{AdminStaff, AnyStaff};
use crate::web::json::ApiJson;
use crate::web::openapi::ErrorResponse;
use crate::web::state::AppState;
use actix_web::web;
// The route macros: utoipa reads the path and method from them (a bare name).
use actix_web::{get, put};
use utoipa_actix_web::service_config::ServiceConfig;

/// Registered inside the `/api/v1` scope: each handler carries its path and method
/// (`#[get(…)]`) and its documentation (`#[utoipa::path]`), registered together.
pub fn routes(cfg: &mut ServiceConfig) {
    cfg.service(get_room).service(update_room);
}

/// The room: name, time zone, currency, language and rule profile.
#[utoipa::path(
    tag = "room", responses((status = 200, body = Room), (status = 401, body = ErrorResponse)))]
#[get("/room")]
pub async fn get_room(st: web::Data<AppState>, _who: AnyStaff) -> AppResult<web::Json<Room>> {
    Ok(web::Json(
        st.run(|_, conn| services::room::get(conn)).await?,
    ))
}

/// Changes the room and its rule profile (admin).
#[utoipa::path(
    tag = "room",
    request_body = RoomUpdate,
    responses((status = 200, body = Room), (status = 403, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[put("/room")]
pub async fn update_room(
    st: web::Data<AppState>,
    who: ActingAs<AdminStaff>,
    body: Result<ApiJson<RoomUpdate>, actix_web::Error>,
) -> AppResult<web::Json<Room>> {
    // The role is checked before the body is looked at.
    let body = body?;
    let acting = who.acting;
    let u = body.into_inner();
    Ok(web::Json(
        st.write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            services::room::update(conn, act, &u)
        })
        .await?,
    ))
}
