//! Floor API: waiting lists, seat calls, seating, concurrency (PT-2007 8a, 12, 24; BSOP 44, 46, 47, 51).
//! Every refusal is checked for its status, its `error.code`, a translated message, and that
//! nothing changed (audit trail, list entries, seatings, seat calls, events).

use crate::support::*;
use actix_web::test;
use cardroom::domain::ids::PlayerId;
use cardroom::domain::ids::TableId;
use cardroom::domain::player::{DocumentKind, Language, NotifyPref, PlayerInput};
use chrono::NaiveDate;
use diesel::prelude::*;
use serde_json::{json, Value};

// ---- helpers ---------------------------------------------------------------------------

/// Sends a request with a Bearer token, an optional JSON body and `Accept-Language`.
pub(crate) async fn send(
    app: &TestApp,
    method: &str,
    uri: &str,
    token: &str,
    body: Option<Value>,
    lang: Option<&str>,
) -> Resp {
    let mut req = match method {
        "GET" => test::TestRequest::get(),
        "POST" => test::TestRequest::post(),
        "PUT" => test::TestRequest::put(),
        other => panic!("method {other}"),
    }
    .uri(uri)
    .insert_header(("Authorization", format!("Bearer {token}")));
    if let Some(l) = lang {
        req = req.insert_header(("Accept-Language", l));
    }
    if let Some(b) = body {
        req = req.set_json(b);
    }
    app.call(req.to_request()).await
}

pub(crate) async fn post(app: &TestApp, uri: &str, token: &str, body: Value) -> Resp {
    send(app, "POST", uri, token, Some(body), None).await
}

/// What a refused request must leave untouched.
#[derive(Debug, PartialEq, Eq)]
struct Snapshot {
    audit: i64,
    entries: i64,
    seatings: i64,
    calls: i64,
    events: i64,
    /// Every list entry's (id, state, order key), every seating's (id, left or not), every
    /// call's (id, state), every table's (id, state, must-move), every hold's (id, released
    /// or not), every seat-change request's (id, state), and the must-move refusals.
    states: String,
}

fn snapshot(app: &TestApp) -> Snapshot {
    use cardroom::db::schema::{
        card_tables, must_move_refusals, seat_calls, seat_change_requests, seat_holds, seatings,
        waitlist_entries,
    };
    let states = app.with_conn(|c| {
        let e: Vec<(i64, String, i64)> = waitlist_entries::table
            .select((
                waitlist_entries::id,
                waitlist_entries::state,
                waitlist_entries::order_key,
            ))
            .order(waitlist_entries::id)
            .load(c)
            .unwrap();
        let s: Vec<(i64, bool)> = seatings::table
            .select((seatings::id, seatings::left_at.is_null()))
            .order(seatings::id)
            .load(c)
            .unwrap();
        let k: Vec<(i64, String)> = seat_calls::table
            .select((seat_calls::id, seat_calls::state))
            .order(seat_calls::id)
            .load(c)
            .unwrap();
        let t: Vec<(i64, String, bool)> = card_tables::table
            .select((card_tables::id, card_tables::state, card_tables::must_move))
            .order(card_tables::id)
            .load(c)
            .unwrap();
        let h: Vec<(i64, bool)> = seat_holds::table
            .select((seat_holds::id, seat_holds::released_at.is_null()))
            .order(seat_holds::id)
            .load(c)
            .unwrap();
        let r: Vec<(i64, String)> = seat_change_requests::table
            .select((seat_change_requests::id, seat_change_requests::state))
            .order(seat_change_requests::id)
            .load(c)
            .unwrap();
        let m: i64 = must_move_refusals::table.count().get_result(c).unwrap();
        format!("{e:?} {s:?} {k:?} {t:?} {h:?} {r:?} {m}")
    });
    Snapshot {
        audit: app.audit_count(),
        entries: app.count("waitlist_entries"),
        seatings: app.count("seatings"),
        calls: app.count("seat_calls"),
        events: app.count("events"),
        states,
    }
}

/// Checks a JSON refusal: status, `error.code`, a non-empty translated message; returns it.
fn refused(r: &Resp, status: u16, code: &str) -> String {
    assert_eq!(
        r.status,
        status,
        "expected {status}, got {}: {}",
        r.status,
        r.text()
    );
    let j = r.json();
    assert_eq!(j["error"]["code"], code, "{j}");
    let msg = j["error"]["message"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(!msg.trim().is_empty(), "empty message: {j}");
    assert!(
        !msg.starts_with("err-") && !msg.starts_with("api-"),
        "untranslated message: {msg}"
    );
    msg
}

/// Sends a request that must be refused; checks that nothing changed; returns the message.
async fn refuse(
    app: &TestApp,
    uri: &str,
    token: &str,
    body: Option<Value>,
    lang: Option<&str>,
    status: u16,
    code: &str,
) -> String {
    let before = snapshot(app);
    let r = send(app, "POST", uri, token, body, lang).await;
    let msg = refused(&r, status, code);
    assert_eq!(
        snapshot(app),
        before,
        "a refused POST {uri} changed something"
    );
    msg
}

/// The refused fields of a 422, each with a translated message.
fn refused_fields(r: &Resp) -> Vec<String> {
    let j = r.json();
    j["error"]["fields"]
        .as_array()
        .unwrap_or_else(|| panic!("no fields: {j}"))
        .iter()
        .map(|f| {
            let m = f["message"].as_str().unwrap_or_default();
            assert!(
                !m.is_empty() && !m.starts_with("err-"),
                "field message: {f}"
            );
            f["field"].as_str().unwrap().to_string()
        })
        .collect()
}

/// A name made of letters only (names refuse nothing but control characters, but keep
/// them realistic).
fn letters(mut k: usize) -> String {
    let mut s = String::new();
    loop {
        s.insert(0, (b'a' + (k % 26) as u8) as char);
        k /= 26;
        if k == 0 {
            break;
        }
    }
    s
}

/// `n` adults with a photo and a valid ID, registered straight through the service (in one
/// transaction: fast enough for a hundred).
pub fn eligible_players(app: &TestApp, n: usize) -> Vec<i64> {
    let photo = cardroom::services::photo::process(&cardroom::services::photo::generated_portrait(
        n as u64,
    ))
    .expect("photo");
    let now = app.state.clock.now();
    let start = app.count("players") as usize;
    app.with_conn(|c| {
        app.state
            .db
            .write(c, |c| {
                (0..n)
                    .map(|i| {
                        let k = start + i + 1;
                        let input = PlayerInput {
                            full_name: format!("Jogador {}", letters(k)),
                            date_of_birth: NaiveDate::from_ymd_opt(1985, 3, 1).unwrap(),
                            doc_kind: DocumentKind::NationalId,
                            doc_number: format!("FLR{k:06}"),
                            doc_country: "PT".into(),
                            doc_expiry: NaiveDate::from_ymd_opt(2035, 1, 1).unwrap(),
                            phone: None,
                            email: None,
                            language: Language::Pt,
                            notify: NotifyPref::None,
                            alias: format!("P{k}"),
                        };
                        let act = cardroom::services::Acting::system(now)
                            .in_room(c)
                            .expect("room");
                        cardroom::services::players::create(c, &act, &input, Some(&photo))
                            .map(|(p, _)| p.id.get())
                    })
                    .collect::<Result<Vec<i64>, cardroom::error::AppError>>()
            })
            .expect("players")
    })
}

/// One pass of the scheduler, as the server runs it.
pub(crate) fn tick(app: &TestApp) -> usize {
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

pub(crate) async fn advance(app: &TestApp, admin: &str, minutes: i64) {
    let r = post(
        app,
        "/api/v1/test/clock/advance",
        admin,
        json!({ "minutes": minutes }),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
}

pub(crate) async fn create_game(app: &TestApp, admin: &str, name: &str) -> i64 {
    let g = json!({"name": name, "variant": "holdem_nl", "small_blind": 100, "big_blind": 200,
        "limit_class": "low", "buy_in_min": 4000, "buy_in_max": 20000, "seats": 10});
    let r = post(app, "/api/v1/games", admin, g).await;
    assert_eq!(r.status, 201, "{}", r.text());
    r.json()["id"].as_i64().unwrap()
}

pub(crate) async fn create_table(app: &TestApp, admin: &str, number: i32, game: i64) -> i64 {
    let r = post(
        app,
        "/api/v1/tables",
        admin,
        json!({"number": number, "game_id": game, "mode": "continuous"}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text());
    r.json()["id"].as_i64().unwrap()
}

pub(crate) async fn open_table(app: &TestApp, token: &str, table: i64) -> Value {
    let r = post(
        app,
        &format!("/api/v1/tables/{table}/open"),
        token,
        json!({}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
    r.json()
}

/// A game with one 10-seat table (closed until opened).
struct Room {
    admin: String,
    game: i64,
    table: i64,
}

async fn room(app: &TestApp) -> Room {
    let admin = app.admin_token().await;
    let game = create_game(app, &admin, "NL 1/2").await;
    let table = create_table(app, &admin, 1, game).await;
    Room { admin, game, table }
}

pub(crate) async fn join(
    app: &TestApp,
    token: &str,
    game: i64,
    player: i64,
    call_in: bool,
) -> Value {
    let r = post(
        app,
        &format!("/api/v1/games/{game}/waitlist"),
        token,
        json!({"player_id": player, "call_in": call_in}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text());
    r.json()
}

pub(crate) async fn waitlist(app: &TestApp, token: &str, game: i64) -> Value {
    let r = app
        .get(&format!("/api/v1/games/{game}/waitlist"), token)
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    r.json()
}

/// (player id, position, state) of every line, in order.
pub(crate) fn lines(list: &Value) -> Vec<(i64, i64, String)> {
    list["lines"]
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

pub(crate) async fn seats(app: &TestApp, token: &str, table: i64) -> Value {
    let r = app
        .get(&format!("/api/v1/tables/{table}/seats"), token)
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    r.json()
}

pub(crate) async fn call_next(app: &TestApp, token: &str, table: i64, seat: i32) -> Value {
    let r = post(
        app,
        &format!("/api/v1/tables/{table}/seats/{seat}/call-next"),
        token,
        json!({}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text());
    r.json()
}

pub(crate) async fn seat(app: &TestApp, token: &str, table: i64, seat: i32, player: i64) -> Value {
    let r = post(
        app,
        &format!("/api/v1/tables/{table}/seats/{seat}"),
        token,
        json!({"player_id": player}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text());
    r.json()
}

pub(crate) async fn leave(app: &TestApp, token: &str, seating: i64) -> Value {
    let r = post(
        app,
        &format!("/api/v1/seatings/{seating}/leave"),
        token,
        json!({"reason": "cashed out"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
    r.json()
}

pub(crate) async fn table_state(app: &TestApp, token: &str, table: i64) -> String {
    seats(app, token, table).await["table"]["state"]
        .as_str()
        .unwrap()
        .to_string()
}

fn last_audit(app: &TestApp) -> (String, String) {
    app.with_conn(|c| {
        use cardroom::db::schema::audit_log::dsl::*;
        audit_log
            .order(seq.desc())
            .select((action, after_json))
            .first::<(String, String)>(c)
            .unwrap()
    })
}

// ---- waiting lists ---------------------------------------------------------------------

#[actix_rt::test]
async fn pt2007_8a_players_join_in_order_and_a_removal_closes_the_gap() {
    let app = TestApp::new().await;
    let r = room(&app).await;
    let floor = app.staff_token("floor1", "floor").await;
    let p = eligible_players(&app, 3);
    let mut entries = Vec::new();
    for (i, id) in p.iter().enumerate() {
        let line = join(&app, &floor, r.game, *id, false).await;
        assert_eq!(line["player_id"], *id);
        assert_eq!(line["position"], i as i64 + 1, "{line}");
        assert_eq!(line["ahead"], i as i64);
        assert_eq!(line["of"], i as i64 + 1);
        assert_eq!(line["source"], "desk");
        assert_eq!(line["state"], "waiting");
        assert_eq!(line["checked_in"], false);
        assert!(line["call_in_expires_at"].is_null());
        assert!(line["alias"].as_str().unwrap().starts_with('P'));
        assert!(line["full_name"].as_str().unwrap().starts_with("Jogador"));
        entries.push(line["entry_id"].as_i64().unwrap());
    }
    assert_eq!(last_audit(&app).0, "list.join");
    // The registry's readers (the cashier too) read the list with names; with no table in
    // play it is an interest list (PT-2007 24: 4 players start a game).
    let cashier = app.staff_token("cashier1", "cashier").await;
    let list = waitlist(&app, &cashier, r.game).await;
    assert_eq!(
        lines(&list),
        vec![
            (p[0], 1, "waiting".into()),
            (p[1], 2, "waiting".into()),
            (p[2], 3, "waiting".into())
        ]
    );
    assert_eq!(list["lines"][2]["of"], 3);
    assert_eq!(list["players_needed"], 1);
    assert_eq!(list["game_name"], "NL 1/2");

    // The first leaves the list: the others move up.
    let r1 = post(
        &app,
        &format!("/api/v1/waitlist/{}/remove", entries[0]),
        &floor,
        json!({"reason": "went home"}),
    )
    .await;
    assert_eq!(r1.status, 200, "{}", r1.text());
    assert_eq!(r1.json()["state"], "removed");
    assert_eq!(r1.json()["end_reason"], "went home");
    let (action, after) = last_audit(&app);
    assert_eq!(action, "list.remove");
    assert!(after.contains("went home"), "{after}");
    let list = waitlist(&app, &floor, r.game).await;
    assert_eq!(
        lines(&list),
        vec![(p[1], 1, "waiting".into()), (p[2], 2, "waiting".into())]
    );
    assert_eq!(list["lines"][0]["of"], 2);
    assert_eq!(list["players_needed"], 2);

    // Removing again, or without a reason, is refused and changes nothing.
    refuse(
        &app,
        &format!("/api/v1/waitlist/{}/remove", entries[0]),
        &floor,
        Some(json!({"reason": "again"})),
        None,
        409,
        "conflict",
    )
    .await;
    let before = snapshot(&app);
    let r2 = post(
        &app,
        &format!("/api/v1/waitlist/{}/remove", entries[1]),
        &floor,
        json!({"reason": "  "}),
    )
    .await;
    refused(&r2, 422, "validation_failed");
    assert_eq!(refused_fields(&r2), vec!["reason"]);
    assert_eq!(snapshot(&app), before);
    refuse(
        &app,
        "/api/v1/waitlist/999/remove",
        &floor,
        Some(json!({"reason": "x"})),
        None,
        404,
        "not_found",
    )
    .await;

    // Once a table of the game is open it is a real list: no count of players needed.
    open_table(&app, &floor, r.table).await;
    assert!(waitlist(&app, &floor, r.game).await["players_needed"].is_null());
    assert_eq!(
        app.get("/api/v1/games/999/waitlist", &floor).await.status,
        404
    );
}

#[actix_rt::test]
async fn reorder_needs_a_reason_and_moves_one_player() {
    let app = TestApp::new().await;
    let r = room(&app).await;
    let p = eligible_players(&app, 3);
    let mut entries = Vec::new();
    for id in &p {
        entries.push(
            join(&app, &r.admin, r.game, *id, false).await["entry_id"]
                .as_i64()
                .unwrap(),
        );
    }
    let uri = format!("/api/v1/waitlist/{}/reorder", entries[2]);
    // No reason: refused in the caller's language, nothing moves.
    let before = snapshot(&app);
    let res = send(
        &app,
        "POST",
        &uri,
        &r.admin,
        Some(json!({"position": 1})),
        Some("pt-PT"),
    )
    .await;
    refused(&res, 422, "validation_failed");
    assert_eq!(refused_fields(&res), vec!["reason"]);
    assert!(
        res.json()["error"]["fields"][0]["message"]
            .as_str()
            .unwrap()
            .contains("Obrigatório"),
        "{}",
        res.text()
    );
    let res = post(&app, &uri, &r.admin, json!({"position": 1, "reason": ""})).await;
    refused(&res, 422, "validation_failed");
    let res = post(&app, &uri, &r.admin, json!({"reason": "special needs"})).await;
    assert_eq!(refused_fields(&res), vec!["position"]);
    let res = post(
        &app,
        &uri,
        &r.admin,
        json!({"position": 0, "reason": "special needs"}),
    )
    .await;
    refused(&res, 422, "validation_failed");
    assert_eq!(refused_fields(&res), vec!["position"]);
    assert_eq!(snapshot(&app), before);
    assert_eq!(
        lines(&waitlist(&app, &r.admin, r.game).await)
            .iter()
            .map(|l| l.0)
            .collect::<Vec<_>>(),
        p
    );

    // With a reason: the third goes first, the others keep their order; audited.
    let res = post(
        &app,
        &uri,
        &r.admin,
        json!({"position": 1, "reason": "special needs (BSOP 45)"}),
    )
    .await;
    assert_eq!(res.status, 200, "{}", res.text());
    assert_eq!(res.json()["position"], 1);
    assert_eq!(res.json()["entry_id"], entries[2]);
    let (action, after) = last_audit(&app);
    assert_eq!(action, "list.reorder");
    assert!(
        after.contains("special needs")
            && after.contains("\"from\":3")
            && after.contains("\"to\":1"),
        "{after}"
    );
    let list = waitlist(&app, &r.admin, r.game).await;
    assert_eq!(
        lines(&list),
        vec![
            (p[2], 1, "waiting".into()),
            (p[0], 2, "waiting".into()),
            (p[1], 3, "waiting".into())
        ]
    );
    // A place past the end moves the player to the bottom.
    let res = post(
        &app,
        &format!("/api/v1/waitlist/{}/reorder", entries[0]),
        &r.admin,
        json!({"position": 99, "reason": "asked to wait"}),
    )
    .await;
    assert_eq!(res.status, 200, "{}", res.text());
    assert_eq!(res.json()["position"], 3);
    // A removed entry cannot be moved.
    post(
        &app,
        &format!("/api/v1/waitlist/{}/remove", entries[1]),
        &r.admin,
        json!({"reason": "left"}),
    )
    .await;
    refuse(
        &app,
        &format!("/api/v1/waitlist/{}/reorder", entries[1]),
        &r.admin,
        Some(json!({"position": 1, "reason": "x"})),
        None,
        409,
        "conflict",
    )
    .await;
}

#[actix_rt::test]
async fn a_call_in_lapses_unless_the_player_checks_in_before_the_deadline() {
    let app = TestApp::with_clock(true).await;
    let r = room(&app).await;
    let p = eligible_players(&app, 4);
    let lapsing = join(&app, &r.admin, r.game, p[0], true).await;
    let arriving = join(&app, &r.admin, r.game, p[1], true).await;
    let late = join(&app, &r.admin, r.game, p[2], true).await;
    let desk = join(&app, &r.admin, r.game, p[3], false).await;
    assert_eq!(lapsing["source"], "call_in");
    let joined: chrono::DateTime<chrono::Utc> =
        lapsing["joined_at"].as_str().unwrap().parse().unwrap();
    let expires: chrono::DateTime<chrono::Utc> = lapsing["call_in_expires_at"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(
        (expires - joined).num_minutes(),
        30,
        "the room's call_in_expiry_min"
    );

    // One call-in arrives in time: it no longer lapses.
    let res = post(
        &app,
        &format!("/api/v1/waitlist/{}/check-in", arriving["entry_id"]),
        &r.admin,
        json!({}),
    )
    .await;
    assert_eq!(res.status, 200, "{}", res.text());
    assert_eq!(res.json()["checked_in"], true);
    assert_eq!(res.json()["position"], 2);
    assert_eq!(last_audit(&app).0, "list.check_in");
    // Twice, or for a desk entry: refused.
    refuse(
        &app,
        &format!("/api/v1/waitlist/{}/check-in", arriving["entry_id"]),
        &r.admin,
        None,
        None,
        409,
        "conflict",
    )
    .await;
    let msg = refuse(
        &app,
        &format!("/api/v1/waitlist/{}/check-in", desk["entry_id"]),
        &r.admin,
        None,
        None,
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("call-in"), "{msg}");

    advance(&app, &r.admin, 31).await;
    // Past the deadline, before the scheduler ran: a lapsed call-in can no longer check in,
    // and it already leaves the count.
    let msg = refuse(
        &app,
        &format!("/api/v1/waitlist/{}/check-in", late["entry_id"]),
        &r.admin,
        None,
        None,
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("lapsed"), "{msg}");
    assert_eq!(
        lines(&waitlist(&app, &r.admin, r.game).await),
        vec![(p[1], 1, "waiting".into()), (p[3], 2, "waiting".into())]
    );

    assert_eq!(tick(&app), 2);
    let list = waitlist(&app, &r.admin, r.game).await;
    assert_eq!(
        lines(&list),
        vec![(p[1], 1, "waiting".into()), (p[3], 2, "waiting".into())]
    );
    let states: Vec<(i64, String)> = app.with_conn(|c| {
        use cardroom::db::schema::waitlist_entries::dsl::*;
        waitlist_entries
            .select((player_id, state))
            .order(id)
            .load(c)
            .unwrap()
    });
    assert_eq!(
        states,
        vec![
            (p[0], "lapsed".into()),
            (p[1], "waiting".into()),
            (p[2], "lapsed".into()),
            (p[3], "waiting".into())
        ]
    );
    // A second pass finds nothing to do; the lapsed player may join again.
    assert_eq!(tick(&app), 0);
    assert_eq!(
        join(&app, &r.admin, r.game, p[0], false).await["position"],
        3
    );
}

#[actix_rt::test]
async fn bsop_1_3_10_ineligible_banned_and_expired_id_players_cannot_join() {
    let app = TestApp::new().await;
    let r = room(&app).await;
    let uri = format!("/api/v1/games/{}/waitlist", r.game);
    // No photo (BSOP 3).
    let res = post(&app, "/api/v1/players", &r.admin, player_json("NOPHOTO01")).await;
    assert_eq!(res.status, 201, "{}", res.text());
    let no_photo = res.json()["player"]["id"].as_i64().unwrap();
    let msg = refuse(
        &app,
        &uri,
        &r.admin,
        Some(json!({"player_id": no_photo})),
        None,
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("no photo"), "{msg}");
    let msg = refuse(
        &app,
        &uri,
        &r.admin,
        Some(json!({"player_id": no_photo})),
        Some("pt-PT"),
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("não tem fotografia"), "{msg}");
    // Banned (BSOP 10).
    let p = eligible_players(&app, 3);
    let res = post(
        &app,
        &format!("/api/v1/players/{}/exclusions", p[0]),
        &r.admin,
        json!({"reason": "cheating"}),
    )
    .await;
    assert_eq!(res.status, 201, "{}", res.text());
    let msg = refuse(
        &app,
        &uri,
        &r.admin,
        Some(json!({"player_id": p[0]})),
        None,
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("banned"), "{msg}");
    let msg = refuse(
        &app,
        &uri,
        &r.admin,
        Some(json!({"player_id": p[0]})),
        Some("pt-PT"),
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("excluído"), "{msg}");
    // An ID that expired since registration (BSOP 3).
    app.with_conn(|c| {
        use cardroom::db::schema::players::dsl::*;
        diesel::update(players.find(p[1]))
            .set(doc_expiry.eq(NaiveDate::from_ymd_opt(2020, 1, 1).unwrap()))
            .execute(c)
            .unwrap();
    });
    let msg = refuse(
        &app,
        &uri,
        &r.admin,
        Some(json!({"player_id": p[1]})),
        None,
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("expired"), "{msg}");
    // Unknown player or game, no player: the request itself is wrong.
    let before = snapshot(&app);
    let res = post(&app, &uri, &r.admin, json!({"player_id": 9999})).await;
    refused(&res, 422, "validation_failed");
    assert_eq!(refused_fields(&res), vec!["player_id"]);
    let res = post(&app, &uri, &r.admin, json!({})).await;
    assert_eq!(refused_fields(&res), vec!["player_id"]);
    let res = post(
        &app,
        "/api/v1/games/999/waitlist",
        &r.admin,
        json!({"player_id": p[2]}),
    )
    .await;
    refused(&res, 404, "not_found");
    // A value of the wrong type is a refused field too.
    let res = post(&app, &uri, &r.admin, json!({"player_id": "one"})).await;
    assert_eq!(refused_fields(&res), vec!["player_id"]);
    assert_eq!(snapshot(&app), before);
    // The eligible one joins.
    assert_eq!(
        join(&app, &r.admin, r.game, p[2], false).await["position"],
        1
    );
}

#[actix_rt::test]
async fn the_same_player_cannot_be_twice_on_a_list() {
    let app = TestApp::new().await;
    let r = room(&app).await;
    let p = eligible_players(&app, 1);
    join(&app, &r.admin, r.game, p[0], false).await;
    let uri = format!("/api/v1/games/{}/waitlist", r.game);
    let msg = refuse(
        &app,
        &uri,
        &r.admin,
        Some(json!({"player_id": p[0], "call_in": true})),
        None,
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("already on this list"), "{msg}");
    let msg = refuse(
        &app,
        &uri,
        &r.admin,
        Some(json!({"player_id": p[0]})),
        Some("pt-PT"),
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("já está nesta lista"), "{msg}");
    // Another game's list is another list.
    let other = create_game(&app, &r.admin, "PLO 1/2").await;
    assert_eq!(
        join(&app, &r.admin, other, p[0], false).await["position"],
        1
    );
}

// ---- seat calls ------------------------------------------------------------------------

#[actix_rt::test]
async fn pt2007_12_call_next_calls_the_first_on_the_list_and_reserves_the_seat() {
    let app = TestApp::new().await;
    let r = room(&app).await;
    let floor = app.staff_token("floor1", "floor").await;
    let p = eligible_players(&app, 3);
    for id in &p {
        join(&app, &floor, r.game, *id, false).await;
    }
    let t = open_table(&app, &floor, r.table).await;
    assert_eq!(t["state"], "open");
    assert!(t["opened_at"].is_string());
    let call = call_next(&app, &floor, r.table, 3).await;
    assert_eq!(call["player_id"], p[0]);
    assert_eq!(call["seat_no"], 3);
    assert_eq!(call["table_id"], r.table);
    assert_eq!(call["table_number"], 1);
    assert_eq!(call["source"], "list");
    assert_eq!(call["state"], "pending");
    assert!(call["alias"].as_str().unwrap().starts_with('P'));
    let called: chrono::DateTime<chrono::Utc> =
        call["called_at"].as_str().unwrap().parse().unwrap();
    let by: chrono::DateTime<chrono::Utc> = call["respond_by"].as_str().unwrap().parse().unwrap();
    assert_eq!(
        (by - called).num_minutes(),
        5,
        "the room's seat_call_response_min"
    );
    assert_eq!(last_audit(&app).0, "seat.call");
    // The called player keeps the place; the seat shows the call.
    assert_eq!(
        lines(&waitlist(&app, &floor, r.game).await)[0],
        (p[0], 1, "called".into())
    );
    let view = seats(&app, &floor, r.table).await;
    assert_eq!(view["seats"].as_array().unwrap().len(), 10);
    assert_eq!(view["seats"][2]["state"], "called");
    assert_eq!(view["seats"][2]["call"]["call_id"], call["id"]);
    assert_eq!(view["seats"][2]["call"]["player_id"], p[0]);
    assert_eq!(view["seats"][0]["state"], "empty");
    // The seat is reserved: no second call for it.
    let msg = refuse(
        &app,
        &format!("/api/v1/tables/{}/seats/3/call-next", r.table),
        &floor,
        None,
        None,
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("reserved"), "{msg}");
    // Another seat: the next on the list (the called one is not called twice).
    assert_eq!(call_next(&app, &floor, r.table, 4).await["player_id"], p[1]);
    assert_eq!(call_next(&app, &floor, r.table, 5).await["player_id"], p[2]);
    let msg = refuse(
        &app,
        &format!("/api/v1/tables/{}/seats/6/call-next", r.table),
        &floor,
        None,
        None,
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("Nobody"), "{msg}");
}

#[actix_rt::test]
async fn bsop_47_a_player_kept_apart_from_someone_seated_is_passed_over_and_keeps_the_place() {
    let app = TestApp::new().await;
    let r = room(&app).await;
    let p = eligible_players(&app, 3);
    let (seated, apart, next) = (p[0], p[1], p[2]);
    let res = post(
        &app,
        &format!("/api/v1/players/{apart}/separations"),
        &r.admin,
        json!({"other_player_id": seated, "reason": "family"}),
    )
    .await;
    assert_eq!(res.status, 201, "{}", res.text());
    open_table(&app, &r.admin, r.table).await;
    seat(&app, &r.admin, r.table, 1, seated).await;
    join(&app, &r.admin, r.game, apart, false).await;
    join(&app, &r.admin, r.game, next, false).await;
    let call = call_next(&app, &r.admin, r.table, 2).await;
    assert_eq!(call["player_id"], next);
    let list = waitlist(&app, &r.admin, r.game).await;
    assert_eq!(
        lines(&list),
        vec![(apart, 1, "waiting".into()), (next, 2, "called".into())]
    );
    // The floor cannot seat them together either.
    let msg = refuse(
        &app,
        &format!("/api/v1/tables/{}/seats/5", r.table),
        &r.admin,
        Some(json!({"player_id": apart})),
        None,
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("BSOP 47"), "{msg}");
    let msg = refuse(
        &app,
        &format!("/api/v1/tables/{}/seats/5", r.table),
        &r.admin,
        Some(json!({"player_id": apart})),
        Some("pt-PT"),
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("nunca pode estar na mesma mesa"), "{msg}");
}

/// A ban does not take the player off the lists (it may be lifted before their turn), so
/// the call is where it counts: passed over, keeping the place; nor seated or called by
/// choice while it is in force.
#[actix_rt::test]
async fn bsop_10_a_player_banned_while_waiting_is_passed_over_keeps_the_place_and_cannot_be_seated()
{
    let app = TestApp::new().await;
    let r = room(&app).await;
    let p = eligible_players(&app, 2);
    let (banned, next) = (p[0], p[1]);
    open_table(&app, &r.admin, r.table).await;
    join(&app, &r.admin, r.game, banned, false).await;
    join(&app, &r.admin, r.game, next, false).await;
    let res = post(
        &app,
        &format!("/api/v1/players/{banned}/exclusions"),
        &r.admin,
        json!({"reason": "cheating"}),
    )
    .await;
    assert_eq!(res.status, 201, "{}", res.text());
    let call = call_next(&app, &r.admin, r.table, 1).await;
    assert_eq!(call["player_id"], next);
    let list = waitlist(&app, &r.admin, r.game).await;
    assert_eq!(
        lines(&list),
        vec![(banned, 1, "waiting".into()), (next, 2, "called".into())]
    );
    let msg = refuse(
        &app,
        &format!("/api/v1/tables/{}/seats/2", r.table),
        &r.admin,
        Some(json!({"player_id": banned})),
        None,
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("banned"), "{msg}");
    let entry = list["lines"][0]["entry_id"].as_i64().unwrap();
    let msg = refuse(
        &app,
        &format!("/api/v1/tables/{}/seats/2/call-chosen", r.table),
        &r.admin,
        Some(json!({"entry_id": entry, "reason": "asked for"})),
        Some("pt-PT"),
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("BSOP 10") && msg.contains("excluído"), "{msg}");
    assert!(open_seatings(&app, banned).is_empty());
}

#[actix_rt::test]
async fn bsop_46_a_player_seated_at_one_table_cannot_sit_at_another_and_is_passed_over() {
    let app = TestApp::new().await;
    let r = room(&app).await;
    let game2 = create_game(&app, &r.admin, "PLO 2/5").await;
    let table2 = create_table(&app, &r.admin, 2, game2).await;
    open_table(&app, &r.admin, r.table).await;
    open_table(&app, &r.admin, table2).await;
    let p = eligible_players(&app, 2);
    let seating = seat(&app, &r.admin, r.table, 1, p[0]).await;
    join(&app, &r.admin, game2, p[0], false).await;
    join(&app, &r.admin, game2, p[1], false).await;
    let uri = format!("/api/v1/tables/{table2}/seats/1");
    let msg = refuse(
        &app,
        &uri,
        &r.admin,
        Some(json!({"player_id": p[0]})),
        None,
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("BSOP 46"), "{msg}");
    let msg = refuse(
        &app,
        &uri,
        &r.admin,
        Some(json!({"player_id": p[0]})),
        Some("pt-PT"),
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("já tem lugar numa mesa"), "{msg}");
    // Nor at another seat of the same table.
    refuse(
        &app,
        &format!("/api/v1/tables/{}/seats/2", r.table),
        &r.admin,
        Some(json!({"player_id": p[0]})),
        None,
        409,
        "conflict",
    )
    .await;
    // The call passes over them; they keep their place.
    assert_eq!(
        call_next(&app, &r.admin, table2, 1).await["player_id"],
        p[1]
    );
    assert_eq!(
        lines(&waitlist(&app, &r.admin, game2).await)[0],
        (p[0], 1, "waiting".into())
    );
    // Once they leave the first table they can be called.
    leave(&app, &r.admin, seating["id"].as_i64().unwrap()).await;
    assert_eq!(
        call_next(&app, &r.admin, table2, 2).await["player_id"],
        p[0]
    );
}

#[actix_rt::test]
async fn a_player_already_called_to_another_table_is_passed_over() {
    let app = TestApp::new().await;
    let r = room(&app).await;
    let game2 = create_game(&app, &r.admin, "PLO 2/5").await;
    let table2 = create_table(&app, &r.admin, 2, game2).await;
    open_table(&app, &r.admin, r.table).await;
    open_table(&app, &r.admin, table2).await;
    let p = eligible_players(&app, 2);
    join(&app, &r.admin, r.game, p[0], false).await;
    join(&app, &r.admin, game2, p[0], false).await;
    join(&app, &r.admin, game2, p[1], false).await;
    assert_eq!(
        call_next(&app, &r.admin, r.table, 1).await["player_id"],
        p[0]
    );
    // On the second list the first player is waiting for another call's answer: the next
    // one is called, and the first keeps the place.
    assert_eq!(
        call_next(&app, &r.admin, table2, 1).await["player_id"],
        p[1]
    );
    assert_eq!(
        lines(&waitlist(&app, &r.admin, game2).await)[0],
        (p[0], 1, "waiting".into())
    );
}

#[actix_rt::test]
async fn a_call_cancelled_by_a_seating_elsewhere_gives_the_player_back_their_place() {
    let app = TestApp::new().await;
    let r = room(&app).await;
    let game2 = create_game(&app, &r.admin, "PLO 2/5").await;
    let table2 = create_table(&app, &r.admin, 2, game2).await;
    open_table(&app, &r.admin, r.table).await;
    open_table(&app, &r.admin, table2).await;
    let p = eligible_players(&app, 1);
    join(&app, &r.admin, r.game, p[0], false).await;
    let call = call_next(&app, &r.admin, r.table, 1).await;
    // The floor seats the player at the other game instead (BSOP 46): the call ends.
    let seating = seat(&app, &r.admin, table2, 1, p[0]).await;
    let state: String = app.with_conn(|c| {
        use cardroom::db::schema::seat_calls::dsl::*;
        seat_calls
            .find(call["id"].as_i64().unwrap())
            .select(state)
            .first(c)
            .unwrap()
    });
    assert_eq!(state, "cancelled");
    assert_eq!(
        seats(&app, &r.admin, r.table).await["seats"][0]["state"],
        "empty"
    );
    refuse(
        &app,
        &format!("/api/v1/seat-calls/{}/seat", call["id"]),
        &r.admin,
        None,
        None,
        409,
        "conflict",
    )
    .await;
    // Still on the first list, waiting (not stuck as "called" with no call).
    assert_eq!(
        lines(&waitlist(&app, &r.admin, r.game).await),
        vec![(p[0], 1, "waiting".into())]
    );
    leave(&app, &r.admin, seating["id"].as_i64().unwrap()).await;
    assert_eq!(
        call_next(&app, &r.admin, r.table, 1).await["player_id"],
        p[0]
    );
}

#[actix_rt::test]
async fn confirming_a_call_seats_the_player_and_uses_up_the_list_entry() {
    let app = TestApp::new().await;
    let r = room(&app).await;
    let p = eligible_players(&app, 2);
    let entry = join(&app, &r.admin, r.game, p[0], false).await["entry_id"]
        .as_i64()
        .unwrap();
    join(&app, &r.admin, r.game, p[1], false).await;
    open_table(&app, &r.admin, r.table).await;
    let call = call_next(&app, &r.admin, r.table, 7).await;
    let res = post(
        &app,
        &format!("/api/v1/seat-calls/{}/seat", call["id"]),
        &r.admin,
        json!({}),
    )
    .await;
    assert_eq!(res.status, 201, "{}", res.text());
    let s = res.json();
    assert_eq!(s["player_id"], p[0]);
    assert_eq!(s["seat_no"], 7);
    assert_eq!(s["table_id"], r.table);
    assert_eq!(s["table_number"], 1);
    assert_eq!(s["entry_id"], entry);
    assert_eq!(s["game_id"], r.game);
    assert!(s["left_at"].is_null());
    assert_eq!(s["alias"], call["alias"]);
    // Off the list; the seat shows the player.
    assert_eq!(
        lines(&waitlist(&app, &r.admin, r.game).await),
        vec![(p[1], 1, "waiting".into())]
    );
    // The entry ends as seated, at the seating's time (the list's reports count its wait
    // to it).
    let (e_state, e_ended, e_reason): (String, Option<chrono::NaiveDateTime>, Option<String>) = app
        .with_conn(|c| {
            use cardroom::db::schema::waitlist_entries::dsl::*;
            waitlist_entries
                .find(entry)
                .select((state, ended_at, end_reason))
                .first(c)
                .unwrap()
        });
    assert_eq!(e_state, "seated");
    assert_eq!(e_reason.as_deref(), Some("seated"));
    let sat_at: chrono::DateTime<chrono::Utc> = s["sat_at"].as_str().unwrap().parse().unwrap();
    assert_eq!(e_ended.map(|t| t.and_utc()), Some(sat_at), "{s}");
    let view = seats(&app, &r.admin, r.table).await;
    assert_eq!(view["seated"], 1);
    assert_eq!(view["seats"][6]["state"], "seated");
    assert_eq!(view["seats"][6]["seated"]["seating_id"], s["id"]);
    assert_eq!(view["seats"][6]["seated"]["player_id"], p[0]);
    assert!(view["seats"][6]["call"].is_null());
    // The call is used up.
    let msg = refuse(
        &app,
        &format!("/api/v1/seat-calls/{}/seat", call["id"]),
        &r.admin,
        None,
        None,
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("no longer open"), "{msg}");
    refuse(
        &app,
        "/api/v1/seat-calls/999/seat",
        &r.admin,
        None,
        None,
        404,
        "not_found",
    )
    .await;
    // Leaving: the seat frees; leaving twice is refused; a reason is required.
    let sid = s["id"].as_i64().unwrap();
    let res = post(
        &app,
        &format!("/api/v1/seatings/{sid}/leave"),
        &r.admin,
        json!({}),
    )
    .await;
    refused(&res, 422, "validation_failed");
    let left = leave(&app, &r.admin, sid).await;
    assert_eq!(left["left_reason"], "cashed out");
    assert!(left["left_at"].is_string());
    assert_eq!(last_audit(&app).0, "seat.leave");
    assert_eq!(
        seats(&app, &r.admin, r.table).await["seats"][6]["state"],
        "empty"
    );
    let msg = refuse(
        &app,
        &format!("/api/v1/seatings/{sid}/leave"),
        &r.admin,
        Some(json!({"reason": "again"})),
        None,
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("already left"), "{msg}");
    refuse(
        &app,
        "/api/v1/seatings/999/leave",
        &r.admin,
        Some(json!({"reason": "x"})),
        None,
        404,
        "not_found",
    )
    .await;
}

#[actix_rt::test]
async fn an_unanswered_call_sends_the_player_to_the_bottom_and_calls_the_next() {
    let app = TestApp::with_clock(true).await;
    let r = room(&app).await;
    let p = eligible_players(&app, 3);
    for id in &p {
        join(&app, &r.admin, r.game, *id, false).await;
    }
    open_table(&app, &r.admin, r.table).await;
    let first = call_next(&app, &r.admin, r.table, 1).await;
    assert_eq!(first["player_id"], p[0]);
    advance(&app, &r.admin, 4).await;
    // Still within the 5 minutes: the only action is the escalation of the call nobody at
    // the table acknowledged (2 minutes); the call stays open.
    assert_eq!(tick(&app), 1, "escalated, not expired");
    assert_eq!(
        seats(&app, &r.admin, r.table).await["seats"][0]["call"]["call_id"],
        first["id"]
    );
    advance(&app, &r.admin, 2).await;
    assert_eq!(tick(&app), 1);
    // The next player is called for the same seat; the first goes to the bottom.
    let view = seats(&app, &r.admin, r.table).await;
    assert_eq!(view["seats"][0]["state"], "called");
    assert_eq!(view["seats"][0]["call"]["player_id"], p[1]);
    assert_ne!(view["seats"][0]["call"]["call_id"], first["id"]);
    let list = waitlist(&app, &r.admin, r.game).await;
    assert_eq!(
        lines(&list),
        vec![
            (p[1], 1, "called".into()),
            (p[2], 2, "waiting".into()),
            (p[0], 3, "waiting".into())
        ]
    );
    let actions: Vec<String> = app.with_conn(|c| {
        use cardroom::db::schema::audit_log::dsl::*;
        audit_log
            .order(seq.desc())
            .limit(2)
            .select(action)
            .load(c)
            .unwrap()
    });
    assert_eq!(actions, vec!["seat.call", "list.call_expired"]);
    // The expired call cannot be confirmed any more.
    let msg = refuse(
        &app,
        &format!("/api/v1/seat-calls/{}/seat", first["id"]),
        &r.admin,
        None,
        None,
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("no longer open"), "{msg}");
}

// ---- seats and tables ------------------------------------------------------------------

#[actix_rt::test]
async fn seat_refusals_taken_out_of_range_closed_table_unknown() {
    let app = TestApp::new().await;
    let r = room(&app).await;
    let p = eligible_players(&app, 3);
    join(&app, &r.admin, r.game, p[2], false).await;
    let t = r.table;
    // Closed table: no call, no seating.
    let msg = refuse(
        &app,
        &format!("/api/v1/tables/{t}/seats/1/call-next"),
        &r.admin,
        None,
        None,
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("not open"), "{msg}");
    let msg = refuse(
        &app,
        &format!("/api/v1/tables/{t}/seats/1"),
        &r.admin,
        Some(json!({"player_id": p[0]})),
        Some("pt-PT"),
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("não está aberta"), "{msg}");
    open_table(&app, &r.admin, t).await;
    refuse(
        &app,
        &format!("/api/v1/tables/{t}/open"),
        &r.admin,
        None,
        None,
        409,
        "conflict",
    )
    .await;
    // Seats are numbered 1 to 10 (PT-2007 6).
    for bad in [0, 11] {
        for uri in [
            format!("/api/v1/tables/{t}/seats/{bad}"),
            format!("/api/v1/tables/{t}/seats/{bad}/call-next"),
        ] {
            let before = snapshot(&app);
            let res = post(&app, &uri, &r.admin, json!({"player_id": p[0]})).await;
            refused(&res, 422, "validation_failed");
            assert_eq!(refused_fields(&res), vec!["seat_no"], "{uri}");
            assert!(
                res.json()["error"]["fields"][0]["message"]
                    .as_str()
                    .unwrap()
                    .contains("10"),
                "{}",
                res.text()
            );
            assert_eq!(snapshot(&app), before);
        }
    }
    // A seat taken.
    seat(&app, &r.admin, t, 4, p[0]).await;
    let msg = refuse(
        &app,
        &format!("/api/v1/tables/{t}/seats/4"),
        &r.admin,
        Some(json!({"player_id": p[1]})),
        None,
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("already sitting"), "{msg}");
    let msg = refuse(
        &app,
        &format!("/api/v1/tables/{t}/seats/4"),
        &r.admin,
        Some(json!({"player_id": p[1]})),
        Some("pt-PT"),
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("Já está alguém sentado"), "{msg}");
    refuse(
        &app,
        &format!("/api/v1/tables/{t}/seats/4/call-next"),
        &r.admin,
        None,
        None,
        409,
        "conflict",
    )
    .await;
    // A seat reserved by a call.
    call_next(&app, &r.admin, t, 5).await;
    let msg = refuse(
        &app,
        &format!("/api/v1/tables/{t}/seats/5"),
        &r.admin,
        Some(json!({"player_id": p[1]})),
        None,
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("reserved"), "{msg}");
    // Unknown table, player, missing or malformed body.
    refuse(
        &app,
        "/api/v1/tables/999/seats/1",
        &r.admin,
        Some(json!({"player_id": p[1]})),
        None,
        404,
        "not_found",
    )
    .await;
    refuse(
        &app,
        "/api/v1/tables/999/seats/1/call-next",
        &r.admin,
        None,
        None,
        404,
        "not_found",
    )
    .await;
    refuse(
        &app,
        "/api/v1/tables/999/open",
        &r.admin,
        None,
        None,
        404,
        "not_found",
    )
    .await;
    assert_eq!(
        app.get("/api/v1/tables/999/seats", &r.admin).await.status,
        404
    );
    refuse(
        &app,
        &format!("/api/v1/tables/{t}/seats/abc"),
        &r.admin,
        Some(json!({"player_id": p[1]})),
        None,
        404,
        "not_found",
    )
    .await;
    let before = snapshot(&app);
    let res = post(
        &app,
        &format!("/api/v1/tables/{t}/seats/6"),
        &r.admin,
        json!({"player_id": 9999}),
    )
    .await;
    refused(&res, 422, "validation_failed");
    assert_eq!(refused_fields(&res), vec!["player_id"]);
    let res = post(
        &app,
        &format!("/api/v1/tables/{t}/seats/6"),
        &r.admin,
        json!({}),
    )
    .await;
    assert_eq!(refused_fields(&res), vec!["player_id"]);
    let res = send(
        &app,
        "POST",
        &format!("/api/v1/tables/{t}/seats/6"),
        &r.admin,
        None,
        None,
    )
    .await;
    assert!(res.status == 400 || res.status == 415, "{}", res.status);
    assert_eq!(snapshot(&app), before);
}

#[actix_rt::test]
async fn pt2007_24_a_table_runs_at_four_suspends_below_and_closes_after_15_minutes() {
    let app = TestApp::with_clock(true).await;
    let r = room(&app).await;
    let p = eligible_players(&app, 6);
    open_table(&app, &r.admin, r.table).await;
    let mut seatings = Vec::new();
    for (i, id) in p.iter().take(3).enumerate() {
        seatings.push(
            seat(&app, &r.admin, r.table, i as i32 + 1, *id).await["id"]
                .as_i64()
                .unwrap(),
        );
        assert_eq!(
            table_state(&app, &r.admin, r.table).await,
            "open",
            "{} players cannot start a game",
            i + 1
        );
    }
    seatings.push(
        seat(&app, &r.admin, r.table, 4, p[3]).await["id"]
            .as_i64()
            .unwrap(),
    );
    assert_eq!(table_state(&app, &r.admin, r.table).await, "running");
    // Below 4: suspended, with the deadline to close.
    leave(&app, &r.admin, seatings[3]).await;
    let view = seats(&app, &r.admin, r.table).await;
    assert_eq!(view["table"]["state"], "suspended");
    assert_eq!(view["seated"], 3);
    let since: chrono::DateTime<chrono::Utc> = view["table"]["suspended_at"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    let closes: chrono::DateTime<chrono::Utc> = view["table"]["closes_at"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!((closes - since).num_minutes(), 15);
    // A fourth player back within the 15 minutes: the game resumes.
    advance(&app, &r.admin, 10).await;
    tick(&app);
    assert_eq!(table_state(&app, &r.admin, r.table).await, "suspended");
    let back = seat(&app, &r.admin, r.table, 5, p[4]).await["id"]
        .as_i64()
        .unwrap();
    assert_eq!(table_state(&app, &r.admin, r.table).await, "running");
    // Suspended again; 14 minutes later still suspended; at 15 minutes it closes.
    leave(&app, &r.admin, back).await;
    assert_eq!(table_state(&app, &r.admin, r.table).await, "suspended");
    advance(&app, &r.admin, 14).await;
    tick(&app);
    assert_eq!(table_state(&app, &r.admin, r.table).await, "suspended");
    advance(&app, &r.admin, 1).await;
    tick(&app);
    let view = seats(&app, &r.admin, r.table).await;
    assert_eq!(view["table"]["state"], "closed");
    assert!(view["table"]["closes_at"].is_null());
    let (action, after) = last_audit(&app);
    // The last records: the table closing, its players leaving, and coming back on the list.
    assert!(
        action == "table.state" || action == "seat.leave" || action == "list.table_break",
        "{action}"
    );
    assert!(
        app.with_conn(|c| {
            use cardroom::db::schema::audit_log::dsl as a;
            a::audit_log
                .filter(a::action.eq("table.state"))
                .filter(a::after_json.like("%\"closed\"%"))
                .count()
                .get_result::<i64>(c)
                .unwrap()
        }) == 1,
        "{after}"
    );
    // The players of a closed game no longer hold its seats (BSOP 46: they can be seated
    // at another table).
    assert_eq!(view["seated"], 0);
    let game2 = create_game(&app, &r.admin, "PLO 2/5").await;
    let table2 = create_table(&app, &r.admin, 2, game2).await;
    open_table(&app, &r.admin, table2).await;
    seat(&app, &r.admin, table2, 1, p[0]).await;
    // A closed table takes nobody until it is opened again.
    refuse(
        &app,
        &format!("/api/v1/tables/{}/seats/1", r.table),
        &r.admin,
        Some(json!({"player_id": p[5]})),
        None,
        409,
        "conflict",
    )
    .await;
    assert_eq!(open_table(&app, &r.admin, r.table).await["state"], "open");
}

// ---- roles -----------------------------------------------------------------------------

#[actix_rt::test]
async fn a_dealer_or_cashier_reads_the_floor_but_changes_nothing() {
    let app = TestApp::new().await;
    let r = room(&app).await;
    let p = eligible_players(&app, 3);
    let entry = join(&app, &r.admin, r.game, p[0], true).await["entry_id"]
        .as_i64()
        .unwrap();
    open_table(&app, &r.admin, r.table).await;
    let seating = seat(&app, &r.admin, r.table, 1, p[1]).await["id"]
        .as_i64()
        .unwrap();
    let call = call_next(&app, &r.admin, r.table, 2).await["id"]
        .as_i64()
        .unwrap();
    let game2 = create_game(&app, &r.admin, "PLO 2/5").await;
    let table2 = create_table(&app, &r.admin, 2, game2).await;
    let t = r.table;
    let writes: Vec<(String, Option<Value>)> = vec![
        (
            format!("/api/v1/games/{}/waitlist", r.game),
            Some(json!({"player_id": p[2]})),
        ),
        (
            format!("/api/v1/waitlist/{entry}/remove"),
            Some(json!({"reason": "x"})),
        ),
        (
            format!("/api/v1/waitlist/{entry}/reorder"),
            Some(json!({"position": 1, "reason": "x"})),
        ),
        (format!("/api/v1/waitlist/{entry}/check-in"), None),
        (format!("/api/v1/tables/{table2}/open"), None),
        (format!("/api/v1/tables/{t}/seats/3/call-next"), None),
        (format!("/api/v1/seat-calls/{call}/seat"), None),
        (
            format!("/api/v1/tables/{t}/seats/3"),
            Some(json!({"player_id": p[2]})),
        ),
        (
            format!("/api/v1/seatings/{seating}/leave"),
            Some(json!({"reason": "x"})),
        ),
    ];
    for role in ["dealer", "cashier"] {
        let token = app.staff_token(&format!("{role}1"), role).await;
        for (uri, body) in &writes {
            let msg = refuse(&app, uri, &token, body.clone(), None, 403, "forbidden").await;
            assert!(!msg.is_empty());
            // The role is checked before the body: even a malformed one gets 403.
            let before = snapshot(&app);
            let res = app
                .call(
                    test::TestRequest::post()
                        .uri(uri)
                        .insert_header(("Authorization", format!("Bearer {token}")))
                        .insert_header(("Content-Type", "application/json"))
                        .set_payload("{not json")
                        .to_request(),
                )
                .await;
            refused(&res, 403, "forbidden");
            assert_eq!(snapshot(&app), before);
        }
        if role == "cashier" {
            assert_eq!(lines(&waitlist(&app, &token, r.game).await).len(), 1);
        } else {
            // Dealers do not read the registry: the list (with full names) is refused.
            assert_eq!(
                app.get(&format!("/api/v1/games/{}/waitlist", r.game), &token)
                    .await
                    .status,
                403
            );
        }
        assert_eq!(seats(&app, &token, t).await["seated"], 1);
    }
    // Without a token: 401.
    let res = app
        .call(
            test::TestRequest::get()
                .uri(&format!("/api/v1/tables/{t}/seats"))
                .to_request(),
        )
        .await;
    refused(&res, 401, "unauthorized");
}

// ---- concurrency -----------------------------------------------------------------------

#[actix_rt::test]
async fn a_hundred_simultaneous_seatings_fill_each_seat_exactly_once() {
    let app = TestApp::new().await;
    let admin = app.admin_token().await;
    let floor = app.staff_token("floor1", "floor").await;
    let game = create_game(&app, &admin, "NL 2/5").await;
    let table = create_table(&app, &admin, 1, game).await;
    let view = open_table(&app, &floor, table).await;
    assert_eq!(view["seats"], 10);
    let p = eligible_players(&app, 100);
    let before_audit = app.audit_count();
    let requests = p.iter().enumerate().map(|(i, id)| {
        let req = test::TestRequest::post()
            .uri(&format!("/api/v1/tables/{table}/seats/{}", (i % 10) + 1))
            .insert_header(("Authorization", format!("Bearer {floor}")))
            .set_json(json!({"player_id": id}))
            .to_request();
        app.call(req)
    });
    let answers = futures_util::future::join_all(requests).await;
    let mut created = 0;
    let mut conflicts = 0;
    let mut others = Vec::new();
    for a in &answers {
        match a.status {
            201 => created += 1,
            409 => {
                let msg = refused(a, 409, "conflict");
                assert!(
                    msg.contains("sitting") || msg.contains("a moment ago"),
                    "{msg}"
                );
                conflicts += 1;
            }
            s => others.push(format!("{s}: {}", a.text())),
        }
    }
    assert!(others.is_empty(), "unexpected answers: {others:?}");
    assert_eq!((created, conflicts), (10, 90));
    // The database: 10 open seatings, each seat once, each player at most once.
    let rows: Vec<(i32, i64)> = app.with_conn(|c| {
        use cardroom::db::schema::seatings::dsl::*;
        seatings
            .filter(left_at.is_null())
            .filter(table_id.eq(table))
            .select((seat_no, player_id))
            .order(seat_no)
            .load(c)
            .unwrap()
    });
    assert_eq!(
        rows.iter().map(|r| r.0).collect::<Vec<_>>(),
        (1..=10).collect::<Vec<_>>()
    );
    let mut players: Vec<i64> = rows.iter().map(|r| r.1).collect();
    players.sort();
    players.dedup();
    assert_eq!(players.len(), 10);
    for (s, pl) in &rows {
        let i = p.iter().position(|x| x == pl).unwrap();
        assert_eq!(i % 10 + 1, *s as usize, "player {pl} in seat {s}");
    }
    assert_eq!(app.count("seatings"), 10);
    // Each winner is audited once (plus the table starting to run); losers leave no trace.
    let seat_takes: i64 = app.with_conn(|c| {
        use cardroom::db::schema::audit_log::dsl::*;
        audit_log
            .filter(action.eq("seat.take"))
            .count()
            .get_result(c)
            .unwrap()
    });
    assert_eq!(seat_takes, 10);
    assert!(app.audit_count() - before_audit >= 10);
    let view = seats(&app, &floor, table).await;
    assert_eq!(view["seated"], 10);
    assert_eq!(view["table"]["state"], "running");
}

// ---- must-move tables (BSOP 55, 56, 57) ------------------------------------------------

async fn create_table_mode(app: &TestApp, admin: &str, number: i32, game: i64, mode: &str) -> i64 {
    let r = post(
        app,
        "/api/v1/tables",
        admin,
        json!({"number": number, "game_id": game, "mode": mode}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text());
    r.json()["id"].as_i64().unwrap()
}

async fn must_move_of(app: &TestApp, token: &str, table: i64) -> bool {
    seats(app, token, table).await["table"]["must_move"]
        .as_bool()
        .unwrap()
}

/// The game's must-move list: (table id, player ids in order).
async fn must_move_list(app: &TestApp, token: &str, game: i64) -> (Option<i64>, Vec<i64>) {
    let r = app
        .get(&format!("/api/v1/games/{game}/must-move"), token)
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let j = r.json();
    let players = j["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["player_id"].as_i64().unwrap())
        .collect();
    (j["table"]["id"].as_i64(), players)
}

/// The open seatings of a player: (table, seat).
pub(crate) fn open_seatings(app: &TestApp, player: i64) -> Vec<(i64, i32)> {
    app.with_conn(|c| {
        use cardroom::db::schema::seatings::dsl::*;
        seatings
            .filter(player_id.eq(player))
            .filter(left_at.is_null())
            .select((table_id, seat_no))
            .load(c)
            .unwrap()
    })
}

pub(crate) fn left_reason_of(app: &TestApp, seating: i64) -> Option<String> {
    app.with_conn(|c| {
        use cardroom::db::schema::seatings::dsl::*;
        seatings.find(seating).select(left_reason).first(c).unwrap()
    })
}

pub(crate) fn audits(app: &TestApp, what: &str) -> i64 {
    app.with_conn(|c| {
        use cardroom::db::schema::audit_log::dsl::*;
        audit_log
            .filter(action.eq(what))
            .count()
            .get_result(c)
            .unwrap()
    })
}

fn events_of(app: &TestApp, what: &str) -> i64 {
    app.with_conn(|c| {
        use cardroom::db::schema::events::dsl::*;
        events.filter(kind.eq(what)).count().get_result(c).unwrap()
    })
}

/// Two tables of one game, each open: `main` opened first (and created second, so the
/// choice follows the opening time, not the id), `mm` one minute later.
struct TwoTables {
    admin: String,
    game: i64,
    main: i64,
    mm: i64,
}

async fn two_tables(app: &TestApp) -> TwoTables {
    let admin = app.admin_token().await;
    let game = create_game(app, &admin, "NL 1/2").await;
    let mm = create_table(app, &admin, 1, game).await;
    let main = create_table(app, &admin, 2, game).await;
    open_table(app, &admin, main).await;
    advance(app, &admin, 1).await;
    open_table(app, &admin, mm).await;
    TwoTables {
        admin,
        game,
        main,
        mm,
    }
}

#[actix_rt::test]
async fn bsop_55_56_with_two_tables_of_a_game_the_newer_is_the_must_move() {
    let app = TestApp::with_clock(true).await;
    let admin = app.admin_token().await;
    let game = create_game(&app, &admin, "NL 1/2").await;
    let other_game = create_game(&app, &admin, "PLO 1/2").await;
    let t1 = create_table(&app, &admin, 1, game).await;
    let t2 = create_table(&app, &admin, 2, game).await;
    let other = create_table(&app, &admin, 3, other_game).await;
    // One table: no must-move.
    let first = open_table(&app, &admin, t2).await;
    assert_eq!(first["must_move"], false);
    assert_eq!(must_move_list(&app, &admin, game).await, (None, vec![]));
    assert_eq!(audits(&app, "table.must_move"), 0);
    advance(&app, &admin, 1).await;
    // A table of another game changes nothing for this one.
    open_table(&app, &admin, other).await;
    assert!(!must_move_of(&app, &admin, other).await);
    advance(&app, &admin, 1).await;
    // The second table of the game (opened later, though created first) is the must-move.
    let second = open_table(&app, &admin, t1).await;
    assert_eq!(second["must_move"], true, "{second}");
    assert!(!must_move_of(&app, &admin, t2).await);
    assert!(!must_move_of(&app, &admin, other).await);
    assert_eq!(must_move_list(&app, &admin, game).await.0, Some(t1));
    assert_eq!(audits(&app, "table.must_move"), 1);
    assert_eq!(events_of(&app, "table.must_move"), 1);
    let (action, after) = last_audit(&app);
    assert_eq!(action, "table.must_move");
    assert!(after.contains("\"must_move\":true"), "{after}");
    // Anyone on the staff reads it.
    let dealer = app.staff_token("dealer1", "dealer").await;
    assert_eq!(must_move_list(&app, &dealer, game).await.0, Some(t1));
    assert_eq!(
        app.get("/api/v1/games/999/must-move", &dealer).await.status,
        404
    );
    // The dashboard shows the badge on that table only.
    let s = app.web_login("admin", ADMIN_PW).await;
    let html = app.floor_all(&s).await;
    assert_eq!(
        html.matches("badge badge-warn must-move").count(),
        1,
        "{html}"
    );
    let card = &html[html.find("id=\"table-1\"").unwrap()..html.find("id=\"table-2\"").unwrap()];
    assert!(card.contains("Must-move"), "{card}");
}

#[actix_rt::test]
async fn bsop_56_the_third_table_breaks_and_the_second_formed_becomes_the_must_move() {
    let app = TestApp::with_clock(true).await;
    let r = two_tables(&app).await;
    advance(&app, &r.admin, 1).await;
    let third = create_table(&app, &r.admin, 3, r.game).await;
    assert_eq!(open_table(&app, &r.admin, third).await["must_move"], true);
    // BSOP 56: the first two are main games, the newest the must-move.
    assert!(!must_move_of(&app, &r.admin, r.main).await);
    assert!(!must_move_of(&app, &r.admin, r.mm).await);
    // The third runs, falls below four, and closes 15 minutes later (PT-2007 24).
    let p = eligible_players(&app, 4);
    let mut s = Vec::new();
    for (i, id) in p.iter().enumerate() {
        s.push(
            seat(&app, &r.admin, third, i as i32 + 1, *id).await["id"]
                .as_i64()
                .unwrap(),
        );
    }
    leave(&app, &r.admin, s[3]).await;
    advance(&app, &r.admin, 15).await;
    tick(&app);
    assert_eq!(table_state(&app, &r.admin, third).await, "closed");
    // The second-formed becomes the must-move; the closed one is not any more.
    assert!(!must_move_of(&app, &r.admin, third).await);
    assert!(must_move_of(&app, &r.admin, r.mm).await);
    assert!(!must_move_of(&app, &r.admin, r.main).await);
    assert_eq!(must_move_list(&app, &r.admin, r.game).await.0, Some(r.mm));
    // With one table left there is no must-move at all.
    let q = eligible_players(&app, 4);
    let mut s2 = Vec::new();
    for (i, id) in q.iter().enumerate() {
        s2.push(
            seat(&app, &r.admin, r.mm, i as i32 + 1, *id).await["id"]
                .as_i64()
                .unwrap(),
        );
    }
    leave(&app, &r.admin, s2[0]).await;
    advance(&app, &r.admin, 16).await;
    tick(&app);
    assert_eq!(table_state(&app, &r.admin, r.mm).await, "closed");
    assert!(!must_move_of(&app, &r.admin, r.main).await);
    assert_eq!(must_move_list(&app, &r.admin, r.game).await, (None, vec![]));
}

#[actix_rt::test]
async fn bsop_55_58_must_move_is_the_rooms_choice_per_game_and_a_change_waits_for_the_next_table() {
    let app = TestApp::with_clock(true).await;
    let admin = app.admin_token().await;
    // A balanced game (BSOP 58): two tables, neither is a must-move table; new players go to
    // the table that needs one most.
    let g = json!({"name": "NL 1/2 balanced", "variant": "holdem_nl", "small_blind": 100,
        "big_blind": 200, "limit_class": "low", "buy_in_min": 4000, "buy_in_max": 20000,
        "seats": 10, "table_policy": "balanced"});
    let r = post(&app, "/api/v1/games", &admin, g).await;
    assert_eq!(r.status, 201, "{}", r.text());
    assert_eq!(r.json()["table_policy"], "balanced");
    let game = r.json()["id"].as_i64().unwrap();
    let t1 = create_table(&app, &admin, 1, game).await;
    let t2 = create_table(&app, &admin, 2, game).await;
    open_table(&app, &admin, t1).await;
    advance(&app, &admin, 1).await;
    assert_eq!(open_table(&app, &admin, t2).await["must_move"], false);
    assert!(!must_move_of(&app, &admin, t1).await);
    assert_eq!(must_move_list(&app, &admin, game).await, (None, vec![]));
    let p = eligible_players(&app, 6);
    for (i, id) in p.iter().take(3).enumerate() {
        seat(&app, &admin, t1, i as i32 + 1, *id).await;
    }
    seat(&app, &admin, t2, 1, p[3]).await;
    let uri = format!("/api/v1/games/{game}/suggest-table");
    let s = app.get(&uri, &admin).await.json();
    assert_eq!(
        (s["table_id"].as_i64(), s["rule"].as_str()),
        (Some(t2), Some("neediest")),
        "{s}"
    );
    // A must-move game: the newer table is the must-move. Nobody there to move into the main
    // game's free seats: new players go to the main game (BSOP 55).
    let mm_game = create_game(&app, &admin, "NL 1/2 must-move").await;
    let m1 = create_table(&app, &admin, 3, mm_game).await;
    let m2 = create_table(&app, &admin, 4, mm_game).await;
    let m3 = create_table(&app, &admin, 5, mm_game).await;
    open_table(&app, &admin, m1).await;
    advance(&app, &admin, 1).await;
    open_table(&app, &admin, m2).await;
    assert!(must_move_of(&app, &admin, m2).await);
    let muri = format!("/api/v1/games/{mm_game}/suggest-table");
    let ms = app.get(&muri, &admin).await.json();
    assert_eq!(
        (ms["table_id"].as_i64(), ms["rule"].as_str()),
        (Some(m1), Some("main_game")),
        "{ms}"
    );
    // A policy that does not exist: 422 on the field, nothing saved.
    let before = snapshot(&app);
    let mut edit = json!({"name": "NL 1/2 must-move", "variant": "holdem_nl", "small_blind": 100,
        "big_blind": 200, "limit_class": "low", "buy_in_min": 4000, "buy_in_max": 20000,
        "seats": 10, "table_policy": "sometimes"});
    let r = send(
        &app,
        "PUT",
        &format!("/api/v1/games/{mm_game}"),
        &admin,
        Some(edit.clone()),
        None,
    )
    .await;
    refused(&r, 422, "validation_failed");
    assert_eq!(refused_fields(&r), vec!["table_policy"]);
    assert_eq!(snapshot(&app), before);
    // Balanced from now on: the running tables keep their roles until a table of the game
    // opens or breaks; the board says so.
    edit["table_policy"] = json!("balanced");
    let r = send(
        &app,
        "PUT",
        &format!("/api/v1/games/{mm_game}"),
        &admin,
        Some(edit.clone()),
        None,
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["table_policy"], "balanced");
    assert!(must_move_of(&app, &admin, m2).await);
    let web = app.web_login("admin", ADMIN_PW).await;
    let html = app.floor_all(&web).await;
    let badge = &html[html
        .find(&format!("id=\"policy-{mm_game}\""))
        .expect("policy badge")..];
    assert!(
        badge[..badge.find("</span>").unwrap()]
            .contains("Balanced from the next table opened or broken"),
        "{badge}"
    );
    let badge = &html[html
        .find(&format!("id=\"policy-{game}\""))
        .expect("policy badge")..];
    assert!(
        badge[..badge.find("</span>").unwrap()].ends_with(">Balanced"),
        "{badge}"
    );
    // A third table opens: the game is balanced now, no must-move table.
    advance(&app, &admin, 1).await;
    assert_eq!(open_table(&app, &admin, m3).await["must_move"], false);
    assert!(!must_move_of(&app, &admin, m2).await);
    assert_eq!(app.get(&muri, &admin).await.json()["rule"], "neediest");
    let html = app.floor_all(&web).await;
    assert!(
        !html.contains("from the next table opened or broken"),
        "{html}"
    );
    // Back to must-move: it applies when the third table breaks (PT-2007 24), and then the
    // newest of the two left is the must-move (BSOP 56).
    edit["table_policy"] = json!("must_move");
    let r = send(
        &app,
        "PUT",
        &format!("/api/v1/games/{mm_game}"),
        &admin,
        Some(edit),
        None,
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(!must_move_of(&app, &admin, m2).await);
    let q = eligible_players(&app, 4);
    let mut s3 = Vec::new();
    for (i, id) in q.iter().enumerate() {
        s3.push(
            seat(&app, &admin, m3, i as i32 + 1, *id).await["id"]
                .as_i64()
                .unwrap(),
        );
    }
    leave(&app, &admin, s3[0]).await;
    advance(&app, &admin, 16).await;
    tick(&app);
    assert_eq!(table_state(&app, &admin, m3).await, "closed");
    assert!(must_move_of(&app, &admin, m2).await);
    assert!(!must_move_of(&app, &admin, m1).await);
    assert_eq!(audits(&app, "game.update"), 2);
}

/// The must-move scene: `main` has four players; at `mm` sit, in this seat order, z, x, y
/// (who joined the list x, y, z) and w (seated without a list entry); q waits on the list.
struct MustMoveScene {
    t: TwoTables,
    main_seatings: Vec<i64>,
    x: i64,
    y: i64,
    z: i64,
    w: i64,
    q: i64,
    mm_seatings: std::collections::HashMap<i64, i64>,
}

async fn must_move_scene(app: &TestApp) -> MustMoveScene {
    let t = two_tables(app).await;
    let p = eligible_players(app, 9);
    let (x, y, z, w, q) = (p[4], p[5], p[6], p[7], p[8]);
    let mut main_seatings = Vec::new();
    for (i, id) in p.iter().take(4).enumerate() {
        main_seatings.push(
            seat(app, &t.admin, t.main, i as i32 + 1, *id).await["id"]
                .as_i64()
                .unwrap(),
        );
    }
    for id in [x, y, z] {
        join(app, &t.admin, t.game, id, false).await;
    }
    let mut mm_seatings = std::collections::HashMap::new();
    for (i, id) in [z, x, y, w].iter().enumerate() {
        let s = seat(app, &t.admin, t.mm, i as i32 + 1, *id).await;
        if *id != w {
            assert!(s["entry_id"].is_i64(), "{s}");
        }
        mm_seatings.insert(*id, s["id"].as_i64().unwrap());
    }
    join(app, &t.admin, t.game, q, false).await;
    assert_eq!(table_state(app, &t.admin, t.main).await, "running");
    assert_eq!(table_state(app, &t.admin, t.mm).await, "running");
    MustMoveScene {
        t,
        main_seatings,
        x,
        y,
        z,
        w,
        q,
        mm_seatings,
    }
}

/// A call at a main table reads its game's must-move table and players inside the room's
/// write turn, where PostgreSQL plans a statement once for every value (generic plans,
/// `db::postgres::TURN_LOCK`). The must-move flag is written into that statement, not bound:
/// bound, the plan could not tell one table of the game from all of them and read every
/// seating ever recorded (a scan of a table that grows every night; 0.4 ms a call on the
/// bench's room of one night). Every statement of a call is looked at.
#[actix_rt::test]
async fn a_call_reads_the_must_move_table_with_its_flag_written_into_the_statement() {
    let app = TestApp::with_clock(true).await;
    let m = must_move_scene(&app).await;
    let t = &m.t;
    leave(&app, &t.admin, m.main_seatings[1]).await;
    let now = app.state.clock.now();
    let (call, sql) = app.statements_of(|c| {
        app.state.db.write(c, |c| {
            let act = cardroom::services::Acting::system(now)
                .in_room(c)
                .expect("room");
            cardroom::services::floor::call_next(c, &act, TableId(t.main), 2)
        })
    });
    let call = call.expect("the call");
    assert_eq!(
        call.player_id,
        PlayerId(m.x),
        "the first must-move player is called"
    );
    assert!(
        sql.iter()
            .any(|q| q.contains(r#""card_tables"."must_move""#) && q.contains("seatings")),
        "the must-move players were read: {sql:#?}"
    );
    for q in sql.iter() {
        assert!(
            !q.contains(r#""must_move" = $"#) && !q.contains(r#""must_move" = ?"#),
            "a bound must-move flag: {q}"
        );
    }
}

#[actix_rt::test]
async fn bsop_55_a_freed_main_seat_goes_to_the_first_must_move_player_in_list_order_and_confirming_moves_them(
) {
    let app = TestApp::with_clock(true).await;
    let m = must_move_scene(&app).await;
    let t = &m.t;
    let floor = app.staff_token("floor1", "floor").await;
    // BSOP 55: the must-move list keeps the original waiting-list order (not the seat or
    // sitting order); a player seated without a list entry comes after.
    assert_eq!(
        must_move_list(&app, &floor, t.game).await,
        (Some(t.mm), vec![m.x, m.y, m.z, m.w])
    );
    // A seat frees up at the main game: the first must-move player is called, before q on
    // the list.
    leave(&app, &floor, m.main_seatings[1]).await;
    let call = call_next(&app, &floor, t.main, 2).await;
    assert_eq!(call["player_id"], m.x);
    assert_eq!(call["source"], "must_move");
    assert!(call["entry_id"].is_null());
    assert_eq!(
        lines(&waitlist(&app, &floor, t.game).await),
        vec![(m.q, 1, "waiting".into())]
    );
    // Confirming moves x: the must-move seating ends, the main one starts; one seat only.
    let res = post(
        &app,
        &format!("/api/v1/seat-calls/{}/seat", call["id"]),
        &floor,
        json!({}),
    )
    .await;
    assert_eq!(res.status, 201, "{}", res.text());
    let moved = res.json();
    assert_eq!(moved["table_id"], t.main);
    assert_eq!(moved["seat_no"], 2);
    assert_eq!(moved["player_id"], m.x);
    assert_eq!(open_seatings(&app, m.x), vec![(t.main, 2)]);
    assert_eq!(
        left_reason_of(&app, m.mm_seatings[&m.x]).as_deref(),
        Some("must-move")
    );
    let (action, after) = last_audit(&app);
    assert!(
        action == "seat.must_move" || action == "table.state",
        "{action}"
    );
    assert_eq!(audits(&app, "seat.must_move"), 1);
    assert!(
        after.contains("must-move") || action == "table.state",
        "{after}"
    );
    assert_eq!(
        seats(&app, &floor, t.mm).await["seats"][1]["state"],
        "empty"
    );
    assert_eq!(seats(&app, &floor, t.main).await["seated"], 4);
    // The call is used up; the list did not move.
    let msg = refuse(
        &app,
        &format!("/api/v1/seat-calls/{}/seat", call["id"]),
        &floor,
        None,
        None,
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("no longer open"), "{msg}");
    assert_eq!(
        lines(&waitlist(&app, &floor, t.game).await),
        vec![(m.q, 1, "waiting".into())]
    );
    assert_eq!(
        must_move_list(&app, &floor, t.game).await.1,
        vec![m.y, m.z, m.w]
    );
    // Two more main seats: the next two in order, each called once.
    leave(&app, &floor, m.main_seatings[2]).await;
    leave(&app, &floor, m.main_seatings[3]).await;
    assert_eq!(call_next(&app, &floor, t.main, 3).await["player_id"], m.y);
    let z_call = call_next(&app, &floor, t.main, 4).await;
    assert_eq!(z_call["player_id"], m.z);
    // z goes home instead: the must-move call ends with the seating; seat 4 is free again.
    leave(&app, &floor, m.mm_seatings[&m.z]).await;
    assert_eq!(
        seats(&app, &floor, t.main).await["seats"][3]["state"],
        "empty"
    );
    refuse(
        &app,
        &format!("/api/v1/seat-calls/{}/seat", z_call["id"]),
        &floor,
        None,
        None,
        409,
        "conflict",
    )
    .await;
    // A seat at the must-move table itself goes to the waiting list.
    let c = call_next(&app, &floor, t.mm, 9).await;
    assert_eq!(
        (c["player_id"].as_i64(), c["source"].as_str()),
        (Some(m.q), Some("list"))
    );
}

#[actix_rt::test]
async fn bsop_55_a_refusal_to_come_back_later_keeps_the_player_off_the_list_for_one_hour() {
    let app = TestApp::with_clock(true).await;
    let m = must_move_scene(&app).await;
    let t = &m.t;
    leave(&app, &t.admin, m.main_seatings[0]).await;
    let call = call_next(&app, &t.admin, t.main, 1).await;
    assert_eq!(call["player_id"], m.x);
    let uri = format!("/api/v1/seatings/{}/refuse-must-move", m.mm_seatings[&m.x]);
    // The choice is required and must be one of the two.
    let before = snapshot(&app);
    let res = post(&app, &uri, &t.admin, json!({})).await;
    refused(&res, 422, "validation_failed");
    assert_eq!(refused_fields(&res), vec!["choice"]);
    let res = post(&app, &uri, &t.admin, json!({"choice": "stay"})).await;
    assert_eq!(refused_fields(&res), vec!["choice"]);
    assert_eq!(snapshot(&app), before);
    // Only a player at the must-move table can refuse a must-move.
    let msg = refuse(
        &app,
        &format!("/api/v1/seatings/{}/refuse-must-move", m.main_seatings[1]),
        &t.admin,
        Some(json!({"choice": "give_up"})),
        None,
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("BSOP 55"), "{msg}");
    refuse(
        &app,
        "/api/v1/seatings/999/refuse-must-move",
        &t.admin,
        Some(json!({"choice": "give_up"})),
        None,
        404,
        "not_found",
    )
    .await;

    let res = post(&app, &uri, &t.admin, json!({"choice": "rejoin_later"})).await;
    assert_eq!(res.status, 201, "{}", res.text());
    let refusal = res.json();
    assert_eq!(refusal["choice"], "rejoin_later");
    assert_eq!(refusal["player_id"], m.x);
    assert_eq!(refusal["table_id"], t.mm);
    let refused_at: chrono::DateTime<chrono::Utc> =
        refusal["refused_at"].as_str().unwrap().parse().unwrap();
    let rejoin_after: chrono::DateTime<chrono::Utc> =
        refusal["rejoin_after"].as_str().unwrap().parse().unwrap();
    assert_eq!(
        (rejoin_after - refused_at).num_minutes(),
        60,
        "the room's return window"
    );
    // x left the must-move table; the call was declined and the seat offered to y.
    assert!(open_seatings(&app, m.x).is_empty());
    assert_eq!(
        left_reason_of(&app, m.mm_seatings[&m.x]).as_deref(),
        Some("refused must-move")
    );
    let call_state: String = app.with_conn(|c| {
        use cardroom::db::schema::seat_calls::dsl::*;
        seat_calls
            .find(call["id"].as_i64().unwrap())
            .select(state)
            .first(c)
            .unwrap()
    });
    assert_eq!(call_state, "declined");
    assert_eq!(refusal["next_call"]["player_id"], m.y);
    assert_eq!(refusal["next_call"]["source"], "must_move");
    assert_eq!(refusal["next_call"]["seat_no"], 1);
    assert_eq!(audits(&app, "seat.refuse_must_move"), 1);
    // Refusing again: the seating already ended.
    refuse(
        &app,
        &uri,
        &t.admin,
        Some(json!({"choice": "rejoin_later"})),
        None,
        409,
        "conflict",
    )
    .await;

    // Joining the list again is refused before the hour, naming the time, in both languages.
    let tz = app.with_conn(|c| cardroom::services::room::get(c).unwrap().tz);
    let time = rejoin_after.with_timezone(&tz).format("%H:%M").to_string();
    let join_uri = format!("/api/v1/games/{}/waitlist", t.game);
    let msg = refuse(
        &app,
        &join_uri,
        &t.admin,
        Some(json!({"player_id": m.x})),
        None,
        409,
        "conflict",
    )
    .await;
    assert!(
        msg.contains(&time) && msg.contains("BSOP 55"),
        "{msg} (expected {time})"
    );
    let msg = refuse(
        &app,
        &join_uri,
        &t.admin,
        Some(json!({"player_id": m.x})),
        Some("pt-PT"),
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains(&time) && msg.contains("recusou"), "{msg}");
    // Nor seated at one of the game's tables before the hour (directly: no list needed).
    let msg = refuse(
        &app,
        &format!("/api/v1/tables/{}/seats/5", t.main),
        &t.admin,
        Some(json!({"player_id": m.x})),
        None,
        409,
        "conflict",
    )
    .await;
    assert!(
        msg.contains(&time) && msg.contains("BSOP 55"),
        "{msg} (expected {time})"
    );
    assert!(open_seatings(&app, m.x).is_empty());
    advance(&app, &t.admin, 59).await;
    refuse(
        &app,
        &join_uri,
        &t.admin,
        Some(json!({"player_id": m.x})),
        None,
        409,
        "conflict",
    )
    .await;
    // Another game's list is not affected.
    let other = create_game(&app, &t.admin, "PLO 1/2").await;
    join(&app, &t.admin, other, m.x, false).await;
    // From the hour on, x may join again (at the bottom).
    advance(&app, &t.admin, 1).await;
    let line = join(&app, &t.admin, t.game, m.x, false).await;
    assert_eq!(line["position"], 2, "{line}");
}

#[actix_rt::test]
async fn bsop_55_a_player_who_refuses_and_gives_up_may_not_play_at_the_must_move_table() {
    let app = TestApp::with_clock(true).await;
    let m = must_move_scene(&app).await;
    let t = &m.t;
    let res = post(
        &app,
        &format!("/api/v1/seatings/{}/refuse-must-move", m.mm_seatings[&m.x]),
        &t.admin,
        json!({"choice": "give_up"}),
    )
    .await;
    assert_eq!(res.status, 201, "{}", res.text());
    assert_eq!(res.json()["choice"], "give_up");
    assert!(res.json()["rejoin_after"].is_null());
    assert!(
        res.json()["next_call"].is_null(),
        "no must-move call was refused"
    );
    assert!(open_seatings(&app, m.x).is_empty());
    assert_eq!(
        left_reason_of(&app, m.mm_seatings[&m.x]).as_deref(),
        Some("refused must-move")
    );
    assert_eq!(
        must_move_list(&app, &t.admin, t.game).await.1,
        vec![m.y, m.z, m.w]
    );
    // Not back at the must-move table, directly or by a call.
    let msg = refuse(
        &app,
        &format!("/api/v1/tables/{}/seats/8", t.mm),
        &t.admin,
        Some(json!({"player_id": m.x})),
        None,
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("BSOP 55") && msg.contains("gave up"), "{msg}");
    let msg = refuse(
        &app,
        &format!("/api/v1/tables/{}/seats/8", t.mm),
        &t.admin,
        Some(json!({"player_id": m.x})),
        Some("pt-PT"),
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("desistiu"), "{msg}");
    // On the list (nothing stops that) they are passed over for the must-move table...
    join(&app, &t.admin, t.game, m.x, false).await;
    let list = waitlist(&app, &t.admin, t.game).await;
    assert_eq!(
        lines(&list),
        vec![(m.q, 1, "waiting".into()), (m.x, 2, "waiting".into())]
    );
    let c = call_next(&app, &t.admin, t.mm, 8).await;
    assert_eq!(c["player_id"], m.q);
    let msg = refuse(
        &app,
        &format!("/api/v1/tables/{}/seats/9/call-next", t.mm),
        &t.admin,
        None,
        None,
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("Nobody"), "{msg}");
    // ...but may play at a main game.
    seat(&app, &t.admin, t.main, 5, m.x).await;
    assert_eq!(open_seatings(&app, m.x), vec![(t.main, 5)]);
}

// ---- seat-change requests (PT-2007 12, BSOP 51) -----------------------------------------

#[actix_rt::test]
async fn pt2007_12_bsop_51_a_seat_change_request_is_served_first_and_moves_the_player_within_the_table(
) {
    let app = TestApp::new().await;
    let r = room(&app).await;
    let floor = app.staff_token("floor1", "floor").await;
    let p = eligible_players(&app, 6);
    open_table(&app, &floor, r.table).await;
    let mut s = Vec::new();
    for (i, id) in p.iter().take(5).enumerate() {
        s.push(
            seat(&app, &floor, r.table, i as i32 + 1, *id).await["id"]
                .as_i64()
                .unwrap(),
        );
    }
    let q = p[5];
    join(&app, &floor, r.game, q, false).await;
    // p[2] asks first, then p[4].
    let res = post(
        &app,
        &format!("/api/v1/seatings/{}/seat-change", s[2]),
        &floor,
        json!({}),
    )
    .await;
    assert_eq!(res.status, 201, "{}", res.text());
    let r2 = res.json();
    assert_eq!(
        (
            r2["player_id"].as_i64(),
            r2["seat_no"].as_i64(),
            r2["state"].as_str()
        ),
        (Some(p[2]), Some(3), Some("open"))
    );
    assert_eq!(last_audit(&app).0, "seat.change_request");
    let r4 = post(
        &app,
        &format!("/api/v1/seatings/{}/seat-change", s[4]),
        &floor,
        json!({}),
    )
    .await
    .json();
    // One open request per player; the seating must be current.
    let msg = refuse(
        &app,
        &format!("/api/v1/seatings/{}/seat-change", s[2]),
        &floor,
        None,
        None,
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("already asked"), "{msg}");
    let msg = refuse(
        &app,
        &format!("/api/v1/seatings/{}/seat-change", s[2]),
        &floor,
        None,
        Some("pt-PT"),
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("já pediu"), "{msg}");
    refuse(
        &app,
        "/api/v1/seatings/999/seat-change",
        &floor,
        None,
        None,
        404,
        "not_found",
    )
    .await;
    // Anyone on the staff reads the requests, first asked first.
    let dealer = app.staff_token("dealer1", "dealer").await;
    let list = app
        .get(&format!("/api/v1/tables/{}/seat-changes", r.table), &dealer)
        .await
        .json();
    let order: Vec<i64> = list["requests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["player_id"].as_i64().unwrap())
        .collect();
    assert_eq!(order, vec![p[2], p[4]]);

    // Seat 1 frees up: the first request is called before the list.
    leave(&app, &floor, s[0]).await;
    let call = call_next(&app, &floor, r.table, 1).await;
    assert_eq!(
        (call["player_id"].as_i64(), call["source"].as_str()),
        (Some(p[2]), Some("seat_change"))
    );
    let res = post(
        &app,
        &format!("/api/v1/seat-calls/{}/seat", call["id"]),
        &floor,
        json!({}),
    )
    .await;
    assert_eq!(res.status, 201, "{}", res.text());
    assert_eq!(res.json()["seat_no"], 1);
    // Moved within the table: one seating, the old one ended; the request is served.
    assert_eq!(open_seatings(&app, p[2]), vec![(r.table, 1)]);
    assert_eq!(left_reason_of(&app, s[2]).as_deref(), Some("seat change"));
    assert_eq!(audits(&app, "seat.change"), 1);
    let state: String = app.with_conn(|c| {
        use cardroom::db::schema::seat_change_requests::dsl::*;
        seat_change_requests
            .find(r2["id"].as_i64().unwrap())
            .select(state)
            .first(c)
            .unwrap()
    });
    assert_eq!(state, "served");
    let view = seats(&app, &floor, r.table).await;
    assert_eq!(view["seated"], 4);
    assert_eq!(view["seats"][2]["state"], "empty");
    // Seat 3 (just freed): the next request.
    let call = call_next(&app, &floor, r.table, 3).await;
    assert_eq!(
        (call["player_id"].as_i64(), call["source"].as_str()),
        (Some(p[4]), Some("seat_change"))
    );
    // Withdrawn: the call ends with it and the seat goes to the list.
    let res = post(
        &app,
        &format!("/api/v1/seat-changes/{}/cancel", r4["id"]),
        &floor,
        json!({}),
    )
    .await;
    assert_eq!(res.status, 200, "{}", res.text());
    assert_eq!(res.json()["state"], "cancelled");
    assert_eq!(last_audit(&app).0, "seat.change_cancel");
    assert_eq!(
        seats(&app, &floor, r.table).await["seats"][2]["state"],
        "empty"
    );
    let msg = refuse(
        &app,
        &format!("/api/v1/seat-changes/{}/cancel", r4["id"]),
        &floor,
        None,
        None,
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("no longer open"), "{msg}");
    refuse(
        &app,
        "/api/v1/seat-changes/999/cancel",
        &floor,
        None,
        None,
        404,
        "not_found",
    )
    .await;
    assert_eq!(call_next(&app, &floor, r.table, 3).await["player_id"], q);
    // A player who leaves the table takes their request with them.
    post(
        &app,
        &format!("/api/v1/seatings/{}/seat-change", s[1]),
        &floor,
        json!({}),
    )
    .await;
    leave(&app, &floor, s[1]).await;
    let list = app
        .get(&format!("/api/v1/tables/{}/seat-changes", r.table), &floor)
        .await
        .json();
    assert!(list["requests"].as_array().unwrap().is_empty(), "{list}");
}

// ---- seat holds (BSOP 45, 49) -----------------------------------------------------------

#[actix_rt::test]
async fn bsop_45_49_a_held_seat_blocks_calls_and_seating_the_named_player_releases_it() {
    let app = TestApp::new().await;
    let r = room(&app).await;
    let game2 = create_game(&app, &r.admin, "PLO 2/5").await;
    let other = create_table(&app, &r.admin, 2, game2).await;
    open_table(&app, &r.admin, r.table).await;
    open_table(&app, &r.admin, other).await;
    let p = eligible_players(&app, 4);
    let (h, listed, someone) = (p[0], p[1], p[2]);
    // h is finishing a hand at the other table.
    let at_other = seat(&app, &r.admin, other, 1, h).await["id"]
        .as_i64()
        .unwrap();
    join(&app, &r.admin, r.game, listed, false).await;
    let t = r.table;
    // A reservation without a player needs a reason; an unknown player is refused.
    let before = snapshot(&app);
    let res = post(
        &app,
        &format!("/api/v1/tables/{t}/seats/3/hold"),
        &r.admin,
        json!({}),
    )
    .await;
    refused(&res, 422, "validation_failed");
    assert_eq!(refused_fields(&res), vec!["reason"]);
    let res = post(
        &app,
        &format!("/api/v1/tables/{t}/seats/3/hold"),
        &r.admin,
        json!({"player_id": 9999}),
    )
    .await;
    assert_eq!(refused_fields(&res), vec!["player_id"]);
    let res = post(
        &app,
        &format!("/api/v1/tables/{t}/seats/11/hold"),
        &r.admin,
        json!({"player_id": h}),
    )
    .await;
    assert_eq!(refused_fields(&res), vec!["seat_no"]);
    assert_eq!(snapshot(&app), before);

    // BSOP 49: seat 3 held for h.
    let res = post(
        &app,
        &format!("/api/v1/tables/{t}/seats/3/hold"),
        &r.admin,
        json!({"player_id": h}),
    )
    .await;
    assert_eq!(res.status, 201, "{}", res.text());
    let hold = res.json();
    assert_eq!(
        (hold["player_id"].as_i64(), hold["seat_no"].as_i64()),
        (Some(h), Some(3))
    );
    assert!(hold["alias"].as_str().unwrap().starts_with('P'));
    assert!(hold["released_at"].is_null());
    assert_eq!(last_audit(&app).0, "seat.hold");
    assert_eq!(events_of(&app, "seat.held"), 1);
    let view = seats(&app, &r.admin, t).await;
    assert_eq!(view["seats"][2]["state"], "held");
    assert_eq!(view["seats"][2]["hold"]["player_id"], h);
    // The hold blocks calls and other players; the seat cannot be held twice, nor a second
    // seat for the same player.
    let msg = refuse(
        &app,
        &format!("/api/v1/tables/{t}/seats/3/call-next"),
        &r.admin,
        None,
        None,
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("held"), "{msg}");
    let msg = refuse(
        &app,
        &format!("/api/v1/tables/{t}/seats/3"),
        &r.admin,
        Some(json!({"player_id": someone})),
        Some("pt-PT"),
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("guardado"), "{msg}");
    refuse(
        &app,
        &format!("/api/v1/tables/{t}/seats/3/hold"),
        &r.admin,
        Some(json!({"reason": "again"})),
        None,
        409,
        "conflict",
    )
    .await;
    let msg = refuse(
        &app,
        &format!("/api/v1/tables/{t}/seats/4/hold"),
        &r.admin,
        Some(json!({"player_id": h})),
        None,
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("BSOP 49"), "{msg}");
    // Another seat is called as usual.
    assert_eq!(call_next(&app, &r.admin, t, 4).await["player_id"], listed);

    // h arrives: seated in the held seat, moved from the other table (one seat, BSOP 46);
    // the hold ends.
    let s = seat(&app, &r.admin, t, 3, h).await;
    assert_eq!(s["seat_no"], 3);
    assert_eq!(open_seatings(&app, h), vec![(t, 3)]);
    assert_eq!(
        left_reason_of(&app, at_other).as_deref(),
        Some("moved to held seat")
    );
    let released: Option<chrono::NaiveDateTime> = app.with_conn(|c| {
        use cardroom::db::schema::seat_holds::dsl::*;
        seat_holds
            .find(hold["id"].as_i64().unwrap())
            .select(released_at)
            .first(c)
            .unwrap()
    });
    assert!(released.is_some());
    assert_eq!(audits(&app, "seat.hold_release"), 1);
    assert_eq!(audits(&app, "seat.move"), 1);
    refuse(
        &app,
        &format!("/api/v1/seat-holds/{}/release", hold["id"]),
        &r.admin,
        None,
        None,
        409,
        "conflict",
    )
    .await;

    // BSOP 45: the floor reserves seat 5 with a reason; released, it can be called.
    let res = post(
        &app,
        &format!("/api/v1/tables/{t}/seats/5/hold"),
        &r.admin,
        json!({"reason": "wheelchair access (BSOP 45)"}),
    )
    .await;
    assert_eq!(res.status, 201, "{}", res.text());
    let reserved = res.json();
    assert!(reserved["player_id"].is_null());
    assert_eq!(reserved["reason"], "wheelchair access (BSOP 45)");
    refuse(
        &app,
        &format!("/api/v1/tables/{t}/seats/5"),
        &r.admin,
        Some(json!({"player_id": someone})),
        None,
        409,
        "conflict",
    )
    .await;
    let res = post(
        &app,
        &format!("/api/v1/seat-holds/{}/release", reserved["id"]),
        &r.admin,
        json!({}),
    )
    .await;
    assert_eq!(res.status, 200, "{}", res.text());
    assert!(res.json()["released_at"].is_string());
    let msg = refuse(
        &app,
        &format!("/api/v1/seat-holds/{}/release", reserved["id"]),
        &r.admin,
        None,
        None,
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("already released"), "{msg}");
    refuse(
        &app,
        "/api/v1/seat-holds/999/release",
        &r.admin,
        None,
        None,
        404,
        "not_found",
    )
    .await;
    join(&app, &r.admin, r.game, someone, false).await;
    assert_eq!(call_next(&app, &r.admin, t, 5).await["player_id"], someone);
}

// ---- balance (BSOP 58, PT-2007 26) -------------------------------------------------------

#[actix_rt::test]
async fn bsop_58_a_transfer_to_a_table_with_more_players_is_refused_and_allowed_otherwise() {
    let app = TestApp::with_clock(true).await;
    let t = two_tables(&app).await;
    let floor = app.staff_token("floor1", "floor").await;
    let p = eligible_players(&app, 10);
    let mut main = Vec::new();
    for (i, id) in p.iter().take(4).enumerate() {
        main.push(
            seat(&app, &floor, t.main, i as i32 + 1, *id).await["id"]
                .as_i64()
                .unwrap(),
        );
    }
    let mut mm = Vec::new();
    for (i, id) in p.iter().skip(4).enumerate() {
        mm.push(
            seat(&app, &floor, t.mm, i as i32 + 1, *id).await["id"]
                .as_i64()
                .unwrap(),
        );
    }
    // From 4 players to 6: the table left has fewer players (BSOP 58).
    let uri = format!("/api/v1/seatings/{}/transfer", main[0]);
    let msg = refuse(
        &app,
        &uri,
        &floor,
        Some(json!({"table_id": t.mm})),
        None,
        409,
        "conflict",
    )
    .await;
    assert!(
        msg.contains("BSOP 58") && msg.contains('4') && msg.contains('6'),
        "{msg}"
    );
    let msg = refuse(
        &app,
        &uri,
        &floor,
        Some(json!({"table_id": t.mm})),
        Some("pt-PT"),
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("menos jogadores"), "{msg}");
    // The request itself: a destination is required and must exist; not the same table,
    // not another game's table.
    let before = snapshot(&app);
    let res = post(&app, &uri, &floor, json!({})).await;
    assert_eq!(refused_fields(&res), vec!["table_id"]);
    let res = post(&app, &uri, &floor, json!({"table_id": 999})).await;
    assert_eq!(refused_fields(&res), vec!["table_id"]);
    assert_eq!(snapshot(&app), before);
    refuse(
        &app,
        &uri,
        &floor,
        Some(json!({"table_id": t.main})),
        None,
        409,
        "conflict",
    )
    .await;
    let game2 = create_game(&app, &t.admin, "PLO 2/5").await;
    let other = create_table(&app, &t.admin, 3, game2).await;
    open_table(&app, &t.admin, other).await;
    let msg = refuse(
        &app,
        &uri,
        &floor,
        Some(json!({"table_id": other})),
        None,
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("same game"), "{msg}");
    refuse(
        &app,
        "/api/v1/seatings/999/transfer",
        &floor,
        Some(json!({"table_id": t.mm})),
        None,
        404,
        "not_found",
    )
    .await;

    // BSOP 55, 57: from the must-move table only the player whose turn it is may move to
    // the main game (the first seated here: no list entries); the second is refused.
    let msg = refuse(
        &app,
        &format!("/api/v1/seatings/{}/transfer", mm[1]),
        &floor,
        Some(json!({"table_id": t.main})),
        None,
        409,
        "conflict",
    )
    .await;
    assert!(
        msg.contains("BSOP 55") && msg.contains("another player moves first"),
        "{msg}"
    );
    // From 6 to 4: allowed; the player takes the first free seat (seat 5 held: seat 6).
    let res = post(
        &app,
        &format!("/api/v1/tables/{}/seats/5/hold", t.main),
        &floor,
        json!({"reason": "reserved"}),
    )
    .await;
    assert_eq!(res.status, 201, "{}", res.text());
    let mover = p[4];
    let res = post(
        &app,
        &format!("/api/v1/seatings/{}/transfer", mm[0]),
        &floor,
        json!({"table_id": t.main}),
    )
    .await;
    assert_eq!(res.status, 201, "{}", res.text());
    let s = res.json();
    assert_eq!(
        (
            s["table_id"].as_i64(),
            s["seat_no"].as_i64(),
            s["player_id"].as_i64()
        ),
        (Some(t.main), Some(6), Some(mover))
    );
    assert_eq!(open_seatings(&app, mover), vec![(t.main, 6)]);
    assert_eq!(left_reason_of(&app, mm[0]).as_deref(), Some("transfer"));
    assert_eq!(audits(&app, "seat.transfer"), 1);
    // Now 5 and 5: equal tables may still exchange a player outside session mode.
    let res = post(
        &app,
        &format!("/api/v1/seatings/{}/transfer", main[1]),
        &floor,
        json!({"table_id": t.mm}),
    )
    .await;
    assert_eq!(res.status, 201, "{}", res.text());
    // A seating that ended cannot move.
    refuse(
        &app,
        &format!("/api/v1/seatings/{}/transfer", main[1]),
        &floor,
        Some(json!({"table_id": t.mm})),
        None,
        409,
        "conflict",
    )
    .await;
}

#[actix_rt::test]
async fn pt2007_26_at_session_tables_a_move_needs_a_lost_cave_four_players_left_and_balance() {
    let app = TestApp::with_clock(true).await;
    let admin = app.admin_token().await;
    let game = create_game(&app, &admin, "NL 1/2").await;
    let a = create_table_mode(&app, &admin, 1, game, "session").await;
    let b = create_table_mode(&app, &admin, 2, game, "session").await;
    open_table(&app, &admin, a).await;
    advance(&app, &admin, 1).await;
    open_table(&app, &admin, b).await;
    let p = eligible_players(&app, 13);
    let mut at_a = Vec::new();
    for (i, id) in p.iter().take(6).enumerate() {
        at_a.push(
            seat(&app, &admin, a, i as i32 + 1, *id).await["id"]
                .as_i64()
                .unwrap(),
        );
    }
    let mut at_b = Vec::new();
    for (i, id) in p.iter().skip(6).take(4).enumerate() {
        at_b.push(
            seat(&app, &admin, b, i as i32 + 1, *id).await["id"]
                .as_i64()
                .unwrap(),
        );
    }
    // Cave not lost: no change of table in session mode.
    let uri = format!("/api/v1/seatings/{}/transfer", at_a[0]);
    let msg = refuse(
        &app,
        &uri,
        &admin,
        Some(json!({"table_id": b})),
        None,
        409,
        "conflict",
    )
    .await;
    assert!(
        msg.contains("PT-2007 26") && msg.contains("whole stack"),
        "{msg}"
    );
    let msg = refuse(
        &app,
        &uri,
        &admin,
        Some(json!({"table_id": b, "cave_lost": false})),
        Some("pt-PT"),
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("perdido a cave"), "{msg}");
    // Leaving a table of 4 would leave it with 3.
    let msg = refuse(
        &app,
        &format!("/api/v1/seatings/{}/transfer", at_b[0]),
        &admin,
        Some(json!({"table_id": a, "cave_lost": true})),
        None,
        409,
        "conflict",
    )
    .await;
    assert!(
        msg.contains("below 4") && msg.contains("PT-2007 26"),
        "{msg}"
    );
    // 6 and 6: the move would unbalance the tables (7 against 5).
    for (i, id) in p.iter().skip(10).take(2).enumerate() {
        seat(&app, &admin, b, i as i32 + 5, *id).await;
    }
    let msg = refuse(
        &app,
        &uri,
        &admin,
        Some(json!({"table_id": b, "cave_lost": true})),
        None,
        409,
        "conflict",
    )
    .await;
    assert!(
        msg.contains("unbalance") && msg.contains("PT-2007 26"),
        "{msg}"
    );
    // 6 and 5, cave lost: allowed (6 and 5 → 5 and 6).
    leave(&app, &admin, at_b[0]).await;
    let res = post(
        &app,
        &uri,
        &admin,
        json!({"table_id": b, "cave_lost": true}),
    )
    .await;
    assert_eq!(res.status, 201, "{}", res.text());
    assert_eq!(res.json()["table_id"], b);
    assert_eq!(open_seatings(&app, p[0]).len(), 1);
    assert_eq!(seats(&app, &admin, a).await["seated"], 5);
    assert_eq!(seats(&app, &admin, b).await["seated"], 6);
}

#[actix_rt::test]
async fn bsop_55_58_the_suggested_table_for_a_new_player() {
    let app = TestApp::with_clock(true).await;
    let admin = app.admin_token().await;
    let dealer = app.staff_token("dealer1", "dealer").await;
    let game = create_game(&app, &admin, "NL 1/2").await;
    let uri = format!("/api/v1/games/{game}/suggest-table");
    // No table in play: nothing to suggest.
    let s = app.get(&uri, &dealer).await.json();
    assert!(s["table_id"].is_null(), "{s}");
    assert_eq!(
        app.get("/api/v1/games/999/suggest-table", &dealer)
            .await
            .status,
        404
    );
    // One table: the one that needs a player most (BSOP 58), with its first free seat.
    let t1 = create_table(&app, &admin, 1, game).await;
    open_table(&app, &admin, t1).await;
    let p = eligible_players(&app, 12);
    for (i, id) in p.iter().take(2).enumerate() {
        seat(&app, &admin, t1, i as i32 + 1, *id).await;
    }
    let s = app.get(&uri, &dealer).await.json();
    assert_eq!(
        (
            s["table_id"].as_i64(),
            s["rule"].as_str(),
            s["seated"].as_i64(),
            s["free_seat"].as_i64()
        ),
        (Some(t1), Some("neediest"), Some(2), Some(3))
    );
    // A second table, the must-move (BSOP 55), empty: the main game's 8 free seats would
    // stay empty, so a new player goes to the main game.
    advance(&app, &admin, 1).await;
    let t2 = create_table(&app, &admin, 2, game).await;
    open_table(&app, &admin, t2).await;
    let s = app.get(&uri, &dealer).await.json();
    assert_eq!(
        (
            s["table_id"].as_i64(),
            s["rule"].as_str(),
            s["table_number"].as_i64()
        ),
        (Some(t1), Some("main_game"), Some(1))
    );
    // As many at the must-move table as the main game has free seats: they take those, new
    // players go to the must-move table.
    for (i, id) in p.iter().skip(2).take(8).enumerate() {
        seat(&app, &admin, t2, i as i32 + 1, *id).await;
    }
    let s = app.get(&uri, &dealer).await.json();
    assert_eq!(
        (
            s["table_id"].as_i64(),
            s["rule"].as_str(),
            s["table_number"].as_i64()
        ),
        (Some(t2), Some("must_move"), Some(2))
    );
    // The must-move table full: nowhere (new players wait on the list).
    for (i, id) in p.iter().skip(10).take(2).enumerate() {
        seat(&app, &admin, t2, i as i32 + 9, *id).await;
    }
    let s = app.get(&uri, &dealer).await.json();
    assert!(s["table_id"].is_null(), "{s}");
    // The dashboard names the suggested table on the game's list.
    let web = app.web_login("admin", ADMIN_PW).await;
    let html = app.floor_all(&web).await;
    assert!(!html.contains("New players: table"), "{html}");
}

// ---- a closed table's players (PT-2007 24) -----------------------------------------------

#[actix_rt::test]
async fn pt2007_24_bsop_52_a_closed_table_puts_its_players_at_the_top_of_the_list_in_high_card_order(
) {
    let app = TestApp::with_clock(true).await;
    let r = room(&app).await;
    let p = eligible_players(&app, 6);
    open_table(&app, &r.admin, r.table).await;
    // Seated in seats 7, 2, 5, 9; q1 and q2 wait; the player in seat 5 is on the list too.
    let mut by_seat = Vec::new();
    for (seat_no, id) in [(7, p[0]), (2, p[1]), (5, p[2]), (9, p[3])] {
        by_seat.push((
            seat_no,
            seat(&app, &r.admin, r.table, seat_no, id).await["id"]
                .as_i64()
                .unwrap(),
            id,
        ));
    }
    let (q1, q2) = (p[4], p[5]);
    join(&app, &r.admin, r.game, q1, false).await;
    let also_listed = join(&app, &r.admin, r.game, p[2], false).await["entry_id"]
        .as_i64()
        .unwrap();
    join(&app, &r.admin, r.game, q2, false).await;
    // Seat 9 leaves: suspended; 15 minutes later closed.
    leave(&app, &r.admin, by_seat[3].1).await;
    advance(&app, &r.admin, 15).await;
    let before_breaks = audits(&app, "list.table_break");
    tick(&app);
    assert_eq!(table_state(&app, &r.admin, r.table).await, "closed");
    // BSOP 52, 56: back on the list at the top in the order of a recorded high-card draw
    // (cards dealt from seat 2, then 5, then 7), before q1 and q2; the one already listed
    // moved up (still one entry).
    let draw = app.with_conn(|c| {
        use cardroom::db::schema::draws::dsl::*;
        let last: i64 = draws
            .select(diesel::dsl::max(id))
            .first::<Option<i64>>(c)
            .unwrap()
            .unwrap();
        cardroom::services::draws::replay(c, last).unwrap()
    });
    assert!(draw.matches && draw.draw.kind.as_str() == "high_card");
    let d: cardroom::domain::draw::Draw = serde_json::from_str(&draw.draw.inputs).unwrap();
    let cardroom::domain::draw::Draw::HighCard { inputs, result, .. } = d else {
        panic!("high card")
    };
    assert_eq!(
        inputs.players,
        [p[1], p[2], p[0]].map(PlayerId),
        "cards dealt in seat order"
    );
    let list = waitlist(&app, &r.admin, r.game).await;
    let order: Vec<i64> = lines(&list).iter().map(|l| l.0).collect();
    let mut expected: Vec<i64> = result.order.iter().map(|x| x.get()).collect();
    expected.extend([q1, q2]);
    assert_eq!(order, expected);
    let sources: Vec<&str> = list["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["source"].as_str().unwrap())
        .collect();
    let expected_sources: Vec<&str> = result
        .order
        .iter()
        .map(|x| {
            if *x == PlayerId(p[2]) {
                "desk"
            } else {
                "table_break"
            }
        })
        .chain(["desk", "desk"])
        .collect();
    assert_eq!(sources, expected_sources);
    let pos_also = result
        .order
        .iter()
        .position(|x| *x == PlayerId(p[2]))
        .unwrap();
    assert_eq!(list["lines"][pos_also]["entry_id"], also_listed);
    assert_eq!(audits(&app, "list.table_break") - before_breaks, 3);
    let breaks: i64 = app.with_conn(|c| {
        use cardroom::db::schema::events::dsl::*;
        events
            .filter(kind.eq("list.changed"))
            .filter(payload.like("%table_break%"))
            .count()
            .get_result(c)
            .unwrap()
    });
    assert_eq!(breaks, 1);
    // They are offered the next seats: another table of the game calls them first.
    let t2 = create_table(&app, &r.admin, 2, r.game).await;
    open_table(&app, &r.admin, t2).await;
    assert_eq!(
        call_next(&app, &r.admin, t2, 1).await["player_id"],
        result.order[0].get()
    );
    assert_eq!(
        call_next(&app, &r.admin, t2, 2).await["player_id"],
        result.order[1].get()
    );
}

// ---- the dashboard -----------------------------------------------------------------------

#[actix_rt::test]
async fn the_dashboard_offers_seat_changes_holds_refusals_and_transfers() {
    let app = TestApp::with_clock(true).await;
    let m = must_move_scene(&app).await;
    let t = &m.t;
    let web = app.web_login("admin", ADMIN_PW).await;
    let html = app.floor_all(&web).await;
    // The main game has more free seats than the must-move table has players to move: a new
    // player is pointed at the main game (BSOP 55), not at the must-move table (number 1).
    assert!(
        html.contains("data-rule=\"board-suggest-main_game\"") && html.contains(": main game"),
        "{html}"
    );
    assert!(!html.contains("→ table 1: must-move"), "{html}");
    let zs = m.mm_seatings[&m.z];
    assert!(
        html.contains(&format!("/floor/seatings/{zs}/refuse-must-move")),
        "{html}"
    );
    assert!(html.contains(&format!("/floor/seatings/{zs}/seat-change")));
    assert!(html.contains(&format!("/floor/seatings/{zs}/transfer")));
    assert!(html.contains(&format!("/floor/tables/{}/seats/5/hold", t.main)));
    // A seat-change request from the page, then withdrawn.
    let r = app
        .post_form(&format!("/floor/seatings/{zs}/seat-change"), &web, &[])
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    let req: i64 = app.with_conn(|c| {
        use cardroom::db::schema::seat_change_requests::dsl::*;
        seat_change_requests
            .filter(state.eq("open"))
            .select(id)
            .first(c)
            .unwrap()
    });
    let html = app.floor_all(&web).await;
    assert!(
        html.contains(&format!("/floor/seat-changes/{req}/cancel")),
        "{html}"
    );
    assert_eq!(
        app.post_form(&format!("/floor/seat-changes/{req}/cancel"), &web, &[])
            .await
            .status,
        303
    );
    // A hold for a player typed by number, shown with their alias, then released.
    let r = app
        .post_form(
            &format!("/floor/tables/{}/seats/5/hold", t.main),
            &web,
            &[("player", &m.q.to_string()), ("reason", "")],
        )
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    let html = app.floor_all(&web).await;
    assert!(html.contains("Held for P"), "{html}");
    let hold: i64 = app.with_conn(|c| {
        use cardroom::db::schema::seat_holds::dsl::*;
        seat_holds.select(id).first(c).unwrap()
    });
    assert_eq!(
        app.post_form(&format!("/floor/holds/{hold}/release"), &web, &[])
            .await
            .status,
        303
    );
    // Refusals are shown in place and change nothing.
    seat(&app, &t.admin, t.mm, 5, m.q).await;
    let before = snapshot(&app);
    let r = app
        .post_form(
            &format!("/floor/seatings/{zs}/refuse-must-move"),
            &web,
            &[("choice", "maybe")],
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
    let r = app
        .post_form(
            &format!("/floor/seatings/{}/transfer", m.main_seatings[0]),
            &web,
            &[("table_id", &t.mm.to_string())],
        )
        .await;
    assert_eq!(r.status, 409);
    assert!(r.text().contains("BSOP 58"), "{}", r.text());
    assert_eq!(snapshot(&app), before);
    // A refusal from the page: z gives up.
    let r = app
        .post_form(
            &format!("/floor/seatings/{zs}/refuse-must-move"),
            &web,
            &[("choice", "give_up")],
        )
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    assert!(open_seatings(&app, m.z).is_empty());
    // A transfer from the page: 4 at the main game, 4 left at the must-move table: allowed.
    let r = app
        .post_form(
            &format!("/floor/seatings/{}/transfer", m.main_seatings[0]),
            &web,
            &[("table_id", &t.mm.to_string())],
        )
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    assert_eq!(seats(&app, &t.admin, t.mm).await["seated"], 5);
    assert_eq!(seats(&app, &t.admin, t.main).await["seated"], 3);
    let _ = (m.w, m.x, m.y);
}

// ---- deadlines judged by the clock at the moment of the action -------------------------

/// A table of four, one leaves: suspended (PT-2007 24). Returns the players (7).
async fn suspended_table(app: &TestApp, r: &Room) -> Vec<i64> {
    let p = eligible_players(app, 7);
    open_table(app, &r.admin, r.table).await;
    let mut s = Vec::new();
    for (i, id) in p.iter().take(4).enumerate() {
        s.push(
            seat(app, &r.admin, r.table, i as i32 + 1, *id).await["id"]
                .as_i64()
                .unwrap(),
        );
    }
    leave(app, &r.admin, s[3]).await;
    assert_eq!(table_state(app, &r.admin, r.table).await, "suspended");
    join(app, &r.admin, r.game, p[4], false).await;
    p
}

#[actix_rt::test]
async fn pt2007_24_past_the_suspension_deadline_nobody_is_called_seated_or_held_even_before_the_scheduler_runs(
) {
    let app = TestApp::with_clock(true).await;
    let r = room(&app).await;
    let p = suspended_table(&app, &r).await;
    // 16 minutes later; the scheduler has not run: the row still says suspended.
    advance(&app, &r.admin, 16).await;
    assert_eq!(table_state(&app, &r.admin, r.table).await, "suspended");
    let t = r.table;
    let call = format!("/api/v1/tables/{t}/seats/5/call-next");
    let before = app.count("seat_calls");
    let msg = refuse(
        &app,
        &call,
        &r.admin,
        Some(json!({})),
        None,
        409,
        "conflict",
    )
    .await;
    assert!(
        msg.contains("Table 1 has been suspended for 15 minutes") && msg.contains("PT-2007 24"),
        "{msg}"
    );
    let r2 = post(&app, &call, &r.admin, json!({})).await;
    assert_eq!(r2.json()["error"]["reason"], "table_suspension_over");
    let msg = refuse(
        &app,
        &call,
        &r.admin,
        Some(json!({})),
        Some("pt-PT"),
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("suspensa há 15 minutos"), "{msg}");
    assert_eq!(app.count("seat_calls"), before);
    // Seating directly and holding the seat: refused the same way.
    let msg = refuse(
        &app,
        &format!("/api/v1/tables/{t}/seats/5"),
        &r.admin,
        Some(json!({"player_id": p[5]})),
        None,
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("suspended for 15 minutes"), "{msg}");
    let msg = refuse(
        &app,
        &format!("/api/v1/tables/{t}/seats/6/hold"),
        &r.admin,
        Some(json!({"player_id": p[6]})),
        None,
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("suspended for 15 minutes"), "{msg}");
    // The scheduler then only does the bookkeeping: the table closes.
    tick(&app);
    assert_eq!(table_state(&app, &r.admin, r.table).await, "closed");
}

#[actix_rt::test]
async fn pt2007_24_within_the_suspension_grace_a_seat_is_still_called_but_not_taken_after_it() {
    let app = TestApp::with_clock(true).await;
    let r = room(&app).await;
    suspended_table(&app, &r).await;
    advance(&app, &r.admin, 14).await;
    let call = call_next(&app, &r.admin, r.table, 5).await["id"]
        .as_i64()
        .unwrap();
    // Two minutes later the call is inside its response window, but the game is over: the
    // called player is not seated at a table that is closing (no scheduler pass yet).
    advance(&app, &r.admin, 2).await;
    let msg = refuse(
        &app,
        &format!("/api/v1/seat-calls/{call}/seat"),
        &r.admin,
        Some(json!({})),
        None,
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("suspended for 15 minutes"), "{msg}");
    // The scheduler closes the table and ends the call with it.
    tick(&app);
    assert_eq!(table_state(&app, &r.admin, r.table).await, "closed");
}

#[actix_rt::test]
async fn the_test_clock_survives_a_restart_so_a_deadline_can_pass_while_the_server_is_down() {
    let app = TestApp::with_clock(true).await;
    let r = room(&app).await;
    suspended_table(&app, &r).await;
    advance(&app, &r.admin, 10).await;
    let before: chrono::DateTime<chrono::Utc> =
        app.get("/api/v1/test/clock", &r.admin).await.json()["now"]
            .as_str()
            .unwrap()
            .parse()
            .unwrap();
    // The server stops and starts again on the same database: the clock is still ahead.
    let app = app.restart().await;
    let admin = app.admin_token().await;
    let after: chrono::DateTime<chrono::Utc> = app.get("/api/v1/test/clock", &admin).await.json()
        ["now"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(after >= before, "{before} → {after}");
    // Six more minutes (16 since the suspension): the game is over for the next action.
    advance(&app, &admin, 6).await;
    let msg = refuse(
        &app,
        &format!("/api/v1/tables/{}/seats/5/call-next", r.table),
        &admin,
        Some(json!({})),
        None,
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("suspended for 15 minutes"), "{msg}");
    // And once more: the offsets add up across restarts.
    let app = app.restart().await;
    let admin = app.admin_token().await;
    let again: chrono::DateTime<chrono::Utc> = app.get("/api/v1/test/clock", &admin).await.json()
        ["now"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        again - before >= chrono::Duration::minutes(6),
        "{before} → {again}"
    );
}

#[actix_rt::test]
async fn a_seat_call_past_its_response_window_cannot_be_acknowledged_even_before_the_scheduler_runs(
) {
    let app = TestApp::with_clock(true).await;
    let r = room(&app).await;
    let p = eligible_players(&app, 1);
    open_table(&app, &r.admin, r.table).await;
    join(&app, &r.admin, r.game, p[0], false).await;
    let id = call_next(&app, &r.admin, r.table, 1).await["id"]
        .as_i64()
        .unwrap();
    advance(&app, &r.admin, 6).await;
    let msg = refuse(
        &app,
        &format!("/api/v1/seat-calls/{id}/acknowledge"),
        &r.admin,
        Some(json!({})),
        None,
        409,
        "conflict",
    )
    .await;
    assert!(msg.contains("expired"), "{msg}");
}

#[actix_rt::test]
async fn a_seat_whose_call_ran_out_is_free_for_the_next_call_even_before_the_scheduler_runs() {
    let app = TestApp::with_clock(true).await;
    let r = room(&app).await;
    let p = eligible_players(&app, 2);
    open_table(&app, &r.admin, r.table).await;
    join(&app, &r.admin, r.game, p[0], false).await;
    join(&app, &r.admin, r.game, p[1], false).await;
    let first = call_next(&app, &r.admin, r.table, 1).await;
    assert_eq!(first["player_id"], p[0]);
    // Within the window the seat is reserved.
    advance(&app, &r.admin, 4).await;
    refuse(
        &app,
        &format!("/api/v1/tables/{}/seats/1/call-next", r.table),
        &r.admin,
        Some(json!({})),
        None,
        409,
        "conflict",
    )
    .await;
    // Past it (no scheduler pass): the call is over by the clock, the seat goes to the next.
    advance(&app, &r.admin, 2).await;
    let next = call_next(&app, &r.admin, r.table, 1).await;
    assert_eq!(next["player_id"], p[1]);
    // The expiry's bookkeeping was done with it: first to the bottom of the list, audited.
    assert_eq!(audits(&app, "seat.call_expired"), 1);
    let list = lines(&waitlist(&app, &r.admin, r.game).await);
    assert_eq!(list.last().map(|l| l.0), Some(p[0]), "{list:?}");
    // The scheduler finds nothing left to expire.
    assert_eq!(tick(&app), 0);
}

/// A call reads the head of its game's list inside the room's write turn
/// (`services::floor::waiting_page`): in list order straight from an index (migration
/// 000021), with no sort of the entries of an order key by join time and id on every call.
/// The statement a call sends, planned as the write turn plans it (PostgreSQL: its generic
/// plan), on each backend.
#[actix_web::test]
async fn a_call_reads_the_head_of_the_list_in_order_from_an_index() {
    let app = TestApp::new().await;
    let r = room(&app).await;
    for id in eligible_players(&app, 2) {
        join(&app, &r.admin, r.game, id, false).await;
    }
    open_table(&app, &r.admin, r.table).await;
    let now = app.state.clock.now();
    let (call, sql) = app.statements_of(|c| {
        app.state.db.write(c, |c| {
            let act = cardroom::services::Acting::system(now)
                .in_room(c)
                .expect("room");
            cardroom::services::floor::call_next(c, &act, TableId(r.table), 3)
        })
    });
    call.expect("the call");
    let head = sql
        .iter()
        .find(|q| {
            q.contains(r#"FROM "waitlist_entries""#)
                && q.contains("ORDER BY")
                && q.contains("LIMIT")
        })
        .unwrap_or_else(|| panic!("no read of the list's head: {sql:#?}"));
    let plan = app.generic_plan_of(head);
    assert!(plan.iter().any(|l| l.contains("waitlist_head")), "{plan:?}");
    assert!(
        !plan
            .iter()
            .any(|l| l.contains("Sort") || l.contains("TEMP B-TREE")),
        "the head is read in order, not sorted: {plan:?}"
    );
}
