//! The table side's JSON API under `/api/v1` (what the dealer tablet does, for any client):
//! the seats with chips, absence and buttons; seating with a buy-in; rebuys and counts;
//! cashing out; away/back and missed blinds; chip removal by two staff into custody; hands;
//! requests to the floor (rulings: `web::api::rulings`). Amounts are integer minor units. Thin handlers over
//! `services::table_side`: the same rules, refusals and audit as the tablet pages.

mod absence;
mod buyins;
mod custody;
mod hands;
mod leaving;
mod requests;
mod view;

pub use absence::*;
pub use buyins::*;
pub use custody::*;
pub use hands::*;
pub use leaving::*;
pub use requests::*;
pub use view::*;

use chrono::{DateTime, Utc};
use utoipa_actix_web::service_config::ServiceConfig;

/// Registered inside the `/api/v1` scope: each handler carries its path and method
/// (`#[post(…)]`) and its documentation (`#[utoipa::path]`), registered together.
pub fn routes(cfg: &mut ServiceConfig) {
    cfg.service(table_side_view)
        .service(acknowledge)
        .service(seat_with_buyin)
        .service(chips)
        .service(approve_chips)
        .service(count)
        .service(cash_out)
        .service(transfer_with_stack)
        .service(away)
        .service(back)
        .service(missed_blind)
        .service(blinds_settled)
        .service(extend_absence)
        .service(hand_flags)
        .service(start_removal)
        .service(list_custody)
        .service(confirm_removal)
        .service(cancel_removal)
        .service(resolve_custody)
        .service(new_hand)
        .service(request_service)
        .service(list_service_requests)
        .service(handle_service)
        .service(list_floor_messages)
        .service(send_floor_message)
        .service(floor_message_seen);
}

fn utc(t: chrono::NaiveDateTime) -> DateTime<Utc> {
    t.and_utc()
}
