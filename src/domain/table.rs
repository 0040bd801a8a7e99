//! Table states and suspension (PT-2007 24), must-move tables (BSOP 55, 56, 57) and
//! balancing (BSOP 58, PT-2007 26).

use super::refusal::TableRefusal;
use crate::domain::ids::PlayerId;
use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};

use super::enums::string_enum;
use super::error::Problem;
use super::game::TablePolicy;
use std::fmt;
use std::str::FromStr;

string_enum! {
    /// A table's state.
    TableState {
        /// No game: not in use.
        Closed = "closed",
        /// Opened for a game, waiting for enough players to start.
        Open = "open",
        /// The game is under way.
        Running = "running",
        /// Below the minimum; closes at the deadline unless players come back (PT-2007 24).
        Suspended = "suspended",
    }
}

impl TableState {
    /// The states of a table in play (see [`TableState::in_play`]).
    pub const IN_PLAY: [TableState; 3] =
        [TableState::Open, TableState::Running, TableState::Suspended];

    /// Open, running or suspended: the table has a game and may seat players.
    pub fn in_play(self) -> bool {
        matches!(
            self,
            TableState::Open | TableState::Running | TableState::Suspended
        )
    }
}

/// What should happen to a table now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "decision", rename_all = "snake_case")]
pub enum Transition {
    Stay,
    /// Enough players: the game may start (or resume).
    Run,
    /// PT-2007 24: fewer than the minimum: suspend, with the deadline to close.
    Suspend {
        closes_at: DateTime<Utc>,
    },
    /// PT-2007 24: the minimum was not back in time: close; players are offered elsewhere.
    Close,
}

/// PT-2007 24: a game may not start or continue with fewer than the minimum (4 in
/// `pt-casino`; PT-ONL 7: 2). Below it the game is suspended; if the minimum is not back
/// within the grace period (15 minutes) of the suspension, the game is closed. A restart
/// after the deadline closes the table at once (the decision reads only stored times).
pub fn evaluate(
    state: TableState,
    seated: usize,
    min_players: i32,
    suspended_at: Option<DateTime<Utc>>,
    grace: Duration,
    now: DateTime<Utc>,
) -> Transition {
    let enough = seated >= min_players.max(1) as usize;
    match state {
        TableState::Closed => Transition::Stay,
        TableState::Open => {
            if enough {
                Transition::Run
            } else {
                Transition::Stay
            }
        }
        TableState::Running => {
            if enough {
                Transition::Stay
            } else {
                Transition::Suspend {
                    closes_at: now + grace,
                }
            }
        }
        TableState::Suspended => {
            let since = suspended_at.unwrap_or(now);
            // The deadline comes first: a fourth player arriving after the 15 minutes does
            // not revive a game that should already be closed.
            if now >= since + grace {
                Transition::Close
            } else if enough {
                Transition::Run
            } else {
                Transition::Stay
            }
        }
    }
}

/// PT-2007 24: "a game may neither start nor continue with fewer than four players"
/// (PT-ONL 7: two; the profile's `min_players_to_run`). A hand is dealt only at an open or
/// running table with at least that many players seated — the first hand too, so an `open`
/// table waiting for its fourth player deals nothing — and never with fewer than two,
/// whatever the profile says. Away players still hold their seats and count.
pub fn may_deal_hand(state: TableState, seated: usize, min_players: i32) -> Result<(), Problem> {
    if !matches!(state, TableState::Open | TableState::Running) {
        return Err(TableRefusal::NotRunning.into());
    }
    let min = min_players.max(2) as usize;
    if seated < min {
        return Err(TableRefusal::HandBelowMinimum { min, seated }.into());
    }
    Ok(())
}

/// PT-2007 24: the instant a suspended table closes (suspension + grace), judged by the
/// clock at the moment of an action: past it the game is over even if the scheduler has not
/// yet done the closing, so nobody is called, seated or held for it.
pub fn suspension_over(
    state: TableState,
    suspended_at: Option<DateTime<Utc>>,
    grace: Duration,
    now: DateTime<Utc>,
) -> bool {
    state == TableState::Suspended && suspended_at.is_some_and(|since| now >= since + grace)
}

/// A table of one game and limit, for must-move and balance decisions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameTable {
    pub table_id: i64,
    /// When the table was formed (opened for this game): older tables are main games.
    pub formed_at: DateTime<Utc>,
    pub seated: usize,
    pub seats: usize,
}

/// BSOP 55, 56: among the running tables of one game and limit, the two oldest are main
/// games and the newest is the must-move table (with a single table there is none). When a
/// table breaks, the roles follow from the tables that remain: with the third gone, the
/// second-formed becomes the must-move.
pub fn must_move_table(tables: &[GameTable]) -> Option<i64> {
    if tables.len() < 2 {
        return None;
    }
    tables
        .iter()
        .max_by_key(|t| (t.formed_at, t.table_id))
        .map(|t| t.table_id)
}

/// A player at the must-move table, in the original waiting-list order (BSOP 55).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MustMovePlayer {
    pub player_id: PlayerId,
    /// The order they had on the waiting list (or from the break draw, BSOP 56).
    pub list_order: i64,
    /// BSOP 57: in the small blind or on the button, the move waits for the next hand.
    pub in_small_blind_or_button: bool,
}

/// BSOP 55, 57: who moves to a freed main-game seat now: the first must-move player in
/// original list order, unless in the small blind or on the button (then nobody moves yet;
/// the same player is due after the hand).
pub fn must_move_due(players: &[MustMovePlayer]) -> Option<PlayerId> {
    let first = players.iter().min_by_key(|p| (p.list_order, p.player_id))?;
    (!first.in_small_blind_or_button).then_some(first.player_id)
}

/// BSOP 55: a player who refuses to move either gives up the game or may re-join the list
/// no sooner than one hour after refusing.
pub fn may_rejoin_after_refusal(
    refused_at: DateTime<Utc>,
    return_window: Duration,
) -> DateTime<Utc> {
    refused_at + return_window
}

/// BSOP 58: without must-move, a new player goes to the table that needs a player most:
/// the fewest seated players (ties: the older table).
pub fn neediest_table(tables: &[GameTable]) -> Option<i64> {
    tables
        .iter()
        .filter(|t| t.seated < t.seats)
        .min_by_key(|t| (t.seated, t.formed_at, t.table_id))
        .map(|t| t.table_id)
}

string_enum! {
    /// Why a table is suggested for a new player of a game (BSOP 55, 58).
    SuggestRule {
        /// BSOP 55: the must-move table takes the new player; its players move to the main
        /// games as their seats open, in list order.
        MustMove = "must_move",
        /// BSOP 55: a main game has more free seats than the must-move table has players to
        /// move into them: the new player sits there.
        MainGame = "main_game",
        /// BSOP 58: the table that needs a player most.
        Neediest = "neediest",
    }
}

/// One table of a game in play as the suggestion for a new player sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SuggestCandidate {
    pub table_id: i64,
    pub formed_at: DateTime<Utc>,
    pub seated: usize,
    /// Seats nobody sits in, is called to or holds.
    pub free: usize,
    pub must_move: bool,
}

/// BSOP 55, 58: the table a new player of a game should go to, by the game's policy, and why.
/// Only a table with a free seat is suggested.
///
/// - Balanced (BSOP 58: «um novo participante será enviado para a mesa com maior necessidade
///   de um participante adicional»): the table with the fewest players (ties: the older), a
///   table still marked must-move from before a policy change included.
/// - Must-move with a must-move table (BSOP 55: «para garantir a continuidade de jogos
///   existentes»): the main games come first. While their free seats outnumber the players
///   the must-move table can send into them, a main seat would stay empty: the new player
///   goes to the main game that needs a player most. Otherwise the must-move table, whose
///   players take the main seats in list order.
/// - Must-move without a must-move table (a single table, or one not yet marked): as
///   balanced.
pub fn suggest_new_player(
    policy: TablePolicy,
    tables: &[SuggestCandidate],
) -> Option<(i64, SuggestRule)> {
    let neediest = |ts: &mut dyn Iterator<Item = &SuggestCandidate>| {
        ts.filter(|t| t.free > 0)
            .min_by_key(|t| (t.seated, t.formed_at, t.table_id))
            .map(|t| t.table_id)
    };
    let must_move = match policy {
        TablePolicy::MustMove => tables.iter().find(|t| t.must_move),
        TablePolicy::Balanced => None,
    };
    let Some(m) = must_move else {
        return neediest(&mut tables.iter()).map(|id| (id, SuggestRule::Neediest));
    };
    let main_free: usize = tables
        .iter()
        .filter(|t| t.table_id != m.table_id)
        .map(|t| t.free)
        .sum();
    if main_free > m.seated {
        return neediest(&mut tables.iter().filter(|t| t.table_id != m.table_id))
            .map(|id| (id, SuggestRule::MainGame));
    }
    (m.free > 0).then_some((m.table_id, SuggestRule::MustMove))
}

/// Why a voluntary table change is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TransferRefusal {
    /// BSOP 58: the table left would have fewer players than the destination.
    Unbalances,
    /// PT-2007 26: in session mode only after losing the cave.
    CaveNotLost,
    /// PT-2007 26: the move would leave the table below the minimum.
    LeavesTableShort,
    /// The destination is full.
    DestinationFull,
}

/// BSOP 58, PT-2007 26: may a player move voluntarily from one similar table to another?
/// `from_seated`/`to_seated` count before the move.
pub fn transfer_allowed(
    from_seated: usize,
    to_seated: usize,
    to_seats: usize,
    session_mode: bool,
    cave_lost: bool,
    min_players: i32,
) -> Result<(), TransferRefusal> {
    if to_seated >= to_seats {
        return Err(TransferRefusal::DestinationFull);
    }
    if session_mode && !cave_lost {
        return Err(TransferRefusal::CaveNotLost);
    }
    if session_mode && from_seated.saturating_sub(1) < min_players.max(0) as usize {
        return Err(TransferRefusal::LeavesTableShort);
    }
    // BSOP 58: refused when the table being left has fewer players than the destination.
    if from_seated < to_seated {
        return Err(TransferRefusal::Unbalances);
    }
    // PT-2007 26: in session mode the move must not unbalance the tables: afterwards the
    // destination may not hold more than the table left plus one.
    if session_mode && to_seated + 1 > from_seated {
        return Err(TransferRefusal::Unbalances);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn t0() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 21, 20, 0, 0).unwrap()
    }
    fn grace() -> Duration {
        Duration::minutes(15)
    }

    #[test]
    fn pt2007_24_cannot_start_below_the_minimum() {
        assert_eq!(
            evaluate(TableState::Open, 3, 4, None, grace(), t0()),
            Transition::Stay
        );
        assert_eq!(
            evaluate(TableState::Open, 4, 4, None, grace(), t0()),
            Transition::Run
        );
    }

    #[test]
    fn pt2007_24_suspends_below_the_minimum_and_closes_after_15_minutes() {
        assert_eq!(
            evaluate(TableState::Running, 3, 4, None, grace(), t0()),
            Transition::Suspend {
                closes_at: t0() + Duration::minutes(15)
            }
        );
        let s = Some(t0());
        assert_eq!(
            evaluate(
                TableState::Suspended,
                3,
                4,
                s,
                grace(),
                t0() + Duration::seconds(899)
            ),
            Transition::Stay
        );
        assert_eq!(
            evaluate(
                TableState::Suspended,
                4,
                4,
                s,
                grace(),
                t0() + Duration::seconds(899)
            ),
            Transition::Run
        );
        assert_eq!(
            evaluate(
                TableState::Suspended,
                3,
                4,
                s,
                grace(),
                t0() + Duration::minutes(15)
            ),
            Transition::Close
        );
        // Back to four only after the deadline: still closed (the deadline comes first).
        assert_eq!(
            evaluate(
                TableState::Suspended,
                4,
                4,
                s,
                grace(),
                t0() + Duration::minutes(15)
            ),
            Transition::Close
        );
        // A restart long after the deadline closes at once.
        assert_eq!(
            evaluate(
                TableState::Suspended,
                0,
                4,
                s,
                grace(),
                t0() + Duration::hours(5)
            ),
            Transition::Close
        );
        // PT-ONL 7: the minimum is a profile setting.
        assert_eq!(
            evaluate(TableState::Running, 2, 2, None, grace(), t0()),
            Transition::Stay
        );
    }

    fn gt(id: i64, minutes: i64, seated: usize) -> GameTable {
        GameTable {
            table_id: id,
            formed_at: t0() + Duration::minutes(minutes),
            seated,
            seats: 10,
        }
    }

    #[test]
    fn bsop_55_56_the_newest_table_is_the_must_move() {
        assert_eq!(must_move_table(&[gt(1, 0, 9)]), None);
        assert_eq!(must_move_table(&[gt(1, 0, 9), gt(2, 30, 5)]), Some(2));
        assert_eq!(
            must_move_table(&[gt(1, 0, 9), gt(2, 30, 9), gt(3, 60, 4)]),
            Some(3)
        );
        // The third breaks: the second-formed becomes the must-move.
        assert_eq!(must_move_table(&[gt(1, 0, 9), gt(2, 30, 9)]), Some(2));
    }

    #[test]
    fn bsop_57_must_move_waits_while_in_small_blind_or_button() {
        let mut ps = vec![
            MustMovePlayer {
                player_id: PlayerId(7),
                list_order: 2,
                in_small_blind_or_button: false,
            },
            MustMovePlayer {
                player_id: PlayerId(5),
                list_order: 1,
                in_small_blind_or_button: false,
            },
        ];
        assert_eq!(must_move_due(&ps), Some(PlayerId(5)));
        ps[1].in_small_blind_or_button = true;
        assert_eq!(
            must_move_due(&ps),
            None,
            "the first in list order waits; nobody jumps the order"
        );
        assert_eq!(must_move_due(&[]), None);
    }

    #[test]
    fn bsop_55_refusal_rejoins_after_one_hour() {
        assert_eq!(
            may_rejoin_after_refusal(t0(), Duration::minutes(60)),
            t0() + Duration::hours(1)
        );
    }

    #[test]
    fn bsop_58_the_table_that_needs_a_player_most() {
        assert_eq!(
            neediest_table(&[gt(1, 0, 8), gt(2, 10, 6), gt(3, 20, 6)]),
            Some(2)
        );
        assert_eq!(neediest_table(&[gt(1, 0, 10)]), None);
    }

    #[test]
    fn bsop_58_pt2007_26_voluntary_transfers() {
        assert_eq!(
            transfer_allowed(6, 8, 10, false, false, 4),
            Err(TransferRefusal::Unbalances)
        );
        assert_eq!(transfer_allowed(8, 6, 10, false, false, 4), Ok(()));
        assert_eq!(
            transfer_allowed(8, 10, 10, false, false, 4),
            Err(TransferRefusal::DestinationFull)
        );
        assert_eq!(
            transfer_allowed(8, 6, 10, true, false, 4),
            Err(TransferRefusal::CaveNotLost)
        );
        assert_eq!(
            transfer_allowed(4, 3, 10, true, true, 4),
            Err(TransferRefusal::LeavesTableShort)
        );
        assert_eq!(transfer_allowed(8, 6, 10, true, true, 4), Ok(()));
        // Equal tables: allowed without sessions (BSOP 58), not in session mode (7 vs 5 after).
        assert_eq!(transfer_allowed(6, 6, 10, false, false, 4), Ok(()));
        assert_eq!(
            transfer_allowed(6, 6, 10, true, true, 4),
            Err(TransferRefusal::Unbalances)
        );
    }

    #[test]
    fn pt_2007_24_no_hand_below_the_minimum_not_even_the_first() {
        use TableState::*;
        let e = may_deal_hand(Open, 3, 4).unwrap_err();
        assert_eq!(e.key, "err-hand-below-minimum");
        assert_eq!(
            e.args,
            vec![("min", "4".to_string()), ("seated", "3".to_string())]
        );
        assert!(may_deal_hand(Open, 4, 4).is_ok());
        assert!(may_deal_hand(Running, 4, 4).is_ok());
        assert!(may_deal_hand(Running, 3, 4).is_err());
        // PT-ONL 7 runs with two, never fewer.
        assert!(may_deal_hand(Open, 2, 2).is_ok());
        assert!(may_deal_hand(Open, 1, 0).is_err());
        assert_eq!(
            may_deal_hand(Suspended, 6, 4).unwrap_err().key,
            "err-table-not-running"
        );
        assert!(may_deal_hand(Closed, 6, 4).is_err());
    }

    #[test]
    fn pt_2007_24_a_suspension_is_over_at_the_deadline_by_the_clock() {
        let t0 = Utc::now();
        let g = Duration::minutes(15);
        let s = TableState::Suspended;
        assert!(!suspension_over(s, Some(t0), g, t0 + Duration::minutes(14)));
        assert!(suspension_over(s, Some(t0), g, t0 + g));
        assert!(!suspension_over(TableState::Running, Some(t0), g, t0 + g));
        assert!(!suspension_over(s, None, g, t0 + g));
    }

    fn cand(id: i64, age_min: i64, seated: usize, free: usize, mm: bool) -> SuggestCandidate {
        SuggestCandidate {
            table_id: id,
            formed_at: t0() + Duration::minutes(age_min),
            seated,
            free,
            must_move: mm,
        }
    }

    #[test]
    fn bsop_55_an_empty_must_move_table_is_not_suggested_while_main_games_have_seats() {
        // Two main games with 36 free seats between them, an empty must-move table: the new
        // player goes to the main game that needs one most.
        let ts = [
            cand(1, 0, 2, 8, false),
            cand(2, 10, 1, 9, false),
            cand(3, 20, 0, 9, true),
        ];
        assert_eq!(
            suggest_new_player(TablePolicy::MustMove, &ts),
            Some((2, SuggestRule::MainGame))
        );
        // The must-move table has as many players as the main games have free seats: they
        // take those seats, the new player sits at the must-move table.
        let ts = [
            cand(1, 0, 9, 1, false),
            cand(2, 10, 8, 1, false),
            cand(3, 20, 2, 7, true),
        ];
        assert_eq!(
            suggest_new_player(TablePolicy::MustMove, &ts),
            Some((3, SuggestRule::MustMove))
        );
        // Main games full, must-move full: nowhere.
        let ts = [cand(1, 0, 10, 0, false), cand(3, 20, 10, 0, true)];
        assert_eq!(suggest_new_player(TablePolicy::MustMove, &ts), None);
    }

    #[test]
    fn bsop_58_balanced_goes_to_the_table_that_needs_a_player_most_must_move_mark_or_not() {
        let ts = [
            cand(1, 0, 6, 4, false),
            cand(2, 10, 6, 4, false),
            cand(3, 20, 7, 3, true),
        ];
        // Ties go to the older table; a table left marked must-move is one like the others.
        assert_eq!(
            suggest_new_player(TablePolicy::Balanced, &ts),
            Some((1, SuggestRule::Neediest))
        );
        // A must-move game without its must-move table yet: as balanced.
        let ts = [cand(1, 0, 8, 0, false), cand(2, 10, 5, 5, false)];
        assert_eq!(
            suggest_new_player(TablePolicy::MustMove, &ts),
            Some((2, SuggestRule::Neediest))
        );
        // The fewest players but no free seat (calls and holds): not suggested.
        let ts = [cand(1, 0, 3, 0, false), cand(2, 10, 5, 1, false)];
        assert_eq!(
            suggest_new_player(TablePolicy::Balanced, &ts),
            Some((2, SuggestRule::Neediest))
        );
        assert_eq!(suggest_new_player(TablePolicy::Balanced, &[]), None);
    }

    proptest::proptest! {
        /// BSOP 55, 58: whatever the tables, a suggested table has a free seat, and nothing is
        /// suggested only when no table (that the policy may use) has one.
        #[test]
        fn a_suggested_table_always_has_a_free_seat(
            raw in proptest::collection::vec((0usize..11, 0usize..11, proptest::bool::ANY), 0..8),
            balanced in proptest::bool::ANY,
        ) {
            let mut seen_mm = false;
            let ts: Vec<SuggestCandidate> = raw
                .iter()
                .enumerate()
                .map(|(i, (seated, free, mm))| {
                    let mm = *mm && !seen_mm;
                    seen_mm |= mm;
                    cand(i as i64 + 1, i as i64, *seated, *free, mm)
                })
                .collect();
            let policy = if balanced { TablePolicy::Balanced } else { TablePolicy::MustMove };
            match suggest_new_player(policy, &ts) {
                Some((id, rule)) => {
                    let t = ts.iter().find(|t| t.table_id == id).unwrap();
                    proptest::prop_assert!(t.free > 0);
                    proptest::prop_assert_eq!(rule == SuggestRule::MustMove, t.must_move && !balanced);
                }
                None => {
                    let mm = ts.iter().find(|t| t.must_move && !balanced);
                    match mm {
                        None => proptest::prop_assert!(ts.iter().all(|t| t.free == 0)),
                        Some(m) => proptest::prop_assert!(m.free == 0),
                    }
                }
            }
        }
    }
}
