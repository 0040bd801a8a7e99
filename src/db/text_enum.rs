//! The domain's typed states stored as text on both backends.
//!
//! A state, kind, source or channel column holds the enum's text (`TableState::Suspended` is
//! `'suspended'`), so the rows read and the filters written are typed: `card_tables::state
//! .eq(TableState::Suspended)` compiles, a misspelt state does not. The domain declares its
//! enums without diesel ([`crate::domain::enums`]); this module lends them the storage traits:
//! bound as the enum's `&'static str`, read back through `FromStr` (an unknown text in the
//! database is a read error naming the type, never a silent default).

use diesel::backend::Backend;
use diesel::deserialize::{self, FromSql, Queryable};
use diesel::expression::AsExpression;
use diesel::serialize::{self, Output, ToSql};
use diesel::sql_types::{Nullable, Text};

macro_rules! text_enum {
    ($($t:ty),+ $(,)?) => {$(
        impl AsExpression<Text> for $t {
            type Expression = <&'static str as AsExpression<Text>>::Expression;
            fn as_expression(self) -> Self::Expression {
                <&'static str as AsExpression<Text>>::as_expression(self.as_str())
            }
        }
        impl AsExpression<Text> for &$t {
            type Expression = <&'static str as AsExpression<Text>>::Expression;
            fn as_expression(self) -> Self::Expression {
                <&'static str as AsExpression<Text>>::as_expression(self.as_str())
            }
        }
        impl AsExpression<Nullable<Text>> for $t {
            type Expression = <&'static str as AsExpression<Nullable<Text>>>::Expression;
            fn as_expression(self) -> Self::Expression {
                <&'static str as AsExpression<Nullable<Text>>>::as_expression(self.as_str())
            }
        }
        impl AsExpression<Nullable<Text>> for &$t {
            type Expression = <&'static str as AsExpression<Nullable<Text>>>::Expression;
            fn as_expression(self) -> Self::Expression {
                <&'static str as AsExpression<Nullable<Text>>>::as_expression(self.as_str())
            }
        }
        impl<DB> ToSql<Text, DB> for $t
        where
            DB: Backend,
            str: ToSql<Text, DB>,
        {
            fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, DB>) -> serialize::Result {
                self.as_str().to_sql(out)
            }
        }
        impl<DB> FromSql<Text, DB> for $t
        where
            DB: Backend,
            String: FromSql<Text, DB>,
        {
            fn from_sql(bytes: DB::RawValue<'_>) -> deserialize::Result<Self> {
                let text = String::from_sql(bytes)?;
                text.parse::<$t>().map_err(|_| {
                    format!("{} cannot be {text:?}", stringify!($t)).into()
                })
            }
        }
        impl<DB> Queryable<Text, DB> for $t
        where
            DB: Backend,
            Self: FromSql<Text, DB>,
        {
            type Row = Self;
            fn build(row: Self) -> deserialize::Result<Self> {
                Ok(row)
            }
        }
    )+};
}

use super::models::{AttemptOutcome, Channel, OutboxStatus};
use crate::domain::draw::DrawKind;
use crate::domain::ruling::{HeldPotState, MoveLineKind, RulingMoveState};
use crate::domain::special_buttons::{MacacaOutcome, SpecialButton};
use crate::domain::states::{
    CallSource, CallState, CustodyState, DueState, EntryState, GuestState, LimitChangeKind,
    LimitChangeState, ListSource, MustMoveChoice, SeatChangeState,
};
use crate::domain::table::TableState;

/// The stored enums, given to a macro: the storage traits here, the round trip in the tests.
macro_rules! stored_enums {
    ($m:ident) => {
        $m!(
            TableState,
            EntryState,
            ListSource,
            CallState,
            CallSource,
            SeatChangeState,
            GuestState,
            CustodyState,
            DueState,
            LimitChangeKind,
            LimitChangeState,
            MustMoveChoice,
            Channel,
            OutboxStatus,
            AttemptOutcome,
            HeldPotState,
            RulingMoveState,
            MoveLineKind,
            DrawKind,
            SpecialButton,
            MacacaOutcome,
        );
    };
}

stored_enums!(text_enum);

#[cfg(test)]
mod tests {
    use super::*;
    use diesel::{Connection, RunQueryDsl, SqliteConnection};

    /// Every variant of every stored enum is written and read back as itself; a text no
    /// variant has is a read error, not a default.
    #[test]
    fn every_variant_goes_through_the_database_and_back() {
        let mut c = SqliteConnection::establish(":memory:").expect("memory database");
        macro_rules! round_trip {
            ($($t:ty),+ $(,)?) => {$(
                for v in <$t>::ALL {
                    let back: $t = diesel::select(<$t as AsExpression<Text>>::as_expression(*v))
                        .get_result(&mut c)
                        .expect("read back");
                    assert_eq!(back, *v);
                }
                let bad = diesel::select(<&str as AsExpression<Text>>::as_expression("nonsense"))
                    .get_result::<$t>(&mut c);
                assert!(bad.is_err(), "{}", stringify!($t));
            )+};
        }
        stored_enums!(round_trip);
    }
}
