//! The dashboard's steps: the room's seats read at once and laid out table by table, then
//! each game's list with the players it shows, its suggested table and the tables it may open.

use super::*;
use crate::domain::ids::EntryId;
use crate::domain::ids::GameId;
use crate::domain::ids::PlayerId;
use crate::domain::ids::TableId;
use crate::domain::seat_pref::SeatPreference;
use crate::services::waits::GameWaits;
use std::collections::HashMap;

/// The active tables by number, each with its game.
pub(super) fn active_tables(conn: &mut DbConn) -> AppResult<Vec<(TableRow, Option<GameRow>)>> {
    Ok(crate::native!(conn, |dbc| card_tables::table
        .left_join(games::table)
        .filter(card_tables::active.eq(true))
        .order(card_tables::number.asc())
        .select((TableRow::as_select(), Option::<GameRow>::as_select()))
        .load(dbc))?)
}

/// Who sits at, is called to or holds each seat of the room (by table id and seat number),
/// the open seat-change requests, the seat preferences and the dealers on shift.
pub(super) struct RoomSeats {
    seated: HashMap<(TableId, i32), (SeatingRow, String)>,
    /// The seated player's full name and table-side state.
    names: HashMap<(TableId, i32), (String, SeatSideRow)>,
    calls: HashMap<(TableId, i32), (SeatCallRow, String)>,
    holds: HashMap<(TableId, i32), (SeatHoldRow, Option<String>)>,
    /// By table id and player id: the request's id.
    changes: HashMap<(TableId, PlayerId), i64>,
    pub(super) prefs: HashMap<PlayerId, SeatPreference>,
    dealers: HashMap<TableId, String>,
}

/// Every open seating, call, hold and seat-change request of the room, the stated seat
/// preferences and the dealers on shift: one read each, whatever the room's size.
pub(super) fn read_room_seats(conn: &mut DbConn) -> AppResult<RoomSeats> {
    let (seated, names) = read_seated(conn)?;
    let calls = read_calls(conn)?;
    let holds: Vec<(SeatHoldRow, Option<String>)> = crate::native!(conn, |dbc| seat_holds::table
        .left_join(players::table.on(players::id.nullable().eq(seat_holds::player_id)))
        .filter(seat_holds::released_at.is_null())
        .select((SeatHoldRow::as_select(), players::alias.nullable()))
        .load(dbc))?;
    let changes: Vec<(i64, TableId, PlayerId)> =
        crate::native!(conn, |dbc| seat_change_requests::table
            .filter(crate::db::conditions::SeatChangeOpen)
            .select((
                seat_change_requests::id,
                seat_change_requests::table_id,
                seat_change_requests::player_id
            ))
            .load(dbc))?;
    // Every stated seat preference (only players who stated one have a row),
    // for the calls and lists shown: one statement whatever the room's size.
    let prefs = crate::services::seat_prefs::all(conn)?;
    let dealers: Vec<(TableId, String)> = crate::native!(conn, |dbc| dealer_shifts::table
        .inner_join(staff::table)
        .filter(dealer_shifts::ended_at.is_null())
        .select((dealer_shifts::table_id, staff::display_name))
        .load(dbc))?;
    Ok(RoomSeats {
        seated,
        names,
        calls,
        holds: holds
            .into_iter()
            .map(|h| ((h.0.table_id, h.0.seat_no), h))
            .collect(),
        changes: changes.into_iter().map(|(id, t, p)| ((t, p), id)).collect(),
        prefs,
        dealers: dealers.into_iter().collect(),
    })
}

/// The open seatings by seat: the seating with the alias, and the full name with the
/// table-side state.
fn read_seated(
    conn: &mut DbConn,
) -> AppResult<(
    HashMap<(TableId, i32), (SeatingRow, String)>,
    HashMap<(TableId, i32), (String, SeatSideRow)>,
)> {
    // Of each seated player, only the two names the board shows: a whole `PlayerRow` is 19
    // columns (two dates and two timestamps parsed from text on SQLite) for each of the
    // room's ~2,500 seats.
    let seated: Vec<(SeatingRow, SeatSideRow, String, String)> =
        crate::native!(conn, |dbc| seatings::table
            .inner_join(players::table)
            .filter(seatings::left_at.is_null())
            .select((
                SeatingRow::as_select(),
                SeatSideRow::as_select(),
                players::full_name,
                players::alias
            ))
            .load(dbc))?;
    let mut names: HashMap<(TableId, i32), (String, SeatSideRow)> = HashMap::new();
    let seated: HashMap<(TableId, i32), (SeatingRow, String)> = seated
        .into_iter()
        .map(|(s, side, full_name, alias)| {
            names.insert((s.table_id, s.seat_no), (full_name, side));
            ((s.table_id, s.seat_no), (s, alias))
        })
        .collect();
    Ok((seated, names))
}

/// The open seat calls by seat, each with the called player's alias.
fn read_calls(conn: &mut DbConn) -> AppResult<HashMap<(TableId, i32), (SeatCallRow, String)>> {
    let calls: Vec<SeatCallRow> = crate::native!(conn, |dbc| seat_calls::table
        .filter(call_open!())
        .select(SeatCallRow::as_select())
        .load(dbc))?;
    let call_players: Vec<(PlayerId, String)> = crate::native!(conn, |dbc| players::table
        .filter(players::id.eq_any(calls.iter().map(|c| c.player_id).collect::<Vec<_>>()))
        .select((players::id, players::alias))
        .load(dbc))?;
    let aliases: HashMap<PlayerId, String> = call_players.into_iter().collect();
    Ok(calls
        .into_iter()
        .map(|c| {
            (
                (c.table_id, c.seat_no),
                (
                    c.clone(),
                    aliases.get(&c.player_id).cloned().unwrap_or_default(),
                ),
            )
        })
        .collect())
}

/// Each table's view: its seats, the dealer on shift, its limits and pending limit change,
/// and the tables a player may transfer to.
pub(super) fn table_views(
    conn: &mut DbConn,
    tables: Vec<(TableRow, Option<GameRow>)>,
    room: &mut RoomSeats,
) -> AppResult<Vec<TableView>> {
    // BSOP 27, 58: a transfer goes to a table of the same game and limit (PT-2007 22).
    let live: Vec<_> = tables
        .iter()
        .filter(|(t, _)| in_play(t))
        .map(|(t, g)| {
            (
                t.id,
                t.number,
                t.game_id,
                crate::services::limits::of(t, g.as_ref()),
            )
        })
        .collect();
    let mut pending = crate::services::limits::all_pending(conn)?;
    let mut views = Vec::with_capacity(tables.len());
    for (t, g) in tables {
        let seats = seat_views(&t, room);
        let n = seats.iter().filter(|s| s.seating.is_some()).count();
        let limits = crate::services::limits::of(&t, g.as_ref());
        let siblings = if in_play(&t) && t.game_id.is_some() {
            live.iter()
                .filter(|(id, _, g, l)| *id != t.id && *g == t.game_id && *l == limits)
                .map(|(id, num, _, _)| (*id, *num))
                .collect()
        } else {
            Vec::new()
        };
        views.push(TableView {
            waiting: Vec::new(),
            limits,
            limit_change: pending.remove(&t.id),
            dealer: room.dealers.remove(&t.id),
            table: t,
            game: g,
            seats,
            seated: n,
            siblings,
        });
    }
    Ok(views)
}

/// The table's seats and its extra seat, each with who sits at, is called to or holds it.
fn seat_views(t: &TableRow, room: &mut RoomSeats) -> Vec<SeatView> {
    (1..=t.seats + i32::from(t.extra_seat))
        .map(|n| {
            let seating = room.seated.get(&(t.id, n)).cloned();
            let (name, side) = match room.names.remove(&(t.id, n)) {
                Some((a, b)) => (Some(a), Some(b)),
                None => (None, None),
            };
            let seat_change = seating
                .as_ref()
                .and_then(|(s, _)| room.changes.get(&(t.id, s.player_id)).copied());
            let call = room.calls.get(&(t.id, n)).cloned();
            SeatView {
                seat_no: n,
                call_pref: call
                    .as_ref()
                    .and_then(|(c, _)| room.prefs.get(&c.player_id))
                    .and_then(PrefSummary::of),
                seating,
                call,
                held: room.holds.contains_key(&(t.id, n)),
                hold: room.holds.get(&(t.id, n)).cloned(),
                seat_change,
                name,
                side,
            }
        })
        .collect()
}

/// One game's list before its players are read: the entries shown, in order.
pub(super) struct ShownList {
    game: GameRow,
    top: Vec<(WaitlistRow, Place)>,
    /// Everyone on the list.
    total: usize,
    waits: GameWaits,
}

/// Every active game's list in order, with the entries the board shows and the game's wait
/// figures.
pub(super) fn shown_lists(
    conn: &mut DbConn,
    models: &crate::services::waits::Models,
    now: DateTime<Utc>,
) -> AppResult<Vec<ShownList>> {
    // Positions need every entry's key; names only for the top of each list.
    let all_entries: Vec<WaitlistRow> = crate::native!(conn, |dbc| waitlist_entries::table
        .filter(entry_active!())
        .select(WaitlistRow::as_select())
        .load(dbc))?;
    let games_list: Vec<GameRow> = crate::native!(conn, |dbc| games::table
        .filter(games::active.eq(true))
        .order(games::name.asc())
        .select(GameRow::as_select())
        .load(dbc))?;
    let mut by_game: HashMap<GameId, Vec<WaitlistRow>> = HashMap::new();
    for e in all_entries {
        by_game.entry(e.game_id).or_default().push(e);
    }
    // Every game's wait figures (`services::waits`: the same for every screen), at once.
    let game_ids: Vec<GameId> = games_list.iter().map(|g| g.id).collect();
    let mut waits_of = crate::services::waits::of_games(conn, models, now, &game_ids)?;
    let mut shown_lists = Vec::new();
    for g in games_list {
        let mine = by_game.remove(&g.id).unwrap_or_default();
        let waits = waits_of.remove(&g.id).unwrap_or_default();
        let domain: Vec<Entry> = mine.iter().map(as_entry).collect();
        let places = waitlist::positions(&domain, now);
        let total = places.len();
        let top: Vec<(i64, Place)> = places.into_iter().take(LIST_SHOWN).collect();
        let mut rows: HashMap<i64, WaitlistRow> =
            mine.into_iter().map(|r| (r.id.get(), r)).collect();
        let top_entries: Vec<(WaitlistRow, Place)> = top
            .into_iter()
            .filter_map(|(id, place)| rows.remove(&id).map(|e| (e, place)))
            .collect();
        shown_lists.push(ShownList {
            game: g,
            top: top_entries,
            total,
            waits,
        });
    }
    Ok(shown_lists)
}

/// The players shown on every list, in one read.
pub(super) fn players_shown(
    conn: &mut DbConn,
    shown: &[ShownList],
) -> AppResult<HashMap<PlayerId, PlayerRow>> {
    let ids: Vec<PlayerId> = shown
        .iter()
        .flat_map(|s| s.top.iter().map(|(e, _)| e.player_id))
        .collect();
    // A player may wait on several lists: each line gets its own copy.
    Ok(crate::native!(conn, |dbc| players::table
        .filter(players::id.eq_any(ids))
        .select(PlayerRow::as_select())
        .load(dbc))?
    .into_iter()
    .map(|p| (p.id, p))
    .collect())
}

/// The game's list as the board shows it: its lines, the players still needed, the table
/// to suggest, the free seats and the closed table the floor may open.
pub(super) fn game_list(
    shown: ShownList,
    people: &HashMap<PlayerId, PlayerRow>,
    prefs: &HashMap<PlayerId, SeatPreference>,
    views: &[TableView],
    profile: &RuleProfile,
) -> GameList {
    let ShownList {
        game: g,
        top,
        total,
        waits,
    } = shown;
    let lines: Vec<ListLine> = top
        .into_iter()
        .filter_map(|(entry, place)| {
            people
                .get(&entry.player_id)
                .cloned()
                .map(|player| ListLine {
                    pref: prefs.get(&player.id).and_then(PrefSummary::of),
                    entry,
                    player,
                    place,
                    wait: waits.for_ahead(place.ahead),
                })
        })
        .collect();
    let running = views
        .iter()
        .any(|v| v.table.game_id == Some(g.id) && v.table.state.in_play());
    let needed = (!running).then(|| waitlist::players_needed(total, profile.min_players_to_run));
    let mine: Vec<&TableView> = views
        .iter()
        .filter(|v| v.table.game_id == Some(g.id) && in_play(&v.table))
        .collect();
    let pick = suggest_among(
        g.policy(),
        &mine
            .iter()
            .map(|v| (&v.table, v.seated, v.free()))
            .collect::<Vec<_>>(),
    )
    .and_then(|(id, rule)| {
        mine.iter()
            .find(|v| v.table.id == TableId(id))
            .map(|v| (v.table.number, rule))
    });
    let free_seats = mine.iter().map(|v| v.free()).sum();
    let to_open = (needed == Some(0))
        .then(|| {
            views
                .iter()
                .find(|v| v.table.game_id == Some(g.id) && v.table.state == TableState::Closed)
                .map(|v| (v.table.id, v.table.number))
        })
        .flatten();
    GameList {
        join_wait: waits.for_ahead(total),
        tables_in_play: mine.len(),
        policy_pending: policy_pending(&g, &mine),
        game: g,
        lines,
        total,
        needed,
        suggested: pick.map(|(n, _)| n),
        suggested_rule: pick.map(|(_, r)| r),
        free_seats,
        to_open,
        origins: Vec::new(),
        guests: Vec::new(),
    }
}

/// BSOP 55, 58: the game's tables in play still run the policy the game no longer has.
fn policy_pending(g: &GameRow, mine: &[&TableView]) -> bool {
    let has_must_move = mine.iter().any(|v| v.table.must_move);
    match g.policy() {
        crate::domain::game::TablePolicy::MustMove => mine.len() >= 2 && !has_must_move,
        crate::domain::game::TablePolicy::Balanced => has_must_move,
    }
}

/// The shown entries' origins and the guests' kept places, two reads for all the lists.
pub(super) fn add_origins_and_guests(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    lists: &mut [GameList],
) -> AppResult<()> {
    let shown: Vec<EntryId> = lists
        .iter()
        .flat_map(|l| l.lines.iter().map(|x| x.entry.id))
        .collect();
    let origins = crate::services::join::origins(conn, &shown)?;
    let guests = crate::services::join::guest_lines(conn, now)?;
    for l in lists.iter_mut() {
        let ids: Vec<EntryId> = l.lines.iter().map(|x| x.entry.id).collect();
        l.origins = origins
            .iter()
            .filter(|(e, _)| ids.contains(e))
            .copied()
            .collect();
        let gid = l.game.id;
        l.guests = guests
            .iter()
            .filter(|x| x.game_id == gid)
            .cloned()
            .collect();
    }
    Ok(())
}

/// Who the floor may call out of order at a table: the waiting players of its game's list.
pub(super) fn add_waiting(views: &mut [TableView], lists: &[GameList]) {
    for v in views.iter_mut().filter(|v| in_play(&v.table)) {
        if let Some(l) = lists.iter().find(|l| Some(l.game.id) == v.table.game_id) {
            v.waiting = l
                .lines
                .iter()
                .filter(|x| x.entry.state == EntryState::Waiting)
                .map(|x| (x.entry.id, x.place.position as i64, x.player.alias.clone()))
                .collect();
        }
    }
}
