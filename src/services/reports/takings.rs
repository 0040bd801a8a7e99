//! The steps of [`build`](fn@super::build) that add up money: what the house took and was owed
//! (cagnotte dues, rake, drop boxes, commissions), the tips, and the special hands' pots.

use super::buckets::{add, add_in, group_hands, Acc, Buckets};
use super::rows;
use super::scope::{Scope, Span};
use crate::db::DbConn;
use crate::domain::money;
use crate::error::AppResult;
use std::collections::{HashMap, HashSet};

/// Cagnotte sessions and their dues (PT-2007 7b): counted, owed, collected, exempted.
pub(super) fn add_sessions_and_dues(
    conn: &mut DbConn,
    span: &Span,
    scope: &Scope,
    clock: &Buckets,
    acc: &mut Acc,
) -> AppResult<()> {
    let (nf, nt) = (span.nf, span.nt);
    for (table, game, t) in rows::sessions(conn, nf, nt)? {
        if !scope.keep(table, game) {
            continue;
        }
        add!(acc, clock, table, game, t, clock.shift_of(table, t), |f| {
            f.sessions += 1
        });
    }
    for (table, game, amount, exempt, collected, t) in rows::dues(conn, nf, nt)? {
        if !scope.keep(table, game) {
            continue;
        }
        let got = if exempt { 0 } else { collected.unwrap_or(0) };
        add!(acc, clock, table, game, t, clock.shift_of(table, t), |f| {
            f.dues += 1;
            money::add_to(&mut f.due, amount)?;
            money::add_to(&mut f.collected, got)?;
            if exempt {
                money::add_to(&mut f.exempt, amount)?;
                f.exempt_count += 1;
            }
        });
        if let Some(h) = clock.hour_at(t) {
            money::add_to(&mut acc.hours[h].cagnotte, got)?;
        }
    }
    Ok(())
}

/// Hands and their rake (PT-2007 7a): ~650k a month, counted per (table, game, day,
/// shift, hour) by runs (see [`group_hands`]), then each group added to its rows.
pub(super) fn add_hands(
    conn: &mut DbConn,
    span: &Span,
    scope: &Scope,
    clock: &Buckets,
    acc: &mut Acc,
) -> AppResult<()> {
    let hand_groups = group_hands(
        rows::hands(conn, span.nf, span.nt)?,
        clock,
        &|table, own| scope.game_of(table, own),
        &|table, game| scope.keep(table, game),
    )?;
    for ((table, game, day, shift, hour), (count, rake)) in hand_groups {
        add_in!(acc, table, game, day, shift, |f| {
            f.hands += count;
            money::add_to(&mut f.rake, rake)?;
        });
        if let Some(h) = hour {
            money::add_to(&mut acc.hours[h].cagnotte, rake)?;
        }
    }
    Ok(())
}

/// Drop boxes (the quick per-hand mode) and tips: by their shift (one of `known_shifts`),
/// else by their time.
pub(super) fn add_drop_boxes_and_tips(
    conn: &mut DbConn,
    span: &Span,
    scope: &Scope,
    clock: &Buckets,
    known_shifts: &HashSet<i64>,
    acc: &mut Acc,
) -> AppResult<()> {
    let (nf, nt) = (span.nf, span.nt);
    for (table, own_game, shift, amount, t) in rows::drop_boxes(conn, nf, nt)? {
        let game = scope.game_of(table, own_game);
        if !scope.keep(table, game) {
            continue;
        }
        let shift = shift
            .filter(|s| known_shifts.contains(s))
            .or_else(|| clock.shift_of(table, t));
        add!(acc, clock, table, game, t, shift, |f| money::add_to(
            &mut f.drop_box,
            amount
        )?);
        if let Some(h) = clock.hour_at(t) {
            money::add_to(&mut acc.hours[h].cagnotte, amount)?;
        }
    }
    for (table, own_game, shift, amount, t) in rows::tips(conn, nf, nt)? {
        let game = scope.game_of(table, own_game);
        if !scope.keep(table, game) {
            continue;
        }
        let shift = shift
            .filter(|s| known_shifts.contains(s))
            .or_else(|| clock.shift_of(table, t));
        add!(acc, clock, table, game, t, shift, |f| money::add_to(
            &mut f.tips,
            amount
        )?);
    }
    Ok(())
}

/// Commissions (MO-13 11).
pub(super) fn add_commissions(
    conn: &mut DbConn,
    span: &Span,
    scope: &Scope,
    clock: &Buckets,
    acc: &mut Acc,
) -> AppResult<()> {
    for (table, own_game, amount, t) in rows::commissions(conn, span.nf, span.nt)? {
        let game = scope.game_of(table, own_game);
        if !scope.keep(table, game) {
            continue;
        }
        add!(acc, clock, table, game, t, clock.shift_of(table, t), |f| {
            money::add_to(&mut f.commission, amount)?
        });
        if let Some(h) = clock.hour_at(t) {
            money::add_to(&mut acc.hours[h].cagnotte, amount)?;
        }
    }
    Ok(())
}

/// Special hands (BSOP 115, 116) and the fixed contributions put in them, per button.
pub(super) fn add_special_hands(
    conn: &mut DbConn,
    span: &Span,
    scope: &Scope,
    clock: &Buckets,
    acc: &mut Acc,
) -> AppResult<()> {
    let (nf, nt) = (span.nf, span.nt);
    let mut put: HashMap<i64, i64> = HashMap::new();
    for (special, amount) in rows::special_contributions(conn, nf, nt)? {
        money::add_to(put.entry(special).or_default(), amount)?;
    }
    for (id, table, own_game, kind, t) in rows::special_hands(conn, nf, nt)? {
        let game = scope.game_of(table, own_game);
        if !scope.keep(table, game) {
            continue;
        }
        let amount = put.get(&id).copied().unwrap_or(0);
        let macaca = kind == crate::domain::special_buttons::SpecialButton::Macaca.as_str();
        add!(acc, clock, table, game, t, clock.shift_of(table, t), |f| {
            if macaca {
                f.macaca_hands += 1;
                money::add_to(&mut f.macaca_contributions, amount)?;
            } else {
                f.cucurucho_hands += 1;
                money::add_to(&mut f.cucurucho_contributions, amount)?;
            }
        });
    }
    Ok(())
}
