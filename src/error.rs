//! One error type for every handler, mapped to a clear 4xx (or, for faults, 5xx) answer.
//!
//! Policy (see README "Errors"): input the server can validate never yields a 5xx. Every
//! refusal has a stable `code` for programs and a message key translated into the user's
//! language by the error middleware (`web::errors`), as JSON under `/api` and as a page
//! elsewhere. A 5xx logs the detail and shows the user only a reference-free apology.

use crate::domain::refusal::{CatalogRefusal, GeneralRefusal};
use crate::domain::{FieldError, Problem};
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};

#[derive(Debug, Clone, thiserror::Error)]
pub enum AppError {
    /// 422: fields refused; each with its own message.
    #[error("validation failed")]
    Validation(Vec<FieldError>),
    /// 400: the request itself is malformed (bad JSON, bad query).
    #[error("bad request: {0:?}")]
    BadRequest(Problem),
    /// 401: no valid sign-in.
    #[error("unauthorized: {0:?}")]
    Unauthorized(Problem),
    /// 403: signed in, but the role may not do this (or the CSRF token is wrong).
    #[error("forbidden: {0:?}")]
    Forbidden(Problem),
    /// 404.
    #[error("not found")]
    NotFound,
    /// 405.
    #[error("method not allowed")]
    MethodNotAllowed,
    /// 409: the action conflicts with the current state (duplicate, concurrent change).
    #[error("conflict: {0:?}")]
    Conflict(Problem),
    /// 413.
    #[error("payload too large: {0:?}")]
    TooLarge(Problem),
    /// 415.
    #[error("unsupported media type: {0:?}")]
    UnsupportedMedia(Problem),
    /// 429.
    #[error("too many requests: {0:?}")]
    TooManyRequests(Problem),
    /// 503: the database does not answer.
    #[error("unavailable: {0}")]
    Unavailable(String),
    /// 500: a fault of ours; the detail goes to the log only.
    #[error("internal: {0}")]
    Internal(Fault),
}

/// A fault of ours: what failed, the error it came from (kept whole, for the log), and where
/// in the code it was raised.
#[derive(Debug, Clone)]
pub struct Fault {
    pub what: String,
    pub source: Option<std::sync::Arc<dyn std::error::Error + Send + Sync>>,
    pub at: &'static std::panic::Location<'static>,
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({}:{})", self.what, self.at.file(), self.at.line())?;
        if let Some(e) = &self.source {
            write!(f, ": {e}")?;
        }
        Ok(())
    }
}

impl AppError {
    /// The `Retry-After` (seconds) an answer carries: 503s always (the database is not
    /// answering; a broken connection is replaced within a second of it being back, so a
    /// client may try again this soon), 429s with the wait their problem names (else a minute).
    pub fn retry_after(&self) -> Option<String> {
        match self {
            AppError::Unavailable(_) => Some("2".into()),
            // A twin of the request is still running (`web::idempotency`).
            AppError::Conflict(p) if p.key == "err-idem-busy" => Some("1".into()),
            AppError::TooManyRequests(p) => Some(
                p.args
                    .iter()
                    .find(|(k, _)| *k == "seconds")
                    .map_or_else(|| "60".into(), |(_, v)| v.clone()),
            ),
            _ => None,
        }
    }

    /// A fault of ours, raised here (the caller's place in the code is kept).
    #[track_caller]
    pub fn internal(what: impl Into<String>) -> AppError {
        AppError::Internal(Fault {
            what: what.into(),
            source: None,
            at: std::panic::Location::caller(),
        })
    }

    /// A fault of ours caused by `source`, raised here.
    #[track_caller]
    pub fn internal_from(
        what: impl Into<String>,
        source: impl std::error::Error + Send + Sync + 'static,
    ) -> AppError {
        AppError::Internal(Fault {
            what: what.into(),
            source: Some(std::sync::Arc::new(source)),
            at: std::panic::Location::caller(),
        })
    }

    pub fn field(field: &str, key: &'static str) -> AppError {
        AppError::Validation(vec![FieldError::new(field, key)])
    }

    pub fn code(&self) -> &'static str {
        match self {
            AppError::Validation(_) => "validation_failed",
            AppError::BadRequest(_) => "bad_request",
            AppError::Unauthorized(_) => "unauthorized",
            AppError::Forbidden(_) => "forbidden",
            AppError::NotFound => "not_found",
            AppError::MethodNotAllowed => "method_not_allowed",
            AppError::Conflict(_) => "conflict",
            AppError::TooLarge(_) => "payload_too_large",
            AppError::UnsupportedMedia(_) => "unsupported_media_type",
            AppError::TooManyRequests(_) => "too_many_requests",
            AppError::Unavailable(_) => "unavailable",
            AppError::Internal(_) => "internal_error",
        }
    }

    /// The message key and arguments of the headline message.
    pub fn problem(&self) -> Problem {
        match self {
            AppError::Validation(_) => Problem::new("err-validation"),
            AppError::BadRequest(p)
            | AppError::Unauthorized(p)
            | AppError::Forbidden(p)
            | AppError::Conflict(p)
            | AppError::TooLarge(p)
            | AppError::UnsupportedMedia(p)
            | AppError::TooManyRequests(p) => p.clone(),
            AppError::NotFound => Problem::new("err-not-found"),
            AppError::MethodNotAllowed => Problem::new("err-method"),
            AppError::Unavailable(_) => Problem::new("err-unavailable"),
            AppError::Internal(_) => Problem::new("err-internal"),
        }
    }

    /// Maps a status produced outside our handlers (router 404/405, actix limits).
    pub fn from_status(status: StatusCode) -> AppError {
        match status {
            StatusCode::NOT_FOUND => AppError::NotFound,
            StatusCode::METHOD_NOT_ALLOWED => AppError::MethodNotAllowed,
            StatusCode::PAYLOAD_TOO_LARGE => AppError::TooLarge(Problem::new("err-too-large")),
            StatusCode::UNSUPPORTED_MEDIA_TYPE => {
                AppError::UnsupportedMedia(Problem::new("err-content-type"))
            }
            StatusCode::UNAUTHORIZED => AppError::Unauthorized(Problem::new("err-sign-in")),
            StatusCode::FORBIDDEN => AppError::Forbidden(Problem::new("err-forbidden")),
            s if s.is_client_error() => AppError::BadRequest(Problem::new("err-bad-request")),
            s => AppError::internal(format!("status {s}")),
        }
    }
}

impl ResponseError for AppError {
    fn status_code(&self) -> StatusCode {
        match self {
            AppError::Validation(_) => StatusCode::UNPROCESSABLE_ENTITY,
            AppError::BadRequest(_) => StatusCode::BAD_REQUEST,
            AppError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            AppError::Forbidden(_) => StatusCode::FORBIDDEN,
            AppError::NotFound => StatusCode::NOT_FOUND,
            AppError::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            AppError::Conflict(_) => StatusCode::CONFLICT,
            AppError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            AppError::UnsupportedMedia(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            AppError::TooManyRequests(_) => StatusCode::TOO_MANY_REQUESTS,
            AppError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            AppError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// A plain English body; the error middleware replaces it with the localized JSON or page.
    fn error_response(&self) -> HttpResponse {
        match self {
            AppError::Internal(_) => log::error!("{self}"),
            // An outage is logged once by `db::Health`, not once per request answered 503.
            AppError::Unavailable(_) => log::debug!("{self}"),
            _ => {}
        }
        HttpResponse::build(self.status_code())
            .content_type("text/plain; charset=utf-8")
            .body(self.code())
    }
}

impl From<diesel::result::Error> for AppError {
    #[track_caller]
    fn from(e: diesel::result::Error) -> Self {
        match e {
            diesel::result::Error::NotFound => AppError::NotFound,
            e if is_unique_violation(&e) => {
                AppError::Conflict(Problem::new("err-concurrent-change"))
            }
            e if is_transient(&e) => AppError::Unavailable(format!("database: {e}")),
            e => AppError::internal_from("database", e),
        }
    }
}

/// A database error that says nothing about the request: the connection was lost (server
/// stopped, restarted, failed over), or PostgreSQL gave up on the statement (a
/// `statement_timeout`, a lock timeout, a deadlock, a serialization failure). The transaction
/// was rolled back — nothing half-written — so the answer is 503 "try again", never 500.
///
/// libpq does not give diesel the SQLSTATE of every error, only of the kinds below; the others
/// are recognised by PostgreSQL's own message (in English: the server's `lc_messages` must be
/// `C` or `en_*`, the default of a cluster made by `initdb --locale=C` or with English).
pub fn is_transient(e: &diesel::result::Error) -> bool {
    use diesel::result::{DatabaseErrorKind as K, Error as E};
    match e {
        E::BrokenTransactionManager => true,
        E::DatabaseError(
            K::ClosedConnection | K::UnableToSendCommand | K::SerializationFailure,
            _,
        ) => true,
        E::DatabaseError(K::Unknown, info) => {
            const TRANSIENT: [&str; 13] = [
                "canceling statement due to statement timeout",
                "could not obtain lock",
                "canceling statement due to lock timeout",
                "canceling statement due to conflict with recovery",
                "deadlock detected",
                "could not serialize access",
                "terminating connection",
                "the database system is",
                "server closed the connection",
                "no connection to the server",
                "could not receive data from server",
                "could not send data to server",
                "connection to server",
            ];
            let m = info.message();
            TRANSIENT.iter().any(|t| m.contains(t))
        }
        _ => false,
    }
}

impl From<diesel::r2d2::PoolError> for AppError {
    fn from(e: diesel::r2d2::PoolError) -> Self {
        AppError::Unavailable(format!("database pool: {e}"))
    }
}

impl From<actix_web::error::BlockingError> for AppError {
    #[track_caller]
    fn from(e: actix_web::error::BlockingError) -> Self {
        AppError::internal_from("blocking task", e)
    }
}

/// An extractor's refusal (bad JSON, wrong content type), already an `AppError` inside.
impl From<actix_web::Error> for AppError {
    fn from(e: actix_web::Error) -> Self {
        match e.as_error::<AppError>() {
            Some(a) => a.clone(),
            None => AppError::from_status(e.as_response_error().status_code()),
        }
    }
}

/// A total of stored amounts that does not fit in i64: said plainly, never shown
/// wrapped. Only rows written before the amount bounds existed (or by hand) can cause it.
impl From<crate::domain::money::Overflow> for AppError {
    fn from(_: crate::domain::money::Overflow) -> Self {
        AppError::Conflict(GeneralRefusal::MoneyOverflow.into())
    }
}

/// A typed refusal of the state: 409 with its key and arguments.
impl<R: CatalogRefusal> From<R> for AppError {
    fn from(r: R) -> Self {
        AppError::Conflict(r.problem())
    }
}

impl From<Vec<FieldError>> for AppError {
    fn from(v: Vec<FieldError>) -> Self {
        AppError::Validation(v)
    }
}

pub type AppResult<T> = Result<T, AppError>;

/// True when the error is a unique-constraint violation (a concurrent or duplicate insert).
pub fn is_unique_violation(e: &diesel::result::Error) -> bool {
    matches!(
        e,
        diesel::result::Error::DatabaseError(diesel::result::DatabaseErrorKind::UniqueViolation, _)
    )
}

#[cfg(test)]
mod fault_tests {
    use super::*;

    #[test]
    fn a_fault_keeps_its_source_and_where_it_was_raised() {
        let io = std::io::Error::other("disk full");
        let line = line!() + 1;
        let e = AppError::internal_from("writing the sink", io);
        let AppError::Internal(f) = &e else {
            panic!("{e:?}")
        };
        assert_eq!(f.at.file(), file!());
        assert_eq!(f.at.line(), line);
        assert_eq!(f.source.as_ref().unwrap().to_string(), "disk full");
        let shown = e.to_string();
        assert!(
            shown.contains("writing the sink")
                && shown.contains("src/error.rs")
                && shown.contains("disk full"),
            "{shown}"
        );
        // A database fault through `?` is placed where the `?` is (two lines below).
        let at_question_mark = line!() + 2;
        let from_db = || -> AppResult<()> {
            Err(diesel::result::Error::QueryBuilderError("broken".into()))?;
            Ok(())
        };
        let AppError::Internal(f) = from_db().unwrap_err() else {
            panic!("not a fault")
        };
        assert_eq!(f.at.file(), file!());
        assert_eq!(f.at.line(), at_question_mark);
        assert_eq!(e.status_code(), StatusCode::INTERNAL_SERVER_ERROR);
    }
}
