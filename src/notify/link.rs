//! The player's link: `{CARDROOM_PUBLIC_URL}/p/{token}`, a signed token (jsonwebtoken, HS256,
//! the room's secret — the key that signs staff sessions, see `crate::auth`) naming the
//! player, what it is for, when it expires and the player's `link_token_version`.
//!
//! No sign-in and no cookie: whoever holds the link sees that player's own page. So a link
//! expires at the end of the gaming day (a phone left on a table tomorrow shows nothing), and
//! the floor can revoke every link of a player at once ([`revoke_all`]: the version goes up,
//! every token carrying the old one is refused as [`LinkError::Revoked`]).
//!
//! The room has no gaming-day setting of its own: the day ends at `CARDROOM_GAMING_DAY_ENDS`
//! (default 06:00) in the room's time zone, the usual cut-over of casinos that close at
//! dawn. A link issued at 05:59 lives one minute; at 06:00 it lives until 06:00 tomorrow.

use crate::auth::Keys;
use crate::db::audit::{self, Actor};
use crate::db::schema::players;
use crate::db::DbConn;
use crate::domain::ids::PlayerId;
use crate::error::{AppError, AppResult};
use chrono::{DateTime, Duration, NaiveTime, TimeZone, Utc};
use chrono_tz::Tz;
use diesel::prelude::*;
use jsonwebtoken::{decode, encode, Algorithm, Header, Validation};
use serde::{Deserialize, Serialize};

/// What a link lets its holder do. Only the player's own page for now; a token made for one
/// purpose is refused for another.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Purpose {
    /// `/p/{token}`: the player's place in line, calls, answers, today's summary.
    PlayerPage,
}

/// The token's claims.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkClaims {
    /// The player's id.
    pub sub: i64,
    pub purpose: Purpose,
    /// The player's `link_token_version` when the link was made.
    pub ver: i32,
    pub iat: i64,
    /// End of the gaming day it was issued in (seconds since the epoch).
    pub exp: i64,
}

/// Why a link is refused (the player page shows a clear page for each, never a trace).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum LinkError {
    /// Signed by us, but its gaming day is over.
    #[error("the link has expired")]
    Expired,
    /// Signed by us, but the floor revoked the player's links since (or the player is gone).
    #[error("the link was revoked")]
    Revoked,
    /// Not a token we signed: malformed, another key, another algorithm (`alg: none`
    /// included), an edited payload, another purpose.
    #[error("the link is not valid")]
    Forged,
}

/// The end of the gaming day that `now` falls in: the next `ends` (local time in `tz`) after
/// `now`. On a day whose cut-over falls in a DST gap the first valid instant after it is used.
pub fn gaming_day_end(now: DateTime<Utc>, tz: Tz, ends: NaiveTime) -> DateTime<Utc> {
    let local = now.with_timezone(&tz);
    let mut day = local.date_naive();
    if local.time() >= ends {
        day = day.succ_opt().unwrap_or(day);
    }
    let naive = day.and_time(ends);
    tz.from_local_datetime(&naive)
        .earliest()
        .or_else(|| {
            tz.from_local_datetime(&(naive + Duration::hours(1)))
                .earliest()
        })
        .map(|t| t.with_timezone(&Utc))
        .unwrap_or(now + Duration::hours(24))
}

/// Signs a link token. `issued_at` and `expires_at` come from the caller so that the same
/// message re-sent after a crash carries exactly the same link.
pub fn issue(
    keys: &Keys,
    player_id: PlayerId,
    version: i32,
    purpose: Purpose,
    issued_at: DateTime<Utc>,
    expires_at: DateTime<Utc>,
) -> String {
    let claims = LinkClaims {
        sub: player_id.get(),
        purpose,
        ver: version,
        iat: issued_at.timestamp(),
        exp: expires_at.timestamp(),
    };
    encode(&Header::new(Algorithm::HS256), &claims, &keys.encoding).expect("HS256 encoding")
}

/// A message's short address for text messages, `{public_base}/m/{code}`: the message's
/// number and 48 bits of its HMAC, ~12 characters instead of a ~200-character token, so a
/// seat call's SMS carries the player's link and still fits one segment. It is not a second
/// kind of token: `/m/{code}` finds the message and sends the browser on to the message's
/// own link (`/p/{token}`), which is checked as always — expired at the end of that gaming
/// day, refused once the player's links are revoked.
pub fn short_code(keys: &Keys, message_id: i64) -> String {
    use base64::Engine;
    use hmac::{Hmac, Mac};
    let id = u64::try_from(message_id).unwrap_or_default();
    let mut mac = <Hmac<sha2::Sha256> as Mac>::new_from_slice(&keys.short_links)
        .expect("HMAC takes any key length");
    mac.update(&id.to_be_bytes());
    let tag = mac.finalize().into_bytes();
    let tag = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&tag[..6]);
    format!("{}{tag}", radix36(id))
}

/// The message a short code names, if its signature holds.
pub fn short_code_message(keys: &Keys, code: &str) -> Option<i64> {
    // The tag is the last 8 characters (6 bytes in base64url); the number before it.
    if code.len() < 9 || !code.is_ascii() {
        return None;
    }
    let (id, _) = code.split_at(code.len() - 8);
    let id = i64::try_from(u64::from_str_radix(id, 36).ok()?).ok()?;
    let expected = short_code(keys, id);
    // Constant-time comparison of the whole code.
    let same = expected.len() == code.len()
        && expected
            .bytes()
            .zip(code.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0;
    same.then_some(id)
}

fn radix36(mut n: u64) -> String {
    const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut out = Vec::new();
    loop {
        out.push(DIGITS[(n % 36) as usize]);
        n /= 36;
        if n == 0 {
            break;
        }
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// A message's short address (see [`short_code`]).
pub fn short_url(public_base: &str, keys: &Keys, message_id: i64) -> String {
    format!(
        "{}/m/{}",
        public_base.trim_end_matches('/'),
        short_code(keys, message_id)
    )
}

/// The link's address: `{public_base}/p/{token}`.
pub fn url(public_base: &str, token: &str) -> String {
    format!("{}/p/{token}", public_base.trim_end_matches('/'))
}

/// Checks the signature (HS256 with our key only) and the expiry, without the database:
/// a forged token is [`LinkError::Forged`] whatever its dates say.
pub fn verify_signature(
    keys: &Keys,
    token: &str,
    purpose: Purpose,
    now: DateTime<Utc>,
) -> Result<LinkClaims, LinkError> {
    let mut v = Validation::new(Algorithm::HS256);
    // Expiry is checked against the application clock (which tests move) just below.
    v.validate_exp = false;
    v.required_spec_claims = ["exp".to_string()].into_iter().collect();
    let c = decode::<LinkClaims>(token, &keys.decoding, &v)
        .map_err(|_| LinkError::Forged)?
        .claims;
    if c.purpose != purpose {
        return Err(LinkError::Forged);
    }
    if c.exp <= now.timestamp() {
        return Err(LinkError::Expired);
    }
    Ok(c)
}

/// Verifies a player's link: signature, purpose, expiry, then the player's current
/// `link_token_version` (a revoked link, or a player who no longer exists, is `Revoked`).
pub fn verify(
    conn: &mut DbConn,
    keys: &Keys,
    token: &str,
    purpose: Purpose,
    now: DateTime<Utc>,
) -> Result<LinkClaims, LinkError> {
    let c = verify_signature(keys, token, purpose, now)?;
    let current: Option<i32> = players::table
        .find(c.sub)
        .select(players::link_token_version)
        .first(conn)
        .optional()
        .map_err(|e| {
            log::error!("link check: {e}");
            LinkError::Revoked
        })?;
    match current {
        Some(v) if v == c.ver => Ok(c),
        _ => Err(LinkError::Revoked),
    }
}

/// Issues the link of a player as of now (the player page's "resend link" / QR code use it):
/// the player's current version, expiring at the end of this gaming day.
pub fn issue_for(
    conn: &mut DbConn,
    keys: &Keys,
    player_id: PlayerId,
    now: DateTime<Utc>,
    tz: Tz,
    day_ends: NaiveTime,
) -> AppResult<String> {
    let ver: i32 = players::table
        .find(player_id)
        .select(players::link_token_version)
        .first(conn)?;
    Ok(issue(
        keys,
        player_id,
        ver,
        Purpose::PlayerPage,
        now,
        gaming_day_end(now, tz, day_ends),
    ))
}

/// The floor revokes every link of a player at once: the player's `link_token_version` goes
/// up (audited as `player.links_revoked`). Returns the new version.
pub fn revoke_all(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    actor: &Actor,
    player_id: PlayerId,
) -> AppResult<i32> {
    let before: i32 = players::table
        .find(player_id)
        .select(players::link_token_version)
        .first(conn)?;
    let n = diesel::update(
        players::table
            .find(player_id)
            .filter(players::link_token_version.eq(before)),
    )
    .set(players::link_token_version.eq(before + 1))
    .execute(conn)?;
    if n != 1 {
        return Err(AppError::internal(
            "the player's link version changed under the write turn",
        ));
    }
    let b = serde_json::json!({ "link_token_version": before });
    let a = serde_json::json!({ "link_token_version": before + 1 });
    audit::record(
        conn,
        now,
        actor,
        "player.links_revoked",
        "player",
        Some(player_id.get()),
        Some(&b),
        Some(&a),
    )?;
    Ok(before + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine;

    fn keys() -> Keys {
        Keys::from_secret(b"0123456789abcdef0123456789abcdef")
    }

    #[test]
    fn a_short_code_names_its_message_and_nothing_else() {
        let k = keys();
        for id in [1, 35, 1_000_000, i64::from(u32::MAX)] {
            let code = short_code(&k, id);
            assert!(code.len() <= 15, "{code}");
            assert_eq!(short_code_message(&k, &code), Some(id), "{code}");
            // Another message's number with this tag, a changed tag, another key: refused.
            let other = format!("{}{}", radix36(id as u64 + 1), &code[code.len() - 8..]);
            assert_eq!(short_code_message(&k, &other), None);
            let mut bent = code.clone().into_bytes();
            let last = bent.len() - 1;
            bent[last] = if bent[last] == b'A' { b'B' } else { b'A' };
            assert_eq!(
                short_code_message(&k, &String::from_utf8(bent).unwrap()),
                None
            );
            let k2 = Keys::from_secret(b"another secret of 32 bytes......");
            assert_eq!(short_code_message(&k2, &code), None);
        }
        for junk in [
            "",
            "abc",
            "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz",
            "é1234567890",
        ] {
            assert_eq!(short_code_message(&k, junk), None, "{junk}");
        }
        assert_eq!(
            short_url("https://room.example/", &k, 35),
            format!("https://room.example/m/{}", short_code(&k, 35))
        );
    }

    fn b64(s: &[u8]) -> String {
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(s)
    }

    fn t(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    fn six() -> NaiveTime {
        crate::domain::clock::parse_hhmm("06:00").unwrap()
    }

    #[test]
    fn the_gaming_day_ends_at_the_cut_over_in_the_room_zone() {
        let lisbon: Tz = "Europe/Lisbon".parse().unwrap();
        // 23:00 in Lisbon (winter, UTC+0) → 06:00 the next morning.
        assert_eq!(
            gaming_day_end(t("2026-11-22T23:00:00Z"), lisbon, six()),
            t("2026-11-23T06:00:00Z")
        );
        // 03:00 is still the previous gaming day → 06:00 the same morning.
        assert_eq!(
            gaming_day_end(t("2026-11-23T03:00:00Z"), lisbon, six()),
            t("2026-11-23T06:00:00Z")
        );
        // Exactly at the cut-over a new day starts.
        assert_eq!(
            gaming_day_end(t("2026-11-23T06:00:00Z"), lisbon, six()),
            t("2026-11-24T06:00:00Z")
        );
        // São Paulo (UTC−3): 02:00 UTC is 23:00 local → 06:00 local = 09:00 UTC.
        let sp: Tz = "America/Sao_Paulo".parse().unwrap();
        assert_eq!(
            gaming_day_end(t("2026-11-23T02:00:00Z"), sp, six()),
            t("2026-11-23T09:00:00Z")
        );
        assert_eq!(crate::domain::clock::parse_hhmm("6:00"), None);
        assert_eq!(crate::domain::clock::parse_hhmm("24:00"), None);
    }

    #[test]
    fn a_link_verifies_and_expires() {
        let now = t("2026-11-22T20:00:00Z");
        let exp = t("2026-11-23T06:00:00Z");
        let tok = issue(&keys(), PlayerId(7), 2, Purpose::PlayerPage, now, exp);
        let c = verify_signature(&keys(), &tok, Purpose::PlayerPage, now).unwrap();
        assert_eq!((c.sub, c.ver, c.exp), (7, 2, exp.timestamp()));
        // Deterministic: the same message re-sent carries the same link.
        assert_eq!(
            tok,
            issue(&keys(), PlayerId(7), 2, Purpose::PlayerPage, now, exp)
        );
        assert_eq!(
            verify_signature(&keys(), &tok, Purpose::PlayerPage, exp),
            Err(LinkError::Expired)
        );
        assert_eq!(
            verify_signature(
                &keys(),
                &tok,
                Purpose::PlayerPage,
                exp - Duration::seconds(1)
            )
            .map(|c| c.sub),
            Ok(7)
        );
        assert_eq!(
            url("https://room.example/", &tok),
            format!("https://room.example/p/{tok}")
        );
    }

    #[test]
    fn another_key_is_forged() {
        let now = t("2026-11-22T20:00:00Z");
        let tok = issue(
            &keys(),
            PlayerId(7),
            0,
            Purpose::PlayerPage,
            now,
            now + Duration::hours(1),
        );
        let other = Keys::from_secret(b"another-secret-another-secret-xx");
        assert_eq!(
            verify_signature(&other, &tok, Purpose::PlayerPage, now),
            Err(LinkError::Forged)
        );
        // A forged token is Forged even when its dates are over (no hint about validity).
        let old = issue(
            &other,
            PlayerId(7),
            0,
            Purpose::PlayerPage,
            now,
            now + Duration::hours(1),
        );
        assert_eq!(
            verify_signature(&keys(), &old, Purpose::PlayerPage, now + Duration::hours(2)),
            Err(LinkError::Forged)
        );
    }

    #[test]
    fn alg_none_is_forged() {
        let now = t("2026-11-22T20:00:00Z");
        let tok = issue(
            &keys(),
            PlayerId(7),
            0,
            Purpose::PlayerPage,
            now,
            now + Duration::hours(1),
        );
        let payload = tok.split('.').nth(1).unwrap();
        for header in [
            r#"{"alg":"none","typ":"JWT"}"#,
            r#"{"alg":"None"}"#,
            r#"{"alg":"HS512","typ":"JWT"}"#,
        ] {
            let forged = format!("{}.{payload}.", b64(header.as_bytes()));
            assert_eq!(
                verify_signature(&keys(), &forged, Purpose::PlayerPage, now),
                Err(LinkError::Forged),
                "{header}"
            );
        }
        assert_eq!(
            verify_signature(&keys(), "not-a-token", Purpose::PlayerPage, now),
            Err(LinkError::Forged)
        );
    }

    #[test]
    fn an_edited_payload_is_forged() {
        let now = t("2026-11-22T20:00:00Z");
        let tok = issue(
            &keys(),
            PlayerId(7),
            0,
            Purpose::PlayerPage,
            now,
            now + Duration::hours(1),
        );
        let parts: Vec<&str> = tok.split('.').collect();
        // Another player's id, and a later expiry, with the original signature.
        for claims in [
            format!(
                r#"{{"sub":8,"purpose":"player_page","ver":0,"iat":{},"exp":{}}}"#,
                now.timestamp(),
                (now + Duration::hours(1)).timestamp()
            ),
            format!(
                r#"{{"sub":7,"purpose":"player_page","ver":0,"iat":{},"exp":{}}}"#,
                now.timestamp(),
                (now + Duration::days(30)).timestamp()
            ),
        ] {
            let edited = format!("{}.{}.{}", parts[0], b64(claims.as_bytes()), parts[2]);
            assert_eq!(
                verify_signature(&keys(), &edited, Purpose::PlayerPage, now),
                Err(LinkError::Forged)
            );
        }
    }

    #[test]
    fn a_revoked_link_is_refused() {
        use crate::db::Db;
        let dir = tempfile_dir();
        let db = Db::open(&format!("sqlite://{}", dir.join("t.db").display()), 1).unwrap();
        db.migrate().unwrap();
        let mut c = db.conn().unwrap();
        let now = t("2026-11-22T20:00:00Z");
        diesel::sql_query(
            "INSERT INTO players (id, full_name, alias, date_of_birth, doc_kind, doc_number, doc_number_norm, doc_country, doc_expiry, \
             language, notify, search_key, created_at, updated_at) VALUES (1, 'Ana', 'Ana', '1990-01-01', 'passport', 'X1', 'X1', 'PT', \
             '2035-01-01', 'pt', 'none', 'ana', '2026-11-22 00:00:00', '2026-11-22 00:00:00')",
        )
        .execute(&mut c)
        .unwrap();
        let tok = issue_for(
            &mut c,
            &keys(),
            PlayerId(1),
            now,
            chrono_tz::Europe::Lisbon,
            six(),
        )
        .unwrap();
        assert_eq!(
            verify(&mut c, &keys(), &tok, Purpose::PlayerPage, now).map(|c| c.sub),
            Ok(1)
        );
        let v = db
            .write(&mut c, |c| {
                revoke_all(c, now, &Actor::system(), PlayerId(1))
            })
            .unwrap();
        assert_eq!(v, 1);
        assert_eq!(
            verify(&mut c, &keys(), &tok, Purpose::PlayerPage, now),
            Err(LinkError::Revoked)
        );
        // A new link works again; a link naming a player who does not exist is refused.
        let fresh = issue_for(
            &mut c,
            &keys(),
            PlayerId(1),
            now,
            chrono_tz::Europe::Lisbon,
            six(),
        )
        .unwrap();
        assert!(verify(&mut c, &keys(), &fresh, Purpose::PlayerPage, now).is_ok());
        let ghost = issue(
            &keys(),
            PlayerId(99),
            0,
            Purpose::PlayerPage,
            now,
            now + Duration::hours(1),
        );
        assert_eq!(
            verify(&mut c, &keys(), &ghost, Purpose::PlayerPage, now),
            Err(LinkError::Revoked)
        );
        let _ = std::fs::remove_dir_all(dir);
    }

    fn tempfile_dir() -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!(
            "cardroom-link-{}-{}",
            std::process::id(),
            crate::auth::random_token(6)
        ));
        std::fs::create_dir_all(&d).unwrap();
        d
    }
}
