//! A second staff member confirming or refusing the chips a decision moves (BSOP 20, 21).

use super::ask::line;
use super::out::{ruling_out, RulingOut};
use crate::error::AppResult;
use crate::services::rulings::{self as svc};
use crate::web::extract::{ActingAs, DealerStaff};
use crate::web::openapi::ErrorResponse;
use crate::web::state::AppState;
use actix_web::post;
use actix_web::web;

/// The second staff member confirms the chips a decision moves (admin, floor, a dealer at
/// the table): not the one who recorded them (409). The pot held is released and the stacks
/// on record change.
#[utoipa::path(
    tag = "rulings",
    params(("id" = i64, Path, description = "Ruling id")),
    responses((status = 200, body = RulingOut), (status = 404, body = ErrorResponse), (status = 409, body = ErrorResponse))
)]
#[post("/rulings/{id}/chips/confirm")]
pub async fn confirm_ruling_chips(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<i64>,
) -> AppResult<web::Json<RulingOut>> {
    let id = path.into_inner();
    let acting = who.acting;
    st.write(move |_, c| {
        let act = acting.in_room(c)?;
        svc::confirm_move(c, &act, id, None)
    })
    .await?;
    Ok(web::Json(ruling_out(&line(&st, id).await?)))
}

/// The chips as recorded are refused (admin, floor, a dealer at the table): nothing moves, a
/// pot held stays held; the floor corrects the ruling with the right amounts.
#[utoipa::path(
    tag = "rulings",
    params(("id" = i64, Path, description = "Ruling id")),
    responses((status = 200, body = RulingOut), (status = 404, body = ErrorResponse), (status = 409, body = ErrorResponse))
)]
#[post("/rulings/{id}/chips/refuse")]
pub async fn refuse_ruling_chips(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<i64>,
) -> AppResult<web::Json<RulingOut>> {
    let id = path.into_inner();
    let acting = who.acting;
    st.write(move |_, c| {
        let act = &acting.in_room(c)?;
        svc::cancel_move(c, act, id, None)
    })
    .await?;
    Ok(web::Json(ruling_out(&line(&st, id).await?)))
}
