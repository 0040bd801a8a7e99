//! The wait every screen shows (PT-2007 8a, BSOP 43; `services::waits`): a free seat says so,
//! no history shows no figure and every screen says so (the board once over its list), and
//! the floor board, the player's page, `/join` and the lobby show the same figure, in
//! Portuguese and English.

use crate::pages::{eligible_players, nl_game};
use crate::support::*;
use actix_web::cookie::Cookie;
use actix_web::test::TestRequest;
use cardroom::domain::ids::PlayerId;
use cardroom::notify::link;

/// A game with one table of nine seats, open; the admin's token and web session.
async fn room() -> (TestApp, String, WebSession) {
    let app = TestApp::with_clock(true).await;
    let token = app.admin_token().await;
    nl_game(&app, &token).await;
    let table = serde_json::json!({"number": 1, "game_id": 1, "mode": "continuous", "seats": 9});
    let r = app.send_json("POST", "/api/v1/tables", &token, table).await;
    assert_eq!(r.status, 201, "{}", r.text());
    let s = app.web_login("admin", ADMIN_PW).await;
    app.post_form("/floor/tables/1/open", &s, &[]).await;
    (app, token, s)
}

/// Seats a player through the API; the seating's id.
async fn sit(app: &TestApp, token: &str, seat: usize, player: i64) -> i64 {
    let r = app
        .send_json(
            "POST",
            &format!("/api/v1/tables/1/seats/{seat}"),
            token,
            serde_json::json!({"player_id": player}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text());
    r.json()["id"].as_i64().expect("seating id")
}

async fn advance(app: &TestApp, token: &str, minutes: i64) {
    let r = app
        .send_json(
            "POST",
            "/api/v1/test/clock/advance",
            token,
            serde_json::json!({"minutes": minutes}),
        )
        .await;
    assert!(r.status < 300, "{}", r.text());
}

async fn leave(app: &TestApp, token: &str, seating: i64) {
    let r = app
        .send_json(
            "POST",
            &format!("/api/v1/seatings/{seating}/leave"),
            token,
            serde_json::json!({"reason": "went home"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
}

async fn join(app: &TestApp, s: &WebSession, player: i64) {
    let r = app
        .post_form("/floor/lists/1/join", s, &[("player", &player.to_string())])
        .await;
    assert!(r.status < 400, "{}", r.text());
}

/// A page in a language (the language cookie), signed in or not.
async fn page(app: &TestApp, uri: &str, lang: &str, s: Option<&WebSession>) -> String {
    let mut req = TestRequest::get()
        .uri(uri)
        .peer_addr("10.1.1.1:5000".parse().unwrap())
        .cookie(Cookie::new("cr_lang", lang.to_string()));
    if let Some(s) = s {
        req = req.cookie(s.c());
    }
    let r = app.call(req.to_request()).await;
    assert_eq!(r.status, 200, "{uri}: {}", r.text());
    r.text()
}

/// The player's own page (in the player's own language: Portuguese here).
async fn player_page(app: &TestApp, player: i64, lang: &str) -> String {
    let now = app.state.clock.now();
    let token = app.with_conn(|c| {
        let tz = cardroom::services::room::get(c).unwrap().tz;
        link::issue_for(
            c,
            &app.state.keys,
            PlayerId(player),
            now,
            tz,
            cardroom::domain::clock::parse_hhmm("06:00").unwrap(),
        )
        .unwrap()
    });
    page(app, &format!("/p/{token}"), lang, None).await
}

/// The wait figures of a page, in order (each screen marks its figure `wait-figure`).
fn figures(html: &str) -> Vec<String> {
    html.split("wait-figure\"")
        .skip(1)
        .filter_map(|r| {
            let r = &r[r.find('>')? + 1..];
            Some(r[..r.find('<')?].trim().to_string())
        })
        .collect()
}

/// Every screen, in one language: the board's figures (a line each), the player's page, the
/// join page and the lobby.
async fn screens(
    app: &TestApp,
    s: &WebSession,
    player: i64,
    lang: &str,
) -> (Vec<String>, Vec<String>, Vec<String>, Vec<String>) {
    (
        figures(&page(app, "/floor/live", lang, Some(s)).await),
        figures(&player_page(app, player, lang).await),
        figures(&page(app, "/join", lang, None).await),
        figures(&page(app, "/lobby/live", lang, None).await),
    )
}

#[actix_web::test]
async fn a_free_seat_says_so_on_every_screen_without_history() {
    let (app, token, s) = room().await;
    let ids = eligible_players(&app, 3);
    sit(&app, &token, 1, ids[0]).await;
    join(&app, &s, ids[1]).await;
    // Eight of nine seats free, no history at all: a free seat beats any figure.
    let (board, _, joining, lobby) = screens(&app, &s, ids[1], "en").await;
    assert_eq!(board, vec!["A seat is free now"]);
    assert_eq!(joining, vec!["A seat is free now"]);
    assert_eq!(lobby, vec!["A seat is free now"]);
    let (board, me, joining, lobby) = screens(&app, &s, ids[1], "pt").await;
    assert_eq!(board, vec!["Há um lugar livre agora"]);
    assert!(me.is_empty(), "the page says it in its own words");
    assert!(player_page(&app, ids[1], "pt")
        .await
        .contains("Há um lugar livre agora"));
    assert_eq!(joining, board);
    assert_eq!(lobby, board);
    let list = app.get("/api/v1/games/1/waitlist", &token).await.json();
    assert_eq!(list["lines"][0]["estimated_wait_min"], 0, "{list}");
}

#[actix_web::test]
async fn a_full_game_without_history_shows_no_figure() {
    let (app, token, s) = room().await;
    let ids = eligible_players(&app, 11);
    for (i, id) in ids[..9].iter().enumerate() {
        sit(&app, &token, i + 1, *id).await;
    }
    join(&app, &s, ids[9]).await;
    join(&app, &s, ids[10]).await;
    let (board, _, joining, lobby) = screens(&app, &s, ids[10], "en").await;
    // No figure on the board's lines: the list says once there is none yet, in the words
    // the other screens use.
    let none = "No estimate yet: too little history at this hour".to_string();
    assert_eq!(board, vec![none.clone()]);
    assert_eq!(joining, vec![none.clone()]);
    assert_eq!(lobby, vec![none]);
    let (board, me, joining, lobby) = screens(&app, &s, ids[10], "pt").await;
    let nenhuma = "Ainda sem estimativa: pouco histórico a esta hora".to_string();
    assert_eq!(board, vec![nenhuma.clone()]);
    assert_eq!(me, vec![nenhuma.clone()]);
    assert_eq!(joining, vec![nenhuma.clone()]);
    assert_eq!(lobby, vec![nenhuma]);
    let list = app.get("/api/v1/games/1/waitlist", &token).await.json();
    assert!(list["lines"][0]["estimated_wait_min"].is_null(), "{list}");
    assert!(list["lines"][1]["estimated_wait_min"].is_null(), "{list}");
}

#[actix_web::test]
async fn the_four_screens_show_the_same_figure() {
    let (app, token, s) = room().await;
    let ids = eligible_players(&app, 20);
    let mut seated: Vec<i64> = Vec::new();
    for (i, id) in ids[..9].iter().enumerate() {
        seated.push(sit(&app, &token, i + 1, *id).await);
    }
    // Tonight so far: seven players join the list; a seat opens every eight minutes and goes
    // to the next of them at once (seven openings: enough history at this hour; real waits
    // of 8 to 56 minutes, which bound the figures).
    for id in &ids[9..16] {
        join(&app, &s, *id).await;
    }
    for k in 0..7 {
        advance(&app, &token, 8).await;
        leave(&app, &token, seated[k]).await;
        seated[k] = sit(&app, &token, k + 1, ids[9 + k]).await;
    }
    join(&app, &s, ids[16]).await;
    join(&app, &s, ids[17]).await;
    join(&app, &s, ids[18]).await;
    for lang in ["en", "pt"] {
        let (board, me, joining, lobby) = screens(&app, &s, ids[17], lang).await;
        assert_eq!(board.len(), 3, "{board:?}");
        // The player second on the list sees the board's figure of the second line (their
        // page speaks their language, Portuguese).
        if lang == "pt" {
            assert_eq!(me, vec![board[1].clone()]);
        }
        // Joining now: the same on the join page and the lobby, and never less than the
        // last on the list.
        assert_eq!(joining, lobby, "{lang}");
        assert_eq!(joining.len(), 1);
        for f in board.iter().chain(&joining) {
            assert!(
                f.ends_with(" min") || f.ends_with(" h"),
                "a figure in time: {f}"
            );
        }
    }
    let en = screens(&app, &s, ids[17], "en").await;
    assert!(
        en.0.iter()
            .all(|f| f.contains('–') || f.starts_with("up to") || f.starts_with("more than")),
        "an interval or a bound, never a bare figure: {:?}",
        en.0
    );
    let list = app.get("/api/v1/games/1/waitlist", &token).await.json();
    let w: Vec<i64> = (0..3)
        .map(|i| {
            list["lines"][i]["estimated_wait_min"]
                .as_i64()
                .expect("a figure")
        })
        .collect();
    assert!(w[0] > 0 && w[0] <= w[1] && w[1] <= w[2], "{list}");
}
