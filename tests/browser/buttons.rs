//! Real-browser test of the special buttons on the dealer tablet (BSOP 115, 116): headless
//! Chromium driven through chromedriver against the real `cardroom serve --demo` binary on a
//! fresh SQLite database.
//!
//! Through the JSON API the admin turns on the Cucurucho (4 big blinds) and the Macaca for the
//! game of demo table 3 (running, six players seated), draws where each starts, and pairs the
//! tablet browser (1024×768, `/tablet` showing its code) with table 3; `dealer1` signs in on
//! it. The tablet shows both buttons with their seats (the letters C and M on those seats);
//! the dealer draws the Cucurucho again, typing the reason in its folded form.
//! The dealer taps "new hand" in the browser until the dealer button reaches a special
//! button: the tablet announces the special hand with each player's fixed contribution; the
//! dealer marks a seat out (the total follows). For the Macaca the dealer records her result
//! ("lost") before the next hand. Each special hand is photographed in English and in
//! Portuguese (`target/browser-buttons-{cucurucho,macaca}-{en,pt}.png`); the first screenshot
//! is `target/browser-buttons-placed.png`. Then the back office: the game's form with the
//! buttons ticked, the Macaca's draw record and the report's special hands
//! (`target/browser-buttons-{admin-game,draw,report}.png`). On failure
//! `target/browser-failure.png`.
//!
//! Without chromedriver the test is skipped, unless `CARDROOM_REQUIRE_BROWSER=1`.

use crate::browser_support::*;
use fantoccini::{Client, Locator};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

const DEALER_USER: &str = "dealer1";
const DEMO_PASSWORD: &str = "demo-password";
/// Demo table 3: running, six players in seats 1-6.
const TABLE_NUMBER: i64 = 3;
const TABLET_W: u32 = 1024;
const TABLET_H: u32 = 768;

fn api(
    server: &Server,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (u16, Value) {
    let (status, text) = http_json(server.addr, method, path, token, body.as_ref())
        .unwrap_or_else(|e| panic!("API call failed: {e}"));
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// Runs a script in the page; `None` when WebDriver fails.
async fn js(c: &Client, script: &str) -> Option<Value> {
    c.execute(script, vec![]).await.ok()
}

async fn text_of(c: &Client, css: &str) -> String {
    match c.find(Locator::Css(css)).await {
        Ok(el) => el.text().await.unwrap_or_default(),
        Err(_) => String::new(),
    }
}

/// Clicks `css` and waits for the page it leads to.
async fn click_and_load(c: &Client, css: &str) {
    ok(
        c,
        c.execute("window.__beforeClick = true; return true;", vec![])
            .await,
        "marking the page",
    )
    .await;
    let el = wait_css(c, css).await;
    ok(c, el.click().await, &format!("clicking `{css}`")).await;
    let deadline = Instant::now() + Duration::from_secs(10);
    let loaded = "return window.__beforeClick === undefined && document.readyState === 'complete';";
    while js(c, loaded).await != Some(json!(true)) {
        if Instant::now() >= deadline {
            fail(
                c,
                format!("after clicking `{css}`, no new page within 10 s"),
            )
            .await;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The special game announced on the tablet page (`cucurucho`, `macaca`), if any.
async fn special_on_page(c: &Client) -> Option<String> {
    let v = js(
        c,
        "const h = document.getElementById('special-hand'); \
         if (!h) return null; \
         return h.className.split(' ').filter(x => x.startsWith('special-') && x !== 'special-hand')[0].slice(8);",
    )
    .await?;
    v.as_str().map(str::to_string)
}

/// The tablet in `lang` (the language cookie), the page loaded again.
async fn language(c: &Client, base: &str, lang: &str) {
    ok(
        c,
        c.execute(
            &format!("document.cookie = 'cr_lang={lang}; path=/'; return true;"),
            vec![],
        )
        .await,
        "choosing the language",
    )
    .await;
    ok(
        c,
        c.goto(&format!("{base}/tablet")).await,
        "opening /tablet",
    )
    .await;
    wait_css(c, ".tablet-title").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tablet_shows_the_special_buttons_and_announces_each_special_hand() {
    let Some(chromedriver) = chromedriver_or_skip() else {
        return;
    };
    let tmp = tempfile::tempdir().expect("temporary directory");
    let server =
        browser_app().spawn_binary(env!("CARGO_BIN_EXE_cardroom"), tmp.path(), &["--demo"]);
    let (webdriver_url, _chromedriver) = start_chromedriver(&chromedriver, tmp.path());
    let base = &server.base;

    // The admin (API): table 3's game runs both buttons; each starting seat is drawn.
    let (status, login) = api(
        &server,
        "POST",
        "/api/v1/auth/login",
        None,
        Some(json!({"username": "admin", "password": ADMIN_PASSWORD})),
    );
    assert_eq!(status, 200, "{login}");
    let token = login["token"].as_str().unwrap().to_string();
    let token = Some(token.as_str());
    let (_, tables) = api(&server, "GET", "/api/v1/tables", token, None);
    let table = tables
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["number"] == TABLE_NUMBER)
        .expect("demo table 3")
        .clone();
    let table_id = table["id"].as_i64().unwrap();
    let g = &table["game"];
    let mut input = json!({});
    for k in [
        "name",
        "variant",
        "small_blind",
        "big_blind",
        "limit_class",
        "buy_in_min",
        "buy_in_max",
        "seats",
        "cagnotte_mode",
        "cagnotte_bp",
    ] {
        input[k] = g[k].clone();
    }
    input["cucurucho"] = json!(true);
    input["cucurucho_bb"] = json!(4);
    input["macaca"] = json!(true);
    let (status, game) = api(
        &server,
        "PUT",
        &format!("/api/v1/games/{}", g["id"]),
        token,
        Some(input),
    );
    assert_eq!(status, 200, "{game}");
    let big_blind = game["big_blind"].as_i64().unwrap();
    let mut seats = Vec::new();
    let mut draw_ids = Vec::new();
    for kind in ["cucurucho", "macaca"] {
        let (status, d) = api(
            &server,
            "POST",
            &format!("/api/v1/tables/{table_id}/special-buttons/{kind}/draw"),
            token,
            Some(json!({})),
        );
        assert_eq!(status, 201, "{d}");
        seats.push(d["button"]["seat"].as_i64().unwrap());
        draw_ids.push(d["draw_id"].as_i64().unwrap());
    }
    eprintln!(
        "table {TABLE_NUMBER} (id {table_id}): Cucurucho on seat {}, Macaca on seat {}",
        seats[0], seats[1]
    );

    // The tablet: its code paired with table 3 by the admin, dealer1 signs in.
    let t = open_session(
        &webdriver_url,
        tmp.path(),
        "chrome-profile-tablet",
        TABLET_W,
        TABLET_H,
    )
    .await;
    ok(
        &t,
        t.goto(&format!("{base}/tablet")).await,
        "opening /tablet",
    )
    .await;
    let code = wait_css(&t, "#pair-code")
        .await
        .text()
        .await
        .unwrap_or_default();
    let (status, paired) = api(
        &server,
        "POST",
        "/api/v1/tablets",
        token,
        Some(json!({"code": code.trim(), "table_id": table_id, "label": "Mesa 3"})),
    );
    assert_eq!(status, 201, "{paired}");
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let url = ok(&t, t.current_url().await, "reading the URL").await;
        if url.path() == "/login" {
            break;
        }
        if Instant::now() >= deadline {
            fail(
                &t,
                "the tablet did not go to the sign-in page after pairing",
            )
            .await;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    sign_in(&t, base, DEALER_USER, DEMO_PASSWORD).await;
    ok(
        &t,
        t.goto(&format!("{base}/tablet")).await,
        "opening /tablet",
    )
    .await;
    wait_css(&t, "#special").await;
    for (kind, seat) in ["cucurucho", "macaca"].iter().zip(&seats) {
        let shown = text_of(&t, &format!("#special-{kind}-seat")).await;
        if shown != format!("on seat {seat}") {
            fail(
                &t,
                format!("#special-{kind}-seat reads {shown:?}, expected \"on seat {seat}\""),
            )
            .await;
        }
        if t.find(Locator::Css(&format!("#seat-special-{kind}-{seat}")))
            .await
            .is_err()
        {
            fail(&t, format!("no {kind} marker on seat {seat}")).await;
        }
    }
    screenshot(&t, "browser-buttons-placed.png").await;

    // The dealer draws the Cucurucho again: only with a reason, typed in the folded form.
    let summary = wait_css(&t, "#special-cucurucho-redraw > summary").await;
    ok(
        &t,
        summary.click().await,
        "opening the Cucurucho's redraw form",
    )
    .await;
    type_into(&t, "#special-cucurucho-reason", "o botão caiu da mesa").await;
    click_and_load(&t, "#special-cucurucho-draw").await;
    if let Ok(p) = t.find(Locator::Css("#tablet-problem")).await {
        let msg = p.text().await.unwrap_or_default();
        fail(&t, format!("the redraw was refused: {msg}")).await;
    }
    let (_, b) = api(
        &server,
        "GET",
        &format!("/api/v1/tables/{table_id}/special-buttons"),
        token,
        None,
    );
    if b["buttons"][0]["reason"] != "o botão caiu da mesa" {
        fail(
            &t,
            format!("the Cucurucho after its redraw: {}", b["buttons"][0]),
        )
        .await;
    }
    let seat = b["buttons"][0]["seat"].as_i64().unwrap();
    let shown = text_of(&t, "#special-cucurucho-seat").await;
    if shown != format!("on seat {seat}") {
        fail(
            &t,
            format!(
                "after the redraw #special-cucurucho-seat reads {shown:?}, expected seat {seat}"
            ),
        )
        .await;
    }

    // The dealer taps "new hand" until each special hand has come (six seats: within two
    // orbits).
    let mut seen: Vec<String> = Vec::new();
    for tap in 1..=14 {
        click_and_load(&t, "#new-hand").await;
        if let Ok(p) = t.find(Locator::Css("#tablet-problem")).await {
            let msg = p.text().await.unwrap_or_default();
            fail(
                &t,
                format!("tap {tap}: the tablet refused the new hand: {msg}"),
            )
            .await;
        }
        let Some(kind) = special_on_page(&t).await else {
            continue;
        };
        eprintln!("tap {tap}: a {kind} hand");
        let each = text_of(&t, "#special-each").await;
        let bb = if kind == "cucurucho" { 4 } else { 3 };
        let amount = format!("€{}.{:02}", big_blind * bb / 100, big_blind * bb % 100);
        let want = if kind == "cucurucho" {
            format!("Every player puts {amount} in the pot.")
        } else {
            format!("Every player puts {amount} for the Macaca.")
        };
        if !each.starts_with(&want) {
            fail(
                &t,
                format!("#special-each reads {each:?}, expected {want:?}"),
            )
            .await;
        }
        let before = text_of(&t, "#special-total").await;
        if !before.starts_with("6 players take part") {
            fail(&t, format!("#special-total reads {before:?}")).await;
        }
        // Seat 1 did not take part: marked out, the total follows.
        click_and_load(&t, "#special-toggle-1").await;
        let after = text_of(&t, "#special-total").await;
        if !after.starts_with("5 players take part") {
            fail(
                &t,
                format!("after marking seat 1 out, #special-total reads {after:?}"),
            )
            .await;
        }
        let seat1 = text_of(&t, "#special-seat-1").await;
        if !seat1.contains("not in this hand") {
            fail(&t, format!("#special-seat-1 reads {seat1:?}")).await;
        }
        scroll_to_top(&t).await;
        screenshot(&t, &format!("browser-buttons-{kind}-en.png")).await;
        language(&t, base, "pt").await;
        let each = text_of(&t, "#special-each").await;
        if !each.starts_with("Cada jogador põe") {
            fail(&t, format!("in Portuguese #special-each reads {each:?}")).await;
        }
        screenshot(&t, &format!("browser-buttons-{kind}-pt.png")).await;
        language(&t, base, "en").await;
        if kind == "macaca" {
            // BSOP 116: her result before the next hand.
            let stake = text_of(&t, "#macaca-stake").await;
            if !stake.starts_with("The Macaca is all in for") {
                fail(&t, format!("#macaca-stake reads {stake:?}")).await;
            }
            click_and_load(&t, "#macaca-lost").await;
            let result = text_of(&t, "#macaca-result").await;
            if !result.contains("The Macaca lost") {
                fail(&t, format!("#macaca-result reads {result:?}")).await;
            }
        }
        if !seen.contains(&kind) {
            seen.push(kind);
        }
        if seen.len() == 2 {
            break;
        }
    }
    if seen.len() != 2 {
        fail(
            &t,
            format!("after 14 hands only these special hands came: {seen:?}"),
        )
        .await;
    }
    let _ = t.close().await;

    // The back office (1440×900): the game's settings, the draw's record, the report.
    let a = open_session(
        &webdriver_url,
        tmp.path(),
        "chrome-profile-admin",
        1440,
        900,
    )
    .await;
    sign_in(&a, base, "admin", ADMIN_PASSWORD).await;
    let game_page = format!("{base}/admin/games/{}", g["id"]);
    ok(&a, a.goto(&game_page).await, "opening the game").await;
    wait_css(&a, "#special-buttons").await;
    let shown = js(
        &a,
        "return [document.getElementById('cucurucho').checked, \
         document.getElementById('cucurucho_bb').value, document.getElementById('macaca').checked];",
    )
    .await;
    if shown != Some(json!([true, "4", true])) {
        fail(
            &a,
            format!("the game's form shows the buttons as {shown:?}"),
        )
        .await;
    }
    let _ = js(
        &a,
        "document.getElementById('special-buttons').scrollIntoView(); return true;",
    )
    .await;
    screenshot(&a, "browser-buttons-admin-game.png").await;
    let draw_page = format!("{base}/draws/{}", draw_ids[1]);
    ok(&a, a.goto(&draw_page).await, "opening the Macaca's draw").await;
    let outcome = wait_css(&a, "#draw-outcome")
        .await
        .text()
        .await
        .unwrap_or_default();
    if !outcome.starts_with(&format!("The Macaca starts on seat {}:", seats[1])) {
        fail(&a, format!("the draw's record says {outcome:?}")).await;
    }
    screenshot(&a, "browser-buttons-draw.png").await;
    let report = format!("{base}/floor/reports?table={table_id}");
    ok(&a, a.goto(&report).await, "opening the report").await;
    let card = wait_css(&a, "#report-special-card").await;
    let _ = js(
        &a,
        "document.getElementById('report-special-card').scrollIntoView(); return true;",
    )
    .await;
    let text = card.text().await.unwrap_or_default();
    if !text.contains("Special hands (BSOP 115, 116)") {
        fail(&a, format!("the report's special hands read {text:?}")).await;
    }
    screenshot(&a, "browser-buttons-report.png").await;
    let _ = a.close().await;
}
