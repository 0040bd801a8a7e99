//! A staff member's own sessions: where they are signed in (device, address,
//! last use), and a button to end any of them — a browser left signed in at the desk, a
//! lost phone.

use super::{ctx, see_other, Empty};
use crate::db::models::SessionRow;
use crate::error::AppResult;
use crate::services;
use crate::services::sessions::{self, EndReason};
use crate::web::ctx::Ctx;
use crate::web::extract::{AnyStaff, CsrfForm};
use crate::web::state::AppState;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use askama_web::WebTemplate;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/account/sessions", web::get().to(sessions_page))
        .route("/account/sessions/{id}/end", web::post().to(end_session));
}

/// One line of the list.
pub struct SessionLine {
    pub row: SessionRow,
    pub device: String,
    pub current: bool,
}

#[derive(Template, WebTemplate)]
#[template(path = "sessions.html")]
struct SessionsPage {
    c: Ctx,
    lines: Vec<SessionLine>,
}

async fn sessions_page(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: AnyStaff,
) -> AppResult<SessionsPage> {
    let c = ctx(&req, &st, &who.0).await?;
    let now = st.clock.now();
    let id = who.0.staff.id;
    let rows = st
        .run(move |_, conn| sessions::list_open(conn, now, id))
        .await?;
    let lines = rows
        .into_iter()
        .map(|row| SessionLine {
            device: sessions::device(&row.user_agent),
            current: row.id == who.0.claims.sid,
            row,
        })
        .collect();
    Ok(SessionsPage { c, lines })
}

async fn end_session(
    st: web::Data<AppState>,
    who: AnyStaff,
    path: web::Path<String>,
    _form: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let now = st.clock.now();
    let me = who.0.staff;
    let sid = path.into_inner();
    let this_one = sid == who.0.claims.sid;
    st.write(move |_, c| {
        let actor = services::staff::actor(&me);
        sessions::end(c, now, &actor, me.id, &sid, EndReason::EndedByOwner)
    })
    .await?;
    // Ending the session in use is signing out.
    Ok(see_other(if this_one {
        "/login"
    } else {
        "/account/sessions"
    }))
}
