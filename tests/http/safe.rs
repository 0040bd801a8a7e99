//! Seat-ending actions asked twice: the tablet's cash-out shows its receipt and changes
//! nothing until the second tap (no seat call, no message before it); the floor's "Leaves"
//! says what would happen and waits for the confirmation. The receipt stays in the player's
//! record (page and API).

use crate::support::WebSession;
use crate::table_side::{room, Room};
use actix_web::test::TestRequest;
use cardroom::db::schema::seatings;
use diesel::prelude::*;

/// The open seatings' ids at table 1.
fn open_at_table_1(r: &Room) -> Vec<i64> {
    r.app.with_conn(|c| {
        seatings::table
            .filter(seatings::table_id.eq(1))
            .filter(seatings::left_at.is_null())
            .select(seatings::id)
            .load(c)
            .unwrap()
    })
}

#[actix_web::test]
async fn a_cash_out_shows_its_receipt_first_and_frees_the_seat_only_on_the_second_tap() {
    let r = room(2).await;
    let (a, b) = (r.players[0], r.players[1]);
    r.join(a).await;
    let s = r.seat(3, "100").await;
    // Someone waits: a cash-out would call them for seat 3.
    r.join(b).await;
    r.advance(150).await;
    let (audit0, calls0, outbox0) = (
        r.app.audit_count(),
        r.app.count("seat_calls"),
        r.app.count("outbox"),
    );
    let first = r
        .tap(
            &r.dealer,
            &format!("/tablet/seats/{s}/cash-out"),
            &[("stack", "184.50")],
        )
        .await;
    assert_eq!(first.status, 200, "{}", first.text());
    let page = first.text();
    assert!(page.contains("id=\"cash-out-confirm\""), "{page}");
    // First on the page, above the seat's other actions, where the dealer looks after the tap.
    let at = |id: &str| page.find(&format!("id=\"{id}\"")).expect(id);
    assert!(
        at("cash-out-confirm") < at("presence") && at("cash-out-confirm") < at("chips"),
        "{page}"
    );
    // The receipt: stack, bought in, time played, result.
    for shown in ["€184.50", "€100.00", "2 h 30", "+€84.50"] {
        assert!(page.contains(shown), "{shown} in {page}");
    }
    assert!(page.contains("name=\"confirm\" value=\"1\""), "{page}");
    // Nothing happened: no audit record, the seat is taken, nobody called, nothing sent.
    assert_eq!(r.app.audit_count(), audit0);
    assert_eq!(r.seating_at(3), Some(s));
    assert_eq!(r.stack(s), (10_000, 10_000, None));
    assert_eq!(r.app.count("seat_calls"), calls0);
    assert_eq!(r.app.count("outbox"), outbox0);

    // The second tap: the seat is freed, the next player called, the table shows the receipt.
    let second = r
        .tap(
            &r.dealer,
            &format!("/tablet/seats/{s}/cash-out"),
            &[("stack", "184.50"), ("confirm", "1")],
        )
        .await;
    assert_eq!(second.status, 303, "{}", second.text());
    let to = second.header("location").unwrap();
    assert_eq!(to, format!("/tablet?receipt={s}#cash-out-receipt"));
    assert_eq!(r.seating_at(3), None);
    assert_eq!(r.stack(s).2, Some(18_450));
    assert_eq!(r.app.count("seat_calls"), calls0 + 1);
    assert!(r.app.audit_count() > audit0);
    let note: String = r.app.with_conn(|c| {
        use cardroom::db::schema::audit_log;
        audit_log::table
            .filter(audit_log::action.eq("seat.cash_out"))
            .select(audit_log::after_json)
            .first(c)
            .unwrap()
    });
    let note: serde_json::Value = serde_json::from_str(&note).unwrap();
    assert_eq!(note["result"], 8_450);
    assert_eq!(note["minutes"], 150);
    let table = r
        .app
        .call(
            TestRequest::get()
                .uri(to.split('#').next().unwrap())
                .cookie(r.tablet.c())
                .cookie(r.dealer.c())
                .to_request(),
        )
        .await;
    assert_eq!(table.status, 200);
    let t = table.text();
    assert!(t.contains("id=\"cash-out-receipt\""), "{t}");
    assert!(t.contains("+€84.50") && t.contains("€184.50"), "{t}");
    // A second confirmation of the same cash-out changes nothing.
    let audit1 = r.app.audit_count();
    let again = r
        .tap(
            &r.dealer,
            &format!("/tablet/seats/{s}/cash-out"),
            &[("stack", "184.50"), ("confirm", "1")],
        )
        .await;
    assert_eq!(again.status, 409, "{}", again.text());
    assert_eq!(r.app.audit_count(), audit1);

    // The player's record keeps the receipt: the players page and the API.
    let show = r.app.page(&format!("/players/{a}"), &r.floor).await;
    assert_eq!(show.status, 200);
    let show = show.text();
    let row = show
        .split(&format!("id=\"cash-out-{s}\""))
        .nth(1)
        .and_then(|x| x.split("</tr>").next())
        .unwrap_or_else(|| panic!("no cash-out row in {show}"));
    assert!(
        row.contains("€184.50")
            && row.contains("€100.00")
            && row.contains("+€84.50")
            && row.contains("2 h 30"),
        "{row}"
    );
    let api = r
        .app
        .get(&format!("/api/v1/players/{a}/cash-outs"), &r.token)
        .await;
    assert_eq!(api.status, 200, "{}", api.text());
    let j = api.json();
    assert_eq!(j.as_array().unwrap().len(), 1, "{j}");
    assert_eq!(j[0]["seating_id"], s);
    assert_eq!(j[0]["stack"], 18_450);
    assert_eq!(j[0]["bought_in"], 10_000);
    assert_eq!(j[0]["minutes"], 150);
    assert_eq!(j[0]["result"], 8_450);
    assert_eq!(j[0]["seat_no"], 3);
    // Another player has none; an unknown one is 404.
    let none = r
        .app
        .get(&format!("/api/v1/players/{b}/cash-outs"), &r.token)
        .await;
    assert_eq!(none.json().as_array().unwrap().len(), 0);
    assert_eq!(
        r.app
            .get("/api/v1/players/99999/cash-outs", &r.token)
            .await
            .status,
        404
    );
}

#[actix_web::test]
async fn a_refused_cash_out_is_refused_on_the_first_tap_and_a_loss_reads_negative() {
    let r = room(1).await;
    r.join(r.players[0]).await;
    let s = r.seat(2, "200").await;
    let audit0 = r.app.audit_count();
    // Not an amount: refused at once, nothing shown to confirm.
    let res = r
        .tap(
            &r.dealer,
            &format!("/tablet/seats/{s}/cash-out"),
            &[("stack", "lots")],
        )
        .await;
    assert_eq!(res.status, 422, "{}", res.text());
    assert!(!res.text().contains("id=\"cash-out-confirm\""));
    assert_eq!(r.app.audit_count(), audit0);
    // A loss: the receipt says minus.
    r.advance(45).await;
    let audit0 = r.app.audit_count();
    let res = r
        .tap(
            &r.dealer,
            &format!("/tablet/seats/{s}/cash-out"),
            &[("stack", "35")],
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.text());
    assert!(res.text().contains("-€165.00"), "{}", res.text());
    assert!(res.text().contains("45 min"), "{}", res.text());
    assert_eq!(r.app.audit_count(), audit0);
    assert_eq!(r.seating_at(2), Some(s));
}

/// The floor's POST with its board cookie (the toast the last action left) sent back.
async fn floor_page_with(r: &Room, s: &WebSession, done: &str) -> String {
    r.app
        .call(
            TestRequest::get()
                .uri("/floor")
                .cookie(s.c())
                .cookie(actix_web::cookie::Cookie::new(
                    "floor_done",
                    done.to_string(),
                ))
                .to_request(),
        )
        .await
        .text()
}

#[actix_web::test]
async fn the_floor_s_leaves_asks_for_a_confirmation_and_changes_nothing_before_it() {
    let r = room(2).await;
    let (a, b) = (r.players[0], r.players[1]);
    r.join(a).await;
    let s = r.seat(4, "100").await;
    r.join(b).await;
    let (audit0, calls0, outbox0) = (
        r.app.audit_count(),
        r.app.count("seat_calls"),
        r.app.count("outbox"),
    );
    let first = r
        .app
        .post_form(&format!("/floor/seatings/{s}/leave"), &r.floor, &[])
        .await;
    assert_eq!(first.status, 303, "{}", first.text());
    assert_eq!(r.app.audit_count(), audit0);
    assert_eq!(open_at_table_1(&r), vec![s]);
    assert_eq!(r.app.count("seat_calls"), calls0);
    assert_eq!(r.app.count("outbox"), outbox0);
    // The board says who would leave which seat, with the confirmation.
    let done = first.cookie("floor_done").expect("the toast");
    let board = floor_page_with(&r, &r.floor, &done).await;
    assert!(
        board.contains("is about to leave seat 4 at table 1"),
        "{board}"
    );
    assert!(
        board.contains(&format!("action=\"/floor/seatings/{s}/leave\""))
            && board.contains("id=\"floor-confirm\""),
        "{board}"
    );
    // A toast cookie naming any other address is not offered as a confirmation.
    let forged = serde_urlencoded::to_string([("m", "x"), ("k", "/floor/tables/1/close")]).unwrap();
    let board = floor_page_with(&r, &r.floor, &forged).await;
    assert!(!board.contains("id=\"floor-confirm\""), "{board}");

    // The second tap ends the seating (audited).
    let second = r
        .app
        .post_form(
            &format!("/floor/seatings/{s}/leave"),
            &r.floor,
            &[("confirm", "1")],
        )
        .await;
    assert_eq!(second.status, 303, "{}", second.text());
    assert!(open_at_table_1(&r).is_empty());
    assert!(r.app.audit_count() > audit0);
    let left: i64 = r.app.with_conn(|c| {
        use cardroom::db::schema::audit_log;
        audit_log::table
            .filter(audit_log::action.eq("seat.leave"))
            .count()
            .get_result(c)
            .unwrap()
    });
    assert_eq!(left, 1);
    // Asked again for a seating already ended: refused, nothing changes.
    let audit1 = r.app.audit_count();
    let again = r
        .app
        .post_form(&format!("/floor/seatings/{s}/leave"), &r.floor, &[])
        .await;
    assert_eq!(r.app.audit_count(), audit1);
    let done = again.cookie("floor_done");
    assert!(
        done.is_none()
            || !floor_page_with(&r, &r.floor, &done.unwrap())
                .await
                .contains("id=\"floor-confirm\"")
    );
}

/// A report's CSV as a spreadsheet in `lang` reads it: UTF-8 with its byte order mark, the
/// language's separator; its rows (header first).
async fn csv_in(r: &crate::reports::Day, lang: &str, uri: &str) -> Vec<Vec<String>> {
    let res = r
        .app
        .call(
            TestRequest::get()
                .uri(uri)
                .cookie(r.s.c())
                .cookie(actix_web::cookie::Cookie::new("cr_lang", lang.to_string()))
                .to_request(),
        )
        .await;
    assert_eq!(res.status, 200, "{uri}: {}", res.text());
    assert!(
        res.body.starts_with(b"\xEF\xBB\xBF"),
        "{uri} ({lang}): no UTF-8 byte order mark"
    );
    let sep = if lang == "pt" { b';' } else { b',' };
    let mut rd = csv::ReaderBuilder::new()
        .has_headers(false)
        .delimiter(sep)
        .from_reader(&res.body[3..]);
    let rows: Vec<Vec<String>> = rd
        .records()
        .map(|x| x.unwrap().iter().map(str::to_string).collect())
        .collect();
    // Every line has as many fields as the header: the separator splits it as meant.
    assert!(
        rows[0].len() > 3,
        "{lang} {uri}: one column only: {:?}",
        rows[0]
    );
    assert!(rows.iter().all(|x| x.len() == rows[0].len()), "{rows:?}");
    rows
}

/// The `data-minor` of the cell `data-col="{col}"` in the page's element `id="{row}"`.
fn tr_attr(page: &str, row: &str, col: &str) -> i64 {
    let tr = page
        .split(&format!("id=\"{row}\""))
        .nth(1)
        .and_then(|x| x.split("</tr>").next())
        .unwrap_or_else(|| panic!("no {row} in the page"));
    tr.split(&format!("data-col=\"{col}\" data-minor=\""))
        .nth(1)
        .and_then(|x| x.split('"').next())
        .and_then(|x| x.parse().ok())
        .unwrap_or_else(|| panic!("no {col} in {row}: {tr}"))
}

fn col_of(rows: &[Vec<String>], name: &str) -> usize {
    rows[0]
        .iter()
        .position(|h| h == name)
        .unwrap_or_else(|| panic!("no column {name:?} in {:?}", rows[0]))
}

/// The text of the cell `data-col="{col}"` in the page's element `id="{row}"`.
fn page_cell(page: &str, row: &str, col: &str) -> String {
    let tr = page
        .split(&format!("id=\"{row}\""))
        .nth(1)
        .and_then(|x| x.split("</tr>").next())
        .unwrap_or_else(|| panic!("no {row} in the page"));
    let cell = tr
        .split(&format!("data-col=\"{col}\""))
        .nth(1)
        .unwrap_or_else(|| panic!("no {col} in {row}: {tr}"));
    let text = cell.split_once('>').unwrap().1;
    text.split('<').next().unwrap().trim().to_string()
}

#[actix_web::test]
async fn the_reports_csv_follow_the_page_s_language_and_say_the_page_s_figures() {
    let d = crate::reports::day().await;
    for (lang, hours, played, cagnotte_h, total) in [
        ("en", "Hours", "Hours played", "Cagnotte (EUR)", "Total"),
        ("pt", "Horas", "Horas jogadas", "Cagnotte (EUR)", "Total"),
    ] {
        let page = d
            .app
            .call(
                TestRequest::get()
                    .uri("/floor/reports?day=2026-11-20")
                    .cookie(d.s.c())
                    .cookie(actix_web::cookie::Cookie::new("cr_lang", lang))
                    .to_request(),
            )
            .await
            .text();
        let dm = if lang == "pt" { "," } else { "." };
        // The shifts: the hours the page shows next to each shift are the CSV's.
        let rows = csv_in(&d, lang, "/floor/reports.csv?day=2026-11-20&part=shifts").await;
        let h = col_of(&rows, hours);
        for (i, shift) in [(1, d.shift1), (2, d.shift2)] {
            let on_page = page_cell(&page, &format!("report-shift-{shift}"), "hours");
            assert_eq!(rows[i][h], on_page, "{lang}: shift {shift}");
            assert!(on_page.contains(dm), "{lang}: {on_page}");
            assert_ne!(on_page, format!("0{dm}00"), "{lang}: a shift of no length");
            // The cagnotte of the shift, page and CSV.
            let minor: i64 = tr_attr(&page, &format!("report-shift-{shift}"), "cagnotte");
            let cell = &rows[i][col_of(&rows, cagnotte_h)];
            assert_eq!(
                cell.replace(dm, "").parse::<i64>().unwrap(),
                minor,
                "{lang}"
            );
        }
        // No column the page does not show for a shift (a seat's hours are not a shift's).
        assert!(!rows[0].iter().any(|x| x == played), "{:?}", rows[0]);
        // The tables: the total hours played and the cagnotte, page against CSV.
        let rows = csv_in(&d, lang, "/floor/reports.csv?day=2026-11-20&part=tables").await;
        let last = rows.last().unwrap();
        assert_eq!(last[0], total);
        let total_hours = page
            .split("id=\"report-total-hours\">")
            .nth(1)
            .and_then(|x| x.split('<').next())
            .unwrap();
        assert_eq!(last[col_of(&rows, played)], total_hours, "{lang}");
        assert_eq!(
            last[col_of(&rows, cagnotte_h)],
            format!("200{dm}00"),
            "{lang}"
        );
        assert!(page.contains("data-minor=\"20000\""), "{lang}");
        // The hours of the day add up to the same cagnotte, in either mark.
        let rows = csv_in(&d, lang, "/floor/reports.csv?day=2026-11-20&part=hours").await;
        let c = col_of(&rows, cagnotte_h);
        let sum: i64 = rows[1..]
            .iter()
            .map(|r| r[c].replace(dm, "").parse::<i64>().unwrap())
            .sum();
        assert_eq!(sum, 20_000, "{lang}");
        // The players' hours too.
        let rows = csv_in(
            &d,
            lang,
            "/floor/reports/players.csv?month=2026-11&part=players",
        )
        .await;
        assert!(
            rows.last().unwrap().last().unwrap().contains(dm),
            "{rows:?}"
        );
    }
}

/// The keys of a Fluent catalog directory (every `key = ...` line of its files).
fn catalog(lang: &str) -> std::collections::BTreeMap<String, String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("src/i18n/{lang}"));
    let mut out = std::collections::BTreeMap::new();
    for f in std::fs::read_dir(dir).unwrap() {
        let text = std::fs::read_to_string(f.unwrap().path()).unwrap();
        for line in text.lines() {
            if let Some((k, v)) = line.split_once(" = ") {
                if !k.is_empty()
                    && k.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
                {
                    out.insert(k.to_string(), v.to_string());
                }
            }
        }
    }
    out
}

/// The catalog keys a template names literally (`c.t("k")`, `c.t1("k", ...)`, `c.t2(...)`),
/// with whether it is a button's label or its second-tap text.
fn keys_in(template: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    for (i, _) in template.match_indices("c.t") {
        let rest = &template[i + 3..];
        let Some(open) = rest.find("(\"") else {
            continue;
        };
        if open > 2 {
            continue;
        }
        let key = rest[open + 2..].split('"').next().unwrap_or_default();
        // `c.tk("prefix-", value)`: a family of keys, checked by the catalog's own test.
        if key.ends_with('-') {
            continue;
        }
        // A button's label: the last tag opened before it is a <button>, or a data-confirm.
        let before = &template[..i];
        let tag = before.rfind('<').map(|t| &before[t..]).unwrap_or_default();
        let button = tag.starts_with("<button") || before.ends_with("data-confirm=\"{{ ");
        out.push((key.to_string(), button));
    }
    out
}

#[test]
fn every_label_of_the_tablet_and_the_board_is_in_both_catalogs_and_the_tablet_says_session_for_one_thing(
) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("templates");
    let (en, pt) = (catalog("en"), catalog("pt"));
    let mut tablet_keys = Vec::new();
    let mut buttons = 0;
    for dir in ["tablet", "floor"] {
        for f in std::fs::read_dir(root.join(dir)).unwrap() {
            let path = f.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            for (key, button) in keys_in(&text) {
                if button {
                    buttons += 1;
                    assert!(
                        en.contains_key(&key),
                        "{path:?}: button label {key} not in English"
                    );
                    assert!(
                        pt.contains_key(&key),
                        "{path:?}: button label {key} not in Portuguese"
                    );
                }
                if dir == "tablet" {
                    tablet_keys.push(key);
                }
            }
        }
    }
    assert!(
        buttons > 40,
        "only {buttons} button labels found: the scan is broken"
    );
    // «Sessão» on the tablet is one thing: the cagnotte's session (PT-2007 7b: an hour of
    // play), never the dealer's sign-in nor a table's way of play.
    let mut session_words = Vec::new();
    for key in &tablet_keys {
        let Some(text) = pt.get(key) else { continue };
        if text.to_lowercase().contains("sessão") {
            session_words.push((key.clone(), text.clone()));
            assert!(
                !key.contains("sign") && !key.contains("login") && !key.contains("logout"),
                "{key} says «sessão» for the sign-in: {text}"
            );
            assert!(
                key.contains("cagnotte") || text.to_lowercase().contains("cagnotte"),
                "{key} says «sessão» for something else than the cagnotte's session: {text}"
            );
        }
    }
    assert!(
        !session_words.is_empty(),
        "the cagnotte session is on the tablet"
    );
    for key in ["tablet-sign-out", "tablet-sign-out-confirm"] {
        assert!(
            !pt[key].to_lowercase().contains("sessão"),
            "{key}: {}",
            pt[key]
        );
    }
    // The button says what its help names.
    assert!(pt["tablet-hand-help"].contains(&pt["tablet-new-hand"]));
    assert!(en["tablet-hand-help"].contains(&en["tablet-new-hand"]));
}

/// The rows of the page's table `id="{table}"` (body and foot), each the digits of the figures
/// in its cells after the first: "1.234,50 €" and "1234,50" are both "123450", "2,50" and "2.50" "250".
fn page_rows(page: &str, table: &str) -> Vec<Vec<String>> {
    let t = page
        .split(&format!("id=\"{table}\""))
        .nth(1)
        .and_then(|x| x.split("</table>").next())
        .unwrap_or_else(|| panic!("no table {table} in the page"));
    let body = t.split_once("</thead>").map(|x| x.1).unwrap_or(t);
    body.split("<tr")
        .skip(1)
        .filter(|tr| !tr.contains("colspan="))
        .map(|tr| {
            let cells: Vec<String> = tr
                .split("<t")
                .skip(1)
                .filter(|c| c.starts_with('d') || c.starts_with('h'))
                .map(|c| text_of(c.split_once('>').map(|x| x.1).unwrap_or("")))
                .collect();
            // A count in brackets beside an amount ("€100.00 (1)") is a figure of its own.
            cells[1..]
                .iter()
                .flat_map(|c| c.split(['(', ')']).map(digits).collect::<Vec<_>>())
                .collect()
        })
        .collect()
}

/// The text of an element's inside, tags removed.
fn text_of(html: &str) -> String {
    let mut out = String::new();
    let mut depth = 0;
    for ch in html.chars() {
        match ch {
            '<' => depth += 1,
            '>' if depth > 0 => depth -= 1,
            _ if depth == 0 => out.push(ch),
            _ => {}
        }
    }
    out
}

fn digits(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_ascii_digit() || *c == '-')
        .collect()
}

#[actix_web::test]
async fn every_report_csv_says_the_figures_of_its_table_on_the_page() {
    let d = crate::reports::day().await;
    for lang in ["en", "pt"] {
        for (uri, csv) in [
            (
                "/floor/reports?day=2026-11-20",
                "/floor/reports.csv?day=2026-11-20&part=",
            ),
            (
                "/floor/reports?month=2026-11",
                "/floor/reports.csv?month=2026-11&part=",
            ),
        ] {
            let page = d
                .app
                .call(
                    TestRequest::get()
                        .uri(uri)
                        .cookie(d.s.c())
                        .cookie(actix_web::cookie::Cookie::new("cr_lang", lang))
                        .to_request(),
                )
                .await
                .text();
            // (part, the page's table, its leading cells that are labels, not figures: the
            // limits' "€1.00/€2.00 · €40.00–€200.00", which the CSV says in four cells).
            for (part, table, labels) in [
                ("tables", "report-tables", 0),
                ("games", "report-games", 0),
                ("days", "report-days", 0),
                ("limits", "report-limits", 1),
                ("waits", "report-waits", 0),
            ] {
                let on_page: Vec<Vec<String>> = page_rows(&page, table)
                    .into_iter()
                    .map(|r| r[labels..].to_vec())
                    .collect();
                assert!(!on_page.is_empty(), "{lang} {uri}: {table} is empty");
                let rows = csv_in(&d, lang, &format!("{csv}{part}")).await;
                assert_eq!(
                    rows.len() - 1,
                    on_page.len(),
                    "{lang} {uri} {part}: rows {rows:?} against {on_page:?}"
                );
                for (shown, line) in on_page.iter().zip(&rows[1..]) {
                    // Each figure the page shows is one of the CSV line's cells, each cell
                    // standing for one figure (the file may say more: ids, dates in full,
                    // the hours a table was open).
                    let mut cells: Vec<String> = line.iter().map(|c| digits(c)).collect();
                    for figure in shown.iter().filter(|f| !f.is_empty()) {
                        let at = cells.iter().position(|c| c == figure);
                        assert!(
                            at.is_some(),
                            "{lang} {uri} {part}: {figure} of {shown:?} not in {line:?}"
                        );
                        cells.remove(at.unwrap());
                    }
                }
            }
        }
    }
}
