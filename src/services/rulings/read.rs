//! The incident log as the floor, the tablet, a player's record and a regulator read it: each
//! ruling with its table, hand, players, staff, pot and chips, read in a fixed number of
//! statements however many rulings are shown.

use super::*;
use crate::domain::ids::GameId;
use crate::domain::ids::PlayerId;
use crate::domain::ids::TableId;

/// A player a ruling involves, with the names the log shows.
#[derive(Debug, Clone, Serialize)]
pub struct InvolvedPlayer {
    pub player_id: PlayerId,
    pub alias: String,
    pub full_name: String,
    pub seat_no: Option<i32>,
    pub named_at: NamedAt,
}

/// One ruling as the log shows it.
#[derive(Debug, Clone, Serialize)]
pub struct RulingLine {
    pub ruling: RulingRow,
    pub table_number: i32,
    pub game_name: Option<String>,
    pub players: Vec<InvolvedPlayer>,
    /// Display names of who asked and who decided.
    pub asked_by: Option<String>,
    pub decided_by: Option<String>,
    /// The later ruling that corrects this one (BSOP 17).
    pub corrected_by: Option<i64>,
    /// BSOP 21: the pot held for it.
    pub pot: Option<HeldPotRow>,
    /// BSOP 20, 21: the chips its decision moves, and their lines.
    pub moved: Option<RulingMoveRow>,
    pub move_lines: Vec<LineView>,
}

impl RulingLine {
    pub fn state(&self) -> RulingState {
        self.ruling.state()
    }
    /// Not decided yet.
    pub fn is_open(&self) -> bool {
        self.ruling.state() == RulingState::Open
    }
    pub fn late(&self) -> Option<LateReason> {
        self.ruling.late()
    }
    /// The chips of its decision wait for a second staff member.
    pub fn awaiting_second(&self) -> bool {
        self.moved
            .as_ref()
            .is_some_and(|m| m.move_state() == RulingMoveState::Recorded)
    }
    /// A pot is held for it and not released yet.
    pub fn pot_held(&self) -> bool {
        self.pot
            .as_ref()
            .is_some_and(|p| p.pot_state() == HeldPotState::Held)
    }
    /// The players' aliases with their seats: "Ana (3), Rui (7)".
    pub fn who(&self) -> String {
        self.players
            .iter()
            .map(|p| match p.seat_no {
                Some(s) => format!("{} ({s})", p.alias),
                None => p.alias.clone(),
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
    pub fn involves(&self, player_id: PlayerId) -> bool {
        self.players.iter().any(|p| p.player_id == player_id)
    }
}

/// The rulings given, each with what the log shows of it (input order kept).
pub fn lines_of(conn: &mut DbConn, rows: Vec<RulingRow>) -> AppResult<Vec<RulingLine>> {
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    let shown = Shown::read(conn, &rows)?;
    Ok(rows.into_iter().map(|r| shown.line(r)).collect())
}

/// What the log shows of some rulings, read once for all of them: one statement each.
struct Shown {
    /// Table id → number.
    tables: HashMap<TableId, i32>,
    game_names: HashMap<GameId, String>,
    /// The players involved, with alias and full name, in the order they were named.
    people: Vec<(RulingPlayerRow, String, String)>,
    /// Staff id → display name (who asked, who decided).
    names: HashMap<i64, String>,
    /// Ruling → the ruling that corrects it.
    corrections: HashMap<i64, i64>,
    pots: HashMap<i64, HeldPotRow>,
    moves: HashMap<i64, RulingMoveRow>,
    move_lines: Vec<RulingMoveLineRow>,
    /// The aliases of the players chips move from or to.
    aliases: HashMap<PlayerId, String>,
}

impl Shown {
    fn read(conn: &mut DbConn, rows: &[RulingRow]) -> AppResult<Shown> {
        let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
        let (tables, game_names) = tables_and_games(conn, rows)?;
        let people = involved_players(conn, &ids)?;
        let staff_ids: Vec<i64> = rows
            .iter()
            .flat_map(|r| [r.asked_by, r.decided_by])
            .flatten()
            .collect();
        let names: HashMap<i64, String> = crate::native!(conn, |dbc| staff::table
            .filter(staff::id.eq_any(&staff_ids))
            .select((staff::id, staff::display_name))
            .load::<(i64, String)>(dbc))?
        .into_iter()
        .collect();
        let corrections: HashMap<i64, i64> = crate::native!(conn, |dbc| rulings::table
            .filter(rulings::corrects.eq_any(&ids))
            .select((rulings::corrects, rulings::id))
            .load::<(Option<i64>, i64)>(dbc))?
        .into_iter()
        .filter_map(|(c, id)| c.map(|c| (c, id)))
        .collect();
        let pots: HashMap<i64, HeldPotRow> = crate::native!(conn, |dbc| held_pots::table
            .filter(held_pots::ruling_id.eq_any(&ids))
            .select(HeldPotRow::as_select())
            .load::<HeldPotRow>(dbc))?
        .into_iter()
        .map(|p| (p.ruling_id, p))
        .collect();
        let (moves, move_lines, aliases) = moves_of(conn, &ids)?;
        Ok(Shown {
            tables,
            game_names,
            people,
            names,
            corrections,
            pots,
            moves,
            move_lines,
            aliases,
        })
    }

    /// One ruling as the log shows it.
    fn line(&self, r: RulingRow) -> RulingLine {
        RulingLine {
            table_number: self.tables.get(&r.table_id).copied().unwrap_or_default(),
            game_name: r.game_id.and_then(|g| self.game_names.get(&g).cloned()),
            players: self
                .people
                .iter()
                .filter(|(p, _, _)| p.ruling_id == r.id)
                .map(|(p, alias, full_name)| InvolvedPlayer {
                    player_id: p.player_id,
                    alias: alias.clone(),
                    full_name: full_name.clone(),
                    seat_no: p.seat_no,
                    named_at: NamedAt::from_str(&p.named_at).unwrap_or(NamedAt::Asked),
                })
                .collect(),
            asked_by: r.asked_by.and_then(|s| self.names.get(&s).cloned()),
            decided_by: r.decided_by.and_then(|s| self.names.get(&s).cloned()),
            corrected_by: self.corrections.get(&r.id).copied(),
            pot: self.pots.get(&r.id).cloned(),
            move_lines: self
                .moves
                .get(&r.id)
                .map(|m| {
                    self.move_lines
                        .iter()
                        .filter(|l| l.move_id == m.id)
                        .map(|l| self.line_view(l))
                        .collect()
                })
                .unwrap_or_default(),
            moved: self.moves.get(&r.id).cloned(),
            ruling: r,
        }
    }

    /// A chip move's line with the players' aliases (`#id` when unknown).
    fn line_view(&self, l: &RulingMoveLineRow) -> LineView {
        LineView {
            kind: l.kind,
            from_alias: l.from_player_id.map(|p| {
                self.aliases
                    .get(&p)
                    .cloned()
                    .unwrap_or_else(|| format!("#{p}"))
            }),
            to_alias: self
                .aliases
                .get(&l.to_player_id)
                .cloned()
                .unwrap_or_else(|| format!("#{}", l.to_player_id)),
            line: l.clone(),
        }
    }
}

/// The rulings' tables (id → number) and games (id → name).
fn tables_and_games(
    conn: &mut DbConn,
    rows: &[RulingRow],
) -> AppResult<(HashMap<TableId, i32>, HashMap<GameId, String>)> {
    let table_ids: Vec<TableId> = rows.iter().map(|r| r.table_id).collect();
    let tables: HashMap<TableId, i32> = crate::native!(conn, |dbc| card_tables::table
        .filter(card_tables::id.eq_any(&table_ids))
        .select((card_tables::id, card_tables::number))
        .load::<(TableId, i32)>(dbc))?
    .into_iter()
    .collect();
    let game_ids: Vec<GameId> = rows.iter().filter_map(|r| r.game_id).collect();
    let game_names: HashMap<GameId, String> = crate::native!(conn, |dbc| games::table
        .filter(games::id.eq_any(&game_ids))
        .select((games::id, games::name))
        .load::<(GameId, String)>(dbc))?
    .into_iter()
    .collect();
    Ok((tables, game_names))
}

/// The players involved in the rulings, with alias and full name, in the order named.
fn involved_players(
    conn: &mut DbConn,
    ids: &[i64],
) -> AppResult<Vec<(RulingPlayerRow, String, String)>> {
    Ok(crate::native!(conn, |dbc| ruling_players::table
        .inner_join(players::table)
        .filter(ruling_players::ruling_id.eq_any(ids))
        .order((
            ruling_players::ruling_id.asc(),
            ruling_players::named_at.asc(),
            ruling_players::seat_no.asc(),
            ruling_players::player_id.asc()
        ))
        .select((
            RulingPlayerRow::as_select(),
            players::alias,
            players::full_name
        ))
        .load(dbc))?)
}

/// The rulings' chip moves (by ruling), their lines in order, and the aliases of the players
/// the chips move from or to.
fn moves_of(
    conn: &mut DbConn,
    ids: &[i64],
) -> AppResult<(
    HashMap<i64, RulingMoveRow>,
    Vec<RulingMoveLineRow>,
    HashMap<PlayerId, String>,
)> {
    let moves: HashMap<i64, RulingMoveRow> = crate::native!(conn, |dbc| ruling_moves::table
        .filter(ruling_moves::ruling_id.eq_any(ids))
        .select(RulingMoveRow::as_select())
        .load::<RulingMoveRow>(dbc))?
    .into_iter()
    .map(|m| (m.ruling_id, m))
    .collect();
    let move_ids: Vec<i64> = moves.values().map(|m| m.id).collect();
    let move_lines: Vec<RulingMoveLineRow> = crate::native!(conn, |dbc| ruling_move_lines::table
        .filter(ruling_move_lines::move_id.eq_any(&move_ids))
        .order((
            ruling_move_lines::move_id.asc(),
            ruling_move_lines::line_no.asc()
        ))
        .select(RulingMoveLineRow::as_select())
        .load(dbc))?;
    let movers: Vec<PlayerId> = move_lines
        .iter()
        .flat_map(|l| [l.from_player_id, Some(l.to_player_id)])
        .flatten()
        .collect();
    let aliases: HashMap<PlayerId, String> = crate::native!(conn, |dbc| players::table
        .filter(players::id.eq_any(&movers))
        .select((players::id, players::alias))
        .load::<(PlayerId, String)>(dbc))?
    .into_iter()
    .collect();
    Ok((moves, move_lines, aliases))
}

/// The incident log's filters (all optional).
#[derive(Debug, Clone, Default)]
pub struct Filter {
    /// Asked at or after (UTC).
    pub from: Option<NaiveDateTime>,
    /// Asked before (UTC).
    pub to: Option<NaiveDateTime>,
    pub table_id: Option<TableId>,
    /// Rulings involving this player.
    pub player_id: Option<PlayerId>,
    /// Rulings this staff member asked for or decided.
    pub staff_id: Option<i64>,
    pub state: Option<RulingState>,
    /// At most this many, newest first.
    pub limit: i64,
}

/// The most rulings one page, answer or file of the log holds.
pub const LIST_MAX: i64 = 5000;

/// The incident log: the rulings matching the filter, newest first.
pub fn list(conn: &mut DbConn, f: &Filter) -> AppResult<Vec<RulingLine>> {
    let mut q = rulings::table.into_boxed();
    if let Some(from) = f.from {
        q = q.filter(rulings::asked_at.ge(from));
    }
    if let Some(to) = f.to {
        q = q.filter(rulings::asked_at.lt(to));
    }
    if let Some(t) = f.table_id {
        q = q.filter(rulings::table_id.eq(t));
    }
    if let Some(p) = f.player_id {
        q = q.filter(
            rulings::id.eq_any(
                ruling_players::table
                    .filter(ruling_players::player_id.eq(p))
                    .select(ruling_players::ruling_id),
            ),
        );
    }
    if let Some(s) = f.staff_id {
        q = q.filter(
            rulings::asked_by
                .eq(Some(s))
                .or(rulings::decided_by.eq(Some(s))),
        );
    }
    match f.state {
        Some(RulingState::Open) => q = q.filter(rulings::decided_at.is_null()),
        Some(RulingState::Decided) => q = q.filter(rulings::decided_at.is_not_null()),
        None => {}
    }
    let rows: Vec<RulingRow> = q
        .order((rulings::asked_at.desc(), rulings::id.desc()))
        .limit(f.limit.clamp(1, LIST_MAX))
        .select(RulingRow::as_select())
        .load(conn)?;
    lines_of(conn, rows)
}

/// What needs the floor: rulings still open, and decisions whose chips wait for a second
/// staff member; oldest first (the board's alert strip and the tables' tiles).
pub fn needing_floor(conn: &mut DbConn) -> AppResult<Vec<RulingLine>> {
    let waiting: Vec<i64> = crate::native!(conn, |dbc| ruling_moves::table
        .filter(ruling_moves::state.eq(RulingMoveState::Recorded))
        .select(ruling_moves::ruling_id)
        .load(dbc))?;
    let rows: Vec<RulingRow> = crate::native!(conn, |dbc| rulings::table
        .filter(
            rulings::decided_at
                .is_null()
                .or(rulings::id.eq_any(&waiting))
        )
        .order(rulings::id.asc())
        .limit(200)
        .select(RulingRow::as_select())
        .load(dbc))?;
    lines_of(conn, rows)
}

/// A table's rulings as its tablet shows them: every one still open or whose chips wait for a
/// second staff member, and those decided since `since`; newest first, at most 8.
pub fn for_table(
    conn: &mut DbConn,
    table_id: TableId,
    since: NaiveDateTime,
) -> AppResult<Vec<RulingLine>> {
    let waiting: Vec<i64> = crate::native!(conn, |dbc| ruling_moves::table
        .filter(ruling_moves::table_id.eq(table_id))
        .filter(ruling_moves::state.eq(RulingMoveState::Recorded))
        .select(ruling_moves::ruling_id)
        .load(dbc))?;
    let rows: Vec<RulingRow> = crate::native!(conn, |dbc| rulings::table
        .filter(rulings::table_id.eq(table_id))
        .filter(
            rulings::decided_at
                .is_null()
                .or(rulings::decided_at.ge(since))
                .or(rulings::id.eq_any(&waiting))
        )
        .order(rulings::id.desc())
        .limit(8)
        .select(RulingRow::as_select())
        .load(dbc))?;
    lines_of(conn, rows)
}

/// BSOP 22: the earlier rulings involving any of `players` (their behaviour history, to judge
/// intent), newest first, without `except` itself.
pub fn earlier_of(
    conn: &mut DbConn,
    players: &[PlayerId],
    except: i64,
    limit: i64,
) -> AppResult<Vec<RulingLine>> {
    if players.is_empty() {
        return Ok(Vec::new());
    }
    let ids: Vec<i64> = crate::native!(conn, |dbc| ruling_players::table
        .filter(ruling_players::player_id.eq_any(players))
        .filter(ruling_players::ruling_id.ne(except))
        .select(ruling_players::ruling_id)
        .distinct()
        .load(dbc))?;
    let rows: Vec<RulingRow> = crate::native!(conn, |dbc| rulings::table
        .filter(rulings::id.eq_any(&ids))
        .filter(rulings::id.lt(except))
        .order(rulings::id.desc())
        .limit(limit)
        .select(RulingRow::as_select())
        .load(dbc))?;
    lines_of(conn, rows)
}

/// A move line as pages and the API show it.
#[derive(Debug, Clone, Serialize)]
pub struct LineView {
    pub line: RulingMoveLineRow,
    pub kind: MoveLineKind,
    /// None: from the held pot.
    pub from_alias: Option<String>,
    pub to_alias: String,
}

/// One ruling with everything its page shows: the line of the log, the chips its decision
/// moves, who held the pot and moved the chips, the players' earlier rulings (BSOP 22) and,
/// for an open ruling, the table as it is now (who may be named, the chips on the table).
#[derive(Debug, Clone, Serialize)]
pub struct RulingDetail {
    pub line: RulingLine,
    /// Display names: who held the pot, who recorded, confirmed or refused the chips.
    pub pot_held_by: Option<String>,
    pub recorded_by: Option<String>,
    pub confirmed_by: Option<String>,
    pub cancelled_by: Option<String>,
    /// BSOP 22: the earlier rulings of the players involved.
    pub earlier: Vec<RulingLine>,
    /// The players seated at the table now: (player id, seat, alias, stack on record).
    pub seated: Vec<(PlayerId, i32, String, i64)>,
    /// BSOP 21: the chips the table has on record (what a held pot may not exceed).
    pub on_table: i64,
    /// The ruling it corrects, and whether a pot is still held for the chain (a correction may
    /// release it).
    pub chain_pot: Option<HeldPotRow>,
}

impl RulingDetail {
    /// Everyone the decision form offers to name: the players involved, then those seated.
    pub fn candidates(&self) -> Vec<(PlayerId, String)> {
        let mut out: Vec<(PlayerId, String)> = self
            .line
            .players
            .iter()
            .map(|p| (p.player_id, p.alias.clone()))
            .collect();
        for (id, _, alias, _) in &self.seated {
            if !out.iter().any(|(p, _)| p == id) {
                out.push((*id, alias.clone()));
            }
        }
        out
    }
    /// A pot held for this ruling or the one it corrects, not yet released: the decision (or
    /// correction) must release it.
    pub fn pot_to_release(&self) -> Option<&HeldPotRow> {
        self.chain_pot
            .as_ref()
            .filter(|p| p.pot_state() == HeldPotState::Held)
    }
}

fn staff_name(conn: &mut DbConn, id: Option<i64>) -> AppResult<Option<String>> {
    let Some(id) = id else {
        return Ok(None);
    };
    Ok(crate::native!(conn, |dbc| staff::table
        .find(id)
        .select(staff::display_name)
        .first(dbc))
    .optional()?)
}

/// One ruling's page (404 when there is none).
pub fn detail(conn: &mut DbConn, id: i64) -> AppResult<RulingDetail> {
    let r = ruling(conn, id)?;
    let root = root_of(conn, &r)?;
    let chain_pot = held_pot_of(conn, root)?;
    let line = lines_of(conn, vec![r])?.pop().ok_or(AppError::NotFound)?;
    let (recorded_by, confirmed_by, cancelled_by) = match &line.moved {
        Some(m) => (
            staff_name(conn, Some(m.recorded_by))?,
            staff_name(conn, m.confirmed_by)?,
            staff_name(conn, m.cancelled_by)?,
        ),
        None => (None, None, None),
    };
    let pot_held_by = staff_name(conn, line.pot.as_ref().and_then(|p| p.held_by))?;
    let involved: Vec<PlayerId> = line.players.iter().map(|p| p.player_id).collect();
    let earlier = earlier_of(conn, &involved, id, 20)?;
    let seated: Vec<(PlayerId, i32, String, i64)> = crate::native!(conn, |dbc| seatings::table
        .inner_join(players::table)
        .filter(seatings::table_id.eq(line.ruling.table_id))
        .filter(seatings::left_at.is_null())
        .order(seatings::seat_no.asc())
        .select((
            seatings::player_id,
            seatings::seat_no,
            players::alias,
            seatings::stack
        ))
        .load(dbc))?;
    let on_table = chips_on_table(conn, line.ruling.table_id)?;
    Ok(RulingDetail {
        line,
        pot_held_by,
        recorded_by,
        confirmed_by,
        cancelled_by,
        earlier,
        seated,
        on_table,
        chain_pot,
    })
}

/// The rulings that involved a player (their record page), newest first.
pub fn of_player(conn: &mut DbConn, player_id: PlayerId, limit: i64) -> AppResult<Vec<RulingLine>> {
    list(
        conn,
        &Filter {
            player_id: Some(player_id),
            limit,
            ..Filter::default()
        },
    )
}

/// The time `at` in the room's zone, for the log and its file.
pub fn local(at: NaiveDateTime, room: &Room) -> String {
    at.and_utc()
        .with_timezone(&room.tz)
        .format("%Y-%m-%d %H:%M")
        .to_string()
}

/// What a request form offers: the table, its hand in play and who sits where (seat, alias).
#[derive(Debug, Clone)]
pub struct AskForm {
    pub table: TableRow,
    pub hand: Option<i32>,
    pub seats: Vec<(i32, String)>,
}

/// The request form of a table (404 when there is none).
pub fn ask_form(conn: &mut DbConn, table_id: TableId) -> AppResult<AskForm> {
    let t = table(conn, table_id)?;
    let hand = hand_in_play(conn, table_id)?.map(|h| h.number);
    let seats: Vec<(i32, String)> = crate::native!(conn, |dbc| seatings::table
        .inner_join(players::table)
        .filter(seatings::table_id.eq(table_id))
        .filter(seatings::left_at.is_null())
        .order(seatings::seat_no.asc())
        .select((seatings::seat_no, players::alias))
        .load(dbc))?;
    Ok(AskForm {
        table: t,
        hand,
        seats,
    })
}
