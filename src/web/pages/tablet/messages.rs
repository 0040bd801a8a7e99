//! The floor's messages to the tablets, and a tablet marking one seen.

use super::calls::{tablet_act, Empty};
use super::floor::{floor_tablets_page, problem_of, TabletsForms};
use crate::domain::ids::TableId;
use crate::error::{AppError, AppResult};
use crate::services::{self};
use crate::web::extract::{ActingAs, CsrfForm, DealerStaff, FloorStaff};
use crate::web::state::AppState;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;

#[derive(Deserialize)]
pub(super) struct MessageForm {
    table_id: Option<String>,
    #[serde(default)]
    body: String,
}

/// The floor sends a message to a table's tablet (shown there until the dealer marks it seen).
pub(super) async fn floor_message(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    form: CsrfForm<MessageForm>,
) -> AppResult<HttpResponse> {
    let f = form.0;
    let acting = who.acting;
    let table_id = f
        .table_id
        .as_deref()
        .and_then(|v| v.trim().parse::<i64>().ok());
    let body = f.body.clone();
    let r = match table_id {
        None => Err(AppError::field("table_id", "err-table-unknown")),
        Some(tid) => {
            st.write(move |_, conn| {
                let act = &acting.in_room(conn)?;
                services::table_side::send_message(conn, act, TableId(tid), &body)?;
                Ok(services::games::get_table(conn, TableId(tid))?.number)
            })
            .await
        }
    };
    match r {
        Ok(n) => {
            floor_tablets_page(
                &req,
                &st,
                &who.who,
                StatusCode::OK,
                None,
                TabletsForms {
                    sent_to: Some(n),
                    msg_table: table_id.map(TableId),
                    ..Default::default()
                },
            )
            .await
        }
        Err(e @ (AppError::Conflict(_) | AppError::Validation(_) | AppError::NotFound)) => {
            let problem = problem_of(&req, &st, &e);
            let status = actix_web::ResponseError::status_code(&e);
            floor_tablets_page(
                &req,
                &st,
                &who.who,
                status,
                Some(problem),
                TabletsForms {
                    msg_table: table_id.map(TableId),
                    msg_body: f.body,
                    ..Default::default()
                },
            )
            .await
        }
        Err(e) => Err(e),
    }
}

/// The dealer marks a message from the floor seen.
pub(super) async fn message_seen(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    path: web::Path<TableId>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    tablet_act(&req, &st, &who, move |conn, t, act| {
        services::table_side::message_seen(conn, act, id.get(), Some(t.table_id)).map(|_| ())
    })
    .await
}
