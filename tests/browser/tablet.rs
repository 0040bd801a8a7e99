//! Real-browser test of the dealer tablet with two browsers at once: headless Chromium driven
//! through chromedriver (WebDriver) against the real `cardroom serve --demo` binary on a fresh
//! SQLite database, started with the test clock on (`CARDROOM_TEST_CLOCK=1`).
//!
//! The tablet browser (viewport 1024×768) opens `/tablet` and shows a pairing code; the floor
//! browser (signed in as `floor`) enters it under `/floor/tablets` for demo table 2 (open,
//! three players seated, its game's list waiting). The tablet moves on by itself (htmx polls
//! `/tablet/pair/status`) to the sign-in page; `dealer1` signs in and sees the table. The
//! floor calls the next player to a free seat of table 2 from `/floor`; the call appears on
//! the tablet without a reload (`window.__marker` survives), pushed through `/tablet/stream`.
//! The dealer acknowledges it (the floor's dashboard shows "Acknowledged", again without a
//! reload), seats the player with a buy-in inside the game's range (read from
//! `#required-{id}`), opens the seat, marks the player away, and the seat card counts down.
//! An admin moves the server's clock 15 minutes forward through the API
//! (`POST /api/v1/test/clock/advance`); the scheduler (one pass a second, `app::run_timers`)
//! finds the absence limit passed (BSOP 36) and pushes `seat.removal_due`: the floor's
//! dashboard shows the removal alert and the tablet the "due for chip removal" badge, neither
//! reloaded. The seat page then offers `#start-removal`. While the dealer types the storage
//! place there, the floor sends the table a message: the seat page shows it without a reload
//! and keeps the typed text (`#live-stale` says the page changed); "Seen" removes it and the
//! floor's `/floor/tablets` lists it as seen. Signing out takes two taps. Finally the tablet
//! is switched to Portuguese for the `browser-tablet-pt-*.png` screenshots.
//!
//! Without chromedriver the test is skipped, unless `CARDROOM_REQUIRE_BROWSER=1` (set by
//! `tests/run.sh`), which makes a missing browser a failure. Screenshots of the tablet go to
//! `target/browser-tablet-*.png` (pair, table, call, acked, seated, seat, away, removal,
//! seat-removal) plus `target/browser-tablet-floor.png` (the floor's alert); on failure
//! `target/browser-tablet-failure.png` (the browser that failed) and
//! `target/browser-tablet-failure-other.png` (the other one). The layout of each tablet page
//! (viewport, horizontal overflow, tap targets under 56 px) is printed, never asserted.

use crate::browser_support::*;
use fantoccini::{Client, Locator};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// Demo staff accounts (src/demo.rs) and their password.
const FLOOR_USER: &str = "floor";
const DEALER_USER: &str = "dealer1";
const DEMO_PASSWORD: &str = "demo-password";
/// Demo table 2: open with three players seated (seats 1-3), game "NL Hold'em 1/2", whose
/// list has four players waiting.
const TABLE_NUMBER: i64 = 2;
/// How long one browser may take to show a change made elsewhere (pushed events).
const LIVE_WAIT: Duration = Duration::from_secs(10);
/// How long a page load or an element may take.
const PAGE_WAIT: Duration = Duration::from_secs(10);
/// The tablet's viewport.
const TABLET_W: u32 = 1024;
const TABLET_H: u32 = 768;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tablet_pairs_follows_a_call_seats_and_flags_an_absence() {
    let Some(chromedriver) = chromedriver_or_skip() else {
        return;
    };

    // Declared first so it is removed last, after the processes using it are gone.
    let tmp = tempfile::tempdir().expect("temporary directory");
    let started = Instant::now();
    let server = browser_app().clock(ClockKind::Test).spawn_binary(
        env!("CARGO_BIN_EXE_cardroom"),
        tmp.path(),
        &["--demo"],
    );
    eprintln!(
        "server with the demo room and the test clock up after {:?}",
        started.elapsed()
    );
    let (webdriver_url, _chromedriver) = start_chromedriver(&chromedriver, tmp.path());
    let base = &server.base;

    // The admin's API token (for the test clock), and the clock is really a test clock.
    let token = admin_token(&server);
    let (status, body) = api(&server, "GET", "/api/v1/test/clock", &token, None);
    if status != 200 {
        panic!("GET /api/v1/test/clock answered {status} (is CARDROOM_TEST_CLOCK=1 reaching the server?): {body}");
    }

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
        TABLET_W,
        TABLET_H,
    )
    .await;
    let (t, f) = (&tablet, &floor);

    // 1. The floor manager signs in and finds table 2 and its first free seat.
    ok2(
        f,
        t,
        f.goto(&format!("{base}/login")).await,
        "floor: opening /login",
    )
    .await;
    sign_in(f, t, FLOOR_USER).await;
    // The table's side panel on the floor board holds its seats and forms.
    let table_css = format!("#panel #table-{TABLE_NUMBER}");
    goto(
        f,
        t,
        &format!("{base}/floor?table={TABLE_NUMBER}"),
        &table_css,
    )
    .await;
    let (table_id, seat) = free_seat(f, t, &table_css).await;
    eprintln!("table {TABLE_NUMBER} is id {table_id}; first free seat {seat}");

    // 2. The tablet shows a pairing code.
    goto(t, f, &format!("{base}/tablet"), "#pair-code").await;
    let code = text_of(t, "#pair-code")
        .await
        .unwrap_or_default()
        .trim()
        .to_string();
    if !is_pair_code(&code) {
        die(t, f, format!("tablet: #pair-code shows {code:?}, expected two groups of three letters/digits like ABC-DEF")).await;
    }
    eprintln!("tablet pairing code {code}");
    layout_report(t, "pairing page").await;
    screenshot(t, "browser-tablet-pair.png").await;
    docs_screenshot(t, "tablet-pair.png", TABLET_W, TABLET_H).await;

    // The floor enters it for table 2.
    goto(f, t, &format!("{base}/floor/tablets"), "#pair-form").await;
    type_text(f, t, "#pair-code", &code).await;
    let select = wait_el(f, t, "#pair-table", "floor: the table choice #pair-table").await;
    ok2(
        f,
        t,
        select.select_by_value(&table_id.to_string()).await,
        &format!("floor: choosing table id {table_id} in #pair-table"),
    )
    .await;
    type_text(f, t, "#pair-label", "Mesa 2").await;
    click_and_load(
        f,
        t,
        "#pair-form button[type=submit]",
        "floor: submitting the pairing form",
    )
    .await;
    let paired = wait_js(
        f,
        t,
        PAGE_WAIT,
        "floor: the pairing to be confirmed (#tablets-paired)",
        JS_PAIRED,
        vec![],
        |v| v["paired"].is_string() || v["problem"].is_string(),
    )
    .await;
    if let Some(p) = paired["problem"].as_str() {
        die(
            f,
            t,
            format!("floor: pairing code {code} with table {TABLE_NUMBER} was refused: {p:?}"),
        )
        .await;
    }

    // 3. The tablet, polling every 2 s, goes by itself to the dealer's sign-in.
    let at = wait_js(
        t,
        f,
        Duration::from_secs(15),
        "tablet: to move by itself to /login?next=/tablet after pairing",
        JS_WHERE,
        vec![],
        |v| v["path"] == json!("/login") && v["ready"] == json!(true),
    )
    .await;
    let search = at["search"].as_str().unwrap_or_default();
    if !(search.contains("next=/tablet") || search.contains("next=%2Ftablet")) {
        die(
            t,
            f,
            format!("tablet: at /login{search}, expected ?next=/tablet"),
        )
        .await;
    }
    sign_in(t, f, DEALER_USER).await;
    let path = current_path(t, f).await;
    if path != "/tablet" {
        die(
            t,
            f,
            format!("tablet: after {DEALER_USER} signed in, the tablet is at {path}, not /tablet"),
        )
        .await;
    }
    let title = text_of(&tablet, ".tablet-title").await.unwrap_or_default();
    if !title
        .split_whitespace()
        .any(|w| w == TABLE_NUMBER.to_string())
    {
        die(
            t,
            f,
            format!("tablet: .tablet-title is {title:?}, expected table {TABLE_NUMBER}"),
        )
        .await;
    }
    wait_live_connected(t, f, "tablet").await;
    set_marker(t, f, 1).await;
    layout_report(t, "table page").await;
    screenshot(t, "browser-tablet-table.png").await;

    // 4. The floor calls the next player to the free seat (the seat's "Call" button in the
    // table's panel; the floor comes back to the panel).
    goto(
        f,
        t,
        &format!("{base}/floor?table={TABLE_NUMBER}"),
        &table_css,
    )
    .await;
    wait_live_connected(f, t, "floor").await;
    let call_button =
        format!("{table_css} form[action=\"/floor/tables/{table_id}/seats/{seat}/call\"] button");
    click_and_load(
        f,
        t,
        &call_button,
        &format!("floor: calling the next player to seat {seat} of table {TABLE_NUMBER}"),
    )
    .await;
    floor_problem(f, t, "calling the next player").await;
    let called = js(f, JS_CALL_ON_FLOOR, vec![json!(table_css)])
        .await
        .unwrap_or(Value::Null);
    let (Some(call_id), Some(alias)) = (
        called["id"].as_i64(),
        called["alias"].as_str().map(str::to_string),
    ) else {
        die(f, t, format!("floor: after calling, table {TABLE_NUMBER} shows no pending call with a seat button ({called})")).await
    };
    if called["seat"].as_i64() != Some(seat) {
        die(
            f,
            t,
            format!(
                "floor: the call {call_id} is for seat {}, expected seat {seat} ({called})",
                called["seat"]
            ),
        )
        .await;
    }
    eprintln!("floor called {alias} to seat {seat} (call {call_id})");
    wait_live_connected(f, t, "floor").await;
    set_marker(f, t, 1).await;

    // The call reaches the tablet, pushed: no reload.
    let call_css = format!("#call-{call_id}");
    let t0 = Instant::now();
    wait_js(
        t,
        f,
        LIVE_WAIT,
        &format!("tablet: the call {call_css} for {alias} to appear without a reload"),
        JS_ELEMENT,
        vec![json!(call_css)],
        |v| {
            v["marker"] == json!(1)
                && v["text"]
                    .as_str()
                    .is_some_and(|s| s.contains(alias.as_str()))
        },
    )
    .await;
    eprintln!(
        "tablet showed the call {:?} after the floor's page came back (no reload)",
        t0.elapsed()
    );
    no_reload(t, f, 1, "the call was pushed").await;
    layout_report(t, "table page with a call").await;
    screenshot(t, "browser-tablet-call.png").await;
    docs_screenshot(t, "tablet-call.png", TABLET_W, TABLET_H).await;

    // 5. The dealer acknowledges it (a form: the tablet page loads again).
    click_and_load(
        t,
        f,
        &format!("#ack-{call_id}"),
        "tablet: tapping Acknowledge",
    )
    .await;
    tablet_problem(t, f, "acknowledging the call").await;
    let acked = wait_js(
        t,
        f,
        PAGE_WAIT,
        &format!("tablet: {call_css} to show Acknowledged"),
        JS_ELEMENT,
        vec![json!(call_css)],
        |v| {
            v["cls"]
                .as_str()
                .is_some_and(|c| c.split_whitespace().any(|x| x == "acked"))
                && v["text"]
                    .as_str()
                    .is_some_and(|s| s.contains("Acknowledged"))
        },
    )
    .await;
    if find_now(t, &format!("#ack-{call_id}")).await.is_some() {
        die(
            t,
            f,
            format!("tablet: the Acknowledge button is still there after acknowledging ({acked})"),
        )
        .await;
    }
    screenshot(t, "browser-tablet-acked.png").await;

    // The floor's dashboard (not reloaded since the call) shows it acknowledged.
    let t0 = Instant::now();
    wait_js(f, t, LIVE_WAIT, &format!("floor: seat {seat} of table {TABLE_NUMBER} to show the call acknowledged, without a reload"), JS_FLOOR_SEAT, vec![json!(table_css), json!(call_id)], |v| {
        v["marker"] == json!(1) && v["acked"] == json!(true)
    })
    .await;
    eprintln!(
        "floor showed the acknowledgement {:?} after the tablet's page came back (no reload)",
        t0.elapsed()
    );

    // 6. The buy-in the player must bring, shown before typing; an amount inside it.
    let required = text_of(t, &format!("#required-{call_id}"))
        .await
        .unwrap_or_default();
    let Some((min, max)) = buyin_range(&required) else {
        die(t, f, format!("tablet: cannot read a buy-in range (min – max) from #required-{call_id}: {required:?}")).await
    };
    let amount = choose_amount(min, max);
    eprintln!(
        "required buy-in {required:?}: min {min}, max {max} (minor units); typing {}",
        typed_amount(amount)
    );
    type_text(t, f, &format!("#amount-{call_id}"), &typed_amount(amount)).await;
    click_and_load(
        t,
        f,
        &format!("#seat-{call_id}"),
        "tablet: tapping Seat with this buy-in",
    )
    .await;
    tablet_problem(t, f, "seating the called player with the buy-in").await;
    if find_now(t, &call_css).await.is_some() {
        die(
            t,
            f,
            format!("tablet: the call {call_css} is still shown after seating {alias}"),
        )
        .await;
    }
    let card_css = format!("#seat-card-{seat}");
    let card = js(t, JS_SEAT_CARD, vec![json!(card_css)])
        .await
        .unwrap_or(Value::Null);
    let stack_digits: String = card["stack"]
        .as_str()
        .unwrap_or_default()
        .chars()
        .filter(char::is_ascii_digit)
        .collect();
    if !card["text"]
        .as_str()
        .is_some_and(|s| s.contains(alias.as_str()))
        || stack_digits != amount.to_string()
    {
        die(t, f, format!("tablet: {card_css} should show {alias} with a stack of {amount} minor units ({card})")).await;
    }
    eprintln!("seat card after seating: {:?}", card["text"]);
    layout_report(t, "table page with a seated player").await;
    screenshot(t, "browser-tablet-seated.png").await;

    // 6b. The first hand-over tap starts the table's cagnotte session (PT-2007 7b, the demo's
    // pt-casino profile): every seated player owes, each seat shows it, the dealer collects.
    click_and_load(t, f, "#new-hand", "tablet: tapping the hand-over button").await;
    tablet_problem(t, f, "the first hand (starting the cagnotte session)").await;
    wait_el(t, f, "#cagnotte", "tablet: the cagnotte session panel").await;
    let owes = text_of(t, &format!("#seat-due-{seat}"))
        .await
        .unwrap_or_default();
    if !owes.chars().any(|c| c.is_ascii_digit()) {
        die(t, f, format!("tablet: seat {seat} should show what it owes for the session (#seat-due-{seat}: {owes:?})")).await;
    }
    let first = js(t, "const b = document.querySelector('#cagnotte button[id^=collect-]'); return b ? b.id : null;", vec![]).await.unwrap_or(Value::Null);
    let Some(button) = first.as_str().map(str::to_string) else {
        die(
            t,
            f,
            "tablet: no Collect button in the cagnotte panel".to_string(),
        )
        .await
    };
    let due_li = button.replace("collect-", "due-");
    let before = text_of(t, "#cagnotte-to-collect").await.unwrap_or_default();
    click_and_load(t, f, &format!("#{button}"), "tablet: tapping Collect").await;
    tablet_problem(t, f, "collecting a session due").await;
    let li = js(
        t,
        "const e = document.getElementById(arguments[0]); return e ? e.className : null;",
        vec![json!(due_li)],
    )
    .await
    .unwrap_or(Value::Null);
    let after = text_of(t, "#cagnotte-to-collect").await.unwrap_or_default();
    if !li.as_str().is_some_and(|c| c.contains("due-collected"))
        || after == before
        || find_now(t, &format!("#{button}")).await.is_some()
    {
        die(t, f, format!("tablet: after Collect, #{due_li} should be collected ({li}) and the total to collect should drop ({before:?} → {after:?})")).await;
    }
    eprintln!("cagnotte: {before:?} → {after:?} after one collection");
    screenshot(t, "browser-tablet-cagnotte.png").await;

    // 7. The seat page; the player goes away.
    click_and_load(
        t,
        f,
        &format!("#seat-open-{seat}"),
        &format!("tablet: opening seat {seat}"),
    )
    .await;
    let path = current_path(t, f).await;
    if !path.starts_with("/tablet/seats/") {
        die(
            t,
            f,
            format!("tablet: opening seat {seat} led to {path}, not /tablet/seats/…"),
        )
        .await;
    }
    wait_el(
        t,
        f,
        "#mark-away",
        "tablet: the seat page's Player away button #mark-away",
    )
    .await;
    let seat_stack: String = text_of(t, "#seat-stack")
        .await
        .unwrap_or_default()
        .chars()
        .filter(char::is_ascii_digit)
        .collect();
    if seat_stack != amount.to_string() {
        die(t, f, format!("tablet: the seat page's #seat-stack shows {seat_stack:?} (digits), expected {amount}")).await;
    }
    layout_report(t, "seat page").await;
    screenshot(t, "browser-tablet-seat.png").await;
    click_and_load(t, f, "#mark-away", "tablet: tapping Player away").await;
    tablet_problem(t, f, "marking the player away").await;
    let path = current_path(t, f).await;
    if path != "/tablet" {
        die(t, f, format!("tablet: after Player away the tablet is at {path}, not back at the table (/tablet)")).await;
    }
    let card = js(t, JS_SEAT_CARD, vec![json!(card_css)])
        .await
        .unwrap_or(Value::Null);
    let away = card["cls"]
        .as_str()
        .is_some_and(|c| c.split_whitespace().any(|x| x == "away"));
    let secs = card["countdown"].as_i64();
    // BSOP 36 (demo profile): 15 minutes; a few seconds may have passed since.
    if !away
        || !card["text"].as_str().is_some_and(|s| s.contains("Away"))
        || !secs.is_some_and(|s| (840..=900).contains(&s))
    {
        die(
            t,
            f,
            format!("tablet: {card_css} should show Away with a countdown of about 15:00 ({card})"),
        )
        .await;
    }
    eprintln!(
        "seat card after Player away: {:?} (countdown {secs:?} s)",
        card["text"]
    );
    screenshot(t, "browser-tablet-away.png").await;

    // 8. The clock moves 15 minutes. Nothing is pushed by the move itself (the API only
    // shifts the clock); the scheduler's next pass (every second) finds the absence limit
    // passed, records `seat.removal_due` and pushes it to the floor's and the table's
    // streams. So both pages must show it WITHOUT a reload: the markers must survive.
    wait_live_connected(t, f, "tablet").await;
    set_marker(t, f, 2).await;
    set_marker(f, t, 2).await;
    let (status, body) = api(
        &server,
        "POST",
        "/api/v1/test/clock/advance",
        &token,
        Some(json!({ "minutes": 15 })),
    );
    if status != 200 {
        die(
            t,
            f,
            format!("POST /api/v1/test/clock/advance {{minutes: 15}} answered {status}: {body}"),
        )
        .await;
    }
    eprintln!("clock advanced: {body}");
    let t0 = Instant::now();
    let removal_css = format!("#removal-{TABLE_NUMBER}-{seat}");
    wait_js(
        f,
        t,
        LIVE_WAIT,
        &format!("floor: the removal alert {removal_css} (pushed by the scheduler, no reload)"),
        JS_ELEMENT,
        vec![json!(removal_css)],
        |v| {
            v["marker"] == json!(2)
                && v["text"]
                    .as_str()
                    .is_some_and(|s| s.contains(alias.as_str()))
        },
    )
    .await;
    eprintln!(
        "floor showed {removal_css} {:?} after the clock moved",
        t0.elapsed()
    );
    let due_css = format!("#removal-due-{seat}");
    wait_js(
        t,
        f,
        LIVE_WAIT,
        &format!("tablet: the badge {due_css} (pushed by the scheduler, no reload)"),
        JS_ELEMENT,
        vec![json!(due_css)],
        |v| v["marker"] == json!(2) && v["text"].is_string(),
    )
    .await;
    eprintln!(
        "tablet showed {due_css} {:?} after the clock moved",
        t0.elapsed()
    );
    let card = js(t, JS_SEAT_CARD, vec![json!(card_css)])
        .await
        .unwrap_or(Value::Null);
    if card["countdown"].is_i64() {
        die(t, f, format!("tablet: {card_css} still shows the away countdown although the seat is due for removal ({card})")).await;
    }
    screenshot(t, "browser-tablet-removal.png").await;
    let scroll = "const e = document.querySelector(arguments[0]); if (e) e.scrollIntoView({ block: 'center' }); return !!e;";
    let _ = js(f, scroll, vec![json!(removal_css)]).await;
    screenshot(f, "browser-tablet-floor.png").await;

    // The seat page offers the chip removal.
    click_and_load(
        t,
        f,
        &format!("#seat-open-{seat}"),
        &format!("tablet: opening seat {seat} due for removal"),
    )
    .await;
    wait_el(
        t,
        f,
        "#start-removal",
        "tablet: the seat page's Take the chips off button #start-removal",
    )
    .await;
    layout_report(t, "seat page due for removal").await;
    screenshot(t, "browser-tablet-seat-removal.png").await;

    // 9. The seat page is live too, without wiping what the dealer types. The dealer starts
    // typing the storage place; the floor sends the table a message (an event on the
    // table's stream): the seat page shows it without a reload, keeps the typed text and
    // says that the page changed meanwhile.
    wait_live_connected(t, f, "tablet seat page").await;
    set_marker(t, f, 3).await;
    type_text(t, f, "#remove-storage", "Caixa 7").await;
    let (status, body) = api(
        &server,
        "POST",
        &format!("/api/v1/tables/{table_id}/floor-messages"),
        &token,
        Some(json!({ "body": "Mesa 2: novo baralho a caminho" })),
    );
    if status != 201 {
        die(
            t,
            f,
            format!("POST /api/v1/tables/{table_id}/floor-messages answered {status}: {body}"),
        )
        .await;
    }
    let message_id = serde_json::from_str::<Value>(&body)
        .ok()
        .and_then(|v| v["id"].as_i64())
        .unwrap_or_default();
    let msg_css = format!("#floor-message-{message_id}");
    let t0 = Instant::now();
    wait_js(
        t,
        f,
        LIVE_WAIT,
        &format!("tablet seat page: the floor's message {msg_css} without a reload"),
        JS_ELEMENT,
        vec![json!(msg_css)],
        |v| {
            v["marker"] == json!(3)
                && v["text"]
                    .as_str()
                    .is_some_and(|s| s.contains("novo baralho"))
        },
    )
    .await;
    eprintln!(
        "seat page showed the floor's message {:?} after it was sent (no reload)",
        t0.elapsed()
    );
    let kept = js(t, "const i = document.getElementById('remove-storage'), s = document.getElementById('live-stale');\
                      return { value: i ? i.value : null, stale: s ? !s.hidden : null };", vec![]).await.unwrap_or(Value::Null);
    if kept["value"] != json!("Caixa 7") || kept["stale"] != json!(true) {
        die(t, f, format!("tablet seat page: after the live update the typed storage place must stay (\"Caixa 7\") and #live-stale show ({kept})")).await;
    }
    layout_report(t, "seat page with a message").await;
    screenshot(t, "browser-tablet-seat-message.png").await;
    // Seen: the message leaves the tablet; the floor's list shows who saw it.
    click_and_load(
        t,
        f,
        &format!("#seen-{message_id}"),
        "tablet: tapping Seen on the floor's message",
    )
    .await;
    tablet_problem(t, f, "marking the message seen").await;
    if find_now(t, &msg_css).await.is_some() {
        die(t, f, format!("tablet: {msg_css} is still shown after Seen")).await;
    }
    goto(f, t, &format!("{base}/floor/tablets"), "#messages").await;
    let row = text_of(f, &format!("#message-{message_id}"))
        .await
        .unwrap_or_default();
    if !row.contains("novo baralho") || row.contains("Not seen yet") {
        die(
            f,
            t,
            format!("floor: /floor/tablets should list the message as seen: {row:?}"),
        )
        .await;
    }

    // 10. Signing out of the tablet takes two taps: the first only asks again.
    // (Seen brought the tablet back to the table page.)
    goto(t, f, &format!("{base}/tablet"), "#sign-out").await;
    let btn = wait_el(t, f, "#sign-out", "tablet: the Sign out button").await;
    ok2(t, f, btn.click().await, "tablet: first tap on Sign out").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let label = text_of(t, "#sign-out").await.unwrap_or_default();
    let path = current_path(t, f).await;
    if path != "/tablet" || !label.contains("again") {
        die(
            t,
            f,
            format!(
                "tablet: one tap on Sign out should only ask again (at {path}, button {label:?})"
            ),
        )
        .await;
    }
    screenshot(t, "browser-tablet-sign-out.png").await;
    click_and_load(t, f, "#sign-out", "tablet: second tap on Sign out").await;
    let path = current_path(t, f).await;
    if path != "/login" && path != "/tablet" {
        die(
            t,
            f,
            format!("tablet: after signing out the tablet is at {path}"),
        )
        .await;
    }
    if find_now(t, "#login-form").await.is_none() {
        die(
            t,
            f,
            format!("tablet: after two taps on Sign out, no sign-in form (at {path})"),
        )
        .await;
    }

    // 11. The same tablet in Portuguese (screenshots of the pages a Lisbon dealer sees).
    ok2(
        t,
        f,
        t.execute(
            "document.cookie = 'cr_lang=pt; path=/'; return true;",
            vec![],
        )
        .await,
        "tablet: choosing Portuguese",
    )
    .await;
    sign_in(t, f, DEALER_USER).await;
    goto(t, f, &format!("{base}/tablet"), ".tablet-title").await;
    let title = text_of(t, ".tablet-title").await.unwrap_or_default();
    if !title.contains("Mesa") {
        die(
            t,
            f,
            format!("tablet: in Portuguese the title should read Mesa …, got {title:?}"),
        )
        .await;
    }
    layout_report(t, "table page (pt)").await;
    screenshot(t, "browser-tablet-pt-table.png").await;
    click_and_load(
        t,
        f,
        &format!("#seat-open-{seat}"),
        &format!("tablet: opening seat {seat} (pt)"),
    )
    .await;
    wait_el(
        t,
        f,
        "#start-removal",
        "tablet (pt): the seat page's removal button",
    )
    .await;
    layout_report(t, "seat page (pt)").await;
    screenshot(t, "browser-tablet-pt-seat.png").await;
    // Portrait (the tablet turned): the same pages, one column.
    ok2(
        t,
        f,
        t.set_window_size(TABLET_H, TABLET_W).await,
        "tablet: turning to portrait",
    )
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    layout_report(t, "seat page (pt, portrait)").await;
    screenshot(t, "browser-tablet-pt-seat-portrait.png").await;
    goto(t, f, &format!("{base}/tablet"), ".tablet-title").await;
    layout_report(t, "table page (pt, portrait)").await;
    screenshot(t, "browser-tablet-pt-table-portrait.png").await;

    // 12. Cashing out takes two taps (pt, portrait): the first shows the receipt and a
    // confirmation at the top of the seat page, and the seat stays taken; the second frees it
    // and the table page shows the receipt.
    click_and_load(
        t,
        f,
        &format!("#seat-open-{seat}"),
        &format!("tablet: opening seat {seat} to cash out (pt)"),
    )
    .await;
    type_text(t, f, "#cash-out-stack", &typed_amount(amount)).await;
    click_and_load(t, f, "#cash-out", "tablet: the first tap on Cash out").await;
    tablet_problem(t, f, "the first tap on Cash out").await;
    wait_el(
        t,
        f,
        "#cash-out-confirm-button",
        "tablet (pt): the cash-out's confirmation after the first tap",
    )
    .await;
    let seen = js(
        t,
        "const b = document.getElementById('cash-out-confirm-button').getBoundingClientRect();\
         return { bottom: b.bottom, height: window.innerHeight, path: location.pathname,\
                  text: document.getElementById('cash-out-confirm').innerText };",
        vec![],
    )
    .await
    .unwrap_or(Value::Null);
    if !seen["path"]
        .as_str()
        .is_some_and(|p| p.starts_with("/tablet/seats/"))
        || !seen["text"]
            .as_str()
            .is_some_and(|x| x.contains("Trocar as fichas"))
        || seen["bottom"].as_f64().unwrap_or(f64::MAX) > seen["height"].as_f64().unwrap_or(0.0)
    {
        die(t, f, format!("tablet (pt): after the first tap the confirmation must be on the seat page, within the screen ({seen})")).await;
    }
    screenshot(t, "browser-tablet-pt-cash-out-confirm.png").await;
    goto(t, f, &format!("{base}/tablet"), ".tablet-title").await;
    wait_el(
        t,
        f,
        &format!("#seat-open-{seat}"),
        "tablet (pt): the seat still taken after only the first tap",
    )
    .await;
    click_and_load(
        t,
        f,
        &format!("#seat-open-{seat}"),
        &format!("tablet: opening seat {seat} again (pt)"),
    )
    .await;
    type_text(t, f, "#cash-out-stack", &typed_amount(amount)).await;
    click_and_load(t, f, "#cash-out", "tablet: Cash out, first tap again").await;
    click_and_load(
        t,
        f,
        "#cash-out-confirm-button",
        "tablet: the second tap confirms the cash-out",
    )
    .await;
    tablet_problem(t, f, "the confirmed cash-out").await;
    wait_el(
        t,
        f,
        "#cash-out-receipt",
        "tablet (pt): the receipt on the table page after the cash-out",
    )
    .await;
    if find_now(t, &format!("#seat-open-{seat}")).await.is_some() {
        die(
            t,
            f,
            format!("tablet (pt): seat {seat} is still taken after the confirmed cash-out"),
        )
        .await;
    }
    screenshot(t, "browser-tablet-pt-cash-out-receipt.png").await;

    for (name, c) in [("tablet", tablet), ("floor", floor)] {
        if let Err(e) = c.close().await {
            panic!("closing the {name} browser's session: {e}");
        }
    }
}

// ---- scripts run in the browsers ----------------------------------------------------------

const JS_WHERE: &str = "return { path: location.pathname, search: location.search, ready: document.readyState === 'complete' };";

const JS_PAIRED: &str = "const p = document.getElementById('tablets-paired'), e = document.getElementById('tablets-problem');\
                         return { paired: p ? p.innerText : null, problem: e ? e.innerText : null };";

/// An element's text and class, with the page's marker.
const JS_ELEMENT: &str = "const e = document.querySelector(arguments[0]);\
                          return { text: e ? e.innerText : null, cls: e ? e.className : null,\
                                   marker: window.__marker === undefined ? null : window.__marker, path: location.pathname };";

/// The pending call in a floor table panel: its id (from the seat button's form), seat, alias.
const JS_CALL_ON_FLOOR: &str = "const t = document.querySelector(arguments[0]);\
    const f = t ? t.querySelector('form[action^=\"/floor/calls/\"][action$=\"/seat\"]') : null;\
    if (!f) return { card: t ? t.innerText : null };\
    const li = f.closest('li'); const who = li ? li.querySelector('.who') : null;\
    const no = li ? li.querySelector('.seat-no') : null;\
    return { id: parseInt(f.getAttribute('action').split('/')[3], 10), alias: who ? who.innerText.trim() : null,\
             seat: no ? parseInt(no.innerText, 10) : null };";

/// The floor's seat showing call `arguments[1]`: acknowledged (the badge-ok) or not.
const JS_FLOOR_SEAT: &str = "const t = document.querySelector(arguments[0]);\
    const f = t ? t.querySelector('form[action=\"/floor/calls/' + arguments[1] + '/seat\"]') : null;\
    const li = f ? f.closest('li') : null; const b = li ? li.querySelector('.badge-ok') : null;\
    return { text: li ? li.innerText : null, acked: !!b && b.innerText.includes('Acknowledged'),\
             marker: window.__marker === undefined ? null : window.__marker };";

/// A tablet seat card: text, class, the stack and the away countdown (seconds), if any.
const JS_SEAT_CARD: &str = "const e = document.querySelector(arguments[0]);\
    if (!e) return null;\
    const s = e.querySelector('.stack'); const c = e.querySelector('.countdown[data-seconds]');\
    return { text: e.innerText, cls: e.className, stack: s ? s.innerText : null,\
             countdown: c ? parseInt(c.getAttribute('data-seconds'), 10) : null };";

/// The layout of a tablet page: viewport, overflow, and the tap targets under 56 px.
const JS_LAYOUT: &str = "const r = { w: innerWidth, h: innerHeight, scrollW: document.documentElement.scrollWidth,\
      scrollH: document.documentElement.scrollHeight, small: [], clipped: [] };\
    for (const el of document.querySelectorAll('a[href], button, input:not([type=hidden]), select, summary')) {\
      const b = el.getBoundingClientRect(); if (b.width === 0 && b.height === 0) continue;\
      const name = (el.id ? '#' + el.id : el.tagName.toLowerCase()) + ' ' + (el.innerText || el.value || el.name || '').trim().slice(0, 30);\
      if (b.height < 56 || b.width < 56) r.small.push(name + ' ' + Math.round(b.width) + 'x' + Math.round(b.height));\
      if (b.right > innerWidth + 1) r.clipped.push(name + ' right edge ' + Math.round(b.right));\
    }\
    return r;";

// ---- helpers ------------------------------------------------------------------------------

/// The admin's API token (`POST /api/v1/auth/login`).
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

/// A JSON API call with the admin's token.
fn api(
    server: &Server,
    method: &str,
    path: &str,
    token: &str,
    body: Option<Value>,
) -> (u16, String) {
    http_json(server.addr, method, path, Some(token), body.as_ref())
        .unwrap_or_else(|e| panic!("API call failed: {e}"))
}

/// `ABC-DEF` from the pairing alphabet (letters and digits).
fn is_pair_code(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 7
        && b[3] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 3 || c.is_ascii_uppercase() || c.is_ascii_digit())
}

/// The minimum and maximum (minor units, two decimals) of a text like
/// "Buy-in required: €40.00 – €200.00" (or "40,00 € – 200,00 €").
fn buyin_range(text: &str) -> Option<(i64, i64)> {
    let mut amounts = Vec::new();
    let mut token = String::new();
    for ch in text.chars().chain(std::iter::once(' ')) {
        if ch.is_ascii_digit() || ((ch == '.' || ch == ',') && !token.is_empty()) {
            token.push(ch);
        } else if !token.is_empty() {
            let t = token.trim_end_matches(['.', ',']).to_string();
            token.clear();
            // The decimal mark is the last separator followed by exactly two digits.
            let (int, frac) = match t.rfind(['.', ',']) {
                Some(i) if t.len() - i - 1 == 2 => (&t[..i], &t[i + 1..]),
                _ => (t.as_str(), "00"),
            };
            let int: String = int.chars().filter(char::is_ascii_digit).collect();
            if let (Ok(i), Ok(f)) = (int.parse::<i64>(), frac.parse::<i64>()) {
                amounts.push(i * 100 + f);
            }
        }
    }
    match amounts[..] {
        [min, max, ..] if min > 0 && max >= min => Some((min, max)),
        _ => None,
    }
}

/// An amount inside [min, max]: the middle rounded down to whole units when that stays
/// inside, else the minimum.
fn choose_amount(min: i64, max: i64) -> i64 {
    let mid = (min + max) / 2 / 100 * 100;
    if mid >= min && mid <= max {
        mid
    } else {
        min
    }
}

/// How the dealer types an amount: "120", or "40.50" when there are cents.
fn typed_amount(minor: i64) -> String {
    if minor % 100 == 0 {
        (minor / 100).to_string()
    } else {
        format!("{}.{:02}", minor / 100, minor % 100)
    }
}

/// Fails the test: screenshots of both browsers, where the other one was, and where the
/// failing one is.
async fn die(c: &Client, other: &Client, what: impl std::fmt::Display) -> ! {
    screenshot(c, "browser-tablet-failure.png").await;
    screenshot(other, "browser-tablet-failure-other.png").await;
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

/// Runs a script and returns its value; errors (e.g. while a page is being replaced) as `None`.
async fn js(c: &Client, script: &str, args: Vec<Value>) -> Option<Value> {
    c.execute(script, args).await.ok()
}

async fn find_now(c: &Client, css: &str) -> Option<fantoccini::elements::Element> {
    c.find(Locator::Css(css)).await.ok()
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

/// Waits (up to [`PAGE_WAIT`]) for an element.
async fn wait_el(
    c: &Client,
    other: &Client,
    css: &str,
    what: &str,
) -> fantoccini::elements::Element {
    let r = c
        .wait()
        .at_most(PAGE_WAIT)
        .for_element(Locator::Css(css))
        .await;
    ok2(
        c,
        other,
        r,
        &format!("waiting up to {PAGE_WAIT:?} for {what} (`{css}`)"),
    )
    .await
}

/// Polls `script` until `pred` holds on its value (up to `timeout`); returns that value, or
/// fails with the last one seen.
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
    wait_el(c, other, wait_for, &format!("{url} to show its content")).await;
}

async fn current_path(c: &Client, other: &Client) -> String {
    ok2(c, other, c.current_url().await, "reading the current URL")
        .await
        .path()
        .to_string()
}

async fn type_text(c: &Client, other: &Client, css: &str, text: &str) {
    let el = wait_el(c, other, css, &format!("the field {css}")).await;
    ok2(c, other, el.clear().await, &format!("clearing `{css}`")).await;
    ok2(
        c,
        other,
        el.send_keys(text).await,
        &format!("typing into `{css}`"),
    )
    .await;
}

async fn set_marker(c: &Client, other: &Client, n: i64) {
    let r = c
        .execute(
            "window.__marker = arguments[0]; return window.__marker;",
            vec![json!(n)],
        )
        .await;
    ok2(c, other, r, "setting window.__marker").await;
}

async fn no_reload(c: &Client, other: &Client, n: i64, when: &str) {
    let m = js(
        c,
        "return window.__marker === undefined ? null : window.__marker;",
        vec![],
    )
    .await;
    if m != Some(json!(n)) {
        die(
            c,
            other,
            format!("the page was reloaded ({when}): window.__marker is {m:?}, expected {n}"),
        )
        .await;
    }
}

/// Clicks `css` (retrying while htmx replaces the part under it, never twice) and waits for
/// the new document it leads to (a form's POST and its redirect, or a link).
async fn click_and_load(c: &Client, other: &Client, css: &str, what: &str) {
    ok2(
        c,
        other,
        c.execute("window.__beforeClick = true; return true;", vec![])
            .await,
        "marking the page before clicking",
    )
    .await;
    let deadline = Instant::now() + PAGE_WAIT;
    let mut last_error;
    loop {
        // A click that reported an error may still have gone through: never click twice.
        if js(c, "return window.__beforeClick === true;", vec![]).await == Some(json!(false)) {
            break;
        }
        match c.find(Locator::Css(css)).await {
            Ok(el) => match el.click().await {
                Ok(()) => break,
                Err(e) => last_error = format!("click: {e}"),
            },
            Err(e) => last_error = format!("find: {e}"),
        }
        if Instant::now() >= deadline {
            die(c, other, format!("{what}: could not click `{css}` within {PAGE_WAIT:?} (last error: {last_error})")).await;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let loaded = "return window.__beforeClick === undefined && document.readyState === 'complete';";
    let deadline = Instant::now() + PAGE_WAIT;
    while js(c, loaded, vec![]).await != Some(json!(true)) {
        if Instant::now() >= deadline {
            die(
                c,
                other,
                format!("{what}: after clicking `{css}`, no new page within {PAGE_WAIT:?}"),
            )
            .await;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Signs in on the page `/login` the browser is at, and waits to leave it.
async fn sign_in(c: &Client, other: &Client, user: &str) {
    wait_el(c, other, "#login-form", "the sign-in form").await;
    type_text(c, other, "#login-form input[name=username]", user).await;
    type_text(c, other, "#login-form input[name=password]", DEMO_PASSWORD).await;
    click_and_load(c, other, "#login-submit", &format!("signing in as {user}")).await;
    let path = current_path(c, other).await;
    if path == "/login" {
        let e = text_of(c, "#login-error").await;
        die(c, other, format!("signing in as {user:?} / {DEMO_PASSWORD:?} did not leave /login (#login-error: {e:?})")).await;
    }
}

/// Waits until `#live-status` says the page follows its event stream (`badge-ok`, set by
/// static/floor.js when the EventSource opens).
async fn wait_live_connected(c: &Client, other: &Client, who: &str) {
    let script = "const s = document.getElementById('live-status'); return s ? s.className : null;";
    wait_js(
        c,
        other,
        LIVE_WAIT,
        &format!("{who}: #live-status to say the event stream is connected (badge-ok)"),
        script,
        vec![],
        |v| {
            v.as_str()
                .is_some_and(|s| s.split_whitespace().any(|x| x == "badge-ok"))
        },
    )
    .await;
}

/// The table id and the first free seat with a "Call" button in a floor table panel.
async fn free_seat(c: &Client, other: &Client, table_css: &str) -> (i64, i64) {
    let script = "const t = document.querySelector(arguments[0]);\
                  const f = t ? t.querySelector('form[action^=\"/floor/tables/\"][action$=\"/call\"]') : null;\
                  return { action: f ? f.getAttribute('action') : null, card: t ? t.innerText : null };";
    let v = js(c, script, vec![json!(table_css)])
        .await
        .unwrap_or(Value::Null);
    let parts: Vec<&str> = v["action"]
        .as_str()
        .unwrap_or_default()
        .split('/')
        .collect();
    // /floor/tables/{id}/seats/{seat}/call
    match (
        parts.get(3).and_then(|s| s.parse().ok()),
        parts.get(5).and_then(|s| s.parse().ok()),
    ) {
        (Some(id), Some(seat)) => (id, seat),
        _ => {
            die(
                c,
                other,
                format!("floor: no free seat with a Call button on `{table_css}` ({v})"),
            )
            .await
        }
    }
}

async fn floor_problem(c: &Client, other: &Client, what: &str) {
    if let Some(p) = text_of(c, "#floor-problem").await {
        die(c, other, format!("floor: the app refused {what}: {p:?}")).await;
    }
    let path = current_path(c, other).await;
    if path != "/floor" {
        die(
            c,
            other,
            format!("floor: after {what}, the browser is at {path}, not /floor"),
        )
        .await;
    }
}

async fn tablet_problem(c: &Client, other: &Client, what: &str) {
    if let Some(p) = text_of(c, "#tablet-problem").await {
        die(c, other, format!("tablet: the app refused {what}: {p:?}")).await;
    }
}

/// Prints how a tablet page fits the viewport (for the humans reading the run).
async fn layout_report(c: &Client, page: &str) {
    let Some(v) = js(c, JS_LAYOUT, vec![]).await else {
        return;
    };
    eprintln!(
        "layout of the tablet's {page}: viewport {}×{}, document {}×{}{}",
        v["w"],
        v["h"],
        v["scrollW"],
        v["scrollH"],
        if v["scrollW"].as_i64() > v["w"].as_i64() {
            " — HORIZONTAL OVERFLOW"
        } else {
            ""
        }
    );
    for (key, label) in [
        ("small", "tap targets under 56 px"),
        ("clipped", "past the right edge"),
    ] {
        if let Some(list) = v[key].as_array().filter(|l| !l.is_empty()) {
            eprintln!(
                "  {label}: {}",
                list.iter()
                    .filter_map(Value::as_str)
                    .collect::<Vec<_>>()
                    .join("; ")
            );
        }
    }
}

#[test]
fn buyin_range_reads_both_formats() {
    assert_eq!(
        buyin_range("Buy-in required: €40.00 – €200.00"),
        Some((4_000, 20_000))
    );
    assert_eq!(
        buyin_range("Compra obrigatória: 40,00 € – 1.200,00 €"),
        Some((4_000, 120_000))
    );
    assert_eq!(buyin_range("Buy-in required: at least €40.00"), None);
    assert_eq!(choose_amount(4_000, 20_000), 12_000);
    assert_eq!(choose_amount(4_050, 4_060), 4_050);
    assert_eq!(typed_amount(12_000), "120");
    assert_eq!(typed_amount(4_050), "40.50");
    assert!(is_pair_code("ABC-D2F"));
    assert!(!is_pair_code("ABCDEF"));
}
