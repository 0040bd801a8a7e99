//! The table as its tablet shows it: the seats with chips, absence and buttons, the seat calls
//! and the buy-ins waiting, the floor's messages and the open requests.

use super::requests::{message_out, service_out, FloorMessageOut, ServiceRequestOut};
use super::utc;
use crate::db::models::SeatSideRow;
use crate::domain::ids::PlayerId;
use crate::domain::ids::SeatCallId;
use crate::domain::ids::SeatingId;
use crate::domain::ids::TableId;
use crate::domain::seat_rules::AbsenceStatus;
use crate::error::AppResult;
use crate::services::table_side::{self, SeatedView, TableSideView};
use crate::services::{self};
use crate::web::extract::AnyStaff;
use crate::web::openapi::ErrorResponse;
use crate::web::state::AppState;
use actix_web::web;
// The route macros: utoipa reads the path and method from them (a bare name).
use actix_web::get;
use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

/// One seat's chips and state (BSOP 26, 36, 38, 39; PT-2007 13, 79, 89, 90).
#[derive(Debug, Serialize, ToSchema)]
pub struct SeatSideOut {
    #[schema(value_type = i64)]
    pub seating_id: SeatingId,
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

pub(super) fn side_out(s: &SeatSideRow) -> SeatSideOut {
    SeatSideOut {
        seating_id: SeatingId(s.id),
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
    #[schema(value_type = i64)]
    pub player_id: PlayerId,
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
    #[schema(value_type = i64)]
    pub call_id: SeatCallId,
    pub seat_no: i32,
    #[schema(value_type = i64)]
    pub player_id: PlayerId,
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
    #[schema(value_type = i64)]
    pub table_id: TableId,
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

pub(super) async fn side_of(st: &AppState, seating_id: SeatingId) -> AppResult<SeatSideOut> {
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
    path: web::Path<TableId>,
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
