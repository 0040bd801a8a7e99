//! Seat preferences and the seats a table keeps for accessibility needs
//! (BSOP 45): reading, saving (audited), and the offers a waiting player has let go by.
//! The rules themselves are in `domain::seat_pref`; the call that uses them is
//! `floor::call_next`.

use crate::db::audit::{self};
use crate::db::schema::{accessible_seats, card_tables, players, pref_passes, seat_preferences};
use crate::db::DbConn;
use crate::domain::ids::EntryId;
use crate::domain::ids::PlayerId;
use crate::domain::ids::TableId;
use crate::domain::seat_pref::{self, format_numbers, SeatPreference};
use crate::domain::FieldError;
use crate::error::{AppError, AppResult};
use crate::services::Act;
use diesel::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// A bounded integer in the API document (the item type of a list of numbers).
fn bounded_int(min: i32, max: i32) -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::Integer)
        .format(Some(utoipa::openapi::SchemaFormat::KnownFormat(
            utoipa::openapi::KnownFormat::Int32,
        )))
        .minimum(Some(min))
        .maximum(Some(max))
        .into()
}

/// A seat number (a table has at most 11 seats with the extra one, BSOP 50).
pub struct SeatNumber;

impl utoipa::PartialSchema for SeatNumber {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        bounded_int(1, seat_pref::MAX_SEAT)
    }
}
impl utoipa::ToSchema for SeatNumber {}

/// A table's number.
pub struct TableNumber;

impl utoipa::PartialSchema for TableNumber {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        bounded_int(1, seat_pref::MAX_TABLE_NUMBER)
    }
}
impl utoipa::ToSchema for TableNumber {}

/// A seat preference as the API sends and answers it.
#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq, Eq, utoipa::ToSchema)]
pub struct SeatPreferenceBody {
    /// Seat numbers the player would rather have, in their order (empty: any seat).
    #[serde(default)]
    #[schema(max_items = 12, value_type = Vec<SeatNumber>)]
    pub seats: Vec<i32>,
    /// Table numbers the player would rather not play at.
    #[serde(default)]
    #[schema(max_items = 12, value_type = Vec<TableNumber>)]
    pub avoid_tables: Vec<i32>,
    /// BSOP 45: the player needs one of the seats a table keeps for accessibility needs.
    #[serde(default)]
    pub accessible: bool,
    /// Keep the place on the list and wait for a matching seat (at most the room's
    /// `pref_max_passes` offers go by), rather than be called to any seat.
    #[serde(default)]
    pub wait_for_match: bool,
}

impl SeatPreferenceBody {
    pub fn from_domain(p: &SeatPreference) -> Self {
        SeatPreferenceBody {
            seats: p.seats.clone(),
            avoid_tables: p.avoid_tables.clone(),
            accessible: p.accessible,
            wait_for_match: p.wait_for_match,
        }
    }

    /// The same checks as the form's (numbers in range, at most 12 of each): 422 naming the field.
    pub fn into_domain(self) -> AppResult<SeatPreference> {
        // The document's `maxItems`, counted as sent (repeats included).
        for (field, n) in [
            ("seats", self.seats.len()),
            ("avoid_tables", self.avoid_tables.len()),
        ] {
            if n > seat_pref::MAX_ITEMS {
                return Err(AppError::Validation(vec![FieldError::new(
                    field,
                    "err-pref-too-many",
                )
                .arg("max", seat_pref::MAX_ITEMS)]));
            }
        }
        seat_pref::parse(
            &format_numbers(&self.seats),
            &format_numbers(&self.avoid_tables),
            self.accessible,
            self.wait_for_match,
        )
        .map_err(AppError::Validation)
    }
}

fn numbers(text: &str) -> Vec<i32> {
    text.split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect()
}

type PrefCols = (String, String, bool, bool);

fn from_row((seats, avoid, accessible, wait): PrefCols) -> SeatPreference {
    SeatPreference {
        seats: numbers(&seats),
        avoid_tables: numbers(&avoid),
        accessible,
        wait_for_match: wait,
    }
}

const PREF_COLS: (
    seat_preferences::seats,
    seat_preferences::avoid_tables,
    seat_preferences::accessible,
    seat_preferences::wait_for_match,
) = (
    seat_preferences::seats,
    seat_preferences::avoid_tables,
    seat_preferences::accessible,
    seat_preferences::wait_for_match,
);

/// A player's preference (empty when they stated none).
pub fn get(conn: &mut DbConn, player_id: PlayerId) -> AppResult<SeatPreference> {
    let row: Option<PrefCols> = crate::native!(conn, |c| seat_preferences::table
        .find(player_id)
        .select(PREF_COLS)
        .first(c)
        .optional())?;
    Ok(row.map(from_row).unwrap_or_default())
}

/// Rows read with their player's id, as a map by player.
fn keyed(rows: Vec<(PlayerId, PrefCols)>) -> HashMap<PlayerId, SeatPreference> {
    rows.into_iter().map(|(id, r)| (id, from_row(r))).collect()
}

/// The preferences of these players (those who stated one), for the lists and calls the
/// floor sees: one statement.
pub fn of_players(
    conn: &mut DbConn,
    ids: &[PlayerId],
) -> AppResult<HashMap<PlayerId, SeatPreference>> {
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    let rows: Vec<(PlayerId, PrefCols)> = crate::native!(conn, |c| {
        seat_preferences::table
            .filter(seat_preferences::player_id.eq_any(ids))
            .select((seat_preferences::player_id, PREF_COLS))
            .load(c)
    })?;
    Ok(keyed(rows))
}

/// Every stated preference (only players who stated one have a row): for the floor board.
pub fn all(conn: &mut DbConn) -> AppResult<HashMap<PlayerId, SeatPreference>> {
    let rows: Vec<(PlayerId, PrefCols)> = crate::native!(conn, |c| {
        seat_preferences::table
            .select((seat_preferences::player_id, PREF_COLS))
            .load(c)
    })?;
    Ok(keyed(rows))
}

/// Saves a player's preference (by the player from their link, or by the floor for them),
/// audited as `player.seat_preference` with before and after. An empty preference without
/// waiting removes it.
pub fn set(
    conn: &mut DbConn,
    act: &Act,
    player_id: PlayerId,
    pref: &SeatPreference,
) -> AppResult<SeatPreference> {
    let (now, actor) = (act.now, &act.actor);
    // 404 for a player who does not exist (not a foreign-key 500).
    let _: i64 = crate::native!(conn, |c| players::table
        .find(player_id)
        .select(players::id)
        .first(c))?;
    let before = get(conn, player_id)?;
    if before == *pref {
        return Ok(before);
    }
    let staff = actor.id;
    if pref.is_empty() && !pref.wait_for_match {
        crate::native!(conn, |c| diesel::delete(
            seat_preferences::table.find(player_id)
        )
        .execute(c))?;
    } else {
        let seats = format_numbers(&pref.seats);
        let avoid = format_numbers(&pref.avoid_tables);
        let changed = crate::native!(conn, |c| diesel::update(
            seat_preferences::table.find(player_id)
        )
        .set((
            seat_preferences::seats.eq(&seats),
            seat_preferences::avoid_tables.eq(&avoid),
            seat_preferences::accessible.eq(pref.accessible),
            seat_preferences::wait_for_match.eq(pref.wait_for_match),
            seat_preferences::updated_at.eq(now.naive_utc()),
            seat_preferences::updated_by.eq(staff),
        ))
        .execute(c))?;
        if changed == 0 {
            crate::native!(conn, |c| diesel::insert_into(seat_preferences::table)
                .values((
                    seat_preferences::player_id.eq(player_id),
                    seat_preferences::seats.eq(&seats),
                    seat_preferences::avoid_tables.eq(&avoid),
                    seat_preferences::accessible.eq(pref.accessible),
                    seat_preferences::wait_for_match.eq(pref.wait_for_match),
                    seat_preferences::updated_at.eq(now.naive_utc()),
                    seat_preferences::updated_by.eq(staff),
                ))
                .execute(c))?;
        }
    }
    audit::record(
        conn,
        now,
        actor,
        "player.seat_preference",
        "player",
        Some(player_id.get()),
        Some(&SeatPreferenceBody::from_domain(&before)),
        Some(&SeatPreferenceBody::from_domain(pref)),
    )?;
    Ok(pref.clone())
}

/// BSOP 45: the seats this table keeps for accessibility needs.
pub fn accessible_seats(conn: &mut DbConn, table_id: TableId) -> AppResult<Vec<i32>> {
    let s: Option<String> = crate::native!(conn, |c| accessible_seats::table
        .find(table_id)
        .select(accessible_seats::seats)
        .first(c)
        .optional())?;
    Ok(s.map(|s| numbers(&s)).unwrap_or_default())
}

/// BSOP 45: sets the seats a table keeps for accessibility needs ("1, 10"; empty: none),
/// audited as `table.accessible_seats`. Seats beyond the table's size are refused (422).
pub fn set_accessible_seats(
    conn: &mut DbConn,
    act: &Act,
    table_id: TableId,
    typed: &str,
) -> AppResult<Vec<i32>> {
    let (now, actor) = (act.now, &act.actor);
    let size: i32 = crate::native!(conn, |c| card_tables::table
        .find(table_id)
        .select(card_tables::seats)
        .first(c))?;
    let seats = seat_pref::parse_numbers("accessible_seats", typed, size)
        .map_err(|e| AppError::Validation(vec![e]))?;
    let before = accessible_seats(conn, table_id)?;
    if before == seats {
        return Ok(seats);
    }
    crate::native!(conn, |c| diesel::delete(
        accessible_seats::table.find(table_id)
    )
    .execute(c))?;
    if !seats.is_empty() {
        crate::native!(conn, |c| diesel::insert_into(accessible_seats::table)
            .values((
                accessible_seats::table_id.eq(table_id),
                accessible_seats::seats.eq(format_numbers(&seats)),
            ))
            .execute(c))?;
    }
    audit::record(
        conn,
        now,
        actor,
        "table.accessible_seats",
        "table",
        Some(table_id.get()),
        Some(&before),
        Some(&seats),
    )?;
    Ok(seats)
}

/// How many offers have gone by this list entry while its player waited for a preferred seat.
pub fn passes(conn: &mut DbConn, entry_id: EntryId) -> AppResult<i32> {
    Ok(crate::native!(conn, |c| pref_passes::table
        .find(entry_id)
        .select(pref_passes::passes)
        .first(c)
        .optional())?
    .unwrap_or(0))
}

/// One more offer went by this entry (its player waits for a preferred seat): counted and
/// audited as `list.pref_pass` with the table and seat that went to someone else.
pub fn count_pass(
    conn: &mut DbConn,
    act: &Act,
    entry_id: EntryId,
    table_id: TableId,
    seat_no: i32,
) -> AppResult<i32> {
    let (now, actor) = (act.now, &act.actor);
    let n = passes(conn, entry_id)? + 1;
    let changed = crate::native!(conn, |c| diesel::update(pref_passes::table.find(entry_id))
        .set((
            pref_passes::passes.eq(n),
            pref_passes::last_at.eq(now.naive_utc())
        ))
        .execute(c))?;
    if changed == 0 {
        crate::native!(conn, |c| diesel::insert_into(pref_passes::table)
            .values((
                pref_passes::entry_id.eq(entry_id),
                pref_passes::passes.eq(n),
                pref_passes::last_at.eq(now.naive_utc()),
            ))
            .execute(c))?;
    }
    audit::record(
        conn,
        now,
        actor,
        "list.pref_pass",
        "waitlist_entry",
        Some(entry_id.get()),
        None::<&()>,
        Some(&serde_json::json!({"passes": n, "table_id": table_id, "seat_no": seat_no})),
    )?;
    Ok(n)
}

/// The preference said in a few words for the floor ("seats 1, 2 · not table 3 · accessible
/// seat · waits"), as message arguments: the template picks the words of its language.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct PrefSummary {
    pub seats: String,
    pub avoid_tables: String,
    pub accessible: bool,
    pub wait_for_match: bool,
}

impl PrefSummary {
    pub fn of(p: &SeatPreference) -> Option<Self> {
        (!p.is_empty()).then(|| PrefSummary {
            seats: format_numbers(&p.seats),
            avoid_tables: format_numbers(&p.avoid_tables),
            accessible: p.accessible,
            wait_for_match: p.wait_for_match,
        })
    }
}
