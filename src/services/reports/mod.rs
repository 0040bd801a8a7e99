//! The room's reports (PT-2007 5, 7, 9, 22, 24; MO-13 11): what the house took and was owed,
//! tips, play and the waiting lists per table, game, dealer shift and gaming day, over one
//! gaming day or one month, and each player's hours (for comps). [`build`] computes every
//! figure; the page, its charts, the CSVs and the JSON all read the same [`Report`], so their
//! totals cannot differ. Money is added in Rust, checked, never by SQL `SUM`, so a total
//! that leaves i64 is a 409, not a wrapped figure. What each figure counts, and the periods in
//! the room's zone: `docs/reports.md`.

mod rows;

use crate::db::schema::{card_tables, dealer_shifts, games, players, seatings, staff};
use crate::db::DbConn;
use crate::domain::refusal::ReportRefusal;
use crate::domain::{money, FieldError, Problem};
use crate::error::{AppError, AppResult};
use chrono::{
    DateTime, Datelike, Duration, NaiveDate, NaiveDateTime, NaiveTime, TimeZone, Timelike, Utc,
};
use chrono_tz::Tz;
use diesel::prelude::*;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

// ---- periods in the room's zone -------------------------------------------------------------

/// One gaming day, or the gaming days of one month.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Period {
    Day(NaiveDate),
    /// The first day of the month.
    Month(NaiveDate),
}

/// A query value the report cannot take: a 422 naming the parameter (like every refused
/// field), its message in the user's language.
pub fn refused(param: &str, p: Problem) -> AppError {
    AppError::Validation(vec![FieldError::of(param, p)])
}

impl Period {
    /// From the query: `day=YYYY-MM-DD` or `month=YYYY-MM` (not both); neither: the gaming
    /// day `today`. A malformed value is a 422 naming it, in the user's language.
    pub fn parse(day: Option<&str>, month: Option<&str>, today: NaiveDate) -> AppResult<Period> {
        let day = day.map(str::trim).filter(|s| !s.is_empty());
        let month = month.map(str::trim).filter(|s| !s.is_empty());
        match (day, month) {
            (Some(_), Some(_)) => Err(refused("month", Problem::from(ReportRefusal::DayAndMonth))),
            (Some(d), None) => parse_day(d).map(Period::Day).ok_or_else(|| {
                refused(
                    "day",
                    Problem::from(ReportRefusal::Day { value: quoted(d) }),
                )
            }),
            (None, Some(m)) => parse_month(m).map(Period::Month).ok_or_else(|| {
                refused(
                    "month",
                    Problem::from(ReportRefusal::Month { value: quoted(m) }),
                )
            }),
            (None, None) => Ok(Period::Day(today)),
        }
    }

    /// The gaming days of the period, in order.
    pub fn days(&self) -> Vec<NaiveDate> {
        match *self {
            Period::Day(d) => vec![d],
            Period::Month(first) => first
                .iter_days()
                .take_while(|d| d.month() == first.month())
                .collect(),
        }
    }

    /// `2026-11-22` or `2026-11`: the value the query takes back.
    pub fn key(&self) -> String {
        match self {
            Period::Day(d) => d.format("%Y-%m-%d").to_string(),
            Period::Month(m) => m.format("%Y-%m").to_string(),
        }
    }

    pub fn is_month(&self) -> bool {
        matches!(self, Period::Month(_))
    }

    /// The period before and after (for the page's arrows).
    pub fn prev(&self) -> Period {
        match *self {
            Period::Day(d) => Period::Day(d.pred_opt().unwrap_or(d)),
            Period::Month(m) => Period::Month(
                m.pred_opt()
                    .map(|d| d.with_day(1).unwrap_or(d))
                    .unwrap_or(m),
            ),
        }
    }

    pub fn next(&self) -> Period {
        match *self {
            Period::Day(d) => Period::Day(d.succ_opt().unwrap_or(d)),
            Period::Month(m) => Period::Month(next_month(m)),
        }
    }

    /// The UTC bounds `[from, to)` of the period.
    pub fn bounds(&self, tz: Tz, day_start: NaiveTime) -> (DateTime<Utc>, DateTime<Utc>) {
        match *self {
            Period::Day(d) => day_bounds(tz, d, day_start),
            Period::Month(m) => (
                day_bounds(tz, m, day_start).0,
                day_bounds(tz, next_month(m), day_start).0,
            ),
        }
    }
}

/// A user's value shown back in a message: at most 40 characters.
fn quoted(s: &str) -> String {
    s.chars().take(40).collect()
}

/// Years a report may ask for (keeps every date computation far from chrono's limits).
const YEARS: std::ops::RangeInclusive<i32> = 2000..=2100;

fn parse_day(s: &str) -> Option<NaiveDate> {
    if s.len() != 10 {
        return None;
    }
    NaiveDate::parse_from_str(s, "%Y-%m-%d")
        .ok()
        .filter(|d| YEARS.contains(&d.year()))
}

fn parse_month(s: &str) -> Option<NaiveDate> {
    if s.len() != 7 {
        return None;
    }
    parse_day(&format!("{s}-01"))
}

fn next_month(first: NaiveDate) -> NaiveDate {
    let (y, m) = if first.month() == 12 {
        (first.year() + 1, 1)
    } else {
        (first.year(), first.month() + 1)
    };
    NaiveDate::from_ymd_opt(y, m, 1).unwrap_or(first)
}

/// A local date and time in `tz` as a UTC instant. Clocks going back (the time happens
/// twice): the first of the two; clocks going forward (the time does not exist): the first
/// instant after the gap (the hour the clocks jump to).
pub fn local_instant(tz: Tz, date: NaiveDate, time: NaiveTime) -> DateTime<Utc> {
    let naive = date.and_time(time);
    tz.from_local_datetime(&naive)
        .earliest()
        .or_else(|| {
            tz.from_local_datetime(&(naive + Duration::hours(1)))
                .earliest()
                .map(|t| t - Duration::minutes(t.minute() as i64))
        })
        .map(|t| t.with_timezone(&Utc))
        .unwrap_or_else(|| naive.and_utc())
}

/// The UTC bounds of gaming day `date`: `[date at day_start, date + 1 at day_start)`, local.
pub fn day_bounds(tz: Tz, date: NaiveDate, day_start: NaiveTime) -> (DateTime<Utc>, DateTime<Utc>) {
    let next = date.succ_opt().unwrap_or(date);
    (
        local_instant(tz, date, day_start),
        local_instant(tz, next, day_start),
    )
}

/// The gaming day an instant belongs to (before the cut-over: the day before).
pub fn gaming_date(t: DateTime<Utc>, tz: Tz, day_start: NaiveTime) -> NaiveDate {
    let local = t.with_timezone(&tz);
    let d = local.date_naive();
    if local.time() < day_start {
        d.pred_opt().unwrap_or(d)
    } else {
        d
    }
}

// ---- arithmetic on intervals (seconds since the epoch) -----------------------------------

/// The part of `[a, b)` inside `[from, to)`, in seconds (0 when they do not meet).
pub fn clip(a: i64, b: i64, from: i64, to: i64) -> i64 {
    (b.min(to) - a.max(from)).max(0)
}

/// The index of the bucket holding `t`, buckets being `[bounds[i], bounds[i + 1])`.
pub fn bucket(t: i64, bounds: &[i64]) -> Option<usize> {
    if bounds.len() < 2 || t < bounds[0] || t >= bounds[bounds.len() - 1] {
        return None;
    }
    Some(bounds.partition_point(|b| *b <= t) - 1)
}

/// Splits `[a, b)` over the buckets `[bounds[i], bounds[i + 1])`: `f(i, seconds)` for each
/// bucket it meets (parts outside every bucket are dropped).
pub fn spread(a: i64, b: i64, bounds: &[i64], mut f: impl FnMut(usize, i64)) {
    if a >= b || bounds.len() < 2 {
        return;
    }
    let mut i = bounds.partition_point(|x| *x <= a).saturating_sub(1);
    while i + 1 < bounds.len() && bounds[i] < b {
        let part = clip(a, b, bounds[i], bounds[i + 1]);
        if part > 0 {
            f(i, part);
        }
        i += 1;
    }
}

/// Merges intervals into disjoint ones (sorted): the time covered by at least one.
pub fn union(mut v: Vec<(i64, i64)>) -> Vec<(i64, i64)> {
    v.retain(|(a, b)| a < b);
    v.sort_unstable();
    let mut out: Vec<(i64, i64)> = Vec::with_capacity(v.len());
    for (a, b) in v {
        match out.last_mut() {
            Some(last) if a <= last.1 => last.1 = last.1.max(b),
            _ => out.push((a, b)),
        }
    }
    out
}

/// The local hours of `[from, to)` in `tz`: the bucket bounds (UTC seconds) and each
/// bucket's hour of the local clock (0–23). A day when the clocks change has 23 or 25.
pub fn hour_buckets(tz: Tz, from: i64, to: i64) -> (Vec<i64>, Vec<u32>) {
    let mut bounds = vec![from];
    let mut hours = Vec::new();
    let mut t = from;
    while t < to {
        let Some(utc) = DateTime::<Utc>::from_timestamp(t, 0) else {
            break;
        };
        let local = utc.with_timezone(&tz);
        hours.push(local.hour());
        let next = t + 3600 - (local.minute() as i64 * 60 + local.second() as i64);
        t = next.min(to);
        bounds.push(t);
    }
    (bounds, hours)
}

/// The median of sorted values: the middle one, or the mean of the two middle ones rounded
/// down (to the second, for waits).
pub fn median(sorted: &[i64]) -> Option<i64> {
    let n = sorted.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(sorted[n / 2]),
        _ => Some((sorted[n / 2 - 1] + sorted[n / 2]).div_euclid(2)),
    }
}

/// The `p`-th percentile of sorted values by nearest rank: the smallest value with at least
/// `p` % of the values at or below it.
pub fn percentile(sorted: &[i64], p: u32) -> Option<i64> {
    if sorted.is_empty() {
        return None;
    }
    let n = sorted.len() as u64;
    let rank = (p as u64 * n).div_ceil(100).max(1);
    Some(sorted[(rank.min(n) - 1) as usize])
}

/// `num / den` in per mille, rounded half up (None when `den` is 0): seat occupancy.
pub fn per_mille(num: i64, den: i64) -> Option<i64> {
    (den > 0).then(|| (num * 1000 + den / 2) / den)
}

/// Hands per hour in tenths, rounded half up (None without open time).
pub fn per_hour_tenths(count: i64, secs: i64) -> Option<i64> {
    (secs > 0).then(|| (count * 36_000 + secs / 2) / secs)
}

// ---- figures -------------------------------------------------------------------------------

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
    fn finish(&mut self) -> Result<(), money::Overflow> {
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

/// What the report covers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Filter {
    pub game: Option<i64>,
    /// A table's id.
    pub table: Option<i64>,
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
    shifts_sum: Figures,
}

impl Report {
    /// The shifts added up (the total line under the shifts).
    pub fn shifts_total(&self) -> Figures {
        self.shifts_sum.clone()
    }

    /// The shifts added up, money checked: done once by [`build`].
    fn add_shifts(shifts: &[ShiftLine]) -> Result<Figures, money::Overflow> {
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

/// What [`build`] needs to know of the room.
pub struct Setting<'a> {
    pub tz: Tz,
    pub timezone: &'a str,
    pub currency: &'a str,
    /// The gaming day's cut-over (`CARDROOM_GAMING_DAY_ENDS`).
    pub day_start: NaiveTime,
}

fn secs(t: NaiveDateTime) -> i64 {
    t.and_utc().timestamp()
}

/// Checks a filter: an unknown game or table is a 422 naming it.
pub fn check_filter(conn: &mut DbConn, f: &Filter) -> AppResult<()> {
    if let Some(g) = f.game {
        if games::table.find(g).count().get_result::<i64>(conn)? == 0 {
            return Err(refused(
                "game",
                Problem::from(ReportRefusal::Game {
                    value: g.to_string(),
                }),
            ));
        }
    }
    if let Some(t) = f.table {
        if card_tables::table.find(t).count().get_result::<i64>(conn)? == 0 {
            return Err(refused(
                "table",
                Problem::from(ReportRefusal::Table {
                    value: t.to_string(),
                }),
            ));
        }
    }
    Ok(())
}

/// The figures of one row, per bucket of the period.
struct Acc {
    total: Figures,
    tables: HashMap<i64, Figures>,
    games: HashMap<i64, Figures>,
    days: Vec<Figures>,
    shifts: HashMap<i64, Figures>,
    hours: [HourLine; 24],
}

/// Where an event at a table falls: its gaming day, its dealer shift, its local hour.
struct Buckets<'a> {
    days: &'a [i64],
    hours: &'a [i64],
    hour_of: &'a [u32],
    /// Per table, its shifts `(start, end, id)` in order.
    shifts: &'a HashMap<i64, Vec<(i64, i64, i64)>>,
    /// Per table, every instant its shift can change (its shifts' starts and ends), sorted.
    cuts: HashMap<i64, Vec<i64>>,
}

/// A hands group: table, game, gaming day (index), shift, hour of the clock.
type HandKey = (i64, i64, Option<usize>, Option<i64>, Option<usize>);

impl<'a> Buckets<'a> {
    fn new(
        days: &'a [i64],
        hours: &'a [i64],
        hour_of: &'a [u32],
        shifts: &'a HashMap<i64, Vec<(i64, i64, i64)>>,
    ) -> Self {
        let cuts = shifts
            .iter()
            .map(|(table, v)| {
                let mut c: Vec<i64> = v.iter().flat_map(|s| [s.0, s.1]).collect();
                c.sort_unstable();
                c.dedup();
                (*table, c)
            })
            .collect();
        Buckets {
            days,
            hours,
            hour_of,
            shifts,
            cuts,
        }
    }

    /// The shift at `table` at `t`: the last to start at or before `t`, if not yet over.
    fn shift_of(&self, table: i64, t: i64) -> Option<i64> {
        let v = self.shifts.get(&table)?;
        let i = v.partition_point(|s| s.0 <= t);
        let s = v.get(i.checked_sub(1)?)?;
        (t < s.1).then_some(s.2)
    }

    /// The index of the hour bucket's hour of the clock (0–23).
    fn hour_at(&self, t: i64) -> Option<usize> {
        bucket(t, self.hours).map(|i| self.hour_of[i] as usize)
    }

    fn key(&self, table: i64, game: i64, t: i64) -> HandKey {
        (
            table,
            game,
            bucket(t, self.days),
            self.shift_of(table, t),
            self.hour_at(t),
        )
    }

    /// `[lo, hi)` around `t` with no cut inside: every instant in it has the day, shift and
    /// hour of `t` at `table` (they change only at a day's or an hour's bound, or where one
    /// of the table's shifts starts or ends).
    fn span(&self, table: i64, t: i64) -> (i64, i64) {
        let (mut lo, mut hi) = (i64::MIN, i64::MAX);
        let mut around = |v: &[i64]| {
            let i = v.partition_point(|c| *c <= t);
            if let Some(c) = i.checked_sub(1).and_then(|i| v.get(i)) {
                lo = lo.max(*c);
            }
            if let Some(c) = v.get(i) {
                hi = hi.min(*c);
            }
        };
        around(self.days);
        around(self.hours);
        if let Some(v) = self.cuts.get(&table) {
            around(v);
        }
        (lo, hi)
    }
}

/// The hands counted and their rake added per [`HandKey`] (money checked).
///
/// A month is ~650k hands, and looking up five buckets and hashing a key for each was most
/// of the report's own work. Instead each table keeps its current *run*: the hands of one
/// game since the table's last cut (a day's or an hour's bound, a shift's start or end —
/// [`Buckets::span`]), which all share one key; a run is added to its group when the
/// table's next hand falls outside it. Rows come in time order (the index), so a table's
/// hands make ~one run per hour: a comparison per hand. Any order gives the same groups
/// (a run is only ever hands of one key); the test `hands_grouped_by_runs_as_one_by_one`
/// compares it with the hand-by-hand way.
fn group_hands(
    hands: Vec<rows::Hand>,
    b: &Buckets,
    game_of: &impl Fn(i64, Option<i64>) -> i64,
    keep: &impl Fn(i64, i64) -> bool,
) -> Result<HashMap<HandKey, (i64, i64)>, money::Overflow> {
    struct Run {
        lo: i64,
        hi: i64,
        key: HandKey,
        count: i64,
        rake: i64,
    }
    fn flush(groups: &mut HashMap<HandKey, (i64, i64)>, r: &Run) -> Result<(), money::Overflow> {
        let g = groups.entry(r.key).or_default();
        g.0 += r.count;
        money::add_to(&mut g.1, r.rake)
    }
    let mut runs: HashMap<i64, Run> = HashMap::new();
    let mut groups: HashMap<HandKey, (i64, i64)> = HashMap::new();
    for (table, own_game, t, rake) in hands {
        let game = game_of(table, own_game);
        if !keep(table, game) {
            continue;
        }
        let rake = rake.unwrap_or(0);
        let start = || {
            let (lo, hi) = b.span(table, t);
            Run {
                lo,
                hi,
                key: b.key(table, game, t),
                count: 1,
                rake,
            }
        };
        match runs.get_mut(&table) {
            Some(r) if r.key.1 == game && r.lo <= t && t < r.hi => {
                r.count += 1;
                money::add_to(&mut r.rake, rake)?;
            }
            Some(r) => {
                flush(&mut groups, r)?;
                *r = start();
            }
            None => {
                runs.insert(table, start());
            }
        }
    }
    for r in runs.values() {
        flush(&mut groups, r)?;
    }
    Ok(groups)
}

/// Builds the report of `period` as of `now`.
pub fn build(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    room: &Setting,
    period: Period,
    filter: Filter,
) -> AppResult<Report> {
    check_filter(conn, &filter)?;
    let tz = room.tz;
    let (from_t, to_t) = period.bounds(tz, room.day_start);
    let until_t = to_t.min(now).max(from_t);
    let (from, to, until) = (from_t.timestamp(), to_t.timestamp(), until_t.timestamp());
    let (nf, nt, nu) = (from_t.naive_utc(), to_t.naive_utc(), until_t.naive_utc());
    let dates = period.days();
    let mut day_bounds_v: Vec<i64> = dates
        .iter()
        .map(|d| day_bounds(tz, *d, room.day_start).0.timestamp())
        .collect();
    day_bounds_v.push(to);
    let (hour_bounds, hour_of) = hour_buckets(tz, from, to);

    // The room's tables and games.
    let table_rows: Vec<(i64, i32, i32, Option<i64>)> = card_tables::table
        .select((
            card_tables::id,
            card_tables::number,
            card_tables::seats,
            card_tables::game_id,
        ))
        .load(conn)?;
    let tables_by_id: HashMap<i64, (i32, i32, Option<i64>)> = table_rows
        .iter()
        .map(|(id, n, s, g)| (*id, (*n, *s, *g)))
        .collect();
    let game_names: HashMap<i64, String> = games::table
        .select((games::id, games::name))
        .load::<(i64, String)>(conn)?
        .into_iter()
        .collect();
    let game_of = |table: i64, own: Option<i64>| {
        own.or_else(|| tables_by_id.get(&table).and_then(|t| t.2))
            .unwrap_or(0)
    };
    let keep = |table: i64, game: i64| {
        filter.table.is_none_or(|t| t == table) && filter.game.is_none_or(|g| g == game)
    };

    let mut acc = Acc {
        total: Figures::default(),
        tables: HashMap::new(),
        games: HashMap::new(),
        days: vec![Figures::default(); dates.len()],
        shifts: HashMap::new(),
        hours: std::array::from_fn(|h| HourLine {
            hour: h as u32,
            ..Default::default()
        }),
    };

    // Dealer shifts overlapping the period, per table in order (to find the shift of a time).
    let shift_rows: Vec<(i64, i64, i64, NaiveDateTime, Option<NaiveDateTime>)> =
        dealer_shifts::table
            .filter(dealer_shifts::started_at.lt(nt))
            .filter(
                dealer_shifts::ended_at
                    .is_null()
                    .or(dealer_shifts::ended_at.gt(nf)),
            )
            .select((
                dealer_shifts::id,
                dealer_shifts::table_id,
                dealer_shifts::dealer_id,
                dealer_shifts::started_at,
                dealer_shifts::ended_at,
            ))
            .load(conn)?;
    let shift_rows: Vec<_> = shift_rows
        .into_iter()
        .filter(|s| filter.table.is_none_or(|t| t == s.1))
        .collect();
    let mut shifts_at: HashMap<i64, Vec<(i64, i64, i64)>> = HashMap::new();
    for (id, table, _, start, end) in &shift_rows {
        shifts_at.entry(*table).or_default().push((
            secs(*start),
            end.map(secs).unwrap_or(until.max(secs(*start))),
            *id,
        ));
    }
    for v in shifts_at.values_mut() {
        v.sort_unstable();
    }
    let clock = Buckets::new(&day_bounds_v, &hour_bounds, &hour_of, &shifts_at);
    let shift_of = |table: i64, t: i64| clock.shift_of(table, t);

    // Adds to every row of a table, a game, a gaming day (its index) and a shift.
    macro_rules! add_in {
        ($table:expr, $game:expr, $day:expr, $shift:expr, |$f:ident| $body:expr) => {{
            let (table, game, day): (i64, i64, Option<usize>) = ($table, $game, $day);
            {
                let $f = &mut acc.total;
                $body;
            }
            {
                let $f = acc.tables.entry(table).or_default();
                $body;
            }
            {
                let $f = acc.games.entry(game).or_default();
                $body;
            }
            if let Some(d) = day {
                let $f = &mut acc.days[d];
                $body;
            }
            if let Some(s) = $shift {
                let $f = acc.shifts.entry(s).or_default();
                $body;
            }
        }};
    }
    // Adds to every row an event at `t` belongs to.
    macro_rules! add {
        ($table:expr, $game:expr, $t:expr, $shift:expr, |$f:ident| $body:expr) => {{
            let t: i64 = $t;
            add_in!($table, $game, bucket(t, &day_bounds_v), $shift, |$f| $body)
        }};
    }
    let hour_at = |t: i64| clock.hour_at(t);

    // Cagnotte sessions and their dues (PT-2007 7b).
    for (table, game, t) in rows::sessions(conn, nf, nt)? {
        if !keep(table, game) {
            continue;
        }
        add!(table, game, t, shift_of(table, t), |f| f.sessions += 1);
    }
    for (table, game, amount, exempt, collected, t) in rows::dues(conn, nf, nt)? {
        if !keep(table, game) {
            continue;
        }
        let got = if exempt { 0 } else { collected.unwrap_or(0) };
        add!(table, game, t, shift_of(table, t), |f| {
            f.dues += 1;
            money::add_to(&mut f.due, amount)?;
            money::add_to(&mut f.collected, got)?;
            if exempt {
                money::add_to(&mut f.exempt, amount)?;
                f.exempt_count += 1;
            }
        });
        if let Some(h) = hour_at(t) {
            money::add_to(&mut acc.hours[h].cagnotte, got)?;
        }
    }

    // Hands and their rake (PT-2007 7a): ~650k a month, counted per (table, game, day,
    // shift, hour) by runs (see [`group_hands`]), then each group added to its rows.
    let hand_groups = group_hands(rows::hands(conn, nf, nt)?, &clock, &game_of, &keep)?;
    for ((table, game, day, shift, hour), (count, rake)) in hand_groups {
        add_in!(table, game, day, shift, |f| {
            f.hands += count;
            money::add_to(&mut f.rake, rake)?;
        });
        if let Some(h) = hour {
            money::add_to(&mut acc.hours[h].cagnotte, rake)?;
        }
    }

    // Drop boxes (the quick per-hand mode) and tips: by their shift, else by their time.
    let known_shifts: std::collections::HashSet<i64> = shift_rows.iter().map(|r| r.0).collect();
    for (table, own_game, shift, amount, t) in rows::drop_boxes(conn, nf, nt)? {
        let game = game_of(table, own_game);
        if !keep(table, game) {
            continue;
        }
        let shift = shift
            .filter(|s| known_shifts.contains(s))
            .or_else(|| shift_of(table, t));
        add!(table, game, t, shift, |f| money::add_to(
            &mut f.drop_box,
            amount
        )?);
        if let Some(h) = hour_at(t) {
            money::add_to(&mut acc.hours[h].cagnotte, amount)?;
        }
    }
    for (table, own_game, shift, amount, t) in rows::tips(conn, nf, nt)? {
        let game = game_of(table, own_game);
        if !keep(table, game) {
            continue;
        }
        let shift = shift
            .filter(|s| known_shifts.contains(s))
            .or_else(|| shift_of(table, t));
        add!(table, game, t, shift, |f| money::add_to(
            &mut f.tips,
            amount
        )?);
    }

    // Commissions (MO-13 11).
    for (table, own_game, amount, t) in rows::commissions(conn, nf, nt)? {
        let game = game_of(table, own_game);
        if !keep(table, game) {
            continue;
        }
        add!(table, game, t, shift_of(table, t), |f| money::add_to(
            &mut f.commission,
            amount
        )?);
        if let Some(h) = hour_at(t) {
            money::add_to(&mut acc.hours[h].cagnotte, amount)?;
        }
    }

    // Special hands (BSOP 115, 116) and the fixed contributions put in them.
    let mut put: HashMap<i64, i64> = HashMap::new();
    for (special, amount) in rows::special_contributions(conn, nf, nt)? {
        money::add_to(put.entry(special).or_default(), amount)?;
    }
    for (id, table, own_game, kind, t) in rows::special_hands(conn, nf, nt)? {
        let game = game_of(table, own_game);
        if !keep(table, game) {
            continue;
        }
        let amount = put.get(&id).copied().unwrap_or(0);
        let macaca = kind == crate::domain::special_buttons::SpecialButton::Macaca.as_str();
        add!(table, game, t, shift_of(table, t), |f| {
            if macaca {
                f.macaca_hands += 1;
                money::add_to(&mut f.macaca_contributions, amount)?;
            } else {
                f.cucurucho_hands += 1;
                money::add_to(&mut f.cucurucho_contributions, amount)?;
            }
        });
    }

    // Play: seatings clipped to the period (open ones up to now); a table is open while
    // someone sits at it.
    let mut spans: HashMap<(i64, i64), Vec<(i64, i64)>> = HashMap::new();
    for (table, own_game, sat, left) in rows::seatings(conn, nf, nu)? {
        let game = game_of(table, own_game);
        if !keep(table, game) {
            continue;
        }
        let a = sat.max(from);
        let b = left.unwrap_or(until).min(until);
        if a >= b {
            continue;
        }
        let d = b - a;
        acc.total.played_secs += d;
        acc.tables.entry(table).or_default().played_secs += d;
        acc.games.entry(game).or_default().played_secs += d;
        spread(a, b, &day_bounds_v, |i, s| acc.days[i].played_secs += s);
        spread(a, b, &hour_bounds, |i, s| {
            acc.hours[hour_of[i] as usize].played_secs += s
        });
        spans.entry((table, game)).or_default().push((a, b));
    }
    // PT-2007 22: each table's open time split at its limit changes.
    let timelines = crate::services::limits::timelines(conn)?;
    let mut per_limit: HashMap<(i64, crate::domain::limits::Limits), (Vec<i32>, i64)> =
        HashMap::new();
    for ((table, game), v) in spans {
        let seats = tables_by_id.get(&table).map(|t| t.1 as i64).unwrap_or(0);
        let open = union(v);
        if let Some(tl) = timelines.get(&table) {
            let number = tables_by_id.get(&table).map(|t| t.0).unwrap_or(0);
            for (l, secs) in tl.split(&open) {
                let e = per_limit.entry((game, l)).or_default();
                if !e.0.contains(&number) {
                    e.0.push(number);
                }
                e.1 += secs;
            }
        }
        for (a, b) in open {
            let d = b - a;
            for f in [&mut acc.total, acc.tables.entry(table).or_default()] {
                f.open_secs += d;
                f.capacity_secs += seats * d;
            }
            let g = acc.games.entry(game).or_default();
            g.open_secs += d;
            g.capacity_secs += seats * d;
            spread(a, b, &day_bounds_v, |i, s| {
                acc.days[i].open_secs += s;
                acc.days[i].capacity_secs += seats * s;
            });
            spread(a, b, &hour_bounds, |i, s| {
                acc.hours[hour_of[i] as usize].capacity_secs += seats * s
            });
        }
    }

    // No-shows: expired seat calls (the game of the list the call came from).
    let mut no_shows: BTreeMap<i64, i64> = BTreeMap::new();
    for (table, own_game, t) in rows::no_shows(conn, nf, nt)? {
        let game = game_of(table, own_game);
        if !keep(table, game) {
            continue;
        }
        add!(table, game, t, shift_of(table, t), |f| f.no_shows += 1);
        *no_shows.entry(game).or_default() += 1;
    }

    // Shifts: their own time (clipped to the period) is their open time.
    let staff_names: HashMap<i64, String> = staff::table
        .select((staff::id, staff::display_name))
        .load::<(i64, String)>(conn)?
        .into_iter()
        .collect();
    let mut shifts: Vec<ShiftLine> = Vec::new();
    for (id, table, dealer, start, end) in &shift_rows {
        let mut f = acc.shifts.remove(id).unwrap_or_default();
        if filter.game.is_some() && f == Figures::default() {
            continue;
        }
        f.open_secs = clip(secs(*start), end.map(secs).unwrap_or(until), from, until);
        f.finish()?;
        shifts.push(ShiftLine {
            id: *id,
            table_id: *table,
            table: tables_by_id.get(table).map(|t| t.0).unwrap_or(0),
            dealer_id: *dealer,
            dealer: staff_names
                .get(dealer)
                .cloned()
                .unwrap_or_else(|| format!("#{dealer}")),
            started_at: start.and_utc(),
            ended_at: end.map(|e| e.and_utc()),
            f,
        });
    }
    shifts.sort_by_key(|s| (s.started_at, s.table));

    // The lists (per game, then all together).
    let games_seen: std::collections::HashSet<i64> = acc.games.keys().copied().collect();
    let keep_list = |game: i64| {
        filter.game.is_none_or(|g| g == game)
            && (filter.table.is_none() || games_seen.contains(&game))
    };
    let mut lists: BTreeMap<i64, ListAcc> = BTreeMap::new();
    let mut all = ListAcc::default();
    for (game, j, e, seated) in rows::entries(conn, nf, nu)? {
        if !keep_list(game) {
            continue;
        }
        for l in [lists.entry(game).or_default(), &mut all] {
            if j >= from {
                l.joined += 1;
            }
            if let (Some(e), Some(true)) = (e, seated) {
                if e >= from && e < to {
                    l.waits.push(e - j);
                }
            }
            let a = j.max(from);
            let b = e.unwrap_or(until).min(until);
            if a < b {
                l.steps.push((a, 1));
                l.steps.push((b, -1));
                l.time += b - a;
            }
        }
    }
    for (game, n) in &no_shows {
        if keep_list(*game) {
            lists.entry(*game).or_default().no_shows += n;
            all.no_shows += n;
        }
    }
    let span = until - from;
    let mut waits: Vec<WaitLine> = lists
        .into_iter()
        .map(|(g, l)| {
            l.finish(
                g,
                game_names.get(&g).cloned().unwrap_or_else(|| "—".into()),
                span,
            )
        })
        .collect();
    waits.sort_by(|a, b| a.game.cmp(&b.game));
    waits.push(all.finish(0, String::new(), span));

    // Rows in order.
    let mut tables: Vec<Line> = acc
        .tables
        .into_iter()
        .map(|(id, mut f)| {
            f.finish()?;
            Ok(Line {
                id,
                label: tables_by_id
                    .get(&id)
                    .map(|t| t.0.to_string())
                    .unwrap_or_else(|| format!("#{id}")),
                f,
            })
        })
        .collect::<Result<_, money::Overflow>>()?;
    tables.sort_by_key(|l| {
        (
            tables_by_id.get(&l.id).map(|t| t.0).unwrap_or(i32::MAX),
            l.id,
        )
    });
    let mut games_v: Vec<Line> = acc
        .games
        .into_iter()
        .map(|(id, mut f)| {
            f.finish()?;
            Ok(Line {
                id,
                label: game_names.get(&id).cloned().unwrap_or_else(|| "—".into()),
                f,
            })
        })
        .collect::<Result<_, money::Overflow>>()?;
    games_v.sort_by(|a, b| a.label.cmp(&b.label).then(a.id.cmp(&b.id)));
    let days = dates
        .iter()
        .zip(acc.days)
        .map(|(d, mut f)| {
            f.finish()?;
            Ok(DayLine { date: *d, f })
        })
        .collect::<Result<_, money::Overflow>>()?;
    let start_hour = room.day_start.hour() as usize;
    let hours = (0..24)
        .map(|i| {
            let mut h = acc.hours[(start_hour + i) % 24].clone();
            h.occupancy_permille = per_mille(h.played_secs, h.capacity_secs);
            h
        })
        .collect();
    let mut limits: Vec<LimitLine> = per_limit
        .into_iter()
        .map(|((game_id, l), (mut tables, open_secs))| {
            tables.sort_unstable();
            LimitLine {
                game_id,
                game: game_names
                    .get(&game_id)
                    .cloned()
                    .unwrap_or_else(|| "—".into()),
                small_blind: l.small_blind,
                big_blind: l.big_blind,
                buy_in_min: l.buy_in_min,
                buy_in_max: l.buy_in_max,
                tables,
                open_secs,
            }
        })
        .collect();
    limits.sort_by(|a, b| {
        (
            &a.game,
            a.game_id,
            a.big_blind,
            a.small_blind,
            a.buy_in_min,
            a.buy_in_max,
        )
            .cmp(&(
                &b.game,
                b.game_id,
                b.big_blind,
                b.small_blind,
                b.buy_in_min,
                b.buy_in_max,
            ))
    });
    let mut totals = acc.total;
    totals.finish()?;
    let shifts_sum = Report::add_shifts(&shifts)?;
    Ok(Report {
        kind: if period.is_month() { "month" } else { "day" },
        period: period.key(),
        from: from_t,
        to: to_t,
        until: until_t,
        timezone: room.timezone.to_string(),
        currency: room.currency.to_string(),
        game: filter.game,
        table: filter.table,
        totals,
        tables,
        games: games_v,
        days,
        shifts,
        waits,
        hours,
        limits,
        shifts_sum,
    })
}

/// A list's entries over the period.
#[derive(Default)]
struct ListAcc {
    joined: i64,
    waits: Vec<i64>,
    /// +1 when an entry joins (or the period starts with it), −1 when it leaves.
    steps: Vec<(i64, i64)>,
    /// Entry-seconds on the list.
    time: i64,
    no_shows: i64,
}

impl ListAcc {
    fn finish(mut self, game_id: i64, game: String, span: i64) -> WaitLine {
        self.waits.sort_unstable();
        // Leaving before joining at the same instant: a seat handed on is not a longer list.
        self.steps.sort_unstable();
        let (mut n, mut max) = (0i64, 0i64);
        for (_, d) in &self.steps {
            n += d;
            max = max.max(n);
        }
        WaitLine {
            game_id,
            game,
            joined: self.joined,
            seated: self.waits.len() as i64,
            median_secs: median(&self.waits),
            p90_secs: percentile(&self.waits, 90),
            list_max: max,
            list_avg_tenths: if span > 0 {
                (self.time * 10 + span / 2) / span
            } else {
                0
            },
            no_shows: self.no_shows,
        }
    }
}

// ---- a player's hours (comps) -------------------------------------------------------------

/// One player's time at the tables in a month, per gaming day.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct PlayerHours {
    pub player_id: i64,
    pub alias: String,
    pub full_name: String,
    pub total_secs: i64,
    /// Each gaming day of the month the player sat.
    pub days: Vec<PlayerDay>,
}

/// A player's time at the tables in one gaming day.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct PlayerDay {
    pub date: NaiveDate,
    pub secs: i64,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct PlayersMonth {
    pub month: String,
    pub from: DateTime<Utc>,
    pub to: DateTime<Utc>,
    pub player: Option<i64>,
    pub players: Vec<PlayerHours>,
    pub total_secs: i64,
}

/// Every player's hours in the month (or one player's), from the seatings clipped to each
/// gaming day (open seatings up to now); players with no time are left out. Ordered by
/// hours, most first.
pub fn player_hours(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    tz: Tz,
    day_start: NaiveTime,
    month: NaiveDate,
    player: Option<i64>,
) -> AppResult<PlayersMonth> {
    let period = Period::Month(month.with_day(1).unwrap_or(month));
    if let Some(p) = player {
        if players::table.find(p).count().get_result::<i64>(conn)? == 0 {
            return Err(refused(
                "player",
                Problem::from(ReportRefusal::Player {
                    value: p.to_string(),
                }),
            ));
        }
    }
    let (from_t, to_t) = period.bounds(tz, day_start);
    let until_t = to_t.min(now).max(from_t);
    let (from, until) = (from_t.timestamp(), until_t.timestamp());
    let dates = period.days();
    let mut bounds: Vec<i64> = dates
        .iter()
        .map(|d| day_bounds(tz, *d, day_start).0.timestamp())
        .collect();
    bounds.push(to_t.timestamp());
    let mut q = seatings::table
        .filter(seatings::sat_at.lt(until_t.naive_utc()))
        .filter(
            seatings::left_at
                .is_null()
                .or(seatings::left_at.gt(from_t.naive_utc())),
        )
        .select((seatings::player_id, seatings::sat_at, seatings::left_at))
        .into_boxed();
    if let Some(p) = player {
        q = q.filter(seatings::player_id.eq(p));
    }
    let sits: Vec<(i64, NaiveDateTime, Option<NaiveDateTime>)> = q.load(conn)?;
    let mut per: BTreeMap<i64, Vec<i64>> = BTreeMap::new();
    for (p, sat, left) in sits {
        let a = secs(sat).max(from);
        let b = left.map(secs).unwrap_or(until).min(until);
        let v = per.entry(p).or_insert_with(|| vec![0; dates.len()]);
        spread(a, b, &bounds, |i, s| v[i] += s);
    }
    let names: HashMap<i64, (String, String)> = if per.is_empty() {
        HashMap::new()
    } else if let Some(p) = player {
        players::table
            .find(p)
            .select((players::id, players::alias, players::full_name))
            .load::<(i64, String, String)>(conn)?
            .into_iter()
            .map(|(i, a, n)| (i, (a, n)))
            .collect()
    } else {
        players::table
            .select((players::id, players::alias, players::full_name))
            .load::<(i64, String, String)>(conn)?
            .into_iter()
            .map(|(i, a, n)| (i, (a, n)))
            .collect()
    };
    let mut out: Vec<PlayerHours> = per
        .into_iter()
        .filter(|(_, v)| v.iter().any(|s| *s > 0))
        .map(|(id, v)| {
            let (alias, full_name) = names.get(&id).cloned().unwrap_or_default();
            PlayerHours {
                player_id: id,
                alias,
                full_name,
                total_secs: v.iter().sum(),
                days: dates
                    .iter()
                    .zip(v)
                    .filter(|(_, s)| *s > 0)
                    .map(|(d, s)| PlayerDay { date: *d, secs: s })
                    .collect(),
            }
        })
        .collect();
    out.sort_by(|a, b| {
        b.total_secs
            .cmp(&a.total_secs)
            .then(a.player_id.cmp(&b.player_id))
    });
    Ok(PlayersMonth {
        month: period.key(),
        from: from_t,
        to: to_t,
        player,
        total_secs: out.iter().map(|p| p.total_secs).sum(),
        players: out,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }
    fn d(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }
    fn six() -> NaiveTime {
        NaiveTime::from_hms_opt(6, 0, 0).unwrap()
    }
    const LISBON: Tz = chrono_tz::Europe::Lisbon;

    #[test]
    fn a_gaming_day_runs_from_cut_over_to_cut_over_in_the_room_zone() {
        // November: Lisbon is on UTC.
        assert_eq!(
            day_bounds(LISBON, d("2026-11-22"), six()),
            (t("2026-11-22T06:00:00Z"), t("2026-11-23T06:00:00Z"))
        );
        // July: UTC+1.
        assert_eq!(
            day_bounds(LISBON, d("2026-07-10"), six()),
            (t("2026-07-10T05:00:00Z"), t("2026-07-11T05:00:00Z"))
        );
        // São Paulo, UTC−3.
        let sp: Tz = chrono_tz::America::Sao_Paulo;
        assert_eq!(
            day_bounds(sp, d("2026-11-20"), six()),
            (t("2026-11-20T09:00:00Z"), t("2026-11-21T09:00:00Z"))
        );
        // 03:00 local belongs to the day before; 06:00 starts the day.
        assert_eq!(
            gaming_date(t("2026-11-23T03:00:00Z"), LISBON, six()),
            d("2026-11-22")
        );
        assert_eq!(
            gaming_date(t("2026-11-23T06:00:00Z"), LISBON, six()),
            d("2026-11-23")
        );
        // Midnight cut-over: plain calendar days.
        let midnight = NaiveTime::from_hms_opt(0, 0, 0).unwrap();
        assert_eq!(
            day_bounds(LISBON, d("2026-11-22"), midnight),
            (t("2026-11-22T00:00:00Z"), t("2026-11-23T00:00:00Z"))
        );
    }

    #[test]
    fn the_days_when_lisbon_changes_clocks_last_23_and_25_hours() {
        // 29 March 2026, 01:00 UTC: clocks go from 01:00 to 02:00 (WET → WEST).
        let (a, b) = day_bounds(LISBON, d("2026-03-28"), six());
        assert_eq!(
            (a, b),
            (t("2026-03-28T06:00:00Z"), t("2026-03-29T05:00:00Z"))
        );
        assert_eq!((b - a).num_hours(), 23);
        // 25 October 2026, 01:00 UTC: clocks go back from 02:00 to 01:00.
        let (a, b) = day_bounds(LISBON, d("2026-10-24"), six());
        assert_eq!(
            (a, b),
            (t("2026-10-24T05:00:00Z"), t("2026-10-25T06:00:00Z"))
        );
        assert_eq!((b - a).num_hours(), 25);
        // The local hours of those days: 23 and 25 buckets; 01:00 is skipped, then repeated.
        let (bounds, hours) = hour_buckets(
            LISBON,
            t("2026-03-28T06:00:00Z").timestamp(),
            t("2026-03-29T05:00:00Z").timestamp(),
        );
        assert_eq!(hours.len(), 23);
        assert_eq!(bounds.len(), 24);
        assert!(!hours.contains(&1), "{hours:?}");
        let (_, hours) = hour_buckets(
            LISBON,
            t("2026-10-24T05:00:00Z").timestamp(),
            t("2026-10-25T06:00:00Z").timestamp(),
        );
        assert_eq!(hours.len(), 25);
        assert_eq!(hours.iter().filter(|h| **h == 1).count(), 2, "{hours:?}");
        // A cut-over inside the skipped hour (01:30) moves to the first instant after it.
        let half_one = NaiveTime::from_hms_opt(1, 30, 0).unwrap();
        assert_eq!(
            local_instant(LISBON, d("2026-03-29"), half_one),
            t("2026-03-29T01:00:00Z")
        );
        // …and one in the repeated hour takes the first of the two.
        assert_eq!(
            local_instant(LISBON, d("2026-10-25"), half_one),
            t("2026-10-25T00:30:00Z")
        );
        // The month of March: from 1 March 06:00 WET to 1 April 06:00 WEST.
        let (a, b) = Period::Month(d("2026-03-01")).bounds(LISBON, six());
        assert_eq!(
            (a, b),
            (t("2026-03-01T06:00:00Z"), t("2026-04-01T05:00:00Z"))
        );
        assert_eq!(Period::Month(d("2026-03-01")).days().len(), 31);
    }

    #[test]
    fn periods_are_parsed_strictly() {
        let today = d("2026-11-22");
        assert_eq!(
            Period::parse(None, None, today).unwrap(),
            Period::Day(today)
        );
        assert_eq!(
            Period::parse(Some("2026-02-28"), None, today).unwrap(),
            Period::Day(d("2026-02-28"))
        );
        assert_eq!(
            Period::parse(Some(""), Some("2026-02"), today).unwrap(),
            Period::Month(d("2026-02-01"))
        );
        for bad in [
            "2026-02-30",
            "22/11/2026",
            "2026-1-5",
            "x",
            "1999-01-01",
            "2026-11-22T00:00",
        ] {
            let e = Period::parse(Some(bad), None, today).unwrap_err();
            assert!(
                matches!(&e, AppError::Validation(f) if f[0].key == "report-err-day" && f[0].field == "day"),
                "{bad}: {e:?}"
            );
        }
        for bad in ["2026-13", "2026-1", "2026-11-01", "nov"] {
            let e = Period::parse(None, Some(bad), today).unwrap_err();
            assert!(
                matches!(&e, AppError::Validation(f) if f[0].key == "report-err-month" && f[0].field == "month"),
                "{bad}: {e:?}"
            );
        }
        assert!(Period::parse(Some("2026-11-22"), Some("2026-11"), today).is_err());
        assert_eq!(
            Period::Month(d("2026-12-01")).next(),
            Period::Month(d("2027-01-01"))
        );
        assert_eq!(
            Period::Month(d("2026-01-01")).prev(),
            Period::Month(d("2025-12-01"))
        );
        assert_eq!(
            Period::Day(d("2026-03-01")).prev(),
            Period::Day(d("2026-02-28"))
        );
        assert_eq!(Period::Month(d("2026-02-01")).days().len(), 28);
    }

    #[test]
    fn intervals_are_clipped_to_the_period_and_spread_over_buckets() {
        assert_eq!(clip(0, 100, 50, 200), 50);
        assert_eq!(clip(0, 100, 100, 200), 0);
        assert_eq!(clip(150, 300, 100, 200), 50);
        assert_eq!(clip(120, 130, 100, 200), 10);
        assert_eq!(clip(300, 400, 100, 200), 0);
        let bounds = [100, 200, 300, 400];
        let mut got = Vec::new();
        spread(50, 350, &bounds, |i, s| got.push((i, s)));
        assert_eq!(got, vec![(0, 100), (1, 100), (2, 50)]);
        got.clear();
        spread(250, 260, &bounds, |i, s| got.push((i, s)));
        assert_eq!(got, vec![(1, 10)]);
        got.clear();
        spread(400, 500, &bounds, |i, s| got.push((i, s)));
        assert!(got.is_empty());
        assert_eq!(bucket(99, &bounds), None);
        assert_eq!(bucket(100, &bounds), Some(0));
        assert_eq!(bucket(399, &bounds), Some(2));
        assert_eq!(bucket(400, &bounds), None);
        assert_eq!(
            union(vec![(5, 10), (0, 3), (2, 4), (10, 12), (20, 20)]),
            vec![(0, 4), (5, 12)]
        );
    }

    #[test]
    fn median_and_90th_percentile() {
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[7]), Some(7));
        assert_eq!(median(&[1, 2, 3]), Some(2));
        assert_eq!(median(&[60, 120, 180, 300]), Some(150));
        assert_eq!(median(&[1, 2]), Some(1));
        let v: Vec<i64> = (1..=10).collect();
        assert_eq!(percentile(&v, 90), Some(9));
        assert_eq!(percentile(&v, 100), Some(10));
        let v: Vec<i64> = (1..=11).collect();
        assert_eq!(percentile(&v, 90), Some(10));
        assert_eq!(percentile(&[42], 90), Some(42));
        assert_eq!(percentile(&[], 90), None);
    }

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

    /// The hand-by-hand way [`group_hands`] replaced: five buckets and a hash per hand.
    fn one_by_one(
        hands: &[rows::Hand],
        b: &Buckets,
        game_of: &impl Fn(i64, Option<i64>) -> i64,
        keep: &impl Fn(i64, i64) -> bool,
    ) -> HashMap<HandKey, (i64, i64)> {
        let mut groups: HashMap<HandKey, (i64, i64)> = HashMap::new();
        for &(table, own_game, t, rake) in hands {
            let game = game_of(table, own_game);
            if !keep(table, game) {
                continue;
            }
            let g = groups
                .entry((
                    table,
                    game,
                    bucket(t, b.days),
                    b.shift_of(table, t),
                    b.hour_at(t),
                ))
                .or_default();
            g.0 += 1;
            money::add_to(&mut g.1, rake.unwrap_or(0)).unwrap();
        }
        groups
    }

    #[test]
    fn hands_grouped_by_runs_as_one_by_one() {
        // xorshift64*: the same cases on every run.
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut rng = move |lo: i64, hi: i64| {
            seed ^= seed >> 12;
            seed ^= seed << 25;
            seed ^= seed >> 27;
            lo + (seed.wrapping_mul(0x2545_F491_4F6C_DD1D) % (hi - lo + 1) as u64) as i64
        };
        let hm = |h: u32, m: u32| NaiveTime::from_hms_opt(h, m, 0).unwrap();
        // Lisbon's October (clocks back on the 25th) and March (forward on the 29th);
        // Lord Howe's half-hour change in April with a 05:30 cut-over; Kolkata (+05:30).
        let cases = [
            (LISBON, d("2026-10-01"), hm(6, 0)),
            (LISBON, d("2026-03-01"), hm(6, 0)),
            (chrono_tz::Australia::Lord_Howe, d("2026-04-01"), hm(5, 30)),
            (chrono_tz::Asia::Kolkata, d("2026-11-01"), hm(0, 0)),
        ];
        for (tz, month, day_start) in cases {
            let period = Period::Month(month);
            let (from_t, to_t) = period.bounds(tz, day_start);
            let (from, to) = (from_t.timestamp(), to_t.timestamp());
            let until = to - 86_400 * 3;
            let mut days: Vec<i64> = period
                .days()
                .iter()
                .map(|d| day_bounds(tz, *d, day_start).0.timestamp())
                .collect();
            days.push(to);
            let (hours, hour_of) = hour_buckets(tz, from, to);
            // Tables 1–6 with shifts: back to back on the hour, at odd seconds, overlapping,
            // with gaps, one still going, some from before the month; table 7 has none.
            let mut shifts: HashMap<i64, Vec<(i64, i64, i64)>> = HashMap::new();
            let mut id = 0;
            for table in 1..=6i64 {
                let mut t = from - 7_200;
                while t < to {
                    id += 1;
                    let len = match table {
                        1 => 3_600,
                        2 => rng(600, 5_000),
                        _ => rng(60, 9_000),
                    };
                    let end = if rng(0, 200) == 0 {
                        until.max(t)
                    } else {
                        t + len
                    };
                    shifts.entry(table).or_default().push((t, end, id));
                    t += match table {
                        1 => 3_600,
                        3 => len - rng(0, 900),   // overlaps the next
                        4 => len + rng(0, 3_000), // gaps
                        _ => len,
                    };
                }
            }
            for v in shifts.values_mut() {
                v.sort_unstable();
            }
            let b = Buckets::new(&days, &hours, &hour_of, &shifts);
            // Hands in time order, a few past both ends; own game or none; rake or none.
            let mut hands: Vec<rows::Hand> = Vec::new();
            let mut t = from - 600;
            while t < to + 600 {
                let table = rng(1, 7);
                let game = (rng(0, 9) > 0).then(|| rng(1, 3));
                let rake = (rng(0, 4) > 0).then(|| rng(0, 700));
                hands.push((table, game, t, rake));
                t += rng(0, 40);
            }
            let table_game = |table: i64| (table % 3 != 0).then_some(table % 2 + 1);
            let game_of = |table: i64, own: Option<i64>| own.or(table_game(table)).unwrap_or(0);
            let mut shuffled = hands.clone();
            for i in (1..shuffled.len()).rev() {
                shuffled.swap(i, rng(0, i as i64) as usize);
            }
            for filter in [
                (None, None),
                (Some(2), None),
                (None, Some(1)),
                (Some(3), Some(0)),
            ] {
                let keep = |table: i64, game: i64| {
                    filter.0.is_none_or(|t| t == table) && filter.1.is_none_or(|g| g == game)
                };
                let want = one_by_one(&hands, &b, &game_of, &keep);
                assert!(want.len() > 10, "{tz} {filter:?}: {} groups", want.len());
                for v in [&hands, &shuffled] {
                    let got = group_hands(v.clone(), &b, &game_of, &keep).unwrap();
                    assert_eq!(got, want, "{tz} {month} {filter:?}");
                }
            }
        }
        // A group's rake that leaves i64 is the overflow error, as before.
        let (days, hours, hour_of) = (vec![0, 100], vec![0, 100], vec![6]);
        let none = HashMap::new();
        let b = Buckets::new(&days, &hours, &hour_of, &none);
        let big = vec![(1, Some(1), 5, Some(i64::MAX)), (1, Some(1), 6, Some(1))];
        assert!(group_hands(big, &b, &|_, g: Option<i64>| g.unwrap_or(0), &|_, _| true).is_err());
    }

    #[test]
    fn list_lengths_and_waits() {
        let mut l = ListAcc::default();
        // Three entries over [0, 100): [0, 50), [10, 60), [50, 100) → at most 2 at once
        // (the one leaving at 50 makes room for the one joining at 50).
        for (a, b) in [(0, 50), (10, 60), (50, 100)] {
            l.steps.push((a, 1));
            l.steps.push((b, -1));
            l.time += b - a;
        }
        l.waits = vec![600, 60, 180];
        let w = l.finish(1, "NL".into(), 100);
        assert_eq!(w.list_max, 2);
        assert_eq!(w.list_avg_tenths, 15);
        assert_eq!(
            (w.seated, w.median_secs, w.p90_secs),
            (3, Some(180), Some(600))
        );
    }
}
