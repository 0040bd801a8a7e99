//! The tablet's requests to the floor, and the floor's answers: a request handled, a buy-in
//! approved.

use super::absence::Empty;
use crate::error::AppResult;
use crate::services::table_side::{self};
use crate::web::extract::{ActingAs, CsrfForm, DealerStaff, FloorStaff};
use crate::web::pages::see_other;
use crate::web::state::AppState;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;

#[derive(Deserialize)]
pub(super) struct ServiceForm {
    #[serde(default)]
    kind: String,
    #[serde(default)]
    note: String,
}

/// A request to the floor (floor, chips; a decision is a ruling, `pages::rulings`).
pub(super) async fn service(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    form: CsrfForm<ServiceForm>,
) -> AppResult<HttpResponse> {
    let f = form.0;
    crate::web::pages::tablet::tablet_act(&req, &st, &who, move |conn, t, act| {
        table_side::request_service(conn, act, t.table_id, &f.kind, &f.note).map(|_| ())
    })
    .await
}

pub(super) async fn floor_handled(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<i64>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    st.write(move |_, conn| {
        let act = &acting.in_room(conn)?;
        table_side::handle_service(conn, act, id)
    })
    .await?;
    Ok(see_other("/floor"))
}

/// BSOP 28: the floor lets chips that arrived during the hand play in it.
pub(super) async fn floor_approve_chips(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<i64>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    st.write(move |_, conn| {
        let act = &acting.in_room(conn)?;
        table_side::approve_chips(conn, act, id)
    })
    .await?;
    Ok(see_other("/floor"))
}
