//! Games (variant, stakes, limit class, buy-ins) and tables (seats, mode).

use super::enums::string_enum;
use super::error::{Errors, FieldError};
use super::money;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

string_enum! {
    /// PT-2007 2, 21; BSOP 92; MO-QP; MO-13: the variants a room runs.
    Variant {
        HoldemNl = "holdem_nl",
        HoldemPl = "holdem_pl",
        HoldemLimit = "holdem_limit",
        Plo = "plo",
        Omaha = "omaha",
        ShortDeckHoldem = "short_deck_holdem",
        ShortDeckPlo = "short_deck_plo",
        Synthetic = "synthetic",
        QPoker = "q_poker",
        ThirteenCards = "thirteen_cards",
    }
}

string_enum! {
    /// BSOP 38: the minimum stay depends on the table's limit class.
    LimitClass { Low = "low", Mid = "mid", High = "high" }
}

string_enum! {
    /// PT-2007 74, PT-ONL 6: a table runs continuously or in sessions.
    TableMode { Continuous = "continuous", Session = "session" }
}

string_enum! {
    /// BSOP 55, 58: how a game with more than one table keeps its tables filled. The room's
    /// choice per game: BSOP 55 says an extra table «pode» be a must-move table.
    #[derive(Default)]
    TablePolicy {
        /// BSOP 55-57: the newest table is the must-move table; its players move to the main
        /// games in their original list order.
        #[default]
        MustMove = "must_move",
        /// BSOP 58: no must-move; a new player goes to the table that needs one most, and a
        /// transfer may not leave a table with fewer players than the destination.
        Balanced = "balanced",
    }
}

impl Variant {
    /// PT-2007 6: Hold'em and Omaha use 10 seats, synthetic poker 11. BSOP 92: short deck at
    /// most 9 players in Hold'em, 6 in PLO. MO-QP 2: 8 places including the croupier's
    /// (7 players). MO-13 3: 4 places including the banker's (3 players).
    pub fn default_seats(self) -> i32 {
        match self {
            Variant::HoldemNl
            | Variant::HoldemPl
            | Variant::HoldemLimit
            | Variant::Plo
            | Variant::Omaha => 10,
            Variant::ShortDeckHoldem => 9,
            Variant::ShortDeckPlo => 6,
            Variant::Synthetic => 11,
            Variant::QPoker => 7,
            Variant::ThirteenCards => 3,
        }
    }

    /// The allowed number of player seats: PT-ONL 5 (2 to 10), PT-2007 6 (11 for synthetic),
    /// BSOP 92 (short deck 9 / 6), MO-QP 2 (at least 8 places with the croupier), MO-13 3
    /// (exactly 4 places with the banker).
    pub fn seat_range(self) -> (i32, i32) {
        match self {
            Variant::Synthetic => (2, 11),
            Variant::ShortDeckHoldem => (2, 9),
            Variant::ShortDeckPlo => (2, 6),
            Variant::QPoker => (7, 10),
            Variant::ThirteenCards => (3, 3),
            _ => (2, 10),
        }
    }

    /// Banked games (Q Poker, 13 cards) have no blinds; the house plays the bank.
    pub fn is_banked(self) -> bool {
        matches!(self, Variant::QPoker | Variant::ThirteenCards)
    }
}

/// A game's settings as entered by the admin (amounts in minor units).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSpec {
    pub name: String,
    pub variant: Variant,
    pub small_blind: i64,
    pub big_blind: i64,
    pub limit_class: LimitClass,
    pub buy_in_min: i64,
    /// `None`: no maximum buy-in (BSOP 27 "if the game has a maximum").
    pub buy_in_max: Option<i64>,
    pub seats: i32,
}

/// Checks a game's settings. Amounts: [`money::GAME_AMOUNT`] (0.01 to 10,000,000.00; a
/// banked game's blinds are 0), refused with `err-amount-range` {min, max} (raw minor units).
pub fn validate_game(g: &GameSpec) -> Result<(), Vec<FieldError>> {
    let mut e = Errors::default();
    let amount = |e: &mut Errors, field: &str, v: i64| match money::GAME_AMOUNT.check(v) {
        Ok(()) => true,
        Err(p) => {
            e.push(FieldError::of(field, p));
            false
        }
    };
    let name = g.name.trim();
    if name.is_empty() {
        e.add("name", "err-required");
    } else if name.chars().count() > 60 {
        e.push(FieldError::new("name", "err-too-long").arg("max", 60));
    }
    if g.variant.is_banked() {
        if g.small_blind != 0 || g.big_blind != 0 {
            e.add("big_blind", "err-game-banked-no-blinds");
        }
    } else {
        amount(&mut e, "small_blind", g.small_blind);
        if amount(&mut e, "big_blind", g.big_blind) && g.big_blind < g.small_blind {
            e.add("big_blind", "err-game-bb-below-sb");
        }
    }
    amount(&mut e, "buy_in_min", g.buy_in_min);
    if let Some(max) = g.buy_in_max {
        if amount(&mut e, "buy_in_max", max) && max < g.buy_in_min {
            e.add("buy_in_max", "err-game-max-below-min");
        }
    }
    let (lo, hi) = g.variant.seat_range();
    if g.seats < lo || g.seats > hi {
        e.push(
            FieldError::new("seats", "err-seats-range")
                .arg("min", lo)
                .arg("max", hi),
        );
    }
    e.into_result(())
}

/// A table's settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableSpec {
    pub number: i32,
    pub seats: i32,
    pub mode: TableMode,
}

/// PT-2007 6: seats are numbered from 1; a table has at most 11 places.
pub fn validate_table(t: &TableSpec, game_variant: Option<Variant>) -> Result<(), Vec<FieldError>> {
    let mut e = Errors::default();
    if !(1..=999).contains(&t.number) {
        e.push(
            FieldError::new("number", "err-range")
                .arg("min", 1)
                .arg("max", 999),
        );
    }
    let (lo, hi) = game_variant.map(|v| v.seat_range()).unwrap_or((2, 11));
    if t.seats < lo || t.seats > hi {
        e.push(
            FieldError::new("seats", "err-seats-range")
                .arg("min", lo)
                .arg("max", hi),
        );
    }
    e.into_result(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(v: Variant) -> GameSpec {
        GameSpec {
            name: "NL 1/2".into(),
            variant: v,
            small_blind: 100,
            big_blind: 200,
            limit_class: LimitClass::Low,
            buy_in_min: 4000,
            buy_in_max: Some(20000),
            seats: v.default_seats(),
        }
    }

    #[test]
    fn pt2007_6_bsop_92_default_seats_per_variant() {
        assert_eq!(Variant::HoldemNl.default_seats(), 10);
        assert_eq!(Variant::Omaha.default_seats(), 10);
        assert_eq!(Variant::Synthetic.default_seats(), 11);
        assert_eq!(Variant::ShortDeckHoldem.default_seats(), 9);
        assert_eq!(Variant::ShortDeckPlo.default_seats(), 6);
        assert_eq!(Variant::QPoker.default_seats(), 7);
        assert_eq!(Variant::ThirteenCards.default_seats(), 3);
        for v in Variant::ALL {
            let (lo, hi) = v.seat_range();
            assert!((lo..=hi).contains(&v.default_seats()), "{v}");
        }
    }

    #[test]
    fn valid_games_pass_and_bad_stakes_are_refused() {
        assert!(validate_game(&spec(Variant::HoldemNl)).is_ok());
        let mut g = spec(Variant::HoldemNl);
        g.big_blind = 50;
        assert_eq!(
            validate_game(&g).unwrap_err()[0].key,
            "err-game-bb-below-sb"
        );
        let mut g = spec(Variant::HoldemNl);
        g.buy_in_max = Some(100);
        assert_eq!(
            validate_game(&g).unwrap_err()[0].key,
            "err-game-max-below-min"
        );
        let mut g = spec(Variant::ShortDeckPlo);
        g.seats = 7;
        assert_eq!(validate_game(&g).unwrap_err()[0].field, "seats");
        let mut g = spec(Variant::ThirteenCards);
        g.small_blind = 0;
        g.big_blind = 0;
        assert!(validate_game(&g).is_ok());
    }

    #[test]
    fn amounts_beyond_ten_million_are_refused_with_the_range() {
        let mut g = spec(Variant::HoldemNl);
        g.buy_in_max = Some(i64::MAX);
        let e = validate_game(&g).unwrap_err();
        assert_eq!(
            (e[0].field.as_str(), e[0].key),
            ("buy_in_max", "err-amount-range")
        );
        assert_eq!(
            e[0].args,
            vec![("min", "1".to_string()), ("max", "1000000000".to_string())]
        );
        let mut g = spec(Variant::HoldemNl);
        g.buy_in_max = Some(money::GAME_AMOUNT_MAX);
        assert!(validate_game(&g).is_ok());
        g.small_blind = 0;
        assert_eq!(validate_game(&g).unwrap_err()[0].field, "small_blind");
    }

    #[test]
    fn enum_strings_round_trip() {
        for v in Variant::ALL {
            assert_eq!(v.as_str().parse::<Variant>(), Ok(*v));
        }
        assert!("texas".parse::<Variant>().is_err());
    }
}
