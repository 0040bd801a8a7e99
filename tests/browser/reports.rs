//! Real-browser test of the reports page: headless Chromium through chromedriver
//! against the real `cardroom serve --demo` binary on a fresh SQLite file. The test adds a
//! gaming day's billing rows to that file (as the tablet stores them: hands with their rake,
//! a cagnotte session with one due collected and one left open, a tip, two players seated
//! from a list), signs in as the floor manager, opens `/floor/reports` for that day and
//! checks that the charts are there with data (SVG bars with non-zero height, accessible
//! titles), that the difference is shown highlighted, and that the CSV file behind the page's
//! download link — fetched by the browser with its own session — has the same totals as the
//! page.
//!
//! Without chromedriver the test is skipped, unless `CARDROOM_REQUIRE_BROWSER=1`. Screenshots:
//! `target/browser-reports.png` (top of the page), `target/browser-reports-charts.png` and
//! `target/browser-reports-tables.png` (the tables of figures), and for the summary and the
//! waits' chart with eight games at 1440 and 1024 px `target/browser-reports-kpi-*.png` and
//! `target/browser-reports-waits-*.png`; on failure `target/browser-failure.png`.
// Setup writes its rows in plain transactions; clippy.toml keeps them out of the app.
#![allow(clippy::disallowed_methods)]

use crate::browser_support::*;
use cardroom::db::models::*;
use cardroom::db::schema::*;
use cardroom::domain::ids::EntryId;
use cardroom::domain::ids::GameId;
use cardroom::domain::ids::PlayerId;
use cardroom::domain::ids::SeatingId;
use cardroom::domain::ids::TableId;
use cardroom::domain::states::{EntryState, ListSource};
use cardroom::services::reports::{day_bounds, gaming_date};
use chrono::{Duration as Dur, NaiveTime, Utc};
use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use fantoccini::Client;
use serde_json::{json, Value};
use std::path::Path;
use std::time::Duration;

const FLOOR_USER: &str = "floor";
const FLOOR_PASSWORD: &str = "demo-password";
/// Demo players neither seated nor listed (see tests/browser/floor.rs).
const PLAYERS: [i64; 2] = [33, 34];

/// The rows of yesterday's gaming day (so every time is in the past), at table `table` of
/// game `game`. Returns the day (YYYY-MM-DD).
fn seed(db: &Path, table: i64, game: i64) -> String {
    let mut c = diesel::SqliteConnection::establish(&db.display().to_string())
        .expect("open the server's database");
    c.batch_execute("PRAGMA busy_timeout = 10000; PRAGMA foreign_keys = ON;")
        .expect("pragmas");
    let tz = chrono_tz::Europe::Lisbon;
    let six = NaiveTime::from_hms_opt(6, 0, 0).unwrap();
    // Ten days back: before the demo's own past evenings (the last three days), so the day
    // holds only what is seeded here.
    let day = gaming_date(Utc::now(), tz, six) - Dur::days(10);
    let (from, _) = day_bounds(tz, day, six);
    let t = |minutes: i64| (from + Dur::minutes(minutes)).naive_utc();
    let sits = [
        SeatingRow {
            id: SeatingId(100_001),
            table_id: TableId(table),
            seat_no: 1,
            player_id: PlayerId(PLAYERS[0]),
            game_id: Some(GameId(game)),
            entry_id: Some(EntryId(100_001)),
            sat_at: t(60),
            left_at: Some(t(180)),
            left_reason: Some("left".into()),
            seated_by: None,
        },
        SeatingRow {
            id: SeatingId(100_002),
            table_id: TableId(table),
            seat_no: 2,
            player_id: PlayerId(PLAYERS[1]),
            game_id: Some(GameId(game)),
            entry_id: Some(EntryId(100_002)),
            sat_at: t(120),
            left_at: Some(t(300)),
            left_reason: Some("left".into()),
            seated_by: None,
        },
    ];
    let entries: Vec<WaitlistRow> = [
        (100_001, PLAYERS[0], 40, 60),
        (100_002, PLAYERS[1], 100, 120),
    ]
    .into_iter()
    .map(|(id, player, joined, seated)| WaitlistRow {
        id: EntryId(id),
        game_id: GameId(game),
        player_id: PlayerId(player),
        order_key: id,
        joined_at: t(joined),
        source: ListSource::Desk,
        call_in_expires_at: None,
        checked_in_at: None,
        state: EntryState::Seated,
        ended_at: Some(t(seated)),
        end_reason: Some("seated".into()),
        created_by: None,
    })
    .collect();
    let hs: Vec<HandRow> = [(70, 300), (130, 500), (200, 700)]
        .into_iter()
        .enumerate()
        .map(|(i, (m, rake))| HandRow {
            id: 100_001 + i as i64,
            table_id: TableId(table),
            game_id: Some(GameId(game)),
            number: 10_000 + i as i32,
            button_seat: None,
            at: t(m),
            recorded_by: None,
            ended_at: Some(t(m + 2)),
            pot: Some(rake * 20),
            rake: Some(rake),
            preflop_no_bet: false,
            result_by: None,
            boards: 1,
        })
        .collect();
    let session = CagnotteSessionRow {
        id: 100_001,
        table_id: TableId(table),
        game_id: GameId(game),
        number: 1,
        started_at: t(125),
        closed_at: Some(t(190)),
        close_reason: Some("hand_over".into()),
        closed_by: None,
        bp: 500,
        base: "table_max".into(),
        table_max: Some(20_000),
        smallest_chip: 100,
        length_min: 60,
        late_window_min: 30,
    };
    let due =
        |id: i64, player: i64, seating: i64, state: &str, collected: Option<i64>| CagnotteDueRow {
            id,
            session_id: 100_001,
            table_id: TableId(table),
            game_id: GameId(game),
            player_id: PlayerId(player),
            seating_id: SeatingId(seating),
            seat_no: 1,
            amount: 1_000,
            late: false,
            due_at: t(125),
            state: state.parse().expect("a due state"),
            collected,
            settled_at: None,
            settled_by: None,
            reason: None,
        };
    c.transaction::<_, diesel::result::Error, _>(|c| {
        diesel::insert_into(waitlist_entries::table)
            .values(&entries)
            .execute(c)?;
        diesel::insert_into(seatings::table)
            .values(&sits[..])
            .execute(c)?;
        diesel::insert_into(hands::table).values(&hs).execute(c)?;
        diesel::insert_into(cagnotte_sessions::table)
            .values(&session)
            .execute(c)?;
        diesel::insert_into(cagnotte_dues::table)
            .values(&vec![
                due(100_001, PLAYERS[0], 100_001, "collected", Some(1_000)),
                due(100_002, PLAYERS[1], 100_002, "due", None),
            ])
            .execute(c)?;
        diesel::insert_into(tips::table)
            .values(TipRow {
                id: 100_001,
                table_id: TableId(table),
                game_id: Some(GameId(game)),
                shift_id: None,
                dealer_id: None,
                amount: 400,
                at: t(150),
                recorded_by: None,
            })
            .execute(c)?;
        Ok(())
    })
    .expect("seed the day");
    day.format("%Y-%m-%d").to_string()
}

/// The first table of the demo room that has a game: (table id, game id).
fn a_table_with_a_game(db: &Path) -> (i64, i64) {
    let mut c = diesel::SqliteConnection::establish(&db.display().to_string())
        .expect("open the server's database");
    c.batch_execute("PRAGMA busy_timeout = 10000;")
        .expect("pragma");
    let (id, game): (i64, Option<i64>) = card_tables::table
        .filter(card_tables::game_id.is_not_null())
        .order(card_tables::number.asc())
        .select((card_tables::id, card_tables::game_id))
        .first(&mut c)
        .expect("a demo table with a game");
    (id, game.expect("game"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_report_page_shows_its_charts_and_the_csv_has_the_same_totals() {
    let Some(chromedriver) = chromedriver_or_skip() else {
        return;
    };
    let tmp = tempfile::tempdir().expect("temporary directory");
    let server =
        browser_app().spawn_binary(env!("CARGO_BIN_EXE_cardroom"), tmp.path(), &["--demo"]);
    let db = tmp.path().join("browser.db");
    let (table, game) = a_table_with_a_game(&db);
    let day = seed(&db, table, game);
    let (webdriver_url, _chromedriver) = start_chromedriver(&chromedriver, tmp.path());
    let c = open_session(
        &webdriver_url,
        tmp.path(),
        "chrome-profile-reports",
        1280,
        1000,
    )
    .await;
    let base = &server.base;

    sign_in(&c, base, FLOOR_USER, FLOOR_PASSWORD).await;
    // The floor's navigation leads to the reports.
    ok(&c, c.goto(&format!("{base}/floor")).await, "opening /floor").await;
    let link = wait_css(&c, "#nav-reports").await;
    ok(&c, link.click().await, "clicking the Reports link").await;
    wait_path(&c, "/floor/reports", |p| p == "/floor/reports").await;
    wait_css(&c, "#report-summary").await;
    ok(
        &c,
        c.goto(&format!("{base}/floor/reports?day={day}")).await,
        "opening the day's report",
    )
    .await;
    wait_css(&c, "#chart-cagnotte").await;
    screenshot(&c, "browser-reports.png").await;
    docs_screenshot(&c, "report.png", 1440, 900).await;

    // The charts: SVG, titled, with bars of non-zero height holding the day's data.
    let charts = js(
        &c,
        "return ['chart-cagnotte', 'chart-occupancy', 'chart-waits'].map(id => {\
           const svg = document.getElementById(id);\
           if (!svg) return {id, missing: true};\
           const bars = [...svg.querySelectorAll('rect.bar')];\
           const box = svg.getBoundingClientRect();\
           return {id, tag: svg.tagName.toLowerCase(), title: svg.querySelector('title').textContent,\
             labelledby: svg.getAttribute('aria-labelledby'), role: svg.getAttribute('role'),\
             bars: bars.length, drawn: bars.filter(b => b.getBBox().height > 0).length,\
             sum: bars.reduce((s, b) => s + Number(b.dataset.value), 0), width: box.width, height: box.height,\
             labels: [...svg.querySelectorAll('text.axis-label')].map(t => t.textContent)};\
         });",
    )
    .await;
    let charts = charts.as_array().cloned().unwrap_or_default();
    assert_eq!(charts.len(), 3, "{charts:?}");
    for ch in &charts {
        if ch["tag"] != "svg"
            || ch["role"] != "img"
            || ch["drawn"].as_i64().unwrap_or(0) == 0
            || ch["width"].as_f64().unwrap_or(0.0) < 200.0
        {
            fail(&c, format!("a chart is missing, empty or not drawn: {ch}")).await;
        }
        let labels = ch["labels"].as_array().map(|a| a.len()).unwrap_or(0);
        assert_eq!(labels, 2, "both axes are labelled: {ch}");
    }
    assert_eq!(charts[0]["title"], "Cagnotte per hour of the day");
    // Rake €3 + €5 + €7 and the €10 collected: €25 over the hours.
    assert_eq!(charts[0]["sum"], 2_500, "{}", charts[0]);
    // Waits of 20 and 20 minutes: median and 90th percentile 1,200 s each.
    assert_eq!(charts[2]["sum"], 2_400, "{}", charts[2]);

    // The page's totals, and the difference highlighted.
    let page = js(
        &c,
        "const q = s => document.querySelector(s);\
         return {cagnotte: q('#report-total-cagnotte').dataset.minor, difference: q('#report-total-difference').dataset.minor,\
           tips: q('#report-total-tips').dataset.minor, hours: q('#report-total-hours').textContent.trim(),\
           footCagnotte: q('#report-tables tfoot td[data-col=cagnotte]').dataset.minor,\
           alert: !!q('#report-difference-alert'), diffCells: document.querySelectorAll('#report-tables td.report-diff').length,\
           diffBg: getComputedStyle(q('#report-tables td.report-diff')).backgroundColor,\
           csv: q('#report-csv-tables').href};",
    )
    .await;
    assert_eq!(page["cagnotte"], "2500", "{page}");
    assert_eq!(page["footCagnotte"], "2500", "{page}");
    assert_eq!(page["difference"], "1000", "{page}");
    assert_eq!(page["tips"], "400", "{page}");
    assert_eq!(page["hours"], "5.00", "2 h + 3 h seated: {page}");
    assert_eq!(page["alert"], true, "{page}");
    assert!(page["diffCells"].as_i64().unwrap_or(0) >= 1, "{page}");
    assert_ne!(
        page["diffBg"], "rgba(0, 0, 0, 0)",
        "the difference cell is coloured (static/reports.css): {page}"
    );

    // The CSV behind the download link, fetched by the browser with its session.
    let href = page["csv"].as_str().unwrap_or_default().to_string();
    let csv = match c
        .execute_async(
            "const done = arguments[arguments.length - 1];\
             fetch(arguments[0], {credentials: 'same-origin'}).then(r => r.text().then(t => done({status: r.status, type: r.headers.get('content-type'), disposition: r.headers.get('content-disposition'), text: t}))).catch(e => done({error: String(e)}));",
            vec![json!(href)],
        )
        .await
    {
        Ok(v) => v,
        Err(e) => fail(&c, format!("fetching {href}: {e}")).await,
    };
    assert_eq!(csv["status"], 200, "{csv}");
    assert!(
        csv["type"]
            .as_str()
            .unwrap_or_default()
            .starts_with("text/csv"),
        "{csv}"
    );
    assert!(
        csv["disposition"]
            .as_str()
            .unwrap_or_default()
            .contains(&format!("report-{day}-tables.csv")),
        "{csv}"
    );
    let mut rd = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(csv["text"].as_str().unwrap_or_default().as_bytes());
    let rows: Vec<Vec<String>> = rd
        .records()
        .map(|r| r.unwrap().iter().map(str::to_string).collect())
        .collect();
    let col = |name: &str| {
        rows[0]
            .iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("no column {name:?}: {:?}", rows[0]))
    };
    let total = rows.last().expect("a total line");
    assert_eq!(total[0], "Total");
    let minor = |s: &str| s.replace('.', "").parse::<i64>().unwrap();
    assert_eq!(
        minor(&total[col("Cagnotte (EUR)")]).to_string(),
        page["cagnotte"].as_str().unwrap(),
        "{rows:?}"
    );
    assert_eq!(
        minor(&total[col("Difference (EUR)")]).to_string(),
        page["difference"].as_str().unwrap(),
        "{rows:?}"
    );
    assert_eq!(
        minor(&total[col("Tips (EUR)")]).to_string(),
        page["tips"].as_str().unwrap(),
        "{rows:?}"
    );
    assert_eq!(
        total[col("Hours played")],
        page["hours"].as_str().unwrap(),
        "{rows:?}"
    );

    // The charts and the tables of figures, for a look.
    let _ = c
        .execute(
            "document.getElementById('report-charts').scrollIntoView();",
            vec![],
        )
        .await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    screenshot(&c, "browser-reports-charts.png").await;
    let _ = c
        .execute(
            "document.getElementById('report-tables-card').scrollIntoView();",
            vec![],
        )
        .await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    screenshot(&c, "browser-reports-tables.png").await;
    let _ = c.close().await;
}

async fn js(c: &Client, script: &str) -> Value {
    match c.execute(script, vec![]).await {
        Ok(v) => v,
        Err(e) => fail(c, format!("running a script: {e}")).await,
    }
}

/// Seven more games besides `game` (eight in all, with names as long as a room gives them),
/// each with two players seated from its list on `day`, and the house's take of the day in
/// the thousands (a hand raked 2 100,00 €: 2 125,00 € with the seeded 25,00 €).
fn seed_eight_games(db: &Path, table: i64, game: i64, day: &str) {
    let mut c = diesel::SqliteConnection::establish(&db.display().to_string())
        .expect("open the server's database");
    c.batch_execute("PRAGMA busy_timeout = 10000; PRAGMA foreign_keys = ON;")
        .expect("pragmas");
    let tz = chrono_tz::Europe::Lisbon;
    let six = NaiveTime::from_hms_opt(6, 0, 0).unwrap();
    let date = chrono::NaiveDate::parse_from_str(day, "%Y-%m-%d").unwrap();
    let (from, _) = day_bounds(tz, date, six);
    let t = |minutes: i64| (from + Dur::minutes(minutes)).naive_utc();
    let model: GameRow = games::table
        .find(game)
        .select(GameRow::as_select())
        .first(&mut c)
        .expect("the table's game");
    let names = [
        "Pot-Limit Omaha 2/5",
        "No-Limit Hold'em 5/10",
        "Pot-Limit Omaha Hi-Lo 5/10",
        "No-Limit Hold'em 10/25",
        "Dealer's Choice 2/5",
        "Short Deck 5/10",
        "Pot-Limit Omaha 5 cartas 10/20",
    ];
    let new: Vec<GameRow> = names
        .iter()
        .enumerate()
        .map(|(i, name)| GameRow {
            id: GameId(100_101 + i as i64),
            name: name.to_string(),
            ..model.clone()
        })
        .collect();
    let entries: Vec<WaitlistRow> = new
        .iter()
        .enumerate()
        .flat_map(|(i, g)| {
            let i = i as i64;
            PLAYERS.iter().enumerate().map(move |(j, p)| {
                let joined = 30 + 20 * i + j as i64;
                WaitlistRow {
                    id: EntryId(100_201 + 2 * i + j as i64),
                    game_id: g.id,
                    player_id: PlayerId(*p),
                    order_key: 100_201 + 2 * i + j as i64,
                    joined_at: t(joined),
                    source: ListSource::Desk,
                    call_in_expires_at: None,
                    checked_in_at: None,
                    state: EntryState::Seated,
                    ended_at: Some(t(joined + 10 + 7 * i + 25 * j as i64)),
                    end_reason: Some("seated".into()),
                    created_by: None,
                }
            })
        })
        .collect();
    c.transaction::<_, diesel::result::Error, _>(|c| {
        diesel::insert_into(games::table).values(&new).execute(c)?;
        diesel::insert_into(waitlist_entries::table)
            .values(&entries)
            .execute(c)?;
        diesel::insert_into(hands::table)
            .values(HandRow {
                id: 100_101,
                table_id: TableId(table),
                game_id: Some(GameId(game)),
                number: 10_101,
                button_seat: None,
                at: t(240),
                recorded_by: None,
                ended_at: Some(t(242)),
                pot: Some(4_200_000),
                rake: Some(210_000),
                preflop_no_bet: false,
                result_by: None,
                boards: 1,
            })
            .execute(c)?;
        Ok(())
    })
    .expect("seed the eight games");
}

/// At 1440×900 and 1024×768, in Portuguese, with eight games and figures in the thousands:
/// no figure of the summary leaves its card, and the names of the games under the waits'
/// chart are all there, one per row, none running into another.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_figures_fit_their_cards_and_eight_games_names_do_not_overlap() {
    let Some(chromedriver) = chromedriver_or_skip() else {
        return;
    };
    let tmp = tempfile::tempdir().expect("temporary directory");
    let server =
        browser_app().spawn_binary(env!("CARGO_BIN_EXE_cardroom"), tmp.path(), &["--demo"]);
    let db = tmp.path().join("browser.db");
    let (table, game) = a_table_with_a_game(&db);
    let day = seed(&db, table, game);
    seed_eight_games(&db, table, game, &day);
    let (webdriver_url, _chromedriver) = start_chromedriver(&chromedriver, tmp.path());
    let c = open_session(&webdriver_url, tmp.path(), "chrome-profile-kpi", 1440, 900).await;
    let base = &server.base;
    sign_in(&c, base, FLOOR_USER, FLOOR_PASSWORD).await;
    let _ = js(&c, "document.cookie = 'cr_lang=pt; path=/'; return true;").await;

    for (w, h) in [(1440, 900), (1024, 768)] {
        set_viewport(&c, w, h, "reports").await;
        ok(
            &c,
            c.goto(&format!("{base}/floor/reports?day={day}")).await,
            "opening the day's report",
        )
        .await;
        wait_css(&c, "#chart-waits").await;
        let cards = js(
            &c,
            "return [...document.querySelectorAll('#report-summary .stat')].map(s => {\
               const v = s.querySelector('.stat-value'); const sb = s.getBoundingClientRect(); const vb = v.getBoundingClientRect();\
               const r = document.createRange(); r.selectNodeContents(v); const tb = r.getBoundingClientRect();\
               return {text: v.textContent.trim(), scroll: v.scrollWidth, client: v.clientWidth,\
                 inside: tb.left >= sb.left - 0.5 && tb.right <= sb.right + 0.5 && vb.right <= sb.right + 0.5};\
             });",
        )
        .await;
        let cards = cards.as_array().cloned().unwrap_or_default();
        assert!(cards.len() >= 7, "{cards:?}");
        assert!(
            cards.iter().any(|k| k["text"] == "2.125,00 €"),
            "the day's take in the thousands, written the Portuguese way: {cards:?}"
        );
        screenshot(&c, &format!("browser-reports-kpi-{w}.png")).await;
        for k in &cards {
            if k["scroll"].as_i64() > k["client"].as_i64() || k["inside"] != true {
                fail(&c, format!("at {w}×{h} a figure leaves its card: {k}")).await;
            }
        }
        let labels = js(
            &c,
            "return [...document.querySelectorAll('#chart-waits text.category')].map(t => {\
               const b = t.getBoundingClientRect(); return {text: t.textContent, l: b.left, r: b.right, t: b.top, b: b.bottom};\
             });",
        )
        .await;
        let labels = labels.as_array().cloned().unwrap_or_default();
        assert_eq!(labels.len(), 8, "a name per game: {labels:?}");
        let _ = c
            .execute(
                "document.getElementById('chart-waits').scrollIntoView();",
                vec![],
            )
            .await;
        tokio::time::sleep(Duration::from_millis(200)).await;
        screenshot(&c, &format!("browser-reports-waits-{w}.png")).await;
        let n = |v: &Value, k: &str| v[k].as_f64().unwrap_or(f64::NAN);
        for (i, a) in labels.iter().enumerate() {
            if !(n(a, "r") > n(a, "l") && n(a, "b") > n(a, "t")) {
                fail(&c, format!("at {w}×{h} a game's name is not drawn: {a}")).await;
            }
            for b in &labels[i + 1..] {
                let apart = n(a, "r") <= n(b, "l")
                    || n(b, "r") <= n(a, "l")
                    || n(a, "b") <= n(b, "t")
                    || n(b, "b") <= n(a, "t");
                if !apart {
                    fail(
                        &c,
                        format!("at {w}×{h} two games' names overlap: {a} and {b}"),
                    )
                    .await;
                }
            }
        }
    }
    let _ = c.close().await;
}
