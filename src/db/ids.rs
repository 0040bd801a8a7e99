//! The domain's id types ([`crate::domain::ids`]) stored as `BIGINT` on both backends: a
//! filter `seatings::table_id.eq(table)` takes a `TableId`, a row reads its ids typed.

use crate::domain::ids::{EntryId, GameId, PlayerId, SeatCallId, SeatingId, TableId};
use diesel::backend::Backend;
use diesel::deserialize::{self, FromSql, Queryable};
use diesel::expression::AsExpression;
use diesel::serialize::{self, Output, ToSql};
use diesel::sql_types::{BigInt, Nullable};

macro_rules! stored_id {
    ($($t:ident),+ $(,)?) => {$(
        impl AsExpression<BigInt> for $t {
            type Expression = <i64 as AsExpression<BigInt>>::Expression;
            fn as_expression(self) -> Self::Expression {
                <i64 as AsExpression<BigInt>>::as_expression(self.0)
            }
        }
        impl AsExpression<BigInt> for &$t {
            type Expression = <i64 as AsExpression<BigInt>>::Expression;
            fn as_expression(self) -> Self::Expression {
                <i64 as AsExpression<BigInt>>::as_expression(self.0)
            }
        }
        impl AsExpression<Nullable<BigInt>> for $t {
            type Expression = <i64 as AsExpression<Nullable<BigInt>>>::Expression;
            fn as_expression(self) -> Self::Expression {
                <i64 as AsExpression<Nullable<BigInt>>>::as_expression(self.0)
            }
        }
        impl AsExpression<Nullable<BigInt>> for &$t {
            type Expression = <i64 as AsExpression<Nullable<BigInt>>>::Expression;
            fn as_expression(self) -> Self::Expression {
                <i64 as AsExpression<Nullable<BigInt>>>::as_expression(self.0)
            }
        }
        impl<DB> ToSql<BigInt, DB> for $t
        where
            DB: Backend,
            i64: ToSql<BigInt, DB>,
        {
            fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, DB>) -> serialize::Result {
                self.0.to_sql(out)
            }
        }
        impl<DB> ToSql<Nullable<BigInt>, DB> for $t
        where
            DB: Backend,
            i64: ToSql<Nullable<BigInt>, DB>,
        {
            fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, DB>) -> serialize::Result {
                <i64 as ToSql<Nullable<BigInt>, DB>>::to_sql(&self.0, out)
            }
        }
        impl<DB> FromSql<BigInt, DB> for $t
        where
            DB: Backend,
            i64: FromSql<BigInt, DB>,
        {
            fn from_sql(bytes: DB::RawValue<'_>) -> deserialize::Result<Self> {
                i64::from_sql(bytes).map($t)
            }
        }
        impl<DB> Queryable<BigInt, DB> for $t
        where
            DB: Backend,
            Self: FromSql<BigInt, DB>,
        {
            type Row = Self;
            fn build(row: Self) -> deserialize::Result<Self> {
                Ok(row)
            }
        }
    )+};
}

stored_id!(PlayerId, TableId, GameId, SeatingId, SeatCallId, EntryId);

#[cfg(test)]
mod tests {
    use super::*;
    use diesel::{Connection, RunQueryDsl, SqliteConnection};

    /// An id is written and read back as its number, bare or nullable.
    #[test]
    fn ids_go_through_the_database_and_back() {
        let mut c = SqliteConnection::establish(":memory:").expect("memory database");
        let back: TableId = diesel::select(<TableId as AsExpression<BigInt>>::as_expression(
            TableId(41),
        ))
        .get_result(&mut c)
        .expect("read back");
        assert_eq!(back, TableId(41));
        let none: Option<PlayerId> =
            diesel::select(<Option<i64> as AsExpression<Nullable<BigInt>>>::as_expression(None))
                .get_result(&mut c)
                .expect("read back");
        assert_eq!(none, None);
        let some: Option<PlayerId> = diesel::select(
            <PlayerId as AsExpression<Nullable<BigInt>>>::as_expression(PlayerId(7)),
        )
        .get_result(&mut c)
        .expect("read back");
        assert_eq!(some, Some(PlayerId(7)));
    }
}
