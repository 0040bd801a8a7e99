//! CSV files as the reader's spreadsheet opens them: the separator and decimal mark of their
//! language, UTF-8 with its byte order mark, amounts in major units. Shared by every CSV
//! export (the reports', the dealers' and the players' reports, the incident log).
//!
//! A cell is text or a number ([`Cell`]), said by whoever writes the row. A text cell that a
//! spreadsheet would read as a formula (OWASP's "CSV injection": a ruling's decision
//! `=HYPERLINK(…)`, a rule cited `@SUM(1+1)`) is written with a single quote before it, so it
//! is shown as the text it is and never run ([`neutralised`]). A number cell is only ever
//! written by this module from an integer, so a negative amount (`-1500,00`) stays a number.

use crate::domain::money::minor_digits;
use crate::domain::player::Language;
use crate::error::{AppError, AppResult};
use std::borrow::Cow;

/// One cell of a CSV file: text, neutralised when written, or a number written here from
/// an integer (never neutralised: it cannot be a formula).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cell(Kind);

#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    Text(String),
    Number(String),
}

impl Cell {
    /// Text, as typed or said (a name, a note, a date, a label).
    pub fn text(s: impl Into<String>) -> Cell {
        Cell(Kind::Text(s.into()))
    }

    /// An empty cell.
    pub fn empty() -> Cell {
        Cell(Kind::Text(String::new()))
    }

    /// A whole number (a count, an id, a table number).
    pub fn int(v: impl Into<i64>) -> Cell {
        Cell(Kind::Number(v.into().to_string()))
    }

    /// A count of things.
    pub fn count(n: usize) -> Cell {
        Cell(Kind::Number(n.to_string()))
    }

    /// `v` in units of 10^-`places`, with the decimal mark `mark` ([`decimal`]).
    pub fn decimal(v: i64, places: u32, mark: char) -> Cell {
        Cell(Kind::Number(decimal(v, places, mark)))
    }

    /// An amount in minor units, in major units of `currency` with the decimal mark `mark`.
    pub fn money(minor: i64, currency: &str, mark: char) -> Cell {
        Cell::decimal(minor, minor_digits(currency).unwrap_or(2), mark)
    }

    /// The cell as written in the file.
    pub fn written(&self) -> Cow<'_, str> {
        match &self.0 {
            Kind::Text(s) => neutralised(s),
            Kind::Number(s) => Cow::Borrowed(s),
        }
    }
}

impl From<String> for Cell {
    fn from(s: String) -> Cell {
        Cell::text(s)
    }
}

impl From<&str> for Cell {
    fn from(s: &str) -> Cell {
        Cell::text(s)
    }
}

/// The characters that make a spreadsheet read a cell as a formula when the cell starts with
/// one (OWASP, CSV injection): `=`, `+`, `-`, `@`, a tab, a carriage return (and a line feed,
/// which some read as the start of a cell), and their full-width forms, which spreadsheets in
/// East Asian locales read alike.
fn starts_a_formula(c: char) -> bool {
    matches!(
        c,
        '=' | '+'
            | '-'
            | '@'
            | '\t'
            | '\r'
            | '\n'
            | '\u{FF1D}'
            | '\u{FF0B}'
            | '\u{FF0D}'
            | '\u{FF20}'
    )
}

/// A text cell as written: with a single quote before it when a spreadsheet would read it as
/// a formula — its first character starts one, or its first after leading spaces (some
/// spreadsheets skip them). The quote makes it text; everything typed is still there.
pub fn neutralised(s: &str) -> Cow<'_, str> {
    let first = s.chars().find(|c| *c != ' ' && *c != '\u{3000}');
    let lead = s.chars().next();
    if lead.is_some_and(starts_a_formula) || first.is_some_and(starts_a_formula) {
        Cow::Owned(format!("'{s}"))
    } else {
        Cow::Borrowed(s)
    }
}

/// The field separator of a CSV in the reader's language: a spreadsheet set to Portuguese
/// reads `;` between fields (its decimal mark is the comma), one set to English `,`.
fn separator(lang: Language) -> u8 {
    match lang {
        Language::Pt => b';',
        Language::En => b',',
    }
}

/// The byte order mark a spreadsheet needs to read a CSV as UTF-8 (names with accents, €).
const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// One CSV file in `lang`'s conventions (separator; the numbers are written with [`mark`]),
/// UTF-8 with its byte order mark: headers, then rows, every text cell (headers included)
/// neutralised ([`neutralised`]). Every CSV export writes through it.
pub fn csv_in(lang: Language, headers: Vec<String>, rows: Vec<Vec<Cell>>) -> AppResult<Vec<u8>> {
    let mut w = csv::WriterBuilder::new()
        .delimiter(separator(lang))
        .from_writer(UTF8_BOM.to_vec());
    w.write_record(headers.iter().map(|h| neutralised(h).into_owned()))
        .map_err(|e| AppError::internal_from("csv", e))?;
    for r in rows {
        w.write_record(r.iter().map(|c| c.written().into_owned()))
            .map_err(|e| AppError::internal_from("csv", e))?;
    }
    w.into_inner()
        .map_err(|e| AppError::internal_from("csv", e))
}

/// `v` with `places` decimals (`v` in units of 10^-places), with the language's decimal mark.
pub fn decimal(v: i64, places: u32, mark: char) -> String {
    let scale = 10i64.pow(places);
    let sign = if v < 0 { "-" } else { "" };
    let a = v.unsigned_abs();
    if places == 0 {
        return format!("{sign}{a}");
    }
    format!(
        "{sign}{}{mark}{:0w$}",
        a / scale as u64,
        a % scale as u64,
        w = places as usize
    )
}

/// The decimal mark of `lang`.
pub(crate) fn mark(lang: Language) -> char {
    match lang {
        Language::Pt => ',',
        Language::En => '.',
    }
}

/// An amount in major units for a CSV cell in `lang`'s conventions ("1234,50" in Portuguese).
pub fn csv_money(minor: i64, currency: &str, lang: Language) -> Cell {
    Cell::money(minor, currency, mark(lang))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(lang: Language, rows: Vec<Vec<Cell>>) -> String {
        let bytes = csv_in(lang, vec!["a".into(), "b".into()], rows).unwrap();
        String::from_utf8(bytes[UTF8_BOM.len()..].to_vec()).unwrap()
    }

    #[test]
    fn a_text_a_spreadsheet_would_run_is_written_as_text() {
        for s in [
            "=HYPERLINK(\"http://x\",\"y\")",
            "@SUM(1+1)",
            "+1+1",
            "-1+1",
            "-1500",
            "\t=1",
            "\r=1",
            "\n=1",
            "  =1+1",
            "\u{FF1D}1+1",
        ] {
            let w = Cell::text(s).written().into_owned();
            assert_eq!(w, format!("'{s}"), "{s:?}");
        }
        for s in [
            "Ana",
            "",
            "1500",
            "BSOP 20",
            "a=b",
            "mão morta - assento 3",
            "'quoted",
        ] {
            assert_eq!(Cell::text(s).written(), s, "{s:?}");
        }
    }

    #[test]
    fn a_number_stays_a_number() {
        assert_eq!(Cell::money(-150_000, "EUR", ',').written(), "-1500,00");
        assert_eq!(Cell::decimal(-5, 1, '.').written(), "-0.5");
        assert_eq!(Cell::int(-3).written(), "-3");
        assert_eq!(Cell::count(7).written(), "7");
    }

    #[test]
    fn the_file_keeps_numbers_and_neutralises_text() {
        let f = file(
            Language::Pt,
            vec![vec![
                Cell::money(-150_000, "EUR", ','),
                Cell::text("=1+1;x"),
            ]],
        );
        assert_eq!(
            f,
            "a;b\n-1500,00;'=1+1;x\n".replace("'=1+1;x", "\"'=1+1;x\"")
        );
        let f = file(
            Language::En,
            vec![vec![Cell::text("@SUM(1)"), Cell::empty()]],
        );
        assert_eq!(f, "a,b\n'@SUM(1),\n");
    }
}
