//! Admin pages: room and rule profile, games, tables, staff, audit trail.
//!
//! Forms arrive as text (an empty number box is not a malformed request); each handler parses
//! the text into the service's input, reporting what does not parse as field errors, and shows
//! the form again (422) with every message next to its field. Conflicts (a table number taken,
//! an admin demoting themselves) are shown above the form.

mod audit;
mod games;
mod room;
mod staff;
mod tables;

use super::{render, see_other};
use crate::domain::money::{minor_digits, parse_money};
use crate::domain::player::Language;
use crate::domain::FieldError;
use crate::error::{AppError, AppResult};
use crate::web::ctx::{Ctx, Errs};
use crate::web::state::AppState;
use actix_web::cookie::{time::Duration as CookieDuration, Cookie, SameSite};
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use std::collections::BTreeSet;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.configure(room::routes)
        .configure(games::routes)
        .configure(tables::routes)
        .configure(staff::routes)
        .configure(audit::routes);
}

// ---------------------------------------------------------------------------------------------
// Shared: what went wrong, "saved" notice, parsing text into numbers.
// ---------------------------------------------------------------------------------------------

/// A refused submission, ready to show: field messages, or a conflict above the form.
struct Shown {
    status: StatusCode,
    errs: Errs,
    problem: Option<String>,
}

impl Shown {
    fn none() -> Shown {
        Shown {
            status: StatusCode::OK,
            errs: Errs::default(),
            problem: None,
        }
    }
}

/// One line of the summary above a refused form: the field's label (a link to it) and why.
pub struct SumLine {
    pub field: String,
    pub label: String,
    pub message: String,
}

/// The summary in the form's order; `labels` pairs each field with its label's key.
fn summary(c: &Ctx, errs: &Errs, labels: &[(&str, &str)]) -> Vec<SumLine> {
    let mut out: Vec<SumLine> = labels
        .iter()
        .filter_map(|(f, key)| {
            errs.get(f).map(|m| SumLine {
                field: f.to_string(),
                label: c.t(key),
                message: m,
            })
        })
        .collect();
    for (f, ms) in &errs.0 {
        if !labels.iter().any(|(l, _)| l == f) {
            out.push(SumLine {
                field: f.clone(),
                label: String::new(),
                message: ms.join(" "),
            });
        }
    }
    out
}

/// Validation → 422 with messages per field; Conflict → 409 with the message in an alert;
/// anything else is not the form's business and propagates.
fn shown(c: &Ctx, e: AppError) -> AppResult<Shown> {
    match e {
        AppError::Validation(fields) => Ok(Shown {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            errs: c.errors(&fields),
            problem: None,
        }),
        AppError::Conflict(p) => {
            let args: Vec<(&str, String)> = p.args.iter().map(|(k, v)| (*k, v.clone())).collect();
            Ok(Shown {
                status: StatusCode::CONFLICT,
                errs: Errs::default(),
                problem: Some(c.i18n.msg(c.lang, p.key, &args)),
            })
        }
        other => Err(other),
    }
}

/// Set for a minute after a successful save, so the page it leads back to can say so.
const SAVED_COOKIE: &str = "cr_admin_saved";

fn saved_redirect(st: &AppState, to: &str) -> HttpResponse {
    let mut res = see_other(to);
    let cookie = Cookie::build(SAVED_COOKIE, to.to_string())
        .path("/admin")
        .http_only(true)
        .same_site(SameSite::Strict)
        .secure(st.config.server.secure_cookies)
        .max_age(CookieDuration::seconds(60))
        .finish();
    res.add_cookie(&cookie).ok();
    res
}

/// The page a save led back to says so (once).
fn just_saved(req: &HttpRequest) -> bool {
    req.cookie(SAVED_COOKIE)
        .is_some_and(|c| c.value() == req.path())
}

/// Renders a page; if it showed the "saved" notice, the notice is not shown again.
fn show<T: Template>(
    st: &AppState,
    status: StatusCode,
    page: &T,
    saved: bool,
) -> AppResult<HttpResponse> {
    let mut res = render(status, page)?;
    if saved {
        let mut gone = Cookie::build(SAVED_COOKIE, "")
            .path("/admin")
            .secure(st.config.server.secure_cookies)
            .finish();
        gone.make_removal();
        res.add_cookie(&gone).ok();
    }
    Ok(res)
}

/// Collects the fields whose text does not parse.
#[derive(Default)]
struct Parser {
    errs: Vec<FieldError>,
}

impl Parser {
    fn fail(&mut self, field: &str, key: &'static str) {
        self.errs.push(FieldError::new(field, key));
    }

    /// A required whole number.
    fn int(&mut self, field: &str, s: &str) -> Option<i32> {
        let t = s.trim();
        if t.is_empty() {
            self.fail(field, "err-required");
            return None;
        }
        self.opt_int(field, t)
    }

    /// An optional whole number (empty: none).
    fn opt_int(&mut self, field: &str, s: &str) -> Option<i32> {
        let t = s.trim();
        if t.is_empty() {
            return None;
        }
        match t.parse::<i32>() {
            Ok(n) => Some(n),
            Err(_) => {
                self.fail(field, "err-number");
                None
            }
        }
    }

    fn opt_i64(&mut self, field: &str, s: &str) -> Option<i64> {
        let t = s.trim();
        if t.is_empty() {
            return None;
        }
        match t.parse::<i64>() {
            Ok(n) => Some(n),
            Err(_) => {
                self.fail(field, "err-number");
                None
            }
        }
    }

    /// A required percentage typed as percent ("10", "12.5", "12,5 %") → basis points.
    fn percent(&mut self, field: &str, s: &str) -> Option<i32> {
        if s.trim().is_empty() {
            self.fail(field, "err-required");
            return None;
        }
        self.opt_percent(field, s)
    }

    fn opt_percent(&mut self, field: &str, s: &str) -> Option<i32> {
        let t = s.trim();
        if t.is_empty() {
            return None;
        }
        match percent_to_bp(t) {
            Some(bp) => Some(bp),
            None => {
                self.fail(field, "err-number");
                None
            }
        }
    }

    /// An amount typed in major units; empty is `empty`.
    fn money(&mut self, field: &str, s: &str, currency: &str, empty: Option<i64>) -> Option<i64> {
        if s.trim().is_empty() {
            if empty.is_none() {
                self.fail(field, "err-required");
            }
            return empty;
        }
        self.opt_money(field, s, currency)
    }

    fn opt_money(&mut self, field: &str, s: &str, currency: &str) -> Option<i64> {
        if s.trim().is_empty() {
            return None;
        }
        match parse_money(s, currency) {
            Some(m) => Some(m),
            None => {
                self.fail(field, "err-money");
                None
            }
        }
    }

    /// One of an enumeration's values.
    fn choice<T: std::str::FromStr>(&mut self, field: &str, s: &str) -> Option<T> {
        let t = s.trim();
        if t.is_empty() {
            self.fail(field, "err-required");
            return None;
        }
        match t.parse::<T>() {
            Ok(v) => Some(v),
            Err(_) => {
                self.errs.push(
                    FieldError::new(field, "err-choice")
                        .arg("value", t.chars().take(40).collect::<String>()),
                );
                None
            }
        }
    }

    /// The parse errors plus a validator's errors on the other fields (so every problem shows
    /// at once); `Ok` when nothing failed to parse.
    fn finish(self, more: impl FnOnce() -> Vec<FieldError>) -> Result<(), Vec<FieldError>> {
        if self.errs.is_empty() {
            return Ok(());
        }
        let failed: BTreeSet<String> = self.errs.iter().map(|e| e.field.clone()).collect();
        let mut all = self.errs;
        all.extend(more().into_iter().filter(|e| !failed.contains(&e.field)));
        Err(all)
    }
}

/// "12.5" / "12,5" / "12,5 %" → 1250. At most two decimals.
fn percent_to_bp(s: &str) -> Option<i32> {
    let t: String = s
        .trim()
        .trim_end_matches('%')
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let (neg, t) = match t.strip_prefix('-') {
        Some(rest) => (true, rest.to_string()),
        None => (false, t),
    };
    let (int, frac) = match t.find(['.', ',']) {
        Some(i) => (&t[..i], &t[i + 1..]),
        None => (t.as_str(), ""),
    };
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    if int.len() > 6
        || frac.len() > 2
        || !int.chars().all(|c| c.is_ascii_digit())
        || !frac.chars().all(|c| c.is_ascii_digit())
    {
        return None;
    }
    let i: i32 = if int.is_empty() { 0 } else { int.parse().ok()? };
    let mut f: i32 = if frac.is_empty() {
        0
    } else {
        frac.parse().ok()?
    };
    if frac.len() == 1 {
        f *= 10;
    }
    let bp = i * 100 + f;
    Some(if neg { -bp } else { bp })
}

/// 1250 → "12,5" (pt) / "12.5" (en); 1000 → "10".
fn bp_to_percent(bp: i32, lang: Language) -> String {
    let sign = if bp < 0 { "-" } else { "" };
    let a = bp.unsigned_abs();
    let (i, f) = (a / 100, a % 100);
    if f == 0 {
        return format!("{sign}{i}");
    }
    let sep = if lang == Language::Pt { ',' } else { '.' };
    let frac = format!("{f:02}");
    format!("{sign}{i}{sep}{}", frac.trim_end_matches('0'))
}

/// An amount as typed in a form: 250 → "2,50" (pt) / "2.50" (en); 10000 → "100".
fn money_input(minor: i64, currency: &str, lang: Language) -> String {
    let digits = minor_digits(currency).unwrap_or(2);
    let scale = 10i64.pow(digits);
    let sign = if minor < 0 { "-" } else { "" };
    let a = minor.abs();
    let (i, f) = (a / scale, a % scale);
    if f == 0 || digits == 0 {
        return format!("{sign}{i}");
    }
    let sep = if lang == Language::Pt { ',' } else { '.' };
    format!("{sign}{i}{sep}{f:0width$}", width = digits as usize)
}

fn checkbox(v: &Option<String>) -> bool {
    matches!(v.as_deref(), Some(s) if s != "false" && s != "0")
}

fn check_value(b: bool) -> Option<String> {
    b.then(|| "true".to_string())
}

/// A value and its label, for `<select>`s.
pub struct Opt {
    pub value: String,
    pub label: String,
}

fn opts<T: Copy + std::fmt::Display>(c: &Ctx, all: &[T], prefix: &str) -> Vec<Opt> {
    all.iter()
        .map(|v| Opt {
            value: v.to_string(),
            label: c.tk(prefix, v),
        })
        .collect()
}
