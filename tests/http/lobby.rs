//! The lobby screen (a TV in the room) and night mode: the room's theme for its screens, set
//! on the admin's room page and through the API, worn by the tablet, the floor board and the
//! lobby; the lobby's cards: who is called now, the free seats, and a word when players wait
//! while seats are free (calls under way).

use crate::admin::{room_form, selected};
use crate::pages::{eligible_players, nl_game};
use crate::support::*;
use actix_web::test::TestRequest;
use cardroom::db::schema::audit_log;
use diesel::prelude::*;
use serde_json::json;

/// A page seen without signing in (the lobby, a tablet's pairing page), in a language.
pub(crate) async fn public(app: &TestApp, uri: &str, lang: &str) -> String {
    let r = app
        .call(
            TestRequest::get()
                .uri(uri)
                .insert_header(("accept-language", lang))
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 200, "{uri}: {}", r.text());
    r.text()
}

/// The `<html …>` tag of a page.
fn html_tag(page: &str) -> &str {
    let i = page.find("<html").expect("an <html> tag");
    &page[i..i + page[i..].find('>').unwrap()]
}

fn theme_of(page: &str) -> (Option<String>, Option<String>) {
    let tag = html_tag(page);
    let attr = |name: &str| {
        let m = format!("{name}=\"");
        tag.find(&m).map(|i| {
            let v = &tag[i + m.len()..];
            v[..v.find('"').unwrap()].to_string()
        })
    };
    (attr("data-theme-room"), attr("data-theme"))
}

fn themes(r: &Option<&str>, t: &Option<&str>) -> (Option<String>, Option<String>) {
    (r.map(str::to_string), t.map(str::to_string))
}

#[actix_web::test]
async fn night_mode_is_a_room_setting_of_the_api_refused_when_unknown_and_worn_by_the_screens() {
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    let room = app.get("/api/v1/room", &token).await.json();
    assert_eq!(room["theme"], "auto", "{room}");
    let floor = app.web_login("admin", ADMIN_PW).await;

    // Following the devices: the board opens light (theme.js reads the device), the lobby — a
    // TV in a dim room — dark; the tablet's pages carry the room's setting too.
    let board = app.page("/floor", &floor).await.text();
    assert_eq!(theme_of(&board), themes(&Some("auto"), &Some("light")));
    assert!(board.contains("data-theme-toggle"), "the board's toggle");
    assert!(
        board.contains("/static/theme.js?v="),
        "theme.js in the board's head"
    );
    let lobby = public(&app, "/lobby", "en").await;
    assert_eq!(theme_of(&lobby), themes(&Some("auto"), &Some("dark")));
    let tablet = public(&app, "/tablet", "en").await;
    assert_eq!(theme_of(&tablet), themes(&Some("auto"), &Some("light")));
    // Pages other than the three screens keep the light theme only.
    let players = app.page("/players", &floor).await.text();
    assert_eq!(theme_of(&players), (None, None));

    // An unknown theme, or one that is not a string: 422 on the field, nothing saved.
    let audit = app.audit_count();
    for bad in [json!("night"), json!(3), json!(null)] {
        let mut body = room.clone();
        body["theme"] = bad.clone();
        body["name"] = json!("Renamed");
        let r = app.send_json("PUT", "/api/v1/room", &token, body).await;
        if bad.is_null() {
            // null is "not given": the theme is kept, the rest saved.
            assert_eq!(r.status, 200, "{}", r.text());
            continue;
        }
        assert_eq!(r.status, 422, "{bad}: {}", r.text());
        let j = r.json();
        assert_eq!(j["error"]["fields"][0]["field"], "theme", "{j}");
        assert_eq!(
            app.get("/api/v1/room", &token).await.json()["theme"],
            "auto"
        );
    }
    assert_eq!(
        app.audit_count(),
        audit + 1,
        "only the valid change was saved"
    );
    // A dealer may read the room, not set its theme.
    let dealer = app.staff_token("dealer1", "dealer").await;
    let mut body = room.clone();
    body["theme"] = json!("dark");
    let audit = app.audit_count();
    let r = app
        .send_json("PUT", "/api/v1/room", &dealer, body.clone())
        .await;
    assert_eq!(r.status, 403, "{}", r.text());
    assert_eq!(app.audit_count(), audit);
    assert_eq!(
        app.get("/api/v1/room", &dealer).await.json()["theme"],
        "auto"
    );

    // Dark: saved, audited with the change, and every screen opens dark.
    let r = app.send_json("PUT", "/api/v1/room", &token, body).await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["theme"], "dark");
    assert_eq!(app.audit_count(), audit + 1);
    let (before, after): (String, String) = app.with_conn(|c| {
        audit_log::table
            .filter(audit_log::action.eq("room.update"))
            .order(audit_log::seq.desc())
            .select((audit_log::before_json, audit_log::after_json))
            .first(c)
            .unwrap()
    });
    assert!(
        before.contains("\"theme\":\"auto\"") && after.contains("\"theme\":\"dark\""),
        "{after}"
    );
    let board = app.page("/floor", &floor).await.text();
    assert_eq!(theme_of(&board), themes(&Some("dark"), &Some("dark")));
    let lobby = public(&app, "/lobby", "pt").await;
    assert_eq!(theme_of(&lobby), themes(&Some("dark"), &Some("dark")));
    assert!(lobby.contains("Modo noturno"), "the toggle, in Portuguese");
    let tablet = public(&app, "/tablet", "pt").await;
    assert_eq!(theme_of(&tablet), themes(&Some("dark"), &Some("dark")));

    // A PUT without the theme keeps it.
    let mut body = app.get("/api/v1/room", &token).await.json();
    body.as_object_mut().unwrap().remove("theme");
    body["name"] = json!("Sala Norte");
    let r = app.send_json("PUT", "/api/v1/room", &token, body).await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["theme"], "dark");
    assert_eq!(r.json()["name"], "Sala Norte");

    // Light: the lobby too.
    let mut body = app.get("/api/v1/room", &token).await.json();
    body["theme"] = json!("light");
    assert_eq!(
        app.send_json("PUT", "/api/v1/room", &token, body)
            .await
            .status,
        200
    );
    let lobby = public(&app, "/lobby", "en").await;
    assert_eq!(theme_of(&lobby), themes(&Some("light"), &Some("light")));
}

#[actix_web::test]
async fn the_admin_room_page_sets_the_theme_and_refuses_an_unknown_one_next_to_the_field() {
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    let s = app.web_login("admin", ADMIN_PW).await;
    let page = app.page("/admin/room", &s).await.text();
    assert_eq!(selected(&page, "theme").as_deref(), Some("auto"));
    assert!(page.contains("Follow each device") && page.contains("Dark (night mode)"));

    let audit = app.audit_count();
    let form = room_form(&[("theme", "sepia"), ("name", "Changed")]);
    let f: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let r = app.post_form("/admin/room", &s, &f).await;
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(
        r.text().contains("data-field=\"theme\""),
        "the message is next to the theme: {}",
        r.text()
    );
    assert_eq!(app.audit_count(), audit, "a refusal changes nothing");
    assert_eq!(
        app.get("/api/v1/room", &token).await.json()["name"],
        "Cardroom"
    );

    let form = room_form(&[("theme", "dark")]);
    let f: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let r = app.post_form("/admin/room", &s, &f).await;
    assert_eq!(r.status, 303, "{}", r.text());
    assert_eq!(app.audit_count(), audit + 1);
    let page = app.page("/admin/room", &s).await.text();
    assert_eq!(selected(&page, "theme").as_deref(), Some("dark"));
    // A form without the field (posted by a page of before the setting) keeps the theme.
    let form: Vec<(&str, String)> = room_form(&[("name", "Sala Sul")]);
    let f: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
    assert_eq!(app.post_form("/admin/room", &s, &f).await.status, 303);
    let room = app.get("/api/v1/room", &token).await.json();
    assert_eq!(
        (room["name"].as_str(), room["theme"].as_str()),
        (Some("Sala Sul"), Some("dark"))
    );
}

/// A card of the lobby: the `<section id="lobby-game-{n}">` it is.
fn card(html: &str, n: usize) -> &str {
    let m = format!("id=\"lobby-game-{n}\"");
    let i = html
        .find(&m)
        .unwrap_or_else(|| panic!("no card {n}: {html}"));
    &html[i..i + html[i..].find("</section>").unwrap()]
}

#[actix_web::test]
async fn the_lobby_shows_who_is_called_the_free_seats_and_that_calls_are_under_way() {
    let app = TestApp::new().await;
    let token = app.admin_token().await;

    // No game: the room's name and the QR code to join, not an empty grid.
    let empty = public(&app, "/lobby/live", "en").await;
    assert!(empty.contains("id=\"lobby-empty\""), "{empty}");
    assert!(empty.contains("Cardroom") && empty.contains("src=\"/join/qr.svg\""));
    assert!(!empty.contains("lobby-grid"), "{empty}");

    nl_game(&app, &token).await;
    let t = json!({"number": 4, "game_id": 1, "mode": "continuous", "seats": 9});
    assert_eq!(
        app.send_json("POST", "/api/v1/tables", &token, t)
            .await
            .status,
        201
    );
    let s = app.web_login("admin", ADMIN_PW).await;
    for id in eligible_players(&app, 9) {
        let r = app
            .post_form("/floor/lists/1/join", &s, &[("player", &id.to_string())])
            .await;
        assert_eq!(r.status, 303);
    }
    // The table is closed: people wait, no seat is free, nothing said of calls.
    let html = public(&app, "/lobby", "en").await;
    let c = card(&html, 1);
    assert!(c.contains("Waiting: 9"), "{c}");
    assert!(!c.contains("lobby-calling"), "{c}");
    // Six aliases named, the other three counted.
    assert!(c.contains(">FP5<") && !c.contains(">FP6<"), "{c}");
    assert!(c.contains("and 3 more"), "{c}");
    assert!(c.contains("€40.00 – €200.00"), "BSOP 24: {c}");

    // Open: nine free seats beside nine waiting — the card says calls are under way.
    assert_eq!(
        app.post_form("/floor/tables/1/open", &s, &[]).await.status,
        303
    );
    let html = public(&app, "/lobby/live", "en").await;
    let c = card(&html, 1);
    assert!(c.contains("9 seats free"), "{c}");
    assert!(
        c.contains("Seats are free: the floor is calling the list."),
        "{c}"
    );
    assert!(!c.contains("lobby-called\""), "nobody called yet: {c}");

    // Two calls: the called players, with their table, in the order called; the seats they
    // were called to are no longer free.
    for seat in [1, 2] {
        let r = app
            .post_form(&format!("/floor/tables/1/seats/{seat}/call"), &s, &[])
            .await;
        assert_eq!(r.status, 303, "{}", r.text());
    }
    let html = public(&app, "/lobby/live", "pt").await;
    let c = card(&html, 1);
    assert!(c.contains("Chamados agora"), "{c}");
    let called = &c[c.find("lobby-called").unwrap()..];
    let (a, b) = (
        called.find(">FP0<").expect("FP0 called"),
        called.find(">FP1<").expect("FP1 called"),
    );
    assert!(a < b, "oldest call first: {called}");
    assert!(called.contains("para a mesa 4"), "{called}");
    assert!(c.contains("7 lugares livres"), "{c}");
    assert!(
        c.contains("Há lugares livres: a sala está a chamar a lista."),
        "{c}"
    );
}
