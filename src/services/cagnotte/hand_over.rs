//! The dealer's "hand over" tap: the ended hand's pot and rake (PT-2007 7a), and the session
//! that starts or ends with it (PT-2007 7b).

use super::common::{chip_of, field_refusal, game, per_session};
use super::sessions::{close_session, open_session, start_session, state_of};
use super::shifts::keep_shift;
use crate::db::audit::{self};
use crate::db::models::{GameRow, HandRow, TableRow};
use crate::db::schema::hands;
use crate::db::DbConn;
use crate::domain::cagnotte::{self as rules, SessionState};
use crate::domain::limits::Limits;
use crate::domain::money;
use crate::domain::refusal::CagnotteRefusal;
use crate::domain::Problem;
use crate::error::{AppError, AppResult};
use crate::services::Act;
use diesel::prelude::*;
use serde::{Deserialize, Serialize};

/// What the dealer recorded about the hand that just ended (PT-2007 7a).
#[derive(Debug, Clone, Default, Deserialize, Serialize, utoipa::ToSchema)]
pub struct HandResult {
    /// The pot, minor units: 0 to 11 stacks of 100 maximum buy-ins of the game
    /// (1,100,000,000,000 without a maximum), else 422.
    #[schema(minimum = 0, maximum = 1100000000000_i64)]
    pub pot: Option<i64>,
    /// The rake taken from it, minor units: at most the pot and PT-2007 7a's 5 % (422).
    #[schema(minimum = 0)]
    pub rake: Option<i64>,
    /// PT-ONL 18: the hand ended before the flop without a voluntary bet.
    #[serde(default)]
    pub preflop_no_bet: bool,
    /// BSOP 90: the boards the hand was run on, 1 to 3 (absent: 1). A hand run more than
    /// once is raked once, on its whole pot, and not left unraked.
    #[schema(minimum = 1, maximum = 3)]
    pub boards: Option<i32>,
}

impl HandResult {
    pub fn is_empty(&self) -> bool {
        self.pot.is_none() && self.rake.is_none() && !self.preflop_no_bet && self.boards.is_none()
    }
}

/// What the "hand over" tap did to the cagnotte.
#[derive(Debug, Clone, Default, Serialize)]
pub struct HandOver {
    /// The session closed by this tap (its number).
    pub closed: Option<i32>,
    /// The session started by this tap (its number).
    pub started: Option<i32>,
}

/// The dealer's "hand over" tap (called by [`crate::services::table_side::new_hand`] before the
/// new hand is counted, in its transaction): records the ended hand's pot and rake, keeps the
/// dealer's shift, and for per-session games starts the first session or — the hour of play
/// being up — closes the session and starts the next (PT-2007 7b).
pub fn on_hand_over(
    conn: &mut DbConn,
    act: &Act,
    t: &TableRow,
    result: &HandResult,
) -> AppResult<HandOver> {
    let (now, actor) = (act.now, &act.actor);
    let Some(game_id) = t.game_id else {
        return Ok(HandOver::default());
    };
    let g = game(conn, game_id)?;
    let last: Option<HandRow> = crate::native!(conn, |dbc| hands::table
        .filter(hands::table_id.eq(t.id))
        .order(hands::number.desc())
        .select(HandRow::as_select())
        .first(dbc)
        .optional())?;
    if !result.is_empty() {
        let Some(h) = last.as_ref() else {
            return Err(CagnotteRefusal::HandNoneToRecord.into());
        };
        // The ended hand was played at the limits `t` was read with (before any change the
        // new hand brings, PT-2007 22).
        let lim = crate::services::limits::of(t, Some(&g))
            .unwrap_or_else(|| crate::services::limits::of_game(&g));
        record_result(conn, act, &g, &lim, h, result)?;
    } else if let Some(h) = last.as_ref() {
        crate::native!(conn, |dbc| diesel::update(hands::table.find(h.id))
            .set(hands::ended_at.eq(Some(now.naive_utc())))
            .execute(dbc))?;
    }
    if let Some(id) = actor.id {
        keep_shift(conn, act, t.id, id)?;
    }
    let mut out = HandOver::default();
    if !per_session(&g) {
        return Ok(out);
    }
    match open_session(conn, t.id)? {
        None => {
            out.started = Some(start_session(conn, act, t, &g)?.number);
        }
        Some(s) => {
            if matches!(state_of(conn, &s, now)?, SessionState::Finishing { .. }) {
                close_session(conn, act, &s, "hand_over")?;
                out.closed = Some(s.number);
                out.started = Some(start_session(conn, act, t, &g)?.number);
            }
        }
    }
    Ok(out)
}

fn record_result(
    conn: &mut DbConn,
    act: &Act,
    g: &GameRow,
    lim: &Limits,
    h: &HandRow,
    r: &HandResult,
) -> AppResult<()> {
    let room = &act.room;
    let (now, actor) = (act.now, &act.actor);
    let pot = r.pot.unwrap_or(0);
    let rake = r.rake.unwrap_or(0);
    // A pot is at most every seat's stack (domain::money::pot); the rake is then
    // bounded by it (PT-2007 7a, below).
    money::pot(lim.buy_in_max)
        .check(pot)
        .map_err(|p| field_refusal("pot", p, room))?;
    if rake > 0 && per_session(g) {
        return Err(field_refusal(
            "rake",
            Problem::from(CagnotteRefusal::RakeSessionGame),
            room,
        ));
    }
    if r.pot.is_none() && rake > 0 {
        return Err(AppError::field("pot", "err-required"));
    }
    let p = &room.profile;
    rules::check_rake(
        pot,
        rake,
        g.cagnotte_bp,
        g.rake_cap,
        chip_of(g, lim),
        r.preflop_no_bet,
        p.no_flop_no_drop,
    )
    .map_err(|e| field_refusal("rake", e, room))?;
    // BSOP 90: run more than once, raked once by the hand's result (a game charged per
    // session takes nothing per hand).
    let boards = r.boards.unwrap_or(1);
    if boards > 1 && r.pot.is_none() && !per_session(g) {
        return Err(field_refusal(
            "pot",
            Problem::from(CagnotteRefusal::BoardsPotMissing),
            room,
        ));
    }
    let allowed = if per_session(g) {
        0
    } else {
        rules::max_rake(
            pot,
            g.cagnotte_bp,
            g.rake_cap,
            chip_of(g, lim),
            r.preflop_no_bet,
            p.no_flop_no_drop,
        )
    };
    rules::check_boards(boards, rake, allowed, r.preflop_no_bet).map_err(|e| {
        let field = if e.key == "rules-boards-rake-missing" {
            "rake"
        } else {
            "boards"
        };
        field_refusal(field, e, room)
    })?;
    crate::native!(conn, |dbc| diesel::update(hands::table.find(h.id))
        .set((
            hands::ended_at.eq(Some(now.naive_utc())),
            hands::pot.eq(r.pot),
            hands::rake.eq(Some(rake)),
            hands::preflop_no_bet.eq(r.preflop_no_bet),
            hands::result_by.eq(actor.id),
            hands::boards.eq(boards),
        ))
        .execute(dbc))?;
    audit::record(
        conn,
        now,
        actor,
        "cagnotte.rake",
        "table",
        Some(h.table_id.get()),
        Some(h),
        Some(
            &serde_json::json!({ "hand": h.number, "pot": r.pot, "rake": rake, "preflop_no_bet": r.preflop_no_bet, "boards": boards }),
        ),
    )?;
    Ok(())
}
