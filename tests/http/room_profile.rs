//! The room's rule profile changed one setting at a time (`PATCH /api/v1/room`, a JSON merge
//! patch), a whole profile (`PUT`) that leaves settings out refused naming each, and the
//! switch to another rule profile: the settings that differ from its defaults shown first
//! (`GET /api/v1/room/profiles/{kind}/diff`, `/admin/room/profile`), only the confirmed ones
//! applied. Every refusal changes nothing; every change is audited as `room.update`.

use crate::admin::switch_rows;
use crate::support::*;
use actix_web::cookie::Cookie;
use actix_web::test::TestRequest;
use cardroom::db::schema::audit_log;
use diesel::prelude::*;
use serde_json::{json, Value};

/// A PATCH of the room with a content type and a language.
async fn patch(app: &TestApp, token: &str, body: &Value, content_type: &str, lang: &str) -> Resp {
    app.call(
        TestRequest::patch()
            .uri("/api/v1/room")
            .insert_header(("Authorization", format!("Bearer {token}")))
            .insert_header(("content-type", content_type))
            .insert_header(("accept-language", lang))
            .set_payload(body.to_string())
            .to_request(),
    )
    .await
}

async fn merge(app: &TestApp, token: &str, body: Value) -> Resp {
    patch(app, token, &body, "application/merge-patch+json", "en").await
}

/// The refused fields of a 422: (field, reason), sorted.
fn refused(r: &Resp) -> Vec<(String, String)> {
    assert_eq!(r.status, 422, "{}", r.text());
    let mut out: Vec<(String, String)> = r.json()["error"]["fields"]
        .as_array()
        .expect("fields")
        .iter()
        .map(|f| {
            (
                f["field"].as_str().unwrap().to_string(),
                f["code"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    out.sort();
    out
}

fn fields(list: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = list
        .iter()
        .map(|(f, c)| (f.to_string(), c.to_string()))
        .collect();
    v.sort();
    v
}

/// The last `room.update` record: (before, after) as JSON, the profile parsed.
fn last_update(app: &TestApp) -> (Value, Value) {
    let (before, after): (String, String) = app.with_conn(|c| {
        audit_log::table
            .filter(audit_log::action.eq("room.update"))
            .order(audit_log::seq.desc())
            .select((audit_log::before_json, audit_log::after_json))
            .first(c)
            .unwrap()
    });
    let profile = |s: &str| -> Value {
        let row: Value = serde_json::from_str(s).unwrap();
        serde_json::from_str(row["profile"].as_str().unwrap()).unwrap()
    };
    (profile(&before), profile(&after))
}

#[actix_web::test]
async fn a_patch_of_one_setting_changes_only_it_and_is_audited() {
    let app = TestApp::new().await;
    let admin = app.admin_token().await;
    let room = app.get("/api/v1/room", &admin).await.json();
    assert_eq!(room["profile"]["push_down_min"], 30);
    let audit = app.audit_count();

    let r = merge(&app, &admin, json!({"profile": {"push_down_min": 40}})).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let mut expected = room.clone();
    expected["profile"]["push_down_min"] = json!(40);
    // The whole room comes back, and is what is stored: only the setting named changed.
    assert_eq!(r.json(), expected);
    assert_eq!(app.get("/api/v1/room", &admin).await.json(), expected);
    assert_eq!(app.audit_count(), audit + 1);
    let (before, after) = last_update(&app);
    assert_eq!(
        (
            before["push_down_min"].clone(),
            after["push_down_min"].clone()
        ),
        (json!(30), json!(40))
    );
    assert_eq!(
        after["join_at_average_stack"],
        before["join_at_average_stack"]
    );

    // Plain JSON is a merge patch too; a member of the room itself, and two settings at once.
    let body =
        json!({"name": "Sala Norte", "profile": {"tips_pooled": true, "pref_max_passes": 4}});
    let r = patch(&app, &admin, &body, "application/json", "en").await;
    assert_eq!(r.status, 200, "{}", r.text());
    expected["name"] = json!("Sala Norte");
    expected["profile"]["tips_pooled"] = json!(true);
    expected["profile"]["pref_max_passes"] = json!(4);
    assert_eq!(app.get("/api/v1/room", &admin).await.json(), expected);
    assert_eq!(app.audit_count(), audit + 2);

    // A patch that changes nothing writes nothing.
    let r = merge(&app, &admin, json!({"profile": {"push_down_min": 40}})).await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json(), expected);
    assert_eq!(app.audit_count(), audit + 2);

    // A dealer may read the room, not patch it.
    let dealer = app.staff_token("dealer1", "dealer").await;
    let r = merge(&app, &dealer, json!({"profile": {"push_down_min": 50}})).await;
    assert_eq!(r.status, 403, "{}", r.text());
    assert_eq!(app.get("/api/v1/room", &admin).await.json(), expected);
}

#[actix_web::test]
async fn a_patch_naming_an_unknown_or_null_setting_is_a_422_naming_it_and_changes_nothing() {
    let app = TestApp::new().await;
    let admin = app.admin_token().await;
    let room = app.get("/api/v1/room", &admin).await.json();
    let audit = app.audit_count();
    let cases = [
        (
            json!({"profile": {"push_down_minutes": 40, "push_down_min": 40}}),
            vec![("profile.push_down_minutes", "unknown_setting")],
        ),
        (
            json!({"colour": "red", "name": "Renamed"}),
            vec![("colour", "unknown_setting")],
        ),
        (
            json!({"profile": {"tips_pooled": null}, "theme": null}),
            vec![
                ("profile.tips_pooled", "setting_null"),
                ("theme", "setting_null"),
            ],
        ),
        (
            json!({"profile": {"min_players_to_run": "four", "call_expiry": "never"}}),
            vec![
                ("profile.min_players_to_run", "field_type"),
                ("profile.call_expiry", "choice"),
            ],
        ),
        (json!({"profile": 3}), vec![("profile", "field_type")]),
    ];
    for (body, expected) in cases {
        let r = merge(&app, &admin, body.clone()).await;
        assert_eq!(refused(&r), fields(&expected), "{body}");
    }
    // Said in the request's language, naming the setting.
    let body = json!({"profile": {"join_at_avg": true}});
    for (lang, says) in [
        ("en", "is not one of the room's settings"),
        ("pt-PT", "não é uma das configurações"),
    ] {
        let r = patch(&app, &admin, &body, "application/merge-patch+json", lang).await;
        let f = &r.json()["error"]["fields"][0];
        assert_eq!(f["field"], "profile.join_at_avg", "{}", r.text());
        let m = f["message"].as_str().unwrap();
        assert!(m.contains("join_at_avg") && m.contains(says), "{lang}: {m}");
    }
    // Not an object: unreadable.
    assert_eq!(merge(&app, &admin, json!([1])).await.status, 400);
    assert_eq!(app.audit_count(), audit, "nothing saved");
    assert_eq!(app.get("/api/v1/room", &admin).await.json(), room);
}

#[actix_web::test]
async fn a_patch_out_of_range_is_a_422_naming_it_and_changes_nothing() {
    let app = TestApp::new().await;
    let admin = app.admin_token().await;
    let room = app.get("/api/v1/room", &admin).await.json();
    let audit = app.audit_count();
    let cases = [
        // The valid setting beside the refused one is not saved either.
        (
            json!({"profile": {"push_break_after_min": 721, "tips_pooled": true}}),
            vec![("push_break_after_min", "range")],
        ),
        // PT-2007 7b: 5 % to 20 % per session.
        (
            json!({"profile": {"session_percent_bp": 2100}}),
            vec![("session_percent_bp", "range")],
        ),
        // BSOP 38: the high-limit stay never shorter than the mid-limit one, the room's
        // other values counted.
        (
            json!({"profile": {"min_stay_mid_min": 180}}),
            vec![("min_stay_high_min", "profile_high_below_mid")],
        ),
        (
            json!({"tap_late_max_s": 901, "profile": {"remote_max_lists": 0}}),
            vec![("tap_late_max_s", "range"), ("remote_max_lists", "range")],
        ),
        (
            json!({"timezone": "Mars/Olympus_Mons"}),
            vec![("timezone", "timezone")],
        ),
    ];
    for (body, expected) in cases {
        let r = merge(&app, &admin, body.clone()).await;
        assert_eq!(refused(&r), fields(&expected), "{body}");
    }
    let r = patch(
        &app,
        &admin,
        &json!({"profile": {"session_percent_bp": 2100}}),
        "application/json",
        "pt-PT",
    )
    .await;
    let m = r.json()["error"]["fields"][0]["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(m.contains("500") && m.contains("2000"), "{m}");
    assert_eq!(app.audit_count(), audit, "nothing saved");
    assert_eq!(app.get("/api/v1/room", &admin).await.json(), room);
}

#[actix_web::test]
async fn a_put_leaving_settings_out_is_a_422_naming_each_and_changes_nothing() {
    let app = TestApp::new().await;
    let admin = app.admin_token().await;
    let room = app.get("/api/v1/room", &admin).await.json();
    let audit = app.audit_count();
    let mut body = room.clone();
    body["name"] = json!("Renamed");
    body["profile"]["push_down_min"] = json!(40);
    for name in [
        "tips_pooled",
        "push_break_min",
        "join_at_average_session_only",
    ] {
        body["profile"].as_object_mut().unwrap().remove(name);
    }
    for lang in ["en", "pt-PT"] {
        let r = app
            .call(
                TestRequest::put()
                    .uri("/api/v1/room")
                    .insert_header(("Authorization", format!("Bearer {admin}")))
                    .insert_header(("accept-language", lang))
                    .set_json(&body)
                    .to_request(),
            )
            .await;
        assert_eq!(
            refused(&r),
            fields(&[
                ("profile.tips_pooled", "profile_setting_missing"),
                ("profile.push_break_min", "profile_setting_missing"),
                (
                    "profile.join_at_average_session_only",
                    "profile_setting_missing"
                ),
            ])
        );
        let m = r.json()["error"]["fields"][0]["message"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(m.contains("PATCH") && m.contains("PUT"), "{lang}: {m}");
    }
    // The room's own members too, each named.
    let mut bare = room.clone();
    bare.as_object_mut().unwrap().remove("timezone");
    bare.as_object_mut().unwrap().remove("currency");
    bare["profile"].as_object_mut().unwrap().remove("kind");
    let r = app.send_json("PUT", "/api/v1/room", &admin, bare).await;
    assert_eq!(
        refused(&r),
        fields(&[
            ("timezone", "required"),
            ("currency", "required"),
            ("profile.kind", "profile_setting_missing"),
        ])
    );
    assert_eq!(app.audit_count(), audit, "nothing saved");
    assert_eq!(app.get("/api/v1/room", &admin).await.json(), room);
    // The whole profile is accepted.
    let mut whole = room.clone();
    whole["profile"]["push_down_min"] = json!(40);
    let r = app
        .send_json("PUT", "/api/v1/room", &admin, whole.clone())
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json(), whole);
}

#[actix_web::test]
async fn pt2007_28_a_bsop_room_keeps_join_at_average_stack_off_after_a_clients_partial_write() {
    let app = TestApp::new().await;
    let admin = app.admin_token().await;
    // The room follows BSOP: PT-2007 28 (a seat in a game under way at the average stack)
    // is off.
    let switch = app
        .get("/api/v1/room/profiles/bsop/diff", &admin)
        .await
        .json();
    let mut profile = serde_json::Map::new();
    profile.insert("kind".into(), json!("bsop"));
    for c in switch["changes"].as_array().unwrap() {
        profile.insert(c["setting"].as_str().unwrap().into(), c["default"].clone());
    }
    let r = merge(&app, &admin, json!({ "profile": profile })).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let room = r.json();
    assert_eq!(room["profile"]["kind"], "bsop");
    assert_eq!(room["profile"]["join_at_average_stack"], false);

    // A client written before some settings existed sends the profile it knows.
    let audit = app.audit_count();
    let mut old = room.clone();
    old["profile"]["min_players_to_run"] = json!(5);
    for name in [
        "join_at_average_stack",
        "join_at_average_session_only",
        "tips_pooled",
    ] {
        old["profile"].as_object_mut().unwrap().remove(name);
    }
    let r = app.send_json("PUT", "/api/v1/room", &admin, old).await;
    let named: Vec<String> = refused(&r).into_iter().map(|(f, _)| f).collect();
    assert!(
        named.contains(&"profile.join_at_average_stack".to_string()),
        "{named:?}"
    );
    assert_eq!(app.audit_count(), audit);
    // The same change as a patch: only it is written.
    let r = merge(&app, &admin, json!({"profile": {"min_players_to_run": 5}})).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let now = app.get("/api/v1/room", &admin).await.json();
    assert_eq!(now["profile"]["min_players_to_run"], 5);
    assert_eq!(now["profile"]["join_at_average_stack"], false);
    assert_eq!(now["profile"]["kind"], "bsop");
    // A patch of the profile's name only changes only the name: the rules stay BSOP's.
    let r = merge(&app, &admin, json!({"profile": {"kind": "pt-casino"}})).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let mut expected = now.clone();
    expected["profile"]["kind"] = json!("pt-casino");
    assert_eq!(r.json(), expected);
    assert_eq!(
        app.get("/api/v1/room", &admin).await.json()["profile"]["join_at_average_stack"],
        false
    );
}

#[actix_web::test]
async fn the_diff_lists_each_setting_that_differs_from_a_profiles_defaults() {
    let app = TestApp::new().await;
    let admin = app.admin_token().await;
    let dealer = app.staff_token("dealer1", "dealer").await;
    let audit = app.audit_count();
    let r = app.get("/api/v1/room/profiles/bsop/diff", &dealer).await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(
        r.json(),
        json!({
            "from": "pt-casino",
            "to": "bsop",
            "changes": [
                {"setting": "cagnotte_mode", "now": "per_session", "default": "per_hand"},
                {"setting": "join_at_average_stack", "now": true, "default": false},
                {"setting": "missed_blinds_dead", "now": true, "default": false},
            ]
        })
    );
    // The room's own profile: what going back to its defaults would change.
    let r = merge(&app, &admin, json!({"profile": {"return_window_min": 90}})).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let r = app
        .get("/api/v1/room/profiles/pt-casino/diff", &admin)
        .await;
    assert_eq!(
        r.json()["changes"],
        json!([{"setting": "return_window_min", "now": 90, "default": 60}])
    );
    assert_eq!(
        app.get("/api/v1/room/profiles/vegas/diff", &admin)
            .await
            .status,
        404
    );
    assert_eq!(
        app.audit_count(),
        audit + 1,
        "reading the differences writes nothing"
    );
}

#[actix_web::test]
async fn the_profile_switch_page_shows_the_differences_and_applies_only_the_confirmed_rows() {
    let app = TestApp::new().await;
    let admin = app.admin_token().await;
    let s = app.web_login("admin", ADMIN_PW).await;
    let r = merge(&app, &admin, json!({"profile": {"return_window_min": 90}})).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let before = app.get("/api/v1/room", &admin).await.json();

    // Step 1, on the room page: choose the profile (a plain GET form).
    let page = app.page("/admin/room", &s).await.text();
    assert!(
        page.contains(r#"<form id="profile-switch-form" class="form" method="get" action="/admin/room/profile">"#),
        "{page}"
    );
    // Step 2: each house rule that differs from BSOP's defaults, with its value now and the
    // default, ticked; nothing changed yet.
    let audit = app.audit_count();
    let r = app.page("/admin/room/profile?kind=bsop", &s).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let html = r.text();
    assert_eq!(
        switch_rows(&html),
        [
            "return_window_min",
            "missed_blinds_dead",
            "cagnotte_mode",
            "join_at_average_stack"
        ]
    );
    let row = |html: &str, name: &str| -> String {
        let i = html.find(&format!("<tr id=\"switch-{name}\"")).unwrap();
        html[i..i + html[i..].find("</tr>").unwrap()].to_string()
    };
    let rw = row(&html, "return_window_min");
    assert!(
        rw.contains("90 min") && rw.contains("60 min") && rw.contains("checked"),
        "{rw}"
    );
    let ja = row(&html, "join_at_average_stack");
    assert!(
        ja.contains(">Yes<") && ja.contains(">No<") && ja.contains("checked"),
        "{ja}"
    );
    assert!(html.contains("Default of BSOP (Brazil)"), "{html}");
    assert_eq!(app.audit_count(), audit);
    // In Portuguese too.
    let pt = app
        .call(
            TestRequest::get()
                .uri("/admin/room/profile?kind=bsop")
                .cookie(s.c())
                .cookie(Cookie::new("cr_lang", "pt"))
                .to_request(),
        )
        .await
        .text();
    assert!(
        pt.contains("Mudar para BSOP (Brasil)") && pt.contains(">Sim<"),
        "{pt}"
    );

    // The admin unticks two rows: those keep the room's values.
    let r = app
        .post_form(
            "/admin/room/profile",
            &s,
            &[
                ("kind", "bsop"),
                ("apply", "cagnotte_mode"),
                ("apply", "join_at_average_stack"),
            ],
        )
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    assert_eq!(r.header("location").as_deref(), Some("/admin/room"));
    let after = app.get("/api/v1/room", &admin).await.json();
    let mut expected = before.clone();
    expected["profile"]["kind"] = json!("bsop");
    expected["profile"]["cagnotte_mode"] = json!("per_hand");
    expected["profile"]["join_at_average_stack"] = json!(false);
    assert_eq!(after, expected);
    assert_eq!(app.audit_count(), audit + 1);
    let (b, a) = last_update(&app);
    assert_eq!(
        (b["kind"].clone(), a["kind"].clone()),
        (json!("pt-casino"), json!("bsop"))
    );
    assert_eq!(a["return_window_min"], 90);

    // BSOP again: the rows left are those kept; confirming none changes nothing.
    let html = app.page("/admin/room/profile?kind=bsop", &s).await.text();
    assert_eq!(
        switch_rows(&html),
        ["return_window_min", "missed_blinds_dead"]
    );
    let r = app
        .post_form("/admin/room/profile", &s, &[("kind", "bsop")])
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    assert_eq!(app.get("/api/v1/room", &admin).await.json(), expected);
    assert_eq!(app.audit_count(), audit + 1);
}

#[actix_web::test]
async fn a_switch_whose_confirmed_defaults_break_a_rule_is_refused_on_its_row_and_changes_nothing()
{
    let app = TestApp::new().await;
    let admin = app.admin_token().await;
    let s = app.web_login("admin", ADMIN_PW).await;
    let r = merge(
        &app,
        &admin,
        json!({"profile": {"min_stay_mid_min": 200, "min_stay_high_min": 200}}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let before = app.get("/api/v1/room", &admin).await.json();
    let audit = app.audit_count();
    // BSOP 38: the high-limit stay back to 120 minutes while the mid-limit one stays at 200.
    let r = app
        .post_form(
            "/admin/room/profile",
            &s,
            &[
                ("kind", "bsop"),
                ("apply", "min_stay_high_min"),
                ("apply", "join_at_average_stack"),
            ],
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
    let html = r.text();
    assert!(
        html.contains(r#"<div class="field-error" data-field="min_stay_high_min">High-limit minimum stay cannot be shorter than mid-limit (BSOP 38).</div>"#),
        "{html}"
    );
    // The admin's choices are kept on the page shown again.
    let row = |name: &str| {
        let i = html.find(&format!("<input id=\"apply-{name}\"")).unwrap();
        html[i..i + html[i..].find('>').unwrap()].contains("checked")
    };
    assert!(row("min_stay_high_min") && row("join_at_average_stack"));
    assert!(!row("min_stay_mid_min") && !row("cagnotte_mode"));
    assert_eq!(app.audit_count(), audit);
    assert_eq!(app.get("/api/v1/room", &admin).await.json(), before);
    // A setting that does not exist, and a profile that does not: refused, nothing changed.
    let r = app
        .post_form(
            "/admin/room/profile",
            &s,
            &[("kind", "bsop"), ("apply", "house_edge")],
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(r.text().contains("house_edge"), "{}", r.text());
    let r = app.page("/admin/room/profile?kind=vegas", &s).await;
    assert_eq!(r.status, 422, "{}", r.text());
    assert_eq!(app.audit_count(), audit);
    assert_eq!(app.get("/api/v1/room", &admin).await.json(), before);
}
