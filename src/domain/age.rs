//! Age on the room's local date.

use chrono::{DateTime, Datelike, NaiveDate, Utc};
use chrono_tz::Tz;

/// BSOP 1: only people aged 18 or over may play.
pub const MINIMUM_AGE: u32 = 18;
/// A date of birth more than this many years ago is refused as a typing error.
pub const MAXIMUM_AGE: u32 = 120;

/// The calendar date in the room at instant `now`: 23:30 in São Paulo is still the previous
/// day in UTC−3, and 00:30 in Macau (UTC+8) is the next day there while still the evening
/// before in UTC. Every date rule (age, ID expiry, the gaming day) uses this date.
pub fn room_date(now: DateTime<Utc>, tz: Tz) -> NaiveDate {
    now.with_timezone(&tz).date_naive()
}

/// Completed years between `dob` and `on`. A 29 February birthday is reached on 1 March in
/// non-leap years (the person has not yet lived through 29 February on the 28th).
pub fn age_on(dob: NaiveDate, on: NaiveDate) -> i32 {
    let mut years = on.year() - dob.year();
    if (on.month(), on.day()) < (dob.month(), dob.day()) {
        years -= 1;
    }
    years
}

/// Why a date of birth is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DobProblem {
    InFuture,
    TooOld,
    /// BSOP 1: under 18 on the room's local date; carries the date the person turns 18.
    Under18 {
        adult_on: NaiveDate,
    },
}

/// The first day on which a person born on `dob` is `years` old.
pub fn birthday_reached(dob: NaiveDate, years: i32) -> NaiveDate {
    let y = dob.year() + years;
    NaiveDate::from_ymd_opt(y, dob.month(), dob.day())
        // 29 February in a non-leap year: the age is reached on 1 March.
        .unwrap_or_else(|| NaiveDate::from_ymd_opt(y, 3, 1).expect("1 March exists"))
}

/// BSOP 1: checks a date of birth against the room's local date `today`.
pub fn check_dob(dob: NaiveDate, today: NaiveDate) -> Result<i32, DobProblem> {
    if dob > today {
        return Err(DobProblem::InFuture);
    }
    let age = age_on(dob, today);
    if age > MAXIMUM_AGE as i32 {
        return Err(DobProblem::TooOld);
    }
    if age < MINIMUM_AGE as i32 {
        return Err(DobProblem::Under18 {
            adult_on: birthday_reached(dob, MINIMUM_AGE as i32),
        });
    }
    Ok(age)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;
    use proptest::prelude::*;

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    #[test]
    fn bsop_1_eighteenth_birthday_is_allowed_day_before_is_not() {
        assert_eq!(check_dob(d(2008, 11, 21), d(2026, 11, 21)), Ok(18));
        assert_eq!(
            check_dob(d(2008, 11, 22), d(2026, 11, 21)),
            Err(DobProblem::Under18 {
                adult_on: d(2026, 11, 22)
            })
        );
    }

    #[test]
    fn bsop_1_leap_day_birthday_reaches_age_on_first_of_march() {
        let dob = d(2008, 2, 29);
        assert_eq!(age_on(dob, d(2026, 2, 28)), 17);
        assert_eq!(age_on(dob, d(2026, 3, 1)), 18);
        assert!(
            matches!(check_dob(dob, d(2026, 2, 28)), Err(DobProblem::Under18 { adult_on }) if adult_on == d(2026, 3, 1))
        );
        assert_eq!(check_dob(dob, d(2026, 3, 1)), Ok(18));
        // In a leap year the birthday itself exists.
        assert_eq!(age_on(d(2010, 2, 29 - 1), d(2028, 2, 28)), 18);
        assert_eq!(age_on(d(2010 - 2, 2, 29), d(2028, 2, 29)), 20);
    }

    #[test]
    fn future_and_implausible_dates_are_refused() {
        assert_eq!(
            check_dob(d(2026, 11, 22), d(2026, 11, 21)),
            Err(DobProblem::InFuture)
        );
        assert_eq!(
            check_dob(d(1905, 1, 1), d(2026, 11, 21)),
            Err(DobProblem::TooOld)
        );
        assert_eq!(check_dob(d(1906, 11, 21), d(2026, 11, 21)), Ok(120));
    }

    #[test]
    fn room_date_uses_the_rooms_zone_not_utc() {
        // 23:30 in São Paulo (UTC−3) on 20 Nov is already 02:30 UTC on 21 Nov.
        let sp: Tz = "America/Sao_Paulo".parse().unwrap();
        let now = Utc.with_ymd_and_hms(2026, 11, 21, 2, 30, 0).unwrap();
        assert_eq!(room_date(now, sp), d(2026, 11, 20));
        // Someone born 21 Nov 2008 is still 17 in the room, although it is the 21st in UTC.
        assert!(check_dob(d(2008, 11, 21), room_date(now, sp)).is_err());
        // 23:30 UTC on 20 Nov is already 07:30 on 21 Nov in Macau (UTC+8).
        let macau: Tz = "Asia/Macau".parse().unwrap();
        let now = Utc.with_ymd_and_hms(2026, 11, 20, 23, 30, 0).unwrap();
        assert_eq!(room_date(now, macau), d(2026, 11, 21));
        assert_eq!(check_dob(d(2008, 11, 21), room_date(now, macau)), Ok(18));
        // Lisbon in summer (UTC+1): 23:30 local on 20 Jun is 22:30 UTC the same day.
        let lisbon: Tz = "Europe/Lisbon".parse().unwrap();
        let now = Utc.with_ymd_and_hms(2026, 6, 20, 22, 30, 0).unwrap();
        assert_eq!(room_date(now, lisbon), d(2026, 6, 20));
    }

    proptest! {
        /// BSOP 1 as an invariant: allowed exactly from the 18th birthday on.
        #[test]
        fn bsop_1_allowed_iff_on_or_after_eighteenth_birthday(
            y in 1920i32..2020, m in 1u32..=12, day in 1u32..=31, delta in -800i64..800
        ) {
            prop_assume!(NaiveDate::from_ymd_opt(y, m, day).is_some());
            let dob = d(y, m, day);
            let adult = birthday_reached(dob, 18);
            let today = adult + chrono::Duration::days(delta);
            let ok = check_dob(dob, today).is_ok();
            prop_assert_eq!(ok, today >= adult);
        }
    }
}
