//! Real-browser test of the floor dashboard with two browsers at once: headless Chromium
//! driven through chromedriver (WebDriver) against the real `cardroom serve --demo` binary on
//! a fresh SQLite database.
//!
//! Browser A works the floor board: opens a closed table's panel by clicking its tile, opens
//! the table, puts players on its game's list, runs the start-of-game draw (PT-2007 11), then
//! puts one more player on the list, calls them to a free seat and confirms the seating; every
//! form sent from the panel comes back to `/floor?table=N` with the panel open. Browser B only
//! watches `/floor` with the same table's panel open (opened by a click on its tile), never
//! reloading (a `window.__marker` set at the start must survive to the end): the tiles, lists
//! and panel `/floor/board` swaps in when `/floor/stream` reports a change must show the drawn
//! players at the table (panel) and as seat dots (tile), the called player's pending call on
//! the tile, then the called player seated and gone from the list.
//!
//! Without chromedriver the test is skipped, unless `CARDROOM_REQUIRE_BROWSER=1` (set by
//! `tests/run.sh`), which makes a missing browser a failure. Screenshots go to
//! `target/browser-floor-a.png` and `target/browser-floor-b.png`, and on failure
//! `target/browser-failure.png` (the browser that failed) and
//! `target/browser-floor-failure-other.png` (the other one).

use crate::browser_support::*;
use fantoccini::{Client, Locator};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// Demo staff account (src/demo.rs) and its password.
const FLOOR_USER: &str = "floor";
const FLOOR_PASSWORD: &str = "demo-password";
/// The demo room's closed table with a game that the test opens (tables 4, 6 and 7 are).
const PREFERRED_TABLE: i64 = 4;
/// Demo players neither seated nor listed nor banned (the demo seats or lists the first 30
/// eligible of 36; #8 has no photo, #12 is banned): two for the draw, one for the call.
const DRAW_PLAYERS: [i64; 2] = [33, 34];
const CALLED_PLAYER: i64 = 35;
/// How long browser B may take to show a change made in browser A.
const LIVE_WAIT: Duration = Duration::from_secs(10);

/// What a browser shows of one table (its open panel and its tile) and one list card (read in
/// one script, so all come from the same rendering of the board).
#[derive(Debug, Default)]
struct Seen {
    /// The panel's text (`#panel #table-N`), empty when the panel is not open on that table.
    table: String,
    /// The tile's text (`#tile-N`): number, game, state, counts, pending calls.
    tile: String,
    /// Taken seats among the tile's seat dots (`.dots i.d`).
    dots: i64,
    /// The list card's whole text (`textContent`: also the players behind "more").
    list: String,
    marker: Value,
    live_status: String,
    path: String,
}

impl std::fmt::Display for Seen {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "path {:?}, window.__marker {}, #live-status {:?}\n  panel: {:?}\n  tile: {:?} ({} taken dots)\n  list card: {:?}",
            self.path, self.marker, self.live_status, self.table, self.tile, self.dots, self.list
        )
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn floor_draw_and_call_show_live_in_a_second_browser() {
    let Some(chromedriver) = chromedriver_or_skip() else {
        return;
    };

    // Declared first so it is removed last, after the processes using it are gone.
    let tmp = tempfile::tempdir().expect("temporary directory");
    let started = Instant::now();
    let server =
        browser_app().spawn_binary(env!("CARGO_BIN_EXE_cardroom"), tmp.path(), &["--demo"]);
    eprintln!("server with the demo room up after {:?}", started.elapsed());
    let (webdriver_url, _chromedriver) = start_chromedriver(&chromedriver, tmp.path());

    let a = open_session(&webdriver_url, tmp.path(), "chrome-profile-a", 1366, 1000).await;
    let b = open_session(&webdriver_url, tmp.path(), "chrome-profile-b", 1366, 1000).await;
    let base = &server.base;

    // 1. Both sign in as the floor manager and open the dashboard.
    for c in [&a, &b] {
        sign_in(c, base, FLOOR_USER, FLOOR_PASSWORD).await;
        ok(c, c.goto(&format!("{base}/floor")).await, "opening /floor").await;
        wait_css(c, "#floor-live").await;
    }
    // B must follow the stream before A changes anything: the stream starts at the
    // newest event when the browser connects.
    wait_live_connected(&b, &a).await;
    wait_live_connected(&a, &b).await;
    ok(
        &b,
        b.execute("window.__marker = 1; return window.__marker;", vec![])
            .await,
        "setting window.__marker in B",
    )
    .await;

    // 2. A picks a closed table that has a game among the tiles; both open its panel by
    // clicking the tile (B without reloading).
    let (number, table_id, game_id) = pick_closed_table(&a, &b).await;
    let table_css = format!("#panel #table-{number}");
    let list_css = format!("#list-{game_id}");
    eprintln!("table {number} (id {table_id}), game {game_id}");
    for (c, other) in [(&a, &b), (&b, &a)] {
        open_panel_by_tile(c, other, number).await;
    }
    let seen = read_cards(&b, number, &list_css).await;
    if seen.marker != json!(1) {
        fail2(
            &b,
            &a,
            format!("browser B reloaded when its tile was clicked\n{seen}"),
        )
        .await;
    }
    submit(
        &a,
        &b,
        &format!("{table_css} form[action=\"/floor/tables/{table_id}/open\"] button"),
        "open the table",
    )
    .await;
    expect_panel(&a, &b, number, "opening the table").await;
    let draw_css =
        format!("{table_css} form[action$=\"/floor/tables/{table_id}/draw-seats\"] button");
    if find_now(&a, &draw_css).await.is_none() {
        let seen = read_cards(&a, number, &list_css).await;
        fail2(&a, &b, format!("after opening table {number}, its card has no draw-seats button `{draw_css}`\n{seen}")).await;
    }

    // A puts two players on the game's list.
    let mut added = Vec::new();
    for id in DRAW_PLAYERS {
        added.push(join_list(&a, &b, &list_css, game_id, id).await);
    }
    // PT-2007 11: the draw seats the first players on the list (those the demo listed for
    // this game, then ours), as many as there are free seats.
    let before_draw = read_cards(&a, number, &list_css).await;
    let listed = list_aliases(&a, &list_css).await;
    for alias in &added {
        if !listed.contains(alias) {
            fail2(
                &a,
                &b,
                format!("{alias} is not on list {list_css} before the draw\n{before_draw}"),
            )
            .await;
        }
    }
    eprintln!("on the list before the draw: {listed:?}");

    // 3. The start-of-game draw.
    submit(&a, &b, &draw_css, "run the start-of-game draw").await;
    // A draw lands on the board with its result on top (`/floor?draw=ID#draw-result`)
    // rather than back in the panel: the panel is opened again from the tile.
    wait_css(&a, "#draw-result").await;
    open_panel_by_tile(&a, &b, number).await;
    let after_draw = read_cards(&a, number, &list_css).await;
    let drawn: Vec<String> = listed
        .iter()
        .filter(|al| after_draw.table.contains(al.as_str()))
        .cloned()
        .collect();
    for alias in &added {
        if !drawn.contains(alias) || after_draw.list.contains(alias.as_str()) {
            fail2(
                &a,
                &b,
                format!("after the draw, {alias} should be at table {number} and off the list (list before: {listed:?})\n{after_draw}"),
            )
            .await;
        }
    }
    eprintln!("drawn to table {number}: {drawn:?}");
    if after_draw.dots != drawn.len() as i64 {
        fail2(
            &a,
            &b,
            format!(
                "after the draw, tile {number} should show {} taken seats\n{after_draw}",
                drawn.len()
            ),
        )
        .await;
    }

    // B (no reload) shows every drawn player at the table (its open panel), as many taken
    // seat dots on the tile, and none of them on the list.
    let t0 = Instant::now();
    wait_seen(
        &b,
        &a,
        number,
        &list_css,
        &format!("table {number} to show the drawn players {drawn:?} (panel and tile dots), off the list"),
        |s| {
            s.dots == drawn.len() as i64
                && drawn
                    .iter()
                    .all(|al| s.table.contains(al.as_str()) && !s.list.contains(al.as_str()))
        },
    )
    .await;
    eprintln!(
        "B showed the draw {:?} after A's page came back",
        t0.elapsed()
    );

    // 4. A lists one more player, calls the next player to a free seat and seats them.
    let called = join_list(&a, &b, &list_css, game_id, CALLED_PLAYER).await;
    let free_call = free_seat_call(&a, &b, number, table_id).await;
    submit(&a, &b, &free_call, "call the next player to a free seat").await;
    expect_panel(&a, &b, number, "the call").await;
    let seat_css = format!("{table_css} form[action^=\"/floor/calls/\"] button");
    let after_call = read_cards(&a, number, &list_css).await;
    if find_now(&a, &seat_css).await.is_none() || !after_call.table.contains(called.as_str()) {
        fail2(
            &a,
            &b,
            format!("after `{free_call}`, table {number} should show a pending call for {called} with a `{seat_css}`\n{after_call}"),
        )
        .await;
    }
    // B's tile names the pending call without a reload (and so does its panel).
    let t0 = Instant::now();
    wait_seen(
        &b,
        &a,
        number,
        &list_css,
        &format!("tile {number} to show the pending call for {called}"),
        |s| s.tile.contains(called.as_str()) && s.table.contains(called.as_str()),
    )
    .await;
    eprintln!(
        "B showed the call on the tile {:?} after A's page came back",
        t0.elapsed()
    );
    submit(&a, &b, &seat_css, "confirm the call (seated)").await;
    expect_panel(&a, &b, number, "confirming the call").await;
    let after_seat = read_cards(&a, number, &list_css).await;
    if !after_seat.table.contains(called.as_str())
        || after_seat.list.contains(called.as_str())
        || after_seat.dots != drawn.len() as i64 + 1
        || find_now(&a, &seat_css).await.is_some()
    {
        fail2(&a, &b, format!("after confirming, {called} should sit at table {number} and be off the list\n{after_seat}")).await;
    }

    let t0 = Instant::now();
    wait_seen(
        &b,
        &a,
        number,
        &list_css,
        &format!("{called} seated at table {number} (panel; one more taken dot and no pending call on the tile) and gone from {list_css}"),
        |s| {
            s.table.contains(called.as_str())
                && s.dots == drawn.len() as i64 + 1
                && !s.tile.contains(called.as_str())
                && !s.list.contains(called.as_str())
                && !s.table.is_empty()
                && !s.list.is_empty()
        },
    )
    .await;
    eprintln!(
        "B showed the seating {:?} after A's page came back",
        t0.elapsed()
    );

    // B never reloaded, and still shows every drawn player.
    let end = read_cards(&b, number, &list_css).await;
    if end.marker != json!(1) {
        fail2(
            &b,
            &a,
            format!(
                "browser B reloaded: window.__marker is {} (expected 1)\n{end}",
                end.marker
            ),
        )
        .await;
    }
    if let Some(gone) = drawn.iter().find(|al| !end.table.contains(al.as_str())) {
        fail2(
            &b,
            &a,
            format!("browser B no longer shows drawn player {gone} at table {number}\n{end}"),
        )
        .await;
    }

    // 5. Done: screenshots with the table in view (scrolling does not reload B).
    for c in [&a, &b] {
        let scroll = "const t = document.querySelector(arguments[0]); if (t) t.scrollIntoView({ block: 'start' }); return !!t;";
        let _ = script(c, scroll, vec![json!(format!("#tile-{number}"))]).await;
    }
    screenshot(&a, "browser-floor-a.png").await;
    screenshot(&b, "browser-floor-b.png").await;
    if docs_screenshots() {
        docs_pictures(&a, base).await;
    }
    for (name, c) in [("A", a), ("B", b)] {
        if let Err(e) = c.close().await {
            panic!("closing browser {name}'s session: {e}");
        }
    }
}

/// The README's pictures of the floor and of the room's setup (only with
/// `CARDROOM_DOCS_SCREENSHOTS=1`, after the test has checked what it checks): the dashboard
/// from its top, then, signed in as `admin`, the room's settings and its games.
async fn docs_pictures(c: &Client, base: &str) {
    scroll_to_top(c).await;
    docs_screenshot(c, "floor.png", 1440, 900).await;
    sign_in(c, base, "admin", ADMIN_PASSWORD).await;
    for (path, css, name) in [
        ("/admin/room", "main form", "room.png"),
        ("/admin/games", "main", "games.png"),
    ] {
        ok(
            c,
            c.goto(&format!("{base}{path}")).await,
            &format!("opening {path}"),
        )
        .await;
        wait_css(c, css).await;
        docs_screenshot(c, name, 1440, 900).await;
    }
}

/// Fails in `c`, after saving a screenshot of the other browser too.
async fn fail2(c: &Client, other: &Client, what: impl std::fmt::Display) -> ! {
    screenshot(other, "browser-floor-failure-other.png").await;
    let elsewhere = where_we_are(other).await;
    eprintln!("the other browser:\n{elsewhere}");
    fail(c, what).await
}

/// The element matching `css` right now, if any (no waiting).
async fn find_now(c: &Client, css: &str) -> Option<fantoccini::elements::Element> {
    c.find(Locator::Css(css)).await.ok()
}

/// Runs a script and returns its value; errors (e.g. while a page is being replaced) as `None`.
async fn script(c: &Client, js: &str, args: Vec<Value>) -> Option<Value> {
    c.execute(js, args).await.ok()
}

/// Waits (10 s) until `#live-status` says the event stream is connected (`badge-ok`, set by
/// static/floor.js on the EventSource's `open`). A page without the badge only gets a pause.
async fn wait_live_connected(c: &Client, other: &Client) {
    let js = "const s = document.getElementById('live-status');\
              if (!s) return null;\
              return { ok: s.classList.contains('badge-ok'), text: s.textContent, cls: s.className };";
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let v = script(c, js, vec![]).await;
        match &v {
            Some(Value::Null) => {
                eprintln!("no #live-status on /floor; waiting 2 s for the event stream instead");
                tokio::time::sleep(Duration::from_secs(2)).await;
                return;
            }
            Some(s) if s["ok"] == json!(true) => return,
            _ => {}
        }
        if Instant::now() >= deadline {
            fail2(
                c,
                other,
                format!(
                    "the floor's event stream did not connect within 10 s (#live-status: {v:?})"
                ),
            )
            .await;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The number, id and game of a closed table with a game, read from the board's tiles
/// (`a.tile.st-closed[data-id][data-game]`): table 4 if it is one, else the first.
async fn pick_closed_table(c: &Client, other: &Client) -> (i64, i64, i64) {
    let js =
        "return Array.from(document.querySelectorAll('#floor-live a.tile.st-closed')).map(t => ({\
                number: t.id.replace('tile-', ''), id: t.getAttribute('data-id'),\
                game: t.getAttribute('data-game') }));";
    let tiles = ok(
        c,
        c.execute(js, vec![]).await,
        "listing the closed tables' tiles",
    )
    .await;
    let num = |v: &Value| v.as_str().and_then(|n| n.parse::<i64>().ok());
    let closed: Vec<(i64, i64, i64)> = tiles
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| Some((num(&t["number"])?, num(&t["id"])?, num(&t["game"])?)))
        .filter(|&(_, _, game)| game > 0)
        .collect();
    match closed
        .iter()
        .find(|(n, _, _)| *n == PREFERRED_TABLE)
        .or(closed.first())
    {
        Some(&t) => t,
        None => {
            fail2(
                c,
                other,
                format!("no closed table with a game among the tiles on /floor (tiles: {tiles})"),
            )
            .await
        }
    }
}

/// Clicks table `number`'s tile and waits (10 s) for its panel (`#panel #table-N`, the panel
/// shown) and the address `/floor?table=N`; the page is not reloaded (floor.js loads the
/// panel in place).
async fn open_panel_by_tile(c: &Client, other: &Client, number: i64) {
    let tile = wait_css(c, &format!("#tile-{number}")).await;
    ok(c, tile.click().await, &format!("clicking #tile-{number}")).await;
    let js = "const p = document.getElementById('panel');\
              return !!p && !p.hidden && !!p.querySelector('#table-' + arguments[0])\
                     && new URL(location.href).searchParams.get('table') === String(arguments[0]);";
    let deadline = Instant::now() + Duration::from_secs(10);
    while script(c, js, vec![json!(number)]).await != Some(json!(true)) {
        if Instant::now() >= deadline {
            fail2(
                c,
                other,
                format!("clicking #tile-{number} did not open its panel (`#panel #table-{number}`, address ?table={number}) within 10 s"),
            )
            .await;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// After a form sent from table `number`'s panel: the floor came back to
/// `/floor?table=N` with that panel open.
async fn expect_panel(c: &Client, other: &Client, number: i64, after: &str) {
    let js = "const p = document.getElementById('panel');\
              return { shown: !!p && !p.hidden && !!p.querySelector('#table-' + arguments[0]),\
                       table: new URL(location.href).searchParams.get('table') };";
    let v = script(c, js, vec![json!(number)])
        .await
        .unwrap_or(Value::Null);
    if v["shown"] != json!(true) || v["table"] != json!(number.to_string()) {
        fail2(
            c,
            other,
            format!("after {after}, the floor should come back with table {number}'s panel open at /floor?table={number}: {v}"),
        )
        .await;
    }
}

/// Clicks the element matching `css` (retrying while `#floor-live` is being re-rendered
/// under it) and waits for the page the form's POST leads to; fails if it is not `/floor`
/// or shows the refusal `#floor-problem`.
async fn submit(c: &Client, other: &Client, css: &str, what: &str) {
    let mark = "window.__beforeSubmit = true; return true;";
    ok(
        c,
        c.execute(mark, vec![]).await,
        "marking the page before submitting",
    )
    .await;
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut last_error;
    loop {
        // A click that reported an error may still have submitted: never click twice.
        let still_here = script(c, "return window.__beforeSubmit === true;", vec![]).await;
        if still_here == Some(json!(false)) {
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
            fail2(
                c,
                other,
                format!("could not click `{css}` to {what} within 10 s (last error: {last_error})"),
            )
            .await;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // The new document: no marker, fully loaded, with the dashboard's live part.
    let loaded =
        "return window.__beforeSubmit === undefined && document.readyState === 'complete' \
                  && !!document.getElementById('floor-live');";
    let deadline = Instant::now() + Duration::from_secs(10);
    while script(c, loaded, vec![]).await != Some(json!(true)) {
        if Instant::now() >= deadline {
            fail2(
                c,
                other,
                format!("after clicking `{css}` to {what}, no new /floor page within 10 s"),
            )
            .await;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let path = ok(c, c.current_url().await, "reading the current URL")
        .await
        .path()
        .to_string();
    let problem = script(
        c,
        "const p = document.getElementById('floor-problem'); return p ? p.innerText : null;",
        vec![],
    )
    .await;
    if let Some(Value::String(p)) = problem {
        fail2(
            c,
            other,
            format!("the app refused to {what} (clicked `{css}`): {p:?} (at {path})"),
        )
        .await;
    }
    if path != "/floor" {
        fail2(
            c,
            other,
            format!("after clicking `{css}` to {what}, the browser is at {path}, not /floor"),
        )
        .await;
    }
}

/// Adds a player (by number) to a game's list with the join form; their alias as the list
/// card shows it.
async fn join_list(
    c: &Client,
    other: &Client,
    list_css: &str,
    game_id: i64,
    player: i64,
) -> String {
    type_into(c, "#join-player", &player.to_string()).await;
    submit(
        c,
        other,
        &format!("button[formaction=\"/floor/lists/{game_id}/join\"]"),
        &format!("add player #{player} to list {game_id}"),
    )
    .await;
    let js = "const l = document.querySelector(arguments[0]);\
              if (!l) return null;\
              const a = l.querySelector('a[href=\"/players/' + arguments[1] + '\"]')\
                     || l.querySelector('[data-player=\"' + arguments[1] + '\"] a');\
              return a ? a.textContent.trim() : null;";
    match script(c, js, vec![json!(list_css), json!(player)]).await {
        Some(Value::String(alias)) if !alias.is_empty() => alias,
        v => {
            let seen = read_cards(c, 0, list_css).await;
            fail2(
                c,
                other,
                format!("player #{player} is not on {list_css} after joining ({v:?})\n{seen}"),
            )
            .await
        }
    }
}

/// The aliases on a list card, in order (the links to the players' pages).
async fn list_aliases(c: &Client, list_css: &str) -> Vec<String> {
    let js = "const l = document.querySelector(arguments[0]);\
              return l ? Array.from(l.querySelectorAll('a[href^=\"/players/\"]')).map(a => a.textContent.trim()) : [];";
    let v = ok(
        c,
        c.execute(js, vec![json!(list_css)]).await,
        "reading the list's aliases",
    )
    .await;
    v.as_array()
        .into_iter()
        .flatten()
        .filter_map(|a| a.as_str().map(String::from))
        .collect()
}

/// The selector of the "call" button of the first free seat of a table.
async fn free_seat_call(c: &Client, other: &Client, number: i64, table_id: i64) -> String {
    let table_css = format!("#panel #table-{number}");
    let js = "const t = document.querySelector(arguments[0]);\
              const f = t ? t.querySelector('form[action^=\"/floor/tables/' + arguments[1] + '/seats/\"][action$=\"/call\"]') : null;\
              return f ? f.getAttribute('action') : null;";
    match script(c, js, vec![json!(table_css), json!(table_id)]).await {
        Some(Value::String(action)) => format!("{table_css} form[action=\"{action}\"] button"),
        v => {
            let seen = read_cards(c, number, "#no-list").await;
            fail2(
                c,
                other,
                format!("no free seat with a call button at `{table_css}` ({v:?})\n{seen}"),
            )
            .await
        }
    }
}

/// The text of table `number`'s open panel and tile, its taken seat dots, a list card's text,
/// B's marker, the stream badge and the path.
async fn read_cards(c: &Client, number: i64, list_css: &str) -> Seen {
    let js = "const n = arguments[0];\
              const panel = document.getElementById('panel');\
              const card = panel && !panel.hidden ? panel.querySelector('#table-' + n) : null;\
              const tile = document.getElementById('tile-' + n);\
              const list = document.querySelector(arguments[1]);\
              const st = document.getElementById('live-status');\
              return { table: card ? card.innerText : '', tile: tile ? tile.innerText : '',\
                       dots: tile ? tile.querySelectorAll('.dots i.d').length : -1,\
                       list: list ? list.textContent.replace(/\\s+/g, ' ') : '',\
                       marker: window.__marker === undefined ? null : window.__marker,\
                       live: st ? st.className + ' ' + st.textContent : '', path: location.pathname };";
    match script(c, js, vec![json!(number), json!(list_css)]).await {
        Some(v) => Seen {
            table: v["table"].as_str().unwrap_or_default().to_string(),
            tile: v["tile"].as_str().unwrap_or_default().to_string(),
            dots: v["dots"].as_i64().unwrap_or(-1),
            list: v["list"].as_str().unwrap_or_default().to_string(),
            marker: v["marker"].clone(),
            live_status: v["live"].as_str().unwrap_or_default().to_string(),
            path: v["path"].as_str().unwrap_or_default().to_string(),
        },
        None => Seen::default(),
    }
}

/// Polls browser `c` (up to [`LIVE_WAIT`]) until what it shows of table `number` and the list
/// satisfies `pred`, failing with what it last showed. Also fails at once if the page was
/// reloaded (marker gone).
async fn wait_seen(
    c: &Client,
    other: &Client,
    number: i64,
    list_css: &str,
    describe: &str,
    pred: impl Fn(&Seen) -> bool,
) {
    let deadline = Instant::now() + LIVE_WAIT;
    loop {
        let seen = read_cards(c, number, list_css).await;
        if seen.marker != json!(1) && !seen.path.is_empty() {
            fail2(c, other, format!("browser B reloaded while waiting for {describe} (window.__marker is {})\n{seen}", seen.marker)).await;
        }
        if pred(&seen) {
            return;
        }
        if Instant::now() >= deadline {
            fail2(c, other, format!("browser B did not show {describe} within {LIVE_WAIT:?} without reloading; it shows:\n{seen}")).await;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// "Draw the button" on a running table of the demo room names the result on
/// the floor at once, with a link to the draw's record; the record is readable at a desk
/// (1440×900) and on a phone (390×844): cards as rank and suit symbol with red hearts and
/// diamonds, the winner highlighted, the replay's verdict, and no horizontal overflow.
/// Screenshots: `target/browser-draw-1440.png`, `target/browser-draw-390.png` and
/// `target/browser-draw-390-cards.png`.
#[tokio::test(flavor = "multi_thread")]
async fn a_drawn_button_shows_its_result_and_a_readable_record() {
    let Some(chromedriver) = chromedriver_or_skip() else {
        return;
    };
    let tmp = tempfile::tempdir().expect("temporary directory");
    let server =
        browser_app().spawn_binary(env!("CARGO_BIN_EXE_cardroom"), tmp.path(), &["--demo"]);
    let (webdriver_url, _chromedriver) = start_chromedriver(&chromedriver, tmp.path());
    let c = open_session(&webdriver_url, tmp.path(), "chrome-profile-draw", 1440, 900).await;
    let base = &server.base;
    sign_in(&c, base, FLOOR_USER, FLOOR_PASSWORD).await;
    ok(&c, c.goto(&format!("{base}/floor")).await, "opening /floor").await;
    wait_css(&c, "#floor-live").await;

    // The demo seats players at its running tables: any of them can draw its button, from
    // the table's panel (a running tile with two taken seats or more).
    let pick = "const t = Array.from(document.querySelectorAll('a.tile.st-running'))\
                  .find(t => t.querySelectorAll('.dots i.d').length >= 2);\
                return t ? t.id.replace('tile-', '') : null;";
    let number = match script(&c, pick, vec![]).await {
        Some(Value::String(n)) => n,
        v => {
            fail(
                &c,
                format!("no running table with two players among the tiles ({v:?})"),
            )
            .await
        }
    };
    ok(
        &c,
        c.goto(&format!("{base}/floor?table={number}")).await,
        "opening a running table's panel",
    )
    .await;
    let button = wait_css(
        &c,
        &format!("#panel #table-{number} form[action$=\"/draw-button\"] button"),
    )
    .await;
    ok(&c, button.click().await, "clicking Draw the button").await;
    let notice = wait_css(&c, "#draw-result").await;
    let said = ok(&c, notice.text().await, "reading #draw-result").await;
    let _ = script(
        &c,
        "document.getElementById('draw-result').scrollIntoView({ block: 'center' }); return true;",
        vec![],
    )
    .await;
    screenshot(&c, "browser-draw-notice.png").await;
    if !said.contains(['♠', '♥', '♦', '♣']) {
        fail(&c, format!("the floor's notice names no card: {said:?}")).await;
    }
    ok(
        &c,
        wait_css(&c, "#draw-result-link").await.click().await,
        "opening the draw's record",
    )
    .await;
    wait_path(&c, "the draw's record", |p| p.starts_with("/draws/")).await;
    wait_css(&c, "#draw-participants").await;

    // What a person reads: the verdict of the replay, the winner highlighted, the cards.
    let facts = "const faces = [...document.querySelectorAll('#draw-participants .card-face')];\
        const red = faces.filter(f => f.classList.contains('suit-red'));\
        return { faces: faces.length,\
                 texts: faces.map(f => f.innerText),\
                 red_ok: red.every(f => getComputedStyle(f).color === 'rgb(192, 20, 28)'),\
                 black_ok: faces.filter(f => !f.classList.contains('suit-red'))\
                     .every(f => getComputedStyle(f).color === 'rgb(17, 17, 17)'),\
                 highlighted: document.querySelectorAll('#draw-participants tr.draw-highlight').length,\
                 replay: document.getElementById('draw-replay').className,\
                 seed: document.getElementById('draw-seed').innerText };";
    let f = script(&c, facts, vec![]).await.unwrap_or(Value::Null);
    eprintln!("draw page: {f}");
    let faces = f["faces"].as_u64().unwrap_or(0);
    let texts_ok = f["texts"].as_array().is_some_and(|t| {
        t.iter().all(|x| {
            x.as_str()
                .is_some_and(|s| s.ends_with(['♠', '♥', '♦', '♣']) && !s.contains('T'))
        })
    });
    if faces < 2
        || !texts_ok
        || f["red_ok"] != json!(true)
        || f["black_ok"] != json!(true)
        || f["highlighted"] != json!(1)
        || f["replay"].as_str() != Some("alert alert-ok")
        || f["seed"].as_str().map(str::len) != Some(16)
    {
        fail(&c, format!("the draw's record does not read right: {f}")).await;
    }
    for (w, h, name) in [
        (1440, 900, "browser-draw-1440.png"),
        (390, 844, "browser-draw-390.png"),
    ] {
        set_viewport(&c, w, h, name).await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        let wide = script(
            &c,
            "return document.documentElement.scrollWidth - innerWidth;",
            vec![],
        )
        .await;
        if wide.as_ref().and_then(Value::as_i64).unwrap_or(1) > 0 {
            fail(
                &c,
                format!("the draw's record overflows at {w} px: {wide:?}"),
            )
            .await;
        }
        scroll_to_top(&c).await;
        screenshot(&c, name).await;
    }
    // The phone's view of the table of cards and of the replay below it.
    let into_view = "document.getElementById('draw-participants').scrollIntoView({ block: 'start' }); return true;";
    let _ = script(&c, into_view, vec![]).await;
    screenshot(&c, "browser-draw-390-cards.png").await;
    if let Err(e) = c.close().await {
        panic!("closing the browser session: {e}");
    }
}
