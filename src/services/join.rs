//! Players join the waiting lists from their phone.
//!
//! The flow, one write transaction per step:
//! 1. [`request_code`]: the phone number (a national one takes the room's country), a name
//!    and up to `remote_max_lists` of the games offered; the limits (per phone, per client
//!    address, per room, the SMS cost cap: 429 with `Retry-After`); a one-time code of six
//!    digits to the phone (or the registered player's e-mail when that is their channel)
//!    through the outbox; only its HMAC is kept. A blocked phone gets the very same answer,
//!    but nothing is sent.
//! 2. [`verify_code`]: 10 minutes, 5 tries. Then a registered, eligible player with that
//!    phone is on the lists at once (`floor::join` as a call-in — it lapses unless checked in,
//!    BSOP 43 — marked `via = phone`: their "added" message and link as today); someone not
//!    registered gets a *guest* place (`guest_entries`), kept in the list's order but never
//!    called until the desk registers them (BSOP 1, 3, 44; [`adopt_guest`]).
//!
//! What a banned or self-excluded player sees (nothing may tell a stranger who typed their
//! number that they are registered, banned or excluded): exactly what anyone sees until the
//! code — "we sent a code" (a code is sent as to anyone); after a right code, the neutral
//! "Please see the desk to complete your request" (also for a phone shared by several
//! records, or a registration the room cannot let play: no photo, an expired ID), with no
//! entry made; the reason is in the audit trail (`join.refused`), not on the page.
//!
//! Every code sent or withheld, every failed try, every entry and every block is audited; a
//! refusal by the limits is not (a flood would flood the trail) but is counted in `/metrics`
//! (`cardroom_join_codes_total{outcome="rate_limited"}`).

use crate::db::audit::{self, Actor};
use crate::db::models::Channel;
use crate::db::models::PlayerRow;
use crate::db::schema::{
    card_tables, games, guest_entries, guests, join_codes, phone_blocks, players, waitlist_entries,
};
use crate::db::{next_seq, DbConn};
use crate::domain::player::{normalize_phone_in, phone_region_of_zone, Language, NotifyPref};
use crate::domain::refusal::{JoinRefusal, ListRefusal};
use crate::domain::remote_join::{
    self as rj, choose_lists, within, CodeCheck, CodeState, EntrySource, Limit, ListsRefusal, Via,
};
use crate::domain::states::EntryState;
use crate::domain::states::GuestState;
use crate::domain::states::ListSource;
use crate::domain::waitlist::{self, Entry};
use crate::domain::FieldError;
use crate::error::{AppError, AppResult};
use crate::notify::{messages, Kind, Params};
use crate::services::room::Room;
use crate::services::Act;
use crate::services::Acting;
use crate::services::{floor, players as registry};
use chrono::{DateTime, Duration, NaiveDateTime, Utc};
use diesel::prelude::*;
use serde::Serialize;

/// The limits on join codes and entries, from the settings (`CARDROOM_JOIN_*`).
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub codes_per_phone: i64,
    pub codes_per_address: i64,
    pub codes_per_room: i64,
    pub entries_per_address: i64,
    pub entries_per_room: i64,
    pub sms_cost: i64,
    pub sms_cost_cap: i64,
}

impl Limits {
    pub fn of(c: &crate::config::Config) -> Limits {
        Limits {
            codes_per_phone: c.join.codes_per_phone.into(),
            codes_per_address: c.join.codes_per_address.into(),
            codes_per_room: c.join.codes_per_room.into(),
            entries_per_address: c.join.entries_per_address.into(),
            entries_per_room: c.join.entries_per_room.into(),
            sms_cost: c.join.sms_cost.into(),
            sms_cost_cap: c.join.sms_cost_cap.into(),
        }
    }
}

/// A game a phone may join: running, or with an interest list.
#[derive(Debug, Clone, Serialize)]
pub struct OfferedGame {
    pub id: i64,
    pub name: String,
    pub small_blind: i64,
    pub big_blind: i64,
    /// BSOP 24: the buy-in range.
    pub buy_in_min: i64,
    pub buy_in_max: Option<i64>,
    /// A table of the game is in play (else it is an interest list).
    pub running: bool,
    /// Players on the list now (guests keeping a place included).
    pub waiting: usize,
    /// Interest list: players still needed to start (PT-2007 24).
    pub needed: Option<usize>,
    /// The wait of someone joining now (`services::waits`, as every screen shows it; None:
    /// an interest list).
    pub wait: Option<crate::domain::waits::WaitEstimate>,
}

/// The games a phone may join now: every active game — its list when a table is in play,
/// else its interest list (PT-2007 24: players still needed to start one), as the lobby
/// screen shows them; an empty interest list is how a game starts. Read in a few
/// statements whatever the room's size. With `models`, each running game's wait for a player
/// joining now (`services::waits`); without, no wait figures (the rules that only need which
/// games are offered).
pub fn offered(
    conn: &mut DbConn,
    models: Option<&crate::services::waits::Models>,
    now: DateTime<Utc>,
    min_players_to_run: i32,
) -> AppResult<Vec<OfferedGame>> {
    let active: Vec<(i64, String, i64, i64, i64, Option<i64>)> = games::table
        .filter(games::active.eq(true))
        .order(games::name.asc())
        .select((
            games::id,
            games::name,
            games::small_blind,
            games::big_blind,
            games::buy_in_min,
            games::buy_in_max,
        ))
        .load(conn)?;
    let in_play: Vec<Option<i64>> = card_tables::table
        .filter(card_tables::active.eq(true))
        .filter(crate::db::conditions::TableInPlay)
        .select(card_tables::game_id)
        .load(conn)?;
    let entries: Vec<(i64, Option<NaiveDateTime>, Option<NaiveDateTime>)> = waitlist_entries::table
        .filter(crate::db::conditions::EntryActive)
        .select((
            waitlist_entries::game_id,
            waitlist_entries::call_in_expires_at,
            waitlist_entries::checked_in_at,
        ))
        .load(conn)?;
    let guests_waiting: Vec<i64> = guest_entries::table
        .filter(crate::db::conditions::GuestWaiting)
        .filter(guest_entries::expires_at.gt(now.naive_utc()))
        .select(guest_entries::game_id)
        .load(conn)?;
    let t = now.naive_utc();
    let running_ids: Vec<i64> = active
        .iter()
        .map(|g| g.0)
        .filter(|id| in_play.contains(&Some(*id)))
        .collect();
    let mut waits_of = match models {
        Some(m) => crate::services::waits::of_games(conn, m, now, &running_ids)?,
        None => std::collections::HashMap::new(),
    };
    let mut out = Vec::new();
    for (id, name, small_blind, big_blind, buy_in_min, buy_in_max) in active {
        let running = in_play.contains(&Some(id));
        let on_list = entries
            .iter()
            .filter(|(g, exp, checked)| {
                *g == id && (checked.is_some() || exp.is_none_or(|x| x > t))
            })
            .count();
        let waiting = on_list + guests_waiting.iter().filter(|g| **g == id).count();
        let wait = if running {
            waits_of.remove(&id).unwrap_or_default().for_ahead(waiting)
        } else {
            None
        };
        out.push(OfferedGame {
            id,
            name,
            small_blind,
            big_blind,
            buy_in_min,
            buy_in_max,
            running,
            waiting,
            needed: (!running).then(|| waitlist::players_needed(on_list, min_players_to_run)),
            wait,
        });
    }
    Ok(out)
}

/// What a phone asks for.
#[derive(Debug, Clone, Default)]
pub struct JoinRequest {
    pub phone: String,
    pub name: String,
    pub games: Vec<i64>,
    pub language: Option<Language>,
}

/// A code request made: the address of its code page (the token is shown once, in it).
#[derive(Debug, Clone)]
pub struct Requested {
    pub token: String,
    pub id: i64,
    /// For `/metrics`: whether the code went out (false: a blocked phone).
    pub sent: bool,
}

/// Longest name a guest may give.
pub const NAME_MAX: usize = 80;

/// The phone as typed, in E.164 (a national number is one of the room's country), or the
/// same refusal the registration form gives.
pub fn parse_phone(typed: &str, room: &Room) -> Result<String, FieldError> {
    let region = phone_region_of_zone(room.tz.name());
    let t = typed.trim();
    if t.is_empty() {
        return Err(FieldError::new("phone", "err-required"));
    }
    normalize_phone_in(t, region.as_ref()).ok_or_else(|| match region {
        Some(r) => FieldError::new("phone", "err-phone")
            .arg("code", r.code)
            .arg("digits", r.digits()),
        None => FieldError::new("phone", "err-phone").arg("code", "none"),
    })
}

fn too_many(limit: Limit, seconds: i64) -> AppError {
    let (minutes, limit_name) = ((seconds + 59) / 60, limit.as_str());
    AppError::TooManyRequests(if limit == Limit::SmsCost {
        JoinRefusal::Busy {
            seconds,
            minutes,
            limit: limit_name,
        }
        .into()
    } else {
        JoinRefusal::TooMany {
            seconds,
            minutes,
            limit: limit_name,
        }
        .into()
    })
}

fn hour_ago(now: DateTime<Utc>) -> NaiveDateTime {
    (now - Duration::minutes(rj::LIMIT_WINDOW_MIN)).naive_utc()
}

fn times(rows: Vec<(NaiveDateTime, i32)>) -> Vec<(DateTime<Utc>, i64)> {
    rows.into_iter()
        .map(|(t, n)| (t.and_utc(), i64::from(n)))
        .collect()
}

/// The limits on codes and entries for one more request. `Err`: 429 with the
/// seconds to wait and which limit (for the log and the metrics; the page says it plainly).
// The request's counters: who asks (phone, address), for how many lists, by which way.
#[allow(clippy::too_many_arguments)]
fn check_limits(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    limits: &Limits,
    phone: &str,
    address: &str,
    lists: usize,
    sms: bool,
    via: Via,
) -> AppResult<()> {
    let since = hour_ago(now);
    let rows: Vec<(NaiveDateTime, String, String, i32, bool, String)> = join_codes::table
        .filter(join_codes::created_at.gt(since))
        .select((
            join_codes::created_at,
            join_codes::phone,
            join_codes::address,
            join_codes::entries,
            join_codes::sent,
            join_codes::channel,
        ))
        .load(conn)?;
    let pick = |f: &dyn Fn(&(NaiveDateTime, String, String, i32, bool, String)) -> Option<i32>| {
        times(rows.iter().filter_map(|r| f(r).map(|n| (r.0, n))).collect())
    };
    let checks: [(Limit, Vec<(DateTime<Utc>, i64)>, i64, i64); 6] = [
        (
            Limit::CodesPerPhone,
            pick(&|r| (r.1 == phone).then_some(1)),
            1,
            limits.codes_per_phone,
        ),
        (
            Limit::CodesPerAddress,
            pick(&|r| (r.2 == address).then_some(1)),
            1,
            limits.codes_per_address,
        ),
        (
            Limit::CodesPerRoom,
            pick(&|_| Some(1)),
            1,
            limits.codes_per_room,
        ),
        (
            Limit::EntriesPerAddress,
            pick(&|r| (r.2 == address).then_some(r.3)),
            lists as i64,
            limits.entries_per_address,
        ),
        (
            Limit::EntriesPerRoom,
            pick(&|r| Some(r.3)),
            lists as i64,
            limits.entries_per_room,
        ),
        (
            Limit::SmsCost,
            pick(&|r| (r.4 && r.5 == "sms").then_some(1)),
            if sms { 1 } else { 0 },
            // The cap in SMS: what the hour may spend over what one costs (free SMS: no cap).
            if limits.sms_cost > 0 {
                limits.sms_cost_cap / limits.sms_cost
            } else {
                i64::MAX
            },
        ),
    ];
    for (limit, events, add, max) in checks {
        if add == 0 {
            continue;
        }
        // Every walk-in at the desk kiosk comes from the kiosk's one address, so a
        // per-address limit would lock the kiosk after a few players. A paired kiosk (its token
        // checked by the page) is exempt from the per-address limits only: the per-phone and
        // per-room limits, the SMS cost cap and the phone blocks still apply to it.
        if via == Via::Kiosk && matches!(limit, Limit::CodesPerAddress | Limit::EntriesPerAddress) {
            continue;
        }
        if let Err(secs) = within(&events, add, max, now) {
            return Err(too_many(limit, secs));
        }
    }
    Ok(())
}

/// The registered players whose phone is this one (normally one).
fn players_with_phone(conn: &mut DbConn, phone: &str) -> AppResult<Vec<PlayerRow>> {
    Ok(players::table
        .filter(players::phone.eq(phone))
        .select(PlayerRow::as_select())
        .limit(3)
        .load(conn)?)
}

/// Step 1: validates the request, applies the limits and sends a code (or, for a blocked
/// phone, records it and sends nothing — the same answer). `address`: the client's address
/// (the limits); `token`: a fresh random token naming the request (its hash is kept).
/// Every refusal changes nothing.
// A public request: no acting staff member; the room, the limits and the keys it needs.
#[allow(clippy::too_many_arguments)]
pub fn request_code(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    key: &[u8],
    room: &Room,
    limits: &Limits,
    via: Via,
    address: &str,
    req: &JoinRequest,
    code: &str,
    token: &str,
) -> AppResult<Requested> {
    // Bad input: every field's refusal at once, the typed values kept by the page.
    let mut errs = Vec::new();
    let phone = parse_phone(&req.phone, room).map_err(|e| errs.push(e)).ok();
    let name = req.name.trim().to_string();
    if name.is_empty() {
        errs.push(FieldError::new("name", "err-required"));
    } else if name.chars().count() > NAME_MAX {
        errs.push(FieldError::new("name", "err-too-long").arg("max", NAME_MAX));
    }
    let offered: Vec<i64> = offered(conn, None, now, room.profile.min_players_to_run)?
        .iter()
        .map(|g| g.id)
        .collect();
    let max = room.profile.remote_max_lists.max(1) as usize;
    let lists = match choose_lists(&req.games, &offered, max) {
        Ok(l) => Some(l),
        Err(r) => {
            errs.push(match r {
                ListsRefusal::None => FieldError::new("games", "err-join-lists-none"),
                ListsRefusal::TooMany { max } => {
                    FieldError::new("games", "err-join-lists-too-many").arg("max", max)
                }
                ListsRefusal::NotOffered => FieldError::new("games", "err-join-list-closed"),
            });
            None
        }
    };
    let (Some(phone), Some(lists), true) = (phone, lists, errs.is_empty()) else {
        return Err(AppError::Validation(errs));
    };
    let language = req.language.unwrap_or(room.default_language);
    // The channel: the registered player's own when it is e-mail only; else
    // the phone being proved. The page says "by SMS or e-mail" either way.
    let found = players_with_phone(conn, &phone)?;
    let (channel, recipient) = match found.as_slice() {
        [p] if p.notify.parse() == Ok(NotifyPref::Email) && p.email.is_some() => {
            (Channel::Email, p.email.clone().unwrap_or_default())
        }
        _ => (Channel::Sms, phone.clone()),
    };
    check_limits(
        conn,
        now,
        limits,
        &phone,
        address,
        lists.len(),
        channel == Channel::Sms,
        via,
    )?;
    let blocked: bool = diesel::select(diesel::dsl::exists(
        phone_blocks::table.filter(phone_blocks::phone.eq(&phone)),
    ))
    .get_result(conn)?;
    let id = next_seq(conn, "join_code")?;
    // A blocked phone's request is stored with the hash of a code nobody was sent: every try
    // fails as a wrong code would.
    let stored_code = if blocked {
        crate::auth::random_token(12)
    } else {
        code.to_string()
    };
    let row = (
        join_codes::id.eq(id),
        join_codes::token_hash.eq(rj::token_hash(key, token)),
        join_codes::phone.eq(&phone),
        join_codes::channel.eq(channel),
        join_codes::code_hash.eq(rj::code_hash(key, id, &stored_code)),
        join_codes::game_ids.eq(serde_json::to_string(&lists).unwrap_or_default()),
        join_codes::guest_name.eq(&name),
        join_codes::language.eq(language.as_str()),
        join_codes::via.eq(via.as_str()),
        join_codes::address.eq(address),
        join_codes::sent.eq(!blocked),
        join_codes::created_at.eq(now.naive_utc()),
        join_codes::expires_at.eq((now + Duration::minutes(rj::CODE_TTL_MIN)).naive_utc()),
        join_codes::attempts.eq(0),
        join_codes::entries.eq(0),
    );
    crate::native!(conn, |c| diesel::insert_into(join_codes::table)
        .values(row)
        .execute(c))?;
    let note = serde_json::json!({
        "phone": phone, "channel": channel, "games": lists, "via": via,
        "address": address, "name": name,
    });
    if blocked {
        audit::record::<(), _>(
            conn,
            now,
            &Actor::system(),
            "join.code_withheld",
            "join_code",
            Some(id),
            None,
            Some(&note),
        )?;
    } else {
        messages::enqueue_to(
            conn,
            now,
            channel,
            &recipient,
            language,
            Kind::JoinCode,
            &Params {
                room: room.name.clone(),
                tz: room.timezone.clone(),
                code: Some(code.to_string()),
                ..Params::default()
            },
        )?;
        audit::record::<(), _>(
            conn,
            now,
            &Actor::system(),
            "join.code_sent",
            "join_code",
            Some(id),
            None,
            Some(&note),
        )?;
    }
    Ok(Requested {
        token: token.to_string(),
        id,
        sent: !blocked,
    })
}

/// A code request as its page shows it.
#[derive(Debug, Clone, Serialize)]
pub struct CodeRequest {
    pub id: i64,
    pub phone: String,
    pub games: Vec<i64>,
    pub language: String,
    pub expires_at: DateTime<Utc>,
}

/// The request a page's token names (404 when unknown).
pub fn code_request(conn: &mut DbConn, key: &[u8], token: &str) -> AppResult<CodeRequest> {
    let (id, phone, games, language, expires_at): (i64, String, String, String, NaiveDateTime) =
        join_codes::table
            .filter(join_codes::token_hash.eq(rj::token_hash(key, token)))
            .select((
                join_codes::id,
                join_codes::phone,
                join_codes::game_ids,
                join_codes::language,
                join_codes::expires_at,
            ))
            .first(conn)?;
    Ok(CodeRequest {
        id,
        phone,
        games: serde_json::from_str(&games).unwrap_or_default(),
        language,
        expires_at: expires_at.and_utc(),
    })
}

/// What a right code led to.
#[derive(Debug, Clone, Serialize)]
pub enum Verified {
    /// A registered player: on these lists now (names), already on these, and not added to
    /// these (the list closed meanwhile, or the room's rules keep them off for now).
    Player {
        player_id: i64,
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
    let state = CodeState {
        id,
        code_hash,
        expires_at: expires_at.and_utc(),
        attempts,
        used: used_at.is_some(),
    };
    let check = rj::check_code(key, &state, typed, now);
    let fail = |conn: &mut DbConn,
                why: &str,
                err: AppError,
                count: bool|
     -> AppResult<Result<Verified, AppError>> {
        if count {
            diesel::update(join_codes::table.find(id))
                .set(join_codes::attempts.eq(join_codes::attempts + 1))
                .execute(conn)?;
        }
        audit::record::<(), _>(
            conn,
            now,
            &phone_actor(&phone),
            "join.code_failed",
            "join_code",
            Some(id),
            None,
            Some(&serde_json::json!({ "phone": phone, "why": why, "check": check })),
        )?;
        Ok(Err(err))
    };
    match check {
        CodeCheck::Good => {}
        CodeCheck::Wrong { tries_left } => {
            if rj::clean_code(typed).is_none() {
                // Not six digits: said as such, and it does not count (a slip, not a guess).
                return Ok(Err(AppError::Validation(vec![FieldError::new(
                    "code",
                    "err-join-code-format",
                )])));
            }
            return fail(
                conn,
                "wrong",
                AppError::Validation(vec![
                    FieldError::new("code", "err-join-code-wrong").arg("tries", tries_left)
                ]),
                true,
            );
        }
        CodeCheck::TooManyTries => {
            let first = state.attempts < rj::MAX_TRIES;
            if first {
                diesel::update(join_codes::table.find(id))
                    .set(join_codes::outcome.eq("too_many"))
                    .execute(conn)?;
            }
            return fail(
                conn,
                "too_many",
                AppError::from(JoinRefusal::CodeDead),
                first,
            );
        }
        CodeCheck::Expired => {
            return fail(
                conn,
                "expired",
                AppError::from(JoinRefusal::CodeExpired),
                false,
            )
        }
        CodeCheck::Used => return Ok(Err(JoinRefusal::CodeUsed.into())),
    }
    let via: Via = via.parse().unwrap_or(Via::Phone);
    let wanted: Vec<i64> = serde_json::from_str(&games_json).unwrap_or_default();
    // A list that closed meanwhile is not joined (said on the page).
    let offered = offered(conn, None, now, room.profile.min_players_to_run)?;
    let name_of = |g: i64| offered.iter().find(|o| o.id == g).map(|o| o.name.clone());
    let mut closed: Vec<String> = Vec::new();
    let mut open: Vec<(i64, String)> = Vec::new();
    for g in &wanted {
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
    let found = players_with_phone(conn, &phone)?;
    let actor = phone_actor(&phone);
    let (outcome, entries, verified) = match found.as_slice() {
        [p] => {
            let why = registry::eligibility(conn, p, now, room.tz)?;
            if !why.is_empty() {
                audit::record::<(), _>(
                    conn,
                    now,
                    &actor,
                    "join.refused",
                    "player",
                    Some(p.id),
                    None,
                    Some(&serde_json::json!({ "join_code": id, "phone": phone, "reasons": why })),
                )?;
                ("refused", 0, Verified::SeeDesk)
            } else {
                let (joined, already, mut skipped) = join_player(
                    conn,
                    &Acting::new(now, actor.clone()).with_room(room.clone()),
                    via,
                    p.id,
                    &open,
                )?;
                skipped.extend(closed);
                audit::record::<(), _>(
                    conn,
                    now,
                    &actor,
                    "join.remote",
                    "player",
                    Some(p.id),
                    None,
                    Some(&serde_json::json!({
                        "join_code": id, "phone": phone, "via": via,
                        "joined": joined, "already": already, "skipped": skipped,
                    })),
                )?;
                let n = joined.len() as i32;
                (
                    "joined",
                    n,
                    Verified::Player {
                        player_id: p.id,
                        joined,
                        already,
                        skipped,
                    },
                )
            }
        }
        [] => {
            if open.is_empty() {
                (
                    "guest",
                    0,
                    Verified::Guest {
                        guest_id: 0,
                        places: Vec::new(),
                        already: Vec::new(),
                        skipped: closed,
                    },
                )
            } else {
                let (guest_id, places, already, mut skipped) =
                    join_guest(conn, now, room, via, &phone, &name, &language, &open)?;
                skipped.extend(closed);
                audit::record::<(), _>(
                    conn,
                    now,
                    &actor,
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
                (
                    "guest",
                    n,
                    Verified::Guest {
                        guest_id,
                        places,
                        already,
                        skipped,
                    },
                )
            }
        }
        many => {
            audit::record::<(), _>(
                conn,
                now,
                &actor,
                "join.refused",
                "join_code",
                Some(id),
                None,
                Some(&serde_json::json!({
                    "phone": phone, "reasons": ["several registered players have this phone"],
                    "players": many.iter().map(|p| p.id).collect::<Vec<_>>(),
                })),
            )?;
            ("refused", 0, Verified::SeeDesk)
        }
    };
    diesel::update(join_codes::table.find(id))
        .set((
            join_codes::used_at.eq(Some(now.naive_utc())),
            join_codes::outcome.eq(outcome),
            join_codes::entries.eq(entries),
        ))
        .execute(conn)?;
    Ok(Ok(verified))
}

/// A registered, eligible player joins the open lists as call-ins (`floor::join`: the rules of
/// a desk join, the "added" message with their link), each entry marked `via`.
fn join_player(
    conn: &mut DbConn,
    act: &Act,
    via: Via,
    player_id: i64,
    open: &[(i64, String)],
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
    open: &[(i64, String)],
) -> AppResult<(i64, Vec<(String, usize)>, Vec<String>, Vec<String>)> {
    let existing: Option<i64> = guests::table
        .filter(guests::phone.eq(phone))
        .filter(guests::player_id.is_null())
        .order(guests::id.desc())
        .select(guests::id)
        .first(conn)
        .optional()?;
    let guest_id = match existing {
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
    };
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
        // A lapsed place of this guest on this list ends now (the unique index holds one).
        diesel::update(
            guest_entries::table
                .filter(guest_entries::guest_id.eq(guest_id))
                .filter(guest_entries::game_id.eq(*g))
                .filter(crate::db::conditions::GuestWaiting),
        )
        .set((
            guest_entries::state.eq(GuestState::Removed),
            guest_entries::ended_at.eq(Some(now.naive_utc())),
        ))
        .execute(conn)?;
        let max_entry: Option<i64> = waitlist_entries::table
            .filter(waitlist_entries::game_id.eq(*g))
            .select(diesel::dsl::max(waitlist_entries::order_key))
            .first(conn)?;
        let max_guest: Option<i64> = guest_entries::table
            .filter(guest_entries::game_id.eq(*g))
            .select(diesel::dsl::max(guest_entries::order_key))
            .first(conn)?;
        let key = rj::guest_key(max_entry, max_guest);
        let id = next_seq(conn, "guest_entry")?;
        diesel::insert_into(guest_entries::table)
            .values((
                guest_entries::id.eq(id),
                guest_entries::guest_id.eq(guest_id),
                guest_entries::game_id.eq(*g),
                guest_entries::order_key.eq(key),
                guest_entries::joined_at.eq(now.naive_utc()),
                guest_entries::via.eq(via.as_str()),
                guest_entries::expires_at.eq((now
                    + Duration::minutes(room.profile.call_in_expiry_min.into()))
                .naive_utc()),
                guest_entries::state.eq(GuestState::Waiting),
            ))
            .execute(conn)?;
        let list = list_entries(conn, *g)?;
        places.push((gname.clone(), rj::guest_place(&list, key, now, now)));
        floor::emit(
            conn,
            now,
            None,
            "list.changed",
            &serde_json::json!({ "game_id": g }),
        )?;
    }
    Ok((guest_id, places, already, skipped))
}

/// A game's active list entries as the domain sees them.
fn list_entries(conn: &mut DbConn, game_id: i64) -> AppResult<Vec<Entry>> {
    type Row = (
        i64,
        i64,
        i64,
        NaiveDateTime,
        String,
        Option<String>,
        Option<NaiveDateTime>,
        Option<NaiveDateTime>,
        String,
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
                p,
                k,
                j.and_utc(),
                EntrySource::of(&s, v.as_deref()),
                exp.map(|t| t.and_utc()),
                chk.is_some(),
                st == "called",
            )
        })
        .collect())
}

/// A guest keeping places, as the board shows them.
#[derive(Debug, Clone, Serialize)]
pub struct GuestLine {
    pub entry_id: i64,
    pub guest_id: i64,
    pub game_id: i64,
    pub name: String,
    pub phone: String,
    /// The place kept among the list's entries (1 = next).
    pub place: usize,
    pub expires_at: DateTime<Utc>,
    pub source: EntrySource,
}

/// Every guest place still kept (not registered, not lapsed), by game, each with its place.
pub fn guest_lines(conn: &mut DbConn, now: DateTime<Utc>) -> AppResult<Vec<GuestLine>> {
    let rows: Vec<(
        i64,
        i64,
        i64,
        i64,
        NaiveDateTime,
        String,
        NaiveDateTime,
        String,
        String,
    )> = guest_entries::table
        .inner_join(guests::table)
        .filter(crate::db::conditions::GuestWaiting)
        .filter(guest_entries::expires_at.gt(now.naive_utc()))
        .order((
            guest_entries::order_key.asc(),
            guest_entries::joined_at.asc(),
        ))
        .select((
            guest_entries::id,
            guest_entries::guest_id,
            guest_entries::game_id,
            guest_entries::order_key,
            guest_entries::joined_at,
            guest_entries::via,
            guest_entries::expires_at,
            guests::full_name,
            guests::phone,
        ))
        .load(conn)?;
    let mut lists: std::collections::HashMap<i64, Vec<Entry>> = std::collections::HashMap::new();
    let mut out = Vec::new();
    for (entry_id, guest_id, game_id, key, joined, via, exp, name, phone) in rows {
        let list = match lists.entry(game_id) {
            std::collections::hash_map::Entry::Occupied(o) => o.into_mut(),
            std::collections::hash_map::Entry::Vacant(v) => v.insert(list_entries(conn, game_id)?),
        };
        let place = rj::guest_place(list, key, joined.and_utc(), now);
        out.push(GuestLine {
            entry_id,
            guest_id,
            game_id,
            name,
            phone,
            place,
            expires_at: exp.and_utc(),
            source: EntrySource::of("call_in", Some(&via)),
        });
    }
    Ok(out)
}

/// A guest as the registration form starts from (name, phone), if still unregistered.
pub fn guest(conn: &mut DbConn, id: i64) -> AppResult<(String, String)> {
    Ok(guests::table
        .find(id)
        .filter(guests::player_id.is_null())
        .select((guests::full_name, guests::phone))
        .first(conn)?)
}

/// BSOP 1, 3: the desk registered a guest (photo ID, 18 or over): each place the guest still
/// keeps becomes the new player's list entry at that very place (its key and joining time),
/// checked in (they are at the desk), marked with its origin; the player is told as a desk
/// join is. Runs in the registration's transaction.
pub fn adopt_guest(
    conn: &mut DbConn,
    act: &Act,
    guest_id: i64,
    player_id: i64,
) -> AppResult<usize> {
    let (now, actor) = (act.now, &act.actor);
    let n = diesel::update(
        guests::table
            .find(guest_id)
            .filter(guests::player_id.is_null()),
    )
    .set((
        guests::player_id.eq(Some(player_id)),
        guests::registered_at.eq(Some(now.naive_utc())),
    ))
    .execute(conn)?;
    if n != 1 {
        return Err(JoinRefusal::GuestRegistered.into());
    }
    let places: Vec<(i64, i64, i64, NaiveDateTime, String)> = guest_entries::table
        .filter(guest_entries::guest_id.eq(guest_id))
        .filter(crate::db::conditions::GuestWaiting)
        .filter(guest_entries::expires_at.gt(now.naive_utc()))
        .select((
            guest_entries::id,
            guest_entries::game_id,
            guest_entries::order_key,
            guest_entries::joined_at,
            guest_entries::via,
        ))
        .load(conn)?;
    let mut moved = 0;
    for (gid, game_id, key, joined, via) in places {
        // One entry per player per list: a new player has none, but the unique index decides.
        let entry_id = next_seq(conn, "waitlist")?;
        let row = crate::db::models::WaitlistRow {
            id: entry_id,
            game_id,
            player_id,
            order_key: key,
            joined_at: joined,
            source: EntrySource::Desk.stored_source(),
            call_in_expires_at: None,
            checked_in_at: Some(now.naive_utc()),
            state: EntryState::Waiting,
            ended_at: None,
            end_reason: None,
            created_by: actor.id,
        };
        diesel::insert_into(waitlist_entries::table)
            .values(&row)
            .execute(conn)?;
        diesel::update(waitlist_entries::table.find(entry_id))
            .set(waitlist_entries::via.eq(Some(via.as_str())))
            .execute(conn)?;
        diesel::update(guest_entries::table.find(gid))
            .set((
                guest_entries::state.eq(GuestState::Registered),
                guest_entries::ended_at.eq(Some(now.naive_utc())),
                guest_entries::entry_id.eq(Some(entry_id)),
            ))
            .execute(conn)?;
        audit::record::<(), _>(
            conn,
            now,
            actor,
            "list.join_guest",
            "player",
            Some(player_id),
            None,
            Some(&serde_json::json!({ "guest_id": guest_id, "guest_entry": gid, "entry": row })),
        )?;
        floor::emit(
            conn,
            now,
            None,
            "list.changed",
            &serde_json::json!({ "game_id": game_id }),
        )?;
        let place = floor::place_of(conn, game_id, entry_id, now)?.map(|p| p.position as i64);
        let gname: String = games::table.find(game_id).select(games::name).first(conn)?;
        crate::notify::tell(conn, now, player_id, Kind::Added, |_, p| {
            p.game = Some(gname);
            p.position = place;
            Ok(())
        })?;
        // As a desk join: the new entry is marked (it was told its place just now) and whoever
        // the list's head now holds is told once, so a guest registered at the head is not
        // sent "you are next" again by the next change of the list.
        floor::notify_heads(conn, now, game_id, Some(entry_id))?;
        moved += 1;
    }
    Ok(moved)
}

/// The floor takes a guest's kept place off a list (the guest left, or will not register),
/// with a reason (audited `list.guest_remove`).
pub fn remove_guest_entry(conn: &mut DbConn, act: &Act, id: i64, reason: &str) -> AppResult<()> {
    let (now, actor) = (act.now, &act.actor);
    let (game_id, guest_id): (i64, i64) = guest_entries::table
        .find(id)
        .select((guest_entries::game_id, guest_entries::guest_id))
        .first(conn)?;
    let n = diesel::update(
        guest_entries::table
            .find(id)
            .filter(crate::db::conditions::GuestWaiting),
    )
    .set((
        guest_entries::state.eq(GuestState::Removed),
        guest_entries::ended_at.eq(Some(now.naive_utc())),
    ))
    .execute(conn)?;
    if n != 1 {
        return Err(ListRefusal::EntryNotActive.into());
    }
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "list.guest_remove",
        "guest",
        Some(guest_id),
        None,
        Some(
            &serde_json::json!({ "guest_entry": id, "game_id": game_id, "reason": reason.trim() }),
        ),
    )?;
    floor::emit(
        conn,
        now,
        None,
        "list.changed",
        &serde_json::json!({ "game_id": game_id }),
    )?;
    Ok(())
}

/// The floor blocks a phone number from asking for codes (with a reason).
pub fn block_phone(conn: &mut DbConn, act: &Act, typed: &str, reason: &str) -> AppResult<String> {
    let room = &act.room;
    let (now, actor) = (act.now, &act.actor);
    let mut errs = Vec::new();
    let phone = parse_phone(typed, room).map_err(|e| errs.push(e)).ok();
    let reason = reason.trim();
    if reason.is_empty() {
        errs.push(FieldError::new("reason", "err-required"));
    } else if reason.chars().count() > 200 {
        errs.push(FieldError::new("reason", "err-too-long").arg("max", 200));
    }
    let (Some(phone), true) = (phone, errs.is_empty()) else {
        return Err(AppError::Validation(errs));
    };
    let n = crate::native!(conn, |c| diesel::insert_into(phone_blocks::table)
        .values((
            phone_blocks::phone.eq(&phone),
            phone_blocks::reason.eq(reason),
            phone_blocks::blocked_at.eq(now.naive_utc()),
            phone_blocks::blocked_by.eq(actor.id),
        ))
        .on_conflict_do_nothing()
        .execute(c))?;
    if n != 1 {
        return Err(JoinRefusal::PhoneAlreadyBlocked.into());
    }
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "join.phone_block",
        "phone",
        None,
        None,
        Some(&serde_json::json!({ "phone": phone, "reason": reason })),
    )?;
    Ok(phone)
}

/// The floor lifts a block.
pub fn unblock_phone(conn: &mut DbConn, act: &Act, phone: &str) -> AppResult<()> {
    let (now, actor) = (act.now, &act.actor);
    let before: Option<(String, String)> = phone_blocks::table
        .find(phone)
        .select((phone_blocks::phone, phone_blocks::reason))
        .first(conn)
        .optional()?;
    let Some((phone, reason)) = before else {
        return Err(AppError::NotFound);
    };
    diesel::delete(phone_blocks::table.find(&phone)).execute(conn)?;
    audit::record::<_, ()>(
        conn,
        now,
        actor,
        "join.phone_unblock",
        "phone",
        None,
        Some(&serde_json::json!({ "phone": phone, "reason": reason })),
        None,
    )?;
    Ok(())
}

/// A blocked phone as the floor's page lists it.
#[derive(Debug, Clone, Serialize)]
pub struct Block {
    pub phone: String,
    pub reason: String,
    pub blocked_at: DateTime<Utc>,
}

pub fn blocks(conn: &mut DbConn) -> AppResult<Vec<Block>> {
    let rows: Vec<(String, String, NaiveDateTime)> = phone_blocks::table
        .order(phone_blocks::blocked_at.desc())
        .select((
            phone_blocks::phone,
            phone_blocks::reason,
            phone_blocks::blocked_at,
        ))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(phone, reason, t)| Block {
            phone,
            reason,
            blocked_at: t.and_utc(),
        })
        .collect())
}

/// The player scanned the desk's code with their link open: every
/// entry of theirs waiting for a check-in is checked in (`floor::check_in`, audited each).
/// Returns how many.
pub fn check_in_at_desk(conn: &mut DbConn, now: DateTime<Utc>, player_id: i64) -> AppResult<usize> {
    let ids: Vec<(i64, Option<NaiveDateTime>)> = waitlist_entries::table
        .filter(waitlist_entries::player_id.eq(player_id))
        .filter(crate::db::conditions::EntryActive)
        .filter(waitlist_entries::source.eq(ListSource::CallIn))
        .filter(waitlist_entries::checked_in_at.is_null())
        .select((waitlist_entries::id, waitlist_entries::call_in_expires_at))
        .load(conn)?;
    let act = &Acting::new(now, Actor::player(player_id)).in_room(conn)?;
    let mut n = 0;
    for (id, exp) in ids {
        if exp.is_some_and(|t| t.and_utc() <= now) {
            continue; // lapsed: the desk puts them back on the list if it will
        }
        floor::check_in(conn, act, id)?;
        n += 1;
    }
    Ok(n)
}

/// The entries' origins, for the lines a page shows: entry id → source.
pub fn origins(conn: &mut DbConn, entry_ids: &[i64]) -> AppResult<Vec<(i64, EntrySource)>> {
    if entry_ids.is_empty() {
        return Ok(Vec::new());
    }
    let rows: Vec<(i64, String, Option<String>)> = waitlist_entries::table
        .filter(waitlist_entries::id.eq_any(entry_ids))
        .select((
            waitlist_entries::id,
            waitlist_entries::source,
            waitlist_entries::via,
        ))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(id, s, v)| (id, EntrySource::of(&s, v.as_deref())))
        .collect())
}
