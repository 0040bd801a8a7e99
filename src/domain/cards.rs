//! Playing cards for high-card draws (BSOP 48, 78, 79).
//!
//! Cards here only ever decide draws (the button, who moves, the order of picking seats, the
//! suit draw for tables); they never rank poker hands. A card has a stable text code (`"As"`,
//! `"Th"`, `"2c"`) used in JSON and in the database, and a display form with the suit symbol
//! (`"A♠"`).

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// A card's rank, from two up to ace. The discriminant is the rank's value (2..=14), so the
/// derived order is the rank order of PT-2007 72 (ace high; the ace-low straight is a hand
/// rule, irrelevant to draws).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rank {
    Two = 2,
    Three,
    Four,
    Five,
    Six,
    Seven,
    Eight,
    Nine,
    Ten,
    Jack,
    Queen,
    King,
    Ace,
}

impl Rank {
    /// All ranks, lowest first.
    pub const ALL: [Rank; 13] = [
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
    ];

    /// 2 for a two … 14 for an ace.
    pub fn value(self) -> u8 {
        self as u8
    }

    /// The rank's one-character code: `2`–`9`, `T`, `J`, `Q`, `K`, `A`.
    pub fn code(self) -> char {
        match self {
            Rank::Two => '2',
            Rank::Three => '3',
            Rank::Four => '4',
            Rank::Five => '5',
            Rank::Six => '6',
            Rank::Seven => '7',
            Rank::Eight => '8',
            Rank::Nine => '9',
            Rank::Ten => 'T',
            Rank::Jack => 'J',
            Rank::Queen => 'Q',
            Rank::King => 'K',
            Rank::Ace => 'A',
        }
    }

    /// Reads a rank code; letters in either case.
    pub fn from_code(c: char) -> Option<Rank> {
        Some(match c.to_ascii_uppercase() {
            '2' => Rank::Two,
            '3' => Rank::Three,
            '4' => Rank::Four,
            '5' => Rank::Five,
            '6' => Rank::Six,
            '7' => Rank::Seven,
            '8' => Rank::Eight,
            '9' => Rank::Nine,
            'T' => Rank::Ten,
            'J' => Rank::Jack,
            'Q' => Rank::Queen,
            'K' => Rank::King,
            'A' => Rank::Ace,
            _ => return None,
        })
    }
}

/// A suit. BSOP 78: "A classificação dos naipes do maior para o menor é espadas, copas, ouros,
/// paus" — spades > hearts > diamonds > clubs. The variants are declared lowest first so the
/// derived order is that ranking. BSOP 78 also says suits never split a pot: they only break
/// ties between cards of the same rank in high-card draws. Serialized by name (`"spades"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Suit {
    Clubs,
    Diamonds,
    Hearts,
    Spades,
}

impl Suit {
    /// BSOP 78: the suits from highest to lowest (spades, hearts, diamonds, clubs). The suit
    /// draw (PT-2007 25) gives the first table spades, the second hearts, and so on.
    pub const BSOP_78_ORDER: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];

    /// The suit's one-letter code: `s`, `h`, `d`, `c`.
    pub fn code(self) -> char {
        match self {
            Suit::Spades => 's',
            Suit::Hearts => 'h',
            Suit::Diamonds => 'd',
            Suit::Clubs => 'c',
        }
    }

    /// The suit's symbol: ♠ ♥ ♦ ♣.
    pub fn symbol(self) -> char {
        match self {
            Suit::Spades => '♠',
            Suit::Hearts => '♥',
            Suit::Diamonds => '♦',
            Suit::Clubs => '♣',
        }
    }

    /// Reads a suit from its code (either case) or its symbol (also the white symbols ♤ ♡ ♢ ♧).
    pub fn from_code(c: char) -> Option<Suit> {
        Some(match c {
            's' | 'S' | '♠' | '♤' => Suit::Spades,
            'h' | 'H' | '♥' | '♡' => Suit::Hearts,
            'd' | 'D' | '♦' | '♢' => Suit::Diamonds,
            'c' | 'C' | '♣' | '♧' => Suit::Clubs,
            _ => return None,
        })
    }
}

/// A playing card. BSOP 48 / PT-ONL 46: the high card is the highest "por valor e naipe" —
/// by rank, then by suit (BSOP 78) — so the derived order (fields compared in declaration
/// order: rank, then suit) is the draw order and the ace of spades is the highest card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card {
    pub rank: Rank,
    pub suit: Suit,
}

impl Card {
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card { rank, suit }
    }

    /// BSOP 48: "O Ás de espadas é a carta mais alta."
    pub const ACE_OF_SPADES: Card = Card::new(Rank::Ace, Suit::Spades);

    /// The stable two-character code: rank code then suit code (`"As"`, `"Th"`, `"2c"`). This
    /// is the form stored and serialized; it never changes with the language.
    pub fn code(self) -> String {
        let mut s = String::with_capacity(2);
        s.push(self.rank.code());
        s.push(self.suit.code());
        s
    }
}

impl fmt::Display for Card {
    /// Rank code and suit symbol: `"A♠"`, `"T♥"`, `"2♣"`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank.code(), self.suit.symbol())
    }
}

/// Why a text is not a card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CardParseError {
    /// Not a rank followed by a suit.
    Malformed,
    /// The rank is not one of `2`–`9`, `T`/`10`, `J`, `Q`, `K`, `A`.
    BadRank,
    /// The suit is not one of `s h d c` or `♠ ♥ ♦ ♣`.
    BadSuit,
}

impl fmt::Display for CardParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CardParseError::Malformed => "not a card: expected a rank and a suit, like \"As\"",
            CardParseError::BadRank => "not a card rank: expected 2-9, T, J, Q, K or A",
            CardParseError::BadSuit => "not a card suit: expected s, h, d or c",
        })
    }
}

impl std::error::Error for CardParseError {}

impl FromStr for Card {
    type Err = CardParseError;

    /// Reads the code (`"As"`) and also what people type or see: either case (`"aS"`), `"10"`
    /// for ten, and the display form (`"A♠"`). Surrounding spaces are ignored.
    fn from_str(s: &str) -> Result<Card, CardParseError> {
        let s = s.trim();
        let mut chars: Vec<char> = s.chars().collect();
        let suit_char = chars.pop().ok_or(CardParseError::Malformed)?;
        let rank = match chars.as_slice() {
            [] => return Err(CardParseError::Malformed),
            ['1', '0'] => Rank::Ten,
            [c] => Rank::from_code(*c).ok_or(CardParseError::BadRank)?,
            _ => return Err(CardParseError::BadRank),
        };
        let suit = Suit::from_code(suit_char).ok_or(CardParseError::BadSuit)?;
        Ok(Card { rank, suit })
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.code())
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Card, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// A deck in a fixed, documented order: suit by suit (clubs, diamonds, hearts, spades), each
/// suit from its lowest rank up. Draws shuffle a copy; the starting order is part of what makes
/// a recorded draw replayable, so it must never change (a test pins it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deck {
    cards: Vec<Card>,
}

impl Deck {
    /// The 52-card deck of PT-2007 72 (four suits of ace … 2). Order: clubs 2…A, diamonds 2…A,
    /// hearts 2…A, spades 2…A.
    pub fn standard() -> Deck {
        Deck::from_lowest(Rank::Two)
    }

    /// The 36-card short deck (6 … ace in each suit), for short-deck games (BSOP 92). Order:
    /// clubs 6…A, diamonds 6…A, hearts 6…A, spades 6…A.
    pub fn short() -> Deck {
        Deck::from_lowest(Rank::Six)
    }

    fn from_lowest(lowest: Rank) -> Deck {
        let cards = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades]
            .into_iter()
            .flat_map(|suit| {
                Rank::ALL
                    .into_iter()
                    .filter(move |r| *r >= lowest)
                    .map(move |rank| Card { rank, suit })
            })
            .collect();
        Deck { cards }
    }

    /// A deck holding exactly these cards, in this order.
    pub fn from_cards(cards: Vec<Card>) -> Deck {
        Deck { cards }
    }

    pub fn cards(&self) -> &[Card] {
        &self.cards
    }

    pub fn into_cards(self) -> Vec<Card> {
        self.cards
    }

    pub fn len(&self) -> usize {
        self.cards.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    pub fn contains(&self, card: Card) -> bool {
        self.cards.contains(&card)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashSet;

    fn c(s: &str) -> Card {
        s.parse().unwrap()
    }

    #[test]
    fn bsop_48_ace_of_spades_is_the_highest_card() {
        let deck = Deck::standard();
        assert_eq!(deck.cards().iter().max(), Some(&Card::ACE_OF_SPADES));
        assert_eq!(c("As"), Card::ACE_OF_SPADES);
        assert!(deck.cards().iter().all(|&x| x <= Card::ACE_OF_SPADES));
        assert_eq!(deck.cards().iter().min(), Some(&c("2c")));
    }

    #[test]
    fn bsop_48_rank_decides_before_suit() {
        // King of spades is below ace of clubs: rank first.
        assert!(c("Ks") < c("Ac"));
        assert!(c("Kc") < c("Ac"));
        assert!(c("2s") < c("3c"));
        assert!(c("Ts") < c("Jc"));
    }

    #[test]
    fn bsop_78_suits_rank_spades_hearts_diamonds_clubs() {
        assert!(Suit::Spades > Suit::Hearts);
        assert!(Suit::Hearts > Suit::Diamonds);
        assert!(Suit::Diamonds > Suit::Clubs);
        assert!(c("As") > c("Ah"));
        assert!(c("Ah") > c("Ad"));
        assert!(c("Ad") > c("Ac"));
        let mut sorted = Suit::BSOP_78_ORDER.to_vec();
        sorted.sort_by(|a, b| b.cmp(a));
        assert_eq!(sorted, Suit::BSOP_78_ORDER.to_vec());
    }

    #[test]
    fn decks_have_52_and_36_distinct_cards() {
        let std = Deck::standard();
        assert_eq!(std.len(), 52);
        assert_eq!(std.cards().iter().collect::<HashSet<_>>().len(), 52);
        let short = Deck::short();
        assert_eq!(short.len(), 36);
        assert_eq!(short.cards().iter().collect::<HashSet<_>>().len(), 36);
        assert!(short.cards().iter().all(|x| x.rank >= Rank::Six));
        assert!(!short.contains(c("5s")));
        assert!(short.contains(c("6c")));
        assert!(short.contains(Card::ACE_OF_SPADES));
        for suit in Suit::BSOP_78_ORDER {
            assert_eq!(std.cards().iter().filter(|x| x.suit == suit).count(), 13);
            assert_eq!(short.cards().iter().filter(|x| x.suit == suit).count(), 9);
        }
    }

    #[test]
    fn deck_order_is_fixed() {
        // Recorded draws shuffle this exact starting order: it must never change.
        let codes: Vec<String> = Deck::standard().cards().iter().map(|x| x.code()).collect();
        assert_eq!(&codes[..3], &["2c", "3c", "4c"]);
        assert_eq!(codes[12], "Ac");
        assert_eq!(codes[13], "2d");
        assert_eq!(codes[51], "As");
        let short: Vec<String> = Deck::short().cards().iter().map(|x| x.code()).collect();
        assert_eq!(short[0], "6c");
        assert_eq!(short[35], "As");
    }

    #[test]
    fn codes_and_display() {
        assert_eq!(c("As").code(), "As");
        assert_eq!(c("As").to_string(), "A♠");
        assert_eq!(c("Th").code(), "Th");
        assert_eq!(c("Th").to_string(), "T♥");
        assert_eq!(c("2c").to_string(), "2♣");
        assert_eq!(c("Qd").to_string(), "Q♦");
    }

    #[test]
    fn parsing_is_lenient_on_input_and_strict_on_garbage() {
        assert_eq!(c("10h"), c("Th"));
        assert_eq!(c("aS"), c("As"));
        assert_eq!(c("A♠"), c("As"));
        assert_eq!(c(" kd "), c("Kd"));
        assert_eq!("".parse::<Card>(), Err(CardParseError::Malformed));
        assert_eq!("s".parse::<Card>(), Err(CardParseError::Malformed));
        assert_eq!("1s".parse::<Card>(), Err(CardParseError::BadRank));
        assert_eq!("11s".parse::<Card>(), Err(CardParseError::BadRank));
        assert_eq!("Ax".parse::<Card>(), Err(CardParseError::BadSuit));
    }

    #[test]
    fn serde_uses_the_code() {
        assert_eq!(serde_json::to_string(&Suit::Spades).unwrap(), "\"spades\"");
        assert_eq!(serde_json::to_string(&c("As")).unwrap(), "\"As\"");
        assert_eq!(serde_json::from_str::<Card>("\"Th\"").unwrap(), c("Th"));
        assert!(serde_json::from_str::<Card>("\"Zz\"").is_err());
        assert!(serde_json::from_str::<Card>("12").is_err());
    }

    proptest! {
        /// Every card's code and display form read back as the same card.
        #[test]
        fn code_and_display_round_trip(i in 0usize..52) {
            let card = Deck::standard().cards()[i];
            prop_assert_eq!(card.code().parse::<Card>(), Ok(card));
            prop_assert_eq!(card.to_string().parse::<Card>(), Ok(card));
            let json = serde_json::to_string(&card).unwrap();
            prop_assert_eq!(serde_json::from_str::<Card>(&json).unwrap(), card);
        }

        /// BSOP 48 / 78: the card order is rank first, then suit.
        #[test]
        fn bsop_48_order_is_rank_then_suit(i in 0usize..52, j in 0usize..52) {
            let deck = Deck::standard();
            let (a, b) = (deck.cards()[i], deck.cards()[j]);
            prop_assert_eq!(a.cmp(&b), (a.rank, a.suit).cmp(&(b.rank, b.suit)));
            prop_assert_eq!(a == b, i == j);
        }
    }
}
