//! What a report holds: the figures of a row and the rows of each view (tables, games,
//! days, shifts, waits, hours, limits), as the page, the CSVs and the JSON read them.

use super::intervals::{per_hour_tenths, per_mille};
use crate::domain::money;
use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;

/// The figures of one row (a table, a game, a shift, a day, or the total). Money in minor
/// units; times in seconds.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Figures {
    /// Cagnotte sessions started (PT-2007 7b).
    pub sessions: i64,
    /// Session dues: how many, their amounts, what was collected, what was exempted.
    pub dues: i64,
    pub due: i64,
    pub collected: i64,
    pub exempt: i64,
    pub exempt_count: i64,
    /// `due − collected − exempt`: not collected nor exempted (should be 0).
    pub difference: i64,
    /// Per hand (PT-2007 7a): rake of the hands, drop boxes counted; commissions (MO-13 11).
    pub rake: i64,
    pub drop_box: i64,
    pub commission: i64,
    /// What the house took: `collected + rake + drop_box + commission`.
    pub cagnotte: i64,
    /// PT-2007 5, 9d: apart from the cagnotte.
    pub tips: i64,
    pub hands: i64,
    /// Seated player-time.
    pub played_secs: i64,
    /// Time the table(s) were open (a shift: the shift's time).
    pub open_secs: i64,
    /// Seats × open time.
    pub capacity_secs: i64,
    /// Seat calls that expired (nobody came).
    pub no_shows: i64,
    /// BSOP 115, 116: hands played as a special game, and the players' fixed contributions
    /// put in them (seats marked out not counted), per button.
    pub cucurucho_hands: i64,
    pub cucurucho_contributions: i64,
    pub macaca_hands: i64,
    pub macaca_contributions: i64,
    /// `played ÷ capacity`, per mille.
    pub occupancy_permille: Option<i64>,
    /// `hands ÷ open hours`, in tenths.
    pub hands_per_hour_tenths: Option<i64>,
}

impl Figures {
    /// The derived figures. Money is added with checked arithmetic: a total that
    /// leaves i64 is an error ([`money::Overflow`], a 409 saying so), never a wrapped figure.
    pub(super) fn finish(&mut self) -> Result<(), money::Overflow> {
        self.difference = money::sub(money::sub(self.due, self.collected)?, self.exempt)?;
        self.cagnotte = money::sum([self.collected, self.rake, self.drop_box, self.commission])?;
        self.occupancy_permille = per_mille(self.played_secs, self.capacity_secs);
        self.hands_per_hour_tenths = per_hour_tenths(self.hands, self.open_secs);
        Ok(())
    }
}

/// A row keyed by a table or a game.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Line {
    /// The table's or game's id (0: no game).
    pub id: i64,
    /// The table's number or the game's name.
    pub label: String,
    #[serde(flatten)]
    pub f: Figures,
}

/// A gaming day of the period.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct DayLine {
    pub date: NaiveDate,
    #[serde(flatten)]
    pub f: Figures,
}

/// A dealer's shift at a table (its hands, what was collected and tipped during it).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct ShiftLine {
    pub id: i64,
    pub table_id: i64,
    pub table: i32,
    pub dealer_id: i64,
    pub dealer: String,
    pub started_at: DateTime<Utc>,
    /// None: still going.
    pub ended_at: Option<DateTime<Utc>>,
    #[serde(flatten)]
    pub f: Figures,
}

/// A game's waiting list over the period.
#[derive(Debug, Clone, Default, Serialize, utoipa::ToSchema)]
pub struct WaitLine {
    /// 0: every game together.
    pub game_id: i64,
    pub game: String,
    /// Entries that joined in the period.
    pub joined: i64,
    /// Players seated from the list in the period, and their waits (join to seat).
    pub seated: i64,
    pub median_secs: Option<i64>,
    pub p90_secs: Option<i64>,
    /// The longest the list was, and its time-weighted average length (tenths).
    pub list_max: i64,
    pub list_avg_tenths: i64,
    pub no_shows: i64,
}

/// One hour of the local clock, over the period (a month adds its days up).
#[derive(Debug, Clone, Default, Serialize, utoipa::ToSchema)]
pub struct HourLine {
    /// 0–23, local time.
    pub hour: u32,
    pub cagnotte: i64,
    pub played_secs: i64,
    pub capacity_secs: i64,
    pub occupancy_permille: Option<i64>,
}

/// Hours per limit (PT-2007 22, BSOP 34): the open time of a game's tables at one set of
/// limits over the period, each table's open time split at its limit changes.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct LimitLine {
    /// 0: no game.
    pub game_id: i64,
    pub game: String,
    pub small_blind: i64,
    pub big_blind: i64,
    pub buy_in_min: i64,
    /// None: no maximum.
    pub buy_in_max: Option<i64>,
    /// The tables that played at these limits in the period, by number.
    pub tables: Vec<i32>,
    /// Their open time at these limits (a table is open while someone sits at it).
    pub open_secs: i64,
}

impl LimitLine {
    pub fn limits(&self) -> crate::domain::limits::Limits {
        crate::domain::limits::Limits {
            small_blind: self.small_blind,
            big_blind: self.big_blind,
            buy_in_min: self.buy_in_min,
            buy_in_max: self.buy_in_max,
        }
    }
}

/// Every figure of a period.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Report {
    /// `day` or `month`.
    pub kind: &'static str,
    /// `2026-11-22` or `2026-11`.
    pub period: String,
    pub from: DateTime<Utc>,
    pub to: DateTime<Utc>,
    /// Open seatings and list entries count up to here: `min(to, now)`.
    pub until: DateTime<Utc>,
    pub timezone: String,
    pub currency: String,
    pub game: Option<i64>,
    pub table: Option<i64>,
    pub totals: Figures,
    pub tables: Vec<Line>,
    pub games: Vec<Line>,
    pub days: Vec<DayLine>,
    pub shifts: Vec<ShiftLine>,
    /// Per game, then every game together (`game_id` 0) last.
    pub waits: Vec<WaitLine>,
    /// The 24 hours of the clock, starting at the gaming day's cut-over.
    pub hours: Vec<HourLine>,
    /// Hours per limit (PT-2007 22): by game, then by blinds and buy-ins.
    pub limits: Vec<LimitLine>,
    /// The shifts added up (checked when the report was built, see [`Report::shifts_total`]).
    #[serde(skip)]
    #[schema(ignore)]
    pub(super) shifts_sum: Figures,
}

impl Report {
    /// The shifts added up (the total line under the shifts).
    pub fn shifts_total(&self) -> Figures {
        self.shifts_sum.clone()
    }

    /// The shifts added up, money checked: done once by [`build`](fn@super::build).
    pub(super) fn add_shifts(shifts: &[ShiftLine]) -> Result<Figures, money::Overflow> {
        let mut t = Figures::default();
        for s in shifts {
            let f = &s.f;
            t.sessions += f.sessions;
            t.dues += f.dues;
            money::add_to(&mut t.due, f.due)?;
            money::add_to(&mut t.collected, f.collected)?;
            money::add_to(&mut t.exempt, f.exempt)?;
            t.exempt_count += f.exempt_count;
            money::add_to(&mut t.rake, f.rake)?;
            money::add_to(&mut t.drop_box, f.drop_box)?;
            money::add_to(&mut t.commission, f.commission)?;
            money::add_to(&mut t.tips, f.tips)?;
            t.hands += f.hands;
            t.open_secs += f.open_secs;
            t.no_shows += f.no_shows;
            t.cucurucho_hands += f.cucurucho_hands;
            money::add_to(&mut t.cucurucho_contributions, f.cucurucho_contributions)?;
            t.macaca_hands += f.macaca_hands;
            money::add_to(&mut t.macaca_contributions, f.macaca_contributions)?;
        }
        t.finish()?;
        Ok(t)
    }

    /// The all-games line of the waits.
    pub fn waits_total(&self) -> Option<&WaitLine> {
        self.waits.iter().find(|w| w.game_id == 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn occupancy_and_hands_per_hour_are_integer_ratios() {
        // 9 seats open 2 h, 12 player-hours seated: 12 / 18 = 66.7 %.
        assert_eq!(per_mille(12 * 3600, 9 * 2 * 3600), Some(667));
        assert_eq!(per_mille(1, 0), None);
        // 61 hands in 2 h: 30.5 per hour.
        assert_eq!(per_hour_tenths(61, 7200), Some(305));
        assert_eq!(per_hour_tenths(5, 0), None);
        let mut f = Figures {
            due: 10_000,
            collected: 7_000,
            exempt: 2_000,
            rake: 500,
            drop_box: 300,
            commission: 200,
            played_secs: 3600,
            capacity_secs: 7200,
            hands: 30,
            open_secs: 3600,
            ..Default::default()
        };
        f.finish().unwrap();
        assert_eq!(f.difference, 1_000);
        assert_eq!(f.cagnotte, 8_000);
        assert_eq!(f.occupancy_permille, Some(500));
        assert_eq!(f.hands_per_hour_tenths, Some(300));
    }
}
