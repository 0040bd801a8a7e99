//! A push: a dealer takes a table over, and the dealer relieved there goes to a break or is
//! free for the next push. The floor does it from the board (the proposed push accepted, or
//! another dealer chosen), the relieving dealer at the table's tablet with their PIN. Each
//! push is audited with the proposal it followed or overrode.

use super::roster::{dealer, open_clock, start_break};
use super::AfterPush;
use crate::db::audit;
use crate::db::DbConn;
use crate::domain::ids::TableId;
use crate::domain::refusal::DealerRefusal;
use crate::error::AppResult;
use crate::services::cagnotte;
use crate::services::Act;
use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};

/// A push as asked: who takes table `table_id`, and (when the floor chooses) where the
/// relieved dealer goes; without it, to a break when one is due by the room's push rules.
#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
pub struct PushOrder {
    #[schema(value_type = i64)]
    pub table_id: TableId,
    /// The relieving dealer's staff id.
    pub dealer_id: i64,
    /// Where the relieved dealer goes (none: a break if one is due, else available).
    pub outgoing_to: Option<AfterPush>,
}

/// A push as done.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Pushed {
    pub table: i32,
    pub incoming: String,
    pub incoming_id: i64,
    /// The relieved dealer (none: the table had no dealer).
    pub outgoing: Option<String>,
    pub outgoing_id: Option<i64>,
    /// Where the relieved dealer went.
    pub outgoing_to: Option<AfterPush>,
    /// Until when the relieved dealer's break runs.
    pub break_until: Option<DateTime<Utc>>,
    /// The push came after the table's down was up.
    pub late: bool,
    /// The dealer the night proposed for this table (none: no proposal within the hour).
    pub proposed_id: Option<i64>,
}

/// Dealer `order.dealer_id` takes table `order.table_id` now. Refused, with nothing written:
/// a table not in play, a dealer who is not clocked in, who deals at this table already, or
/// deals at another one (relieved there first). A dealer on a break is called back from it.
pub fn push(conn: &mut DbConn, act: &Act, order: &PushOrder) -> AppResult<Pushed> {
    let t = crate::services::games::get_table(conn, order.table_id)?;
    if !t.state.in_play() {
        return Err(DealerRefusal::TableNotInPlay { table: t.number }.into());
    }
    let d = dealer(conn, order.dealer_id)?;
    if open_clock(conn, d.id)?.is_none() {
        return Err(DealerRefusal::NotIn {
            dealer: d.display_name,
        }
        .into());
    }
    if let Some(s) = cagnotte::dealing_at(conn, d.id)? {
        let number = crate::services::games::get_table(conn, s.table_id)?.number;
        return Err(if s.table_id == t.id {
            DealerRefusal::AlreadyHere {
                dealer: d.display_name,
                table: number,
            }
        } else {
            DealerRefusal::DealingAt {
                dealer: d.display_name,
                table: number,
            }
        }
        .into());
    }
    let rules = act.room.profile.push_rules();
    let outgoing = cagnotte::open_shift(conn, t.id)?;
    let late = outgoing
        .as_ref()
        .is_some_and(|s| act.now > s.started_at.and_utc() + Duration::minutes(rules.down_min));
    let out_row = match &outgoing {
        Some(s) => Some(crate::services::staff::get(conn, s.dealer_id)?),
        None => None,
    };
    // The night as it stands: the proposal for this table (for the record, followed or
    // overridden) and whether the relieved dealer is due a break.
    let before = super::night(conn, &rules, act.now)?;
    let proposed = before
        .pushes
        .iter()
        .find(|p| p.table == t.number)
        .map(|p| p.incoming_id);
    let due = out_row.as_ref().is_some_and(|o| {
        before
            .dealers
            .iter()
            .any(|line| line.id == o.id && line.break_due)
    });
    // The new down (a dealer coming from a break is back from it: `present`).
    cagnotte::begin_shift(conn, act, t.id, d.id)?;
    let to = out_row.as_ref().map(|_| {
        order.outgoing_to.unwrap_or(if due {
            AfterPush::Break
        } else {
            AfterPush::Available
        })
    });
    let mut break_until = None;
    if let (Some(o), Some(AfterPush::Break)) = (&out_row, to) {
        // A dealer who signed in at a tablet without clocking in is clocked in by their
        // down (`present`); the break starts now.
        let b = start_break(conn, act, o.id)?;
        break_until = Some(b.started_at.and_utc() + Duration::minutes(rules.break_min));
    }
    let done = Pushed {
        table: t.number,
        incoming: d.display_name.clone(),
        incoming_id: d.id,
        outgoing: out_row.as_ref().map(|o| o.display_name.clone()),
        outgoing_id: out_row.as_ref().map(|o| o.id),
        outgoing_to: to,
        break_until,
        late,
        proposed_id: proposed,
    };
    audit::record::<(), _>(
        conn,
        act.now,
        &act.actor,
        "dealer.push",
        "table",
        Some(t.id.get()),
        None,
        Some(&done),
    )?;
    // The board and the table's tablet follow the push live.
    crate::services::floor::emit(conn, act.now, Some(t.id), "dealer.push", &done)?;
    Ok(done)
}
