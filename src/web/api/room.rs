//! The room and its rule profile in the JSON API.

use crate::domain::profile::ProfileKind;
use crate::error::{AppError, AppResult};
use crate::services;
use crate::services::room::{ProfileSwitch, Room, RoomUpdate};
use crate::web::extract::ActingAs;
use crate::web::extract::{AdminStaff, AnyStaff};
use crate::web::json::{from_value, ApiJson};
use crate::web::openapi::{ErrorResponse, RoomPatch};
use crate::web::state::AppState;
use actix_web::web;
// The route macros: utoipa reads the path and method from them (a bare name).
use actix_web::{get, patch, put};
use utoipa_actix_web::service_config::ServiceConfig;

/// Registered inside the `/api/v1` scope: each handler carries its path and method
/// (`#[get(…)]`) and its documentation (`#[utoipa::path]`), registered together.
pub fn routes(cfg: &mut ServiceConfig) {
    cfg.service(get_room)
        .service(update_room)
        .service(patch_room)
        .service(profile_switch);
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

/// Replaces the room and its whole rule profile (admin).
///
/// Every setting of the profile must be sent: one left out is refused (422, each named
/// `profile.<setting>`, reason `profile_setting_missing`) and nothing is changed, never reset
/// to a default. To change some settings only, use `PATCH /api/v1/room`.
#[utoipa::path(
    tag = "room",
    request_body = RoomUpdate,
    responses((status = 200, body = Room), (status = 403, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[put("/room")]
pub async fn update_room(
    st: web::Data<AppState>,
    who: ActingAs<AdminStaff>,
    body: Result<ApiJson<serde_json::Value>, actix_web::Error>,
) -> AppResult<web::Json<Room>> {
    // The role is checked before the body is looked at.
    let body = body?.into_inner();
    services::room::check_whole(&body).map_err(AppError::Validation)?;
    let u: RoomUpdate = from_value(body)?;
    let acting = who.acting;
    Ok(web::Json(
        st.write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            services::room::update(conn, act, &u)
        })
        .await?,
    ))
}

/// Changes some of the room's settings (admin).
///
/// A JSON merge patch (RFC 7396) of the room as `GET /api/v1/room` shows it, sent as `application/merge-patch+json` or `application/json`.
/// Each member given takes its value, every other keeps its own; `profile` is merged setting
/// by setting (`{"profile": {"push_down_min": 40}}` changes that one setting). The ranges and
/// rules are the `PUT`'s, checked on the result; the change is audited as `room.update` with
/// the room before and after. A member or setting that does not exist, a `null` (no setting
/// can be removed) or a value out of range is refused (422, each one named: a setting as
/// `profile.<setting>` when it is unknown, null or of the wrong type; by its name when out of
/// range) and nothing is changed. Returns the whole room.
///
/// Switching the rule profile: `{"profile": {"kind": "bsop"}}` changes only the profile the
/// room follows, keeping every setting; to take some of the new profile's defaults too, name
/// them with their values (`GET /api/v1/room/profiles/{kind}/diff` lists the settings that
/// differ and the new defaults).
#[utoipa::path(
    tag = "room",
    request_body(content(
        (RoomPatch = "application/merge-patch+json"),
        (RoomPatch = "application/json"),
    )),
    responses((status = 200, body = Room), (status = 403, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[patch("/room")]
pub async fn patch_room(
    st: web::Data<AppState>,
    who: ActingAs<AdminStaff>,
    body: Result<ApiJson<serde_json::Value>, actix_web::Error>,
) -> AppResult<web::Json<Room>> {
    // The role is checked before the body is looked at.
    let body = body?.into_inner();
    let serde_json::Value::Object(patch) = body else {
        return Err(AppError::BadRequest(
            crate::domain::Problem::new("err-json").arg("detail", "expected a JSON object"),
        ));
    };
    let acting = who.acting;
    Ok(web::Json(
        st.write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            services::room::patch(conn, act, &patch)
        })
        .await?,
    ))
}

/// What switching the room to another rule profile could change.
///
/// Each setting whose value in the room differs from that profile's seed default, with both
/// values (the profile the room follows itself lists what going back to its seeds would
/// change). Nothing is changed; apply the chosen defaults with `PATCH /api/v1/room`.
#[utoipa::path(
    tag = "room",
    params(("kind" = ProfileKind, Path, description = "The rule profile switched to")),
    responses(
        (status = 200, body = ProfileSwitch),
        (status = 401, body = ErrorResponse),
        (status = 404, description = "No such rule profile", body = ErrorResponse),
    )
)]
#[get("/room/profiles/{kind}/diff")]
pub async fn profile_switch(
    st: web::Data<AppState>,
    _who: AnyStaff,
    path: web::Path<String>,
) -> AppResult<web::Json<ProfileSwitch>> {
    let to: ProfileKind = path.parse().map_err(|_| AppError::NotFound)?;
    let room = st.run(|_, conn| services::room::get(conn)).await?;
    Ok(web::Json(services::room::profile_switch(&room, to)))
}
