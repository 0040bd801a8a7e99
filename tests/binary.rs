//! One binary that runs anywhere: the built `cardroom` is copied into an empty
//! temporary directory and started there — no source tree, no `static/` beside it — and every
//! asset the public pages link is fetched from it, with its content type, `ETag`, caching and
//! a `304` on revalidation.

// These tests start `cardroom` themselves (a copy alone in an empty directory, signals, a
// backup under writes): the process start is what they test, not a harness for the app.
#[path = "support/app.rs"]
mod app;
#[path = "support/browser.rs"]
mod support;

use std::collections::BTreeSet;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use support::{free_port, http_status, ChildGuard, ADMIN_PASSWORD, SECRET};

struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// `GET path` with extra headers, over a raw connection (`Connection: close`).
fn get(addr: SocketAddr, path: &str, extra: &[(&str, &str)]) -> Answer {
    let mut s = TcpStream::connect_timeout(&addr, Duration::from_secs(2)).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let mut req = format!(
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nAccept-Language: pt-PT\r\n"
    );
    for (k, v) in extra {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    s.write_all(req.as_bytes()).unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).unwrap();
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("end of headers");
    let head = String::from_utf8_lossy(&raw[..split]).to_string();
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|c| c.parse().ok())
        .expect("status");
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect();
    let mut body = raw[split + 4..].to_vec();
    if headers
        .iter()
        .any(|(k, v)| k.eq_ignore_ascii_case("transfer-encoding") && v.contains("chunked"))
    {
        body = dechunk(&body);
    }
    Answer {
        status,
        headers,
        body,
    }
}

fn dechunk(mut b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let Some(eol) = b.windows(2).position(|w| w == b"\r\n") else {
            return out;
        };
        let n = usize::from_str_radix(String::from_utf8_lossy(&b[..eol]).trim(), 16).unwrap_or(0);
        if n == 0 {
            return out;
        }
        out.extend_from_slice(&b[eol + 2..eol + 2 + n]);
        b = &b[eol + 2 + n + 2..];
    }
}

/// The `/static/…` addresses a page links (`href`/`src`).
fn assets_of(html: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for attr in ["href=\"", "src=\""] {
        for part in html.split(attr).skip(1) {
            let url = part
                .split('"')
                .next()
                .unwrap_or_default()
                .replace("&amp;", "&");
            if url.starts_with("/static/") {
                out.insert(url);
            }
        }
    }
    out
}

#[test]
fn the_binary_alone_in_an_empty_directory_serves_every_asset_its_pages_link() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bin = dir.path().join("cardroom");
    std::fs::copy(env!("CARGO_BIN_EXE_cardroom"), &bin).expect("copy the binary");
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        1,
        "the directory holds the binary only"
    );

    let addr: SocketAddr = format!("127.0.0.1:{}", free_port()).parse().unwrap();
    let mut cmd = Command::new(&bin);
    cmd.arg("serve")
        .current_dir(dir.path())
        .stdin(Stdio::null());
    for (k, _) in std::env::vars_os() {
        if k.to_string_lossy().starts_with("CARDROOM_") {
            cmd.env_remove(&k);
        }
    }
    cmd.env("CARDROOM_BIND", addr.to_string())
        .env("CARDROOM_DATABASE_URL", "sqlite://room.db")
        .env("CARDROOM_ADMIN_PASSWORD", ADMIN_PASSWORD)
        .env("CARDROOM_SECRET", SECRET)
        .env("CARDROOM_WORKERS", "1")
        .env("RUST_LOG", "warn");
    let mut guard = ChildGuard::spawn("cardroom serve (copied binary)", cmd);
    let deadline = Instant::now() + Duration::from_secs(30);
    while http_status(addr, "/healthz") != Some(200) {
        assert!(guard.exited().is_none(), "the copied binary exited");
        assert!(
            Instant::now() < deadline,
            "the copied binary did not answer /healthz"
        );
        std::thread::sleep(Duration::from_millis(100));
    }

    // The public pages: sign-in, the room's screen, an unpaired tablet.
    let mut assets = BTreeSet::new();
    for page in ["/login", "/lobby", "/tablet"] {
        let a = get(addr, page, &[]);
        assert_eq!(a.status, 200, "{page}");
        assets.extend(assets_of(&String::from_utf8_lossy(&a.body)));
    }
    for must in ["/static/app.css?v=", "/static/vendor/htmx.min.js?v="] {
        assert!(
            assets.iter().any(|a| a.starts_with(must)),
            "the pages link {must}…: {assets:?}"
        );
    }
    for url in &assets {
        let a = get(addr, url, &[]);
        assert_eq!(a.status, 200, "{url}");
        assert!(!a.body.is_empty(), "{url} is empty");
        let ct = a.header("content-type").unwrap_or_default();
        let expected = if url.contains(".css") {
            "text/css"
        } else {
            "javascript"
        };
        assert!(ct.contains(expected), "{url}: content type {ct}");
        assert_eq!(
            a.header("cache-control"),
            Some("public, max-age=31536000, immutable"),
            "{url}: a versioned address is kept"
        );
        let etag = a.header("etag").expect("ETag").to_string();
        // Without the version (an old page): revalidated, and unchanged is a 304.
        let plain = url.split('?').next().unwrap();
        let b = get(addr, plain, &[]);
        assert_eq!(
            (b.status, b.header("cache-control")),
            (200, Some("no-cache")),
            "{plain}"
        );
        let c = get(addr, plain, &[("If-None-Match", &etag)]);
        assert_eq!(c.status, 304, "{plain} with its ETag");
        assert!(c.body.is_empty());
    }
    assert_eq!(get(addr, "/static/no-such-file.css", &[]).status, 404);
    assert_eq!(get(addr, "/static/../Cargo.toml", &[]).status, 404);
    // The database was made beside the binary (with the audit trail's key and signed
    // checkpoints, kept out of the database on purpose), nothing else.
    let mut files: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    files.sort();
    assert!(
        files.iter().all(|f| f == "cardroom"
            || f.starts_with("room.db")
            || f == "audit.key"
            || (f.starts_with("audit-checkpoints-") && f.ends_with(".log"))),
        "{files:?}"
    );
    drop(guard);
}

/// One raw HTTP/1.1 exchange (`Connection: close`): status line + headers, and body.
fn exchange(addr: SocketAddr, request: &str) -> (String, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s.write_all(request.as_bytes()).unwrap();
    let mut raw = String::new();
    s.read_to_string(&mut raw).unwrap();
    let (head, body) = raw.split_once("\r\n\r\n").unwrap_or((&raw, ""));
    (head.to_string(), body.to_string())
}

fn cookie<'a>(head: &'a str, name: &str) -> &'a str {
    let at = head
        .find(&format!("{name}="))
        .unwrap_or_else(|| panic!("cookie {name} in {head}"));
    head[at + name.len() + 1..].split(';').next().unwrap()
}

/// Signs in through the sign-in page; the session cookie (`cr_session=…`).
fn web_session(addr: SocketAddr) -> String {
    let (head, body) = exchange(
        addr,
        &format!("GET /login HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"),
    );
    let pre = cookie(&head, "cr_pre").to_string();
    let csrf = body
        .split("name=\"csrf\" value=\"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .expect("csrf field")
        .to_string();
    let form = format!("csrf={csrf}&username=admin&password={ADMIN_PASSWORD}");
    let (head, _) = exchange(
        addr,
        &format!(
            "POST /login HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nCookie: cr_pre={pre}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{form}",
            form.len()
        ),
    );
    assert!(head.starts_with("HTTP/1.1 303"), "{head}");
    format!("cr_session={}", cookie(&head, "cr_session"))
}

/// A server binary started as in production (its own directory, SQLite file).
fn start(dir: &std::path::Path) -> (ChildGuard, SocketAddr) {
    let addr: SocketAddr = format!("127.0.0.1:{}", free_port()).parse().unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cardroom"));
    cmd.arg("serve").current_dir(dir).stdin(Stdio::null());
    for (k, _) in std::env::vars_os() {
        if k.to_string_lossy().starts_with("CARDROOM_") {
            cmd.env_remove(&k);
        }
    }
    cmd.env("CARDROOM_BIND", addr.to_string())
        .env("CARDROOM_DATABASE_URL", "sqlite://room.db")
        .env("CARDROOM_ADMIN_PASSWORD", ADMIN_PASSWORD)
        .env("CARDROOM_SECRET", SECRET)
        .env("CARDROOM_WORKERS", "2")
        .env("RUST_LOG", "info");
    let mut guard = ChildGuard::spawn("cardroom serve", cmd);
    let deadline = Instant::now() + Duration::from_secs(30);
    while http_status(addr, "/healthz") != Some(200) {
        assert!(guard.exited().is_none(), "the server exited");
        assert!(
            Instant::now() < deadline,
            "the server did not answer /healthz"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    (guard, addr)
}

#[test]
fn sigterm_with_streams_open_ends_them_and_exits_cleanly_within_5_seconds() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut guard, addr) = start(dir.path());
    let session = web_session(addr);
    // Three floor screens following the room, and one idle keep-alive connection.
    let mut streams: Vec<TcpStream> = (0..3)
        .map(|_| {
            let mut s = TcpStream::connect(addr).unwrap();
            write!(s, "GET /floor/stream HTTP/1.1\r\nHost: {addr}\r\nCookie: {session}\r\nAccept: text/event-stream\r\n\r\n").unwrap();
            s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
            let mut buf = [0u8; 512];
            let n = s.read(&mut buf).unwrap();
            let head = String::from_utf8_lossy(&buf[..n]).to_string();
            assert!(head.starts_with("HTTP/1.1 200") && head.contains("text/event-stream"), "{head}");
            s
        })
        .collect();
    let mut idle = TcpStream::connect(addr).unwrap();
    write!(idle, "GET /healthz HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
    let mut buf = [0u8; 512];
    assert!(idle.read(&mut buf).unwrap() > 0);

    let asked = Instant::now();
    let kill = Command::new("kill")
        .args(["-TERM", &guard.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let status = loop {
        if let Some(s) = guard.exited() {
            break s;
        }
        assert!(
            asked.elapsed() < Duration::from_secs(5),
            "still running 5 s after SIGTERM (a clean stop within 5 s)"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let took = asked.elapsed();
    assert!(status.success(), "exit status after SIGTERM: {status}");
    // Each stream was ended by the server (a browser reconnects and resumes from its id).
    for s in &mut streams {
        let mut rest = Vec::new();
        let _ = s.read_to_end(&mut rest);
        assert!(
            String::from_utf8_lossy(&rest).ends_with("0\r\n\r\n") || rest.is_empty(),
            "{}",
            String::from_utf8_lossy(&rest)
        );
    }
    // The database file is whole: the write-ahead log was copied in and emptied.
    let wal = dir.path().join("room.db-wal");
    assert!(
        std::fs::metadata(&wal)
            .map(|m| m.len() == 0)
            .unwrap_or(true),
        "the WAL was checkpointed at the stop"
    );
    eprintln!("stopped {took:?} after SIGTERM");
}

fn api_token(addr: SocketAddr) -> String {
    let body = format!(r#"{{"username":"admin","password":"{ADMIN_PASSWORD}"}}"#);
    let (head, body) = exchange(
        addr,
        &format!("POST /api/v1/auth/login HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}", body.len()),
    );
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    let v: serde_json::Value =
        serde_json::from_str(body.trim()).unwrap_or_else(|_| panic!("{body}"));
    v["token"].as_str().unwrap().to_string()
}

/// Registers a player through the API; the status code.
fn add_player(addr: SocketAddr, token: &str, doc: &str) -> u16 {
    let body = serde_json::json!({
        "full_name": "Ana Maria Silva", "date_of_birth": "1990-05-17", "doc_kind": "national_id",
        "doc_number": doc, "doc_country": "PT", "doc_expiry": "2031-01-01", "phone": "+351912345678",
        "email": "ana@example.pt", "language": "pt", "notify": "sms", "alias": "Ana"
    })
    .to_string();
    let (head, _) = exchange(
        addr,
        &format!(
            "POST /api/v1/players HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        ),
    );
    head.split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0)
}

fn cardroom(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cardroom"));
    cmd.args(args).current_dir(dir).stdin(Stdio::null());
    for (k, _) in std::env::vars_os() {
        if k.to_string_lossy().starts_with("CARDROOM_") {
            cmd.env_remove(&k);
        }
    }
    cmd.env("CARDROOM_DATABASE_URL", "sqlite://room.db")
        .env("CARDROOM_SECRET", SECRET)
        .env("RUST_LOG", "warn");
    cmd.output().expect("run cardroom")
}

fn said(o: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn players_in(db: &std::path::Path) -> Vec<String> {
    use diesel::prelude::*;
    let mut c = diesel::SqliteConnection::establish(&db.to_string_lossy()).unwrap();
    cardroom::db::schema::players::table
        .select(cardroom::db::schema::players::doc_number)
        .load(&mut c)
        .unwrap()
}

#[test]
fn a_backup_taken_under_writes_restores_what_was_acknowledged_and_its_audit_chain_verifies() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut guard, addr) = start(dir.path());
    let token = api_token(addr);
    // A desk registering players all along.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let acked = std::sync::Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let writer = {
        let (stop, acked, token) = (stop.clone(), acked.clone(), token.clone());
        std::thread::spawn(move || {
            let mut i = 0;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                i += 1;
                let doc = format!("BK{i:06}");
                if add_player(addr, &token, &doc) == 201 {
                    acked.lock().unwrap().push(doc);
                }
            }
        })
    };
    std::thread::sleep(Duration::from_millis(500));
    let before: Vec<String> = acked.lock().unwrap().clone();
    let out = cardroom(dir.path(), &["backup", "--to", "night.db"]);
    let after: Vec<String> = acked.lock().unwrap().clone();
    std::thread::sleep(Duration::from_millis(300));
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    writer.join().unwrap();
    assert!(out.status.success(), "backup: {}", said(&out));
    assert!(said(&out).contains("audit chain intact"), "{}", said(&out));
    assert!(
        before.len() > 3,
        "the load was running ({} players before the backup)",
        before.len()
    );

    // What the backup holds: every player acknowledged before it started, and only players
    // acknowledged by the time it finished (the snapshot's moment lies between).
    let backup = players_in(&dir.path().join("night.db"));
    for d in &before {
        assert!(
            backup.contains(d),
            "{d} was acknowledged before the backup but is not in it"
        );
    }
    for d in &backup {
        assert!(
            after.contains(d) || !d.starts_with("BK"),
            "{d} is in the backup but was not acknowledged by its end"
        );
    }

    // Restore refuses while the server holds the database, and refuses what is not a backup.
    let o = cardroom(dir.path(), &["restore", "night.db"]);
    assert!(
        !o.status.success() && said(&o).contains("server is running"),
        "{}",
        said(&o)
    );
    std::fs::write(dir.path().join("junk.db"), b"this is not a database").unwrap();
    // A backup never overwrites; an unwritable target fails clearly and leaves the rest alone.
    let o = cardroom(dir.path(), &["backup", "--to", "night.db"]);
    assert!(
        !o.status.success() && said(&o).contains("exists already"),
        "{}",
        said(&o)
    );
    let o = cardroom(
        dir.path(),
        &["backup", "--to", "/proc/cardroom-cannot-write-here.db"],
    );
    assert!(!o.status.success(), "{}", said(&o));
    assert_eq!(
        players_in(&dir.path().join("night.db")),
        backup,
        "the good backup is untouched"
    );

    // Stop the server, restore, start again: the room is the backup's.
    Command::new("kill")
        .args(["-TERM", &guard.id().to_string()])
        .status()
        .unwrap();
    let t = Instant::now();
    while guard.exited().is_none() {
        assert!(t.elapsed() < Duration::from_secs(10), "server did not stop");
        std::thread::sleep(Duration::from_millis(20));
    }
    let o = cardroom(dir.path(), &["restore", "junk.db"]);
    assert!(
        !o.status.success() && said(&o).contains("not a SQLite database"),
        "{}",
        said(&o)
    );
    let o = cardroom(dir.path(), &["restore", "night.db"]);
    assert!(o.status.success(), "restore: {}", said(&o));
    assert!(said(&o).contains("kept as"), "{}", said(&o));
    let mut restored = players_in(&dir.path().join("room.db"));
    let mut expected = backup.clone();
    restored.sort();
    expected.sort();
    assert_eq!(restored, expected);
    let o = cardroom(dir.path(), &["verify-audit"]);
    assert!(
        o.status.success() && said(&o).contains("intact"),
        "{}",
        said(&o)
    );
    let (_guard2, addr2) = start(dir.path());
    assert_eq!(
        add_player(addr2, &api_token(addr2), "AFTER0001"),
        201,
        "the restored room takes new work"
    );
}
