//! Reports over HTTP: a gaming day of two tables built row by row (the billing
//! service writes these rows at the tablet; here they are inserted as they would be stored),
//! with every figure worked out by hand below; the page, the JSON and the CSV files must
//! show exactly those figures and the same totals. Then the refusals (bad day or month,
//! unknown table, game, player or CSV part, both day and month, a dealer), the players'
//! hours per gaming day and month, and a month of a 50-table room.
//!
//! The room is in São Paulo (UTC−3, no summer time): gaming day 2026-11-20 runs from
//! 2026-11-20 09:00 UTC to 2026-11-21 09:00 UTC (06:00 to 06:00 local).

#![allow(clippy::too_many_arguments)]

use super::support::*;
use crate::pages::{eligible_players, nl_game};
use actix_web::test::TestRequest;
use cardroom::db::models::*;
use cardroom::db::schema::*;
use cardroom::domain::ids::EntryId;
use cardroom::domain::ids::GameId;
use cardroom::domain::ids::PlayerId;
use cardroom::domain::ids::SeatCallId;
use cardroom::domain::ids::SeatingId;
use cardroom::domain::ids::TableId;
use cardroom::domain::states::{CallSource, CallState, ListSource};
use chrono::NaiveDateTime;
use diesel::prelude::*;
use serde_json::Value;

fn at(s: &str) -> NaiveDateTime {
    NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M").unwrap()
}

pub(crate) struct Day {
    pub(crate) app: TestApp,
    pub(crate) s: WebSession,
    p: Vec<i64>,
    pub(crate) shift1: i64,
    pub(crate) shift2: i64,
}

fn seating(
    id: i64,
    table: i64,
    seat: i32,
    player: i64,
    game: i64,
    from: &str,
    to: &str,
) -> SeatingRow {
    SeatingRow {
        id: SeatingId(id),
        table_id: TableId(table),
        seat_no: seat,
        player_id: PlayerId(player),
        game_id: Some(GameId(game)),
        entry_id: None,
        sat_at: at(from),
        left_at: Some(at(to)),
        left_reason: Some("left".into()),
        seated_by: None,
    }
}

fn hand(
    id: i64,
    table: i64,
    game: Option<i64>,
    number: i32,
    when: &str,
    rake: Option<i64>,
) -> HandRow {
    HandRow {
        id,
        table_id: TableId(table),
        game_id: game.map(GameId),
        number,
        button_seat: None,
        at: at(when),
        recorded_by: None,
        ended_at: None,
        pot: rake.map(|r| r * 20),
        rake,
        preflop_no_bet: rake.is_none(),
        result_by: None,
        boards: 1,
    }
}

fn due(
    id: i64,
    session: i64,
    table: i64,
    game: i64,
    player: i64,
    seating: i64,
    amount: i64,
    when: &str,
    state: &str,
    collected: Option<i64>,
) -> CagnotteDueRow {
    CagnotteDueRow {
        id,
        session_id: session,
        table_id: TableId(table),
        game_id: GameId(game),
        player_id: PlayerId(player),
        seating_id: SeatingId(seating),
        seat_no: 1,
        amount,
        late: false,
        due_at: at(when),
        state: state.parse().expect("a due state"),
        collected,
        settled_at: None,
        settled_by: None,
        reason: (state == "exempt").then(|| "staff game".into()),
    }
}

fn entry(id: i64, game: i64, player: i64, joined: &str, ended: &str, reason: &str) -> WaitlistRow {
    WaitlistRow {
        id: EntryId(id),
        game_id: GameId(game),
        player_id: PlayerId(player),
        order_key: id,
        joined_at: at(joined),
        source: ListSource::Desk,
        call_in_expires_at: None,
        checked_in_at: None,
        state: reason.parse().expect("an entry state"),
        ended_at: Some(at(ended)),
        end_reason: Some(reason.into()),
        created_by: None,
    }
}

fn set_zone(app: &TestApp, zone: &str) {
    app.with_conn(|c| {
        diesel::update(room::table.find(1i64))
            .set(room::timezone.eq(zone))
            .execute(c)
            .unwrap()
    });
}

fn staff_id(app: &TestApp, username: &str) -> i64 {
    app.with_conn(|c| {
        staff::table
            .filter(staff::username.eq(username))
            .select(staff::id)
            .first(c)
            .unwrap()
    })
}

/// Two games ("NL 1/2" id 1, "NL 2/5" id 2), table 1 (9 seats, game 1) and table 2 (8 seats,
/// game 2), four players, two dealers, and the day's rows.
pub(crate) async fn day() -> Day {
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    nl_game(&app, &token).await;
    let g2 = serde_json::json!({"name": "NL 2/5", "variant": "holdem_nl", "small_blind": 200, "big_blind": 500,
        "limit_class": "mid", "buy_in_min": 10000, "buy_in_max": 50000});
    let r = app.send_json("POST", "/api/v1/games", &token, g2).await;
    assert_eq!(r.status, 201, "{}", r.text());
    for (n, g, seats) in [(1, 1, 9), (2, 2, 8)] {
        let t =
            serde_json::json!({"number": n, "game_id": g, "mode": "continuous", "seats": seats});
        let r = app.send_json("POST", "/api/v1/tables", &token, t).await;
        assert_eq!(r.status, 201, "{}", r.text());
    }
    set_zone(&app, "America/Sao_Paulo");
    let p = eligible_players(&app, 4);
    app.create_staff("dealer1", "dealer");
    app.create_staff("dealer2", "dealer");
    let (d1, d2) = (staff_id(&app, "dealer1"), staff_id(&app, "dealer2"));
    let (shift1, shift2) = (501, 502);
    app.with_conn(|c| {
        // Play. Table 1: A 08:00–11:00 (2 h inside the day), B 10:00–12:00 (2 h): open
        // 09:00–12:00. Table 2: C 08:00–10:00 next morning (1 h inside), D 08:05–08:35
        // (0.5 h): open 1 h. Outside the day: table 1 on the 21st at 10:00.
        let sits = [
            seating(1, 1, 1, p[0], 1, "2026-11-20 08:00", "2026-11-20 11:00"),
            seating(2, 1, 2, p[1], 1, "2026-11-20 10:00", "2026-11-20 12:00"),
            seating(3, 2, 1, p[2], 2, "2026-11-21 08:00", "2026-11-21 10:00"),
            seating(4, 2, 2, p[3], 2, "2026-11-21 08:05", "2026-11-21 08:35"),
            seating(5, 1, 3, p[3], 1, "2026-11-21 10:00", "2026-11-21 11:00"),
        ];
        cardroom::native!(&mut *c, |dbc| diesel::insert_into(seatings::table)
            .values(&sits[..])
            .execute(dbc))
        .unwrap();
        // Hands: table 1 rake €5, €7 (the cap), none (no flop, no drop); one hand before the
        // day. Table 2: two hands without a game recorded (the table's game counts).
        let hs = [
            hand(1, 1, Some(1), 1, "2026-11-20 08:59", Some(999)),
            hand(2, 1, Some(1), 2, "2026-11-20 09:30", Some(500)),
            hand(3, 1, Some(1), 3, "2026-11-20 10:00", Some(700)),
            hand(4, 1, Some(1), 4, "2026-11-20 10:30", None),
            hand(5, 2, None, 1, "2026-11-21 08:10", None),
            hand(6, 2, None, 2, "2026-11-21 08:20", None),
        ];
        cardroom::native!(&mut *c, |dbc| diesel::insert_into(hands::table)
            .values(&hs[..])
            .execute(dbc))
        .unwrap();
        // Table 2 bills per session: €100 each; C collected, D exempted, B collected €60 of
        // €100 (short by €40); one due after the day.
        let session = CagnotteSessionRow {
            id: 1,
            table_id: TableId(2),
            game_id: GameId(2),
            number: 1,
            started_at: at("2026-11-21 08:00"),
            closed_at: Some(at("2026-11-21 09:05")),
            close_reason: Some("hand_over".into()),
            closed_by: None,
            bp: 2000,
            base: "table_max".into(),
            table_max: Some(50_000),
            smallest_chip: 100,
            length_min: 60,
            late_window_min: 30,
        };
        cardroom::native!(&mut *c, |dbc| diesel::insert_into(cagnotte_sessions::table)
            .values(&session)
            .execute(dbc))
        .unwrap();
        let dues = [
            due(
                1,
                1,
                2,
                2,
                p[2],
                3,
                10_000,
                "2026-11-21 08:00",
                "collected",
                Some(10_000),
            ),
            due(
                2,
                1,
                2,
                2,
                p[3],
                4,
                10_000,
                "2026-11-21 08:05",
                "exempt",
                None,
            ),
            due(
                3,
                1,
                2,
                2,
                p[1],
                2,
                10_000,
                "2026-11-21 08:10",
                "collected",
                Some(6_000),
            ),
            due(4, 1, 2, 2, p[0], 1, 10_000, "2026-11-21 09:30", "due", None),
        ];
        cardroom::native!(&mut *c, |dbc| diesel::insert_into(cagnotte_dues::table)
            .values(&dues[..])
            .execute(dbc))
        .unwrap();
        let shifts = [
            DealerShiftRow {
                id: shift1,
                table_id: TableId(1),
                dealer_id: d1,
                started_at: at("2026-11-20 09:00"),
                ended_at: Some(at("2026-11-20 11:30")),
            },
            DealerShiftRow {
                id: shift2,
                table_id: TableId(2),
                dealer_id: d2,
                started_at: at("2026-11-21 08:00"),
                ended_at: Some(at("2026-11-21 10:00")),
            },
        ];
        cardroom::native!(&mut *c, |dbc| diesel::insert_into(dealer_shifts::table)
            .values(&shifts[..])
            .execute(dbc))
        .unwrap();
        cardroom::native!(&mut *c, |dbc| diesel::insert_into(drop_boxes::table)
            .values(DropBoxRow {
                id: 1,
                table_id: TableId(1),
                game_id: Some(GameId(1)),
                shift_id: Some(shift1),
                dealer_id: Some(d1),
                amount: 2_500,
                at: at("2026-11-20 11:00"),
                recorded_by: None
            })
            .execute(dbc))
        .unwrap();
        cardroom::native!(&mut *c, |dbc| diesel::insert_into(commissions::table)
            .values(CommissionRow {
                id: 1,
                table_id: TableId(1),
                game_id: Some(GameId(1)),
                round: 3,
                player_id: Some(PlayerId(p[0])),
                payout: 15_000,
                amount: 300,
                at: at("2026-11-20 10:15"),
                recorded_by: None
            })
            .execute(dbc))
        .unwrap();
        let tip_rows = [
            TipRow {
                id: 1,
                table_id: TableId(1),
                game_id: Some(GameId(1)),
                shift_id: Some(shift1),
                dealer_id: Some(d1),
                amount: 1_500,
                at: at("2026-11-20 10:45"),
                recorded_by: None,
            },
            TipRow {
                id: 2,
                table_id: TableId(2),
                game_id: None,
                shift_id: None,
                dealer_id: None,
                amount: 800,
                at: at("2026-11-21 08:30"),
                recorded_by: None,
            },
        ];
        cardroom::native!(&mut *c, |dbc| diesel::insert_into(tips::table)
            .values(&tip_rows[..])
            .execute(dbc))
        .unwrap();
        // Lists of game 1: waits of 40, 30 and 120 minutes; one removed (not a wait).
        let entries = [
            entry(1, 1, p[0], "2026-11-20 08:30", "2026-11-20 09:10", "seated"),
            entry(2, 1, p[1], "2026-11-20 09:30", "2026-11-20 10:00", "seated"),
            entry(
                3,
                1,
                p[3],
                "2026-11-20 09:45",
                "2026-11-20 10:45",
                "removed",
            ),
            entry(4, 1, p[2], "2026-11-20 10:00", "2026-11-20 12:00", "seated"),
        ];
        cardroom::native!(&mut *c, |dbc| diesel::insert_into(waitlist_entries::table)
            .values(&entries[..])
            .execute(dbc))
        .unwrap();
        // A call to p3 at table 1 that expired: one no-show.
        let call = SeatCallRow {
            id: SeatCallId(1),
            table_id: TableId(1),
            seat_no: 4,
            player_id: PlayerId(p[3]),
            entry_id: Some(EntryId(3)),
            source: CallSource::List,
            called_at: at("2026-11-20 10:20"),
            respond_by: at("2026-11-20 10:25"),
            state: CallState::Expired,
            acknowledged_at: None,
            resolved_at: Some(at("2026-11-20 10:25")),
            created_by: None,
            escalated_at: None,
            player_answer: None,
            answered_at: None,
            extended_at: None,
        };
        cardroom::native!(&mut *c, |dbc| diesel::insert_into(seat_calls::table)
            .values(&call)
            .execute(dbc))
        .unwrap();
    });
    let s = app.web_login("admin", ADMIN_PW).await;
    Day {
        app,
        s,
        p,
        shift1,
        shift2,
    }
}

async fn json(app: &TestApp, s: &WebSession, uri: &str) -> Value {
    let r = app.page(uri, s).await;
    assert_eq!(r.status, 200, "{uri}: {}", r.text());
    r.json()
}

/// A CSV answer: its rows (header first).
async fn csv_rows(app: &TestApp, s: &WebSession, uri: &str) -> Vec<Vec<String>> {
    let r = app.page(uri, s).await;
    assert_eq!(r.status, 200, "{uri}: {}", r.text());
    assert!(
        r.header("content-type")
            .unwrap_or_default()
            .starts_with("text/csv"),
        "{:?}",
        r.header("content-type")
    );
    assert!(
        r.header("content-disposition")
            .unwrap_or_default()
            .starts_with("attachment; filename=\"report-"),
        "{:?}",
        r.header("content-disposition")
    );
    let mut rd = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(r.body.as_slice());
    rd.records()
        .map(|x| x.unwrap().iter().map(str::to_string).collect())
        .collect()
}

fn col(rows: &[Vec<String>], name: &str) -> usize {
    rows[0]
        .iter()
        .position(|h| h == name)
        .unwrap_or_else(|| panic!("no column {name:?} in {:?}", rows[0]))
}

fn money(minor: i64) -> String {
    format!("{}.{:02}", minor / 100, minor % 100)
}

#[actix_web::test]
async fn a_gaming_day_in_figures_page_json_and_csv_agree() {
    let d = day().await;
    let (app, s) = (&d.app, &d.s);
    let j = json(app, s, "/floor/reports.json?day=2026-11-20").await;
    assert_eq!(j["from"], "2026-11-20T09:00:00Z");
    assert_eq!(j["to"], "2026-11-21T09:00:00Z");
    let t = &j["totals"];
    // Per session: due 3 × €100 (the 4th is after the day), collected €100 + €60, exempt
    // €100 (one), difference €40. Per hand: rake €5 + €7 (the hand at 08:59 is the day
    // before), drop box €25, commission €3. Cagnotte = 160 + 12 + 25 + 3 = €200.
    assert_eq!(
        (
            t["sessions"].as_i64(),
            t["dues"].as_i64(),
            t["due"].as_i64(),
            t["collected"].as_i64()
        ),
        (Some(1), Some(3), Some(30_000), Some(16_000))
    );
    assert_eq!(
        (
            t["exempt"].as_i64(),
            t["exempt_count"].as_i64(),
            t["difference"].as_i64()
        ),
        (Some(10_000), Some(1), Some(4_000))
    );
    assert_eq!(
        (
            t["rake"].as_i64(),
            t["drop_box"].as_i64(),
            t["commission"].as_i64(),
            t["cagnotte"].as_i64()
        ),
        (Some(1_200), Some(2_500), Some(300), Some(20_000))
    );
    assert_eq!(t["tips"], 2_300);
    assert_eq!(t["hands"], 5);
    // Played 2 + 2 + 1 + 0.5 h; capacity 9 seats × 3 h + 8 × 1 h = 35 seat-hours → 15.7 %.
    assert_eq!(t["played_secs"], 19_800);
    assert_eq!(t["open_secs"], 4 * 3600);
    assert_eq!(t["capacity_secs"], 35 * 3600);
    assert_eq!(t["occupancy_permille"], 157);
    assert_eq!(t["no_shows"], 1);

    let tables = j["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 2);
    let (t1, t2) = (&tables[0], &tables[1]);
    assert_eq!(
        (
            t1["label"].as_str(),
            t1["cagnotte"].as_i64(),
            t1["difference"].as_i64(),
            t1["tips"].as_i64()
        ),
        (Some("1"), Some(4_000), Some(0), Some(1_500))
    );
    // 4 player-hours on 9 seats × 3 h: 14.8 %; 3 hands in 3 open hours: 1.0 per hour.
    assert_eq!(
        (
            t1["played_secs"].as_i64(),
            t1["occupancy_permille"].as_i64(),
            t1["hands_per_hour_tenths"].as_i64()
        ),
        (Some(4 * 3600), Some(148), Some(10))
    );
    assert_eq!(
        (
            t2["label"].as_str(),
            t2["cagnotte"].as_i64(),
            t2["difference"].as_i64(),
            t2["exempt"].as_i64()
        ),
        (Some("2"), Some(16_000), Some(4_000), Some(10_000))
    );
    // 1.5 player-hours on 8 seats × 1 h: 18.8 %; 2 hands in 1 h.
    assert_eq!(
        (
            t2["played_secs"].as_i64(),
            t2["occupancy_permille"].as_i64(),
            t2["hands_per_hour_tenths"].as_i64()
        ),
        (Some(5_400), Some(188), Some(20))
    );
    let games = j["games"].as_array().unwrap();
    assert_eq!(
        games
            .iter()
            .map(|g| (
                g["label"].as_str().unwrap(),
                g["cagnotte"].as_i64().unwrap()
            ))
            .collect::<Vec<_>>(),
        vec![("NL 1/2", 4_000), ("NL 2/5", 16_000)]
    );
    let days = j["days"].as_array().unwrap();
    assert_eq!(days.len(), 1);
    assert_eq!(days[0]["cagnotte"], 20_000);

    // Shifts: dealer1 at table 1 (2.5 h: 3 hands, rake €12, drop box €25, commission €3,
    // tips €15); dealer2 at table 2 (1 h of it in the day: the dues, 2 hands, the €8 tip
    // recorded without a shift, found by its time).
    let shifts = j["shifts"].as_array().unwrap();
    assert_eq!(shifts.len(), 2);
    assert_eq!(
        (shifts[0]["id"].as_i64(), shifts[0]["dealer"].as_str()),
        (Some(d.shift1), Some("dealer1"))
    );
    assert_eq!(
        (
            shifts[0]["hands"].as_i64(),
            shifts[0]["cagnotte"].as_i64(),
            shifts[0]["tips"].as_i64(),
            shifts[0]["open_secs"].as_i64(),
            shifts[0]["hands_per_hour_tenths"].as_i64()
        ),
        (Some(3), Some(4_000), Some(1_500), Some(9_000), Some(12))
    );
    assert_eq!(
        (
            shifts[1]["id"].as_i64(),
            shifts[1]["hands"].as_i64(),
            shifts[1]["collected"].as_i64(),
            shifts[1]["difference"].as_i64(),
            shifts[1]["tips"].as_i64(),
            shifts[1]["open_secs"].as_i64()
        ),
        (
            Some(d.shift2),
            Some(2),
            Some(16_000),
            Some(4_000),
            Some(800),
            Some(3_600)
        )
    );

    // Waits of game 1: 30, 40, 120 min → median 40, 90th percentile 120; the list was at
    // most 2 long (at 10:00 one left as one joined); 220 entry-minutes over 24 h → 0.2.
    let waits = j["waits"].as_array().unwrap();
    let w1 = waits
        .iter()
        .find(|w| w["game_id"] == 1)
        .expect("game 1's list");
    assert_eq!(
        (
            w1["joined"].as_i64(),
            w1["seated"].as_i64(),
            w1["median_secs"].as_i64(),
            w1["p90_secs"].as_i64()
        ),
        (Some(3), Some(3), Some(2_400), Some(7_200))
    );
    assert_eq!(
        (
            w1["list_max"].as_i64(),
            w1["list_avg_tenths"].as_i64(),
            w1["no_shows"].as_i64()
        ),
        (Some(2), Some(2), Some(1))
    );
    assert_eq!(waits.last().unwrap()["game_id"], 0);
    assert_eq!(waits.last().unwrap()["seated"], 3);

    // Cagnotte per hour of the local clock, from 06:00: the rake at 06:30 and 07:00, the
    // commission at 07:15, the drop box at 08:00, the dues at 05:00 and 05:10.
    let hours = j["hours"].as_array().unwrap();
    assert_eq!(hours.len(), 24);
    assert_eq!(hours[0]["hour"], 6);
    let by_hour: Vec<(i64, i64)> = hours
        .iter()
        .filter(|h| h["cagnotte"] != 0)
        .map(|h| (h["hour"].as_i64().unwrap(), h["cagnotte"].as_i64().unwrap()))
        .collect();
    assert_eq!(by_hour, vec![(6, 500), (7, 1_000), (8, 2_500), (5, 16_000)]);

    // The page: the same totals, the difference highlighted, the three charts.
    let r = app.page("/floor/reports?day=2026-11-20", s).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let page = r.text();
    assert!(
        page.contains(r#"id="report-total-cagnotte" data-minor="20000">€200.00<"#),
        "{page}"
    );
    assert!(
        page.contains(r#"id="report-total-difference" data-minor="4000">€40.00<"#),
        "{page}"
    );
    assert!(page.contains(r#"id="report-total-tips" data-minor="2300">€23.00<"#));
    assert!(page.contains(r#"id="report-total-hours">5.50<"#));
    assert!(page.contains(r#"id="report-total-occupancy">15.7 %<"#));
    assert!(page.contains(r#"id="report-difference-alert""#));
    assert!(page.contains("Cagnotte not collected nor exempted: €40.00."));
    // Table 2's difference cell is marked; table 1's is not.
    let row2 = &page[page.find(r#"id="report-table-2""#).unwrap()..];
    let row2 = &row2[..row2.find("</tr>").unwrap()];
    assert!(row2.contains(r#"<td class="num report-diff" data-col="difference" data-minor="4000"><strong>€40.00</strong>"#), "{row2}");
    let row1 = &page[page.find(r#"id="report-table-1""#).unwrap()..];
    let row1 = &row1[..row1.find("</tr>").unwrap()];
    assert!(
        row1.contains(r#"<td class="num" data-col="difference" data-minor="0">€0.00</td>"#),
        "{row1}"
    );
    for id in ["chart-cagnotte", "chart-occupancy", "chart-waits"] {
        assert!(page.contains(&format!(r#"id="{id}" viewBox"#)), "{id}");
        assert!(
            page.contains(&format!(r#"aria-labelledby="{id}-title {id}-desc""#)),
            "{id}"
        );
    }
    assert!(
        page.contains(r#"<title id="chart-cagnotte-title">Cagnotte per hour of the day</title>"#)
    );
    assert!(
        page.contains(r#"<rect class="bar s1" data-value="16000""#),
        "the 05:00 bar"
    );
    assert!(
        page.contains(r#"<rect class="bar s3" data-value="2400""#),
        "the median wait bar"
    );
    assert!(page.contains(">Hour of the day</text>") && page.contains(">Amount (EUR)</text>"));

    // CSV: the total line of each file equals the page's (and the JSON's) totals.
    let rows = csv_rows(app, s, "/floor/reports.csv?day=2026-11-20&part=tables").await;
    assert_eq!(rows.len(), 4, "{rows:?}");
    let total = rows.last().unwrap();
    assert_eq!(total[0], "Total");
    for (name, key) in [
        ("Due (EUR)", "due"),
        ("Collected (EUR)", "collected"),
        ("Exempt (EUR)", "exempt"),
        ("Difference (EUR)", "difference"),
        ("Rake (EUR)", "rake"),
        ("Drop box (EUR)", "drop_box"),
        ("Commission (EUR)", "commission"),
        ("Cagnotte (EUR)", "cagnotte"),
        ("Tips (EUR)", "tips"),
    ] {
        assert_eq!(
            total[col(&rows, name)],
            money(t[key].as_i64().unwrap()),
            "{name}"
        );
    }
    assert_eq!(total[col(&rows, "Cagnotte (EUR)")], "200.00");
    assert_eq!(total[col(&rows, "Hours played")], "5.50");
    assert_eq!(total[col(&rows, "Occupancy (%)")], "15.7");
    assert_eq!(total[col(&rows, "Hands")], "5");
    assert_eq!(rows[2][0], "2");
    assert_eq!(rows[2][col(&rows, "Difference (EUR)")], "40.00");
    // The table rows add up to the total line.
    let c = col(&rows, "Cagnotte (EUR)");
    assert_eq!(rows[1][c], "40.00");
    assert_eq!(rows[2][c], "160.00");
    for part in ["games", "days"] {
        let rows = csv_rows(
            app,
            s,
            &format!("/floor/reports.csv?day=2026-11-20&part={part}"),
        )
        .await;
        let total = rows.last().unwrap();
        assert_eq!(total[col(&rows, "Cagnotte (EUR)")], "200.00", "{part}");
        assert_eq!(total[col(&rows, "Difference (EUR)")], "40.00", "{part}");
    }
    let rows = csv_rows(app, s, "/floor/reports.csv?day=2026-11-20&part=shifts").await;
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[1][1], "dealer1");
    assert_eq!(rows[1][2], "2026-11-20 06:00", "local time");
    assert_eq!(rows[3][col(&rows, "Cagnotte (EUR)")], "200.00");
    assert_eq!(rows[3][col(&rows, "Tips (EUR)")], "23.00");
    let rows = csv_rows(app, s, "/floor/reports.csv?day=2026-11-20&part=waits").await;
    assert_eq!(
        rows[1],
        vec!["NL 1/2", "3", "3", "40.0", "120.0", "2", "0.2", "1"]
    );
    assert_eq!(rows.last().unwrap()[0], "All games");
    let rows = csv_rows(app, s, "/floor/reports.csv?day=2026-11-20&part=hours").await;
    assert_eq!(rows.len(), 25);
    let c = col(&rows, "Cagnotte (EUR)");
    let sum: i64 = rows[1..]
        .iter()
        .map(|r| r[c].replace('.', "").parse::<i64>().unwrap())
        .sum();
    assert_eq!(sum, 20_000);
    assert_eq!(rows[1][0], "06:00");

    // In Portuguese: the same figures written the Portuguese way.
    let r = app
        .call(
            TestRequest::get()
                .uri("/floor/reports?day=2026-11-20")
                .cookie(s.c())
                .cookie(actix_web::cookie::Cookie::new("cr_lang", "pt"))
                .to_request(),
        )
        .await;
    let page = r.text();
    assert!(page.contains(r#"data-minor="20000">200,00 €<"#), "{page}");
    assert!(page.contains("Cagnotte nem cobrada nem isenta: 40,00 €."));
    assert!(page.contains(r#"id="report-total-hours">5,50<"#));
    let r = app
        .call(
            TestRequest::get()
                .uri("/floor/reports.csv?day=2026-11-20&part=tables")
                .cookie(s.c())
                .cookie(actix_web::cookie::Cookie::new("cr_lang", "pt"))
                .to_request(),
        )
        .await;
    // A spreadsheet set to Portuguese: `;` between fields, the decimal comma.
    assert!(
        r.text().lines().last().unwrap().starts_with("Total;"),
        "{}",
        r.text()
    );
    assert!(
        r.text().contains("Cobrado (EUR)") && r.text().contains(";200,00;"),
        "{}",
        r.text()
    );
}

#[actix_web::test]
async fn filters_keep_one_table_or_one_game() {
    let d = day().await;
    let (app, s) = (&d.app, &d.s);
    let j = json(app, s, "/floor/reports.json?day=2026-11-20&table=2").await;
    assert_eq!(j["table"], 2);
    assert_eq!(j["tables"].as_array().unwrap().len(), 1);
    assert_eq!(j["totals"]["cagnotte"], 16_000);
    assert_eq!(j["totals"]["difference"], 4_000);
    assert_eq!(j["shifts"].as_array().unwrap().len(), 1);
    // The lists belong to games: game 2 (table 2's) had none.
    assert_eq!(j["waits"].as_array().unwrap().len(), 1);
    let j = json(app, s, "/floor/reports.json?day=2026-11-20&game=1").await;
    assert_eq!(j["totals"]["cagnotte"], 4_000);
    assert_eq!(j["totals"]["tips"], 1_500);
    assert_eq!(j["games"].as_array().unwrap().len(), 1);
    assert_eq!(j["waits"][0]["seated"], 3);
    // The page's form sends both fields and says which one to use.
    let r = app
        .page(
            "/floor/reports?day=2026-11-20&month=2026-11&by=day&game=&table=2",
            s,
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(r
        .text()
        .contains(r#"id="report-total-cagnotte" data-minor="16000""#));
    assert!(
        r.text()
            .contains(r#"<option value="2" selected>Table 2</option>"#),
        "{}",
        r.text()
    );
    let r = app
        .page(
            "/floor/reports?day=2026-11-20&month=2026-11&by=month&game=&table=",
            s,
        )
        .await;
    assert_eq!(r.status, 200);
    assert!(
        r.text().contains(r#"id="report-day-2026-11-30""#),
        "a month lists its days"
    );
    let rows = csv_rows(
        app,
        s,
        "/floor/reports.csv?day=2026-11-20&table=1&part=tables",
    )
    .await;
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[2][col(&rows, "Cagnotte (EUR)")], "40.00");
}

#[actix_web::test]
async fn bad_input_is_refused_with_a_clear_message_never_a_5xx() {
    let d = day().await;
    let (app, s) = (&d.app, &d.s);
    for (uri, message) in [
        (
            "/floor/reports?day=2026-13-01",
            "&#34;2026-13-01&#34; is not a day: write it as YYYY-MM-DD",
        ),
        (
            "/floor/reports?day=yesterday",
            "&#34;yesterday&#34; is not a day",
        ),
        (
            "/floor/reports?month=2026-1",
            "&#34;2026-1&#34; is not a month: write it as YYYY-MM",
        ),
        (
            "/floor/reports?day=2026-11-20&month=2026-11",
            "Ask for a day or a month, not both.",
        ),
        ("/floor/reports?table=999", "There is no table 999."),
        ("/floor/reports?table=abc", "There is no table abc."),
        ("/floor/reports?game=77", "There is no game 77."),
        (
            "/floor/reports.csv?day=2026-11-20&part=bogus",
            "&#34;bogus&#34; is not a table of this report",
        ),
        ("/floor/reports.json?day=2026-02-30", "is not a day"),
        (
            "/floor/reports/players?month=2026-11&player=99999",
            "There is no player 99999.",
        ),
        ("/floor/reports/players?month=11-2026", "is not a month"),
        (
            "/floor/reports/players.csv?month=2026-11&part=x",
            "is not a table of this report",
        ),
    ] {
        let r = app.page(uri, s).await;
        assert_eq!(r.status, 422, "{uri}: {}", r.text());
        assert!(r.text().contains(message), "{uri}: {}", r.text());
    }
    // In the user's language.
    let r = app
        .call(
            TestRequest::get()
                .uri("/floor/reports?day=2026-13-01")
                .cookie(s.c())
                .insert_header(("Accept-Language", "pt-PT"))
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 422);
    assert!(
        r.text().contains("não é um dia: escreva AAAA-MM-DD"),
        "{}",
        r.text()
    );
    // Floor and admin only: a dealer is refused, nobody signed in is sent to sign in.
    app.create_staff("dealer9", "dealer");
    let dealer = app.web_login("dealer9", STAFF_PW).await;
    assert_eq!(app.page("/floor/reports", &dealer).await.status, 403);
    assert_eq!(
        app.page("/floor/reports.csv?part=tables", &dealer)
            .await
            .status,
        403
    );
    let r = app
        .call(TestRequest::get().uri("/floor/reports").to_request())
        .await;
    assert_eq!(r.status, 303);
    app.create_staff("floor1", "floor");
    let floor = app.web_login("floor1", STAFF_PW).await;
    let r = app.page("/floor/reports", &floor).await;
    assert_eq!(r.status, 200, "today's gaming day by default: {}", r.text());
    assert!(r.text().contains(r#"id="nav-reports""#));
}

#[actix_web::test]
async fn a_player_s_hours_per_gaming_day_and_month() {
    let d = day().await;
    let (app, s, p) = (&d.app, &d.s, &d.p);
    let j = json(app, s, "/floor/reports.json?month=2026-11").await;
    assert_eq!(j["kind"], "month");
    assert_eq!(j["days"].as_array().unwrap().len(), 30);
    let r = app.page("/floor/reports/players?month=2026-11", s).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let page = r.text();
    // p0 sat 08:00–11:00 UTC on the 20th: 1 h of gaming day 19 (before 06:00 local), 2 h
    // of the 20th. p2 sat 08:00–10:00 on the 21st: 1 h of the 20th, 1 h of the 21st.
    // p3: 0.5 h on the 20th and 1 h on the 21st. Everyone: 3 + 2 + 2 + 1.5 h.
    assert!(
        page.contains(r#"id="report-players-total">8.50<"#),
        "{page}"
    );
    let row = &page[page
        .find(&format!(r#"id="report-player-{}""#, p[0]))
        .unwrap()..];
    let row = &row[..row.find("</tr>").unwrap()];
    assert!(row.contains(r#"data-col="hours">3.00<"#), "{row}");
    assert!(
        row.contains(r#"data-date="2026-11-19">19 Nov 2026: 1.00 h"#),
        "{row}"
    );
    assert!(
        row.contains(r#"data-date="2026-11-20">20 Nov 2026: 2.00 h"#),
        "{row}"
    );
    let r = app
        .page(
            &format!(
                "/floor/reports/players.csv?month=2026-11&player={}&part=days",
                p[2]
            ),
            s,
        )
        .await;
    assert_eq!(r.status, 200);
    let text = r.text();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(
        lines[1].ends_with(",2026-11-20,1.00") && lines[2].ends_with(",2026-11-21,1.00"),
        "{text}"
    );
    assert_eq!(lines[3], "Total,,,,2.00");
    let rows = {
        let r = app
            .page("/floor/reports/players.csv?month=2026-11&part=players", s)
            .await;
        let mut rd = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(r.body.as_slice());
        rd.records()
            .map(|x| x.unwrap().iter().map(str::to_string).collect::<Vec<_>>())
            .collect::<Vec<_>>()
    };
    assert_eq!(rows.len(), 6);
    assert_eq!(rows[1][0], p[0].to_string(), "most hours first");
    assert_eq!(rows[5], vec!["Total", "", "", "", "8.50"]);
    // October: nobody played.
    let r = app.page("/floor/reports/players?month=2026-10", s).await;
    assert!(r.text().contains(r#"id="players-none""#));
}

#[actix_web::test]
async fn a_month_of_a_50_table_room() {
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    nl_game(&app, &token).await;
    set_zone(&app, "America/Sao_Paulo");
    let now = app.state.clock.now();
    let actor = cardroom::db::audit::Actor::system();
    let tables: Vec<TableId> = (1..=50)
        .map(|n| {
            let t = cardroom::services::games::TableInput {
                number: n,
                seats: Some(9),
                game_id: Some(GameId(1)),
                mode: "continuous".into(),
                active: None,
            };
            app.with_conn(|c| {
                let act = cardroom::services::Acting::new(now, actor.clone())
                    .in_room(c)
                    .expect("room");
                cardroom::services::games::create_table(c, &act, &t)
                    .unwrap()
                    .id
            })
        })
        .collect();
    let players = eligible_players(&app, 9);
    // October 2026, 31 gaming days: at each table each day, nine players 14:00–16:00 local
    // (17:00–19:00 UTC), four hands with €1 of rake, one session with nine €10 dues of which
    // one is left uncollected, and a €2 tip.
    let mut sits = Vec::new();
    let mut hs = Vec::new();
    let mut sessions = Vec::new();
    let mut dues = Vec::new();
    let mut tip_rows = Vec::new();
    for (ti, table) in tables.iter().enumerate() {
        for day in 1..=31 {
            let base = format!("2026-10-{day:02}");
            let k = (ti * 31 + day - 1) as i64;
            sessions.push(CagnotteSessionRow {
                id: k + 1,
                table_id: *table,
                game_id: GameId(1),
                number: day as i32,
                started_at: at(&format!("{base} 17:00")),
                closed_at: Some(at(&format!("{base} 18:05"))),
                close_reason: Some("hand_over".into()),
                closed_by: None,
                bp: 500,
                base: "table_max".into(),
                table_max: Some(20_000),
                smallest_chip: 100,
                length_min: 60,
                late_window_min: 30,
            });
            for (pi, player) in players.iter().enumerate() {
                let id = k * 9 + pi as i64 + 1;
                sits.push(seating(
                    id,
                    table.get(),
                    pi as i32 + 1,
                    *player,
                    1,
                    &format!("{base} 17:00"),
                    &format!("{base} 19:00"),
                ));
                dues.push(due(
                    id,
                    k + 1,
                    table.get(),
                    1,
                    *player,
                    id,
                    1_000,
                    &format!("{base} 17:00"),
                    if pi == 0 { "due" } else { "collected" },
                    (pi != 0).then_some(1_000),
                ));
            }
            for h in 0..4 {
                hs.push(hand(
                    k * 4 + h + 1,
                    table.get(),
                    Some(1),
                    (day * 4) as i32 + h as i32,
                    &format!("{base} 17:{:02}", 10 + h * 10),
                    Some(100),
                ));
            }
            tip_rows.push(TipRow {
                id: k + 1,
                table_id: *table,
                game_id: Some(GameId(1)),
                shift_id: None,
                dealer_id: None,
                amount: 200,
                at: at(&format!("{base} 18:30")),
                recorded_by: None,
            });
        }
    }
    app.with_conn(|c| {
        c.transaction::<_, diesel::result::Error, _>(|c| {
            for chunk in sits.chunks(500) {
                cardroom::native!(&mut *c, |dbc| diesel::insert_into(seatings::table)
                    .values(chunk)
                    .execute(dbc))?;
            }
            for chunk in hs.chunks(500) {
                cardroom::native!(&mut *c, |dbc| diesel::insert_into(hands::table)
                    .values(chunk)
                    .execute(dbc))?;
            }
            for chunk in sessions.chunks(500) {
                cardroom::native!(&mut *c, |dbc| diesel::insert_into(cagnotte_sessions::table)
                    .values(chunk)
                    .execute(dbc))?;
            }
            for chunk in dues.chunks(500) {
                cardroom::native!(&mut *c, |dbc| diesel::insert_into(cagnotte_dues::table)
                    .values(chunk)
                    .execute(dbc))?;
            }
            for chunk in tip_rows.chunks(500) {
                cardroom::native!(&mut *c, |dbc| diesel::insert_into(tips::table)
                    .values(chunk)
                    .execute(dbc))?;
            }
            Ok(())
        })
        .unwrap()
    });
    let s = app.web_login("admin", ADMIN_PW).await;
    let j = json(&app, &s, "/floor/reports.json?month=2026-10").await;
    let t = &j["totals"];
    let n = 50 * 31;
    assert_eq!(t["hands"], 4 * n);
    assert_eq!(t["rake"], 100 * 4 * n);
    assert_eq!(t["dues"], 9 * n);
    assert_eq!(t["collected"], 8 * 1_000 * n);
    assert_eq!(t["difference"], 1_000 * n);
    assert_eq!(t["cagnotte"], (8 * 1_000 + 400) * n);
    assert_eq!(t["tips"], 200 * n);
    assert_eq!(t["played_secs"], 9 * 7_200 * n);
    assert_eq!(t["occupancy_permille"], 1_000);
    assert_eq!(t["hands_per_hour_tenths"], 20);
    assert_eq!(j["tables"].as_array().unwrap().len(), 50);
    let days = j["days"].as_array().unwrap();
    assert_eq!(days.len(), 31);
    assert!(
        days.iter()
            .all(|d| d["hands"] == 200 && d["difference"] == 50_000),
        "{days:?}"
    );
    // 14:00 and 15:00 local: all the play; the rake and the dues at 14:00, the tips' hour
    // has none (tips are not cagnotte).
    let hours = j["hours"].as_array().unwrap();
    let h14 = hours.iter().find(|h| h["hour"] == 14).unwrap();
    assert_eq!(h14["cagnotte"], (8 * 1_000 + 400) * n);
    assert_eq!(h14["occupancy_permille"], 1_000);
    assert_eq!(
        hours.iter().find(|h| h["hour"] == 15).unwrap()["cagnotte"],
        0
    );

    let r = app.page("/floor/reports?month=2026-10", &s).await;
    assert_eq!(r.status, 200);
    let page = r.text();
    assert_eq!(page.matches(r#"<tr id="report-table-"#).count(), 50);
    assert_eq!(page.matches(r#"<tr id="report-day-"#).count(), 31);
    let total = (8 * 1_000 + 400) * n;
    assert!(
        page.contains(&format!(
            r#"id="report-total-cagnotte" data-minor="{total}""#
        )),
        "{total}"
    );
    assert!(page.contains(r#"id="report-difference-alert""#));
    let rows = csv_rows(&app, &s, "/floor/reports.csv?month=2026-10&part=tables").await;
    assert_eq!(rows.len(), 52);
    assert_eq!(rows[51][col(&rows, "Cagnotte (EUR)")], money(total));
    let rows = csv_rows(&app, &s, "/floor/reports.csv?month=2026-10&part=days").await;
    assert_eq!(rows.len(), 33);
    assert_eq!(rows[32][col(&rows, "Difference (EUR)")], money(1_000 * n));
}
