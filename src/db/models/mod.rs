//! Rows as stored. Times are UTC (`NaiveDateTime` in UTC); money is integer minor units.
//! One file per area of the room; every row is re-exported here.

mod devices;
mod floor;
mod games;
mod house;
mod outbox;
mod players;
mod room;
mod rulings;
mod table_side;

pub use devices::*;
pub use floor::*;
pub use games::*;
pub use house::*;
pub use outbox::*;
pub use players::*;
pub use room::*;
pub use rulings::*;
pub use table_side::*;
