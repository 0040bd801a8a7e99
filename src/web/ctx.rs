//! What every page knows: the language, the signed-in staff member, the CSRF token, the room,
//! plus formatting helpers (dates in the room's zone, money in the room's currency).

use crate::db::models::StaffRow;
use crate::domain::money::format_money;
use crate::domain::player::Language;
use crate::domain::FieldError;
use crate::i18n::{negotiate, I18n};
use crate::services::room::Room;
use actix_web::HttpRequest;
use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};
use chrono_tz::Tz;
use std::collections::BTreeMap;
use std::sync::Arc;

pub const LANG_COOKIE: &str = "cr_lang";

/// The language of a request: the `cr_lang` cookie (the user's choice), else Accept-Language.
pub fn request_lang(req: &HttpRequest) -> Language {
    let cookie = req.cookie(LANG_COOKIE);
    let accept = req
        .headers()
        .get("accept-language")
        .and_then(|h| h.to_str().ok());
    negotiate(cookie.as_ref().map(|c| c.value()), accept)
}

/// The language a request asks for, if it asks (a `cr_lang` cookie or an Accept-Language
/// header): a file an API client fetches without either is written in the room's language.
pub fn asked_lang(req: &HttpRequest) -> Option<Language> {
    let asks = req.cookie(LANG_COOKIE).is_some() || req.headers().contains_key("accept-language");
    asks.then(|| request_lang(req))
}

/// Lets templates pass values, references or references to references alike.
pub trait Val<T> {
    fn val(&self) -> T;
}
impl<T: Copy> Val<T> for T {
    fn val(&self) -> T {
        *self
    }
}
impl<T: Copy> Val<T> for &T {
    fn val(&self) -> T {
        **self
    }
}
impl<T: Copy> Val<T> for &&T {
    fn val(&self) -> T {
        ***self
    }
}

pub struct Ctx {
    pub lang: Language,
    pub i18n: Arc<I18n>,
    pub me: Option<StaffRow>,
    pub csrf: String,
    pub room_name: String,
    pub currency: String,
    pub tz: Tz,
    /// Night mode: the room's theme for its screens.
    pub theme: crate::domain::theme::Theme,
    /// How a seat call is announced on the dealers' tablets (a chime, a vibration).
    pub call_alert: crate::domain::call_alert::CallAlert,
    pub path: String,
    pub now: DateTime<Utc>,
    /// A scheduled backup failed at this time (and: the viewer is an admin, who gets a link).
    pub alert: Option<(NaiveDateTime, bool)>,
    /// Admins: the last background check of the audit trail failed (its problem, in words).
    pub audit_alert: Option<String>,
}

impl Ctx {
    pub fn new(
        req: &HttpRequest,
        i18n: Arc<I18n>,
        room: &Room,
        me: Option<StaffRow>,
        csrf: String,
        now: DateTime<Utc>,
    ) -> Ctx {
        Ctx {
            lang: request_lang(req),
            i18n,
            me,
            csrf,
            room_name: room.name.clone(),
            currency: room.currency.clone(),
            tz: room.tz,
            theme: room.theme,
            call_alert: room.call_alert,
            path: req.path().to_string(),
            now,
            alert: None,
            audit_alert: None,
        }
    }

    /// Night mode: the theme a page opens in before `theme.js` reads the device's own choice
    /// (the room's dark is dark at once; `auto` is light, and dark on the lobby screen).
    pub fn theme_first(&self) -> &'static str {
        use crate::domain::theme::Theme;
        match self.theme {
            Theme::Dark => "dark",
            Theme::Auto if self.path.starts_with("/lobby") => "dark",
            Theme::Light | Theme::Auto => "light",
        }
    }

    /// A fresh idempotency key for one rendered form (its hidden `idempotency_key` field):
    /// the same form sent twice is applied once (`web::idempotency`).
    pub fn form_key(&self) -> String {
        crate::auth::random_token(18)
    }

    pub fn t(&self, key: &str) -> String {
        self.i18n.t(self.lang, key)
    }

    /// The message for a key built from a prefix and a value (`doc-` + `passport`); dots in the
    /// value become dashes (`action-` + `player.create`).
    pub fn tk(&self, prefix: &str, value: impl std::fmt::Display) -> String {
        self.t(&format!("{prefix}{}", value.to_string().replace('.', "-")))
    }

    /// A message with one argument.
    pub fn t1(&self, key: &str, name: &str, value: impl ToString) -> String {
        self.i18n.msg(self.lang, key, &[(name, value.to_string())])
    }

    /// A message with two arguments.
    pub fn t2(
        &self,
        key: &str,
        name: &str,
        value: impl ToString,
        name2: &str,
        value2: impl ToString,
    ) -> String {
        self.i18n.msg(
            self.lang,
            key,
            &[(name, value.to_string()), (name2, value2.to_string())],
        )
    }

    /// A seat preference in a few words of the page's language ("seats 1, 2 ·
    /// not table 3 · accessible seat · waits for it").
    pub fn pref(&self, p: &crate::services::seat_prefs::PrefSummary) -> String {
        let mut parts = Vec::new();
        if !p.seats.is_empty() {
            parts.push(self.t1("pref-seats", "seats", &p.seats));
        }
        if !p.avoid_tables.is_empty() {
            parts.push(self.t1("pref-avoid", "tables", &p.avoid_tables));
        }
        if p.accessible {
            parts.push(self.t("pref-accessible"));
        }
        if p.wait_for_match {
            parts.push(self.t("pref-waits"));
        }
        parts.join(" · ")
    }

    /// A seat's accessible name: the action, the table, the seat and who sits or is called
    /// there (a screen reader hears "Call the next player: table 5, seat 3", not "Call").
    pub fn seat_label(
        &self,
        key: &str,
        table: impl ToString,
        seat: impl ToString,
        who: Option<&str>,
    ) -> String {
        let place = self.i18n.msg(
            self.lang,
            "floor-a11y-seat",
            &[("table", table.to_string()), ("seat", seat.to_string())],
        );
        let action = self.t(key);
        match who {
            Some(w) => format!("{action}: {w}, {place}"),
            None => format!("{action}: {place}"),
        }
    }

    /// The wait every screen shows (`services::waits`), in the page's language: "a seat is
    /// free now", no figure without history, an interval, or "more than" past what the
    /// history covers.
    pub fn waits(&self, e: impl Val<crate::domain::waits::WaitEstimate>) -> String {
        use crate::domain::waits::WaitEstimate as W;
        let dur = |m: i64| {
            self.i18n.msg(
                self.lang,
                "waits-duration",
                &[
                    ("hours", (m / 60).to_string()),
                    ("minutes", (m % 60).to_string()),
                ],
            )
        };
        let say = |key: &str, args: &[(&str, String)]| self.i18n.msg(self.lang, key, args);
        match e.val() {
            W::FreeNow => self.t("waits-free-now"),
            W::Unknown => self.t("waits-unknown"),
            W::Between { low: 0, high } => say("waits-up-to", &[("time", dur(high))]),
            W::Between { low, high } if high < 60 => say(
                "waits-between-min",
                &[("low", low.to_string()), ("high", high.to_string())],
            ),
            W::Between { low, high } => {
                say("waits-between", &[("low", dur(low)), ("high", dur(high))])
            }
            W::MoreThan { minutes } => say("waits-more-than", &[("time", dur(minutes))]),
        }
    }

    pub fn lang_code(&self) -> &'static str {
        self.lang.as_str()
    }

    pub fn money(&self, minor: impl Val<i64>) -> String {
        format_money(minor.val(), &self.currency, self.lang)
    }

    pub fn money_opt(&self, minor: impl Val<Option<i64>>) -> String {
        minor
            .val()
            .map(|m| self.money(m))
            .unwrap_or_else(|| "—".into())
    }

    /// PT-2007 22, BSOP 24: a table's limits in a few words of the page's language
    /// ("€1.00 / €2.00 · buy-in €40.00 – €200.00").
    pub fn limits(&self, l: impl Val<crate::domain::limits::Limits>) -> String {
        let l = l.val();
        let buy_in = match l.buy_in_max {
            Some(max) => self.i18n.msg(
                self.lang,
                "limits-buy-in-range",
                &[("min", self.money(l.buy_in_min)), ("max", self.money(max))],
            ),
            None => self.t1("limits-buy-in-from", "min", self.money(l.buy_in_min)),
        };
        format!(
            "{} / {} · {buy_in}",
            self.money(l.small_blind),
            self.money(l.big_blind)
        )
    }

    /// PT-2007 22: when a limit change takes effect ("from the next hand", "from 22:00").
    pub fn limits_when(&self, at: impl Val<Option<NaiveDateTime>>) -> String {
        match at.val() {
            Some(t) => self.t1("limits-from-time", "time", self.time(t)),
            None => self.t("limits-from-next-hand"),
        }
    }

    /// A stored UTC time shown in the room's zone.
    pub fn dt(&self, t: impl Val<NaiveDateTime>) -> String {
        let local = t.val().and_utc().with_timezone(&self.tz);
        match self.lang {
            Language::Pt => local.format("%d/%m/%Y %H:%M").to_string(),
            Language::En => local.format("%d %b %Y %H:%M").to_string(),
        }
    }

    /// A stored UTC time as the room's clock time (HH:MM).
    pub fn time(&self, t: impl Val<NaiveDateTime>) -> String {
        t.val()
            .and_utc()
            .with_timezone(&self.tz)
            .format("%H:%M")
            .to_string()
    }

    /// Whole seconds left until a stored deadline (0 once passed); pages count down from it.
    pub fn seconds_left(&self, t: impl Val<NaiveDateTime>) -> i64 {
        (t.val().and_utc() - self.now).num_seconds().max(0)
    }

    /// Time left until a stored deadline, as m:ss (0:00 once passed).
    pub fn remaining(&self, t: impl Val<NaiveDateTime>) -> String {
        let secs = (t.val().and_utc() - self.now).num_seconds().max(0);
        format!("{}:{:02}", secs / 60, secs % 60)
    }

    /// How long ago a stored time was, short: "35 min", "2 h 05".
    pub fn elapsed(&self, t: impl Val<NaiveDateTime>) -> String {
        let m = (self.now - t.val().and_utc()).num_minutes().max(0);
        if m < 60 {
            format!("{m} min")
        } else {
            format!("{} h {:02}", m / 60, m % 60)
        }
    }

    /// A number of minutes, short: "35 min", "2 h 05" (the time a cash-out's receipt counts).
    pub fn minutes(&self, m: impl Val<i64>) -> String {
        let m = m.val().max(0);
        if m < 60 {
            format!("{m} min")
        } else {
            format!("{} h {:02}", m / 60, m % 60)
        }
    }

    /// Whole seconds left until an instant (0 once passed).
    pub fn seconds_to(&self, t: &DateTime<Utc>) -> i64 {
        (*t - self.now).num_seconds().max(0)
    }

    /// Time left until an instant, as m:ss.
    pub fn remaining_to(&self, t: &DateTime<Utc>) -> String {
        let secs = self.seconds_to(t);
        format!("{}:{:02}", secs / 60, secs % 60)
    }

    /// An instant as the room's clock time (HH:MM).
    pub fn clock(&self, t: &DateTime<Utc>) -> String {
        t.with_timezone(&self.tz).format("%H:%M").to_string()
    }

    /// An amount as typed in a form field (no currency sign, a dot for decimals).
    pub fn amount_input(&self, minor: impl Val<i64>) -> String {
        let m = minor.val();
        match crate::domain::money::minor_digits(&self.currency).unwrap_or(2) {
            0 => m.to_string(),
            d => {
                let f = 10i64.pow(d);
                format!(
                    "{}{}.{:0w$}",
                    if m < 0 { "-" } else { "" },
                    (m / f).abs(),
                    (m % f).abs(),
                    w = d as usize
                )
            }
        }
    }

    /// Floor managers and admins may override and extend (BSOP 36, 38).
    pub fn is_supervisor(&self) -> bool {
        matches!(self.role(), "admin" | "floor")
    }

    /// A seat's stored notice: a rule message key, with the rest count after `|` for
    /// `rules-hands-resting` (see `services::table_side::new_hand`).
    pub fn notice(&self, stored: &str) -> String {
        match stored.split_once('|') {
            Some((key, hands)) => self.t1(key, "hands", hands),
            None => self.t(stored),
        }
    }

    pub fn dt_opt(&self, t: impl Val<Option<NaiveDateTime>>) -> String {
        t.val().map(|t| self.dt(t)).unwrap_or_else(|| "—".into())
    }

    pub fn date(&self, d: impl Val<NaiveDate>) -> String {
        crate::i18n::local_date(self.lang, d.val())
    }

    /// The value for an `<input type="datetime-local">` in the room's zone.
    pub fn local_input(&self, t: impl Val<NaiveDateTime>) -> String {
        t.val()
            .and_utc()
            .with_timezone(&self.tz)
            .format("%Y-%m-%dT%H:%M")
            .to_string()
    }

    pub fn role(&self) -> &str {
        self.me.as_ref().map(|m| m.role.as_str()).unwrap_or("")
    }

    pub fn is_admin(&self) -> bool {
        self.role() == "admin"
    }

    /// Floor managers and admins keep the registry.
    pub fn can_edit_players(&self) -> bool {
        matches!(self.role(), "admin" | "floor")
    }

    pub fn can_view_players(&self) -> bool {
        matches!(self.role(), "admin" | "floor" | "cashier")
    }

    /// Who keeps chips in custody (BSOP 36-39): the floor, the cashier, admins.
    pub fn can_keep_custody(&self) -> bool {
        matches!(self.role(), "admin" | "floor" | "cashier")
    }

    /// Where each role's work is: the floor's board, the dealer's tablet, the cashier's
    /// chips in custody (the landing page after sign-in and the brand's link).
    pub fn home(&self) -> &'static str {
        home_of(self.role())
    }

    /// `class="active"` for the current section in the navigation.
    pub fn nav(&self, prefix: &str) -> &'static str {
        let on = if prefix == "/" {
            self.path == "/"
        } else {
            self.path.starts_with(prefix)
        };
        if on {
            "active"
        } else {
            ""
        }
    }

    /// [`Ctx::nav`], except under `but` (a section of its own inside `prefix`).
    pub fn nav_but(&self, prefix: &str, but: &str) -> &'static str {
        if self.path.starts_with(but) {
            ""
        } else {
            self.nav(prefix)
        }
    }

    pub fn errors(&self, errs: &[FieldError]) -> Errs {
        let mut map: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for e in errs {
            let args: Vec<(&str, String)> = e.args.iter().map(|(k, v)| (*k, v.clone())).collect();
            map.entry(e.field.clone())
                .or_default()
                .push(self.i18n.msg(self.lang, e.key, &args));
        }
        Errs(map)
    }
}

/// Localized field errors for a form.
#[derive(Default)]
pub struct Errs(pub BTreeMap<String, Vec<String>>);

impl Errs {
    pub fn get(&self, field: &str) -> Option<String> {
        self.0.get(field).map(|v| v.join(" "))
    }
    pub fn cls(&self, field: &str) -> &'static str {
        if self.0.contains_key(field) {
            "has-error"
        } else {
            ""
        }
    }
    pub fn any(&self) -> bool {
        !self.0.is_empty()
    }
    /// Every message, for the summary at the top of a form.
    pub fn all(&self) -> Vec<String> {
        self.0.values().flatten().cloned().collect()
    }
}

/// A form's values as strings, for re-displaying what the user typed.
#[derive(Default)]
pub struct Vals(pub BTreeMap<String, String>);

impl Vals {
    pub fn of<T: serde::Serialize>(form: &T) -> Vals {
        let mut m = BTreeMap::new();
        if let Ok(serde_json::Value::Object(o)) = serde_json::to_value(form) {
            for (k, v) in o {
                let s = match v {
                    serde_json::Value::Null => String::new(),
                    serde_json::Value::String(s) => s,
                    other => other.to_string(),
                };
                m.insert(k, s);
            }
        }
        Vals(m)
    }
    pub fn get(&self, k: &str) -> &str {
        self.0.get(k).map(String::as_str).unwrap_or("")
    }
    /// `selected` when the field has this value.
    pub fn sel(&self, k: &str, v: &str) -> &'static str {
        if self.get(k) == v {
            "selected"
        } else {
            ""
        }
    }
    pub fn checked(&self, k: &str) -> &'static str {
        if matches!(self.get(k), "true" | "on" | "1") {
            "checked"
        } else {
            ""
        }
    }
}

/// A role's landing page (see [`Ctx::home`]).
pub fn home_of(role: &str) -> &'static str {
    match role {
        "admin" | "floor" => "/floor",
        "dealer" => "/tablet",
        "cashier" => "/floor/custody",
        _ => "/",
    }
}
