//! Asking for a ruling at a table, naming the hand in play (BSOP 18, 19), and reading one.

use super::out::{ruling_out, RulingDetailOut, RulingOut};
use crate::domain::ids::TableId;
use crate::error::{AppError, AppResult};
use crate::services::rulings::{self as svc, AskInput, RulingLine};
use crate::web::extract::{ActingAs, DealerStaff};
use crate::web::json::ApiJson;
use crate::web::openapi::ErrorResponse;
use crate::web::state::AppState;
use actix_web::{get, post};
use actix_web::{web, HttpResponse};
use serde::Deserialize;
use utoipa::ToSchema;

/// A request for a ruling (BSOP 18, 19).
#[derive(Debug, Deserialize, ToSchema)]
pub struct RulingAsk {
    /// The hand the ruling is about. Omitted: the table's hand in play, taken by the server.
    /// An earlier hand of the table makes the ruling late (BSOP 19).
    #[schema(minimum = 1)]
    pub hand_number: Option<i32>,
    /// The seats involved (each must have had a player when the hand started).
    #[serde(default)]
    #[schema(max_items = 11, value_type = Vec<crate::services::seat_prefs::SeatNumber>)]
    pub seats: Vec<i32>,
    /// What happened, in a few words.
    #[serde(default)]
    #[schema(max_length = 300)]
    pub note: String,
}

pub(super) async fn line(st: &AppState, id: i64) -> AppResult<RulingLine> {
    st.run(move |_, c| {
        let r = svc::ruling(c, id)?;
        svc::lines_of(c, vec![r])?.pop().ok_or(AppError::NotFound)
    })
    .await
}

/// A dealer (at their own table) or the floor asks for a ruling (BSOP 18, 19). The hand is the
/// table's hand in play unless `hand_number` names an earlier one; the ruling is recorded as
/// late when asked after the next hand started, the table broke or a player named moved or
/// left (BSOP 19). The floor's board shows it at once.
#[utoipa::path(
    tag = "rulings",
    params(("id" = i64, Path, description = "Table id")),
    request_body = RulingAsk,
    responses((status = 201, body = RulingOut), (status = 404, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[post("/tables/{id}/rulings")]
pub async fn ask_ruling(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<TableId>,
    body: ApiJson<RulingAsk>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    let b = body.into_inner();
    let input = AskInput {
        hand_number: b.hand_number,
        seats: b.seats,
        note: b.note,
    };
    let r = st
        .write(move |_, c| {
            let act = acting.in_room(c)?;
            svc::ask(c, &act, id, &input)
        })
        .await?;
    Ok(HttpResponse::Created().json(ruling_out(&line(&st, r.id).await?)))
}

/// One ruling (admin, floor, and a dealer), with the earlier rulings of the players it
/// involves (BSOP 22).
#[utoipa::path(
    tag = "rulings",
    params(("id" = i64, Path, description = "Ruling id")),
    responses((status = 200, body = RulingDetailOut), (status = 404, body = ErrorResponse))
)]
#[get("/rulings/{id}")]
pub async fn get_ruling(
    st: web::Data<AppState>,
    _who: DealerStaff,
    path: web::Path<i64>,
) -> AppResult<web::Json<RulingDetailOut>> {
    let id = path.into_inner();
    let d = st.run(move |_, c| svc::detail(c, id)).await?;
    Ok(web::Json(RulingDetailOut {
        ruling: ruling_out(&d.line),
        earlier: d.earlier.iter().map(ruling_out).collect(),
    }))
}
