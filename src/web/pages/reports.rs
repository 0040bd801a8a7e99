//! The room's reports for the floor and the admin: `/floor/reports` (a gaming day
//! or a month, optionally one game or one table), its CSV export (`/floor/reports.csv`, one
//! file per table of figures, chosen by `part`), the same figures as JSON
//! (`/floor/reports.json`), and the players' hours for comps (`/floor/reports/players`, with
//! its CSV). Every one of them reads the one [`services::reports::Report`] (or
//! [`services::reports::PlayersMonth`]), so the page, the CSV and the JSON show the same
//! totals.
//!
//! Query: `day=YYYY-MM-DD` or `month=YYYY-MM` (neither: today's gaming day in the room's
//! zone), `game=<id>`, `table=<id>`; the CSV adds `part=tables|games|days|shifts|waits|hours|limits`
//! (`table` names the filter, so the figure table is `part`). A malformed value or an
//! unknown game or table is a 400 with the reason in the user's language.
//!
//! The charts are SVG written here ([`chart`]) rather than drawn with `plotters`: three bar
//! charts need axes, bars and text, nothing more; our own SVG needs no fonts on the server
//! (`plotters` measures text with a font backend), carries `<title>`/`<desc>` and
//! `aria-labelledby` for screen readers, uses presentation attributes only (the pages'
//! Content-Security-Policy allows no inline `style`), and adds no dependency.

use super::{ctx, render};
use crate::domain::money::minor_digits;
use crate::domain::player::Language;
use crate::domain::Problem;
use crate::error::{AppError, AppResult};
use crate::services;
use crate::services::reports::{self, Figures, Filter, Period, PlayersMonth, Report};
use crate::web::ctx::{Ctx, Val};
use crate::web::extract::FloorStaff;
use crate::web::state::AppState;
use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use chrono::{DateTime, Datelike, NaiveDate, NaiveTime, Utc};
use serde::Deserialize;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/floor/reports", web::get().to(page))
        .route("/floor/reports.csv", web::get().to(csv_export))
        .route("/floor/reports.json", web::get().to(json))
        .route("/floor/reports/players", web::get().to(players_page))
        .route("/floor/reports/players.csv", web::get().to(players_csv));
}

/// The query of every report address (all optional; empty means absent, as a form sends it).
#[derive(Debug, Default, Clone, Deserialize, utoipa::IntoParams)]
pub struct ReportQuery {
    /// A gaming day, `YYYY-MM-DD` (default: today's, in the room's zone).
    #[param(format = Date)]
    pub day: Option<String>,
    /// A month, `YYYY-MM` (instead of `day`; both: 422).
    #[param(pattern = "^[0-9]{4}-(0[1-9]|1[0-2])$")]
    pub month: Option<String>,
    /// Only this game (its id; an unknown one: 422).
    #[param(value_type = Option<i64>)]
    pub game: Option<String>,
    /// Only this table (its id; an unknown one: 422).
    #[param(value_type = Option<i64>)]
    pub table: Option<String>,
    /// CSV: which table of figures (`tables`, `games`, `days`, `shifts`, `waits`, `hours`, `limits`;
    /// players' hours: `players`, `days`).
    pub part: Option<String>,
    /// Players' hours: only this player (their number).
    pub player: Option<String>,
    /// The page's form has both fields and two buttons: `day` or `month` says which to use.
    pub by: Option<String>,
}

fn id_param(v: &Option<String>, param: &str, key: &'static str) -> AppResult<Option<i64>> {
    match v.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        None => Ok(None),
        Some(s) => s.parse::<i64>().map(Some).map_err(|_| {
            reports::refused(
                param,
                Problem::new(key).arg("value", s.chars().take(40).collect::<String>()),
            )
        }),
    }
}

/// The gaming day's cut-over (`CARDROOM_GAMING_DAY_ENDS`, validated at start).
fn day_start(st: &AppState) -> NaiveTime {
    st.config.room.gaming_day_ends
}

/// Reads the query and builds the report (one service call, for the page, the CSV and the
/// JSON alike).
async fn load(
    st: &AppState,
    now: DateTime<Utc>,
    q: ReportQuery,
) -> AppResult<(Report, Period, Choices)> {
    let ds = day_start(st);
    st.run(move |_, conn| {
        let room = services::room::get(conn)?;
        let today = reports::gaming_date(now, room.tz, ds);
        let (day, month) = match q.by.as_deref() {
            Some("day") => (q.day.as_deref(), None),
            Some("month") => (None, q.month.as_deref()),
            _ => (q.day.as_deref(), q.month.as_deref()),
        };
        let period = Period::parse(day, month, today)?;
        let filter = Filter {
            game: id_param(&q.game, "game", "report-err-game")?,
            table: id_param(&q.table, "table", "report-err-table")?,
        };
        let setting = reports::Setting {
            tz: room.tz,
            timezone: &room.timezone,
            currency: &room.currency,
            day_start: ds,
        };
        let r = reports::build(conn, now, &setting, period, filter)?;
        let choices = Choices::load(conn)?;
        Ok((r, period, choices))
    })
    .await
}

/// The games and tables the filter offers.
pub struct Choices {
    pub games: Vec<(i64, String)>,
    pub tables: Vec<(i64, i32)>,
}

impl Choices {
    fn load(conn: &mut crate::db::DbConn) -> AppResult<Choices> {
        Ok(Choices {
            games: crate::services::lookups::games(conn)?,
            tables: crate::services::lookups::tables(conn, false)?,
        })
    }
}

// ---- numbers as the reader writes them ----------------------------------------------------

/// `v` with `places` decimals (`v` in units of 10^-places), with the language's decimal mark.
pub fn decimal(v: i64, places: u32, mark: char) -> String {
    let scale = 10i64.pow(places);
    let sign = if v < 0 { "-" } else { "" };
    let a = v.unsigned_abs();
    if places == 0 {
        return format!("{sign}{a}");
    }
    format!(
        "{sign}{}{mark}{:0w$}",
        a / scale as u64,
        a % scale as u64,
        w = places as usize
    )
}

fn mark(lang: Language) -> char {
    match lang {
        Language::Pt => ',',
        Language::En => '.',
    }
}

/// Seconds as hours with two decimals (rounded half up).
fn hours_hundredths(secs: i64) -> i64 {
    (secs * 100 + 1800).div_euclid(3600)
}

/// Seconds as minutes with one decimal.
fn minutes_tenths(secs: i64) -> i64 {
    (secs * 10 + 30).div_euclid(60)
}

/// Money in a CSV cell: no currency sign, no grouping, the reader's decimal mark
/// (`1234.50`, `1234,50`).
pub fn money_cell(minor: i64, currency: &str, dm: char) -> String {
    decimal(minor, minor_digits(currency).unwrap_or(2), dm)
}

/// Money as a spreadsheet reads it: no sign, no grouping, a dot (`1234.50`).
pub fn plain_money(minor: i64, currency: &str) -> String {
    decimal(minor, minor_digits(currency).unwrap_or(2), '.')
}

/// An amount in major units for a CSV cell in `lang`'s conventions ("1234,50" in Portuguese).
pub fn csv_money(minor: i64, currency: &str, lang: Language) -> String {
    decimal(minor, minor_digits(currency).unwrap_or(2), mark(lang))
}

// ---- the page -----------------------------------------------------------------------------

#[derive(Template)]
#[template(path = "floor/reports.html")]
struct Page {
    c: Ctx,
    r: Report,
    period: Period,
    choices: Choices,
    /// The query without `part` (for the CSV links and the arrows keep the filters).
    filters: String,
    prev: String,
    next: String,
    chart_cagnotte: String,
    chart_occupancy: String,
    chart_waits: String,
}

impl Page {
    fn h(&self, secs: impl Val<i64>) -> String {
        decimal(hours_hundredths(secs.val()), 2, mark(self.c.lang))
    }
    fn pct(&self, pm: impl Val<Option<i64>>) -> String {
        pm.val()
            .map(|v| format!("{} %", decimal(v, 1, mark(self.c.lang))))
            .unwrap_or_else(|| "—".into())
    }
    fn tenths(&self, v: impl Val<Option<i64>>) -> String {
        v.val()
            .map(|v| decimal(v, 1, mark(self.c.lang)))
            .unwrap_or_else(|| "—".into())
    }
    fn avg(&self, v: impl Val<i64>) -> String {
        decimal(v.val(), 1, mark(self.c.lang))
    }
    fn min(&self, secs: impl Val<Option<i64>>) -> String {
        secs.val()
            .map(|s| format!("{} min", decimal(minutes_tenths(s), 1, mark(self.c.lang))))
            .unwrap_or_else(|| "—".into())
    }
    fn date(&self, d: impl Val<NaiveDate>) -> String {
        self.c.date(d)
    }
    fn when(&self, t: &DateTime<Utc>) -> String {
        self.c.dt(t.naive_utc())
    }
    fn until(&self, t: &Option<DateTime<Utc>>) -> String {
        t.map(|t| self.c.time(t.naive_utc()))
            .unwrap_or_else(|| "…".into())
    }
    /// The period's name: "22/11/2026" or "11/2026".
    fn period_label(&self) -> String {
        match self.period {
            Period::Day(d) => self.c.date(d),
            Period::Month(m) => match self.c.lang {
                Language::Pt => m.format("%m/%Y").to_string(),
                Language::En => m.format("%B %Y").to_string(),
            },
        }
    }
    fn csv(&self, part: &str) -> String {
        format!("/floor/reports.csv?{}&part={part}", self.filters)
    }
    fn sel_game(&self, id: impl Val<i64>) -> &'static str {
        if self.r.game == Some(id.val()) {
            "selected"
        } else {
            ""
        }
    }
    fn sel_table(&self, id: impl Val<i64>) -> &'static str {
        if self.r.table == Some(id.val()) {
            "selected"
        } else {
            ""
        }
    }
    fn day_value(&self) -> String {
        match self.period {
            Period::Day(d) => d.format("%Y-%m-%d").to_string(),
            Period::Month(_) => String::new(),
        }
    }
    fn month_value(&self) -> String {
        match self.period {
            Period::Month(m) => m.format("%Y-%m").to_string(),
            Period::Day(d) => d.format("%Y-%m").to_string(),
        }
    }
    /// The shifts listed on the page: a month has thousands (every one is in the CSV).
    fn shifts_shown(&self) -> &[reports::ShiftLine] {
        &self.r.shifts[..self.r.shifts.len().min(SHIFTS_ON_PAGE)]
    }
    fn shifts_more(&self) -> usize {
        self.r.shifts.len().saturating_sub(SHIFTS_ON_PAGE)
    }
    fn shifts_total(&self) -> Figures {
        self.r.shifts_total()
    }
    /// BSOP 115, 116: special hands were played in the period (their table is shown).
    fn any_special(&self) -> bool {
        self.r.totals.cucurucho_hands + self.r.totals.macaca_hands > 0
    }
    /// The tables that played special hands.
    fn special_tables(&self) -> Vec<&reports::Line> {
        self.r
            .tables
            .iter()
            .filter(|l| l.f.cucurucho_hands + l.f.macaca_hands > 0)
            .collect()
    }
    fn game_name(&self, id: impl Val<i64>) -> String {
        let id = id.val();
        self.choices
            .games
            .iter()
            .find(|g| g.0 == id)
            .map(|g| g.1.clone())
            .unwrap_or_else(|| "—".into())
    }
    fn table_no(&self, id: impl Val<i64>) -> String {
        let id = id.val();
        self.choices
            .tables
            .iter()
            .find(|t| t.0 == id)
            .map(|t| t.1.to_string())
            .unwrap_or_else(|| format!("#{id}"))
    }
}

/// At most this many shifts on the page (the total line still covers them all).
const SHIFTS_ON_PAGE: usize = 200;

/// The query string of a period and filter (for links).
fn query_of(period: Period, game: Option<i64>, table: Option<i64>) -> String {
    let mut q = vec![(
        if period.is_month() { "month" } else { "day" },
        period.key(),
    )];
    if let Some(g) = game {
        q.push(("game", g.to_string()));
    }
    if let Some(t) = table {
        q.push(("table", t.to_string()));
    }
    serde_urlencoded::to_string(q).unwrap_or_default()
}

async fn page(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    q: web::Query<ReportQuery>,
) -> AppResult<HttpResponse> {
    let c = ctx(&req, &st, &who.0).await?;
    let (r, period, choices) = load(&st, c.now, q.into_inner()).await?;
    let charts = Charts::of(&c, &r);
    let page = Page {
        filters: query_of(period, r.game, r.table),
        prev: query_of(period.prev(), r.game, r.table),
        next: query_of(period.next(), r.game, r.table),
        chart_cagnotte: charts.cagnotte,
        chart_occupancy: charts.occupancy,
        chart_waits: charts.waits,
        c,
        r,
        period,
        choices,
    };
    render(StatusCode::OK, &page)
}

/// `GET /floor/reports.json`: the report as JSON (the page's session). The same handler
/// serves `/api/v1/reports` with a Bearer token once that route is registered in the API.
pub async fn json(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    q: web::Query<ReportQuery>,
) -> AppResult<HttpResponse> {
    let _ = (&req, &who);
    let (r, _, _) = load(&st, st.clock.now(), q.into_inner()).await?;
    Ok(HttpResponse::Ok().json(r))
}

// ---- the charts ---------------------------------------------------------------------------

struct Charts {
    cagnotte: String,
    occupancy: String,
    waits: String,
}

impl Charts {
    fn of(c: &Ctx, r: &Report) -> Charts {
        let hour_labels: Vec<String> = r.hours.iter().map(|h| format!("{:02}", h.hour)).collect();
        let money = |v: i64| c.money(v);
        let m = mark(c.lang);
        let pct = move |v: i64| format!("{} %", decimal(v, 1, m));
        let mins = move |v: i64| format!("{} min", decimal(minutes_tenths(v), 1, m));
        let cagnotte = chart::bars(&chart::Bars {
            id: "chart-cagnotte",
            title: c.t("report-chart-cagnotte"),
            desc: c.t1(
                "report-chart-cagnotte-desc",
                "total",
                c.money(crate::domain::money::sum_wide(
                    r.hours.iter().map(|h| h.cagnotte),
                )),
            ),
            x_label: c.t("report-chart-hour"),
            y_label: c.t1("report-chart-money-axis", "currency", &r.currency),
            empty: c.t("report-chart-empty"),
            labels: hour_labels.clone(),
            series: vec![chart::Series {
                name: c.t("report-col-cagnotte"),
                values: r.hours.iter().map(|h| h.cagnotte).collect(),
                class: "s1",
            }],
            fmt: &money,
            floor_max: 0,
        });
        let occupancy = chart::bars(&chart::Bars {
            id: "chart-occupancy",
            title: c.t("report-chart-occupancy"),
            desc: c.t1(
                "report-chart-occupancy-desc",
                "value",
                pct(r.totals.occupancy_permille.unwrap_or(0)),
            ),
            x_label: c.t("report-chart-hour"),
            y_label: c.t("report-chart-occupancy-axis"),
            empty: c.t("report-chart-empty"),
            labels: hour_labels,
            series: vec![chart::Series {
                name: c.t("report-col-occupancy"),
                values: r
                    .hours
                    .iter()
                    .map(|h| h.occupancy_permille.unwrap_or(0))
                    .collect(),
                class: "s2",
            }],
            fmt: &pct,
            floor_max: 1000,
        });
        let games: Vec<&reports::WaitLine> = r.waits.iter().filter(|w| w.game_id != 0).collect();
        // Lying: one row per game, its name whole on the left.
        let waits = chart::hbars(&chart::Bars {
            id: "chart-waits",
            title: c.t("report-chart-waits"),
            desc: c.t1(
                "report-chart-waits-desc",
                "count",
                r.waits_total().map(|w| w.seated).unwrap_or(0),
            ),
            x_label: c.t("report-chart-game"),
            y_label: c.t("report-chart-waits-axis"),
            empty: c.t("report-chart-empty"),
            labels: games.iter().map(|w| w.game.clone()).collect(),
            series: vec![
                chart::Series {
                    name: c.t("report-col-median"),
                    values: games.iter().map(|w| w.median_secs.unwrap_or(0)).collect(),
                    class: "s3",
                },
                chart::Series {
                    name: c.t("report-col-p90"),
                    values: games.iter().map(|w| w.p90_secs.unwrap_or(0)).collect(),
                    class: "s4",
                },
            ],
            fmt: &mins,
            floor_max: 0,
        });
        Charts {
            cagnotte,
            occupancy,
            waits,
        }
    }
}

/// Bar charts as inline SVG: axes with labelled ticks, one bar per value (grouped when there
/// are several series), a legend, a `<title>` and `<desc>` for screen readers and a tooltip
/// per bar. Values are integers (money in minor units, per mille, seconds); `fmt` writes
/// them for people.
pub mod chart {
    use std::fmt::Write;

    pub struct Series {
        pub name: String,
        pub values: Vec<i64>,
        /// `s1`…`s4`: the colour (see `FILLS`).
        pub class: &'static str,
    }

    pub struct Bars<'a> {
        /// The element's id; the title and description get `{id}-title`, `{id}-desc`.
        pub id: &'a str,
        pub title: String,
        pub desc: String,
        pub x_label: String,
        pub y_label: String,
        /// Shown when every value is 0.
        pub empty: String,
        pub labels: Vec<String>,
        pub series: Vec<Series>,
        pub fmt: &'a dyn Fn(i64) -> String,
        /// The vertical axis reaches at least this (e.g. 1000 ‰ for occupancy).
        pub floor_max: i64,
    }

    /// Colours with enough contrast on white (presentation attributes: the CSP allows no
    /// inline style).
    const FILLS: [(&str, &str); 4] = [
        ("s1", "#1e7b4f"),
        ("s2", "#2b6cb0"),
        ("s3", "#b7791f"),
        ("s4", "#9b2c2c"),
    ];

    const W: f64 = 640.0;
    const H: f64 = 300.0;
    const LEFT: f64 = 92.0;
    const RIGHT: f64 = 12.0;
    const TOP: f64 = 34.0;
    const BOTTOM: f64 = 56.0;

    /// Escapes text for XML.
    pub fn esc(s: &str) -> String {
        let mut o = String::with_capacity(s.len());
        for ch in s.chars() {
            match ch {
                '&' => o.push_str("&amp;"),
                '<' => o.push_str("&lt;"),
                '>' => o.push_str("&gt;"),
                '"' => o.push_str("&quot;"),
                '\'' => o.push_str("&#39;"),
                c => o.push(c),
            }
        }
        o
    }

    /// A tick step of 1, 2 or 5 × 10^k so that about four steps reach `max`; and the top of
    /// the axis (a whole number of steps ≥ `max`).
    pub fn ticks(max: i64) -> (i64, i64) {
        let max = max.max(1);
        let rough = (max + 3) / 4;
        let mut p = 1i64;
        while p.saturating_mul(10) <= rough {
            p *= 10;
        }
        // 1, 2, 2.5 (from 10 up), 5 × 10^k.
        let steps = [
            p,
            2 * p,
            if p >= 10 { p * 5 / 2 } else { 2 * p },
            5 * p,
            10 * p,
        ];
        let step = steps.into_iter().find(|s| *s >= rough).unwrap_or(10 * p);
        let top = (max + step - 1) / step * step;
        (step, top)
    }

    fn fill(class: &str) -> &'static str {
        FILLS
            .iter()
            .find(|(c, _)| *c == class)
            .map(|(_, f)| *f)
            .unwrap_or("#1e7b4f")
    }

    fn short(s: &str, n: usize) -> String {
        if s.chars().count() <= n {
            s.to_string()
        } else {
            format!("{}…", s.chars().take(n - 1).collect::<String>())
        }
    }

    pub fn bars(b: &Bars) -> String {
        let n = b.labels.len().max(1);
        let data_max = b
            .series
            .iter()
            .flat_map(|s| s.values.iter().copied())
            .max()
            .unwrap_or(0);
        let (step, top) = ticks(data_max.max(b.floor_max));
        let (pw, ph) = (W - LEFT - RIGHT, H - TOP - BOTTOM);
        let base = TOP + ph;
        let y_of = |v: i64| base - ph * (v.max(0) as f64) / (top as f64);
        let id = esc(b.id);
        let mut o = String::new();
        let _ = write!(
            o,
            r#"<svg xmlns="http://www.w3.org/2000/svg" class="chart" id="{id}" viewBox="0 0 {W} {H}" role="img" aria-labelledby="{id}-title {id}-desc" font-family="system-ui, sans-serif" font-size="14"><title id="{id}-title">{}</title><desc id="{id}-desc">{}</desc>"#,
            esc(&b.title),
            esc(&b.desc)
        );
        // Grid and vertical axis.
        let mut v = 0;
        while v <= top {
            let y = y_of(v);
            let _ = write!(
                o,
                r##"<line class="grid" x1="{LEFT}" x2="{}" y1="{y:.1}" y2="{y:.1}" stroke="#d9dedb" stroke-width="1"/><text class="tick" x="{}" y="{:.1}" text-anchor="end" fill="#4a5550" font-size="13">{}</text>"##,
                W - RIGHT,
                LEFT - 6.0,
                y + 4.0,
                esc(&(b.fmt)(v))
            );
            v += step;
        }
        let _ = write!(
            o,
            r##"<line class="axis" x1="{LEFT}" x2="{}" y1="{base}" y2="{base}" stroke="#4a5550" stroke-width="1.5"/>"##,
            W - RIGHT
        );
        // Bars.
        let gw = pw / n as f64;
        let k = b.series.len().max(1) as f64;
        let bw = (gw * 0.8 / k).max(1.0);
        // Every label while they fit (about 26 px each), else every other one or fewer.
        let every = (n * 26).div_ceil(pw as usize).max(1);
        for (i, label) in b.labels.iter().enumerate() {
            let gx = LEFT + gw * i as f64 + gw * 0.1;
            for (j, s) in b.series.iter().enumerate() {
                let val = s.values.get(i).copied().unwrap_or(0);
                let y = y_of(val);
                let _ = write!(
                    o,
                    r#"<rect class="bar {}" data-value="{val}" x="{:.1}" y="{y:.1}" width="{bw:.1}" height="{:.1}" fill="{}"><title>{}: {} ({})</title></rect>"#,
                    s.class,
                    gx + bw * j as f64,
                    (base - y).max(0.0),
                    fill(s.class),
                    esc(label),
                    esc(&(b.fmt)(val)),
                    esc(&s.name)
                );
            }
            if i % every == 0 {
                let _ = write!(
                    o,
                    r##"<text class="xlabel" x="{:.1}" y="{}" text-anchor="middle" fill="#4a5550" font-size="13">{}</text>"##,
                    LEFT + gw * (i as f64 + 0.5),
                    base + 16.0,
                    esc(&short(label, if n > 8 { 4 } else { 16 }))
                );
            }
        }
        if data_max <= 0 {
            let _ = write!(
                o,
                r##"<text class="empty" x="{}" y="{}" text-anchor="middle" fill="#4a5550" font-size="15">{}</text>"##,
                LEFT + pw / 2.0,
                TOP + ph / 2.0,
                esc(&b.empty)
            );
        }
        // Axis labels.
        let _ = write!(
            o,
            r##"<text class="axis-label" x="{}" y="{}" text-anchor="middle" fill="#1f2a24" font-weight="600">{}</text>"##,
            LEFT + pw / 2.0,
            H - 8.0,
            esc(&b.x_label)
        );
        let _ = write!(
            o,
            r##"<text class="axis-label" x="16" y="{}" text-anchor="middle" fill="#1f2a24" font-weight="600" transform="rotate(-90 16 {})">{}</text>"##,
            TOP + ph / 2.0,
            TOP + ph / 2.0,
            esc(&b.y_label)
        );
        legend(&mut o, b, LEFT);
        o.push_str("</svg>");
        o
    }

    /// Room on the left of a lying chart for the category labels (a game's name).
    const LABELS: f64 = 196.0;
    /// Characters of a category label that fit in [`LABELS`] at 13 px; a longer name is cut
    /// with "…" and given whole in the label's own `<title>`.
    const LABEL_CHARS: usize = 24;
    /// Height of one bar of a lying chart, and the gap between two categories.
    const BAR: f64 = 13.0;
    const GAP: f64 = 11.0;

    /// The same chart lying down: one row per label, its name on the left, the bars growing
    /// to the right and the values' axis below. For named categories (the games): a row per
    /// name keeps every name readable however many there are, where names side by side under
    /// upright bars would run into each other. The chart grows taller with the rows.
    pub fn hbars(b: &Bars) -> String {
        let n = b.labels.len().max(1);
        let k = b.series.len().max(1);
        let data_max = b
            .series
            .iter()
            .flat_map(|s| s.values.iter().copied())
            .max()
            .unwrap_or(0);
        let (step, top) = ticks(data_max.max(b.floor_max));
        let row = BAR * k as f64 + GAP;
        let ph = (row * n as f64).max(120.0);
        let pw = W - LABELS - RIGHT;
        let base = TOP + ph;
        let h = base + BOTTOM;
        let x_of = |v: i64| LABELS + pw * (v.max(0) as f64) / (top as f64);
        let id = esc(b.id);
        let mut o = String::new();
        let _ = write!(
            o,
            r#"<svg xmlns="http://www.w3.org/2000/svg" class="chart chart-lying" id="{id}" viewBox="0 0 {W} {h}" role="img" aria-labelledby="{id}-title {id}-desc" font-family="system-ui, sans-serif" font-size="14"><title id="{id}-title">{}</title><desc id="{id}-desc">{}</desc>"#,
            esc(&b.title),
            esc(&b.desc)
        );
        // Grid and the values' axis (below).
        let mut v = 0;
        while v <= top {
            let x = x_of(v);
            let _ = write!(
                o,
                r##"<line class="grid" x1="{x:.1}" x2="{x:.1}" y1="{TOP}" y2="{base}" stroke="#d9dedb" stroke-width="1"/><text class="tick" x="{x:.1}" y="{}" text-anchor="{}" fill="#4a5550" font-size="13">{}</text>"##,
                base + 18.0,
                // The last tick ends at the chart's edge rather than past it.
                if v == top { "end" } else { "middle" },
                esc(&(b.fmt)(v))
            );
            v += step;
        }
        let _ = write!(
            o,
            r##"<line class="axis" x1="{LABELS}" x2="{LABELS}" y1="{TOP}" y2="{base}" stroke="#4a5550" stroke-width="1.5"/>"##
        );
        // One row per label: the name on the left, a bar per series.
        for (i, label) in b.labels.iter().enumerate() {
            let gy = TOP + row * i as f64 + GAP / 2.0;
            for (j, s) in b.series.iter().enumerate() {
                let val = s.values.get(i).copied().unwrap_or(0);
                let _ = write!(
                    o,
                    r#"<rect class="bar {}" data-value="{val}" x="{LABELS}" y="{:.1}" width="{:.1}" height="{BAR}" fill="{}"><title>{}: {} ({})</title></rect>"#,
                    s.class,
                    gy + BAR * j as f64,
                    x_of(val) - LABELS,
                    fill(s.class),
                    esc(label),
                    esc(&(b.fmt)(val)),
                    esc(&s.name)
                );
            }
            let _ = write!(
                o,
                r##"<text class="category" x="{}" y="{:.1}" text-anchor="end" dominant-baseline="middle" fill="#1f2a24" font-size="13"><title>{}</title>{}</text>"##,
                LABELS - 8.0,
                gy + BAR * k as f64 / 2.0,
                esc(label),
                esc(&short(label, LABEL_CHARS))
            );
        }
        if data_max <= 0 {
            let _ = write!(
                o,
                r##"<text class="empty" x="{}" y="{}" text-anchor="middle" fill="#4a5550" font-size="15">{}</text>"##,
                LABELS + pw / 2.0,
                TOP + ph / 2.0,
                esc(&b.empty)
            );
        }
        // Axis labels: the values' below, the categories' up the left edge.
        let _ = write!(
            o,
            r##"<text class="axis-label" x="{}" y="{}" text-anchor="middle" fill="#1f2a24" font-weight="600">{}</text>"##,
            LABELS + pw / 2.0,
            h - 8.0,
            esc(&b.y_label)
        );
        let _ = write!(
            o,
            r##"<text class="axis-label" x="16" y="{}" text-anchor="middle" fill="#1f2a24" font-weight="600" transform="rotate(-90 16 {})">{}</text>"##,
            TOP + ph / 2.0,
            TOP + ph / 2.0,
            esc(&b.x_label)
        );
        legend(&mut o, b, LABELS);
        o.push_str("</svg>");
        o
    }

    fn legend(o: &mut String, b: &Bars, from: f64) {
        let mut x = from;
        for s in &b.series {
            let _ = write!(
                o,
                r##"<rect class="legend {}" x="{x:.1}" y="9" width="14" height="14" fill="{}"/><text x="{:.1}" y="21" fill="#1f2a24">{}</text>"##,
                s.class,
                fill(s.class),
                x + 16.0,
                esc(&s.name)
            );
            x += 28.0 + 8.0 * s.name.chars().count() as f64;
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        fn fmt(v: i64) -> String {
            v.to_string()
        }

        #[test]
        fn ticks_are_round_and_cover_the_maximum() {
            assert_eq!(ticks(0), (1, 1));
            assert_eq!(ticks(7), (2, 8));
            assert_eq!(ticks(1000), (250, 1000));
            assert_eq!(ticks(12_345), (5000, 15_000));
            assert_eq!(ticks(100), (25, 100));
            assert_eq!(ticks(101), (50, 150));
        }

        #[test]
        fn a_chart_has_an_accessible_title_axes_and_one_bar_per_value() {
            let f = fmt;
            let svg = bars(&Bars {
                id: "c1",
                title: "Cagnotte <per> hour".into(),
                desc: "Total & more".into(),
                x_label: "Hour".into(),
                y_label: "Amount".into(),
                empty: "No data".into(),
                labels: vec!["06".into(), "07".into(), "08".into()],
                series: vec![Series {
                    name: "Taken".into(),
                    values: vec![0, 50, 100],
                    class: "s1",
                }],
                fmt: &f,
                floor_max: 0,
            });
            assert!(svg.starts_with("<svg"), "{svg}");
            assert!(svg.contains(r#"role="img" aria-labelledby="c1-title c1-desc""#));
            assert!(
                svg.contains(r#"<title id="c1-title">Cagnotte &lt;per&gt; hour</title>"#),
                "{svg}"
            );
            assert!(svg.contains("Total &amp; more"));
            assert_eq!(svg.matches(r#"<rect class="bar s1""#).count(), 3);
            assert!(svg.contains(r#"data-value="100""#));
            // The highest bar reaches the top of the axis (100 is a whole number of steps).
            assert!(
                svg.contains(r#"data-value="100" x="#)
                    && svg.contains(&format!(r#"y="{:.1}""#, TOP)),
                "{svg}"
            );
            assert!(svg.contains(">Hour</text>") && svg.contains(">Amount</text>"));
            assert!(!svg.contains("No data"));
            assert!(!svg.contains("style="), "no inline style (CSP)");
            assert!(svg.ends_with("</svg>"));
        }

        #[test]
        fn a_lying_chart_gives_every_name_its_own_row() {
            let f = fmt;
            let labels: Vec<String> = (1..=9)
                .map(|i| format!("Pot-Limit Omaha Hi-Lo {i}/{}", i * 2))
                .collect();
            let svg = hbars(&Bars {
                id: "c3",
                title: "Waits".into(),
                desc: "d".into(),
                x_label: "Game".into(),
                y_label: "Wait (minutes)".into(),
                empty: "No data".into(),
                labels: labels.clone(),
                series: vec![
                    Series {
                        name: "Median".into(),
                        values: (1..=9).map(|i| i * 60).collect(),
                        class: "s3",
                    },
                    Series {
                        name: "90th".into(),
                        values: (1..=9).map(|i| i * 90).collect(),
                        class: "s4",
                    },
                ],
                fmt: &f,
                floor_max: 0,
            });
            assert_eq!(svg.matches(r#"<text class="category""#).count(), 9);
            assert_eq!(svg.matches(r#"<rect class="bar "#).count(), 18);
            // Rows one below the other, each taller than the 13 px of its name.
            let ys: Vec<f64> = svg
                .split(r#"<text class="category" x="188" y=""#)
                .skip(1)
                .map(|t| t[..t.find('"').unwrap()].parse().unwrap())
                .collect();
            assert_eq!(ys.len(), 9, "{svg}");
            assert!(ys.windows(2).all(|w| w[1] - w[0] >= 13.0 + GAP), "{ys:?}");
            // A long name is cut, and given whole in its title.
            assert!(
                svg.contains("<title>Pot-Limit Omaha Hi-Lo 9/18</title>"),
                "{svg}"
            );
            assert!(svg.contains(">Pot-Limit Omaha Hi-Lo 9…</text>"), "{svg}");
            // Bars start at the categories' axis, after the names.
            assert!(svg.contains(r#"data-value="810" x="196" "#), "{svg}");
            assert!(svg.contains(">Game</text>") && svg.contains(">Wait (minutes)</text>"));
            assert!(!svg.contains("style="), "no inline style (CSP)");
        }

        #[test]
        fn an_empty_chart_says_so() {
            let f = fmt;
            let svg = bars(&Bars {
                id: "c2",
                title: "t".into(),
                desc: "d".into(),
                x_label: "x".into(),
                y_label: "y".into(),
                empty: "No data".into(),
                labels: vec!["NL 1/2".into()],
                series: vec![
                    Series {
                        name: "a".into(),
                        values: vec![0],
                        class: "s3",
                    },
                    Series {
                        name: "b".into(),
                        values: vec![0],
                        class: "s4",
                    },
                ],
                fmt: &f,
                floor_max: 0,
            });
            assert!(svg.contains(">No data</text>"));
            assert_eq!(svg.matches("<rect class=\"bar ").count(), 2);
        }
    }
}

// ---- CSV ----------------------------------------------------------------------------------

/// The field separator of a CSV in the reader's language: a spreadsheet set to Portuguese
/// reads `;` between fields (its decimal mark is the comma), one set to English `,`.
fn separator(lang: Language) -> u8 {
    match lang {
        Language::Pt => b';',
        Language::En => b',',
    }
}

/// The byte order mark a spreadsheet needs to read a CSV as UTF-8 (names with accents, €).
const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// One CSV file in the reader's language conventions (separator, decimal mark: the cells
/// are written with [`mark`]), UTF-8 with its byte order mark: headers, rows and (where the
/// page has one) the total line.
fn csv_bytes(c: &Ctx, headers: Vec<String>, rows: Vec<Vec<String>>) -> AppResult<Vec<u8>> {
    csv_in(c.lang, headers, rows)
}

/// [`csv_bytes`] for a file made outside a page (the incident log's CSV): `lang`'s separator,
/// UTF-8 with its byte order mark.
pub fn csv_in(lang: Language, headers: Vec<String>, rows: Vec<Vec<String>>) -> AppResult<Vec<u8>> {
    let mut w = csv::WriterBuilder::new()
        .delimiter(separator(lang))
        .from_writer(UTF8_BOM.to_vec());
    w.write_record(&headers)
        .map_err(|e| AppError::internal_from("csv", e))?;
    for r in rows {
        w.write_record(&r)
            .map_err(|e| AppError::internal_from("csv", e))?;
    }
    w.into_inner()
        .map_err(|e| AppError::internal_from("csv", e))
}

fn csv_response(name: &str, body: Vec<u8>) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/csv; charset=utf-8")
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"{name}\""),
        ))
        .body(body)
}

/// The columns of a figures table (after its first, naming column).
fn figure_headers(c: &Ctx, currency: &str) -> Vec<String> {
    let m = |k: &str| format!("{} ({currency})", c.t(k));
    vec![
        c.t("report-col-sessions"),
        c.t("report-col-dues"),
        m("report-col-due"),
        m("report-col-collected"),
        m("report-col-exempt"),
        c.t("report-col-exempt-count"),
        m("report-col-difference"),
        m("report-col-rake"),
        m("report-col-drop-box"),
        m("report-col-commission"),
        m("report-col-cagnotte"),
        m("report-col-tips"),
        c.t("report-col-hands"),
        c.t("report-col-hours-played"),
        c.t("report-col-hours-open"),
        c.t("report-col-occupancy-pct"),
        c.t("report-col-hands-per-hour"),
        c.t("report-col-no-shows"),
        c.t("report-col-cucurucho-hands"),
        m("report-col-cucurucho-contributions"),
        c.t("report-col-macaca-hands"),
        m("report-col-macaca-contributions"),
    ]
}

fn figure_cells(f: &Figures, currency: &str, dm: char) -> Vec<String> {
    let m = |v: i64| money_cell(v, currency, dm);
    let opt = |v: Option<i64>| v.map(|v| decimal(v, 1, dm)).unwrap_or_default();
    vec![
        f.sessions.to_string(),
        f.dues.to_string(),
        m(f.due),
        m(f.collected),
        m(f.exempt),
        f.exempt_count.to_string(),
        m(f.difference),
        m(f.rake),
        m(f.drop_box),
        m(f.commission),
        m(f.cagnotte),
        m(f.tips),
        f.hands.to_string(),
        decimal(hours_hundredths(f.played_secs), 2, dm),
        decimal(hours_hundredths(f.open_secs), 2, dm),
        opt(f.occupancy_permille),
        opt(f.hands_per_hour_tenths),
        f.no_shows.to_string(),
        f.cucurucho_hands.to_string(),
        m(f.cucurucho_contributions),
        f.macaca_hands.to_string(),
        m(f.macaca_contributions),
    ]
}

/// A shift's figures as the page's shift table has them: without the seat hours, the hours
/// open, the occupancy and the no-shows (the room's and each table's, not a dealer's shift:
/// a shift's length is its own column).
fn shift_figures(all: Vec<String>) -> Vec<String> {
    // Positions in `figure_headers`: hours played, hours open, occupancy, no-shows.
    const NOT_A_SHIFT_S: [usize; 4] = [13, 14, 15, 17];
    all.into_iter()
        .enumerate()
        .filter(|(i, _)| !NOT_A_SHIFT_S.contains(i))
        .map(|(_, v)| v)
        .collect()
}

/// The CSV of one part of a report. Public for the benchmark.
pub fn report_csv(c: &Ctx, r: &Report, part: &str) -> AppResult<Vec<u8>> {
    let cur = r.currency.as_str();
    let dm = mark(c.lang);
    let total = c.t("report-total");
    // The figures' rows with the total line where the page has one.
    let with_total = |first: String, rows: Vec<Vec<String>>, tot: Option<&Figures>| {
        let mut h = vec![first];
        h.extend(figure_headers(c, cur));
        let mut rows = rows;
        if let Some(tot) = tot {
            let mut t = vec![total.clone()];
            t.extend(figure_cells(tot, cur, dm));
            rows.push(t);
        }
        csv_bytes(c, h, rows)
    };
    match part {
        "tables" => with_total(
            c.t("report-col-table"),
            r.tables
                .iter()
                .map(|l| {
                    std::iter::once(l.label.clone())
                        .chain(figure_cells(&l.f, cur, dm))
                        .collect()
                })
                .collect(),
            Some(&r.totals),
        ),
        "games" => with_total(
            c.t("report-col-game"),
            r.games
                .iter()
                .map(|l| {
                    std::iter::once(l.label.clone())
                        .chain(figure_cells(&l.f, cur, dm))
                        .collect()
                })
                .collect(),
            Some(&r.totals),
        ),
        "days" => with_total(
            c.t("report-col-date"),
            r.days
                .iter()
                .map(|d| {
                    std::iter::once(d.date.format("%Y-%m-%d").to_string())
                        .chain(figure_cells(&d.f, cur, dm))
                        .collect()
                })
                .collect(),
            // A day's report has one day: its total is that line, as on the page.
            (r.kind == "month").then_some(&r.totals),
        ),
        "shifts" => {
            let mut h = vec![
                c.t("report-col-table"),
                c.t("report-col-dealer"),
                c.t("report-col-from"),
                c.t("report-col-to"),
                // The shift's length, as the page's column next to the shift says it.
                c.t("report-col-hours"),
            ];
            h.extend(shift_figures(figure_headers(c, cur)));
            let local =
                |t: DateTime<Utc>| t.with_timezone(&c.tz).format("%Y-%m-%d %H:%M").to_string();
            let mut rows: Vec<Vec<String>> = r
                .shifts
                .iter()
                .map(|s| {
                    let mut row = vec![
                        s.table.to_string(),
                        s.dealer.clone(),
                        local(s.started_at),
                        s.ended_at.map(local).unwrap_or_default(),
                        decimal(hours_hundredths(s.f.open_secs), 2, dm),
                    ];
                    row.extend(shift_figures(figure_cells(&s.f, cur, dm)));
                    row
                })
                .collect();
            let st = r.shifts_total();
            let mut t = vec![
                total,
                String::new(),
                String::new(),
                String::new(),
                decimal(hours_hundredths(st.open_secs), 2, dm),
            ];
            t.extend(shift_figures(figure_cells(&st, cur, dm)));
            rows.push(t);
            csv_bytes(c, h, rows)
        }
        "waits" => {
            let h = vec![
                c.t("report-col-game"),
                c.t("report-col-joined"),
                c.t("report-col-seated"),
                c.t("report-col-median-min"),
                c.t("report-col-p90-min"),
                c.t("report-col-list-max"),
                c.t("report-col-list-avg"),
                c.t("report-col-no-shows"),
            ];
            let mins = |v: Option<i64>| {
                v.map(|s| decimal(minutes_tenths(s), 1, dm))
                    .unwrap_or_default()
            };
            let rows = r
                .waits
                .iter()
                .map(|w| {
                    vec![
                        if w.game_id == 0 {
                            c.t("report-all-games")
                        } else {
                            w.game.clone()
                        },
                        w.joined.to_string(),
                        w.seated.to_string(),
                        mins(w.median_secs),
                        mins(w.p90_secs),
                        w.list_max.to_string(),
                        decimal(w.list_avg_tenths, 1, dm),
                        w.no_shows.to_string(),
                    ]
                })
                .collect();
            csv_bytes(c, h, rows)
        }
        "hours" => {
            let h = vec![
                c.t("report-col-hour"),
                format!("{} ({cur})", c.t("report-col-cagnotte")),
                c.t("report-col-hours-played"),
                c.t("report-col-seat-hours"),
                c.t("report-col-occupancy-pct"),
            ];
            let rows = r
                .hours
                .iter()
                .map(|l| {
                    vec![
                        format!("{:02}:00", l.hour),
                        money_cell(l.cagnotte, cur, dm),
                        decimal(hours_hundredths(l.played_secs), 2, dm),
                        decimal(hours_hundredths(l.capacity_secs), 2, dm),
                        l.occupancy_permille
                            .map(|v| decimal(v, 1, dm))
                            .unwrap_or_default(),
                    ]
                })
                .collect();
            csv_bytes(c, h, rows)
        }
        "limits" => {
            let h = vec![
                c.t("report-col-game"),
                format!("{} ({cur})", c.t("limits-small-blind")),
                format!("{} ({cur})", c.t("limits-big-blind")),
                format!("{} ({cur})", c.t("limits-buy-in-min")),
                format!("{} ({cur})", c.t("limits-buy-in-max")),
                c.t("limits-col-tables"),
                c.t("limits-col-hours"),
            ];
            let rows = r
                .limits
                .iter()
                .map(|l| {
                    vec![
                        l.game.clone(),
                        money_cell(l.small_blind, cur, dm),
                        money_cell(l.big_blind, cur, dm),
                        money_cell(l.buy_in_min, cur, dm),
                        l.buy_in_max
                            .map(|m| money_cell(m, cur, dm))
                            .unwrap_or_default(),
                        l.tables
                            .iter()
                            .map(i32::to_string)
                            .collect::<Vec<_>>()
                            .join(" "),
                        decimal(hours_hundredths(l.open_secs), 2, dm),
                    ]
                })
                .collect();
            csv_bytes(c, h, rows)
        }
        other => Err(reports::refused(
            "part",
            Problem::new("report-err-part")
                .arg("value", other.chars().take(40).collect::<String>()),
        )),
    }
}

async fn csv_export(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    q: web::Query<ReportQuery>,
) -> AppResult<HttpResponse> {
    let c = ctx(&req, &st, &who.0).await?;
    let q = q.into_inner();
    let part = q.part.clone().unwrap_or_else(|| "tables".into());
    let (r, period, _) = load(&st, c.now, q).await?;
    let body = report_csv(&c, &r, &part)?;
    let mut name = format!("report-{}", period.key());
    if let Some(g) = r.game {
        name.push_str(&format!("-game{g}"));
    }
    if let Some(t) = r.table {
        name.push_str(&format!("-table{t}"));
    }
    Ok(csv_response(&format!("{name}-{part}.csv"), body))
}

// ---- players' hours (comps) ---------------------------------------------------------------

#[derive(Template)]
#[template(path = "floor/report_players.html")]
struct PlayersPage {
    c: Ctx,
    p: PlayersMonth,
    month: NaiveDate,
    prev: String,
    next: String,
    player_value: String,
}

impl PlayersPage {
    fn h(&self, secs: impl Val<i64>) -> String {
        decimal(hours_hundredths(secs.val()), 2, mark(self.c.lang))
    }
    fn month_label(&self) -> String {
        match self.c.lang {
            Language::Pt => self.month.format("%m/%Y").to_string(),
            Language::En => self.month.format("%B %Y").to_string(),
        }
    }
    fn month_value(&self) -> String {
        self.month.format("%Y-%m").to_string()
    }
    fn filters(&self) -> String {
        let mut q = vec![("month", self.month_value())];
        if let Some(p) = self.p.player {
            q.push(("player", p.to_string()));
        }
        serde_urlencoded::to_string(q).unwrap_or_default()
    }
}

/// The month of the query (`month=YYYY-MM`, default this gaming day's month) and the player.
async fn load_players(
    st: &AppState,
    now: DateTime<Utc>,
    q: ReportQuery,
) -> AppResult<(PlayersMonth, NaiveDate)> {
    let ds = day_start(st);
    st.run(move |_, conn| {
        let room = services::room::get(conn)?;
        let today = reports::gaming_date(now, room.tz, ds);
        let month = match Period::parse(None, q.month.as_deref(), today)? {
            Period::Month(m) => m,
            Period::Day(d) => d.with_day0(0).unwrap_or(d),
        };
        let player = id_param(&q.player, "player", "report-err-player")?;
        let p = reports::player_hours(conn, now, room.tz, ds, month, player)?;
        Ok((p, month))
    })
    .await
}

fn month_query(m: NaiveDate, player: Option<i64>) -> String {
    let mut q = vec![("month", m.format("%Y-%m").to_string())];
    if let Some(p) = player {
        q.push(("player", p.to_string()));
    }
    serde_urlencoded::to_string(q).unwrap_or_default()
}

async fn players_page(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    q: web::Query<ReportQuery>,
) -> AppResult<HttpResponse> {
    let c = ctx(&req, &st, &who.0).await?;
    let (p, month) = load_players(&st, c.now, q.into_inner()).await?;
    let period = Period::Month(month);
    let (prev, next) = match (period.prev(), period.next()) {
        (Period::Month(a), Period::Month(b)) => {
            (month_query(a, p.player), month_query(b, p.player))
        }
        _ => (String::new(), String::new()),
    };
    let player_value = p.player.map(|v| v.to_string()).unwrap_or_default();
    render(
        StatusCode::OK,
        &PlayersPage {
            c,
            p,
            month,
            prev,
            next,
            player_value,
        },
    )
}

/// The players' hours as CSV: `part=players` (one line per player, the month's total) or
/// `part=days` (one line per player and gaming day); both end with the total.
pub fn players_csv_bytes(c: &Ctx, p: &PlayersMonth, part: &str) -> AppResult<Vec<u8>> {
    let h2 = |s: i64| decimal(hours_hundredths(s), 2, mark(c.lang));
    match part {
        "players" => {
            let h = vec![
                c.t("report-col-player"),
                c.t("report-col-alias"),
                c.t("report-col-name"),
                c.t("report-col-days"),
                c.t("report-col-hours-played"),
            ];
            let mut rows: Vec<Vec<String>> = p
                .players
                .iter()
                .map(|x| {
                    vec![
                        x.player_id.to_string(),
                        x.alias.clone(),
                        x.full_name.clone(),
                        x.days.len().to_string(),
                        h2(x.total_secs),
                    ]
                })
                .collect();
            rows.push(vec![
                c.t("report-total"),
                String::new(),
                String::new(),
                String::new(),
                h2(p.total_secs),
            ]);
            csv_bytes(c, h, rows)
        }
        "days" => {
            let h = vec![
                c.t("report-col-player"),
                c.t("report-col-alias"),
                c.t("report-col-name"),
                c.t("report-col-date"),
                c.t("report-col-hours-played"),
            ];
            let mut rows: Vec<Vec<String>> = Vec::new();
            for x in &p.players {
                for d in &x.days {
                    rows.push(vec![
                        x.player_id.to_string(),
                        x.alias.clone(),
                        x.full_name.clone(),
                        d.date.format("%Y-%m-%d").to_string(),
                        h2(d.secs),
                    ]);
                }
            }
            rows.push(vec![
                c.t("report-total"),
                String::new(),
                String::new(),
                String::new(),
                h2(p.total_secs),
            ]);
            csv_bytes(c, h, rows)
        }
        other => Err(reports::refused(
            "part",
            Problem::new("report-err-part")
                .arg("value", other.chars().take(40).collect::<String>()),
        )),
    }
}

async fn players_csv(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    q: web::Query<ReportQuery>,
) -> AppResult<HttpResponse> {
    let c = ctx(&req, &st, &who.0).await?;
    let q = q.into_inner();
    let part = q.part.clone().unwrap_or_else(|| "players".into());
    let (p, _) = load_players(&st, c.now, q).await?;
    let body = players_csv_bytes(&c, &p, &part)?;
    let who = p.player.map(|v| format!("-player{v}")).unwrap_or_default();
    Ok(csv_response(
        &format!("hours-{}{who}-{part}.csv", p.month),
        body,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_written_the_reader_s_way() {
        assert_eq!(decimal(1250, 2, ','), "12,50");
        assert_eq!(decimal(5, 2, '.'), "0.05");
        assert_eq!(decimal(-1234, 2, '.'), "-12.34");
        assert_eq!(decimal(667, 1, '.'), "66.7");
        assert_eq!(decimal(42, 0, '.'), "42");
        assert_eq!(plain_money(123_450, "EUR"), "1234.50");
        assert_eq!(hours_hundredths(5400), 150);
        assert_eq!(hours_hundredths(3600 + 18), 101);
        assert_eq!(minutes_tenths(90), 15);
    }
}
