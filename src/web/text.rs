//! Every text a request carries, checked by the room's rule on free text
//! ([`crate::domain::text`]) before a handler reads it, so no refused character (a NUL, which
//! PostgreSQL cannot store; another control character; a direction override) reaches the
//! services, the database or a screen by any way in:
//!
//! - a JSON body: [`check_json`], called by `web::json::from_value`, which every JSON body
//!   passes through (`ApiJson`, and the handlers that read an optional body themselves);
//! - a URL-encoded form: [`check_pairs`] (or [`pair_refusals`], for a page that shows the
//!   refusal on its own form) on the form's fields as read: `CsrfForm` (every staff page's
//!   form), the public join and kiosk forms, the waiting lists' form and the seat-preference
//!   form (`PrefForm::parse`), which read their fields themselves;
//! - a multipart form's text parts: [`pair_refusals`] (the player form);
//! - the address and the query string: the [`guard`] middleware, for every request.
//!
//! A refused text is a 422 naming each refused field with why (`err-text-*`, the character
//! as `U+0000`), in the reader's language; an address with one is a 400. Nothing is read
//! further, so nothing is written.
//!
//! A field's name says whether its text may have lines ([`crate::domain::text::lines_of`]);
//! a query string's values are always one line.

use crate::domain::text::{self, Lines};
use crate::domain::{FieldError, Problem};
use crate::error::AppError;
use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::HttpResponse;
use serde_json::Value;

/// Every text of a JSON value (strings and object keys, at any depth): each refused one
/// named by its path (`note`, `lines[0].to`), as `serde_path_to_error` names a field.
pub fn check_json(v: &Value) -> Result<(), AppError> {
    let mut errs = Vec::new();
    walk(v, "", "", &mut errs);
    refused(errs)
}

fn walk(v: &Value, path: &str, name: &str, errs: &mut Vec<FieldError>) {
    match v {
        Value::String(s) => {
            if let Err(e) = text::check_field(path_or_root(path), name, s) {
                errs.push(e);
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                walk(item, &format!("{path}[{i}]"), name, errs);
            }
        }
        Value::Object(map) => {
            for (k, item) in map {
                if let Err(r) = text::check(k, Lines::One) {
                    // The key itself is refused: named with its refused characters shown.
                    errs.push(r.field_error(&join(path, &visible(k))));
                    continue;
                }
                walk(item, &join(path, k), k, errs);
            }
        }
        _ => {}
    }
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

fn path_or_root(path: &str) -> &str {
    if path.is_empty() {
        "."
    } else {
        path
    }
}

/// Each field of a form: refused ones named by their field (a 422).
pub fn check_pairs<K: AsRef<str>, V: AsRef<str>>(pairs: &[(K, V)]) -> Result<(), AppError> {
    refused(pair_refusals(pairs))
}

/// The refused fields of a form, for a page that says them its own way (none: all kept).
pub fn pair_refusals<K: AsRef<str>, V: AsRef<str>>(pairs: &[(K, V)]) -> Vec<FieldError> {
    named(pairs, text::lines_of)
}

fn named<K: AsRef<str>, V: AsRef<str>>(
    pairs: &[(K, V)],
    lines: impl Fn(&str) -> Lines,
) -> Vec<FieldError> {
    let mut errs: Vec<FieldError> = Vec::new();
    for (k, v) in pairs {
        let (k, v) = (k.as_ref(), v.as_ref());
        let e = match text::check(k, Lines::One) {
            Err(r) => Some(r.field_error(&visible(k))),
            Ok(()) => text::check(v, lines(k)).err().map(|r| r.field_error(k)),
        };
        // A field sent twice (a list) is named once.
        if let Some(e) = e.filter(|e| !errs.iter().any(|x| x.field == e.field)) {
            errs.push(e);
        }
    }
    errs
}

/// A field's name with its refused characters shown as U+FFFD.
fn visible(name: &str) -> String {
    name.chars()
        .map(|c| {
            if text::check(c.encode_utf8(&mut [0; 4]), Lines::One).is_ok() {
                c
            } else {
                '\u{FFFD}'
            }
        })
        .collect()
}

fn refused(errs: Vec<FieldError>) -> Result<(), AppError> {
    if errs.is_empty() {
        Ok(())
    } else {
        Err(AppError::Validation(errs))
    }
}

/// The address and the query string of `req`: `Err` when either carries a refused
/// character (the path percent-decoded: 400; a query value: 422 naming its parameter).
pub fn check_target(path: &str, query: &str) -> Result<(), AppError> {
    let decoded = percent_encoding::percent_decode_str(path).decode_utf8_lossy();
    if text::check(&decoded, Lines::One).is_err() {
        return Err(AppError::BadRequest(Problem::new("err-text-address")));
    }
    if query.is_empty() {
        return Ok(());
    }
    // Any query reads as pairs (bytes that are not UTF-8 become U+FFFD).
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query)
        .map_err(|e| AppError::BadRequest(Problem::new("err-query").arg("detail", e)))?;
    refused(named(&pairs, |_| Lines::One))
}

/// Middleware: [`check_target`] for every request, before its handler; a refusal is
/// answered here, put in the reader's language by the localizing middleware around it.
pub async fn guard(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody, actix_web::body::BoxBody>>, actix_web::Error>
{
    if let Err(e) = check_target(req.path(), req.query_string()) {
        // (`into_parts` + `ServiceResponse::new` keeps the error on the response, which the
        // localizing middleware reads.)
        let res = HttpResponse::from_error(e);
        let (r, _) = req.into_parts();
        return Ok(ServiceResponse::new(r, res).map_into_right_body());
    }
    next.call(req).await.map(|r| r.map_into_left_body())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn fields(r: Result<(), AppError>) -> Vec<(String, &'static str)> {
        match r {
            Err(AppError::Validation(fs)) => fs.into_iter().map(|f| (f.field, f.key)).collect(),
            Ok(()) => Vec::new(),
            Err(other) => panic!("not a validation error: {other:?}"),
        }
    }

    #[test]
    fn a_json_body_names_each_refused_field_by_its_path() {
        let v = json!({
            "note": "a\nb",
            "alias": "a\nb",
            "decision": "x\u{0}y",
            "lines": [{"to": "ok"}, {"to": "r\u{202E}l"}],
            "tags": ["fine", "bad\u{7}"],
            "amount": 12,
        });
        let mut got = fields(check_json(&v));
        got.sort();
        assert_eq!(
            got,
            vec![
                ("alias".into(), "err-text-one-line"),
                ("decision".into(), "err-text-control"),
                ("lines[1].to".into(), "err-text-direction"),
                ("tags[1]".into(), "err-text-control"),
            ]
        );
        assert!(check_json(&json!({"note": "line 1\r\nline 2\tend"})).is_ok());
        assert!(check_json(&json!(null)).is_ok());
    }

    #[test]
    fn a_refused_key_is_named_visibly() {
        let got = fields(check_json(&json!({"ok": {"a\u{0}b": 1}})));
        assert_eq!(got, vec![("ok.a\u{FFFD}b".into(), "err-text-control")]);
    }

    #[test]
    fn a_form_names_its_fields_once() {
        let got = fields(check_pairs(&[
            ("csrf", "t"),
            ("game", "1\u{0}"),
            ("game", "2\u{0}"),
            ("note", "two\r\nlines"),
            ("display_name", "Ana\tB"),
        ]));
        assert_eq!(
            got,
            vec![
                ("game".into(), "err-text-control"),
                ("display_name".into(), "err-text-one-line"),
            ]
        );
        assert!(check_pairs(&[("note", "a\r\nb"), ("alias", "Ana")]).is_ok());
    }

    /// The names of the templates' text areas (`<textarea … name="x"`).
    fn text_areas(dir: &std::path::Path, out: &mut Vec<String>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                text_areas(&p, out);
                continue;
            }
            let html = std::fs::read_to_string(&p).unwrap_or_default();
            for (i, _) in html.match_indices("<textarea") {
                let tag = &html[i..i + html[i..].find('>').unwrap_or(html.len() - i)];
                if let Some(rest) = tag.split(" name=\"").nth(1) {
                    out.push(rest.split('"').next().unwrap_or_default().to_string());
                }
            }
        }
    }

    #[test]
    fn every_text_area_of_the_pages_takes_lines() {
        let mut names = Vec::new();
        text_areas(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("templates"),
            &mut names,
        );
        assert!(names.len() >= 3, "the scan found {names:?}");
        for n in names {
            assert_eq!(
                text::lines_of(&n),
                Lines::Many,
                "the text area `{n}` takes lines: name it in domain::text::MULTI_LINE_FIELDS"
            );
        }
    }

    #[test]
    fn the_address_and_the_query_are_checked() {
        assert!(check_target("/api/v1/players", "q=Ana%20Silva").is_ok());
        assert!(matches!(
            check_target("/p/abc%00def", ""),
            Err(AppError::BadRequest(_))
        ));
        assert!(matches!(
            check_target("/p/abc%E2%80%AEdef", ""),
            Err(AppError::BadRequest(_))
        ));
        assert_eq!(
            fields(check_target("/floor/players", "q=a%00b&page=1")),
            vec![("q".into(), "err-text-control")]
        );
        // A query is one line, whatever its name.
        assert_eq!(
            fields(check_target("/floor/rulings", "note=a%0Ab")),
            vec![("note".into(), "err-text-one-line")]
        );
    }
}
