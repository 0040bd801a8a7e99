//! Asking for a ruling (BSOP 18, 19): the hand named, the seats involved, a short note; late
//! or not, judged when it is asked.

use super::*;
use crate::domain::ids::PlayerId;
use crate::domain::ids::TableId;
use crate::services::Act;

/// A request for a ruling, as the tablet, the floor's board or the API send it.
#[derive(Debug, Clone, Default)]
pub struct AskInput {
    /// The hand the ruling is about; none: the table's hand in play (BSOP 18: the moment to
    /// call attention to an error is when it happens).
    pub hand_number: Option<i32>,
    /// The seats involved (may be empty).
    pub seats: Vec<i32>,
    /// What happened, in a few words (may be empty).
    pub note: String,
}

/// The table's latest hand: the one in play (none before the first "new hand" tap).
pub fn hand_in_play(conn: &mut DbConn, table_id: TableId) -> AppResult<Option<HandRow>> {
    Ok(crate::native!(conn, |dbc| hands::table
        .filter(hands::table_id.eq(table_id))
        .order(hands::number.desc())
        .select(HandRow::as_select())
        .first(dbc))
    .optional()?)
}

/// The seating that held `seat` of a table when hand `at` started (none: the seat was
/// empty); without a hand, the seat's open seating now.
fn seating_at_hand(
    conn: &mut DbConn,
    table_id: TableId,
    seat: i32,
    at: Option<NaiveDateTime>,
) -> AppResult<Option<SeatingRow>> {
    Ok(match at {
        Some(at) => crate::native!(conn, |dbc| seatings::table
            .filter(seatings::table_id.eq(table_id))
            .filter(seatings::seat_no.eq(seat))
            .filter(seatings::sat_at.le(at))
            .filter(seatings::left_at.is_null().or(seatings::left_at.gt(at)))
            .order(seatings::sat_at.desc())
            .select(SeatingRow::as_select())
            .first(dbc))
        .optional()?,
        None => crate::native!(conn, |dbc| seatings::table
            .filter(seatings::table_id.eq(table_id))
            .filter(seatings::seat_no.eq(seat))
            .filter(seatings::left_at.is_null())
            .select(SeatingRow::as_select())
            .first(dbc))
        .optional()?,
    })
}

/// Whether a player sits at a table other than `table_id` now (BSOP 19: moved).
fn seated_elsewhere(conn: &mut DbConn, player_id: PlayerId, table_id: TableId) -> AppResult<bool> {
    let n: i64 = crate::native!(conn, |dbc| seatings::table
        .filter(seatings::player_id.eq(player_id))
        .filter(seatings::table_id.ne(table_id))
        .filter(seatings::left_at.is_null())
        .count()
        .get_result(dbc))?;
    Ok(n > 0)
}

/// The player holds a seat at this table now.
fn seated_here(conn: &mut DbConn, player_id: PlayerId, table_id: TableId) -> AppResult<bool> {
    let n: i64 = crate::native!(conn, |dbc| seatings::table
        .filter(seatings::player_id.eq(player_id))
        .filter(seatings::table_id.eq(table_id))
        .filter(seatings::left_at.is_null())
        .count()
        .get_result(dbc))?;
    Ok(n > 0)
}

/// BSOP 18, 19: a dealer at the table (or the floor) asks for a ruling. The hand is the
/// table's hand in play, taken here, unless an earlier hand of the table is named; each seat
/// named must have had a player when that hand started (422 on `seats` otherwise). The ruling
/// is recorded as late (BSOP 19) when the hand named is no longer the one in play, the table
/// broke since, or a player named has moved or left since; a late ruling's decision keeps the
/// hand's result unless the floor overrides it with a reason. Audited as `ruling.ask`, pushed
/// as `ruling.asked` to the floor's board and the table's tablet.
pub fn ask(
    conn: &mut DbConn,
    act: &Act,
    table_id: TableId,
    input: &AskInput,
) -> AppResult<RulingRow> {
    let (now, actor) = (act.now, &act.actor);
    let t = table(conn, table_id)?;
    let note = rule::text("note", &input.note, rule::NOTE_MAX, None)
        .map_err(|f| AppError::Validation(vec![f]))?;
    let seats = rule::check_seats(&input.seats, t.seats + i32::from(t.extra_seat))
        .map_err(|f| AppError::Validation(vec![f]))?;
    let current = hand_in_play(conn, table_id)?;
    let named = hand_named(conn, table_id, input.hand_number, &current)?;
    let (at_hand, facts) = seats_at_hand(conn, table_id, &seats, named.as_ref())?;
    let window = rule::Window {
        named: named.as_ref().map(|h| rule::HandAt {
            number: h.number,
            started_at: h.at.and_utc(),
        }),
        current: current.as_ref().map(|h| h.number),
        table_state: t.state,
        opened_at: t.opened_at.map(|x| x.and_utc()),
        seats: facts,
    };
    let late = rule::lateness(&window);
    let row = insert_ruling(conn, act, &t, named.as_ref(), &seats, note, late)?;
    let named_players = name_players(conn, row.id, &at_hand)?;
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "ruling.ask",
        SUBJECT,
        Some(row.id),
        None,
        Some(&Recorded {
            ruling: &row,
            players: &named_players,
        }),
    )?;
    emit(
        conn,
        now,
        Some(table_id),
        "ruling.asked",
        &serde_json::json!({
            "id": row.id,
            "table": t.number,
            "hand": row.hand_number,
            "seats": seats,
            "late": row.late_reason,
        }),
    )?;
    Ok(row)
}

/// The hand the ruling is about: the one in play unless an earlier hand of the table is
/// named (422 on `hand_number` when the table has no such hand).
fn hand_named(
    conn: &mut DbConn,
    table_id: TableId,
    number: Option<i32>,
    current: &Option<HandRow>,
) -> AppResult<Option<HandRow>> {
    Ok(match number {
        None => current.clone(),
        Some(n) if current.as_ref().is_some_and(|h| h.number == n) => current.clone(),
        Some(n) => Some(
            crate::native!(conn, |dbc| hands::table
                .filter(hands::table_id.eq(table_id))
                .filter(hands::number.eq(n))
                .select(HandRow::as_select())
                .first(dbc))
            .optional()?
            .ok_or_else(|| {
                AppError::Validation(vec![FieldError::new(
                    "hand_number",
                    "err-ruling-hand-unknown",
                )
                .arg("hand", n)])
            })?,
        ),
    })
}

/// The seating at each seat named when the hand started (422 on `seats` for an empty one),
/// and what BSOP 19 asks of it: whether its player left or moved since.
fn seats_at_hand(
    conn: &mut DbConn,
    table_id: TableId,
    seats: &[i32],
    named: Option<&HandRow>,
) -> AppResult<(Vec<(i32, SeatingRow)>, Vec<rule::SeatAtHand>)> {
    let mut at_hand: Vec<(i32, SeatingRow)> = Vec::new();
    let mut facts: Vec<rule::SeatAtHand> = Vec::new();
    for &seat in seats {
        let Some(s) = seating_at_hand(conn, table_id, seat, named.map(|h| h.at))? else {
            let mut f = FieldError::new("seats", "err-ruling-seat-empty").arg("seat", seat);
            if let Some(h) = named {
                f = FieldError::new("seats", "err-ruling-seat-empty-hand")
                    .arg("seat", seat)
                    .arg("hand", h.number);
            }
            return Err(AppError::Validation(vec![f]));
        };
        // A seat change at this table (PT-2007 12, BSOP 51) keeps the player at the table:
        // not a departure for BSOP 19.
        let changed_seat_here = s.left_at.is_some()
            && s.left_reason.as_deref() == Some(crate::services::floor::Move::SeatChange.reason())
            && seated_here(conn, s.player_id, table_id)?;
        let left_at = if changed_seat_here { None } else { s.left_at };
        let moved = left_at.is_some() && seated_elsewhere(conn, s.player_id, table_id)?;
        facts.push(rule::SeatAtHand {
            seat,
            left_at: left_at.map(|x| x.and_utc()),
            moved,
        });
        at_hand.push((seat, s));
    }
    Ok((at_hand, facts))
}

/// The ruling's row, asked now about the hand named (its game, else the table's).
fn insert_ruling(
    conn: &mut DbConn,
    act: &Act,
    t: &TableRow,
    named: Option<&HandRow>,
    seats: &[i32],
    note: String,
    late: Option<LateReason>,
) -> AppResult<RulingRow> {
    let row = RulingRow {
        id: next_seq(conn, "ruling")?,
        table_id: t.id,
        game_id: named.and_then(|h| h.game_id).or(t.game_id),
        hand_id: named.map(|h| h.id),
        hand_number: named.map(|h| h.number),
        seats: rule::format_seats(seats),
        note,
        asked_at: act.now.naive_utc(),
        asked_by: act.actor.id,
        late_reason: late.map(|l| l.as_str().to_string()),
        corrects: None,
        decision: None,
        rule_cited: None,
        result_stands: None,
        override_reason: None,
        decided_at: None,
        decided_by: None,
    };
    crate::native!(conn, |dbc| diesel::insert_into(rulings::table)
        .values(&row)
        .execute(dbc))?;
    Ok(row)
}

/// The players at the seats named, each once (at the first seat named), recorded as named
/// when the ruling was asked.
fn name_players(
    conn: &mut DbConn,
    ruling_id: i64,
    at_hand: &[(i32, SeatingRow)],
) -> AppResult<Vec<RulingPlayerRow>> {
    let mut named_players: Vec<RulingPlayerRow> = Vec::new();
    for (seat, s) in at_hand {
        if named_players.iter().any(|p| p.player_id == s.player_id) {
            continue;
        }
        named_players.push(RulingPlayerRow {
            ruling_id,
            player_id: s.player_id,
            seat_no: Some(*seat),
            named_at: NamedAt::Asked.as_str().to_string(),
        });
    }
    for p in &named_players {
        crate::native!(conn, |dbc| diesel::insert_into(ruling_players::table)
            .values(p)
            .execute(dbc))?;
    }
    Ok(named_players)
}
