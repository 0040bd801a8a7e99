//! The player's link: shown as a QR code at the desk, sent again, revoked.

use super::bans::Empty;
use crate::db::models::PlayerRow;
use crate::domain::ids::PlayerId;
use crate::error::{AppError, AppResult};
use crate::services::players::{self as svc};
use crate::services::{self};
use crate::web::ctx::Ctx;
use crate::web::extract::{CsrfForm, FloorStaff};
use crate::web::pages::{ctx, see_other};
use crate::web::state::AppState;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;

#[derive(Template)]
#[template(path = "players/link.html")]
pub(super) struct LinkPage {
    c: Ctx,
    p: PlayerRow,
    url: String,
    qr: Option<String>,
    expires: chrono::DateTime<chrono::Utc>,
}

/// The player's link as a QR code on the desk's screen, for the player to scan. Making a link
/// is audited (`player.link_shown`): whoever holds it sees the player's page.
pub(super) async fn link_page(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<PlayerId>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let c = ctx(&req, &st, &who.0).await?;
    let now = c.now;
    let actor = services::staff::actor(&who.0.staff);
    let day_ends = st.config.room.gaming_day_ends;
    let (p, token, expires) = st
        .write(move |st, conn| {
            let p = svc::get(conn, id)?;
            let room = services::room::get(conn)?;
            let token = crate::notify::link::issue_for(conn, &st.keys, id, now, room.tz, day_ends)?;
            let expires = crate::notify::link::gaming_day_end(now, room.tz, day_ends);
            crate::db::audit::record::<(), _>(
                conn,
                now,
                &actor,
                "player.link_shown",
                "player",
                Some(id.get()),
                None,
                Some(&serde_json::json!({ "expires_at": expires })),
            )?;
            Ok((p, token, expires))
        })
        .await?;
    let url = crate::notify::link::url(&st.config.server.public_base, &token);
    let qr = crate::web::pages::tablet::qr_data_url(&url);
    crate::web::pages::render(
        actix_web::http::StatusCode::OK,
        &LinkPage {
            c,
            p,
            url,
            qr,
            expires,
        },
    )
}

/// The floor sends the player's link again by the player's channels (SMS / e-mail), through
/// the outbox. Refused when the player has no channel to be reached by.
pub(super) async fn link_send(
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<PlayerId>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let now = st.clock.now();
    let actor = services::staff::actor(&who.0.staff);
    st.write(move |_, conn| {
        let p = svc::get(conn, id)?;
        if crate::notify::messages::channels(&p).is_empty() {
            return Err(AppError::Conflict(crate::domain::Problem::new(
                "err-link-no-channel",
            )));
        }
        let ids = crate::notify::tell(conn, now, id, crate::notify::Kind::Link, |_, _| Ok(()))?;
        crate::db::audit::record::<(), _>(
            conn,
            now,
            &actor,
            "player.link_sent",
            "player",
            Some(id.get()),
            None,
            Some(&serde_json::json!({ "messages": ids })),
        )?;
        Ok(())
    })
    .await?;
    Ok(see_other(&format!("/players/{id}?link=sent")))
}

/// Every link of the player stops working at once (a lost phone, a link passed on).
pub(super) async fn links_revoke(
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<PlayerId>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let now = st.clock.now();
    let actor = services::staff::actor(&who.0.staff);
    st.write(move |_, conn| crate::notify::link::revoke_all(conn, now, &actor, id))
        .await?;
    Ok(see_other(&format!("/players/{id}?link=revoked")))
}
