//! Players join the lists from their phone — the code (read where the
//! phone gets it: the outbox), registered players and guests, the neutral answer, presence at
//! the desk, every refusal, the limits with `Retry-After`, blocked phones, audit and metrics.

use crate::floor::eligible_players;
use crate::pages::nl_game;
use crate::support::*;
use actix_web::test::TestRequest;
use diesel::prelude::*;
use serde_json::json;

const PHONE_A: &str = "+351912000001";
const GUEST_PHONE: &str = "+351913000000";

/// Game 1 (NL 1/2) running at table 7 (open); game 2 (PLO) running at table 8; game 3 with
/// no table and nobody waiting (offered as its interest list). Two registered players with phones: #1 by SMS
/// (+351 912 000 001), #2 by e-mail only.
async fn room(app: &TestApp) -> (String, WebSession, Vec<i64>) {
    let token = app.admin_token().await;
    nl_game(app, &token).await;
    for name in ["PLO 2/5", "Short deck"] {
        let g = json!({"name": name, "variant": "plo", "small_blind": 200, "big_blind": 500,
            "limit_class": "low", "buy_in_min": 10000, "buy_in_max": 50000});
        let r = app.send_json("POST", "/api/v1/games", &token, g).await;
        assert_eq!(r.status, 201, "{}", r.text());
    }
    for (n, g) in [(7, 1), (8, 2)] {
        let t = json!({"number": n, "game_id": g, "mode": "continuous", "seats": 9});
        let r = app.send_json("POST", "/api/v1/tables", &token, t).await;
        assert_eq!(r.status, 201, "{}", r.text());
    }
    let s = app.web_login("admin", ADMIN_PW).await;
    for t in [1, 2] {
        let r = app
            .post_form(&format!("/floor/tables/{t}/open"), &s, &[])
            .await;
        assert_eq!(r.status, 303, "{}", r.text());
    }
    let ids = eligible_players(app, 3);
    app.with_conn(|c| {
        use cardroom::db::schema::players::dsl as p;
        diesel::update(p::players.find(ids[0]))
            .set((p::phone.eq(Some(PHONE_A)), p::notify.eq("sms")))
            .execute(c)
            .unwrap();
        diesel::update(p::players.find(ids[1]))
            .set((
                p::phone.eq(Some("+351912000002")),
                p::email.eq(Some("b@example.pt")),
                p::notify.eq("email"),
            ))
            .execute(c)
            .unwrap();
    });
    (token, s, ids)
}

/// A phone's browser: its pre-sign-in cookie (the public forms' CSRF token).
struct Phone {
    pre: String,
    lang: &'static str,
}

impl Phone {
    async fn open(app: &TestApp, lang: &'static str) -> (Phone, Resp) {
        let r = app
            .call(
                TestRequest::get()
                    .uri("/join")
                    .insert_header(("Accept-Language", lang))
                    .to_request(),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.text());
        let pre = r.cookie("cr_pre").expect("pre-sign-in cookie");
        (Phone { pre, lang }, r)
    }

    async fn post(&self, app: &TestApp, uri: &str, fields: &[(&str, &str)]) -> Resp {
        let mut all: Vec<(&str, &str)> = vec![("csrf", self.pre.as_str())];
        all.extend_from_slice(fields);
        let body = serde_urlencoded::to_string(&all).unwrap();
        app.call(
            TestRequest::post()
                .uri(uri)
                .insert_header(("Accept-Language", self.lang))
                .insert_header(("Content-Type", "application/x-www-form-urlencoded"))
                .cookie(actix_web::cookie::Cookie::new("cr_pre", self.pre.clone()))
                .set_payload(body)
                .to_request(),
        )
        .await
    }

    /// Asks for a code; returns the code page's token.
    async fn ask(&self, app: &TestApp, phone: &str, name: &str, games: &[&str]) -> String {
        let r = self.join(app, phone, name, games).await;
        assert_eq!(r.status, 303, "{}", r.text());
        let to = r.header("location").unwrap();
        to.strip_prefix("/join/code/").expect(&to).to_string()
    }

    async fn join(&self, app: &TestApp, phone: &str, name: &str, games: &[&str]) -> Resp {
        let mut f = vec![("phone", phone), ("name", name)];
        for g in games {
            f.push(("games", g));
        }
        self.post(app, "/join", &f).await
    }

    async fn code(&self, app: &TestApp, token: &str, code: &str) -> Resp {
        self.post(app, &format!("/join/code/{token}"), &[("code", code)])
            .await
    }
}

/// The last join code sent: (channel, recipient, code), read from the outbox's parameters.
fn last_code(app: &TestApp) -> Option<(String, String, String)> {
    use cardroom::db::schema::outbox::dsl as o;
    let rows: Vec<(String, String, String)> = app.with_conn(|c| {
        o::outbox
            .filter(o::kind.eq("join_code"))
            .order(o::id.desc())
            .select((o::channel, o::recipient, o::params))
            .load(c)
            .unwrap()
    });
    rows.into_iter().next().map(|(ch, to, params)| {
        let v: serde_json::Value = serde_json::from_str(&params).unwrap();
        (ch, to, v["code"].as_str().unwrap().to_string())
    })
}

fn audit_actions(app: &TestApp) -> Vec<String> {
    use cardroom::db::schema::audit_log::dsl as a;
    app.with_conn(|c| {
        a::audit_log
            .order(a::seq)
            .select(a::action)
            .load(c)
            .unwrap()
    })
}

/// (game, source, via, checked in) of a player's active entries.
fn entries_of(app: &TestApp, player: i64) -> Vec<(i64, String, Option<String>, bool)> {
    use cardroom::db::schema::waitlist_entries::dsl as w;
    app.with_conn(|c| {
        w::waitlist_entries
            .filter(w::player_id.eq(player))
            .filter(w::state.eq("waiting").or(w::state.eq("called")))
            .order(w::game_id)
            .select((
                w::game_id,
                w::source,
                w::via,
                w::checked_in_at.is_not_null(),
            ))
            .load(c)
            .unwrap()
    })
}

fn wrong(code: &str) -> String {
    let n: u32 = code.parse().unwrap();
    format!("{:06}", (n + 1) % 1_000_000)
}

#[actix_web::test]
async fn a_registered_player_joins_from_the_phone_with_a_code_and_lands_on_their_page() {
    let app = TestApp::new().await;
    let (_, s, ids) = room(&app).await;
    // The lobby shows the QR code of the join page and its short address.
    let lobby = app
        .call(TestRequest::get().uri("/lobby").to_request())
        .await
        .text();
    assert!(
        lobby.contains("src=\"/join/qr.svg\"") && lobby.contains("/join</span>"),
        "{lobby}"
    );
    let qr = app
        .call(TestRequest::get().uri("/join/qr.svg").to_request())
        .await;
    assert_eq!(qr.status, 200);
    assert_eq!(qr.header("content-type").as_deref(), Some("image/svg+xml"));
    assert!(qr.text().contains("<svg"));
    // The join page: the running games with stakes and buy-ins (BSOP 24), not game 3.
    let (phone, page) = Phone::open(&app, "en").await;
    let html = page.text();
    assert!(
        html.contains("NL 1/2") && html.contains("PLO 2/5"),
        "{html}"
    );
    // A game with no table in play is offered as its interest list, as the lobby shows it.
    assert!(html.contains("Short deck"), "{html}");
    assert!(html.contains("Buy-in") && html.contains("€40.00"), "{html}");
    assert!(html.contains("Choose up to 3 lists"), "{html}");
    // A national number takes the room's country (Lisbon: +351).
    let token = phone
        .ask(&app, "912 000 001", "Jogador A", &["1", "2"])
        .await;
    let (channel, to, code) = last_code(&app).expect("a code in the outbox");
    assert_eq!((channel.as_str(), to.as_str()), ("sms", PHONE_A));
    assert_eq!(code.len(), 6);
    // Only the code's HMAC is stored with the request.
    let stored: String = app.with_conn(|c| {
        use cardroom::db::schema::join_codes::dsl as j;
        j::join_codes.select(j::code_hash).first(c).unwrap()
    });
    assert!(!stored.contains(&code));
    // The code page names the lists and hides the number.
    let cp = app
        .call(
            TestRequest::get()
                .uri(&format!("/join/code/{token}"))
                .to_request(),
        )
        .await;
    assert_eq!(cp.status, 200);
    assert!(cp.text().contains("+•••••••••001"), "{}", cp.text());
    let r = phone.code(&app, &token, &code).await;
    assert_eq!(r.status, 303, "{}", r.text());
    let to = r.header("location").unwrap();
    assert!(to.starts_with("/p/") && to.ends_with("?joined=1"), "{to}");
    let link_cookie = r
        .cookie("cr_plink")
        .expect("the link remembered for the desk");
    assert!(to.contains(&link_cookie));
    // On both lists as remote entries that lapse unless checked in (BSOP 43).
    assert_eq!(
        entries_of(&app, ids[0]),
        vec![
            (1, "call_in".into(), Some("phone".into()), false),
            (2, "call_in".into(), Some("phone".into()), false)
        ]
    );
    // The "added" message with the link, as a desk join sends.
    let kinds: Vec<String> = app.with_conn(|c| {
        use cardroom::db::schema::outbox::dsl as o;
        o::outbox
            .filter(o::player_id.eq(ids[0]))
            .select(o::kind)
            .load(c)
            .unwrap()
    });
    assert_eq!(
        kinds.iter().filter(|k| *k == "added").count(),
        2,
        "{kinds:?}"
    );
    let acts = audit_actions(&app);
    for a in ["join.code_sent", "list.join", "join.remote"] {
        assert!(acts.contains(&a.to_string()), "{a} in {acts:?}");
    }
    // The player's page opens; the board shows the entry's origin and its check-in button.
    assert_eq!(
        app.call(TestRequest::get().uri(&to).to_request())
            .await
            .status,
        200
    );
    let board = app.page("/floor", &s).await.text();
    assert!(
        board.contains("data-source=\"phone\" title=\"Phone · check in by ")
            && board.contains(">Phone</span>"),
        "{board}"
    );
    assert!(board.contains("/check-in\""), "{board}");
    // The same again: not duplicated, still on their page.
    let token2 = phone.ask(&app, PHONE_A, "Jogador A", &["1"]).await;
    let (_, _, code2) = last_code(&app).unwrap();
    let r = phone.code(&app, &token2, &code2).await;
    assert_eq!(r.status, 303, "{}", r.text());
    assert_eq!(entries_of(&app, ids[0]).len(), 2);
    // A used code is refused.
    let r = phone.code(&app, &token2, &code2).await;
    assert_eq!(r.status, 409, "{}", r.text());
    // An e-mail player gets the code by e-mail (their channel).
    let _ = phone
        .ask(&app, "+351 912 000 002", "Jogador B", &["1"])
        .await;
    let (channel, to, _) = last_code(&app).unwrap();
    assert_eq!((channel.as_str(), to.as_str()), ("email", "b@example.pt"));
    // /metrics counts them.
    let m = app
        .call(
            TestRequest::get()
                .uri("/metrics")
                .peer_addr("127.0.0.1:40000".parse().unwrap())
                .to_request(),
        )
        .await
        .text();
    assert!(
        m.contains("cardroom_join_codes_total{outcome=\"sent\"} 3"),
        "{m}"
    );
    assert!(
        m.contains("cardroom_join_codes_total{outcome=\"verified\"} 2"),
        "{m}"
    );
    assert!(
        m.contains("cardroom_join_codes_total{outcome=\"failed\"} 1"),
        "{m}"
    );
}

#[actix_web::test]
async fn a_guest_keeps_a_place_is_passed_over_by_the_call_and_the_desk_registers_them() {
    let app = TestApp::new().await;
    let (token, s, ids) = room(&app).await;
    let (phone, _) = Phone::open(&app, "pt").await;
    let t = phone.ask(&app, "913 000 000", "Rita Nova", &["1"]).await;
    let (ch, to, code) = last_code(&app).unwrap();
    assert_eq!((ch.as_str(), to.as_str()), ("sms", GUEST_PHONE));
    let r = phone.code(&app, &t, &code).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let html = r.text();
    assert!(
        html.contains("id=\"join-guest\"") && html.contains("lugar 1"),
        "{html}"
    );
    assert!(html.contains("documento de identificação"), "{html}");
    // A registered player joins at the desk after the guest.
    let r = app
        .post_form(
            "/floor/lists/1/join",
            &s,
            &[("player", &ids[2].to_string())],
        )
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    // The board shows the guest, to register, with the registration form pre-filled.
    let board = app.page("/floor", &s).await.text();
    assert!(
        board.contains("Rita Nova") && board.contains("/players/new?guest=1"),
        "{board}"
    );
    // BSOP 1, 3: the call passes over the guest (not registered) without taking the place.
    let r = app
        .send_json(
            "POST",
            "/api/v1/tables/1/seats/1/call-next",
            &token,
            json!({}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text());
    assert_eq!(r.json()["player_id"], ids[2]);
    let board = app.page("/floor", &s).await.text();
    assert!(
        board.contains("data-guest=\"1\"><span class=\"pos\">1</span>"),
        "{board}"
    );
    // The desk registers the guest: name and phone filled in.
    let form = app.page("/players/new?guest=1", &s).await.text();
    assert!(
        form.contains("value=\"Rita Nova\"") && form.contains(GUEST_PHONE),
        "{form}"
    );
    assert!(form.contains("name=\"guest\" value=\"1\""));
    let (ct, body) = multipart(
        &[
            ("csrf", s.csrf.as_str()),
            ("guest", "1"),
            ("full_name", "Rita Nova"),
            ("date_of_birth", "1990-02-03"),
            ("doc_kind", "national_id"),
            ("doc_number", "GUEST0001"),
            ("doc_country", "PT"),
            ("doc_expiry", "2031-01-01"),
            ("phone", GUEST_PHONE),
            ("email", ""),
            ("language", "pt"),
            ("notify", "sms"),
            ("alias", "Rita"),
        ],
        None,
    );
    let r = app
        .call(
            TestRequest::post()
                .uri("/players")
                .cookie(s.c())
                .insert_header(("Content-Type", ct))
                .set_payload(body)
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    let id: i64 = r.header("location").unwrap()["/players/".len()..]
        .split('?')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    // The place is the new player's, first on the list, checked in at the desk.
    assert_eq!(
        entries_of(&app, id),
        vec![(1, "desk".into(), Some("phone".into()), true)]
    );
    let list = app.get("/api/v1/games/1/waitlist", &token).await.json();
    assert_eq!(list["lines"][0]["player_id"], id, "{list}");
    // Told once, with the place ("added"), as a desk join: the head's "next" mark is set
    // without a second message, so no later change sends "you are next" to them again.
    let (kinds, marks): (Vec<String>, Vec<String>) = app.with_conn(|c| {
        use cardroom::db::schema::{notify_marks, outbox, waitlist_entries};
        let kinds = outbox::table
            .filter(outbox::player_id.eq(id))
            .select(outbox::kind)
            .load(c)
            .unwrap();
        let marks = notify_marks::table
            .inner_join(waitlist_entries::table.on(waitlist_entries::id.eq(notify_marks::entry_id)))
            .filter(waitlist_entries::player_id.eq(id))
            .select(notify_marks::kind)
            .load(c)
            .unwrap();
        (kinds, marks)
    });
    assert_eq!(kinds, ["added"]);
    assert_eq!(marks, ["next"]);
    assert!(!app
        .page("/floor", &s)
        .await
        .text()
        .contains("data-guest=\"1\""));
    assert!(audit_actions(&app).contains(&"list.join_guest".to_string()));
    // Registering the same guest again is refused; nothing changes.
    let again = app.page("/players/new?guest=1", &s).await;
    assert_eq!(again.status, 404);
    // Another guest, whose place the floor takes off the list (audited).
    let t = phone.ask(&app, "913 000 009", "Outro Nome", &["1"]).await;
    let (_, _, code) = last_code(&app).unwrap();
    assert_eq!(phone.code(&app, &t, &code).await.status, 200);
    assert!(app.page("/floor", &s).await.text().contains("Outro Nome"));
    let r = app
        .post_form("/floor/guest-entries/2/remove", &s, &[("reason", "left")])
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    assert!(!app.page("/floor", &s).await.text().contains("Outro Nome"));
    assert!(audit_actions(&app).contains(&"list.guest_remove".to_string()));
    let r = app
        .post_form("/floor/guest-entries/2/remove", &s, &[("reason", "left")])
        .await;
    assert_eq!(r.status, 409);
}

#[actix_web::test]
async fn bad_input_is_refused_in_the_players_language_with_what_was_typed_kept() {
    let app = TestApp::new().await;
    let (token, _, _) = room(&app).await;
    let (phone, _) = Phone::open(&app, "en").await;
    let before = app.audit_count();
    let cases: &[(&str, &str, &[&str], &str)] = &[
        ("12ab", "Ana", &["1"], "Enter the phone"),
        ("+1 23", "Ana", &["1"], "Enter the phone"),
        ("", "Ana", &["1"], "required"),
        (PHONE_A, "Ana", &[], "at least one list"),
        (PHONE_A, "Ana", &["99"], "no longer open"),
        (PHONE_A, "", &["1"], "required"),
    ];
    for (ph, name, games, says) in cases {
        let r = phone.join(&app, ph, name, games).await;
        assert_eq!(r.status, 422, "{ph} {name} {games:?}: {}", r.text());
        let html = r.text();
        assert!(html.contains(says), "{ph} {games:?}: {html}");
        assert!(
            html.contains(&format!("value=\"{ph}\"")),
            "phone kept: {html}"
        );
    }
    // More lists than the room allows (set to 1 by the admin).
    let mut room = app.get("/api/v1/room", &token).await.json();
    room["profile"]["remote_max_lists"] = json!(1);
    let r = app
        .send_json("PUT", "/api/v1/room", &token, room.clone())
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let before = before + 1;
    let r = phone.join(&app, PHONE_A, "Ana", &["1", "2"]).await;
    assert_eq!(r.status, 422);
    assert!(r.text().contains("at most 1 lists"), "{}", r.text());
    // The chosen boxes stay ticked.
    assert!(
        r.text().contains("value=\"2\" id=\"game-2\" checked"),
        "{}",
        r.text()
    );
    room["profile"]["remote_max_lists"] = json!(11);
    let r = app.send_json("PUT", "/api/v1/room", &token, room).await;
    assert_eq!(r.status, 422, "the setting's range: {}", r.text());
    // In Portuguese for a Portuguese phone.
    let (pt, _) = Phone::open(&app, "pt-PT").await;
    let r = pt.join(&app, "12ab", "Ana", &["1"]).await;
    assert!(r.text().contains("Indique o telefone"), "{}", r.text());
    // Without the form's token: 403.
    let r = app
        .call(
            TestRequest::post()
                .uri("/join")
                .insert_header(("Content-Type", "application/x-www-form-urlencoded"))
                .set_payload(format!("phone={PHONE_A}&name=A&games=1"))
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 403);
    assert_eq!(app.audit_count(), before, "nothing recorded");
    assert_eq!(app.count("join_codes"), 0);
    assert!(last_code(&app).is_none());
    // An unknown request's code page is 404.
    let r = phone.code(&app, "nothing-here", "123456").await;
    assert_eq!(r.status, 404);
}

#[actix_web::test]
async fn codes_take_five_tries_and_ten_minutes_at_most() {
    let app = TestApp::with_clock(true).await;
    let (_, _, ids) = room(&app).await;
    let (phone, _) = Phone::open(&app, "en").await;
    let t = phone.ask(&app, PHONE_A, "A", &["1"]).await;
    let (_, _, code) = last_code(&app).unwrap();
    // Not six digits: said so, not counted.
    let r = phone.code(&app, &t, "12").await;
    assert_eq!(r.status, 422);
    assert!(r.text().contains("6 digits"), "{}", r.text());
    for left in (1..=4).rev() {
        let r = phone.code(&app, &t, &wrong(&code)).await;
        assert_eq!(r.status, 422, "{}", r.text());
        let says = if left == 1 {
            "one try left".to_string()
        } else {
            format!("{left} tries left")
        };
        assert!(r.text().contains(&says), "{}", r.text());
    }
    let r = phone.code(&app, &t, &wrong(&code)).await;
    assert_eq!(r.status, 409, "the fifth wrong try ends it: {}", r.text());
    assert!(r.text().contains("id=\"join-again\""));
    let r = phone.code(&app, &t, &code).await;
    assert_eq!(r.status, 409, "dead, even with the right code");
    assert!(entries_of(&app, ids[0]).is_empty());
    let failed = audit_actions(&app)
        .iter()
        .filter(|a| *a == "join.code_failed")
        .count();
    assert_eq!(failed, 6);
    // A new code, 10 minutes later: expired.
    let t = phone.ask(&app, PHONE_A, "A", &["1"]).await;
    let (_, _, code) = last_code(&app).unwrap();
    app.state
        .clock
        .advance(chrono::Duration::minutes(10))
        .unwrap();
    let r = phone.code(&app, &t, &code).await;
    assert_eq!(r.status, 409);
    assert!(r.text().contains("expired"), "{}", r.text());
    assert!(entries_of(&app, ids[0]).is_empty());
}

#[actix_web::test]
async fn limits_per_phone_address_room_and_sms_cost_answer_429_with_retry_after() {
    let app = TestApp::tuned(|c| {
        c.join.codes_per_phone = 2;
        c.join.codes_per_address = 4;
    })
    .await;
    room(&app).await;
    let (phone, _) = Phone::open(&app, "en").await;
    for _ in 0..2 {
        phone.ask(&app, PHONE_A, "A", &["1"]).await;
    }
    let r = phone.join(&app, PHONE_A, "A", &["1"]).await;
    assert_eq!(r.status, 429, "{}", r.text());
    let wait: i64 = r.header("retry-after").unwrap().parse().unwrap();
    assert!((3500..=3600).contains(&wait), "{wait}");
    assert!(r.text().contains("Too many requests"), "{}", r.text());
    assert!(r.text().contains(&format!("value=\"{PHONE_A}\"")), "kept");
    // Another phone from the same address: two more, then the address is full.
    phone.ask(&app, "+351912000005", "C", &["1"]).await;
    phone.ask(&app, "+351912000006", "D", &["1"]).await;
    let r = phone.join(&app, "+351912000007", "E", &["1"]).await;
    assert_eq!(r.status, 429);
    assert_eq!(app.count("join_codes"), 4);
    let m = app
        .call(
            TestRequest::get()
                .uri("/metrics")
                .peer_addr("127.0.0.1:40000".parse().unwrap())
                .to_request(),
        )
        .await
        .text();
    assert!(
        m.contains("cardroom_join_codes_total{outcome=\"rate_limited\"} 2"),
        "{m}"
    );
    // The SMS cost cap: one SMS of 10 cents a hour.
    let app = TestApp::tuned(|c| {
        c.join.sms_cost = 10;
        c.join.sms_cost_cap = 10;
    })
    .await;
    room(&app).await;
    let (phone, _) = Phone::open(&app, "en").await;
    phone.ask(&app, PHONE_A, "A", &["1"]).await;
    let r = phone.join(&app, "+351912000005", "C", &["1"]).await;
    assert_eq!(r.status, 429);
    assert!(r.text().contains("cannot send more codes"), "{}", r.text());
    assert!(r.header("retry-after").is_some());
    // The e-mail player's code costs no SMS.
    phone.ask(&app, "+351912000002", "B", &["1"]).await;
}

#[actix_web::test]
async fn a_banned_player_gets_the_same_answers_and_no_entry() {
    let app = TestApp::new().await;
    let (token, _, ids) = room(&app).await;
    let r = app
        .send_json(
            "POST",
            &format!("/api/v1/players/{}/exclusions", ids[0]),
            &token,
            json!({"reason": "self-excluded"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let (phone, _) = Phone::open(&app, "en").await;
    // Up to the code, exactly what an unknown number gets.
    let t = phone.ask(&app, PHONE_A, "A", &["1"]).await;
    let t2 = phone.ask(&app, "+351919999999", "Z", &["1"]).await;
    let page = |t: &str| {
        let t = t.to_string();
        let app = &app;
        async move {
            app.call(
                TestRequest::get()
                    .uri(&format!("/join/code/{t}"))
                    .to_request(),
            )
            .await
            .text()
            .replace(&t, "T")
        }
    };
    let (a, b) = (page(&t).await, page(&t2).await);
    // The same page but for the number's last digits, the form's token and its own key.
    let strip = |s: &str| {
        let mut s = s.replace("001", "xxx").replace("999", "xxx");
        for field in [
            "name=\"csrf\" value=\"",
            "name=\"idempotency_key\" value=\"",
        ] {
            let i = s.find(field).unwrap();
            let j = i + s[i..].find("\">").unwrap();
            s = format!("{}{}", &s[..i], &s[j..]);
        }
        s
    };
    assert_eq!(strip(&a), strip(&b));
    let codes: Vec<(String, String, String)> = app.with_conn(|c| {
        use cardroom::db::schema::outbox::dsl as o;
        o::outbox
            .filter(o::kind.eq("join_code"))
            .order(o::id)
            .select((o::channel, o::recipient, o::params))
            .load(c)
            .unwrap()
    });
    assert_eq!(codes.len(), 2, "a code to each");
    let code: serde_json::Value = serde_json::from_str(&codes[0].2).unwrap();
    let r = phone.code(&app, &t, code["code"].as_str().unwrap()).await;
    assert_eq!(r.status, 200);
    assert!(r.text().contains("id=\"join-see-desk\""), "{}", r.text());
    assert!(!r.text().to_lowercase().contains("exclu") && !r.text().contains("ban"));
    assert!(entries_of(&app, ids[0]).is_empty());
    assert!(audit_actions(&app).contains(&"join.refused".to_string()));
}

#[actix_web::test]
async fn the_floor_blocks_a_phone_which_then_gets_the_same_answer_and_no_code() {
    let app = TestApp::new().await;
    let (_, s, ids) = room(&app).await;
    let r = app
        .post_form(
            "/floor/phones",
            &s,
            &[("phone", "12ab"), ("reason", "spam")],
        )
        .await;
    assert_eq!(r.status, 422);
    assert!(r.text().contains("value=\"12ab\""));
    let r = app
        .post_form(
            "/floor/phones",
            &s,
            &[("phone", "912 000 001"), ("reason", "")],
        )
        .await;
    assert_eq!(r.status, 422);
    let r = app
        .post_form(
            "/floor/phones",
            &s,
            &[("phone", "912 000 001"), ("reason", "flooding")],
        )
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    let r = app
        .post_form(
            "/floor/phones",
            &s,
            &[("phone", PHONE_A), ("reason", "again")],
        )
        .await;
    assert_eq!(r.status, 409);
    let page = app.page("/floor/phones", &s).await.text();
    assert!(
        page.contains(PHONE_A) && page.contains("flooding"),
        "{page}"
    );
    let (phone, _) = Phone::open(&app, "en").await;
    let t = phone.ask(&app, PHONE_A, "A", &["1"]).await;
    assert!(last_code(&app).is_none(), "nothing sent");
    for guess in ["000000", "123456"] {
        assert_eq!(phone.code(&app, &t, guess).await.status, 422);
    }
    assert!(entries_of(&app, ids[0]).is_empty());
    let acts = audit_actions(&app);
    for a in ["join.phone_block", "join.code_withheld", "join.code_failed"] {
        assert!(acts.contains(&a.to_string()), "{a}: {acts:?}");
    }
    let r = app
        .post_form("/floor/phones/unblock", &s, &[("phone", PHONE_A)])
        .await;
    assert_eq!(r.status, 303);
    assert!(audit_actions(&app).contains(&"join.phone_unblock".to_string()));
    phone.ask(&app, PHONE_A, "A", &["1"]).await;
    assert!(last_code(&app).is_some());
    let m = app
        .call(
            TestRequest::get()
                .uri("/metrics")
                .peer_addr("127.0.0.1:40000".parse().unwrap())
                .to_request(),
        )
        .await
        .text();
    assert!(
        m.contains("cardroom_join_codes_total{outcome=\"blocked\"} 1"),
        "{m}"
    );
}

#[actix_web::test]
async fn a_list_that_closed_meanwhile_is_not_joined_and_the_page_says_so() {
    let app = TestApp::new().await;
    let (token, _, ids) = room(&app).await;
    let (phone, _) = Phone::open(&app, "en").await;
    let t = phone.ask(&app, PHONE_A, "A", &["2"]).await;
    let (_, _, code) = last_code(&app).unwrap();
    // The game is taken off meanwhile.
    let mut g = app.get("/api/v1/games/2", &token).await.json();
    g["active"] = json!(false);
    let r = app.send_json("PUT", "/api/v1/games/2", &token, g).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let r = phone.code(&app, &t, &code).await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(r.text().contains("id=\"join-skipped\"") && r.text().contains("PLO 2/5"));
    assert!(entries_of(&app, ids[0]).is_empty());
}

#[actix_web::test]
async fn bsop_43_a_phone_entry_lapses_unless_checked_in_by_the_desk_code_or_the_floor() {
    let app = TestApp::with_clock(true).await;
    let (token, s, ids) = room(&app).await;
    let (phone, _) = Phone::open(&app, "en").await;
    let t = phone.ask(&app, PHONE_A, "A", &["1", "2"]).await;
    let (_, _, code) = last_code(&app).unwrap();
    let r = phone.code(&app, &t, &code).await;
    let link = r.cookie("cr_plink").unwrap();
    // The desk's screen shows a QR code of the check-in address.
    let desk = app.page("/floor/desk-qr", &s).await.text();
    assert!(desk.contains("src=\"data:image/svg+xml;base64,"), "{desk}");
    let i = desk.find("/join/here/").unwrap();
    let here = &desk[i..i + desk[i..].find('<').unwrap()];
    // Without the link on the phone: what to do.
    let r = app.call(TestRequest::get().uri(here).to_request()).await;
    assert_eq!(r.status, 200);
    assert!(
        r.text().contains("id=\"join-here-no_link\""),
        "{}",
        r.text()
    );
    // With it: checked in on both lists, on to the player's page.
    let r = app
        .call(
            TestRequest::get()
                .uri(here)
                .cookie(actix_web::cookie::Cookie::new("cr_plink", link.clone()))
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    assert_eq!(
        r.header("location").unwrap(),
        format!("/p/{link}?checked_in=1")
    );
    assert!(entries_of(&app, ids[0]).iter().all(|e| e.3));
    // A photo of an old code does not work.
    app.state
        .clock
        .advance(chrono::Duration::minutes(10))
        .unwrap();
    let r = app
        .call(
            TestRequest::get()
                .uri(here)
                .cookie(actix_web::cookie::Cookie::new("cr_plink", link))
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 410);
    // Another player, not checked in: lapses after call_in_expiry_min (30), unless the floor
    // checks them in (the board's button, as for a call-in).
    let (phone2, _) = Phone::open(&app, "en").await;
    let t = phone2.ask(&app, "+351912000002", "B", &["1", "2"]).await;
    let (_, _, code) = last_code(&app).unwrap();
    assert_eq!(phone2.code(&app, &t, &code).await.status, 303);
    let id: i64 = app.with_conn(|c| {
        use cardroom::db::schema::waitlist_entries::dsl as w;
        w::waitlist_entries
            .filter(w::player_id.eq(ids[1]))
            .filter(w::game_id.eq(2))
            .select(w::id)
            .first(c)
            .unwrap()
    });
    let r = app
        .post_form(&format!("/floor/entries/{id}/check-in"), &s, &[])
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    app.state
        .clock
        .advance(chrono::Duration::minutes(31))
        .unwrap();
    let on = |g: i64| {
        let token = token.clone();
        let app = &app;
        async move {
            app.get(&format!("/api/v1/games/{g}/waitlist"), &token)
                .await
                .json()["lines"]
                .as_array()
                .unwrap()
                .iter()
                .map(|l| l["player_id"].as_i64().unwrap())
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(on(1).await, vec![ids[0]], "B's unchecked entry lapsed");
    assert!(on(2).await.contains(&ids[1]), "B's checked-in entry holds");
}

#[actix_web::test]
async fn the_api_blocks_and_unblocks_phones_and_lists_each_entrys_origin() {
    let app = TestApp::new().await;
    let (token, _, ids) = room(&app).await;
    let dealer = app.staff_token("dealer9", "dealer").await;
    let r = app
        .send_json(
            "POST",
            "/api/v1/phone-blocks",
            &dealer,
            json!({"phone": PHONE_A, "reason": "x"}),
        )
        .await;
    assert_eq!(r.status, 403);
    let r = app
        .send_json(
            "POST",
            "/api/v1/phone-blocks",
            &token,
            json!({"phone": "12ab", "reason": "x"}),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
    let r = app
        .send_json(
            "POST",
            "/api/v1/phone-blocks",
            &token,
            json!({"phone": "912 000 001", "reason": "spam"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text());
    assert_eq!(r.json()["phone"], PHONE_A);
    let r = app
        .send_json(
            "POST",
            "/api/v1/phone-blocks",
            &token,
            json!({"phone": PHONE_A, "reason": "again"}),
        )
        .await;
    assert_eq!(r.status, 409);
    let list = app.get("/api/v1/phone-blocks", &token).await.json();
    assert_eq!(list[0]["reason"], "spam", "{list}");
    let r = app
        .send_json(
            "POST",
            "/api/v1/phone-blocks/unblock",
            &token,
            json!({"phone": PHONE_A}),
        )
        .await;
    assert_eq!(r.status, 204, "{}", r.text());
    let r = app
        .send_json(
            "POST",
            "/api/v1/phone-blocks/unblock",
            &token,
            json!({"phone": PHONE_A}),
        )
        .await;
    assert_eq!(r.status, 404);
    // A phone entry's origin on the list API; a desk entry's too.
    let (phone, _) = Phone::open(&app, "en").await;
    let t = phone.ask(&app, PHONE_A, "A", &["1"]).await;
    let (_, _, code) = last_code(&app).unwrap();
    assert_eq!(phone.code(&app, &t, &code).await.status, 303);
    let r = app
        .send_json(
            "POST",
            "/api/v1/games/1/waitlist",
            &token,
            json!({"player_id": ids[2]}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let l = app.get("/api/v1/games/1/waitlist", &token).await.json();
    let lines = l["lines"].as_array().unwrap();
    assert_eq!(
        (
            lines[0]["origin"].as_str(),
            lines[0]["source"].as_str(),
            lines[0]["checked_in"].as_bool()
        ),
        (Some("phone"), Some("call_in"), Some(false)),
        "{l}"
    );
    assert_eq!(lines[1]["origin"], "desk");
    // Checked in through the API, as a call-in.
    let id = lines[0]["entry_id"].as_i64().unwrap();
    let r = app
        .send_json(
            "POST",
            &format!("/api/v1/waitlist/{id}/check-in"),
            &token,
            json!({}),
        )
        .await;
    assert!(r.status < 300, "{}", r.text());
    assert!(entries_of(&app, ids[0])[0].3);
}

#[actix_web::test]
async fn remote_max_lists_counts_every_list_joined_from_afar_not_each_request() {
    let app = TestApp::new().await;
    let (token, _, ids) = room(&app).await;
    let mut room_json = app.get("/api/v1/room", &token).await.json();
    room_json["profile"]["remote_max_lists"] = json!(1);
    let r = app
        .send_json("PUT", "/api/v1/room", &token, room_json)
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let (phone, _) = Phone::open(&app, "en").await;
    for (ph, name) in [(PHONE_A, "A"), (GUEST_PHONE, "Rita Nova")] {
        let t = phone.ask(&app, ph, name, &["1"]).await;
        let (_, _, code) = last_code(&app).unwrap();
        assert!(phone.code(&app, &t, &code).await.status < 400);
        let t = phone.ask(&app, ph, name, &["2"]).await;
        let (_, _, code) = last_code(&app).unwrap();
        let r = phone.code(&app, &t, &code).await;
        assert_eq!(r.status, 200, "{}", r.text());
        assert!(
            r.text().contains("id=\"join-nothing\"") && r.text().contains("id=\"join-skipped\""),
            "{}",
            r.text()
        );
    }
    assert_eq!(entries_of(&app, ids[0]).len(), 1);
    assert_eq!(app.count("guest_entries"), 1);
}
