//! HTTP: thin handlers for pages and the JSON API, sharing the service layer.

pub mod api;
pub mod assets;
pub mod cache;
pub mod client;
pub mod cookies;
pub mod csv;
pub mod ctx;
pub mod errors;
pub mod extract;
pub mod idempotency;
pub mod json;
pub mod limits;
pub mod metrics;
pub mod openapi;
pub mod pages;
pub mod paths;
pub mod request_id;
pub mod state;
pub mod stream;
pub mod text;

use crate::domain::Problem;
use crate::error::AppError;
use crate::web::state::AppState;
use actix_web::middleware::{from_fn, DefaultHeaders};
use actix_web::{web, HttpRequest, HttpResponse};

/// Registers everything: shared state, extractor error policies, middleware and routes.
/// The server and the tests build the same app with this.
pub fn configure(state: AppState) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg: &mut web::ServiceConfig| {
        let test_clock = state.config.server.test_clock;
        cfg.app_data(web::Data::new(state))
            .app_data(web::JsonConfig::default().limit(256 * 1024).error_handler(|e, _| {
                use actix_web::error::JsonPayloadError as J;
                let err = match &e {
                    J::ContentType => AppError::UnsupportedMedia(Problem::new("err-content-type-json")),
                    J::Overflow { .. } | J::OverflowKnownLength { .. } => AppError::TooLarge(Problem::new("err-too-large")),
                    J::Deserialize(d) => AppError::BadRequest(Problem::new("err-json").arg("detail", d)),
                    other => AppError::BadRequest(Problem::new("err-json").arg("detail", other)),
                };
                err.into()
            }))
            .app_data(web::FormConfig::default().limit(256 * 1024).error_handler(|e, _| {
                AppError::BadRequest(Problem::new("err-form").arg("detail", e)).into()
            }))
            .app_data(web::QueryConfig::default().error_handler(|e, _| {
                AppError::BadRequest(Problem::new("err-query").arg("detail", e)).into()
            }))
            .app_data(web::PathConfig::default().error_handler(|_, _| AppError::NotFound.into()))
            .app_data(web::PayloadConfig::default().limit(8 * 1024 * 1024))
            .route("/static/{name:.+}", web::get().to(assets::serve))
            .service(
                web::scope("")
                    // Innermost: the address and the query's text (`web::text`), after the
                    // dealer's scope is settled.
                    .wrap(from_fn(text::guard))
                    .wrap(from_fn(extract::preauthenticate))
                    .wrap(from_fn(errors::localize))
                    // Outside `localize`: a repeated request gets the very answer the first got.
                    .wrap(from_fn(idempotency::guard))
                    .wrap(
                        DefaultHeaders::new()
                            .add(("X-Content-Type-Options", "nosniff"))
                            .add(("X-Frame-Options", "DENY"))
                            .add(("Referrer-Policy", "same-origin"))
                            .add(("Cache-Control", "no-store"))
                            .add((
                                "Content-Security-Policy",
                                "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; \
                                 frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
                            )),
                    )
                    // Outermost: the id exists for everything inside, errors included.
                    .wrap(from_fn(request_id::trace))
                    .route("/healthz", web::get().to(healthz))
                    .route("/metrics", web::get().to(metrics::scrape))
                    .configure(|c| api::routes(c, test_clock))
                    .configure(stream::routes)
                    .configure(pages::routes)
                    .default_service(web::to(not_found)),
            );
    }
}

/// 200 when the database answers, 503 otherwise.
async fn healthz(state: web::Data<AppState>) -> Result<HttpResponse, AppError> {
    state.run(|_, c| crate::db::ping(c)).await?;
    Ok(HttpResponse::Ok().content_type("text/plain").body("ok"))
}

async fn not_found(req: HttpRequest) -> Result<HttpResponse, AppError> {
    let _ = req;
    Err(AppError::NotFound)
}
