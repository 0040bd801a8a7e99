//! Periods in the room's zone: one gaming day or a month of them, parsed strictly from the
//! query, and their bounds in UTC (a gaming day runs from cut-over to cut-over, local time).

use super::refused;
use crate::domain::refusal::ReportRefusal;
use crate::domain::Problem;
use crate::error::AppResult;
use chrono::{DateTime, Datelike, Duration, NaiveDate, NaiveTime, TimeZone, Timelike, Utc};
use chrono_tz::Tz;

/// One gaming day, or the gaming days of one month.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Period {
    Day(NaiveDate),
    /// The first day of the month.
    Month(NaiveDate),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::AppError;
    use crate::services::reports::hour_buckets;

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
}
