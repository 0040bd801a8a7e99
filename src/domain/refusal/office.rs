//! Refusals of the office: players, remote joining, tablets and kiosks, staff, limits,
//! reports, and those of any area.

use super::refusals;

refusals! {
    /// Refusals of any area.
    pub enum GeneralRefusal {
        Forbidden = "err-forbidden",
        MoneyOverflow = "err-money-overflow",
    }

    /// The player registry refuses the change.
    pub enum PlayerRefusal {
        /// The document already belongs to player `id`, `name`.
        DuplicateDocument { id: i64, name: String } = "err-duplicate-document",
        DuplicateDocumentConcurrent = "err-duplicate-document-concurrent",
        StaleEdit = "err-stale-edit",
        BanNotActive = "err-ban-not-active",
        SeparationExists = "err-separation-exists",
        SeparationRemoved = "err-separation-removed",
        /// At most `max` MB.
        PhotoTooLarge { max: i64 } = "err-photo-too-large",
        /// BSOP 1, 2, 3, 10: the first reason a player may not play.
        CannotPlayUnder18 = "err-cannot-play-under-18",
        CannotPlayNoPhoto = "err-cannot-play-no-photo",
        CannotPlayIdExpired = "err-cannot-play-id-expired",
        CannotPlayBanned = "err-cannot-play-banned",
    }

    /// Joining a list from outside the room is refused.
    pub enum JoinRefusal {
        /// The room's text messages are spent for now; `limit` names the limit reached.
        Busy { seconds: i64, minutes: i64, limit: &'static str } = "err-join-busy",
        TooMany { seconds: i64, minutes: i64, limit: &'static str } = "err-join-too-many",
        CodeDead = "err-join-code-dead",
        CodeExpired = "err-join-code-expired",
        CodeUsed = "err-join-code-used",
        GuestRegistered = "err-guest-registered",
        PhoneAlreadyBlocked = "err-phone-already-blocked",
    }

    /// A tablet, a kiosk or its pairing refuses the action.
    pub enum TabletRefusal {
        PairingExpired = "err-pairing-expired",
        TabletRevoked = "err-tablet-revoked",
        PairingKiosk = "err-pairing-kiosk",
        KioskRevoked = "err-kiosk-revoked",
        DealerOtherTable { table: i32 } = "err-dealer-other-table",
        MessageNoTablet { table: i32 } = "err-message-no-tablet",
        /// A dealer deals at one table at a time: relieve them there first.
        DealerDealingElsewhere { dealer: String, table: i32 } = "err-dealer-dealing-elsewhere",
        /// Two floor managers placed the same dealer at the same moment: the later one's
        /// placement is refused.
        DealerRace = "err-dealer-race",
    }

    /// The dealers' roster refuses a clock-in, a clock-out or a break.
    pub enum DealerRefusal {
        AlreadyIn { dealer: String } = "err-dealer-already-in",
        NotIn { dealer: String } = "err-dealer-not-in",
        OnBreak { dealer: String } = "err-dealer-on-break",
        NotOnBreak { dealer: String } = "err-dealer-not-on-break",
        /// The floor relieves a dealer at their table before the break.
        BreakWhileDealing { dealer: String, table: i32 } = "err-dealer-break-while-dealing",
        /// A dealer clocks in and out, and takes breaks, for themselves only.
        SelfOnly = "err-dealer-self-only",
        /// A push to a dealer already dealing at that table.
        AlreadyHere { dealer: String, table: i32 } = "err-dealer-already-here",
        /// A push to a dealer dealing at another table: relieved there first.
        DealingAt { dealer: String, table: i32 } = "err-dealer-dealing-elsewhere",
        /// The floor takes the dealer off a table that has none.
        NoDealerHere { table: i32 } = "err-dealer-none-here",
        /// A push at a table with no game.
        TableNotInPlay { table: i32 } = "err-dealer-table-not-in-play",
        /// A PIN at a table's tablet that is nobody's (nothing says whose it could be).
        PinWrong = "err-dealer-pin-wrong",
        /// Five wrong PINs in a row: the tablet takes none for a while.
        PinLocked { seconds: i64 } = "err-dealer-pin-locked",
    }

    /// Staff accounts and sign-in.
    pub enum StaffRefusal {
        UsernameTaken { username: String } = "err-username-taken",
        LoginFailed = "err-login-failed",
        LoginThrottled { seconds: i64 } = "err-login-throttled",
        SelfDemote = "err-staff-self-demote",
        SessionEnded = "err-session-ended",
    }

    /// PT-2007 22: a change of a table's limits is refused.
    pub enum LimitRefusal {
        NotInPlay { table: i32 } = "limits-err-not-in-play",
        NotPending { state: String } = "limits-err-not-pending",
        Pending { id: i64 } = "limits-err-pending",
        /// A change written at the same moment is pending: its number is not known.
        PendingRace = "limits-err-pending",
        TransferOtherLimit { table: i32 } = "limits-err-transfer-other-limit",
        Unchanged { table: i32 } = "limits-err-unchanged",
    }

    /// A report's query is refused (`value`: what was asked, quoted).
    pub enum ReportRefusal {
        Day { value: String } = "report-err-day",
        DayAndMonth = "report-err-day-and-month",
        Month { value: String } = "report-err-month",
        Game { value: String } = "report-err-game",
        Table { value: String } = "report-err-table",
        Player { value: String } = "report-err-player",
    }
}
