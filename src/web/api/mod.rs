//! The JSON API under `/api/v1`: thin handlers over the same services as the pages.
//!
//! Callers authenticate with `Authorization: Bearer <token>` (from `POST /api/v1/auth/login`);
//! every refusal is an `AppError`, turned into the localized `{"error":{…}}` body by the
//! error middleware. Rows are mapped into the small response types of each resource's
//! module (what the API promises), never serialized straight from the database.

pub mod audit;
pub mod auth;
pub mod buttons;
pub mod cagnotte;
pub mod clock;
pub mod dealers;
pub mod draws;
pub mod floor;
pub mod games;
pub mod join;
pub mod limits;
pub mod messages;
pub mod players;
pub mod prefs;
pub mod room;
pub mod rulings;
pub mod safe;
pub mod staff;
pub mod table;
pub mod tables;
pub mod tablets;

use crate::error::{AppError, AppResult};
use actix_web::dev::ResourceDef;
use actix_web::http::header;
use actix_web::{web, HttpRequest, HttpResponse};
use chrono::{DateTime, Utc};
use serde::Deserialize;
use utoipa::IntoParams;

/// The API: `/api/openapi.json` and the `/api/v1` scope. Each handler carries its path and
/// method (`#[get(…)]`) beside its documentation (`#[utoipa::path]`), and
/// `utoipa_actix_web` registers both at once: the document describes exactly the routes
/// mounted (the test clock's only when that setting is on).
pub fn routes(cfg: &mut web::ServiceConfig, test_clock: bool) {
    let mut v1 = utoipa_actix_web::scope("/api/v1")
        .configure(auth::routes)
        .configure(players::routes)
        .configure(room::routes)
        .configure(games::routes)
        .configure(tables::routes)
        .configure(staff::routes)
        .configure(audit::routes)
        .configure(floor::routes)
        .configure(table::routes)
        .configure(limits::routes)
        .configure(cagnotte::routes)
        .configure(dealers::routes)
        .configure(draws::routes)
        .configure(messages::routes)
        .configure(tablets::routes)
        .configure(join::routes)
        .configure(prefs::routes)
        .configure(safe::routes)
        .configure(buttons::routes)
        .configure(rulings::routes);
    if test_clock {
        v1 = v1.configure(clock::routes);
    }
    let doc = crate::web::openapi::document(&v1);
    let known = web::Data::new(KnownPaths::of(&doc));
    let spec = web::Data::new(ApiSpec(crate::web::openapi::to_json(&doc)));
    cfg.service(
        web::resource("/api/openapi.json")
            .app_data(spec)
            .route(web::get().to(openapi_json)),
    );
    cfg.service(v1.app_data(known).default_service(web::to(not_routed)));
}

/// The API's paths as routing patterns. Each handler is a resource of its own with one
/// method, so a known path asked with another method matches none of them and reaches the
/// scope's default service: a 405 there, as when a path's methods shared one resource.
/// With each pattern, the methods the document lists for it (the 405's `Allow`).
struct KnownPaths(Vec<(ResourceDef, String)>);

impl KnownPaths {
    fn of(doc: &utoipa::openapi::OpenApi) -> KnownPaths {
        KnownPaths(
            doc.paths
                .paths
                .iter()
                .map(|(p, item)| {
                    let methods: Vec<&str> = [
                        ("GET", item.get.is_some()),
                        ("POST", item.post.is_some()),
                        ("PUT", item.put.is_some()),
                        ("PATCH", item.patch.is_some()),
                        ("DELETE", item.delete.is_some()),
                    ]
                    .into_iter()
                    .filter_map(|(m, has)| has.then_some(m))
                    .collect();
                    (ResourceDef::new(p.as_str()), methods.join(", "))
                })
                .collect(),
        )
    }
}

/// A known path asked with another method: 405 with `Allow` (RFC 9110 15.5.6) naming the
/// methods it takes (every pattern the path matches, e.g. `/players/{id}` and its
/// neighbours); an unknown path: 404.
async fn not_routed(req: HttpRequest, known: web::Data<KnownPaths>) -> AppResult<HttpResponse> {
    let mut allow: Vec<&str> = known
        .0
        .iter()
        .filter(|(d, _)| d.is_match(req.path()))
        .flat_map(|(_, m)| m.split(", "))
        .filter(|m| !m.is_empty())
        .collect();
    if allow.is_empty() {
        return Err(AppError::NotFound);
    }
    allow.sort_unstable();
    allow.dedup();
    let mut res = HttpResponse::from_error(AppError::MethodNotAllowed);
    if let Ok(v) = header::HeaderValue::from_str(&allow.join(", ")) {
        res.headers_mut().insert(header::ALLOW, v);
    }
    Ok(res)
}

struct ApiSpec(String);

async fn openapi_json(spec: web::Data<ApiSpec>) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/json")
        .body(spec.0.clone())
}

fn utc(t: chrono::NaiveDateTime) -> DateTime<Utc> {
    t.and_utc()
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct HistoryQuery {
    /// 1 to 200 (default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<i64>,
}

pub(crate) fn page_limit(limit: Option<i64>) -> AppResult<i64> {
    let l = limit.unwrap_or(50);
    if (1..=200).contains(&l) {
        Ok(l)
    } else {
        Err(AppError::field("limit", "err-limit"))
    }
}
