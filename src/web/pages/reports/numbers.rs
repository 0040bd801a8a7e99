//! Numbers as the reader writes them: decimals with the language's mark, hours and minutes
//! with their decimals, money in a CSV cell.

use crate::domain::money::minor_digits;

pub(super) use crate::web::csv::mark;
pub use crate::web::csv::{csv_money, decimal, Cell};

/// Seconds as hours with two decimals (rounded half up).
pub(super) fn hours_hundredths(secs: i64) -> i64 {
    (secs * 100 + 1800).div_euclid(3600)
}

/// Seconds as minutes with one decimal.
pub(super) fn minutes_tenths(secs: i64) -> i64 {
    (secs * 10 + 30).div_euclid(60)
}

/// Money in a CSV cell: no currency sign, no grouping, the reader's decimal mark
/// (`1234.50`, `1234,50`); a number, so a negative amount stays one.
pub fn money_cell(minor: i64, currency: &str, dm: char) -> Cell {
    Cell::money(minor, currency, dm)
}

/// Money as a spreadsheet reads it: no sign, no grouping, a dot (`1234.50`).
pub fn plain_money(minor: i64, currency: &str) -> String {
    decimal(minor, minor_digits(currency).unwrap_or(2), '.')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_written_the_reader_s_way() {
        assert_eq!(decimal(1250, 2, ','), "12,50");
        assert_eq!(decimal(5, 2, '.'), "0.05");
        assert_eq!(decimal(-1234, 2, '.'), "-12.34");
        assert_eq!(decimal(667, 1, '.'), "66.7");
        assert_eq!(decimal(42, 0, '.'), "42");
        assert_eq!(plain_money(123_450, "EUR"), "1234.50");
        assert_eq!(hours_hundredths(5400), 150);
        assert_eq!(hours_hundredths(3600 + 18), 101);
        assert_eq!(minutes_tenths(90), 15);
    }
}
