//! The house's money at the table: dues collected, tips, the drop box, commissions, the end of
//! the dealer's shift.

use super::absence::Empty;
use super::seat::money_field;
use crate::domain::ids::TableId;
use crate::error::AppResult;
use crate::web::extract::{CsrfForm, DealerStaff};
use crate::web::state::AppState;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;

/// The dealer collected a session's percentage from the player (PT-2007 7b).
pub(super) async fn collect_due(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    path: web::Path<TableId>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    crate::web::pages::tablet::tablet_act(&req, &st, &who, move |conn, t, act| {
        crate::services::cagnotte::collect(conn, act, id.get(), None, Some(t.table_id)).map(|_| ())
    })
    .await
}

#[derive(Deserialize, Default)]
pub(super) struct AmountForm {
    #[serde(default)]
    amount: String,
    #[serde(default)]
    end_shift: Option<String>,
}

/// Tips given at the table (PT-2007 5, 9d).
pub(super) async fn tip(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    form: CsrfForm<AmountForm>,
) -> AppResult<HttpResponse> {
    let f = form.0;
    crate::web::pages::tablet::tablet_act(&req, &st, &who, move |conn, t, act| {
        let room = crate::services::room::get(conn)?;
        let amount = money_field("amount", &f.amount, &room.currency)?;
        crate::services::cagnotte::record_tip(conn, act, t.table_id, amount).map(|_| ())
    })
    .await
}

/// The drop box's total at the end of the shift (quick per-hand mode); the shift ends.
pub(super) async fn drop_box(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    form: CsrfForm<AmountForm>,
) -> AppResult<HttpResponse> {
    let f = form.0;
    crate::web::pages::tablet::tablet_act(&req, &st, &who, move |conn, t, act| {
        let room = crate::services::room::get(conn)?;
        let amount = money_field("amount", &f.amount, &room.currency)?;
        let end = f.end_shift.as_deref().is_some_and(|v| !v.is_empty());
        crate::services::cagnotte::record_drop(conn, act, t.table_id, amount, end).map(|_| ())
    })
    .await
}

#[derive(Deserialize, Default)]
pub(super) struct PayoutForm {
    #[serde(default)]
    payout: String,
}

/// MO-13 11: the commission on a winner's payout.
pub(super) async fn commission(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    form: CsrfForm<PayoutForm>,
) -> AppResult<HttpResponse> {
    let f = form.0;
    crate::web::pages::tablet::tablet_act(&req, &st, &who, move |conn, t, act| {
        let room = crate::services::room::get(conn)?;
        let payout = money_field("payout", &f.payout, &room.currency)?;
        crate::services::cagnotte::record_commission(conn, act, t.table_id, payout, None)
            .map(|_| ())
    })
    .await
}

/// The dealer's shift at this table ends.
pub(super) async fn end_shift(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    crate::web::pages::tablet::tablet_act(&req, &st, &who, move |conn, t, act| {
        crate::services::cagnotte::end_shift(conn, act, t.table_id).map(|_| ())
    })
    .await
}
