//! The API's JSON body extractor: what the OpenAPI document promises, read as JSON Schema
//! reads it.
//!
//! - A number with a zero fraction is an integer (`2881418.0` is `2881418`: JSON Schema's
//!   `integer` is a mathematical one), up to 2^53 where a float is still exact.
//! - Every text in it (strings and keys, at any depth) is checked by the room's rule on free
//!   text (`web::text::check_json`): a NUL, another control character or a direction override
//!   is a 422 naming the field, before anything else is read.
//! - A value of the wrong type or out of range in a field (`9223372036854775808` for an
//!   amount, `"x"` for a seat number, an unknown choice) is a 422 naming the field, like every
//!   other refused field; a missing required field too. Only a body that is not JSON at all,
//!   or not the object the operation takes, is a 400.
//!
//! The content type, the size limit and their errors are `web::JsonConfig`'s (set in
//! `web::configure`): this reads the body through `web::Json<serde_json::Value>` first.

use crate::domain::{FieldError, Problem};
use crate::error::AppError;
use actix_web::dev::Payload;
use actix_web::{web, FromRequest, HttpRequest};
use futures_util::future::LocalBoxFuture;
use serde::de::DeserializeOwned;

/// A JSON request body of type `T` (see the module's documentation).
#[derive(Debug)]
pub struct ApiJson<T>(pub T);

impl<T> ApiJson<T> {
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> std::ops::Deref for ApiJson<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: DeserializeOwned + 'static> FromRequest for ApiJson<T> {
    type Error = actix_web::Error;
    type Future = LocalBoxFuture<'static, Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let body = web::Json::<serde_json::Value>::from_request(req, payload);
        Box::pin(async move {
            let mut value = body.await?.into_inner();
            integral_floats(&mut value);
            from_value(value).map(ApiJson).map_err(Into::into)
        })
    }
}

/// The largest integer a float holds exactly (2^53).
const EXACT_FLOAT_INT: f64 = 9_007_199_254_740_992.0;

/// Rewrites every float with a zero fraction (within ±2^53) as an integer, in place.
pub fn integral_floats(v: &mut serde_json::Value) {
    use serde_json::Value;
    match v {
        Value::Number(n) if n.is_f64() => {
            if let Some(f) = n.as_f64() {
                if f.fract() == 0.0 && f.abs() <= EXACT_FLOAT_INT {
                    *v = Value::from(f as i64);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(integral_floats),
        Value::Object(map) => map.values_mut().for_each(integral_floats),
        _ => {}
    }
}

/// `T` from a parsed body; a refusal inside a field is a 422 naming it. Every JSON body
/// passes here (its text is checked here: `web::text`).
pub fn from_value<T: DeserializeOwned>(value: serde_json::Value) -> Result<T, AppError> {
    // Every body is an object (or, where it is optional, null): serde would read a struct
    // from an array too, and blame its first item.
    if !(value.is_object() || value.is_null()) {
        return Err(AppError::BadRequest(
            Problem::new("err-json").arg("detail", "expected a JSON object"),
        ));
    }
    crate::web::text::check_json(&value)?;
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        let detail = inner.to_string();
        // "missing field `x`": the path is the object holding it.
        if let Some(name) = detail
            .strip_prefix("missing field `")
            .and_then(|r| r.split('`').next())
        {
            return AppError::Validation(vec![FieldError::new(&join(&path, name), "err-required")]);
        }
        if path == "." || path.is_empty() {
            // Not the object the operation takes (an array, a string, `null`…).
            return AppError::BadRequest(Problem::new("err-json").arg("detail", detail));
        }
        let field = path.trim_start_matches('.').to_string();
        if let Some(rest) = detail.strip_prefix("unknown variant `") {
            let value = rest.split('`').next().unwrap_or_default();
            return AppError::Validation(vec![
                FieldError::new(&field, "err-choice").arg("value", value)
            ]);
        }
        let number = detail.starts_with("invalid type: floating point")
            || detail.starts_with("invalid value: integer")
            || (detail.starts_with("invalid type: integer") && detail.contains("expected i"));
        if number {
            return AppError::Validation(vec![FieldError::new(&field, "err-number")]);
        }
        AppError::Validation(vec![
            FieldError::new(&field, "err-field-type").arg("detail", detail)
        ])
    })
}

fn join(path: &str, name: &str) -> String {
    let parent = path.trim_start_matches('.');
    if parent.is_empty() {
        name.to_string()
    } else {
        format!("{parent}.{name}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Body {
        amount: i64,
        seat: Option<i32>,
        kind: Option<Kind>,
    }

    #[derive(Debug, Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum Kind {
        Floor,
    }

    fn field_errors(e: AppError) -> Vec<(String, &'static str)> {
        match e {
            AppError::Validation(fs) => fs.into_iter().map(|f| (f.field, f.key)).collect(),
            other => panic!("not a validation error: {other:?}"),
        }
    }

    #[test]
    fn an_integral_float_is_an_integer() {
        let mut v = json!({"amount": 2881418.0, "seat": 3.0, "list": [1.0, 1.5]});
        integral_floats(&mut v);
        assert_eq!(v, json!({"amount": 2881418, "seat": 3, "list": [1, 1.5]}));
        let b: Body = from_value(json!({"amount": 2881418})).unwrap();
        assert_eq!(b.amount, 2881418);
    }

    #[test]
    fn a_float_beyond_exact_integers_stays_a_float_and_is_refused_in_its_field() {
        let mut v = json!({"amount": 1e300});
        integral_floats(&mut v);
        assert!(v["amount"].is_f64());
        let e = from_value::<Body>(v).unwrap_err();
        assert_eq!(field_errors(e), vec![("amount".into(), "err-number")]);
    }

    #[test]
    fn out_of_range_and_wrong_types_name_their_field() {
        let e = from_value::<Body>(json!({"amount": 9223372036854775808u64})).unwrap_err();
        assert_eq!(field_errors(e), vec![("amount".into(), "err-number")]);
        let e = from_value::<Body>(json!({"amount": 1, "seat": 3000000000u64})).unwrap_err();
        assert_eq!(field_errors(e), vec![("seat".into(), "err-number")]);
        let e = from_value::<Body>(json!({"amount": "ten"})).unwrap_err();
        assert_eq!(field_errors(e), vec![("amount".into(), "err-field-type")]);
        let e = from_value::<Body>(json!({"amount": 1, "kind": "chips"})).unwrap_err();
        assert_eq!(field_errors(e), vec![("kind".into(), "err-choice")]);
        let e = from_value::<Body>(json!({"seat": 1})).unwrap_err();
        assert_eq!(field_errors(e), vec![("amount".into(), "err-required")]);
    }

    #[test]
    fn a_body_that_is_not_the_object_is_a_bad_request() {
        for v in [json!(null), json!([1]), json!("x")] {
            assert!(matches!(
                from_value::<Body>(v),
                Err(AppError::BadRequest(_))
            ));
        }
    }
}
