//! A draw's record a person can read and settle a dispute with — names and
//! aliases, cards as rank and suit symbol (red for hearts and diamonds), the resulting order
//! or seats highlighted, the seed, a replay computed on the server, in both languages; the raw
//! record as a JSON download; a draw made on the floor names its result at once; the table and
//! the audit trail link to the record.

use crate::pages::{eligible_players, nl_game};
use crate::support::*;
use actix_web::cookie::Cookie;
use actix_web::test::TestRequest;
use cardroom::domain::draw::Draw;

/// A page in Portuguese (the language cookie beside the session).
async fn page_pt(app: &TestApp, uri: &str, s: &WebSession) -> String {
    app.call(
        TestRequest::get()
            .uri(uri)
            .cookie(s.c())
            .cookie(Cookie::new("cr_lang", "pt"))
            .to_request(),
    )
    .await
    .text()
}

/// The draw id in a `/floor?draw=N…` redirect.
fn drawn(r: &Resp) -> i64 {
    assert_eq!(r.status, 303, "{}", r.text());
    let to = r.header("location").expect("a redirect");
    let id = to
        .strip_prefix("/floor?draw=")
        .and_then(|rest| rest.split('#').next())
        .and_then(|n| n.parse().ok());
    id.unwrap_or_else(|| panic!("after a draw the floor names its result, got {to}"))
}

fn stored(app: &TestApp, id: i64) -> Draw {
    let row = app.with_conn(|c| cardroom::services::draws::get(c, id).unwrap());
    serde_json::from_str(&row.inputs).unwrap()
}

/// Rank as people write it (10, not T) and the suit symbol; the colour class.
fn face(code: &str) -> (String, char, &'static str) {
    let rank = match &code[..1] {
        "T" => "10".to_string(),
        r => r.to_string(),
    };
    let (sym, class) = match &code[1..] {
        "s" => ('♠', "card-face suit-black"),
        "h" => ('♥', "card-face suit-red"),
        "d" => ('♦', "card-face suit-red"),
        _ => ('♣', "card-face suit-black"),
    };
    (rank, sym, class)
}

/// Six players at table 3 (six seats), seated by the floor's seat draw.
async fn seated_table(app: &TestApp) -> (WebSession, Vec<i64>, i64) {
    let token = app.admin_token().await;
    nl_game(app, &token).await;
    let table = serde_json::json!({"number": 3, "game_id": 1, "mode": "continuous", "seats": 6});
    assert_eq!(
        app.send_json("POST", "/api/v1/tables", &token, table)
            .await
            .status,
        201
    );
    let ids = eligible_players(app, 6);
    let s = app.web_login("admin", ADMIN_PW).await;
    for id in &ids {
        app.post_form("/floor/lists/1/join", &s, &[("player", &id.to_string())])
            .await;
    }
    app.post_form("/floor/tables/1/open", &s, &[]).await;
    let id = drawn(&app.post_form("/floor/tables/1/draw-seats", &s, &[]).await);
    (s, ids, id)
}

#[actix_web::test]
async fn pt2007_11_a_seat_draw_on_the_floor_names_its_result_and_its_record_reads_in_both_languages(
) {
    let app = TestApp::new().await;
    let (s, ids, id) = seated_table(&app).await;
    let Draw::Seat { result, .. } = stored(&app, id) else {
        panic!("a seat draw")
    };
    // The floor lands on the dashboard with the result named and linked.
    let floor = app.page(&format!("/floor?draw={id}"), &s).await.text();
    assert!(floor.contains("id=\"draw-result\""), "{floor}");
    assert!(floor.contains("6 players seated by draw."), "{floor}");
    assert!(floor.contains(&format!("href=\"/draws/{id}\"")));
    // The table links to its newest draw, also in the live part.
    let live = app.floor_all(&s).await;
    assert!(live.contains(&format!("href=\"/draws/{id}\"")), "{live}");
    // An unknown draw in the address shows the floor without a notice.
    let floor = app.page("/floor?draw=999", &s).await;
    assert_eq!(floor.status, 200);
    assert!(!floor.text().contains("id=\"draw-result\""));

    // The record: every player by name and alias with the seat drawn, sorted by seat.
    let page = app.page(&format!("/draws/{id}"), &s).await.text();
    assert!(page.contains("Seat draw (PT-2007 11)"), "{page}");
    let mut at = 0;
    for a in &result.seats {
        let i = ids.iter().position(|p| *p == a.player.get()).unwrap();
        let row = format!("id=\"draw-player-{}\"", a.player);
        let pos = page.find(&row).unwrap_or_else(|| panic!("{row} in {page}"));
        assert!(pos > at, "rows in seat order");
        at = pos;
        let tr = &page[pos..pos + page[pos..].find("</tr>").unwrap()];
        assert!(tr.contains(&format!("Floor Player {i}")), "{tr}");
        assert!(tr.contains(&format!("“FP{i}”")), "{tr}");
        assert!(tr.contains(&format!("seat {}", a.seat)), "{tr}");
    }
    assert!(page.contains("id=\"draw-seed\""));
    assert!(page.contains(&stored(&app, id).seed().to_string()));
    assert!(page.contains("the same result"));
    assert!(page.contains(&format!("href=\"/draws/{id}.json\"")));
    assert!(
        !page.contains("\"players\""),
        "no raw JSON on the page: {page}"
    );
    // In Portuguese.
    let pt = page_pt(&app, &format!("/draws/{id}"), &s).await;
    assert!(pt.contains("Sorteio de lugares (PT-2007 11)"), "{pt}");
    assert!(pt.contains("Quem tirou o quê"));
    assert!(pt.contains("6 jogadores sentados por sorteio."));
    assert!(pt.contains("o mesmo resultado"));
    assert!(!pt.contains("the same result"));
}

#[actix_web::test]
async fn bsop_48_the_button_draw_shows_cards_with_suit_symbols_the_order_and_the_replay() {
    let app = TestApp::new().await;
    let (s, ids, _) = seated_table(&app).await;
    let id = drawn(&app.post_form("/floor/tables/1/draw-button", &s, &[]).await);
    let Draw::HighCard { result, .. } = stored(&app, id) else {
        panic!("a high-card draw")
    };
    let winner = result.winner().unwrap();
    let seat: i32 = app.with_conn(|c| {
        use cardroom::db::schema::card_tables;
        use diesel::prelude::*;
        card_tables::table
            .find(1i64)
            .select(card_tables::button_seat)
            .first::<Option<i32>>(c)
            .unwrap()
            .unwrap()
    });
    let wi = ids.iter().position(|p| *p == winner.get()).unwrap();
    // Named on the floor right after.
    let floor = app.page(&format!("/floor?draw={id}"), &s).await.text();
    assert!(
        floor.contains(&format!("The button goes to seat {seat}:")),
        "{floor}"
    );
    assert!(floor.contains(&format!("Floor Player {wi} “FP{wi}”")));

    let page = app.page(&format!("/draws/{id}"), &s).await.text();
    assert!(page.contains("The dealer button (BSOP 48)"), "{page}");
    assert!(page.contains(&format!("The button goes to seat {seat}:")));
    // Rows in the order of the cards, highest first; the winner highlighted; each card as
    // rank + symbol with its colour class, never as its code.
    let mut at = 0;
    for (n, p) in result.order.iter().enumerate() {
        let row = format!("id=\"draw-player-{p}\"");
        let pos = page.find(&row).unwrap_or_else(|| panic!("{row} in {page}"));
        assert!(pos > at, "rows in the drawn order");
        at = pos;
        let tr = &page[pos..pos + page[pos..].find("</tr>").unwrap()];
        assert_eq!(tr.contains("draw-highlight"), n == 0, "{tr}");
        let code = result.card_of(*p).unwrap().code();
        let (rank, sym, class) = face(&code);
        assert!(
            tr.contains(&format!("class=\"{class}\" title=\"{code}\""))
                && tr.contains(&format!("{rank}<span class=\"suit\">{sym}</span>")),
            "card {code} as {rank}{sym} ({class}): {tr}"
        );
        assert!(tr.contains("was in seat "), "{tr}");
    }
    assert!(page.contains(&format!("Button: seat {seat}")));
    assert!(page.contains("Replayed from its seed and inputs: the same result."));
    // The previous draw of the table is linked from this one.
    assert!(page.contains("id=\"draw-related\""));
    assert!(page.contains(&format!("href=\"/draws/{}\"", id - 1)));
    let pt = page_pt(&app, &format!("/draws/{id}"), &s).await;
    assert!(
        pt.contains(&format!("O botão vai para o lugar {seat}:")),
        "{pt}"
    );
    assert!(pt.contains("O botão do dealer (BSOP 48)"));
    assert!(pt.contains("Repetido a partir da semente e dos dados: o mesmo resultado."));

    // The raw record is a download, and it is the draw as stored (it replays).
    let json = app.page(&format!("/draws/{id}.json"), &s).await;
    assert_eq!(json.status, 200);
    assert!(json
        .header("content-type")
        .unwrap()
        .starts_with("application/json"));
    assert_eq!(
        json.header("content-disposition").as_deref(),
        Some(format!("attachment; filename=\"draw-{id}.json\"").as_str())
    );
    let back: Draw = serde_json::from_slice(&json.body).unwrap();
    assert!(back.verify());
    assert_eq!(back, stored(&app, id));
    assert_eq!(app.page("/draws/999.json", &s).await.status, 404);
    assert_eq!(app.page("/draws/999", &s).await.status, 404);

    // The audit trail's record of the draw links to it.
    let audit = app.page("/admin/audit", &s).await.text();
    assert!(audit.contains(&format!("href=\"/draws/{id}\"")), "{audit}");

    // A stored result edited afterwards: the replay says so, in both languages.
    app.with_conn(|c| {
        use diesel::prelude::*;
        diesel::sql_query(format!(
            "UPDATE draws SET inputs = replace(inputs, '\"order\":[{winner}', '\"order\":[0') WHERE id = {id}"
        ))
        .execute(c)
        .unwrap();
    });
    let page = app.page(&format!("/draws/{id}"), &s).await.text();
    assert!(page.contains("does NOT give the stored result"), "{page}");
    // Beside the warning, what the replay gives: the true winner first.
    let again = &page[page
        .find("id=\"draw-replayed\"")
        .expect("the replay's result")..];
    let first = &again[..again.find("</li>").unwrap()];
    assert!(
        first.contains(&format!("Floor Player {wi} “FP{wi}”")),
        "{first}"
    );
    let pt = page_pt(&app, &format!("/draws/{id}"), &s).await;
    assert!(pt.contains("NÃO dá o resultado guardado"), "{pt}");
}

#[actix_web::test]
async fn pt2007_25_a_suit_draw_reads_as_tables_suits_and_seats_and_links_both_tables() {
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    nl_game(&app, &token).await;
    for n in [5, 6] {
        let table =
            serde_json::json!({"number": n, "game_id": 1, "mode": "continuous", "seats": 9});
        app.send_json("POST", "/api/v1/tables", &token, table).await;
    }
    let ids = eligible_players(&app, 13);
    let s = app.web_login("admin", ADMIN_PW).await;
    for id in &ids {
        app.post_form("/floor/lists/1/join", &s, &[("player", &id.to_string())])
            .await;
    }
    app.post_form("/floor/tables/1/open", &s, &[]).await;
    app.post_form("/floor/tables/2/open", &s, &[]).await;
    let id = drawn(&app.post_form("/floor/lists/1/draw-by-suits", &s, &[]).await);
    let Draw::Suit { result, .. } = stored(&app, id) else {
        panic!("a suit draw")
    };
    // PT-2007 25, BSOP 78: the first table spades, the second hearts (red).
    let floor = app.page(&format!("/floor?draw={id}"), &s).await.text();
    let n5 = result.tables[0].seating.seats.len();
    let n6 = result.tables[1].seating.seats.len();
    assert!(
        floor.contains(&format!(
            "Table 5 <span class=\"suit-black\">♠</span>: {n5} players"
        )) && floor.contains(&format!(
            "Table 6 <span class=\"suit-red\">♥</span>: {n6} players"
        )),
        "{floor}"
    );
    // Both tables link to the draw that filled them.
    let live = app.floor_all(&s).await;
    assert_eq!(
        live.matches(&format!("href=\"/draws/{id}\"")).count(),
        2,
        "{live}"
    );
    let page = app.page(&format!("/draws/{id}"), &s).await.text();
    for t in &result.tables {
        let number = if t.table == 1 { 5 } else { 6 };
        for a in &t.seating.seats {
            let pos = page
                .find(&format!("id=\"draw-player-{}\"", a.player))
                .unwrap();
            let tr = &page[pos..pos + page[pos..].find("</tr>").unwrap()];
            let code = result
                .cards
                .iter()
                .find(|d| d.player == a.player)
                .unwrap()
                .card
                .code();
            let (rank, sym, class) = face(&code);
            assert!(
                tr.contains(&format!("Table {number}, seat {}", a.seat))
                    && tr.contains(&format!("class=\"{class}\" title=\"{code}\""))
                    && tr.contains(&format!("{rank}<span class=\"suit\">{sym}</span>")),
                "{tr}"
            );
        }
    }
    let pt = page_pt(&app, &format!("/draws/{id}"), &s).await;
    assert!(pt.contains("Sorteio por naipes (PT-2007 25)"), "{pt}");
    assert!(pt.contains(&format!(
        "Mesa 5 <span class=\"suit-black\">♠</span>: {n5} jogadores"
    )));
}

#[actix_web::test]
async fn pt2007_27_who_plays_is_drawn_first_and_both_draws_are_linked() {
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    nl_game(&app, &token).await;
    let table = serde_json::json!({"number": 3, "game_id": 1, "mode": "continuous", "seats": 6});
    app.send_json("POST", "/api/v1/tables", &token, table).await;
    let ids = eligible_players(&app, 8);
    let s = app.web_login("admin", ADMIN_PW).await;
    for id in &ids {
        app.post_form("/floor/lists/1/join", &s, &[("player", &id.to_string())])
            .await;
    }
    app.post_form("/floor/tables/1/open", &s, &[]).await;
    // Eight for six seats: who plays is drawn (draw 1), then the seats (draw 2): the floor
    // lands on the seats, whose record links to the first draw.
    let id = drawn(&app.post_form("/floor/tables/1/draw-seats", &s, &[]).await);
    assert_eq!(id, 2);
    let page = app.page("/draws/2", &s).await.text();
    assert!(page.contains("href=\"/draws/1\""), "{page}");
    let Draw::Oversubscribed { result, .. } = stored(&app, 1) else {
        panic!("an oversubscribed draw")
    };
    let page = app.page("/draws/1", &s).await.text();
    assert!(page.contains("6 play. 2 stay on the list."), "{page}");
    let mut at = 0;
    for (n, p) in result.seated.iter().chain(&result.waiting).enumerate() {
        let pos = page.find(&format!("id=\"draw-player-{p}\"")).unwrap();
        assert!(pos > at, "rows in the drawn order");
        at = pos;
        let tr = &page[pos..pos + page[pos..].find("</tr>").unwrap()];
        let i = ids.iter().position(|x| *x == p.get()).unwrap();
        assert!(tr.contains(&format!("Floor Player {i}")));
        assert!(
            tr.contains(if n < 6 { "Plays" } else { "Stays on the list" }),
            "{tr}"
        );
    }
    let pt = page_pt(&app, "/draws/1", &s).await;
    assert!(pt.contains("6 jogam. 2 ficam na lista."), "{pt}");
}

/// A draw made through the JSON API.
async fn api_draw(app: &TestApp, token: &str, uri: &str, kind: &str) -> Resp {
    app.send_json("POST", uri, token, serde_json::json!({ "kind": kind }))
        .await
}

#[actix_web::test]
async fn the_draws_api_makes_reads_lists_and_replays_each_kind_of_draw() {
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    let dealer = app.staff_token("dealer1", "dealer").await;
    nl_game(&app, &token).await;
    let table = serde_json::json!({"number": 3, "game_id": 1, "mode": "continuous", "seats": 6});
    assert_eq!(
        app.send_json("POST", "/api/v1/tables", &token, table)
            .await
            .status,
        201
    );
    let ids = eligible_players(&app, 8);
    for id in &ids {
        let r = app
            .send_json(
                "POST",
                "/api/v1/games/1/waitlist",
                &token,
                serde_json::json!({ "player_id": id }),
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.text());
    }
    let untouched = |app: &TestApp| (app.audit_count(), app.count("draws"), app.count("seatings"));
    let before = untouched(&app);
    // The table is not open: no seat draw (PT-2007 11), no button (BSOP 48); nothing saved.
    let r = api_draw(&app, &token, "/api/v1/tables/1/draws", "seats").await;
    assert_eq!(r.status, 409, "{}", r.text());
    assert!(r.error().1.contains("PT-2007 11"), "{}", r.text());
    let r = api_draw(&app, &token, "/api/v1/tables/1/draws", "button").await;
    assert_eq!(r.status, 409, "{}", r.text());
    assert!(r.error().1.contains("BSOP 48"), "{}", r.text());
    // A kind that does not exist, an unknown table or game, a dealer: refused.
    let r = api_draw(&app, &token, "/api/v1/tables/1/draws", "dice").await;
    assert_eq!(r.status, 422, "{}", r.text());
    assert_eq!(
        r.json()["error"]["fields"][0]["field"],
        "kind",
        "{}",
        r.text()
    );
    assert_eq!(
        api_draw(&app, &token, "/api/v1/tables/99/draws", "seats")
            .await
            .status,
        404
    );
    assert_eq!(
        api_draw(&app, &token, "/api/v1/games/99/draws", "by_suit")
            .await
            .status,
        404
    );
    assert_eq!(
        api_draw(&app, &dealer, "/api/v1/tables/1/draws", "seats")
            .await
            .status,
        403
    );
    assert_eq!(untouched(&app), before);
    // Open: eight players for six seats, so who plays is drawn first (PT-2007 27), then the
    // seats (PT-2007 11); both recorded, six seated.
    let s = app.web_login("admin", ADMIN_PW).await;
    app.post_form("/floor/tables/1/open", &s, &[]).await;
    let r = api_draw(&app, &token, "/api/v1/tables/1/draws", "seats").await;
    assert_eq!(r.status, 201, "{}", r.text());
    let made = r.json();
    let seats = &made["draw"];
    assert_eq!(seats["kind"], "seat");
    assert_eq!(seats["table_id"], 1);
    assert_eq!(seats["matches"], true);
    assert_eq!(made["who_plays"]["kind"], "oversubscribed");
    assert_eq!(made["seated"].as_array().unwrap().len(), 6);
    let drawn_seats: Vec<(i64, i64)> = seats["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["player_id"].as_i64().unwrap(),
                p["seat"].as_i64().unwrap(),
            )
        })
        .collect();
    let mut sat: Vec<(i64, i64)> = made["seated"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            (
                x["player_id"].as_i64().unwrap(),
                x["seat_no"].as_i64().unwrap(),
            )
        })
        .collect();
    let mut expected = drawn_seats.clone();
    sat.sort();
    expected.sort();
    assert_eq!(sat, expected, "the players sit where the draw put them");
    let seat_id = seats["id"].as_i64().unwrap();
    // The button among the six seated (BSOP 48): the winner's seat holds it.
    let r = api_draw(&app, &token, "/api/v1/tables/1/draws", "button").await;
    assert_eq!(r.status, 201, "{}", r.text());
    let button = r.json()["draw"].clone();
    assert_eq!(button["purpose"], "button");
    let winner = button["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["winner"] == true)
        .unwrap()
        .clone();
    assert_eq!(button["button_seat"], winner["seat_then"]);
    assert!(winner["card"].as_str().unwrap().len() == 2, "{winner}");
    let at_table: Option<i32> = app.with_conn(|c| {
        use cardroom::db::schema::card_tables;
        use diesel::prelude::*;
        card_tables::table
            .find(1)
            .select(card_tables::button_seat)
            .first(c)
            .unwrap()
    });
    assert_eq!(at_table.map(i64::from), button["button_seat"].as_i64());
    // A draw by suits needs two empty open tables (PT-2007 25).
    let r = api_draw(&app, &token, "/api/v1/games/1/draws", "by_suit").await;
    assert_eq!(r.status, 409, "{}", r.text());
    assert!(r.error().1.contains("PT-2007 25"), "{}", r.text());
    // The table's draws, newest first, read by anyone on the staff.
    let list = app.get("/api/v1/tables/1/draws", &dealer).await;
    assert_eq!(list.status, 200, "{}", list.text());
    let kinds: Vec<String> = list
        .json()
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["kind"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(kinds, vec!["high_card", "seat", "oversubscribed"]);
    assert_eq!(
        app.get("/api/v1/tables/99/draws", &dealer).await.status,
        404
    );
    let one = app.get(&format!("/api/v1/draws/{seat_id}"), &dealer).await;
    assert_eq!(one.status, 200);
    assert_eq!(one.json()["players"], seats["players"]);
    assert_eq!(app.get("/api/v1/draws/999", &dealer).await.status, 404);
    // The replay: the same seed and inputs give the same result, side by side.
    let r = app
        .get(&format!("/api/v1/draws/{seat_id}/replay"), &dealer)
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let replay = r.json();
    assert_eq!(replay["matches"], true);
    assert_eq!(replay["stored"], replay["replayed"]);
    assert_eq!(replay["seed"], seats["seed"]);
    assert_eq!(replay["stored"], seats["record"]["result"]);
    // A result altered in the database no longer matches its replay, which still gives the
    // draw that was made.
    app.with_conn(|c| {
        use cardroom::db::schema::draws;
        use diesel::prelude::*;
        let row = cardroom::services::draws::get(c, seat_id).unwrap();
        let mut v: serde_json::Value = serde_json::from_str(&row.inputs).unwrap();
        let seats = v["result"]["seats"].as_array_mut().unwrap();
        let (a, b) = (seats[0]["player"].clone(), seats[1]["player"].clone());
        seats[0]["player"] = b;
        seats[1]["player"] = a;
        let result = v["result"].to_string();
        diesel::update(draws::table.find(seat_id))
            .set((draws::inputs.eq(v.to_string()), draws::result.eq(result)))
            .execute(c)
            .unwrap();
    });
    let replay2 = app
        .get(&format!("/api/v1/draws/{seat_id}/replay"), &dealer)
        .await
        .json();
    assert_eq!(replay2["matches"], false);
    assert_ne!(replay2["stored"], replay2["replayed"]);
    assert_eq!(replay2["replayed"], replay["replayed"]);
    assert_eq!(
        app.get(&format!("/api/v1/draws/{seat_id}"), &dealer)
            .await
            .json()["matches"],
        false
    );
}

/// The two draws the first test cannot make on its one table, through the JSON API: by suits
/// over two empty open tables (PT-2007 25) and the seat draw with an extra player (BSOP 50),
/// each read back and replayed.
#[actix_web::test]
async fn the_draws_api_makes_a_draw_by_suits_and_one_with_an_extra_player() {
    use cardroom::db::schema::seatings;
    use diesel::prelude::*;
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    nl_game(&app, &token).await;
    for n in [1, 2, 3] {
        let seats = if n == 3 { 4 } else { 9 };
        let table =
            serde_json::json!({"number": n, "game_id": 1, "mode": "continuous", "seats": seats});
        let r = app.send_json("POST", "/api/v1/tables", &token, table).await;
        assert_eq!(r.status, 201, "{}", r.text());
    }
    let ids = eligible_players(&app, 18);
    let join = |ids: Vec<i64>| {
        let (app, token) = (&app, &token);
        async move {
            for id in ids {
                let r = app
                    .send_json(
                        "POST",
                        "/api/v1/games/1/waitlist",
                        token,
                        serde_json::json!({ "player_id": id }),
                    )
                    .await;
                assert_eq!(r.status, 201, "{}", r.text());
            }
        }
    };
    join(ids[..13].to_vec()).await;
    let s = app.web_login("admin", ADMIN_PW).await;
    for t in [1, 2] {
        let r = app
            .post_form(&format!("/floor/tables/{t}/open"), &s, &[])
            .await;
        assert_eq!(r.status, 303, "{}", r.text());
    }
    // By suits: the thirteen on the list over tables 1 and 2, evenly.
    let r = api_draw(&app, &token, "/api/v1/games/1/draws", "by_suit").await;
    assert_eq!(r.status, 201, "{}", r.text());
    let made = r.json();
    assert_eq!(made["draw"]["kind"], "suit");
    assert_eq!(made["draw"]["matches"], true);
    let seated = made["seated"].as_array().unwrap();
    assert_eq!(seated.len(), 13, "{made}");
    let at1 = seated.iter().filter(|x| x["table_id"] == 1).count();
    assert!(at1 == 6 || at1 == 7, "evenly: {at1} and {}", 13 - at1);
    let suit_id = made["draw"]["id"].as_i64().unwrap();
    let replay = app
        .get(&format!("/api/v1/draws/{suit_id}/replay"), &token)
        .await
        .json();
    assert_eq!(replay["matches"], true, "{replay}");
    // The same draw again finds no empty table: refused, nothing saved.
    let before = (app.audit_count(), app.count("draws"));
    let r = api_draw(&app, &token, "/api/v1/games/1/draws", "by_suit").await;
    assert_eq!(r.status, 409, "{}", r.text());
    assert_eq!((app.audit_count(), app.count("draws")), before);
    // Five more wait for the four-seat table 3: four seats and the extra one (BSOP 50).
    join(ids[13..].to_vec()).await;
    let r = app.post_form("/floor/tables/3/open", &s, &[]).await;
    assert_eq!(r.status, 303, "{}", r.text());
    let r = api_draw(&app, &token, "/api/v1/tables/3/draws", "seats_with_extra").await;
    assert_eq!(r.status, 201, "{}", r.text());
    let made = r.json();
    assert_eq!(made["draw"]["kind"], "seat_with_extra");
    assert_eq!(made["draw"]["table_id"], 3);
    let mut seats: Vec<i64> = made["seated"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["seat_no"].as_i64().unwrap())
        .collect();
    seats.sort();
    assert_eq!(seats, vec![1, 2, 3, 4, 5], "four seats and the extra one");
    let at3: i64 = app.with_conn(|c| {
        seatings::table
            .filter(seatings::table_id.eq(3))
            .filter(seatings::left_at.is_null())
            .count()
            .get_result(c)
            .unwrap()
    });
    assert_eq!(at3, 5);
    let id = made["draw"]["id"].as_i64().unwrap();
    let list = app.get("/api/v1/tables/3/draws", &token).await.json();
    assert!(
        list.as_array().unwrap().iter().any(|d| d["id"] == id),
        "{list}"
    );
    let replay = app
        .get(&format!("/api/v1/draws/{id}/replay"), &token)
        .await
        .json();
    assert_eq!(replay["matches"], true, "{replay}");
}
