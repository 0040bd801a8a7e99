//! Start-up: configuration → database (migrations) → first-start bootstrap → state.

use crate::auth::Keys;
use crate::config::Config;
use crate::db::{get_setting, init_setting, Db};
use crate::domain::clock::{Clock, OffsetClock, SystemClock};
use crate::error::AppError;
use crate::i18n::I18n;
use crate::services;
use crate::web::state::AppState;
use std::sync::Arc;

#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error(transparent)]
    Db(#[from] crate::db::DbError),
    #[error("first-start setup failed: {0}")]
    Setup(String),
}

impl From<AppError> for StartError {
    fn from(e: AppError) -> Self {
        StartError::Setup(e.to_string())
    }
}

/// Opens the database, applies migrations and prepares a fresh database (room, admin
/// account, signing secret). Returns the state every handler shares.
pub fn build_state(config: Config) -> Result<AppState, StartError> {
    let db = Db::open_with(
        &config.database.url,
        config.database.pool_size,
        config.database.sqlite_synchronous,
    )?;
    db.migrate()?;
    let mut conn = db.conn().map_err(|e| StartError::Setup(e.to_string()))?;
    let clock = start_clock(&mut conn, &config)?;
    let now = clock.now();
    let secret = first_start(&db, &mut conn, now, &config)?;
    let seal = open_seal(&db, &mut conn, now, &config)?;
    drop(conn);
    let changes = Arc::new(tokio::sync::watch::channel(0).0);
    let limits = Arc::new(crate::web::limits::Limits::new(&config));
    Ok(AppState {
        push: crate::push::Hub::new(db.clone(), changes.clone(), &config.database.url),
        changes,
        keys: Keys::from_secret(secret.as_bytes()),
        config: Arc::new(config),
        db,
        clock,
        i18n: Arc::new(I18n::default()),
        limits,
        player_pages: Arc::default(),
        waits: Arc::default(),
        shutdown: crate::shutdown::Shutdown::default(),
        metrics: Arc::default(),
        backups: Arc::default(),
        seal: Arc::new(seal),
        audit_check: Arc::default(),
        idempotency: Arc::default(),
    })
}

/// The system clock, or with `CARDROOM_TEST_CLOCK` one an admin can move forward.
fn start_clock(
    conn: &mut crate::db::DbConn,
    config: &Config,
) -> Result<Arc<dyn Clock>, StartError> {
    if !config.server.test_clock {
        return Ok(Arc::new(SystemClock));
    }
    log::warn!("CARDROOM_TEST_CLOCK is on: an admin can move this server's clock forward. Never use this in a real room.");
    // The offset moved before a restart still holds: the time the server was down
    // passes for the deadlines as it would in a room.
    let us = crate::db::get_setting(conn, crate::db::TEST_CLOCK_OFFSET)
        .map_err(|e| StartError::Setup(e.to_string()))?
        .and_then(|v| v.parse::<i64>().ok())
        .unwrap_or(0);
    Ok(Arc::new(OffsetClock::ahead_by(
        chrono::Duration::microseconds(us),
    )))
}

/// The room and the first admin account if the database is new; the signing secret (the
/// configured one, else the one kept in the database, made on the first start).
fn first_start(
    db: &Db,
    conn: &mut crate::db::DbConn,
    now: chrono::DateTime<chrono::Utc>,
    config: &Config,
) -> Result<String, StartError> {
    Ok(db.write(conn, |c| -> Result<String, AppError> {
        services::room::ensure(c, now)?;
        match services::staff::bootstrap_admin(c, now, config.security.admin_password.as_deref())? {
            services::staff::Bootstrap::CreatedWithPassword(pw) => {
                println!("\n  First start: created the account `admin` with the one-time password:\n\n      {pw}\n\n  Sign in and change it under your name (top right).\n");
            }
            services::staff::Bootstrap::CreatedFromConfig => log::info!("created the admin account from CARDROOM_ADMIN_PASSWORD"),
            services::staff::Bootstrap::AlreadyHasStaff => {}
        }
        Ok(match &config.security.secret {
            Some(s) => s.clone(),
            None => match get_setting(c, "secret")? {
                Some(s) => s,
                None => init_setting(c, "secret", &crate::auth::random_token(48))?,
            },
        })
    })?)
}

/// The audit trail's signed checkpoints, one series per database (its identity, kept in
/// it) and host: a missing checkpoint file starts a new series, itself recorded in the
/// trail (a deleted file shows there and on the verify page).
fn open_seal(
    db: &Db,
    conn: &mut crate::db::DbConn,
    now: chrono::DateTime<chrono::Utc>,
    config: &Config,
) -> Result<crate::audit_seal::Seal, StartError> {
    let db_id = db.write(conn, |c| -> Result<String, AppError> {
        Ok(crate::audit_seal::ensure_database_id(c, now)?)
    })?;
    let audit_dir = config.audit.dir.clone();
    if config.audit.in_former_default {
        log::warn!("the audit key and checkpoints are still in ./{}: move the directory's files to the state directory's `audit` (or set CARDROOM_AUDIT_DIR to where they are)", crate::config::OLD_PG_AUDIT_DIR);
    }
    let (seal, key_created) =
        crate::audit_seal::Seal::open(&audit_dir, &db_id, &crate::audit_seal::host_name())
            .map_err(StartError::Setup)?;
    if let Some(p) = seal.adopt_legacy(conn).map_err(StartError::Setup)? {
        log::info!(
            "the audit checkpoint file {} matches this database's trail: continued as {}",
            crate::audit_seal::LEGACY_FILE,
            p.display()
        );
    }
    if let crate::audit_seal::Opened::NewSeries { key_created } =
        seal.opened(conn, key_created).map_err(StartError::Setup)?
    {
        record_new_series(db, conn, now, &seal, key_created)?;
    }
    seal.tick(conn, now, "start", true)
        .map_err(StartError::Setup)?;
    Ok(seal)
}

/// A new series of checkpoints begins: said in the trail, with the record it starts after.
fn record_new_series(
    db: &Db,
    conn: &mut crate::db::DbConn,
    now: chrono::DateTime<chrono::Utc>,
    seal: &crate::audit_seal::Seal,
    key_created: bool,
) -> Result<(), StartError> {
    let from = crate::audit_seal::head(conn)
        .map_err(|e| StartError::Setup(e.to_string()))?
        .map_or(0, |h| h.0);
    let (db_id, host) = (seal.database_id().to_string(), seal.host().to_string());
    db.write(conn, |c| -> Result<i64, AppError> {
        let note = serde_json::json!({
            "after_record": from,
            "key_created": key_created,
            "database": db_id,
            "host": host,
        });
        Ok(crate::db::audit::record::<(), _>(
            c,
            now,
            &crate::db::audit::Actor::system(),
            "audit.seal_started",
            "audit",
            None,
            None,
            Some(&note),
        )?)
    })?;
    if seal.missing_at_start() && from > 0 {
        log::warn!("the audit checkpoint file {} was missing although records and a key exist: a new series of checkpoints starts after record {from} (recorded in the trail)", seal.log_path().display());
    }
    Ok(())
}

/// One pass of the timers (expired seat calls, lapsed call-ins, suspended tables, limit
/// changes due at tables that record no hands), through the same service path as a user
/// action. Returns how many things it acted on.
pub fn run_timers(state: &AppState) -> Result<usize, AppError> {
    let now = state.clock.now();
    let acted = state.db.write_new(move |c| -> Result<usize, AppError> {
        let act = services::Acting::system(now).in_room(c)?;
        let floor = services::floor::tick(c, &act)?;
        // The answers kept for repeated requests, past their 24 hours.
        crate::web::idempotency::prune(c, now)?;
        Ok(floor + services::limits::tick(c, &act)?)
    })?;
    if acted > 0 {
        state.changed();
    }
    Ok(acted)
}

/// The background jobs of a server process: the scheduler, which asks the database what is
/// due every second (deadlines are stored columns, so nothing is lost across a restart: a
/// deadline passed while the server was down is acted on at the first pass), and the
/// message delivery worker (`notify::worker`, which reads the outbox the same way). Both
/// finish their current pass and return once [`crate::shutdown::Shutdown::begin`] is called; join them.
pub fn spawn_scheduler(state: AppState) -> Vec<std::thread::JoinHandle<()>> {
    let mut threads = Vec::new();
    match crate::notify::worker::spawn(state.notify_env()) {
        Ok(t) => threads.push(t),
        // The settings were validated at start: only a thread that cannot start gets here.
        Err(e) => log::error!("messages to players will not be sent: {e}"),
    }
    if let Some(dir) = state
        .config
        .backup
        .dir
        .clone()
        .filter(|_| state.db.backend == crate::db::Backend::Sqlite)
    {
        let st = state.clone();
        let every = std::time::Duration::from_secs(u64::from(st.config.backup.every_min) * 60);
        threads.push(
            std::thread::Builder::new()
                .name("backups".into())
                .spawn(move || loop {
                    st.shutdown.sleep(every);
                    if st.shutdown.is_set() {
                        return;
                    }
                    let now = chrono::Utc::now();
                    let _ = crate::backup::scheduled(
                        &st.config.database.url,
                        std::path::Path::new(&dir),
                        st.config.backup.keep as usize,
                        now,
                        &st.backups,
                    );
                })
                .expect("start the backup thread"),
        );
    }
    {
        // The whole audit trail and its checkpoints, checked soon after start and then every
        // hour on a thread of its own (a year of records takes seconds to hash: the
        // scheduler's one-second timers must not wait for it).
        let st = state.clone();
        threads.push(
            std::thread::Builder::new()
                .name("audit-check".into())
                .spawn(move || {
                    let mut wait = std::time::Duration::from_secs(5);
                    loop {
                        st.shutdown.sleep(wait);
                        if st.shutdown.is_set() {
                            return;
                        }
                        check_audit(&st);
                        wait = std::time::Duration::from_secs(3600);
                    }
                })
                .expect("start the audit check thread"),
        );
    }
    threads.push(
        std::thread::Builder::new()
            .name("scheduler".into())
            .spawn(move || {
                while !state.shutdown.is_set() {
                    match run_timers(&state) {
                        Ok(_) => state.metrics.scheduler_passed(),
                        Err(e) => state.db.log_pass_failure("scheduler", &e),
                    }
                    seal_pass(&state, "minute", false);
                    state.shutdown.sleep(std::time::Duration::from_secs(1));
                }
                // The last records of a clean stop are sealed too.
                seal_pass(&state, "stop", true);
            })
            .expect("start the scheduler thread"),
    );
    threads
}

/// Verifies the audit trail and its signed checkpoints; the outcome goes to the admins'
/// pages and `/metrics`, a failure to the log as well.
pub fn check_audit(state: &AppState) {
    let r = state
        .db
        .conn()
        .map_err(|e| e.to_string())
        .and_then(|mut c| {
            services::audit::verify_all(&mut c, &state.seal).map_err(|e| e.to_string())
        });
    match r {
        Ok(v) => {
            let problem = v.problem().map(|p| (p, v.broken_at()));
            if let Some((p, at)) = problem {
                log::error!("the audit trail failed its check: {p} at {at:?} (see Audit → Verify)");
                // Into the trail once per new problem (not every hour while it lasts).
                let known = state
                    .audit_check
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .as_ref()
                    .and_then(|c| c.problem)
                    == problem;
                if !known {
                    record_verify_failure(state, &v, &crate::db::audit::Actor::system());
                }
            }
            state.metrics.audit_checked(problem.is_none());
            *state.audit_check.lock().unwrap_or_else(|p| p.into_inner()) =
                Some(crate::web::state::AuditCheck {
                    at: state.clock.now(),
                    problem,
                });
        }
        // The database did not answer: the next hour tries again.
        Err(e) => log::warn!("audit check: {e}"),
    }
}

/// Writes a failed verification to the trail (logged if even that fails).
pub fn record_verify_failure(
    state: &AppState,
    v: &services::audit::Verification,
    by: &crate::db::audit::Actor,
) {
    let now = state.clock.now();
    let (v, by) = (v.clone(), by.clone());
    // Through the writer, like every write (the record chains onto the head).
    let r = state
        .db
        .write_new(move |c| services::audit::record_failure(c, now, &by, &v));
    if let Err(e) = r {
        log::warn!("recording the failed audit check: {e}");
    }
}

/// A checkpoint of the audit trail's head when due (`audit_seal::EVERY_SECS`); a failure
/// is logged (the next pass tries again).
fn seal_pass(state: &AppState, reason: &str, force: bool) {
    let now = state.clock.now();
    let r = state
        .db
        .conn()
        .map_err(|e| e.to_string())
        .and_then(|mut c| state.seal.tick(&mut c, now, reason, force));
    if let Err(e) = r {
        log::warn!("audit checkpoint: {e}");
    }
}
