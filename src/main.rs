//! `cardroom`: serve the back-office, or run a maintenance command.

use actix_web::{App, HttpServer};
use cardroom::config::Config;
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "cardroom",
    version,
    about = "Back-office for live poker cash-game rooms"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Load the demo room (games, tables, staff, players) into an empty database.
    #[arg(long, global = true)]
    demo: bool,
}

#[derive(Subcommand)]
enum Command {
    /// Run the web server (the default).
    Serve,
    /// Verify the audit trail's hash chain and report the first broken link.
    VerifyAudit,
    /// Apply pending database migrations and exit.
    Migrate,
    /// Copy the SQLite database while the server runs, check the copy (integrity, audit
    /// chain) and only then keep it. Exit 0 with the file's name, non-zero otherwise.
    Backup {
        /// The backup file (must not exist); default: cardroom-YYYYMMDD-HHMMSS.mmm.db in --dir.
        #[arg(long)]
        to: Option<std::path::PathBuf>,
        /// Directory for the default name (default: the current directory).
        #[arg(long)]
        dir: Option<std::path::PathBuf>,
    },
    /// Print the settings file with every key, commented (`--example`), and exit.
    Config {
        /// Print the commented example `cardroom.toml`.
        #[arg(long)]
        example: bool,
    },
    /// Replace the SQLite database with a checked backup (the server must be stopped; the
    /// replaced database is kept beside it).
    Restore {
        /// A file made by `cardroom backup`.
        file: std::path::PathBuf,
    },
}

fn main() -> std::process::ExitCode {
    if let Err(e) = init_logging() {
        eprintln!("cardroom: {e}");
        return std::process::ExitCode::from(2);
    }
    let cli = Cli::parse();
    if let Some(Command::Config { example }) = &cli.command {
        return config_command(*example);
    }
    let config = match Config::load() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("cardroom: {e}");
            return std::process::ExitCode::from(2);
        }
    };
    match cli.command.unwrap_or(Command::Serve) {
        Command::Migrate => migrate(&config),
        Command::VerifyAudit => verify_audit(config),
        Command::Backup { to, dir } => backup(&config, to, dir),
        Command::Restore { file } => restore(&config, &file),
        Command::Serve => serve(config, cli.demo),
        Command::Config { .. } => std::process::ExitCode::SUCCESS,
    }
}

/// `cardroom config`: print the commented example, or say whether the settings load.
fn config_command(example: bool) -> std::process::ExitCode {
    if example {
        print!("{}", cardroom::config::EXAMPLE);
        return std::process::ExitCode::SUCCESS;
    }
    match Config::load() {
        Ok(_) => {
            println!("the settings are valid");
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("cardroom: {e}");
            std::process::ExitCode::from(2)
        }
    }
}

/// `cardroom migrate`.
fn migrate(config: &Config) -> std::process::ExitCode {
    match cardroom::db::Db::open(&config.database.url, 1).and_then(|db| db.migrate()) {
        Ok(n) => {
            println!("applied {n} migration(s)");
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("cardroom: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// `cardroom verify-audit`: exit 0 when the trail is intact, 3 when it is broken.
fn verify_audit(config: Config) -> std::process::ExitCode {
    let state = match cardroom::app::build_state(config) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("cardroom: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let report = audit_report(&state);
    if let Ok(v) = &report {
        print_checkpoint_series(v);
    }
    match report {
        Ok(v) if v.ok() => {
            println!(
                "audit trail intact: {} records verified; {} signed checkpoints match (records up to {} vouched for)",
                v.chain.records,
                v.seal.checkpoints,
                v.seal.sealed_up_to.unwrap_or(0)
            );
            std::process::ExitCode::SUCCESS
        }
        Ok(v) => {
            println!(
                "audit trail BROKEN: {} ({} records verified before it)",
                why_broken(&v),
                v.chain.records
            );
            std::process::ExitCode::from(3)
        }
        Err(e) => {
            eprintln!("cardroom: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// The chain and the checkpoints checked.
fn audit_report(
    state: &cardroom::web::state::AppState,
) -> Result<cardroom::services::audit::Verification, String> {
    let report = state
        .db
        .conn()
        .map_err(|e| e.to_string())
        .and_then(|mut c| {
            cardroom::services::audit::verify_all(&mut c, &state.seal).map_err(|e| e.to_string())
        });
    // Starting the app began a new series of checkpoints if this host's was missing:
    // a deleted file is reported, not papered over.
    report.map(|mut v| {
        if state.seal.missing_at_start() && v.chain.records > 1 {
            v.seal.problem = Some(cardroom::audit_seal::SealProblem::NoFile);
        }
        v
    })
}

/// The database's identity, then one line per checkpoint file looked at.
fn print_checkpoint_series(v: &cardroom::services::audit::Verification) {
    println!(
        "database {} (this host: {})",
        v.seal.database_id, v.seal.host
    );
    for s in &v.seal.series {
        println!(
            "  checkpoints {} ({}): {} checked, last record {}: {}",
            s.file,
            s.host.as_deref().unwrap_or("no host named"),
            s.checkpoints,
            s.last_seq.map_or("-".to_string(), |q| q.to_string()),
            match s.result {
                cardroom::audit_seal::SeriesResult::NotThisDatabase => {
                    "not this database's (left as it is)".to_string()
                }
                ref r => r.code().to_string(),
            }
        );
    }
}

/// The first problem found, in words.
fn why_broken(v: &cardroom::services::audit::Verification) -> String {
    let at = v.broken_at().unwrap_or_default();
    match v.problem() {
        Some("tampered") => format!("record {at}'s content does not match its hash"),
        Some("unlinked") => format!("record {at} does not link to the previous record"),
        Some("gap") => format!("records are missing before record {at}"),
        Some("truncated") => format!("record {at}, vouched for by a signed checkpoint, is gone: the trail was cut short or records deleted"),
        Some("rewritten") => format!("record {at}, vouched for by a signed checkpoint, has changed: records were rewritten and the chain recomputed"),
        Some("checkpoint_forged") => format!("line {at} of the checkpoint file has no valid signature: the file was edited"),
        Some("checkpoints_reordered") => format!("the checkpoint file goes backwards at line {at}: it was cut and rewritten"),
        Some("checkpoints_missing") => "the checkpoint file is missing: nothing outside the database vouches for the records".to_string(),
        _ => "unknown problem".to_string(),
    }
}

/// `cardroom backup`.
fn backup(
    config: &Config,
    to: Option<std::path::PathBuf>,
    dir: Option<std::path::PathBuf>,
) -> std::process::ExitCode {
    let dest = to.unwrap_or_else(|| {
        dir.unwrap_or_default()
            .join(cardroom::backup::default_name(chrono::Utc::now()))
    });
    match cardroom::backup::backup_to(&config.database.url, &dest) {
        Ok(c) => {
            println!(
                "backup written and checked: {} ({} bytes; integrity ok; audit chain intact, {} records; {} players)",
                c.path.display(),
                c.bytes,
                c.audit_records,
                c.players
            );
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("cardroom backup: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// `cardroom restore`.
fn restore(config: &Config, file: &std::path::Path) -> std::process::ExitCode {
    match cardroom::backup::restore(&config.database.url, file, chrono::Utc::now()) {
        Ok((c, kept)) => {
            println!(
                "restored {} into {} (audit chain intact, {} records; {} players)",
                file.display(),
                config.database.url,
                c.audit_records,
                c.players
            );
            if let Some(k) = kept {
                println!("the database it replaced is kept as {}", k.display());
            }
            retire_old_checkpoints(config);
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("cardroom restore: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// The old checkpoints speak of records the restored copy never had: set aside (kept as
/// evidence); the next start begins a new series, recorded in the trail.
/// (The restored copy's identity: its series are the ones that go. A copy older than the
/// identity gets a new one at the next start, and a new series with it.)
fn retire_old_checkpoints(config: &Config) {
    let id = cardroom::db::Db::open(&config.database.url, 1)
        .ok()
        .and_then(|db| db.conn().ok())
        .and_then(|mut c| cardroom::audit_seal::database_id(&mut c).ok())
        .flatten();
    let retired = id.map_or(Ok(Vec::new()), |id| {
        cardroom::audit_seal::Seal::retire(&config.audit.dir, &id, chrono::Utc::now())
    });
    match retired {
        Ok(old) => {
            for o in old {
                println!(
                    "the audit checkpoints of the replaced database are kept as {}",
                    o.display()
                );
            }
        }
        Err(e) => {
            eprintln!("cardroom restore: could not set the old audit checkpoints aside: {e}")
        }
    }
}

fn serve(config: Config, demo: bool) -> std::process::ExitCode {
    // SQLite: one server per database file, and `cardroom restore` waits for it to stop.
    let _lock = if cardroom::db::Backend::of_url(&config.database.url)
        == cardroom::db::Backend::Sqlite
    {
        match cardroom::backup::ServeLock::acquire(std::path::Path::new(cardroom::db::sqlite_path(
            &config.database.url,
        ))) {
            Ok(l) => Some(l),
            Err(e) => {
                eprintln!("cardroom: another cardroom server is running on this database ({e})");
                return std::process::ExitCode::FAILURE;
            }
        }
    } else {
        None
    };
    let bind = config.server.bind;
    let workers = config.server.workers;
    let state = match cardroom::app::build_state(config) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("cardroom: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    if demo {
        match cardroom::demo::load(&state) {
            Ok(true) => println!("{}", cardroom::demo::BANNER),
            Ok(false) => {
                log::info!("--demo: the database already has games; demo room not loaded again")
            }
            Err(e) => {
                eprintln!("cardroom: loading the demo room failed: {e}");
                return std::process::ExitCode::FAILURE;
            }
        }
    }
    let background = cardroom::app::spawn_scheduler(state.clone());
    let shutdown = state.shutdown.clone();
    let db = state.db.clone();
    let sys = actix_web::rt::System::new();
    let result = sys.block_on(async move {
        let mut server = HttpServer::new(move || {
            App::new().configure(cardroom::web::configure(state.clone()))
        })
        // Signals are ours (below): the streams must end before the server waits for its
        // connections, or one open stream holds the stop for the whole timeout.
        .disable_signals()
        .shutdown_timeout(STOP_GRACE.as_secs());
        if let Some(w) = workers {
            server = server.workers(w);
        }
        let server = server.bind(&bind)?.run();
        println!("cardroom listening on http://{bind}");
        let handle = server.handle();
        actix_web::rt::spawn(async move {
            let why = stop_signal().await;
            log::info!("{why}: stopping (streams end, requests in progress finish, background passes finish)");
            shutdown.begin();
            handle.stop(true).await;
        });
        server.await
    });
    // The scheduler and the message worker finish the pass they are in.
    let deadline = std::time::Instant::now() + STOP_GRACE;
    for t in background {
        while !t.is_finished() && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        if t.is_finished() {
            let _ = t.join();
        } else {
            log::warn!("a background thread did not finish its pass in time; stopping anyway");
        }
    }
    if let Err(e) = db.checkpoint() {
        log::warn!("final checkpoint: {e}");
    }
    match result {
        Ok(()) => {
            log::info!("stopped");
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("cardroom: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// How long a stop waits for requests in progress and background passes (SIGTERM to exit
/// stays within an orchestrator's usual grace period).
const STOP_GRACE: std::time::Duration = std::time::Duration::from_secs(4);

/// SIGTERM (service manager, orchestrator) or SIGINT (Ctrl-C).
async fn stop_signal() -> &'static str {
    use tokio::signal::unix::{signal, SignalKind};
    let mut term = match signal(SignalKind::terminate()) {
        Ok(s) => s,
        Err(e) => {
            log::warn!("cannot watch SIGTERM ({e}); Ctrl-C only");
            let _ = tokio::signal::ctrl_c().await;
            return "SIGINT";
        }
    };
    tokio::select! {
        _ = term.recv() => "SIGTERM",
        _ = tokio::signal::ctrl_c() => "SIGINT",
    }
}

/// Logs: `RUST_LOG` filters (default `info`); `CARDROOM_LOG_FORMAT` = `text` (default, for a
/// terminal or journald) or `json` (one object per line, for log shippers). Lines written
/// while a request is handled carry its id (see `web::request_id`); the `log` lines of the
/// libraries are taken in too.
fn init_logging() -> Result<(), String> {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let format = std::env::var("CARDROOM_LOG_FORMAT").unwrap_or_else(|_| "text".into());
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    let r = match format.as_str() {
        "text" => builder.try_init(),
        "json" => builder
            .json()
            .with_current_span(true)
            .with_span_list(false)
            .try_init(),
        other => {
            return Err(format!(
                "CARDROOM_LOG_FORMAT must be `text` or `json`, not `{other}`"
            ))
        }
    };
    r.map_err(|e| format!("logging: {e}"))
}
