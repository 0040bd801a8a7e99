//! Real-browser layout checks: on the widths the room's screens have — a
//! desk at 1440, a tablet at 1024 and 768, a phone at 390 — no staff page is wider than the
//! window (both languages), every seat menu on the floor opens inside the window, and the
//! floor's seat buttons carry the table, the seat and the player in their accessible names.
//!
//! Headless Chromium through chromedriver against `cardroom serve --demo`; skipped without
//! chromedriver unless `CARDROOM_REQUIRE_BROWSER=1` (tests/run.sh).

use crate::browser_support::*;
use fantoccini::Client;
use serde_json::Value;

/// The pages staff use, signed in as admin (who may open them all).
const STAFF_PAGES: &[&str] = &[
    "/",
    "/floor",
    // The board with a running table's side panel open.
    "/floor?table=1",
    "/floor/custody",
    "/floor/messages",
    "/floor/tablets",
    "/floor/cagnotte",
    "/floor/reports",
    "/floor/reports/players",
    "/floor/reports/dealers",
    "/floor/dealers",
    "/players",
    "/players/1",
    "/players/new",
    "/admin/room",
    // The switch of the rule profile: the house rules that differ, in a table.
    "/admin/room/profile?kind=bsop",
    "/admin/games",
    "/admin/tables",
    "/admin/staff",
    "/admin/audit",
    "/admin/audit/verify",
    "/admin/backups",
    "/account/password",
    "/account/sessions",
];

async fn eval(c: &Client, js: &str) -> Value {
    ok(c, c.execute(js, vec![]).await, js).await
}

/// The elements that stick out past the window's right edge (for the failure message).
const WIDE: &str = "var W = window.innerWidth, out = [];
document.querySelectorAll('body *').forEach(function (e) {
  var r = e.getBoundingClientRect();
  if (r.width > 0 && r.right > W + 1) {
    out.push(e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + ' → ' + Math.round(r.right));
  }
});
return { page: document.documentElement.scrollWidth, window: W, wide: out.slice(0, 8) };";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn staff_pages_fit_the_window_and_seat_menus_open_inside_it() {
    let Some(chromedriver) = chromedriver_or_skip() else {
        return;
    };
    let tmp = tempfile::tempdir().expect("temporary directory");
    let server =
        browser_app().spawn_binary(env!("CARGO_BIN_EXE_cardroom"), tmp.path(), &["--demo"]);
    let (webdriver_url, _chromedriver) = start_chromedriver(&chromedriver, tmp.path());
    let c = open_session(
        &webdriver_url,
        tmp.path(),
        "chrome-profile-layout",
        1440,
        900,
    )
    .await;
    let base = &server.base;
    sign_in(&c, base, "admin", ADMIN_PASSWORD).await;

    // 1. No page wider than the window at 768 and 390, in English and Portuguese.
    for lang in ["en", "pt"] {
        if lang == "pt" {
            // The language switch in the header (a form posting to /lang/pt).
            ok(&c, c.goto(&format!("{base}/")).await, "opening /").await;
            let b = wait_css(&c, "form[action='/lang/pt'] button").await;
            ok(&c, b.click().await, "switching to Portuguese").await;
            wait_css(&c, "html[lang='pt']").await;
        }
        for (w, h) in [(768, 1024), (390, 844)] {
            set_viewport(&c, w, h, "layout").await;
            for page in STAFF_PAGES {
                ok(&c, c.goto(&format!("{base}{page}")).await, page).await;
                wait_css(&c, "main, .container").await;
                let m = eval(&c, WIDE).await;
                if m["page"].as_i64() > m["window"].as_i64() {
                    screenshot(&c, &format!("layout-overflow-{w}-{lang}")).await;
                    fail(
                        &c,
                        format!("{page} at {w} px ({lang}) is wider than the window: {m}"),
                    )
                    .await;
                }
            }
        }
    }

    // 2. Every seat menu in every table's side panel (the tables with players, from their
    // tiles) opens inside the window; the seat buttons name the table, the seat and the
    // player.
    ok(&c, c.goto(&format!("{base}/floor")).await, "opening /floor").await;
    wait_css(&c, "#floor-live").await;
    let seated = eval(
        &c,
        "return Array.from(document.querySelectorAll('a.tile')).filter(function (t) {
           return t.querySelector('.dots i.d'); }).map(function (t) { return t.id.replace('tile-', ''); });",
    )
    .await;
    let seated: Vec<String> = seated
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|v| v.as_str().map(String::from))
        .collect();
    let mut outside = Vec::new();
    for (w, h) in [(1440, 900), (1024, 768), (390, 844)] {
        set_viewport(&c, w, h, "seat menus").await;
        let mut r = serde_json::json!({"menus": 0, "outside": [], "unnamed": [], "panels": []});
        for number in &seated {
            ok(
                &c,
                c.goto(&format!("{base}/floor?table={number}")).await,
                "opening a table's panel",
            )
            .await;
            wait_css(&c, &format!("#panel #table-{number}")).await;
            let one = eval(
                &c,
                "var out = {menus: 0, outside: [], unnamed: []};
            document.querySelectorAll('#panel .seat-actions').forEach(function (d) {
              var s = d.querySelector('summary');
              s.scrollIntoView({block: 'center'});
              s.click();
              var m = d.querySelector('.seat-menu').getBoundingClientRect();
              out.menus++;
              if (m.left < 0 || m.right > window.innerWidth + 0.5 || m.bottom > window.innerHeight + 0.5 || m.top < 0) {
                out.outside.push(s.getAttribute('aria-label') + ' ' + JSON.stringify([m.left, m.right, m.top, m.bottom]));
                // The first one stays open for the screenshot.
                if (!out.kept) { out.kept = true; return; }
              }
              s.click();
            });
            // Each control is named with its table and seat, itself or by the group it is in
            // (a seat's menu, the hold form).
            document.querySelectorAll('#panel .seats button, #panel .seats summary').forEach(function (b) {
              var g = b.closest('[role=group]');
              var n = (g ? g.getAttribute('aria-label') : b.getAttribute('aria-label')) || '';
              if (!/\\d+.*\\d+/.test(n)) { out.unnamed.push(b.outerHTML.slice(0, 120)); }
            });
            return out;",
            )
            .await;
            r["menus"] =
                (r["menus"].as_i64().unwrap_or(0) + one["menus"].as_i64().unwrap_or(0)).into();
            for k in ["outside", "unnamed"] {
                let more = one[k].as_array().cloned().unwrap_or_default();
                if let Some(a) = r[k].as_array_mut() {
                    a.extend(more);
                }
            }
            if let Some(a) = r["panels"].as_array_mut() {
                a.push(number.as_str().into());
            }
            if one["kept"] == serde_json::json!(true) {
                screenshot(&c, &format!("layout-seat-menu-{w}-table-{number}.png")).await;
            }
        }
        if r["menus"].as_i64().unwrap_or(0) < 5 {
            fail(
                &c,
                format!("at {w} px the floor shows too few seat menus: {r}"),
            )
            .await;
        }
        // Every width is checked before failing, so that one run names every menu outside.
        if !r["outside"].as_array().is_some_and(|a| a.is_empty()) {
            outside.push(format!("at {w} px seat menus open outside the window: {r}"));
        }
        if !r["unnamed"].as_array().is_some_and(|a| a.is_empty()) {
            fail(
                &c,
                format!("seat buttons without table and seat in their names: {r}"),
            )
            .await;
        }
    }
    if !outside.is_empty() {
        fail(&c, outside.join("\n")).await;
    }
    // The phone's menu is a sheet at the bottom, as seen.
    let first = wait_css(&c, ".seat-actions > summary").await;
    ok(&c, first.click().await, "opening a seat menu").await;
    screenshot(&c, "layout-seat-menu-390").await;
    let _ = c.clone().close().await;
}
