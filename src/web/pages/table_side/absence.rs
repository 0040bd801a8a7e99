//! Away and back, missed blinds and settling them, a supervisor's extension of an absence and
//! the hand flags (BSOP 36-39).

use super::seat::{seat_act, Then};
use crate::domain::ids::SeatingId;
use crate::domain::seat_rules::Blind;
use crate::domain::FieldError;
use crate::error::{AppError, AppResult};
use crate::services::table_side::{self};
use crate::web::extract::{CsrfForm, DealerStaff};
use crate::web::state::AppState;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};

#[derive(Deserialize, Serialize, Default)]
pub(super) struct Empty {}

pub(super) async fn away(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    path: web::Path<SeatingId>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    seat_act(
        &req,
        &st,
        &who,
        id,
        &Empty {},
        Then::Table,
        move |conn, a| {
            table_side::away(conn, &a.act, a.tapped, id, Some(a.tablet.table_id)).map(|_| ())
        },
    )
    .await
}

pub(super) async fn back(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    path: web::Path<SeatingId>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    seat_act(
        &req,
        &st,
        &who,
        id,
        &Empty {},
        Then::Table,
        move |conn, a| {
            table_side::back(conn, &a.act, a.tapped, id, Some(a.tablet.table_id)).map(|_| ())
        },
    )
    .await
}

#[derive(Deserialize, Serialize, Default)]
pub(super) struct MissedForm {
    #[serde(default)]
    blind: String,
}

pub(super) async fn missed(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    path: web::Path<SeatingId>,
    form: CsrfForm<MissedForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let f = form.0;
    let blind = f.blind.clone();
    seat_act(&req, &st, &who, id, &f, Then::Table, move |conn, a| {
        let blind = match blind.as_str() {
            "small" => Blind::Small,
            "big" => Blind::Big,
            _ => return Err(AppError::field("blind", "err-blind-kind")),
        };
        table_side::missed_blind(conn, &a.act, a.tapped, id, blind, Some(a.tablet.table_id))
            .map(|_| ())
    })
    .await
}

pub(super) async fn settled(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    path: web::Path<SeatingId>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    seat_act(
        &req,
        &st,
        &who,
        id,
        &Empty {},
        Then::Table,
        move |conn, a| {
            table_side::blinds_settled(conn, &a.act, id, Some(a.tablet.table_id)).map(|_| ())
        },
    )
    .await
}

#[derive(Deserialize, Serialize, Default)]
pub(super) struct ExtendForm {
    #[serde(default)]
    minutes: String,
    #[serde(default)]
    reason: String,
}

/// BSOP 36: a floor manager extends an absence, with a reason.
pub(super) async fn extend(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    path: web::Path<SeatingId>,
    form: CsrfForm<ExtendForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let f = form.0;
    let (minutes, reason) = (f.minutes.clone(), f.reason.clone());
    seat_act(&req, &st, &who, id, &f, Then::Table, move |conn, a| {
        let minutes: i64 = minutes.trim().parse().map_err(|_| {
            AppError::Validation(vec![FieldError::new("minutes", "err-range")
                .arg("min", 1)
                .arg("max", table_side::MAX_EXTENSION_MIN)])
        })?;
        table_side::extend_absence(
            conn,
            &a.act,
            a.supervisor,
            id,
            minutes,
            &reason,
            Some(a.tablet.table_id),
        )
        .map(|_| ())
    })
    .await
}

#[derive(Deserialize, Serialize, Default)]
pub(super) struct FlagsForm {
    #[serde(default)]
    resting: Option<String>,
    #[serde(default)]
    no_bet: Option<String>,
}

/// PT-2007 13, 89: resting / no bet this hand (each button sends the value it sets).
pub(super) async fn flags(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    path: web::Path<SeatingId>,
    form: CsrfForm<FlagsForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let f = form.0;
    let parse = |v: &Option<String>| v.as_deref().map(|v| matches!(v, "1" | "true" | "on"));
    let (resting, no_bet) = (parse(&f.resting), parse(&f.no_bet));
    seat_act(&req, &st, &who, id, &f, Then::Table, move |conn, a| {
        table_side::set_hand_flags(conn, &a.act, id, resting, no_bet, Some(a.tablet.table_id))
            .map(|_| ())
    })
    .await
}
