//! The registration form as typed, parsed field by field into a player's details (BSOP 1, 3).

use crate::db::models::PlayerRow;
use crate::domain::error::Errors;
use crate::domain::player::{validate_player_in, PhoneRegion, PlayerInput};
use crate::domain::FieldError;
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

/// The registration form as typed (pages and JSON alike): every field a string, parsed here
/// so each bad field gets its own message.
#[derive(Debug, Clone, Default, Deserialize, Serialize, utoipa::ToSchema)]
pub struct PlayerForm {
    #[schema(value_type = String, required = true, min_length = 1, max_length = 120, pattern = r"\S")]
    pub full_name: Option<String>,
    /// YYYY-MM-DD
    #[schema(value_type = String, format = Date, required = true)]
    pub date_of_birth: Option<String>,
    #[schema(value_type = crate::domain::player::DocumentKind, required = true)]
    pub doc_kind: Option<String>,
    #[schema(value_type = String, required = true, min_length = 1, max_length = 30, pattern = r"\S")]
    pub doc_number: Option<String>,
    /// ISO 3166-1 alpha-2, e.g. PT, BR, MO
    #[schema(value_type = String, required = true, pattern = "^[A-Za-z]{2}$")]
    pub doc_country: Option<String>,
    /// YYYY-MM-DD
    #[schema(value_type = String, format = Date, required = true)]
    pub doc_expiry: Option<String>,
    /// E.164, e.g. +351912345678; typed without a country code (e.g. 912 345 678), a number
    /// of the room's country (from its time zone: Lisbon +351, São Paulo +55, Macau +853).
    pub phone: Option<String>,
    #[schema(max_length = 254)]
    pub email: Option<String>,
    /// Default pt.
    #[schema(value_type = Option<crate::domain::player::Language>)]
    pub language: Option<String>,
    /// Default none.
    #[schema(value_type = Option<crate::domain::player::NotifyPref>)]
    pub notify: Option<String>,
    /// Public alias for boards, at most 12 characters.
    #[schema(value_type = String, required = true, min_length = 1, max_length = 12, pattern = r"\S")]
    pub alias: Option<String>,
    /// For edits: the version the form was loaded at (refuses lost updates).
    pub version: Option<i32>,
}

fn text(v: &Option<String>) -> String {
    v.clone().unwrap_or_default()
}

fn required<'a>(e: &mut Errors, field: &str, v: &'a Option<String>) -> Option<&'a str> {
    match v.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        Some(s) => Some(s),
        None => {
            e.add(field, "err-required");
            None
        }
    }
}

fn date(e: &mut Errors, field: &str, v: &Option<String>) -> Option<NaiveDate> {
    let s = required(e, field, v)?;
    match NaiveDate::parse_from_str(s, "%Y-%m-%d") {
        Ok(d) => Some(d),
        Err(_) => {
            e.add(field, "err-date");
            None
        }
    }
}

fn choice<T: std::str::FromStr>(
    e: &mut Errors,
    field: &str,
    v: &Option<String>,
    default: Option<T>,
) -> Option<T> {
    match v.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        None => {
            if default.is_none() {
                e.add(field, "err-required");
            }
            default
        }
        Some(s) => match s.parse::<T>() {
            Ok(x) => Some(x),
            Err(_) => {
                e.push(
                    FieldError::new(field, "err-choice")
                        .arg("value", s.chars().take(40).collect::<String>()),
                );
                None
            }
        },
    }
}

// Stand-ins for unreadable values while collecting the other fields' errors.
const PLACEHOLDER_TODAY: NaiveDate = NaiveDate::from_ymd_opt(2000, 1, 1).unwrap();

const PLACEHOLDER_DOB: NaiveDate = NaiveDate::from_ymd_opt(1950, 1, 1).unwrap();

const PLACEHOLDER_EXPIRY: NaiveDate = NaiveDate::from_ymd_opt(2100, 1, 1).unwrap();

impl PlayerForm {
    /// Parses the strings; missing or malformed fields are all reported together.
    pub fn parse(&self) -> Result<PlayerInput, Vec<FieldError>> {
        self.parse_in(None)
    }

    /// [`parse`](Self::parse) at a room whose phone numbering is `region` (a phone typed
    /// without a country code is not reported as malformed alongside a missing field).
    pub fn parse_in(&self, region: Option<&PhoneRegion>) -> Result<PlayerInput, Vec<FieldError>> {
        use crate::domain::player::{DocumentKind, Language, NotifyPref};
        let mut e = Errors::default();
        let full_name = required(&mut e, "full_name", &self.full_name).map(str::to_string);
        let dob = date(&mut e, "date_of_birth", &self.date_of_birth);
        let doc_kind = choice::<DocumentKind>(&mut e, "doc_kind", &self.doc_kind, None);
        let doc_number = required(&mut e, "doc_number", &self.doc_number).map(str::to_string);
        let doc_country = required(&mut e, "doc_country", &self.doc_country).map(str::to_string);
        let doc_expiry = date(&mut e, "doc_expiry", &self.doc_expiry);
        let language = choice(&mut e, "language", &self.language, Some(Language::Pt));
        let notify = choice(&mut e, "notify", &self.notify, Some(NotifyPref::None));
        let alias = required(&mut e, "alias", &self.alias).map(str::to_string);
        let input = PlayerInput {
            full_name: full_name.unwrap_or_default(),
            date_of_birth: dob.unwrap_or(PLACEHOLDER_DOB),
            doc_kind: doc_kind.unwrap_or(DocumentKind::Passport),
            doc_number: doc_number.unwrap_or_else(|| "PLACEHOLDER".into()),
            doc_country: doc_country.unwrap_or_else(|| "PT".into()),
            doc_expiry: doc_expiry.unwrap_or(PLACEHOLDER_EXPIRY),
            phone: Some(text(&self.phone)),
            email: Some(text(&self.email)),
            language: language.unwrap_or(Language::Pt),
            notify: notify.unwrap_or(NotifyPref::None),
            alias: alias.unwrap_or_default(),
        };
        if e.is_empty() {
            return Ok(input);
        }
        // Some fields are missing or unreadable: report the other fields' problems too, so
        // the desk fixes everything in one go (stand-in values take the place of what is missing).
        // Date rules need the room's date, so they wait for a form that parses.
        let mut errors = e.0;
        if let Err(more) = validate_player_in(&input, PLACEHOLDER_TODAY, region) {
            for f in more {
                let dated = f.field == "date_of_birth" || f.field == "doc_expiry";
                if !dated && !errors.iter().any(|x| x.field == f.field) {
                    errors.push(f);
                }
            }
        }
        Err(errors)
    }

    pub fn from_row(p: &PlayerRow) -> PlayerForm {
        PlayerForm {
            full_name: Some(p.full_name.clone()),
            date_of_birth: Some(p.date_of_birth.to_string()),
            doc_kind: Some(p.doc_kind.clone()),
            doc_number: Some(p.doc_number.clone()),
            doc_country: Some(p.doc_country.clone()),
            doc_expiry: Some(p.doc_expiry.to_string()),
            phone: p.phone.clone(),
            email: p.email.clone(),
            language: Some(p.language.clone()),
            notify: Some(p.notify.clone()),
            alias: Some(p.alias.clone()),
            version: Some(p.version),
        }
    }
}
