//! Recorded draws: the start-of-game seat draw (PT-2007 11) and the button (BSOP 48). Each
//! draw is stored with its seed, inputs and result, and can be replayed to settle a dispute.

use crate::db::audit::{self};
use crate::db::models::{DrawRow, SeatingRow};
use crate::db::schema::{card_tables, draws, seatings};
use crate::db::{next_seq, DbConn};
use crate::domain::draw::{Draw, DrawKind, DrawSeed, HighCardPurpose};
use crate::domain::refusal::{CallRefusal, DrawRefusal, TableRefusal};
use crate::domain::states::EntryState;
use crate::domain::table::TableState;
use crate::error::{AppError, AppResult};
use crate::services::Act;
use crate::services::{floor, players as registry};
use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use diesel::prelude::*;
use serde::Serialize;

fn draw_error(e: crate::domain::draw::DrawError) -> AppError {
    AppError::Conflict(e.problem())
}

/// Stores a draw (kind, seed, the whole record as inputs, the result) and audits it.
pub fn record(
    conn: &mut DbConn,
    act: &Act,
    d: &Draw,
    game_id: Option<i64>,
    table_id: Option<i64>,
) -> AppResult<DrawRow> {
    let (now, actor) = (act.now, &act.actor);
    let full = serde_json::to_value(d).map_err(|e| AppError::internal_from("a draw as JSON", e))?;
    let row = DrawRow {
        id: next_seq(conn, "draw")?,
        kind: d.kind(),
        seed: d.seed().to_i64(),
        inputs: full.to_string(),
        result: full
            .get("result")
            .map(|r| r.to_string())
            .unwrap_or_default(),
        game_id,
        table_id,
        created_at: now.naive_utc(),
        created_by: actor.id,
    };
    diesel::insert_into(draws::table)
        .values(&row)
        .execute(conn)?;
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "draw.record",
        "table",
        table_id,
        None,
        Some(&row),
    )?;
    Ok(row)
}

pub fn get(conn: &mut DbConn, id: i64) -> AppResult<DrawRow> {
    Ok(draws::table
        .find(id)
        .select(DrawRow::as_select())
        .first(conn)?)
}

/// The PT-2007 27 draw of who plays made in the same write as draw `id` (at the same table
/// and instant, just before it), if any.
pub fn who_played_before(conn: &mut DbConn, id: i64) -> AppResult<Option<i64>> {
    let row = get(conn, id)?;
    Ok(draws::table
        .filter(draws::id.lt(id))
        .filter(draws::kind.eq(crate::domain::draw::DrawKind::Oversubscribed))
        .filter(draws::created_at.eq(row.created_at))
        .filter(draws::table_id.eq(row.table_id))
        .select(draws::id)
        .order(draws::id.desc())
        .first::<i64>(conn)
        .optional()?)
}

/// A stored draw replayed: whether the recomputation gives the stored result.
#[derive(Debug, Clone, Serialize)]
pub struct Replay {
    pub draw: DrawRow,
    pub matches: bool,
}

/// Replays a stored draw from its seed and inputs and compares with the stored result.
pub fn replay(conn: &mut DbConn, id: i64) -> AppResult<Replay> {
    let row = get(conn, id)?;
    let stored: Option<Draw> = serde_json::from_str(&row.inputs).ok();
    let matches = stored.is_some_and(|d| {
        let result_same = serde_json::to_value(&d)
            .ok()
            .and_then(|v| v.get("result").map(|r| r.to_string()))
            == Some(row.result.clone());
        d.verify() && result_same && d.seed().to_i64() == row.seed
    });
    Ok(Replay { draw: row, matches })
}

/// The outcome of a start-of-game draw.
#[derive(Debug, Clone, Serialize)]
pub struct StartDraw {
    pub draw: DrawRow,
    pub seated: Vec<SeatingRow>,
}

/// PT-2007 11: opening a game, the seats are drawn among the registered players: the first
/// players on the game's list who may sit together (eligible, not seated elsewhere — BSOP 46
/// — and not kept apart from one another — BSOP 47), as many as the table has free seats;
/// when more are registered and no other table of the game can be opened, who plays is
/// drawn first (PT-2007 27). Each draw is recorded, then each player is seated through the
/// usual checks.
pub fn start_game(conn: &mut DbConn, act: &Act, table_id: i64) -> AppResult<StartDraw> {
    start_game_with(conn, act, table_id, false)
}

/// BSOP 50: like [`start_game`], with one extra player when more are waiting than seats: the
/// extra place is drawn with the others and becomes the temporary seat `seats + 1`, removed
/// as soon as someone leaves.
pub fn start_game_with_extra(conn: &mut DbConn, act: &Act, table_id: i64) -> AppResult<StartDraw> {
    start_game_with(conn, act, table_id, true)
}

fn start_game_with(
    conn: &mut DbConn,
    act: &Act,
    table_id: i64,
    extra: bool,
) -> AppResult<StartDraw> {
    let (now, tz, profile, actor) = (act.now, act.tz(), act.profile(), &act.actor);
    let t = crate::services::games::get_table(conn, table_id)?;
    let game_id = t.game_id.ok_or(TableRefusal::NoGame)?;
    if t.state != TableState::Open {
        return Err(DrawRefusal::TableNotOpen.into());
    }
    let seated = floor::seated_at(conn, table_id)?;
    let here: Vec<i64> = seated.iter().map(|s| s.player_id).collect();
    // Seats already taken, held (BSOP 45, 49) or reserved by an open call are not drawn.
    let (_, open_calls) = floor::seats_of(conn, table_id)?;
    let held: Vec<i32> = floor::holds_at(conn, table_id)?
        .iter()
        .map(|(h, _)| h.seat_no)
        .collect();
    let free: Vec<i32> = (1..=t.seats)
        .filter(|n| {
            !seated.iter().any(|s| s.seat_no == *n)
                && !held.contains(n)
                && !open_calls.iter().any(|(c, _)| c.seat_no == *n)
        })
        .collect();
    if free.is_empty() {
        return Err(CallRefusal::NobodyToCall.into());
    }
    let candidates = first_players_who_may_sit(conn, now, tz, game_id, usize::MAX, &here)?;
    let another_table_can_open = crate::services::games::list_tables(conn)?
        .iter()
        .any(|(o, _)| {
            o.id != table_id
                && o.active
                && o.game_id == Some(game_id)
                && o.state == TableState::Closed
        });
    let with_extra = extra && candidates.len() > free.len() && !t.extra_seat;
    let places = free.len() + usize::from(with_extra);
    let chosen = if candidates.len() > places && !another_table_can_open {
        // PT-2007 27: more registered players than seats and no table to open: who plays is
        // drawn, with priority to the previous session's players (those who sat at this
        // table within the last session length).
        let since = now - chrono::Duration::minutes(profile.session_length_min as i64);
        let previous: Vec<i64> = seatings::table
            .filter(seatings::table_id.eq(table_id))
            .filter(seatings::left_at.ge(since.naive_utc()))
            .select(seatings::player_id)
            .load(conn)?;
        let (prev, others): (Vec<i64>, Vec<i64>) =
            candidates.iter().partition(|p| previous.contains(p));
        let od =
            Draw::oversubscribed(DrawSeed::random(), &prev, &others, places).map_err(draw_error)?;
        record(conn, act, &od, Some(game_id), Some(table_id))?;
        match od {
            Draw::Oversubscribed { result, .. } => result.seated,
            _ => return Err(AppError::internal("oversubscribed draw kind")),
        }
    } else {
        candidates.into_iter().take(places).collect()
    };
    let d = if with_extra && chosen.len() > free.len() {
        Draw::seat_with_extra(DrawSeed::random(), &chosen, &free).map_err(draw_error)?
    } else {
        Draw::seat(DrawSeed::random(), &chosen, &free).map_err(draw_error)?
    };
    let row = record(conn, act, &d, Some(game_id), Some(table_id))?;
    let result = match &d {
        Draw::Seat { result, .. } | Draw::SeatWithExtra { result, .. } => result.clone(),
        _ => return Err(AppError::internal("seat draw kind")),
    };
    let mut seated = Vec::new();
    for a in &result.seats {
        seated.push(floor::seat_directly(conn, act, table_id, a.seat, a.player)?);
    }
    if let Some(x) = result.extra {
        // BSOP 50: the extra player takes the temporary seat after the last one.
        diesel::update(card_tables::table.find(table_id))
            .set(card_tables::extra_seat.eq(true))
            .execute(conn)?;
        let after = crate::services::games::get_table(conn, table_id)?;
        audit::record(
            conn,
            now,
            actor,
            "table.extra_seat",
            "table",
            Some(table_id),
            Some(&t),
            Some(&after),
        )?;
        seated.push(floor::seat_directly(conn, act, table_id, t.seats + 1, x)?);
    }
    Ok(StartDraw { draw: row, seated })
}

/// PT-2007 25: when the registered players fill more than one table, a draw by suits gives
/// each player a table (one suit per table, BSOP 78 order) and then a seat there. Every open
/// table of the game that has nobody seated yet takes part (at most four); the players are
/// the first on the list who may sit together, as many as there are seats.
pub fn start_tables_by_suit(conn: &mut DbConn, act: &Act, game_id: i64) -> AppResult<StartDraw> {
    let (now, tz) = (act.now, act.tz());
    use crate::domain::draw::TableSeats;
    let tables: Vec<crate::db::models::TableRow> = crate::services::games::list_tables(conn)?
        .into_iter()
        .map(|(t, _)| t)
        .filter(|t| t.game_id == Some(game_id) && t.state == TableState::Open)
        .collect();
    let mut empty = Vec::new();
    for t in tables {
        if floor::seated_at(conn, t.id)?.is_empty() {
            empty.push(t);
        }
    }
    if empty.len() < 2 {
        return Err(DrawRefusal::SuitNeedsTables.into());
    }
    let capacity: usize = empty.iter().map(|t| t.seats as usize).sum();
    let chosen = first_players_who_may_sit(conn, now, tz, game_id, capacity, &[])?;
    // Only as many tables as the players fill: a draw by suits is for more than one table.
    let seats: Vec<TableSeats> = empty
        .iter()
        .map(|t| TableSeats {
            table: t.id,
            seats: (1..=t.seats).collect(),
        })
        .collect();
    let d = Draw::suit(DrawSeed::random(), &chosen, &seats).map_err(draw_error)?;
    let row = record(conn, act, &d, Some(game_id), None)?;
    let Draw::Suit { result, .. } = &d else {
        return Err(AppError::internal("suit draw kind"));
    };
    let mut seated = Vec::new();
    for t in &result.tables {
        for a in &t.seating.seats {
            seated.push(floor::seat_directly(conn, act, t.table, a.seat, a.player)?);
        }
    }
    Ok(StartDraw { draw: row, seated })
}

/// The first players on a game's list who may sit together now: eligible, not seated
/// anywhere (BSOP 46) and not kept apart from one another (BSOP 47); at most `n`.
fn first_players_who_may_sit(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    tz: Tz,
    game_id: i64,
    n: usize,
    seated_here: &[i64],
) -> AppResult<Vec<i64>> {
    let mut chosen: Vec<i64> = Vec::new();
    // BSOP 47: nobody kept apart from a player already at the table.
    let mut apart: Vec<i64> = Vec::new();
    for p in seated_here {
        apart.extend(
            registry::separations_of(conn, *p)?
                .into_iter()
                .map(|(_, other)| other.id),
        );
    }
    for line in floor::list(conn, None, game_id, now)? {
        if chosen.len() == n {
            break;
        }
        let p = &line.player;
        if line.entry.state != EntryState::Waiting
            || apart.contains(&p.id)
            || !registry::eligibility(conn, p, now, tz)?.is_empty()
        {
            continue;
        }
        if floor::seated_at_any(conn, p.id)? {
            continue;
        }
        chosen.push(p.id);
        apart.extend(
            registry::separations_of(conn, p.id)?
                .into_iter()
                .map(|(_, other)| other.id),
        );
    }
    if chosen.is_empty() {
        return Err(CallRefusal::NobodyToCall.into());
    }
    Ok(chosen)
}

/// BSOP 48, 79: a high card per seated player (dealt clockwise from seat 1) decides the
/// button; the winner's seat gets it, at a table in play (open, running or suspended).
/// Recorded like every draw.
pub fn button(conn: &mut DbConn, act: &Act, table_id: i64) -> AppResult<(DrawRow, i32)> {
    let now = act.now;
    let t = crate::services::games::get_table(conn, table_id)?;
    if !t.state.in_play() {
        return Err(DrawRefusal::TableNotInPlay.into());
    }
    let seated = floor::seated_at(conn, table_id)?;
    if seated.len() < 2 {
        return Err(DrawRefusal::ButtonNeedsPlayers.into());
    }
    let players: Vec<i64> = seated.iter().map(|s| s.player_id).collect();
    let d = Draw::high_card(DrawSeed::random(), HighCardPurpose::Button, &players)
        .map_err(draw_error)?;
    let Draw::HighCard { result, .. } = &d else {
        return Err(AppError::internal("high card kind"));
    };
    let winner = result
        .winner()
        .ok_or_else(|| AppError::internal("empty draw"))?;
    let seat = seated
        .iter()
        .find(|s| s.player_id == winner)
        .map(|s| s.seat_no)
        .unwrap_or(1);
    let row = record(conn, act, &d, t.game_id, Some(table_id))?;
    diesel::update(card_tables::table.find(table_id))
        .set(card_tables::button_seat.eq(Some(seat)))
        .execute(conn)?;
    floor::emit(
        conn,
        now,
        Some(table_id),
        "table.button",
        &serde_json::json!({ "table": t.number, "seat": seat, "draw_id": row.id }),
    )?;
    Ok((row, seat))
}

// ---------------------------------------------------------------------------------------------
// Reading a draw: the record as a person settles a dispute with it
// ---------------------------------------------------------------------------------------------

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
    pub player_id: i64,
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
    pub purpose: Option<String>,
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
    use crate::db::schema::players;
    use crate::domain::draw::DealtCard;
    v.free.clear();
    v.suit_tables.clear();
    // Names for every player the record mentions (the inputs list them all).
    let ids: Vec<i64> = match &d {
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
    };
    let names: Vec<(i64, String, String)> = players::table
        .filter(players::id.eq_any(&ids))
        .select((players::id, players::full_name, players::alias))
        .load(conn)?;
    let person = |i: usize, p: i64| {
        let (name, alias) = names
            .iter()
            .find(|(id, _, _)| *id == p)
            .map(|(_, n, a)| (n.clone(), a.clone()))
            .unwrap_or_else(|| (format!("#{p}"), String::new()));
        DrawParticipant {
            player_id: p,
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
    let mut people: Vec<DrawParticipant> =
        ids.iter().enumerate().map(|(i, &p)| person(i, p)).collect();
    let card_of = |cards: &[DealtCard], p: i64| {
        cards
            .iter()
            .find(|c| c.player == p)
            .map(|c| CardFace::of(c.card))
    };
    match &d {
        Draw::HighCard { inputs, result, .. } => {
            v.purpose = Some(inputs.purpose.to_string());
            // Where each player sat when the cards were dealt (BSOP 79: dealt clockwise).
            if let Some(t) = v.draw.table_id {
                let at = v.draw.created_at;
                let sat: Vec<(i64, i32)> = seatings::table
                    .filter(seatings::table_id.eq(t))
                    .filter(seatings::player_id.eq_any(&ids))
                    .filter(seatings::sat_at.le(at))
                    .filter(seatings::left_at.is_null().or(seatings::left_at.gt(at)))
                    .select((seatings::player_id, seatings::seat_no))
                    .load(conn)?;
                for p in &mut people {
                    p.seat_then = sat.iter().find(|(x, _)| *x == p.player_id).map(|s| s.1);
                }
            }
            for p in &mut people {
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
        }
        Draw::Seat { result, .. } | Draw::SeatWithExtra { result, .. } => {
            for p in &mut people {
                p.seat = result.seat_of(p.player_id);
                p.extra = result.extra == Some(p.player_id);
            }
            v.free = result.free.clone();
            people.sort_by_key(|p| (p.extra, p.seat));
        }
        Draw::Suit { result, .. } => {
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
            for p in &mut people {
                p.card = card_of(&result.cards, p.player_id);
                if let Some((t, s)) = result.seat_of(p.player_id) {
                    p.table_no = numbers.iter().find(|(id, _)| *id == t).map(|x| x.1);
                    p.seat = Some(s);
                }
            }
            people.sort_by_key(|p| (p.table_no, p.seat));
        }
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

/// The draws recorded at a table (a table's own, not its game's suit draws), newest first.
pub fn of_table(conn: &mut DbConn, table_id: i64) -> AppResult<Vec<i64>> {
    crate::services::games::get_table(conn, table_id)?;
    Ok(draws::table
        .filter(draws::table_id.eq(table_id))
        .order(draws::id.desc())
        .select(draws::id)
        .load(conn)?)
}

/// A stored draw and its replay side by side: the result as recorded and the result the
/// domain code computes again now from the recorded kind, seed and inputs alone.
#[derive(Debug, Clone, Serialize)]
pub struct SideBySide {
    pub draw: DrawRow,
    /// The result as stored.
    pub stored: serde_json::Value,
    /// The result recomputed from the seed and inputs (none when the record cannot be read
    /// or its inputs no longer make a draw: `problem` says why).
    pub replayed: Option<serde_json::Value>,
    /// Both results are the same, and the record verifies whole (kind, seed and inputs).
    pub matches: bool,
    /// Why nothing could be replayed (a catalog key).
    pub problem: Option<&'static str>,
}

/// Replays a stored draw and gives both results to compare (see [`replay`]).
pub fn side_by_side(conn: &mut DbConn, id: i64) -> AppResult<SideBySide> {
    let Replay { draw, matches } = replay(conn, id)?;
    let stored = serde_json::from_str(&draw.result).unwrap_or(serde_json::Value::Null);
    let (replayed, problem) = match serde_json::from_str::<Draw>(&draw.inputs) {
        Err(_) => (None, Some("draw-unreadable")),
        Ok(d) => match d.replay() {
            Ok(again) => (
                serde_json::to_value(&again)
                    .ok()
                    .and_then(|v| v.get("result").cloned()),
                None,
            ),
            Err(e) => (None, Some(e.key())),
        },
    };
    Ok(SideBySide {
        draw,
        stored,
        replayed,
        matches,
        problem,
    })
}

/// The newest draw of each table (table id → draw id), for the links from the tables.
pub fn latest_by_table(conn: &mut DbConn) -> AppResult<std::collections::HashMap<i64, i64>> {
    use diesel::dsl::max;
    let rows: Vec<(Option<i64>, Option<i64>)> = draws::table
        .filter(draws::table_id.is_not_null())
        .group_by(draws::table_id)
        .select((draws::table_id, max(draws::id)))
        .load(conn)?;
    let mut latest: std::collections::HashMap<i64, i64> = rows
        .into_iter()
        .filter_map(|(t, d)| Some((t?, d?)))
        .collect();
    // A draw by suits fills several tables and is recorded for the game (no table of its
    // own): its tables are in its inputs. The newest few are enough (a table's newest draw).
    let suits: Vec<(i64, String)> = draws::table
        .filter(draws::kind.eq(crate::domain::draw::DrawKind::Suit))
        .order(draws::id.desc())
        .limit(50)
        .select((draws::id, draws::inputs))
        .load(conn)?;
    for (id, inputs) in suits {
        if let Ok(Draw::Suit { inputs, .. }) = serde_json::from_str::<Draw>(&inputs) {
            for t in inputs.tables {
                let newest = latest.entry(t.table).or_insert(id);
                *newest = (*newest).max(id);
            }
        }
    }
    Ok(latest)
}
