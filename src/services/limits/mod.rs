//! A running table's limits (PT-2007 22, BSOP 34; the rules in [`crate::domain::limits`]).
//!
//! A table in play has limits of its own (`card_tables.small_blind` … `buy_in_max`), set from
//! its game when it opens; [`of`] is the one reader of "the limits of this table now", used by
//! every rule and screen that needs blinds or buy-ins for a table. A change is a floor action
//! ([`propose`]: the approval of BSOP 34) with an effective point (the next hand, or a stated
//! time), announced at the table by the dealer ([`announce`]), applied at the first hand
//! started once announced and due ([`at_new_hand`], called by the dealer's "new hand" tap),
//! or cancelled by the floor ([`cancel`]). Editing a game no longer changes its running
//! tables: each gets a pending change to the game's new limits ([`on_game_edit`]).
//!
//! **A table where nobody is seated** (open, waiting for its players) has nobody to tell and
//! no hand in play: a change there — the floor's, or a game's edit — takes effect at once.
//!
//! **A table where the dealer records no hands** (no "new hand" tap since it opened) has no
//! hand start to wait for: a change there takes effect as soon as it is both announced and
//! due — at the dealer's confirmation for a "next hand" change (the dealer announces it
//! between hands, and confirming says the next hand is played at the new limits), and for a
//! stated time by the scheduler at that time ([`tick`], from `app::run_timers`), once
//! announced. A table that records hands always waits for the tap: never the hand in play.
//!
//! Every step is audited and pushed (`table.limits` on the table's stream: the tablet, the
//! floor's board; the lobby screen and the player pages read it when they refresh). The
//! history — the limits each table opened with, and every change: from, to, who approved,
//! who announced, when and at which hand it was applied — is `limit_changes`; the reports
//! split each table's open time at its changes ([`timelines`]).

mod apply;
mod changes;
mod current;
mod game_edit;
mod history;
mod open_close;
mod store;

pub use apply::{at_new_hand, tick};
pub use changes::{announce, cancel, propose, REASON_MAX};
pub use current::{
    all_pending, effective_of, fit_of, from_of, of, of_game, of_table, pending, to_of,
};
pub use game_edit::{on_game_edit, on_table_game_changed};
pub use history::{history, line, lines_of, pending_of_game, timelines, ChangeLine};
pub use open_close::{on_close, on_open};
