//! The players' hours for comps (`/floor/reports/players`): the month's page and its CSV.

use super::export::{csv_bytes, csv_response};
use super::numbers::{decimal, hours_hundredths, mark, Cell};
use super::{ctx, day_start, id_param, render, ReportQuery};
use crate::domain::ids::PlayerId;
use crate::domain::player::Language;
use crate::domain::Problem;
use crate::error::AppResult;
use crate::services;
use crate::services::reports::{self, Period, PlayersMonth};
use crate::web::ctx::{Ctx, Val};
use crate::web::extract::FloorStaff;
use crate::web::state::AppState;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use chrono::{DateTime, Datelike, NaiveDate, Utc};

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
        let p = reports::player_hours(conn, now, room.tz, ds, month, player.map(PlayerId))?;
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

pub(super) async fn players_page(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    q: web::Query<ReportQuery>,
) -> AppResult<HttpResponse> {
    let c = ctx(&req, &st, &who.0).await?;
    let (p, month) = load_players(&st, c.now, q.into_inner()).await?;
    let period = Period::Month(month);
    let (prev, next) = match (period.prev(), period.next()) {
        (Period::Month(a), Period::Month(b)) => (
            month_query(a, p.player.map(PlayerId::get)),
            month_query(b, p.player.map(PlayerId::get)),
        ),
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
    let h2 = |s: i64| Cell::decimal(hours_hundredths(s), 2, mark(c.lang));
    match part {
        "players" => {
            let h = vec![
                c.t("report-col-player"),
                c.t("report-col-alias"),
                c.t("report-col-name"),
                c.t("report-col-days"),
                c.t("report-col-hours-played"),
            ];
            let mut rows: Vec<Vec<Cell>> = p
                .players
                .iter()
                .map(|x| {
                    vec![
                        Cell::int(x.player_id.get()),
                        Cell::text(x.alias.clone()),
                        Cell::text(x.full_name.clone()),
                        Cell::count(x.days.len()),
                        h2(x.total_secs),
                    ]
                })
                .collect();
            rows.push(vec![
                Cell::text(c.t("report-total")),
                Cell::empty(),
                Cell::empty(),
                Cell::empty(),
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
            let mut rows: Vec<Vec<Cell>> = Vec::new();
            for x in &p.players {
                for d in &x.days {
                    rows.push(vec![
                        Cell::int(x.player_id.get()),
                        Cell::text(x.alias.clone()),
                        Cell::text(x.full_name.clone()),
                        Cell::text(d.date.format("%Y-%m-%d").to_string()),
                        h2(d.secs),
                    ]);
                }
            }
            rows.push(vec![
                Cell::text(c.t("report-total")),
                Cell::empty(),
                Cell::empty(),
                Cell::empty(),
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

pub(super) async fn players_csv(
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
