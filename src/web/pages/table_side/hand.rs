//! A new hand at the table.

use super::seat::money_field;
use crate::error::{AppError, AppResult};
use crate::services::table_side::{self};
use crate::web::extract::{CsrfForm, DealerStaff};
use crate::web::state::AppState;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;

#[derive(Deserialize, Default)]
pub(super) struct HandForm {
    #[serde(default)]
    pot: String,
    #[serde(default)]
    rake: String,
    #[serde(default)]
    preflop_no_bet: Option<String>,
    /// BSOP 90: 1 to 3 (empty: 1).
    #[serde(default)]
    boards: String,
}

/// An optional amount typed in a tablet field (empty: none).
fn opt_money(field: &str, s: &str, currency: &str) -> AppResult<Option<i64>> {
    if s.trim().is_empty() {
        Ok(None)
    } else {
        money_field(field, s, currency).map(Some)
    }
}

/// The "hand over" tap: the next hand is dealt; for a game that takes its cagnotte per hand,
/// the ended hand's pot and rake typed with it are checked and recorded (PT-2007 7a).
pub(super) async fn hand(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    form: CsrfForm<HandForm>,
) -> AppResult<HttpResponse> {
    let f = form.0;
    crate::web::pages::tablet::tablet_act(&req, &st, &who, move |conn, t, act| {
        let room = crate::services::room::get(conn)?;
        let cur = &room.currency;
        let result = crate::services::cagnotte::HandResult {
            pot: opt_money("pot", &f.pot, cur)?,
            rake: opt_money("rake", &f.rake, cur)?,
            preflop_no_bet: f.preflop_no_bet.as_deref().is_some_and(|v| !v.is_empty()),
            boards: match f.boards.trim() {
                "" | "1" => None,
                b => Some(
                    b.parse()
                        .map_err(|_| AppError::field("boards", "err-number"))?,
                ),
            },
        };
        table_side::new_hand(conn, act, t.table_id, &result).map(|_| ())
    })
    .await
}
