//! Seat calls at the tablet (acknowledging one, seating the player), and how every tablet
//! action runs for its own table.

use super::device::this_tablet;
use super::view::table_page_with;
use crate::db::models::TabletRow;
use crate::domain::ids::SeatCallId;
use crate::error::{AppError, AppResult};
use crate::services::Act;
use crate::services::Acting;
use crate::services::{self};
use crate::web::extract::{CsrfForm, DealerStaff};
use crate::web::pages::see_other;
use crate::web::state::AppState;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;

#[derive(Deserialize)]
pub(super) struct Empty {}

/// Runs a tablet action for this tablet's table, then back to the table (or the table
/// with the refusal on top: nothing changed). A tap that arrives later than the room allows
/// after it was made (`tapped_at`) is refused; a tap from the tablet's queue is answered in
/// JSON (`pages::tap`).
pub(crate) async fn tablet_act(
    req: &HttpRequest,
    st: &AppState,
    who: &DealerStaff,
    f: impl FnOnce(&mut crate::db::DbConn, &TabletRow, &Act) -> AppResult<()> + Send + 'static,
) -> AppResult<HttpResponse> {
    let tablet = this_tablet(req, st).await?;
    let acting = Acting::new(st.clock.now(), services::staff::actor(&who.0.staff));
    let t = tablet.clone();
    let tapped_at = crate::web::pages::tap::tapped_at(req);
    let r = st
        .write(move |_, conn| {
            let act = acting.in_room(conn)?;
            services::table_side::when_tapped(&act.room, tapped_at.as_deref(), act.now)?;
            f(conn, &t, &act)
        })
        .await;
    let queued = crate::web::pages::tap::queued(req);
    match r {
        Ok(()) if queued => Ok(crate::web::pages::tap::applied("/tablet")),
        Ok(()) => Ok(see_other("/tablet")),
        Err(e @ (AppError::Conflict(_) | AppError::Validation(_) | AppError::NotFound)) => {
            let message =
                crate::web::errors::refusal_text(&st.i18n, crate::web::ctx::request_lang(req), &e);
            if queued {
                return Ok(crate::web::pages::tap::refused(
                    actix_web::ResponseError::status_code(&e),
                    &message,
                ));
            }
            table_page_with(
                req,
                st,
                &who.0,
                tablet,
                actix_web::ResponseError::status_code(&e),
                Some(message),
            )
            .await
        }
        Err(e) => Err(e),
    }
}

/// The dealer acknowledges a seat call for this table (the floor sees it).
pub(super) async fn ack(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    path: web::Path<SeatCallId>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    tablet_act(&req, &st, &who, move |conn, t, act| {
        services::floor::acknowledge_call(conn, act, id, Some(t.table_id)).map(|_| ())
    })
    .await
}

#[derive(Deserialize, Default)]
pub(super) struct SeatForm {
    #[serde(default)]
    amount: String,
}

/// The called player arrived at the table: the dealer seats them (BSOP 44) with their buy-in,
/// checked against what the player must bring (BSOP 26, 37; PT-2007 28); a move brings the
/// player's stack.
pub(super) async fn seat(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    path: web::Path<SeatCallId>,
    form: CsrfForm<SeatForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let amount = form.0.amount;
    tablet_act(&req, &st, &who, move |conn, t, act| {
        let amount = if amount.trim().is_empty() {
            None
        } else {
            Some(crate::web::pages::money_field(
                "amount",
                &amount,
                &act.room.currency,
            )?)
        };
        services::table_side::seat_with_buyin(conn, act, id, amount, Some(t.table_id)).map(|_| ())
    })
    .await
}
