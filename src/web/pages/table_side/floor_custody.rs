//! The floor's side of chips in custody: the custody page, confirming a removal, resolving
//! what custody holds.

use super::seat::money_field;
use crate::db::models::{CustodyRow, PlayerRow};
use crate::domain::states::CustodyState;
use crate::error::{AppError, AppResult};
use crate::services::table_side::{self};
use crate::services::Acting;
use crate::services::{self};
use crate::web::ctx::Ctx;
use crate::web::extract::{ActingAs, AnyStaff, CsrfForm};
use crate::web::pages::{ctx, render, see_other};
use crate::web::state::AppState;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use serde::Deserialize;

#[derive(Template)]
#[template(path = "floor/custody.html")]
pub(super) struct CustodyPage {
    c: Ctx,
    rows: Vec<(CustodyRow, PlayerRow, i32)>,
    problem: Option<String>,
}

fn may_keep_custody(role: &str) -> bool {
    matches!(role, "admin" | "floor" | "cashier")
}

async fn custody_page(
    req: &HttpRequest,
    st: &AppState,
    who: &AnyStaff,
    status: StatusCode,
    problem: Option<String>,
) -> AppResult<HttpResponse> {
    if !may_keep_custody(&who.0.staff.role) {
        return Err(AppError::Forbidden(crate::domain::Problem::new(
            "err-forbidden",
        )));
    }
    let c = ctx(req, st, &who.0).await?;
    let rows = st
        .run(|_, conn| table_side::custody_list(conn, true))
        .await?;
    render(status, &CustodyPage { c, rows, problem })
}

/// Chips in custody: counts waiting for a second person, chips held, and what became of them.
pub(super) async fn floor_custody(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: AnyStaff,
) -> AppResult<HttpResponse> {
    custody_page(&req, &st, &who, StatusCode::OK, None).await
}

async fn custody_refused(
    req: &HttpRequest,
    st: &AppState,
    who: &AnyStaff,
    e: AppError,
) -> AppResult<HttpResponse> {
    match e {
        AppError::Conflict(_) | AppError::Validation(_) | AppError::NotFound => {
            let problem =
                crate::web::errors::refusal_text(&st.i18n, crate::web::ctx::request_lang(req), &e);
            custody_page(
                req,
                st,
                who,
                actix_web::ResponseError::status_code(&e),
                Some(problem),
            )
            .await
        }
        e => Err(e),
    }
}

#[derive(Deserialize)]
pub(super) struct FloorConfirmForm {
    #[serde(default)]
    amount: String,
}

/// A floor manager (signed in as themselves) is the second person to count.
pub(super) async fn floor_confirm(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: AnyStaff,
    path: web::Path<i64>,
    form: CsrfForm<FloorConfirmForm>,
) -> AppResult<HttpResponse> {
    if !may_keep_custody(&who.0.staff.role) {
        return Err(AppError::Forbidden(crate::domain::Problem::new(
            "err-forbidden",
        )));
    }
    let id = path.into_inner();
    let now = st.clock.now();
    let actor = services::staff::actor(&who.0.staff);
    let amount = form.0.amount;
    let r = st
        .write(move |_, conn| {
            let act = Acting::new(now, actor).in_room(conn)?;
            let amount = money_field("amount", &amount, &act.room.currency)?;
            table_side::confirm_removal(conn, &act, id, amount, None).map(|_| ())
        })
        .await;
    match r {
        Ok(()) => Ok(see_other("/floor/custody")),
        Err(e) => custody_refused(&req, &st, &who, e).await,
    }
}

#[derive(Deserialize)]
pub(super) struct ResolveForm {
    #[serde(default)]
    how: String,
    #[serde(default)]
    note: String,
}

/// The player reclaimed the chips, or the cashier settled them.
pub(super) async fn floor_resolve(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: ActingAs<AnyStaff>,
    path: web::Path<i64>,
    form: CsrfForm<ResolveForm>,
) -> AppResult<HttpResponse> {
    if !may_keep_custody(&who.who.0.staff.role) {
        return Err(AppError::Forbidden(crate::domain::Problem::new(
            "err-forbidden",
        )));
    }
    let id = path.into_inner();
    let acting = who.acting;
    let f = form.0;
    let r = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            table_side::resolve_custody(conn, act, id, &f.how, &f.note).map(|_| ())
        })
        .await;
    match r {
        Ok(()) => Ok(see_other("/floor/custody")),
        Err(e) => custody_refused(&req, &st, &who.who, e).await,
    }
}
