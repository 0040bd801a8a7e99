//! Seat preferences: a call offers a free seat that fits (seats, tables to
//! avoid, BSOP 45 accessible seats), a player who waits keeps their place for at most the
//! room's number of offers (PT-2007 12 and BSOP 51: the order never changes), the floor sees
//! the preference on the list and on the call; set by the player from their link, by the
//! floor on the record and through the API; every refusal changes nothing.

use crate::floor::eligible_players;
use crate::pages::nl_game;
use crate::support::*;
use actix_web::test::TestRequest;
use cardroom::domain::ids::PlayerId;
use serde_json::{json, Value};

/// A game (id 1) with one open 9-seat table (number 7, id 1) and `n` players on its list.
async fn room(app: &TestApp, n: usize) -> (String, Vec<i64>) {
    let token = app.admin_token().await;
    nl_game(app, &token).await;
    let t = json!({"number": 7, "game_id": 1, "mode": "continuous", "seats": 9});
    let r = app.send_json("POST", "/api/v1/tables", &token, t).await;
    assert_eq!(r.status, 201, "{}", r.text());
    let ids = eligible_players(app, n);
    for id in &ids {
        let r = app
            .send_json(
                "POST",
                "/api/v1/games/1/waitlist",
                &token,
                json!({"player_id": id}),
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.text());
    }
    let r = app
        .send_json("POST", "/api/v1/tables/1/open", &token, json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    (token, ids)
}

async fn put_pref(app: &TestApp, token: &str, player: i64, body: Value) -> Resp {
    app.send_json(
        "PUT",
        &format!("/api/v1/players/{player}/seat-preference"),
        token,
        body,
    )
    .await
}

async fn call_next(app: &TestApp, token: &str, seat: i32) -> Resp {
    app.send_json(
        "POST",
        &format!("/api/v1/tables/1/seats/{seat}/call-next"),
        token,
        json!({}),
    )
    .await
}

/// (player, position, state) of each line of the game's list.
async fn lines(app: &TestApp, token: &str) -> Vec<(i64, i64, String)> {
    let r = app.get("/api/v1/games/1/waitlist", token).await;
    assert_eq!(r.status, 200, "{}", r.text());
    r.json()["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["player_id"].as_i64().unwrap(),
                l["position"].as_i64().unwrap(),
                l["state"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn passes(app: &TestApp) -> Vec<(i64, i32)> {
    use cardroom::db::schema::pref_passes::dsl as p;
    use diesel::prelude::*;
    app.with_conn(|c| {
        p::pref_passes
            .order(p::entry_id)
            .select((p::entry_id, p::passes))
            .load(c)
            .unwrap()
    })
}

fn last_audit(app: &TestApp) -> (String, String, String) {
    use cardroom::db::schema::audit_log::dsl::*;
    use diesel::prelude::*;
    app.with_conn(|c| {
        audit_log
            .order(seq.desc())
            .select((action, actor_name, after_json))
            .first(c)
            .unwrap()
    })
}

#[actix_web::test]
async fn a_call_offers_the_free_seat_that_fits_and_the_list_order_stays() {
    let app = TestApp::new().await;
    let (token, p) = room(&app, 3).await;
    // The second player would rather have seat 6 or 5, in that order.
    let r = put_pref(&app, &token, p[1], json!({"seats": [6, 5]})).await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(
        r.json(),
        json!({"seats": [6, 5], "avoid_tables": [], "accessible": false, "wait_for_match": false})
    );
    assert_eq!(last_audit(&app).0, "player.seat_preference");
    // The first player has no preference: seat 1 as asked.
    let c1 = call_next(&app, &token, 1).await;
    assert_eq!(c1.status, 201, "{}", c1.text());
    assert_eq!(
        (
            c1.json()["player_id"].as_i64(),
            c1.json()["seat_no"].as_i64()
        ),
        (Some(p[0]), Some(1))
    );
    // The second, called for seat 2: offered seat 6, the first they listed that is free.
    let c2 = call_next(&app, &token, 2).await;
    assert_eq!(c2.status, 201, "{}", c2.text());
    assert_eq!(c2.json()["player_id"], p[1]);
    assert_eq!(c2.json()["seat_no"], 6, "{}", c2.text());
    // Seat 2 is still free: the next player is called to it.
    let c3 = call_next(&app, &token, 2).await;
    assert_eq!(c3.status, 201, "{}", c3.text());
    assert_eq!(
        (
            c3.json()["player_id"].as_i64(),
            c3.json()["seat_no"].as_i64()
        ),
        (Some(p[2]), Some(2))
    );
    // Nobody changed place.
    let l = lines(&app, &token).await;
    assert_eq!(
        l.iter().map(|x| (x.0, x.1)).collect::<Vec<_>>(),
        vec![(p[0], 1), (p[1], 2), (p[2], 3)]
    );
    // The floor sees the preference on the call in the table's panel.
    let s = app.web_login("admin", ADMIN_PW).await;
    let panel = app.page("/floor/panel?table=7", &s).await.text();
    assert!(
        panel.contains("class=\"badge badge-muted pref\""),
        "{panel}"
    );
    assert!(
        panel.contains("lugares 6, 5") || panel.contains("seats 6, 5"),
        "{panel}"
    );
}

#[actix_web::test]
async fn a_player_who_waits_keeps_their_place_for_the_rooms_number_of_offers_then_is_called() {
    let app = TestApp::new().await;
    let (token, p) = room(&app, 3).await;
    // No seat of table 7 suits the first player; they wait (the room allows 2 offers).
    let r = put_pref(
        &app,
        &token,
        p[0],
        json!({"avoid_tables": [7], "wait_for_match": true}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let c = call_next(&app, &token, 1).await;
    assert_eq!(c.status, 201, "{}", c.text());
    assert_eq!(
        c.json()["player_id"],
        p[1],
        "passed over, keeping the place"
    );
    let entry0 = {
        use cardroom::db::schema::waitlist_entries::dsl as w;
        use diesel::prelude::*;
        app.with_conn(|c| {
            w::waitlist_entries
                .filter(w::player_id.eq(p[0]))
                .select(w::id)
                .first::<i64>(c)
                .unwrap()
        })
    };
    assert_eq!(passes(&app), vec![(entry0, 1)]);
    // The pass is audited with the seat that went by, before the call itself.
    {
        use cardroom::db::schema::audit_log::dsl::*;
        use diesel::prelude::*;
        let acts: Vec<(String, String)> = app.with_conn(|c| {
            audit_log
                .order(seq.desc())
                .limit(2)
                .select((action, after_json))
                .load(c)
                .unwrap()
        });
        assert_eq!(acts[0].0, "seat.call");
        assert_eq!(acts[1].0, "list.pref_pass");
        assert!(acts[1].1.contains("\"passes\":1"), "{}", acts[1].1);
    }
    let c = call_next(&app, &token, 2).await;
    assert_eq!(c.json()["player_id"], p[2]);
    assert_eq!(passes(&app), vec![(entry0, 2)]);
    // Still first on the list, while both others are called.
    let l = lines(&app, &token).await;
    assert_eq!(l[0], (p[0], 1, "waiting".into()));
    // No offers left: called like anyone, for the seat asked.
    let c = call_next(&app, &token, 3).await;
    assert_eq!(c.status, 201, "{}", c.text());
    assert_eq!(c.json()["player_id"], p[0]);
    assert_eq!(c.json()["seat_no"], 3);
}

#[actix_web::test]
async fn with_only_waiting_players_left_the_seat_is_not_forced_and_nothing_is_counted() {
    let app = TestApp::new().await;
    let (token, p) = room(&app, 1).await;
    let r = put_pref(
        &app,
        &token,
        p[0],
        json!({"seats": [9], "wait_for_match": true}),
    )
    .await;
    assert_eq!(r.status, 200);
    // Seat 9 is reserved by a hold: no free seat fits.
    let r = app
        .send_json(
            "POST",
            "/api/v1/tables/1/seats/9/hold",
            &token,
            json!({"reason": "wheelchair expected"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let before = app.audit_count();
    let r = call_next(&app, &token, 1).await;
    assert_eq!(r.status, 409, "{}", r.text());
    let (code, msg) = r.error();
    assert_eq!(code, "conflict");
    assert!(msg.contains("preference"), "{msg}");
    assert_eq!(app.audit_count(), before, "nothing written");
    assert!(passes(&app).is_empty());
    assert_eq!(app.count("seat_calls"), 0);
}

#[actix_web::test]
async fn bsop_45_a_player_who_needs_an_accessible_seat_is_offered_one() {
    let app = TestApp::new().await;
    let (token, p) = room(&app, 1).await;
    let r = app
        .send_json(
            "PUT",
            "/api/v1/tables/1/accessible-seats",
            &token,
            json!({"seats": [1, 9]}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["seats"], json!([1, 9]));
    assert_eq!(last_audit(&app).0, "table.accessible_seats");
    // A seat beyond the table's 9: refused, nothing changed.
    let before = app.audit_count();
    let r = app
        .send_json(
            "PUT",
            "/api/v1/tables/1/accessible-seats",
            &token,
            json!({"seats": [10]}),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
    // More numbers than the document allows, even repeated (the API fuzzer's case).
    let r = app
        .send_json(
            "PUT",
            "/api/v1/tables/1/accessible-seats",
            &token,
            json!({"seats": vec![1; 13]}),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
    assert_eq!(app.audit_count(), before);
    assert_eq!(
        app.get("/api/v1/tables/1/accessible-seats", &token)
            .await
            .json()["seats"],
        json!([1, 9])
    );
    put_pref(&app, &token, p[0], json!({"accessible": true})).await;
    let c = call_next(&app, &token, 4).await;
    assert_eq!(c.status, 201, "{}", c.text());
    assert_eq!(c.json()["seat_no"], 1);
}

#[actix_web::test]
async fn the_api_refuses_what_it_cannot_use_and_changes_nothing() {
    let app = TestApp::new().await;
    let (token, p) = room(&app, 1).await;
    let before = app.audit_count();
    for (body, field) in [
        (json!({"seats": [0]}), "seats"),
        (json!({"seats": [12]}), "seats"),
        (json!({"avoid_tables": [1000]}), "avoid_tables"),
        (json!({"seats": ["x"]}), "seats"),
        (
            json!({"seats": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 1, 2]}),
            "seats",
        ),
    ] {
        let r = put_pref(&app, &token, p[0], body.clone()).await;
        assert_eq!(r.status, 422, "{body}: {}", r.text());
        assert!(r.text().contains(field), "{body}: {}", r.text());
    }
    assert_eq!(app.audit_count(), before);
    assert_eq!(app.count("seat_preferences"), 0);
    assert_eq!(put_pref(&app, &token, 999, json!({})).await.status, 404);
    // A dealer may not set one; anyone who reads the registry may read it.
    let dealer = app.staff_token("dealer1", "dealer").await;
    assert_eq!(
        put_pref(&app, &dealer, p[0], json!({"seats": [1]}))
            .await
            .status,
        403
    );
    let r = app
        .get(&format!("/api/v1/players/{}/seat-preference", p[0]), &token)
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["seats"], json!([]));
    // The room's number of offers is bounded (0 to 5).
    let room = app.get("/api/v1/room", &token).await.json();
    assert_eq!(room["profile"]["pref_max_passes"], 2);
}

#[actix_web::test]
async fn the_player_sets_their_preference_from_their_link_and_a_refusal_keeps_what_was_typed() {
    let app = TestApp::new().await;
    let (token, p) = room(&app, 1).await;
    let now = app.state.clock.now();
    let link = app.with_conn(|c| {
        let tz = cardroom::services::room::get(c).unwrap().tz;
        cardroom::notify::link::issue_for(
            c,
            &app.state.keys,
            PlayerId(p[0]),
            now,
            tz,
            cardroom::domain::clock::parse_hhmm("06:00").unwrap(),
        )
        .unwrap()
    });
    let page = app
        .call(TestRequest::get().uri(&format!("/p/{link}")).to_request())
        .await;
    assert_eq!(page.status, 200);
    // The players of eligible_players read Portuguese.
    assert!(
        page.text().contains("Preferência de lugar"),
        "{}",
        page.text()
    );
    let before = app.audit_count();
    let r = app
        .call(
            TestRequest::post()
                .uri(&format!("/p/{link}/seat-preference"))
                .set_form([("seats", "1, x"), ("avoid_tables", "3")])
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
    let html = r.text();
    assert!(html.contains("«x» não é um número de 1 a 11"), "{html}");
    assert!(html.contains("value=\"1, x\""), "typed value kept: {html}");
    assert!(html.contains(&format!("action=\"/p/{link}/seat-preference\"")));
    assert_eq!(app.audit_count(), before);
    let r = app
        .call(
            TestRequest::post()
                .uri(&format!("/p/{link}/seat-preference"))
                .set_form([
                    ("seats", "2 1"),
                    ("avoid_tables", ""),
                    ("wait_for_match", "true"),
                ])
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    let (action, actor, after) = last_audit(&app);
    assert_eq!(action, "player.seat_preference");
    assert!(actor.contains("own link"), "{actor}");
    assert!(after.contains("\"seats\":[2,1]"), "{after}");
    let r = app
        .get(&format!("/api/v1/players/{}/seat-preference", p[0]), &token)
        .await;
    assert_eq!(r.json()["wait_for_match"], true);
    let page = app
        .call(TestRequest::get().uri(&format!("/p/{link}")).to_request())
        .await;
    assert!(page.text().contains("value=\"2, 1\""), "{}", page.text());
}

#[actix_web::test]
async fn the_floor_sets_it_on_the_record_and_sees_it_on_the_board() {
    let app = TestApp::new().await;
    let (token, p) = room(&app, 2).await;
    let s = app.web_login("admin", ADMIN_PW).await;
    let r = app
        .post_form(
            &format!("/players/{}/seat-preference", p[1]),
            &s,
            &[("seats", "12"), ("avoid_tables", "7")],
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(r.text().contains("value=\"12\""), "{}", r.text());
    assert_eq!(app.count("seat_preferences"), 0);
    let r = app
        .post_form(
            &format!("/players/{}/seat-preference", p[1]),
            &s,
            &[
                ("seats", "3"),
                ("avoid_tables", "2"),
                ("accessible", "true"),
            ],
        )
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    let loc = r.header("location").unwrap();
    assert!(loc.ends_with("?pref=saved#seat-pref"), "{loc}");
    let record = app.page(&loc, &s).await.text();
    assert!(record.contains("id=\"pref-saved\""), "{record}");
    assert!(record.contains("value=\"3\""));
    // The board's list names it next to the player.
    let board = app.page("/floor", &s).await.text();
    let line = &board[board.find(&format!("data-player=\"{}\"", p[1])).unwrap()..];
    let line = &line[..line.find("</li>").unwrap()];
    assert!(line.contains("pref"), "{line}");
    assert!(
        line.contains("não na mesa 2") || line.contains("not table 2"),
        "{line}"
    );
    let r = app
        .get(&format!("/api/v1/players/{}/seat-preference", p[1]), &token)
        .await;
    assert_eq!(
        r.json(),
        json!({"seats": [3], "avoid_tables": [2], "accessible": true, "wait_for_match": false})
    );
}

#[actix_web::test]
async fn the_admin_keeps_accessible_seats_on_the_table_form_and_a_bad_seat_saves_nothing() {
    let app = TestApp::new().await;
    let (token, _) = room(&app, 0).await;
    let s = app.web_login("admin", ADMIN_PW).await;
    let form = [
        ("number", "7"),
        ("seats", "9"),
        ("game_id", "1"),
        ("mode", "continuous"),
        ("active", "true"),
    ];
    let mut bad = form.to_vec();
    bad[0] = ("number", "8");
    bad.push(("accessible_seats", "1, 10"));
    let r = app.post_form("/admin/tables/1", &s, &bad).await;
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(
        r.text().contains("data-field=\"accessible_seats\""),
        "{}",
        r.text()
    );
    // Neither the number nor the seats were saved.
    let t = app.get("/api/v1/tables", &token).await.json();
    assert_eq!(t[0]["number"], 7, "{t}");
    let mut good = form.to_vec();
    good.push(("accessible_seats", "9, 1"));
    let r = app.post_form("/admin/tables/1", &s, &good).await;
    assert_eq!(r.status, 303, "{}", r.text());
    let r = app.get("/api/v1/tables/1/accessible-seats", &token).await;
    assert_eq!(r.json()["seats"], json!([9, 1]));
    let page = app.page("/admin/tables/1", &s).await.text();
    assert!(page.contains("value=\"9, 1\""), "{page}");
}
