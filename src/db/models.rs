//! Rows as stored. Times are UTC (`NaiveDateTime` in UTC); money is integer minor units.

use super::schema::*;
use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;
use serde::Serialize;

use crate::domain::draw::DrawKind;
use crate::domain::enums::string_enum;
use crate::domain::ruling::{HeldPotState, MoveLineKind, RulingMoveState};
use crate::domain::special_buttons::{MacacaOutcome, SpecialButton};
use crate::domain::states::{
    CallSource, CallState, CustodyState, DueState, EntryState, LimitChangeKind, LimitChangeState,
    ListSource, MustMoveChoice, SeatChangeState,
};
use crate::domain::table::TableState;
use serde::Deserialize;
use std::fmt;
use std::str::FromStr;

#[derive(Debug, Clone, Queryable, Selectable, Insertable, AsChangeset, Serialize)]
#[diesel(table_name = room)]
pub struct RoomRow {
    pub id: i64,
    pub name: String,
    pub timezone: String,
    pub currency: String,
    pub default_language: String,
    pub profile: String,
    pub updated_at: NaiveDateTime,
    /// `domain::theme::Theme`: light, dark or auto.
    pub theme: String,
    /// `domain::call_alert::CallAlert`: sound, vibrate or off.
    pub call_alert: String,
    /// How late (seconds) a tablet's tap made offline may reach the server and still apply.
    pub tap_late_max_s: i32,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = staff)]
pub struct StaffRow {
    pub id: i64,
    pub username: String,
    pub display_name: String,
    pub role: String,
    #[serde(skip)]
    pub password_hash: String,
    pub active: bool,
    pub language: Option<String>,
    #[serde(skip)]
    pub token_version: i32,
    /// Signed in with a one-time password: must choose a new one before anything else.
    pub must_change_password: bool,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = login_throttle)]
pub struct ThrottleRow {
    pub throttle_key: String,
    pub failures: i32,
    pub last_failure: NaiveDateTime,
    pub not_before: Option<NaiveDateTime>,
}

/// One sign-in: a page session or an API token. The token carries `id`.
#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = staff_sessions)]
pub struct SessionRow {
    pub id: String,
    pub staff_id: i64,
    /// `web` or `api`.
    pub kind: String,
    pub created_at: NaiveDateTime,
    pub expires_at: NaiveDateTime,
    pub last_seen_at: NaiveDateTime,
    pub user_agent: String,
    pub address: String,
    pub ended_at: Option<NaiveDateTime>,
    pub end_reason: Option<String>,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable, AsChangeset, Serialize)]
#[diesel(table_name = players, treat_none_as_null = true)]
pub struct PlayerRow {
    pub id: i64,
    pub full_name: String,
    pub alias: String,
    pub date_of_birth: NaiveDate,
    pub doc_kind: String,
    pub doc_number: String,
    #[serde(skip)]
    pub doc_number_norm: String,
    pub doc_country: String,
    pub doc_expiry: NaiveDate,
    pub phone: Option<String>,
    pub email: Option<String>,
    pub language: String,
    pub notify: String,
    pub has_photo: bool,
    #[serde(skip)]
    pub search_key: String,
    #[serde(skip)]
    pub link_token_version: i32,
    pub version: i32,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = player_photos)]
pub struct PhotoRow {
    pub player_id: i64,
    pub content_type: String,
    pub data: Vec<u8>,
    pub width: i32,
    pub height: i32,
    pub updated_at: NaiveDateTime,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = exclusions)]
pub struct ExclusionRow {
    pub id: i64,
    pub player_id: i64,
    pub reason: String,
    pub starts_at: NaiveDateTime,
    pub ends_at: Option<NaiveDateTime>,
    /// None: done by the system.
    pub created_by: Option<i64>,
    pub created_at: NaiveDateTime,
    pub lifted_at: Option<NaiveDateTime>,
    pub lifted_by: Option<i64>,
    pub lift_reason: Option<String>,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = separations)]
pub struct SeparationRow {
    pub id: i64,
    pub player_a: i64,
    pub player_b: i64,
    pub reason: String,
    /// None: done by the system.
    pub created_by: Option<i64>,
    pub created_at: NaiveDateTime,
    pub removed_at: Option<NaiveDateTime>,
    pub removed_by: Option<i64>,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable, AsChangeset, Serialize)]
#[diesel(table_name = games, treat_none_as_null = true)]
pub struct GameRow {
    pub id: i64,
    pub name: String,
    pub variant: String,
    pub small_blind: i64,
    pub big_blind: i64,
    pub limit_class: String,
    pub buy_in_min: i64,
    pub buy_in_max: Option<i64>,
    pub seats: i32,
    pub cagnotte_mode: String,
    pub cagnotte_bp: i32,
    pub active: bool,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    /// PT-2007 7b: what the session percentage is taken of: `table_max` or `cave`.
    pub cagnotte_base: String,
    /// PT-2007 7a: the most the house takes from one hand (none: only the percentage).
    pub rake_cap: Option<i64>,
    /// BSOP 80: the smallest chip in play (none: derived from the blinds).
    pub smallest_chip: Option<i64>,
    /// The game's colour on the floor board (`#rrggbb`; empty: one picked from its id).
    pub colour: String,
    /// BSOP 55, 58: `must_move` or `balanced` ([`crate::domain::game::TablePolicy`]).
    pub table_policy: String,
    /// BSOP 115: the game runs a Cucurucho button, each player putting `cucurucho_bb` big
    /// blinds in the pot on its hand.
    pub cucurucho: bool,
    pub cucurucho_bb: i32,
    /// BSOP 116: the game runs a Macaca button, each player putting `macaca_bb` big blinds
    /// for the Macaca, who is all in for at most `macaca_cap_bb` big blinds a hand.
    pub macaca: bool,
    pub macaca_bb: i32,
    pub macaca_cap_bb: i32,
}

/// Colours a game gets on the board when the admin set none: distinct, readable under white
/// text, picked by the game's id so a game keeps its colour.
const GAME_PALETTE: [&str; 10] = [
    "#1f6feb", "#2da44e", "#bf3989", "#d1242f", "#8250df", "#0a7d8c", "#9a6700", "#57606a",
    "#1b7c83", "#a0501a",
];

impl GameRow {
    /// BSOP 55, 58: how the game's extra tables run (an unknown stored value reads as the
    /// default, must-move).
    pub fn policy(&self) -> crate::domain::game::TablePolicy {
        self.table_policy.parse().unwrap_or_default()
    }

    /// The colour the board shows for this game.
    pub fn board_colour(&self) -> &str {
        if self.colour.is_empty() {
            GAME_PALETTE[self.id.unsigned_abs() as usize % GAME_PALETTE.len()]
        } else {
            &self.colour
        }
    }
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable, AsChangeset, Serialize)]
#[diesel(table_name = card_tables, treat_none_as_null = true)]
pub struct TableRow {
    pub id: i64,
    pub number: i32,
    pub seats: i32,
    pub game_id: Option<i64>,
    pub mode: String,
    pub state: TableState,
    pub active: bool,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    /// When the table was opened for its current game (older tables are main games, BSOP 56).
    pub opened_at: Option<NaiveDateTime>,
    /// PT-2007 24: when it fell below the minimum.
    pub suspended_at: Option<NaiveDateTime>,
    /// BSOP 55: the must-move table of its game.
    pub must_move: bool,
    pub button_seat: Option<i32>,
    /// BSOP 50: started with one extra player, seated in seat `seats + 1` until someone leaves.
    pub extra_seat: bool,
    /// PT-2007 22, BSOP 34: the table's own limits while it is in play (set from its game when
    /// it opens, changed only by an approved and announced change); read them through
    /// `services::limits::of`, never directly.
    pub small_blind: Option<i64>,
    pub big_blind: Option<i64>,
    pub buy_in_min: Option<i64>,
    pub buy_in_max: Option<i64>,
    /// Since when the table plays its own limits; `None`: not in play (its game's limits).
    pub limits_since: Option<NaiveDateTime>,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = audit_log)]
pub struct AuditRow {
    pub seq: i64,
    pub at: NaiveDateTime,
    pub actor_id: Option<i64>,
    pub actor_name: String,
    pub action: String,
    pub subject_kind: String,
    pub subject_id: Option<i64>,
    pub before_json: String,
    pub after_json: String,
    pub prev_hash: String,
    pub hash: String,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = waitlist_entries)]
pub struct WaitlistRow {
    pub id: i64,
    pub game_id: i64,
    pub player_id: i64,
    pub order_key: i64,
    /// Read by the thousand on the board: see [`super::time`].
    #[diesel(deserialize_as = super::time::DbTime)]
    pub joined_at: NaiveDateTime,
    pub source: ListSource,
    pub call_in_expires_at: Option<NaiveDateTime>,
    pub checked_in_at: Option<NaiveDateTime>,
    pub state: EntryState,
    pub ended_at: Option<NaiveDateTime>,
    pub end_reason: Option<String>,
    pub created_by: Option<i64>,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = seatings)]
pub struct SeatingRow {
    pub id: i64,
    pub table_id: i64,
    pub seat_no: i32,
    pub player_id: i64,
    pub game_id: Option<i64>,
    pub entry_id: Option<i64>,
    /// Read by the thousand on the board: see [`super::time`].
    #[diesel(deserialize_as = super::time::DbTime)]
    pub sat_at: NaiveDateTime,
    pub left_at: Option<NaiveDateTime>,
    pub left_reason: Option<String>,
    pub seated_by: Option<i64>,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = seat_calls)]
pub struct SeatCallRow {
    pub id: i64,
    pub table_id: i64,
    pub seat_no: i32,
    pub player_id: i64,
    pub entry_id: Option<i64>,
    pub source: CallSource,
    pub called_at: NaiveDateTime,
    pub respond_by: NaiveDateTime,
    pub state: CallState,
    pub acknowledged_at: Option<NaiveDateTime>,
    pub resolved_at: Option<NaiveDateTime>,
    pub created_by: Option<i64>,
    /// Not acknowledged by the table in time: shown escalated on the floor dashboard.
    pub escalated_at: Option<NaiveDateTime>,
    /// The player's answer from their link: `on_my_way` or `more_time`.
    pub player_answer: Option<String>,
    pub answered_at: Option<NaiveDateTime>,
    /// When the player asked for more time (the window is moved once only).
    pub extended_at: Option<NaiveDateTime>,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = seat_holds)]
pub struct SeatHoldRow {
    pub id: i64,
    pub table_id: i64,
    pub seat_no: i32,
    pub player_id: Option<i64>,
    pub reason: String,
    pub held_at: NaiveDateTime,
    pub until: Option<NaiveDateTime>,
    pub released_at: Option<NaiveDateTime>,
    pub created_by: Option<i64>,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = seat_change_requests)]
pub struct SeatChangeRow {
    pub id: i64,
    pub table_id: i64,
    pub player_id: i64,
    pub requested_at: NaiveDateTime,
    pub resolved_at: Option<NaiveDateTime>,
    pub state: SeatChangeState,
}

/// BSOP 55: a must-move player who refused to move to the main game.
#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = must_move_refusals)]
pub struct MustMoveRefusalRow {
    pub id: i64,
    pub game_id: i64,
    /// The must-move table the player refused to leave.
    pub table_id: i64,
    pub player_id: i64,
    /// The seating at the must-move table, ended by the refusal.
    pub seating_id: i64,
    /// give_up | rejoin_later
    pub choice: MustMoveChoice,
    pub refused_at: NaiveDateTime,
    /// rejoin_later: not on this game's list before this time.
    pub rejoin_after: Option<NaiveDateTime>,
    pub created_by: Option<i64>,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = draws)]
pub struct DrawRow {
    pub id: i64,
    pub kind: DrawKind,
    /// The draw's u64 seed, stored bit-for-bit in a signed column.
    pub seed: i64,
    pub inputs: String,
    pub result: String,
    pub game_id: Option<i64>,
    pub table_id: Option<i64>,
    pub created_at: NaiveDateTime,
    pub created_by: Option<i64>,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = events)]
pub struct EventRow {
    pub seq: i64,
    pub at: NaiveDateTime,
    pub table_id: Option<i64>,
    pub kind: String,
    pub payload: String,
}

/// A dealer tablet paired with a table.
#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = tablets)]
pub struct TabletRow {
    pub id: i64,
    pub table_id: i64,
    pub label: String,
    pub token_version: i32,
    pub paired_at: NaiveDateTime,
    pub paired_by: Option<i64>,
    pub revoked_at: Option<NaiveDateTime>,
    pub revoked_by: Option<i64>,
    pub last_seen_at: Option<NaiveDateTime>,
}

/// A pairing code shown on an unpaired tablet.
#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = tablet_pairings)]
pub struct TabletPairingRow {
    pub code: String,
    pub secret_hash: String,
    pub created_at: NaiveDateTime,
    pub expires_at: NaiveDateTime,
    pub tablet_id: Option<i64>,
    pub collected_at: Option<NaiveDateTime>,
    /// The code was paired as a desk kiosk (else `tablet_id`).
    pub kiosk_id: Option<i64>,
}

/// A tablet paired as the desk's kiosk (walk-ins join the lists on it).
#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = kiosks)]
pub struct KioskRow {
    pub id: i64,
    pub label: String,
    pub token_version: i32,
    pub paired_at: NaiveDateTime,
    pub paired_by: Option<i64>,
    pub revoked_at: Option<NaiveDateTime>,
    pub revoked_by: Option<i64>,
    pub last_seen_at: Option<NaiveDateTime>,
}

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
}

/// A buy-in, rebuy or stack carried to another table.
#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = buyins)]
pub struct BuyinRow {
    pub id: i64,
    pub seating_id: i64,
    pub table_id: i64,
    pub player_id: i64,
    pub game_id: Option<i64>,
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
    pub seating_id: i64,
    pub table_id: i64,
    pub seat_no: i32,
    pub player_id: i64,
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
    pub table_id: i64,
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
    pub table_id: i64,
    pub body: String,
    pub created_at: NaiveDateTime,
    pub created_by: Option<i64>,
    pub seen_at: Option<NaiveDateTime>,
    pub seen_by: Option<i64>,
}

/// A table's limits history (PT-2007 22, BSOP 34): the limits it opened with, and each change
/// approved by the floor or made by editing its game, pending until applied or cancelled.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = limit_changes)]
pub struct LimitChangeRow {
    pub id: i64,
    pub table_id: i64,
    pub game_id: Option<i64>,
    /// opening | floor | game_edit
    pub kind: LimitChangeKind,
    /// pending | applied | cancelled
    pub state: LimitChangeState,
    pub from_small_blind: Option<i64>,
    pub from_big_blind: Option<i64>,
    pub from_buy_in_min: Option<i64>,
    pub from_buy_in_max: Option<i64>,
    pub to_small_blind: i64,
    pub to_big_blind: i64,
    pub to_buy_in_min: i64,
    pub to_buy_in_max: Option<i64>,
    /// `None`: from the next hand.
    pub effective_at: Option<NaiveDateTime>,
    pub approved_at: NaiveDateTime,
    pub approved_by: Option<i64>,
    pub announced_at: Option<NaiveDateTime>,
    pub announced_by: Option<i64>,
    pub applied_at: Option<NaiveDateTime>,
    pub applied_by: Option<i64>,
    /// The number of the first hand played at the new limits (none when applied at a table
    /// that records no hands).
    pub applied_hand: Option<i32>,
    pub cancelled_at: Option<NaiveDateTime>,
    pub cancelled_by: Option<i64>,
    pub cancel_reason: Option<String>,
}

/// One "new hand" tap.
#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = hands)]
pub struct HandRow {
    pub id: i64,
    pub table_id: i64,
    pub game_id: Option<i64>,
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

string_enum! {
    /// How a message reaches a player.
    Channel { Sms = "sms", Email = "email" }
}

string_enum! {
    /// Where an outbox message's delivery stands.
    OutboxStatus {
        /// Waiting for its turn (or for its next attempt after a failure).
        Pending = "pending",
        /// Claimed by a worker, being sent.
        Sending = "sending",
        Sent = "sent",
        /// Given up after its attempts.
        Failed = "failed",
    }
}

string_enum! {
    /// How one delivery attempt ended.
    AttemptOutcome {
        Started = "started",
        Sent = "sent",
        Error = "error",
        /// The worker stopped (or the server did) before the attempt ended.
        Interrupted = "interrupted",
    }
}

/// One player message in the outbox: what it says, to whom, by which channel, and
/// where its delivery stands.
#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = outbox)]
pub struct OutboxRow {
    pub id: i64,
    pub player_id: Option<i64>,
    pub kind: String,
    pub channel: Channel,
    pub recipient: String,
    pub language: String,
    pub params: String,
    pub subject: Option<String>,
    pub body: Option<String>,
    #[serde(skip)]
    pub idem_key: String,
    pub status: OutboxStatus,
    pub attempts: i32,
    pub next_attempt_at: NaiveDateTime,
    pub lease_until: Option<NaiveDateTime>,
    pub claimed_by: Option<String>,
    pub last_error: Option<String>,
    pub provider_ref: Option<String>,
    pub created_at: NaiveDateTime,
    pub sent_at: Option<NaiveDateTime>,
    pub failed_at: Option<NaiveDateTime>,
}

/// One delivery attempt of an outbox message.
#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = outbox_attempts)]
pub struct OutboxAttemptRow {
    pub id: i64,
    pub message_id: i64,
    pub attempt: i32,
    pub worker: String,
    pub transport: String,
    pub started_at: NaiveDateTime,
    pub finished_at: Option<NaiveDateTime>,
    pub outcome: AttemptOutcome,
    pub error: Option<String>,
    pub provider_ref: Option<String>,
}

/// PT-2007 24: a time a table was suspended.
#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = table_suspensions)]
pub struct SuspensionRow {
    pub id: i64,
    pub table_id: i64,
    pub from_at: NaiveDateTime,
    pub to_at: Option<NaiveDateTime>,
}

/// PT-2007 7b: one cagnotte session of a table, with the game's settings when it started.
#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = cagnotte_sessions)]
pub struct CagnotteSessionRow {
    pub id: i64,
    pub table_id: i64,
    pub game_id: i64,
    pub number: i32,
    pub started_at: NaiveDateTime,
    pub closed_at: Option<NaiveDateTime>,
    pub close_reason: Option<String>,
    pub closed_by: Option<i64>,
    pub bp: i32,
    pub base: String,
    pub table_max: Option<i64>,
    pub smallest_chip: i64,
    pub length_min: i32,
    pub late_window_min: i32,
}

/// PT-2007 7b: what one player owes for one session, and how it was settled.
#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = cagnotte_dues)]
pub struct CagnotteDueRow {
    pub id: i64,
    pub session_id: i64,
    pub table_id: i64,
    pub game_id: i64,
    pub player_id: i64,
    pub seating_id: i64,
    pub seat_no: i32,
    pub amount: i64,
    pub late: bool,
    pub due_at: NaiveDateTime,
    /// due | collected | exempt
    pub state: DueState,
    pub collected: Option<i64>,
    pub settled_at: Option<NaiveDateTime>,
    pub settled_by: Option<i64>,
    pub reason: Option<String>,
}

/// A dealer's shift at a table.
#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = dealer_shifts)]
pub struct DealerShiftRow {
    pub id: i64,
    pub table_id: i64,
    pub dealer_id: i64,
    pub started_at: NaiveDateTime,
    pub ended_at: Option<NaiveDateTime>,
}

/// PT-2007 5, 9d: tips recorded at a table (apart from the cagnotte).
#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize, utoipa::ToSchema)]
#[diesel(table_name = tips)]
pub struct TipRow {
    pub id: i64,
    pub table_id: i64,
    pub game_id: Option<i64>,
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
    pub table_id: i64,
    pub game_id: Option<i64>,
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
    pub table_id: i64,
    pub game_id: Option<i64>,
    pub round: i32,
    pub player_id: Option<i64>,
    pub payout: i64,
    pub amount: i64,
    /// UTC, served with its offset (`…Z`) like every time in the API.
    #[serde(serialize_with = "utc_z")]
    pub at: NaiveDateTime,
    pub recorded_by: Option<i64>,
}

/// BSOP 115, 116: where a special button of a table starts (a recorded draw), its hand
/// waiting for the next one (`pending`), and the Macaca's chips kept for her next hand.
#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = special_buttons)]
pub struct SpecialButtonRow {
    pub id: i64,
    pub table_id: i64,
    /// cucurucho | macaca
    pub kind: SpecialButton,
    pub seat_no: i32,
    pub draw_id: i64,
    pub drawn_at: NaiveDateTime,
    pub drawn_by: Option<i64>,
    /// Why it was drawn again (a redraw only).
    pub reason: Option<String>,
    pub pending: bool,
    /// The Macaca's chips kept for her next hand (minor units; 0: none, a new Macaca).
    pub bank: i64,
    /// Replaced by a later draw.
    pub ended_at: Option<NaiveDateTime>,
}

/// BSOP 115, 116: a hand played as a special game.
#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = special_hands)]
pub struct SpecialHandRow {
    pub id: i64,
    pub hand_id: i64,
    pub table_id: i64,
    pub game_id: Option<i64>,
    /// cucurucho | macaca
    pub kind: SpecialButton,
    pub button_id: i64,
    /// The special button's seat.
    pub button_seat: i32,
    /// The dealer button's seat for the hand.
    pub dealer_seat: Option<i32>,
    pub contribution_bb: i32,
    pub big_blind: i64,
    /// Each player's fixed contribution (minor units).
    pub amount: i64,
    /// The Macaca's chips from her earlier hands.
    pub bank_before: i64,
    /// The Macaca's all-in cap for the hand (minor units).
    pub cap: Option<i64>,
    /// The Macaca's result: won | lost.
    pub outcome: Option<MacacaOutcome>,
    /// What the Macaca collected from the pot when she won.
    pub collected: Option<i64>,
    /// What the Macaca put at stake (all in, up to the cap).
    pub stake: Option<i64>,
    /// What the Macaca keeps for her next hand.
    pub bank_after: Option<i64>,
    pub result_at: Option<NaiveDateTime>,
    pub result_by: Option<i64>,
    pub at: NaiveDateTime,
    pub recorded_by: Option<i64>,
}

/// One seat's fixed contribution to a special hand.
#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = special_contributions)]
pub struct SpecialContributionRow {
    pub id: i64,
    pub special_hand_id: i64,
    pub table_id: i64,
    pub seating_id: i64,
    pub player_id: i64,
    pub seat_no: i32,
    pub amount: i64,
    pub took_part: bool,
    /// When the dealer last marked the seat in or out.
    pub marked_at: Option<NaiveDateTime>,
    pub marked_by: Option<i64>,
}

/// BSOP 16-22: one ruling of the floor, open until `decided_at` (then final, BSOP 17).
#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = rulings)]
pub struct RulingRow {
    pub id: i64,
    pub table_id: i64,
    pub game_id: Option<i64>,
    pub hand_id: Option<i64>,
    pub hand_number: Option<i32>,
    /// The seats named, "3,7".
    pub seats: String,
    pub note: String,
    pub asked_at: NaiveDateTime,
    pub asked_by: Option<i64>,
    /// BSOP 19: why it was asked too late (`domain::ruling::LateReason`), if it was.
    pub late_reason: Option<String>,
    pub corrects: Option<i64>,
    pub decision: Option<String>,
    pub rule_cited: Option<String>,
    pub result_stands: Option<bool>,
    pub override_reason: Option<String>,
    pub decided_at: Option<NaiveDateTime>,
    pub decided_by: Option<i64>,
}

/// A player a ruling involves (named with the request, or by the decision).
#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = ruling_players)]
pub struct RulingPlayerRow {
    pub ruling_id: i64,
    pub player_id: i64,
    pub seat_no: Option<i32>,
    /// `asked` | `decided`.
    pub named_at: String,
}

/// BSOP 21: a pot held aside while a ruling is pending.
#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = held_pots)]
pub struct HeldPotRow {
    pub id: i64,
    pub ruling_id: i64,
    pub table_id: i64,
    pub amount: i64,
    pub seats: String,
    pub storage: String,
    /// `held` | `released`.
    pub state: HeldPotState,
    pub held_at: NaiveDateTime,
    pub held_by: Option<i64>,
    pub released_at: Option<NaiveDateTime>,
    pub released_by: Option<i64>,
}

/// BSOP 20, 21: the chips a decision moves, recorded by one staff member and confirmed by
/// another.
#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = ruling_moves)]
pub struct RulingMoveRow {
    pub id: i64,
    pub ruling_id: i64,
    pub table_id: i64,
    pub held_pot_id: Option<i64>,
    /// `recorded` | `confirmed` | `cancelled`.
    pub state: RulingMoveState,
    pub recorded_by: i64,
    pub recorded_at: NaiveDateTime,
    pub confirmed_by: Option<i64>,
    pub confirmed_at: Option<NaiveDateTime>,
    pub cancelled_by: Option<i64>,
    pub cancelled_at: Option<NaiveDateTime>,
}

/// One line of a move: from the held pot (`from_player_id` none) or a player, to a player.
#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = ruling_move_lines)]
pub struct RulingMoveLineRow {
    pub move_id: i64,
    pub line_no: i32,
    /// `release` | `reconstruction`.
    pub kind: MoveLineKind,
    pub from_player_id: Option<i64>,
    pub to_player_id: i64,
    pub amount: i64,
}

/// A stored UTC time (the database keeps it without offset) written as RFC 3339 with `Z`,
/// the form every API time has (`date-time` in the OpenAPI document).
fn utc_z<S: serde::Serializer>(t: &NaiveDateTime, s: S) -> Result<S::Ok, S::Error> {
    serde::Serialize::serialize(&t.and_utc(), s)
}

/// A request's idempotency key and, once stored, its answer (`web::idempotency`).
#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = idempotency_keys)]
pub struct IdempotencyRow {
    pub scope: String,
    pub idem_key: String,
    pub request_hash: String,
    pub created_at: NaiveDateTime,
    pub status: Option<i32>,
    pub content_type: Option<String>,
    pub location: Option<String>,
    pub set_cookie: Option<String>,
    pub body: Option<Vec<u8>>,
    pub body_dropped: bool,
}
