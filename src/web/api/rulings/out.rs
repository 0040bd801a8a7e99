//! A ruling as the API answers it: the ruling with its players, the pot held aside, the
//! chips a decision moves and their lines.

use super::utc;
use crate::db::models::{HeldPotRow, RulingMoveRow};
use crate::domain::ids::GameId;
use crate::domain::ids::PlayerId;
use crate::domain::ids::TableId;
use crate::domain::ruling::{
    HeldPotState, LateReason, MoveLineKind, NamedAt, RulingMoveState, RulingState,
};
use crate::services::rulings::{self as svc, RulingLine};
use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

/// A player a ruling involves.
#[derive(Debug, Serialize, ToSchema)]
pub struct RulingPlayerOut {
    #[schema(value_type = i64)]
    pub player_id: PlayerId,
    pub alias: String,
    /// The seat named with the request (none: named by the decision).
    pub seat_no: Option<i32>,
    pub named_at: NamedAt,
}

/// BSOP 21: a pot held aside while the decision is pending.
#[derive(Debug, Serialize, ToSchema)]
pub struct HeldPotOut {
    pub id: i64,
    pub ruling_id: i64,
    /// Minor units.
    pub amount: i64,
    pub seats: Vec<i32>,
    /// Where it is kept.
    pub storage: String,
    pub state: HeldPotState,
    pub held_at: DateTime<Utc>,
    pub held_by: Option<i64>,
    pub released_at: Option<DateTime<Utc>>,
}

pub(super) fn pot_out(p: &HeldPotRow) -> HeldPotOut {
    HeldPotOut {
        id: p.id,
        ruling_id: p.ruling_id,
        amount: p.amount,
        seats: crate::domain::ruling::parse_seats(&p.seats),
        storage: p.storage.clone(),
        state: p.pot_state(),
        held_at: utc(p.held_at),
        held_by: p.held_by,
        released_at: p.released_at.map(utc),
    }
}

/// One line of the chips a decision moves.
#[derive(Debug, Serialize, ToSchema)]
pub struct MoveLineOut {
    pub kind: MoveLineKind,
    /// None: from the pot held (BSOP 21).
    #[schema(value_type = Option<i64>)]
    pub from_player_id: Option<PlayerId>,
    #[schema(value_type = i64)]
    pub to_player_id: PlayerId,
    /// Minor units.
    pub amount: i64,
}

/// BSOP 20, 21: the chips a decision moves: recorded by the supervisor who decided, then
/// confirmed (the stacks on record change) or refused by a second staff member.
#[derive(Debug, Serialize, ToSchema)]
pub struct RulingChipsOut {
    pub id: i64,
    pub state: RulingMoveState,
    pub held_pot_id: Option<i64>,
    pub recorded_by: i64,
    pub recorded_at: DateTime<Utc>,
    pub confirmed_by: Option<i64>,
    pub confirmed_at: Option<DateTime<Utc>>,
    pub cancelled_by: Option<i64>,
    pub cancelled_at: Option<DateTime<Utc>>,
    pub lines: Vec<MoveLineOut>,
}

fn chips_out(m: &RulingMoveRow, lines: &[svc::LineView]) -> RulingChipsOut {
    RulingChipsOut {
        id: m.id,
        state: m.move_state(),
        held_pot_id: m.held_pot_id,
        recorded_by: m.recorded_by,
        recorded_at: utc(m.recorded_at),
        confirmed_by: m.confirmed_by,
        confirmed_at: m.confirmed_at.map(utc),
        cancelled_by: m.cancelled_by,
        cancelled_at: m.cancelled_at.map(utc),
        lines: lines
            .iter()
            .map(|l| MoveLineOut {
                kind: l.kind,
                from_player_id: l.line.from_player_id.map(PlayerId::get).map(PlayerId),
                to_player_id: l.line.to_player_id,
                amount: l.line.amount,
            })
            .collect(),
    }
}

/// One ruling of the incident log.
#[derive(Debug, Serialize, ToSchema)]
pub struct RulingOut {
    pub id: i64,
    #[schema(value_type = i64)]
    pub table_id: TableId,
    pub table_number: i32,
    #[schema(value_type = Option<i64>)]
    pub game_id: Option<GameId>,
    /// The hand named (the table's hand in play when asked, unless an earlier one was named);
    /// none: no hand dealt yet.
    pub hand_number: Option<i32>,
    pub seats: Vec<i32>,
    pub note: String,
    pub asked_at: DateTime<Utc>,
    pub asked_by: Option<i64>,
    pub state: RulingState,
    /// BSOP 19: asked after the next hand started, the table broke or a player involved moved
    /// or left.
    pub late: bool,
    pub late_reason: Option<LateReason>,
    /// Open: none. Final once given (BSOP 17).
    pub decision: Option<String>,
    pub rule: Option<String>,
    /// BSOP 19: for a late ruling, whether the hand's result stands (false: overridden with
    /// `override_reason`); none for a ruling asked in time.
    pub result_stands: Option<bool>,
    pub override_reason: Option<String>,
    pub decided_at: Option<DateTime<Utc>>,
    pub decided_by: Option<i64>,
    /// The earlier ruling this one corrects.
    pub corrects: Option<i64>,
    /// The later ruling that corrects this one.
    pub corrected_by: Option<i64>,
    pub players: Vec<RulingPlayerOut>,
    pub pot: Option<HeldPotOut>,
    pub chips: Option<RulingChipsOut>,
}

pub fn ruling_out(l: &RulingLine) -> RulingOut {
    let r = &l.ruling;
    RulingOut {
        id: r.id,
        table_id: r.table_id,
        table_number: l.table_number,
        game_id: r.game_id,
        hand_number: r.hand_number,
        seats: r.seat_numbers(),
        note: r.note.clone(),
        asked_at: utc(r.asked_at),
        asked_by: r.asked_by,
        state: r.state(),
        late: r.late().is_some(),
        late_reason: r.late(),
        decision: r.decision.clone(),
        rule: r.rule_cited.clone(),
        result_stands: r.result_stands,
        override_reason: r.override_reason.clone(),
        decided_at: r.decided_at.map(utc),
        decided_by: r.decided_by,
        corrects: r.corrects,
        corrected_by: l.corrected_by,
        players: l
            .players
            .iter()
            .map(|p| RulingPlayerOut {
                player_id: p.player_id,
                alias: p.alias.clone(),
                seat_no: p.seat_no,
                named_at: p.named_at,
            })
            .collect(),
        pot: l.pot.as_ref().map(pot_out),
        chips: l.moved.as_ref().map(|m| chips_out(m, &l.move_lines)),
    }
}

/// One ruling with the earlier rulings of the players it involves (BSOP 22: a participant's
/// history may be used to judge intent).
#[derive(Debug, Serialize, ToSchema)]
pub struct RulingDetailOut {
    pub ruling: RulingOut,
    /// Newest first, at most 20.
    pub earlier: Vec<RulingOut>,
}
