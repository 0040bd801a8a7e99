//! The special buttons (BSOP 115, 116): the Cucurucho and the Macaca.
//!
//! Both are extra buttons "que terá sua posição inicial sorteada": a game may run either or
//! both (a game setting, off by default); at a table of that game each button's starting
//! seat is drawn ([`super::draw::Draw::special_button`]), and "quando o botão do dealer
//! estiver no mesmo assento" the hand is played as the special game, every player putting a
//! fixed amount of 3 to 5 big blinds.
//!
//! **When the dealer button reaches a special button.** The dealer button skips empty and
//! away seats ([`super::seat_rules::next_button`]), so it may never stop on the special
//! seat. The special hand is therefore the hand whose "new hand" tap moves the dealer button
//! **onto or past** the special seat, clockwise ([`reaches`]): the seats after the old button
//! up to and including the new one. Each full turn of the dealer button passes every seat
//! exactly once, so the special hand comes exactly once per orbit, whichever seats are empty
//! (the property test below). A button drawn onto the dealer button's own seat plays when the
//! dealer button comes round to it again.
//!
//! **After its hand** the special button stays where it is: the text draws only its
//! *starting* seat and says nothing of moving it, so it marks one seat of the table until the
//! floor draws it again (with a reason). Its next hand is one orbit later.
//!
//! **One special game per hand.** A single move can reach both buttons (the seats between
//! them empty or away). The hand is then the special game of the one reached first
//! clockwise; the other waits and is the next hand ([`on_button_move`]): a hand cannot be
//! both games, and neither is lost.
//!
//! **The Macaca's chips** (BSOP 116: "se a Macaca vencer a mão, o valor será acumulado …
//! o All in dela passará a ser somente destes 20 blinds, e as fichas restantes … deverão ser
//! apostadas novamente em uma próxima rodada, até que a Macaca perca todas as suas fichas e
//! seja eliminada"). A new Macaca — one with no chips — is funded by the players' fixed
//! contributions. She goes all in with at most her cap (20 big blinds by default, a game
//! setting); what is over the cap is set aside for her next hand. If she wins, what she
//! collects joins the chips set aside; if she loses, she keeps only those. While she has
//! chips left she plays them on her next hand and nobody contributes; once she has none she
//! is eliminated and the next Macaca hand starts a new one ([`Macaca`]).

use super::enums::string_enum;
use super::error::{FieldError, Problem};
use super::money::{self, Overflow};
use super::refusal::{ButtonRefusal, GeneralRefusal};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

string_enum! {
    /// BSOP 115, 116: the special buttons a game may run.
    SpecialButton {
        /// BSOP 115: every player puts the fixed amount in the pot.
        Cucurucho = "cucurucho",
        /// BSOP 116: every player puts the fixed amount for the Macaca, an invisible player
        /// always all in.
        Macaca = "macaca",
    }
}

string_enum! {
    /// BSOP 116: how the Macaca's hand ended.
    MacacaOutcome {
        /// She won (all or part of) the pot: "o valor será acumulado".
        Won = "won",
        /// She lost the chips she put at stake.
        Lost = "lost",
    }
}

impl SpecialButton {
    /// The rule that describes it.
    pub fn rule(self) -> &'static str {
        match self {
            SpecialButton::Cucurucho => "BSOP 115",
            SpecialButton::Macaca => "BSOP 116",
        }
    }

    /// The game setting that turns it on.
    pub fn on_field(self) -> &'static str {
        match self {
            SpecialButton::Cucurucho => "cucurucho",
            SpecialButton::Macaca => "macaca",
        }
    }

    /// The game setting of its fixed contribution, in big blinds.
    pub fn contribution_field(self) -> &'static str {
        match self {
            SpecialButton::Cucurucho => "cucurucho_bb",
            SpecialButton::Macaca => "macaca_bb",
        }
    }

    /// The other special button.
    pub fn other(self) -> SpecialButton {
        match self {
            SpecialButton::Cucurucho => SpecialButton::Macaca,
            SpecialButton::Macaca => SpecialButton::Cucurucho,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The game's settings
// ---------------------------------------------------------------------------------------------

/// BSOP 115 "média de 3x a 5x o blind", BSOP 116 "entre 3x a 5x o valor do big blind": each
/// player's fixed contribution, in big blinds.
pub const CONTRIBUTION_BB_MIN: i32 = 3;
pub const CONTRIBUTION_BB_MAX: i32 = 5;
/// A new game's contribution when the admin turns a button on without saying.
pub const CONTRIBUTION_BB_DEFAULT: i32 = 3;

/// BSOP 116: "um valor muito alto pré determinado (em média 20 blinds)": the most the Macaca
/// puts all in on one hand, in big blinds. The text gives 20 as the usual figure and leaves it
/// to the house; the product accepts 10 to 50 (below 10 a new Macaca's contributions at a
/// full table would mostly wait aside; above 50 the cap stops meaning "a very high amount").
pub const MACACA_CAP_BB_DEFAULT: i32 = 20;
pub const MACACA_CAP_BB_MIN: i32 = 10;
pub const MACACA_CAP_BB_MAX: i32 = 50;

/// A game's special buttons as the admin sets them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    pub cucurucho: bool,
    pub cucurucho_bb: i32,
    pub macaca: bool,
    pub macaca_bb: i32,
    pub macaca_cap_bb: i32,
}

impl Default for Settings {
    /// Off, with the usual figures ready for when they are turned on.
    fn default() -> Self {
        Settings {
            cucurucho: false,
            cucurucho_bb: CONTRIBUTION_BB_DEFAULT,
            macaca: false,
            macaca_bb: CONTRIBUTION_BB_DEFAULT,
            macaca_cap_bb: MACACA_CAP_BB_DEFAULT,
        }
    }
}

impl Settings {
    /// Whether the game runs this button.
    pub fn runs(&self, b: SpecialButton) -> bool {
        match b {
            SpecialButton::Cucurucho => self.cucurucho,
            SpecialButton::Macaca => self.macaca,
        }
    }

    /// The button's fixed contribution, in big blinds.
    pub fn contribution_bb(&self, b: SpecialButton) -> i32 {
        match b {
            SpecialButton::Cucurucho => self.cucurucho_bb,
            SpecialButton::Macaca => self.macaca_bb,
        }
    }
}

/// Checks a game's special buttons: each contribution 3 to 5 big blinds (BSOP 115, 116; also
/// while the button is off, so a stored figure is always one the rule allows), the Macaca's
/// cap 10 to 50 big blinds, and no special button in a banked game (it has no blinds and no
/// dealer button to reach one, MO-QP, MO-13). Each refusal names its field and its rule.
pub fn check_settings(s: &Settings, banked: bool) -> Vec<FieldError> {
    let mut errs = Vec::new();
    for b in SpecialButton::ALL {
        let bb = s.contribution_bb(*b);
        if !(CONTRIBUTION_BB_MIN..=CONTRIBUTION_BB_MAX).contains(&bb) {
            errs.push(
                FieldError::new(b.contribution_field(), "err-buttons-contribution")
                    .arg("rule", b.rule())
                    .arg("min", CONTRIBUTION_BB_MIN)
                    .arg("max", CONTRIBUTION_BB_MAX)
                    .arg("value", bb),
            );
        }
        if banked && s.runs(*b) {
            errs.push(FieldError::new(b.on_field(), "err-buttons-banked").arg("rule", b.rule()));
        }
    }
    if !(MACACA_CAP_BB_MIN..=MACACA_CAP_BB_MAX).contains(&s.macaca_cap_bb) {
        errs.push(
            FieldError::new("macaca_cap_bb", "err-buttons-macaca-cap")
                .arg("rule", SpecialButton::Macaca.rule())
                .arg("min", MACACA_CAP_BB_MIN)
                .arg("max", MACACA_CAP_BB_MAX)
                .arg("value", s.macaca_cap_bb),
        );
    }
    errs
}

/// `bb` big blinds in minor units, or [`Overflow`] (not reachable with the game amounts of
/// [`money::GAME_AMOUNT`] and the bounds above).
pub fn in_big_blinds(big_blind: i64, bb: i32) -> Result<i64, Overflow> {
    big_blind.checked_mul(bb as i64).ok_or(Overflow)
}

// ---------------------------------------------------------------------------------------------
// The dealer button reaching a special button
// ---------------------------------------------------------------------------------------------

/// BSOP 115, 116: whether the dealer button's move from seat `from` to seat `to` (the "new
/// hand" tap, [`super::seat_rules::next_button`]) reaches the special button on `seat`: it
/// lands on it or passes over it clockwise, i.e. `seat` is one of the seats after `from` up
/// to and including `to`, going round past the highest seat. A move that comes back to its
/// own seat (one player present) is a whole turn and passes every seat. With no button before
/// (the first hand, no button drawn) the button is placed, not moved: only its own seat is
/// reached. With no button after (nobody present) nothing is.
pub fn reaches(from: Option<i32>, to: Option<i32>, seat: i32) -> bool {
    let Some(to) = to else { return false };
    match from {
        None => to == seat,
        Some(from) if from == to => true,
        Some(from) if from < to => from < seat && seat <= to,
        Some(from) => seat > from || seat <= to,
    }
}

/// Where `seat` comes in a clockwise walk starting after `from` (a sort key).
fn clockwise_after(from: Option<i32>, seat: i32) -> (bool, i32) {
    match from {
        Some(f) => (seat <= f, seat),
        None => (false, seat),
    }
}

/// A special button on its seat, and whether its hand is waiting for the next one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placed {
    pub kind: SpecialButton,
    pub seat: i32,
    pub pending: bool,
}

/// What a move of the dealer button decides.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Turn {
    /// The special game of the hand this move starts.
    pub plays: Option<SpecialButton>,
    /// The buttons whose hand waits for the next move (reached, but another plays now).
    pub pending: Vec<SpecialButton>,
}

/// BSOP 115, 116, one special game per hand: the dealer button moves from `from` to `to`.
/// A button whose hand was waiting plays first; then the buttons this move reaches
/// ([`reaches`]), the first clockwise from the old dealer button first. The first of them is
/// this hand's special game; the others wait for the next move (a waiting button reached
/// again is still one hand: it is counted once). With no dealer button after the move
/// (nobody present) nothing plays and what waited keeps waiting.
pub fn on_button_move(from: Option<i32>, to: Option<i32>, placed: &[Placed]) -> Turn {
    let waiting: Vec<SpecialButton> = placed
        .iter()
        .filter(|p| p.pending)
        .map(|p| p.kind)
        .collect();
    if to.is_none() {
        return Turn {
            plays: None,
            pending: waiting,
        };
    }
    let mut reached: Vec<&Placed> = placed
        .iter()
        .filter(|p| !p.pending && reaches(from, to, p.seat))
        .collect();
    reached.sort_by_key(|p| clockwise_after(from, p.seat));
    let mut queue = waiting;
    queue.extend(reached.into_iter().map(|p| p.kind));
    let mut it = queue.into_iter();
    Turn {
        plays: it.next(),
        pending: it.collect(),
    }
}

// ---------------------------------------------------------------------------------------------
// The Macaca's chips (BSOP 116)
// ---------------------------------------------------------------------------------------------

/// The Macaca on her hand: the chips she has, what she puts all in (at most the cap) and what
/// waits aside for her next hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Macaca {
    pub chips: i64,
    pub stake: i64,
    pub aside: i64,
}

impl Macaca {
    /// BSOP 116: the players contribute only to a new Macaca — one without chips; a Macaca who
    /// still has chips plays them ("deverão ser apostadas novamente … até que a Macaca perca
    /// todas as suas fichas e seja eliminada").
    pub fn is_new(bank: i64) -> bool {
        bank <= 0
    }

    /// Her hand: `bank` (chips kept from her earlier hands) plus the players' `contributions`,
    /// all in up to `cap`, the rest aside.
    pub fn on_hand(bank: i64, contributions: i64, cap: i64) -> Result<Macaca, Overflow> {
        let chips = money::add(bank.max(0), contributions.max(0))?;
        let stake = chips.min(cap.max(0));
        Ok(Macaca {
            chips,
            stake,
            aside: chips - stake,
        })
    }

    /// BSOP 116: her chips after the hand. Won: what she `collected` from the pot joins what
    /// was aside ("o valor será acumulado"); lost: only what was aside is left (none: she is
    /// eliminated). A win collects something (`err-buttons-collected-required`); a loss
    /// collects nothing (`err-buttons-lost-collects`).
    pub fn after(&self, outcome: MacacaOutcome, collected: Option<i64>) -> Result<i64, Problem> {
        match outcome {
            MacacaOutcome::Lost => match collected {
                Some(c) if c != 0 => Err(ButtonRefusal::LostCollects.into()),
                _ => Ok(self.aside),
            },
            MacacaOutcome::Won => match collected {
                Some(c) if c >= 1 => money::add(self.aside, c)
                    .map_err(|_| Problem::from(GeneralRefusal::MoneyOverflow)),
                _ => Err(ButtonRefusal::CollectedRequired.into()),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::seat_rules::next_button;
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    #[test]
    fn bsop_115_116_contributions_are_3_to_5_big_blinds_and_the_cap_10_to_50() {
        assert!(check_settings(&Settings::default(), false).is_empty());
        let on = Settings {
            cucurucho: true,
            cucurucho_bb: 5,
            macaca: true,
            macaca_bb: 3,
            macaca_cap_bb: 20,
        };
        assert!(check_settings(&on, false).is_empty());
        let bad = Settings {
            cucurucho_bb: 2,
            macaca_bb: 6,
            macaca_cap_bb: 9,
            ..on
        };
        let e = check_settings(&bad, false);
        let fields: Vec<(&str, &str)> = e.iter().map(|f| (f.field.as_str(), f.key)).collect();
        assert_eq!(
            fields,
            [
                ("cucurucho_bb", "err-buttons-contribution"),
                ("macaca_bb", "err-buttons-contribution"),
                ("macaca_cap_bb", "err-buttons-macaca-cap"),
            ]
        );
        assert_eq!(
            e[0].args,
            vec![
                ("rule", "BSOP 115".to_string()),
                ("min", "3".to_string()),
                ("max", "5".to_string()),
                ("value", "2".to_string())
            ]
        );
        assert_eq!(e[1].args[0], ("rule", "BSOP 116".to_string()));
        // Off, a figure outside the rule is still refused.
        let off = Settings {
            cucurucho: false,
            cucurucho_bb: 7,
            ..Settings::default()
        };
        assert_eq!(check_settings(&off, false)[0].field, "cucurucho_bb");
        // A banked game has no dealer button to reach a special one.
        let e = check_settings(&on, true);
        assert_eq!(
            e.iter().map(|f| f.field.as_str()).collect::<Vec<_>>(),
            ["cucurucho", "macaca"]
        );
        assert!(check_settings(&Settings::default(), true).is_empty());
    }

    #[test]
    fn amounts_in_big_blinds() {
        assert_eq!(in_big_blinds(200, 3), Ok(600));
        assert_eq!(
            in_big_blinds(money::GAME_AMOUNT_MAX, 50),
            Ok(50_000_000_000)
        );
        assert_eq!(in_big_blinds(i64::MAX, 2), Err(Overflow));
    }

    #[test]
    fn bsop_115_reaching_is_landing_on_or_passing_over_clockwise() {
        // Lands on it.
        assert!(reaches(Some(2), Some(5), 5));
        // Passes over it (seats 3 and 4 empty or away).
        assert!(reaches(Some(2), Some(5), 4));
        // Not yet, and already behind.
        assert!(!reaches(Some(2), Some(5), 6));
        assert!(!reaches(Some(2), Some(5), 2));
        // Going round past the highest seat.
        assert!(reaches(Some(8), Some(1), 9));
        assert!(reaches(Some(8), Some(1), 1));
        assert!(!reaches(Some(8), Some(1), 2));
        assert!(!reaches(Some(8), Some(1), 8));
        // One player present: the button comes back to its seat, a whole turn.
        assert!(reaches(Some(4), Some(4), 7));
        // The first hand places the button: only its own seat.
        assert!(reaches(None, Some(3), 3));
        assert!(!reaches(None, Some(3), 1));
        // Nobody present: no button, nothing reached.
        assert!(!reaches(Some(3), None, 3));
    }

    #[test]
    fn one_special_game_per_hand_the_first_clockwise_plays_the_other_waits() {
        let c = |seat, pending| Placed {
            kind: SpecialButton::Cucurucho,
            seat,
            pending,
        };
        let m = |seat, pending| Placed {
            kind: SpecialButton::Macaca,
            seat,
            pending,
        };
        // 7 → 2 passes 9 (Macaca) then 1 (Cucurucho): the Macaca first.
        let t = on_button_move(Some(7), Some(2), &[c(1, false), m(9, false)]);
        assert_eq!(t.plays, Some(SpecialButton::Macaca));
        assert_eq!(t.pending, vec![SpecialButton::Cucurucho]);
        // The next move plays the Cucurucho though it reaches nothing.
        let t = on_button_move(Some(2), Some(3), &[c(1, true), m(9, false)]);
        assert_eq!(t.plays, Some(SpecialButton::Cucurucho));
        assert!(t.pending.is_empty());
        // A waiting button reached again is one hand, not two.
        let t = on_button_move(Some(2), Some(2), &[c(1, true), m(9, false)]);
        assert_eq!(t.plays, Some(SpecialButton::Cucurucho));
        assert_eq!(t.pending, vec![SpecialButton::Macaca]);
        // Nothing reached.
        let t = on_button_move(Some(2), Some(3), &[c(1, false), m(9, false)]);
        assert_eq!(t, Turn::default());
        // Nobody present: what waited keeps waiting.
        let t = on_button_move(Some(2), None, &[c(1, true)]);
        assert_eq!(t.plays, None);
        assert_eq!(t.pending, vec![SpecialButton::Cucurucho]);
    }

    #[test]
    fn bsop_116_the_macaca_all_in_up_to_her_cap_and_what_she_keeps() {
        // A new Macaca at a full table: 9 players × 3 BB of 2.00 = 54.00; cap 20 BB = 40.00.
        assert!(Macaca::is_new(0));
        let h = Macaca::on_hand(0, 5400, 4000).unwrap();
        assert_eq!(
            h,
            Macaca {
                chips: 5400,
                stake: 4000,
                aside: 1400
            }
        );
        // She loses: the 14.00 aside are her next hand (no contributions then).
        assert_eq!(h.after(MacacaOutcome::Lost, None), Ok(1400));
        assert!(!Macaca::is_new(1400));
        // She wins 70.00: accumulated.
        assert_eq!(h.after(MacacaOutcome::Won, Some(7000)), Ok(8400));
        // Below the cap everything is at stake; losing eliminates her.
        let small = Macaca::on_hand(0, 1800, 4000).unwrap();
        assert_eq!((small.stake, small.aside), (1800, 0));
        assert_eq!(small.after(MacacaOutcome::Lost, Some(0)), Ok(0));
        assert!(Macaca::is_new(0));
        // A win collects something; a loss nothing.
        assert_eq!(
            small.after(MacacaOutcome::Won, None).unwrap_err().key,
            "err-buttons-collected-required"
        );
        assert_eq!(
            small.after(MacacaOutcome::Won, Some(0)).unwrap_err().key,
            "err-buttons-collected-required"
        );
        assert_eq!(
            small.after(MacacaOutcome::Lost, Some(5)).unwrap_err().key,
            "err-buttons-lost-collects"
        );
        assert_eq!(Macaca::on_hand(i64::MAX, 1, 10), Err(Overflow));
    }

    /// A table of `n` seats, the special seat, the dealer button's first seat, and the seats
    /// present at each of up to 60 hands (any non-empty subset, changing every hand).
    fn table_and_hands() -> impl Strategy<Value = (i32, i32, i32, Vec<BTreeSet<i32>>)> {
        (2i32..=11).prop_flat_map(|n| {
            (
                Just(n),
                1..=n,
                1..=n,
                prop::collection::vec(prop::collection::btree_set(1..=n, 1..=n as usize), 1..60),
            )
        })
    }

    proptest! {
        /// BSOP 115, 116: whatever seats are empty or away at each hand, the special hand
        /// comes exactly once per orbit of the dealer button: counting the seats the button
        /// travels clockwise (a whole turn when it comes back to its own seat), it is reached
        /// exactly when the travel crosses the special seat — once in every `n` seats of
        /// travel, never twice in one move, never skipped.
        #[test]
        fn bsop_115_116_the_special_hand_comes_exactly_once_per_orbit(
            (n, special, start, hands) in table_and_hands()
        ) {
            let mut button = Some(start);
            // The button's position unrolled: seats travelled since seat 0.
            let mut travelled = start as i64;
            let mut reached_at = Vec::new();
            for present in &hands {
                let seats: Vec<i32> = present.iter().copied().collect();
                let next = next_button(&seats, button);
                let (from, to) = (button.unwrap(), next.unwrap());
                let d = ((to - from - 1).rem_euclid(n) + 1) as i64;
                let before = travelled;
                travelled += d;
                // Crossings of the special seat (special + k·n) in (before, travelled].
                let crossings = (travelled - special as i64).div_euclid(n as i64)
                    - (before - special as i64).div_euclid(n as i64);
                prop_assert!(crossings <= 1, "a move is at most one turn");
                let hit = reaches(button, next, special);
                prop_assert_eq!(hit, crossings == 1, "move {}→{} seat {}", from, to, special);
                if hit {
                    reached_at.push(travelled);
                }
                button = next;
            }
            // Exactly once per orbit: consecutive special hands are one turn apart or less
            // than two (the button lands past the seat by up to a turn's worth of empty seats),
            // and the count is the number of whole turns past the seat.
            let expected = (travelled - special as i64).div_euclid(n as i64)
                - (start as i64 - special as i64).div_euclid(n as i64);
            prop_assert_eq!(reached_at.len() as i64, expected);
            for w in reached_at.windows(2) {
                prop_assert!(w[1] - w[0] > 0 && w[1] - w[0] < 2 * n as i64);
            }
        }

        /// With both buttons placed, one special game per hand and none lost: each button
        /// plays once for every time the dealer button reaches it, at most one hand late
        /// (its hand is the next one when the other button was reached first).
        #[test]
        fn both_buttons_play_once_per_reach_and_at_most_one_hand_late(
            (n, c_seat, start, hands) in table_and_hands(), m_seat in 1i32..=11
        ) {
            let m_seat = m_seat.min(n);
            let mut placed = [
                Placed { kind: SpecialButton::Cucurucho, seat: c_seat, pending: false },
                Placed { kind: SpecialButton::Macaca, seat: m_seat, pending: false },
            ];
            let mut button = Some(start);
            let (mut reached, mut played) = ([0usize; 2], [0usize; 2]);
            for present in &hands {
                let seats: Vec<i32> = present.iter().copied().collect();
                let next = next_button(&seats, button);
                let waiting_before: Vec<bool> = placed.iter().map(|p| p.pending).collect();
                for (i, p) in placed.iter().enumerate() {
                    // A button reached while its hand still waits is not a second hand.
                    if !p.pending && reaches(button, next, p.seat) {
                        reached[i] += 1;
                    }
                }
                let t = on_button_move(button, next, &placed);
                for (i, p) in placed.iter_mut().enumerate() {
                    // A button that waited plays now: never two hands late.
                    if waiting_before[i] {
                        prop_assert_eq!(t.plays, Some(p.kind));
                    }
                    if t.plays == Some(p.kind) {
                        played[i] += 1;
                    }
                    p.pending = t.pending.contains(&p.kind);
                }
                prop_assert!(t.pending.len() <= 1, "at most one hand waits");
                prop_assert!(!t.plays.is_some_and(|k| t.pending.contains(&k)));
                button = next;
            }
            for ((p, played), reached) in placed.iter().zip(played).zip(reached) {
                prop_assert_eq!(played + usize::from(p.pending), reached);
            }
        }
    }
}
