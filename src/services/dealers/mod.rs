//! The dealers' night: who is clocked in, on a break, available or dealing (and where), and
//! the pushes proposed next by the room's push rules (`domain::dealers`). A dealer deals at
//! one table at a time: their dealing is the open dealer shift of `services::cagnotte`,
//! which the tips and the drop box are recorded on.

mod night;
pub mod pin;
mod push;
mod relieve;
mod roster;

pub use night::{
    night, night_if_kept, tonight, AfterPush, Night, NightDealer, NightPush, NightTable,
};
pub use push::{push, PushOrder, Pushed};
pub use relieve::{relieve, Relieved};
pub use roster::{
    clock_in, clock_out, dealer, end_break, present, start_break, DealerState, RosterAction,
};
