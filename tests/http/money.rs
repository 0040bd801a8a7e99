//! Money is bounded and sums never wrap: every amount the API, the pages and the
//! tablet accept has a range (`domain::money`), outside it the answer is 422 naming the field
//! with the range in the room's currency, and nothing changes (no row, no audit record); the
//! reports add with checked arithmetic, so report totals equal the sum of their parts for any
//! amounts in range (a property test) and rows stored before the bounds give a 409 that says
//! so, never a wrapped negative. Invalid UTF-8 in a registration text field is
//! that field's refusal (not "photo too large"); resolving custody checks the role first.

use crate::pages::{eligible_players, nl_game};
use crate::support::*;
use actix_web::test::TestRequest;
use cardroom::db::models::{CagnotteDueRow, CagnotteSessionRow, CommissionRow, HandRow};
use cardroom::db::models::{DropBoxRow, SeatingRow, TipRow};
use cardroom::db::schema::{
    buyins, cagnotte_dues, cagnotte_sessions, chip_custody, commissions, drop_boxes, games, hands,
    players, seatings, tips,
};
use cardroom::domain::ids::GameId;
use cardroom::domain::ids::PlayerId;
use cardroom::domain::ids::SeatingId;
use cardroom::domain::ids::TableId;
use cardroom::domain::money;
use cardroom::services::reports::{self, Figures, Filter, Period};
use chrono::{Duration, NaiveDate, NaiveDateTime, NaiveTime};
use diesel::prelude::*;
use proptest::prelude::*;
use serde_json::{json, Value};

/// NL €1/€2 billed per hand at 5 %, maximum buy-in €200: its stacks go up to 100 × €200.
fn hand_game() -> Value {
    json!({"name": "NL 1/2 rake", "variant": "holdem_nl", "small_blind": 100, "big_blind": 200,
        "limit_class": "low", "buy_in_min": 4000, "buy_in_max": 20000,
        "cagnotte_mode": "per_hand", "cagnotte_bp": 500})
}

const GAME_MAX: i64 = 20_000;

struct Room {
    app: TestApp,
    admin: String,
    dealer: String,
    seating: i64,
}

/// Table 1 (the game above) open, four players seated with €100 each, one hand dealt; table 2
/// of the same game; a 13-card table 3.
async fn room() -> Room {
    let app = TestApp::new().await;
    let admin = app.admin_token().await;
    let r = app
        .send_json("POST", "/api/v1/games", &admin, hand_game())
        .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let thirteen = json!({"name": "13 cartas", "variant": "thirteen_cards", "small_blind": 0,
        "big_blind": 0, "limit_class": "low", "buy_in_min": 1000, "buy_in_max": 100000,
        "cagnotte_mode": "per_hand", "cagnotte_bp": 0});
    let r = app
        .send_json("POST", "/api/v1/games", &admin, thirteen)
        .await;
    assert_eq!(r.status, 201, "{}", r.text());
    for (n, g) in [(1, 1), (2, 1), (3, 2)] {
        let t = json!({"number": n, "game_id": g, "mode": "continuous"});
        let r = app.send_json("POST", "/api/v1/tables", &admin, t).await;
        assert_eq!(r.status, 201, "{}", r.text());
        let r = app
            .send_json(
                "POST",
                &format!("/api/v1/tables/{n}/open"),
                &admin,
                json!({}),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.text());
    }
    let dealer = app.staff_token("dealer1", "dealer").await;
    // Dealers act at their own table: the floor assigns this one to table 1.
    app.assign_dealer(&dealer, 1).await;
    // Four: no hand is dealt below the profile's minimum to run (PT-2007 24).
    let p = eligible_players(&app, 4);
    let mut seatings = Vec::new();
    for (i, player) in p.iter().enumerate() {
        let r = app
            .send_json(
                "POST",
                &format!("/api/v1/tables/1/seats/{}", i + 1),
                &admin,
                json!({ "player_id": player }),
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.text());
        let seating = r.json()["id"].as_i64().unwrap();
        let r = app
            .send_json(
                "POST",
                &format!("/api/v1/seatings/{seating}/chips"),
                &dealer,
                json!({ "amount": 10_000 }),
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.text());
        seatings.push(seating);
    }
    let seating = seatings[0];
    let r = app
        .send_json("POST", "/api/v1/tables/1/hands", &dealer, json!({}))
        .await;
    assert_eq!(r.status, 201, "{}", r.text());
    Room {
        app,
        admin,
        dealer,
        seating,
    }
}

/// What a refusal must leave as it was: every row amounts are written to, the seat's chips and
/// the audit trail.
fn snapshot(app: &TestApp, seating: i64) -> Vec<i64> {
    let (stack, bought): (i64, i64) = app.with_conn(|c| {
        seatings::table
            .find(seating)
            .select((seatings::stack, seatings::bought_in))
            .first(c)
            .unwrap()
    });
    let pot: Option<i64> = app.with_conn(|c| {
        hands::table
            .order(hands::id.desc())
            .select(hands::pot)
            .first(c)
            .unwrap()
    });
    vec![
        app.audit_count(),
        app.count("tips"),
        app.count("drop_boxes"),
        app.count("commissions"),
        app.count("buyins"),
        app.count("chip_custody"),
        app.count("games"),
        app.count("hands"),
        stack,
        bought,
        pot.unwrap_or(-1),
    ]
}

/// A 422 on `field` saying the range (code `amount_range`, message with the currency).
fn assert_out_of_range(r: &Resp, field: &str, what: &str) {
    assert_eq!(r.status, 422, "{what}: {}", r.text());
    let j = r.json();
    assert_eq!(j["error"]["code"], "validation_failed", "{what}: {j}");
    let f = &j["error"]["fields"][0];
    assert_eq!(f["field"], field, "{what}: {j}");
    assert_eq!(f["code"], "amount_range", "{what}: {j}");
    let m = f["message"].as_str().unwrap_or_default();
    assert!(
        m.starts_with("Enter an amount from €") && m.contains(" to €"),
        "{what}: {m}"
    );
}

#[actix_web::test]
async fn amounts_of_2_pow_63_are_refused_naming_the_field_and_change_nothing() {
    let r = room().await;
    let (app, s) = (&r.app, r.seating);
    // The 13-card table has a dealer of its own (a dealer deals at one table at a time).
    let dealer3 = app.staff_token("dealer3", "dealer").await;
    app.assign_dealer(&dealer3, 3).await;
    let before = snapshot(app, s);
    let huge = i64::MAX;
    let stack_max = money::STACK_BUYINS_MAX * GAME_MAX;
    let cases: Vec<(String, Value, &str)> = vec![
        // The worked examples.
        (
            "/api/v1/tables/1/tips".into(),
            json!({ "amount": huge }),
            "amount",
        ),
        (
            "/api/v1/tables/1/drop-box".into(),
            json!({ "amount": huge }),
            "amount",
        ),
        (
            format!("/api/v1/seatings/{s}/count"),
            json!({ "stack": huge }),
            "stack",
        ),
        (
            format!("/api/v1/seatings/{s}/cash-out"),
            json!({ "stack": huge }),
            "stack",
        ),
        // One past each bound, and the other amounts.
        (
            "/api/v1/tables/1/tips".into(),
            json!({ "amount": money::TIP_MAX + 1 }),
            "amount",
        ),
        (
            "/api/v1/tables/1/drop-box".into(),
            json!({ "amount": money::DROP_BOX_MAX + 1 }),
            "amount",
        ),
        (
            "/api/v1/tables/1/drop-box".into(),
            json!({ "amount": -1 }),
            "amount",
        ),
        (
            format!("/api/v1/seatings/{s}/count"),
            json!({ "stack": stack_max + 1 }),
            "stack",
        ),
        (
            format!("/api/v1/seatings/{s}/count"),
            json!({ "stack": -1 }),
            "stack",
        ),
        (
            format!("/api/v1/seatings/{s}/chips"),
            json!({ "stack": 10_000, "amount": huge }),
            "amount",
        ),
        (
            format!("/api/v1/seatings/{s}/chips"),
            json!({ "stack": huge, "amount": 100 }),
            "stack",
        ),
        (
            format!("/api/v1/seatings/{s}/transfer-with-stack"),
            json!({ "table_id": 2, "stack": huge }),
            "stack",
        ),
        (
            "/api/v1/tables/1/hands".into(),
            json!({ "pot": huge, "rake": 0 }),
            "pot",
        ),
        (
            "/api/v1/tables/3/commissions".into(),
            json!({ "payout": huge }),
            "payout",
        ),
    ];
    for (uri, body, field) in &cases {
        let dealer = if uri.contains("/tables/3/") {
            &dealer3
        } else {
            &r.dealer
        };
        let x = app.send_json("POST", uri, dealer, body.clone()).await;
        assert_out_of_range(&x, field, &format!("{uri} {body}"));
        assert_eq!(snapshot(app, s), before, "{uri} {body} changed something");
    }
    // A game's settings: at most €10,000,000.00 each.
    let mut g = hand_game();
    g["name"] = json!("NL huge");
    g["buy_in_max"] = json!(huge);
    let x = app.send_json("POST", "/api/v1/games", &r.admin, g).await;
    assert_out_of_range(&x, "buy_in_max", "game");
    assert!(x.text().contains("€10,000,000.00"), "{}", x.text());
    let mut g = hand_game();
    g["rake_cap"] = json!(money::GAME_AMOUNT_MAX + 1);
    let x = app.send_json("POST", "/api/v1/games", &r.admin, g).await;
    assert_out_of_range(&x, "rake_cap", "rake cap");
    assert_eq!(snapshot(app, s), before);
    // Said in the reader's language and the room's currency.
    let x = app
        .call(
            TestRequest::post()
                .uri("/api/v1/tables/1/tips")
                .insert_header(("Authorization", format!("Bearer {}", r.dealer)))
                .insert_header(("accept-language", "pt"))
                .set_json(json!({ "amount": huge }))
                .to_request(),
        )
        .await;
    assert_eq!(x.status, 422);
    assert_eq!(
        x.json()["error"]["fields"][0]["message"],
        "Indique um montante entre 0,01 € e 1.000.000,00 €."
    );
    let x = app
        .send_json(
            "POST",
            "/api/v1/tables/1/tips",
            &r.dealer,
            json!({ "amount": huge }),
        )
        .await;
    assert_eq!(
        x.json()["error"]["fields"][0]["message"],
        "Enter an amount from €0.01 to €1,000,000.00."
    );
    assert_eq!(snapshot(app, s), before);

    // The bounds themselves are accepted.
    let ok = [
        (
            "/api/v1/tables/1/tips".to_string(),
            json!({ "amount": money::TIP_MAX }),
        ),
        (
            "/api/v1/tables/1/tips".to_string(),
            json!({ "amount": money::TIP_MAX }),
        ),
        (
            "/api/v1/tables/1/drop-box".to_string(),
            json!({ "amount": money::DROP_BOX_MAX }),
        ),
        (
            "/api/v1/tables/1/drop-box".to_string(),
            json!({ "amount": money::DROP_BOX_MAX }),
        ),
        (
            format!("/api/v1/seatings/{s}/count"),
            json!({ "stack": stack_max }),
        ),
    ];
    for (uri, body) in &ok {
        let x = app.send_json("POST", uri, &r.dealer, body.clone()).await;
        assert!(
            x.status == 200 || x.status == 201,
            "{uri} {body}: {}",
            x.text()
        );
    }
    // A rebuy may not take the stack past the range, even in a game without a maximum.
    let nomax = json!({"name": "NL deep", "variant": "holdem_nl", "small_blind": 100,
        "big_blind": 200, "limit_class": "low", "buy_in_min": 4000,
        "cagnotte_mode": "per_hand", "cagnotte_bp": 500});
    let x = app
        .send_json("POST", "/api/v1/games", &r.admin, nomax)
        .await;
    assert_eq!(x.status, 201, "{}", x.text());
    let deep = x.json()["id"].as_i64().unwrap();
    app.with_conn(|c| {
        diesel::update(seatings::table.find(s))
            .set(seatings::game_id.eq(Some(deep)))
            .execute(c)
            .unwrap();
        // The table plays the deep game's limits (PT-2007 22: its own, without a maximum).
        diesel::update(cardroom::db::schema::card_tables::table.find(1))
            .set((
                cardroom::db::schema::card_tables::game_id.eq(Some(deep)),
                cardroom::db::schema::card_tables::buy_in_max.eq(None::<i64>),
            ))
            .execute(c)
            .unwrap()
    });
    let x = app
        .send_json(
            "POST",
            &format!("/api/v1/seatings/{s}/chips"),
            &r.dealer,
            json!({ "stack": money::STACK_CEILING - 5, "amount": 6 }),
        )
        .await;
    assert_out_of_range(&x, "amount", "rebuy past the ceiling");
    // Two of each of the largest tips and drop boxes: the report adds them up, positive.
    let today = app.with_conn(|c| {
        let room = cardroom::services::room::get(c).unwrap();
        let now = app.state.clock.now();
        let local = now.with_timezone(&room.tz) - Duration::hours(6);
        local.date_naive()
    });
    let rep = app
        .get(&format!("/api/v1/reports?day={today}"), &r.admin)
        .await;
    assert_eq!(rep.status, 200, "{}", rep.text());
    let t = &rep.json()["totals"];
    assert_eq!(t["tips"], 2 * money::TIP_MAX);
    assert_eq!(t["drop_box"], 2 * money::DROP_BOX_MAX);
    assert_eq!(t["cagnotte"], 2 * money::DROP_BOX_MAX);
}

#[actix_web::test]
async fn the_openapi_document_states_the_same_ranges() {
    let app = TestApp::new().await;
    let doc = app
        .call(TestRequest::get().uri("/api/openapi.json").to_request())
        .await
        .json();
    let s = &doc["components"]["schemas"];
    let range = |schema: &str, prop: &str| {
        let p = &s[schema]["properties"][prop];
        (p["minimum"].as_i64(), p["maximum"].as_i64())
    };
    let stack = Some(money::STACK_CEILING);
    assert_eq!(
        range("AmountRequest", "amount"),
        (Some(1), Some(money::TIP_MAX))
    );
    assert_eq!(
        range("DropBoxRequest", "amount"),
        (Some(0), Some(money::DROP_BOX_MAX))
    );
    for (schema, prop) in [
        ("StackRequest", "stack"),
        ("CashOutRequest", "stack"),
        ("StackTransferRequest", "stack"),
        ("ChipsRequest", "stack"),
        ("RemovalRequest", "amount"),
        ("ConfirmRequest", "amount"),
    ] {
        assert_eq!(range(schema, prop), (Some(0), stack), "{schema}.{prop}");
    }
    assert_eq!(range("ChipsRequest", "amount"), (Some(1), stack));
    assert_eq!(range("BuyinRequest", "amount"), (Some(1), stack));
    let pot = Some(money::STACK_CEILING * money::TABLE_SEATS_MAX);
    assert_eq!(range("HandResult", "pot"), (Some(0), pot));
    assert_eq!(range("CommissionRequest", "payout"), (Some(1), pot));
    for prop in ["buy_in_min", "buy_in_max", "rake_cap", "smallest_chip"] {
        assert_eq!(
            range("GameInput", prop),
            (Some(1), Some(money::GAME_AMOUNT_MAX)),
            "{prop}"
        );
    }
}

#[actix_web::test]
async fn a_report_over_amounts_stored_before_the_bounds_says_so_instead_of_wrapping() {
    let r = room().await;
    let app = &r.app;
    // As a room could have left them: two tips and two drop boxes of 2^63 − 1 (stored before the
    // bounds existed; no request can store them now).
    let now = app.state.clock.now().naive_utc();
    app.with_conn(|c| {
        for id in 1..=2 {
            let t = TipRow {
                id,
                table_id: TableId(1),
                game_id: Some(GameId(1)),
                shift_id: None,
                dealer_id: None,
                amount: i64::MAX,
                at: now,
                recorded_by: None,
            };
            cardroom::native!(&mut *c, |dbc| diesel::insert_into(tips::table)
                .values(&t)
                .execute(dbc))
            .unwrap();
            let d = DropBoxRow {
                id,
                table_id: TableId(1),
                game_id: Some(GameId(1)),
                shift_id: None,
                dealer_id: None,
                amount: i64::MAX,
                at: now,
                recorded_by: None,
            };
            cardroom::native!(&mut *c, |dbc| diesel::insert_into(drop_boxes::table)
                .values(&d)
                .execute(dbc))
            .unwrap();
        }
    });
    let x = app.get("/api/v1/reports", &r.admin).await;
    assert_eq!(x.status, 409, "never a wrapped total: {}", x.text());
    let (code, message) = x.error();
    assert_eq!(code, "conflict");
    assert!(
        message.contains("add up to more than can be counted"),
        "{message}"
    );
    let s = app.web_login("admin", ADMIN_PW).await;
    let page = app.page("/floor/reports", &s).await;
    assert_eq!(page.status, 409, "{}", page.text());
    assert!(page.text().contains("add up to more than can be counted"));
}

#[actix_web::test]
async fn the_tablet_and_the_admin_forms_refuse_an_amount_out_of_range_with_its_message() {
    let app = TestApp::with_clock(true).await;
    let (_token, _floor, tablet) = crate::tablets::paired_room(&app).await;
    app.create_staff("dealer1", "dealer");
    let dealer = app.web_login("dealer1", STAFF_PW).await;
    let tap = |uri: &str, amount: &str| {
        TestRequest::post()
            .uri(uri)
            .cookie(tablet.c())
            .cookie(dealer.c())
            .set_form([("csrf", dealer.csrf.as_str()), ("amount", amount)])
            .to_request()
    };
    let audit = app.audit_count();
    let x = app.call(tap("/tablet/tips", "1000000.01")).await;
    assert_eq!(x.status, 422, "{}", x.text());
    assert!(
        x.text()
            .contains("Enter an amount from €0.01 to €1,000,000.00."),
        "{}",
        x.text()
    );
    let x = app.call(tap("/tablet/drop-box", "99999999999999")).await;
    assert_eq!(x.status, 422, "{}", x.text());
    assert!(
        x.text()
            .contains("Enter an amount from €0.00 to €1,000,000.00."),
        "{}",
        x.text()
    );
    assert_eq!((app.count("tips"), app.count("drop_boxes")), (0, 0));
    assert_eq!(app.audit_count(), audit);
    let x = app.call(tap("/tablet/tips", "1000000")).await;
    assert_eq!(x.status, 303, "the bound itself: {}", x.text());

    // The admin's game form: €20,000,000 is past the €10,000,000.00 a game amount may be.
    let admin = app.web_login("admin", ADMIN_PW).await;
    let games_before = app.count("games");
    let form = [
        ("name", "NL huge"),
        ("variant", "holdem_nl"),
        ("limit_class", "low"),
        ("small_blind", "1"),
        ("big_blind", "2"),
        ("buy_in_min", "40"),
        ("buy_in_max", "20000000"),
        ("seats", ""),
        ("cagnotte_mode", ""),
        ("cagnotte_bp", ""),
    ];
    let x = app.post_form("/admin/games", &admin, &form).await;
    assert_eq!(x.status, 422, "{}", x.text());
    assert!(
        x.text()
            .contains("Enter an amount from €0.01 to €10,000,000.00."),
        "{}",
        x.text()
    );
    assert_eq!(app.count("games"), games_before);
    let _ = (games::table, buyins::table, chip_custody::table);
}

// ---- the property: report totals are the sum of their parts --------------------------------

/// One amount recorded in the day: what, at which table, minutes after the cut-over, and
/// the amount (with the part collected, for a due).
#[derive(Debug, Clone)]
enum Event {
    Tip(i64),
    Drop(i64),
    Rake(i64),
    /// amount, collected (None: exempt), open
    Due(i64, Option<i64>, bool),
    Commission(i64),
}

fn amount_in(lo: i64, hi: i64) -> impl Strategy<Value = i64> {
    prop_oneof![Just(hi), Just(lo), lo..=hi]
}

fn event() -> impl Strategy<Value = Event> {
    let stack = money::stack_max(Some(GAME_MAX));
    let pot = money::pot(Some(GAME_MAX)).max;
    prop_oneof![
        amount_in(money::TIP.min, money::TIP.max).prop_map(Event::Tip),
        amount_in(money::DROP_BOX.min, money::DROP_BOX.max).prop_map(Event::Drop),
        // PT-2007 7a: at most 5 % of a pot.
        amount_in(0, pot / 20).prop_map(Event::Rake),
        // PT-2007 7b: at most 20 % of a stack; collected at most what is due.
        (amount_in(0, stack / 5), 0u8..3, any::<u64>()).prop_map(|(a, k, x)| match k {
            0 => Event::Due(a, Some((x % (a as u64 + 1)) as i64), false),
            1 => Event::Due(a, None, false),
            _ => Event::Due(a, None, true),
        }),
        // MO-13 11: 2 % of a payout.
        amount_in(0, pot / 50).prop_map(Event::Commission),
    ]
}

#[derive(Default, Debug, PartialEq, Eq)]
struct Expect {
    tips: i128,
    drop_box: i128,
    rake: i128,
    due: i128,
    collected: i128,
    exempt: i128,
    commission: i128,
}

impl Expect {
    fn of(f: &Figures) -> Expect {
        Expect {
            tips: f.tips.into(),
            drop_box: f.drop_box.into(),
            rake: f.rake.into(),
            due: f.due.into(),
            collected: f.collected.into(),
            exempt: f.exempt.into(),
            commission: f.commission.into(),
        }
    }
    fn add(&mut self, o: &Expect) {
        self.tips += o.tips;
        self.drop_box += o.drop_box;
        self.rake += o.rake;
        self.due += o.due;
        self.collected += o.collected;
        self.exempt += o.exempt;
        self.commission += o.commission;
    }
    fn cagnotte(&self) -> i128 {
        self.collected + self.rake + self.drop_box + self.commission
    }
}

#[actix_web::test]
async fn report_totals_equal_the_sum_of_their_parts_for_any_amounts_in_range() {
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    nl_game(&app, &token).await;
    for n in 1..=2 {
        let t = json!({"number": n, "game_id": 1, "mode": "continuous"});
        assert_eq!(
            app.send_json("POST", "/api/v1/tables", &token, t)
                .await
                .status,
            201
        );
    }
    let p = eligible_players(&app, 1)[0];
    let day = NaiveDate::from_ymd_opt(2026, 11, 20).unwrap();
    // Lisbon in November is UTC: the gaming day runs 06:00 to 06:00 UTC.
    let start = day.and_hms_opt(6, 0, 0).unwrap();
    app.with_conn(|c| {
        for t in 1..=2 {
            let s = SeatingRow {
                id: SeatingId(t),
                table_id: TableId(t),
                seat_no: 1,
                player_id: PlayerId(p),
                game_id: Some(GameId(1)),
                entry_id: None,
                sat_at: start - Duration::days(2),
                left_at: Some(start - Duration::days(2) + Duration::hours(1)),
                left_reason: Some("left".into()),
                seated_by: None,
            };
            cardroom::native!(&mut *c, |dbc| diesel::insert_into(seatings::table)
                .values(&s)
                .execute(dbc))
            .unwrap();
        }
    });
    let room = app.with_conn(|c| cardroom::services::room::get(c).unwrap());
    let now = app.state.clock.now();
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(24);
    // Cases are generated here, not in a source file: nothing to persist failures next to.
    let config = ProptestConfig {
        failure_persistence: None,
        ..ProptestConfig::with_cases(cases)
    };
    let mut runner = proptest::test_runner::TestRunner::new(config);
    let strategy = proptest::collection::vec((event(), 1i64..=2, 0i64..24 * 60), 0..60);
    let result = runner.run(&strategy, |events| {
        let mut want: [Expect; 2] = Default::default();
        let mut want_hours = 0i128;
        app.with_conn(|c| {
            for t in [
                "cagnotte_dues",
                "cagnotte_sessions",
                "tips",
                "drop_boxes",
                "hands",
                "commissions",
            ] {
                diesel::sql_query(format!("DELETE FROM {t}"))
                    .execute(c)
                    .unwrap();
            }
            for (i, (e, table, minute)) in events.iter().enumerate() {
                let id = i as i64 + 1;
                let at: NaiveDateTime = start + Duration::minutes(*minute);
                let w = &mut want[*table as usize - 1];
                match e {
                    Event::Tip(a) => {
                        w.tips += *a as i128;
                        let row = TipRow {
                            id,
                            table_id: TableId(*table),
                            game_id: Some(GameId(1)),
                            shift_id: None,
                            dealer_id: None,
                            amount: *a,
                            at,
                            recorded_by: None,
                        };
                        cardroom::native!(&mut *c, |dbc| diesel::insert_into(tips::table)
                            .values(&row)
                            .execute(dbc))
                        .unwrap();
                    }
                    Event::Drop(a) => {
                        w.drop_box += *a as i128;
                        let row = DropBoxRow {
                            id,
                            table_id: TableId(*table),
                            game_id: Some(GameId(1)),
                            shift_id: None,
                            dealer_id: None,
                            amount: *a,
                            at,
                            recorded_by: None,
                        };
                        cardroom::native!(&mut *c, |dbc| diesel::insert_into(drop_boxes::table)
                            .values(&row)
                            .execute(dbc))
                        .unwrap();
                    }
                    Event::Rake(a) => {
                        w.rake += *a as i128;
                        let row = HandRow {
                            id,
                            table_id: TableId(*table),
                            game_id: Some(GameId(1)),
                            number: id as i32,
                            button_seat: None,
                            at,
                            recorded_by: None,
                            ended_at: None,
                            pot: Some(*a * 20),
                            rake: Some(*a),
                            preflop_no_bet: false,
                            result_by: None,
                            boards: 1,
                        };
                        cardroom::native!(&mut *c, |dbc| diesel::insert_into(hands::table)
                            .values(&row)
                            .execute(dbc))
                        .unwrap();
                    }
                    Event::Due(a, collected, open) => {
                        w.due += *a as i128;
                        let state = match (collected, open) {
                            (_, true) => "due",
                            (Some(_), _) => "collected",
                            (None, _) => "exempt",
                        };
                        match state {
                            "collected" => w.collected += collected.unwrap_or(0) as i128,
                            "exempt" => w.exempt += *a as i128,
                            _ => {}
                        }
                        // A session per due (a player owes a session once).
                        let session = CagnotteSessionRow {
                            id,
                            table_id: TableId(*table),
                            game_id: GameId(1),
                            number: id as i32,
                            started_at: at,
                            closed_at: Some(at + Duration::hours(1)),
                            close_reason: Some("hand_over".into()),
                            closed_by: None,
                            bp: 2000,
                            base: "cave".into(),
                            table_max: None,
                            smallest_chip: 1,
                            length_min: 60,
                            late_window_min: 30,
                        };
                        cardroom::native!(&mut *c, |dbc| diesel::insert_into(
                            cagnotte_sessions::table
                        )
                        .values(&session)
                        .execute(dbc))
                        .unwrap();
                        let due = CagnotteDueRow {
                            id,
                            session_id: id,
                            table_id: TableId(*table),
                            game_id: GameId(1),
                            player_id: PlayerId(p),
                            seating_id: SeatingId(*table),
                            seat_no: 1,
                            amount: *a,
                            late: false,
                            due_at: at,
                            state: state.parse().expect("a due state"),
                            collected: if state == "collected" {
                                *collected
                            } else {
                                None
                            },
                            settled_at: None,
                            settled_by: None,
                            reason: (state == "exempt").then(|| "staff".into()),
                        };
                        cardroom::native!(&mut *c, |dbc| diesel::insert_into(cagnotte_dues::table)
                            .values(&due)
                            .execute(dbc))
                        .unwrap();
                    }
                    Event::Commission(a) => {
                        w.commission += *a as i128;
                        let row = CommissionRow {
                            id,
                            table_id: TableId(*table),
                            game_id: Some(GameId(1)),
                            round: 1,
                            player_id: None,
                            payout: *a * 50,
                            amount: *a,
                            at,
                            recorded_by: None,
                        };
                        cardroom::native!(&mut *c, |dbc| diesel::insert_into(commissions::table)
                            .values(&row)
                            .execute(dbc))
                        .unwrap();
                    }
                }
            }
        });
        let mut total = Expect::default();
        for w in &want {
            total.add(w);
            want_hours += w.cagnotte();
        }
        let r = app
            .with_conn(|c| {
                reports::build(
                    c,
                    now,
                    &reports::Setting {
                        tz: room.tz,
                        timezone: &room.timezone,
                        currency: &room.currency,
                        day_start: NaiveTime::from_hms_opt(6, 0, 0).unwrap(),
                    },
                    Period::Day(day),
                    Filter::default(),
                )
            })
            .map_err(|e| TestCaseError::fail(format!("report: {e}")))?;
        // The totals are the amounts recorded, each figure and the house's take.
        prop_assert_eq!(&Expect::of(&r.totals), &total);
        prop_assert_eq!(i128::from(r.totals.cagnotte), total.cagnotte());
        prop_assert_eq!(
            i128::from(r.totals.difference),
            total.due - total.collected - total.exempt
        );
        // ... and the sum of every breakdown: tables, games, days, hours of the clock.
        for (i, w) in want.iter().enumerate() {
            let line = r.tables.iter().find(|l| l.id == i as i64 + 1);
            let got = line.map(|l| Expect::of(&l.f)).unwrap_or_default();
            prop_assert_eq!(&got, w, "table {}", i + 1);
        }
        for lines in [
            r.tables.iter().map(|l| &l.f).collect::<Vec<_>>(),
            r.games.iter().map(|l| &l.f).collect(),
            r.days.iter().map(|l| &l.f).collect(),
        ] {
            let mut sum = Expect::default();
            let mut take = 0i128;
            for f in lines {
                sum.add(&Expect::of(f));
                take += i128::from(f.cagnotte);
            }
            prop_assert_eq!(&sum, &total);
            prop_assert_eq!(take, total.cagnotte());
        }
        let hours: i128 = r.hours.iter().map(|h| i128::from(h.cagnotte)).sum();
        prop_assert_eq!(hours, want_hours);
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    let _ = players::table;
}

// ----  ---------------------------------------------------------------------------

#[actix_web::test]
async fn invalid_utf8_in_a_registration_field_is_that_fields_refusal_not_a_photo_too_large() {
    let app = TestApp::new().await;
    app.create_staff("floor1", "floor");
    let s = app.web_login("floor1", STAFF_PW).await;
    let boundary = "----cardroommoneyboundary";
    let mut body = Vec::new();
    for (k, v) in [
        ("csrf", s.csrf.as_bytes()),
        ("full_name", b"Ana \xff\xfe Silva".as_slice()),
        ("date_of_birth", b"1990-05-17".as_slice()),
    ] {
        body.extend_from_slice(
            format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{k}\"\r\n\r\n")
                .as_bytes(),
        );
        body.extend_from_slice(v);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    let before = (app.count("players"), app.audit_count());
    let r = app
        .call(
            TestRequest::post()
                .uri("/players")
                .cookie(s.c())
                .insert_header((
                    "content-type",
                    format!("multipart/form-data; boundary={boundary}"),
                ))
                .insert_header(("accept-language", "en"))
                .set_payload(body)
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
    let html = r.text();
    assert!(
        html.contains("The field “full_name” must be plain text (UTF-8)."),
        "{html}"
    );
    assert!(!html.contains("photo is larger"), "{html}");
    assert_eq!((app.count("players"), app.audit_count()), before);
}

#[actix_web::test]
async fn resolving_custody_checks_the_role_before_the_body() {
    let app = TestApp::new().await;
    let dealer = app.staff_token("dealer1", "dealer").await;
    let cashier = app.staff_token("cashier1", "cashier").await;
    for body in [json!({}), json!({ "how": "reclaimed" }), json!("x")] {
        let r = app
            .send_json("POST", "/api/v1/custody/1/resolve", &dealer, body.clone())
            .await;
        assert_eq!(r.status, 403, "dealer, {body}: {}", r.text());
        assert_eq!(r.error().0, "forbidden");
    }
    // A role that may resolve: the body is looked at (a missing field is named), then the
    // custody.
    let r = app
        .send_json("POST", "/api/v1/custody/1/resolve", &cashier, json!({}))
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
    assert_eq!(r.json()["error"]["fields"][0]["field"], "how");
    let r = app
        .send_json(
            "POST",
            "/api/v1/custody/1/resolve",
            &cashier,
            json!({ "how": "reclaimed" }),
        )
        .await;
    assert_eq!(r.status, 404, "{}", r.text());
}
