//! The table's suspensions (PT-2007 24: they do not count towards the hour of play).

use super::common::utc;
use crate::db::models::SuspensionRow;
use crate::db::schema::table_suspensions;
use crate::db::{next_seq, DbConn};
use crate::domain::cagnotte::Suspension;
use crate::domain::ids::TableId;
use crate::error::AppResult;
use chrono::{DateTime, NaiveDateTime, Utc};
use diesel::prelude::*;

/// The table was suspended at `now` (called where the table's state changes).
pub fn suspension_started(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    table_id: TableId,
) -> AppResult<()> {
    let row = SuspensionRow {
        id: next_seq(conn, "suspension")?,
        table_id,
        from_at: now.naive_utc(),
        to_at: None,
    };
    crate::native!(conn, |dbc| diesel::insert_into(table_suspensions::table)
        .values(&row)
        .execute(dbc))?;
    Ok(())
}

/// The table's suspension ended at `now` (it runs again, or it closed).
pub fn suspension_ended(conn: &mut DbConn, now: DateTime<Utc>, table_id: TableId) -> AppResult<()> {
    crate::native!(conn, |dbc| diesel::update(
        table_suspensions::table
            .filter(table_suspensions::table_id.eq(table_id))
            .filter(table_suspensions::to_at.is_null())
    )
    .set(table_suspensions::to_at.eq(Some(now.naive_utc())))
    .execute(dbc))?;
    Ok(())
}

/// The table's suspensions that end after `since` (or are still running).
pub fn suspensions_since(
    conn: &mut DbConn,
    table_id: TableId,
    since: NaiveDateTime,
) -> AppResult<Vec<Suspension>> {
    let rows: Vec<SuspensionRow> = crate::native!(conn, |dbc| table_suspensions::table
        .filter(table_suspensions::table_id.eq(table_id))
        .filter(
            table_suspensions::to_at
                .is_null()
                .or(table_suspensions::to_at.gt(since))
        )
        .select(SuspensionRow::as_select())
        .load(dbc))?;
    Ok(rows
        .into_iter()
        .map(|r| Suspension {
            from: utc(r.from_at),
            to: r.to_at.map(utc),
        })
        .collect())
}
