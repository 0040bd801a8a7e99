//! The night at a glance: each dealer's state, each open table's dealer and down, and the
//! pushes proposed for the next hour.

use super::roster::{open_break, open_clock, DealerState};
use crate::db::models::{DealerClockRow, DealerShiftRow, StaffRow};
use crate::db::schema::{card_tables, dealer_breaks, dealer_shifts, staff};
use crate::db::DbConn;
use crate::domain::dealers::{self as rules, DealerNow, Next, PushRules};
use crate::domain::ids::TableId;
use crate::domain::staff::Role;
use crate::domain::table::TableState;
use crate::error::AppResult;
use chrono::{DateTime, Duration, NaiveDateTime, Utc};
use diesel::prelude::*;
use serde::{Deserialize, Serialize};
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

fn utc(t: NaiveDateTime) -> DateTime<Utc> {
    t.and_utc()
}

/// The dealer's downs and minutes dealt since their last break (or since clocking in).
pub(super) fn since_break(
    conn: &mut DbConn,
    d: &StaffRow,
    clocked_in: NaiveDateTime,
    now: DateTime<Utc>,
) -> AppResult<(u32, i64)> {
    let last_break: Option<Option<NaiveDateTime>> = dealer_breaks::table
        .filter(dealer_breaks::dealer_id.eq(d.id))
        .filter(dealer_breaks::ended_at.is_not_null())
        .select(dealer_breaks::ended_at)
        .order(dealer_breaks::ended_at.desc())
        .first(conn)
        .optional()?;
    let from = last_break
        .flatten()
        .map_or(clocked_in, |b| b.max(clocked_in));
    let downs: Vec<DealerShiftRow> = dealer_shifts::table
        .filter(dealer_shifts::dealer_id.eq(d.id))
        .filter(dealer_shifts::started_at.ge(from))
        .select(DealerShiftRow::as_select())
        .load(conn)?;
    let dealt = downs
        .iter()
        .map(|s| {
            let end = s.ended_at.map_or(now, utc);
            (end - utc(s.started_at)).num_minutes().max(0)
        })
        .sum();
    Ok((downs.len() as u32, dealt))
}

/// Where dealer `d` is now, as the domain counts it (dealing since, on a break since,
/// available since their last down or clocking in, or off).
fn now_of(
    conn: &mut DbConn,
    d: &StaffRow,
    numbers: &HashMap<TableId, i32>,
    clock: Option<&DealerClockRow>,
) -> AppResult<(DealerState, Option<i32>, DealerNow)> {
    let shift = crate::services::cagnotte::dealing_at(conn, d.id)?;
    let brk = open_break(conn, d.id)?;
    Ok(match (clock, &brk, &shift) {
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
            let last_end: Option<Option<NaiveDateTime>> = dealer_shifts::table
                .filter(dealer_shifts::dealer_id.eq(d.id))
                .select(dealer_shifts::ended_at)
                .order(dealer_shifts::ended_at.desc())
                .first(conn)
                .optional()?;
            let from = last_end
                .flatten()
                .map_or(c.clocked_in_at, |e| e.max(c.clocked_in_at));
            let since = utc(from);
            (DealerState::Available, None, DealerNow::Available { since })
        }
        (None, _, None) => (DealerState::Off, None, DealerNow::Off),
    })
}

/// Dealer `d`'s line on the roster, and the dealer as the push rules see them.
fn roster_line(
    conn: &mut DbConn,
    d: &StaffRow,
    numbers: &HashMap<TableId, i32>,
    rules: &PushRules,
    now: DateTime<Utc>,
) -> AppResult<(NightDealer, rules::Dealer)> {
    let clock = open_clock(conn, d.id)?;
    let (state, table, dnow) = now_of(conn, d, numbers, clock.as_ref())?;
    let (downs, dealt) = match clock {
        Some(c) => since_break(conn, d, c.clocked_in_at, now)?,
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
    Ok((line, dealer))
}

/// A proposed push, with the table's number and the dealers' names.
fn push_out(
    p: rules::Push,
    numbers: &HashMap<TableId, i32>,
    names: &HashMap<i64, String>,
) -> NightPush {
    let name = |id: i64| names.get(&id).cloned().unwrap_or_default();
    NightPush {
        table: numbers.get(&p.table).copied().unwrap_or_default(),
        at: p.at,
        due: p.due,
        late: p.late,
        incoming: name(p.incoming),
        incoming_id: p.incoming,
        outgoing: p.outgoing.map(name),
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
    let mut dealers = Vec::with_capacity(people.len());
    let mut domain = Vec::with_capacity(people.len());
    for d in &people {
        let (line, dealer) = roster_line(conn, d, &numbers, rules, now)?;
        dealers.push(line);
        domain.push(dealer);
    }
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
