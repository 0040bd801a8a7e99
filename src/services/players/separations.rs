//! Separations (BSOP 47): two players who may not sit at the same table.

use super::exclusions::reason;
use super::search::get;
use crate::db::audit::{self};
use crate::db::models::{PlayerRow, SeparationRow};
use crate::db::schema::{players, separations};
use crate::db::{next_seq, DbConn};
use crate::domain::eligibility::separation_pair;
use crate::domain::error::Errors;
use crate::domain::ids::PlayerId;
use crate::domain::refusal::PlayerRefusal;
use crate::error::{AppError, AppResult};
use crate::services::Act;
use diesel::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, Deserialize, Serialize, utoipa::ToSchema)]
pub struct SeparationForm {
    /// The other player's id.
    #[schema(value_type = i64, required = true)]
    pub other_player_id: Option<PlayerId>,
    #[schema(value_type = String, required = true, min_length = 1, max_length = 500, pattern = r"\S")]
    pub reason: Option<String>,
}

/// BSOP 47: records that two players must never sit at the same table.
pub fn separate(
    conn: &mut DbConn,
    act: &Act,
    player_id: PlayerId,
    form: &SeparationForm,
) -> AppResult<SeparationRow> {
    let (now, actor) = (act.now, &act.actor);
    get(conn, player_id)?;
    let mut e = Errors::default();
    let why = reason(&mut e, &form.reason);
    let other = match form.other_player_id {
        None => {
            e.add("other_player_id", "err-required");
            PlayerId(0)
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
        Some(a.get()),
        None,
        Some(&row),
    )?;
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "player.separate",
        "player",
        Some(b.get()),
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
        Some(before.player_a.get()),
        Some(&before),
        Some(&after),
    )?;
    audit::record(
        conn,
        now,
        actor,
        "player.unseparate",
        "player",
        Some(before.player_b.get()),
        Some(&before),
        Some(&after),
    )?;
    Ok(after)
}

/// BSOP 47: the players this one must never sit with (active separations), with the row.
pub fn separations_of(
    conn: &mut DbConn,
    player_id: PlayerId,
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
