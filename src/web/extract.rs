//! Who is asking: session cookie (pages) or Bearer token (API), role checks, CSRF-checked forms.

use crate::auth::{self, same_token, Claims, TokenError, TokenKind};
use crate::db::models::StaffRow;
use crate::domain::ids::TableId;
use crate::domain::Problem;
use crate::error::AppError;
use crate::services::{sessions, staff, Acting};
use crate::web::state::AppState;
use actix_web::dev::Payload;
use actix_web::http::{header, Method};
use actix_web::{web, FromRequest, HttpMessage, HttpRequest};
use futures_util::future::LocalBoxFuture;
use serde::de::DeserializeOwned;

pub const SESSION_COOKIE: &str = "cr_session";
pub const PRELOGIN_COOKIE: &str = "cr_pre";

/// What a staff member signed in with a one-time password may still reach.
const PASSWORD_CHANGE_PATHS: &[&str] = &[
    "/account/password",
    "/logout",
    "/api/v1/auth/password",
    "/api/v1/me",
];

/// A signed-in staff member (loaded fresh from the database on every request, so a role
/// change, a deactivation or a password change takes effect at once).
#[derive(Clone)]
pub struct Authed {
    pub staff: StaffRow,
    pub claims: Claims,
}

pub fn state(req: &HttpRequest) -> web::Data<AppState> {
    req.app_data::<web::Data<AppState>>()
        .cloned()
        .expect("AppState is registered")
}

fn bearer(req: &HttpRequest) -> Option<String> {
    let h = req.headers().get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = h.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim().to_string())
}

fn token_problem(e: TokenError) -> AppError {
    AppError::Unauthorized(Problem::new(match e {
        TokenError::Expired => "err-session-expired",
        TokenError::Invalid | TokenError::WrongKind => "err-token-invalid",
    }))
}

pub async fn authenticate(req: &HttpRequest) -> Result<Authed, AppError> {
    if let Some(a) = req.extensions().get::<Authed>() {
        return Ok(a.clone());
    }
    let st = state(req);
    let is_api = req.path().starts_with("/api/");
    let (token, kind) = if is_api {
        (
            bearer(req).ok_or_else(|| AppError::Unauthorized(Problem::new("err-sign-in-api")))?,
            TokenKind::Api,
        )
    } else {
        let c = req
            .cookie(SESSION_COOKIE)
            .ok_or_else(|| AppError::Unauthorized(Problem::new("err-sign-in")))?;
        (c.value().to_string(), TokenKind::Web)
    };
    let now = st.clock.now();
    let claims = auth::verify(&st.keys, &token, kind, now).map_err(token_problem)?;
    let id = claims.sub;
    let sid = claims.sid.clone();
    // The staff member (fresh: a role change or deactivation counts at once) and the
    // session row the token names (signed out or ended: refused at once).
    let (staff, session) = st
        .run(move |_, c| sessions::check(c, now, &sid, id))
        .await?;
    if !staff.active || staff.token_version != claims.ver {
        return Err(AppError::Unauthorized(Problem::new("err-session-ended")));
    }
    if sessions::needs_touch(&session, now) {
        let sid = session.id.clone();
        // Best effort: a failure to note the last use must not refuse the request.
        if let Err(e) = st.write(move |_, c| sessions::touch(c, now, &sid)).await {
            tracing::warn!("could not record a session's last use: {e}");
        }
    }
    // A one-time password opens only the way to choose a new one.
    if staff.must_change_password && !PASSWORD_CHANGE_PATHS.contains(&req.path()) {
        return Err(AppError::Forbidden(Problem::new(
            "err-password-change-required",
        )));
    }
    let a = Authed { staff, claims };
    req.extensions_mut().insert(a.clone());
    Ok(a)
}

/// Middleware: signs the request in before the handler's arguments are extracted, so the
/// role check is already settled when a body is parsed — a refused role always answers
/// 403, whatever the body holds. (Failures are left for the extractors to report.)
pub async fn preauthenticate(
    req: actix_web::dev::ServiceRequest,
    next: actix_web::middleware::Next<impl actix_web::body::MessageBody + 'static>,
) -> Result<
    actix_web::dev::ServiceResponse<
        actix_web::body::EitherBody<impl actix_web::body::MessageBody, actix_web::body::BoxBody>,
    >,
    actix_web::Error,
> {
    let has_credentials =
        req.headers().contains_key(header::AUTHORIZATION) || req.cookie(SESSION_COOKIE).is_some();
    if has_credentials {
        if let Ok(a) = authenticate(req.request()).await {
            if let Err(e) = dealer_scope(req.request(), &a).await {
                // Answered here, as a handler's refusal would be (the outer middleware puts
                // it in the reader's language).
                // (`into_parts` + `ServiceResponse::new` keeps the error on the response,
                // which the localizing middleware reads; `into_response` would drop it.)
                let res = actix_web::HttpResponse::from_error(e);
                let (r, _) = req.into_parts();
                return Ok(actix_web::dev::ServiceResponse::new(r, res).map_into_right_body());
            }
        }
    }
    next.call(req).await.map(|r| r.map_into_left_body())
}

/// A dealer changes only their own table (the paired tablet's, or the one the
/// floor assigned them for the shift); checked before the handler — and its body — run.
async fn dealer_scope(req: &HttpRequest, a: &Authed) -> Result<(), AppError> {
    use crate::services::dealer_scope::{self, subject_of};
    if a.staff.role != "dealer" || matches!(*req.method(), Method::GET | Method::HEAD) {
        return Ok(());
    }
    let Some(subject) = subject_of(req.path()) else {
        return Ok(());
    };
    let st = state(req);
    let now = st.clock.now();
    let device = req
        .cookie(crate::web::cookies::DEVICE_COOKIE)
        .and_then(|c| auth::verify(&st.keys, c.value(), TokenKind::Device, now).ok());
    let staff = a.staff.clone();
    st.run(move |_, c| {
        let tablet_table = match device {
            Some(d) => crate::services::tablets::active(c, d.sub, d.ver)?.map(|t| t.table_id),
            None => None,
        };
        dealer_scope::check(c, &staff, tablet_table.map(TableId::get), subject)
    })
    .await
}

/// A role extractor: the signed-in staff member it let through.
pub trait StaffRole {
    fn authed(&self) -> &Authed;
}

/// A staff member of role `R` acting now: the role check, and who acts and when for the
/// service ([`Acting`]), in one value. The time is the clock's when the request is read.
pub struct ActingAs<R> {
    pub who: R,
    pub acting: Acting,
}

impl<R> FromRequest for ActingAs<R>
where
    R: StaffRole + FromRequest<Error = AppError> + 'static,
    R::Future: 'static,
{
    type Error = AppError;
    type Future = LocalBoxFuture<'static, Result<Self, AppError>>;
    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let role = R::from_request(req, payload);
        let st = state(req);
        Box::pin(async move {
            let who = role.await?;
            let acting = Acting::new(st.clock.now(), staff::actor(&who.authed().staff));
            Ok(ActingAs { who, acting })
        })
    }
}

macro_rules! role_extractor {
    ($(#[$m:meta])* $name:ident, [$($role:literal),+]) => {
        $(#[$m])*
        pub struct $name(pub Authed);
        impl $name {
            pub const ROLES: &'static [&'static str] = &[$($role),+];
        }
        impl StaffRole for $name {
            fn authed(&self) -> &Authed {
                &self.0
            }
        }
        impl FromRequest for $name {
            type Error = AppError;
            type Future = LocalBoxFuture<'static, Result<Self, AppError>>;
            fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
                let req = req.clone();
                // Already signed in by `preauthenticate`: answer at once, before any body.
                let cached = req.extensions().get::<Authed>().cloned();
                if let Some(a) = cached {
                    let r = if Self::ROLES.contains(&a.staff.role.as_str()) {
                        Ok($name(a))
                    } else {
                        Err(AppError::Forbidden(Problem::new("err-forbidden")))
                    };
                    return Box::pin(std::future::ready(r));
                }
                Box::pin(async move {
                    let a = authenticate(&req).await?;
                    if Self::ROLES.contains(&a.staff.role.as_str()) {
                        Ok($name(a))
                    } else {
                        Err(AppError::Forbidden(Problem::new("err-forbidden")))
                    }
                })
            }
        }
    };
}

role_extractor!(/** Any signed-in staff member. */ AnyStaff, ["admin", "floor", "dealer", "cashier"]);
role_extractor!(/** Who may look up players: admin, floor, cashier. */ RegistryReader, ["admin", "floor", "cashier"]);
role_extractor!(/** Who runs a table from its tablet: admin, floor, dealer. */ DealerStaff, ["admin", "floor", "dealer"]);
role_extractor!(/** Who keeps the registry and the floor: admin, floor. */ FloorStaff, ["admin", "floor"]);
role_extractor!(/** Configuration, staff accounts, audit: admin. */ AdminStaff, ["admin"]);

/// The CSRF token this browser must send back: the session's, or before sign-in the
/// pre-login cookie's.
pub fn expected_csrf(req: &HttpRequest) -> Option<String> {
    let st = state(req);
    if let Some(c) = req.cookie(SESSION_COOKIE) {
        if let Ok(claims) = auth::verify(&st.keys, c.value(), TokenKind::Web, st.clock.now()) {
            return Some(claims.csrf);
        }
    }
    req.cookie(PRELOGIN_COOKIE)
        .map(|c| c.value().to_string())
        .filter(|v| v.len() >= 16)
}

pub fn check_csrf(req: &HttpRequest, given: Option<&str>) -> Result<(), AppError> {
    match (expected_csrf(req), given) {
        (Some(e), Some(g)) if same_token(&e, g) => Ok(()),
        _ => Err(AppError::Forbidden(Problem::new("err-csrf"))),
    }
}

/// An URL-encoded form whose `csrf` field matches the session, its text checked
/// (`web::text`): every page form uses it.
pub struct CsrfForm<T>(pub T);

/// The `tapped_at` field of a form, as sent (RFC 3339): when a dealer tablet's tap was made,
/// read by `services::table_side::when_tapped`.
#[derive(Debug, Clone)]
pub struct TappedAt(pub String);

impl<T: DeserializeOwned + 'static> FromRequest for CsrfForm<T> {
    type Error = AppError;
    type Future = LocalBoxFuture<'static, Result<Self, AppError>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let req = req.clone();
        let is_form = req.content_type() == "application/x-www-form-urlencoded";
        let body = web::Bytes::from_request(&req, payload);
        Box::pin(async move {
            if !is_form {
                return Err(AppError::UnsupportedMedia(Problem::new("err-content-type")));
            }
            let body = body
                .await
                .map_err(|_| AppError::TooLarge(Problem::new("err-too-large")))?;
            let pairs: Vec<(String, String)> = serde_urlencoded::from_bytes(&body)
                .map_err(|_| AppError::BadRequest(Problem::new("err-bad-request")))?;
            let given = pairs
                .iter()
                .find(|(k, _)| k == "csrf")
                .map(|(_, v)| v.as_str());
            check_csrf(&req, given)?;
            // Every field's text, by the room's rule (`web::text`): 422 naming the field.
            crate::web::text::check_pairs(&pairs)?;
            // A dealer tablet's tap sends when it was made (`tapped_at`): kept for the handler.
            if let Some((_, v)) = pairs.iter().find(|(k, _)| k == "tapped_at") {
                req.extensions_mut().insert(TappedAt(v.clone()));
            }
            let t: T = serde_urlencoded::from_bytes(&body)
                .map_err(|e| AppError::BadRequest(Problem::new("err-form").arg("detail", e)))?;
            Ok(CsrfForm(t))
        })
    }
}
