//! Messages from the floor to a table's tablet.

use super::*;
use crate::domain::ids::TableId;
use crate::domain::refusal::TabletRefusal;
use crate::services::Act;

/// The longest message the floor can send a table (it must fit the tablet's banner).
pub const MESSAGE_MAX: usize = 300;

/// The floor sends a free-text message to a table's tablet; it stays on the tablet until the
/// dealer marks it seen. Refused when no tablet is paired with the table (nobody would see it).
pub fn send_message(
    conn: &mut DbConn,
    act: &Act,
    table_id: TableId,
    body: &str,
) -> AppResult<FloorMessageRow> {
    let (now, actor) = (act.now, &act.actor);
    let t = table(conn, table_id)?;
    let body = body.trim();
    if body.is_empty() {
        return Err(AppError::field("body", "err-required"));
    }
    if body.chars().count() > MESSAGE_MAX {
        return Err(AppError::Validation(vec![FieldError::new(
            "body",
            "err-too-long",
        )
        .arg("max", MESSAGE_MAX as i64)]));
    }
    let paired: i64 = crate::native!(conn, |dbc| tablets::table
        .filter(tablets::table_id.eq(table_id))
        .filter(tablets::revoked_at.is_null())
        .count()
        .get_result(dbc))?;
    if paired == 0 {
        return Err(TabletRefusal::MessageNoTablet { table: t.number }.into());
    }
    let row = FloorMessageRow {
        id: next_seq(conn, "floor_message")?,
        table_id,
        body: body.to_string(),
        created_at: now.naive_utc(),
        created_by: actor.id,
        seen_at: None,
        seen_by: None,
    };
    crate::native!(conn, |dbc| diesel::insert_into(floor_messages::table)
        .values(&row)
        .execute(dbc))?;
    audit::record::<(), _>(
        conn,
        now,
        actor,
        "message.sent",
        "table",
        Some(table_id.get()),
        None,
        Some(&row),
    )?;
    emit(
        conn,
        now,
        Some(table_id),
        "floor.message",
        &serde_json::json!({ "id": row.id, "table": t.number, "body": row.body }),
    )?;
    Ok(row)
}

/// The dealer saw a message (`at_table`: the tablet's table; another table's message is not
/// found from it). Seeing it again changes nothing.
pub fn message_seen(
    conn: &mut DbConn,
    act: &Act,
    id: i64,
    at_table: Option<TableId>,
) -> AppResult<FloorMessageRow> {
    let (now, actor) = (act.now, &act.actor);
    let m: FloorMessageRow = crate::native!(conn, |dbc| floor_messages::table
        .find(id)
        .select(FloorMessageRow::as_select())
        .first(dbc))?;
    if at_table.is_some_and(|t| t != m.table_id) {
        return Err(AppError::NotFound);
    }
    if m.seen_at.is_some() {
        return Ok(m);
    }
    crate::native!(conn, |dbc| crate::db::Cached(
        diesel::update(
            floor_messages::table
                .find(id)
                .filter(floor_messages::seen_at.is_null())
        )
        .set((
            floor_messages::seen_at.eq(Some(now.naive_utc())),
            floor_messages::seen_by.eq(actor.id)
        ))
        .returning(floor_messages::id)
    )
    .changed(dbc))?;
    let after: FloorMessageRow = crate::native!(conn, |dbc| floor_messages::table
        .find(id)
        .select(FloorMessageRow::as_select())
        .first(dbc))?;
    audit::record(
        conn,
        now,
        actor,
        "message.seen",
        "table",
        Some(m.table_id.get()),
        Some(&m),
        Some(&after),
    )?;
    emit(
        conn,
        now,
        Some(m.table_id),
        "floor.message_seen",
        &serde_json::json!({ "id": id }),
    )?;
    Ok(after)
}

/// A message as the floor sees it: the table's number, who sent it and who saw it.
#[derive(Debug, Clone, Serialize)]
pub struct MessageLine {
    pub message: FloorMessageRow,
    pub table_number: i32,
    pub sent_by: Option<String>,
    pub seen_by: Option<String>,
}

/// Messages, newest first: one table's (`table_id`) or every table's, the last `limit`.
pub fn messages(
    conn: &mut DbConn,
    table_id: Option<TableId>,
    limit: i64,
) -> AppResult<Vec<MessageLine>> {
    message_lines(conn, table_id, None, limit)
}

/// One message as the floor sees it.
pub fn message_line(conn: &mut DbConn, id: i64) -> AppResult<MessageLine> {
    message_lines(conn, None, Some(id), 1)?
        .pop()
        .ok_or(AppError::NotFound)
}

fn message_lines(
    conn: &mut DbConn,
    table_id: Option<TableId>,
    id: Option<i64>,
    limit: i64,
) -> AppResult<Vec<MessageLine>> {
    use crate::db::schema::staff;
    let mut q = floor_messages::table
        .inner_join(card_tables::table.on(card_tables::id.eq(floor_messages::table_id)))
        .into_boxed();
    if let Some(t) = table_id {
        q = q.filter(floor_messages::table_id.eq(t));
    }
    if let Some(id) = id {
        q = q.filter(floor_messages::id.eq(id));
    }
    let rows: Vec<(FloorMessageRow, i32)> = q
        .order(floor_messages::id.desc())
        .limit(limit)
        .select((FloorMessageRow::as_select(), card_tables::number))
        .load(conn)?;
    let mut ids: Vec<i64> = rows
        .iter()
        .flat_map(|(m, _)| [m.created_by, m.seen_by])
        .flatten()
        .collect();
    ids.sort_unstable();
    ids.dedup();
    let names: Vec<(i64, String)> = crate::native!(conn, |dbc| staff::table
        .filter(staff::id.eq_any(&ids))
        .select((staff::id, staff::display_name))
        .load(dbc))?;
    let name = |id: Option<i64>| {
        id.and_then(|i| names.iter().find(|(s, _)| *s == i).map(|(_, n)| n.clone()))
    };
    Ok(rows
        .into_iter()
        .map(|(m, n)| MessageLine {
            sent_by: name(m.created_by),
            seen_by: name(m.seen_by),
            table_number: n,
            message: m,
        })
        .collect())
}

/// The messages a table has not marked seen yet, oldest first.
pub fn unseen_messages(conn: &mut DbConn, table_id: TableId) -> AppResult<Vec<FloorMessageRow>> {
    Ok(crate::native!(conn, |dbc| floor_messages::table
        .filter(floor_messages::table_id.eq(table_id))
        .filter(floor_messages::seen_at.is_null())
        .order(floor_messages::id.asc())
        .select(FloorMessageRow::as_select())
        .load(dbc))?)
}
