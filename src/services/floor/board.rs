//! What the floor board shows: every table with its seats, calls, holds and
//! the dealer on shift, every game's list, read in a fixed number of queries whatever the
//! room's size; and the names an action's toast says.

use super::*;
use crate::domain::ids::EntryId;
use crate::domain::ids::GameId;
use crate::domain::ids::TableId;
use crate::domain::states::EntryState;
use crate::services::seat_prefs::PrefSummary;

/// One seat on the dashboard.
#[derive(Debug, Clone, Serialize)]
pub struct SeatView {
    pub seat_no: i32,
    pub seating: Option<(SeatingRow, String)>,
    pub call: Option<(SeatCallRow, String)>,
    pub held: bool,
    /// BSOP 45, 49: the hold on this seat, with the alias of the player it is held for.
    pub hold: Option<(SeatHoldRow, Option<String>)>,
    /// PT-2007 12, BSOP 51: the open seat-change request of the player seated here.
    pub seat_change: Option<i64>,
    /// The seated player's full name (the seat panel shows it under the alias).
    pub name: Option<String>,
    /// The seated player's table-side state: stack, absence, missed blinds.
    pub side: Option<SeatSideRow>,
    /// The called player's seat preference, for the floor to see on the call.
    pub call_pref: Option<PrefSummary>,
}

impl SeatView {
    /// Nobody seated, called or holding it.
    pub fn is_free(&self) -> bool {
        self.seating.is_none() && self.call.is_none() && self.hold.is_none()
    }

    /// BSOP 36, 37: the seated player is away from the table.
    pub fn is_away(&self) -> bool {
        self.seating.as_ref().is_some()
            && self.side.as_ref().is_some_and(|x| x.away_since.is_some())
    }
}

/// One table on the dashboard.
#[derive(Debug, Clone, Serialize)]
pub struct TableView {
    pub table: TableRow,
    pub game: Option<GameRow>,
    pub seats: Vec<SeatView>,
    pub seated: usize,
    /// The other tables of the same game in play (id, number): where a player may transfer
    /// (BSOP 58, PT-2007 26).
    pub siblings: Vec<(TableId, i32)>,
    /// The dealer on shift at the table (their display name).
    pub dealer: Option<String>,
    /// The waiting players of the table's game (entry id, place, alias): whom the floor may
    /// call out of order.
    pub waiting: Vec<(EntryId, i64, String)>,
    /// PT-2007 22, BSOP 34: the table's limits now (`services::limits::of`) and its pending
    /// change, if any.
    pub limits: Option<crate::domain::limits::Limits>,
    pub limit_change: Option<crate::db::models::LimitChangeRow>,
}

impl TableView {
    /// Seats nobody sits in, is called to or holds.
    pub fn free(&self) -> usize {
        self.seats.iter().filter(|s| s.is_free()).count()
    }

    /// Open seat calls at the table, oldest first.
    pub fn calls(&self) -> Vec<&(SeatCallRow, String)> {
        let mut v: Vec<_> = self.seats.iter().filter_map(|s| s.call.as_ref()).collect();
        v.sort_by_key(|(c, _)| c.respond_by);
        v
    }

    /// BSOP 36, 37: players away from the table.
    pub fn away(&self) -> usize {
        self.seats.iter().filter(|s| s.is_away()).count()
    }

    /// BSOP 37: seats whose player is due to be removed (the floor was alerted).
    pub fn removals(&self) -> usize {
        self.seats
            .iter()
            .filter(|s| {
                s.seating.is_some()
                    && s.side
                        .as_ref()
                        .is_some_and(|x| x.removal_alerted_at.is_some())
            })
            .count()
    }

    /// The seats of the table plus the extra seat, as the table is laid out.
    pub fn capacity(&self) -> usize {
        self.seats.len()
    }

    /// PT-2007 22: the table's limits when they are not its game's (the tile says them).
    pub fn own_limits(&self) -> Option<crate::domain::limits::Limits> {
        let g = self.game.as_ref().map(crate::services::limits::of_game);
        self.limits.filter(|l| Some(*l) != g)
    }
}

/// How many players of each list the dashboard and the lobby show by name (the rest are
/// counted; the full list is in the list API).
pub const LIST_SHOWN: usize = 20;

/// One game's list on the dashboard.
#[derive(Debug, Clone, Serialize)]
pub struct GameList {
    pub game: GameRow,
    /// The first [`LIST_SHOWN`] players of the list, in order.
    pub lines: Vec<ListLine>,
    /// Everyone on the list (the lines may show only the top of it).
    pub total: usize,
    /// Interest list (no table of the game open or running): players still needed to start.
    pub needed: Option<usize>,
    /// BSOP 55, 58: the number of the table a new player should go to (the must-move table,
    /// else the one that needs a player most), if one has a free seat.
    pub suggested: Option<i32>,
    /// Why that table (BSOP 55: must-move or main game; BSOP 58: needs a player most).
    pub suggested_rule: Option<crate::domain::table::SuggestRule>,
    /// Seats free at the game's tables in play (nobody sits in, is called to or holds them),
    /// as their tiles count them.
    pub free_seats: usize,
    /// An interest list with enough players to start (PT-2007 24): the number of a closed
    /// table of the game the floor may open (id, number), if the room has one.
    pub to_open: Option<(TableId, i32)>,
    /// The game's tables in play (open, running or suspended).
    pub tables_in_play: usize,
    /// BSOP 55, 58: the game's policy was changed and its tables still run the other one
    /// until a table of the game next opens or breaks.
    pub policy_pending: bool,
    /// Where each shown entry came from (desk, call-in, phone, kiosk).
    pub origins: Vec<(EntryId, crate::domain::remote_join::EntrySource)>,
    /// Guests keeping a place on this list until the desk registers them
    /// (BSOP 1, 3: never called before).
    pub guests: Vec<crate::services::join::GuestLine>,
    /// The wait of a player joining the list now (`services::waits`; the lobby shows it).
    pub join_wait: Option<crate::domain::waits::WaitEstimate>,
}

impl GameList {
    /// The suggested table with the catalog keys of what the list header says about it and
    /// why (BSOP 55, 58).
    pub fn suggestion(&self) -> Option<(i32, String, String)> {
        let (t, r) = self.suggested.zip(self.suggested_rule)?;
        let key = format!("board-suggest-{}", r.as_str());
        Some((t, key.clone(), format!("{key}-why")))
    }

    /// PT-2007 8a, BSOP 43: some shown place has no wait estimate (too little history at this
    /// hour): the list says so once, where a figure would be.
    pub fn wait_unknown(&self) -> bool {
        self.lines
            .iter()
            .any(|l| l.wait.is_some_and(|w| !w.is_known()))
    }

    /// Where an entry came from.
    pub fn origin(&self, entry_id: &EntryId) -> crate::domain::remote_join::EntrySource {
        let id = *entry_id;
        self.origins
            .iter()
            .find(|(e, _)| *e == id)
            .map_or(crate::domain::remote_join::EntrySource::Desk, |(_, s)| *s)
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Dashboard {
    pub tables: Vec<TableView>,
    pub lists: Vec<GameList>,
    /// Messages to players that failed (no more attempts): the floor is alerted and may
    /// retry them on `/floor/messages`.
    pub failed_messages: i64,
}

/// Names for saying what an action did (the floor's toast): the player's alias,
/// the game's name, the table's number.
pub fn names(
    conn: &mut DbConn,
    player_id: i64,
    game_id: Option<GameId>,
    table_id: Option<TableId>,
) -> AppResult<(String, String, i32)> {
    let alias: String = crate::native!(conn, |dbc| players::table
        .find(player_id)
        .select(players::alias)
        .first(dbc))?;
    let game: String = match game_id {
        Some(g) => crate::native!(conn, |dbc| games::table
            .find(g)
            .select(games::name)
            .first(dbc))?,
        None => String::new(),
    };
    let number: i32 = match table_id {
        Some(t) => crate::native!(conn, |dbc| card_tables::table
            .find(t)
            .select(card_tables::number)
            .first(dbc))?,
        None => 0,
    };
    Ok((alias, game, number))
}

/// Tables of one game on the board (tiles grouped by game).
pub struct TableGroup<'a> {
    /// None: tables without a game.
    pub game: Option<&'a GameRow>,
    pub tables: Vec<&'a TableView>,
}

impl Dashboard {
    /// Changes whenever a game's board colour does: the colours' stylesheet is cached under it.
    pub fn colours_version(&self) -> String {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        for l in &self.lists {
            (l.game.id, l.game.board_colour()).hash(&mut h);
        }
        for v in &self.tables {
            if let Some(g) = &v.game {
                (g.id, g.board_colour()).hash(&mut h);
            }
        }
        format!("{:016x}", h.finish())
    }

    /// The tables grouped by game, in the lists' order (games by name), then games no longer
    /// offered, then tables without a game; by number inside a group.
    pub fn groups(&self) -> Vec<TableGroup<'_>> {
        let mut order: Vec<GameId> = self.lists.iter().map(|l| l.game.id).collect();
        for v in &self.tables {
            if let Some(g) = &v.game {
                if !order.contains(&g.id) {
                    order.push(g.id);
                }
            }
        }
        let mut out: Vec<TableGroup<'_>> = order
            .iter()
            .filter_map(|id| {
                let tables: Vec<&TableView> = self
                    .tables
                    .iter()
                    .filter(|v| v.table.game_id == Some(*id))
                    .collect();
                let game = tables.first().and_then(|v| v.game.as_ref())?;
                Some(TableGroup {
                    game: Some(game),
                    tables,
                })
            })
            .collect();
        let none: Vec<&TableView> = self
            .tables
            .iter()
            .filter(|v| v.table.game_id.is_none() || v.game.is_none())
            .collect();
        if !none.is_empty() {
            out.push(TableGroup {
                game: None,
                tables: none,
            });
        }
        out
    }
}

/// Everything the floor dashboard shows, in a fixed number of queries whatever the room's
/// size (tables, games, open seatings, open calls, holds, list entries, seat turnover).
pub fn dashboard(
    conn: &mut DbConn,
    models: &crate::services::waits::Models,
    now: DateTime<Utc>,
    profile: &RuleProfile,
) -> AppResult<Dashboard> {
    let tables: Vec<(TableRow, Option<GameRow>)> = crate::native!(conn, |dbc| card_tables::table
        .left_join(games::table)
        .filter(card_tables::active.eq(true))
        .order(card_tables::number.asc())
        .select((TableRow::as_select(), Option::<GameRow>::as_select()))
        .load(dbc))?;
    // Of each seated player, only the two names the board shows: a whole `PlayerRow` is 19
    // columns (two dates and two timestamps parsed from text on SQLite) for each of the
    // room's ~2,500 seats, about a fifth of this function's time (perf, 2026-11-24).
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
    let calls: Vec<SeatCallRow> = crate::native!(conn, |dbc| seat_calls::table
        .filter(call_open!())
        .select(SeatCallRow::as_select())
        .load(dbc))?;
    let call_players: Vec<(i64, String)> = crate::native!(conn, |dbc| players::table
        .filter(players::id.eq_any(calls.iter().map(|c| c.player_id).collect::<Vec<_>>()))
        .select((players::id, players::alias))
        .load(dbc))?;
    let holds: Vec<(SeatHoldRow, Option<String>)> = crate::native!(conn, |dbc| seat_holds::table
        .left_join(players::table.on(players::id.nullable().eq(seat_holds::player_id)))
        .filter(seat_holds::released_at.is_null())
        .select((SeatHoldRow::as_select(), players::alias.nullable()))
        .load(dbc))?;
    let changes: Vec<(i64, TableId, i64)> =
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
    use std::collections::HashMap;
    let mut dealers: HashMap<TableId, String> = dealers.into_iter().collect();
    let mut names: HashMap<(TableId, i32), (String, SeatSideRow)> = HashMap::new();
    let seated: HashMap<(TableId, i32), (SeatingRow, String)> = seated
        .into_iter()
        .map(|(s, side, full_name, alias)| {
            names.insert((s.table_id, s.seat_no), (full_name, side));
            ((s.table_id, s.seat_no), (s, alias))
        })
        .collect();
    let aliases: HashMap<i64, String> = call_players.into_iter().collect();
    let calls: HashMap<(TableId, i32), (SeatCallRow, String)> = calls
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
        .collect();
    let holds: HashMap<(TableId, i32), (SeatHoldRow, Option<String>)> = holds
        .into_iter()
        .map(|h| ((h.0.table_id, h.0.seat_no), h))
        .collect();
    let changes: HashMap<(TableId, i64), i64> =
        changes.into_iter().map(|(id, t, p)| ((t, p), id)).collect();
    // BSOP 27, 58: a transfer goes to a table of the same game and limit (PT-2007 22).
    let live: Vec<(
        TableId,
        i32,
        Option<GameId>,
        Option<crate::domain::limits::Limits>,
    )> = tables
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
        let seats = (1..=t.seats + i32::from(t.extra_seat))
            .map(|n| {
                let seating = seated.get(&(t.id, n)).cloned();
                let (name, side) = match names.remove(&(t.id, n)) {
                    Some((a, b)) => (Some(a), Some(b)),
                    None => (None, None),
                };
                let seat_change = seating
                    .as_ref()
                    .and_then(|(s, _)| changes.get(&(t.id, s.player_id)).copied());
                let call = calls.get(&(t.id, n)).cloned();
                SeatView {
                    seat_no: n,
                    call_pref: call
                        .as_ref()
                        .and_then(|(c, _)| prefs.get(&c.player_id))
                        .and_then(PrefSummary::of),
                    seating,
                    call,
                    held: holds.contains_key(&(t.id, n)),
                    hold: holds.get(&(t.id, n)).cloned(),
                    seat_change,
                    name,
                    side,
                }
            })
            .collect::<Vec<_>>();
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
            dealer: dealers.remove(&t.id),
            table: t,
            game: g,
            seats,
            seated: n,
            siblings,
        });
    }
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
    // Each game's list in order and the entries shown; then the players shown on every list
    // in one read (it was one read per game, a round trip each on PostgreSQL).
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
        shown_lists.push((g, top_entries, total, waits));
    }
    let ids: Vec<i64> = shown_lists
        .iter()
        .flat_map(|(_, top, _, _)| top.iter().map(|(e, _)| e.player_id))
        .collect();
    // A player may wait on several lists: each line gets its own copy.
    let people: HashMap<i64, PlayerRow> = crate::native!(conn, |dbc| players::table
        .filter(players::id.eq_any(ids))
        .select(PlayerRow::as_select())
        .load(dbc))?
    .into_iter()
    .map(|p| (p.id, p))
    .collect();
    let mut lists = Vec::new();
    for (g, top_entries, total, waits) in shown_lists {
        let lines: Vec<ListLine> = top_entries
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
        let needed =
            (!running).then(|| waitlist::players_needed(total, profile.min_players_to_run));
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
        let has_must_move = mine.iter().any(|v| v.table.must_move);
        let policy_pending = match g.policy() {
            crate::domain::game::TablePolicy::MustMove => mine.len() >= 2 && !has_must_move,
            crate::domain::game::TablePolicy::Balanced => has_must_move,
        };
        lists.push(GameList {
            join_wait: waits.for_ahead(total),
            tables_in_play: mine.len(),
            policy_pending,
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
        });
    }
    // The shown entries' origins and the guests' kept places, two reads for all.
    let shown: Vec<EntryId> = lists
        .iter()
        .flat_map(|l| l.lines.iter().map(|x| x.entry.id))
        .collect();
    let origins = crate::services::join::origins(conn, &shown)?;
    let mut guests = crate::services::join::guest_lines(conn, now)?;
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
    guests.clear();
    let failed_messages = notify::outbox::failed_count(conn)?;
    // Who the floor may call out of order at a table: the waiting players of its game's list.
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
    Ok(Dashboard {
        tables: views,
        lists,
        failed_messages,
    })
}
