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

pub mod chart;
mod dealers;
mod export;
mod numbers;
mod page;
mod players;

pub use export::{csv_in, report_csv};
pub use numbers::{csv_money, decimal, money_cell, plain_money};
pub use page::json;
pub use players::players_csv_bytes;

use super::{ctx, render};
use crate::domain::Problem;
use crate::error::AppResult;
use crate::services;
use crate::services::reports::{self, Filter, Period, Report};
use crate::web::state::AppState;
use actix_web::web;
use chrono::{DateTime, NaiveTime, Utc};
use serde::Deserialize;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/floor/reports", web::get().to(page::page))
        .route("/floor/reports.csv", web::get().to(export::csv_export))
        .route("/floor/reports.json", web::get().to(page::json))
        .route("/floor/reports/dealers", web::get().to(dealers::page))
        .route("/floor/reports/dealers.csv", web::get().to(dealers::csv))
        .route(
            "/floor/reports/players",
            web::get().to(players::players_page),
        )
        .route(
            "/floor/reports/players.csv",
            web::get().to(players::players_csv),
        );
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

/// The period a query asks for (the page's form sends both fields; `by` says which).
fn period_of(q: &ReportQuery, today: chrono::NaiveDate) -> AppResult<Period> {
    let (day, month) = match q.by.as_deref() {
        Some("day") => (q.day.as_deref(), None),
        Some("month") => (None, q.month.as_deref()),
        _ => (q.day.as_deref(), q.month.as_deref()),
    };
    Period::parse(day, month, today)
}

/// What a report needs to know of the room.
fn setting_of(room: &services::room::Room, day_start: NaiveTime) -> reports::Setting<'_> {
    reports::Setting {
        tz: room.tz,
        timezone: &room.timezone,
        currency: &room.currency,
        day_start,
    }
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
        let period = period_of(&q, today)?;
        let filter = Filter {
            game: id_param(&q.game, "game", "report-err-game")?,
            table: id_param(&q.table, "table", "report-err-table")?,
        };
        let r = reports::build(conn, now, &setting_of(&room, ds), period, filter)?;
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
