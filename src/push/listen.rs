//! PostgreSQL: the hub's own connection that `LISTEN`s for the events other server processes
//! commit, so a stream served by process B gets an event written through process A at
//! once, not at B's next fallback poll.
//!
//! diesel gives no socket to wait on, only `PgConnection::notifications_iter()`, which takes
//! what has arrived without blocking (libpq's `PQconsumeInput` + `PQnotifies`: a
//! non-blocking read of the socket, no round trip to the server). So this thread looks
//! every [`POLL`] and wakes the hub when something came: an idle process with its hub
//! started uses about 0.1 % of a core for it (and the 1 s fallback reads). Every [`PING`]
//! it also runs `SELECT 1`: a write on the socket brings out a broken connection that
//! reading alone may not show. A dropped connection is opened again every [`RECONNECT`];
//! meanwhile the hub's fallback poll keeps the streams going, and after each (re)connection
//! the hub is woken once for whatever was committed in between.

use super::{Inner, Stats, CHANNEL};
use diesel::connection::SimpleConnection;
use diesel::{Connection, PgConnection};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};
use tokio::sync::Notify;

/// How often the listener looks for notifications that arrived.
pub const POLL: Duration = Duration::from_millis(5);
/// How often the listener checks its connection with a query.
pub const PING: Duration = Duration::from_secs(10);
/// How long the listener waits before connecting again after a failure.
pub const RECONNECT: Duration = Duration::from_secs(1);

/// The name the listening connection shows in `pg_stat_activity`.
pub const APPLICATION_NAME: &str = "cardroom-listen";

/// Runs until the hub is dropped.
pub(super) fn run(hub: Weak<Inner>, url: &str, wake: Arc<Notify>, stats: Arc<Stats>) {
    let mut failing = false;
    while hub.strong_count() > 0 {
        match listen(&hub, url, &wake, &stats) {
            Ok(()) => return,
            Err(e) => {
                // The first failure is worth a warning; the retries after it are not.
                if failing {
                    log::debug!("event listener: {e}; retrying in {RECONNECT:?}");
                } else {
                    log::warn!("event listener: {e}; events of other server processes arrive within the fallback poll until it reconnects");
                }
                failing = true;
            }
        }
        std::thread::sleep(RECONNECT);
    }
}

/// One connection's life: `Ok` once the hub is gone, `Err` when the connection fails.
fn listen(hub: &Weak<Inner>, url: &str, wake: &Notify, stats: &Stats) -> Result<(), String> {
    let mut c = PgConnection::establish(url).map_err(|e| format!("cannot connect: {e}"))?;
    c.batch_execute(&format!(
        "SET application_name = '{APPLICATION_NAME}'; LISTEN {CHANNEL}"
    ))
    .map_err(|e| format!("LISTEN failed: {e}"))?;
    if stats.listens.fetch_add(1, Relaxed) > 0 {
        log::info!("event listener: listening again");
    }
    // Whatever was committed while nobody listened.
    wake.notify_one();
    let mut pinged = Instant::now();
    loop {
        if hub.strong_count() == 0 {
            return Ok(());
        }
        let mut got = 0u64;
        for n in c.notifications_iter() {
            n.map_err(|e| format!("connection lost: {e}"))?;
            got += 1;
        }
        if got > 0 {
            stats.notifications.fetch_add(got, Relaxed);
            wake.notify_one();
        }
        if pinged.elapsed() >= PING {
            c.batch_execute("SELECT 1")
                .map_err(|e| format!("connection lost: {e}"))?;
            pinged = Instant::now();
        }
        std::thread::sleep(POLL);
    }
}
