//! The dealer's actions at a seat, from the tablet (each refused with the rule's reason and
//! nothing changed), and the floor's side of them: requests from the tables, chips in custody.

mod absence;
mod cagnotte;
mod chips;
mod custody;
mod floor_custody;
mod hand;
mod requests;
mod seat;

use absence::{away, back, extend, flags, missed, settled};
use cagnotte::{collect_due, commission, drop_box, end_shift, tip};
use chips::{cash_out, chips, count, transfer};
use custody::{cancel, confirm, remove};
use floor_custody::{floor_confirm, floor_custody, floor_resolve};
use hand::hand;
use requests::{floor_approve_chips, floor_handled, service};
use seat::seat_page;
pub use seat::*;

use actix_web::web;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/tablet/seats/{id}", web::get().to(seat_page))
        .route("/tablet/seats/{id}/chips", web::post().to(chips))
        .route("/tablet/seats/{id}/count", web::post().to(count))
        .route("/tablet/seats/{id}/cash-out", web::post().to(cash_out))
        .route("/tablet/seats/{id}/transfer", web::post().to(transfer))
        .route("/tablet/seats/{id}/away", web::post().to(away))
        .route("/tablet/seats/{id}/back", web::post().to(back))
        .route("/tablet/seats/{id}/missed", web::post().to(missed))
        .route("/tablet/seats/{id}/settled", web::post().to(settled))
        .route("/tablet/seats/{id}/extend", web::post().to(extend))
        .route("/tablet/seats/{id}/flags", web::post().to(flags))
        .route("/tablet/seats/{id}/remove", web::post().to(remove))
        .route("/tablet/custody/{id}/confirm", web::post().to(confirm))
        .route("/tablet/custody/{id}/cancel", web::post().to(cancel))
        .route("/tablet/hand", web::post().to(hand))
        .route("/tablet/dues/{id}/collect", web::post().to(collect_due))
        .route("/tablet/tips", web::post().to(tip))
        .route("/tablet/drop-box", web::post().to(drop_box))
        .route("/tablet/commission", web::post().to(commission))
        .route("/tablet/shift/end", web::post().to(end_shift))
        .route("/tablet/service", web::post().to(service))
        .route("/floor/service/{id}/handled", web::post().to(floor_handled))
        .route(
            "/floor/buyins/{id}/approve",
            web::post().to(floor_approve_chips),
        )
        .route("/floor/custody", web::get().to(floor_custody))
        .route("/floor/custody/{id}/confirm", web::post().to(floor_confirm))
        .route("/floor/custody/{id}/resolve", web::post().to(floor_resolve));
}
