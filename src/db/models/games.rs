//! Games, tables, limit changes and draws.

use crate::db::schema::*;
use crate::domain::draw::DrawKind;
use crate::domain::ids::GameId;
use crate::domain::ids::TableId;
use crate::domain::states::{LimitChangeKind, LimitChangeState};
use crate::domain::table::TableState;
use chrono::NaiveDateTime;
use diesel::prelude::*;
use serde::Serialize;

#[derive(Debug, Clone, Queryable, Selectable, Insertable, AsChangeset, Serialize)]
#[diesel(table_name = games, treat_none_as_null = true)]
pub struct GameRow {
    pub id: GameId,
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
            GAME_PALETTE[self.id.get().unsigned_abs() as usize % GAME_PALETTE.len()]
        } else {
            &self.colour
        }
    }
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable, AsChangeset, Serialize)]
#[diesel(table_name = card_tables, treat_none_as_null = true)]
pub struct TableRow {
    pub id: TableId,
    pub number: i32,
    pub seats: i32,
    pub game_id: Option<GameId>,
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
#[diesel(table_name = draws)]
pub struct DrawRow {
    pub id: i64,
    pub kind: DrawKind,
    /// The draw's u64 seed, stored bit-for-bit in a signed column.
    pub seed: i64,
    pub inputs: String,
    pub result: String,
    pub game_id: Option<GameId>,
    pub table_id: Option<TableId>,
    pub created_at: NaiveDateTime,
    pub created_by: Option<i64>,
}

/// A table's limits history (PT-2007 22, BSOP 34): the limits it opened with, and each change
/// approved by the floor or made by editing its game, pending until applied or cancelled.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = limit_changes)]
pub struct LimitChangeRow {
    pub id: i64,
    pub table_id: TableId,
    pub game_id: Option<GameId>,
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
