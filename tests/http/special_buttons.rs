//! The special buttons Cucurucho and Macaca (BSOP 115, 116): the game's setting and its
//! bounds (3 to 5 big blinds, said with the rule in the reader's language); the starting seat
//! drawn as a recorded, replayable draw by the floor or the dealer, refused at a table that is
//! not open or running, drawn again only with a reason; the special hand when the dealer
//! button lands on or passes over the special button, once per orbit, with each player's
//! fixed contribution (seats marked in or out while it is played); the Macaca's result before
//! the next hand and her chips carried to her next hand; the totals in the report. Every
//! refusal changes nothing; every change is audited.

use crate::pages::{eligible_players, nl_game};
use crate::support::{TestApp, WebSession, ADMIN_PW, STAFF_PW};
use crate::tablets::{paired_room, Tablet};
use actix_web::cookie::Cookie;
use actix_web::test::TestRequest;
use cardroom::db::schema::{audit_log, seatings, special_buttons};
use cardroom::domain::draw::Draw;
use cardroom::domain::ids::TableId;
use diesel::prelude::*;
use serde_json::{json, Value};

/// NL 1/2 (blinds 1.00/2.00, buy-in 40–200) with its special buttons as `over` says.
fn nl_with(over: Value) -> Value {
    let mut g = json!({"name": "NL 1/2", "variant": "holdem_nl", "small_blind": 100, "big_blind": 200,
        "limit_class": "low", "buy_in_min": 4000, "buy_in_max": 20000});
    for (k, v) in over.as_object().unwrap() {
        g[k] = v.clone();
    }
    g
}

struct Room {
    app: TestApp,
    token: String,
    floor: WebSession,
    tablet: Tablet,
    dealer: WebSession,
    /// The players seated at table 1, seat `i + 1` for `players[i]`.
    players: Vec<i64>,
}

impl Room {
    /// A POST from table 1's tablet, signed in as dealer1.
    async fn tap(&self, uri: &str, fields: &[(&str, &str)]) -> crate::support::Resp {
        let mut form: Vec<(&str, &str)> = vec![("csrf", self.dealer.csrf.as_str())];
        form.extend_from_slice(fields);
        self.app
            .call(
                TestRequest::post()
                    .uri(uri)
                    .cookie(self.tablet.c())
                    .cookie(self.dealer.c())
                    .set_form(form)
                    .to_request(),
            )
            .await
    }

    /// The tablet's table view, in English or (`pt`) Portuguese.
    async fn view(&self, pt: bool) -> String {
        let mut req = TestRequest::get()
            .uri("/tablet/view")
            .cookie(self.tablet.c())
            .cookie(self.dealer.c());
        if pt {
            req = req.cookie(Cookie::new("cr_lang", "pt"));
        }
        self.app.call(req.to_request()).await.text()
    }

    async fn put_game(&self, over: Value) {
        let r = self
            .app
            .send_json("PUT", "/api/v1/games/1", &self.token, nl_with(over))
            .await;
        assert_eq!(r.status, 200, "{}", r.text());
    }

    async fn draw(&self, kind: &str, body: Value) -> crate::support::Resp {
        self.app
            .send_json(
                "POST",
                &format!("/api/v1/tables/1/special-buttons/{kind}/draw"),
                &self.token,
                body,
            )
            .await
    }

    /// The dealer's "new hand" tap through the API: the special game it starts, if any.
    async fn hand(&self) -> Option<String> {
        let r = self
            .app
            .send_json("POST", "/api/v1/tables/1/hands", &self.token, json!(null))
            .await;
        assert_eq!(r.status, 201, "{}", r.text());
        r.json()["special"].as_str().map(str::to_string)
    }

    async fn buttons(&self) -> Value {
        let r = self
            .app
            .get("/api/v1/tables/1/special-buttons", &self.token)
            .await;
        assert_eq!(r.status, 200, "{}", r.text());
        r.json()
    }

    fn seating(&self, seat: i32) -> i64 {
        self.app.with_conn(|c| {
            seatings::table
                .filter(seatings::table_id.eq(1))
                .filter(seatings::seat_no.eq(seat))
                .filter(seatings::left_at.is_null())
                .select(seatings::id)
                .first(c)
                .unwrap()
        })
    }

    /// The events pushed to table 1's tablet and the floor board, of one kind.
    fn events(&self, kind: &str) -> Vec<Value> {
        use cardroom::db::schema::events;
        self.app.with_conn(|c| {
            events::table
                .filter(events::table_id.eq(1))
                .filter(events::kind.eq(kind))
                .order(events::seq.asc())
                .select(events::payload)
                .load::<String>(c)
                .unwrap()
                .into_iter()
                .map(|p| serde_json::from_str(&p).unwrap())
                .collect()
        })
    }

    fn actions(&self, action: &str) -> Vec<(Value, Value)> {
        self.app.with_conn(|c| {
            audit_log::table
                .filter(audit_log::action.eq(action))
                .order(audit_log::seq.asc())
                .select((audit_log::before_json, audit_log::after_json))
                .load::<(String, String)>(c)
                .unwrap()
                .into_iter()
                .map(|(b, a)| {
                    (
                        serde_json::from_str(&b).unwrap_or(Value::Null),
                        serde_json::from_str(&a).unwrap_or(Value::Null),
                    )
                })
                .collect()
        })
    }
}

/// Table 1 of NL 1/2 open with a tablet (dealer1 signed in on it) and `n` players seated in
/// seats 1..=n (the table runs from the fourth).
async fn room(n: usize) -> Room {
    let app = TestApp::with_clock(true).await;
    let (token, floor, tablet) = paired_room(&app).await;
    app.create_staff("dealer1", "dealer");
    let dealer = app.web_login("dealer1", STAFF_PW).await;
    let players = eligible_players(&app, n);
    for (i, p) in players.iter().enumerate() {
        let r = app
            .send_json(
                "POST",
                &format!("/api/v1/tables/1/seats/{}", i + 1),
                &token,
                json!({ "player_id": p }),
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.text());
    }
    Room {
        app,
        token,
        floor,
        tablet,
        dealer,
        players,
    }
}

// ---------------------------------------------------------------------------------------------
// The game's setting
// ---------------------------------------------------------------------------------------------

#[actix_web::test]
async fn bsop_115_116_the_game_setting_is_off_by_default_and_its_contribution_3_to_5_big_blinds() {
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    let audit0 = app.audit_count();
    // Outside 3–5 big blinds: 422 naming the field and the rule, nothing saved.
    for (over, field, rule) in [
        (
            json!({"cucurucho": true, "cucurucho_bb": 6}),
            "cucurucho_bb",
            "BSOP 115",
        ),
        (json!({"cucurucho_bb": 2}), "cucurucho_bb", "BSOP 115"),
        (
            json!({"macaca": true, "macaca_bb": 2}),
            "macaca_bb",
            "BSOP 116",
        ),
        (
            json!({"macaca": true, "macaca_cap_bb": 9}),
            "macaca_cap_bb",
            "BSOP 116",
        ),
    ] {
        let r = app
            .send_json("POST", "/api/v1/games", &token, nl_with(over.clone()))
            .await;
        assert_eq!(r.status, 422, "{over}: {}", r.text());
        let f = &r.json()["error"]["fields"][0];
        assert_eq!(f["field"], field, "{over}");
        let msg = f["message"].as_str().unwrap();
        assert!(msg.starts_with(rule), "{msg}");
        assert!(msg.contains("big blinds"), "{msg}");
    }
    // In the reader's language.
    let r = app
        .call(
            TestRequest::post()
                .uri("/api/v1/games")
                .insert_header(("Authorization", format!("Bearer {token}")))
                .insert_header(("Accept-Language", "pt-PT"))
                .set_json(nl_with(json!({"cucurucho": true, "cucurucho_bb": 7})))
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 422);
    assert_eq!(
        r.json()["error"]["fields"][0]["message"],
        "BSOP 115: a contribuição fixa de cada jogador é de 3 a 5 big blinds (não 7)."
    );
    // A banked game has no dealer button to reach a special one.
    let q = json!({"name": "Q", "variant": "q_poker", "small_blind": 0, "big_blind": 0,
        "limit_class": "low", "buy_in_min": 4000, "macaca": true});
    let r = app.send_json("POST", "/api/v1/games", &token, q).await;
    assert_eq!(r.status, 422);
    let fields = r.json()["error"]["fields"].clone();
    assert!(
        fields
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["field"] == "macaca"),
        "{fields}"
    );
    assert_eq!(app.count("games"), 0, "nothing saved");
    assert_eq!(app.audit_count(), audit0, "a refusal records nothing");

    // Off by default, the usual figures ready.
    nl_game(&app, &token).await;
    let g = app.get("/api/v1/games/1", &token).await.json();
    assert_eq!(
        (
            &g["cucurucho"],
            &g["cucurucho_bb"],
            &g["macaca"],
            &g["macaca_bb"],
            &g["macaca_cap_bb"]
        ),
        (
            &json!(false),
            &json!(3),
            &json!(false),
            &json!(3),
            &json!(20)
        )
    );
    // Turned on: saved and audited; a change that does not name them keeps them.
    let r = app
        .send_json(
            "PUT",
            "/api/v1/games/1",
            &token,
            nl_with(
                json!({"cucurucho": true, "cucurucho_bb": 4, "macaca": true, "macaca_cap_bb": 25}),
            ),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["cucurucho_bb"], 4);
    let after: String = app.with_conn(|c| {
        audit_log::table
            .filter(audit_log::action.eq("game.update"))
            .select(audit_log::after_json)
            .first(c)
            .unwrap()
    });
    let after: Value = serde_json::from_str(&after).unwrap();
    assert_eq!(
        (&after["cucurucho"], &after["cucurucho_bb"]),
        (&json!(true), &json!(4))
    );
    let r = app
        .send_json(
            "PUT",
            "/api/v1/games/1",
            &token,
            nl_with(json!({"name": "NL 1/2 B"})),
        )
        .await;
    assert_eq!(r.status, 200);
    let g = r.json();
    assert_eq!(
        (
            &g["cucurucho"],
            &g["cucurucho_bb"],
            &g["macaca"],
            &g["macaca_cap_bb"]
        ),
        (&json!(true), &json!(4), &json!(true), &json!(25))
    );
    // A refused change leaves them.
    let audit1 = app.audit_count();
    let r = app
        .send_json(
            "PUT",
            "/api/v1/games/1",
            &token,
            nl_with(json!({"macaca_bb": 9})),
        )
        .await;
    assert_eq!(r.status, 422);
    assert_eq!(r.json()["error"]["fields"][0]["field"], "macaca_bb");
    assert_eq!(app.audit_count(), audit1);
    assert_eq!(
        app.get("/api/v1/games/1", &token).await.json()["macaca_bb"],
        3
    );

    // The admin's form: the boxes and figures shown, a figure outside refused beside its box
    // with the rule, nothing saved; unticked is off.
    let s = app.web_login("admin", ADMIN_PW).await;
    let edit = app.page("/admin/games/1", &s).await.text();
    assert!(edit.contains("id=\"special-buttons\""), "{edit}");
    assert!(
        edit.contains(r#"id="cucurucho" name="cucurucho" type="checkbox" value="true" checked"#)
    );
    assert!(edit.contains(r#"id="cucurucho_bb" name="cucurucho_bb" type="number""#));
    let form = |bb: &'static str| {
        vec![
            ("name", "NL 1/2 B"),
            ("variant", "holdem_nl"),
            ("limit_class", "low"),
            ("small_blind", "1"),
            ("big_blind", "2"),
            ("buy_in_min", "40"),
            ("buy_in_max", "200"),
            ("active", "true"),
            ("macaca", "true"),
            ("macaca_bb", bb),
            ("macaca_cap_bb", "20"),
            ("cucurucho_bb", "4"),
        ]
    };
    let audit2 = app.audit_count();
    let r = app.post_form("/admin/games/1", &s, &form("8")).await;
    assert_eq!(r.status, 422, "{}", r.text());
    let html = r.text();
    assert!(
        html.contains(r#"data-field="macaca_bb">BSOP 116: each player&#39;s fixed contribution is 3 to 5 big blinds (not 8).</div>"#),
        "{html}"
    );
    assert_eq!(app.audit_count(), audit2);
    let r = app.post_form("/admin/games/1", &s, &form("5")).await;
    assert_eq!(r.status, 303, "{}", r.text());
    let g = app.get("/api/v1/games/1", &token).await.json();
    assert_eq!(
        (&g["cucurucho"], &g["macaca"], &g["macaca_bb"]),
        (&json!(false), &json!(true), &json!(5)),
        "the Cucurucho's box was left unticked"
    );
}

// ---------------------------------------------------------------------------------------------
// The draw
// ---------------------------------------------------------------------------------------------

#[actix_web::test]
async fn bsop_115_116_the_starting_seat_is_a_recorded_draw_that_replays_and_is_redrawn_only_with_a_reason(
) {
    let r = room(6).await;
    let app = &r.app;
    let before = (app.audit_count(), app.count("draws"));
    // The game does not run it yet: refused, nothing recorded.
    let res = r.draw("cucurucho", json!({})).await;
    assert_eq!(res.status, 409, "{}", res.text());
    assert_eq!(res.error().0, "conflict");
    assert!(
        res.error().1.contains("does not run this button"),
        "{}",
        res.text()
    );
    assert_eq!((app.audit_count(), app.count("draws")), before);
    r.put_game(json!({"cucurucho": true, "macaca": true})).await;

    // A table that is not open or running: table 3, closed.
    let t = json!({"number": 3, "game_id": 1, "mode": "continuous", "seats": 9});
    assert_eq!(
        app.send_json("POST", "/api/v1/tables", &r.token, t)
            .await
            .status,
        201
    );
    let before = (app.audit_count(), app.count("draws"));
    let res = app
        .send_json(
            "POST",
            "/api/v1/tables/3/special-buttons/cucurucho/draw",
            &r.token,
            json!({}),
        )
        .await;
    assert_eq!(res.status, 409, "{}", res.text());
    assert!(res.error().1.contains("open or running"), "{}", res.text());
    // Nobody at table 2 (open): fewer than two players.
    let res = app
        .send_json(
            "POST",
            "/api/v1/tables/2/special-buttons/macaca/draw",
            &r.token,
            json!({}),
        )
        .await;
    assert_eq!(res.status, 409, "{}", res.text());
    // No such button.
    let res = r.draw("joker", json!({})).await;
    assert_eq!(res.status, 404);
    assert_eq!((app.audit_count(), app.count("draws")), before);
    assert_eq!(app.count("special_buttons"), 0);

    // The floor draws the Cucurucho (no body needed the first time).
    let res = app
        .call(
            TestRequest::post()
                .uri("/api/v1/tables/1/special-buttons/cucurucho/draw")
                .insert_header(("Authorization", format!("Bearer {}", r.token)))
                .to_request(),
        )
        .await;
    assert_eq!(res.status, 201, "{}", res.text());
    let d = res.json();
    let seat = d["button"]["seat"].as_i64().unwrap() as i32;
    let draw_id = d["draw_id"].as_i64().unwrap();
    assert!((1..=6).contains(&seat));
    assert_eq!(d["button"]["contribution"], 600, "3 big blinds of 2.00");
    assert_eq!(d["replaced_seat"], Value::Null);
    // Recorded with its seed, inputs and result: the seats drawn among with who sat there.
    let row = app.with_conn(|c| cardroom::services::draws::get(c, draw_id).unwrap());
    assert_eq!(
        (row.kind.as_str(), row.table_id),
        ("special_button", Some(TableId(1)))
    );
    let rec: Draw = serde_json::from_str(&row.inputs).unwrap();
    assert!(rec.verify());
    let Draw::SpecialButton { inputs, result, .. } = &rec else {
        panic!("a special button draw")
    };
    assert_eq!(inputs.button.as_str(), "cucurucho");
    let drawn_among: Vec<(i32, i64)> = inputs
        .seats
        .iter()
        .map(|a| (a.seat, a.player.get()))
        .collect();
    let expected: Vec<(i32, i64)> = (1..=6).zip(r.players.iter().copied()).collect();
    assert_eq!(drawn_among, expected);
    assert_eq!(result.seat, seat);
    // GET of the draw and its replay, through the API and on the floor's page.
    let g = app.get(&format!("/api/v1/draws/{draw_id}"), &r.token).await;
    assert_eq!(g.status, 200, "{}", g.text());
    let g = g.json();
    assert_eq!(
        (&g["kind"], &g["matches"]),
        (&json!("special_button"), &json!(true))
    );
    assert_eq!(g["record"]["result"]["seat"], seat);
    assert_eq!(g["seed"], rec.seed().to_string());
    let page = app
        .page(&format!("/draws/{draw_id}"), &r.floor)
        .await
        .text();
    assert!(page.contains("Special button (BSOP 115, 116)"), "{page}");
    assert!(
        page.contains(&format!("The Cucurucho starts on seat {seat}:")),
        "{page}"
    );
    assert!(page.contains(&format!("Cucurucho: seat {seat}")));
    assert!(page.contains("Replayed from its seed and inputs: the same result."));
    let winner = result.order[0];
    assert!(page.contains(&format!(
        "id=\"draw-player-{winner}\" class=\"draw-highlight\""
    )));
    // A tampered record no longer replays.
    app.with_conn(|c| {
        let mut v: Value = serde_json::from_str(&row.inputs).unwrap();
        v["result"]["seat"] = json!(if seat == 1 { 2 } else { 1 });
        diesel::update(cardroom::db::schema::draws::table.find(draw_id))
            .set(cardroom::db::schema::draws::inputs.eq(v.to_string()))
            .execute(c)
            .unwrap();
    });
    let g = app
        .get(&format!("/api/v1/draws/{draw_id}"), &r.token)
        .await
        .json();
    assert_eq!(g["matches"], false);
    app.with_conn(|c| {
        diesel::update(cardroom::db::schema::draws::table.find(draw_id))
            .set(cardroom::db::schema::draws::inputs.eq(&row.inputs))
            .execute(c)
            .unwrap();
    });
    // The draw is audited and pushed to the table.
    let (b, a) = r.actions("table.special_draw").pop().unwrap();
    assert_eq!(
        (b, &a["seat_no"], &a["draw_id"]),
        (Value::Null, &json!(seat), &json!(draw_id))
    );
    let pushed = r.events("table.special_button");
    assert_eq!(pushed.len(), 1);
    assert_eq!(
        (&pushed[0]["kind"], &pushed[0]["seat"]),
        (&json!("cucurucho"), &json!(seat))
    );

    // A dealer draws only at their own table (the one the floor assigned them).
    let dealer2 = app.staff_token("dealer2", "dealer").await;
    let before = (app.audit_count(), app.count("draws"));
    let res = app
        .send_json(
            "POST",
            "/api/v1/tables/1/special-buttons/cucurucho/draw",
            &dealer2,
            json!({"reason": "not mine"}),
        )
        .await;
    assert_eq!(res.status, 403, "{}", res.text());
    assert_eq!((app.audit_count(), app.count("draws")), before);
    app.assign_dealer(&dealer2, 1).await;

    // Drawn again without a reason: 422 naming it, nothing changed.
    let before = (app.audit_count(), app.count("draws"));
    let res = r.draw("cucurucho", json!({"reason": "  "})).await;
    assert_eq!(res.status, 422, "{}", res.text());
    assert_eq!(res.json()["error"]["fields"][0]["field"], "reason");
    assert_eq!((app.audit_count(), app.count("draws")), before);
    // With one: recorded, the reason and the seat before in the audit.
    let res = app
        .send_json(
            "POST",
            "/api/v1/tables/1/special-buttons/cucurucho/draw",
            &dealer2,
            json!({"reason": "button knocked off the table"}),
        )
        .await;
    assert_eq!(res.status, 201, "{}", res.text());
    let again = res.json();
    assert_eq!(again["replaced_seat"], seat);
    assert_eq!(again["button"]["reason"], "button knocked off the table");
    let (b, a) = r.actions("table.special_draw").pop().unwrap();
    assert_eq!(b["seat_no"], seat);
    assert_eq!(a["reason"], "button knocked off the table");
    assert_eq!(app.count("draws"), before.1 + 1);
    assert_eq!(
        app.with_conn(|c| special_buttons::table
            .filter(special_buttons::ended_at.is_null())
            .count()
            .get_result::<i64>(c)
            .unwrap()),
        1,
        "one Cucurucho in play"
    );
    let cuc = again["button"]["seat"].as_i64().unwrap();

    // The dealer draws the Macaca from the tablet: never on the Cucurucho's seat.
    let res = r.tap("/tablet/special/macaca/draw", &[]).await;
    assert_eq!(res.status, 303, "{}", res.text());
    let b = r.buttons().await;
    let mac = b["buttons"][1]["seat"].as_i64().unwrap();
    assert_eq!(b["buttons"][1]["kind"], "macaca");
    assert_ne!(mac, cuc);
    let view = r.view(false).await;
    assert!(
        view.contains(&format!(r#"id="special-macaca-seat">on seat {mac}</span>"#)),
        "{view}"
    );
    assert!(
        view.contains(&format!(r#"id="seat-special-cucurucho-{cuc}""#)),
        "{view}"
    );
    // From the tablet, again only with a reason.
    let before = (app.audit_count(), app.count("draws"));
    let res = r
        .tap("/tablet/special/macaca/draw", &[("reason", "")])
        .await;
    assert_eq!(res.status, 422, "{}", res.text());
    assert!(
        res.text().contains("Say why it is drawn again."),
        "{}",
        res.text()
    );
    assert_eq!((app.audit_count(), app.count("draws")), before);
    // The floor's panel offers both draws; drawing names the result.
    let panel = app.page("/floor/panel?table=1", &r.floor).await.text();
    assert!(
        panel.contains("/floor/tables/1/draw-special/macaca"),
        "{panel}"
    );
    let res = app
        .post_form(
            "/floor/tables/1/draw-special/macaca",
            &r.floor,
            &[("reason", "seat 2 asked for it")],
        )
        .await;
    assert_eq!(res.status, 303, "{}", res.text());
    let to = res.header("location").unwrap();
    assert!(to.starts_with("/floor?draw="), "{to}");
    let floor = app
        .page(&to.replace("#draw-result", ""), &r.floor)
        .await
        .text();
    assert!(floor.contains("The Macaca starts on seat"), "{floor}");
}

// ---------------------------------------------------------------------------------------------
// The special hand
// ---------------------------------------------------------------------------------------------

#[actix_web::test]
async fn bsop_115_the_special_hand_comes_when_the_dealer_button_reaches_the_cucurucho_once_per_orbit(
) {
    let r = room(6).await;
    let app = &r.app;
    r.put_game(json!({"cucurucho": true})).await;
    let d = r.draw("cucurucho", json!({})).await.json();
    let s = d["button"]["seat"].as_i64().unwrap() as usize;
    // Seats 1-6 taken: the button goes 1, 2, …, 6 and round; the hand whose button lands on
    // seat `s` is the Cucurucho's, and only that one.
    for n in 1..=6 {
        let special = r.hand().await;
        assert_eq!(
            special.as_deref() == Some("cucurucho"),
            n == s,
            "hand {n}, seat {s}"
        );
        if n == s {
            break;
        }
    }
    let b = r.buttons().await;
    let h = &b["hand"];
    assert_eq!(h["kind"], "cucurucho");
    assert_eq!(h["button_seat"], s);
    assert_eq!(h["dealer_seat"], s);
    assert_eq!(h["amount"], 600);
    assert_eq!(h["contributions"].as_array().unwrap().len(), 6);
    assert!(h["contributions"]
        .as_array()
        .unwrap()
        .iter()
        .all(|c| c["took_part"] == true && c["amount"] == 600));
    assert_eq!(h["total"], 3600);
    // Announced on the tablet, in English and in Portuguese.
    let view = r.view(false).await;
    assert!(view.contains("id=\"special-hand\""), "{view}");
    assert!(view.contains(&format!("Hand {s}: Cucurucho!")), "{view}");
    assert!(
        view.contains("Every player puts €6.00 in the pot."),
        "{view}"
    );
    assert!(
        view.contains("6 players take part · €36.00 in all"),
        "{view}"
    );
    let pt = r.view(true).await;
    assert!(pt.contains("Cada jogador põe 6,00 € no pote."), "{pt}");
    assert!(pt.contains("6 jogadores entram · 36,00 € no total"), "{pt}");
    // Audited with every contribution, and pushed.
    let (_, a) = r.actions("table.special_hand").pop().unwrap();
    assert_eq!(a["contributions"].as_array().unwrap().len(), 6);
    let pushed = r.events("table.special_hand");
    assert_eq!(pushed.len(), 1);
    assert_eq!(
        (
            &pushed[0]["kind"],
            &pushed[0]["hand"],
            &pushed[0]["amount"],
            &pushed[0]["players"]
        ),
        (&json!("cucurucho"), &json!(s), &json!(600), &json!(6))
    );

    // The player on the Cucurucho's seat goes away: the button skips the seat, and the move
    // that passes over it starts the next Cucurucho hand — one orbit later: the five present
    // seats, then the move past it — with that seat marked out.
    let away = r.seating(s as i32);
    let res = app
        .send_json(
            "POST",
            &format!("/api/v1/seatings/{away}/away"),
            &r.token,
            json!({}),
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.text());
    for n in 1..=6 {
        let special = r.hand().await;
        assert_eq!(
            special.as_deref() == Some("cucurucho"),
            n == 6,
            "tap {n} after"
        );
    }
    let h = r.buttons().await["hand"].clone();
    let landed = if s == 6 { 1 } else { s + 1 };
    assert_eq!(
        (&h["button_seat"], &h["dealer_seat"]),
        (&json!(s), &json!(landed))
    );
    let out: Vec<i64> = h["contributions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["took_part"] == false)
        .map(|c| c["seat"].as_i64().unwrap())
        .collect();
    assert_eq!(out, vec![s as i64], "the away player is out");
    assert_eq!(h["total"], 3000);

    // The dealer marks a seat out (and the away player in): audited; marking a seat as it
    // already is changes nothing.
    let id = h["id"].as_i64().unwrap();
    let other = if s == 1 { 2 } else { 1 };
    let audit0 = app.audit_count();
    let res = app
        .send_json(
            "POST",
            &format!("/api/v1/tables/1/special-hands/{id}/seats/{other}"),
            &r.token,
            json!({"took_part": false}),
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.text());
    assert_eq!(res.json()["total"], 2400);
    assert_eq!(app.audit_count(), audit0 + 1);
    let (b, a) = r.actions("table.special_contribution").pop().unwrap();
    assert_eq!(
        (&b["took_part"], &a["contribution"]["took_part"]),
        (&json!(true), &json!(false))
    );
    assert_eq!(r.events("table.special_contribution").len(), 1);
    let res = app
        .send_json(
            "POST",
            &format!("/api/v1/tables/1/special-hands/{id}/seats/{other}"),
            &r.token,
            json!({"took_part": false}),
        )
        .await;
    assert_eq!(res.status, 200);
    assert_eq!(app.audit_count(), audit0 + 1, "nothing to change");
    let res = r
        .tap(
            &format!("/tablet/special-hands/{id}/seats/{s}"),
            &[("took_part", "1")],
        )
        .await;
    assert_eq!(res.status, 303, "{}", res.text());
    assert_eq!(r.buttons().await["hand"]["total"], 3000);
    // A seat not in the hand: 404; another table's hand: 404.
    let res = app
        .send_json(
            "POST",
            &format!("/api/v1/tables/1/special-hands/{id}/seats/9"),
            &r.token,
            json!({"took_part": true}),
        )
        .await;
    assert_eq!(res.status, 404);
    let res = app
        .send_json(
            "POST",
            &format!("/api/v1/tables/2/special-hands/{id}/seats/1"),
            &r.token,
            json!({"took_part": true}),
        )
        .await;
    assert_eq!(res.status, 404);

    // The next hand ends it: an ordinary hand, and the special hand can no longer change.
    assert_eq!(r.hand().await, None);
    assert!(r.buttons().await["hand"].is_null());
    let audit1 = app.audit_count();
    let res = app
        .send_json(
            "POST",
            &format!("/api/v1/tables/1/special-hands/{id}/seats/{other}"),
            &r.token,
            json!({"took_part": true}),
        )
        .await;
    assert_eq!(res.status, 409, "{}", res.text());
    assert_eq!(app.audit_count(), audit1);
    // The table's special hands, newest first, with what was put.
    let list = app
        .get("/api/v1/tables/1/special-hands", &r.token)
        .await
        .json();
    let totals: Vec<i64> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["total"].as_i64().unwrap())
        .collect();
    assert_eq!(totals, vec![3000, 3600]);
    assert_eq!(list[0]["current"], false);

    // The totals in the report: the JSON, the page and the CSV agree.
    let rep = app.get("/api/v1/reports", &r.token).await;
    assert_eq!(rep.status, 200, "{}", rep.text());
    let rep = rep.json();
    assert_eq!(rep["totals"]["cucurucho_hands"], 2);
    assert_eq!(rep["totals"]["cucurucho_contributions"], 6600);
    assert_eq!(rep["totals"]["macaca_hands"], 0);
    assert_eq!(rep["tables"][0]["cucurucho_contributions"], 6600);
    let page = app.page("/floor/reports", &r.floor).await.text();
    assert!(page.contains("id=\"report-special-card\""), "{page}");
    assert!(
        page.contains(r#"id="report-total-cucurucho" data-minor="6600">€66.00</td>"#),
        "{page}"
    );
    assert!(page.contains(r#"id="report-total-cucurucho-hands">2</td>"#));
    let csv = app
        .page("/floor/reports.csv?part=tables", &r.floor)
        .await
        .text();
    let mut rd = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(csv.as_bytes());
    let rows: Vec<Vec<String>> = rd
        .records()
        .map(|x| x.unwrap().iter().map(str::to_string).collect())
        .collect();
    let col = |name: &str| {
        rows[0]
            .iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("{name} in {:?}", rows[0]))
    };
    let total = rows.last().unwrap();
    assert_eq!(total[col("Cucurucho hands")], "2");
    assert_eq!(total[col("Cucurucho contributions (EUR)")], "66.00");
    assert_eq!(total[col("Macaca hands")], "0");
}

#[actix_web::test]
async fn bsop_116_the_macaca_result_comes_before_the_next_hand_and_her_chips_wait_for_her_next_hand(
) {
    let r = room(6).await;
    let app = &r.app;
    // Each player 3 big blinds (6.00); she is all in for at most 10 big blinds (20.00).
    r.put_game(json!({"macaca": true, "macaca_cap_bb": 10}))
        .await;
    let m = r.draw("macaca", json!({})).await.json()["button"]["seat"]
        .as_i64()
        .unwrap() as usize;
    for _ in 1..m {
        assert_eq!(r.hand().await, None);
    }
    assert_eq!(r.hand().await.as_deref(), Some("macaca"));
    let h = r.buttons().await["hand"].clone();
    let id = h["id"].as_i64().unwrap();
    assert_eq!(h["total"], 3600);
    assert_eq!(
        (
            &h["macaca"]["bank_before"],
            &h["macaca"]["cap"],
            &h["macaca"]["stake"],
            &h["macaca"]["aside"]
        ),
        (&json!(0), &json!(2000), &json!(2000), &json!(1600))
    );
    let view = r.view(false).await;
    assert!(view.contains("Macaca!"), "{view}");
    assert!(
        view.contains("Every player puts €6.00 for the Macaca."),
        "{view}"
    );
    assert!(
        view.contains("The Macaca is all in for €20.00. €16.00 wait aside for her next hand."),
        "{view}"
    );
    assert!(view.contains("id=\"macaca-form\""));

    // The next hand waits for her result: refused, nothing counted.
    let (hands, audit0) = (app.count("hands"), app.audit_count());
    let res = app
        .send_json("POST", "/api/v1/tables/1/hands", &r.token, json!(null))
        .await;
    assert_eq!(res.status, 409, "{}", res.text());
    assert!(
        res.error().1.contains("Record her result"),
        "{}",
        res.text()
    );
    // A win without what she collected, a loss that collects: 422 on `collected`.
    let uri = format!("/api/v1/tables/1/special-hands/{id}/macaca-result");
    for body in [
        json!({"outcome": "won"}),
        json!({"outcome": "lost", "collected": 500}),
        json!({"outcome": "won", "collected": 0}),
    ] {
        let res = app.send_json("POST", &uri, &r.token, body.clone()).await;
        assert_eq!(res.status, 422, "{body}: {}", res.text());
        assert_eq!(res.json()["error"]["fields"][0]["field"], "collected");
    }
    assert_eq!((app.count("hands"), app.audit_count()), (hands, audit0));

    // She loses (from the tablet): the 16.00 aside are hers for the next Macaca hand.
    let res = r
        .tap(
            &format!("/tablet/special-hands/{id}/macaca"),
            &[("outcome", "lost")],
        )
        .await;
    assert_eq!(res.status, 303, "{}", res.text());
    let b = r.buttons().await;
    assert_eq!(b["buttons"][0]["bank"], 1600);
    assert_eq!(
        (
            &b["hand"]["macaca"]["outcome"],
            &b["hand"]["macaca"]["bank_after"]
        ),
        (&json!("lost"), &json!(1600))
    );
    // Corrected before the next hand: she won 50.00 (audited, both kept).
    let res = app
        .send_json(
            "POST",
            &uri,
            &r.token,
            json!({"outcome": "won", "collected": 5000}),
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.text());
    assert_eq!(res.json()["macaca"]["bank_after"], 6600);
    let results = r.actions("table.macaca_result");
    assert_eq!(results.len(), 2);
    assert_eq!(
        (&results[1].0["outcome"], &results[1].1["outcome"]),
        (&json!("lost"), &json!("won"))
    );
    assert_eq!(r.buttons().await["buttons"][0]["bank"], 6600);
    let view = r.view(false).await;
    assert!(
        view.contains("She keeps €66.00 for her next hand."),
        "{view}"
    );

    // The next hand may come; the result is then final.
    assert_eq!(r.hand().await, None);
    let res = app
        .send_json("POST", &uri, &r.token, json!({"outcome": "lost"}))
        .await;
    assert_eq!(res.status, 409);
    // One orbit later: she plays the 66.00 she kept — nobody contributes — all in for her cap.
    for _ in 2..6 {
        assert_eq!(r.hand().await, None);
    }
    assert_eq!(r.hand().await.as_deref(), Some("macaca"));
    let h = r.buttons().await["hand"].clone();
    assert!(h["contributions"].as_array().unwrap().is_empty());
    assert_eq!(
        (
            &h["macaca"]["bank_before"],
            &h["macaca"]["stake"],
            &h["macaca"]["aside"]
        ),
        (&json!(6600), &json!(2000), &json!(4600))
    );
    let pt = r.view(true).await;
    assert!(
        pt.contains("A Macaca joga os 66,00 € que guardou: desta vez ninguém põe nada."),
        "{pt}"
    );
    let id2 = h["id"].as_i64().unwrap();
    let res = app
        .send_json(
            "POST",
            &format!("/api/v1/tables/1/special-hands/{id2}/macaca-result"),
            &r.token,
            json!({"outcome": "lost"}),
        )
        .await;
    assert_eq!(res.json()["macaca"]["bank_after"], 4600);
    assert_eq!(r.buttons().await["buttons"][0]["bank"], 4600);
    // The report counts two Macaca hands and the 36.00 the players put in the first.
    assert_eq!(r.hand().await, None);
    let rep = app.get("/api/v1/reports", &r.token).await.json();
    assert_eq!(
        (
            &rep["totals"]["macaca_hands"],
            &rep["totals"]["macaca_contributions"]
        ),
        (&json!(2), &json!(3600))
    );
}

#[actix_web::test]
async fn bsop_115_116_one_move_reaching_both_buttons_plays_the_first_and_the_other_next() {
    let r = room(6).await;
    let app = &r.app;
    r.put_game(json!({"cucurucho": true, "macaca": true})).await;
    assert_eq!(r.draw("cucurucho", json!({})).await.status, 201);
    assert_eq!(r.draw("macaca", json!({})).await.status, 201);
    // Put them on seats 3 (Cucurucho) and 4 (Macaca), the player of seat 3 away.
    app.with_conn(|c| {
        for (kind, seat) in [("cucurucho", 3), ("macaca", 4)] {
            diesel::update(
                special_buttons::table
                    .filter(special_buttons::kind.eq(kind))
                    .filter(special_buttons::ended_at.is_null()),
            )
            .set(special_buttons::seat_no.eq(seat))
            .execute(c)
            .unwrap();
        }
    });
    let away = r.seating(3);
    assert_eq!(
        app.send_json(
            "POST",
            &format!("/api/v1/seatings/{away}/away"),
            &r.token,
            json!({})
        )
        .await
        .status,
        200
    );
    // Hands 1 and 2: the button on seats 1 and 2. Hand 3: 2 → 4, over the Cucurucho onto the
    // Macaca: the Cucurucho (first clockwise) plays, the Macaca waits for the next hand.
    assert_eq!(r.hand().await, None);
    assert_eq!(r.hand().await, None);
    assert_eq!(r.hand().await.as_deref(), Some("cucurucho"));
    let b = r.buttons().await;
    assert_eq!(
        (&b["buttons"][0]["pending"], &b["buttons"][1]["pending"]),
        (&json!(false), &json!(true))
    );
    assert!(r.view(false).await.contains("id=\"special-macaca-next\""));
    assert_eq!(r.hand().await.as_deref(), Some("macaca"));
    let b = r.buttons().await;
    assert_eq!(b["buttons"][1]["pending"], false);
    assert_eq!(b["hand"]["dealer_seat"], 5);
    let (_, a) = r.actions("table.special_hand").first().cloned().unwrap();
    assert_eq!(a["waiting"], json!(["macaca"]));
}

#[actix_web::test]
async fn bsop_115_116_a_table_closed_and_opened_again_starts_without_its_special_buttons() {
    let r = room(4).await;
    let app = &r.app;
    r.put_game(json!({"macaca": true})).await;
    let m = r.draw("macaca", json!({})).await.json()["button"]["seat"]
        .as_i64()
        .unwrap() as usize;
    for _ in 1..m {
        assert_eq!(r.hand().await, None);
    }
    assert_eq!(r.hand().await.as_deref(), Some("macaca"));
    // Two players leave during the Macaca's hand, her result never recorded: below the
    // minimum the table is suspended, and closes 15 minutes later (PT-2007 24).
    for seat in [1, 2] {
        let id = r.seating(seat);
        let res = app
            .send_json(
                "POST",
                &format!("/api/v1/seatings/{id}/leave"),
                &r.token,
                json!({"reason": "left"}),
            )
            .await;
        assert_eq!(res.status, 200, "{}", res.text());
    }
    let res = app
        .send_json(
            "POST",
            "/api/v1/test/clock/advance",
            &r.token,
            json!({"minutes": 16}),
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.text());
    let now = app.state.clock.now();
    app.with_conn(|c| {
        app.state
            .db
            .write(c, |c| {
                let act = cardroom::services::Acting::system(now).in_room(c)?;
                cardroom::services::floor::tick(c, &act)
            })
            .expect("tick")
    });
    let table = app.get("/api/v1/tables", &r.token).await.json();
    assert_eq!(table[0]["state"], "closed", "{table}");
    // Opened again with four new players: no button in play, and the old hand waits for
    // nothing.
    let res = app
        .send_json("POST", "/api/v1/tables/1/open", &r.token, json!({}))
        .await;
    assert!(res.status < 300, "{}", res.text());
    for (i, p) in eligible_players_from(app, 4, 100).iter().enumerate() {
        let res = app
            .send_json(
                "POST",
                &format!("/api/v1/tables/1/seats/{}", i + 1),
                &r.token,
                json!({ "player_id": p }),
            )
            .await;
        assert_eq!(res.status, 201, "{}", res.text());
    }
    let b = r.buttons().await;
    assert_eq!(b["buttons"][0]["seat"], Value::Null, "{b}");
    assert!(r.view(false).await.contains("not drawn yet"));
    assert_eq!(r.hand().await, None);
    // Drawn for the new opening without a reason.
    assert_eq!(r.draw("macaca", json!({})).await.status, 201);
    assert_eq!(
        app.with_conn(|c| special_buttons::table
            .filter(special_buttons::ended_at.is_null())
            .count()
            .get_result::<i64>(c)
            .unwrap()),
        1
    );
}

/// `n` more eligible players, their documents numbered from `from` (beside those of
/// [`eligible_players`]).
fn eligible_players_from(app: &TestApp, n: usize, from: usize) -> Vec<i64> {
    let now = app.state.clock.now();
    let photo =
        cardroom::services::photo::process(&cardroom::services::photo::generated_portrait(5))
            .unwrap();
    (from..from + n)
        .map(|i| {
            let input = cardroom::domain::player::PlayerInput {
                full_name: format!("Button Player {i}"),
                date_of_birth: chrono::NaiveDate::from_ymd_opt(1980, 1, 1).unwrap(),
                doc_kind: cardroom::domain::player::DocumentKind::Passport,
                doc_number: format!("BUTTON{i:04}"),
                doc_country: "PT".into(),
                doc_expiry: chrono::NaiveDate::from_ymd_opt(2035, 1, 1).unwrap(),
                phone: None,
                email: None,
                language: cardroom::domain::player::Language::Pt,
                notify: cardroom::domain::player::NotifyPref::None,
                alias: format!("BP{i}"),
            };
            app.with_conn(|c| {
                let act = cardroom::services::Acting::system(now)
                    .in_room(c)
                    .expect("room");
                cardroom::services::players::create(c, &act, &input, Some(&photo))
                    .unwrap()
                    .0
                    .id
                    .get()
            })
        })
        .collect()
}
