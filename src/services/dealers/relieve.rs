//! The floor takes a dealer off their table with nobody to take it over (a table about to
//! break, a dealer needed elsewhere, a break that cannot wait): the down ends, the dealer
//! goes to a break or is free for the next push, and the table is without a dealer until
//! the next push (the board shows it so).

use super::roster::{dealer, present, start_break};
use super::AfterPush;
use crate::db::audit;
use crate::db::DbConn;
use crate::domain::ids::TableId;
use crate::domain::refusal::DealerRefusal;
use crate::error::AppResult;
use crate::services::cagnotte;
use crate::services::Act;
use chrono::{DateTime, Duration, Utc};
use serde::Serialize;

/// A dealer taken off a table.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Relieved {
    pub table: i32,
    pub dealer: String,
    pub dealer_id: i64,
    /// Where the dealer went.
    pub to: AfterPush,
    /// Until when their break runs (a break only).
    pub break_until: Option<DateTime<Utc>>,
}

/// The dealer at table `table_id` leaves it now for `to`, and nobody takes it over.
/// Refused, with nothing written, at a table without a dealer.
pub fn relieve(
    conn: &mut DbConn,
    act: &Act,
    table_id: TableId,
    to: AfterPush,
) -> AppResult<Relieved> {
    let t = crate::services::games::get_table(conn, table_id)?;
    let Some(shift) = cagnotte::open_shift(conn, t.id)? else {
        return Err(DealerRefusal::NoDealerHere { table: t.number }.into());
    };
    let d = dealer(conn, shift.dealer_id)?;
    cagnotte::end_shift(conn, act, t.id)?;
    let break_until = match to {
        AfterPush::Break => {
            // A dealer who took the table at its tablet without clocking in is clocked in
            // by their down; the break starts now.
            present(conn, act, d.id)?;
            let b = start_break(conn, act, d.id)?;
            let rules = act.room.profile.push_rules();
            Some(b.started_at.and_utc() + Duration::minutes(rules.break_min))
        }
        AfterPush::Available => None,
    };
    let done = Relieved {
        table: t.number,
        dealer: d.display_name,
        dealer_id: d.id,
        to,
        break_until,
    };
    audit::record::<(), _>(
        conn,
        act.now,
        &act.actor,
        "dealer.relieve",
        "table",
        Some(t.id.get()),
        None,
        Some(&done),
    )?;
    // The board and the table's tablet see the table without a dealer at once.
    crate::services::floor::emit(conn, act.now, Some(t.id), "dealer.relieve", &done)?;
    Ok(done)
}
