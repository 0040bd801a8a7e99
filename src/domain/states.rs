//! The states the room's records move through, as stored and sent: one enum per state,
//! kind or source column, so a state is compared and written as a variant, never as text.
//! Each variant's text is what the database holds (`db::text_enum`) and what the API sends.

use super::enums::string_enum;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

string_enum! {
    /// A player's place on a waiting list (PT-2007 8a, 12; BSOP 43, 44).
    EntryState {
        /// On the list, waiting to be called.
        Waiting = "waiting",
        /// Called for a seat: keeps the place while the call is open.
        Called = "called",
        /// Seated from the list: the entry is over.
        Seated = "seated",
        /// Taken off the list by the floor, the player or a rule.
        Removed = "removed",
        /// A call-in not checked in within its time (BSOP 43).
        Lapsed = "lapsed",
    }
}

string_enum! {
    /// How an entry was put on a list (the player's own phone or the kiosk is recorded
    /// beside it, as `via`).
    ListSource {
        /// At the desk, by the floor (or remotely: see `via`).
        Desk = "desk",
        /// A telephone sign-up taken by the desk (lapses unless checked in: BSOP 43).
        CallIn = "call_in",
        /// BSOP 55, 57: relisted by a must-move.
        MustMove = "must_move",
        /// PT-2007 24: relisted at the top when their table broke.
        TableBreak = "table_break",
    }
}

string_enum! {
    /// A seat call: the floor's offer of a free seat to a player (BSOP 44, 49).
    CallState {
        /// Sent, not yet answered at the table.
        Pending = "pending",
        /// The dealer saw it; the player is on the way.
        Acknowledged = "acknowledged",
        /// The player sat down.
        Seated = "seated",
        /// Nobody answered within the response window.
        Expired = "expired",
        /// The player said no.
        Declined = "declined",
        /// Withdrawn by the floor.
        Cancelled = "cancelled",
    }
}

impl EntryState {
    /// Waiting or called: the player still holds a place on the list.
    pub fn is_active(self) -> bool {
        matches!(self, EntryState::Waiting | EntryState::Called)
    }
}

impl CallState {
    /// Pending or acknowledged: the seat is still offered.
    pub fn is_open(self) -> bool {
        matches!(self, CallState::Pending | CallState::Acknowledged)
    }
}

string_enum! {
    /// What a seat call was made for.
    CallSource {
        /// The next player on the list.
        List = "list",
        /// BSOP 51: a seat change asked for by a seated player.
        SeatChange = "seat_change",
        /// BSOP 55, 56: a player moving from a must-move table to the main game.
        MustMove = "must_move",
    }
}

string_enum! {
    /// A seated player's request for another seat (BSOP 51).
    SeatChangeState {
        Open = "open",
        Served = "served",
        Cancelled = "cancelled",
    }
}

string_enum! {
    /// A guest's place on a list taken at the kiosk before the player is registered.
    GuestState {
        Waiting = "waiting",
        Registered = "registered",
        Removed = "removed",
    }
}

string_enum! {
    /// BSOP 36: chips put in custody when a player leaves, counted by two staff members.
    CustodyState {
        /// Counted once, waiting for the second staff member's count.
        Counting = "counting",
        /// Both counts agree: the chips are kept for the player.
        Held = "held",
        /// The player came back for them.
        Reclaimed = "reclaimed",
        /// Settled at the cage.
        Settled = "settled",
        /// Withdrawn before it was confirmed.
        Cancelled = "cancelled",
    }
}

string_enum! {
    /// PT-2007 22, BSOP 34: how a table's limits came to change.
    LimitChangeKind {
        /// The limits the table opened with (applied at once).
        Opening = "opening",
        /// Announced by the floor, applied after the notice.
        Floor = "floor",
        /// The game's limits were edited by an admin.
        GameEdit = "game_edit",
    }
}

string_enum! {
    /// PT-2007 22: a change of a table's limits, from its notice to its start.
    LimitChangeState {
        Pending = "pending",
        Applied = "applied",
        Cancelled = "cancelled",
    }
}

string_enum! {
    /// PT-2007 7: a seat's cagnotte for a session.
    DueState {
        Due = "due",
        Collected = "collected",
        Exempt = "exempt",
    }
}

string_enum! {
    /// What a must-move player who refuses to move chooses (BSOP 55).
    MustMoveChoice {
        /// Gives up: leaves, and may not play at the must-move table.
        GiveUp = "give_up",
        /// Leaves, and may join the waiting list again no sooner than the return window.
        RejoinLater = "rejoin_later",
    }
}
