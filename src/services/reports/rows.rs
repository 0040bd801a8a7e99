//! The report's bulk reads: only the columns a figure needs, each time as whole seconds since
//! the epoch (UTC, rounded down — what [`super::secs`] gives for a `NaiveDateTime`) computed
//! by the database itself.
//!
//! Why: a month of a 50-table room is ~650k hands, ~90k seatings and ~100k list entries.
//! SQLite stores a timestamp as text, and decoding it into a `NaiveDateTime` (chrono's
//! format parser, then `.timestamp()`) was a third of the month report's time; SQLite's
//! `unixepoch()` does the same conversion in C at a tenth of the cost. PostgreSQL computes it
//! from its binary timestamp. Both floor the fraction of a second, as `timestamp()` does.
//! The queries run on the backend's own connection ([`crate::native!`]): rows are decoded
//! without the `MultiConnection` wrapper's extra layer.

use crate::db::schema::{
    cagnotte_dues, cagnotte_sessions, commissions, drop_boxes, hands, seat_calls, seatings,
    special_contributions, special_hands, tips, waitlist_entries,
};
use crate::db::DbConn;
use crate::domain::states::CallState;
use crate::domain::states::DueState;
use chrono::NaiveDateTime;
use diesel::dsl::sql;
use diesel::prelude::*;
use diesel::sql_types::{Array, BigInt, Nullable, Timestamp};

/// The SQL for "`column` as whole seconds since the epoch" on this connection's backend.
/// `column` is a quoted `"table"."column"` of type TIMESTAMP (UTC); NULL stays NULL.
fn epoch_sql(conn: &DbConn, column: &str) -> String {
    match conn {
        DbConn::Sqlite(_) => format!("unixepoch({column})"),
        // date_part (double precision) rather than extract (numeric): the same floor for
        // microsecond timestamps of this era, at a fraction of the cost.
        DbConn::Postgres(_) => format!("floor(date_part('epoch', {column}))::bigint"),
    }
}

/// A hand: table, its own game, start (seconds), rake.
pub(super) type Hand = (i64, Option<i64>, i64, Option<i64>);
/// A cagnotte due: table, game, amount, exempted (its state is `exempt`), collected, due at.
pub(super) type Due = (i64, i64, i64, bool, Option<i64>, i64);
/// A drop box or tip: table, own game, shift, amount, at.
pub(super) type Counted = (i64, Option<i64>, Option<i64>, i64, i64);
/// A commission: table, own game, amount, at.
pub(super) type Commission = (i64, Option<i64>, i64, i64);
/// A seating: table, own game, sat at, left at (None: still seated).
pub(super) type Sit = (i64, Option<i64>, i64, Option<i64>);
/// A list entry: game, joined at, ended at, whether it ended `seated` (None: no end reason).
pub(super) type Entry = (i64, i64, Option<i64>, Option<bool>);
/// An expired seat call: table, the list's game, called at.
pub(super) type Call = (i64, Option<i64>, i64);
/// A special hand (BSOP 115, 116): id, table, own game, kind, at.
pub(super) type Special = (i64, i64, Option<i64>, String, i64);

/// Cagnotte sessions started in `[from, to)`: table, game, start.
pub(super) fn sessions(
    conn: &mut DbConn,
    from: NaiveDateTime,
    to: NaiveDateTime,
) -> QueryResult<Vec<(i64, i64, i64)>> {
    let at = epoch_sql(conn, r#""cagnotte_sessions"."started_at""#);
    crate::native!(conn, |c| cagnotte_sessions::table
        .filter(cagnotte_sessions::started_at.ge(from))
        .filter(cagnotte_sessions::started_at.lt(to))
        .select((
            cagnotte_sessions::table_id,
            cagnotte_sessions::game_id,
            sql::<BigInt>(&at)
        ))
        .load(c))
}

/// Dues due in `[from, to)`.
pub(super) fn dues(
    conn: &mut DbConn,
    from: NaiveDateTime,
    to: NaiveDateTime,
) -> QueryResult<Vec<Due>> {
    let at = epoch_sql(conn, r#""cagnotte_dues"."due_at""#);
    crate::native!(conn, |c| cagnotte_dues::table
        .filter(cagnotte_dues::due_at.ge(from))
        .filter(cagnotte_dues::due_at.lt(to))
        .select((
            cagnotte_dues::table_id,
            cagnotte_dues::game_id,
            cagnotte_dues::amount,
            cagnotte_dues::state.eq(DueState::Exempt),
            cagnotte_dues::collected,
            sql::<BigInt>(&at)
        ))
        .load(c))
}

/// Hands started in `[from, to)` (read from the covering index `hands_report`, migration
/// 000013: no visit to the table's rows).
///
/// On PostgreSQL the ~650k rows of a month come grouped by table, game and rake (a few
/// hundred groups), each with the array of its hands' start times: sending and decoding one
/// row per hand was most of the report's time there, and the server now sends one value
/// per hand instead of four. No sum is taken in SQL: the caller still adds
/// each hand's rake, checked. The same hands, the same values; only their order differs,
/// which no figure depends on.
pub(super) fn hands(
    conn: &mut DbConn,
    from: NaiveDateTime,
    to: NaiveDateTime,
) -> QueryResult<Vec<Hand>> {
    let at = epoch_sql(conn, r#""hands"."at""#);
    match conn {
        DbConn::Sqlite(c) => hands::table
            .filter(hands::at.ge(from))
            .filter(hands::at.lt(to))
            .select((
                hands::table_id,
                hands::game_id,
                sql::<BigInt>(&at),
                hands::rake,
            ))
            .load(c),
        DbConn::Postgres(c) => {
            #[derive(QueryableByName)]
            struct Group {
                #[diesel(sql_type = BigInt)]
                table_id: i64,
                #[diesel(sql_type = Nullable<BigInt>)]
                game_id: Option<i64>,
                #[diesel(sql_type = Nullable<BigInt>)]
                rake: Option<i64>,
                #[diesel(sql_type = Array<BigInt>)]
                ats: Vec<i64>,
            }
            let q = format!(
                "SELECT table_id, game_id, rake, array_agg({at}) AS ats FROM hands \
                 WHERE at >= $1 AND at < $2 GROUP BY table_id, game_id, rake"
            );
            let groups: Vec<Group> = diesel::sql_query(q)
                .bind::<Timestamp, _>(from)
                .bind::<Timestamp, _>(to)
                .load(c)?;
            Ok(groups
                .into_iter()
                .flat_map(|g| {
                    g.ats
                        .into_iter()
                        .map(move |t| (g.table_id, g.game_id, t, g.rake))
                })
                .collect())
        }
    }
}

/// Drop boxes counted in `[from, to)`.
pub(super) fn drop_boxes(
    conn: &mut DbConn,
    from: NaiveDateTime,
    to: NaiveDateTime,
) -> QueryResult<Vec<Counted>> {
    let at = epoch_sql(conn, r#""drop_boxes"."at""#);
    crate::native!(conn, |c| drop_boxes::table
        .filter(drop_boxes::at.ge(from))
        .filter(drop_boxes::at.lt(to))
        .select((
            drop_boxes::table_id,
            drop_boxes::game_id,
            drop_boxes::shift_id,
            drop_boxes::amount,
            sql::<BigInt>(&at)
        ))
        .load(c))
}

/// Tips given in `[from, to)`.
pub(super) fn tips(
    conn: &mut DbConn,
    from: NaiveDateTime,
    to: NaiveDateTime,
) -> QueryResult<Vec<Counted>> {
    let at = epoch_sql(conn, r#""tips"."at""#);
    crate::native!(conn, |c| tips::table
        .filter(tips::at.ge(from))
        .filter(tips::at.lt(to))
        .select((
            tips::table_id,
            tips::game_id,
            tips::shift_id,
            tips::amount,
            sql::<BigInt>(&at)
        ))
        .load(c))
}

/// Commissions taken in `[from, to)`.
pub(super) fn commissions(
    conn: &mut DbConn,
    from: NaiveDateTime,
    to: NaiveDateTime,
) -> QueryResult<Vec<Commission>> {
    let at = epoch_sql(conn, r#""commissions"."at""#);
    crate::native!(conn, |c| commissions::table
        .filter(commissions::at.ge(from))
        .filter(commissions::at.lt(to))
        .select((
            commissions::table_id,
            commissions::game_id,
            commissions::amount,
            sql::<BigInt>(&at)
        ))
        .load(c))
}

/// Special hands (BSOP 115, 116) started in `[from, to)`.
pub(super) fn special_hands(
    conn: &mut DbConn,
    from: NaiveDateTime,
    to: NaiveDateTime,
) -> QueryResult<Vec<Special>> {
    let at = epoch_sql(conn, r#""special_hands"."at""#);
    crate::native!(conn, |c| special_hands::table
        .filter(special_hands::at.ge(from))
        .filter(special_hands::at.lt(to))
        .select((
            special_hands::id,
            special_hands::table_id,
            special_hands::game_id,
            special_hands::kind,
            sql::<BigInt>(&at)
        ))
        .load(c))
}

/// The fixed contributions put in the special hands started in `[from, to)` (the seats
/// marked as taking part): special hand id, amount.
pub(super) fn special_contributions(
    conn: &mut DbConn,
    from: NaiveDateTime,
    to: NaiveDateTime,
) -> QueryResult<Vec<(i64, i64)>> {
    crate::native!(conn, |c| special_contributions::table
        .inner_join(special_hands::table)
        .filter(special_hands::at.ge(from))
        .filter(special_hands::at.lt(to))
        .filter(special_contributions::took_part.eq(true))
        .select((
            special_contributions::special_hand_id,
            special_contributions::amount
        ))
        .load(c))
}

/// Seatings that began before `until` and had not ended by `from`.
pub(super) fn seatings(
    conn: &mut DbConn,
    from: NaiveDateTime,
    until: NaiveDateTime,
) -> QueryResult<Vec<Sit>> {
    let sat = epoch_sql(conn, r#""seatings"."sat_at""#);
    let left = epoch_sql(conn, r#""seatings"."left_at""#);
    crate::native!(conn, |c| seatings::table
        .filter(seatings::sat_at.lt(until))
        .filter(seatings::left_at.is_null().or(seatings::left_at.gt(from)))
        .select((
            seatings::table_id,
            seatings::game_id,
            sql::<BigInt>(&sat),
            sql::<Nullable<BigInt>>(&left)
        ))
        .load(c))
}

/// List entries that joined before `until` and had not left by `from`.
pub(super) fn entries(
    conn: &mut DbConn,
    from: NaiveDateTime,
    until: NaiveDateTime,
) -> QueryResult<Vec<Entry>> {
    let joined = epoch_sql(conn, r#""waitlist_entries"."joined_at""#);
    let ended = epoch_sql(conn, r#""waitlist_entries"."ended_at""#);
    crate::native!(conn, |c| waitlist_entries::table
        .filter(waitlist_entries::joined_at.lt(until))
        .filter(
            waitlist_entries::ended_at
                .is_null()
                .or(waitlist_entries::ended_at.gt(from))
        )
        .select((
            waitlist_entries::game_id,
            sql::<BigInt>(&joined),
            sql::<Nullable<BigInt>>(&ended),
            waitlist_entries::end_reason.eq("seated")
        ))
        .load(c))
}

/// Seat calls made in `[from, to)` that expired, with the game of the list they came from.
pub(super) fn no_shows(
    conn: &mut DbConn,
    from: NaiveDateTime,
    to: NaiveDateTime,
) -> QueryResult<Vec<Call>> {
    let at = epoch_sql(conn, r#""seat_calls"."called_at""#);
    crate::native!(conn, |c| seat_calls::table
        .left_join(
            waitlist_entries::table.on(waitlist_entries::id.nullable().eq(seat_calls::entry_id))
        )
        .filter(seat_calls::state.eq(CallState::Expired))
        .filter(seat_calls::called_at.ge(from))
        .filter(seat_calls::called_at.lt(to))
        .select((
            seat_calls::table_id,
            waitlist_entries::game_id.nullable(),
            sql::<BigInt>(&at)
        ))
        .load(c))
}
