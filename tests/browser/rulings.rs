//! Real-browser test of the floor's rulings (BSOP 16-22) with two browsers at once: headless
//! Chromium driven through chromedriver against the real `cardroom serve --demo` binary on a
//! fresh SQLite database.
//!
//! The tablet browser (1024×768) is paired by the floor browser (`floor`, 1366×1000) with demo
//! table 2 (three players seated) and `dealer1` signs in on it. Then, in English and again in
//! Portuguese (the `cr_lang` cookie in both browsers): the dealer taps "Ask for a ruling",
//! names a seat and what happened, and sends it; the floor's board — open since before, never
//! reloaded (`window.__marker` survives) — shows it in its alert strip and on table 2's tile,
//! pushed through `/floor/stream`; the floor opens it, holds €20 of the pot aside (BSOP 21; the
//! stacks on record were counted at €100 each through the API first), types the decision and
//! releases the pot to the player of the seat named; the tablet shows the chips waiting for a
//! second staff member without a reload and the dealer confirms them (the player's stack on
//! record goes from €100 to €120); the ruling's page shows the decision and the chips moved,
//! and the incident log (`/floor/rulings`) lists it.
//!
//! Screenshots: `target/browser-rulings-{en,pt}-{tablet-ask,board,answer,decided,tablet,moved,log}.png`;
//! on failure `target/browser-rulings-failure.png` (and `-other` for the other browser).
//! Without chromedriver the test is skipped, unless `CARDROOM_REQUIRE_BROWSER=1`.

use crate::browser_support::*;
use fantoccini::{Client, Locator};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

const FLOOR_USER: &str = "floor";
const DEALER_USER: &str = "dealer1";
const DEMO_PASSWORD: &str = "demo-password";
/// Demo table 2: open, three players seated.
const TABLE_NUMBER: i64 = 2;
const WAIT: Duration = Duration::from_secs(10);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ruling_asked_on_the_tablet_reaches_the_board_live_is_decided_and_logged() {
    let Some(chromedriver) = chromedriver_or_skip() else {
        return;
    };
    let tmp = tempfile::tempdir().expect("temporary directory");
    let server =
        browser_app().spawn_binary(env!("CARGO_BIN_EXE_cardroom"), tmp.path(), &["--demo"]);
    let (webdriver_url, _chromedriver) = start_chromedriver(&chromedriver, tmp.path());
    let base = &server.base;
    let floor = open_session(
        &webdriver_url,
        tmp.path(),
        "chrome-profile-floor",
        1366,
        1000,
    )
    .await;
    let tablet = open_session(
        &webdriver_url,
        tmp.path(),
        "chrome-profile-tablet",
        1024,
        768,
    )
    .await;
    let (f, t) = (&floor, &tablet);

    // The floor signs in and pairs the tablet with table 2.
    sign_in_as(f, t, base, FLOOR_USER).await;
    goto(
        f,
        t,
        &format!("{base}/floor"),
        &format!("#tile-{TABLE_NUMBER}"),
    )
    .await;
    let table_id = js(
        f,
        "const e = document.getElementById(arguments[0]); return e ? e.getAttribute('data-id') : null;",
        vec![json!(format!("tile-{TABLE_NUMBER}"))],
    )
    .await
    .and_then(|v| v.as_str().map(str::to_string))
    .unwrap_or_default();
    goto(t, f, &format!("{base}/tablet"), "#pair-code").await;
    let code = text_of(t, "#pair-code")
        .await
        .unwrap_or_default()
        .trim()
        .to_string();
    goto(f, t, &format!("{base}/floor/tablets"), "#pair-form").await;
    type_text(f, t, "#pair-code", &code).await;
    let select = wait_el(f, t, "#pair-table").await;
    ok2(
        f,
        t,
        select.select_by_value(&table_id).await,
        "choosing the table to pair",
    )
    .await;
    click_and_load(
        f,
        t,
        "#pair-form button[type=submit]",
        "floor: pairing the tablet",
    )
    .await;
    // The tablet moves on by itself to the dealer's sign-in.
    wait_js(
        t,
        f,
        Duration::from_secs(15),
        "tablet: to reach /login after pairing",
        "return { path: location.pathname, ready: document.readyState === 'complete' };",
        vec![],
        |v| v["path"] == json!("/login") && v["ready"] == json!(true),
    )
    .await;
    sign_in_here(t, f, DEALER_USER).await;
    wait_el(t, f, "#ask-ruling").await;
    let token = admin_token(&server);

    for lang in ["en", "pt"] {
        if lang == "pt" {
            for (c, other) in [(f, t), (t, f)] {
                ok2(
                    c,
                    other,
                    c.execute(
                        "document.cookie = 'cr_lang=pt; path=/'; return true;",
                        vec![],
                    )
                    .await,
                    "choosing Portuguese",
                )
                .await;
            }
        }
        let shot = |what: &str| format!("browser-rulings-{lang}-{what}.png");

        // The dealer's counts: every stack at table 2 on record at €100.
        let seated = seated_at_table(&server, &token, &table_id);
        for (seating, _, _) in &seated {
            let (status, body) = http_json(
                server.addr,
                "POST",
                &format!("/api/v1/seatings/{seating}/count"),
                Some(&token),
                Some(&json!({ "stack": 10000 })),
            )
            .unwrap_or_else(|e| panic!("counting a stack: {e}"));
            assert_eq!(status, 200, "counting seating {seating}: {body}");
        }

        // The floor's board, open before the request and never reloaded after it.
        goto(
            f,
            t,
            &format!("{base}/floor"),
            &format!("#tile-{TABLE_NUMBER}"),
        )
        .await;
        wait_live(f, t, "floor").await;
        set_marker(f, t).await;
        goto(t, f, &format!("{base}/tablet"), "#ask-ruling").await;
        wait_live(t, f, "tablet").await;

        // The dealer asks: the first seat taken, and what happened.
        click_and_load(t, f, "#ask-ruling", "tablet: Ask for a ruling").await;
        let seat = js(
            t,
            "const b = document.querySelector('input[name=seat]'); return b ? b.value : null;",
            vec![],
        )
        .await
        .and_then(|v| v.as_str().map(str::to_string));
        let Some(seat) = seat else {
            die(t, f, "tablet: no seat to name on the ruling form").await
        };
        ok2(
            t,
            f,
            wait_el(t, f, &format!("#ruling-seat-{seat}"))
                .await
                .click()
                .await,
            "ticking the seat",
        )
        .await;
        let note = if lang == "en" {
            "Pot pushed to the wrong seat"
        } else {
            "Pote entregue ao lugar errado"
        };
        type_text(t, f, "#ruling-note", note).await;
        screenshot(t, &shot("tablet-ask")).await;
        click_and_load(t, f, "#ruling-send", "tablet: sending the request").await;
        if let Some(p) = text_of(t, "#tablet-problem").await {
            die(t, f, format!("tablet: the request was refused: {p}")).await;
        }
        let id = wait_js(
            t,
            f,
            WAIT,
            "tablet: the ruling to show on the table",
            "const e = document.querySelector('.tablet-ruling.open'); return e ? e.id : null;",
            vec![],
            |v| v.as_str().is_some(),
        )
        .await;
        let id: i64 = id
            .as_str()
            .unwrap_or_default()
            .trim_start_matches("ruling-")
            .parse()
            .unwrap_or(0);
        eprintln!("{lang}: ruling #{id} asked at table {TABLE_NUMBER}, seat {seat}");

        // The board shows it, pushed: the alert strip and the table's tile, no reload.
        let t0 = Instant::now();
        wait_js(f, t, WAIT, &format!("floor: ruling #{id} in the alert strip without a reload"),
            "const a = document.getElementById('ruling-alert-' + arguments[0]); const b = document.getElementById('tile-ruling-' + arguments[1]);\
             return { alert: a ? a.innerText : null, tile: b ? b.innerText : null, marker: window.__marker === undefined ? null : window.__marker };",
            vec![json!(id), json!(TABLE_NUMBER)],
            |v| v["marker"] == json!(1) && v["alert"].as_str().is_some_and(|s| s.contains(note)) && v["tile"].is_string()).await;
        eprintln!(
            "{lang}: the board showed it {:?} after the tablet's page came back",
            t0.elapsed()
        );
        screenshot(f, &shot("board")).await;

        // The floor answers: first the pot held aside (BSOP 21).
        click_and_load(
            f,
            t,
            &format!("#ruling-answer-{id}"),
            "floor: opening the ruling",
        )
        .await;
        wait_el(f, t, "#hold-form").await;
        type_text(f, t, "#hold-amount", "20").await;
        type_text(
            f,
            t,
            "#hold-storage",
            if lang == "en" {
                "Cage, box 2"
            } else {
                "Caixa, cofre 2"
            },
        )
        .await;
        click_and_load(f, t, "#hold-send", "floor: holding the pot").await;
        if let Some(p) = text_of(f, "#ruling-problem").await {
            die(f, t, format!("floor: holding the pot was refused: {p}")).await;
        }
        wait_el(f, t, "#ruling-pot").await;
        // The decision releases it to the player of the seat named.
        let decision = if lang == "en" {
            "The pot goes to the player in the seat named, who showed the better hand."
        } else {
            "O pote vai para o jogador do lugar indicado, que mostrou a melhor mão."
        };
        type_text(f, t, "#decide-decision", decision).await;
        type_text(f, t, "#decide-rule", "BSOP 21").await;
        let player = seated
            .iter()
            .find(|(_, s, _)| s.to_string() == seat)
            .map(|(_, _, p)| *p)
            .unwrap_or(0);
        type_text(f, t, &format!("#decide-release-{player}"), "20").await;
        full_page(f, &shot("answer")).await;
        click_and_load(f, t, "#decide-send", "floor: recording the decision").await;
        if let Some(p) = text_of(f, "#ruling-problem").await {
            die(f, t, format!("floor: the decision was refused: {p}")).await;
        }
        let shown = text_of(f, "#decision-text").await.unwrap_or_default();
        if shown.trim() != decision {
            die(
                f,
                t,
                format!("floor: the ruling's page shows {shown:?}, expected the decision"),
            )
            .await;
        }
        if find_now(f, "#chips-confirm").await.is_some() {
            die(
                f,
                t,
                "floor: the supervisor who recorded the chips is offered to confirm them too",
            )
            .await;
        }
        full_page(f, &shot("decided")).await;

        // The tablet shows the decision and the chips waiting, without a reload; the dealer is
        // the second staff member.
        wait_js(t, f, WAIT, "tablet: the decision and its chips to show",
            "const e = document.getElementById('ruling-' + arguments[0]); const b = document.getElementById('ruling-confirm-' + arguments[0]);\
             return { text: e ? e.innerText : null, confirm: !!b };", vec![json!(id)],
            |v| v["confirm"] == json!(true) && v["text"].as_str().is_some_and(|s| s.contains(decision))).await;
        screenshot(t, &shot("tablet")).await;
        click_and_load(
            t,
            f,
            &format!("#ruling-confirm-{id}"),
            "tablet: confirming the chips",
        )
        .await;
        if let Some(p) = text_of(t, "#tablet-problem").await {
            die(
                t,
                f,
                format!("tablet: confirming the chips was refused: {p}"),
            )
            .await;
        }
        let after = seated_at_table(&server, &token, &table_id);
        let stack = after
            .iter()
            .find(|(_, _, p)| *p == player)
            .map(|(s, _, _)| stack_of(&server, &token, &table_id, *s));
        if stack != Some(12000) {
            die(
                t,
                f,
                format!(
                    "after the release the player's stack on record is {stack:?}, expected 12000"
                ),
            )
            .await;
        }
        goto(f, t, &format!("{base}/floor/rulings/{id}"), "#ruling-chips").await;
        let state = text_of(f, "#chips-confirmed-by").await.unwrap_or_default();
        if !state.contains("Carlos Dealer") {
            die(
                f,
                t,
                format!("floor: the chips should say who confirmed them, got {state:?}"),
            )
            .await;
        }
        full_page(f, &shot("moved")).await;

        // The incident log lists it with the decision.
        goto(f, t, &format!("{base}/floor/rulings"), "#rulings-filter").await;
        let row = text_of(f, &format!("#ruling-row-{id}"))
            .await
            .unwrap_or_default();
        if !row.contains(decision) || !row.contains(note) {
            die(f, t, format!("floor: the log's row for #{id} is {row:?}")).await;
        }
        screenshot(f, &shot("log")).await;
    }
    for (name, c) in [("tablet", tablet), ("floor", floor)] {
        if let Err(e) = c.close().await {
            panic!("closing the {name} browser's session: {e}");
        }
    }
}

// ---- helpers ------------------------------------------------------------------------------

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

fn side(server: &Server, token: &str, table_id: &str) -> Value {
    let (status, body) = http_json(
        server.addr,
        "GET",
        &format!("/api/v1/tables/{table_id}/side"),
        Some(token),
        None,
    )
    .unwrap_or_else(|e| panic!("reading the table: {e}"));
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).unwrap_or(Value::Null)
}

/// The players seated at a table: (seating id, seat, player id).
fn seated_at_table(server: &Server, token: &str, table_id: &str) -> Vec<(i64, i64, i64)> {
    side(server, token, table_id)["seated"]
        .as_array()
        .map(|v| {
            v.iter()
                .filter_map(|s| {
                    Some((
                        s["side"]["seating_id"].as_i64()?,
                        s["seat_no"].as_i64()?,
                        s["player_id"].as_i64()?,
                    ))
                })
                .collect()
        })
        .unwrap_or_default()
}

fn stack_of(server: &Server, token: &str, table_id: &str, seating: i64) -> i64 {
    side(server, token, table_id)["seated"]
        .as_array()
        .and_then(|v| {
            v.iter()
                .find(|s| s["side"]["seating_id"].as_i64() == Some(seating))
        })
        .and_then(|s| s["side"]["stack"].as_i64())
        .unwrap_or(-1)
}

async fn find_now(c: &Client, css: &str) -> Option<fantoccini::elements::Element> {
    c.find(Locator::Css(css)).await.ok()
}

/// A screenshot of the whole page (the window made as tall as the page for it).
async fn full_page(c: &Client, name: &str) {
    let h = js(c, "return document.documentElement.scrollHeight;", vec![])
        .await
        .and_then(|v| v.as_u64())
        .unwrap_or(1000);
    let before = c.get_window_size().await.ok();
    let _ = c.set_window_size(1366, (h as u32 + 140).min(4000)).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    screenshot(c, name).await;
    if let Some((w, h)) = before {
        let _ = c.set_window_size(w as u32, h as u32).await;
    }
}

async fn die(c: &Client, other: &Client, what: impl std::fmt::Display) -> ! {
    screenshot(c, "browser-rulings-failure.png").await;
    screenshot(other, "browser-rulings-failure-other.png").await;
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

async fn js(c: &Client, script: &str, args: Vec<Value>) -> Option<Value> {
    c.execute(script, args).await.ok()
}

async fn text_of(c: &Client, css: &str) -> Option<String> {
    js(
        c,
        "const e = document.querySelector(arguments[0]); return e ? e.innerText : null;",
        vec![json!(css)],
    )
    .await
    .and_then(|v| v.as_str().map(str::to_string))
}

async fn wait_el(c: &Client, other: &Client, css: &str) -> fantoccini::elements::Element {
    let r = c.wait().at_most(WAIT).for_element(Locator::Css(css)).await;
    ok2(c, other, r, &format!("waiting for `{css}`")).await
}

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
    wait_el(c, other, wait_for).await;
}

async fn type_text(c: &Client, other: &Client, css: &str, text: &str) {
    let el = wait_el(c, other, css).await;
    ok2(c, other, el.clear().await, &format!("clearing `{css}`")).await;
    ok2(
        c,
        other,
        el.send_keys(text).await,
        &format!("typing into `{css}`"),
    )
    .await;
}

async fn set_marker(c: &Client, other: &Client) {
    ok2(
        c,
        other,
        c.execute("window.__marker = 1; return 1;", vec![]).await,
        "setting window.__marker",
    )
    .await;
}

/// Clicks `css` (retrying while htmx replaces the part under it, never twice) and waits for
/// the new document it leads to.
async fn click_and_load(c: &Client, other: &Client, css: &str, what: &str) {
    ok2(
        c,
        other,
        c.execute("window.__beforeClick = true; return true;", vec![])
            .await,
        "marking the page",
    )
    .await;
    let deadline = Instant::now() + WAIT;
    loop {
        if js(c, "return window.__beforeClick === true;", vec![]).await == Some(json!(false)) {
            break;
        }
        let clicked = match c.find(Locator::Css(css)).await {
            Ok(el) => el.click().await.is_ok(),
            Err(_) => false,
        };
        if clicked {
            break;
        }
        if Instant::now() >= deadline {
            die(c, other, format!("{what}: could not click `{css}`")).await;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let loaded = "return window.__beforeClick === undefined && document.readyState === 'complete';";
    let deadline = Instant::now() + WAIT;
    while js(c, loaded, vec![]).await != Some(json!(true)) {
        if Instant::now() >= deadline {
            die(
                c,
                other,
                format!("{what}: no new page after clicking `{css}`"),
            )
            .await;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn sign_in_as(c: &Client, other: &Client, base: &str, user: &str) {
    goto(c, other, &format!("{base}/login"), "#login-form").await;
    sign_in_here(c, other, user).await;
}

/// Signs in on the sign-in page the browser is at.
async fn sign_in_here(c: &Client, other: &Client, user: &str) {
    wait_el(c, other, "#login-form").await;
    type_text(c, other, "#login-form input[name=username]", user).await;
    type_text(c, other, "#login-form input[name=password]", DEMO_PASSWORD).await;
    click_and_load(c, other, "#login-submit", &format!("signing in as {user}")).await;
    let path = ok2(c, other, c.current_url().await, "reading the URL")
        .await
        .path()
        .to_string();
    if path == "/login" {
        die(
            c,
            other,
            format!("signing in as {user} did not leave /login"),
        )
        .await;
    }
}

/// Waits until `#live-status` says the page follows its event stream.
async fn wait_live(c: &Client, other: &Client, who: &str) {
    wait_js(
        c,
        other,
        WAIT,
        &format!("{who}: the event stream to be connected"),
        "const s = document.getElementById('live-status'); return s ? s.className : null;",
        vec![],
        |v| {
            v.as_str()
                .is_some_and(|s| s.split_whitespace().any(|x| x == "badge-ok"))
        },
    )
    .await;
}
