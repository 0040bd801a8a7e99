//! The dealer's actions at a seat, from the tablet (each refused with the rule's reason and
//! nothing changed), and the floor's side of them: requests from the tables, chips in custody.

use super::{ctx, render, see_other};
use crate::db::audit::Actor;
use crate::db::models::{CustodyRow, PlayerRow, TabletRow};
use crate::domain::money::parse_money;
use crate::domain::seat_rules::Blind;
use crate::domain::states::CustodyState;
use crate::domain::FieldError;
use crate::error::{AppError, AppResult};
use crate::services::table_side::{self, SeatedView, TableSideView};
use crate::services::Act;
use crate::services::Acting;
use crate::services::{self};
use crate::web::ctx::{Ctx, Errs, Vals};
use crate::web::extract::{ActingAs, AnyStaff, CsrfForm, DealerStaff, FloorStaff};
use crate::web::state::AppState;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/tablet/seats/{id}", web::get().to(seat_page))
        .route("/tablet/seats/{id}/chips", web::post().to(chips))
        .route("/tablet/seats/{id}/count", web::post().to(count))
        .route("/tablet/seats/{id}/cash-out", web::post().to(cash_out))
        .route("/tablet/seats/{id}/transfer", web::post().to(transfer))
        .route("/tablet/seats/{id}/away", web::post().to(away))
        .route("/tablet/seats/{id}/back", web::post().to(back))
        .route("/tablet/seats/{id}/missed", web::post().to(missed))
        .route("/tablet/seats/{id}/settled", web::post().to(settled))
        .route("/tablet/seats/{id}/extend", web::post().to(extend))
        .route("/tablet/seats/{id}/flags", web::post().to(flags))
        .route("/tablet/seats/{id}/remove", web::post().to(remove))
        .route("/tablet/custody/{id}/confirm", web::post().to(confirm))
        .route("/tablet/custody/{id}/cancel", web::post().to(cancel))
        .route("/tablet/hand", web::post().to(hand))
        .route("/tablet/dues/{id}/collect", web::post().to(collect_due))
        .route("/tablet/tips", web::post().to(tip))
        .route("/tablet/drop-box", web::post().to(drop_box))
        .route("/tablet/commission", web::post().to(commission))
        .route("/tablet/shift/end", web::post().to(end_shift))
        .route("/tablet/service", web::post().to(service))
        .route("/floor/service/{id}/handled", web::post().to(floor_handled))
        .route(
            "/floor/buyins/{id}/approve",
            web::post().to(floor_approve_chips),
        )
        .route("/floor/custody", web::get().to(floor_custody))
        .route("/floor/custody/{id}/confirm", web::post().to(floor_confirm))
        .route("/floor/custody/{id}/resolve", web::post().to(floor_resolve));
}

/// An amount typed in a form, in the room's currency.
pub fn money_field(field: &str, s: &str, currency: &str) -> AppResult<i64> {
    if s.trim().is_empty() {
        return Err(AppError::field(field, "err-required"));
    }
    parse_money(s, currency).ok_or_else(|| AppError::field(field, "err-money"))
}

fn is_supervisor(role: &str) -> bool {
    matches!(role, "admin" | "floor")
}

/// Another table of the same game and limit (BSOP 27, 58; its limits now, PT-2007 22), where
/// a player may move with their stack.
pub struct Sibling {
    pub id: i64,
    pub number: i32,
}

#[derive(Template)]
#[template(path = "tablet/seat.html")]
struct SeatPage {
    c: Ctx,
    tablet: TabletRow,
    v: TableSideView,
    s: SeatedView,
    siblings: Vec<Sibling>,
    problem: Option<String>,
    errs: Errs,
    vals: Vals,
    /// The last event when the page was rendered: its live stream starts there.
    since: i64,
    /// After the first tap on "Cash out": the receipt it would give, to confirm (a second tap).
    cash_out: Option<table_side::CashOutReceipt>,
}

async fn load(
    st: &AppState,
    table_id: i64,
    now: DateTime<Utc>,
) -> AppResult<(TableSideView, Vec<Sibling>, i64)> {
    st.run(move |_, conn| {
        let since = crate::web::stream::last_seq(conn)?;
        let room = services::room::get(conn)?;
        let v = table_side::view(conn, now, &room.profile, table_id)?;
        let siblings = table_side::sibling_tables(conn, &v)?
            .into_iter()
            .map(|(id, number)| Sibling { id, number })
            .collect();
        Ok((v, siblings, since))
    })
    .await
}

// The seat page again with the typed values, the refusal and the receipt asked for.
#[allow(clippy::too_many_arguments)]
async fn render_seat(
    req: &HttpRequest,
    st: &AppState,
    who: &DealerStaff,
    tablet: TabletRow,
    seating_id: i64,
    status: StatusCode,
    problem: Option<String>,
    errs: Errs,
    vals: Vals,
    cash_out: Option<table_side::CashOutReceipt>,
) -> AppResult<HttpResponse> {
    let c = ctx(req, st, &who.0).await?;
    let (v, siblings, since) = load(st, tablet.table_id, c.now).await?;
    // The seat is gone (the player left): back to the table.
    let Some(s) = v.seated(seating_id).cloned() else {
        if problem.is_some() {
            return super::tablet::table_page_with(req, st, &who.0, tablet, status, problem).await;
        }
        return Ok(see_other("/tablet"));
    };
    render(
        status,
        &SeatPage {
            c,
            tablet,
            v,
            s,
            siblings,
            problem,
            errs,
            vals,
            since,
            cash_out,
        },
    )
}

async fn seat_page(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    let tablet = super::tablet::this_tablet(&req, &st).await?;
    let id = path.into_inner();
    // Another table's seat is not this tablet's to see; a seat just left: back to the table.
    let s = st.run(move |_, c| services::floor::seating(c, id)).await?;
    if s.table_id != tablet.table_id {
        return Err(AppError::NotFound);
    }
    if s.left_at.is_some() {
        return Ok(see_other("/tablet"));
    }
    render_seat(
        &req,
        &st,
        &who,
        tablet,
        id,
        StatusCode::OK,
        None,
        Errs::default(),
        Vals::default(),
        None,
    )
    .await
}

/// What a seat action needs from the request.
struct SeatAct {
    /// Who acts, when, and the room.
    act: Act,
    tablet: TabletRow,
    supervisor: bool,
    /// When the dealer tapped (`tapped_at` within the room's bound; else `now`).
    tapped: DateTime<Utc>,
}

/// Runs one seat action for this tablet's table in a write transaction. Success goes to
/// `then` (the table, or back to the seat); a refusal shows the seat again with the reason
/// (and the typed values), nothing changed.
async fn seat_act<F, V>(
    req: &HttpRequest,
    st: &AppState,
    who: &DealerStaff,
    seating_id: i64,
    vals: &V,
    then: Then,
    f: F,
) -> AppResult<HttpResponse>
where
    F: FnOnce(&mut crate::db::DbConn, &SeatAct) -> AppResult<()> + Send + 'static,
    V: Serialize,
{
    let tablet = super::tablet::this_tablet(req, st).await?;
    let room = st.run(|_, c| services::room::get(c)).await?;
    let now = st.clock.now();
    let tapped_at = super::tap::tapped_at(req);
    let tapped = match table_side::when_tapped(&room, tapped_at.as_deref(), now) {
        Ok(t) => t,
        Err(e) => return refused(req, st, who, tablet, seating_id, e, Vals::of(vals)).await,
    };
    let act = SeatAct {
        act: Acting::new(now, services::staff::actor(&who.0.staff)).with_room(room),
        tablet: tablet.clone(),
        supervisor: is_supervisor(&who.0.staff.role),
        tapped,
    };
    let r = st.write(move |_, conn| f(conn, &act)).await;
    match r {
        Ok(()) => {
            let to = match then {
                Then::Table => "/tablet".to_string(),
                Then::Seat => format!("/tablet/seats/{seating_id}"),
                Then::Receipt => format!("/tablet?receipt={seating_id}#cash-out-receipt"),
            };
            if super::tap::queued(req) {
                return Ok(super::tap::applied(&to));
            }
            Ok(see_other(&to))
        }
        Err(e) => refused(req, st, who, tablet, seating_id, e, Vals::of(vals)).await,
    }
}

#[derive(Clone, Copy)]
enum Then {
    Table,
    Seat,
    /// The table, with the receipt of the seating just cashed out on top.
    Receipt,
}

/// A seat action refused, nothing changed: the seat again with the reason (a tap from the
/// tablet's queue: the reason in JSON).
async fn refused(
    req: &HttpRequest,
    st: &AppState,
    who: &DealerStaff,
    tablet: TabletRow,
    seating_id: i64,
    e: AppError,
    vals: Vals,
) -> AppResult<HttpResponse> {
    match e {
        AppError::Conflict(_)
        | AppError::Validation(_)
        | AppError::NotFound
        | AppError::Forbidden(_)
        | AppError::Unauthorized(_)
        | AppError::TooManyRequests(_) => {
            let lang = crate::web::ctx::request_lang(req);
            let (message, _) = crate::web::errors::describe(&st.i18n, lang, &e);
            let fields: Vec<FieldError> = match &e {
                AppError::Validation(fs) => fs.clone(),
                _ => Vec::new(),
            };
            let c = ctx(req, st, &who.0).await?;
            let errs = c.errors(&fields);
            let problem = if errs.any() {
                errs.all().join(" ")
            } else {
                message
            };
            let status = actix_web::ResponseError::status_code(&e);
            if super::tap::queued(req) {
                return Ok(super::tap::refused(status, &problem));
            }
            render_seat(
                req,
                st,
                who,
                tablet,
                seating_id,
                status,
                Some(problem),
                errs,
                vals,
                None,
            )
            .await
        }
        e => Err(e),
    }
}

#[derive(Deserialize, Serialize, Default)]
struct ChipsForm {
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
async fn chips(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    path: web::Path<i64>,
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
struct StackForm {
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

async fn count(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    path: web::Path<i64>,
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
struct CashOutForm {
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
async fn cash_out(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    path: web::Path<i64>,
    form: CsrfForm<CashOutForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let f = form.0;
    let (stack, reason) = (f.stack.clone(), f.override_reason.clone());
    if f.confirm.trim() != "1" {
        let tablet = super::tablet::this_tablet(&req, &st).await?;
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
struct TransferForm {
    #[serde(default)]
    table_id: String,
    #[serde(default)]
    stack: String,
    #[serde(default)]
    cave_lost: Option<String>,
}

/// BSOP 27, 58; PT-2007 26: a change of table with the whole stack.
async fn transfer(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    path: web::Path<i64>,
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
            to,
            stack,
            cave_lost,
            Some(a.tablet.table_id),
        )
        .map(|_| ())
    })
    .await
}

#[derive(Deserialize, Serialize, Default)]
struct Empty {}

async fn away(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    path: web::Path<i64>,
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

async fn back(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    path: web::Path<i64>,
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
        move |conn, a| table_side::back(conn, &a.act, id, Some(a.tablet.table_id)).map(|_| ()),
    )
    .await
}

#[derive(Deserialize, Serialize, Default)]
struct MissedForm {
    #[serde(default)]
    blind: String,
}

async fn missed(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    path: web::Path<i64>,
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

async fn settled(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    path: web::Path<i64>,
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
struct ExtendForm {
    #[serde(default)]
    minutes: String,
    #[serde(default)]
    reason: String,
}

/// BSOP 36: a floor manager extends an absence, with a reason.
async fn extend(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    path: web::Path<i64>,
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
struct FlagsForm {
    #[serde(default)]
    resting: Option<String>,
    #[serde(default)]
    no_bet: Option<String>,
}

/// PT-2007 13, 89: resting / no bet this hand (each button sends the value it sets).
async fn flags(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    path: web::Path<i64>,
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

#[derive(Deserialize, Serialize, Default)]
struct RemoveForm {
    #[serde(default)]
    amount: String,
    #[serde(default)]
    storage: String,
}

/// BSOP 36: the first count of an absent player's chips.
async fn remove(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    path: web::Path<i64>,
    form: CsrfForm<RemoveForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let f = form.0;
    let (amount, storage) = (f.amount.clone(), f.storage.clone());
    seat_act(&req, &st, &who, id, &f, Then::Seat, move |conn, a| {
        let amount = money_field("amount", &amount, &a.act.room.currency)?;
        table_side::start_removal(conn, &a.act, id, amount, &storage, Some(a.tablet.table_id))
            .map(|_| ())
    })
    .await
}

#[derive(Deserialize, Serialize, Default)]
struct ConfirmForm {
    #[serde(default)]
    amount: String,
    #[serde(default)]
    username: String,
    #[serde(default, skip_serializing)]
    password: String,
}

/// The second staff member: signs in on the same screen (username + password) without
/// replacing the dealer's session, or is the one signed in (a floor manager at the tablet).
async fn second_staff(
    req: &HttpRequest,
    st: &AppState,
    who: &crate::web::extract::Authed,
    username: &str,
    password: &str,
) -> AppResult<Actor> {
    if username.trim().is_empty() {
        return Ok(services::staff::actor(&who.staff));
    }
    let address = crate::web::client::client_ip(req, &st.config.server.trusted_proxies).to_string();
    let staff = st
        .check_credentials(username.to_string(), password.to_string(), address)
        .await??;
    if !staff.active {
        return Err(AppError::Unauthorized(crate::domain::Problem::new(
            "err-login-failed",
        )));
    }
    Ok(services::staff::actor(&staff))
}

async fn confirm(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    path: web::Path<i64>,
    form: CsrfForm<ConfirmForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let f = form.0;
    let tablet = super::tablet::this_tablet(&req, &st).await?;
    let seating_id = match st.run(move |_, c| table_side::custody(c, id)).await {
        Ok(c) if c.table_id == tablet.table_id => c.seating_id,
        Ok(_) | Err(AppError::NotFound) => return Err(AppError::NotFound),
        Err(e) => return Err(e),
    };
    let vals = Vals::of(&f);
    let second = match second_staff(&req, &st, &who.0, &f.username, &f.password).await {
        Ok(a) => a,
        Err(e) => return refused(&req, &st, &who, tablet, seating_id, e, vals).await,
    };
    let amount = f.amount.clone();
    let table_id = tablet.table_id;
    let acting = Acting::new(st.clock.now(), second);
    let r = st
        .write(move |_, conn| {
            let act = acting.in_room(conn)?;
            let amount = money_field("amount", &amount, &act.room.currency)?;
            table_side::confirm_removal(conn, &act, id, amount, Some(table_id)).map(|_| ())
        })
        .await;
    match r {
        Ok(()) => Ok(see_other("/tablet")),
        Err(e) => refused(&req, &st, &who, tablet, seating_id, e, vals).await,
    }
}

async fn cancel(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    path: web::Path<i64>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let tablet = super::tablet::this_tablet(&req, &st).await?;
    let seating_id = match st.run(move |_, c| table_side::custody(c, id)).await {
        Ok(c) if c.table_id == tablet.table_id => c.seating_id,
        Ok(_) | Err(AppError::NotFound) => return Err(AppError::NotFound),
        Err(e) => return Err(e),
    };
    seat_act(
        &req,
        &st,
        &who,
        seating_id,
        &Empty {},
        Then::Seat,
        move |conn, a| {
            table_side::cancel_removal(conn, &a.act, id, Some(a.tablet.table_id)).map(|_| ())
        },
    )
    .await
}

#[derive(Deserialize, Default)]
struct HandForm {
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
async fn hand(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    form: CsrfForm<HandForm>,
) -> AppResult<HttpResponse> {
    let f = form.0;
    super::tablet::tablet_act(&req, &st, &who, move |conn, t, act| {
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

/// The dealer collected a session's percentage from the player (PT-2007 7b).
async fn collect_due(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    path: web::Path<i64>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    super::tablet::tablet_act(&req, &st, &who, move |conn, t, act| {
        crate::services::cagnotte::collect(conn, act, id, None, Some(t.table_id)).map(|_| ())
    })
    .await
}

#[derive(Deserialize, Default)]
struct AmountForm {
    #[serde(default)]
    amount: String,
    #[serde(default)]
    end_shift: Option<String>,
}

/// Tips given at the table (PT-2007 5, 9d).
async fn tip(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    form: CsrfForm<AmountForm>,
) -> AppResult<HttpResponse> {
    let f = form.0;
    super::tablet::tablet_act(&req, &st, &who, move |conn, t, act| {
        let room = crate::services::room::get(conn)?;
        let amount = money_field("amount", &f.amount, &room.currency)?;
        crate::services::cagnotte::record_tip(conn, act, t.table_id, amount).map(|_| ())
    })
    .await
}

/// The drop box's total at the end of the shift (quick per-hand mode); the shift ends.
async fn drop_box(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    form: CsrfForm<AmountForm>,
) -> AppResult<HttpResponse> {
    let f = form.0;
    super::tablet::tablet_act(&req, &st, &who, move |conn, t, act| {
        let room = crate::services::room::get(conn)?;
        let amount = money_field("amount", &f.amount, &room.currency)?;
        let end = f.end_shift.as_deref().is_some_and(|v| !v.is_empty());
        crate::services::cagnotte::record_drop(conn, act, t.table_id, amount, end).map(|_| ())
    })
    .await
}

#[derive(Deserialize, Default)]
struct PayoutForm {
    #[serde(default)]
    payout: String,
}

/// MO-13 11: the commission on a winner's payout.
async fn commission(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    form: CsrfForm<PayoutForm>,
) -> AppResult<HttpResponse> {
    let f = form.0;
    super::tablet::tablet_act(&req, &st, &who, move |conn, t, act| {
        let room = crate::services::room::get(conn)?;
        let payout = money_field("payout", &f.payout, &room.currency)?;
        crate::services::cagnotte::record_commission(conn, act, t.table_id, payout, None)
            .map(|_| ())
    })
    .await
}

/// The dealer's shift at this table ends.
async fn end_shift(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    super::tablet::tablet_act(&req, &st, &who, move |conn, t, act| {
        crate::services::cagnotte::end_shift(conn, act, t.table_id).map(|_| ())
    })
    .await
}

#[derive(Deserialize)]
struct ServiceForm {
    #[serde(default)]
    kind: String,
    #[serde(default)]
    note: String,
}

/// A request to the floor (floor, chips; a decision is a ruling, `pages::rulings`).
async fn service(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    form: CsrfForm<ServiceForm>,
) -> AppResult<HttpResponse> {
    let f = form.0;
    super::tablet::tablet_act(&req, &st, &who, move |conn, t, act| {
        table_side::request_service(conn, act, t.table_id, &f.kind, &f.note).map(|_| ())
    })
    .await
}

// ---- the floor's side -------------------------------------------------------------------------

async fn floor_handled(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<i64>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    st.write(move |_, conn| {
        let act = &acting.in_room(conn)?;
        table_side::handle_service(conn, act, id)
    })
    .await?;
    Ok(see_other("/floor"))
}

/// BSOP 28: the floor lets chips that arrived during the hand play in it.
async fn floor_approve_chips(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<i64>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    st.write(move |_, conn| {
        let act = &acting.in_room(conn)?;
        table_side::approve_chips(conn, act, id)
    })
    .await?;
    Ok(see_other("/floor"))
}

#[derive(Template)]
#[template(path = "floor/custody.html")]
struct CustodyPage {
    c: Ctx,
    rows: Vec<(CustodyRow, PlayerRow, i32)>,
    problem: Option<String>,
}

fn may_keep_custody(role: &str) -> bool {
    matches!(role, "admin" | "floor" | "cashier")
}

async fn custody_page(
    req: &HttpRequest,
    st: &AppState,
    who: &AnyStaff,
    status: StatusCode,
    problem: Option<String>,
) -> AppResult<HttpResponse> {
    if !may_keep_custody(&who.0.staff.role) {
        return Err(AppError::Forbidden(crate::domain::Problem::new(
            "err-forbidden",
        )));
    }
    let c = ctx(req, st, &who.0).await?;
    let rows = st
        .run(|_, conn| table_side::custody_list(conn, true))
        .await?;
    render(status, &CustodyPage { c, rows, problem })
}

/// Chips in custody: counts waiting for a second person, chips held, and what became of them.
async fn floor_custody(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: AnyStaff,
) -> AppResult<HttpResponse> {
    custody_page(&req, &st, &who, StatusCode::OK, None).await
}

async fn custody_refused(
    req: &HttpRequest,
    st: &AppState,
    who: &AnyStaff,
    e: AppError,
) -> AppResult<HttpResponse> {
    match e {
        AppError::Conflict(_) | AppError::Validation(_) | AppError::NotFound => {
            let problem =
                crate::web::errors::refusal_text(&st.i18n, crate::web::ctx::request_lang(req), &e);
            custody_page(
                req,
                st,
                who,
                actix_web::ResponseError::status_code(&e),
                Some(problem),
            )
            .await
        }
        e => Err(e),
    }
}

#[derive(Deserialize)]
struct FloorConfirmForm {
    #[serde(default)]
    amount: String,
}

/// A floor manager (signed in as themselves) is the second person to count.
async fn floor_confirm(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: AnyStaff,
    path: web::Path<i64>,
    form: CsrfForm<FloorConfirmForm>,
) -> AppResult<HttpResponse> {
    if !may_keep_custody(&who.0.staff.role) {
        return Err(AppError::Forbidden(crate::domain::Problem::new(
            "err-forbidden",
        )));
    }
    let id = path.into_inner();
    let now = st.clock.now();
    let actor = services::staff::actor(&who.0.staff);
    let amount = form.0.amount;
    let r = st
        .write(move |_, conn| {
            let act = Acting::new(now, actor).in_room(conn)?;
            let amount = money_field("amount", &amount, &act.room.currency)?;
            table_side::confirm_removal(conn, &act, id, amount, None).map(|_| ())
        })
        .await;
    match r {
        Ok(()) => Ok(see_other("/floor/custody")),
        Err(e) => custody_refused(&req, &st, &who, e).await,
    }
}

#[derive(Deserialize)]
struct ResolveForm {
    #[serde(default)]
    how: String,
    #[serde(default)]
    note: String,
}

/// The player reclaimed the chips, or the cashier settled them.
async fn floor_resolve(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: ActingAs<AnyStaff>,
    path: web::Path<i64>,
    form: CsrfForm<ResolveForm>,
) -> AppResult<HttpResponse> {
    if !may_keep_custody(&who.who.0.staff.role) {
        return Err(AppError::Forbidden(crate::domain::Problem::new(
            "err-forbidden",
        )));
    }
    let id = path.into_inner();
    let acting = who.acting;
    let f = form.0;
    let r = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            table_side::resolve_custody(conn, act, id, &f.how, &f.note).map(|_| ())
        })
        .await;
    match r {
        Ok(()) => Ok(see_other("/floor/custody")),
        Err(e) => custody_refused(&req, &st, &who.who, e).await,
    }
}
