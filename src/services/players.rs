//! The player registry (BSOP 1, 3), exclusions (BSOP 2, 10, 11) and separations (BSOP 47).

use super::photo::Photo;
use crate::db::audit::{self};
use crate::db::models::{ExclusionRow, PhotoRow, PlayerRow, SeparationRow};
use crate::db::schema::{exclusions, player_photos, players, separations};
use crate::db::{next_seq, DbConn};
use crate::domain::age::room_date;
use crate::domain::eligibility::{eligible_to_play, separation_pair, Ban, Ineligible, PlayerFacts};
use crate::domain::error::Errors;
use crate::domain::player::{
    phone_region_of_zone, validate_player_in, CleanPlayer, PhoneRegion, PlayerInput, Warning,
};
use crate::domain::refusal::PlayerRefusal;
use crate::domain::FieldError;
use crate::error::{AppError, AppResult};
use crate::services::Act;
use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};
use chrono_tz::Tz;
use diesel::prelude::*;
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

/// Lower-case, accent-free text to search in ("João" is found by "joao").
pub fn fold(s: &str) -> String {
    deunicode::deunicode(s).to_lowercase()
}

fn search_key(p: &CleanPlayer) -> String {
    let phone = p.phone.as_deref().unwrap_or("");
    format!(
        "{} | {} | {} | {} | {}",
        fold(&p.full_name),
        fold(&p.alias),
        p.doc_number_norm.to_lowercase(),
        phone.trim_start_matches('+'),
        p.email.as_deref().unwrap_or("").to_lowercase()
    )
}

/// Escapes LIKE wildcards in user input.
fn like_pattern(q: &str) -> String {
    let mut out = String::from("%");
    for c in q.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('%');
    out
}

/// Search by name, alias, document number, phone or e-mail; every word must match.
pub fn search(conn: &mut DbConn, q: &str, limit: i64) -> AppResult<Vec<PlayerRow>> {
    let q = q.trim();
    if q.chars().count() > 100 {
        return Err(AppError::field("q", "err-search-too-long"));
    }
    let mut query = players::table.into_boxed();
    for word in fold(q).split_whitespace().take(5) {
        // Phone digits and document numbers are stored without separators.
        let w: String = if word.chars().any(|c| c.is_ascii_digit()) {
            word.chars().filter(|c| c.is_ascii_alphanumeric()).collect()
        } else {
            word.to_string()
        };
        if !w.is_empty() {
            query = query.filter(players::search_key.like(like_pattern(&w)).escape('\\'));
        }
    }
    Ok(query
        .order((players::full_name.asc(), players::id.asc()))
        .limit(limit)
        .select(PlayerRow::as_select())
        .load(conn)?)
}

/// Players whose document number is exactly this one (separators and case ignored).
pub fn by_document_number(conn: &mut DbConn, typed: &str) -> AppResult<Vec<PlayerRow>> {
    let norm = crate::domain::player::normalize_doc_number(typed);
    if norm.is_empty() {
        return Ok(Vec::new());
    }
    Ok(crate::native!(conn, |dbc| players::table
        .filter(players::doc_number_norm.eq(norm))
        .limit(5)
        .select(PlayerRow::as_select())
        .load(dbc))?)
}

/// A player as typed at the desk: `#12` (the player number), or a document number, or a
/// bare number that is no document's but is a player number. None when it is not exactly
/// one player.
pub fn find_typed(conn: &mut DbConn, typed: &str) -> AppResult<Option<i64>> {
    let t = typed.trim();
    // A type-ahead's entry ("Alias — Full Name (#37)") ends with the player's number.
    let t = t
        .strip_suffix(')')
        .and_then(|r| r.rsplit_once("(#"))
        .map(|(_, n)| n)
        .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        .map(|n| format!("#{n}"));
    let t = t.as_deref().unwrap_or(typed.trim());
    if let Some(n) = t.strip_prefix('#') {
        return Ok(n
            .trim()
            .parse::<i64>()
            .ok()
            .filter(|id| get(conn, *id).is_ok()));
    }
    match by_document_number(conn, t)?.as_slice() {
        [one] => return Ok(Some(one.id)),
        [_, _, ..] => return Ok(None),
        [] => {}
    }
    Ok(t.parse::<i64>().ok().filter(|id| get(conn, *id).is_ok()))
}

pub fn get(conn: &mut DbConn, id: i64) -> AppResult<PlayerRow> {
    Ok(crate::native!(conn, |dbc| players::table
        .find(id)
        .select(PlayerRow::as_select())
        .first(dbc))?)
}

pub fn count(conn: &mut DbConn) -> AppResult<i64> {
    Ok(crate::native!(conn, |dbc| players::table
        .count()
        .get_result(dbc))?)
}

fn duplicate_of(
    conn: &mut DbConn,
    p: &CleanPlayer,
    except: Option<i64>,
) -> AppResult<Option<PlayerRow>> {
    let mut q = players::table
        .filter(players::doc_kind.eq(p.doc_kind.as_str()))
        .filter(players::doc_country.eq(&p.doc_country))
        .filter(players::doc_number_norm.eq(&p.doc_number_norm))
        .into_boxed();
    if let Some(id) = except {
        q = q.filter(players::id.ne(id));
    }
    Ok(q.select(PlayerRow::as_select()).first(conn).optional()?)
}

fn duplicate_error(existing: &PlayerRow) -> AppError {
    AppError::from(PlayerRefusal::DuplicateDocument {
        id: existing.id,
        name: existing.full_name.clone(),
    })
}

fn store_photo(
    conn: &mut DbConn,
    player_id: i64,
    photo: &Photo,
    now: NaiveDateTime,
) -> AppResult<()> {
    crate::native!(conn, |dbc| diesel::delete(
        player_photos::table.find(player_id)
    )
    .execute(dbc))?;
    crate::native!(conn, |dbc| diesel::insert_into(player_photos::table)
        .values(&PhotoRow {
            player_id,
            content_type: "image/jpeg".into(),
            data: photo.jpeg.clone(),
            width: photo.width as i32,
            height: photo.height as i32,
            updated_at: now,
        })
        .execute(dbc))?;
    Ok(())
}

/// What the audit trail keeps of a photo: its size, not the image.
#[derive(Serialize)]
struct PhotoNote {
    photo_bytes: usize,
    width: u32,
    height: u32,
}

/// BSOP 1, 3: registers a player. A record without a photo is saved as incomplete (it can
/// never be seated until one is added; see [`eligibility`]).
pub fn create(
    conn: &mut DbConn,
    act: &Act,
    input: &PlayerInput,
    photo: Option<&Photo>,
) -> AppResult<(PlayerRow, Vec<Warning>)> {
    let (now, tz, actor) = (act.now, act.tz(), &act.actor);
    // A phone typed without a country code is one of the room's country.
    let region = phone_region_of_zone(tz.name());
    let (clean, warnings) = validate_player_in(input, room_date(now, tz), region.as_ref())?;
    if let Some(existing) = duplicate_of(conn, &clean, None)? {
        return Err(duplicate_error(&existing));
    }
    let id = next_seq(conn, "player")?;
    let t = now.naive_utc();
    let row = PlayerRow {
        id,
        search_key: search_key(&clean),
        full_name: clean.full_name,
        alias: clean.alias,
        date_of_birth: clean.date_of_birth,
        doc_kind: clean.doc_kind.to_string(),
        doc_number: clean.doc_number,
        doc_number_norm: clean.doc_number_norm,
        doc_country: clean.doc_country,
        doc_expiry: clean.doc_expiry,
        phone: clean.phone,
        email: clean.email,
        language: clean.language.to_string(),
        notify: clean.notify.to_string(),
        has_photo: photo.is_some(),
        link_token_version: 0,
        version: 1,
        created_at: t,
        updated_at: t,
    };
    crate::native!(conn, |dbc| diesel::insert_into(players::table)
        .values(&row)
        .execute(dbc))
    .map_err(|e| {
        if crate::db::is_unique_violation(&e) {
            AppError::from(PlayerRefusal::DuplicateDocumentConcurrent)
        } else {
            e.into()
        }
    })?;
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "player.create",
        "player",
        Some(id),
        None,
        Some(&row),
    )?;
    if let Some(p) = photo {
        store_photo(conn, id, p, t)?;
        let note = PhotoNote {
            photo_bytes: p.jpeg.len(),
            width: p.width,
            height: p.height,
        };
        audit::record::<(), _>(
            conn,
            now,
            actor,
            "player.photo",
            "player",
            Some(id),
            None,
            Some(&note),
        )?;
    }
    Ok((row, warnings))
}

/// Edits a player; the previous values are kept in the audit trail (the player's history).
/// `expected_version` refuses an edit made on a stale form (someone else saved meanwhile).
pub fn update(
    conn: &mut DbConn,
    act: &Act,
    id: i64,
    expected_version: Option<i32>,
    input: &PlayerInput,
    photo: Option<&Photo>,
) -> AppResult<(PlayerRow, Vec<Warning>)> {
    let (now, tz, actor) = (act.now, act.tz(), &act.actor);
    let before = get(conn, id)?;
    if let Some(v) = expected_version {
        if v != before.version {
            return Err(PlayerRefusal::StaleEdit.into());
        }
    }
    // A phone typed without a country code is one of the room's country.
    let region = phone_region_of_zone(tz.name());
    let (clean, warnings) = validate_player_in(input, room_date(now, tz), region.as_ref())?;
    if let Some(existing) = duplicate_of(conn, &clean, Some(id))? {
        return Err(duplicate_error(&existing));
    }
    let t = now.naive_utc();
    let after = PlayerRow {
        id,
        search_key: search_key(&clean),
        full_name: clean.full_name,
        alias: clean.alias,
        date_of_birth: clean.date_of_birth,
        doc_kind: clean.doc_kind.to_string(),
        doc_number: clean.doc_number,
        doc_number_norm: clean.doc_number_norm,
        doc_country: clean.doc_country,
        doc_expiry: clean.doc_expiry,
        phone: clean.phone,
        email: clean.email,
        language: clean.language.to_string(),
        notify: clean.notify.to_string(),
        has_photo: before.has_photo || photo.is_some(),
        link_token_version: before.link_token_version,
        version: before.version + 1,
        created_at: before.created_at,
        updated_at: t,
    };
    let n = crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(
            players::table
                .filter(players::id.eq(id))
                .filter(players::version.eq(before.version))
        )
        .set(&after)
        .returning(players::id)
    )
    .changed(dbc))?;
    if n != 1 {
        return Err(PlayerRefusal::StaleEdit.into());
    }
    audit::record(
        conn,
        now,
        actor,
        "player.update",
        "player",
        Some(id),
        Some(&before),
        Some(&after),
    )?;
    if let Some(p) = photo {
        store_photo(conn, id, p, t)?;
        let note = PhotoNote {
            photo_bytes: p.jpeg.len(),
            width: p.width,
            height: p.height,
        };
        audit::record::<(), _>(
            conn,
            now,
            actor,
            "player.photo",
            "player",
            Some(id),
            None,
            Some(&note),
        )?;
    }
    Ok((after, warnings))
}

/// Replaces a player's photo (the desk takes a new one).
pub fn set_photo(conn: &mut DbConn, act: &Act, id: i64, photo: &Photo) -> AppResult<PlayerRow> {
    let (now, actor) = (act.now, &act.actor);
    let before = get(conn, id)?;
    let t = now.naive_utc();
    store_photo(conn, id, photo, t)?;
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(players::table.find(id))
            .set((
                players::has_photo.eq(true),
                players::version.eq(before.version + 1),
                players::updated_at.eq(t)
            ))
            .returning(players::id)
    )
    .changed(dbc))?;
    let note = PhotoNote {
        photo_bytes: photo.jpeg.len(),
        width: photo.width,
        height: photo.height,
    };
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "player.photo",
        "player",
        Some(id),
        None,
        Some(&note),
    )?;
    get(conn, id)
}

pub fn photo(conn: &mut DbConn, id: i64) -> AppResult<PhotoRow> {
    Ok(crate::native!(conn, |dbc| player_photos::table
        .find(id)
        .select(PhotoRow::as_select())
        .first(dbc))?)
}

fn bans_of(conn: &mut DbConn, player_id: i64) -> AppResult<Vec<ExclusionRow>> {
    Ok(crate::native!(conn, |dbc| exclusions::table
        .filter(exclusions::player_id.eq(player_id))
        .order(exclusions::starts_at.desc())
        .select(ExclusionRow::as_select())
        .load(dbc))?)
}

fn as_ban(e: &ExclusionRow) -> Ban {
    Ban {
        starts_at: e.starts_at.and_utc(),
        ends_at: e.ends_at.map(|t| t.and_utc()),
        lifted_at: e.lifted_at.map(|t| t.and_utc()),
    }
}

/// The one check every seating path uses (BSOP 1, 2, 3, 10): empty means eligible.
pub fn eligibility(
    conn: &mut DbConn,
    player: &PlayerRow,
    now: DateTime<Utc>,
    tz: Tz,
) -> AppResult<Vec<Ineligible>> {
    let bans: Vec<Ban> = bans_of(conn, player.id)?.iter().map(as_ban).collect();
    Ok(eligible_with(player, &bans, now, tz))
}

/// [`eligibility`] of a player known to have no exclusion on record (in force or not): the
/// same answer without reading the exclusions.
pub fn eligibility_without_bans(player: &PlayerRow, now: DateTime<Utc>, tz: Tz) -> Vec<Ineligible> {
    eligible_with(player, &[], now, tz)
}

fn eligible_with(player: &PlayerRow, bans: &[Ban], now: DateTime<Utc>, tz: Tz) -> Vec<Ineligible> {
    let facts = PlayerFacts {
        date_of_birth: player.date_of_birth,
        doc_expiry: player.doc_expiry,
        has_photo: player.has_photo,
    };
    eligible_to_play(&facts, bans, now, room_date(now, tz))
}

/// Of these players, the ones with a ban in force now (for lists).
pub fn banned_now(
    conn: &mut DbConn,
    ids: &[i64],
    now: DateTime<Utc>,
) -> AppResult<std::collections::HashSet<i64>> {
    let rows: Vec<ExclusionRow> = crate::native!(conn, |dbc| exclusions::table
        .filter(exclusions::player_id.eq_any(ids))
        .filter(exclusions::lifted_at.is_null())
        .select(ExclusionRow::as_select())
        .load(dbc))?;
    Ok(rows
        .iter()
        .filter(|e| as_ban(e).in_force(now))
        .map(|e| e.player_id)
        .collect())
}

/// Exclusions of a player, newest first, with whether each is in force now.
pub fn exclusions_of(
    conn: &mut DbConn,
    player_id: i64,
    now: DateTime<Utc>,
) -> AppResult<Vec<(ExclusionRow, bool)>> {
    Ok(bans_of(conn, player_id)?
        .into_iter()
        .map(|e| {
            let on = as_ban(&e).in_force(now);
            (e, on)
        })
        .collect())
}

#[derive(Debug, Clone, Default, Deserialize, Serialize, utoipa::ToSchema)]
pub struct BanForm {
    #[schema(value_type = String, required = true, min_length = 1, max_length = 500, pattern = r"\S")]
    pub reason: Option<String>,
    /// Start (room's local time, `YYYY-MM-DDTHH:MM`); empty: now.
    pub starts_at: Option<String>,
    /// End (room's local time); empty: permanent.
    pub ends_at: Option<String>,
}

/// Reads a local date-time typed in the room's zone and converts it to UTC.
pub fn parse_local(field: &str, s: &str, tz: Tz) -> Result<DateTime<Utc>, FieldError> {
    let s = s.trim();
    // Four-digit years only (chrono would take "-5000" or "+20000", which databases refuse).
    let year_ok = s.len() >= 4
        && s.as_bytes()[..4].iter().all(u8::is_ascii_digit)
        && s.as_bytes().get(4) == Some(&b'-');
    if !year_ok || &s[..4] < "1900" {
        return Err(FieldError::new(field, "err-datetime"));
    }
    let naive = NaiveDateTime::parse_from_str(s, "%Y-%m-%dT%H:%M")
        .or_else(|_| NaiveDateTime::parse_from_str(s, "%Y-%m-%dT%H:%M:%S"))
        .or_else(|_| {
            NaiveDate::parse_from_str(s, "%Y-%m-%d")
                .map(|d| d.and_hms_opt(0, 0, 0).unwrap_or_default())
        })
        .map_err(|_| FieldError::new(field, "err-datetime"))?;
    naive
        .and_local_timezone(tz)
        .earliest()
        .map(|t| t.with_timezone(&Utc))
        .ok_or_else(|| FieldError::new(field, "err-datetime"))
}

fn reason(e: &mut Errors, v: &Option<String>) -> String {
    let r = v.as_deref().unwrap_or("").trim().to_string();
    if r.is_empty() {
        e.add("reason", "err-required");
    } else if r.chars().count() > 500 {
        e.push(FieldError::new("reason", "err-too-long").arg("max", 500));
    }
    r
}

/// BSOP 2, 10, 11: bans a player, from a start (default now) until an end or permanently.
pub fn ban(
    conn: &mut DbConn,
    act: &Act,
    player_id: i64,
    form: &BanForm,
) -> AppResult<ExclusionRow> {
    let (now, tz, actor) = (act.now, act.tz(), &act.actor);
    get(conn, player_id)?;
    let mut e = Errors::default();
    let reason = reason(&mut e, &form.reason);
    let starts = match form.starts_at.as_deref().filter(|s| !s.trim().is_empty()) {
        None => Some(now),
        Some(s) => parse_local("starts_at", s, tz).map_err(|x| e.push(x)).ok(),
    };
    let ends = match form.ends_at.as_deref().filter(|s| !s.trim().is_empty()) {
        None => None,
        Some(s) => parse_local("ends_at", s, tz).map_err(|x| e.push(x)).ok(),
    };
    if let (Some(s), Some(en)) = (starts, ends) {
        if en <= s {
            e.add("ends_at", "err-ban-end-before-start");
        } else if en <= now {
            e.add("ends_at", "err-ban-end-past");
        }
    }
    e.into_result(())?;
    let row = ExclusionRow {
        id: next_seq(conn, "exclusion")?,
        player_id,
        reason,
        starts_at: starts.unwrap_or(now).naive_utc(),
        ends_at: ends.map(|t| t.naive_utc()),
        created_by: actor.id,
        created_at: now.naive_utc(),
        lifted_at: None,
        lifted_by: None,
        lift_reason: None,
    };
    crate::native!(conn, |dbc| diesel::insert_into(exclusions::table)
        .values(&row)
        .execute(dbc))?;
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "player.ban",
        "player",
        Some(player_id),
        None,
        Some(&row),
    )?;
    Ok(row)
}

#[derive(Debug, Clone, Default, Deserialize, Serialize, utoipa::ToSchema)]
pub struct ReasonForm {
    #[schema(value_type = String, required = true, min_length = 1, max_length = 500, pattern = r"\S")]
    pub reason: Option<String>,
}

/// Lifts a ban (with a reason). Lifting one already lifted or ended is refused.
pub fn lift_ban(
    conn: &mut DbConn,
    act: &Act,
    exclusion_id: i64,
    form: &ReasonForm,
) -> AppResult<ExclusionRow> {
    let (now, actor) = (act.now, &act.actor);
    let before: ExclusionRow = crate::native!(conn, |dbc| exclusions::table
        .find(exclusion_id)
        .select(ExclusionRow::as_select())
        .first(dbc))?;
    let mut e = Errors::default();
    let why = reason(&mut e, &form.reason);
    e.into_result(())?;
    if before.lifted_at.is_some() || before.ends_at.is_some_and(|t| t.and_utc() <= now) {
        return Err(PlayerRefusal::BanNotActive.into());
    }
    let n = crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(
            exclusions::table
                .find(exclusion_id)
                .filter(exclusions::lifted_at.is_null())
        )
        .set((
            exclusions::lifted_at.eq(Some(now.naive_utc())),
            exclusions::lifted_by.eq(actor.id),
            exclusions::lift_reason.eq(Some(why)),
        ))
        .returning(exclusions::id)
    )
    .changed(dbc))?;
    if n != 1 {
        return Err(PlayerRefusal::BanNotActive.into());
    }
    let after: ExclusionRow = crate::native!(conn, |dbc| exclusions::table
        .find(exclusion_id)
        .select(ExclusionRow::as_select())
        .first(dbc))?;
    audit::record(
        conn,
        now,
        actor,
        "player.unban",
        "player",
        Some(before.player_id),
        Some(&before),
        Some(&after),
    )?;
    Ok(after)
}

#[derive(Debug, Clone, Default, Deserialize, Serialize, utoipa::ToSchema)]
pub struct SeparationForm {
    /// The other player's id.
    #[schema(value_type = i64, required = true)]
    pub other_player_id: Option<i64>,
    #[schema(value_type = String, required = true, min_length = 1, max_length = 500, pattern = r"\S")]
    pub reason: Option<String>,
}

/// BSOP 47: records that two players must never sit at the same table.
pub fn separate(
    conn: &mut DbConn,
    act: &Act,
    player_id: i64,
    form: &SeparationForm,
) -> AppResult<SeparationRow> {
    let (now, actor) = (act.now, &act.actor);
    get(conn, player_id)?;
    let mut e = Errors::default();
    let why = reason(&mut e, &form.reason);
    let other = match form.other_player_id {
        None => {
            e.add("other_player_id", "err-required");
            0
        }
        Some(o) => o,
    };
    e.into_result(())?;
    let Some((a, b)) = separation_pair(player_id, other) else {
        return Err(AppError::field("other_player_id", "err-separation-self"));
    };
    if crate::native!(conn, |dbc| players::table
        .find(other)
        .count()
        .get_result::<i64>(dbc))?
        == 0
    {
        return Err(AppError::field("other_player_id", "err-player-unknown"));
    }
    let exists: i64 = crate::native!(conn, |dbc| separations::table
        .filter(separations::player_a.eq(a))
        .filter(separations::player_b.eq(b))
        .filter(separations::removed_at.is_null())
        .count()
        .get_result(dbc))?;
    if exists > 0 {
        return Err(PlayerRefusal::SeparationExists.into());
    }
    let row = SeparationRow {
        id: next_seq(conn, "separation")?,
        player_a: a,
        player_b: b,
        reason: why,
        created_by: actor.id,
        created_at: now.naive_utc(),
        removed_at: None,
        removed_by: None,
    };
    crate::native!(conn, |dbc| diesel::insert_into(separations::table)
        .values(&row)
        .execute(dbc))
    .map_err(|e| {
        if crate::db::is_unique_violation(&e) {
            AppError::from(PlayerRefusal::SeparationExists)
        } else {
            e.into()
        }
    })?;
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "player.separate",
        "player",
        Some(a),
        None,
        Some(&row),
    )?;
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "player.separate",
        "player",
        Some(b),
        None,
        Some(&row),
    )?;
    Ok(row)
}

pub fn remove_separation(conn: &mut DbConn, act: &Act, id: i64) -> AppResult<SeparationRow> {
    let (now, actor) = (act.now, &act.actor);
    let before: SeparationRow = crate::native!(conn, |dbc| separations::table
        .find(id)
        .select(SeparationRow::as_select())
        .first(dbc))?;
    let n = crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(
            separations::table
                .find(id)
                .filter(separations::removed_at.is_null())
        )
        .set((
            separations::removed_at.eq(Some(now.naive_utc())),
            separations::removed_by.eq(actor.id)
        ))
        .returning(separations::id)
    )
    .changed(dbc))?;
    if n != 1 {
        return Err(PlayerRefusal::SeparationRemoved.into());
    }
    let after: SeparationRow = crate::native!(conn, |dbc| separations::table
        .find(id)
        .select(SeparationRow::as_select())
        .first(dbc))?;
    audit::record(
        conn,
        now,
        actor,
        "player.unseparate",
        "player",
        Some(before.player_a),
        Some(&before),
        Some(&after),
    )?;
    audit::record(
        conn,
        now,
        actor,
        "player.unseparate",
        "player",
        Some(before.player_b),
        Some(&before),
        Some(&after),
    )?;
    Ok(after)
}

/// BSOP 47: the players this one must never sit with (active separations), with the row.
pub fn separations_of(
    conn: &mut DbConn,
    player_id: i64,
) -> AppResult<Vec<(SeparationRow, PlayerRow)>> {
    let rows: Vec<SeparationRow> = crate::native!(conn, |dbc| separations::table
        .filter(
            separations::player_a
                .eq(player_id)
                .or(separations::player_b.eq(player_id))
        )
        .filter(separations::removed_at.is_null())
        .order(separations::created_at.desc())
        .select(SeparationRow::as_select())
        .load(dbc))?;
    let mut out = Vec::with_capacity(rows.len());
    for r in rows {
        let other = if r.player_a == player_id {
            r.player_b
        } else {
            r.player_a
        };
        out.push((r, get(conn, other)?));
    }
    Ok(out)
}

/// One list's outcome in [`join_lists`].
#[derive(Debug)]
pub struct ListJoin {
    pub game_id: i64,
    /// The game's name, to say which list (the id when there is no such game).
    pub game: String,
    pub result: AppResult<crate::db::models::WaitlistRow>,
}

/// "add to a list from the player's record": adds the player to several games'
/// lists at once, each through [`super::floor::join`] — the floor's own join, with its rules
/// (BSOP 1-3, 10 eligibility, BSOP 55 return window, one entry per list), audit record
/// (`list.join`), live update and message to the player. Each join runs in its own savepoint:
/// a list that refuses is undone alone and named in the outcome, the others are joined (a
/// floor manager at the desk wants the player on every list that can take them). Errors
/// other than a refusal (the database) end the whole write.
pub fn join_lists(
    conn: &mut DbConn,
    act: &Act,
    player_id: i64,
    game_ids: &[i64],
    call_in: bool,
) -> AppResult<Vec<ListJoin>> {
    // An unknown player is the request's refusal, not each list's.
    get(conn, player_id)?;
    let mut out = Vec::with_capacity(game_ids.len());
    for &game_id in game_ids {
        let game = super::games::get_game(conn, game_id)
            .map(|g| g.name)
            .unwrap_or_else(|_| format!("#{game_id}"));
        let result = crate::db::savepoint(conn, |c| {
            super::floor::join(c, act, game_id, player_id, call_in)
        });
        match result {
            Err(e @ (AppError::Conflict(_) | AppError::Validation(_) | AppError::NotFound)) => out
                .push(ListJoin {
                    game_id,
                    game,
                    result: Err(e),
                }),
            Err(e) => return Err(e),
            Ok(row) => out.push(ListJoin {
                game_id,
                game,
                result: Ok(row),
            }),
        }
    }
    Ok(out)
}

/// The games whose lists the player is on now (waiting or called): the record shows them
/// ticked and not to be ticked again.
pub fn lists_of(conn: &mut DbConn, player_id: i64) -> AppResult<Vec<i64>> {
    use crate::db::schema::waitlist_entries as w;
    // The same states as the floor's "active entry" (`services::floor`).
    Ok(crate::native!(conn, |dbc| w::table
        .filter(w::player_id.eq(player_id))
        .filter(crate::db::conditions::EntryActive)
        .select(w::game_id)
        .distinct()
        .load(dbc))?)
}
