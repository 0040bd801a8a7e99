//! Must-move tables (BSOP 55-57): which table of a game is the must-move, its players in
//! their list order, who is due for a seat at a main game, and a must-move refused.

use super::*;
use crate::domain::game::TablePolicy;
use crate::domain::ids::GameId;
use crate::domain::ids::PlayerId;
use crate::domain::ids::SeatCallId;
use crate::domain::ids::SeatingId;
use crate::domain::ids::TableId;
use crate::domain::refusal::{SeatRefusal, TableRefusal};
use crate::domain::states::CallSource;
use crate::domain::states::CallState;
use crate::domain::states::MustMoveChoice;
use crate::services::Act;

/// BSOP 55, 56: among a game's tables in play, the newest is the must-move (none with a
/// single table), when the game runs must-move tables; a balanced game (BSOP 58) has none.
/// Stored in `card_tables.must_move`, exactly one per game or none; each change is audited
/// and pushed. Runs when a table of the game opens or closes, so a change of the game's
/// policy takes effect then.
pub fn recompute_must_move(
    conn: &mut DbConn,
    act: &Act,
    game_id: GameId,
) -> AppResult<Option<i64>> {
    let (now, actor) = (act.now, &act.actor);
    let all: Vec<TableRow> = crate::native!(conn, |dbc| card_tables::table
        .filter(card_tables::game_id.eq(game_id))
        .select(TableRow::as_select())
        .load(dbc))?;
    // The choice reads only when each table was formed; the seat counts do not matter.
    let live: Vec<GameTable> = all
        .iter()
        .filter(|t| in_play(t))
        .map(|t| GameTable {
            table_id: t.id.get(),
            formed_at: formed_at(t),
            seated: 0,
            seats: t.seats.max(0) as usize,
        })
        .collect();
    let chosen = match game(conn, game_id)?.policy() {
        TablePolicy::MustMove => must_move_table(&live),
        TablePolicy::Balanced => None,
    };
    // Clear before set, so the game never shows two must-move tables.
    let mut changed: Vec<&TableRow> = all
        .iter()
        .filter(|t| t.must_move && Some(t.id) != chosen.map(TableId))
        .collect();
    changed.extend(
        all.iter()
            .filter(|t| !t.must_move && Some(t.id) == chosen.map(TableId)),
    );
    for t in changed {
        let want = Some(t.id) == chosen.map(TableId);
        crate::native!(conn, |dbc| crate::db::Cached(
            diesel::update(card_tables::table.find(t.id))
                .set((
                    card_tables::must_move.eq(want),
                    card_tables::updated_at.eq(now.naive_utc())
                ))
                .returning(card_tables::id)
        )
        .changed(dbc))?;
        let after = table(conn, t.id)?;
        audit::record(
            conn,
            now,
            actor,
            "table.must_move",
            "table",
            Some(t.id.get()),
            Some(t),
            Some(&after),
        )?;
        emit(
            conn,
            now,
            Some(t.id),
            "table.must_move",
            &serde_json::json!({ "table": t.number, "game_id": game_id, "must_move": want }),
        )?;
    }
    Ok(chosen)
}

/// BSOP 27, 55, 58: two tables of one game play the same limit now (their limits, PT-2007 22).
pub(super) fn same_limits(
    conn: &mut DbConn,
    a: &TableRow,
    b: &TableRow,
    game_id: GameId,
) -> AppResult<bool> {
    let g = game(conn, game_id)?;
    Ok(crate::services::limits::of(a, Some(&g)) == crate::services::limits::of(b, Some(&g)))
}

/// The game's must-move table in play, if any.
fn must_move_table_of(conn: &mut DbConn, game_id: GameId) -> AppResult<Option<TableRow>> {
    Ok(crate::native!(conn, |dbc| card_tables::table
        .filter(card_tables::game_id.eq(game_id))
        .filter(card_tables::must_move)
        .filter(table_in_play!())
        .select(TableRow::as_select())
        .first(dbc))
    .optional()?)
}

/// BSOP 55: the players at a must-move table in the original waiting-list order: by the
/// order key of the list entry each was seated from (`seatings.entry_id`), then by joining
/// time; players seated without a list entry come after, by the time they sat down.
fn must_move_players(
    conn: &mut DbConn,
    table_id: TableId,
) -> AppResult<Vec<(SeatingRow, PlayerRow)>> {
    let rows: Vec<MustMoveRow> = crate::native!(conn, |dbc| seatings::table
        .inner_join(players::table)
        .left_join(
            waitlist_entries::table.on(waitlist_entries::id.nullable().eq(seatings::entry_id))
        )
        .filter(seatings::table_id.eq(table_id))
        .filter(seatings::left_at.is_null())
        .select((
            SeatingRow::as_select(),
            PlayerRow::as_select(),
            waitlist_entries::order_key.nullable(),
            waitlist_entries::joined_at.nullable()
        ))
        .load(dbc))?;
    Ok(in_must_move_order(rows))
}

/// A player at a must-move table, with the order key and joining time of the list entry
/// they were seated from.
type MustMoveRow = (
    SeatingRow,
    PlayerRow,
    Option<i64>,
    Option<chrono::NaiveDateTime>,
);

/// BSOP 55: the must-move order (see [`must_move_players`]).
fn in_must_move_order(mut rows: Vec<MustMoveRow>) -> Vec<(SeatingRow, PlayerRow)> {
    rows.sort_by_key(|(s, _, key, joined)| {
        (
            key.is_none(),
            key.unwrap_or(0),
            joined.unwrap_or(s.sat_at),
            s.sat_at,
            s.id,
        )
    });
    rows.into_iter().map(|(s, p, _, _)| (s, p)).collect()
}

/// A game's must-move table, with its players in must-move order, read in one statement
/// (every call to a main game asks; nobody there is the usual answer). `None`
/// when the game has no must-move table in play, or nobody sits at it.
#[allow(clippy::type_complexity)]
fn must_move_table_with_players(
    conn: &mut DbConn,
    game_id: GameId,
) -> AppResult<Option<(TableRow, Vec<(SeatingRow, PlayerRow)>)>> {
    let rows: Vec<(TableRow, MustMoveRow)> = crate::native!(conn, |dbc| seatings::table
        .inner_join(card_tables::table.on(card_tables::id.eq(seatings::table_id)))
        .inner_join(players::table)
        .left_join(
            waitlist_entries::table.on(waitlist_entries::id.nullable().eq(seatings::entry_id))
        )
        .filter(card_tables::game_id.eq(game_id))
        .filter(card_tables::must_move)
        .filter(table_in_play!())
        .filter(seatings::left_at.is_null())
        .select((
            TableRow::as_select(),
            (
                SeatingRow::as_select(),
                PlayerRow::as_select(),
                waitlist_entries::order_key.nullable(),
                waitlist_entries::joined_at.nullable()
            )
        ))
        .load(dbc))?;
    let Some(m) = rows.first().map(|(m, _)| m.clone()) else {
        return Ok(None);
    };
    // At most one must-move table per game ([`recompute_must_move`]); kept to the first.
    let players = rows
        .into_iter()
        .filter(|(t, _)| t.id == m.id)
        .map(|(_, r)| r)
        .collect();
    Ok(Some((m, in_must_move_order(players))))
}

/// A game's must-move table and its players in must-move order (BSOP 55).
#[allow(clippy::type_complexity)]
pub fn must_move_list(
    conn: &mut DbConn,
    game_id: GameId,
) -> AppResult<Option<(TableRow, Vec<(SeatingRow, PlayerRow)>)>> {
    game(conn, game_id)?;
    let Some(m) = must_move_table_of(conn, game_id)? else {
        return Ok(None);
    };
    let players = must_move_players(conn, m.id)?;
    Ok(Some((m, players)))
}

/// BSOP 55, 57: for a free seat at table `t`, the must-move player due now (at most one), and
/// whether the must-move players are waiting (nobody may take the seat from the list).
/// Only at a main game (not the must-move table) of a game that has a must-move table.
/// Players who cannot take this seat now are left out: already called, no longer eligible,
/// or kept apart from someone at the main table (BSOP 47).
///
/// BSOP 57: the move waits while the player is in the small blind or on the button of the
/// must-move table (the button the dealer's "new hand" taps move; no button known: nobody
/// waits).
pub(super) fn must_move_due_for(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    tz: Tz,
    t: &TableRow,
    game_id: GameId,
) -> AppResult<(Vec<PlayerId>, Option<Problem>)> {
    if t.must_move {
        return Ok((Vec::new(), None));
    }
    let Some((m, waiting)) = must_move_table_with_players(conn, game_id)? else {
        return Ok((Vec::new(), None));
    };
    if m.id == t.id || waiting.is_empty() {
        return Ok((Vec::new(), None));
    }
    // BSOP 55: «do mesmo tipo e limite»: a main table whose limits now differ from the
    // must-move table's (PT-2007 22) is not fed by it.
    if !same_limits(conn, &m, t, game_id)? {
        return Ok((Vec::new(), None));
    }
    // Read only when needed (statements per call): who sits at the main table
    // (for a separation), the must-move table's protected seats (for the one player due).
    let mut here: Option<Vec<PlayerId>> = None;
    let mut players = Vec::new();
    let mut seats = std::collections::HashMap::new();
    for (i, (s, p)) in waiting.into_iter().enumerate() {
        if has_open_call(conn, s.player_id)?
            || !registry::eligibility(conn, &p, now, tz)?.is_empty()
        {
            continue;
        }
        let apart = separated_from(conn, s.player_id)?;
        if !apart.is_empty() {
            if here.is_none() {
                here = Some(seated_at(conn, t.id)?.iter().map(|s| s.player_id).collect());
            }
            if here.iter().flatten().any(|h| apart.contains(h)) {
                continue;
            }
        }
        let protected = crate::services::table_side::protected_seats(conn, &m)?;
        let seat_no = s.seat_no;
        seats.insert(s.player_id, (seat_no, p.alias));
        players.push(MustMovePlayer {
            player_id: s.player_id,
            list_order: i as i64,
            in_small_blind_or_button: protected.contains(&seat_no),
        });
        // BSOP 57: only the first in order who can take the seat is ever due (or waited
        // for), so the others need not be checked: three queries per call instead of three
        // per player at the must-move table (30 of a call's 59 statements).
        break;
    }
    let due = must_move_due(&players);
    // BSOP 57: nobody due although must-move players wait: the first in order is in the
    // small blind or on the button, and the seat waits for them (said with who and where).
    let first = players
        .iter()
        .min_by_key(|p| (p.list_order, p.player_id))
        .and_then(|p| seats.get(&p.player_id));
    let waits = match (due, first) {
        (None, Some((seat_no, alias))) => {
            let position = if Some(*seat_no) == m.button_seat {
                "button"
            } else {
                "small_blind"
            };
            Some(Problem::from(SeatRefusal::WaitsForMustMove {
                alias: alias.clone(),
                table: m.number,
                seat: *seat_no,
                position,
            }))
        }
        _ => None,
    };
    Ok((due.into_iter().collect(), waits))
}

/// BSOP 55: a player who refused a must-move and gave up may not play at that must-move
/// table (while it is the must-move table, since it was opened).
pub(super) fn barred_from_table(
    conn: &mut DbConn,
    player_id: PlayerId,
    t: &TableRow,
    known: Option<PlayerChecks>,
) -> AppResult<bool> {
    let Some(opened) = t.opened_at else {
        return Ok(false);
    };
    if !t.must_move || known.is_some_and(|k| !k.has_refusals) {
        return Ok(false);
    }
    let n: i64 = crate::native!(conn, |dbc| must_move_refusals::table
        .filter(must_move_refusals::player_id.eq(player_id))
        .filter(must_move_refusals::table_id.eq(t.id))
        .filter(must_move_refusals::choice.eq(MustMoveChoice::GiveUp))
        .filter(must_move_refusals::refused_at.ge(opened))
        .count()
        .get_result(dbc))?;
    Ok(n > 0)
}

/// BSOP 55: the earliest time a player who refused a must-move (and chose to come back) may
/// join the game's list again, if that is still in the future: the latest refusal plus the
/// room's return window (`may_rejoin_after_refusal`).
/// BSOP 55: the refusal to re-join (the list or a seat of the game) before the return window.
pub(super) fn refuse_before_rejoin(
    conn: &mut DbConn,
    profile: &RuleProfile,
    tz: Tz,
    game_id: GameId,
    player_id: PlayerId,
    now: DateTime<Utc>,
) -> AppResult<()> {
    match rejoin_not_before(conn, profile, game_id, player_id, now)? {
        Some(from) => {
            let time = from.with_timezone(&tz).format("%H:%M").to_string();
            Err(SeatRefusal::MustMoveRejoinLater { time }.into())
        }
        None => Ok(()),
    }
}

fn rejoin_not_before(
    conn: &mut DbConn,
    profile: &RuleProfile,
    game_id: GameId,
    player_id: PlayerId,
    now: DateTime<Utc>,
) -> AppResult<Option<DateTime<Utc>>> {
    let last: Option<chrono::NaiveDateTime> = crate::native!(conn, |dbc| must_move_refusals::table
        .filter(must_move_refusals::player_id.eq(player_id))
        .filter(must_move_refusals::game_id.eq(game_id))
        .filter(must_move_refusals::choice.eq(MustMoveChoice::RejoinLater))
        .order(must_move_refusals::refused_at.desc())
        .select(must_move_refusals::refused_at)
        .first(dbc))
    .optional()?;
    Ok(last
        .map(|at| {
            may_rejoin_after_refusal(
                at.and_utc(),
                Duration::minutes(profile.return_window_min as i64),
            )
        })
        .filter(|until| now < *until))
}

/// BSOP 55: a must-move player refuses to move to the main game. Either way they leave the
/// must-move table (their seating ends, reason "refused must-move"): giving up, they may not
/// play at that must-move table again; coming back later, they are taken off the game's
/// list and may join it again only after the return window (one hour). The must-move call
/// they refused is declined and the seat is offered to the next must-move player. Returns
/// the refusal and that next call, if someone could be called.
pub fn refuse_must_move(
    conn: &mut DbConn,
    act: &Act,
    seating_id: SeatingId,
    choice: MustMoveChoice,
) -> AppResult<(MustMoveRefusalRow, Option<SeatCallRow>)> {
    let (now, profile, actor) = (act.now, act.profile(), &act.actor);
    let s = seating(conn, seating_id)?;
    if s.left_at.is_some() {
        return Err(SeatRefusal::AlreadyLeft.into());
    }
    let t = table(conn, s.table_id)?;
    if !t.must_move {
        return Err(TableRefusal::NotMustMoveTable.into());
    }
    let game_id = t.game_id.ok_or(TableRefusal::NoGame)?;
    let ended = leave_must_move_table(conn, act, &s)?;
    cancel_seat_changes(conn, act, s.player_id, t.id)?;
    let declined = decline_must_move_calls(conn, act, s.player_id)?;
    let rejoin_after = (choice == MustMoveChoice::RejoinLater).then(|| {
        may_rejoin_after_refusal(now, Duration::minutes(profile.return_window_min as i64))
            .naive_utc()
    });
    if choice == MustMoveChoice::RejoinLater {
        take_off_list(conn, act, game_id, s.player_id)?;
    }
    let row = MustMoveRefusalRow {
        id: next_seq(conn, "must_move_refusal")?,
        game_id,
        table_id: t.id,
        player_id: s.player_id,
        seating_id: s.id,
        choice,
        refused_at: now.naive_utc(),
        rejoin_after,
        created_by: actor.id,
    };
    crate::native!(conn, |dbc| diesel::insert_into(must_move_refusals::table)
        .values(&row)
        .execute(dbc))?;
    let after = serde_json::json!({ "seating": ended, "refusal": row });
    audit::record(
        conn,
        now,
        actor,
        "seat.refuse_must_move",
        "player",
        Some(s.player_id.get()),
        Some(&s),
        Some(&after),
    )?;
    emit(
        conn,
        now,
        Some(t.id),
        "seat.freed",
        &serde_json::json!({ "seat": s.seat_no, "player_id": s.player_id, "reason": "refused must-move", "choice": choice }),
    )?;
    apply_table_rules(conn, act, t.id)?;
    // The main-game seat goes to the next must-move player.
    let mut next = None;
    for c in declined {
        match call_next(conn, act, c.table_id, c.seat_no) {
            Ok(call) => next = Some(call),
            Err(AppError::Conflict(_)) => {}
            Err(e) => return Err(e),
        }
    }
    Ok((row, next))
}

/// The player leaves the must-move table, reason "refused must-move" (refused when they
/// already left); the seating as ended.
fn leave_must_move_table(conn: &mut DbConn, act: &Act, s: &SeatingRow) -> AppResult<SeatingRow> {
    if end_open_seating(conn, act, s, "refused must-move")?.is_none() {
        return Err(SeatRefusal::AlreadyLeft.into());
    }
    seating(conn, s.id)
}

/// The must-move call is declined; any other open call of the player ends. The declined
/// calls, whose seats go to the next must-move player.
fn decline_must_move_calls(
    conn: &mut DbConn,
    act: &Act,
    player_id: PlayerId,
) -> AppResult<Vec<SeatCallRow>> {
    let now = act.now;
    let open: Vec<SeatCallRow> = crate::native!(conn, |dbc| seat_calls::table
        .filter(seat_calls::player_id.eq(player_id))
        .filter(call_open!())
        .select(SeatCallRow::as_select())
        .load(dbc))?;
    let (declined, others): (Vec<SeatCallRow>, Vec<SeatCallRow>) = open
        .into_iter()
        .partition(|c| c.source == CallSource::MustMove);
    for c in &declined {
        crate::native!(conn, |dbc| crate::db::Cached(
            diesel::update(seat_calls::table.find(c.id))
                .set((
                    seat_calls::state.eq(CallState::Declined),
                    seat_calls::resolved_at.eq(Some(now.naive_utc()))
                ))
                .returning(seat_calls::id)
        )
        .changed(dbc))?;
    }
    let others: Vec<SeatCallId> = others.iter().map(|c| c.id).collect();
    cancel_open_calls(conn, act, &others)?;
    Ok(declined)
}

/// BSOP 55: coming back later, the player is taken off the game's list (and any call of
/// their entry ends).
fn take_off_list(
    conn: &mut DbConn,
    act: &Act,
    game_id: GameId,
    player_id: PlayerId,
) -> AppResult<()> {
    let active: Option<WaitlistRow> = crate::native!(conn, |dbc| waitlist_entries::table
        .filter(waitlist_entries::game_id.eq(game_id))
        .filter(waitlist_entries::player_id.eq(player_id))
        .filter(entry_active!())
        .select(WaitlistRow::as_select())
        .first(dbc))
    .optional()?;
    if let Some(e) = active {
        cancel_calls_of_entry(conn, act, e.id)?;
        end_entry(
            conn,
            act,
            &e,
            EntryState::Removed,
            "refused must-move",
            "list.remove",
        )?;
    }
    Ok(())
}
