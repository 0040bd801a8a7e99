//! PostgreSQL only: a floor write's row changes that always go together, sent as ONE
//! statement (a data-modifying `WITH`) instead of one statement each (step 4 of
//! `docs/postgresql.md`). On PostgreSQL every statement of a write is a round trip the room's
//! one writer waits for (~75 µs on a 2-core machine whose other core is idle); SQLite runs
//! the same changes as separate statements, where a statement is a library call.
//!
//! The statements change exactly what the separate ones change, in the same write and its
//! savepoint: a write that then fails is rolled back whole, as before. The sub-statements
//! of one `WITH` see the same snapshot, so only changes that do not read each other's rows
//! are put together here (a new row, and the list entry it takes).
//!
//! Every column of the row is written, a `None` as NULL, where diesel's insert sends
//! `DEFAULT` for a `None`: the same today, as none of these columns has a default. A
//! migration that gives one a default must write it here too (the suite runs on both
//! backends and would show the difference only where a test reads that column).

use super::models::{SeatCallRow, SeatingRow};
use crate::domain::ids::EntryId;
use chrono::NaiveDateTime;
use diesel::pg::PgConnection;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Integer, Nullable, Text, Timestamp};

#[derive(QueryableByName)]
struct Id {
    #[diesel(sql_type = BigInt)]
    #[allow(dead_code)] // counted, not read
    id: i64,
}

/// A new seat call for a listed player and their list entry called (PT-2007 12, BSOP 51), in
/// one statement: the call inserted (a unique-index violation when the seat already has an
/// open call, as the insert alone), the entry moved from `waiting` to `called`. Answers how
/// many entries moved: 0 when the entry no longer waits (the caller refuses the call, and
/// the write's rollback takes the inserted call back).
pub fn insert_call_taking_entry(
    c: &mut PgConnection,
    row: &SeatCallRow,
    entry_id: EntryId,
) -> QueryResult<usize> {
    const SQL: &str = "WITH c AS (INSERT INTO seat_calls \
         (id, table_id, seat_no, player_id, entry_id, source, called_at, respond_by, state, \
          acknowledged_at, resolved_at, created_by, escalated_at, player_answer, answered_at, \
          extended_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) \
         RETURNING id) \
         UPDATE waitlist_entries SET state = 'called' \
         WHERE id = $17 AND state = 'waiting' RETURNING id";
    super::Cached(
        diesel::sql_query(SQL)
            .bind::<BigInt, _>(row.id)
            .bind::<BigInt, _>(row.table_id)
            .bind::<Integer, _>(row.seat_no)
            .bind::<BigInt, _>(row.player_id)
            .bind::<Nullable<BigInt>, _>(row.entry_id)
            .bind::<Text, _>(&row.source)
            .bind::<Timestamp, _>(row.called_at)
            .bind::<Timestamp, _>(row.respond_by)
            .bind::<Text, _>(&row.state)
            .bind::<Nullable<Timestamp>, _>(row.acknowledged_at)
            .bind::<Nullable<Timestamp>, _>(row.resolved_at)
            .bind::<Nullable<BigInt>, _>(row.created_by)
            .bind::<Nullable<Timestamp>, _>(row.escalated_at)
            .bind::<Nullable<Text>, _>(row.player_answer.as_deref())
            .bind::<Nullable<Timestamp>, _>(row.answered_at)
            .bind::<Nullable<Timestamp>, _>(row.extended_at)
            .bind::<BigInt, _>(entry_id),
    )
    .load::<Id>(c)
    .map(|ids| ids.len())
}

/// A new seating and the list entry it uses up (BSOP 44), in one statement: the seating
/// inserted (a unique-index violation when the seat or the player is taken, as the insert
/// alone), the entry ended as `seated` at `ended_at`. Answers how many entries were ended.
pub fn insert_seating_using_entry(
    c: &mut PgConnection,
    row: &SeatingRow,
    entry_id: EntryId,
    ended_at: NaiveDateTime,
) -> QueryResult<usize> {
    const SQL: &str = "WITH s AS (INSERT INTO seatings \
         (id, table_id, seat_no, player_id, game_id, entry_id, sat_at, left_at, left_reason, \
          seated_by) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id) \
         UPDATE waitlist_entries SET state = 'seated', ended_at = $11, end_reason = 'seated' \
         WHERE id = $12 RETURNING id";
    super::Cached(
        diesel::sql_query(SQL)
            .bind::<BigInt, _>(row.id)
            .bind::<BigInt, _>(row.table_id)
            .bind::<Integer, _>(row.seat_no)
            .bind::<BigInt, _>(row.player_id)
            .bind::<Nullable<BigInt>, _>(row.game_id)
            .bind::<Nullable<BigInt>, _>(row.entry_id)
            .bind::<Timestamp, _>(row.sat_at)
            .bind::<Nullable<Timestamp>, _>(row.left_at)
            .bind::<Nullable<Text>, _>(row.left_reason.as_deref())
            .bind::<Nullable<BigInt>, _>(row.seated_by)
            .bind::<Timestamp, _>(ended_at)
            .bind::<BigInt, _>(entry_id),
    )
    .load::<Id>(c)
    .map(|ids| ids.len())
}
