//! Clocking in and out, and breaks. Each change is audited on the dealer (`staff`).

use crate::db::audit;
use crate::db::models::{DealerBreakRow, DealerClockRow, StaffRow};
use crate::db::schema::{dealer_breaks, dealer_roster};
use crate::db::{next_seq, DbConn};
use crate::domain::refusal::DealerRefusal;
use crate::domain::staff::Role;
use crate::error::{AppError, AppResult};
use crate::services::Act;
use diesel::prelude::*;
use serde::Serialize;

/// Where a dealer is now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DealerState {
    /// Dealing at a table (an open dealer shift).
    Dealing,
    /// On a break.
    OnBreak,
    /// Clocked in, at no table.
    Available,
    /// Not clocked in.
    Off,
}

impl DealerState {
    pub fn as_str(self) -> &'static str {
        match self {
            DealerState::Dealing => "dealing",
            DealerState::OnBreak => "on_break",
            DealerState::Available => "available",
            DealerState::Off => "off",
        }
    }
}

impl std::fmt::Display for DealerState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The active dealer `id`, or a refusal naming the field.
pub fn dealer(conn: &mut DbConn, id: i64) -> AppResult<StaffRow> {
    let d = crate::services::staff::get(conn, id).map_err(|e| match e {
        AppError::NotFound => AppError::field("dealer_id", "err-dealer-unknown"),
        other => other,
    })?;
    if d.role != Role::Dealer.as_str() || !d.active {
        return Err(AppError::field("dealer_id", "err-dealer-unknown"));
    }
    Ok(d)
}

/// The board follows the roster live (no table: every floor screen refreshes its strip).
fn roster_changed(conn: &mut DbConn, act: &Act, kind: &str) -> AppResult<()> {
    crate::services::floor::emit(conn, act.now, None, kind, &serde_json::json!({}))?;
    Ok(())
}

pub(super) fn open_clock(conn: &mut DbConn, id: i64) -> AppResult<Option<DealerClockRow>> {
    Ok(dealer_roster::table
        .filter(dealer_roster::dealer_id.eq(id))
        .filter(dealer_roster::clocked_out_at.is_null())
        .select(DealerClockRow::as_select())
        .first(conn)
        .optional()?)
}

pub(super) fn open_break(conn: &mut DbConn, id: i64) -> AppResult<Option<DealerBreakRow>> {
    Ok(dealer_breaks::table
        .filter(dealer_breaks::dealer_id.eq(id))
        .filter(dealer_breaks::ended_at.is_null())
        .select(DealerBreakRow::as_select())
        .first(conn)
        .optional()?)
}

fn insert_clock(conn: &mut DbConn, act: &Act, id: i64) -> AppResult<DealerClockRow> {
    let row = DealerClockRow {
        id: next_seq(conn, "dealer_roster")?,
        dealer_id: id,
        clocked_in_at: act.now.naive_utc(),
        clocked_out_at: None,
    };
    diesel::insert_into(dealer_roster::table)
        .values(&row)
        .execute(conn)?;
    audit::record::<(), _>(
        conn,
        act.now,
        &act.actor,
        "dealer.clock_in",
        "staff",
        Some(id),
        None,
        Some(&row),
    )?;
    roster_changed(conn, act, "dealer.clock_in")?;
    Ok(row)
}

/// The dealer clocks in for the night (from then on the push counts them).
pub fn clock_in(conn: &mut DbConn, act: &Act, id: i64) -> AppResult<DealerClockRow> {
    let d = dealer(conn, id)?;
    if open_clock(conn, id)?.is_some() {
        return Err(DealerRefusal::AlreadyIn {
            dealer: d.display_name,
        }
        .into());
    }
    insert_clock(conn, act, id)
}

/// A dealer dealing is at work: clocked in if they were not, and back from a break if they
/// were on one (a dealer who takes a table at its tablet, or whom the floor assigns).
pub fn present(conn: &mut DbConn, act: &Act, id: i64) -> AppResult<()> {
    if open_clock(conn, id)?.is_none() {
        insert_clock(conn, act, id)?;
    }
    if let Some(b) = open_break(conn, id)? {
        close_break(conn, act, &b)?;
    }
    Ok(())
}

/// The dealer clocks out: their down ends (the table is left without a dealer until the
/// next push), and so does a break they were on.
pub fn clock_out(conn: &mut DbConn, act: &Act, id: i64) -> AppResult<DealerClockRow> {
    let d = dealer(conn, id)?;
    let Some(c) = open_clock(conn, id)? else {
        return Err(DealerRefusal::NotIn {
            dealer: d.display_name,
        }
        .into());
    };
    if let Some(s) = crate::services::cagnotte::dealing_at(conn, id)? {
        crate::services::cagnotte::end_shift(conn, act, s.table_id)?;
    }
    if let Some(b) = open_break(conn, id)? {
        close_break(conn, act, &b)?;
    }
    let at = act.now.naive_utc();
    diesel::update(dealer_roster::table.find(c.id))
        .set(dealer_roster::clocked_out_at.eq(Some(at)))
        .execute(conn)?;
    let after = DealerClockRow {
        clocked_out_at: Some(at),
        ..c.clone()
    };
    audit::record(
        conn,
        act.now,
        &act.actor,
        "dealer.clock_out",
        "staff",
        Some(id),
        Some(&c),
        Some(&after),
    )?;
    roster_changed(conn, act, "dealer.clock_out")?;
    Ok(after)
}

/// The dealer goes on a break: clocked in, at no table (the floor relieves them first).
pub fn start_break(conn: &mut DbConn, act: &Act, id: i64) -> AppResult<DealerBreakRow> {
    let d = dealer(conn, id)?;
    if open_clock(conn, id)?.is_none() {
        return Err(DealerRefusal::NotIn {
            dealer: d.display_name,
        }
        .into());
    }
    if open_break(conn, id)?.is_some() {
        return Err(DealerRefusal::OnBreak {
            dealer: d.display_name,
        }
        .into());
    }
    if let Some(s) = crate::services::cagnotte::dealing_at(conn, id)? {
        let table = crate::services::games::get_table(conn, s.table_id)?.number;
        return Err(DealerRefusal::BreakWhileDealing {
            dealer: d.display_name,
            table,
        }
        .into());
    }
    let row = DealerBreakRow {
        id: next_seq(conn, "dealer_break")?,
        dealer_id: id,
        started_at: act.now.naive_utc(),
        ended_at: None,
    };
    diesel::insert_into(dealer_breaks::table)
        .values(&row)
        .execute(conn)?;
    audit::record::<(), _>(
        conn,
        act.now,
        &act.actor,
        "dealer.break",
        "staff",
        Some(id),
        None,
        Some(&row),
    )?;
    roster_changed(conn, act, "dealer.break")?;
    Ok(row)
}

fn close_break(conn: &mut DbConn, act: &Act, b: &DealerBreakRow) -> AppResult<DealerBreakRow> {
    let at = act.now.naive_utc();
    diesel::update(dealer_breaks::table.find(b.id))
        .set(dealer_breaks::ended_at.eq(Some(at)))
        .execute(conn)?;
    let after = DealerBreakRow {
        ended_at: Some(at),
        ..b.clone()
    };
    audit::record(
        conn,
        act.now,
        &act.actor,
        "dealer.back",
        "staff",
        Some(b.dealer_id),
        Some(b),
        Some(&after),
    )?;
    roster_changed(conn, act, "dealer.back")?;
    Ok(after)
}

/// The dealer is back from their break (available for the next push).
pub fn end_break(conn: &mut DbConn, act: &Act, id: i64) -> AppResult<DealerBreakRow> {
    let d = dealer(conn, id)?;
    let Some(b) = open_break(conn, id)? else {
        return Err(DealerRefusal::NotOnBreak {
            dealer: d.display_name,
        }
        .into());
    };
    close_break(conn, act, &b)
}

/// A change to a dealer's roster, as the pages name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RosterAction {
    ClockIn,
    ClockOut,
    Break,
    Back,
}

impl RosterAction {
    /// `clock-in`, `clock-out`, `break` or `back` (none: no such action).
    pub fn parse(s: &str) -> Option<RosterAction> {
        Some(match s {
            "clock-in" => RosterAction::ClockIn,
            "clock-out" => RosterAction::ClockOut,
            "break" => RosterAction::Break,
            "back" => RosterAction::Back,
            _ => return None,
        })
    }

    /// Does it to dealer `id`.
    pub fn apply(self, conn: &mut DbConn, act: &Act, id: i64) -> AppResult<()> {
        match self {
            RosterAction::ClockIn => clock_in(conn, act, id).map(drop),
            RosterAction::ClockOut => clock_out(conn, act, id).map(drop),
            RosterAction::Break => start_break(conn, act, id).map(drop),
            RosterAction::Back => end_break(conn, act, id).map(drop),
        }
    }
}
