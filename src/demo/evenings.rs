//! The demo's past evenings: three evenings of play back-filled at two tables, through the
//! same services as real use with the clock set back, so the reports have something to show.

use super::act_at;
use crate::db::audit::Actor;
use crate::domain::age::room_date;
use crate::domain::ids::GameId;
use crate::domain::ids::PlayerId;
use crate::domain::ids::SeatingId;
use crate::domain::ids::TableId;
use crate::error::AppError;
use crate::services;
use chrono::{Duration, NaiveDate};

/// Three past evenings (18:00-23:00 in the room's zone, the last three days) at the given
/// tables, played through the same services as real use with the clock set back: players
/// join the list and are seated, buy in, each table's dealers tap its hands (two shifts an
/// evening, one dealer at one table at a time),
/// the cagnotte is collected (one exemption, one short collection an evening), tips are
/// recorded, a player leaves and another is seated from the list, and the evening ends with
/// the table closing (PT-2007 24).
pub(super) fn past_evenings(
    c: &mut crate::db::DbConn,
    now: chrono::DateTime<chrono::Utc>,
    room: &services::room::Room,
    floor: &Actor,
    dealers: &[[&Actor; 2]],
    tables: &[(TableId, GameId, &[PlayerId])],
) -> Result<(), AppError> {
    let evenings = PastEvenings {
        room,
        floor,
        dealers,
        tables,
    };
    let today = room_date(now, room.tz);
    for day in (1..=3i64).rev() {
        let Some(start) = evening_start(room.tz, today - Duration::days(day)) else {
            continue;
        };
        let end = start + Duration::hours(5);
        evenings.open_tables(c, start)?;
        evenings.play_hands(c, start, end)?;
        evenings.end(c, end)?;
    }
    forget_history_messages(c, now)
}

/// 18:00 in the room's zone on `date` (none when that hour does not exist there).
fn evening_start(tz: chrono_tz::Tz, date: NaiveDate) -> Option<chrono::DateTime<chrono::Utc>> {
    use chrono::TimeZone;
    let start = tz
        .from_local_datetime(&date.and_hms_opt(18, 0, 0).unwrap_or_default())
        .earliest()?;
    Some(start.with_timezone(&chrono::Utc))
}

/// The players of a back-filled history are not messaged today: the messages its list
/// joins and calls wrote (never sent, in this same transaction) go.
fn forget_history_messages(
    c: &mut crate::db::DbConn,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<(), AppError> {
    use crate::db::schema::outbox;
    use diesel::prelude::*;
    // (On PostgreSQL they are still kept for the write's tail: written first.)
    crate::db::tail::flush(c)?;
    diesel::delete(outbox::table.filter(outbox::created_at.lt(now.naive_utc()))).execute(c)?;
    Ok(())
}

/// Who plays the past evenings, and where: each table with its game and its pool of players.
struct PastEvenings<'a> {
    room: &'a services::room::Room,
    floor: &'a Actor,
    /// Each table's first-shift dealer, then its second's (table `k`: `dealers[k]`).
    dealers: &'a [[&'a Actor; 2]],
    tables: &'a [(TableId, GameId, &'a [PlayerId])],
}

impl PastEvenings<'_> {
    /// Minutes into the evening when the second dealer takes over.
    const SHIFT_CHANGE_MIN: i64 = 150;

    /// Six players wait 5-30 minutes, then the table opens with them.
    fn open_tables(
        &self,
        c: &mut crate::db::DbConn,
        start: chrono::DateTime<chrono::Utc>,
    ) -> Result<(), AppError> {
        let (room, floor) = (self.room, self.floor);
        for (tid, gid, pool) in self.tables {
            for (i, pid) in pool.iter().take(6).enumerate() {
                services::floor::join(
                    c,
                    &act_at(room, start - Duration::minutes(5 + 5 * i as i64), floor),
                    *gid,
                    *pid,
                    false,
                )?;
            }
            services::floor::open_table(c, &act_at(room, start, floor), *tid)?;
            for (i, pid) in pool.iter().take(6).enumerate() {
                let s = services::floor::seat_directly(
                    c,
                    &act_at(room, start, floor),
                    *tid,
                    i as i32 + 1,
                    *pid,
                )?;
                buy_in(c, start, room, floor, &s, 10_000 + 2_000 * i as i64)?;
            }
        }
        Ok(())
    }

    /// A hand every 3 minutes at each table until `end`, with the seats that change hands,
    /// the dues collected and the first shift's tips.
    fn play_hands(
        &self,
        c: &mut crate::db::DbConn,
        start: chrono::DateTime<chrono::Utc>,
        end: chrono::DateTime<chrono::Utc>,
    ) -> Result<(), AppError> {
        let shift_change = start + Duration::minutes(Self::SHIFT_CHANGE_MIN);
        let mut t = start + Duration::minutes(2);
        let mut n = 0;
        while t < end {
            let second = usize::from(t >= shift_change);
            for (k, (tid, gid, pool)) in self.tables.iter().enumerate() {
                let dealer = self.dealers[k % self.dealers.len()][second];
                self.change_seats(c, t, n, *tid, *gid, pool)?;
                services::table_side::new_hand(
                    c,
                    &act_at(self.room, t, dealer),
                    *tid,
                    &Default::default(),
                )?;
                self.collect_dues(c, t, n, k, *tid, dealer)?;
            }
            // The first shift's last hand: its dealer's tips.
            if t + Duration::minutes(3) >= shift_change && t < shift_change {
                for (k, (tid, _, _)) in self.tables.iter().enumerate() {
                    services::cagnotte::record_tip(
                        c,
                        &act_at(self.room, t, self.dealers[k % self.dealers.len()][0]),
                        *tid,
                        4_500 + 500 * k as i64,
                    )?;
                }
            }
            t += Duration::minutes(3);
            n += 1;
        }
        Ok(())
    }

    /// Minute 70 (and 190): the player in seat 1 (then 2) leaves; one who joined the list
    /// 24 minutes earlier takes the seat from it. (`n`: the hand's number in the evening; a
    /// hand every 3 minutes from minute 2, so both moments fall on a hand.)
    fn change_seats(
        &self,
        c: &mut crate::db::DbConn,
        t: chrono::DateTime<chrono::Utc>,
        n: i32,
        tid: TableId,
        gid: GameId,
        pool: &[PlayerId],
    ) -> Result<(), AppError> {
        let (room, floor) = (self.room, self.floor);
        for (at, seat, newcomer) in [(70, 1, 6), (190, 2, 7)] {
            if n * 3 + 2 == at - 23 {
                services::floor::join(c, &act_at(room, t, floor), gid, pool[newcomer], false)?;
            }
            if n * 3 + 2 == at + 1 {
                let leaving = seated_at(c, tid, seat)?;
                services::floor::leave(c, &act_at(room, t, floor), leaving, "left")?;
                let s = services::floor::seat_directly(
                    c,
                    &act_at(room, t, floor),
                    tid,
                    seat,
                    pool[newcomer],
                )?;
                buy_in(c, t, room, floor, &s, 20_000)?;
            }
        }
        Ok(())
    }

    /// The dealer collects what the session asks, once a new one starts; one due an
    /// evening is exempted by the floor and one is collected short. (`k`: the table's
    /// place in the list.)
    fn collect_dues(
        &self,
        c: &mut crate::db::DbConn,
        t: chrono::DateTime<chrono::Utc>,
        n: i32,
        k: usize,
        tid: TableId,
        dealer: &Actor,
    ) -> Result<(), AppError> {
        let room = self.room;
        for (i, d) in services::cagnotte::open_dues(c, Some(tid))?
            .into_iter()
            .enumerate()
        {
            if i == 0 && k == 0 && n > 20 && d.due.late {
                services::cagnotte::exempt(
                    c,
                    &act_at(room, t, self.floor),
                    d.due.id,
                    "Oferta da casa",
                )?;
            } else if i == 1 && k == 1 && n > 20 {
                services::cagnotte::collect(
                    c,
                    &act_at(room, t, dealer),
                    d.due.id,
                    Some(d.due.amount / 2),
                    None,
                )?;
            } else {
                services::cagnotte::collect(c, &act_at(room, t, dealer), d.due.id, None, None)?;
            }
        }
        Ok(())
    }

    /// The second dealer's tips, everyone leaves, and below the minimum for the grace
    /// period the tables close (PT-2007 24).
    fn end(
        &self,
        c: &mut crate::db::DbConn,
        end: chrono::DateTime<chrono::Utc>,
    ) -> Result<(), AppError> {
        let room = self.room;
        for (k, (tid, _, _)) in self.tables.iter().enumerate() {
            services::cagnotte::record_tip(
                c,
                &act_at(room, end, self.dealers[k % self.dealers.len()][1]),
                *tid,
                6_000 - 500 * k as i64,
            )?;
            for seat in 1..=6 {
                if let Ok(s) = seated_at(c, *tid, seat) {
                    services::floor::leave(c, &act_at(room, end, self.floor), s, "left")?;
                }
            }
        }
        // The dealers clock out: the evening's last downs end with it.
        for d in self.dealers.iter().flatten() {
            if let Some(id) = d.id {
                match services::dealers::clock_out(c, &act_at(room, end, d), id) {
                    Ok(_) | Err(AppError::Conflict(_)) => {}
                    Err(e) => return Err(e),
                }
            }
        }
        let closing = end + Duration::minutes(room.profile.suspension_grace_min as i64 + 1);
        services::floor::tick(c, &act_at(room, closing, &Actor::system()))?;
        Ok(())
    }
}

/// A player just seated buys in for `wanted`, or for what the rules ask at this table now
/// (PT-2007 28: the average capital once the game is under way; BSOP 26, 37), kept within
/// the game's range: the demo's evenings follow the rules the room enforces.
fn buy_in(
    c: &mut crate::db::DbConn,
    now: chrono::DateTime<chrono::Utc>,
    room: &crate::services::room::Room,
    actor: &crate::db::audit::Actor,
    s: &crate::db::models::SeatingRow,
    wanted: i64,
) -> Result<(), AppError> {
    let t = services::games::get_table(c, s.table_id)?;
    let g = services::games::get_game(c, t.game_id.unwrap_or_default())?;
    let req = services::table_side::requirement(c, now, &room.profile, &t, &g, s.player_id)?;
    let amount = req
        .exact
        .unwrap_or_else(|| wanted.clamp(req.min, req.max.unwrap_or(i64::MAX)));
    services::table_side::buy_chips(c, &act_at(room, now, actor), s.id, 0, amount, false, None)?;
    Ok(())
}

/// The seating at a table's seat now.
fn seated_at(
    c: &mut crate::db::DbConn,
    table_id: TableId,
    seat: i32,
) -> Result<SeatingId, AppError> {
    use crate::db::schema::seatings;
    use diesel::prelude::*;
    Ok(seatings::table
        .filter(seatings::table_id.eq(table_id))
        .filter(seatings::seat_no.eq(seat))
        .filter(seatings::left_at.is_null())
        .select(seatings::id)
        .first(c)?)
}
