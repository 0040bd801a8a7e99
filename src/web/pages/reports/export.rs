//! The report's CSV exports (`/floor/reports.csv`, one file per table of figures, chosen by
//! `part`) in the reader's conventions, written by the shared CSV writer (`web::csv`).

use super::numbers::{hours_hundredths, mark, minutes_tenths, money_cell, Cell};
use super::{ctx, load, ReportQuery};
use crate::domain::Problem;
use crate::error::AppResult;
use crate::services::reports::{self, Figures, Report};
use crate::web::ctx::Ctx;
use crate::web::extract::FloorStaff;
use crate::web::state::AppState;
use actix_web::http::header;
use actix_web::{web, HttpRequest, HttpResponse};
use chrono::{DateTime, Utc};

pub use crate::web::csv::csv_in;

/// One CSV file in the reader's language conventions (separator, decimal mark: the cells
/// are written with [`mark`]), UTF-8 with its byte order mark: headers, rows and (where the
/// page has one) the total line.
pub(super) fn csv_bytes(c: &Ctx, headers: Vec<String>, rows: Vec<Vec<Cell>>) -> AppResult<Vec<u8>> {
    csv_in(c.lang, headers, rows)
}

pub(super) fn csv_response(name: &str, body: Vec<u8>) -> HttpResponse {
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

fn figure_cells(f: &Figures, currency: &str, dm: char) -> Vec<Cell> {
    let m = |v: i64| money_cell(v, currency, dm);
    let opt = |v: Option<i64>| v.map_or_else(Cell::empty, |v| Cell::decimal(v, 1, dm));
    vec![
        Cell::int(f.sessions),
        Cell::int(f.dues),
        m(f.due),
        m(f.collected),
        m(f.exempt),
        Cell::int(f.exempt_count),
        m(f.difference),
        m(f.rake),
        m(f.drop_box),
        m(f.commission),
        m(f.cagnotte),
        m(f.tips),
        Cell::int(f.hands),
        Cell::decimal(hours_hundredths(f.played_secs), 2, dm),
        Cell::decimal(hours_hundredths(f.open_secs), 2, dm),
        opt(f.occupancy_permille),
        opt(f.hands_per_hour_tenths),
        Cell::int(f.no_shows),
        Cell::int(f.cucurucho_hands),
        m(f.cucurucho_contributions),
        Cell::int(f.macaca_hands),
        m(f.macaca_contributions),
    ]
}

/// A shift's figures as the page's shift table has them: without the seat hours, the hours
/// open, the occupancy and the no-shows (the room's and each table's, not a dealer's shift:
/// a shift's length is its own column).
fn shift_figures<T>(all: Vec<T>) -> Vec<T> {
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
    let with_total = |first: String, rows: Vec<Vec<Cell>>, tot: Option<&Figures>| {
        let mut h = vec![first];
        h.extend(figure_headers(c, cur));
        let mut rows = rows;
        if let Some(tot) = tot {
            let mut t = vec![Cell::text(total.clone())];
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
                    std::iter::once(Cell::text(l.label.clone()))
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
                    std::iter::once(Cell::text(l.label.clone()))
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
                    std::iter::once(Cell::text(d.date.format("%Y-%m-%d").to_string()))
                        .chain(figure_cells(&d.f, cur, dm))
                        .collect()
                })
                .collect(),
            // A day's report has one day: its total is that line, as on the page.
            (r.kind == "month").then_some(&r.totals),
        ),
        "shifts" => shifts_csv(c, r),
        "waits" => waits_csv(c, r),
        "hours" => hours_csv(c, r),
        "limits" => limits_csv(c, r),
        other => Err(reports::refused(
            "part",
            Problem::new("report-err-part")
                .arg("value", other.chars().take(40).collect::<String>()),
        )),
    }
}

/// The shifts: table, dealer, from, to, its length, then the figures a shift has; the
/// total line last.
fn shifts_csv(c: &Ctx, r: &Report) -> AppResult<Vec<u8>> {
    let cur = r.currency.as_str();
    let dm = mark(c.lang);
    let total = c.t("report-total");
    let mut h = vec![
        c.t("report-col-table"),
        c.t("report-col-dealer"),
        c.t("report-col-from"),
        c.t("report-col-to"),
        // The shift's length, as the page's column next to the shift says it.
        c.t("report-col-hours"),
    ];
    h.extend(shift_figures(figure_headers(c, cur)));
    let local = |t: DateTime<Utc>| t.with_timezone(&c.tz).format("%Y-%m-%d %H:%M").to_string();
    let mut rows: Vec<Vec<Cell>> = r
        .shifts
        .iter()
        .map(|s| {
            let mut row = vec![
                Cell::int(s.table),
                Cell::text(s.dealer.clone()),
                Cell::text(local(s.started_at)),
                Cell::text(s.ended_at.map(local).unwrap_or_default()),
                Cell::decimal(hours_hundredths(s.f.open_secs), 2, dm),
            ];
            row.extend(shift_figures(figure_cells(&s.f, cur, dm)));
            row
        })
        .collect();
    let st = r.shifts_total();
    let mut t = vec![
        Cell::text(total),
        Cell::empty(),
        Cell::empty(),
        Cell::empty(),
        Cell::decimal(hours_hundredths(st.open_secs), 2, dm),
    ];
    t.extend(shift_figures(figure_cells(&st, cur, dm)));
    rows.push(t);
    csv_bytes(c, h, rows)
}

/// The waiting lists: per game, then every game together.
fn waits_csv(c: &Ctx, r: &Report) -> AppResult<Vec<u8>> {
    let dm = mark(c.lang);
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
    let mins =
        |v: Option<i64>| v.map_or_else(Cell::empty, |s| Cell::decimal(minutes_tenths(s), 1, dm));
    let rows = r
        .waits
        .iter()
        .map(|w| {
            vec![
                Cell::text(if w.game_id == 0 {
                    c.t("report-all-games")
                } else {
                    w.game.clone()
                }),
                Cell::int(w.joined),
                Cell::int(w.seated),
                mins(w.median_secs),
                mins(w.p90_secs),
                Cell::int(w.list_max),
                Cell::decimal(w.list_avg_tenths, 1, dm),
                Cell::int(w.no_shows),
            ]
        })
        .collect();
    csv_bytes(c, h, rows)
}

/// The 24 hours of the clock: cagnotte, seat hours and occupancy.
fn hours_csv(c: &Ctx, r: &Report) -> AppResult<Vec<u8>> {
    let cur = r.currency.as_str();
    let dm = mark(c.lang);
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
                Cell::text(format!("{:02}:00", l.hour)),
                money_cell(l.cagnotte, cur, dm),
                Cell::decimal(hours_hundredths(l.played_secs), 2, dm),
                Cell::decimal(hours_hundredths(l.capacity_secs), 2, dm),
                l.occupancy_permille
                    .map_or_else(Cell::empty, |v| Cell::decimal(v, 1, dm)),
            ]
        })
        .collect();
    csv_bytes(c, h, rows)
}

/// Hours per limit (PT-2007 22): per game and limits, its tables and open hours.
fn limits_csv(c: &Ctx, r: &Report) -> AppResult<Vec<u8>> {
    let cur = r.currency.as_str();
    let dm = mark(c.lang);
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
                Cell::text(l.game.clone()),
                money_cell(l.small_blind, cur, dm),
                money_cell(l.big_blind, cur, dm),
                money_cell(l.buy_in_min, cur, dm),
                l.buy_in_max
                    .map_or_else(Cell::empty, |m| money_cell(m, cur, dm)),
                Cell::text(
                    l.tables
                        .iter()
                        .map(i32::to_string)
                        .collect::<Vec<_>>()
                        .join(" "),
                ),
                Cell::decimal(hours_hundredths(l.open_secs), 2, dm),
            ]
        })
        .collect();
    csv_bytes(c, h, rows)
}

pub(super) async fn csv_export(
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
