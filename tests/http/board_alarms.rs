//! The floor board's alarm strip and its lists' headers: a call the table has not
//! acknowledged is on the strip and its tile (BSOP 44); a list header says its game's free
//! seats and the table a new player goes to, with why (BSOP 55, 58); an interest list with
//! enough players says it is ready and opens a table (PT-2007 24).

use crate::floor::eligible_players;
use crate::pages::nl_game;
use crate::support::*;
use cardroom::domain::ids::PlayerId;
use serde_json::json;

/// Game 1 with tables 7 and 8 (9 seats, ids 1 and 2), `players` on its list; `open` opens both.
async fn room(app: &TestApp, players: usize, open: bool) -> (String, WebSession, Vec<i64>) {
    let token = app.admin_token().await;
    nl_game(app, &token).await;
    for n in [7, 8] {
        let t = json!({"number": n, "game_id": 1, "mode": "continuous", "seats": 9});
        let r = app.send_json("POST", "/api/v1/tables", &token, t).await;
        assert_eq!(r.status, 201, "{}", r.text());
    }
    let ids = eligible_players(app, players);
    let s = app.web_login("admin", ADMIN_PW).await;
    for id in &ids {
        let r = app
            .post_form("/floor/lists/1/join", &s, &[("player", &id.to_string())])
            .await;
        assert_eq!(r.status, 303, "{}", r.text());
    }
    if open {
        for t in [1, 2] {
            let r = app
                .post_form(&format!("/floor/tables/{t}/open"), &s, &[])
                .await;
            assert_eq!(r.status, 303, "{}", r.text());
        }
    }
    (token, s, ids)
}

fn tick(app: &TestApp) -> usize {
    let now = app.state.clock.now();
    app.with_conn(|c| {
        app.state
            .db
            .write(c, |c| {
                let act = cardroom::services::Acting::system(now).in_room(c)?;
                cardroom::services::floor::tick(c, &act)
            })
            .expect("tick")
    })
}

/// The tile of table `n` in a board's HTML.
fn tile(html: &str, n: i32) -> &str {
    let id = html
        .find(&format!("id=\"tile-{n}\""))
        .unwrap_or_else(|| panic!("no tile {n}: {html}"));
    let at = html[..id].rfind("<a").unwrap_or(id);
    let end = html[at..].find("</a>\n").map_or(html.len(), |e| at + e);
    &html[at..end]
}

#[actix_web::test]
async fn bsop_44_a_call_the_table_has_not_acknowledged_is_on_the_alarm_strip_and_its_tile() {
    let app = TestApp::with_clock(true).await;
    let (token, s, ids) = room(&app, 3, true).await;
    let r = app.post_form("/floor/tables/1/seats/1/call", &s, &[]).await;
    assert_eq!(r.status, 303, "{}", r.text());
    // Just called: no alarm yet, the tile shows the call's countdown only.
    let html = app.page("/floor/live", &s).await.text();
    assert!(!html.contains("id=\"floor-alerts\""), "{html}");
    assert!(!tile(&html, 7).contains("data-alarm=\"call\""));
    // Past the room's time to acknowledge (2 minutes), unacknowledged: escalated by the tick.
    let r = app
        .send_json(
            "POST",
            "/api/v1/test/clock/advance",
            &token,
            json!({ "minutes": 3 }),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(tick(&app), 1, "the call is escalated");
    let alias = app.with_conn(|c| {
        cardroom::services::players::get(c, PlayerId(ids[0]))
            .unwrap()
            .alias
    });
    let html = app.page("/floor/live", &s).await.text();
    assert!(
        html.contains("id=\"alarm-count\" data-count=\"1\""),
        "{html}"
    );
    let strip =
        &html[html.find("id=\"floor-alerts\"").unwrap()..html.find("class=\"board\"").unwrap()];
    assert!(
        strip.contains("class=\"alarm alarm-bad call-alarm\""),
        "{strip}"
    );
    assert!(
        strip.contains("href=\"/floor?table=7\" data-table=\"7\""),
        "the alarm opens table 7's panel: {strip}"
    );
    assert!(
        strip.contains(&format!("{alias}: call not acknowledged")),
        "{strip}"
    );
    let t = tile(&html, 7);
    assert!(
        t.contains("data-alarm=\"call\"") && t.contains("Not acknowledged"),
        "{t}"
    );
    assert!(t.contains(" alarm "), "the tile is marked: {t}");
    assert!(!tile(&html, 8).contains("t-alarm"));
    // Pushed with the live update like the rest: the strip comes with every update.
    let upd = app.page("/floor/board?t=1&g=", &s).await.text();
    assert!(upd.contains("id=\"board-alerts\" hx-swap-oob=\"true\"") && upd.contains("call-alarm"));
    // Seated: the call is no longer open, the alarm goes.
    let panel = app.page("/floor/panel?table=7", &s).await.text();
    let call = panel
        .split("action=\"/floor/calls/")
        .nth(1)
        .and_then(|x| x.split('/').next())
        .unwrap_or_else(|| panic!("no call in the panel: {panel}"))
        .to_string();
    let r = app
        .post_form(&format!("/floor/calls/{call}/seat"), &s, &[])
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    let html = app.page("/floor/live", &s).await.text();
    assert!(!html.contains("call-alarm"), "{html}");
}

#[actix_web::test]
async fn bsop_58_a_list_header_says_its_free_seats_and_where_a_new_player_goes_and_why() {
    let app = TestApp::new().await;
    let (token, s, _) = room(&app, 3, true).await;
    let html = app.page("/floor/live", &s).await.text();
    // Two open tables of 9 seats, nobody seated or called.
    assert!(html.contains("id=\"free-1\" data-free=\"18\""), "{html}");
    assert!(html.contains(">18 free seats<"), "{html}");
    // BSOP 55: table 8, opened second, is the game's must-move table, empty; the main game
    // has 9 free seats nobody at the must-move table will take: a new player goes there.
    assert!(html.contains("id=\"tile-8\""), "{html}");
    assert!(
        html.contains("id=\"suggested-1\" data-table=\"7\" data-rule=\"board-suggest-main_game\""),
        "{html}"
    );
    assert!(html.contains("→ table 7: main game"), "{html}");
    // A call takes a seat out of the free ones, on the tile and in the header alike.
    let r = app.post_form("/floor/tables/1/seats/1/call", &s, &[]).await;
    assert_eq!(r.status, 303, "{}", r.text());
    let html = app.page("/floor/live", &s).await.text();
    assert!(html.contains("id=\"free-1\" data-free=\"17\""), "{html}");
    assert!(tile(&html, 7).contains("8 free"), "{}", tile(&html, 7));
    // The API agrees with the board.
    let sug = app
        .get("/api/v1/games/1/suggest-table", &token)
        .await
        .json();
    assert_eq!(sug["table_number"], 7, "{sug}");
    assert_eq!(sug["rule"], "main_game", "{sug}");
    // BSOP 58: the game made balanced, the table that needs a player most (the older on a
    // tie), the must-move mark of table 8 notwithstanding.
    let mut g = app.get("/api/v1/games/1", &token).await.json();
    g["table_policy"] = json!("balanced");
    let r = app.send_json("PUT", "/api/v1/games/1", &token, g).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let html = app.page("/floor/live", &s).await.text();
    assert!(
        html.contains("id=\"suggested-1\" data-table=\"7\" data-rule=\"board-suggest-neediest\""),
        "{html}"
    );
    assert!(html.contains("→ table 7: fewest players"), "{html}");
    let sug = app
        .get("/api/v1/games/1/suggest-table", &token)
        .await
        .json();
    assert_eq!(sug["rule"], "neediest", "{sug}");
}

#[actix_web::test]
async fn pt_2007_24_an_interest_list_with_enough_players_is_ready_and_opens_a_table() {
    let app = TestApp::new().await;
    let (_, s, _) = room(&app, 3, false).await;
    let min = app.with_conn(|c| {
        cardroom::services::room::get(c)
            .unwrap()
            .profile
            .min_players_to_run
    });
    assert_eq!(min, 4, "PT-2007 24's minimum");
    let html = app.page("/floor/live", &s).await.text();
    assert!(!html.contains("id=\"ready-1\""), "{html}");
    assert!(html.contains("1 more to start a game"), "{html}");
    let last = eligible_players(&app, 1);
    let r = app
        .post_form(
            "/floor/lists/1/join",
            &s,
            &[("player", &last[0].to_string())],
        )
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    let html = app.page("/floor/live", &s).await.text();
    assert!(html.contains("id=\"ready-1\""), "{html}");
    assert!(html.contains("Ready: open a table"), "{html}");
    assert!(!html.contains("0 more to start"), "{html}");
    // The lobby and the join page say the same, in both languages.
    for (uri, lang, ready) in [
        (
            "/lobby/live",
            "en",
            "Enough players to start: a table opens soon",
        ),
        ("/join", "en", "Enough players to start: a table opens soon"),
        (
            "/lobby/live",
            "pt",
            "Já há jogadores para começar: a mesa abre em breve",
        ),
    ] {
        let page = crate::lobby::public(&app, uri, lang).await;
        assert!(page.contains(ready), "{uri} {lang}: {page}");
        assert!(
            !page.contains("0 more to start") && !page.contains("faltam 0"),
            "{page}"
        );
    }
    assert!(
        html.contains("action=\"/floor/tables/1/open\"") && html.contains("Open table 7"),
        "{html}"
    );
    let before = app.audit_count();
    let r = app.post_form("/floor/tables/1/open", &s, &[]).await;
    assert_eq!(r.status, 303, "{}", r.text());
    assert!(app.audit_count() > before);
    let html = app.page("/floor/live", &s).await.text();
    assert!(!html.contains("id=\"ready-1\""), "a table is open: {html}");
}
