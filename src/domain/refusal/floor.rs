//! Refusals of the floor: tables, seats, lists, calls, moves and draws.

use super::refusals;

refusals! {
    /// A table's state refuses the action.
    pub enum TableRefusal {
        /// The table plays no game.
        NoGame = "err-table-no-game",
        NotOpen = "err-table-not-open",
        NotRunning = "err-table-not-running",
        AlreadyOpen = "err-table-already-open",
        NumberTaken { number: i32 } = "err-table-number-taken",
        /// PT-2007 24: suspended too long without the minimum of players back.
        SuspensionOver { table: i32, minutes: i32 } = "err-table-suspension-over",
        /// PT-2007 24: no hand with fewer than the minimum of players.
        HandBelowMinimum { min: usize, seated: usize } = "err-hand-below-minimum",
        NotMustMoveTable = "err-not-must-move-table",
    }

    /// A seat cannot be given, held, changed or left as asked.
    pub enum SeatRefusal {
        SeatTaken = "err-seat-taken",
        /// BSOP 50: every place of the table is taken (`places`, the extra one included
        /// while the table has it): one more player would sit beyond them.
        TableFull { places: i32 } = "err-table-full",
        SeatCalled = "err-seat-called",
        /// BSOP 45, 49: a held seat goes only to the player it is held for.
        SeatHeld = "err-seat-held",
        SeatRace = "err-seat-race",
        AlreadySeated = "err-already-seated",
        AlreadyLeft = "err-already-left",
        SeparatedAtTable = "err-separated-at-table",
        /// BSOP 55: who refused the main game may not play at the must-move table.
        RefusedMustMoveTable = "err-refused-must-move-table",
        MoveRulingChipsPending = "err-move-ruling-chips-pending",
        PlayerHasHold = "err-player-has-hold",
        HoldReleased = "err-hold-released",
        SeatChangeOpen = "err-seat-change-open",
        SeatChangeNotOpen = "err-seat-change-not-open",
        /// BSOP 57: the seat waits for a must-move player.
        SeatForMustMove = "err-seat-for-must-move",
        /// BSOP 57: the seat waits for the named must-move player (`position`: `button` or
        /// `small_blind`).
        WaitsForMustMove {
            alias: String,
            table: i32,
            seat: i32,
            position: &'static str,
        } = "err-seat-waits-for-must-move",
        /// BSOP 55: who refused the main game joins its list again only from `time`.
        MustMoveRejoinLater { time: String } = "err-must-move-rejoin-later",
        WaitsForPreferredSeat = "err-waits-for-preferred-seat",
        /// BSOP 38: a winner stays `stay` minutes at a table of this `limit` (`high` / `mid`);
        /// `minutes` left, leaving allowed from `until` (RFC 3339).
        MinStay {
            minutes: i64,
            until: String,
            stay: i64,
            limit: &'static str,
        } = "rules-min-stay",
    }

    /// A waiting-list entry refuses the action.
    pub enum ListRefusal {
        EntryNotActive = "err-entry-not-active",
        GameInactive = "err-game-inactive",
        AlreadyOnList = "err-already-on-list",
        UndoTooLate = "err-undo-too-late",
        EntryNotCallIn = "err-entry-not-call-in",
        CallInLapsed = "err-call-in-lapsed",
        EntryOtherGame = "err-entry-other-game",
    }

    /// A seat call cannot be made or answered.
    pub enum CallRefusal {
        AlreadyCalled = "err-already-called",
        NobodyToCall = "err-nobody-to-call",
        /// Only players waiting for another seat (`count`) are left.
        NobodyButPreferences { count: usize } = "err-nobody-but-preferences",
        CallNotOpen = "err-call-not-open",
        CallExpired = "err-call-expired",
        MoveNotSeated = "err-move-not-seated",
        /// BSOP 55, PT-2007 22: the tables' limits differ now.
        MoveOtherLimit = "err-move-other-limit",
        /// A call's answer time is extended once.
        ExtendedOnce = "plink-err-extended-once",
    }

    /// BSOP 27, 55, 58, PT-2007 26: a move to another table is refused.
    pub enum MoveRefusal {
        SameTable = "err-transfer-same-table",
        NotSimilar = "err-transfer-not-similar",
        FromMustMove = "err-transfer-from-must-move",
        DestinationFull = "err-transfer-destination-full",
        CaveNotLost = "err-transfer-cave-not-lost",
        LeavesTableShort { min: i32 } = "err-transfer-leaves-table-short",
        Unbalances { from: usize, to: usize } = "err-transfer-unbalances",
        UnbalancesSession { from: usize, to: usize } = "err-transfer-unbalances-session",
        /// BSOP 27: in the first hour a stack above the game's maximum does not move; `minutes`
        /// left (rounded up), until `until` (RFC 3339).
        FirstHourAboveMax {
            max: i64,
            stack: i64,
            minutes: i64,
            until: String,
        } = "rules-transfer-first-hour-above-max",
    }

    /// A draw for seats or the button cannot be held.
    pub enum DrawRefusal {
        TableNotOpen = "err-table-not-open-for-draw",
        SuitNeedsTables = "err-suit-draw-needs-tables",
        TableNotInPlay = "err-table-not-in-play-for-button",
        ButtonNeedsPlayers = "err-button-needs-players",
    }
}
