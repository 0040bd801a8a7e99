//! The button draw (BSOP 48, 79): a high card per seated player.

use super::stored::{draw_error, record};
use crate::db::models::DrawRow;
use crate::db::schema::card_tables;
use crate::db::DbConn;
use crate::domain::draw::{Draw, DrawSeed, HighCardPurpose};
use crate::domain::ids::PlayerId;
use crate::domain::ids::TableId;
use crate::domain::refusal::DrawRefusal;
use crate::error::{AppError, AppResult};
use crate::services::floor;
use crate::services::Act;
use diesel::prelude::*;

/// BSOP 48, 79: a high card per seated player (dealt clockwise from seat 1) decides the
/// button; the winner's seat gets it, at a table in play (open, running or suspended).
/// Recorded like every draw.
pub fn button(conn: &mut DbConn, act: &Act, table_id: TableId) -> AppResult<(DrawRow, i32)> {
    let now = act.now;
    let t = crate::services::games::get_table(conn, table_id)?;
    if !t.state.in_play() {
        return Err(DrawRefusal::TableNotInPlay.into());
    }
    let seated = floor::seated_at(conn, table_id)?;
    if seated.len() < 2 {
        return Err(DrawRefusal::ButtonNeedsPlayers.into());
    }
    let players: Vec<PlayerId> = seated.iter().map(|s| s.player_id).collect();
    let d = Draw::high_card(DrawSeed::random(), HighCardPurpose::Button, &players)
        .map_err(draw_error)?;
    let Draw::HighCard { result, .. } = &d else {
        return Err(AppError::internal("high card kind"));
    };
    let winner = result
        .winner()
        .ok_or_else(|| AppError::internal("empty draw"))?;
    let seat = seated
        .iter()
        .find(|s| s.player_id == winner)
        .map(|s| s.seat_no)
        .unwrap_or(1);
    let row = record(conn, act, &d, t.game_id, Some(table_id))?;
    diesel::update(card_tables::table.find(table_id))
        .set(card_tables::button_seat.eq(Some(seat)))
        .execute(conn)?;
    floor::emit(
        conn,
        now,
        Some(table_id),
        "table.button",
        &serde_json::json!({ "table": t.number, "seat": seat, "draw_id": row.id }),
    )?;
    Ok((row, seat))
}
