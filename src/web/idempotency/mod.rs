//! Idempotency keys: a state-changing request sent again with the same key — an API call
//! retried after a timeout (`Idempotency-Key` header), a page form sent twice (its hidden
//! `idempotency_key` field, a fresh one per rendered form; URL-encoded, or multipart like the
//! registration with its photo) — is applied once and answered with the first answer, byte
//! for byte.
//!
//! - The key is kept per asker ([`scope`]): the signed-in staff member (page session or API
//!   token), else the paired tablet or kiosk, the player's link, or the browser's pre-sign-in
//!   cookie. A key sent with none of these, or with credentials that no longer sign anyone
//!   in, cannot be kept apart from a stranger's: the request runs as without a key (its
//!   handler answers it — 401 where a sign-in is needed; sign-in itself may be repeated).
//! - Atomicity: the key's row is written by [`AppState::write`](crate::web::state::AppState::write)
//!   inside the same transaction as the request's effect, the first time the request
//!   writes ([`claim`]); the answer is stored right after. A request that commits no write
//!   (a refusal) stores nothing, so it may be sent again with the same key once its cause is
//!   fixed; any answer of a request that did write is stored, whatever its status, since
//!   its effect is in the database.
//! - A repeat while the first is still running: 409 with `Retry-After`. A row without an
//!   answer (the process stopped between the commit and storing it): 409 "already applied,
//!   its answer was lost". An answer over [`MAX_BODY`] is kept without its body: a repeat is
//!   told it was applied (409).
//! - Rows are pruned after [`KEPT_HOURS`] by the scheduler ([`prune`]).

pub mod keys;

pub use keys::{claim, prune, Claim, InFlight, Key, Pending, KEPT_HOURS};

use crate::db::models::IdempotencyRow;
use crate::domain::Problem;
use crate::error::{AppError, AppResult};
use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::{header, Method, StatusCode};
use actix_web::middleware::Next;
use actix_web::{web, HttpMessage, HttpResponse};
use futures_util::StreamExt;
use keys::{FREE, PENDING, RECORDED};
use sha2::{Digest, Sha256};
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;

/// The request header (IETF draft "The Idempotency-Key HTTP Header Field").
pub const HEADER: &str = "Idempotency-Key";
/// The hidden field of page forms (`Ctx::form_key`).
pub const FORM_FIELD: &str = "idempotency_key";
/// The longest key accepted, in characters.
pub const MAX_KEY_LEN: usize = 200;
/// The largest answer body kept (larger: kept without its body, see the module's notes).
pub const MAX_BODY: usize = 256 * 1024;
/// The largest request body read to find and check a key (the payload limit of the app).
const MAX_REQUEST: usize = 8 * 1024 * 1024;

/// Where the key came from: the header (API clients) or a page form's field.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Source {
    Header,
    Form,
}

fn refuse(req: ServiceRequest, err: AppError) -> ServiceResponse<BoxBody> {
    let res = super::errors::refusal(req.request(), &err);
    req.into_response(res)
}

fn invalid_key() -> AppError {
    AppError::field(HEADER, "err-idem-key-invalid")
}

/// A key: 1 to [`MAX_KEY_LEN`] visible ASCII characters (space included, no control
/// characters, nothing outside ASCII).
pub fn valid_key(k: &str) -> bool {
    !k.is_empty() && k.len() <= MAX_KEY_LEN && k.bytes().all(|b| (0x20..=0x7e).contains(&b))
}

fn digest(parts: &[&[u8]]) -> String {
    let mut h = Sha256::new();
    for p in parts {
        h.update((p.len() as u64).to_be_bytes());
        h.update(p);
    }
    hex::encode(h.finalize())
}

/// Middleware: keys every POST/PUT/PATCH/DELETE that carries one (see the module's notes).
/// It sits outside `errors::localize`, so the answer it stores is the one the client got.
pub async fn guard(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    if !changes_state(req.method()) {
        return pass(req, next).await;
    }
    let header_key = match header_key(&req) {
        Ok(k) => k,
        Err(e) => return Ok(refuse(req, e)),
    };
    let is_form = req.content_type() == "application/x-www-form-urlencoded";
    let is_multipart = req.content_type() == "multipart/form-data";
    if header_key.is_none() && !is_form && !is_multipart {
        return pass(req, next).await;
    }
    let body = match read_body(&mut req, is_multipart).await {
        Ok(Some(b)) => b,
        // A multipart form over the limit: its handler answers with its own limits.
        Ok(None) => return pass(req, next).await,
        Err(e) => return Ok(refuse(req, e)),
    };
    let fields = if is_form {
        sorted_fields(&body)
    } else if is_multipart {
        multipart_fields(req.headers(), body.clone()).await
    } else {
        None
    };
    let Some((key, source)) = key_and_source(header_key, fields.as_deref()) else {
        return pass(req, next).await;
    };
    if !valid_key(&key) {
        return Ok(refuse(req, invalid_key()));
    }
    let scope = match scope(&req).await {
        Scope::Of(s) => s,
        Scope::Nobody => return pass(req, next).await,
    };
    let target = target(&req);
    let hash = request_hash(req.method(), &target, fields.as_deref(), &body);
    // A key is kept per operation (method and address): the same key sent to another
    // operation is a request of its own there (and an operation that does not exist is
    // answered as such, 404 or 405, whatever keys were used elsewhere).
    let key = format!("{} {target} {key}", req.method());
    let st = super::extract::state(req.request());
    let id = (scope.clone(), key.clone());
    let Some(running) = st.idempotency.enter(id.clone()) else {
        return Ok(refuse(
            req,
            AppError::Conflict(Problem::new("err-idem-busy")),
        ));
    };
    match earlier_answer(&st, &id).await {
        Err(e) => return Ok(refuse(req, e)),
        Ok(Some(row)) => {
            drop(running);
            return Ok(answer_repeat(req, &row, &hash, source));
        }
        Ok(None) => {}
    }
    let pending = Arc::new(Pending {
        scope,
        key,
        hash,
        state: AtomicU8::new(FREE),
    });
    let res = PENDING.scope(pending.clone(), next.call(req)).await?;
    if pending.state.load(Ordering::Acquire) != RECORDED {
        return Ok(res.map_into_boxed_body());
    }
    // The request wrote: its answer is kept for a repeat.
    let res = keep_answer(&st, id, res).await;
    drop(running);
    res
}

fn changes_state(method: &Method) -> bool {
    matches!(
        *method,
        Method::POST | Method::PUT | Method::PATCH | Method::DELETE
    )
}

/// The request goes on as without a key.
async fn pass(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    next.call(req).await.map(|r| r.map_into_boxed_body())
}

/// The `Idempotency-Key` header, if sent (refused when it is not text).
fn header_key(req: &ServiceRequest) -> Result<Option<String>, AppError> {
    match req.headers().get(HEADER) {
        Some(v) => match v.to_str() {
            Ok(k) => Ok(Some(k.to_string())),
            Err(_) => Err(invalid_key()),
        },
        None => Ok(None),
    }
}

/// The body, read whole and put back for the handler: to find a form's key and to tell a
/// repeat from another request. Over [`MAX_REQUEST`], or broken off: refused — or, with
/// `hand_back` (a multipart form, whose extractor has limits and messages of its own: "the
/// photo is larger than 5 MB"), put back as it came, unread, and `None`: the handler answers.
async fn read_body(
    req: &mut ServiceRequest,
    hand_back: bool,
) -> Result<Option<web::Bytes>, AppError> {
    let mut payload = req.take_payload();
    let mut body = web::BytesMut::new();
    while let Some(chunk) = payload.next().await {
        let chunk = match chunk {
            Ok(c) if body.len() + c.len() <= MAX_REQUEST => c,
            next if hand_back => {
                let read = futures_util::stream::iter([Ok(body.freeze()), next]);
                type Again = std::pin::Pin<
                    Box<
                        dyn futures_util::Stream<
                            Item = Result<web::Bytes, actix_web::error::PayloadError>,
                        >,
                    >,
                >;
                let again: Again = Box::pin(read.chain(payload));
                req.set_payload(actix_web::dev::Payload::from(again));
                return Ok(None);
            }
            Ok(_) => return Err(AppError::TooLarge(Problem::new("err-too-large"))),
            Err(_) => return Err(AppError::BadRequest(Problem::new("err-bad-request"))),
        };
        body.extend_from_slice(&chunk);
    }
    let body = body.freeze();
    req.set_payload(actix_web::dev::Payload::from(body.clone()));
    Ok(Some(body))
}

/// A form's fields, sorted: in any order, they are the same request.
fn sorted_fields(body: &[u8]) -> Option<Vec<(String, String)>> {
    serde_urlencoded::from_bytes::<Vec<(String, String)>>(body)
        .ok()
        .map(|mut f| {
            f.sort();
            f
        })
}

/// A multipart form's parts as fields, sorted (a form with a file: the registration with its
/// photo): a text part is its text; a file part stands for its name, type and content (their
/// digest). The boundary the browser chose is left out, so the same form sent again (with
/// another boundary) is the same request. `None`: not a multipart form that can be read.
async fn multipart_fields(
    headers: &header::HeaderMap,
    body: web::Bytes,
) -> Option<Vec<(String, String)>> {
    let stream =
        futures_util::stream::once(async move { Ok::<_, actix_web::error::PayloadError>(body) });
    let mut parts = actix_multipart::Multipart::new(headers, stream);
    let mut fields = Vec::new();
    while let Some(part) = parts.next().await {
        let mut part = part.ok()?;
        let name = part.name()?.to_string();
        let file = part
            .content_disposition()
            .and_then(|d| d.get_filename())
            .map(str::to_string);
        let kind = part.content_type().map(|m| m.to_string());
        let mut data = web::BytesMut::new();
        while let Some(chunk) = part.next().await {
            data.extend_from_slice(&chunk.ok()?);
        }
        let value = match (file, std::str::from_utf8(&data)) {
            (None, Ok(text)) => text.to_string(),
            (file, _) => format!(
                "file:{}",
                digest(&[
                    file.unwrap_or_default().as_bytes(),
                    kind.unwrap_or_default().as_bytes(),
                    &data,
                ])
            ),
        };
        fields.push((name, value));
    }
    fields.sort();
    Some(fields)
}

/// The header's key, else the form's hidden field (`None`: the request has no key).
fn key_and_source(
    header_key: Option<String>,
    fields: Option<&[(String, String)]>,
) -> Option<(String, Source)> {
    match header_key {
        Some(k) => Some((k, Source::Header)),
        None => fields
            .and_then(|f| f.iter().find(|(k, _)| k == FORM_FIELD))
            .map(|(_, v)| (v.clone(), Source::Form)),
    }
}

/// The address the request was sent to, query included.
fn target(req: &ServiceRequest) -> String {
    req.uri()
        .path_and_query()
        .map_or(req.path(), |p| p.as_str())
        .to_string()
}

/// What a repeat must match: the method, the address and the form's fields (or the body).
fn request_hash(
    method: &Method,
    target: &str,
    fields: Option<&[(String, String)]>,
    body: &[u8],
) -> String {
    match fields {
        Some(f) => {
            let flat: Vec<u8> = serde_urlencoded::to_string(f)
                .unwrap_or_default()
                .into_bytes();
            digest(&[
                method.as_str().as_bytes(),
                target.as_bytes(),
                b"form",
                &flat,
            ])
        }
        None => digest(&[method.as_str().as_bytes(), target.as_bytes(), b"body", body]),
    }
}

/// The key's row, if a request with it was applied before.
async fn earlier_answer(
    st: &crate::web::state::AppState,
    id: &(String, String),
) -> AppResult<Option<IdempotencyRow>> {
    let (s, k) = id.clone();
    st.run(move |_, c| Ok(crate::db::idempotency::find(c, s, k)?))
        .await
}

/// A repeat: the first answer again, or why it cannot be given.
fn answer_repeat(
    req: ServiceRequest,
    row: &IdempotencyRow,
    hash: &str,
    source: Source,
) -> ServiceResponse<BoxBody> {
    if row.request_hash != hash {
        let why = match source {
            Source::Header => "err-idem-key-mismatch",
            Source::Form => "err-idem-form-mismatch",
        };
        return refuse(req, AppError::field(HEADER, why));
    }
    match replay(row) {
        Some(res) => req.into_response(res),
        None if row.body_dropped => {
            refuse(req, AppError::Conflict(Problem::new("err-idem-too-large")))
        }
        None => refuse(req, AppError::Conflict(Problem::new("err-idem-lost"))),
    }
}

/// Stores the answer of a request that wrote, and gives it to the client.
async fn keep_answer<B: MessageBody>(
    st: &crate::web::state::AppState,
    id: (String, String),
    res: ServiceResponse<B>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let (req, res) = res.into_parts();
    let (head, body) = res.into_parts();
    let bytes = match actix_web::body::to_bytes(body).await {
        Ok(b) => b,
        Err(e) => {
            return Err(actix_web::error::ErrorInternalServerError(
                e.into().to_string(),
            ))
        }
    };
    let answer = answer_of(&head, &bytes);
    let (s, k) = id;
    let stored = st.db.write_async(move |c| -> AppResult<usize> {
        Ok(crate::db::idempotency::store_answer(c, s, k, answer)?)
    });
    if let Some(stored) = stored {
        if let Err(e) = stored.await {
            // The effect is committed all the same: a repeat is told its answer was lost.
            tracing::warn!("could not keep the answer of an idempotent request: {e}");
        }
    }
    let res = head.set_body(BoxBody::new(bytes));
    Ok(ServiceResponse::new(req, res))
}

/// The answer as stored: status, the headers a replay gives again, and the body unless too
/// large.
fn answer_of(head: &HttpResponse<()>, bytes: &[u8]) -> crate::db::idempotency::Answer {
    let text = |name: header::HeaderName| {
        head.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    };
    let cookies: Vec<&str> = head
        .headers()
        .get_all(header::SET_COOKIE)
        .filter_map(|v| v.to_str().ok())
        .collect();
    let dropped = bytes.len() > MAX_BODY;
    crate::db::idempotency::Answer {
        status: i32::from(head.status().as_u16()),
        content_type: text(header::CONTENT_TYPE),
        location: text(header::LOCATION),
        set_cookie: (!cookies.is_empty()).then(|| cookies.join("\n")),
        body: (!dropped).then(|| bytes.to_vec()),
        dropped,
    }
}

/// The first answer, again (`None`: it was not kept).
fn replay(row: &IdempotencyRow) -> Option<HttpResponse> {
    let status = StatusCode::from_u16(u16::try_from(row.status?).ok()?).ok()?;
    let body = row.body.clone()?;
    let mut res = HttpResponse::build(status);
    if let Some(t) = &row.content_type {
        res.insert_header((header::CONTENT_TYPE, t.as_str()));
    }
    if let Some(l) = &row.location {
        res.insert_header((header::LOCATION, l.as_str()));
    }
    if let Some(cookies) = &row.set_cookie {
        for c in cookies.lines() {
            res.append_header((header::SET_COOKIE, c));
        }
    }
    res.insert_header(("Idempotent-Replayed", "true"));
    Some(res.body(body))
}

/// Who a key belongs to.
enum Scope {
    Of(String),
    /// No sign-in, device, link or cookie that names anyone (none at all, or credentials
    /// that no longer sign anyone in): the request runs as without a key.
    Nobody,
}

/// A secret (a link token, a cookie) as part of a scope: hashed, never stored as is.
fn hashed(kind: &str, secret: &str) -> String {
    format!("{kind}:{}", &digest(&[secret.as_bytes()])[..32])
}

async fn scope(req: &ServiceRequest) -> Scope {
    use super::extract::{authenticate, PRELOGIN_COOKIE, SESSION_COOKIE};
    use crate::auth::{verify, TokenKind};
    let r = req.request();
    if req.headers().contains_key(header::AUTHORIZATION) || req.cookie(SESSION_COOKIE).is_some() {
        if let Ok(a) = authenticate(r).await {
            return Scope::Of(format!("staff:{}", a.staff.id));
        }
    }
    let st = super::extract::state(r);
    let now = st.clock.now();
    if let Some(c) = req.cookie(super::cookies::DEVICE_COOKIE) {
        if let Ok(d) = verify(&st.keys, c.value(), TokenKind::Device, now) {
            return Scope::Of(format!("tablet:{}", d.sub));
        }
        if let Ok(k) = verify(&st.keys, c.value(), TokenKind::Kiosk, now) {
            return Scope::Of(format!("kiosk:{}", k.sub));
        }
    }
    if let Some(token) = req
        .path()
        .strip_prefix("/p/")
        .and_then(|rest| rest.split('/').next())
        .filter(|t| !t.is_empty())
    {
        return Scope::Of(hashed("link", token));
    }
    if let Some(c) = req
        .cookie(PRELOGIN_COOKIE)
        .filter(|c| c.value().len() >= 16)
    {
        return Scope::Of(hashed("browser", c.value()));
    }
    Scope::Nobody
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_short_visible_ascii() {
        assert!(valid_key("a"));
        assert!(valid_key("0b7c2a9e-6f1d-4c1e-9d7e-3c1f2b4a5d6e"));
        assert!(valid_key(&"k".repeat(MAX_KEY_LEN)));
        assert!(!valid_key(""));
        assert!(!valid_key(&"k".repeat(MAX_KEY_LEN + 1)));
        assert!(!valid_key("tab\there"));
        assert!(!valid_key("new\nline"));
        assert!(!valid_key("del\u{7f}"));
        assert!(!valid_key("ação"));
    }

    #[test]
    fn the_digest_separates_its_parts() {
        assert_ne!(digest(&[b"ab", b"c"]), digest(&[b"a", b"bc"]));
        assert_eq!(digest(&[b"ab", b"c"]), digest(&[b"ab", b"c"]));
    }
}
