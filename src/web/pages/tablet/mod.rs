//! The dealer tablet: pairing (a short code the floor enters), the dealer's sign-in on the
//! paired tablet, and the table view with seat calls pushed live (acknowledge, seat).
//! The floor's side: `/floor/tablets` lists paired tablets, pairs one from its code, revokes.

mod calls;
mod device;
mod floor;
mod messages;
pub(crate) mod pairing;
mod relief;
mod view;

pub(crate) use calls::tablet_act;
use calls::{ack, seat};
pub use device::*;
pub(crate) use device::{device_cookie, this_tablet, DEVICE_HOURS};
use floor::{floor_pair, floor_revoke, floor_revoke_kiosk, floor_tablets};
use messages::{floor_message, message_seen};
use pairing::pair_status;
pub(crate) use pairing::qr_data_url;
pub(crate) use view::table_page_with;
use view::{home, stream, view};

use actix_web::web;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/tablet", web::get().to(home))
        .route("/tablet/pair/status", web::get().to(pair_status))
        .route("/tablet/view", web::get().to(view))
        .route("/tablet/relieve", web::post().to(relief::relieve))
        .route("/tablet/stream", web::get().to(stream))
        .route("/tablet/calls/{id}/ack", web::post().to(ack))
        .route("/tablet/calls/{id}/seat", web::post().to(seat))
        .route("/floor/tablets", web::get().to(floor_tablets))
        .route("/floor/tablets/pair", web::post().to(floor_pair))
        .route("/floor/tablets/{id}/revoke", web::post().to(floor_revoke))
        .route(
            "/floor/kiosks/{id}/revoke",
            web::post().to(floor_revoke_kiosk),
        )
        .route("/floor/tablets/message", web::post().to(floor_message))
        .route("/tablet/messages/{id}/seen", web::post().to(message_seen));
}
