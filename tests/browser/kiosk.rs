//! Real-browser test of the desk kiosk: headless Chromium at 1024×768
//! against `cardroom serve --demo` with a short idle time (`CARDROOM_KIOSK_IDLE_SECS=3`).
//! The kiosk's browser opens `/tablet` and shows a pairing code; the floor (another browser,
//! signed in) enters it under `/floor/tablets` choosing "desk kiosk"; the kiosk moves on to
//! its start screen by itself. A walk-in (demo player #34) types their phone, ticks the game
//! of demo table 3, gives a name, and is sent a code — read where the phone gets it, the
//! delivery worker's message (`GET /api/v1/messages`, local sink). They type it and see their
//! place on the list, with the seat-preference step; "Done" goes back to the start screen at
//! once. A second walk-in starts typing and walks away: after the idle time the start screen
//! is back with every field empty and nothing of either player on it. Every touch target on
//! every screen is at least 44 px high; nothing is wider than the screen.
//!
//! Without chromedriver the test is skipped unless `CARDROOM_REQUIRE_BROWSER=1`. Screenshots:
//! `target/browser-kiosk-*.png`.

use crate::browser_support::*;
use fantoccini::Client;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

const FLOOR_USER: &str = "floor";
const DEMO_PASSWORD: &str = "demo-password";
const TABLE_NUMBER: i64 = 3;
/// A demo player neither seated nor listed (see tests/browser/player.rs).
const TEST_PLAYER: i64 = 34;
const KIOSK_W: u32 = 1024;
const KIOSK_H: u32 = 768;
const IDLE_SECS: u64 = 3;
const WAIT: Duration = Duration::from_secs(20);

fn floor_token(server: &Server) -> String {
    let body = json!({ "username": FLOOR_USER, "password": DEMO_PASSWORD });
    let (status, text) = http_json(server.addr, "POST", "/api/v1/auth/login", None, Some(&body))
        .unwrap_or_else(|e| panic!("API sign-in: {e}"));
    let v: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
    match (status, v["token"].as_str()) {
        (200, Some(t)) => t.to_string(),
        _ => panic!("sign-in answered {status}: {text}"),
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

/// Every visible touch target at least 44 px high (checkboxes are inside their 56+ px
/// labels), and nothing wider than the kiosk's screen.
async fn layout(c: &Client, what: &str) {
    let v = js(
        c,
        "const small = [];\
         for (const el of document.querySelectorAll('a, button, input, select, summary, label.kiosk-game, label.kiosk-check')) {\
           const b = el.getBoundingClientRect();\
           if (b.width === 0 || el.type === 'hidden' || el.type === 'checkbox') continue;\
           if (b.height < 44) small.push((el.id || el.name || el.tagName) + ' ' + Math.round(b.height));\
         }\
         return { width: document.documentElement.scrollWidth, small };",
    )
    .await;
    eprintln!("{what}: {v}");
    if v["width"].as_i64().unwrap_or(9999) > KIOSK_W as i64 {
        fail(c, format!("{what}: wider than {KIOSK_W} px ({v})")).await;
    }
    if !v["small"].as_array().is_some_and(|a| a.is_empty()) {
        fail(c, format!("{what}: touch targets under 44 px ({v})")).await;
    }
}

async fn click(c: &Client, css: &str, what: &str) {
    let el = wait_css(c, css).await;
    ok(c, el.click().await, what).await;
}

/// The values of every visible field, and the page's text.
async fn fields_and_text(c: &Client) -> Value {
    js(
        c,
        "return { values: Array.from(document.querySelectorAll('input:not([type=hidden])')).map(i => i.type === 'checkbox' ? String(i.checked) : i.value), \
                  text: document.body.innerText, path: location.pathname, history: history.length };",
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_walk_in_joins_at_the_desk_kiosk_and_the_kiosk_forgets_them() {
    let Some(chromedriver) = chromedriver_or_skip() else {
        return;
    };
    let tmp = tempfile::tempdir().expect("temporary directory");
    let server = browser_app()
        .tune(|c| {
            c.room.kiosk_idle_secs = IDLE_SECS as u32;
            // The code reaches the test's "phone" (the local sink) well within the idle time.
            c.notify.poll_ms = 200;
        })
        .spawn_binary(env!("CARGO_BIN_EXE_cardroom"), tmp.path(), &["--demo"]);
    let (webdriver_url, _chromedriver) = start_chromedriver(&chromedriver, tmp.path());
    let base = server.base.clone();
    let token = floor_token(&server);

    // Table 3 open: its game is offered.
    let tables = api(&server, "GET", "/api/v1/tables", &token, None);
    let table = tables
        .as_array()
        .into_iter()
        .flatten()
        .find(|t| t["number"].as_i64() == Some(TABLE_NUMBER))
        .cloned()
        .expect("demo table 3");
    let (table_id, game_id) = (
        table["id"].as_i64().unwrap(),
        table["game_id"].as_i64().unwrap(),
    );
    if table["state"].as_str() == Some("closed") {
        api(
            &server,
            "POST",
            &format!("/api/v1/tables/{table_id}/open"),
            &token,
            Some(json!({})),
        );
    }
    let player = api(
        &server,
        "GET",
        &format!("/api/v1/players/{TEST_PLAYER}"),
        &token,
        None,
    );
    let player = &player["player"];
    let phone_no = player["phone"].as_str().expect("a phone").to_string();
    let name = player["full_name"].as_str().unwrap_or("Test").to_string();

    let kiosk = open_session(
        &webdriver_url,
        tmp.path(),
        "chrome-profile-kiosk",
        KIOSK_W,
        KIOSK_H,
    )
    .await;
    let k = &kiosk;
    let floor = open_session(
        &webdriver_url,
        tmp.path(),
        "chrome-profile-floor",
        1280,
        900,
    )
    .await;
    let f = &floor;

    // 1. The kiosk's pairing code; the floor pairs it as the desk kiosk.
    ok(
        k,
        k.goto(&format!("{base}/tablet")).await,
        "opening /tablet",
    )
    .await;
    let code = ok(
        k,
        wait_css(k, "#pair-code").await.text().await,
        "reading the code",
    )
    .await;
    sign_in(f, &base, FLOOR_USER, DEMO_PASSWORD).await;
    ok(
        f,
        f.goto(&format!("{base}/floor/tablets?code={}", code.trim()))
            .await,
        "opening /floor/tablets",
    )
    .await;
    select_value(f, "#pair-table", "kiosk").await;
    type_into(f, "#pair-label", "Desk").await;
    click(f, "#pair-form button[type=submit]", "pairing").await;
    wait_css(f, "#tablets-paired").await;
    wait_css(f, "#kiosks-table").await;
    let _ = floor.close().await;

    // 2. The kiosk moves on to its start screen by itself.
    wait_path(k, "the kiosk", |p| p == "/kiosk").await;
    wait_css(k, "#kiosk-phone-form").await;
    layout(k, "start screen").await;
    screenshot(k, "browser-kiosk-start.png").await;

    // 3. Phone → lists and name → the code is sent.
    type_into(k, "#kiosk-phone", &phone_no).await;
    click(k, "#kiosk-next", "Next").await;
    wait_css(k, "#kiosk-lists-form").await;
    click(
        k,
        &format!("label[for=kiosk-game-{game_id}]"),
        "ticking the game",
    )
    .await;
    type_into(k, "#kiosk-name", &name).await;
    layout(k, "lists").await;
    screenshot(k, "browser-kiosk-lists.png").await;
    click(k, "#kiosk-send", "sending").await;
    wait_css(k, "#kiosk-code-form").await;
    layout(k, "code").await;
    screenshot(k, "browser-kiosk-code.png").await;

    // 4. The code, from the message the worker sent (the test SMS/e-mail sink).
    let deadline = Instant::now() + WAIT;
    let code = loop {
        let msgs = api(&server, "GET", "/api/v1/messages", &token, None);
        let found = msgs
            .as_array()
            .into_iter()
            .flatten()
            .filter(|m| m["kind"] == json!("join_code"))
            .filter_map(|m| m["body"].as_str())
            .find_map(|b| {
                b.split(|c: char| !c.is_ascii_digit())
                    .find(|w| w.len() == 6)
                    .map(str::to_string)
            });
        if let Some(c) = found {
            break c;
        }
        if Instant::now() > deadline {
            fail(k, format!("no join code message within {WAIT:?}: {msgs}")).await;
        }
        // The walk-in waiting for the SMS touches the code field now and then (a real touch:
        // on a busy machine the message may take longer than the test's short idle time).
        if let Ok(field) = k.find(fantoccini::Locator::Css("#kiosk-code")).await {
            let _ = field.click().await;
        }
        tokio::time::sleep(Duration::from_millis(150)).await;
    };
    type_into(k, "#kiosk-code", &code).await;
    click(k, "#kiosk-confirm", "confirming the code").await;
    wait_css(k, "#kiosk-on-list").await;
    let done = fields_and_text(k).await;
    let text = done["text"].as_str().unwrap_or("");
    if !(text.contains("lugar") || text.contains("place")) {
        fail(k, format!("the done screen should give the place: {done}")).await;
    }
    click(k, "#kiosk-pref-open", "opening the seat preference").await;
    wait_css(k, "#kiosk-pref-seats").await;
    layout(k, "done").await;
    screenshot(k, "browser-kiosk-done.png").await;
    // The list says where the entry came from.
    let list = api(
        &server,
        "GET",
        &format!("/api/v1/games/{game_id}/waitlist"),
        &token,
        None,
    );
    let line = list["lines"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|l| l["player_id"].as_i64() == Some(TEST_PLAYER))
        .cloned()
        .unwrap_or(Value::Null);
    if line["origin"] != json!("kiosk") {
        fail(k, format!("the entry should be marked kiosk: {list}")).await;
    }

    // 5. "Done": the start screen at once, the done screen not left in the history.
    let history_before = done["history"].as_i64().unwrap_or(0);
    let t0 = Instant::now();
    click(k, "#kiosk-done", "Done").await;
    wait_css(k, "#kiosk-start").await;
    let start = fields_and_text(k).await;
    eprintln!("Done → start screen in {:?}: {start}", t0.elapsed());
    if t0.elapsed() >= Duration::from_secs(IDLE_SECS) {
        fail(k, "Done should go back at once, not after the idle time").await;
    }
    let start_text = start["text"].as_str().unwrap_or("");
    if start_text.contains(&name) || start_text.contains(&code) {
        fail(
            k,
            format!("the start screen shows the last player's data: {start}"),
        )
        .await;
    }
    if start["history"].as_i64().unwrap_or(0) > history_before {
        fail(k, format!("Done should replace the history entry: {start}")).await;
    }

    // 6. The next walk-in starts typing and walks away: after the idle time the start screen
    //    is back with every field empty.
    type_into(k, "#kiosk-phone", "912 345").await;
    click(k, "#kiosk-lang-en", "switching to English").await;
    wait_css(k, "#kiosk-phone-form").await;
    type_into(k, "#kiosk-phone", "912 345 678").await;
    click(k, "#kiosk-next", "Next").await;
    wait_css(k, "#kiosk-lists-form").await;
    type_into(k, "#kiosk-name", "Someone Else").await;
    let t0 = Instant::now();
    let deadline = t0 + Duration::from_secs(IDLE_SECS + 10);
    loop {
        let v = fields_and_text(k).await;
        if v["path"] == json!("/kiosk")
            && k.find(fantoccini::Locator::Css("#kiosk-start"))
                .await
                .is_ok()
        {
            let waited = t0.elapsed();
            eprintln!("after {waited:?} without a touch: {v}");
            if waited < Duration::from_secs(IDLE_SECS - 1) {
                fail(k, format!("back to the start too soon ({waited:?})")).await;
            }
            let empty = v["values"]
                .as_array()
                .is_some_and(|a| a.iter().all(|x| x == "" || x == "false"));
            let text = v["text"].as_str().unwrap_or("");
            if !empty || text.contains("Someone Else") || text.contains(&name) {
                fail(k, format!("the idle start screen should be empty: {v}")).await;
            }
            // The room's language again (the demo room's is Portuguese), not the last player's.
            let lang = js(k, "return document.documentElement.lang;").await;
            if lang != json!("pt") {
                fail(
                    k,
                    format!("the idle start screen should be in the room's language: {lang}"),
                )
                .await;
            }
            break;
        }
        if Instant::now() > deadline {
            fail(
                k,
                format!("the kiosk did not go back to its start screen: {v}"),
            )
            .await;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    layout(k, "start screen after idle").await;
    screenshot(k, "browser-kiosk-idle.png").await;
    let _ = kiosk.close().await;
}
