//! The player's own page `/p/{token}`: refused links (expired, revoked, another
//! key, `alg: none`, another player's id edited in) change nothing; the place in line
//! follows the floor (state endpoint with ETag / 304); only the player's own data; the
//! answers "on my way" (seen on the floor dashboard), "need more time" (once, by
//! `CARDROOM_CALL_EXTENSION_MIN`), "leave this list"; today's summary (PT-ONL 65-67); the
//! rate limit; the headers.

use crate::support::*;
use actix_web::test;
use base64::Engine;
use cardroom::auth::Keys;
use cardroom::config::Settings;
use cardroom::domain::ids::PlayerId;
use cardroom::domain::player::{DocumentKind, Language, NotifyPref, PlayerInput};
use cardroom::notify::link;
use chrono::{Duration, NaiveDate};
use diesel::prelude::*;
use serde_json::{json, Value};

/// The app on the test clock with a game and an open table 7; `Deref`s to its [`TestApp`].
struct PApp {
    app: TestApp,
    admin: String,
    game: i64,
    table: i64,
}

const NAMES: [&str; 6] = [
    "Ana Mota",
    "Bruno Reis",
    "Carla Dias",
    "Duarte Lobo",
    "Eva Sousa",
    "Filipe Cruz",
];

impl std::ops::Deref for PApp {
    type Target = TestApp;
    fn deref(&self) -> &TestApp {
        &self.app
    }
}

impl PApp {
    async fn new(tune: impl FnOnce(&mut Settings)) -> PApp {
        let mut app = PApp {
            app: TestApp::builder()
                .clock(ClockKind::Test)
                .tune(tune)
                .start()
                .await,
            admin: String::new(),
            game: 0,
            table: 0,
        };
        let r = app
            .call(
                test::TestRequest::post()
                    .uri("/api/v1/auth/login")
                    .set_json(json!({"username": "admin", "password": ADMIN_PW}))
                    .to_request(),
            )
            .await;
        app.admin = r.json()["token"].as_str().unwrap().to_string();
        let g = json!({"name": "NL 1/2", "variant": "holdem_nl", "small_blind": 100, "big_blind": 200,
            "limit_class": "low", "buy_in_min": 4000, "buy_in_max": 20000, "seats": 10});
        let r = app.post("/api/v1/games", g).await;
        assert_eq!(r.status, 201, "{}", r.text());
        app.game = r.json()["id"].as_i64().unwrap();
        let r = app
            .post(
                "/api/v1/tables",
                json!({"number": 7, "game_id": app.game, "mode": "continuous"}),
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.text());
        app.table = r.json()["id"].as_i64().unwrap();
        let r = app
            .post(&format!("/api/v1/tables/{}/open", app.table), json!({}))
            .await;
        assert_eq!(r.status, 200, "{}", r.text());
        app
    }

    async fn post(&self, uri: &str, body: Value) -> Resp {
        self.call(
            test::TestRequest::post()
                .uri(uri)
                .insert_header(("Authorization", format!("Bearer {}", self.admin)))
                .set_json(body)
                .to_request(),
        )
        .await
    }

    /// The player's page (or any `/p/…` GET) from one client address.
    async fn open(&self, uri: &str) -> Resp {
        self.call(
            test::TestRequest::get()
                .uri(uri)
                .peer_addr("10.1.1.1:5000".parse().unwrap())
                .to_request(),
        )
        .await
    }

    async fn open_lang(&self, uri: &str, accept: &str) -> Resp {
        self.call(
            test::TestRequest::get()
                .uri(uri)
                .insert_header(("Accept-Language", accept))
                .to_request(),
        )
        .await
    }

    async fn state(&self, token: &str, etag: Option<&str>) -> Resp {
        let mut r = test::TestRequest::get().uri(&format!("/p/{token}/state"));
        if let Some(e) = etag {
            r = r.insert_header(("If-None-Match", e));
        }
        self.call(r.to_request()).await
    }

    /// A form post with no body, no cookie, no CSRF token: the token in the path is the credential.
    async fn press(&self, uri: &str) -> Resp {
        self.call(
            test::TestRequest::post()
                .uri(uri)
                .set_form(Vec::<(String, String)>::new())
                .to_request(),
        )
        .await
    }

    fn advance(&self, d: Duration) {
        self.state.clock.advance(d).expect("the test clock moves");
    }

    /// A registered adult with a photo.
    fn player(&self, n: usize, lang: Language) -> i64 {
        let photo = cardroom::services::photo::process(
            &cardroom::services::photo::generated_portrait(n as u64),
        )
        .unwrap();
        let now = self.state.clock.now();
        let input = PlayerInput {
            full_name: NAMES[n].into(),
            date_of_birth: NaiveDate::from_ymd_opt(1985, 3, 1).unwrap(),
            doc_kind: DocumentKind::NationalId,
            doc_number: format!("PL{n:05}"),
            doc_country: "PT".into(),
            doc_expiry: NaiveDate::from_ymd_opt(2035, 1, 1).unwrap(),
            phone: Some(format!("+35191234567{n}")),
            email: None,
            language: lang,
            notify: NotifyPref::Sms,
            alias: format!("Nick{n}"),
        };
        self.with_conn(|c| {
            self.state
                .db
                .write(c, |c| {
                    let act = cardroom::services::Acting::system(now)
                        .in_room(c)
                        .expect("room");
                    cardroom::services::players::create(c, &act, &input, Some(&photo))
                        .map(|(p, _)| p.id.get())
                })
                .unwrap()
        })
    }

    async fn join(&self, player: i64) -> i64 {
        let r = self
            .post(
                &format!("/api/v1/games/{}/waitlist", self.game),
                json!({"player_id": player, "call_in": false}),
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.text());
        r.json()["entry_id"].as_i64().unwrap()
    }

    /// The floor calls the next player to a seat: the call's id.
    async fn call_next(&self, seat: i32) -> i64 {
        let r = self
            .post(
                &format!("/api/v1/tables/{}/seats/{seat}/call-next", self.table),
                json!({}),
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.text());
        r.json()["id"]
            .as_i64()
            .or_else(|| r.json()["call_id"].as_i64())
            .unwrap_or_else(|| panic!("call id in {}", r.text()))
    }

    async fn seat(&self, call: i64) {
        let r = self
            .post(&format!("/api/v1/seat-calls/{call}/seat"), json!({}))
            .await;
        assert!(r.status == 200 || r.status == 201, "{}", r.text());
    }

    fn token(&self, player: i64) -> String {
        let now = self.state.clock.now();
        self.with_conn(|c| {
            let tz = cardroom::services::room::get(c).unwrap().tz;
            link::issue_for(
                c,
                &self.state.keys,
                PlayerId(player),
                now,
                tz,
                cardroom::domain::clock::parse_hhmm("06:00").unwrap(),
            )
            .unwrap()
        })
    }

    /// (respond_by, player_answer, extended_at is set) of a call.
    fn call_row(&self, id: i64) -> (chrono::NaiveDateTime, Option<String>, bool) {
        use cardroom::db::schema::seat_calls::dsl as s;
        self.with_conn(|c| {
            let (r, a, e): (
                chrono::NaiveDateTime,
                Option<String>,
                Option<chrono::NaiveDateTime>,
            ) = s::seat_calls
                .find(id)
                .select((s::respond_by, s::player_answer, s::extended_at))
                .first(c)
                .unwrap();
            (r, a, e.is_some())
        })
    }

    fn last_audit(&self) -> (String, String) {
        use cardroom::db::schema::audit_log::dsl as a;
        self.with_conn(|c| {
            a::audit_log
                .order(a::seq.desc())
                .select((a::action, a::actor_name))
                .first(c)
                .unwrap()
        })
    }
}

fn b64(s: &[u8]) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(s)
}

fn position_in(html: &str) -> Option<String> {
    let i = html.find("data-position=\"")? + "data-position=\"".len();
    Some(html[i..i + html[i..].find('"')?].to_string())
}

#[actix_rt::test]
async fn refused_links_get_a_clear_page_and_change_nothing() {
    let app = PApp::new(|_| {}).await;
    let me = app.player(0, Language::En);
    let other = app.player(1, Language::En);
    app.join(me).await;
    app.join(other).await;
    let call = app.call_next(1).await;
    let good = app.token(me);
    let ok = app.open(&format!("/p/{good}")).await;
    assert_eq!(ok.status, 200, "{}", ok.text());

    let now = app.state.clock.now();
    let parts: Vec<String> = good.split('.').map(str::to_string).collect();
    let claims: Value = serde_json::from_slice(
        &base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(&parts[1])
            .unwrap(),
    )
    .unwrap();
    let other_key = link::issue(
        &Keys::from_secret(b"another-secret-another-secret-xx"),
        PlayerId(me),
        0,
        link::Purpose::PlayerPage,
        now,
        now + Duration::hours(2),
    );
    let alg_none = format!("{}.{}.", b64(br#"{"alg":"none","typ":"JWT"}"#), parts[1]);
    let mut edited = claims.clone();
    edited["sub"] = json!(other);
    let edited = format!(
        "{}.{}.{}",
        parts[0],
        b64(edited.to_string().as_bytes()),
        parts[2]
    );
    let before = (app.audit_count(), app.call_row(call));
    for (what, token) in [
        ("wrong key", other_key),
        ("alg none", alg_none),
        ("another player's id", edited),
        ("garbage", "not-a-token".into()),
    ] {
        let r = app.open_lang(&format!("/p/{token}"), "en").await;
        assert_eq!(r.status, 404, "{what}: {}", r.text());
        assert!(
            r.text().contains("Link not recognised"),
            "{what}: {}",
            r.text()
        );
        assert!(
            !r.text().contains("Nick") && !r.text().contains("Ana"),
            "{what}: nothing of the player shows"
        );
        for action in [
            format!("/p/{token}/calls/{call}/on-my-way"),
            format!("/p/{token}/calls/{call}/more-time"),
        ] {
            let r = app.press(&action).await;
            assert_eq!(r.status, 404, "{what} {action}: {}", r.text());
        }
        let r = app.state(&token, None).await;
        assert_eq!(r.status, 404, "{what}");
    }
    // An address the router itself refuses (not a number) still keeps the token private.
    let r = app
        .press(&format!("/p/{good}/calls/not-a-number/on-my-way"))
        .await;
    assert!((400..500).contains(&r.status), "{}", r.status);
    assert_eq!(r.header("referrer-policy").as_deref(), Some("no-referrer"));
    // In the reader's language.
    let r = app
        .open_lang("/p/nothing.like.this", "pt-PT,pt;q=0.9")
        .await;
    assert_eq!(r.status, 404);
    assert!(r.text().contains("Ligação não reconhecida"), "{}", r.text());
    assert_eq!(
        (app.audit_count(), app.call_row(call)),
        before,
        "a refused link changes nothing"
    );

    // Revoked by the floor: 410, in the reader's language; the answer is refused too.
    let r = app
        .post(&format!("/api/v1/players/{me}/links/revoke"), json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let r = app.open_lang(&format!("/p/{good}"), "en").await;
    assert_eq!(r.status, 410);
    assert!(
        r.text().contains("This link is no longer valid"),
        "{}",
        r.text()
    );
    let audits = app.audit_count();
    let r = app
        .press(&format!("/p/{good}/calls/{call}/on-my-way"))
        .await;
    assert_eq!(r.status, 410);
    assert_eq!(app.audit_count(), audits);
    assert_eq!(app.call_row(call).1, None);

    // Expired at the end of the gaming day.
    let fresh = app.token(me);
    assert_eq!(app.open(&format!("/p/{fresh}")).await.status, 200);
    app.advance(Duration::hours(25));
    let r = app.open_lang(&format!("/p/{fresh}"), "pt").await;
    assert_eq!(r.status, 410);
    assert!(r.text().contains("Esta ligação expirou"), "{}", r.text());
    assert!(
        !r.text().to_lowercase().contains("panic") && !r.text().contains("src/"),
        "never a trace"
    );
}

#[actix_rt::test]
async fn the_place_follows_the_floor_with_etags_and_shows_no_other_name() {
    let app = PApp::new(|_| {}).await;
    let a = app.player(0, Language::En);
    let b = app.player(1, Language::En);
    let me = app.player(2, Language::En);
    let after = app.player(3, Language::En);
    for p in [a, b, me, after] {
        app.join(p).await;
    }
    let token = app.token(me);
    let page = app.open(&format!("/p/{token}")).await;
    assert_eq!(page.status, 200, "{}", page.text());
    let html = page.text();
    assert_eq!(position_in(&html).as_deref(), Some("3"), "{html}");
    assert!(html.contains("2 players ahead of you"), "{html}");
    assert!(html.contains("4 players on this list"));
    assert!(html.contains("Hello, Nick2"));
    for (i, name) in NAMES.iter().enumerate().take(4) {
        if i != 2 {
            assert!(
                !html.contains(name) && !html.contains(&format!("Nick{i}")),
                "another player's name ({name}) on the page"
            );
        }
    }
    assert!(
        html.contains("src=\"/static/player.js?v=") && !html.contains("<script>"),
        "no inline script"
    );
    // Headers: no caching, no referrer, the app's CSP.
    assert_eq!(page.header("cache-control").as_deref(), Some("no-store"));
    assert_eq!(
        page.header("referrer-policy").as_deref(),
        Some("no-referrer")
    );
    assert!(page
        .header("content-security-policy")
        .unwrap()
        .contains("script-src 'self'"));
    assert_eq!(page.header("content-language").as_deref(), Some("en"));
    assert!(
        page.cookie("cr_session").is_none() && page.headers.get("set-cookie").is_none(),
        "no cookie"
    );

    // The state: ETag, then 304 while nothing changed.
    let s1 = app.state(&token, None).await;
    assert_eq!(s1.status, 200);
    let etag = s1.header("etag").expect("an ETag");
    assert_eq!(position_in(&s1.text()).as_deref(), Some("3"));
    assert!(
        html.contains(&s1.text()),
        "the page holds the same fragment"
    );
    assert!(s1.header("x-now").is_some());
    let s2 = app.state(&token, Some(&etag)).await;
    assert_eq!(s2.status, 304);
    assert!(s2.body.is_empty());
    assert_eq!(s2.header("etag").as_deref(), Some(etag.as_str()));
    assert_eq!(s2.header("cache-control").as_deref(), Some("no-store"));

    // The floor seats two players: place 1, a new ETag.
    for seat in [1, 2] {
        let call = app.call_next(seat).await;
        app.seat(call).await;
    }
    let s3 = app.state(&token, Some(&etag)).await;
    assert_eq!(s3.status, 200);
    assert_ne!(s3.header("etag").as_deref(), Some(etag.as_str()));
    assert_eq!(
        position_in(&s3.text()).as_deref(),
        Some("1"),
        "{}",
        s3.text()
    );
    assert!(s3.text().contains("Nobody ahead of you"));
    // Seats are free at the table (8 of 10): the page says so, as the lobby does, instead of
    // an estimate from past turnover.
    assert!(
        s3.text().contains("A seat is free now") && !s3.text().contains("Estimated wait"),
        "{}",
        s3.text()
    );
    assert_eq!(
        app.state(&token, s3.header("etag").as_deref()).await.status,
        304
    );

    // Portuguese for a Portuguese player, whatever the browser says.
    let pt = app.player(4, Language::Pt);
    app.join(pt).await;
    let r = app
        .open_lang(&format!("/p/{}", app.token(pt)), "en-GB")
        .await;
    assert_eq!(r.header("content-language").as_deref(), Some("pt"));
    assert!(r.text().contains("O seu lugar"), "{}", r.text());
}

#[actix_rt::test]
async fn answers_reach_the_floor_more_time_once_and_leaving() {
    let app = PApp::new(|c| c.room.call_extension_min = 7).await;
    let me = app.player(0, Language::En);
    let next = app.player(1, Language::En);
    app.join(me).await;
    let entry_next = app.join(next).await;
    let call = app.call_next(1).await;
    let token = app.token(me);
    let page = app.open(&format!("/p/{token}")).await;
    let html = page.text();
    assert!(
        html.contains("Your seat is ready!") && html.contains("Table 7, seat 1"),
        "{html}"
    );
    assert!(html.contains("data-deadline="));

    // On my way: 303 back to the page, audited with the player as the actor, on the dashboard;
    // the seat is held for the room's grace (the window moves by the setting, once).
    let audits = app.audit_count();
    let (before, _, _) = app.call_row(call);
    let r = app
        .press(&format!("/p/{token}/calls/{call}/on-my-way"))
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    assert_eq!(r.header("location"), Some(format!("/p/{token}")));
    let (after, answer, extended) = app.call_row(call);
    assert_eq!((answer.as_deref(), extended), (Some("on_my_way"), true));
    assert_eq!(after - before, Duration::minutes(7));
    assert_eq!(app.audit_count(), audits + 1);
    assert_eq!(
        app.last_audit(),
        (
            "seat.call_answer".to_string(),
            format!("player #{me} (own link)")
        )
    );
    let pushed: i64 = app.with_conn(|c| {
        use cardroom::db::schema::events::dsl as e;
        e::events
            .filter(e::kind.eq("seat.call_answer"))
            .count()
            .get_result(c)
            .unwrap()
    });
    assert_eq!(pushed, 1, "pushed to the floor and the tablet");
    let floor = {
        let page = app
            .call(test::TestRequest::get().uri("/login").to_request())
            .await;
        let pre = page.cookie("cr_pre").unwrap();
        let csrf = hidden_csrf(&page.text());
        let r = app
            .call(
                test::TestRequest::post()
                    .uri("/login")
                    .cookie(actix_web::cookie::Cookie::new("cr_pre", pre))
                    .insert_header(("Accept-Language", "en"))
                    .set_form([
                        ("csrf", csrf.as_str()),
                        ("username", "admin"),
                        ("password", ADMIN_PW),
                    ])
                    .to_request(),
            )
            .await;
        r.cookie("cr_session").unwrap()
    };
    // The floor's sign-in is recorded too.
    let audits = audits + 1;
    let live = app
        .call(
            test::TestRequest::get()
                .uri("/floor/live")
                .cookie(actix_web::cookie::Cookie::new("cr_session", floor.clone()))
                .cookie(actix_web::cookie::Cookie::new("cr_lang", "en"))
                .to_request(),
        )
        .await;
    assert!(
        live.text().contains("data-answer=\"on_my_way\"") && live.text().contains("On my way"),
        "{}",
        live.text()
    );
    // Pressed again: nothing new.
    assert_eq!(
        app.press(&format!("/p/{token}/calls/{call}/on-my-way"))
            .await
            .status,
        303
    );
    assert_eq!(app.audit_count(), audits + 1);

    // The grace is once per call: "more time" after it is a clear 409 and moves nothing.
    let audits = app.audit_count();
    let r = app
        .press(&format!("/p/{token}/calls/{call}/more-time"))
        .await;
    assert_eq!(r.status, 409, "{}", r.text());
    assert!(
        r.text()
            .contains("You can ask for more time only once per call."),
        "{}",
        r.text()
    );
    assert_eq!(app.call_row(call).0, after, "the window did not move again");
    assert_eq!(app.audit_count(), audits);
    let page = app.open(&format!("/p/{token}")).await;
    assert!(
        page.text().contains("You already had your extra time")
            && !page.text().contains("id=\"plink-more-time\"")
    );

    // Another player's call or entry: not found, nothing changes.
    let theirs = app.token(next);
    assert_eq!(
        app.press(&format!("/p/{theirs}/calls/{call}/on-my-way"))
            .await
            .status,
        404
    );
    let mine_entry: i64 = app.with_conn(|c| {
        use cardroom::db::schema::waitlist_entries::dsl as w;
        w::waitlist_entries
            .filter(w::player_id.eq(me))
            .select(w::id)
            .first(c)
            .unwrap()
    });
    assert_eq!(
        app.press(&format!("/p/{theirs}/entries/{mine_entry}/leave"))
            .await
            .status,
        404
    );
    assert_eq!(app.audit_count(), audits);

    // Leave this list: the entry ends like the floor's removal, the call is cancelled.
    let r = app
        .press(&format!("/p/{token}/entries/{mine_entry}/leave"))
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    let (state, reason): (String, Option<String>) = app.with_conn(|c| {
        use cardroom::db::schema::waitlist_entries::dsl as w;
        w::waitlist_entries
            .find(mine_entry)
            .select((w::state, w::end_reason))
            .first(c)
            .unwrap()
    });
    assert_eq!(
        (state.as_str(), reason.as_deref()),
        ("removed", Some("left by the player"))
    );
    let call_state: String = app.with_conn(|c| {
        use cardroom::db::schema::seat_calls::dsl as s;
        s::seat_calls.find(call).select(s::state).first(c).unwrap()
    });
    assert_eq!(call_state, "cancelled");
    assert_eq!(
        app.last_audit(),
        ("list.leave".to_string(), format!("player #{me} (own link)"))
    );
    let page = app.open(&format!("/p/{token}")).await;
    assert!(page.text().contains("You are not on any waiting list."));
    // The next player moves up; leaving twice is a clear 409.
    let r = app
        .press(&format!("/p/{token}/entries/{mine_entry}/leave"))
        .await;
    assert_eq!(r.status, 409);
    let p = app.open(&format!("/p/{theirs}")).await;
    assert_eq!(position_in(&p.text()).as_deref(), Some("1"));
    let _ = entry_next;
}

#[actix_rt::test]
async fn todays_summary_per_game() {
    let mut app = PApp::new(|_| {}).await;
    // The story takes 75 minutes of one gaming day (it ends at 06:00): start at noon, so the
    // time the suite runs at cannot cut it in two (then sign in again: the move may pass the
    // 12 hours a sign-in lasts, when the suite runs in the afternoon).
    {
        use chrono::TimeZone;
        let tz = app.with_conn(|c| cardroom::services::room::get(c).unwrap().tz);
        let now = app.state.clock.now();
        let noon = now
            .with_timezone(&tz)
            .date_naive()
            .and_hms_opt(12, 0, 0)
            .unwrap();
        let mut target = tz
            .from_local_datetime(&noon)
            .earliest()
            .unwrap()
            .with_timezone(&chrono::Utc);
        if target <= now {
            target += Duration::days(1);
        }
        app.advance(target - now);
        let r = app
            .call(
                test::TestRequest::post()
                    .uri("/api/v1/auth/login")
                    .set_json(json!({"username": "admin", "password": ADMIN_PW}))
                    .to_request(),
            )
            .await;
        app.admin = r.json()["token"].as_str().unwrap().to_string();
    }
    let me = app.player(0, Language::En);
    app.join(me).await;
    let call = app.call_next(1).await;
    let r = app
        .post(
            &format!("/api/v1/seat-calls/{call}/seat-with-buyin"),
            json!({"amount": 10000}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let seating = r.json()["seating_id"].as_i64().unwrap();
    app.advance(Duration::minutes(20));
    let r = app
        .post(
            &format!("/api/v1/seatings/{seating}/chips"),
            json!({"stack": 1000, "amount": 5000}),
        )
        .await;
    assert!(r.status < 300, "{}", r.text());
    app.advance(Duration::minutes(25));
    let token = app.token(me);
    let page = app.open(&format!("/p/{token}")).await;
    assert!(
        page.text().contains("You are playing") && page.text().contains("Table 7, seat 1"),
        "{}",
        page.text()
    );
    let r = app
        .post(
            &format!("/api/v1/seatings/{seating}/cash-out"),
            json!({"stack": 3000}),
        )
        .await;
    assert!(r.status < 300, "{}", r.text());
    app.advance(Duration::minutes(30));
    let page = app.open(&format!("/p/{token}")).await;
    let html = page.text();
    let currency = app.with_conn(|c| cardroom::services::room::get(c).unwrap().currency);
    let money = |m: i64| cardroom::domain::money::format_money(m, &currency, Language::En);
    assert!(html.contains("id=\"plink-summary\""), "{html}");
    assert!(
        html.contains(&format!("id=\"plink-total-in\">{}<", money(15000))),
        "bought in: {html}"
    );
    assert!(
        html.contains(&format!("id=\"plink-total-out\">{}<", money(3000))),
        "taken off: {html}"
    );
    assert!(
        html.contains("<td>NL 1/2</td><td>0:45</td>"),
        "time played: {html}"
    );
    // A new gaming day starts empty.
    app.advance(Duration::hours(24));
    let page = app.open(&format!("/p/{}", app.token(me))).await;
    assert!(
        page.text().contains("Nothing played today yet."),
        "{}",
        page.text()
    );
}

#[actix_rt::test]
async fn too_many_requests_get_a_429() {
    let app = PApp::new(|c| c.room.player_link_rate = 10).await;
    let me = app.player(0, Language::En);
    let other = app.player(1, Language::En);
    let token = app.token(me);
    let from = |t: &str, ip: &str| {
        test::TestRequest::get()
            .uri(&format!("/p/{t}/state"))
            .peer_addr(format!("{ip}:4000").parse().unwrap())
            .insert_header(("Accept-Language", "en"))
    };
    for i in 0..10 {
        let r = app.call(from(&token, "10.9.9.9").to_request()).await;
        assert_eq!(r.status, 200, "request {i}");
    }
    // One link: 10 a minute, from any address.
    for ip in ["10.9.9.9", "10.9.9.10"] {
        let r = app.call(from(&token, ip).to_request()).await;
        assert_eq!(r.status, 429, "from {ip}");
        assert!(r.text().contains("Too many requests"), "{}", r.text());
        // One request comes back every 6 s at 10 a minute.
        let wait: u64 = r.header("retry-after").unwrap().parse().unwrap();
        assert!((1..=6).contains(&wait), "{wait}");
        assert_eq!(r.header("cache-control").as_deref(), Some("no-store"));
    }
    // Another phone behind the same address (a room's Wi-Fi) is not held up by the first.
    let theirs = app.token(other);
    assert_eq!(
        app.call(from(&theirs, "10.9.9.9").to_request())
            .await
            .status,
        200
    );
    // One address: 25 times the link's rate in all, forged links included (no guessing at
    // full speed): 12 used above, the rest of the 250 on made-up links, then even a good
    // link is refused from there, and not from elsewhere.
    for i in 12..250 {
        let r = app
            .call(
                test::TestRequest::get()
                    .uri(&format!("/p/guess{i}"))
                    .peer_addr("10.9.9.9:4001".parse().unwrap())
                    .to_request(),
            )
            .await;
        assert_eq!(r.status, 404, "guess {i}");
    }
    let r = app
        .call(
            test::TestRequest::get()
                .uri("/p/guess-more")
                .peer_addr("10.9.9.9:4001".parse().unwrap())
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 429);
    assert_eq!(
        app.call(from(&theirs, "10.9.9.9").to_request())
            .await
            .status,
        429
    );
    assert_eq!(
        app.call(from(&theirs, "10.9.9.11").to_request())
            .await
            .status,
        200
    );
}

/// A page built for a link is served again while nothing is recorded in the room, for at
/// most 10 s of the clock (`PageCache`): the room's name changed behind the application's
/// back (no audit record) is not seen at once, but 10 s later it is; a recorded change (the
/// player's own list entry ending) shows at once.
#[actix_web::test]
async fn a_built_page_is_served_again_until_something_is_recorded_or_ten_seconds_pass() {
    let app = PApp::new(|_| {}).await;
    let me = app.player(0, Language::En);
    let entry = app.join(me).await;
    let token = app.token(me);
    let first = app.open(&format!("/p/{token}")).await;
    assert_eq!(first.status, 200);
    assert!(first.text().contains("Cardroom"), "{}", first.text());
    let etag = app
        .state(&token, None)
        .await
        .header("etag")
        .expect("an etag");
    app.with_conn(|c| {
        use cardroom::db::schema::room;
        diesel::update(room::table)
            .set(room::name.eq("Renamed Room"))
            .execute(c)
            .unwrap()
    });
    let kept = app.open(&format!("/p/{token}")).await;
    assert!(
        kept.text().contains("Cardroom") && !kept.text().contains("Renamed Room"),
        "served again: {}",
        kept.text()
    );
    assert_eq!(app.state(&token, Some(&etag)).await.status, 304);
    app.advance(Duration::seconds(10));
    let rebuilt = app.open(&format!("/p/{token}")).await;
    assert!(
        rebuilt.text().contains("Renamed Room"),
        "built again after 10 s: {}",
        rebuilt.text()
    );
    // A recorded change: the entry ends; the very next poll has it.
    let etag = app
        .state(&token, None)
        .await
        .header("etag")
        .expect("an etag");
    let r = app
        .press(&format!("/p/{token}/entries/{entry}/leave"))
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    let after = app.state(&token, Some(&etag)).await;
    assert_eq!(after.status, 200, "the recorded change shows at once");
    assert_ne!(after.header("etag"), Some(etag));
}

/// "Need more time" first: the window moves by the setting and the floor sees it; "on my
/// way" afterwards is recorded (the floor and the dealer see it) but does not move the
/// window again: one grace per call.
#[actix_web::test]
async fn more_time_then_on_my_way_extends_once() {
    let app = PApp::new(|c| c.room.call_extension_min = 7).await;
    let me = app.player(0, Language::En);
    app.join(me).await;
    let call = app.call_next(1).await;
    let token = app.token(me);
    let (before, _, _) = app.call_row(call);
    let r = app
        .press(&format!("/p/{token}/calls/{call}/more-time"))
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    let (after, answer, extended) = app.call_row(call);
    assert_eq!(after - before, Duration::minutes(7));
    assert_eq!((answer.as_deref(), extended), (Some("more_time"), true));
    let r = app
        .press(&format!("/p/{token}/calls/{call}/on-my-way"))
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    let (again, answer, _) = app.call_row(call);
    assert_eq!(answer.as_deref(), Some("on_my_way"));
    assert_eq!(again, after, "one grace per call");
}

/// BSOP 55, 57: a must-move call reaches the player's own page the moment it is made — the
/// page and its live part say where to go and by when, in the player's language — and the
/// move itself shows as the new seat.
#[actix_web::test]
async fn a_must_move_call_and_the_move_show_on_the_players_page_at_once() {
    let app = PApp::new(|_| {}).await;
    // Table 7 (the main game) full of four; table 8 opened after it: the must-move table.
    let main: Vec<i64> = (0..4).map(|n| app.player(n, Language::En)).collect();
    let mut main_seatings = Vec::new();
    for (i, p) in main.iter().enumerate() {
        let r = app
            .post(
                &format!("/api/v1/tables/{}/seats/{}", app.table, i + 1),
                json!({"player_id": p}),
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.text());
        main_seatings.push(r.json()["id"].as_i64().unwrap());
    }
    app.advance(Duration::minutes(1));
    let r = app
        .post(
            "/api/v1/tables",
            json!({"number": 8, "game_id": app.game, "mode": "continuous"}),
        )
        .await;
    let mm = r.json()["id"].as_i64().unwrap();
    let r = app
        .post(&format!("/api/v1/tables/{mm}/open"), json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["must_move"], true, "{}", r.text());
    let x = app.player(4, Language::Pt);
    let r = app
        .post(
            &format!("/api/v1/tables/{mm}/seats/3"),
            json!({"player_id": x}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let token = app.token(x);
    let page = app.open(&format!("/p/{token}")).await.text();
    assert!(page.contains("Mesa 8, lugar 3"), "{page}");
    assert!(!page.contains("id=\"plink-move\""), "{page}");
    let etag = app.state(&token, None).await.header("etag").unwrap();
    // A main-game seat frees up: x, the must-move player, is called to it.
    let r = app
        .post(
            &format!("/api/v1/seatings/{}/leave", main_seatings[1]),
            json!({"reason": "left"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let call = app.call_next(2).await;
    let live = app.state(&token, Some(&etag)).await;
    assert_eq!(live.status, 200, "the live part changed at once");
    for html in [live.text(), app.open(&format!("/p/{token}")).await.text()] {
        let moving = &html[html.find("id=\"plink-move\"").expect("the move")..];
        assert!(moving.contains("data-source=\"must_move\""), "{moving}");
        assert!(moving.contains("Mudança obrigatória"), "{moving}");
        assert!(moving.contains("Mesa 7, lugar 2"), "{moving}");
        assert!(moving.contains("Esteja lá até às"), "{moving}");
        assert!(moving.contains("class=\"countdown\""), "{moving}");
        assert!(
            moving.contains(&format!("/calls/{call}/on-my-way")),
            "the player can answer it: {moving}"
        );
        assert!(
            !html.contains("Must"),
            "no English on a Portuguese page: {html}"
        );
    }
    // The player answers from the page; the floor moves them: the page shows the new seat.
    let r = app
        .press(&format!("/p/{token}/calls/{call}/on-my-way"))
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    let html = app.open(&format!("/p/{token}")).await.text();
    assert!(html.contains("O floor sabe que está a caminho"), "{html}");
    app.seat(call).await;
    let html = app.state(&token, None).await.text();
    assert!(html.contains("Mesa 7, lugar 2"), "{html}");
    assert!(!html.contains("Mesa 8"), "{html}");
    assert!(!html.contains("id=\"plink-move\""), "{html}");
}
