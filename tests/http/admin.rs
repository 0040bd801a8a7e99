//! Admin pages (room and profile, games, tables, staff, audit) through the browser forms.

use crate::support::*;
use actix_web::cookie::Cookie;
use actix_web::test::TestRequest;
use cardroom::db::models::GameRow;
use cardroom::db::schema::{audit_log, card_tables, games, staff};
use cardroom::domain::profile::CagnotteMode;
use diesel::prelude::*;

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// The text of the message shown next to a field (`<div class="field-error" data-field="…">`).
fn field_error(html: &str, field: &str) -> Option<String> {
    let marker = format!("data-field=\"{field}\">");
    let i = html.find(&marker)? + marker.len();
    let rest = &html[i..];
    Some(rest[..rest.find("</div>")?].to_string())
}

/// The message next to a field, or a panic that shows the page.
fn msg_at(html: &str, field: &str) -> String {
    field_error(html, field).unwrap_or_else(|| panic!("no message next to {field}:\n{html}"))
}

/// The `value` of the `<input id="…">` in a page.
fn input_value(html: &str, id: &str) -> String {
    let marker = format!("<input id=\"{id}\"");
    let i = html
        .find(&marker)
        .unwrap_or_else(|| panic!("no input {id}:\n{html}"));
    let tag = &html[i..i + html[i..].find('>').unwrap()];
    let v = tag
        .find("value=\"")
        .unwrap_or_else(|| panic!("input {id} has no value: {tag}"))
        + "value=\"".len();
    tag[v..v + tag[v..].find('"').unwrap()].to_string()
}

/// Whether the checkbox `<input id="…">` is checked.
fn is_checked(html: &str, id: &str) -> bool {
    let marker = format!("<input id=\"{id}\"");
    let i = html
        .find(&marker)
        .unwrap_or_else(|| panic!("no input {id}"));
    html[i..i + html[i..].find('>').unwrap()].contains("checked")
}

/// The value of the selected `<option>` of `<select id="…">`.
pub fn selected(html: &str, id: &str) -> Option<String> {
    let i = html.find(&format!("<select id=\"{id}\""))?;
    let body = &html[i..i + html[i..].find("</select>")?];
    body.split("<option ")
        .skip(1)
        .find(|o| o[..o.find('>').unwrap_or(0)].contains("selected"))
        .map(|o| {
            let v = o.find("value=\"").unwrap() + "value=\"".len();
            o[v..v + o[v..].find('"').unwrap()].to_string()
        })
}

/// The `<tr id="…">…</tr>` of a list.
fn row<'a>(html: &'a str, id: &str) -> &'a str {
    let marker = format!("<tr id=\"{id}\">");
    let i = html
        .find(&marker)
        .unwrap_or_else(|| panic!("no row {id}:\n{html}"));
    &html[i..i + html[i..].find("</tr>").unwrap()]
}

/// The alert above a form (a conflict).
fn form_problem(html: &str) -> Option<String> {
    let marker = "<div class=\"alert alert-error\" role=\"alert\" id=\"form-problem\">";
    let i = html.find(marker)? + marker.len();
    Some(html[i..i + html[i..].find("</div>")?].to_string())
}

/// Posts a form given as owned values.
async fn post(app: &TestApp, uri: &str, s: &WebSession, fields: &[(&'static str, String)]) -> Resp {
    let f: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
    app.post_form(uri, s, &f).await
}

const CHECKBOXES: &[&str] = &[
    "join_at_average_stack",
    "join_at_average_session_only",
    "missed_blinds_dead",
    "no_flop_no_drop",
    "tips_pooled",
    "active",
];

/// `base` with `over` replacing (or adding) fields; a checkbox set to "" is left out, as a
/// browser does with an unticked box.
fn with(
    base: Vec<(&'static str, String)>,
    over: &[(&'static str, &str)],
) -> Vec<(&'static str, String)> {
    let mut out = base;
    for (k, v) in over {
        match out.iter_mut().find(|(bk, _)| bk == k) {
            Some(slot) => slot.1 = v.to_string(),
            None => out.push((k, v.to_string())),
        }
    }
    out.retain(|(k, v)| !(CHECKBOXES.contains(k) && v.is_empty()));
    out
}

/// The whole room form as the page first shows it (the `pt-casino` seed, in English).
pub fn room_form(over: &[(&'static str, &str)]) -> Vec<(&'static str, String)> {
    let base: Vec<(&'static str, String)> = [
        ("name", "Cardroom"),
        ("timezone", "Europe/Lisbon"),
        ("currency", "EUR"),
        ("default_language", "pt"),
        ("kind", "pt-casino"),
        ("min_players_to_run", "4"),
        ("suspension_grace_min", "15"),
        ("absence_limit_min", "15"),
        ("missed_bb_before_removal", "2"),
        ("return_window_min", "60"),
        ("missed_blinds_dead", "true"),
        ("min_stay_mid_min", "60"),
        ("min_stay_high_min", "120"),
        ("cagnotte_mode", "per_session"),
        ("rake_percent_bp", "5"),
        ("session_percent_bp", "10"),
        ("session_length_min", "60"),
        ("late_seat_window_min", "30"),
        ("no_flop_no_drop", "true"),
        ("join_at_average_stack", "true"),
        ("join_at_average_session_only", ""),
        ("seat_call_response_min", "5"),
        ("call_expiry", "bottom"),
        ("call_in_expiry_min", "30"),
        ("seat_call_ack_escalation_min", "2"),
        ("remote_max_lists", "3"),
        ("pref_max_passes", "2"),
        ("push_down_min", "30"),
        ("push_break_min", "20"),
        ("push_break_after_downs", "3"),
        ("push_break_after_min", "0"),
        ("tips_pooled", ""),
    ]
    .into_iter()
    .map(|(k, v)| (k, v.to_string()))
    .collect();
    with(base, over)
}

/// A valid new-game form (NL Hold'em, low limit, the profile's cagnotte).
fn game_form(over: &[(&'static str, &str)]) -> Vec<(&'static str, String)> {
    let base: Vec<(&'static str, String)> = [
        ("name", "NL 1/2"),
        ("variant", "holdem_nl"),
        ("limit_class", "low"),
        ("small_blind", "1"),
        ("big_blind", "2"),
        ("buy_in_min", "40"),
        ("buy_in_max", "200"),
        ("seats", ""),
        ("cagnotte_mode", ""),
        ("cagnotte_bp", ""),
    ]
    .into_iter()
    .map(|(k, v)| (k, v.to_string()))
    .collect();
    with(base, over)
}

fn room(app: &TestApp) -> cardroom::services::room::Room {
    app.with_conn(|c| cardroom::services::room::get(c).unwrap())
}

fn all_games(app: &TestApp) -> Vec<GameRow> {
    app.with_conn(|c| {
        games::table
            .order(games::id.asc())
            .select(GameRow::as_select())
            .load(c)
            .unwrap()
    })
}

fn actions_like(app: &TestApp, prefix: &str) -> i64 {
    let p = format!("{prefix}%");
    app.with_conn(|c| {
        audit_log::table
            .filter(audit_log::action.like(p))
            .count()
            .get_result(c)
            .unwrap()
    })
}

/// The action codes of the records listed on an audit page, in order.
fn listed_actions(html: &str) -> Vec<String> {
    let marker = "<span class=\"muted mono small nowrap\">";
    html.split(marker)
        .skip(1)
        .map(|s| s[..s.find("</span>").unwrap()].to_string())
        .collect()
}

/// A GET with the `cr_lang=pt` cookie.
async fn page_pt(app: &TestApp, uri: &str, s: &WebSession) -> Resp {
    app.call(
        TestRequest::get()
            .uri(uri)
            .cookie(s.c())
            .cookie(Cookie::new("cr_lang", "pt"))
            .to_request(),
    )
    .await
}

async fn create_game(app: &TestApp, s: &WebSession, over: &[(&'static str, &str)]) {
    let r = post(app, "/admin/games", s, &game_form(over)).await;
    assert_eq!(r.status, 303, "create game {over:?}: {}", r.text());
}

// ---------------------------------------------------------------------------------------------
// Room and rule profile
// ---------------------------------------------------------------------------------------------

#[actix_web::test]
async fn room_settings_are_saved_shown_and_audited() {
    let app = TestApp::new().await;
    let s = app.web_login("admin", ADMIN_PW).await;
    let first = app.page("/admin/room", &s).await;
    assert_eq!(first.status, 200);
    // The form starts from what is stored (so the helper's defaults are the page's).
    let html = first.text();
    assert_eq!(input_value(&html, "name"), "Cardroom");
    assert_eq!(input_value(&html, "session_percent_bp"), "10");
    assert_eq!(
        selected(&html, "cagnotte_mode").as_deref(),
        Some("per_session")
    );

    let before = actions_like(&app, "room.update");
    let r = post(
        &app,
        "/admin/room",
        &s,
        &room_form(&[
            ("name", "Sala Copacabana"),
            ("timezone", "America/Sao_Paulo"),
            ("currency", "BRL"),
            ("default_language", "en"),
        ]),
    )
    .await;
    assert_eq!(r.status, 303, "{}", r.text());
    assert_eq!(r.header("location").as_deref(), Some("/admin/room"));
    assert_eq!(actions_like(&app, "room.update"), before + 1);

    // The page it leads back to shows what was stored, and says it was saved.
    let saved = r.cookie("cr_admin_saved").expect("saved cookie");
    let page = app
        .call(
            TestRequest::get()
                .uri("/admin/room")
                .cookie(s.c())
                .cookie(Cookie::new("cr_admin_saved", saved))
                .to_request(),
        )
        .await;
    assert_eq!(page.status, 200);
    let html = page.text();
    assert!(html.contains("id=\"saved-notice\""), "{html}");
    assert_eq!(input_value(&html, "name"), "Sala Copacabana");
    assert_eq!(input_value(&html, "timezone"), "America/Sao_Paulo");
    assert_eq!(selected(&html, "currency").as_deref(), Some("BRL"));
    assert_eq!(selected(&html, "default_language").as_deref(), Some("en"));

    let stored = room(&app);
    assert_eq!(
        (
            stored.name.as_str(),
            stored.timezone.as_str(),
            stored.currency.as_str(),
            stored.default_language.to_string().as_str()
        ),
        ("Sala Copacabana", "America/Sao_Paulo", "BRL", "en")
    );
    assert_eq!(stored.tz, chrono_tz::America::Sao_Paulo);
    // The audit record holds the change.
    let after: String = app.with_conn(|c| {
        audit_log::table
            .filter(audit_log::action.eq("room.update"))
            .order(audit_log::seq.desc())
            .select(audit_log::after_json)
            .first(c)
            .unwrap()
    });
    assert!(
        after.contains("America/Sao_Paulo") && after.contains("BRL"),
        "{after}"
    );
}

#[actix_web::test]
async fn pt2007_7b_session_percent_of_21_is_refused_next_to_the_field_and_nothing_is_saved() {
    let app = TestApp::new().await;
    let s = app.web_login("admin", ADMIN_PW).await;
    let before = (
        app.audit_count(),
        room(&app).profile.clone(),
        room(&app).name,
    );
    let r = post(
        &app,
        "/admin/room",
        &s,
        &room_form(&[("name", "Changed name"), ("session_percent_bp", "21")]),
    )
    .await;
    assert_eq!(r.status, 422, "{}", r.text());
    let html = r.text();
    assert_eq!(
        msg_at(&html, "session_percent_bp"),
        "Must be between 5 % and 20 %."
    );
    assert!(html.contains("id=\"form-errors\""));
    // Only that field is blamed, and what was typed is kept.
    assert_eq!(field_error(&html, "rake_percent_bp"), None);
    assert_eq!(input_value(&html, "session_percent_bp"), "21");
    assert_eq!(input_value(&html, "name"), "Changed name");
    let after = room(&app);
    assert_eq!(
        (app.audit_count(), after.profile.clone(), after.name.clone()),
        before
    );
    assert_eq!(after.profile.session_percent_bp, 1000);

    // The edges of the range are accepted (5 % and 20 %).
    for (typed, bp) in [("5", 500), ("20", 2000)] {
        let r = post(
            &app,
            "/admin/room",
            &s,
            &room_form(&[("session_percent_bp", typed)]),
        )
        .await;
        assert_eq!(r.status, 303, "{typed}: {}", r.text());
        assert_eq!(room(&app).profile.session_percent_bp, bp);
    }
    // Below 5 % is refused too.
    let n = app.audit_count();
    let r = post(
        &app,
        "/admin/room",
        &s,
        &room_form(&[("session_percent_bp", "4,99")]),
    )
    .await;
    assert_eq!(r.status, 422);
    assert_eq!(
        msg_at(&r.text(), "session_percent_bp"),
        "Must be between 5 % and 20 %."
    );
    assert_eq!(app.audit_count(), n);
}

#[actix_web::test]
async fn a_fractional_percent_is_stored_in_basis_points() {
    let app = TestApp::new().await;
    let s = app.web_login("admin", ADMIN_PW).await;
    let r = post(
        &app,
        "/admin/room",
        &s,
        &room_form(&[("session_percent_bp", "12,5"), ("rake_percent_bp", "2.25")]),
    )
    .await;
    assert_eq!(r.status, 303, "{}", r.text());
    let p = room(&app).profile;
    assert_eq!(p.session_percent_bp, 1250);
    assert_eq!(p.rake_percent_bp, 225);
    // Shown back as a percentage in the reader's language.
    let html = app.page("/admin/room", &s).await.text();
    assert_eq!(input_value(&html, "session_percent_bp"), "12.5");
    assert_eq!(input_value(&html, "rake_percent_bp"), "2.25");

    // More than two decimals, or text, is not a percentage: 422, never 400.
    let n = app.audit_count();
    for typed in ["12,555", "ten"] {
        let r = post(
            &app,
            "/admin/room",
            &s,
            &room_form(&[("session_percent_bp", typed)]),
        )
        .await;
        assert_eq!(r.status, 422, "{typed}");
        assert_eq!(
            msg_at(&r.text(), "session_percent_bp"),
            "Enter a whole number."
        );
    }
    assert_eq!(app.audit_count(), n);
    assert_eq!(room(&app).profile.session_percent_bp, 1250);
}

#[actix_web::test]
async fn an_unknown_time_zone_is_refused_next_to_the_field() {
    let app = TestApp::new().await;
    let s = app.web_login("admin", ADMIN_PW).await;
    let before = app.audit_count();
    let r = post(
        &app,
        "/admin/room",
        &s,
        &room_form(&[("timezone", "Mars/Olympus_Mons")]),
    )
    .await;
    assert_eq!(r.status, 422, "{}", r.text());
    let html = r.text();
    assert_eq!(
        msg_at(&html, "timezone"),
        "Unknown time zone: use a name like Europe/Lisbon."
    );
    assert_eq!(input_value(&html, "timezone"), "Mars/Olympus_Mons");
    assert_eq!(app.audit_count(), before);
    assert_eq!(room(&app).timezone, "Europe/Lisbon");
}

#[actix_web::test]
async fn bsop_38_high_limit_stay_shorter_than_mid_limit_is_refused() {
    let app = TestApp::new().await;
    let s = app.web_login("admin", ADMIN_PW).await;
    let before = (app.audit_count(), room(&app).profile);
    let r = post(
        &app,
        "/admin/room",
        &s,
        &room_form(&[("min_stay_mid_min", "90"), ("min_stay_high_min", "60")]),
    )
    .await;
    assert_eq!(r.status, 422, "{}", r.text());
    let html = r.text();
    assert_eq!(
        msg_at(&html, "min_stay_high_min"),
        "High-limit minimum stay cannot be shorter than mid-limit (BSOP 38)."
    );
    assert_eq!(field_error(&html, "min_stay_mid_min"), None);
    assert_eq!(input_value(&html, "min_stay_mid_min"), "90");
    assert_eq!(input_value(&html, "min_stay_high_min"), "60");
    assert_eq!((app.audit_count(), room(&app).profile), before);
    // Equal is fine.
    let r = post(
        &app,
        "/admin/room",
        &s,
        &room_form(&[("min_stay_mid_min", "90"), ("min_stay_high_min", "90")]),
    )
    .await;
    assert_eq!(r.status, 303, "{}", r.text());
    assert_eq!(room(&app).profile.min_stay_high_min, 90);
}

#[actix_web::test]
async fn room_form_text_in_a_number_box_is_a_422_not_a_400() {
    let app = TestApp::new().await;
    let s = app.web_login("admin", ADMIN_PW).await;
    let before = app.audit_count();
    let r = post(
        &app,
        "/admin/room",
        &s,
        &room_form(&[("min_players_to_run", "four"), ("absence_limit_min", "")]),
    )
    .await;
    assert_eq!(r.status, 422, "{}", r.text());
    let html = r.text();
    assert_eq!(msg_at(&html, "min_players_to_run"), "Enter a whole number.");
    assert_eq!(msg_at(&html, "absence_limit_min"), "Required.");
    assert_eq!(input_value(&html, "min_players_to_run"), "four");
    assert_eq!(app.audit_count(), before);
}

#[actix_web::test]
async fn switching_the_profile_with_every_row_confirmed_loads_its_defaults_and_keeps_the_room() {
    let app = TestApp::new().await;
    let s = app.web_login("admin", ADMIN_PW).await;
    let r = post(
        &app,
        "/admin/room",
        &s,
        &room_form(&[
            ("name", "Casino da Praia"),
            ("currency", "BRL"),
            ("session_percent_bp", "15"),
            ("return_window_min", "90"),
            ("join_at_average_session_only", "true"),
        ]),
    )
    .await;
    assert_eq!(r.status, 303, "{}", r.text());
    let p = room(&app).profile;
    assert_eq!(p.cagnotte_mode, CagnotteMode::PerSession);
    assert!(p.join_at_average_stack);
    // PT-2007 28 kept to session games: the room's choice, shown ticked.
    assert!(p.join_at_average_session_only);
    assert!(is_checked(
        &app.page("/admin/room", &s).await.text(),
        "join_at_average_session_only"
    ));

    let updates = actions_like(&app, "room.update");
    // Choosing BSOP lists what differs, each row ticked; confirming them all loads BSOP's
    // defaults.
    let html = app.page("/admin/room/profile?kind=bsop", &s).await.text();
    let rows = switch_rows(&html);
    assert!(rows.len() >= 5, "{rows:?}");
    let mut form: Vec<(&str, &str)> = vec![("kind", "bsop")];
    form.extend(rows.iter().map(|r| ("apply", r.as_str())));
    let r = app.post_form("/admin/room/profile", &s, &form).await;
    assert_eq!(r.status, 303, "{}", r.text());
    assert_eq!(r.header("location").as_deref(), Some("/admin/room"));
    let after = room(&app);
    assert_eq!(
        after.profile,
        cardroom::services::room::profile_defaults(cardroom::domain::profile::ProfileKind::Bsop)
    );
    assert_eq!(after.profile.cagnotte_mode, CagnotteMode::PerHand);
    assert!(!after.profile.join_at_average_stack);
    assert!(!after.profile.missed_blinds_dead);
    assert_eq!(after.profile.session_percent_bp, 1000);
    assert_eq!(after.profile.return_window_min, 60);
    // Name, zone, currency and language are kept.
    assert_eq!(
        (
            after.name.as_str(),
            after.currency.as_str(),
            after.timezone.as_str()
        ),
        ("Casino da Praia", "BRL", "Europe/Lisbon")
    );
    assert_eq!(actions_like(&app, "room.update"), updates + 1);
    let html = app.page("/admin/room", &s).await.text();
    assert_eq!(selected(&html, "kind").as_deref(), Some("bsop"));
    assert_eq!(
        selected(&html, "cagnotte_mode").as_deref(),
        Some("per_hand")
    );
    assert!(!is_checked(&html, "join_at_average_stack"));
    assert_eq!(input_value(&html, "name"), "Casino da Praia");

    // An unknown kind changes nothing.
    let n = app.audit_count();
    let r = app
        .post_form("/admin/room/profile", &s, &[("kind", "vegas")])
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
    assert_eq!(
        msg_at(&r.text(), "kind"),
        "“vegas” is not one of the choices."
    );
    assert_eq!(app.audit_count(), n);
    assert_eq!(
        room(&app).profile.kind,
        cardroom::domain::profile::ProfileKind::Bsop
    );
}

/// The settings listed on the profile switch's page (`<tr id="switch-…">`), in order.
pub fn switch_rows(html: &str) -> Vec<String> {
    html.split("<tr id=\"switch-")
        .skip(1)
        .map(|r| r[..r.find('"').unwrap()].to_string())
        .collect()
}

#[actix_web::test]
async fn room_refusal_is_shown_in_portuguese() {
    let app = TestApp::new().await;
    let s = app.web_login("admin", ADMIN_PW).await;
    let before = app.audit_count();
    let mut form: Vec<(String, String)> = vec![("csrf".into(), s.csrf.clone())];
    form.extend(
        room_form(&[("session_percent_bp", "21"), ("timezone", "Lua/Base")])
            .into_iter()
            .map(|(k, v)| (k.to_string(), v)),
    );
    let r = app
        .call(
            TestRequest::post()
                .uri("/admin/room")
                .cookie(s.c())
                .cookie(Cookie::new("cr_lang", "pt"))
                .insert_header(("accept-language", "en"))
                .set_form(form)
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
    let html = r.text();
    assert_eq!(
        msg_at(&html, "session_percent_bp"),
        "Deve estar entre 5 % e 20 %."
    );
    assert_eq!(
        msg_at(&html, "timezone"),
        "Fuso horário desconhecido: use um nome como Europe/Lisbon."
    );
    assert!(
        html.contains("Alguns campos precisam de atenção."),
        "{html}"
    );
    assert!(!html.contains("Must be between"), "no English left: {html}");
    assert_eq!(app.audit_count(), before);
}

// ---------------------------------------------------------------------------------------------
// Games
// ---------------------------------------------------------------------------------------------

#[actix_web::test]
async fn games_amounts_typed_either_way_are_stored_in_minor_units() {
    let app = TestApp::new().await;
    let s = app.web_login("admin", ADMIN_PW).await;
    let before = (app.audit_count(), actions_like(&app, "game.create"));
    create_game(
        &app,
        &s,
        &[
            ("name", "NL 2/5"),
            ("small_blind", "2"),
            ("big_blind", "5,00"),
            ("buy_in_min", "100"),
            ("buy_in_max", "1.000,00"),
        ],
    )
    .await;
    let g = &all_games(&app)[0];
    assert_eq!(
        (g.small_blind, g.big_blind, g.buy_in_min, g.buy_in_max),
        (200, 500, 10_000, Some(100_000))
    );
    assert_eq!(g.name, "NL 2/5");
    assert_eq!(g.seats, 10);
    // The cagnotte comes from the profile (pt-casino: per session, 10 %).
    assert_eq!(
        (g.cagnotte_mode.as_str(), g.cagnotte_bp),
        ("per_session", 1000)
    );
    assert!(g.active);
    assert_eq!(
        (app.audit_count(), actions_like(&app, "game.create")),
        (before.0 + 1, before.1 + 1)
    );

    let html = app.page("/admin/games", &s).await.text();
    let line = row(&html, &format!("game-{}", g.id));
    assert!(line.contains("NL 2/5"), "{line}");
    assert!(line.contains("€2.00 / €5.00"), "{line}");
    assert!(line.contains("€100.00 – €1,000.00"), "{line}");
    // The edit form gives the amounts back as typed in major units.
    let edit = app.page(&format!("/admin/games/{}", g.id), &s).await.text();
    assert_eq!(input_value(&edit, "small_blind"), "2");
    assert_eq!(input_value(&edit, "big_blind"), "5");
    assert_eq!(input_value(&edit, "buy_in_max"), "1000");
}

#[actix_web::test]
async fn games_empty_seats_take_the_variants_default() {
    let app = TestApp::new().await;
    let s = app.web_login("admin", ADMIN_PW).await;
    for (name, variant) in [
        ("Hold'em", "holdem_nl"),
        ("Short deck", "short_deck_holdem"),
        ("Synthetic", "synthetic"),
    ] {
        create_game(
            &app,
            &s,
            &[("name", name), ("variant", variant), ("seats", "")],
        )
        .await;
    }
    let seats: Vec<(String, i32)> = all_games(&app)
        .into_iter()
        .map(|g| (g.variant, g.seats))
        .collect();
    assert_eq!(
        seats,
        vec![
            ("holdem_nl".to_string(), 10),
            ("short_deck_holdem".to_string(), 9),
            ("synthetic".to_string(), 11)
        ]
    );
}

#[actix_web::test]
async fn games_refusals_are_422_next_to_the_field_and_change_nothing() {
    let app = TestApp::new().await;
    let s = app.web_login("admin", ADMIN_PW).await;
    let before = (app.audit_count(), app.count("games"));

    // Text in a number box: 422 (never 400), the text kept.
    let r = post(
        &app,
        "/admin/games",
        &s,
        &game_form(&[("seats", "ten"), ("small_blind", "one euro")]),
    )
    .await;
    assert_eq!(r.status, 422, "{}", r.text());
    let html = r.text();
    assert_eq!(msg_at(&html, "seats"), "Enter a whole number.");
    assert_eq!(msg_at(&html, "small_blind"), "Enter an amount, e.g. 2.50.");
    assert_eq!(input_value(&html, "seats"), "ten");
    assert_eq!(input_value(&html, "small_blind"), "one euro");
    assert_eq!(input_value(&html, "name"), "NL 1/2");

    // Big blind below the small blind.
    let r = post(
        &app,
        "/admin/games",
        &s,
        &game_form(&[("small_blind", "5"), ("big_blind", "2")]),
    )
    .await;
    assert_eq!(r.status, 422, "{}", r.text());
    let html = r.text();
    assert_eq!(
        msg_at(&html, "big_blind"),
        "The big blind cannot be smaller than the small blind."
    );
    assert_eq!(field_error(&html, "small_blind"), None);
    assert_eq!(input_value(&html, "big_blind"), "2");

    // PT-2007 7b: per session, 5 % to 20 %.
    let r = post(
        &app,
        "/admin/games",
        &s,
        &game_form(&[("cagnotte_mode", "per_session"), ("cagnotte_bp", "25")]),
    )
    .await;
    assert_eq!(r.status, 422, "{}", r.text());
    let html = r.text();
    assert_eq!(
        msg_at(&html, "cagnotte_bp"),
        "Between 5 % and 20 % for this mode (PT-2007 7)."
    );
    assert_eq!(input_value(&html, "cagnotte_bp"), "25");
    assert_eq!(
        selected(&html, "cagnotte_mode").as_deref(),
        Some("per_session")
    );

    // PT-2007 7a: per hand, up to 5 %.
    let r = post(
        &app,
        "/admin/games",
        &s,
        &game_form(&[("cagnotte_mode", "per_hand"), ("cagnotte_bp", "6")]),
    )
    .await;
    assert_eq!(r.status, 422, "{}", r.text());
    assert_eq!(
        msg_at(&r.text(), "cagnotte_bp"),
        "Between 0 % and 5 % for this mode (PT-2007 7)."
    );

    // Seats above the variant's maximum (BSOP 92: short deck Hold'em at most 9).
    let r = post(
        &app,
        "/admin/games",
        &s,
        &game_form(&[("variant", "short_deck_holdem"), ("seats", "10")]),
    )
    .await;
    assert_eq!(r.status, 422, "{}", r.text());
    assert_eq!(
        msg_at(&r.text(), "seats"),
        "Between 2 and 9 seats for this game."
    );

    assert_eq!((app.audit_count(), app.count("games")), before);
}

#[actix_web::test]
async fn a_game_can_be_edited_and_deactivated() {
    let app = TestApp::new().await;
    let s = app.web_login("admin", ADMIN_PW).await;
    create_game(
        &app,
        &s,
        &[
            ("name", "PLO 1/1"),
            ("variant", "plo"),
            ("small_blind", "1"),
            ("big_blind", "1"),
        ],
    )
    .await;
    let id = all_games(&app)[0].id;
    let edit = app.page(&format!("/admin/games/{id}"), &s).await;
    assert_eq!(edit.status, 200);
    assert!(is_checked(&edit.text(), "active"));

    // The box unticked: the game is inactive; the other changes are kept.
    let updates = actions_like(&app, "game.update");
    let r = post(
        &app,
        &format!("/admin/games/{id}"),
        &s,
        &game_form(&[
            ("name", "PLO 1/2"),
            ("variant", "plo"),
            ("big_blind", "2"),
            ("seats", "9"),
            ("active", ""),
        ]),
    )
    .await;
    assert_eq!(r.status, 303, "{}", r.text());
    assert_eq!(r.header("location"), Some(format!("/admin/games/{id}")));
    let g = &all_games(&app)[0];
    assert!(!g.active);
    assert_eq!((g.name.as_str(), g.big_blind, g.seats), ("PLO 1/2", 200, 9));
    assert_eq!(actions_like(&app, "game.update"), updates + 1);

    let list = app.page("/admin/games", &s).await.text();
    let line = row(&list, &format!("game-{id}"));
    assert!(
        line.contains("badge-muted") && line.contains("Inactive"),
        "{line}"
    );
    assert!(!line.contains("badge-ok"), "{line}");
    assert!(!is_checked(
        &app.page(&format!("/admin/games/{id}"), &s).await.text(),
        "active"
    ));

    // A refused edit shows the edit form again and changes nothing.
    let n = app.audit_count();
    let r = post(
        &app,
        &format!("/admin/games/{id}"),
        &s,
        &game_form(&[("variant", "plo"), ("buy_in_min", "")]),
    )
    .await;
    assert_eq!(r.status, 422, "{}", r.text());
    assert_eq!(msg_at(&r.text(), "buy_in_min"), "Required.");
    assert_eq!(app.audit_count(), n);
    assert_eq!(all_games(&app)[0].name, "PLO 1/2");
}

// ---------------------------------------------------------------------------------------------
// Tables
// ---------------------------------------------------------------------------------------------

#[actix_web::test]
async fn tables_create_conflict_and_seat_limits() {
    let app = TestApp::new().await;
    let s = app.web_login("admin", ADMIN_PW).await;
    create_game(&app, &s, &[("name", "NL Hold'em 1/2")]).await;
    let gid = all_games(&app)[0].id.to_string();

    let r = app
        .post_form(
            "/admin/tables",
            &s,
            &[
                ("number", "1"),
                ("seats", ""),
                ("game_id", &gid),
                ("mode", "continuous"),
            ],
        )
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    assert_eq!(r.header("location").as_deref(), Some("/admin/tables"));
    let (tid, seats, game_id): (i64, i32, Option<i64>) = app.with_conn(|c| {
        card_tables::table
            .filter(card_tables::number.eq(1))
            .select((card_tables::id, card_tables::seats, card_tables::game_id))
            .first(c)
            .unwrap()
    });
    assert_eq!(seats, 10, "the game's seats");
    assert_eq!(game_id, Some(gid.parse().unwrap()));
    let html = app.page("/admin/tables", &s).await.text();
    let line = row(&html, &format!("table-{tid}"));
    assert!(
        line.contains(&format!(
            "<a href=\"/admin/games/{gid}\">NL Hold&#39;em 1/2</a>"
        )),
        "{line}"
    );
    // The next free number is offered.
    assert_eq!(input_value(&html, "number"), "2");

    let before = (app.audit_count(), app.count("card_tables"));
    // The same number again: a conflict above the form.
    let r = app
        .post_form(
            "/admin/tables",
            &s,
            &[
                ("number", "1"),
                ("seats", "8"),
                ("game_id", &gid),
                ("mode", "continuous"),
            ],
        )
        .await;
    assert_eq!(r.status, 409, "{}", r.text());
    let html = r.text();
    assert_eq!(
        form_problem(&html).as_deref(),
        Some("Table 1 already exists.")
    );
    assert_eq!(input_value(&html, "seats"), "8");

    // More seats than NL Hold'em allows.
    let r = app
        .post_form(
            "/admin/tables",
            &s,
            &[
                ("number", "2"),
                ("seats", "12"),
                ("game_id", &gid),
                ("mode", "continuous"),
            ],
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
    let html = r.text();
    assert_eq!(
        msg_at(&html, "seats"),
        "Between 2 and 10 seats for this game."
    );
    assert_eq!(input_value(&html, "seats"), "12");
    assert_eq!(selected(&html, "game_id").as_deref(), Some(gid.as_str()));

    // Text in the number box.
    let r = app
        .post_form(
            "/admin/tables",
            &s,
            &[
                ("number", "two"),
                ("seats", ""),
                ("game_id", &gid),
                ("mode", "continuous"),
            ],
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
    assert_eq!(msg_at(&r.text(), "number"), "Enter a whole number.");

    assert_eq!((app.audit_count(), app.count("card_tables")), before);
}

// ---------------------------------------------------------------------------------------------
// Staff
// ---------------------------------------------------------------------------------------------

const FLOOR_PW: &str = "floor-password-2026";

fn staff_row(app: &TestApp, name: &str) -> (i64, String, bool) {
    let n = name.to_string();
    app.with_conn(|c| {
        staff::table
            .filter(staff::username.eq(n))
            .select((staff::id, staff::role, staff::active))
            .first(c)
            .unwrap()
    })
}

#[actix_web::test]
async fn a_new_floor_manager_signs_in_but_cannot_reach_admin_pages() {
    let app = TestApp::new().await;
    let s = app.web_login("admin", ADMIN_PW).await;
    let r = app
        .post_form(
            "/admin/staff",
            &s,
            &[
                ("username", "marta.floor"),
                ("display_name", "Marta Sousa"),
                ("role", "floor"),
                ("password", FLOOR_PW),
            ],
        )
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    let (id, role, active) = staff_row(&app, "marta.floor");
    assert_eq!((role.as_str(), active), ("floor", true));
    let list = app.page("/admin/staff", &s).await.text();
    assert!(row(&list, &format!("staff-{id}")).contains("Marta Sousa"));

    let f = app.web_login("marta.floor", FLOOR_PW).await;
    assert_eq!(app.page("/players", &f).await.status, 200);
    for uri in ["/admin/room", "/admin/staff", "/admin/audit"] {
        assert_eq!(app.page(uri, &f).await.status, 403, "{uri}");
    }
    // Nor post to them.
    let n = app.audit_count();
    let r = post(
        &app,
        "/admin/room",
        &f,
        &room_form(&[("name", "Taken over")]),
    )
    .await;
    assert_eq!(r.status, 403);
    assert_eq!(app.audit_count(), n);
    assert_eq!(room(&app).name, "Cardroom");
}

#[actix_web::test]
async fn staff_refusals_taken_username_and_short_password() {
    let app = TestApp::new().await;
    let s = app.web_login("admin", ADMIN_PW).await;
    app.create_staff("rui", "dealer");
    let before = (app.audit_count(), app.count("staff"));

    let r = app
        .post_form(
            "/admin/staff",
            &s,
            &[
                ("username", "Rui"),
                ("display_name", "Rui Two"),
                ("role", "floor"),
                ("password", FLOOR_PW),
            ],
        )
        .await;
    assert_eq!(r.status, 409, "{}", r.text());
    let html = r.text();
    assert_eq!(
        form_problem(&html).as_deref(),
        Some("The username rui is taken.")
    );
    assert_eq!(input_value(&html, "display_name"), "Rui Two");
    // The password is never sent back.
    assert!(!html.contains(FLOOR_PW));

    let r = app
        .post_form(
            "/admin/staff",
            &s,
            &[
                ("username", "ana"),
                ("display_name", "Ana"),
                ("role", "cashier"),
                ("password", "short"),
            ],
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
    let html = r.text();
    assert_eq!(msg_at(&html, "password"), "At least 10 characters.");
    assert_eq!(input_value(&html, "username"), "ana");
    assert_eq!(selected(&html, "role").as_deref(), Some("cashier"));

    assert_eq!((app.audit_count(), app.count("staff")), before);
}

#[actix_web::test]
async fn the_admin_cannot_deactivate_or_demote_themselves() {
    let app = TestApp::new().await;
    let s = app.web_login("admin", ADMIN_PW).await;
    let (me, _, _) = staff_row(&app, "admin");
    let uri = format!("/admin/staff/{me}");
    let before = app.audit_count();
    for form in [
        vec![
            ("display_name", "Administrator"),
            ("role", "admin"),
            ("password", ""),
        ],
        vec![
            ("display_name", "Administrator"),
            ("role", "floor"),
            ("password", ""),
            ("active", "true"),
        ],
    ] {
        let r = app.post_form(&uri, &s, &form).await;
        assert_eq!(r.status, 409, "{form:?}: {}", r.text());
        assert_eq!(
            form_problem(&r.text()).as_deref(),
            Some("You cannot remove your own admin role or deactivate yourself.")
        );
    }
    assert_eq!(staff_row(&app, "admin"), (me, "admin".to_string(), true));
    assert_eq!(app.audit_count(), before);
    // Still an admin, still signed in.
    assert_eq!(app.page("/admin/room", &s).await.status, 200);
}

#[actix_web::test]
async fn deactivating_a_user_ends_their_session() {
    let app = TestApp::new().await;
    let s = app.web_login("admin", ADMIN_PW).await;
    app.create_staff("joana", "floor");
    let f = app.web_login("joana", STAFF_PW).await;
    assert_eq!(app.page("/players", &f).await.status, 200);
    let (id, _, _) = staff_row(&app, "joana");

    let r = app
        .post_form(
            &format!("/admin/staff/{id}"),
            &s,
            &[
                ("display_name", "Joana"),
                ("role", "floor"),
                ("password", ""),
            ],
        )
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    assert_eq!(staff_row(&app, "joana"), (id, "floor".to_string(), false));
    let list = app.page("/admin/staff", &s).await.text();
    assert!(row(&list, &format!("staff-{id}")).contains("Inactive"));

    let r = app.page("/players", &f).await;
    assert_eq!(r.status, 303);
    assert!(
        r.header("location").unwrap().starts_with("/login"),
        "{:?}",
        r.header("location")
    );
}

// ---------------------------------------------------------------------------------------------
// Audit trail
// ---------------------------------------------------------------------------------------------

/// A few changes of different kinds: two games, one edit, a table, the room.
async fn some_changes(app: &TestApp, s: &WebSession) {
    create_game(app, s, &[("name", "NL 1/2")]).await;
    create_game(
        app,
        s,
        &[("name", "NL 2/5"), ("small_blind", "2"), ("big_blind", "5")],
    )
    .await;
    let r = post(
        app,
        "/admin/games/1",
        s,
        &game_form(&[("name", "NL 1/2 deep"), ("active", "true")]),
    )
    .await;
    assert_eq!(r.status, 303, "{}", r.text());
    let r = app
        .post_form(
            "/admin/tables",
            s,
            &[
                ("number", "4"),
                ("seats", ""),
                ("game_id", "1"),
                ("mode", "session"),
            ],
        )
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    let r = post(
        app,
        "/admin/room",
        s,
        &room_form(&[("name", "Audited room")]),
    )
    .await;
    assert_eq!(r.status, 303, "{}", r.text());
}

#[actix_web::test]
async fn the_audit_page_filters_by_action_prefix() {
    let app = TestApp::new().await;
    let s = app.web_login("admin", ADMIN_PW).await;
    some_changes(&app, &s).await;

    let r = app.page("/admin/audit?action=game.", &s).await;
    assert_eq!(r.status, 200);
    let html = r.text();
    let actions = listed_actions(&html);
    assert_eq!(
        actions,
        vec!["game.update", "game.create", "game.create"],
        "{html}"
    );
    assert_eq!(actions.len() as i64, actions_like(&app, "game."));
    assert_eq!(input_value(&html, "action"), "game.");

    // Without a filter every kind is there, newest first.
    let all = listed_actions(&app.page("/admin/audit", &s).await.text());
    assert_eq!(all.len() as i64, app.audit_count());
    assert_eq!(all.first().map(String::as_str), Some("room.update"));
    assert!(all.iter().any(|a| a == "table.create"));

    // By subject.
    let one = listed_actions(
        &app.page("/admin/audit?subject_kind=game&subject_id=1", &s)
            .await
            .text(),
    );
    assert_eq!(one, vec!["game.update", "game.create"]);
}

#[actix_web::test]
async fn a_bad_audit_filter_is_a_422_with_a_message() {
    let app = TestApp::new().await;
    let s = app.web_login("admin", ADMIN_PW).await;
    let r = app.page("/admin/audit?subject_id=abc", &s).await;
    assert_eq!(r.status, 422, "{}", r.text());
    let html = r.text();
    assert_eq!(msg_at(&html, "subject_id"), "Enter a whole number.");
    assert!(html.contains("Some filters are not valid:"));
    assert!(html.contains("id=\"no-audit\""));
    assert_eq!(input_value(&html, "subject_id"), "abc");

    for (q, field, msg) in [
        ("limit=500", "limit", "Must be between 1 and 200."),
        ("from=yesterday", "from", "Enter a date as YYYY-MM-DD."),
        (
            "subject_kind=planet",
            "subject_kind",
            "“planet” is not one of the choices.",
        ),
    ] {
        let r = app.page(&format!("/admin/audit?{q}"), &s).await;
        assert_eq!(r.status, 422, "{q}: {}", r.text());
        assert_eq!(msg_at(&r.text(), field), msg, "{q}");
    }
}

#[actix_web::test]
async fn audit_verify_reports_an_intact_chain_then_names_the_tampered_record() {
    let app = TestApp::new().await;
    let s = app.web_login("admin", ADMIN_PW).await;
    some_changes(&app, &s).await;
    let n = app.audit_count();
    assert!(n >= 3);

    let r = app.page("/admin/audit/verify", &s).await;
    assert_eq!(r.status, 200);
    let html = r.text();
    assert!(html.contains("id=\"audit-verify-result\""), "{html}");
    assert!(
        html.contains(&format!("Chain intact: {n} records verified.")),
        "{html}"
    );

    // Record 3 is changed behind the application's back.
    let backend = app.state.db.backend;
    app.with_conn(|c| {
        let unlock = match backend {
            cardroom::db::Backend::Sqlite => "DROP TRIGGER audit_log_no_update",
            cardroom::db::Backend::Postgres => {
                "ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_update"
            }
        };
        diesel::sql_query(unlock).execute(c).unwrap();
        let changed = diesel::sql_query("UPDATE audit_log SET after_json = '{}' WHERE seq = 3")
            .execute(c)
            .unwrap();
        assert_eq!(changed, 1);
    });

    let r = app.page("/admin/audit/verify", &s).await;
    assert_eq!(r.status, 200);
    let html = r.text();
    let i = html
        .find("id=\"audit-verify-result\"")
        .unwrap_or_else(|| panic!("{html}"));
    let result = &html[i..];
    assert!(
        result.contains("The chain is broken at record 3."),
        "{result}"
    );
    assert!(result.contains("The record&#39;s content does not match its hash: it was changed after it was written."), "{result}");
    assert!(result.contains("2 records before it verified."), "{result}");
    assert!(!html.contains("Chain intact"));
    // The link to the records around it shows record 3 (and those before it).
    assert!(
        result.contains("href=\"/admin/audit?before_seq=4\""),
        "{result}"
    );
    let around = app.page("/admin/audit?before_seq=4", &s).await.text();
    assert!(
        around.contains("<tr id=\"audit-3\">") && !around.contains("<tr id=\"audit-4\">"),
        "{around}"
    );
    // In Portuguese too.
    let pt = page_pt(&app, "/admin/audit/verify", &s).await.text();
    assert!(
        pt.contains("A cadeia está quebrada no registo n.º 3."),
        "{pt}"
    );
}

#[actix_web::test]
async fn portuguese_pages_show_percentages_and_amounts_with_a_comma_and_take_them_back() {
    let app = TestApp::new().await;
    let s = app.web_login("admin", ADMIN_PW).await;
    let r = post(
        &app,
        "/admin/room",
        &s,
        &room_form(&[("session_percent_bp", "12.5")]),
    )
    .await;
    assert_eq!(r.status, 303, "{}", r.text());
    let html = page_pt(&app, "/admin/room", &s).await.text();
    assert_eq!(input_value(&html, "session_percent_bp"), "12,5");
    assert!(
        html.contains("Permitido: de 5 % a 20 %."),
        "range hint in pt"
    );
    assert!(
        html.contains("Permitido: de 0 % a 5 %."),
        "range hint in pt"
    );

    create_game(
        &app,
        &s,
        &[
            ("name", "NL 1,25/2,50"),
            ("small_blind", "1.25"),
            ("big_blind", "2.50"),
            ("buy_in_max", "1000.50"),
        ],
    )
    .await;
    let html = page_pt(&app, "/admin/games/1", &s).await.text();
    assert_eq!(input_value(&html, "small_blind"), "1,25");
    assert_eq!(input_value(&html, "big_blind"), "2,50");
    assert_eq!(input_value(&html, "buy_in_max"), "1000,50");
    // The game took the profile's per-session percentage (12.5 %), shown the Portuguese way.
    assert_eq!(input_value(&html, "cagnotte_bp"), "12,5");
    // Saving the Portuguese form as shown keeps the amounts.
    let r = post(
        &app,
        "/admin/games/1",
        &s,
        &game_form(&[
            ("name", "NL 1,25/2,50"),
            ("small_blind", "1,25"),
            ("big_blind", "2,50"),
            ("buy_in_max", "1000,50"),
            ("active", "true"),
        ]),
    )
    .await;
    assert_eq!(r.status, 303, "{}", r.text());
    let g = &all_games(&app)[0];
    assert_eq!(
        (g.small_blind, g.big_blind, g.buy_in_max),
        (125, 250, Some(100_050))
    );
    let list = page_pt(&app, "/admin/games", &s).await.text();
    assert!(
        row(&list, "game-1").contains("1,25 € / 2,50 €"),
        "{}",
        row(&list, "game-1")
    );
}

#[actix_web::test]
async fn the_audit_page_goes_back_page_by_page_with_the_same_filter() {
    let app = TestApp::new().await;
    let s = app.web_login("admin", ADMIN_PW).await;
    some_changes(&app, &s).await;
    let html = app
        .page("/admin/audit?action=game.&limit=2", &s)
        .await
        .text();
    assert_eq!(listed_actions(&html), vec!["game.update", "game.create"]);
    let marker = "id=\"audit-older\" href=\"";
    let i = html
        .find(marker)
        .unwrap_or_else(|| panic!("older link: {html}"))
        + marker.len();
    let href = html[i..i + html[i..].find('"').unwrap()]
        .replace("&#38;", "&")
        .replace("&amp;", "&");
    let older = app.page(&href, &s).await;
    assert_eq!(older.status, 200, "{href}");
    let html = older.text();
    assert_eq!(listed_actions(&html), vec!["game.create"], "{href}");
    assert!(!html.contains("id=\"audit-older\""));
    // The actor filter ignores case.
    let mine = listed_actions(&app.page("/admin/audit?actor=ADMIN", &s).await.text());
    // The five changes and the sign-in.
    assert_eq!(mine.len(), 6);
}

#[actix_web::test]
async fn the_audit_page_filters_by_dates_in_the_rooms_zone() {
    let app = TestApp::new().await;
    let s = app.web_login("admin", ADMIN_PW).await;
    some_changes(&app, &s).await;
    // The days (in the room's zone, Lisbon) of the first and the last record.
    let (first, last): (chrono::NaiveDateTime, chrono::NaiveDateTime) = app.with_conn(|c| {
        let mut at = |desc: bool| {
            let q = audit_log::table.select(audit_log::at).into_boxed();
            let q = if desc {
                q.order(audit_log::seq.desc())
            } else {
                q.order(audit_log::seq.asc())
            };
            q.first::<chrono::NaiveDateTime>(c).unwrap()
        };
        (at(false), at(true))
    });
    let day = |t: chrono::NaiveDateTime| {
        cardroom::domain::age::room_date(t.and_utc(), chrono_tz::Europe::Lisbon)
    };
    let (first_day, yesterday, tomorrow) = (
        day(first),
        day(first).pred_opt().unwrap(),
        day(last).succ_opt().unwrap(),
    );
    let n = app.audit_count() as usize;
    // "Until" a date includes that whole day.
    let q = |from: chrono::NaiveDate, to: chrono::NaiveDate| {
        format!("/admin/audit?from={from}&to={to}&limit=200")
    };
    assert_eq!(
        listed_actions(&app.page(&q(first_day, day(last)), &s).await.text()).len(),
        n
    );
    assert_eq!(
        listed_actions(&app.page(&q(yesterday, yesterday), &s).await.text()).len(),
        0
    );
    assert_eq!(
        listed_actions(&app.page(&q(tomorrow, tomorrow), &s).await.text()).len(),
        0
    );
    let html = app.page(&q(yesterday, yesterday), &s).await.text();
    assert!(html.contains("id=\"no-audit\""));
}

#[actix_web::test]
async fn editing_a_table_and_changing_a_role() {
    let app = TestApp::new().await;
    let s = app.web_login("admin", ADMIN_PW).await;
    create_game(&app, &s, &[("name", "NL")]).await;
    create_game(
        &app,
        &s,
        &[("name", "Short"), ("variant", "short_deck_holdem")],
    )
    .await;
    for n in ["1", "2"] {
        let r = app
            .post_form(
                "/admin/tables",
                &s,
                &[
                    ("number", n),
                    ("seats", ""),
                    ("game_id", "1"),
                    ("mode", "continuous"),
                ],
            )
            .await;
        assert_eq!(r.status, 303, "{}", r.text());
    }
    let n = app.audit_count();
    // Table 2 cannot take number 1; nor 10 seats with a short deck game.
    let r = app
        .post_form(
            "/admin/tables/2",
            &s,
            &[
                ("number", "1"),
                ("seats", "10"),
                ("game_id", "1"),
                ("mode", "continuous"),
                ("active", "true"),
            ],
        )
        .await;
    assert_eq!(r.status, 409, "{}", r.text());
    assert_eq!(
        form_problem(&r.text()).as_deref(),
        Some("Table 1 already exists.")
    );
    let r = app
        .post_form(
            "/admin/tables/2",
            &s,
            &[
                ("number", "2"),
                ("seats", "10"),
                ("game_id", "2"),
                ("mode", "continuous"),
                ("active", "true"),
            ],
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
    assert_eq!(
        msg_at(&r.text(), "seats"),
        "Between 2 and 9 seats for this game."
    );
    assert_eq!(app.audit_count(), n);
    let r = app
        .post_form(
            "/admin/tables/2",
            &s,
            &[
                ("number", "7"),
                ("seats", "8"),
                ("game_id", "2"),
                ("mode", "session"),
            ],
        )
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    let t: (i32, i32, Option<i64>, String, bool) = app.with_conn(|c| {
        card_tables::table
            .find(2i64)
            .select((
                card_tables::number,
                card_tables::seats,
                card_tables::game_id,
                card_tables::mode,
                card_tables::active,
            ))
            .first(c)
            .unwrap()
    });
    assert_eq!(t, (7, 8, Some(2), "session".to_string(), false));

    // A role change ends the person's sessions; a new password too, and it works.
    app.create_staff("pedro", "floor");
    let (id, _, _) = staff_row(&app, "pedro");
    let p = app.web_login("pedro", STAFF_PW).await;
    let r = app
        .post_form(
            &format!("/admin/staff/{id}"),
            &s,
            &[
                ("display_name", "Pedro"),
                ("role", "dealer"),
                ("password", ""),
                ("active", "true"),
            ],
        )
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    assert_eq!(app.page("/", &p).await.status, 303);
    let p = app.web_login("pedro", STAFF_PW).await;
    assert_eq!(
        app.page("/players", &p).await.status,
        403,
        "a dealer does not see the registry"
    );
    let r = app
        .post_form(
            &format!("/admin/staff/{id}"),
            &s,
            &[
                ("display_name", "Pedro"),
                ("role", "dealer"),
                ("password", "brand-new-password"),
                ("active", "true"),
            ],
        )
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    assert_eq!(app.page("/", &p).await.status, 303);
    app.web_login("pedro", "brand-new-password").await;
    // Refusals on the edit form.
    let n = app.audit_count();
    let r = app
        .post_form(
            &format!("/admin/staff/{id}"),
            &s,
            &[
                ("display_name", ""),
                ("role", "boss"),
                ("password", "short"),
                ("active", "true"),
            ],
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
    let html = r.text();
    assert_eq!(msg_at(&html, "display_name"), "Required.");
    assert_eq!(msg_at(&html, "role"), "“boss” is not one of the choices.");
    assert_eq!(msg_at(&html, "password"), "At least 10 characters.");
    assert_eq!(app.audit_count(), n);
}

/// Four digits after the last separator are neither cents nor a group of thousands: such an
/// amount is refused, not read as a thousand times the amount ("5,0000" is not €50 000).
/// Fails today: `parse_money` (src/domain/money.rs) treats any tail that is not 1-2 digits
/// as a thousands group.
#[actix_web::test]
async fn games_amounts_that_are_neither_cents_nor_thousands_are_refused() {
    let app = TestApp::new().await;
    let s = app.web_login("admin", ADMIN_PW).await;
    let before = (app.audit_count(), app.count("games"));
    for typed in ["5,0000", "12.3456"] {
        let r = post(
            &app,
            "/admin/games",
            &s,
            &game_form(&[("small_blind", "1"), ("big_blind", typed)]),
        )
        .await;
        let stored: Vec<i64> = all_games(&app).iter().map(|g| g.big_blind).collect();
        assert_eq!(
            r.status, 422,
            "big blind typed {typed:?} was accepted; stored big blinds (cents): {stored:?}"
        );
        let html = r.text();
        assert_eq!(
            msg_at(&html, "big_blind"),
            "Enter an amount, e.g. 2.50.",
            "{typed}"
        );
        assert_eq!(input_value(&html, "big_blind"), typed);
    }
    assert_eq!((app.audit_count(), app.count("games")), before);
}
