//! Floor API: waiting lists, seat calls, seating, concurrency (PT-2007 8a, 12, 24; BSOP 44, 46, 47, 51).
//! Every refusal is checked for its status, its `error.code`, a translated message, and that
//! nothing changed (audit trail, list entries, seatings, seat calls, events).

use crate::support::*;
use actix_web::test;
use cardroom::db::audit::Actor;
use cardroom::domain::player::{DocumentKind, Language, NotifyPref, PlayerInput};
use chrono::NaiveDate;
use diesel::prelude::*;
use serde_json::{json, Value};

// ---- helpers ---------------------------------------------------------------------------

/// Sends a request with a Bearer token, an optional JSON body and `Accept-Language`.
async fn send(app: &TestApp, method: &str, uri: &str, token: &str, body: Option<Value>, lang: Option<&str>) -> Resp {
    let mut req = match method {
        "GET" => test::TestRequest::get(),
        "POST" => test::TestRequest::post(),
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

async fn post(app: &TestApp, uri: &str, token: &str, body: Value) -> Resp {
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
    /// call's (id, state), every table's (id, state).
    states: String,
}

fn snapshot(app: &TestApp) -> Snapshot {
    use cardroom::db::schema::{card_tables, seat_calls, seatings, waitlist_entries};
    let states = app.with_conn(|c| {
        let e: Vec<(i64, String, i64)> = waitlist_entries::table
            .select((waitlist_entries::id, waitlist_entries::state, waitlist_entries::order_key))
            .order(waitlist_entries::id)
            .load(c)
            .unwrap();
        let s: Vec<(i64, bool)> =
            seatings::table.select((seatings::id, seatings::left_at.is_null())).order(seatings::id).load(c).unwrap();
        let k: Vec<(i64, String)> = seat_calls::table.select((seat_calls::id, seat_calls::state)).order(seat_calls::id).load(c).unwrap();
        let t: Vec<(i64, String)> = card_tables::table.select((card_tables::id, card_tables::state)).order(card_tables::id).load(c).unwrap();
        format!("{e:?} {s:?} {k:?} {t:?}")
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
    assert_eq!(r.status, status, "expected {status}, got {}: {}", r.status, r.text());
    let j = r.json();
    assert_eq!(j["error"]["code"], code, "{j}");
    let msg = j["error"]["message"].as_str().unwrap_or_default().to_string();
    assert!(!msg.trim().is_empty(), "empty message: {j}");
    assert!(!msg.starts_with("err-") && !msg.starts_with("api-"), "untranslated message: {msg}");
    msg
}

/// Sends a request that must be refused; checks that nothing changed; returns the message.
async fn refuse(app: &TestApp, uri: &str, token: &str, body: Option<Value>, lang: Option<&str>, status: u16, code: &str) -> String {
    let before = snapshot(app);
    let r = send(app, "POST", uri, token, body, lang).await;
    let msg = refused(&r, status, code);
    assert_eq!(snapshot(app), before, "a refused POST {uri} changed something");
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
            assert!(!m.is_empty() && !m.starts_with("err-"), "field message: {f}");
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
    let photo = cardroom::services::photo::process(&cardroom::services::photo::generated_portrait(n as u64)).expect("photo");
    let now = app.state.clock.now();
    let start = app.count("players") as usize;
    app.with_conn(|c| {
        app.state
            .db
            .write(c, |c| {
                let tz = cardroom::services::room::get(c)?.tz;
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
                        cardroom::services::players::create(c, now, tz, &Actor::system(), &input, Some(&photo)).map(|(p, _)| p.id)
                    })
                    .collect::<Result<Vec<i64>, cardroom::error::AppError>>()
            })
            .expect("players")
    })
}

/// One pass of the scheduler, as the server runs it.
fn tick(app: &TestApp) -> usize {
    let now = app.state.clock.now();
    app.with_conn(|c| {
        app.state
            .db
            .write(c, |c| {
                let room = cardroom::services::room::get(c)?;
                cardroom::services::floor::tick(c, now, room.tz, &room.profile)
            })
            .expect("tick")
    })
}

async fn advance(app: &TestApp, admin: &str, minutes: i64) {
    let r = post(app, "/api/v1/test/clock/advance", admin, json!({ "minutes": minutes })).await;
    assert_eq!(r.status, 200, "{}", r.text());
}

async fn create_game(app: &TestApp, admin: &str, name: &str) -> i64 {
    let g = json!({"name": name, "variant": "holdem_nl", "small_blind": 100, "big_blind": 200,
        "limit_class": "low", "buy_in_min": 4000, "buy_in_max": 20000, "seats": 10});
    let r = post(app, "/api/v1/games", admin, g).await;
    assert_eq!(r.status, 201, "{}", r.text());
    r.json()["id"].as_i64().unwrap()
}

async fn create_table(app: &TestApp, admin: &str, number: i32, game: i64) -> i64 {
    let r = post(app, "/api/v1/tables", admin, json!({"number": number, "game_id": game, "mode": "continuous"})).await;
    assert_eq!(r.status, 201, "{}", r.text());
    r.json()["id"].as_i64().unwrap()
}

async fn open_table(app: &TestApp, token: &str, table: i64) -> Value {
    let r = post(app, &format!("/api/v1/tables/{table}/open"), token, json!({})).await;
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

async fn join(app: &TestApp, token: &str, game: i64, player: i64, call_in: bool) -> Value {
    let r = post(app, &format!("/api/v1/games/{game}/waitlist"), token, json!({"player_id": player, "call_in": call_in})).await;
    assert_eq!(r.status, 201, "{}", r.text());
    r.json()
}

async fn waitlist(app: &TestApp, token: &str, game: i64) -> Value {
    let r = app.get(&format!("/api/v1/games/{game}/waitlist"), token).await;
    assert_eq!(r.status, 200, "{}", r.text());
    r.json()
}

/// (player id, position, state) of every line, in order.
fn lines(list: &Value) -> Vec<(i64, i64, String)> {
    list["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["player_id"].as_i64().unwrap(), l["position"].as_i64().unwrap(), l["state"].as_str().unwrap().to_string()))
        .collect()
}

async fn seats(app: &TestApp, token: &str, table: i64) -> Value {
    let r = app.get(&format!("/api/v1/tables/{table}/seats"), token).await;
    assert_eq!(r.status, 200, "{}", r.text());
    r.json()
}

async fn call_next(app: &TestApp, token: &str, table: i64, seat: i32) -> Value {
    let r = post(app, &format!("/api/v1/tables/{table}/seats/{seat}/call-next"), token, json!({})).await;
    assert_eq!(r.status, 201, "{}", r.text());
    r.json()
}

async fn seat(app: &TestApp, token: &str, table: i64, seat: i32, player: i64) -> Value {
    let r = post(app, &format!("/api/v1/tables/{table}/seats/{seat}"), token, json!({"player_id": player})).await;
    assert_eq!(r.status, 201, "{}", r.text());
    r.json()
}

async fn leave(app: &TestApp, token: &str, seating: i64) -> Value {
    let r = post(app, &format!("/api/v1/seatings/{seating}/leave"), token, json!({"reason": "cashed out"})).await;
    assert_eq!(r.status, 200, "{}", r.text());
    r.json()
}

async fn table_state(app: &TestApp, token: &str, table: i64) -> String {
    seats(app, token, table).await["table"]["state"].as_str().unwrap().to_string()
}

fn last_audit(app: &TestApp) -> (String, String) {
    app.with_conn(|c| {
        use cardroom::db::schema::audit_log::dsl::*;
        audit_log.order(seq.desc()).select((action, after_json)).first::<(String, String)>(c).unwrap()
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
    // Anyone on the staff reads the list; with no table in play it is an interest list
    // (PT-2007 24: 4 players start a game).
    let dealer = app.staff_token("dealer1", "dealer").await;
    let list = waitlist(&app, &dealer, r.game).await;
    assert_eq!(lines(&list), vec![(p[0], 1, "waiting".into()), (p[1], 2, "waiting".into()), (p[2], 3, "waiting".into())]);
    assert_eq!(list["lines"][2]["of"], 3);
    assert_eq!(list["players_needed"], 1);
    assert_eq!(list["game_name"], "NL 1/2");

    // The first leaves the list: the others move up.
    let r1 = post(&app, &format!("/api/v1/waitlist/{}/remove", entries[0]), &floor, json!({"reason": "went home"})).await;
    assert_eq!(r1.status, 200, "{}", r1.text());
    assert_eq!(r1.json()["state"], "removed");
    assert_eq!(r1.json()["end_reason"], "went home");
    let (action, after) = last_audit(&app);
    assert_eq!(action, "list.remove");
    assert!(after.contains("went home"), "{after}");
    let list = waitlist(&app, &floor, r.game).await;
    assert_eq!(lines(&list), vec![(p[1], 1, "waiting".into()), (p[2], 2, "waiting".into())]);
    assert_eq!(list["lines"][0]["of"], 2);
    assert_eq!(list["players_needed"], 2);

    // Removing again, or without a reason, is refused and changes nothing.
    refuse(&app, &format!("/api/v1/waitlist/{}/remove", entries[0]), &floor, Some(json!({"reason": "again"})), None, 409, "conflict").await;
    let before = snapshot(&app);
    let r2 = post(&app, &format!("/api/v1/waitlist/{}/remove", entries[1]), &floor, json!({"reason": "  "})).await;
    refused(&r2, 422, "validation_failed");
    assert_eq!(refused_fields(&r2), vec!["reason"]);
    assert_eq!(snapshot(&app), before);
    refuse(&app, "/api/v1/waitlist/999/remove", &floor, Some(json!({"reason": "x"})), None, 404, "not_found").await;

    // Once a table of the game is open it is a real list: no count of players needed.
    open_table(&app, &floor, r.table).await;
    assert!(waitlist(&app, &floor, r.game).await["players_needed"].is_null());
    assert_eq!(app.get("/api/v1/games/999/waitlist", &floor).await.status, 404);
}

#[actix_rt::test]
async fn reorder_needs_a_reason_and_moves_one_player() {
    let app = TestApp::new().await;
    let r = room(&app).await;
    let p = eligible_players(&app, 3);
    let mut entries = Vec::new();
    for id in &p {
        entries.push(join(&app, &r.admin, r.game, *id, false).await["entry_id"].as_i64().unwrap());
    }
    let uri = format!("/api/v1/waitlist/{}/reorder", entries[2]);
    // No reason: refused in the caller's language, nothing moves.
    let before = snapshot(&app);
    let res = send(&app, "POST", &uri, &r.admin, Some(json!({"position": 1})), Some("pt-PT")).await;
    refused(&res, 422, "validation_failed");
    assert_eq!(refused_fields(&res), vec!["reason"]);
    assert!(res.json()["error"]["fields"][0]["message"].as_str().unwrap().contains("Obrigatório"), "{}", res.text());
    let res = post(&app, &uri, &r.admin, json!({"position": 1, "reason": ""})).await;
    refused(&res, 422, "validation_failed");
    let res = post(&app, &uri, &r.admin, json!({"reason": "special needs"})).await;
    assert_eq!(refused_fields(&res), vec!["position"]);
    let res = post(&app, &uri, &r.admin, json!({"position": 0, "reason": "special needs"})).await;
    refused(&res, 422, "validation_failed");
    assert_eq!(refused_fields(&res), vec!["position"]);
    assert_eq!(snapshot(&app), before);
    assert_eq!(lines(&waitlist(&app, &r.admin, r.game).await).iter().map(|l| l.0).collect::<Vec<_>>(), p);

    // With a reason: the third goes first, the others keep their order; audited.
    let res = post(&app, &uri, &r.admin, json!({"position": 1, "reason": "special needs (BSOP 45)"})).await;
    assert_eq!(res.status, 200, "{}", res.text());
    assert_eq!(res.json()["position"], 1);
    assert_eq!(res.json()["entry_id"], entries[2]);
    let (action, after) = last_audit(&app);
    assert_eq!(action, "list.reorder");
    assert!(after.contains("special needs") && after.contains("\"from\":3") && after.contains("\"to\":1"), "{after}");
    let list = waitlist(&app, &r.admin, r.game).await;
    assert_eq!(lines(&list), vec![(p[2], 1, "waiting".into()), (p[0], 2, "waiting".into()), (p[1], 3, "waiting".into())]);
    // A place past the end moves the player to the bottom.
    let res = post(&app, &format!("/api/v1/waitlist/{}/reorder", entries[0]), &r.admin, json!({"position": 99, "reason": "asked to wait"})).await;
    assert_eq!(res.status, 200, "{}", res.text());
    assert_eq!(res.json()["position"], 3);
    // A removed entry cannot be moved.
    post(&app, &format!("/api/v1/waitlist/{}/remove", entries[1]), &r.admin, json!({"reason": "left"})).await;
    refuse(&app, &format!("/api/v1/waitlist/{}/reorder", entries[1]), &r.admin, Some(json!({"position": 1, "reason": "x"})), None, 409, "conflict").await;
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
    let joined: chrono::DateTime<chrono::Utc> = lapsing["joined_at"].as_str().unwrap().parse().unwrap();
    let expires: chrono::DateTime<chrono::Utc> = lapsing["call_in_expires_at"].as_str().unwrap().parse().unwrap();
    assert_eq!((expires - joined).num_minutes(), 30, "the room's call_in_expiry_min");

    // One call-in arrives in time: it no longer lapses.
    let res = post(&app, &format!("/api/v1/waitlist/{}/check-in", arriving["entry_id"]), &r.admin, json!({})).await;
    assert_eq!(res.status, 200, "{}", res.text());
    assert_eq!(res.json()["checked_in"], true);
    assert_eq!(res.json()["position"], 2);
    assert_eq!(last_audit(&app).0, "list.check_in");
    // Twice, or for a desk entry: refused.
    refuse(&app, &format!("/api/v1/waitlist/{}/check-in", arriving["entry_id"]), &r.admin, None, None, 409, "conflict").await;
    let msg = refuse(&app, &format!("/api/v1/waitlist/{}/check-in", desk["entry_id"]), &r.admin, None, None, 409, "conflict").await;
    assert!(msg.contains("call-in"), "{msg}");

    advance(&app, &r.admin, 31).await;
    // Past the deadline, before the scheduler ran: a lapsed call-in can no longer check in,
    // and it already leaves the count.
    let msg = refuse(&app, &format!("/api/v1/waitlist/{}/check-in", late["entry_id"]), &r.admin, None, None, 409, "conflict").await;
    assert!(msg.contains("lapsed"), "{msg}");
    assert_eq!(lines(&waitlist(&app, &r.admin, r.game).await), vec![(p[1], 1, "waiting".into()), (p[3], 2, "waiting".into())]);

    assert_eq!(tick(&app), 2);
    let list = waitlist(&app, &r.admin, r.game).await;
    assert_eq!(lines(&list), vec![(p[1], 1, "waiting".into()), (p[3], 2, "waiting".into())]);
    let states: Vec<(i64, String)> = app.with_conn(|c| {
        use cardroom::db::schema::waitlist_entries::dsl::*;
        waitlist_entries.select((player_id, state)).order(id).load(c).unwrap()
    });
    assert_eq!(states, vec![(p[0], "lapsed".into()), (p[1], "waiting".into()), (p[2], "lapsed".into()), (p[3], "waiting".into())]);
    // A second pass finds nothing to do; the lapsed player may join again.
    assert_eq!(tick(&app), 0);
    assert_eq!(join(&app, &r.admin, r.game, p[0], false).await["position"], 3);
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
    let msg = refuse(&app, &uri, &r.admin, Some(json!({"player_id": no_photo})), None, 409, "conflict").await;
    assert!(msg.contains("no photo"), "{msg}");
    let msg = refuse(&app, &uri, &r.admin, Some(json!({"player_id": no_photo})), Some("pt-PT"), 409, "conflict").await;
    assert!(msg.contains("não tem fotografia"), "{msg}");
    // Banned (BSOP 10).
    let p = eligible_players(&app, 3);
    let res = post(&app, &format!("/api/v1/players/{}/exclusions", p[0]), &r.admin, json!({"reason": "cheating"})).await;
    assert_eq!(res.status, 201, "{}", res.text());
    let msg = refuse(&app, &uri, &r.admin, Some(json!({"player_id": p[0]})), None, 409, "conflict").await;
    assert!(msg.contains("banned"), "{msg}");
    let msg = refuse(&app, &uri, &r.admin, Some(json!({"player_id": p[0]})), Some("pt-PT"), 409, "conflict").await;
    assert!(msg.contains("excluído"), "{msg}");
    // An ID that expired since registration (BSOP 3).
    app.with_conn(|c| {
        use cardroom::db::schema::players::dsl::*;
        diesel::update(players.find(p[1])).set(doc_expiry.eq(NaiveDate::from_ymd_opt(2020, 1, 1).unwrap())).execute(c).unwrap();
    });
    let msg = refuse(&app, &uri, &r.admin, Some(json!({"player_id": p[1]})), None, 409, "conflict").await;
    assert!(msg.contains("expired"), "{msg}");
    // Unknown player or game, no player: the request itself is wrong.
    let before = snapshot(&app);
    let res = post(&app, &uri, &r.admin, json!({"player_id": 9999})).await;
    refused(&res, 422, "validation_failed");
    assert_eq!(refused_fields(&res), vec!["player_id"]);
    let res = post(&app, &uri, &r.admin, json!({})).await;
    assert_eq!(refused_fields(&res), vec!["player_id"]);
    let res = post(&app, "/api/v1/games/999/waitlist", &r.admin, json!({"player_id": p[2]})).await;
    refused(&res, 404, "not_found");
    let res = post(&app, &uri, &r.admin, json!({"player_id": "one"})).await;
    refused(&res, 400, "bad_request");
    assert_eq!(snapshot(&app), before);
    // The eligible one joins.
    assert_eq!(join(&app, &r.admin, r.game, p[2], false).await["position"], 1);
}

#[actix_rt::test]
async fn the_same_player_cannot_be_twice_on_a_list() {
    let app = TestApp::new().await;
    let r = room(&app).await;
    let p = eligible_players(&app, 1);
    join(&app, &r.admin, r.game, p[0], false).await;
    let uri = format!("/api/v1/games/{}/waitlist", r.game);
    let msg = refuse(&app, &uri, &r.admin, Some(json!({"player_id": p[0], "call_in": true})), None, 409, "conflict").await;
    assert!(msg.contains("already on this list"), "{msg}");
    let msg = refuse(&app, &uri, &r.admin, Some(json!({"player_id": p[0]})), Some("pt-PT"), 409, "conflict").await;
    assert!(msg.contains("já está nesta lista"), "{msg}");
    // Another game's list is another list.
    let other = create_game(&app, &r.admin, "PLO 1/2").await;
    assert_eq!(join(&app, &r.admin, other, p[0], false).await["position"], 1);
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
    let called: chrono::DateTime<chrono::Utc> = call["called_at"].as_str().unwrap().parse().unwrap();
    let by: chrono::DateTime<chrono::Utc> = call["respond_by"].as_str().unwrap().parse().unwrap();
    assert_eq!((by - called).num_minutes(), 5, "the room's seat_call_response_min");
    assert_eq!(last_audit(&app).0, "seat.call");
    // The called player keeps the place; the seat shows the call.
    assert_eq!(lines(&waitlist(&app, &floor, r.game).await)[0], (p[0], 1, "called".into()));
    let view = seats(&app, &floor, r.table).await;
    assert_eq!(view["seats"].as_array().unwrap().len(), 10);
    assert_eq!(view["seats"][2]["state"], "called");
    assert_eq!(view["seats"][2]["call"]["call_id"], call["id"]);
    assert_eq!(view["seats"][2]["call"]["player_id"], p[0]);
    assert_eq!(view["seats"][0]["state"], "empty");
    // The seat is reserved: no second call for it.
    let msg = refuse(&app, &format!("/api/v1/tables/{}/seats/3/call-next", r.table), &floor, None, None, 409, "conflict").await;
    assert!(msg.contains("reserved"), "{msg}");
    // Another seat: the next on the list (the called one is not called twice).
    assert_eq!(call_next(&app, &floor, r.table, 4).await["player_id"], p[1]);
    assert_eq!(call_next(&app, &floor, r.table, 5).await["player_id"], p[2]);
    let msg = refuse(&app, &format!("/api/v1/tables/{}/seats/6/call-next", r.table), &floor, None, None, 409, "conflict").await;
    assert!(msg.contains("Nobody"), "{msg}");
}

#[actix_rt::test]
async fn bsop_47_a_player_kept_apart_from_someone_seated_is_passed_over_and_keeps_the_place() {
    let app = TestApp::new().await;
    let r = room(&app).await;
    let p = eligible_players(&app, 3);
    let (seated, apart, next) = (p[0], p[1], p[2]);
    let res = post(&app, &format!("/api/v1/players/{apart}/separations"), &r.admin, json!({"other_player_id": seated, "reason": "family"})).await;
    assert_eq!(res.status, 201, "{}", res.text());
    open_table(&app, &r.admin, r.table).await;
    seat(&app, &r.admin, r.table, 1, seated).await;
    join(&app, &r.admin, r.game, apart, false).await;
    join(&app, &r.admin, r.game, next, false).await;
    let call = call_next(&app, &r.admin, r.table, 2).await;
    assert_eq!(call["player_id"], next);
    let list = waitlist(&app, &r.admin, r.game).await;
    assert_eq!(lines(&list), vec![(apart, 1, "waiting".into()), (next, 2, "called".into())]);
    // The floor cannot seat them together either.
    let msg = refuse(&app, &format!("/api/v1/tables/{}/seats/5", r.table), &r.admin, Some(json!({"player_id": apart})), None, 409, "conflict").await;
    assert!(msg.contains("BSOP 47"), "{msg}");
    let msg = refuse(&app, &format!("/api/v1/tables/{}/seats/5", r.table), &r.admin, Some(json!({"player_id": apart})), Some("pt-PT"), 409, "conflict").await;
    assert!(msg.contains("nunca pode estar na mesma mesa"), "{msg}");
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
    let msg = refuse(&app, &uri, &r.admin, Some(json!({"player_id": p[0]})), None, 409, "conflict").await;
    assert!(msg.contains("BSOP 46"), "{msg}");
    let msg = refuse(&app, &uri, &r.admin, Some(json!({"player_id": p[0]})), Some("pt-PT"), 409, "conflict").await;
    assert!(msg.contains("já tem lugar numa mesa"), "{msg}");
    // Nor at another seat of the same table.
    refuse(&app, &format!("/api/v1/tables/{}/seats/2", r.table), &r.admin, Some(json!({"player_id": p[0]})), None, 409, "conflict").await;
    // The call passes over them; they keep their place.
    assert_eq!(call_next(&app, &r.admin, table2, 1).await["player_id"], p[1]);
    assert_eq!(lines(&waitlist(&app, &r.admin, game2).await)[0], (p[0], 1, "waiting".into()));
    // Once they leave the first table they can be called.
    leave(&app, &r.admin, seating["id"].as_i64().unwrap()).await;
    assert_eq!(call_next(&app, &r.admin, table2, 2).await["player_id"], p[0]);
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
    assert_eq!(call_next(&app, &r.admin, r.table, 1).await["player_id"], p[0]);
    // On the second list the first player is waiting for another call's answer: the next
    // one is called, and the first keeps the place.
    assert_eq!(call_next(&app, &r.admin, table2, 1).await["player_id"], p[1]);
    assert_eq!(lines(&waitlist(&app, &r.admin, game2).await)[0], (p[0], 1, "waiting".into()));
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
        seat_calls.find(call["id"].as_i64().unwrap()).select(state).first(c).unwrap()
    });
    assert_eq!(state, "cancelled");
    assert_eq!(seats(&app, &r.admin, r.table).await["seats"][0]["state"], "empty");
    refuse(&app, &format!("/api/v1/seat-calls/{}/seat", call["id"]), &r.admin, None, None, 409, "conflict").await;
    // Still on the first list, waiting (not stuck as "called" with no call).
    assert_eq!(lines(&waitlist(&app, &r.admin, r.game).await), vec![(p[0], 1, "waiting".into())]);
    leave(&app, &r.admin, seating["id"].as_i64().unwrap()).await;
    assert_eq!(call_next(&app, &r.admin, r.table, 1).await["player_id"], p[0]);
}

#[actix_rt::test]
async fn confirming_a_call_seats_the_player_and_uses_up_the_list_entry() {
    let app = TestApp::new().await;
    let r = room(&app).await;
    let p = eligible_players(&app, 2);
    let entry = join(&app, &r.admin, r.game, p[0], false).await["entry_id"].as_i64().unwrap();
    join(&app, &r.admin, r.game, p[1], false).await;
    open_table(&app, &r.admin, r.table).await;
    let call = call_next(&app, &r.admin, r.table, 7).await;
    let res = post(&app, &format!("/api/v1/seat-calls/{}/seat", call["id"]), &r.admin, json!({})).await;
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
    assert_eq!(lines(&waitlist(&app, &r.admin, r.game).await), vec![(p[1], 1, "waiting".into())]);
    let e_state: String = app.with_conn(|c| {
        use cardroom::db::schema::waitlist_entries::dsl::*;
        waitlist_entries.find(entry).select(state).first(c).unwrap()
    });
    assert_eq!(e_state, "seated");
    let view = seats(&app, &r.admin, r.table).await;
    assert_eq!(view["seated"], 1);
    assert_eq!(view["seats"][6]["state"], "seated");
    assert_eq!(view["seats"][6]["seated"]["seating_id"], s["id"]);
    assert_eq!(view["seats"][6]["seated"]["player_id"], p[0]);
    assert!(view["seats"][6]["call"].is_null());
    // The call is used up.
    let msg = refuse(&app, &format!("/api/v1/seat-calls/{}/seat", call["id"]), &r.admin, None, None, 409, "conflict").await;
    assert!(msg.contains("no longer open"), "{msg}");
    refuse(&app, "/api/v1/seat-calls/999/seat", &r.admin, None, None, 404, "not_found").await;
    // Leaving: the seat frees; leaving twice is refused; a reason is required.
    let sid = s["id"].as_i64().unwrap();
    let res = post(&app, &format!("/api/v1/seatings/{sid}/leave"), &r.admin, json!({})).await;
    refused(&res, 422, "validation_failed");
    let left = leave(&app, &r.admin, sid).await;
    assert_eq!(left["left_reason"], "cashed out");
    assert!(left["left_at"].is_string());
    assert_eq!(last_audit(&app).0, "seat.leave");
    assert_eq!(seats(&app, &r.admin, r.table).await["seats"][6]["state"], "empty");
    let msg = refuse(&app, &format!("/api/v1/seatings/{sid}/leave"), &r.admin, Some(json!({"reason": "again"})), None, 409, "conflict").await;
    assert!(msg.contains("already left"), "{msg}");
    refuse(&app, "/api/v1/seatings/999/leave", &r.admin, Some(json!({"reason": "x"})), None, 404, "not_found").await;
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
    assert_eq!(tick(&app), 0, "still within the 5 minutes");
    advance(&app, &r.admin, 2).await;
    assert_eq!(tick(&app), 1);
    // The next player is called for the same seat; the first goes to the bottom.
    let view = seats(&app, &r.admin, r.table).await;
    assert_eq!(view["seats"][0]["state"], "called");
    assert_eq!(view["seats"][0]["call"]["player_id"], p[1]);
    assert_ne!(view["seats"][0]["call"]["call_id"], first["id"]);
    let list = waitlist(&app, &r.admin, r.game).await;
    assert_eq!(lines(&list), vec![(p[1], 1, "called".into()), (p[2], 2, "waiting".into()), (p[0], 3, "waiting".into())]);
    let actions: Vec<String> = app.with_conn(|c| {
        use cardroom::db::schema::audit_log::dsl::*;
        audit_log.order(seq.desc()).limit(2).select(action).load(c).unwrap()
    });
    assert_eq!(actions, vec!["seat.call", "list.call_expired"]);
    // The expired call cannot be confirmed any more.
    let msg = refuse(&app, &format!("/api/v1/seat-calls/{}/seat", first["id"]), &r.admin, None, None, 409, "conflict").await;
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
    let msg = refuse(&app, &format!("/api/v1/tables/{t}/seats/1/call-next"), &r.admin, None, None, 409, "conflict").await;
    assert!(msg.contains("not open"), "{msg}");
    let msg = refuse(&app, &format!("/api/v1/tables/{t}/seats/1"), &r.admin, Some(json!({"player_id": p[0]})), Some("pt-PT"), 409, "conflict").await;
    assert!(msg.contains("não está aberta"), "{msg}");
    open_table(&app, &r.admin, t).await;
    refuse(&app, &format!("/api/v1/tables/{t}/open"), &r.admin, None, None, 409, "conflict").await;
    // Seats are numbered 1 to 10 (PT-2007 6).
    for bad in [0, 11] {
        for uri in [format!("/api/v1/tables/{t}/seats/{bad}"), format!("/api/v1/tables/{t}/seats/{bad}/call-next")] {
            let before = snapshot(&app);
            let res = post(&app, &uri, &r.admin, json!({"player_id": p[0]})).await;
            refused(&res, 422, "validation_failed");
            assert_eq!(refused_fields(&res), vec!["seat_no"], "{uri}");
            assert!(res.json()["error"]["fields"][0]["message"].as_str().unwrap().contains("10"), "{}", res.text());
            assert_eq!(snapshot(&app), before);
        }
    }
    // A seat taken.
    seat(&app, &r.admin, t, 4, p[0]).await;
    let msg = refuse(&app, &format!("/api/v1/tables/{t}/seats/4"), &r.admin, Some(json!({"player_id": p[1]})), None, 409, "conflict").await;
    assert!(msg.contains("already sitting"), "{msg}");
    let msg = refuse(&app, &format!("/api/v1/tables/{t}/seats/4"), &r.admin, Some(json!({"player_id": p[1]})), Some("pt-PT"), 409, "conflict").await;
    assert!(msg.contains("Já está alguém sentado"), "{msg}");
    refuse(&app, &format!("/api/v1/tables/{t}/seats/4/call-next"), &r.admin, None, None, 409, "conflict").await;
    // A seat reserved by a call.
    call_next(&app, &r.admin, t, 5).await;
    let msg = refuse(&app, &format!("/api/v1/tables/{t}/seats/5"), &r.admin, Some(json!({"player_id": p[1]})), None, 409, "conflict").await;
    assert!(msg.contains("reserved"), "{msg}");
    // Unknown table, player, missing or malformed body.
    refuse(&app, "/api/v1/tables/999/seats/1", &r.admin, Some(json!({"player_id": p[1]})), None, 404, "not_found").await;
    refuse(&app, "/api/v1/tables/999/seats/1/call-next", &r.admin, None, None, 404, "not_found").await;
    refuse(&app, "/api/v1/tables/999/open", &r.admin, None, None, 404, "not_found").await;
    assert_eq!(app.get("/api/v1/tables/999/seats", &r.admin).await.status, 404);
    refuse(&app, &format!("/api/v1/tables/{t}/seats/abc"), &r.admin, Some(json!({"player_id": p[1]})), None, 404, "not_found").await;
    let before = snapshot(&app);
    let res = post(&app, &format!("/api/v1/tables/{t}/seats/6"), &r.admin, json!({"player_id": 9999})).await;
    refused(&res, 422, "validation_failed");
    assert_eq!(refused_fields(&res), vec!["player_id"]);
    let res = post(&app, &format!("/api/v1/tables/{t}/seats/6"), &r.admin, json!({})).await;
    assert_eq!(refused_fields(&res), vec!["player_id"]);
    let res = send(&app, "POST", &format!("/api/v1/tables/{t}/seats/6"), &r.admin, None, None).await;
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
        seatings.push(seat(&app, &r.admin, r.table, i as i32 + 1, *id).await["id"].as_i64().unwrap());
        assert_eq!(table_state(&app, &r.admin, r.table).await, "open", "{} players cannot start a game", i + 1);
    }
    seatings.push(seat(&app, &r.admin, r.table, 4, p[3]).await["id"].as_i64().unwrap());
    assert_eq!(table_state(&app, &r.admin, r.table).await, "running");
    // Below 4: suspended, with the deadline to close.
    leave(&app, &r.admin, seatings[3]).await;
    let view = seats(&app, &r.admin, r.table).await;
    assert_eq!(view["table"]["state"], "suspended");
    assert_eq!(view["seated"], 3);
    let since: chrono::DateTime<chrono::Utc> = view["table"]["suspended_at"].as_str().unwrap().parse().unwrap();
    let closes: chrono::DateTime<chrono::Utc> = view["table"]["closes_at"].as_str().unwrap().parse().unwrap();
    assert_eq!((closes - since).num_minutes(), 15);
    // A fourth player back within the 15 minutes: the game resumes.
    advance(&app, &r.admin, 10).await;
    tick(&app);
    assert_eq!(table_state(&app, &r.admin, r.table).await, "suspended");
    let back = seat(&app, &r.admin, r.table, 5, p[4]).await["id"].as_i64().unwrap();
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
    assert!(action == "table.state" || action == "seat.leave", "{action}");
    assert!(app.with_conn(|c| {
        use cardroom::db::schema::audit_log::dsl as a;
        a::audit_log.filter(a::action.eq("table.state")).filter(a::after_json.like("%\"closed\"%")).count().get_result::<i64>(c).unwrap()
    }) == 1, "{after}");
    // The players of a closed game no longer hold its seats (BSOP 46: they can be seated
    // at another table).
    assert_eq!(view["seated"], 0);
    let game2 = create_game(&app, &r.admin, "PLO 2/5").await;
    let table2 = create_table(&app, &r.admin, 2, game2).await;
    open_table(&app, &r.admin, table2).await;
    seat(&app, &r.admin, table2, 1, p[0]).await;
    // A closed table takes nobody until it is opened again.
    refuse(&app, &format!("/api/v1/tables/{}/seats/1", r.table), &r.admin, Some(json!({"player_id": p[5]})), None, 409, "conflict").await;
    assert_eq!(open_table(&app, &r.admin, r.table).await["state"], "open");
}

// ---- roles -----------------------------------------------------------------------------

#[actix_rt::test]
async fn a_dealer_or_cashier_reads_the_floor_but_changes_nothing() {
    let app = TestApp::new().await;
    let r = room(&app).await;
    let p = eligible_players(&app, 3);
    let entry = join(&app, &r.admin, r.game, p[0], true).await["entry_id"].as_i64().unwrap();
    open_table(&app, &r.admin, r.table).await;
    let seating = seat(&app, &r.admin, r.table, 1, p[1]).await["id"].as_i64().unwrap();
    let call = call_next(&app, &r.admin, r.table, 2).await["id"].as_i64().unwrap();
    let game2 = create_game(&app, &r.admin, "PLO 2/5").await;
    let table2 = create_table(&app, &r.admin, 2, game2).await;
    let t = r.table;
    let writes: Vec<(String, Option<Value>)> = vec![
        (format!("/api/v1/games/{}/waitlist", r.game), Some(json!({"player_id": p[2]}))),
        (format!("/api/v1/waitlist/{entry}/remove"), Some(json!({"reason": "x"}))),
        (format!("/api/v1/waitlist/{entry}/reorder"), Some(json!({"position": 1, "reason": "x"}))),
        (format!("/api/v1/waitlist/{entry}/check-in"), None),
        (format!("/api/v1/tables/{table2}/open"), None),
        (format!("/api/v1/tables/{t}/seats/3/call-next"), None),
        (format!("/api/v1/seat-calls/{call}/seat"), None),
        (format!("/api/v1/tables/{t}/seats/3"), Some(json!({"player_id": p[2]}))),
        (format!("/api/v1/seatings/{seating}/leave"), Some(json!({"reason": "x"}))),
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
        assert_eq!(lines(&waitlist(&app, &token, r.game).await).len(), 1);
        assert_eq!(seats(&app, &token, t).await["seated"], 1);
    }
    // Without a token: 401.
    let res = app.call(test::TestRequest::get().uri(&format!("/api/v1/tables/{t}/seats")).to_request()).await;
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
                assert!(msg.contains("sitting") || msg.contains("a moment ago"), "{msg}");
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
        seatings.filter(left_at.is_null()).filter(table_id.eq(table)).select((seat_no, player_id)).order(seat_no).load(c).unwrap()
    });
    assert_eq!(rows.iter().map(|r| r.0).collect::<Vec<_>>(), (1..=10).collect::<Vec<_>>());
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
        audit_log.filter(action.eq("seat.take")).count().get_result(c).unwrap()
    });
    assert_eq!(seat_takes, 10);
    assert!(app.audit_count() - before_audit >= 10);
    let view = seats(&app, &floor, table).await;
    assert_eq!(view["seated"], 10);
    assert_eq!(view["table"]["state"], "running");
}
