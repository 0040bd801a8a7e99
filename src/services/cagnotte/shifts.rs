//! The dealer's shift at a table, which the tips and the drop box are recorded on.

use crate::db::audit::{self};
use crate::db::models::DealerShiftRow;
use crate::db::schema::{dealer_shifts, staff};
use crate::db::{next_seq, DbConn};
use crate::domain::ids::TableId;
use crate::domain::refusal::{CagnotteRefusal, TabletRefusal};
use crate::domain::staff::Role;
use crate::error::{AppError, AppResult};
use crate::services::Act;
use diesel::prelude::*;

/// The table's open dealer shift, if any.
pub fn open_shift(conn: &mut DbConn, table_id: TableId) -> AppResult<Option<DealerShiftRow>> {
    Ok(crate::native!(conn, |dbc| dealer_shifts::table
        .filter(dealer_shifts::table_id.eq(table_id))
        .filter(dealer_shifts::ended_at.is_null())
        .select(DealerShiftRow::as_select())
        .first(dbc)
        .optional())?)
}

/// The dealer's open shift, at whichever table (a dealer deals at one table at a time).
pub fn dealing_at(conn: &mut DbConn, dealer_id: i64) -> AppResult<Option<DealerShiftRow>> {
    Ok(crate::native!(conn, |dbc| dealer_shifts::table
        .filter(dealer_shifts::dealer_id.eq(dealer_id))
        .filter(dealer_shifts::ended_at.is_null())
        .select(DealerShiftRow::as_select())
        .first(dbc)
        .optional())?)
}

/// A shift begins (or goes on) for this dealer at this table (a floor manager's assignment,
/// `services::dealer_scope::assign`).
pub fn begin_shift(
    conn: &mut DbConn,
    act: &Act,
    table_id: TableId,
    dealer_id: i64,
) -> AppResult<DealerShiftRow> {
    keep_shift(conn, act, table_id, dealer_id)
}

/// The staff member dealing at the table: their shift goes on, or begins — ending the shift
/// of whoever dealt here, and the dealer's own shift at another table (they are here now).
pub(super) fn keep_shift(
    conn: &mut DbConn,
    act: &Act,
    table_id: TableId,
    dealer_id: i64,
) -> AppResult<DealerShiftRow> {
    let (now, actor) = (act.now, &act.actor);
    if let Some(s) = open_shift(conn, table_id)? {
        if s.dealer_id == dealer_id {
            return Ok(s);
        }
        end_shift_row(conn, act, &s)?;
    }
    if let Some(elsewhere) = dealing_at(conn, dealer_id)? {
        end_shift_row(conn, act, &elsewhere)?;
    }
    let row = DealerShiftRow {
        id: next_seq(conn, "dealer_shift")?,
        table_id,
        dealer_id,
        started_at: now.naive_utc(),
        ended_at: None,
    };
    // The unique indexes (one open shift per table, one per dealer) settle a race.
    crate::native!(conn, |dbc| diesel::insert_into(dealer_shifts::table)
        .values(&row)
        .execute(dbc))
    .map_err(|e| {
        if crate::db::is_unique_violation(&e) {
            AppError::from(TabletRefusal::DealerRace)
        } else {
            e.into()
        }
    })?;
    // A dealer dealing is at work: clocked in, back from a break.
    if crate::services::staff::get(conn, dealer_id)?.role == Role::Dealer.as_str() {
        crate::services::dealers::present(conn, act, dealer_id)?;
    }
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "shift.start",
        "table",
        Some(table_id.get()),
        None,
        Some(&row),
    )?;
    Ok(row)
}

pub(super) fn end_shift_row(conn: &mut DbConn, act: &Act, s: &DealerShiftRow) -> AppResult<()> {
    let (now, actor) = (act.now, &act.actor);
    crate::native!(conn, |dbc| diesel::update(
        dealer_shifts::table
            .find(s.id)
            .filter(dealer_shifts::ended_at.is_null())
    )
    .set(dealer_shifts::ended_at.eq(Some(now.naive_utc())))
    .execute(dbc))?;
    audit::record(
        conn,
        now,
        actor,
        "shift.end",
        "table",
        Some(s.table_id.get()),
        Some(s),
        Some(&serde_json::json!({ "ended_at": now })),
    )?;
    Ok(())
}

/// The dealer's shift at the table ends (the tips and drop box recorded with it stay on it).
pub fn end_shift(conn: &mut DbConn, act: &Act, table_id: TableId) -> AppResult<DealerShiftRow> {
    let s = open_shift(conn, table_id)?.ok_or(CagnotteRefusal::ShiftNone)?;
    end_shift_row(conn, act, &s)?;
    Ok(s)
}

/// The shift a tip or drop box recorded now at the table belongs to: the open one, or one
/// begun by whoever records it.
pub(super) fn shift_for(
    conn: &mut DbConn,
    act: &Act,
    table_id: TableId,
) -> AppResult<Option<DealerShiftRow>> {
    let actor = &act.actor;
    if let Some(s) = open_shift(conn, table_id)? {
        return Ok(Some(s));
    }
    match actor.id {
        Some(id) => Ok(Some(keep_shift(conn, act, table_id, id)?)),
        None => Ok(None),
    }
}

/// The open shift's dealer name, for the tablet's header.
pub fn shift_dealer(
    conn: &mut DbConn,
    table_id: TableId,
) -> AppResult<Option<(DealerShiftRow, String)>> {
    let Some(s) = open_shift(conn, table_id)? else {
        return Ok(None);
    };
    let name: String = crate::native!(conn, |dbc| staff::table
        .find(s.dealer_id)
        .select(staff::display_name)
        .first(dbc))?;
    Ok(Some((s, name)))
}
