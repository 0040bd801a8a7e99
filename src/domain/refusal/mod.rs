//! The refusals of each area of the product, typed: every variant names its catalog key once
//! (checked against both catalogs by a test) and carries the arguments its message uses, so a
//! mistyped key or a forgotten argument is a compile error or a failing test, never a
//! "missing message" in front of a player.
//!
//! A refusal becomes a [`Problem`] (key + arguments) with `.into()`, and an
//! [`AppError::Conflict`](crate::error::AppError) (409) the same way or through `?`; a refusal
//! answered with another status names it: `AppError::Forbidden(StaffRefusal::X.into())`.

use super::Problem;

mod floor;
mod office;
mod table_side;

pub use floor::{CallRefusal, DrawRefusal, ListRefusal, MoveRefusal, SeatRefusal, TableRefusal};
pub use office::{
    DealerRefusal, GeneralRefusal, JoinRefusal, LimitRefusal, PlayerRefusal, ReportRefusal,
    StaffRefusal, TabletRefusal,
};
pub use table_side::{
    AbsenceRefusal, ButtonRefusal, CagnotteRefusal, ChipsRefusal, CustodyRefusal, RulingRefusal,
    TableNotice,
};

/// A typed refusal: its catalog key and the arguments its message is said with.
pub trait CatalogRefusal {
    /// The message's key in the catalogs (`src/i18n/{en,pt}/*.ftl`).
    fn key(&self) -> &'static str;
    /// The message's arguments, named as the message uses them.
    fn args(&self) -> Vec<(&'static str, String)>;
    /// The refusal as a [`Problem`].
    fn problem(&self) -> Problem {
        Problem {
            key: self.key(),
            args: self.args(),
        }
    }
}

/// A refusal variant as declared: for the test that checks it against the catalogs.
#[derive(Debug, Clone, Copy)]
pub struct Declared {
    /// `Enum::Variant`.
    pub name: &'static str,
    pub key: &'static str,
    pub args: &'static [&'static str],
}

/// Declares refusal enums: each variant states its catalog key once, with the arguments of its
/// message as named fields. Generates `ALL` (every key with its arguments' names),
/// [`CatalogRefusal`] and `From<_> for Problem`.
macro_rules! refusals {
    ($(
        $(#[$meta:meta])*
        pub enum $name:ident {
            $(
                $(#[$vmeta:meta])*
                $variant:ident $({ $($field:ident : $ty:ty),* $(,)? })? = $key:literal
            ),* $(,)?
        }
    )*) => {$(
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub enum $name {
            $( $(#[$vmeta])* $variant $({ $($field: $ty),* })? ),*
        }

        impl $name {
            /// Every variant with its catalog key and the names of the arguments it passes.
            pub const ALL: &'static [$crate::domain::refusal::Declared] = &[$(
                $crate::domain::refusal::Declared {
                    name: concat!(stringify!($name), "::", stringify!($variant)),
                    key: $key,
                    args: &[$($(stringify!($field)),*)?],
                }
            ),*];
        }

        impl $crate::domain::refusal::CatalogRefusal for $name {
            fn key(&self) -> &'static str {
                match self {
                    $( Self::$variant { .. } => $key ),*
                }
            }
            fn args(&self) -> Vec<(&'static str, String)> {
                match self {
                    $( Self::$variant $({ $($field),* })? => {
                        vec![$($( (stringify!($field), $field.to_string()) ),*)?]
                    } ),*
                }
            }
        }

        impl From<$name> for $crate::domain::Problem {
            fn from(r: $name) -> Self {
                $crate::domain::refusal::CatalogRefusal::problem(&r)
            }
        }
    )*};
}
pub(crate) use refusals;

/// Every refusal enum's `ALL`, for the catalog test.
pub const ALL: &[&[Declared]] = &[
    TableRefusal::ALL,
    SeatRefusal::ALL,
    ListRefusal::ALL,
    CallRefusal::ALL,
    MoveRefusal::ALL,
    DrawRefusal::ALL,
    ChipsRefusal::ALL,
    AbsenceRefusal::ALL,
    TableNotice::ALL,
    CustodyRefusal::ALL,
    CagnotteRefusal::ALL,
    RulingRefusal::ALL,
    ButtonRefusal::ALL,
    GeneralRefusal::ALL,
    PlayerRefusal::ALL,
    JoinRefusal::ALL,
    TabletRefusal::ALL,
    DealerRefusal::ALL,
    StaffRefusal::ALL,
    LimitRefusal::ALL,
    ReportRefusal::ALL,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_is_its_key_and_arguments() {
        let p: Problem = TableRefusal::SuspensionOver {
            table: 7,
            minutes: 15,
        }
        .into();
        assert_eq!(
            p,
            Problem::new("err-table-suspension-over")
                .arg("table", 7)
                .arg("minutes", 15)
        );
        assert_eq!(
            SeatRefusal::SeatTaken.problem(),
            Problem::new("err-seat-taken")
        );
        assert!(SeatRefusal::ALL.iter().any(|d| d.key == "err-seat-taken"));
    }
}
