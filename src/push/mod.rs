//! Push: one hub per server process fans the event stream out to every open SSE stream.
//!
//! Every change writes its events (`events` table, see `services::floor::emit`) in the
//! same transaction as the change. Instead of every open stream asking the database for new
//! events after every commit (500 streams → 500 reads per commit), one background thread —
//! the hub — reads them once per wake-up and broadcasts them, rendered once as SSE frames,
//! to every stream; each stream keeps the ones it follows ([`Feed`]) and its own last
//! sequence number.
//!
//! The hub wakes up
//! * after every local commit (`AppState::changes`),
//! * on PostgreSQL, when another server process commits events: a trigger on `events`
//!   (migration 000015) runs `pg_notify('cardroom_events', '')`, delivered at commit, one per
//!   transaction (PostgreSQL merges identical ones), and a dedicated connection `LISTEN`s
//!   ([`listen`]), reconnecting when it drops;
//! * otherwise every [`FALLBACK_POLL`] (configurable, [`Hub::set_fallback`]): what a
//!   missed notification or a listener that is down costs at most.
//!
//! Order, once, no gap. The hub publishes events strictly in sequence order and keeps a
//! *horizon*: the highest sequence number it has published, every smaller one being
//! published (or given up on, below). A stream subscribes to the broadcast and reads the
//! horizon in one step, catches up from the database up to that horizon (events it missed,
//! `Last-Event-ID`), then follows the broadcast, dropping anything at or below its own last
//! sequence number. A stream that falls more than [`BUFFER`] events behind the broadcast
//! does the same again from its last sequence number.
//!
//! Gaps. Sequence numbers come from a counter row (`db::next_seq`) updated in the writing
//! transaction, so they are dense: a rolled-back write gives its number back. A missing
//! number therefore means an event whose transaction has not committed yet while a later
//! one has. With today's write path this does not happen — on SQLite one writer commits at
//! a time (group commit commits a whole batch at once, seqs in order), on PostgreSQL the
//! counter row's lock (and the writers' advisory lock) orders commits by seq — but
//! concurrent PostgreSQL transactions can in general become visible out of order, and a
//! write made outside a transaction takes its number and inserts in two steps. So the hub
//! never publishes past a missing number: it waits for it (re-reading every
//! [`GAP_RECHECK`], and at every wake-up) and only gives up on it once it has been missing
//! for [`GAP_GRACE`] (logged), far longer than any write transaction holds its number.
//! Reading "by seq with a gap-wait" keeps every stream in order without timestamps (the
//! `at` column is the room's clock, which tests can move).

pub mod listen;

use crate::db::models::EventRow;
use crate::db::schema::events;
use crate::db::{Db, DbConn};
use crate::domain::ids::TableId;
use crate::error::{AppError, AppResult};
use actix_web::web::Bytes;
use diesel::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};
use tokio::sync::{broadcast, watch, Notify};

/// The PostgreSQL notification channel `emit` notifies and the hub listens to.
pub const CHANNEL: &str = "cardroom_events";

/// How long the hub waits for a wake-up before reading anyway (default of
/// [`Hub::set_fallback`]).
pub const FALLBACK_POLL: Duration = Duration::from_secs(1);

/// How long a missing sequence number holds back the events after it (see the module
/// documentation) before the hub gives up on it.
pub const GAP_GRACE: Duration = Duration::from_secs(2);

/// While a number is missing, the hub looks again this often.
pub const GAP_RECHECK: Duration = Duration::from_millis(25);

/// Events kept for streams that are behind; one further behind catches up from the database.
pub const BUFFER: usize = 1024;

/// Events the hub reads per query.
const PAGE: i64 = 500;

/// Which events a stream follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Feed {
    /// Every event (the floor).
    All,
    /// The events of one table (its tablet).
    Table(i64),
}

impl Feed {
    pub fn wants(&self, table_id: Option<TableId>) -> bool {
        match self {
            Feed::All => true,
            Feed::Table(t) => table_id == Some(TableId(*t)),
        }
    }
}

/// An event as the streams send it: rendered once, for every stream.
#[derive(Debug)]
pub struct Pushed {
    pub seq: i64,
    pub table_id: Option<TableId>,
    /// The SSE frame (`id: …\ndata: …\n\n`).
    pub frame: Bytes,
}

impl Pushed {
    pub fn of(e: &EventRow) -> Pushed {
        Pushed {
            seq: e.seq,
            table_id: e.table_id,
            frame: frame(e),
        }
    }
}

/// The SSE frame of an event: its sequence number as the id, kind, table and payload as data.
pub fn frame(e: &EventRow) -> Bytes {
    let data = serde_json::json!({ "kind": e.kind, "table_id": e.table_id, "payload": serde_json::from_str::<serde_json::Value>(&e.payload).unwrap_or_default() });
    Bytes::from(format!("id: {}\ndata: {}\n\n", e.seq, data))
}

/// Events of a feed after `after`, oldest first (at most `limit`).
pub fn read(conn: &mut DbConn, feed: Feed, after: i64, limit: i64) -> AppResult<Vec<EventRow>> {
    Ok(match feed {
        Feed::All => events::table
            .filter(events::seq.gt(after))
            .order(events::seq.asc())
            .limit(limit)
            .select(EventRow::as_select())
            .load(conn)?,
        Feed::Table(t) => events::table
            .filter(events::seq.gt(after))
            .filter(events::table_id.eq(t))
            .order(events::seq.asc())
            .limit(limit)
            .select(EventRow::as_select())
            .load(conn)?,
    })
}

/// The highest sequence number written so far (0 for none).
pub fn last_seq(conn: &mut DbConn) -> AppResult<i64> {
    Ok(events::table
        .select(diesel::dsl::max(events::seq))
        .first::<Option<i64>>(conn)?
        .unwrap_or(0))
}

/// The process's event hub, shared by every clone of the application state. It starts on
/// the first subscription (a process that never serves a stream never reads the events).
#[derive(Clone)]
pub struct Hub {
    inner: Arc<Inner>,
}

struct Inner {
    db: Db,
    database_url: String,
    changes: Arc<watch::Sender<u64>>,
    published: Mutex<Published>,
    wake: Arc<Notify>,
    fallback_ms: AtomicU64,
    stats: Arc<Stats>,
}

/// The broadcast and how far it has got, changed together under one lock: a subscriber
/// reads the horizon and starts receiving at the same point.
struct Published {
    started: bool,
    horizon: i64,
    tx: broadcast::Sender<Arc<Pushed>>,
}

/// Counters of the hub (read by tests and the benchmark).
#[derive(Debug, Default)]
pub struct Stats {
    /// Queries of new events.
    pub reads: AtomicU64,
    /// Events published.
    pub published: AtomicU64,
    /// Missing sequence numbers given up on after [`GAP_GRACE`].
    pub skipped: AtomicU64,
    /// Notifications received from PostgreSQL.
    pub notifications: AtomicU64,
    /// Times the PostgreSQL listener (re)connected and listens.
    pub listens: AtomicU64,
}

impl Drop for Inner {
    fn drop(&mut self) {
        // The hub thread waits on this: it wakes, finds the hub gone and ends.
        self.wake.notify_one();
    }
}

impl Hub {
    /// The hub of a process; `changes` is the state's local commit signal, `database_url`
    /// what the PostgreSQL listener connects to.
    pub fn new(db: Db, changes: Arc<watch::Sender<u64>>, database_url: &str) -> Hub {
        let (tx, _) = broadcast::channel(BUFFER);
        Hub {
            inner: Arc::new(Inner {
                db,
                database_url: database_url.to_string(),
                changes,
                published: Mutex::new(Published {
                    started: false,
                    horizon: 0,
                    tx,
                }),
                wake: Arc::new(Notify::new()),
                fallback_ms: AtomicU64::new(FALLBACK_POLL.as_millis() as u64),
                stats: Arc::default(),
            }),
        }
    }

    /// How long the hub waits for a wake-up (a local commit, a notification) before reading
    /// anyway. Tests set it very long to show that notifications alone deliver.
    pub fn set_fallback(&self, d: Duration) {
        self.inner
            .fallback_ms
            .store(d.as_millis().clamp(1, u64::MAX as u128) as u64, Relaxed);
        self.inner.wake.notify_one();
    }

    pub fn stats(&self) -> &Stats {
        &self.inner.stats
    }

    /// Subscribes to the broadcast: the receiver gets every event after the returned horizon
    /// (and maybe some before it, to be dropped); everything up to the horizon is in the
    /// database. Blocking (the first call reads the database and starts the hub): call it
    /// on a blocking thread, with a connection.
    pub fn subscribe(
        &self,
        conn: &mut DbConn,
    ) -> AppResult<(broadcast::Receiver<Arc<Pushed>>, i64)> {
        let mut p = self
            .inner
            .published
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if !p.started {
            // Starts after the newest event: what came before is the streams' catch-up.
            p.horizon = last_seq(conn)?;
            self.start()?;
            p.started = true;
        }
        Ok((p.tx.subscribe(), p.horizon))
    }

    /// The highest sequence number published so far.
    pub fn horizon(&self) -> i64 {
        self.inner
            .published
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .horizon
    }

    /// Streams subscribed at the moment.
    pub fn receivers(&self) -> usize {
        self.inner
            .published
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .tx
            .receiver_count()
    }

    fn start(&self) -> AppResult<()> {
        let weak = Arc::downgrade(&self.inner);
        let (wake, changes) = (self.inner.wake.clone(), self.inner.changes.clone());
        std::thread::Builder::new()
            .name("push-hub".into())
            .spawn(move || run(weak, wake, changes))
            .map_err(|e| AppError::internal(format!("cannot start the push hub: {e}")))?;
        if self.inner.db.backend == crate::db::Backend::Postgres {
            let weak = Arc::downgrade(&self.inner);
            let (url, wake, stats) = (
                self.inner.database_url.clone(),
                self.inner.wake.clone(),
                self.inner.stats.clone(),
            );
            std::thread::Builder::new()
                .name("push-listen".into())
                .spawn(move || listen::run(weak, &url, wake, stats))
                .map_err(|e| AppError::internal(format!("cannot start the event listener: {e}")))?;
        }
        Ok(())
    }
}

/// What one read found.
enum Step {
    /// A full page: read again at once.
    More,
    /// Up to date.
    Idle,
    /// Held back by a missing number.
    Gap,
    /// The database did not answer.
    Failed,
}

/// A missing sequence number and since when it has been missing.
struct Gap {
    seq: i64,
    since: Instant,
}

impl Inner {
    fn fallback(&self) -> Duration {
        Duration::from_millis(self.fallback_ms.load(Relaxed))
    }

    /// Reads what is new after the horizon and publishes it, in order, up to the first
    /// missing number (see the module documentation).
    fn pump(&self, gap: &mut Option<Gap>) -> Step {
        let horizon = self
            .published
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .horizon;
        let rows = match self
            .db
            .conn()
            .map_err(AppError::from)
            .and_then(|mut c| read(&mut c, Feed::All, horizon, PAGE))
        {
            Ok(rows) => rows,
            Err(e) => {
                log::warn!("push hub: reading new events failed: {e}");
                return Step::Failed;
            }
        };
        self.stats.reads.fetch_add(1, Relaxed);
        let mut next = horizon;
        let mut out = Vec::with_capacity(rows.len());
        let mut held = false;
        for e in &rows {
            if e.seq != next + 1 {
                let missing = next + 1;
                let g = match gap {
                    Some(g) if g.seq == missing => g,
                    _ => gap.insert(Gap {
                        seq: missing,
                        since: Instant::now(),
                    }),
                };
                if g.since.elapsed() < GAP_GRACE {
                    held = true;
                    break;
                }
                log::warn!("push hub: events {missing}..{} never appeared within {GAP_GRACE:?}; streams go on without them", e.seq - 1);
                self.stats
                    .skipped
                    .fetch_add((e.seq - missing) as u64, Relaxed);
                *gap = None;
            }
            next = e.seq;
            out.push(Arc::new(Pushed::of(e)));
        }
        if !held {
            *gap = None;
        }
        if !out.is_empty() {
            self.stats.published.fetch_add(out.len() as u64, Relaxed);
            let mut p = self.published.lock().unwrap_or_else(|e| e.into_inner());
            p.horizon = next;
            for e in out {
                // No receiver at the moment is fine: nobody is watching.
                let _ = p.tx.send(e);
            }
        }
        if held {
            Step::Gap
        } else if rows.len() as i64 == PAGE {
            Step::More
        } else {
            Step::Idle
        }
    }
}

/// The hub thread: reads and publishes at every wake-up, until the hub is dropped. It runs
/// its own small runtime (it only waits; the reads block this thread, nobody else's).
fn run(weak: Weak<Inner>, wake: Arc<Notify>, changes: Arc<watch::Sender<u64>>) {
    let rt = match tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            log::error!(
                "push hub: cannot start its runtime: {e}; live pages fall back to reloading"
            );
            return;
        }
    };
    rt.block_on(async move {
        let mut local = changes.subscribe();
        let mut gap = None;
        loop {
            let Some(inner) = weak.upgrade() else { break };
            // A fault in one read must not end the pushes for good: it counts as a failed read.
            let step =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| inner.pump(&mut gap)))
                    .unwrap_or_else(|_| {
                        log::error!("push hub: reading new events panicked; trying again");
                        Step::Failed
                    });
            let fallback = inner.fallback();
            drop(inner);
            let wait = match step {
                Step::More => continue,
                Step::Idle => fallback,
                Step::Gap => GAP_RECHECK.min(fallback),
                Step::Failed => fallback.min(Duration::from_secs(1)),
            };
            tokio::select! {
                _ = local.changed() => {}
                _ = wake.notified() => {}
                _ = tokio::time::sleep(wait) => {}
            }
        }
    });
}
