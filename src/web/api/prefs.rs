//! Seat preferences in the JSON API: a player's seat preference (read by anyone who reads the
//! registry, set by the floor) and the seats a table keeps for accessibility needs (BSOP 45,
//! set by the admin). The same services and checks as the pages.

use crate::domain::ids::PlayerId;
use crate::domain::ids::TableId;
use crate::error::{AppError, AppResult};
use crate::services::{self, seat_prefs::SeatPreferenceBody};
use crate::web::extract::ActingAs;
use crate::web::extract::{AdminStaff, FloorStaff, RegistryReader};
use crate::web::json::ApiJson;
use crate::web::openapi::ErrorResponse;
use crate::web::state::AppState;
use actix_web::{get, put, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;

pub fn routes(cfg: &mut ServiceConfig) {
    cfg.service(get_seat_preference)
        .service(put_seat_preference)
        .service(get_accessible_seats)
        .service(put_accessible_seats);
}

/// A player's seat preference (empty lists and `false`: none stated).
#[utoipa::path(
    tag = "players",
    params(("id" = i64, Path, description = "Player id")),
    responses((status = 200, body = SeatPreferenceBody), (status = 403, body = ErrorResponse), (status = 404, body = ErrorResponse))
)]
#[get("/players/{id}/seat-preference")]
pub async fn get_seat_preference(
    st: web::Data<AppState>,
    _who: RegistryReader,
    path: web::Path<PlayerId>,
) -> AppResult<web::Json<SeatPreferenceBody>> {
    let id = path.into_inner();
    let p = st
        .run(move |_, conn| {
            services::players::get(conn, id)?;
            services::seat_prefs::get(conn, id)
        })
        .await?;
    Ok(web::Json(SeatPreferenceBody::from_domain(&p)))
}

/// States a player's seat preference for them (floor), audited as `player.seat_preference`.
/// The list order never changes for it (PT-2007 12, BSOP 51): a call offers a free seat of
/// the table that fits, when there is one; a player who waits for one lets at most the
/// room's `pref_max_passes` seats go by, keeping their place.
#[utoipa::path(
    tag = "players",
    params(("id" = i64, Path, description = "Player id")),
    request_body = SeatPreferenceBody,
    responses(
        (status = 200, body = SeatPreferenceBody),
        (status = 403, body = ErrorResponse),
        (status = 404, body = ErrorResponse),
        (status = 422, body = ErrorResponse),
    )
)]
#[put("/players/{id}/seat-preference")]
pub async fn put_seat_preference(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<PlayerId>,
    body: Result<ApiJson<SeatPreferenceBody>, actix_web::Error>,
) -> AppResult<web::Json<SeatPreferenceBody>> {
    let body = body?;
    let id = path.into_inner();
    let pref = body.0.into_domain()?;
    let acting = who.acting;
    let saved = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            services::seat_prefs::set(conn, act, id, &pref)
        })
        .await?;
    Ok(web::Json(SeatPreferenceBody::from_domain(&saved)))
}

/// BSOP 45: the seats a table keeps for accessibility needs.
#[derive(Debug, Deserialize, Serialize, ToSchema)]
pub struct AccessibleSeats {
    /// Seat numbers of the table (1 to its size); empty: none.
    #[schema(max_items = 12, value_type = Vec<crate::services::seat_prefs::SeatNumber>)]
    pub seats: Vec<i32>,
}

/// The seats a table keeps for accessibility needs (BSOP 45).
#[utoipa::path(
    tag = "games",
    params(("id" = i64, Path, description = "Table id")),
    responses((status = 200, body = AccessibleSeats), (status = 403, body = ErrorResponse), (status = 404, body = ErrorResponse))
)]
#[get("/tables/{id}/accessible-seats")]
pub async fn get_accessible_seats(
    st: web::Data<AppState>,
    _who: FloorStaff,
    path: web::Path<TableId>,
) -> AppResult<web::Json<AccessibleSeats>> {
    let id = path.into_inner();
    let seats = st
        .run(move |_, conn| {
            services::games::get_table(conn, id)?;
            services::seat_prefs::accessible_seats(conn, id)
        })
        .await?;
    Ok(web::Json(AccessibleSeats { seats }))
}

/// Sets the seats a table keeps for accessibility needs (admin; BSOP 45), audited as
/// `table.accessible_seats`. A seat beyond the table's size is refused (422).
#[utoipa::path(
    tag = "games",
    params(("id" = i64, Path, description = "Table id")),
    request_body = AccessibleSeats,
    responses(
        (status = 200, body = AccessibleSeats),
        (status = 403, body = ErrorResponse),
        (status = 404, body = ErrorResponse),
        (status = 422, body = ErrorResponse),
    )
)]
#[put("/tables/{id}/accessible-seats")]
pub async fn put_accessible_seats(
    st: web::Data<AppState>,
    who: ActingAs<AdminStaff>,
    path: web::Path<TableId>,
    body: Result<ApiJson<AccessibleSeats>, actix_web::Error>,
) -> AppResult<web::Json<AccessibleSeats>> {
    let body = body?;
    let id = path.into_inner();
    // The document's `maxItems`, counted as sent (repeats included), as for a preference.
    if body.0.seats.len() > crate::domain::seat_pref::MAX_ITEMS {
        return Err(AppError::Validation(vec![crate::domain::FieldError::new(
            "seats",
            "err-pref-too-many",
        )
        .arg("max", crate::domain::seat_pref::MAX_ITEMS)]));
    }
    let typed = crate::domain::seat_pref::format_numbers(&body.0.seats);
    let acting = who.acting;
    let seats = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            services::seat_prefs::set_accessible_seats(conn, act, id, &typed)
        })
        .await?;
    Ok(web::Json(AccessibleSeats { seats }))
}
