//! The push: the floor sends a dealer to a table (the night's proposal accepted, or another
//! dealer chosen); the relieved dealer goes to a break when one is due, or is free; the
//! table's binding follows the down; refusals change nothing.

use super::dealers::{night, night_of, open, send, staff_post, Night};
use crate::support::*;
use cardroom::db::schema::audit_log::dsl as a;
use chrono::Duration;
use diesel::prelude::*;
use serde_json::{json, Value};

/// A dealer clocked in by their own token: (token, id).
async fn clocked_in(app: &TestApp, name: &str) -> (String, i64) {
    let t = app.staff_token(name, "dealer").await;
    let id = app.get("/api/v1/me", &t).await.json()["id"]
        .as_i64()
        .unwrap();
    let r = staff_post(app, &format!("/api/v1/dealers/{id}/clock-in"), &t, "en").await;
    assert_eq!(r.status, 201, "{}", r.text());
    (t, id)
}

async fn push(n: &Night, body: Value, lang: &str) -> Resp {
    send(&n.app, "/api/v1/dealers/push", &n.admin, body, lang).await
}

fn state_of(j: &Value, id: i64) -> String {
    j["dealers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["id"] == id)
        .map(|d| d["state"].as_str().unwrap().to_string())
        .unwrap()
}

fn last_push(app: &TestApp) -> Value {
    let after: String = app.with_conn(|c| {
        a::audit_log
            .filter(a::action.eq("dealer.push"))
            .order(a::seq.desc())
            .select(a::after_json)
            .first(c)
            .unwrap()
    });
    serde_json::from_str(&after).unwrap()
}

#[actix_web::test]
async fn refused_pushes_say_why_in_the_users_language_and_change_nothing() {
    let n = night().await;
    let [t1, t2] = n.tables;
    open(&n.app, &n.admin, t1).await;
    open(&n.app, &n.admin, t2).await;
    assert_eq!(n.assign(t1, "en").await.status, 201);
    n.app.create_staff("dealer2", "dealer");
    let d2: i64 = n.app.with_conn(|c| {
        use cardroom::db::schema::staff::dsl as s;
        s::staff
            .filter(s::username.eq("dealer2"))
            .select(s::id)
            .first(c)
            .unwrap()
    });
    // A table with no game.
    let closed = send(
        &n.app,
        "/api/v1/tables",
        &n.admin,
        json!({"number": 103, "mode": "continuous"}),
        "en",
    )
    .await;
    assert_eq!(closed.status, 201, "{}", closed.text());
    let closed = closed.json()["id"].as_i64().unwrap();
    let before = (n.app.audit_count(), n.app.count("dealer_shifts"));
    let cases = [
        (
            t2,
            d2,
            "dealer_not_in",
            "dealer2 is not clocked in",
            "dealer2 não tem a entrada registada",
        ),
        (
            t2,
            n.dealer,
            "dealer_dealing_elsewhere",
            "dealer1 is dealing at table 101",
            "dealer1 está a dar cartas na mesa 101",
        ),
        (
            t1,
            n.dealer,
            "dealer_already_here",
            "dealer1 is already dealing at table 101",
            "dealer1 já está a dar cartas na mesa 101",
        ),
        (
            closed,
            n.dealer,
            "dealer_table_not_in_play",
            "Table 103 has no game",
            "A mesa 103 não tem jogo",
        ),
    ];
    for (table, dealer, reason, en, pt) in cases {
        for (lang, says) in [("en", en), ("pt-PT", pt)] {
            let r = push(&n, json!({"table_id": table, "dealer_id": dealer}), lang).await;
            assert_eq!(r.status, 409, "{reason}: {}", r.text());
            assert_eq!(r.json()["error"]["reason"], reason);
            assert!(r.error().1.contains(says), "{lang}: {}", r.text());
        }
    }
    // Not a dealer; no such table.
    let r = push(&n, json!({"table_id": t2, "dealer_id": 1}), "en").await;
    assert_eq!(r.status, 422, "{}", r.text());
    let r = push(&n, json!({"table_id": 999_999, "dealer_id": d2}), "en").await;
    assert_eq!(r.status, 404, "{}", r.text());
    assert_eq!(
        (n.app.audit_count(), n.app.count("dealer_shifts")),
        before,
        "nothing written"
    );
    // A dealer may not push: the floor does, or the dealer at the table's tablet.
    let me = n.app.api_login("dealer1", STAFF_PW).await;
    let r = send(
        &n.app,
        "/api/v1/dealers/push",
        &me,
        json!({"table_id": t2, "dealer_id": n.dealer}),
        "en",
    )
    .await;
    assert_eq!(r.status, 403, "{}", r.text());
}

#[actix_web::test]
async fn the_proposed_push_accepted_then_overridden_moves_the_down_and_the_binding() {
    let n = night().await;
    let [t1, _] = n.tables;
    open(&n.app, &n.admin, t1).await;
    assert_eq!(n.assign(t1, "en").await.status, 201);
    let d1 = n.app.api_login("dealer1", STAFF_PW).await;
    let (d3, d3_id) = clocked_in(&n.app, "dealer3").await;
    // dealer1 may record tips at 101 while dealing there.
    let tips = format!("/api/v1/tables/{t1}/tips");
    let r = send(&n.app, &tips, &d1, json!({"amount": 500}), "en").await;
    assert_eq!(r.status, 201, "{}", r.text());
    // Their down is up after 30 minutes; the push comes at 31: late.
    n.app.state.clock.advance(Duration::minutes(31));
    let j = night_of(&n.app, &n.admin).await;
    let proposed = j["pushes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["table"] == 101)
        .cloned()
        .unwrap();
    assert_eq!(proposed["incoming_id"], d3_id, "{j}");
    assert_eq!(proposed["late"], true, "{j}");
    let before = n.app.audit_count();
    let r = push(&n, json!({"table_id": t1, "dealer_id": d3_id}), "en").await;
    assert_eq!(r.status, 201, "{}", r.text());
    let done = r.json();
    assert_eq!(done["incoming"], "dealer3");
    assert_eq!(done["outgoing"], "dealer1");
    assert_eq!(done["outgoing_to"], "available", "one down: no break due");
    assert_eq!(done["late"], true);
    assert!(n.app.audit_count() > before);
    let rec = last_push(&n.app);
    assert_eq!(rec["proposed_id"], d3_id, "the record names the proposal");
    assert_eq!(rec["incoming_id"], d3_id);
    let j = night_of(&n.app, &n.admin).await;
    assert_eq!(state_of(&j, d3_id), "dealing");
    assert_eq!(state_of(&j, n.dealer), "available");
    // The binding follows the down: dealer3 may act at 101, dealer1 no longer.
    let r = send(&n.app, &tips, &d3, json!({"amount": 300}), "en").await;
    assert_eq!(r.status, 201, "{}", r.text());
    let r = send(&n.app, &tips, &d1, json!({"amount": 300}), "en").await;
    assert_eq!(r.status, 403, "{}", r.text());
    assert_eq!(r.json()["error"]["reason"], "dealer_other_table");
    // The floor overrides: dealer1 back at once, dealer3 sent to a break.
    n.app.state.clock.advance(Duration::minutes(5));
    let r = push(
        &n,
        json!({"table_id": t1, "dealer_id": n.dealer, "outgoing_to": "break"}),
        "en",
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let done = r.json();
    assert_eq!(done["outgoing_to"], "break");
    assert_eq!(done["late"], false, "dealer3's down was not up");
    assert!(done["break_until"].is_string(), "{done}");
    let rec = last_push(&n.app);
    // The night would have sent dealer1 there later (the only free dealer), and dealer3
    // on to another down: the record keeps what the floor chose instead.
    assert_eq!(rec["proposed_id"], n.dealer, "{rec}");
    assert_eq!(rec["outgoing_to"], "break", "{rec}");
    let j = night_of(&n.app, &n.admin).await;
    assert_eq!(state_of(&j, d3_id), "on_break");
    assert_eq!(state_of(&j, n.dealer), "dealing");
    // The dealer on a break is called back by the next push that names them.
    n.app.state.clock.advance(Duration::minutes(2));
    let r = push(&n, json!({"table_id": t1, "dealer_id": d3_id}), "pt-PT").await;
    assert_eq!(r.status, 201, "{}", r.text());
    let j = night_of(&n.app, &n.admin).await;
    assert_eq!(state_of(&j, d3_id), "dealing");
}

#[actix_web::test]
async fn a_dealer_due_a_break_goes_to_it_when_relieved() {
    let n = night().await;
    let [t1, t2] = n.tables;
    open(&n.app, &n.admin, t1).await;
    open(&n.app, &n.admin, t2).await;
    let (_, d3_id) = clocked_in(&n.app, "dealer3").await;
    let (_, d4_id) = clocked_in(&n.app, "dealer4").await;
    // dealer1 deals three downs (101, 102, 101): the third makes a break due.
    assert_eq!(n.assign(t1, "en").await.status, 201);
    let rounds = [
        vec![(t2, d3_id)],
        vec![(t1, d4_id), (t2, n.dealer)],
        vec![(t2, d3_id), (t1, n.dealer)],
    ];
    for round in rounds {
        for (table, dealer) in round {
            let r = push(&n, json!({"table_id": table, "dealer_id": dealer}), "en").await;
            assert_eq!(r.status, 201, "{}", r.text());
            assert_ne!(r.json()["outgoing_to"], "break", "{}", r.text());
        }
        n.app.state.clock.advance(Duration::minutes(30));
    }
    let j = night_of(&n.app, &n.admin).await;
    let me = j["dealers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["id"] == n.dealer)
        .cloned()
        .unwrap();
    assert_eq!(me["downs"], 3, "{j}");
    assert_eq!(me["break_due"], true, "{j}");
    let tables = j["tables"].as_array().unwrap();
    assert!(tables.iter().all(|t| t["closing"] == false), "{j}");
    // The night sends dealer1 to a break when relieved at 101.
    let at_101 = j["pushes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["table"] == 101)
        .cloned()
        .unwrap();
    assert_eq!(at_101["outgoing"], "dealer1", "{j}");
    assert_eq!(at_101["next"], "break", "{j}");
    let r = push(&n, json!({"table_id": t1, "dealer_id": d4_id}), "en").await;
    assert_eq!(r.status, 201, "{}", r.text());
    assert_eq!(r.json()["outgoing_to"], "break", "{}", r.text());
    let j = night_of(&n.app, &n.admin).await;
    assert_eq!(state_of(&j, n.dealer), "on_break");
}

/// A floor form sent from a page (`from`: the page's address, as the browser's Referer).
async fn form_from(
    app: &TestApp,
    s: &WebSession,
    uri: &str,
    from: Option<&str>,
    lang: &str,
    fields: &[(&str, &str)],
) -> Resp {
    let mut all: Vec<(&str, &str)> = vec![("csrf", s.csrf.as_str())];
    all.extend_from_slice(fields);
    let mut req = actix_web::test::TestRequest::post()
        .uri(uri)
        .cookie(s.c())
        .insert_header(("Accept-Language", lang))
        .set_form(all);
    if let Some(f) = from {
        req = req.insert_header(("Referer", format!("http://localhost{f}")));
    }
    app.call(req.to_request()).await
}

#[actix_web::test]
async fn the_board_and_the_dealers_page_show_the_pushes_and_send_them_in_one_action() {
    let n = night().await;
    let [t1, t2] = n.tables;
    let s = n.app.web_login("admin", ADMIN_PW).await;
    // No dealer in: the board shows nothing of the dealers (a room that does not keep them).
    let board = n.app.page("/floor/live", &s).await.text();
    assert!(!board.contains("push-cards"), "{board}");
    assert!(!board.contains("t-no-dealer"));
    open(&n.app, &n.admin, t1).await;
    open(&n.app, &n.admin, t2).await;
    assert_eq!(n.assign(t1, "en").await.status, 201);
    let (_, d3) = clocked_in(&n.app, "dealer3").await;
    // The board: table 102 has no dealer — its tile says so, and its push comes first, now,
    // with dealer3 proposed.
    let board = n.app.page("/floor/live", &s).await.text();
    let tile = board.split("id=\"tile-102\"").nth(1).unwrap();
    let tile = &tile[..tile.find("</a>").unwrap()];
    assert!(tile.contains("No dealer"), "{tile}");
    let card = board
        .split("id=\"push-102\"")
        .nth(1)
        .expect("a push for 102");
    let card = &card[..card.find("</li>").unwrap()];
    assert!(card.contains("Now"), "{card}");
    assert!(card.contains("No dealer"), "{card}");
    assert!(
        card.contains(&format!("<option value=\"{d3}\" selected>dealer3")),
        "{card}"
    );
    assert!(board.contains("1 table without a dealer"), "{board}");
    // The dealers' page, in Portuguese.
    let page = form_page(&n.app, &s, "pt-PT").await;
    assert_eq!(page.status, 200);
    let html = page.text();
    assert!(html.contains("Rendições na próxima hora"), "{html}");
    assert!(html.contains("Sem croupier"));
    assert!(html.contains(&format!("id=\"roster-{d3}\" data-state=\"available\"")));
    // A refusal from the board: the board with the reason (pt), nothing written.
    let before = n.app.audit_count();
    let r = form_from(
        &n.app,
        &s,
        "/floor/dealers/push",
        None,
        "pt-PT",
        &[
            ("table_id", &t2.to_string()),
            ("dealer_id", &n.dealer.to_string()),
        ],
    )
    .await;
    assert_eq!(r.status, 409, "{}", r.text());
    assert!(r.text().contains("dealer1 está a dar cartas na mesa 101"));
    assert!(r.text().contains("id=\"floor-problem\""));
    let r = form_from(
        &n.app,
        &s,
        "/floor/dealers/push",
        Some("/floor/dealers"),
        "en",
        &[("table_id", &t2.to_string()), ("dealer_id", "")],
    )
    .await;
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(r.text().contains("Choose an active dealer"), "{}", r.text());
    assert!(r.text().contains("id=\"dealers-problem\""));
    assert_eq!(n.app.audit_count(), before, "nothing written");
    // The proposal accepted from the board: one action, back on the board with the toast.
    let r = form_from(
        &n.app,
        &s,
        "/floor/dealers/push",
        Some("/floor"),
        "en",
        &[
            ("table_id", &t2.to_string()),
            ("dealer_id", &d3.to_string()),
        ],
    )
    .await;
    assert_eq!(r.status, 303, "{}", r.text());
    assert_eq!(r.headers.get("location").unwrap(), "/floor");
    let j = night_of(&n.app, &n.admin).await;
    assert_eq!(state_of(&j, d3), "dealing");
    let board = n.app.page("/floor/live", &s).await.text();
    assert!(!board.contains("t-no-dealer"), "every table has its dealer");
    // The roster from the dealers' page: a break refused while dealing, then clock-in of
    // dealer4 and back to the page.
    let r = form_from(
        &n.app,
        &s,
        &format!("/floor/dealers/{}/break", n.dealer),
        Some("/floor/dealers"),
        "en",
        &[],
    )
    .await;
    assert_eq!(r.status, 409, "{}", r.text());
    assert!(r.text().contains("is dealing at table 101"));
    n.app.create_staff("dealer4", "dealer");
    let d4 = n.app.with_conn(|c| {
        use cardroom::db::schema::staff::dsl as st;
        st::staff
            .filter(st::username.eq("dealer4"))
            .select(st::id)
            .first::<i64>(c)
            .unwrap()
    });
    let r = form_from(
        &n.app,
        &s,
        &format!("/floor/dealers/{d4}/clock-in"),
        Some("/floor/dealers"),
        "en",
        &[],
    )
    .await;
    assert_eq!(r.status, 303, "{}", r.text());
    assert_eq!(r.headers.get("location").unwrap(), "/floor/dealers");
    let j = night_of(&n.app, &n.admin).await;
    assert_eq!(state_of(&j, d4), "available");
    let r = form_from(
        &n.app,
        &s,
        &format!("/floor/dealers/{d4}/dance"),
        Some("/floor/dealers"),
        "en",
        &[],
    )
    .await;
    assert_eq!(r.status, 404);
}

async fn form_page(app: &TestApp, s: &WebSession, lang: &str) -> Resp {
    app.call(
        actix_web::test::TestRequest::get()
            .uri("/floor/dealers")
            .cookie(s.c())
            .insert_header(("Accept-Language", lang))
            .to_request(),
    )
    .await
}

/// PT-2007 24: a table suspended below its minimum closes unless players come back — the
/// night marks it closing and proposes no dealer for it; the table beside it is relieved.
#[actix_web::test]
async fn a_suspended_table_is_closing_and_gets_no_push() {
    let n = night().await;
    let [t1, t2] = n.tables;
    open(&n.app, &n.admin, t1).await;
    open(&n.app, &n.admin, t2).await;
    let (_, d3) = clocked_in(&n.app, "dealer3").await;
    clocked_in(&n.app, "dealer4").await;
    let before = night_of(&n.app, &n.admin).await;
    let proposed: Vec<i64> = before["pushes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["table"].as_i64())
        .collect();
    assert!(proposed.contains(&102), "{before}");
    n.app.with_conn(|c| {
        use cardroom::db::schema::card_tables::dsl as t;
        diesel::update(t::card_tables.find(t2))
            .set(t::state.eq(cardroom::domain::table::TableState::Suspended))
            .execute(c)
            .unwrap()
    });
    let j = night_of(&n.app, &n.admin).await;
    let t102 = j["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["number"] == 102)
        .cloned()
        .expect("a suspended table is still in play");
    assert_eq!(t102["closing"], true, "{j}");
    let pushes = j["pushes"].as_array().unwrap();
    assert!(pushes.iter().all(|p| p["table"] != 102), "{j}");
    assert_eq!(pushes[0]["table"], 101, "{j}");
    assert_eq!(pushes[0]["incoming_id"], d3, "{j}");
}

/// The floor takes a dealer off a table with nobody to take it over: to a break (which then
/// runs the room's break length) or free for the next push; the table is then without a
/// dealer (the night and the dealers' page say so). A dealer dealing cannot simply be sent
/// on a break (they are taken off first). A table without a dealer, or a wrong `to`: refused
/// in the user's language, nothing written.
#[actix_web::test]
async fn the_floor_takes_a_dealer_off_a_table_to_a_break_or_free() {
    let n = night().await;
    let [t1, t2] = n.tables;
    open(&n.app, &n.admin, t1).await;
    open(&n.app, &n.admin, t2).await;
    assert_eq!(n.assign(t1, "en").await.status, 201);
    let relieve = |table: i64, body: Value, lang: &'static str| {
        let (app, admin) = (&n.app, &n.admin);
        async move {
            send(
                app,
                &format!("/api/v1/tables/{table}/dealer/relieve"),
                admin,
                body,
                lang,
            )
            .await
        }
    };
    // A break while dealing is refused, naming the table (the floor takes them off first).
    let r = staff_post(
        &n.app,
        &format!("/api/v1/dealers/{}/break", n.dealer),
        &n.admin,
        "en",
    )
    .await;
    assert_eq!(r.status, 409, "{}", r.text());
    assert_eq!(r.json()["error"]["reason"], "dealer_break_while_dealing");
    // Refusals: no dealer at table 102; a `to` that is no choice; a dealer's own token;
    // nothing written.
    let dealer_token = n.app.api_login("dealer1", STAFF_PW).await;
    let before = (n.app.audit_count(), n.app.count("dealer_shifts"));
    for (lang, says) in [
        ("en", "Table 102 has no dealer to take off"),
        ("pt-PT", "A mesa 102 não tem croupier para retirar"),
    ] {
        let r = relieve(t2, json!({"to": "break"}), lang).await;
        assert_eq!(r.status, 409, "{}", r.text());
        assert_eq!(r.json()["error"]["reason"], "dealer_none_here");
        assert!(r.error().1.contains(says), "{lang}: {}", r.text());
    }
    let r = relieve(t1, json!({"to": "lunch"}), "en").await;
    assert_eq!(r.status, 422, "{}", r.text());
    let r = relieve(999_999, json!({"to": "break"}), "en").await;
    assert_eq!(r.status, 404, "{}", r.text());
    let r = send(
        &n.app,
        &format!("/api/v1/tables/{t1}/dealer/relieve"),
        &dealer_token,
        json!({"to": "break"}),
        "en",
    )
    .await;
    assert_eq!(
        r.status,
        403,
        "a dealer does not take themselves off: {}",
        r.text()
    );
    assert_eq!(
        (n.app.audit_count(), n.app.count("dealer_shifts")),
        before,
        "nothing written"
    );
    // Off to a break: the table has no dealer, the dealer is on a break for the room's length.
    let r = relieve(t1, json!({"to": "break"}), "en").await;
    assert_eq!(r.status, 200, "{}", r.text());
    let done = r.json();
    assert_eq!(done["table"], 101);
    assert_eq!(done["to"], "break");
    assert_eq!(done["dealer_id"], n.dealer);
    let started: chrono::NaiveDateTime = n.app.with_conn(|c| {
        use cardroom::db::schema::dealer_breaks::dsl as b;
        b::dealer_breaks
            .filter(b::dealer_id.eq(n.dealer))
            .filter(b::ended_at.is_null())
            .select(b::started_at)
            .first(c)
            .unwrap()
    });
    let until: chrono::DateTime<chrono::Utc> =
        done["break_until"].as_str().unwrap().parse().unwrap();
    let rules = night_of(&n.app, &n.admin).await["rules"].clone();
    assert_eq!(
        until - started.and_utc(),
        Duration::minutes(rules["break_min"].as_i64().unwrap()),
        "the room's break length: {done}"
    );
    let j = night_of(&n.app, &n.admin).await;
    assert_eq!(state_of(&j, n.dealer), "on_break");
    let table = j["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["number"] == 101)
        .unwrap()
        .clone();
    assert!(table["dealer"].is_null(), "{table}");
    let audit: String = n.app.with_conn(|c| {
        a::audit_log
            .filter(a::action.eq("dealer.relieve"))
            .select(a::after_json)
            .first(c)
            .unwrap()
    });
    assert!(audit.contains("\"to\":\"break\""), "{audit}");
    // The same again: nobody is at 101 now.
    let r = relieve(t1, json!({"to": "available"}), "en").await;
    assert_eq!(r.status, 409, "{}", r.text());
    // Back, dealing at 102, then taken off free from the dealers' page.
    let r = staff_post(
        &n.app,
        &format!("/api/v1/dealers/{}/back", n.dealer),
        &n.admin,
        "en",
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let r = send(
        &n.app,
        &format!("/api/v1/tables/{t2}/dealer"),
        &n.admin,
        json!({ "dealer_id": n.dealer }),
        "en",
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let web = n.app.web_login("admin", ADMIN_PW).await;
    let page = n.app.page("/floor/dealers", &web).await.text();
    assert!(page.contains("id=\"relieve-available-102\""), "{page}");
    assert!(
        !page.contains("id=\"relieve-available-101\""),
        "no dealer at 101: {page}"
    );
    let r = n
        .app
        .call(
            actix_web::test::TestRequest::post()
                .uri(&format!("/floor/dealers/tables/{t2}/relieve"))
                .cookie(web.c())
                .insert_header(("Referer", "http://localhost/floor/dealers"))
                .set_form([("csrf", web.csrf.as_str()), ("to", "available")])
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    assert_eq!(r.header("location").as_deref(), Some("/floor/dealers"));
    let j = night_of(&n.app, &n.admin).await;
    assert_eq!(state_of(&j, n.dealer), "available");
    let page = n.app.page("/floor/dealers", &web).await.text();
    assert!(
        page.contains("id=\"dealer-table-102\" class=\"row-bad\""),
        "{page}"
    );
}
