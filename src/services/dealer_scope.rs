//! Dealers act at their own table only.
//!
//! A dealer's authority comes from where they deal: the table of the paired tablet they
//! use, or the table a floor manager assigned them to for this shift (an open dealer shift,
//! `POST /api/v1/tables/{id}/dealer`; a dealer recording hands at their tablet keeps theirs
//! open). Floor managers and admins act on any table. Reads are not limited: a dealer may
//! look at the room; they may not change another table.

use crate::db::models::{DealerShiftRow, StaffRow};
use crate::db::schema::{
    cagnotte_dues, card_tables, chip_custody, dealer_shifts, floor_messages, limit_changes,
    rulings, seat_calls, seatings, service_requests,
};
use crate::db::DbConn;
use crate::domain::ids::TableId;
use crate::domain::refusal::TabletRefusal;
use crate::domain::Problem;
use crate::error::{AppError, AppResult};
use crate::services::Act;
use diesel::prelude::*;

/// What an API path acts on, and its id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Subject {
    Table(i64),
    SeatCall(i64),
    Seating(i64),
    Custody(i64),
    ServiceRequest(i64),
    FloorMessage(i64),
    CagnotteDue(i64),
    /// BSOP 16-22: a ruling, of its table.
    Ruling(i64),
    /// PT-2007 22, BSOP 34: a limit change, of its table (its announcement is the table's).
    LimitChange(i64),
}

/// The subject of an `/api/v1/...` path, for the resources that belong to one table.
pub fn subject_of(path: &str) -> Option<Subject> {
    let rest = path.strip_prefix("/api/v1/")?;
    let mut parts = rest.split('/');
    let first = parts.next()?;
    let (kind, id) = if first == "cagnotte" {
        if parts.next()? != "dues" {
            return None;
        }
        ("dues", parts.next()?)
    } else {
        (first, parts.next()?)
    };
    let id: i64 = id.parse().ok()?;
    Some(match kind {
        "tables" => Subject::Table(id),
        "seat-calls" => Subject::SeatCall(id),
        "seatings" => Subject::Seating(id),
        "custody" => Subject::Custody(id),
        "service-requests" => Subject::ServiceRequest(id),
        "floor-messages" => Subject::FloorMessage(id),
        "dues" => Subject::CagnotteDue(id),
        "rulings" => Subject::Ruling(id),
        "limit-changes" => Subject::LimitChange(id),
        _ => return None,
    })
}

/// The table a subject belongs to (`None`: no such record — the handler answers 404).
pub fn table_of(conn: &mut DbConn, s: Subject) -> AppResult<Option<i64>> {
    Ok(match s {
        Subject::Table(id) => card_tables::table
            .find(id)
            .select(card_tables::id)
            .first(conn)
            .optional()?,
        Subject::SeatCall(id) => seat_calls::table
            .find(id)
            .select(seat_calls::table_id)
            .first(conn)
            .optional()?,
        Subject::Seating(id) => seatings::table
            .find(id)
            .select(seatings::table_id)
            .first(conn)
            .optional()?,
        Subject::Custody(id) => chip_custody::table
            .find(id)
            .select(chip_custody::table_id)
            .first(conn)
            .optional()?,
        Subject::ServiceRequest(id) => service_requests::table
            .find(id)
            .select(service_requests::table_id)
            .first(conn)
            .optional()?,
        Subject::FloorMessage(id) => floor_messages::table
            .find(id)
            .select(floor_messages::table_id)
            .first(conn)
            .optional()?,
        Subject::CagnotteDue(id) => cagnotte_dues::table
            .find(id)
            .select(cagnotte_dues::table_id)
            .first(conn)
            .optional()?,
        Subject::Ruling(id) => rulings::table
            .find(id)
            .select(rulings::table_id)
            .first(conn)
            .optional()?,
        Subject::LimitChange(id) => limit_changes::table
            .find(id)
            .select(limit_changes::table_id)
            .first(conn)
            .optional()?,
    })
}

/// May this staff member change this subject? Floor and admin: always. A dealer: only at
/// the table of `tablet_table` (the paired tablet they use) or of their open shift.
pub fn check(
    conn: &mut DbConn,
    who: &StaffRow,
    tablet_table: Option<i64>,
    s: Subject,
) -> AppResult<()> {
    if who.role != "dealer" {
        return Ok(());
    }
    let Some(table) = table_of(conn, s)? else {
        return Ok(());
    };
    if tablet_table == Some(table) {
        return Ok(());
    }
    let dealing: i64 = dealer_shifts::table
        .filter(dealer_shifts::dealer_id.eq(who.id))
        .filter(dealer_shifts::table_id.eq(table))
        .filter(dealer_shifts::ended_at.is_null())
        .count()
        .get_result(conn)?;
    if dealing > 0 {
        return Ok(());
    }
    Err(AppError::Forbidden(Problem::from(
        TabletRefusal::DealerOtherTable {
            table: table_number(conn, TableId(table))?,
        },
    )))
}

fn table_number(conn: &mut DbConn, id: TableId) -> AppResult<i32> {
    Ok(card_tables::table
        .find(id)
        .select(card_tables::number)
        .first(conn)?)
}

/// A floor manager assigns a dealer to a table for this shift (ending whoever's shift was
/// open there); the dealer may then act at that table from anywhere, e.g. through the API.
/// A dealer dealing at another table is refused: they deal at one table at a time, and the
/// floor relieves them there first.
pub fn assign(
    conn: &mut DbConn,
    act: &Act,
    table_id: TableId,
    dealer_id: i64,
) -> AppResult<DealerShiftRow> {
    let t = crate::services::games::get_table(conn, table_id)?;
    let d = crate::services::dealers::dealer(conn, dealer_id)?;
    if let Some(s) = crate::services::cagnotte::dealing_at(conn, d.id)? {
        if s.table_id != t.id {
            return Err(TabletRefusal::DealerDealingElsewhere {
                dealer: d.display_name,
                table: table_number(conn, s.table_id)?,
            }
            .into());
        }
    }
    crate::services::cagnotte::begin_shift(conn, act, t.id, d.id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_name_their_subject() {
        assert_eq!(
            subject_of("/api/v1/seatings/69/count"),
            Some(Subject::Seating(69))
        );
        assert_eq!(subject_of("/api/v1/tables/2/tips"), Some(Subject::Table(2)));
        assert_eq!(
            subject_of("/api/v1/cagnotte/dues/5/collect"),
            Some(Subject::CagnotteDue(5))
        );
        assert_eq!(
            subject_of("/api/v1/custody/1/resolve"),
            Some(Subject::Custody(1))
        );
        assert_eq!(
            subject_of("/api/v1/rulings/4/chips/confirm"),
            Some(Subject::Ruling(4))
        );
        assert_eq!(
            subject_of("/api/v1/limit-changes/6/announced"),
            Some(Subject::LimitChange(6))
        );
        assert_eq!(subject_of("/api/v1/players/3"), None);
        assert_eq!(subject_of("/api/v1/tables/x/tips"), None);
        assert_eq!(subject_of("/floor"), None);
    }
}
