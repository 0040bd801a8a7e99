//! The desk kiosk — a tablet paired as a kiosk (`/floor/tablets`) where walk-ins
//! join the lists by themselves: their phone → the lists (and a name, for someone not yet
//! registered) → the one-time code sent to that phone → "you are on the list, place N" → an
//! optional seat preference → done.
//!
//! Every rule is the phone join's (`services::join` with `Via::Kiosk`): the games offered, the
//! most lists, the code's 10 minutes and 5 tries, the per-phone and per-room limits, the SMS
//! cost cap, blocked phones, guests and the neutral answer. Only the per-address limits do not
//! apply (see `services::join::check_limits`). Entries are marked `via = kiosk`.
//!
//! Strangers use the kiosk one after the other, so it never shows anyone's data but the data
//! the person at it just typed or proved with the code: no name is looked up from a phone
//! number, every step is a POST answered with its page (no address in the history names a
//! request), pages are `no-store`, fields `autocomplete="off"`, the language is the room's
//! unless switched on the start screen (carried by the forms, not a cookie), and
//! `static/kiosk.js` goes back to the start screen (`location.replace`) after the room's idle
//! time (`CARDROOM_KIOSK_IDLE_SECS`) or when "Done" is touched.

mod code;

use super::join::{join_key, refused_page};
use super::{render, see_other};
use crate::auth::{self, Claims, TokenKind};
use crate::db::models::KioskRow;
use crate::domain::ids::GameId;
use crate::domain::kiosk as rules;
use crate::domain::player::Language;
use crate::domain::{FieldError, Problem};
use crate::error::{AppError, AppResult};
use crate::services::join::{self as svc, OfferedGame};
use crate::services::Acting;
use crate::services::{kiosks, seat_prefs};
use crate::web::cookies::DEVICE_COOKIE;
use crate::web::ctx::{Ctx, Errs, Vals};
use crate::web::pages::player_link::PrefForm;
use crate::web::state::AppState;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/kiosk", web::get().to(start))
        .route("/kiosk/phone", web::post().to(phone_submit))
        .route("/kiosk/send", web::post().to(send_submit))
        .route("/kiosk/code", web::post().to(code_submit))
        .route("/kiosk/pref", web::post().to(pref_submit));
}

/// What the device's cookie says about it.
pub(crate) enum KioskDevice {
    /// A paired kiosk, with its token's claims (their `csrf` guards the kiosk's forms).
    Paired(KioskRow, Claims),
    /// A kiosk token whose kiosk was revoked (or paired again): the pairing screen again.
    Revoked,
    /// Not a kiosk at all.
    None,
}

pub(crate) async fn kiosk_device(req: &HttpRequest, st: &AppState) -> AppResult<KioskDevice> {
    let Some(c) = req.cookie(DEVICE_COOKIE) else {
        return Ok(KioskDevice::None);
    };
    let Ok(claims) = auth::verify(&st.keys, c.value(), TokenKind::Kiosk, st.clock.now()) else {
        return Ok(KioskDevice::None);
    };
    let (id, ver) = (claims.sub, claims.ver);
    Ok(
        match st.run(move |_, conn| kiosks::active(conn, id, ver)).await? {
            Some(k) => KioskDevice::Paired(k, claims),
            None => KioskDevice::Revoked,
        },
    )
}

/// The paired kiosk, or the answer for a browser that is not one: a revoked kiosk goes back
/// to the pairing screen; anything else is refused (403, said plainly).
async fn this_kiosk(
    req: &HttpRequest,
    st: &AppState,
) -> AppResult<Result<(KioskRow, Claims), HttpResponse>> {
    match kiosk_device(req, st).await? {
        KioskDevice::Paired(k, c) => Ok(Ok((k, c))),
        KioskDevice::Revoked => Ok(Err(see_other("/tablet"))),
        KioskDevice::None => Err(AppError::Forbidden(Problem::new("err-kiosk-not-paired"))),
    }
}

/// The kiosk's forms carry the kiosk token's CSRF value (the device has no staff session).
fn check_csrf(claims: &Claims, given: Option<&str>) -> AppResult<()> {
    match given {
        Some(g) if auth::same_token(&claims.csrf, g) => Ok(()),
        _ => Err(AppError::Forbidden(Problem::new("err-csrf"))),
    }
}

/// The fields of a posted kiosk form (`games` repeats).
#[derive(Default)]
struct Posted {
    csrf: Option<String>,
    lang: Option<Language>,
    phone: String,
    name: String,
    games: Vec<GameId>,
    token: String,
    code: String,
    ticket: String,
    pref: PrefForm,
    /// The fields whose text is refused (`web::text`): none, or the form is refused.
    refused: Vec<FieldError>,
}

impl Posted {
    /// The refusal of the fields whose text is refused, if any.
    fn text_refused(&self) -> Option<AppError> {
        (!self.refused.is_empty()).then(|| AppError::Validation(self.refused.clone()))
    }
}

fn parse(body: &[u8]) -> Posted {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_bytes(body).unwrap_or_default();
    let mut p = Posted {
        refused: crate::web::text::pair_refusals(&pairs),
        ..Posted::default()
    };
    for (k, v) in pairs {
        match k.as_str() {
            "csrf" => p.csrf = Some(v),
            "lang" => p.lang = v.parse().ok(),
            "phone" => p.phone = v,
            "name" => p.name = v,
            "games" => {
                if let Ok(g) = v.trim().parse() {
                    p.games.push(g)
                }
            }
            "token" => p.token = v,
            "code" => p.code = v,
            "ticket" => p.ticket = v,
            "seats" => p.pref.seats = v,
            "avoid_tables" => p.pref.avoid_tables = v,
            "accessible" => p.pref.accessible = Some(v),
            "wait_for_match" => p.pref.wait_for_match = Some(v),
            _ => {}
        }
    }
    p
}

/// Where the kiosk is in its flow.
enum Step {
    /// The start screen: the phone.
    Phone,
    /// The lists and, for someone not registered, a name.
    Lists(ListsStep),
    /// The code sent to the phone.
    Code(CodeStep),
    /// The outcome.
    Done(Done),
}

struct ListsStep {
    games: Vec<OfferedGame>,
    chosen: Vec<GameId>,
    max_lists: i32,
}

struct CodeStep {
    token: String,
    /// The phone with all but its last digits hidden.
    phone: String,
    lists: Vec<String>,
    /// The code is dead (expired, used, too many tries): only "start again".
    dead: bool,
}

/// What the code led to, as the done screen says it.
#[derive(Default)]
struct Done {
    /// Lists with the place on each (a registered player's entries, or a guest's kept places).
    places: Vec<(String, usize)>,
    /// A guest: to register at the desk within `minutes`.
    guest: bool,
    minutes: i32,
    already: Vec<String>,
    skipped: Vec<String>,
    /// The neutral answer (`services::join`).
    see_desk: bool,
    /// A registered player may state a seat preference: the ticket that lets them.
    ticket: Option<String>,
    /// The preference form as shown (what is stored, or what was typed when refused).
    pref: PrefForm,
    /// The preference was saved.
    pref_saved: bool,
}

#[derive(Template)]
#[template(path = "kiosk/kiosk.html")]
struct KioskPage {
    c: Ctx,
    /// The language the player switched to (carried by the forms), if any.
    lang: Option<&'static str>,
    idle_secs: u32,
    step: Step,
    v: Vals,
    errs: Errs,
    problem: Option<String>,
    phone_code: Option<&'static str>,
}

/// The step's data for the template (askama matches plain `if let Some` best).
impl KioskPage {
    fn is_phone(&self) -> bool {
        matches!(self.step, Step::Phone)
    }
    fn lists(&self) -> Option<&ListsStep> {
        match &self.step {
            Step::Lists(l) => Some(l),
            _ => None,
        }
    }
    fn code(&self) -> Option<&CodeStep> {
        match &self.step {
            Step::Code(c) => Some(c),
            _ => None,
        }
    }
    fn done(&self) -> Option<&Done> {
        match &self.step {
            Step::Done(d) => Some(d),
            _ => None,
        }
    }
    fn checked(&self, id: &GameId) -> bool {
        self.lists().is_some_and(|l| l.chosen.contains(id))
    }
}

/// The page around a step: the room's language unless the player switched (`lang`).
// A kiosk screen again: its step, the typed values and the refusal.
#[allow(clippy::too_many_arguments)]
async fn page(
    req: &HttpRequest,
    st: &AppState,
    kiosk: &KioskRow,
    claims: &Claims,
    lang: Option<Language>,
    step: Step,
    v: Vals,
    err: Option<&AppError>,
) -> AppResult<KioskPage> {
    let room = st.run(|_, c| crate::services::room::get(c)).await?;
    let mut c = Ctx::new(
        req,
        st.i18n.clone(),
        &room,
        None,
        claims.csrf.clone(),
        st.clock.now(),
    );
    // Not the browser's language nor a cookie: the next player starts in the room's.
    c.lang = lang.unwrap_or(room.default_language);
    let (errs, problem) = match err {
        Some(AppError::Validation(fs)) => (c.errors(fs), None),
        Some(e) => (
            Errs::default(),
            Some(crate::web::errors::refusal_text(&st.i18n, c.lang, e)),
        ),
        None => (Errs::default(), None),
    };
    let (k, now) = (kiosk.clone(), c.now);
    // The floor's list shows when each kiosk was last seen.
    let _ = st.write(move |_, conn| kiosks::seen(conn, now, &k)).await;
    Ok(KioskPage {
        phone_code: crate::domain::player::phone_region_of_zone(room.tz.name()).map(|r| r.code),
        lang: lang.map(|l| l.as_str()),
        idle_secs: st.config.room.kiosk_idle_secs,
        c,
        step,
        v,
        errs,
        problem,
    })
}

/// One request's kiosk screen: what every step shown needs.
struct Screen<'a> {
    req: &'a HttpRequest,
    st: &'a AppState,
    kiosk: &'a KioskRow,
    claims: &'a Claims,
    lang: Option<Language>,
}

impl Screen<'_> {
    /// The step, with the values typed.
    async fn show(&self, step: Step, v: Vals) -> AppResult<HttpResponse> {
        let pg = page(
            self.req,
            self.st,
            self.kiosk,
            self.claims,
            self.lang,
            step,
            v,
            None,
        )
        .await?;
        render(StatusCode::OK, &pg)
    }

    /// The step again, with the values typed and the refusal.
    async fn refuse(&self, step: Step, v: Vals, e: &AppError) -> AppResult<HttpResponse> {
        let pg = page(
            self.req,
            self.st,
            self.kiosk,
            self.claims,
            self.lang,
            step,
            v,
            Some(e),
        )
        .await?;
        refused_page(&pg, e)
    }
}

fn phone_vals(p: &Posted) -> Vals {
    let mut v = Vals::default();
    v.0.insert("phone".into(), p.phone.clone());
    v.0.insert("name".into(), p.name.clone());
    v
}

#[derive(serde::Deserialize)]
struct StartQuery {
    lang: Option<String>,
}

/// `GET /kiosk`: the start screen (nothing of anyone on it).
async fn start(
    req: HttpRequest,
    st: web::Data<AppState>,
    q: web::Query<StartQuery>,
) -> AppResult<HttpResponse> {
    let (kiosk, claims) = match this_kiosk(&req, &st).await? {
        Ok(k) => k,
        Err(res) => return Ok(res),
    };
    let screen = Screen {
        req: &req,
        st: &st,
        kiosk: &kiosk,
        claims: &claims,
        lang: q.into_inner().lang.and_then(|l| l.parse().ok()),
    };
    screen.show(Step::Phone, Vals::default()).await
}

/// The lists step for a phone already checked.
async fn lists_step(st: &AppState, chosen: Vec<GameId>) -> AppResult<Step> {
    let now = st.clock.now();
    let (games, max_lists) = st
        .run(move |st, conn| {
            let room = crate::services::room::get(conn)?;
            Ok((
                svc::offered(conn, Some(&st.waits), now, room.profile.min_players_to_run)?,
                room.profile.remote_max_lists,
            ))
        })
        .await?;
    Ok(Step::Lists(ListsStep {
        games,
        chosen,
        max_lists,
    }))
}

/// `POST /kiosk/phone`: the phone is checked (its format only: nothing is looked up, so the
/// next screen is the same for everyone), then the lists.
async fn phone_submit(
    req: HttpRequest,
    st: web::Data<AppState>,
    body: web::Bytes,
) -> AppResult<HttpResponse> {
    let (kiosk, claims) = match this_kiosk(&req, &st).await? {
        Ok(k) => k,
        Err(res) => return Ok(res),
    };
    let p = parse(&body);
    check_csrf(&claims, p.csrf.as_deref())?;
    let screen = Screen {
        req: &req,
        st: &st,
        kiosk: &kiosk,
        claims: &claims,
        lang: p.lang,
    };
    if let Some(e) = p.text_refused() {
        return screen.refuse(Step::Phone, phone_vals(&p), &e).await;
    }
    let room = st.run(|_, c| crate::services::room::get(c)).await?;
    match svc::parse_phone(&p.phone, &room) {
        Ok(_) => {
            let step = lists_step(&st, Vec::new()).await?;
            screen.show(step, phone_vals(&p)).await
        }
        Err(f) => {
            let e = AppError::Validation(vec![f]);
            screen.refuse(Step::Phone, phone_vals(&p), &e).await
        }
    }
}

/// `POST /kiosk/send`: the lists and the name; the code goes to the phone (as `/join` sends
/// it, `via = kiosk`).
async fn send_submit(
    req: HttpRequest,
    st: web::Data<AppState>,
    body: web::Bytes,
) -> AppResult<HttpResponse> {
    let (kiosk, claims) = match this_kiosk(&req, &st).await? {
        Ok(k) => k,
        Err(res) => return Ok(res),
    };
    let p = parse(&body);
    check_csrf(&claims, p.csrf.as_deref())?;
    let screen = Screen {
        req: &req,
        st: &st,
        kiosk: &kiosk,
        claims: &claims,
        lang: p.lang,
    };
    if let Some(e) = p.text_refused() {
        let step = lists_step(&st, p.games.clone()).await?;
        return screen.refuse(step, phone_vals(&p), &e).await;
    }
    let jr = code::join_request(&st, &p).await?;
    match code::send(&st, &kiosk, jr).await {
        Ok((done, lists, phone)) => {
            st.metrics
                .join_code(if done.sent { "sent" } else { "blocked" });
            let step = Step::Code(CodeStep {
                token: done.token,
                phone,
                lists,
                dead: false,
            });
            screen.show(step, Vals::default()).await
        }
        Err(
            e @ (AppError::Validation(_) | AppError::TooManyRequests(_) | AppError::Conflict(_)),
        ) => {
            if matches!(e, AppError::TooManyRequests(_)) {
                st.metrics.join_code("rate_limited");
            }
            // A phone refused here (typed on the first screen, so only a tampered form) is
            // said on the first screen; anything else on the lists, as typed.
            let phone_refused =
                matches!(&e, AppError::Validation(fs) if fs.iter().any(|f| f.field == "phone"));
            let step = if phone_refused {
                Step::Phone
            } else {
                lists_step(&st, p.games.clone()).await?
            };
            screen.refuse(step, phone_vals(&p), &e).await
        }
        Err(e) => Err(e),
    }
}

/// `POST /kiosk/code`: the code typed; the outcome (and, for a registered player, the seat
/// preference form).
async fn code_submit(
    req: HttpRequest,
    st: web::Data<AppState>,
    body: web::Bytes,
) -> AppResult<HttpResponse> {
    let (kiosk, claims) = match this_kiosk(&req, &st).await? {
        Ok(k) => k,
        Err(res) => return Ok(res),
    };
    let p = parse(&body);
    check_csrf(&claims, p.csrf.as_deref())?;
    let screen = Screen {
        req: &req,
        st: &st,
        kiosk: &kiosk,
        claims: &claims,
        lang: p.lang,
    };
    // The code and the request's token are typed by no one: a refused one is a tampered form.
    if let Some(e) = p.text_refused() {
        return Err(e);
    }
    match code::verify(&st, &kiosk, &p).await? {
        Ok(done) => {
            st.metrics.join_code("verified");
            screen.show(Step::Done(done), Vals::default()).await
        }
        Err(e) => {
            if !matches!(&e, AppError::Validation(fs) if fs.iter().any(|f| f.key == "err-join-code-format"))
            {
                st.metrics.join_code("failed");
            }
            let (phone, lists) = code::requested(&st, &p.token).await?;
            let step = Step::Code(CodeStep {
                token: p.token.clone(),
                phone,
                lists,
                dead: matches!(e, AppError::Conflict(_)),
            });
            screen.refuse(step, Vals::default(), &e).await
        }
    }
}

/// `POST /kiosk/pref`: the player just verified states a seat preference, saved
/// as theirs (`seat_prefs::set`, audited with the player as the actor).
async fn pref_submit(
    req: HttpRequest,
    st: web::Data<AppState>,
    body: web::Bytes,
) -> AppResult<HttpResponse> {
    let (kiosk, claims) = match this_kiosk(&req, &st).await? {
        Ok(k) => k,
        Err(res) => return Ok(res),
    };
    let p = parse(&body);
    check_csrf(&claims, p.csrf.as_deref())?;
    if let Some(e) = p.text_refused() {
        return Err(e);
    }
    let now = st.clock.now();
    let Some(player) = rules::check_pref_ticket(&join_key(&st), kiosk.id, &p.ticket, now) else {
        // Too late (the screen should have gone back to the start long before): start again.
        return Err(AppError::Forbidden(Problem::new("err-kiosk-pref-expired")));
    };
    let r = match p.pref.parse() {
        Ok(pref) => {
            st.write(move |_, conn| {
                let act =
                    Acting::new(now, crate::db::audit::Actor::player(player)).in_room(conn)?;
                seat_prefs::set(conn, &act, player, &pref)
            })
            .await
        }
        Err(fs) => Err(AppError::Validation(fs)),
    };
    let (status, done, err) = match r {
        Ok(saved) => (
            StatusCode::OK,
            Done {
                pref: PrefForm::of(&saved),
                pref_saved: true,
                ..Done::default()
            },
            None,
        ),
        Err(e @ (AppError::Validation(_) | AppError::NotFound)) => (
            actix_web::ResponseError::status_code(&e),
            Done {
                // The same ticket: the player may correct what was refused.
                ticket: Some(p.ticket.clone()),
                pref: p.pref.clone(),
                ..Done::default()
            },
            Some(e),
        ),
        Err(e) => return Err(e),
    };
    let pg = page(
        &req,
        &st,
        &kiosk,
        &claims,
        p.lang,
        Step::Done(done),
        Vals::default(),
        err.as_ref(),
    )
    .await?;
    render(status, &pg)
}
