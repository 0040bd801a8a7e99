//! The dealers' report, for payroll and staffing: each dealer's downs (table, start, end, the
//! tips of the down: PT-2007 5, 9d), hours dealt, breaks due by the room's push rules against
//! breaks taken, late pushes, and their share of the tips when the room pools them; the
//! dealers on the floor against the tables open, hour by hour; and the time each table was in
//! play without a dealer while its game's list had players waiting.
//!
//! The downs are the report's own dealer shifts ([`build`](fn@super::build)), so the tips and
//! hours here add up to the shifts' total on the main report.

use super::intervals::{clip, intersect, minus, union};
use super::scope::Span;
use super::{build, rows, Filter, Period, Setting};
use crate::db::schema::{dealer_breaks, dealer_roster};
use crate::db::DbConn;
use crate::domain::dealers::{pool, PushRules};
use crate::domain::money;
use crate::error::AppResult;
use chrono::{DateTime, NaiveDateTime, Utc};
use diesel::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;

/// One down: a dealer's time at one table, clipped to the period.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct DownLine {
    pub table: i32,
    pub started_at: DateTime<Utc>,
    /// None: still dealing.
    pub ended_at: Option<DateTime<Utc>>,
    /// Its time within the period.
    pub secs: i64,
    /// PT-2007 5, 9d: the tips box of the down, in minor units.
    pub tips: i64,
    /// Relieved after the down was up (longer than the room's down, a minute's grace).
    pub late: bool,
}

/// One dealer over the period.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct DealerLine {
    pub dealer_id: i64,
    pub dealer: String,
    pub downs: Vec<DownLine>,
    pub dealt_secs: i64,
    /// The tips of their downs.
    pub tips: i64,
    /// Their share of every down's tips by time dealt, when the room pools tips.
    pub pooled_share: Option<i64>,
    /// Breaks the room's push rules called for (after N downs or M minutes dealing).
    pub breaks_due: i64,
    pub breaks_taken: i64,
    pub late_pushes: i64,
}

/// One hour of the local clock: dealers clocked in and tables open, on average (tenths; a
/// month averages its days).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct StaffingHour {
    pub hour: u32,
    pub dealers_tenths: i64,
    pub tables_tenths: i64,
}

/// A table's time in play without a dealer while its game's list had players waiting.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct TableGap {
    pub table: i32,
    pub secs: i64,
}

/// The dealers' report of a gaming day or a month.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct DealersReport {
    pub kind: &'static str,
    pub period: String,
    pub from: DateTime<Utc>,
    pub to: DateTime<Utc>,
    pub until: DateTime<Utc>,
    /// The room pools tips (its setting).
    pub pooled: bool,
    pub dealers: Vec<DealerLine>,
    pub dealt_secs: i64,
    pub tips: i64,
    pub breaks_due: i64,
    pub breaks_taken: i64,
    pub late_pushes: i64,
    pub hours: Vec<StaffingHour>,
    pub gaps: Vec<TableGap>,
    pub gap_secs: i64,
}

fn epoch(t: NaiveDateTime) -> i64 {
    t.and_utc().timestamp()
}

/// How many breaks the rules called for over these downs (in time order), counting again
/// from each break taken or clock-in (`resets`, sorted).
fn breaks_due(rules: &PushRules, downs: &[(i64, i64)], resets: &[i64]) -> i64 {
    let (mut n, mut mins, mut due, mut last_end) = (0u32, 0i64, 0i64, i64::MIN);
    for &(start, end) in downs {
        if resets.iter().any(|r| *r > last_end && *r <= start) {
            (n, mins) = (0, 0);
        }
        n += 1;
        mins += (end - start) / 60;
        if rules.break_due(n, mins) {
            due += 1;
            (n, mins) = (0, 0);
        }
        last_end = end;
    }
    due
}

/// Seconds of `spans` in each hour bucket, added up per hour of the local clock.
fn per_hour(span: &Span, spans: &[(i64, i64)]) -> BTreeMap<u32, i64> {
    let mut out = BTreeMap::new();
    for (i, w) in span.hour_bounds.windows(2).enumerate() {
        let secs: i64 = spans.iter().map(|(a, b)| clip(*a, *b, w[0], w[1])).sum();
        *out.entry(span.hour_of[i]).or_insert(0) += secs;
    }
    out
}

/// Every figure of the dealers' report for `period`.
pub fn dealers(
    conn: &mut DbConn,
    now: DateTime<Utc>,
    room: &Setting,
    rules: &PushRules,
    pooled: bool,
    period: Period,
) -> AppResult<DealersReport> {
    let r = build(conn, now, room, period, Filter::default())?;
    let span = Span::new(room, period, now);
    let (nf, nu, until) = (span.nf, span.nu, span.until);
    let late_after = rules.down_min * 60 + 60;
    // The downs, per dealer (in time order: the shifts come sorted by start).
    let mut by_dealer: BTreeMap<i64, DealerLine> = BTreeMap::new();
    let mut dealt_at: BTreeMap<i64, Vec<(i64, i64)>> = BTreeMap::new();
    for s in &r.shifts {
        let start = s.started_at.timestamp();
        let end = s.ended_at.map_or(until, |e| e.timestamp());
        let line = by_dealer.entry(s.dealer_id).or_insert_with(|| DealerLine {
            dealer_id: s.dealer_id,
            dealer: s.dealer.clone(),
            downs: Vec::new(),
            dealt_secs: 0,
            tips: 0,
            pooled_share: None,
            breaks_due: 0,
            breaks_taken: 0,
            late_pushes: 0,
        });
        let late = s.ended_at.is_some() && end - start > late_after;
        line.downs.push(DownLine {
            table: s.table,
            started_at: s.started_at,
            ended_at: s.ended_at,
            secs: s.f.open_secs,
            tips: s.f.tips,
            late,
        });
        line.dealt_secs += s.f.open_secs;
        money::add_to(&mut line.tips, s.f.tips)?;
        line.late_pushes += i64::from(late);
        dealt_at.entry(s.table_id).or_default().push((start, end));
    }
    // Breaks taken, clock-ins (each starts the count of downs again).
    let breaks: Vec<(i64, NaiveDateTime)> = dealer_breaks::table
        .filter(dealer_breaks::started_at.ge(nf))
        .filter(dealer_breaks::started_at.lt(nu))
        .select((dealer_breaks::dealer_id, dealer_breaks::started_at))
        .load(conn)?;
    let roster: Vec<(i64, NaiveDateTime, Option<NaiveDateTime>)> = dealer_roster::table
        .filter(dealer_roster::clocked_in_at.lt(nu))
        .filter(
            dealer_roster::clocked_out_at
                .is_null()
                .or(dealer_roster::clocked_out_at.gt(nf)),
        )
        .select((
            dealer_roster::dealer_id,
            dealer_roster::clocked_in_at,
            dealer_roster::clocked_out_at,
        ))
        .load(conn)?;
    for line in by_dealer.values_mut() {
        let id = line.dealer_id;
        line.breaks_taken = breaks.iter().filter(|(d, _)| *d == id).count() as i64;
        let mut resets: Vec<i64> = breaks
            .iter()
            .filter(|(d, _)| *d == id)
            .map(|(_, t)| epoch(*t))
            .chain(
                roster
                    .iter()
                    .filter(|(d, _, _)| *d == id)
                    .map(|(_, t, _)| epoch(*t)),
            )
            .collect();
        resets.sort_unstable();
        let downs: Vec<(i64, i64)> = line
            .downs
            .iter()
            .map(|d| {
                let s = d.started_at.timestamp();
                (s, d.ended_at.map_or(until, |e| e.timestamp()))
            })
            .collect();
        line.breaks_due = breaks_due(rules, &downs, &resets);
    }
    let mut dealers: Vec<DealerLine> = by_dealer.into_values().collect();
    dealers.sort_by(|a, b| {
        b.dealt_secs
            .cmp(&a.dealt_secs)
            .then(a.dealer.cmp(&b.dealer))
    });
    let tips = money::sum(dealers.iter().map(|d| d.tips))?;
    if pooled {
        let weights: Vec<i64> = dealers.iter().map(|d| d.dealt_secs).collect();
        for (d, share) in dealers.iter_mut().zip(pool(tips, &weights)) {
            d.pooled_share = Some(share);
        }
    }
    // Hour by hour: dealers clocked in against tables open (someone seated).
    let on_floor: Vec<(i64, i64)> = roster
        .iter()
        .map(|(_, a, b)| (epoch(*a), b.map_or(until, epoch).min(until)))
        .map(|(a, b)| (a.max(span.from), b))
        .collect();
    let sits = rows::seatings(conn, nf, nu)?;
    let mut open_at: BTreeMap<(i64, i64), Vec<(i64, i64)>> = BTreeMap::new();
    for (table, game, sat, left) in &sits {
        let (a, b) = ((*sat).max(span.from), left.unwrap_or(until).min(until));
        open_at
            .entry((*table, game.unwrap_or(0)))
            .or_default()
            .push((a, b));
    }
    let tables_open: Vec<(i64, i64)> = open_at.values().flat_map(|v| union(v.clone())).collect();
    let days = i64::try_from(span.dates.len().max(1)).unwrap_or(1);
    let dealers_h = per_hour(&span, &on_floor);
    let tables_h = per_hour(&span, &tables_open);
    let mut order: Vec<u32> = Vec::new();
    for h in &span.hour_of {
        if !order.contains(h) {
            order.push(*h);
        }
    }
    let hours = order
        .into_iter()
        .map(|h| StaffingHour {
            hour: h,
            dealers_tenths: dealers_h.get(&h).copied().unwrap_or(0) * 10 / (3600 * days),
            tables_tenths: tables_h.get(&h).copied().unwrap_or(0) * 10 / (3600 * days),
        })
        .collect();
    // Tables in play without a dealer while their game's list had players waiting.
    let mut waiting: BTreeMap<i64, Vec<(i64, i64)>> = BTreeMap::new();
    for (game, joined, ended, _) in rows::entries(conn, nf, nu)? {
        let (a, b) = (joined.max(span.from), ended.unwrap_or(until).min(until));
        waiting.entry(game).or_default().push((a, b));
    }
    let numbers: BTreeMap<i64, i32> = crate::services::lookups::tables(conn, false)?
        .into_iter()
        .collect();
    let mut gap_by_table: BTreeMap<i32, i64> = BTreeMap::new();
    for ((table, game), spans) in &open_at {
        let open = union(spans.clone());
        let dealt = union(dealt_at.get(table).cloned().unwrap_or_default());
        let list = union(waiting.get(game).cloned().unwrap_or_default());
        let gap: i64 = intersect(&minus(&open, &dealt), &list)
            .iter()
            .map(|(a, b)| b - a)
            .sum();
        if gap > 0 {
            let n = numbers.get(table).copied().unwrap_or_default();
            *gap_by_table.entry(n).or_insert(0) += gap;
        }
    }
    let gaps: Vec<TableGap> = gap_by_table
        .into_iter()
        .map(|(table, secs)| TableGap { table, secs })
        .collect();
    Ok(DealersReport {
        kind: r.kind,
        period: r.period.clone(),
        from: r.from,
        to: r.to,
        until: r.until,
        pooled,
        dealt_secs: dealers.iter().map(|d| d.dealt_secs).sum(),
        breaks_due: dealers.iter().map(|d| d.breaks_due).sum(),
        breaks_taken: dealers.iter().map(|d| d.breaks_taken).sum(),
        late_pushes: dealers.iter().map(|d| d.late_pushes).sum(),
        tips,
        dealers,
        hours,
        gap_secs: gaps.iter().map(|g| g.secs).sum(),
        gaps,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn breaks_due_count_by_the_rules_and_start_again_after_a_break() {
        let rules = PushRules::default(); // a break after 3 downs of 30 minutes
                                          // Downs of 30 minutes, 10 minutes apart.
        let down = |k: i64| (k * 2400, k * 2400 + 1800);
        let six: Vec<(i64, i64)> = (0..6).map(down).collect();
        assert_eq!(breaks_due(&rules, &six, &[]), 2);
        // A break taken between the second and third downs: the count starts again, one
        // due after the fifth.
        assert_eq!(breaks_due(&rules, &six, &[2 * 2400 - 300]), 1);
        let by_time = PushRules {
            break_after_downs: None,
            break_after_min: Some(60),
            ..rules
        };
        assert_eq!(breaks_due(&by_time, &six, &[]), 3);
    }
}
