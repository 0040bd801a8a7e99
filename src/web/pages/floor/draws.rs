//! Recorded draws from the dashboard: the seats of a new game, the button, a special button's
//! starting seat, by suits, with an extra player; a draw's page and its JSON.

use super::act::{act_to, after_draw};
use super::lists::{Empty, ReasonForm};
use crate::domain::draw::DrawKind;
use crate::domain::ids::GameId;
use crate::domain::ids::TableId;
use crate::error::{AppError, AppResult};
use crate::services::{self};
use crate::web::ctx::Ctx;
use crate::web::extract::{CsrfForm, FloorStaff};
use crate::web::pages::{ctx, render};
use crate::web::state::AppState;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;

pub(super) async fn draw_seats(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<TableId>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    act_to(&req, &st, &who, move |conn, a| {
        services::draws::start_game(conn, a, id).map(|r| after_draw(r.draw.id))
    })
    .await
}

pub(super) async fn draw_button(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<TableId>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    act_to(&req, &st, &who, move |conn, a| {
        services::draws::button(conn, a, id).map(|(row, _)| after_draw(row.id))
    })
    .await
}

/// BSOP 115, 116: the floor draws where a special button starts (again: with a reason).
pub(super) async fn draw_special(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<(i64, String)>,
    form: CsrfForm<ReasonForm>,
) -> AppResult<HttpResponse> {
    let (id, kind) = path.into_inner();
    let kind: crate::domain::special_buttons::SpecialButton =
        kind.parse().map_err(|_| AppError::NotFound)?;
    let reason = form.0.reason;
    act_to(&req, &st, &who, move |conn, a| {
        services::special_buttons::draw(conn, a, TableId(id), kind, reason.as_deref())
            .map(|d| after_draw(d.draw.id))
    })
    .await
}

#[derive(Template)]
#[template(path = "floor/draw.html")]
pub(super) struct DrawPage {
    c: Ctx,
    v: services::draws::DrawView,
    /// When the draw was made, in the room's zone, to the second (a dispute is about minutes).
    when: String,
}

/// A recorded draw as a person reads it: who drew which card, the resulting order or seats,
/// the seed, and the replay (recomputed now from the seed and inputs with the domain code).
pub(super) async fn show_draw(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let c = ctx(&req, &st, &who.0).await?;
    let v = st
        .run(move |_, conn| services::draws::view(conn, id))
        .await?;
    let local = v.draw.created_at.and_utc().with_timezone(&c.tz);
    let when = match c.lang {
        crate::domain::player::Language::Pt => local.format("%d/%m/%Y %H:%M:%S"),
        crate::domain::player::Language::En => local.format("%d %b %Y %H:%M:%S"),
    };
    let when = format!("{when} ({})", c.tz);
    render(StatusCode::OK, &DrawPage { c, v, when })
}

/// The stored record, byte for byte as kept (kind, seed, inputs, result), as a download.
pub(super) async fn draw_json(
    st: web::Data<AppState>,
    _who: FloorStaff,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let row = st
        .run(move |_, conn| services::draws::get(conn, id))
        .await?;
    // The stored text is the whole record; pretty-printed when it parses, as kept otherwise
    // (a damaged record must still be downloadable to be examined).
    let body = serde_json::from_str::<serde_json::Value>(&row.inputs)
        .and_then(|v| serde_json::to_string_pretty(&v))
        .unwrap_or(row.inputs);
    Ok(HttpResponse::Ok()
        .content_type("application/json")
        .insert_header((
            actix_web::http::header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"draw-{id}.json\""),
        ))
        .body(body))
}

/// PT-2007 25: several empty open tables of a game are filled by a draw by suits.
pub(super) async fn draw_by_suits(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<GameId>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let game_id = path.into_inner();
    act_to(&req, &st, &who, move |conn, a| {
        services::draws::start_tables_by_suit(conn, a, game_id).map(|r| after_draw(r.draw.id))
    })
    .await
}

/// BSOP 50: the start-of-game draw with one extra player.
pub(super) async fn draw_seats_extra(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<TableId>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    act_to(&req, &st, &who, move |conn, a| {
        services::draws::start_game_with_extra(conn, a, id).map(|r| after_draw(r.draw.id))
    })
    .await
}
