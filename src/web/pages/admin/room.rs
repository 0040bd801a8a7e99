//! The admin's room page: the room's name, zone, currency and language, its theme, and the
//! rule profile with its numbers in groups; and the switch to another rule profile, in two
//! steps (no script needed): choose the profile, then see which house rules differ from its
//! defaults and confirm, row by row, the ones to apply.

use super::{
    bp_to_percent, check_value, checkbox, just_saved, opts, saved_redirect, show, shown, summary,
    Opt, Parser, Shown, SumLine,
};
use crate::domain::call_alert::CallAlert;
use crate::domain::money::CURRENCIES;
use crate::domain::player::Language;
use crate::domain::profile::{
    differences, CagnotteMode, CallExpiry, ProfileKind, RuleProfile, SettingChange, RANGES,
};
use crate::domain::theme::Theme;
use crate::domain::FieldError;
use crate::error::{AppError, AppResult};
use crate::services;
use crate::services::room::{Room, RoomUpdate};
use crate::web::ctx::{Ctx, Errs, Vals};
use crate::web::extract::{ActingAs, AdminStaff, CsrfForm};
use crate::web::pages::{ctx, render};
use crate::web::state::AppState;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/admin/room", web::get().to(room_page))
        .route("/admin/room", web::post().to(room_submit))
        .route("/admin/room/profile", web::get().to(switch_page))
        .route("/admin/room/profile", web::post().to(switch_submit));
}

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
    (
        "dealers",
        &[
            ("push_down_min", Input::Minutes),
            ("push_break_min", Input::Minutes),
            ("push_break_after_downs", Input::Count),
            ("push_break_after_min", Input::Minutes),
            ("tips_pooled", Input::Check),
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
    push_down_min: String,
    push_break_min: String,
    push_break_after_downs: String,
    push_break_after_min: String,
    join_at_average_stack: Option<String>,
    join_at_average_session_only: Option<String>,
    missed_blinds_dead: Option<String>,
    no_flop_no_drop: Option<String>,
    tips_pooled: Option<String>,
}

impl RoomForm {
    // The form shows each of the room's settings.
    #[allow(clippy::too_many_arguments)]
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
            push_down_min: p.push_down_min.to_string(),
            push_break_min: p.push_break_min.to_string(),
            push_break_after_downs: p.push_break_after_downs.to_string(),
            push_break_after_min: p.push_break_after_min.to_string(),
            join_at_average_stack: check_value(p.join_at_average_stack),
            join_at_average_session_only: check_value(p.join_at_average_session_only),
            missed_blinds_dead: check_value(p.missed_blinds_dead),
            no_flop_no_drop: check_value(p.no_flop_no_drop),
            tips_pooled: check_value(p.tips_pooled),
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

    /// The screens' settings; each left empty (a form of before the setting): unchanged.
    fn screens(&self, p: &mut Parser) -> (Option<Theme>, Option<CallAlert>, Option<i32>) {
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
        (theme, call_alert, tap_late_max_s)
    }

    fn parse(&self) -> Result<RoomUpdate, Vec<FieldError>> {
        let mut p = Parser::default();
        let default_language = p.choice::<Language>("default_language", &self.default_language);
        let (theme, call_alert, tap_late_max_s) = self.screens(&mut p);
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
            push_down_min: p
                .int("push_down_min", &self.push_down_min)
                .unwrap_or(d.push_down_min),
            push_break_min: p
                .int("push_break_min", &self.push_break_min)
                .unwrap_or(d.push_break_min),
            push_break_after_downs: p
                .int("push_break_after_downs", &self.push_break_after_downs)
                .unwrap_or(d.push_break_after_downs),
            push_break_after_min: p
                .int("push_break_after_min", &self.push_break_after_min)
                .unwrap_or(d.push_break_after_min),
            join_at_average_stack: checkbox(&self.join_at_average_stack),
            join_at_average_session_only: checkbox(&self.join_at_average_session_only),
            missed_blinds_dead: checkbox(&self.missed_blinds_dead),
            no_flop_no_drop: checkbox(&self.no_flop_no_drop),
            tips_pooled: checkbox(&self.tips_pooled),
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
    /// The profile kind stored now (the switch form's preselection).
    current_kind: String,
    /// Its name, shown in the main form (which keeps it: the switch changes it).
    kind_label: String,
}

fn room_view(c: Ctx, v: Vals, current_kind: String, shown: Shown, saved: bool) -> RoomPage {
    RoomPage {
        kind_label: c.tk("profile-", &current_kind),
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
    ("push_down_min", "admin-profile-push-down-min"),
    ("push_break_min", "admin-profile-push-break-min"),
    (
        "push_break_after_downs",
        "admin-profile-push-break-after-downs",
    ),
    ("push_break_after_min", "admin-profile-push-break-after-min"),
    ("tips_pooled", "admin-profile-tips-pooled"),
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
    who: ActingAs<AdminStaff>,
    form: CsrfForm<RoomForm>,
) -> AppResult<HttpResponse> {
    let f = form.0;
    let update = match f.parse() {
        Ok(u) => u,
        Err(fields) => {
            return room_again(
                &req,
                &st,
                &who.who,
                Vals::of(&f),
                AppError::Validation(fields),
            )
            .await
        }
    };
    let acting = who.acting;
    match st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            services::room::update(conn, act, &update)
        })
        .await
    {
        Ok(_) => Ok(saved_redirect(&st, "/admin/room")),
        Err(e) => room_again(&req, &st, &who.who, Vals::of(&f), e).await,
    }
}

// ---------------------------------------------------------------------------------------------
// Switching the rule profile: choose (a GET form), see the differences and confirm (a POST).
// ---------------------------------------------------------------------------------------------

/// The profile chosen in the first step (`?kind=…`).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct SwitchQuery {
    kind: String,
}

/// One house rule that differs from the chosen profile's default: a row of the table.
pub struct SwitchRow {
    pub name: String,
    pub label: String,
    pub now: String,
    pub default: String,
    /// Applied if the admin leaves it ticked (every row is, at first).
    pub apply: bool,
}

#[derive(Template)]
#[template(path = "admin/room_profile.html")]
struct SwitchPage {
    c: Ctx,
    errs: Errs,
    summary: Vec<SumLine>,
    problem: Option<String>,
    saved: bool,
    /// The profile switched to (its value and name) and the one followed now (its name).
    to: String,
    to_label: String,
    from_label: String,
    /// Choosing the profile the room follows: the rows go back to its seed defaults.
    same: bool,
    rows: Vec<SwitchRow>,
}

/// How a setting is entered on the room form, found by its name.
fn input_of(name: &str) -> Option<Input> {
    GROUPS
        .iter()
        .flat_map(|(_, fields)| fields.iter())
        .find(|(n, _)| *n == name)
        .map(|(_, input)| *input)
}

/// A setting's value as the room form speaks of it: minutes, a percentage, yes or no, a
/// choice's name.
fn said(c: &Ctx, input: Option<Input>, v: &Value) -> String {
    let n = v.as_i64().unwrap_or_default();
    match (input, v) {
        (Some(Input::Percent), _) => format!(
            "{} %",
            bp_to_percent(i32::try_from(n).unwrap_or_default(), c.lang)
        ),
        (Some(Input::Minutes), _) => c.t1("admin-profile-minutes", "n", n),
        (Some(Input::Check), _) => c.t(if v.as_bool() == Some(true) {
            "admin-profile-yes"
        } else {
            "admin-profile-no"
        }),
        (Some(Input::CagnotteMode), Value::String(s)) => c.tk("cagnotte-", s),
        (Some(Input::CallExpiry), Value::String(s)) => c.tk("call-expiry-", s),
        (_, Value::String(s)) => s.clone(),
        _ => v.to_string(),
    }
}

/// The table's rows, in the room form's order; `apply` says which are ticked.
fn switch_rows(c: &Ctx, changes: &[SettingChange], apply: impl Fn(&str) -> bool) -> Vec<SwitchRow> {
    let order = |name: &str| {
        GROUPS
            .iter()
            .flat_map(|(_, fields)| fields.iter())
            .position(|(n, _)| *n == name)
            .unwrap_or(usize::MAX)
    };
    let mut changes: Vec<&SettingChange> = changes.iter().collect();
    changes.sort_by_key(|ch| order(&ch.setting));
    changes
        .into_iter()
        .map(|ch| {
            let input = input_of(&ch.setting);
            SwitchRow {
                label: c.t(&format!("admin-profile-{}", ch.setting.replace('_', "-"))),
                now: said(c, input, &ch.now),
                default: said(c, input, &ch.default),
                apply: apply(&ch.setting),
                name: ch.setting.clone(),
            }
        })
        .collect()
}

fn switch_view(
    c: Ctx,
    room: &Room,
    to: ProfileKind,
    apply: impl Fn(&str) -> bool,
    shown: Shown,
) -> SwitchPage {
    let changes = differences(&room.profile, to);
    let rows = switch_rows(&c, &changes, apply);
    SwitchPage {
        summary: summary(&c, &shown.errs, PROFILE_LABELS),
        to: to.to_string(),
        to_label: c.tk("profile-", to),
        from_label: c.tk("profile-", room.profile.kind),
        same: to == room.profile.kind,
        rows,
        errs: shown.errs,
        problem: shown.problem,
        saved: false,
        c,
    }
}

/// A profile that is not one of the choices: the room page again, the message by the choice.
async fn unknown_profile(
    req: &HttpRequest,
    st: &AppState,
    who: &AdminStaff,
    errs: Vec<FieldError>,
) -> AppResult<HttpResponse> {
    let room = st.run(|_, conn| services::room::get(conn)).await?;
    let lang = ctx(req, st, &who.0).await?.lang;
    let v = Vals::of(&RoomForm::from_room(&room, lang));
    room_again(req, st, who, v, AppError::Validation(errs)).await
}

/// The second step: the house rules that differ from the chosen profile's defaults, each
/// ticked, to confirm.
async fn switch_page(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: AdminStaff,
    q: web::Query<SwitchQuery>,
) -> AppResult<HttpResponse> {
    let mut p = Parser::default();
    let Some(to) = p.choice::<ProfileKind>("kind", &q.kind) else {
        return unknown_profile(&req, &st, &who, p.errs).await;
    };
    let c = ctx(&req, &st, &who.0).await?;
    let room = st.run(|_, conn| services::room::get(conn)).await?;
    let page = switch_view(c, &room, to, |_| true, Shown::none());
    show(&st, StatusCode::OK, &page, false)
}

/// The confirmation: the profile's name changes, and each ticked rule takes the profile's
/// default (a patch of the room, audited as any change of it); the rules left unticked keep
/// their values.
async fn switch_submit(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: ActingAs<AdminStaff>,
    form: CsrfForm<Vec<(String, String)>>,
) -> AppResult<HttpResponse> {
    let pairs = form.0;
    let kind = pairs
        .iter()
        .find(|(k, _)| k == "kind")
        .map(|(_, v)| v.as_str())
        .unwrap_or_default();
    let mut p = Parser::default();
    let Some(to) = p.choice::<ProfileKind>("kind", kind) else {
        return unknown_profile(&req, &st, &who.who, p.errs).await;
    };
    let confirmed: Vec<String> = pairs
        .iter()
        .filter(|(k, _)| k == "apply")
        .map(|(_, v)| v.clone())
        .collect();
    let seed = RuleProfile::defaults(to).to_map();
    let mut profile = Map::new();
    profile.insert("kind".into(), json!(to.as_str()));
    for name in &confirmed {
        // A name that is no setting is refused by the patch, naming it.
        profile.insert(name.clone(), seed.get(name).cloned().unwrap_or(Value::Null));
    }
    let mut patch = Map::new();
    patch.insert("profile".into(), Value::Object(profile));
    let acting = who.acting;
    let result = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            services::room::patch(conn, act, &patch)
        })
        .await;
    match result {
        Ok(_) => Ok(saved_redirect(&st, "/admin/room")),
        Err(e) => {
            let c = ctx(&req, &st, &who.who.0).await?;
            let e = match e {
                AppError::Validation(fields) => AppError::Validation(in_percent(fields)),
                other => other,
            };
            let s = shown(&c, e)?;
            let status = s.status;
            let room = st.run(|_, conn| services::room::get(conn)).await?;
            let page = switch_view(c, &room, to, |n| confirmed.iter().any(|a| a == n), s);
            render(status, &page)
        }
    }
}
