//! Chips at a seat: rebuys, counting a stack, cashing out, moving to another table with the
//! stack.

use super::seat::{is_supervisor, money_field, refused, render_seat, seat_act, Then};
use crate::domain::ids::SeatingId;
use crate::domain::ids::TableId;
use crate::error::{AppError, AppResult};
use crate::services::table_side::{self};
use crate::services::Acting;
use crate::services::{self};
use crate::web::ctx::{Errs, Vals};
use crate::web::extract::{CsrfForm, DealerStaff};
use crate::web::state::AppState;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};

#[derive(Deserialize, Serialize, Default)]
pub(super) struct ChipsForm {
    #[serde(default)]
    stack: String,
    #[serde(default)]
    amount: String,
    /// BSOP 28: the chips reached the seat while a hand is played.
    #[serde(default)]
    during_hand: Option<String>,
    /// The stack (minor units) the tablet showed when the rebuy was typed: a newer count or
    /// rebuy in between refuses it.
    #[serde(default)]
    stack_was: String,
}

/// Buy-in (first chips of a seating) or rebuy (PT-2007 79).
pub(super) async fn chips(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    path: web::Path<SeatingId>,
    form: CsrfForm<ChipsForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let f = form.0;
    let (stack, amount) = (f.stack.clone(), f.amount.clone());
    let during_hand = f.during_hand.as_deref().is_some_and(|v| !v.is_empty());
    let stack_was = f.stack_was.clone();
    seat_act(&req, &st, &who, id, &f, Then::Table, move |conn, a| {
        table_side::check_stack_was(conn, &a.act.room, id, stack_was_field(&stack_was)?)?;
        let cur = &a.act.room.currency;
        let amount = money_field("amount", &amount, cur)?;
        let stack = if stack.trim().is_empty() {
            0
        } else {
            money_field("stack", &stack, cur)?
        };
        table_side::buy_chips(
            conn,
            &a.act,
            id,
            stack,
            amount,
            during_hand,
            Some(a.tablet.table_id),
        )
        .map(|_| ())
    })
    .await
}

#[derive(Deserialize, Serialize, Default)]
pub(super) struct StackForm {
    #[serde(default)]
    stack: String,
    /// The stack (minor units) the tablet showed when the count was typed: a newer count or
    /// rebuy in between refuses it.
    #[serde(default)]
    stack_was: String,
}

/// The `stack_was` a count or rebuy form carries (minor units; empty: not checked).
fn stack_was_field(s: &str) -> AppResult<Option<i64>> {
    let s = s.trim();
    if s.is_empty() {
        return Ok(None);
    }
    s.parse()
        .map(Some)
        .map_err(|_| AppError::field("stack_was", "err-number"))
}

pub(super) async fn count(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    path: web::Path<SeatingId>,
    form: CsrfForm<StackForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let f = form.0;
    let (stack, stack_was) = (f.stack.clone(), f.stack_was.clone());
    seat_act(&req, &st, &who, id, &f, Then::Seat, move |conn, a| {
        table_side::check_stack_was(conn, &a.act.room, id, stack_was_field(&stack_was)?)?;
        let stack = money_field("stack", &stack, &a.act.room.currency)?;
        table_side::count_stack(conn, &a.act, id, stack, Some(a.tablet.table_id)).map(|_| ())
    })
    .await
}

#[derive(Deserialize, Serialize, Default)]
pub(super) struct CashOutForm {
    #[serde(default)]
    stack: String,
    #[serde(default)]
    override_reason: String,
    /// `1` on the second tap (the confirmation under the receipt); anything else is the first.
    #[serde(default)]
    confirm: String,
}

/// BSOP 38: the player leaves with the counted stack (a floor override with a reason). Two
/// taps: the first checks the cash-out as the second would and shows its receipt (stack,
/// bought in, time played, result) with a confirmation, changing nothing; only the second
/// frees the seat and calls the next player. After it, the table with the receipt.
pub(super) async fn cash_out(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    path: web::Path<SeatingId>,
    form: CsrfForm<CashOutForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let f = form.0;
    let (stack, reason) = (f.stack.clone(), f.override_reason.clone());
    if f.confirm.trim() != "1" {
        let tablet = crate::web::pages::tablet::this_tablet(&req, &st).await?;
        let supervisor = is_supervisor(&who.0.staff.role);
        let acting = Acting::new(st.clock.now(), services::staff::actor(&who.0.staff));
        let table_id = tablet.table_id;
        let r = st
            .run(move |_, conn| {
                let act = acting.in_room(conn)?;
                let stack = money_field("stack", &stack, &act.room.currency)?;
                let reason = Some(reason.as_str()).filter(|r| !r.trim().is_empty());
                table_side::preview_cash_out(
                    conn,
                    &act,
                    supervisor,
                    id,
                    stack,
                    reason,
                    Some(table_id),
                )
            })
            .await;
        return match r {
            Ok(receipt) => {
                render_seat(
                    &req,
                    &st,
                    &who,
                    tablet,
                    id,
                    StatusCode::OK,
                    None,
                    Errs::default(),
                    Vals::of(&f),
                    Some(receipt),
                )
                .await
            }
            Err(e) => refused(&req, &st, &who, tablet, id, e, Vals::of(&f)).await,
        };
    }
    seat_act(&req, &st, &who, id, &f, Then::Receipt, move |conn, a| {
        let stack = money_field("stack", &stack, &a.act.room.currency)?;
        let reason = Some(reason.as_str()).filter(|r| !r.trim().is_empty());
        table_side::cash_out(
            conn,
            &a.act,
            a.supervisor,
            id,
            stack,
            reason,
            Some(a.tablet.table_id),
        )
        .map(|_| ())
    })
    .await
}

#[derive(Deserialize, Serialize, Default)]
pub(super) struct TransferForm {
    #[serde(default)]
    table_id: String,
    #[serde(default)]
    stack: String,
    #[serde(default)]
    cave_lost: Option<String>,
}

/// BSOP 27, 58; PT-2007 26: a change of table with the whole stack.
pub(super) async fn transfer(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    path: web::Path<SeatingId>,
    form: CsrfForm<TransferForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let f = form.0;
    let (to, stack, cave_lost) = (f.table_id.clone(), f.stack.clone(), f.cave_lost.is_some());
    seat_act(&req, &st, &who, id, &f, Then::Table, move |conn, a| {
        let to: i64 = to
            .trim()
            .parse()
            .map_err(|_| AppError::field("table_id", "err-table-unknown"))?;
        let stack = money_field("stack", &stack, &a.act.room.currency)?;
        table_side::transfer_with_stack(
            conn,
            &a.act,
            id,
            TableId(to),
            stack,
            cave_lost,
            Some(a.tablet.table_id),
        )
        .map(|_| ())
    })
    .await
}
