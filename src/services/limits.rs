//! A running table's limits (PT-2007 22, BSOP 34; the rules in [`crate::domain::limits`]).
//!
//! A table in play has limits of its own (`card_tables.small_blind` … `buy_in_max`), set from
//! its game when it opens; [`of`] is the one reader of "the limits of this table now", used by
//! every rule and screen that needs blinds or buy-ins for a table. A change is a floor action
//! ([`propose`]: the approval of BSOP 34) with an effective point (the next hand, or a stated
//! time), announced at the table by the dealer ([`announce`]), applied at the first hand
//! started once announced and due ([`at_new_hand`], called by the dealer's "new hand" tap),
//! or cancelled by the floor ([`cancel`]). Editing a game no longer changes its running
//! tables: each gets a pending change to the game's new limits ([`on_game_edit`]).
//!
//! **A table where nobody is seated** (open, waiting for its players) has nobody to tell and
//! no hand in play: a change there — the floor's, or a game's edit — takes effect at once.
//!
//! **A table where the dealer records no hands** (no "new hand" tap since it opened) has no
//! hand start to wait for: a change there takes effect as soon as it is both announced and
//! due — at the dealer's confirmation for a "next hand" change (the dealer announces it
//! between hands, and confirming says the next hand is played at the new limits), and for a
//! stated time by the scheduler at that time ([`tick`], from `app::run_timers`), once
//! announced. A table that records hands always waits for the tap: never the hand in play.
//!
//! Every step is audited and pushed (`table.limits` on the table's stream: the tablet, the
//! floor's board; the lobby screen and the player pages read it when they refresh). The
//! history — the limits each table opened with, and every change: from, to, who approved,
//! who announced, when and at which hand it was applied — is `limit_changes`; the reports
//! split each table's open time at its changes ([`timelines`]).

use crate::db::audit::{self};
use crate::db::models::{GameRow, LimitChangeRow, TableRow};
use crate::db::schema::{card_tables, games, hands, limit_changes, seatings, staff};
use crate::db::{next_seq, DbConn};
use crate::domain::cagnotte::SessionBase;
use crate::domain::game::Variant;
use crate::domain::limits::{
    check_effective, check_limits, takes_effect, Effective, GameFit, Limits, Pending,
};
use crate::domain::profile::CagnotteMode;
use crate::domain::refusal::{LimitRefusal, TableRefusal};
use crate::domain::FieldError;
use crate::error::{AppError, AppResult};
use crate::services::floor::emit;
use crate::services::Act;
use chrono::{DateTime, NaiveDateTime, Utc};
use diesel::prelude::*;
use serde::Serialize;
use std::collections::HashMap;

use crate::domain::states::{LimitChangeKind, LimitChangeState};

/// A game's limits (what its tables open with).
pub fn of_game(g: &GameRow) -> Limits {
    Limits {
        small_blind: g.small_blind,
        big_blind: g.big_blind,
        buy_in_min: g.buy_in_min,
        buy_in_max: g.buy_in_max,
    }
}

/// **The limits of this table now** (PT-2007 22, BSOP 34): its own while it is in play, else
/// its game's (`g`, the table's game); `None` for a table without a game.
pub fn of(t: &TableRow, g: Option<&GameRow>) -> Option<Limits> {
    if t.limits_since.is_some() {
        if let (Some(sb), Some(bb), Some(min)) = (t.small_blind, t.big_blind, t.buy_in_min) {
            return Some(Limits {
                small_blind: sb,
                big_blind: bb,
                buy_in_min: min,
                buy_in_max: t.buy_in_max,
            });
        }
    }
    g.filter(|g| Some(g.id) == t.game_id).map(of_game)
}

/// [`of`] for a table read by id (with its game).
pub fn of_table(conn: &mut DbConn, table_id: i64) -> AppResult<Option<Limits>> {
    let (t, g): (TableRow, Option<GameRow>) = crate::native!(conn, |dbc| card_tables::table
        .left_join(games::table)
        .filter(card_tables::id.eq(table_id))
        .select((TableRow::as_select(), Option::<GameRow>::as_select()))
        .first(dbc))?;
    Ok(of(&t, g.as_ref()))
}

/// A change's new limits.
pub fn to_of(c: &LimitChangeRow) -> Limits {
    Limits {
        small_blind: c.to_small_blind,
        big_blind: c.to_big_blind,
        buy_in_min: c.to_buy_in_min,
        buy_in_max: c.to_buy_in_max,
    }
}

/// A change's limits before it (none for an opening).
pub fn from_of(c: &LimitChangeRow) -> Option<Limits> {
    Some(Limits {
        small_blind: c.from_small_blind?,
        big_blind: c.from_big_blind?,
        buy_in_min: c.from_buy_in_min?,
        buy_in_max: c.from_buy_in_max,
    })
}

/// A change's effective point.
pub fn effective_of(c: &LimitChangeRow) -> Effective {
    match c.effective_at {
        Some(t) => Effective::At(t.and_utc()),
        None => Effective::NextHand,
    }
}

fn pending_of(c: &LimitChangeRow) -> Pending {
    Pending {
        effective: effective_of(c),
        announced_at: c.announced_at.map(|t| t.and_utc()),
    }
}

/// What of a game new limits must still fit (PT-2007 7b, BSOP 80).
pub fn fit_of(g: &GameRow) -> GameFit {
    GameFit {
        banked: g.variant.parse::<Variant>().is_ok_and(|v| v.is_banked()),
        session_of_table_max: g.cagnotte_mode == CagnotteMode::PerSession.as_str()
            && SessionBase::parse(&g.cagnotte_base) == Some(SessionBase::TableMax),
        smallest_chip: g.smallest_chip,
    }
}

fn in_play(t: &TableRow) -> bool {
    t.state.in_play()
}

fn change(conn: &mut DbConn, id: i64) -> AppResult<LimitChangeRow> {
    Ok(crate::native!(conn, |dbc| limit_changes::table
        .find(id)
        .select(LimitChangeRow::as_select())
        .first(dbc))?)
}

/// The table's pending change, if any (at most one: a unique index).
pub fn pending(conn: &mut DbConn, table_id: i64) -> AppResult<Option<LimitChangeRow>> {
    Ok(crate::native!(conn, |dbc| limit_changes::table
        .filter(limit_changes::table_id.eq(table_id))
        .filter(crate::db::conditions::LimitChangePending)
        .select(LimitChangeRow::as_select())
        .first(dbc))
    .optional()?)
}

/// Every table's pending change, by table id (the board, the lobby, the player pages).
pub fn all_pending(conn: &mut DbConn) -> AppResult<HashMap<i64, LimitChangeRow>> {
    let rows: Vec<LimitChangeRow> = crate::native!(conn, |dbc| limit_changes::table
        .filter(crate::db::conditions::LimitChangePending)
        .select(LimitChangeRow::as_select())
        .load(dbc))?;
    Ok(rows.into_iter().map(|c| (c.table_id, c)).collect())
}

fn set_table_limits(
    conn: &mut DbConn,
    table_id: i64,
    l: Option<&Limits>,
    since: Option<NaiveDateTime>,
) -> AppResult<()> {
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(card_tables::table.find(table_id))
            .set((
                card_tables::small_blind.eq(l.map(|l| l.small_blind)),
                card_tables::big_blind.eq(l.map(|l| l.big_blind)),
                card_tables::buy_in_min.eq(l.map(|l| l.buy_in_min)),
                card_tables::buy_in_max.eq(l.and_then(|l| l.buy_in_max)),
                card_tables::limits_since.eq(since),
            ))
            .returning(card_tables::id)
    )
    .changed(dbc))?;
    Ok(())
}

// One limit-change row, built from what the caller decided.
#[allow(clippy::too_many_arguments)]
fn new_row(
    id: i64,
    act: &Act,
    t: &TableRow,
    game_id: Option<i64>,
    kind: LimitChangeKind,
    from: Option<&Limits>,
    to: &Limits,
    effective_at: Option<DateTime<Utc>>,
) -> LimitChangeRow {
    let (now, actor) = (act.now, &act.actor);
    LimitChangeRow {
        id,
        table_id: t.id,
        game_id,
        kind,
        state: LimitChangeState::Pending,
        from_small_blind: from.map(|l| l.small_blind),
        from_big_blind: from.map(|l| l.big_blind),
        from_buy_in_min: from.map(|l| l.buy_in_min),
        from_buy_in_max: from.and_then(|l| l.buy_in_max),
        to_small_blind: to.small_blind,
        to_big_blind: to.big_blind,
        to_buy_in_min: to.buy_in_min,
        to_buy_in_max: to.buy_in_max,
        effective_at: effective_at.map(|t| t.naive_utc()),
        approved_at: now.naive_utc(),
        approved_by: actor.id,
        announced_at: None,
        announced_by: None,
        applied_at: None,
        applied_by: None,
        applied_hand: None,
        cancelled_at: None,
        cancelled_by: None,
        cancel_reason: None,
    }
}

fn insert(conn: &mut DbConn, row: &LimitChangeRow) -> AppResult<()> {
    crate::native!(conn, |dbc| diesel::insert_into(limit_changes::table)
        .values(row)
        .execute(dbc))
    .map_err(|e| {
        if crate::db::is_unique_violation(&e) {
            AppError::from(LimitRefusal::PendingRace)
        } else {
            e.into()
        }
    })?;
    Ok(())
}

/// The pushed event of a change (the table's stream: its tablet and the floor's board).
fn push(conn: &mut DbConn, now: DateTime<Utc>, t: &TableRow, c: &LimitChangeRow) -> AppResult<()> {
    emit(
        conn,
        now,
        Some(t.id),
        "table.limits",
        &serde_json::json!({
            "table": t.number, "change_id": c.id, "state": c.state, "kind": c.kind,
            "to": to_of(c), "effective_at": c.effective_at.map(|x| x.and_utc()),
            "announced": c.announced_at.is_some(), "applied_hand": c.applied_hand,
        }),
    )?;
    Ok(())
}

/// The table opened (PT-2007 22): it plays its game's limits, recorded as its opening limits.
pub fn on_open(conn: &mut DbConn, act: &Act, t: &TableRow, g: &GameRow) -> AppResult<()> {
    let (now, actor) = (act.now, &act.actor);
    let l = of_game(g);
    set_table_limits(conn, t.id, Some(&l), Some(now.naive_utc()))?;
    let mut row = new_row(
        next_seq(conn, "limit_change")?,
        act,
        t,
        Some(g.id),
        LimitChangeKind::Opening,
        None,
        &l,
        None,
    );
    row.state = LimitChangeState::Applied;
    row.applied_at = Some(now.naive_utc());
    row.applied_by = actor.id;
    crate::native!(conn, |dbc| diesel::insert_into(limit_changes::table)
        .values(&row)
        .execute(dbc))?;
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "table.limits_opened",
        "table",
        Some(t.id),
        None,
        Some(&row),
    )?;
    Ok(())
}

/// The table closed (PT-2007 24): a pending change ends with it (audited), and the table
/// plays its game's limits again when it reopens.
pub fn on_close(conn: &mut DbConn, act: &Act, t: &TableRow) -> AppResult<()> {
    if let Some(c) = pending(conn, t.id)? {
        end_pending(conn, act, t, &c, "table closed")?;
    }
    set_table_limits(conn, t.id, None, None)
}

/// The floor's approval of a change (BSOP 34), with its effective point (PT-2007 22). Refused:
/// a table not in play (409), limits a table cannot play or a stated time already past
/// (422, naming the field), the limits in force (409), a change already pending (409: cancel
/// it first). Nothing is written on a refusal. At a table where nobody is seated it applies
/// at once (nobody to tell, no hand in play).
pub fn propose(
    conn: &mut DbConn,
    act: &Act,
    table_id: i64,
    to: &Limits,
    effective: Effective,
) -> AppResult<LimitChangeRow> {
    let (now, actor) = (act.now, &act.actor);
    let t = crate::services::games::get_table(conn, table_id)?;
    if !in_play(&t) {
        return Err(LimitRefusal::NotInPlay { table: t.number }.into());
    }
    let g = match t.game_id {
        Some(g) => crate::services::games::get_game(conn, g)?,
        None => return Err(TableRefusal::NoGame.into()),
    };
    let mut errs = check_limits(to, &fit_of(&g)).err().unwrap_or_default();
    if let Err(f) = check_effective(effective, now) {
        errs.push(f);
    }
    if !errs.is_empty() {
        let currency = super::room::get(conn)?.currency;
        for f in errs.iter_mut().filter(|f| f.key == "limits-err-chip") {
            for (_, v) in f.args.iter_mut() {
                if let Ok(minor) = v.parse::<i64>() {
                    *v = crate::i18n::money(minor, &currency);
                }
            }
        }
        return Err(AppError::Validation(super::in_currency(errs, &currency)));
    }
    let current = of(&t, Some(&g)).unwrap_or_else(|| of_game(&g));
    if current == *to {
        return Err(LimitRefusal::Unchanged { table: t.number }.into());
    }
    if let Some(p) = pending(conn, t.id)? {
        return Err(LimitRefusal::Pending { id: p.id }.into());
    }
    let row = new_row(
        next_seq(conn, "limit_change")?,
        act,
        &t,
        Some(g.id),
        LimitChangeKind::Floor,
        Some(&current),
        to,
        effective.at(),
    );
    insert(conn, &row)?;
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "table.limits_change",
        "table",
        Some(t.id),
        None,
        Some(&row),
    )?;
    push(conn, now, &t, &row)?;
    at_once_if_empty(conn, act, &t, row)
}

/// Nobody seated at the table: nobody to tell, no hand in play; the change applies now.
fn at_once_if_empty(
    conn: &mut DbConn,
    act: &Act,
    t: &TableRow,
    c: LimitChangeRow,
) -> AppResult<LimitChangeRow> {
    let seated: i64 = crate::native!(conn, |dbc| seatings::table
        .filter(seatings::table_id.eq(t.id))
        .filter(seatings::left_at.is_null())
        .count()
        .get_result(dbc))?;
    if seated == 0 {
        apply(conn, act, t, &c, None)
    } else {
        Ok(c)
    }
}

/// A pending change of the table `at_table` (the tablet's; another table's is not found).
fn pending_change(conn: &mut DbConn, id: i64, at_table: Option<i64>) -> AppResult<LimitChangeRow> {
    let c = change(conn, id)?;
    if at_table.is_some_and(|t| t != c.table_id) {
        return Err(AppError::NotFound);
    }
    if c.state != LimitChangeState::Pending {
        return Err(LimitRefusal::NotPending {
            state: c.state.to_string(),
        }
        .into());
    }
    Ok(c)
}

/// Whether the dealer records hands at this table (a "new hand" tap since it opened).
fn records_hands(conn: &mut DbConn, t: &TableRow) -> AppResult<bool> {
    let since = t.opened_at.unwrap_or(t.created_at);
    let n: i64 = crate::native!(conn, |dbc| hands::table
        .filter(hands::table_id.eq(t.id))
        .filter(hands::at.ge(since))
        .count()
        .get_result(dbc))?;
    Ok(n > 0)
}

/// The dealer confirms the change was announced to the players at the table (PT-2007 22's
/// notice; audited). Confirming again changes nothing. At a table that records no hands a
/// change already due takes effect now (see the module's documentation).
pub fn announce(
    conn: &mut DbConn,
    act: &Act,
    id: i64,
    at_table: Option<i64>,
) -> AppResult<LimitChangeRow> {
    let (now, actor) = (act.now, &act.actor);
    let c = pending_change(conn, id, at_table)?;
    if c.announced_at.is_some() {
        return Ok(c);
    }
    let t = crate::services::games::get_table(conn, c.table_id)?;
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(
            limit_changes::table
                .find(id)
                .filter(limit_changes::announced_at.is_null())
        )
        .set((
            limit_changes::announced_at.eq(Some(now.naive_utc())),
            limit_changes::announced_by.eq(actor.id),
        ))
        .returning(limit_changes::id)
    )
    .changed(dbc))?;
    let after = change(conn, id)?;
    audit::record(
        conn,
        now,
        actor,
        "table.limits_announced",
        "table",
        Some(c.table_id),
        Some(&c),
        Some(&after),
    )?;
    push(conn, now, &t, &after)?;
    if takes_effect(&pending_of(&after), now) && !records_hands(conn, &t)? {
        return apply(conn, act, &t, &after, None);
    }
    Ok(after)
}

fn end_pending(
    conn: &mut DbConn,
    act: &Act,
    t: &TableRow,
    c: &LimitChangeRow,
    reason: &str,
) -> AppResult<LimitChangeRow> {
    let (now, actor) = (act.now, &act.actor);
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(
            limit_changes::table
                .find(c.id)
                .filter(crate::db::conditions::LimitChangePending)
        )
        .set((
            limit_changes::state.eq(LimitChangeState::Cancelled),
            limit_changes::cancelled_at.eq(Some(now.naive_utc())),
            limit_changes::cancelled_by.eq(actor.id),
            limit_changes::cancel_reason.eq(Some(reason)),
        ))
        .returning(limit_changes::id)
    )
    .changed(dbc))?;
    let after = change(conn, c.id)?;
    audit::record(
        conn,
        now,
        actor,
        "table.limits_cancelled",
        "table",
        Some(c.table_id),
        Some(c),
        Some(&after),
    )?;
    push(conn, now, t, &after)?;
    Ok(after)
}

/// The longest reason the floor may give for a cancellation.
pub const REASON_MAX: usize = 200;

/// The floor cancels a pending change (BSOP 34: the floor's approval withdrawn). The table's
/// limits stay as they are; audited and pushed.
pub fn cancel(conn: &mut DbConn, act: &Act, id: i64, reason: &str) -> AppResult<LimitChangeRow> {
    let reason = reason.trim();
    if reason.chars().count() > REASON_MAX {
        return Err(AppError::Validation(vec![FieldError::new(
            "reason",
            "err-too-long",
        )
        .arg("max", REASON_MAX)]));
    }
    let c = pending_change(conn, id, None)?;
    let t = crate::services::games::get_table(conn, c.table_id)?;
    end_pending(
        conn,
        act,
        &t,
        &c,
        if reason.is_empty() { "floor" } else { reason },
    )
}

/// The change takes effect now (`hand`: the number of the first hand played at the new
/// limits; none at a table that records no hands).
fn apply(
    conn: &mut DbConn,
    act: &Act,
    t: &TableRow,
    c: &LimitChangeRow,
    hand: Option<i32>,
) -> AppResult<LimitChangeRow> {
    let (now, actor) = (act.now, &act.actor);
    let to = to_of(c);
    set_table_limits(conn, t.id, Some(&to), Some(now.naive_utc()))?;
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(
            limit_changes::table
                .find(c.id)
                .filter(crate::db::conditions::LimitChangePending)
        )
        .set((
            limit_changes::state.eq(LimitChangeState::Applied),
            limit_changes::applied_at.eq(Some(now.naive_utc())),
            limit_changes::applied_by.eq(actor.id),
            limit_changes::applied_hand.eq(hand),
        ))
        .returning(limit_changes::id)
    )
    .changed(dbc))?;
    let after = change(conn, c.id)?;
    audit::record(
        conn,
        now,
        actor,
        "table.limits_applied",
        "table",
        Some(t.id),
        Some(c),
        Some(&after),
    )?;
    push(conn, now, t, &after)?;
    Ok(after)
}

/// The dealer's "new hand" tap starts hand number `hand` at `now`: the table's pending change
/// takes effect with it if it is announced and due (PT-2007 22, BSOP 34); otherwise the hand
/// is played at the limits in force.
pub fn at_new_hand(
    conn: &mut DbConn,
    act: &Act,
    t: &TableRow,
    hand: i32,
) -> AppResult<Option<LimitChangeRow>> {
    let now = act.now;
    match pending(conn, t.id)? {
        Some(c) if takes_effect(&pending_of(&c), now) => {
            Ok(Some(apply(conn, act, t, &c, Some(hand))?))
        }
        _ => Ok(None),
    }
}

/// The scheduler's pass: at tables in play that record no hands, a pending change announced
/// and due takes effect (a stated time reached). Returns how many were applied.
pub fn tick(conn: &mut DbConn, act: &Act) -> AppResult<usize> {
    let now = act.now;
    let due: Vec<(LimitChangeRow, TableRow)> = crate::native!(conn, |dbc| limit_changes::table
        .inner_join(card_tables::table)
        .filter(crate::db::conditions::LimitChangePending)
        .filter(limit_changes::announced_at.is_not_null())
        .filter(
            limit_changes::effective_at
                .is_null()
                .or(limit_changes::effective_at.le(now.naive_utc()))
        )
        .select((LimitChangeRow::as_select(), TableRow::as_select()))
        .load(dbc))?;
    let mut n = 0;
    for (c, t) in due {
        if in_play(&t) && takes_effect(&pending_of(&c), now) && !records_hands(conn, &t)? {
            apply(conn, act, &t, &c, None)?;
            n += 1;
        }
    }
    Ok(n)
}

/// A table of `game_id` in play should come to play `target` (the game's new limits, or a
/// new game's): a pending change to it (from the next hand, after the announcement) unless
/// one is pending already or the table plays them now; another pending change is replaced.
fn retarget(
    conn: &mut DbConn,
    act: &Act,
    t: &TableRow,
    game_id: i64,
    target: &Limits,
) -> AppResult<Option<LimitChangeRow>> {
    let (now, actor) = (act.now, &act.actor);
    let old = pending(conn, t.id)?;
    if let Some(p) = &old {
        if to_of(p) == *target {
            return Ok(Some(p.clone()));
        }
        end_pending(conn, act, t, p, "replaced by the game's new limits")?;
    }
    // A table in play has limits of its own (set when it opened); one without them plays its
    // game's, which are the target already.
    let Some(current) = of(t, None) else {
        return Ok(None);
    };
    if current == *target {
        return Ok(None);
    }
    let row = new_row(
        next_seq(conn, "limit_change")?,
        act,
        t,
        Some(game_id),
        LimitChangeKind::GameEdit,
        Some(&current),
        target,
        None,
    );
    insert(conn, &row)?;
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "table.limits_change",
        "table",
        Some(t.id),
        None,
        Some(&row),
    )?;
    push(conn, now, t, &row)?;
    Ok(Some(at_once_if_empty(conn, act, t, row)?))
}

/// The admin edited a game (PT-2007 22, BSOP 34): its new limits apply to the tables opened
/// afterwards; each of its tables in play keeps its limits and gets a pending change to the
/// new ones, announced and applied like the floor's (at once where nobody is seated).
/// Returns the changes toward the new limits (none when the limits did not change).
pub fn on_game_edit(
    conn: &mut DbConn,
    act: &Act,
    before: &GameRow,
    after: &GameRow,
) -> AppResult<Vec<LimitChangeRow>> {
    let target = of_game(after);
    if of_game(before) == target {
        return Ok(Vec::new());
    }
    let tables: Vec<TableRow> = crate::native!(conn, |dbc| card_tables::table
        .filter(card_tables::game_id.eq(after.id))
        .filter(crate::db::conditions::TableInPlay)
        .order(card_tables::number.asc())
        .select(TableRow::as_select())
        .load(dbc))?;
    let mut out = Vec::new();
    for t in tables {
        if let Some(c) = retarget(conn, act, &t, after.id, &target)? {
            out.push(c);
        }
    }
    Ok(out)
}

/// The admin gave a table in play another game: it keeps its limits and gets a pending change
/// to the new game's (as a game's edit does).
pub fn on_table_game_changed(
    conn: &mut DbConn,
    act: &Act,
    t: &TableRow,
    g: &GameRow,
) -> AppResult<Option<LimitChangeRow>> {
    if !in_play(t) {
        return Ok(None);
    }
    retarget(conn, act, t, g.id, &of_game(g))
}

/// A change as the screens and the API show it: the table's number and who did each step.
#[derive(Debug, Clone, Serialize)]
pub struct ChangeLine {
    pub change: LimitChangeRow,
    pub table_number: i32,
    pub approved_by: Option<String>,
    pub announced_by: Option<String>,
    pub applied_by: Option<String>,
    pub cancelled_by: Option<String>,
}

impl ChangeLine {
    pub fn to(&self) -> Limits {
        to_of(&self.change)
    }
    pub fn from(&self) -> Option<Limits> {
        from_of(&self.change)
    }
}

/// Changes as lines: one table's (newest first, the last `limit`) or given ids.
fn lines(
    conn: &mut DbConn,
    table_id: Option<i64>,
    ids: Option<&[i64]>,
    limit: i64,
) -> AppResult<Vec<ChangeLine>> {
    let mut q = limit_changes::table
        .inner_join(card_tables::table)
        .into_boxed();
    if let Some(t) = table_id {
        q = q.filter(limit_changes::table_id.eq(t));
    }
    if let Some(ids) = ids {
        q = q.filter(limit_changes::id.eq_any(ids.to_vec()));
    }
    let rows: Vec<(LimitChangeRow, i32)> = q
        .order(limit_changes::id.desc())
        .limit(limit)
        .select((LimitChangeRow::as_select(), card_tables::number))
        .load(conn)?;
    let mut who: Vec<i64> = rows
        .iter()
        .flat_map(|(c, _)| [c.approved_by, c.announced_by, c.applied_by, c.cancelled_by])
        .flatten()
        .collect();
    who.sort_unstable();
    who.dedup();
    let names: HashMap<i64, String> = crate::native!(conn, |dbc| staff::table
        .filter(staff::id.eq_any(&who))
        .select((staff::id, staff::display_name))
        .load::<(i64, String)>(dbc))?
    .into_iter()
    .collect();
    let name = |id: Option<i64>| id.and_then(|i| names.get(&i).cloned());
    Ok(rows
        .into_iter()
        .map(|(c, n)| ChangeLine {
            table_number: n,
            approved_by: name(c.approved_by),
            announced_by: name(c.announced_by),
            applied_by: name(c.applied_by),
            cancelled_by: name(c.cancelled_by),
            change: c,
        })
        .collect())
}

/// A table's limits history, newest first (the last 100).
pub fn history(conn: &mut DbConn, table_id: i64) -> AppResult<Vec<ChangeLine>> {
    crate::services::games::get_table(conn, table_id)?;
    lines(conn, Some(table_id), None, 100)
}

/// One change as a line.
pub fn line(conn: &mut DbConn, id: i64) -> AppResult<ChangeLine> {
    lines(conn, None, Some(&[id]), 1)?
        .pop()
        .ok_or(AppError::NotFound)
}

/// Changes by id, as lines, by table number.
pub fn lines_of(conn: &mut DbConn, ids: &[i64]) -> AppResult<Vec<ChangeLine>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut v = lines(conn, None, Some(ids), ids.len() as i64)?;
    v.sort_by_key(|l| l.table_number);
    Ok(v)
}

/// The pending changes of the tables of a game, by table number (the admin's game page).
pub fn pending_of_game(conn: &mut DbConn, game_id: i64) -> AppResult<Vec<ChangeLine>> {
    let ids: Vec<i64> = crate::native!(conn, |dbc| limit_changes::table
        .inner_join(card_tables::table)
        .filter(card_tables::game_id.eq(game_id))
        .filter(crate::db::conditions::LimitChangePending)
        .select(limit_changes::id)
        .load(dbc))?;
    lines_of(conn, &ids)
}

/// Each table's limits over time, for the reports (seconds since the epoch): the limits it
/// opened with and every change applied, in order. Before a table's first record (it last
/// opened before the tables kept their limits) its first change's "from", else its limits
/// now (its own in play, else its game's).
pub fn timelines(conn: &mut DbConn) -> AppResult<HashMap<i64, crate::domain::limits::Timeline>> {
    let rows: Vec<LimitChangeRow> = crate::native!(conn, |dbc| limit_changes::table
        .filter(limit_changes::state.eq(LimitChangeState::Applied))
        .order((limit_changes::applied_at.asc(), limit_changes::id.asc()))
        .select(LimitChangeRow::as_select())
        .load(dbc))?;
    let tables: Vec<(TableRow, Option<GameRow>)> = crate::native!(conn, |dbc| card_tables::table
        .left_join(games::table)
        .select((TableRow::as_select(), Option::<GameRow>::as_select()))
        .load(dbc))?;
    let mut out = HashMap::new();
    for (t, g) in &tables {
        let mine: Vec<&LimitChangeRow> = rows.iter().filter(|c| c.table_id == t.id).collect();
        let Some(now_limits) = of(t, g.as_ref()) else {
            continue;
        };
        let before = mine
            .first()
            .and_then(|c| from_of(c))
            .unwrap_or_else(|| mine.first().map(|c| to_of(c)).unwrap_or(now_limits));
        let steps = mine
            .iter()
            .filter_map(|c| c.applied_at.map(|a| (a.and_utc().timestamp(), to_of(c))))
            .collect();
        out.insert(t.id, crate::domain::limits::Timeline { before, steps });
    }
    Ok(out)
}
