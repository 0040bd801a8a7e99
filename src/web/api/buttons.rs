//! The special buttons' JSON API under `/api/v1` (BSOP 115, 116): where a table's Cucurucho
//! and Macaca are, drawing their starting seat (again, with a reason), the special hands with
//! each player's fixed contribution, marking a seat in or out, the Macaca's result; and any
//! recorded draw with its replay. Amounts are integer minor units. Thin handlers over
//! `services::special_buttons` and `services::draws`: the same rules, refusals and audit as
//! the tablet and the floor.

use crate::db::models::SpecialButtonRow;
use crate::domain::ids::PlayerId;
use crate::domain::ids::TableId;
use crate::domain::special_buttons::{MacacaOutcome, SpecialButton};
use crate::domain::Problem;
use crate::error::{AppError, AppResult};
use crate::services::special_buttons::{self as svc, HandView, TableButtons};
use crate::services::{self};
use crate::web::extract::ActingAs;
use crate::web::extract::{AnyStaff, DealerStaff};
use crate::web::json::ApiJson;
use crate::web::openapi::ErrorResponse;
use crate::web::state::AppState;
use actix_web::{web, HttpResponse};
// The route macros: utoipa reads the path and method from them (a bare name).
use actix_web::{get, post};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;

/// Registered inside the `/api/v1` scope: each handler carries its path and method
/// (`#[post(…)]`) and its documentation (`#[utoipa::path]`), registered together.
pub fn routes(cfg: &mut ServiceConfig) {
    cfg.service(table_buttons)
        .service(draw_button)
        .service(list_special_hands)
        .service(mark_seat)
        .service(macaca_result);
}

fn utc(t: chrono::NaiveDateTime) -> DateTime<Utc> {
    t.and_utc()
}

/// A button named in the path: `cucurucho` or `macaca` (anything else is no such resource).
fn button_of(s: &str) -> AppResult<SpecialButton> {
    s.parse().map_err(|_| AppError::NotFound)
}

// ---- response types --------------------------------------------------------------------

/// A special button of a table (BSOP 115, 116).
#[derive(Debug, Serialize, ToSchema)]
pub struct SpecialButtonOut {
    pub kind: SpecialButton,
    /// BSOP 115 | BSOP 116
    pub rule: String,
    /// Each player's fixed contribution on its hand, in big blinds and in minor units (the
    /// table's big blind).
    pub contribution_bb: i32,
    pub contribution: i64,
    /// Its seat (absent: not drawn since the table was opened).
    pub seat: Option<i32>,
    /// The recorded draw that put it there (`GET /api/v1/draws/{id}`).
    pub draw_id: Option<i64>,
    pub drawn_at: Option<DateTime<Utc>>,
    /// Why it was drawn again.
    pub reason: Option<String>,
    /// The dealer button reached it while another special hand was played: its hand is the
    /// next one.
    pub pending: bool,
    /// BSOP 116: the Macaca's chips kept for her next hand (0: the next Macaca is a new one,
    /// funded by the players' contributions).
    pub bank: i64,
}

fn button_row_out(
    kind: SpecialButton,
    contribution_bb: i32,
    contribution: i64,
    r: Option<&SpecialButtonRow>,
) -> SpecialButtonOut {
    SpecialButtonOut {
        kind,
        rule: kind.rule().to_string(),
        contribution_bb,
        contribution,
        seat: r.map(|r| r.seat_no),
        draw_id: r.map(|r| r.draw_id),
        drawn_at: r.map(|r| utc(r.drawn_at)),
        reason: r.and_then(|r| r.reason.clone()),
        pending: r.is_some_and(|r| r.pending),
        bank: r.map(|r| r.bank).unwrap_or(0),
    }
}

/// One seat's fixed contribution to a special hand.
#[derive(Debug, Serialize, ToSchema)]
pub struct ContributionOut {
    pub seat: i32,
    #[schema(value_type = i64)]
    pub player_id: PlayerId,
    pub alias: String,
    pub amount: i64,
    /// The player takes part (puts the contribution); false: marked out (e.g. away).
    pub took_part: bool,
}

/// BSOP 116: the Macaca on her hand.
#[derive(Debug, Serialize, ToSchema)]
pub struct MacacaOut {
    /// Her chips from earlier hands (0: a new Macaca, funded by the contributions).
    pub bank_before: i64,
    /// The most she puts all in on one hand.
    pub cap: i64,
    /// Her chips on this hand, what she puts all in, and what waits aside for her next hand.
    pub chips: i64,
    pub stake: i64,
    pub aside: i64,
    /// The result the dealer recorded (absent: not yet; the next hand waits for it).
    pub outcome: Option<MacacaOutcome>,
    pub collected: Option<i64>,
    /// What she keeps for her next hand (0: eliminated).
    pub bank_after: Option<i64>,
}

/// A hand played as a special game (BSOP 115, 116).
#[derive(Debug, Serialize, ToSchema)]
pub struct SpecialHandOut {
    pub id: i64,
    pub hand_id: i64,
    /// The table's hand number.
    pub hand_number: i32,
    pub kind: SpecialButton,
    /// The special button's seat, and the dealer button's for the hand.
    pub button_seat: i32,
    pub dealer_seat: Option<i32>,
    pub contribution_bb: i32,
    pub big_blind: i64,
    /// Each player's fixed contribution.
    pub amount: i64,
    /// One line per seated player (none for a Macaca who plays her own chips).
    pub contributions: Vec<ContributionOut>,
    /// What the seats taking part put.
    pub total: i64,
    /// Being played (the table's current hand): seats may be marked, the Macaca's result
    /// recorded.
    pub current: bool,
    pub at: DateTime<Utc>,
    pub macaca: Option<MacacaOut>,
}

fn hand_out(h: &HandView) -> SpecialHandOut {
    let r = &h.row;
    SpecialHandOut {
        id: r.id,
        hand_id: r.hand_id,
        hand_number: h.number,
        kind: r.kind,
        button_seat: r.button_seat,
        dealer_seat: r.dealer_seat,
        contribution_bb: r.contribution_bb,
        big_blind: r.big_blind,
        amount: r.amount,
        contributions: h
            .contributions
            .iter()
            .map(|c| ContributionOut {
                seat: c.row.seat_no,
                player_id: c.row.player_id,
                alias: c.alias.clone(),
                amount: c.row.amount,
                took_part: c.row.took_part,
            })
            .collect(),
        total: h.total,
        current: h.current,
        at: utc(r.at),
        macaca: h.macaca.map(|m| MacacaOut {
            bank_before: r.bank_before,
            cap: r.cap.unwrap_or(0),
            chips: m.chips,
            stake: r.stake.unwrap_or(m.stake),
            aside: m.aside,
            outcome: r.outcome,
            collected: r.collected,
            bank_after: r.bank_after,
        }),
    }
}

/// A table's special buttons.
#[derive(Debug, Serialize, ToSchema)]
pub struct SpecialButtonsOut {
    #[schema(value_type = i64)]
    pub table_id: TableId,
    /// The table's big blind (absent: the table's game runs no special button).
    pub big_blind: Option<i64>,
    /// BSOP 116: the Macaca's all-in cap, in big blinds.
    pub macaca_cap_bb: Option<i32>,
    /// The buttons the table's game runs, Cucurucho first (none: it runs neither).
    pub buttons: Vec<SpecialButtonOut>,
    /// The hand being played, when it is a special hand.
    pub hand: Option<SpecialHandOut>,
}

fn buttons_out(table_id: TableId, b: Option<&TableButtons>) -> SpecialButtonsOut {
    SpecialButtonsOut {
        table_id,
        big_blind: b.map(|b| b.big_blind),
        macaca_cap_bb: b.map(|b| b.macaca_cap_bb),
        buttons: b
            .map(|b| {
                b.buttons
                    .iter()
                    .map(|x| button_row_out(x.kind, x.contribution_bb, x.amount, x.row.as_ref()))
                    .collect()
            })
            .unwrap_or_default(),
        hand: b.and_then(|b| b.hand.as_ref()).map(hand_out),
    }
}

// ---- handlers --------------------------------------------------------------------------

/// Where the table's special buttons are (BSOP 115, 116), each player's fixed contribution,
/// the Macaca's chips, and the hand being played when it is a special hand.
#[utoipa::path(
    tag = "buttons",
    params(("id" = i64, Path, description = "Table id")),
    responses((status = 200, body = SpecialButtonsOut), (status = 404, body = ErrorResponse))
)]
#[get("/tables/{id}/special-buttons")]
pub async fn table_buttons(
    st: web::Data<AppState>,
    _who: AnyStaff,
    path: web::Path<TableId>,
) -> AppResult<web::Json<SpecialButtonsOut>> {
    let id = path.into_inner();
    let b = st
        .run(move |_, c| {
            let t = services::games::get_table(c, id)?;
            svc::of_table(c, &t)
        })
        .await?;
    Ok(web::Json(buttons_out(id, b.as_ref())))
}

/// A special button's draw: `reason` is required to draw a button already in play again.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[schema(as = SpecialDrawRequest)]
pub struct DrawBody {
    /// Why the button is drawn again (required then; at most 200 characters).
    pub reason: Option<String>,
}

/// What a special button's draw gave.
#[derive(Debug, Serialize, ToSchema)]
pub struct DrawnOut {
    pub button: SpecialButtonOut,
    /// The recorded draw (`GET /api/v1/draws/{id}`, `/draws/{id}` on the floor).
    pub draw_id: i64,
    /// The seat it was on before (a redraw).
    pub replaced_seat: Option<i32>,
}

/// BSOP 115, 116: draws the starting seat of a special button among the table's occupied
/// seats (a high card to each, the highest card's seat gets it; the other special button's
/// seat left out while another remains), recorded with its seed and replayable. The dealer
/// (at their own table) or the floor. Refused (409, nothing recorded) at a table that is not
/// open or running, for a game that does not run the button, with fewer than two players; a
/// button already in play is drawn again only with a `reason` (422 on `reason`). The body is
/// optional.
#[utoipa::path(
    tag = "buttons",
    params(("id" = i64, Path, description = "Table id"), ("kind" = SpecialButton, Path, description = "cucurucho | macaca")),
    request_body(content = Option<DrawBody>, description = "The reason for drawing again (optional the first time)"),
    responses((status = 201, body = DrawnOut), (status = 404, body = ErrorResponse), (status = 409, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[post("/tables/{id}/special-buttons/{kind}/draw")]
pub async fn draw_button(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<(i64, String)>,
    body: web::Bytes,
) -> AppResult<HttpResponse> {
    let (id, kind) = path.into_inner();
    let kind = button_of(&kind)?;
    let b: DrawBody = if body.iter().all(u8::is_ascii_whitespace) {
        DrawBody::default()
    } else {
        let value: serde_json::Value = serde_json::from_slice(&body)
            .map_err(|e| AppError::BadRequest(Problem::new("err-json").arg("detail", e)))?;
        crate::web::json::from_value::<Option<DrawBody>>(value)?.unwrap_or_default()
    };
    let acting = who.acting;
    let (d, contribution_bb, contribution) = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            let d = svc::draw(c, act, TableId(id), kind, b.reason.as_deref())?;
            let t = services::games::get_table(c, TableId(id))?;
            let g = services::games::get_game(c, t.game_id.unwrap_or_default())?;
            let bb = svc::settings_of(&g).contribution_bb(kind);
            let amount =
                crate::domain::special_buttons::in_big_blinds(svc::table_big_blind(c, &t)?, bb)
                    .map_err(|_| AppError::Conflict(Problem::new("err-money-overflow")))?;
            Ok((d, bb, amount))
        })
        .await?;
    Ok(HttpResponse::Created().json(DrawnOut {
        button: button_row_out(kind, contribution_bb, contribution, Some(&d.button)),
        draw_id: d.draw.id,
        replaced_seat: d.replaced.map(|r| r.seat_no),
    }))
}

/// The table's special hands, newest first (the last 50), each with every seat's fixed
/// contribution and, for the Macaca, her chips and result.
#[utoipa::path(
    tag = "buttons",
    params(("id" = i64, Path, description = "Table id")),
    responses((status = 200, body = Vec<SpecialHandOut>), (status = 404, body = ErrorResponse))
)]
#[get("/tables/{id}/special-hands")]
pub async fn list_special_hands(
    st: web::Data<AppState>,
    _who: AnyStaff,
    path: web::Path<TableId>,
) -> AppResult<web::Json<Vec<SpecialHandOut>>> {
    let id = path.into_inner();
    let v = st
        .run(move |_, c| {
            services::games::get_table(c, id)?;
            svc::hands_of(c, id, 50)
        })
        .await?;
    Ok(web::Json(v.iter().map(hand_out).collect()))
}

/// A seat in or out of a special hand.
#[derive(Debug, Deserialize, ToSchema)]
pub struct MarkBody {
    /// The player takes part (puts the fixed contribution); false: not (e.g. away).
    pub took_part: bool,
}

/// BSOP 115, 116: the dealer marks the player of a seat as taking part in the special hand or
/// not, while the hand is being played (409 after it; 404 for a seat not in it). Marking a
/// seat as it is changes nothing.
#[utoipa::path(
    tag = "buttons",
    params(("id" = i64, Path, description = "Table id"), ("hand" = i64, Path, description = "Special hand id"), ("seat" = i32, Path, description = "Seat number")),
    request_body = MarkBody,
    responses((status = 200, body = SpecialHandOut), (status = 404, body = ErrorResponse), (status = 409, body = ErrorResponse))
)]
#[post("/tables/{id}/special-hands/{hand}/seats/{seat}")]
pub async fn mark_seat(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<(i64, i64, i32)>,
    body: ApiJson<MarkBody>,
) -> AppResult<web::Json<SpecialHandOut>> {
    let (id, hand, seat) = path.into_inner();
    let took_part = body.took_part;
    let acting = who.acting;
    let h = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            svc::mark(c, act, TableId(id), hand, seat, took_part)?;
            svc::hand_at(c, TableId(id), hand)
        })
        .await?;
    Ok(web::Json(hand_out(&h)))
}

/// The Macaca's result.
#[derive(Debug, Deserialize, ToSchema)]
pub struct MacacaResultBody {
    pub outcome: MacacaOutcome,
    /// `won`: what she collected from the pot (minor units, required); `lost`: none.
    pub collected: Option<i64>,
}

/// BSOP 116: the dealer records how the Macaca's hand ended, while it is being played (the
/// next "new hand" tap is refused until it is): `won` with what she collected — it joins
/// what she had aside — or `lost` (she keeps only what was aside; none: eliminated). Recorded
/// again before the next hand, it corrects the result.
#[utoipa::path(
    tag = "buttons",
    params(("id" = i64, Path, description = "Table id"), ("hand" = i64, Path, description = "Special hand id")),
    request_body = MacacaResultBody,
    responses((status = 200, body = SpecialHandOut), (status = 404, body = ErrorResponse), (status = 409, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[post("/tables/{id}/special-hands/{hand}/macaca-result")]
pub async fn macaca_result(
    st: web::Data<AppState>,
    who: ActingAs<DealerStaff>,
    path: web::Path<(i64, i64)>,
    body: ApiJson<MacacaResultBody>,
) -> AppResult<web::Json<SpecialHandOut>> {
    let (id, hand) = path.into_inner();
    let b = body.into_inner();
    let acting = who.acting;
    let h = st
        .write(move |_, c| {
            let act = &acting.in_room(c)?;
            svc::macaca_result(c, act, TableId(id), hand, b.outcome, b.collected)?;
            svc::hand_at(c, TableId(id), hand)
        })
        .await?;
    Ok(web::Json(hand_out(&h)))
}
