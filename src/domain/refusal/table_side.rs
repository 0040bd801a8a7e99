//! Refusals at the table: chips, absences, custody, the cagnotte, rulings and the special
//! buttons, and the notices the dealer and the floor are given.

use super::refusals;

refusals! {
    /// A buy-in, rebuy or chips approval is refused.
    pub enum ChipsRefusal {
        AmountNotPositive = "rules-amount-not-positive",
        BuyinExact { required: i64 } = "rules-buyin-exact",
        /// BSOP 37: back within the hour with the stack left with.
        BuyinSameStack { required: i64 } = "rules-buyin-same-stack",
        /// PT-2007 28: the tables' average capital.
        BuyinAverageCapital { required: i64 } = "rules-buyin-average-capital",
        /// BSOP 26: at least what was taken off the table.
        BuyinBelowTakenOff { required: i64 } = "rules-buyin-below-taken-off",
        BuyinBelowMin { min: i64 } = "rules-buyin-below-min",
        BuyinAboveMax { max: i64 } = "rules-buyin-above-max",
        RebuyStackAtMax { max: i64 } = "rules-rebuy-stack-at-max",
        RebuyAboveMax { max: i64, allowed: i64 } = "rules-rebuy-above-max",
        NotPending = "rules-chips-not-pending",
        Approved = "rules-chips-approved",
        HandOver { hand: i32 } = "rules-chips-hand-over",
        StackChanged { stack: i64 } = "err-stack-changed",
        OverrideFloorOnly = "err-override-floor-only",
    }

    /// BSOP 36: a player's absence refuses the tap.
    pub enum AbsenceRefusal {
        NotAway = "err-not-away",
        AlreadyAway = "err-already-away",
        StillAway = "err-still-away",
        MissedBeforeAway = "err-missed-before-away",
        ExtendFloorOnly = "err-extend-floor-only",
        /// A tap that reached the server later than `limit_s` seconds after `tapped` (RFC 3339).
        TapTooLate { tapped: String, limit_s: i32 } = "err-tap-too-late",
        /// An away or back tapped at `tapped` (RFC 3339) before the seat's newer away or back
        /// (`newer`, RFC 3339) already applied: superseded, not applied.
        TapSuperseded { tapped: String, newer: String } = "err-tap-superseded",
    }

    /// What the floor and the dealer are told about a seat (not a refusal of an action).
    pub enum TableNotice {
        /// BSOP 36: due for removal after `count` missed big blinds.
        AbsenceDueMissedBb { count: i32 } = "rules-absence-due-missed-bb",
        /// BSOP 36: due for removal after `minutes` away.
        AbsenceDueAway { minutes: i32 } = "rules-absence-due-away",
        /// PT-2007 13, 89.
        HandsResting { hands: u32 } = "rules-hands-resting",
        HandsPostBb = "rules-hands-post-bb",
        LeaveRestedTooLong = "rules-hands-leave-rested-too-long",
        LeaveRestedRepeatedly = "rules-hands-leave-rested-repeatedly",
    }

    /// BSOP 36: chips taken into custody by two staff members.
    pub enum CustodyRefusal {
        RemovalNotDue { minutes: i64 } = "err-removal-not-due",
        RemovalPending = "err-removal-pending",
        NotCounting = "err-custody-not-counting",
        SameStaff = "err-custody-same-staff",
        AmountDiffers { first: i64, second: i64 } = "err-custody-amount-differs",
        NotHeld = "err-custody-not-held",
    }

    /// PT-2007 7: the cagnotte (rake, session fee, dues, commissions) refuses the entry.
    pub enum CagnotteRefusal {
        AmountNegative = "err-amount-negative",
        OverDue { max: i64 } = "rules-cagnotte-over-due",
        SessionPercent { min: i32, max: i32 } = "rules-cagnotte-session-percent",
        ModeFixed = "rules-cagnotte-mode-fixed",
        RakeNegative = "rules-rake-negative",
        /// PT-ONL 18: no flop, no drop.
        RakeNoFlopNoDrop = "rules-rake-no-flop-no-drop",
        RakeOverPot = "rules-rake-over-pot",
        /// PT-2007 7a: the game's cap per hand.
        RakeOverCap { max: i64, percent: String } = "rules-rake-over-cap",
        /// PT-2007 7a, BSOP 80: the percentage of the pot.
        RakeOverPercent { max: i64, percent: String } = "rules-rake-over-percent",
        RakeSessionGame = "rules-rake-session-game",
        BoardsRange { max: i32 } = "rules-boards-range",
        BoardsNoBet = "rules-boards-no-bet",
        BoardsRakeMissing { max: i64 } = "rules-boards-rake-missing",
        BoardsPotMissing = "rules-boards-pot-missing",
        SessionClosed = "err-session-closed",
        HandNoneToRecord = "err-hand-none-to-record",
        SessionNone = "err-session-none",
        SessionHourNotUp = "err-session-hour-not-up",
        DueSettled = "err-due-settled",
        /// PT-2007 9c: the player is no longer seated at the due's table.
        DuePlayerLeft = "err-due-player-left",
        ShiftNone = "err-shift-none",
        CommissionNotThirteen = "err-commission-not-thirteen",
    }

    /// BSOP 19, 21: a ruling's state refuses the decision, the correction or the move.
    pub enum RulingRefusal {
        /// `why`: the [`LateReason`](crate::domain::ruling::LateReason).
        ReconstructionLate { why: &'static str } = "err-ruling-reconstruction-late",
        SameStaff = "err-ruling-same-staff",
        Decided { id: i64 } = "err-ruling-decided",
        CorrectOpen { id: i64 } = "err-ruling-correct-open",
        Corrected { id: i64, by: i64 } = "err-ruling-corrected",
        /// A correction written at the same moment: its number is not known.
        CorrectedRace { id: i64 } = "err-ruling-corrected",
        MovePending { id: i64 } = "err-ruling-move-pending",
        PotDecided { id: i64 } = "err-ruling-pot-decided",
        PotHeld { id: i64 } = "err-ruling-pot-held",
        PotLate { why: &'static str } = "err-ruling-pot-late",
        NoMove { id: i64 } = "err-ruling-no-move",
        MoveDone { id: i64 } = "err-ruling-move-done",
        MoveLeft { player: String } = "err-ruling-move-left",
        MoveOverStack { player: String, stack: i64 } = "err-ruling-move-over-stack",
        MoveOverStackMax { player: String, max: i64 } = "err-ruling-move-over-stack-max",
    }

    /// BSOP 116: the special buttons (Cucurucho, Macaca) refuse the action.
    pub enum ButtonRefusal {
        CollectedRequired = "err-buttons-collected-required",
        HandOver = "err-buttons-hand-over",
        LostCollects = "err-buttons-lost-collects",
        MacacaResultFirst { hand: i32 } = "err-buttons-macaca-result-first",
        NeedsPlayers { rule: &'static str } = "err-buttons-needs-players",
        NotMacaca = "err-buttons-not-macaca",
        Off { rule: &'static str, game: String } = "err-buttons-off",
        TableState { rule: &'static str, table: i32 } = "err-buttons-table-state",
    }
}
