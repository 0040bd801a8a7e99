//! The one application state shared by every handler.

use crate::auth::Keys;
use crate::config::Config;
use crate::db::models::{SessionRow, StaffRow};
use crate::db::{Db, DbConn};
use crate::domain::clock::Clock;
use crate::error::{AppError, AppResult};
use crate::i18n::I18n;
use std::sync::Arc;

#[derive(Clone)]
pub struct AppState {
    pub config: Arc<Config>,
    pub db: Db,
    pub clock: Arc<dyn Clock>,
    pub i18n: Arc<I18n>,
    pub keys: Keys,
    /// Bumped after every committed write: the push hub wakes up and reads the new events.
    pub changes: Arc<tokio::sync::watch::Sender<u64>>,
    /// The process's event hub: reads new events once and pushes them to every open stream.
    pub push: crate::push::Hub,
    /// Request rates per link and client address (see `web::limits`).
    pub limits: Arc<crate::web::limits::buckets::Limits>,
    /// The players' pages built lately (see `web::cache::PageCache`).
    pub player_pages: Arc<crate::web::cache::PageCache>,
    /// The wait estimate's fitted models, kept a minute (see `services::waits::Models`).
    pub waits: Arc<crate::services::waits::Models>,
    /// Set when the process is asked to stop: streams end, background threads finish.
    pub shutdown: crate::shutdown::Shutdown,
    /// What the process measures (`GET /metrics`).
    pub metrics: Arc<crate::metrics::Metrics>,
    /// The scheduled backups' last outcomes (`CARDROOM_BACKUP_DIR`).
    pub backups: Arc<std::sync::Mutex<crate::backup::Status>>,
    /// The audit trail's signed checkpoints (`CARDROOM_AUDIT_DIR`).
    pub seal: Arc<crate::audit_seal::Seal>,
    /// The last background check of the audit trail (hourly): when, and its problem if it
    /// failed. A failure is an alert on the admins' pages and in `/metrics`.
    pub audit_check: Arc<std::sync::Mutex<Option<AuditCheck>>>,
    /// The idempotency keys of the requests running now (see `web::idempotency`).
    pub idempotency: Arc<crate::web::idempotency::keys::InFlight>,
}

/// One background check of the audit trail.
#[derive(Debug, Clone)]
pub struct AuditCheck {
    pub at: chrono::DateTime<chrono::Utc>,
    /// `None`: intact. Else the problem's code and where (see `services::audit::Verification`).
    pub problem: Option<(&'static str, Option<i64>)>,
}

impl AppState {
    /// Runs blocking database work on the blocking thread pool, with a pooled connection.
    pub async fn run<T, F>(&self, f: F) -> AppResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&AppState, &mut DbConn) -> AppResult<T> + Send + 'static,
    {
        let state = self.clone();
        // The blocking thread logs under the request's id too.
        let span = tracing::Span::current();
        actix_web::web::block(move || {
            let _in = span.enter();
            let mut conn = state.db.conn()?;
            f(&state, &mut conn)
        })
        .await
        .map_err(AppError::from)?
    }

    /// Like [`run`](Self::run), inside one write transaction (with the audit record).
    pub async fn write<T, F>(&self, f: F) -> AppResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&AppState, &mut DbConn) -> AppResult<T> + Send + 'static,
    {
        let state = self.clone();
        // A request sent with an idempotency key records it in the transaction of its first
        // write: the key and the effect are committed together, or neither is.
        let claim = crate::web::idempotency::keys::claim();
        let key = claim.as_ref().map(|k| k.key());
        // Both backends: the process's writer thread runs it (group commit), no blocking
        // thread needed here.
        let r = match self.db.write_async(move |c| {
            if let Some(k) = &key {
                k.record(c, state.clock.now())?;
            }
            f(&state, c)
        }) {
            Some(answer) => answer.await,
            None => Err(AppError::Unavailable("database: no writer thread".into())),
        };
        if let Some(k) = claim {
            k.done(r.is_ok());
        }
        if r.is_ok() {
            self.changed();
        }
        r
    }

    /// Signs a staff member in: reads (no write turn), checks the password on the blocking
    /// pool (argon2 is slow on purpose), then records the outcome in a write transaction.
    /// Signs a staff member in: the throttle, the password check (off the write turn) and,
    /// when it succeeds, a new session row, all recorded in one write.
    pub async fn sign_in(
        &self,
        username: String,
        password: String,
        from: SignInFrom,
    ) -> AppResult<Result<(StaffRow, SessionRow), AppError>> {
        let r = self
            .credentials(username, password, from.address.clone(), Some(from))
            .await?;
        Ok(r.map(|(who, s)| (who, s.expect("a session is opened when asked"))))
    }

    /// Checks a second staff member's username and password (a witness at the table):
    /// throttled and audited like a sign-in, but opens no session.
    pub async fn check_credentials(
        &self,
        username: String,
        password: String,
        address: String,
    ) -> AppResult<Result<StaffRow, AppError>> {
        let r = self.credentials(username, password, address, None).await?;
        Ok(r.map(|(who, _)| who))
    }

    async fn credentials(
        &self,
        username: String,
        password: String,
        address: String,
        session: Option<SignInFrom>,
    ) -> AppResult<Result<(StaffRow, Option<SessionRow>), AppError>> {
        use crate::services::{sessions, staff};
        let now = self.clock.now();
        let pw = password.clone();
        let attempt = self
            .run(move |_, c| staff::login_prepare(c, now, &username, &pw, &address))
            .await?;
        let (attempt, ok) = actix_web::web::block(move || {
            let ok = staff::login_check(&attempt, &password);
            (attempt, ok)
        })
        .await?;
        let hours = self.config.server.session_hours;
        self.write(move |_, c| {
            Ok(match staff::login_record(c, now, &attempt, ok)? {
                Ok(who) => {
                    let s = match &session {
                        Some(f) => Some(sessions::open(
                            c,
                            now,
                            &who,
                            f.kind,
                            hours,
                            &f.user_agent,
                            &f.address,
                        )?),
                        None => None,
                    };
                    Ok((who, s))
                }
                Err(e) => Err(e),
            })
        })
        .await
    }

    /// What the message delivery worker needs of the process.
    pub fn notify_env(&self) -> crate::notify::worker::Env {
        crate::notify::worker::Env {
            config: self.config.clone(),
            db: self.db.clone(),
            clock: self.clock.clone(),
            i18n: self.i18n.clone(),
            keys: self.keys.clone(),
            changes: self.changes.clone(),
            shutdown: self.shutdown.clone(),
        }
    }

    /// Tells live pages that something was committed.
    pub fn changed(&self) {
        self.changes.send_modify(|n| *n = n.wrapping_add(1));
    }
}

/// Where a sign-in comes from: a page or the API, the browser, the client's address.
#[derive(Debug, Clone)]
pub struct SignInFrom {
    pub kind: crate::services::sessions::SessionKind,
    pub user_agent: String,
    pub address: String,
}
