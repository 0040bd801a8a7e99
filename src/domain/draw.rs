//! Recorded, replayable draws (PT-2007 11, 25, 27; BSOP 48, 50, 52, 56, 79, 115, 116).
//!
//! Every draw here is a pure function of a [`DrawSeed`] and its inputs: the same seed and the
//! same inputs (in the same order) always give the same result, on any machine, so a recorded
//! [`Draw`] (kind, seed, inputs, result) settles a dispute by being replayed
//! ([`Draw::verify`]). The seed is chosen by the caller — the service layer takes a fresh one
//! with [`DrawSeed::random`] (the only non-deterministic function in this module) and stores
//! it with the draw *before* showing the result.
//!
//! How a seed becomes a result, which must never change (tests pin concrete outcomes):
//! - the random stream is `ChaCha20Rng::seed_from_u64(seed)` (stream 0);
//! - shuffling is this module's own Fisher–Yates over that stream, drawing each index by
//!   rejection sampling on `next_u64` — not `rand::seq`, whose algorithms may change between
//!   `rand` versions and would break the replay of old draws;
//! - decks start in the fixed order of [`Deck::standard`]; cards are dealt from the top
//!   (index 0 of the shuffled deck) to the players in the order given;
//! - where one draw needs further independent draws (the seats of each table after a suit
//!   draw) the sub-seed of the `i`-th (0-based) is the first `u64` of ChaCha20 stream `i + 1`
//!   keyed by the same seed; sub-seeds are recorded in the result too.
//!
//! Inputs are validated (no player twice, no seat twice, seats numbered from 1 as in
//! PT-2007 6); refusals are typed [`DrawError`]s with a catalog key.

use super::cards::{Card, Deck, Rank, Suit};
use super::enums::string_enum;
use super::error::Problem;
use super::special_buttons::SpecialButton;
use crate::domain::ids::PlayerId;
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::HashSet;
use std::fmt;
use std::str::FromStr;

// ---------------------------------------------------------------------------------------------
// Seed and shuffling
// ---------------------------------------------------------------------------------------------

/// The seed of one draw. Written as 16 lowercase hex digits (in JSON too: a JSON number would
/// lose precision above 2^53 in a browser); stored in a database `BIGINT` with
/// [`DrawSeed::to_i64`] / [`DrawSeed::from_i64`] (a bit-for-bit cast).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DrawSeed(pub u64);

impl DrawSeed {
    /// A fresh, unpredictable seed from the thread's OS-seeded generator (`rand::random`).
    ///
    /// This is the **only non-deterministic function** of the draws: call it in the service
    /// layer, store the seed with the draw, then compute the draw from the stored seed.
    /// Never call it from another domain function.
    pub fn random() -> DrawSeed {
        DrawSeed(rand::random())
    }

    /// The seed as a signed 64-bit integer, for a `BIGINT` column (same bits).
    pub fn to_i64(self) -> i64 {
        self.0 as i64
    }

    /// The inverse of [`DrawSeed::to_i64`].
    pub fn from_i64(v: i64) -> DrawSeed {
        DrawSeed(v as u64)
    }

    /// The random stream of this draw (ChaCha20, stream 0).
    fn rng(self) -> ChaCha20Rng {
        ChaCha20Rng::seed_from_u64(self.0)
    }

    /// The `i`-th sub-seed: the first `u64` of ChaCha20 stream `i + 1` under this seed.
    fn sub_seed(self, i: usize) -> DrawSeed {
        let mut rng = self.rng();
        rng.set_stream(i as u64 + 1);
        DrawSeed(rng.next_u64())
    }
}

impl From<u64> for DrawSeed {
    fn from(v: u64) -> DrawSeed {
        DrawSeed(v)
    }
}

impl fmt::Display for DrawSeed {
    /// 16 lowercase hex digits, e.g. `000000000000002a`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

/// The text is not 1 to 16 hex digits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadSeed;

impl fmt::Display for BadSeed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a draw seed is 1 to 16 hex digits")
    }
}

impl std::error::Error for BadSeed {}

impl FromStr for DrawSeed {
    type Err = BadSeed;
    /// 1 to 16 hex digits, either case.
    fn from_str(s: &str) -> Result<DrawSeed, BadSeed> {
        if s.is_empty() || s.len() > 16 || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(BadSeed);
        }
        u64::from_str_radix(s, 16)
            .map(DrawSeed)
            .map_err(|_| BadSeed)
    }
}

impl Serialize for DrawSeed {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for DrawSeed {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<DrawSeed, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// A uniform index in `0..n` (`n > 0`): rejection sampling on `next_u64`, so no modulo bias.
fn below(rng: &mut ChaCha20Rng, n: usize) -> usize {
    let n = n as u64;
    debug_assert!(n > 0);
    // The largest multiple of n not above u64::MAX: values below it map evenly onto 0..n.
    let zone = (u64::MAX / n) * n;
    loop {
        let x = rng.next_u64();
        if x < zone {
            return (x % n) as usize;
        }
    }
}

/// Fisher–Yates shuffle (Durstenfeld, from the end). Part of the replay contract.
fn shuffle<T>(rng: &mut ChaCha20Rng, v: &mut [T]) {
    for i in (1..v.len()).rev() {
        let j = below(rng, i + 1);
        v.swap(i, j);
    }
}

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

/// PT-2007 25 / BSOP 78: a suit draw has one suit per table, so at most four tables.
pub const MAX_SUIT_DRAW_TABLES: usize = 4;

/// Why a draw cannot be made. Checked in this order: repeated or invalid inputs first, then
/// sizes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "error", rename_all = "snake_case")]
pub enum DrawError {
    /// A player appears twice (within a list, or in both lists of an oversubscribed draw).
    DuplicatePlayer { player: PlayerId },
    /// A seat appears twice (`table`: in which table's seats, for a suit draw).
    DuplicateSeat { table: Option<i64>, seat: i32 },
    /// PT-2007 6: seats are numbered from 1.
    InvalidSeat { table: Option<i64>, seat: i32 },
    /// A table appears twice in a suit draw.
    DuplicateTable { table: i64 },
    /// A card appears twice in a high-card draw entered by hand.
    DuplicateCard { card: Card },
    /// More players than places: the seats (PT-2007 11), the seats plus one (BSOP 50), or all
    /// the tables' seats (PT-2007 25).
    TooManyPlayers { players: usize, places: usize },
    /// A high-card draw (BSOP 48, 79) gives each player a different card of one 52-card deck.
    DeckTooSmall { players: usize, cards: usize },
    /// PT-2007 25: one suit per table, and there are only four suits (BSOP 78).
    TooManyTables { tables: usize, max: usize },
    /// PT-2007 25: a table would need more cards of its suit than the 13 a deck holds.
    SuitTooSmall { table: i64, players: usize },
    /// BSOP 115, 116: a special button starts on an occupied seat, and none was given.
    NoSeats,
}

impl DrawError {
    /// The translation catalog key.
    pub fn key(&self) -> &'static str {
        match self {
            DrawError::DuplicatePlayer { .. } => "draw-duplicate-player",
            DrawError::DuplicateSeat { .. } => "draw-duplicate-seat",
            DrawError::InvalidSeat { .. } => "draw-invalid-seat",
            DrawError::DuplicateTable { .. } => "draw-duplicate-table",
            DrawError::DuplicateCard { .. } => "draw-duplicate-card",
            DrawError::TooManyPlayers { .. } => "draw-too-many-players",
            DrawError::DeckTooSmall { .. } => "draw-deck-too-small",
            DrawError::TooManyTables { .. } => "draw-too-many-tables",
            DrawError::SuitTooSmall { .. } => "draw-suit-too-small",
            DrawError::NoSeats => "draw-no-seats",
        }
    }

    /// The refusal as a [`Problem`]: catalog key plus its arguments.
    pub fn problem(&self) -> Problem {
        let p = Problem::new(self.key());
        match *self {
            DrawError::DuplicatePlayer { player } => p.arg("player", player),
            DrawError::DuplicateSeat { table, seat } | DrawError::InvalidSeat { table, seat } => {
                let p = p.arg("seat", seat);
                match table {
                    Some(t) => p.arg("table", t),
                    None => p,
                }
            }
            DrawError::DuplicateTable { table } => p.arg("table", table),
            DrawError::DuplicateCard { card } => p.arg("card", card),
            DrawError::TooManyPlayers { players, places } => {
                p.arg("players", players).arg("places", places)
            }
            DrawError::DeckTooSmall { players, cards } => {
                p.arg("players", players).arg("cards", cards)
            }
            DrawError::TooManyTables { tables, max } => p.arg("tables", tables).arg("max", max),
            DrawError::SuitTooSmall { table, players } => {
                p.arg("table", table).arg("players", players)
            }
            DrawError::NoSeats => p,
        }
    }
}

impl fmt::Display for DrawError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())?;
        for (name, value) in self.problem().args {
            write!(f, " {name}={value}")?;
        }
        Ok(())
    }
}

impl std::error::Error for DrawError {}

fn check_players<'a>(players: impl IntoIterator<Item = &'a PlayerId>) -> Result<(), DrawError> {
    let mut seen = HashSet::new();
    for &player in players {
        if !seen.insert(player) {
            return Err(DrawError::DuplicatePlayer { player });
        }
    }
    Ok(())
}

fn check_seats(table: Option<i64>, seats: &[i32]) -> Result<(), DrawError> {
    let mut seen = HashSet::new();
    for &seat in seats {
        if seat < 1 {
            return Err(DrawError::InvalidSeat { table, seat });
        }
        if !seen.insert(seat) {
            return Err(DrawError::DuplicateSeat { table, seat });
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// High card: BSOP 48, 52, 56, 79
// ---------------------------------------------------------------------------------------------

/// One card dealt to one player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DealtCard {
    pub player: PlayerId,
    pub card: Card,
}

/// The outcome of a high-card draw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HighCardDraw {
    /// The cards in the order they were dealt (the players' order as given), for display.
    pub dealt: Vec<DealtCard>,
    /// The players by their card, highest first (BSOP 48: by rank, then suit, BSOP 78).
    pub order: Vec<PlayerId>,
}

impl HighCardDraw {
    /// Ranks cards dealt by hand (a physical draw entered by the dealer or the floor):
    /// highest card first. Refuses a player or a card seen twice, so there are no ties.
    pub fn from_dealt(dealt: Vec<DealtCard>) -> Result<HighCardDraw, DrawError> {
        check_players(dealt.iter().map(|d| &d.player))?;
        let mut cards = HashSet::new();
        for d in &dealt {
            if !cards.insert(d.card) {
                return Err(DrawError::DuplicateCard { card: d.card });
            }
        }
        let mut ranked = dealt.clone();
        ranked.sort_by_key(|d| std::cmp::Reverse(d.card));
        Ok(HighCardDraw {
            order: ranked.iter().map(|d| d.player).collect(),
            dealt,
        })
    }

    /// BSOP 48: the player who gets the button (the highest card); `None` with no players.
    pub fn winner(&self) -> Option<PlayerId> {
        self.order.first().copied()
    }

    /// The card a player drew.
    pub fn card_of(&self, player: PlayerId) -> Option<Card> {
        self.dealt
            .iter()
            .find(|d| d.player == player)
            .map(|d| d.card)
    }
}

/// A high-card draw: one card per player from one shuffled 52-card deck, dealt in the order
/// given. Callers pass the players clockwise starting from the dealer's left (BSOP 79: "a
/// ordem é no sentido horário começando com o primeiro participante à esquerda do dealer, a
/// posição do botão é irrelevante"). The result ranks the players by their card, highest
/// first; cards come from one deck, so there are no ties.
///
/// Used for:
/// - BSOP 48 / PT-ONL 46: the button in a new game goes to the highest card "por valor e
///   naipe" (the ace of spades is the highest card) — [`HighCardDraw::winner`];
/// - BSOP 79: who moves to another table (or who gets the button in a new game);
/// - BSOP 52: when a table breaks, the order in which its players pick seats in a similar game;
/// - BSOP 56: the must-move list order after a table break ("a carta mais alta por valor e
///   naipe indo para o topo da lista").
///
/// Refuses a player listed twice and more than 52 players.
pub fn high_card(seed: DrawSeed, players: &[PlayerId]) -> Result<HighCardDraw, DrawError> {
    check_players(players)?;
    let mut deck = Deck::standard().into_cards();
    if players.len() > deck.len() {
        return Err(DrawError::DeckTooSmall {
            players: players.len(),
            cards: deck.len(),
        });
    }
    shuffle(&mut seed.rng(), &mut deck);
    let dealt = players
        .iter()
        .zip(deck)
        .map(|(&player, card)| DealtCard { player, card })
        .collect();
    HighCardDraw::from_dealt(dealt)
}

// ---------------------------------------------------------------------------------------------
// Seats: PT-2007 11, BSOP 50
// ---------------------------------------------------------------------------------------------

/// One player on one seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatAssignment {
    pub player: PlayerId,
    pub seat: i32,
}

/// The outcome of a seat draw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatDraw {
    /// Who sits where, by seat number.
    pub seats: Vec<SeatAssignment>,
    /// BSOP 50: the player who drew the temporary extra place (not a numbered seat); `None`
    /// unless there was one more player than seats.
    pub extra: Option<PlayerId>,
    /// The given seats nobody drew, ascending.
    pub free: Vec<i32>,
}

impl SeatDraw {
    /// The seat a player drew (`None` for the extra player and for someone not in the draw).
    pub fn seat_of(&self, player: PlayerId) -> Option<i32> {
        self.seats
            .iter()
            .find(|a| a.player == player)
            .map(|a| a.seat)
    }

    /// Pairs players (in the order given) with drawn places (`None` = the extra place).
    fn from_places(players: &[PlayerId], places: &[Option<i32>]) -> SeatDraw {
        let mut seats = Vec::with_capacity(players.len());
        let mut extra = None;
        for (&player, place) in players.iter().zip(places) {
            match *place {
                Some(seat) => seats.push(SeatAssignment { player, seat }),
                None => extra = Some(player),
            }
        }
        seats.sort_by_key(|a| a.seat);
        let mut free: Vec<i32> = places[players.len().min(places.len())..]
            .iter()
            .flatten()
            .copied()
            .collect();
        free.sort_unstable();
        SeatDraw { seats, extra, free }
    }
}

/// PT-2007 11: "Os lugares serão sorteados pelo fiscal de entre os jogadores previamente
/// inscritos no início da partida." The free `seats` are shuffled and the `i`-th player (in
/// the order given) gets the `i`-th seat of the shuffled list: each player gets exactly one
/// distinct seat among those given. Refuses more players than seats, a player or a seat
/// listed twice, and seat numbers below 1 (PT-2007 6).
pub fn seat_draw(
    seed: DrawSeed,
    players: &[PlayerId],
    seats: &[i32],
) -> Result<SeatDraw, DrawError> {
    check_players(players)?;
    check_seats(None, seats)?;
    if players.len() > seats.len() {
        return Err(DrawError::TooManyPlayers {
            players: players.len(),
            places: seats.len(),
        });
    }
    let mut places: Vec<Option<i32>> = seats.iter().copied().map(Some).collect();
    shuffle(&mut seed.rng(), &mut places);
    Ok(SeatDraw::from_places(players, &places))
}

/// BSOP 50: "para evitar uma disputa por assentos, um supervisor pode decidir iniciar o jogo
/// com um participante extra acima do número normal de participantes. Nesse caso, um assento
/// será removido assim que alguém sair do jogo."
///
/// Like [`seat_draw`], but accepts up to one player more than seats. With one more, the
/// extra place is drawn like a seat: the places are the seats plus one unnumbered extra
/// place, shuffled together; the player who draws the extra place is [`SeatDraw::extra`]
/// (the floor adds a chair for them; when someone leaves, the service moves them to the
/// freed seat and the extra place is gone). With no more players than seats this is exactly
/// [`seat_draw`] (same seed, same result, `extra: None`).
pub fn seat_draw_with_extra(
    seed: DrawSeed,
    players: &[PlayerId],
    seats: &[i32],
) -> Result<SeatDraw, DrawError> {
    if players.len() <= seats.len() {
        return seat_draw(seed, players, seats);
    }
    check_players(players)?;
    check_seats(None, seats)?;
    if players.len() > seats.len() + 1 {
        return Err(DrawError::TooManyPlayers {
            players: players.len(),
            places: seats.len() + 1,
        });
    }
    let mut places: Vec<Option<i32>> = seats.iter().copied().map(Some).chain([None]).collect();
    shuffle(&mut seed.rng(), &mut places);
    Ok(SeatDraw::from_places(players, &places))
}

// ---------------------------------------------------------------------------------------------
// Suits: PT-2007 25
// ---------------------------------------------------------------------------------------------

/// A table taking part in a suit draw and its free seats.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableSeats {
    pub table: i64,
    pub seats: Vec<i32>,
}

/// One table's share of a suit draw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SuitTable {
    pub table: i64,
    /// BSOP 78 order: the first table spades, the second hearts, then diamonds, then clubs.
    pub suit: Suit,
    /// The seed of this table's seat draw ([`seat_draw`] among the players who drew `suit`).
    pub sub_seed: DrawSeed,
    pub seating: SeatDraw,
}

/// The outcome of a suit draw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SuitDraw {
    /// The cards in the order they were dealt (the players' order as given).
    pub cards: Vec<DealtCard>,
    /// The tables in the order given.
    pub tables: Vec<SuitTable>,
}

impl SuitDraw {
    /// The table a player drew.
    pub fn table_of(&self, player: PlayerId) -> Option<i64> {
        let card = self.cards.iter().find(|d| d.player == player)?.card;
        self.tables
            .iter()
            .find(|t| t.suit == card.suit)
            .map(|t| t.table)
    }

    /// The table and seat a player drew.
    pub fn seat_of(&self, player: PlayerId) -> Option<(i64, i32)> {
        self.tables
            .iter()
            .find_map(|t| t.seating.seat_of(player).map(|s| (t.table, s)))
    }
}

/// How many players each table gets: as even as the seats allow (BSOP 58 spirit: no table
/// fuller than it needs to be). Players are handed out one at a time to the table with the
/// fewest so far that still has a free seat, the earlier table first on a tie. So table
/// counts differ by at most one, except that a table with fewer seats is filled and the rest
/// spread over the others; when they differ, the earlier tables have the extra player.
/// `players` must not exceed the total capacity.
fn balanced_counts(players: usize, capacities: &[usize]) -> Vec<usize> {
    let mut counts = vec![0; capacities.len()];
    for _ in 0..players {
        let i = (0..capacities.len())
            .filter(|&i| counts[i] < capacities[i])
            .min_by_key(|&i| (counts[i], i))
            .expect("capacity checked before");
        counts[i] += 1;
    }
    counts
}

/// PT-2007 25: "Quando as pessoas inscritas para jogar são suficientes para mais de uma mesa,
/// procede-se a sorteio utilizando naipes diferentes, sendo o jogador obrigado a ocupar lugar
/// na mesa correspondente ao naipe sorteado."
///
/// Each table gets a suit in BSOP 78 order (the first table given spades, the second hearts,
/// then diamonds, then clubs), so at most [`MAX_SUIT_DRAW_TABLES`] tables. How many players
/// go to each table is decided first, as evenly as the free seats allow (see the rule of
/// `balanced_counts`: one at a time to the emptiest table with room, the earlier table on a
/// tie; e.g. 15 players at two 10-seat tables: 8 and 7). The deck then holds, for each
/// table, that many cards of its suit (from the ace down), so the deck has exactly one card
/// per player and no table can be overfilled. The deck is shuffled with the seed and dealt one
/// card per player in the order given; a player sits at the table of their card's suit.
/// Finally each table's seats are drawn with [`seat_draw`] among its players (in deal order)
/// using the table's sub-seed (sub-seed `i` for the `i`-th table).
///
/// Refuses more than four tables, a table, a seat in one table or a player listed twice,
/// seat numbers below 1, more players than all free seats, and a table that would need more
/// than 13 cards of its suit.
pub fn suit_draw(
    seed: DrawSeed,
    players: &[PlayerId],
    tables: &[TableSeats],
) -> Result<SuitDraw, DrawError> {
    check_players(players)?;
    let mut table_ids = HashSet::new();
    for t in tables {
        if !table_ids.insert(t.table) {
            return Err(DrawError::DuplicateTable { table: t.table });
        }
        check_seats(Some(t.table), &t.seats)?;
    }
    if tables.len() > MAX_SUIT_DRAW_TABLES {
        return Err(DrawError::TooManyTables {
            tables: tables.len(),
            max: MAX_SUIT_DRAW_TABLES,
        });
    }
    let capacities: Vec<usize> = tables.iter().map(|t| t.seats.len()).collect();
    let capacity: usize = capacities.iter().sum();
    if players.len() > capacity {
        return Err(DrawError::TooManyPlayers {
            players: players.len(),
            places: capacity,
        });
    }
    let counts = balanced_counts(players.len(), &capacities);

    let mut deck = Vec::with_capacity(players.len());
    for ((t, &count), suit) in tables.iter().zip(&counts).zip(Suit::BSOP_78_ORDER) {
        if count > Rank::ALL.len() {
            return Err(DrawError::SuitTooSmall {
                table: t.table,
                players: count,
            });
        }
        deck.extend(
            Rank::ALL
                .iter()
                .rev()
                .take(count)
                .map(|&rank| Card { rank, suit }),
        );
    }
    shuffle(&mut seed.rng(), &mut deck);
    let cards: Vec<DealtCard> = players
        .iter()
        .zip(deck)
        .map(|(&player, card)| DealtCard { player, card })
        .collect();

    let mut result = Vec::with_capacity(tables.len());
    for (i, (t, suit)) in tables.iter().zip(Suit::BSOP_78_ORDER).enumerate() {
        let at_table: Vec<PlayerId> = cards
            .iter()
            .filter(|d| d.card.suit == suit)
            .map(|d| d.player)
            .collect();
        let sub_seed = seed.sub_seed(i);
        let seating = seat_draw(sub_seed, &at_table, &t.seats)?;
        result.push(SuitTable {
            table: t.table,
            suit,
            sub_seed,
            seating,
        });
    }
    Ok(SuitDraw {
        cards,
        tables: result,
    })
}

// ---------------------------------------------------------------------------------------------
// Oversubscribed table: PT-2007 27
// ---------------------------------------------------------------------------------------------

/// The outcome of an oversubscribed draw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OversubscribedDraw {
    /// Who plays, in drawn order (previous-session players first). Which seat each gets is a
    /// separate [`seat_draw`] (PT-2007 11).
    pub seated: Vec<PlayerId>,
    /// Who stays on the list, in drawn order (previous-session players first).
    pub waiting: Vec<PlayerId>,
}

/// PT-2007 27: "No caso de o número de jogadores inscritos para uma mesa ultrapassar o número
/// máximo de lugares […] e não sendo possível abrir outra mesa, far-se-á o sorteio dos lugares,
/// dando prioridade aos jogadores que tiverem participado na sessão anterior."
///
/// The previous session's players are shuffled, then the others are shuffled (same random
/// stream, in that order), and the two drawn lists are joined, previous session first. The
/// first `seats` play; the rest stay on the list in that drawn order. So if the previous
/// session's players alone exceed the seats, the draw is among them only; otherwise they all
/// play and the remaining seats go to the first of the others as drawn. With no more players
/// than seats everyone plays. Refuses a player listed twice (also across the two lists).
pub fn oversubscribed_draw(
    seed: DrawSeed,
    previous_session: &[PlayerId],
    others: &[PlayerId],
    seats: usize,
) -> Result<OversubscribedDraw, DrawError> {
    check_players(previous_session.iter().chain(others))?;
    let mut rng = seed.rng();
    let mut seated = previous_session.to_vec();
    shuffle(&mut rng, &mut seated);
    let mut rest = others.to_vec();
    shuffle(&mut rng, &mut rest);
    seated.extend(rest);
    let waiting = seated.split_off(seats.min(seated.len()));
    Ok(OversubscribedDraw { seated, waiting })
}

// ---------------------------------------------------------------------------------------------
// Special buttons: BSOP 115, 116
// ---------------------------------------------------------------------------------------------

/// The outcome of a special button's draw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpecialButtonDraw {
    /// One card to the player of each seat, in the order dealt (the seats as given).
    pub dealt: Vec<DealtCard>,
    /// The players by their card, highest first (BSOP 48, 78).
    pub order: Vec<PlayerId>,
    /// Where the special button starts: the seat of the highest card.
    pub seat: i32,
}

/// BSOP 115, 116: the Cucurucho and the Macaca are extra buttons "que terá sua posição
/// inicial sorteada". The draw is the one a dealer makes for the dealer button (BSOP 48,
/// 79): one card from a shuffled deck to each occupied seat, dealt clockwise from the
/// dealer's left (the seats in the order given, seat 1 first, PT-2007 6), and the highest
/// card by rank then suit (the ace of spades highest) puts the special button on its seat.
/// Which seats take part is the caller's (the service leaves out the other special button's
/// seat while another remains). Refuses no seats, a seat or a player given twice, and seat
/// numbers below 1.
pub fn special_button_draw(
    seed: DrawSeed,
    seats: &[SeatAssignment],
) -> Result<SpecialButtonDraw, DrawError> {
    let numbers: Vec<i32> = seats.iter().map(|a| a.seat).collect();
    check_seats(None, &numbers)?;
    if seats.is_empty() {
        return Err(DrawError::NoSeats);
    }
    let players: Vec<PlayerId> = seats.iter().map(|a| a.player).collect();
    let cards = high_card(seed, &players)?;
    let winner = cards.winner().ok_or(DrawError::NoSeats)?;
    let seat = seats
        .iter()
        .find(|a| a.player == winner)
        .map(|a| a.seat)
        .ok_or(DrawError::NoSeats)?;
    Ok(SpecialButtonDraw {
        dealt: cards.dealt,
        order: cards.order,
        seat,
    })
}

// ---------------------------------------------------------------------------------------------
// The record: kind, seed, inputs, result
// ---------------------------------------------------------------------------------------------

string_enum! {
    /// Which draw a record holds.
    DrawKind {
        HighCard = "high_card",
        Seat = "seat",
        SeatWithExtra = "seat_with_extra",
        Suit = "suit",
        Oversubscribed = "oversubscribed",
        SpecialButton = "special_button",
    }
}

string_enum! {
    /// What a high-card draw decided (recorded with it; it does not change the result).
    HighCardPurpose {
        /// BSOP 48 / PT-ONL 46: the button in a new game.
        Button = "button",
        /// BSOP 79: who moves to another table.
        Move = "move",
        /// BSOP 52: the order of picking seats after a table break.
        TableBreak = "table_break",
        /// BSOP 56: the must-move list order after a table break.
        MustMoveOrder = "must_move_order",
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HighCardInputs {
    pub purpose: HighCardPurpose,
    /// Clockwise from the dealer's left (BSOP 79).
    pub players: Vec<PlayerId>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatInputs {
    pub players: Vec<PlayerId>,
    pub seats: Vec<i32>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SuitInputs {
    pub players: Vec<PlayerId>,
    pub tables: Vec<TableSeats>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpecialButtonInputs {
    /// Which button (BSOP 115 Cucurucho, 116 Macaca).
    pub button: SpecialButton,
    /// The seats it may start on, with who sat there, clockwise from the dealer's left.
    pub seats: Vec<SeatAssignment>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OversubscribedInputs {
    pub previous_session: Vec<PlayerId>,
    pub others: Vec<PlayerId>,
    pub seats: usize,
}

/// A recorded draw: its kind, seed, inputs and result. Serialized as JSON like
/// `{"kind":"high_card","seed":"000000000000002a","inputs":{…},"result":{…}}`. Build one with
/// the constructors (they run the draw); a stored one is checked with [`Draw::verify`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Draw {
    HighCard {
        seed: DrawSeed,
        inputs: HighCardInputs,
        result: HighCardDraw,
    },
    Seat {
        seed: DrawSeed,
        inputs: SeatInputs,
        result: SeatDraw,
    },
    SeatWithExtra {
        seed: DrawSeed,
        inputs: SeatInputs,
        result: SeatDraw,
    },
    Suit {
        seed: DrawSeed,
        inputs: SuitInputs,
        result: SuitDraw,
    },
    Oversubscribed {
        seed: DrawSeed,
        inputs: OversubscribedInputs,
        result: OversubscribedDraw,
    },
    SpecialButton {
        seed: DrawSeed,
        inputs: SpecialButtonInputs,
        result: SpecialButtonDraw,
    },
}

impl Draw {
    /// BSOP 48, 52, 56, 79: [`high_card`], recorded.
    pub fn high_card(
        seed: DrawSeed,
        purpose: HighCardPurpose,
        players: &[PlayerId],
    ) -> Result<Draw, DrawError> {
        Ok(Draw::HighCard {
            seed,
            inputs: HighCardInputs {
                purpose,
                players: players.to_vec(),
            },
            result: high_card(seed, players)?,
        })
    }

    /// PT-2007 11: [`seat_draw`], recorded.
    pub fn seat(seed: DrawSeed, players: &[PlayerId], seats: &[i32]) -> Result<Draw, DrawError> {
        Ok(Draw::Seat {
            seed,
            inputs: SeatInputs {
                players: players.to_vec(),
                seats: seats.to_vec(),
            },
            result: seat_draw(seed, players, seats)?,
        })
    }

    /// BSOP 50: [`seat_draw_with_extra`], recorded.
    pub fn seat_with_extra(
        seed: DrawSeed,
        players: &[PlayerId],
        seats: &[i32],
    ) -> Result<Draw, DrawError> {
        Ok(Draw::SeatWithExtra {
            seed,
            inputs: SeatInputs {
                players: players.to_vec(),
                seats: seats.to_vec(),
            },
            result: seat_draw_with_extra(seed, players, seats)?,
        })
    }

    /// PT-2007 25: [`suit_draw`], recorded.
    pub fn suit(
        seed: DrawSeed,
        players: &[PlayerId],
        tables: &[TableSeats],
    ) -> Result<Draw, DrawError> {
        Ok(Draw::Suit {
            seed,
            inputs: SuitInputs {
                players: players.to_vec(),
                tables: tables.to_vec(),
            },
            result: suit_draw(seed, players, tables)?,
        })
    }

    /// PT-2007 27: [`oversubscribed_draw`], recorded.
    pub fn oversubscribed(
        seed: DrawSeed,
        previous_session: &[PlayerId],
        others: &[PlayerId],
        seats: usize,
    ) -> Result<Draw, DrawError> {
        Ok(Draw::Oversubscribed {
            seed,
            inputs: OversubscribedInputs {
                previous_session: previous_session.to_vec(),
                others: others.to_vec(),
                seats,
            },
            result: oversubscribed_draw(seed, previous_session, others, seats)?,
        })
    }

    /// BSOP 115, 116: [`special_button_draw`], recorded.
    pub fn special_button(
        seed: DrawSeed,
        button: SpecialButton,
        seats: &[SeatAssignment],
    ) -> Result<Draw, DrawError> {
        Ok(Draw::SpecialButton {
            seed,
            inputs: SpecialButtonInputs {
                button,
                seats: seats.to_vec(),
            },
            result: special_button_draw(seed, seats)?,
        })
    }

    pub fn kind(&self) -> DrawKind {
        match self {
            Draw::HighCard { .. } => DrawKind::HighCard,
            Draw::Seat { .. } => DrawKind::Seat,
            Draw::SeatWithExtra { .. } => DrawKind::SeatWithExtra,
            Draw::Suit { .. } => DrawKind::Suit,
            Draw::Oversubscribed { .. } => DrawKind::Oversubscribed,
            Draw::SpecialButton { .. } => DrawKind::SpecialButton,
        }
    }

    pub fn seed(&self) -> DrawSeed {
        match self {
            Draw::HighCard { seed, .. }
            | Draw::Seat { seed, .. }
            | Draw::SeatWithExtra { seed, .. }
            | Draw::Suit { seed, .. }
            | Draw::Oversubscribed { seed, .. }
            | Draw::SpecialButton { seed, .. } => *seed,
        }
    }

    /// Recomputes the draw from its kind, seed and inputs alone (the stored result is ignored).
    pub fn replay(&self) -> Result<Draw, DrawError> {
        let seed = self.seed();
        match self {
            Draw::HighCard { inputs, .. } => Draw::high_card(seed, inputs.purpose, &inputs.players),
            Draw::Seat { inputs, .. } => Draw::seat(seed, &inputs.players, &inputs.seats),
            Draw::SeatWithExtra { inputs, .. } => {
                Draw::seat_with_extra(seed, &inputs.players, &inputs.seats)
            }
            Draw::Suit { inputs, .. } => Draw::suit(seed, &inputs.players, &inputs.tables),
            Draw::Oversubscribed { inputs, .. } => {
                Draw::oversubscribed(seed, &inputs.previous_session, &inputs.others, inputs.seats)
            }
            Draw::SpecialButton { inputs, .. } => {
                Draw::special_button(seed, inputs.button, &inputs.seats)
            }
        }
    }

    /// Settles a dispute: true iff replaying the kind, seed and inputs gives exactly the
    /// stored result. False for a tampered result, and for inputs that no longer make a
    /// valid draw.
    pub fn verify(&self) -> bool {
        self.replay().is_ok_and(|d| d == *self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    fn c(s: &str) -> Card {
        s.parse().unwrap()
    }

    fn codes(dealt: &[DealtCard]) -> Vec<String> {
        dealt.iter().map(|d| d.card.code()).collect()
    }

    fn seats(n: i32) -> Vec<i32> {
        (1..=n).collect()
    }

    // --- the replay contract ------------------------------------------------------------

    #[test]
    fn shuffle_of_a_fixed_seed_never_changes() {
        // Pins the whole chain (seed_from_u64, ChaCha20, rejection sampling, Fisher–Yates):
        // if this fails, old recorded draws no longer replay.
        let mut deck = Deck::standard().into_cards();
        shuffle(&mut DrawSeed(0).rng(), &mut deck);
        let got: Vec<String> = deck.iter().take(8).map(|c| c.code()).collect();
        assert_eq!(got, PINNED_SEED_0_TOP_8);
    }
    const PINNED_SEED_0_TOP_8: [&str; 8] = ["8h", "8c", "Jc", "5d", "4s", "Kc", "8d", "5h"];

    #[test]
    fn shuffle_is_uniform_over_the_permutations_of_three() {
        // 6000 fixed seeds: each of the 6 orders expected 1000 times (sd ≈ 29).
        let mut counts = std::collections::BTreeMap::new();
        for s in 0..6000u64 {
            let mut v = [1, 2, 3];
            shuffle(&mut DrawSeed(s).rng(), &mut v);
            *counts.entry(v).or_insert(0) += 1;
        }
        assert_eq!(counts.len(), 6);
        assert!(
            counts.values().all(|&n| (880..=1120).contains(&n)),
            "{counts:?}"
        );
    }

    #[test]
    fn below_is_in_range_and_covers_it() {
        let mut rng = DrawSeed(7).rng();
        let mut seen = [false; 5];
        for _ in 0..200 {
            let i = below(&mut rng, 5);
            seen[i] = true;
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(below(&mut rng, 1), 0);
    }

    #[test]
    fn draw_seed_text_json_and_bigint_forms() {
        let s = DrawSeed(42);
        assert_eq!(s.to_string(), "000000000000002a");
        assert_eq!("2A".parse::<DrawSeed>(), Ok(s));
        assert_eq!("000000000000002a".parse::<DrawSeed>(), Ok(s));
        assert_eq!("".parse::<DrawSeed>(), Err(BadSeed));
        assert_eq!("+2a".parse::<DrawSeed>(), Err(BadSeed));
        assert_eq!("00000000000000002a".parse::<DrawSeed>(), Err(BadSeed));
        assert_eq!(serde_json::to_string(&s).unwrap(), "\"000000000000002a\"");
        assert_eq!(
            serde_json::from_str::<DrawSeed>("\"ffffffffffffffff\"").unwrap(),
            DrawSeed(u64::MAX)
        );
        assert_eq!(DrawSeed(u64::MAX).to_i64(), -1);
        assert_eq!(DrawSeed::from_i64(-1), DrawSeed(u64::MAX));
        assert_eq!(
            DrawSeed::from_i64(DrawSeed(1 << 63).to_i64()),
            DrawSeed(1 << 63)
        );
    }

    #[test]
    fn random_seeds_differ() {
        // Not a proof of randomness: two fresh 64-bit seeds colliding means a broken source.
        assert_ne!(DrawSeed::random(), DrawSeed::random());
    }

    #[test]
    fn sub_seeds_are_fixed_and_distinct() {
        let s = DrawSeed(42);
        assert_eq!(s.sub_seed(0), DrawSeed(42).sub_seed(0));
        let subs: BTreeSet<u64> = (0..4).map(|i| s.sub_seed(i).0).collect();
        assert_eq!(subs.len(), 4);
        assert!(!subs.contains(&42));
    }

    // --- high card ---------------------------------------------------------------------

    #[test]
    fn bsop_48_ace_of_spades_beats_ace_of_hearts() {
        let d = HighCardDraw::from_dealt(vec![
            DealtCard {
                player: PlayerId(1),
                card: c("Ah"),
            },
            DealtCard {
                player: PlayerId(2),
                card: c("Kc"),
            },
            DealtCard {
                player: PlayerId(3),
                card: c("As"),
            },
            DealtCard {
                player: PlayerId(4),
                card: c("Ac"),
            },
        ])
        .unwrap();
        assert_eq!(d.winner(), Some(PlayerId(3)));
        // BSOP 48: rank first (the king of clubs is below the ace of clubs), then suit (78).
        assert_eq!(d.order, [3, 1, 4, 2].map(PlayerId));
        assert_eq!(d.card_of(PlayerId(2)), Some(c("Kc")));
        assert_eq!(d.card_of(PlayerId(9)), None);
    }

    #[test]
    fn bsop_48_hand_entered_draw_refuses_repeats() {
        let dup_card = vec![
            DealtCard {
                player: PlayerId(1),
                card: c("As"),
            },
            DealtCard {
                player: PlayerId(2),
                card: c("As"),
            },
        ];
        assert_eq!(
            HighCardDraw::from_dealt(dup_card),
            Err(DrawError::DuplicateCard { card: c("As") })
        );
        let dup_player = vec![
            DealtCard {
                player: PlayerId(1),
                card: c("As"),
            },
            DealtCard {
                player: PlayerId(1),
                card: c("Ks"),
            },
        ];
        assert_eq!(
            HighCardDraw::from_dealt(dup_player),
            Err(DrawError::DuplicatePlayer {
                player: PlayerId(1)
            })
        );
    }

    #[test]
    fn bsop_48_fixed_seed_gives_pinned_button() {
        let d = high_card(
            DrawSeed(42),
            &[
                PlayerId(10),
                PlayerId(20),
                PlayerId(30),
                PlayerId(40),
                PlayerId(50),
            ],
        )
        .unwrap();
        assert_eq!(codes(&d.dealt), PINNED_HIGH_CARD_42);
        assert_eq!(d.order, PINNED_HIGH_CARD_42_ORDER.map(PlayerId));
        assert_eq!(d.winner(), Some(PlayerId(PINNED_HIGH_CARD_42_ORDER[0])));
    }
    const PINNED_HIGH_CARD_42: [&str; 5] = ["9s", "7s", "Ad", "5c", "6d"];
    // Ad > 9s > 7s > 6d > 5c.
    const PINNED_HIGH_CARD_42_ORDER: [i64; 5] = [30, 10, 20, 50, 40];

    #[test]
    fn bsop_79_cards_are_dealt_in_the_order_given() {
        // Clockwise from the dealer's left: the i-th player gets the i-th card off the top, so
        // adding a player at the end never changes the cards of those before.
        let four = high_card(
            DrawSeed(9),
            &[PlayerId(1), PlayerId(2), PlayerId(3), PlayerId(4)],
        )
        .unwrap();
        let five = high_card(
            DrawSeed(9),
            &[
                PlayerId(1),
                PlayerId(2),
                PlayerId(3),
                PlayerId(4),
                PlayerId(5),
            ],
        )
        .unwrap();
        assert_eq!(
            four.dealt.iter().map(|d| d.player).collect::<Vec<_>>(),
            [1, 2, 3, 4].map(PlayerId)
        );
        assert_eq!(codes(&four.dealt), codes(&five.dealt)[..4]);
        // The same cards to a different order of players: the cards follow the positions.
        let rotated = high_card(
            DrawSeed(9),
            &[PlayerId(2), PlayerId(3), PlayerId(4), PlayerId(1)],
        )
        .unwrap();
        assert_eq!(codes(&rotated.dealt), codes(&four.dealt));
    }

    #[test]
    fn bsop_79_same_seed_same_result_different_seeds_usually_differ() {
        let players = [11, 12, 13, 14, 15, 16].map(PlayerId);
        assert_eq!(
            high_card(DrawSeed(5), &players),
            high_card(DrawSeed(5), &players)
        );
        let distinct: BTreeSet<Vec<String>> = (0..100u64)
            .map(|s| codes(&high_card(DrawSeed(s), &players).unwrap().dealt))
            .collect();
        assert_eq!(distinct.len(), 100);
    }

    #[test]
    fn bsop_52_table_break_order_covers_every_player() {
        let players: Vec<PlayerId> = (100..110).map(PlayerId).collect();
        let d = high_card(DrawSeed(52), &players).unwrap();
        let mut order = d.order.clone();
        order.sort_unstable();
        assert_eq!(order, players);
    }

    #[test]
    fn high_card_refuses_repeats_and_more_than_a_deck() {
        assert_eq!(
            high_card(DrawSeed(1), &[PlayerId(1), PlayerId(2), PlayerId(1)]),
            Err(DrawError::DuplicatePlayer {
                player: PlayerId(1)
            })
        );
        let many: Vec<PlayerId> = (0..53).map(PlayerId).collect();
        assert_eq!(
            high_card(DrawSeed(1), &many),
            Err(DrawError::DeckTooSmall {
                players: 53,
                cards: 52
            })
        );
        assert_eq!(high_card(DrawSeed(1), &many[..52]).unwrap().order.len(), 52);
        assert_eq!(high_card(DrawSeed(1), &[]).unwrap().winner(), None);
    }

    // --- seats -------------------------------------------------------------------------

    #[test]
    fn pt_2007_11_fixed_seed_gives_pinned_seats() {
        let d = seat_draw(
            DrawSeed(11),
            &[
                PlayerId(1),
                PlayerId(2),
                PlayerId(3),
                PlayerId(4),
                PlayerId(5),
                PlayerId(6),
            ],
            &seats(10),
        )
        .unwrap();
        let got: Vec<(i64, i32)> = d.seats.iter().map(|a| (a.player.get(), a.seat)).collect();
        assert_eq!(got, PINNED_SEATS_11);
        assert_eq!(d.extra, None);
        assert_eq!(d.free.len(), 4);
        assert!(d.free.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(
            d,
            seat_draw(
                DrawSeed(11),
                &[
                    PlayerId(1),
                    PlayerId(2),
                    PlayerId(3),
                    PlayerId(4),
                    PlayerId(5),
                    PlayerId(6)
                ],
                &seats(10)
            )
            .unwrap()
        );
        assert_ne!(
            d,
            seat_draw(
                DrawSeed(12),
                &[
                    PlayerId(1),
                    PlayerId(2),
                    PlayerId(3),
                    PlayerId(4),
                    PlayerId(5),
                    PlayerId(6)
                ],
                &seats(10)
            )
            .unwrap()
        );
    }
    const PINNED_SEATS_11: [(i64, i32); 6] = [(5, 1), (1, 4), (2, 5), (6, 7), (3, 9), (4, 10)];

    #[test]
    fn pt_2007_11_only_the_given_seats_are_drawn() {
        let free = [2, 5, 9];
        let d = seat_draw(DrawSeed(3), &[PlayerId(7), PlayerId(8), PlayerId(9)], &free).unwrap();
        let mut got: Vec<i32> = d.seats.iter().map(|a| a.seat).collect();
        got.sort_unstable();
        assert_eq!(got, vec![2, 5, 9]);
        assert!(d.free.is_empty());
    }

    #[test]
    fn pt_2007_11_seat_draw_refusals() {
        assert_eq!(
            seat_draw(
                DrawSeed(1),
                &[PlayerId(1), PlayerId(2), PlayerId(3)],
                &[1, 2]
            ),
            Err(DrawError::TooManyPlayers {
                players: 3,
                places: 2
            })
        );
        assert_eq!(
            seat_draw(DrawSeed(1), &[PlayerId(1), PlayerId(1)], &[1, 2]),
            Err(DrawError::DuplicatePlayer {
                player: PlayerId(1)
            })
        );
        assert_eq!(
            seat_draw(DrawSeed(1), &[PlayerId(1)], &[3, 3]),
            Err(DrawError::DuplicateSeat {
                table: None,
                seat: 3
            })
        );
        assert_eq!(
            seat_draw(DrawSeed(1), &[PlayerId(1)], &[0, 1]),
            Err(DrawError::InvalidSeat {
                table: None,
                seat: 0
            })
        );
        let empty = seat_draw(DrawSeed(1), &[], &[4, 1]).unwrap();
        assert!(empty.seats.is_empty());
        assert_eq!(empty.free, vec![1, 4]);
    }

    #[test]
    fn bsop_50_one_extra_player_draws_the_extra_place() {
        let players: Vec<PlayerId> = (1..=11).map(PlayerId).collect();
        let d = seat_draw_with_extra(DrawSeed(50), &players, &seats(10)).unwrap();
        let extra = d.extra.expect("one player over the seats");
        assert!(players.contains(&extra));
        assert_eq!(d.seat_of(extra), None);
        assert_eq!(d.seats.len(), 10);
        assert!(d.free.is_empty());
        let seated: BTreeSet<PlayerId> = d.seats.iter().map(|a| a.player).collect();
        assert!(!seated.contains(&extra));
        assert_eq!(seated.len(), 10);
        assert_eq!(extra, PlayerId(PINNED_EXTRA_50));
    }
    const PINNED_EXTRA_50: i64 = 6;

    #[test]
    fn bsop_50_the_extra_place_is_drawn_not_fixed() {
        let players: Vec<PlayerId> = (1..=7).map(PlayerId).collect();
        let extras: BTreeSet<PlayerId> = (0..60u64)
            .map(|s| {
                seat_draw_with_extra(DrawSeed(s), &players, &seats(6))
                    .unwrap()
                    .extra
                    .unwrap()
            })
            .collect();
        assert_eq!(extras.len(), 7, "every player can draw the extra place");
    }

    #[test]
    fn bsop_50_without_an_extra_player_it_is_the_plain_seat_draw() {
        let players = [1, 2, 3].map(PlayerId);
        assert_eq!(
            seat_draw_with_extra(DrawSeed(4), &players, &seats(10)),
            seat_draw(DrawSeed(4), &players, &seats(10))
        );
        assert_eq!(
            seat_draw_with_extra(DrawSeed(4), &players, &seats(3))
                .unwrap()
                .extra,
            None
        );
        assert_eq!(
            seat_draw_with_extra(
                DrawSeed(4),
                &[
                    PlayerId(1),
                    PlayerId(2),
                    PlayerId(3),
                    PlayerId(4),
                    PlayerId(5)
                ],
                &seats(3)
            ),
            Err(DrawError::TooManyPlayers {
                players: 5,
                places: 4
            })
        );
        assert_eq!(
            seat_draw_with_extra(
                DrawSeed(4),
                &[PlayerId(1), PlayerId(2), PlayerId(3), PlayerId(1)],
                &seats(2)
            ),
            Err(DrawError::DuplicatePlayer {
                player: PlayerId(1)
            })
        );
    }

    // --- suits -------------------------------------------------------------------------

    fn two_tables() -> Vec<TableSeats> {
        vec![
            TableSeats {
                table: 101,
                seats: seats(10),
            },
            TableSeats {
                table: 102,
                seats: seats(10),
            },
        ]
    }

    #[test]
    fn pt_2007_25_suits_go_to_tables_in_bsop_78_order() {
        let four: Vec<TableSeats> = (0..4)
            .map(|i| TableSeats {
                table: 200 + i,
                seats: seats(10),
            })
            .collect();
        let players: Vec<PlayerId> = (1..=30).map(PlayerId).collect();
        let d = suit_draw(DrawSeed(25), &players, &four).unwrap();
        let suits: Vec<Suit> = d.tables.iter().map(|t| t.suit).collect();
        assert_eq!(
            suits,
            vec![Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs]
        );
        let counts: Vec<usize> = d.tables.iter().map(|t| t.seating.seats.len()).collect();
        assert_eq!(counts, vec![8, 8, 7, 7]);
    }

    #[test]
    fn pt_2007_25_each_player_sits_at_the_table_of_their_suit() {
        let players: Vec<PlayerId> = (1..=15).map(PlayerId).collect();
        let d = suit_draw(DrawSeed(25), &players, &two_tables()).unwrap();
        // Balanced: 15 players at two tables of ten make 8 and 7, the first table the fuller.
        assert_eq!(d.tables[0].seating.seats.len(), 8);
        assert_eq!(d.tables[1].seating.seats.len(), 7);
        for dc in &d.cards {
            let table = if dc.card.suit == Suit::Spades {
                101
            } else {
                102
            };
            assert_eq!(d.table_of(dc.player), Some(table));
            assert_eq!(d.seat_of(dc.player).map(|(t, _)| t), Some(table));
        }
        // Spades from the ace down, hearts from the ace down: exactly one card per player.
        let mut spades: Vec<Card> = d
            .cards
            .iter()
            .map(|x| x.card)
            .filter(|x| x.suit == Suit::Spades)
            .collect();
        spades.sort_unstable_by(|a, b| b.cmp(a));
        assert_eq!(
            spades.iter().map(|x| x.code()).collect::<Vec<_>>(),
            ["As", "Ks", "Qs", "Js", "Ts", "9s", "8s", "7s"]
        );
        assert_eq!(
            d.cards.iter().map(|x| x.player).collect::<Vec<_>>(),
            players
        );
        let spade_players: Vec<PlayerId> = PINNED_SUIT_25_SPADES.map(PlayerId).to_vec();
        let mut got: Vec<PlayerId> = d.tables[0].seating.seats.iter().map(|a| a.player).collect();
        got.sort_unstable();
        assert_eq!(got, spade_players);
    }
    const PINNED_SUIT_25_SPADES: [i64; 8] = [1, 3, 4, 6, 7, 10, 13, 15];

    #[test]
    fn pt_2007_25_table_seats_replay_from_the_sub_seed() {
        let players: Vec<PlayerId> = (1..=15).map(PlayerId).collect();
        let d = suit_draw(DrawSeed(77), &players, &two_tables()).unwrap();
        for (i, t) in d.tables.iter().enumerate() {
            assert_eq!(t.sub_seed, DrawSeed(77).sub_seed(i));
            let at_table: Vec<PlayerId> = d
                .cards
                .iter()
                .filter(|x| x.card.suit == t.suit)
                .map(|x| x.player)
                .collect();
            assert_eq!(
                seat_draw(t.sub_seed, &at_table, &seats(10)).unwrap(),
                t.seating
            );
        }
    }

    #[test]
    fn pt_2007_25_small_table_is_filled_and_the_rest_spread() {
        assert_eq!(balanced_counts(17, &[3, 10, 10]), vec![3, 7, 7]);
        assert_eq!(balanced_counts(15, &[10, 10]), vec![8, 7]);
        assert_eq!(balanced_counts(20, &[10, 10]), vec![10, 10]);
        assert_eq!(balanced_counts(5, &[10, 2, 10]), vec![2, 2, 1]);
        assert_eq!(balanced_counts(0, &[10, 10]), vec![0, 0]);
        let tables = vec![
            TableSeats {
                table: 1,
                seats: vec![4, 5, 6],
            },
            TableSeats {
                table: 2,
                seats: seats(10),
            },
        ];
        let players: Vec<PlayerId> = (1..=12).map(PlayerId).collect();
        let d = suit_draw(DrawSeed(3), &players, &tables).unwrap();
        assert_eq!(d.tables[0].seating.seats.len(), 3);
        assert_eq!(d.tables[1].seating.seats.len(), 9);
    }

    #[test]
    fn pt_2007_25_suit_draw_refusals() {
        let five: Vec<TableSeats> = (0..5)
            .map(|i| TableSeats {
                table: i,
                seats: seats(10),
            })
            .collect();
        assert_eq!(
            suit_draw(DrawSeed(1), &[PlayerId(1), PlayerId(2)], &five),
            Err(DrawError::TooManyTables { tables: 5, max: 4 })
        );
        let players: Vec<PlayerId> = (1..=21).map(PlayerId).collect();
        assert_eq!(
            suit_draw(DrawSeed(1), &players, &two_tables()),
            Err(DrawError::TooManyPlayers {
                players: 21,
                places: 20
            })
        );
        assert_eq!(
            suit_draw(DrawSeed(1), &[PlayerId(1)], &[]),
            Err(DrawError::TooManyPlayers {
                players: 1,
                places: 0
            })
        );
        let same = vec![
            TableSeats {
                table: 7,
                seats: seats(10),
            },
            TableSeats {
                table: 7,
                seats: seats(10),
            },
        ];
        assert_eq!(
            suit_draw(DrawSeed(1), &[PlayerId(1)], &same),
            Err(DrawError::DuplicateTable { table: 7 })
        );
        let bad = vec![TableSeats {
            table: 7,
            seats: vec![1, 1],
        }];
        assert_eq!(
            suit_draw(DrawSeed(1), &[PlayerId(1)], &bad),
            Err(DrawError::DuplicateSeat {
                table: Some(7),
                seat: 1
            })
        );
        let bad = vec![TableSeats {
            table: 7,
            seats: vec![-1],
        }];
        assert_eq!(
            suit_draw(DrawSeed(1), &[PlayerId(1)], &bad),
            Err(DrawError::InvalidSeat {
                table: Some(7),
                seat: -1
            })
        );
        assert_eq!(
            suit_draw(DrawSeed(1), &[PlayerId(3), PlayerId(3)], &two_tables()),
            Err(DrawError::DuplicatePlayer {
                player: PlayerId(3)
            })
        );
        let huge = vec![TableSeats {
            table: 9,
            seats: seats(14),
        }];
        let players: Vec<PlayerId> = (1..=14).map(PlayerId).collect();
        assert_eq!(
            suit_draw(DrawSeed(1), &players, &huge),
            Err(DrawError::SuitTooSmall {
                table: 9,
                players: 14
            })
        );
        assert!(suit_draw(DrawSeed(1), &players[..13], &huge).is_ok());
    }

    // --- oversubscribed ------------------------------------------------------------------

    #[test]
    fn pt_2007_27_previous_session_players_come_first() {
        let d = oversubscribed_draw(
            DrawSeed(27),
            &[PlayerId(1), PlayerId(2), PlayerId(3)],
            &[
                PlayerId(4),
                PlayerId(5),
                PlayerId(6),
                PlayerId(7),
                PlayerId(8),
                PlayerId(9),
                PlayerId(10),
            ],
            5,
        )
        .unwrap();
        let seated: BTreeSet<PlayerId> = d.seated.iter().copied().collect();
        assert!([1, 2, 3].map(PlayerId).iter().all(|p| seated.contains(p)));
        assert_eq!(d.seated.len(), 5);
        assert_eq!(d.waiting.len(), 5);
        assert!(d.waiting.iter().all(|p| *p >= PlayerId(4)));
        assert_eq!(d.seated, PINNED_OVER_27_SEATED.map(PlayerId));
        assert_eq!(d.waiting, PINNED_OVER_27_WAITING.map(PlayerId));
    }
    const PINNED_OVER_27_SEATED: [i64; 5] = [3, 1, 2, 7, 4];
    const PINNED_OVER_27_WAITING: [i64; 5] = [8, 9, 5, 10, 6];

    #[test]
    fn pt_2007_27_previous_session_alone_too_many_draws_among_them() {
        let prev = [1, 2, 3, 4, 5, 6].map(PlayerId);
        let d = oversubscribed_draw(DrawSeed(8), &prev, &[PlayerId(7), PlayerId(8)], 4).unwrap();
        assert_eq!(d.seated.len(), 4);
        assert!(d.seated.iter().all(|p| prev.contains(p)));
        // The two previous-session players left out head the list, then the others.
        assert!(d.waiting[..2].iter().all(|p| prev.contains(p)));
        let tail: BTreeSet<PlayerId> = d.waiting[2..].iter().copied().collect();
        assert_eq!(tail, BTreeSet::from([7, 8].map(PlayerId)));
    }

    #[test]
    fn pt_2007_27_everyone_plays_when_they_fit_and_repeats_are_refused() {
        let d = oversubscribed_draw(DrawSeed(2), &[PlayerId(1)], &[PlayerId(2), PlayerId(3)], 10)
            .unwrap();
        assert_eq!(d.seated.len(), 3);
        assert_eq!(d.seated[0], PlayerId(1));
        assert!(d.waiting.is_empty());
        assert_eq!(
            oversubscribed_draw(
                DrawSeed(2),
                &[PlayerId(1), PlayerId(2)],
                &[PlayerId(2), PlayerId(3)],
                10
            ),
            Err(DrawError::DuplicatePlayer {
                player: PlayerId(2)
            })
        );
        let none = oversubscribed_draw(DrawSeed(2), &[PlayerId(1)], &[PlayerId(2)], 0).unwrap();
        assert!(none.seated.is_empty());
        assert_eq!(none.waiting, [1, 2].map(PlayerId));
    }

    // --- the record ----------------------------------------------------------------------

    #[test]
    fn draw_record_json_round_trips_and_verifies() {
        let d = Draw::high_card(
            DrawSeed(42),
            HighCardPurpose::Button,
            &[PlayerId(10), PlayerId(20), PlayerId(30)],
        )
        .unwrap();
        assert_eq!(d.kind(), DrawKind::HighCard);
        assert_eq!(d.seed(), DrawSeed(42));
        let json = serde_json::to_string(&d).unwrap();
        assert!(json.starts_with(r#"{"kind":"high_card","seed":"000000000000002a","inputs":{"purpose":"button","players":[10,20,30]},"result":{"dealt":[{"player":10,"card":""#), "{json}");
        let back: Draw = serde_json::from_str(&json).unwrap();
        assert_eq!(back, d);
        assert!(back.verify());

        let all = [
            d,
            Draw::seat(DrawSeed(1), &[PlayerId(1), PlayerId(2)], &[3, 4, 5]).unwrap(),
            Draw::seat_with_extra(
                DrawSeed(1),
                &[PlayerId(1), PlayerId(2), PlayerId(3), PlayerId(4)],
                &[3, 4, 5],
            )
            .unwrap(),
            Draw::suit(
                DrawSeed(1),
                &[PlayerId(1), PlayerId(2), PlayerId(3)],
                &two_tables(),
            )
            .unwrap(),
            Draw::oversubscribed(DrawSeed(1), &[PlayerId(1)], &[PlayerId(2), PlayerId(3)], 2)
                .unwrap(),
            Draw::special_button(
                DrawSeed(1),
                SpecialButton::Macaca,
                &[
                    SeatAssignment {
                        player: PlayerId(7),
                        seat: 2,
                    },
                    SeatAssignment {
                        player: PlayerId(8),
                        seat: 5,
                    },
                ],
            )
            .unwrap(),
        ];
        let kinds: Vec<&str> = all.iter().map(|d| d.kind().as_str()).collect();
        assert_eq!(
            kinds,
            [
                "high_card",
                "seat",
                "seat_with_extra",
                "suit",
                "oversubscribed",
                "special_button"
            ]
        );
        for d in all {
            let json = serde_json::to_value(&d).unwrap();
            assert_eq!(json["kind"], d.kind().as_str());
            let back: Draw = serde_json::from_value(json).unwrap();
            assert_eq!(back, d);
            assert!(back.verify());
            assert_eq!(back.replay().unwrap(), d);
        }
    }

    #[test]
    fn draw_verify_detects_a_tampered_result_or_seed() {
        let d = Draw::high_card(
            DrawSeed(42),
            HighCardPurpose::Button,
            &[PlayerId(10), PlayerId(20), PlayerId(30)],
        )
        .unwrap();
        let mut json = serde_json::to_value(&d).unwrap();
        // Give the button to someone else.
        let order = json["result"]["order"].as_array_mut().unwrap();
        order.swap(0, 1);
        let tampered: Draw = serde_json::from_value(json).unwrap();
        assert!(!tampered.verify());
        // Claim a different card.
        let mut json = serde_json::to_value(&d).unwrap();
        let first = json["result"]["dealt"][0]["card"]
            .as_str()
            .unwrap()
            .to_string();
        json["result"]["dealt"][0]["card"] = (if first == "As" { "2c" } else { "As" }).into();
        assert!(!serde_json::from_value::<Draw>(json).unwrap().verify());
        // Another seed gives another deal.
        let mut json = serde_json::to_value(&d).unwrap();
        json["seed"] = "000000000000002b".into();
        assert!(!serde_json::from_value::<Draw>(json).unwrap().verify());
        // Inputs that no longer make a valid draw do not verify either.
        let mut json = serde_json::to_value(&d).unwrap();
        json["inputs"]["players"] = serde_json::json!([10, 10, 30]);
        let broken: Draw = serde_json::from_value(json).unwrap();
        assert_eq!(
            broken.replay(),
            Err(DrawError::DuplicatePlayer {
                player: PlayerId(10)
            })
        );
        assert!(!broken.verify());
    }

    #[test]
    fn bsop_115_116_special_button_draw_refuses_bad_seats_and_replays() {
        let a = |player, seat| SeatAssignment { player, seat };
        assert_eq!(
            special_button_draw(DrawSeed(1), &[]),
            Err(DrawError::NoSeats)
        );
        assert_eq!(DrawError::NoSeats.key(), "draw-no-seats");
        assert_eq!(
            special_button_draw(DrawSeed(1), &[a(PlayerId(1), 3), a(PlayerId(2), 3)]),
            Err(DrawError::DuplicateSeat {
                table: None,
                seat: 3
            })
        );
        assert_eq!(
            special_button_draw(DrawSeed(1), &[a(PlayerId(1), 3), a(PlayerId(1), 4)]),
            Err(DrawError::DuplicatePlayer {
                player: PlayerId(1)
            })
        );
        assert_eq!(
            special_button_draw(DrawSeed(1), &[a(PlayerId(1), 0)]),
            Err(DrawError::InvalidSeat {
                table: None,
                seat: 0
            })
        );
        // One seat: it gets the button.
        assert_eq!(
            special_button_draw(DrawSeed(9), &[a(PlayerId(5), 7)])
                .unwrap()
                .seat,
            7
        );
        // The same cards as the dealer button's draw among the same players (BSOP 48).
        let seats = [a(PlayerId(10), 1), a(PlayerId(20), 4), a(PlayerId(30), 6)];
        let d = special_button_draw(DrawSeed(42), &seats).unwrap();
        let h = high_card(DrawSeed(42), &[PlayerId(10), PlayerId(20), PlayerId(30)]).unwrap();
        assert_eq!(d.dealt, h.dealt);
        assert_eq!(d.order, h.order);
        let winner_seat = seats.iter().find(|x| x.player == h.order[0]).unwrap().seat;
        assert_eq!(d.seat, winner_seat);
        let rec = Draw::special_button(DrawSeed(42), SpecialButton::Cucurucho, &seats).unwrap();
        let json = serde_json::to_value(&rec).unwrap();
        assert_eq!(json["kind"], "special_button");
        assert_eq!(json["inputs"]["button"], "cucurucho");
        assert_eq!(
            json["inputs"]["seats"][1],
            serde_json::json!({"player": 20, "seat": 4})
        );
        assert_eq!(json["result"]["seat"], winner_seat);
        assert!(rec.verify());
        // Another seat claimed: the replay disagrees.
        let mut forged = json.clone();
        forged["result"]["seat"] = (if winner_seat == 1 { 4 } else { 1 }).into();
        assert!(!serde_json::from_value::<Draw>(forged).unwrap().verify());
    }

    #[test]
    fn draw_errors_carry_keys_and_arguments() {
        let e = DrawError::TooManyPlayers {
            players: 12,
            places: 11,
        };
        assert_eq!(e.key(), "draw-too-many-players");
        let p = e.problem();
        assert_eq!(
            p.args,
            vec![("players", "12".to_string()), ("places", "11".to_string())]
        );
        assert_eq!(e.to_string(), "draw-too-many-players players=12 places=11");
        assert_eq!(
            serde_json::to_value(&e).unwrap(),
            serde_json::json!({"error": "too_many_players", "players": 12, "places": 11})
        );
        let e = DrawError::DuplicateSeat {
            table: Some(3),
            seat: 4,
        };
        assert_eq!(
            e.problem().args,
            vec![("seat", "4".to_string()), ("table", "3".to_string())]
        );
    }

    // --- properties ----------------------------------------------------------------------

    /// Distinct players (0..=12) and distinct free seats (1..=11 of 1..=11), players ≤ seats.
    fn players_and_seats() -> impl Strategy<Value = (Vec<PlayerId>, Vec<i32>)> {
        prop::collection::btree_set(1i32..=11, 0..=11).prop_flat_map(|s| {
            let seats: Vec<i32> = s.into_iter().collect();
            let n = seats.len();
            (
                prop::collection::btree_set(any::<i64>(), 0..=n)
                    .prop_map(|p| p.into_iter().map(PlayerId).collect()),
                Just(seats),
            )
        })
    }

    /// 1 to 4 tables (ids 100..), each with 0 to 11 distinct free seats, and distinct players
    /// not more than all the seats.
    fn players_and_tables() -> impl Strategy<Value = (Vec<PlayerId>, Vec<TableSeats>)> {
        prop::collection::vec(prop::collection::btree_set(1i32..=11, 0..=11), 1..=4).prop_flat_map(
            |ts| {
                let tables: Vec<TableSeats> = ts
                    .into_iter()
                    .enumerate()
                    .map(|(i, s)| TableSeats {
                        table: 100 + i as i64,
                        seats: s.into_iter().collect(),
                    })
                    .collect();
                let capacity: usize = tables.iter().map(|t| t.seats.len()).sum();
                (
                    prop::collection::btree_set(-1000i64..1000, 0..=capacity)
                        .prop_map(|p| p.into_iter().map(PlayerId).collect()),
                    Just(tables),
                )
            },
        )
    }

    /// Previous-session and other players, disjoint, and a seat count.
    fn oversubscribed_inputs() -> impl Strategy<Value = (Vec<PlayerId>, Vec<PlayerId>, usize)> {
        (prop::collection::btree_set(0i64..40, 0..=30), 0usize..=12).prop_flat_map(
            |(all, seats)| {
                let all: Vec<PlayerId> = all.into_iter().map(PlayerId).collect();
                let n = all.len();
                (0..=n).prop_map(move |k| (all[..k].to_vec(), all[k..].to_vec(), seats))
            },
        )
    }

    /// 1 to 11 distinct occupied seats of 1..=11, each with a distinct player.
    fn occupied_seats() -> impl Strategy<Value = Vec<SeatAssignment>> {
        prop::collection::btree_set(1i32..=11, 1..=11).prop_flat_map(|s| {
            let seats: Vec<i32> = s.into_iter().collect();
            let n = seats.len();
            prop::collection::btree_set(any::<i64>(), n..=n).prop_map(move |p| {
                seats
                    .iter()
                    .zip(p)
                    .map(|(&seat, player)| SeatAssignment {
                        player: PlayerId(player),
                        seat,
                    })
                    .collect()
            })
        })
    }

    fn any_draw() -> impl Strategy<Value = Draw> {
        let seed = any::<u64>().prop_map(DrawSeed);
        prop_oneof![
            (
                seed.clone(),
                prop::collection::btree_set(any::<i64>(), 0..=20)
            )
                .prop_map(|(s, p)| {
                    Draw::high_card(
                        s,
                        HighCardPurpose::MustMoveOrder,
                        &p.into_iter().map(PlayerId).collect::<Vec<_>>(),
                    )
                    .unwrap()
                }),
            (seed.clone(), players_and_seats())
                .prop_map(|(s, (p, t))| Draw::seat(s, &p, &t).unwrap()),
            (seed.clone(), players_and_seats(), any::<i64>()).prop_map(|(s, (mut p, t), x)| {
                if p.len() == t.len() && !p.contains(&PlayerId(x)) {
                    p.push(PlayerId(x));
                }
                Draw::seat_with_extra(s, &p, &t).unwrap()
            }),
            (seed.clone(), players_and_tables())
                .prop_map(|(s, (p, t))| Draw::suit(s, &p, &t).unwrap()),
            (seed.clone(), oversubscribed_inputs())
                .prop_map(|(s, (p, o, n))| Draw::oversubscribed(s, &p, &o, n).unwrap()),
            (seed, occupied_seats(), any::<bool>()).prop_map(|(s, seats, macaca)| {
                let b = if macaca {
                    SpecialButton::Macaca
                } else {
                    SpecialButton::Cucurucho
                };
                Draw::special_button(s, b, &seats).unwrap()
            }),
        ]
    }

    proptest! {
        /// PT-2007 11: a seat draw is a bijection from the players onto distinct given seats;
        /// the seats nobody drew are exactly the rest.
        #[test]
        fn pt_2007_11_seat_draw_is_a_bijection_onto_given_seats(seed: u64, (players, free) in players_and_seats()) {
            let d = seat_draw(DrawSeed(seed), &players, &free).unwrap();
            prop_assert_eq!(d.extra, None);
            prop_assert_eq!(d.seats.len(), players.len());
            let who: BTreeSet<PlayerId> = d.seats.iter().map(|a| a.player).collect();
            prop_assert_eq!(who, players.iter().copied().collect::<BTreeSet<_>>());
            let drawn: BTreeSet<i32> = d.seats.iter().map(|a| a.seat).collect();
            prop_assert_eq!(drawn.len(), players.len());
            prop_assert!(drawn.iter().all(|s| free.contains(s)));
            let mut all: Vec<i32> = drawn.into_iter().chain(d.free.iter().copied()).collect();
            all.sort_unstable();
            let mut expected = free.clone();
            expected.sort_unstable();
            prop_assert_eq!(all, expected);
        }

        /// BSOP 50: with one player over the seats, exactly one is extra and the others fill
        /// every seat.
        #[test]
        fn bsop_50_extra_draw_fills_every_seat_and_marks_one_extra(seed: u64, n in 0i32..=10) {
            let players: Vec<PlayerId> = (0..=n as i64).map(PlayerId).collect();
            let d = seat_draw_with_extra(DrawSeed(seed), &players, &seats(n)).unwrap();
            let extra = d.extra.unwrap();
            prop_assert!(players.contains(&extra));
            prop_assert_eq!(d.seats.len(), n as usize);
            prop_assert!(d.free.is_empty());
            prop_assert!(d.seats.iter().all(|a| a.player != extra));
            let drawn: BTreeSet<i32> = d.seats.iter().map(|a| a.seat).collect();
            prop_assert_eq!(drawn, seats(n).into_iter().collect::<BTreeSet<_>>());
        }

        /// BSOP 48, 79: a high-card draw orders a permutation of the players, with strictly
        /// decreasing cards, each player keeping the card dealt to their position.
        #[test]
        fn bsop_48_high_card_is_a_permutation_with_strictly_decreasing_cards(
            seed: u64, players in prop::collection::btree_set(any::<i64>(), 0..=52)
        ) {
            let players: Vec<PlayerId> = players.into_iter().map(PlayerId).collect();
            let d = high_card(DrawSeed(seed), &players).unwrap();
            prop_assert_eq!(d.dealt.iter().map(|x| x.player).collect::<Vec<_>>(), players.clone());
            let mut order = d.order.clone();
            order.sort_unstable();
            let mut sorted = players.clone();
            sorted.sort_unstable();
            prop_assert_eq!(order, sorted);
            let cards: Vec<Card> = d.order.iter().map(|&p| d.card_of(p).unwrap()).collect();
            prop_assert!(cards.windows(2).all(|w| w[0] > w[1]));
            if let Some(w) = d.winner() {
                prop_assert_eq!(Some(d.card_of(w).unwrap()), d.dealt.iter().map(|x| x.card).max());
            }
        }

        /// PT-2007 25: a suit draw never overfills a table, puts every player at exactly one
        /// table and one seat of it, and spreads players evenly (a table with two fewer
        /// players than another is full).
        #[test]
        fn pt_2007_25_suit_draw_never_overfills_and_places_everyone_once(
            seed: u64, (players, tables) in players_and_tables()
        ) {
            let d = suit_draw(DrawSeed(seed), &players, &tables).unwrap();
            prop_assert_eq!(d.tables.len(), tables.len());
            let mut everyone = Vec::new();
            for (t, given) in d.tables.iter().zip(&tables) {
                prop_assert_eq!(t.table, given.table);
                prop_assert!(t.seating.seats.len() <= given.seats.len());
                prop_assert!(t.seating.seats.iter().all(|a| given.seats.contains(&a.seat)));
                prop_assert_eq!(t.seating.extra, None);
                for a in &t.seating.seats {
                    prop_assert_eq!(d.cards.iter().find(|x| x.player == a.player).unwrap().card.suit, t.suit);
                }
                everyone.extend(t.seating.seats.iter().map(|a| a.player));
            }
            everyone.sort_unstable();
            let mut expected = players.clone();
            expected.sort_unstable();
            prop_assert_eq!(everyone, expected);
            for a in &d.tables {
                for b in &d.tables {
                    let cap = tables.iter().find(|t| t.table == a.table).unwrap().seats.len();
                    if b.seating.seats.len() > a.seating.seats.len() + 1 {
                        prop_assert_eq!(a.seating.seats.len(), cap);
                    }
                }
            }
        }

        /// PT-2007 27: when the previous session's players fit, they are all seated; when
        /// they do not, only they are seated; nobody is lost or duplicated.
        #[test]
        fn pt_2007_27_previous_session_always_seated_when_they_fit(
            seed: u64, (prev, others, seats) in oversubscribed_inputs()
        ) {
            let d = oversubscribed_draw(DrawSeed(seed), &prev, &others, seats).unwrap();
            prop_assert_eq!(d.seated.len(), seats.min(prev.len() + others.len()));
            if prev.len() <= seats {
                prop_assert!(prev.iter().all(|p| d.seated.contains(p)));
            } else {
                prop_assert!(d.seated.iter().all(|p| prev.contains(p)));
            }
            let mut all: Vec<PlayerId> = d.seated.iter().chain(&d.waiting).copied().collect();
            all.sort_unstable();
            let mut expected: Vec<PlayerId> = prev.iter().chain(&others).copied().collect();
            expected.sort_unstable();
            prop_assert_eq!(all, expected);
        }

        /// BSOP 115, 116: the special button starts on one of the seats given, the seat of
        /// the player with the highest card; every seat's player gets one card.
        #[test]
        fn bsop_115_116_a_special_button_starts_on_the_highest_cards_seat(
            seed: u64, seats in occupied_seats()
        ) {
            let d = special_button_draw(DrawSeed(seed), &seats).unwrap();
            prop_assert_eq!(d.dealt.len(), seats.len());
            let winner = d.order[0];
            let top = d.dealt.iter().map(|x| x.card).max().unwrap();
            prop_assert_eq!(d.dealt.iter().find(|x| x.player == winner).unwrap().card, top);
            let at = seats.iter().find(|a| a.player == winner).unwrap().seat;
            prop_assert_eq!(d.seat, at);
        }

        /// Any recorded draw replays to itself, also after a JSON round trip.
        #[test]
        fn replay_reproduces_every_draw(d in any_draw()) {
            prop_assert_eq!(d.replay().unwrap(), d.clone());
            prop_assert!(d.verify());
            let back: Draw = serde_json::from_str(&serde_json::to_string(&d).unwrap()).unwrap();
            prop_assert_eq!(back, d);
        }

        /// Changing any stored result makes verification fail.
        #[test]
        fn verify_fails_when_the_result_is_tampered_with(d in any_draw(), salt in 1i64..1000) {
            let mut t = d.clone();
            match &mut t {
                Draw::HighCard { result, .. } => match result.dealt.first_mut() {
                    Some(x) => x.player = PlayerId(x.player.get().wrapping_add(salt)),
                    None => result.order.push(PlayerId(salt)),
                },
                Draw::Seat { result, .. } | Draw::SeatWithExtra { result, .. } => match result.seats.first_mut() {
                    Some(a) => a.seat += 100,
                    None => result.free.push(-salt as i32),
                },
                Draw::Suit { result, .. } => match result.tables.first_mut() {
                    Some(x) => x.sub_seed = DrawSeed(x.sub_seed.0 ^ salt as u64),
                    None => result.cards.push(DealtCard { player: PlayerId(salt), card: Card::ACE_OF_SPADES }),
                },
                Draw::Oversubscribed { result, .. } => result.waiting.push(PlayerId(-salt)),
                Draw::SpecialButton { result, .. } => result.seat += salt as i32,
            }
            prop_assert!(d.verify());
            prop_assert!(!t.verify());
        }
    }
}
