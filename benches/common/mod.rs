//! What the benchmarks share (included with `#[path = "common/mod.rs"] mod common;`): the
//! test-app builder of the tests (`app`: `TestApp::builder()…build()`, then `.serve()` for the
//! real app on a local port), a tiny HTTP/1.1 keep-alive client over std::net, percentiles,
//! PASS/MISS, and the process's memory and CPU from /proc.
#![allow(dead_code)]

#[path = "../../tests/support/app.rs"]
pub mod app;

use chrono::Datelike;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

pub fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

// ---- a tiny HTTP/1.1 keep-alive client over std::net ------------------------------------

pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
    pub fn cookie(&self, name: &str) -> Option<String> {
        self.headers
            .iter()
            .filter(|(k, _)| k.eq_ignore_ascii_case("set-cookie"))
            .filter_map(|(_, v)| v.split(';').next())
            .filter_map(|kv| kv.split_once('='))
            .find(|(k, _)| k.trim() == name)
            .map(|(_, v)| v.trim().to_string())
    }
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or(serde_json::Value::Null)
    }
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

pub struct Client {
    addr: SocketAddr,
    /// The local address to connect from (None: the system's choice).
    from: Option<std::net::IpAddr>,
    conn: Option<(BufReader<TcpStream>, TcpStream)>,
    /// Requests sent again on a fresh connection after the kept-alive one failed.
    pub retries: usize,
    /// Connections opened (1 when keep-alive held all along).
    pub connects: usize,
}

impl Client {
    pub fn new(addr: SocketAddr) -> Client {
        Client {
            addr,
            from: None,
            conn: None,
            retries: 0,
            connects: 0,
        }
    }

    /// A client that connects from its own loopback address (127.0.x.y): the player link's
    /// rate limit counts per client address, and one address for 64 clients sending tens of
    /// thousands of requests a second would empty even the largest bucket the settings allow.
    pub fn from_address(addr: SocketAddr, n: usize) -> Client {
        let mut c = Client::new(addr);
        c.from = Some(std::net::IpAddr::from([
            127,
            0,
            (1 + n / 250) as u8,
            (1 + n % 250) as u8,
        ]));
        c
    }

    pub fn get(&mut self, path: &str, headers: &[(&str, &str)]) -> std::io::Result<Response> {
        self.request("GET", path, headers, None)
    }

    pub fn request(
        &mut self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: Option<(&str, &[u8])>,
    ) -> std::io::Result<Response> {
        // One retry on a fresh connection if a kept-alive one was closed under us.
        match self.try_request(method, path, headers, body) {
            Ok(r) => Ok(r),
            Err(_) => {
                self.conn = None;
                self.retries += 1;
                self.try_request(method, path, headers, body)
            }
        }
    }

    fn try_request(
        &mut self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: Option<(&str, &[u8])>,
    ) -> std::io::Result<Response> {
        if self.conn.is_none() {
            let s = match self.from {
                None => TcpStream::connect(self.addr)?,
                Some(ip) => {
                    use socket2::{Domain, Protocol, SockAddr, Socket, Type};
                    let sock = Socket::new(Domain::IPV4, Type::STREAM, Some(Protocol::TCP))?;
                    sock.bind(&SockAddr::from(SocketAddr::new(ip, 0)))?;
                    sock.connect(&SockAddr::from(self.addr))?;
                    TcpStream::from(sock)
                }
            };
            s.set_nodelay(true)?;
            s.set_read_timeout(Some(Duration::from_secs(60)))?;
            self.conn = Some((BufReader::new(s.try_clone()?), s));
            self.connects += 1;
        }
        let (reader, writer) = self.conn.as_mut().expect("connected");
        let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {}\r\n", self.addr);
        for (k, v) in headers {
            req.push_str(&format!("{k}: {v}\r\n"));
        }
        let payload: &[u8] = match body {
            Some((ctype, b)) => {
                req.push_str(&format!(
                    "Content-Type: {ctype}\r\nContent-Length: {}\r\n\r\n",
                    b.len()
                ));
                b
            }
            None if method == "POST" => {
                req.push_str("Content-Length: 0\r\n\r\n");
                &[]
            }
            None => {
                req.push_str("\r\n");
                &[]
            }
        };
        let mut bytes = req.into_bytes();
        bytes.extend_from_slice(payload);
        writer.write_all(&bytes)?;

        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 {
            return Err(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                "connection closed",
            ));
        }
        let status: u16 = line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| {
                std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!("bad status line {line:?}"),
                )
            })?;
        let mut headers = Vec::new();
        loop {
            line.clear();
            reader.read_line(&mut line)?;
            let l = line.trim_end();
            if l.is_empty() {
                break;
            }
            if let Some((k, v)) = l.split_once(':') {
                headers.push((k.trim().to_string(), v.trim().to_string()));
            }
        }
        let mut resp = Response {
            status,
            headers,
            body: Vec::new(),
        };
        let chunked = resp
            .header("transfer-encoding")
            .is_some_and(|v| v.eq_ignore_ascii_case("chunked"));
        if chunked {
            loop {
                line.clear();
                reader.read_line(&mut line)?;
                let size = usize::from_str_radix(line.trim().split(';').next().unwrap_or("0"), 16)
                    .unwrap_or(0);
                let start = resp.body.len();
                resp.body.resize(start + size + 2, 0);
                reader.read_exact(&mut resp.body[start..])?;
                resp.body.truncate(start + size);
                if size == 0 {
                    break;
                }
            }
        } else if let Some(n) = resp
            .header("content-length")
            .and_then(|v| v.parse::<usize>().ok())
        {
            resp.body.resize(n, 0);
            reader.read_exact(&mut resp.body)?;
        } else if !(status == 204 || status == 304 || (100..200).contains(&status)) {
            reader.read_to_end(&mut resp.body)?;
            self.conn = None;
        }
        if resp
            .header("connection")
            .is_some_and(|v| v.eq_ignore_ascii_case("close"))
        {
            self.conn = None;
        }
        Ok(resp)
    }
}

// ---- statistics ------------------------------------------------------------------------

/// Nearest-rank percentile of sorted microsecond samples, in milliseconds.
pub fn pct(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil().max(1.0) as usize;
    sorted[rank.min(sorted.len()) - 1] as f64 / 1000.0
}

pub struct Summary {
    pub n: usize,
    pub p50: f64,
    pub p90: f64,
    pub p99: f64,
    pub max: f64,
    pub mean: f64,
}

pub fn summarize(mut v: Vec<u64>) -> Summary {
    v.sort_unstable();
    let mean = if v.is_empty() {
        f64::NAN
    } else {
        v.iter().sum::<u64>() as f64 / v.len() as f64 / 1000.0
    };
    Summary {
        n: v.len(),
        p50: pct(&v, 50.0),
        p90: pct(&v, 90.0),
        p99: pct(&v, 99.0),
        max: pct(&v, 100.0),
        mean,
    }
}

pub fn verdict(ok: bool) -> &'static str {
    if ok {
        "PASS"
    } else {
        "MISS"
    }
}

pub fn rss_kb(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(field))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse().ok())
        })
        .unwrap_or(0)
}

/// CPU seconds used by the whole process so far (user + system; Linux clock ticks of 1/100 s).
pub fn cpu_s() -> f64 {
    std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| {
            // Fields after the command name (which is in parentheses and may hold spaces).
            let rest = s
                .rsplit_once(')')?
                .1
                .split_whitespace()
                .map(str::to_string)
                .collect::<Vec<_>>();
            let utime: f64 = rest.get(11)?.parse().ok()?;
            let stime: f64 = rest.get(12)?.parse().ok()?;
            Some((utime + stime) / 100.0)
        })
        .unwrap_or(f64::NAN)
}

/// CPU seconds the whole machine spent busy so far, every process counted (`/proc/stat`:
/// user, nice, system, irq and softirq; ticks of 1/100 s; not steal, which is time the
/// host gave to others): on a machine running only
/// the benchmark, the server, its clients and — for PostgreSQL on the same machine — the
/// database's own processes.
pub fn machine_busy_s() -> f64 {
    std::fs::read_to_string("/proc/stat")
        .ok()
        .and_then(|s| {
            let line = s.lines().find(|l| l.starts_with("cpu "))?;
            let v: Vec<f64> = line
                .split_whitespace()
                .skip(1)
                .filter_map(|n| n.parse().ok())
                .collect();
            // user nice system idle iowait irq softirq steal …
            let busy = v.first()? + v.get(1)? + v.get(2)? + v.get(5)? + v.get(6)?;
            Some(busy / 100.0)
        })
        .unwrap_or(f64::NAN)
}

pub type SqlStats =
    std::sync::Arc<std::sync::Mutex<std::collections::HashMap<String, (u64, u128, bool)>>>;

/// Diagnostic (the benches' `*_BENCH_SQL=1`): times every statement run on `conn`, by its SQL
/// text: (count, total ns, served from the statement cache).
pub fn sql_profile(conn: &mut cardroom::db::DbConn) -> SqlStats {
    use diesel::connection::{Connection, InstrumentationEvent};
    let stats: SqlStats = SqlStats::default();
    let s2 = stats.clone();
    let mut started: Option<std::time::Instant> = None;
    conn.set_instrumentation(move |ev: InstrumentationEvent<'_>| match ev {
        InstrumentationEvent::StartQuery { .. } => started = Some(std::time::Instant::now()),
        InstrumentationEvent::CacheQuery { sql, .. } => {
            s2.lock().unwrap().entry(sql.to_string()).or_default().2 = true;
        }
        InstrumentationEvent::FinishQuery { query, .. } => {
            let ns = started.take().map(|t| t.elapsed().as_nanos()).unwrap_or(0);
            let text = query.to_string();
            let sql = text.split(" -- binds").next().unwrap_or("").to_string();
            let mut g = s2.lock().unwrap();
            let e = g.entry(sql).or_default();
            e.0 += 1;
            e.1 += ns;
        }
        _ => {}
    });
    stats
}

// ---- shared by the floor and soak benchmarks -------------------------------------------

#[allow(dead_code)]
pub fn api_token(addr: SocketAddr) -> String {
    let mut c = Client::new(addr);
    let body =
        serde_json::json!({ "username": "admin", "password": super::ADMIN_PASSWORD }).to_string();
    let r = c
        .request(
            "POST",
            "/api/v1/auth/login",
            &[],
            Some(("application/json", body.as_bytes())),
        )
        .expect("api login");
    assert_eq!(r.status, 200, "api login: {}", r.text());
    r.json()["token"].as_str().expect("token").to_string()
}

/// Signs in through the page (GET /login → cr_pre + csrf, POST /login → cr_session).
#[allow(dead_code)]
pub fn web_session(addr: SocketAddr) -> String {
    let mut c = Client::new(addr);
    let r = c.request("GET", "/login", &[], None).expect("GET /login");
    assert_eq!(r.status, 200, "GET /login");
    let pre = r.cookie("cr_pre").expect("cr_pre cookie");
    let html = r.text();
    let csrf = html
        .split("name=\"csrf\"")
        .nth(1)
        .and_then(|rest| rest.split("value=\"").nth(1))
        .and_then(|v| v.split('"').next())
        .expect("csrf field")
        .to_string();
    let form = serde_urlencoded::to_string([
        ("csrf", csrf.as_str()),
        ("username", "admin"),
        ("password", super::ADMIN_PASSWORD),
    ])
    .expect("form");
    let cookie = format!("cr_pre={pre}");
    let r = c
        .request(
            "POST",
            "/login",
            &[("Cookie", &cookie)],
            Some(("application/x-www-form-urlencoded", form.as_bytes())),
        )
        .expect("POST /login");
    assert!(
        r.status == 303 || r.status == 302,
        "POST /login answered {}: {}",
        r.status,
        r.text()
    );
    r.cookie("cr_session").expect("cr_session cookie")
}

#[allow(dead_code)] // not every benchmark registers players this way
pub fn player_input(i: usize, today: chrono::NaiveDate) -> cardroom::domain::player::PlayerInput {
    cardroom::domain::player::PlayerInput {
        full_name: format!("Bench Player {i:05}"),
        date_of_birth: chrono::NaiveDate::from_ymd_opt(
            today.year() - 25 - (i % 40) as i32,
            (i % 12) as u32 + 1,
            (i % 28) as u32 + 1,
        )
        .unwrap_or(today),
        doc_kind: cardroom::domain::player::DocumentKind::NationalId,
        doc_number: format!("PT{:08}", 10_000_000 + i),
        doc_country: "PT".into(),
        doc_expiry: today + chrono::Duration::days(400 + (i % 1000) as i64),
        phone: Some(format!("+3519{:08}", 10_000_000 + i)),
        email: None,
        language: if i.is_multiple_of(3) {
            cardroom::domain::player::Language::En
        } else {
            cardroom::domain::player::Language::Pt
        },
        notify: cardroom::domain::player::NotifyPref::Sms,
        alias: format!("P{i:05}"),
    }
}
