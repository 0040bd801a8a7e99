//! Registration keeps work: a refused form keeps its photo (bound to the staff
//! session, for an hour) and every typed value; a phone typed without a country code takes
//! the room's country; a saved record says so, naming the player, in both languages; and the
//! player's record adds them to several lists at once through the floor's own join, a list that
//! refuses being named while the others are joined.

use crate::support::*;
use actix_web::test::TestRequest;
use cardroom::domain::ids::PlayerId;
use diesel::prelude::*;
use serde_json::json;

/// A complete, valid registration (the room is Lisbon's by default).
fn fields(csrf: &str) -> Vec<(String, String)> {
    [
        ("csrf", csrf),
        ("full_name", "Joana Teste"),
        ("date_of_birth", "1990-05-17"),
        ("doc_kind", "national_id"),
        ("doc_number", "CC 1234 5678"),
        ("doc_country", "PT"),
        ("doc_expiry", "2034-01-31"),
        ("phone", "912 345 678"),
        ("email", "joana@example.pt"),
        ("language", "pt"),
        ("notify", "sms"),
        ("alias", "Joana"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect()
}

fn set(f: &mut Vec<(String, String)>, k: &str, v: &str) {
    f.retain(|(n, _)| n != k);
    f.push((k.to_string(), v.to_string()));
}

async fn send(
    app: &TestApp,
    s: &WebSession,
    uri: &str,
    f: &[(String, String)],
    photo: Option<&[u8]>,
    lang: &str,
) -> Resp {
    let refs: Vec<(&str, &str)> = f.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let (ct, body) = multipart(&refs, photo.map(|p| ("photo", "image/png", p)));
    app.call(
        TestRequest::post()
            .uri(uri)
            .cookie(s.c())
            .insert_header(("content-type", ct))
            .insert_header(("accept-language", lang))
            .set_payload(body)
            .to_request(),
    )
    .await
}

async fn page(app: &TestApp, s: &WebSession, uri: &str, lang: &str) -> Resp {
    app.call(
        TestRequest::get()
            .uri(uri)
            .cookie(s.c())
            .insert_header(("accept-language", lang))
            .to_request(),
    )
    .await
}

/// The kept photo's hidden field in a re-shown form.
fn kept_field(html: &str) -> Option<String> {
    let at = "name=\"kept_photo\" value=\"";
    let i = html.find(at)? + at.len();
    Some(html[i..i + html[i..].find('"')?].to_string())
}

fn phone_of(app: &TestApp, id: i64) -> Option<String> {
    use cardroom::db::schema::players;
    app.with_conn(|c| {
        players::table
            .find(id)
            .select(players::phone)
            .first(c)
            .unwrap()
    })
}

fn id_of(location: &str) -> i64 {
    location
        .trim_start_matches("/players/")
        .split(['?', '#'])
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

fn audit_actions(app: &TestApp, action: &str) -> i64 {
    use cardroom::db::schema::audit_log;
    app.with_conn(|c| {
        audit_log::table
            .filter(audit_log::action.eq(action))
            .count()
            .get_result(c)
            .unwrap()
    })
}

#[actix_web::test]
async fn a_refused_form_keeps_the_photo_and_the_next_submit_stores_it() {
    let app = TestApp::new().await;
    let s = app.web_login("admin", ADMIN_PW).await;
    let png = cardroom::services::photo::generated_portrait(11);

    // Refused: no name, and under 18. The photo is kept, every typed value is shown again.
    let mut f = fields(&s.csrf);
    set(&mut f, "full_name", "");
    set(&mut f, "date_of_birth", "2020-01-01");
    let r = send(&app, &s, "/players", &f, Some(&png), "en").await;
    assert_eq!(r.status, 422, "{}", r.text());
    let html = r.text();
    assert!(html.contains("id=\"kept-photo\""), "{html}");
    assert!(html.contains("src=\"data:image/jpeg;base64,"));
    for v in [
        "CC 1234 5678",
        "912 345 678",
        "joana@example.pt",
        "Joana",
        "2034-01-31",
    ] {
        assert!(html.contains(&format!("value=\"{v}\"")), "{v} kept");
    }
    // (The date rules wait for a form whose fields all parse: the name first.)
    assert!(html.contains("data-field=\"full_name\""));
    let kept = kept_field(&html).expect("kept photo field");
    assert_eq!((app.count("players"), app.count("player_photos")), (0, 0));

    // Refused again (a bad e-mail), sent with the kept photo only: kept again.
    let mut f = fields(&s.csrf);
    set(&mut f, "email", "not-an-email");
    set(&mut f, "kept_photo", &kept);
    let r = send(&app, &s, "/players", &f, None, "en").await;
    assert_eq!(r.status, 422, "{}", r.text());
    let kept = kept_field(&r.text()).expect("still kept");

    // A new file that is no image is refused, and the kept photo stays kept.
    let mut f = fields(&s.csrf);
    set(&mut f, "kept_photo", &kept);
    let r = send(
        &app,
        &s,
        "/players",
        &f,
        Some(b"%PDF-1.4 not an image"),
        "en",
    )
    .await;
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(r.text().contains("data-field=\"photo\""));
    let kept = kept_field(&r.text()).expect("the kept photo survives a refused new file");

    // Fixed: saved with the kept photo, no file attached.
    let mut f = fields(&s.csrf);
    set(&mut f, "kept_photo", &kept);
    let r = send(&app, &s, "/players", &f, None, "en").await;
    assert_eq!(r.status, 303, "{}", r.text());
    let loc = r.header("location").unwrap();
    assert!(loc.ends_with("?saved=new"), "{loc}");
    let id = id_of(&loc);
    let photo = page(&app, &s, &format!("/players/{id}/photo"), "en").await;
    assert_eq!(photo.status, 200);
    assert_eq!(photo.header("content-type").as_deref(), Some("image/jpeg"));
    assert_eq!(&photo.body[..2], &[0xFF, 0xD8]);
    assert_eq!(app.count("player_photos"), 1);
    assert_eq!(audit_actions(&app, "player.photo"), 1);
    let html = page(&app, &s, &loc, "en").await.text();
    assert!(html.contains("class=\"player-photo\""));

    // The edit form keeps a new photo the same way when the edit is refused.
    let png2 = cardroom::services::photo::generated_portrait(12);
    let mut f = fields(&s.csrf);
    set(&mut f, "version", "1");
    set(&mut f, "alias", "");
    let r = send(&app, &s, &format!("/players/{id}"), &f, Some(&png2), "pt").await;
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(r.text().contains("Fotografia guardada"), "{}", r.text());
    let kept = kept_field(&r.text()).expect("kept on the edit form");
    let mut f = fields(&s.csrf);
    set(&mut f, "version", "1");
    set(&mut f, "kept_photo", &kept);
    let r = send(&app, &s, &format!("/players/{id}"), &f, None, "pt").await;
    assert_eq!(r.status, 303, "{}", r.text());
    assert_eq!(audit_actions(&app, "player.photo"), 2);
}

#[actix_web::test]
async fn a_foreign_tampered_or_expired_kept_photo_is_refused_cleanly() {
    let app = TestApp::with_clock(true).await;
    let a = app.web_login("admin", ADMIN_PW).await;
    app.create_staff("desk2", "floor");
    let b = app.web_login("desk2", STAFF_PW).await;
    let png = cardroom::services::photo::generated_portrait(13);
    let mut f = fields(&a.csrf);
    set(&mut f, "alias", "");
    let r = send(&app, &a, "/players", &f, Some(&png), "en").await;
    assert_eq!(r.status, 422);
    let kept = kept_field(&r.text()).unwrap();
    let before = (app.audit_count(), app.count("players"));

    // Another session (another staff member) cannot use it: 422, said on the photo field,
    // the typed values kept, nothing saved.
    let mut f = fields(&b.csrf);
    set(&mut f, "kept_photo", &kept);
    let r = send(&app, &b, "/players", &f, None, "en").await;
    assert_eq!(r.status, 422, "{}", r.text());
    let html = r.text();
    assert!(html.contains("data-field=\"photo\""));
    assert!(html.contains("does not belong to this form"), "{html}");
    assert!(html.contains("value=\"CC 1234 5678\""));
    assert!(
        kept_field(&html).is_none(),
        "nothing kept for the other session"
    );

    // A second sign-in of the same person is another session too.
    let a2 = app.web_login("admin", ADMIN_PW).await;
    let mut f = fields(&a2.csrf);
    set(&mut f, "kept_photo", &kept);
    assert_eq!(
        send(&app, &a2, "/players", &f, None, "en").await.status,
        422
    );

    // A changed photo or expiry breaks the signature.
    let parts: Vec<&str> = kept.split('.').collect();
    let later = format!(
        "{}.{}",
        parts[0].parse::<i64>().unwrap() + 86_400,
        parts[1..].join(".")
    );
    for bad in [later.as_str(), "1.2.3.4.5", "junk"] {
        let mut f = fields(&a.csrf);
        set(&mut f, "kept_photo", bad);
        let r = send(&app, &a, "/players", &f, None, "pt").await;
        assert_eq!(r.status, 422, "{bad}");
        assert!(
            r.text().contains("não pertence a este formulário"),
            "{}",
            r.text()
        );
    }

    // An hour later the kept photo has expired: said, nothing saved.
    let admin = app.admin_token().await;
    let r = app
        .send_json(
            "POST",
            "/api/v1/test/clock/advance",
            &admin,
            json!({ "minutes": 61 }),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let mut f = fields(&a.csrf);
    set(&mut f, "kept_photo", &kept);
    let r = send(&app, &a, "/players", &f, None, "en").await;
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(r.text().contains("expired"), "{}", r.text());
    assert_eq!(app.count("players"), before.1);
    assert_eq!(app.count("player_photos"), 0);
}

#[actix_web::test]
async fn a_phone_without_country_code_takes_the_rooms_country() {
    let app = TestApp::new().await;
    let s = app.web_login("admin", ADMIN_PW).await;
    let png = cardroom::services::photo::generated_portrait(14);
    let form = page(&app, &s, "/players/new", "en").await.text();
    assert!(
        form.contains("+351 is added"),
        "the hint names the room's code"
    );

    // Lisbon: "912 345 678" is +351912345678.
    let r = send(&app, &s, "/players", &fields(&s.csrf), Some(&png), "en").await;
    assert_eq!(r.status, 303, "{}", r.text());
    let id = id_of(&r.header("location").unwrap());
    assert_eq!(phone_of(&app, id).as_deref(), Some("+351912345678"));

    // A country code typed wins; 00 is the international prefix.
    let mut f = fields(&s.csrf);
    set(&mut f, "doc_number", "BR 55 66");
    set(&mut f, "phone", "0055 11 98765-4321");
    let r = send(&app, &s, "/players", &f, Some(&png), "en").await;
    assert_eq!(r.status, 303, "{}", r.text());
    let id2 = id_of(&r.header("location").unwrap());
    assert_eq!(phone_of(&app, id2).as_deref(), Some("+5511987654321"));

    // Malformed: a clear message on the field, the typed value kept, nothing saved.
    for (lang, says) in [("en", "9 digits"), ("pt", "9 algarismos")] {
        let mut f = fields(&s.csrf);
        set(&mut f, "doc_number", "X 777");
        set(&mut f, "phone", "91 234");
        let r = send(&app, &s, "/players", &f, Some(&png), lang).await;
        assert_eq!(r.status, 422, "{}", r.text());
        let html = r.text();
        assert!(html.contains("data-field=\"phone\""));
        assert!(html.contains(says), "{html}");
        assert!(html.contains("value=\"91 234\""));
    }
    assert_eq!(app.count("players"), 2);

    // The JSON API takes the room's country too.
    let token = app.admin_token().await;
    let mut body = player_json("API 1234");
    body["phone"] = json!("962 000 111");
    let r = app.send_json("POST", "/api/v1/players", &token, body).await;
    assert_eq!(r.status, 201, "{}", r.text());
    assert_eq!(r.json()["player"]["phone"], "+351962000111");
}

#[actix_web::test]
async fn a_saved_record_says_so_naming_the_player_in_both_languages() {
    let app = TestApp::new().await;
    let s = app.web_login("admin", ADMIN_PW).await;
    let png = cardroom::services::photo::generated_portrait(15);
    let r = send(&app, &s, "/players", &fields(&s.csrf), Some(&png), "en").await;
    assert_eq!(r.status, 303);
    let loc = r.header("location").unwrap();
    let en = page(&app, &s, &loc, "en").await.text();
    assert!(en.contains("id=\"saved-notice\""));
    assert!(en.contains("Joana Teste registered: record saved."), "{en}");
    let pt = page(&app, &s, &loc, "pt-PT").await.text();
    assert!(pt.contains("Registo de Joana Teste guardado."), "{pt}");
    // Only after a save: the plain record has no notice.
    let id = id_of(&loc);
    let plain = page(&app, &s, &format!("/players/{id}"), "en").await.text();
    assert!(!plain.contains("id=\"saved-notice\""));

    let mut f = fields(&s.csrf);
    set(&mut f, "version", "1");
    set(&mut f, "full_name", "Joana Teste Silva");
    let r = send(&app, &s, &format!("/players/{id}"), &f, None, "en").await;
    assert_eq!(r.status, 303, "{}", r.text());
    let loc = r.header("location").unwrap();
    assert_eq!(loc, format!("/players/{id}?saved=edit"));
    let en = page(&app, &s, &loc, "en").await.text();
    assert!(
        en.contains("Changes to Joana Teste Silva&#39;s record saved.")
            || en.contains("Changes to Joana Teste Silva&#x27;s record saved."),
        "{en}"
    );
    let pt = page(&app, &s, &loc, "pt").await.text();
    assert!(
        pt.contains("Alterações ao registo de Joana Teste Silva guardadas."),
        "{pt}"
    );
}

async fn game(app: &TestApp, admin: &str, name: &str) -> i64 {
    let g = json!({"name": name, "variant": "holdem_nl", "small_blind": 100, "big_blind": 200,
        "limit_class": "low", "buy_in_min": 4000, "buy_in_max": 20000, "seats": 10});
    let r = app.send_json("POST", "/api/v1/games", admin, g).await;
    assert_eq!(r.status, 201, "{}", r.text());
    r.json()["id"].as_i64().unwrap()
}

async fn join_from_record(
    app: &TestApp,
    s: &WebSession,
    player: i64,
    games: &[i64],
    call_in: bool,
    lang: &str,
) -> Resp {
    let ids: Vec<String> = games.iter().map(i64::to_string).collect();
    let mut form: Vec<(&str, &str)> = vec![("csrf", s.csrf.as_str())];
    for g in &ids {
        form.push(("game", g));
    }
    if call_in {
        form.push(("call_in", "on"));
    }
    app.call(
        TestRequest::post()
            .uri(&format!("/players/{player}/lists"))
            .cookie(s.c())
            .insert_header(("accept-language", lang))
            .set_form(form)
            .to_request(),
    )
    .await
}

fn entries_of(app: &TestApp, player: i64) -> Vec<(i64, String, String)> {
    use cardroom::db::schema::waitlist_entries as w;
    app.with_conn(|c| {
        w::table
            .filter(w::player_id.eq(player))
            .order(w::game_id)
            .select((w::game_id, w::state, w::source))
            .load(c)
            .unwrap()
    })
}

#[actix_web::test]
async fn add_to_two_lists_from_the_players_record() {
    let app = TestApp::new().await;
    let admin = app.admin_token().await;
    let g1 = game(&app, &admin, "NLH 1/2").await;
    let g2 = game(&app, &admin, "PLO 2/5").await;
    let p = crate::floor::eligible_players(&app, 1)[0];
    let s = app.web_login("admin", ADMIN_PW).await;
    let html = page(&app, &s, &format!("/players/{p}"), "en").await.text();
    assert!(html.contains("id=\"lists-form\""));
    assert!(
        html.contains(&format!("id=\"list-game-{g1}\""))
            && html.contains(&format!("id=\"list-game-{g2}\""))
    );

    let joins = audit_actions(&app, "list.join");
    let r = join_from_record(&app, &s, p, &[g1, g2], true, "en").await;
    assert_eq!(r.status, 303, "{}", r.text());
    let loc = r.header("location").unwrap();
    assert_eq!(loc, format!("/players/{p}?joined={g1},{g2}#lists"));
    assert_eq!(
        entries_of(&app, p),
        vec![
            (g1, "waiting".into(), "call_in".into()),
            (g2, "waiting".into(), "call_in".into())
        ]
    );
    assert_eq!(audit_actions(&app, "list.join"), joins + 2);
    let en = page(&app, &s, &loc, "en").await.text();
    assert!(en.contains("added to: NLH 1/2, PLO 2/5."), "{en}");
    let pt = page(&app, &s, &loc, "pt").await.text();
    assert!(pt.contains("em: NLH 1/2, PLO 2/5."), "{pt}");

    // Nothing ticked: refused, nothing changed.
    let r = join_from_record(&app, &s, p, &[], false, "en").await;
    assert_eq!(r.status, 422, "{}", r.text());
    assert_eq!(audit_actions(&app, "list.join"), joins + 2);
    // A cashier may read the record but not add to lists.
    app.create_staff("till", "cashier");
    let cashier = app.web_login("till", STAFF_PW).await;
    let html = page(&app, &cashier, &format!("/players/{p}"), "en")
        .await
        .text();
    assert!(!html.contains("id=\"lists-form\""));
    assert_eq!(
        join_from_record(&app, &cashier, p, &[g1], false, "en")
            .await
            .status,
        403
    );
}

#[actix_web::test]
async fn a_list_that_refuses_is_named_and_the_others_are_joined() {
    let app = TestApp::new().await;
    let admin = app.admin_token().await;
    let g1 = game(&app, &admin, "NLH 1/2").await;
    let g2 = game(&app, &admin, "PLO 2/5").await;
    let g3 = game(&app, &admin, "NLH 5/10").await;
    let p = crate::floor::eligible_players(&app, 1)[0];
    let s = app.web_login("admin", ADMIN_PW).await;

    // Already on the first list (from the floor).
    let r = join_from_record(&app, &s, p, &[g1], false, "en").await;
    assert_eq!(r.status, 303);
    let joins = audit_actions(&app, "list.join");
    // The record shows the list the player is on, not to be ticked again.
    let html = page(&app, &s, &format!("/players/{p}"), "en").await.text();
    assert!(html.contains(&format!("id=\"list-game-{g1}\" checked disabled> NLH 1/2 <span class=\"badge badge-muted\">on this list")), "{html}");
    assert!(html.contains(&format!("name=\"game\" value=\"{g2}\"")));
    // A stale page may still send it: refused for that list, the other joined.
    let r = join_from_record(&app, &s, p, &[g1, g2], false, "en").await;
    assert_eq!(r.status, 200, "{}", r.text());
    let html = r.text();
    assert!(html.contains("added to: PLO 2/5."), "{html}");
    assert!(
        html.contains("NLH 1/2: not added. This player is already on this list."),
        "{html}"
    );
    assert_eq!(audit_actions(&app, "list.join"), joins + 1);
    let e = entries_of(&app, p);
    assert_eq!(e.iter().map(|x| x.0).collect::<Vec<_>>(), vec![g1, g2]);

    // In Portuguese, and with every list refusing: the refusal's status, nothing joined.
    let r = join_from_record(&app, &s, p, &[g1, g2], false, "pt").await;
    assert_eq!(r.status, 409, "{}", r.text());
    let html = r.text();
    assert!(
        html.contains("NLH 1/2: inscrição recusada. Este jogador já está nesta lista."),
        "{html}"
    );
    assert!(html.contains("PLO 2/5: inscrição recusada."));
    assert!(!html.contains("id=\"lists-joined\""));
    assert_eq!(audit_actions(&app, "list.join"), joins + 1);

    // A banned player: each list refuses with the reason (BSOP 10), nothing joined.
    let r = app
        .post_form(&format!("/players/{p}/bans"), &s, &[("reason", "conduct")])
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    let r = join_from_record(&app, &s, p, &[g3], false, "en").await;
    assert_eq!(r.status, 409);
    assert!(
        r.text()
            .contains("NLH 5/10: not added. This player is banned"),
        "{}",
        r.text()
    );
    assert_eq!(entries_of(&app, p).len(), 2);
}

#[actix_web::test]
async fn the_players_history_names_their_own_link_in_the_readers_language() {
    let app = TestApp::new().await;
    let p = crate::floor::eligible_players(&app, 1)[0];
    let now = app.state.clock.now();
    // What the player's own link records (leaving a list, answering a call).
    app.with_conn(|c| {
        app.state
            .db
            .write(c, |c| {
                cardroom::db::audit::record::<(), ()>(
                    c,
                    now,
                    &cardroom::db::audit::Actor::player(PlayerId(p)),
                    "list.leave",
                    "player",
                    Some(p),
                    None,
                    None,
                )
            })
            .unwrap()
    });
    let s = app.web_login("admin", ADMIN_PW).await;
    let pt = page(&app, &s, &format!("/players/{p}"), "pt").await.text();
    assert!(
        pt.contains(&format!("Pela ligação pessoal (n.º {p})")),
        "{pt}"
    );
    assert!(!pt.contains("own link") && pt.contains("Sistema"), "{pt}");
    let en = page(&app, &s, &format!("/players/{p}"), "en").await.text();
    assert!(en.contains(&format!("Player #{p} (own link)")), "{en}");
}
