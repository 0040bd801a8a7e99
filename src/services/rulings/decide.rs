//! Deciding a ruling (BSOP 16, 17, 19-22): the decision text, the rule cited, the players
//! involved, BSOP 19's "result stands" for a late ruling, and the chips the decision moves —
//! the held pot's release (BSOP 21), a pot reconstructed (BSOP 20). A decision is final: a
//! correction is a later ruling that names the one it corrects.

use super::*;
use crate::domain::ids::PlayerId;
use crate::domain::ids::TableId;
use crate::domain::refusal::RulingRefusal;
use crate::services::Act;

/// A player's share of the held pot (BSOP 21).
#[derive(Debug, Clone, Copy, Serialize)]
pub struct ShareInput {
    pub player_id: PlayerId,
    pub amount: i64,
}

/// BSOP 20: the amount taken from each named player's stack for the right player.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ReconstructionInput {
    pub to_player_id: PlayerId,
    pub from: Vec<ShareInput>,
}

/// What the floor answers.
#[derive(Debug, Clone, Default)]
pub struct DecisionInput {
    /// Required (422 when empty).
    pub decision: String,
    /// The rule cited ("BSOP 20"), optional.
    pub rule: String,
    /// Players involved besides those at the seats named (BSOP 22 keeps their history).
    pub player_ids: Vec<PlayerId>,
    /// BSOP 19: a late ruling's result stands unless the floor overrides it, with a reason.
    pub override_result: bool,
    pub override_reason: String,
    /// BSOP 21: the held pot's release, per player (required while a pot is held).
    pub release: Vec<ShareInput>,
    /// BSOP 20: a pot reconstructed (only while the window of BSOP 19 is open).
    pub reconstruction: Option<ReconstructionInput>,
}

/// The most players a decision may add (a table seats at most 11).
const PLAYERS_MAX: usize = 12;

/// Everything a decision records, checked before anything is written.
struct Settled {
    decision: String,
    rule: Option<String>,
    result_stands: Option<bool>,
    override_reason: Option<String>,
    added: Vec<PlayerId>,
    pot: Option<HeldPotRow>,
    lines: Vec<(MoveLineKind, Option<PlayerId>, PlayerId, i64)>,
}

/// Checks a decision for ruling `r` (its table, lateness and players as they are), every
/// refusal before anything is written: the text and rule, BSOP 19's override, the players
/// added, the held pot's release (BSOP 21) and a reconstruction (BSOP 20).
fn settle(
    conn: &mut DbConn,
    room: &Room,
    r: &RulingRow,
    involved: &[PlayerId],
    input: &DecisionInput,
) -> AppResult<Settled> {
    let one = |f: FieldError| AppError::Validation(vec![f]);
    let decision = rule::text(
        "decision",
        &input.decision,
        rule::DECISION_MAX,
        Some(rule::DECISION_REQUIRED),
    )
    .map_err(one)?;
    let rule_cited = rule::text("rule", &input.rule, rule::RULE_MAX, None).map_err(one)?;
    let late = r.late();
    let stands = rule::result_stands(
        late,
        input.override_result,
        Some(input.override_reason.as_str()),
    )
    .map_err(one)?;
    let override_reason = (stands == Some(false)).then(|| input.override_reason.trim().to_string());
    let mut added = players_added(conn, involved, &input.player_ids)?;
    let t = table(conn, r.table_id)?;
    let seated = seated_at(conn, r.table_id)?;
    // BSOP 21: the pot held for this ruling (or the ruling it corrects), still held.
    let root = root_of(conn, r)?;
    let pot = held_pot_of(conn, root)?.filter(|p| p.pot_state() == HeldPotState::Held);
    let mut lines = Vec::new();
    let release = Release {
        room,
        pot: pot.as_ref(),
        shares: &input.release,
        seated: &seated,
        involved,
        added: &added,
    };
    release_lines(conn, release, &mut lines)?;
    if let Some(rc) = &input.reconstruction {
        reconstruction_lines(conn, room, r, &t, rc, &mut lines)?;
    }
    // Whoever the decision gives chips to or takes chips from is involved in it (their
    // record shows the ruling; BSOP 22).
    for (_, from, to, _) in &lines {
        for p in [*from, Some(*to)].into_iter().flatten() {
            if !involved.contains(&p) && !added.contains(&p) {
                added.push(p);
            }
        }
    }
    Ok(Settled {
        decision,
        rule: Some(rule_cited).filter(|s| !s.is_empty()),
        result_stands: stands,
        override_reason,
        added,
        pot,
        lines,
    })
}

/// The players the floor names besides those involved already (each known), at most
/// [`PLAYERS_MAX`].
fn players_added(
    conn: &mut DbConn,
    involved: &[PlayerId],
    named: &[PlayerId],
) -> AppResult<Vec<PlayerId>> {
    let one = |f: FieldError| AppError::Validation(vec![f]);
    if named.len() > PLAYERS_MAX {
        return Err(one(FieldError::new(
            "player_ids",
            "err-ruling-too-many-players",
        )
        .arg("max", PLAYERS_MAX)));
    }
    let mut added: Vec<PlayerId> = Vec::new();
    for &p in named {
        known_player(conn, "player_ids", p)?;
        if !involved.contains(&p) && !added.contains(&p) {
            added.push(p);
        }
    }
    Ok(added)
}

/// The held pot and the shares the floor releases it in, with who may get a share.
struct Release<'a> {
    room: &'a Room,
    pot: Option<&'a HeldPotRow>,
    shares: &'a [ShareInput],
    seated: &'a [SeatingRow],
    involved: &'a [PlayerId],
    added: &'a [PlayerId],
}

/// BSOP 21: the held pot's release, per player: the shares add up to the pot, each to a
/// player at the table or in the ruling; no release without a held pot.
fn release_lines(
    conn: &mut DbConn,
    release: Release<'_>,
    lines: &mut Vec<(MoveLineKind, Option<PlayerId>, PlayerId, i64)>,
) -> AppResult<()> {
    let one = |f: FieldError| AppError::Validation(vec![f]);
    let Release {
        room,
        pot,
        shares: release,
        seated,
        involved,
        added,
    } = release;
    match pot {
        Some(p) => {
            let shares: Vec<rule::Share> = release
                .iter()
                .map(|s| rule::Share {
                    player_id: s.player_id,
                    amount: s.amount,
                })
                .collect();
            rule::check_release(p.amount, &shares).map_err(|f| field_refusal(f, room))?;
            for s in release {
                let player = known_player(conn, "release", s.player_id)?;
                let at_table = seated.iter().any(|x| x.player_id == s.player_id);
                if !at_table && !involved.contains(&s.player_id) && !added.contains(&s.player_id) {
                    return Err(one(FieldError::new("release", "err-ruling-release-player")
                        .arg("player", player.alias)));
                }
                lines.push((MoveLineKind::Release, None, s.player_id, s.amount));
            }
        }
        None if !release.is_empty() => {
            return Err(one(FieldError::new("release", "err-ruling-no-pot")));
        }
        None => {}
    }
    Ok(())
}

/// BSOP 20: a pot reconstructed: never in a late ruling (BSOP 19), every player named seated
/// at the table, and the amounts within their stacks and the table's maximum.
fn reconstruction_lines(
    conn: &mut DbConn,
    room: &Room,
    r: &RulingRow,
    t: &TableRow,
    rc: &ReconstructionInput,
    lines: &mut Vec<(MoveLineKind, Option<PlayerId>, PlayerId, i64)>,
) -> AppResult<()> {
    let late = r.late();
    // BSOP 19 first: a late ruling moves nothing (409), whatever the amounts.
    if let Some(why) = late {
        return Err(rule_refusal(
            Problem::from(RulingRefusal::ReconstructionLate { why: why.as_str() }),
            room,
        ));
    }
    let (to, to_stack) = seated_player(conn, r.table_id, rc.to_player_id)?;
    let mut taken = Vec::new();
    for f in &rc.from {
        let (p, stack) = seated_player(conn, r.table_id, f.player_id)?;
        taken.push(rule::Taken {
            player_id: p.id,
            amount: f.amount,
            stack,
        });
    }
    let max = stack_max_of(conn, t)?;
    rule::check_reconstruction(late, &taken, to.id, to_stack, max)
        .map_err(|e| reconstruction_refusal(conn, room, e))?;
    for f in &rc.from {
        lines.push((
            MoveLineKind::Reconstruction,
            Some(f.player_id),
            rc.to_player_id,
            f.amount,
        ));
    }
    Ok(())
}

/// A player a reconstruction names, known and seated at the ruling's table, with their stack.
fn seated_player(
    conn: &mut DbConn,
    table_id: TableId,
    player_id: PlayerId,
) -> AppResult<(PlayerRow, i64)> {
    let p = known_player(conn, "reconstruction", player_id)?;
    let Some((_, stack)) = open_seating_at(conn, table_id, p.id)? else {
        return Err(AppError::Validation(vec![FieldError::new(
            "reconstruction",
            "err-ruling-not-seated",
        )
        .arg("player", p.alias)]));
    };
    Ok((p, stack))
}

/// A reconstruction refused, the player it names said by alias, not by number.
fn reconstruction_refusal(conn: &mut DbConn, room: &Room, e: Refusal) -> AppError {
    match e {
        Refusal::Field(mut f) => {
            if let Some(pid) = f
                .args
                .iter()
                .find(|(k, _)| *k == "player")
                .and_then(|(_, v)| v.parse::<i64>().ok())
            {
                let alias = crate::services::players::get(conn, PlayerId(pid))
                    .map(|p| p.alias)
                    .unwrap_or_else(|_| pid.to_string());
                for (k, v) in f.args.iter_mut() {
                    if *k == "player" {
                        *v = alias.clone();
                    }
                }
            }
            field_refusal(f, room)
        }
        other => refusal(other, room),
    }
}

/// Writes the players a decision adds and the chips it moves (recorded, waiting for a second
/// staff member): what the audit record carries.
fn record_settled(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    ruling_id: i64,
    table_id: TableId,
    by: i64,
    s: &Settled,
) -> AppResult<(
    Vec<RulingPlayerRow>,
    Option<(RulingMoveRow, Vec<RulingMoveLineRow>)>,
)> {
    let mut added = Vec::new();
    for &p in &s.added {
        let row = RulingPlayerRow {
            ruling_id,
            player_id: p,
            seat_no: None,
            named_at: NamedAt::Decided.as_str().to_string(),
        };
        crate::native!(conn, |dbc| diesel::insert_into(ruling_players::table)
            .values(&row)
            .execute(dbc))?;
        added.push(row);
    }
    if s.lines.is_empty() {
        return Ok((added, None));
    }
    let m = RulingMoveRow {
        id: next_seq(conn, "ruling_move")?,
        ruling_id,
        table_id,
        held_pot_id: s
            .lines
            .iter()
            .any(|l| l.0 == MoveLineKind::Release)
            .then(|| s.pot.as_ref().map(|p| p.id))
            .flatten(),
        state: RulingMoveState::Recorded,
        recorded_by: by,
        recorded_at: now.naive_utc(),
        confirmed_by: None,
        confirmed_at: None,
        cancelled_by: None,
        cancelled_at: None,
    };
    crate::native!(conn, |dbc| diesel::insert_into(ruling_moves::table)
        .values(&m)
        .execute(dbc))
    .map_err(|e| {
        if is_unique_violation(&e) {
            AppError::from(RulingRefusal::Decided { id: ruling_id })
        } else {
            e.into()
        }
    })?;
    let mut lines = Vec::new();
    for (i, (kind, from, to, amount)) in s.lines.iter().enumerate() {
        let l = RulingMoveLineRow {
            move_id: m.id,
            line_no: i as i32 + 1,
            kind: *kind,
            from_player_id: *from,
            to_player_id: *to,
            amount: *amount,
        };
        crate::native!(conn, |dbc| diesel::insert_into(ruling_move_lines::table)
            .values(&l)
            .execute(dbc))?;
        lines.push(l);
    }
    Ok((added, Some((m, lines))))
}

/// What a decision's audit record carries besides the ruling.
#[derive(Debug, Serialize)]
struct DecisionRecord<'a> {
    ruling: &'a RulingRow,
    players_added: &'a [RulingPlayerRow],
    #[serde(rename = "move")]
    moved: Option<&'a RulingMoveRow>,
    lines: &'a [RulingMoveLineRow],
}

/// BSOP 16, 17: the floor decides an open ruling — final once recorded (a second decision is
/// refused, 409; only a later ruling naming it corrects it, [`correct`]). A late ruling
/// (BSOP 19) keeps the hand's result unless `override_result` with a reason. While a pot is
/// held (BSOP 21) the decision releases it to named players, the shares summing to it; a
/// reconstruction (BSOP 20) moves chips between players' stacks, refused when late. The chips
/// move only once a second staff member confirms ([`confirm_move`]). Audited as
/// `ruling.decide`, pushed as `ruling.decided`.
pub fn decide(
    conn: &mut DbConn,
    act: &Act,
    ruling_id: i64,
    input: &DecisionInput,
) -> AppResult<RulingRow> {
    let room = &act.room;
    let (now, actor) = (act.now, &act.actor);
    let by = staff_id(actor)?;
    let r = ruling(conn, ruling_id)?;
    if r.state() == RulingState::Decided {
        return Err(RulingRefusal::Decided { id: r.id }.into());
    }
    let involved: Vec<PlayerId> = players_of(conn, r.id)?
        .iter()
        .map(|p| p.player_id)
        .collect();
    let s = settle(conn, room, &r, &involved, input)?;
    let n = crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(
            rulings::table
                .find(r.id)
                .filter(rulings::decided_at.is_null())
        )
        .set((
            rulings::decision.eq(Some(s.decision.as_str())),
            rulings::rule_cited.eq(s.rule.as_deref()),
            rulings::result_stands.eq(s.result_stands),
            rulings::override_reason.eq(s.override_reason.as_deref()),
            rulings::decided_at.eq(Some(now.naive_utc())),
            rulings::decided_by.eq(Some(by))
        ))
        .returning(rulings::id)
    )
    .changed(dbc))?;
    if n != 1 {
        return Err(RulingRefusal::Decided { id: r.id }.into());
    }
    let (added, moved) = record_settled(conn, now, r.id, r.table_id, by, &s)?;
    let after = ruling(conn, r.id)?;
    audit::record(
        conn,
        now,
        actor,
        "ruling.decide",
        SUBJECT,
        Some(r.id),
        Some(&r),
        Some(&DecisionRecord {
            ruling: &after,
            players_added: &added,
            moved: moved.as_ref().map(|(m, _)| m),
            lines: moved.as_ref().map(|(_, l)| l.as_slice()).unwrap_or(&[]),
        }),
    )?;
    let number = table(conn, r.table_id)?.number;
    emit(
        conn,
        now,
        Some(r.table_id),
        "ruling.decided",
        &serde_json::json!({
            "id": r.id,
            "table": number,
            "move": moved.as_ref().map(|(m, _)| m.id),
        }),
    )?;
    Ok(after)
}

/// BSOP 17: a decision is never changed; the floor corrects it with a later ruling that names
/// it. The correction is about the same table, hand and seats, keeps the players and BSOP 19's
/// judgement of the original request (a request made in time stays in time), and is decided
/// at once with `input` (its own release of a pot still held, its own reconstruction). Refused
/// for an open ruling (decide it instead), one already corrected (correct the correction),
/// and while the chips of its decision wait for a second staff member. The earlier ruling then
/// shows "corrected by #N". Audited as `ruling.correct`, pushed as `ruling.decided`.
pub fn correct(
    conn: &mut DbConn,
    act: &Act,
    ruling_id: i64,
    input: &DecisionInput,
) -> AppResult<RulingRow> {
    let room = &act.room;
    let (now, actor) = (act.now, &act.actor);
    let by = staff_id(actor)?;
    let r = ruling(conn, ruling_id)?;
    check_may_correct(conn, room, &r, input)?;
    let earlier = players_of(conn, r.id)?;
    let involved: Vec<PlayerId> = earlier.iter().map(|p| p.player_id).collect();
    let s = settle(conn, room, &r, &involved, input)?;
    let row = insert_correction(conn, now, by, &r, &s)?;
    let mut players = Vec::new();
    for p in &earlier {
        let copy = RulingPlayerRow {
            ruling_id: row.id,
            ..p.clone()
        };
        crate::native!(conn, |dbc| diesel::insert_into(ruling_players::table)
            .values(&copy)
            .execute(dbc))?;
        players.push(copy);
    }
    let (added, moved) = record_settled(conn, now, row.id, row.table_id, by, &s)?;
    players.extend(added.iter().cloned());
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "ruling.correct",
        SUBJECT,
        Some(row.id),
        None,
        Some(&serde_json::json!({
            "corrects": r.id,
            "decision": DecisionRecord {
                ruling: &row,
                players_added: &added,
                moved: moved.as_ref().map(|(m, _)| m),
                lines: moved.as_ref().map(|(_, l)| l.as_slice()).unwrap_or(&[]),
            },
            "players": players,
        })),
    )?;
    let number = table(conn, r.table_id)?.number;
    emit(
        conn,
        now,
        Some(r.table_id),
        "ruling.decided",
        &serde_json::json!({
            "id": row.id,
            "table": number,
            "corrects": r.id,
            "move": moved.as_ref().map(|(m, _)| m.id),
        }),
    )?;
    Ok(row)
}

/// Only a decided ruling is corrected, once, and not while its chips wait for a second staff
/// member; BSOP 20: a correction reconstructs a pot only while BSOP 19's window is still open
/// now (the hand named is still the one in play).
fn check_may_correct(
    conn: &mut DbConn,
    room: &Room,
    r: &RulingRow,
    input: &DecisionInput,
) -> AppResult<()> {
    if r.state() == RulingState::Open {
        return Err(RulingRefusal::CorrectOpen { id: r.id }.into());
    }
    if let Some(n) = corrected_by(conn, r.id)? {
        return Err(RulingRefusal::Corrected { id: r.id, by: n }.into());
    }
    if let Some((m, _)) = move_of(conn, r.id)? {
        if m.move_state() == RulingMoveState::Recorded {
            return Err(RulingRefusal::MovePending { id: r.id }.into());
        }
    }
    if input.reconstruction.is_some() && r.late().is_none() && r.hand_number.is_some() {
        let current = super::ask::hand_in_play(conn, r.table_id)?.map(|h| h.number);
        if current != r.hand_number {
            return Err(rule_refusal(
                Problem::from(RulingRefusal::ReconstructionLate {
                    why: rule::LateReason::NextHand.as_str(),
                }),
                room,
            ));
        }
    }
    Ok(())
}

/// The correction: a ruling about the same hand and seats, asked and decided now, naming
/// the one it corrects (a correction already made meanwhile refuses it).
fn insert_correction(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    by: i64,
    r: &RulingRow,
    s: &Settled,
) -> AppResult<RulingRow> {
    let row = RulingRow {
        id: next_seq(conn, "ruling")?,
        table_id: r.table_id,
        game_id: r.game_id,
        hand_id: r.hand_id,
        hand_number: r.hand_number,
        seats: r.seats.clone(),
        note: r.note.clone(),
        asked_at: now.naive_utc(),
        asked_by: Some(by),
        late_reason: r.late_reason.clone(),
        corrects: Some(r.id),
        decision: Some(s.decision.clone()),
        rule_cited: s.rule.clone(),
        result_stands: s.result_stands,
        override_reason: s.override_reason.clone(),
        decided_at: Some(now.naive_utc()),
        decided_by: Some(by),
    };
    crate::native!(conn, |dbc| diesel::insert_into(rulings::table)
        .values(&row)
        .execute(dbc))
    .map_err(|e| {
        if is_unique_violation(&e) {
            AppError::from(RulingRefusal::CorrectedRace { id: r.id })
        } else {
            e.into()
        }
    })?;
    Ok(row)
}
