//! Real-browser test of joining a list from a phone: headless Chromium at
//! 390×844 against `cardroom serve --demo`. The phone opens the lobby screen's page and finds
//! the QR code (its image loads) and the short address; it opens the join page (the QR code's
//! address), ticks the game of demo table 3, types demo player #34's phone and name, and is
//! sent a code — read where the phone would get it, the delivery worker's message
//! (`GET /api/v1/messages`, local sink). It types the code and lands on the player's own page,
//! on the list. The floor (API) calls the list until the player is called; the phone shows the
//! call without a reload and taps "On my way". No phone page is wider than 390 px; tap
//! targets under 44 px are printed.
//!
//! Without chromedriver the test is skipped unless `CARDROOM_REQUIRE_BROWSER=1`. Screenshots:
//! `target/browser-join-*.png`.

use crate::browser_support::*;
use fantoccini::Client;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

const FLOOR_USER: &str = "floor";
const DEMO_PASSWORD: &str = "demo-password";
const TABLE_NUMBER: i64 = 3;
/// A demo player neither seated nor listed (see tests/browser/player.rs).
const TEST_PLAYER: i64 = 34;
const PHONE_W: u32 = 390;
const PHONE_H: u32 = 844;
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

fn api(
    server: &Server,
    method: &str,
    path: &str,
    token: &str,
    body: Option<Value>,
    want: &[u16],
) -> Value {
    let (status, text) = http_json(server.addr, method, path, Some(token), body.as_ref())
        .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
    assert!(
        want.contains(&status),
        "{method} {path} answered {status}: {text}"
    );
    serde_json::from_str(&text).unwrap_or(Value::Null)
}

async fn js(c: &Client, script: &str) -> Value {
    c.execute(script, vec![]).await.unwrap_or(Value::Null)
}

/// The page's width and its tap targets under 44 px (printed; the width is asserted).
async fn layout(c: &Client, what: &str) {
    let v = js(
        c,
        "const small = [];\
         for (const el of document.querySelectorAll('a, button, input, select, label.join-game')) {\
           const b = el.getBoundingClientRect();\
           if (b.width === 0 || el.type === 'hidden') continue;\
           if (b.height < 44 && el.type !== 'checkbox') small.push((el.id || el.name || el.tagName) + ' ' + Math.round(b.height));\
         }\
         return { width: document.documentElement.scrollWidth, small };",
    )
    .await;
    eprintln!("{what}: {v}");
    if v["width"].as_i64().unwrap_or(9999) > PHONE_W as i64 {
        fail(
            c,
            format!("{what}: the page is wider than {PHONE_W} px ({v})"),
        )
        .await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_phone_joins_from_the_lobby_qr_code_with_a_code_and_answers_its_call() {
    let Some(chromedriver) = chromedriver_or_skip() else {
        return;
    };
    let tmp = tempfile::tempdir().expect("temporary directory");
    let server =
        browser_app().spawn_binary(env!("CARGO_BIN_EXE_cardroom"), tmp.path(), &["--demo"]);
    let (webdriver_url, _chromedriver) = start_chromedriver(&chromedriver, tmp.path());
    let base = server.base.clone();
    let token = floor_token(&server);

    // Table 3, its game, open.
    let tables = api(&server, "GET", "/api/v1/tables", &token, None, &[200]);
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
            &[200],
        );
    }
    let player = api(
        &server,
        "GET",
        &format!("/api/v1/players/{TEST_PLAYER}"),
        &token,
        None,
        &[200],
    );
    let player = &player["player"];
    let phone_no = player["phone"]
        .as_str()
        .expect("the demo player's phone")
        .to_string();
    let name = player["full_name"].as_str().unwrap_or("Test").to_string();

    let phone = open_session(
        &webdriver_url,
        tmp.path(),
        "chrome-profile-join",
        PHONE_W,
        PHONE_H,
    )
    .await;
    let p = &phone;

    // 1. The lobby's screen: the QR code (loaded) and the short address.
    ok(p, p.goto(&format!("{base}/lobby")).await, "opening /lobby").await;
    wait_css(p, "#lobby-join img").await;
    let qr = js(p, "const i = document.querySelector('#lobby-join img'); return { w: i.naturalWidth, text: document.querySelector('#lobby-join').innerText };").await;
    if qr["w"].as_i64().unwrap_or(0) == 0 || !qr["text"].as_str().unwrap_or("").contains("/join") {
        fail(
            p,
            format!("lobby: the QR code should load and the short address show ({qr})"),
        )
        .await;
    }
    screenshot(p, "browser-join-lobby.png").await;

    // 2. The join page (the QR code's address): tick the game, phone, name.
    ok(p, p.goto(&format!("{base}/join")).await, "opening /join").await;
    wait_css(p, "#join-form").await;
    layout(p, "join page").await;
    screenshot(p, "browser-join-form.png").await;
    let boxed = wait_css(p, &format!("label[for=game-{game_id}]")).await;
    ok(p, boxed.click().await, "ticking the game").await;
    type_into(p, "#phone", &phone_no).await;
    type_into(p, "#name", &name).await;
    let send = wait_css(p, "#join-send").await;
    ok(p, send.click().await, "sending the form").await;
    wait_css(p, "#code-form").await;
    layout(p, "code page").await;
    screenshot(p, "browser-join-code.png").await;

    // 3. The code, from the message the worker sent (the test SMS sink).
    let deadline = Instant::now() + WAIT;
    let code = loop {
        let msgs = api(&server, "GET", "/api/v1/messages", &token, None, &[200]);
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
            fail(p, format!("no join code message within {WAIT:?}: {msgs}")).await;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    };
    type_into(p, "#code", &code).await;
    let confirm = wait_css(p, "#code-send").await;
    ok(p, confirm.click().await, "confirming the code").await;
    wait_css(p, "#plink-state").await;
    let path = wait_path(p, "the player's page", |x| x.starts_with("/p/")).await;
    eprintln!("after the code the phone is at {path}");
    let place = js(
        p,
        "return document.querySelector('#plink-state').innerText;",
    )
    .await;
    if !place
        .as_str()
        .unwrap_or("")
        .contains("Check in at the desk")
    {
        fail(
            p,
            format!("the player's page should say to check in at the desk (BSOP 43): {place}"),
        )
        .await;
    }
    layout(p, "player's page").await;
    screenshot(p, "browser-join-place.png").await;

    // 4. The floor calls the list (seating whoever comes before) until the player is called.
    let mut called = None;
    for _ in 0..12 {
        let seats = api(
            &server,
            "GET",
            &format!("/api/v1/tables/{table_id}/seats"),
            &token,
            None,
            &[200],
        );
        let Some(seat) = seats["seats"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|s| s["state"] == json!("empty"))
            .and_then(|s| s["seat_no"].as_i64())
        else {
            fail(p, "table 3 has no free seat left for the test").await;
        };
        let call = api(
            &server,
            "POST",
            &format!("/api/v1/tables/{table_id}/seats/{seat}/call-next"),
            &token,
            Some(json!({})),
            &[201],
        );
        if call["player_id"].as_i64() == Some(TEST_PLAYER) {
            called = Some(call);
            break;
        }
        api(
            &server,
            "POST",
            &format!("/api/v1/seat-calls/{}/seat", call["id"]),
            &token,
            Some(json!({})),
            &[200, 201],
        );
    }
    let Some(call) = called else {
        fail(p, "the test player was never called").await;
    };
    eprintln!("the floor called the test player: {call}");
    // The phone shows the call without a reload (the page polls every 3 s).
    let deadline = Instant::now() + WAIT;
    let button = loop {
        if let Ok(b) = p.find(fantoccini::Locator::Css("#plink-on-my-way")).await {
            break b;
        }
        if Instant::now() > deadline {
            fail(p, "the phone never showed the call").await;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    };
    screenshot(p, "browser-join-call.png").await;
    ok(p, button.click().await, "tapping On my way").await;
    let deadline = Instant::now() + WAIT;
    loop {
        let v = js(p, "return { gone: !document.querySelector('#plink-on-my-way'), text: document.body.innerText };").await;
        if v["gone"] == json!(true)
            && v["text"]
                .as_str()
                .unwrap_or("")
                .contains("knows you are on your way")
        {
            break;
        }
        if Instant::now() > deadline {
            fail(p, format!("after On my way the page should say so: {v}")).await;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    layout(p, "on my way").await;
    screenshot(p, "browser-join-on-my-way.png").await;
    let _ = phone.close().await;
}
