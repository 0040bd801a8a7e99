//! Server-sent events: the event stream that live pages follow. Each event carries its
//! sequence number as the SSE id; a reconnecting browser sends `Last-Event-ID` and receives
//! every event it missed (they are rows in the database, so this holds across restarts).

use crate::db::models::EventRow;
use crate::db::schema::events;
use crate::error::AppResult;
use crate::state::AppState;
use crate::web::extract::FloorStaff;
use actix_web::web::Bytes;
use actix_web::{web, HttpRequest, HttpResponse};
use diesel::prelude::*;
use std::time::Duration;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/floor/stream", web::get().to(floor_stream));
}

/// Events after `after`, oldest first (at most `limit`).
pub fn events_after(conn: &mut crate::db::DbConn, after: i64, limit: i64) -> AppResult<Vec<EventRow>> {
    Ok(events::table.filter(events::seq.gt(after)).order(events::seq.asc()).limit(limit).select(EventRow::as_select()).load(conn)?)
}

/// Events of one table after `after`, oldest first (at most `limit`): what its tablet follows.
pub fn table_events_after(conn: &mut crate::db::DbConn, table_id: i64, after: i64, limit: i64) -> AppResult<Vec<EventRow>> {
    Ok(events::table
        .filter(events::seq.gt(after))
        .filter(events::table_id.eq(table_id))
        .order(events::seq.asc())
        .limit(limit)
        .select(EventRow::as_select())
        .load(conn)?)
}

/// Where a stream starts: the browser's `Last-Event-ID` on a reconnect, else the event the
/// page was rendered with (`?since=`), else now.
pub fn resume_point(req: &HttpRequest) -> Option<i64> {
    let since = web::Query::<std::collections::HashMap<String, String>>::from_query(req.query_string())
        .ok()
        .and_then(|q| q.get("since").and_then(|v| v.parse::<i64>().ok()));
    req.headers()
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<i64>().ok())
        .or(since)
}

/// An SSE response following the events `read` returns after each sequence number,
/// from `start`; every few steps `allowed` says whether the viewer may still watch (the
/// stream ends otherwise).
pub fn event_stream<R, A>(st: AppState, start: i64, read: R, allowed: A) -> HttpResponse
where
    R: Fn(&mut crate::db::DbConn, i64) -> AppResult<Vec<EventRow>> + Clone + Send + Sync + 'static,
    A: Fn(&AppState) -> bool + Clone + Send + Sync + 'static,
{
    let rx = st.changes.subscribe();
    let stream = futures_util::stream::unfold((st, rx, start, 0u32, true), move |(st, mut rx, last, step, first)| {
        let read = read.clone();
        let allowed = allowed.clone();
        async move {
            if first {
                // Tell the browser how long to wait before reconnecting.
                return Some((Ok::<Bytes, actix_web::Error>(Bytes::from_static(b"retry: 2000\n\n")), (st, rx, last, step, false)));
            }
            let tick = step.wrapping_add(1);
            if tick % RECHECK_EVERY == 0 {
                let s2 = st.clone();
                let ok = actix_web::web::block(move || allowed(&s2)).await.unwrap_or(false);
                if !ok {
                    return None;
                }
            }
            let batch = st.run(move |_, c| read(c, last)).await;
            match batch {
                Ok(evs) if !evs.is_empty() => {
                    let next = evs.last().map(|e| e.seq).unwrap_or(last);
                    let mut out = Vec::new();
                    for e in &evs {
                        out.extend_from_slice(&sse(e));
                    }
                    return Some((Ok(Bytes::from(out)), (st, rx, next, tick, false)));
                }
                Ok(_) => {}
                Err(_) => return None,
            }
            let _ = tokio::time::timeout(WAKE, rx.changed()).await;
            if tick % KEEPALIVE_EVERY == 0 {
                return Some((Ok(Bytes::from_static(b": keep-alive\n\n")), (st, rx, last, tick, false)));
            }
            Some((Ok(Bytes::new()), (st, rx, last, tick, false)))
        }
    });
    HttpResponse::Ok()
        .insert_header(("Content-Type", "text/event-stream"))
        .insert_header(("Cache-Control", "no-store"))
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(stream)
}

pub fn last_seq(conn: &mut crate::db::DbConn) -> AppResult<i64> {
    Ok(events::table.select(diesel::dsl::max(events::seq)).first::<Option<i64>>(conn)?.unwrap_or(0))
}

fn sse(e: &EventRow) -> Bytes {
    let data = serde_json::json!({ "kind": e.kind, "table_id": e.table_id, "payload": serde_json::from_str::<serde_json::Value>(&e.payload).unwrap_or_default() });
    Bytes::from(format!("id: {}\ndata: {}\n\n", e.seq, data))
}

/// How long the stream waits for a change before checking the database anyway (changes
/// made by another server process); every `KEEPALIVE_EVERY` steps it sends a keep-alive
/// comment.
const WAKE: Duration = Duration::from_secs(1);
const KEEPALIVE_EVERY: u32 = 15;

/// How often an open stream checks that its viewer may still see the floor (a deactivation,
/// a role or password change ends it).
const RECHECK_EVERY: u32 = 5;

fn still_allowed(st: &AppState, staff_id: i64, ver: i32) -> bool {
    st.db
        .conn()
        .ok()
        .and_then(|mut c| crate::services::staff::get(&mut c, staff_id).ok())
        .is_some_and(|s| s.active && s.token_version == ver && FloorStaff::ROLES.contains(&s.role.as_str()))
}

async fn floor_stream(req: HttpRequest, st: web::Data<AppState>, who: FloorStaff) -> AppResult<HttpResponse> {
    let (staff_id, ver) = (who.0.staff.id, who.0.claims.ver);
    let start = match resume_point(&req) {
        Some(n) => n,
        None => st.run(|_, c| last_seq(c)).await?,
    };
    Ok(event_stream(st.get_ref().clone(), start, |c, after| events_after(c, after, 200), move |st| still_allowed(st, staff_id, ver)))
}
