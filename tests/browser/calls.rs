//! Real-browser test of a seat call on the dealer's tablet: never missed, however full the
//! table screen is. Headless Chromium against `cardroom serve --demo`.
//!
//! The room opens table 9 for its synthetic game (11 places, PT-2007 6) and seats ten players
//! (some freed from tables 2 and 5 first). The tablet is paired with table 9, `dealer1` signs
//! in and taps "New hand": the cagnotte session starts (PT-2007 7b, the pt-casino profile) with
//! ten dues to collect, ten Collect buttons. The floor calls the next player of the game's list
//! for seat 11 (`POST /api/v1/tables/{id}/seats/11/call-next`): without a reload the call
//! arrives first on the screen and is announced once (`window.cardroomAlerts`). At 1024×768 and
//! 768×1024, in English and Portuguese, the call's block, its Acknowledge button, the buy-in
//! field and the Seat button are within the first screen (the page at its top). A second page
//! load does not announce the call again. The bar's mute button mutes this tablet and shows
//! the time left, kept over a reload; a call announced while muted neither chimes nor vibrates.
//! The first tap on the page arms the sound (the "tap to enable sound" badge goes). On a
//! seat's page a banner says a call is open and leads back. Seated, the call is gone and the
//! screen may sleep again.
//!
//! Without chromedriver the test is skipped unless `CARDROOM_REQUIRE_BROWSER=1`. Screenshots:
//! `target/browser-calls-{landscape,portrait}-{en,pt}.png`, `browser-calls-seat-page.png`,
//! `browser-calls-muted.png`.

use crate::browser_support::*;
use fantoccini::Client;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

const DEMO_PASSWORD: &str = "demo-password";
const TABLE_NUMBER: i64 = 9;
const SEATED: i64 = 10;

fn token(server: &Server, user: &str, password: &str) -> String {
    let body = json!({ "username": user, "password": password });
    let (status, text) = http_json(server.addr, "POST", "/api/v1/auth/login", None, Some(&body))
        .unwrap_or_else(|e| panic!("API sign-in: {e}"));
    let v: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
    match (status, v["token"].as_str()) {
        (200, Some(t)) => t.to_string(),
        _ => panic!("sign-in as {user} answered {status}: {text}"),
    }
}

/// An API call; its status and JSON answer.
fn api(
    server: &Server,
    method: &str,
    path: &str,
    token: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let (status, text) = http_json(server.addr, method, path, Some(token), body.as_ref())
        .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// An API call that must succeed.
fn api_ok(server: &Server, method: &str, path: &str, token: &str, body: Option<Value>) -> Value {
    let (status, v) = api(server, method, path, token, body);
    assert!(
        (200..300).contains(&status),
        "{method} {path} answered {status}: {v}"
    );
    v
}

fn table_id(server: &Server, token: &str, number: i64) -> i64 {
    api_ok(server, "GET", "/api/v1/tables", token, None)
        .as_array()
        .into_iter()
        .flatten()
        .find(|t| t["number"].as_i64() == Some(number))
        .and_then(|t| t["id"].as_i64())
        .unwrap_or_else(|| panic!("no table {number}"))
}

async fn js(c: &Client, script: &str) -> Value {
    c.execute(script, vec![]).await.unwrap_or(Value::Null)
}

/// Waits (10 s) until `script` returns true.
async fn wait_js(c: &Client, script: &str, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if js(c, script).await == Value::Bool(true) {
            return;
        }
        if Instant::now() >= deadline {
            fail(c, format!("waited 10 s for {what} ({script})")).await;
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

/// Opens the table screen again and waits until calls.js has looked at the calls.
async fn reload_table(c: &Client, base: &str) {
    ok(
        c,
        c.goto(&format!("{base}/tablet")).await,
        "opening /tablet",
    )
    .await;
    wait_css(c, "#floor-live").await;
    wait_js(
        c,
        "return typeof window.cardroomAlerts === 'number' && !!window.cardroomWakeLock;",
        "calls.js started",
    )
    .await;
    tokio::time::sleep(Duration::from_millis(400)).await;
}

/// The call's block, its Acknowledge button, the buy-in field and the Seat button are all
/// within the first screen (the page scrolled to its top), and the page is no wider than it.
async fn call_on_first_screen(c: &Client, call: i64, what: &str) {
    scroll_to_top(c).await;
    let script = format!(
        "const ids = ['call-{call}', 'ack-{call}', 'amount-{call}', 'seat-{call}'];\
         const out = {{ h: innerHeight, w: innerWidth, scroll: scrollY, width: document.documentElement.scrollWidth, out: [] }};\
         for (const id of ids) {{\
           const el = document.getElementById(id);\
           if (!el) {{ out.out.push(id + ' missing'); continue; }}\
           const b = el.getBoundingClientRect();\
           out[id] = [Math.round(b.top), Math.round(b.bottom)];\
           if (b.top < 0 || b.left < 0 || b.bottom > innerHeight || b.right > innerWidth || b.height === 0) out.out.push(id);\
         }}\
         return out;"
    );
    let v = js(c, &script).await;
    eprintln!("{what}: {v}");
    if !v["out"].as_array().is_some_and(|a| a.is_empty())
        || v["width"].as_i64().unwrap_or(9999) > v["w"].as_i64().unwrap_or(0)
    {
        fail(
            c,
            format!("{what}: the call is not all on the first screen: {v}"),
        )
        .await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_call_is_first_on_the_tablet_announced_once_and_mutable() {
    let Some(chromedriver) = chromedriver_or_skip() else {
        return;
    };
    let tmp = tempfile::tempdir().expect("temporary directory");
    let server =
        browser_app().spawn_binary(env!("CARGO_BIN_EXE_cardroom"), tmp.path(), &["--demo"]);
    let (webdriver_url, _chromedriver) = start_chromedriver(&chromedriver, tmp.path());
    let base = server.base.clone();
    let admin = token(&server, "admin", ADMIN_PASSWORD);
    let floor = token(&server, "floor", DEMO_PASSWORD);

    // Table 9 for the synthetic game (11 places), open.
    let game = api_ok(&server, "GET", "/api/v1/games", &floor, None)
        .as_array()
        .into_iter()
        .flatten()
        .find(|g| g["variant"] == json!("synthetic"))
        .and_then(|g| g["id"].as_i64())
        .expect("the demo's synthetic game");
    let t = api_ok(
        &server,
        "POST",
        "/api/v1/tables",
        &admin,
        Some(json!({ "number": TABLE_NUMBER, "game_id": game, "mode": "continuous", "seats": 11 })),
    );
    let table = t["id"].as_i64().expect("the new table's id");
    api_ok(
        &server,
        "POST",
        &format!("/api/v1/tables/{table}/open"),
        &floor,
        Some(json!({})),
    );

    // Players: those of tables 2 and 5 leave, then ten sit at table 9 (whoever may).
    for n in [2, 5] {
        let id = table_id(&server, &floor, n);
        let seats = api_ok(
            &server,
            "GET",
            &format!("/api/v1/tables/{id}/seats"),
            &floor,
            None,
        );
        for s in seats["seats"].as_array().into_iter().flatten() {
            if let Some(sid) = s["seated"]["seating_id"].as_i64() {
                api_ok(
                    &server,
                    "POST",
                    &format!("/api/v1/seatings/{sid}/leave"),
                    &floor,
                    Some(json!({ "reason": "Mesa 9" })),
                );
            }
        }
    }
    let players = api_ok(&server, "GET", "/api/v1/players?limit=200", &floor, None);
    let mut candidates = players
        .as_array()
        .or_else(|| players["items"].as_array())
        .into_iter()
        .flatten()
        .filter_map(|p| p["id"].as_i64())
        .collect::<Vec<_>>()
        .into_iter();
    let mut seat = 1;
    while seat <= SEATED {
        let p = candidates
            .next()
            .unwrap_or_else(|| panic!("only {} players could sit at table 9", seat - 1));
        let (status, _) = api(
            &server,
            "POST",
            &format!("/api/v1/tables/{table}/seats/{seat}"),
            &floor,
            Some(json!({ "player_id": p })),
        );
        if status == 201 {
            seat += 1;
        }
    }

    // The tablet shows its pairing code; the floor pairs it with table 9; dealer1 signs in.
    let c = open_session(&webdriver_url, tmp.path(), "chrome-tablet", 1024, 768).await;
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
    api_ok(
        &server,
        "POST",
        "/api/v1/tablets",
        &floor,
        Some(json!({ "code": code.trim(), "table_id": table, "label": "Mesa 9" })),
    );
    wait_path(&c, "/login (the tablet moves on once paired)", |p| {
        p == "/login"
    })
    .await;
    choose_language(&c, "en").await;
    sign_in(&c, &base, "dealer1", DEMO_PASSWORD).await;
    reload_table(&c, &base).await;

    // New hand: the cagnotte session, ten dues open.
    tap(&c, "#new-hand", "tapping New hand").await;
    wait_css(&c, "#cagnotte").await;
    reload_table(&c, &base).await;
    let collect = js(
        &c,
        "return document.querySelectorAll('#cagnotte button[id^=collect-]').length;",
    )
    .await;
    if collect != json!(SEATED) {
        fail(
            &c,
            format!("ten Collect buttons, one per seated player: {collect}"),
        )
        .await;
    }
    wait_css(&c, "#live-status.badge-ok").await;
    if js(&c, "return window.cardroomAlerts;").await != json!(0) {
        fail(&c, "no call yet, no alert").await;
    }

    // The floor calls the next player of the synthetic game's list for seat 11.
    let joined = candidates.any(|p| {
        api(
            &server,
            "POST",
            &format!("/api/v1/games/{game}/waitlist"),
            &floor,
            Some(json!({ "player_id": p })),
        )
        .0 == 201
    });
    assert!(joined, "a player on the synthetic game's list");
    let call = api_ok(
        &server,
        "POST",
        &format!("/api/v1/tables/{table}/seats/11/call-next"),
        &floor,
        Some(json!({})),
    )["id"]
        .as_i64()
        .expect("the call's id");

    // It arrives live, first, announced once.
    wait_js(
        &c,
        &format!("return !!document.querySelector('[data-call-id=\"{call}\"]');"),
        "the call on the table screen",
    )
    .await;
    wait_js(
        &c,
        "return window.cardroomAlerts === 1;",
        "one announcement",
    )
    .await;
    let log = js(&c, "return window.cardroomAlertLog;").await;
    eprintln!("alert: {log}");
    if log[0]["call"] != json!(call.to_string())
        || log[0]["muted"] != json!(false)
        || log[0]["mode"] != json!("sound")
    {
        fail(
            &c,
            format!("the call announced with the room's sound: {log}"),
        )
        .await;
    }
    let order = js(&c, "const all = [...document.querySelectorAll('#floor-live > *')].map(e => e.id || e.className); return all;").await;
    let pos = |name: &str| {
        order.as_array().and_then(|a| {
            a.iter()
                .position(|x| x.as_str().is_some_and(|s| s.contains(name)))
        })
    };
    if !(pos("tablet-calls") < pos("cagnotte") && pos("tablet-calls") < pos("tablet-seats")) {
        fail(
            &c,
            format!("the call comes before the cagnotte and the seats: {order}"),
        )
        .await;
    }
    let armed = js(&c, "return window.cardroomSound;").await;
    let badge = js(
        &c,
        "const b = document.getElementById('sound-arm'); return b && !b.hidden;",
    )
    .await;
    eprintln!("before a tap: sound {armed}, badge shown {badge}");
    if (armed == json!("not-armed")) != (badge == json!(true)) {
        fail(
            &c,
            format!("the badge shows exactly while the sound is not armed: {armed} / {badge}"),
        )
        .await;
    }
    call_on_first_screen(&c, call, "landscape, en, live").await;
    screenshot(&c, "browser-calls-landscape-en.png").await;

    // A second page load: the call is still first, not announced again.
    reload_table(&c, &base).await;
    if js(&c, "return window.cardroomAlerts;").await != json!(0) {
        fail(
            &c,
            "a call already seen on this tablet is not announced again",
        )
        .await;
    }
    call_on_first_screen(&c, call, "landscape, en, reloaded").await;

    // The first tap on the page arms the sound: the badge goes.
    tap(&c, ".tablet-title", "tapping the page").await;
    wait_js(
        &c,
        "return window.cardroomSound === 'armed' && document.getElementById('sound-arm').hidden;",
        "the sound armed by a tap",
    )
    .await;

    for (w, h, name) in [(1024u32, 768u32, "landscape"), (768, 1024, "portrait")] {
        set_viewport(&c, w, h, "tablet").await;
        for lang in ["en", "pt"] {
            choose_language(&c, lang).await;
            reload_table(&c, &base).await;
            let ack = js(
                &c,
                &format!("return document.getElementById('ack-{call}').innerText;"),
            )
            .await;
            let want = if lang == "pt" {
                "Confirmar receção"
            } else {
                "Acknowledge"
            };
            if ack.as_str() != Some(want) {
                fail(
                    &c,
                    format!("{name}, {lang}: the Acknowledge button says {ack}"),
                )
                .await;
            }
            call_on_first_screen(&c, call, &format!("{name}, {lang}")).await;
            screenshot(&c, &format!("browser-calls-{name}-{lang}.png")).await;
            if js(&c, "return window.cardroomAlerts;").await != json!(0) {
                fail(&c, format!("{name}, {lang}: announced again")).await;
            }
        }
    }

    // Mute for 10 minutes: the time left shown, kept over a reload.
    set_viewport(&c, 1024, 768, "tablet").await;
    choose_language(&c, "en").await;
    reload_table(&c, &base).await;
    tap(&c, "#call-mute", "tapping Mute").await;
    wait_js(&c, "const b = document.getElementById('call-mute'); return b.getAttribute('aria-pressed') === 'true';", "muted").await;
    let shown = js(&c, "return document.getElementById('call-mute').innerText;").await;
    let left = js(
        &c,
        "const s = document.getElementById('call-mute-left'); return s ? s.innerText : null;",
    )
    .await;
    eprintln!("muted: {shown} ({left})");
    let left_ok = left
        .as_str()
        .is_some_and(|s| s == "10:00" || s.starts_with("9:"));
    if !shown.as_str().is_some_and(|s| s.starts_with("Muted")) || !left_ok {
        fail(&c, format!("the mute shows the time left: {shown}")).await;
    }
    reload_table(&c, &base).await;
    wait_js(
        &c,
        "return document.getElementById('call-mute').getAttribute('aria-pressed') === 'true';",
        "still muted after a reload",
    )
    .await;
    screenshot(&c, "browser-calls-muted.png").await;
    // A call announced while muted (here: this tablet forgets what it saw) stays silent.
    js(
        &c,
        "localStorage.removeItem('cardroom-calls-seen'); return true;",
    )
    .await;
    reload_table(&c, &base).await;
    let log = js(&c, "return window.cardroomAlertLog;").await;
    if log[0]["muted"] != json!(true)
        || log[0]["sound"] != json!(false)
        || log[0]["vibrate"] != json!(false)
    {
        fail(&c, format!("muted: no chime, no vibration: {log}")).await;
    }
    // A second tap ends the mute.
    tap(&c, "#call-mute", "tapping Muted").await;
    wait_js(
        &c,
        "return document.getElementById('call-mute').getAttribute('aria-pressed') === 'false';",
        "the mute ended",
    )
    .await;
    if js(
        &c,
        "return localStorage.getItem('cardroom-calls-mute-until');",
    )
    .await
        != Value::Null
    {
        fail(&c, "the mute's end is forgotten once it is over").await;
    }
    let lock = js(&c, "return window.cardroomWakeLock;").await;
    eprintln!("wake lock with a call open: {lock}");

    // On a seat's page: a banner says a call is open, and leads back to the table screen.
    tap(&c, "#seat-open-1", "opening seat 1").await;
    wait_css(&c, "#calls-banner").await;
    let banner = js(&c, "const b = document.getElementById('calls-banner').getBoundingClientRect(); return { top: b.top, bottom: b.bottom, h: innerHeight, text: document.getElementById('calls-banner').innerText };").await;
    eprintln!("seat page banner: {banner}");
    if banner["bottom"].as_f64().unwrap_or(9999.0) > banner["h"].as_f64().unwrap_or(0.0)
        || !banner["text"]
            .as_str()
            .is_some_and(|t| t.contains("A seat call is open"))
    {
        fail(
            &c,
            format!("the seat page's banner, on its first screen: {banner}"),
        )
        .await;
    }
    screenshot(&c, "browser-calls-seat-page.png").await;
    tap(&c, "#calls-banner-back", "back to the table").await;
    wait_css(&c, &format!("#ack-{call}")).await;

    // The player arrives: seated with a buy-in, the call is gone, the screen may sleep.
    let input = wait_css(&c, &format!("#amount-{call}")).await;
    ok(&c, input.send_keys("100").await, "typing the buy-in").await;
    tap(&c, &format!("#seat-{call}"), "tapping Seat").await;
    wait_js(
        &c,
        "return !document.querySelector('[data-call-id]');",
        "no call left",
    )
    .await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    let lock = js(&c, "return window.cardroomWakeLock;").await;
    if lock == json!("held") {
        fail(&c, "the wake lock is released when no call is open").await;
    }
    let _ = c.close().await;
}
