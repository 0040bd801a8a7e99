//! Cagnotte sessions, dues, rake, tips, drop box and commission: the persistence
//! around the pure rules of [`crate::domain::cagnotte`].
//!
//! - **Sessions** (PT-2007 7b) exist for games billed per session. A table's first "hand
//!   over" tap (the first hand dealt) opens its first cagnotte session; a tap at or after
//!   the hour of play is up (suspensions do not count, PT-2007 24) closes it and opens the
//!   next at that instant; the floor may confirm the close instead ([`close_by_floor`]);
//!   closing the table closes it.
//!   Every player seated when a session starts owes at once; a player who sits down within
//!   the late window (30 minutes of play) owes from the moment they sit ([`on_seat`]).
//! - **Dues** are settled by the dealer (collected, at most the amount due) or exempted by the
//!   floor with a reason. Each due, collection and exemption is audited.
//! - **Rake per hand** (PT-2007 7a, PT-ONL 17a, 18) is recorded on the hand it was taken from,
//!   at the tap that ends it; the quick mode records a drop box total per shift instead.
//! - **Tips** (PT-2007 5, 9d) per table and dealer shift; **commission** (MO-13 11) per round.
//!
//! All amounts are integer minor units; what the house takes is rounded down to the smallest
//! chip in play (BSOP 80, [`crate::domain::cagnotte::round_down_to_chip`]).

mod common;
mod dues;
mod hand_over;
mod sessions;
mod shifts;
mod suspensions;
mod takings;

pub use common::chip_of;
pub use dues::{
    alerts, collect, due, exempt, open_dues, panel, DueLine, SessionPanel, DUE_ALERT_AFTER_MIN,
};
pub use hand_over::{on_hand_over, HandOver, HandResult};
pub use sessions::{close_by_floor, on_buyin, on_seat, on_table_closed, open_session, state_of};
pub use shifts::{begin_shift, dealing_at, end_shift, open_shift, shift_dealer};
pub use suspensions::{suspension_ended, suspension_started, suspensions_since};
pub use takings::{record_commission, record_drop, record_tip};
