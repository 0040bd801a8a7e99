//! The one way tests and benchmarks get the app: `TestApp::builder()`, then the settings
//! that differ, then a terminal that says how the app runs.
//!
//! ```ignore
//! let app = TestApp::builder()
//!     .backend(Backend::Sqlite)           // default: Backend::FromEnv
//!     .clock(ClockKind::Test)             // default: ClockKind::System
//!     .tune(|c: &mut Settings| c.room.player_link_rate = 5)
//!     .notify_sink()                      // messages to a file of the app's own
//!     .start()                            // in-process actix service (HTTP tests)
//!     .await;
//! ```
//!
//! * the database ([`Backend`]): a temporary SQLite file, or with `CARDROOM_TEST_DB=postgres`
//!   a new database on the PostgreSQL server `CARDROOM_TEST_PG` names (dropped after a passed
//!   test); [`TestAppBuilder::db`] takes one made beforehand, [`TestAppBuilder::like`] opens
//!   a running app's database again with its settings (a second process, a restart);
//! * the settings: [`config`] (an admin password, a secret, a small pool, an audit directory
//!   of its own), then the clock, then each [`TestAppBuilder::tune`] in order; tuned
//!   settings are validated as the server's start validates them;
//! * the terminals: [`TestAppBuilder::start`] (the HTTP tests: an in-process test service),
//!   [`TestAppBuilder::build`] (the state alone; [`BuiltApp::serve`] or [`BuiltApp::start`]
//!   later, e.g. after a benchmark has seeded its room), [`TestAppBuilder::serve`] (the
//!   real server on a loopback port in this process: the benchmarks) and
//!   [`TestAppBuilder::spawn_binary`] (the real `cardroom` binary as a process: the browser
//!   tests; its settings reach it as `CARDROOM_*` variables).
//!
//! Included with `#[path = ...] mod app;` by `tests/http.rs`, `tests/browser.rs`,
//! `tests/binary.rs` and `benches/common/mod.rs`.

#![allow(dead_code)]

use actix_http::Request;
use actix_web::body::BoxBody;
use actix_web::dev::ServiceResponse;
use actix_web::{test, App};
use cardroom::config::{Config, Settings};
use cardroom::web::state::AppState;
use diesel::prelude::*;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub const ADMIN_PW: &str = "admin-test-password";
pub const STAFF_PW: &str = "staff-test-password";
/// 40 characters: the server wants at least 32.
pub const SECRET: &str = "test-secret-test-secret-test-secret-0123";

// ---- the database ---------------------------------------------------------------------

/// Which database the app runs on.
#[derive(Clone, Debug, Default)]
pub enum Backend {
    /// PostgreSQL with `CARDROOM_TEST_DB=postgres`, else SQLite.
    #[default]
    FromEnv,
    /// A temporary SQLite file (for [`TestAppBuilder::spawn_binary`]: `browser.db` in the
    /// directory it is given, where the test may open it too).
    Sqlite,
    /// A new database on the server `CARDROOM_TEST_PG` names.
    Postgres,
    /// A database of the caller's, kept as it is after the test (a cluster the test stops
    /// and starts itself, a benchmark's file).
    Url(String),
}

/// Which clock the app reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ClockKind {
    #[default]
    System,
    /// `CARDROOM_TEST_CLOCK`: an admin may move it forward (`POST /api/v1/test/clock/advance`).
    Test,
}

/// The audit trail's directory: a temporary one of the database's own, or another's.
pub struct AuditDir {
    path: PathBuf,
    _owned: Option<tempfile::TempDir>,
}

impl AuditDir {
    fn fresh() -> AuditDir {
        let dir = tempfile::tempdir().expect("temp dir");
        AuditDir {
            path: dir.path().to_path_buf(),
            _owned: Some(dir),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

pub struct TestDb {
    pub url: String,
    _dir: Option<tempfile::TempDir>,
    /// On PostgreSQL: the server's URL and this test's database, dropped with the `TestDb`
    /// (the suite makes ~290 of them on one cluster; kept, they filled a CI machine's disk).
    pg_database: Option<(String, String)>,
    /// The audit trail's key and signed checkpoints (each test its own, on both backends).
    pub audit: AuditDir,
}

pub fn is_postgres() -> bool {
    std::env::var("CARDROOM_TEST_DB")
        .map(|v| v == "postgres")
        .unwrap_or(false)
}

/// A fresh, empty database for one test, on the backend `CARDROOM_TEST_DB` names.
pub fn fresh_db() -> TestDb {
    TestDb::new(&Backend::FromEnv, None)
}

impl TestDb {
    /// The database `backend` says; a SQLite file goes in `sqlite_dir` when given (kept
    /// by the caller), else in a temporary directory.
    fn new(backend: &Backend, sqlite_dir: Option<&Path>) -> TestDb {
        match backend {
            Backend::FromEnv if is_postgres() => TestDb::new(&Backend::Postgres, sqlite_dir),
            Backend::FromEnv | Backend::Sqlite => {
                let (url, dir) = match sqlite_dir {
                    Some(d) => (format!("sqlite://{}", d.join("browser.db").display()), None),
                    None => {
                        let dir = tempfile::tempdir().expect("temp dir");
                        let url = format!("sqlite://{}", dir.path().join("test.db").display());
                        (url, Some(dir))
                    }
                };
                TestDb {
                    url,
                    _dir: dir,
                    pg_database: None,
                    audit: AuditDir::fresh(),
                }
            }
            Backend::Postgres => {
                let base = std::env::var("CARDROOM_TEST_PG")
                    .expect("CARDROOM_TEST_PG must name the test PostgreSQL server");
                let name = format!("cardroom_t_{}", rand_suffix());
                let mut admin = diesel::PgConnection::establish(&base)
                    .expect("connect to the test PostgreSQL server");
                diesel::sql_query(format!("CREATE DATABASE {name}"))
                    .execute(&mut admin)
                    .expect("create test database");
                let url = match base.rfind('/') {
                    Some(i) => format!("{}/{}", &base[..i], name),
                    None => panic!("CARDROOM_TEST_PG must end with /database"),
                };
                TestDb {
                    url,
                    _dir: None,
                    pg_database: Some((base, name)),
                    audit: AuditDir::fresh(),
                }
            }
            Backend::Url(url) => TestDb {
                url: url.clone(),
                _dir: None,
                pg_database: None,
                audit: AuditDir::fresh(),
            },
        }
    }

    /// Another handle on a database and audit directory someone else owns.
    fn shared(url: &str, audit: &Path) -> TestDb {
        TestDb {
            url: url.to_string(),
            _dir: None,
            pg_database: None,
            audit: AuditDir {
                path: audit.to_path_buf(),
                _owned: None,
            },
        }
    }
}

impl Drop for TestDb {
    /// A passed test's PostgreSQL database is dropped (`WITH (FORCE)`: the app's pool, its
    /// scheduler and its `LISTEN` connection may still be connected). A failed test's is kept
    /// for a look at what it left.
    fn drop(&mut self) {
        let Some((base, name)) = self.pg_database.take() else {
            return;
        };
        if std::thread::panicking() {
            eprintln!("test database kept for inspection: {}", self.url);
            return;
        }
        let dropped = diesel::PgConnection::establish(&base).and_then(|mut admin| {
            diesel::sql_query(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
                .execute(&mut admin)
                .map_err(diesel::ConnectionError::CouldntSetupConfiguration)
        });
        if let Err(e) = dropped {
            eprintln!("could not drop test database {name}: {e}");
        }
    }
}

fn rand_suffix() -> String {
    use std::time::{SystemTime, UNIX_EPOCH};
    let n = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!("{:x}{:x}", n, std::process::id())
}

/// The settings every test app starts from.
pub fn config(db: &TestDb, test_clock: bool) -> Settings {
    let mut c = Settings::default();
    c.database.url = db.url.clone();
    c.security.admin_password = Some(ADMIN_PW.into());
    c.security.secret = Some(SECRET.into());
    c.server.test_clock = test_clock;
    c.database.pool_size = 4;
    c.audit.dir = Some(db.audit.path().display().to_string());
    c
}

// ---- the builder ------------------------------------------------------------------------

type Svc = actix_service::boxed::BoxService<Request, ServiceResponse<BoxBody>, actix_web::Error>;

/// The real app (same `configure` as the server) as an in-process test service.
pub struct TestApp {
    pub state: AppState,
    pub(crate) svc: Svc,
    /// The settings it started with (the server reads `state.config`, made from them).
    pub settings: Settings,
    _sink: Option<tempfile::TempDir>,
    /// Last, so that the app is dropped before its database is.
    pub db: TestDb,
}

enum DbSource {
    Choose(Backend),
    Given(TestDb),
    Shared { url: String, audit: PathBuf },
}

/// See the module's documentation.
#[must_use]
pub struct TestAppBuilder<'a> {
    db: DbSource,
    /// Unset: [`ClockKind::System`], or a running app's clock (see [`Self::like`]).
    clock: Option<ClockKind>,
    /// The settings of a running app, instead of [`config`] (see [`Self::like`]).
    settings: Option<Settings>,
    tunes: Vec<Box<dyn FnOnce(&mut Settings) + 'a>>,
    notify_sink: bool,
}

impl TestApp {
    pub fn builder<'a>() -> TestAppBuilder<'a> {
        TestAppBuilder {
            db: DbSource::Choose(Backend::FromEnv),
            clock: None,
            settings: None,
            tunes: Vec::new(),
            notify_sink: false,
        }
    }

    pub async fn new() -> TestApp {
        TestApp::builder().start().await
    }

    pub async fn with_clock(test_clock: bool) -> TestApp {
        TestApp::builder().test_clock(test_clock).start().await
    }

    /// The app with some settings changed (on a fresh database).
    pub async fn tuned(tune: impl FnOnce(&mut Settings)) -> TestApp {
        TestApp::builder().tune(tune).start().await
    }

    /// The app on a database of the caller's (e.g. on a PostgreSQL cluster the test stops
    /// and restarts itself).
    pub async fn on_url(url: &str, test_clock: bool) -> TestApp {
        TestApp::builder()
            .backend(Backend::Url(url.to_string()))
            .test_clock(test_clock)
            .start()
            .await
    }

    /// The server stops and starts again on the same database, with the same settings
    /// (nothing kept in memory).
    pub async fn restart(self) -> TestApp {
        let TestApp {
            state,
            svc,
            settings,
            _sink,
            db,
        } = self;
        drop(svc);
        drop(state);
        let mut b = TestApp::builder().db(db);
        b.settings = Some(settings);
        let mut app = b.start().await;
        app._sink = _sink;
        app
    }
}

impl<'a> TestAppBuilder<'a> {
    pub fn backend(mut self, backend: Backend) -> Self {
        self.db = DbSource::Choose(backend);
        self
    }

    /// On a database made beforehand (e.g. with [`fresh_db`], written to before the app's
    /// first start); the app owns it from then on.
    pub fn db(mut self, db: TestDb) -> Self {
        self.db = DbSource::Given(db);
        self
    }

    /// Another process of `other`: the same database and audit directory, the same settings
    /// (then the tunes given here); `other` keeps owning the database.
    pub fn like(mut self, other: &TestApp) -> Self {
        self.db = DbSource::Shared {
            url: other.db.url.clone(),
            audit: other.db.audit.path().to_path_buf(),
        };
        self.settings = Some(other.settings.clone());
        self
    }

    pub fn clock(mut self, clock: ClockKind) -> Self {
        self.clock = Some(clock);
        self
    }

    /// [`ClockKind::Test`] when `on`, else [`ClockKind::System`].
    pub fn test_clock(self, on: bool) -> Self {
        self.clock(if on {
            ClockKind::Test
        } else {
            ClockKind::System
        })
    }

    /// Changes settings (applied in order, after the clock; validated at the start).
    pub fn tune(mut self, tune: impl FnOnce(&mut Settings) + 'a) -> Self {
        self.tunes.push(Box::new(tune));
        self
    }

    /// Messages go to the local sink, a file in a temporary directory of the app's own
    /// (`Config::sink_path`).
    pub fn notify_sink(mut self) -> Self {
        self.notify_sink = true;
        self
    }

    /// The database and the settings: the one place where both are chosen.
    fn prepare(
        self,
        sqlite_dir: Option<&Path>,
    ) -> (Settings, Config, TestDb, Option<tempfile::TempDir>) {
        let db = match self.db {
            DbSource::Choose(backend) => TestDb::new(&backend, sqlite_dir),
            DbSource::Given(db) => db,
            DbSource::Shared { url, audit } => TestDb::shared(&url, &audit),
        };
        let mut c = self.settings.unwrap_or_else(|| config(&db, false));
        if let Some(clock) = self.clock {
            c.server.test_clock = clock == ClockKind::Test;
        }
        let sink = self.notify_sink.then(|| {
            let sink = tempfile::tempdir().expect("temp dir");
            c.notify.sink = Some(sink.path().join("messages.log").display().to_string());
            sink
        });
        for tune in self.tunes {
            tune(&mut c);
        }
        let config = c.validate().expect("valid settings");
        (c, config, db, sink)
    }

    /// The app's state on its database, not yet answering requests.
    pub fn build(self) -> BuiltApp {
        let (settings, config, db, sink) = self.prepare(None);
        let state = cardroom::app::build_state(config).expect("app state");
        BuiltApp {
            state,
            settings,
            db,
            sink,
        }
    }

    /// The app as an in-process test service (what the HTTP tests call).
    pub async fn start(self) -> TestApp {
        self.build().start().await
    }

    /// The real server on a loopback port of this process (see [`BuiltApp::serve`]).
    pub fn serve(self) -> ServedApp {
        self.build().serve()
    }

    /// The real `cardroom` binary (`bin`), running `serve` with `args` (e.g. `--demo`)
    /// in the repository's root, with `dir` for its files (a SQLite database is
    /// `dir/browser.db`). Its settings are the builder's, given as `CARDROOM_*` variables
    /// (those that differ from the server's defaults), with 2 HTTP workers unless tuned;
    /// nothing else from the environment of the test run reaches it. Returns once
    /// `GET /healthz` answers 200 (up to 30 s). A port taken between choosing and binding
    /// it makes the server exit early: then another port is tried (three attempts).
    pub fn spawn_binary(self, bin: &str, dir: &Path, args: &[&str]) -> Server {
        let (mut config, _, db, sink) = self.prepare(Some(dir));
        if config.server.workers.is_none() {
            config.server.workers = Some(2);
        }
        let mut last_problem = String::new();
        for attempt in 1..=3 {
            let port = free_port();
            let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
            config.server.bind = addr.to_string();
            let mut cmd = Command::new(bin);
            cmd.arg("serve")
                .args(args)
                // The repository root, where the server finds `static/`.
                .current_dir(env!("CARGO_MANIFEST_DIR"))
                .stdin(Stdio::null());
            // Nothing from the environment of the test run (CARDROOM_TEST_*, a developer's
            // settings) reaches the server; only what is set here.
            for (k, _) in std::env::vars_os() {
                if k.to_string_lossy().starts_with("CARDROOM_") {
                    cmd.env_remove(&k);
                }
            }
            cmd.envs(settings_as_env(&config))
                // A file that does not exist: a developer's ./cardroom.toml must not apply.
                .env("CARDROOM_CONFIG", dir.join("no-such-config.toml"))
                .env("RUST_LOG", "warn");
            let mut guard = ChildGuard::spawn("cardroom serve", cmd);
            let deadline = Instant::now() + Duration::from_secs(30);
            loop {
                if http_status(addr, "/healthz") == Some(200) {
                    return Server {
                        base: format!("http://{addr}"),
                        addr,
                        _guard: guard,
                        _sink: sink,
                        db,
                    };
                }
                if let Some(status) = guard.exited() {
                    last_problem = format!("attempt {attempt}: `cardroom serve` on {addr} exited early: {status} (its stderr is above)");
                    eprintln!("{last_problem}");
                    break;
                }
                if Instant::now() >= deadline {
                    panic!(
                        "`cardroom serve` on {addr} did not answer GET /healthz with 200 within 30 s (last answer: {:?})",
                        http_status(addr, "/healthz")
                    );
                }
                std::thread::sleep(Duration::from_millis(100));
            }
        }
        panic!("could not start the server: {last_problem}");
    }
}

/// The settings that differ from the server's defaults, as the `CARDROOM_*` variables
/// `Config::load` reads (each file key under its variable's name, see `config::SETTINGS`).
fn settings_as_env(c: &Settings) -> Vec<(String, String)> {
    let (ours, defaults) = (
        serde_json::to_value(c).expect("settings as JSON"),
        serde_json::to_value(Settings::default()).expect("settings as JSON"),
    );
    let sections = ours.as_object().expect("settings are a JSON object");
    sections
        .iter()
        .flat_map(|(section, values)| {
            let values = values.as_object().expect("a section is a JSON object");
            values.iter().map(move |(k, v)| (section, k, v))
        })
        .filter(|(section, k, v)| !v.is_null() && defaults[section.as_str()].get(k) != Some(v))
        .map(|(section, k, v)| {
            let value = match v {
                serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            let key = format!("{section}.{k}");
            let var = cardroom::config::env_name(&key).expect("every setting has a variable");
            (var, value)
        })
        .collect()
}

// ---- what the terminals give ----------------------------------------------------------------

/// The app's state on its database, before it serves (see [`TestAppBuilder::build`]).
pub struct BuiltApp {
    pub state: AppState,
    /// The settings `state.config` was made from.
    pub settings: Settings,
    sink: Option<tempfile::TempDir>,
    /// Last, so that the app is dropped before its database is.
    pub db: TestDb,
}

impl BuiltApp {
    /// The in-process test service.
    pub async fn start(self) -> TestApp {
        let BuiltApp {
            state,
            settings,
            sink,
            db,
        } = self;
        let svc =
            test::init_service(App::new().configure(cardroom::web::configure(state.clone()))).await;
        TestApp {
            state,
            svc: actix_service::boxed::service(svc),
            settings,
            _sink: sink,
            db,
        }
    }

    /// The real server (the same `configure` as `cardroom serve`) on 127.0.0.1, on a port
    /// of its own, with `workers` HTTP workers (2 unless tuned), in a thread of its own;
    /// returns once it answers `/healthz` (or after 10 s).
    pub fn serve(self) -> ServedApp {
        use actix_web::HttpServer;
        let BuiltApp {
            state, sink, db, ..
        } = self;
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        let addr = listener.local_addr().expect("local addr");
        let workers = state.config.server.workers.unwrap_or(2);
        let (tx, rx) = std::sync::mpsc::channel();
        let served = state.clone();
        std::thread::Builder::new()
            .name("test-server".into())
            .spawn(move || {
                let sys = actix_web::rt::System::new();
                sys.block_on(async move {
                    let server = HttpServer::new(move || {
                        App::new().configure(cardroom::web::configure(served.clone()))
                    })
                    .workers(workers)
                    .disable_signals()
                    .listen(listener)
                    .expect("listen")
                    .run();
                    tx.send(server.handle()).expect("send handle");
                    server.await
                })
            })
            .expect("server thread");
        let handle = rx.recv().expect("server handle");
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline && http_status(addr, "/healthz") != Some(200) {
            std::thread::sleep(Duration::from_millis(20));
        }
        ServedApp {
            addr,
            handle,
            state,
            _sink: sink,
            db,
        }
    }
}

/// The real server in this process (see [`BuiltApp::serve`]); `handle` stops it.
pub struct ServedApp {
    pub addr: SocketAddr,
    pub handle: actix_web::dev::ServerHandle,
    pub state: AppState,
    _sink: Option<tempfile::TempDir>,
    /// Last, so that the app is dropped before its database is.
    pub db: TestDb,
}

/// The real server binary as a process (see [`TestAppBuilder::spawn_binary`]), killed
/// when dropped.
pub struct Server {
    pub base: String,
    pub addr: SocketAddr,
    _guard: ChildGuard,
    _sink: Option<tempfile::TempDir>,
    /// Last, so that the server is stopped before its database is dropped.
    pub db: TestDb,
}

// ---- processes and ports ------------------------------------------------------------------

/// A port that was free a moment ago (bind to port 0, read it, release it).
pub fn free_port() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0 to find a free port");
    l.local_addr().expect("local_addr").port()
}

/// A child process (in its own process group) that is killed, with everything it started,
/// when the guard is dropped, including when the test panics.
pub struct ChildGuard {
    pub(crate) name: &'static str,
    child: Child,
}

impl ChildGuard {
    /// Spawns `cmd` in a new process group so that dropping the guard also ends grandchildren
    /// (chromedriver's browser processes).
    pub fn spawn(name: &'static str, mut cmd: Command) -> ChildGuard {
        cmd.process_group(0);
        let child = cmd
            .spawn()
            .unwrap_or_else(|e| panic!("could not start {name} ({cmd:?}): {e}"));
        ChildGuard { name, child }
    }

    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// `Some(status)` if the process has already exited.
    pub fn exited(&mut self) -> Option<std::process::ExitStatus> {
        self.child.try_wait().ok().flatten()
    }

    fn signal_group(&self, signal: &str) {
        let _ = Command::new("kill")
            .args([signal, "--", &format!("-{}", self.child.id())])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
}

impl Drop for ChildGuard {
    fn drop(&mut self) {
        if self.exited().is_none() {
            // Polite first (chromedriver then closes its browsers), then certain.
            self.signal_group("-TERM");
            let deadline = Instant::now() + Duration::from_secs(3);
            while Instant::now() < deadline && self.exited().is_none() {
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        // Whatever is left of the group (browser helpers, a stuck process).
        self.signal_group("-KILL");
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A minimal `GET path` over HTTP/1.1 on a raw TCP connection: the answer's head (status
/// line and headers), read until `done` says enough arrived; `None` when nothing answered.
pub fn http_head(addr: SocketAddr, path: &str, done: fn(&[u8]) -> bool) -> Option<String> {
    use std::io::{Read, Write};
    let mut s = TcpStream::connect_timeout(&addr, Duration::from_secs(1)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(3))).ok()?;
    s.set_write_timeout(Some(Duration::from_secs(3))).ok()?;
    let req =
        format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nAccept: */*\r\n\r\n");
    s.write_all(req.as_bytes()).ok()?;
    let mut buf = Vec::new();
    let mut chunk = [0u8; 1024];
    while !done(&buf) && buf.len() < 16384 {
        match s.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(_) => break,
        }
    }
    Some(String::from_utf8_lossy(&buf).into_owned())
}

/// `GET path`'s status code, or `None` when nothing usable answered.
pub fn http_status(addr: SocketAddr, path: &str) -> Option<u16> {
    // The status line is all we need.
    let text = http_head(addr, path, |b| b.windows(2).any(|w| w == b"\r\n"))?;
    let line = text.lines().next()?;
    let mut parts = line.split_whitespace();
    let proto = parts.next()?;
    if !proto.starts_with("HTTP/") {
        return None;
    }
    parts.next()?.parse().ok()
}
