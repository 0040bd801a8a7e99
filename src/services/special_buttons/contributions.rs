//! During a special hand: the seats marked in or out, and the Macaca's result.

use super::buttons::{game_of, in_play};
use super::hands::{current_hand, special_hand_at};
use crate::db::audit::{self};
use crate::db::models::{SpecialContributionRow, SpecialHandRow, TableRow};
use crate::db::schema::{special_buttons, special_contributions, special_hands};
use crate::db::DbConn;
use crate::domain::ids::TableId;
use crate::domain::money;
use crate::domain::refusal::{ButtonRefusal, GeneralRefusal};
use crate::domain::special_buttons::{Macaca, MacacaOutcome, SpecialButton};
use crate::domain::FieldError;
use crate::error::{AppError, AppResult};
use crate::services::floor::emit;
use crate::services::Act;
use diesel::prelude::*;

/// Changes to a special hand are made while it is being played: until the next "new hand"
/// tap ends it.
fn check_still_played(conn: &mut DbConn, s: &SpecialHandRow) -> AppResult<()> {
    match current_hand(conn, s.table_id)? {
        Some(h) if h.id == s.hand_id => Ok(()),
        _ => Err(ButtonRefusal::HandOver.into()),
    }
}

fn contributions_of(
    conn: &mut DbConn,
    special_hand_id: i64,
) -> AppResult<Vec<SpecialContributionRow>> {
    Ok(special_contributions::table
        .filter(special_contributions::special_hand_id.eq(special_hand_id))
        .order(special_contributions::seat_no.asc())
        .select(SpecialContributionRow::as_select())
        .load(conn)?)
}

/// BSOP 115, 116: the dealer marks the player of `seat` as taking part in the special hand
/// (putting the fixed contribution) or not (e.g. away). Only while the hand is being played;
/// marking a seat as it already is changes nothing (and records nothing). A Macaca whose
/// result is already recorded has her stake and what she keeps computed again with the same
/// result. Audited `table.special_contribution`, pushed.
pub fn mark(
    conn: &mut DbConn,
    act: &Act,
    table_id: TableId,
    special_hand_id: i64,
    seat: i32,
    took_part: bool,
) -> AppResult<SpecialContributionRow> {
    let (now, actor) = (act.now, &act.actor);
    let s = special_hand_at(conn, table_id, special_hand_id)?;
    let before: SpecialContributionRow = special_contributions::table
        .filter(special_contributions::special_hand_id.eq(s.id))
        .filter(special_contributions::seat_no.eq(seat))
        .select(SpecialContributionRow::as_select())
        .first(conn)?;
    check_still_played(conn, &s)?;
    if before.took_part == took_part {
        return Ok(before);
    }
    diesel::update(special_contributions::table.find(before.id))
        .set((
            special_contributions::took_part.eq(took_part),
            special_contributions::marked_at.eq(Some(now.naive_utc())),
            special_contributions::marked_by.eq(actor.id),
        ))
        .execute(conn)?;
    let after = SpecialContributionRow {
        took_part,
        marked_at: Some(now.naive_utc()),
        marked_by: actor.id,
        ..before.clone()
    };
    let t = crate::services::games::get_table(conn, table_id)?;
    // BSOP 116: the Macaca's chips follow the contributions.
    let settled = match s.outcome {
        Some(outcome) => {
            let rows = contributions_of(conn, s.id)?;
            let m = macaca_of(&s, &rows)?;
            let bank_after = m.after(outcome, s.collected).map_err(AppError::Conflict)?;
            diesel::update(special_hands::table.find(s.id))
                .set((
                    special_hands::stake.eq(Some(m.stake)),
                    special_hands::bank_after.eq(Some(bank_after)),
                ))
                .execute(conn)?;
            set_bank(conn, &t, &s, bank_after)?;
            Some(SpecialHandRow {
                stake: Some(m.stake),
                bank_after: Some(bank_after),
                ..s.clone()
            })
        }
        None => None,
    };
    audit::record(
        conn,
        now,
        actor,
        "table.special_contribution",
        "player",
        Some(before.player_id.get()),
        Some(&before),
        Some(&serde_json::json!({ "contribution": after, "special_hand": settled })),
    )?;
    emit(
        conn,
        now,
        Some(table_id),
        "table.special_contribution",
        &serde_json::json!({ "table": t.number, "kind": s.kind, "seat": seat, "took_part": took_part }),
    )?;
    Ok(after)
}

/// BSOP 116: what the Macaca keeps for her next hand goes on her button in play (drawn again
/// during the hand: the new one; none in play: the hand's own).
fn set_bank(conn: &mut DbConn, t: &TableRow, s: &SpecialHandRow, bank: i64) -> AppResult<()> {
    let id = in_play(conn, t)?
        .iter()
        .find(|b| b.kind == s.kind)
        .map(|b| b.id)
        .unwrap_or(s.button_id);
    diesel::update(special_buttons::table.find(id))
        .set(special_buttons::bank.eq(bank))
        .execute(conn)?;
    Ok(())
}

/// The fixed contributions put in a special hand (the seats marked as taking part).
pub(super) fn contributed(rows: &[SpecialContributionRow]) -> AppResult<i64> {
    money::sum(rows.iter().filter(|c| c.took_part).map(|c| c.amount))
        .map_err(|_| AppError::from(GeneralRefusal::MoneyOverflow))
}

/// BSOP 116: the Macaca on a special hand: her chips, her stake, what waits aside.
pub(super) fn macaca_of(s: &SpecialHandRow, rows: &[SpecialContributionRow]) -> AppResult<Macaca> {
    Macaca::on_hand(s.bank_before, contributed(rows)?, s.cap.unwrap_or(0))
        .map_err(|_| AppError::from(GeneralRefusal::MoneyOverflow))
}

/// BSOP 116: the dealer records how the Macaca's hand ended: `won` with what she collected
/// from the pot (422 on `collected` without it, or over a pot's bound), or `lost`. Her stake
/// and what she keeps for her next hand ([`Macaca::after`]) are stored on the hand and the
/// button. Recorded again while the hand is being played, it corrects the result (the
/// audit keeps both). Audited `table.macaca_result`, pushed.
pub fn macaca_result(
    conn: &mut DbConn,
    act: &Act,
    table_id: TableId,
    special_hand_id: i64,
    outcome: MacacaOutcome,
    collected: Option<i64>,
) -> AppResult<SpecialHandRow> {
    let room = &act.room;
    let (now, actor) = (act.now, &act.actor);
    let s = special_hand_at(conn, table_id, special_hand_id)?;
    if s.kind != SpecialButton::Macaca {
        return Err(ButtonRefusal::NotMacaca.into());
    }
    let t = crate::services::games::get_table(conn, table_id)?;
    let g = game_of(conn, &t)?;
    // The pot's bound from the maximum the table plays now (PT-2007 22).
    let max = crate::services::limits::of(&t, Some(&g))
        .map(|l| l.buy_in_max)
        .unwrap_or(g.buy_in_max);
    if let Some(c) = collected {
        crate::services::check_amount(conn, "collected", money::pot(max), c)?;
    }
    check_still_played(conn, &s)?;
    let rows = contributions_of(conn, s.id)?;
    let m = macaca_of(&s, &rows)?;
    let bank_after = m.after(outcome, collected).map_err(|p| match p.key {
        "err-money-overflow" => AppError::Conflict(p),
        _ => AppError::Validation(vec![FieldError::of("collected", p)]),
    })?;
    let kept_collected = match outcome {
        MacacaOutcome::Won => collected,
        MacacaOutcome::Lost => None,
    };
    diesel::update(special_hands::table.find(s.id))
        .set((
            special_hands::outcome.eq(Some(outcome.as_str())),
            special_hands::collected.eq(kept_collected),
            special_hands::stake.eq(Some(m.stake)),
            special_hands::bank_after.eq(Some(bank_after)),
            special_hands::result_at.eq(Some(now.naive_utc())),
            special_hands::result_by.eq(actor.id),
        ))
        .execute(conn)?;
    set_bank(conn, &t, &s, bank_after)?;
    let after = SpecialHandRow {
        outcome: Some(outcome),
        collected: kept_collected,
        stake: Some(m.stake),
        bank_after: Some(bank_after),
        result_at: Some(now.naive_utc()),
        result_by: actor.id,
        ..s.clone()
    };
    audit::record(
        conn,
        now,
        actor,
        "table.macaca_result",
        "table",
        Some(table_id.get()),
        Some(&s),
        Some(&after),
    )?;
    emit(
        conn,
        now,
        Some(table_id),
        "table.macaca_result",
        &serde_json::json!({
            "table": t.number,
            "outcome": outcome,
            "bank": bank_after,
            "currency": room.currency,
        }),
    )?;
    Ok(after)
}
