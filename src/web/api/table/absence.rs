//! Away and back, missed blinds and settling them, a supervisor's extension of an absence, and
//! the hand flags (BSOP 36-39).

use super::view::{side_of, side_out, SeatSideOut};
use crate::domain::ids::SeatingId;
use crate::domain::seat_rules::{Blind, ReturnObligation};
use crate::domain::Problem;
use crate::error::{AppError, AppResult};
use crate::services::table_side::{self};
use crate::web::extract::{ActingAs, DealerStaff, FloorStaff};
use crate::web::json::ApiJson;
use crate::web::openapi::ErrorResponse;
use crate::web::state::AppState;
use actix_web::{web, HttpMessage, HttpRequest};
// The route macros: utoipa reads the path and method from them (a bare name).
use actix_web::post;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// What a returning player must do (BSOP 39; PT-2007 90): a rule message key, or none.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReturnOut {
    pub obligation: Option<String>,
}

/// small | big
/// Which blind (the schema of [`MissedBlindRequest::blind`]).
#[derive(ToSchema)]
#[allow(dead_code)]
pub enum BlindName {
    #[schema(rename = "small")]
    Small,
    #[schema(rename = "big")]
    Big,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct MissedBlindRequest {
    #[schema(value_type = BlindName)]
    pub blind: String,
}

/// A supervisor's extension of an absence (BSOP 36).
#[derive(Debug, Deserialize, ToSchema)]
pub struct ExtendRequest {
    #[schema(minimum = 1, maximum = 120)]
    pub minutes: i64,
    #[schema(min_length = 1, max_length = 300, pattern = r"\S")]
    pub reason: String,
}

/// PT-2007 13, 89: resting; no bet in this hand (absent: unchanged).
#[derive(Debug, Deserialize, ToSchema)]
pub struct HandFlagsRequest {
    pub resting: Option<bool>,
    pub no_bet: Option<bool>,
}

/// When an away or back was tapped (BSOP 36, 39): a client that kept the tap while offline
/// sends it late with this instant. The body is optional.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct TapRequest {
    /// When the tap was made (RFC 3339). Absent: when it arrives. Older than the room's bound
    /// for late taps: refused (409); in the future: taken as its arrival; not an instant: 422.
    #[schema(format = DateTime)]
    pub tapped_at: Option<String>,
}

/// The optional body of a tap (empty: none; else JSON).
fn tap_request(req: &HttpRequest, body: &web::Bytes) -> AppResult<TapRequest> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(TapRequest::default());
    }
    if req.content_type() != "application/json" {
        return Err(AppError::UnsupportedMedia(Problem::new(
            "err-content-type-json",
        )));
    }
    let value: serde_json::Value = serde_json::from_slice(body)
        .map_err(|e| AppError::BadRequest(Problem::new("err-json").arg("detail", e)))?;
    Ok(crate::web::json::from_value::<Option<TapRequest>>(value)?.unwrap_or_default())
}

/// The player is away: the absence clock starts (BSOP 36) when the tap was made.
///
/// The seat keeps when its last away or back was tapped: an away or back tapped before it
/// (kept on an offline tablet and sent late) is superseded — refused (409,
/// `err-tap-superseded`), nothing changed.
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Seating id")),
    request_body(content = Option<TapRequest>, description = "When the tap was made, if it is sent late"),
    responses((status = 200, body = SeatSideOut), (status = 409, description = "Already away, the player left, the tap older than the room's bound, or superseded by a newer away/back of the seat (`err-tap-superseded`): nothing changed", body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[post("/seatings/{id}/away")]
pub async fn away(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<SeatingId>,
    body: web::Bytes,
) -> AppResult<web::Json<SeatSideOut>> {
    let id = path.into_inner();
    let tap = tap_request(&req, &body)?;
    let acting = who.acting;
    let s = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            let tapped = table_side::when_tapped(&act.room, tap.tapped_at.as_deref(), act.now)?;
            table_side::away(c, act, tapped, id, None)
        })
        .await?;
    Ok(web::Json(side_out(&s)))
}

/// The player is back; answers what they must do for missed blinds (BSOP 39 / PT-2007 90).
///
/// Counted when the tap was made: a back tapped before the seat's last away or back is
/// superseded (409, `err-tap-superseded`), nothing changed.
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Seating id")),
    request_body(content = Option<TapRequest>, description = "When the tap was made, if it is sent late"),
    responses((status = 200, body = ReturnOut), (status = 409, description = "Not away, the player left, the tap older than the room's bound, or superseded by a newer away/back of the seat (`err-tap-superseded`): nothing changed", body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[post("/seatings/{id}/back")]
pub async fn back(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<SeatingId>,
    body: web::Bytes,
) -> AppResult<web::Json<ReturnOut>> {
    let id = path.into_inner();
    let tap = tap_request(&req, &body)?;
    let acting = who.acting;
    let o: ReturnObligation = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            let tapped = table_side::when_tapped(&act.room, tap.tapped_at.as_deref(), act.now)?;
            table_side::back(c, act, tapped, id, None)
        })
        .await?;
    Ok(web::Json(ReturnOut {
        obligation: o.key().map(str::to_string),
    }))
}

/// An absent player's seat missed a blind (BSOP 36): buttons; two big blinds make the seat
/// due for removal.
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Seating id")),
    request_body = MissedBlindRequest,
    responses((status = 200, body = SeatSideOut), (status = 409, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[post("/seatings/{id}/missed-blind")]
pub async fn missed_blind(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<SeatingId>,
    body: ApiJson<MissedBlindRequest>,
) -> AppResult<web::Json<SeatSideOut>> {
    let id = path.into_inner();
    let blind = match body.blind.as_str() {
        "small" => Blind::Small,
        "big" => Blind::Big,
        _ => return Err(AppError::field("blind", "err-blind-kind")),
    };
    let now = who.acting.now;
    let acting = who.acting;
    st.write(move |_, c| {
        let act = &acting.in_room(c)?;
        table_side::missed_blind(c, act, now, id, blind, None)
    })
    .await?;
    Ok(web::Json(side_of(&st, id).await?))
}

/// The returning player settled the missed blinds (BSOP 39, PT-2007 90): the buttons go.
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Seating id")),
    responses((status = 200, body = SeatSideOut), (status = 409, body = ErrorResponse))
)]
#[post("/seatings/{id}/blinds-settled")]
pub async fn blinds_settled(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<SeatingId>,
) -> AppResult<web::Json<SeatSideOut>> {
    let id = path.into_inner();
    let acting = who.acting;
    let s = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            table_side::blinds_settled(c, act, id, None)
        })
        .await?;
    Ok(web::Json(side_out(&s)))
}

/// A floor manager extends an absence with a reason (BSOP 36; admin, floor).
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Seating id")),
    request_body = ExtendRequest,
    responses((status = 200, body = SeatSideOut), (status = 403, body = ErrorResponse), (status = 409, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[post("/seatings/{id}/extend-absence")]
pub async fn extend_absence(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<SeatingId>,
    body: ApiJson<ExtendRequest>,
) -> AppResult<web::Json<SeatSideOut>> {
    let id = path.into_inner();
    let acting = who.acting;
    let b = body.into_inner();
    let s = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            table_side::extend_absence(c, act, true, id, b.minutes, &b.reason, None)
        })
        .await?;
    Ok(web::Json(side_out(&s)))
}

/// Resting / no bet in this hand (PT-2007 13, 89), counted at the next hand.
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Seating id")),
    request_body = HandFlagsRequest,
    responses((status = 200, body = SeatSideOut), (status = 409, body = ErrorResponse))
)]
#[post("/seatings/{id}/hand-flags")]
pub async fn hand_flags(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<SeatingId>,
    body: ApiJson<HandFlagsRequest>,
) -> AppResult<web::Json<SeatSideOut>> {
    let id = path.into_inner();
    let acting = who.acting;
    let b = body.into_inner();
    let s = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            table_side::set_hand_flags(c, act, id, b.resting, b.no_bet, None)
        })
        .await?;
    Ok(web::Json(side_out(&s)))
}
