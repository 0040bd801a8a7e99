//! A new hand at a table, with the notices for the seats it concerns.

use super::utc;
use crate::db::models::HandRow;
use crate::domain::ids::TableId;
use crate::error::{AppError, AppResult};
use crate::services::table_side::{self};
use crate::services::{self};
use crate::web::extract::{ActingAs, DealerStaff};
use crate::web::openapi::ErrorResponse;
use crate::web::state::AppState;
use actix_web::{web, HttpResponse};
// The route macros: utoipa reads the path and method from them (a bare name).
use actix_web::post;
use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

/// A hand counted (PT-2007 13, 89), with the notices for the dealer.
#[derive(Debug, Serialize, ToSchema)]
pub struct HandOut {
    pub id: i64,
    #[schema(value_type = i64)]
    pub table_id: TableId,
    pub number: i32,
    pub button_seat: Option<i32>,
    pub at: DateTime<Utc>,
    pub notices: Vec<SeatNoticeOut>,
    /// PT-2007 7b: the cagnotte session this tap closed and the one it started, if any.
    pub session_closed: Option<i32>,
    pub session_started: Option<i32>,
    /// BSOP 115, 116: the dealer button reached a special button: this hand is its game
    /// (`cucurucho` | `macaca`; `GET /api/v1/tables/{id}/special-buttons` has the
    /// contributions).
    pub special: Option<crate::domain::special_buttons::SpecialButton>,
    /// PT-2007 22, BSOP 34: the limit change that took effect with this hand, if any.
    pub limit_change_applied: Option<i64>,
}

/// A notice for the dealer about one seat after a hand.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeatNoticeOut {
    pub seat: i32,
    /// A rule message key, e.g. `rules-hands-post-bb`.
    pub notice: String,
}

/// The dealer's "new hand" tap: counts the hand, moves the button (BSOP 57), updates the
/// seats' counters (PT-2007 13, 89) and the absence buttons (BSOP 36). The optional body is
/// the result of the hand that just ended (its pot and rake, PT-2007 7a; a rake over the 5 %
/// or the game's cap is refused with 422 and nothing is counted); for a game billed per
/// session the tap starts the first session or, the hour of play being up, closes it and
/// starts the next (PT-2007 7b).
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Table id")),
    request_body(content = Option<crate::services::cagnotte::HandResult>, description = "The ended hand's pot and rake (optional)"),
    responses((status = 201, body = HandOut), (status = 409, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[post("/tables/{id}/hands")]
pub async fn new_hand(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<TableId>,
    body: web::Bytes,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    // The body is optional (empty or `null`: nothing recorded), read like every API body
    // (`web::json`).
    let result: crate::services::cagnotte::HandResult = if body.iter().all(u8::is_ascii_whitespace)
    {
        Default::default()
    } else {
        let mut value: serde_json::Value = serde_json::from_slice(&body).map_err(|e| {
            AppError::BadRequest(crate::domain::Problem::new("err-json").arg("detail", e))
        })?;
        crate::web::json::integral_floats(&mut value);
        crate::web::json::from_value::<Option<crate::services::cagnotte::HandResult>>(value)?
            .unwrap_or_default()
    };
    let ((h, notices, over, limits), special): ((HandRow, _, _, _), _) = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            let done = table_side::new_hand(c, act, id, &result)?;
            let special = services::special_buttons::kind_of_hand(c, done.0.id)?;
            Ok((done, special))
        })
        .await?;
    let notices = notices
        .into_iter()
        .filter_map(|n| {
            n.notice.notice().map(|p| SeatNoticeOut {
                seat: n.seat,
                notice: p.key.to_string(),
            })
        })
        .collect();
    Ok(HttpResponse::Created().json(HandOut {
        id: h.id,
        table_id: h.table_id,
        number: h.number,
        button_seat: h.button_seat,
        at: utc(h.at),
        notices,
        session_closed: over.closed,
        session_started: over.started,
        special,
        limit_change_applied: limits.map(|c| c.id),
    }))
}
