//! The seat page on the tablet, and what every seat action shares: running it in the room's
//! write turn for this tablet's table, and showing a refusal on the seat again.

use crate::db::models::TabletRow;
use crate::domain::ids::SeatingId;
use crate::domain::ids::TableId;
use crate::domain::FieldError;
use crate::error::{AppError, AppResult};
use crate::services::table_side::{self, SeatedView, TableSideView};
use crate::services::Act;
use crate::services::Acting;
use crate::services::{self};
use crate::web::ctx::{Ctx, Errs, Vals};
use crate::web::extract::DealerStaff;
use crate::web::pages::{ctx, render, see_other};
use crate::web::state::AppState;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use chrono::{DateTime, Utc};
use serde::Serialize;

pub use crate::web::pages::money_field;

pub(super) fn is_supervisor(role: &str) -> bool {
    matches!(role, "admin" | "floor")
}

/// Another table of the same game and limit (BSOP 27, 58; its limits now, PT-2007 22), where
/// a player may move with their stack.
pub struct Sibling {
    pub id: TableId,
    pub number: i32,
}

#[derive(Template)]
#[template(path = "tablet/seat.html")]
pub(super) struct SeatPage {
    c: Ctx,
    tablet: TabletRow,
    v: TableSideView,
    s: SeatedView,
    siblings: Vec<Sibling>,
    problem: Option<String>,
    errs: Errs,
    vals: Vals,
    /// The last event when the page was rendered: its live stream starts there.
    since: i64,
    /// After the first tap on "Cash out": the receipt it would give, to confirm (a second tap).
    cash_out: Option<table_side::CashOutReceipt>,
}

async fn load(
    st: &AppState,
    table_id: TableId,
    now: DateTime<Utc>,
) -> AppResult<(TableSideView, Vec<Sibling>, i64)> {
    st.run(move |_, conn| {
        let since = crate::web::stream::last_seq(conn)?;
        let room = services::room::get(conn)?;
        let v = table_side::view(conn, now, &room.profile, table_id)?;
        let siblings = table_side::sibling_tables(conn, &v)?
            .into_iter()
            .map(|(id, number)| Sibling { id, number })
            .collect();
        Ok((v, siblings, since))
    })
    .await
}

// The seat page again with the typed values, the refusal and the receipt asked for.
#[allow(clippy::too_many_arguments)]
pub(super) async fn render_seat(
    req: &HttpRequest,
    st: &AppState,
    who: &DealerStaff,
    tablet: TabletRow,
    seating_id: SeatingId,
    status: StatusCode,
    problem: Option<String>,
    errs: Errs,
    vals: Vals,
    cash_out: Option<table_side::CashOutReceipt>,
) -> AppResult<HttpResponse> {
    let c = ctx(req, st, &who.0).await?;
    let (v, siblings, since) = load(st, tablet.table_id, c.now).await?;
    // The seat is gone (the player left): back to the table.
    let Some(s) = v.seated(seating_id).cloned() else {
        if problem.is_some() {
            return crate::web::pages::tablet::table_page_with(
                req, st, &who.0, tablet, status, problem,
            )
            .await;
        }
        return Ok(see_other("/tablet"));
    };
    render(
        status,
        &SeatPage {
            c,
            tablet,
            v,
            s,
            siblings,
            problem,
            errs,
            vals,
            since,
            cash_out,
        },
    )
}

pub(super) async fn seat_page(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    path: web::Path<SeatingId>,
) -> AppResult<HttpResponse> {
    let tablet = crate::web::pages::tablet::this_tablet(&req, &st).await?;
    let id = path.into_inner();
    // Another table's seat is not this tablet's to see; a seat just left: back to the table.
    let s = st.run(move |_, c| services::floor::seating(c, id)).await?;
    if s.table_id != tablet.table_id {
        return Err(AppError::NotFound);
    }
    if s.left_at.is_some() {
        return Ok(see_other("/tablet"));
    }
    render_seat(
        &req,
        &st,
        &who,
        tablet,
        id,
        StatusCode::OK,
        None,
        Errs::default(),
        Vals::default(),
        None,
    )
    .await
}

/// What a seat action needs from the request.
pub(super) struct SeatAct {
    /// Who acts, when, and the room.
    pub(super) act: Act,
    pub(super) tablet: TabletRow,
    pub(super) supervisor: bool,
    /// When the dealer tapped (`tapped_at` within the room's bound; else `now`).
    pub(super) tapped: DateTime<Utc>,
}

/// Runs one seat action for this tablet's table in a write transaction. Success goes to
/// `then` (the table, or back to the seat); a refusal shows the seat again with the reason
/// (and the typed values), nothing changed.
pub(super) async fn seat_act<F, V>(
    req: &HttpRequest,
    st: &AppState,
    who: &DealerStaff,
    seating_id: SeatingId,
    vals: &V,
    then: Then,
    f: F,
) -> AppResult<HttpResponse>
where
    F: FnOnce(&mut crate::db::DbConn, &SeatAct) -> AppResult<()> + Send + 'static,
    V: Serialize,
{
    let tablet = crate::web::pages::tablet::this_tablet(req, st).await?;
    let room = st.run(|_, c| services::room::get(c)).await?;
    let now = st.clock.now();
    let tapped_at = crate::web::pages::tap::tapped_at(req);
    let tapped = match table_side::when_tapped(&room, tapped_at.as_deref(), now) {
        Ok(t) => t,
        Err(e) => return refused(req, st, who, tablet, seating_id, e, Vals::of(vals)).await,
    };
    let act = SeatAct {
        act: Acting::new(now, services::staff::actor(&who.0.staff)).with_room(room),
        tablet: tablet.clone(),
        supervisor: is_supervisor(&who.0.staff.role),
        tapped,
    };
    let r = st.write(move |_, conn| f(conn, &act)).await;
    match r {
        Ok(()) => {
            let to = match then {
                Then::Table => "/tablet".to_string(),
                Then::Seat => format!("/tablet/seats/{seating_id}"),
                Then::Receipt => format!("/tablet?receipt={seating_id}#cash-out-receipt"),
            };
            if crate::web::pages::tap::queued(req) {
                return Ok(crate::web::pages::tap::applied(&to));
            }
            Ok(see_other(&to))
        }
        Err(e) => refused(req, st, who, tablet, seating_id, e, Vals::of(vals)).await,
    }
}

#[derive(Clone, Copy)]
pub(super) enum Then {
    Table,
    Seat,
    /// The table, with the receipt of the seating just cashed out on top.
    Receipt,
}

/// A seat action refused, nothing changed: the seat again with the reason (a tap from the
/// tablet's queue: the reason in JSON).
pub(super) async fn refused(
    req: &HttpRequest,
    st: &AppState,
    who: &DealerStaff,
    tablet: TabletRow,
    seating_id: SeatingId,
    e: AppError,
    vals: Vals,
) -> AppResult<HttpResponse> {
    match e {
        AppError::Conflict(_)
        | AppError::Validation(_)
        | AppError::NotFound
        | AppError::Forbidden(_)
        | AppError::Unauthorized(_)
        | AppError::TooManyRequests(_) => {
            let lang = crate::web::ctx::request_lang(req);
            let (message, _) = crate::web::errors::describe(&st.i18n, lang, &e);
            let fields: Vec<FieldError> = match &e {
                AppError::Validation(fs) => fs.clone(),
                _ => Vec::new(),
            };
            let c = ctx(req, st, &who.0).await?;
            let errs = c.errors(&fields);
            let problem = if errs.any() {
                errs.all().join(" ")
            } else {
                message
            };
            let status = actix_web::ResponseError::status_code(&e);
            if crate::web::pages::tap::queued(req) {
                let res = crate::web::pages::tap::refused(status, &problem);
                return Ok(crate::web::errors::with_retry_after(res, &e));
            }
            render_seat(
                req,
                st,
                who,
                tablet,
                seating_id,
                status,
                Some(problem),
                errs,
                vals,
                None,
            )
            .await
            .map(|res| crate::web::errors::with_retry_after(res, &e))
        }
        e => Err(e),
    }
}
