//! The delivery worker: started with the server (like the scheduler), it looks for due
//! messages every `CARDROOM_NOTIFY_POLL_MS`, claims a batch (one write), sends each message
//! outside any transaction, and records each outcome in its own write.

use super::channels::Transports;
use super::messages::{self, LinkSettings};
use super::outbox::{self, Claimed, Recorded};
use super::policy::Backoff;
use super::transport::Outgoing;
use crate::auth::Keys;
use crate::config::Config;
use crate::db::Db;
use crate::domain::clock::Clock;
use crate::error::AppResult;
use crate::i18n::I18n;
use crate::shutdown::Shutdown;
use chrono::Duration;
use std::sync::Arc;

/// What the worker needs of the process: its settings, the database, the clock, the
/// catalogs and keys that write a message, the live pages' signal and the stop signal.
#[derive(Clone)]
pub struct Env {
    pub config: Arc<Config>,
    pub db: Db,
    pub clock: Arc<dyn Clock>,
    pub i18n: Arc<I18n>,
    pub keys: Keys,
    /// Bumped when a message failed for good: the board shows the failed count.
    pub changes: Arc<tokio::sync::watch::Sender<u64>>,
    pub shutdown: Shutdown,
}

impl Env {
    fn changed(&self) {
        self.changes.send_modify(|n| *n = n.wrapping_add(1));
    }
}

/// How many messages one pass claims.
pub const BATCH: i64 = 20;

/// A fault the tests inject to play a crash.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// The worker stops dead after its `n`-th successful send in a pass, before recording
    /// it: that message and the rest of the batch stay claimed (`sending`) until their
    /// lease runs out.
    StopAfterSend(usize),
}

/// What one pass did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Pass {
    pub claimed: usize,
    pub sent: usize,
    pub retrying: usize,
    pub failed: usize,
    /// The injected fault stopped the pass.
    pub stopped: bool,
}

/// One delivery worker (one per server process; tests make their own).
pub struct Worker {
    /// Unique per worker: the claim's owner.
    pub id: String,
    state: Env,
    transports: Arc<Transports>,
    pub fault: Option<Fault>,
}

impl Worker {
    /// A worker with the transports of the configuration.
    pub fn new(state: &Env) -> Result<Worker, String> {
        Ok(Worker::with_transports(
            state,
            Transports::from_config(&state.config)?,
        ))
    }

    pub fn with_transports(state: &Env, transports: Transports) -> Worker {
        let id = format!("w{}-{}", std::process::id(), crate::auth::random_token(6));
        Worker {
            id,
            state: state.clone(),
            transports: Arc::new(transports),
            fault: None,
        }
    }

    fn backoff(&self) -> Backoff {
        let c = &self.state.config;
        Backoff {
            base: Duration::milliseconds(c.notify.backoff_ms as i64),
            max: Duration::milliseconds(c.notify.backoff_max_ms as i64),
            max_attempts: c.notify.max_attempts,
        }
    }

    /// One pass: claim what is due, send, record. Safe to run in several processes at once.
    pub fn run_once(&self) -> AppResult<Pass> {
        let st = &self.state;
        let now = st.clock.now();
        let ids = {
            let mut c = st.db.conn()?;
            outbox::due(&mut c, now, BATCH)?
        };
        let mut pass = Pass::default();
        if ids.is_empty() {
            return Ok(pass);
        }
        let claimed = self.claim(ids)?;
        pass.claimed = claimed.len();
        let backoff = self.backoff();
        let mut sends = 0;
        for c in claimed {
            let m = &c.message;
            let out = Outgoing {
                channel: m.channel.as_str(),
                to: &m.recipient,
                subject: m.subject.as_deref(),
                body: m.body.as_deref().unwrap_or_default(),
                key: &m.idem_key,
            };
            let result = self.transports.for_channel(m.channel.as_str()).send(&out);
            if result.is_ok() {
                sends += 1;
                if self.fault == Some(Fault::StopAfterSend(sends)) {
                    log::warn!(
                        "worker {}: injected fault, stopping after a send before recording it",
                        self.id
                    );
                    pass.stopped = true;
                    return Ok(pass);
                }
            } else if let Err(e) = &result {
                log::warn!(
                    "message {} ({} to {}), attempt {}: {}",
                    m.id,
                    m.channel,
                    m.recipient,
                    c.attempt,
                    e.message
                );
            }
            let now = st.clock.now();
            let (worker, b, id) = (self.id.clone(), backoff, m.id);
            let recorded = st
                .db
                .write_new(move |conn| outbox::record(conn, now, &worker, &c, &result, &b))?;
            match recorded {
                Recorded::Sent => pass.sent += 1,
                Recorded::Retry => pass.retrying += 1,
                Recorded::Failed => pass.failed += 1,
                Recorded::LeaseLost => {
                    log::warn!("message {id}: the lease ran out before the outcome was recorded")
                }
            }
        }
        if pass.failed > 0 {
            // The dashboard shows the failed count.
            st.changed();
        }
        Ok(pass)
    }

    fn claim(&self, ids: Vec<i64>) -> AppResult<Vec<Claimed>> {
        let st = self.state.clone();
        let now = st.clock.now();
        let worker = self.id.clone();
        let lease = Duration::seconds(st.config.notify.lease_secs as i64);
        let transports = self.transports.clone();
        let links = LinkSettings {
            public_base: st.config.server.public_base.clone(),
            day_ends: st.config.room.gaming_day_ends,
        };
        st.db.clone().write_new(move |conn| {
            let transport_of = |ch: &str| transports.for_channel(ch).name();
            let write = |m: &crate::db::models::OutboxRow| {
                messages::write(&st.i18n, &st.keys, &links, m).map(|w| (w.subject, w.body))
            };
            outbox::claim(conn, now, &worker, lease, &ids, &transport_of, &write)
        })
    }
}

/// Starts the worker thread (one per process): a pass every `CARDROOM_NOTIFY_POLL_MS`,
/// straight away again while there is more to send.
pub fn spawn(state: Env) -> Result<std::thread::JoinHandle<()>, String> {
    let worker = Worker::new(&state)?;
    let poll = std::time::Duration::from_millis(state.config.notify.poll_ms);
    log::info!(
        "message delivery: e-mail by {}, SMS by {}",
        worker.transports.email.name(),
        worker.transports.sms.name()
    );
    std::thread::Builder::new()
        .name("notify".into())
        .spawn(move || {
            while !worker.state.shutdown.is_set() {
                match worker.run_once() {
                    Ok(p) if p.claimed as i64 >= BATCH => continue,
                    Ok(_) => {}
                    Err(e) => worker.state.db.log_pass_failure("message delivery", &e),
                }
                worker.state.shutdown.sleep(poll);
            }
        })
        .map_err(|e| format!("message worker thread: {e}"))
}
