//! The keys of the requests running now (`AppState::idempotency`) and a write's claim on its
//! request's key: the key's row is recorded in the transaction of the request's first write.

use crate::db::models::IdempotencyRow;
use crate::db::DbConn;
use crate::domain::Problem;
use crate::error::{AppError, AppResult};
use chrono::{DateTime, Utc};
use std::collections::HashSet;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex};

/// How long an answer is kept.
pub const KEPT_HOURS: i64 = 24;

/// The keys of requests running in this process now (scope, key): a repeat answers 409.
#[derive(Default)]
pub struct InFlight(Mutex<HashSet<(String, String)>>);

impl InFlight {
    pub(super) fn enter(self: &Arc<Self>, id: (String, String)) -> Option<Running> {
        let mut set = self.0.lock().unwrap_or_else(|e| e.into_inner());
        set.insert(id.clone()).then(|| Running {
            set: self.clone(),
            id,
        })
    }
}

/// Leaves [`InFlight`] when dropped (the answer given, or the request abandoned).
pub(super) struct Running {
    set: Arc<InFlight>,
    id: (String, String),
}

impl Drop for Running {
    fn drop(&mut self) {
        let mut set = self.set.0.lock().unwrap_or_else(|e| e.into_inner());
        set.remove(&self.id);
    }
}

pub(super) const FREE: u8 = 0;
pub(super) const CLAIMING: u8 = 1;
pub(super) const RECORDED: u8 = 2;

/// The request being answered, for the writes it makes (a task-local, see [`claim`]).
pub struct Pending {
    pub(super) scope: String,
    pub(super) key: String,
    pub(super) hash: String,
    pub(super) state: AtomicU8,
}

tokio::task_local! {
    pub(super) static PENDING: Arc<Pending>;
}

/// The key a write of the current request must record, if it is the request's first write:
/// the caller inserts it ([`Key::record`]) in the write's transaction and reports the outcome
/// with [`Claim::done`]. `None` outside a keyed request, or once its key is recorded.
pub fn claim() -> Option<Claim> {
    let p = PENDING.try_with(Arc::clone).ok()?;
    p.state
        .compare_exchange(FREE, CLAIMING, Ordering::AcqRel, Ordering::Acquire)
        .ok()?;
    Some(Claim(p))
}

/// A write's hold on the request's key (see [`claim`]).
pub struct Claim(Arc<Pending>);

/// The key to record, handed to the write (see [`Claim::key`]).
pub struct Key(Arc<Pending>);

impl Claim {
    /// What the write inserts.
    pub fn key(&self) -> Key {
        Key(self.0.clone())
    }

    /// The write committed (the key with it) or not (the next write records it).
    pub fn done(self, committed: bool) {
        let next = if committed { RECORDED } else { FREE };
        self.0.state.store(next, Ordering::Release);
    }
}

impl Key {
    /// Inserts the key's row (no answer yet) in the write's transaction. A row already
    /// there is a twin request that committed first: 409, and this write is undone.
    pub fn record(&self, c: &mut DbConn, now: DateTime<Utc>) -> AppResult<()> {
        let p = &self.0;
        let row = IdempotencyRow {
            scope: p.scope.clone(),
            idem_key: p.key.clone(),
            request_hash: p.hash.clone(),
            created_at: now.naive_utc(),
            status: None,
            content_type: None,
            location: None,
            set_cookie: None,
            body: None,
            body_dropped: false,
        };
        match crate::db::idempotency::insert(c, &row) {
            Ok(_) => Ok(()),
            Err(e) if crate::db::is_unique_violation(&e) => {
                Err(AppError::Conflict(Problem::new("err-idem-busy")))
            }
            Err(e) => Err(e.into()),
        }
    }
}

/// Removes the answers older than [`KEPT_HOURS`]; returns how many.
pub fn prune(c: &mut DbConn, now: DateTime<Utc>) -> AppResult<usize> {
    let before = (now - chrono::Duration::hours(KEPT_HOURS)).naive_utc();
    Ok(crate::db::idempotency::prune(c, before)?)
}
