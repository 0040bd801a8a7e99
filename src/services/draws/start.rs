//! The start-of-game seat draw (PT-2007 11, 27; BSOP 50) and the suit draw that spreads the
//! first players over a game's tables (BSOP 78).

use super::stored::{draw_error, record};
use crate::db::audit::{self};
use crate::db::models::{DrawRow, SeatingRow};
use crate::db::schema::{card_tables, seatings};
use crate::db::DbConn;
use crate::domain::draw::{Draw, DrawSeed};
use crate::domain::ids::GameId;
use crate::domain::ids::PlayerId;
use crate::domain::ids::TableId;
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
pub fn start_game(conn: &mut DbConn, act: &Act, table_id: TableId) -> AppResult<StartDraw> {
    start_game_with(conn, act, table_id, false)
}

/// BSOP 50: like [`start_game`], with one extra player when more are waiting than seats: the
/// extra place is drawn with the others and becomes the temporary seat `seats + 1`, removed
/// as soon as someone leaves.
pub fn start_game_with_extra(
    conn: &mut DbConn,
    act: &Act,
    table_id: TableId,
) -> AppResult<StartDraw> {
    start_game_with(conn, act, table_id, true)
}

fn start_game_with(
    conn: &mut DbConn,
    act: &Act,
    table_id: TableId,
    extra: bool,
) -> AppResult<StartDraw> {
    let (now, tz, profile, actor) = (act.now, act.tz(), act.profile(), &act.actor);
    let t = crate::services::games::get_table(conn, table_id)?;
    let game_id = t.game_id.ok_or(TableRefusal::NoGame)?;
    if t.state != TableState::Open {
        return Err(DrawRefusal::TableNotOpen.into());
    }
    let seated = floor::seated_at(conn, table_id)?;
    let here: Vec<PlayerId> = seated.iter().map(|s| s.player_id).collect();
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
        let previous: Vec<PlayerId> = seatings::table
            .filter(seatings::table_id.eq(table_id))
            .filter(seatings::left_at.ge(since.naive_utc()))
            .select(seatings::player_id)
            .load(conn)?;
        let (prev, others): (Vec<PlayerId>, Vec<PlayerId>) =
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
            Some(table_id.get()),
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
pub fn start_tables_by_suit(conn: &mut DbConn, act: &Act, game_id: GameId) -> AppResult<StartDraw> {
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
            table: t.id.get(),
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
            seated.push(floor::seat_directly(
                conn,
                act,
                TableId(t.table),
                a.seat,
                a.player,
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
    game_id: GameId,
    n: usize,
    seated_here: &[PlayerId],
) -> AppResult<Vec<PlayerId>> {
    let mut chosen: Vec<PlayerId> = Vec::new();
    // BSOP 47: nobody kept apart from a player already at the table.
    let mut apart: Vec<PlayerId> = Vec::new();
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
