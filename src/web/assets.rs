//! The static files (CSS, JavaScript, htmx), built into the binary: a copy of `cardroom` runs
//! from any directory, on any machine, with nothing beside it.
//!
//! Pages link each file with its version in the address (`/static/app.css?v=…`, the start of
//! the file's SHA-256, computed at build time): such an address never changes content, so
//! browsers keep it for a year without asking again, and a new build's pages ask for the new
//! version. An address without the current version (an old page, a bookmark) is answered with
//! `Cache-Control: no-cache` and an `ETag`, so the browser revalidates (`304 Not Modified`).

use actix_web::http::header;
use actix_web::{web, HttpRequest, HttpResponse};

#[derive(rust_embed::Embed)]
#[folder = "static/"]
struct Files;

/// Characters of the SHA-256 (hex) used as the version.
const VERSION_LEN: usize = 16;

fn version_of(file: &rust_embed::EmbeddedFile) -> String {
    hex::encode(file.metadata.sha256_hash())[..VERSION_LEN].to_string()
}

/// The address of a static file with its version, for templates:
/// `{{ crate::web::assets::url("app.css") }}`. A name that is not built in (a mistake in a
/// template) gets its plain address, which answers 404 — the asset test catches it.
pub fn url(name: &str) -> String {
    match Files::get(name) {
        Some(f) => format!("/static/{name}?v={}", version_of(&f)),
        None => format!("/static/{name}"),
    }
}

/// Every file built in (for tests and the operator's `--help`).
pub fn names() -> Vec<String> {
    Files::iter().map(|n| n.to_string()).collect()
}

#[derive(serde::Deserialize)]
pub struct VersionQuery {
    v: Option<String>,
}

/// `GET /static/{name}`: the file, its content type, `ETag` and caching (see the module).
pub async fn serve(
    req: HttpRequest,
    name: web::Path<String>,
    q: web::Query<VersionQuery>,
) -> HttpResponse {
    let Some(file) = Files::get(&name) else {
        return HttpResponse::NotFound()
            .content_type("text/plain; charset=utf-8")
            .body("not found");
    };
    let version = version_of(&file);
    let etag = format!("\"{version}\"");
    let cache = if q.v.as_deref() == Some(version.as_str()) {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    let unchanged = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag || t.trim() == "*"));
    let mut res = if unchanged {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    res.insert_header((header::ETAG, etag))
        .insert_header((header::CACHE_CONTROL, cache))
        .insert_header(("X-Content-Type-Options", "nosniff"));
    if unchanged {
        return res.finish();
    }
    let mime = file.metadata.mimetype();
    let content_type = if mime.starts_with("text/") || mime.ends_with("javascript") {
        format!("{mime}; charset=utf-8")
    } else {
        mime.to_string()
    };
    res.content_type(content_type).body(file.data.into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_has_a_versioned_address_and_a_content_type() {
        let names = names();
        for expected in ["app.css", "floor.js", "vendor/htmx.min.js"] {
            assert!(
                names.iter().any(|n| n == expected),
                "{expected} is built in: {names:?}"
            );
        }
        for n in &names {
            let u = url(n);
            assert!(
                u.starts_with(&format!("/static/{n}?v="))
                    && u.len() == format!("/static/{n}?v=").len() + VERSION_LEN,
                "{u}"
            );
        }
        assert_eq!(
            Files::get("app.css").unwrap().metadata.mimetype(),
            "text/css"
        );
        assert_eq!(url("nope.css"), "/static/nope.css");
    }
}
