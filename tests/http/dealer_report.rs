//! The dealers' report over the gaming day of `reports::day` (São Paulo, 2026-11-20): two
//! downs (dealer1 at table 1 09:00–11:30 UTC with €15 of tips; dealer2 at table 2 from 08:00
//! next morning, one hour inside the day, with the €8 of table 2's box), dealer1's break, both dealers' clock-ins, and the
//! list of game 1 waiting while table 1 had nobody dealing (11:30–12:00). The page, the CSV
//! and the main report's shifts agree; with tips pooled, the shares add up to the tips.

use super::reports::day;
use super::support::*;
use cardroom::db::models::{DealerBreakRow, DealerClockRow};
use cardroom::db::schema::{dealer_breaks, dealer_roster, staff};
use chrono::NaiveDateTime;
use diesel::prelude::*;
use serde_json::{json, Value};

fn at(s: &str) -> NaiveDateTime {
    NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M").unwrap()
}

async fn csv(app: &TestApp, s: &WebSession, uri: &str) -> Vec<Vec<String>> {
    let r = app.page(uri, s).await;
    assert_eq!(r.status, 200, "{uri}: {}", r.text());
    assert!(r
        .header("content-type")
        .unwrap_or_default()
        .starts_with("text/csv"));
    let mut rd = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(r.body.as_slice());
    rd.records()
        .map(|x| x.unwrap().iter().map(str::to_string).collect())
        .collect()
}

fn row<'a>(rows: &'a [Vec<String>], first: &str) -> &'a [String] {
    rows.iter()
        .find(|r| r[0] == first)
        .unwrap_or_else(|| panic!("no row {first:?} in {rows:?}"))
}

#[actix_web::test]
async fn hours_breaks_late_pushes_tips_and_tables_without_a_dealer_add_up() {
    let d = day().await;
    let (app, s) = (&d.app, &d.s);
    let id = |name: &str| -> i64 {
        app.with_conn(|c| {
            staff::table
                .filter(staff::username.eq(name))
                .select(staff::id)
                .first(c)
                .unwrap()
        })
    };
    let (d1, d2) = (id("dealer1"), id("dealer2"));
    app.with_conn(|c| {
        let clocks = [
            (1, d1, "2026-11-20 08:50", "2026-11-20 12:00"),
            (2, d2, "2026-11-21 07:55", "2026-11-21 10:00"),
        ];
        for (n, who, from, to) in clocks {
            diesel::insert_into(dealer_roster::table)
                .values(&DealerClockRow {
                    id: n,
                    dealer_id: who,
                    clocked_in_at: at(from),
                    clocked_out_at: Some(at(to)),
                })
                .execute(c)
                .unwrap();
        }
        diesel::insert_into(dealer_breaks::table)
            .values(&DealerBreakRow {
                id: 1,
                dealer_id: d1,
                started_at: at("2026-11-20 11:30"),
                ended_at: Some(at("2026-11-20 11:50")),
            })
            .execute(c)
            .unwrap();
    });
    let q = "day=2026-11-20";
    let rows = csv(
        app,
        s,
        &format!("/floor/reports/dealers.csv?{q}&part=dealers"),
    )
    .await;
    assert_eq!(
        rows[0],
        [
            "Dealer",
            "Downs",
            "Hours dealt",
            "Breaks due",
            "Breaks taken",
            "Late pushes",
            "Tips"
        ]
    );
    // dealer1: 2.5 h dealt, a break taken, relieved 2 h past a 30-minute down (late), €15.
    assert_eq!(
        row(&rows, "dealer1")[1..],
        ["1", "2.50", "0", "1", "1", "15.00"]
    );
    // dealer2: one hour inside the day (their down runs on past its end), and the €8 put in
    // table 2's tips box during it.
    assert_eq!(
        row(&rows, "dealer2")[1..],
        ["1", "1.00", "0", "0", "1", "8.00"]
    );
    assert_eq!(
        row(&rows, "Total")[1..],
        ["2", "3.50", "0", "1", "2", "23.00"]
    );
    // The totals are the downs added up, and the main report's shifts say the same tips.
    let downs = csv(
        app,
        s,
        &format!("/floor/reports/dealers.csv?{q}&part=downs"),
    )
    .await;
    let body: Vec<&Vec<String>> = downs[1..].iter().filter(|r| r[0] != "Total").collect();
    assert_eq!(body.len(), 2);
    let hours: f64 = body.iter().map(|r| r[4].parse::<f64>().unwrap()).sum();
    let tips: f64 = body.iter().map(|r| r[6].parse::<f64>().unwrap()).sum();
    assert_eq!((hours, tips), (3.5, 23.0));
    assert_eq!(row(&downs, "Total")[4..], ["3.50", "2", "23.00"]);
    let main: Value = app
        .page(&format!("/floor/reports.json?{q}"), s)
        .await
        .json();
    let shift_tips: i64 = main["shifts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["tips"].as_i64().unwrap())
        .sum();
    assert_eq!(shift_tips, 2_300);
    // The page: the same totals, the chart, and table 1's half hour without a dealer while
    // game 1's list waited (11:30–12:00 UTC).
    let page = app.page(&format!("/floor/reports/dealers?{q}"), s).await;
    assert_eq!(page.status, 200);
    let html = page.text();
    assert!(
        html.contains("id=\"report-dealers-hours-total\">3.50<"),
        "{html}"
    );
    assert!(html.contains("id=\"chart-staffing\""));
    assert!(
        html.contains("id=\"report-gap-1\"><td>1</td><td class=\"num\">30.0<"),
        "{html}"
    );
    assert!(
        !html.contains("id=\"report-gap-2\""),
        "game 2 had nobody waiting"
    );
    // Tips pooled: €23 shared by hours dealt (9,000 s and 3,600 s), adding up to €23.
    let admin = app.admin_token().await;
    let mut room: Value = app.get("/api/v1/room", &admin).await.json();
    room["profile"]["tips_pooled"] = json!(true);
    let r = app.send_json("PUT", "/api/v1/room", &admin, room).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let rows = csv(
        app,
        s,
        &format!("/floor/reports/dealers.csv?{q}&part=dealers"),
    )
    .await;
    assert_eq!(rows[0].last().unwrap(), "Pooled share");
    assert_eq!(row(&rows, "dealer1").last().unwrap(), "16.43");
    assert_eq!(row(&rows, "dealer2").last().unwrap(), "6.57");
    assert_eq!(row(&rows, "Total").last().unwrap(), "23.00");
    // In Portuguese, and the refusals.
    let r = app
        .call(
            actix_web::test::TestRequest::get()
                .uri(&format!("/floor/reports/dealers?{q}"))
                .cookie(s.c())
                .insert_header(("Accept-Language", "pt-PT"))
                .to_request(),
        )
        .await;
    assert!(r.text().contains("Horas e gorjetas dos croupiers"));
    let r = app
        .page(&format!("/floor/reports/dealers.csv?{q}&part=payroll"), s)
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
    let r = app.page("/floor/reports/dealers?day=2026-13-40", s).await;
    assert_eq!(r.status, 422, "{}", r.text());
    let dealer = app.web_login("dealer1", STAFF_PW).await;
    assert_eq!(
        app.page("/floor/reports/dealers", &dealer).await.status,
        403
    );
}
