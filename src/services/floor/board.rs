//! What the floor board shows: every table with its seats, calls, holds and
//! the dealer on shift, every game's list, read in a fixed number of queries whatever the
//! room's size; and the names an action's toast says.

use super::*;
use crate::domain::ids::EntryId;
use crate::domain::ids::GameId;
use crate::domain::ids::PlayerId;
use crate::domain::ids::TableId;
use crate::domain::states::EntryState;
use crate::services::seat_prefs::PrefSummary;

mod build;

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
    /// The dealers' night: who deals where, and the pushes of the next hour.
    pub night: crate::services::dealers::Night,
}

/// Names for saying what an action did (the floor's toast): the player's alias,
/// the game's name, the table's number.
pub fn names(
    conn: &mut DbConn,
    player_id: PlayerId,
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
    let tables = build::active_tables(conn)?;
    let mut room = build::read_room_seats(conn)?;
    let mut views = build::table_views(conn, tables, &mut room)?;
    let shown = build::shown_lists(conn, models, now)?;
    let people = build::players_shown(conn, &shown)?;
    let mut lists: Vec<GameList> = shown
        .into_iter()
        .map(|s| build::game_list(s, &people, &room.prefs, &views, profile))
        .collect();
    build::add_origins_and_guests(conn, now, &mut lists)?;
    let failed_messages = notify::outbox::failed_count(conn)?;
    build::add_waiting(&mut views, &lists);
    let night = crate::services::dealers::night_if_kept(conn, &profile.push_rules(), now)?;
    Ok(Dashboard {
        night,
        tables: views,
        lists,
        failed_messages,
    })
}
