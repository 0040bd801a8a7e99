//! Timestamps read fast from SQLite.
//!
//! SQLite keeps a `Timestamp` as text. diesel reads it with
//! `NaiveDateTime::parse_from_str(text, "%F %T%.f")` (then 17 other layouts), and that reads
//! the format string again for every value: 18 % of the floor board's time for the ~7,500
//! timestamps it reads (perf, 2026-11-24; 7 % with [`DbTime`]). [`DbTime`] reads the layout this
//! app writes (`YYYY-MM-DD HH:MM:SS` with an optional fraction) by position and hands
//! anything else to diesel's own parser, so it reads exactly what diesel reads. On
//! PostgreSQL (binary timestamps) it is diesel's own reading.
//!
//! Used with `#[diesel(deserialize_as = DbTime)]` on the non-null timestamps of the rows the
//! floor reads by the thousand.

use super::MultiBackend;
use chrono::{NaiveDate, NaiveDateTime};
use diesel::deserialize::{self, FromSql, FromSqlRow};
use diesel::pg::Pg;
use diesel::sql_types::Timestamp;
use diesel::sqlite::Sqlite;

/// A `Timestamp` column's value, read as [`NaiveDateTime`] (see the module's doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq, FromSqlRow)]
pub struct DbTime(pub NaiveDateTime);

impl From<DbTime> for NaiveDateTime {
    fn from(t: DbTime) -> Self {
        t.0
    }
}

/// `YYYY-MM-DD HH:MM:SS` with an optional `.` and 1 to 9 digits, as `%F %T%.f` writes it;
/// `None` for anything else (another layout, a leap second, an impossible date).
pub fn parse_text(t: &str) -> Option<NaiveDateTime> {
    let b = t.as_bytes();
    if b.len() < 19
        || b[4] != b'-'
        || b[7] != b'-'
        || b[10] != b' '
        || b[13] != b':'
        || b[16] != b':'
    {
        return None;
    }
    let num = |r: std::ops::Range<usize>| -> Option<u32> {
        b[r].iter().try_fold(0u32, |n, c| {
            c.is_ascii_digit().then(|| n * 10 + u32::from(c - b'0'))
        })
    };
    let nano = match &b[19..] {
        [] => 0,
        [b'.', digits @ ..] if (1..=9).contains(&digits.len()) => {
            num(20..b.len())? * 10u32.pow(9 - digits.len() as u32)
        }
        _ => return None,
    };
    let (h, m, s) = (num(11..13)?, num(14..16)?, num(17..19)?);
    if s > 59 {
        return None;
    }
    NaiveDate::from_ymd_opt(num(0..4)? as i32, num(5..7)?, num(8..10)?)?
        .and_hms_nano_opt(h, m, s, nano)
}

impl FromSql<Timestamp, Sqlite> for DbTime {
    fn from_sql(
        mut value: <Sqlite as diesel::backend::Backend>::RawValue<'_>,
    ) -> deserialize::Result<Self> {
        if let Some(t) = parse_text(value.read_text()) {
            return Ok(DbTime(t));
        }
        <NaiveDateTime as FromSql<Timestamp, Sqlite>>::from_sql(value).map(DbTime)
    }
}

impl FromSql<Timestamp, Pg> for DbTime {
    fn from_sql(
        value: <Pg as diesel::backend::Backend>::RawValue<'_>,
    ) -> deserialize::Result<Self> {
        <NaiveDateTime as FromSql<Timestamp, Pg>>::from_sql(value).map(DbTime)
    }
}

impl FromSql<Timestamp, MultiBackend> for DbTime {
    fn from_sql(
        value: <MultiBackend as diesel::backend::Backend>::RawValue<'_>,
    ) -> deserialize::Result<Self> {
        value.from_sql::<DbTime, Timestamp>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// diesel's first layout, the one every value this app writes has.
    fn chrono(t: &str) -> Option<NaiveDateTime> {
        NaiveDateTime::parse_from_str(t, "%F %T%.f").ok()
    }

    #[test]
    fn the_layouts_the_app_writes_are_read_by_position() {
        for t in [
            "2026-11-24 20:15:09",
            "2026-11-24 20:15:09.5",
            "2026-11-24 20:15:09.026",
            "2026-11-24 20:15:09.026490",
            "2026-11-24 20:15:09.026490123",
            "2024-02-29 00:00:00",
            "0001-01-01 00:00:00",
            "9999-12-31 23:59:59.999999999",
        ] {
            assert_eq!(parse_text(t), chrono(t), "{t}");
            assert!(parse_text(t).is_some(), "{t}");
        }
    }

    #[test]
    fn anything_else_is_left_to_diesels_parser() {
        for t in [
            "2026-11-24T20:15:09",
            "2026-11-24 20:15",
            "2026-11-24 20:15:09Z",
            "2026-11-24 20:15:09+01:00",
            "2026-11-24 20:15:09.",
            "2026-11-24 20:15:09.0264901234",
            "2026-02-30 10:00:00",
            "2026-11-24 24:00:00",
            "2026-11-24 20:60:00",
            "2026-11-24 20:15:60",
            "2026-1-24 20:15:09",
            "+2026-11-24 20:15:09",
            "2026-11-24 2a:15:09",
            "2460638.5",
            "",
        ] {
            assert_eq!(parse_text(t), None, "{t}");
        }
    }

    /// Through a real SQLite connection: the fast path, and diesel's parser for the rest
    /// (another layout, a Julian day number).
    #[test]
    fn sqlite_values_read_as_diesel_reads_them() {
        use diesel::{Connection, RunQueryDsl};
        let mut c = diesel::SqliteConnection::establish(":memory:").unwrap();
        for (stored, expected) in [
            ("'2026-11-24 20:15:09.026490'", "2026-11-24 20:15:09.026490"),
            ("'2026-11-24T20:15:09Z'", "2026-11-24 20:15:09"),
            ("'2026-11-24 20:15'", "2026-11-24 20:15:00"),
            ("2440587.5", "1970-01-01 00:00:00"),
        ] {
            let ours: DbTime = diesel::select(diesel::dsl::sql::<Timestamp>(stored))
                .get_result(&mut c)
                .unwrap();
            let diesels: NaiveDateTime = diesel::select(diesel::dsl::sql::<Timestamp>(stored))
                .get_result(&mut c)
                .unwrap();
            assert_eq!(ours.0, diesels, "{stored}");
            assert_eq!(ours.0, chrono(expected).unwrap(), "{stored}");
        }
        let bad = diesel::select(diesel::dsl::sql::<Timestamp>("'not a time'"))
            .get_result::<DbTime>(&mut c);
        assert!(bad.is_err());
    }

    proptest! {
        /// Whatever `%F %T%.f` writes is read back as that time.
        #[test]
        fn every_written_time_reads_back(secs in 0i64..253_402_300_799, nanos in 0u32..1_000_000_000) {
            let t = chrono::DateTime::from_timestamp(secs, nanos).unwrap().naive_utc();
            let text = t.format("%F %T%.f").to_string();
            prop_assert_eq!(parse_text(&text), Some(t));
        }

        /// Where the fast path reads a text, it reads what diesel's parser reads.
        #[test]
        fn it_never_reads_other_than_diesel(
            t in "[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{0,10})?"
        ) {
            if let Some(x) = parse_text(&t) {
                prop_assert_eq!(Some(x), chrono(&t));
            }
        }
    }
}
