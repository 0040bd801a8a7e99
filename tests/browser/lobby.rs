//! Real-browser test of the lobby screen on a TV and of night mode: headless Chromium against
//! `cardroom serve --demo`.
//!
//! The lobby at 1920×1080 with the demo's games and more (eight): dark, every name
//! (games and players) at least 32 px, the page exactly the screen (no scroll bar, nothing
//! below its bottom), every card inside it. Then each list gets more players than fit: the
//! cards no longer fit on one screen and the lobby pages through them (the pager says "Page 1
//! of 2"; the cards of each page are inside the screen; the next page comes by itself), without
//! a reload (the cards come live). Screenshots `target/browser-lobby-{en,pt}-page{1,2}.png`,
//! `browser-lobby-light.png` (the device chose light with `?theme=light`).
//!
//! Night mode: the floor board at 1440×900 opens light (the room follows each device), its
//! "Night mode" toggle makes it dark, and a reload keeps the device's choice. The room's
//! setting is then dark (`PUT /api/v1/room`): a tablet paired with table 1 opens dark, and its
//! toggle makes it light. On each screen in each theme, every piece of text shown is checked
//! against its rendered background: WCAG AA, 4.5:1. Screenshots
//! `target/browser-night-{board,board-light,tablet,tablet-pt,tablet-light}.png`.
//!
//! Without chromedriver the test is skipped unless `CARDROOM_REQUIRE_BROWSER=1`.

use crate::browser_support::*;
use fantoccini::Client;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

const DEMO_PASSWORD: &str = "demo-password";
const TV_W: u32 = 1920;
const TV_H: u32 = 1080;

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

fn api_ok(server: &Server, method: &str, path: &str, token: &str, body: Option<Value>) -> Value {
    let (status, v) = api(server, method, path, token, body);
    assert!(
        (200..300).contains(&status),
        "{method} {path} answered {status}: {v}"
    );
    v
}

async fn js(c: &Client, script: &str) -> Value {
    match c.execute(script, vec![]).await {
        Ok(v) => v,
        Err(e) => fail(c, format!("script failed: {e}")).await,
    }
}

/// The lobby's layout: the page's size against the screen, the cards shown and where, the
/// smallest name, the pager.
const LOBBY_LAYOUT: &str = r#"
const cards = [...document.querySelectorAll('.lobby-game')];
const shown = cards.filter(c => !c.hidden && c.getClientRects().length);
const names = [...document.querySelectorAll('.lobby-game-name, .lobby-alias')]
  .filter(e => e.getClientRects().length);
const sizes = names.map(e => parseFloat(getComputedStyle(e).fontSize));
const de = document.documentElement;
return {
  cards: cards.length,
  shown: shown.map(c => c.id),
  pages: cards.map(c => c.dataset.page),
  outside: shown.filter(c => { const r = c.getBoundingClientRect();
    return r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth; }).map(c => c.id),
  scroll: [de.scrollWidth, de.scrollHeight, document.body.scrollHeight, innerWidth, innerHeight],
  min_name: sizes.length ? Math.min(...sizes) : null,
  names: names.length,
  pager: document.getElementById('lobby-pager').hidden ? null : document.getElementById('lobby-pager').textContent,
  theme: de.dataset.theme,
};
"#;

/// Every element with text of its own, shown, enabled and opaque: its colour against the
/// background it is drawn on (the backgrounds of it and its ancestors, blended), as WCAG 2.1
/// computes contrast. Returns how many were checked and those under 4.5:1.
const CONTRAST: &str = r#"
const parse = c => { const m = c.match(/rgba?\(([^)]+)\)/); if (!m) return null;
  const p = m[1].split(',').map(x => parseFloat(x)); return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 }; };
const lum = c => { const f = v => { v /= 255; return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
  return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b); };
const ground = el => { const layers = [];
  for (let e = el; e; e = e.parentElement) { const c = parse(getComputedStyle(e).backgroundColor);
    if (c && c.a > 0) { layers.push(c); if (c.a >= 1) break; } }
  let out = { r: 255, g: 255, b: 255 };
  for (let i = layers.length - 1; i >= 0; i--) { const l = layers[i];
    out = { r: l.r * l.a + out.r * (1 - l.a), g: l.g * l.a + out.g * (1 - l.a), b: l.b * l.a + out.b * (1 - l.a) }; }
  return out; };
const faded = el => { for (let e = el; e; e = e.parentElement) if (parseFloat(getComputedStyle(e).opacity) < 1) return true; return false; };
let n = 0; const bad = [];
for (const el of document.querySelectorAll('body *')) {
  if (!el.getClientRects().length || !el.checkVisibility({ visibilityProperty: true }) || el.closest('[hidden], details:not([open]) > :not(summary)') || el.matches(':disabled') || el.closest('.visually-hidden, .skip-link')) continue;
  if (![...el.childNodes].some(x => x.nodeType === 3 && x.textContent.trim())) continue;
  const s = getComputedStyle(el);
  if (s.visibility === 'hidden' || faded(el)) continue;
  const fg = parse(s.color), bg = ground(el);
  const a = lum(fg), b = lum(bg);
  const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  n++;
  if (ratio < 4.5) bad.push(`${el.tagName.toLowerCase()}.${[...el.classList].join('.')} "${el.textContent.trim().slice(0, 30)}" ${s.color} on rgb(${Math.round(bg.r)},${Math.round(bg.g)},${Math.round(bg.b)}) = ${ratio.toFixed(2)}`);
}
return { checked: n, bad: bad.slice(0, 15), theme: document.documentElement.dataset.theme };
"#;

async fn check_contrast(c: &Client, what: &str, theme: &str) {
    // Buttons ease their colours in (.12 s): read them once they are still.
    tokio::time::sleep(Duration::from_millis(400)).await;
    let v = js(c, CONTRAST).await;
    eprintln!("{what}: {} texts checked in {}", v["checked"], v["theme"]);
    if v["theme"] != theme {
        fail(
            c,
            format!("{what}: the page is in {} , not {theme}", v["theme"]),
        )
        .await;
    }
    if v["checked"].as_i64().unwrap_or(0) < 10 || !v["bad"].as_array().is_some_and(|b| b.is_empty())
    {
        fail(
            c,
            format!("{what}: text under WCAG AA contrast (4.5:1): {}", v["bad"]),
        )
        .await;
    }
}

/// The lobby fits the screen: no scroll bar, every card shown inside it, names ≥ 32 px.
async fn check_lobby(c: &Client, what: &str) -> Value {
    let v = js(c, LOBBY_LAYOUT).await;
    eprintln!("{what}: {v}");
    let s: Vec<i64> = v["scroll"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_i64().unwrap_or(0))
        .collect();
    let problems = [
        (v["cards"] != 8, "there should be 8 games"),
        (
            s[0] > s[3] || s[1] > s[4] || s[2] > s[4],
            "the page is larger than the screen",
        ),
        (
            !v["outside"].as_array().is_some_and(|o| o.is_empty()),
            "a card shown is cut by the screen's edge",
        ),
        (
            v["shown"].as_array().is_none_or(|x| x.is_empty()),
            "no card is shown",
        ),
        (
            v["min_name"].as_f64().unwrap_or(0.0) < 32.0,
            "a name is under 32 px",
        ),
    ];
    for (bad, why) in problems {
        if bad {
            fail(c, format!("{what}: {why}: {v}")).await;
        }
    }
    v
}

async fn wait_js(
    c: &Client,
    what: &str,
    secs: u64,
    script: &str,
    pred: impl Fn(&Value) -> bool,
) -> Value {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        let v = js(c, script).await;
        if pred(&v) {
            return v;
        }
        if Instant::now() >= deadline {
            fail(c, format!("{what} (waited {secs} s): {v}")).await;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

async fn language(c: &Client, base: &str, lang: &str, path: &str) {
    let script = format!("document.cookie = 'cr_lang={lang}; path=/'; return true;");
    js(c, &script).await;
    ok(c, c.goto(&format!("{base}{path}")).await, "reloading").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_fits_a_tv_and_pages_and_night_mode_keeps_its_contrast() {
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

    // Eight games: the demo's active ones and more.
    let active = |server: &Server| -> Vec<i64> {
        api_ok(server, "GET", "/api/v1/games", &admin, None)
            .as_array()
            .into_iter()
            .flatten()
            .filter(|g| g["active"] != Value::Bool(false))
            .filter_map(|g| g["id"].as_i64())
            .collect()
    };
    let more = [
        ("PLO 2/5", "plo", 200, 500, "mid"),
        ("NL Hold'em 5/10", "holdem_nl", 500, 1000, "high"),
        ("Omaha 1/2", "omaha", 100, 200, "low"),
        ("PLO 5/10", "plo", 500, 1000, "high"),
    ];
    let have = active(&server).len();
    assert!(
        have <= 8 && have + more.len() >= 8,
        "the demo's games: {have}"
    );
    for (name, variant, sb, bb, class) in more.into_iter().take(8 - have) {
        api_ok(
            &server,
            "POST",
            "/api/v1/games",
            &admin,
            Some(json!({
            "name": name, "variant": variant, "small_blind": sb, "big_blind": bb,
            "limit_class": class, "buy_in_min": bb * 50, "buy_in_max": bb * 150 })),
        );
    }
    let games = active(&server);
    assert_eq!(games.len(), 8, "eight games");

    // 1. The TV: the eight games on one screen, dark.
    let c = open_session(&webdriver_url, tmp.path(), "chrome-tv", TV_W, TV_H).await;
    ok(&c, c.goto(&format!("{base}/lobby")).await, "opening /lobby").await;
    wait_css(&c, "#lobby-grid").await;
    language(&c, &base, "en", "/lobby").await;
    let v = check_lobby(&c, "lobby, the demo's lists").await;
    if v["theme"] != "dark"
        || v["shown"].as_array().map(Vec::len) != Some(8)
        || v["pager"] != Value::Null
    {
        fail(
            &c,
            format!("the eight games should fit one dark screen: {v}"),
        )
        .await;
    }
    check_contrast(&c, "lobby (dark)", "dark").await;
    screenshot(&c, "browser-lobby-en-one-page.png").await;

    // 2. Long lists: every player of the demo not at a table joins every list it may.
    let players = api_ok(&server, "GET", "/api/v1/players?limit=200", &floor, None);
    let ids: Vec<i64> = players
        .as_array()
        .or_else(|| players["items"].as_array())
        .into_iter()
        .flatten()
        .filter_map(|p| p["id"].as_i64())
        .collect();
    let mut joined = 0;
    for g in &games {
        for p in ids.iter().take(14) {
            let (status, _) = api(
                &server,
                "POST",
                &format!("/api/v1/games/{g}/waitlist"),
                &floor,
                Some(json!({ "player_id": p })),
            );
            if status == 201 {
                joined += 1;
            }
        }
    }
    assert!(joined > 40, "players joined the lists: {joined}");
    // The cards come live (no reload) and no longer fit: two pages.
    js(&c, "window.__marker = 1; return true;").await;
    let v = wait_js(
        &c,
        "the lobby should page through the games",
        20,
        LOBBY_LAYOUT,
        |v| {
            v["pager"]
                .as_str()
                .is_some_and(|p| p.starts_with("Page 1 of "))
        },
    )
    .await;
    if js(&c, "return window.__marker === 1;").await != Value::Bool(true) {
        fail(
            &c,
            "the lobby reloaded instead of taking the new cards live",
        )
        .await;
    }
    let first = check_lobby(&c, "lobby, page 1").await;
    let pages: Vec<String> = v["pages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap_or("").to_string())
        .collect();
    if pages.iter().any(|p| p.is_empty()) || !pages.iter().any(|p| p == "1") {
        fail(
            &c,
            format!("every card should have a page, and there should be a second: {v}"),
        )
        .await;
    }
    screenshot(&c, "browser-lobby-en-page1.png").await;
    // The next page comes by itself: other cards, inside the screen.
    let second = wait_js(&c, "the second page should come", 16, LOBBY_LAYOUT, |v| {
        v["pager"]
            .as_str()
            .is_some_and(|p| p.starts_with("Page 2 of "))
    })
    .await;
    check_lobby(&c, "lobby, page 2").await;
    let a: Vec<&Value> = first["shown"].as_array().unwrap().iter().collect();
    if second["shown"]
        .as_array()
        .unwrap()
        .iter()
        .any(|x| a.contains(&x))
    {
        fail(
            &c,
            format!("page 2 repeats page 1's cards: {first} / {second}"),
        )
        .await;
    }
    screenshot(&c, "browser-lobby-en-page2.png").await;
    language(&c, &base, "pt", "/lobby").await;
    wait_js(&c, "the lobby in Portuguese", 10, LOBBY_LAYOUT, |v| {
        v["pager"]
            .as_str()
            .is_some_and(|p| p.starts_with("Página 1 de "))
    })
    .await;
    check_lobby(&c, "lobby (pt), page 1").await;
    check_contrast(&c, "lobby (pt, dark)", "dark").await;
    screenshot(&c, "browser-lobby-pt-page1.png").await;
    wait_js(&c, "the second page (pt)", 16, LOBBY_LAYOUT, |v| {
        v["pager"]
            .as_str()
            .is_some_and(|p| p.starts_with("Página 2 de "))
    })
    .await;
    check_lobby(&c, "lobby (pt), page 2").await;
    screenshot(&c, "browser-lobby-pt-page2.png").await;
    // The device chooses light (a TV without a keyboard: ?theme=light), and keeps it.
    ok(
        &c,
        c.goto(&format!("{base}/lobby?theme=light")).await,
        "lobby light",
    )
    .await;
    ok(&c, c.goto(&format!("{base}/lobby")).await, "lobby again").await;
    let v = check_lobby(&c, "lobby (light)").await;
    if v["theme"] != "light" {
        fail(&c, format!("the device's light should be kept: {v}")).await;
    }
    check_contrast(&c, "lobby (light)", "light").await;
    screenshot(&c, "browser-lobby-light.png").await;
    let _ = c.close().await;

    // 3. The floor board: light (the room follows each device), dark with the toggle, kept.
    let b = open_session(&webdriver_url, tmp.path(), "chrome-board", 1440, 900).await;
    js(&b, "return true;").await;
    sign_in(&b, &base, "floor", DEMO_PASSWORD).await;
    language(&b, &base, "en", "/floor").await;
    wait_css(&b, "[data-theme-toggle]").await;
    check_contrast(&b, "board (light)", "light").await;
    screenshot(&b, "browser-night-board-light.png").await;
    ok(
        &b,
        wait_css(&b, "[data-theme-toggle]").await.click().await,
        "night mode toggle",
    )
    .await;
    check_contrast(&b, "board (dark)", "dark").await;
    ok(
        &b,
        b.goto(&format!("{base}/floor")).await,
        "reloading the board",
    )
    .await;
    wait_css(&b, "[data-theme-toggle][aria-pressed=true]").await;
    check_contrast(&b, "board (dark, after a reload)", "dark").await;
    screenshot(&b, "browser-night-board.png").await;
    let _ = b.close().await;

    // 4. The room chooses dark: a tablet opens dark; its toggle makes it light.
    let mut room = api_ok(&server, "GET", "/api/v1/room", &admin, None);
    room["theme"] = json!("dark");
    api_ok(&server, "PUT", "/api/v1/room", &admin, Some(room));
    let tables = api_ok(&server, "GET", "/api/v1/tables", &floor, None);
    let table_id = tables
        .as_array()
        .into_iter()
        .flatten()
        .find(|t| t["number"].as_i64() == Some(1))
        .and_then(|t| t["id"].as_i64())
        .expect("demo table 1");
    let t = open_session(&webdriver_url, tmp.path(), "chrome-tablet", 1024, 768).await;
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
    api_ok(
        &server,
        "POST",
        "/api/v1/tablets",
        &floor,
        Some(json!({ "code": code.trim(), "table_id": table_id, "label": "Mesa 1" })),
    );
    wait_path(&t, "/login (the tablet moves on once paired)", |p| {
        p == "/login"
    })
    .await;
    sign_in(&t, &base, "dealer1", DEMO_PASSWORD).await;
    language(&t, &base, "en", "/tablet").await;
    wait_css(&t, "[data-theme-toggle][aria-pressed=true]").await;
    check_contrast(&t, "tablet (dark)", "dark").await;
    screenshot(&t, "browser-night-tablet.png").await;
    language(&t, &base, "pt", "/tablet").await;
    wait_css(&t, "[data-theme-toggle][aria-pressed=true]").await;
    check_contrast(&t, "tablet (pt, dark)", "dark").await;
    screenshot(&t, "browser-night-tablet-pt.png").await;
    ok(
        &t,
        wait_css(&t, "[data-theme-toggle]").await.click().await,
        "night mode toggle",
    )
    .await;
    check_contrast(&t, "tablet (light, the device's choice)", "light").await;
    screenshot(&t, "browser-night-tablet-light.png").await;
    let _ = t.close().await;
}
