//! The floor board: tiles and lists, the table panel, the live update that
//! re-renders only what an event touched, game colours, joining by a typed name, the toast
//! after an action, undoing a removal, calling a chosen player out of order with a reason.

use crate::floor::{call_next, eligible_players};
use crate::pages::nl_game;
use crate::support::*;
use actix_web::test::TestRequest;
use cardroom::domain::ids::GameId;
use cardroom::domain::ids::PlayerId;
use serde_json::json;

/// A game (id 1) with two tables (numbers 7 and 8, open), three players on its list.
async fn room(app: &TestApp) -> (String, WebSession, Vec<i64>) {
    let token = app.admin_token().await;
    nl_game(app, &token).await;
    for n in [7, 8] {
        let t = json!({"number": n, "game_id": 1, "mode": "continuous", "seats": 9});
        let r = app.send_json("POST", "/api/v1/tables", &token, t).await;
        assert_eq!(r.status, 201, "{}", r.text());
    }
    let ids = eligible_players(app, 3);
    let s = app.web_login("admin", ADMIN_PW).await;
    for id in &ids {
        let r = app
            .post_form("/floor/lists/1/join", &s, &[("player", &id.to_string())])
            .await;
        assert_eq!(r.status, 303, "{}", r.text());
    }
    for t in [1, 2] {
        let r = app
            .post_form(&format!("/floor/tables/{t}/open"), &s, &[])
            .await;
        assert_eq!(r.status, 303, "{}", r.text());
    }
    (token, s, ids)
}

fn alias_of(app: &TestApp, id: i64) -> String {
    app.with_conn(|c| {
        cardroom::services::players::get(c, PlayerId(id))
            .unwrap()
            .alias
    })
}

#[actix_web::test]
async fn the_board_shows_tiles_and_lists_and_a_panel_per_table() {
    let app = TestApp::new().await;
    let (_, s, ids) = room(&app).await;
    let page = app.page("/floor", &s).await;
    assert_eq!(page.status, 200);
    let html = page.text();
    // Two tiles with no forms in them; the list with its count; no panel open.
    for n in [7, 8] {
        assert!(html.contains(&format!("id=\"tile-{n}\"")), "{html}");
    }
    let tiles = &html[html.find("id=\"tile-7\"").unwrap()..html.find("id=\"panel\"").unwrap()];
    assert!(!tiles.contains("<form"), "tiles carry no forms");
    assert!(html.contains("id=\"list-1\""));
    assert!(html.contains(&alias_of(&app, ids[0])));
    assert!(
        html.contains("id=\"panel\" aria-label=\"Table\" hidden"),
        "{html}"
    );
    assert!(html.contains("/floor/colours.css?v="));
    // /floor?table=7 opens table 7's panel with its actions.
    let html = app.page("/floor?table=7", &s).await.text();
    assert!(html.contains("id=\"table-7\""), "{html}");
    assert!(html.contains("/floor/tables/1/seats/1/call"));
    // The panel alone; an unknown table is 404, a table that is no number 422.
    let p = app.page("/floor/panel?table=8", &s).await;
    assert_eq!(p.status, 200);
    assert!(p.text().contains("id=\"table-8\"") && !p.text().contains("id=\"tile-"));
    assert_eq!(app.page("/floor/panel?table=99", &s).await.status, 404);
    assert_eq!(app.page("/floor/panel?table=x", &s).await.status, 422);
}

#[actix_web::test]
async fn a_live_update_carries_only_the_tiles_and_lists_asked_for_as_out_of_band_swaps() {
    let app = TestApp::new().await;
    let (_, s, ids) = room(&app).await;
    let html = app.page("/floor/board?t=1&g=", &s).await.text();
    // Table id 1 (number 7), its game's list (asked for through its table), the alerts.
    assert!(html.contains("hx-swap-oob=\"true\" class=\"tile"), "{html}");
    assert!(
        html.contains("id=\"tile-7\"") && !html.contains("id=\"tile-8\""),
        "{html}"
    );
    assert!(html.contains("id=\"list-1\"") && html.contains(&alias_of(&app, ids[1])));
    assert!(html.contains("id=\"board-alerts\" hx-swap-oob=\"true\""));
    assert!(!html.contains("id=\"panel-body\""), "no panel unless asked");
    // With the open panel's table: its seats come as the panel's new content.
    let html = app.page("/floor/board?t=2&g=&panel=2", &s).await.text();
    assert!(
        html.contains("id=\"panel-body\" hx-swap-oob=\"innerHTML\""),
        "{html}"
    );
    assert!(html.contains("id=\"table-8\""));
    // Rubbish in the lists is ignored, not an error.
    assert_eq!(app.page("/floor/board?t=a,,-1&g=x", &s).await.status, 200);
}

#[actix_web::test]
async fn a_game_colour_set_by_the_admin_colours_its_tiles_and_bad_colours_are_refused() {
    let app = TestApp::new().await;
    let (token, s, _) = room(&app).await;
    // No colour set: one is picked for the game.
    let css = app.page("/floor/colours.css", &s).await.text();
    assert!(css.contains(".g1 { --g: #"), "{css}");
    let before = app.page("/floor", &s).await.text();
    let mut g = app.get("/api/v1/games/1", &token).await.json();
    g["colour"] = json!("#12AB9f");
    let r = app
        .send_json("PUT", "/api/v1/games/1", &token, g.clone())
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let css = app.page("/floor/colours.css", &s).await.text();
    assert!(css.contains(".g1 { --g: #12ab9f; }"), "{css}");
    // The stylesheet's address changes with the colours (browsers cache it).
    let after = app.page("/floor", &s).await.text();
    let v = |h: &str| h.split("colours.css?v=").nth(1).unwrap()[..16].to_string();
    assert_ne!(v(&before), v(&after));
    // A colour that is not #rrggbb: 422 naming the field, nothing changed.
    g["colour"] = json!("red; background: url(x)");
    let r = app.send_json("PUT", "/api/v1/games/1", &token, g).await;
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(r.text().contains("colour"), "{}", r.text());
    let css = app.page("/floor/colours.css", &s).await.text();
    assert!(css.contains("#12ab9f"));
}

#[actix_web::test]
async fn a_player_joins_by_a_typed_name_and_the_floor_is_told_what_happened() {
    let app = TestApp::new().await;
    let (_, s, _) = room(&app).await;
    let more = eligible_players(&app, 2);
    let (name, alias) = app.with_conn(|c| {
        let p = cardroom::services::players::get(c, PlayerId(more[0])).unwrap();
        (p.full_name, p.alias)
    });
    // The type-ahead offers the player as "Alias — Name (#id)".
    let opts = app
        .page(
            &format!("/floor/players?player={}", name.replace(' ', "+")),
            &s,
        )
        .await
        .text();
    let option = format!("{alias} — {name} (#{})", more[0]);
    assert!(
        opts.contains(&format!("<option value=\"{option}\">")),
        "{opts}"
    );
    // Joining by the full name alone: one player has it.
    let r = app
        .post_form("/floor/lists/1/join", &s, &[("player", &name)])
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    let flash = r.cookie("floor_done").expect("the toast's cookie");
    // The dashboard says it, once.
    let page = app
        .call(
            TestRequest::get()
                .uri("/floor")
                .cookie(s.c())
                .cookie(actix_web::cookie::Cookie::new("floor_done", flash))
                .to_request(),
        )
        .await;
    let html = page.text();
    assert!(
        html.contains(&format!("{alias} added to the NL 1/2 list (place 4).")),
        "{html}"
    );
    assert!(page
        .header("set-cookie")
        .unwrap_or_default()
        .contains("floor_done=;"));
    // The option itself, as the browser sends it.
    let r = app
        .post_form(
            "/floor/lists/1/join",
            &s,
            &[("player", &format!("x — y (#{})", more[1]))],
        )
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    // Several players match: refused naming them, the typed text kept, nothing added.
    let before = app.count("waitlist_entries");
    let r = app
        .post_form("/floor/lists/1/join", &s, &[("player", "Jogador")])
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
    let html = r.text();
    assert!(html.contains("Several players match “Jogador”"), "{html}");
    assert!(html.contains("value=\"Jogador\""), "{html}");
    // No match: said, typed text kept.
    let r = app
        .post_form("/floor/lists/1/join", &s, &[("player", "Nobody Here")])
        .await;
    assert_eq!(r.status, 422);
    assert!(r.text().contains("value=\"Nobody Here\""));
    assert_eq!(app.count("waitlist_entries"), before);
}

/// The list entry of a player on game 1's list.
fn entry_of(app: &TestApp, player: i64) -> (i64, String) {
    use cardroom::db::schema::waitlist_entries::dsl::*;
    use diesel::prelude::*;
    app.with_conn(|c| {
        waitlist_entries
            .filter(player_id.eq(player))
            .order(id.desc())
            .select((id, state))
            .first(c)
            .unwrap()
    })
}

#[actix_web::test]
async fn a_removal_from_a_list_is_undone_within_ten_seconds_at_the_same_place() {
    let app = TestApp::with_clock(true).await;
    let (token, s, ids) = room(&app).await;
    let (e, _) = entry_of(&app, ids[1]);
    let r = app
        .post_form(
            &format!("/floor/entries/{e}/remove"),
            &s,
            &[("reason", "slip")],
        )
        .await;
    assert_eq!(r.status, 303);
    let flash = r.cookie("floor_done").unwrap();
    assert!(flash.contains("restore"), "{flash}");
    let audits = app.audit_count();
    let r = app
        .post_form(&format!("/floor/entries/{e}/restore"), &s, &[])
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    assert_eq!(entry_of(&app, ids[1]).1, "waiting");
    assert!(app.audit_count() > audits);
    let list = app.get("/api/v1/games/1/waitlist", &token).await.json();
    assert_eq!(list["lines"][1]["player_id"], ids[1], "{list}");
    // Removed again: undone at the tenth second still.
    let remove_uri = format!("/floor/entries/{e}/remove");
    let remove = || app.post_form(&remove_uri, &s, &[("reason", "left")]);
    assert_eq!(remove().await.status, 303);
    app.state.clock.advance(chrono::Duration::seconds(10));
    let r = app
        .post_form(&format!("/floor/entries/{e}/restore"), &s, &[])
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    assert_eq!(entry_of(&app, ids[1]).1, "waiting");
    // Removed again, and the clock moves past the ten seconds: too late, nothing changes.
    assert_eq!(remove().await.status, 303);
    app.state.clock.advance(chrono::Duration::seconds(11));
    let audits = app.audit_count();
    let r = app
        .post_form(&format!("/floor/entries/{e}/restore"), &s, &[])
        .await;
    assert_eq!(r.status, 409);
    assert!(r.text().contains("too late to undo"), "{}", r.text());
    assert_eq!(entry_of(&app, ids[1]).1, "removed");
    assert_eq!(app.audit_count(), audits);
}

/// The same out-of-order call through the JSON API: the reason and the entry are required
/// (422 naming both, nothing written), a dealer may not, the chosen player is called with the
/// call's details in the answer, the list order stays, and a player already called cannot be
/// called again (their entry is no longer waiting).
#[actix_web::test]
async fn the_api_calls_a_chosen_player_out_of_order_with_a_reason() {
    let app = TestApp::new().await;
    let (token, _, ids) = room(&app).await;
    let (third, _) = entry_of(&app, ids[2]);
    let url = "/api/v1/tables/1/seats/1/call-chosen";
    let dealer = app.staff_token("dealer1", "dealer").await;
    let (audits, calls) = (app.audit_count(), app.count("seat_calls"));
    let r = app
        .send_json("POST", url, &token, json!({ "reason": " " }))
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
    let fields: Vec<String> = r.json()["error"]["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["field"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(fields, ["entry_id", "reason"], "{}", r.text());
    let body = json!({ "entry_id": third, "reason": "at the desk now" });
    assert_eq!(
        app.send_json("POST", url, &dealer, body.clone())
            .await
            .status,
        403
    );
    assert_eq!(
        (app.audit_count(), app.count("seat_calls")),
        (audits, calls)
    );
    let r = app.send_json("POST", url, &token, body).await;
    assert_eq!(r.status, 201, "{}", r.text());
    let call = r.json();
    assert_eq!(call["player_id"], ids[2], "{call}");
    assert_eq!(call["seat_no"], 1, "{call}");
    assert_eq!(entry_of(&app, ids[2]).1, "called");
    assert_eq!(entry_of(&app, ids[0]).1, "waiting");
    let list = app.get("/api/v1/games/1/waitlist", &token).await.json();
    assert_eq!(list["lines"][0]["player_id"], ids[0], "{list}");
    let r = app
        .send_json(
            "POST",
            "/api/v1/tables/1/seats/2/call-chosen",
            &token,
            json!({ "entry_id": third, "reason": "again" }),
        )
        .await;
    // Called already: its list entry is no longer waiting (BSOP 46: one call at a time).
    assert_eq!(r.status, 409, "{}", r.text());
    assert_eq!(
        r.error(),
        (
            "conflict".to_string(),
            "This player is no longer on the list.".to_string()
        ),
        "{}",
        r.text()
    );
    // An unknown entry is a 404.
    let r = app
        .send_json(
            "POST",
            "/api/v1/tables/1/seats/3/call-chosen",
            &token,
            json!({ "entry_id": 999_999, "reason": "x" }),
        )
        .await;
    assert_eq!(r.status, 404, "{}", r.text());
}

#[actix_web::test]
async fn the_floor_calls_a_chosen_player_out_of_order_only_with_a_reason() {
    let app = TestApp::new().await;
    let (_, s, ids) = room(&app).await;
    let (third, _) = entry_of(&app, ids[2]);
    // Without a reason: 422 naming the field, nothing changed.
    let (audits, calls) = (app.audit_count(), app.count("seat_calls"));
    let r = app
        .post_form(
            "/floor/tables/1/seats/1/call-chosen",
            &s,
            &[("entry", &third.to_string()), ("reason", " ")],
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
    assert_eq!(
        (app.audit_count(), app.count("seat_calls")),
        (audits, calls)
    );
    // With one: the third player is called, the first stays first on the list.
    let r = app
        .post_form(
            "/floor/tables/1/seats/1/call-chosen",
            &s,
            &[("entry", &third.to_string()), ("reason", "at the desk now")],
        )
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    assert_eq!(entry_of(&app, ids[2]).1, "called");
    assert_eq!(entry_of(&app, ids[0]).1, "waiting");
    let detail: String = app.with_conn(|c| {
        use cardroom::db::schema::audit_log::dsl::*;
        use diesel::prelude::*;
        audit_log
            .filter(action.eq("seat.call_out_of_order"))
            .select(after_json)
            .first(c)
            .unwrap()
    });
    let detail: serde_json::Value = serde_json::from_str(&detail).unwrap();
    assert_eq!(detail["reason"], "at the desk now");
    assert_eq!(detail["next_in_order_player_id"], ids[0]);
    // The same player again at another seat: already called (BSOP 46).
    let r = app
        .post_form(
            "/floor/tables/1/seats/2/call-chosen",
            &s,
            &[("entry", &third.to_string()), ("reason", "again")],
        )
        .await;
    assert_eq!(r.status, 409, "{}", r.text());
    // A form sent from table 8's panel comes back to it.
    let r = app
        .call(
            TestRequest::post()
                .uri("/floor/tables/2/seats/1/call")
                .cookie(s.c())
                .insert_header(("referer", "http://localhost:8080/floor?table=8"))
                .set_form([("csrf", s.csrf.as_str())])
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    assert_eq!(r.header("location").as_deref(), Some("/floor?table=8"));
}

#[actix_web::test]
async fn the_type_ahead_choice_is_taken_wherever_a_player_is_chosen() {
    let app = TestApp::new().await;
    let (_, s, ids) = room(&app).await;
    let alias = alias_of(&app, ids[0]);
    // The separation form on a player's record offers the same suggestions ...
    let page = app.page(&format!("/players/{}", ids[1]), &s).await.text();
    assert!(page.contains("list=\"player-options\""), "{page}");
    let opts = app
        .page(&format!("/floor/players?other={alias}"), &s)
        .await
        .text();
    assert!(opts.contains(&format!("(#{})", ids[0])), "{opts}");
    // ... and takes the chosen entry.
    let chosen = format!("{alias} — someone (#{})", ids[0]);
    let r = app
        .post_form(
            &format!("/players/{}/separations", ids[1]),
            &s,
            &[("other", &chosen), ("reason", "same family")],
        )
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    assert_eq!(app.count("separations"), 1);
    // A seat held for a player chosen the same way names them.
    let r = app
        .post_form(
            "/floor/tables/2/seats/3/hold",
            &s,
            &[("player", &chosen), ("reason", "")],
        )
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    let panel = app.page("/floor/panel?table=8", &s).await.text();
    assert!(panel.contains(&format!("Held for {alias}")), "{panel}");
    // An entry whose number is nobody's: refused, nothing held.
    let r = app
        .post_form(
            "/floor/tables/2/seats/4/hold",
            &s,
            &[("player", "Ghost — Nobody (#99999)"), ("reason", "")],
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
}

/// The board reads each seated player's two names and the players of every list in one read
/// (not one per game): a player waiting on two lists is shown on both, and a seated player
/// has their alias on the tile and their full name beside it.
#[actix_web::test]
async fn a_player_on_two_lists_is_on_both_and_a_seated_player_is_named() {
    let app = TestApp::new().await;
    let (token, s, ids) = room(&app).await;
    let game = json!({"name": "PLO 1/2", "variant": "omaha", "small_blind": 100, "big_blind": 200,
        "limit_class": "low", "buy_in_min": 4000, "buy_in_max": 20000});
    let r = app.send_json("POST", "/api/v1/games", &token, game).await;
    assert_eq!(r.status, 201, "{}", r.text());
    let r = app
        .post_form(
            "/floor/lists/2/join",
            &s,
            &[("player", &ids[2].to_string())],
        )
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    // The head of list 1 is called to table 7, seat 1, and seated.
    let call = call_next(&app, &token, 1, 1).await;
    assert_eq!(call["player_id"], ids[0]);
    let r = app
        .send_json(
            "POST",
            &format!("/api/v1/seat-calls/{}/seat", call["id"]),
            &token,
            json!({}),
        )
        .await;
    assert!((200..300).contains(&r.status), "{}", r.text());

    let d = app.with_conn(|c| {
        let room = cardroom::services::room::get(c).unwrap();
        cardroom::services::floor::dashboard(
            c,
            &app.state.waits,
            app.state.clock.now(),
            &room.profile,
        )
        .unwrap()
    });
    let on = |game: i64| -> Vec<i64> {
        d.lists
            .iter()
            .find(|l| l.game.id == GameId(game))
            .map(|l| l.lines.iter().map(|x| x.player.id.get()).collect())
            .unwrap_or_default()
    };
    assert_eq!(on(1), vec![ids[1], ids[2]], "list 1 after the seating");
    assert_eq!(on(2), vec![ids[2]], "list 2");
    let seat = &d.tables.iter().find(|t| t.table.number == 7).unwrap().seats[0];
    let (seating, alias) = seat.seating.as_ref().expect("seat 1 taken");
    assert_eq!(seating.player_id, PlayerId(ids[0]));
    assert_eq!(alias, &alias_of(&app, ids[0]));
    let full = app.with_conn(|c| {
        cardroom::services::players::get(c, PlayerId(ids[0]))
            .unwrap()
            .full_name
    });
    assert_eq!(seat.name.as_deref(), Some(full.as_str()));
    // The page shows both lists with the player waiting on both.
    let html = app.page("/floor", &s).await.text();
    let alias2 = alias_of(&app, ids[2]);
    // Lists in the games' name order: "NL 1/2" (list 1), then "PLO 1/2" (list 2).
    let l1 = html.find("id=\"list-1\"").expect("list 1");
    let l2 = html.find("id=\"list-2\"").expect("list 2");
    assert!(l1 < l2);
    assert!(html[l1..l2].contains(&alias2), "list 1: {}", &html[l1..l2]);
    assert!(html[l2..].contains(&alias2), "list 2: {}", &html[l2..]);
}
