//! The waiting lists and the seats: entries, seatings, seat calls, holds, seat changes, must-move
//! refusals.

use crate::db::schema::*;
use crate::domain::ids::EntryId;
use crate::domain::ids::GameId;
use crate::domain::ids::PlayerId;
use crate::domain::ids::SeatCallId;
use crate::domain::ids::SeatingId;
use crate::domain::ids::TableId;
use crate::domain::states::{
    CallSource, CallState, EntryState, ListSource, MustMoveChoice, SeatChangeState,
};
use chrono::NaiveDateTime;
use diesel::prelude::*;
use serde::Serialize;

#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = waitlist_entries)]
pub struct WaitlistRow {
    pub id: EntryId,
    pub game_id: GameId,
    pub player_id: PlayerId,
    pub order_key: i64,
    /// Read by the thousand on the board: see [`super::time`].
    #[diesel(deserialize_as = crate::db::time::DbTime)]
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
    pub id: SeatingId,
    pub table_id: TableId,
    pub seat_no: i32,
    pub player_id: PlayerId,
    pub game_id: Option<GameId>,
    pub entry_id: Option<EntryId>,
    /// Read by the thousand on the board: see [`super::time`].
    #[diesel(deserialize_as = crate::db::time::DbTime)]
    pub sat_at: NaiveDateTime,
    pub left_at: Option<NaiveDateTime>,
    pub left_reason: Option<String>,
    pub seated_by: Option<i64>,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = seat_calls)]
pub struct SeatCallRow {
    pub id: SeatCallId,
    pub table_id: TableId,
    pub seat_no: i32,
    pub player_id: PlayerId,
    pub entry_id: Option<EntryId>,
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
    pub table_id: TableId,
    pub seat_no: i32,
    pub player_id: Option<PlayerId>,
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
    pub table_id: TableId,
    pub player_id: PlayerId,
    pub requested_at: NaiveDateTime,
    pub resolved_at: Option<NaiveDateTime>,
    pub state: SeatChangeState,
}

/// BSOP 55: a must-move player who refused to move to the main game.
#[derive(Debug, Clone, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = must_move_refusals)]
pub struct MustMoveRefusalRow {
    pub id: i64,
    pub game_id: GameId,
    /// The must-move table the player refused to leave.
    pub table_id: TableId,
    pub player_id: PlayerId,
    /// The seating at the must-move table, ended by the refusal.
    pub seating_id: SeatingId,
    /// give_up | rejoin_later
    pub choice: MustMoveChoice,
    pub refused_at: NaiveDateTime,
    /// rejoin_later: not on this game's list before this time.
    pub rejoin_after: Option<NaiveDateTime>,
    pub created_by: Option<i64>,
}
