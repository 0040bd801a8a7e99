//! The incident log: its filters (read from the query, refused field by field) and the list.

use super::out::{ruling_out, RulingOut};
use crate::domain::ids::PlayerId;
use crate::domain::ids::TableId;
use crate::domain::ruling::RulingState;
use crate::domain::FieldError;
use crate::error::{AppError, AppResult};
use crate::services::room::Room;
use crate::services::rulings::{self as svc, Filter};
use crate::services::{self};
use crate::web::extract::FloorStaff;
use crate::web::state::AppState;
use actix_web::get;
use actix_web::web;
use chrono::NaiveTime;
use serde::{Deserialize, Serialize};
use std::str::FromStr;
use utoipa::IntoParams;

/// The incident log's filters (all optional; empty means absent, as a form sends it).
#[derive(Debug, Default, Clone, Deserialize, Serialize, IntoParams)]
pub struct LogQuery {
    /// A gaming day, `YYYY-MM-DD`, in the room's zone (the day runs to the room's cut-over).
    #[param(format = Date)]
    #[serde(default)]
    pub day: Option<String>,
    /// Only this table (its id).
    #[param(value_type = Option<i64>)]
    #[serde(default)]
    pub table: Option<String>,
    /// Only the rulings involving this player (their number).
    #[param(value_type = Option<i64>)]
    #[serde(default)]
    pub player: Option<String>,
    /// Only the rulings this staff member asked for or decided (their id).
    #[param(value_type = Option<i64>)]
    #[serde(default)]
    pub staff: Option<String>,
    /// `open` or `decided`.
    #[param(value_type = Option<RulingState>)]
    #[serde(default)]
    pub state: Option<String>,
    /// At most this many, newest first (1-5000; default 200).
    #[param(value_type = Option<i64>, minimum = 1, maximum = 5000)]
    #[serde(default)]
    pub limit: Option<String>,
}

pub(super) fn filled(v: &Option<String>) -> Option<&str> {
    v.as_deref().map(str::trim).filter(|s| !s.is_empty())
}

fn number(v: &Option<String>, field: &str) -> Result<Option<i64>, FieldError> {
    match filled(v) {
        None => Ok(None),
        Some(s) => s.parse::<i64>().map(Some).map_err(|_| {
            FieldError::new(field, "err-ruling-filter-number")
                .arg("value", s.chars().take(40).collect::<String>())
        }),
    }
}

/// The gaming day's cut-over (`CARDROOM_GAMING_DAY_ENDS`, validated at start).
pub fn day_start(st: &AppState) -> NaiveTime {
    st.config.room.gaming_day_ends
}

impl LogQuery {
    /// The service's filter: the gaming day's bounds in UTC (room's zone, cut-over
    /// `day_start`); every malformed value refused together, each on its field (422). From a
    /// page's form (`form`) an empty field means "any"; in the API an empty value is not a
    /// value of its type (the API is not a form) and is refused too.
    pub fn filter(
        &self,
        room: &Room,
        day_start: NaiveTime,
        limit: i64,
        form: bool,
    ) -> AppResult<Filter> {
        let mut errs = Vec::new();
        if !form {
            for (field, v, key) in [
                ("day", &self.day, "err-ruling-filter-day"),
                ("table", &self.table, "err-ruling-filter-number"),
                ("player", &self.player, "err-ruling-filter-number"),
                ("staff", &self.staff, "err-ruling-filter-number"),
                ("state", &self.state, "err-ruling-filter-state"),
                ("limit", &self.limit, "err-ruling-filter-number"),
            ] {
                if v.as_deref().is_some_and(|x| x.trim().is_empty()) {
                    errs.push(FieldError::new(field, key).arg("value", ""));
                }
            }
        }
        let mut f = Filter {
            limit,
            ..Filter::default()
        };
        if let Some(d) = filled(&self.day) {
            match chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d") {
                Ok(date) if d.len() == 10 => {
                    let (from, to) = services::reports::day_bounds(room.tz, date, day_start);
                    f.from = Some(from.naive_utc());
                    f.to = Some(to.naive_utc());
                }
                _ => errs.push(
                    FieldError::new("day", "err-ruling-filter-day")
                        .arg("value", d.chars().take(40).collect::<String>()),
                ),
            }
        }
        let mut num = |v: &Option<String>, field: &str| match number(v, field) {
            Ok(n) => n,
            Err(e) => {
                errs.push(e);
                None
            }
        };
        f.table_id = num(&self.table, "table").map(TableId);
        f.player_id = num(&self.player, "player").map(PlayerId);
        f.staff_id = num(&self.staff, "staff");
        if let Some(s) = filled(&self.state) {
            match RulingState::from_str(s) {
                Ok(x) => f.state = Some(x),
                Err(()) => errs.push(
                    FieldError::new("state", "err-ruling-filter-state")
                        .arg("value", s.chars().take(40).collect::<String>()),
                ),
            }
        }
        match number(&self.limit, "limit") {
            Ok(Some(n)) if (1..=svc::LIST_MAX).contains(&n) => f.limit = n,
            Ok(Some(_)) => errs.push(
                FieldError::new("limit", "err-ruling-filter-limit").arg("max", svc::LIST_MAX),
            ),
            Ok(None) => {}
            Err(e) => errs.push(e),
        }
        if errs.is_empty() {
            Ok(f)
        } else {
            Err(AppError::Validation(errs))
        }
    }

    /// The filters as a query string (for the CSV link beside the page's list).
    pub fn to_query(&self) -> String {
        let pairs: Vec<(&str, &str)> = [
            ("day", &self.day),
            ("table", &self.table),
            ("player", &self.player),
            ("staff", &self.staff),
            ("state", &self.state),
            ("limit", &self.limit),
        ]
        .into_iter()
        .filter_map(|(k, v)| filled(v).map(|v| (k, v)))
        .collect();
        serde_urlencoded::to_string(pairs).unwrap_or_default()
    }
}

/// The default number of rulings a page or answer of the log holds.
pub const LIST_DEFAULT: i64 = 200;

/// The incident log (admin, floor): the rulings matching the filters, newest first.
#[utoipa::path(
    tag = "rulings",
    params(LogQuery),
    responses((status = 200, body = Vec<RulingOut>))
)]
#[get("/rulings")]
pub async fn list_rulings(
    st: web::Data<AppState>,
    _who: FloorStaff,
    q: web::Query<LogQuery>,
) -> AppResult<web::Json<Vec<RulingOut>>> {
    let ds = day_start(&st);
    let q = q.into_inner();
    let lines = st
        .run(move |_, c| {
            let room = services::room::get(c)?;
            let f = q.filter(&room, ds, LIST_DEFAULT, false)?;
            svc::list(c, &f)
        })
        .await?;
    Ok(web::Json(lines.iter().map(ruling_out).collect()))
}
