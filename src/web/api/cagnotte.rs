//! The cagnotte's JSON API under `/api/v1`: the table's session and its dues,
//! collecting and exempting, tips, the drop box, commissions and the dealer's shift. Amounts
//! are integer minor units. Thin handlers over `services::cagnotte`: the same rules, refusals
//! and audit as the tablet and floor pages.

use crate::db::models::{CagnotteDueRow, CommissionRow, DropBoxRow, TipRow};
use crate::domain::cagnotte::SessionState;
use crate::domain::ids::PlayerId;
use crate::domain::ids::TableId;
use crate::domain::FieldError;
use crate::error::{AppError, AppResult};
use crate::services::cagnotte::{self, DueLine, SessionPanel};
use crate::services::{self};
use crate::web::extract::ActingAs;
use crate::web::extract::{AnyStaff, DealerStaff, FloorStaff};
use crate::web::json::ApiJson;
use crate::web::openapi::ErrorResponse;
use crate::web::state::AppState;
use actix_web::{web, HttpResponse};
// The route macros: utoipa reads the path and method from them (a bare name).
use actix_web::{get, post};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;

/// Registered inside the `/api/v1` scope: each handler carries its path and method
/// (`#[post(…)]`) and its documentation (`#[utoipa::path]`), registered together.
pub fn routes(cfg: &mut ServiceConfig) {
    cfg.service(table_cagnotte)
        .service(close_session)
        .service(list_dues)
        .service(collect)
        .service(exempt)
        .service(tip)
        .service(drop_box)
        .service(commission)
        .service(end_shift)
        .service(assign_dealer)
        .service(reports);
}

/// The room's report for a gaming day or a month (in the room's zone): per table, game,
/// dealer shift, gaming day and hour — cagnotte due, collected, exempted and the difference,
/// rake, drop boxes, commissions, tips, hours played, occupancy, hands per hour, list lengths,
/// waits and no-shows. The same figures as `/floor/reports` and its CSV files.
#[utoipa::path(
    tag = "cagnotte",
    params(crate::web::pages::reports::ReportQuery),
    responses((status = 200, body = crate::services::reports::Report), (status = 422, description = "A day, month, game or table the report cannot take (the parameter is named)", body = ErrorResponse))
)]
#[get("/reports")]
pub async fn reports(
    req: actix_web::HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    q: web::Query<crate::web::pages::reports::ReportQuery>,
) -> AppResult<HttpResponse> {
    // The report page's form sends empty fields for "not chosen"; an API client omits them.
    let empty: Vec<FieldError> = [
        ("day", &q.day),
        ("month", &q.month),
        ("game", &q.game),
        ("table", &q.table),
    ]
    .into_iter()
    .filter(|(_, v)| v.as_deref().is_some_and(|s| s.trim().is_empty()))
    .map(|(name, _)| FieldError::new(name, "err-empty-value"))
    .collect();
    if !empty.is_empty() {
        return Err(AppError::Validation(empty));
    }
    crate::web::pages::reports::json(req, st, who, q).await
}

fn utc(t: chrono::NaiveDateTime) -> DateTime<Utc> {
    t.and_utc()
}

/// What one player owes for one session (PT-2007 7b) and how it was settled.
#[derive(Debug, Serialize, ToSchema)]
pub struct DueOut {
    pub id: i64,
    pub session_id: i64,
    #[schema(value_type = i64)]
    pub table_id: TableId,
    pub table: i32,
    pub seat: i32,
    #[schema(value_type = i64)]
    pub player_id: PlayerId,
    pub alias: String,
    /// Minor units.
    pub amount: i64,
    /// Seated after the session started, within the late window.
    pub late: bool,
    pub due_at: DateTime<Utc>,
    /// due | collected | exempt
    pub state: String,
    pub collected: Option<i64>,
    pub settled_at: Option<DateTime<Utc>>,
    /// The floor's reason for an exemption.
    pub reason: Option<String>,
}

fn due_out(l: &DueLine) -> DueOut {
    let d = &l.due;
    DueOut {
        id: d.id,
        session_id: d.session_id,
        table_id: d.table_id,
        table: l.table,
        seat: d.seat_no,
        player_id: d.player_id,
        alias: l.alias.clone(),
        amount: d.amount,
        late: d.late,
        due_at: utc(d.due_at),
        state: d.state.to_string(),
        collected: d.collected,
        settled_at: d.settled_at.map(utc),
        reason: d.reason.clone(),
    }
}

/// The table's open cagnotte session (PT-2007 7b).
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = CagnotteSessionOut)]
pub struct SessionOut {
    pub id: i64,
    pub number: i32,
    pub started_at: DateTime<Utc>,
    /// running | finishing (the hour of play is up: the next hand over closes it)
    pub state: String,
    /// When the hour of play is (or was) up; none while a suspension that began inside the
    /// hour goes on.
    pub hour_up_at: Option<DateTime<Utc>>,
    /// Basis points of the base.
    pub percent_bp: i32,
    /// table_max | cave
    pub base: String,
    pub smallest_chip: i64,
    pub dues: Vec<DueOut>,
    /// Still to collect, minor units.
    pub to_collect: i64,
}

/// The table's cagnotte now: its open session (none for a game billed per hand, or before the
/// first hand).
#[derive(Debug, Serialize, ToSchema)]
pub struct TableCagnotteOut {
    #[schema(value_type = i64)]
    pub table_id: TableId,
    pub session: Option<SessionOut>,
}

fn session_out(p: &SessionPanel) -> SessionOut {
    let state = match p.state {
        SessionState::Running { .. } => "running",
        SessionState::Finishing { .. } => "finishing",
        SessionState::Closed { .. } => "closed",
    };
    SessionOut {
        id: p.session.id,
        number: p.session.number,
        started_at: utc(p.session.started_at),
        state: state.into(),
        hour_up_at: p.hour_up_at(),
        percent_bp: p.session.bp,
        base: p.session.base.clone(),
        smallest_chip: p.session.smallest_chip,
        dues: p.dues.iter().map(due_out).collect(),
        to_collect: p.to_collect(),
    }
}

#[utoipa::path(
    tag = "cagnotte",
    params(("id" = i64, Path, description = "Table id")),
    responses((status = 200, body = TableCagnotteOut), (status = 404, body = ErrorResponse))
)]
#[get("/tables/{id}/cagnotte")]
pub async fn table_cagnotte(
    st: web::Data<AppState>,
    _who: AnyStaff,
    path: web::Path<TableId>,
) -> AppResult<web::Json<TableCagnotteOut>> {
    let id = path.into_inner();
    let now = st.clock.now();
    let p = st
        .run(move |_, c| {
            services::games::get_table(c, id)?;
            cagnotte::panel(c, now, id)
        })
        .await?;
    Ok(web::Json(TableCagnotteOut {
        table_id: id,
        session: p.as_ref().map(session_out),
    }))
}

/// PT-2007 7b: the floor confirms the end of a session whose hour of play is up (409 before);
/// the next session starts now and its dues are returned.
#[utoipa::path(
    tag = "cagnotte",
    params(("id" = i64, Path, description = "Table id")),
    responses((status = 200, body = TableCagnotteOut), (status = 409, body = ErrorResponse))
)]
#[post("/tables/{id}/cagnotte/close")]
pub async fn close_session(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<TableId>,
) -> AppResult<web::Json<TableCagnotteOut>> {
    let id = path.into_inner();
    let now = who.acting.now;
    let acting = who.acting;
    let p = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            cagnotte::close_by_floor(c, act, id)?;
            cagnotte::panel(c, now, id)
        })
        .await?;
    Ok(web::Json(TableCagnotteOut {
        table_id: id,
        session: p.as_ref().map(session_out),
    }))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
pub struct DuesQuery {
    /// Only this table.
    #[param(value_type = Option<i64>)]
    pub table_id: Option<TableId>,
}

/// Dues not yet collected or exempted, oldest first.
#[utoipa::path(
    tag = "cagnotte",
    params(DuesQuery),
    responses((status = 200, body = Vec<DueOut>))
)]
#[get("/cagnotte/dues")]
pub async fn list_dues(
    st: web::Data<AppState>,
    _who: AnyStaff,
    q: web::Query<DuesQuery>,
) -> AppResult<web::Json<Vec<DueOut>>> {
    let table = q.table_id;
    let rows = st.run(move |_, c| cagnotte::open_dues(c, table)).await?;
    Ok(web::Json(rows.iter().map(due_out).collect()))
}

async fn line(st: &AppState, d: CagnotteDueRow) -> AppResult<DueOut> {
    let rows = st
        .run(move |_, c| {
            let alias = services::players::get(c, d.player_id)?.alias;
            let table = services::games::get_table(c, d.table_id)?.number;
            Ok(DueLine {
                due: d,
                alias,
                table,
            })
        })
        .await?;
    Ok(due_out(&rows))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct CollectRequest {
    /// What was taken, minor units; default: the amount due. More than due is refused (422).
    #[schema(minimum = 0)]
    pub amount: Option<i64>,
}

/// The dealer took the session's percentage (PT-2007 7b).
///
/// Taken from the player's chips at the table (PT-2007 9c): only while the player is seated
/// at the due's table; from a player who left, refused (409), the due left open for the floor.
#[utoipa::path(
    tag = "cagnotte",
    params(("id" = i64, Path, description = "Due id")),
    request_body = CollectRequest,
    responses((status = 200, body = DueOut), (status = 409, description = "Already collected or exempted, or the player is no longer seated at the due's table (`err-due-player-left`; the floor may exempt it): nothing written", body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[post("/cagnotte/dues/{id}/collect")]
pub async fn collect(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<i64>,
    body: ApiJson<CollectRequest>,
) -> AppResult<web::Json<DueOut>> {
    let id = path.into_inner();
    let acting = who.acting;
    let amount = body.amount;
    let d = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            cagnotte::collect(c, act, id, amount, None)
        })
        .await?;
    Ok(web::Json(line(&st, d).await?))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct ExemptRequest {
    /// Why the player does not pay this session (required, audited).
    #[schema(min_length = 1, max_length = 500, pattern = r"\S")]
    pub reason: String,
}

/// The floor exempts a player from a session's percentage, with a reason.
#[utoipa::path(
    tag = "cagnotte",
    params(("id" = i64, Path, description = "Due id")),
    request_body = ExemptRequest,
    responses((status = 200, body = DueOut), (status = 409, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[post("/cagnotte/dues/{id}/exempt")]
pub async fn exempt(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<i64>,
    body: ApiJson<ExemptRequest>,
) -> AppResult<web::Json<DueOut>> {
    let id = path.into_inner();
    let acting = who.acting;
    let reason = body.into_inner().reason;
    let d = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            cagnotte::exempt(c, act, id, &reason)
        })
        .await?;
    Ok(web::Json(line(&st, d).await?))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct AmountRequest {
    /// Minor units: 1 to 100,000,000 (1,000,000.00), else 422.
    #[schema(minimum = 1, maximum = 100000000)]
    pub amount: i64,
}

/// Tips given at the table (PT-2007 5, 9d), on the dealer's shift, apart from the cagnotte.
#[utoipa::path(
    tag = "cagnotte",
    params(("id" = i64, Path, description = "Table id")),
    request_body = AmountRequest,
    responses((status = 201, body = TipRow), (status = 422, body = ErrorResponse))
)]
#[post("/tables/{id}/tips")]
pub async fn tip(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<TableId>,
    body: ApiJson<AmountRequest>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    let amount = body.amount;
    let row = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            cagnotte::record_tip(c, act, id, amount)
        })
        .await?;
    Ok(HttpResponse::Created().json(row))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct DropBoxRequest {
    /// The drop box's total, minor units: 0 to 100,000,000 (1,000,000.00), else 422.
    #[schema(minimum = 0, maximum = 100000000)]
    pub amount: i64,
    /// End the dealer's shift with it.
    #[serde(default)]
    pub end_shift: bool,
}

/// The quick mode of per-hand rake: the drop box's total for the table at the end of a shift.
#[utoipa::path(
    tag = "cagnotte",
    params(("id" = i64, Path, description = "Table id")),
    request_body = DropBoxRequest,
    responses((status = 201, body = DropBoxRow), (status = 422, body = ErrorResponse))
)]
#[post("/tables/{id}/drop-box")]
pub async fn drop_box(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<TableId>,
    body: ApiJson<DropBoxRequest>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    // (`end_shift` is the route's name here: the handler below, a unit struct.)
    let DropBoxRequest {
        amount,
        end_shift: end,
    } = body.into_inner();
    let row = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            cagnotte::record_drop(c, act, id, amount, end)
        })
        .await?;
    Ok(HttpResponse::Created().json(row))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct CommissionRequest {
    /// The winner's payout, minor units: from 1 to a pot of the game (11 stacks of 100 maximum
    /// buy-ins; 1,100,000,000,000 without a maximum), else 422.
    #[schema(minimum = 1, maximum = 1100000000000_i64)]
    pub payout: i64,
    /// The winner (seated at this table), if recorded.
    #[schema(value_type = Option<i64>)]
    pub player_id: Option<PlayerId>,
}

/// MO-13 11: 2 % of a winner's payout in the 13-card game, for the current round.
#[utoipa::path(
    tag = "cagnotte",
    params(("id" = i64, Path, description = "Table id")),
    request_body = CommissionRequest,
    responses((status = 201, body = CommissionRow), (status = 409, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[post("/tables/{id}/commissions")]
pub async fn commission(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<TableId>,
    body: ApiJson<CommissionRequest>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    let CommissionRequest { payout, player_id } = body.into_inner();
    let row = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            cagnotte::record_commission(c, act, id, payout, player_id)
        })
        .await?;
    Ok(HttpResponse::Created().json(row))
}

/// The dealer's shift at the table ends.
#[utoipa::path(
    tag = "dealers",
    params(("id" = i64, Path, description = "Table id")),
    responses((status = 204), (status = 409, body = ErrorResponse))
)]
#[post("/tables/{id}/shift/end")]
pub async fn end_shift(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<TableId>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    st.write(move |_, c| {
        let act = &acting.in_room(c)?;
        cagnotte::end_shift(c, act, id)
    })
    .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Who deals at a table.
#[derive(Debug, Deserialize, ToSchema)]
pub struct AssignDealer {
    /// An active staff member with the dealer role.
    pub dealer_id: i64,
}

/// A dealer's shift at a table.
#[derive(Debug, Serialize, ToSchema)]
pub struct ShiftOut {
    pub id: i64,
    #[schema(value_type = i64)]
    pub table_id: TableId,
    pub dealer_id: i64,
    pub started_at: DateTime<Utc>,
}

/// A floor manager assigns a dealer to a table for this shift (ending whoever's shift was
/// open there): the dealer may then act at that table, and only there, through the API as
/// on the table's tablet.
#[utoipa::path(
    tag = "dealers",
    params(("id" = i64, Path, description = "Table id")),
    request_body = AssignDealer,
    responses(
        (status = 201, body = ShiftOut),
        (status = 403, body = ErrorResponse),
        (status = 404, body = ErrorResponse),
        (status = 422, description = "Not an active dealer", body = ErrorResponse),
    )
)]
#[post("/tables/{id}/dealer")]
pub async fn assign_dealer(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<TableId>,
    body: Result<ApiJson<AssignDealer>, actix_web::Error>,
) -> AppResult<HttpResponse> {
    let body = body?;
    let id = path.into_inner();
    let acting = who.acting;
    let dealer = body.dealer_id;
    let s = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            services::dealer_scope::assign(c, act, id, dealer)
        })
        .await?;
    Ok(HttpResponse::Created().json(ShiftOut {
        id: s.id,
        table_id: s.table_id,
        dealer_id: s.dealer_id,
        started_at: s.started_at.and_utc(),
    }))
}
