//! Chips removed from a seat into custody at the tablet: the removal, a second staff member's
//! confirmation, cancelling it.

use super::absence::Empty;
use super::seat::{money_field, refused, seat_act, Then};
use crate::db::audit::Actor;
use crate::domain::ids::SeatingId;
use crate::domain::ids::TableId;
use crate::error::{AppError, AppResult};
use crate::services::table_side::{self};
use crate::services::Acting;
use crate::services::{self};
use crate::web::ctx::Vals;
use crate::web::extract::{CsrfForm, DealerStaff};
use crate::web::pages::see_other;
use crate::web::state::AppState;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};

#[derive(Deserialize, Serialize, Default)]
pub(super) struct RemoveForm {
    #[serde(default)]
    amount: String,
    #[serde(default)]
    storage: String,
}

/// BSOP 36: the first count of an absent player's chips.
pub(super) async fn remove(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    path: web::Path<SeatingId>,
    form: CsrfForm<RemoveForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let f = form.0;
    let (amount, storage) = (f.amount.clone(), f.storage.clone());
    seat_act(&req, &st, &who, id, &f, Then::Seat, move |conn, a| {
        let amount = money_field("amount", &amount, &a.act.room.currency)?;
        table_side::start_removal(conn, &a.act, id, amount, &storage, Some(a.tablet.table_id))
            .map(|_| ())
    })
    .await
}

#[derive(Deserialize, Serialize, Default)]
pub(super) struct ConfirmForm {
    #[serde(default)]
    amount: String,
    #[serde(default)]
    username: String,
    #[serde(default, skip_serializing)]
    password: String,
}

/// The second staff member: signs in on the same screen (username + password) without
/// replacing the dealer's session, or is the one signed in (a floor manager at the tablet).
async fn second_staff(
    req: &HttpRequest,
    st: &AppState,
    who: &crate::web::extract::Authed,
    username: &str,
    password: &str,
) -> AppResult<Actor> {
    if username.trim().is_empty() {
        return Ok(services::staff::actor(&who.staff));
    }
    let address = crate::web::client::client_ip(req, &st.config.server.trusted_proxies).to_string();
    let staff = st
        .check_credentials(username.to_string(), password.to_string(), address)
        .await??;
    if !staff.active {
        return Err(AppError::Unauthorized(crate::domain::Problem::new(
            "err-login-failed",
        )));
    }
    Ok(services::staff::actor(&staff))
}

pub(super) async fn confirm(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    path: web::Path<TableId>,
    form: CsrfForm<ConfirmForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let f = form.0;
    let tablet = crate::web::pages::tablet::this_tablet(&req, &st).await?;
    let seating_id = match st.run(move |_, c| table_side::custody(c, id.get())).await {
        Ok(c) if c.table_id == tablet.table_id => c.seating_id,
        Ok(_) | Err(AppError::NotFound) => return Err(AppError::NotFound),
        Err(e) => return Err(e),
    };
    let vals = Vals::of(&f);
    let second = match second_staff(&req, &st, &who.0, &f.username, &f.password).await {
        Ok(a) => a,
        Err(e) => return refused(&req, &st, &who, tablet, seating_id, e, vals).await,
    };
    let amount = f.amount.clone();
    let table_id = tablet.table_id;
    let acting = Acting::new(st.clock.now(), second);
    let r = st
        .write(move |_, conn| {
            let act = acting.in_room(conn)?;
            let amount = money_field("amount", &amount, &act.room.currency)?;
            table_side::confirm_removal(conn, &act, id.get(), amount, Some(table_id)).map(|_| ())
        })
        .await;
    match r {
        Ok(()) => Ok(see_other("/tablet")),
        Err(e) => refused(&req, &st, &who, tablet, seating_id, e, vals).await,
    }
}

pub(super) async fn cancel(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    path: web::Path<TableId>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let tablet = crate::web::pages::tablet::this_tablet(&req, &st).await?;
    let seating_id = match st.run(move |_, c| table_side::custody(c, id.get())).await {
        Ok(c) if c.table_id == tablet.table_id => c.seating_id,
        Ok(_) | Err(AppError::NotFound) => return Err(AppError::NotFound),
        Err(e) => return Err(e),
    };
    seat_act(
        &req,
        &st,
        &who,
        seating_id,
        &Empty {},
        Then::Seat,
        move |conn, a| {
            table_side::cancel_removal(conn, &a.act, id.get(), Some(a.tablet.table_id)).map(|_| ())
        },
    )
    .await
}
