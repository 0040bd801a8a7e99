//! Admin pages: room and rule profile, games, tables, staff, audit trail.
//!
//! Forms arrive as text (an empty number box is not a malformed request); each handler parses
//! the text into the service's input, reporting what does not parse as field errors, and shows
//! the form again (422) with every message next to its field. Conflicts (a table number taken,
//! an admin demoting themselves) are shown above the form.

use super::{ctx, render, see_other};
use crate::db::models::{AuditRow, GameRow, StaffRow, TableRow};
use crate::domain::call_alert::CallAlert;
use crate::domain::game::{LimitClass, TableMode, TablePolicy, Variant};
use crate::domain::money::{minor_digits, parse_money, CURRENCIES};
use crate::domain::player::Language;
use crate::domain::profile::{CagnotteMode, CallExpiry, ProfileKind, RuleProfile, RANGES};
use crate::domain::staff::Role;
use crate::domain::theme::Theme;
use crate::domain::FieldError;
use crate::error::{AppError, AppResult};
use crate::services::audit::AuditFilter;
use crate::services::games::{GameInput, TableInput};
use crate::services::room::{Room, RoomUpdate};
use crate::services::staff::StaffInput;
use crate::services::{self};
use crate::web::ctx::{Ctx, Errs, Vals};
use crate::web::extract::{AdminStaff, CsrfForm};
use crate::web::state::AppState;
use actix_web::cookie::{time::Duration as CookieDuration, Cookie, SameSite};
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/admin/room", web::get().to(room_page))
        .route("/admin/room", web::post().to(room_submit))
        .route(
            "/admin/room/profile-defaults",
            web::post().to(room_defaults),
        )
        .route("/admin/games", web::get().to(games_page))
        .route("/admin/games", web::post().to(game_create))
        .route("/admin/games/{id}", web::get().to(game_edit))
        .route("/admin/games/{id}", web::post().to(game_update))
        .route("/admin/tables", web::get().to(tables_page))
        .route("/admin/tables", web::post().to(table_create))
        .route("/admin/tables/{id}", web::get().to(table_edit))
        .route("/admin/tables/{id}", web::post().to(table_update))
        .route("/admin/staff", web::get().to(staff_page))
        .route("/admin/staff", web::post().to(staff_create))
        .route("/admin/staff/{id}", web::get().to(staff_edit))
        .route("/admin/staff/{id}", web::post().to(staff_update))
        .route(
            "/admin/staff/{id}/sessions/end",
            web::post().to(staff_end_sessions),
        )
        .route("/admin/audit", web::get().to(audit_page))
        .route("/admin/audit/verify", web::get().to(audit_verify));
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

const GAME_LABELS: &[(&str, &str)] = &[
    ("name", "admin-game-name"),
    ("variant", "admin-game-variant"),
    ("limit_class", "admin-game-limit"),
    ("small_blind", "admin-game-small-blind"),
    ("big_blind", "admin-game-big-blind"),
    ("buy_in_min", "admin-game-buy-in-min"),
    ("buy_in_max", "admin-game-buy-in-max"),
    ("seats", "admin-game-seats"),
    ("cagnotte_mode", "admin-game-cagnotte-mode"),
    ("cagnotte_bp", "admin-game-cagnotte-percent"),
    ("cagnotte_base", "admin-game-cagnotte-base"),
    ("rake_cap", "admin-game-rake-cap"),
    ("smallest_chip", "admin-game-smallest-chip"),
    ("colour", "admin-game-colour"),
    ("cucurucho", "buttons-cucurucho"),
    ("cucurucho_bb", "buttons-admin-cucurucho-bb"),
    ("macaca", "buttons-macaca"),
    ("macaca_bb", "buttons-admin-macaca-bb"),
    ("macaca_cap_bb", "buttons-admin-macaca-cap"),
];

const TABLE_LABELS: &[(&str, &str)] = &[
    ("number", "admin-table-number"),
    ("seats", "admin-table-seats"),
    ("game_id", "admin-table-game"),
    ("mode", "admin-table-mode"),
    ("accessible_seats", "admin-table-accessible-seats"),
];

const STAFF_LABELS: &[(&str, &str)] = &[
    ("username", "field-username"),
    ("display_name", "admin-staff-display-name"),
    ("role", "admin-staff-role"),
    ("password", "admin-staff-password"),
    ("active", "admin-active"),
];

const AUDIT_LABELS: &[(&str, &str)] = &[
    ("actor", "audit-who"),
    ("action", "admin-audit-action"),
    ("subject_kind", "admin-audit-subject-kind"),
    ("subject_id", "admin-audit-subject-id"),
    ("from", "field-from"),
    ("to", "field-until"),
    ("limit", "admin-audit-page-size"),
];

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
        .secure(st.config.secure_cookies)
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
            .secure(st.config.secure_cookies)
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

// ---------------------------------------------------------------------------------------------
// Room and rule profile
// ---------------------------------------------------------------------------------------------

/// Offered in the time-zone box (any IANA zone may be typed).
const ZONES: &[&str] = &[
    "Europe/Lisbon",
    "Atlantic/Madeira",
    "Atlantic/Azores",
    "America/Sao_Paulo",
    "America/Manaus",
    "America/Recife",
    "Asia/Macau",
    "Asia/Hong_Kong",
    "Asia/Shanghai",
    "Europe/London",
    "Europe/Madrid",
    "Europe/Paris",
    "UTC",
];

/// How a profile field is entered.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Input {
    Minutes,
    Count,
    Percent,
    CagnotteMode,
    CallExpiry,
    Check,
}

/// The profile form, grouped by the rule each setting comes from.
const GROUPS: &[(&str, &[(&str, Input)])] = &[
    (
        "running",
        &[
            ("min_players_to_run", Input::Count),
            ("suspension_grace_min", Input::Minutes),
        ],
    ),
    (
        "absence",
        &[
            ("absence_limit_min", Input::Minutes),
            ("missed_bb_before_removal", Input::Count),
            ("return_window_min", Input::Minutes),
            ("missed_blinds_dead", Input::Check),
        ],
    ),
    (
        "stay",
        &[
            ("min_stay_mid_min", Input::Minutes),
            ("min_stay_high_min", Input::Minutes),
        ],
    ),
    (
        "cagnotte",
        &[
            ("cagnotte_mode", Input::CagnotteMode),
            ("rake_percent_bp", Input::Percent),
            ("session_percent_bp", Input::Percent),
            ("session_length_min", Input::Minutes),
            ("late_seat_window_min", Input::Minutes),
            ("no_flop_no_drop", Input::Check),
            ("join_at_average_stack", Input::Check),
            ("join_at_average_session_only", Input::Check),
        ],
    ),
    (
        "calls",
        &[
            ("seat_call_response_min", Input::Minutes),
            ("call_expiry", Input::CallExpiry),
            ("call_in_expiry_min", Input::Minutes),
            ("seat_call_ack_escalation_min", Input::Minutes),
            ("remote_max_lists", Input::Count),
            ("pref_max_passes", Input::Count),
        ],
    ),
];

/// One profile field as the template shows it.
pub struct ProfileField {
    pub name: &'static str,
    /// number | percent | select | check
    pub kind: &'static str,
    pub label: String,
    pub hint: String,
    /// The allowed range, from `RANGES` ("" for selects and checkboxes).
    pub range: String,
    pub options: Vec<Opt>,
}

pub struct ProfileGroup {
    pub id: &'static str,
    pub legend: String,
    pub note: String,
    pub fields: Vec<ProfileField>,
}

fn profile_groups(c: &Ctx) -> Vec<ProfileGroup> {
    GROUPS
        .iter()
        .map(|(id, fields)| ProfileGroup {
            id,
            legend: c.t(&format!("admin-profile-group-{id}")),
            note: c.t(&format!("admin-profile-note-{id}")),
            fields: fields
                .iter()
                .map(|(name, input)| {
                    let key = name.replace('_', "-");
                    let range = RANGES
                        .iter()
                        .find(|r| r.field == *name)
                        .map(|r| match input {
                            Input::Percent => c.i18n.msg(
                                c.lang,
                                "admin-range-percent",
                                &[
                                    ("min", bp_to_percent(r.min, c.lang)),
                                    ("max", bp_to_percent(r.max, c.lang)),
                                ],
                            ),
                            Input::Minutes if r.min == r.max => {
                                c.t1("admin-range-minutes-fixed", "value", r.min)
                            }
                            Input::Minutes => c.i18n.msg(
                                c.lang,
                                "admin-range-minutes",
                                &[("min", r.min.to_string()), ("max", r.max.to_string())],
                            ),
                            _ => c.i18n.msg(
                                c.lang,
                                "admin-range",
                                &[("min", r.min.to_string()), ("max", r.max.to_string())],
                            ),
                        });
                    let (kind, options) = match input {
                        Input::Minutes | Input::Count => ("number", Vec::new()),
                        Input::Percent => ("percent", Vec::new()),
                        Input::CagnotteMode => ("select", opts(c, CagnotteMode::ALL, "cagnotte-")),
                        Input::CallExpiry => ("select", opts(c, CallExpiry::ALL, "call-expiry-")),
                        Input::Check => ("check", Vec::new()),
                    };
                    ProfileField {
                        name,
                        kind,
                        label: c.t(&format!("admin-profile-{key}")),
                        hint: c.t(&format!("admin-profile-{key}-hint")),
                        range: range.unwrap_or_default(),
                        options,
                    }
                })
                .collect(),
        })
        .collect()
}

/// The room form as posted: text only.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(default)]
struct RoomForm {
    name: String,
    timezone: String,
    currency: String,
    default_language: String,
    /// Night mode: light, dark or auto. Empty (a form of before the setting): unchanged.
    theme: String,
    /// How a seat call is announced on the tablets: sound, vibrate or off. Empty: unchanged.
    call_alert: String,
    /// Seconds a tablet's tap made offline may arrive late. Empty (a form of before the
    /// setting): unchanged.
    tap_late_max_s: String,
    kind: String,
    min_players_to_run: String,
    suspension_grace_min: String,
    absence_limit_min: String,
    missed_bb_before_removal: String,
    return_window_min: String,
    min_stay_mid_min: String,
    min_stay_high_min: String,
    cagnotte_mode: String,
    /// Typed in percent; the field keeps the service's name so errors land next to it.
    rake_percent_bp: String,
    session_percent_bp: String,
    session_length_min: String,
    late_seat_window_min: String,
    seat_call_response_min: String,
    call_expiry: String,
    call_in_expiry_min: String,
    seat_call_ack_escalation_min: String,
    remote_max_lists: String,
    pref_max_passes: String,
    join_at_average_stack: Option<String>,
    join_at_average_session_only: Option<String>,
    missed_blinds_dead: Option<String>,
    no_flop_no_drop: Option<String>,
}

impl RoomForm {
    fn of(
        name: &str,
        timezone: &str,
        currency: &str,
        lang: Language,
        default_language: Language,
        theme: Theme,
        call_alert: CallAlert,
        tap_late_max_s: i32,
        p: &RuleProfile,
    ) -> RoomForm {
        RoomForm {
            name: name.to_string(),
            timezone: timezone.to_string(),
            currency: currency.to_string(),
            default_language: default_language.to_string(),
            theme: theme.to_string(),
            call_alert: call_alert.to_string(),
            tap_late_max_s: tap_late_max_s.to_string(),
            kind: p.kind.to_string(),
            min_players_to_run: p.min_players_to_run.to_string(),
            suspension_grace_min: p.suspension_grace_min.to_string(),
            absence_limit_min: p.absence_limit_min.to_string(),
            missed_bb_before_removal: p.missed_bb_before_removal.to_string(),
            return_window_min: p.return_window_min.to_string(),
            min_stay_mid_min: p.min_stay_mid_min.to_string(),
            min_stay_high_min: p.min_stay_high_min.to_string(),
            cagnotte_mode: p.cagnotte_mode.to_string(),
            rake_percent_bp: bp_to_percent(p.rake_percent_bp, lang),
            session_percent_bp: bp_to_percent(p.session_percent_bp, lang),
            session_length_min: p.session_length_min.to_string(),
            late_seat_window_min: p.late_seat_window_min.to_string(),
            seat_call_response_min: p.seat_call_response_min.to_string(),
            call_expiry: p.call_expiry.to_string(),
            call_in_expiry_min: p.call_in_expiry_min.to_string(),
            seat_call_ack_escalation_min: p.seat_call_ack_escalation_min.to_string(),
            remote_max_lists: p.remote_max_lists.to_string(),
            pref_max_passes: p.pref_max_passes.to_string(),
            join_at_average_stack: check_value(p.join_at_average_stack),
            join_at_average_session_only: check_value(p.join_at_average_session_only),
            missed_blinds_dead: check_value(p.missed_blinds_dead),
            no_flop_no_drop: check_value(p.no_flop_no_drop),
        }
    }

    fn from_room(r: &Room, lang: Language) -> RoomForm {
        RoomForm::of(
            &r.name,
            &r.timezone,
            &r.currency,
            lang,
            r.default_language,
            r.theme,
            r.call_alert,
            r.tap_late_max_s,
            &r.profile,
        )
    }

    fn parse(&self) -> Result<RoomUpdate, Vec<FieldError>> {
        let mut p = Parser::default();
        let default_language = p.choice::<Language>("default_language", &self.default_language);
        let theme = if self.theme.is_empty() {
            None
        } else {
            p.choice::<Theme>("theme", &self.theme)
        };
        let call_alert = if self.call_alert.is_empty() {
            None
        } else {
            p.choice::<CallAlert>("call_alert", &self.call_alert)
        };
        let tap_late_max_s = if self.tap_late_max_s.trim().is_empty() {
            None
        } else {
            p.int("tap_late_max_s", &self.tap_late_max_s)
        };
        let kind = p.choice::<ProfileKind>("kind", &self.kind);
        // What stands in for a value that did not parse, so the rest can still be checked.
        let d = RuleProfile::defaults(kind.unwrap_or(ProfileKind::PtCasino));
        let profile = RuleProfile {
            kind: d.kind,
            min_players_to_run: p
                .int("min_players_to_run", &self.min_players_to_run)
                .unwrap_or(d.min_players_to_run),
            suspension_grace_min: p
                .int("suspension_grace_min", &self.suspension_grace_min)
                .unwrap_or(d.suspension_grace_min),
            absence_limit_min: p
                .int("absence_limit_min", &self.absence_limit_min)
                .unwrap_or(d.absence_limit_min),
            missed_bb_before_removal: p
                .int("missed_bb_before_removal", &self.missed_bb_before_removal)
                .unwrap_or(d.missed_bb_before_removal),
            return_window_min: p
                .int("return_window_min", &self.return_window_min)
                .unwrap_or(d.return_window_min),
            min_stay_mid_min: p
                .int("min_stay_mid_min", &self.min_stay_mid_min)
                .unwrap_or(d.min_stay_mid_min),
            min_stay_high_min: p
                .int("min_stay_high_min", &self.min_stay_high_min)
                .unwrap_or(d.min_stay_high_min),
            cagnotte_mode: p
                .choice("cagnotte_mode", &self.cagnotte_mode)
                .unwrap_or(d.cagnotte_mode),
            rake_percent_bp: p
                .percent("rake_percent_bp", &self.rake_percent_bp)
                .unwrap_or(d.rake_percent_bp),
            session_percent_bp: p
                .percent("session_percent_bp", &self.session_percent_bp)
                .unwrap_or(d.session_percent_bp),
            session_length_min: p
                .int("session_length_min", &self.session_length_min)
                .unwrap_or(d.session_length_min),
            late_seat_window_min: p
                .int("late_seat_window_min", &self.late_seat_window_min)
                .unwrap_or(d.late_seat_window_min),
            seat_call_response_min: p
                .int("seat_call_response_min", &self.seat_call_response_min)
                .unwrap_or(d.seat_call_response_min),
            call_expiry: p
                .choice("call_expiry", &self.call_expiry)
                .unwrap_or(d.call_expiry),
            call_in_expiry_min: p
                .int("call_in_expiry_min", &self.call_in_expiry_min)
                .unwrap_or(d.call_in_expiry_min),
            seat_call_ack_escalation_min: p
                .int(
                    "seat_call_ack_escalation_min",
                    &self.seat_call_ack_escalation_min,
                )
                .unwrap_or(d.seat_call_ack_escalation_min),
            remote_max_lists: p
                .int("remote_max_lists", &self.remote_max_lists)
                .unwrap_or(d.remote_max_lists),
            pref_max_passes: p
                .int("pref_max_passes", &self.pref_max_passes)
                .unwrap_or(d.pref_max_passes),
            join_at_average_stack: checkbox(&self.join_at_average_stack),
            join_at_average_session_only: checkbox(&self.join_at_average_session_only),
            missed_blinds_dead: checkbox(&self.missed_blinds_dead),
            no_flop_no_drop: checkbox(&self.no_flop_no_drop),
        };
        let u = RoomUpdate {
            name: self.name.clone(),
            timezone: self.timezone.clone(),
            currency: self.currency.trim().to_string(),
            default_language: default_language.unwrap_or(Language::Pt),
            profile,
            theme,
            call_alert,
            tap_late_max_s,
        };
        p.finish(|| services::room::validate(&u).err().unwrap_or_default())?;
        Ok(u)
    }
}

#[derive(Template)]
#[template(path = "admin/room.html")]
struct RoomPage {
    c: Ctx,
    v: Vals,
    errs: Errs,
    summary: Vec<SumLine>,
    problem: Option<String>,
    saved: bool,
    groups: Vec<ProfileGroup>,
    zones: &'static [&'static str],
    currencies: &'static [&'static str],
    languages: Vec<Opt>,
    themes: Vec<Opt>,
    call_alerts: Vec<Opt>,
    kinds: Vec<Opt>,
    /// The profile kind stored now (the reset form's preselection).
    current_kind: String,
}

fn room_view(c: Ctx, v: Vals, current_kind: String, shown: Shown, saved: bool) -> RoomPage {
    RoomPage {
        groups: profile_groups(&c),
        languages: opts(&c, Language::ALL, "lang-"),
        themes: opts(&c, Theme::ALL, "theme-"),
        call_alerts: opts(&c, CallAlert::ALL, "call-alert-"),
        kinds: opts(&c, ProfileKind::ALL, "profile-"),
        zones: ZONES,
        currencies: CURRENCIES,
        current_kind,
        summary: summary(&c, &shown.errs, &room_labels()),
        v,
        errs: shown.errs,
        problem: shown.problem,
        saved,
        c,
    }
}

/// The room form's fields and their labels, in the form's order.
fn room_labels() -> Vec<(&'static str, &'static str)> {
    let mut l = vec![
        ("name", "admin-room-name"),
        ("timezone", "admin-room-timezone"),
        ("currency", "admin-room-currency"),
        ("default_language", "admin-room-language"),
        ("theme", "admin-room-theme"),
        ("call_alert", "admin-room-call-alert"),
        ("tap_late_max_s", "tap-late-max"),
        ("kind", "admin-profile-kind"),
    ];
    for (_, fields) in GROUPS {
        for (name, _) in fields.iter() {
            l.push((
                name,
                PROFILE_LABELS
                    .iter()
                    .find(|(f, _)| f == name)
                    .map(|(_, k)| *k)
                    .unwrap_or(""),
            ));
        }
    }
    l
}

/// Each profile field's label key (also built as `admin-profile-` + the name with dashes).
const PROFILE_LABELS: &[(&str, &str)] = &[
    ("min_players_to_run", "admin-profile-min-players-to-run"),
    ("suspension_grace_min", "admin-profile-suspension-grace-min"),
    ("absence_limit_min", "admin-profile-absence-limit-min"),
    (
        "missed_bb_before_removal",
        "admin-profile-missed-bb-before-removal",
    ),
    ("return_window_min", "admin-profile-return-window-min"),
    ("missed_blinds_dead", "admin-profile-missed-blinds-dead"),
    ("min_stay_mid_min", "admin-profile-min-stay-mid-min"),
    ("min_stay_high_min", "admin-profile-min-stay-high-min"),
    ("cagnotte_mode", "admin-profile-cagnotte-mode"),
    ("rake_percent_bp", "admin-profile-rake-percent-bp"),
    ("session_percent_bp", "admin-profile-session-percent-bp"),
    ("session_length_min", "admin-profile-session-length-min"),
    ("late_seat_window_min", "admin-profile-late-seat-window-min"),
    ("no_flop_no_drop", "admin-profile-no-flop-no-drop"),
    (
        "join_at_average_stack",
        "admin-profile-join-at-average-stack",
    ),
    (
        "join_at_average_session_only",
        "admin-profile-join-at-average-session-only",
    ),
    (
        "seat_call_response_min",
        "admin-profile-seat-call-response-min",
    ),
    ("call_expiry", "admin-profile-call-expiry"),
    ("call_in_expiry_min", "admin-profile-call-in-expiry-min"),
    (
        "seat_call_ack_escalation_min",
        "admin-profile-seat-call-ack-escalation-min",
    ),
    ("remote_max_lists", "admin-profile-remote-max-lists"),
    ("pref_max_passes", "admin-profile-pref-max-passes"),
];

async fn room_page(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: AdminStaff,
) -> AppResult<HttpResponse> {
    let c = ctx(&req, &st, &who.0).await?;
    let room = st.run(|_, conn| services::room::get(conn)).await?;
    let v = Vals::of(&RoomForm::from_room(&room, c.lang));
    let saved = just_saved(&req);
    let page = room_view(c, v, room.profile.kind.to_string(), Shown::none(), saved);
    show(&st, StatusCode::OK, &page, saved)
}

/// The profile keeps percentages in basis points; the page speaks in percent.
fn in_percent(fields: Vec<FieldError>) -> Vec<FieldError> {
    fields
        .into_iter()
        .map(|f| {
            match RANGES
                .iter()
                .find(|r| r.field == f.field && f.key == "err-range")
            {
                Some(r) if f.field.ends_with("_bp") => {
                    FieldError::new(&f.field, "admin-err-percent-range")
                        .arg("min", bp_to_percent(r.min, Language::En))
                        .arg("max", bp_to_percent(r.max, Language::En))
                }
                _ => f,
            }
        })
        .collect()
}

async fn room_again(
    req: &HttpRequest,
    st: &AppState,
    who: &AdminStaff,
    v: Vals,
    e: AppError,
) -> AppResult<HttpResponse> {
    let c = ctx(req, st, &who.0).await?;
    let e = match e {
        AppError::Validation(fields) => AppError::Validation(in_percent(fields)),
        other => other,
    };
    let s = shown(&c, e)?;
    let status = s.status;
    let kind = st
        .run(|_, conn| services::room::get(conn))
        .await?
        .profile
        .kind
        .to_string();
    render(status, &room_view(c, v, kind, s, false))
}

async fn room_submit(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: AdminStaff,
    form: CsrfForm<RoomForm>,
) -> AppResult<HttpResponse> {
    let f = form.0;
    let update = match f.parse() {
        Ok(u) => u,
        Err(fields) => {
            return room_again(&req, &st, &who, Vals::of(&f), AppError::Validation(fields)).await
        }
    };
    let now = st.clock.now();
    let actor = services::staff::actor(&who.0.staff);
    match st
        .write(move |_, conn| services::room::update(conn, now, &actor, &update))
        .await
    {
        Ok(_) => Ok(saved_redirect(&st, "/admin/room")),
        Err(e) => room_again(&req, &st, &who, Vals::of(&f), e).await,
    }
}

#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(default)]
struct DefaultsForm {
    kind: String,
}

/// Resets the rule profile to a kind's seed defaults, keeping the room's name, zone,
/// currency and language.
async fn room_defaults(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: AdminStaff,
    form: CsrfForm<DefaultsForm>,
) -> AppResult<HttpResponse> {
    let mut p = Parser::default();
    let Some(kind) = p.choice::<ProfileKind>("kind", &form.0.kind) else {
        let room = st.run(|_, conn| services::room::get(conn)).await?;
        let lang = ctx(&req, &st, &who.0).await?.lang;
        let v = Vals::of(&RoomForm::from_room(&room, lang));
        return room_again(&req, &st, &who, v, AppError::Validation(p.errs)).await;
    };
    let now = st.clock.now();
    let actor = services::staff::actor(&who.0.staff);
    let result = st
        .write(move |_, conn| {
            let room = services::room::get(conn)?;
            let u = RoomUpdate {
                name: room.name,
                timezone: room.timezone,
                currency: room.currency,
                default_language: room.default_language,
                profile: services::room::profile_defaults(kind),
                theme: None,
                call_alert: None,
                tap_late_max_s: None,
            };
            services::room::update(conn, now, &actor, &u)
        })
        .await;
    match result {
        Ok(_) => Ok(saved_redirect(&st, "/admin/room")),
        Err(e) => {
            let room = st.run(|_, conn| services::room::get(conn)).await?;
            let lang = ctx(&req, &st, &who.0).await?.lang;
            let v = Vals::of(&RoomForm::from_room(&room, lang));
            room_again(&req, &st, &who, v, e).await
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Games
// ---------------------------------------------------------------------------------------------

/// The game form as posted: text only; amounts in major units.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(default)]
struct GameForm {
    name: String,
    variant: String,
    small_blind: String,
    big_blind: String,
    limit_class: String,
    buy_in_min: String,
    buy_in_max: String,
    /// Empty: the variant's default.
    seats: String,
    /// Empty: the profile's mode.
    cagnotte_mode: String,
    /// Typed in percent; empty: the profile's percentage for the mode.
    cagnotte_bp: String,
    /// table_max | cave (PT-2007 7b).
    #[serde(default)]
    cagnotte_base: String,
    /// Empty: no cap per hand.
    #[serde(default)]
    rake_cap: String,
    /// Empty: from the blinds (BSOP 80).
    #[serde(default)]
    smallest_chip: String,
    /// The board colour (`#rrggbb`).
    #[serde(default)]
    colour: String,
    /// BSOP 55, 58: must_move | balanced.
    #[serde(default)]
    table_policy: String,
    /// BSOP 115, 116: the special buttons (checkboxes: absent is off) and their figures in
    /// big blinds.
    cucurucho: Option<String>,
    cucurucho_bb: String,
    macaca: Option<String>,
    macaca_bb: String,
    macaca_cap_bb: String,
    /// Only on the edit form.
    active: Option<String>,
}

impl GameForm {
    fn from_row(g: &GameRow, currency: &str, lang: Language) -> GameForm {
        let banked = g.variant.parse::<Variant>().is_ok_and(|v| v.is_banked());
        let blind = |m: i64| {
            if banked && m == 0 {
                String::new()
            } else {
                money_input(m, currency, lang)
            }
        };
        GameForm {
            name: g.name.clone(),
            variant: g.variant.clone(),
            small_blind: blind(g.small_blind),
            big_blind: blind(g.big_blind),
            limit_class: g.limit_class.clone(),
            buy_in_min: money_input(g.buy_in_min, currency, lang),
            buy_in_max: g
                .buy_in_max
                .map(|m| money_input(m, currency, lang))
                .unwrap_or_default(),
            seats: g.seats.to_string(),
            cagnotte_mode: g.cagnotte_mode.clone(),
            cagnotte_bp: bp_to_percent(g.cagnotte_bp, lang),
            cagnotte_base: g.cagnotte_base.clone(),
            rake_cap: g
                .rake_cap
                .map(|m| money_input(m, currency, lang))
                .unwrap_or_default(),
            smallest_chip: g
                .smallest_chip
                .map(|m| money_input(m, currency, lang))
                .unwrap_or_default(),
            colour: g.board_colour().to_string(),
            table_policy: g.table_policy.clone(),
            cucurucho: check_value(g.cucurucho),
            cucurucho_bb: g.cucurucho_bb.to_string(),
            macaca: check_value(g.macaca),
            macaca_bb: g.macaca_bb.to_string(),
            macaca_cap_bb: g.macaca_cap_bb.to_string(),
            active: check_value(g.active),
        }
    }

    /// `editing`: the form has the `active` checkbox (absent = inactive).
    fn parse(&self, room: &Room, editing: bool) -> Result<GameInput, Vec<FieldError>> {
        let cur = room.currency.as_str();
        let mut p = Parser::default();
        // Banked games have no blinds: an empty blind box is zero.
        let g = GameInput {
            name: self.name.clone(),
            variant: self.variant.trim().to_string(),
            small_blind: p
                .money("small_blind", &self.small_blind, cur, Some(0))
                .unwrap_or(0),
            big_blind: p
                .money("big_blind", &self.big_blind, cur, Some(0))
                .unwrap_or(0),
            limit_class: self.limit_class.trim().to_string(),
            buy_in_min: p
                .money("buy_in_min", &self.buy_in_min, cur, None)
                .unwrap_or(0),
            buy_in_max: p.opt_money("buy_in_max", &self.buy_in_max, cur),
            seats: p.opt_int("seats", &self.seats),
            cagnotte_mode: Some(self.cagnotte_mode.trim().to_string()).filter(|s| !s.is_empty()),
            cagnotte_bp: p.opt_percent("cagnotte_bp", &self.cagnotte_bp),
            cagnotte_base: Some(self.cagnotte_base.trim().to_string()).filter(|s| !s.is_empty()),
            rake_cap: p.opt_money("rake_cap", &self.rake_cap, cur),
            smallest_chip: p.opt_money("smallest_chip", &self.smallest_chip, cur),
            active: editing.then(|| checkbox(&self.active)),
            colour: Some(self.colour.clone()),
            table_policy: Some(self.table_policy.trim().to_string()).filter(|s| !s.is_empty()),
            cucurucho: Some(checkbox(&self.cucurucho)),
            cucurucho_bb: p.opt_int("cucurucho_bb", &self.cucurucho_bb),
            macaca: Some(checkbox(&self.macaca)),
            macaca_bb: p.opt_int("macaca_bb", &self.macaca_bb),
            macaca_cap_bb: p.opt_int("macaca_cap_bb", &self.macaca_cap_bb),
        };
        p.finish(|| {
            let errs = services::games::check_game(&g, &room.profile)
                .err()
                .unwrap_or_default();
            services::in_currency(errs, cur)
        })?;
        Ok(g)
    }
}

/// What the game form offers, shared by the new and the edit form.
pub struct GameChoices {
    pub variants: Vec<Opt>,
    pub limits: Vec<Opt>,
    pub modes: Vec<Opt>,
    /// BSOP 55, 58: must-move or balanced.
    pub policies: Vec<Opt>,
    /// "Hold'em No Limit 10, …": the seats each variant gets by default.
    pub seat_defaults: String,
    /// The profile's cagnotte mode and percentages, for the "empty = default" hint.
    pub profile_cagnotte: String,
}

fn game_choices(c: &Ctx, room: &Room) -> GameChoices {
    let p = &room.profile;
    let seat_defaults = Variant::ALL
        .iter()
        .map(|v| format!("{} {}", c.tk("variant-", v), v.default_seats()))
        .collect::<Vec<_>>()
        .join(" · ");
    let profile_cagnotte = c.i18n.msg(
        c.lang,
        "admin-game-cagnotte-default",
        &[
            ("mode", c.tk("cagnotte-", p.cagnotte_mode)),
            ("hand", bp_to_percent(p.rake_percent_bp, c.lang)),
            ("session", bp_to_percent(p.session_percent_bp, c.lang)),
        ],
    );
    GameChoices {
        variants: opts(c, Variant::ALL, "variant-"),
        limits: opts(c, LimitClass::ALL, "limit-"),
        modes: opts(c, CagnotteMode::ALL, "cagnotte-"),
        policies: opts(c, TablePolicy::ALL, "table-policy-"),
        seat_defaults,
        profile_cagnotte,
    }
}

/// A game in the list, formatted.
pub struct GameLine {
    pub g: GameRow,
    pub blinds: String,
    pub buy_in: String,
    pub cagnotte: String,
}

fn game_line(c: &Ctx, g: GameRow) -> GameLine {
    let banked = g.variant.parse::<Variant>().is_ok_and(|v| v.is_banked());
    let blinds = if banked {
        "—".to_string()
    } else {
        format!("{} / {}", c.money(g.small_blind), c.money(g.big_blind))
    };
    let buy_in = match g.buy_in_max {
        Some(max) => format!("{} – {}", c.money(g.buy_in_min), c.money(max)),
        None => format!("{} – {}", c.money(g.buy_in_min), c.t("admin-game-no-max")),
    };
    let cagnotte = format!(
        "{} · {} %",
        c.tk("cagnotte-", &g.cagnotte_mode),
        bp_to_percent(g.cagnotte_bp, c.lang)
    );
    GameLine {
        g,
        blinds,
        buy_in,
        cagnotte,
    }
}

#[derive(Template)]
#[template(path = "admin/games.html")]
struct GamesPage {
    c: Ctx,
    games: Vec<GameLine>,
    v: Vals,
    errs: Errs,
    summary: Vec<SumLine>,
    problem: Option<String>,
    saved: bool,
    gc: GameChoices,
    /// None: the new-game form.
    game_id: Option<i64>,
}

#[derive(Template)]
#[template(path = "admin/game_edit.html")]
struct GameEditPage {
    c: Ctx,
    v: Vals,
    errs: Errs,
    summary: Vec<SumLine>,
    problem: Option<String>,
    saved: bool,
    gc: GameChoices,
    game_id: Option<i64>,
    name: String,
    /// PT-2007 22, BSOP 34: the game's tables in play waiting for a change to its limits.
    pending_limits: Vec<services::limits::ChangeLine>,
}

async fn games_view(
    req: &HttpRequest,
    st: &AppState,
    who: &AdminStaff,
    v: Option<Vals>,
    s: Shown,
    saved: bool,
) -> AppResult<GamesPage> {
    let c = ctx(req, st, &who.0).await?;
    let (room, games) = st
        .run(|_, conn| {
            Ok((
                services::room::get(conn)?,
                services::games::list_games(conn)?,
            ))
        })
        .await?;
    let v = v.unwrap_or_else(|| {
        let mut v = Vals::default();
        v.0.insert("variant".into(), Variant::HoldemNl.to_string());
        v.0.insert("limit_class".into(), LimitClass::Low.to_string());
        // BSOP 115, 116: off, with the usual figures ready for when they are turned on.
        let special = crate::domain::special_buttons::Settings::default();
        v.0.insert("cucurucho_bb".into(), special.cucurucho_bb.to_string());
        v.0.insert("macaca_bb".into(), special.macaca_bb.to_string());
        v.0.insert("macaca_cap_bb".into(), special.macaca_cap_bb.to_string());
        v
    });
    Ok(GamesPage {
        gc: game_choices(&c, &room),
        games: games.into_iter().map(|g| game_line(&c, g)).collect(),
        v,
        summary: summary(&c, &s.errs, GAME_LABELS),
        errs: s.errs,
        problem: s.problem,
        saved,
        game_id: None,
        c,
    })
}

async fn games_page(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: AdminStaff,
) -> AppResult<HttpResponse> {
    let saved = just_saved(&req);
    let page = games_view(&req, &st, &who, None, Shown::none(), saved).await?;
    show(&st, StatusCode::OK, &page, saved)
}

async fn game_create(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: AdminStaff,
    form: CsrfForm<GameForm>,
) -> AppResult<HttpResponse> {
    let f = form.0;
    let room = st.run(|_, conn| services::room::get(conn)).await?;
    let result = match f.parse(&room, false) {
        Err(fields) => Err(AppError::Validation(fields)),
        Ok(input) => {
            let now = st.clock.now();
            let actor = services::staff::actor(&who.0.staff);
            let profile = room.profile.clone();
            st.write(move |_, conn| {
                services::games::create_game(conn, now, &actor, &profile, &input)
            })
            .await
        }
    };
    match result {
        Ok(_) => Ok(saved_redirect(&st, "/admin/games")),
        Err(e) => {
            let c = ctx(&req, &st, &who.0).await?;
            let s = shown(&c, e)?;
            let status = s.status;
            let page = games_view(&req, &st, &who, Some(Vals::of(&f)), s, false).await?;
            render(status, &page)
        }
    }
}

async fn game_edit_view(
    req: &HttpRequest,
    st: &AppState,
    who: &AdminStaff,
    id: i64,
    v: Option<Vals>,
    s: Shown,
    saved: bool,
) -> AppResult<GameEditPage> {
    let c = ctx(req, st, &who.0).await?;
    let (room, g, pending_limits) = st
        .run(move |_, conn| {
            Ok((
                services::room::get(conn)?,
                services::games::get_game(conn, id)?,
                services::limits::pending_of_game(conn, id)?,
            ))
        })
        .await?;
    let v = v.unwrap_or_else(|| Vals::of(&GameForm::from_row(&g, &room.currency, c.lang)));
    Ok(GameEditPage {
        pending_limits,
        gc: game_choices(&c, &room),
        v,
        summary: summary(&c, &s.errs, GAME_LABELS),
        errs: s.errs,
        problem: s.problem,
        saved,
        game_id: Some(id),
        name: g.name,
        c,
    })
}

async fn game_edit(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: AdminStaff,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    let saved = just_saved(&req);
    let page = game_edit_view(
        &req,
        &st,
        &who,
        path.into_inner(),
        None,
        Shown::none(),
        saved,
    )
    .await?;
    show(&st, StatusCode::OK, &page, saved)
}

async fn game_update(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: AdminStaff,
    path: web::Path<i64>,
    form: CsrfForm<GameForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let f = form.0;
    let room = st.run(|_, conn| services::room::get(conn)).await?;
    let result = match f.parse(&room, true) {
        Err(fields) => Err(AppError::Validation(fields)),
        Ok(input) => {
            let now = st.clock.now();
            let actor = services::staff::actor(&who.0.staff);
            let profile = room.profile.clone();
            st.write(move |_, conn| {
                services::games::update_game(conn, now, &actor, &profile, id, &input)
            })
            .await
        }
    };
    match result {
        Ok(_) => Ok(saved_redirect(&st, &format!("/admin/games/{id}"))),
        Err(e) => {
            let c = ctx(&req, &st, &who.0).await?;
            let s = shown(&c, e)?;
            let status = s.status;
            let page = game_edit_view(&req, &st, &who, id, Some(Vals::of(&f)), s, false).await?;
            render(status, &page)
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Tables
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(default)]
struct TableForm {
    number: String,
    /// Empty: the game's seats (or 10).
    seats: String,
    /// Empty: no game.
    game_id: String,
    mode: String,
    /// Only on the edit form.
    active: Option<String>,
    /// Only on the edit form: BSOP 45, the seats kept for accessibility needs ("1, 10").
    accessible_seats: String,
}

impl TableForm {
    fn from_row(t: &TableRow, accessible: &[i32]) -> TableForm {
        TableForm {
            number: t.number.to_string(),
            seats: t.seats.to_string(),
            game_id: t.game_id.map(|g| g.to_string()).unwrap_or_default(),
            mode: t.mode.clone(),
            active: check_value(t.active),
            accessible_seats: crate::domain::seat_pref::format_numbers(accessible),
        }
    }

    fn parse(&self, editing: bool) -> Result<TableInput, Vec<FieldError>> {
        let mut p = Parser::default();
        let t = TableInput {
            number: p.int("number", &self.number).unwrap_or(0),
            seats: p.opt_int("seats", &self.seats),
            game_id: p.opt_i64("game_id", &self.game_id),
            mode: self.mode.trim().to_string(),
            active: editing.then(|| checkbox(&self.active)),
        };
        p.finish(|| {
            let mut more = Vec::new();
            if t.mode.parse::<TableMode>().is_err() {
                more.push(
                    FieldError::new(
                        "mode",
                        if t.mode.is_empty() {
                            "err-required"
                        } else {
                            "err-choice"
                        },
                    )
                    .arg("value", &t.mode),
                );
            }
            more
        })?;
        Ok(t)
    }
}

pub struct TableLine {
    pub t: TableRow,
    pub game: Option<GameRow>,
}

#[derive(Template)]
#[template(path = "admin/tables.html")]
struct TablesPage {
    c: Ctx,
    tables: Vec<TableLine>,
    games: Vec<GameRow>,
    modes: Vec<Opt>,
    v: Vals,
    errs: Errs,
    summary: Vec<SumLine>,
    problem: Option<String>,
    saved: bool,
    table_id: Option<i64>,
}

#[derive(Template)]
#[template(path = "admin/table_edit.html")]
struct TableEditPage {
    c: Ctx,
    t: TableRow,
    games: Vec<GameRow>,
    modes: Vec<Opt>,
    v: Vals,
    errs: Errs,
    summary: Vec<SumLine>,
    problem: Option<String>,
    saved: bool,
    table_id: Option<i64>,
}

async fn tables_view(
    req: &HttpRequest,
    st: &AppState,
    who: &AdminStaff,
    v: Option<Vals>,
    s: Shown,
    saved: bool,
) -> AppResult<TablesPage> {
    let c = ctx(req, st, &who.0).await?;
    let (tables, games) = st
        .run(|_, conn| {
            Ok((
                services::games::list_tables(conn)?,
                services::games::list_games(conn)?,
            ))
        })
        .await?;
    let v = v.unwrap_or_else(|| {
        let mut v = Vals::default();
        v.0.insert("mode".into(), TableMode::Continuous.to_string());
        let next = tables.iter().map(|(t, _)| t.number).max().unwrap_or(0) + 1;
        v.0.insert("number".into(), next.to_string());
        v
    });
    Ok(TablesPage {
        modes: opts(&c, TableMode::ALL, "mode-"),
        tables: tables
            .into_iter()
            .map(|(t, game)| TableLine { t, game })
            .collect(),
        games,
        v,
        summary: summary(&c, &s.errs, TABLE_LABELS),
        errs: s.errs,
        problem: s.problem,
        saved,
        table_id: None,
        c,
    })
}

async fn tables_page(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: AdminStaff,
) -> AppResult<HttpResponse> {
    let saved = just_saved(&req);
    let page = tables_view(&req, &st, &who, None, Shown::none(), saved).await?;
    show(&st, StatusCode::OK, &page, saved)
}

async fn table_create(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: AdminStaff,
    form: CsrfForm<TableForm>,
) -> AppResult<HttpResponse> {
    let f = form.0;
    let result = match f.parse(false) {
        Err(fields) => Err(AppError::Validation(fields)),
        Ok(input) => {
            let now = st.clock.now();
            let actor = services::staff::actor(&who.0.staff);
            st.write(move |_, conn| services::games::create_table(conn, now, &actor, &input))
                .await
        }
    };
    match result {
        Ok(_) => Ok(saved_redirect(&st, "/admin/tables")),
        Err(e) => {
            let c = ctx(&req, &st, &who.0).await?;
            let s = shown(&c, e)?;
            let status = s.status;
            let page = tables_view(&req, &st, &who, Some(Vals::of(&f)), s, false).await?;
            render(status, &page)
        }
    }
}

async fn table_edit_view(
    req: &HttpRequest,
    st: &AppState,
    who: &AdminStaff,
    id: i64,
    v: Option<Vals>,
    s: Shown,
    saved: bool,
) -> AppResult<TableEditPage> {
    let c = ctx(req, st, &who.0).await?;
    let (t, games, accessible) = st
        .run(move |_, conn| {
            Ok((
                services::games::get_table(conn, id)?,
                services::games::list_games(conn)?,
                services::seat_prefs::accessible_seats(conn, id)?,
            ))
        })
        .await?;
    let v = v.unwrap_or_else(|| Vals::of(&TableForm::from_row(&t, &accessible)));
    Ok(TableEditPage {
        modes: opts(&c, TableMode::ALL, "mode-"),
        t,
        games,
        v,
        summary: summary(&c, &s.errs, TABLE_LABELS),
        errs: s.errs,
        problem: s.problem,
        saved,
        table_id: Some(id),
        c,
    })
}

async fn table_edit(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: AdminStaff,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    let saved = just_saved(&req);
    let page = table_edit_view(
        &req,
        &st,
        &who,
        path.into_inner(),
        None,
        Shown::none(),
        saved,
    )
    .await?;
    show(&st, StatusCode::OK, &page, saved)
}

async fn table_update(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: AdminStaff,
    path: web::Path<i64>,
    form: CsrfForm<TableForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let f = form.0;
    let result = match f.parse(true) {
        Err(fields) => Err(AppError::Validation(fields)),
        Ok(input) => {
            let now = st.clock.now();
            let actor = services::staff::actor(&who.0.staff);
            let accessible = f.accessible_seats.clone();
            // One transaction: a refused seat list undoes the rest of the edit too.
            st.write(move |_, conn| {
                let t = services::games::update_table(conn, now, &actor, id, &input)?;
                services::seat_prefs::set_accessible_seats(conn, now, &actor, id, &accessible)?;
                Ok(t)
            })
            .await
        }
    };
    match result {
        Ok(_) => Ok(saved_redirect(&st, &format!("/admin/tables/{id}"))),
        Err(e) => {
            let c = ctx(&req, &st, &who.0).await?;
            let s = shown(&c, e)?;
            let status = s.status;
            let page = table_edit_view(&req, &st, &who, id, Some(Vals::of(&f)), s, false).await?;
            render(status, &page)
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Staff
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(default)]
struct StaffForm {
    /// Only on the new form (a username never changes).
    username: String,
    display_name: String,
    role: String,
    /// Required to create; on edit, empty keeps the password. Never shown back.
    #[serde(skip_serializing)]
    password: String,
    /// Only on the edit form.
    active: Option<String>,
}

impl StaffForm {
    fn from_row(s: &StaffRow) -> StaffForm {
        StaffForm {
            username: s.username.clone(),
            display_name: s.display_name.clone(),
            role: s.role.clone(),
            password: String::new(),
            active: check_value(s.active),
        }
    }
}

#[derive(Template)]
#[template(path = "admin/staff.html")]
struct StaffPage {
    c: Ctx,
    staff: Vec<StaffRow>,
    roles: Vec<Opt>,
    v: Vals,
    errs: Errs,
    summary: Vec<SumLine>,
    problem: Option<String>,
    saved: bool,
}

#[derive(Template)]
#[template(path = "admin/staff_edit.html")]
struct StaffEditPage {
    c: Ctx,
    s: StaffRow,
    roles: Vec<Opt>,
    v: Vals,
    errs: Errs,
    summary: Vec<SumLine>,
    problem: Option<String>,
    saved: bool,
    /// Editing one's own account (role and active cannot be taken away).
    is_me: bool,
    /// Sessions and API tokens of this person still open.
    open_sessions: usize,
}

async fn staff_view(
    req: &HttpRequest,
    st: &AppState,
    who: &AdminStaff,
    v: Option<Vals>,
    s: Shown,
    saved: bool,
) -> AppResult<StaffPage> {
    let c = ctx(req, st, &who.0).await?;
    let staff = st.run(|_, conn| services::staff::list(conn)).await?;
    let v = v.unwrap_or_else(|| {
        let mut v = Vals::default();
        v.0.insert("role".into(), Role::Dealer.to_string());
        v
    });
    Ok(StaffPage {
        roles: opts(&c, Role::ALL, "role-"),
        staff,
        v,
        summary: summary(&c, &s.errs, STAFF_LABELS),
        errs: s.errs,
        problem: s.problem,
        saved,
        c,
    })
}

async fn staff_page(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: AdminStaff,
) -> AppResult<HttpResponse> {
    let saved = just_saved(&req);
    let page = staff_view(&req, &st, &who, None, Shown::none(), saved).await?;
    show(&st, StatusCode::OK, &page, saved)
}

async fn staff_create(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: AdminStaff,
    form: CsrfForm<StaffForm>,
) -> AppResult<HttpResponse> {
    let f = form.0;
    let input = StaffInput {
        username: Some(f.username.clone()),
        display_name: f.display_name.clone(),
        role: f.role.trim().to_string(),
        password: Some(f.password.clone()),
        active: None,
    };
    let now = st.clock.now();
    let actor = services::staff::actor(&who.0.staff);
    match st
        .write(move |_, conn| services::staff::create(conn, now, &actor, &input))
        .await
    {
        Ok(_) => Ok(saved_redirect(&st, "/admin/staff")),
        Err(e) => {
            let c = ctx(&req, &st, &who.0).await?;
            let s = shown(&c, e)?;
            let status = s.status;
            let page = staff_view(&req, &st, &who, Some(Vals::of(&f)), s, false).await?;
            render(status, &page)
        }
    }
}

async fn staff_edit_view(
    req: &HttpRequest,
    st: &AppState,
    who: &AdminStaff,
    id: i64,
    v: Option<Vals>,
    sh: Shown,
    saved: bool,
) -> AppResult<StaffEditPage> {
    let c = ctx(req, st, &who.0).await?;
    let now = st.clock.now();
    let (s, open_sessions) = st
        .run(move |_, conn| {
            let s = services::staff::get(conn, id)?;
            let open = services::sessions::list_open(conn, now, id)?.len();
            Ok((s, open))
        })
        .await?;
    let v = v.unwrap_or_else(|| Vals::of(&StaffForm::from_row(&s)));
    Ok(StaffEditPage {
        open_sessions,
        roles: opts(&c, Role::ALL, "role-"),
        is_me: s.id == who.0.staff.id,
        s,
        v,
        summary: summary(&c, &sh.errs, STAFF_LABELS),
        errs: sh.errs,
        problem: sh.problem,
        saved,
        c,
    })
}

async fn staff_edit(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: AdminStaff,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    let saved = just_saved(&req);
    let page = staff_edit_view(
        &req,
        &st,
        &who,
        path.into_inner(),
        None,
        Shown::none(),
        saved,
    )
    .await?;
    show(&st, StatusCode::OK, &page, saved)
}

/// Ends every session and API token of a staff member (a lost tablet, a dismissal).
async fn staff_end_sessions(
    st: web::Data<AppState>,
    who: AdminStaff,
    path: web::Path<i64>,
    _form: CsrfForm<super::Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let now = st.clock.now();
    let by = who.0.staff.clone();
    st.write(move |_, conn| services::staff::end_sessions(conn, now, &by, id))
        .await?;
    Ok(saved_redirect(&st, &format!("/admin/staff/{id}")))
}

async fn staff_update(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: AdminStaff,
    path: web::Path<i64>,
    form: CsrfForm<StaffForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let f = form.0;
    let input = StaffInput {
        username: None,
        display_name: f.display_name.clone(),
        role: f.role.trim().to_string(),
        password: Some(f.password.clone()).filter(|p| !p.is_empty()),
        active: Some(checkbox(&f.active)),
    };
    let now = st.clock.now();
    let by = who.0.staff.clone();
    match st
        .write(move |_, conn| services::staff::update(conn, now, &by, id, &input))
        .await
    {
        Ok(_) => Ok(saved_redirect(&st, &format!("/admin/staff/{id}"))),
        Err(e) => {
            let c = ctx(&req, &st, &who.0).await?;
            let s = shown(&c, e)?;
            let status = s.status;
            let page = staff_edit_view(&req, &st, &who, id, Some(Vals::of(&f)), s, false).await?;
            render(status, &page)
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Audit trail
// ---------------------------------------------------------------------------------------------

/// The audit filter as typed (a GET form: no CSRF). Dates are in the room's zone.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(default)]
struct AuditQuery {
    actor: String,
    action: String,
    subject_kind: String,
    subject_id: String,
    from: String,
    to: String,
    limit: String,
    before_seq: String,
}

const SUBJECT_KINDS: &[&str] = &["player", "staff", "game", "table", "room", "ruling"];

/// One audit record, formatted.
pub struct AuditLine {
    pub r: AuditRow,
    /// Where the subject can be seen, if anywhere.
    pub link: Option<String>,
    pub short_hash: String,
    /// For a `draw.record`: the draw's id, linked to `/draws/{id}`.
    pub draw: Option<i64>,
}

fn audit_line(r: AuditRow) -> AuditLine {
    let link = match (r.subject_kind.as_str(), r.subject_id) {
        ("player", Some(id)) => Some(format!("/players/{id}")),
        ("game", Some(id)) => Some(format!("/admin/games/{id}")),
        ("table", Some(id)) => Some(format!("/admin/tables/{id}")),
        ("staff", Some(id)) => Some(format!("/admin/staff/{id}")),
        ("room", _) => Some("/admin/room".to_string()),
        ("ruling", Some(id)) => Some(format!("/floor/rulings/{id}")),
        _ => None,
    };
    let short_hash = r.hash.chars().take(12).collect();
    // A draw's record names its draw: the row links to the readable record.
    let draw = if r.action == "draw.record" {
        serde_json::from_str::<serde_json::Value>(&r.after_json)
            .ok()
            .and_then(|v| v.get("id")?.as_i64())
    } else {
        None
    };
    AuditLine {
        r,
        link,
        short_hash,
        draw,
    }
}

#[derive(Template)]
#[template(path = "admin/audit.html")]
struct AuditPage {
    c: Ctx,
    v: Vals,
    errs: Errs,
    summary: Vec<SumLine>,
    kinds: Vec<Opt>,
    lines: Vec<AuditLine>,
    /// The next (older) page, with the same filters.
    older: Option<String>,
    /// A page further back than the newest (a link back to the start is shown).
    paged: bool,
}

/// From (inclusive) and to (exclusive), in UTC.
struct Period {
    from: Option<DateTime<Utc>>,
    to: Option<DateTime<Utc>>,
}

impl AuditQuery {
    /// The service's filter, plus the period in UTC.
    fn parse(&self, tz: chrono_tz::Tz) -> Result<(AuditFilter, Period), Vec<FieldError>> {
        let mut p = Parser::default();
        let nonempty = |s: &str| Some(s.trim().to_string()).filter(|s| !s.is_empty());
        let f = AuditFilter {
            actor: nonempty(&self.actor),
            action: nonempty(&self.action),
            subject_kind: nonempty(&self.subject_kind),
            subject_id: p.opt_i64("subject_id", &self.subject_id),
            before_seq: p.opt_i64("before_seq", &self.before_seq),
            limit: p.opt_i64("limit", &self.limit),
        };
        let mut date = |field: &str, s: &str, next_day: bool| -> Option<DateTime<Utc>> {
            let t = s.trim();
            if t.is_empty() {
                return None;
            }
            // A date alone: from its start; "to" a date includes that whole day.
            let t = match chrono::NaiveDate::parse_from_str(t, "%Y-%m-%d") {
                Ok(d) if next_day => d
                    .succ_opt()
                    .map(|d| d.format("%Y-%m-%d").to_string())
                    .unwrap_or_else(|| t.to_string()),
                _ => t.to_string(),
            };
            match services::players::parse_local(field, &t, tz) {
                Ok(at) => Some(at),
                Err(_) => {
                    // The boxes take a date (a date and time is accepted too).
                    p.errs.push(FieldError::new(field, "err-date"));
                    None
                }
            }
        };
        let from = date("from", &self.from, false);
        let to = date("to", &self.to, true);
        if let Some(k) = &f.subject_kind {
            if !SUBJECT_KINDS.contains(&k.as_str()) {
                p.errs.push(
                    FieldError::new("subject_kind", "err-choice")
                        .arg("value", k.chars().take(40).collect::<String>()),
                );
            }
        }
        if let Some(l) = f.limit {
            if !(1..=200).contains(&l) {
                p.errs.push(FieldError::new("limit", "err-limit"));
            }
        }
        p.finish(Vec::new)?;
        Ok((f, Period { from, to }))
    }

    /// The same filters, one page further back.
    fn older_than(&self, seq: i64) -> String {
        let pairs: Vec<(&str, &str)> = [
            ("actor", self.actor.as_str()),
            ("action", self.action.as_str()),
            ("subject_kind", self.subject_kind.as_str()),
            ("subject_id", self.subject_id.as_str()),
            ("from", self.from.as_str()),
            ("to", self.to.as_str()),
            ("limit", self.limit.as_str()),
        ]
        .into_iter()
        .filter(|(_, v)| !v.trim().is_empty())
        .collect();
        let seq = seq.to_string();
        let mut all = pairs;
        all.push(("before_seq", &seq));
        format!(
            "/admin/audit?{}",
            serde_urlencoded::to_string(&all).unwrap_or_default()
        )
    }
}

async fn audit_page(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: AdminStaff,
    q: web::Query<AuditQuery>,
) -> AppResult<HttpResponse> {
    let c = ctx(&req, &st, &who.0).await?;
    let q = q.into_inner();
    let kinds: Vec<Opt> = SUBJECT_KINDS
        .iter()
        .map(|k| Opt {
            value: k.to_string(),
            label: c.tk("admin-audit-kind-", k),
        })
        .collect();
    let v = Vals::of(&q);
    let paged = !q.before_seq.trim().is_empty();
    let rows = match q.parse(c.tz) {
        Ok((filter, period)) => {
            st.run(move |_, conn| services::audit::list(conn, &filter, period.from, period.to))
                .await
        }
        Err(fields) => Err(AppError::Validation(fields)),
    };
    match rows {
        Ok(rows) => {
            let limit = q.limit.trim().parse::<usize>().unwrap_or(50);
            let older = match rows.last() {
                Some(last) if rows.len() >= limit => Some(q.older_than(last.seq)),
                _ => None,
            };
            let lines = rows.into_iter().map(audit_line).collect();
            render(
                StatusCode::OK,
                &AuditPage {
                    c,
                    v,
                    errs: Errs::default(),
                    summary: Vec::new(),
                    kinds,
                    lines,
                    older,
                    paged,
                },
            )
        }
        Err(AppError::Validation(fields)) => {
            let errs = c.errors(&fields);
            let summary = summary(&c, &errs, AUDIT_LABELS);
            render(
                StatusCode::UNPROCESSABLE_ENTITY,
                &AuditPage {
                    c,
                    v,
                    errs,
                    summary,
                    kinds,
                    lines: Vec::new(),
                    older: None,
                    paged,
                },
            )
        }
        Err(e) => Err(e),
    }
}

#[derive(Template)]
#[template(path = "admin/audit_verify.html")]
struct VerifyPage {
    c: Ctx,
    ok: bool,
    broken_at: Option<i64>,
    records: u64,
    checkpoints: usize,
    sealed_up_to: Option<i64>,
    /// The problem with the first broken record, in the reader's language.
    problem: String,
    /// The database's identity the checkpoints name.
    database_id: String,
    /// Every checkpoint file checked.
    series: Vec<SeriesRow>,
}

/// One checkpoint file on the verify page, said in the reader's language.
struct SeriesRow {
    host: String,
    file: String,
    checkpoints: usize,
    last_seq: Option<i64>,
    result: String,
    /// Not a finding (`ok`, or the old file left to another database).
    fine: bool,
}

async fn audit_verify(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: AdminStaff,
) -> AppResult<HttpResponse> {
    let c = ctx(&req, &st, &who.0).await?;
    let v = st
        .run(|st, conn| services::audit::verify_all(conn, &st.seal))
        .await?;
    if !v.ok() {
        let (now, actor, failed) = (
            st.clock.now(),
            services::staff::actor(&who.0.staff),
            v.clone(),
        );
        // Best effort: the verification is answered even if the trail cannot take the
        // record (e.g. records slipped in ahead of its counter).
        if let Err(e) = st
            .write(move |_, c| services::audit::record_failure(c, now, &actor, &failed))
            .await
        {
            log::warn!("recording the failed audit check: {e}");
        }
    }
    // The report names the problem by code; each is said in the reader's language.
    let problem = v
        .problem()
        .map(|p| c.tk("admin-audit-broken-", p))
        .unwrap_or_default();
    let page = VerifyPage {
        ok: v.ok(),
        broken_at: v.broken_at(),
        records: v.chain.records,
        checkpoints: v.seal.checkpoints,
        sealed_up_to: v.seal.sealed_up_to,
        database_id: v.seal.database_id.clone(),
        series: v
            .seal
            .series
            .iter()
            .map(|s| SeriesRow {
                host: match &s.host {
                    Some(h) if h == &v.seal.host => c.t1("audit-seal-this-host", "host", h),
                    Some(h) => h.clone(),
                    None => c.t("audit-seal-no-host"),
                },
                file: s.file.clone(),
                checkpoints: s.checkpoints,
                last_seq: s.last_seq,
                result: c.tk("audit-seal-result-", s.result.code()),
                fine: !matches!(s.result, crate::audit_seal::SeriesResult::Broken(_)),
            })
            .collect(),
        c,
        problem,
    };
    render(StatusCode::OK, &page)
}
