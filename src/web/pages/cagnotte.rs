//! `/floor/cagnotte`: the floor's view of the house's percentage — each table's
//! open session (PT-2007 7b) with what is due, collected and exempted; the exemption of a due
//! with a reason; the floor's close of a session whose hour of play is up.

use super::{ctx, render, see_other};
use crate::domain::ids::TableId;
use crate::domain::states::DueState;
use crate::error::{AppError, AppResult};
use crate::services::cagnotte::{self, DueLine, SessionPanel};
use crate::web::ctx::Ctx;
use crate::web::extract::{ActingAs, CsrfForm, FloorStaff};
use crate::web::state::AppState;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use serde::Deserialize;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/floor/cagnotte", web::get().to(page))
        .route("/floor/cagnotte/dues/{id}/exempt", web::post().to(exempt))
        .route("/floor/cagnotte/tables/{id}/close", web::post().to(close));
}

/// One table's open session, for the page.
pub struct TableSession {
    pub table: i32,
    pub table_id: TableId,
    pub panel: SessionPanel,
}

#[derive(Template)]
#[template(path = "floor/cagnotte.html")]
struct Page {
    c: Ctx,
    sessions: Vec<TableSession>,
    open: Vec<DueLine>,
    problem: Option<String>,
    /// The due whose exemption was refused, with the reason as typed (kept, not lost).
    typed: Option<(i64, String)>,
}

impl Page {
    fn typed_reason(&self, id: &i64) -> &str {
        match &self.typed {
            Some((i, r)) if i == id => r.as_str(),
            _ => "",
        }
    }
}

async fn show(
    req: &HttpRequest,
    st: &AppState,
    who: &FloorStaff,
    status: StatusCode,
    problem: Option<String>,
    typed: Option<(i64, String)>,
) -> AppResult<HttpResponse> {
    let c = ctx(req, st, &who.0).await?;
    let now = c.now;
    let (sessions, open) = st
        .run(move |_, conn| {
            let tables = crate::services::lookups::tables_with_open_session(conn)?;
            let mut sessions = Vec::new();
            for (id, number) in tables {
                if let Some(panel) = cagnotte::panel(conn, now, TableId(id))? {
                    sessions.push(TableSession {
                        table: number,
                        table_id: TableId(id),
                        panel,
                    });
                }
            }
            Ok((sessions, cagnotte::open_dues(conn, None)?))
        })
        .await?;
    render(
        status,
        &Page {
            c,
            sessions,
            open,
            problem,
            typed,
        },
    )
}

async fn page(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
) -> AppResult<HttpResponse> {
    show(&req, &st, &who, StatusCode::OK, None, None).await
}

/// The page again with the refusal on top (nothing changed; what was typed is kept).
async fn refused(
    req: &HttpRequest,
    st: &AppState,
    who: &FloorStaff,
    e: AppError,
    typed: Option<(i64, String)>,
) -> AppResult<HttpResponse> {
    match e {
        e @ (AppError::Conflict(_) | AppError::Validation(_) | AppError::NotFound) => {
            let text =
                crate::web::errors::refusal_text(&st.i18n, crate::web::ctx::request_lang(req), &e);
            show(
                req,
                st,
                who,
                actix_web::ResponseError::status_code(&e),
                Some(text),
                typed,
            )
            .await
        }
        e => Err(e),
    }
}

#[derive(Deserialize)]
struct ExemptForm {
    #[serde(default)]
    reason: String,
}

/// The floor exempts a player from a session's percentage, with a reason (audited).
async fn exempt(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<i64>,
    form: CsrfForm<ExemptForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let reason = form.0.reason;
    let acting = who.acting;
    let r2 = reason.clone();
    match st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            cagnotte::exempt(conn, act, id, &r2)
        })
        .await
    {
        Ok(_) => Ok(see_other("/floor/cagnotte")),
        Err(e) => refused(&req, &st, &who.who, e, Some((id, reason))).await,
    }
}

#[derive(Deserialize)]
struct Empty {}

/// PT-2007 7b: the floor confirms the end of a session whose hour of play is up.
async fn close(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<TableId>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    let r = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            cagnotte::close_by_floor(conn, act, id)
        })
        .await;
    match r {
        Ok(_) => Ok(see_other("/floor/cagnotte")),
        Err(e) => refused(&req, &st, &who.who, e, None).await,
    }
}
