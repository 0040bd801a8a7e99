//! Server-sent events: the event stream that live pages follow. Each event carries its
//! sequence number as the SSE id; a reconnecting browser sends `Last-Event-ID` and receives
//! every event it missed (they are rows in the database, so this holds across restarts).
//! A stream opens with a `hello` event whose id is the sequence number it starts after.
//!
//! A stream catches up from the database, then follows the process's push hub
//! (`crate::push`), which reads each new event once for every open stream.

use crate::db::models::EventRow;
use crate::domain::ids::TableId;
use crate::error::AppResult;
use crate::push::{Feed, Pushed};
use crate::web::extract::FloorStaff;
use crate::web::state::AppState;
use actix_web::web::Bytes;
use actix_web::{web, HttpRequest, HttpResponse};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast::{self, error::RecvError, error::TryRecvError};
use tokio::time::Instant;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/floor/stream", web::get().to(floor_stream));
}

/// Events after `after`, oldest first (at most `limit`).
pub fn events_after(
    conn: &mut crate::db::DbConn,
    after: i64,
    limit: i64,
) -> AppResult<Vec<EventRow>> {
    crate::push::read(conn, Feed::All, after, limit)
}

/// Events of one table after `after`, oldest first (at most `limit`): what its tablet follows.
pub fn table_events_after(
    conn: &mut crate::db::DbConn,
    table_id: TableId,
    after: i64,
    limit: i64,
) -> AppResult<Vec<EventRow>> {
    crate::push::read(conn, Feed::Table(table_id.get()), after, limit)
}

/// Where a stream starts: the browser's `Last-Event-ID` on a reconnect, else the event the
/// page was rendered with (`?since=`), else now.
pub fn resume_point(req: &HttpRequest) -> Option<i64> {
    let since =
        web::Query::<std::collections::HashMap<String, String>>::from_query(req.query_string())
            .ok()
            .and_then(|q| q.get("since").and_then(|v| v.parse::<i64>().ok()));
    req.headers()
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<i64>().ok())
        .or(since)
}

/// An SSE response with the events of `feed` after sequence number `start`, in order, each
/// once: first those already written (from the database), then each new one as the hub
/// pushes it. Every 5 s `allowed` says whether the viewer may still watch (the stream ends
/// otherwise); a keep-alive comment goes out after 15 s of silence.
pub fn event_stream<A>(st: AppState, start: i64, feed: Feed, allowed: A) -> HttpResponse
where
    A: Fn(&AppState) -> bool + Clone + Send + Sync + 'static,
{
    let now = Instant::now();
    let kind = match feed {
        Feed::All => "floor",
        Feed::Table(_) => "tablet",
    };
    let open = st.metrics.stream_opened(kind);
    let follow = Follow {
        _open: open,
        st,
        feed,
        allowed,
        last: start,
        rx: None,
        catch_up_to: None,
        started: false,
        check_at: now + RECHECK,
        sent_at: now,
    };
    let stream = futures_util::stream::unfold(follow, |mut f| async move {
        let out = f.next().await?;
        Some((Ok::<Bytes, actix_web::Error>(out), f))
    });
    HttpResponse::Ok()
        .insert_header(("Content-Type", "text/event-stream"))
        .insert_header(("Cache-Control", "no-store"))
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(stream)
}

/// The first frame of every stream: how long to wait before reconnecting, then a `hello`
/// event whose id is the sequence number the stream starts after. EventSource keeps that id
/// as its `lastEventId` and sends it back as `Last-Event-ID` if the connection drops before
/// any event came, so a fresh stream resumes where it began rather than at the newest event;
/// an integration reads from it where the stream starts. Pages listen to unnamed messages
/// only (`onmessage`), so a named `hello` does not refresh them.
fn hello(after: i64) -> Bytes {
    Bytes::from(format!(
        "retry: 2000\nevent: hello\nid: {after}\ndata: {{\"after\":{after}}}\n\n"
    ))
}

/// One open stream.
struct Follow<A> {
    /// Counts the stream as open (metrics) until it ends.
    _open: crate::metrics::StreamGuard,
    st: AppState,
    feed: Feed,
    allowed: A,
    /// The last event sent (or the starting point): nothing at or below it is sent.
    last: i64,
    /// The hub's broadcast; `None` until subscribed, and again after falling behind it.
    rx: Option<broadcast::Receiver<Arc<Pushed>>>,
    /// While catching up: the hub's horizon at subscription. Events up to it come from the
    /// database, events after it from the broadcast.
    catch_up_to: Option<i64>,
    started: bool,
    /// When to ask `allowed` again.
    check_at: Instant,
    /// When something was last sent (keep-alive after [`KEEPALIVE`] of silence).
    sent_at: Instant,
}

/// Events read per query while catching up.
const CATCH_UP_PAGE: i64 = 200;

/// Frames sent in one write when several events are waiting.
const BATCH: usize = 64;

/// A comment line after this long without anything sent keeps proxies from closing the stream.
const KEEPALIVE: Duration = Duration::from_secs(15);

/// How often an open stream checks that its viewer may still see it (a deactivation, a role
/// or password change, a revoked tablet ends it).
const RECHECK: Duration = Duration::from_secs(5);

impl<A> Follow<A>
where
    A: Fn(&AppState) -> bool + Clone + Send + Sync + 'static,
{
    /// The next bytes to send; `None` ends the stream (viewer no longer allowed, database
    /// unavailable: the browser reconnects with `Last-Event-ID`).
    async fn next(&mut self) -> Option<Bytes> {
        if !self.started {
            self.started = true;
            return Some(hello(self.last));
        }
        loop {
            if self.st.shutdown.is_set() {
                // The server is stopping: the browser reconnects and resumes from its last id.
                return None;
            }
            if Instant::now() >= self.check_at {
                let (st, allowed) = (self.st.clone(), self.allowed.clone());
                if !actix_web::web::block(move || allowed(&st))
                    .await
                    .unwrap_or(false)
                {
                    return None;
                }
                self.check_at = Instant::now() + RECHECK;
            }
            let out = match self.catch_up_to {
                Some(horizon) => self.catch_up(horizon).await?,
                None if self.rx.is_none() => self.subscribe().await?,
                None => self.follow().await?,
            };
            if !out.is_empty() {
                self.sent_at = Instant::now();
                return Some(out);
            }
        }
    }

    /// Subscribes to the hub and reads the first page of what was missed, in one trip to
    /// the blocking pool.
    async fn subscribe(&mut self) -> Option<Bytes> {
        let (feed, last) = (self.feed, self.last);
        let r = self
            .st
            .run(move |st, c| {
                let (rx, horizon) = st.push.subscribe(c)?;
                let page = crate::push::read(c, feed, last, CATCH_UP_PAGE)?;
                Ok((rx, horizon, page))
            })
            .await;
        let (rx, horizon, page) = r.ok()?;
        self.rx = Some(rx);
        Some(self.take_page(horizon, page))
    }

    /// The next page of what was missed, up to the horizon.
    async fn catch_up(&mut self, horizon: i64) -> Option<Bytes> {
        let (feed, last) = (self.feed, self.last);
        let page = self
            .st
            .run(move |_, c| crate::push::read(c, feed, last, CATCH_UP_PAGE))
            .await
            .ok()?;
        Some(self.take_page(horizon, page))
    }

    /// Frames the events of a catch-up page up to the horizon; once the page shows that
    /// nothing more is there, the stream is at the horizon and follows the broadcast.
    fn take_page(&mut self, horizon: i64, page: Vec<EventRow>) -> Bytes {
        let full = page.len() as i64 == CATCH_UP_PAGE;
        let mut out = Vec::new();
        let mut beyond = false;
        for e in &page {
            if e.seq > horizon {
                // Not published yet: it comes with the broadcast.
                beyond = true;
                break;
            }
            out.extend_from_slice(&crate::push::frame(e));
            self.last = e.seq;
        }
        if full && !beyond {
            self.catch_up_to = Some(horizon);
        } else {
            self.catch_up_to = None;
            self.last = self.last.max(horizon);
        }
        Bytes::from(out)
    }

    /// Waits for the broadcast (until the next check or keep-alive is due); sends the events
    /// of this feed that are newer than the last one sent, with whatever else is already
    /// waiting.
    async fn follow(&mut self) -> Option<Bytes> {
        let Some(rx) = self.rx.as_mut() else {
            return Some(Bytes::new());
        };
        let keepalive_at = self.sent_at + KEEPALIVE;
        let stop = self.st.shutdown.clone();
        let wait = async {
            tokio::select! {
                r = rx.recv() => Some(r),
                _ = stop.asked() => None,
            }
        };
        let first = match tokio::time::timeout_at(self.check_at.min(keepalive_at), wait).await {
            Ok(None) => return None,
            Ok(Some(r)) => r,
            Err(_) if Instant::now() >= keepalive_at => {
                return Some(Bytes::from_static(b": keep-alive\n\n"))
            }
            Err(_) => return Some(Bytes::new()),
        };
        let first = match first {
            Ok(e) => e,
            Err(RecvError::Lagged(_)) => {
                // Fell behind the broadcast: catch up from the database again.
                self.rx = None;
                return Some(Bytes::new());
            }
            Err(RecvError::Closed) => return None,
        };
        let mut frames: Vec<Arc<Pushed>> = vec![first];
        let mut lagged = false;
        while frames.len() < BATCH {
            match rx.try_recv() {
                Ok(e) => frames.push(e),
                Err(TryRecvError::Lagged(_)) => {
                    lagged = true;
                    break;
                }
                Err(TryRecvError::Empty | TryRecvError::Closed) => break,
            }
        }
        if lagged {
            // Send what came before the gap, then catch up from the database.
            self.rx = None;
        }
        let (last, feed) = (self.last, self.feed);
        let wanted: Vec<&Arc<Pushed>> = frames
            .iter()
            .filter(|e| e.seq > last && feed.wants(e.table_id))
            .collect();
        let Some(newest) = wanted.last() else {
            return Some(Bytes::new());
        };
        self.last = newest.seq;
        if let [one] = wanted[..] {
            return Some(one.frame.clone());
        }
        let mut out = Vec::with_capacity(wanted.iter().map(|e| e.frame.len()).sum());
        for e in wanted {
            out.extend_from_slice(&e.frame);
        }
        Some(Bytes::from(out))
    }
}

pub fn last_seq(conn: &mut crate::db::DbConn) -> AppResult<i64> {
    crate::push::last_seq(conn)
}

fn still_allowed(st: &AppState, staff_id: i64, ver: i32) -> bool {
    st.db
        .conn()
        .ok()
        .and_then(|mut c| crate::services::staff::get(&mut c, staff_id).ok())
        .is_some_and(|s| {
            s.active && s.token_version == ver && FloorStaff::ROLES.contains(&s.role.as_str())
        })
}

async fn floor_stream(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
) -> AppResult<HttpResponse> {
    let (staff_id, ver) = (who.0.staff.id, who.0.claims.ver);
    let start = match resume_point(&req) {
        Some(n) => n,
        None => st.run(|_, c| last_seq(c)).await?,
    };
    Ok(event_stream(
        st.get_ref().clone(),
        start,
        Feed::All,
        move |st| still_allowed(st, staff_id, ver),
    ))
}
