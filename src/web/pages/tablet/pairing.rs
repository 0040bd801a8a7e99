//! Pairing a tablet: the page with its short code (and QR code) for the floor to enter, and
//! the status the page polls until the floor has paired it.

use super::device::{device_cookie, DEVICE_HOURS, PAIRING_COOKIE};
use crate::auth::{self, TokenKind};
use crate::error::{AppError, AppResult};
use crate::services::{self, tablets};
use crate::web::ctx::Ctx;
use crate::web::pages::render;
use crate::web::state::AppState;
use actix_web::cookie::{time::Duration as CookieDuration, Cookie, SameSite};
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;

#[derive(Template)]
#[template(path = "tablet/pair.html")]
pub(super) struct PairPage {
    c: Ctx,
    code: String,
    expires_at: chrono::NaiveDateTime,
    /// The floor's pairing form with this code filled in, and its QR code.
    link: String,
    qr: Option<String>,
}

/// A QR code as an `<img src>` (SVG, base64 data URL; the page's CSP allows `data:` images).
pub(crate) fn qr_data_url(text: &str) -> Option<String> {
    use base64::Engine;
    let code = qrcode::QrCode::new(text.as_bytes()).ok()?;
    let svg = code
        .render::<qrcode::render::svg::Color>()
        .min_dimensions(240, 240)
        .quiet_zone(true)
        .build();
    Some(format!(
        "data:image/svg+xml;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(svg)
    ))
}

pub(super) async fn pairing_page(req: &HttpRequest, st: &AppState) -> AppResult<HttpResponse> {
    let now = st.clock.now();
    // The same browser keeps its code while it is valid (a reload does not change it).
    let kept = match req.cookie(PAIRING_COOKIE).and_then(|c| {
        c.value()
            .split_once(':')
            .map(|(a, b)| (a.to_string(), b.to_string()))
    }) {
        Some((code, secret)) => st
            .run(move |_, conn| tablets::pairing(conn, now, &code, &secret))
            .await?
            .filter(|p| p.tablet_id.is_none() && p.kiosk_id.is_none())
            .map(|p| (p, None)),
        None => None,
    };
    let (p, secret) = match kept {
        Some(k) => k,
        None => {
            crate::web::limits::pairing_code(st, req)?;
            let (p, secret) = st
                .write(move |_, conn| tablets::start_pairing(conn, now))
                .await?;
            (p, Some(secret))
        }
    };
    // No form on this page (the browser only shows the code and polls): no CSRF token.
    let room = st.run(|_, c| services::room::get(c)).await?;
    let c = Ctx::new(req, st.i18n.clone(), &room, None, String::new(), now);
    // The QR code opens the floor's pairing form with this code filled in (scanned by a floor
    // manager's phone or read aloud as the code above it).
    let info = req.connection_info();
    let link = format!(
        "{}://{}/floor/tablets?code={}",
        info.scheme(),
        info.host(),
        p.code
    );
    drop(info);
    let qr = qr_data_url(&link);
    let mut res = render(
        StatusCode::OK,
        &PairPage {
            c,
            code: tablets::display_code(&p.code),
            expires_at: p.expires_at,
            qr,
            link,
        },
    )?;
    if let Some(secret) = secret {
        let cookie = Cookie::build(PAIRING_COOKIE, format!("{}:{}", p.code, secret))
            .path("/tablet")
            .http_only(true)
            .same_site(SameSite::Strict)
            .secure(st.config.server.secure_cookies)
            .max_age(CookieDuration::minutes(tablets::CODE_VALID_MIN))
            .finish();
        res.add_cookie(&cookie).ok();
    }
    res.headers_mut().insert(
        actix_web::http::header::CACHE_CONTROL,
        actix_web::http::header::HeaderValue::from_static("no-store"),
    );
    Ok(res)
}

/// Polled by the pairing page: 204 while waiting; once the floor has entered the code, the
/// device token is set and the page goes to `/tablet` (htmx `HX-Redirect`); an expired code
/// starts over.
pub(super) async fn pair_status(
    req: HttpRequest,
    st: web::Data<AppState>,
) -> AppResult<HttpResponse> {
    let now = st.clock.now();
    let Some((code, secret)) = req.cookie(PAIRING_COOKIE).and_then(|c| {
        c.value()
            .split_once(':')
            .map(|(a, b)| (a.to_string(), b.to_string()))
    }) else {
        return Ok(HttpResponse::Ok()
            .insert_header(("HX-Redirect", "/tablet"))
            .finish());
    };
    let r = st
        .write(move |_, conn| tablets::collect(conn, now, &code, &secret, true))
        .await;
    match r {
        Ok(None) => Ok(HttpResponse::NoContent()
            .insert_header(("Cache-Control", "no-store"))
            .finish()),
        Ok(Some(paired)) => {
            // A dealer tablet or the desk kiosk: each its own kind of token, in
            // the same device cookie (a device is one or the other).
            let (id, ver, kind, to) = match paired {
                tablets::Paired::Tablet(t) => (t.id, t.token_version, TokenKind::Device, "/tablet"),
                tablets::Paired::Kiosk(k) => (k.id, k.token_version, TokenKind::Kiosk, "/kiosk"),
            };
            let (token, _) = auth::issue(&st.keys, id, ver, kind, "", now, DEVICE_HOURS);
            let mut res = HttpResponse::Ok()
                .insert_header(("HX-Redirect", to))
                .insert_header(("Cache-Control", "no-store"))
                .finish();
            res.add_cookie(&device_cookie(&st, token)).ok();
            let mut gone = Cookie::build(PAIRING_COOKIE, "").path("/tablet").finish();
            gone.make_removal();
            res.add_cookie(&gone).ok();
            Ok(res)
        }
        // Expired or used: a new code.
        Err(AppError::Conflict(_)) => {
            let mut res = HttpResponse::Ok()
                .insert_header(("HX-Redirect", "/tablet"))
                .finish();
            let mut gone = Cookie::build(PAIRING_COOKIE, "").path("/tablet").finish();
            gone.make_removal();
            res.add_cookie(&gone).ok();
            Ok(res)
        }
        Err(e) => Err(e),
    }
}
