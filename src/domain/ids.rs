//! The ids of the room's records, one type each: a table's id where a seating's belongs does
//! not compile. Each wraps the stored `i64`, reads and writes as that number (in JSON, in a
//! URL's path, in the database: `db::ids`) and shows as it.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

macro_rules! id_types {
    ($($(#[$doc:meta])* $name:ident),+ $(,)?) => {$(
        $(#[$doc])*
        #[derive(
            Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize,
            Deserialize,
        )]
        #[serde(transparent)]
        pub struct $name(pub i64);

        impl $name {
            /// The stored number.
            pub const fn get(self) -> i64 {
                self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }

        impl FromStr for $name {
            type Err = std::num::ParseIntError;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                s.parse().map($name)
            }
        }

        impl From<$name> for i64 {
            fn from(id: $name) -> i64 {
                id.0
            }
        }
    )+};
}

id_types! {
    /// A player's record (`players.id`).
    PlayerId,
    /// A table of the room (`card_tables.id`).
    TableId,
    /// A game the room spreads (`games.id`).
    GameId,
    /// One player's stay in one seat (`seatings.id`).
    SeatingId,
    /// A seat called for a player from a list (`seat_calls.id`).
    SeatCallId,
    /// A player's place on a game's waiting list (`waitlist_entries.id`).
    EntryId,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_reads_and_writes_as_its_number() {
        let id: TableId = serde_json::from_str("17").unwrap();
        assert_eq!(id, TableId(17));
        assert_eq!(serde_json::to_string(&id).unwrap(), "17");
        assert_eq!("42".parse::<PlayerId>(), Ok(PlayerId(42)));
        assert!("x".parse::<PlayerId>().is_err());
        assert_eq!(SeatingId(9).to_string(), "9");
        assert_eq!(i64::from(GameId(3)), 3);
    }
}
