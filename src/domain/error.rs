//! Typed, translatable refusals.
//!
//! A refusal carries a message *key* from the translation catalogs plus its arguments, so the
//! web layer can say it in the user's language; the domain never formats prose.

use serde::Serialize;

/// One refused field: which field, and why (a catalog key + arguments).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldError {
    pub field: String,
    pub key: &'static str,
    pub args: Vec<(&'static str, String)>,
}

impl FieldError {
    pub fn new(field: &str, key: &'static str) -> Self {
        FieldError {
            field: field.to_string(),
            key,
            args: Vec::new(),
        }
    }
    pub fn arg(mut self, name: &'static str, value: impl ToString) -> Self {
        self.args.push((name, value.to_string()));
        self
    }
    /// A refusal said about one field.
    pub fn of(field: &str, p: Problem) -> Self {
        FieldError {
            field: field.to_string(),
            key: p.key,
            args: p.args,
        }
    }
}

/// A refusal that is not tied to one field (a rule, a state), with catalog key + arguments.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    pub key: &'static str,
    pub args: Vec<(&'static str, String)>,
}

impl Problem {
    pub fn new(key: &'static str) -> Self {
        Problem {
            key,
            args: Vec::new(),
        }
    }
    pub fn arg(mut self, name: &'static str, value: impl ToString) -> Self {
        self.args.push((name, value.to_string()));
        self
    }
}

/// Collects field errors during validation.
#[derive(Debug, Default)]
pub struct Errors(pub Vec<FieldError>);

impl Errors {
    pub fn push(&mut self, e: FieldError) {
        self.0.push(e);
    }
    pub fn add(&mut self, field: &str, key: &'static str) {
        self.0.push(FieldError::new(field, key));
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub fn into_result<T>(self, ok: T) -> Result<T, Vec<FieldError>> {
        if self.0.is_empty() {
            Ok(ok)
        } else {
            Err(self.0)
        }
    }
}
