//! One binary that runs anywhere (issue 15): the built `cardroom` is copied into an empty
//! temporary directory and started there — no source tree, no `static/` beside it — and every
//! asset the public pages link is fetched from it, with its content type, `ETag`, caching and
//! a `304` on revalidation.

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
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

/// `GET path` with extra headers, over a raw connection (`Connection: close`).
fn get(addr: SocketAddr, path: &str, extra: &[(&str, &str)]) -> Answer {
    let mut s = TcpStream::connect_timeout(&addr, Duration::from_secs(2)).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let mut req = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nAccept-Language: pt-PT\r\n");
    for (k, v) in extra {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    s.write_all(req.as_bytes()).unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).unwrap();
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n").expect("end of headers");
    let head = String::from_utf8_lossy(&raw[..split]).to_string();
    let mut lines = head.lines();
    let status = lines.next().and_then(|l| l.split_whitespace().nth(1)).and_then(|c| c.parse().ok()).expect("status");
    let headers: Vec<(String, String)> =
        lines.filter_map(|l| l.split_once(':')).map(|(k, v)| (k.trim().to_string(), v.trim().to_string())).collect();
    let mut body = raw[split + 4..].to_vec();
    if headers.iter().any(|(k, v)| k.eq_ignore_ascii_case("transfer-encoding") && v.contains("chunked")) {
        body = dechunk(&body);
    }
    Answer { status, headers, body }
}

fn dechunk(mut b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let Some(eol) = b.windows(2).position(|w| w == b"\r\n") else { return out };
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
            let url = part.split('"').next().unwrap_or_default().replace("&amp;", "&");
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
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "the directory holds the binary only");

    let addr: SocketAddr = format!("127.0.0.1:{}", free_port()).parse().unwrap();
    let mut cmd = Command::new(&bin);
    cmd.arg("serve").current_dir(dir.path()).stdin(Stdio::null());
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
        assert!(Instant::now() < deadline, "the copied binary did not answer /healthz");
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
        assert!(assets.iter().any(|a| a.starts_with(must)), "the pages link {must}…: {assets:?}");
    }
    for url in &assets {
        let a = get(addr, url, &[]);
        assert_eq!(a.status, 200, "{url}");
        assert!(!a.body.is_empty(), "{url} is empty");
        let ct = a.header("content-type").unwrap_or_default();
        let expected = if url.contains(".css") { "text/css" } else { "javascript" };
        assert!(ct.contains(expected), "{url}: content type {ct}");
        assert_eq!(a.header("cache-control"), Some("public, max-age=31536000, immutable"), "{url}: a versioned address is kept");
        let etag = a.header("etag").expect("ETag").to_string();
        // Without the version (an old page): revalidated, and unchanged is a 304.
        let plain = url.split('?').next().unwrap();
        let b = get(addr, plain, &[]);
        assert_eq!((b.status, b.header("cache-control")), (200, Some("no-cache")), "{plain}");
        let c = get(addr, plain, &[("If-None-Match", &etag)]);
        assert_eq!(c.status, 304, "{plain} with its ETag");
        assert!(c.body.is_empty());
    }
    assert_eq!(get(addr, "/static/no-such-file.css", &[]).status, 404);
    assert_eq!(get(addr, "/static/../Cargo.toml", &[]).status, 404);
    // The database was made beside the binary, nothing else.
    let mut files: Vec<String> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().to_string()).collect();
    files.sort();
    assert!(files.iter().all(|f| f == "cardroom" || f.starts_with("room.db")), "{files:?}");
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
    let at = head.find(&format!("{name}=")).unwrap_or_else(|| panic!("cookie {name} in {head}"));
    head[at + name.len() + 1..].split(';').next().unwrap()
}

/// Signs in through the sign-in page; the session cookie (`cr_session=…`).
fn web_session(addr: SocketAddr) -> String {
    let (head, body) = exchange(addr, &format!("GET /login HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"));
    let pre = cookie(&head, "cr_pre").to_string();
    let csrf = body.split("name=\"csrf\" value=\"").nth(1).and_then(|r| r.split('"').next()).expect("csrf field").to_string();
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
        assert!(Instant::now() < deadline, "the server did not answer /healthz");
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
    let kill = Command::new("kill").args(["-TERM", &guard.id().to_string()]).status().unwrap();
    assert!(kill.success());
    let status = loop {
        if let Some(s) = guard.exited() {
            break s;
        }
        assert!(asked.elapsed() < Duration::from_secs(5), "still running 5 s after SIGTERM (issue 15: a clean stop within 5 s)");
        std::thread::sleep(Duration::from_millis(20));
    };
    let took = asked.elapsed();
    assert!(status.success(), "exit status after SIGTERM: {status}");
    // Each stream was ended by the server (a browser reconnects and resumes from its id).
    for s in &mut streams {
        let mut rest = Vec::new();
        let _ = s.read_to_end(&mut rest);
        assert!(String::from_utf8_lossy(&rest).ends_with("0\r\n\r\n") || rest.is_empty(), "{}", String::from_utf8_lossy(&rest));
    }
    // The database file is whole: the write-ahead log was copied in and emptied.
    let wal = dir.path().join("room.db-wal");
    assert!(std::fs::metadata(&wal).map(|m| m.len() == 0).unwrap_or(true), "the WAL was checkpointed at the stop");
    eprintln!("stopped {took:?} after SIGTERM");
}
