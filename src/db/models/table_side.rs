//! What the table records at each seat: buy-ins, custody, requests and messages, hands, the
//! dealer's shift, tips, the drop box, commissions.

use crate::db::schema::*;
use crate::domain::ids::GameId;
use crate::domain::ids::PlayerId;
use crate::domain::ids::SeatingId;
use crate::domain::ids::TableId;
use crate::domain::states::CustodyState;
use chrono::NaiveDateTime;
use diesel::prelude::*;
use serde::Serialize;

/// The table-side state of a seating: chips, absence, buttons, hand counters.
/// Read apart from [`SeatingRow`] so the floor's hot path selects only what it needs.
#[derive(Debug, Clone, Queryable, Selectable, Serialize, PartialEq, Eq)]
#[diesel(table_name = seatings)]
pub struct SeatSideRow {
    pub id: i64,
    pub stack: i64,
    pub bought_in: i64,
    pub taken_off: Option<i64>,
    pub away_since: Option<NaiveDateTime>,
    pub away_extended_until: Option<NaiveDateTime>,
    pub removal_alerted_at: Option<NaiveDateTime>,
    pub missed_sb: i32,
    pub missed_bb: i32,
    pub missed_blind_button: bool,
    pub absence_button: bool,
    pub hands_no_bet: i32,
    pub rest_hands: i32,
    pub rested_since_bet: bool,
    pub resting: bool,
    pub no_bet: bool,
    pub hand_notice: Option<String>,
    /// When the last away or back was tapped (BSOP 36, 39): an older tap is superseded.
    pub absence_tapped_at: Option<NaiveDateTime>,
}

/// A buy-in, rebuy or stack carried to another table.
#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = buyins)]
pub struct BuyinRow {
    pub id: i64,
    pub seating_id: SeatingId,
    pub table_id: TableId,
    pub player_id: PlayerId,
    pub game_id: Option<GameId>,
    pub kind: String,
    pub amount: i64,
    pub stack_before: i64,
    pub rule: Option<String>,
    pub at: NaiveDateTime,
    pub recorded_by: Option<i64>,
    /// BSOP 28: the hand being played when these chips reached the seat (none: between
    /// hands); they count in it only once the floor approved them.
    pub arrived_in_hand: Option<i32>,
    /// BSOP 28: the floor member who let them play in the hand they arrived in, and when.
    pub approved_by: Option<i64>,
    pub approved_at: Option<NaiveDateTime>,
}

/// BSOP 36: chips taken off an absent player's seat, counted by two staff members.
#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = chip_custody)]
pub struct CustodyRow {
    pub id: i64,
    pub seating_id: SeatingId,
    pub table_id: TableId,
    pub seat_no: i32,
    pub player_id: PlayerId,
    pub amount: i64,
    pub storage: String,
    pub state: CustodyState,
    pub counted_by: i64,
    pub counted_at: NaiveDateTime,
    pub confirmed_by: Option<i64>,
    pub confirmed_at: Option<NaiveDateTime>,
    pub resolved_at: Option<NaiveDateTime>,
    pub resolved_by: Option<i64>,
    pub note: Option<String>,
}

/// A table's request to the floor.
#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = service_requests)]
pub struct ServiceRequestRow {
    pub id: i64,
    pub table_id: TableId,
    pub kind: String,
    pub note: String,
    pub created_at: NaiveDateTime,
    pub created_by: Option<i64>,
    pub handled_at: Option<NaiveDateTime>,
    pub handled_by: Option<i64>,
}

/// A free-text message from the floor to a table's tablet.
#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = floor_messages)]
pub struct FloorMessageRow {
    pub id: i64,
    pub table_id: TableId,
    pub body: String,
    pub created_at: NaiveDateTime,
    pub created_by: Option<i64>,
    pub seen_at: Option<NaiveDateTime>,
    pub seen_by: Option<i64>,
}

/// One "new hand" tap.
#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = hands)]
pub struct HandRow {
    pub id: i64,
    pub table_id: TableId,
    pub game_id: Option<GameId>,
    pub number: i32,
    pub button_seat: Option<i32>,
    pub at: NaiveDateTime,
    pub recorded_by: Option<i64>,
    /// The next "hand over" tap.
    pub ended_at: Option<NaiveDateTime>,
    /// PT-2007 7a: the pot and the rake taken from it, recorded at the hand over.
    pub pot: Option<i64>,
    pub rake: Option<i64>,
    /// PT-ONL 18: the hand ended before the flop without a voluntary bet.
    pub preflop_no_bet: bool,
    pub result_by: Option<i64>,
    /// BSOP 90: the boards the hand was run on (2 or 3 when the players agreed to run it more
    /// than once); raked once all the same.
    pub boards: i32,
}

/// A dealer's shift at a table.
#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = dealer_shifts)]
pub struct DealerShiftRow {
    pub id: i64,
    pub table_id: TableId,
    pub dealer_id: i64,
    pub started_at: NaiveDateTime,
    pub ended_at: Option<NaiveDateTime>,
}

/// A dealer's time clocked in for the night.
#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = dealer_roster)]
pub struct DealerClockRow {
    pub id: i64,
    pub dealer_id: i64,
    pub clocked_in_at: NaiveDateTime,
    pub clocked_out_at: Option<NaiveDateTime>,
}

/// A dealer's break.
#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = dealer_breaks)]
pub struct DealerBreakRow {
    pub id: i64,
    pub dealer_id: i64,
    pub started_at: NaiveDateTime,
    pub ended_at: Option<NaiveDateTime>,
}

/// PT-2007 5, 9d: tips recorded at a table (apart from the cagnotte).
#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize, utoipa::ToSchema)]
#[diesel(table_name = tips)]
pub struct TipRow {
    pub id: i64,
    #[schema(value_type = i64)]
    pub table_id: TableId,
    #[schema(value_type = Option<i64>)]
    pub game_id: Option<GameId>,
    pub shift_id: Option<i64>,
    pub dealer_id: Option<i64>,
    pub amount: i64,
    /// UTC, served with its offset (`…Z`) like every time in the API.
    #[serde(serialize_with = "utc_z")]
    pub at: NaiveDateTime,
    pub recorded_by: Option<i64>,
}

/// The drop box's total for a table at the end of a shift (quick per-hand mode).
#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize, utoipa::ToSchema)]
#[diesel(table_name = drop_boxes)]
pub struct DropBoxRow {
    pub id: i64,
    #[schema(value_type = i64)]
    pub table_id: TableId,
    #[schema(value_type = Option<i64>)]
    pub game_id: Option<GameId>,
    pub shift_id: Option<i64>,
    pub dealer_id: Option<i64>,
    pub amount: i64,
    /// UTC, served with its offset (`…Z`) like every time in the API.
    #[serde(serialize_with = "utc_z")]
    pub at: NaiveDateTime,
    pub recorded_by: Option<i64>,
}

/// MO-13 11: the house's commission on a winner's payout in one round.
#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize, utoipa::ToSchema)]
#[diesel(table_name = commissions)]
pub struct CommissionRow {
    pub id: i64,
    #[schema(value_type = i64)]
    pub table_id: TableId,
    #[schema(value_type = Option<i64>)]
    pub game_id: Option<GameId>,
    pub round: i32,
    #[schema(value_type = Option<i64>)]
    pub player_id: Option<PlayerId>,
    pub payout: i64,
    pub amount: i64,
    /// UTC, served with its offset (`…Z`) like every time in the API.
    #[serde(serialize_with = "utc_z")]
    pub at: NaiveDateTime,
    pub recorded_by: Option<i64>,
}

/// A stored UTC time (the database keeps it without offset) written as RFC 3339 with `Z`,
/// the form every API time has (`date-time` in the OpenAPI document).
fn utc_z<S: serde::Serializer>(t: &NaiveDateTime, s: S) -> Result<S::Ok, S::Error> {
    serde::Serialize::serialize(&t.and_utc(), s)
}
