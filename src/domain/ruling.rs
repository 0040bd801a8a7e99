//! The floor's rulings (BSOP 16-22): when a ruling is asked in time, what a late one may still
//! change, a pot held aside while it is pending, and the chips a decision moves.
//!
//! BSOP 16, 17: "A decisão do pessoal de direção e supervisão do torneio é final." A decision
//! is recorded once and never changed; an error in it is put right only by a later ruling that
//! names it (the services and the database keep to this; nothing here edits a decision).
//!
//! BSOP 18: "O momento adequado para chamar a atenção para um erro ou irregularidade é quando
//! ele ocorre": the request names the hand in play, taken by the server when it is asked.
//!
//! BSOP 19: "Um pedido de decisão deve ser feito antes do início da próxima mão ou antes do
//! jogo terminar (mesa desfeita) ou mudar para outra mesa. Caso contrário, o resultado da mão
//! anterior permanecerá válido. O primeiro trançar das cartas (riffle) do embaralhamento marca
//! o início de uma mão." For the product the dealer's "new hand" tap is that first riffle.
//!
//! BSOP 20: a pot awarded wrongly may be reconstructed and moved to the right player only
//! while BSOP 19's window is open. BSOP 21: a pot, or part of it, may be taken off the table
//! while the decision is pending. BSOP 22: a participant's history may be used to judge intent
//! (the services show the players' earlier rulings beside the answer form).

use super::enums::string_enum;
use super::error::{FieldError, Problem};
use super::refusal::RulingRefusal;
use super::table::TableState;
use crate::domain::ids::PlayerId;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The longest note sent with a request (what happened, in a few words).
pub const NOTE_MAX: usize = 300;
/// The longest decision text.
pub const DECISION_MAX: usize = 2000;
/// The longest rule citation ("BSOP 20", "TDA 42").
pub const RULE_MAX: usize = 60;
/// The longest reason for overriding BSOP 19's "result stands".
pub const REASON_MAX: usize = 300;
/// The longest description of where a held pot is kept.
pub const STORAGE_MAX: usize = 100;
/// BSOP 17: the supervisor's decision is final, so a ruling is recorded only with the
/// decision written out (the refusal's catalog key when it is empty).
pub const DECISION_REQUIRED: &str = "err-ruling-decision-required";
/// BSOP 21: a pot taken off the table is kept somewhere named until it is released.
pub const STORAGE_REQUIRED: &str = "err-ruling-storage-required";
/// The most lines a decision's chips may be split into (a table has at most 11 seats).
pub const LINES_MAX: usize = 11;

string_enum! {
    /// A ruling is open until the floor decides it; then it is final (BSOP 17).
    RulingState { Open = "open", Decided = "decided" }
}

string_enum! {
    /// BSOP 19: why a ruling was asked too late.
    LateReason {
        /// The hand named is no longer the table's hand in play: the next one started.
        NextHand = "next_hand",
        /// The table broke (closed) after the hand named.
        TableBroken = "table_broken",
        /// A player involved moved to another table after the hand.
        PlayerMoved = "player_moved",
        /// A player involved left the table after the hand.
        PlayerLeft = "player_left",
    }
}

string_enum! {
    /// BSOP 21: a pot held aside, until the decision releases it.
    HeldPotState { Held = "held", Released = "released" }
}

string_enum! {
    /// The chips a decision moves: recorded by the supervisor who decided, then confirmed by a
    /// second, different staff member (the stacks change then) or refused by them.
    RulingMoveState { Recorded = "recorded", Confirmed = "confirmed", Cancelled = "cancelled" }
}

string_enum! {
    /// A line of a decision's chips: from the held pot (BSOP 21) or from a player's stack, a pot
    /// reconstructed (BSOP 20).
    MoveLineKind { Release = "release", Reconstruction = "reconstruction" }
}

string_enum! {
    /// When a player was named in a ruling: with the request (the seats named) or by the
    /// decision.
    NamedAt { Asked = "asked", Decided = "decided" }
}

// ---- BSOP 19: the window -----------------------------------------------------------------

/// A hand of the table: its number and the "new hand" tap that started it (the first riffle).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HandAt {
    pub number: i32,
    pub started_at: DateTime<Utc>,
}

/// A seat named in a request, as the seating that held it at the start of the hand named.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeatAtHand {
    pub seat: i32,
    /// When that player left the table since (none: still seated there).
    pub left_at: Option<DateTime<Utc>>,
    /// The player sits at another table now (BSOP 19 "mudar para outra mesa").
    pub moved: bool,
}

/// What BSOP 19 looks at when a ruling is asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Window {
    /// The hand the request names (none: the table has dealt no hand yet).
    pub named: Option<HandAt>,
    /// The table's hand in play now (its latest "new hand" tap).
    pub current: Option<i32>,
    pub table_state: TableState,
    /// When the table was last opened for a game.
    pub opened_at: Option<DateTime<Utc>>,
    /// The seats named, each as the seating that held it at the start of the hand.
    pub seats: Vec<SeatAtHand>,
}

/// BSOP 19: `None` when the ruling is asked in time, else why it is late, the first of: the
/// next hand started (the hand named is no longer the table's hand in play), the table broke
/// (it is closed, or was closed and opened again after the hand started), a player involved
/// moved to another table, or left. Seats are looked at in the order named.
pub fn lateness(w: &Window) -> Option<LateReason> {
    if let Some(h) = w.named {
        if w.current != Some(h.number) {
            return Some(LateReason::NextHand);
        }
    }
    if w.table_state == TableState::Closed {
        return Some(LateReason::TableBroken);
    }
    if let (Some(h), Some(opened)) = (w.named, w.opened_at) {
        if opened > h.started_at {
            return Some(LateReason::TableBroken);
        }
    }
    w.seats.iter().find(|s| s.left_at.is_some()).map(|s| {
        if s.moved {
            LateReason::PlayerMoved
        } else {
            LateReason::PlayerLeft
        }
    })
}

/// BSOP 19: what a decision says of the hand's result. A ruling asked in time: `None` (the
/// decision says what happens). A late one: `Some(true)`, the previous hand's result stands,
/// unless the floor overrides it with a reason (BSOP 16: justice over technical rules):
/// `Some(false)`. Overriding a ruling asked in time, or without a reason, is refused on the
/// field concerned.
pub fn result_stands(
    late: Option<LateReason>,
    override_result: bool,
    reason: Option<&str>,
) -> Result<Option<bool>, FieldError> {
    let reason = reason.map(str::trim).filter(|r| !r.is_empty());
    // A reason is never longer than its bound, used or not.
    if reason.is_some_and(|r| r.chars().count() > REASON_MAX) {
        return Err(FieldError::new("override_reason", "err-too-long").arg("max", REASON_MAX));
    }
    match (late, override_result) {
        (None, false) => Ok(None),
        (None, true) => Err(FieldError::new("override_result", "err-ruling-not-late")),
        (Some(_), false) => Ok(Some(true)),
        (Some(_), true) => match reason {
            None => Err(FieldError::new(
                "override_reason",
                "err-ruling-override-reason",
            )),
            Some(_) => Ok(Some(false)),
        },
    }
}

// ---- BSOP 21: a pot held aside -------------------------------------------------------------

/// BSOP 21: a pot, or part of it, taken off the table: at least one minor unit, and never
/// more than the chips the table has on record (the seated players' stacks, `on_table`).
pub fn check_held_amount(amount: i64, on_table: i64) -> Result<(), FieldError> {
    if amount < 1 {
        return Err(FieldError::new("amount", "err-ruling-pot-positive"));
    }
    if amount > on_table {
        return Err(FieldError::new("amount", "err-ruling-pot-over-table").arg("max", on_table));
    }
    Ok(())
}

/// A player's share of a held pot's release.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Share {
    pub player_id: PlayerId,
    pub amount: i64,
}

/// BSOP 21: the held pot goes to named players, each at least one minor unit, each named once,
/// the shares summing exactly to the amount held (added without wrapping). Refused on the
/// `release` field.
pub fn check_release(held: i64, shares: &[Share]) -> Result<(), FieldError> {
    const F: &str = "release";
    if shares.is_empty() {
        return Err(FieldError::new(F, "err-ruling-release-required").arg("amount", held));
    }
    if shares.len() > LINES_MAX {
        return Err(FieldError::new(F, "err-ruling-too-many-lines").arg("max", LINES_MAX));
    }
    let mut total: i64 = 0;
    for (i, s) in shares.iter().enumerate() {
        if s.amount < 1 {
            return Err(FieldError::new(F, "err-ruling-share-positive"));
        }
        if shares[..i].iter().any(|o| o.player_id == s.player_id) {
            return Err(FieldError::new(F, "err-ruling-player-twice"));
        }
        total = super::money::add(total, s.amount)
            .map_err(|_| FieldError::new(F, "err-ruling-release-sum").arg("amount", held))?;
    }
    if total != held {
        return Err(FieldError::new(F, "err-ruling-release-sum")
            .arg("amount", held)
            .arg("total", total));
    }
    Ok(())
}

// ---- BSOP 20: a pot reconstructed ----------------------------------------------------------

/// A player's stack on record at the table, and what the reconstruction takes from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Taken {
    pub player_id: PlayerId,
    pub amount: i64,
    /// The player's stack on record (`seatings.stack`).
    pub stack: i64,
}

/// BSOP 20: "a administração pode determinar quanto havia no pote reconstruindo a aposta, e
/// em seguida, transfira esse valor para o participante adequado" — only while BSOP 19's
/// window is open (a late ruling: 409, nothing moved). Each amount is at least one minor unit
/// and at most the player's stack on record; the right player is not among those it is taken
/// from; what they receive keeps their stack within `stack_max` (`domain::money::stack`).
/// Field refusals on `reconstruction`.
pub fn check_reconstruction(
    late: Option<LateReason>,
    from: &[Taken],
    to_player: PlayerId,
    to_stack: i64,
    stack_max: i64,
) -> Result<i64, Refusal> {
    const F: &str = "reconstruction";
    if let Some(why) = late {
        return Err(Refusal::Rule(Problem::from(
            RulingRefusal::ReconstructionLate { why: why.as_str() },
        )));
    }
    if from.is_empty() {
        return Err(Refusal::Field(FieldError::new(
            F,
            "err-ruling-reconstruction-empty",
        )));
    }
    if from.len() > LINES_MAX {
        return Err(Refusal::Field(
            FieldError::new(F, "err-ruling-too-many-lines").arg("max", LINES_MAX),
        ));
    }
    let mut total: i64 = 0;
    for (i, t) in from.iter().enumerate() {
        if t.player_id == to_player {
            return Err(Refusal::Field(FieldError::new(
                F,
                "err-ruling-reconstruction-self",
            )));
        }
        if from[..i].iter().any(|o| o.player_id == t.player_id) {
            return Err(Refusal::Field(FieldError::new(
                F,
                "err-ruling-player-twice",
            )));
        }
        if t.amount < 1 {
            return Err(Refusal::Field(FieldError::new(
                F,
                "err-ruling-share-positive",
            )));
        }
        if t.amount > t.stack {
            return Err(Refusal::Field(
                FieldError::new(F, "err-ruling-over-stack")
                    .arg("stack", t.stack.max(0))
                    .arg("player", t.player_id),
            ));
        }
        total = super::money::add(total, t.amount).map_err(|_| {
            Refusal::Field(FieldError::new(F, "err-ruling-over-stack-max").arg("max", stack_max))
        })?;
    }
    match super::money::add(to_stack.max(0), total) {
        Ok(after) if after <= stack_max => Ok(total),
        _ => Err(Refusal::Field(
            FieldError::new(F, "err-ruling-over-stack-max").arg("max", stack_max),
        )),
    }
}

/// A refusal of the domain: a rule of the state (409) or a field typed (422).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    Rule(Problem),
    Field(FieldError),
}

// ---- two staff members -------------------------------------------------------------------

/// BSOP 20, 21 (as custody, BSOP 36): the chips a decision moves are recorded by one staff
/// member and confirmed by another; the same person twice is refused.
pub fn check_second_staff(recorded_by: i64, confirmer: i64) -> Result<(), Problem> {
    if recorded_by == confirmer {
        return Err(RulingRefusal::SameStaff.into());
    }
    Ok(())
}

// ---- texts and seats -------------------------------------------------------------------------

/// A text typed in `field`: trimmed, at most `max` characters; `required` is the refusal's
/// catalog key when it may not be empty (it names the rule that asks for it).
pub fn text(
    field: &str,
    v: &str,
    max: usize,
    required: Option<&'static str>,
) -> Result<String, FieldError> {
    let v = v.trim();
    if let (Some(key), true) = (required, v.is_empty()) {
        return Err(FieldError::new(field, key));
    }
    if v.chars().count() > max {
        return Err(FieldError::new(field, "err-too-long").arg("max", max));
    }
    Ok(v.to_string())
}

/// The seats named, each once, in the order named, within the table's `1..=seats` (422 on
/// `seats` naming the seat otherwise); at most [`LINES_MAX`] named (counted as sent).
pub fn check_seats(seats: &[i32], table_seats: i32) -> Result<Vec<i32>, FieldError> {
    if seats.len() > LINES_MAX {
        return Err(FieldError::new("seats", "err-ruling-too-many-seats").arg("max", LINES_MAX));
    }
    let mut out: Vec<i32> = Vec::new();
    for &s in seats {
        if !(1..=table_seats).contains(&s) {
            return Err(FieldError::new("seats", "err-ruling-seat")
                .arg("seat", s)
                .arg("max", table_seats));
        }
        if !out.contains(&s) {
            out.push(s);
        }
    }
    Ok(out)
}

/// Seats as stored and shown: "3, 7".
pub fn format_seats(seats: &[i32]) -> String {
    super::seat_pref::format_numbers(seats)
}

/// Seats as stored back into numbers (anything else is skipped).
pub fn parse_seats(stored: &str) -> Vec<i32> {
    stored
        .split([',', ' '])
        .filter_map(|s| s.trim().parse().ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{Duration, TimeZone};
    use proptest::prelude::*;

    fn t(min: i64) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 28, 21, 0, 0).unwrap() + Duration::minutes(min)
    }

    /// Hand 12 started at minute 0 of a running table opened an hour before, seat 3 still
    /// seated: asked in time.
    fn in_time() -> Window {
        Window {
            named: Some(HandAt {
                number: 12,
                started_at: t(0),
            }),
            current: Some(12),
            table_state: TableState::Running,
            opened_at: Some(t(-60)),
            seats: vec![SeatAtHand {
                seat: 3,
                left_at: None,
                moved: false,
            }],
        }
    }

    #[test]
    fn bsop_19_asked_during_the_hand_in_play_is_in_time() {
        assert_eq!(lateness(&in_time()), None);
    }

    #[test]
    fn bsop_19_once_the_next_hand_started_the_ruling_is_late() {
        let mut w = in_time();
        w.current = Some(13);
        assert_eq!(lateness(&w), Some(LateReason::NextHand));
        // The hand before the one in play, named explicitly: late too.
        let mut w = in_time();
        w.named = Some(HandAt {
            number: 11,
            started_at: t(-3),
        });
        assert_eq!(lateness(&w), Some(LateReason::NextHand));
    }

    #[test]
    fn bsop_19_a_table_with_no_hand_yet_is_in_time() {
        let mut w = in_time();
        w.named = None;
        w.current = None;
        assert_eq!(lateness(&w), None);
    }

    #[test]
    fn bsop_19_a_broken_table_closes_the_window() {
        let mut w = in_time();
        w.table_state = TableState::Closed;
        assert_eq!(lateness(&w), Some(LateReason::TableBroken));
        // Broken and opened again after the hand started (no hand dealt since): still late.
        let mut w = in_time();
        w.opened_at = Some(t(1));
        assert_eq!(lateness(&w), Some(LateReason::TableBroken));
        // Opened at the very instant the hand started: the hand belongs to this game.
        let mut w = in_time();
        w.opened_at = Some(t(0));
        assert_eq!(lateness(&w), None);
        // A suspended table has not broken (PT-2007 24: it may resume).
        let mut w = in_time();
        w.table_state = TableState::Suspended;
        assert_eq!(lateness(&w), None);
    }

    #[test]
    fn bsop_19_a_player_who_moved_or_left_closes_the_window() {
        let mut w = in_time();
        w.seats.push(SeatAtHand {
            seat: 7,
            left_at: Some(t(1)),
            moved: true,
        });
        assert_eq!(lateness(&w), Some(LateReason::PlayerMoved));
        let mut w = in_time();
        w.seats[0].left_at = Some(t(1));
        assert_eq!(lateness(&w), Some(LateReason::PlayerLeft));
        // The next hand is the first reason said.
        w.current = Some(13);
        assert_eq!(lateness(&w), Some(LateReason::NextHand));
    }

    #[test]
    fn bsop_19_a_late_result_stands_unless_overridden_with_a_reason() {
        let late = Some(LateReason::NextHand);
        assert_eq!(result_stands(None, false, None), Ok(None));
        assert_eq!(result_stands(late, false, None), Ok(Some(true)));
        assert_eq!(
            result_stands(late, true, Some("camera shows the dealer misread")),
            Ok(Some(false))
        );
        assert_eq!(
            result_stands(late, true, Some("   ")).unwrap_err().field,
            "override_reason"
        );
        assert_eq!(
            result_stands(late, true, None).unwrap_err().key,
            "err-ruling-override-reason"
        );
        assert_eq!(
            result_stands(None, true, Some("x")).unwrap_err().field,
            "override_result"
        );
        let long = "x".repeat(REASON_MAX + 1);
        assert_eq!(
            result_stands(late, true, Some(&long)).unwrap_err().key,
            "err-too-long"
        );
        // Sent without overriding it is not used, but still held to its bound.
        for l in [None, late] {
            assert_eq!(
                result_stands(l, false, Some(&long)).unwrap_err().field,
                "override_reason"
            );
        }
    }

    #[test]
    fn bsop_21_a_held_pot_is_positive_and_no_more_than_the_chips_on_the_table() {
        assert!(check_held_amount(1, 1).is_ok());
        assert!(check_held_amount(50_000, 50_000).is_ok());
        assert_eq!(
            check_held_amount(0, 100).unwrap_err().key,
            "err-ruling-pot-positive"
        );
        assert_eq!(
            check_held_amount(-5, 100).unwrap_err().key,
            "err-ruling-pot-positive"
        );
        let e = check_held_amount(50_001, 50_000).unwrap_err();
        assert_eq!(
            (e.field.as_str(), e.key),
            ("amount", "err-ruling-pot-over-table")
        );
    }

    #[test]
    fn bsop_21_a_release_sums_to_the_pot_held() {
        let s = |p, a| Share {
            player_id: p,
            amount: a,
        };
        assert!(check_release(100, &[s(PlayerId(1), 60), s(PlayerId(2), 40)]).is_ok());
        assert_eq!(
            check_release(100, &[s(PlayerId(1), 60), s(PlayerId(2), 39)])
                .unwrap_err()
                .key,
            "err-ruling-release-sum"
        );
        assert_eq!(
            check_release(100, &[]).unwrap_err().key,
            "err-ruling-release-required"
        );
        assert_eq!(
            check_release(100, &[s(PlayerId(1), 60), s(PlayerId(1), 40)])
                .unwrap_err()
                .key,
            "err-ruling-player-twice"
        );
        assert_eq!(
            check_release(100, &[s(PlayerId(1), 101), s(PlayerId(2), -1)])
                .unwrap_err()
                .key,
            "err-ruling-share-positive"
        );
        // Shares that would wrap i64 are refused, never summed around.
        assert!(check_release(100, &[s(PlayerId(1), i64::MAX), s(PlayerId(2), i64::MAX)]).is_err());
    }

    #[test]
    fn bsop_20_a_reconstruction_is_refused_once_late_and_bounded_by_the_stacks() {
        let from = [Taken {
            player_id: PlayerId(1),
            amount: 300,
            stack: 500,
        }];
        assert_eq!(
            check_reconstruction(None, &from, PlayerId(2), 1_000, 10_000),
            Ok(300)
        );
        assert!(matches!(
            check_reconstruction(Some(LateReason::NextHand), &from, PlayerId(2), 1_000, 10_000),
            Err(Refusal::Rule(p)) if p.key == "err-ruling-reconstruction-late"
        ));
        let over = [Taken {
            player_id: PlayerId(1),
            amount: 501,
            stack: 500,
        }];
        assert!(matches!(
            check_reconstruction(None, &over, PlayerId(2), 1_000, 10_000),
            Err(Refusal::Field(f)) if f.key == "err-ruling-over-stack" && f.field == "reconstruction"
        ));
        assert!(matches!(
            check_reconstruction(None, &from, PlayerId(1), 1_000, 10_000),
            Err(Refusal::Field(f)) if f.key == "err-ruling-reconstruction-self"
        ));
        assert!(matches!(
            check_reconstruction(None, &from, PlayerId(2), 9_800, 10_000),
            Err(Refusal::Field(f)) if f.key == "err-ruling-over-stack-max"
        ));
        assert!(matches!(
            check_reconstruction(None, &[], PlayerId(2), 0, 10_000),
            Err(Refusal::Field(f)) if f.key == "err-ruling-reconstruction-empty"
        ));
    }

    #[test]
    fn two_different_staff_members_move_chips() {
        assert!(check_second_staff(4, 5).is_ok());
        assert_eq!(
            check_second_staff(4, 4).unwrap_err().key,
            "err-ruling-same-staff"
        );
    }

    #[test]
    fn seats_are_checked_against_the_table_and_kept_once() {
        assert_eq!(check_seats(&[7, 3, 7], 9), Ok(vec![7, 3]));
        let e = check_seats(&[10], 9).unwrap_err();
        assert_eq!((e.field.as_str(), e.key), ("seats", "err-ruling-seat"));
        assert!(check_seats(&[0], 9).is_err());
        assert_eq!(
            check_seats(&[1; 12], 9).unwrap_err().key,
            "err-ruling-too-many-seats"
        );
        assert_eq!(parse_seats(&format_seats(&[3, 7])), vec![3, 7]);
        assert_eq!(parse_seats(""), Vec::<i32>::new());
    }

    #[test]
    fn texts_are_trimmed_required_and_bounded() {
        assert_eq!(
            text("decision", "  Pot to seat 4 ", 20, Some(DECISION_REQUIRED)).unwrap(),
            "Pot to seat 4"
        );
        assert_eq!(
            text("decision", "   ", 10, Some(DECISION_REQUIRED))
                .unwrap_err()
                .key,
            DECISION_REQUIRED
        );
        assert_eq!(text("note", "", 10, None).unwrap(), "");
        assert_eq!(
            text("note", "12345678901", 10, None).unwrap_err().key,
            "err-too-long"
        );
    }

    proptest! {
        /// BSOP 19 at its edge, as an invariant: a ruling naming a hand is in time exactly when
        /// that hand is the one in play, the table has not broken since it started and nobody
        /// named has left since.
        #[test]
        fn bsop_19_in_time_iff_same_hand_same_game_nobody_gone(
            named in 1i32..50, current in 1i32..50, closed in any::<bool>(),
            reopened_after in -30i64..30, left in proptest::option::of(1i64..30), moved in any::<bool>()
        ) {
            let w = Window {
                named: Some(HandAt { number: named, started_at: t(0) }),
                current: Some(current),
                table_state: if closed { TableState::Closed } else { TableState::Running },
                opened_at: Some(t(reopened_after)),
                seats: vec![SeatAtHand { seat: 1, left_at: left.map(t), moved }],
            };
            let in_time = named == current && !closed && reopened_after <= 0 && left.is_none();
            prop_assert_eq!(lateness(&w).is_none(), in_time);
        }

        /// BSOP 21: a release is accepted exactly when positive shares of distinct players sum
        /// to the pot held.
        #[test]
        fn bsop_21_release_accepted_iff_shares_sum_to_the_pot(
            held in 1i64..1_000_000, shares in proptest::collection::vec((1i64..6, -5i64..400_000), 1..6)
        ) {
            let v: Vec<Share> = shares.iter().map(|&(p, a)| Share { player_id: PlayerId(p), amount: a }).collect();
            let distinct = v.iter().enumerate().all(|(i, s)| v[..i].iter().all(|o| o.player_id != s.player_id));
            let positive = v.iter().all(|s| s.amount >= 1);
            let sum: i64 = v.iter().map(|s| s.amount).sum();
            let ok = distinct && positive && sum == held;
            prop_assert_eq!(check_release(held, &v).is_ok(), ok);
        }
    }
}
