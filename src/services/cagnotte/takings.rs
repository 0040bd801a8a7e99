//! Tips (PT-2007 5, 9d), the drop box of the quick mode and the commission (MO-13 11).

use super::common::{chip_of, game, limits_now};
use super::shifts::{end_shift_row, shift_for};
use crate::db::audit::{self};
use crate::db::models::{CommissionRow, DropBoxRow, TipRow};
use crate::db::schema::{commissions, drop_boxes, hands, seatings, tips};
use crate::db::{next_seq, DbConn};
use crate::domain::cagnotte::{self as rules};
use crate::domain::game::Variant;
use crate::domain::ids::PlayerId;
use crate::domain::ids::TableId;
use crate::domain::money;
use crate::domain::refusal::{CagnotteRefusal, TableRefusal};
use crate::error::{AppError, AppResult};
use crate::services::Act;
use diesel::prelude::*;

/// PT-2007 5, 9d: tips given at the table, recorded apart from the cagnotte, on the dealer's
/// shift.
pub fn record_tip(
    conn: &mut DbConn,
    act: &Act,
    table_id: TableId,
    amount: i64,
) -> AppResult<TipRow> {
    let (now, actor) = (act.now, &act.actor);
    crate::services::check_amount(conn, "amount", money::TIP, amount)?;
    let t = crate::services::games::get_table(conn, table_id)?;
    let shift = shift_for(conn, act, table_id)?;
    let row = TipRow {
        id: next_seq(conn, "tip")?,
        table_id,
        game_id: t.game_id,
        shift_id: shift.as_ref().map(|s| s.id),
        dealer_id: shift.as_ref().map(|s| s.dealer_id),
        amount,
        at: now.naive_utc(),
        recorded_by: actor.id,
    };
    crate::native!(conn, |dbc| diesel::insert_into(tips::table)
        .values(&row)
        .execute(dbc))?;
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "cagnotte.tip",
        "table",
        Some(table_id.get()),
        None,
        Some(&row),
    )?;
    Ok(row)
}

/// The quick mode of per-hand rake: the drop box's total at the end of the dealer's shift
/// (the shift ends with it when `end`).
pub fn record_drop(
    conn: &mut DbConn,
    act: &Act,
    table_id: TableId,
    amount: i64,
    end: bool,
) -> AppResult<DropBoxRow> {
    let (now, actor) = (act.now, &act.actor);
    crate::services::check_amount(conn, "amount", money::DROP_BOX, amount)?;
    let t = crate::services::games::get_table(conn, table_id)?;
    let shift = shift_for(conn, act, table_id)?;
    let row = DropBoxRow {
        id: next_seq(conn, "drop_box")?,
        table_id,
        game_id: t.game_id,
        shift_id: shift.as_ref().map(|s| s.id),
        dealer_id: shift.as_ref().map(|s| s.dealer_id),
        amount,
        at: now.naive_utc(),
        recorded_by: actor.id,
    };
    crate::native!(conn, |dbc| diesel::insert_into(drop_boxes::table)
        .values(&row)
        .execute(dbc))?;
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "cagnotte.drop",
        "table",
        Some(table_id.get()),
        None,
        Some(&row),
    )?;
    if end {
        if let Some(s) = shift {
            end_shift_row(conn, act, &s)?;
        }
    }
    Ok(row)
}

/// MO-13 11: the house's 2 % of a winner's payout in the current round (the table's hand
/// number), rounded down to the smallest chip. Only for the 13-card game.
pub fn record_commission(
    conn: &mut DbConn,
    act: &Act,
    table_id: TableId,
    payout: i64,
    player_id: Option<PlayerId>,
) -> AppResult<CommissionRow> {
    let (now, actor) = (act.now, &act.actor);
    let t = crate::services::games::get_table(conn, table_id)?;
    let g = game(conn, t.game_id.ok_or(TableRefusal::NoGame)?)?;
    if g.variant != Variant::ThirteenCards.to_string() {
        return Err(CagnotteRefusal::CommissionNotThirteen.into());
    }
    // A payout comes out of a round's bets, so at most a pot of the game; a
    // payout of nothing pays no commission.
    let lim = limits_now(conn, &t, &g)?;
    let range = money::pot(lim.buy_in_max);
    crate::services::check_amount(
        conn,
        "payout",
        money::AmountRange::new(1, range.max),
        payout,
    )?;
    if let Some(p) = player_id {
        let seated: i64 = crate::native!(conn, |dbc| seatings::table
            .filter(seatings::table_id.eq(table_id))
            .filter(seatings::player_id.eq(p))
            .filter(seatings::left_at.is_null())
            .count()
            .get_result(dbc))?;
        if seated == 0 {
            return Err(AppError::field("player_id", "err-player-not-seated-here"));
        }
    }
    let round: Option<i32> = crate::native!(conn, |dbc| hands::table
        .filter(hands::table_id.eq(table_id))
        .select(diesel::dsl::max(hands::number))
        .first(dbc))?;
    let row = CommissionRow {
        id: next_seq(conn, "commission")?,
        table_id,
        game_id: t.game_id,
        round: round.unwrap_or(0),
        player_id,
        payout,
        amount: rules::commission(payout, chip_of(&g, &lim)),
        at: now.naive_utc(),
        recorded_by: actor.id,
    };
    crate::native!(conn, |dbc| diesel::insert_into(commissions::table)
        .values(&row)
        .execute(dbc))?;
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "cagnotte.commission",
        "table",
        Some(table_id.get()),
        None,
        Some(&row),
    )?;
    Ok(row)
}
