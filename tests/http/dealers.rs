//! The dealers' night: a dealer deals at one table at a time — the floor's assignment is
//! refused while they deal elsewhere, a dealer taking a table leaves the other one, and two
//! floor managers placing the same dealer at once leave one shift.

use crate::support::*;
use actix_web::test;
use cardroom::domain::ids::TableId;
use diesel::prelude::*;
use serde_json::{json, Value};

pub(crate) async fn send(app: &TestApp, uri: &str, token: &str, body: Value, lang: &str) -> Resp {
    let req = test::TestRequest::post()
        .uri(uri)
        .insert_header(("Authorization", format!("Bearer {token}")))
        .insert_header(("Accept-Language", lang))
        .set_json(body)
        .to_request();
    app.call(req).await
}

pub(crate) struct Night {
    pub(crate) app: TestApp,
    pub(crate) admin: String,
    pub(crate) tables: [i64; 2],
    pub(crate) dealer: i64,
}

pub(crate) async fn night() -> Night {
    let app = TestApp::with_clock(true).await;
    let admin = app.admin_token().await;
    let g = json!({"name": "NLH 1/2", "variant": "holdem_nl", "small_blind": 100,
        "big_blind": 200, "limit_class": "low", "buy_in_min": 4000, "buy_in_max": 20000,
        "seats": 10});
    let game = send(&app, "/api/v1/games", &admin, g, "en").await;
    assert_eq!(game.status, 201, "{}", game.text());
    let game = game.json()["id"].as_i64().unwrap();
    let mut tables = [0; 2];
    for (i, number) in [101, 102].into_iter().enumerate() {
        let body = json!({"number": number, "game_id": game, "mode": "continuous"});
        let r = send(&app, "/api/v1/tables", &admin, body, "en").await;
        assert_eq!(r.status, 201, "{}", r.text());
        tables[i] = r.json()["id"].as_i64().unwrap();
    }
    let token = app.staff_token("dealer1", "dealer").await;
    let dealer = app.get("/api/v1/me", &token).await.json()["id"]
        .as_i64()
        .unwrap();
    Night {
        app,
        admin,
        tables,
        dealer,
    }
}

impl Night {
    pub(crate) async fn assign(&self, table: i64, lang: &str) -> Resp {
        send(
            &self.app,
            &format!("/api/v1/tables/{table}/dealer"),
            &self.admin,
            json!({ "dealer_id": self.dealer }),
            lang,
        )
        .await
    }

    /// The dealer's open shifts: (table, shift id).
    fn open_shifts(&self) -> Vec<(i64, i64)> {
        use cardroom::db::schema::dealer_shifts::dsl as d;
        self.app.with_conn(|c| {
            d::dealer_shifts
                .filter(d::dealer_id.eq(self.dealer))
                .filter(d::ended_at.is_null())
                .select((d::table_id, d::id))
                .load::<(i64, i64)>(c)
                .unwrap()
        })
    }
}

#[actix_web::test]
async fn a_dealer_dealing_at_one_table_is_not_assigned_to_another() {
    let n = night().await;
    let [t1, t2] = n.tables;
    let first = n.assign(t1, "en").await;
    assert_eq!(first.status, 201, "{}", first.text());
    let shift = first.json()["id"].as_i64().unwrap();
    let before = (n.app.audit_count(), n.app.count("dealer_shifts"));
    for (lang, says) in [
        ("en", "is dealing at table 101"),
        ("pt", "está a dar cartas na mesa 101"),
    ] {
        let r = n.assign(t2, lang).await;
        assert_eq!(r.status, 409, "{}", r.text());
        assert_eq!(r.json()["error"]["reason"], "dealer_dealing_elsewhere");
        assert!(r.error().1.contains(says), "{lang}: {}", r.text());
        assert!(r.error().1.contains("dealer1"), "{}", r.text());
    }
    assert_eq!(
        (n.app.audit_count(), n.app.count("dealer_shifts")),
        before,
        "nothing written"
    );
    assert_eq!(n.open_shifts(), vec![(t1, shift)]);
    // At the same table again: the same shift goes on.
    let again = n.assign(t1, "en").await;
    assert_eq!(again.status, 201, "{}", again.text());
    assert_eq!(again.json()["id"], shift);
}

#[actix_web::test]
async fn a_dealer_who_takes_another_table_leaves_the_first() {
    let n = night().await;
    let [t1, t2] = n.tables;
    assert_eq!(n.assign(t1, "en").await.status, 201);
    // The dealer's own tap at table 102 (the tablet keeps the shift of whoever deals).
    let now = n.app.state.clock.now();
    let shift = n.app.with_conn(|c| {
        n.app
            .state
            .db
            .write(c, |c| {
                let mut act = cardroom::services::Acting::system(now)
                    .in_room(c)
                    .expect("room");
                act.actor.id = Some(n.dealer);
                cardroom::services::cagnotte::begin_shift(c, &act, TableId(t2), n.dealer)
            })
            .expect("shift")
    });
    assert_eq!(n.open_shifts(), vec![(t2, shift.id)]);
    // The floor may now place them back at 101 only by relieving them at 102 first.
    assert_eq!(n.assign(t1, "en").await.status, 409);
}

#[actix_web::test]
async fn two_floor_managers_placing_one_dealer_at_two_tables_at_once_leave_one_shift() {
    for _ in 0..5 {
        let n = night().await;
        let [t1, t2] = n.tables;
        let (a, b) = futures_util::join!(n.assign(t1, "en"), n.assign(t2, "en"));
        let mut statuses = [a.status, b.status];
        statuses.sort();
        assert_eq!(statuses, [201, 409], "{} / {}", a.text(), b.text());
        let open = n.open_shifts();
        assert_eq!(open.len(), 1, "{open:?}");
        let won = if a.status == 201 { t1 } else { t2 };
        assert_eq!(open[0].0, won);
    }
}

async fn put_room(app: &TestApp, token: &str, room: &Value, lang: &str) -> Resp {
    let req = test::TestRequest::put()
        .uri("/api/v1/room")
        .insert_header(("Authorization", format!("Bearer {token}")))
        .insert_header(("Accept-Language", lang))
        .set_json(room)
        .to_request();
    app.call(req).await
}

#[actix_web::test]
async fn the_room_sets_its_push_rules_and_a_rule_without_a_break_is_refused() {
    let app = TestApp::new().await;
    let admin = app.admin_token().await;
    let room = app.get("/api/v1/room", &admin).await.json();
    // A room stored before the setting reads 30-minute downs, 20-minute breaks after 3.
    assert_eq!(room["profile"]["push_down_min"], 30);
    assert_eq!(room["profile"]["push_break_min"], 20);
    assert_eq!(room["profile"]["push_break_after_downs"], 3);
    assert_eq!(room["profile"]["push_break_after_min"], 0);
    let before = app.audit_count();
    let refusals = [
        (
            "push_down_min",
            json!(5),
            "push_down_range",
            "turno de mesa dura",
            "A down lasts",
        ),
        (
            "push_break_min",
            json!(61),
            "push_break_range",
            "Uma pausa dura",
            "A break lasts",
        ),
        (
            "push_break_after_downs",
            json!(0),
            "push_no_break",
            "12 horas",
            "12-hour",
        ),
        ("push_break_after_min", json!(-1), "range", "", ""),
    ];
    for (field, value, code, pt, en) in refusals {
        let mut bad = room.clone();
        bad["profile"][field] = value;
        for (lang, says) in [("pt-PT", pt), ("en", en)] {
            let r = put_room(&app, &admin, &bad, lang).await;
            assert_eq!(r.status, 422, "{field}: {}", r.text());
            let e = &r.json()["error"]["fields"][0];
            let named = if code == "push_no_break" {
                "push_break_after_downs"
            } else {
                field
            };
            assert_eq!(e["field"], named, "{}", r.text());
            assert_eq!(e["code"], code, "{}", r.text());
            assert!(
                e["message"].as_str().unwrap().contains(says),
                "{lang}: {}",
                r.text()
            );
        }
    }
    // A break after 10 hours of one-hour downs is past a night's 12 hours only by the time
    // rule: refused; a break after 2 hours, accepted.
    let mut long = room.clone();
    long["profile"]["push_down_min"] = json!(60);
    long["profile"]["push_break_after_downs"] = json!(13);
    assert_eq!(put_room(&app, &admin, &long, "en").await.status, 422);
    assert_eq!(app.audit_count(), before, "nothing saved");
    let mut good = room.clone();
    good["profile"]["push_down_min"] = json!(25);
    good["profile"]["push_break_min"] = json!(15);
    good["profile"]["push_break_after_downs"] = json!(0);
    good["profile"]["push_break_after_min"] = json!(120);
    let r = put_room(&app, &admin, &good, "en").await;
    assert_eq!(r.status, 200, "{}", r.text());
    let saved = app.get("/api/v1/room", &admin).await.json();
    assert_eq!(saved["profile"]["push_down_min"], 25);
    assert_eq!(saved["profile"]["push_break_after_min"], 120);
    assert_eq!(app.audit_count(), before + 1);
}

pub(crate) async fn night_of(app: &TestApp, token: &str) -> Value {
    app.get("/api/v1/dealers/night", token).await.json()
}

pub(crate) async fn staff_post(app: &TestApp, uri: &str, token: &str, lang: &str) -> Resp {
    send(app, uri, token, json!({}), lang).await
}

/// Opens a table (through the API, as the floor would).
pub(crate) async fn open(app: &TestApp, admin: &str, table: i64) {
    let r = send(
        app,
        &format!("/api/v1/tables/{table}/open"),
        admin,
        json!({}),
        "en",
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
}

#[actix_web::test]
async fn a_dealer_clocks_in_takes_a_break_comes_back_and_clocks_out() {
    let n = night().await;
    let me = n.app.api_login("dealer1", STAFF_PW).await;
    let id = n.dealer;

    let state = |j: &Value| -> String {
        j["dealers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["id"] == id)
            .map(|d| d["state"].as_str().unwrap().to_string())
            .unwrap()
    };
    assert_eq!(state(&night_of(&n.app, &me).await), "off");
    // Not clocked in: no break; refused in the dealer's language, nothing written.
    let before = n.app.audit_count();
    let r = staff_post(&n.app, &format!("/api/v1/dealers/{id}/break"), &me, "pt-PT").await;
    assert_eq!(r.status, 409, "{}", r.text());
    assert_eq!(r.json()["error"]["reason"], "dealer_not_in");
    assert!(
        r.error().1.contains("não tem a entrada registada"),
        "{}",
        r.text()
    );
    assert_eq!(n.app.audit_count(), before);
    let r = staff_post(&n.app, &format!("/api/v1/dealers/{id}/clock-in"), &me, "en").await;
    assert_eq!(r.status, 201, "{}", r.text());
    assert_eq!(state(&night_of(&n.app, &me).await), "available");
    let r = staff_post(&n.app, &format!("/api/v1/dealers/{id}/clock-in"), &me, "en").await;
    assert_eq!(r.status, 409);
    assert_eq!(r.json()["error"]["reason"], "dealer_already_in");
    // Dealing: no break until relieved.
    let [t1, _] = n.tables;
    open(&n.app, &n.admin, t1).await;
    assert_eq!(n.assign(t1, "en").await.status, 201);
    let j = night_of(&n.app, &me).await;
    assert_eq!(state(&j), "dealing");
    let table = j["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == t1)
        .unwrap()
        .clone();
    assert_eq!(table["dealer"], "dealer1");
    let r = staff_post(&n.app, &format!("/api/v1/dealers/{id}/break"), &me, "en").await;
    assert_eq!(r.status, 409);
    assert!(
        r.error().1.contains("is dealing at table 101"),
        "{}",
        r.text()
    );
    let r = staff_post(
        &n.app,
        &format!("/api/v1/tables/{t1}/shift/end"),
        &n.admin,
        "en",
    )
    .await;
    assert_eq!(r.status, 204, "{}", r.text());
    let r = staff_post(&n.app, &format!("/api/v1/dealers/{id}/break"), &me, "en").await;
    assert_eq!(r.status, 201, "{}", r.text());
    assert_eq!(state(&night_of(&n.app, &me).await), "on_break");
    let r = staff_post(&n.app, &format!("/api/v1/dealers/{id}/back"), &me, "en").await;
    assert_eq!(r.status, 200, "{}", r.text());
    let r = staff_post(&n.app, &format!("/api/v1/dealers/{id}/back"), &me, "en").await;
    assert_eq!(r.json()["error"]["reason"], "dealer_not_on_break");
    // A dealer acts for themselves only.
    let other = n.app.staff_token("dealer2", "dealer").await;
    let r = staff_post(
        &n.app,
        &format!("/api/v1/dealers/{id}/clock-out"),
        &other,
        "en",
    )
    .await;
    assert_eq!(r.status, 403, "{}", r.text());
    let r = staff_post(
        &n.app,
        &format!("/api/v1/dealers/{id}/clock-out"),
        &me,
        "en",
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(r.json()["until"].is_string());
    assert_eq!(state(&night_of(&n.app, &me).await), "off");
    // The floor's token may act for any dealer; a staff id that is no dealer is a 422.
    let r = staff_post(&n.app, "/api/v1/dealers/1/clock-in", &n.admin, "en").await;
    assert_eq!(r.status, 422, "{}", r.text());
}

#[actix_web::test]
async fn the_night_proposes_a_dealer_for_a_table_without_one_and_nobody_off() {
    let n = night().await;
    let [t1, t2] = n.tables;
    open(&n.app, &n.admin, t1).await;
    open(&n.app, &n.admin, t2).await;
    // dealer1 deals at 101 (clocked in by the assignment); dealer2 is off, dealer3 in.
    assert_eq!(n.assign(t1, "en").await.status, 201);
    n.app.create_staff("dealer2", "dealer");
    let d3 = n.app.staff_token("dealer3", "dealer").await;
    let d3_id = n.app.get("/api/v1/me", &d3).await.json()["id"]
        .as_i64()
        .unwrap();
    let r = staff_post(
        &n.app,
        &format!("/api/v1/dealers/{d3_id}/clock-in"),
        &d3,
        "en",
    )
    .await;
    assert_eq!(r.status, 201);
    let d4 = n.app.staff_token("dealer4", "dealer").await;
    let d4_id = n.app.get("/api/v1/me", &d4).await.json()["id"]
        .as_i64()
        .unwrap();
    let r = staff_post(
        &n.app,
        &format!("/api/v1/dealers/{d4_id}/clock-in"),
        &d4,
        "en",
    )
    .await;
    assert_eq!(r.status, 201);
    let j = n.app.get("/api/v1/dealers/night", &n.admin).await.json();
    assert_eq!(j["rules"]["down_min"], 30);
    let pushes = j["pushes"].as_array().unwrap();
    // Table 102 has nobody: dealer3 goes there now; dealer2, off, is never proposed.
    assert_eq!(pushes[0]["table"], 102, "{j}");
    assert_eq!(pushes[0]["incoming"], "dealer3");
    assert!(pushes[0]["outgoing"].is_null());
    assert!(pushes.iter().all(|p| p["incoming"] != "dealer2"), "{j}");
    // Table 101's down is up in 30 minutes: dealer4, off the tables since clocking in,
    // relieves dealer1, who is due no break yet.
    let at_101: Vec<&Value> = pushes.iter().filter(|p| p["table"] == 101).collect();
    assert!(!at_101.is_empty(), "{j}");
    assert_eq!(at_101[0]["incoming"], "dealer4", "{j}");
    assert_eq!(at_101[0]["outgoing"], "dealer1");
    assert_eq!(at_101[0]["next"], "available");
    assert_eq!(at_101[0]["late"], false);
    let dealers = j["dealers"].as_array().unwrap();
    let off = dealers.iter().find(|d| d["name"] == "dealer2").unwrap();
    assert_eq!(off["state"], "off");
}
