//! Table-side rules for one seat, as the dealer tablet applies them: the buy-in a player must
//! bring (BSOP 26, 37; PT-2007 28, 75, 78, 79), rebuys (PT-2007 79), changing table with the
//! whole stack (BSOP 27), the minimum stay of a winner (BSOP 38), absence and its buttons
//! (BSOP 36, 39; PT-2007 90) and hands without betting or resting (PT-2007 13, 89).
//!
//! Money is integer minor units; time is passed in (`now`), never read from a clock. Refusals
//! are [`Problem`]s with a `rules-…` catalog key (`src/i18n/*/rules.ftl`) and raw arguments:
//! amounts in minor units (the web layer formats them), instants as RFC 3339 strings.

use super::error::Problem;
use super::game::LimitClass;
use super::profile::RuleProfile;
use super::refusal::{ChipsRefusal, MoveRefusal, SeatRefusal, TableNotice};
use chrono::{DateTime, Duration, SecondsFormat, Utc};
use serde::Serialize;

/// BSOP 26: the rule label carried by a [`BuyinRequirement`].
pub const BSOP_26: &str = "BSOP 26";
/// BSOP 37: the rule label carried by a [`BuyinRequirement`].
pub const BSOP_37: &str = "BSOP 37";
/// PT-2007 28: the rule label carried by a [`BuyinRequirement`].
pub const PT_2007_28: &str = "PT-2007 28";

/// BSOP 27: «não serão permitidas transferências voluntárias … na primeira hora».
pub const TRANSFER_FIRST_HOUR_MIN: i64 = 60;

/// An instant as the arguments carry it: RFC 3339, whole seconds, `Z`.
fn rfc3339(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Secs, true)
}

/// A positive duration in whole minutes, rounded up (1 s left is 1 minute left).
fn ceil_minutes(d: Duration) -> i64 {
    if d <= Duration::zero() {
        return 0;
    }
    let secs = d.num_seconds() + i64::from(d > Duration::seconds(d.num_seconds()));
    (secs + 59) / 60
}

fn minutes(n: i32) -> Duration {
    Duration::minutes(i64::from(n.max(0)))
}

// ---------------------------------------------------------------------------------------------
// 1. Buy-in when sitting down
// ---------------------------------------------------------------------------------------------

/// BSOP 26, 37: the player's most recent departure from the same game (any table of it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Departure {
    pub left_at: DateTime<Utc>,
    /// The stack the player left with (minor units).
    pub taken_off: i64,
    /// BSOP 36, 37: the chips were taken off the table because the player was away.
    pub removed_for_absence: bool,
    /// BSOP 36: the amount two staff members counted and put in custody when the player was
    /// removed for absence (claimed since or not). When present it is the player's stack for
    /// BSOP 37; otherwise `taken_off` is.
    pub custody_amount: Option<i64>,
}

/// BSOP 26, 37; PT-2007 28, 75, 78: what a player sitting down must buy in for, shown on the
/// tablet before the dealer types an amount. When `exact` is set, `min` and `max` equal it.
/// `rule` names the rule that moved the requirement away from the game's min/max (`None`:
/// the game's own range applies).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct BuyinRequirement {
    pub min: i64,
    pub max: Option<i64>,
    pub exact: Option<i64>,
    pub rule: Option<&'static str>,
}

impl BuyinRequirement {
    fn range(min: i64, max: Option<i64>, rule: Option<&'static str>) -> Self {
        BuyinRequirement {
            min,
            max,
            exact: None,
            rule,
        }
    }
    fn exactly(amount: i64, rule: &'static str) -> Self {
        BuyinRequirement {
            min: amount,
            max: Some(amount),
            exact: Some(amount),
            rule: Some(rule),
        }
    }
}

/// PT-2007 28: «Quando um jogador toma lugar numa mesa durante o decorrer de uma partida, é
/// obrigado a entrar com uma cave correspondente à média do capital em jogo na mesa.» Whether
/// a player sitting down now enters at the average: the profile applies the rule
/// (`join_at_average_stack`, on in `pt-casino`) and the table's game is under way: started
/// (running) and not closed; a suspended game is still under way (PT-2007 24 may revive it).
/// The text names no mode, so continuous and session games alike, unless the room narrowed
/// it to session games (`join_at_average_session_only`).
pub fn joins_at_average(
    profile: &RuleProfile,
    state: super::table::TableState,
    session_mode: bool,
) -> bool {
    use super::table::TableState::{Running, Suspended};
    profile.join_at_average_stack
        && matches!(state, Running | Suspended)
        && (session_mode || !profile.join_at_average_session_only)
}

/// PT-2007 28: «a média do capital em jogo na mesa»: the stacks of the players seated, summed
/// and divided by their number, rounded **down** to the minor unit. `None` for an empty table
/// or when nothing is in play (no average to join at).
pub fn average_capital(stacks: &[i64]) -> Option<i64> {
    if stacks.is_empty() {
        return None;
    }
    let sum: i128 = stacks.iter().map(|s| i128::from((*s).max(0))).sum();
    let avg = sum.div_euclid(stacks.len() as i128);
    (avg > 0).then(|| i64::try_from(avg).unwrap_or(i64::MAX))
}

/// BSOP 26, BSOP 37, PT-2007 28, PT-2007 75/78 (the game's minimum and maximum): what a player
/// sitting down in a game must buy in for.
///
/// `departure` is the player's last departure from the **same game**; it matters only within
/// the return window (`return_window_min`, 60): strictly less than that after `left_at`.
/// Exactly one window later the game's own range applies again.
///
/// - **BSOP 37** (removed for absence, within the window): «devem voltar à disputa com o mesmo
///   stack ou aguardar pelo menos 1h (uma hora) fora da mesa para poder retornar com o stack
///   mínimo da mesa»: exactly the same stack (`custody_amount`, else `taken_off`), even below
///   the game minimum or above its maximum (below the minimum, PT-2007 79 then asks for a
///   rebuy). A stack of 0 leaves nothing to bring back: the game's range applies.
/// - **BSOP 26** (left, within the window): «seu buy-in deverá ser igual ao valor retirado ao
///   sair do jogo». Read as a floor: at least the amount taken off. Bringing more, up to the
///   game maximum, is the same as coming back with that stack and topping it up, which the
///   player could do at the table (PT-2007 79); what the rule forbids is leaving with chips and
///   coming back short. When the amount taken off exceeds the game maximum, the maximum is
///   raised to it (the player must bring back at least what was taken, even above the maximum;
///   so exactly that amount). When it is at or below the game minimum the rule asks nothing
///   more than the minimum and `rule` stays `None`.
/// - **PT-2007 28** (`average_capital` is `Some` only when [`joins_at_average`] says the
///   rule applies at the table): «é obrigado
///   a entrar com uma cave correspondente à média do capital em jogo na mesa»: exactly the
///   average (see [`average_capital`] for its rounding), whatever the game's min/max, because
///   the text binds the entry to the average. A return rule wins when it asks for more: BSOP 26
///   when the amount taken off is above the average, BSOP 37 when the same stack is.
/// - Otherwise: the game's minimum to its maximum.
pub fn buyin_requirement(
    game_min: i64,
    game_max: Option<i64>,
    departure: Option<&Departure>,
    average_capital: Option<i64>,
    return_window_min: i32,
    now: DateTime<Utc>,
) -> BuyinRequirement {
    let game = BuyinRequirement::range(game_min, game_max, None);
    let window = minutes(return_window_min);
    let returning = departure.filter(|d| now < d.left_at + window);
    let return_rule = returning.and_then(|d| {
        if d.removed_for_absence {
            let same = d.custody_amount.unwrap_or(d.taken_off);
            (same > 0).then(|| BuyinRequirement::exactly(same, BSOP_37))
        } else if d.taken_off > game_min {
            let max = game_max.map(|m| m.max(d.taken_off));
            Some(BuyinRequirement::range(d.taken_off, max, Some(BSOP_26)))
        } else {
            None
        }
    });
    match (average_capital.filter(|a| *a > 0), return_rule) {
        (Some(avg), Some(r)) if r.min > avg => r,
        (Some(avg), _) => BuyinRequirement::exactly(avg, PT_2007_28),
        (None, Some(r)) => r,
        (None, None) => game,
    }
}

/// BSOP 26, BSOP 37, PT-2007 28, PT-2007 75/78: is `amount` (minor units) an acceptable buy-in
/// for the requirement? Keys and arguments (raw minor units):
/// `rules-amount-not-positive`; `rules-buyin-same-stack` {required} (BSOP 37);
/// `rules-buyin-average-capital` {required} (PT-2007 28); `rules-buyin-exact` {required};
/// `rules-buyin-below-taken-off` {required} (BSOP 26); `rules-buyin-below-min` {min};
/// `rules-buyin-above-max` {max}.
pub fn check_buyin(req: &BuyinRequirement, amount: i64) -> Result<(), Problem> {
    if amount <= 0 {
        return Err(ChipsRefusal::AmountNotPositive.into());
    }
    if let Some(exact) = req.exact {
        if amount == exact {
            return Ok(());
        }
        return Err(match req.rule {
            Some(BSOP_37) => ChipsRefusal::BuyinSameStack { required: exact },
            Some(PT_2007_28) => ChipsRefusal::BuyinAverageCapital { required: exact },
            _ => ChipsRefusal::BuyinExact { required: exact },
        }
        .into());
    }
    if amount < req.min {
        return Err(match req.rule {
            Some(BSOP_26) => Problem::from(ChipsRefusal::BuyinBelowTakenOff { required: req.min }),
            _ => Problem::from(ChipsRefusal::BuyinBelowMin { min: req.min }),
        });
    }
    if let Some(max) = req.max.filter(|m| amount > *m) {
        return Err(ChipsRefusal::BuyinAboveMax { max }.into());
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// 2. Rebuys
// ---------------------------------------------------------------------------------------------

/// PT-2007 79: «O jogador é obrigado a fazer uma reposição se a sua cave for inferior ao
/// mínimo da mesa e se pretender continuar em jogo»: strictly below the table minimum.
pub fn rebuy_needed(stack: i64, table_min: i64) -> bool {
    stack < table_min
}

/// PT-2007 75, 79 (rebuys; BSOP 28: only between hands, the caller's concern): a rebuy must be
/// positive and, when the game has a maximum buy-in, may not take the stack above it (the
/// maximum bounds what a player may put on the table; a stack that grew above it by winning is
/// kept, but it cannot be topped up). Keys: `rules-amount-not-positive`;
/// `rules-rebuy-stack-at-max` {max} when the stack is already at or above the maximum;
/// `rules-rebuy-above-max` {max, allowed} otherwise (`allowed`: the largest rebuy accepted).
pub fn check_rebuy(stack: i64, amount: i64, game_max: Option<i64>) -> Result<(), Problem> {
    if amount <= 0 {
        return Err(ChipsRefusal::AmountNotPositive.into());
    }
    let Some(max) = game_max else { return Ok(()) };
    if stack >= max {
        return Err(ChipsRefusal::RebuyStackAtMax { max }.into());
    }
    if stack.saturating_add(amount) > max {
        return Err(ChipsRefusal::RebuyAboveMax {
            max,
            allowed: max - stack,
        }
        .into());
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// 2b. Chips asked for before the hand (table stakes)
// ---------------------------------------------------------------------------------------------

/// BSOP 28: «apenas as fichas disponíveis no Stack do jogador podem ser consideradas na mão
/// (table stakes). Um jogador que tenha solicitado mais fichas antes de a mão começar, mas que
/// ainda não as recebeu, só poderá se utilizar destas, caso a direção aprove.» Whether chips
/// that reached the seat during hand `arrived_in` (none: between hands) play in hand `hand`:
/// from the next hand on, and in the hand they arrived in only once the floor approved.
pub fn chips_play_in(hand: i32, arrived_in: Option<i32>, approved: bool) -> bool {
    match arrived_in {
        None => true,
        Some(n) => hand > n || (hand == n && approved),
    }
}

/// BSOP 28: the floor may approve chips for the hand they arrived in while that hand is still
/// the one being played (`current`), once. Keys: `rules-chips-not-pending` (they arrived
/// between hands: they play already), `rules-chips-approved` (already), `rules-chips-hand-over`
/// {hand} (that hand is over: they play from now on anyway).
pub fn check_chips_approval(
    arrived_in: Option<i32>,
    approved: bool,
    current: Option<i32>,
) -> Result<(), Problem> {
    let Some(n) = arrived_in else {
        return Err(ChipsRefusal::NotPending.into());
    };
    if approved {
        return Err(ChipsRefusal::Approved.into());
    }
    if current != Some(n) {
        return Err(ChipsRefusal::HandOver { hand: n }.into());
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// 3. Changing table with the whole stack
// ---------------------------------------------------------------------------------------------

/// BSOP 27: «Se um jogo tiver um buy-in máximo, não serão permitidas transferências
/// voluntárias de mesa para um novo jogo na primeira hora se você exceder o buy-in máximo do
/// jogo.» The player moves with the whole stack; within the first hour after `sat_at`
/// (strictly less than 60 minutes) the move is refused when the stack is strictly above the
/// game's maximum. Key `rules-transfer-first-hour-above-max` {max, stack, minutes (whole
/// minutes left, rounded up), until (RFC 3339)}.
pub fn check_stack_transfer(
    stack: i64,
    game_max: Option<i64>,
    sat_at: DateTime<Utc>,
    now: DateTime<Utc>,
) -> Result<(), Problem> {
    let Some(max) = game_max else { return Ok(()) };
    let until = sat_at + Duration::minutes(TRANSFER_FIRST_HOUR_MIN);
    if stack > max && now < until {
        return Err(MoveRefusal::FirstHourAboveMax {
            max,
            stack,
            minutes: ceil_minutes(until - now),
            until: rfc3339(until),
        }
        .into());
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// 4. Minimum stay for winners
// ---------------------------------------------------------------------------------------------

/// BSOP 38: the minimum stay of a winner at a table of this limit class: High Limit
/// `min_stay_high_min` (2 h), Mid Limit `min_stay_mid_min` (1 h). The rule names only High and
/// Mid Limit tables, so a Low Limit table has no minimum stay (`None`).
pub fn min_stay(limit: LimitClass, profile: &RuleProfile) -> Option<Duration> {
    match limit {
        LimitClass::High => Some(minutes(profile.min_stay_high_min)),
        LimitClass::Mid => Some(minutes(profile.min_stay_mid_min)),
        LimitClass::Low => None,
    }
}

/// BSOP 38: a winner may not leave yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct MinStayRefusal {
    pub limit: LimitClass,
    /// The minimum stay for this limit, in minutes.
    pub stay_min: i64,
    /// Whole minutes left, rounded up.
    pub remaining_min: i64,
    /// When leaving becomes allowed.
    pub allowed_at: DateTime<Utc>,
}

impl MinStayRefusal {
    /// BSOP 38: key `rules-min-stay` {minutes, until (RFC 3339), stay (minutes), limit
    /// (`high` / `mid`)}.
    pub fn to_problem(&self) -> Problem {
        Problem::from(SeatRefusal::MinStay {
            minutes: self.remaining_min,
            until: rfc3339(self.allowed_at),
            stay: self.stay_min,
            limit: self.limit.as_str(),
        })
    }
}

impl From<MinStayRefusal> for Problem {
    /// BSOP 38: see [`MinStayRefusal::to_problem`].
    fn from(r: MinStayRefusal) -> Problem {
        r.to_problem()
    }
}

/// BSOP 38: «Jogadores que estiverem com stacks vencedores (mais fichas do que o seu total de
/// compras), terão que observar o limite mínimo de tempo antes que possam deixar a disputa».
/// Winning means `stack` strictly greater than `total_bought_in` (equal is not winning). A
/// winner may leave once `now - sat_at` reaches the minimum stay of the limit class
/// ([`min_stay`]; exactly at it, leaving is allowed); Low Limit has none.
pub fn check_leave(
    stack: i64,
    total_bought_in: i64,
    sat_at: DateTime<Utc>,
    now: DateTime<Utc>,
    limit: LimitClass,
    profile: &RuleProfile,
) -> Result<(), MinStayRefusal> {
    if stack <= total_bought_in {
        return Ok(());
    }
    let Some(stay) = min_stay(limit, profile) else {
        return Ok(());
    };
    let allowed_at = sat_at + stay;
    if now >= allowed_at {
        return Ok(());
    }
    Err(MinStayRefusal {
        limit,
        stay_min: stay.num_minutes(),
        remaining_min: ceil_minutes(allowed_at - now),
        allowed_at,
    })
}

// ---------------------------------------------------------------------------------------------
// 5. Absence
// ---------------------------------------------------------------------------------------------

/// BSOP 36: the absence facts of one seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct SeatAbsence {
    /// When the player left the seat; `None`: present.
    pub away_since: Option<DateTime<Utc>>,
    /// BSOP 36: «As ausências poderão ser prorrogadas se o supervisor for previamente avisado e
    /// a situação o justificar»: the supervisor's extension, if any.
    pub extended_until: Option<DateTime<Utc>>,
    /// Big blinds missed during this absence (the same count as [`SeatButtons::missed_bb`]).
    pub missed_big_blinds: u32,
}

/// BSOP 36: why an absent player's chips may be taken off the table now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RemovalReason {
    /// «se ele perder o big blind por duas vezes» (profile `missed_bb_before_removal`).
    TwoMissedBigBlinds,
    /// «ou se ausentar por pelo menos 15 (quinze) minutos» (profile `absence_limit_min`).
    AwayTooLong,
}

/// BSOP 36: where a seat stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum AbsenceStatus {
    Present,
    /// Away; by time, the chips may be removed at `due_at` (earlier if the big blinds run out).
    Away {
        due_at: DateTime<Utc>,
    },
    /// The chips may be taken off the table and the seat given to someone else.
    DueForRemoval {
        because: RemovalReason,
    },
}

impl AbsenceStatus {
    /// BSOP 36: what the floor is told about a seat due for removal: key
    /// `rules-absence-due-missed-bb` {count} or `rules-absence-due-away` {minutes}; `None`
    /// when nothing is due.
    pub fn notice(&self, profile: &RuleProfile) -> Option<Problem> {
        match self {
            AbsenceStatus::DueForRemoval {
                because: RemovalReason::TwoMissedBigBlinds,
            } => Some(Problem::from(TableNotice::AbsenceDueMissedBb {
                count: profile.missed_bb_before_removal,
            })),
            AbsenceStatus::DueForRemoval {
                because: RemovalReason::AwayTooLong,
            } => Some(Problem::from(TableNotice::AbsenceDueAway {
                minutes: profile.absence_limit_min,
            })),
            _ => None,
        }
    }
}

/// BSOP 36: «As fichas de um participante podem ser retiradas da mesa e o seu lugar
/// disponibilizado a outra pessoa se ele perder o big blind por duas vezes ou se ausentar por
/// pelo menos 15 (quinze) minutos.» Away for at least `absence_limit_min` (exactly 15:00 is
/// due) or `missed_bb_before_removal` big blinds missed → due for removal (missed blinds are
/// reported first when both hold).
///
/// The extension («As ausências poderão ser prorrogadas …»): the text extends the *absence*,
/// and the missed big blinds are only a consequence of being away, so until `extended_until`
/// **neither** ground applies (an approved absence longer than one orbit would otherwise be
/// cut short by the blind count, which would make the extension pointless). The time-based due
/// moment becomes the later of the normal limit and `extended_until`; from `extended_until` on
/// both grounds apply again (the blinds missed meanwhile still count, and are still owed on
/// return: BSOP 39, PT-2007 90).
pub fn absence_status(
    seat: &SeatAbsence,
    profile: &RuleProfile,
    now: DateTime<Utc>,
) -> AbsenceStatus {
    let Some(since) = seat.away_since else {
        return AbsenceStatus::Present;
    };
    let normal_due = since + minutes(profile.absence_limit_min);
    let due_at = match seat.extended_until {
        Some(e) if e > normal_due => e,
        _ => normal_due,
    };
    let extended = seat.extended_until.is_some_and(|e| now < e);
    let bb_limit = profile.missed_bb_before_removal.max(1) as u32;
    if !extended && seat.missed_big_blinds >= bb_limit {
        return AbsenceStatus::DueForRemoval {
            because: RemovalReason::TwoMissedBigBlinds,
        };
    }
    if now >= due_at {
        return AbsenceStatus::DueForRemoval {
            because: RemovalReason::AwayTooLong,
        };
    }
    AbsenceStatus::Away { due_at }
}

// ---------------------------------------------------------------------------------------------
// 6. Missed-blind and absence buttons
// ---------------------------------------------------------------------------------------------

/// BSOP 36, 39; PT-2007 90: which blind was missed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Blind {
    Small,
    Big,
}

/// BSOP 36: a seat's buttons and the blinds missed since they were last settled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct SeatButtons {
    /// «Um participante deve receber um botão de blind perdido (missed blind) na primeira vez
    /// que perder um blind.»
    pub missed_blind: bool,
    /// «Um botão de ausência será dado pelo dealer a qualquer lugar vazio que já tenha um botão
    /// de blind perdido.»
    pub absence: bool,
    pub missed_sb: u32,
    /// Also [`SeatAbsence::missed_big_blinds`] (BSOP 36).
    pub missed_bb: u32,
}

/// BSOP 39 / PT-2007 90: what a returning player with missed blinds must do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "obligation", rename_all = "snake_case")]
pub enum ReturnObligation {
    /// No blind was missed.
    Nothing,
    /// BSOP 39 (profile `bsop`): «devem pagar o Big Blind ou aguardar o big blind para retornar
    /// à ação. Ao colocar o big blind fora de posição, o jogador não está fazendo um straddle e
    /// não será o último a agir pre-flop.»
    PostBigBlindOrWait,
    /// PT-2007 90 (profile `missed_blinds_dead`): «deve, na mão em que regressar, repor o valor
    /// correspondente ao da aposta ou apostas que não fez. Esse valor não é contado para as
    /// apostas que o jogador fizer nessa mão.» One small blind and/or one big blind, dead; the
    /// caller knows the amounts.
    PayDead { small: bool, big: bool },
}

impl ReturnObligation {
    /// BSOP 39, PT-2007 90: what the dealer is told: `rules-return-post-bb-or-wait`,
    /// `rules-return-pay-dead-small`, `rules-return-pay-dead-big`, `rules-return-pay-dead-both`
    /// (no arguments: the tablet shows the blinds); `None` for nothing.
    pub fn key(&self) -> Option<&'static str> {
        match self {
            ReturnObligation::Nothing => None,
            ReturnObligation::PostBigBlindOrWait => Some("rules-return-post-bb-or-wait"),
            ReturnObligation::PayDead {
                small: true,
                big: false,
            } => Some("rules-return-pay-dead-small"),
            ReturnObligation::PayDead {
                small: false,
                big: true,
            } => Some("rules-return-pay-dead-big"),
            ReturnObligation::PayDead {
                small: true,
                big: true,
            } => Some("rules-return-pay-dead-both"),
            ReturnObligation::PayDead {
                small: false,
                big: false,
            } => None,
        }
    }
}

impl SeatButtons {
    /// BSOP 36: the seat missed a blind: the missed-blind button (from the first one) and the
    /// count.
    pub fn on_blind_missed(&mut self, kind: Blind) {
        self.missed_blind = true;
        match kind {
            Blind::Small => self.missed_sb = self.missed_sb.saturating_add(1),
            Blind::Big => self.missed_bb = self.missed_bb.saturating_add(1),
        }
    }

    /// BSOP 36: a new hand starts and the seat is empty: the dealer puts the absence button on
    /// it only when it already has a missed-blind button.
    pub fn on_seat_empty_at_hand_start(&mut self) {
        if self.missed_blind {
            self.absence = true;
        }
    }

    /// BSOP 39, PT-2007 90: the player is back: the absence button goes; the missed-blind
    /// button stays until [`SeatButtons::on_blinds_settled`]. With `missed_blinds_dead`
    /// (pt-casino) the missed blinds are paid dead, one small and/or one big («a aposta ou
    /// apostas que não fez»; an absence long enough to miss more is a removal, BSOP 36);
    /// otherwise (bsop) the player posts the big blind now or waits for it.
    pub fn on_return(&mut self, profile: &RuleProfile) -> ReturnObligation {
        self.absence = false;
        if !self.missed_blind && self.missed_sb == 0 && self.missed_bb == 0 {
            return ReturnObligation::Nothing;
        }
        if profile.missed_blinds_dead {
            match (self.missed_sb > 0, self.missed_bb > 0) {
                (false, false) => ReturnObligation::Nothing,
                (small, big) => ReturnObligation::PayDead { small, big },
            }
        } else {
            ReturnObligation::PostBigBlindOrWait
        }
    }

    /// BSOP 39, PT-2007 90: the obligation was met (blinds posted or paid dead, or the big
    /// blind reached the player): the buttons and counts are cleared.
    pub fn on_blinds_settled(&mut self) {
        *self = SeatButtons::default();
    }
}

// ---------------------------------------------------------------------------------------------
// 7. Hands without betting and resting
// ---------------------------------------------------------------------------------------------

/// PT-2007 13: «pode um jogador descansar durante duas mãos ou jogadas».
pub const REST_HANDS_ALLOWED: u32 = 2;
/// PT-2007 89: «Se um jogador não apostar durante cinco mãos».
pub const HANDS_BEFORE_FORCED_BIG_BLIND: u32 = 5;

/// PT-2007 13, 89: how a seat took part in the hand just finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HandPlay {
    /// Put chips in the pot, blinds included (PT-2007 81-83 call them «pequena aposta» and
    /// «grande aposta»).
    Bet,
    /// Dealt in, no chips put in (folded, or checked throughout: PT-2007 39 b «Passar — não
    /// apostar»).
    NoBet,
    /// Not dealt in: resting at the player's request («descansar»).
    Rested,
}

/// PT-2007 13: why the player must leave the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LeaveReason {
    /// «se não apostar durante três ou mais jogadas»: a third hand in a row resting.
    RestedTooLong,
    /// «ou se utilizar repetidamente a prerrogativa de descansar durante duas mãos»: a new
    /// rest before the player has bet since the previous one.
    RestedRepeatedly,
}

/// PT-2007 13, 89: what the dealer must be told for a seat after a hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "notice", rename_all = "snake_case")]
pub enum HandNotice {
    Nothing,
    /// PT-2007 13: resting; `hands_left` more hands may be rested (0: must play the next).
    Resting {
        hands_left: u32,
    },
    /// PT-2007 89: must post a big blind in the next hand, without changing the betting order.
    MustPostBigBlind,
    /// PT-2007 13: must leave the table.
    MustLeave {
        because: LeaveReason,
    },
}

impl HandNotice {
    /// PT-2007 13, 89: what the dealer is told: `rules-hands-resting` {hands},
    /// `rules-hands-post-bb`, `rules-hands-leave-rested-too-long`,
    /// `rules-hands-leave-rested-repeatedly`; `None` for nothing.
    pub fn notice(&self) -> Option<Problem> {
        match self {
            HandNotice::Nothing => None,
            HandNotice::Resting { hands_left } => Some(Problem::from(TableNotice::HandsResting {
                hands: *hands_left,
            })),
            HandNotice::MustPostBigBlind => Some(Problem::from(TableNotice::HandsPostBb)),
            HandNotice::MustLeave {
                because: LeaveReason::RestedTooLong,
            } => Some(Problem::from(TableNotice::LeaveRestedTooLong)),
            HandNotice::MustLeave {
                because: LeaveReason::RestedRepeatedly,
            } => Some(Problem::from(TableNotice::LeaveRestedRepeatedly)),
        }
    }
}

/// PT-2007 13, 89: a seat's hand counters, fed once per hand by the dealer's "new hand" tap.
///
/// The two rules come from the same text and must both have effect:
/// - PT-2007 13: «A seu pedido, pode um jogador descansar durante duas mãos ou jogadas sem que
///   por isso perca o seu lugar na mesa. Porém, se não apostar durante três ou mais jogadas, ou
///   se utilizar repetidamente a prerrogativa de descansar durante duas mãos ou jogadas, terá
///   de abandonar a mesa.»
/// - PT-2007 89: «Se um jogador não apostar durante cinco mãos, terá, na mão seguinte, de fazer
///   uma grande aposta, sem que se altere, nessa mão, a sequência das apostas.»
///
/// If «não apostar» meant the same in both, rule 13 would send the player away at the third
/// hand and rule 89 (five hands) could never apply. Rule 13 is about resting: its «Porém»
/// sets the limit of the two-hand rest, so its «três ou mais jogadas» counts hands **sat out**
/// in a row (`rest_hands`): two are allowed, the third means leaving. Rule 89 counts every
/// hand without a bet, dealt in or resting (`hands_without_betting`): after five the player
/// must post a big blind in the next hand. «Repetidamente» is read as a new rest before the
/// player has bet again since the previous rest (`rested_since_bet`): rest, fold, rest is
/// leaving. A bet (blinds included) resets everything. When several notices apply, leaving
/// comes first, then the big blind, then the rest count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct HandCounter {
    /// PT-2007 89: hands in a row without a bet (dealt in or resting).
    pub hands_without_betting: u32,
    /// PT-2007 13: hands in a row sat out resting.
    pub rest_hands: u32,
    /// PT-2007 13: the player has rested since the last bet.
    pub rested_since_bet: bool,
}

impl HandCounter {
    /// PT-2007 13, 89: records how the seat took part in the hand just finished and says
    /// what the dealer must be told.
    pub fn on_new_hand(&mut self, played: HandPlay) -> HandNotice {
        match played {
            HandPlay::Bet => {
                *self = HandCounter::default();
                HandNotice::Nothing
            }
            HandPlay::NoBet => {
                self.rest_hands = 0;
                self.hands_without_betting = self.hands_without_betting.saturating_add(1);
                if self.hands_without_betting >= HANDS_BEFORE_FORCED_BIG_BLIND {
                    HandNotice::MustPostBigBlind
                } else {
                    HandNotice::Nothing
                }
            }
            HandPlay::Rested => {
                let new_rest = self.rest_hands == 0;
                let repeated = new_rest && self.rested_since_bet;
                self.rested_since_bet = true;
                self.rest_hands = self.rest_hands.saturating_add(1);
                self.hands_without_betting = self.hands_without_betting.saturating_add(1);
                if repeated {
                    HandNotice::MustLeave {
                        because: LeaveReason::RestedRepeatedly,
                    }
                } else if self.rest_hands > REST_HANDS_ALLOWED {
                    HandNotice::MustLeave {
                        because: LeaveReason::RestedTooLong,
                    }
                } else if self.hands_without_betting >= HANDS_BEFORE_FORCED_BIG_BLIND {
                    HandNotice::MustPostBigBlind
                } else {
                    HandNotice::Resting {
                        hands_left: REST_HANDS_ALLOWED - self.rest_hands,
                    }
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 8. The button and the small blind (BSOP 57), the button's move at each hand
// ---------------------------------------------------------------------------------------------

/// The seat the button moves to for the next hand: the next occupied seat clockwise (higher
/// number, wrapping) after `button`; with no button yet, the lowest occupied seat. `None` for
/// an empty table. `occupied` need not be sorted.
pub fn next_button(occupied: &[i32], button: Option<i32>) -> Option<i32> {
    let mut seats: Vec<i32> = occupied.to_vec();
    seats.sort_unstable();
    seats.dedup();
    let first = *seats.first()?;
    let Some(b) = button else { return Some(first) };
    Some(seats.iter().copied().find(|s| *s > b).unwrap_or(first))
}

/// BSOP 57: «a menos que esteja no small blind ou no botão»: the seats on the button and in
/// the small blind for the hand being played. The button is `button` when that seat is
/// occupied; the small blind is the next occupied seat clockwise after it (heads-up, the
/// button posts the small blind: the same seat). An empty table or no button: none.
pub fn button_and_small_blind(occupied: &[i32], button: Option<i32>) -> Vec<i32> {
    let Some(b) = button.filter(|b| occupied.contains(b)) else {
        return Vec::new();
    };
    if occupied.len() <= 2 {
        return vec![b];
    }
    let sb = next_button(occupied, Some(b)).unwrap_or(b);
    vec![b, sb]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::profile::ProfileKind;
    use chrono::TimeZone;
    use proptest::prelude::*;

    fn t0() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 21, 20, 0, 0).unwrap()
    }
    fn min(n: i64) -> Duration {
        Duration::minutes(n)
    }
    fn sec(n: i64) -> Duration {
        Duration::seconds(n)
    }
    fn bsop() -> RuleProfile {
        RuleProfile::defaults(ProfileKind::Bsop)
    }
    fn pt() -> RuleProfile {
        RuleProfile::defaults(ProfileKind::PtCasino)
    }
    fn left(taken_off: i64) -> Departure {
        Departure {
            left_at: t0(),
            taken_off,
            removed_for_absence: false,
            custody_amount: None,
        }
    }
    fn removed(taken_off: i64, custody: Option<i64>) -> Departure {
        Departure {
            left_at: t0(),
            taken_off,
            removed_for_absence: true,
            custody_amount: custody,
        }
    }
    #[test]
    fn bsop_28_chips_asked_before_the_hand_play_in_it_only_with_the_floors_approval() {
        // Between hands: they play at once.
        assert!(chips_play_in(7, None, false));
        // During hand 7: not in 7 unless approved; always from 8.
        assert!(!chips_play_in(7, Some(7), false));
        assert!(chips_play_in(7, Some(7), true));
        assert!(chips_play_in(8, Some(7), false));
        // The floor approves while hand 7 is played, once.
        assert!(check_chips_approval(Some(7), false, Some(7)).is_ok());
        assert_eq!(
            check_chips_approval(Some(7), true, Some(7))
                .unwrap_err()
                .key,
            "rules-chips-approved"
        );
        assert_eq!(
            check_chips_approval(Some(7), false, Some(8)).unwrap_err(),
            Problem::from(ChipsRefusal::HandOver { hand: 7 })
        );
        assert_eq!(
            check_chips_approval(None, false, Some(8)).unwrap_err().key,
            "rules-chips-not-pending"
        );
    }

    proptest! {
        /// BSOP 28: approval changes only the hand the chips arrived in.
        #[test]
        fn bsop_28_approval_only_matters_in_the_hand_they_arrived_in(
            hand in 1i32..200,
            arrived in proptest::option::of(1i32..200),
        ) {
            let differs = chips_play_in(hand, arrived, true) != chips_play_in(hand, arrived, false);
            prop_assert_eq!(differs, arrived == Some(hand));
            // Never before they arrived.
            if let Some(n) = arrived {
                if hand < n {
                    prop_assert!(!chips_play_in(hand, arrived, true));
                }
            }
        }
    }

    #[test]
    fn pt_2007_28_applies_to_any_game_under_way_unless_the_room_keeps_it_to_sessions() {
        use crate::domain::table::TableState::*;
        let p = pt();
        // «durante o decorrer de uma partida»: started and not closed, either mode.
        for session in [false, true] {
            assert!(joins_at_average(&p, Running, session));
            assert!(joins_at_average(&p, Suspended, session));
            assert!(!joins_at_average(&p, Open, session));
            assert!(!joins_at_average(&p, Closed, session));
        }
        // The narrow reading, a room's choice: session games only.
        let mut narrow = pt();
        narrow.join_at_average_session_only = true;
        assert!(joins_at_average(&narrow, Running, true));
        assert!(!joins_at_average(&narrow, Running, false));
        // The bsop profile does not apply PT-2007 28.
        assert!(!joins_at_average(&bsop(), Running, true));
        // A room saved before the setting existed reads the text's default.
        let mut old = pt().to_map();
        old.remove("join_at_average_session_only");
        let read = RuleProfile::from_stored(&serde_json::Value::Object(old).to_string()).unwrap();
        assert!(!read.join_at_average_session_only);
    }

    fn req(
        min: i64,
        max: Option<i64>,
        exact: Option<i64>,
        rule: Option<&'static str>,
    ) -> BuyinRequirement {
        BuyinRequirement {
            min,
            max,
            exact,
            rule,
        }
    }
    fn args(p: &Problem) -> Vec<(&'static str, String)> {
        p.args.clone()
    }

    // --- 1. Buy-ins ---------------------------------------------------------------------

    #[test]
    fn pt2007_78_a_new_player_buys_in_between_the_game_min_and_max() {
        let r = buyin_requirement(4000, Some(20000), None, None, 60, t0());
        assert_eq!(r, req(4000, Some(20000), None, None));
        assert_eq!(check_buyin(&r, 4000), Ok(()));
        assert_eq!(check_buyin(&r, 20000), Ok(()));
        let e = check_buyin(&r, 3999).unwrap_err();
        assert_eq!(
            (e.key, args(&e)),
            ("rules-buyin-below-min", vec![("min", "4000".to_string())])
        );
        let e = check_buyin(&r, 20001).unwrap_err();
        assert_eq!(
            (e.key, args(&e)),
            ("rules-buyin-above-max", vec![("max", "20000".to_string())])
        );
        assert_eq!(
            check_buyin(&r, 0).unwrap_err().key,
            "rules-amount-not-positive"
        );
        assert_eq!(
            check_buyin(&r, -5000).unwrap_err().key,
            "rules-amount-not-positive"
        );
        // No maximum: anything from the minimum up.
        let open = buyin_requirement(4000, None, None, None, 60, t0());
        assert_eq!(check_buyin(&open, 9_000_000), Ok(()));
    }

    #[test]
    fn bsop_26_return_within_the_hour_needs_the_amount_taken_off() {
        let d = left(15000);
        let r = buyin_requirement(4000, Some(20000), Some(&d), None, 60, t0() + min(59));
        assert_eq!(r, req(15000, Some(20000), None, Some(BSOP_26)));
        let e = check_buyin(&r, 14999).unwrap_err();
        assert_eq!(
            (e.key, args(&e)),
            (
                "rules-buyin-below-taken-off",
                vec![("required", "15000".to_string())]
            )
        );
        assert_eq!(check_buyin(&r, 15000), Ok(()));
        // More, up to the game maximum, is the same as returning and topping up.
        assert_eq!(check_buyin(&r, 20000), Ok(()));
        assert_eq!(
            check_buyin(&r, 20001).unwrap_err().key,
            "rules-buyin-above-max"
        );
        // One second before the hour: still bound.
        let r = buyin_requirement(
            4000,
            Some(20000),
            Some(&d),
            None,
            60,
            t0() + min(60) - sec(1),
        );
        assert_eq!(r.min, 15000);
    }

    #[test]
    fn bsop_26_exactly_one_hour_after_leaving_the_game_minimum_is_enough() {
        let d = left(15000);
        let r = buyin_requirement(4000, Some(20000), Some(&d), None, 60, t0() + min(60));
        assert_eq!(r, req(4000, Some(20000), None, None));
        assert_eq!(check_buyin(&r, 4000), Ok(()));
        // The window is the profile's.
        let r = buyin_requirement(4000, Some(20000), Some(&d), None, 90, t0() + min(60));
        assert_eq!(r.rule, Some(BSOP_26));
    }

    #[test]
    fn bsop_26_taken_off_above_the_game_max_must_be_brought_back_in_full() {
        let d = left(35000);
        let r = buyin_requirement(4000, Some(20000), Some(&d), None, 60, t0() + min(10));
        assert_eq!(r, req(35000, Some(35000), None, Some(BSOP_26)));
        assert_eq!(check_buyin(&r, 35000), Ok(()));
        assert_eq!(
            check_buyin(&r, 20000).unwrap_err().key,
            "rules-buyin-below-taken-off"
        );
        assert_eq!(
            check_buyin(&r, 35001).unwrap_err().key,
            "rules-buyin-above-max"
        );
        // Without a game maximum there is no ceiling.
        let r = buyin_requirement(4000, None, Some(&d), None, 60, t0() + min(10));
        assert_eq!(r, req(35000, None, None, Some(BSOP_26)));
    }

    #[test]
    fn bsop_26_a_short_stack_taken_off_still_buys_the_game_minimum() {
        // Left with less than the minimum (or busted): the minimum already asks for more.
        for taken in [0, 1500, 4000] {
            let r = buyin_requirement(
                4000,
                Some(20000),
                Some(&left(taken)),
                None,
                60,
                t0() + min(5),
            );
            assert_eq!(r, req(4000, Some(20000), None, None), "taken off {taken}");
        }
    }

    #[test]
    fn bsop_37_return_after_removal_for_absence_with_the_same_stack() {
        let d = removed(12500, Some(12500));
        let r = buyin_requirement(4000, Some(20000), Some(&d), None, 60, t0() + min(30));
        assert_eq!(r, req(12500, Some(12500), Some(12500), Some(BSOP_37)));
        assert_eq!(check_buyin(&r, 12500), Ok(()));
        let e = check_buyin(&r, 20000).unwrap_err();
        assert_eq!(
            (e.key, args(&e)),
            (
                "rules-buyin-same-stack",
                vec![("required", "12500".to_string())]
            )
        );
        assert_eq!(
            check_buyin(&r, 4000).unwrap_err().key,
            "rules-buyin-same-stack"
        );
        // The custody count is the stack; without one, the amount taken off.
        let r = buyin_requirement(
            4000,
            Some(20000),
            Some(&removed(12500, Some(12000))),
            None,
            60,
            t0(),
        );
        assert_eq!(r.exact, Some(12000));
        let r = buyin_requirement(
            4000,
            Some(20000),
            Some(&removed(2500, None)),
            None,
            60,
            t0(),
        );
        assert_eq!(
            r,
            req(2500, Some(2500), Some(2500), Some(BSOP_37)),
            "even below the game minimum"
        );
        // Nothing to bring back: the game's range.
        let r = buyin_requirement(4000, Some(20000), Some(&removed(0, None)), None, 60, t0());
        assert_eq!(r, req(4000, Some(20000), None, None));
    }

    #[test]
    fn bsop_37_after_one_hour_off_the_table_the_minimum_is_enough() {
        let d = removed(12500, Some(12500));
        let r = buyin_requirement(
            4000,
            Some(20000),
            Some(&d),
            None,
            60,
            t0() + min(60) - sec(1),
        );
        assert_eq!(r.exact, Some(12500));
        let r = buyin_requirement(4000, Some(20000), Some(&d), None, 60, t0() + min(60));
        assert_eq!(r, req(4000, Some(20000), None, None));
        assert_eq!(check_buyin(&r, 4000), Ok(()));
    }

    #[test]
    fn pt2007_28_joining_a_running_session_game_at_the_average_capital() {
        // 100.00 + 250.01 + 49.99 + 0.01 = 400.01 / 4 = 100.0025 → 100.00 (floor).
        assert_eq!(average_capital(&[10000, 25001, 4999, 1]), Some(10000));
        assert_eq!(average_capital(&[10001, 10002]), Some(10001));
        assert_eq!(average_capital(&[]), None);
        assert_eq!(average_capital(&[0, 0]), None);
        let r = buyin_requirement(4000, Some(20000), None, Some(10000), 60, t0());
        assert_eq!(r, req(10000, Some(10000), Some(10000), Some(PT_2007_28)));
        assert_eq!(check_buyin(&r, 10000), Ok(()));
        let e = check_buyin(&r, 10001).unwrap_err();
        assert_eq!(
            (e.key, args(&e)),
            (
                "rules-buyin-average-capital",
                vec![("required", "10000".to_string())]
            )
        );
        // The average binds even above the game maximum.
        let r = buyin_requirement(4000, Some(20000), None, Some(30000), 60, t0());
        assert_eq!(r.exact, Some(30000));
    }

    #[test]
    fn pt2007_28_a_return_rule_that_asks_for_more_wins() {
        // BSOP 26 asks 150.00, the average is 100.00: the return rule.
        let r = buyin_requirement(
            4000,
            Some(20000),
            Some(&left(15000)),
            Some(10000),
            60,
            t0() + min(5),
        );
        assert_eq!(r, req(15000, Some(20000), None, Some(BSOP_26)));
        // The average is higher than the amount taken off: the average.
        let r = buyin_requirement(
            4000,
            Some(20000),
            Some(&left(8000)),
            Some(10000),
            60,
            t0() + min(5),
        );
        assert_eq!(r, req(10000, Some(10000), Some(10000), Some(PT_2007_28)));
        // BSOP 37: same stack above the average wins; below it, the average.
        let r = buyin_requirement(
            4000,
            Some(20000),
            Some(&removed(12000, None)),
            Some(10000),
            60,
            t0(),
        );
        assert_eq!(r.rule, Some(BSOP_37));
        assert_eq!(r.exact, Some(12000));
        let r = buyin_requirement(
            4000,
            Some(20000),
            Some(&removed(9000, None)),
            Some(10000),
            60,
            t0(),
        );
        assert_eq!((r.rule, r.exact), (Some(PT_2007_28), Some(10000)));
        // After the window, the average alone.
        let r = buyin_requirement(
            4000,
            Some(20000),
            Some(&left(15000)),
            Some(10000),
            60,
            t0() + min(60),
        );
        assert_eq!((r.rule, r.exact), (Some(PT_2007_28), Some(10000)));
    }

    // --- 2. Rebuys ----------------------------------------------------------------------

    #[test]
    fn pt2007_79_below_the_table_minimum_a_rebuy_is_needed() {
        assert!(rebuy_needed(3999, 4000));
        assert!(rebuy_needed(0, 4000));
        assert!(!rebuy_needed(4000, 4000));
        assert!(!rebuy_needed(12000, 4000));
    }

    #[test]
    fn pt2007_79_a_rebuy_is_positive_and_stays_within_the_max_buy_in() {
        assert_eq!(check_rebuy(3000, 17000, Some(20000)), Ok(()));
        assert_eq!(check_rebuy(3000, 1, Some(20000)), Ok(()));
        let e = check_rebuy(3000, 17001, Some(20000)).unwrap_err();
        assert_eq!(
            (e.key, args(&e)),
            (
                "rules-rebuy-above-max",
                vec![
                    ("max", "20000".to_string()),
                    ("allowed", "17000".to_string())
                ]
            )
        );
        let e = check_rebuy(20000, 100, Some(20000)).unwrap_err();
        assert_eq!(
            (e.key, args(&e)),
            (
                "rules-rebuy-stack-at-max",
                vec![("max", "20000".to_string())]
            )
        );
        assert_eq!(
            check_rebuy(25000, 100, Some(20000)).unwrap_err().key,
            "rules-rebuy-stack-at-max"
        );
        assert_eq!(
            check_rebuy(3000, 0, Some(20000)).unwrap_err().key,
            "rules-amount-not-positive"
        );
        assert_eq!(
            check_rebuy(3000, -1, None).unwrap_err().key,
            "rules-amount-not-positive"
        );
        assert_eq!(check_rebuy(50000, 1_000_000, None), Ok(()));
        assert_eq!(
            check_rebuy(i64::MAX - 1, 10, Some(i64::MAX - 5))
                .unwrap_err()
                .key,
            "rules-rebuy-stack-at-max"
        );
    }

    // --- 3. Table change ----------------------------------------------------------------

    #[test]
    fn bsop_27_no_transfer_above_the_max_in_the_first_hour() {
        let e = check_stack_transfer(25000, Some(20000), t0(), t0() + min(20)).unwrap_err();
        assert_eq!(
            (e.key, args(&e)),
            (
                "rules-transfer-first-hour-above-max",
                vec![
                    ("max", "20000".to_string()),
                    ("stack", "25000".to_string()),
                    ("minutes", "40".to_string()),
                    ("until", "2026-11-21T21:00:00Z".to_string()),
                ]
            )
        );
        // 59:59 seated: one minute left, rounded up.
        let e =
            check_stack_transfer(25000, Some(20000), t0(), t0() + min(60) - sec(1)).unwrap_err();
        assert_eq!(e.args[2], ("minutes", "1".to_string()));
        // Exactly one hour: allowed.
        assert_eq!(
            check_stack_transfer(25000, Some(20000), t0(), t0() + min(60)),
            Ok(())
        );
        // At or below the maximum, or no maximum: allowed at once.
        assert_eq!(check_stack_transfer(20000, Some(20000), t0(), t0()), Ok(()));
        assert_eq!(check_stack_transfer(90000, None, t0(), t0()), Ok(()));
    }

    // --- 4. Minimum stay ----------------------------------------------------------------

    #[test]
    fn bsop_38_a_winner_at_high_limit_stays_two_hours() {
        let p = bsop();
        let r = check_leave(30000, 20000, t0(), t0() + min(30), LimitClass::High, &p).unwrap_err();
        assert_eq!(
            r,
            MinStayRefusal {
                limit: LimitClass::High,
                stay_min: 120,
                remaining_min: 90,
                allowed_at: t0() + min(120)
            }
        );
        let pr: Problem = r.into();
        assert_eq!(pr.key, "rules-min-stay");
        assert_eq!(
            pr.args,
            vec![
                ("minutes", "90".to_string()),
                ("until", "2026-11-21T22:00:00Z".to_string()),
                ("stay", "120".to_string()),
                ("limit", "high".to_string()),
            ]
        );
        // 119:59 seated: still one minute.
        let r = check_leave(
            30000,
            20000,
            t0(),
            t0() + min(120) - sec(1),
            LimitClass::High,
            &p,
        )
        .unwrap_err();
        assert_eq!(r.remaining_min, 1);
        // 61 minutes: allowed at Mid, not at High.
        assert!(check_leave(30000, 20000, t0(), t0() + min(61), LimitClass::High, &p).is_err());
    }

    #[test]
    fn bsop_38_exactly_at_the_minimum_stay_leaving_is_allowed() {
        let p = bsop();
        assert_eq!(
            check_leave(30000, 20000, t0(), t0() + min(120), LimitClass::High, &p),
            Ok(())
        );
        assert_eq!(
            check_leave(30000, 20000, t0(), t0() + min(60), LimitClass::Mid, &p),
            Ok(())
        );
    }

    #[test]
    fn bsop_38_a_winner_at_mid_limit_stays_one_hour_and_low_limit_has_none() {
        let p = bsop();
        let r = check_leave(
            30000,
            20000,
            t0(),
            t0() + min(45) + sec(30),
            LimitClass::Mid,
            &p,
        )
        .unwrap_err();
        assert_eq!(
            (r.stay_min, r.remaining_min, r.allowed_at),
            (60, 15, t0() + min(60))
        );
        assert_eq!(r.to_problem().args[3], ("limit", "mid".to_string()));
        assert_eq!(
            check_leave(30000, 20000, t0(), t0() + min(1), LimitClass::Low, &p),
            Ok(())
        );
        assert_eq!(min_stay(LimitClass::Low, &p), None);
        assert_eq!(min_stay(LimitClass::Mid, &p), Some(min(60)));
        assert_eq!(min_stay(LimitClass::High, &p), Some(min(120)));
        // The profile sets the numbers.
        let mut q = pt();
        q.min_stay_mid_min = 90;
        assert_eq!(
            check_leave(30000, 20000, t0(), t0() + min(80), LimitClass::Mid, &q)
                .unwrap_err()
                .remaining_min,
            10
        );
    }

    #[test]
    fn bsop_38_a_stack_equal_to_the_total_bought_in_is_not_winning() {
        let p = bsop();
        assert_eq!(
            check_leave(20000, 20000, t0(), t0() + min(1), LimitClass::High, &p),
            Ok(())
        );
        assert_eq!(
            check_leave(19999, 20000, t0(), t0() + min(1), LimitClass::High, &p),
            Ok(())
        );
        assert!(check_leave(20001, 20000, t0(), t0() + min(1), LimitClass::High, &p).is_err());
    }

    // --- 5. Absence ---------------------------------------------------------------------

    fn away(since: DateTime<Utc>, ext: Option<DateTime<Utc>>, bb: u32) -> SeatAbsence {
        SeatAbsence {
            away_since: Some(since),
            extended_until: ext,
            missed_big_blinds: bb,
        }
    }

    #[test]
    fn bsop_36_present_seat() {
        assert_eq!(
            absence_status(&SeatAbsence::default(), &bsop(), t0()),
            AbsenceStatus::Present
        );
    }

    #[test]
    fn bsop_36_exactly_15_minutes_away_is_due_for_removal() {
        let p = bsop();
        let s = away(t0(), None, 0);
        assert_eq!(
            absence_status(&s, &p, t0() + min(15) - sec(1)),
            AbsenceStatus::Away {
                due_at: t0() + min(15)
            }
        );
        let due = absence_status(&s, &p, t0() + min(15));
        assert_eq!(
            due,
            AbsenceStatus::DueForRemoval {
                because: RemovalReason::AwayTooLong
            }
        );
        let n = due.notice(&p).unwrap();
        assert_eq!(
            (n.key, n.args),
            (
                "rules-absence-due-away",
                vec![("minutes", "15".to_string())]
            )
        );
    }

    #[test]
    fn bsop_36_two_missed_big_blinds_are_due_for_removal() {
        let p = bsop();
        assert_eq!(
            absence_status(&away(t0(), None, 1), &p, t0() + min(3)),
            AbsenceStatus::Away {
                due_at: t0() + min(15)
            }
        );
        let due = absence_status(&away(t0(), None, 2), &p, t0() + min(3));
        assert_eq!(
            due,
            AbsenceStatus::DueForRemoval {
                because: RemovalReason::TwoMissedBigBlinds
            }
        );
        let n = due.notice(&p).unwrap();
        assert_eq!(
            (n.key, n.args),
            (
                "rules-absence-due-missed-bb",
                vec![("count", "2".to_string())]
            )
        );
        // Both grounds: the blinds are named.
        assert_eq!(
            absence_status(&away(t0(), None, 3), &p, t0() + min(20)),
            AbsenceStatus::DueForRemoval {
                because: RemovalReason::TwoMissedBigBlinds
            }
        );
        assert_eq!(AbsenceStatus::Present.notice(&p), None);
    }

    #[test]
    fn bsop_36_a_supervisor_extension_holds_both_grounds_until_it_ends() {
        let p = bsop();
        let ext = Some(t0() + min(40));
        let s = away(t0(), ext, 0);
        assert_eq!(
            absence_status(&s, &p, t0() + min(20)),
            AbsenceStatus::Away {
                due_at: t0() + min(40)
            }
        );
        // Blinds missed during the extension do not cut it short…
        let s = away(t0(), ext, 3);
        assert_eq!(
            absence_status(&s, &p, t0() + min(39)),
            AbsenceStatus::Away {
                due_at: t0() + min(40)
            }
        );
        // …but count once it ends.
        assert_eq!(
            absence_status(&s, &p, t0() + min(40)),
            AbsenceStatus::DueForRemoval {
                because: RemovalReason::TwoMissedBigBlinds
            }
        );
        assert_eq!(
            absence_status(&away(t0(), ext, 0), &p, t0() + min(40)),
            AbsenceStatus::DueForRemoval {
                because: RemovalReason::AwayTooLong
            }
        );
        // An "extension" shorter than the limit does not shorten it.
        let s = away(t0(), Some(t0() + min(5)), 0);
        assert_eq!(
            absence_status(&s, &p, t0() + min(10)),
            AbsenceStatus::Away {
                due_at: t0() + min(15)
            }
        );
    }

    // --- 6. Buttons ---------------------------------------------------------------------

    #[test]
    fn bsop_36_missed_blind_button_first_then_absence_button_on_the_empty_seat() {
        let mut b = SeatButtons::default();
        b.on_seat_empty_at_hand_start();
        assert_eq!(
            b,
            SeatButtons::default(),
            "no absence button without a missed-blind button"
        );
        b.on_blind_missed(Blind::Small);
        assert_eq!(
            b,
            SeatButtons {
                missed_blind: true,
                absence: false,
                missed_sb: 1,
                missed_bb: 0
            }
        );
        b.on_seat_empty_at_hand_start();
        b.on_blind_missed(Blind::Big);
        assert_eq!(
            b,
            SeatButtons {
                missed_blind: true,
                absence: true,
                missed_sb: 1,
                missed_bb: 1
            }
        );
    }

    #[test]
    fn bsop_39_a_returning_player_posts_the_big_blind_or_waits() {
        let mut b = SeatButtons::default();
        b.on_blind_missed(Blind::Small);
        b.on_seat_empty_at_hand_start();
        let o = b.on_return(&bsop());
        assert_eq!(o, ReturnObligation::PostBigBlindOrWait);
        assert_eq!(o.key(), Some("rules-return-post-bb-or-wait"));
        assert!(
            !b.absence && b.missed_blind,
            "the absence button goes, the missed-blind button stays"
        );
        b.on_blinds_settled();
        assert_eq!(b, SeatButtons::default());
        assert_eq!(b.on_return(&bsop()), ReturnObligation::Nothing);
        assert_eq!(ReturnObligation::Nothing.key(), None);
    }

    #[test]
    fn pt2007_90_missed_blinds_are_paid_dead_on_return() {
        let p = pt();
        let mut b = SeatButtons::default();
        b.on_blind_missed(Blind::Big);
        assert_eq!(
            b.on_return(&p),
            ReturnObligation::PayDead {
                small: false,
                big: true
            }
        );
        let mut b = SeatButtons::default();
        b.on_blind_missed(Blind::Small);
        let o = b.on_return(&p);
        assert_eq!(
            (o, o.key()),
            (
                ReturnObligation::PayDead {
                    small: true,
                    big: false
                },
                Some("rules-return-pay-dead-small")
            )
        );
        b.on_blind_missed(Blind::Big);
        b.on_blind_missed(Blind::Big);
        let o = b.on_return(&p);
        assert_eq!(
            (o, o.key()),
            (
                ReturnObligation::PayDead {
                    small: true,
                    big: true
                },
                Some("rules-return-pay-dead-both")
            )
        );
        assert_eq!(
            ReturnObligation::PayDead {
                small: false,
                big: true
            }
            .key(),
            Some("rules-return-pay-dead-big")
        );
        assert_eq!(
            SeatButtons::default().on_return(&p),
            ReturnObligation::Nothing
        );
    }

    // --- 7. Hands -----------------------------------------------------------------------

    fn feed(c: &mut HandCounter, plays: &[HandPlay]) -> Vec<HandNotice> {
        plays.iter().map(|p| c.on_new_hand(*p)).collect()
    }
    use HandPlay::{Bet, NoBet, Rested};

    #[test]
    fn pt2007_13_two_rested_hands_keep_the_seat_a_third_means_leaving() {
        let mut c = HandCounter::default();
        let n = feed(&mut c, &[Rested, Rested, Rested]);
        assert_eq!(
            n,
            vec![
                HandNotice::Resting { hands_left: 1 },
                HandNotice::Resting { hands_left: 0 },
                HandNotice::MustLeave {
                    because: LeaveReason::RestedTooLong
                },
            ]
        );
        let k = n[2].notice().unwrap();
        assert_eq!(k.key, "rules-hands-leave-rested-too-long");
        let k = n[1].notice().unwrap();
        assert_eq!(
            (k.key, k.args),
            ("rules-hands-resting", vec![("hands", "0".to_string())])
        );
    }

    #[test]
    fn pt2007_13_resting_again_before_betting_means_leaving() {
        let mut c = HandCounter::default();
        let n = feed(&mut c, &[Rested, Rested, NoBet, Rested]);
        assert_eq!(
            n[3],
            HandNotice::MustLeave {
                because: LeaveReason::RestedRepeatedly
            }
        );
        assert_eq!(
            n[3].notice().unwrap().key,
            "rules-hands-leave-rested-repeatedly"
        );
        // A bet in between: a new rest is allowed.
        let mut c = HandCounter::default();
        let n = feed(&mut c, &[Rested, Rested, Bet, Rested]);
        assert_eq!(n[3], HandNotice::Resting { hands_left: 1 });
    }

    #[test]
    fn pt2007_89_five_hands_without_betting_must_post_a_big_blind() {
        let mut c = HandCounter::default();
        let n = feed(&mut c, &[NoBet, NoBet, NoBet, NoBet, NoBet]);
        assert_eq!(n[..4], [HandNotice::Nothing; 4]);
        assert_eq!(n[4], HandNotice::MustPostBigBlind);
        assert_eq!(n[4].notice().unwrap().key, "rules-hands-post-bb");
        assert_eq!(c.hands_without_betting, 5);
        // Posting the big blind is a bet: the count starts again.
        assert_eq!(c.on_new_hand(Bet), HandNotice::Nothing);
        assert_eq!(c, HandCounter::default());
        // Not posting it: told again.
        let mut c = HandCounter::default();
        let n = feed(&mut c, &[NoBet; 6]);
        assert_eq!(n[5], HandNotice::MustPostBigBlind);
    }

    #[test]
    fn pt2007_13_89_rested_hands_count_as_hands_without_betting() {
        let mut c = HandCounter::default();
        let n = feed(&mut c, &[NoBet, NoBet, NoBet, Rested, Rested]);
        assert_eq!(n[3], HandNotice::Resting { hands_left: 1 });
        assert_eq!(n[4], HandNotice::MustPostBigBlind);
        assert_eq!((c.hands_without_betting, c.rest_hands), (5, 2));
        // Four folds and a bet: nothing (the count is of hands in a row).
        let mut c = HandCounter::default();
        let n = feed(&mut c, &[NoBet, NoBet, NoBet, NoBet, Bet, NoBet]);
        assert!(n.iter().all(|x| *x == HandNotice::Nothing));
        assert_eq!(HandNotice::Nothing.notice(), None);
    }

    /// Every key this module emits is in both catalogs and renders its arguments.
    #[test]
    fn every_key_is_translated_in_both_languages() {
        use crate::domain::player::Language;
        use crate::i18n::I18n;
        let i = I18n::default();
        let p = bsop();
        let refusal =
            check_leave(30000, 20000, t0(), t0() + min(30), LimitClass::High, &p).unwrap_err();
        let problems: Vec<Problem> = vec![
            check_buyin(&req(1, None, None, None), 0).unwrap_err(),
            check_buyin(&req(4000, Some(20000), None, None), 1).unwrap_err(),
            check_buyin(&req(4000, Some(20000), None, None), 30000).unwrap_err(),
            check_buyin(&req(15000, Some(20000), None, Some(BSOP_26)), 1).unwrap_err(),
            check_buyin(&req(77, Some(77), Some(77), Some(BSOP_37)), 1).unwrap_err(),
            check_buyin(&req(77, Some(77), Some(77), Some(PT_2007_28)), 1).unwrap_err(),
            check_buyin(&req(77, Some(77), Some(77), None), 1).unwrap_err(),
            check_rebuy(3000, 90000, Some(20000)).unwrap_err(),
            check_rebuy(30000, 1, Some(20000)).unwrap_err(),
            check_stack_transfer(30000, Some(20000), t0(), t0() + min(17)).unwrap_err(),
            refusal.to_problem(),
            AbsenceStatus::DueForRemoval {
                because: RemovalReason::TwoMissedBigBlinds,
            }
            .notice(&p)
            .unwrap(),
            AbsenceStatus::DueForRemoval {
                because: RemovalReason::AwayTooLong,
            }
            .notice(&p)
            .unwrap(),
            HandNotice::Resting { hands_left: 1 }.notice().unwrap(),
            HandNotice::MustPostBigBlind.notice().unwrap(),
            HandNotice::MustLeave {
                because: LeaveReason::RestedTooLong,
            }
            .notice()
            .unwrap(),
            HandNotice::MustLeave {
                because: LeaveReason::RestedRepeatedly,
            }
            .notice()
            .unwrap(),
        ];
        let mut keys: Vec<(&str, Vec<(&str, String)>)> =
            problems.into_iter().map(|p| (p.key, p.args)).collect();
        for o in [
            ReturnObligation::PostBigBlindOrWait,
            ReturnObligation::PayDead {
                small: true,
                big: false,
            },
            ReturnObligation::PayDead {
                small: false,
                big: true,
            },
            ReturnObligation::PayDead {
                small: true,
                big: true,
            },
        ] {
            keys.push((o.key().unwrap(), Vec::new()));
        }
        assert_eq!(keys.len(), 21);
        for lang in [Language::En, Language::Pt] {
            let catalog = I18n::keys(lang);
            for (key, args) in &keys {
                assert!(
                    catalog.iter().any(|k| k == key),
                    "{key} missing in {lang:?}"
                );
                let text = i.msg(lang, key, args);
                assert_ne!(&text, key);
                for (name, value) in args {
                    if *name != "until" && *name != "limit" {
                        assert!(
                            text.contains(value.as_str()),
                            "{key} ({lang:?}) does not show {name}: {text}"
                        );
                    }
                }
            }
        }
        assert!(i
            .msg(Language::Pt, "rules-min-stay", &refusal.to_problem().args)
            .contains("Faltam 90 minutos"));
        assert!(i
            .msg(Language::En, "rules-min-stay", &refusal.to_problem().args)
            .contains("High Limit"));
    }

    // --- Properties ---------------------------------------------------------------------

    proptest! {
        /// BSOP 26, 37, PT-2007 28, 78: check_buyin accepts exactly the amounts the
        /// requirement shows: == exact, else within [min, max].
        #[test]
        fn buyin_accepted_iff_within_the_requirement(
            game_min in 1i64..50_000,
            span in 0i64..100_000,
            has_max in any::<bool>(),
            dep in proptest::option::of((0i64..300_000, any::<bool>(), proptest::option::of(0i64..300_000), 0i64..200)),
            avg in proptest::option::of(0i64..300_000),
            amount in -10i64..400_000,
        ) {
            let game_max = has_max.then_some(game_min + span);
            let d = dep.map(|(taken_off, removed_for_absence, custody_amount, ago)| Departure {
                left_at: t0() - Duration::minutes(ago), taken_off, removed_for_absence, custody_amount,
            });
            let r = buyin_requirement(game_min, game_max, d.as_ref(), avg, 60, t0());
            let expected = match r.exact {
                Some(e) => amount == e,
                None => amount > 0 && amount >= r.min && r.max.is_none_or(|m| amount <= m),
            };
            prop_assert_eq!(check_buyin(&r, amount).is_ok(), expected);
            // The requirement never asks for less than the game minimum unless a rule says so.
            if r.rule.is_none() {
                prop_assert_eq!((r.min, r.max), (game_min, game_max));
            }
            if let Some(e) = r.exact {
                prop_assert_eq!((r.min, r.max), (e, Some(e)));
            }
            // A normal return within the hour never asks for less than what was taken off.
            if let Some(d) = &d {
                if !d.removed_for_absence && t0() - d.left_at < min(60) && r.exact.is_none() {
                    prop_assert!(r.min >= d.taken_off);
                }
            }
        }

        /// BSOP 38: a non-winning stack is never held back.
        #[test]
        fn bsop_38_never_refuses_a_non_winning_stack(
            bought in 0i64..1_000_000, below in 0i64..1_000_000, seated in 0i64..500, li in 0usize..3,
        ) {
            let limit = LimitClass::ALL[li];
            let r = check_leave(bought - below, bought, t0(), t0() + min(seated), limit, &bsop());
            prop_assert_eq!(r, Ok(()));
        }

        /// BSOP 38: a winner is refused exactly while seated less than the minimum stay, and
        /// told the remaining minutes rounded up.
        #[test]
        fn bsop_38_winner_refused_iff_before_the_minimum_stay(secs in 0i64..10_000, li in 0usize..3) {
            let limit = LimitClass::ALL[li];
            let p = bsop();
            let r = check_leave(30000, 20000, t0(), t0() + sec(secs), limit, &p);
            let stay = match limit { LimitClass::High => 7200, LimitClass::Mid => 3600, LimitClass::Low => 0 };
            prop_assert_eq!(r.is_err(), secs < stay);
            if let Err(e) = r {
                prop_assert_eq!(e.remaining_min, (stay - secs + 59) / 60);
                prop_assert_eq!(e.allowed_at, t0() + sec(stay));
            }
        }

        /// BSOP 36: without an extension, due iff away at least the limit or missed at least
        /// the big blinds allowed.
        #[test]
        fn bsop_36_due_iff_time_or_blinds_reached(
            secs in 0i64..4000, bb in 0u32..5, limit_min in 15i32..120, bb_limit in 1i32..5,
        ) {
            let mut p = bsop();
            p.absence_limit_min = limit_min;
            p.missed_bb_before_removal = bb_limit;
            let s = away(t0(), None, bb);
            let st = absence_status(&s, &p, t0() + sec(secs));
            let due = secs >= i64::from(limit_min) * 60 || bb >= bb_limit as u32;
            prop_assert_eq!(matches!(st, AbsenceStatus::DueForRemoval { .. }), due);
            if !due {
                prop_assert_eq!(st, AbsenceStatus::Away { due_at: t0() + min(i64::from(limit_min)) });
            }
        }

        /// BSOP 27: refused iff within the first hour and the stack is above the maximum.
        #[test]
        fn bsop_27_refused_iff_first_hour_and_above_max(
            stack in 0i64..100_000, max in proptest::option::of(1i64..100_000), secs in 0i64..8000,
        ) {
            let r = check_stack_transfer(stack, max, t0(), t0() + sec(secs));
            prop_assert_eq!(r.is_err(), secs < 3600 && max.is_some_and(|m| stack > m));
        }

        /// PT-2007 79: a rebuy is accepted iff positive and within the maximum.
        #[test]
        fn pt2007_79_rebuy_accepted_iff_positive_and_within_max(
            stack in 0i64..100_000, amount in -10i64..100_000, max in proptest::option::of(1i64..100_000),
        ) {
            let ok = amount > 0 && max.is_none_or(|m| stack + amount <= m);
            prop_assert_eq!(check_rebuy(stack, amount, max).is_ok(), ok);
        }

        /// PT-2007 13, 89: whatever the sequence, the seat is never told to leave before a third
        /// rested hand in a row or a second rest without a bet, and the big blind is asked
        /// exactly when five hands in a row passed without a bet (unless leaving).
        #[test]
        fn pt2007_13_89_counter_invariants(plays in proptest::collection::vec(0u8..3, 0..40)) {
            let mut c = HandCounter::default();
            let mut run_without_bet = 0u32;
            for p in plays {
                let play = [Bet, NoBet, Rested][p as usize];
                run_without_bet = if play == Bet { 0 } else { run_without_bet + 1 };
                let n = c.on_new_hand(play);
                prop_assert_eq!(c.hands_without_betting, run_without_bet);
                prop_assert!(c.rest_hands <= run_without_bet);
                match n {
                    HandNotice::MustLeave { .. } => prop_assert_eq!(play, Rested),
                    HandNotice::MustPostBigBlind => prop_assert!(run_without_bet >= 5),
                    HandNotice::Resting { hands_left } => {
                        prop_assert_eq!(play, Rested);
                        prop_assert!(run_without_bet < 5);
                        prop_assert_eq!(hands_left, 2 - c.rest_hands);
                    }
                    HandNotice::Nothing => prop_assert!(play != Rested && run_without_bet < 5),
                }
            }
        }
    }

    #[test]
    fn bsop_57_button_moves_clockwise_to_the_next_occupied_seat() {
        assert_eq!(next_button(&[2, 5, 9], Some(5)), Some(9));
        assert_eq!(next_button(&[2, 5, 9], Some(9)), Some(2));
        assert_eq!(next_button(&[9, 2, 5], Some(6)), Some(9));
        assert_eq!(next_button(&[2, 5, 9], None), Some(2));
        assert_eq!(next_button(&[], Some(3)), None);
    }

    #[test]
    fn bsop_57_button_and_small_blind_seats() {
        assert_eq!(button_and_small_blind(&[1, 4, 7, 9], Some(7)), vec![7, 9]);
        assert_eq!(button_and_small_blind(&[1, 4, 7, 9], Some(9)), vec![9, 1]);
        // Heads-up the button is the small blind.
        assert_eq!(button_and_small_blind(&[3, 8], Some(8)), vec![8]);
        // The button on an empty seat, or no button: nobody is protected.
        assert!(button_and_small_blind(&[1, 4, 7], Some(5)).is_empty());
        assert!(button_and_small_blind(&[1, 4, 7], None).is_empty());
    }
}
