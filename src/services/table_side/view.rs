//! The table as the tablet shows it.

use super::*;
use crate::domain::ids::PlayerId;
use crate::domain::ids::SeatingId;
use crate::domain::ids::TableId;
use crate::domain::states::CallSource;
use crate::domain::states::CustodyState;
use crate::domain::states::DueState;

/// One seated player as the tablet shows them.
#[derive(Debug, Clone, Serialize)]
pub struct SeatedView {
    pub seating: SeatingRow,
    pub side: SeatSideRow,
    pub player: PlayerRow,
    pub absence: AbsenceStatus,
    /// BSOP 36: the removal count waiting for a second staff member.
    pub counting: Option<CustodyRow>,
    /// PT-2007 79: below the table minimum (by the last count) a rebuy is needed to play on.
    pub rebuy_needed: bool,
    /// BSOP 38: by the last count the player is winning and may leave at this time.
    pub min_stay_until: Option<DateTime<Utc>>,
    /// BSOP 55, 57: the player is called to move (must-move or seat change): the table
    /// number and seat they go to.
    pub moving_to: Option<(i32, i32)>,
    /// BSOP 28: chips that reached the seat during the hand being played: their amount, and
    /// whether the floor let them play in it (else they play from the next hand).
    pub chips_in_hand: Vec<(i64, bool)>,
}

impl SeatedView {
    /// BSOP 36: away, with the chips removable from this instant.
    pub fn away_due(&self) -> Option<DateTime<Utc>> {
        match self.absence {
            AbsenceStatus::Away { due_at } => Some(due_at),
            _ => None,
        }
    }

    /// BSOP 36: the chips may be taken off now.
    pub fn removal_due(&self) -> bool {
        matches!(self.absence, AbsenceStatus::DueForRemoval { .. })
    }

    /// BSOP 36: due for removal because the player was away too long.
    pub fn removal_by_time(&self) -> bool {
        matches!(
            self.absence,
            AbsenceStatus::DueForRemoval {
                because: seat_rules::RemovalReason::AwayTooLong
            }
        )
    }

    /// BSOP 36: why the seat is due for removal (a rule message key).
    pub fn removal_key(&self) -> Option<&'static str> {
        match self.absence {
            AbsenceStatus::DueForRemoval {
                because: seat_rules::RemovalReason::TwoMissedBigBlinds,
            } => Some("rules-absence-due-missed-bb"),
            AbsenceStatus::DueForRemoval {
                because: seat_rules::RemovalReason::AwayTooLong,
            } => Some("rules-absence-due-away"),
            _ => None,
        }
    }
}

/// A seat call as the tablet shows it, with the buy-in the player must bring (none for a
/// move: the player brings their stack).
#[derive(Debug, Clone, Serialize)]
pub struct CallView {
    pub call: SeatCallRow,
    pub player: PlayerRow,
    pub requirement: Option<BuyinRequirement>,
}

#[derive(Debug, Clone, Serialize)]
pub struct SeatLine {
    pub seat_no: i32,
    pub seated: Option<SeatedView>,
    pub call: Option<CallView>,
}

/// Everything the tablet shows for its table.
#[derive(Debug, Clone, Serialize)]
pub struct TableSideView {
    pub table: TableRow,
    pub game: Option<GameRow>,
    pub seats: Vec<SeatLine>,
    pub calls: Vec<CallView>,
    pub requests: Vec<ServiceRequestRow>,
    /// Messages from the floor not marked seen yet.
    pub messages: Vec<FloorMessageRow>,
    /// Hands counted at this table in the last 24 hours.
    pub hands_today: i64,
    /// BSOP 57: the seats on the button and in the small blind.
    pub protected: Vec<i32>,
    /// BSOP 36 (profile): minutes away and big blinds missed before chips may be removed.
    pub absence_limit_min: i32,
    pub missed_bb_limit: i32,
    /// PT-2007 7b: the table's open cagnotte session with its dues (per-session games).
    #[serde(skip)]
    pub cagnotte: Option<crate::services::cagnotte::SessionPanel>,
    /// The dealer on shift at this table.
    pub shift_dealer: Option<String>,
    /// The number of the hand in progress (none before the first tap).
    pub hand_number: Option<i32>,
    /// BSOP 115, 116: the special buttons of the table's game, where they are and the special
    /// hand being played (none: the game runs neither).
    pub special: Option<crate::services::special_buttons::TableButtons>,
    /// PT-2007 22, BSOP 34: the limits in force at the table, and a change pending (to be
    /// announced by the dealer, then applied at the first hand once due).
    pub limits: Option<Limits>,
    pub limit_change: Option<crate::services::limits::ChangeLine>,
    /// BSOP 16-22: the table's rulings still open (or whose chips wait for a second staff
    /// member) and those decided in the last two hours.
    pub rulings: Vec<crate::services::rulings::RulingLine>,
}

impl TableSideView {
    /// PT-2007 7a: the game takes its cagnotte from each pot (the hand-over tap asks for it).
    pub fn per_hand(&self) -> bool {
        self.game
            .as_ref()
            .is_some_and(|g| g.cagnotte_mode == "per_hand")
    }
    /// MO-13 11: the 13-card game takes a commission on payouts.
    pub fn commission_game(&self) -> bool {
        self.game
            .as_ref()
            .is_some_and(|g| g.variant == "thirteen_cards")
    }
    /// The session's amount still due at a seat (PT-2007 7b), for the seat's badge.
    pub fn due_at_seat(&self, seat_no: &i32) -> Option<i64> {
        let p = self.cagnotte.as_ref()?;
        p.dues
            .iter()
            .find(|d| d.due.seat_no == *seat_no && d.due.state == DueState::Due)
            .map(|d| d.due.amount)
    }
    /// An open request of this kind was sent to the floor.
    pub fn requested(&self, kind: &str) -> bool {
        self.requests.iter().any(|r| r.kind == kind)
    }

    pub fn seated(&self, seating_id: SeatingId) -> Option<&SeatedView> {
        self.seats
            .iter()
            .filter_map(|s| s.seated.as_ref())
            .find(|s| s.seating.id == seating_id)
    }
}

pub fn view(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    profile: &RuleProfile,
    table_id: TableId,
) -> AppResult<TableSideView> {
    let t = table(conn, table_id)?;
    let game = match t.game_id {
        Some(g) => Some(crate::services::games::get_game(conn, g)?),
        None => None,
    };
    let seated = seated_here(conn, table_id)?;
    let counting: Vec<CustodyRow> = crate::native!(conn, |dbc| chip_custody::table
        .filter(chip_custody::table_id.eq(table_id))
        .filter(chip_custody::state.eq(CustodyState::Counting))
        .select(CustodyRow::as_select())
        .load(dbc))?;
    let calls = call_views(conn, now, profile, &t, game.as_ref())?;
    let moves = moves_called(conn, &seated)?;
    let in_hand = chips_arrived_in_hand(conn, table_id)?;
    let limits = crate::services::limits::of(&t, game.as_ref());
    let facts = SeatFacts {
        now,
        profile,
        limit: game.as_ref().map(limit_of).unwrap_or(LimitClass::Low),
        limits,
        counting,
        moves,
        in_hand,
    };
    let views: Vec<SeatedView> = seated
        .into_iter()
        .map(|(s, sd, p)| facts.seated_view(s, sd, p))
        .collect();
    let seats = seat_lines(&t, &views, &calls);
    let requests = open_requests(conn, Some(table_id))?
        .into_iter()
        .map(|(r, _)| r)
        .collect();
    let hands_today = hands_since(conn, table_id, (now - Duration::hours(24)).naive_utc())?;
    let present: Vec<i32> = views
        .iter()
        .filter(|v| v.side.away_since.is_none())
        .map(|v| v.seating.seat_no)
        .collect();
    let protected = seat_rules::button_and_small_blind(&present, t.button_seat);
    let special = crate::services::special_buttons::of_table(conn, &t)?;
    Ok(TableSideView {
        table: t,
        game,
        seats,
        calls,
        requests,
        messages: unseen_messages(conn, table_id)?,
        hands_today,
        protected,
        absence_limit_min: profile.absence_limit_min,
        missed_bb_limit: profile.missed_bb_before_removal,
        cagnotte: crate::services::cagnotte::panel(conn, now, table_id)?,
        shift_dealer: crate::services::cagnotte::shift_dealer(conn, table_id)?.map(|(_, n)| n),
        hand_number: crate::native!(conn, |dbc| hands::table
            .filter(hands::table_id.eq(table_id))
            .select(diesel::dsl::max(hands::number))
            .first(dbc))?,
        special,
        limits,
        limit_change: match crate::services::limits::pending(conn, table_id)? {
            Some(c) => Some(crate::services::limits::line(conn, c.id)?),
            None => None,
        },
        rulings: crate::services::rulings::for_table(
            conn,
            table_id,
            (now - Duration::hours(2)).naive_utc(),
        )?,
    })
}

/// The table's seats and its extra seat, each with who sits there and who is called to it.
fn seat_lines(t: &TableRow, views: &[SeatedView], calls: &[CallView]) -> Vec<SeatLine> {
    let n = t.seats + i32::from(t.extra_seat);
    (1..=n)
        .map(|seat_no| SeatLine {
            seat_no,
            seated: views.iter().find(|v| v.seating.seat_no == seat_no).cloned(),
            call: calls.iter().find(|c| c.call.seat_no == seat_no).cloned(),
        })
        .collect()
}

/// The players seated at the table, by seat.
fn seated_here(
    conn: &mut DbConn,
    table_id: TableId,
) -> AppResult<Vec<(SeatingRow, SeatSideRow, PlayerRow)>> {
    Ok(crate::native!(conn, |dbc| seatings::table
        .inner_join(players::table)
        .filter(seatings::table_id.eq(table_id))
        .filter(seatings::left_at.is_null())
        .order(seatings::seat_no.asc())
        .select((
            SeatingRow::as_select(),
            SeatSideRow::as_select(),
            PlayerRow::as_select()
        ))
        .load(dbc))?)
}

/// The table's open seat calls, each with the buy-in the player must bring (none for a move:
/// the player brings their stack).
fn call_views(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    profile: &RuleProfile,
    t: &TableRow,
    game: Option<&GameRow>,
) -> AppResult<Vec<CallView>> {
    let (_, open_calls) = floor::seats_of(conn, t.id)?;
    let mut calls = Vec::new();
    for (c, p) in open_calls {
        let requirement = match game {
            Some(g) if c.source != CallSource::MustMove && c.source != CallSource::SeatChange => {
                Some(requirement(conn, now, profile, t, g, c.player_id)?)
            }
            _ => None,
        };
        calls.push(CallView {
            call: c,
            player: p,
            requirement,
        });
    }
    Ok(calls)
}

/// BSOP 55, 57: moves called for players seated here (to another table or seat): the player,
/// the table number and the seat.
fn moves_called(
    conn: &mut DbConn,
    seated: &[(SeatingRow, SeatSideRow, PlayerRow)],
) -> AppResult<Vec<(PlayerId, i32, i32)>> {
    let here: Vec<PlayerId> = seated.iter().map(|(s, _, _)| s.player_id).collect();
    Ok(crate::db::schema::seat_calls::table
        .inner_join(
            card_tables::table.on(card_tables::id.eq(crate::db::schema::seat_calls::table_id)),
        )
        .filter(crate::db::schema::seat_calls::player_id.eq_any(&here))
        .filter(
            crate::db::schema::seat_calls::source
                .eq(CallSource::MustMove)
                .or(crate::db::schema::seat_calls::source.eq(CallSource::SeatChange)),
        )
        .filter(crate::db::conditions::CallOpen)
        .select((
            crate::db::schema::seat_calls::player_id,
            card_tables::number,
            crate::db::schema::seat_calls::seat_no,
        ))
        .load(conn)?)
}

/// BSOP 28: chips that arrived during the hand being played.
fn chips_arrived_in_hand(conn: &mut DbConn, table_id: TableId) -> AppResult<Vec<BuyinRow>> {
    Ok(match super::chips::current_hand(conn, table_id)? {
        Some(h) => buyins::table
            .filter(buyins::table_id.eq(table_id))
            .filter(buyins::arrived_in_hand.eq(h))
            .select(BuyinRow::as_select())
            .load(conn)?,
        None => Vec::new(),
    })
}

/// What the table's reads say about its seated players, for each one's view.
struct SeatFacts<'a> {
    now: DateTime<Utc>,
    profile: &'a RuleProfile,
    limit: LimitClass,
    limits: Option<Limits>,
    counting: Vec<CustodyRow>,
    moves: Vec<(PlayerId, i32, i32)>,
    in_hand: Vec<BuyinRow>,
}

impl SeatFacts<'_> {
    /// One seated player as the tablet shows them.
    fn seated_view(&self, s: SeatingRow, sd: SeatSideRow, p: PlayerRow) -> SeatedView {
        let (now, profile) = (self.now, self.profile);
        let absence = status_of(&sd, profile, now);
        let rebuy_needed = sd.bought_in > 0
            && self
                .limits
                .is_some_and(|l| seat_rules::rebuy_needed(sd.stack, l.buy_in_min));
        let min_stay_until = if sd.bought_in > 0 {
            check_leave(
                sd.stack,
                sd.bought_in,
                s.sat_at.and_utc(),
                now,
                self.limit,
                profile,
            )
            .err()
            .map(|r| r.allowed_at)
        } else {
            None
        };
        let counting = self.counting.iter().find(|c| c.seating_id == s.id).cloned();
        let moving_to = self
            .moves
            .iter()
            .find(|(pid, _, _)| *pid == s.player_id)
            .map(|(_, t, n)| (*t, *n));
        let chips_in_hand = self
            .in_hand
            .iter()
            .filter(|b| b.seating_id == s.id)
            .map(|b| (b.amount, b.approved_by.is_some()))
            .collect();
        SeatedView {
            seating: s,
            side: sd,
            player: p,
            absence,
            counting,
            rebuy_needed,
            min_stay_until,
            moving_to,
            chips_in_hand,
        }
    }
}

/// BSOP 57: the seats of a table on the button and in the small blind now.
pub fn protected_seats(conn: &mut DbConn, t: &TableRow) -> AppResult<Vec<i32>> {
    let present: Vec<i32> = crate::native!(conn, |dbc| seatings::table
        .filter(seatings::table_id.eq(t.id))
        .filter(seatings::left_at.is_null())
        .filter(seatings::away_since.is_null())
        .select(seatings::seat_no)
        .load(dbc))?;
    Ok(seat_rules::button_and_small_blind(&present, t.button_seat))
}

/// The other tables in play of the game at the same limits (PT-2007 22), where a player may
/// ask to move (BSOP 58, PT-2007 26), by number: (id, number).
pub fn sibling_tables(conn: &mut DbConn, v: &TableSideView) -> AppResult<Vec<(TableId, i32)>> {
    let Some(game) = v.table.game_id else {
        return Ok(Vec::new());
    };
    let rows: Vec<TableRow> = crate::native!(conn, |c| card_tables::table
        .filter(card_tables::game_id.eq(game))
        .filter(card_tables::id.ne(v.table.id))
        .filter(crate::db::conditions::TableInPlay)
        .order(card_tables::number.asc())
        .select(TableRow::as_select())
        .load(c))?;
    Ok(rows
        .into_iter()
        .filter(|t| crate::services::limits::of(t, v.game.as_ref()) == v.limits)
        .map(|t| (t.id, t.number))
        .collect())
}
