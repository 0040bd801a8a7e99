//! The player's own page, `/p/{token}`: phone-first, in the player's language,
//! refreshing itself by short polling of `/p/{token}/state` with an ETag (304 when nothing
//! changed), and the three answers as plain forms.
//!
//! **The signed token in the path is the credential.** No sign-in, no cookie: whoever holds
//! the link acts as that player on this page only. That is also why the forms carry no CSRF
//! token: a cross-site form can only post to `/p/{token}/…` if its author already has the
//! token, and then they need no forgery — there is no ambient credential (cookie) for another
//! site to ride on. The token is checked on every request (signature with our key only,
//! purpose, expiry at the end of the gaming day, the player's current link version), so a
//! revoked link stops at once. Responses carry `Cache-Control: no-store` and
//! `Referrer-Policy: no-referrer` (the token must not leak through caches or the `Referer`
//! of a followed link). Requests are rate-limited per client address
//! (`CARDROOM_PLAYER_LINK_RATE`).
//!
//! Refusals are pages of their own (in the reader's language, never a trace): expired or
//! revoked link → 410, a link we did not sign (another key, `alg: none`, an edited payload)
//! → 404, too many requests → 429, an answer that conflicts with the state (a second "need
//! more time") → 409 with the page and the reason.

use super::render;
use crate::domain::ids::EntryId;
use crate::domain::ids::PlayerId;
use crate::domain::ids::SeatCallId;
use crate::domain::player::Language;
use crate::error::AppError;
use crate::notify::link::{self, LinkError, Purpose};
use crate::services::player_page::{self, Answer, PlayerView};
use crate::services::room::Room;
use crate::services::Acting;
use crate::web::ctx::{request_lang, Ctx};
use crate::web::state::AppState;
use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::{header, StatusCode};
use actix_web::middleware::{from_fn, Next};
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use chrono::{DateTime, Duration, Utc};
use sha2::{Digest, Sha256};
use std::net::IpAddr;

pub use crate::web::cache::{Built, PageCache};

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::scope("/p")
            .wrap(from_fn(guard))
            .route("/{token}", web::get().to(page))
            .route("/{token}/state", web::get().to(state))
            .route("/{token}/calls/{call}/on-my-way", web::post().to(on_my_way))
            .route("/{token}/calls/{call}/more-time", web::post().to(more_time))
            .route("/{token}/entries/{entry}/leave", web::post().to(leave))
            .route("/{token}/seat-preference", web::post().to(set_pref)),
    );
    // A text message's short address: on to that message's link (same rate limit).
    cfg.service(
        web::scope("/m")
            .wrap(from_fn(guard))
            .route("/{code}", web::get().to(short_link)),
    );
}

/// `/m/{code}` (`notify::link::short_code`): the message it names, then 303 to the link that
/// message carries, checked there as always (expired, revoked). A code that is not ours: the
/// "not a link of this room" page.
async fn short_link(
    req: HttpRequest,
    st: web::Data<AppState>,
    code: web::Path<String>,
) -> HttpResponse {
    let Some(id) = crate::notify::link::short_code_message(&st.keys, &code) else {
        return refused(&st, &req, LinkError::Forged);
    };
    let links = crate::notify::messages::LinkSettings {
        public_base: st.config.server.public_base.clone(),
        day_ends: st.config.room.gaming_day_ends,
    };
    let found = st
        .run(move |st, c| {
            let m = crate::notify::outbox::get(c, id)?;
            let params: crate::notify::messages::Params = serde_json::from_str(&m.params)
                .map_err(|e| AppError::internal_from("message parameters", e))?;
            Ok(crate::notify::messages::message_link(
                &st.keys, &links, &m, &params,
            ))
        })
        .await;
    match found {
        Ok(Some(url)) => {
            // The same host the player came in on: only the path of the link.
            let path = url.find("/p/").map(|i| url[i..].to_string()).unwrap_or(url);
            super::see_other(&path)
        }
        Ok(None) | Err(AppError::NotFound) => refused(&st, &req, LinkError::Forged),
        Err(e) => {
            use actix_web::ResponseError;
            log::warn!("short link {id}: {e}");
            let lang = request_lang(&req);
            let (message, _) = crate::web::errors::describe(&st.i18n, lang, &e);
            gone(
                &st,
                e.status_code(),
                lang,
                "plink-error-title",
                message,
                None,
            )
        }
    }
}

// ---- rate limit and headers --------------------------------------------------------------

/// The client's address: the TCP peer, or through a trusted reverse proxy the client it
/// names (`CARDROOM_TRUSTED_PROXIES`, see `web::client`).
fn client_ip(req: &ServiceRequest) -> IpAddr {
    let trusted = req
        .app_data::<web::Data<AppState>>()
        .map(|s| s.config.server.trusted_proxies.as_slice())
        .unwrap_or_default();
    crate::web::client::client_ip(req.request(), trusted)
}

/// Rate limit — per link (`CARDROOM_PLAYER_LINK_RATE` a minute) and per client address
/// ([`ADDRESS_FACTOR`](crate::web::limits::ADDRESS_FACTOR) times that; `web::limits`) — then the link's headers on every answer (refusals
/// included).
async fn guard(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let link = req
        .path()
        .strip_prefix("/p/")
        .and_then(|rest| rest.split('/').next())
        .filter(|t| !t.is_empty())
        .map(str::to_string);
    let address = client_ip(&req);
    let allowed = req
        .app_data::<web::Data<AppState>>()
        .map_or(Ok(()), |st| st.limits.player_link(link.as_deref(), address));
    let mut res = if allowed.is_ok() {
        next.call(req).await?.map_into_boxed_body()
    } else {
        let lang = request_lang(req.request());
        let st = req.app_data::<web::Data<AppState>>().cloned();
        let html = match &st {
            Some(st) => gone_html(st, lang, "plink-rate-title", "plink-rate-text", None),
            None => "429".into(),
        };
        let res = HttpResponse::TooManyRequests()
            .insert_header((
                header::RETRY_AFTER,
                allowed
                    .err()
                    .map_or(60, crate::web::limits::retry_after_secs)
                    .to_string(),
            ))
            .insert_header((header::CONTENT_LANGUAGE, lang.as_str()))
            .content_type("text/html; charset=utf-8")
            .body(html);
        req.into_response(res)
    };
    let h = res.headers_mut();
    h.insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-store"),
    );
    h.insert(
        header::REFERRER_POLICY,
        header::HeaderValue::from_static("no-referrer"),
    );
    h.insert(
        header::HeaderName::from_static("x-robots-tag"),
        header::HeaderValue::from_static("noindex, nofollow"),
    );
    Ok(res)
}

// ---- refusal pages -------------------------------------------------------------------------

#[derive(Template)]
#[template(path = "player/gone.html")]
struct Gone {
    lang: &'static str,
    title: String,
    text: String,
    back: Option<(String, String)>,
}

fn gone_html(
    st: &AppState,
    lang: Language,
    title: &str,
    text: &str,
    back: Option<String>,
) -> String {
    let page = Gone {
        lang: lang.as_str(),
        title: st.i18n.t(lang, title),
        text: st.i18n.t(lang, text),
        back: back.map(|href| (href, st.i18n.t(lang, "plink-back"))),
    };
    page.render().unwrap_or_else(|_| st.i18n.t(lang, title))
}

fn gone(
    st: &AppState,
    status: StatusCode,
    lang: Language,
    title: &str,
    text: String,
    back: Option<String>,
) -> HttpResponse {
    let page = Gone {
        lang: lang.as_str(),
        title: st.i18n.t(lang, title),
        text,
        back: back.map(|href| (href, st.i18n.t(lang, "plink-back"))),
    };
    let html = page.render().unwrap_or_else(|_| st.i18n.t(lang, title));
    HttpResponse::build(status)
        .insert_header((header::CONTENT_LANGUAGE, lang.as_str()))
        .content_type("text/html; charset=utf-8")
        .body(html)
}

/// The page for a link refused: expired or revoked → 410 Gone, not ours → 404.
fn refused(st: &AppState, req: &HttpRequest, e: LinkError) -> HttpResponse {
    let lang = request_lang(req);
    let (status, title, text) = match e {
        LinkError::Expired => (
            StatusCode::GONE,
            "plink-expired-title",
            "plink-expired-text",
        ),
        LinkError::Revoked => (
            StatusCode::GONE,
            "plink-revoked-title",
            "plink-revoked-text",
        ),
        LinkError::Forged => (
            StatusCode::NOT_FOUND,
            "plink-forged-title",
            "plink-forged-text",
        ),
    };
    gone(st, status, lang, title, st.i18n.t(lang, text), None)
}

/// Anything else that went wrong, as a page in the player's language: a 4xx with its
/// message (and the way back to the page), a 5xx with the usual apology (detail logged).
fn failed(st: &AppState, lang: Language, token: &str, e: &AppError) -> HttpResponse {
    use actix_web::ResponseError;
    if e.status_code().is_server_error() {
        log::error!("player page: {e}");
    }
    let (message, _) = crate::web::errors::describe(&st.i18n, lang, e);
    gone(
        st,
        e.status_code(),
        lang,
        "plink-error-title",
        message,
        Some(format!("/p/{token}")),
    )
}

// ---- the page ------------------------------------------------------------------------------

/// The live part of the page: the same bytes in the page and from `/state` (the ETag is
/// their hash). Holds no "now": the countdown is computed in the browser from the deadline.
#[derive(Template)]
#[template(path = "player/state.html")]
struct State<'a> {
    c: &'a Ctx,
    v: &'a PlayerView,
    token: &'a str,
    extension_min: u32,
}

impl State<'_> {
    fn t2(&self, key: &str, a: &str, av: impl ToString, b: &str, bv: impl ToString) -> String {
        self.c.i18n.msg(
            self.c.lang,
            key,
            &[(a, av.to_string()), (b, bv.to_string())],
        )
    }
    fn clock(&self, t: &DateTime<Utc>) -> String {
        self.c.clock(t)
    }
    fn hm(&self, minutes: impl crate::web::ctx::Val<i64>) -> String {
        let minutes = minutes.val();
        format!("{}:{:02}", minutes / 60, minutes % 60)
    }
    fn minutes_total(&self) -> i64 {
        self.v.today.iter().map(|g| g.minutes).sum()
    }
}

#[derive(Template)]
#[template(path = "player/page.html")]
struct Page<'a> {
    c: &'a Ctx,
    v: &'a PlayerView,
    state: String,
    /// The server's clock (seconds), for the countdown (the test clock may differ).
    now: i64,
    /// A refusal shown on the page (409: "need more time" asked twice).
    notice: Option<String>,
    /// The seat-preference form: what was typed when it was refused, else what
    /// is stored.
    pref: PrefForm,
    /// Why the seat-preference form was refused, shown next to it.
    pref_error: Option<String>,
    /// The page's own address (`/p/{token}`), whatever address answered (a refused form
    /// answers from its own).
    base: String,
}

/// The seat-preference form's fields as typed (text, so a refused number is shown back).
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default)]
pub struct PrefForm {
    pub seats: String,
    pub avoid_tables: String,
    pub accessible: Option<String>,
    pub wait_for_match: Option<String>,
}

impl PrefForm {
    pub fn of(p: &crate::domain::seat_pref::SeatPreference) -> Self {
        use crate::domain::seat_pref::format_numbers;
        PrefForm {
            seats: format_numbers(&p.seats),
            avoid_tables: format_numbers(&p.avoid_tables),
            accessible: p.accessible.then(|| "true".into()),
            wait_for_match: p.wait_for_match.then(|| "true".into()),
        }
    }

    /// The preference typed, or the refusals by field (said in `lang` by the caller): its
    /// text first (`web::text`), then the numbers.
    pub fn parse(
        &self,
    ) -> Result<crate::domain::seat_pref::SeatPreference, Vec<crate::domain::FieldError>> {
        let refused = crate::web::text::pair_refusals(&[
            ("seats", &self.seats),
            ("avoid_tables", &self.avoid_tables),
        ]);
        if !refused.is_empty() {
            return Err(refused);
        }
        crate::domain::seat_pref::parse(
            &self.seats,
            &self.avoid_tables,
            self.accessible.is_some(),
            self.wait_for_match.is_some(),
        )
    }
}

/// What one request works from: the page as built (now or shortly before), and now.
struct Loaded {
    built: std::sync::Arc<Built>,
    now: DateTime<Utc>,
}

/// What the database job found: a page built earlier that still holds, or what a new one
/// is built from.
enum Found {
    Kept(std::sync::Arc<Built>),
    Read {
        seq: i64,
        view: Box<PlayerView>,
        room: Room,
    },
}

/// Verifies the link and gets the player's page: the one built for this link if nothing was
/// recorded since ([`PageCache`]), else read afresh (one blocking job) and rendered.
async fn load(
    req: &HttpRequest,
    st: &AppState,
    token: &str,
) -> Result<Result<Loaded, LinkError>, AppError> {
    let now = st.clock.now();
    // Signature, purpose and expiry need no database.
    if let Err(e) = link::verify_signature(&st.keys, token, Purpose::PlayerPage, now) {
        return Ok(Err(e));
    }
    let day_ends = st.config.room.gaming_day_ends;
    let t = token.to_string();
    let found = st
        .run(move |s, c| {
            // Read before the page: a change committed meanwhile makes a later request
            // rebuild it (the page is stored under the older number).
            let seq = crate::db::current_seq(c, "audit")?;
            if let Some(b) = s.player_pages.get(&t, seq, now) {
                return Ok(Ok(Found::Kept(b)));
            }
            let claims = match link::verify(c, &s.keys, &t, Purpose::PlayerPage, now) {
                Ok(claims) => claims,
                Err(e) => return Ok(Err(e)),
            };
            let room = crate::services::room::get(c)?;
            let view = player_page::view(c, &s.waits, now, &room, PlayerId(claims.sub), day_ends)?;
            Ok(Ok(Found::Read {
                seq,
                view: Box::new(view),
                room,
            }))
        })
        .await?;
    let (seq, view, room) = match found {
        Ok(Found::Kept(built)) => return Ok(Ok(Loaded { built, now })),
        Ok(Found::Read { seq, view, room }) => (seq, *view, room),
        Err(e) => return Ok(Err(e)),
    };
    let c = ctx_for(req, st, &room, &view, now);
    let state = State {
        c: &c,
        v: &view,
        token,
        extension_min: st.config.room.call_extension_min,
    }
    .render()
    .map_err(|e| AppError::internal_from("template", e))?;
    let etag = etag_of(&state);
    let built = std::sync::Arc::new(Built {
        seq,
        at: now,
        view,
        room,
        state,
        etag,
    });
    st.player_pages.put(token, built.clone());
    Ok(Ok(Loaded { built, now }))
}

fn ctx_for(
    req: &HttpRequest,
    st: &AppState,
    room: &Room,
    view: &PlayerView,
    now: DateTime<Utc>,
) -> Ctx {
    let mut c = Ctx::new(req, st.i18n.clone(), room, None, String::new(), now);
    c.lang = view.language;
    c
}

fn ctx(req: &HttpRequest, st: &AppState, l: &Loaded) -> Ctx {
    ctx_for(req, st, &l.built.room, &l.built.view, l.now)
}

fn etag_of(html: &str) -> String {
    let d = Sha256::digest(html.as_bytes());
    format!("\"{}\"", hex::encode(&d[..12]))
}

async fn show(
    req: &HttpRequest,
    st: &AppState,
    token: &str,
    status: StatusCode,
    notice: Option<String>,
) -> HttpResponse {
    show_with(req, st, token, status, notice, None).await
}

/// [`show`], with a refused seat-preference form: the refusal said in the page's language,
/// and the form as typed.
async fn show_with(
    req: &HttpRequest,
    st: &AppState,
    token: &str,
    status: StatusCode,
    notice: Option<String>,
    pref_refused: Option<(AppError, PrefForm)>,
) -> HttpResponse {
    let l = match load(req, st, token).await {
        Ok(Ok(l)) => l,
        Ok(Err(e)) => return refused(st, req, e),
        Err(e) => return failed(st, request_lang(req), token, &e),
    };
    let c = ctx(req, st, &l);
    let (pref_error, typed) = match pref_refused {
        Some((e, typed)) => (
            Some(crate::web::errors::refusal_text(&st.i18n, c.lang, &e)),
            Some(typed),
        ),
        None => (None, None),
    };
    let html = render(
        status,
        &Page {
            c: &c,
            v: &l.built.view,
            state: l.built.state.clone(),
            now: l.now.timestamp(),
            notice: notice.clone(),
            pref: typed.unwrap_or_else(|| PrefForm::of(&l.built.view.pref)),
            base: format!("/p/{token}"),
            pref_error: pref_error.clone(),
        },
    );
    match html {
        Ok(mut res) => {
            res.headers_mut().insert(
                header::CONTENT_LANGUAGE,
                header::HeaderValue::from_static(c.lang.as_str()),
            );
            res
        }
        Err(e) => failed(st, c.lang, token, &e),
    }
}

/// `GET /p/{token}`: the page.
async fn page(req: HttpRequest, st: web::Data<AppState>, path: web::Path<String>) -> HttpResponse {
    show(&req, &st, &path, StatusCode::OK, None).await
}

/// `GET /p/{token}/state`: the live part as an HTML fragment, with an ETag; 304 when the
/// browser's `If-None-Match` still matches. `X-Now` carries the server's clock (seconds) so
/// the countdown ticks against the server's time.
async fn state(req: HttpRequest, st: web::Data<AppState>, path: web::Path<String>) -> HttpResponse {
    let token = path.into_inner();
    let l = match load(&req, &st, &token).await {
        Ok(Ok(l)) => l,
        Ok(Err(e)) => return refused(&st, &req, e),
        Err(e) => return failed(&st, request_lang(&req), &token, &e),
    };
    let lang = l.built.view.language;
    let etag = l.built.etag.clone();
    let now = l.now.timestamp().to_string();
    let matches = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.split(',')
                .map(|t| t.trim().trim_start_matches("W/"))
                .any(|t| t == etag || t == "*")
        });
    let mut res = if matches {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    res.insert_header((header::ETAG, etag))
        .insert_header(("X-Now", now))
        .insert_header((header::CONTENT_LANGUAGE, lang.as_str()));
    if matches {
        res.finish()
    } else {
        res.content_type("text/html; charset=utf-8")
            .body(l.built.state.clone())
    }
}

/// Runs an answer for the verified player, then back to the page (303); a refusal shows
/// the page again with the reason (409), or a page of its own.
async fn answer<F>(req: HttpRequest, st: web::Data<AppState>, token: String, act: F) -> HttpResponse
where
    F: FnOnce(&mut crate::db::DbConn, DateTime<Utc>, i64, &AppState) -> crate::error::AppResult<()>
        + Send
        + 'static,
{
    let now = st.clock.now();
    let t = token.clone();
    // Checked once outside the write turn (a refused link costs no write), then again inside
    // it, against the state the write sees.
    let checked = st
        .run(move |s, c| Ok(link::verify(c, &s.keys, &t, Purpose::PlayerPage, now)))
        .await;
    let lang_of = |st: &AppState, player: PlayerId| -> Language {
        st.db
            .conn()
            .ok()
            .and_then(|mut c| {
                crate::services::lookups::player_language(&mut c, player)
                    .ok()
                    .flatten()
            })
            .and_then(|l| l.parse().ok())
            .unwrap_or_else(|| request_lang(&req))
    };
    let claims = match checked {
        Ok(Ok(c)) => c,
        Ok(Err(e)) => return refused(&st, &req, e),
        Err(e) => return failed(&st, request_lang(&req), &token, &e),
    };
    let t = token.clone();
    let r = st
        .write(move |s, c| {
            let claims = link::verify(c, &s.keys, &t, Purpose::PlayerPage, now).map_err(|_| {
                AppError::Conflict(crate::domain::Problem::new("plink-revoked-title"))
            })?;
            act(c, now, claims.sub, s)
        })
        .await;
    match r {
        Ok(()) => super::see_other(&format!("/p/{token}")),
        Err(e @ AppError::Conflict(_)) => {
            let lang = lang_of(&st, PlayerId(claims.sub));
            let (message, _) = crate::web::errors::describe(&st.i18n, lang, &e);
            show(&req, &st, &token, StatusCode::CONFLICT, Some(message)).await
        }
        Err(e) => failed(&st, lang_of(&st, PlayerId(claims.sub)), &token, &e),
    }
}

/// `POST /p/{token}/calls/{call}/on-my-way`.
async fn on_my_way(
    req: HttpRequest,
    st: web::Data<AppState>,
    path: web::Path<(String, i64)>,
) -> HttpResponse {
    let (token, call) = path.into_inner();
    answer(req, st, token, move |c, now, player, s| {
        // The seat is held for the room's grace (once per call), as for "more time".
        let grace = Duration::minutes(s.config.room.call_extension_min as i64);
        player_page::answer_call(
            c,
            now,
            PlayerId(player),
            SeatCallId(call),
            Answer::OnMyWay,
            grace,
        )
        .map(|_| ())
    })
    .await
}

/// `POST /p/{token}/calls/{call}/more-time`: once per call, by `CARDROOM_CALL_EXTENSION_MIN`.
async fn more_time(
    req: HttpRequest,
    st: web::Data<AppState>,
    path: web::Path<(String, i64)>,
) -> HttpResponse {
    let (token, call) = path.into_inner();
    answer(req, st, token, move |c, now, player, s| {
        let ext = Duration::minutes(s.config.room.call_extension_min as i64);
        player_page::answer_call(
            c,
            now,
            PlayerId(player),
            SeatCallId(call),
            Answer::MoreTime,
            ext,
        )
        .map(|_| ())
    })
    .await
}

/// `POST /p/{token}/entries/{entry}/leave`.
async fn leave(
    req: HttpRequest,
    st: web::Data<AppState>,
    path: web::Path<(String, i64)>,
) -> HttpResponse {
    let (token, entry) = path.into_inner();
    answer(req, st, token, move |c, now, player, _| {
        player_page::leave_list(c, now, PlayerId(player), EntryId(entry))
    })
    .await
}

/// `POST /p/{token}/seat-preference`: the player states their seat preference
/// from their own link. A refused field shows the page again (422) with the reason and what
/// was typed; nothing is saved.
async fn set_pref(
    req: HttpRequest,
    st: web::Data<AppState>,
    path: web::Path<String>,
    form: web::Form<PrefForm>,
) -> HttpResponse {
    let token = path.into_inner();
    let typed = form.into_inner();
    match typed.parse() {
        Ok(pref) => {
            answer(req, st, token, move |c, now, player, _| {
                let act = Acting::new(now, crate::db::audit::Actor::player(PlayerId(player)))
                    .in_room(c)?;
                crate::services::seat_prefs::set(c, &act, PlayerId(player), &pref).map(|_| ())
            })
            .await
        }
        Err(errs) => {
            show_with(
                &req,
                &st,
                &token,
                StatusCode::UNPROCESSABLE_ENTITY,
                None,
                Some((AppError::Validation(errs), typed)),
            )
            .await
        }
    }
}
