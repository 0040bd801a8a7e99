//! A running table's limits on the pages (PT-2007 22, BSOP 34): the floor approves a change
//! from the table's panel on the board (`/floor?table=N`) or cancels it; the dealer confirms
//! on the tablet that it was announced to the players. The same services as the JSON API.

use super::floor::act_said;
use super::floor_board::Said;
use super::table_side::money_field;
use super::tablet::tablet_act;
use crate::domain::ids::TableId;
use crate::domain::limits::{time_of_day, Effective, Limits};
use crate::domain::FieldError;
use crate::error::{AppError, AppResult};
use crate::services;
use crate::web::extract::{CsrfForm, DealerStaff, FloorStaff};
use crate::web::state::AppState;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/floor/tables/{id}/limits", web::post().to(propose))
        .route("/floor/limit-changes/{id}/cancel", web::post().to(cancel))
        .route(
            "/tablet/limit-changes/{id}/announced",
            web::post().to(announced),
        );
}

/// The panel's form: the new limits as typed (the room's currency) and when they apply.
#[derive(Deserialize, Default)]
struct LimitsForm {
    #[serde(default)]
    small_blind: String,
    #[serde(default)]
    big_blind: String,
    #[serde(default)]
    buy_in_min: String,
    /// Empty: no maximum.
    #[serde(default)]
    buy_in_max: String,
    /// `next_hand` (the default) or `at`.
    #[serde(default)]
    effective: String,
    /// HH:MM in the room's zone (with `effective=at`).
    #[serde(default)]
    at: String,
}

impl LimitsForm {
    /// The typed values, every refused field at once (422).
    fn parse(
        &self,
        currency: &str,
        now: chrono::DateTime<chrono::Utc>,
        tz: chrono_tz::Tz,
    ) -> AppResult<(Limits, Effective)> {
        let mut errs: Vec<FieldError> = Vec::new();
        let mut money = |field: &str, s: &str| match money_field(field, s, currency) {
            Ok(v) => v,
            Err(AppError::Validation(v)) => {
                errs.extend(v);
                0
            }
            Err(_) => 0,
        };
        let small_blind = money("small_blind", &self.small_blind);
        let big_blind = money("big_blind", &self.big_blind);
        let buy_in_min = money("buy_in_min", &self.buy_in_min);
        let buy_in_max =
            (!self.buy_in_max.trim().is_empty()).then(|| money("buy_in_max", &self.buy_in_max));
        let effective = if self.effective.trim() == "at" {
            match chrono::NaiveTime::parse_from_str(self.at.trim(), "%H:%M") {
                Ok(t) => Effective::At(time_of_day(now, tz, t)),
                Err(_) => {
                    errs.push(FieldError::new("effective_at", "limits-err-time"));
                    Effective::NextHand
                }
            }
        } else {
            Effective::NextHand
        };
        if !errs.is_empty() {
            return Err(AppError::Validation(errs));
        }
        Ok((
            Limits {
                small_blind,
                big_blind,
                buy_in_min,
                buy_in_max,
            },
            effective,
        ))
    }
}

/// The floor approves new limits for a table in play (BSOP 34), from the next hand or a
/// stated time (PT-2007 22); back to the table's panel, which shows it pending.
async fn propose(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<TableId>,
    form: CsrfForm<LimitsForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let f = form.0;
    let horizon = st.config.room.limit_change_horizon_hours;
    act_said(&req, &st, &who, String::new(), move |conn, a| {
        let (to, effective) = f.parse(&a.room.currency, a.now, a.room.tz)?;
        let c = services::limits::propose(conn, a, id, &to, effective, horizon)?;
        let number = services::games::get_table(conn, c.table_id)?.number;
        // Nobody seated: nothing to announce, the limits are in force already.
        let key = if c.state == crate::domain::states::LimitChangeState::Applied {
            "limits-done-applied"
        } else {
            "limits-done-approved"
        };
        Ok(Said::new(key).arg("table", number))
    })
    .await
}

#[derive(Deserialize, Default)]
struct CancelForm {
    #[serde(default)]
    reason: String,
}

/// The floor cancels a pending change: the table keeps its limits.
async fn cancel(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<i64>,
    form: CsrfForm<CancelForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let reason = form.0.reason;
    act_said(&req, &st, &who, String::new(), move |conn, a| {
        let c = services::limits::cancel(conn, a, id, &reason)?;
        let number = services::games::get_table(conn, c.table_id)?.number;
        Ok(Said::new("limits-done-cancelled").arg("table", number))
    })
    .await
}

#[derive(Deserialize)]
struct Empty {}

/// The dealer confirms on the tablet that the change was announced to the players
/// (PT-2007 22): audited; it takes effect at the first hand once due.
async fn announced(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    path: web::Path<TableId>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    tablet_act(&req, &st, &who, move |conn, t, act| {
        services::limits::announce(conn, act, id.get(), Some(t.table_id)).map(|_| ())
    })
    .await
}
