//! What the floor dashboard is alerted to at the tables.

use super::*;

/// An absent player's seat due for chip removal (BSOP 36).
#[derive(Debug, Clone, Serialize)]
pub struct RemovalAlert {
    pub table_number: i32,
    pub seat_no: i32,
    pub alias: String,
    pub by_time: bool,
    pub counting: bool,
}

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
}

impl FloorAlerts {
    pub fn is_empty(&self) -> bool {
        self.requests.is_empty()
            && self.removals.is_empty()
            && self.sessions_up.is_empty()
            && self.dues_late == 0
            && self.chips_pending.is_empty()
            && self.rulings.is_empty()
    }

    /// The rulings needing the floor at one table (its tile's badge).
    pub fn rulings_at(&self, table_id: &i64) -> usize {
        self.rulings
            .iter()
            .filter(|r| r.ruling.table_id == *table_id)
            .count()
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
    let counting: Vec<i64> = crate::native!(conn, |dbc| chip_custody::table
        .filter(chip_custody::state.eq("counting"))
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
        .filter(chip_custody::state.eq("held"))
        .count()
        .get_result(dbc))?;
    let (sessions_up, dues_late) = crate::services::cagnotte::alerts(conn, now)?;
    let chips_pending = super::chips::chips_awaiting_approval(conn)?;
    Ok(FloorAlerts {
        requests,
        removals,
        in_custody,
        sessions_up,
        dues_late,
        chips_pending,
        rulings: crate::services::rulings::needing_floor(conn)?,
    })
}
