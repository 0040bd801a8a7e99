//! The special hand a new hand starts when the dealer button reaches a special button, and
//! whether the hand being played may end.

use super::buttons::{in_play, kind_of, settings_of, table_big_blind};
use crate::db::audit::{self};
use crate::db::models::{
    HandRow, SeatSideRow, SeatingRow, SpecialButtonRow, SpecialContributionRow, SpecialHandRow,
    TableRow,
};
use crate::db::schema::{hands, special_buttons, special_contributions, special_hands};
use crate::db::{next_seq, DbConn};
use crate::domain::ids::TableId;
use crate::domain::refusal::{ButtonRefusal, GeneralRefusal};
use crate::domain::special_buttons::{self as rules, Macaca, Placed, SpecialButton};
use crate::error::{AppError, AppResult};
use crate::services::floor::emit;
use crate::services::Act;
use diesel::prelude::*;

/// The table's current hand (the last "new hand" tap), if any.
pub(super) fn current_hand(conn: &mut DbConn, table_id: TableId) -> AppResult<Option<HandRow>> {
    Ok(crate::native!(conn, |dbc| hands::table
        .filter(hands::table_id.eq(table_id))
        .order(hands::number.desc())
        .select(HandRow::as_select())
        .first(dbc)
        .optional())?)
}

pub(super) fn special_of_hand(
    conn: &mut DbConn,
    hand_id: i64,
) -> AppResult<Option<SpecialHandRow>> {
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
    let Some((settings, rows)) = buttons_the_game_runs(conn, t, game_id)? else {
        return Ok(None);
    };
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
    let stakes = stakes_of(conn, t, &settings, kind, button)?;
    let row = insert_special_hand(conn, act, t, hand, to, button, &stakes)?;
    let contributions = if stakes.contributes {
        insert_contributions(conn, &row, seated)?
    } else {
        Vec::new()
    };
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "table.special_hand",
        "table",
        Some(t.id.get()),
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
            "amount": stakes.amount,
            "players": contributions.iter().filter(|c| c.took_part).count(),
        }),
    )?;
    Ok(Some(row))
}

/// The special buttons in play at the table whose game runs them, with the game's settings
/// (none: an ordinary hand). Most tables have no special button: one read, and nothing more.
fn buttons_the_game_runs(
    conn: &mut DbConn,
    t: &TableRow,
    game_id: crate::domain::ids::GameId,
) -> AppResult<Option<(rules::Settings, Vec<SpecialButtonRow>)>> {
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
    Ok(Some((settings, rows)))
}

/// What a special hand is played for: each player's contribution, and for the Macaca her
/// bank, the cap and whether a new Macaca is paid for.
struct Stakes {
    kind: SpecialButton,
    contribution_bb: i32,
    big_blind: i64,
    amount: i64,
    bank_before: i64,
    cap: Option<i64>,
    /// A Macaca who still has chips plays them: nobody contributes.
    contributes: bool,
}

/// The contribution is the table's big blind times the game's setting.
fn stakes_of(
    conn: &mut DbConn,
    t: &TableRow,
    settings: &rules::Settings,
    kind: SpecialButton,
    button: &SpecialButtonRow,
) -> AppResult<Stakes> {
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
    Ok(Stakes {
        kind,
        contribution_bb: settings.contribution_bb(kind),
        big_blind: bb,
        amount,
        bank_before,
        cap,
        contributes,
    })
}

/// The special hand's row, at the button's seat, with the dealer's seat now.
fn insert_special_hand(
    conn: &mut DbConn,
    act: &Act,
    t: &TableRow,
    hand: &HandRow,
    to: Option<i32>,
    button: &SpecialButtonRow,
    stakes: &Stakes,
) -> AppResult<SpecialHandRow> {
    let row = SpecialHandRow {
        id: next_seq(conn, "special_hand")?,
        hand_id: hand.id,
        table_id: t.id,
        game_id: t.game_id,
        kind: stakes.kind,
        button_id: button.id,
        button_seat: button.seat_no,
        dealer_seat: to,
        contribution_bb: stakes.contribution_bb,
        big_blind: stakes.big_blind,
        amount: stakes.amount,
        bank_before: stakes.bank_before,
        cap: stakes.cap,
        outcome: None,
        collected: None,
        stake: None,
        bank_after: None,
        result_at: None,
        result_by: None,
        at: act.now.naive_utc(),
        recorded_by: act.actor.id,
    };
    crate::native!(conn, |dbc| diesel::insert_into(special_hands::table)
        .values(&row)
        .execute(dbc))?;
    Ok(row)
}

/// Each seated player's contribution to the special hand; away and resting players start
/// marked out.
fn insert_contributions(
    conn: &mut DbConn,
    row: &SpecialHandRow,
    seated: &[(SeatingRow, SeatSideRow)],
) -> AppResult<Vec<SpecialContributionRow>> {
    let mut contributions = Vec::new();
    for (s, sd) in seated {
        let c = SpecialContributionRow {
            id: next_seq(conn, "special_contribution")?,
            special_hand_id: row.id,
            table_id: row.table_id,
            seating_id: s.id,
            player_id: s.player_id,
            seat_no: s.seat_no,
            amount: row.amount,
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
    Ok(contributions)
}

/// A special hand of the table, refused as not found when it is another table's.
pub(super) fn special_hand_at(
    conn: &mut DbConn,
    table_id: TableId,
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
