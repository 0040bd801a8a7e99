//! The report page (`/floor/reports`: a gaming day or a month, its tables and charts) and
//! the same report as JSON.

use super::chart;
use super::numbers::{decimal, hours_hundredths, mark, minutes_tenths};
use super::{ctx, load, render, Choices, ReportQuery};
use crate::domain::player::Language;
use crate::error::AppResult;
use crate::services::reports::{self, Figures, Period, Report};
use crate::web::ctx::{Ctx, Val};
use crate::web::extract::FloorStaff;
use crate::web::state::AppState;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use chrono::{DateTime, NaiveDate, Utc};

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
    /// The period as an address says it, for the dealers' report.
    fn period_query(&self) -> String {
        match self.period {
            Period::Day(d) => format!("day={}", d.format("%Y-%m-%d")),
            Period::Month(m) => format!("month={}", m.format("%Y-%m")),
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

pub(super) async fn page(
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
