//! The room's reports (PT-2007 5, 7, 9, 22, 24; MO-13 11): what the house took and was owed,
//! tips, play and the waiting lists per table, game, dealer shift and gaming day, over one
//! gaming day or one month, and each player's hours (for comps). [`build`] computes every
//! figure; the page, its charts, the CSVs and the JSON all read the same [`Report`], so their
//! totals cannot differ. Money is added in Rust, checked, never by SQL `SUM`, so a total
//! that leaves i64 is a 409, not a wrapped figure. What each figure counts, and the periods in
//! the room's zone: `docs/reports.md`.

mod buckets;
mod build;
mod dealers;
mod figures;
mod intervals;
mod lists;
mod period;
mod play;
mod players;
mod rows;
mod scope;
mod takings;

pub use build::build;
pub use dealers::{dealers, DealerLine, DealersReport, DownLine, StaffingHour, TableGap};
pub use figures::{DayLine, Figures, HourLine, LimitLine, Line, Report, ShiftLine, WaitLine};
pub use intervals::{
    bucket, clip, hour_buckets, median, per_hour_tenths, per_mille, percentile, spread, union,
};
pub use period::{day_bounds, gaming_date, local_instant, Period};
pub use players::{player_hours, PlayerDay, PlayerHours, PlayersMonth};

use crate::db::schema::{card_tables, games};
use crate::db::DbConn;
use crate::domain::refusal::ReportRefusal;
use crate::domain::{FieldError, Problem};
use crate::error::{AppError, AppResult};
use chrono::{NaiveDateTime, NaiveTime};
use chrono_tz::Tz;
use diesel::prelude::*;

/// A query value the report cannot take: a 422 naming the parameter (like every refused
/// field), its message in the user's language.
pub fn refused(param: &str, p: Problem) -> AppError {
    AppError::Validation(vec![FieldError::of(param, p)])
}

/// What the report covers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Filter {
    pub game: Option<i64>,
    /// A table's id.
    pub table: Option<i64>,
}

/// What [`build`] needs to know of the room.
pub struct Setting<'a> {
    pub tz: Tz,
    pub timezone: &'a str,
    pub currency: &'a str,
    /// The gaming day's cut-over (`CARDROOM_GAMING_DAY_ENDS`).
    pub day_start: NaiveTime,
}

fn secs(t: NaiveDateTime) -> i64 {
    t.and_utc().timestamp()
}

/// Checks a filter: an unknown game or table is a 422 naming it.
pub fn check_filter(conn: &mut DbConn, f: &Filter) -> AppResult<()> {
    if let Some(g) = f.game {
        if games::table.find(g).count().get_result::<i64>(conn)? == 0 {
            return Err(refused(
                "game",
                Problem::from(ReportRefusal::Game {
                    value: g.to_string(),
                }),
            ));
        }
    }
    if let Some(t) = f.table {
        if card_tables::table.find(t).count().get_result::<i64>(conn)? == 0 {
            return Err(refused(
                "table",
                Problem::from(ReportRefusal::Table {
                    value: t.to_string(),
                }),
            ));
        }
    }
    Ok(())
}
