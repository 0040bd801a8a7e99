//! Drawing a special button among the table's occupied seats (BSOP 115, 116).

use super::buttons::{game_of, in_play, kind_of, settings_of, REASON_MAX};
use crate::db::audit::{self};
use crate::db::models::{DrawRow, GameRow, SpecialButtonRow};
use crate::db::schema::special_buttons;
use crate::db::{next_seq, DbConn};
use crate::domain::draw::{Draw, DrawSeed, SeatAssignment};
use crate::domain::ids::TableId;
use crate::domain::refusal::ButtonRefusal;
use crate::domain::special_buttons::SpecialButton;
use crate::domain::table::TableState;
use crate::domain::{FieldError, Problem};
use crate::error::{AppError, AppResult};
use crate::services::floor::emit;
use crate::services::Act;
use diesel::prelude::*;
use serde::Serialize;

/// What a draw of a special button gave.
#[derive(Debug, Clone, Serialize)]
pub struct Drawn {
    pub button: SpecialButtonRow,
    pub draw: DrawRow,
    /// The row it replaced (a redraw).
    pub replaced: Option<SpecialButtonRow>,
}

/// BSOP 115, 116: draws where a special button starts, among the table's occupied seats (the
/// temporary extra seat of BSOP 50 left out: it goes when someone leaves), the other special
/// button's seat left out while another seat remains. Refused (nothing changed) at a table
/// that is not open or running, for a game that does not run the button, with fewer than two
/// players seated; drawn again only with a `reason` (422 on `reason` without one). The draw
/// is recorded with its seed ([`crate::services::draws::record`]), the button placed, a redraw
/// keeping the Macaca's chips and a waiting hand; audited `table.special_draw`, pushed
/// `table.special_button`.
pub fn draw(
    conn: &mut DbConn,
    act: &Act,
    table_id: TableId,
    kind: SpecialButton,
    reason: Option<&str>,
) -> AppResult<Drawn> {
    let (now, actor) = (act.now, &act.actor);
    let t = crate::services::games::get_table(conn, table_id)?;
    if !matches!(t.state, TableState::Open | TableState::Running) {
        return Err(ButtonRefusal::TableState {
            rule: kind.rule(),
            table: t.number,
        }
        .into());
    }
    let g = game_of(conn, &t)?;
    let settings = settings_of(&g);
    if !settings.runs(kind) {
        return Err(AppError::Conflict(off(kind, &g)));
    }
    let reason = checked_reason(reason)?;
    let playing = in_play(conn, &t)?;
    let current = playing.iter().find(|b| kind_of(b) == Some(kind)).cloned();
    if current.is_some() && reason.is_none() {
        return Err(AppError::Validation(vec![FieldError::new(
            "reason",
            "err-buttons-reason",
        )
        .arg("rule", kind.rule())]));
    }
    let seats = seats_to_draw(conn, &t, kind, &settings, &playing)?;
    let d = Draw::special_button(DrawSeed::random(), kind, &seats)
        .map_err(|e| AppError::Conflict(e.problem()))?;
    let Draw::SpecialButton { result, .. } = &d else {
        return Err(AppError::internal("special button draw kind"));
    };
    let seat = result.seat;
    let row = crate::services::draws::record(conn, act, &d, t.game_id, Some(table_id))?;
    let placing = Placing {
        kind,
        seat,
        draw_id: row.id,
        reason,
        current: current.as_ref(),
    };
    let button = place_button(conn, act, table_id, &placing)?;
    audit::record(
        conn,
        now,
        actor,
        "table.special_draw",
        "table",
        Some(table_id.get()),
        current.as_ref(),
        Some(&button),
    )?;
    emit(
        conn,
        now,
        Some(table_id),
        "table.special_button",
        &serde_json::json!({ "table": t.number, "kind": kind, "seat": seat, "draw_id": row.id }),
    )?;
    Ok(Drawn {
        button,
        draw: row,
        replaced: current,
    })
}

/// The reason for a redraw, trimmed (none when empty), at most [`REASON_MAX`] characters.
fn checked_reason(reason: Option<&str>) -> AppResult<Option<&str>> {
    let reason = reason.map(str::trim).filter(|r| !r.is_empty());
    if let Some(r) = reason {
        if r.chars().count() > REASON_MAX {
            return Err(AppError::Validation(vec![FieldError::new(
                "reason",
                "err-too-long",
            )
            .arg("max", REASON_MAX)]));
        }
    }
    Ok(reason)
}

/// The occupied seats the button is drawn among (the extra seat left out), at least two.
fn seats_to_draw(
    conn: &mut DbConn,
    t: &crate::db::models::TableRow,
    kind: SpecialButton,
    settings: &crate::domain::special_buttons::Settings,
    playing: &[SpecialButtonRow],
) -> AppResult<Vec<SeatAssignment>> {
    let mut seats: Vec<SeatAssignment> = crate::services::floor::seated_at(conn, t.id)?
        .iter()
        .filter(|s| s.seat_no <= t.seats)
        .map(|s| SeatAssignment {
            player: s.player_id,
            seat: s.seat_no,
        })
        .collect();
    if seats.len() < 2 {
        return Err(ButtonRefusal::NeedsPlayers { rule: kind.rule() }.into());
    }
    // Two special games should not fall on one seat: the other button's seat is left out.
    if let Some(other) = playing
        .iter()
        .find(|b| kind_of(b) == Some(kind.other()) && settings.runs(kind.other()))
    {
        if seats.iter().any(|a| a.seat != other.seat_no) {
            seats.retain(|a| a.seat != other.seat_no);
        }
    }
    Ok(seats)
}

/// Where the draw put the button, and the button it replaces (a redraw, with its reason).
struct Placing<'a> {
    kind: SpecialButton,
    seat: i32,
    draw_id: i64,
    reason: Option<&'a str>,
    current: Option<&'a SpecialButtonRow>,
}

/// The button placed at the seat drawn.
fn place_button(
    conn: &mut DbConn,
    act: &Act,
    table_id: TableId,
    p: &Placing<'_>,
) -> AppResult<SpecialButtonRow> {
    let (now, kind, current) = (act.now, p.kind, p.current);
    // The row in play (or one left from an earlier opening of the table) is replaced.
    diesel::update(
        special_buttons::table
            .filter(special_buttons::table_id.eq(table_id))
            .filter(special_buttons::kind.eq(kind))
            .filter(special_buttons::ended_at.is_null()),
    )
    .set(special_buttons::ended_at.eq(Some(now.naive_utc())))
    .execute(conn)?;
    let button = SpecialButtonRow {
        id: next_seq(conn, "special_button")?,
        table_id,
        kind,
        seat_no: p.seat,
        draw_id: p.draw_id,
        drawn_at: now.naive_utc(),
        drawn_by: act.actor.id,
        reason: p.reason.map(str::to_string),
        // A redraw moves the button, not what it carries: a hand already due is still due,
        // and the Macaca keeps her chips.
        pending: current.is_some_and(|c| c.pending),
        bank: current.map(|c| c.bank).unwrap_or(0),
        ended_at: None,
    };
    diesel::insert_into(special_buttons::table)
        .values(&button)
        .execute(conn)?;
    Ok(button)
}

/// The refusal for a button the game does not run.
fn off(kind: SpecialButton, g: &GameRow) -> Problem {
    Problem::from(ButtonRefusal::Off {
        rule: kind.rule(),
        game: g.name.clone(),
    })
}
