//! Real-browser test of a limit change's announcement on the dealer tablet (PT-2007 22,
//! BSOP 34): headless Chromium at 1024×768 against `cardroom serve --demo`.
//!
//! The tablet's browser opens `/tablet` and shows a pairing code; the floor pairs it with demo
//! table 1 (running, nine players) through the API (`POST /api/v1/tablets`) and the tablet
//! moves on by itself to the dealer's sign-in. `dealer1` signs in and deals a hand ("New
//! hand"). The floor approves new limits for table 1 from the next hand
//! (`POST /api/v1/tables/{id}/limit-changes`): the tablet shows the change without a reload —
//! the limits in force, the new ones, "from the next hand" — with the confirm button
//! (`#limit-announced`), in English, then in Portuguese (`cr_lang=pt`). The dealer taps it:
//! the tablet says it was announced and waits for the next hand, the button is gone, the API
//! records who announced it, and the hand in play keeps its limits. The next "new hand" tap
//! brings the new limits (recorded with that hand): the banner is gone and the table's head
//! shows them. The confirm
//! button is at least 56 px high and nothing is wider than the screen. Last, the floor's
//! panel of table 2 with the form that approves a change (`browser-limits-floor.png`), and
//! the lobby's screen with table 1's limits and a change coming at table 3
//! (`browser-limits-lobby.png`).
//!
//! Without chromedriver the test is skipped unless `CARDROOM_REQUIRE_BROWSER=1`. Screenshots:
//! `target/browser-limits-{en,pt,announced,applied}.png`.

use crate::browser_support::*;
use fantoccini::Client;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

const FLOOR_USER: &str = "floor";
const DEALER_USER: &str = "dealer1";
const DEMO_PASSWORD: &str = "demo-password";
/// Demo table 1: running, nine players seated.
const TABLE_NUMBER: i64 = 1;
const TABLET_W: u32 = 1024;
const TABLET_H: u32 = 768;

fn token(server: &Server, user: &str) -> String {
    let body = json!({ "username": user, "password": DEMO_PASSWORD });
    let (status, text) = http_json(server.addr, "POST", "/api/v1/auth/login", None, Some(&body))
        .unwrap_or_else(|e| panic!("API sign-in: {e}"));
    let v: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
    match (status, v["token"].as_str()) {
        (200, Some(t)) => t.to_string(),
        _ => panic!("sign-in as {user} answered {status}: {text}"),
    }
}

fn api(server: &Server, method: &str, path: &str, token: &str, body: Option<Value>) -> Value {
    let (status, text) = http_json(server.addr, method, path, Some(token), body.as_ref())
        .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
    assert!(
        (200..300).contains(&status),
        "{method} {path} answered {status}: {text}"
    );
    serde_json::from_str(&text).unwrap_or(Value::Null)
}

async fn js(c: &Client, script: &str) -> Value {
    c.execute(script, vec![]).await.unwrap_or(Value::Null)
}

/// The banner's text, its confirm button's height, and the page's width.
async fn banner(c: &Client) -> Value {
    js(
        c,
        "const b = document.querySelector('#limit-change');\
         const btn = document.querySelector('#limit-announced');\
         return { text: b ? b.innerText : null,\
                  button: btn ? Math.round(btn.getBoundingClientRect().height) : null,\
                  width: document.documentElement.scrollWidth };",
    )
    .await
}

/// Waits until the page's `#limit-change` banner satisfies `pred` (10 s).
async fn wait_banner(c: &Client, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let v = banner(c).await;
        if pred(&v) {
            return v;
        }
        if Instant::now() >= deadline {
            fail(c, format!("{what}: the banner is {v}")).await;
        }
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
}

/// Waits (10 s) until the element's text contains `want`.
async fn wait_text(c: &Client, css: &str, want: &str) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if let Ok(el) = c.find(fantoccini::Locator::Css(css)).await {
            if el.text().await.is_ok_and(|t| t.contains(want)) {
                return;
            }
        }
        if Instant::now() >= deadline {
            fail(c, format!("waited 10 s for `{css}` to say {want:?}")).await;
        }
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
}

async fn tap(c: &Client, css: &str, what: &str) {
    ok(c, wait_css(c, css).await.click().await, what).await;
}

async fn choose_language(c: &Client, lang: &str) {
    let script = format!("document.cookie = 'cr_lang={lang}; path=/'; return true;");
    ok(c, c.execute(&script, vec![]).await, "choosing the language").await;
}

/// The confirm button is a tablet's tap target; the page fits the screen.
async fn check_layout(c: &Client, what: &str, v: &Value) {
    if v["button"].as_i64().unwrap_or(0) < 56
        || v["width"].as_i64().unwrap_or(9999) > TABLET_W as i64
    {
        fail(c, format!("{what}: the confirm button is under 56 px or the page is wider than the screen: {v}")).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tablet_shows_a_limit_change_and_the_dealer_confirms_it_was_announced() {
    let Some(chromedriver) = chromedriver_or_skip() else {
        return;
    };
    let tmp = tempfile::tempdir().expect("temporary directory");
    let server =
        browser_app().spawn_binary(env!("CARGO_BIN_EXE_cardroom"), tmp.path(), &["--demo"]);
    let (webdriver_url, _chromedriver) = start_chromedriver(&chromedriver, tmp.path());
    let base = server.base.clone();
    let floor = token(&server, FLOOR_USER);

    let tables = api(&server, "GET", "/api/v1/tables", &floor, None);
    let table = tables
        .as_array()
        .into_iter()
        .flatten()
        .find(|t| t["number"].as_i64() == Some(TABLE_NUMBER))
        .cloned()
        .expect("demo table 1");
    let table_id = table["id"].as_i64().unwrap();
    let now = table["limits"].clone();
    assert!(now["big_blind"].is_i64(), "table 1 plays limits: {table}");

    // The tablet shows its pairing code; the floor pairs it with table 1.
    let c = open_session(
        &webdriver_url,
        tmp.path(),
        "chrome-tablet",
        TABLET_W,
        TABLET_H,
    )
    .await;
    ok(
        &c,
        c.goto(&format!("{base}/tablet")).await,
        "opening /tablet",
    )
    .await;
    let code = ok(
        &c,
        wait_css(&c, "#pair-code").await.text().await,
        "reading #pair-code",
    )
    .await;
    api(
        &server,
        "POST",
        "/api/v1/tablets",
        &floor,
        Some(json!({ "code": code.trim(), "table_id": table_id, "label": "Mesa 1" })),
    );
    wait_path(&c, "/login (the tablet moves on once paired)", |p| {
        p == "/login"
    })
    .await;

    // The dealer signs in and deals hand 1.
    choose_language(&c, "en").await;
    sign_in(&c, &base, DEALER_USER, DEMO_PASSWORD).await;
    ok(
        &c,
        c.goto(&format!("{base}/tablet")).await,
        "opening /tablet",
    )
    .await;
    // The demo's past evenings may have dealt hands at this table within the last 24 h
    // (how many depends on the hour the test runs): one more after the tap.
    let before: u64 = ok(
        &c,
        wait_css(&c, "#hands-today").await.text().await,
        "reading #hands-today",
    )
    .await
    .split_whitespace()
    .next()
    .and_then(|n| n.parse().ok())
    .unwrap_or(0);
    tap(&c, "#new-hand", "tapping New hand").await;
    let after = before + 1;
    let want = if after == 1 {
        "1 hand ".to_string()
    } else {
        format!("{after} hands")
    };
    wait_text(&c, "#hands-today", &want).await;
    wait_css(&c, "#live-status.badge-ok").await;
    js(&c, "window.__marker = 1; return true;").await;

    // The floor approves new limits from the next hand: double the blinds and buy-ins.
    let dbl = |k: &str| now[k].as_i64().map(|v| v * 2);
    let change = api(
        &server,
        "POST",
        &format!("/api/v1/tables/{table_id}/limit-changes"),
        &floor,
        Some(json!({
            "small_blind": dbl("small_blind"), "big_blind": dbl("big_blind"),
            "buy_in_min": dbl("buy_in_min"), "buy_in_max": dbl("buy_in_max"),
        })),
    );
    let id = change["id"].as_i64().expect("the change's id");
    assert_eq!(change["state"], "pending");

    // The tablet shows it, pushed (no reload), with the confirm button (English).
    let v = wait_banner(&c, "en: the banner with the confirm button", |v| {
        v["text"].as_str().is_some_and(|t| {
            t.contains("New limits approved by the floor")
                && t.contains("from the next hand")
                && t.contains("Announced to the players")
        })
    })
    .await;
    eprintln!("en: {v}");
    if js(&c, "return window.__marker === 1;").await != json!(true) {
        fail(
            &c,
            "en: the tablet reloaded to show the change (it should be pushed)",
        )
        .await;
    }
    check_layout(&c, "en", &v).await;
    screenshot(&c, "browser-limits-en.png").await;

    // The same in Portuguese.
    choose_language(&c, "pt").await;
    ok(
        &c,
        c.goto(&format!("{base}/tablet")).await,
        "opening /tablet (pt)",
    )
    .await;
    let v = wait_banner(&c, "pt: the banner with the confirm button", |v| {
        v["text"].as_str().is_some_and(|t| {
            t.contains("Novos limites aprovados pelo floor")
                && t.contains("a partir da próxima mão")
                && t.contains("Anunciado aos jogadores")
        })
    })
    .await;
    eprintln!("pt: {v}");
    check_layout(&c, "pt", &v).await;
    screenshot(&c, "browser-limits-pt.png").await;

    // The dealer taps "Anunciado aos jogadores": recorded; the tablet waits for the next hand.
    tap(&c, "#limit-announced", "tapping #limit-announced").await;
    let v = wait_banner(&c, "pt: announced, waiting for the next hand", |v| {
        v["button"].is_null()
            && v["text"]
                .as_str()
                .is_some_and(|t| t.contains("Anunciado às") && t.contains("próxima mão"))
    })
    .await;
    eprintln!("announced: {v}");
    screenshot(&c, "browser-limits-announced.png").await;
    let l = api(
        &server,
        "GET",
        &format!("/api/v1/tables/{table_id}/limits"),
        &floor,
        None,
    );
    assert_eq!(l["pending"]["id"], id, "{l}");
    assert!(l["pending"]["announced_at"].is_string(), "{l}");
    assert_eq!(l["pending"]["announced_by"], "Carlos Dealer", "{l}");
    assert_eq!(l["limits"], now, "the hand in play keeps its limits: {l}");

    // The next hand brings the new limits.
    tap(&c, "#new-hand", "tapping New hand").await;
    let want = format!(
        "{},00 € / {},00 €",
        dbl("small_blind").unwrap_or(0) / 100,
        dbl("big_blind").unwrap_or(0) / 100
    );
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let v = banner(&c).await;
        let head = js(
            &c,
            "const e = document.querySelector('#table-limits'); return e ? e.innerText : null;",
        )
        .await;
        if v["text"].is_null() && head.as_str().is_some_and(|h| h.contains(&want)) {
            eprintln!("applied: {head}");
            break;
        }
        if Instant::now() >= deadline {
            fail(
                &c,
                format!("pt: after the next hand the tablet shows {v} and {head}, expected {want}"),
            )
            .await;
        }
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
    screenshot(&c, "browser-limits-applied.png").await;
    let l = api(
        &server,
        "GET",
        &format!("/api/v1/tables/{table_id}/limits"),
        &floor,
        None,
    );
    assert_eq!(l["pending"], Value::Null, "{l}");
    assert_eq!(l["history"][0]["id"], id, "{l}");
    // The table's hands are numbered across its evenings: the one just started.
    assert!(l["history"][0]["applied_hand"].is_i64(), "{l}");
    assert_eq!(l["history"][0]["applied_by"], "Carlos Dealer", "{l}");
    assert_eq!(l["limits"]["big_blind"], json!(dbl("big_blind")), "{l}");

    // The floor's side: table 2's panel on the board, with the form that approves a change.
    set_viewport(&c, 1366, 1000, "floor").await;
    sign_in(&c, &base, FLOOR_USER, DEMO_PASSWORD).await;
    ok(
        &c,
        c.goto(&format!("{base}/floor?table=2")).await,
        "opening table 2's panel",
    )
    .await;
    tap(&c, "#limits-change-open", "opening the change form").await;
    wait_css(&c, "#limits-approve").await;
    screenshot(&c, "browser-limits-floor.png").await;

    // The lobby's screen tells the room: table 1's limits, and a change coming at table 3.
    let t3 = tables
        .as_array()
        .into_iter()
        .flatten()
        .find(|t| t["number"].as_i64() == Some(3))
        .cloned()
        .expect("demo table 3");
    let l3 = &t3["limits"];
    let dbl3 = |k: &str| l3[k].as_i64().map(|v| v * 2);
    api(
        &server,
        "POST",
        &format!("/api/v1/tables/{}/limit-changes", t3["id"]),
        &floor,
        Some(json!({
            "small_blind": dbl3("small_blind"), "big_blind": dbl3("big_blind"),
            "buy_in_min": dbl3("buy_in_min"), "buy_in_max": dbl3("buy_in_max"),
        })),
    );
    ok(&c, c.goto(&format!("{base}/lobby")).await, "opening /lobby").await;
    wait_text(&c, "#lobby-limits-3", "a partir da próxima mão").await;
    wait_text(&c, "#lobby-limits-1", "2,00 € / 4,00 €").await;
    screenshot(&c, "browser-limits-lobby.png").await;
    let _ = c.close().await;
}
