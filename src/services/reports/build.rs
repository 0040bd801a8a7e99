//! [`build`]: the report of a period, in named steps. Each step reads its rows and adds them
//! into one accumulator ([`Acc`]); the last steps put the rows in order.

use super::buckets::{Acc, Buckets};
use super::figures::{DayLine, Figures, HourLine, Line, Report, ShiftLine};
use super::intervals::{clip, per_mille};
use super::period::Period;
use super::scope::{Scope, Span};
use super::{check_filter, lists, play, secs, takings, Filter, Setting};
use crate::db::schema::{dealer_shifts, staff};
use crate::db::DbConn;
use crate::domain::money;
use crate::error::AppResult;
use chrono::{DateTime, NaiveDateTime, Timelike, Utc};
use diesel::prelude::*;
use std::collections::{HashMap, HashSet};

/// A dealer shift: id, table, dealer, start, end (None: still going).
type ShiftRow = (i64, i64, i64, NaiveDateTime, Option<NaiveDateTime>);

/// Builds the report of `period` as of `now`.
pub fn build(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    room: &Setting,
    period: Period,
    filter: Filter,
) -> AppResult<Report> {
    check_filter(conn, &filter)?;
    let span = Span::new(room, period, now);
    let scope = Scope::load(conn, filter)?;
    let mut acc = Acc::new(span.dates.len());
    let (shift_rows, shifts_at) = load_shifts(conn, &span, &filter)?;
    let clock = Buckets::new(
        &span.day_bounds,
        &span.hour_bounds,
        &span.hour_of,
        &shifts_at,
    );

    takings::add_sessions_and_dues(conn, &span, &scope, &clock, &mut acc)?;
    takings::add_hands(conn, &span, &scope, &clock, &mut acc)?;
    let known_shifts: HashSet<i64> = shift_rows.iter().map(|r| r.0).collect();
    takings::add_drop_boxes_and_tips(conn, &span, &scope, &clock, &known_shifts, &mut acc)?;
    takings::add_commissions(conn, &span, &scope, &clock, &mut acc)?;
    takings::add_special_hands(conn, &span, &scope, &clock, &mut acc)?;
    let spans = play::add_played(conn, &span, &scope, &mut acc)?;
    let per_limit = play::add_open_time(conn, &span, &scope, spans, &mut acc)?;
    let no_shows = lists::add_no_shows(conn, &span, &scope, &clock, &mut acc)?;
    let shifts = shift_lines(conn, &span, &scope, &shift_rows, &mut acc)?;
    let waits = lists::wait_lines(conn, &span, &scope, &acc, &no_shows)?;

    let tables = table_lines(&scope, &mut acc)?;
    let games_v = game_lines(&scope, &mut acc)?;
    let days = day_lines(&span, &mut acc)?;
    let hours = hour_lines(room, &acc);
    let limits = play::limit_lines(&scope, per_limit);
    let mut totals = acc.total;
    totals.finish()?;
    let shifts_sum = Report::add_shifts(&shifts)?;
    Ok(Report {
        kind: if period.is_month() { "month" } else { "day" },
        period: period.key(),
        from: span.from_t,
        to: span.to_t,
        until: span.until_t,
        timezone: room.timezone.to_string(),
        currency: room.currency.to_string(),
        game: filter.game,
        table: filter.table,
        totals,
        tables,
        games: games_v,
        days,
        shifts,
        waits,
        hours,
        limits,
        shifts_sum,
    })
}

/// Dealer shifts overlapping the period (at the filtered table), and per table their
/// `(start, end, id)` in order (to find the shift of a time; one still going ends `until`).
fn load_shifts(
    conn: &mut DbConn,
    span: &Span,
    filter: &Filter,
) -> AppResult<(Vec<ShiftRow>, HashMap<i64, Vec<(i64, i64, i64)>>)> {
    let (nf, nt, until) = (span.nf, span.nt, span.until);
    let shift_rows: Vec<ShiftRow> = dealer_shifts::table
        .filter(dealer_shifts::started_at.lt(nt))
        .filter(
            dealer_shifts::ended_at
                .is_null()
                .or(dealer_shifts::ended_at.gt(nf)),
        )
        .select((
            dealer_shifts::id,
            dealer_shifts::table_id,
            dealer_shifts::dealer_id,
            dealer_shifts::started_at,
            dealer_shifts::ended_at,
        ))
        .load(conn)?;
    let shift_rows: Vec<_> = shift_rows
        .into_iter()
        .filter(|s| filter.table.is_none_or(|t| t == s.1))
        .collect();
    let mut shifts_at: HashMap<i64, Vec<(i64, i64, i64)>> = HashMap::new();
    for (id, table, _, start, end) in &shift_rows {
        shifts_at.entry(*table).or_default().push((
            secs(*start),
            end.map(secs).unwrap_or(until.max(secs(*start))),
            *id,
        ));
    }
    for v in shifts_at.values_mut() {
        v.sort_unstable();
    }
    Ok((shift_rows, shifts_at))
}

/// The shifts' rows, by start then table: their own time (clipped to the period) is their
/// open time; with a game filter, a shift with nothing of that game is left out.
fn shift_lines(
    conn: &mut DbConn,
    span: &Span,
    scope: &Scope,
    shift_rows: &[ShiftRow],
    acc: &mut Acc,
) -> AppResult<Vec<ShiftLine>> {
    let (from, until) = (span.from, span.until);
    let staff_names: HashMap<i64, String> = staff::table
        .select((staff::id, staff::display_name))
        .load::<(i64, String)>(conn)?
        .into_iter()
        .collect();
    let mut shifts: Vec<ShiftLine> = Vec::new();
    for (id, table, dealer, start, end) in shift_rows {
        let mut f = acc.shifts.remove(id).unwrap_or_default();
        if scope.filter.game.is_some() && f == Figures::default() {
            continue;
        }
        f.open_secs = clip(secs(*start), end.map(secs).unwrap_or(until), from, until);
        f.finish()?;
        shifts.push(ShiftLine {
            id: *id,
            table_id: *table,
            table: scope.tables_by_id.get(table).map(|t| t.0).unwrap_or(0),
            dealer_id: *dealer,
            dealer: staff_names
                .get(dealer)
                .cloned()
                .unwrap_or_else(|| format!("#{dealer}")),
            started_at: start.and_utc(),
            ended_at: end.map(|e| e.and_utc()),
            f,
        });
    }
    shifts.sort_by_key(|s| (s.started_at, s.table));
    Ok(shifts)
}

/// The tables' rows, by number.
fn table_lines(scope: &Scope, acc: &mut Acc) -> Result<Vec<Line>, money::Overflow> {
    let tables_by_id = &scope.tables_by_id;
    let mut tables: Vec<Line> = std::mem::take(&mut acc.tables)
        .into_iter()
        .map(|(id, mut f)| {
            f.finish()?;
            Ok(Line {
                id,
                label: tables_by_id
                    .get(&id)
                    .map(|t| t.0.to_string())
                    .unwrap_or_else(|| format!("#{id}")),
                f,
            })
        })
        .collect::<Result<_, money::Overflow>>()?;
    tables.sort_by_key(|l| {
        (
            tables_by_id.get(&l.id).map(|t| t.0).unwrap_or(i32::MAX),
            l.id,
        )
    });
    Ok(tables)
}

/// The games' rows, by name.
fn game_lines(scope: &Scope, acc: &mut Acc) -> Result<Vec<Line>, money::Overflow> {
    let mut games_v: Vec<Line> = std::mem::take(&mut acc.games)
        .into_iter()
        .map(|(id, mut f)| {
            f.finish()?;
            Ok(Line {
                id,
                label: scope
                    .game_names
                    .get(&id)
                    .cloned()
                    .unwrap_or_else(|| "—".into()),
                f,
            })
        })
        .collect::<Result<_, money::Overflow>>()?;
    games_v.sort_by(|a, b| a.label.cmp(&b.label).then(a.id.cmp(&b.id)));
    Ok(games_v)
}

/// The gaming days' rows, in order.
fn day_lines(span: &Span, acc: &mut Acc) -> Result<Vec<DayLine>, money::Overflow> {
    span.dates
        .iter()
        .zip(std::mem::take(&mut acc.days))
        .map(|(d, mut f)| {
            f.finish()?;
            Ok(DayLine { date: *d, f })
        })
        .collect()
}

/// The 24 hours of the clock, starting at the gaming day's cut-over.
fn hour_lines(room: &Setting, acc: &Acc) -> Vec<HourLine> {
    let start_hour = room.day_start.hour() as usize;
    (0..24)
        .map(|i| {
            let mut h = acc.hours[(start_hour + i) % 24].clone();
            h.occupancy_permille = per_mille(h.played_secs, h.capacity_secs);
            h
        })
        .collect()
}
