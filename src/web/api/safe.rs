//! A player's cash-outs in the JSON API (PT-ONL 65-67): the receipt the tablet showed at each
//! one — the stack taken off, what was bought in, the time played and the result.

use crate::domain::ids::PlayerId;
use crate::domain::ids::SeatingId;
use crate::domain::ids::TableId;
use crate::error::AppResult;
use crate::services;
use crate::web::api::HistoryQuery;
use crate::web::extract::RegistryReader;
use crate::web::openapi::ErrorResponse;
use crate::web::state::AppState;
use actix_web::{get, web};
use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;

pub fn routes(cfg: &mut ServiceConfig) {
    cfg.service(player_cash_outs);
}

/// One cash-out's receipt. Amounts are minor units of the room's currency.
#[derive(Debug, Serialize, ToSchema)]
pub struct CashOutOut {
    #[schema(value_type = i64)]
    pub seating_id: SeatingId,
    #[schema(value_type = i64)]
    pub player_id: PlayerId,
    #[schema(value_type = i64)]
    pub table_id: TableId,
    pub table_number: i32,
    pub seat_no: i32,
    /// When play in the game began (a move to a similar table keeps it, BSOP 27).
    pub since: DateTime<Utc>,
    /// When the chips were taken off.
    pub at: DateTime<Utc>,
    /// The stack taken off the table (BSOP 26 reads it on a return within the hour).
    pub stack: i64,
    /// The total bought in (buy-in and rebuys).
    pub bought_in: i64,
    /// Whole minutes played.
    pub minutes: i64,
    /// `stack - bought_in`: negative for a loss.
    pub result: i64,
}

pub fn cash_out_out(r: &services::table_side::CashOutReceipt) -> CashOutOut {
    CashOutOut {
        seating_id: r.seating_id,
        player_id: r.player_id,
        table_id: r.table_id,
        table_number: r.table_number,
        seat_no: r.seat_no,
        since: r.since.and_utc(),
        at: r.at.and_utc(),
        stack: r.receipt.stack,
        bought_in: r.receipt.bought_in,
        minutes: r.receipt.minutes,
        result: r.receipt.result,
    }
}

/// A player's cash-outs, newest first, each with its receipt.
#[utoipa::path(
    tag = "players",
    params(("id" = i64, Path, description = "Player id"), HistoryQuery),
    responses((status = 200, body = [CashOutOut]), (status = 403, body = ErrorResponse), (status = 404, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[get("/players/{id}/cash-outs")]
pub async fn player_cash_outs(
    st: web::Data<AppState>,
    _who: RegistryReader,
    path: web::Path<PlayerId>,
    q: web::Query<HistoryQuery>,
) -> AppResult<web::Json<Vec<CashOutOut>>> {
    let id = path.into_inner();
    let limit = crate::web::api::page_limit(q.limit)?;
    let rows = st
        .run(move |_, conn| {
            services::players::get(conn, id)?;
            services::table_side::cash_outs_of(conn, id, limit)
        })
        .await?;
    Ok(web::Json(rows.iter().map(cash_out_out).collect()))
}
