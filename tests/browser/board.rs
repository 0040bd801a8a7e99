//! Real-browser tests of the floor board: headless Chromium through
//! chromedriver against `cardroom serve --demo` on a fresh SQLite file, with 42 more tables
//! created through the admin API so that the room has 50.
//!
//! - the first screen at 1440×900 shows at least 24 whole tiles and every game's list header;
//! - at 1440×900, 1024×768 and 390×844 a click on a tile opens the table's panel inside the
//!   window, and every seat menu in it opens inside the window;
//! - a player is put on a list by typing part of their name (the type-ahead's option), and a
//!   text that names nobody is refused with the text kept;
//! - a call made in browser A shows on browser B's tile within 5 s without a reload;
//! - a removal from a list is undone from the toast, the player back at the same place.
//! - a room of 70 tables (the demo grown through the API: 8 games, every table open and most
//!   nearly full, about 500 players, 80 of them waiting, two called) at 1440×900 shows at
//!   least 48 whole tiles, every list's header, every name on the lists whole, the tools in one
//!   row and two requests as two alarms on the strip and badges on their tiles (an alarm opens
//!   its table's panel); a 10-seat table's free seats' Call buttons are in the window at
//!   1440×900 and 1024×768; in Portuguese and English (`target/browser-board70-*.png`).
//!
//! Skipped without chromedriver unless `CARDROOM_REQUIRE_BROWSER=1` (tests/run.sh). With
//! `CARDROOM_DOCS_SCREENSHOTS=1` also writes `docs/screenshots/floor-board-8.png` (the demo's 8
//! tables) and `docs/screenshots/floor-board.png` (50 tables).

use crate::browser_support::*;
use fantoccini::Client;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// Demo staff account (src/demo.rs) and its password.
const FLOOR_USER: &str = "floor";
const FLOOR_PASSWORD: &str = "demo-password";
/// Tables in the room once the test has added its own (the demo has 8, numbered 1 to 8).
const ROOM_TABLES: i64 = 50;
/// Demo players neither seated nor listed nor banned (see tests/browser/floor.rs).
const JOIN_PLAYER: i64 = 33;
/// How long browser B may take to show A's call on the tile.
const TILE_WAIT: Duration = Duration::from_secs(5);

/// One server with the demo room and 50 tables, chromedriver, and where they keep files.
struct Room {
    server: Server,
    webdriver: String,
    // Field order is drop order: chromedriver and the server go before their directory.
    _chromedriver: ChildGuard,
    tmp: tempfile::TempDir,
}

/// Starts the demo room and chromedriver; `None` when the test is skipped. With `docs_8`, a
/// picture of the demo's 8 tables is taken before the 42 others are added.
async fn room(docs_8: bool) -> Option<Room> {
    let r = demo_room(docs_8).await?;
    add_tables(&r.server, ROOM_TABLES);
    Some(r)
}

/// The demo room as it starts (8 tables) and chromedriver; `None` when the test is skipped.
async fn demo_room(docs_8: bool) -> Option<Room> {
    let chromedriver = chromedriver_or_skip()?;
    let tmp = tempfile::tempdir().expect("temporary directory");
    let server =
        browser_app().spawn_binary(env!("CARGO_BIN_EXE_cardroom"), tmp.path(), &["--demo"]);
    let (webdriver, guard) = start_chromedriver(&chromedriver, tmp.path());
    if docs_8 && docs_screenshots() {
        let c = open_session(&webdriver, tmp.path(), "chrome-profile-8", 1440, 900).await;
        sign_in(&c, &server.base, FLOOR_USER, FLOOR_PASSWORD).await;
        goto_floor(&c, &server.base, "").await;
        docs_screenshot(&c, "floor-board-8.png", 1440, 900).await;
        let _ = c.close().await;
    }
    Some(Room {
        server,
        webdriver,
        _chromedriver: guard,
        tmp,
    })
}

/// The admin's API token (`POST /api/v1/auth/login`; the password the server was given).
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

/// `method path` with the admin's token; the JSON answer, or a failure naming the call.
fn api(server: &Server, token: &str, method: &str, path: &str, body: Option<Value>) -> Value {
    let (status, text) = http_json(server.addr, method, path, Some(token), body.as_ref())
        .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
    if !(200..300).contains(&status) {
        panic!("{method} {path} answered {status}: {text}");
    }
    serde_json::from_str(&text).unwrap_or(Value::Null)
}

/// Tables 9 to `total`, each with one of the demo's games in turn (closed, as new tables are).
fn add_tables(server: &Server, total: i64) {
    let token = admin_token(server);
    let games = api(server, &token, "GET", "/api/v1/games", None);
    let ids: Vec<i64> = games
        .as_array()
        .or_else(|| games["items"].as_array())
        .into_iter()
        .flatten()
        .filter_map(|g| g["id"].as_i64())
        .collect();
    assert!(!ids.is_empty(), "the demo room has no games: {games}");
    let tables = api(server, &token, "GET", "/api/v1/tables", None);
    let have = tables
        .as_array()
        .or_else(|| tables["items"].as_array())
        .map_or(0, |a| a.len() as i64);
    for n in (have + 1)..=total {
        let game = ids[(n as usize) % ids.len()];
        let body = json!({ "number": n, "game_id": game, "mode": "continuous" });
        api(server, &token, "POST", "/api/v1/tables", Some(body));
    }
}

/// The games a room of 70 tables runs besides the demo's five: name, variant, blinds, limit
/// class and buy-in range.
const MORE_GAMES: [(&str, &str, i64, i64, &str, i64, i64); 3] = [
    (
        "NL Hold'em 5/10",
        "holdem_nl",
        500,
        1_000,
        "high",
        50_000,
        250_000,
    ),
    ("PLO 2/5", "plo", 200, 500, "mid", 10_000, 50_000),
    (
        "Limit Hold'em 4/8",
        "holdem_limit",
        200,
        400,
        "low",
        4_000,
        20_000,
    ),
];
/// How many of the 70 tables each game has, in the games' order (the demo's five, then
/// [`MORE_GAMES`]).
const TABLES_PER_GAME: [usize; 8] = [16, 12, 8, 6, 6, 8, 7, 7];
/// The players on each game's list once the room is grown: 80 in all.
const WAITING_PER_GAME: [usize; 8] = [20, 14, 9, 7, 6, 9, 8, 7];
/// Players seated at each table the test opens, in turn: most tables nearly full, a few just
/// opened with two.
const SEATED_CYCLE: [usize; 10] = [8, 6, 9, 5, 2, 7, 4, 6, 8, 3];
/// First and last names of the players the test registers (every pair once).
const FIRST: [&str; 25] = [
    "Larissa",
    "Vítor",
    "Guilherme",
    "Conceição",
    "Rodrigo",
    "Filipa",
    "Gonçalo",
    "Leonor",
    "Duarte",
    "Matilde",
    "Sebastião",
    "Carolina",
    "Afonso",
    "Mariana",
    "Henrique",
    "Beatriz",
    "Xavier",
    "Madalena",
    "Tomás",
    "Francisca",
    "Wei",
    "Ana",
    "Bernardo",
    "Constança",
    "Zé",
];
const LAST: [&str; 20] = [
    "Almeida",
    "Barbosa",
    "Cardoso",
    "Domingues",
    "Esteves",
    "Figueiredo",
    "Gaspar",
    "Henriques",
    "Jesus",
    "Lopes",
    "Magalhães",
    "Nogueira",
    "Pacheco",
    "Quintela",
    "Ribeiro",
    "Sequeira",
    "Teixeira",
    "Vasconcelos",
    "Xavier",
    "Zacarias",
];
/// Requests run side by side while the room is grown.
const GROW_THREADS: usize = 4;

/// The items of a list answer (a bare array or `{ "items": [...] }`).
fn items(v: &Value) -> Vec<Value> {
    v.as_array()
        .or_else(|| v["items"].as_array())
        .cloned()
        .unwrap_or_default()
}

/// `calls` split over [`GROW_THREADS`] threads, each running its share in order.
fn side_by_side<T: Send>(calls: Vec<T>, run: impl Fn(T) + Sync) {
    let mut shares: Vec<Vec<T>> = (0..GROW_THREADS).map(|_| Vec::new()).collect();
    for (i, c) in calls.into_iter().enumerate() {
        shares[i % GROW_THREADS].push(c);
    }
    std::thread::scope(|s| {
        for share in shares {
            let run = &run;
            s.spawn(move || share.into_iter().for_each(run));
        }
    });
}

/// Grows the demo room through the JSON API into a room of 70 tables, as a busy evening has
/// it: 8 games, every table open and most of them nearly full (about 500 players registered,
/// each with a photo), 80 players waiting over the 8 lists, and two players called to free
/// seats. Returns the number of a 10-seat table with free seats and a list waiting.
fn grow_room(server: &Server) -> i64 {
    let t0 = Instant::now();
    let token = admin_token(server);
    let token = token.as_str();
    let mut games: Vec<i64> = items(&api(server, token, "GET", "/api/v1/games", None))
        .iter()
        .filter_map(|g| g["id"].as_i64())
        .collect();
    assert_eq!(
        games.len(),
        5,
        "the demo room should have five games: {games:?}"
    );
    for (name, variant, sb, bb, class, min, max) in MORE_GAMES {
        let body = json!({ "name": name, "variant": variant, "small_blind": sb, "big_blind": bb,
                           "limit_class": class, "buy_in_min": min, "buy_in_max": max });
        let g = api(server, token, "POST", "/api/v1/games", Some(body));
        games.push(
            g["id"]
                .as_i64()
                .unwrap_or_else(|| panic!("a new game's id: {g}")),
        );
    }
    // Each table number's game: the demo's tables keep theirs (table 8 gets one), the new
    // ones go round the games until each has its share.
    let demo = items(&api(server, token, "GET", "/api/v1/tables", None));
    let mut left = TABLES_PER_GAME;
    let mut game_of: Vec<(i64, usize)> = Vec::new();
    for t in &demo {
        let n = t["number"].as_i64().unwrap_or(0);
        let g = t["game_id"]
            .as_i64()
            .and_then(|id| games.iter().position(|g| *g == id))
            .unwrap_or(5);
        left[g] -= 1;
        game_of.push((n, g));
    }
    let mut g = 0;
    for n in (demo.len() as i64 + 1)..=70 {
        while left[g] == 0 {
            g = (g + 1) % games.len();
        }
        left[g] -= 1;
        game_of.push((n, g));
        g = (g + 1) % games.len();
    }
    // Table 8 has no game in the demo: it gets the sixth.
    let mut tables: Vec<(i64, i64, usize, String)> = Vec::new(); // (number, id, game, state)
    for t in &demo {
        let (n, id) = (
            t["number"].as_i64().unwrap_or(0),
            t["id"].as_i64().unwrap_or(0),
        );
        let g = game_of.iter().find(|(m, _)| *m == n).map_or(5, |(_, g)| *g);
        if t["game_id"].is_null() {
            let body =
                json!({ "number": n, "game_id": games[g], "mode": "continuous", "active": true });
            api(
                server,
                token,
                "PUT",
                &format!("/api/v1/tables/{id}"),
                Some(body),
            );
        }
        let state = t["state"].as_str().unwrap_or("closed").to_string();
        tables.push((n, id, g, state));
    }
    for &(n, g) in game_of.iter().filter(|(n, _)| *n > demo.len() as i64) {
        let body = json!({ "number": n, "game_id": games[g], "mode": "continuous" });
        let t = api(server, token, "POST", "/api/v1/tables", Some(body));
        let id = t["id"]
            .as_i64()
            .unwrap_or_else(|| panic!("a new table's id: {t}"));
        tables.push((n, id, g, "closed".to_string()));
    }
    // Every closed table opens; the players to seat at each.
    let to_seat: Vec<(i64, i64, usize)> = tables
        .iter()
        .filter(|(_, _, _, state)| state == "closed")
        .enumerate()
        .map(|(k, (n, id, _, _))| (*n, *id, SEATED_CYCLE[k % SEATED_CYCLE.len()]))
        .collect();
    side_by_side(to_seat.iter().map(|(_, id, _)| *id).collect(), |id| {
        api(
            server,
            token,
            "POST",
            &format!("/api/v1/tables/{id}/open"),
            None,
        );
    });
    let listed: Vec<usize> = games
        .iter()
        .map(|g| {
            let l = api(
                server,
                token,
                "GET",
                &format!("/api/v1/games/{g}/waitlist"),
                None,
            );
            l["lines"].as_array().map_or(0, Vec::len)
        })
        .collect();
    let to_list: usize = WAITING_PER_GAME
        .iter()
        .zip(&listed)
        .map(|(want, have)| want.saturating_sub(*have))
        .sum();
    let seats: usize = to_seat.iter().map(|(_, _, k)| k).sum();

    // The players, registered with a photo (BSOP 1, 3: none sits or waits without one).
    let mut png = Vec::new();
    image::RgbImage::from_fn(64, 80, |x, y| {
        let (dx, dy) = (x as i64 - 32, y as i64 - 34);
        if dx * dx * 100 / (20 * 20) + dy * dy * 100 / (26 * 26) <= 100 {
            image::Rgb([224, 180, 150])
        } else {
            image::Rgb([90, 140, 200])
        }
    })
    .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
    .expect("a PNG portrait");
    let players = std::sync::Mutex::new(Vec::new());
    side_by_side((0..seats + to_list).collect(), |i| {
        let (first, last) = (FIRST[i % FIRST.len()], LAST[(i / FIRST.len()) % LAST.len()]);
        let alias = match i / FIRST.len() {
            0 => first.to_string(),
            k => format!("{first}{k}"),
        };
        let body = json!({
            "full_name": format!("{first} {last}"),
            "date_of_birth": format!("{}-{:02}-{:02}", 1960 + i % 40, 1 + i % 12, 1 + i % 28),
            "doc_kind": "national_id", "doc_number": format!("T{:07}", 1_000 + i),
            "doc_country": "PT", "doc_expiry": "2036-06-30", "alias": alias,
        });
        let p = api(server, token, "POST", "/api/v1/players", Some(body));
        let id = p["player"]["id"]
            .as_i64()
            .unwrap_or_else(|| panic!("a new player's id: {p}"));
        let (status, text) = http_body(
            server.addr,
            "PUT",
            &format!("/api/v1/players/{id}/photo"),
            Some(token),
            Some(("image/png", &png)),
        )
        .unwrap_or_else(|e| panic!("a photo for player {id}: {e}"));
        assert_eq!(status, 200, "PUT /api/v1/players/{id}/photo: {text}");
        players.lock().unwrap().push((i, id));
    });
    let mut players = players.into_inner().unwrap();
    players.sort();
    let mut players = players.into_iter().map(|(_, id)| id);

    // Seated (BSOP 44: the floor seats them directly), then the lists.
    let sittings: Vec<(i64, Vec<i64>)> = to_seat
        .iter()
        .map(|(_, id, k)| (*id, players.by_ref().take(*k).collect()))
        .collect();
    side_by_side(sittings, |(id, who)| {
        for (seat, p) in who.iter().enumerate() {
            let body = json!({ "player_id": p });
            let path = format!("/api/v1/tables/{id}/seats/{}", seat + 1);
            api(server, token, "POST", &path, Some(body));
        }
    });
    let joins: Vec<(i64, Vec<i64>)> = games
        .iter()
        .zip(WAITING_PER_GAME.iter().zip(&listed))
        .map(|(g, (want, have))| {
            (
                *g,
                players.by_ref().take(want.saturating_sub(*have)).collect(),
            )
        })
        .collect();
    side_by_side(joins, |(g, who)| {
        for p in who {
            let body = json!({ "player_id": p });
            api(
                server,
                token,
                "POST",
                &format!("/api/v1/games/{g}/waitlist"),
                Some(body),
            );
        }
    });
    // Two free seats called: the first two tables of the first two games with one.
    for g in [0, 1] {
        if let Some((_, id, k)) = to_seat
            .iter()
            .find(|(n, _, k)| game_of.contains(&(*n, g)) && *k < 8)
        {
            let path = format!("/api/v1/tables/{id}/seats/{}/call-next", k + 1);
            api(server, token, "POST", &path, None);
        }
    }
    // The panel's table: a 10-seat table of the first game with three free seats or more,
    // no call made to it.
    let panel = to_seat
        .iter()
        .filter(|(n, _, k)| game_of.contains(&(*n, 0)) && (4..=7).contains(k))
        .nth(1)
        .map(|(n, _, _)| *n)
        .expect("a table of the first game with free seats");
    eprintln!(
        "room grown to 70 tables, {} players registered, {seats} seated and {to_list} listed in {:?}",
        seats + to_list,
        t0.elapsed()
    );
    panel
}

/// A Chromium session signed in as the floor manager with a `w`×`h` viewport.
async fn floor_browser(r: &Room, profile: &str, w: u32, h: u32) -> Client {
    let c = open_session(&r.webdriver, r.tmp.path(), profile, w, h).await;
    sign_in(&c, &r.server.base, FLOOR_USER, FLOOR_PASSWORD).await;
    c
}

/// Opens `/floor{query}` and waits for the board.
async fn goto_floor(c: &Client, base: &str, query: &str) {
    ok(
        c,
        c.goto(&format!("{base}/floor{query}")).await,
        &format!("opening /floor{query}"),
    )
    .await;
    wait_css(c, "#floor-live .tile").await;
}

async fn eval(c: &Client, js: &str, args: Vec<Value>) -> Value {
    ok(c, c.execute(js, args).await, js).await
}

/// Clicks `css` and waits (10 s) for the new page a form's POST leads to (the board again).
async fn submit(c: &Client, css: &str, what: &str) {
    eval(c, "window.__before = true; return true;", vec![]).await;
    let el = wait_css(c, css).await;
    ok(c, el.click().await, &format!("clicking `{css}` to {what}")).await;
    let loaded = "return window.__before === undefined && document.readyState === 'complete' \
                  && !!document.getElementById('floor-live');";
    let deadline = Instant::now() + Duration::from_secs(10);
    while c.execute(loaded, vec![]).await.ok() != Some(json!(true)) {
        if Instant::now() >= deadline {
            fail(
                c,
                format!("after clicking `{css}` to {what}, no new board within 10 s"),
            )
            .await;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Waits (`limit`) until `js` returns something `pred` accepts; fails with `describe` and
/// the last value.
async fn wait_js(
    c: &Client,
    limit: Duration,
    describe: &str,
    js: &str,
    args: Vec<Value>,
    pred: impl Fn(&Value) -> bool,
) -> Value {
    let deadline = Instant::now() + limit;
    loop {
        let v = c.execute(js, args.clone()).await.unwrap_or(Value::Null);
        if pred(&v) {
            return v;
        }
        if Instant::now() >= deadline {
            fail(
                c,
                format!("waited {limit:?} for {describe}; last seen: {v}"),
            )
            .await;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Tiles wholly inside the viewport, tiles in all, and each list header's visibility.
const JS_FIRST_SCREEN: &str = "const W = innerWidth, H = innerHeight;\
    const tiles = [...document.querySelectorAll('a.tile')];\
    const whole = tiles.filter(t => { const r = t.getBoundingClientRect();\
        return r.width > 0 && r.left >= 0 && r.top >= 0 && r.right <= W + 0.5 && r.bottom <= H + 0.5; });\
    const heads = [...document.querySelectorAll('.list-card h3')].map(h => { const r = h.getBoundingClientRect();\
        return { text: h.innerText.trim().slice(0, 40), seen: r.width > 0 && r.top < H && r.bottom > 0 && r.left < W && r.right > 0,\
                 box: [Math.round(r.left), Math.round(r.top), Math.round(r.right), Math.round(r.bottom)] }; });\
    return { w: W, h: H, tiles: tiles.length, whole: whole.length, heads,\
             scroll_w: document.documentElement.scrollWidth };";

/// The first screen of a 50-table room at 1440×900 shows at least 24 whole tiles and
/// every game's list header.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_first_screen_shows_24_tables_and_every_list() {
    let Some(r) = room(true).await else {
        return;
    };
    let c = floor_browser(&r, "chrome-profile-first", 1440, 900).await;
    goto_floor(&c, &r.server.base, "").await;
    scroll_to_top(&c).await;
    let v = eval(&c, JS_FIRST_SCREEN, vec![]).await;
    eprintln!("first screen at 1440×900: {v}");
    screenshot(&c, "browser-board-1440.png").await;
    docs_screenshot(&c, "floor-board.png", 1440, 900).await;
    if v["tiles"].as_i64() != Some(ROOM_TABLES) {
        fail(
            &c,
            format!("the board should have {ROOM_TABLES} tiles: {v}"),
        )
        .await;
    }
    if v["whole"].as_i64().unwrap_or(0) < 24 {
        fail(
            &c,
            format!("fewer than 24 tiles wholly on the first screen at 1440×900: {v}"),
        )
        .await;
    }
    let heads = v["heads"].as_array().cloned().unwrap_or_default();
    if heads.is_empty() || heads.iter().any(|h| h["seen"] != json!(true)) {
        fail(
            &c,
            format!("a game's list header is not on the first screen: {v}"),
        )
        .await;
    }
    let _ = c.close().await;
}

/// The panel's box and every seat menu in it, opened one after the other.
const JS_PANEL: &str = "const W = innerWidth, H = innerHeight;\
    const inside = r => r.left >= -0.5 && r.top >= -0.5 && r.right <= W + 0.5 && r.bottom <= H + 0.5;\
    const box = r => [Math.round(r.left), Math.round(r.top), Math.round(r.right), Math.round(r.bottom)];\
    const p = document.getElementById('panel'); const pr = p.getBoundingClientRect();\
    const out = { w: W, h: H, panel: box(pr), panel_inside: !p.hidden && pr.width > 0 && inside(pr), menus: 0, outside: [] };\
    for (const d of document.querySelectorAll('#panel .seat-actions')) {\
      const s = d.querySelector(':scope > summary');\
      s.scrollIntoView({ block: 'center' }); s.click();\
      const m = d.querySelector('.seat-menu').getBoundingClientRect();\
      out.menus++;\
      if (!inside(m)) { out.outside.push(s.getAttribute('aria-label') + ' ' + JSON.stringify(box(m))); if (!out.kept) { out.kept = true; continue; } }\
      s.click();\
    }\
    return out;";

/// At a desk, a tablet and a phone, a click on a tile opens the table's panel
/// inside the window, and every seat menu in the panel opens inside the window.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tile_opens_its_panel_and_seat_menus_inside_the_window() {
    let Some(r) = room(false).await else {
        return;
    };
    let c = floor_browser(&r, "chrome-profile-panel", 1440, 900).await;
    // The demo's table 1 runs with players in most seats.
    let number = 1;
    let mut problems = Vec::new();
    for (w, h) in [(1440, 900), (1024, 768), (390, 844)] {
        set_viewport(&c, w, h, "panel").await;
        goto_floor(&c, &r.server.base, "").await;
        let tile = wait_css(&c, &format!("#tile-{number}")).await;
        ok(&c, tile.click().await, &format!("clicking #tile-{number}")).await;
        wait_js(
            &c,
            Duration::from_secs(10),
            &format!("table {number}'s panel to open at {w}×{h}"),
            "const p = document.getElementById('panel');\
             return !!p && !p.hidden && !!p.querySelector('#table-' + arguments[0] + ' .seats')\
                    && new URL(location.href).searchParams.get('table') === String(arguments[0]);",
            vec![json!(number)],
            |v| v == &json!(true),
        )
        .await;
        // The panel may slide in: its box is read once it has settled.
        tokio::time::sleep(Duration::from_millis(400)).await;
        let v = eval(&c, JS_PANEL, vec![]).await;
        eprintln!("{w}×{h}: {v}");
        if v["kept"] == json!(true) {
            screenshot(&c, &format!("browser-board-menu-{w}.png")).await;
        } else {
            screenshot(&c, &format!("browser-board-panel-{w}.png")).await;
        }
        if v["panel_inside"] != json!(true) {
            problems.push(format!(
                "at {w}×{h} the panel is not inside the window: {v}"
            ));
        }
        if v["menus"].as_i64().unwrap_or(0) < 5 {
            problems.push(format!(
                "at {w}×{h} the panel shows too few seat menus: {v}"
            ));
        }
        if !v["outside"].as_array().is_some_and(|a| a.is_empty()) {
            problems.push(format!(
                "at {w}×{h} seat menus open outside the window: {v}"
            ));
        }
    }
    if !problems.is_empty() {
        fail(&c, problems.join("\n")).await;
    }
    let _ = c.close().await;
}

/// The options the type-ahead offers (`datalist#player-options`).
const JS_OPTIONS: &str =
    "return [...document.querySelectorAll('#player-options option')].map(o => o.value);";

/// Join by typing part of a name, picking the type-ahead's option; a text that names
/// nobody is refused, the text kept.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn join_by_typing_a_name() {
    let Some(r) = room(false).await else {
        return;
    };
    let token = admin_token(&r.server);
    let p = api(
        &r.server,
        &token,
        "GET",
        &format!("/api/v1/players/{JOIN_PLAYER}"),
        None,
    );
    let p = &p["player"];
    let (Some(full_name), Some(alias)) = (p["full_name"].as_str(), p["alias"].as_str()) else {
        panic!("GET /api/v1/players/{JOIN_PLAYER}: no full_name/alias in {p}");
    };
    // Part of the name: the first name and the start of the last (e.g. "Joana Car").
    let typed: String = {
        let mut parts = full_name.split_whitespace();
        let first = parts.next().unwrap_or(full_name);
        let last: String = parts.next().unwrap_or("").chars().take(3).collect();
        format!("{first} {last}").trim().to_string()
    };
    let c = floor_browser(&r, "chrome-profile-join", 1440, 900).await;
    goto_floor(&c, &r.server.base, "").await;
    let game = eval(
        &c,
        "const b = document.querySelector('#join-form button[formaction^=\"/floor/lists/\"]');\
         return b ? b.getAttribute('formaction').split('/')[3] : null;",
        vec![],
    )
    .await;
    let Some(game) = game.as_str().map(String::from) else {
        fail(&c, "the join form has no game button").await
    };
    type_into(&c, "#join-player", &typed).await;
    let want = format!("(#{JOIN_PLAYER})");
    let options = wait_js(
        &c,
        Duration::from_secs(10),
        &format!("the type-ahead to offer player #{JOIN_PLAYER} for {typed:?}"),
        JS_OPTIONS,
        vec![],
        |v| {
            v.as_array().is_some_and(|a| {
                a.iter()
                    .any(|o| o.as_str().is_some_and(|s| s.ends_with(&want)))
            })
        },
    )
    .await;
    let option = options
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .find(|s| s.ends_with(&want))
        .unwrap_or_default()
        .to_string();
    eprintln!("typed {typed:?}; options {options}; picked {option:?}");
    if !option.contains(alias) || !option.contains(full_name) {
        fail(
            &c,
            format!(
                "the option for #{JOIN_PLAYER} should name {alias} and {full_name}: {option:?}"
            ),
        )
        .await;
    }
    set_value_js(&c, "#join-player", &option).await;
    submit(
        &c,
        &format!("#join-form button[formaction=\"/floor/lists/{game}/join\"]"),
        "join the list",
    )
    .await;
    let v = eval(
        &c,
        "const d = document.getElementById('floor-done'), p = document.getElementById('floor-problem');\
         const l = document.getElementById('list-' + arguments[0]);\
         return { done: d ? d.innerText : null, problem: p ? p.innerText : null,\
                  listed: !!l && !!l.querySelector('li[data-player=\"' + arguments[1] + '\"]'),\
                  list: l ? l.textContent.replace(/\\s+/g, ' ') : null };",
        vec![json!(game), json!(JOIN_PLAYER)],
    )
    .await;
    screenshot(&c, "browser-board-joined.png").await;
    if !v["done"].as_str().is_some_and(|d| d.contains(alias)) || v["listed"] != json!(true) {
        fail(
            &c,
            format!("after joining {option:?}, #floor-done should name {alias} and #list-{game} hold them: {v}"),
        )
        .await;
    }

    // A text that names nobody: refused, the text kept.
    let nobody = "Zzyzx Nobody";
    type_into(&c, "#join-player", nobody).await;
    submit(
        &c,
        &format!("#join-form button[formaction=\"/floor/lists/{game}/join\"]"),
        "join with an unknown name",
    )
    .await;
    let v = eval(
        &c,
        "const p = document.getElementById('floor-problem'), i = document.getElementById('join-player');\
         return { problem: p && !p.hidden ? p.innerText : null, typed: i ? i.value : null };",
        vec![],
    )
    .await;
    if v["problem"].as_str().is_none_or(str::is_empty) || v["typed"] != json!(nobody) {
        fail(
            &c,
            format!("an unknown name should be refused in #floor-problem with {nobody:?} kept in #join-player: {v}"),
        )
        .await;
    }
    let _ = c.close().await;
}

/// The called alias on a panel (the seat with a pending call) and a tile's text, with the
/// page's marker.
const JS_TILE: &str = "const t = document.getElementById('tile-' + arguments[0]);\
    return { tile: t ? t.innerText : null, marker: window.__marker === undefined ? null : window.__marker };";

/// A call made in browser A shows on browser B's tile within 5 s, B not reloaded.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_shows_on_the_other_browsers_tile_without_reload() {
    let Some(r) = room(false).await else {
        return;
    };
    let base = &r.server.base;
    let a = floor_browser(&r, "chrome-profile-a", 1440, 900).await;
    let b = floor_browser(&r, "chrome-profile-b", 1440, 900).await;
    goto_floor(&b, base, "").await;
    wait_js(
        &b,
        Duration::from_secs(10),
        "B's event stream to connect (#live-status badge-ok)",
        "const s = document.getElementById('live-status'); return s ? s.className : null;",
        vec![],
        |v| v.as_str().is_some_and(|s| s.contains("badge-ok")),
    )
    .await;
    eval(&b, "window.__marker = 1; return 1;", vec![]).await;

    // A running table with a free seat whose game has someone waiting: its panel's Call.
    goto_floor(&a, base, "").await;
    let pick = eval(
        &a,
        "for (const t of document.querySelectorAll('a.tile.st-running')) {\
           const l = document.getElementById('list-' + t.getAttribute('data-game'));\
           if (t.querySelector('.dots i:not(.d):not(.c):not(.h)') && l && l.querySelector('li[data-player]'))\
             return t.id.replace('tile-', '');\
         }\
         return null;",
        vec![],
    )
    .await;
    let Some(number) = pick.as_str().map(String::from) else {
        fail(&a, "no running table with a free seat and a waiting list").await
    };
    goto_floor(&a, base, &format!("?table={number}")).await;
    let call_css = format!("#panel #table-{number} form[action$=\"/call\"] button");
    submit(&a, &call_css, "call the next player to a free seat").await;
    let called = eval(
        &a,
        "const f = document.querySelector('#panel #table-' + arguments[0] + ' form[action^=\"/floor/calls/\"]');\
         const li = f ? f.closest('li') : null; const w = li ? li.querySelector('.who') : null;\
         const p = document.getElementById('floor-problem');\
         return { alias: w ? w.innerText.trim() : null, problem: p ? p.innerText : null };",
        vec![json!(number)],
    )
    .await;
    let Some(alias) = called["alias"].as_str().map(String::from) else {
        fail(
            &a,
            format!("after calling, table {number}'s panel shows no pending call: {called}"),
        )
        .await
    };
    let t0 = Instant::now();
    let seen = wait_js(
        &b,
        TILE_WAIT,
        &format!("B's #tile-{number} to name the called {alias} without a reload"),
        JS_TILE,
        vec![json!(number)],
        |v| {
            v["marker"] == json!(1)
                && v["tile"]
                    .as_str()
                    .is_some_and(|t| t.contains(alias.as_str()))
        },
    )
    .await;
    eprintln!("B's tile named {alias} after {:?}: {seen}", t0.elapsed());
    let _ = eval(
        &b,
        "document.getElementById('tile-' + arguments[0]).scrollIntoView({ block: 'center' }); return 1;",
        vec![json!(number)],
    )
    .await;
    screenshot(&b, "browser-board-live-b.png").await;
    let end = eval(&b, JS_TILE, vec![json!(number)]).await;
    if end["marker"] != json!(1) {
        fail(&b, format!("browser B reloaded: {end}")).await;
    }
    let _ = a.close().await;
    let _ = b.close().await;
}

/// The players on a list, in order.
const JS_LIST_ORDER: &str = "const l = document.getElementById('list-' + arguments[0]);\
    return l ? [...l.querySelectorAll('li[data-player]')].map(li => li.getAttribute('data-player')) : null;";

/// A removal from a list is undone from the toast; the player is back at their place.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_removal_is_undone_from_the_toast() {
    let Some(r) = room(false).await else {
        return;
    };
    let c = floor_browser(&r, "chrome-profile-undo", 1440, 900).await;
    goto_floor(&c, &r.server.base, "").await;
    // A list with two players or more; the second one is removed.
    let game = eval(
        &c,
        "for (const l of document.querySelectorAll('.board-lists .list-card')) {\
           if (l.querySelectorAll('li[data-player]').length >= 2) return l.id.replace('list-', '');\
         }\
         return null;",
        vec![],
    )
    .await;
    let Some(game) = game.as_str().map(String::from) else {
        fail(&c, "no list with two players on the board").await
    };
    let before = eval(&c, JS_LIST_ORDER, vec![json!(game)]).await;
    let Some(player) = before[1].as_str().map(String::from) else {
        fail(&c, format!("list {game}: {before}")).await
    };
    submit(
        &c,
        &format!("#list-{game} li[data-player=\"{player}\"] button[formaction$=\"/remove\"]"),
        "remove the second player from the list",
    )
    .await;
    let after = eval(&c, JS_LIST_ORDER, vec![json!(game)]).await;
    let done = eval(
        &c,
        "const d = document.getElementById('floor-done'); return d ? d.innerText : null;",
        vec![],
    )
    .await;
    if after.as_array().is_none_or(|a| a.contains(&json!(player))) || done.is_null() {
        fail(
            &c,
            format!("after removing player #{player}, list {game} still holds them or no toast: {after}, {done}"),
        )
        .await;
    }
    screenshot(&c, "browser-board-removed.png").await;
    submit(&c, "#floor-undo", "undo the removal").await;
    let back = eval(&c, JS_LIST_ORDER, vec![json!(game)]).await;
    if back != before {
        fail(
            &c,
            format!("after Undo, list {game} should be {before} again, not {back}"),
        )
        .await;
    }
    let _ = c.close().await;
}

/// A live update keeps the focus where it was. B has table N's panel open with the focus
/// on one seat's "Hold"; A calls a player to another seat of that table; B's panel shows the
/// call (swapped in without a reload) and the focus is on the same "Hold" again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_update_keeps_the_focus_where_it_was() {
    let Some(r) = room(false).await else {
        return;
    };
    let base = &r.server.base;
    let a = floor_browser(&r, "chrome-profile-a", 1440, 900).await;
    let b = floor_browser(&r, "chrome-profile-b", 1440, 900).await;
    // A running table with two free seats whose game has someone waiting.
    goto_floor(&a, base, "").await;
    let pick = eval(
        &a,
        "for (const t of document.querySelectorAll('a.tile.st-running')) {\
           const l = document.getElementById('list-' + t.getAttribute('data-game'));\
           if (t.querySelectorAll('.dots i:not(.d):not(.c):not(.h)').length >= 2 && l && l.querySelector('li[data-player]'))\
             return t.id.replace('tile-', '');\
         }\
         return null;",
        vec![],
    )
    .await;
    let Some(number) = pick.as_str().map(String::from) else {
        fail(
            &a,
            "no running table with two free seats and a waiting list",
        )
        .await
    };
    goto_floor(&b, base, &format!("?table={number}")).await;
    wait_js(
        &b,
        Duration::from_secs(10),
        "B's event stream to connect (#live-status badge-ok)",
        "const s = document.getElementById('live-status'); return s ? s.className : null;",
        vec![],
        |v| v.as_str().is_some_and(|s| s.contains("badge-ok")),
    )
    .await;
    // B focuses the Hold of the LAST free seat; A will call the first.
    let focused = eval(
        &b,
        "window.__marker = 1;\
         const s = [...document.querySelectorAll('#panel details.hold > summary')];\
         if (s.length < 2) return null;\
         const last = s[s.length - 1]; last.focus();\
         return document.activeElement === last ? last.getAttribute('aria-label') : null;",
        vec![],
    )
    .await;
    let Some(label) = focused.as_str().map(String::from) else {
        fail(
            &b,
            format!("B could not focus a seat's Hold in table {number}'s panel"),
        )
        .await
    };
    goto_floor(&a, base, &format!("?table={number}")).await;
    submit(
        &a,
        &format!("#panel #table-{number} form[action$=\"/call\"] button"),
        "call the next player to the first free seat",
    )
    .await;
    // B's panel shows the new call (a Seat button) without a reload, the focus kept.
    let seen = wait_js(
        &b,
        TILE_WAIT,
        &format!("B's panel of table {number} to show the call with the focus kept on {label:?}"),
        "const p = document.querySelector('#panel form[action^=\"/floor/calls/\"]');\
         const a = document.activeElement;\
         return { call: !!p, marker: window.__marker === 1,\
                  focus: a ? a.getAttribute('aria-label') : null };",
        vec![],
        |v| v["call"] == json!(true) && v["marker"] == json!(true),
    )
    .await;
    if seen["focus"].as_str() != Some(label.as_str()) {
        fail(
            &b,
            format!(
                "after the live update the focus is on {:?}, not {label:?}",
                seen["focus"]
            ),
        )
        .await;
    }
    let _ = a.close().await;
    let _ = b.close().await;
}

/// On a tablet's width (1024×768) every control on the board and in a table's panel is a
/// 44 px target.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_tablet_width_every_control_is_a_44_px_target() {
    let Some(r) = room(false).await else {
        return;
    };
    let c = floor_browser(&r, "chrome-profile-t", 1024, 768).await;
    goto_floor(&c, &r.server.base, "?table=1").await;
    wait_css(&c, "#panel #table-1").await;
    let small = eval(
        &c,
        "const out = [];\
         document.querySelectorAll('#main button, #main summary, #main input:not([type=hidden]), #main select, #main a.btn, #main a.tile, #main .waitlist a').forEach(e => {\
           const r = e.getBoundingClientRect();\
           if (r.width === 0 || r.height === 0) return;\
           const box = (e.type === 'checkbox' || e.type === 'radio') && e.closest('label') ? e.closest('label').getBoundingClientRect() : r;\
           if (box.height < 43.5) out.push(e.tagName.toLowerCase() + ' ' + (e.getAttribute('aria-label') || e.innerText || e.name || '').trim().slice(0, 40) + ' ' + Math.round(box.height));\
         });\
         return out.slice(0, 12);",
        vec![],
    )
    .await;
    if !small.as_array().is_some_and(|a| a.is_empty()) {
        screenshot(&c, "browser-board-targets-1024.png").await;
        fail(&c, format!("controls under 44 px at 1024 px: {small}")).await;
    }
    let _ = c.close().await;
}

/// Every free seat's Call button in the open panel, and whether each is wholly in the window.
const JS_CALLS: &str = "const W = innerWidth, H = innerHeight;\
    const b = [...document.querySelectorAll('#panel form[action$=\"/call\"] button')];\
    const seen = b.filter(x => { const r = x.getBoundingClientRect();\
        return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= H + 0.5 && r.right <= W + 0.5; });\
    const p = document.getElementById('panel');\
    return { w: W, h: H, calls: b.length, seen: seen.length, scrolled: p.scrollTop,\
             seats: document.querySelectorAll('#panel .seat').length,\
             last: b.length ? Math.round(b[b.length - 1].getBoundingClientRect().bottom) : null };";

/// The tools' row: how many rows the head's controls take (by their tops).
const JS_TOOLS: &str = "const els = [...document.querySelectorAll('.board-head > *')].filter(e => e.getBoundingClientRect().width > 0);\
    const rs = els.map(e => e.getBoundingClientRect());\
    const one = Math.max(...rs.map(r => r.top)) < Math.min(...rs.map(r => r.bottom));\
    const tile = document.querySelector('a.tile').getBoundingClientRect();\
    const games = [...document.querySelectorAll('a.tile .t-game')].length;\
    return { rows: one ? 1 : 2, first_tile_top: Math.round(tile.top), tile_game_names: games };";

/// The alarm strip: its count, its alarms, its height, and the tiles' alarm badges.
const JS_ALARMS: &str = "const s = document.getElementById('floor-alerts');\
    const h = document.getElementById('alarm-count');\
    return { count: h ? h.getAttribute('data-count') : null,\
             items: s ? s.querySelectorAll('.alarm').length : 0,\
             strip_h: s ? Math.round(s.getBoundingClientRect().height) : null,\
             badges: document.querySelectorAll('a.tile .t-alarm[data-alarm=\"request\"]').length };";

/// The room the board shows: its tiles by state, the tiles with someone seated, the lists
/// and their players, the calls on the tiles, and each name on a list or a call that is cut
/// (wider than its box) or, of nine letters or fewer, broken over two lines.
const JS_ROOM: &str = "const tiles = [...document.querySelectorAll('a.tile')];\
    const lists = [...document.querySelectorAll('.board-lists .list-card')];\
    const names = [...document.querySelectorAll('.board-lists .waitlist li[data-player] > a, a.tile .t-call')]\
        .filter(a => a.getBoundingClientRect().width > 0);\
    return { closed: tiles.filter(t => t.classList.contains('st-closed')).length,\
             seated: tiles.filter(t => t.querySelector('.dots i.d')).length,\
             lists: lists.length,\
             waiting: lists.reduce((n, l) => n + Number((l.querySelector('.list-count') || {}).innerText || 0), 0),\
             called: [...document.querySelectorAll('a.tile .t-call')].length,\
             names: names.length,\
             cut: names.filter(a => { const r = document.createRange(); r.selectNodeContents(a);\
                       const lines = new Set([...r.getClientRects()].map(x => Math.round(x.top))).size;\
                       return a.scrollWidth > a.clientWidth + 1 || (a.innerText.trim().length <= 9 && lines > 1); })\
                       .map(a => a.innerText + ' ' + a.scrollWidth + '>' + a.clientWidth) };";

/// A room of 70 tables on one desk screen (grown through the API as a busy evening has it:
/// 8 games, every table open and most nearly full, 80 players waiting, two called): at
/// 1440×900 at least 48 whole tiles and every list's header, the tools in one row, no tile
/// repeating its group's game, every name on the lists whole; in a 10-seat table's panel
/// every free seat's Call inside the window at 1440×900 and 1024×768; in Portuguese and in
/// English (`target/browser-board70-*.png`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_of_70_tables_fits_one_desk_screen() {
    let Some(r) = demo_room(false).await else {
        return;
    };
    let t0 = Instant::now();
    let panel = grow_room(&r.server);
    // Two tables ask for the floor: two alarms on the strip, a badge on each tile.
    let token = admin_token(&r.server);
    for (table, kind) in [(1, "floor"), (3, "chips")] {
        let body = json!({ "kind": kind, "note": "" });
        api(
            &r.server,
            &token,
            "POST",
            &format!("/api/v1/tables/{table}/service-requests"),
            Some(body),
        );
    }
    let c = floor_browser(&r, "chrome-profile-70", 1440, 900).await;
    let mut problems = Vec::new();
    for lang in ["pt", "en"] {
        set_viewport(&c, 1440, 900, "board70").await;
        // The language the user chose (the `cr_lang` cookie) over the browser's.
        eval(
            &c,
            "document.cookie = 'cr_lang=' + arguments[0] + '; path=/'; return true;",
            vec![json!(lang)],
        )
        .await;
        goto_floor(&c, &r.server.base, "").await;
        scroll_to_top(&c).await;
        let v = eval(&c, JS_FIRST_SCREEN, vec![]).await;
        let t = eval(&c, JS_TOOLS, vec![]).await;
        let room = eval(&c, JS_ROOM, vec![]).await;
        eprintln!("70 tables at 1440×900 ({lang}): {v} {t} {room}");
        screenshot(&c, &format!("browser-board70-1440-{lang}.png")).await;
        if v["tiles"].as_i64() != Some(70) {
            problems.push(format!("{lang}: the board should have 70 tiles: {v}"));
        }
        if room["closed"] != json!(0)
            || room["seated"].as_i64().unwrap_or(0) < 60
            || room["lists"] != json!(8)
            || room["waiting"] != json!(80)
            || room["called"].as_i64().unwrap_or(0) < 2
        {
            problems.push(format!(
                "{lang}: the room should show 70 open tables, 60 or more with players, 8 lists of 80 players and two calls on the tiles: {room}"
            ));
        }
        if !room["cut"].as_array().is_some_and(|a| a.is_empty()) {
            problems.push(format!("{lang}: a name on a list or a call is cut: {room}"));
        }
        if v["whole"].as_i64().unwrap_or(0) < 48 {
            problems.push(format!(
                "{lang}: fewer than 48 whole tiles at 1440×900: {v}"
            ));
        }
        let heads = v["heads"].as_array().cloned().unwrap_or_default();
        let whole_heads = heads.iter().all(|h| {
            let b = h["box"].as_array().cloned().unwrap_or_default();
            b.len() == 4 && b[1].as_i64() >= Some(0) && b[3].as_i64() <= Some(900)
        });
        if heads.len() != 8 || !whole_heads {
            problems.push(format!(
                "{lang}: a list's header is not wholly on the first screen: {v}"
            ));
        }
        let a = eval(&c, JS_ALARMS, vec![]).await;
        eprintln!("alarms ({lang}): {a}");
        if a["count"] != json!("2")
            || a["items"].as_i64() != Some(2)
            || a["badges"].as_i64() != Some(2)
            || a["strip_h"].as_i64().unwrap_or(999) > 60
        {
            problems.push(format!("{lang}: the two requests should be two alarms on a one-row strip and a badge on each tile: {a}"));
        }
        if t["rows"].as_i64() != Some(1)
            || t["tile_game_names"].as_i64() != Some(0)
            || t["first_tile_top"].as_i64().unwrap_or(999) > 180
        {
            problems.push(format!(
                "{lang}: the tools take more than one row, the tiles start below 180 px, or a tile repeats its game: {t}"
            ));
        }
        for (w, h) in [(1440, 900), (1024, 768)] {
            set_viewport(&c, w, h, "board70 panel").await;
            goto_floor(&c, &r.server.base, &format!("?table={panel}")).await;
            tokio::time::sleep(Duration::from_millis(300)).await;
            let p = eval(&c, JS_CALLS, vec![]).await;
            eprintln!("table {panel}'s panel at {w}×{h} ({lang}): {p}");
            screenshot(&c, &format!("browser-board70-panel-{w}-{lang}.png")).await;
            if p["seats"].as_i64() != Some(10)
                || p["calls"].as_i64().unwrap_or(0) < 3
                || p["calls"] != p["seen"]
            {
                problems.push(format!(
                    "{lang}: at {w}×{h} a free seat's Call of table {panel} is not in the window: {p}"
                ));
            }
        }
    }
    // An alarm opens its table's panel in place.
    set_viewport(&c, 1440, 900, "board70 alarm").await;
    goto_floor(&c, &r.server.base, "").await;
    let go = wait_css(
        &c,
        "#floor-alerts .service-request a.alarm-go[data-table=\"1\"]",
    )
    .await;
    ok(&c, go.click().await, "clicking table 1's alarm").await;
    wait_js(
        &c,
        Duration::from_secs(10),
        "table 1's panel to open from its alarm",
        "const p = document.getElementById('panel');\
         return !!p && !p.hidden && !!p.querySelector('#table-1');",
        vec![],
        |v| v == &json!(true),
    )
    .await;
    screenshot(&c, "browser-board70-alarm-panel.png").await;
    eprintln!("the 70-table room checked in {:?}", t0.elapsed());
    if !problems.is_empty() {
        fail(&c, problems.join("\n")).await;
    }
    let _ = c.close().await;
}
