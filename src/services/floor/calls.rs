//! Seat calls (PT-2007 12, BSOP 44, 51, 55, 57): calling the next player for a free seat or
//! one chosen by the floor, the checks a call makes, and the call's life: acknowledged,
//! escalated, confirmed (the player sits), cancelled or expired.

use super::*;
use crate::domain::refusal::{CallRefusal, ListRefusal, SeatRefusal, TableRefusal};
use crate::domain::states::CallSource;
use crate::domain::states::CallState;
use crate::domain::states::EntryState;
use crate::domain::states::SeatChangeState;
use crate::services::Act;

pub(super) fn has_open_call(conn: &mut DbConn, player_id: i64) -> AppResult<bool> {
    Ok(crate::native!(conn, |dbc| seat_calls::table
        .filter(seat_calls::player_id.eq(player_id))
        .filter(call_open!())
        .count()
        .get_result::<i64>(dbc))?
        > 0)
}

/// Cancels open seat calls; the list entries they called go back to waiting, in their place.
pub(super) fn cancel_open_calls(conn: &mut DbConn, act: &Act, call_ids: &[i64]) -> AppResult<()> {
    if call_ids.is_empty() {
        return Ok(());
    }
    let open: Vec<SeatCallRow> = crate::native!(conn, |dbc| seat_calls::table
        .filter(seat_calls::id.eq_any(call_ids))
        .filter(call_open!())
        .select(SeatCallRow::as_select())
        .load(dbc))?;
    cancel_call_rows(conn, act, open)
}

/// [`cancel_open_calls`] for calls read open in this write (and not changed since).
pub(super) fn cancel_call_rows(
    conn: &mut DbConn,
    act: &Act,
    open: Vec<SeatCallRow>,
) -> AppResult<()> {
    let (now, actor) = (act.now, &act.actor);
    for c in open {
        crate::native!(conn, |dbc| crate::db::Cached(
            diesel::update(seat_calls::table.find(c.id))
                .set((
                    seat_calls::state.eq(CallState::Cancelled),
                    seat_calls::resolved_at.eq(Some(now.naive_utc()))
                ))
                .returning(seat_calls::id)
        )
        .changed(dbc))?;
        // The player keeps their place on the list.
        if let Some(eid) = c.entry_id {
            crate::native!(conn, |dbc| crate::db::Cached(
                diesel::update(
                    waitlist_entries::table
                        .find(eid)
                        .filter(waitlist_entries::state.eq(EntryState::Called))
                )
                .set(waitlist_entries::state.eq(EntryState::Waiting))
                .returning(waitlist_entries::id)
            )
            .changed(dbc))?;
        }
        audit::record::<SeatCallRow, ()>(
            conn,
            now,
            actor,
            "seat.call_cancelled",
            "player",
            Some(c.player_id),
            Some(&c),
            None,
        )?;
        emit(
            conn,
            now,
            Some(c.table_id),
            "seat.call_cancelled",
            &serde_json::json!({ "call_id": c.id, "seat": c.seat_no, "player_id": c.player_id }),
        )?;
    }
    Ok(())
}

/// What calling or seating a player asks the database about them first, in one statement
/// with their row ([`player_checks`]): an open seat call (other than `except_call`), a seat
/// held (BSOP 46), and more (statements per call and per seating). The `has_…`
/// answers only tell whether a later check has anything to read: a player with no
/// exclusion, no separation and no must-move refusal on record (nearly everyone) is checked
/// without reading those tables again, and the checks give the same answers as when they
/// read them (see [`player_may_sit_row`], [`barred_from_table`], [`refuse_before_rejoin`]).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct PlayerChecks {
    /// An open seat call (other than the one being answered).
    pub called: bool,
    /// BSOP 46: a seat held now.
    pub seated: bool,
    /// A seat preference stated.
    pub has_pref: bool,
    /// Any exclusion on record (in force or not).
    pub has_bans: bool,
    /// A separation in force (BSOP 47).
    pub has_separations: bool,
    /// Any must-move refusal on record (BSOP 55).
    pub has_refusals: bool,
}

/// The player's row and [`PlayerChecks`], in one statement (`NotFound` for no such player).
pub(super) fn player_checks(
    conn: &mut DbConn,
    player_id: i64,
    except_call: Option<i64>,
) -> AppResult<(PlayerRow, PlayerChecks)> {
    use diesel::dsl::exists;
    let (row, called, seated, has_pref, has_bans, has_separations, has_refusals) =
        crate::native!(conn, |dbc| players::table
            .find(player_id)
            .select((
                PlayerRow::as_select(),
                exists(
                    seat_calls::table
                        .filter(seat_calls::player_id.eq(player_id))
                        .filter(call_open!())
                        .filter(seat_calls::id.ne(except_call.unwrap_or(-1)))
                ),
                exists(
                    seatings::table
                        .filter(seatings::player_id.eq(player_id))
                        .filter(seatings::left_at.is_null())
                ),
                exists(seat_preferences::table.filter(seat_preferences::player_id.eq(player_id))),
                exists(
                    crate::db::schema::exclusions::table
                        .filter(crate::db::schema::exclusions::player_id.eq(player_id))
                ),
                exists(
                    separations::table
                        .filter(separations::removed_at.is_null())
                        .filter(
                            separations::player_a
                                .eq(player_id)
                                .or(separations::player_b.eq(player_id))
                        )
                ),
                exists(
                    must_move_refusals::table.filter(must_move_refusals::player_id.eq(player_id))
                )
            ))
            .first::<(PlayerRow, bool, bool, bool, bool, bool, bool)>(dbc))?;
    Ok((
        row,
        PlayerChecks {
            called,
            seated,
            has_pref,
            has_bans,
            has_separations,
            has_refusals,
        },
    ))
}

pub(super) fn pass_over_error(
    p: PassOver,
    conn: &mut DbConn,
    now: DateTime<Utc>,
    tz: Tz,
    player_id: i64,
) -> AppResult<AppError> {
    Ok(match p {
        PassOver::Ineligible => {
            let pl = registry::get(conn, player_id)?;
            ineligible_error(&registry::eligibility(conn, &pl, now, tz)?)
        }
        PassOver::AlreadySeated => AppError::from(SeatRefusal::AlreadySeated),
        PassOver::Separated => AppError::from(SeatRefusal::SeparatedAtTable),
        PassOver::AlreadyCalled => AppError::from(CallRefusal::AlreadyCalled),
        PassOver::Lapsed => AppError::from(ListRefusal::CallInLapsed),
        PassOver::WaitsForSeat => AppError::from(SeatRefusal::WaitsForPreferredSeat),
    })
}

/// PT-2007 12, BSOP 51: a seat is free — call the next player for it: seat-change requests
/// at this table first (first asked, first served), then, at a main table of a game with a
/// must-move table, the must-move player due (BSOP 55, 57), then the waiting list in order,
/// passing over who cannot take it. The call reserves the seat for the response window and
/// is pushed to the table.
pub fn call_next(
    conn: &mut DbConn,
    act: &Act,
    table_id: i64,
    seat_no: i32,
) -> AppResult<SeatCallRow> {
    let (now, tz, profile) = (act.now, act.tz(), act.profile());
    // The table and its game's name (for the call's message) in one statement.
    let (t, game): (TableRow, Option<String>) = crate::native!(conn, |dbc| card_tables::table
        .left_join(games::table)
        .filter(card_tables::id.eq(table_id))
        .select((TableRow::as_select(), games::name.nullable()))
        .first(dbc))?;
    let seat = check_seat(conn, act, &t, seat_no, None, None)?;
    let game_id = t.game_id.ok_or(TableRefusal::NoGame)?;
    // Seat-change requests of players still seated here and not already called elsewhere
    // (read only when the seat's check saw some).
    let requests: Vec<(i64, chrono::NaiveDateTime)> = if seat.seat_changes {
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
    let here: Vec<i64> = if requests.is_empty() {
        Vec::new()
    } else {
        seated_at(conn, table_id)?
            .iter()
            .map(|s| s.player_id)
            .collect()
    };
    let mut changes: Vec<(i64, DateTime<Utc>)> = Vec::new();
    for (p, at) in requests {
        if here.contains(&p) && !has_open_call(conn, p)? {
            changes.push((p, at.and_utc()));
        }
    }
    // BSOP 55, 57: a seat at a main game goes to the must-move players first.
    let (due, must_move_waits) = must_move_due_for(conn, now, tz, &t, game_id)?;
    // The domain picks in order; whether a listed player may take this seat needs the
    // database, asked lazily (only until someone can), reading the list a page at a time.
    // A short first page (the next player is usually among the first few), longer ones after.
    let mut page = HEAD_PAGE;
    let mut offset = 0;
    // The list's first page as read here (for the players told they are next, below).
    let mut first_page: Option<Vec<WaitlistRow>> = None;
    // The last listed player checked, kept for the call (their alias: no second read).
    let checked: std::cell::RefCell<Option<PlayerRow>> = std::cell::RefCell::new(None);
    // The table's free and accessible seats (read once, for the first player
    // with a preference), another seat offered to a player it fits better, and the entries
    // passed over because their players wait for a preferred seat.
    let seats_now: std::cell::RefCell<Option<(Vec<i32>, Vec<i32>)>> = Default::default();
    let offered: std::cell::Cell<Option<(i64, i32)>> = Default::default();
    let waiting: std::cell::RefCell<Vec<i64>> = Default::default();
    let pick = loop {
        let rows = waiting_page(conn, game_id, offset, page)?;
        let domain: Vec<Entry> = rows.iter().map(as_entry).collect();
        let db = std::cell::RefCell::new(&mut *conn);
        let failure = std::cell::RefCell::new(None);
        let pick = waitlist::next_for_seat(&changes, &due, &domain, now, |p| {
            let mut c = db.borrow_mut();
            // A player already called to another table (another list) waits for that answer:
            // passed over here, keeping the place (one open call per player).
            let verdict = match player_checks(&mut c, p, None) {
                Ok((_, k)) if k.called => Ok(Some(PassOver::AlreadyCalled)),
                Ok((row, k)) => {
                    let why = player_may_sit_row(&mut c, now, tz, &t, &row, Some(k));
                    *checked.borrow_mut() = Some(row);
                    match why {
                        // BSOP 55: who refused a must-move and gave up may not play at
                        // that must-move table (the domain has no reason of its own for it:
                        // passed over as not able to play here, keeping the place).
                        Ok(None) => barred_from_table(&mut c, p, &t, Some(k)).and_then(|barred| {
                            if barred {
                                return Ok(Some(PassOver::Ineligible));
                            }
                            if !k.has_pref {
                                return Ok(None);
                            }
                            let entry = rows.iter().find(|r| r.player_id == p).map(|r| r.id);
                            prefer_seat(
                                &mut c, profile, &t, seat_no, p, entry, &seats_now, &offered,
                                &waiting,
                            )
                        }),
                        other => other,
                    }
                }
                Err(e) => Err(e),
            };
            match verdict {
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
    let waiting = waiting.into_inner();
    let Some(candidate) = pick else {
        // BSOP 57: with nobody else to call, say why the seat waits rather than "nobody".
        return Err(match must_move_waits {
            Some(p) => AppError::Conflict(p),
            // Only players waiting for a preferred seat are left. Their wait is
            // their choice: the seat is not forced on them (the floor may still call one by
            // choice), and no offer is counted against them since nobody else took it.
            None if !waiting.is_empty() => AppError::from(CallRefusal::NobodyButPreferences {
                count: waiting.len(),
            }),
            None => AppError::from(CallRefusal::NobodyToCall),
        });
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
        } => (player_id, Some(entry_id), CallSource::List),
    };
    // The first page as this call leaves it (the called entry no longer waits; only
    // it changes), when it still holds the list's head — the whole list, or enough players
    // not lapsed: the players now next are told from it, without reading the list again.
    // Not when another seat is offered: checking that seat may expire a call there, and the
    // entry of that call waits again.
    let head = first_page
        .filter(|_| offered.get().is_none())
        .and_then(|mut rows| {
            let whole = (rows.len() as i64) < HEAD_PAGE;
            rows.retain(|r| Some(r.id) != entry_id);
            let live = rows.iter().filter(|r| !as_entry(r).lapsed(now)).count();
            (whole || live >= messages::NEARLY_NEXT_UP_TO).then_some(rows)
        });
    let player = checked.into_inner().filter(|p| p.id == player_id);
    // The seat offered is a free one of this table that fits the player better,
    // when there is one (still free: checked as the asked seat was).
    let seat = match offered.get() {
        Some((p, s)) if p == player_id && entry_id.is_some() => {
            match check_seat(conn, act, &t, s, None, None) {
                Ok(c) if c.hold.is_none() => s,
                _ => seat_no,
            }
        }
        _ => seat_no,
    };
    // Each player who let this seat go by to wait for a preferred one has one offer fewer.
    for e in waiting {
        crate::services::seat_prefs::count_pass(conn, act, e, t.id, seat)?;
    }
    let known = Known {
        player,
        head,
        game_name: Some(game),
    };
    create_call(conn, act, &t, seat, player_id, entry_id, source, known)
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
    player_id: i64,
    entry_id: Option<i64>,
    seats_now: &std::cell::RefCell<Option<(Vec<i32>, Vec<i32>)>>,
    offered: &std::cell::Cell<Option<(i64, i32)>>,
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
                waiting.borrow_mut().push(entry);
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
    table_id: i64,
    seat_no: i32,
    entry_id: i64,
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
        Some(e.player_id),
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
    player_id: i64,
    entry_id: Option<i64>,
    source: CallSource,
    known: Known,
) -> AppResult<SeatCallRow> {
    let (now, profile, actor) = (act.now, act.profile(), &act.actor);
    let row = SeatCallRow {
        id: next_seq(conn, "seat_call")?,
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
    let seat_called = |e: diesel::result::Error| {
        if is_unique_violation(&e) {
            AppError::from(SeatRefusal::SeatCalled)
        } else {
            e.into()
        }
    };
    // The call and the entry it takes: on PostgreSQL in one statement.
    let entry_moved = match (&mut *conn, entry_id) {
        (DbConn::Postgres(pg), Some(eid)) => Some(
            crate::db::floor_writes::insert_call_taking_entry(pg, &row, eid)
                .map_err(seat_called)?,
        ),
        _ => {
            // Kept prepared (`Cached`): diesel prepares an insert with optional fields
            // afresh on every run otherwise.
            crate::native!(conn, |dbc| crate::db::Cached(
                diesel::insert_into(seat_calls::table)
                    .values(&row)
                    .returning(seat_calls::id)
            )
            .get_result::<i64>(dbc))
            .map_err(seat_called)?;
            match entry_id {
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
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "seat.call",
        "player",
        Some(player_id),
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
    let mut game_name = GameName {
        id: t.game_id,
        name: known.game_name,
    };
    tell_call(conn, now, t, &row, &mut game_name, known.player.as_ref())?;
    // The list's head moved on: the players now first in line are told.
    if entry_id.is_some() {
        notify_heads_of(conn, now, &mut game_name, None, known.head)?;
    }
    // BSOP 55, 57: a must-move order shows on the tablet of the table the player leaves too.
    if source == CallSource::MustMove {
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
    Ok(row)
}

/// The dealer at the table acknowledges a seat call (the tablet got it and the seat is kept
/// for the player). `at_table`: the tablet's table — a call for another table is not theirs.
/// Acknowledging twice is harmless (the first time is kept).
pub fn acknowledge_call(
    conn: &mut DbConn,
    act: &Act,
    call_id: i64,
    at_table: Option<i64>,
) -> AppResult<SeatCallRow> {
    let (now, actor) = (act.now, &act.actor);
    let c = call(conn, call_id)?;
    if at_table.is_some_and(|t| t != c.table_id) {
        return Err(AppError::NotFound);
    }
    match c.state {
        CallState::Acknowledged => return Ok(c),
        CallState::Pending => {}
        _ => return Err(CallRefusal::CallNotOpen.into()),
    }
    // The response window is over by the clock: nothing left to acknowledge, even before the
    // scheduler marks the call expired.
    if c.respond_by.and_utc() <= now {
        return Err(CallRefusal::CallExpired.into());
    }
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(
            seat_calls::table
                .find(call_id)
                .filter(seat_calls::state.eq(CallState::Pending))
        )
        .set((
            seat_calls::state.eq(CallState::Acknowledged),
            seat_calls::acknowledged_at.eq(Some(now.naive_utc()))
        ))
        .returning(seat_calls::id)
    )
    .changed(dbc))?;
    let after = call(conn, call_id)?;
    audit::record(
        conn,
        now,
        actor,
        "seat.call_ack",
        "player",
        Some(c.player_id),
        Some(&c),
        Some(&after),
    )?;
    emit(
        conn,
        now,
        Some(c.table_id),
        "seat.call_ack",
        &serde_json::json!({ "call_id": c.id, "seat": c.seat_no, "player_id": c.player_id }),
    )?;
    Ok(after)
}

/// Seat calls the table has not acknowledged within the profile's
/// `seat_call_ack_escalation_min`: marked once, audited, and pushed so the floor dashboard
/// shows them escalated.
pub(super) fn escalate_unacknowledged(conn: &mut DbConn, act: &Act) -> AppResult<usize> {
    let (now, profile, system) = (act.now, act.profile(), &act.actor);
    let limit = (now - Duration::minutes(profile.seat_call_ack_escalation_min as i64)).naive_utc();
    let late: Vec<SeatCallRow> = crate::native!(conn, |dbc| seat_calls::table
        .filter(crate::db::conditions::CallPending)
        .filter(seat_calls::escalated_at.is_null())
        .filter(seat_calls::called_at.le(limit))
        .select(SeatCallRow::as_select())
        .load(dbc))?;
    for c in &late {
        crate::native!(conn, |dbc| crate::db::Cached(
            diesel::update(seat_calls::table.find(c.id))
                .set(seat_calls::escalated_at.eq(Some(now.naive_utc())))
                .returning(seat_calls::id)
        )
        .changed(dbc))?;
        let after = call(conn, c.id)?;
        audit::record(
            conn,
            now,
            system,
            "seat.call_escalated",
            "player",
            Some(c.player_id),
            Some(c),
            Some(&after),
        )?;
        emit(
            conn,
            now,
            Some(c.table_id),
            "seat.call_escalated",
            &serde_json::json!({ "call_id": c.id, "seat": c.seat_no, "player_id": c.player_id }),
        )?;
    }
    Ok(late.len())
}

/// The called player arrived: the floor (or the dealer) confirms the seating (BSOP 44).
/// A must-move call (BSOP 55) moves the player from the must-move table and a seat-change
/// call (PT-2007 12, BSOP 51) moves them within their table: the old seating ends and the new
/// one starts in the same transaction, so the player never holds two seats (BSOP 46).
pub fn confirm_call(conn: &mut DbConn, act: &Act, call_id: i64) -> AppResult<SeatingRow> {
    let now = act.now;
    // The call and its table in one statement (statements per seating).
    let (c, t): (SeatCallRow, TableRow) = crate::native!(conn, |dbc| seat_calls::table
        .inner_join(card_tables::table.on(card_tables::id.eq(seat_calls::table_id)))
        .filter(seat_calls::id.eq(call_id))
        .select((SeatCallRow::as_select(), TableRow::as_select()))
        .first(dbc))?;
    if !c.state.is_open() {
        return Err(CallRefusal::CallNotOpen.into());
    }
    // The response window is over: the call is expired even before the scheduler says so.
    if c.respond_by.and_utc() <= now {
        return Err(CallRefusal::CallExpired.into());
    }
    let seating = match c.source {
        CallSource::MustMove | CallSource::SeatChange => {
            let from = current_seating(conn, c.player_id)?.ok_or(CallRefusal::MoveNotSeated)?;
            let kind = if c.source == CallSource::MustMove {
                // The player must still be at the game's must-move table, of the same limit
                // as this one (BSOP 55; a limit may have changed since the call, PT-2007 22).
                let ft = table(conn, from.table_id)?;
                if !ft.must_move || ft.game_id != t.game_id {
                    return Err(CallRefusal::MoveNotSeated.into());
                }
                if !same_limits(conn, &ft, &t, t.game_id.unwrap_or_default())? {
                    return Err(CallRefusal::MoveOtherLimit.into());
                }
                Move::MustMove
            } else {
                if from.table_id != t.id {
                    return Err(CallRefusal::MoveNotSeated.into());
                }
                Move::SeatChange
            };
            move_player(conn, act, &from, &t, c.seat_no, Some(c.id), kind)?
        }
        _ => seat_player(
            conn,
            act,
            &t,
            c.seat_no,
            c.player_id,
            c.entry_id,
            Some(c.id),
        )?,
    };
    let n = crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(seat_calls::table.find(call_id).filter(call_open!()))
            .set((
                seat_calls::state.eq(CallState::Seated),
                seat_calls::resolved_at.eq(Some(now.naive_utc()))
            ))
            .returning(seat_calls::id)
    )
    .changed(dbc))?;
    if n != 1 {
        return Err(CallRefusal::CallNotOpen.into());
    }
    if c.source == CallSource::SeatChange {
        crate::native!(conn, |dbc| crate::db::Cached(
            diesel::update(
                seat_change_requests::table
                    .filter(seat_change_requests::player_id.eq(c.player_id))
                    .filter(crate::db::conditions::SeatChangeOpen)
            )
            .set((
                seat_change_requests::state.eq(SeatChangeState::Served),
                seat_change_requests::resolved_at.eq(Some(now.naive_utc()))
            ))
            .returning(seat_change_requests::id)
        )
        .changed(dbc))?;
    }
    Ok(seating)
}

/// Ends a seat call whose response window is over: expired, the player to the bottom of the
/// list or off it as the room decided, told so, and the table told. The scheduler does this
/// for every due call; an action on the seat does it for that seat's call at once (the clock
/// decides, not whether the scheduler has run). False when the call was no longer open.
pub(super) fn expire_call(conn: &mut DbConn, act: &Act, c: &SeatCallRow) -> AppResult<bool> {
    let (now, profile, system) = (act.now, act.profile(), &act.actor);
    let n = crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(seat_calls::table.find(c.id).filter(call_open!()))
            .set((
                seat_calls::state.eq(CallState::Expired),
                seat_calls::resolved_at.eq(Some(now.naive_utc()))
            ))
            .returning(seat_calls::id)
    )
    .changed(dbc))?;
    if n != 1 {
        return Ok(false);
    }
    audit::record::<SeatCallRow, ()>(
        conn,
        now,
        system,
        "seat.call_expired",
        "player",
        Some(c.player_id),
        Some(c),
        None,
    )?;
    if let Some(eid) = c.entry_id.filter(|_| c.source == CallSource::List) {
        let e = entry(conn, eid)?;
        match profile.call_expiry {
            CallExpiry::Remove => {
                end_entry(
                    conn,
                    act,
                    &e,
                    "removed",
                    "call expired",
                    "list.call_expired",
                )?;
            }
            CallExpiry::BottomOfList => {
                let key = bottom_key(conn, e.game_id)?;
                crate::native!(conn, |dbc| crate::db::Cached(
                    diesel::update(waitlist_entries::table.find(eid))
                        .set((
                            waitlist_entries::state.eq(EntryState::Waiting),
                            waitlist_entries::order_key.eq(key)
                        ))
                        .returning(waitlist_entries::id)
                )
                .changed(dbc))?;
                let note = serde_json::json!({ "call_id": c.id, "to": "bottom" });
                audit::record::<(), _>(
                    conn,
                    now,
                    system,
                    "list.call_expired",
                    "player",
                    Some(e.player_id),
                    None,
                    Some(&note),
                )?;
                notify_heads(conn, now, e.game_id, None)?;
            }
        }
        let number = table(conn, c.table_id)?.number;
        let back = profile.call_expiry == CallExpiry::BottomOfList;
        tell_entry(conn, now, &e, Kind::CallExpired, |p| {
            p.table = Some(number);
            p.back_on_list = Some(back);
        })?;
    }
    emit(
        conn,
        now,
        Some(c.table_id),
        "seat.call_expired",
        &serde_json::json!({ "call_id": c.id, "seat": c.seat_no, "player_id": c.player_id }),
    )?;
    Ok(true)
}
