//! The dealers' night for the floor: the pushes of the next hour with their one-action forms,
//! each table's dealer and down, and the roster (clock in and out, breaks). The board shows
//! the next half hour of the same pushes; a push sent from the board lands back on it.

use super::act::act_said;
use super::shared::{Flash, Said};
use crate::domain::ids::TableId;
use crate::error::{AppError, AppResult};
use crate::services::dealers::{self, AfterPush, Night, PushOrder, RosterAction};
use crate::services::{self, Acting};
use crate::web::ctx::Ctx;
use crate::web::extract::{CsrfForm, FloorStaff};
use crate::web::pages::{ctx, render, see_other};
use crate::web::state::AppState;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use serde::Deserialize;

/// What the push cards read (`d.night`, as on the board).
pub(crate) struct NightView {
    pub(crate) night: Night,
}

#[derive(Template)]
#[template(path = "floor/dealers.html")]
struct DealersPage {
    c: Ctx,
    d: NightView,
    problem: Option<String>,
    done: Option<Flash>,
}

async fn show(
    req: &HttpRequest,
    st: &AppState,
    who: &FloorStaff,
    status: StatusCode,
    problem: Option<String>,
) -> AppResult<HttpResponse> {
    let c = ctx(req, st, &who.0).await?;
    let now = c.now;
    let night = st.run(move |_, conn| dealers::tonight(conn, now)).await?;
    let done = if problem.is_none() {
        Flash::read(req)
    } else {
        None
    };
    let mut res = render(
        status,
        &DealersPage {
            c,
            d: NightView { night },
            problem,
            done: done.clone(),
        },
    )?;
    if done.is_some() {
        Flash::clear(&mut res);
    }
    Ok(res)
}

/// `/floor/dealers`: the night.
pub(super) async fn page(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
) -> AppResult<HttpResponse> {
    show(&req, &st, &who, StatusCode::OK, None).await
}

/// Was the form sent from the dealers' page (else from the board)?
fn from_dealers_page(req: &HttpRequest) -> bool {
    req.headers()
        .get(actix_web::http::header::REFERER)
        .and_then(|v| v.to_str().ok())
        .and_then(|r| url_path(r).map(|p| p.starts_with("/floor/dealers")))
        .unwrap_or(false)
}

fn url_path(r: &str) -> Option<&str> {
    let rest = r.split_once("://").map_or(r, |(_, rest)| rest);
    rest.find('/').map(|i| &rest[i..])
}

/// Runs a roster or push change; from the board, back to the board (refused: the board with
/// the reason); from the dealers' page, back to it.
async fn run(
    req: &HttpRequest,
    st: &AppState,
    who: &FloorStaff,
    f: impl FnOnce(&mut crate::db::DbConn, &services::Act) -> AppResult<Said> + Send + 'static,
) -> AppResult<HttpResponse> {
    if !from_dealers_page(req) {
        return act_said(req, st, who, String::new(), f).await;
    }
    let acting = Acting::new(st.clock.now(), services::staff::actor(&who.0.staff));
    let r = st
        .write(move |_, conn| {
            let act = acting.in_room(conn)?;
            f(conn, &act)
        })
        .await;
    match r {
        Ok(said) => {
            let mut res = see_other("/floor/dealers");
            let lang = crate::web::ctx::request_lang(req);
            said.flash(&st.i18n, lang).set(&mut res);
            Ok(res)
        }
        Err(e @ (AppError::Conflict(_) | AppError::Validation(_) | AppError::NotFound)) => {
            let lang = crate::web::ctx::request_lang(req);
            let text = crate::web::errors::refusal_text(&st.i18n, lang, &e);
            let status = actix_web::ResponseError::status_code(&e);
            show(req, st, who, status, Some(text)).await
        }
        Err(e) => Err(e),
    }
}

#[derive(Deserialize)]
pub(super) struct PushForm {
    table_id: String,
    #[serde(default)]
    dealer_id: String,
    /// "", "break" or "available" (empty: as the room's rules say).
    #[serde(default)]
    outgoing_to: String,
}

impl PushForm {
    fn order(&self) -> AppResult<PushOrder> {
        let table_id = self
            .table_id
            .trim()
            .parse()
            .map_err(|_| AppError::NotFound)?;
        let dealer_id = self
            .dealer_id
            .trim()
            .parse()
            .map_err(|_| AppError::field("dealer_id", "err-dealer-unknown"))?;
        let outgoing_to = match self.outgoing_to.trim() {
            "" => None,
            "break" => Some(AfterPush::Break),
            "available" => Some(AfterPush::Available),
            _ => return Err(AppError::field("outgoing_to", "err-dealer-outgoing-to")),
        };
        Ok(PushOrder {
            table_id: TableId(table_id),
            dealer_id,
            outgoing_to,
        })
    }
}

/// A push from the board or the dealers' page: the proposal accepted, or another dealer.
pub(super) async fn push(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    form: CsrfForm<PushForm>,
) -> AppResult<HttpResponse> {
    let order = form.0.order();
    run(&req, &st, &who, move |conn, act| {
        let done = dealers::push(conn, act, &order?)?;
        Ok(match (done.outgoing, done.break_until) {
            (Some(o), Some(until)) => Said::new("dealers-pushed-break")
                .arg("dealer", done.incoming)
                .arg("table", done.table)
                .arg("out", o)
                .arg("time", until.with_timezone(&act.tz()).format("%H:%M")),
            (Some(o), None) => Said::new("dealers-pushed-free")
                .arg("dealer", done.incoming)
                .arg("table", done.table)
                .arg("out", o),
            (None, _) => Said::new("dealers-pushed")
                .arg("dealer", done.incoming)
                .arg("table", done.table),
        })
    })
    .await
}

#[derive(Deserialize)]
pub(super) struct RosterPath {
    id: i64,
    action: String,
}

/// Clock in, clock out, a break, back from it — for any dealer, from the dealers' page.
pub(super) async fn roster(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<RosterPath>,
    _f: CsrfForm<super::lists::Empty>,
) -> AppResult<HttpResponse> {
    let RosterPath { id, action } = path.into_inner();
    let action = RosterAction::parse(&action).ok_or(AppError::NotFound)?;
    let said = match action {
        RosterAction::ClockIn => "dealers-said-in",
        RosterAction::ClockOut => "dealers-said-out",
        RosterAction::Break => "dealers-said-break",
        RosterAction::Back => "dealers-said-back",
    };
    run(&req, &st, &who, move |conn, act| {
        let name = dealers::dealer(conn, id)?.display_name;
        action.apply(conn, act, id)?;
        Ok(Said::new(said).arg("dealer", name))
    })
    .await
}

#[derive(Deserialize)]
pub(super) struct RelieveForm {
    /// "break" or "available".
    to: String,
}

/// The floor takes the dealer off table `id` with nobody to take it over: to a break, or free
/// for the next push (the table is then without a dealer until the next push).
pub(super) async fn relieve(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<TableId>,
    form: CsrfForm<RelieveForm>,
) -> AppResult<HttpResponse> {
    let table_id = path.into_inner();
    let to = match form.0.to.trim() {
        "break" => Ok(AfterPush::Break),
        "available" => Ok(AfterPush::Available),
        _ => Err(AppError::field("to", "err-dealer-outgoing-to")),
    };
    run(&req, &st, &who, move |conn, act| {
        let done = dealers::relieve(conn, act, table_id, to?)?;
        Ok(match done.break_until {
            Some(until) => Said::new("dealers-relieved-break")
                .arg("dealer", done.dealer)
                .arg("table", done.table)
                .arg("time", until.with_timezone(&act.tz()).format("%H:%M")),
            None => Said::new("dealers-relieved-free")
                .arg("dealer", done.dealer)
                .arg("table", done.table),
        })
    })
    .await
}
