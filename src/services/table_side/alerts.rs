//! What the floor dashboard is alerted to at the tables.

use super::*;
use crate::domain::ids::SeatCallId;
use crate::domain::ids::SeatingId;
use crate::domain::ids::TableId;
use crate::domain::states::CustodyState;
use crate::domain::table::TableState;

/// An absent player's seat due for chip removal (BSOP 36).
#[derive(Debug, Clone, Serialize)]
pub struct RemovalAlert {
    pub table_number: i32,
    pub seat_no: i32,
    pub alias: String,
    pub by_time: bool,
    pub counting: bool,
}

/// BSOP 44: a seat call the table has not acknowledged within the room's
/// `seat_call_ack_escalation_min` (escalated, still not acknowledged).
#[derive(Debug, Clone, Serialize)]
pub struct CallAlert {
    pub call_id: SeatCallId,
    pub table_id: TableId,
    pub table_number: i32,
    pub seat_no: i32,
    pub alias: String,
}

/// BSOP 36: chips counted by one staff member for removal, waiting for a second count.
#[derive(Debug, Clone, Serialize)]
pub struct CustodyAlert {
    pub custody_id: i64,
    pub table_id: TableId,
    pub table_number: i32,
    pub seat_no: i32,
    pub alias: String,
    pub amount: i64,
}

/// PT-2007 24: a suspended table whose grace ends within [`SUSPENSION_NEAR_CLOSE_MIN`]
/// minutes (or has ended: the next rule check closes it).
#[derive(Debug, Clone, Serialize)]
pub struct SuspendedAlert {
    pub table_id: TableId,
    pub table_number: i32,
    pub closes_at: NaiveDateTime,
}

/// PT-2007 24: a suspended table is an alarm on the board once this many minutes or fewer are
/// left before it closes («se não voltarem a ser 4 em 15 minutos, o jogo é encerrado»).
pub const SUSPENSION_NEAR_CLOSE_MIN: i64 = 5;

/// What needs the floor at the tables: open requests, seats due for chip removal, chips held.
#[derive(Debug, Clone, Serialize, Default)]
pub struct FloorAlerts {
    pub requests: Vec<(ServiceRequestRow, i32)>,
    pub removals: Vec<RemovalAlert>,
    pub in_custody: i64,
    /// PT-2007 7b: tables whose cagnotte session has had its hour of play (the next hand
    /// over closes it, or the floor does).
    pub sessions_up: Vec<i32>,
    /// Session dues still not collected nor exempted a quarter of an hour after they arose.
    pub dues_late: i64,
    /// BSOP 28: chips that reached a seat during the hand being played, waiting for the
    /// floor's approval to play in it: (the chips, table number, seat, alias).
    pub chips_pending: Vec<(BuyinRow, i32, i32, String)>,
    /// BSOP 16-22: rulings still open, and decisions whose chips wait for a second staff
    /// member, oldest first.
    pub rulings: Vec<crate::services::rulings::RulingLine>,
    /// BSOP 44: seat calls not acknowledged in time, oldest first.
    pub calls: Vec<CallAlert>,
    /// BSOP 36: chip counts waiting for a second staff member, oldest first.
    pub counting: Vec<CustodyAlert>,
    /// PT-2007 24: suspended tables near their close, soonest first.
    pub suspended: Vec<SuspendedAlert>,
}

impl FloorAlerts {
    pub fn is_empty(&self) -> bool {
        self.requests.is_empty()
            && self.removals.is_empty()
            && self.sessions_up.is_empty()
            && self.dues_late == 0
            && self.chips_pending.is_empty()
            && self.rulings.is_empty()
            && self.calls.is_empty()
            && self.counting.is_empty()
            && self.suspended.is_empty()
    }

    /// How many alarms the strip shows (a count of late dues is one alarm).
    pub fn count(&self) -> usize {
        self.requests.len()
            + self.removals.len()
            + self.sessions_up.len()
            + usize::from(self.dues_late > 0)
            + self.chips_pending.len()
            + self.rulings.len()
            + self.calls.len()
            + self.counting.len()
            + self.suspended.len()
    }

    /// PT-2007 24: when a suspended table near its close closes (its tile says it).
    pub fn closing_at(&self, table_number: &i32) -> Option<NaiveDateTime> {
        self.suspended
            .iter()
            .find(|x| x.table_number == *table_number)
            .map(|x| x.closes_at)
    }

    /// The alarms at one table (by number), by kind, for its tile's badges: the tile carries
    /// what the strip says about it.
    pub fn at(&self, table_number: &i32) -> TileAlarms {
        let n = *table_number;
        TileAlarms {
            calls: self.calls.iter().filter(|x| x.table_number == n).count(),
            requests: self.requests.iter().filter(|(_, t)| *t == n).count(),
            removals: self.removals.iter().filter(|x| x.table_number == n).count(),
            counting: self.counting.iter().filter(|x| x.table_number == n).count(),
            chips: self
                .chips_pending
                .iter()
                .filter(|(_, t, _, _)| *t == n)
                .count(),
            rulings: self.rulings.iter().filter(|r| r.table_number == n).count(),
            session_up: self.sessions_up.contains(&n),
            closing: self.suspended.iter().any(|x| x.table_number == n),
        }
    }

    /// The rulings needing the floor at one table (its tile's badge).
    pub fn rulings_at(&self, table_id: &TableId) -> usize {
        self.rulings
            .iter()
            .filter(|r| r.ruling.table_id == *table_id)
            .count()
    }
}

/// The alarms at one table, by kind (see [`FloorAlerts::at`]).
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct TileAlarms {
    pub calls: usize,
    pub requests: usize,
    pub removals: usize,
    pub counting: usize,
    pub chips: usize,
    pub rulings: usize,
    pub session_up: bool,
    pub closing: bool,
}

impl TileAlarms {
    pub fn any(&self) -> bool {
        self.calls + self.requests + self.removals + self.counting + self.chips + self.rulings > 0
            || self.session_up
            || self.closing
    }
}

pub fn floor_alerts(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    profile: &RuleProfile,
) -> AppResult<FloorAlerts> {
    let requests = open_requests(conn, None)?;
    let away: Vec<(SeatingRow, SeatSideRow, String, i32)> =
        crate::native!(conn, |dbc| seatings::table
            .inner_join(players::table)
            .inner_join(card_tables::table.on(card_tables::id.eq(seatings::table_id)))
            .filter(seatings::left_at.is_null())
            .filter(seatings::away_since.is_not_null())
            .order((card_tables::number.asc(), seatings::seat_no.asc()))
            .select((
                SeatingRow::as_select(),
                SeatSideRow::as_select(),
                players::alias,
                card_tables::number
            ))
            .load(dbc))?;
    let counting: Vec<SeatingId> = crate::native!(conn, |dbc| chip_custody::table
        .filter(chip_custody::state.eq(CustodyState::Counting))
        .select(chip_custody::seating_id)
        .load(dbc))?;
    let removals = away
        .into_iter()
        .filter_map(
            |(s, sd, alias, number)| match status_of(&sd, profile, now) {
                AbsenceStatus::DueForRemoval { because } => Some(RemovalAlert {
                    table_number: number,
                    seat_no: s.seat_no,
                    alias,
                    by_time: because == seat_rules::RemovalReason::AwayTooLong,
                    counting: counting.contains(&s.id),
                }),
                _ => None,
            },
        )
        .collect();
    let in_custody = crate::native!(conn, |dbc| chip_custody::table
        .filter(chip_custody::state.eq(CustodyState::Held))
        .count()
        .get_result(dbc))?;
    let (sessions_up, dues_late) = crate::services::cagnotte::alerts(conn, now)?;
    let chips_pending = super::chips::chips_awaiting_approval(conn)?;
    Ok(FloorAlerts {
        calls: late_calls(conn)?,
        counting: counts_waiting(conn)?,
        suspended: suspended_near_close(conn, now, profile)?,
        requests,
        removals,
        in_custody,
        sessions_up,
        dues_late,
        chips_pending,
        rulings: crate::services::rulings::needing_floor(conn)?,
    })
}

/// BSOP 44: open calls still not acknowledged by the table once escalated, oldest first.
fn late_calls(conn: &mut DbConn) -> AppResult<Vec<CallAlert>> {
    use crate::db::schema::seat_calls;
    let rows: Vec<(i64, i64, i32, i32, String)> = crate::native!(conn, |dbc| seat_calls::table
        .inner_join(card_tables::table.on(card_tables::id.eq(seat_calls::table_id)))
        .inner_join(players::table.on(players::id.eq(seat_calls::player_id)))
        .filter(crate::db::conditions::CallPending)
        .filter(seat_calls::escalated_at.is_not_null())
        .order((seat_calls::called_at.asc(), seat_calls::id.asc()))
        .select((
            seat_calls::id,
            seat_calls::table_id,
            card_tables::number,
            seat_calls::seat_no,
            players::alias
        ))
        .load(dbc))?;
    Ok(rows
        .into_iter()
        .map(
            |(call_id, table_id, table_number, seat_no, alias)| CallAlert {
                call_id: SeatCallId(call_id),
                table_id: TableId(table_id),
                table_number,
                seat_no,
                alias,
            },
        )
        .collect())
}

/// BSOP 36: counts a first staff member made, waiting for the second, oldest first.
fn counts_waiting(conn: &mut DbConn) -> AppResult<Vec<CustodyAlert>> {
    let rows: Vec<(i64, i64, i32, i32, String, i64)> =
        crate::native!(conn, |dbc| chip_custody::table
            .inner_join(card_tables::table.on(card_tables::id.eq(chip_custody::table_id)))
            .inner_join(players::table.on(players::id.eq(chip_custody::player_id)))
            .filter(chip_custody::state.eq(CustodyState::Counting))
            .order((chip_custody::counted_at.asc(), chip_custody::id.asc()))
            .select((
                chip_custody::id,
                chip_custody::table_id,
                card_tables::number,
                chip_custody::seat_no,
                players::alias,
                chip_custody::amount
            ))
            .load(dbc))?;
    Ok(rows
        .into_iter()
        .map(
            |(custody_id, table_id, table_number, seat_no, alias, amount)| CustodyAlert {
                custody_id,
                table_id: TableId(table_id),
                table_number,
                seat_no,
                alias,
                amount,
            },
        )
        .collect())
}

/// PT-2007 24: suspended tables whose grace ends within [`SUSPENSION_NEAR_CLOSE_MIN`]
/// minutes, soonest first.
fn suspended_near_close(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    profile: &RuleProfile,
) -> AppResult<Vec<SuspendedAlert>> {
    let grace = Duration::minutes(profile.suspension_grace_min as i64);
    let rows: Vec<(i64, i32, Option<NaiveDateTime>)> =
        crate::native!(conn, |dbc| card_tables::table
            .filter(card_tables::active.eq(true))
            .filter(card_tables::state.eq(TableState::Suspended))
            .select((
                card_tables::id,
                card_tables::number,
                card_tables::suspended_at
            ))
            .load(dbc))?;
    let mut out: Vec<SuspendedAlert> =
        rows.into_iter()
            .filter_map(|(table_id, table_number, since)| {
                let closes_at = since? + grace;
                (closes_at - now.naive_utc() <= Duration::minutes(SUSPENSION_NEAR_CLOSE_MIN))
                    .then_some(SuspendedAlert {
                        table_id: TableId(table_id),
                        table_number,
                        closes_at,
                    })
            })
            .collect();
    out.sort_by_key(|x| (x.closes_at, x.table_number));
    Ok(out)
}
