//! The house's percentage (cagnotte), rake, commission and tips, as pure arithmetic on
//! integer minor units. No floats anywhere: percentages are basis points
//! (1 % = 100 bp) and every amount the house takes is **rounded down to a multiple of the
//! smallest chip in play** (BSOP 80: the smallest unit used for the blinds is the smallest
//! amount that changes hands), so the house never takes more than its percentage.
//!
//! Sessions (PT-2007 7b, PT-ONL 1s): a session is one hour *of play* plus the hands needed for
//! every player to finish the hand in progress when the hour is up. Time while the table is
//! suspended (PT-2007 24) is not play. The session is closed by the first "hand over" at or
//! after the hour (the dealer's new-hand tap, or the floor's confirmation); the next session
//! starts at that instant.

use super::refusal::CagnotteRefusal;
use super::{FieldError, Problem};
use crate::domain::ids::PlayerId;
use chrono::{DateTime, Duration, Utc};

/// PT-2007 7b: the session percentage lies between 5 % and 20 %.
pub const SESSION_PERCENT_MIN_BP: i32 = 500;
pub const SESSION_PERCENT_MAX_BP: i32 = 2_000;
/// PT-2007 7a: per hand, at most 5 % of the amounts bet (a profile may set less).
pub const HAND_RAKE_MAX_BP: i32 = 500;
/// MO-13 11: the 13-card game pays winners minus a 2 % commission.
pub const COMMISSION_BP: i32 = 200;

/// What the session percentage is taken of (PT-2007 7b: "do máximo da mesa ou da cave",
/// according to the variant; a game setting).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionBase {
    /// The table maximum (the game's maximum buy-in).
    TableMax,
    /// The cave: what the player brought to the table.
    Cave,
}

impl SessionBase {
    pub fn as_str(self) -> &'static str {
        match self {
            SessionBase::TableMax => "table_max",
            SessionBase::Cave => "cave",
        }
    }

    pub fn parse(s: &str) -> Option<SessionBase> {
        match s {
            "table_max" => Some(SessionBase::TableMax),
            "cave" => Some(SessionBase::Cave),
            _ => None,
        }
    }
}

/// BSOP 80: the smallest chip in play is the smallest unit the blinds use. A game may state
/// it; otherwise it is the largest unit both blinds are whole multiples of (€2/€5 → €1,
/// €0.50/€1 → €0.50); a game without blinds (banked) counts in minor units.
pub fn smallest_chip(small_blind: i64, big_blind: i64, stated: Option<i64>) -> i64 {
    if let Some(c) = stated.filter(|c| *c > 0) {
        return c;
    }
    fn gcd(a: i64, b: i64) -> i64 {
        if b == 0 {
            a
        } else {
            gcd(b, a % b)
        }
    }
    gcd(small_blind.max(0), big_blind.max(0)).max(1)
}

/// PT-2007 7b, 7a; BSOP 80: the checks of a game's cagnotte settings, each on its field.
/// `session`: the game takes a percentage per session; `base`: what of (the caller resolves
/// "not stated"); `table_max`: the game's maximum buy-in.
pub fn check_settings(
    session: bool,
    base: SessionBase,
    table_max: Option<i64>,
    rake_cap: Option<i64>,
    chip: Option<i64>,
    small_blind: i64,
    big_blind: i64,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    // PT-2007 7b: a percentage of the table maximum needs a table maximum.
    if session && base == SessionBase::TableMax && table_max.is_none() {
        errs.push(FieldError::new(
            "cagnotte_base",
            "err-cagnotte-base-needs-max",
        ));
    }
    // PT-2007 7a: a cap is an amount the rake may not pass (at most a game amount).
    if rake_cap.is_some_and(|c| c <= 0) {
        errs.push(FieldError::new("rake_cap", "err-rake-cap-positive"));
    } else if let Some(Err(p)) = rake_cap.map(|c| super::money::GAME_AMOUNT.check(c)) {
        errs.push(FieldError::of("rake_cap", p));
    }
    // BSOP 80: the smallest chip is the smallest unit the blinds are made of.
    if let Some(chip) = chip {
        if chip <= 0 {
            errs.push(FieldError::new(
                "smallest_chip",
                "err-smallest-chip-positive",
            ));
        } else if let Err(p) = super::money::GAME_AMOUNT.check(chip) {
            errs.push(FieldError::of("smallest_chip", p));
        } else if small_blind % chip != 0 || big_blind % chip != 0 {
            errs.push(FieldError::new("smallest_chip", "err-smallest-chip-blinds"));
        }
    }
    errs
}

/// PT-2007 7b: what the dealer records as collected for a session due: not negative, and
/// never more than is due (less is recorded as such and shows as a difference).
pub fn check_collected(collected: i64, due: i64) -> Result<(), Problem> {
    if collected < 0 {
        return Err(CagnotteRefusal::AmountNegative.into());
    }
    if collected > due {
        return Err(CagnotteRefusal::OverDue { max: due }.into());
    }
    Ok(())
}

/// PT-2007 7b, 9c: «Calcular a percentagem a que se refere a regra 7 e introduzi-la na
/// ranhura a esse fim destinada» — the dealer takes a session's percentage from the player's
/// chips at the table. The session's due stands once the player took part in it (one charge
/// per session, [`session_dues`]), but the dealer can only collect it while the player is
/// seated at the due's table (`seated_at_table`: the due's seating, or a later one of the same
/// player at that table in the same session). A player who left — cashed out, moved, removed —
/// has no chips there: collecting is refused and nothing is written; the due stays open (and
/// counts among the dues waiting on the floor's dashboard) until the floor exempts it with a
/// reason.
pub fn check_collectable(seated_at_table: bool) -> Result<(), Problem> {
    if !seated_at_table {
        return Err(CagnotteRefusal::DuePlayerLeft.into());
    }
    Ok(())
}

/// An amount rounded down to a multiple of the smallest chip (BSOP 80). A smallest chip of
/// 0 or less is treated as one minor unit.
pub fn round_down_to_chip(amount: i64, smallest_chip: i64) -> i64 {
    let chip = smallest_chip.max(1);
    if amount <= 0 {
        return 0;
    }
    amount - amount % chip
}

/// `bp` basis points of `amount`, rounded down to the smallest chip. Computed in i128 so a
/// large pot cannot overflow.
pub fn percent_of(amount: i64, bp: i32, smallest_chip: i64) -> i64 {
    if amount <= 0 || bp <= 0 {
        return 0;
    }
    let exact = (amount as i128 * bp as i128) / 10_000;
    round_down_to_chip(exact.min(i64::MAX as i128) as i64, smallest_chip)
}

/// PT-2007 7b: a session percentage outside 5-20 % is refused (in basis points).
pub fn check_session_percent(bp: i32) -> Result<(), Problem> {
    if (SESSION_PERCENT_MIN_BP..=SESSION_PERCENT_MAX_BP).contains(&bp) {
        Ok(())
    } else {
        Err(CagnotteRefusal::SessionPercent {
            min: SESSION_PERCENT_MIN_BP / 100,
            max: SESSION_PERCENT_MAX_BP / 100,
        }
        .into())
    }
}

/// PT-2007 7: the mode is fixed before the game starts; changing it while the game runs
/// needs a new game.
pub fn check_mode_change(game_running: bool) -> Result<(), Problem> {
    if game_running {
        Err(CagnotteRefusal::ModeFixed.into())
    } else {
        Ok(())
    }
}

/// What a session player owes: `bp` of the base (table maximum or cave), rounded down to
/// the smallest chip. PT-2007 7b.
pub fn session_charge(base_amount: i64, bp: i32, smallest_chip: i64) -> i64 {
    percent_of(base_amount, bp, smallest_chip)
}

/// The largest rake allowed on a pot: `max_bp` of it (never more than 5 %, PT-2007 7a),
/// rounded down to the smallest chip, and never above the game's cap per hand. No rake at
/// all on a hand that ended before the flop without a voluntary bet when the profile says so
/// (PT-ONL 18, "no flop, no drop").
pub fn max_rake(
    pot: i64,
    max_bp: i32,
    cap: Option<i64>,
    smallest_chip: i64,
    preflop_no_bet: bool,
    no_flop_no_drop: bool,
) -> i64 {
    if preflop_no_bet && no_flop_no_drop {
        return 0;
    }
    let by_percent = percent_of(pot, max_bp.min(HAND_RAKE_MAX_BP), smallest_chip);
    match cap {
        // A cap that is not a whole number of chips is the chips under it.
        Some(c) => by_percent.min(round_down_to_chip(c, smallest_chip)),
        None => by_percent,
    }
}

/// Checks the rake the dealer recorded for a hand. PT-2007 7a, PT-ONL 17a, 18.
pub fn check_rake(
    pot: i64,
    rake: i64,
    max_bp: i32,
    cap: Option<i64>,
    smallest_chip: i64,
    preflop_no_bet: bool,
    no_flop_no_drop: bool,
) -> Result<(), Problem> {
    if pot < 0 || rake < 0 {
        return Err(CagnotteRefusal::RakeNegative.into());
    }
    if preflop_no_bet && no_flop_no_drop && rake > 0 {
        return Err(CagnotteRefusal::RakeNoFlopNoDrop.into());
    }
    if rake > pot {
        return Err(CagnotteRefusal::RakeOverPot.into());
    }
    let allowed = max_rake(
        pot,
        max_bp,
        cap,
        smallest_chip,
        preflop_no_bet,
        no_flop_no_drop,
    );
    if rake > allowed {
        let capped = cap.is_some_and(|c| {
            round_down_to_chip(c, smallest_chip)
                < percent_of(pot, max_bp.min(HAND_RAKE_MAX_BP), smallest_chip)
        });
        let percent = format_bp(max_bp.min(HAND_RAKE_MAX_BP));
        return Err(if capped {
            CagnotteRefusal::RakeOverCap {
                max: allowed,
                percent,
            }
        } else {
            CagnotteRefusal::RakeOverPercent {
                max: allowed,
                percent,
            }
        }
        .into());
    }
    Ok(())
}

/// BSOP 90: at most three boards («bater duas ou três vezes»).
pub const BOARDS_MAX: i32 = 3;

/// BSOP 90: «Como pré-requisito para ser permitido bater duas ou três vezes, ao menos um
/// jogador na mão deve estar all-in e não deve haver mais nenhuma ação possível na mão. Caso
/// exista qualquer tipo de acordo entre jogadores em uma mão, independente do resultado desta
/// mão, será retirado rake do pote.» A hand run on `boards` boards (1 to 3) is raked once, by
/// its result: the rake of the whole pot ([`check_rake`] applies to it once, never per board),
/// and, when the board was run more than once, the rake may not be left out while the pot
/// bears one (`allowed`, from [`max_rake`], is above zero). Running it again needs an all-in,
/// so it cannot have ended before the flop without a voluntary bet. Keys:
/// `rules-boards-range` {max}, `rules-boards-no-bet`, `rules-boards-rake-missing` {max}.
pub fn check_boards(
    boards: i32,
    rake: i64,
    allowed: i64,
    preflop_no_bet: bool,
) -> Result<(), Problem> {
    if !(1..=BOARDS_MAX).contains(&boards) {
        return Err(CagnotteRefusal::BoardsRange { max: BOARDS_MAX }.into());
    }
    if boards > 1 && preflop_no_bet {
        return Err(CagnotteRefusal::BoardsNoBet.into());
    }
    if boards > 1 && rake == 0 && allowed > 0 {
        return Err(CagnotteRefusal::BoardsRakeMissing { max: allowed }.into());
    }
    Ok(())
}

/// MO-13 11: the house's 2 % of a winner's payout, rounded down to the smallest chip.
pub fn commission(payout: i64, smallest_chip: i64) -> i64 {
    percent_of(payout, COMMISSION_BP, smallest_chip)
}

/// "5" for 500 bp, "2.5" for 250 bp (rule messages).
pub fn format_bp(bp: i32) -> String {
    if bp % 100 == 0 {
        (bp / 100).to_string()
    } else {
        format!("{}.{:02}", bp / 100, bp % 100)
            .trim_end_matches('0')
            .to_string()
    }
}

// ---- sessions -------------------------------------------------------------------------------

/// A time the table was suspended (PT-2007 24): not play. `to: None` while still suspended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Suspension {
    pub from: DateTime<Utc>,
    pub to: Option<DateTime<Utc>>,
}

/// Time of play between `from` and `to`: the wall time minus the suspensions inside it.
pub fn play_time(from: DateTime<Utc>, to: DateTime<Utc>, suspensions: &[Suspension]) -> Duration {
    if to <= from {
        return Duration::zero();
    }
    let mut paused = Duration::zero();
    for s in suspensions {
        let a = s.from.max(from);
        let b = s.to.unwrap_or(to).min(to);
        if b > a {
            paused += b - a;
        }
    }
    (to - from) - paused
}

/// The instant at which `length` of play has passed since `start` (PT-2007 7b: the hour is
/// up), pushed back by every suspension that begins before it. `None` while a suspension
/// that began before the hour was up is still running (the hour cannot be up yet).
pub fn hour_up_at(
    start: DateTime<Utc>,
    length: Duration,
    suspensions: &[Suspension],
) -> Option<DateTime<Utc>> {
    let mut sorted: Vec<Suspension> = suspensions
        .iter()
        .copied()
        .filter(|s| s.to.is_none_or(|to| to > start))
        .collect();
    sorted.sort_by_key(|s| s.from);
    // `t`: how far the count has got; `left`: play still needed after `t`.
    let mut t = start;
    let mut left = length;
    for s in sorted {
        // Overlapping suspensions: only the part after `t` pauses anything.
        let from = s.from.max(t);
        if from >= t + left {
            break;
        }
        left -= from - t;
        match s.to {
            None => return None,
            Some(to) => t = to.max(from),
        }
    }
    Some(t + left)
}

/// Where a session stands now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionState {
    /// Less than the session length of play since the start.
    Running { hour_up_at: Option<DateTime<Utc>> },
    /// The hour is up; the hand in progress is being finished (closed by the next hand over).
    Finishing { since: DateTime<Utc> },
    /// Closed by a hand over at `at`; the next session started then.
    Closed { at: DateTime<Utc> },
}

/// PT-2007 7b: the state of the session that began at `start`, given the hand-over taps so
/// far (any order) and the time now.
pub fn session_state(
    start: DateTime<Utc>,
    length: Duration,
    suspensions: &[Suspension],
    hand_overs: &[DateTime<Utc>],
    now: DateTime<Utc>,
) -> SessionState {
    let Some(up) = hour_up_at(start, length, suspensions) else {
        return SessionState::Running { hour_up_at: None };
    };
    if now < up {
        return SessionState::Running {
            hour_up_at: Some(up),
        };
    }
    match hand_overs
        .iter()
        .copied()
        .filter(|h| *h >= up && *h <= now)
        .min()
    {
        Some(at) => SessionState::Closed { at },
        None => SessionState::Finishing { since: up },
    }
}

/// A player's time at the table (from the seating records).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeatSpan {
    pub player_id: PlayerId,
    pub seat_no: i32,
    pub sat_at: DateTime<Utc>,
    pub left_at: Option<DateTime<Utc>>,
    /// The cave the player brought (the base when the game charges on the cave).
    pub cave: i64,
}

/// One player's charge for one session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionDue {
    pub player_id: PlayerId,
    pub seat_no: i32,
    /// When it became due: the session's start, or the late seat.
    pub at: DateTime<Utc>,
    pub amount: i64,
    /// Seated after the start, within the late window.
    pub late: bool,
}

/// The game's session billing settings (fixed before the game starts, PT-2007 7).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionBilling {
    pub bp: i32,
    pub base: SessionBase,
    /// The table maximum (when the base is the table maximum).
    pub table_max: i64,
    pub smallest_chip: i64,
    /// PT-2007 7b: players who sit down up to this long (of play) after the start also owe.
    pub late_window: Duration,
}

/// PT-2007 7b: who owes what for the session that began at `start` and (if known) ended at
/// `end`. Each player seated when the session starts owes it; so does each player who takes
/// a seat up to the late window after the start (of play: a suspension does not count); a
/// player seated later owes nothing for this session. One charge per player per session, at
/// the player's first seat in it.
pub fn session_dues(
    start: DateTime<Utc>,
    end: Option<DateTime<Utc>>,
    billing: &SessionBilling,
    suspensions: &[Suspension],
    seats: &[SeatSpan],
) -> Vec<SessionDue> {
    let mut spans: Vec<&SeatSpan> = seats.iter().collect();
    spans.sort_by_key(|s| (s.sat_at, s.seat_no));
    let mut out: Vec<SessionDue> = Vec::new();
    for s in spans {
        if out.iter().any(|d| d.player_id == s.player_id) {
            continue;
        }
        // Gone before the session began, or seated after it ended: not in this session.
        if s.left_at.is_some_and(|l| l <= start) || end.is_some_and(|e| s.sat_at >= e) {
            continue;
        }
        let (at, late) = if s.sat_at <= start {
            (start, false)
        } else if play_time(start, s.sat_at, suspensions) <= billing.late_window {
            (s.sat_at, true)
        } else {
            continue;
        };
        let base = match billing.base {
            SessionBase::TableMax => billing.table_max,
            SessionBase::Cave => s.cave,
        };
        out.push(SessionDue {
            player_id: s.player_id,
            seat_no: s.seat_no,
            at,
            amount: session_charge(base, billing.bp, billing.smallest_chip),
            late,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;
    use proptest::prelude::*;

    fn t(min: i64) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 21, 20, 0, 0).unwrap() + Duration::minutes(min)
    }

    fn span(player_id: i64, sat: i64, left: Option<i64>) -> SeatSpan {
        SeatSpan {
            player_id: PlayerId(player_id),
            seat_no: player_id as i32,
            sat_at: t(sat),
            left_at: left.map(t),
            cave: 20_000,
        }
    }

    /// €500 table maximum, 20 %, €1 smallest chip, 30-minute late window.
    fn billing() -> SessionBilling {
        SessionBilling {
            bp: 2_000,
            base: SessionBase::TableMax,
            table_max: 50_000,
            smallest_chip: 100,
            late_window: Duration::minutes(30),
        }
    }

    #[test]
    fn pt_2007_7_the_settings_of_a_games_cagnotte_are_checked_on_their_fields() {
        let fields = |e: Vec<FieldError>| e.into_iter().map(|f| f.key).collect::<Vec<_>>();
        assert!(check_settings(
            true,
            SessionBase::TableMax,
            Some(50_000),
            Some(1_000),
            Some(100),
            200,
            500
        )
        .is_empty());
        assert_eq!(
            fields(check_settings(
                true,
                SessionBase::TableMax,
                None,
                None,
                None,
                200,
                500
            )),
            vec!["err-cagnotte-base-needs-max"]
        );
        assert!(
            check_settings(true, SessionBase::Cave, None, None, None, 200, 500).is_empty(),
            "the cave needs no maximum"
        );
        assert!(
            check_settings(false, SessionBase::TableMax, None, None, None, 200, 500).is_empty(),
            "per hand: no base"
        );
        assert_eq!(
            fields(check_settings(
                false,
                SessionBase::Cave,
                None,
                Some(0),
                None,
                200,
                500
            )),
            vec!["err-rake-cap-positive"]
        );
        assert_eq!(
            fields(check_settings(
                false,
                SessionBase::Cave,
                None,
                None,
                Some(300),
                200,
                500
            )),
            vec!["err-smallest-chip-blinds"],
            "BSOP 80"
        );
        assert_eq!(
            fields(check_settings(
                false,
                SessionBase::Cave,
                None,
                None,
                Some(0),
                200,
                500
            )),
            vec!["err-smallest-chip-positive"]
        );
    }

    #[test]
    fn pt_2007_7b_at_most_the_amount_due_is_collected() {
        assert!(check_collected(10_000, 10_000).is_ok());
        assert!(
            check_collected(5_000, 10_000).is_ok(),
            "less is recorded as such"
        );
        assert_eq!(
            check_collected(10_100, 10_000).unwrap_err().key,
            "rules-cagnotte-over-due"
        );
        assert_eq!(
            check_collected(-1, 10_000).unwrap_err().key,
            "err-amount-negative"
        );
    }

    #[test]
    fn bsop_80_the_smallest_chip_is_stated_or_the_unit_the_blinds_are_made_of() {
        assert_eq!(smallest_chip(200, 500, None), 100, "€2/€5: €1");
        assert_eq!(smallest_chip(50, 100, None), 50, "€0.50/€1: €0.50");
        assert_eq!(smallest_chip(100, 200, Some(25)), 25, "stated by the game");
        assert_eq!(smallest_chip(0, 0, None), 1, "banked games: minor units");
        assert_eq!(
            smallest_chip(100, 200, Some(0)),
            100,
            "a stated 0 is no statement"
        );
    }

    #[test]
    fn bsop_80_amounts_round_down_to_the_smallest_chip() {
        assert_eq!(round_down_to_chip(435, 100), 400);
        assert_eq!(round_down_to_chip(400, 100), 400);
        assert_eq!(round_down_to_chip(99, 100), 0);
        assert_eq!(round_down_to_chip(435, 0), 435);
        assert_eq!(round_down_to_chip(-5, 100), 0);
        // 5 % of an €87 pot is €4.35: €4 with a €1 smallest chip, €4.25 with 25 cents.
        assert_eq!(percent_of(8_700, 500, 100), 400);
        assert_eq!(percent_of(8_700, 500, 25), 425);
    }

    #[test]
    fn pt_2007_7b_twenty_percent_of_a_500_euro_table_maximum_is_100_euros() {
        assert_eq!(session_charge(50_000, 2_000, 100), 10_000);
        assert_eq!(session_charge(50_000, 500, 100), 2_500);
        // 7 % of a €250 cave = €17.50 → €17 with a €1 chip.
        assert_eq!(session_charge(25_000, 700, 100), 1_700);
    }

    #[test]
    fn pt_2007_7b_the_session_percentage_lies_between_5_and_20_percent() {
        assert!(check_session_percent(499).is_err());
        assert!(check_session_percent(500).is_ok());
        assert!(check_session_percent(2_000).is_ok());
        assert!(check_session_percent(2_001).is_err());
        assert_eq!(
            check_session_percent(0).unwrap_err().key,
            "rules-cagnotte-session-percent"
        );
    }

    #[test]
    fn pt_2007_7_the_mode_cannot_change_while_the_game_runs() {
        assert!(check_mode_change(false).is_ok());
        assert_eq!(
            check_mode_change(true).unwrap_err().key,
            "rules-cagnotte-mode-fixed"
        );
    }

    #[test]
    fn pt_2007_7a_rake_is_at_most_5_percent_and_the_cap() {
        // €120 pot, 5 %: €6; with a €5 cap: €5.
        assert_eq!(max_rake(12_000, 500, None, 100, false, true), 600);
        assert_eq!(max_rake(12_000, 500, Some(500), 100, false, true), 500);
        assert!(check_rake(12_000, 500, 500, Some(500), 100, false, true).is_ok());
        let e = check_rake(12_000, 600, 500, Some(500), 100, false, true).unwrap_err();
        assert_eq!(e.key, "rules-rake-over-cap");
        let e = check_rake(12_000, 700, 500, None, 100, false, true).unwrap_err();
        assert_eq!(e.key, "rules-rake-over-percent");
        // A cap that is not a whole number of chips (BSOP 80): the chips under it.
        assert_eq!(max_rake(267_280, 500, Some(1), 2, false, false), 0);
        assert_eq!(max_rake(12_000, 500, Some(450), 100, false, false), 400);
        // A profile asking for more than 5 % still gets 5 % (PT-2007 7a).
        assert_eq!(max_rake(10_000, 1_000, None, 1, false, false), 500);
        assert_eq!(
            check_rake(100, 200, 500, None, 1, false, false)
                .unwrap_err()
                .key,
            "rules-rake-over-pot"
        );
        assert_eq!(
            check_rake(100, -1, 500, None, 1, false, false)
                .unwrap_err()
                .key,
            "rules-rake-negative"
        );
    }

    #[test]
    fn pt_onl_18_no_flop_no_drop() {
        assert_eq!(max_rake(300, 500, None, 1, true, true), 0);
        assert_eq!(
            check_rake(300, 10, 500, None, 1, true, true)
                .unwrap_err()
                .key,
            "rules-rake-no-flop-no-drop"
        );
        assert!(check_rake(300, 0, 500, None, 1, true, true).is_ok());
        // Without the house rule, a pre-flop hand may be raked.
        assert_eq!(max_rake(300, 500, None, 1, true, false), 15);
    }

    #[test]
    fn bsop_90_a_hand_run_twice_is_raked_once_on_its_whole_pot() {
        // 5 % of a 10,000 pot is 500, with two boards or three as with one: never per board.
        let allowed = max_rake(10_000, 500, None, 1, false, true);
        assert_eq!(allowed, 500);
        for boards in 1..=BOARDS_MAX {
            assert!(check_boards(boards, 500, allowed, false).is_ok());
            assert_eq!(
                check_rake(10_000, 1_000, 500, None, 1, false, true)
                    .unwrap_err()
                    .key,
                "rules-rake-over-percent"
            );
        }
        // Run twice: the rake is taken whatever the agreement; one board may go unraked.
        assert_eq!(
            check_boards(2, 0, allowed, false).unwrap_err(),
            Problem::from(CagnotteRefusal::BoardsRakeMissing { max: 500 })
        );
        assert!(check_boards(1, 0, allowed, false).is_ok());
        // A pot too small to bear a chip of rake asks for none.
        assert!(check_boards(3, 0, max_rake(10, 500, None, 1, false, true), false).is_ok());
        // Running it again needs an all-in: not a hand that ended pre-flop without a bet.
        assert_eq!(
            check_boards(2, 0, 0, true).unwrap_err().key,
            "rules-boards-no-bet"
        );
        // One to three boards.
        for boards in [0, 4, -1] {
            assert_eq!(
                check_boards(boards, 500, allowed, false).unwrap_err().key,
                "rules-boards-range"
            );
        }
    }

    #[test]
    fn mo_13_11_two_percent_commission_on_a_winners_payout() {
        assert_eq!(commission(10_000, 1), 200);
        assert_eq!(commission(12_345, 100), 200);
        assert_eq!(commission(0, 100), 0);
    }

    #[test]
    fn pt_2007_24_suspension_is_not_play_time() {
        let s = [Suspension {
            from: t(20),
            to: Some(t(30)),
        }];
        assert_eq!(play_time(t(0), t(60), &s), Duration::minutes(50));
        assert_eq!(play_time(t(25), t(60), &s), Duration::minutes(30));
        assert_eq!(play_time(t(0), t(10), &s), Duration::minutes(10));
        // Still suspended: counts up to `to` only.
        let open = [Suspension {
            from: t(20),
            to: None,
        }];
        assert_eq!(play_time(t(0), t(40), &open), Duration::minutes(20));
    }

    #[test]
    fn pt_2007_7b_a_10_minute_suspension_inside_the_hour_moves_the_hour_10_minutes() {
        let s = [Suspension {
            from: t(20),
            to: Some(t(30)),
        }];
        assert_eq!(hour_up_at(t(0), Duration::minutes(60), &s), Some(t(70)));
        assert_eq!(hour_up_at(t(0), Duration::minutes(60), &[]), Some(t(60)));
        // A suspension after the hour changes nothing; one still running inside it: not up.
        assert_eq!(
            hour_up_at(
                t(0),
                Duration::minutes(60),
                &[Suspension {
                    from: t(65),
                    to: Some(t(80))
                }]
            ),
            Some(t(60))
        );
        assert_eq!(
            hour_up_at(
                t(0),
                Duration::minutes(60),
                &[Suspension {
                    from: t(50),
                    to: None
                }]
            ),
            None
        );
        // Two suspensions.
        let two = [
            Suspension {
                from: t(10),
                to: Some(t(15)),
            },
            Suspension {
                from: t(40),
                to: Some(t(50)),
            },
        ];
        assert_eq!(hour_up_at(t(0), Duration::minutes(60), &two), Some(t(75)));
    }

    #[test]
    fn pt_2007_7b_the_session_ends_at_the_first_hand_over_after_the_hour() {
        let len = Duration::minutes(60);
        let hands = [t(10), t(58), t(63), t(66)];
        assert_eq!(
            session_state(t(0), len, &[], &hands, t(59)),
            SessionState::Running {
                hour_up_at: Some(t(60))
            }
        );
        // The hour ended mid-hand: finishing until the next hand over.
        assert_eq!(
            session_state(t(0), len, &[], &hands[..2], t(61)),
            SessionState::Finishing { since: t(60) }
        );
        assert_eq!(
            session_state(t(0), len, &[], &hands, t(70)),
            SessionState::Closed { at: t(63) }
        );
        // A hand over exactly at the hour closes it.
        assert_eq!(
            session_state(t(0), len, &[], &[t(60)], t(60)),
            SessionState::Closed { at: t(60) }
        );
    }

    #[test]
    fn pt_2007_7b_seven_players_minute_29_pays_minute_31_does_not() {
        let b = billing();
        let seats = [
            span(1, -30, None),
            span(2, -20, None),
            span(3, -10, None),
            span(4, -5, None),
            span(5, 0, None),
            span(6, 29, None),
            span(7, 31, None),
        ];
        let dues = session_dues(t(0), Some(t(63)), &b, &[], &seats);
        let who: Vec<i64> = dues.iter().map(|d| d.player_id.get()).collect();
        assert_eq!(who, vec![1, 2, 3, 4, 5, 6]);
        assert!(
            dues.iter().all(|d| d.amount == 10_000),
            "20 % of €500 each: {dues:?}"
        );
        let late = dues.iter().find(|d| d.player_id == PlayerId(6)).unwrap();
        assert!(late.late && late.at == t(29));
        assert_eq!(dues.iter().map(|d| d.amount).sum::<i64>(), 60_000);
    }

    #[test]
    fn pt_2007_7b_exactly_thirty_minutes_is_still_charged_and_suspension_extends_the_window() {
        let b = billing();
        assert_eq!(
            session_dues(t(0), None, &b, &[], &[span(1, 30, None)]).len(),
            1
        );
        assert_eq!(
            session_dues(t(0), None, &b, &[], &[span(1, 31, None)]).len(),
            0
        );
        // Seated at wall-clock minute 38 after an 8-minute suspension: 30 minutes of play.
        let s = [Suspension {
            from: t(10),
            to: Some(t(18)),
        }];
        assert_eq!(
            session_dues(t(0), None, &b, &s, &[span(1, 38, None)]).len(),
            1
        );
        assert_eq!(
            session_dues(t(0), None, &b, &s, &[span(1, 39, None)]).len(),
            0
        );
    }

    #[test]
    fn pt_2007_7b_one_charge_per_player_per_session_and_only_players_of_that_session() {
        let b = billing();
        // Left and came back in the same session; left before it; sat after it ended.
        let seats = [
            span(1, -10, Some(20)),
            span(1, 25, None),
            span(2, -60, Some(-1)),
            span(3, 64, None),
        ];
        let dues = session_dues(t(0), Some(t(63)), &b, &[], &seats);
        assert_eq!(dues.len(), 1);
        assert_eq!(dues[0].player_id, PlayerId(1));
        assert!(!dues[0].late);
    }

    #[test]
    fn pt_2007_7b_on_the_cave_each_player_pays_on_what_they_brought() {
        let b = SessionBilling {
            base: SessionBase::Cave,
            bp: 1_000,
            ..billing()
        };
        let mut s = span(1, 0, None);
        s.cave = 15_050;
        // 10 % of €150.50 = €15.05 → €15.
        assert_eq!(session_dues(t(0), None, &b, &[], &[s])[0].amount, 1_500);
    }

    #[test]
    fn bp_formats_for_messages() {
        assert_eq!(format_bp(500), "5");
        assert_eq!(format_bp(250), "2.5");
        assert_eq!(format_bp(125), "1.25");
    }

    #[test]
    fn pt2007_9c_a_due_is_collected_only_from_a_player_still_seated() {
        assert_eq!(check_collectable(true), Ok(()));
        assert_eq!(
            check_collectable(false).unwrap_err().key,
            "err-due-player-left"
        );
    }

    proptest! {
        /// BSOP 80, PT-2007 7a: the house never takes more than its percentage, always a
        /// whole number of chips, and never more than the cap.
        #[test]
        fn rake_never_exceeds_percent_cap_or_pot(pot in 0i64..10_000_000, bp in 0i32..=2_000, cap in proptest::option::of(0i64..100_000), chip in 1i64..=500, pre in any::<bool>(), nfnd in any::<bool>()) {
            let r = max_rake(pot, bp, cap, chip, pre, nfnd);
            prop_assert!(r >= 0);
            prop_assert!(r <= pot);
            prop_assert_eq!(r % chip, 0);
            prop_assert!(r as i128 * 10_000 <= pot as i128 * bp.min(HAND_RAKE_MAX_BP) as i128);
            if let Some(c) = cap { prop_assert!(r <= c); }
            if pre && nfnd { prop_assert_eq!(r, 0); }
            prop_assert!(check_rake(pot, r, bp, cap, chip, pre, nfnd).is_ok());
            // One chip more is always refused.
            prop_assert!(check_rake(pot, r + chip, bp, cap, chip, pre, nfnd).is_err());
        }

        /// PT-2007 7b, 24: play time never exceeds wall time, and the hour is never up
        /// before an hour of wall time.
        #[test]
        fn suspensions_only_lengthen_the_session(a in 0i64..120, len in 1i64..60, b in 0i64..120, len2 in 1i64..60) {
            let s = [Suspension { from: t(a), to: Some(t(a + len)) }, Suspension { from: t(b), to: Some(t(b + len2)) }];
            let up = hour_up_at(t(0), Duration::minutes(60), &s).unwrap();
            prop_assert!(up >= t(60));
            // Exactly an hour of play by then (overlapping suspensions count once).
            let mut merged = [(a, a + len), (b, b + len2)];
            merged.sort();
            let paused_before = |x: i64| -> i64 {
                let (mut total, mut cur) = (0i64, i64::MIN);
                for (f, to) in merged { let f = f.max(cur).max(0); let to = to.min(x); if to > f { total += to - f; } cur = cur.max(to); }
                total
            };
            let up_min = (up - t(0)).num_minutes();
            prop_assert_eq!(up_min - paused_before(up_min), 60);
        }
    }
}
