//! The dealers' report (`/floor/reports/dealers`): hours, downs, breaks, late pushes and tips
//! per dealer for a gaming day or a month, the chart of dealers on the floor against tables
//! open, the tables left without a dealer while players waited; its CSV for payroll.

use super::chart;
use super::export::{csv_bytes, csv_response};
use super::numbers::{decimal, hours_hundredths, mark, minutes_tenths, money_cell, Cell};
use super::{ctx, day_start, period_of, render, setting_of, ReportQuery};
use crate::domain::Problem;
use crate::error::AppResult;
use crate::services;
use crate::services::reports::{self, DealersReport, Period};
use crate::web::ctx::{Ctx, Val};
use crate::web::extract::FloorStaff;
use crate::web::state::AppState;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use chrono::{DateTime, Utc};

#[derive(Template)]
#[template(path = "floor/report_dealers.html")]
struct DealersPage {
    c: Ctx,
    r: DealersReport,
    period: Period,
    chart: String,
}

impl DealersPage {
    fn h(&self, secs: impl Val<i64>) -> String {
        decimal(hours_hundredths(secs.val()), 2, mark(self.c.lang))
    }
    fn min(&self, secs: impl Val<i64>) -> String {
        decimal(minutes_tenths(secs.val()), 1, mark(self.c.lang))
    }
    /// Every dealer's downs together.
    fn downs(&self) -> usize {
        self.r.dealers.iter().map(|d| d.downs.len()).sum()
    }
    /// The period as the address says it (`day=…` or `month=…`).
    fn query(&self) -> String {
        match self.period {
            Period::Day(d) => format!("day={}", d.format("%Y-%m-%d")),
            Period::Month(m) => format!("month={}", m.format("%Y-%m")),
        }
    }
    fn prev(&self) -> String {
        query_of(self.period.prev())
    }
    fn next(&self) -> String {
        query_of(self.period.next())
    }
    fn day_value(&self) -> String {
        match self.period {
            Period::Day(d) => d.format("%Y-%m-%d").to_string(),
            Period::Month(m) => m.format("%Y-%m-%d").to_string(),
        }
    }
    fn month_value(&self) -> String {
        match self.period {
            Period::Day(d) | Period::Month(d) => d.format("%Y-%m").to_string(),
        }
    }
}

fn query_of(p: Period) -> String {
    match p {
        Period::Day(d) => format!("day={}", d.format("%Y-%m-%d")),
        Period::Month(m) => format!("month={}", m.format("%Y-%m")),
    }
}

async fn load(
    st: &AppState,
    now: DateTime<Utc>,
    q: ReportQuery,
) -> AppResult<(DealersReport, Period)> {
    let ds = day_start(st);
    st.run(move |_, conn| {
        let room = services::room::get(conn)?;
        let today = reports::gaming_date(now, room.tz, ds);
        let period = period_of(&q, today)?;
        let setting = setting_of(&room, ds);
        let rules = room.profile.push_rules();
        let r = reports::dealers(
            conn,
            now,
            &setting,
            &rules,
            room.profile.tips_pooled,
            period,
        )?;
        Ok((r, period))
    })
    .await
}

/// Dealers on the floor against tables open, per hour of the clock (on average: tenths).
fn staffing_chart(c: &Ctx, r: &DealersReport) -> String {
    let m = mark(c.lang);
    let avg = move |v: i64| decimal(v, 1, m);
    chart::bars(&chart::Bars {
        id: "chart-staffing",
        title: c.t("report-dealers-chart"),
        desc: c.t("report-dealers-chart-desc"),
        x_label: c.t("report-chart-hour"),
        y_label: c.t("report-dealers-chart-axis"),
        empty: c.t("report-chart-empty"),
        labels: r.hours.iter().map(|h| format!("{:02}", h.hour)).collect(),
        series: vec![
            chart::Series {
                name: c.t("report-dealers-on-floor"),
                values: r.hours.iter().map(|h| h.dealers_tenths).collect(),
                class: "s1",
            },
            chart::Series {
                name: c.t("report-dealers-tables-open"),
                values: r.hours.iter().map(|h| h.tables_tenths).collect(),
                class: "s4",
            },
        ],
        fmt: &avg,
        floor_max: 10,
    })
}

pub(super) async fn page(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    q: web::Query<ReportQuery>,
) -> AppResult<HttpResponse> {
    let c = ctx(&req, &st, &who.0).await?;
    let (r, period) = load(&st, c.now, q.into_inner()).await?;
    let chart = staffing_chart(&c, &r);
    render(
        StatusCode::OK,
        &DealersPage {
            c,
            r,
            period,
            chart,
        },
    )
}

/// The dealers' report as CSV: `part=dealers` (a line per dealer, then the total) or
/// `part=downs` (a line per down, then the total).
pub fn dealers_csv_bytes(c: &Ctx, r: &DealersReport, part: &str) -> AppResult<Vec<u8>> {
    let m = mark(c.lang);
    let h2 = |s: i64| Cell::decimal(hours_hundredths(s), 2, m);
    let money = |v: i64| money_cell(v, &c.currency, m);
    match part {
        "dealers" => {
            let mut h = vec![
                c.t("report-dealers-col-dealer"),
                c.t("report-dealers-col-downs"),
                c.t("report-dealers-col-hours"),
                c.t("report-dealers-col-breaks-due"),
                c.t("report-dealers-col-breaks-taken"),
                c.t("report-dealers-col-late"),
                c.t("report-dealers-col-tips"),
            ];
            if r.pooled {
                h.push(c.t("report-dealers-col-share"));
            }
            let mut rows: Vec<Vec<Cell>> = r
                .dealers
                .iter()
                .map(|d| {
                    let mut row = vec![
                        Cell::text(d.dealer.clone()),
                        Cell::count(d.downs.len()),
                        h2(d.dealt_secs),
                        Cell::int(d.breaks_due),
                        Cell::int(d.breaks_taken),
                        Cell::int(d.late_pushes),
                        money(d.tips),
                    ];
                    if let Some(s) = d.pooled_share {
                        row.push(money(s));
                    }
                    row
                })
                .collect();
            let mut total = vec![
                Cell::text(c.t("report-total")),
                Cell::count(r.dealers.iter().map(|d| d.downs.len()).sum::<usize>()),
                h2(r.dealt_secs),
                Cell::int(r.breaks_due),
                Cell::int(r.breaks_taken),
                Cell::int(r.late_pushes),
                money(r.tips),
            ];
            if r.pooled {
                total.push(money(r.tips));
            }
            rows.push(total);
            csv_bytes(c, h, rows)
        }
        "downs" => {
            let h = vec![
                c.t("report-dealers-col-dealer"),
                c.t("report-col-table"),
                c.t("report-dealers-col-start"),
                c.t("report-dealers-col-end"),
                c.t("report-dealers-col-hours"),
                c.t("report-dealers-col-late"),
                c.t("report-dealers-col-tips"),
            ];
            let local =
                |t: DateTime<Utc>| t.with_timezone(&c.tz).format("%Y-%m-%d %H:%M").to_string();
            let mut rows: Vec<Vec<Cell>> = Vec::new();
            for d in &r.dealers {
                for x in &d.downs {
                    rows.push(vec![
                        Cell::text(d.dealer.clone()),
                        Cell::int(x.table),
                        Cell::text(local(x.started_at)),
                        Cell::text(x.ended_at.map(local).unwrap_or_default()),
                        h2(x.secs),
                        Cell::int(i64::from(x.late)),
                        money(x.tips),
                    ]);
                }
            }
            rows.push(vec![
                Cell::text(c.t("report-total")),
                Cell::empty(),
                Cell::empty(),
                Cell::empty(),
                h2(r.dealt_secs),
                Cell::int(r.late_pushes),
                money(r.tips),
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

pub(super) async fn csv(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    q: web::Query<ReportQuery>,
) -> AppResult<HttpResponse> {
    let c = ctx(&req, &st, &who.0).await?;
    let q = q.into_inner();
    let part = q.part.clone().unwrap_or_else(|| "dealers".into());
    let (r, _) = load(&st, c.now, q).await?;
    let body = dealers_csv_bytes(&c, &r, &part)?;
    Ok(csv_response(
        &format!("dealers-{}-{part}.csv", r.period),
        body,
    ))
}
