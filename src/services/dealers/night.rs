//! The night at a glance: each dealer's state, each open table's dealer and down, and the
//! pushes proposed for the next hour.

use super::roster::DealerState;
use crate::db::models::{DealerBreakRow, DealerClockRow, DealerShiftRow, StaffRow};
use crate::db::schema::{card_tables, dealer_breaks, dealer_roster, dealer_shifts, staff};
use crate::db::DbConn;
use crate::domain::dealers::{self as rules, DealerNow, Next, PushRules};
use crate::domain::ids::TableId;
use crate::domain::staff::Role;
use crate::domain::table::TableState;
use crate::error::AppResult;
use chrono::{DateTime, Duration, NaiveDateTime, Utc};
use diesel::prelude::*;
use serde::{Deserialize, Serialize};
use std::borrow::Borrow;
use std::collections::HashMap;

/// How far ahead the pushes are proposed.
pub const HORIZON_MIN: i64 = 60;

/// One dealer on the night's roster.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct NightDealer {
    pub id: i64,
    pub name: String,
    pub state: DealerState,
    /// The table dealt at (its number), when dealing.
    pub table: Option<i32>,
    /// Since when in this state (not for a dealer off).
    pub since: Option<DateTime<Utc>>,
    /// Downs dealt since the last break (the current one included).
    pub downs: u32,
    /// Minutes dealt since the last break, the current down included.
    pub dealt_min: i64,
    /// A break is due (the room's push rules): given when next relieved.
    pub break_due: bool,
}

/// One table in play and its down.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct NightTable {
    #[schema(value_type = i64)]
    pub id: TableId,
    pub number: i32,
    /// Suspended below its minimum and closing (PT-2007 24): not relieved.
    pub closing: bool,
    /// Who deals there (none: the table has no dealer).
    pub dealer: Option<String>,
    pub down_since: Option<DateTime<Utc>>,
    /// When its down is up.
    pub down_ends: Option<DateTime<Utc>>,
}

/// Where a relieved dealer goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum AfterPush {
    /// A break, until `break_until`.
    Break,
    /// Free for the next push.
    Available,
}

/// One proposed push.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct NightPush {
    #[schema(value_type = i64)]
    pub table_id: TableId,
    pub table: i32,
    pub at: DateTime<Utc>,
    /// When the table's down is up (now, for a table without a dealer).
    pub due: DateTime<Utc>,
    /// After the down was up: no dealer was free in time.
    pub late: bool,
    pub incoming: String,
    pub incoming_id: i64,
    /// None: the table has no dealer.
    pub outgoing: Option<String>,
    pub outgoing_id: Option<i64>,
    /// Where the relieved dealer goes (none: the table had no dealer).
    pub next: Option<AfterPush>,
    pub break_until: Option<DateTime<Utc>>,
}

/// The night: the rules, the dealers, the open tables, the pushes of the next hour.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Night {
    #[schema(value_type = Object)]
    pub rules: PushRules,
    pub dealers: Vec<NightDealer>,
    pub tables: Vec<NightTable>,
    pub pushes: Vec<NightPush>,
}

impl NightPush {
    /// Minutes past the table's down when the push happens (none: on time).
    pub fn late_by(&self, now: impl Borrow<DateTime<Utc>>) -> Option<i64> {
        let now = *now.borrow();
        let at = self.at.max(now);
        (self.late || at > self.due).then(|| (at - self.due).num_minutes().max(1))
    }

    /// The push happens now or has to (its time has come).
    pub fn is_due(&self, now: impl Borrow<DateTime<Utc>>) -> bool {
        self.at <= *now.borrow()
    }
}

impl Night {
    /// The room keeps its dealers' night: someone is clocked in or dealing.
    pub fn in_use(&self) -> bool {
        self.dealers.iter().any(|d| d.state != DealerState::Off)
    }

    /// Dealers clocked in (dealing, on a break or available).
    pub fn working(&self) -> usize {
        self.dealers
            .iter()
            .filter(|d| d.state != DealerState::Off)
            .count()
    }

    /// The pushes due within `minutes` of `now`, in time order (the board's strip).
    pub fn soon(&self, now: impl Borrow<DateTime<Utc>>, minutes: i64) -> Vec<&NightPush> {
        let end = *now.borrow() + Duration::minutes(minutes);
        self.pushes.iter().filter(|p| p.at <= end).collect()
    }

    /// Dealers who may take a table now: available ones first, then those on a break
    /// (called back from it), each by name.
    pub fn free(&self) -> Vec<&NightDealer> {
        let mut out: Vec<&NightDealer> = self
            .dealers
            .iter()
            .filter(|d| matches!(d.state, DealerState::Available | DealerState::OnBreak))
            .collect();
        out.sort_by_key(|d| (d.state != DealerState::Available, d.name.clone()));
        out
    }

    /// Is dealer `id` free to take a table now?
    pub fn is_free(&self, id: impl Borrow<i64>) -> bool {
        let id = *id.borrow();
        self.free().iter().any(|d| d.id == id)
    }

    /// Tables in play without a dealer (not those closing).
    pub fn without_dealer(&self) -> Vec<&NightTable> {
        self.tables
            .iter()
            .filter(|t| t.dealer.is_none() && !t.closing)
            .collect()
    }

    /// Dealer `id`'s next push: where they go next and when, or where they are relieved.
    pub fn next_for(&self, id: i64) -> Option<&NightPush> {
        self.pushes
            .iter()
            .find(|p| p.incoming_id == id || p.outgoing_id == Some(id))
    }
}

fn utc(t: NaiveDateTime) -> DateTime<Utc> {
    t.and_utc()
}

/// The night's records, read in a few statements whatever the number of dealers: the open
/// clock-ins and breaks, the breaks ended and the downs dealt since the earliest clock-in,
/// and every open down.
struct Records {
    clocks: HashMap<i64, DealerClockRow>,
    breaks: HashMap<i64, DealerBreakRow>,
    last_break_end: HashMap<i64, NaiveDateTime>,
    shifts: HashMap<i64, Vec<DealerShiftRow>>,
}

impl Records {
    fn read(conn: &mut DbConn) -> AppResult<Records> {
        let clocks: Vec<DealerClockRow> = dealer_roster::table
            .filter(dealer_roster::clocked_out_at.is_null())
            .select(DealerClockRow::as_select())
            .load(conn)?;
        let earliest = clocks
            .iter()
            .map(|c| c.clocked_in_at)
            .min()
            .unwrap_or(NaiveDateTime::MAX);
        let breaks: Vec<DealerBreakRow> = dealer_breaks::table
            .filter(
                dealer_breaks::ended_at
                    .is_null()
                    .or(dealer_breaks::ended_at.ge(earliest)),
            )
            .select(DealerBreakRow::as_select())
            .load(conn)?;
        let shifts: Vec<DealerShiftRow> = dealer_shifts::table
            .filter(
                dealer_shifts::ended_at
                    .is_null()
                    .or(dealer_shifts::ended_at.ge(earliest)),
            )
            .select(DealerShiftRow::as_select())
            .load(conn)?;
        let mut last_break_end: HashMap<i64, NaiveDateTime> = HashMap::new();
        let mut open_breaks = HashMap::new();
        for b in breaks {
            match b.ended_at {
                Some(e) => {
                    let v = last_break_end.entry(b.dealer_id).or_insert(e);
                    *v = (*v).max(e);
                }
                None => {
                    open_breaks.insert(b.dealer_id, b);
                }
            }
        }
        let mut by_dealer: HashMap<i64, Vec<DealerShiftRow>> = HashMap::new();
        for s in shifts {
            by_dealer.entry(s.dealer_id).or_default().push(s);
        }
        Ok(Records {
            clocks: clocks.into_iter().map(|c| (c.dealer_id, c)).collect(),
            breaks: open_breaks,
            last_break_end,
            shifts: by_dealer,
        })
    }

    fn shifts_of(&self, id: i64) -> &[DealerShiftRow] {
        self.shifts.get(&id).map_or(&[], Vec::as_slice)
    }

    /// The dealer's downs and minutes dealt since their last break (or since clocking in).
    fn since_break(&self, id: i64, clocked_in: NaiveDateTime, now: DateTime<Utc>) -> (u32, i64) {
        let from = self
            .last_break_end
            .get(&id)
            .map_or(clocked_in, |b| (*b).max(clocked_in));
        let downs: Vec<&DealerShiftRow> = self
            .shifts_of(id)
            .iter()
            .filter(|s| s.started_at >= from)
            .collect();
        let dealt = downs
            .iter()
            .map(|s| {
                let end = s.ended_at.map_or(now, utc);
                (end - utc(s.started_at)).num_minutes().max(0)
            })
            .sum();
        (downs.len() as u32, dealt)
    }

    /// Where dealer `id` is now, as the domain counts it (dealing since, on a break since,
    /// available since their last down or clocking in, or off).
    fn now_of(
        &self,
        id: i64,
        numbers: &HashMap<TableId, i32>,
    ) -> (DealerState, Option<i32>, DealerNow) {
        let shift = self.shifts_of(id).iter().find(|s| s.ended_at.is_none());
        match (self.clocks.get(&id), self.breaks.get(&id), shift) {
            (_, _, Some(s)) => {
                let since = utc(s.started_at);
                let n = numbers.get(&s.table_id).copied();
                let now_is = DealerNow::Dealing {
                    table: s.table_id,
                    since,
                };
                (DealerState::Dealing, n, now_is)
            }
            (Some(_), Some(b), None) => {
                let since = utc(b.started_at);
                (DealerState::OnBreak, None, DealerNow::OnBreak { since })
            }
            (Some(c), None, None) => {
                let last_end = self.shifts_of(id).iter().filter_map(|s| s.ended_at).max();
                let from = last_end.map_or(c.clocked_in_at, |e| e.max(c.clocked_in_at));
                let since = utc(from);
                (DealerState::Available, None, DealerNow::Available { since })
            }
            (None, _, None) => (DealerState::Off, None, DealerNow::Off),
        }
    }

    /// Dealer `d`'s line on the roster, and the dealer as the push rules see them.
    fn roster_line(
        &self,
        d: &StaffRow,
        numbers: &HashMap<TableId, i32>,
        rules: &PushRules,
        now: DateTime<Utc>,
    ) -> (NightDealer, rules::Dealer) {
        let (state, table, dnow) = self.now_of(d.id, numbers);
        let (downs, dealt) = match self.clocks.get(&d.id) {
            Some(c) => self.since_break(d.id, c.clocked_in_at, now),
            None => (0, 0),
        };
        let since = match dnow {
            DealerNow::Dealing { since, .. }
            | DealerNow::OnBreak { since }
            | DealerNow::Available { since } => Some(since),
            DealerNow::Off => None,
        };
        // The domain counts the current down's minutes from its start.
        let before_current = match dnow {
            DealerNow::Dealing { since, .. } => dealt - (now - since).num_minutes().max(0),
            _ => dealt,
        };
        let line = NightDealer {
            id: d.id,
            name: d.display_name.clone(),
            state,
            table,
            since,
            downs,
            dealt_min: dealt,
            break_due: state != DealerState::Off && rules.break_due(downs, dealt),
        };
        let dealer = rules::Dealer {
            id: d.id,
            now: dnow,
            downs,
            dealt_min: before_current.max(0),
        };
        (line, dealer)
    }
}

/// A proposed push, with the table's number and the dealers' names.
fn push_out(
    p: rules::Push,
    numbers: &HashMap<TableId, i32>,
    names: &HashMap<i64, String>,
) -> NightPush {
    let name = |id: i64| names.get(&id).cloned().unwrap_or_default();
    NightPush {
        table_id: p.table,
        table: numbers.get(&p.table).copied().unwrap_or_default(),
        at: p.at,
        due: p.due,
        late: p.late,
        incoming: name(p.incoming),
        incoming_id: p.incoming,
        outgoing: p.outgoing.map(name),
        outgoing_id: p.outgoing,
        next: p.next.map(|n| match n {
            Next::Break { .. } => AfterPush::Break,
            Next::Available => AfterPush::Available,
        }),
        break_until: p.next.and_then(|n| match n {
            Next::Break { until } => Some(until),
            Next::Available => None,
        }),
    }
}

/// The night for the board: the whole of it while the room keeps its dealers' night (a
/// dealer clocked in, or anyone dealing), else nothing to show (two indexed counts, not the
/// reads of every table and dealer).
pub fn night_if_kept(conn: &mut DbConn, rules: &PushRules, now: DateTime<Utc>) -> AppResult<Night> {
    let clocked: i64 = dealer_roster::table
        .filter(dealer_roster::clocked_out_at.is_null())
        .count()
        .get_result(conn)?;
    let dealing: i64 = if clocked > 0 {
        0
    } else {
        dealer_shifts::table
            .filter(dealer_shifts::ended_at.is_null())
            .count()
            .get_result(conn)?
    };
    if clocked == 0 && dealing == 0 {
        return Ok(Night {
            rules: *rules,
            dealers: Vec::new(),
            tables: Vec::new(),
            pushes: Vec::new(),
        });
    }
    night(conn, rules, now)
}

/// The night as it stands at `now`, by the room's own push rules.
pub fn tonight(conn: &mut DbConn, now: DateTime<Utc>) -> AppResult<Night> {
    let room = crate::services::room::get(conn)?;
    night(conn, &room.profile.push_rules(), now)
}

/// The night as it stands at `now`, with the pushes of the next hour.
pub fn night(conn: &mut DbConn, rules: &PushRules, now: DateTime<Utc>) -> AppResult<Night> {
    let tables: Vec<(i64, i32, TableState)> = card_tables::table
        .filter(card_tables::state.eq_any(TableState::IN_PLAY))
        .order(card_tables::number.asc())
        .select((card_tables::id, card_tables::number, card_tables::state))
        .load(conn)?;
    let numbers: HashMap<TableId, i32> =
        tables.iter().map(|(id, n, _)| (TableId(*id), *n)).collect();
    let people: Vec<StaffRow> = staff::table
        .filter(staff::role.eq(Role::Dealer.as_str()))
        .filter(staff::active.eq(true))
        .order(staff::display_name.asc())
        .select(StaffRow::as_select())
        .load(conn)?;
    let records = Records::read(conn)?;
    let (dealers, domain): (Vec<NightDealer>, Vec<rules::Dealer>) = people
        .iter()
        .map(|d| records.roster_line(d, &numbers, rules, now))
        .unzip();
    let names: HashMap<i64, String> = people
        .iter()
        .map(|p| (p.id, p.display_name.clone()))
        .collect();
    // Who deals where, since when.
    let down_of: HashMap<TableId, (String, DateTime<Utc>)> = domain
        .iter()
        .filter_map(|d| match d.now {
            DealerNow::Dealing { table, since } => Some((
                table,
                (names.get(&d.id).cloned().unwrap_or_default(), since),
            )),
            _ => None,
        })
        .collect();
    let down = Duration::minutes(rules.down_min);
    let night_tables = tables
        .iter()
        .map(|(id, number, state)| {
            let d = down_of.get(&TableId(*id));
            NightTable {
                id: TableId(*id),
                number: *number,
                closing: *state == TableState::Suspended,
                dealer: d.map(|(n, _)| n.clone()),
                down_since: d.map(|(_, s)| *s),
                down_ends: d.map(|(_, s)| *s + down),
            }
        })
        .collect();
    let domain_tables: Vec<rules::Table> = tables
        .iter()
        .map(|(id, number, state)| rules::Table {
            id: TableId(*id),
            number: *number,
            // PT-2007 24: a suspended table closes unless players come back: not relieved.
            closing: *state == TableState::Suspended,
        })
        .collect();
    let horizon = Duration::minutes(HORIZON_MIN);
    let pushes = rules::propose(rules, &domain, &domain_tables, now, horizon)
        .into_iter()
        .map(|p| push_out(p, &numbers, &names))
        .collect();
    Ok(Night {
        rules: *rules,
        dealers,
        tables: night_tables,
        pushes,
    })
}
