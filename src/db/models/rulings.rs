//! The floor's rulings, the players they concern, held pots and the chips they move.

use crate::db::schema::*;
use crate::domain::ids::GameId;
use crate::domain::ids::PlayerId;
use crate::domain::ids::TableId;
use crate::domain::ruling::{HeldPotState, MoveLineKind, RulingMoveState};
use chrono::NaiveDateTime;
use diesel::prelude::*;
use serde::Serialize;

/// BSOP 16-22: one ruling of the floor, open until `decided_at` (then final, BSOP 17).
#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = rulings)]
pub struct RulingRow {
    pub id: i64,
    pub table_id: TableId,
    pub game_id: Option<GameId>,
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
    pub player_id: PlayerId,
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
    pub table_id: TableId,
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
    pub table_id: TableId,
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
    pub from_player_id: Option<PlayerId>,
    pub to_player_id: PlayerId,
    pub amount: i64,
}
