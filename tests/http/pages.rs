//! Page flows with a cookie session: sign-in, CSRF, registration with a photo, refusals
//! that change nothing, bans, separations, password change, languages.

use crate::support::*;
use actix_web::cookie::Cookie;
use actix_web::test::TestRequest;
use chrono::{Days, Months, Utc};

fn lisbon_today() -> chrono::NaiveDate {
    cardroom::domain::age::room_date(Utc::now(), chrono_tz::Europe::Lisbon)
}

/// Date of birth of someone who turns 18 tomorrow in the room (Europe/Lisbon).
fn under_18_by_one_day() -> String {
    (lisbon_today()
        .checked_sub_months(Months::new(18 * 12))
        .unwrap()
        + Days::new(1))
    .to_string()
}

fn player_fields<'a>(csrf: &'a str, dob: &'a str, doc: &'a str) -> Vec<(&'a str, &'a str)> {
    vec![
        ("csrf", csrf),
        ("full_name", "João Gonçalves"),
        ("date_of_birth", dob),
        ("doc_kind", "passport"),
        ("doc_number", doc),
        ("doc_country", "br"),
        ("doc_expiry", "2032-06-30"),
        ("phone", "+55 11 98765-4321"),
        ("email", "joao@example.com.br"),
        ("language", "pt"),
        ("notify", "sms"),
        ("alias", "Joãozinho"),
    ]
}

async fn post_player(
    app: &TestApp,
    s: &WebSession,
    fields: &[(&str, &str)],
    photo: Option<&[u8]>,
) -> Resp {
    let (ct, body) = multipart(fields, photo.map(|p| ("photo", "image/png", p)));
    app.call(
        TestRequest::post()
            .uri("/players")
            .cookie(s.c())
            .insert_header(("content-type", ct))
            .insert_header(("accept-language", "en"))
            .set_payload(body)
            .to_request(),
    )
    .await
}

#[actix_web::test]
async fn login_page_speaks_the_browsers_language() {
    let app = TestApp::new().await;
    let pt = app
        .call(
            TestRequest::get()
                .uri("/login")
                .insert_header(("accept-language", "pt-PT,pt;q=0.9"))
                .to_request(),
        )
        .await;
    assert_eq!(pt.status, 200);
    assert!(pt.text().contains("Palavra-passe"), "{}", pt.text());
    let en = app
        .call(
            TestRequest::get()
                .uri("/login")
                .insert_header(("accept-language", "en-GB"))
                .to_request(),
        )
        .await;
    assert!(en.text().contains("Password"));
    assert_eq!(en.header("x-frame-options").as_deref(), Some("DENY"));
    assert!(en
        .header("content-security-policy")
        .unwrap()
        .contains("default-src 'self'"));
}

#[actix_web::test]
async fn pages_redirect_to_sign_in_and_back() {
    let app = TestApp::new().await;
    let r = app
        .call(TestRequest::get().uri("/players?q=ana").to_request())
        .await;
    assert_eq!(r.status, 303);
    assert_eq!(
        r.header("location").as_deref(),
        Some("/login?next=%2Fplayers%3Fq%3Dana")
    );
    // A forged session cookie (signed with another key) is not accepted either.
    let forged = {
        use jsonwebtoken::{encode, EncodingKey, Header};
        let claims = serde_json::json!({"sub": 1, "ver": 0, "kind": "web", "csrf": "x", "iat": 0, "exp": 4_000_000_000i64});
        encode(
            &Header::default(),
            &claims,
            &EncodingKey::from_secret(b"not-the-server-secret-not-the-server"),
        )
        .unwrap()
    };
    let r = app
        .call(
            TestRequest::get()
                .uri("/")
                .cookie(Cookie::new("cr_session", forged))
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 303);
}

#[actix_web::test]
async fn login_refusals_and_throttling() {
    let app = TestApp::new().await;
    let page = app
        .call(TestRequest::get().uri("/login").to_request())
        .await;
    let pre = page.cookie("cr_pre").unwrap();
    let csrf = hidden_csrf(&page.text());
    let attempt = |pw: &'static str, with_csrf: bool| {
        let mut form = vec![("username", "admin"), ("password", pw)];
        if with_csrf {
            form.push(("csrf", csrf.as_str()));
        }
        TestRequest::post()
            .uri("/login")
            .cookie(Cookie::new("cr_pre", pre.clone()))
            .insert_header(("accept-language", "en"))
            .set_form(form)
            .to_request()
    };
    // Without the CSRF token: refused before the password is even looked at.
    let r = app.call(attempt(ADMIN_PW, false)).await;
    assert_eq!(r.status, 403, "{}", r.text());
    assert!(r.text().contains("This form has expired"), "{}", r.text());
    for _ in 0..3 {
        let r = app.call(attempt("wrong-password", true)).await;
        assert_eq!(r.status, 401);
        assert!(r.text().contains("Wrong username or password"));
        assert!(r.cookie("cr_session").is_none());
    }
    // The fourth failure from the same address: a wait begins (a short one), said in words
    // and in Retry-After.
    let r = app.call(attempt("wrong-password", true)).await;
    assert_eq!(r.status, 429);
    assert!(
        r.text().contains("Too many failed attempts"),
        "{}",
        r.text()
    );
    assert_eq!(r.header("retry-after").as_deref(), Some("1"));
    // Within the wait even the right password waits.
    let r = app.call(attempt(ADMIN_PW, true)).await;
    assert_eq!(r.status, 429);
    assert!(r.header("retry-after").is_some());
}

#[actix_web::test]
async fn register_with_photo_then_see_the_record() {
    let app = TestApp::new().await;
    let s = app.web_login("admin", ADMIN_PW).await;
    let png = cardroom::services::photo::generated_portrait(9);
    let r = post_player(
        &app,
        &s,
        &player_fields(&s.csrf, "1985-03-02", "FX 123.456"),
        Some(&png),
    )
    .await;
    assert_eq!(r.status, 303, "{}", r.text());
    let loc = r.header("location").unwrap();
    assert!(loc.starts_with("/players/"));
    let page = app.page(&loc, &s).await;
    assert_eq!(page.status, 200);
    let html = page.text();
    assert!(
        html.contains("João Gonçalves") && html.contains("+5511987654321") && html.contains("BR")
    );
    assert!(html.contains("class=\"player-photo\""));
    // The record says it was saved: `?saved=new` after its address.
    let (record, saved) = loc.split_once('?').unwrap();
    assert_eq!(saved, "saved=new");
    let photo = app.page(&format!("{record}/photo"), &s).await;
    assert_eq!(photo.status, 200);
    assert_eq!(photo.header("content-type").as_deref(), Some("image/jpeg"));
    assert_eq!(&photo.body[..2], &[0xFF, 0xD8]);
    // Search finds the player by name without accents, by document and by phone digits.
    for q in ["joao", "FX123456", "987654321", "Joãozinho"] {
        let list = app.page(&format!("/players?q={}", urlencode(q)), &s).await;
        assert!(list.text().contains("João Gonçalves"), "search {q}");
    }
    let none = app.page("/players?q=nobody-like-this", &s).await;
    assert!(none.text().contains("id=\"no-players\""));
}

fn urlencode(s: &str) -> String {
    serde_urlencoded::to_string([("q", s)])
        .unwrap()
        .trim_start_matches("q=")
        .to_string()
}

#[actix_web::test]
async fn bsop_1_under_18_by_one_day_is_refused_on_the_page_and_nothing_changes() {
    let app = TestApp::new().await;
    let s = app.web_login("admin", ADMIN_PW).await;
    let before = (app.audit_count(), app.count("players"));
    let dob = under_18_by_one_day();
    let r = post_player(&app, &s, &player_fields(&s.csrf, &dob, "AB123456"), None).await;
    assert_eq!(r.status, 422);
    let html = r.text();
    assert!(html.contains("data-field=\"date_of_birth\""));
    assert!(html.contains("Players must be 18 or over"), "{html}");
    // What was typed is kept.
    assert!(html.contains("value=\"João Gonçalves\""));
    assert_eq!((app.audit_count(), app.count("players")), before);
}

#[actix_web::test]
async fn page_refusals_change_nothing() {
    let app = TestApp::new().await;
    app.create_staff("floor1", "floor");
    let s = app.web_login("floor1", STAFF_PW).await;
    let png = cardroom::services::photo::generated_portrait(2);
    assert_eq!(
        post_player(
            &app,
            &s,
            &player_fields(&s.csrf, "1980-01-01", "P111"),
            Some(&png)
        )
        .await
        .status,
        303
    );
    let before = (
        app.audit_count(),
        app.count("players"),
        app.count("player_photos"),
    );

    // Duplicate document, typed differently: 409, with a link to the existing record.
    let r = post_player(
        &app,
        &s,
        &player_fields(&s.csrf, "1980-01-01", "p-111"),
        None,
    )
    .await;
    assert_eq!(r.status, 409);
    assert!(
        r.text().contains("already registered to João Gonçalves"),
        "{}",
        r.text()
    );
    assert!(r.text().contains("href=\"/players/1\""));

    // Expired ID.
    let mut f = player_fields(&s.csrf, "1980-01-01", "P222");
    f.retain(|(k, _)| *k != "doc_expiry");
    f.push(("doc_expiry", "2020-01-01"));
    let r = post_player(&app, &s, &f, None).await;
    assert_eq!(r.status, 422);
    assert!(r.text().contains("This ID document expired"));

    // Not an image / too big.
    let r = post_player(
        &app,
        &s,
        &player_fields(&s.csrf, "1980-01-01", "P333"),
        Some(b"just some text, not a picture"),
    )
    .await;
    assert_eq!(r.status, 422);
    assert!(r.text().contains("must be a JPEG or PNG"));
    let huge = vec![7u8; 6 * 1024 * 1024];
    let r = post_player(
        &app,
        &s,
        &player_fields(&s.csrf, "1980-01-01", "P444"),
        Some(&huge),
    )
    .await;
    assert_eq!(r.status, 413, "{}", r.text());
    assert!(r.text().contains("larger than 5 MB"), "{}", r.text());

    // Missing and absurd fields.
    let mut f = player_fields(&s.csrf, "", "P555");
    let long = "x".repeat(10_000);
    f.retain(|(k, _)| *k != "full_name" && *k != "email");
    f.push(("full_name", &long));
    f.push(("email", "not-an-email"));
    let r = post_player(&app, &s, &f, None).await;
    assert_eq!(r.status, 422);
    let html = r.text();
    for field in ["date_of_birth", "full_name", "email"] {
        assert!(html.contains(&format!("data-field=\"{field}\"")), "{field}");
    }

    // Wrong or missing CSRF token.
    let mut f = player_fields("not-the-token", "1980-01-01", "P666");
    let r = post_player(&app, &s, &f, None).await;
    assert_eq!(r.status, 403);
    f.retain(|(k, _)| *k != "csrf");
    assert_eq!(post_player(&app, &s, &f, None).await.status, 403);

    // Wrong content type.
    let r = app
        .call(
            TestRequest::post()
                .uri("/players")
                .cookie(s.c())
                .insert_header(("content-type", "text/plain"))
                .set_payload("hello")
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 415);

    assert_eq!(
        (
            app.audit_count(),
            app.count("players"),
            app.count("player_photos")
        ),
        before
    );
}

#[actix_web::test]
async fn bans_and_separations_from_the_player_page() {
    let app = TestApp::new().await;
    let s = app.web_login("admin", ADMIN_PW).await;
    let png = cardroom::services::photo::generated_portrait(4);
    post_player(
        &app,
        &s,
        &player_fields(&s.csrf, "1980-01-01", "AA1001"),
        Some(&png),
    )
    .await;
    let mut other = player_fields(&s.csrf, "1982-01-01", "BB2002");
    other.retain(|(k, _)| *k != "full_name");
    other.push(("full_name", "Carla Ho"));
    post_player(&app, &s, &other, Some(&png)).await;

    let page = app.page("/players/1", &s).await.text();
    assert!(page.contains("Eligible to play") || page.contains("Pode jogar"));

    // A ban without a reason is refused and changes nothing.
    let before = app.audit_count();
    let r = app
        .post_form("/players/1/bans", &s, &[("reason", "  ")])
        .await;
    assert_eq!(r.status, 422);
    assert_eq!(app.audit_count(), before);

    let r = app
        .post_form(
            "/players/1/bans",
            &s,
            &[("reason", "Threatened a dealer (BSOP 10)")],
        )
        .await;
    assert_eq!(r.status, 303);
    let page = app.page("/players/1", &s).await.text();
    assert!(page.contains("badge-bad"), "banned badge");
    assert!(page.contains("Threatened a dealer"));
    // The list shows the ban at a glance (BSOP 10).
    let list = app.page("/players", &s).await.text();
    assert_eq!(
        list.matches("badge-bad").count(),
        1,
        "one banned player in the list"
    );

    // Lift it.
    let r = app
        .post_form(
            "/bans/1/lift",
            &s,
            &[("reason", "Apologised; decision of the director")],
        )
        .await;
    assert_eq!(r.status, 303);
    let r = app
        .post_form("/bans/1/lift", &s, &[("reason", "again")])
        .await;
    assert_eq!(r.status, 409);

    // BSOP 47: keep two players apart, by document number.
    let r = app
        .post_form(
            "/players/1/separations",
            &s,
            &[
                ("other", "bb-2002"),
                ("reason", "Known collusion suspicion"),
            ],
        )
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    let page = app.page("/players/2", &s).await.text();
    assert!(page.contains("Known collusion suspicion"));
    let r = app
        .post_form(
            "/players/2/separations",
            &s,
            &[("other", "1"), ("reason", "twice")],
        )
        .await;
    assert_eq!(r.status, 409);
    let r = app
        .post_form(
            "/players/1/separations",
            &s,
            &[("other", "1"), ("reason", "self")],
        )
        .await;
    assert_eq!(r.status, 422);
    let r = app.post_form("/separations/1/remove?from=2", &s, &[]).await;
    assert_eq!(r.status, 303);
    assert_eq!(
        r.header("location").as_deref(),
        Some("/players/2#separations")
    );
}

#[actix_web::test]
async fn password_change_ends_other_sessions() {
    let app = TestApp::new().await;
    app.create_staff("floor1", "floor");
    let a = app.web_login("floor1", STAFF_PW).await;
    let b = app.web_login("floor1", STAFF_PW).await;
    let r = app
        .post_form(
            "/account/password",
            &a,
            &[
                ("current_password", "wrong one!!"),
                ("new_password", "a-new-password-1"),
                ("confirm_password", "a-new-password-1"),
            ],
        )
        .await;
    assert_eq!(r.status, 422);
    assert!(r.text().contains("data-field=\"current_password\""));
    let r = app
        .post_form(
            "/account/password",
            &a,
            &[
                ("current_password", STAFF_PW),
                ("new_password", "a-new-password-1"),
                ("confirm_password", "a-new-password-1"),
            ],
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let renewed = r
        .cookie("cr_session")
        .expect("fresh session for this browser");
    // The other browser is signed out; this one continues with its new cookie.
    assert_eq!(app.page("/", &b).await.status, 303);
    let a2 = WebSession {
        cookie: renewed,
        csrf: String::new(),
    };
    assert_eq!(app.page("/", &a2).await.status, 200);
    app.web_login("floor1", "a-new-password-1").await;
}

#[actix_web::test]
async fn logout_and_language_switch() {
    let app = TestApp::new().await;
    let s = app.web_login("admin", ADMIN_PW).await;
    // Without the form's token nothing changes.
    let r = app
        .call(
            TestRequest::post()
                .uri("/lang/pt")
                .cookie(s.c())
                .set_form([("next", "/players")])
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 403);
    let r = app.post_form("/lang/pt", &s, &[("next", "/players")]).await;
    assert_eq!(r.status, 303);
    assert_eq!(r.header("location").as_deref(), Some("/players"));
    assert_eq!(r.cookie("cr_lang").as_deref(), Some("pt"));
    let page = app
        .call(
            TestRequest::get()
                .uri("/players")
                .cookie(s.c())
                .cookie(Cookie::new("cr_lang", "pt"))
                .to_request(),
        )
        .await;
    assert!(page.text().contains("Registar jogador"));
    // An open redirect is not possible.
    let r = app
        .post_form("/lang/en", &s, &[("next", "//evil.example")])
        .await;
    assert_eq!(r.header("location").as_deref(), Some("/"));
    let r = app.post_form("/logout", &s, &[]).await;
    assert_eq!(r.status, 303);
    assert_eq!(r.cookie("cr_session").as_deref(), Some(""));
}

#[actix_web::test]
async fn unknown_pages_get_a_translated_404() {
    let app = TestApp::new().await;
    let s = app.web_login("admin", ADMIN_PW).await;
    let r = app
        .call(
            TestRequest::get()
                .uri("/players/999")
                .cookie(s.c())
                .insert_header(("accept-language", "pt"))
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 404);
    assert!(r.text().contains("Não encontrado"));
    let r = app
        .call(
            TestRequest::get()
                .uri("/no/such/page")
                .cookie(s.c())
                .insert_header(("accept-language", "en"))
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 404);
    assert!(r.text().contains("Not found"));
}

#[actix_web::test]
async fn a_one_time_admin_password_must_be_changed_first() {
    use actix_web::test;
    let db = fresh_db();
    // First start without CARDROOM_ADMIN_PASSWORD: a one-time password is generated.
    let pw = {
        let d = cardroom::db::Db::open(&db.url, 1).unwrap();
        d.migrate().unwrap();
        let mut c = d.conn().unwrap();
        match cardroom::services::staff::bootstrap_admin(&mut c, Utc::now(), None).unwrap() {
            cardroom::services::staff::Bootstrap::CreatedWithPassword(p) => p,
            other => panic!("expected a generated password, got {other:?}"),
        }
    };
    let app = TestApp::builder()
        .db(db)
        .tune(|c| c.security.admin_password = None)
        .start()
        .await;
    let call = |req| app.call_raw(req);
    let page = call(TestRequest::get().uri("/login").to_request()).await;
    let pre = page
        .response()
        .cookies()
        .find(|c| c.name() == "cr_pre")
        .unwrap()
        .value()
        .to_string();
    let html = String::from_utf8(test::read_body(page).await.to_vec()).unwrap();
    let csrf = hidden_csrf(&html);
    let r = call(
        TestRequest::post()
            .uri("/login")
            .cookie(Cookie::new("cr_pre", pre))
            .set_form([
                ("csrf", csrf.as_str()),
                ("username", "admin"),
                ("password", pw.as_str()),
            ])
            .to_request(),
    )
    .await;
    assert_eq!(r.status(), 303);
    let session = r
        .response()
        .cookies()
        .find(|c| c.name() == "cr_session")
        .unwrap()
        .value()
        .to_string();
    // Every page leads to the password form until a password is chosen.
    let r = call(
        TestRequest::get()
            .uri("/players")
            .cookie(Cookie::new("cr_session", session.clone()))
            .to_request(),
    )
    .await;
    assert_eq!(r.status(), 303);
    assert_eq!(r.headers().get("location").unwrap(), "/account/password");
    let r = call(
        TestRequest::get()
            .uri("/account/password")
            .cookie(Cookie::new("cr_session", session.clone()))
            .to_request(),
    )
    .await;
    assert_eq!(r.status(), 200);
    let html = String::from_utf8(test::read_body(r).await.to_vec()).unwrap();
    assert!(html.contains("id=\"one-time\""));
    let csrf = hidden_csrf(&html);
    let r = call(
        TestRequest::post()
            .uri("/account/password")
            .cookie(Cookie::new("cr_session", session))
            .set_form([
                ("csrf", csrf.as_str()),
                ("current_password", pw.as_str()),
                ("new_password", "my-own-password-1"),
                ("confirm_password", "my-own-password-1"),
            ])
            .to_request(),
    )
    .await;
    assert_eq!(r.status(), 200);
    let renewed = r
        .response()
        .cookies()
        .find(|c| c.name() == "cr_session")
        .unwrap()
        .value()
        .to_string();
    let r = call(
        TestRequest::get()
            .uri("/players")
            .cookie(Cookie::new("cr_session", renewed))
            .to_request(),
    )
    .await;
    assert_eq!(r.status(), 200);
}

/// Registers `n` eligible players (with photos) straight through the service.
pub fn eligible_players(app: &TestApp, n: usize) -> Vec<i64> {
    let now = app.state.clock.now();
    let photo =
        cardroom::services::photo::process(&cardroom::services::photo::generated_portrait(5))
            .unwrap();
    (0..n)
        .map(|i| {
            let input = cardroom::domain::player::PlayerInput {
                full_name: format!("Floor Player {i}"),
                date_of_birth: chrono::NaiveDate::from_ymd_opt(1980, 1, 1).unwrap(),
                doc_kind: cardroom::domain::player::DocumentKind::Passport,
                doc_number: format!("FLOOR{i:04}"),
                doc_country: "PT".into(),
                doc_expiry: chrono::NaiveDate::from_ymd_opt(2035, 1, 1).unwrap(),
                phone: None,
                email: None,
                language: cardroom::domain::player::Language::Pt,
                notify: cardroom::domain::player::NotifyPref::None,
                alias: format!("FP{i}"),
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

#[actix_web::test]
async fn floor_page_lists_calls_and_seats() {
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    nl_game(&app, &token).await;
    let table = serde_json::json!({"number": 7, "game_id": 1, "mode": "continuous", "seats": 9});
    assert_eq!(
        app.send_json("POST", "/api/v1/tables", &token, table)
            .await
            .status,
        201
    );
    let ids = eligible_players(&app, 3);
    let s = app.web_login("admin", ADMIN_PW).await;

    // Interest list while no table is open (PT-2007 24: four to start).
    let page = app.page("/floor", &s).await.text();
    assert!(page.contains("4 more to start a game"), "{page}");

    for id in &ids {
        let r = app
            .post_form("/floor/lists/1/join", &s, &[("player", &id.to_string())])
            .await;
        assert_eq!(r.status, 303, "{}", r.text());
    }
    // The same player twice: refused in place, nothing changes.
    let before = (app.audit_count(), app.count("waitlist_entries"));
    let r = app
        .post_form("/floor/lists/1/join", &s, &[("player", "FLOOR0000")])
        .await;
    assert_eq!(r.status, 409);
    assert!(r.text().contains("already on this list"));
    assert!(r.text().contains("id=\"floor-problem\""));
    assert_eq!((app.audit_count(), app.count("waitlist_entries")), before);

    // Calling on a closed table is refused; open it, call seat 1: the first on the list.
    let r = app.post_form("/floor/tables/1/seats/1/call", &s, &[]).await;
    assert_eq!(r.status, 409);
    assert_eq!(
        app.post_form("/floor/tables/1/open", &s, &[]).await.status,
        303
    );
    assert_eq!(
        app.post_form("/floor/tables/1/seats/1/call", &s, &[])
            .await
            .status,
        303
    );
    let page = app.floor_all(&s).await;
    // The response window (5 minutes) counts down on the dashboard.
    assert!(
        page.contains("FP0")
            && (page.contains("data-seconds=\"300\">5:00")
                || page.contains("data-seconds=\"299\">4:59")),
        "{page}"
    );
    // The called player is confirmed: seated, off the list; the others move up.
    assert_eq!(
        app.post_form("/floor/calls/1/seat", &s, &[]).await.status,
        303
    );
    let live = app.floor_all(&s).await;
    let list_part = &live[..live.find("board-tables").unwrap()];
    assert!(!list_part.contains(">FP0<") && list_part.contains(">FP1<"));
    let seated: i64 = app.count("seatings");
    assert_eq!(seated, 1);
    // A seat number beyond the table's seats is refused with a message.
    let r = app
        .post_form("/floor/tables/1/seats/10/call", &s, &[])
        .await;
    assert_eq!(r.status, 422);
}

#[actix_web::test]
async fn bsop_24_lobby_board_shows_buy_ins_and_aliases_only() {
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    let game = serde_json::json!({"name": "NL 2/5", "variant": "holdem_nl", "small_blind": 200, "big_blind": 500,
        "limit_class": "mid", "buy_in_min": 10000, "buy_in_max": 50000});
    assert_eq!(
        app.send_json("POST", "/api/v1/games", &token, game)
            .await
            .status,
        201
    );
    let ids = eligible_players(&app, 2);
    let s = app.web_login("admin", ADMIN_PW).await;
    for id in &ids {
        assert_eq!(
            app.post_form("/floor/lists/1/join", &s, &[("player", &id.to_string())])
                .await
                .status,
            303
        );
    }
    // No sign-in needed: it is a screen in the room.
    let r = app
        .call(
            TestRequest::get()
                .uri("/lobby")
                .insert_header(("accept-language", "en"))
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 200);
    let html = r.text();
    assert!(
        html.contains("€100.00 – €500.00"),
        "buy-in min and max (BSOP 24): {html}"
    );
    assert!(html.contains("FP0") && html.contains("FP1"));
    assert!(
        !html.contains("Floor Player"),
        "full names never appear on the public board"
    );
    assert!(
        !html.contains("FLOOR0000"),
        "documents never appear on the public board"
    );
    assert!(html.contains("Waiting: 2"));
}

#[actix_web::test]
async fn pt2007_11_bsop_48_start_of_game_draws_are_recorded_and_replayable() {
    use diesel::prelude::*;
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    nl_game(&app, &token).await;
    let table = serde_json::json!({"number": 3, "game_id": 1, "mode": "continuous", "seats": 6});
    assert_eq!(
        app.send_json("POST", "/api/v1/tables", &token, table)
            .await
            .status,
        201
    );
    let ids = eligible_players(&app, 8);
    let s = app.web_login("admin", ADMIN_PW).await;
    for id in &ids {
        app.post_form("/floor/lists/1/join", &s, &[("player", &id.to_string())])
            .await;
    }
    // A draw needs an open table.
    assert_eq!(
        app.post_form("/floor/tables/1/draw-seats", &s, &[])
            .await
            .status,
        409
    );
    app.post_form("/floor/tables/1/open", &s, &[]).await;
    let r = app.post_form("/floor/tables/1/draw-seats", &s, &[]).await;
    assert_eq!(r.status, 303, "{}", r.text());
    use cardroom::db::schema::{card_tables, seatings, waitlist_entries};
    // Eight registered for six seats and no other table to open: who plays is drawn first
    // (PT-2007 27, nobody has priority yet), then the seats (PT-2007 11); two stay listed.
    let seated: Vec<(i64, i32)> = app.with_conn(|c| {
        seatings::table
            .filter(seatings::left_at.is_null())
            .select((seatings::player_id, seatings::seat_no))
            .load(c)
            .unwrap()
    });
    assert_eq!(seated.len(), 6);
    assert!(seated.iter().all(|(p, _)| ids.contains(p)));
    let mut seats: Vec<i32> = seated.iter().map(|(_, s)| *s).collect();
    seats.sort();
    assert_eq!(seats, vec![1, 2, 3, 4, 5, 6]);
    let waiting: i64 = app.with_conn(|c| {
        waitlist_entries::table
            .filter(waitlist_entries::state.eq("waiting"))
            .count()
            .get_result(c)
            .unwrap()
    });
    assert_eq!(waiting, 2);
    let first = app.with_conn(|c| cardroom::services::draws::replay(c, 1).unwrap());
    assert_eq!(first.draw.kind.as_str(), "oversubscribed");
    assert!(first.matches);
    // PT-2007 24: six players, the game runs.
    let state: String = app.with_conn(|c| {
        card_tables::table
            .find(1i64)
            .select(card_tables::state)
            .first(c)
            .unwrap()
    });
    assert_eq!(state, "running");
    // The seat draw replays to the same result.
    let page = app.page("/draws/2", &s).await.text();
    assert!(
        page.contains("id=\"draw-replay\"") && page.contains("the same result"),
        "{page}"
    );
    // BSOP 48: the button goes to the seat of the highest card.
    assert_eq!(
        app.post_form("/floor/tables/1/draw-button", &s, &[])
            .await
            .status,
        303
    );
    let button: Option<i32> = app.with_conn(|c| {
        card_tables::table
            .find(1i64)
            .select(card_tables::button_seat)
            .first(c)
            .unwrap()
    });
    let replay = app.with_conn(|c| cardroom::services::draws::replay(c, 3).unwrap());
    assert!(replay.matches);
    let d: cardroom::domain::draw::Draw = serde_json::from_str(&replay.draw.inputs).unwrap();
    let cardroom::domain::draw::Draw::HighCard { result, .. } = d else {
        panic!("high card draw")
    };
    let winner = result.winner().unwrap();
    assert_eq!(
        button,
        seated
            .iter()
            .find(|(p, _)| *p == winner.get())
            .map(|(_, s)| *s)
    );
    assert!(app.floor_all(&s).await.contains("class=\"dealer-button\""));
    // A stored result edited afterwards no longer replays.
    app.with_conn(|c| {
        diesel::sql_query("UPDATE draws SET result = '{\"order\":[1]}' WHERE id = 2")
            .execute(c)
            .unwrap();
    });
    let page = app.page("/draws/2", &s).await.text();
    assert!(page.contains("does NOT give the stored result"));
}

/// Reads a streaming body until `needle` appears (or 5 s pass); returns what was read.
pub async fn read_stream_until(res: actix_web::dev::ServiceResponse, needle: &str) -> String {
    use actix_web::body::MessageBody;
    let mut body = res.into_body();
    let mut seen = String::new();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while !seen.contains(needle) && std::time::Instant::now() < deadline {
        let next = futures_util::future::poll_fn(|cx| std::pin::Pin::new(&mut body).poll_next(cx));
        match tokio::time::timeout(std::time::Duration::from_secs(5), next).await {
            Ok(Some(Ok(b))) => seen.push_str(&String::from_utf8_lossy(&b)),
            _ => break,
        }
    }
    seen
}

#[actix_web::test]
async fn the_floor_stream_replays_missed_events_and_pushes_new_ones() {
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    nl_game(&app, &token).await;
    let ids = eligible_players(&app, 2);
    let s = app.web_login("admin", ADMIN_PW).await;
    app.post_form(
        "/floor/lists/1/join",
        &s,
        &[("player", &ids[0].to_string())],
    )
    .await;
    // A page that was offline since event 0 gets what it missed, with its sequence number.
    let res = app
        .call_raw(
            TestRequest::get()
                .uri("/floor/stream")
                .cookie(s.c())
                .insert_header(("last-event-id", "0"))
                .to_request(),
        )
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(
        res.headers().get("content-type").unwrap(),
        "text/event-stream"
    );
    let seen = read_stream_until(res, "id: 1\n").await;
    assert!(seen.starts_with("retry: 2000"), "{seen}");
    assert!(
        seen.contains("id: 1\ndata: {") && seen.contains("list.changed"),
        "{seen}"
    );
    // A fresh page starts from now and receives the next change as it happens.
    let res = app
        .call_raw(
            TestRequest::get()
                .uri("/floor/stream")
                .cookie(s.c())
                .to_request(),
        )
        .await;
    let reader = actix_web::rt::spawn(read_stream_until(res, "id: 2\n"));
    actix_web::rt::time::sleep(std::time::Duration::from_millis(200)).await;
    app.post_form(
        "/floor/lists/1/join",
        &s,
        &[("player", &ids[1].to_string())],
    )
    .await;
    let seen = reader.await.unwrap();
    // It says it starts after event 1 (its hello), and does not send event 1 again.
    assert!(
        seen.contains("event: hello\nid: 1\ndata: {\"after\":1}\n\n")
            && seen.contains("id: 2\n")
            && seen.matches("id: 1\n").count() == 1,
        "{seen}"
    );
    // A page rendered at event 1 connects with ?since=1: it gets event 2, made meanwhile.
    let page = app.page("/floor", &s).await.text();
    assert!(
        page.contains("data-since=\"2\""),
        "the page says which event it shows"
    );
    let res = app
        .call_raw(
            TestRequest::get()
                .uri("/floor/stream?since=1")
                .cookie(s.c())
                .to_request(),
        )
        .await;
    let seen = read_stream_until(res, "id: 2\n").await;
    assert!(
        seen.contains("event: hello\nid: 1\n")
            && seen.contains("id: 2\n")
            && seen.matches("id: 1\n").count() == 1,
        "{seen}"
    );
    // Only the floor follows the stream.
    app.create_staff("dealer1", "dealer");
    let d = app.web_login("dealer1", STAFF_PW).await;
    let r = app
        .call(
            TestRequest::get()
                .uri("/floor/stream")
                .cookie(d.c())
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 403);
}

#[actix_web::test]
async fn pt2007_25_a_draw_by_suits_fills_two_tables_evenly_and_replays() {
    use cardroom::db::schema::seatings;
    use diesel::prelude::*;
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    nl_game(&app, &token).await;
    for n in [1, 2] {
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
    // One open table is not enough for a draw by suits.
    app.post_form("/floor/tables/1/open", &s, &[]).await;
    let before = app.audit_count();
    let r = app.post_form("/floor/lists/1/draw-by-suits", &s, &[]).await;
    assert_eq!(r.status, 409);
    assert!(r.text().contains("PT-2007 25"));
    assert_eq!(app.audit_count(), before);
    app.post_form("/floor/tables/2/open", &s, &[]).await;
    let r = app.post_form("/floor/lists/1/draw-by-suits", &s, &[]).await;
    assert_eq!(r.status, 303, "{}", r.text());
    let seated: Vec<(i64, i64)> = app.with_conn(|c| {
        seatings::table
            .filter(seatings::left_at.is_null())
            .select((seatings::table_id, seatings::player_id))
            .load(c)
            .unwrap()
    });
    assert_eq!(seated.len(), 13, "everyone on the list gets a seat");
    let at1 = seated.iter().filter(|(t, _)| *t == 1).count();
    assert!(
        at1 == 6 || at1 == 7,
        "tables filled evenly: {at1} and {}",
        13 - at1
    );
    let replay = app.with_conn(|c| cardroom::services::draws::replay(c, 1).unwrap());
    assert!(replay.matches);
    assert_eq!(replay.draw.kind.as_str(), "suit");
}

#[actix_web::test]
async fn pt2007_27_an_oversubscribed_table_gives_priority_to_the_previous_session() {
    use cardroom::db::schema::seatings;
    use diesel::prelude::*;
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    nl_game(&app, &token).await;
    let table = serde_json::json!({"number": 1, "game_id": 1, "mode": "session", "seats": 4});
    app.send_json("POST", "/api/v1/tables", &token, table).await;
    let ids = eligible_players(&app, 9);
    let s = app.web_login("admin", ADMIN_PW).await;
    app.post_form("/floor/tables/1/open", &s, &[]).await;
    // The previous session: players 6, 7, 8 sat at this table and left.
    for (seat, p) in [(1, ids[6]), (2, ids[7]), (3, ids[8])] {
        let r = app
            .send_json(
                "POST",
                &format!("/api/v1/tables/1/seats/{seat}"),
                &token,
                serde_json::json!({"player_id": p}),
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.text());
    }
    for seating in 1..=3 {
        app.send_json(
            "POST",
            &format!("/api/v1/seatings/{seating}/leave"),
            &token,
            serde_json::json!({"reason": "session over"}),
        )
        .await;
    }
    // Everyone registers again for the next session; the newcomers are ahead on the list.
    for p in ids.iter() {
        app.post_form("/floor/lists/1/join", &s, &[("player", &p.to_string())])
            .await;
    }
    // The table was closed below the minimum? Re-open if needed, then draw.
    let state: String = app.with_conn(|c| {
        cardroom::db::schema::card_tables::table
            .find(1i64)
            .select(cardroom::db::schema::card_tables::state)
            .first(c)
            .unwrap()
    });
    if state == "closed" {
        app.post_form("/floor/tables/1/open", &s, &[]).await;
    }
    let r = app.post_form("/floor/tables/1/draw-seats", &s, &[]).await;
    assert_eq!(r.status, 303, "{}", r.text());
    let seated: Vec<i64> = app.with_conn(|c| {
        seatings::table
            .filter(seatings::left_at.is_null())
            .select(seatings::player_id)
            .load(c)
            .unwrap()
    });
    assert_eq!(seated.len(), 4);
    for p in [ids[6], ids[7], ids[8]] {
        assert!(
            seated.contains(&p),
            "previous-session player {p} plays (PT-2007 27): {seated:?}"
        );
    }
}

#[actix_web::test]
async fn an_expired_seat_call_cannot_be_confirmed_even_before_the_scheduler_runs() {
    let app = TestApp::with_clock(true).await;
    let token = app.admin_token().await;
    nl_game(&app, &token).await;
    let table = serde_json::json!({"number": 1, "game_id": 1, "mode": "continuous", "seats": 9});
    app.send_json("POST", "/api/v1/tables", &token, table).await;
    let ids = eligible_players(&app, 1);
    let s = app.web_login("admin", ADMIN_PW).await;
    app.post_form("/floor/tables/1/open", &s, &[]).await;
    app.post_form(
        "/floor/lists/1/join",
        &s,
        &[("player", &ids[0].to_string())],
    )
    .await;
    assert_eq!(
        app.post_form("/floor/tables/1/seats/1/call", &s, &[])
            .await
            .status,
        303
    );
    // Five minutes is the response window; at 5:01 the call is over.
    app.send_json(
        "POST",
        "/api/v1/test/clock/advance",
        &token,
        serde_json::json!({"minutes": 6}),
    )
    .await;
    let before = (app.audit_count(), app.count("seatings"));
    let r = app
        .send_json(
            "POST",
            "/api/v1/seat-calls/1/seat",
            &token,
            serde_json::json!({}),
        )
        .await;
    assert_eq!(r.status, 409, "{}", r.text());
    assert!(r.error().1.contains("expired"));
    assert_eq!((app.audit_count(), app.count("seatings")), before);
}

#[actix_web::test]
async fn bsop_55_must_move_order_survives_the_list_emptying() {
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    nl_game(&app, &token).await;
    for n in [1, 2] {
        let table =
            serde_json::json!({"number": n, "game_id": 1, "mode": "continuous", "seats": 4});
        app.send_json("POST", "/api/v1/tables", &token, table).await;
    }
    let p = eligible_players(&app, 7);
    let s = app.web_login("admin", ADMIN_PW).await;
    app.post_form("/floor/tables/1/open", &s, &[]).await;
    app.post_form("/floor/tables/2/open", &s, &[]).await; // the newer: must-move (BSOP 55)
                                                          // The main table fills from the list: p0..p3.
    for (i, id) in p[..4].iter().enumerate() {
        let r = app
            .send_json(
                "POST",
                &format!("/api/v1/tables/1/seats/{}", i + 1),
                &token,
                serde_json::json!({"player_id": id}),
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.text());
    }
    // C joins, is called to the must-move table and sits: the list is then empty.
    let join = |pid: i64| {
        let token = token.clone();
        let app = &app;
        async move {
            app.send_json(
                "POST",
                "/api/v1/games/1/waitlist",
                &token,
                serde_json::json!({"player_id": pid}),
            )
            .await
        }
    };
    // X was on the list before C and left it: C's place was second when C joined.
    let x = join(p[6]).await.json()["entry_id"].as_i64().unwrap();
    assert_eq!(join(p[4]).await.status, 201);
    let r = app
        .send_json(
            "POST",
            &format!("/api/v1/waitlist/{x}/remove"),
            &token,
            serde_json::json!({"reason": "went home"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let call = app
        .send_json(
            "POST",
            "/api/v1/tables/2/seats/1/call-next",
            &token,
            serde_json::json!({}),
        )
        .await
        .json();
    assert_eq!(call["player_id"], p[4]);
    assert_eq!(
        app.send_json(
            "POST",
            &format!("/api/v1/seat-calls/{}/seat", call["id"]),
            &token,
            serde_json::json!({})
        )
        .await
        .status,
        201
    );
    // D joins later and sits at the must-move table too.
    assert_eq!(join(p[5]).await.status, 201);
    let call = app
        .send_json(
            "POST",
            "/api/v1/tables/2/seats/2/call-next",
            &token,
            serde_json::json!({}),
        )
        .await
        .json();
    assert_eq!(call["player_id"], p[5]);
    assert_eq!(
        app.send_json(
            "POST",
            &format!("/api/v1/seat-calls/{}/seat", call["id"]),
            &token,
            serde_json::json!({})
        )
        .await
        .status,
        201
    );
    // A main-game seat opens: C, who was on the list first, moves first.
    let seating = app.get("/api/v1/tables/1/seats", &token).await.json();
    let first = seating["seats"][0]["seating"]["id"]
        .as_i64()
        .or_else(|| seating["seats"][0]["seating_id"].as_i64());
    let first = first.unwrap_or(1);
    let r = app
        .send_json(
            "POST",
            &format!("/api/v1/seatings/{first}/leave"),
            &token,
            serde_json::json!({"reason": "home"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let call = app
        .send_json(
            "POST",
            "/api/v1/tables/1/seats/1/call-next",
            &token,
            serde_json::json!({}),
        )
        .await
        .json();
    assert_eq!(call["source"], "must_move", "{call}");
    assert_eq!(
        call["player_id"], p[4],
        "BSOP 55: original list order, not the reused key: {call}"
    );
}

#[actix_web::test]
async fn pt2007_11_the_seat_draw_skips_held_seats_and_players_kept_apart_from_those_seated() {
    use cardroom::db::schema::seatings;
    use diesel::prelude::*;
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    nl_game(&app, &token).await;
    let table = serde_json::json!({"number": 1, "game_id": 1, "mode": "continuous", "seats": 5});
    app.send_json("POST", "/api/v1/tables", &token, table).await;
    let second = serde_json::json!({"number": 2, "game_id": 1, "mode": "continuous", "seats": 5});
    app.send_json("POST", "/api/v1/tables", &token, second)
        .await; // another table could open
    let p = eligible_players(&app, 6);
    let s = app.web_login("admin", ADMIN_PW).await;
    app.post_form("/floor/tables/1/open", &s, &[]).await;
    // p0 sits in seat 1; p1 must never sit with p0 (BSOP 47); seat 2 is held (BSOP 45).
    app.send_json(
        "POST",
        "/api/v1/tables/1/seats/1",
        &token,
        serde_json::json!({"player_id": p[0]}),
    )
    .await;
    let r = app
        .send_json(
            "POST",
            &format!("/api/v1/players/{}/separations", p[1]),
            &token,
            serde_json::json!({"other_player_id": p[0], "reason": "BSOP 47"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let r = app
        .send_json(
            "POST",
            "/api/v1/tables/1/seats/2/hold",
            &token,
            serde_json::json!({"reason": "wheelchair access"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text());
    for id in &p[1..] {
        app.post_form("/floor/lists/1/join", &s, &[("player", &id.to_string())])
            .await;
    }
    let r = app.post_form("/floor/tables/1/draw-seats", &s, &[]).await;
    assert_eq!(r.status, 303, "{}", r.text());
    let seated: Vec<(i64, i32)> = app.with_conn(|c| {
        seatings::table
            .filter(seatings::left_at.is_null())
            .select((seatings::player_id, seatings::seat_no))
            .load(c)
            .unwrap()
    });
    // Seats 3, 4, 5 drawn among p2, p3, p4 (p1 passed over, seat 2 left held).
    let mut drawn: Vec<i64> = seated
        .iter()
        .filter(|(pl, _)| *pl != p[0])
        .map(|(pl, _)| *pl)
        .collect();
    drawn.sort();
    assert_eq!(drawn, vec![p[2], p[3], p[4]]);
    assert!(
        seated.iter().all(|(_, seat)| *seat != 2),
        "the held seat is not drawn"
    );
}

#[actix_web::test]
async fn bsop_50_a_game_started_with_one_extra_player_loses_the_extra_seat_when_someone_leaves() {
    use cardroom::db::schema::{card_tables, seatings};
    use diesel::prelude::*;
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    nl_game(&app, &token).await;
    for n in [1, 2] {
        let table =
            serde_json::json!({"number": n, "game_id": 1, "mode": "continuous", "seats": 4});
        app.send_json("POST", "/api/v1/tables", &token, table).await;
    }
    let p = eligible_players(&app, 6);
    let s = app.web_login("admin", ADMIN_PW).await;
    for id in &p {
        app.post_form("/floor/lists/1/join", &s, &[("player", &id.to_string())])
            .await;
    }
    app.post_form("/floor/tables/1/open", &s, &[]).await;
    let r = app
        .post_form("/floor/tables/1/draw-seats-extra", &s, &[])
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    let seated = |app: &TestApp| -> Vec<(i64, i32, i64)> {
        app.with_conn(|c| {
            seatings::table
                .filter(seatings::left_at.is_null())
                .order(seatings::seat_no.asc())
                .select((seatings::id, seatings::seat_no, seatings::player_id))
                .load(c)
                .unwrap()
        })
    };
    let now = seated(&app);
    assert_eq!(
        now.iter().map(|(_, n, _)| *n).collect::<Vec<_>>(),
        vec![1, 2, 3, 4, 5],
        "four seats and the extra one"
    );
    let flag: bool = app.with_conn(|c| {
        card_tables::table
            .find(1i64)
            .select(card_tables::extra_seat)
            .first(c)
            .unwrap()
    });
    assert!(flag);
    let replay = app.with_conn(|c| cardroom::services::draws::replay(c, 1).unwrap());
    assert_eq!(replay.draw.kind.as_str(), "seat_with_extra");
    assert!(replay.matches);
    // Seat 2 leaves: the extra player takes seat 2 and the extra seat is gone.
    let (seat2, _, _) = now[1];
    let extra_player = now[4].2;
    let r = app
        .send_json(
            "POST",
            &format!("/api/v1/seatings/{seat2}/leave"),
            &token,
            serde_json::json!({"reason": "home"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let after = seated(&app);
    assert_eq!(
        after.iter().map(|(_, n, _)| *n).collect::<Vec<_>>(),
        vec![1, 2, 3, 4]
    );
    assert_eq!(after[1].2, extra_player);
    let flag: bool = app.with_conn(|c| {
        card_tables::table
            .find(1i64)
            .select(card_tables::extra_seat)
            .first(c)
            .unwrap()
    });
    assert!(!flag);
    // Seat 5 no longer exists.
    let r = app
        .send_json(
            "POST",
            "/api/v1/tables/1/seats/5",
            &token,
            serde_json::json!({"player_id": p[5]}),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
}

#[actix_web::test]
async fn an_error_page_leads_back_to_the_form_it_came_from_and_never_off_site() {
    let app = TestApp::new().await;
    let s = app.web_login("admin", ADMIN_PW).await;
    let post = |referer: &'static str| {
        TestRequest::post()
            .uri("/players/999/bans")
            .cookie(s.c())
            .insert_header(("referer", referer))
            .set_form([("csrf", s.csrf.as_str()), ("reason", "x")])
            .to_request()
    };
    let host = TestRequest::default()
        .to_http_request()
        .connection_info()
        .host()
        .to_string();
    let same = Box::leak(format!("http://{host}/players?q=ana").into_boxed_str());
    let r = app.call(post(same)).await;
    assert_eq!(r.status, 404);
    assert!(
        r.text()
            .contains("href=\"/players?q=ana\" id=\"error-back\""),
        "{}",
        r.text()
    );
    let r = app.call(post("https://evil.example/phish")).await;
    assert!(r.text().contains("href=\"/\" id=\"error-back\""));
}

#[actix_web::test]
async fn sign_in_never_redirects_off_site_and_a_stale_session_does_not_block_it() {
    let app = TestApp::new().await;
    // A tab inside `next` would become `//evil.example` in a browser: a query or a form
    // with a control character is refused outright (`web::text`).
    let r = app
        .call(
            TestRequest::get()
                .uri("/login?next=/%09/evil.example")
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
    // So is a backslash (a browser reads it as a slash).
    let page = app
        .call(
            TestRequest::get()
                .uri("/login?next=/%5C/evil.example")
                .to_request(),
        )
        .await;
    let pre = page.cookie("cr_pre").unwrap();
    let csrf = hidden_csrf(&page.text());
    assert!(
        page.text().contains("name=\"next\" value=\"/\""),
        "unsafe next replaced by /"
    );
    let sign_in = |next: &'static str| {
        TestRequest::post()
            .uri("/login")
            .cookie(Cookie::new("cr_pre", pre.clone()))
            .set_form([
                ("csrf", csrf.as_str()),
                ("username", "admin"),
                ("password", ADMIN_PW),
                ("next", next),
            ])
            .to_request()
    };
    let r = app.call(sign_in("/\t/evil.example")).await;
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(r.cookie("cr_session").is_none(), "not signed in");
    let r = app.call(sign_in("/\\/evil.example")).await;
    assert_eq!(r.status, 303);
    // Not the smuggled address: the admin's own landing page.
    assert_eq!(r.header("location").as_deref(), Some("/floor"));
    // A session ended elsewhere (password changed): the login page drops the old cookie, so
    // signing in again works instead of failing the form check.
    app.create_staff("floor1", "floor");
    let old = app.web_login("floor1", STAFF_PW).await;
    let other = app.web_login("floor1", STAFF_PW).await;
    let r = app
        .post_form(
            "/account/password",
            &other,
            &[
                ("current_password", STAFF_PW),
                ("new_password", "fresh-password-9"),
                ("confirm_password", "fresh-password-9"),
            ],
        )
        .await;
    assert_eq!(r.status, 200);
    let page = app
        .call(
            TestRequest::get()
                .uri("/login")
                .cookie(old.c())
                .to_request(),
        )
        .await;
    assert_eq!(
        page.cookie("cr_session").as_deref(),
        Some(""),
        "the stale session cookie is removed"
    );
    app.web_login("floor1", "fresh-password-9").await;
}

#[actix_web::test]
async fn absurd_ban_dates_are_refused_not_a_server_error() {
    let app = TestApp::new().await;
    let s = app.web_login("admin", ADMIN_PW).await;
    let png = cardroom::services::photo::generated_portrait(4);
    post_player(
        &app,
        &s,
        &player_fields(&s.csrf, "1980-01-01", "AA1001"),
        Some(&png),
    )
    .await;
    for bad in [
        "-5000-01-01T00:00",
        "+20000-01-01T00:00",
        "0099-01-01T00:00",
    ] {
        let r = app
            .post_form(
                "/players/1/bans",
                &s,
                &[("reason", "x"), ("starts_at", bad)],
            )
            .await;
        assert_eq!(r.status, 422, "{bad}: {}", r.text());
    }
}

/// Game 1: NL Hold'em 1/2, low limit, buy-in 40-200 (minor units), through the API.
pub async fn nl_game(app: &TestApp, token: &str) {
    let game = serde_json::json!({"name": "NL 1/2", "variant": "holdem_nl", "small_blind": 100, "big_blind": 200,
        "limit_class": "low", "buy_in_min": 4000, "buy_in_max": 20000});
    let r = app.send_json("POST", "/api/v1/games", token, game).await;
    assert_eq!(r.status, 201, "{}", r.text());
}

#[actix_web::test]
async fn a_deactivated_floor_manager_stops_receiving_the_stream() {
    use actix_web::body::MessageBody;
    let app = TestApp::new().await;
    app.create_staff("floor1", "floor");
    let s = app.web_login("floor1", STAFF_PW).await;
    let res = app
        .call_raw(
            TestRequest::get()
                .uri("/floor/stream")
                .cookie(s.c())
                .to_request(),
        )
        .await;
    assert_eq!(res.status(), 200);
    // The admin deactivates the account while the stream is open.
    let now = app.state.clock.now();
    app.with_conn(|c| {
        let admin = cardroom::services::staff::get(c, 1).unwrap();
        let input = cardroom::services::staff::StaffInput {
            username: None,
            display_name: "floor1".into(),
            role: "floor".into(),
            password: None,
            active: Some(false),
        };
        cardroom::services::staff::update(c, now, &admin, 2, &input).unwrap();
    });
    let mut body = res.into_body();
    let ended = tokio::time::timeout(std::time::Duration::from_secs(15), async {
        loop {
            match futures_util::future::poll_fn(|cx| std::pin::Pin::new(&mut body).poll_next(cx))
                .await
            {
                None => break true,
                Some(Err(_)) => break true,
                Some(Ok(_)) => {}
            }
        }
    })
    .await;
    assert_eq!(
        ended,
        Ok(true),
        "the stream ends once the account is deactivated"
    );
}

/// Each role lands where its work is — the floor on its board, a dealer on the
/// tablet, the cashier on the chips in custody — and the navigation names the floor's board
/// "Floor" ("Sala") and gives each role its own page.
#[actix_web::test]
async fn each_role_lands_where_its_work_is() {
    let app = TestApp::new().await;
    for (user, role, home, link) in [
        ("floor1", "floor", "/floor", "id=\"nav-floor\""),
        ("dealer1", "dealer", "/tablet", "id=\"nav-tablet\""),
        (
            "cashier1",
            "cashier",
            "/floor/custody",
            "id=\"nav-custody\"",
        ),
    ] {
        app.create_staff(user, role);
        let r = app.login_form(user, STAFF_PW).await;
        assert_eq!(r.status, 303, "{user}: {}", r.text());
        assert_eq!(r.header("location").as_deref(), Some(home), "{user}");
        let s = app.web_login(user, STAFF_PW).await;
        let overview = app.page("/", &s).await;
        assert_eq!(overview.status, 200);
        assert!(overview.text().contains(link), "{user}: no {link}");
        assert!(
            overview
                .text()
                .contains(&format!("class=\"brand\" href=\"{home}\"")),
            "{user}"
        );
    }
    // The floor's board is "Floor" / "Sala"; the overview is not called the floor.
    let s = app.web_login("floor1", STAFF_PW).await;
    let en = app.page("/floor", &s).await.text();
    assert!(
        en.contains(">Floor</a>") && en.contains(">Overview</a>"),
        "{en}"
    );
    // Skip links first: to the content, and on the floor to the tables.
    let first_link = en.find("<a ").map(|i| &en[i..i + 60]).unwrap_or_default();
    assert!(first_link.contains("skip-link"), "{first_link}");
    assert!(en.contains("href=\"#tables\">Skip to the tables") && en.contains("id=\"tables\""));
    assert!(en.contains("id=\"main\""));
    let pt = app
        .call(
            TestRequest::get()
                .uri("/floor")
                .cookie(s.c())
                .cookie(Cookie::new("cr_lang", "pt"))
                .to_request(),
        )
        .await
        .text();
    assert!(
        pt.contains(">Sala</a>") && pt.contains(">Visão geral</a>"),
        "{pt}"
    );
}
