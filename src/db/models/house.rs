//! The house's take per session (PT-2007 7) and the special buttons' hands and contributions (BSOP
//! 115, 116).

use crate::db::schema::*;
use crate::domain::ids::GameId;
use crate::domain::ids::PlayerId;
use crate::domain::ids::SeatingId;
use crate::domain::ids::TableId;
use crate::domain::special_buttons::{MacacaOutcome, SpecialButton};
use crate::domain::states::DueState;
use chrono::NaiveDateTime;
use diesel::prelude::*;
use serde::Serialize;

/// PT-2007 7b: one cagnotte session of a table, with the game's settings when it started.
#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = cagnotte_sessions)]
pub struct CagnotteSessionRow {
    pub id: i64,
    pub table_id: TableId,
    pub game_id: GameId,
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
    pub table_id: TableId,
    pub game_id: GameId,
    pub player_id: PlayerId,
    pub seating_id: SeatingId,
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

/// BSOP 115, 116: where a special button of a table starts (a recorded draw), its hand
/// waiting for the next one (`pending`), and the Macaca's chips kept for her next hand.
#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = special_buttons)]
pub struct SpecialButtonRow {
    pub id: i64,
    pub table_id: TableId,
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
    pub table_id: TableId,
    pub game_id: Option<GameId>,
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
    pub table_id: TableId,
    pub seating_id: SeatingId,
    pub player_id: PlayerId,
    pub seat_no: i32,
    pub amount: i64,
    pub took_part: bool,
    /// When the dealer last marked the seat in or out.
    pub marked_at: Option<NaiveDateTime>,
    pub marked_by: Option<i64>,
}
