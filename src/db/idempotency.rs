//! The stored answers of requests sent with an idempotency key (the web's middleware decides
//! when; this only reads and writes the rows).

use crate::db::models::IdempotencyRow;
use crate::db::schema::idempotency_keys;
use crate::db::DbConn;
use chrono::NaiveDateTime;
use diesel::prelude::*;

/// The first request with a key: its row, with no answer yet.
pub fn insert(c: &mut DbConn, row: &IdempotencyRow) -> QueryResult<usize> {
    diesel::insert_into(idempotency_keys::table)
        .values(row)
        .execute(c)
}

/// The row of a key (its scope: who asked; its key: operation and key), if any.
pub fn find(c: &mut DbConn, scope: String, key: String) -> QueryResult<Option<IdempotencyRow>> {
    idempotency_keys::table
        .find((scope, key))
        .select(IdempotencyRow::as_select())
        .first(c)
        .optional()
}

/// The answer given, kept for a repeat: status, content type, location, cookies, and the
/// body unless it was too large (`dropped`).
pub struct Answer {
    pub status: i32,
    pub content_type: Option<String>,
    pub location: Option<String>,
    pub set_cookie: Option<String>,
    pub body: Option<Vec<u8>>,
    pub dropped: bool,
}

pub fn store_answer(c: &mut DbConn, scope: String, key: String, a: Answer) -> QueryResult<usize> {
    diesel::update(idempotency_keys::table.find((scope, key)))
        .set((
            idempotency_keys::status.eq(Some(a.status)),
            idempotency_keys::content_type.eq(a.content_type),
            idempotency_keys::location.eq(a.location),
            idempotency_keys::set_cookie.eq(a.set_cookie),
            idempotency_keys::body.eq(a.body),
            idempotency_keys::body_dropped.eq(a.dropped),
        ))
        .execute(c)
}

/// Removes the rows made before `before`; returns how many.
pub fn prune(c: &mut DbConn, before: NaiveDateTime) -> QueryResult<usize> {
    diesel::delete(idempotency_keys::table.filter(idempotency_keys::created_at.lt(before)))
        .execute(c)
}
