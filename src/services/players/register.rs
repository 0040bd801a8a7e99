//! Registering a player and editing their details and photo (BSOP 1, 3), refusing a duplicate.

use super::search::{get, search_key};
use crate::db::audit::{self};
use crate::db::models::{PhotoRow, PlayerRow};
use crate::db::schema::{player_photos, players};
use crate::db::{next_seq, DbConn};
use crate::domain::age::room_date;
use crate::domain::ids::PlayerId;
use crate::domain::player::{
    phone_region_of_zone, validate_player_in, CleanPlayer, PlayerInput, Warning,
};
use crate::domain::refusal::PlayerRefusal;
use crate::error::{AppError, AppResult};
use crate::services::photo::Photo;
use crate::services::Act;
use chrono::NaiveDateTime;
use diesel::prelude::*;
use serde::Serialize;

fn duplicate_of(
    conn: &mut DbConn,
    p: &CleanPlayer,
    except: Option<PlayerId>,
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
        id: existing.id.get(),
        name: existing.full_name.clone(),
    })
}

fn store_photo(
    conn: &mut DbConn,
    player_id: PlayerId,
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
        id: PlayerId(id),
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
        store_photo(conn, PlayerId(id), p, t)?;
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
    id: PlayerId,
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
        Some(id.get()),
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
            Some(id.get()),
            None,
            Some(&note),
        )?;
    }
    Ok((after, warnings))
}

/// Replaces a player's photo (the desk takes a new one).
pub fn set_photo(
    conn: &mut DbConn,
    act: &Act,
    id: PlayerId,
    photo: &Photo,
) -> AppResult<PlayerRow> {
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
        Some(id.get()),
        None,
        Some(&note),
    )?;
    get(conn, id)
}

pub fn photo(conn: &mut DbConn, id: PlayerId) -> AppResult<PhotoRow> {
    Ok(crate::native!(conn, |dbc| player_photos::table
        .find(id)
        .select(PhotoRow::as_select())
        .first(dbc))?)
}
