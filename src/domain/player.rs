//! The player registry: identity, ID document, contacts (BSOP 1, 3).

use super::age::{check_dob, DobProblem};
use super::enums::string_enum;
use super::error::{Errors, FieldError};
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

string_enum! {
    /// BSOP 3: passport, driving licence, national/state ID card or military ID.
    DocumentKind {
        Passport = "passport",
        DrivingLicence = "driving_licence",
        NationalId = "national_id",
        MilitaryId = "military_id",
    }
}

string_enum! {
    /// The languages the product speaks.
    Language { Pt = "pt", En = "en" }
}

string_enum! {
    /// How a player wants to be told about seat calls.
    NotifyPref { Sms = "sms", Email = "email", Both = "both", None = "none" }
}

pub const NAME_MAX: usize = 120;
pub const ALIAS_MAX: usize = 12;
pub const DOC_NUMBER_MAX: usize = 30;
pub const EMAIL_MAX: usize = 254;
/// An ID that expires within this many days is accepted with a warning.
pub const ID_EXPIRY_WARNING_DAYS: i64 = 30;

/// What the desk types in (already parsed into types; text fields raw).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerInput {
    pub full_name: String,
    pub date_of_birth: NaiveDate,
    pub doc_kind: DocumentKind,
    pub doc_number: String,
    /// ISO 3166-1 alpha-2, upper case.
    pub doc_country: String,
    pub doc_expiry: NaiveDate,
    pub phone: Option<String>,
    pub email: Option<String>,
    pub language: Language,
    pub notify: NotifyPref,
    pub alias: String,
}

/// The cleaned-up record to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CleanPlayer {
    pub full_name: String,
    pub date_of_birth: NaiveDate,
    pub doc_kind: DocumentKind,
    pub doc_number: String,
    /// Upper case, without spaces, dots or dashes: the key for duplicate detection.
    pub doc_number_norm: String,
    pub doc_country: String,
    pub doc_expiry: NaiveDate,
    pub phone: Option<String>,
    pub email: Option<String>,
    pub language: Language,
    pub notify: NotifyPref,
    pub alias: String,
}

/// Something the desk should know but that does not stop the registration.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum Warning {
    /// BSOP 3: the ID expires within 30 days; ask for the new one soon.
    IdExpiresSoon { on: NaiveDate, days: i64 },
}

/// Strips the separators people type into document numbers.
pub fn normalize_doc_number(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_uppercase())
        .collect()
}

/// E.164: a `+`, a country code not starting with 0, at most 15 digits in all.
/// Spaces, dots, dashes and parentheses typed by the desk are removed first.
pub fn normalize_phone(s: &str) -> Option<String> {
    normalize_phone_in(s, None)
}

/// The phone numbering of the room's country: what a number typed without a country code
/// means at that room's desk ("912 345 678" in Lisbon is +351 912 345 678).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PhoneRegion {
    /// ISO 3166-1 alpha-2.
    pub country: &'static str,
    /// The country calling code, digits only (ITU-T E.164 assignments).
    pub code: &'static str,
    /// How many digits a national (significant) number has there.
    pub national_min: usize,
    pub national_max: usize,
    /// The national trunk prefix `0` typed before the area code ("011 98765-4321" in São
    /// Paulo, "020 7946 0958" in London) is dropped; Portugal and Macau have none.
    pub trunk_zero: bool,
}

impl PhoneRegion {
    /// How many digits a national number has, as said to the desk ("9", "10-11").
    pub fn digits(&self) -> String {
        if self.national_min == self.national_max {
            self.national_max.to_string()
        } else {
            format!("{}-{}", self.national_min, self.national_max)
        }
    }
}

const fn region(
    country: &'static str,
    code: &'static str,
    national_min: usize,
    national_max: usize,
    trunk_zero: bool,
) -> PhoneRegion {
    PhoneRegion {
        country,
        code,
        national_min,
        national_max,
        trunk_zero,
    }
}

const PT: PhoneRegion = region("PT", "351", 9, 9, false);
// Brazil: a two-digit area code and 8 (land line) or 9 (mobile) digits.
const BR: PhoneRegion = region("BR", "55", 10, 11, true);
const MO: PhoneRegion = region("MO", "853", 8, 8, false);
const HK: PhoneRegion = region("HK", "852", 8, 8, false);
const ES: PhoneRegion = region("ES", "34", 9, 9, false);
const FR: PhoneRegion = region("FR", "33", 9, 9, true);
const GB: PhoneRegion = region("GB", "44", 9, 10, true);

/// The room's country as its time zone tells it (the room's settings name a zone, not a
/// country). Zones shared by several countries, or not listed, give none: there a number
/// must be typed with its country code.
pub fn phone_region_of_zone(zone: &str) -> Option<PhoneRegion> {
    Some(match zone {
        "Europe/Lisbon" | "Atlantic/Madeira" | "Atlantic/Azores" | "Portugal" => PT,
        "America/Sao_Paulo"
        | "America/Noronha"
        | "America/Belem"
        | "America/Fortaleza"
        | "America/Recife"
        | "America/Araguaina"
        | "America/Maceio"
        | "America/Bahia"
        | "America/Campo_Grande"
        | "America/Cuiaba"
        | "America/Santarem"
        | "America/Porto_Velho"
        | "America/Boa_Vista"
        | "America/Manaus"
        | "America/Eirunepe"
        | "America/Rio_Branco"
        | "Brazil/East"
        | "Brazil/West"
        | "Brazil/Acre"
        | "Brazil/DeNoronha" => BR,
        "Asia/Macau" | "Asia/Macao" => MO,
        "Asia/Hong_Kong" | "Hongkong" => HK,
        "Europe/Madrid" | "Atlantic/Canary" | "Africa/Ceuta" => ES,
        "Europe/Paris" => FR,
        "Europe/London" | "GB" => GB,
        _ => return None,
    })
}

/// A phone number as the desk types it, in E.164. With a `+` (or the international prefix
/// `00`) the number carries its country code; without one it is a national number of the
/// room's `region` (trunk `0` dropped where the country uses one), checked for that
/// country's length. None: not a phone number (or a national one where the room's country
/// is not known).
pub fn normalize_phone_in(s: &str, region: Option<&PhoneRegion>) -> Option<String> {
    let t: String = s
        .trim()
        .chars()
        .filter(|c| !matches!(c, ' ' | '-' | '.' | '(' | ')' | '/'))
        .collect();
    let international = t.strip_prefix('+').or_else(|| t.strip_prefix("00"));
    let digits = match (international, region) {
        (Some(d), _) => d.to_string(),
        (None, None) => return None,
        (None, Some(r)) => {
            if !t.chars().all(|c| c.is_ascii_digit()) {
                return None;
            }
            let national = match t.strip_prefix('0') {
                Some(rest) if r.trunk_zero => rest,
                _ => t.as_str(),
            };
            if !(r.national_min..=r.national_max).contains(&national.len())
                || national.starts_with('0')
            {
                return None;
            }
            format!("{}{national}", r.code)
        }
    };
    let ok = (8..=15).contains(&digits.len())
        && digits.chars().all(|c| c.is_ascii_digit())
        && !digits.starts_with('0');
    ok.then(|| format!("+{digits}"))
}

fn valid_country(s: &str) -> bool {
    s.len() == 2 && s.chars().all(|c| c.is_ascii_uppercase())
}

/// BSOP 3: an ID is valid on `today` when it has not expired (valid through its expiry date).
pub fn id_valid_on(expiry: NaiveDate, today: NaiveDate) -> bool {
    expiry >= today
}

/// BSOP 3: warnings about a valid ID on the room's date `today` (expires within 30 days).
pub fn id_warnings(expiry: NaiveDate, today: NaiveDate) -> Vec<Warning> {
    let days = (expiry - today).num_days();
    if (0..=ID_EXPIRY_WARNING_DAYS).contains(&days) {
        vec![Warning::IdExpiresSoon { on: expiry, days }]
    } else {
        Vec::new()
    }
}

/// BSOP 1, 3: validates a registration or an edit on the room's local date `today`.
/// Returns the cleaned record and warnings, or every refused field at once. Phones must carry
/// their country code (see [`validate_player_in`] for a room's national numbers).
pub fn validate_player(
    input: &PlayerInput,
    today: NaiveDate,
) -> Result<(CleanPlayer, Vec<Warning>), Vec<FieldError>> {
    validate_player_in(input, today, None)
}

/// [`validate_player`] at a room whose phone numbering is `region`: a phone typed without a
/// country code is taken as one of the room's country.
pub fn validate_player_in(
    input: &PlayerInput,
    today: NaiveDate,
    region: Option<&PhoneRegion>,
) -> Result<(CleanPlayer, Vec<Warning>), Vec<FieldError>> {
    let mut e = Errors::default();
    let full_name = input
        .full_name
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    check_short_text(&mut e, "full_name", &full_name, NAME_MAX);
    check_date_of_birth(&mut e, input.date_of_birth, today);
    let (doc_number, doc_number_norm) = clean_doc_number(&mut e, &input.doc_number);
    let doc_country = clean_doc_country(&mut e, &input.doc_country);
    let warnings = check_doc_expiry(&mut e, input.doc_expiry, today);
    let phone = clean_phone(&mut e, typed(&input.phone), region);
    let email = clean_email(&mut e, typed(&input.email));
    check_notify_reaches(&mut e, input.notify, phone.is_some(), email.is_some());
    let alias = input.alias.trim().to_string();
    check_short_text(&mut e, "alias", &alias, ALIAS_MAX);
    e.into_result(())?;
    Ok((
        CleanPlayer {
            full_name,
            date_of_birth: input.date_of_birth,
            doc_kind: input.doc_kind,
            doc_number,
            doc_number_norm,
            doc_country,
            doc_expiry: input.doc_expiry,
            phone,
            email,
            language: input.language,
            notify: input.notify,
            alias,
        },
        warnings,
    ))
}

/// A name or an alias: given, at most `max` characters, no control characters.
fn check_short_text(e: &mut Errors, field: &str, value: &str, max: usize) {
    if value.is_empty() {
        e.add(field, "err-required");
    } else if value.chars().count() > max {
        e.push(FieldError::new(field, "err-too-long").arg("max", max));
    } else if value.chars().any(|c| c.is_control()) {
        e.add(field, "err-invalid-chars");
    }
}

/// An adult, born on a plausible date.
fn check_date_of_birth(e: &mut Errors, dob: NaiveDate, today: NaiveDate) {
    match check_dob(dob, today) {
        Ok(_) => {}
        Err(DobProblem::InFuture) => e.add("date_of_birth", "err-dob-future"),
        Err(DobProblem::TooOld) => e.add("date_of_birth", "err-dob-too-old"),
        Err(DobProblem::Under18 { adult_on }) => {
            e.push(FieldError::new("date_of_birth", "err-under-18").arg("date", adult_on))
        }
    }
}

/// The document number as typed (trimmed) and normalized.
fn clean_doc_number(e: &mut Errors, raw: &str) -> (String, String) {
    let doc_number = raw.trim().to_string();
    let doc_number_norm = normalize_doc_number(&doc_number);
    if doc_number.is_empty() {
        e.add("doc_number", "err-required");
    } else if doc_number.chars().count() > DOC_NUMBER_MAX || doc_number_norm.len() < 3 {
        e.add("doc_number", "err-doc-number");
    }
    (doc_number, doc_number_norm)
}

fn clean_doc_country(e: &mut Errors, raw: &str) -> String {
    let doc_country = raw.trim().to_ascii_uppercase();
    if !valid_country(&doc_country) {
        e.add("doc_country", "err-country");
    }
    doc_country
}

/// BSOP 3: current, valid, unexpired photo ID. The warnings of one that expires soon.
fn check_doc_expiry(e: &mut Errors, expiry: NaiveDate, today: NaiveDate) -> Vec<Warning> {
    if !id_valid_on(expiry, today) {
        e.push(FieldError::new("doc_expiry", "err-id-expired").arg("date", expiry));
        Vec::new()
    } else {
        id_warnings(expiry, today)
    }
}

/// An optional field as typed: trimmed, `None` when blank.
fn typed(field: &Option<String>) -> Option<&str> {
    field.as_deref().map(str::trim).filter(|s| !s.is_empty())
}

fn clean_phone(
    e: &mut Errors,
    typed: Option<&str>,
    region: Option<&PhoneRegion>,
) -> Option<String> {
    let p = typed?;
    let normalized = normalize_phone_in(p, region);
    if normalized.is_none() {
        // Say what a national number looks like in the room's country (the same
        // code for API clients either way: `phone`).
        e.push(match region {
            Some(r) => FieldError::new("phone", "err-phone")
                .arg("code", r.code)
                .arg("digits", r.digits()),
            None => FieldError::new("phone", "err-phone").arg("code", "none"),
        });
    }
    normalized
}

fn clean_email(e: &mut Errors, typed: Option<&str>) -> Option<String> {
    let m = typed?;
    if m.len() <= EMAIL_MAX && m.contains('@') && email_address::EmailAddress::is_valid(m) {
        Some(m.to_string())
    } else {
        e.add("email", "err-email");
        None
    }
}

/// The way of being told about seat calls needs the phone or e-mail it uses.
fn check_notify_reaches(e: &mut Errors, notify: NotifyPref, phone: bool, email: bool) {
    match notify {
        NotifyPref::Sms if !phone => e.add("phone", "err-notify-needs-phone"),
        NotifyPref::Email if !email => e.add("email", "err-notify-needs-email"),
        NotifyPref::Both if !phone || !email => e.add("notify", "err-notify-needs-both"),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    fn input() -> PlayerInput {
        PlayerInput {
            full_name: "  Ana   Maria Silva ".into(),
            date_of_birth: d(1990, 5, 17),
            doc_kind: DocumentKind::NationalId,
            doc_number: "12 345-678.9".into(),
            doc_country: "pt".into(),
            doc_expiry: d(2030, 1, 1),
            phone: Some("+351 912 345 678".into()),
            email: Some("ana@example.pt".into()),
            language: Language::Pt,
            notify: NotifyPref::Sms,
            alias: "Ana".into(),
        }
    }

    fn today() -> NaiveDate {
        d(2026, 11, 21)
    }

    fn fields(
        r: Result<(CleanPlayer, Vec<Warning>), Vec<FieldError>>,
    ) -> Vec<(String, &'static str)> {
        r.unwrap_err()
            .into_iter()
            .map(|e| (e.field, e.key))
            .collect()
    }

    #[test]
    fn valid_registration_is_cleaned() {
        let (p, w) = validate_player(&input(), today()).unwrap();
        assert_eq!(p.full_name, "Ana Maria Silva");
        assert_eq!(p.doc_number_norm, "123456789");
        assert_eq!(p.doc_country, "PT");
        assert_eq!(p.phone.as_deref(), Some("+351912345678"));
        assert!(w.is_empty());
    }

    #[test]
    fn bsop_1_under_18_by_one_day_is_refused() {
        let mut i = input();
        i.date_of_birth = d(2008, 11, 22);
        assert_eq!(
            fields(validate_player(&i, today())),
            vec![("date_of_birth".into(), "err-under-18")]
        );
        i.date_of_birth = d(2008, 11, 21);
        assert!(validate_player(&i, today()).is_ok());
    }

    #[test]
    fn bsop_3_expired_id_is_refused_and_soon_expiring_warns() {
        let mut i = input();
        i.doc_expiry = d(2026, 11, 20);
        assert_eq!(
            fields(validate_player(&i, today())),
            vec![("doc_expiry".into(), "err-id-expired")]
        );
        i.doc_expiry = today(); // valid through its expiry date
        let (_, w) = validate_player(&i, today()).unwrap();
        assert_eq!(
            w,
            vec![Warning::IdExpiresSoon {
                on: today(),
                days: 0
            }]
        );
        i.doc_expiry = d(2026, 12, 21);
        let (_, w) = validate_player(&i, today()).unwrap();
        assert_eq!(
            w,
            vec![Warning::IdExpiresSoon {
                on: d(2026, 12, 21),
                days: 30
            }]
        );
        i.doc_expiry = d(2026, 12, 22);
        assert!(validate_player(&i, today()).unwrap().1.is_empty());
    }

    #[test]
    fn contacts_and_lengths_are_checked() {
        let mut i = input();
        i.full_name = "x".repeat(10_000);
        i.email = Some("not-an-email".into());
        i.phone = Some("912345678".into());
        i.alias = "ThirteenChars".into();
        i.doc_country = "PRT".into();
        let f = fields(validate_player(&i, today()));
        assert!(f.contains(&("full_name".into(), "err-too-long")));
        assert!(f.contains(&("email".into(), "err-email")));
        assert!(f.contains(&("phone".into(), "err-phone")));
        assert!(f.contains(&("alias".into(), "err-too-long")));
        assert!(f.contains(&("doc_country".into(), "err-country")));
    }

    #[test]
    fn e164_phone_numbers() {
        assert_eq!(
            normalize_phone("+55 (11) 98765-4321").as_deref(),
            Some("+5511987654321")
        );
        assert_eq!(
            normalize_phone("+853 6612 3456").as_deref(),
            Some("+85366123456")
        );
        assert_eq!(normalize_phone("+0351912345678"), None);
        assert_eq!(normalize_phone("+1234567890123456"), None);
        assert_eq!(normalize_phone("+35191234567a"), None);
    }

    #[test]
    fn national_numbers_take_the_rooms_country() {
        let lisbon = phone_region_of_zone("Europe/Lisbon");
        let sao_paulo = phone_region_of_zone("America/Sao_Paulo");
        let macau = phone_region_of_zone("Asia/Macau");
        let n = |s: &str, r: &Option<PhoneRegion>| normalize_phone_in(s, r.as_ref());
        assert_eq!(n("912 345 678", &lisbon).as_deref(), Some("+351912345678"));
        assert_eq!(n("21 234 5678", &lisbon).as_deref(), Some("+351212345678"));
        // A country code typed still wins; 00 is the international prefix.
        assert_eq!(
            n("+55 11 98765-4321", &lisbon).as_deref(),
            Some("+5511987654321")
        );
        assert_eq!(
            n("00 44 20 7946 0958", &lisbon).as_deref(),
            Some("+442079460958")
        );
        assert_eq!(
            n("(11) 98765-4321", &sao_paulo).as_deref(),
            Some("+5511987654321")
        );
        assert_eq!(
            n("011 98765-4321", &sao_paulo).as_deref(),
            Some("+5511987654321")
        );
        assert_eq!(n("6612 3456", &macau).as_deref(), Some("+85366123456"));
        // Wrong lengths, letters, a trunk 0 where there is none, an unknown country.
        assert_eq!(n("91 234 567", &lisbon), None);
        assert_eq!(n("0912345678", &lisbon), None);
        assert_eq!(n("91234567a", &lisbon), None);
        assert_eq!(n("912345678", &None), None);
        assert_eq!(phone_region_of_zone("Europe/Berlin"), None);
        let mut i = input();
        i.phone = Some("91 234 567".into());
        let f = validate_player_in(&i, today(), lisbon.as_ref()).unwrap_err();
        assert_eq!((f[0].field.as_str(), f[0].key), ("phone", "err-phone"));
        assert!(f[0].args.contains(&("code", "351".to_string())));
        i.phone = Some("912 345 678".into());
        let (p, _) = validate_player_in(&i, today(), lisbon.as_ref()).unwrap();
        assert_eq!(p.phone.as_deref(), Some("+351912345678"));
    }

    #[test]
    fn notification_preference_needs_its_channel() {
        let mut i = input();
        i.phone = None;
        assert_eq!(
            fields(validate_player(&i, today())),
            vec![("phone".into(), "err-notify-needs-phone")]
        );
        i.notify = NotifyPref::None;
        assert!(validate_player(&i, today()).is_ok());
    }
}
