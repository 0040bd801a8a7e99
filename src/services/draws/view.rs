//! A stored draw made readable: each participant's card and outcome, and the replay.

use super::stored::{replay, Replay};
use crate::db::models::DrawRow;
use crate::db::schema::{card_tables, draws, seatings};
use crate::db::DbConn;
use crate::domain::draw::{Draw, DrawKind, DrawSeed, HighCardPurpose};
use crate::domain::ids::PlayerId;
use crate::error::AppResult;
use diesel::prelude::*;
use serde::Serialize;

/// A card as people read it: rank (`10`, not `T`) and suit symbol; hearts and diamonds are
/// red (shown with a CSS class: the CSP forbids inline styles).
#[derive(Debug, Clone, Serialize)]
pub struct CardFace {
    pub rank: String,
    pub symbol: char,
    pub red: bool,
    /// The stored code (`Th`), kept beside the face so the page and the JSON can be compared.
    pub code: String,
    /// The suit's code (`s`, `h`, `d`, `c`), for the suit's name in the catalog.
    pub suit: char,
}

impl CardFace {
    pub fn of(card: crate::domain::cards::Card) -> CardFace {
        use crate::domain::cards::{Rank, Suit};
        let rank = match card.rank {
            Rank::Ten => "10".to_string(),
            r => r.code().to_string(),
        };
        CardFace {
            rank,
            symbol: card.suit.symbol(),
            red: matches!(card.suit, Suit::Hearts | Suit::Diamonds),
            code: card.code(),
            suit: card.suit.code(),
        }
    }

    /// The CSS class of the card's colour.
    pub fn class(&self) -> &'static str {
        if self.red {
            "card-face suit-red"
        } else {
            "card-face suit-black"
        }
    }
}

/// One player in a draw, with what the draw gave them.
#[derive(Debug, Clone, Serialize)]
pub struct DrawParticipant {
    pub player_id: PlayerId,
    pub name: String,
    pub alias: String,
    /// 1-based place in the order the inputs list the players (the order cards were dealt).
    pub dealt: usize,
    /// The seat the player sat in when the draw was made (high-card draws at a table).
    pub seat_then: Option<i32>,
    pub card: Option<CardFace>,
    /// 1-based place in the resulting order (high card: by card; oversubscribed: as drawn).
    pub place: Option<usize>,
    /// Suit draw: the table number the card's suit sent the player to.
    pub table_no: Option<i32>,
    /// The seat the draw gave (seat and suit draws).
    pub seat: Option<i32>,
    /// BSOP 50: the player drew the temporary extra place.
    pub extra: bool,
    /// PT-2007 27: plays (`Some(true)`) or stays on the list (`Some(false)`).
    pub plays: Option<bool>,
    /// PT-2007 27: played in the previous session (drawn first).
    pub previous: bool,
    /// The player the draw singles out (the button, the first in the order).
    pub winner: bool,
}

impl DrawParticipant {
    /// "Name “alias”" or the name alone when the alias says nothing more.
    pub fn label(&self) -> String {
        if self.alias.is_empty() || self.alias == self.name {
            self.name.clone()
        } else {
            format!("{} “{}”", self.name, self.alias)
        }
    }
}

/// A table a suit draw filled.
#[derive(Debug, Clone, Serialize)]
pub struct DrawSuitTable {
    pub table_no: i32,
    pub symbol: char,
    pub red: bool,
    pub players: usize,
}

/// A stored draw made readable: who, when, where, each participant's card and outcome, the
/// seed, and the server-side replay (recomputed with the same domain code).
#[derive(Debug, Clone, Serialize)]
pub struct DrawView {
    pub draw: DrawRow,
    /// Replaying the seed and inputs gives exactly the stored result.
    pub matches: bool,
    /// Why not, when the record cannot even be read or replayed (a catalog key).
    pub replay_problem: Option<String>,
    pub kind: DrawKind,
    /// High-card draws: what the draw decided (`button`, `move`, …).
    pub purpose: Option<HighCardPurpose>,
    pub seed: String,
    pub by: Option<String>,
    pub game: Option<String>,
    pub table_no: Option<i32>,
    /// Sorted by the result: the order, the seats, the tables.
    pub participants: Vec<DrawParticipant>,
    /// BSOP 48: the seat that got the button.
    pub button_seat: Option<i32>,
    /// BSOP 115, 116: the special button drawn (`cucurucho`, `macaca`) and the seat it starts
    /// on.
    pub special: Option<String>,
    pub special_seat: Option<i32>,
    /// Seat draws: the seats nobody drew.
    pub free: Vec<i32>,
    pub suit_tables: Vec<DrawSuitTable>,
    /// The other draws recorded for the same table (or game, for a suit draw), newest first.
    pub related: Vec<(i64, String, chrono::NaiveDateTime)>,
    /// When the replay does not match: who drew what in the replay, sorted like `participants`.
    pub replayed: Option<Vec<DrawParticipant>>,
}

impl DrawView {
    pub fn winner(&self) -> Option<&DrawParticipant> {
        self.participants.iter().find(|p| p.winner)
    }

    pub fn extra(&self) -> Option<&DrawParticipant> {
        self.participants.iter().find(|p| p.extra)
    }

    /// BSOP 115, 116: the catalog keys saying where the special button starts ({ $seat }):
    /// the headline, and the winner's line.
    pub fn special_outcome_key(&self) -> &'static str {
        match self.special.as_deref() {
            Some("macaca") => "draw-special-outcome-macaca",
            _ => "draw-special-outcome-cucurucho",
        }
    }
    pub fn special_gets_key(&self) -> &'static str {
        match self.special.as_deref() {
            Some("macaca") => "draw-gets-macaca",
            _ => "draw-gets-cucurucho",
        }
    }

    /// A draw whose participants are ranked by a card (the place column and the cards).
    pub fn by_card(&self) -> bool {
        matches!(self.kind, DrawKind::HighCard | DrawKind::SpecialButton)
    }

    pub fn playing(&self) -> usize {
        self.participants
            .iter()
            .filter(|p| p.plays == Some(true))
            .count()
    }

    pub fn staying(&self) -> usize {
        self.participants
            .iter()
            .filter(|p| p.plays == Some(false))
            .count()
    }

    /// Seat and suit draws: how many were given a seat.
    pub fn seated(&self) -> usize {
        self.participants
            .iter()
            .filter(|p| p.seat.is_some() || p.extra)
            .count()
    }

    /// The free seats as text ("3, 7").
    pub fn free_list(&self) -> String {
        let v: Vec<String> = self.free.iter().map(|s| s.to_string()).collect();
        v.join(", ")
    }
}

/// The stored draw as a person reads it; the replay is computed here, with the domain code.
pub fn view(conn: &mut DbConn, id: i64) -> AppResult<DrawView> {
    use crate::db::schema::{games, staff};
    let Replay { draw: row, matches } = replay(conn, id)?;
    let stored: Result<Draw, _> = serde_json::from_str::<Draw>(&row.inputs);
    let replay_problem = match &stored {
        Err(_) => Some("draw-unreadable".to_string()),
        Ok(d) => d.replay().err().map(|e| e.key().to_string()),
    };
    let table_no = match row.table_id {
        Some(t) => card_tables::table
            .find(t)
            .select(card_tables::number)
            .first::<i32>(conn)
            .optional()?,
        None => None,
    };
    let game = match row.game_id {
        Some(g) => games::table
            .find(g)
            .select(games::name)
            .first::<String>(conn)
            .optional()?,
        None => None,
    };
    let by = match row.created_by {
        Some(s) => staff::table
            .find(s)
            .select(staff::display_name)
            .first::<String>(conn)
            .optional()?,
        None => None,
    };
    let mut v = DrawView {
        matches,
        replay_problem,
        kind: row.kind,
        purpose: None,
        seed: DrawSeed::from_i64(row.seed).to_string(),
        by,
        game,
        table_no,
        participants: Vec::new(),
        button_seat: None,
        special: None,
        special_seat: None,
        free: Vec::new(),
        suit_tables: Vec::new(),
        related: Vec::new(),
        replayed: None,
        draw: row,
    };
    if let Ok(d) = &stored {
        fill_outcome(conn, &mut v, d)?;
        // A mismatch shows what the replay gives beside what was stored.
        if !v.matches {
            if let Ok(again) = d.replay() {
                let mut r = v.clone();
                fill_outcome(conn, &mut r, &again)?;
                v.replayed = Some(r.participants);
            }
        }
    }
    // The table's (or, for a suit draw, the game's) other draws, to follow one from another.
    let mut q = draws::table
        .filter(draws::id.ne(id))
        .select((draws::id, draws::kind, draws::created_at))
        .order(draws::id.desc())
        .limit(20)
        .into_boxed();
    q = match (v.draw.table_id, v.draw.game_id) {
        (Some(t), _) => q.filter(draws::table_id.eq(t)),
        (None, Some(g)) => q.filter(draws::game_id.eq(g)),
        (None, None) => q.filter(draws::id.eq(-1)),
    };
    v.related = q.load(conn)?;
    Ok(v)
}

/// Who drew what in `d` (the stored draw, or its replay) and the outcome, into `v`.
fn fill_outcome(conn: &mut DbConn, v: &mut DrawView, d: &Draw) -> AppResult<()> {
    v.free.clear();
    v.suit_tables.clear();
    let ids = players_mentioned(d);
    let mut people = participants(conn, &ids)?;
    match &d {
        Draw::HighCard { inputs, result, .. } => {
            high_card_outcome(conn, v, &ids, inputs, result, &mut people)?
        }
        Draw::Seat { result, .. } | Draw::SeatWithExtra { result, .. } => {
            for p in &mut people {
                p.seat = result.seat_of(p.player_id);
                p.extra = result.extra == Some(p.player_id);
            }
            v.free = result.free.clone();
            people.sort_by_key(|p| (p.extra, p.seat));
        }
        Draw::Suit { result, .. } => suit_outcome(conn, v, result, &mut people)?,
        Draw::Oversubscribed { inputs, result, .. } => {
            for p in &mut people {
                p.previous = inputs.previous_session.contains(&p.player_id);
                if let Some(i) = result.seated.iter().position(|&x| x == p.player_id) {
                    p.plays = Some(true);
                    p.place = Some(i + 1);
                } else if let Some(i) = result.waiting.iter().position(|&x| x == p.player_id) {
                    p.plays = Some(false);
                    p.place = Some(result.seated.len() + i + 1);
                }
            }
            people.sort_by_key(|p| p.place.unwrap_or(usize::MAX));
        }
        Draw::SpecialButton { inputs, result, .. } => {
            // BSOP 115, 116: a card to each seat's player; the highest card's seat gets it.
            v.special = Some(inputs.button.to_string());
            v.special_seat = Some(result.seat);
            for p in &mut people {
                p.seat_then = inputs
                    .seats
                    .iter()
                    .find(|a| a.player == p.player_id)
                    .map(|a| a.seat);
                p.card = card_of(&result.dealt, p.player_id);
                p.place = result
                    .order
                    .iter()
                    .position(|&x| x == p.player_id)
                    .map(|i| i + 1);
                p.winner = p.place == Some(1);
            }
            people.sort_by_key(|p| p.place.unwrap_or(usize::MAX));
        }
    }
    v.participants = people;
    Ok(())
}

/// Every player the record mentions (the inputs list them all), in the order dealt.
fn players_mentioned(d: &Draw) -> Vec<PlayerId> {
    match d {
        Draw::HighCard { inputs, .. } => inputs.players.clone(),
        Draw::Seat { inputs, .. } | Draw::SeatWithExtra { inputs, .. } => inputs.players.clone(),
        Draw::Suit { inputs, .. } => inputs.players.clone(),
        Draw::Oversubscribed { inputs, .. } => inputs
            .previous_session
            .iter()
            .chain(&inputs.others)
            .copied()
            .collect(),
        Draw::SpecialButton { inputs, .. } => inputs.seats.iter().map(|a| a.player).collect(),
    }
}

/// A participant for each player, with their name and alias (`#id` when no longer known)
/// and the order they were dealt to; the outcome is filled in by the draw's kind.
fn participants(conn: &mut DbConn, ids: &[PlayerId]) -> AppResult<Vec<DrawParticipant>> {
    use crate::db::schema::players;
    let names: Vec<(PlayerId, String, String)> = players::table
        .filter(players::id.eq_any(ids))
        .select((players::id, players::full_name, players::alias))
        .load(conn)?;
    let person = |i: usize, p: i64| {
        let (name, alias) = names
            .iter()
            .find(|(id, _, _)| *id == PlayerId(p))
            .map(|(_, n, a)| (n.clone(), a.clone()))
            .unwrap_or_else(|| (format!("#{p}"), String::new()));
        DrawParticipant {
            player_id: PlayerId(p),
            name,
            alias,
            dealt: i + 1,
            seat_then: None,
            card: None,
            place: None,
            table_no: None,
            seat: None,
            extra: false,
            plays: None,
            previous: false,
            winner: false,
        }
    };
    Ok(ids
        .iter()
        .enumerate()
        .map(|(i, &p)| person(i, p.get()))
        .collect())
}

/// The card dealt to a player, as people read it.
fn card_of(cards: &[crate::domain::draw::DealtCard], p: PlayerId) -> Option<CardFace> {
    cards
        .iter()
        .find(|c| c.player == p)
        .map(|c| CardFace::of(c.card))
}

/// A high-card draw: each player's card and place, where they sat when the cards were
/// dealt, and for a button draw the winner's seat.
fn high_card_outcome(
    conn: &mut DbConn,
    v: &mut DrawView,
    ids: &[PlayerId],
    inputs: &crate::domain::draw::HighCardInputs,
    result: &crate::domain::draw::HighCardDraw,
    people: &mut [DrawParticipant],
) -> AppResult<()> {
    v.purpose = Some(inputs.purpose);
    // Where each player sat when the cards were dealt (BSOP 79: dealt clockwise).
    if let Some(t) = v.draw.table_id {
        let at = v.draw.created_at;
        let sat: Vec<(PlayerId, i32)> = seatings::table
            .filter(seatings::table_id.eq(t))
            .filter(seatings::player_id.eq_any(ids))
            .filter(seatings::sat_at.le(at))
            .filter(seatings::left_at.is_null().or(seatings::left_at.gt(at)))
            .select((seatings::player_id, seatings::seat_no))
            .load(conn)?;
        for p in people.iter_mut() {
            p.seat_then = sat.iter().find(|(x, _)| *x == p.player_id).map(|s| s.1);
        }
    }
    for p in people.iter_mut() {
        p.card = card_of(&result.dealt, p.player_id);
        p.place = result
            .order
            .iter()
            .position(|&x| x == p.player_id)
            .map(|i| i + 1);
        p.winner = p.place == Some(1);
    }
    if inputs.purpose == HighCardPurpose::Button {
        v.button_seat = people.iter().find(|p| p.winner).and_then(|p| p.seat_then);
    }
    people.sort_by_key(|p| p.place.unwrap_or(usize::MAX));
    Ok(())
}

/// A suit draw: each table's suit and number, and each player's card, table and seat.
fn suit_outcome(
    conn: &mut DbConn,
    v: &mut DrawView,
    result: &crate::domain::draw::SuitDraw,
    people: &mut [DrawParticipant],
) -> AppResult<()> {
    let mut numbers = Vec::new();
    for t in &result.tables {
        let n = card_tables::table
            .find(t.table)
            .select(card_tables::number)
            .first::<i32>(conn)
            .optional()?
            .unwrap_or(0);
        numbers.push((t.table, n));
        let face = CardFace::of(crate::domain::cards::Card::new(
            crate::domain::cards::Rank::Ace,
            t.suit,
        ));
        v.suit_tables.push(DrawSuitTable {
            table_no: n,
            symbol: face.symbol,
            red: face.red,
            players: t.seating.seats.len(),
        });
    }
    for p in people.iter_mut() {
        p.card = card_of(&result.cards, p.player_id);
        if let Some((t, s)) = result.seat_of(p.player_id) {
            p.table_no = numbers.iter().find(|(id, _)| *id == t).map(|x| x.1);
            p.seat = Some(s);
        }
    }
    people.sort_by_key(|p| (p.table_no, p.seat));
    Ok(())
}
