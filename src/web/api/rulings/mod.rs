//! The floor's rulings in the JSON API (BSOP 16-22): a dealer or the floor asks for one at a
//! table, the floor holds a pot aside (BSOP 21), decides (final, BSOP 17) or corrects with a
//! later ruling; a second staff member confirms the chips a decision moves (BSOP 20, 21); the
//! incident log with its filters and its CSV file. Thin handlers over `services::rulings`: the
//! same rules, refusals and audit as the pages.

use crate::db::models::{HeldPotRow, RulingMoveRow};
use crate::domain::player::Language;
use crate::domain::ruling::{
    HeldPotState, LateReason, MoveLineKind, NamedAt, RulingMoveState, RulingState,
};
use crate::domain::FieldError;
use crate::error::{AppError, AppResult};
use crate::i18n::I18n;
use crate::services::room::Room;
use crate::services::rulings::{
    self as svc, AskInput, DecisionInput, Filter, ReconstructionInput, RulingLine, ShareInput,
};
use crate::services::{self};
use crate::web::extract::{ActingAs, DealerStaff, FloorStaff};
use crate::web::json::ApiJson;
use crate::web::openapi::ErrorResponse;
use crate::web::state::AppState;
use actix_web::http::header;
use actix_web::{get, post};
use actix_web::{web, HttpRequest, HttpResponse};
use chrono::{DateTime, NaiveTime, Utc};
use serde::{Deserialize, Serialize};
use std::str::FromStr;
use utoipa::{IntoParams, ToSchema};
use utoipa_actix_web::service_config::ServiceConfig;

pub fn routes(cfg: &mut ServiceConfig) {
    cfg.service(ask_ruling)
        .service(list_rulings)
        .service(rulings_csv)
        .service(get_ruling)
        .service(hold_ruling_pot)
        .service(decide_ruling)
        .service(correct_ruling)
        .service(confirm_ruling_chips)
        .service(refuse_ruling_chips);
}

fn utc(t: chrono::NaiveDateTime) -> DateTime<Utc> {
    t.and_utc()
}

// ---- response types --------------------------------------------------------------------

/// A player a ruling involves.
#[derive(Debug, Serialize, ToSchema)]
pub struct RulingPlayerOut {
    pub player_id: i64,
    pub alias: String,
    /// The seat named with the request (none: named by the decision).
    pub seat_no: Option<i32>,
    pub named_at: NamedAt,
}

/// BSOP 21: a pot held aside while the decision is pending.
#[derive(Debug, Serialize, ToSchema)]
pub struct HeldPotOut {
    pub id: i64,
    pub ruling_id: i64,
    /// Minor units.
    pub amount: i64,
    pub seats: Vec<i32>,
    /// Where it is kept.
    pub storage: String,
    pub state: HeldPotState,
    pub held_at: DateTime<Utc>,
    pub held_by: Option<i64>,
    pub released_at: Option<DateTime<Utc>>,
}

fn pot_out(p: &HeldPotRow) -> HeldPotOut {
    HeldPotOut {
        id: p.id,
        ruling_id: p.ruling_id,
        amount: p.amount,
        seats: crate::domain::ruling::parse_seats(&p.seats),
        storage: p.storage.clone(),
        state: p.pot_state(),
        held_at: utc(p.held_at),
        held_by: p.held_by,
        released_at: p.released_at.map(utc),
    }
}

/// One line of the chips a decision moves.
#[derive(Debug, Serialize, ToSchema)]
pub struct MoveLineOut {
    pub kind: MoveLineKind,
    /// None: from the pot held (BSOP 21).
    pub from_player_id: Option<i64>,
    pub to_player_id: i64,
    /// Minor units.
    pub amount: i64,
}

/// BSOP 20, 21: the chips a decision moves: recorded by the supervisor who decided, then
/// confirmed (the stacks on record change) or refused by a second staff member.
#[derive(Debug, Serialize, ToSchema)]
pub struct RulingChipsOut {
    pub id: i64,
    pub state: RulingMoveState,
    pub held_pot_id: Option<i64>,
    pub recorded_by: i64,
    pub recorded_at: DateTime<Utc>,
    pub confirmed_by: Option<i64>,
    pub confirmed_at: Option<DateTime<Utc>>,
    pub cancelled_by: Option<i64>,
    pub cancelled_at: Option<DateTime<Utc>>,
    pub lines: Vec<MoveLineOut>,
}

fn chips_out(m: &RulingMoveRow, lines: &[svc::LineView]) -> RulingChipsOut {
    RulingChipsOut {
        id: m.id,
        state: m.move_state(),
        held_pot_id: m.held_pot_id,
        recorded_by: m.recorded_by,
        recorded_at: utc(m.recorded_at),
        confirmed_by: m.confirmed_by,
        confirmed_at: m.confirmed_at.map(utc),
        cancelled_by: m.cancelled_by,
        cancelled_at: m.cancelled_at.map(utc),
        lines: lines
            .iter()
            .map(|l| MoveLineOut {
                kind: l.kind,
                from_player_id: l.line.from_player_id,
                to_player_id: l.line.to_player_id,
                amount: l.line.amount,
            })
            .collect(),
    }
}

/// One ruling of the incident log.
#[derive(Debug, Serialize, ToSchema)]
pub struct RulingOut {
    pub id: i64,
    pub table_id: i64,
    pub table_number: i32,
    pub game_id: Option<i64>,
    /// The hand named (the table's hand in play when asked, unless an earlier one was named);
    /// none: no hand dealt yet.
    pub hand_number: Option<i32>,
    pub seats: Vec<i32>,
    pub note: String,
    pub asked_at: DateTime<Utc>,
    pub asked_by: Option<i64>,
    pub state: RulingState,
    /// BSOP 19: asked after the next hand started, the table broke or a player involved moved
    /// or left.
    pub late: bool,
    pub late_reason: Option<LateReason>,
    /// Open: none. Final once given (BSOP 17).
    pub decision: Option<String>,
    pub rule: Option<String>,
    /// BSOP 19: for a late ruling, whether the hand's result stands (false: overridden with
    /// `override_reason`); none for a ruling asked in time.
    pub result_stands: Option<bool>,
    pub override_reason: Option<String>,
    pub decided_at: Option<DateTime<Utc>>,
    pub decided_by: Option<i64>,
    /// The earlier ruling this one corrects.
    pub corrects: Option<i64>,
    /// The later ruling that corrects this one.
    pub corrected_by: Option<i64>,
    pub players: Vec<RulingPlayerOut>,
    pub pot: Option<HeldPotOut>,
    pub chips: Option<RulingChipsOut>,
}

pub fn ruling_out(l: &RulingLine) -> RulingOut {
    let r = &l.ruling;
    RulingOut {
        id: r.id,
        table_id: r.table_id,
        table_number: l.table_number,
        game_id: r.game_id,
        hand_number: r.hand_number,
        seats: r.seat_numbers(),
        note: r.note.clone(),
        asked_at: utc(r.asked_at),
        asked_by: r.asked_by,
        state: r.state(),
        late: r.late().is_some(),
        late_reason: r.late(),
        decision: r.decision.clone(),
        rule: r.rule_cited.clone(),
        result_stands: r.result_stands,
        override_reason: r.override_reason.clone(),
        decided_at: r.decided_at.map(utc),
        decided_by: r.decided_by,
        corrects: r.corrects,
        corrected_by: l.corrected_by,
        players: l
            .players
            .iter()
            .map(|p| RulingPlayerOut {
                player_id: p.player_id,
                alias: p.alias.clone(),
                seat_no: p.seat_no,
                named_at: p.named_at,
            })
            .collect(),
        pot: l.pot.as_ref().map(pot_out),
        chips: l.moved.as_ref().map(|m| chips_out(m, &l.move_lines)),
    }
}

/// One ruling with the earlier rulings of the players it involves (BSOP 22: a participant's
/// history may be used to judge intent).
#[derive(Debug, Serialize, ToSchema)]
pub struct RulingDetailOut {
    pub ruling: RulingOut,
    /// Newest first, at most 20.
    pub earlier: Vec<RulingOut>,
}

// ---- request bodies --------------------------------------------------------------------

/// A request for a ruling (BSOP 18, 19).
#[derive(Debug, Deserialize, ToSchema)]
pub struct RulingAsk {
    /// The hand the ruling is about. Omitted: the table's hand in play, taken by the server.
    /// An earlier hand of the table makes the ruling late (BSOP 19).
    #[schema(minimum = 1)]
    pub hand_number: Option<i32>,
    /// The seats involved (each must have had a player when the hand started).
    #[serde(default)]
    #[schema(max_items = 11, value_type = Vec<crate::services::seat_prefs::SeatNumber>)]
    pub seats: Vec<i32>,
    /// What happened, in a few words.
    #[serde(default)]
    #[schema(max_length = 300)]
    pub note: String,
}

/// A player's share of the pot held, or what is taken from a player's stack.
#[derive(Debug, Deserialize, ToSchema)]
pub struct ShareBody {
    pub player_id: i64,
    /// Minor units, at least 1.
    #[schema(minimum = 1, maximum = 1100000000000_i64)]
    pub amount: i64,
}

/// BSOP 20: a pot reconstructed, moved from the named players' stacks to the right player.
#[derive(Debug, Deserialize, ToSchema)]
pub struct ReconstructionBody {
    /// The right player (seated at the table).
    pub to_player_id: i64,
    /// The players the amount is taken from (seated at the table), each at most their stack
    /// on record.
    #[schema(min_items = 1, max_items = 11)]
    pub from: Vec<ShareBody>,
}

/// The floor's decision (final, BSOP 17).
#[derive(Debug, Deserialize, ToSchema)]
pub struct RulingDecisionBody {
    /// Required.
    #[schema(min_length = 1, max_length = 2000, pattern = r"\S")]
    pub decision: String,
    /// The rule cited, e.g. "BSOP 20".
    #[serde(default)]
    #[schema(max_length = 60)]
    pub rule: String,
    /// Players involved besides those at the seats named.
    #[serde(default)]
    #[schema(max_items = 12)]
    pub player_ids: Vec<i64>,
    /// BSOP 19: a late ruling's result stands unless overridden, with `override_reason`
    /// (required then). Refused (422) for a ruling asked in time.
    #[serde(default)]
    pub override_result: bool,
    #[serde(default)]
    #[schema(max_length = 300)]
    pub override_reason: String,
    /// BSOP 21: the pot held goes to these players, the shares summing to it (required while
    /// a pot is held for the ruling).
    #[serde(default)]
    #[schema(max_items = 11)]
    pub release: Vec<ShareBody>,
    /// BSOP 20: refused (409) for a late ruling.
    pub reconstruction: Option<ReconstructionBody>,
}

impl RulingDecisionBody {
    fn input(self) -> DecisionInput {
        let share = |s: ShareBody| ShareInput {
            player_id: s.player_id,
            amount: s.amount,
        };
        DecisionInput {
            decision: self.decision,
            rule: self.rule,
            player_ids: self.player_ids,
            override_result: self.override_result,
            override_reason: self.override_reason,
            release: self.release.into_iter().map(share).collect(),
            reconstruction: self.reconstruction.map(|r| ReconstructionInput {
                to_player_id: r.to_player_id,
                from: r.from.into_iter().map(share).collect(),
            }),
        }
    }
}

/// BSOP 21: a pot, or part of it, held aside while the ruling is pending.
#[derive(Debug, Deserialize, ToSchema)]
pub struct HeldPotBody {
    /// Minor units: at least 1, at most the chips on the table on record (the seated players'
    /// stacks); else 422 naming the field.
    #[schema(minimum = 1, maximum = 1100000000000_i64)]
    pub amount: i64,
    /// The seats whose chips are in it (default: the ruling's).
    #[serde(default)]
    #[schema(max_items = 11, value_type = Vec<crate::services::seat_prefs::SeatNumber>)]
    pub seats: Vec<i32>,
    /// Where it is kept (e.g. "cage, box 2").
    #[schema(min_length = 1, max_length = 100, pattern = r"\S")]
    pub storage: String,
}

// ---- the incident log's filters --------------------------------------------------------

/// The incident log's filters (all optional; empty means absent, as a form sends it).
#[derive(Debug, Default, Clone, Deserialize, Serialize, IntoParams)]
pub struct LogQuery {
    /// A gaming day, `YYYY-MM-DD`, in the room's zone (the day runs to the room's cut-over).
    #[param(format = Date)]
    #[serde(default)]
    pub day: Option<String>,
    /// Only this table (its id).
    #[param(value_type = Option<i64>)]
    #[serde(default)]
    pub table: Option<String>,
    /// Only the rulings involving this player (their number).
    #[param(value_type = Option<i64>)]
    #[serde(default)]
    pub player: Option<String>,
    /// Only the rulings this staff member asked for or decided (their id).
    #[param(value_type = Option<i64>)]
    #[serde(default)]
    pub staff: Option<String>,
    /// `open` or `decided`.
    #[param(value_type = Option<RulingState>)]
    #[serde(default)]
    pub state: Option<String>,
    /// At most this many, newest first (1-5000; default 200).
    #[param(value_type = Option<i64>, minimum = 1, maximum = 5000)]
    #[serde(default)]
    pub limit: Option<String>,
}

fn filled(v: &Option<String>) -> Option<&str> {
    v.as_deref().map(str::trim).filter(|s| !s.is_empty())
}

fn number(v: &Option<String>, field: &str) -> Result<Option<i64>, FieldError> {
    match filled(v) {
        None => Ok(None),
        Some(s) => s.parse::<i64>().map(Some).map_err(|_| {
            FieldError::new(field, "err-ruling-filter-number")
                .arg("value", s.chars().take(40).collect::<String>())
        }),
    }
}

/// The gaming day's cut-over (`CARDROOM_GAMING_DAY_ENDS`, validated at start).
pub fn day_start(st: &AppState) -> NaiveTime {
    st.config.room.gaming_day_ends
}

impl LogQuery {
    /// The service's filter: the gaming day's bounds in UTC (room's zone, cut-over
    /// `day_start`); every malformed value refused together, each on its field (422). From a
    /// page's form (`form`) an empty field means "any"; in the API an empty value is not a
    /// value of its type (the API is not a form) and is refused too.
    pub fn filter(
        &self,
        room: &Room,
        day_start: NaiveTime,
        limit: i64,
        form: bool,
    ) -> AppResult<Filter> {
        let mut errs = Vec::new();
        if !form {
            for (field, v, key) in [
                ("day", &self.day, "err-ruling-filter-day"),
                ("table", &self.table, "err-ruling-filter-number"),
                ("player", &self.player, "err-ruling-filter-number"),
                ("staff", &self.staff, "err-ruling-filter-number"),
                ("state", &self.state, "err-ruling-filter-state"),
                ("limit", &self.limit, "err-ruling-filter-number"),
            ] {
                if v.as_deref().is_some_and(|x| x.trim().is_empty()) {
                    errs.push(FieldError::new(field, key).arg("value", ""));
                }
            }
        }
        let mut f = Filter {
            limit,
            ..Filter::default()
        };
        if let Some(d) = filled(&self.day) {
            match chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d") {
                Ok(date) if d.len() == 10 => {
                    let (from, to) = services::reports::day_bounds(room.tz, date, day_start);
                    f.from = Some(from.naive_utc());
                    f.to = Some(to.naive_utc());
                }
                _ => errs.push(
                    FieldError::new("day", "err-ruling-filter-day")
                        .arg("value", d.chars().take(40).collect::<String>()),
                ),
            }
        }
        let mut num = |v: &Option<String>, field: &str| match number(v, field) {
            Ok(n) => n,
            Err(e) => {
                errs.push(e);
                None
            }
        };
        f.table_id = num(&self.table, "table");
        f.player_id = num(&self.player, "player");
        f.staff_id = num(&self.staff, "staff");
        if let Some(s) = filled(&self.state) {
            match RulingState::from_str(s) {
                Ok(x) => f.state = Some(x),
                Err(()) => errs.push(
                    FieldError::new("state", "err-ruling-filter-state")
                        .arg("value", s.chars().take(40).collect::<String>()),
                ),
            }
        }
        match number(&self.limit, "limit") {
            Ok(Some(n)) if (1..=svc::LIST_MAX).contains(&n) => f.limit = n,
            Ok(Some(_)) => errs.push(
                FieldError::new("limit", "err-ruling-filter-limit").arg("max", svc::LIST_MAX),
            ),
            Ok(None) => {}
            Err(e) => errs.push(e),
        }
        if errs.is_empty() {
            Ok(f)
        } else {
            Err(AppError::Validation(errs))
        }
    }

    /// The filters as a query string (for the CSV link beside the page's list).
    pub fn to_query(&self) -> String {
        let pairs: Vec<(&str, &str)> = [
            ("day", &self.day),
            ("table", &self.table),
            ("player", &self.player),
            ("staff", &self.staff),
            ("state", &self.state),
            ("limit", &self.limit),
        ]
        .into_iter()
        .filter_map(|(k, v)| filled(v).map(|v| (k, v)))
        .collect();
        serde_urlencoded::to_string(pairs).unwrap_or_default()
    }
}

/// The default number of rulings a page or answer of the log holds.
pub const LIST_DEFAULT: i64 = 200;

// ---- the CSV file ------------------------------------------------------------------------

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
    let money = |v: i64| crate::web::pages::reports::csv_money(v, cur, lang);
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
        let row: Vec<String> = vec![
            r.id.to_string(),
            svc::local(r.asked_at, room),
            l.table_number.to_string(),
            l.game_name.clone().unwrap_or_default(),
            r.hand_number.map(|h| h.to_string()).unwrap_or_default(),
            r.seats.clone(),
            l.who(),
            r.note.clone(),
            l.asked_by.clone().unwrap_or_default(),
            r.late()
                .map(|x| i18n.t(lang, &format!("ruling-late-{}", x.as_str())))
                .unwrap_or_default(),
            i18n.t(lang, &format!("ruling-state-{}", r.state().as_str())),
            r.decision.clone().unwrap_or_default(),
            r.rule_cited.clone().unwrap_or_default(),
            result,
            r.override_reason.clone().unwrap_or_default(),
            r.decided_at
                .map(|d| svc::local(d, room))
                .unwrap_or_default(),
            l.decided_by.clone().unwrap_or_default(),
            r.corrects.map(|c| c.to_string()).unwrap_or_default(),
            l.corrected_by.map(|c| c.to_string()).unwrap_or_default(),
            l.pot.as_ref().map(|p| money(p.amount)).unwrap_or_default(),
            l.pot
                .as_ref()
                .map(|p| p.storage.clone())
                .unwrap_or_default(),
            chips,
        ];
        rows.push(row);
    }
    crate::web::pages::reports::csv_in(lang, headers, rows)
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

// ---- handlers ----------------------------------------------------------------------------

async fn line(st: &AppState, id: i64) -> AppResult<RulingLine> {
    st.run(move |_, c| {
        let r = svc::ruling(c, id)?;
        svc::lines_of(c, vec![r])?.pop().ok_or(AppError::NotFound)
    })
    .await
}

/// A dealer (at their own table) or the floor asks for a ruling (BSOP 18, 19). The hand is the
/// table's hand in play unless `hand_number` names an earlier one; the ruling is recorded as
/// late when asked after the next hand started, the table broke or a player named moved or
/// left (BSOP 19). The floor's board shows it at once.
#[utoipa::path(
    tag = "rulings",
    params(("id" = i64, Path, description = "Table id")),
    request_body = RulingAsk,
    responses((status = 201, body = RulingOut), (status = 404, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[post("/tables/{id}/rulings")]
pub async fn ask_ruling(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<i64>,
    body: ApiJson<RulingAsk>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    let b = body.into_inner();
    let input = AskInput {
        hand_number: b.hand_number,
        seats: b.seats,
        note: b.note,
    };
    let r = st
        .write(move |_, c| {
            let act = acting.in_room(c)?;
            svc::ask(c, &act, id, &input)
        })
        .await?;
    Ok(HttpResponse::Created().json(ruling_out(&line(&st, r.id).await?)))
}

/// The incident log (admin, floor): the rulings matching the filters, newest first.
#[utoipa::path(
    tag = "rulings",
    params(LogQuery),
    responses((status = 200, body = Vec<RulingOut>))
)]
#[get("/rulings")]
pub async fn list_rulings(
    st: web::Data<AppState>,
    _who: FloorStaff,
    q: web::Query<LogQuery>,
) -> AppResult<web::Json<Vec<RulingOut>>> {
    let ds = day_start(&st);
    let q = q.into_inner();
    let lines = st
        .run(move |_, c| {
            let room = services::room::get(c)?;
            let f = q.filter(&room, ds, LIST_DEFAULT, false)?;
            svc::list(c, &f)
        })
        .await?;
    Ok(web::Json(lines.iter().map(ruling_out).collect()))
}

/// The incident log as a CSV file (admin, floor), in the room's language: the same filters
/// (default: the most recent 200; `limit` up to 5000).
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

/// One ruling (admin, floor, and a dealer), with the earlier rulings of the players it
/// involves (BSOP 22).
#[utoipa::path(
    tag = "rulings",
    params(("id" = i64, Path, description = "Ruling id")),
    responses((status = 200, body = RulingDetailOut), (status = 404, body = ErrorResponse))
)]
#[get("/rulings/{id}")]
pub async fn get_ruling(
    st: web::Data<AppState>,
    _who: DealerStaff,
    path: web::Path<i64>,
) -> AppResult<web::Json<RulingDetailOut>> {
    let id = path.into_inner();
    let d = st.run(move |_, c| svc::detail(c, id)).await?;
    Ok(web::Json(RulingDetailOut {
        ruling: ruling_out(&d.line),
        earlier: d.earlier.iter().map(ruling_out).collect(),
    }))
}

/// BSOP 21: the floor takes a pot, or part of it, off the table while the ruling is pending
/// (admin, floor). At most the chips on the table on record; once per ruling.
#[utoipa::path(
    tag = "rulings",
    params(("id" = i64, Path, description = "Ruling id")),
    request_body = HeldPotBody,
    responses((status = 201, body = HeldPotOut), (status = 404, body = ErrorResponse), (status = 409, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[post("/rulings/{id}/held-pot")]
pub async fn hold_ruling_pot(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<i64>,
    body: ApiJson<HeldPotBody>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    let b = body.into_inner();
    let p = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            svc::hold_pot(c, act, id, b.amount, &b.seats, &b.storage)
        })
        .await?;
    Ok(HttpResponse::Created().json(pot_out(&p)))
}

/// The floor decides (admin, floor): final once recorded (BSOP 17; a second decision is 409).
/// A late ruling's result stands unless overridden with a reason (BSOP 19); a pot held is
/// released to named players (BSOP 21); a reconstruction moves chips between stacks (BSOP 20,
/// 409 when late). The chips move once a second staff member confirms them.
#[utoipa::path(
    tag = "rulings",
    params(("id" = i64, Path, description = "Ruling id")),
    request_body = RulingDecisionBody,
    responses((status = 200, body = RulingOut), (status = 404, body = ErrorResponse), (status = 409, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[post("/rulings/{id}/decision")]
pub async fn decide_ruling(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<i64>,
    body: ApiJson<RulingDecisionBody>,
) -> AppResult<web::Json<RulingOut>> {
    let id = path.into_inner();
    let acting = who.acting;
    let input = body.into_inner().input();
    st.write(move |_, c| {
        let act = &acting.in_room(c)?;
        svc::decide(c, act, id, &input)
    })
    .await?;
    Ok(web::Json(ruling_out(&line(&st, id).await?)))
}

/// BSOP 17: a decided ruling is corrected only by a later ruling that names it (admin, floor):
/// answered with the new ruling; the earlier one then shows `corrected_by`.
#[utoipa::path(
    tag = "rulings",
    params(("id" = i64, Path, description = "The ruling corrected")),
    request_body = RulingDecisionBody,
    responses((status = 201, body = RulingOut), (status = 404, body = ErrorResponse), (status = 409, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[post("/rulings/{id}/corrections")]
pub async fn correct_ruling(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<i64>,
    body: ApiJson<RulingDecisionBody>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    let input = body.into_inner().input();
    let r = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            svc::correct(c, act, id, &input)
        })
        .await?;
    Ok(HttpResponse::Created().json(ruling_out(&line(&st, r.id).await?)))
}

/// The second staff member confirms the chips a decision moves (admin, floor, a dealer at
/// the table): not the one who recorded them (409). The pot held is released and the stacks
/// on record change.
#[utoipa::path(
    tag = "rulings",
    params(("id" = i64, Path, description = "Ruling id")),
    responses((status = 200, body = RulingOut), (status = 404, body = ErrorResponse), (status = 409, body = ErrorResponse))
)]
#[post("/rulings/{id}/chips/confirm")]
pub async fn confirm_ruling_chips(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<i64>,
) -> AppResult<web::Json<RulingOut>> {
    let id = path.into_inner();
    let acting = who.acting;
    st.write(move |_, c| {
        let act = acting.in_room(c)?;
        svc::confirm_move(c, &act, id, None)
    })
    .await?;
    Ok(web::Json(ruling_out(&line(&st, id).await?)))
}

/// The chips as recorded are refused (admin, floor, a dealer at the table): nothing moves, a
/// pot held stays held; the floor corrects the ruling with the right amounts.
#[utoipa::path(
    tag = "rulings",
    params(("id" = i64, Path, description = "Ruling id")),
    responses((status = 200, body = RulingOut), (status = 404, body = ErrorResponse), (status = 409, body = ErrorResponse))
)]
#[post("/rulings/{id}/chips/refuse")]
pub async fn refuse_ruling_chips(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<i64>,
) -> AppResult<web::Json<RulingOut>> {
    let id = path.into_inner();
    let acting = who.acting;
    st.write(move |_, c| {
        let act = &acting.in_room(c)?;
        svc::cancel_move(c, act, id, None)
    })
    .await?;
    Ok(web::Json(ruling_out(&line(&st, id).await?)))
}
