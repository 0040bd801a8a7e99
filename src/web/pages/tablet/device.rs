//! The paired device: its cookie, and the tablet (and table) it names.

use crate::auth::{self, TokenKind};
use crate::db::models::TabletRow;
use crate::error::{AppError, AppResult};
use crate::services::tablets;
use crate::web::state::AppState;
use actix_web::cookie::{time::Duration as CookieDuration, Cookie, SameSite};
use actix_web::HttpRequest;

pub use crate::web::cookies::DEVICE_COOKIE;

pub(super) const PAIRING_COOKIE: &str = "cr_pairing";

/// A paired tablet stays paired for a year (or until revoked).
pub(crate) const DEVICE_HOURS: u32 = 24 * 365;

pub(crate) fn device_cookie(st: &AppState, token: String) -> Cookie<'static> {
    Cookie::build(DEVICE_COOKIE, token)
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(st.config.server.secure_cookies)
        .max_age(CookieDuration::hours(DEVICE_HOURS as i64))
        .finish()
}

/// The tablet this browser is, if its device token is valid and the tablet still paired.
pub(super) async fn device(req: &HttpRequest, st: &AppState) -> AppResult<Option<TabletRow>> {
    let Some(c) = req.cookie(DEVICE_COOKIE) else {
        return Ok(None);
    };
    let Ok(claims) = auth::verify(&st.keys, c.value(), TokenKind::Device, st.clock.now()) else {
        return Ok(None);
    };
    st.run(move |_, conn| tablets::active(conn, claims.sub, claims.ver))
        .await
}

/// The tablet, or the refusal for a browser that is not (or no longer) a paired tablet.
pub(crate) async fn this_tablet(req: &HttpRequest, st: &AppState) -> AppResult<TabletRow> {
    device(req, st)
        .await?
        .ok_or_else(|| AppError::Forbidden(crate::domain::Problem::new("err-tablet-not-paired")))
}
