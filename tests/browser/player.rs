//! Real-browser test of the player's own page `/p/{token}` on a phone-sized
//! window: headless Chromium driven through chromedriver (WebDriver) against the real
//! `cardroom serve --demo` binary on a fresh SQLite database.
//!
//! The floor works only through the JSON API (demo staff `floor`): on demo table 3 (open,
//! game "NL Hold'em 2/5", free seats, two players on the game's list) it puts the test player
//! (#34, English) on the list at place 3 and a Portuguese player (#33) behind them. The
//! player's link is read where a real player gets it: the "added" message in the outbox
//! (`GET /api/v1/messages`, written by the delivery worker to the local sink). The phone
//! (viewport 390×844) opens the link and shows place 3; `window.__marker` is set. The floor
//! seats the two players ahead (call next + seat): the phone shows place 1 without a reload
//! (the page polls `/p/{token}/state` every 3 s with its ETag). The floor calls the test player:
//! the phone shows the call with a ticking countdown, still without a reload; the player taps
//! "On my way" (a form: the page loads again). A second browser, signed in as `floor` on
//! `/floor` before the call and never reloaded, shows the "On my way" mark on that call.
//! Finally the Portuguese player's link shows the page in Portuguese although the browser
//! asks for English (the player's record decides). No phone page overflows 390 px.
//!
//! Without chromedriver the test is skipped, unless `CARDROOM_REQUIRE_BROWSER=1` (set by
//! `tests/run.sh`), which makes a missing browser a failure. Screenshots go to
//! `target/browser-player-*.png` (place3, place1, call, on-my-way, pt, floor); on failure
//! `target/browser-player-failure.png` (the browser that failed) and
//! `target/browser-player-failure-other.png` (the other one). The layout of each phone page
//! (viewport, document width, tap targets under 44 px) is printed; only the width is asserted.

use crate::browser_support::*;
use fantoccini::{Client, Locator};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// Demo staff account (src/demo.rs) and its password.
const FLOOR_USER: &str = "floor";
const DEMO_PASSWORD: &str = "demo-password";
/// Demo table 3: open, six players seated, game "NL Hold'em 2/5", whose list has two players.
const TABLE_NUMBER: i64 = 3;
/// Demo players neither seated nor listed nor banned (the demo seats or lists the first 30
/// eligible of 36; #8 has no photo, #12 is banned). #34 prefers English, #33, #35 and #36
/// Portuguese (src/demo.rs: every third player is English).
const TEST_PLAYER: i64 = 34;
const PT_PLAYER: i64 = 33;
/// Put on the list first when the game's list holds fewer than two players.
const FILLERS: [i64; 2] = [35, 36];
/// The place the test player starts at.
const START_PLACE: i64 = 3;
/// Phone viewport.
const PHONE_W: u32 = 390;
const PHONE_H: u32 = 844;
/// How long the phone may take to show a change (it polls every 3 s).
const LIVE_WAIT: Duration = Duration::from_secs(15);
/// How long a page load, an element or a message may take.
const PAGE_WAIT: Duration = Duration::from_secs(10);
const MESSAGE_WAIT: Duration = Duration::from_secs(20);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn player_page_follows_the_list_live_on_a_phone_and_answers_the_call() {
    let Some(chromedriver) = chromedriver_or_skip() else {
        return;
    };

    // Declared first so it is removed last, after the processes using it are gone.
    let tmp = tempfile::tempdir().expect("temporary directory");
    let started = Instant::now();
    let server =
        browser_app().spawn_binary(env!("CARGO_BIN_EXE_cardroom"), tmp.path(), &["--demo"]);
    eprintln!("server with the demo room up after {:?}", started.elapsed());
    let (webdriver_url, _chromedriver) = start_chromedriver(&chromedriver, tmp.path());
    let base = server.base.clone();
    let token = floor_token(&server);

    // 1. The floor (API): table 3, its game, its free seats and its list.
    let (status, body) = api(&server, "GET", "/api/v1/tables", &token, None);
    let tables: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
    let table = tables
        .as_array()
        .into_iter()
        .flatten()
        .find(|t| t["number"].as_i64() == Some(TABLE_NUMBER))
        .cloned();
    let Some(table) = table else {
        panic!("GET /api/v1/tables ({status}) lists no table {TABLE_NUMBER}: {body}")
    };
    let (table_id, game_id) = (
        table["id"].as_i64().unwrap_or_default(),
        table["game_id"].as_i64().unwrap_or_default(),
    );
    if table["state"].as_str() == Some("closed") {
        let (status, body) = api(
            &server,
            "POST",
            &format!("/api/v1/tables/{table_id}/open"),
            &token,
            Some(json!({})),
        );
        assert_eq!(status, 200, "opening table {TABLE_NUMBER}: {body}");
    }
    let free = free_seats(&server, &token, table_id);
    assert!(free.len() >= 3, "table {TABLE_NUMBER} needs 3 free seats (two players ahead, then the test player), has {free:?}");
    let mut waiting = list_len(&server, &token, game_id);
    let mut fillers = FILLERS.iter();
    while waiting < (START_PLACE - 1) as usize {
        let p = *fillers.next().unwrap_or_else(|| {
            panic!("not enough spare demo players to fill game {game_id}'s list")
        });
        join(&server, &token, game_id, p);
        waiting += 1;
    }
    assert_eq!(
        waiting,
        (START_PLACE - 1) as usize,
        "game {game_id}'s list must hold exactly {} players before the test player",
        START_PLACE - 1
    );
    let line = join(&server, &token, game_id, TEST_PLAYER);
    let entry_id = line["entry_id"].as_i64().expect("entry_id");
    assert_eq!(
        line["position"].as_i64(),
        Some(START_PLACE),
        "the test player's place on the floor's list: {line}"
    );
    join(&server, &token, game_id, PT_PLAYER);
    eprintln!("table {TABLE_NUMBER} (id {table_id}), game {game_id}, free seats {free:?}; player #{TEST_PLAYER} at place {START_PLACE} (entry {entry_id})");

    // The player's link, from the "added" message the floor's action sent them.
    let link = player_link(&server, &token, TEST_PLAYER).await;
    let pt_link = player_link(&server, &token, PT_PLAYER).await;
    eprintln!("player's link from the outbox: {link}");

    // 2. The phone opens the link: place 3.
    let phone = open_session(
        &webdriver_url,
        tmp.path(),
        "chrome-profile-phone",
        PHONE_W,
        PHONE_H,
    )
    .await;
    let floor = open_session(
        &webdriver_url,
        tmp.path(),
        "chrome-profile-floor",
        1366,
        1000,
    )
    .await;
    let (p, f) = (&phone, &floor);
    goto(p, f, &link, "#plink-state").await;
    let entry_css = format!("#plink-entry-{entry_id}");
    let seen = read_entry(p, &entry_css).await;
    if seen["position"] != json!(START_PLACE.to_string())
        || !seen["text"]
            .as_str()
            .is_some_and(|t| t.contains("2 players ahead of you"))
    {
        die(
            p,
            f,
            format!(
                "phone: {entry_css} should show place {START_PLACE} with 2 players ahead ({seen})"
            ),
        )
        .await;
    }
    if seen["lang"] != json!("en") {
        die(
            p,
            f,
            format!("phone: the English player's page should be in English ({seen})"),
        )
        .await;
    }
    layout_check(p, f, "place 3").await;
    screenshot(p, "browser-player-place3.png").await;
    docs_screenshot(p, "player-place.png", PHONE_W, PHONE_H).await;
    set_marker(p, f, 1).await;

    // 3. The floor seats the two players ahead (call next + seat, through the API).
    for seat in &free[..2] {
        let call = call_next(&server, &token, table_id, *seat);
        let who = call["player_id"].as_i64().unwrap_or_default();
        if who == TEST_PLAYER {
            die(p, f, format!("the floor's call for seat {seat} went to the test player, not to a player ahead ({call})")).await;
        }
        seat_call(&server, &token, call["id"].as_i64().unwrap_or_default());
    }
    let t0 = Instant::now();
    let seen = wait_js(
        p,
        f,
        LIVE_WAIT,
        &format!("phone: {entry_css} to show place 1 without a reload"),
        JS_ENTRY,
        vec![json!(entry_css)],
        |v| v["position"] == json!("1") && v["marker"] == json!(1),
    )
    .await;
    eprintln!(
        "phone showed place 1 {:?} after the second seating (no reload): {:?}",
        t0.elapsed(),
        seen["text"]
    );
    if !seen["text"]
        .as_str()
        .is_some_and(|t| t.contains("Nobody ahead of you"))
    {
        die(
            p,
            f,
            format!("phone: at place 1 the page should say nobody is ahead ({seen})"),
        )
        .await;
    }
    layout_check(p, f, "place 1").await;
    screenshot(p, "browser-player-place1.png").await;

    // 4. The floor's board, open before the call on the table's panel, follows its event
    // stream.
    ok2(
        f,
        p,
        f.goto(&format!("{base}/login")).await,
        "floor: opening /login",
    )
    .await;
    sign_in(f, p).await;
    goto(
        f,
        p,
        &format!("{base}/floor?table={TABLE_NUMBER}"),
        &format!("#panel #table-{TABLE_NUMBER}"),
    )
    .await;
    wait_live_connected(f, p).await;
    set_marker(f, p, 1).await;

    // The floor calls the test player to the third free seat.
    let seat = free[2];
    let call = call_next(&server, &token, table_id, seat);
    let call_id = call["id"].as_i64().unwrap_or_default();
    if call["player_id"].as_i64() != Some(TEST_PLAYER) {
        die(
            p,
            f,
            format!(
                "the call for seat {seat} should go to player #{TEST_PLAYER} (place 1): {call}"
            ),
        )
        .await;
    }
    let t0 = Instant::now();
    let seen = wait_js(
        p,
        f,
        LIVE_WAIT,
        "phone: the seat call with its countdown, without a reload",
        JS_CALL,
        vec![json!(entry_css)],
        |v| {
            v["marker"] == json!(1)
                && v["button"] == json!(true)
                && v["countdown"].as_str().is_some_and(is_countdown)
        },
    )
    .await;
    eprintln!(
        "phone showed the call {:?} after it was made (no reload): {:?}, countdown {}",
        t0.elapsed(),
        seen["where"],
        seen["countdown"]
    );
    let expected_where = format!("Table {TABLE_NUMBER}, seat {seat}");
    if seen["where"].as_str() != Some(expected_where.as_str()) {
        die(
            p,
            f,
            format!("phone: the call should read {expected_where:?} ({seen})"),
        )
        .await;
    }
    // The countdown ticks in the browser: sampled every 250 ms for 4 s (at least one poll of
    // the state falls in it), it must go down by about 4 s. Steps back up are printed.
    let mut samples = vec![countdown_secs(&seen)];
    let t0 = Instant::now();
    while t0.elapsed() < Duration::from_secs(4) {
        tokio::time::sleep(Duration::from_millis(250)).await;
        samples.push(
            js(p, JS_CALL, vec![json!(entry_css)])
                .await
                .as_ref()
                .and_then(countdown_secs),
        );
    }
    let secs: Vec<i64> = samples.iter().flatten().copied().collect();
    let ups = secs.windows(2).filter(|w| w[1] > w[0]).count();
    eprintln!(
        "countdown over 4 s (every 250 ms): {secs:?}{}",
        if ups > 0 {
            format!(" — went UP {ups} time(s)")
        } else {
            String::new()
        }
    );
    match (secs.first(), secs.last()) {
        (Some(&a), Some(&b)) if secs.len() == samples.len() && (2..=6).contains(&(a - b)) && b > 0 => {}
        _ => die(p, f, format!("phone: the countdown should tick down by about 4 s in 4 s, read every 250 ms: {samples:?}")).await,
    }
    layout_check(p, f, "seat call").await;
    screenshot(p, "browser-player-call.png").await;
    docs_screenshot(p, "player-call.png", PHONE_W, PHONE_H).await;

    // 5. The player taps "On my way" (a form: 303 back to the page, which loads again).
    click_and_load(p, f, "#plink-on-my-way", "phone: tapping On my way").await;
    let path = current_path(p, f).await;
    if !link.ends_with(&path) {
        die(
            p,
            f,
            format!("phone: after On my way the browser is at {path}, not back at the link"),
        )
        .await;
    }
    let answer = js(p, JS_ANSWER, vec![]).await.unwrap_or(Value::Null);
    if answer["answer"] != json!("on_my_way")
        || answer["button"] != json!(false)
        || answer["notice"].is_string()
    {
        die(
            p,
            f,
            format!(
                "phone: after On my way the page should confirm it and hide the button ({answer})"
            ),
        )
        .await;
    }
    eprintln!("phone after On my way: {:?}", answer["text"]);
    layout_check(p, f, "after On my way").await;
    screenshot(p, "browser-player-on-my-way.png").await;

    // The floor's board (not reloaded since before the call) shows the answer on the call, in
    // the table's panel and on its tile.
    let t0 = Instant::now();
    let seen = wait_js(
        f,
        p,
        PAGE_WAIT,
        &format!("floor: the call {call_id} to show \"On my way\", without a reload"),
        JS_FLOOR_ANSWER,
        vec![json!(call_id), json!(TABLE_NUMBER)],
        |v| {
            v["marker"] == json!(1)
                && v["answer"] == json!("on_my_way")
                && v["tile"] == json!("on_my_way")
        },
    )
    .await;
    let label = seen["label"].as_str().unwrap_or_default();
    if label != "On my way" && label != "A caminho" {
        die(
            f,
            p,
            format!("floor: the answer's mark should read On my way / A caminho ({seen})"),
        )
        .await;
    }
    eprintln!(
        "floor showed the answer {:?} after the tap (no reload): {:?}",
        t0.elapsed(),
        seen["text"]
    );
    let scroll = "const f = document.querySelector('form[action=\"/floor/calls/' + arguments[0] + '/seat\"]');\
                  if (f) f.scrollIntoView({ block: 'center' }); return !!f;";
    let _ = js(f, scroll, vec![json!(call_id)]).await;
    screenshot(f, "browser-player-floor.png").await;
    docs_screenshot(f, "floor-call.png", 1440, 900).await;

    // 6. The Portuguese player's link: Portuguese, whatever the browser asks for (en-US).
    goto(p, f, &pt_link, "#plink-state").await;
    let pt = js(p, JS_PAGE_TEXT, vec![]).await.unwrap_or(Value::Null);
    let text = pt["text"].as_str().unwrap_or_default();
    if pt["lang"] != json!("pt") || !text.contains("O seu lugar") || !text.contains("Olá") {
        die(p, f, format!("phone: player #{PT_PLAYER}'s page should be in Portuguese (lang pt, \"Olá\", \"O seu lugar\"): {pt}")).await;
    }
    if pt["accept"] != json!("en-US") {
        eprintln!(
            "note: the browser's first language is {} (expected en-US)",
            pt["accept"]
        );
    }
    layout_check(p, f, "Portuguese").await;
    screenshot(p, "browser-player-pt.png").await;

    for (name, c) in [("phone", phone), ("floor", floor)] {
        if let Err(e) = c.close().await {
            panic!("closing the {name} browser's session: {e}");
        }
    }
}

// ---- scripts run in the browsers ----------------------------------------------------------

/// A list card on the player's page: its text, the place, the page's marker and language.
const JS_ENTRY: &str = "const e = document.querySelector(arguments[0]);\
    const p = e ? e.querySelector('.plink-pos[data-position]') : null;\
    return { text: e ? e.innerText : null, position: p ? p.getAttribute('data-position') : null,\
             marker: window.__marker === undefined ? null : window.__marker, lang: document.documentElement.lang };";

/// The seat call on a list card: where, the countdown, the "On my way" button, the marker.
const JS_CALL: &str = "const e = document.querySelector(arguments[0]);\
    const w = e ? e.querySelector('.plink-where') : null; const c = e ? e.querySelector('.countdown[data-deadline]') : null;\
    return { called: !!e && e.classList.contains('plink-called'), where: w ? w.innerText.trim() : null,\
             countdown: c ? c.innerText.trim() : null, button: !!document.getElementById('plink-on-my-way'),\
             marker: window.__marker === undefined ? null : window.__marker };";

/// The player's answer shown on their page.
const JS_ANSWER: &str = "const a = document.getElementById('plink-answer'); const n = document.getElementById('plink-notice');\
    return { answer: a ? a.getAttribute('data-answer') : null, text: a ? a.innerText : null,\
             button: !!document.getElementById('plink-on-my-way'), notice: n ? n.innerText : null };";

/// The floor's call (found by its seat form in the table's panel): the player's answer
/// badge, the answer on the table's tile (`#tile-N .player-answer`), with the marker.
const JS_FLOOR_ANSWER: &str = "const f = document.querySelector('#panel form[action=\"/floor/calls/' + arguments[0] + '/seat\"]');\
    const li = f ? f.closest('li') : null; const a = li ? li.querySelector('.player-answer') : null;\
    const t = document.querySelector('#tile-' + arguments[1] + ' .player-answer');\
    return { text: li ? li.innerText : null, answer: a ? a.getAttribute('data-answer') : null,\
             tile: t ? t.getAttribute('data-answer') : null,\
             label: a ? a.innerText.trim() : null, marker: window.__marker === undefined ? null : window.__marker };";

const JS_PAGE_TEXT: &str = "return { text: document.body ? document.body.innerText : '', lang: document.documentElement.lang,\
    accept: navigator.languages && navigator.languages[0] };";

/// The layout of a phone page: viewport, document width, tap targets under 44 px.
const JS_LAYOUT: &str = "const r = { w: innerWidth, h: innerHeight, scrollW: document.documentElement.scrollWidth,\
      scrollH: document.documentElement.scrollHeight, small: [], clipped: [] };\
    for (const el of document.querySelectorAll('a[href], button, input:not([type=hidden]), select, summary')) {\
      const b = el.getBoundingClientRect(); if (b.width === 0 && b.height === 0) continue;\
      const name = (el.id ? '#' + el.id : el.tagName.toLowerCase()) + ' ' + (el.innerText || el.value || el.name || '').trim().slice(0, 30);\
      if (b.height < 44 || b.width < 44) r.small.push(name + ' ' + Math.round(b.width) + 'x' + Math.round(b.height));\
      if (b.right > innerWidth + 1) r.clipped.push(name + ' right edge ' + Math.round(b.right));\
    }\
    return r;";

// ---- the floor through the API -------------------------------------------------------------

/// The floor manager's API token (`POST /api/v1/auth/login`).
fn floor_token(server: &Server) -> String {
    let body = json!({ "username": FLOOR_USER, "password": DEMO_PASSWORD });
    let (status, text) = http_json(server.addr, "POST", "/api/v1/auth/login", None, Some(&body))
        .unwrap_or_else(|e| panic!("API sign-in as {FLOOR_USER}: {e}"));
    let v: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
    match (status, v["token"].as_str()) {
        (200, Some(t)) => t.to_string(),
        _ => panic!("POST /api/v1/auth/login as {FLOOR_USER} answered {status}: {text}"),
    }
}

fn api(
    server: &Server,
    method: &str,
    path: &str,
    token: &str,
    body: Option<Value>,
) -> (u16, String) {
    http_json(server.addr, method, path, Some(token), body.as_ref())
        .unwrap_or_else(|e| panic!("API call failed: {e}"))
}

fn api_json(
    server: &Server,
    method: &str,
    path: &str,
    token: &str,
    body: Option<Value>,
    want: &[u16],
) -> Value {
    let (status, text) = api(server, method, path, token, body);
    if !want.contains(&status) {
        panic!("{method} {path} answered {status} (expected {want:?}): {text}");
    }
    serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{method} {path}: not JSON ({e}): {text}"))
}

/// The empty seats of a table (neither taken nor called nor held).
fn free_seats(server: &Server, token: &str, table_id: i64) -> Vec<i64> {
    let v = api_json(
        server,
        "GET",
        &format!("/api/v1/tables/{table_id}/seats"),
        token,
        None,
        &[200],
    );
    v["seats"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|s| s["state"] == json!("empty"))
        .filter_map(|s| s["seat_no"].as_i64())
        .collect()
}

/// How many players the game's list holds.
fn list_len(server: &Server, token: &str, game_id: i64) -> usize {
    let v = api_json(
        server,
        "GET",
        &format!("/api/v1/games/{game_id}/waitlist"),
        token,
        None,
        &[200],
    );
    v["lines"].as_array().map_or(0, Vec::len)
}

/// Adds a player to a game's list; the list line (entry id, place).
fn join(server: &Server, token: &str, game_id: i64, player: i64) -> Value {
    api_json(
        server,
        "POST",
        &format!("/api/v1/games/{game_id}/waitlist"),
        token,
        Some(json!({ "player_id": player, "call_in": false })),
        &[201],
    )
}

fn call_next(server: &Server, token: &str, table_id: i64, seat: i64) -> Value {
    api_json(
        server,
        "POST",
        &format!("/api/v1/tables/{table_id}/seats/{seat}/call-next"),
        token,
        Some(json!({})),
        &[201],
    )
}

fn seat_call(server: &Server, token: &str, call_id: i64) {
    api_json(
        server,
        "POST",
        &format!("/api/v1/seat-calls/{call_id}/seat"),
        token,
        Some(json!({})),
        &[200, 201],
    );
}

/// The player's link as the "added" message carries it (`GET /api/v1/messages`): the body is
/// written by the delivery worker at the first attempt, so this waits for it.
async fn player_link(server: &Server, token: &str, player: i64) -> String {
    let deadline = Instant::now() + MESSAGE_WAIT;
    loop {
        let v = api_json(
            server,
            "GET",
            &format!("/api/v1/messages?player_id={player}"),
            token,
            None,
            &[200],
        );
        let link = v
            .as_array()
            .into_iter()
            .flatten()
            .filter(|m| m["kind"] == json!("added"))
            .find_map(|m| m["body"].as_str().and_then(link_in));
        if let Some(l) = link {
            // A text message carries its short address (`/m/…`), which leads to the link.
            let l = match l.strip_prefix(&format!("{}/m/", server.base)) {
                Some(code) => {
                    let to = http_location(server.addr, &format!("/m/{code}"))
                        .unwrap_or_else(|| panic!("the short link {l} leads nowhere"));
                    format!("{}{to}", server.base)
                }
                None => l,
            };
            if !l.starts_with(&format!("{}/p/", server.base)) {
                panic!(
                    "player #{player}'s link {l:?} does not point at this server ({})",
                    server.base
                );
            }
            return l;
        }
        if Instant::now() >= deadline {
            panic!("no \"added\" message with a link for player #{player} within {MESSAGE_WAIT:?}: {v}");
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

/// The first `http…/p/{token}` address in a text.
fn link_in(text: &str) -> Option<String> {
    text.split_whitespace()
        .filter(|w| w.starts_with("http") && (w.contains("/p/") || w.contains("/m/")))
        .map(|w| {
            w.trim_end_matches(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
                .to_string()
        })
        .next()
}

// ---- browser helpers -----------------------------------------------------------------------

/// Fails the test: screenshots of both browsers, where the other one was, and where the
/// failing one is.
async fn die(c: &Client, other: &Client, what: impl std::fmt::Display) -> ! {
    screenshot(c, "browser-player-failure.png").await;
    screenshot(other, "browser-player-failure-other.png").await;
    eprintln!("the other browser:\n{}", where_we_are(other).await);
    panic!("{what}\n{}", where_we_are(c).await);
}

async fn ok2<T>(
    c: &Client,
    other: &Client,
    r: Result<T, fantoccini::error::CmdError>,
    what: &str,
) -> T {
    match r {
        Ok(v) => v,
        Err(e) => die(c, other, format!("{what}: {e}")).await,
    }
}

/// Runs a script and returns its value; errors (e.g. while a page is being replaced) as `None`.
async fn js(c: &Client, script: &str, args: Vec<Value>) -> Option<Value> {
    c.execute(script, args).await.ok()
}

async fn read_entry(c: &Client, css: &str) -> Value {
    js(c, JS_ENTRY, vec![json!(css)])
        .await
        .unwrap_or(Value::Null)
}

/// Waits (up to [`PAGE_WAIT`]) for an element.
async fn wait_el(
    c: &Client,
    other: &Client,
    css: &str,
    what: &str,
) -> fantoccini::elements::Element {
    let r = c
        .wait()
        .at_most(PAGE_WAIT)
        .for_element(Locator::Css(css))
        .await;
    ok2(
        c,
        other,
        r,
        &format!("waiting up to {PAGE_WAIT:?} for {what} (`{css}`)"),
    )
    .await
}

/// Polls `script` until `pred` holds on its value (up to `timeout`); returns that value, or
/// fails with the last one seen.
async fn wait_js(
    c: &Client,
    other: &Client,
    timeout: Duration,
    describe: &str,
    script: &str,
    args: Vec<Value>,
    pred: impl Fn(&Value) -> bool,
) -> Value {
    let deadline = Instant::now() + timeout;
    loop {
        let v = js(c, script, args.clone()).await.unwrap_or(Value::Null);
        if pred(&v) {
            return v;
        }
        if Instant::now() >= deadline {
            die(
                c,
                other,
                format!("waited {timeout:?} for {describe}; last seen: {v}"),
            )
            .await;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn goto(c: &Client, other: &Client, url: &str, wait_for: &str) {
    ok2(c, other, c.goto(url).await, &format!("opening {url}")).await;
    wait_el(c, other, wait_for, &format!("{url} to show its content")).await;
}

async fn current_path(c: &Client, other: &Client) -> String {
    ok2(c, other, c.current_url().await, "reading the current URL")
        .await
        .path()
        .to_string()
}

async fn type_text(c: &Client, other: &Client, css: &str, text: &str) {
    let el = wait_el(c, other, css, &format!("the field {css}")).await;
    ok2(c, other, el.clear().await, &format!("clearing `{css}`")).await;
    ok2(
        c,
        other,
        el.send_keys(text).await,
        &format!("typing into `{css}`"),
    )
    .await;
}

async fn set_marker(c: &Client, other: &Client, n: i64) {
    let r = c
        .execute(
            "window.__marker = arguments[0]; return window.__marker;",
            vec![json!(n)],
        )
        .await;
    ok2(c, other, r, "setting window.__marker").await;
}

/// Clicks `css` (retrying while the part under it is replaced, never twice) and waits for
/// the new document it leads to (a form's POST and its redirect).
async fn click_and_load(c: &Client, other: &Client, css: &str, what: &str) {
    ok2(
        c,
        other,
        c.execute("window.__beforeClick = true; return true;", vec![])
            .await,
        "marking the page before clicking",
    )
    .await;
    let deadline = Instant::now() + PAGE_WAIT;
    let mut last_error;
    loop {
        // A click that reported an error may still have gone through: never click twice.
        if js(c, "return window.__beforeClick === true;", vec![]).await == Some(json!(false)) {
            break;
        }
        match c.find(Locator::Css(css)).await {
            Ok(el) => match el.click().await {
                Ok(()) => break,
                Err(e) => last_error = format!("click: {e}"),
            },
            Err(e) => last_error = format!("find: {e}"),
        }
        if Instant::now() >= deadline {
            die(c, other, format!("{what}: could not click `{css}` within {PAGE_WAIT:?} (last error: {last_error})")).await;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let loaded = "return window.__beforeClick === undefined && document.readyState === 'complete';";
    let deadline = Instant::now() + PAGE_WAIT;
    while js(c, loaded, vec![]).await != Some(json!(true)) {
        if Instant::now() >= deadline {
            die(
                c,
                other,
                format!("{what}: after clicking `{css}`, no new page within {PAGE_WAIT:?}"),
            )
            .await;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Signs in as the floor manager on the page `/login` the browser is at.
async fn sign_in(c: &Client, other: &Client) {
    wait_el(c, other, "#login-form", "the sign-in form").await;
    type_text(c, other, "#login-form input[name=username]", FLOOR_USER).await;
    type_text(c, other, "#login-form input[name=password]", DEMO_PASSWORD).await;
    click_and_load(
        c,
        other,
        "#login-submit",
        &format!("signing in as {FLOOR_USER}"),
    )
    .await;
    if current_path(c, other).await == "/login" {
        let e = js(
            c,
            "const e = document.getElementById('login-error'); return e ? e.innerText : null;",
            vec![],
        )
        .await;
        die(c, other, format!("signing in as {FLOOR_USER:?} / {DEMO_PASSWORD:?} did not leave /login (#login-error: {e:?})")).await;
    }
}

/// Waits until `#live-status` says the floor page follows its event stream (`badge-ok`, set
/// by static/floor.js when the EventSource opens).
async fn wait_live_connected(c: &Client, other: &Client) {
    let script = "const s = document.getElementById('live-status'); return s ? s.className : null;";
    wait_js(
        c,
        other,
        PAGE_WAIT,
        "floor: #live-status to say the event stream is connected (badge-ok)",
        script,
        vec![],
        |v| {
            v.as_str()
                .is_some_and(|s| s.split_whitespace().any(|x| x == "badge-ok"))
        },
    )
    .await;
}

/// Prints how a phone page fits the viewport and fails on horizontal overflow.
async fn layout_check(c: &Client, other: &Client, page: &str) {
    let Some(v) = js(c, JS_LAYOUT, vec![]).await else {
        die(
            c,
            other,
            format!("phone: could not read the layout of the {page} page"),
        )
        .await
    };
    eprintln!(
        "layout of the phone's {page} page: viewport {}×{}, document {}×{}",
        v["w"], v["h"], v["scrollW"], v["scrollH"]
    );
    for (key, label) in [
        ("small", "tap targets under 44 px"),
        ("clipped", "past the right edge"),
    ] {
        if let Some(list) = v[key].as_array().filter(|l| !l.is_empty()) {
            eprintln!(
                "  {label}: {}",
                list.iter()
                    .filter_map(Value::as_str)
                    .collect::<Vec<_>>()
                    .join("; ")
            );
        }
    }
    if v["w"].as_u64() != Some(PHONE_W as u64) {
        die(
            c,
            other,
            format!(
                "phone: the {page} page's viewport is {} px wide, expected {PHONE_W}",
                v["w"]
            ),
        )
        .await;
    }
    if v["scrollW"].as_u64().is_none_or(|w| w > PHONE_W as u64) {
        die(c, other, format!("phone: the {page} page overflows horizontally: document {} px wide in a {PHONE_W} px viewport ({v})", v["scrollW"])).await;
    }
}

/// "M:SS", as static/player.js writes the countdown.
fn is_countdown(s: &str) -> bool {
    let Some((m, sec)) = s.split_once(':') else {
        return false;
    };
    !m.is_empty()
        && m.chars().all(|c| c.is_ascii_digit())
        && sec.len() == 2
        && sec.chars().all(|c| c.is_ascii_digit())
}

fn countdown_secs(v: &Value) -> Option<i64> {
    let (m, s) = v["countdown"].as_str()?.split_once(':')?;
    Some(m.parse::<i64>().ok()? * 60 + s.parse::<i64>().ok()?)
}

#[test]
fn reads_links_and_countdowns() {
    let body =
        "You are number 3 on the NL list. Your place, live: http://127.0.0.1:4000/p/aa.bb-c.d_e.";
    assert_eq!(
        link_in(body).as_deref(),
        Some("http://127.0.0.1:4000/p/aa.bb-c.d_e")
    );
    assert_eq!(link_in("no link here"), None);
    assert!(is_countdown("4:59") && is_countdown("12:00"));
    assert!(!is_countdown("4:5") && !is_countdown("16:42 ") && !is_countdown(""));
    assert_eq!(countdown_secs(&json!({ "countdown": "2:05" })), Some(125));
}
