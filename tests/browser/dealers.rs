//! Real-browser test of the dealers' pushes on the floor board: headless Chromium against
//! `cardroom serve --demo`, at 1440×900 (English) and 1024×768 (Portuguese).
//!
//! Through the API the floor places `dealer1` at demo table 1 and `dealer2` clocks in: every
//! other table in play has no dealer. The board shows the pushes strip under the alarm strip:
//! the tables without a dealer first, marked, with `dealer2` proposed; the tile of such a
//! table says "No dealer". Nothing is wider than the window and the push button is a
//! comfortable click. One click on a card's button sends the proposed dealer: the board comes
//! back saying who deals where, and the night (API) has `dealer2` dealing at that table. The
//! same board in Portuguese at 1024×768, and the dealers' page (`/floor/dealers`) in both
//! languages with the roster and the hour's pushes (the floor then takes a dealer off their
//! table to a break), and the dealers' report of the month
//! with its chart. Screenshots:
//! `target/browser-dealers-{board-1440-en,board-1024-pt,page-1024-pt,page-1440-en,report-1440-en}.png`.
//!
//! Without chromedriver the test is skipped unless `CARDROOM_REQUIRE_BROWSER=1`.

use crate::browser_support::*;
use fantoccini::Client;
use serde_json::{json, Value};

const PASSWORD: &str = "demo-password";

fn token(server: &Server, user: &str) -> String {
    let body = json!({ "username": user, "password": PASSWORD });
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

/// The staff id of the token's holder.
fn me(server: &Server, token: &str) -> i64 {
    api(server, "GET", "/api/v1/me", token, None)["id"]
        .as_i64()
        .expect("a staff id")
}

/// The floor places dealer1 at demo table 1: the floor's token, the demo's tables, table 1's
/// id.
fn dealer1_at_table_one(server: &Server) -> (String, Value, i64) {
    let floor = token(server, "floor");
    let d1_id = me(server, &token(server, "dealer1"));
    let tables = api(server, "GET", "/api/v1/tables", &floor, None);
    let t1 = tables
        .as_array()
        .into_iter()
        .flatten()
        .find(|t| t["number"] == 1)
        .and_then(|t| t["id"].as_i64())
        .expect("demo table 1");
    api(
        server,
        "POST",
        &format!("/api/v1/tables/{t1}/dealer"),
        &floor,
        Some(json!({ "dealer_id": d1_id })),
    );
    (floor, tables, t1)
}

async fn js(c: &Client, script: &str) -> Value {
    c.execute(script, vec![]).await.unwrap_or(Value::Null)
}

/// The strip's text, its first card's button height, the page's width, and the first
/// card's table.
async fn strip(c: &Client) -> Value {
    js(
        c,
        "const s = document.querySelector('#board-pushes');\
         const card = document.querySelector('#board-pushes .push-card');\
         const btn = card ? card.querySelector('button') : null;\
         return { text: s ? s.innerText : null,\
                  table: card ? card.getAttribute('data-table') : null,\
                  empty: card ? card.classList.contains('push-empty') : null,\
                  button: btn ? Math.round(btn.getBoundingClientRect().height) : null,\
                  width: document.documentElement.scrollWidth };",
    )
    .await
}

async fn check_fits(c: &Client, what: &str, w: u32) {
    let width = js(c, "return document.documentElement.scrollWidth;").await;
    if width.as_i64().unwrap_or(99_999) > i64::from(w) {
        fail(
            c,
            format!("{what}: the page is {width} px wide in a {w} px window"),
        )
        .await;
    }
}

async fn choose_language(c: &Client, lang: &str) {
    let script = format!("document.cookie = 'cr_lang={lang}; path=/'; return true;");
    ok(c, c.execute(&script, vec![]).await, "choosing the language").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_board_shows_the_next_pushes_and_one_click_sends_the_proposed_dealer() {
    let Some(chromedriver) = chromedriver_or_skip() else {
        return;
    };
    let tmp = tempfile::tempdir().expect("temporary directory");
    let server =
        browser_app().spawn_binary(env!("CARGO_BIN_EXE_cardroom"), tmp.path(), &["--demo"]);
    let (webdriver_url, _chromedriver) = start_chromedriver(&chromedriver, tmp.path());
    let base = server.base.clone();
    let (floor, tables, _) = dealer1_at_table_one(&server);
    let d2 = token(&server, "dealer2");
    let d2_id = me(&server, &d2);
    // dealer2 free for the next push: relieved where the demo's evening left them dealing,
    // or clocked in.
    let night = api(&server, "GET", "/api/v1/dealers/night", &floor, None);
    let wong = night["dealers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["id"] == d2_id)
        .cloned()
        .unwrap();
    match wong["state"].as_str() {
        Some("dealing") => {
            let at = tables
                .as_array()
                .into_iter()
                .flatten()
                .find(|t| t["number"] == wong["table"])
                .and_then(|t| t["id"].as_i64())
                .unwrap();
            api(
                &server,
                "POST",
                &format!("/api/v1/tables/{at}/shift/end"),
                &floor,
                Some(json!({})),
            );
        }
        Some("off") => {
            api(
                &server,
                "POST",
                &format!("/api/v1/dealers/{d2_id}/clock-in"),
                &d2,
                Some(json!({})),
            );
        }
        _ => {}
    }
    let night = api(&server, "GET", "/api/v1/dealers/night", &floor, None);
    let empty: Vec<i64> = night["tables"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["dealer"].is_null() && t["closing"] == false)
        .filter_map(|t| t["number"].as_i64())
        .collect();
    assert!(
        !empty.is_empty(),
        "the demo has tables in play besides table 1: {night}"
    );
    let first = empty[0];

    // The board at 1440×900, English.
    let c = open_session(&webdriver_url, tmp.path(), "chrome-floor", 1440, 900).await;
    ok(&c, c.goto(&format!("{base}/login")).await, "opening /login").await;
    choose_language(&c, "en").await;
    sign_in(&c, &base, "floor", PASSWORD).await;
    ok(&c, c.goto(&format!("{base}/floor")).await, "opening /floor").await;
    wait_css(&c, "#board-pushes .push-card").await;
    let s = strip(&c).await;
    eprintln!("1440 en: {s}");
    let text = s["text"].as_str().unwrap_or("");
    if !(text.contains("Dealers: next pushes")
        && text.contains("without a dealer")
        && text.contains("No dealer")
        && !text.contains("Carlos Dealer")
        && text.contains("Wong Dealer"))
    {
        fail(&c, format!("1440 en: the strip says {text:?}")).await;
    }
    if s["table"] != json!(first.to_string()) || s["empty"] != json!(true) {
        fail(
            &c,
            format!("1440 en: the first card is not table {first}, without a dealer: {s}"),
        )
        .await;
    }
    if s["button"].as_i64().unwrap_or(0) < 34 {
        fail(&c, format!("1440 en: the push button is under 34 px: {s}")).await;
    }
    let tile = js(
        &c,
        &format!("const t = document.querySelector('#tile-{first} .t-no-dealer'); return t ? t.innerText : null;"),
    )
    .await;
    if tile != json!("No dealer") {
        fail(
            &c,
            format!("1440 en: tile {first} does not say No dealer: {tile}"),
        )
        .await;
    }
    check_fits(&c, "1440 en board", 1440).await;
    screenshot(&c, "browser-dealers-board-1440-en.png").await;

    // One click sends the proposed dealer (Wong Dealer) to that table.
    ok(
        &c,
        wait_css(&c, &format!("#push-go-{first}"))
            .await
            .click()
            .await,
        "clicking the push button",
    )
    .await;
    let done = ok(
        &c,
        wait_css(&c, "#floor-done").await.text().await,
        "reading the toast",
    )
    .await;
    if !done.contains(&format!("Wong Dealer deals at table {first}")) {
        fail(&c, format!("after the push the board says {done:?}")).await;
    }
    let night = api(&server, "GET", "/api/v1/dealers/night", &floor, None);
    let wong = night["dealers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["id"] == d2_id)
        .cloned()
        .unwrap();
    assert_eq!(wong["state"], "dealing", "{night}");
    assert_eq!(wong["table"], first, "{night}");

    // Portuguese at 1024×768: the board and the dealers' page.
    set_viewport(&c, 1024, 768, "chrome-floor").await;
    choose_language(&c, "pt").await;
    ok(
        &c,
        c.goto(&format!("{base}/floor")).await,
        "opening /floor (pt)",
    )
    .await;
    wait_css(&c, "#board-pushes").await;
    let s = strip(&c).await;
    eprintln!("1024 pt: {s}");
    if !s["text"]
        .as_str()
        .unwrap_or("")
        .contains("Croupiers: próximas rendições")
    {
        fail(&c, format!("1024 pt: the strip says {s}")).await;
    }
    check_fits(&c, "1024 pt board", 1024).await;
    screenshot(&c, "browser-dealers-board-1024-pt.png").await;
    ok(
        &c,
        c.goto(&format!("{base}/floor/dealers")).await,
        "opening /floor/dealers",
    )
    .await;
    let roster = ok(
        &c,
        wait_css(&c, "#roster").await.text().await,
        "reading the roster",
    )
    .await;
    if !(roster.contains("Wong Dealer") && roster.contains("a dar cartas")) {
        fail(&c, format!("1024 pt: the roster says {roster:?}")).await;
    }
    check_fits(&c, "1024 pt dealers' page", 1024).await;
    screenshot(&c, "browser-dealers-page-1024-pt.png").await;
    set_viewport(&c, 1440, 900, "chrome-floor").await;
    choose_language(&c, "en").await;
    ok(
        &c,
        c.goto(&format!("{base}/floor/dealers")).await,
        "opening /floor/dealers (en)",
    )
    .await;
    let head = ok(
        &c,
        wait_css(&c, "#pushes-hour").await.text().await,
        "reading the heading",
    )
    .await;
    if head != "Pushes in the next hour" {
        fail(&c, format!("1440 en: the page's heading is {head:?}")).await;
    }
    check_fits(&c, "1440 en dealers' page", 1440).await;
    screenshot(&c, "browser-dealers-page-1440-en.png").await;
    // The floor takes Wong Dealer off their table to a break: the page says so, and the
    // table's line is marked without a dealer.
    ok(
        &c,
        wait_css(&c, &format!("#relieve-break-{first}"))
            .await
            .click()
            .await,
        "taking Wong Dealer off the table",
    )
    .await;
    let done = text_of(&c, "#floor-done").await;
    if !done.starts_with(&format!(
        "Wong Dealer is off table {first} and on a break until"
    )) {
        fail(
            &c,
            format!("after taking the dealer off, the page says {done:?}"),
        )
        .await;
    }
    let marked = js(
        &c,
        &format!(
            "const r = document.querySelector('#dealer-table-{first}'); return r ? r.className : null;"
        ),
    )
    .await;
    if marked.as_str() != Some("row-bad") {
        fail(
            &c,
            format!("table {first}'s line is {marked} after its dealer left"),
        )
        .await;
    }
    let night = api(&server, "GET", "/api/v1/dealers/night", &floor, None);
    let wong = night["dealers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["id"] == d2_id)
        .cloned()
        .unwrap();
    assert_eq!(wong["state"], "on_break", "{night}");

    // The dealers' report of the month: the demo's past evenings and tonight's downs, the
    // chart of dealers against tables open.
    ok(
        &c,
        wait_css(&c, "#dealers-report-link").await.click().await,
        "opening the dealers' report",
    )
    .await;
    wait_css(&c, "#chart-staffing").await;
    let row = text_of(&c, &format!("#report-dealer-{d2_id}")).await;
    if !row.contains("Wong Dealer") {
        fail(&c, format!("the report's row for Wong Dealer says {row:?}")).await;
    }
    let month = value_of(&c, "#report-month").await;
    ok(
        &c,
        c.goto(&format!("{base}/floor/reports/dealers?month={month}"))
            .await,
        "the month",
    )
    .await;
    wait_css(&c, "#report-dealers").await;
    check_fits(&c, "1440 en dealers' report", 1440).await;
    screenshot(&c, "browser-dealers-report-1440-en.png").await;
    let _ = c.close().await;
}

/// The element's text, or an empty string.
async fn text_of(c: &Client, css: &str) -> String {
    ok(c, wait_css(c, css).await.text().await, css).await
}

/// Height of an element in CSS pixels.
async fn height_of(c: &Client, css: &str) -> i64 {
    js(
        c,
        &format!(
            "const e = document.querySelector('{css}'); return e ? Math.round(e.getBoundingClientRect().height) : 0;"
        ),
    )
    .await
    .as_i64()
    .unwrap_or(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_relieving_dealer_takes_the_table_over_on_its_tablet_with_their_pin() {
    let Some(chromedriver) = chromedriver_or_skip() else {
        return;
    };
    let tmp = tempfile::tempdir().expect("temporary directory");
    let server =
        browser_app().spawn_binary(env!("CARGO_BIN_EXE_cardroom"), tmp.path(), &["--demo"]);
    let (webdriver_url, _chromedriver) = start_chromedriver(&chromedriver, tmp.path());
    let base = server.base.clone();
    let (floor, _, t1) = dealer1_at_table_one(&server);

    // dealer2 on their phone (Portuguese): My night, a PIN, clocked in.
    let phone = open_session(&webdriver_url, tmp.path(), "chrome-phone", 390, 844).await;
    ok(
        &phone,
        phone.goto(&format!("{base}/login")).await,
        "opening /login",
    )
    .await;
    choose_language(&phone, "pt").await;
    sign_in(&phone, &base, "dealer2", PASSWORD).await;
    ok(
        &phone,
        phone.goto(&format!("{base}/dealer")).await,
        "opening /dealer",
    )
    .await;
    ok(
        &phone,
        wait_css(&phone, "#my-clock-in").await.click().await,
        "clocking in",
    )
    .await;
    let said = text_of(&phone, "#my-night-done").await;
    if said != "Tem a entrada registada." {
        fail(
            &phone,
            format!("phone: after clocking in the page says {said:?}"),
        )
        .await;
    }
    type_into(&phone, "#pin", "4821").await;
    ok(
        &phone,
        wait_css(&phone, "#pin-save").await.click().await,
        "saving the PIN",
    )
    .await;
    let said = text_of(&phone, "#my-night-done").await;
    if said != "O seu PIN de mesa está guardado." {
        fail(
            &phone,
            format!("phone: after the PIN the page says {said:?}"),
        )
        .await;
    }
    let next = text_of(&phone, "#my-next").await;
    if !next.contains("A seguir: mesa") {
        fail(&phone, format!("phone: the next push says {next:?}")).await;
    }
    check_fits(&phone, "phone: My night", 390).await;
    if height_of(&phone, "#pin-save").await < 44 {
        fail(&phone, "phone: the PIN button is under 44 px").await;
    }
    screenshot(&phone, "browser-dealers-my-night-390-pt.png").await;
    let _ = phone.close().await;

    // Table 1's tablet, paired by the floor; dealer1 signs in on it (English, 1024×768).
    let c = open_session(&webdriver_url, tmp.path(), "chrome-tablet", 1024, 768).await;
    ok(
        &c,
        c.goto(&format!("{base}/tablet")).await,
        "opening /tablet",
    )
    .await;
    let code = text_of(&c, "#pair-code").await;
    api(
        &server,
        "POST",
        "/api/v1/tablets",
        &floor,
        Some(json!({ "code": code.trim(), "table_id": t1, "label": "Mesa 1" })),
    );
    wait_path(&c, "/login (the tablet moves on once paired)", |p| {
        p == "/login"
    })
    .await;
    choose_language(&c, "en").await;
    sign_in(&c, &base, "dealer1", PASSWORD).await;
    ok(
        &c,
        c.goto(&format!("{base}/tablet")).await,
        "opening /tablet",
    )
    .await;
    let who = text_of(&c, ".tablet-dealer").await;
    assert_eq!(who, "Carlos Dealer");
    ok(
        &c,
        wait_css(&c, "#relief-open").await.click().await,
        "opening the relief form",
    )
    .await;
    select_value(&c, "#relief-dealer", "4").await;
    // A wrong PIN: refused, naming nobody.
    type_into(&c, "#relief-pin", "1111").await;
    ok(
        &c,
        wait_css(&c, "#relief-go").await.click().await,
        "sending a wrong PIN",
    )
    .await;
    let problem = text_of(&c, "#tablet-problem").await;
    if problem != "That PIN is not right. Try again, or ask the floor." {
        fail(&c, format!("tablet: a wrong PIN says {problem:?}")).await;
    }
    ok(
        &c,
        wait_css(&c, "#relief-open").await.click().await,
        "opening the relief form again",
    )
    .await;
    if height_of(&c, "#relief-go").await < 56 || height_of(&c, "#relief-pin").await < 44 {
        fail(&c, "tablet: the relief form's targets are too small").await;
    }
    check_fits(&c, "tablet en, relief form", 1024).await;
    screenshot(&c, "browser-dealers-relief-form-1024-en.png").await;
    select_value(&c, "#relief-dealer", "4").await;
    type_into(&c, "#relief-pin", "4821").await;
    ok(
        &c,
        wait_css(&c, "#relief-go").await.click().await,
        "sending the right PIN",
    )
    .await;
    let done = text_of(&c, "#relief-done").await;
    if !done.starts_with("Wong Dealer deals at this table now. Carlos Dealer:") {
        fail(&c, format!("tablet: after the relief it says {done:?}")).await;
    }
    let who = text_of(&c, ".tablet-dealer").await;
    if who != "Wong Dealer" {
        fail(&c, format!("tablet: the header names {who:?}")).await;
    }
    screenshot(&c, "browser-dealers-relief-done-1024-en.png").await;
    // In Portuguese: the form, for the next relief.
    choose_language(&c, "pt").await;
    ok(
        &c,
        c.goto(&format!("{base}/tablet")).await,
        "opening /tablet (pt)",
    )
    .await;
    let open = text_of(&c, "#relief-open").await;
    if !open.starts_with("Render nesta mesa") {
        fail(&c, format!("tablet pt: the relief button says {open:?}")).await;
    }
    ok(
        &c,
        wait_css(&c, "#relief-open").await.click().await,
        "opening the relief form (pt)",
    )
    .await;
    check_fits(&c, "tablet pt, relief form", 1024).await;
    screenshot(&c, "browser-dealers-relief-form-1024-pt.png").await;
    let night = api(&server, "GET", "/api/v1/dealers/night", &floor, None);
    let wong = night["dealers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["name"] == "Wong Dealer")
        .cloned()
        .unwrap();
    assert_eq!(wong["state"], "dealing", "{night}");
    assert_eq!(wong["table"], 1, "{night}");
    let _ = c.close().await;
}
