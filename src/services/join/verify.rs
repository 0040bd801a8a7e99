//! Step 2: the code checked; a registered, eligible player joins the lists at once, anyone
//! else gets a guest place (or the neutral "see the desk").

use super::offered::offered;
use super::request::players_with_phone;
use crate::db::audit::{self, Actor};
use crate::db::schema::{games, guest_entries, guests, join_codes, waitlist_entries};
use crate::db::{next_seq, DbConn};
use crate::domain::ids::GameId;
use crate::domain::ids::PlayerId;
use crate::domain::refusal::JoinRefusal;
use crate::domain::remote_join::{self as rj, CodeCheck, CodeState, EntrySource, Via};
use crate::domain::states::EntryState;
use crate::domain::states::GuestState;
use crate::domain::waitlist::Entry;
use crate::domain::FieldError;
use crate::error::{AppError, AppResult};
use crate::services::room::Room;
use crate::services::Act;
use crate::services::Acting;
use crate::services::{floor, players as registry};
use chrono::{DateTime, Duration, NaiveDateTime, Utc};
use diesel::prelude::*;
use serde::Serialize;

/// What a right code led to.
#[derive(Debug, Clone, Serialize)]
pub enum Verified {
    /// A registered player: on these lists now (names), already on these, and not added to
    /// these (the list closed meanwhile, or the room's rules keep them off for now).
    Player {
        player_id: PlayerId,
        joined: Vec<String>,
        already: Vec<String>,
        skipped: Vec<String>,
    },
    /// Not registered: places kept as a guest (list name, place), to register at the desk.
    Guest {
        guest_id: i64,
        places: Vec<(String, usize)>,
        already: Vec<String>,
        skipped: Vec<String>,
    },
    /// The neutral answer (see the module's documentation): nothing was added.
    SeeDesk,
}

/// The actor of a remote join: the phone's owner, proved by the code.
fn phone_actor(phone: &str) -> Actor {
    // The last four digits name the phone in the trail's actor column; the whole number is in
    // the record itself.
    let tail: String = phone
        .chars()
        .rev()
        .take(4)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    Actor {
        id: None,
        name: format!("phone …{tail} (join code)"),
    }
}

/// Step 2: checks the code typed on the request's page. The outer `Err` rolls back (a fault,
/// or an unknown request: 404); the inner one is a refusal that was recorded (a wrong code
/// counts a try, audited).
pub fn verify_code(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    key: &[u8],
    room: &Room,
    token: &str,
    typed: &str,
) -> AppResult<Result<Verified, AppError>> {
    let code = read_code(conn, key, token)?;
    let check = rj::check_code(key, &code.state, typed, now);
    if let Err(refused) = refuse_bad_code(conn, now, &code, check, typed)? {
        return Ok(Err(refused));
    }
    let via: Via = code.via.parse().unwrap_or(Via::Phone);
    let wanted: Vec<GameId> = serde_json::from_str(&code.games_json).unwrap_or_default();
    let (open, closed) = open_and_closed(conn, now, room, &wanted)?;
    let found = players_with_phone(conn, &code.phone)?;
    let joining = Joining {
        now,
        room,
        code: &code,
        via,
        open: &open,
        closed,
    };
    let (outcome, entries, verified) = match found.as_slice() {
        [p] => join_registered(conn, joining, p)?,
        [] => join_unregistered(conn, joining)?,
        many => refuse_several_players(conn, now, &code, many)?,
    };
    diesel::update(join_codes::table.find(code.id))
        .set((
            join_codes::used_at.eq(Some(now.naive_utc())),
            join_codes::outcome.eq(outcome),
            join_codes::entries.eq(entries),
        ))
        .execute(conn)?;
    Ok(Ok(verified))
}

/// A code request as step 2 reads it.
struct JoinCode {
    id: i64,
    phone: String,
    games_json: String,
    name: String,
    via: String,
    language: String,
    state: CodeState,
}

/// The code request the page's token names (none: 404).
fn read_code(conn: &mut DbConn, key: &[u8], token: &str) -> AppResult<JoinCode> {
    type Row = (
        i64,
        String,
        String,
        String,
        String,
        String,
        NaiveDateTime,
        i32,
        Option<NaiveDateTime>,
        String,
    );
    let (id, phone, code_hash, games_json, name, via, expires_at, attempts, used_at, language): Row =
        join_codes::table
            .filter(join_codes::token_hash.eq(rj::token_hash(key, token)))
            .select((
                join_codes::id,
                join_codes::phone,
                join_codes::code_hash,
                join_codes::game_ids,
                join_codes::guest_name,
                join_codes::via,
                join_codes::expires_at,
                join_codes::attempts,
                join_codes::used_at,
                join_codes::language,
            ))
            .first(conn)?;
    Ok(JoinCode {
        id,
        phone,
        games_json,
        name,
        via,
        language,
        state: CodeState {
            id,
            code_hash,
            expires_at: expires_at.and_utc(),
            attempts,
            used: used_at.is_some(),
        },
    })
}

/// A code that is not good is refused: a wrong one counts a try (unless it is not six
/// digits), the try that kills it marks the request, and every refusal but a used code is
/// audited.
fn refuse_bad_code(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    code: &JoinCode,
    check: CodeCheck,
    typed: &str,
) -> AppResult<Result<(), AppError>> {
    let fail = |conn: &mut DbConn, why: &str, err: AppError, count: bool| {
        code_failed(conn, now, code, check, why, count).map(|()| Err(err))
    };
    match check {
        CodeCheck::Good => Ok(Ok(())),
        CodeCheck::Wrong { tries_left } => {
            if rj::clean_code(typed).is_none() {
                // Not six digits: said as such, and it does not count (a slip, not a guess).
                return Ok(Err(AppError::Validation(vec![FieldError::new(
                    "code",
                    "err-join-code-format",
                )])));
            }
            fail(
                conn,
                "wrong",
                AppError::Validation(vec![
                    FieldError::new("code", "err-join-code-wrong").arg("tries", tries_left)
                ]),
                true,
            )
        }
        CodeCheck::TooManyTries => {
            let first = code.state.attempts < rj::MAX_TRIES;
            if first {
                diesel::update(join_codes::table.find(code.id))
                    .set(join_codes::outcome.eq("too_many"))
                    .execute(conn)?;
            }
            fail(
                conn,
                "too_many",
                AppError::from(JoinRefusal::CodeDead),
                first,
            )
        }
        CodeCheck::Expired => fail(
            conn,
            "expired",
            AppError::from(JoinRefusal::CodeExpired),
            false,
        ),
        CodeCheck::Used => Ok(Err(JoinRefusal::CodeUsed.into())),
    }
}

/// A failed code: the try counted when `count`, and the failure audited.
fn code_failed(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    code: &JoinCode,
    check: CodeCheck,
    why: &str,
    count: bool,
) -> AppResult<()> {
    if count {
        diesel::update(join_codes::table.find(code.id))
            .set(join_codes::attempts.eq(join_codes::attempts + 1))
            .execute(conn)?;
    }
    audit::record::<(), _>(
        conn,
        now,
        &phone_actor(&code.phone),
        "join.code_failed",
        "join_code",
        Some(code.id),
        None,
        Some(&serde_json::json!({ "phone": code.phone, "why": why, "check": check })),
    )?;
    Ok(())
}

/// The wanted lists still offered (game, name), and the names of those that closed
/// meanwhile: a closed list is not joined (said on the page).
fn open_and_closed(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    room: &Room,
    wanted: &[GameId],
) -> AppResult<(Vec<(GameId, String)>, Vec<String>)> {
    let offered = offered(conn, None, now, room.profile.min_players_to_run)?;
    let name_of = |g: GameId| offered.iter().find(|o| o.id == g).map(|o| o.name.clone());
    let mut closed: Vec<String> = Vec::new();
    let mut open: Vec<(GameId, String)> = Vec::new();
    for g in wanted {
        match name_of(*g) {
            Some(n) => open.push((*g, n)),
            None => closed.push(
                games::table
                    .find(*g)
                    .select(games::name)
                    .first(conn)
                    .optional()?
                    .unwrap_or_default(),
            ),
        }
    }
    Ok((open, closed))
}

/// What a good code joins: the lists still open and the names of those that closed.
struct Joining<'a> {
    now: DateTime<Utc>,
    room: &'a Room,
    code: &'a JoinCode,
    via: Via,
    open: &'a [(GameId, String)],
    closed: Vec<String>,
}

/// The request's outcome, the entries it made, and what the page says.
type Outcome = (&'static str, i32, Verified);

/// The one registered player with this phone joins the open lists if eligible; else the
/// neutral answer (the refusal audited).
fn join_registered(
    conn: &mut DbConn,
    joining: Joining<'_>,
    p: &crate::db::models::PlayerRow,
) -> AppResult<Outcome> {
    let Joining {
        now,
        room,
        code,
        via,
        open,
        closed,
    } = joining;
    let (id, phone) = (code.id, &code.phone);
    let actor = phone_actor(phone);
    let why = registry::eligibility(conn, p, now, room.tz)?;
    if !why.is_empty() {
        audit::record::<(), _>(
            conn,
            now,
            &actor,
            "join.refused",
            "player",
            Some(p.id.get()),
            None,
            Some(&serde_json::json!({ "join_code": id, "phone": phone, "reasons": why })),
        )?;
        return Ok(("refused", 0, Verified::SeeDesk));
    }
    let (joined, already, mut skipped) = join_player(
        conn,
        &Acting::new(now, actor.clone()).with_room(room.clone()),
        via,
        p.id,
        open,
    )?;
    skipped.extend(closed);
    audit::record::<(), _>(
        conn,
        now,
        &actor,
        "join.remote",
        "player",
        Some(p.id.get()),
        None,
        Some(&serde_json::json!({
            "join_code": id, "phone": phone, "via": via,
            "joined": joined, "already": already, "skipped": skipped,
        })),
    )?;
    let n = joined.len() as i32;
    Ok((
        "joined",
        n,
        Verified::Player {
            player_id: p.id,
            joined,
            already,
            skipped,
        },
    ))
}

/// Nobody registered has this phone: a guest keeps a place on each open list (nothing is
/// kept when no list is open).
fn join_unregistered(conn: &mut DbConn, joining: Joining<'_>) -> AppResult<Outcome> {
    let Joining {
        now,
        room,
        code,
        via,
        open,
        closed,
    } = joining;
    if open.is_empty() {
        return Ok((
            "guest",
            0,
            Verified::Guest {
                guest_id: 0,
                places: Vec::new(),
                already: Vec::new(),
                skipped: closed,
            },
        ));
    }
    let (id, phone, name) = (code.id, &code.phone, &code.name);
    let (guest_id, places, already, mut skipped) =
        join_guest(conn, now, room, via, phone, name, &code.language, open)?;
    skipped.extend(closed);
    audit::record::<(), _>(
        conn,
        now,
        &phone_actor(phone),
        "join.guest",
        "guest",
        Some(guest_id),
        None,
        Some(&serde_json::json!({
            "join_code": id, "phone": phone, "name": name, "via": via,
            "places": places, "already": already, "skipped": skipped,
        })),
    )?;
    let n = places.len() as i32;
    Ok((
        "guest",
        n,
        Verified::Guest {
            guest_id,
            places,
            already,
            skipped,
        },
    ))
}

/// Several registered players have this phone: nobody is joined, the neutral answer.
fn refuse_several_players(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    code: &JoinCode,
    many: &[crate::db::models::PlayerRow],
) -> AppResult<Outcome> {
    audit::record::<(), _>(
        conn,
        now,
        &phone_actor(&code.phone),
        "join.refused",
        "join_code",
        Some(code.id),
        None,
        Some(&serde_json::json!({
            "phone": code.phone, "reasons": ["several registered players have this phone"],
            "players": many.iter().map(|p| p.id).collect::<Vec<_>>(),
        })),
    )?;
    Ok(("refused", 0, Verified::SeeDesk))
}

/// A registered, eligible player joins the open lists as call-ins (`floor::join`: the rules of
/// a desk join, the "added" message with their link), each entry marked `via`.
fn join_player(
    conn: &mut DbConn,
    act: &Act,
    via: Via,
    player_id: PlayerId,
    open: &[(GameId, String)],
) -> AppResult<(Vec<String>, Vec<String>, Vec<String>)> {
    let room = &act.room;
    let (mut joined, mut already, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
    let source = match via {
        Via::Phone => EntrySource::Phone,
        Via::Kiosk => EntrySource::Kiosk,
    };
    // Up to `remote_max_lists` lists joined from afar in all, not per request: the lists the
    // player is on from a phone or the kiosk count (codes are limited per hour,
    // entries by this).
    let mut remote: i64 = waitlist_entries::table
        .filter(waitlist_entries::player_id.eq(player_id))
        .filter(crate::db::conditions::EntryActive)
        .filter(waitlist_entries::via.is_not_null())
        .count()
        .get_result(conn)?;
    let max = i64::from(room.profile.remote_max_lists);
    for (g, name) in open {
        if remote >= max {
            let on: bool = diesel::select(diesel::dsl::exists(
                waitlist_entries::table
                    .filter(waitlist_entries::player_id.eq(player_id))
                    .filter(waitlist_entries::game_id.eq(*g))
                    .filter(crate::db::conditions::EntryActive),
            ))
            .get_result(conn)?;
            if on {
                already.push(name.clone());
            } else {
                skipped.push(name.clone());
            }
            continue;
        }
        // Savepoint: a refused join leaves nothing behind, the other lists go on.
        let r = crate::db::savepoint(conn, |c| {
            floor::join(c, act, *g, player_id, source.needs_check_in())
        });
        match r {
            Ok(row) => {
                diesel::update(waitlist_entries::table.find(row.id))
                    .set(waitlist_entries::via.eq(Some(via.as_str())))
                    .execute(conn)?;
                remote += 1;
                joined.push(name.clone());
            }
            Err(AppError::Conflict(p)) if p.key == "err-already-on-list" => {
                already.push(name.clone())
            }
            Err(AppError::Conflict(_)) | Err(AppError::Validation(_)) => skipped.push(name.clone()),
            Err(e) => return Err(e),
        }
    }
    Ok((joined, already, skipped))
}

/// Someone not registered: a guest (found by the phone, else new) with a kept place on each
/// open list it is not on yet; the board shows them "to register at the desk".
// A guest is one row from the request's fields.
#[allow(clippy::too_many_arguments)]
fn join_guest(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    room: &Room,
    via: Via,
    phone: &str,
    name: &str,
    language: &str,
    open: &[(GameId, String)],
) -> AppResult<(i64, Vec<(String, usize)>, Vec<String>, Vec<String>)> {
    let guest_id = guest_with_phone(conn, now, phone, name, language)?;
    let (mut places, mut already, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
    // As for a player: `remote_max_lists` kept places in all.
    let mut kept: i64 = guest_entries::table
        .filter(guest_entries::guest_id.eq(guest_id))
        .filter(crate::db::conditions::GuestWaiting)
        .filter(guest_entries::expires_at.gt(now.naive_utc()))
        .count()
        .get_result(conn)?;
    let max = i64::from(room.profile.remote_max_lists);
    for (g, gname) in open {
        let on: bool = diesel::select(diesel::dsl::exists(
            guest_entries::table
                .filter(guest_entries::guest_id.eq(guest_id))
                .filter(guest_entries::game_id.eq(*g))
                .filter(crate::db::conditions::GuestWaiting)
                .filter(guest_entries::expires_at.gt(now.naive_utc())),
        ))
        .get_result(conn)?;
        if on {
            already.push(gname.clone());
            continue;
        }
        if kept >= max {
            skipped.push(gname.clone());
            continue;
        }
        kept += 1;
        let place = keep_place(conn, now, room, via, guest_id, *g)?;
        places.push((gname.clone(), place));
    }
    Ok((guest_id, places, already, skipped))
}

/// The guest of this phone not registered yet, its name and language as given now; else a
/// new guest.
fn guest_with_phone(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    phone: &str,
    name: &str,
    language: &str,
) -> AppResult<i64> {
    let existing: Option<i64> = guests::table
        .filter(guests::phone.eq(phone))
        .filter(guests::player_id.is_null())
        .order(guests::id.desc())
        .select(guests::id)
        .first(conn)
        .optional()?;
    Ok(match existing {
        Some(id) => {
            diesel::update(guests::table.find(id))
                .set((guests::full_name.eq(name), guests::language.eq(language)))
                .execute(conn)?;
            id
        }
        None => {
            let id = next_seq(conn, "guest")?;
            diesel::insert_into(guests::table)
                .values((
                    guests::id.eq(id),
                    guests::full_name.eq(name),
                    guests::phone.eq(phone),
                    guests::language.eq(language),
                    guests::created_at.eq(now.naive_utc()),
                ))
                .execute(conn)?;
            id
        }
    })
}

/// A place kept for the guest at the bottom of the game's list until the call-in expiry;
/// the place it is, as the list shows it.
fn keep_place(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    room: &Room,
    via: Via,
    guest_id: i64,
    g: GameId,
) -> AppResult<usize> {
    // A lapsed place of this guest on this list ends now (the unique index holds one).
    diesel::update(
        guest_entries::table
            .filter(guest_entries::guest_id.eq(guest_id))
            .filter(guest_entries::game_id.eq(g))
            .filter(crate::db::conditions::GuestWaiting),
    )
    .set((
        guest_entries::state.eq(GuestState::Removed),
        guest_entries::ended_at.eq(Some(now.naive_utc())),
    ))
    .execute(conn)?;
    let max_entry: Option<i64> = waitlist_entries::table
        .filter(waitlist_entries::game_id.eq(g))
        .select(diesel::dsl::max(waitlist_entries::order_key))
        .first(conn)?;
    let max_guest: Option<i64> = guest_entries::table
        .filter(guest_entries::game_id.eq(g))
        .select(diesel::dsl::max(guest_entries::order_key))
        .first(conn)?;
    let key = rj::guest_key(max_entry, max_guest);
    let id = next_seq(conn, "guest_entry")?;
    diesel::insert_into(guest_entries::table)
        .values((
            guest_entries::id.eq(id),
            guest_entries::guest_id.eq(guest_id),
            guest_entries::game_id.eq(g),
            guest_entries::order_key.eq(key),
            guest_entries::joined_at.eq(now.naive_utc()),
            guest_entries::via.eq(via.as_str()),
            guest_entries::expires_at
                .eq((now + Duration::minutes(room.profile.call_in_expiry_min.into())).naive_utc()),
            guest_entries::state.eq(GuestState::Waiting),
        ))
        .execute(conn)?;
    let list = list_entries(conn, g)?;
    let place = rj::guest_place(&list, key, now, now);
    floor::emit(
        conn,
        now,
        None,
        "list.changed",
        &serde_json::json!({ "game_id": g }),
    )?;
    Ok(place)
}

/// A game's active list entries as the domain sees them.
pub(super) fn list_entries(conn: &mut DbConn, game_id: GameId) -> AppResult<Vec<Entry>> {
    type Row = (
        i64,
        i64,
        i64,
        NaiveDateTime,
        String,
        Option<String>,
        Option<NaiveDateTime>,
        Option<NaiveDateTime>,
        EntryState,
    );
    let rows: Vec<Row> = waitlist_entries::table
        .filter(waitlist_entries::game_id.eq(game_id))
        .filter(crate::db::conditions::EntryActive)
        .select((
            waitlist_entries::id,
            waitlist_entries::player_id,
            waitlist_entries::order_key,
            waitlist_entries::joined_at,
            waitlist_entries::source,
            waitlist_entries::via,
            waitlist_entries::call_in_expires_at,
            waitlist_entries::checked_in_at,
            waitlist_entries::state,
        ))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(id, p, k, j, s, v, exp, chk, st)| {
            rj::list_entry(
                id,
                PlayerId(p),
                k,
                j.and_utc(),
                EntrySource::of(&s, v.as_deref()),
                exp.map(|t| t.and_utc()),
                chk.is_some(),
                st == EntryState::Called,
            )
        })
        .collect())
}
