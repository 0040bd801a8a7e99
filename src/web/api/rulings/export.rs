//! The incident log as a CSV file in the reader's conventions (`/rulings.csv`, the log's
//! filters), and a ruling's lines in words.

use super::log::{day_start, filled, LogQuery, LIST_DEFAULT};
use crate::domain::player::Language;
use crate::error::AppResult;
use crate::i18n::I18n;
use crate::services::room::Room;
use crate::services::rulings::{self as svc, RulingLine};
use crate::services::{self};
use crate::web::csv::{csv_in, csv_money, Cell};
use crate::web::extract::FloorStaff;
use crate::web::state::AppState;
use actix_web::get;
use actix_web::http::header;
use actix_web::{web, HttpRequest, HttpResponse};

/// The incident log as a CSV file in `lang` (the reader's language) and its spreadsheet
/// conventions (separator, decimal mark, UTF-8 with its byte order mark): one line per
/// ruling, times in the room's zone, amounts in major units of its currency.
pub fn log_csv(
    i18n: &I18n,
    lang: Language,
    room: &Room,
    lines: &[RulingLine],
) -> AppResult<Vec<u8>> {
    let t = |k: &str| i18n.t(lang, k);
    let cur = room.currency.as_str();
    let money = |v: i64| csv_money(v, cur, lang);
    let headers: Vec<String> = [
        "ruling-col-id",
        "ruling-col-asked-at",
        "ruling-col-table",
        "ruling-col-game",
        "ruling-col-hand",
        "ruling-col-seats",
        "ruling-col-players",
        "ruling-col-note",
        "ruling-col-asked-by",
        "ruling-col-late",
        "ruling-col-state",
        "ruling-col-decision",
        "ruling-col-rule",
        "ruling-col-result",
        "ruling-col-override-reason",
        "ruling-col-decided-at",
        "ruling-col-decided-by",
        "ruling-col-corrects",
        "ruling-col-corrected-by",
        "ruling-col-pot",
        "ruling-col-pot-storage",
        "ruling-col-chips",
    ]
    .iter()
    .map(|k| {
        if *k == "ruling-col-pot" {
            format!("{} ({cur})", t(k))
        } else {
            t(k)
        }
    })
    .collect();
    let mut rows = Vec::with_capacity(lines.len());
    for l in lines {
        let r = &l.ruling;
        let result = match r.result_stands {
            Some(true) => t("ruling-result-stands-short"),
            Some(false) => t("ruling-result-overridden-short"),
            None => String::new(),
        };
        let chips = match &l.moved {
            Some(m) => {
                let lines: Vec<String> = l
                    .move_lines
                    .iter()
                    .map(|x| line_text(i18n, lang, cur, x))
                    .collect();
                format!(
                    "{}: {}",
                    i18n.t(lang, &format!("ruling-chips-{}", m.state)),
                    lines.join("; ")
                )
            }
            None => String::new(),
        };
        let text = |s: Option<&String>| Cell::text(s.cloned().unwrap_or_default());
        let row: Vec<Cell> = vec![
            Cell::int(r.id),
            Cell::text(svc::local(r.asked_at, room)),
            Cell::int(l.table_number),
            text(l.game_name.as_ref()),
            r.hand_number.map_or_else(Cell::empty, Cell::int),
            Cell::text(r.seats.clone()),
            Cell::text(l.who()),
            Cell::text(r.note.clone()),
            text(l.asked_by.as_ref()),
            Cell::text(
                r.late()
                    .map(|x| i18n.t(lang, &format!("ruling-late-{}", x.as_str())))
                    .unwrap_or_default(),
            ),
            Cell::text(i18n.t(lang, &format!("ruling-state-{}", r.state().as_str()))),
            text(r.decision.as_ref()),
            text(r.rule_cited.as_ref()),
            Cell::text(result),
            text(r.override_reason.as_ref()),
            Cell::text(
                r.decided_at
                    .map(|d| svc::local(d, room))
                    .unwrap_or_default(),
            ),
            text(l.decided_by.as_ref()),
            r.corrects.map_or_else(Cell::empty, Cell::int),
            l.corrected_by.map_or_else(Cell::empty, Cell::int),
            l.pot.as_ref().map_or_else(Cell::empty, |p| money(p.amount)),
            text(l.pot.as_ref().map(|p| &p.storage)),
            Cell::text(chips),
        ];
        rows.push(row);
    }
    csv_in(lang, headers, rows)
}

/// One line of the chips a decision moves, in `lang`: "€50.00 from the pot held to Ana",
/// "€30.00 from Rui to Ana".
pub fn line_text(i18n: &I18n, lang: Language, currency: &str, l: &svc::LineView) -> String {
    let amount = crate::i18n::money(l.line.amount, currency);
    match &l.from_alias {
        Some(from) => i18n.msg(
            lang,
            "ruling-line-reconstruction",
            &[
                ("amount", amount),
                ("from", from.clone()),
                ("to", l.to_alias.clone()),
            ],
        ),
        None => i18n.msg(
            lang,
            "ruling-line-release",
            &[("amount", amount), ("to", l.to_alias.clone())],
        ),
    }
}

/// The CSV answer, named after the day asked (or `all`).
pub fn csv_response(q: &LogQuery, body: Vec<u8>) -> HttpResponse {
    let day = filled(&q.day).unwrap_or("all").to_string();
    HttpResponse::Ok()
        .content_type("text/csv; charset=utf-8")
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"rulings-{day}.csv\""),
        ))
        .body(body)
}

/// The incident log as a CSV file (admin, floor), in the room's language: the same filters
/// (default: the most recent 200; `limit` up to 5000). A text cell a spreadsheet would read
/// as a formula (starting with `=`, `+`, `-`, `@`, a tab or a line break) starts with a `'`.
#[utoipa::path(
    tag = "rulings",
    params(LogQuery),
    responses((status = 200, description = "CSV, one line per ruling", content_type = "text/csv", body = String))
)]
#[get("/rulings.csv")]
pub async fn rulings_csv(
    st: web::Data<AppState>,
    req: HttpRequest,
    _who: FloorStaff,
    q: web::Query<LogQuery>,
) -> AppResult<HttpResponse> {
    let ds = day_start(&st);
    let q = q.into_inner();
    let keep = q.clone();
    let i18n = st.i18n.clone();
    let lang = crate::web::ctx::asked_lang(&req);
    let body = st
        .run(move |_, c| {
            let room = services::room::get(c)?;
            let f = q.filter(&room, ds, LIST_DEFAULT, false)?;
            let lines = svc::list(c, &f)?;
            log_csv(&i18n, lang.unwrap_or(room.default_language), &room, &lines)
        })
        .await?;
    Ok(csv_response(&keep, body))
}
