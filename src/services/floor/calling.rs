//! Calling a player for a free seat (PT-2007 12, BSOP 44, 51, 55, 57): the next in order, or
//! one the floor chooses with a reason.

use super::*;
use crate::domain::ids::EntryId;
use crate::domain::ids::GameId;
use crate::domain::ids::PlayerId;
use crate::domain::ids::SeatCallId;
use crate::domain::ids::TableId;
use crate::domain::refusal::{CallRefusal, ListRefusal, SeatRefusal, TableRefusal};
use crate::domain::states::CallSource;
use crate::domain::states::CallState;
use crate::domain::states::EntryState;
use crate::services::Act;

/// PT-2007 12, BSOP 51: a seat is free — call the next player for it: seat-change requests
/// at this table first (first asked, first served), then, at a main table of a game with a
/// must-move table, the must-move player due (BSOP 55, 57), then the waiting list in order,
/// passing over who cannot take it. The call reserves the seat for the response window and
/// is pushed to the table.
pub fn call_next(
    conn: &mut DbConn,
    act: &Act,
    table_id: TableId,
    seat_no: i32,
) -> AppResult<SeatCallRow> {
    let (now, tz) = (act.now, act.tz());
    let (t, game) = table_with_game_name(conn, table_id)?;
    let seat = check_seat(conn, act, &t, seat_no, None, None)?;
    let game_id = t.game_id.ok_or(TableRefusal::NoGame)?;
    let changes = seat_changes_to_call(conn, table_id, seat.seat_changes)?;
    // BSOP 55, 57: a seat at a main game goes to the must-move players first.
    let (due, must_move_waits) = must_move_due_for(conn, now, tz, &t, game_id)?;
    let asked = SeatAsked {
        act,
        t: &t,
        seat_no,
    };
    let pass = CallPass::default();
    let (pick, first_page) = pick_in_order(conn, &asked, game_id, &changes, &due, &pass)?;
    let CallPass {
        checked,
        offered,
        waiting,
        ..
    } = pass;
    let waiting = waiting.into_inner();
    let Some(candidate) = pick else {
        return Err(nobody_to_call(must_move_waits, &waiting));
    };
    // BSOP 57: the seat waits for the must-move player; the list does not take it.
    if let (Candidate::List { .. }, Some(p)) = (&candidate, must_move_waits) {
        return Err(AppError::Conflict(p));
    }
    let (player_id, entry_id, source) = match candidate {
        Candidate::SeatChange { player_id } => (player_id, None, CallSource::SeatChange),
        Candidate::MustMove { player_id } => (player_id, None, CallSource::MustMove),
        Candidate::List {
            entry_id,
            player_id,
        } => (player_id, Some(EntryId(entry_id)), CallSource::List),
    };
    let head = head_after_call(first_page, offered.get(), entry_id, now);
    let player = checked.into_inner().filter(|p| p.id == player_id);
    let seat = seat_to_call(conn, &asked, offered.get(), player_id, entry_id);
    // Each player who let this seat go by to wait for a preferred one has one offer fewer.
    for e in waiting {
        crate::services::seat_prefs::count_pass(conn, act, EntryId(e), t.id, seat)?;
    }
    let known = Known {
        player,
        head,
        game_name: Some(game),
    };
    create_call(conn, act, &t, seat, player_id, entry_id, source, known)
}

/// The table and its game's name (for the call's message) in one statement.
fn table_with_game_name(
    conn: &mut DbConn,
    table_id: TableId,
) -> AppResult<(TableRow, Option<String>)> {
    Ok(crate::native!(conn, |dbc| card_tables::table
        .left_join(games::table)
        .filter(card_tables::id.eq(table_id))
        .select((TableRow::as_select(), games::name.nullable()))
        .first(dbc))?)
}

/// Seat-change requests of players still seated here and not already called elsewhere
/// (read only when the seat's check saw some), with when each was asked.
fn seat_changes_to_call(
    conn: &mut DbConn,
    table_id: TableId,
    any: bool,
) -> AppResult<Vec<(PlayerId, DateTime<Utc>)>> {
    let requests: Vec<(PlayerId, chrono::NaiveDateTime)> = if any {
        crate::native!(conn, |dbc| seat_change_requests::table
            .filter(seat_change_requests::table_id.eq(table_id))
            .filter(crate::db::conditions::SeatChangeOpen)
            .select((
                seat_change_requests::player_id,
                seat_change_requests::requested_at
            ))
            .load(dbc))?
    } else {
        Vec::new()
    };
    let here: Vec<PlayerId> = if requests.is_empty() {
        Vec::new()
    } else {
        seated_at(conn, table_id)?
            .iter()
            .map(|s| s.player_id)
            .collect()
    };
    let mut changes: Vec<(PlayerId, DateTime<Utc>)> = Vec::new();
    for (p, at) in requests {
        if here.contains(&p) && !has_open_call(conn, p)? {
            changes.push((p, at.and_utc()));
        }
    }
    Ok(changes)
}

/// The seat asked for: whose action, which table, which seat.
struct SeatAsked<'a> {
    act: &'a Act,
    t: &'a TableRow,
    seat_no: i32,
}

/// What the call pass learns while it looks for the player to call.
#[derive(Default)]
struct CallPass {
    /// The last listed player checked, kept for the call (their alias: no second read).
    checked: std::cell::RefCell<Option<PlayerRow>>,
    /// The table's free and accessible seats (read once, for the first player with a
    /// preference).
    seats_now: std::cell::RefCell<Option<(Vec<i32>, Vec<i32>)>>,
    /// Another seat offered to a player it fits better (player, seat).
    offered: std::cell::Cell<Option<(PlayerId, i32)>>,
    /// The entries passed over because their players wait for a preferred seat.
    waiting: std::cell::RefCell<Vec<i64>>,
}

/// The domain picks in order; whether a listed player may take this seat needs the
/// database, asked lazily (only until someone can), reading the list a page at a time.
/// A short first page (the next player is usually among the first few), longer ones after.
/// Also gives the list's first page as read here (for the players told they are next).
fn pick_in_order(
    conn: &mut DbConn,
    asked: &SeatAsked<'_>,
    game_id: GameId,
    changes: &[(PlayerId, DateTime<Utc>)],
    due: &[PlayerId],
    pass: &CallPass,
) -> AppResult<(Option<Candidate>, Option<Vec<WaitlistRow>>)> {
    let now = asked.act.now;
    let mut page = HEAD_PAGE;
    let mut offset = 0;
    let mut first_page: Option<Vec<WaitlistRow>> = None;
    let pick = loop {
        let rows = waiting_page(conn, game_id, offset, page)?;
        let domain: Vec<Entry> = rows.iter().map(as_entry).collect();
        let db = std::cell::RefCell::new(&mut *conn);
        let failure = std::cell::RefCell::new(None);
        let pick = waitlist::next_for_seat(changes, due, &domain, now, |p| {
            let mut c = db.borrow_mut();
            match pass.verdict(&mut c, asked, &rows, p) {
                Ok(v) => v,
                Err(e) => {
                    failure.borrow_mut().get_or_insert(e);
                    Some(PassOver::Ineligible)
                }
            }
        });
        if let Some(e) = failure.into_inner() {
            return Err(e);
        }
        let last = pick.is_some() || (rows.len() as i64) < page;
        if offset == 0 {
            first_page = Some(rows);
        }
        if last {
            break pick;
        }
        offset += page;
        page = 64;
    };
    Ok((pick, first_page))
}

impl CallPass {
    /// Whether the listed player `p` may take the asked seat: `None` to call them, else why
    /// they are passed over (keeping their place).
    fn verdict(
        &self,
        c: &mut DbConn,
        asked: &SeatAsked<'_>,
        rows: &[WaitlistRow],
        p: PlayerId,
    ) -> AppResult<Option<PassOver>> {
        let (now, tz, t) = (asked.act.now, asked.act.tz(), asked.t);
        // A player already called to another table (another list) waits for that answer:
        // passed over here, keeping the place (one open call per player).
        let (row, k) = player_checks(c, p, None)?;
        if k.called {
            return Ok(Some(PassOver::AlreadyCalled));
        }
        let why = player_may_sit_row(c, now, tz, t, &row, Some(k));
        *self.checked.borrow_mut() = Some(row);
        if let Some(pass_over) = why? {
            return Ok(Some(pass_over));
        }
        // BSOP 55: who refused a must-move and gave up may not play at that must-move table
        // (the domain has no reason of its own for it: passed over as not able to play
        // here, keeping the place).
        if barred_from_table(c, p, t, Some(k))? {
            return Ok(Some(PassOver::Ineligible));
        }
        if !k.has_pref {
            return Ok(None);
        }
        let entry = rows.iter().find(|r| r.player_id == p).map(|r| r.id);
        prefer_seat(
            c,
            asked.act.profile(),
            t,
            asked.seat_no,
            p,
            entry,
            &self.seats_now,
            &self.offered,
            &self.waiting,
        )
    }
}

/// BSOP 57: with nobody else to call, say why the seat waits rather than "nobody".
fn nobody_to_call(must_move_waits: Option<Problem>, waiting: &[i64]) -> AppError {
    match must_move_waits {
        Some(p) => AppError::Conflict(p),
        // Only players waiting for a preferred seat are left. Their wait is
        // their choice: the seat is not forced on them (the floor may still call one by
        // choice), and no offer is counted against them since nobody else took it.
        None if !waiting.is_empty() => AppError::from(CallRefusal::NobodyButPreferences {
            count: waiting.len(),
        }),
        None => AppError::from(CallRefusal::NobodyToCall),
    }
}

/// The first page as this call leaves it (the called entry no longer waits; only
/// it changes), when it still holds the list's head — the whole list, or enough players
/// not lapsed: the players now next are told from it, without reading the list again.
/// Not when another seat is offered: checking that seat may expire a call there, and the
/// entry of that call waits again.
fn head_after_call(
    first_page: Option<Vec<WaitlistRow>>,
    offered: Option<(PlayerId, i32)>,
    entry_id: Option<EntryId>,
    now: DateTime<Utc>,
) -> Option<Vec<WaitlistRow>> {
    first_page
        .filter(|_| offered.is_none())
        .and_then(|mut rows| {
            let whole = (rows.len() as i64) < HEAD_PAGE;
            rows.retain(|r| Some(r.id) != entry_id);
            let live = rows.iter().filter(|r| !as_entry(r).lapsed(now)).count();
            (whole || live >= messages::NEARLY_NEXT_UP_TO).then_some(rows)
        })
}

/// The seat offered is a free one of this table that fits the player better,
/// when there is one (still free: checked as the asked seat was); else the asked seat.
fn seat_to_call(
    conn: &mut DbConn,
    asked: &SeatAsked<'_>,
    offered: Option<(PlayerId, i32)>,
    player_id: PlayerId,
    entry_id: Option<EntryId>,
) -> i32 {
    let seat_no = asked.seat_no;
    match offered {
        Some((p, s)) if p == player_id && entry_id.is_some() => {
            match check_seat(conn, asked.act, asked.t, s, None, None) {
                Ok(c) if c.hold.is_none() => s,
                _ => seat_no,
            }
        }
        _ => seat_no,
    }
}

/// What the caller of [`create_call`] already read in this write (not read again).
#[derive(Default)]
struct Known {
    /// The called player's row (its alias for the event, the player for the message).
    player: Option<PlayerRow>,
    /// The list's first entries as the call leaves them (see [`notify_heads_of`]).
    head: Option<Vec<WaitlistRow>>,
    /// The game's name (see [`GameName`]).
    game_name: Option<Option<String>>,
}

/// For a listed player who can take this seat and stated a seat preference:
/// `None` to call them (for another free seat of the table when one fits better: noted in
/// `offered`), or `WaitsForSeat` when no free seat fits and they keep their place to wait
/// for one, while they have offers left (noted in `waiting`, counted once someone else is
/// called). Without offers left, or without asking to wait, they are called like anyone.
// The call pass's state (seats now, the seat offered, who waits) is shared across seats.
#[allow(clippy::too_many_arguments)]
fn prefer_seat(
    conn: &mut DbConn,
    profile: &RuleProfile,
    t: &TableRow,
    seat_no: i32,
    player_id: PlayerId,
    entry_id: Option<EntryId>,
    seats_now: &std::cell::RefCell<Option<(Vec<i32>, Vec<i32>)>>,
    offered: &std::cell::Cell<Option<(PlayerId, i32)>>,
    waiting: &std::cell::RefCell<Vec<i64>>,
) -> AppResult<Option<PassOver>> {
    use crate::domain::seat_pref::{fit, waits_for_match, Fit};
    use crate::services::seat_prefs;
    let pref = seat_prefs::get(conn, player_id)?;
    if seats_now.borrow().is_none() {
        let free = free_seats(conn, t)?;
        let accessible = seat_prefs::accessible_seats(conn, t.id)?;
        *seats_now.borrow_mut() = Some((free, accessible));
    }
    let seats = seats_now.borrow();
    let (free, accessible) = seats
        .as_ref()
        .map(|(f, a)| (f.as_slice(), a.as_slice()))
        .unwrap_or_default();
    match fit(&pref, t.number, seat_no, free, accessible) {
        Fit::Any | Fit::Matches => Ok(None),
        Fit::OtherSeat(s) => {
            offered.set(Some((player_id, s)));
            Ok(None)
        }
        Fit::NoMatch => {
            let Some(entry) = entry_id else {
                return Ok(None);
            };
            let passes = seat_prefs::passes(conn, entry)?;
            if waits_for_match(&pref, passes, profile.pref_max_passes) {
                waiting.borrow_mut().push(entry.get());
                Ok(Some(PassOver::WaitsForSeat))
            } else {
                Ok(None)
            }
        }
    }
}

/// The floor calls a player of the list out of order (e.g. the one standing at
/// the desk), saying why. PT-2007 12 and BSOP 51 make list order the rule and the default, so
/// the reason is required and audited with the player who was next in order. Every other rule
/// still holds: the seat must be free, the player eligible (BSOP 1-3, 10), not seated or called
/// elsewhere (BSOP 46), not separated from a player at the table; and a seat a must-move
/// player is due (BSOP 55, 57) is theirs, whoever the floor chooses.
pub fn call_chosen(
    conn: &mut DbConn,
    act: &Act,
    table_id: TableId,
    seat_no: i32,
    entry_id: EntryId,
    reason: &str,
) -> AppResult<SeatCallRow> {
    let (now, tz, actor) = (act.now, act.tz(), &act.actor);
    let reason = reason.trim();
    if reason.is_empty() {
        return Err(AppError::field("reason", "err-required"));
    }
    if reason.chars().count() > 500 {
        return Err(AppError::Validation(vec![FieldError::new(
            "reason",
            "err-too-long",
        )
        .arg("max", 500)]));
    }
    let t = table(conn, table_id)?;
    check_seat(conn, act, &t, seat_no, None, None)?;
    let game_id = t.game_id.ok_or(TableRefusal::NoGame)?;
    let e = entry(conn, entry_id)?;
    if e.game_id != game_id {
        return Err(ListRefusal::EntryOtherGame.into());
    }
    if e.state != EntryState::Waiting || as_entry(&e).lapsed(now) {
        return Err(ListRefusal::EntryNotActive.into());
    }
    let (due, must_move_waits) = must_move_due_for(conn, now, tz, &t, game_id)?;
    if !due.is_empty() && !due.contains(&e.player_id) {
        return Err(AppError::Conflict(
            must_move_waits.unwrap_or_else(|| Problem::from(SeatRefusal::SeatForMustMove)),
        ));
    }
    if let Some(p) = must_move_waits {
        return Err(AppError::Conflict(p));
    }
    let (row, k) = player_checks(conn, e.player_id, None)?;
    if k.called {
        return Err(CallRefusal::AlreadyCalled.into());
    }
    if let Some(p) = player_may_sit_row(conn, now, tz, &t, &row, Some(k))? {
        return Err(pass_over_error(p, conn, now, tz, e.player_id)?);
    }
    if barred_from_table(conn, e.player_id, &t, Some(k))? {
        return Err(SeatRefusal::RefusedMustMoveTable.into());
    }
    // Who list order would have called (for the record): the first waiting entry.
    let next_in_order = waiting_page(conn, game_id, 0, 1)?
        .first()
        .map(|n| n.player_id);
    let call = create_call(
        conn,
        act,
        &t,
        seat_no,
        e.player_id,
        Some(e.id),
        CallSource::List,
        Known {
            player: Some(row.clone()),
            ..Known::default()
        },
    )?;
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "seat.call_out_of_order",
        "player",
        Some(e.player_id.get()),
        None,
        Some(&serde_json::json!({
            "call_id": call.id,
            "table_id": t.id,
            "seat": seat_no,
            "entry_id": e.id,
            "reason": reason,
            "next_in_order_player_id": next_in_order,
        })),
    )?;
    Ok(call)
}

// One seat-call row with what the seating read already knows about the seat.
#[allow(clippy::too_many_arguments)]
fn create_call(
    conn: &mut DbConn,
    act: &Act,
    t: &TableRow,
    seat_no: i32,
    player_id: PlayerId,
    entry_id: Option<EntryId>,
    source: CallSource,
    known: Known,
) -> AppResult<SeatCallRow> {
    let (now, profile, actor) = (act.now, act.profile(), &act.actor);
    let row = SeatCallRow {
        id: SeatCallId(next_seq(conn, "seat_call")?),
        table_id: t.id,
        seat_no,
        player_id,
        entry_id,
        source,
        called_at: now.naive_utc(),
        respond_by: (now + Duration::minutes(profile.seat_call_response_min as i64)).naive_utc(),
        state: CallState::Pending,
        acknowledged_at: None,
        resolved_at: None,
        created_by: actor.id,
        escalated_at: None,
        player_answer: None,
        answered_at: None,
        extended_at: None,
    };
    insert_call_taking_entry(conn, &row)?;
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "seat.call",
        "player",
        Some(player_id.get()),
        None,
        Some(&row),
    )?;
    let alias: String = match known.player.as_ref().filter(|p| p.id == player_id) {
        Some(p) => p.alias.clone(),
        None => crate::native!(conn, |dbc| players::table
            .find(player_id)
            .select(players::alias)
            .first(dbc))?,
    };
    emit(
        conn,
        now,
        Some(t.id),
        "seat.call",
        &serde_json::json!({ "call_id": row.id, "table": t.number, "seat": seat_no, "player_id": player_id,
            "alias": alias, "respond_by": row.respond_by.and_utc(), "source": source }),
    )?;
    tell_about_call(conn, now, t, &row, known)?;
    Ok(row)
}

/// The call, and the list entry it takes (no longer waiting): on PostgreSQL in one
/// statement. The seat already called, or the entry no longer waiting, is refused.
fn insert_call_taking_entry(conn: &mut DbConn, row: &SeatCallRow) -> AppResult<()> {
    let seat_called = |e: diesel::result::Error| {
        if is_unique_violation(&e) {
            AppError::from(SeatRefusal::SeatCalled)
        } else {
            e.into()
        }
    };
    let entry_moved = match (&mut *conn, row.entry_id) {
        (DbConn::Postgres(pg), Some(eid)) => Some(
            crate::db::floor_writes::insert_call_taking_entry(pg, row, eid).map_err(seat_called)?,
        ),
        _ => {
            // Kept prepared (`Cached`): diesel prepares an insert with optional fields
            // afresh on every run otherwise.
            crate::native!(conn, |dbc| crate::db::Cached(
                diesel::insert_into(seat_calls::table)
                    .values(row)
                    .returning(seat_calls::id)
            )
            .get_result::<i64>(dbc))
            .map_err(seat_called)?;
            match row.entry_id {
                Some(eid) => Some(crate::native!(conn, |dbc| crate::db::Cached(
                    diesel::update(
                        waitlist_entries::table
                            .find(eid)
                            .filter(crate::db::conditions::EntryWaiting)
                    )
                    .set(waitlist_entries::state.eq(EntryState::Called))
                    .returning(waitlist_entries::id)
                )
                .changed(dbc))?),
                None => None,
            }
        }
    };
    if entry_moved.is_some_and(|n| n != 1) {
        return Err(ListRefusal::EntryNotActive.into());
    }
    Ok(())
}

/// The called player is told; the players now first on the list are told when the call took
/// an entry; a must-move order shows at the table the player leaves too.
fn tell_about_call(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    t: &TableRow,
    row: &SeatCallRow,
    known: Known,
) -> AppResult<()> {
    let (player_id, seat_no) = (row.player_id, row.seat_no);
    let mut game_name = GameName {
        id: t.game_id,
        name: known.game_name,
    };
    tell_call(conn, now, t, row, &mut game_name, known.player.as_ref())?;
    // The list's head moved on: the players now first in line are told.
    if row.entry_id.is_some() {
        notify_heads_of(conn, now, &mut game_name, None, known.head)?;
    }
    // BSOP 55, 57: a must-move order shows on the tablet of the table the player leaves too.
    if row.source == CallSource::MustMove {
        if let Some(from) = current_seating(conn, player_id)?.filter(|f| f.table_id != t.id) {
            emit(
                conn,
                now,
                Some(from.table_id),
                "seat.move_due",
                &serde_json::json!({ "call_id": row.id, "seat": from.seat_no, "player_id": player_id, "to_table": t.number, "to_seat": seat_no }),
            )?;
        }
    }
    Ok(())
}
