//! Balance (BSOP 58, PT-2007 26): free seats, the table suggested for a new player, and a
//! player's transfer to a similar table.

use super::*;
use crate::domain::ids::GameId;
use crate::domain::ids::SeatingId;
use crate::domain::ids::TableId;
use crate::domain::refusal::{MoveRefusal, SeatRefusal, TableRefusal};
use crate::services::Act;

/// The first seat of a table that is free now: nobody sitting, no open call, no hold.
fn first_free_seat(conn: &mut DbConn, t: &TableRow) -> AppResult<Option<i32>> {
    Ok(free_seats(conn, t)?.first().copied())
}

/// The table's seats neither taken, called nor held, in order.
pub(super) fn free_seats(conn: &mut DbConn, t: &TableRow) -> AppResult<Vec<i32>> {
    let taken: Vec<i32> = seated_at(conn, t.id)?.iter().map(|s| s.seat_no).collect();
    let called: Vec<i32> = crate::native!(conn, |dbc| seat_calls::table
        .filter(seat_calls::table_id.eq(t.id))
        .filter(call_open!())
        .select(seat_calls::seat_no)
        .load(dbc))?;
    let held: Vec<i32> = crate::native!(conn, |dbc| seat_holds::table
        .filter(seat_holds::table_id.eq(t.id))
        .filter(seat_holds::released_at.is_null())
        .select(seat_holds::seat_no)
        .load(dbc))?;
    Ok((1..=t.seats)
        .filter(|n| !taken.contains(n) && !called.contains(n) && !held.contains(n))
        .collect())
}

/// BSOP 55, 58: where a new player of a game goes, among its tables in play given as
/// (table, seated, free seats), by the game's policy (`domain::table::suggest_new_player`):
/// the table id and why. Only a table with a free seat is suggested.
pub(super) fn suggest_among(
    policy: crate::domain::game::TablePolicy,
    tables: &[(&TableRow, usize, usize)],
) -> Option<(i64, crate::domain::table::SuggestRule)> {
    let c: Vec<crate::domain::table::SuggestCandidate> = tables
        .iter()
        .map(|(t, seated, free)| crate::domain::table::SuggestCandidate {
            table_id: t.id.get(),
            formed_at: formed_at(t),
            seated: *seated,
            free: *free,
            must_move: t.must_move,
        })
        .collect();
    crate::domain::table::suggest_new_player(policy, &c)
}

/// The suggestion for a new player of a game.
#[derive(Debug, Clone, Serialize)]
pub struct Suggestion {
    pub table: Option<TableRow>,
    /// must_move or main_game (BSOP 55) | neediest (BSOP 58); none when no table has a
    /// free seat.
    pub rule: Option<&'static str>,
    pub seated: usize,
    /// The first free seat of the suggested table (not taken, called or held).
    pub free_seat: Option<i32>,
}

/// BSOP 58: the table of a game that needs a player most (or BSOP 55 its must-move table).
pub fn suggest_table(conn: &mut DbConn, game_id: GameId) -> AppResult<Suggestion> {
    let policy = game(conn, game_id)?.policy();
    let tables: Vec<TableRow> = crate::native!(conn, |dbc| card_tables::table
        .filter(card_tables::game_id.eq(game_id))
        .filter(table_in_play!())
        .select(TableRow::as_select())
        .load(dbc))?;
    let mut info = Vec::with_capacity(tables.len());
    for t in &tables {
        let seated = seated_count(conn, t.id)?;
        let free = free_seats(conn, t)?;
        info.push((t, seated, free));
    }
    let pick = suggest_among(
        policy,
        &info
            .iter()
            .map(|(t, n, f)| (*t, *n, f.len()))
            .collect::<Vec<_>>(),
    );
    Ok(
        match pick.and_then(|(id, rule)| {
            info.iter()
                .find(|(t, _, _)| t.id == TableId(id))
                .map(|i| (i, rule))
        }) {
            Some(((t, seated, free), rule)) => Suggestion {
                table: Some((*t).clone()),
                rule: Some(rule.as_str()),
                seated: *seated,
                free_seat: free.first().copied(),
            },
            None => Suggestion {
                table: None,
                rule: None,
                seated: 0,
                free_seat: None,
            },
        },
    )
}

fn transfer_error(
    r: TransferRefusal,
    session: bool,
    profile: &RuleProfile,
    from_seated: usize,
    to_seated: usize,
) -> AppError {
    AppError::from(match r {
        TransferRefusal::DestinationFull => MoveRefusal::DestinationFull,
        TransferRefusal::CaveNotLost => MoveRefusal::CaveNotLost,
        TransferRefusal::LeavesTableShort => MoveRefusal::LeavesTableShort {
            min: profile.min_players_to_run,
        },
        TransferRefusal::Unbalances if session => MoveRefusal::UnbalancesSession {
            from: from_seated,
            to: to_seated,
        },
        TransferRefusal::Unbalances => MoveRefusal::Unbalances {
            from: from_seated,
            to: to_seated,
        },
    })
}

/// BSOP 58, PT-2007 26: a player asks to move to a similar table (same game and limit: the
/// two tables' limits now are the same, PT-2007 22). Refused when the table left has fewer
/// players than the destination (BSOP 58); in session mode (either table's mode is
/// `session`) only after losing the whole buy-in (the cave), and not if the move leaves the
/// table below the minimum or unbalances the tables (PT-2007 26). The player takes the
/// destination's first free seat (not taken, called or held). `cave_lost` is said by the
/// floor or by the dealer's tablet (a transfer with the stack).
pub fn transfer(
    conn: &mut DbConn,
    act: &Act,
    seating_id: SeatingId,
    to_table_id: TableId,
    cave_lost: bool,
) -> AppResult<SeatingRow> {
    let (now, tz, profile) = (act.now, act.tz(), act.profile());
    let s = seating(conn, seating_id)?;
    let to = table(conn, to_table_id).map_err(|e| match e {
        AppError::NotFound => AppError::field("table_id", "err-table-unknown"),
        e => e,
    })?;
    if s.left_at.is_some() {
        return Err(SeatRefusal::AlreadyLeft.into());
    }
    let from = table(conn, s.table_id)?;
    if to.id == from.id {
        return Err(MoveRefusal::SameTable.into());
    }
    if to.game_id.is_none() || to.game_id != from.game_id {
        return Err(MoveRefusal::NotSimilar.into());
    }
    // BSOP 27, 55, 58: "the same game and limit": the two tables' limits now (PT-2007 22).
    let g = game(conn, to.game_id.unwrap_or_default())?;
    if let (Some(a), Some(b)) = (
        crate::services::limits::of(&from, Some(&g)),
        crate::services::limits::of(&to, Some(&g)),
    ) {
        crate::domain::limits::check_same_limit(&a, &b, to.number).map_err(AppError::Conflict)?;
    }
    if !in_play(&to) {
        return Err(TableRefusal::NotOpen.into());
    }
    // BSOP 55, 57: players of the must-move table reach the main games in their original
    // list order: only the one whose turn it is may move to a main game now.
    if from.must_move && !to.must_move {
        let game_id = to.game_id.unwrap_or_default();
        let (due, _) = must_move_due_for(conn, now, tz, &to, game_id)?;
        if due.first() != Some(&s.player_id) {
            return Err(MoveRefusal::FromMustMove.into());
        }
    }
    let from_seated = seated_count(conn, from.id)?;
    let to_seated = seated_count(conn, to.id)?;
    let free = first_free_seat(conn, &to)?;
    let to_seats = if free.is_some() {
        to.seats.max(0) as usize
    } else {
        to_seated
    };
    let session = from.mode == "session" || to.mode == "session";
    transfer_allowed(
        from_seated,
        to_seated,
        to_seats,
        session,
        cave_lost,
        profile.min_players_to_run,
    )
    .map_err(|r| transfer_error(r, session, profile, from_seated, to_seated))?;
    let seat_no = free.ok_or(MoveRefusal::DestinationFull)?;
    move_player(conn, act, &s, &to, seat_no, None, Move::Transfer)
}
