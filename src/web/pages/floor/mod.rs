//! The floor dashboard: every list with positions, every table with its seats and pending
//! calls; actions post back here. The live part refreshes itself (htmx) without a reload.

mod act;
pub(super) mod board;
mod dealers;
mod draws;
mod lists;
mod moves;
mod seating;
pub(super) mod shared;

pub(crate) use act::act_said;
use board::{live, page};
use draws::{
    draw_button, draw_by_suits, draw_json, draw_seats, draw_seats_extra, draw_special, show_draw,
};
use lists::{check_in, join, remove, restore, suggest_players};
use moves::{
    cancel_seat_change, hold_seat, refuse_must_move, release_hold, request_seat_change, transfer,
};
use seating::{call_chosen, call_next, confirm, leave, open_table};

use actix_web::web;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/floor", web::get().to(page))
        .route("/floor/live", web::get().to(live))
        .route("/floor/dealers", web::get().to(dealers::page))
        .route("/floor/dealers/push", web::post().to(dealers::push))
        .route(
            "/floor/dealers/tables/{id}/relieve",
            web::post().to(dealers::relieve),
        )
        .route(
            "/floor/dealers/{id}/{action}",
            web::post().to(dealers::roster),
        )
        .route("/floor/players", web::get().to(suggest_players))
        .route("/floor/lists/{game_id}/join", web::post().to(join))
        .route("/floor/entries/{id}/remove", web::post().to(remove))
        .route("/floor/entries/{id}/restore", web::post().to(restore))
        .route("/floor/entries/{id}/check-in", web::post().to(check_in))
        .route("/floor/tables/{id}/open", web::post().to(open_table))
        .route(
            "/floor/tables/{id}/seats/{seat}/call",
            web::post().to(call_next),
        )
        .route(
            "/floor/tables/{id}/seats/{seat}/call-chosen",
            web::post().to(call_chosen),
        )
        .route("/floor/calls/{id}/seat", web::post().to(confirm))
        .route("/floor/seatings/{id}/leave", web::post().to(leave))
        .route("/floor/tables/{id}/draw-seats", web::post().to(draw_seats))
        .route(
            "/floor/tables/{id}/draw-button",
            web::post().to(draw_button),
        )
        .route(
            "/floor/tables/{id}/draw-seats-extra",
            web::post().to(draw_seats_extra),
        )
        .route(
            "/floor/tables/{id}/draw-special/{kind}",
            web::post().to(draw_special),
        )
        .route(
            "/floor/seatings/{id}/seat-change",
            web::post().to(request_seat_change),
        )
        .route(
            "/floor/seat-changes/{id}/cancel",
            web::post().to(cancel_seat_change),
        )
        .route(
            "/floor/seatings/{id}/refuse-must-move",
            web::post().to(refuse_must_move),
        )
        .route("/floor/seatings/{id}/transfer", web::post().to(transfer))
        .route(
            "/floor/tables/{id}/seats/{seat}/hold",
            web::post().to(hold_seat),
        )
        .route("/floor/holds/{id}/release", web::post().to(release_hold))
        .route("/draws/{id:\\d+}.json", web::get().to(draw_json))
        .route("/draws/{id:\\d+}", web::get().to(show_draw))
        .route(
            "/floor/lists/{game_id}/draw-by-suits",
            web::post().to(draw_by_suits),
        );
}
