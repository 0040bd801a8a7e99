//! The error middleware: turns every refusal into the user's language, as JSON
//! (`{"error":{"code","message","fields"}}`) under `/api` and as a page elsewhere.

use super::ctx::request_lang;
use crate::domain::player::Language;
use crate::error::AppError;
use crate::i18n::I18n;
use crate::web::state::AppState;
use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header;
use actix_web::middleware::Next;
use actix_web::{web, HttpRequest, HttpResponse, ResponseError};
use askama::Template;
use serde::Serialize;

#[derive(Serialize)]
struct FieldJson {
    field: String,
    code: String,
    message: String,
}

#[derive(Serialize)]
struct ErrorBody {
    code: &'static str,
    /// The precise reason, stable for integrations to branch on (the message key without its
    /// `err-` prefix, e.g. `table_number_taken`, `dealer_other_table`, `login_throttled`).
    reason: String,
    message: String,
    /// 5xx only: the request's id, to quote to whoever reads the logs.
    #[serde(skip_serializing_if = "Option::is_none")]
    request_id: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    fields: Vec<FieldJson>,
}

#[derive(Serialize)]
struct ErrorJson {
    error: ErrorBody,
}

/// The localized body of an error: headline + field messages.
pub fn describe(
    i18n: &I18n,
    lang: Language,
    err: &AppError,
) -> (String, Vec<(String, String, String)>) {
    let p = err.problem();
    let args: Vec<(&str, String)> = p.args.iter().map(|(k, v)| (*k, v.clone())).collect();
    let message = i18n.msg(lang, p.key, &args);
    let fields = match err {
        AppError::Validation(fs) => fs
            .iter()
            .map(|f| {
                let a: Vec<(&str, String)> = f.args.iter().map(|(k, v)| (*k, v.clone())).collect();
                (
                    f.field.clone(),
                    f.key.trim_start_matches("err-").replace('-', "_"),
                    i18n.msg(lang, f.key, &a),
                )
            })
            .collect(),
        _ => Vec::new(),
    };
    (message, fields)
}

/// A refusal said in one line for the top of a page: the field messages when there are any
/// (they say what to fix), else the headline.
pub fn refusal_text(i18n: &I18n, lang: Language, err: &AppError) -> String {
    let (message, fields) = describe(i18n, lang, err);
    let detail: Vec<String> = fields.into_iter().map(|(_, _, m)| m).collect();
    if detail.is_empty() {
        message
    } else {
        detail.join(" ")
    }
}

/// A refusal a handler renders itself (a page shown again with the reason) carries the
/// `Retry-After` of its error (a 429's wait), as the answers of [`localize`] do.
pub fn with_retry_after(mut res: HttpResponse, err: &AppError) -> HttpResponse {
    if let Some(v) = err
        .retry_after()
        .and_then(|s| header::HeaderValue::from_str(&s).ok())
    {
        res.headers_mut().insert(header::RETRY_AFTER, v);
    }
    res
}

/// The stable machine-readable reason of an error (see `ErrorBody::reason`).
pub fn reason_of(err: &AppError) -> String {
    err.problem()
        .key
        .trim_start_matches("err-")
        .replace('-', "_")
}

pub fn json_response(
    i18n: &I18n,
    lang: Language,
    err: &AppError,
    request_id: Option<String>,
) -> HttpResponse {
    let (message, fields) = describe(i18n, lang, err);
    let body = ErrorJson {
        error: ErrorBody {
            code: err.code(),
            reason: reason_of(err),
            message,
            request_id: request_id.filter(|_| err.status_code().is_server_error()),
            fields: fields
                .into_iter()
                .map(|(field, code, message)| FieldJson {
                    field,
                    code,
                    message,
                })
                .collect(),
        },
    };
    let mut res = HttpResponse::build(err.status_code());
    res.insert_header((header::CONTENT_LANGUAGE, lang.as_str()));
    if let AppError::Unauthorized(_) = err {
        res.insert_header((header::WWW_AUTHENTICATE, "Bearer"));
    }
    if let Some(secs) = err.retry_after() {
        res.insert_header((header::RETRY_AFTER, secs));
    }
    res.json(body)
}

#[derive(Template)]
#[template(path = "error.html")]
struct ErrorPage {
    lang: &'static str,
    status: u16,
    title: String,
    message: String,
    fields: Vec<String>,
    back: String,
    /// 5xx only: "Reference: <request id>".
    reference: Option<String>,
    /// Where "back" goes: the page the request came from (same site only), else home.
    back_href: String,
    home: String,
}

pub fn page_response(
    i18n: &I18n,
    lang: Language,
    err: &AppError,
    back_href: &str,
    request_id: Option<String>,
) -> HttpResponse {
    let (message, fields) = describe(i18n, lang, err);
    let reference = request_id
        .filter(|_| err.status_code().is_server_error())
        .map(|id| i18n.msg(lang, "error-reference", &[("id", id)]));
    let page = ErrorPage {
        lang: lang.as_str(),
        status: err.status_code().as_u16(),
        title: i18n.t(lang, "error-title"),
        message,
        fields: fields.into_iter().map(|(_, _, m)| m).collect(),
        back: i18n.t(lang, "action-back"),
        reference,
        back_href: back_href.to_string(),
        home: i18n.t(lang, "nav-home"),
    };
    let html = page.render().unwrap_or_else(|_| "error".into());
    let mut res = HttpResponse::build(err.status_code());
    if let Some(secs) = err.retry_after() {
        res.insert_header((header::RETRY_AFTER, secs));
    }
    res.insert_header((header::CONTENT_LANGUAGE, lang.as_str()))
        .content_type("text/html; charset=utf-8")
        .body(html)
}

pub async fn localize(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, actix_web::Error> {
    let lang = request_lang(req.request());
    let is_api =
        req.path().starts_with("/api/") || req.path() == "/healthz" || req.path() == "/metrics";
    // A player's link carries its token in the path: no error page may pass it on.
    let is_player_link = req.path().starts_with("/p/");
    let st = req.app_data::<web::Data<AppState>>().cloned();
    let mut res = next.call(req).await?;
    let status = res.status();
    if status.as_u16() < 400 {
        return Ok(res.map_into_left_body());
    }
    if status == actix_web::http::StatusCode::TOO_MANY_REQUESTS
        && !res.headers().contains_key(header::RETRY_AFTER)
    {
        // Every 429 says when to try again. A page that renders its refusal itself says the
        // wait exactly ([`with_retry_after`]); one that did not: a minute, as
        // `AppError::retry_after` says for a 429 that names no wait.
        res.headers_mut()
            .insert(header::RETRY_AFTER, header::HeaderValue::from_static("60"));
    }
    let app_err = match res.response().error() {
        Some(e) => match e.as_error::<AppError>() {
            Some(a) => Some(a.clone()),
            None => Some(AppError::from_status(status)),
        },
        // A response a handler rendered itself (e.g. a form shown again with its errors).
        None if res.headers().contains_key(header::CONTENT_TYPE) => None,
        None => Some(AppError::from_status(status)),
    };
    let (Some(err), Some(st)) = (app_err, st) else {
        return Ok(res.map_into_left_body());
    };
    if let AppError::Unavailable(why) = &err {
        // The next checkouts test their connection with a query (see `db::Health`).
        st.db.saw_unavailable(why);
    }
    // A 405's `Allow` survives the localized body.
    let allow = res.headers().get(header::ALLOW).cloned();
    let (req, _) = res.into_parts();
    let mut new = answer(&req, &st, lang, is_api, &err);
    if let Some(a) = allow {
        new.headers_mut().insert(header::ALLOW, a);
    }
    if is_player_link {
        new.headers_mut().insert(
            header::REFERRER_POLICY,
            header::HeaderValue::from_static("no-referrer"),
        );
    }
    Ok(ServiceResponse::new(req, new).map_into_right_body())
}

/// A refusal answered before the handlers (e.g. by `web::idempotency`), in the reader's
/// language, as [`localize`] would answer it.
pub fn refusal(req: &HttpRequest, err: &AppError) -> HttpResponse {
    let st = super::extract::state(req);
    let is_api = req.path().starts_with("/api/");
    let mut res = answer(req, &st, request_lang(req), is_api, err);
    if req.path().starts_with("/p/") {
        res.headers_mut().insert(
            header::REFERRER_POLICY,
            header::HeaderValue::from_static("no-referrer"),
        );
    }
    res
}

/// The localized answer to an error: JSON for the API, else a page (or the way to sign in).
fn answer(
    req: &HttpRequest,
    st: &AppState,
    lang: Language,
    is_api: bool,
    err: &AppError,
) -> HttpResponse {
    // "Back" returns to the page the form was on (a same-site referrer), else home.
    let back_href = req
        .headers()
        .get(header::REFERER)
        .and_then(|r| r.to_str().ok())
        .and_then(|r| url_path_if_same_site(r, req.connection_info().host()))
        .unwrap_or_else(|| "/".to_string());
    let new = if is_api {
        json_response(&st.i18n, lang, err, super::request_id::of(req))
    } else if matches!(err, AppError::Forbidden(p) if p.key == "err-password-change-required") {
        HttpResponse::SeeOther()
            .insert_header((header::LOCATION, "/account/password"))
            .finish()
    } else if matches!(err, AppError::Unauthorized(_)) {
        // Pages: send the browser to the sign-in page, then back here.
        // After signing in, come back here — for a form post, to the page instead.
        let next = if req.method() == actix_web::http::Method::GET {
            req.uri()
                .path_and_query()
                .map(|p| p.as_str())
                .unwrap_or("/")
        } else {
            "/"
        };
        let target = format!("/login?next={}", urlencode(next));
        HttpResponse::SeeOther()
            .insert_header((header::LOCATION, target))
            .finish()
    } else {
        page_response(&st.i18n, lang, err, &back_href, super::request_id::of(req))
    };
    new
}

/// The path (and query) of a referrer on this same host; None for other sites.
fn url_path_if_same_site(referer: &str, host: &str) -> Option<String> {
    let rest = referer
        .strip_prefix("http://")
        .or_else(|| referer.strip_prefix("https://"))?;
    let (h, path) = rest.split_once('/').unwrap_or((rest, ""));
    (h == host).then(|| crate::web::paths::safe_next(Some(&format!("/{path}"))))
}

fn urlencode(s: &str) -> String {
    serde_urlencoded::to_string([("", s)])
        .map(|x| x.trim_start_matches('=').to_string())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::middleware::from_fn;
    use actix_web::{test, App};

    #[actix_web::test]
    async fn every_429_says_when_to_try_again() {
        let app = test::init_service(
            App::new()
                .wrap(from_fn(localize))
                // A page that renders its refusal itself and forgets the wait.
                .route(
                    "/forgot",
                    web::get().to(|| async {
                        HttpResponse::TooManyRequests()
                            .content_type("text/html; charset=utf-8")
                            .body("wait")
                    }),
                )
                // One that says it exactly.
                .route(
                    "/said",
                    web::get().to(|| async {
                        let e = AppError::TooManyRequests(
                            crate::domain::Problem::new("err-dealer-pin-locked")
                                .arg("seconds", 299),
                        );
                        with_retry_after(
                            HttpResponse::TooManyRequests()
                                .content_type("text/html; charset=utf-8")
                                .body("wait"),
                            &e,
                        )
                    }),
                ),
        )
        .await;
        for (uri, wait) in [("/forgot", "60"), ("/said", "299")] {
            let res =
                test::call_service(&app, test::TestRequest::get().uri(uri).to_request()).await;
            assert_eq!(res.status(), 429);
            assert_eq!(
                res.headers()
                    .get(header::RETRY_AFTER)
                    .and_then(|v| v.to_str().ok()),
                Some(wait),
                "{uri}"
            );
        }
    }
}
