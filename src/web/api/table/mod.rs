//! The table side's JSON API under `/api/v1` (what the dealer tablet does, for any client):
//! the seats with chips, absence and buttons; seating with a buy-in; rebuys and counts;
//! cashing out; away/back and missed blinds; chip removal by two staff into custody; hands;
//! requests to the floor (rulings: `web::api::rulings`). Amounts are integer minor units. Thin handlers over
//! `services::table_side`: the same rules, refusals and audit as the tablet pages.

use crate::db::models::{
    BuyinRow, CustodyRow, FloorMessageRow, HandRow, SeatSideRow, ServiceRequestRow,
};
use crate::domain::seat_rules::{AbsenceStatus, Blind, ReturnObligation};
use crate::error::{AppError, AppResult};
use crate::services::table_side::{self, SeatedView, TableSideView};
use crate::services::{self};
use crate::web::extract::{ActingAs, AnyStaff, DealerStaff, FloorStaff};
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
    cfg.service(table_side_view)
        .service(acknowledge)
        .service(seat_with_buyin)
        .service(chips)
        .service(approve_chips)
        .service(count)
        .service(cash_out)
        .service(transfer_with_stack)
        .service(away)
        .service(back)
        .service(missed_blind)
        .service(blinds_settled)
        .service(extend_absence)
        .service(hand_flags)
        .service(start_removal)
        .service(list_custody)
        .service(confirm_removal)
        .service(cancel_removal)
        .service(resolve_custody)
        .service(new_hand)
        .service(request_service)
        .service(list_service_requests)
        .service(handle_service)
        .service(list_floor_messages)
        .service(send_floor_message)
        .service(floor_message_seen);
}

fn utc(t: chrono::NaiveDateTime) -> DateTime<Utc> {
    t.and_utc()
}

// ---- response types --------------------------------------------------------------------

/// One seat's chips and state (BSOP 26, 36, 38, 39; PT-2007 13, 79, 89, 90).
#[derive(Debug, Serialize, ToSchema)]
pub struct SeatSideOut {
    pub seating_id: i64,
    pub stack: i64,
    pub bought_in: i64,
    /// The stack counted when the player left (BSOP 26).
    pub taken_off: Option<i64>,
    pub away_since: Option<DateTime<Utc>>,
    pub away_extended_until: Option<DateTime<Utc>>,
    pub missed_sb: i32,
    pub missed_bb: i32,
    pub missed_blind_button: bool,
    pub absence_button: bool,
    pub resting: bool,
    pub no_bet: bool,
    /// The notice for the dealer (a rule message key, e.g. `rules-hands-post-bb`).
    pub notice: Option<String>,
}

fn side_out(s: &SeatSideRow) -> SeatSideOut {
    SeatSideOut {
        seating_id: s.id,
        stack: s.stack,
        bought_in: s.bought_in,
        taken_off: s.taken_off,
        away_since: s.away_since.map(utc),
        away_extended_until: s.away_extended_until.map(utc),
        missed_sb: s.missed_sb,
        missed_bb: s.missed_bb,
        missed_blind_button: s.missed_blind_button,
        absence_button: s.absence_button,
        resting: s.resting,
        no_bet: s.no_bet,
        notice: s.hand_notice.clone(),
    }
}

/// A seated player as the tablet shows them.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TabletSeatedOut)]
pub struct SeatedOut {
    pub seat_no: i32,
    pub player_id: i64,
    pub alias: String,
    pub sat_at: DateTime<Utc>,
    pub side: SeatSideOut,
    /// present | away | due_for_removal (BSOP 36)
    pub absence: String,
    /// Away: the chips may be removed from this instant (BSOP 36).
    pub removal_due_at: Option<DateTime<Utc>>,
    /// A removal count waiting for the second staff member.
    pub counting_custody_id: Option<i64>,
    /// PT-2007 79: below the table minimum.
    pub rebuy_needed: bool,
    /// BSOP 38: winning by the last count; may leave at this time.
    pub min_stay_until: Option<DateTime<Utc>>,
}

fn seated_out(v: &SeatedView) -> SeatedOut {
    let (absence, due) = match v.absence {
        AbsenceStatus::Present => ("present", None),
        AbsenceStatus::Away { due_at } => ("away", Some(due_at)),
        AbsenceStatus::DueForRemoval { .. } => ("due_for_removal", None),
    };
    SeatedOut {
        seat_no: v.seating.seat_no,
        player_id: v.player.id,
        alias: v.player.alias.clone(),
        sat_at: utc(v.seating.sat_at),
        side: side_out(&v.side),
        absence: absence.into(),
        removal_due_at: due,
        counting_custody_id: v.counting.as_ref().map(|c| c.id),
        rebuy_needed: v.rebuy_needed,
        min_stay_until: v.min_stay_until,
    }
}

/// What a called player must buy in for (BSOP 26, 37; PT-2007 28, 78).
#[derive(Debug, Serialize, ToSchema)]
pub struct BuyinRequirementOut {
    pub min: i64,
    pub max: Option<i64>,
    pub exact: Option<i64>,
    /// The rule that set it (absent: the game's range).
    pub rule: Option<String>,
}

/// An open seat call with the buy-in required (none for a move: the player brings the stack).
#[derive(Debug, Serialize, ToSchema)]
pub struct CallSideOut {
    pub call_id: i64,
    pub seat_no: i32,
    pub player_id: i64,
    pub alias: String,
    /// list | must_move | seat_change
    pub source: String,
    /// pending | acknowledged
    pub state: String,
    pub respond_by: DateTime<Utc>,
    pub buyin: Option<BuyinRequirementOut>,
}

/// A table as its tablet shows it.
#[derive(Debug, Serialize, ToSchema)]
pub struct TableSideOut {
    pub table_id: i64,
    pub table_number: i32,
    pub state: String,
    pub button_seat: Option<i32>,
    /// BSOP 57: the seats on the button and in the small blind.
    pub protected_seats: Vec<i32>,
    pub seated: Vec<SeatedOut>,
    pub calls: Vec<CallSideOut>,
    pub hands_last_24h: i64,
    /// PT-2007 22, BSOP 34: the limits in force at the table, and the change pending (to be
    /// announced, then applied at the first hand once due).
    pub limits: Option<crate::web::api::limits::LimitsOut>,
    pub limit_change: Option<crate::web::api::limits::LimitChangeOut>,
    pub open_requests: Vec<ServiceRequestOut>,
    /// Messages from the floor the dealer has not marked seen yet, oldest first.
    pub unseen_messages: Vec<FloorMessageOut>,
    /// BSOP 16-22: the table's rulings still open (or whose chips wait for a second staff
    /// member) and those decided in the last two hours, newest first.
    pub rulings: Vec<crate::web::api::rulings::RulingOut>,
}

fn table_out(v: &TableSideView) -> TableSideOut {
    TableSideOut {
        table_id: v.table.id,
        table_number: v.table.number,
        state: v.table.state.to_string(),
        button_seat: v.table.button_seat,
        protected_seats: v.protected.clone(),
        seated: v
            .seats
            .iter()
            .filter_map(|s| s.seated.as_ref())
            .map(seated_out)
            .collect(),
        calls: v
            .calls
            .iter()
            .map(|c| CallSideOut {
                call_id: c.call.id,
                seat_no: c.call.seat_no,
                player_id: c.player.id,
                alias: c.player.alias.clone(),
                source: c.call.source.to_string(),
                state: c.call.state.to_string(),
                respond_by: utc(c.call.respond_by),
                buyin: c.requirement.map(|r| BuyinRequirementOut {
                    min: r.min,
                    max: r.max,
                    exact: r.exact,
                    rule: r.rule.map(str::to_string),
                }),
            })
            .collect(),
        hands_last_24h: v.hands_today,
        limits: v.limits.map(Into::into),
        limit_change: v
            .limit_change
            .as_ref()
            .map(crate::web::api::limits::change_out),
        open_requests: v
            .requests
            .iter()
            .map(|r| service_out(r, v.table.number))
            .collect(),
        unseen_messages: v
            .messages
            .iter()
            .map(|m| message_out(m, v.table.number, None, None))
            .collect(),
        rulings: v
            .rulings
            .iter()
            .map(crate::web::api::rulings::ruling_out)
            .collect(),
    }
}

/// A message from the floor to a table's tablet.
#[derive(Debug, Serialize, ToSchema)]
pub struct FloorMessageOut {
    pub id: i64,
    pub table_id: i64,
    pub table_number: i32,
    pub body: String,
    pub created_at: DateTime<Utc>,
    pub sent_by: Option<String>,
    /// When the dealer marked it seen (absent: still shown on the tablet).
    pub seen_at: Option<DateTime<Utc>>,
    pub seen_by: Option<String>,
}

fn message_out(
    m: &FloorMessageRow,
    number: i32,
    sent_by: Option<String>,
    seen_by: Option<String>,
) -> FloorMessageOut {
    FloorMessageOut {
        id: m.id,
        table_id: m.table_id,
        table_number: number,
        body: m.body.clone(),
        created_at: utc(m.created_at),
        sent_by,
        seen_at: m.seen_at.map(utc),
        seen_by,
    }
}

fn line_out(l: table_side::MessageLine) -> FloorMessageOut {
    message_out(&l.message, l.table_number, l.sent_by, l.seen_by)
}

/// A buy-in or rebuy recorded.
#[derive(Debug, Serialize, ToSchema)]
pub struct BuyinOut {
    pub id: i64,
    pub seating_id: i64,
    /// buyin | rebuy
    pub kind: String,
    pub amount: i64,
    pub stack_before: i64,
    pub rule: Option<String>,
    pub at: DateTime<Utc>,
    /// BSOP 28: the hand being played when the chips reached the seat (none: between hands);
    /// they play in it only once the floor approved (`approved_at`), else from the next hand.
    pub arrived_in_hand: Option<i32>,
    pub approved_at: Option<DateTime<Utc>>,
}

fn buyin_out(b: &BuyinRow) -> BuyinOut {
    BuyinOut {
        id: b.id,
        seating_id: b.seating_id,
        kind: b.kind.clone(),
        amount: b.amount,
        stack_before: b.stack_before,
        rule: b.rule.clone(),
        at: utc(b.at),
        arrived_in_hand: b.arrived_in_hand,
        approved_at: b.approved_at.map(utc),
    }
}

/// Chips taken off for absence (BSOP 36).
#[derive(Debug, Serialize, ToSchema)]
pub struct CustodyOut {
    pub id: i64,
    pub seating_id: i64,
    pub table_id: i64,
    pub seat_no: i32,
    pub player_id: i64,
    pub amount: i64,
    /// Where the chips are kept (e.g. "cage, box 4").
    #[schema(min_length = 1, max_length = 100, pattern = r"\S")]
    pub storage: String,
    /// counting | held | reclaimed | settled | cancelled
    pub state: String,
    pub counted_by: i64,
    pub counted_at: DateTime<Utc>,
    pub confirmed_by: Option<i64>,
    pub confirmed_at: Option<DateTime<Utc>>,
    pub note: Option<String>,
}

fn custody_out(c: &CustodyRow) -> CustodyOut {
    CustodyOut {
        id: c.id,
        seating_id: c.seating_id,
        table_id: c.table_id,
        seat_no: c.seat_no,
        player_id: c.player_id,
        amount: c.amount,
        storage: c.storage.clone(),
        state: c.state.to_string(),
        counted_by: c.counted_by,
        counted_at: utc(c.counted_at),
        confirmed_by: c.confirmed_by,
        confirmed_at: c.confirmed_at.map(utc),
        note: c.note.clone(),
    }
}

/// A table's request to the floor.
#[derive(Debug, Serialize, ToSchema)]
pub struct ServiceRequestOut {
    pub id: i64,
    pub table_id: i64,
    pub table_number: i32,
    /// floor | chips
    pub kind: String,
    pub note: String,
    pub created_at: DateTime<Utc>,
    pub handled_at: Option<DateTime<Utc>>,
}

fn service_out(r: &ServiceRequestRow, number: i32) -> ServiceRequestOut {
    ServiceRequestOut {
        id: r.id,
        table_id: r.table_id,
        table_number: number,
        kind: r.kind.clone(),
        note: r.note.clone(),
        created_at: utc(r.created_at),
        handled_at: r.handled_at.map(utc),
    }
}

/// A hand counted (PT-2007 13, 89), with the notices for the dealer.
#[derive(Debug, Serialize, ToSchema)]
pub struct HandOut {
    pub id: i64,
    pub table_id: i64,
    pub number: i32,
    pub button_seat: Option<i32>,
    pub at: DateTime<Utc>,
    pub notices: Vec<SeatNoticeOut>,
    /// PT-2007 7b: the cagnotte session this tap closed and the one it started, if any.
    pub session_closed: Option<i32>,
    pub session_started: Option<i32>,
    /// BSOP 115, 116: the dealer button reached a special button: this hand is its game
    /// (`cucurucho` | `macaca`; `GET /api/v1/tables/{id}/special-buttons` has the
    /// contributions).
    pub special: Option<crate::domain::special_buttons::SpecialButton>,
    /// PT-2007 22, BSOP 34: the limit change that took effect with this hand, if any.
    pub limit_change_applied: Option<i64>,
}

/// A notice for the dealer about one seat after a hand.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeatNoticeOut {
    pub seat: i32,
    /// A rule message key, e.g. `rules-hands-post-bb`.
    pub notice: String,
}

/// What a returning player must do (BSOP 39; PT-2007 90): a rule message key, or none.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReturnOut {
    pub obligation: Option<String>,
}

// ---- request bodies --------------------------------------------------------------------

/// A buy-in for a called player (minor units). Omit it for a must-move or seat-change call.
#[derive(Debug, Deserialize, ToSchema)]
pub struct BuyinRequest {
    /// Minor units: 1 to 100 maximum buy-ins of the game (100,000,000,000 without a maximum),
    /// else 422; the game's rules (BSOP 26, 37; PT-2007 28, 75) then narrow it.
    #[schema(minimum = 1, maximum = 100000000000_i64)]
    pub amount: Option<i64>,
}

/// Chips bought at the seat: the stack before (ignored for a first buy-in) and the amount.
#[derive(Debug, Deserialize, ToSchema)]
pub struct ChipsRequest {
    /// Minor units: 0 to 100 maximum buy-ins of the game (100,000,000,000 without a maximum),
    /// else 422.
    #[schema(minimum = 0, maximum = 100000000000_i64)]
    #[serde(default)]
    pub stack: i64,
    /// Minor units, at least 1; the stack after it stays within the stack's range (422).
    #[schema(minimum = 1, maximum = 100000000000_i64)]
    pub amount: i64,
    /// BSOP 28: a rebuy asked for before the hand that reached the seat while the hand is
    /// played: it plays from the next hand unless the floor approves it for this one
    /// (`POST /buyins/{id}/approve`). Default false (between hands).
    #[serde(default)]
    pub during_hand: bool,
}

/// A stack count (minor units).
#[derive(Debug, Deserialize, ToSchema)]
pub struct StackRequest {
    /// Minor units: 0 to 100 maximum buy-ins of the game (100,000,000,000 without a maximum),
    /// else 422.
    #[schema(minimum = 0, maximum = 100000000000_i64)]
    pub stack: i64,
}

/// Leaving with the counted stack; a floor manager may override BSOP 38 with a reason.
#[derive(Debug, Deserialize, ToSchema)]
pub struct CashOutRequest {
    /// Minor units: 0 to 100 maximum buy-ins of the game (100,000,000,000 without a maximum),
    /// else 422.
    #[schema(minimum = 0, maximum = 100000000000_i64)]
    pub stack: i64,
    #[schema(max_length = 300)]
    pub override_reason: Option<String>,
}

/// A change to a similar table with the whole stack (BSOP 27, 58; PT-2007 26).
#[derive(Debug, Deserialize, ToSchema)]
pub struct StackTransferRequest {
    pub table_id: i64,
    /// Minor units: 0 to 100 maximum buy-ins of the game (100,000,000,000 without a maximum),
    /// else 422.
    #[schema(minimum = 0, maximum = 100000000000_i64)]
    pub stack: i64,
    #[serde(default)]
    pub cave_lost: bool,
}

/// small | big
/// Which blind (the schema of [`MissedBlindRequest::blind`]).
#[derive(ToSchema)]
#[allow(dead_code)]
pub enum BlindName {
    #[schema(rename = "small")]
    Small,
    #[schema(rename = "big")]
    Big,
}

/// How chips in custody ended (the schema of [`ResolveRequest::how`]).
#[derive(ToSchema)]
#[allow(dead_code)]
pub enum CustodyOutcome {
    #[schema(rename = "reclaimed")]
    Reclaimed,
    #[schema(rename = "settled")]
    Settled,
}

/// What a table asks the floor for (the schema of [`ServiceRequestBody::kind`];
/// `table_side::SERVICE_KINDS`).
#[derive(ToSchema)]
#[allow(dead_code)]
pub enum ServiceKind {
    #[schema(rename = "floor")]
    Floor,
    #[schema(rename = "chips")]
    Chips,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct MissedBlindRequest {
    #[schema(value_type = BlindName)]
    pub blind: String,
}

/// A supervisor's extension of an absence (BSOP 36).
#[derive(Debug, Deserialize, ToSchema)]
pub struct ExtendRequest {
    #[schema(minimum = 1, maximum = 120)]
    pub minutes: i64,
    #[schema(min_length = 1, max_length = 300, pattern = r"\S")]
    pub reason: String,
}

/// PT-2007 13, 89: resting; no bet in this hand (absent: unchanged).
#[derive(Debug, Deserialize, ToSchema)]
pub struct HandFlagsRequest {
    pub resting: Option<bool>,
    pub no_bet: Option<bool>,
}

/// The first count of an absent player's chips (BSOP 36).
#[derive(Debug, Deserialize, ToSchema)]
pub struct RemovalRequest {
    /// Minor units: 0 to 100 maximum buy-ins of the game (100,000,000,000 without a maximum),
    /// else 422.
    #[schema(minimum = 0, maximum = 100000000000_i64)]
    pub amount: i64,
    /// Where the chips are kept (e.g. "cage, box 4").
    #[schema(min_length = 1, max_length = 100, pattern = r"\S")]
    pub storage: String,
}

/// The second count, by the signed-in staff member (not the one who counted first).
#[derive(Debug, Deserialize, ToSchema)]
pub struct ConfirmRequest {
    /// Minor units: 0 to 100 maximum buy-ins of the game (100,000,000,000 without a maximum),
    /// else 422.
    #[schema(minimum = 0, maximum = 100000000000_i64)]
    pub amount: i64,
}

/// reclaimed | settled, with an optional note.
#[derive(Debug, Deserialize, ToSchema)]
pub struct ResolveRequest {
    #[schema(value_type = CustodyOutcome)]
    pub how: String,
    #[serde(default)]
    #[schema(max_length = 300)]
    pub note: String,
}

/// A free-text message for a table's tablet (at most 300 characters).
#[derive(Debug, Deserialize, ToSchema)]
pub struct FloorMessageBody {
    #[schema(min_length = 1, max_length = 300, pattern = r"\S")]
    pub body: String,
}

/// floor | chips, with an optional note (a decision is asked for as a ruling).
#[derive(Debug, Deserialize, ToSchema)]
pub struct ServiceRequestBody {
    #[schema(value_type = ServiceKind)]
    pub kind: String,
    #[serde(default)]
    #[schema(max_length = 200)]
    pub note: String,
}

// ---- handlers ----------------------------------------------------------------------------

fn supervisor(role: &str) -> bool {
    matches!(role, "admin" | "floor")
}

async fn side_of(st: &AppState, seating_id: i64) -> AppResult<SeatSideOut> {
    let s = st.run(move |_, c| table_side::side(c, seating_id)).await?;
    Ok(side_out(&s))
}

/// The table as its tablet shows it (any staff member).
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Table id")),
    responses((status = 200, body = TableSideOut), (status = 404, body = ErrorResponse))
)]
#[get("/tables/{id}/side")]
pub async fn table_side_view(
    st: web::Data<AppState>,
    _who: AnyStaff,
    path: web::Path<i64>,
) -> AppResult<web::Json<TableSideOut>> {
    let id = path.into_inner();
    let now = st.clock.now();
    let v = st
        .run(move |_, c| {
            let room = services::room::get(c)?;
            table_side::view(c, now, &room.profile, id)
        })
        .await?;
    Ok(web::Json(table_out(&v)))
}

/// The dealer acknowledges a seat call (admin, floor, dealer).
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Seat call id")),
    responses((status = 204), (status = 404, body = ErrorResponse), (status = 409, body = ErrorResponse))
)]
#[post("/seat-calls/{id}/acknowledge")]
pub async fn acknowledge(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    st.write(move |_, c| {
        let act = &acting.in_room(c)?;
        services::floor::acknowledge_call(c, act, id, None)
    })
    .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Seats a called player with their buy-in (admin, floor, dealer): BSOP 26 (returning within
/// the hour: at least what was taken off), BSOP 37 (removed for absence: the same stack),
/// PT-2007 28 (pt-casino, any game under way: the table's average; a room may keep it to
/// session games), else the game's range. A refused amount is a 422 and changes nothing.
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Seat call id")),
    request_body = BuyinRequest,
    responses((status = 201, body = SeatSideOut), (status = 404, body = ErrorResponse), (status = 409, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[post("/seat-calls/{id}/seat-with-buyin")]
pub async fn seat_with_buyin(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<i64>,
    body: ApiJson<BuyinRequest>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    let amount = body.amount;
    let s = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            table_side::seat_with_buyin(c, act, id, amount, None)
        })
        .await?;
    Ok(HttpResponse::Created().json(side_of(&st, s.id).await?))
}

/// Chips bought at the seat: the first purchase is checked as the buy-in, later ones as
/// rebuys under the game's maximum (PT-2007 75, 79).
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Seating id")),
    request_body = ChipsRequest,
    responses((status = 201, body = BuyinOut), (status = 409, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[post("/seatings/{id}/chips")]
pub async fn chips(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<i64>,
    body: ApiJson<ChipsRequest>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    let b = body.into_inner();
    let row = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            table_side::buy_chips(c, act, id, b.stack, b.amount, b.during_hand, None)
        })
        .await?;
    Ok(HttpResponse::Created().json(buyin_out(&row)))
}

/// BSOP 28: the floor lets chips that reached the seat during the hand being played count
/// in it (else they play from the next hand). Only while that hand is played, once.
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Buy-in id")),
    responses((status = 200, body = BuyinOut), (status = 409, body = ErrorResponse))
)]
#[post("/buyins/{id}/approve")]
pub async fn approve_chips(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<i64>,
) -> AppResult<web::Json<BuyinOut>> {
    let id = path.into_inner();
    let acting = who.acting;
    let row = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            table_side::approve_chips(c, act, id)
        })
        .await?;
    Ok(web::Json(buyin_out(&row)))
}

/// A stack count (PT-2007 28 averages, PT-2007 79 rebuy notice).
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Seating id")),
    request_body = StackRequest,
    responses((status = 200, body = SeatSideOut), (status = 409, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[post("/seatings/{id}/count")]
pub async fn count(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<i64>,
    body: ApiJson<StackRequest>,
) -> AppResult<web::Json<SeatSideOut>> {
    let id = path.into_inner();
    let acting = who.acting;
    let stack = body.stack;
    let s = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            table_side::count_stack(c, act, id, stack, None)
        })
        .await?;
    Ok(web::Json(side_out(&s)))
}

/// The player leaves with the counted stack (recorded as taken off, BSOP 26); the next
/// player is called for the seat. BSOP 38: a winner before the minimum stay is refused (409,
/// with the time left) unless a floor manager gives `override_reason` (audited); a dealer's
/// override is 403.
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Seating id")),
    request_body = CashOutRequest,
    responses((status = 200, body = SeatSideOut), (status = 403, body = ErrorResponse), (status = 409, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[post("/seatings/{id}/cash-out")]
pub async fn cash_out(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<i64>,
    body: ApiJson<CashOutRequest>,
) -> AppResult<web::Json<SeatSideOut>> {
    let id = path.into_inner();
    let acting = who.acting;
    let sup = supervisor(&who.who.0.staff.role);
    let b = body.into_inner();
    st.write(move |_, c| {
        let act = &acting.in_room(c)?;
        table_side::cash_out(c, act, sup, id, b.stack, b.override_reason.as_deref(), None)
    })
    .await?;
    Ok(web::Json(side_of(&st, id).await?))
}

/// A change to a similar table with the whole stack: BSOP 27 (not in the first hour with a
/// stack above the maximum), BSOP 58 and PT-2007 26 (balance). Answers the new seat.
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Seating id")),
    request_body = StackTransferRequest,
    responses((status = 201, body = SeatSideOut), (status = 409, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[post("/seatings/{id}/transfer-with-stack")]
pub async fn transfer_with_stack(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<i64>,
    body: ApiJson<StackTransferRequest>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    let b = body.into_inner();
    let s = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            table_side::transfer_with_stack(c, act, id, b.table_id, b.stack, b.cave_lost, None)
        })
        .await?;
    Ok(HttpResponse::Created().json(side_of(&st, s.id).await?))
}

/// The player is away: the absence clock starts (BSOP 36).
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Seating id")),
    responses((status = 200, body = SeatSideOut), (status = 409, body = ErrorResponse))
)]
#[post("/seatings/{id}/away")]
pub async fn away(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<i64>,
) -> AppResult<web::Json<SeatSideOut>> {
    let id = path.into_inner();
    let now = who.acting.now;
    let acting = who.acting;
    let s = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            table_side::away(c, act, now, id, None)
        })
        .await?;
    Ok(web::Json(side_out(&s)))
}

/// The player is back; answers what they must do for missed blinds (BSOP 39 / PT-2007 90).
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Seating id")),
    responses((status = 200, body = ReturnOut), (status = 409, body = ErrorResponse))
)]
#[post("/seatings/{id}/back")]
pub async fn back(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<i64>,
) -> AppResult<web::Json<ReturnOut>> {
    let id = path.into_inner();
    let acting = who.acting;
    let o: ReturnObligation = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            table_side::back(c, act, id, None)
        })
        .await?;
    Ok(web::Json(ReturnOut {
        obligation: o.key().map(str::to_string),
    }))
}

/// An absent player's seat missed a blind (BSOP 36): buttons; two big blinds make the seat
/// due for removal.
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Seating id")),
    request_body = MissedBlindRequest,
    responses((status = 200, body = SeatSideOut), (status = 409, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[post("/seatings/{id}/missed-blind")]
pub async fn missed_blind(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<i64>,
    body: ApiJson<MissedBlindRequest>,
) -> AppResult<web::Json<SeatSideOut>> {
    let id = path.into_inner();
    let blind = match body.blind.as_str() {
        "small" => Blind::Small,
        "big" => Blind::Big,
        _ => return Err(AppError::field("blind", "err-blind-kind")),
    };
    let now = who.acting.now;
    let acting = who.acting;
    st.write(move |_, c| {
        let act = &acting.in_room(c)?;
        table_side::missed_blind(c, act, now, id, blind, None)
    })
    .await?;
    Ok(web::Json(side_of(&st, id).await?))
}

/// The returning player settled the missed blinds (BSOP 39, PT-2007 90): the buttons go.
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Seating id")),
    responses((status = 200, body = SeatSideOut), (status = 409, body = ErrorResponse))
)]
#[post("/seatings/{id}/blinds-settled")]
pub async fn blinds_settled(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<i64>,
) -> AppResult<web::Json<SeatSideOut>> {
    let id = path.into_inner();
    let acting = who.acting;
    let s = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            table_side::blinds_settled(c, act, id, None)
        })
        .await?;
    Ok(web::Json(side_out(&s)))
}

/// A floor manager extends an absence with a reason (BSOP 36; admin, floor).
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Seating id")),
    request_body = ExtendRequest,
    responses((status = 200, body = SeatSideOut), (status = 403, body = ErrorResponse), (status = 409, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[post("/seatings/{id}/extend-absence")]
pub async fn extend_absence(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<i64>,
    body: ApiJson<ExtendRequest>,
) -> AppResult<web::Json<SeatSideOut>> {
    let id = path.into_inner();
    let acting = who.acting;
    let b = body.into_inner();
    let s = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            table_side::extend_absence(c, act, true, id, b.minutes, &b.reason, None)
        })
        .await?;
    Ok(web::Json(side_out(&s)))
}

/// Resting / no bet in this hand (PT-2007 13, 89), counted at the next hand.
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Seating id")),
    request_body = HandFlagsRequest,
    responses((status = 200, body = SeatSideOut), (status = 409, body = ErrorResponse))
)]
#[post("/seatings/{id}/hand-flags")]
pub async fn hand_flags(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<i64>,
    body: ApiJson<HandFlagsRequest>,
) -> AppResult<web::Json<SeatSideOut>> {
    let id = path.into_inner();
    let acting = who.acting;
    let b = body.into_inner();
    let s = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            table_side::set_hand_flags(c, act, id, b.resting, b.no_bet, None)
        })
        .await?;
    Ok(web::Json(side_out(&s)))
}

/// The first count of an absent player's chips (BSOP 36): only when the seat is due.
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Seating id")),
    request_body = RemovalRequest,
    responses((status = 201, body = CustodyOut), (status = 409, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[post("/seatings/{id}/removal")]
pub async fn start_removal(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<i64>,
    body: ApiJson<RemovalRequest>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    let b = body.into_inner();
    let k = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            table_side::start_removal(c, act, id, b.amount, &b.storage, None)
        })
        .await?;
    Ok(HttpResponse::Created().json(custody_out(&k)))
}

/// Chips in custody and counts waiting (admin, floor, cashier, dealer).
#[utoipa::path(
    tag = "table",
    responses((status = 200, body = Vec<CustodyOut>))
)]
#[get("/custody")]
pub async fn list_custody(
    st: web::Data<AppState>,
    _who: AnyStaff,
) -> AppResult<web::Json<Vec<CustodyOut>>> {
    let rows = st.run(|_, c| table_side::custody_list(c, true)).await?;
    Ok(web::Json(
        rows.iter().map(|(k, _, _)| custody_out(k)).collect(),
    ))
}

/// The second count by the signed-in staff member (BSOP 36): a different person, the same
/// amount. The seat is freed and the next player called.
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Custody id")),
    request_body = ConfirmRequest,
    responses((status = 200, body = CustodyOut), (status = 409, body = ErrorResponse))
)]
#[post("/custody/{id}/confirm")]
pub async fn confirm_removal(
    st: web::Data<AppState>,
    who: ActingAs<AnyStaff>,
    path: web::Path<i64>,
    body: ApiJson<ConfirmRequest>,
) -> AppResult<web::Json<CustodyOut>> {
    let id = path.into_inner();
    let acting = who.acting;
    let amount = body.amount;
    let (k, _) = st
        .write(move |_, c| {
            let act = acting.in_room(c)?;
            table_side::confirm_removal(c, &act, id, amount, None)
        })
        .await?;
    Ok(web::Json(custody_out(&k)))
}

/// A count not yet confirmed is dropped.
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Custody id")),
    responses((status = 200, body = CustodyOut), (status = 409, body = ErrorResponse))
)]
#[post("/custody/{id}/cancel")]
pub async fn cancel_removal(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<i64>,
) -> AppResult<web::Json<CustodyOut>> {
    let id = path.into_inner();
    let acting = who.acting;
    let k = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            table_side::cancel_removal(c, act, id, None)
        })
        .await?;
    Ok(web::Json(custody_out(&k)))
}

/// Chips leave custody: reclaimed by the player or settled by the cashier (admin, floor,
/// cashier).
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Custody id")),
    request_body = ResolveRequest,
    responses((status = 200, body = CustodyOut), (status = 403, body = ErrorResponse), (status = 409, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[post("/custody/{id}/resolve")]
pub async fn resolve_custody(
    st: web::Data<AppState>,
    who: ActingAs<AnyStaff>,
    path: web::Path<i64>,
    body: Result<ApiJson<ResolveRequest>, actix_web::Error>,
) -> AppResult<web::Json<CustodyOut>> {
    // The role is checked before the body is looked at: a dealer gets 403 whatever it sends
    // (the extractor alone would answer 400 for a bad body first).
    if !matches!(who.who.0.staff.role.as_str(), "admin" | "floor" | "cashier") {
        return Err(AppError::Forbidden(crate::domain::Problem::new(
            "err-forbidden",
        )));
    }
    let body = body?;
    let id = path.into_inner();
    let acting = who.acting;
    let b = body.into_inner();
    let k = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            table_side::resolve_custody(c, act, id, &b.how, &b.note)
        })
        .await?;
    Ok(web::Json(custody_out(&k)))
}

/// The dealer's "new hand" tap: counts the hand, moves the button (BSOP 57), updates the
/// seats' counters (PT-2007 13, 89) and the absence buttons (BSOP 36). The optional body is
/// the result of the hand that just ended (its pot and rake, PT-2007 7a; a rake over the 5 %
/// or the game's cap is refused with 422 and nothing is counted); for a game billed per
/// session the tap starts the first session or, the hour of play being up, closes it and
/// starts the next (PT-2007 7b).
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Table id")),
    request_body(content = Option<crate::services::cagnotte::HandResult>, description = "The ended hand's pot and rake (optional)"),
    responses((status = 201, body = HandOut), (status = 409, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[post("/tables/{id}/hands")]
pub async fn new_hand(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<i64>,
    body: web::Bytes,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    // The body is optional (empty or `null`: nothing recorded), read like every API body
    // (`web::json`).
    let result: crate::services::cagnotte::HandResult = if body.iter().all(u8::is_ascii_whitespace)
    {
        Default::default()
    } else {
        let mut value: serde_json::Value = serde_json::from_slice(&body).map_err(|e| {
            AppError::BadRequest(crate::domain::Problem::new("err-json").arg("detail", e))
        })?;
        crate::web::json::integral_floats(&mut value);
        crate::web::json::from_value::<Option<crate::services::cagnotte::HandResult>>(value)?
            .unwrap_or_default()
    };
    let ((h, notices, over, limits), special): ((HandRow, _, _, _), _) = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            let done = table_side::new_hand(c, act, id, &result)?;
            let special = services::special_buttons::kind_of_hand(c, done.0.id)?;
            Ok((done, special))
        })
        .await?;
    let notices = notices
        .into_iter()
        .filter_map(|n| {
            n.notice.notice().map(|p| SeatNoticeOut {
                seat: n.seat,
                notice: p.key.to_string(),
            })
        })
        .collect();
    Ok(HttpResponse::Created().json(HandOut {
        id: h.id,
        table_id: h.table_id,
        number: h.number,
        button_seat: h.button_seat,
        at: utc(h.at),
        notices,
        session_closed: over.closed,
        session_started: over.started,
        special,
        limit_change_applied: limits.map(|c| c.id),
    }))
}

/// A table asks for the floor or chips; asking again while open changes nothing. A decision
/// is asked for as a ruling (`POST /tables/{id}/rulings`, BSOP 16-22).
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Table id")),
    request_body = ServiceRequestBody,
    responses((status = 201, body = ServiceRequestOut), (status = 422, body = ErrorResponse))
)]
#[post("/tables/{id}/service-requests")]
pub async fn request_service(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<i64>,
    body: ApiJson<ServiceRequestBody>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    let b = body.into_inner();
    let r = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            table_side::request_service(c, act, id, &b.kind, &b.note)
        })
        .await?;
    let number = st
        .run(move |_, c| Ok(services::games::get_table(c, id)?.number))
        .await?;
    Ok(HttpResponse::Created().json(service_out(&r, number)))
}

/// Open requests from the tables, oldest first.
#[utoipa::path(
    tag = "table",
    responses((status = 200, body = Vec<ServiceRequestOut>))
)]
#[get("/service-requests")]
pub async fn list_service_requests(
    st: web::Data<AppState>,
    _who: AnyStaff,
) -> AppResult<web::Json<Vec<ServiceRequestOut>>> {
    let rows = st.run(|_, c| table_side::open_requests(c, None)).await?;
    Ok(web::Json(
        rows.iter().map(|(r, n)| service_out(r, *n)).collect(),
    ))
}

/// The floor handled a request (admin, floor).
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Request id")),
    responses((status = 200, body = ServiceRequestOut), (status = 404, body = ErrorResponse))
)]
#[post("/service-requests/{id}/handled")]
pub async fn handle_service(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<i64>,
) -> AppResult<web::Json<ServiceRequestOut>> {
    let id = path.into_inner();
    let acting = who.acting;
    let r = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            table_side::handle_service(c, act, id)
        })
        .await?;
    let tid = r.table_id;
    let number = st
        .run(move |_, c| Ok(services::games::get_table(c, tid)?.number))
        .await?;
    Ok(web::Json(service_out(&r, number)))
}

/// The last 50 messages the floor sent a table, newest first, with who saw them.
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Table id")),
    responses((status = 200, body = Vec<FloorMessageOut>), (status = 404, body = ErrorResponse))
)]
#[get("/tables/{id}/floor-messages")]
pub async fn list_floor_messages(
    st: web::Data<AppState>,
    _who: AnyStaff,
    path: web::Path<i64>,
) -> AppResult<web::Json<Vec<FloorMessageOut>>> {
    let id = path.into_inner();
    let rows = st
        .run(move |_, c| {
            services::games::get_table(c, id)?;
            table_side::messages(c, Some(id), 50)
        })
        .await?;
    Ok(web::Json(rows.into_iter().map(line_out).collect()))
}

/// The floor sends a free-text message to a table's tablet (admin, floor); it stays on the
/// tablet until the dealer marks it seen. 409 when no tablet is paired with the table.
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Table id")),
    request_body = FloorMessageBody,
    responses((status = 201, body = FloorMessageOut), (status = 404, body = ErrorResponse), (status = 409, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[post("/tables/{id}/floor-messages")]
pub async fn send_floor_message(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<i64>,
    body: ApiJson<FloorMessageBody>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    let b = body.into_inner();
    let name = who.who.0.staff.display_name.clone();
    let (m, number) = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            let m = table_side::send_message(c, act, id, &b.body)?;
            Ok((m, services::games::get_table(c, id)?.number))
        })
        .await?;
    Ok(HttpResponse::Created().json(message_out(&m, number, Some(name), None)))
}

/// The dealer marks a message seen (it leaves the tablet; the floor sees who and when).
#[utoipa::path(
    tag = "table",
    params(("id" = i64, Path, description = "Message id")),
    responses((status = 200, body = FloorMessageOut), (status = 404, body = ErrorResponse))
)]
#[post("/floor-messages/{id}/seen")]
pub async fn floor_message_seen(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<i64>,
) -> AppResult<web::Json<FloorMessageOut>> {
    let id = path.into_inner();
    let acting = who.acting;
    let line = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            table_side::message_seen(c, act, id, None)?;
            table_side::message_line(c, id)
        })
        .await?;
    Ok(web::Json(line_out(line)))
}
