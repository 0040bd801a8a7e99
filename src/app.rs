//! Start-up: configuration → database (migrations) → first-start bootstrap → state.

use crate::config::Config;
use crate::db::{get_setting, init_setting, Db};
use crate::domain::clock::{Clock, OffsetClock, SystemClock};
use crate::error::AppError;
use crate::i18n::I18n;
use crate::services;
use crate::state::{AppState, Keys};
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
    let db = Db::open_with(&config.database_url, config.pool_size, config.sqlite_synchronous())?;
    db.migrate()?;
    let clock: Arc<dyn Clock> = if config.test_clock {
        log::warn!("CARDROOM_TEST_CLOCK is on: an admin can move this server's clock forward. Never use this in a real room.");
        Arc::new(OffsetClock::default())
    } else {
        Arc::new(SystemClock)
    };
    let now = clock.now();
    let mut conn = db.conn().map_err(|e| StartError::Setup(e.to_string()))?;
    let secret = db.write(&mut conn, |c| -> Result<String, AppError> {
        services::room::ensure(c, now)?;
        match services::staff::bootstrap_admin(c, now, config.admin_password.as_deref())? {
            services::staff::Bootstrap::CreatedWithPassword(pw) => {
                println!("\n  First start: created the account `admin` with the one-time password:\n\n      {pw}\n\n  Sign in and change it under your name (top right).\n");
            }
            services::staff::Bootstrap::CreatedFromConfig => log::info!("created the admin account from CARDROOM_ADMIN_PASSWORD"),
            services::staff::Bootstrap::AlreadyHasStaff => {}
        }
        Ok(match &config.secret {
            Some(s) => s.clone(),
            None => match get_setting(c, "secret")? {
                Some(s) => s,
                None => init_setting(c, "secret", &crate::auth::random_token(48))?,
            },
        })
    })?;
    drop(conn);
    let changes = Arc::new(tokio::sync::watch::channel(0).0);
    Ok(AppState {
        push: crate::push::Hub::new(db.clone(), changes.clone(), &config.database_url),
        changes,
        keys: Keys::from_secret(secret.as_bytes()),
        config: Arc::new(config),
        db,
        clock,
        i18n: Arc::new(I18n::default()),
        player_pages: Arc::default(),
    })
}

/// One pass of the timers (expired seat calls, lapsed call-ins, suspended tables), through
/// the same service path as a user action. Returns how many things it acted on.
pub fn run_timers(state: &AppState) -> Result<usize, AppError> {
    let now = state.clock.now();
    let acted = state.db.write_new(move |c| -> Result<usize, AppError> {
        let room = services::room::get(c)?;
        services::floor::tick(c, now, room.tz, &room.profile)
    })?;
    if acted > 0 {
        state.changed();
    }
    Ok(acted)
}

/// The background jobs of a server process: the scheduler, which asks the database what is
/// due every second (deadlines are stored columns, so nothing is lost across a restart: a
/// deadline passed while the server was down is acted on at the first pass), and the
/// message delivery worker (`notify::worker`, which reads the outbox the same way).
pub fn spawn_scheduler(state: AppState) -> std::thread::JoinHandle<()> {
    if let Err(e) = crate::notify::worker::spawn(state.clone()) {
        // The settings were validated at start: only a thread that cannot start gets here.
        log::error!("messages to players will not be sent: {e}");
    }
    std::thread::Builder::new()
        .name("scheduler".into())
        .spawn(move || loop {
            if let Err(e) = run_timers(&state) {
                log::error!("scheduler pass failed: {e}");
            }
            std::thread::sleep(std::time::Duration::from_secs(1));
        })
        .expect("start the scheduler thread")
}
