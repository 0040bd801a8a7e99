//! How a floor action runs from the dashboard: in the room's write turn, then back to the
//! dashboard (or the panel it came from) with what was done or why it was refused.

use super::board::{load_since, Page};
use super::shared::{panel_of_referer, BoardFilter, Said};
use crate::error::{AppError, AppResult};
use crate::services::Act;
use crate::services::Acting;
use crate::services::{self};
use crate::web::extract::FloorStaff;
use crate::web::pages::{ctx, render, see_other};
use crate::web::state::AppState;
use actix_web::{HttpRequest, HttpResponse};

/// Runs a floor action in one write transaction, then shows the dashboard (or, refused, the
/// dashboard with the reason on top: nothing changed).
pub(super) async fn act(
    req: &HttpRequest,
    st: &AppState,
    who: &FloorStaff,
    f: impl FnOnce(&mut crate::db::DbConn, &Act) -> AppResult<()> + Send + 'static,
) -> AppResult<HttpResponse> {
    act_to(req, st, who, move |conn, a| {
        f(conn, a).map(|()| "/floor".to_string())
    })
    .await
}

/// Like [`act`], but a success goes where the action says (e.g. a draw: the dashboard naming
/// its result).
pub(super) async fn act_to(
    req: &HttpRequest,
    st: &AppState,
    who: &FloorStaff,
    f: impl FnOnce(&mut crate::db::DbConn, &Act) -> AppResult<String> + Send + 'static,
) -> AppResult<HttpResponse> {
    let r = run_act(st, who, f).await;
    done(req, st, who, r.map(|to| (to, None)), String::new()).await
}

/// Like [`act`], and the dashboard then says what happened (a toast naming the player, the
/// list or the seat). `typed`: what the form's player field held, kept if the
/// action is refused.
pub(crate) async fn act_said(
    req: &HttpRequest,
    st: &AppState,
    who: &FloorStaff,
    typed: String,
    f: impl FnOnce(&mut crate::db::DbConn, &Act) -> AppResult<Said> + Send + 'static,
) -> AppResult<HttpResponse> {
    let r = run_act(st, who, f).await;
    done(
        req,
        st,
        who,
        r.map(|said| ("/floor".to_string(), Some(said))),
        typed,
    )
    .await
}

async fn run_act<T: Send + 'static>(
    st: &AppState,
    who: &FloorStaff,
    f: impl FnOnce(&mut crate::db::DbConn, &Act) -> AppResult<T> + Send + 'static,
) -> AppResult<T> {
    let acting = Acting::new(st.clock.now(), services::staff::actor(&who.0.staff));
    st.write(move |_, conn| {
        let act = acting.in_room(conn)?;
        f(conn, &act)
    })
    .await
}

/// Where the floor lands after a draw: the dashboard with the draw's result on top.
pub(super) fn after_draw(id: i64) -> String {
    format!("/floor?draw={id}#draw-result")
}

/// After an action: back to the dashboard — with the table's panel open again when the form
/// was sent from it — or the dashboard with the refusal on top.
pub(super) async fn done(
    req: &HttpRequest,
    st: &AppState,
    who: &FloorStaff,
    result: AppResult<(String, Option<Said>)>,
    typed: String,
) -> AppResult<HttpResponse> {
    let from_panel = panel_of_referer(req);
    match result {
        Ok((to, said)) => {
            let to = match (to.as_str(), from_panel) {
                ("/floor", Some(n)) => format!("/floor?table={n}"),
                // After a draw from a table's panel: its result, and the panel still open.
                (t, Some(n)) if t.starts_with("/floor?draw=") => match t.split_once('#') {
                    Some((a, b)) => format!("{a}&table={n}#{b}"),
                    None => format!("{t}&table={n}"),
                },
                _ => to,
            };
            let mut res = see_other(&to);
            if let Some(said) = said {
                let lang = crate::web::ctx::request_lang(req);
                said.flash(&st.i18n, lang).set(&mut res);
            }
            Ok(res)
        }
        Err(e @ (AppError::Conflict(_) | AppError::Validation(_) | AppError::NotFound)) => {
            let c = ctx(req, st, &who.0).await?;
            let (message, fields) = crate::web::errors::describe(&st.i18n, c.lang, &e);
            let detail: Vec<String> = fields.into_iter().map(|(_, _, m)| m).collect();
            let problem = if detail.is_empty() {
                message
            } else {
                format!("{message} {}", detail.join(" "))
            };
            let (d, a, since, draws) = load_since(st, c.now).await?;
            let panel =
                from_panel.and_then(|n| d.tables.iter().find(|v| v.table.number == n).cloned());
            render(
                actix_web::ResponseError::status_code(&e),
                &Page {
                    c,
                    d,
                    a,
                    since,
                    problem: Some(problem),
                    draw: None,
                    draws,
                    filter: BoardFilter::default(),
                    typed,
                    panel,
                    done: None,
                    oob: false,
                },
            )
        }
        Err(e) => Err(e),
    }
}
