//! The game's special buttons and the table's buttons in play; closing the table settles the
//! Macaca's chips.

use crate::db::audit::{self};
use crate::db::models::{GameRow, SpecialButtonRow, TableRow};
use crate::db::schema::special_buttons;
use crate::db::DbConn;
use crate::domain::refusal::TableRefusal;
use crate::domain::special_buttons::{Settings, SpecialButton};
use crate::error::AppResult;
use crate::services::floor::emit;
use crate::services::Act;
use diesel::prelude::*;

/// The longest reason for drawing a button again.
pub const REASON_MAX: usize = 200;

/// The table's big blind now, from which every special amount is computed (the
/// contributions, the Macaca's cap): the table's own limits (PT-2007 22, BSOP 34), read
/// through [`crate::services::limits::of`].
pub fn table_big_blind(conn: &mut DbConn, t: &TableRow) -> AppResult<i64> {
    let g = game_of(conn, t)?;
    Ok(crate::services::limits::of(t, Some(&g))
        .map(|l| l.big_blind)
        .unwrap_or(g.big_blind))
}

pub(super) fn game_of(conn: &mut DbConn, t: &TableRow) -> AppResult<GameRow> {
    let g = t.game_id.ok_or(TableRefusal::NoGame)?;
    crate::services::games::get_game(conn, g)
}

/// A game's special buttons.
pub fn settings_of(g: &GameRow) -> Settings {
    Settings {
        cucurucho: g.cucurucho,
        cucurucho_bb: g.cucurucho_bb,
        macaca: g.macaca,
        macaca_bb: g.macaca_bb,
        macaca_cap_bb: g.macaca_cap_bb,
    }
}

pub(super) fn kind_of(row: &SpecialButtonRow) -> Option<SpecialButton> {
    Some(row.kind)
}

/// The table closed (PT-2007 24): its special buttons end with it (a reopened table draws
/// them again, BSOP 115, 116). A Macaca still holding chips is ended with them said in the
/// audit trail and pushed to the floor (`table.macaca_closed`, the amount to settle), so
/// the players' contributions never vanish without a record.
pub fn on_close(conn: &mut DbConn, act: &Act, t: &TableRow) -> AppResult<()> {
    let (now, actor) = (act.now, &act.actor);
    let playing = in_play(conn, t)?;
    if playing.is_empty() {
        return Ok(());
    }
    diesel::update(
        special_buttons::table
            .filter(special_buttons::table_id.eq(t.id))
            .filter(special_buttons::ended_at.is_null()),
    )
    .set(special_buttons::ended_at.eq(Some(now.naive_utc())))
    .execute(conn)?;
    for b in playing.iter().filter(|b| b.bank > 0) {
        audit::record(
            conn,
            now,
            actor,
            "table.macaca_closed",
            "table",
            Some(t.id.get()),
            Some(b),
            Some(&serde_json::json!({ "rule": "BSOP 116", "bank": b.bank, "closed_at": now })),
        )?;
        emit(
            conn,
            now,
            Some(t.id),
            "table.macaca_closed",
            &serde_json::json!({ "table": t.number, "bank": b.bank }),
        )?;
    }
    Ok(())
}

/// The table's special buttons in play: drawn since the table was opened (a table closed and
/// opened again starts without them) and not drawn again since.
pub fn in_play(conn: &mut DbConn, t: &TableRow) -> AppResult<Vec<SpecialButtonRow>> {
    let mut q = special_buttons::table
        .filter(special_buttons::table_id.eq(t.id))
        .filter(special_buttons::ended_at.is_null())
        .into_boxed();
    if let Some(opened) = t.opened_at {
        q = q.filter(special_buttons::drawn_at.ge(opened));
    }
    let mut rows: Vec<SpecialButtonRow> = q
        .order(special_buttons::kind.asc())
        .select(SpecialButtonRow::as_select())
        .load(conn)?;
    rows.retain(|b| kind_of(b).is_some());
    Ok(rows)
}
