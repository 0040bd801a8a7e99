//! The special buttons on the dealer tablet (BSOP 115, 116): drawing where the Cucurucho or
//! the Macaca starts (again: with a reason), marking a seat in or out of a special hand, and
//! the Macaca's result. Each is refused with the rule's reason on the table page, nothing
//! changed (`services::special_buttons`).

use super::table_side::money_field;
use crate::domain::special_buttons::{MacacaOutcome, SpecialButton};
use crate::domain::FieldError;
use crate::error::{AppError, AppResult};
use crate::services::special_buttons as svc;
use crate::web::extract::{CsrfForm, DealerStaff};
use crate::web::state::AppState;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/tablet/special/{kind}/draw", web::post().to(draw))
        .route(
            "/tablet/special-hands/{id}/seats/{seat}",
            web::post().to(mark),
        )
        .route("/tablet/special-hands/{id}/macaca", web::post().to(macaca));
}

#[derive(Deserialize, Default)]
struct DrawForm {
    #[serde(default)]
    reason: Option<String>,
}

/// BSOP 115, 116: the dealer draws where a special button starts at this tablet's table.
async fn draw(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    path: web::Path<String>,
    form: CsrfForm<DrawForm>,
) -> AppResult<HttpResponse> {
    let kind: SpecialButton = path.into_inner().parse().map_err(|_| AppError::NotFound)?;
    let reason = form.0.reason;
    super::tablet::tablet_act(&req, &st, &who, move |conn, t, act| {
        svc::draw(conn, act, t.table_id, kind, reason.as_deref()).map(|_| ())
    })
    .await
}

#[derive(Deserialize, Default)]
struct MarkForm {
    /// `1`: takes part; `0`: does not.
    #[serde(default)]
    took_part: String,
}

/// BSOP 115, 116: a seat in or out of the special hand being played.
async fn mark(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    path: web::Path<(i64, i32)>,
    form: CsrfForm<MarkForm>,
) -> AppResult<HttpResponse> {
    let (id, seat) = path.into_inner();
    let took_part = matches!(form.0.took_part.as_str(), "1" | "true" | "on");
    super::tablet::tablet_act(&req, &st, &who, move |conn, t, act| {
        svc::mark(conn, act, t.table_id, id, seat, took_part).map(|_| ())
    })
    .await
}

#[derive(Deserialize, Default)]
struct MacacaForm {
    #[serde(default)]
    outcome: String,
    /// What she collected, typed in the room's currency (a win).
    #[serde(default)]
    collected: String,
}

/// BSOP 116: the Macaca's result, from the tablet.
async fn macaca(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    path: web::Path<i64>,
    form: CsrfForm<MacacaForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let f = form.0;
    super::tablet::tablet_act(&req, &st, &who, move |conn, t, act| {
        let room = &act.room;
        let outcome: MacacaOutcome = f.outcome.trim().parse().map_err(|_| {
            AppError::Validation(vec![FieldError::new("outcome", "err-choice")
                .arg("value", f.outcome.chars().take(40).collect::<String>())])
        })?;
        let collected = match outcome {
            MacacaOutcome::Won => Some(money_field("collected", &f.collected, &room.currency)?),
            MacacaOutcome::Lost => None,
        };
        svc::macaca_result(conn, act, t.table_id, id, outcome, collected).map(|_| ())
    })
    .await
}
