//! CSV files as the reader's spreadsheet opens them: the separator and decimal mark of their
//! language, UTF-8 with its byte order mark, amounts in major units. Shared by the reports'
//! exports and the incident log's CSV.

use crate::domain::money::minor_digits;
use crate::domain::player::Language;
use crate::error::{AppError, AppResult};

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

/// One CSV file in `lang`'s conventions (separator; the cells are written with [`mark`]),
/// UTF-8 with its byte order mark: headers, then rows. The report's exports and the incident
/// log's CSV both write through it.
pub fn csv_in(lang: Language, headers: Vec<String>, rows: Vec<Vec<String>>) -> AppResult<Vec<u8>> {
    let mut w = csv::WriterBuilder::new()
        .delimiter(separator(lang))
        .from_writer(UTF8_BOM.to_vec());
    w.write_record(&headers)
        .map_err(|e| AppError::internal_from("csv", e))?;
    for r in rows {
        w.write_record(&r)
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
pub fn csv_money(minor: i64, currency: &str, lang: Language) -> String {
    decimal(minor, minor_digits(currency).unwrap_or(2), mark(lang))
}
