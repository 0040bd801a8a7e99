//! `/floor/messages`: every message to players — waiting, being sent, sent,
//! failed — with each attempt and its error, filtered by player and status; failed ones can
//! be sent again ("retry now", audited).

use super::{ctx, render, see_other};
use crate::db::models::OutboxStatus;
use crate::error::{AppError, AppResult};
use crate::notify::outbox::{self, Filter, Listed};
use crate::web::ctx::Ctx;
use crate::web::extract::{CsrfForm, FloorStaff};
use crate::web::state::AppState;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use serde::Deserialize;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/floor/messages", web::get().to(page))
        .route("/floor/messages/{id}/retry", web::post().to(retry));
}

/// How many messages the page shows (newest first).
const SHOWN: i64 = 200;

#[derive(Template)]
#[template(path = "floor/outbox.html")]
struct Page {
    c: Ctx,
    rows: Vec<Listed>,
    /// The filter as typed.
    player: String,
    status: String,
    statuses: [&'static str; 4],
    problem: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
pub struct Query {
    /// `#id`, a document number or a player number (as at the desk).
    pub player: Option<String>,
    pub status: Option<String>,
}

async fn show(
    req: &HttpRequest,
    st: &AppState,
    who: &FloorStaff,
    q: Query,
    status: StatusCode,
    problem: Option<String>,
) -> AppResult<HttpResponse> {
    let c = ctx(req, st, &who.0).await?;
    let player = q.player.clone().unwrap_or_default();
    let state = q
        .status
        .clone()
        .filter(|s| !s.is_empty())
        .unwrap_or_default();
    let typed = player.trim().to_string();
    let filter_status = (!state.is_empty()).then(|| state.clone());
    let r = st
        .run(move |_, conn| {
            let player_id = if typed.is_empty() {
                None
            } else {
                Some(
                    crate::services::players::find_typed(conn, &typed)?
                        .ok_or_else(|| AppError::field("player", "err-player-unknown"))?,
                )
            };
            outbox::list(
                conn,
                &Filter {
                    player_id,
                    status: filter_status,
                    limit: SHOWN,
                },
            )
        })
        .await;
    let (rows, problem, status) = match r {
        Ok(rows) => (rows, problem, status),
        Err(e @ (AppError::Validation(_) | AppError::NotFound)) => {
            let text = crate::web::errors::refusal_text(&st.i18n, c.lang, &e);
            (
                Vec::new(),
                Some(text),
                actix_web::ResponseError::status_code(&e),
            )
        }
        Err(e) => return Err(e),
    };
    render(
        status,
        &Page {
            c,
            rows,
            player,
            status: state,
            statuses: outbox::STATUSES,
            problem,
        },
    )
}

async fn page(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    q: web::Query<Query>,
) -> AppResult<HttpResponse> {
    show(&req, &st, &who, q.into_inner(), StatusCode::OK, None).await
}

#[derive(Deserialize)]
struct Empty {}

/// "Retry now" on a failed message (audited `message.retry`).
async fn retry(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<i64>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let now = st.clock.now();
    let actor = crate::services::staff::actor(&who.0.staff);
    match st
        .write(move |_, conn| outbox::retry_now(conn, now, &actor, id))
        .await
    {
        Ok(_) => Ok(see_other("/floor/messages")),
        Err(e @ (AppError::Conflict(_) | AppError::NotFound)) => {
            let lang = crate::web::ctx::request_lang(&req);
            let (message, _) = crate::web::errors::describe(&st.i18n, lang, &e);
            show(
                &req,
                &st,
                &who,
                Query::default(),
                actix_web::ResponseError::status_code(&e),
                Some(message),
            )
            .await
        }
        Err(e) => Err(e),
    }
}
