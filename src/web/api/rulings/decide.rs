//! The floor's side of a ruling: holding a pot aside (BSOP 21), deciding (final, BSOP 17) and
//! correcting with a later ruling.

use super::ask::line;
use super::out::{pot_out, ruling_out, HeldPotOut, RulingOut};
use crate::domain::ids::PlayerId;
use crate::error::AppResult;
use crate::services::rulings::{self as svc, DecisionInput, ReconstructionInput, ShareInput};
use crate::web::extract::{ActingAs, FloorStaff};
use crate::web::json::ApiJson;
use crate::web::openapi::ErrorResponse;
use crate::web::state::AppState;
use actix_web::post;
use actix_web::{web, HttpResponse};
use serde::Deserialize;
use utoipa::ToSchema;

/// A player's share of the pot held, or what is taken from a player's stack.
#[derive(Debug, Deserialize, ToSchema)]
pub struct ShareBody {
    #[schema(value_type = i64)]
    pub player_id: PlayerId,
    /// Minor units, at least 1.
    #[schema(minimum = 1, maximum = 1100000000000_i64)]
    pub amount: i64,
}

/// BSOP 20: a pot reconstructed, moved from the named players' stacks to the right player.
#[derive(Debug, Deserialize, ToSchema)]
pub struct ReconstructionBody {
    /// The right player (seated at the table).
    #[schema(value_type = i64)]
    pub to_player_id: PlayerId,
    /// The players the amount is taken from (seated at the table), each at most their stack
    /// on record.
    #[schema(min_items = 1, max_items = 11)]
    pub from: Vec<ShareBody>,
}

/// The floor's decision (final, BSOP 17).
#[derive(Debug, Deserialize, ToSchema)]
pub struct RulingDecisionBody {
    /// Required.
    #[schema(min_length = 1, max_length = 2000, pattern = r"\S")]
    pub decision: String,
    /// The rule cited, e.g. "BSOP 20".
    #[serde(default)]
    #[schema(max_length = 60)]
    pub rule: String,
    /// Players involved besides those at the seats named.
    #[serde(default)]
    #[schema(max_items = 12)]
    #[schema(value_type = Vec<i64>)]
    pub player_ids: Vec<PlayerId>,
    /// BSOP 19: a late ruling's result stands unless overridden, with `override_reason`
    /// (required then). Refused (422) for a ruling asked in time.
    #[serde(default)]
    pub override_result: bool,
    #[serde(default)]
    #[schema(max_length = 300)]
    pub override_reason: String,
    /// BSOP 21: the pot held goes to these players, the shares summing to it (required while
    /// a pot is held for the ruling).
    #[serde(default)]
    #[schema(max_items = 11)]
    pub release: Vec<ShareBody>,
    /// BSOP 20: refused (409) for a late ruling.
    pub reconstruction: Option<ReconstructionBody>,
}

impl RulingDecisionBody {
    fn input(self) -> DecisionInput {
        let share = |s: ShareBody| ShareInput {
            player_id: s.player_id,
            amount: s.amount,
        };
        DecisionInput {
            decision: self.decision,
            rule: self.rule,
            player_ids: self.player_ids,
            override_result: self.override_result,
            override_reason: self.override_reason,
            release: self.release.into_iter().map(share).collect(),
            reconstruction: self.reconstruction.map(|r| ReconstructionInput {
                to_player_id: r.to_player_id,
                from: r.from.into_iter().map(share).collect(),
            }),
        }
    }
}

/// BSOP 21: a pot, or part of it, held aside while the ruling is pending.
#[derive(Debug, Deserialize, ToSchema)]
pub struct HeldPotBody {
    /// Minor units: at least 1, at most the chips on the table on record (the seated players'
    /// stacks); else 422 naming the field.
    #[schema(minimum = 1, maximum = 1100000000000_i64)]
    pub amount: i64,
    /// The seats whose chips are in it (default: the ruling's).
    #[serde(default)]
    #[schema(max_items = 11, value_type = Vec<crate::services::seat_prefs::SeatNumber>)]
    pub seats: Vec<i32>,
    /// Where it is kept (e.g. "cage, box 2").
    #[schema(min_length = 1, max_length = 100, pattern = r"\S")]
    pub storage: String,
}

/// BSOP 21: the floor takes a pot, or part of it, off the table while the ruling is pending
/// (admin, floor). At most the chips on the table on record; once per ruling.
#[utoipa::path(
    tag = "rulings",
    params(("id" = i64, Path, description = "Ruling id")),
    request_body = HeldPotBody,
    responses((status = 201, body = HeldPotOut), (status = 404, body = ErrorResponse), (status = 409, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[post("/rulings/{id}/held-pot")]
pub async fn hold_ruling_pot(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<i64>,
    body: ApiJson<HeldPotBody>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    let b = body.into_inner();
    let p = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            svc::hold_pot(c, act, id, b.amount, &b.seats, &b.storage)
        })
        .await?;
    Ok(HttpResponse::Created().json(pot_out(&p)))
}

/// The floor decides (admin, floor): final once recorded (BSOP 17; a second decision is 409).
/// A late ruling's result stands unless overridden with a reason (BSOP 19); a pot held is
/// released to named players (BSOP 21); a reconstruction moves chips between stacks (BSOP 20,
/// 409 when late). The chips move once a second staff member confirms them.
#[utoipa::path(
    tag = "rulings",
    params(("id" = i64, Path, description = "Ruling id")),
    request_body = RulingDecisionBody,
    responses((status = 200, body = RulingOut), (status = 404, body = ErrorResponse), (status = 409, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[post("/rulings/{id}/decision")]
pub async fn decide_ruling(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<i64>,
    body: ApiJson<RulingDecisionBody>,
) -> AppResult<web::Json<RulingOut>> {
    let id = path.into_inner();
    let acting = who.acting;
    let input = body.into_inner().input();
    st.write(move |_, c| {
        let act = &acting.in_room(c)?;
        svc::decide(c, act, id, &input)
    })
    .await?;
    Ok(web::Json(ruling_out(&line(&st, id).await?)))
}

/// BSOP 17: a decided ruling is corrected only by a later ruling that names it (admin, floor):
/// answered with the new ruling; the earlier one then shows `corrected_by`.
#[utoipa::path(
    tag = "rulings",
    params(("id" = i64, Path, description = "The ruling corrected")),
    request_body = RulingDecisionBody,
    responses((status = 201, body = RulingOut), (status = 404, body = ErrorResponse), (status = 409, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[post("/rulings/{id}/corrections")]
pub async fn correct_ruling(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<i64>,
    body: ApiJson<RulingDecisionBody>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    let input = body.into_inner().input();
    let r = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            svc::correct(c, act, id, &input)
        })
        .await?;
    Ok(HttpResponse::Created().json(ruling_out(&line(&st, r.id).await?)))
}
