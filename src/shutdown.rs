//! The process's stop signal, shared by the server, its streams and its background threads.

use std::sync::Arc;

/// The process's stop signal (SIGTERM/SIGINT): open event streams end (browsers and tablets
/// reconnect, to another process or to this one when it is back, and resume from their
/// `Last-Event-ID`), and the background threads finish their current pass and return.
#[derive(Clone, Default)]
pub struct Shutdown(Arc<ShutdownInner>);

#[derive(Default)]
struct ShutdownInner {
    set: std::sync::Mutex<bool>,
    wake_threads: std::sync::Condvar,
    wake_streams: tokio::sync::Notify,
}

impl Shutdown {
    pub fn begin(&self) {
        *self.0.set.lock().unwrap_or_else(|e| e.into_inner()) = true;
        self.0.wake_threads.notify_all();
        self.0.wake_streams.notify_waiters();
    }

    pub fn is_set(&self) -> bool {
        *self.0.set.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A background thread's pause between passes: returns early when the stop is asked.
    pub fn sleep(&self, d: std::time::Duration) {
        let set = self.0.set.lock().unwrap_or_else(|e| e.into_inner());
        let _ = self
            .0
            .wake_threads
            .wait_timeout_while(set, d, |stop| !*stop);
    }

    /// Resolves once the stop is asked (at once if it already was).
    pub async fn asked(&self) {
        let notified = self.0.wake_streams.notified();
        if self.is_set() {
            return;
        }
        notified.await;
    }
}
