//! A dealer's own night, on their phone or a tablet: where they are, their next push or
//! break, clocking in and out and breaks for themselves, and their table PIN (for taking a
//! table over at its tablet).

use super::floor_board::Flash;
use super::{ctx, render, see_other, Empty};
use crate::error::{AppError, AppResult};
use crate::services::dealers::{self, pin, NightDealer, NightPush, RosterAction};
use crate::services::{self, Acting};
use crate::web::ctx::Ctx;
use crate::web::extract::{CsrfForm, DealerStaff};
use crate::web::state::AppState;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use serde::Deserialize;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/dealer", web::get().to(page))
        .route("/dealer/pin", web::post().to(set_pin))
        .route("/dealer/{action}", web::post().to(roster));
}

#[derive(Template)]
#[template(path = "dealer_night.html")]
struct MyNight {
    c: Ctx,
    me: Option<NightDealer>,
    next: Option<NightPush>,
    problem: Option<String>,
    done: Option<Flash>,
}

impl MyNight {
    /// This dealer goes in at the next push (else they are relieved at it).
    fn goes_in(&self) -> bool {
        match (&self.me, &self.next) {
            (Some(m), Some(p)) => p.incoming_id == m.id,
            _ => false,
        }
    }
}

fn dealer_only(who: &DealerStaff) -> AppResult<i64> {
    if who.0.staff.role != crate::domain::staff::Role::Dealer.as_str() {
        return Err(AppError::Forbidden(crate::domain::Problem::new(
            "err-forbidden",
        )));
    }
    Ok(who.0.staff.id)
}

async fn show(
    req: &HttpRequest,
    st: &AppState,
    who: &DealerStaff,
    status: StatusCode,
    problem: Option<String>,
) -> AppResult<HttpResponse> {
    let id = dealer_only(who)?;
    let c = ctx(req, st, &who.0).await?;
    let now = c.now;
    let night = st.run(move |_, conn| dealers::tonight(conn, now)).await?;
    let me = night.dealers.iter().find(|d| d.id == id).cloned();
    let next = night.next_for(id).cloned();
    let done = Flash::read(req);
    let mut res = render(
        status,
        &MyNight {
            c,
            me,
            next,
            problem,
            done: done.clone(),
        },
    )?;
    if done.is_some() {
        Flash::clear_for(&mut res, "/dealer");
    }
    Ok(res)
}

async fn page(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
) -> AppResult<HttpResponse> {
    show(&req, &st, &who, StatusCode::OK, None).await
}

/// Runs a change for this dealer; back to the page saying what was done, or why not.
async fn run(
    req: &HttpRequest,
    st: &AppState,
    who: &DealerStaff,
    said: &'static str,
    f: impl FnOnce(&mut crate::db::DbConn, &services::Act, i64) -> AppResult<()> + Send + 'static,
) -> AppResult<HttpResponse> {
    let id = dealer_only(who)?;
    let acting = Acting::new(st.clock.now(), services::staff::actor(&who.0.staff));
    let r = st
        .write(move |_, conn| {
            let act = acting.in_room(conn)?;
            f(conn, &act, id)
        })
        .await;
    let lang = crate::web::ctx::request_lang(req);
    match r {
        Ok(()) => {
            let mut res = see_other("/dealer");
            Flash {
                text: st.i18n.msg(lang, said, &[]),
                undo: None,
                confirm: None,
            }
            .set_for(&mut res, "/dealer");
            Ok(res)
        }
        Err(e @ (AppError::Conflict(_) | AppError::Validation(_))) => {
            let text = crate::web::errors::refusal_text(&st.i18n, lang, &e);
            let status = actix_web::ResponseError::status_code(&e);
            show(req, st, who, status, Some(text)).await
        }
        Err(e) => Err(e),
    }
}

#[derive(Deserialize)]
struct PinForm {
    #[serde(default)]
    pin: String,
}

async fn set_pin(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    form: CsrfForm<PinForm>,
) -> AppResult<HttpResponse> {
    let typed = form.0.pin.trim().to_string();
    run(&req, &st, &who, "account-pin-saved", move |c, a, id| {
        pin::set_pin(c, a, id, &typed)
    })
    .await
}

/// Clock in, clock out, a break, back from it — for oneself.
async fn roster(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    path: web::Path<String>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let action = RosterAction::parse(&path).ok_or(AppError::NotFound)?;
    let said = match action {
        RosterAction::ClockIn => "my-night-said-in",
        RosterAction::ClockOut => "my-night-said-out",
        RosterAction::Break => "my-night-said-break",
        RosterAction::Back => "my-night-said-back",
    };
    run(&req, &st, &who, said, move |c, a, id| {
        action.apply(c, a, id)
    })
    .await
}
