//! The floor's side: `/floor/tablets` lists paired tablets, pairs one (or the desk kiosk) from
//! its code, revokes.

use super::calls::Empty;
use crate::db::models::TabletRow;
use crate::domain::ids::TableId;
use crate::error::{AppError, AppResult};
use crate::services::{self, tablets};
use crate::web::ctx::Ctx;
use crate::web::extract::{ActingAs, CsrfForm, FloorStaff};
use crate::web::pages::{ctx, render, see_other};
use crate::web::state::AppState;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use serde::Deserialize;

#[derive(Template)]
#[template(path = "floor/tablets.html")]
pub(super) struct FloorTablets {
    c: Ctx,
    tablets: Vec<(TabletRow, i32)>,
    /// The desk kiosks still paired.
    kiosks: Vec<crate::db::models::KioskRow>,
    tables: Vec<(i64, i32)>,
    messages: Vec<services::table_side::MessageLine>,
    problem: Option<String>,
    f: TabletsForms,
}

/// What the page's two forms show again after a refusal, and what just happened.
#[derive(Default)]
pub(super) struct TabletsForms {
    pub(super) code: String,
    pub(super) label: String,
    /// The pairing form's choice as sent (a table's id, or the desk kiosk), kept on a refusal.
    pub(super) choice: Option<String>,
    pub(super) paired: Option<String>,
    pub(super) msg_table: Option<TableId>,
    pub(super) msg_body: String,
    /// The table a message was just sent to.
    pub(super) sent_to: Option<i32>,
}

impl FloorTablets {
    /// Whether the pairing form shows `value` (a table's id, or the desk kiosk) chosen again.
    fn chosen(&self, value: &str) -> bool {
        self.f.choice.as_deref() == Some(value)
    }

    /// Tables with a paired tablet (a message can reach them).
    fn with_tablet(&self) -> Vec<(TableId, i32)> {
        let mut v: Vec<(TableId, i32)> =
            self.tablets.iter().map(|(t, n)| (t.table_id, *n)).collect();
        v.sort_by_key(|(_, n)| *n);
        v.dedup();
        v
    }
}

pub(super) async fn floor_tablets_page(
    req: &HttpRequest,
    st: &AppState,
    who: &FloorStaff,
    status: StatusCode,
    problem: Option<String>,
    f: TabletsForms,
) -> AppResult<HttpResponse> {
    let c = ctx(req, st, &who.0).await?;
    let (list, tables, messages) = st
        .run(|_, conn| {
            let tables = services::lookups::tables(conn, true)?;
            Ok((
                (tablets::list(conn)?, services::kiosks::list(conn)?),
                tables,
                services::table_side::messages(conn, None, 20)?,
            ))
        })
        .await?;
    let (list, kiosks) = list;
    render(
        status,
        &FloorTablets {
            c,
            tablets: list,
            kiosks,
            tables,
            messages,
            problem,
            f,
        },
    )
}

#[derive(Deserialize)]
pub(super) struct TabletsQuery {
    /// From the QR code on a tablet's pairing screen: the code, filled in.
    code: Option<String>,
}

pub(super) async fn floor_tablets(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    q: web::Query<TabletsQuery>,
) -> AppResult<HttpResponse> {
    let code: String = q
        .into_inner()
        .code
        .unwrap_or_default()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .take(12)
        .collect();
    floor_tablets_page(
        &req,
        &st,
        &who,
        StatusCode::OK,
        None,
        TabletsForms {
            code,
            ..Default::default()
        },
    )
    .await
}

pub(super) fn problem_of(req: &HttpRequest, st: &AppState, e: &AppError) -> String {
    crate::web::errors::refusal_text(&st.i18n, crate::web::ctx::request_lang(req), e)
}

/// The pairing form's "table" value that pairs the device as the desk kiosk.
const KIOSK_CHOICE: &str = "kiosk";

#[derive(Deserialize)]
pub(super) struct PairForm {
    code: String,
    table_id: Option<String>,
    #[serde(default)]
    label: String,
}

pub(super) async fn floor_pair(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    form: CsrfForm<PairForm>,
) -> AppResult<HttpResponse> {
    let f = form.0;
    let acting = who.acting;
    let (code, label) = (f.code.clone(), f.label.clone());
    let table_id = f
        .table_id
        .as_deref()
        .and_then(|v| v.trim().parse::<i64>().ok());
    // "desk kiosk" is a choice of the table list (no table: walk-ins join there).
    let as_kiosk = f.table_id.as_deref().map(str::trim) == Some(KIOSK_CHOICE);
    let r = match (as_kiosk, table_id) {
        (true, _) => {
            st.write(move |_, conn| {
                let act = &acting.in_room(conn)?;
                services::kiosks::pair(conn, act, &code, &label).map(|k| k.label)
            })
            .await
        }
        (false, None) => Err(AppError::field("table_id", "err-table-unknown")),
        (false, Some(tid)) => {
            st.write(move |_, conn| {
                let act = &acting.in_room(conn)?;
                tablets::pair(conn, act, &code, TableId(tid), &label).map(|t| t.label)
            })
            .await
        }
    };
    match r {
        Ok(label) => {
            floor_tablets_page(
                &req,
                &st,
                &who.who,
                StatusCode::OK,
                None,
                TabletsForms {
                    paired: Some(label),
                    ..Default::default()
                },
            )
            .await
        }
        Err(e @ (AppError::Conflict(_) | AppError::Validation(_) | AppError::NotFound)) => {
            let problem = problem_of(&req, &st, &e);
            floor_tablets_page(
                &req,
                &st,
                &who.who,
                actix_web::ResponseError::status_code(&e),
                Some(problem),
                TabletsForms {
                    code: f.code,
                    label: f.label,
                    choice: f.table_id.map(|v| v.trim().to_string()),
                    ..Default::default()
                },
            )
            .await
        }
        Err(e) => Err(e),
    }
}

/// The floor revokes a desk kiosk (audited); it shows the pairing code again.
pub(super) async fn floor_revoke_kiosk(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<i64>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    match st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            services::kiosks::revoke(conn, act, id)
        })
        .await
    {
        Ok(_) => Ok(see_other("/floor/tablets")),
        Err(e @ (AppError::Conflict(_) | AppError::NotFound)) => {
            let problem = problem_of(&req, &st, &e);
            floor_tablets_page(
                &req,
                &st,
                &who.who,
                actix_web::ResponseError::status_code(&e),
                Some(problem),
                TabletsForms::default(),
            )
            .await
        }
        Err(e) => Err(e),
    }
}

pub(super) async fn floor_revoke(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<i64>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    match st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            tablets::revoke(conn, act, id)
        })
        .await
    {
        Ok(_) => Ok(see_other("/floor/tablets")),
        Err(e @ (AppError::Conflict(_) | AppError::NotFound)) => {
            let problem = problem_of(&req, &st, &e);
            floor_tablets_page(
                &req,
                &st,
                &who.who,
                actix_web::ResponseError::status_code(&e),
                Some(problem),
                TabletsForms::default(),
            )
            .await
        }
        Err(e) => Err(e),
    }
}
