//! Recorded draws: the start-of-game seat draw (PT-2007 11) and the button (BSOP 48). Each
//! draw is stored with its seed, inputs and result, and can be replayed to settle a dispute.

use super::conflict;
use crate::db::audit::{self, Actor};
use crate::db::models::{DrawRow, SeatingRow};
use crate::db::schema::{card_tables, draws, seatings};
use crate::db::{next_seq, DbConn};
use crate::domain::draw::{Draw, DrawSeed, HighCardPurpose};
use crate::domain::profile::RuleProfile;
use crate::error::{AppError, AppResult};
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
    now: DateTime<Utc>,
    actor: &Actor,
    d: &Draw,
    game_id: Option<i64>,
    table_id: Option<i64>,
) -> AppResult<DrawRow> {
    let full = serde_json::to_value(d).map_err(|e| AppError::Internal(e.to_string()))?;
    let row = DrawRow {
        id: next_seq(conn, "draw")?,
        kind: d.kind().to_string(),
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
pub fn start_game(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    tz: Tz,
    profile: &RuleProfile,
    actor: &Actor,
    table_id: i64,
) -> AppResult<StartDraw> {
    start_game_with(conn, now, tz, profile, actor, table_id, false)
}

/// BSOP 50: like [`start_game`], with one extra player when more are waiting than seats: the
/// extra place is drawn with the others and becomes the temporary seat `seats + 1`, removed
/// as soon as someone leaves.
pub fn start_game_with_extra(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    tz: Tz,
    profile: &RuleProfile,
    actor: &Actor,
    table_id: i64,
) -> AppResult<StartDraw> {
    start_game_with(conn, now, tz, profile, actor, table_id, true)
}

fn start_game_with(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    tz: Tz,
    profile: &RuleProfile,
    actor: &Actor,
    table_id: i64,
    extra: bool,
) -> AppResult<StartDraw> {
    let t = crate::services::games::get_table(conn, table_id)?;
    let game_id = t.game_id.ok_or_else(|| conflict("err-table-no-game"))?;
    if t.state != "open" {
        return Err(conflict("err-table-not-open-for-draw"));
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
        return Err(conflict("err-nobody-to-call"));
    }
    let candidates = first_players_who_may_sit(conn, now, tz, game_id, usize::MAX, &here)?;
    let another_table_can_open = crate::services::games::list_tables(conn)?
        .iter()
        .any(|(o, _)| {
            o.id != table_id && o.active && o.game_id == Some(game_id) && o.state == "closed"
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
        record(conn, now, actor, &od, Some(game_id), Some(table_id))?;
        match od {
            Draw::Oversubscribed { result, .. } => result.seated,
            _ => return Err(AppError::Internal("oversubscribed draw kind".into())),
        }
    } else {
        candidates.into_iter().take(places).collect()
    };
    let d = if with_extra && chosen.len() > free.len() {
        Draw::seat_with_extra(DrawSeed::random(), &chosen, &free).map_err(draw_error)?
    } else {
        Draw::seat(DrawSeed::random(), &chosen, &free).map_err(draw_error)?
    };
    let row = record(conn, now, actor, &d, Some(game_id), Some(table_id))?;
    let result = match &d {
        Draw::Seat { result, .. } | Draw::SeatWithExtra { result, .. } => result.clone(),
        _ => return Err(AppError::Internal("seat draw kind".into())),
    };
    let mut seated = Vec::new();
    for a in &result.seats {
        seated.push(floor::seat_directly(
            conn, now, tz, profile, actor, table_id, a.seat, a.player,
        )?);
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
        seated.push(floor::seat_directly(
            conn,
            now,
            tz,
            profile,
            actor,
            table_id,
            t.seats + 1,
            x,
        )?);
    }
    Ok(StartDraw { draw: row, seated })
}

/// PT-2007 25: when the registered players fill more than one table, a draw by suits gives
/// each player a table (one suit per table, BSOP 78 order) and then a seat there. Every open
/// table of the game that has nobody seated yet takes part (at most four); the players are
/// the first on the list who may sit together, as many as there are seats.
pub fn start_tables_by_suit(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    tz: Tz,
    profile: &RuleProfile,
    actor: &Actor,
    game_id: i64,
) -> AppResult<StartDraw> {
    use crate::domain::draw::TableSeats;
    let tables: Vec<crate::db::models::TableRow> = crate::services::games::list_tables(conn)?
        .into_iter()
        .map(|(t, _)| t)
        .filter(|t| t.game_id == Some(game_id) && t.state == "open")
        .collect();
    let mut empty = Vec::new();
    for t in tables {
        if floor::seated_at(conn, t.id)?.is_empty() {
            empty.push(t);
        }
    }
    if empty.len() < 2 {
        return Err(conflict("err-suit-draw-needs-tables"));
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
    let row = record(conn, now, actor, &d, Some(game_id), None)?;
    let Draw::Suit { result, .. } = &d else {
        return Err(AppError::Internal("suit draw kind".into()));
    };
    let mut seated = Vec::new();
    for t in &result.tables {
        for a in &t.seating.seats {
            seated.push(floor::seat_directly(
                conn, now, tz, profile, actor, t.table, a.seat, a.player,
            )?);
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
    for line in floor::list(conn, game_id, now)? {
        if chosen.len() == n {
            break;
        }
        let p = &line.player;
        if line.entry.state != "waiting"
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
        return Err(conflict("err-nobody-to-call"));
    }
    Ok(chosen)
}

/// BSOP 48, 79: a high card per seated player (dealt clockwise from seat 1) decides the
/// button; the winner's seat gets it. Recorded like every draw.
pub fn button(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    actor: &Actor,
    table_id: i64,
) -> AppResult<(DrawRow, i32)> {
    let seated = floor::seated_at(conn, table_id)?;
    if seated.len() < 2 {
        return Err(conflict("err-button-needs-players"));
    }
    let players: Vec<i64> = seated.iter().map(|s| s.player_id).collect();
    let d = Draw::high_card(DrawSeed::random(), HighCardPurpose::Button, &players)
        .map_err(draw_error)?;
    let Draw::HighCard { result, .. } = &d else {
        return Err(AppError::Internal("high card kind".into()));
    };
    let winner = result
        .winner()
        .ok_or_else(|| AppError::Internal("empty draw".into()))?;
    let seat = seated
        .iter()
        .find(|s| s.player_id == winner)
        .map(|s| s.seat_no)
        .unwrap_or(1);
    let t = crate::services::games::get_table(conn, table_id)?;
    let row = record(conn, now, actor, &d, t.game_id, Some(table_id))?;
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
