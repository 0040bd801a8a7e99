//! Step 1: the phone, the name and the games asked for; a one-time code sent (or, for a
//! blocked phone, withheld with the very same answer).

use super::limits::{check_limits, Limits};
use super::offered::offered;
use crate::db::audit::{self, Actor};
use crate::db::models::Channel;
use crate::db::models::PlayerRow;
use crate::db::schema::{join_codes, phone_blocks, players};
use crate::db::{next_seq, DbConn};
use crate::domain::ids::GameId;
use crate::domain::player::{normalize_phone_in, phone_region_of_zone, Language, NotifyPref};
use crate::domain::remote_join::{self as rj, choose_lists, ListsRefusal, Via};
use crate::domain::FieldError;
use crate::error::{AppError, AppResult};
use crate::notify::{messages, Kind, Params};
use crate::services::room::Room;
use chrono::{DateTime, Duration, NaiveDateTime, Utc};
use diesel::prelude::*;
use serde::Serialize;

/// What a phone asks for.
#[derive(Debug, Clone, Default)]
pub struct JoinRequest {
    pub phone: String,
    pub name: String,
    pub games: Vec<GameId>,
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

/// The registered players whose phone is this one (normally one).
pub(super) fn players_with_phone(conn: &mut DbConn, phone: &str) -> AppResult<Vec<PlayerRow>> {
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
    let (phone, name, lists) = checked_request(conn, now, room, req)?;
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
    let new = NewCode {
        id: next_seq(conn, "join_code")?,
        phone: &phone,
        channel,
        lists: &lists,
        name: &name,
        language,
        via,
        address,
        blocked,
    };
    store_request(conn, now, key, token, code, &new)?;
    send_or_withhold(conn, now, room, &new, &recipient, code)?;
    Ok(Requested {
        token: token.to_string(),
        id: new.id,
        sent: !blocked,
    })
}

/// Bad input: every field's refusal at once, the typed values kept by the page. Else the
/// phone in E.164, the name trimmed and the lists asked for.
fn checked_request(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    room: &Room,
    req: &JoinRequest,
) -> AppResult<(String, String, Vec<GameId>)> {
    let mut errs = Vec::new();
    let phone = parse_phone(&req.phone, room).map_err(|e| errs.push(e)).ok();
    let name = req.name.trim().to_string();
    if name.is_empty() {
        errs.push(FieldError::new("name", "err-required"));
    } else if name.chars().count() > NAME_MAX {
        errs.push(FieldError::new("name", "err-too-long").arg("max", NAME_MAX));
    }
    let offered: Vec<GameId> = offered(conn, None, now, room.profile.min_players_to_run)?
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
    Ok((phone, name, lists))
}

/// A code request about to be stored.
struct NewCode<'a> {
    id: i64,
    phone: &'a str,
    channel: Channel,
    lists: &'a [GameId],
    name: &'a str,
    language: Language,
    via: Via,
    address: &'a str,
    /// The phone is blocked: no code is sent.
    blocked: bool,
}

/// The request stored under the hash of its token, with the hash of its code.
fn store_request(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    key: &[u8],
    token: &str,
    code: &str,
    new: &NewCode<'_>,
) -> AppResult<()> {
    let id = new.id;
    // A blocked phone's request is stored with the hash of a code nobody was sent: every try
    // fails as a wrong code would.
    let stored_code = if new.blocked {
        crate::auth::random_token(12)
    } else {
        code.to_string()
    };
    let row = (
        join_codes::id.eq(id),
        join_codes::token_hash.eq(rj::token_hash(key, token)),
        join_codes::phone.eq(new.phone),
        join_codes::channel.eq(new.channel),
        join_codes::code_hash.eq(rj::code_hash(key, id, &stored_code)),
        join_codes::game_ids.eq(serde_json::to_string(new.lists).unwrap_or_default()),
        join_codes::guest_name.eq(new.name),
        join_codes::language.eq(new.language.as_str()),
        join_codes::via.eq(new.via.as_str()),
        join_codes::address.eq(new.address),
        join_codes::sent.eq(!new.blocked),
        join_codes::created_at.eq(now.naive_utc()),
        join_codes::expires_at.eq((now + Duration::minutes(rj::CODE_TTL_MIN)).naive_utc()),
        join_codes::attempts.eq(0),
        join_codes::entries.eq(0),
    );
    crate::native!(conn, |c| diesel::insert_into(join_codes::table)
        .values(row)
        .execute(c))?;
    Ok(())
}

/// The code sent to the recipient, or withheld from a blocked phone; audited either way.
fn send_or_withhold(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    room: &Room,
    new: &NewCode<'_>,
    recipient: &str,
    code: &str,
) -> AppResult<()> {
    let note = serde_json::json!({
        "phone": new.phone, "channel": new.channel, "games": new.lists, "via": new.via,
        "address": new.address, "name": new.name,
    });
    if new.blocked {
        audit::record::<(), _>(
            conn,
            now,
            &Actor::system(),
            "join.code_withheld",
            "join_code",
            Some(new.id),
            None,
            Some(&note),
        )?;
    } else {
        messages::enqueue_to(
            conn,
            now,
            new.channel,
            recipient,
            new.language,
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
            Some(new.id),
            None,
            Some(&note),
        )?;
    }
    Ok(())
}

/// A code request as its page shows it.
#[derive(Debug, Clone, Serialize)]
pub struct CodeRequest {
    pub id: i64,
    pub phone: String,
    pub games: Vec<GameId>,
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
