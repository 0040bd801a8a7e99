//! Server-rendered pages (askama). Handlers extract, call a service, render.

pub mod account;
pub mod admin;
pub mod backups;
pub mod buttons;
pub mod cagnotte;
pub mod floor;
pub mod floor_board;
pub mod join;
pub mod kiosk;
pub mod limits;
pub mod lobby;
pub mod my_night;
pub mod outbox;
pub mod player_link;
pub mod players;
pub mod reports;
pub mod rulings;
pub mod table_side;
pub mod tablet;
pub mod tap;

use super::ctx::{Ctx, Errs, LANG_COOKIE};
use super::extract::{authenticate, AnyStaff, Authed, CsrfForm, PRELOGIN_COOKIE, SESSION_COOKIE};
use crate::auth::{self, random_token, TokenKind};
use crate::domain::player::Language;
use crate::error::{AppError, AppResult};
use crate::services;
use crate::services::sessions::{self, EndReason, SessionKind};
pub use crate::web::paths::safe_next;
use crate::web::state::AppState;
use actix_web::cookie::{time::Duration as CookieDuration, Cookie, SameSite};
use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use askama_web::WebTemplate;
use serde::{Deserialize, Serialize};

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/", web::get().to(dashboard))
        .route("/login", web::get().to(login_page))
        .route("/login", web::post().to(login_submit))
        .route("/logout", web::post().to(logout))
        .route("/lang/{code}", web::post().to(set_lang))
        .route("/account/password", web::get().to(password_page))
        .route("/account/password", web::post().to(password_submit))
        .configure(account::routes)
        .configure(my_night::routes)
        .configure(players::routes)
        .configure(backups::routes)
        .configure(floor::routes)
        .configure(floor_board::routes)
        .configure(lobby::routes)
        .configure(limits::routes)
        .configure(join::routes)
        .configure(kiosk::routes)
        .configure(tablet::routes)
        .configure(table_side::routes)
        .configure(buttons::routes)
        .configure(rulings::routes)
        .configure(admin::routes)
        .configure(outbox::routes)
        .configure(reports::routes)
        .configure(cagnotte::routes)
        .configure(player_link::routes);
}

/// Renders a template with a status (forms shown again with their errors use 422).
pub fn render<T: Template>(status: StatusCode, t: &T) -> AppResult<HttpResponse> {
    let html = t
        .render()
        .map_err(|e| AppError::internal_from("template", e))?;
    Ok(HttpResponse::build(status)
        .content_type("text/html; charset=utf-8")
        .body(html))
}

/// A 303 redirect (after a successful POST).
pub fn see_other(to: &str) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header((header::LOCATION, to.to_string()))
        .finish()
}

/// Builds the page context for a signed-in staff member.
pub async fn ctx(req: &HttpRequest, st: &AppState, a: &Authed) -> AppResult<Ctx> {
    let room = st.run(|_, c| services::room::get(c)).await?;
    let mut c = Ctx::new(
        req,
        st.i18n.clone(),
        &room,
        Some(a.staff.clone()),
        a.claims.csrf.clone(),
        st.clock.now(),
    );
    // A scheduled backup that failed is everyone's problem until one succeeds (admins and floor).
    if matches!(a.staff.role.as_str(), "admin" | "floor") {
        if let Some((t, _)) = st
            .backups
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .failing()
        {
            c.alert = Some((t.naive_utc(), a.staff.role == "admin"));
        }
    }
    if a.staff.role == "admin" {
        let failed = st
            .audit_check
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .as_ref()
            .and_then(|c| c.problem.map(|p| (c.at, p)));
        if let Some((at, (problem, _))) = failed {
            c.audit_alert = Some(format!(
                "{} {}",
                c.t1("audit-alert", "time", c.dt(at.naive_utc())),
                c.tk("admin-audit-broken-", problem)
            ));
        }
    }
    // A staff member's saved language applies unless this browser chose another.
    if req.cookie(LANG_COOKIE).is_none() {
        if let Some(l) = a
            .staff
            .language
            .as_deref()
            .and_then(|l| l.parse::<Language>().ok())
        {
            c.lang = l;
        }
    }
    Ok(c)
}

#[derive(Template, WebTemplate)]
#[template(path = "login.html")]
struct LoginPage {
    c: Ctx,
    username: String,
    next: String,
    error: Option<String>,
}

#[derive(Deserialize)]
struct NextQuery {
    next: Option<String>,
}

async fn anonymous_ctx(req: &HttpRequest, st: &AppState, csrf: String) -> AppResult<Ctx> {
    let room = st.run(|_, c| services::room::get(c)).await?;
    Ok(Ctx::new(
        req,
        st.i18n.clone(),
        &room,
        None,
        csrf,
        st.clock.now(),
    ))
}

fn prelogin_token(req: &HttpRequest) -> (String, bool) {
    match req
        .cookie(PRELOGIN_COOKIE)
        .map(|c| c.value().to_string())
        .filter(|v| v.len() >= 16)
    {
        Some(v) => (v, false),
        None => (random_token(24), true),
    }
}

fn prelogin_cookie(value: String, secure: bool) -> Cookie<'static> {
    Cookie::build(PRELOGIN_COOKIE, value)
        .path("/")
        .http_only(true)
        .same_site(SameSite::Strict)
        .secure(secure)
        .finish()
}

async fn login_page(
    req: HttpRequest,
    st: web::Data<AppState>,
    q: web::Query<NextQuery>,
) -> AppResult<HttpResponse> {
    let (token, fresh) = prelogin_token(&req);
    let c = anonymous_ctx(&req, &st, token.clone()).await?;
    let page = LoginPage {
        c,
        username: String::new(),
        next: safe_next(q.next.as_deref()),
        error: None,
    };
    let mut res = render(StatusCode::OK, &page)?;
    if fresh {
        res.add_cookie(&prelogin_cookie(token, st.config.server.secure_cookies))
            .ok();
    }
    // Whoever comes to sign in starts afresh: an old session cookie (ended by a password or
    // role change) would otherwise make the form's CSRF check fail.
    if req.cookie(SESSION_COOKIE).is_some() {
        let mut gone = session_cookie(&st, String::new());
        gone.make_removal();
        res.add_cookie(&gone).ok();
    }
    Ok(res)
}

#[derive(Deserialize)]
struct LoginForm {
    username: String,
    password: String,
    next: Option<String>,
}

pub fn session_cookie(st: &AppState, token: String) -> Cookie<'static> {
    Cookie::build(SESSION_COOKIE, token)
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(st.config.server.secure_cookies)
        .max_age(CookieDuration::hours(st.config.server.session_hours as i64))
        .finish()
}

async fn login_submit(
    req: HttpRequest,
    st: web::Data<AppState>,
    form: CsrfForm<LoginForm>,
) -> AppResult<HttpResponse> {
    let f = form.0;
    let now = st.clock.now();
    let from = crate::web::client::sign_in_from(&req, &st, SessionKind::Web);
    match st
        .sign_in(f.username.clone(), f.password.clone(), from)
        .await?
    {
        Ok((staff, session)) => {
            let (token, _) = auth::issue(
                &st.keys,
                staff.id,
                staff.token_version,
                TokenKind::Web,
                &session.id,
                now,
                st.config.server.session_hours,
            );
            // Where they were going, else where their work is (the floor's board, the
            // dealer's tablet, the cashier's custody).
            let next = safe_next(f.next.as_deref());
            let to = if next == "/" {
                crate::web::ctx::home_of(&staff.role).to_string()
            } else {
                next
            };
            let mut res = see_other(&to);
            res.add_cookie(&session_cookie(&st, token)).ok();
            if let Some(l) = staff.language.as_deref() {
                res.add_cookie(
                    &Cookie::build(LANG_COOKIE, l.to_string())
                        .path("/")
                        .same_site(SameSite::Lax)
                        .finish(),
                )
                .ok();
            }
            Ok(res)
        }
        Err(e) => {
            let (token, _) = prelogin_token(&req);
            let c = anonymous_ctx(&req, &st, token).await?;
            let (message, _) = super::errors::describe(&st.i18n, c.lang, &e);
            let status = actix_web::ResponseError::status_code(&e);
            let page = LoginPage {
                c,
                username: f.username,
                next: safe_next(f.next.as_deref()),
                error: Some(message),
            };
            let mut res = render(status, &page)?;
            if let Some(secs) = e.retry_after() {
                if let Ok(v) = header::HeaderValue::from_str(&secs) {
                    res.headers_mut().insert(header::RETRY_AFTER, v);
                }
            }
            Ok(res)
        }
    }
}

#[derive(Deserialize)]
pub struct Empty {}

/// Signs out: the session ends on the server at once (a copy of the cookie kept elsewhere
/// is refused from now on), and the browser forgets it.
async fn logout(
    req: HttpRequest,
    st: web::Data<AppState>,
    _form: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    if let Ok(a) = authenticate(&req).await {
        let now = st.clock.now();
        st.write(move |_, c| {
            let actor = services::staff::actor(&a.staff);
            sessions::end(
                c,
                now,
                &actor,
                a.staff.id,
                &a.claims.sid,
                EndReason::SignedOut,
            )
        })
        .await?;
    }
    let mut res = see_other("/login");
    let mut gone = session_cookie(&st, String::new());
    gone.make_removal();
    res.add_cookie(&gone).ok();
    Ok(res)
}

/// Switches the language (a small form in the top bar, CSRF-checked like every form); a
/// signed-in staff member keeps the choice for their next sign-in.
async fn set_lang(
    req: HttpRequest,
    st: web::Data<AppState>,
    path: web::Path<String>,
    form: CsrfForm<NextQuery>,
) -> AppResult<HttpResponse> {
    let lang: Language = path.parse().map_err(|_| AppError::NotFound)?;
    let q = form.0;
    if let Ok(a) = authenticate(&req).await {
        let now = st.clock.now();
        st.write(move |_, c| services::staff::set_language(c, now, &a.staff, lang))
            .await?;
    }
    let mut res = see_other(&safe_next(q.next.as_deref()));
    res.add_cookie(
        &Cookie::build(LANG_COOKIE, lang.to_string())
            .path("/")
            .same_site(SameSite::Lax)
            .max_age(CookieDuration::days(365))
            .finish(),
    )
    .ok();
    Ok(res)
}

#[derive(Template, WebTemplate)]
#[template(path = "dashboard.html")]
struct Dashboard {
    c: Ctx,
    players: i64,
    games: usize,
    tables: usize,
    tables_with_game: usize,
    /// Active tables with their game, for everyone on the floor (dealers included).
    table_list: Vec<(
        crate::db::models::TableRow,
        Option<crate::db::models::GameRow>,
    )>,
}

async fn dashboard(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: AnyStaff,
) -> AppResult<Dashboard> {
    let c = ctx(&req, &st, &who.0).await?;
    let (players, games, tables) = st
        .run(|_, conn| {
            Ok((
                services::players::count(conn)?,
                services::games::list_games(conn)?,
                services::games::list_tables(conn)?,
            ))
        })
        .await?;
    Ok(Dashboard {
        c,
        players,
        games: games.iter().filter(|g| g.active).count(),
        tables: tables.iter().filter(|(t, _)| t.active).count(),
        tables_with_game: tables
            .iter()
            .filter(|(t, g)| t.active && g.is_some())
            .count(),
        table_list: tables.into_iter().filter(|(t, _)| t.active).collect(),
    })
}

#[derive(Template, WebTemplate)]
#[template(path = "password.html")]
struct PasswordPage {
    c: Ctx,
    errs: Errs,
    done: bool,
}

async fn password_page(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: AnyStaff,
) -> AppResult<PasswordPage> {
    let c = ctx(&req, &st, &who.0).await?;
    Ok(PasswordPage {
        c,
        errs: Errs::default(),
        done: false,
    })
}

async fn password_submit(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: AnyStaff,
    form: CsrfForm<services::staff::PasswordChange>,
) -> AppResult<HttpResponse> {
    let now = st.clock.now();
    let me = who.0.staff.clone();
    let change = form.0;
    let from = crate::web::client::sign_in_from(&req, &st, SessionKind::Web);
    let hours = st.config.server.session_hours;
    match st
        .write(move |_, c| {
            let updated = services::staff::change_password(c, now, &me, &change)?;
            let s = sessions::open(
                c,
                now,
                &updated,
                from.kind,
                hours,
                &from.user_agent,
                &from.address,
            )?;
            Ok((updated, s))
        })
        .await
    {
        Ok((updated, session)) => {
            // This browser stays signed in with a fresh session; every other one is ended.
            let (token, claims) = auth::issue(
                &st.keys,
                updated.id,
                updated.token_version,
                TokenKind::Web,
                &session.id,
                now,
                st.config.server.session_hours,
            );
            let authed = Authed {
                staff: updated,
                claims,
            };
            let c = ctx(&req, &st, &authed).await?;
            let mut res = render(
                StatusCode::OK,
                &PasswordPage {
                    c,
                    errs: Errs::default(),
                    done: true,
                },
            )?;
            res.add_cookie(&session_cookie(&st, token)).ok();
            Ok(res)
        }
        Err(AppError::Validation(fields)) => {
            let c = ctx(&req, &st, &who.0).await?;
            let errs = c.errors(&fields);
            render(
                StatusCode::UNPROCESSABLE_ENTITY,
                &PasswordPage {
                    c,
                    errs,
                    done: false,
                },
            )
        }
        Err(e) => Err(e),
    }
}

/// Shared by list pages: a query string `q`.
#[derive(Debug, Default, Deserialize, Serialize)]
pub struct SearchQuery {
    pub q: Option<String>,
}

/// An amount typed in a form, in the room's currency.
pub fn money_field(field: &str, s: &str, currency: &str) -> crate::error::AppResult<i64> {
    if s.trim().is_empty() {
        return Err(crate::error::AppError::field(field, "err-required"));
    }
    crate::domain::money::parse_money(s, currency)
        .ok_or_else(|| crate::error::AppError::field(field, "err-money"))
}
