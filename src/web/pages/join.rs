//! Joining the lists from a phone — the public, phone-first pages (`/join`: the
//! games, the lists chosen, the phone; `/join/code/{token}`: the code), the lobby's QR code
//! (`/join/qr.svg`), the desk's check-in code (`/floor/desk-qr`, scanned to
//! `/join/here/{token}`) and the floor's blocked phones (`/floor/phones`).
//!
//! Plain forms (no script needed), in the browser's language (else the room's). The public
//! forms carry the pre-sign-in CSRF token (`cr_pre`), as the sign-in form does: no ambient
//! credential rides on them, but another site must not make a visitor's browser ask for codes
//! (the per-address limit would count against them).

use super::{render, see_other};
use crate::domain::ids::GameId;
use crate::domain::ids::PlayerId;
use crate::domain::remote_join::{self as rj, Via};
use crate::domain::FieldError;
use crate::error::{AppError, AppResult};
use crate::services::join::{self as svc, JoinRequest, Limits, OfferedGame, Verified};
use crate::services::room::Room;
use crate::web::ctx::{Ctx, Errs, Vals, LANG_COOKIE};
use crate::web::extract::{check_csrf, ActingAs, CsrfForm, FloorStaff, PRELOGIN_COOKIE};
use crate::web::state::AppState;
use actix_web::cookie::{time::Duration as CookieDuration, Cookie, SameSite};
use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use serde::Deserialize;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/join", web::get().to(join_page))
        .route("/join", web::post().to(join_submit))
        .route("/join/qr.svg", web::get().to(join_qr))
        .route("/join/code/{token}", web::get().to(code_page))
        .route("/join/code/{token}", web::post().to(code_submit))
        .route("/join/here/{token}", web::get().to(desk_check_in))
        .route("/floor/desk-qr", web::get().to(desk_qr))
        .route("/floor/phones", web::get().to(phones_page))
        .route("/floor/phones", web::post().to(phones_block))
        .route("/floor/phones/unblock", web::post().to(phones_unblock))
        .route(
            "/floor/guest-entries/{id}/remove",
            web::post().to(guest_remove),
        );
}

/// The cookie that remembers, on the phone that joined, the player's link, for the desk's
/// check-in address only (`Path=/join/here`): scanning the desk's code with the phone's camera
/// opens that address in the same browser, which says who is checking in. Set by the join
/// flow only: the player's page itself sets no cookie (its token in the path is the
/// credential, `player_link`).
pub const PLAYER_LINK_COOKIE: &str = "cr_plink";

/// The cookie for a player's link token (set after a phone join).
pub fn player_link_cookie(st: &AppState, token: &str) -> Cookie<'static> {
    Cookie::build(PLAYER_LINK_COOKIE, token.to_string())
        .path("/join/here")
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(st.config.server.secure_cookies)
        .max_age(CookieDuration::hours(24))
        .finish()
}

/// The key the join codes and desk tokens are signed with: derived from the room's secret
/// (through the short links' key, itself a hash of the secret and a label) with its own label,
/// so no other signature shares it.
pub(crate) fn join_key(st: &AppState) -> [u8; 32] {
    use sha2::Digest;
    let mut h = sha2::Sha256::new();
    h.update(b"cardroom join codes\0");
    h.update(st.keys.short_links);
    h.finalize().into()
}

/// A public page's context: the browser's language, else the room's (a phone that says
/// nothing gets the room's).
async fn public_ctx(req: &HttpRequest, st: &AppState, csrf: String) -> AppResult<(Ctx, Room)> {
    let room = st.run(|_, c| crate::services::room::get(c)).await?;
    let mut c = Ctx::new(req, st.i18n.clone(), &room, None, csrf, st.clock.now());
    if req.headers().get("accept-language").is_none() && req.cookie(LANG_COOKIE).is_none() {
        c.lang = room.default_language;
    }
    Ok((c, room))
}

fn prelogin(req: &HttpRequest) -> (String, bool) {
    match req
        .cookie(PRELOGIN_COOKIE)
        .map(|c| c.value().to_string())
        .filter(|v| v.len() >= 16)
    {
        Some(v) => (v, false),
        None => (crate::auth::random_token(24), true),
    }
}

fn with_prelogin(mut res: HttpResponse, st: &AppState, token: String, fresh: bool) -> HttpResponse {
    if fresh {
        let c = Cookie::build(PRELOGIN_COOKIE, token)
            .path("/")
            .http_only(true)
            .same_site(SameSite::Strict)
            .secure(st.config.server.secure_cookies)
            .finish();
        res.add_cookie(&c).ok();
    }
    res
}

// ---- /join ---------------------------------------------------------------------------------

#[derive(Template)]
#[template(path = "join/form.html")]
struct JoinPage {
    c: Ctx,
    games: Vec<OfferedGame>,
    chosen: Vec<GameId>,
    v: Vals,
    errs: Errs,
    problem: Option<String>,
    max_lists: i32,
    /// The room's country calling code (a number without one takes it).
    phone_code: Option<&'static str>,
}

impl JoinPage {
    fn checked(&self, id: impl crate::web::ctx::Val<GameId>) -> bool {
        self.chosen.contains(&id.val())
    }
}

async fn join_view(
    req: &HttpRequest,
    st: &AppState,
    csrf: String,
    chosen: Vec<GameId>,
    v: Vals,
    err: Option<&AppError>,
) -> AppResult<JoinPage> {
    let (c, room) = public_ctx(req, st, csrf).await?;
    let now = c.now;
    let min = room.profile.min_players_to_run;
    let games = st
        .run(move |st, conn| svc::offered(conn, Some(&st.waits), now, min))
        .await?;
    let (errs, problem) = match err {
        Some(AppError::Validation(fs)) => (c.errors(fs), None),
        Some(e) => (
            Errs::default(),
            Some(crate::web::errors::refusal_text(&st.i18n, c.lang, e)),
        ),
        None => (Errs::default(), None),
    };
    Ok(JoinPage {
        phone_code: crate::domain::player::phone_region_of_zone(room.tz.name()).map(|r| r.code),
        max_lists: room.profile.remote_max_lists,
        c,
        games,
        chosen,
        v,
        errs,
        problem,
    })
}

async fn join_page(req: HttpRequest, st: web::Data<AppState>) -> AppResult<HttpResponse> {
    let (token, fresh) = prelogin(&req);
    let page = join_view(&req, &st, token.clone(), Vec::new(), Vals::default(), None).await?;
    Ok(with_prelogin(
        render(StatusCode::OK, &page)?,
        &st,
        token,
        fresh,
    ))
}

/// The posted join form (`games` repeats, one per list ticked), and its fields whose text is
/// refused (`web::text`).
fn parse_join(body: &[u8]) -> (Option<String>, JoinRequest, Vals, Vec<FieldError>) {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_bytes(body).unwrap_or_default();
    let refused = crate::web::text::pair_refusals(&pairs);
    let mut r = JoinRequest::default();
    let mut csrf = None;
    let mut v = Vals::default();
    for (k, val) in pairs {
        match k.as_str() {
            "csrf" => csrf = Some(val),
            "phone" => r.phone = val,
            "name" => r.name = val,
            "games" => {
                if let Ok(g) = val.trim().parse() {
                    r.games.push(g)
                }
            }
            _ => {}
        }
    }
    v.0.insert("phone".into(), r.phone.clone());
    v.0.insert("name".into(), r.name.clone());
    (csrf, r, v, refused)
}

/// A refusal shown on the page it came from, with its status (and `Retry-After` for a 429).
pub(crate) fn refused_page<T: Template>(page: &T, err: &AppError) -> AppResult<HttpResponse> {
    let status = actix_web::ResponseError::status_code(err);
    let mut res = render(status, page)?;
    if let Some(s) = err.retry_after() {
        if let Ok(v) = header::HeaderValue::from_str(&s) {
            res.headers_mut().insert(header::RETRY_AFTER, v);
        }
    }
    Ok(res)
}

async fn join_submit(
    req: HttpRequest,
    st: web::Data<AppState>,
    body: web::Bytes,
) -> AppResult<HttpResponse> {
    let (csrf, mut jr, v, refused) = parse_join(&body);
    check_csrf(&req, csrf.as_deref())?;
    let (token, _) = prelogin(&req);
    if !refused.is_empty() {
        let e = AppError::Validation(refused);
        let page = join_view(&req, &st, token, jr.games.clone(), v, Some(&e)).await?;
        return refused_page(&page, &e);
    }
    let lang = crate::web::ctx::request_lang(&req);
    jr.language = Some(lang);
    let now = st.clock.now();
    let key = join_key(&st);
    let limits = Limits::of(&st.config);
    let address =
        crate::web::client::client_ip(&req, &st.config.server.trusted_proxies).to_string();
    let code = {
        use rand::Rng;
        rj::code_from(rand::rng().random_range(0..1_000_000))
    };
    let page_token = crate::auth::random_token(18);
    let chosen = jr.games.clone();
    let r = st
        .write(move |_, conn| {
            let room = crate::services::room::get(conn)?;
            svc::request_code(
                conn,
                now,
                &key,
                &room,
                &limits,
                Via::Phone,
                &address,
                &jr,
                &code,
                &page_token,
            )
        })
        .await;
    match r {
        Ok(done) => {
            st.metrics
                .join_code(if done.sent { "sent" } else { "blocked" });
            Ok(see_other(&format!("/join/code/{}", done.token)))
        }
        Err(
            e @ (AppError::Validation(_) | AppError::TooManyRequests(_) | AppError::Conflict(_)),
        ) => {
            if matches!(e, AppError::TooManyRequests(_)) {
                st.metrics.join_code("rate_limited");
            }
            let page = join_view(&req, &st, token, chosen, v, Some(&e)).await?;
            refused_page(&page, &e)
        }
        Err(e) => Err(e),
    }
}

/// `GET /join/qr.svg`: the QR code of the join page's absolute address, for the lobby's
/// screen (an image: the pages' CSP allows no inline content).
async fn join_qr(st: web::Data<AppState>) -> HttpResponse {
    let url = format!(
        "{}/join",
        st.config.server.public_base.trim_end_matches('/')
    );
    match qrcode::QrCode::new(url.as_bytes()) {
        Ok(code) => HttpResponse::Ok()
            .content_type("image/svg+xml")
            .insert_header((header::CACHE_CONTROL, "public, max-age=300"))
            .body(
                code.render::<qrcode::render::svg::Color>()
                    .min_dimensions(240, 240)
                    .quiet_zone(true)
                    .build(),
            ),
        Err(_) => HttpResponse::NotFound().finish(),
    }
}

/// The join page's short address as the lobby prints it (without the scheme).
pub fn short_join_address(st: &AppState) -> String {
    let base = st.config.server.public_base.clone();
    let host = base
        .trim_start_matches("https://")
        .trim_start_matches("http://")
        .trim_end_matches('/');
    format!("{host}/join")
}

// ---- /join/code/{token} --------------------------------------------------------------------

#[derive(Template)]
#[template(path = "join/code.html")]
struct CodePage {
    c: Ctx,
    token: String,
    /// The phone, with all but its last three digits hidden.
    phone: String,
    lists: Vec<String>,
    errs: Errs,
    problem: Option<String>,
    /// The code is dead (expired, used, too many tries): offer to start again.
    start_again: bool,
}

pub(crate) fn masked(phone: &str) -> String {
    let n = phone.chars().count();
    phone
        .chars()
        .enumerate()
        .map(|(i, ch)| {
            if i == 0 || i + 3 >= n || !ch.is_ascii_digit() {
                ch
            } else {
                '•'
            }
        })
        .collect()
}

async fn code_view(
    req: &HttpRequest,
    st: &AppState,
    token: String,
    err: Option<&AppError>,
) -> AppResult<CodePage> {
    let (csrf, _) = prelogin(req);
    let (c, _) = public_ctx(req, st, csrf).await?;
    let key = join_key(st);
    let t = token.clone();
    let (r, names) = st
        .run(move |_, conn| {
            let r = svc::code_request(conn, &key, &t)?;
            let names = crate::services::lookups::game_names(conn, &r.games)?;
            Ok((r, names))
        })
        .await?;
    let (errs, problem) = match err {
        Some(AppError::Validation(fs)) => (c.errors(fs), None),
        Some(e) => (
            Errs::default(),
            Some(crate::web::errors::refusal_text(&st.i18n, c.lang, e)),
        ),
        None => (Errs::default(), None),
    };
    Ok(CodePage {
        start_again: matches!(err, Some(AppError::Conflict(_))),
        c,
        token,
        phone: masked(&r.phone),
        lists: names,
        errs,
        problem,
    })
}

async fn code_page(
    req: HttpRequest,
    st: web::Data<AppState>,
    path: web::Path<String>,
) -> AppResult<HttpResponse> {
    let (token, fresh) = prelogin(&req);
    let page = code_view(&req, &st, path.into_inner(), None).await?;
    Ok(with_prelogin(
        render(StatusCode::OK, &page)?,
        &st,
        token,
        fresh,
    ))
}

#[derive(Deserialize)]
struct CodeForm {
    code: String,
}

#[derive(Template)]
#[template(path = "join/done.html")]
struct DonePage {
    c: Ctx,
    /// A guest: the lists and the places kept.
    places: Vec<(String, usize)>,
    already: Vec<String>,
    skipped: Vec<String>,
    /// The neutral answer (module documentation of `services::join`).
    see_desk: bool,
    /// Minutes a guest has to register at the desk before the place lapses.
    minutes: i32,
}

async fn code_submit(
    req: HttpRequest,
    st: web::Data<AppState>,
    path: web::Path<String>,
    form: CsrfForm<CodeForm>,
) -> AppResult<HttpResponse> {
    let token = path.into_inner();
    let typed = form.0.code;
    let now = st.clock.now();
    let key = join_key(&st);
    let t = token.clone();
    let day_ends = st.config.room.gaming_day_ends;
    let r = st
        .write(move |st, conn| {
            let room = crate::services::room::get(conn)?;
            let v = svc::verify_code(conn, now, &key, &room, &t, &typed)?;
            // A registered player goes on to their own page: the link as of now.
            let link = match &v {
                Ok(Verified::Player { player_id, .. }) => Some(crate::notify::link::issue_for(
                    conn, &st.keys, *player_id, now, room.tz, day_ends,
                )?),
                _ => None,
            };
            Ok((v, link, room.profile.call_in_expiry_min))
        })
        .await?;
    match r {
        (Ok(v), link, minutes) => {
            st.metrics.join_code("verified");
            // On a list (new or already): on to their page. Nothing joined (the lists closed
            // meanwhile): the page says which.
            let on_a_list = matches!(&v, Verified::Player { joined, already, .. } if !joined.is_empty() || !already.is_empty());
            if let (true, Some(link)) = (on_a_list, link) {
                let mut res = see_other(&format!("/p/{link}?joined=1"));
                res.add_cookie(&player_link_cookie(&st, &link)).ok();
                return Ok(res);
            }
            let (csrf, _) = prelogin(&req);
            let (c, _) = public_ctx(&req, &st, csrf).await?;
            let page = match v {
                Verified::Guest {
                    places,
                    already,
                    skipped,
                    ..
                } => DonePage {
                    c,
                    places,
                    already,
                    skipped,
                    see_desk: false,
                    minutes,
                },
                Verified::Player { skipped, .. } => DonePage {
                    c,
                    places: Vec::new(),
                    already: Vec::new(),
                    skipped,
                    see_desk: false,
                    minutes,
                },
                Verified::SeeDesk => DonePage {
                    c,
                    places: Vec::new(),
                    already: Vec::new(),
                    skipped: Vec::new(),
                    see_desk: true,
                    minutes,
                },
            };
            render(StatusCode::OK, &page)
        }
        (Err(e), _, _) => {
            if !matches!(&e, AppError::Validation(fs) if fs.iter().any(|f| f.key == "err-join-code-format"))
            {
                st.metrics.join_code("failed");
            }
            let page = code_view(&req, &st, token, Some(&e)).await?;
            refused_page(&page, &e)
        }
    }
}

// ---- the desk's check-in code ----------------------------------------------------------------

#[derive(Template)]
#[template(path = "join/desk_qr.html")]
struct DeskQrPage {
    c: Ctx,
    qr: Option<String>,
    address: String,
}

/// `GET /floor/desk-qr`: a screen at the desk showing the QR code of a check-in address that
/// changes every few minutes (`domain::remote_join::DESK_PERIOD_SECS`); the page reloads
/// itself (a `<meta>` refresh: no script).
async fn desk_qr(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
) -> AppResult<HttpResponse> {
    let c = super::ctx(&req, &st, &who.0).await?;
    let token = rj::desk_token(&join_key(&st), c.now);
    let address = format!(
        "{}/join/here/{token}",
        st.config.server.public_base.trim_end_matches('/')
    );
    render(
        StatusCode::OK,
        &DeskQrPage {
            qr: super::tablet::pairing::qr_data_url(&address),
            address,
            c,
        },
    )
}

#[derive(Template)]
#[template(path = "join/here.html")]
struct HerePage {
    c: Ctx,
    /// stale | no_link | none
    problem: &'static str,
}

/// `GET /join/here/{token}` (BSOP 43): scanned from the desk's screen with the player's link
/// remembered on this phone by the join flow: their entries waiting for a check-in are
/// checked in, and they land on their page. Without it: what to do. An old code: scan again.
async fn desk_check_in(
    req: HttpRequest,
    st: web::Data<AppState>,
    path: web::Path<String>,
) -> AppResult<HttpResponse> {
    let now = st.clock.now();
    let here = |problem: &'static str, status: StatusCode| {
        let req = req.clone();
        let st = st.clone();
        async move {
            let (c, _) = public_ctx(&req, &st, String::new()).await?;
            render(status, &HerePage { c, problem })
        }
    };
    if !rj::desk_token_valid(&join_key(&st), &path.into_inner(), now) {
        return here("stale", StatusCode::GONE).await;
    }
    let Some(link) = req
        .cookie(PLAYER_LINK_COOKIE)
        .map(|c| c.value().to_string())
    else {
        return here("no_link", StatusCode::OK).await;
    };
    let l = link.clone();
    let checked = st
        .write(move |st, conn| {
            match crate::notify::link::verify(
                conn,
                &st.keys,
                &l,
                crate::notify::link::Purpose::PlayerPage,
                now,
            ) {
                Ok(claims) => svc::check_in_at_desk(conn, now, PlayerId(claims.sub)).map(Some),
                Err(_) => Ok(None),
            }
        })
        .await?;
    match checked {
        Some(_) => Ok(see_other(&format!("/p/{link}?checked_in=1"))),
        None => here("no_link", StatusCode::OK).await,
    }
}

// ---- blocked phones ----------------------------------------------------------------------------

#[derive(Template)]
#[template(path = "join/phones.html")]
struct PhonesPage {
    c: Ctx,
    blocks: Vec<svc::Block>,
    v: Vals,
    errs: Errs,
    problem: Option<String>,
    saved: Option<String>,
}

async fn phones_view(
    req: &HttpRequest,
    st: &AppState,
    who: &FloorStaff,
    v: Vals,
    err: Option<&AppError>,
    saved: Option<String>,
) -> AppResult<PhonesPage> {
    let c = super::ctx(req, st, &who.0).await?;
    let blocks = st.run(|_, conn| svc::blocks(conn)).await?;
    let (errs, problem) = match err {
        Some(AppError::Validation(fs)) => (c.errors(fs), None),
        Some(e) => (
            Errs::default(),
            Some(crate::web::errors::refusal_text(&st.i18n, c.lang, e)),
        ),
        None => (Errs::default(), None),
    };
    Ok(PhonesPage {
        c,
        blocks,
        v,
        errs,
        problem,
        saved,
    })
}

#[derive(Deserialize)]
struct SavedQuery {
    saved: Option<String>,
}

async fn phones_page(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    q: web::Query<SavedQuery>,
) -> AppResult<HttpResponse> {
    let page = phones_view(&req, &st, &who, Vals::default(), None, q.into_inner().saved).await?;
    render(StatusCode::OK, &page)
}

#[derive(Deserialize, serde::Serialize)]
struct BlockForm {
    phone: String,
    #[serde(default)]
    reason: String,
}

async fn phones_block(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    form: CsrfForm<BlockForm>,
) -> AppResult<HttpResponse> {
    let f = form.0;
    let v = Vals::of(&f);
    let acting = who.acting;
    let r = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            svc::block_phone(conn, act, &f.phone, &f.reason)
        })
        .await;
    match r {
        Ok(_) => Ok(see_other("/floor/phones?saved=blocked")),
        Err(e @ (AppError::Validation(_) | AppError::Conflict(_))) => {
            let page = phones_view(&req, &st, &who.who, v, Some(&e), None).await?;
            refused_page(&page, &e)
        }
        Err(e) => Err(e),
    }
}

#[derive(Deserialize)]
struct UnblockForm {
    phone: String,
}

async fn phones_unblock(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    form: CsrfForm<UnblockForm>,
) -> AppResult<HttpResponse> {
    let phone = form.0.phone;
    let acting = who.acting;
    st.write(move |_, conn| {
        let act = &acting.in_room(conn)?;
        svc::unblock_phone(conn, act, &phone)
    })
    .await?;
    Ok(see_other("/floor/phones?saved=unblocked"))
}

#[derive(Deserialize)]
struct ReasonForm {
    #[serde(default)]
    reason: String,
}

/// The floor takes a guest's kept place off a list (the board's ✕ beside the guest).
async fn guest_remove(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<i64>,
    form: CsrfForm<ReasonForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let reason = form.0.reason;
    let acting = who.acting;
    st.write(move |_, conn| {
        let act = &acting.in_room(conn)?;
        svc::remove_guest_entry(conn, act, id, &reason)
    })
    .await?;
    Ok(see_other("/floor"))
}
