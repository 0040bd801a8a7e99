//! Waiting lists (PT-2007 8a, BSOP 43): each game's list with places and wait estimates,
//! joining, leaving, removal and its undo, reordering, and call-ins checking in.

use super::*;
use crate::domain::ids::EntryId;
use crate::domain::ids::GameId;
use crate::domain::ids::PlayerId;
use crate::domain::ids::SeatCallId;
use crate::domain::refusal::{ListRefusal, SeatRefusal};
use crate::domain::states::EntryState;
use crate::domain::states::ListSource;
use crate::services::Act;

/// One line of a waiting list as pages and the API show it.
#[derive(Debug, Clone, Serialize)]
pub struct ListLine {
    pub entry: WaitlistRow,
    pub player: PlayerRow,
    pub place: Place,
    /// The wait shown for this place (`services::waits`; None: no table of the game in
    /// play).
    pub wait: Option<crate::domain::waits::WaitEstimate>,
    /// The player's seat preference, for the floor to see.
    pub pref: Option<crate::services::seat_prefs::PrefSummary>,
}

/// PT-2007 8a: a game's list in order, with each player's place (one computation for every
/// page, the API and the player's link), and each place's wait from `models` (None: no wait
/// figures, for the rules that only need the order).
pub fn list(
    conn: &mut DbConn,
    models: Option<&crate::services::waits::Models>,
    game_id: GameId,
    now: DateTime<Utc>,
) -> AppResult<Vec<ListLine>> {
    game(conn, game_id)?;
    let rows: Vec<(WaitlistRow, PlayerRow)> = crate::native!(conn, |dbc| waitlist_entries::table
        .inner_join(players::table)
        .filter(waitlist_entries::game_id.eq(game_id))
        .filter(entry_active!())
        .select((WaitlistRow::as_select(), PlayerRow::as_select()))
        .load(dbc))?;
    let domain: Vec<Entry> = rows.iter().map(|(e, _)| as_entry(e)).collect();
    let waits = match models {
        Some(m) => Some(crate::services::waits::of_game(conn, m, now, game_id)?),
        None => None,
    };
    let prefs = crate::services::seat_prefs::of_players(
        conn,
        &rows.iter().map(|(e, _)| e.player_id).collect::<Vec<_>>(),
    )?;
    let mut by_id: std::collections::HashMap<i64, (WaitlistRow, PlayerRow)> =
        rows.into_iter().map(|r| (r.0.id.get(), r)).collect();
    Ok(waitlist::positions(&domain, now)
        .into_iter()
        .filter_map(|(id, place)| {
            by_id.remove(&id).map(|(entry, player)| ListLine {
                pref: prefs
                    .get(&player.id)
                    .and_then(crate::services::seat_prefs::PrefSummary::of),
                entry,
                player,
                place,
                wait: waits.as_ref().and_then(|w| w.for_ahead(place.ahead)),
            })
        })
        .collect())
}

/// One entry's place on its game's list, as [`list`] and
/// the dashboard give it (`domain::waitlist::positions` over the game's active entries:
/// list order by key, then joining time, then id; lapsed call-ins left out), counted in the
/// database instead of loading the list: the entries before this one, and all of them
/// (`tests/http/invariants.rs` checks both ways agree). For the player's own link: reads no
/// other player's record. None: the entry is not on the list (ended, or a lapsed call-in).
pub fn place_of(
    conn: &mut DbConn,
    game_id: GameId,
    entry_id: EntryId,
    now: DateTime<Utc>,
) -> AppResult<Option<Place>> {
    let Some(e) = crate::native!(conn, |dbc| waitlist_entries::table
        .find(entry_id)
        .filter(waitlist_entries::game_id.eq(game_id))
        .filter(entry_active!())
        .select(WaitlistRow::as_select())
        .first(dbc)
        .optional())?
    else {
        return Ok(None);
    };
    if as_entry(&e).lapsed(now) {
        return Ok(None);
    }
    let t = now.naive_utc();
    let (k, j, id) = (e.order_key, e.joined_at, e.id);
    let ahead: i64 = crate::native!(conn, |dbc| waitlist_entries::table
        .filter(waitlist_entries::game_id.eq(game_id))
        .filter(entry_active!())
        .filter(
            waitlist_entries::call_in_expires_at
                .is_null()
                .or(waitlist_entries::checked_in_at.is_not_null())
                .or(waitlist_entries::call_in_expires_at.gt(t)),
        )
        .filter(
            waitlist_entries::order_key
                .lt(k)
                .or(waitlist_entries::order_key
                    .eq(k)
                    .and(waitlist_entries::joined_at.lt(j)))
                .or(waitlist_entries::order_key
                    .eq(k)
                    .and(waitlist_entries::joined_at.eq(j))
                    .and(waitlist_entries::id.lt(id))),
        )
        .count()
        .get_result(dbc))?;
    let of = place_at_bottom(conn, now, game_id)?;
    let place = Place {
        position: ahead as usize + 1,
        ahead: ahead as usize,
        of: of as usize,
    };
    Ok(Some(place))
}

/// BSOP 43: the player leaves a list from their own link ("leave this list"): ended as the
/// floor's removal ends it ([`remove`]: an open call for it is cancelled, the entry is
/// `removed` with the reason, audited as `list.leave` with the player as the actor, pushed),
/// without the "removed" message — the player did it and sees it on the page.
pub fn leave_by_player(conn: &mut DbConn, act: &Act, entry_id: EntryId) -> AppResult<WaitlistRow> {
    let e = entry(conn, entry_id)?;
    if !e.state.is_active() {
        return Err(ListRefusal::EntryNotActive.into());
    }
    cancel_calls_of_entry(conn, act, entry_id)?;
    end_entry(
        conn,
        act,
        &e,
        EntryState::Removed,
        LEFT_BY_PLAYER,
        "list.leave",
    )
}

/// The end reason of an entry the player left from their link.
pub const LEFT_BY_PLAYER: &str = "left by the player";

/// Adds a registered, eligible player to a game's list, at the desk or as a call-in that
/// lapses unless the player checks in (profile `call_in_expiry_min`).
pub fn join(
    conn: &mut DbConn,
    act: &Act,
    game_id: GameId,
    player_id: PlayerId,
    call_in: bool,
) -> AppResult<WaitlistRow> {
    let (now, tz, profile, actor) = (act.now, act.tz(), act.profile(), &act.actor);
    let g = game(conn, game_id).map_err(|e| match e {
        AppError::NotFound => AppError::field("game_id", "err-game-unknown"),
        e => e,
    })?;
    if !g.active {
        return Err(ListRefusal::GameInactive.into());
    }
    let p = registry::get(conn, player_id).map_err(|e| match e {
        AppError::NotFound => AppError::field("player_id", "err-player-unknown"),
        e => e,
    })?;
    // BSOP 1, 2, 3, 10: banned or ineligible players cannot be added, with the reasons.
    let why = registry::eligibility(conn, &p, now, tz)?;
    if !why.is_empty() {
        return Err(ineligible_error(&why));
    }
    // BSOP 55: a must-move player who refused to move and chose to come back later may
    // re-join this game's list only after the return window (one hour).
    refuse_before_rejoin(conn, profile, tz, game_id, player_id, now)?;
    let already: i64 = crate::native!(conn, |dbc| waitlist_entries::table
        .filter(waitlist_entries::game_id.eq(game_id))
        .filter(waitlist_entries::player_id.eq(player_id))
        .filter(entry_active!())
        .count()
        .get_result(dbc))?;
    if already > 0 {
        return Err(ListRefusal::AlreadyOnList.into());
    }
    let row = WaitlistRow {
        id: EntryId(next_seq(conn, "waitlist")?),
        game_id,
        player_id,
        order_key: bottom_key(conn, game_id)?,
        joined_at: now.naive_utc(),
        source: if call_in {
            ListSource::CallIn
        } else {
            ListSource::Desk
        },
        call_in_expires_at: call_in
            .then(|| (now + Duration::minutes(profile.call_in_expiry_min as i64)).naive_utc()),
        checked_in_at: None,
        state: EntryState::Waiting,
        ended_at: None,
        end_reason: None,
        created_by: actor.id,
    };
    crate::native!(conn, |dbc| diesel::insert_into(waitlist_entries::table)
        .values(&row)
        .execute(dbc))
    .map_err(|e| {
        if is_unique_violation(&e) {
            AppError::from(ListRefusal::AlreadyOnList)
        } else {
            e.into()
        }
    })?;
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "list.join",
        "player",
        Some(player_id.get()),
        None,
        Some(&row),
    )?;
    emit(
        conn,
        now,
        None,
        "list.changed",
        &serde_json::json!({ "game_id": game_id }),
    )?;
    // BSOP 43: the player is told the place and gets the link to follow it.
    let place = place_at_bottom(conn, now, game_id)?;
    tell_entry(conn, now, &row, Kind::Added, |p| p.position = Some(place))?;
    notify_heads(conn, now, game_id, Some(row.id))?;
    Ok(row)
}

pub(super) fn end_entry(
    conn: &mut DbConn,
    act: &Act,
    e: &WaitlistRow,
    state: EntryState,
    reason: &str,
    action: &str,
) -> AppResult<WaitlistRow> {
    let now = act.now;
    let n = crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(waitlist_entries::table.find(e.id).filter(entry_active!()))
            .set((
                waitlist_entries::state.eq(state),
                waitlist_entries::ended_at.eq(Some(now.naive_utc())),
                waitlist_entries::end_reason.eq(Some(reason)),
            ))
            .returning(waitlist_entries::id)
    )
    .changed(dbc))?;
    if n != 1 {
        return Err(ListRefusal::EntryNotActive.into());
    }
    let after = entry(conn, e.id)?;
    list_changed(conn, act, action, e, &after)?;
    notify_heads(conn, now, e.game_id, None)?;
    Ok(after)
}

/// A list entry changed: the audit record (before and after) and the event the floor's
/// board and the players' pages follow.
fn list_changed(
    conn: &mut DbConn,
    act: &Act,
    action: &str,
    before: &WaitlistRow,
    after: &WaitlistRow,
) -> AppResult<()> {
    let (now, actor) = (act.now, &act.actor);
    audit::record(
        conn,
        now,
        actor,
        action,
        "player",
        Some(before.player_id.get()),
        Some(before),
        Some(after),
    )?;
    emit(
        conn,
        now,
        None,
        "list.changed",
        &serde_json::json!({ "game_id": before.game_id }),
    )?;
    Ok(())
}

/// Takes a player off a list (their choice or the floor's), with a reason.
pub fn remove(
    conn: &mut DbConn,
    act: &Act,
    entry_id: EntryId,
    reason: &str,
) -> AppResult<WaitlistRow> {
    let now = act.now;
    let e = entry(conn, entry_id)?;
    let reason = reason.trim();
    if reason.is_empty() {
        return Err(AppError::field("reason", "err-required"));
    }
    // A pending call for this entry is cancelled with it.
    cancel_calls_of_entry(conn, act, entry_id)?;
    let after = end_entry(conn, act, &e, EntryState::Removed, reason, "list.remove")?;
    tell_entry(conn, now, &e, Kind::Removed, |_| {})?;
    Ok(after)
}

/// How long after a removal from a list the floor may undo it (a slip of the
/// hand on a busy night is put right at once, before anyone else moved up for long).
pub const UNDO_REMOVAL_SECS: i64 = 10;

/// Undoes a removal from a list made less than [`UNDO_REMOVAL_SECS`] ago: the entry waits
/// again at its old place (its order key is kept: PT-2007 12, BSOP 51 order is unchanged).
/// A call the removal cancelled stays cancelled (the seat was freed for someone else). Refused
/// when the player is on that list again, seated at the game, or the time has passed.
pub fn restore(conn: &mut DbConn, act: &Act, entry_id: EntryId) -> AppResult<WaitlistRow> {
    let now = act.now;
    let e = entry(conn, entry_id)?;
    let recent = e
        .ended_at
        .is_some_and(|t| (now - t.and_utc()).num_seconds() <= UNDO_REMOVAL_SECS);
    if e.state != EntryState::Removed || !recent {
        return Err(ListRefusal::UndoTooLate.into());
    }
    let seated: bool = crate::native!(conn, |dbc| diesel::select(diesel::dsl::exists(
        seatings::table
            .filter(seatings::player_id.eq(e.player_id))
            .filter(seatings::left_at.is_null())
    ))
    .get_result(dbc))?;
    if seated {
        return Err(SeatRefusal::AlreadySeated.into());
    }
    let n = crate::native!(conn, |dbc| diesel::update(
        waitlist_entries::table
            .find(e.id)
            .filter(waitlist_entries::state.eq(EntryState::Removed))
    )
    .set((
        waitlist_entries::state.eq(EntryState::Waiting),
        waitlist_entries::ended_at.eq(None::<chrono::NaiveDateTime>),
        waitlist_entries::end_reason.eq(None::<String>),
    ))
    .execute(dbc))
    .map_err(|e| {
        if is_unique_violation(&e) {
            AppError::from(ListRefusal::AlreadyOnList)
        } else {
            e.into()
        }
    })?;
    if n != 1 {
        return Err(ListRefusal::UndoTooLate.into());
    }
    let after = entry(conn, e.id)?;
    list_changed(conn, act, "list.restore", &e, &after)?;
    // The player was told they left the list: they are told they are back, at which place.
    let place = place_of(conn, after.game_id, after.id, now)?.map(|p| p.position);
    tell_entry(conn, now, &after, Kind::Added, |p| {
        p.position = place.map(|n| n as i64)
    })?;
    notify_heads(conn, now, e.game_id, None)?;
    Ok(after)
}

pub(super) fn cancel_calls_of_entry(
    conn: &mut DbConn,
    act: &Act,
    entry_id: EntryId,
) -> AppResult<()> {
    let ids: Vec<SeatCallId> = crate::native!(conn, |dbc| seat_calls::table
        .filter(seat_calls::entry_id.eq(entry_id))
        .filter(call_open!())
        .select(seat_calls::id)
        .load(dbc))?;
    cancel_open_calls(conn, act, &ids)
}

/// Moves a player to another place on the list; the floor must say why (audited).
pub fn reorder(
    conn: &mut DbConn,
    act: &Act,
    entry_id: EntryId,
    position: i64,
    reason: &str,
) -> AppResult<()> {
    let (now, actor) = (act.now, &act.actor);
    let e = entry(conn, entry_id)?;
    if !e.state.is_active() {
        return Err(ListRefusal::EntryNotActive.into());
    }
    if reason.trim().is_empty() {
        return Err(AppError::field("reason", "err-required"));
    }
    if position < 1 {
        return Err(AppError::Validation(vec![FieldError::new(
            "position",
            "err-range",
        )
        .arg("min", 1)
        .arg("max", 9999)]));
    }
    let rows = entries(conn, e.game_id)?;
    // Positions as the screens show them: lapsed call-ins do not count.
    let domain: Vec<Entry> = rows
        .iter()
        .map(as_entry)
        .filter(|x| !x.lapsed(now))
        .collect();
    let before = waitlist::place_of(&domain, entry_id.get(), now);
    for (id, key) in waitlist::reorder(&domain, entry_id.get(), position as usize) {
        crate::native!(conn, |dbc| crate::db::Cached(
            diesel::update(waitlist_entries::table.find(id))
                .set(waitlist_entries::order_key.eq(key))
                .returning(waitlist_entries::id)
        )
        .changed(dbc))?;
    }
    let note = serde_json::json!({ "entry_id": entry_id, "from": before.map(|p| p.position), "to": position, "reason": reason.trim() });
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "list.reorder",
        "player",
        Some(e.player_id.get()),
        None,
        Some(&note),
    )?;
    emit(
        conn,
        now,
        None,
        "list.changed",
        &serde_json::json!({ "game_id": e.game_id }),
    )?;
    notify_heads(conn, now, e.game_id, None)?;
    Ok(())
}

/// A call-in arrives at the desk: their entry no longer lapses.
pub fn check_in(conn: &mut DbConn, act: &Act, entry_id: EntryId) -> AppResult<WaitlistRow> {
    let now = act.now;
    let e = entry(conn, entry_id)?;
    if !e.state.is_active() || e.checked_in_at.is_some() || e.source != ListSource::CallIn {
        return Err(ListRefusal::EntryNotCallIn.into());
    }
    if e.call_in_expires_at.is_some_and(|t| t.and_utc() <= now) {
        return Err(ListRefusal::CallInLapsed.into());
    }
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(waitlist_entries::table.find(entry_id))
            .set(waitlist_entries::checked_in_at.eq(Some(now.naive_utc())))
            .returning(waitlist_entries::id)
    )
    .changed(dbc))?;
    let after = entry(conn, entry_id)?;
    list_changed(conn, act, "list.check_in", &e, &after)?;
    Ok(after)
}
