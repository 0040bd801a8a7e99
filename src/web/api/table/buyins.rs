//! Seating a called player with a buy-in, rebuys (chips bought at the table) and the floor's
//! approval of a buy-in.

use super::utc;
use super::view::{side_of, SeatSideOut};
use crate::db::models::BuyinRow;
use crate::domain::ids::SeatCallId;
use crate::domain::ids::SeatingId;
use crate::error::AppResult;
use crate::services::table_side::{self};
use crate::services::{self};
use crate::web::extract::{ActingAs, DealerStaff, FloorStaff};
use crate::web::json::ApiJson;
use crate::web::openapi::ErrorResponse;
use crate::web::state::AppState;
use actix_web::{web, HttpResponse};
// The route macros: utoipa reads the path and method from them (a bare name).
use actix_web::post;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A buy-in or rebuy recorded.
#[derive(Debug, Serialize, ToSchema)]
pub struct BuyinOut {
    pub id: i64,
    #[schema(value_type = i64)]
    pub seating_id: SeatingId,
    /// buyin | rebuy
    pub kind: String,
    pub amount: i64,
    pub stack_before: i64,
    pub rule: Option<String>,
    pub at: DateTime<Utc>,
    /// BSOP 28: the hand being played when the chips reached the seat (none: between hands);
    /// they play in it only once the floor approved (`approved_at`), else from the next hand.
    pub arrived_in_hand: Option<i32>,
    pub approved_at: Option<DateTime<Utc>>,
}

fn buyin_out(b: &BuyinRow) -> BuyinOut {
    BuyinOut {
        id: b.id,
        seating_id: b.seating_id,
        kind: b.kind.clone(),
        amount: b.amount,
        stack_before: b.stack_before,
        rule: b.rule.clone(),
        at: utc(b.at),
        arrived_in_hand: b.arrived_in_hand,
        approved_at: b.approved_at.map(utc),
    }
}

/// A buy-in for a called player (minor units). Omit it for a must-move or seat-change call.
#[derive(Debug, Deserialize, ToSchema)]
pub struct BuyinRequest {
    /// Minor units: 1 to 100 maximum buy-ins of the game (100,000,000,000 without a maximum),
    /// else 422; the game's rules (BSOP 26, 37; PT-2007 28, 75) then narrow it.
    #[schema(minimum = 1, maximum = 100000000000_i64)]
    pub amount: Option<i64>,
}

/// Chips bought at the seat: the stack before (ignored for a first buy-in) and the amount.
#[derive(Debug, Deserialize, ToSchema)]
pub struct ChipsRequest {
    /// Minor units: 0 to 100 maximum buy-ins of the game (100,000,000,000 without a maximum),
    /// else 422.
    #[schema(minimum = 0, maximum = 100000000000_i64)]
    #[serde(default)]
    pub stack: i64,
    /// Minor units, at least 1; the stack after it stays within the stack's range (422).
    #[schema(minimum = 1, maximum = 100000000000_i64)]
    pub amount: i64,
    /// BSOP 28: a rebuy asked for before the hand that reached the seat while the hand is
    /// played: it plays from the next hand unless the floor approves it for this one
    /// (`POST /buyins/{id}/approve`). Default false (between hands).
    #[serde(default)]
    pub during_hand: bool,
}

/// The dealer acknowledges a seat call (admin, floor, dealer).
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Seat call id")),
    responses((status = 204), (status = 404, body = ErrorResponse), (status = 409, body = ErrorResponse))
)]
#[post("/seat-calls/{id}/acknowledge")]
pub async fn acknowledge(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<SeatCallId>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    st.write(move |_, c| {
        let act = &acting.in_room(c)?;
        services::floor::acknowledge_call(c, act, id, None)
    })
    .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Seats a called player with their buy-in (admin, floor, dealer): BSOP 26 (returning within
/// the hour: at least what was taken off), BSOP 37 (removed for absence: the same stack),
/// PT-2007 28 (pt-casino, any game under way: the table's average; a room may keep it to
/// session games), else the game's range. A refused amount is a 422 and changes nothing.
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Seat call id")),
    request_body = BuyinRequest,
    responses((status = 201, body = SeatSideOut), (status = 404, body = ErrorResponse), (status = 409, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[post("/seat-calls/{id}/seat-with-buyin")]
pub async fn seat_with_buyin(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<SeatCallId>,
    body: ApiJson<BuyinRequest>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    let amount = body.amount;
    let s = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            table_side::seat_with_buyin(c, act, id, amount, None)
        })
        .await?;
    Ok(HttpResponse::Created().json(side_of(&st, s.id).await?))
}

/// Chips bought at the seat: the first purchase is checked as the buy-in, later ones as
/// rebuys under the game's maximum (PT-2007 75, 79).
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Seating id")),
    request_body = ChipsRequest,
    responses((status = 201, body = BuyinOut), (status = 409, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[post("/seatings/{id}/chips")]
pub async fn chips(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<SeatingId>,
    body: ApiJson<ChipsRequest>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    let b = body.into_inner();
    let row = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            table_side::buy_chips(c, act, id, b.stack, b.amount, b.during_hand, None)
        })
        .await?;
    Ok(HttpResponse::Created().json(buyin_out(&row)))
}

/// BSOP 28: the floor lets chips that reached the seat during the hand being played count
/// in it (else they play from the next hand). Only while that hand is played, once.
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Buy-in id")),
    responses((status = 200, body = BuyinOut), (status = 409, body = ErrorResponse))
)]
#[post("/buyins/{id}/approve")]
pub async fn approve_chips(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<i64>,
) -> AppResult<web::Json<BuyinOut>> {
    let id = path.into_inner();
    let acting = who.acting;
    let row = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            table_side::approve_chips(c, act, id)
        })
        .await?;
    Ok(web::Json(buyin_out(&row)))
}
