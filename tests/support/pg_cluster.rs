//! A throwaway PostgreSQL cluster of a test's or a benchmark's own, on 127.0.0.1: initialised
//! in a temporary directory, started on a free port, stopped, restarted (as a failover would)
//! and removed when dropped. Used where a test must stop or restart the server under load
//! (the shared cluster of `tests/run.sh` serves other tests at the same time) and by the
//! benchmarks that compare the backends.
//!
//! The server binaries come from `CARDROOM_TEST_PG_BIN` (set by `tests/run.sh`) or the newest
//! `/usr/lib/postgresql/*/bin`. As root, `initdb` and `postgres` run as the `postgres` user.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

pub struct PgCluster {
    bin: PathBuf,
    dir: PathBuf,
    port: u16,
    settings: Vec<(String, String)>,
    running: bool,
}

/// The directory of `pg_ctl` and `initdb`, if PostgreSQL's server is installed.
pub fn find_bin() -> Option<PathBuf> {
    if let Ok(b) = std::env::var("CARDROOM_TEST_PG_BIN") {
        let p = PathBuf::from(b);
        if p.join("pg_ctl").is_file() {
            return Some(p);
        }
    }
    let mut found: Vec<(Vec<u32>, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let bin = e.path().join("bin");
            let version = e
                .file_name()
                .to_string_lossy()
                .split('.')
                .map(|n| n.parse().unwrap_or(0))
                .collect();
            (bin.join("pg_ctl").is_file() && bin.join("initdb").is_file()).then_some((version, bin))
        })
        .collect();
    found.sort();
    found.pop().map(|(_, b)| b).or_else(|| {
        let out = Command::new("sh")
            .args(["-c", "command -v pg_ctl"])
            .output()
            .ok()?;
        let p = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
        p.parent()
            .filter(|d| d.join("initdb").is_file())
            .map(Path::to_path_buf)
    })
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

fn free_port() -> u16 {
    let l =
        std::net::TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0 to find a free port");
    l.local_addr().expect("local_addr").port()
}

fn check(what: &str, out: std::io::Result<Output>) -> Result<(), String> {
    match out {
        Ok(o) if o.status.success() => Ok(()),
        Ok(o) => Err(format!(
            "{what}: {}\n{}{}",
            o.status,
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        )),
        Err(e) => Err(format!("{what}: {e}")),
    }
}

impl PgCluster {
    /// Initialises and starts a cluster. `settings` are `postgres -c` options (e.g.
    /// `("fsync", "off")`); `max_connections` is 300 unless given.
    pub fn start(settings: &[(&str, &str)]) -> Result<PgCluster, String> {
        let bin =
            find_bin().ok_or("PostgreSQL's server is not installed (Debian package postgresql)")?;
        let dir = std::env::temp_dir().join(format!(
            "cardroom-pgc-{}-{}",
            std::process::id(),
            free_port()
        ));
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let mut me = PgCluster {
            bin,
            dir,
            port: 0,
            settings: settings
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            running: false,
        };
        if !me.settings.iter().any(|(k, _)| k == "max_connections") {
            me.settings.push(("max_connections".into(), "300".into()));
        }
        if is_root() {
            let _ = Command::new("sh")
                .args(["-c", "id postgres >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin postgres"])
                .status();
            check(
                "chown",
                Command::new("chown").arg("postgres:").arg(&me.dir).output(),
            )?;
        }
        check(
            "initdb",
            me.as_pg(&[
                "initdb",
                "-D",
                "data",
                "-A",
                "trust",
                "-U",
                "postgres",
                "--no-sync",
                "-E",
                "UTF8",
                "--locale=C",
            ]),
        )?;
        let mut last = String::new();
        for _ in 0..10 {
            me.port = free_port();
            match me.pg_ctl_start() {
                Ok(()) => return Ok(me),
                Err(e) => last = e,
            }
        }
        Err(format!("could not start PostgreSQL: {last}"))
    }

    fn as_pg(&self, args: &[&str]) -> std::io::Result<Output> {
        let prog = self.bin.join(args[0]);
        let mut cmd = if is_root() {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(prog);
            c
        } else {
            Command::new(prog)
        };
        cmd.args(&args[1..]).current_dir(&self.dir).output()
    }

    fn pg_ctl_start(&mut self) -> Result<(), String> {
        let mut opts = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1",
            self.port,
            self.dir.display()
        );
        for (k, v) in &self.settings {
            opts.push_str(&format!(" -c {k}={v}"));
        }
        let r = check(
            "pg_ctl start",
            self.as_pg(&[
                "pg_ctl",
                "-w",
                "-t",
                "60",
                "-D",
                "data",
                "-l",
                "postgres.log",
                "-o",
                &opts,
                "start",
            ]),
        );
        if r.is_ok() {
            self.running = true;
        } else {
            let _ = self.as_pg(&["pg_ctl", "-D", "data", "-m", "immediate", "stop"]);
        }
        r.map_err(|e| format!("{e}\n{}", self.log_tail()))
    }

    /// `postgres://postgres@127.0.0.1:PORT/postgres`.
    pub fn url(&self) -> String {
        self.url_of("postgres")
    }

    pub fn url_of(&self, database: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{database}", self.port)
    }

    /// The same database through the cluster's Unix socket (in its directory) instead of
    /// TCP on 127.0.0.1: what a server on the same machine would use.
    #[allow(dead_code)]
    pub fn socket_url_of(&self, database: &str) -> String {
        format!(
            "postgres://postgres@/{database}?host={}&port={}",
            self.dir.display(),
            self.port
        )
    }

    /// Creates a database and returns its URL.
    pub fn create_database(&self, name: &str) -> Result<String, String> {
        use diesel::{Connection, RunQueryDsl};
        let mut c = diesel::PgConnection::establish(&self.url()).map_err(|e| e.to_string())?;
        diesel::sql_query(format!("CREATE DATABASE {name}"))
            .execute(&mut c)
            .map_err(|e| e.to_string())?;
        Ok(self.url_of(name))
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// Stops the server: `fast` (clients are disconnected, open transactions rolled back) or
    /// `immediate` (as a crash: recovery at the next start).
    pub fn stop(&mut self, mode: &str) -> Result<(), String> {
        let r = check(
            "pg_ctl stop",
            self.as_pg(&["pg_ctl", "-w", "-t", "60", "-D", "data", "-m", mode, "stop"]),
        );
        self.running = false;
        r
    }

    /// Starts it again on the same port, with the same settings.
    pub fn start_again(&mut self) -> Result<(), String> {
        self.pg_ctl_start()
    }

    /// `pg_ctl restart -m MODE`, as a failover-style restart does.
    pub fn restart(&mut self, mode: &str) -> Result<(), String> {
        self.stop(mode)?;
        self.start_again()
    }

    /// The server's own log (last lines), for failure messages.
    pub fn log_tail(&self) -> String {
        let log = std::fs::read_to_string(self.dir.join("postgres.log")).unwrap_or_default();
        let lines: Vec<&str> = log.lines().collect();
        lines[lines.len().saturating_sub(30)..].join("\n")
    }

    /// Waits until the server accepts connections again (after `start_again`).
    pub fn wait_ready(&self, within: Duration) -> bool {
        use diesel::Connection;
        let until = std::time::Instant::now() + within;
        while std::time::Instant::now() < until {
            if diesel::PgConnection::establish(&self.url()).is_ok() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        false
    }
}

impl Drop for PgCluster {
    fn drop(&mut self) {
        if self.running {
            let _ = self.as_pg(&["pg_ctl", "-D", "data", "-m", "immediate", "-w", "stop"]);
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
