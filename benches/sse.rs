//! SSE fan-out benchmark: how long a floor action takes to reach every open live stream.
//!
//! A room of 250 open tables (10 games) on a temporary SQLite file, a tablet paired with
//! every table, and the real server in-process (2 workers). Connected: 500 SSE clients —
//! for every table its tablet (`/tablet/stream`, that table's events only) and a spare
//! screen (by default a `/floor/stream`, which follows every event of the room;
//! `SSE_BENCH_SPARE=tablet` makes the spare a second tablet of the same table instead).
//! Then, one after the other, floor actions that each emit one seat call:
//! `POST /api/v1/tables/{id}/seats/{seat}/call-next` at table k mod 250. For each action
//! it measures the time from just before the request until every client that should get
//! the call (its table's tablet(s) and every floor stream) has read it from its socket.
//!
//! Clients are tokio tasks on their own runtime (one thread by default), reading raw HTTP/1.1
//! (chunked) and parsing the SSE frames; they also check that every stream sees its events
//! in sequence order, each once, and that no tablet sees another table's call.
//!
//! It prints figures and PASS/MISS against the target (p99 ≤ 10 ms on 2 cores); it never
//! fails on a figure. Run: `cargo bench --bench sse`. Knobs (environment):
//! `SSE_BENCH_ACTIONS` (300 measured actions), `SSE_BENCH_WARMUP` (20), `SSE_BENCH_TABLES`
//! (250), `SSE_BENCH_SPARE` (`floor` | `tablet`), `SSE_BENCH_CLIENT_THREADS` (1),
//! `SSE_BENCH_PAUSE_MS` (pause between actions, 5).

use cardroom::auth::{issue, TokenKind};
use cardroom::config::Settings;
use cardroom::domain::ids::TableId;
use cardroom::domain::player::{DocumentKind, Language, NotifyPref, PlayerInput};
use cardroom::error::AppError;
use cardroom::services::{self, games::GameInput, games::TableInput, photo};
use cardroom::web::state::AppState;
use chrono::{Datelike, Duration as Days, NaiveDate};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

#[path = "common/mod.rs"]
mod common;
use common::app::{Backend, TestApp, ADMIN_PW};

const GAMES: usize = 10;
const SEATS: i32 = 10;
const ADMIN_PASSWORD: &str = ADMIN_PW;
const TARGET_P99_MS: f64 = 10.0;
/// An action whose call has not reached every client after this long counts as missed.
const GIVE_UP: Duration = Duration::from_secs(5);

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn verdict(ok: bool) -> &'static str {
    if ok {
        "PASS"
    } else {
        "MISS"
    }
}

fn rss_kb(field: &str) -> u64 {
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

/// CPU seconds used by the whole process so far (user + system; clock ticks of 1/100 s).
fn cpu_s() -> f64 {
    std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| {
            let rest: Vec<String> = s
                .rsplit_once(')')?
                .1
                .split_whitespace()
                .map(str::to_string)
                .collect();
            Some((rest.get(11)?.parse::<f64>().ok()? + rest.get(12)?.parse::<f64>().ok()?) / 100.0)
        })
        .unwrap_or(f64::NAN)
}

/// Nearest-rank percentile of sorted microsecond samples, in milliseconds.
fn pct(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil().max(1.0) as usize;
    sorted[rank.min(sorted.len()) - 1] as f64 / 1000.0
}

// ---- the room ------------------------------------------------------------------------------

struct Room {
    /// Table ids, in table-number order.
    tables: Vec<TableId>,
    /// Per table: the device tokens of its tablets.
    devices: Vec<Vec<String>>,
}

fn build_room(
    state: &AppState,
    tables: usize,
    players_per_game: usize,
    tablets_per_table: usize,
) -> Result<Room, AppError> {
    let now = state.clock.now();
    let mut conn = state.db.conn()?;
    let room = services::room::get(&mut conn)?;
    // The room itself builds the bench's room, now.
    let act = services::Acting::system(now).with_room(room.clone());
    let pic = photo::process(&photo::generated_portrait(1))?;
    let today = cardroom::domain::age::room_date(now, room.tz);
    let keys = state.keys.clone();
    state.db.write(&mut conn, |c| -> Result<Room, AppError> {
        let mut games = Vec::new();
        for g in 0..GAMES {
            let input = GameInput {
                name: format!("SSE bench {g:02} NL 1/2"),
                variant: "holdem_nl".into(),
                small_blind: 100,
                big_blind: 200,
                limit_class: "low".into(),
                buy_in_min: 4_000,
                buy_in_max: Some(20_000),
                ..GameInput::default()
            };
            games.push(services::games::create_game(c, &act, &input)?.id);
        }
        let mut ids = Vec::new();
        let mut devices = Vec::new();
        for n in 0..tables {
            let input = TableInput {
                number: n as i32 + 1,
                seats: Some(SEATS),
                game_id: Some(games[n % GAMES]),
                mode: "continuous".into(),
                active: Some(true),
            };
            let t = services::games::create_table(c, &act, &input)?;
            services::floor::open_table(c, &act, t.id)?;
            let mut tokens = Vec::new();
            for k in 0..tablets_per_table {
                let (p, _) = services::tablets::start_pairing(c, now)?;
                let tablet =
                    services::tablets::pair(c, &act, &p.code, t.id, &format!("T{} #{k}", n + 1))?;
                tokens.push(
                    issue(
                        &keys,
                        tablet.id,
                        tablet.token_version,
                        TokenKind::Device,
                        "",
                        now,
                        24,
                    )
                    .0,
                );
            }
            ids.push(t.id);
            devices.push(tokens);
        }
        for i in 0..players_per_game * GAMES {
            let input = PlayerInput {
                full_name: format!("Sse Player {i:05}"),
                date_of_birth: NaiveDate::from_ymd_opt(today.year() - 30, 1, 1).unwrap_or(today),
                doc_kind: DocumentKind::NationalId,
                doc_number: format!("SSE{:08}", i),
                doc_country: "PT".into(),
                doc_expiry: today + Days::days(400),
                phone: None,
                email: None,
                language: Language::Pt,
                notify: NotifyPref::None,
                alias: format!("S{i:05}"),
            };
            let (p, _) = services::players::create(c, &act, &input, Some(&pic))?;
            services::floor::join(c, &act, games[i % GAMES], p.id, false)?;
        }
        Ok(Room {
            tables: ids,
            devices,
        })
    })
}

// ---- the server and a tiny blocking HTTP/1.1 client for the actions ---------------------------

type Conn = Option<(BufReader<TcpStream>, TcpStream)>;

/// Status, headers (names in lower case), body.
type Answer = (u16, Vec<(String, String)>, Vec<u8>);

/// One request on a kept-alive connection (opened when needed): status, headers, body.
/// Answers with `Content-Length` only (the API and the login pages).
fn request(
    conn: &mut Conn,
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<(&str, &[u8])>,
) -> std::io::Result<Answer> {
    if conn.is_none() {
        let s = TcpStream::connect(addr)?;
        s.set_nodelay(true)?;
        *conn = Some((BufReader::new(s.try_clone()?), s));
    }
    let Some((reader, writer)) = conn.as_mut() else {
        unreachable!()
    };
    let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\n");
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    let payload = body.map(|(ctype, b)| {
        req.push_str(&format!("Content-Type: {ctype}\r\n"));
        b
    });
    req.push_str(&format!(
        "Content-Length: {}\r\n\r\n",
        payload.map_or(0, |b| b.len())
    ));
    let mut bytes = req.into_bytes();
    bytes.extend_from_slice(payload.unwrap_or_default());
    writer.write_all(&bytes)?;
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let status = line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let mut hs = Vec::new();
    loop {
        line.clear();
        reader.read_line(&mut line)?;
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        if let Some((k, v)) = l.split_once(':') {
            hs.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
        }
    }
    let n = hs
        .iter()
        .find(|(k, _)| k == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; n];
    reader.read_exact(&mut body)?;
    Ok((status, hs, body))
}

fn cookie(headers: &[(String, String)], name: &str) -> Option<String> {
    headers
        .iter()
        .filter(|(k, _)| k == "set-cookie")
        .filter_map(|(_, v)| v.split(';').next()?.split_once('='))
        .find(|(k, _)| k.trim() == name)
        .map(|(_, v)| v.trim().to_string())
}

fn api_token(addr: SocketAddr) -> String {
    let body = serde_json::json!({ "username": "admin", "password": ADMIN_PASSWORD }).to_string();
    let (status, _, b) = request(
        &mut None,
        addr,
        "POST",
        "/api/v1/auth/login",
        &[],
        Some(("application/json", body.as_bytes())),
    )
    .expect("api login");
    assert_eq!(status, 200, "api login");
    serde_json::from_slice::<serde_json::Value>(&b)
        .ok()
        .and_then(|j| j["token"].as_str().map(str::to_string))
        .expect("token")
}

/// A page session (GET /login → cr_pre + csrf, POST /login → cr_session).
fn web_session(addr: SocketAddr) -> String {
    let mut c = None;
    let (_, hs, body) = request(&mut c, addr, "GET", "/login", &[], None).expect("GET /login");
    let pre = cookie(&hs, "cr_pre").expect("cr_pre cookie");
    let html = String::from_utf8_lossy(&body);
    let csrf = html
        .split("name=\"csrf\"")
        .nth(1)
        .and_then(|r| r.split("value=\"").nth(1))
        .and_then(|v| v.split('"').next())
        .expect("csrf")
        .to_string();
    let form = serde_urlencoded::to_string([
        ("csrf", csrf.as_str()),
        ("username", "admin"),
        ("password", ADMIN_PASSWORD),
    ])
    .expect("form");
    let pre = format!("cr_pre={pre}");
    let (status, hs, _) = request(
        &mut c,
        addr,
        "POST",
        "/login",
        &[("Cookie", &pre)],
        Some(("application/x-www-form-urlencoded", form.as_bytes())),
    )
    .expect("POST /login");
    assert!(
        status == 303 || status == 302,
        "POST /login answered {status}"
    );
    cookie(&hs, "cr_session").expect("cr_session cookie")
}

// ---- the SSE clients -----------------------------------------------------------------------

/// Who has read which seat call, and when the last of them did.
#[derive(Default)]
struct Arrivals {
    calls: Mutex<HashMap<i64, (usize, Instant)>>,
    changed: Condvar,
}

impl Arrivals {
    fn arrived(&self, call_id: i64) {
        let now = Instant::now();
        let mut g = self.calls.lock().unwrap_or_else(|e| e.into_inner());
        let e = g.entry(call_id).or_insert((0, now));
        e.0 += 1;
        e.1 = now;
        drop(g);
        self.changed.notify_all();
    }

    /// Waits until `n` clients have read the call; the time the last one did.
    fn wait(&self, call_id: i64, n: usize, until: Instant) -> Option<Instant> {
        let mut g = self.calls.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(&(k, at)) = g.get(&call_id) {
                if k >= n {
                    return Some(at);
                }
            }
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return None;
            }
            g = self
                .changed
                .wait_timeout(g, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }
}

/// What the clients found wrong or counted (all of them together).
#[derive(Default)]
struct Checks {
    connected: AtomicUsize,
    events: AtomicUsize,
    /// An id not greater than the previous one on the same stream.
    out_of_order: AtomicUsize,
    /// A tablet got an event of another table.
    foreign: AtomicUsize,
    failed: Mutex<Vec<String>>,
}

struct Stream {
    path: String,
    cookie: String,
    /// A tablet's table (None: a floor stream).
    table: Option<i64>,
}

/// Decodes a chunked HTTP body as it arrives.
#[derive(Default)]
struct Chunked {
    raw: Vec<u8>,
}

impl Chunked {
    /// Appends the complete chunks now in `raw` to `out`.
    fn decode(&mut self, out: &mut Vec<u8>) {
        let mut at = 0;
        while let Some(eol) = self.raw[at..].windows(2).position(|w| w == b"\r\n") {
            let size = std::str::from_utf8(&self.raw[at..at + eol])
                .ok()
                .and_then(|s| {
                    usize::from_str_radix(s.split(';').next().unwrap_or("").trim(), 16).ok()
                });
            let Some(size) = size else { break };
            let start = at + eol + 2;
            if self.raw.len() < start + size + 2 {
                break;
            }
            out.extend_from_slice(&self.raw[start..start + size]);
            at = start + size + 2;
        }
        self.raw.drain(..at);
    }
}

async fn follow(addr: SocketAddr, s: Stream, arrivals: Arc<Arrivals>, checks: Arc<Checks>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let fail = |why: String| {
        checks
            .failed
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(why)
    };
    let mut sock = match tokio::net::TcpStream::connect(addr).await {
        Ok(s) => s,
        Err(e) => return fail(format!("connect: {e}")),
    };
    let _ = sock.set_nodelay(true);
    let req = format!(
        "GET {} HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\nCookie: {}\r\n\r\n",
        s.path, s.cookie
    );
    if let Err(e) = sock.write_all(req.as_bytes()).await {
        return fail(format!("send: {e}"));
    }
    let mut buf = vec![0u8; 64 * 1024];
    let mut head = Vec::new();
    let mut chunked = Chunked::default();
    let mut text: Vec<u8> = Vec::new();
    let mut in_body = false;
    let mut last_id = i64::MIN;
    loop {
        let n = match sock.read(&mut buf).await {
            Ok(0) => return fail(format!("{}: the server closed the stream", s.path)),
            Ok(n) => n,
            Err(e) => return fail(format!("{}: {e}", s.path)),
        };
        if !in_body {
            head.extend_from_slice(&buf[..n]);
            let Some(end) = head.windows(4).position(|w| w == b"\r\n\r\n") else {
                continue;
            };
            let status = String::from_utf8_lossy(&head[..end])
                .lines()
                .next()
                .unwrap_or("")
                .to_string();
            if !status.contains(" 200 ") {
                return fail(format!("{}: {status}", s.path));
            }
            in_body = true;
            chunked.raw.extend_from_slice(&head[end + 4..]);
            checks.connected.fetch_add(1, Relaxed);
        } else {
            chunked.raw.extend_from_slice(&buf[..n]);
        }
        chunked.decode(&mut text);
        // Complete SSE frames end with an empty line.
        let mut used = 0;
        while let Some(end) = text[used..].windows(2).position(|w| w == b"\n\n") {
            let frame = &text[used..used + end];
            used += end + 2;
            let Ok(frame) = std::str::from_utf8(frame) else {
                continue;
            };
            // The opening `hello` names where the stream starts: not an event of the room.
            if frame.lines().any(|l| l == "event: hello") {
                continue;
            }
            let Some(id) = frame
                .lines()
                .find_map(|l| l.strip_prefix("id: "))
                .and_then(|v| v.trim().parse::<i64>().ok())
            else {
                continue;
            };
            checks.events.fetch_add(1, Relaxed);
            if id <= last_id {
                checks.out_of_order.fetch_add(1, Relaxed);
            }
            last_id = id;
            if let Some(t) = s.table {
                if !frame.contains(&format!("\"table_id\":{t}}}"))
                    && !frame.contains(&format!("\"table_id\":{t},"))
                {
                    checks.foreign.fetch_add(1, Relaxed);
                }
            }
            if frame.contains("\"kind\":\"seat.call\"") {
                let call = frame
                    .split("\"call_id\":")
                    .nth(1)
                    .and_then(|r| r.split(|ch: char| !ch.is_ascii_digit()).next())
                    .and_then(|n| n.parse().ok());
                if let Some(call) = call {
                    arrivals.arrived(call);
                }
            }
        }
        text.drain(..used);
    }
}

fn main() {
    let actions = env_or("SSE_BENCH_ACTIONS", 300).max(1);
    let warmup = env_or("SSE_BENCH_WARMUP", 20);
    let tables = env_or("SSE_BENCH_TABLES", 250).max(1);
    let client_threads = env_or("SSE_BENCH_CLIENT_THREADS", 1).max(1);
    let pause = Duration::from_millis(env_or("SSE_BENCH_PAUSE_MS", 5) as u64);
    let spare_tablet = std::env::var("SSE_BENCH_SPARE").is_ok_and(|v| v == "tablet");
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(0);
    let mb = |kb: u64| kb as f64 / 1024.0;
    let total = actions + warmup;
    let tablets_per_table = if spare_tablet { 2 } else { 1 };
    let floor_streams = if spare_tablet { 0 } else { tables };
    let clients = tables * tablets_per_table + floor_streams;
    // Each action calls at its own table and seat: table k mod n, seat k / n + 1.
    assert!(
        total <= tables * SEATS as usize,
        "at most {} actions with {tables} tables",
        tables * SEATS as usize
    );

    let dir = tempfile::tempdir().expect("temp dir");
    let builder = TestApp::builder()
        .backend(Backend::Url(format!(
            "sqlite://{}",
            dir.path().join("sse.db").display()
        )))
        .tune(|c| {
            // The server's own pool (the tests' is smaller) and 2 HTTP workers.
            c.database.pool_size = Settings::default().database.pool_size;
            c.server.workers = Some(2);
        });
    let spare = if spare_tablet {
        "a second tablet of the table"
    } else {
        "a /floor/stream"
    };
    println!("SSE fan-out benchmark: {tables} tables, {clients} SSE clients (per table its tablet + {spare}); SQLite, 2 HTTP workers, {cores} cores; {client_threads} client thread(s)");
    let t = Instant::now();
    let app = builder.build();
    let state = app.state.clone();
    let room =
        build_room(&state, tables, total.div_ceil(GAMES) + 2, tablets_per_table).expect("room");
    println!("setup {:.1} s (not measured)", t.elapsed().as_secs_f64());

    let served = app.serve();
    let (addr, handle) = (served.addr, served.handle.clone());
    let token = api_token(addr);
    let session = web_session(addr);
    let rss_before = mb(rss_kb("VmHWM:"));

    // The clients.
    let arrivals = Arc::new(Arrivals::default());
    let checks = Arc::new(Checks::default());
    let mut streams = Vec::new();
    for (i, id) in room.tables.iter().enumerate() {
        for device in &room.devices[i] {
            streams.push(Stream {
                path: "/tablet/stream".into(),
                cookie: format!("cr_session={session}; cr_device={device}"),
                table: Some(id.get()),
            });
        }
        if !spare_tablet {
            streams.push(Stream {
                path: "/floor/stream".into(),
                cookie: format!("cr_session={session}"),
                table: None,
            });
        }
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(client_threads)
        .enable_all()
        .build()
        .expect("client runtime");
    let t = Instant::now();
    for s in streams {
        rt.spawn(follow(addr, s, arrivals.clone(), checks.clone()));
    }
    let deadline = Instant::now() + Duration::from_secs(60);
    while (checks.connected.load(Relaxed) < clients || state.push.receivers() < clients)
        && Instant::now() < deadline
    {
        std::thread::sleep(Duration::from_millis(20));
    }
    println!(
        "{} of {clients} streams open and subscribed to the hub in {:.1} s",
        state.push.receivers(),
        t.elapsed().as_secs_f64()
    );
    for f in checks
        .failed
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .take(5)
    {
        println!("  client failed: {f}");
    }
    let rss_clients = mb(rss_kb("VmHWM:"));

    // The actions, one after the other.
    let expected = tablets_per_table + floor_streams;
    let auth = format!("Bearer {token}");
    let mut conn: Conn = None;
    let mut delivered: Vec<u64> = Vec::new();
    let mut answered: Vec<u64> = Vec::new();
    let (mut missed, mut refused) = (0usize, Vec::new());
    let stats = state.push.stats();
    let (mut reads0, mut cpu0, mut measuring) =
        (stats.reads.load(Relaxed), cpu_s(), Instant::now());
    for k in 0..total {
        let table = room.tables[k % tables];
        let seat = (k / tables) as i32 + 1;
        let path = format!("/api/v1/tables/{table}/seats/{seat}/call-next");
        if k == warmup {
            (reads0, cpu0, measuring) = (stats.reads.load(Relaxed), cpu_s(), Instant::now());
        }
        let t0 = Instant::now();
        let mut r = request(
            &mut conn,
            addr,
            "POST",
            &path,
            &[("Authorization", &auth)],
            Some(("application/json", b"{}")),
        );
        if !matches!(r, Ok((s, _, _)) if s > 0) {
            // The kept-alive connection was closed before the request was read: once more
            // on a new one.
            conn = None;
            r = request(
                &mut conn,
                addr,
                "POST",
                &path,
                &[("Authorization", &auth)],
                Some(("application/json", b"{}")),
            );
        }
        let t1 = Instant::now();
        let call = match &r {
            Ok((201, _, body)) => serde_json::from_slice::<serde_json::Value>(body)
                .ok()
                .and_then(|j| j["id"].as_i64()),
            _ => None,
        };
        let Some(call) = call else {
            refused.push(match r {
                Ok((status, _, body)) => {
                    format!("{path}: {status} {}", String::from_utf8_lossy(&body))
                }
                Err(e) => format!("{path}: {e}"),
            });
            conn = None;
            continue;
        };
        let last = arrivals.wait(call, expected, t0 + GIVE_UP);
        if k < warmup {
            continue;
        }
        answered.push((t1 - t0).as_micros() as u64);
        match last {
            Some(at) => delivered.push(at.saturating_duration_since(t0).as_micros() as u64),
            None => missed += 1,
        }
        std::thread::sleep(pause);
    }
    let cpu_busy = (cpu_s() - cpu0) / measuring.elapsed().as_secs_f64().max(1e-9);
    let reads = stats.reads.load(Relaxed) - reads0;
    // Late duplicates or foreign events would show now.
    std::thread::sleep(Duration::from_millis(500));
    let peak = mb(rss_kb("VmHWM:"));
    delivered.sort_unstable();
    answered.sort_unstable();
    let (p50, p90, p99, max) = (
        pct(&delivered, 50.0),
        pct(&delivered, 90.0),
        pct(&delivered, 99.0),
        pct(&delivered, 100.0),
    );
    let calls_seen = arrivals
        .calls
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .values()
        .map(|v| v.0)
        .sum::<usize>();

    let row = |what: &str, value: String, target: &str, result: &str| {
        println!("| {what:<58} | {value:>15} | {target:>7} | {result:<4} |")
    };
    println!();
    println!(
        "| {:<58} | {:>15} | {:>7} | {:<4} |",
        "measure", "value", "target", ""
    );
    println!(
        "|{}|{}|{}|{}|",
        "-".repeat(60),
        "-".repeat(17),
        "-".repeat(9),
        "-".repeat(6)
    );
    row(
        &format!(
            "action → every client has it, p50 (ms), n={}",
            delivered.len()
        ),
        format!("{p50:.2}"),
        "",
        "",
    );
    row(
        "action → every client has it, p90 (ms)",
        format!("{p90:.2}"),
        "",
        "",
    );
    row(
        "action → every client has it, p99 (ms)",
        format!("{p99:.2}"),
        "≤ 10",
        verdict(p99 <= TARGET_P99_MS && missed == 0),
    );
    row(
        "action → every client has it, max (ms)",
        format!("{max:.2}"),
        "",
        "",
    );
    row(
        "  POST call-next answered, p50 / p99 (ms)",
        format!("{:.2} / {:.2}", pct(&answered, 50.0), pct(&answered, 99.0)),
        "",
        "",
    );
    row(
        "  clients per action (tablets + floor streams)",
        format!("{expected} of {clients}"),
        "",
        "",
    );
    row(
        "  missed (not everywhere within 5 s) / refused actions",
        format!("{missed} / {}", refused.len()),
        "",
        "",
    );
    row(
        "  hub reads of new events per action",
        format!("{:.2}", reads as f64 / actions as f64),
        "",
        "",
    );
    row(
        "  events out of order / for another table (all clients)",
        format!(
            "{} / {}",
            checks.out_of_order.load(Relaxed),
            checks.foreign.load(Relaxed)
        ),
        "",
        "",
    );
    row(
        "  seat calls read, all clients / expected",
        format!("{calls_seen} / {}", (total - refused.len()) * expected),
        "",
        "",
    );
    row(
        "  CPU busy during the actions (cores, server + clients)",
        format!("{cpu_busy:.2} of {cores}"),
        "",
        "",
    );
    row(
        "peak RSS, VmHWM (MB), server and clients",
        format!("{peak:.0}"),
        "",
        "",
    );
    row(
        "  before the clients / with the clients connected (MB)",
        format!("{rss_before:.0} / {rss_clients:.0}"),
        "",
        "",
    );
    for r in refused.iter().take(5) {
        println!("  refused: {r}");
    }
    for f in checks
        .failed
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .take(5)
    {
        println!("  client failed: {f}");
    }
    println!();
    let kv = |k: &str, v: String| println!("sse.{k}={v}");
    kv("clients", clients.to_string());
    kv("clients_per_action", expected.to_string());
    kv("actions", delivered.len().to_string());
    kv("missed", missed.to_string());
    kv("refused", refused.len().to_string());
    kv("p50_ms", format!("{p50:.3}"));
    kv("p90_ms", format!("{p90:.3}"));
    kv("p99_ms", format!("{p99:.3}"));
    kv("max_ms", format!("{max:.3}"));
    kv("answer_p50_ms", format!("{:.3}", pct(&answered, 50.0)));
    kv("answer_p99_ms", format!("{:.3}", pct(&answered, 99.0)));
    kv(
        "hub_reads_per_action",
        format!("{:.3}", reads as f64 / actions as f64),
    );
    kv(
        "out_of_order",
        checks.out_of_order.load(Relaxed).to_string(),
    );
    kv("foreign", checks.foreign.load(Relaxed).to_string());
    kv("cores_busy", format!("{cpu_busy:.2}"));
    kv("peak_rss_mb", format!("{peak:.1}"));
    kv(
        "verdict",
        verdict(p99 <= TARGET_P99_MS && missed == 0).to_string(),
    );

    rt.shutdown_background();
    let stop = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    stop.block_on(handle.stop(false));
    drop(state);
    drop(served);
}
