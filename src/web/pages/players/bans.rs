//! Bans and separations from a player's page: banning, lifting a ban, separating two players
//! and removing a separation (BSOP 2, 10, 11, 47).

use crate::domain::ids::PlayerId;
use crate::error::{AppError, AppResult};
use crate::services::players::{self as svc, BanForm, ReasonForm, SeparationForm};
use crate::web::extract::{ActingAs, CsrfForm, FloorStaff};
use crate::web::pages::see_other;
use crate::web::state::AppState;
use actix_web::{web, HttpResponse};
use serde::Deserialize;

/// Small forms on the player page: an error is shown on its own page with a way back.
pub(super) async fn ban(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<PlayerId>,
    form: CsrfForm<BanForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    st.write(move |_, conn| {
        let act = &acting.in_room(conn)?;
        svc::ban(conn, act, id, &form.0)
    })
    .await?;
    Ok(see_other(&format!("/players/{id}#bans")))
}

pub(super) async fn lift(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<i64>,
    form: CsrfForm<ReasonForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    let row = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            svc::lift_ban(conn, act, id, &form.0)
        })
        .await?;
    Ok(see_other(&format!("/players/{}#bans", row.player_id)))
}

#[derive(Deserialize)]
pub(super) struct SeparatePage {
    /// The other player's number, or their document number.
    other: Option<String>,
    reason: Option<String>,
}

pub(super) async fn separate(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<PlayerId>,
    form: CsrfForm<SeparatePage>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    let f = form.0;
    st.write(move |_, conn| {
        let act = &acting.in_room(conn)?;
        let other = f.other.as_deref().map(str::trim).unwrap_or("");
        let other_id = if other.is_empty() {
            None
        } else {
            match svc::find_typed(conn, other)? {
                Some(id) => Some(id),
                None => return Err(AppError::field("other_player_id", "err-player-unknown")),
            }
        };
        svc::separate(
            conn,
            act,
            id,
            &SeparationForm {
                other_player_id: other_id,
                reason: f.reason,
            },
        )
    })
    .await?;
    Ok(see_other(&format!("/players/{id}#separations")))
}

#[derive(Deserialize)]
pub(super) struct Empty {}

pub(super) async fn unseparate(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<i64>,
    _f: CsrfForm<Empty>,
    q: web::Query<Back>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    let row = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            svc::remove_separation(conn, act, id)
        })
        .await?;
    let back = q
        .from
        .filter(|f| *f == row.player_a || *f == row.player_b)
        .unwrap_or(row.player_a);
    Ok(see_other(&format!("/players/{back}#separations")))
}

#[derive(Deserialize)]
pub(super) struct Back {
    from: Option<PlayerId>,
}
