//! The player's own page (`/p/{token}`): what one player may see of the room —
//! their places in line, their seat calls, where they sit, today's summary — and their three
//! answers to the floor. Other players appear only as counts (how many are ahead, how many
//! on the list), never by name.
//!
//! BSOP 43 makes being there when called the player's duty; this page makes it fair: the
//! place, the wait every screen shows (`services::waits`), the call with its
//! deadline, and a way to answer it ("on my way", "need more time" once, "leave this list").
//! Every answer is audited with the player as the actor ([`Actor::player`]) and pushed as an
//! event, so the floor dashboard and the table's tablet see it at once.
//!
//! PT-ONL 65-67 ask the operator to give the player clear information on amounts played at
//! the end of a session: the page's "today" shows, per game, the time played in this gaming
//! day (which ends at `CARDROOM_GAMING_DAY_ENDS` in the room's zone, as the links do), the
//! total bought in and the total taken off.

use crate::db::audit::{self, Actor};
use crate::db::models::SeatCallRow;
use crate::db::schema::{
    buyins, card_tables, games, players, seat_calls, seatings, waitlist_entries,
};
use crate::db::DbConn;
use crate::domain::ids::EntryId;
use crate::domain::ids::GameId;
use crate::domain::ids::PlayerId;
use crate::domain::ids::SeatCallId;
use crate::domain::ids::TableId;
use crate::domain::player::Language;
use crate::domain::refusal::CallRefusal;
use crate::domain::states::{CallSource, CallState};
use crate::error::{AppError, AppResult};
use crate::notify::link::gaming_day_end;
use crate::services::floor;
use crate::services::room::Room;
use crate::services::Acting;
use chrono::{DateTime, Duration, NaiveDateTime, NaiveTime, Utc};
use diesel::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;

/// A seat call as its player sees it.
#[derive(Debug, Clone, Serialize)]
pub struct CallView {
    pub call_id: SeatCallId,
    pub table: i32,
    pub seat: i32,
    pub respond_by: DateTime<Utc>,
    /// `on_my_way` or `more_time` once the player answered.
    pub answer: Option<String>,
    /// The window was moved once already ("need more time" is no longer offered).
    pub extended: bool,
    /// The table acknowledged the call (the seat is kept).
    pub acknowledged: bool,
    /// Why the seat is offered: from a list, a must-move (BSOP 55, 57) or a seat change at
    /// the player's own table (PT-2007 12, BSOP 51).
    pub source: CallSource,
}

/// One list the player is on.
#[derive(Debug, Clone, Serialize)]
pub struct ListView {
    pub entry_id: EntryId,
    pub game: String,
    pub small_blind: i64,
    pub big_blind: i64,
    /// PT-2007 8a: the place as the floor sees it (None: a call-in lapsed, not counted).
    pub position: Option<usize>,
    /// How many players are ahead, and on the list in all (counts only).
    pub ahead: usize,
    pub of: usize,
    /// The wait shown for this place (`services::waits`, as every screen shows it: "a seat
    /// is free now" when one is free for this place). None: not counted, or no table of the
    /// game in play.
    pub wait: Option<crate::domain::waits::WaitEstimate>,
    /// A call-in that lapses unless the player checks in at the desk by then.
    pub call_in_until: Option<DateTime<Utc>>,
    /// The open seat call of this entry.
    pub call: Option<CallView>,
}

/// A seat the player holds now.
#[derive(Debug, Clone, Serialize)]
pub struct SeatedView {
    pub table: i32,
    pub seat: i32,
    pub game: Option<String>,
    pub since: DateTime<Utc>,
    /// PT-2007 22, BSOP 24: the table's limits now, and a change coming (the new limits and
    /// its stated time; none: from the next hand).
    pub limits: Option<crate::domain::limits::Limits>,
    pub coming: Option<(crate::domain::limits::Limits, Option<NaiveDateTime>)>,
    /// A move the floor called the player to from this seat: a must-move to a main game
    /// (BSOP 55, 57) or a seat change (PT-2007 12, BSOP 51), with where and by when.
    pub moving: Option<CallView>,
}

/// PT-ONL 65-67: one game's figures for today.
#[derive(Debug, Clone, Default, Serialize)]
pub struct GameDay {
    pub game: String,
    /// Minutes seated in this gaming day (up to now).
    pub minutes: i64,
    /// Buy-ins and rebuys, in minor units.
    pub bought_in: i64,
    /// Chips taken off the table (cash-outs, chips removed into custody), in minor units.
    pub taken_off: i64,
}

/// Everything the player's page shows.
#[derive(Debug, Clone, Serialize)]
pub struct PlayerView {
    pub player_id: PlayerId,
    /// The player's own alias (shown as "hello, …"; their own data only).
    pub alias: String,
    pub language: Language,
    pub lists: Vec<ListView>,
    pub seated: Vec<SeatedView>,
    pub today: Vec<GameDay>,
    pub day_start: DateTime<Utc>,
    pub day_end: DateTime<Utc>,
    /// The player's own seat preference (empty: none stated).
    pub pref: crate::domain::seat_pref::SeatPreference,
}

impl PlayerView {
    /// PT-ONL 67: the day's totals, added in i128 and never wrapped.
    pub fn total_bought_in(&self) -> i64 {
        crate::domain::money::sum_wide(self.today.iter().map(|g| g.bought_in))
    }
    pub fn total_taken_off(&self) -> i64 {
        crate::domain::money::sum_wide(self.today.iter().map(|g| g.taken_off))
    }
}

/// The gaming day `now` falls in: from the last cut-over to the next one (room's zone).
pub fn gaming_day(
    now: DateTime<Utc>,
    room: &Room,
    day_ends: NaiveTime,
) -> (DateTime<Utc>, DateTime<Utc>) {
    let end = gaming_day_end(now, room.tz, day_ends);
    let start = gaming_day_end(now - Duration::days(1), room.tz, day_ends).min(now);
    (start, end)
}

/// The player's page as of `now`.
pub fn view(
    conn: &mut DbConn,
    models: &crate::services::waits::Models,
    now: DateTime<Utc>,
    room: &Room,
    player_id: PlayerId,
    day_ends: NaiveTime,
) -> AppResult<PlayerView> {
    let (alias, language): (String, String) = players::table
        .find(player_id)
        .select((players::alias, players::language))
        .first(conn)?;
    let language = language.parse().unwrap_or(room.default_language);
    let calls = open_calls_of(conn, player_id)?;
    let lists = lists_of(conn, models, now, player_id, &calls)?;
    let seated = seats_of(conn, player_id, &calls)?;
    let (day_start, day_end) = gaming_day(now, room, day_ends);
    let today = today(conn, now, player_id, day_start)?;
    let pref = crate::services::seat_prefs::get(conn, player_id)?;
    Ok(PlayerView {
        pref,
        player_id,
        alias,
        language,
        lists,
        seated,
        today,
        day_start,
        day_end,
    })
}

/// The lists: the player's active entries, each with its place computed as the floor does,
/// its wait and its open call.
/// The player's open seat calls, each with its table's number.
fn open_calls_of(conn: &mut DbConn, player_id: PlayerId) -> AppResult<Vec<(SeatCallRow, i32)>> {
    Ok(seat_calls::table
        .inner_join(card_tables::table.on(card_tables::id.eq(seat_calls::table_id)))
        .filter(seat_calls::player_id.eq(player_id))
        .filter(crate::db::conditions::CallOpen)
        .select((SeatCallRow::as_select(), card_tables::number))
        .load(conn)?)
}

fn lists_of(
    conn: &mut DbConn,
    models: &crate::services::waits::Models,
    now: DateTime<Utc>,
    player_id: PlayerId,
    calls: &[(SeatCallRow, i32)],
) -> AppResult<Vec<ListView>> {
    let entries: Vec<(
        i64,
        GameId,
        Option<NaiveDateTime>,
        Option<NaiveDateTime>,
        String,
        i64,
        i64,
    )> = waitlist_entries::table
        .inner_join(games::table.on(games::id.eq(waitlist_entries::game_id)))
        .filter(waitlist_entries::player_id.eq(player_id))
        .filter(crate::db::conditions::EntryActive)
        .order(waitlist_entries::joined_at.asc())
        .select((
            waitlist_entries::id,
            waitlist_entries::game_id,
            waitlist_entries::call_in_expires_at,
            waitlist_entries::checked_in_at,
            games::name,
            games::small_blind,
            games::big_blind,
        ))
        .load(conn)?;
    let mut lists = Vec::with_capacity(entries.len());
    for (entry_id, game_id, call_in, checked_in, game, sb, bb) in entries {
        let place = floor::place_of(conn, game_id, EntryId(entry_id), now)?;
        let wait = match place {
            Some(p) => {
                crate::services::waits::of_game(conn, models, now, game_id)?.for_ahead(p.ahead)
            }
            None => None,
        };
        let call = calls
            .iter()
            .find(|(c, _)| c.entry_id == Some(EntryId(entry_id)))
            .map(|(c, number)| call_view(c, *number));
        lists.push(ListView {
            entry_id: EntryId(entry_id),
            game,
            small_blind: sb,
            big_blind: bb,
            position: place.map(|p| p.position),
            ahead: place.map_or(0, |p| p.ahead),
            of: place.map_or(0, |p| p.of),
            wait,
            call_in_until: if checked_in.is_none() {
                call_in.map(|t| t.and_utc())
            } else {
                None
            },
            call,
        });
    }
    Ok(lists)
}

/// The seats the player holds, each with its table's limits, a change coming, and a move the
/// floor called them to (a call of no list entry: a must-move or a seat change).
fn seats_of(
    conn: &mut DbConn,
    player_id: PlayerId,
    calls: &[(SeatCallRow, i32)],
) -> AppResult<Vec<SeatedView>> {
    let seated: Vec<(i64, i32, i32, Option<String>, NaiveDateTime)> = seatings::table
        .inner_join(card_tables::table.on(card_tables::id.eq(seatings::table_id)))
        .left_join(games::table.on(games::id.nullable().eq(seatings::game_id)))
        .filter(seatings::player_id.eq(player_id))
        .filter(seatings::left_at.is_null())
        .select((
            card_tables::id,
            card_tables::number,
            seatings::seat_no,
            games::name.nullable(),
            seatings::sat_at,
        ))
        .load(conn)?;
    let mut seats = Vec::with_capacity(seated.len());
    for (table_id, table, seat, game, since) in seated {
        // PT-2007 22: the notice of a change reaches the players of that table.
        let coming = crate::services::limits::pending(conn, TableId(table_id))?
            .map(|c| (crate::services::limits::to_of(&c), c.effective_at));
        seats.push(SeatedView {
            table,
            seat,
            game,
            since: since.and_utc(),
            limits: crate::services::limits::of_table(conn, TableId(table_id))?,
            coming,
            moving: calls
                .iter()
                .find(|(c, _)| c.source != CallSource::List)
                .map(|(c, number)| call_view(c, *number)),
        });
    }
    Ok(seats)
}

fn call_view(c: &SeatCallRow, table: i32) -> CallView {
    CallView {
        call_id: c.id,
        table,
        seat: c.seat_no,
        respond_by: c.respond_by.and_utc(),
        answer: c.player_answer.clone(),
        extended: c.extended_at.is_some(),
        acknowledged: c.state == CallState::Acknowledged,
        source: c.source,
    }
}

/// PT-ONL 65-67: time played, bought in and taken off per game since the gaming day began.
fn today(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    player_id: PlayerId,
    start: DateTime<Utc>,
) -> AppResult<Vec<GameDay>> {
    let (s, n) = (start.naive_utc(), now.naive_utc());
    let names: BTreeMap<i64, String> = games::table
        .select((games::id, games::name))
        .load::<(i64, String)>(conn)?
        .into_iter()
        .collect();
    let name = |g: Option<i64>| {
        g.and_then(|g| names.get(&g).cloned())
            .unwrap_or_else(|| "—".into())
    };
    let mut by_game: BTreeMap<String, GameDay> = BTreeMap::new();
    // Seatings overlapping the day: the part inside it counts.
    let sits: Vec<(
        Option<i64>,
        NaiveDateTime,
        Option<NaiveDateTime>,
        Option<i64>,
    )> = seatings::table
        .filter(seatings::player_id.eq(player_id))
        .filter(seatings::sat_at.le(n))
        .filter(seatings::left_at.is_null().or(seatings::left_at.gt(s)))
        .select((
            seatings::game_id,
            seatings::sat_at,
            seatings::left_at,
            seatings::taken_off,
        ))
        .load(conn)?;
    for (g, sat, left, taken) in sits {
        let d = by_game.entry(name(g)).or_insert_with(|| GameDay {
            game: name(g),
            ..GameDay::default()
        });
        let from = sat.max(s);
        let to = left.unwrap_or(n).min(n);
        d.minutes += ((to - from).num_seconds().max(0)) / 60;
        if left.is_some_and(|l| l > s && l <= n) {
            crate::domain::money::add_to(&mut d.taken_off, taken.unwrap_or(0))?;
        }
    }
    let bought: Vec<(Option<i64>, i64)> = buyins::table
        .filter(buyins::player_id.eq(player_id))
        .filter(buyins::at.ge(s))
        .filter(buyins::at.le(n))
        .select((buyins::game_id, buyins::amount))
        .load(conn)?;
    for (g, amount) in bought {
        let d = by_game.entry(name(g)).or_insert_with(|| GameDay {
            game: name(g),
            ..GameDay::default()
        });
        crate::domain::money::add_to(&mut d.bought_in, amount)?;
    }
    Ok(by_game.into_values().collect())
}

/// The player's answers to a seat call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    OnMyWay,
    MoreTime,
}

impl Answer {
    pub fn as_str(self) -> &'static str {
        match self {
            Answer::OnMyWay => "on_my_way",
            Answer::MoreTime => "more_time",
        }
    }
}

/// The player's open call, refused as not found when it is another player's (nothing is
/// told about other players' calls) and as a conflict when it is no longer open or its
/// window is over.
fn own_open_call(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    player_id: PlayerId,
    call_id: SeatCallId,
) -> AppResult<SeatCallRow> {
    let c = floor::call(conn, call_id)?;
    if c.player_id != player_id {
        return Err(AppError::NotFound);
    }
    if !c.state.is_open() {
        return Err(CallRefusal::CallNotOpen.into());
    }
    if c.respond_by.and_utc() <= now {
        return Err(CallRefusal::CallExpired.into());
    }
    Ok(c)
}

/// BSOP 43: the player answers a seat call from their link. Both answers hold the seat: the
/// response window moves by `extension` (the room's `call_extension_min`) — once per call.
/// "On my way" takes the grace if the call has not had it yet (the player said they are
/// coming: the call must not expire under them while they walk to the table, nor tell them
/// in the same minute that the seat went to the next player); "more time" asked after any
/// extension is a 409 `plink-err-extended-once`. Audited (`seat.call_answer`) with the player
/// as the actor, and pushed (`seat.call_answer`, to the floor and the table's tablet).
/// Answering "on my way" twice changes nothing and records nothing.
pub fn answer_call(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    player_id: PlayerId,
    call_id: SeatCallId,
    answer: Answer,
    extension: Duration,
) -> AppResult<SeatCallRow> {
    let c = own_open_call(conn, now, player_id, call_id)?;
    let at = Some(now.naive_utc());
    let n = match answer {
        Answer::OnMyWay => {
            if c.player_answer.as_deref() == Some(Answer::OnMyWay.as_str()) {
                return Ok(c);
            }
            // The grace once: a call already extended keeps its window.
            let (extended, respond_by) = match c.extended_at {
                Some(e) => (Some(e), c.respond_by),
                None => (at, c.respond_by + extension),
            };
            diesel::update(
                seat_calls::table
                    .find(call_id)
                    .filter(seat_calls::respond_by.eq(c.respond_by)),
            )
            .set((
                seat_calls::player_answer.eq(Some(answer.as_str())),
                seat_calls::answered_at.eq(at),
                seat_calls::extended_at.eq(extended),
                seat_calls::respond_by.eq(respond_by),
            ))
            .execute(conn)?
        }
        Answer::MoreTime => {
            if c.extended_at.is_some() {
                return Err(CallRefusal::ExtendedOnce.into());
            }
            diesel::update(
                seat_calls::table
                    .find(call_id)
                    .filter(seat_calls::extended_at.is_null()),
            )
            .set((
                seat_calls::player_answer.eq(Some(answer.as_str())),
                seat_calls::answered_at.eq(at),
                seat_calls::extended_at.eq(at),
                seat_calls::respond_by.eq(c.respond_by + extension),
            ))
            .execute(conn)?
        }
    };
    if n != 1 {
        return Err(CallRefusal::CallNotOpen.into());
    }
    let after = floor::call(conn, call_id)?;
    audit::record(
        conn,
        now,
        &Actor::player(player_id),
        "seat.call_answer",
        "player",
        Some(player_id.get()),
        Some(&c),
        Some(&after),
    )?;
    floor::emit(
        conn,
        now,
        Some(c.table_id),
        "seat.call_answer",
        &serde_json::json!({ "call_id": c.id, "seat": c.seat_no, "player_id": player_id, "answer": answer.as_str(),
            "respond_by": after.respond_by.and_utc() }),
    )?;
    Ok(after)
}

/// "Leave this list": the player's own entry ends as the floor's removal ends it
/// ([`floor::leave_by_player`], reason "left by the player"). Another player's entry is
/// not found.
pub fn leave_list(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    player_id: PlayerId,
    entry_id: EntryId,
) -> AppResult<()> {
    let e = floor::entry(conn, entry_id)?;
    if e.player_id != player_id {
        return Err(AppError::NotFound);
    }
    let act = Acting::new(now, Actor::player(player_id)).in_room(conn)?;
    floor::leave_by_player(conn, &act, entry_id)?;
    Ok(())
}
