//! Absence (BSOP 36, 39; PT-2007 90): away and back, missed blinds and the buttons, an
//! absence extended, and the floor alerted when a seat is due for chip removal.

use super::*;
use crate::domain::ids::SeatingId;
use crate::domain::ids::TableId;
use crate::domain::refusal::AbsenceRefusal;
use crate::domain::states::CustodyState;
use crate::services::Act;

fn absence_of(sd: &SeatSideRow) -> SeatAbsence {
    SeatAbsence {
        away_since: sd.away_since.map(|t| t.and_utc()),
        extended_until: sd.away_extended_until.map(|t| t.and_utc()),
        missed_big_blinds: sd.missed_bb.max(0) as u32,
    }
}

pub(super) fn buttons_of(sd: &SeatSideRow) -> SeatButtons {
    SeatButtons {
        missed_blind: sd.missed_blind_button,
        absence: sd.absence_button,
        missed_sb: sd.missed_sb.max(0) as u32,
        missed_bb: sd.missed_bb.max(0) as u32,
    }
}

/// BSOP 36: where a seat stands now.
pub fn status_of(sd: &SeatSideRow, profile: &RuleProfile, now: DateTime<Utc>) -> AbsenceStatus {
    absence_status(&absence_of(sd), profile, now)
}

fn require_away(sd: &SeatSideRow) -> AppResult<()> {
    if sd.away_since.is_none() {
        return Err(AbsenceRefusal::NotAway.into());
    }
    Ok(())
}

/// BSOP 36: the seat became due for removal: the floor is alerted once (audited, pushed).
fn alert_if_due(conn: &mut DbConn, act: &Act, s: &SeatingRow, sd: &SeatSideRow) -> AppResult<bool> {
    let (now, profile, actor) = (act.now, act.profile(), &act.actor);
    if sd.removal_alerted_at.is_some() {
        return Ok(false);
    }
    let AbsenceStatus::DueForRemoval { because } = status_of(sd, profile, now) else {
        return Ok(false);
    };
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(seatings::table.find(s.id))
            .set(seatings::removal_alerted_at.eq(Some(now.naive_utc())))
            .returning(seatings::id)
    )
    .changed(dbc))?;
    let note = serde_json::json!({ "rule": "BSOP 36", "because": because, "seat": s.seat_no, "table_id": s.table_id });
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "seat.removal_due",
        "player",
        Some(s.player_id.get()),
        None,
        Some(&note),
    )?;
    emit(
        conn,
        now,
        Some(s.table_id),
        "seat.removal_due",
        &serde_json::json!({ "seat": s.seat_no, "player_id": s.player_id, "because": because }),
    )?;
    Ok(true)
}

/// BSOP 36, 39: an away or back tapped at `tapped` is not older than the seat's last one
/// (`domain::tap::check_not_superseded`): refused otherwise (409, the two instants said in the
/// room's zone), nothing changed.
fn check_latest_tap(act: &Act, sd: &SeatSideRow, tapped: DateTime<Utc>) -> AppResult<()> {
    crate::domain::tap::check_not_superseded(tapped, sd.absence_tapped_at.map(|t| t.and_utc()))
        .map_err(|p| rule_refusal(p, &act.room))
}

/// BSOP 36: the player leaves the seat for a while: the absence clock starts when the
/// dealer tapped (`tapped`, [`when_tapped`]; never before the player sat). An away made
/// before the seat's last away or back (a late tap from a tablet's queue) is superseded.
pub fn away(
    conn: &mut DbConn,
    act: &Act,
    tapped: DateTime<Utc>,
    seating_id: SeatingId,
    at_table: Option<TableId>,
) -> AppResult<SeatSideRow> {
    let (now, profile, actor) = (act.now, act.profile(), &act.actor);
    let (s, before) = open_seating(conn, seating_id, at_table)?;
    let tapped = tapped.min(now);
    check_latest_tap(act, &before, tapped)?;
    if before.away_since.is_some() {
        return Err(AbsenceRefusal::AlreadyAway.into());
    }
    let since = tapped.max(s.sat_at.and_utc());
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(seatings::table.find(s.id))
            .set((
                seatings::away_since.eq(Some(since.naive_utc())),
                seatings::away_extended_until.eq(None::<NaiveDateTime>),
                seatings::removal_alerted_at.eq(None::<NaiveDateTime>),
                seatings::absence_tapped_at.eq(Some(tapped.naive_utc())),
            ))
            .returning(seatings::id)
    )
    .changed(dbc))?;
    let after = side(conn, s.id)?;
    audit::record(
        conn,
        now,
        actor,
        "seat.away",
        "player",
        Some(s.player_id.get()),
        Some(&before),
        Some(&with_tap(&after, since, now)),
    )?;
    let due = match status_of(&after, profile, now) {
        AbsenceStatus::Away { due_at } => Some(due_at),
        _ => None,
    };
    emit(
        conn,
        now,
        Some(s.table_id),
        "seat.away",
        &serde_json::json!({ "seat": s.seat_no, "player_id": s.player_id, "due_at": due }),
    )?;
    Ok(after)
}

/// BSOP 39 / PT-2007 90: the player is back (tapped at `tapped`, [`when_tapped`]). The
/// absence button goes; with missed blinds the tablet says what the player must do (post the
/// big blind or wait; or pay them dead). A removal count not yet confirmed ends. A back made
/// before the seat's last away or back (a late tap from a tablet's queue) is superseded.
pub fn back(
    conn: &mut DbConn,
    act: &Act,
    tapped: DateTime<Utc>,
    seating_id: SeatingId,
    at_table: Option<TableId>,
) -> AppResult<ReturnObligation> {
    let (now, profile, actor) = (act.now, act.profile(), &act.actor);
    let (s, before) = open_seating(conn, seating_id, at_table)?;
    let tapped = tapped.min(now);
    check_latest_tap(act, &before, tapped)?;
    require_away(&before)?;
    let mut b = buttons_of(&before);
    let obligation = b.on_return(profile);
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(seatings::table.find(s.id))
            .set((
                seatings::away_since.eq(None::<NaiveDateTime>),
                seatings::away_extended_until.eq(None::<NaiveDateTime>),
                seatings::removal_alerted_at.eq(None::<NaiveDateTime>),
                seatings::absence_button.eq(b.absence),
                seatings::hand_notice.eq(obligation.key()),
                seatings::absence_tapped_at.eq(Some(tapped.naive_utc())),
            ))
            .returning(seatings::id)
    )
    .changed(dbc))?;
    let counting: Vec<CustodyRow> = crate::native!(conn, |dbc| chip_custody::table
        .filter(chip_custody::seating_id.eq(s.id))
        .filter(chip_custody::state.eq(CustodyState::Counting))
        .select(CustodyRow::as_select())
        .load(dbc))?;
    for c in counting {
        end_custody(conn, act, &c, "cancelled", Some("player back"))?;
    }
    let after = side(conn, s.id)?;
    audit::record(
        conn,
        now,
        actor,
        "seat.back",
        "player",
        Some(s.player_id.get()),
        Some(&before),
        Some(&with_tap(&after, tapped, now)),
    )?;
    emit(
        conn,
        now,
        Some(s.table_id),
        "seat.back",
        &serde_json::json!({ "seat": s.seat_no, "player_id": s.player_id, "obligation": obligation }),
    )?;
    Ok(obligation)
}

/// BSOP 39, PT-2007 90: the returning player posted (or paid dead) the missed blinds, or the
/// big blind reached them: the buttons go.
pub fn blinds_settled(
    conn: &mut DbConn,
    act: &Act,
    seating_id: SeatingId,
    at_table: Option<TableId>,
) -> AppResult<SeatSideRow> {
    let (now, actor) = (act.now, &act.actor);
    let (s, before) = open_seating(conn, seating_id, at_table)?;
    if before.away_since.is_some() {
        return Err(AbsenceRefusal::StillAway.into());
    }
    let mut b = buttons_of(&before);
    b.on_blinds_settled();
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(seatings::table.find(s.id))
            .set((
                seatings::missed_sb.eq(0),
                seatings::missed_bb.eq(0),
                seatings::missed_blind_button.eq(false),
                seatings::absence_button.eq(false),
                seatings::hand_notice.eq(None::<String>),
            ))
            .returning(seatings::id)
    )
    .changed(dbc))?;
    let after = side(conn, s.id)?;
    audit::record(
        conn,
        now,
        actor,
        "seat.blinds_settled",
        "player",
        Some(s.player_id.get()),
        Some(&before),
        Some(&after),
    )?;
    emit(
        conn,
        now,
        Some(s.table_id),
        "seat.buttons",
        &serde_json::json!({ "seat": s.seat_no, "player_id": s.player_id }),
    )?;
    Ok(after)
}

/// BSOP 36: an absent player's seat missed a blind: the missed-blind button, and after the
/// profile's count of big blinds the seat is due for removal (the floor is alerted). A blind
/// tapped (`tapped`, [`when_tapped`]) before the absence began was not missed while away:
/// refused.
pub fn missed_blind(
    conn: &mut DbConn,
    act: &Act,
    tapped: DateTime<Utc>,
    seating_id: SeatingId,
    blind: Blind,
    at_table: Option<TableId>,
) -> AppResult<AbsenceStatus> {
    let (now, profile, actor) = (act.now, act.profile(), &act.actor);
    let (s, before) = open_seating(conn, seating_id, at_table)?;
    require_away(&before)?;
    if before.away_since.is_some_and(|a| tapped < a.and_utc()) {
        return Err(AbsenceRefusal::MissedBeforeAway.into());
    }
    let mut b = buttons_of(&before);
    b.on_blind_missed(blind);
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(seatings::table.find(s.id))
            .set((
                seatings::missed_sb.eq(b.missed_sb as i32),
                seatings::missed_bb.eq(b.missed_bb as i32),
                seatings::missed_blind_button.eq(b.missed_blind)
            ))
            .returning(seatings::id)
    )
    .changed(dbc))?;
    let after = side(conn, s.id)?;
    audit::record(
        conn,
        now,
        actor,
        "seat.missed_blind",
        "player",
        Some(s.player_id.get()),
        Some(&before),
        Some(&with_tap(&after, tapped, now)),
    )?;
    emit(
        conn,
        now,
        Some(s.table_id),
        "seat.buttons",
        &serde_json::json!({ "seat": s.seat_no, "player_id": s.player_id, "missed": blind }),
    )?;
    alert_if_due(conn, act, &s, &after)?;
    Ok(status_of(&after, profile, now))
}

/// BSOP 36: «As ausências poderão ser prorrogadas se o supervisor for previamente avisado e
/// a situação o justificar»: a floor manager extends an absence, with a reason (audited).
pub fn extend_absence(
    conn: &mut DbConn,
    act: &Act,
    supervisor: bool,
    seating_id: SeatingId,
    minutes: i64,
    reason: &str,
    at_table: Option<TableId>,
) -> AppResult<SeatSideRow> {
    let (now, profile, actor) = (act.now, act.profile(), &act.actor);
    if !supervisor {
        return Err(AppError::Forbidden(Problem::from(
            AbsenceRefusal::ExtendFloorOnly,
        )));
    }
    let (s, before) = open_seating(conn, seating_id, at_table)?;
    require_away(&before)?;
    if !(1..=MAX_EXTENSION_MIN).contains(&minutes) {
        return Err(AppError::Validation(vec![FieldError::new(
            "minutes",
            "err-range",
        )
        .arg("min", 1)
        .arg("max", MAX_EXTENSION_MIN)]));
    }
    let reason = text("reason", reason, 300)?;
    let until = now + Duration::minutes(minutes);
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(seatings::table.find(s.id))
            .set((
                seatings::away_extended_until.eq(Some(until.naive_utc())),
                seatings::removal_alerted_at.eq(None::<NaiveDateTime>)
            ))
            .returning(seatings::id)
    )
    .changed(dbc))?;
    let after = side(conn, s.id)?;
    let note = serde_json::json!({ "rule": "BSOP 36", "reason": reason, "until": until, "before": before });
    audit::record(
        conn,
        now,
        actor,
        "seat.absence_extended",
        "player",
        Some(s.player_id.get()),
        Some(&note),
        Some(&after),
    )?;
    let due = match status_of(&after, profile, now) {
        AbsenceStatus::Away { due_at } => Some(due_at),
        _ => None,
    };
    emit(
        conn,
        now,
        Some(s.table_id),
        "seat.away",
        &serde_json::json!({ "seat": s.seat_no, "player_id": s.player_id, "due_at": due, "extended": true }),
    )?;
    Ok(after)
}

/// The scheduler's pass: absent seats that became due for removal by time (BSOP 36) alert the
/// floor once.
pub fn alert_due_removals(conn: &mut DbConn, act: &Act) -> AppResult<usize> {
    let away: Vec<(SeatingRow, SeatSideRow)> = crate::native!(conn, |dbc| seatings::table
        .filter(seatings::left_at.is_null())
        .filter(seatings::away_since.is_not_null())
        .filter(seatings::removal_alerted_at.is_null())
        .select((SeatingRow::as_select(), SeatSideRow::as_select()))
        .load(dbc))?;
    let mut n = 0;
    for (s, sd) in away {
        if alert_if_due(conn, act, &s, &sd)? {
            n += 1;
        }
    }
    Ok(n)
}
