//! Finding players: by name or alias as typed, by document number, one by id, how many.

use crate::db::models::PlayerRow;
use crate::db::schema::players;
use crate::db::DbConn;
use crate::domain::ids::PlayerId;
use crate::domain::player::CleanPlayer;
use crate::error::{AppError, AppResult};
use diesel::prelude::*;

/// Lower-case, accent-free text to search in ("João" is found by "joao").
pub fn fold(s: &str) -> String {
    deunicode::deunicode(s).to_lowercase()
}

pub(super) fn search_key(p: &CleanPlayer) -> String {
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
pub fn find_typed(conn: &mut DbConn, typed: &str) -> AppResult<Option<PlayerId>> {
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
            .parse::<PlayerId>()
            .ok()
            .filter(|id| get(conn, *id).is_ok()));
    }
    match by_document_number(conn, t)?.as_slice() {
        [one] => return Ok(Some(one.id)),
        [_, _, ..] => return Ok(None),
        [] => {}
    }
    Ok(t.parse::<PlayerId>()
        .ok()
        .filter(|id| get(conn, *id).is_ok()))
}

pub fn get(conn: &mut DbConn, id: PlayerId) -> AppResult<PlayerRow> {
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
