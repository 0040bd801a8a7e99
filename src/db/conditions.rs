//! State filters written into the SQL as literals.
//!
//! The floor filters on a few states over and over (`seat_calls` pending or acknowledged,
//! list entries waiting or called, tables in play). Bound as parameters, those values hide
//! from PostgreSQL what its partial indexes need proven (`seat_calls_open_player … WHERE
//! state IN ('pending', 'acknowledged')`, `waitlist_active_player`, …): a generic plan cannot
//! use them, so PostgreSQL plans each run of such a statement afresh (a custom plan: 0.13 to
//! 0.26 ms for a call's player check, 2026-11-25, against 0.02–0.05 ms to run it). Written
//! into the SQL, the same statement gets a generic plan that uses the partial index after
//! its fifth run on a connection, and is never planned again (0.005 ms). SQLite can use the
//! partial indexes then too (it never plans with bound values, `db::sqlite`).
//!
//! Each condition is a type of its own with a static query id, so diesel keeps its statement
//! prepared as before (a `sql()` literal would make diesel build the statement's text on
//! every run). The SQL names its table, as diesel writes it: not for an aliased table.

use diesel::backend::Backend;
use diesel::expression::{
    is_aggregate, AppearsOnTable, Expression, SelectableExpression, ValidGrouping,
};
use diesel::query_builder::{AstPass, QueryFragment, QueryId};
use diesel::sql_types::Bool;
use diesel::QueryResult;

macro_rules! condition {
    ($(#[$doc:meta])* $name:ident = $sql:literal) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, QueryId)]
        pub struct $name;

        impl $name {
            /// The condition as written into the statement.
            pub const SQL: &'static str = $sql;
        }

        impl Expression for $name {
            type SqlType = Bool;
        }

        impl<DB: Backend> QueryFragment<DB> for $name {
            fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, DB>) -> QueryResult<()> {
                out.push_sql($sql);
                Ok(())
            }
        }

        impl<QS: ?Sized> AppearsOnTable<QS> for $name {}
        impl<QS: ?Sized> SelectableExpression<QS> for $name {}
        impl<GB> ValidGrouping<GB> for $name {
            type IsAggregate = is_aggregate::Never;
        }
    };
}

condition! {
    /// A seat call still open: pending or acknowledged.
    CallOpen = r#"("seat_calls"."state" IN ('pending', 'acknowledged'))"#
}

condition! {
    /// A list entry still active: waiting or called.
    EntryActive = r#"("waitlist_entries"."state" IN ('waiting', 'called'))"#
}

condition! {
    /// A list entry waiting to be called.
    EntryWaiting = r#"("waitlist_entries"."state" = 'waiting')"#
}

condition! {
    /// A table in play: open, running or suspended.
    TableInPlay = r#"("card_tables"."state" IN ('open', 'running', 'suspended'))"#
}

condition! {
    /// A seat call not yet acknowledged (the scheduler's escalation pass: proves the partial
    /// indexes on open calls, which a bound `'pending'` does not for a generic plan).
    CallPending = r#"("seat_calls"."state" = 'pending')"#
}

condition! {
    /// A guest's place on a list still waiting (`guest_entries_active`).
    GuestWaiting = r#"("guest_entries"."state" = 'waiting')"#
}

condition! {
    /// A seat-change request still open.
    SeatChangeOpen = r#"("seat_change_requests"."state" = 'open')"#
}

condition! {
    /// A table's limit change still pending (`limit_changes_one_pending`, PT-2007 22): read by
    /// the scheduler every second and by every board refresh.
    LimitChangePending = r#"("limit_changes"."state" = 'pending')"#
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::schema::seat_calls;
    use crate::domain::states::{
        CallState, EntryState, GuestState, LimitChangeState, SeatChangeState,
    };
    use crate::domain::table::TableState;
    use diesel::prelude::*;
    use std::str::FromStr;

    /// The quoted states of a condition's SQL, each read as the column's enum.
    fn states_of<E: FromStr>(sql: &str) -> Vec<Result<E, String>> {
        sql.split('\'')
            .skip(1)
            .step_by(2)
            .map(|s| s.parse::<E>().map_err(|_| s.to_string()))
            .collect()
    }

    fn assert_states<E: FromStr + std::fmt::Debug>(sql: &str, count: usize) {
        let states = states_of::<E>(sql);
        assert_eq!(states.len(), count, "{sql}");
        for s in states {
            assert!(
                s.is_ok(),
                "{sql}: {s:?} is not a {}",
                std::any::type_name::<E>()
            );
        }
    }

    /// The literals the conditions keep (for the partial indexes) are states of their
    /// columns' enums: a state renamed in its enum fails here, not in a room at night.
    #[test]
    fn the_literals_are_states_of_their_enums() {
        assert_states::<CallState>(CallOpen::SQL, 2);
        assert_states::<CallState>(CallPending::SQL, 1);
        assert_states::<EntryState>(EntryActive::SQL, 2);
        assert_states::<EntryState>(EntryWaiting::SQL, 1);
        assert_states::<TableState>(TableInPlay::SQL, 3);
        assert_states::<GuestState>(GuestWaiting::SQL, 1);
        assert_states::<SeatChangeState>(SeatChangeOpen::SQL, 1);
        assert_states::<LimitChangeState>(LimitChangePending::SQL, 1);
        // Not an enum of this module's columns: a misspelt state is caught all the same.
        assert!(states_of::<TableState>("(\"t\".\"state\" = 'opne')")[0].is_err());
    }

    /// The states are in the statement's text, not bound: what lets PostgreSQL's generic plan
    /// (and SQLite's one plan) use the partial indexes on them.
    #[test]
    fn states_are_written_into_the_statement_not_bound() {
        let q = seat_calls::table
            .filter(seat_calls::player_id.eq(7i64))
            .filter(CallOpen)
            .select(seat_calls::id);
        for sql in [
            diesel::debug_query::<diesel::pg::Pg, _>(&q).to_string(),
            diesel::debug_query::<diesel::sqlite::Sqlite, _>(&q).to_string(),
        ] {
            assert!(
                sql.contains(r#"("seat_calls"."state" IN ('pending', 'acknowledged'))"#),
                "{sql}"
            );
            assert!(
                sql.ends_with("-- binds: [7]"),
                "one bound value only: {sql}"
            );
        }
    }
}
