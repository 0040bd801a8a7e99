//! A seated player moving to another seat or table (BSOP 27, 46, 47, 50, 51, 55): the old
//! seating ends and the new one starts in the same transaction.

use super::*;
use crate::domain::ids::EntryId;
use crate::domain::ids::GameId;
use crate::domain::ids::PlayerId;
use crate::domain::ids::SeatCallId;
use crate::domain::ids::SeatingId;
use crate::domain::refusal::{SeatRefusal, TableRefusal};
use crate::services::Act;

/// Why a seated player moves to another seat. The old seating ends with [`Move::reason`]
/// (`seatings.left_reason`) and the move is audited as [`Move::action`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    /// BSOP 58, PT-2007 26, BSOP 27: the player asked to change to a similar table.
    Transfer,
    /// BSOP 49: the player takes a seat held for them while finishing a hand elsewhere.
    HeldSeat,
    /// BSOP 55, 57: from the must-move table to a main game, in list order (the room's move).
    MustMove,
    /// PT-2007 12, BSOP 51: another seat at the same table.
    SeatChange,
}

impl Move {
    /// Every reason a seating can end with when its player moves on (BSOP 27 follows them).
    pub const ALL: [Move; 4] = [
        Move::Transfer,
        Move::HeldSeat,
        Move::MustMove,
        Move::SeatChange,
    ];

    pub fn reason(self) -> &'static str {
        match self {
            Move::Transfer => "transfer",
            Move::HeldSeat => "moved to held seat",
            Move::MustMove => "must-move",
            Move::SeatChange => "seat change",
        }
    }

    pub fn action(self) -> &'static str {
        match self {
            Move::Transfer => "seat.transfer",
            Move::HeldSeat => "seat.move",
            Move::MustMove => "seat.must_move",
            Move::SeatChange => "seat.change",
        }
    }

    /// BSOP 27 «transferências voluntárias»: the player's own choice of another table. A
    /// must-move is the room's (BSOP 55-57), a seat change stays at the table.
    pub fn voluntary(self) -> bool {
        matches!(self, Move::Transfer | Move::HeldSeat)
    }
}

/// BSOP 27: since when the player has played this game without a break: the seating's own
/// start, or, when it began with a move (the seating before it, of the same game, ended at
/// that instant with a move's reason), the start of that one, followed back. A player
/// must-moved after 30 minutes is still in the first hour.
pub fn in_game_since(conn: &mut DbConn, s: &SeatingRow) -> AppResult<DateTime<Utc>> {
    let reasons: Vec<&str> = Move::ALL.iter().map(|m| m.reason()).collect();
    let mut since = s.sat_at;
    // A night has a bounded number of moves; the bound only guards against a loop.
    for _ in 0..100 {
        let before: Option<chrono::NaiveDateTime> = crate::native!(conn, |dbc| seatings::table
            .filter(seatings::player_id.eq(s.player_id))
            .filter(seatings::game_id.eq(s.game_id))
            .filter(seatings::left_at.eq(Some(since)))
            .filter(seatings::left_reason.eq_any(&reasons))
            .select(seatings::sat_at)
            .first(dbc))
        .optional()?;
        match before {
            Some(t) if t < since => since = t,
            _ => break,
        }
    }
    Ok(since.and_utc())
}

/// BSOP 27: «Se um jogo tiver um buy-in máximo, não serão permitidas transferências
/// voluntárias de mesa para um novo jogo na primeira hora se você exceder o buy-in máximo do
/// jogo.» A voluntary move to another table with the stack on record above the maximum of
/// the destination's game, within the first hour in the game, is refused (409 naming the
/// stack, the maximum and the minute the hour ends). Every path that changes a player's
/// table by their choice comes through here.
fn check_voluntary_move(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    from: &SeatingRow,
    to: &TableRow,
    game_id: GameId,
) -> AppResult<()> {
    // BSOP 20, 21: chips a ruling moves to or from the player wait for a second staff
    // member at this table: the player stays until they are settled.
    if crate::services::rulings::chips_pending_for(conn, from.player_id)? {
        return Err(SeatRefusal::MoveRulingChipsPending.into());
    }
    let g = crate::services::games::get_game(conn, game_id)?;
    // The maximum of the table moved to, as it plays now (PT-2007 22, BSOP 34).
    let max = crate::services::limits::of(to, Some(&g))
        .map(|l| l.buy_in_max)
        .unwrap_or(g.buy_in_max);
    if max.is_none() {
        return Ok(());
    }
    let stack = crate::services::table_side::side(conn, from.id)?.stack;
    let since = in_game_since(conn, from)?;
    if let Err(p) = crate::domain::seat_rules::check_stack_transfer(stack, max, since, now) {
        let room = crate::services::room::get(conn)?;
        return Err(AppError::Conflict(crate::services::table_side::localize(
            p, &room,
        )));
    }
    Ok(())
}

/// Moves a seated player to another seat, at their table or another (a must-move, a
/// seat change, a voluntary transfer, a held seat): the old seating ends with the move's
/// reason and the new one starts in the same transaction, so the player never holds two
/// seats (BSOP 46), and brings the whole stack (BSOP 27). The destination seat must be free
/// (a call for it: `call_id`; a hold: held for this player), the player eligible and not kept
/// apart from anyone there (BSOP 47); a voluntary move to another table obeys BSOP 27.
pub(super) fn move_player(
    conn: &mut DbConn,
    act: &Act,
    from: &SeatingRow,
    to: &TableRow,
    seat_no: i32,
    call_id: Option<SeatCallId>,
    kind: Move,
) -> AppResult<SeatingRow> {
    let (now, actor) = (act.now, &act.actor);
    let (reason, action) = (kind.reason(), kind.action());
    let player_id = from.player_id;
    let hold = check_seat(
        conn,
        act,
        to,
        seat_no,
        call_id.map(SeatCallId::get),
        Some(player_id.get()),
    )?
    .hold;
    let game_id = to.game_id.ok_or(TableRefusal::NoGame)?;
    if kind.voluntary() && to.id != from.table_id {
        check_voluntary_move(conn, now, from, to, game_id)?;
    }
    let p = player_may_sit_at(conn, act, player_id, to)?;
    let ended = end_seating_for_move(conn, act, from, reason)?;
    let (entry_id, new_entry) = entry_for_move(conn, from, game_id)?;
    let row = SeatingRow {
        id: SeatingId(next_seq(conn, "seating")?),
        table_id: to.id,
        seat_no,
        player_id,
        game_id: Some(game_id),
        entry_id,
        sat_at: now.naive_utc(),
        left_at: None,
        left_reason: None,
        seated_by: actor.id,
    };
    if let (true, Some(eid)) = (new_entry, entry_id) {
        cancel_calls_of_entry(conn, act, eid)?;
    }
    start_seating(
        conn,
        act,
        &row,
        entry_id.filter(|_| new_entry),
        call_id.map(SeatCallId::get),
        None,
    )?;
    // The player moves with their chips, what they bought in, buttons and hand counters.
    crate::services::table_side::carry_side(conn, from.id, row.id)?;
    if to.id != from.table_id {
        cancel_seat_changes(conn, act, player_id, from.table_id)?;
    }
    let after = serde_json::json!({ "left": ended, "seated": row, "reason": reason });
    audit::record(
        conn,
        now,
        actor,
        action,
        "player",
        Some(player_id.get()),
        Some(from),
        Some(&after),
    )?;
    release_holds_taken_by(conn, act, hold, player_id)?;
    push_move(conn, now, from, to, seat_no, &p.alias, reason)?;
    apply_table_rules(conn, act, from.table_id)?;
    if to.id != from.table_id {
        apply_table_rules(conn, act, to.id)?;
    }
    Ok(row)
}

/// The player may sit at the table moved to: eligible (BSOP 1-3, 10), not kept apart from
/// anyone seated there (BSOP 47), not barred from it after refusing a must-move (BSOP 55).
fn player_may_sit_at(
    conn: &mut DbConn,
    act: &Act,
    player_id: PlayerId,
    to: &TableRow,
) -> AppResult<PlayerRow> {
    let p = registry::get(conn, player_id)?;
    let why = registry::eligibility(conn, &p, act.now, act.tz())?;
    if !why.is_empty() {
        return Err(ineligible_error(&why));
    }
    let apart = separated_from(conn, player_id)?;
    if !apart.is_empty()
        && seated_at(conn, to.id)?
            .iter()
            .any(|s| s.player_id != player_id && apart.contains(&s.player_id))
    {
        return Err(SeatRefusal::SeparatedAtTable.into());
    }
    if barred_from_table(conn, player_id, to, None)? {
        return Err(SeatRefusal::RefusedMustMoveTable.into());
    }
    Ok(p)
}

/// The seating moved from ends with the move's reason (refused when the player already
/// left); the seating as ended.
fn end_seating_for_move(
    conn: &mut DbConn,
    act: &Act,
    from: &SeatingRow,
    reason: &str,
) -> AppResult<SeatingRow> {
    if end_open_seating(conn, act, from, reason)?.is_none() {
        return Err(SeatRefusal::AlreadyLeft.into());
    }
    seating(conn, from.id)
}

/// Within a game the seating keeps the list entry it came from (the original list order,
/// BSOP 55); into another game it uses up the player's entry on that game's list (then
/// `true`: a new entry).
fn entry_for_move(
    conn: &mut DbConn,
    from: &SeatingRow,
    game_id: GameId,
) -> AppResult<(Option<EntryId>, bool)> {
    if from.game_id == Some(game_id) {
        return Ok((from.entry_id, false));
    }
    let player_id = from.player_id;
    let e: Option<EntryId> = crate::native!(conn, |dbc| waitlist_entries::table
        .filter(waitlist_entries::game_id.eq(game_id))
        .filter(waitlist_entries::player_id.eq(player_id))
        .filter(entry_active!())
        .select(waitlist_entries::id)
        .first(dbc))
    .optional()?;
    Ok((e, e.is_some()))
}

/// The move pushed to both tables: the seat freed at the one left, taken at the other.
fn push_move(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    from: &SeatingRow,
    to: &TableRow,
    seat_no: i32,
    alias: &str,
    reason: &str,
) -> AppResult<()> {
    let player_id = from.player_id;
    let from_t = table(conn, from.table_id)?;
    emit(
        conn,
        now,
        Some(from.table_id),
        "seat.freed",
        &serde_json::json!({ "seat": from.seat_no, "player_id": player_id, "reason": reason, "to_table": to.number, "to_seat": seat_no }),
    )?;
    emit(
        conn,
        now,
        Some(to.id),
        "seat.taken",
        &serde_json::json!({ "table": to.number, "seat": seat_no, "player_id": player_id, "alias": alias, "reason": reason,
            "from_table": from_t.number, "from_seat": from.seat_no }),
    )?;
    Ok(())
}
