//! Real-browser test of a limit change's announcement on the dealer tablet (PT-2007 22,
//! BSOP 34): headless Chromium at 1024×768 against `cardroom serve --demo`.
//!
//! The tablet's browser opens `/tablet` and shows a pairing code; the floor pairs it with demo
//! table 2 through the API (`POST /api/v1/tablets`) and the tablet moves on by itself to the
//! dealer's sign-in. The floor approves new limits for table 2 from the next hand
//! (`POST /api/v1/tables/{id}/limit-changes`). `dealer1` signs in: the tablet shows the
//! change — the limits in force, the new ones, "from the next hand" — with the confirm button
//! (`#limit-announced`), in English, then in Portuguese (`cr_lang=pt`). The dealer taps it:
//! the tablet says it was announced and waits for the next hand, the button is gone, and the
//! API records who announced it. Every tap target of the banner is at least 56 px high and
//! nothing is wider than the screen.
//!
//! Without chromedriver the test is skipped unless `CARDROOM_REQUIRE_BROWSER=1`. Screenshots:
//! `target/browser-limits-{en,pt,announced}.png`.

#[path = "support/browser.rs"]
mod browser_support;

use browser_support::*;
use fantoccini::Client;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

const FLOOR_USER: &str = "floor";
const DEALER_USER: &str = "dealer1";
const DEMO_PASSWORD: &str = "demo-password";
/// Demo table 2: open with three players seated.
const TABLE_NUMBER: i64 = 2;
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tablet_shows_a_limit_change_and_the_dealer_confirms_it_was_announced() {
    let Some(chromedriver) = chromedriver_or_skip() else {
        return;
    };
    let tmp = tempfile::tempdir().expect("temporary directory");
    let server =
        start_server_with_env(env!("CARGO_BIN_EXE_cardroom"), tmp.path(), &["--demo"], &[]);
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
        .expect("demo table 2");
    let table_id = table["id"].as_i64().unwrap();
    let now = table["limits"].clone();
    assert!(now["big_blind"].is_i64(), "table 2 plays limits: {table}");

    // The tablet shows its pairing code; the floor pairs it with table 2.
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
        Some(json!({ "code": code.trim(), "table_id": table_id, "label": "Mesa 2" })),
    );
    wait_path(&c, "/login (the tablet moves on once paired)", |p| {
        p == "/login"
    })
    .await;

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

    // The dealer signs in: the tablet shows the change with the confirm button (English).
    ok(
        &c,
        c.execute(
            "document.cookie = 'cr_lang=en; path=/'; return true;",
            vec![],
        )
        .await,
        "choosing English",
    )
    .await;
    sign_in(&c, &base, DEALER_USER, DEMO_PASSWORD).await;
    ok(
        &c,
        c.goto(&format!("{base}/tablet")).await,
        "opening /tablet",
    )
    .await;
    let v = wait_banner(&c, "en: the banner with the confirm button", |v| {
        v["text"].as_str().is_some_and(|t| {
            t.contains("New limits approved by the floor")
                && t.contains("from the next hand")
                && t.contains("Announced to the players")
        })
    })
    .await;
    eprintln!("en: {v}");
    if v["button"].as_i64().unwrap_or(0) < 56
        || v["width"].as_i64().unwrap_or(9999) > TABLET_W as i64
    {
        fail(
            &c,
            format!(
                "en: the confirm button is under 56 px or the page is wider than the screen: {v}"
            ),
        )
        .await;
    }
    screenshot(&c, "browser-limits-en.png").await;

    // The same in Portuguese.
    ok(
        &c,
        c.execute(
            "document.cookie = 'cr_lang=pt; path=/'; return true;",
            vec![],
        )
        .await,
        "choosing Portuguese",
    )
    .await;
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
    if v["button"].as_i64().unwrap_or(0) < 56
        || v["width"].as_i64().unwrap_or(9999) > TABLET_W as i64
    {
        fail(
            &c,
            format!(
                "pt: the confirm button is under 56 px or the page is wider than the screen: {v}"
            ),
        )
        .await;
    }
    screenshot(&c, "browser-limits-pt.png").await;

    // The dealer taps "Anunciado aos jogadores": recorded, and the tablet waits for the hand.
    ok(
        &c,
        wait_css(&c, "#limit-announced").await.click().await,
        "tapping #limit-announced",
    )
    .await;
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
    let _ = c.close().await;
}
