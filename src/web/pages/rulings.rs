//! The floor's rulings in pages (BSOP 16-22): the tablet's "ask for a ruling" and its
//! confirmation of the chips a decision moves; the floor's incident log (`/floor/rulings`, its
//! CSV in the room's language), a ruling's page with the pot held (BSOP 21), the decision
//! (final, BSOP 17) or its correction, the players' earlier rulings beside the form (BSOP 22);
//! and the request the floor opens from a table's panel. Thin handlers over
//! `services::rulings`: a refusal shows the page again with the reason and what was typed,
//! nothing changed.

use super::{ctx, render, see_other};
use crate::db::models::TabletRow;
use crate::domain::ids::PlayerId;
use crate::domain::ids::TableId;
use crate::domain::FieldError;
use crate::error::{AppError, AppResult};
use crate::services::rulings::{
    self as svc, AskForm, AskInput, DecisionInput, ReconstructionInput, RulingDetail, RulingLine,
    ShareInput,
};
use crate::services::Act;
use crate::services::Acting;
use crate::services::{self};
use crate::web::api::rulings::{day_start, log_csv, LogQuery, LIST_DEFAULT};
use crate::web::ctx::Ctx;
use crate::web::extract::{ActingAs, CsrfForm, DealerStaff, FloorStaff};
use crate::web::state::AppState;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use serde::Deserialize;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/tablet/ruling", web::get().to(tablet_form))
        .route("/tablet/ruling", web::post().to(tablet_ask))
        .route(
            "/tablet/rulings/{id}/confirm",
            web::post().to(tablet_confirm),
        )
        .route("/tablet/rulings/{id}/refuse", web::post().to(tablet_refuse))
        .route("/floor/rulings", web::get().to(log_page))
        .route("/floor/rulings.csv", web::get().to(log_csv_file))
        .route("/floor/rulings/new", web::get().to(floor_form))
        .route("/floor/tables/{id}/rulings", web::post().to(floor_ask))
        .route("/floor/rulings/{id:\\d+}", web::get().to(detail_page))
        .route("/floor/rulings/{id:\\d+}/hold", web::post().to(hold))
        .route("/floor/rulings/{id:\\d+}/decide", web::post().to(decide))
        .route("/floor/rulings/{id:\\d+}/correct", web::post().to(correct))
        .route(
            "/floor/rulings/{id:\\d+}/confirm",
            web::post().to(floor_confirm),
        )
        .route(
            "/floor/rulings/{id:\\d+}/refuse",
            web::post().to(floor_refuse),
        );
}

// ---- said on the pages --------------------------------------------------------------------

/// One line of the chips a decision moves, in the reader's language: "€50.00 from the pot
/// held to Ana", "€30.00 from Rui to Ana".
pub fn line_text(c: &Ctx, l: &svc::LineView) -> String {
    crate::web::api::rulings::line_text(&c.i18n, c.lang, &c.currency, l)
}

/// BSOP 21: "€120.00 held since 21:40 (cage, box 2)".
pub fn pot_text(c: &Ctx, p: &crate::db::models::HeldPotRow) -> String {
    c.i18n.msg(
        c.lang,
        "ruling-pot-line",
        &[
            ("amount", crate::i18n::money(p.amount, &c.currency)),
            ("time", c.time(p.held_at)),
            ("storage", p.storage.clone()),
        ],
    )
}

/// "21:40 by Maria": when and by whom.
pub fn when_by(c: &Ctx, at: &chrono::NaiveDateTime, name: &Option<String>) -> String {
    c.i18n.msg(
        c.lang,
        "ruling-asked-by",
        &[
            ("time", c.dt(*at)),
            ("name", name.clone().unwrap_or_else(|| "—".into())),
        ],
    )
}

// ---- what a form sent ---------------------------------------------------------------------

/// A form's fields as sent (repeated names kept: the seats and players ticked), to read and
/// to show again after a refusal.
#[derive(Debug, Default, Clone)]
pub struct Typed(Vec<(String, String)>);

impl Typed {
    /// The first value of a field ("" when absent).
    pub fn get(&self, k: &str) -> &str {
        self.0
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.as_str())
            .unwrap_or("")
    }
    /// Every value of a repeated field.
    fn all<'a>(&'a self, k: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.0
            .iter()
            .filter(move |(n, _)| n == k)
            .map(|(_, v)| v.as_str())
    }
    /// Whether a box with this value was ticked.
    pub fn ticked(&self, k: &str, v: impl ToString) -> bool {
        let v = v.to_string();
        self.all(k).any(|x| x == v)
    }
    /// Whether a single box was ticked.
    pub fn on(&self, k: &str) -> bool {
        matches!(self.get(k), "1" | "on" | "true")
    }
    /// A field named after a player (`release_12`).
    pub fn of(&self, prefix: &str, id: &PlayerId) -> &str {
        self.get(&format!("{prefix}{id}"))
    }

    fn seats(&self) -> AppResult<Vec<i32>> {
        self.all("seat")
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| {
                s.parse::<i32>().map_err(|_| {
                    AppError::Validation(vec![FieldError::new("seats", "err-ruling-seat")
                        .arg("seat", s.chars().take(10).collect::<String>())
                        .arg("max", crate::domain::seat_pref::MAX_SEAT)])
                })
            })
            .collect()
    }

    fn hand(&self) -> AppResult<Option<i32>> {
        match self.get("hand").trim() {
            "" => Ok(None),
            h => h.parse().map(Some).map_err(|_| {
                AppError::Validation(vec![FieldError::new(
                    "hand_number",
                    "err-ruling-hand-unknown",
                )
                .arg("hand", h.chars().take(10).collect::<String>())])
            }),
        }
    }

    fn ask(&self) -> AppResult<AskInput> {
        Ok(AskInput {
            hand_number: self.hand()?,
            seats: self.seats()?,
            note: self.get("note").to_string(),
        })
    }

    /// The amounts typed in fields named `prefix` + a player's id, in the room's currency.
    fn shares(&self, prefix: &str, field: &str, currency: &str) -> AppResult<Vec<ShareInput>> {
        let mut out = Vec::new();
        for (k, v) in &self.0 {
            let Some(id) = k.strip_prefix(prefix) else {
                continue;
            };
            if v.trim().is_empty() {
                continue;
            }
            let player_id: PlayerId = id.parse().map_err(|_| {
                AppError::Validation(vec![FieldError::new(field, "err-ruling-player-unknown")
                    .arg("player", id.chars().take(20).collect::<String>())])
            })?;
            let amount = super::table_side::money_field(field, v, currency)?;
            out.push(ShareInput { player_id, amount });
        }
        Ok(out)
    }

    fn decision(&self, currency: &str) -> AppResult<DecisionInput> {
        let player_ids = self
            .all("player")
            .map(|p| {
                p.trim().parse::<PlayerId>().map_err(|_| {
                    AppError::Validation(vec![FieldError::new(
                        "player_ids",
                        "err-ruling-player-unknown",
                    )
                    .arg("player", p.chars().take(20).collect::<String>())])
                })
            })
            .collect::<AppResult<Vec<PlayerId>>>()?;
        let from = self.shares("from_", "reconstruction", currency)?;
        let to = self.get("to").trim();
        let reconstruction = match (to, from.is_empty()) {
            ("", true) => None,
            ("", false) => {
                return Err(AppError::field(
                    "reconstruction",
                    "err-ruling-reconstruction-no-to",
                ))
            }
            (to, _) => Some(ReconstructionInput {
                to_player_id: to.parse().map_err(|_| {
                    AppError::Validation(vec![FieldError::new(
                        "reconstruction",
                        "err-ruling-player-unknown",
                    )
                    .arg("player", to.chars().take(20).collect::<String>())])
                })?,
                from,
            }),
        };
        Ok(DecisionInput {
            decision: self.get("decision").to_string(),
            rule: self.get("rule").to_string(),
            player_ids,
            override_result: self.on("override_result"),
            override_reason: self.get("override_reason").to_string(),
            release: self.shares("release_", "release", currency)?,
            reconstruction,
        })
    }
}

/// The refusals a page shows above its form (anything else is the error page).
fn refused(e: &AppError) -> bool {
    matches!(
        e,
        AppError::Conflict(_)
            | AppError::Validation(_)
            | AppError::NotFound
            | AppError::Forbidden(_)
    )
}

fn say(st: &AppState, req: &HttpRequest, e: &AppError) -> String {
    crate::web::errors::refusal_text(&st.i18n, crate::web::ctx::request_lang(req), e)
}

// ---- the tablet ---------------------------------------------------------------------------

#[derive(Template)]
#[template(path = "tablet/ruling.html")]
struct TabletAsk {
    c: Ctx,
    tablet: TabletRow,
    f: AskForm,
    problem: Option<String>,
    typed: Typed,
}

async fn tablet_page(
    req: &HttpRequest,
    st: &AppState,
    who: &DealerStaff,
    tablet: TabletRow,
    status: StatusCode,
    problem: Option<String>,
    typed: Typed,
) -> AppResult<HttpResponse> {
    let c = ctx(req, st, &who.0).await?;
    let tid = tablet.table_id;
    let f = st.run(move |_, conn| svc::ask_form(conn, tid)).await?;
    render(
        status,
        &TabletAsk {
            c,
            tablet,
            f,
            problem,
            typed,
        },
    )
}

/// BSOP 18: the dealer's "ask for a ruling" form: the hand in play (or the one before), the
/// seats involved, what happened.
async fn tablet_form(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
) -> AppResult<HttpResponse> {
    let tablet = super::tablet::this_tablet(&req, &st).await?;
    tablet_page(
        &req,
        &st,
        &who,
        tablet,
        StatusCode::OK,
        None,
        Typed::default(),
    )
    .await
}

/// The dealer asks: back to the table, where the ruling shows until the floor decides it.
async fn tablet_ask(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    form: CsrfForm<Vec<(String, String)>>,
) -> AppResult<HttpResponse> {
    let tablet = super::tablet::this_tablet(&req, &st).await?;
    let typed = Typed(form.0);
    let acting = who.acting;
    let tid = tablet.table_id;
    let t = typed.clone();
    let r = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            let input = t.ask()?;
            svc::ask(conn, act, tid, &input)
        })
        .await;
    match r {
        Ok(_) => Ok(see_other("/tablet")),
        Err(e) if refused(&e) => {
            let status = actix_web::ResponseError::status_code(&e);
            let p = say(&st, &req, &e);
            tablet_page(&req, &st, &who.who, tablet, status, Some(p), typed).await
        }
        Err(e) => Err(e),
    }
}

/// The dealer (or a floor manager at the tablet) confirms, as the second staff member, the
/// chips a decision moves at this table.
async fn tablet_confirm(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    path: web::Path<TableId>,
    _f: CsrfForm<Vec<(String, String)>>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    super::tablet::tablet_act(&req, &st, &who, move |conn, t, act| {
        svc::confirm_move(conn, act, id.get(), Some(t.table_id)).map(|_| ())
    })
    .await
}

/// The chips as recorded are refused at the table: nothing moves.
async fn tablet_refuse(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    path: web::Path<TableId>,
    _f: CsrfForm<Vec<(String, String)>>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    super::tablet::tablet_act(&req, &st, &who, move |conn, t, act| {
        svc::cancel_move(conn, act, id.get(), Some(t.table_id)).map(|_| ())
    })
    .await
}

// ---- the incident log -----------------------------------------------------------------------

#[derive(Template)]
#[template(path = "floor/rulings.html")]
struct LogPage {
    c: Ctx,
    q: LogQuery,
    lines: Vec<RulingLine>,
    tables: Vec<(i64, i32)>,
    staff: Vec<(i64, String)>,
    problem: Option<String>,
}

impl LogPage {
    fn csv(&self) -> String {
        format!("/floor/rulings.csv?{}", self.q.to_query())
    }
    fn chosen(&self, v: &Option<String>, id: &i64) -> bool {
        v.as_deref().map(str::trim) == Some(id.to_string().as_str())
    }
    fn value<'a>(&self, v: &'a Option<String>) -> &'a str {
        v.as_deref().unwrap_or("")
    }
}

/// The filters' choices: every table and every staff member by name.
fn choices(conn: &mut crate::db::DbConn) -> AppResult<(Vec<(i64, i32)>, Vec<(i64, String)>)> {
    Ok((
        crate::services::lookups::tables(conn, false)?,
        crate::services::lookups::staff(conn)?,
    ))
}

/// The incident log (BSOP 16-22): filters by gaming day, table, player, staff member and
/// state; a CSV of what is shown.
async fn log_page(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    q: web::Query<LogQuery>,
) -> AppResult<HttpResponse> {
    let c = ctx(&req, &st, &who.0).await?;
    let q = q.into_inner();
    let ds = day_start(&st);
    let query = q.clone();
    let (lines, tables, staff, refusal) = st
        .run(move |_, conn| {
            let room = services::room::get(conn)?;
            let (tables, staff) = choices(conn)?;
            match query.filter(&room, ds, LIST_DEFAULT, true) {
                Ok(f) => Ok((svc::list(conn, &f)?, tables, staff, None)),
                Err(e) => Ok((Vec::new(), tables, staff, Some(e))),
            }
        })
        .await?;
    let (status, problem) = match refusal {
        Some(e) => (
            actix_web::ResponseError::status_code(&e),
            Some(say(&st, &req, &e)),
        ),
        None => (StatusCode::OK, None),
    };
    render(
        status,
        &LogPage {
            c,
            q,
            lines,
            tables,
            staff,
            problem,
        },
    )
}

/// The log as a CSV file in the page's language (the filters of the page).
async fn log_csv_file(
    st: web::Data<AppState>,
    req: HttpRequest,
    _who: FloorStaff,
    q: web::Query<LogQuery>,
) -> AppResult<HttpResponse> {
    let q = q.into_inner();
    let ds = day_start(&st);
    let keep = q.clone();
    let i18n = st.i18n.clone();
    let lang = crate::web::ctx::request_lang(&req);
    let body = st
        .run(move |_, conn| {
            let room = services::room::get(conn)?;
            let f = q.filter(&room, ds, LIST_DEFAULT, true)?;
            let lines = svc::list(conn, &f)?;
            log_csv(&i18n, lang, &room, &lines)
        })
        .await?;
    Ok(crate::web::api::rulings::csv_response(&keep, body))
}

// ---- the floor opens a ruling -------------------------------------------------------------

#[derive(Template)]
#[template(path = "floor/ruling_new.html")]
struct FloorAsk {
    c: Ctx,
    f: AskForm,
    problem: Option<String>,
    typed: Typed,
}

#[derive(Deserialize)]
struct NewQuery {
    table: String,
}

async fn floor_ask_page(
    req: &HttpRequest,
    st: &AppState,
    who: &FloorStaff,
    table_id: TableId,
    status: StatusCode,
    problem: Option<String>,
    typed: Typed,
) -> AppResult<HttpResponse> {
    let c = ctx(req, st, &who.0).await?;
    let f = st.run(move |_, conn| svc::ask_form(conn, table_id)).await?;
    render(
        status,
        &FloorAsk {
            c,
            f,
            problem,
            typed,
        },
    )
}

/// The floor opens a ruling at a table (from its panel on the board).
async fn floor_form(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    q: web::Query<NewQuery>,
) -> AppResult<HttpResponse> {
    let id: i64 = q.table.trim().parse().map_err(|_| AppError::NotFound)?;
    floor_ask_page(
        &req,
        &st,
        &who,
        TableId(id),
        StatusCode::OK,
        None,
        Typed::default(),
    )
    .await
}

async fn floor_ask(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<TableId>,
    form: CsrfForm<Vec<(String, String)>>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let typed = Typed(form.0);
    let acting = who.acting;
    let t = typed.clone();
    let r = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            let input = t.ask()?;
            svc::ask(conn, act, id, &input)
        })
        .await;
    match r {
        Ok(r) => Ok(see_other(&format!("/floor/rulings/{}", r.id))),
        Err(e) if refused(&e) && !matches!(e, AppError::NotFound) => {
            let status = actix_web::ResponseError::status_code(&e);
            let p = say(&st, &req, &e);
            floor_ask_page(&req, &st, &who.who, id, status, Some(p), typed).await
        }
        Err(e) => Err(e),
    }
}

// ---- a ruling's page --------------------------------------------------------------------------

#[derive(Template)]
#[template(path = "floor/ruling.html")]
struct DetailPage {
    c: Ctx,
    d: RulingDetail,
    problem: Option<String>,
    /// Which form the refusal came from (`hold`, `decide`, `correct`), and what it sent.
    form: &'static str,
    typed: Typed,
}

impl DetailPage {
    /// Whether the signed-in person recorded the chips waiting (they cannot confirm them).
    fn recorded_by_me(&self) -> bool {
        let me = self.c.me.as_ref().map(|m| m.id);
        self.d
            .line
            .moved
            .as_ref()
            .is_some_and(|m| Some(m.recorded_by) == me)
    }
    /// What the form `name` shows: what was sent with it when it was refused, else nothing.
    fn typed_for(&self, name: &str) -> Typed {
        if self.form == name {
            self.typed.clone()
        } else {
            Typed::default()
        }
    }
    /// The decision form's "correct" variant is shown (decided, not corrected, no chips
    /// waiting).
    fn may_correct(&self) -> bool {
        self.d.line.ruling.decided_at.is_some()
            && self.d.line.corrected_by.is_none()
            && !self.d.line.awaiting_second()
    }
    /// Players the decision may name besides those involved (seated at the table now).
    fn others(&self) -> Vec<(PlayerId, String)> {
        self.d
            .candidates()
            .into_iter()
            .filter(|(id, _)| !self.d.line.involves(*id))
            .collect()
    }
    /// Players seated now, for a reconstruction (BSOP 20).
    fn seated_players(&self) -> &[(PlayerId, i32, String, i64)] {
        &self.d.seated
    }
}

// The ruling again with its form's typed values and the refusal.
#[allow(clippy::too_many_arguments)]
async fn detail_view(
    req: &HttpRequest,
    st: &AppState,
    who: &FloorStaff,
    id: i64,
    status: StatusCode,
    problem: Option<String>,
    form: &'static str,
    typed: Typed,
) -> AppResult<HttpResponse> {
    let c = ctx(req, st, &who.0).await?;
    let d = st.run(move |_, conn| svc::detail(conn, id)).await?;
    render(
        status,
        &DetailPage {
            c,
            d,
            problem,
            form,
            typed,
        },
    )
}

/// One ruling: its facts, the pot held, the decision (or the forms to hold a pot and decide),
/// the chips waiting for a second staff member, the players' earlier rulings (BSOP 22).
async fn detail_page(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    detail_view(
        &req,
        &st,
        &who,
        id,
        StatusCode::OK,
        None,
        "",
        Typed::default(),
    )
    .await
}

/// Runs one action on a ruling for its page; a refusal shows the page again with the reason
/// above the form it came from, what was typed kept.
async fn act<F>(
    req: &HttpRequest,
    st: &AppState,
    who: &FloorStaff,
    id: i64,
    form: &'static str,
    typed: Typed,
    f: F,
) -> AppResult<HttpResponse>
where
    F: FnOnce(&mut crate::db::DbConn, &Act, &Typed) -> AppResult<i64> + Send + 'static,
{
    let acting = Acting::new(st.clock.now(), services::staff::actor(&who.0.staff));
    let t = typed.clone();
    let r = st
        .write(move |_, conn| {
            let act = acting.in_room(conn)?;
            f(conn, &act, &t)
        })
        .await;
    match r {
        Ok(to) => Ok(see_other(&format!("/floor/rulings/{to}"))),
        Err(e) if refused(&e) && !matches!(e, AppError::NotFound) => {
            let status = actix_web::ResponseError::status_code(&e);
            let p = say(st, req, &e);
            detail_view(req, st, who, id, status, Some(p), form, typed).await
        }
        Err(e) => Err(e),
    }
}

/// BSOP 21: a pot held aside while the decision is pending.
async fn hold(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<i64>,
    form: CsrfForm<Vec<(String, String)>>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    act(
        &req,
        &st,
        &who,
        id,
        "hold",
        Typed(form.0),
        move |conn, act, t| {
            let amount =
                super::table_side::money_field("amount", t.get("amount"), &act.room.currency)?;
            let seats = t.seats()?;
            svc::hold_pot(conn, act, id, amount, &seats, t.get("storage")).map(|_| id)
        },
    )
    .await
}

/// BSOP 16, 17: the decision, final once recorded.
async fn decide(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<i64>,
    form: CsrfForm<Vec<(String, String)>>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    act(
        &req,
        &st,
        &who,
        id,
        "decide",
        Typed(form.0),
        move |conn, act, t| {
            let input = t.decision(&act.room.currency)?;
            svc::decide(conn, act, id, &input).map(|r| r.id)
        },
    )
    .await
}

/// BSOP 17: a correction, a new ruling naming this one (the page goes to the new ruling).
async fn correct(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<i64>,
    form: CsrfForm<Vec<(String, String)>>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    act(
        &req,
        &st,
        &who,
        id,
        "correct",
        Typed(form.0),
        move |conn, act, t| {
            let input = t.decision(&act.room.currency)?;
            svc::correct(conn, act, id, &input).map(|r| r.id)
        },
    )
    .await
}

/// The signed-in floor manager confirms, as the second staff member, the chips a decision
/// moves.
async fn floor_confirm(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<i64>,
    form: CsrfForm<Vec<(String, String)>>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    act(
        &req,
        &st,
        &who,
        id,
        "chips",
        Typed(form.0),
        move |conn, act, _| svc::confirm_move(conn, act, id, None).map(|_| id),
    )
    .await
}

/// The chips as recorded are refused: nothing moves; the floor corrects the ruling.
async fn floor_refuse(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<i64>,
    form: CsrfForm<Vec<(String, String)>>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    act(
        &req,
        &st,
        &who,
        id,
        "chips",
        Typed(form.0),
        move |conn, act, _| svc::cancel_move(conn, act, id, None).map(|_| id),
    )
    .await
}
