//! Real-browser test of the dealer tablet through a Wi-Fi drop: headless Chromium driven
//! through chromedriver against the real `cardroom serve --demo` binary on a fresh SQLite
//! database.
//!
//! The tablet (viewport 1024×768) is paired with demo table 2 through the API and `dealer1`
//! signs in. The floor sends the table two messages; the dealer opens the page of the player
//! at seat 1. The tablet is taken offline with chromedriver's network emulation
//! (`POST /session/{id}/chromium/network_conditions`): the banner says so at once. The dealer
//! taps three things: "Seen" on the first message, "Resting" for the player, "Seen" on the
//! second message; each waits on the tablet and is listed as waiting. Meanwhile the floor lets
//! the player leave (through the API). Back online: the banner says so, the taps are sent in
//! the order tapped, and the list "Sent while offline" shows the two messages applied and the
//! player's tap refused because the player left; the API shows each message seen once, in
//! that order.
//!
//! A second test sends the same "missed big blind" form twice (as a browser re-sends a form)
//! and finds one missed blind recorded (BSOP 36); a tap on the page rendered again counts.
//!
//! Without chromedriver the test is skipped, unless `CARDROOM_REQUIRE_BROWSER=1`. Screenshots:
//! `target/browser-offline-{offline,sent}.png`; on failure `target/browser-failure.png`.

use crate::browser_support::*;
use fantoccini::Client;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::{Duration, Instant};

const DEMO_PASSWORD: &str = "demo-password";
const TABLE_NUMBER: i64 = 2;

fn admin_token(server: &Server) -> String {
    let body = json!({ "username": "admin", "password": ADMIN_PASSWORD });
    let (status, text) = http_json(server.addr, "POST", "/api/v1/auth/login", None, Some(&body))
        .unwrap_or_else(|e| panic!("API sign-in as admin: {e}"));
    let v: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
    match (status, v["token"].as_str()) {
        (200, Some(t)) => t.to_string(),
        _ => panic!("POST /api/v1/auth/login as admin answered {status}: {text}"),
    }
}

fn api(server: &Server, method: &str, path: &str, token: &str, body: Option<Value>) -> Value {
    let (status, text) = http_json(server.addr, method, path, Some(token), body.as_ref())
        .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
    if !(200..300).contains(&status) {
        panic!("{method} {path} answered {status}: {text}");
    }
    serde_json::from_str(&text).unwrap_or(Value::Null)
}

/// A POST to chromedriver itself, read up to its `Content-Length` (chromedriver keeps the
/// connection open).
fn post_to_chromedriver(addr: SocketAddr, path: &str, body: &Value) -> (u16, String) {
    use std::io::{Read, Write};
    let payload = body.to_string();
    let mut s = std::net::TcpStream::connect(addr).expect("connecting to chromedriver");
    s.set_read_timeout(Some(Duration::from_secs(20))).ok();
    let req = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{payload}",
        payload.len()
    );
    s.write_all(req.as_bytes())
        .expect("writing to chromedriver");
    let mut raw = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let n = s
            .read(&mut buf)
            .unwrap_or_else(|e| panic!("POST {path}: {e}"));
        if n == 0 {
            break;
        }
        raw.extend_from_slice(&buf[..n]);
        if let Some(end) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&raw[..end]).to_ascii_lowercase();
            let len = head
                .lines()
                .find_map(|l| {
                    l.strip_prefix("content-length:")
                        .map(|v| v.trim().parse::<usize>().unwrap_or(0))
                })
                .unwrap_or(0);
            if raw.len() >= end + 4 + len {
                let status = head
                    .split_whitespace()
                    .nth(1)
                    .and_then(|c| c.parse().ok())
                    .unwrap_or(0);
                return (
                    status,
                    String::from_utf8_lossy(&raw[end + 4..end + 4 + len]).to_string(),
                );
            }
        }
    }
    panic!("POST {path}: chromedriver closed the connection without an answer");
}

/// Takes the browser offline or back online (chromedriver's Chromium network emulation).
async fn network(c: &Client, webdriver: &str, offline: bool) {
    let session = ok(c, c.session_id().await, "reading the session id")
        .await
        .expect("a session id");
    let addr: SocketAddr = webdriver
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .parse()
        .expect("chromedriver's address");
    let body = json!({ "network_conditions": {
        "offline": offline, "latency": 0, "download_throughput": -1, "upload_throughput": -1
    }});
    let (status, text) = post_to_chromedriver(
        addr,
        &format!("/session/{session}/chromium/network_conditions"),
        &body,
    );
    if status != 200 {
        fail(
            c,
            format!("chromedriver refused the network conditions ({status}): {text}"),
        )
        .await;
    }
}

/// Runs `script` every 200 ms until `done` holds (or fails after `secs` seconds).
async fn wait_js(
    c: &Client,
    secs: u64,
    what: &str,
    script: &str,
    done: impl Fn(&Value) -> bool,
) -> Value {
    let deadline = Instant::now() + Duration::from_secs(secs);
    let mut last = Value::Null;
    loop {
        if let Ok(v) = c.execute(script, vec![]).await {
            if done(&v) {
                return v;
            }
            last = v;
        }
        if Instant::now() >= deadline {
            fail(c, format!("waited {secs} s for {what}; last seen: {last}")).await;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

const JS_BANNER: &str = "const b = document.getElementById('offline-banner'); \
    return b ? { state: b.getAttribute('data-state'), hidden: b.hidden, text: b.textContent } : null;";

const JS_LIST: &str = "const l = document.getElementById('offline-sent-list'); \
    if (!l) { return null; } \
    return { path: location.pathname, shown: !document.getElementById('offline-sent').hidden, \
      items: Array.from(l.children).map(li => ({ state: li.getAttribute('data-state'), \
        what: (li.querySelector('.tablet-sent-what') || {}).textContent || '', \
        time: (li.querySelector('.tablet-sent-time') || {}).textContent || '', \
        why: (li.querySelector('.tablet-sent-why') || {}).textContent || '' })) };";

async fn click(c: &Client, css: &str) {
    let el = wait_css(c, css).await;
    ok(c, el.click().await, &format!("tapping `{css}`")).await;
}

/// The demo room's table 2 with its tablet paired (through the API) and `dealer1` signed in
/// on it, on the table's screen; seat 1's seating id.
struct Tablet {
    server: Server,
    webdriver_url: String,
    t: Client,
    token: String,
    table_id: i64,
    seating: i64,
    href: String,
    _chromedriver: ChildGuard,
    _tmp: tempfile::TempDir,
}

async fn paired_tablet() -> Option<Tablet> {
    let chromedriver = chromedriver_or_skip()?;
    let tmp = tempfile::tempdir().expect("temporary directory");
    let server =
        browser_app().spawn_binary(env!("CARGO_BIN_EXE_cardroom"), tmp.path(), &["--demo"]);
    let (webdriver_url, _chromedriver) = start_chromedriver(&chromedriver, tmp.path());
    let base = &server.base;
    let token = admin_token(&server);
    let tables = api(&server, "GET", "/api/v1/tables", &token, None);
    let table_id = tables
        .as_array()
        .and_then(|ts| ts.iter().find(|t| t["number"] == json!(TABLE_NUMBER)))
        .and_then(|t| t["id"].as_i64())
        .unwrap_or_else(|| panic!("demo table {TABLE_NUMBER} in {tables}"));

    let t = open_session(
        &webdriver_url,
        tmp.path(),
        "chrome-profile-tablet",
        1024,
        768,
    )
    .await;

    // Paired with table 2 (the floor, through the API); the dealer signs in.
    ok(
        &t,
        t.goto(&format!("{base}/tablet")).await,
        "opening /tablet",
    )
    .await;
    let code = ok(
        &t,
        wait_css(&t, "#pair-code").await.text().await,
        "reading #pair-code",
    )
    .await;
    api(
        &server,
        "POST",
        "/api/v1/tablets",
        &token,
        Some(json!({ "code": code.trim(), "table_id": table_id, "label": "Mesa 2" })),
    );
    wait_path(&t, "/login after pairing", |p| p == "/login").await;
    sign_in(&t, base, "dealer1", DEMO_PASSWORD).await;
    ok(
        &t,
        t.goto(&format!("{base}/tablet")).await,
        "opening /tablet",
    )
    .await;
    let href = ok(
        &t,
        wait_css(&t, "#seat-open-1").await.attr("href").await,
        "reading seat 1's link",
    )
    .await
    .expect("seat 1 is taken in the demo");
    let seating: i64 = href
        .rsplit('/')
        .next()
        .and_then(|s| s.parse().ok())
        .expect("seating id");

    Some(Tablet {
        server,
        webdriver_url,
        t,
        token,
        table_id,
        seating,
        href,
        _chromedriver,
        _tmp: tmp,
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn taps_made_offline_are_sent_in_order_when_back_and_a_player_who_left_is_refused() {
    let Some(Tablet {
        server,
        webdriver_url,
        t,
        token,
        table_id,
        seating,
        href,
        _chromedriver,
        _tmp,
        ..
    }) = paired_tablet().await
    else {
        return;
    };
    let base = &server.base;

    // Two messages from the floor; the dealer opens the player's page at seat 1.
    let m1 = api(
        &server,
        "POST",
        &format!("/api/v1/tables/{table_id}/floor-messages"),
        &token,
        Some(json!({ "body": "Primeira mensagem" })),
    )["id"]
        .as_i64()
        .unwrap();
    let m2 = api(
        &server,
        "POST",
        &format!("/api/v1/tables/{table_id}/floor-messages"),
        &token,
        Some(json!({ "body": "Segunda mensagem" })),
    )["id"]
        .as_i64()
        .unwrap();
    ok(
        &t,
        t.goto(&format!("{base}{href}")).await,
        "opening the seat's page",
    )
    .await;
    wait_css(&t, &format!("#seen-{m1}")).await;
    wait_css(&t, &format!("#seen-{m2}")).await;
    wait_css(&t, "#live-status.badge-ok").await;
    let banner = t.execute(JS_BANNER, vec![]).await.unwrap_or(Value::Null);
    assert_eq!(
        banner["hidden"],
        json!(true),
        "online: no banner ({banner})"
    );

    // Offline: the banner says so at once.
    network(&t, &webdriver_url, true).await;
    wait_js(&t, 10, "the offline banner", JS_BANNER, |v| {
        v["state"] == json!("offline") && v["hidden"] == json!(false)
    })
    .await;

    // Three taps, kept on the tablet, listed as waiting.
    click(&t, &format!("#seen-{m1}")).await;
    wait_js(&t, 5, "the first tap listed", JS_LIST, |v| {
        v["items"].as_array().is_some_and(|i| i.len() == 1)
    })
    .await;
    click(&t, "#toggle-resting").await;
    wait_js(&t, 5, "the second tap listed", JS_LIST, |v| {
        v["items"].as_array().is_some_and(|i| i.len() == 2)
    })
    .await;
    click(&t, &format!("#seen-{m2}")).await;
    let listed = wait_js(&t, 5, "three taps waiting", JS_LIST, |v| {
        v["items"]
            .as_array()
            .is_some_and(|i| i.len() == 3 && i.iter().all(|x| x["state"] == json!("pending")))
    })
    .await;
    let banner = t.execute(JS_BANNER, vec![]).await.unwrap_or(Value::Null);
    assert!(
        banner["text"].as_str().unwrap_or("").contains('3'),
        "the banner counts the taps waiting: {banner}"
    );
    assert!(
        listed["items"][1]["what"]
            .as_str()
            .unwrap_or("")
            .contains("1"),
        "the player's tap names the seat: {listed}"
    );
    screenshot(&t, "browser-offline-offline.png").await;

    // Meanwhile the floor lets the player at seat 1 leave.
    api(
        &server,
        "POST",
        &format!("/api/v1/seatings/{seating}/leave"),
        &token,
        Some(json!({ "reason": "Went home" })),
    );

    // Back online: the banner says so; the taps go in order; the list says what became of each.
    network(&t, &webdriver_url, false).await;
    let mut saw_back = false;
    let deadline = Instant::now() + Duration::from_secs(30);
    let done = loop {
        if let Ok(b) = t.execute(JS_BANNER, vec![]).await {
            if b["hidden"] == json!(false)
                && (b["state"] == json!("online") || b["state"] == json!("sending"))
            {
                saw_back = true;
            }
        }
        if let Ok(v) = t.execute(JS_LIST, vec![]).await {
            let settled = v["items"]
                .as_array()
                .is_some_and(|i| i.len() == 3 && i.iter().all(|x| x["state"] != json!("pending")));
            if settled && v["path"] == json!("/tablet") {
                break v;
            }
        }
        if Instant::now() >= deadline {
            let v = t.execute(JS_LIST, vec![]).await.unwrap_or(Value::Null);
            fail(
                &t,
                format!("waited 30 s for the three taps to be sent; the list: {v}"),
            )
            .await;
        }
        tokio::time::sleep(Duration::from_millis(150)).await;
    };
    assert!(saw_back, "the banner said the tablet was back online");
    let states: Vec<&str> = done["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["state"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(states, ["applied", "refused", "applied"], "{done}");
    let why = done["items"][1]["why"].as_str().unwrap_or("");
    assert!(
        why == "This player has already left the seat." || why == "Este jogador já deixou o lugar.",
        "refused because the player left: {done}"
    );
    assert!(
        done["items"]
            .as_array()
            .unwrap()
            .iter()
            .all(|i| i["time"].as_str().is_some_and(|s| s.len() == 5)),
        "each with the time tapped: {done}"
    );
    screenshot(&t, "browser-offline-sent.png").await;

    // Each message seen once, in the order tapped.
    let msgs = api(
        &server,
        "GET",
        &format!("/api/v1/tables/{table_id}/floor-messages"),
        &token,
        None,
    );
    let seen = |id: i64| {
        msgs.as_array()
            .and_then(|ms| ms.iter().find(|m| m["id"] == json!(id)))
            .and_then(|m| m["seen_at"].as_str().map(str::to_string))
            .unwrap_or_else(|| panic!("message {id} seen: {msgs}"))
    };
    assert!(seen(m1) <= seen(m2), "in the order tapped: {msgs}");
    // The player's tap was not applied to anyone: nobody at seat 1 is resting.
    let page = ok(&t, t.source().await, "reading the table page").await;
    assert!(
        !page.contains("id=\"seat-open-1\""),
        "seat 1 is free after the player left"
    );
}

/// The seat's missed big blinds, as the API reads them.
fn missed_bb(server: &Server, token: &str, table_id: i64, seating: i64) -> i64 {
    let side = api(
        server,
        "GET",
        &format!("/api/v1/tables/{table_id}/side"),
        token,
        None,
    );
    side["seated"]
        .as_array()
        .and_then(|s| s.iter().find(|x| x["side"]["seating_id"] == json!(seating)))
        .and_then(|x| x["side"]["missed_bb"].as_i64())
        .unwrap_or_else(|| panic!("seating {seating} at the table: {side}"))
}

/// BSOP 36 counts missed big blinds: the same "missed big blind" form sent twice (the browser
/// re-sending it, or the dealer tapping again after a lost answer) records one; a tap on the
/// page rendered again is another tap and counts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_missed_blind_form_sent_twice_records_one() {
    let Some(Tablet {
        server,
        t,
        token,
        table_id,
        seating,
        href,
        _chromedriver,
        _tmp,
        ..
    }) = paired_tablet().await
    else {
        return;
    };
    let base = &server.base;
    ok(
        &t,
        t.goto(&format!("{base}{href}")).await,
        "opening the seat's page",
    )
    .await;
    // Away first: the missed blinds are recorded while the player is away.
    click(&t, "#mark-away").await;
    wait_path(&t, "the table after the tap", |p| p == "/tablet").await;
    ok(
        &t,
        t.goto(&format!("{base}{href}")).await,
        "opening the seat's page again",
    )
    .await;
    wait_css(&t, "#missed-big").await;
    assert_eq!(missed_bb(&server, &token, table_id, seating), 0);

    // The form's own fields, posted twice as a browser re-sends a form.
    let answers = ok(
        &t,
        t.execute_async(
            "const done = arguments[arguments.length - 1]; \
             const f = document.getElementById('missed-big').form; \
             const body = () => new URLSearchParams(new FormData(f)); \
             const send = () => fetch(f.action, { method: 'POST', body: body(), \
               credentials: 'same-origin' }); \
             send().then(a => send().then(b => done([a.status, b.status, \
               f.querySelector('input[name=idempotency_key]').value.length]))) \
               .catch(e => done(String(e)));",
            vec![],
        )
        .await,
        "posting the form twice",
    )
    .await;
    let key_len = answers[2].as_i64().unwrap_or(0);
    assert!(key_len >= 16, "the form carries its key: {answers}");
    assert_eq!(
        answers[0], answers[1],
        "the second answer is the first one: {answers}"
    );
    assert_eq!(
        missed_bb(&server, &token, table_id, seating),
        1,
        "one missed big blind, not two"
    );

    // The page rendered again: a new form, a new key, a second missed blind.
    ok(
        &t,
        t.goto(&format!("{base}{href}")).await,
        "opening the seat's page again",
    )
    .await;
    click(&t, "#missed-big").await;
    let deadline = Instant::now() + Duration::from_secs(10);
    while missed_bb(&server, &token, table_id, seating) != 2 {
        if Instant::now() >= deadline {
            fail(
                &t,
                "a tap on the page rendered again records a second missed blind",
            )
            .await;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}
