//! The table's requests to the floor (the floor, chips). A decision is a ruling
//! (`services::rulings`).

use super::*;
use crate::domain::ids::TableId;
use crate::services::Act;

/// A table asks for the floor or chips; it shows on the floor dashboard until handled. Asking
/// again for the same thing while it is open changes nothing.
pub fn request_service(
    conn: &mut DbConn,
    act: &Act,
    table_id: TableId,
    kind: &str,
    note: &str,
) -> AppResult<ServiceRequestRow> {
    let (now, actor) = (act.now, &act.actor);
    let t = table(conn, table_id)?;
    if !SERVICE_KINDS.contains(&kind) {
        return Err(AppError::field("kind", "err-service-kind"));
    }
    let note = note.trim();
    if note.chars().count() > 200 {
        return Err(AppError::Validation(vec![FieldError::new(
            "note",
            "err-too-long",
        )
        .arg("max", 200)]));
    }
    let open: Option<ServiceRequestRow> = crate::native!(conn, |dbc| service_requests::table
        .filter(service_requests::table_id.eq(table_id))
        .filter(service_requests::kind.eq(kind))
        .filter(service_requests::handled_at.is_null())
        .select(ServiceRequestRow::as_select())
        .first(dbc))
    .optional()?;
    if let Some(r) = open {
        return Ok(r);
    }
    let row = ServiceRequestRow {
        id: next_seq(conn, "service")?,
        table_id,
        kind: kind.to_string(),
        note: note.to_string(),
        created_at: now.naive_utc(),
        created_by: actor.id,
        handled_at: None,
        handled_by: None,
    };
    crate::native!(conn, |dbc| diesel::insert_into(service_requests::table)
        .values(&row)
        .execute(dbc))?;
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "service.request",
        "table",
        Some(table_id.get()),
        None,
        Some(&row),
    )?;
    emit(
        conn,
        now,
        Some(table_id),
        "service.request",
        &serde_json::json!({ "id": row.id, "table": t.number, "kind": kind }),
    )?;
    Ok(row)
}

/// The floor handled a request.
pub fn handle_service(conn: &mut DbConn, act: &Act, id: i64) -> AppResult<ServiceRequestRow> {
    let (now, actor) = (act.now, &act.actor);
    let r: ServiceRequestRow = crate::native!(conn, |dbc| service_requests::table
        .find(id)
        .select(ServiceRequestRow::as_select())
        .first(dbc))?;
    if r.handled_at.is_some() {
        return Ok(r);
    }
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(
            service_requests::table
                .find(id)
                .filter(service_requests::handled_at.is_null())
        )
        .set((
            service_requests::handled_at.eq(Some(now.naive_utc())),
            service_requests::handled_by.eq(actor.id)
        ))
        .returning(service_requests::id)
    )
    .changed(dbc))?;
    let after: ServiceRequestRow = crate::native!(conn, |dbc| service_requests::table
        .find(id)
        .select(ServiceRequestRow::as_select())
        .first(dbc))?;
    audit::record(
        conn,
        now,
        actor,
        "service.handled",
        "table",
        Some(r.table_id.get()),
        Some(&r),
        Some(&after),
    )?;
    emit(
        conn,
        now,
        Some(r.table_id),
        "service.handled",
        &serde_json::json!({ "id": id, "kind": r.kind }),
    )?;
    Ok(after)
}

/// Open requests, oldest first, with the table number (`table_id`: one table's only).
pub fn open_requests(
    conn: &mut DbConn,
    table_id: Option<TableId>,
) -> AppResult<Vec<(ServiceRequestRow, i32)>> {
    let mut q = service_requests::table
        .inner_join(card_tables::table)
        .filter(service_requests::handled_at.is_null())
        .into_boxed();
    if let Some(t) = table_id {
        q = q.filter(service_requests::table_id.eq(t));
    }
    Ok(q.order(service_requests::id.asc())
        .select((ServiceRequestRow::as_select(), card_tables::number))
        .load(conn)?)
}
