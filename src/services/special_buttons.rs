//! The special buttons at a table (BSOP 115, 116): the Cucurucho and the Macaca.
//!
//! - **Where they start**: drawn (a recorded, replayable draw, [`Draw::special_button`])
//!   among the table's occupied seats, by the floor or the dealer, at an open or running
//!   table of a game that runs the button ([`draw`]). A button already in play is drawn again
//!   only with a reason. A table closed and opened again starts without them (the draws
//!   belong to the table's opening).
//! - **When they play**: the dealer's "new hand" tap moves the dealer button; a move that
//!   lands on or passes over a special button makes the hand it starts a special hand
//!   ([`crate::domain::special_buttons::on_button_move`], called from
//!   [`crate::services::table_side::new_hand`]). Each seated player's fixed contribution is
//!   recorded on it — away and resting players marked out — and the dealer marks a seat in or
//!   out while the hand is being played ([`mark`]).
//! - **The Macaca's chips**: the dealer records her result before the next hand
//!   ([`macaca_result`]); what she keeps waits for her next hand on the button's row.
//!
//! Every change is audited and pushed to the table's tablet and the floor board in the same
//! transaction. Amounts are minor units, from the table's big blind ([`table_big_blind`]).

use crate::db::audit::{self};
use crate::db::models::{
    DrawRow, GameRow, HandRow, SeatSideRow, SeatingRow, SpecialButtonRow, SpecialContributionRow,
    SpecialHandRow, TableRow,
};
use crate::db::schema::{hands, players, special_buttons, special_contributions, special_hands};
use crate::db::{next_seq, DbConn};
use crate::domain::draw::{Draw, DrawSeed, SeatAssignment};
use crate::domain::money;
use crate::domain::refusal::{ButtonRefusal, GeneralRefusal, TableRefusal};
use crate::domain::special_buttons::{
    self as rules, Macaca, MacacaOutcome, Placed, Settings, SpecialButton,
};
use crate::domain::table::TableState;
use crate::domain::{FieldError, Problem};
use crate::error::{AppError, AppResult};
use crate::services::floor::emit;
use crate::services::Act;
use diesel::prelude::*;
use serde::Serialize;

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

fn game_of(conn: &mut DbConn, t: &TableRow) -> AppResult<GameRow> {
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

fn kind_of(row: &SpecialButtonRow) -> Option<SpecialButton> {
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
            Some(t.id),
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
    table_id: i64,
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
    let playing = in_play(conn, &t)?;
    let current = playing.iter().find(|b| kind_of(b) == Some(kind)).cloned();
    if current.is_some() && reason.is_none() {
        return Err(AppError::Validation(vec![FieldError::new(
            "reason",
            "err-buttons-reason",
        )
        .arg("rule", kind.rule())]));
    }
    let mut seats: Vec<SeatAssignment> = crate::services::floor::seated_at(conn, table_id)?
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
    let d = Draw::special_button(DrawSeed::random(), kind, &seats)
        .map_err(|e| AppError::Conflict(e.problem()))?;
    let Draw::SpecialButton { result, .. } = &d else {
        return Err(AppError::internal("special button draw kind"));
    };
    let seat = result.seat;
    let row = crate::services::draws::record(conn, act, &d, t.game_id, Some(table_id))?;
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
        seat_no: seat,
        draw_id: row.id,
        drawn_at: now.naive_utc(),
        drawn_by: actor.id,
        reason: reason.map(str::to_string),
        // A redraw moves the button, not what it carries: a hand already due is still due,
        // and the Macaca keeps her chips.
        pending: current.as_ref().is_some_and(|c| c.pending),
        bank: current.as_ref().map(|c| c.bank).unwrap_or(0),
        ended_at: None,
    };
    diesel::insert_into(special_buttons::table)
        .values(&button)
        .execute(conn)?;
    audit::record(
        conn,
        now,
        actor,
        "table.special_draw",
        "table",
        Some(table_id),
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

/// The refusal for a button the game does not run.
fn off(kind: SpecialButton, g: &GameRow) -> Problem {
    Problem::from(ButtonRefusal::Off {
        rule: kind.rule(),
        game: g.name.clone(),
    })
}

// ---- the hand -------------------------------------------------------------------------------

/// The table's current hand (the last "new hand" tap), if any.
fn current_hand(conn: &mut DbConn, table_id: i64) -> AppResult<Option<HandRow>> {
    Ok(crate::native!(conn, |dbc| hands::table
        .filter(hands::table_id.eq(table_id))
        .order(hands::number.desc())
        .select(HandRow::as_select())
        .first(dbc)
        .optional())?)
}

fn special_of_hand(conn: &mut DbConn, hand_id: i64) -> AppResult<Option<SpecialHandRow>> {
    Ok(crate::native!(conn, |dbc| special_hands::table
        .filter(special_hands::hand_id.eq(hand_id))
        .select(SpecialHandRow::as_select())
        .first(dbc)
        .optional())?)
}

/// BSOP 115, 116: the special game of a hand, if it was one.
pub fn kind_of_hand(conn: &mut DbConn, hand_id: i64) -> AppResult<Option<SpecialButton>> {
    Ok(special_of_hand(conn, hand_id)?.map(|s| s.kind))
}

/// BSOP 116: the hand being played is a Macaca hand and her result is not recorded yet: the
/// next "new hand" tap (which ends it) is refused until it is, so her chips are known before
/// her next hand. Checked before the tap changes anything, in one statement (every tap asks):
/// since the taps are refused while one is missing, a Macaca hand of this opening of the
/// table without a result can only be the hand being played.
pub fn check_hand_may_end(conn: &mut DbConn, t: &TableRow) -> AppResult<()> {
    let mut q = special_hands::table
        .inner_join(hands::table.on(hands::id.eq(special_hands::hand_id)))
        .filter(special_hands::table_id.eq(t.id))
        .filter(special_hands::kind.eq(SpecialButton::Macaca))
        .filter(special_hands::outcome.is_null())
        .into_boxed();
    if let Some(opened) = t.opened_at {
        q = q.filter(special_hands::at.ge(opened));
    }
    let waiting: Option<i32> = q.select(hands::number).first(conn).optional()?;
    match waiting {
        Some(number) => Err(ButtonRefusal::MacacaResultFirst { hand: number }.into()),
        None => Ok(()),
    }
}

/// The "new hand" tap moved the dealer button from `from` to `to` and started `hand`: when
/// the move reaches a special button ([`rules::on_button_move`]) the hand is its special
/// hand. Recorded with each seated player's fixed contribution (the table's big blind times
/// the game's setting; away and resting players start marked out) — none for a Macaca who
/// still has chips, who plays them — and the button whose hand must wait marked so. Audited
/// `table.special_hand`, pushed `table.special_hand`. `None`: an ordinary hand.
pub fn on_new_hand(
    conn: &mut DbConn,
    act: &Act,
    t: &TableRow,
    from: Option<i32>,
    to: Option<i32>,
    hand: &HandRow,
    seated: &[(SeatingRow, SeatSideRow)],
) -> AppResult<Option<SpecialHandRow>> {
    let (now, actor) = (act.now, &act.actor);
    let Some(game_id) = t.game_id else {
        return Ok(None);
    };
    // Most tables have no special button: one read, and nothing more.
    let rows = in_play(conn, t)?;
    if rows.is_empty() {
        return Ok(None);
    }
    let g = crate::services::games::get_game(conn, game_id)?;
    let settings = settings_of(&g);
    let rows: Vec<SpecialButtonRow> = rows
        .into_iter()
        .filter(|b| kind_of(b).is_some_and(|k| settings.runs(k)))
        .collect();
    if rows.is_empty() {
        return Ok(None);
    }
    let placed: Vec<Placed> = rows
        .iter()
        .filter_map(|b| {
            Some(Placed {
                kind: kind_of(b)?,
                seat: b.seat_no,
                pending: b.pending,
            })
        })
        .collect();
    let turn = rules::on_button_move(from, to, &placed);
    let Some(kind) = turn.plays else {
        return Ok(None);
    };
    for b in &rows {
        let waits = kind_of(b).is_some_and(|k| turn.pending.contains(&k));
        if b.pending != waits {
            diesel::update(special_buttons::table.find(b.id))
                .set(special_buttons::pending.eq(waits))
                .execute(conn)?;
        }
    }
    let Some(button) = rows.iter().find(|b| kind_of(b) == Some(kind)) else {
        return Err(AppError::internal("special button in play"));
    };
    let bb = table_big_blind(conn, t)?;
    let overflow = |_| AppError::from(GeneralRefusal::MoneyOverflow);
    let amount = rules::in_big_blinds(bb, settings.contribution_bb(kind)).map_err(overflow)?;
    let (bank_before, cap, contributes) = match kind {
        SpecialButton::Cucurucho => (0, None, true),
        SpecialButton::Macaca => (
            button.bank,
            Some(rules::in_big_blinds(bb, settings.macaca_cap_bb).map_err(overflow)?),
            Macaca::is_new(button.bank),
        ),
    };
    let row = SpecialHandRow {
        id: next_seq(conn, "special_hand")?,
        hand_id: hand.id,
        table_id: t.id,
        game_id: Some(game_id),
        kind,
        button_id: button.id,
        button_seat: button.seat_no,
        dealer_seat: to,
        contribution_bb: settings.contribution_bb(kind),
        big_blind: bb,
        amount,
        bank_before,
        cap,
        outcome: None,
        collected: None,
        stake: None,
        bank_after: None,
        result_at: None,
        result_by: None,
        at: now.naive_utc(),
        recorded_by: actor.id,
    };
    crate::native!(conn, |dbc| diesel::insert_into(special_hands::table)
        .values(&row)
        .execute(dbc))?;
    let mut contributions = Vec::new();
    if contributes {
        for (s, sd) in seated {
            let c = SpecialContributionRow {
                id: next_seq(conn, "special_contribution")?,
                special_hand_id: row.id,
                table_id: t.id,
                seating_id: s.id,
                player_id: s.player_id,
                seat_no: s.seat_no,
                amount,
                took_part: sd.away_since.is_none() && !sd.resting,
                marked_at: None,
                marked_by: None,
            };
            crate::native!(conn, |dbc| diesel::insert_into(
                special_contributions::table
            )
            .values(&c)
            .execute(dbc))?;
            contributions.push(c);
        }
    }
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "table.special_hand",
        "table",
        Some(t.id),
        None,
        Some(&serde_json::json!({
            "special_hand": row,
            "contributions": contributions,
            "waiting": turn.pending,
        })),
    )?;
    emit(
        conn,
        now,
        Some(t.id),
        "table.special_hand",
        &serde_json::json!({
            "table": t.number,
            "hand": hand.number,
            "kind": kind,
            "seat": button.seat_no,
            "amount": amount,
            "players": contributions.iter().filter(|c| c.took_part).count(),
        }),
    )?;
    Ok(Some(row))
}

/// A special hand of the table, refused as not found when it is another table's.
fn special_hand_at(
    conn: &mut DbConn,
    table_id: i64,
    special_hand_id: i64,
) -> AppResult<SpecialHandRow> {
    let s: SpecialHandRow = special_hands::table
        .find(special_hand_id)
        .select(SpecialHandRow::as_select())
        .first(conn)?;
    if s.table_id != table_id {
        return Err(AppError::NotFound);
    }
    Ok(s)
}

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
    table_id: i64,
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
        Some(before.player_id),
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
fn contributed(rows: &[SpecialContributionRow]) -> AppResult<i64> {
    money::sum(rows.iter().filter(|c| c.took_part).map(|c| c.amount))
        .map_err(|_| AppError::from(GeneralRefusal::MoneyOverflow))
}

/// BSOP 116: the Macaca on a special hand: her chips, her stake, what waits aside.
fn macaca_of(s: &SpecialHandRow, rows: &[SpecialContributionRow]) -> AppResult<Macaca> {
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
    table_id: i64,
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
        super::check_amount(conn, "collected", money::pot(max), c)?;
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
        Some(table_id),
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

// ---- reading ------------------------------------------------------------------------------

/// One seat's contribution as shown.
#[derive(Debug, Clone, Serialize)]
pub struct ContributionLine {
    pub row: SpecialContributionRow,
    pub alias: String,
}

/// A special hand with its contributions and, for the Macaca, her chips.
#[derive(Debug, Clone, Serialize)]
pub struct HandView {
    pub row: SpecialHandRow,
    /// The table's hand number.
    pub number: i32,
    pub contributions: Vec<ContributionLine>,
    /// What the seats taking part put (minor units).
    pub total: i64,
    /// BSOP 116: the Macaca's chips, stake and what waits aside (as of now).
    pub macaca: Option<Macaca>,
    /// Being played (the table's current hand): the dealer may still mark seats and record
    /// the Macaca's result.
    pub current: bool,
}

impl HandView {
    pub fn kind(&self) -> &str {
        self.row.kind.as_str()
    }
    pub fn is_macaca(&self) -> bool {
        self.row.kind == SpecialButton::Macaca
    }
    /// How many seats take part.
    pub fn players(&self) -> usize {
        self.contributions
            .iter()
            .filter(|c| c.row.took_part)
            .count()
    }
    /// BSOP 116: the Macaca plays her own chips (nobody contributes).
    pub fn plays_own_chips(&self) -> bool {
        self.is_macaca() && !Macaca::is_new(self.row.bank_before)
    }
    /// The catalog key saying what each player puts ({ $amount }).
    pub fn each_key(&self) -> &'static str {
        if self.is_macaca() {
            "buttons-each-macaca"
        } else {
            "buttons-each-pot"
        }
    }
    /// The rule of its game.
    pub fn rule(&self) -> &'static str {
        self.row.kind.rule()
    }
}

/// A special hand as shown.
pub fn hand_view(conn: &mut DbConn, s: SpecialHandRow) -> AppResult<HandView> {
    let rows: Vec<(SpecialContributionRow, String)> = special_contributions::table
        .inner_join(players::table)
        .filter(special_contributions::special_hand_id.eq(s.id))
        .order(special_contributions::seat_no.asc())
        .select((SpecialContributionRow::as_select(), players::alias))
        .load(conn)?;
    let plain: Vec<SpecialContributionRow> = rows.iter().map(|(c, _)| c.clone()).collect();
    let total = contributed(&plain)?;
    let macaca = if s.kind == SpecialButton::Macaca {
        Some(macaca_of(&s, &plain)?)
    } else {
        None
    };
    let (number, current) = match current_hand(conn, s.table_id)? {
        Some(h) => {
            let own: i32 = hands::table
                .find(s.hand_id)
                .select(hands::number)
                .first(conn)?;
            (own, h.id == s.hand_id)
        }
        None => (0, false),
    };
    Ok(HandView {
        contributions: rows
            .into_iter()
            .map(|(row, alias)| ContributionLine { row, alias })
            .collect(),
        total,
        macaca,
        current,
        number,
        row: s,
    })
}

/// One special button of a table as shown.
#[derive(Debug, Clone, Serialize)]
pub struct ButtonView {
    pub kind: SpecialButton,
    /// The game's fixed contribution, in big blinds and in money.
    pub contribution_bb: i32,
    pub amount: i64,
    /// Where it is (none: not drawn yet at this opening of the table).
    pub row: Option<SpecialButtonRow>,
}

impl ButtonView {
    pub fn seat(&self) -> Option<i32> {
        self.row.as_ref().map(|r| r.seat_no)
    }
    pub fn pending(&self) -> bool {
        self.row.as_ref().is_some_and(|r| r.pending)
    }
    /// BSOP 116: the Macaca's chips kept for her next hand.
    pub fn bank(&self) -> i64 {
        self.row.as_ref().map(|r| r.bank).unwrap_or(0)
    }
    pub fn is_macaca(&self) -> bool {
        self.kind == SpecialButton::Macaca
    }
    /// The letter on the seat (C, M).
    pub fn letter(&self) -> &'static str {
        match self.kind {
            SpecialButton::Cucurucho => "C",
            SpecialButton::Macaca => "M",
        }
    }
}

/// A table's special buttons: the game's, where each is, and the hand being played when it
/// is special.
#[derive(Debug, Clone, Serialize)]
pub struct TableButtons {
    pub table_id: i64,
    pub big_blind: i64,
    pub macaca_cap_bb: i32,
    /// The buttons the game runs (Cucurucho first).
    pub buttons: Vec<ButtonView>,
    /// The hand being played, when it is a special hand.
    pub hand: Option<HandView>,
    /// The table is open or running: a button may be drawn.
    pub may_draw: bool,
}

impl TableButtons {
    /// The buttons on a seat (for its marker).
    pub fn at_seat(&self, seat: &i32) -> Vec<&ButtonView> {
        self.buttons
            .iter()
            .filter(|b| b.seat() == Some(*seat))
            .collect()
    }
}

/// The table's special buttons, or `None` when its game runs none.
pub fn of_table(conn: &mut DbConn, t: &TableRow) -> AppResult<Option<TableButtons>> {
    let Some(game_id) = t.game_id else {
        return Ok(None);
    };
    let g = crate::services::games::get_game(conn, game_id)?;
    let settings = settings_of(&g);
    if !settings.cucurucho && !settings.macaca {
        return Ok(None);
    }
    let bb = table_big_blind(conn, t)?;
    let rows = in_play(conn, t)?;
    let mut buttons = Vec::new();
    for kind in SpecialButton::ALL {
        if !settings.runs(*kind) {
            continue;
        }
        let bbs = settings.contribution_bb(*kind);
        buttons.push(ButtonView {
            kind: *kind,
            contribution_bb: bbs,
            amount: rules::in_big_blinds(bb, bbs)
                .map_err(|_| AppError::from(GeneralRefusal::MoneyOverflow))?,
            row: rows.iter().find(|b| kind_of(b) == Some(*kind)).cloned(),
        });
    }
    let hand = match current_hand(conn, t.id)? {
        Some(h) => match special_of_hand(conn, h.id)? {
            Some(s) => Some(hand_view(conn, s)?),
            None => None,
        },
        None => None,
    };
    Ok(Some(TableButtons {
        table_id: t.id,
        big_blind: bb,
        macaca_cap_bb: settings.macaca_cap_bb,
        buttons,
        hand,
        may_draw: matches!(t.state, TableState::Open | TableState::Running),
    }))
}

/// The table's special hands, newest first (at most `limit`).
pub fn hands_of(conn: &mut DbConn, table_id: i64, limit: i64) -> AppResult<Vec<HandView>> {
    let rows: Vec<SpecialHandRow> = special_hands::table
        .filter(special_hands::table_id.eq(table_id))
        .order(special_hands::id.desc())
        .limit(limit)
        .select(SpecialHandRow::as_select())
        .load(conn)?;
    rows.into_iter().map(|s| hand_view(conn, s)).collect()
}

/// The special hand of a table by id, as shown (404 when it is another table's).
pub fn hand_at(conn: &mut DbConn, table_id: i64, special_hand_id: i64) -> AppResult<HandView> {
    let s = special_hand_at(conn, table_id, special_hand_id)?;
    hand_view(conn, s)
}
