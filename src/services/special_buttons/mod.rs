//! The special buttons at a table (BSOP 115, 116): the Cucurucho and the Macaca.
//!
//! - **Where they start**: drawn (a recorded, replayable draw, [`Draw::special_button`])
//!   among the table's occupied seats, by the floor or the dealer, at an open or running
//!   table of a game that runs the button ([`draw`]). A button already in play is drawn again
//!   only with a reason. A table closed and opened again starts without them (the draws
//!   belong to the table's opening).
//! - **When they play**: the dealer's "new hand" tap moves the dealer button; a move that
//!   lands on or passes over a special button makes the hand it starts a special hand
//!   ([`crate::domain::special_buttons::on_button_move`], called from
//!   [`crate::services::table_side::new_hand`]). Each seated player's fixed contribution is
//!   recorded on it — away and resting players marked out — and the dealer marks a seat in or
//!   out while the hand is being played ([`mark`]).
//! - **The Macaca's chips**: the dealer records her result before the next hand
//!   ([`macaca_result`]); what she keeps waits for her next hand on the button's row.
//!
//! Every change is audited and pushed to the table's tablet and the floor board in the same
//! transaction. Amounts are minor units, from the table's big blind ([`table_big_blind`]).

mod buttons;
mod contributions;
mod draw;
mod hands;
mod views;

pub use buttons::{in_play, on_close, settings_of, table_big_blind, REASON_MAX};
pub use contributions::{macaca_result, mark};
pub use draw::{draw, Drawn};
pub use hands::{check_hand_may_end, kind_of_hand, on_new_hand};
pub use views::{
    hand_at, hand_view, hands_of, of_table, ButtonView, ContributionLine, HandView, TableButtons,
};
