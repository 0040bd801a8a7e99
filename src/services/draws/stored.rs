//! Stored draws: recorded with their seed, inputs and result, read back, and replayed to
//! settle a dispute.

use crate::db::audit::{self};
use crate::db::models::DrawRow;
use crate::db::schema::draws;
use crate::db::{next_seq, DbConn};
use crate::domain::draw::Draw;
use crate::domain::ids::GameId;
use crate::domain::ids::TableId;
use crate::error::{AppError, AppResult};
use crate::services::Act;
use diesel::prelude::*;
use serde::Serialize;

pub(super) fn draw_error(e: crate::domain::draw::DrawError) -> AppError {
    AppError::Conflict(e.problem())
}

/// Stores a draw (kind, seed, the whole record as inputs, the result) and audits it.
pub fn record(
    conn: &mut DbConn,
    act: &Act,
    d: &Draw,
    game_id: Option<GameId>,
    table_id: Option<TableId>,
) -> AppResult<DrawRow> {
    let (now, actor) = (act.now, &act.actor);
    let full = serde_json::to_value(d).map_err(|e| AppError::internal_from("a draw as JSON", e))?;
    let row = DrawRow {
        id: next_seq(conn, "draw")?,
        kind: d.kind(),
        seed: d.seed().to_i64(),
        inputs: full.to_string(),
        result: full
            .get("result")
            .map(|r| r.to_string())
            .unwrap_or_default(),
        game_id,
        table_id,
        created_at: now.naive_utc(),
        created_by: actor.id,
    };
    diesel::insert_into(draws::table)
        .values(&row)
        .execute(conn)?;
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "draw.record",
        "table",
        table_id.map(TableId::get),
        None,
        Some(&row),
    )?;
    Ok(row)
}

pub fn get(conn: &mut DbConn, id: i64) -> AppResult<DrawRow> {
    Ok(draws::table
        .find(id)
        .select(DrawRow::as_select())
        .first(conn)?)
}

/// The PT-2007 27 draw of who plays made in the same write as draw `id` (at the same table
/// and instant, just before it), if any.
pub fn who_played_before(conn: &mut DbConn, id: i64) -> AppResult<Option<i64>> {
    let row = get(conn, id)?;
    Ok(draws::table
        .filter(draws::id.lt(id))
        .filter(draws::kind.eq(crate::domain::draw::DrawKind::Oversubscribed))
        .filter(draws::created_at.eq(row.created_at))
        .filter(draws::table_id.eq(row.table_id))
        .select(draws::id)
        .order(draws::id.desc())
        .first::<i64>(conn)
        .optional()?)
}

/// A stored draw replayed: whether the recomputation gives the stored result.
#[derive(Debug, Clone, Serialize)]
pub struct Replay {
    pub draw: DrawRow,
    pub matches: bool,
}

/// Replays a stored draw from its seed and inputs and compares with the stored result.
pub fn replay(conn: &mut DbConn, id: i64) -> AppResult<Replay> {
    let row = get(conn, id)?;
    let stored: Option<Draw> = serde_json::from_str(&row.inputs).ok();
    let matches = stored.is_some_and(|d| {
        let result_same = serde_json::to_value(&d)
            .ok()
            .and_then(|v| v.get("result").map(|r| r.to_string()))
            == Some(row.result.clone());
        d.verify() && result_same && d.seed().to_i64() == row.seed
    });
    Ok(Replay { draw: row, matches })
}

/// The draws recorded at a table (a table's own, not its game's suit draws), newest first.
pub fn of_table(conn: &mut DbConn, table_id: TableId) -> AppResult<Vec<i64>> {
    crate::services::games::get_table(conn, table_id)?;
    Ok(draws::table
        .filter(draws::table_id.eq(table_id))
        .order(draws::id.desc())
        .select(draws::id)
        .load(conn)?)
}

/// A stored draw and its replay side by side: the result as recorded and the result the
/// domain code computes again now from the recorded kind, seed and inputs alone.
#[derive(Debug, Clone, Serialize)]
pub struct SideBySide {
    pub draw: DrawRow,
    /// The result as stored.
    pub stored: serde_json::Value,
    /// The result recomputed from the seed and inputs (none when the record cannot be read
    /// or its inputs no longer make a draw: `problem` says why).
    pub replayed: Option<serde_json::Value>,
    /// Both results are the same, and the record verifies whole (kind, seed and inputs).
    pub matches: bool,
    /// Why nothing could be replayed (a catalog key).
    pub problem: Option<&'static str>,
}

/// Replays a stored draw and gives both results to compare (see [`replay`]).
pub fn side_by_side(conn: &mut DbConn, id: i64) -> AppResult<SideBySide> {
    let Replay { draw, matches } = replay(conn, id)?;
    let stored = serde_json::from_str(&draw.result).unwrap_or(serde_json::Value::Null);
    let (replayed, problem) = match serde_json::from_str::<Draw>(&draw.inputs) {
        Err(_) => (None, Some("draw-unreadable")),
        Ok(d) => match d.replay() {
            Ok(again) => (
                serde_json::to_value(&again)
                    .ok()
                    .and_then(|v| v.get("result").cloned()),
                None,
            ),
            Err(e) => (None, Some(e.key())),
        },
    };
    Ok(SideBySide {
        draw,
        stored,
        replayed,
        matches,
        problem,
    })
}

/// The newest draw of each table (table id → draw id), for the links from the tables.
pub fn latest_by_table(conn: &mut DbConn) -> AppResult<std::collections::HashMap<TableId, i64>> {
    use diesel::dsl::max;
    let rows: Vec<(Option<TableId>, Option<i64>)> = draws::table
        .filter(draws::table_id.is_not_null())
        .group_by(draws::table_id)
        .select((draws::table_id, max(draws::id)))
        .load(conn)?;
    let mut latest: std::collections::HashMap<TableId, i64> = rows
        .into_iter()
        .filter_map(|(t, d)| Some((t?, d?)))
        .collect();
    // A draw by suits fills several tables and is recorded for the game (no table of its
    // own): its tables are in its inputs. The newest few are enough (a table's newest draw).
    let suits: Vec<(i64, String)> = draws::table
        .filter(draws::kind.eq(crate::domain::draw::DrawKind::Suit))
        .order(draws::id.desc())
        .limit(50)
        .select((draws::id, draws::inputs))
        .load(conn)?;
    for (id, inputs) in suits {
        if let Ok(Draw::Suit { inputs, .. }) = serde_json::from_str::<Draw>(&inputs) {
            for t in inputs.tables {
                let newest = latest.entry(TableId(t.table)).or_insert(id);
                *newest = (*newest).max(id);
            }
        }
    }
    Ok(latest)
}
