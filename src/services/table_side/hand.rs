//! Hands (PT-2007 13, 89; BSOP 36, 57): the resting and no-bet flags, and the dealer's "new
//! hand" tap.

use super::*;
use crate::domain::ids::PlayerId;
use crate::domain::ids::SeatingId;
use crate::domain::ids::TableId;
use crate::services::Act;

/// The dealer marks a seat as resting (sitting out, PT-2007 13) or as not having bet in the
/// hand being played (PT-2007 89); the next "new hand" tap counts it.
pub fn set_hand_flags(
    conn: &mut DbConn,
    act: &Act,
    seating_id: SeatingId,
    resting: Option<bool>,
    no_bet: Option<bool>,
    at_table: Option<TableId>,
) -> AppResult<SeatSideRow> {
    let (now, actor) = (act.now, &act.actor);
    let (s, before) = open_seating(conn, seating_id, at_table)?;
    let resting = resting.unwrap_or(before.resting);
    let no_bet = no_bet.unwrap_or(before.no_bet);
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(seatings::table.find(s.id))
            .set((seatings::resting.eq(resting), seatings::no_bet.eq(no_bet)))
            .returning(seatings::id)
    )
    .changed(dbc))?;
    let after = side(conn, s.id)?;
    audit::record(
        conn,
        now,
        actor,
        "seat.hand_flags",
        "player",
        Some(s.player_id.get()),
        Some(&before),
        Some(&after),
    )?;
    emit(
        conn,
        now,
        Some(s.table_id),
        "seat.hand_flags",
        &serde_json::json!({ "seat": s.seat_no, "resting": resting, "no_bet": no_bet }),
    )?;
    Ok(after)
}

/// One seat's notice after a hand.
#[derive(Debug, Clone, Serialize)]
pub struct SeatNotice {
    pub seat: i32,
    pub player_id: PlayerId,
    pub notice: HandNotice,
}

/// The dealer's "new hand" tap: the hand is counted (PT-2007 13, 89, and the cagnotte
/// sessions), the button moves to the next occupied seat (BSOP 57 reads it), empty seats with
/// a missed-blind button get the absence button (BSOP 36), and each present seat's counters
/// take the hand just finished (resting → rested; marked no-bet → no bet; otherwise a bet).
///
/// The tap also ends the hand before it: its pot and rake (`result`, PT-2007 7a) are checked
/// and recorded on it, and the cagnotte session is started or renewed (PT-2007 7b, see
/// [`crate::services::cagnotte::on_hand_over`]); a refused rake changes nothing. When the
/// button's move reaches a special button (BSOP 115, 116) the new hand is its special hand,
/// with each player's fixed contribution ([`crate::services::special_buttons::on_new_hand`]);
/// a Macaca hand must have her result recorded before the tap that ends it.
///
/// PT-2007 22, BSOP 34: the new hand is the first one a pending limit change can reach: it
/// takes effect with this hand if it was announced and is due (the ended hand's result is
/// still checked at the limits it was played at); it is returned.
pub fn new_hand(
    conn: &mut DbConn,
    act: &Act,
    table_id: TableId,
    result: &crate::services::cagnotte::HandResult,
) -> AppResult<(
    HandRow,
    Vec<SeatNotice>,
    crate::services::cagnotte::HandOver,
    Option<crate::db::models::LimitChangeRow>,
)> {
    let room = &act.room;
    let (now, actor) = (act.now, &act.actor);
    let t = table(conn, table_id)?;
    let state = t.state;
    let seated: Vec<(SeatingRow, SeatSideRow)> = crate::native!(conn, |dbc| seatings::table
        .filter(seatings::table_id.eq(table_id))
        .filter(seatings::left_at.is_null())
        .order(seatings::seat_no.asc())
        .select((SeatingRow::as_select(), SeatSideRow::as_select()))
        .load(dbc))?;
    // PT-2007 24: no hand — not even the first — below the room's minimum to run.
    crate::domain::table::may_deal_hand(state, seated.len(), room.profile.min_players_to_run)
        .map_err(AppError::Conflict)?;
    // BSOP 116: a Macaca hand ends with her result recorded.
    crate::services::special_buttons::check_hand_may_end(conn, &t)?;
    let number: Option<i32> = crate::native!(conn, |dbc| hands::table
        .filter(hands::table_id.eq(table_id))
        .select(diesel::dsl::max(hands::number))
        .first(dbc))?;
    let limits = crate::services::limits::at_new_hand(conn, act, &t, number.unwrap_or(0) + 1)?;
    // `t` as read before the change: the ended hand is checked at the limits it was played at.
    let over = crate::services::cagnotte::on_hand_over(conn, act, &t, result)?;
    let present: Vec<i32> = seated
        .iter()
        .filter(|(_, sd)| sd.away_since.is_none())
        .map(|(s, _)| s.seat_no)
        .collect();
    let button = seat_rules::next_button(&present, t.button_seat);
    let row = start_hand(conn, act, &t, number.unwrap_or(0) + 1, button)?;
    // BSOP 115, 116: the button's move may reach a special button: this hand is its game,
    // played at the limits in force from this hand (a change may have just taken effect).
    let at_new = if limits.is_some() {
        table(conn, table_id)?
    } else {
        t.clone()
    };
    let special = crate::services::special_buttons::on_new_hand(
        conn,
        act,
        &at_new,
        t.button_seat,
        button,
        &row,
        &seated,
    )?;
    let notices = count_the_hand(conn, &seated)?;
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "table.hand",
        "table",
        Some(table_id.get()),
        None,
        Some(
            &serde_json::json!({ "hand": row, "notices": notices, "limit_change": limits.as_ref().map(|c| c.id) }),
        ),
    )?;
    emit(
        conn,
        now,
        Some(table_id),
        "table.hand",
        &serde_json::json!({ "table": t.number, "number": row.number, "button": button, "notices": notices, "cagnotte": over, "special": special.as_ref().map(|s| &s.kind) }),
    )?;
    Ok((row, notices, over, limits))
}

/// The new hand's row, and the button moved to its seat.
fn start_hand(
    conn: &mut DbConn,
    act: &Act,
    t: &TableRow,
    number: i32,
    button: Option<i32>,
) -> AppResult<HandRow> {
    let table_id = t.id;
    let row = HandRow {
        id: next_seq(conn, "hand")?,
        table_id,
        game_id: t.game_id,
        number,
        button_seat: button,
        at: act.now.naive_utc(),
        recorded_by: act.actor.id,
        ended_at: None,
        pot: None,
        rake: None,
        preflop_no_bet: false,
        result_by: None,
        boards: 1,
    };
    crate::native!(conn, |dbc| diesel::insert_into(hands::table)
        .values(&row)
        .execute(dbc))?;
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(card_tables::table.find(table_id))
            .set(card_tables::button_seat.eq(button))
            .returning(card_tables::id)
    )
    .changed(dbc))?;
    Ok(row)
}

/// Each seat takes the hand just finished: an empty seat with a missed-blind button gets the
/// absence button (BSOP 36), a present one's counters count it; the notices to show.
fn count_the_hand(
    conn: &mut DbConn,
    seated: &[(SeatingRow, SeatSideRow)],
) -> AppResult<Vec<SeatNotice>> {
    let mut notices = Vec::new();
    for (s, sd) in seated {
        if sd.away_since.is_some() {
            let mut b = buttons_of(sd);
            b.on_seat_empty_at_hand_start();
            if b.absence != sd.absence_button {
                crate::native!(conn, |dbc| crate::db::Cached(
                    diesel::update(seatings::table.find(s.id))
                        .set(seatings::absence_button.eq(b.absence))
                        .returning(seatings::id)
                )
                .changed(dbc))?;
            }
            continue;
        }
        let notice = count_present_seat(conn, s, sd)?;
        if notice != HandNotice::Nothing {
            notices.push(SeatNotice {
                seat: s.seat_no,
                player_id: s.player_id,
                notice,
            });
        }
    }
    Ok(notices)
}

/// A present seat's counters take the hand (resting → rested; marked no-bet → no bet;
/// otherwise a bet), its no-bet mark is cleared and its notice shown.
fn count_present_seat(
    conn: &mut DbConn,
    s: &SeatingRow,
    sd: &SeatSideRow,
) -> AppResult<HandNotice> {
    let mut counter = HandCounter {
        hands_without_betting: sd.hands_no_bet.max(0) as u32,
        rest_hands: sd.rest_hands.max(0) as u32,
        rested_since_bet: sd.rested_since_bet,
    };
    let play = if sd.resting {
        HandPlay::Rested
    } else if sd.no_bet {
        HandPlay::NoBet
    } else {
        HandPlay::Bet
    };
    let notice = counter.on_new_hand(play);
    let key = match notice {
        HandNotice::Resting { hands_left } => Some(format!("rules-hands-resting|{hands_left}")),
        n => n.notice().map(|p| p.key.to_string()),
    };
    // A return obligation (BSOP 39, PT-2007 90) stays shown until the blinds are settled.
    let keep_return = sd
        .hand_notice
        .as_deref()
        .is_some_and(|k| k.starts_with("rules-return-"));
    let shown = if keep_return && key.is_none() {
        sd.hand_notice.clone()
    } else {
        key
    };
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(seatings::table.find(s.id))
            .set((
                seatings::hands_no_bet.eq(counter.hands_without_betting as i32),
                seatings::rest_hands.eq(counter.rest_hands as i32),
                seatings::rested_since_bet.eq(counter.rested_since_bet),
                seatings::no_bet.eq(false),
                seatings::hand_notice.eq(shown),
            ))
            .returning(seatings::id)
    )
    .changed(dbc))?;
    Ok(notice)
}

/// How many hands a table has counted since `since`.
pub fn hands_since(conn: &mut DbConn, table_id: TableId, since: NaiveDateTime) -> AppResult<i64> {
    Ok(crate::native!(conn, |dbc| hands::table
        .filter(hands::table_id.eq(table_id))
        .filter(hands::at.ge(since))
        .count()
        .get_result(dbc))?)
}
