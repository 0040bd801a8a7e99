//! The kiosk's one-time code: sent to the phone with the lists asked for, then checked as
//! typed (the rules are the phone join's, `services::join`).

use super::{Done, Posted};
use crate::db::models::KioskRow;
use crate::domain::ids::PlayerId;
use crate::domain::kiosk as rules;
use crate::domain::remote_join::{self as rj, Via};
use crate::error::AppResult;
use crate::services::join::{self as svc, JoinRequest, Limits, Requested, Verified};
use crate::services::seat_prefs;
use crate::web::pages::join::{join_key, masked};
use crate::web::pages::player_link::PrefForm;
use crate::web::state::AppState;

/// The join as posted, in the language the player switched to, else the room's.
pub(super) async fn join_request(st: &AppState, p: &Posted) -> AppResult<JoinRequest> {
    let room_language = st
        .run(|_, c| crate::services::room::get(c))
        .await?
        .default_language;
    Ok(JoinRequest {
        phone: p.phone.clone(),
        name: p.name.clone(),
        games: p.games.clone(),
        language: Some(p.lang.unwrap_or(room_language)),
    })
}

/// Sends a new code for the join: what was requested, the lists' names and the phone as the
/// screen shows it (masked).
pub(super) async fn send(
    st: &AppState,
    kiosk: &KioskRow,
    jr: JoinRequest,
) -> AppResult<(Requested, Vec<String>, String)> {
    let now = st.clock.now();
    let key = join_key(st);
    let limits = Limits::of(&st.config);
    // The kiosk's "address" in the trail: which kiosk, not its network address (the
    // per-address limits do not count a kiosk: `services::join::check_limits`).
    let address = format!("kiosk:{}", kiosk.id);
    let code = {
        use rand::Rng;
        rj::code_from(rand::rng().random_range(0..1_000_000))
    };
    let token = crate::auth::random_token(18);
    let (done, names, phone) = st
        .write(move |_, conn| {
            let room = crate::services::room::get(conn)?;
            let done = svc::request_code(
                conn,
                now,
                &key,
                &room,
                &limits,
                Via::Kiosk,
                &address,
                &jr,
                &code,
                &token,
            )?;
            let names = crate::services::lookups::game_names(conn, &jr.games)?;
            let phone = svc::parse_phone(&jr.phone, &room).unwrap_or_default();
            Ok((done, names, phone))
        })
        .await?;
    Ok((done, names, masked(&phone)))
}

/// Checks the code typed. The outer error undoes the check; the inner one (a wrong, expired
/// or used code) is the player's, and the try it cost is kept.
pub(super) async fn verify(
    st: &AppState,
    kiosk: &KioskRow,
    p: &Posted,
) -> AppResult<AppResult<Done>> {
    let now = st.clock.now();
    let key = join_key(st);
    let (token, typed, kiosk) = (p.token.clone(), p.code.clone(), kiosk.clone());
    st.write(move |_, conn| {
        let room = crate::services::room::get(conn)?;
        let v = svc::verify_code(conn, now, &key, &room, &token, &typed)?;
        let minutes = room.profile.call_in_expiry_min;
        Ok(match v {
            Ok(verified) => Ok(done_of(conn, now, &key, &kiosk, minutes, verified)?),
            Err(e) => Err(e),
        })
    })
    .await
}

/// The done screen for a code accepted.
fn done_of(
    conn: &mut crate::db::DbConn,
    now: chrono::DateTime<chrono::Utc>,
    key: &[u8],
    kiosk: &KioskRow,
    minutes: i32,
    verified: Verified,
) -> AppResult<Done> {
    Ok(match verified {
        Verified::Player {
            player_id,
            joined,
            already,
            skipped,
        } => {
            let mut names = joined.clone();
            names.extend(already.iter().cloned());
            let places = places_of(conn, now, player_id, &names)?;
            let pref = PrefForm::of(&seat_prefs::get(conn, player_id)?);
            // Only someone now on a list has a seat to prefer.
            let ticket =
                (!places.is_empty()).then(|| rules::pref_ticket(key, kiosk.id, player_id, now));
            Done {
                places,
                already: already
                    .into_iter()
                    .filter(|a| !joined.contains(a))
                    .collect(),
                skipped,
                ticket,
                pref,
                minutes,
                ..Done::default()
            }
        }
        Verified::Guest {
            places,
            already,
            skipped,
            ..
        } => Done {
            guest: true,
            places,
            already,
            skipped,
            minutes,
            ..Done::default()
        },
        Verified::SeeDesk => Done {
            see_desk: true,
            ..Done::default()
        },
    })
}

/// A registered player's places on the lists named (joined now or already on).
fn places_of(
    conn: &mut crate::db::DbConn,
    now: chrono::DateTime<chrono::Utc>,
    player_id: PlayerId,
    names: &[String],
) -> AppResult<Vec<(String, usize)>> {
    let rows = crate::services::lookups::entries_on_games_named(conn, player_id, names)?;
    let mut out = Vec::new();
    for (entry, game, name) in rows {
        if let Some(place) = crate::services::floor::place_of(conn, game, entry, now)? {
            out.push((name, place.position));
        }
    }
    Ok(out)
}

/// The code request a token names, as the code screen shows it again: the phone (masked)
/// and the lists' names.
pub(super) async fn requested(st: &AppState, token: &str) -> AppResult<(String, Vec<String>)> {
    let (key, t) = (join_key(st), token.to_string());
    st.run(move |_, conn| {
        let r = svc::code_request(conn, &key, &t)?;
        Ok((
            masked(&r.phone),
            crate::services::lookups::game_names(conn, &r.games)?,
        ))
    })
    .await
}
