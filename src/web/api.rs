//! The JSON API under `/api/v1`: thin handlers over the same services as the pages.
//!
//! Callers authenticate with `Authorization: Bearer <token>` (from `POST /api/v1/auth/login`);
//! every refusal is an `AppError`, turned into the localized `{"error":{…}}` body by the
//! error middleware. Rows are mapped into the small response types below (what the API
//! promises), never serialized straight from the database.

use crate::auth::{self, TokenKind};
use crate::db::audit::record as audit_record;
use crate::db::models::{
    AuditRow, ExclusionRow, GameRow, PlayerRow, SeparationRow, StaffRow, TableRow,
};
use crate::domain::eligibility::Ineligible;
use crate::domain::player::{Language, Warning};
use crate::domain::{FieldError, Problem};
use crate::error::{AppError, AppResult};
use crate::i18n::I18n;
use crate::services::audit::AuditFilter;
use crate::services::games::{GameInput, TableInput};
use crate::services::players::{self as svc, BanForm, PlayerForm, ReasonForm, SeparationForm};
use crate::services::room::{Room, RoomUpdate};
use crate::services::sessions::{self as sessions_svc, EndReason, SessionKind};
use crate::services::staff::{NewStaff, PasswordChange, StaffInput};
use crate::services::{self, photo};
use crate::web::ctx::request_lang;
use crate::web::extract::{AdminStaff, AnyStaff, FloorStaff, RegistryReader};
use crate::web::json::ApiJson;
use crate::web::openapi::{ErrorResponse, Image};
use crate::web::state::AppState;
use actix_web::dev::ResourceDef;
use actix_web::http::header;
use actix_web::{web, HttpMessage, HttpRequest, HttpResponse};
// The route macros: utoipa reads the path and method from them (a bare name).
use actix_web::{delete, get, post, put};
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

/// The API: `/api/openapi.json` and the `/api/v1` scope. Each handler carries its path and
/// method (`#[get(…)]`) beside its documentation (`#[utoipa::path]`), and
/// `utoipa_actix_web` registers both at once: the document describes exactly the routes
/// mounted (the test clock's only when that setting is on).
pub fn routes(cfg: &mut web::ServiceConfig, test_clock: bool) {
    let mut v1 = utoipa_actix_web::scope("/api/v1")
        .service(login)
        .service(change_password)
        .service(logout)
        .service(me)
        .service(my_sessions)
        .service(end_my_session)
        .service(end_staff_sessions)
        .service(list_players)
        .service(create_player)
        .service(get_player)
        .service(update_player)
        .service(get_photo)
        .service(put_photo)
        .service(eligibility)
        .service(ban_player)
        .service(lift_ban)
        .service(separate)
        .service(remove_separation)
        .service(player_history)
        .service(get_room)
        .service(update_room)
        .service(list_games)
        .service(create_game)
        .service(get_game)
        .service(update_game)
        .service(list_tables)
        .service(create_table)
        .service(update_table)
        .service(list_staff)
        .service(create_staff)
        .service(update_staff)
        .service(list_audit)
        .service(verify_audit)
        .configure(crate::web::api_floor::routes)
        .configure(crate::web::api_table::routes)
        .configure(crate::web::api_limits::routes)
        .configure(crate::web::api_cagnotte::routes)
        .configure(crate::web::api_draws::routes)
        .configure(crate::web::api_messages::routes)
        .configure(crate::web::api_tablets::routes)
        .configure(crate::web::api_join::routes)
        .configure(crate::web::api_prefs::routes)
        .configure(crate::web::api_safe::routes)
        .configure(crate::web::api_buttons::routes)
        .configure(crate::web::api_rulings::routes);
    if test_clock {
        v1 = v1.service(get_clock).service(advance_clock);
    }
    let doc = crate::web::openapi::document(&v1);
    let known = web::Data::new(KnownPaths::of(&doc));
    let spec = web::Data::new(ApiSpec(crate::web::openapi::to_json(&doc)));
    cfg.service(
        web::resource("/api/openapi.json")
            .app_data(spec)
            .route(web::get().to(openapi_json)),
    );
    cfg.service(v1.app_data(known).default_service(web::to(not_routed)));
}

/// The API's paths as routing patterns. Each handler is a resource of its own with one
/// method, so a known path asked with another method matches none of them and reaches the
/// scope's default service: a 405 there, as when a path's methods shared one resource.
/// With each pattern, the methods the document lists for it (the 405's `Allow`).
struct KnownPaths(Vec<(ResourceDef, String)>);

impl KnownPaths {
    fn of(doc: &utoipa::openapi::OpenApi) -> KnownPaths {
        KnownPaths(
            doc.paths
                .paths
                .iter()
                .map(|(p, item)| {
                    let methods: Vec<&str> = [
                        ("GET", item.get.is_some()),
                        ("POST", item.post.is_some()),
                        ("PUT", item.put.is_some()),
                        ("PATCH", item.patch.is_some()),
                        ("DELETE", item.delete.is_some()),
                    ]
                    .into_iter()
                    .filter_map(|(m, has)| has.then_some(m))
                    .collect();
                    (ResourceDef::new(p.as_str()), methods.join(", "))
                })
                .collect(),
        )
    }
}

/// A known path asked with another method: 405 with `Allow` (RFC 9110 15.5.6) naming the
/// methods it takes (every pattern the path matches, e.g. `/players/{id}` and its
/// neighbours); an unknown path: 404.
async fn not_routed(req: HttpRequest, known: web::Data<KnownPaths>) -> AppResult<HttpResponse> {
    let mut allow: Vec<&str> = known
        .0
        .iter()
        .filter(|(d, _)| d.is_match(req.path()))
        .flat_map(|(_, m)| m.split(", "))
        .filter(|m| !m.is_empty())
        .collect();
    if allow.is_empty() {
        return Err(AppError::NotFound);
    }
    allow.sort_unstable();
    allow.dedup();
    let mut res = HttpResponse::from_error(AppError::MethodNotAllowed);
    if let Ok(v) = header::HeaderValue::from_str(&allow.join(", ")) {
        res.headers_mut().insert(header::ALLOW, v);
    }
    Ok(res)
}

struct ApiSpec(String);

async fn openapi_json(spec: web::Data<ApiSpec>) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/json")
        .body(spec.0.clone())
}

// ---- response types --------------------------------------------------------------------

fn utc(t: chrono::NaiveDateTime) -> DateTime<Utc> {
    t.and_utc()
}

/// A staff account (never its password hash).
#[derive(Debug, Serialize, ToSchema)]
pub struct StaffOut {
    pub id: i64,
    pub username: String,
    pub display_name: String,
    /// admin | floor | dealer | cashier
    pub role: String,
    pub active: bool,
    /// pt | en, when the person chose one.
    pub language: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

impl From<&StaffRow> for StaffOut {
    fn from(s: &StaffRow) -> Self {
        StaffOut {
            id: s.id,
            username: s.username.clone(),
            display_name: s.display_name.clone(),
            role: s.role.clone(),
            active: s.active,
            language: s.language.clone(),
            created_at: utc(s.created_at),
            updated_at: utc(s.updated_at),
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct LoginRequest {
    pub username: String,
    pub password: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct LoginResponse {
    /// Send as `Authorization: Bearer <token>`.
    pub token: String,
    pub expires_at: DateTime<Utc>,
    pub staff: StaffOut,
}

/// A registered player.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlayerOut {
    pub id: i64,
    pub full_name: String,
    pub alias: String,
    pub date_of_birth: NaiveDate,
    /// passport | driving_licence | national_id | military_id
    pub doc_kind: String,
    pub doc_number: String,
    pub doc_country: String,
    pub doc_expiry: NaiveDate,
    pub phone: Option<String>,
    pub email: Option<String>,
    pub language: String,
    pub notify: String,
    pub has_photo: bool,
    /// Send it back with an edit to refuse lost updates.
    pub version: i32,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

impl From<&PlayerRow> for PlayerOut {
    fn from(p: &PlayerRow) -> Self {
        PlayerOut {
            id: p.id,
            full_name: p.full_name.clone(),
            alias: p.alias.clone(),
            date_of_birth: p.date_of_birth,
            doc_kind: p.doc_kind.clone(),
            doc_number: p.doc_number.clone(),
            doc_country: p.doc_country.clone(),
            doc_expiry: p.doc_expiry,
            phone: p.phone.clone(),
            email: p.email.clone(),
            language: p.language.clone(),
            notify: p.notify.clone(),
            has_photo: p.has_photo,
            version: p.version,
            created_at: utc(p.created_at),
            updated_at: utc(p.updated_at),
        }
    }
}

/// Something the desk should know that did not stop the save.
#[derive(Debug, Serialize, ToSchema)]
pub struct WarningOut {
    /// id_expires_soon
    pub code: String,
    pub message: String,
    pub date: NaiveDate,
    pub days: i64,
}

fn warning_out(i18n: &I18n, lang: Language, w: &Warning) -> WarningOut {
    match w {
        Warning::IdExpiresSoon { on, days } => WarningOut {
            code: "id_expires_soon".into(),
            message: i18n.msg(
                lang,
                "warn-id-expires",
                &[
                    ("date", crate::i18n::local_date(lang, *on)),
                    ("days", days.to_string()),
                ],
            ),
            date: *on,
            days: *days,
        },
    }
}

/// The reason codes of `eligible_to_play` (under18 | no_photo | id_expired | banned).
fn reason_codes(r: &[Ineligible]) -> Vec<String> {
    r.iter()
        .map(|x| {
            serde_json::to_value(x)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default()
        })
        .collect()
}

/// A player as saved, with the registration warnings and why they may not be seated yet.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlayerSaved {
    pub player: PlayerOut,
    pub warnings: Vec<WarningOut>,
    /// Reason codes; empty: eligible to play.
    #[schema(example = json!(["no_photo"]))]
    pub eligibility: Vec<String>,
}

/// The one eligibility check every seating path uses (BSOP 1, 2, 3, 10).
#[derive(Debug, Serialize, ToSchema)]
pub struct EligibilityOut {
    pub eligible: bool,
    /// under18 | no_photo | id_expired | banned
    #[schema(example = json!(["no_photo"]))]
    pub reasons: Vec<String>,
    /// The reasons in the request's language, in the same order.
    pub messages: Vec<String>,
}

fn eligibility_out(i18n: &I18n, lang: Language, r: &[Ineligible]) -> EligibilityOut {
    EligibilityOut {
        eligible: r.is_empty(),
        reasons: reason_codes(r),
        messages: r.iter().map(|x| i18n.t(lang, x.key())).collect(),
    }
}

/// An exclusion (ban): BSOP 2, 10, 11.
#[derive(Debug, Serialize, ToSchema)]
pub struct ExclusionOut {
    pub id: i64,
    pub player_id: i64,
    pub reason: String,
    pub starts_at: DateTime<Utc>,
    /// None: permanent.
    pub ends_at: Option<DateTime<Utc>>,
    pub created_by: Option<i64>,
    pub created_at: DateTime<Utc>,
    pub lifted_at: Option<DateTime<Utc>>,
    pub lifted_by: Option<i64>,
    pub lift_reason: Option<String>,
    /// Whether it keeps the player from playing now (in a player's details).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub in_force: Option<bool>,
}

impl ExclusionOut {
    fn new(e: &ExclusionRow, in_force: Option<bool>) -> Self {
        ExclusionOut {
            id: e.id,
            player_id: e.player_id,
            reason: e.reason.clone(),
            starts_at: utc(e.starts_at),
            ends_at: e.ends_at.map(utc),
            created_by: e.created_by,
            created_at: utc(e.created_at),
            lifted_at: e.lifted_at.map(utc),
            lifted_by: e.lifted_by,
            lift_reason: e.lift_reason.clone(),
            in_force,
        }
    }
}

/// Who a separation is with.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlayerRef {
    pub id: i64,
    pub full_name: String,
    pub alias: String,
}

/// Two players who must never sit at the same table (BSOP 47).
#[derive(Debug, Serialize, ToSchema)]
pub struct SeparationOut {
    pub id: i64,
    pub player_a: i64,
    pub player_b: i64,
    pub reason: String,
    pub created_by: Option<i64>,
    pub created_at: DateTime<Utc>,
    pub removed_at: Option<DateTime<Utc>>,
    pub removed_by: Option<i64>,
    /// The other player (in a player's details).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub other: Option<PlayerRef>,
}

impl SeparationOut {
    fn new(s: &SeparationRow, other: Option<&PlayerRow>) -> Self {
        SeparationOut {
            id: s.id,
            player_a: s.player_a,
            player_b: s.player_b,
            reason: s.reason.clone(),
            created_by: s.created_by,
            created_at: utc(s.created_at),
            removed_at: s.removed_at.map(utc),
            removed_by: s.removed_by,
            other: other.map(|p| PlayerRef {
                id: p.id,
                full_name: p.full_name.clone(),
                alias: p.alias.clone(),
            }),
        }
    }
}

/// A player with everything the floor needs before seating them.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlayerDetail {
    pub player: PlayerOut,
    pub eligible: bool,
    /// Reason codes; empty: eligible to play.
    pub eligibility: Vec<String>,
    /// Every exclusion, newest first, each with `in_force`.
    pub exclusions: Vec<ExclusionOut>,
    /// The players this one must never sit with.
    pub separations: Vec<SeparationOut>,
    /// E.g. the ID expires within 30 days.
    pub warnings: Vec<WarningOut>,
}

/// One record of the hash-chained audit trail.
#[derive(Debug, Serialize, ToSchema)]
pub struct AuditOut {
    pub seq: i64,
    pub at: DateTime<Utc>,
    pub actor_id: Option<i64>,
    pub actor_name: String,
    pub action: String,
    pub subject_kind: String,
    pub subject_id: Option<i64>,
    /// The subject before the action (null when none).
    pub before: serde_json::Value,
    /// The subject after the action (null when none).
    pub after: serde_json::Value,
    pub prev_hash: String,
    pub hash: String,
}

fn stored_json(s: &str) -> serde_json::Value {
    if s.is_empty() {
        serde_json::Value::Null
    } else {
        serde_json::from_str(s).unwrap_or_else(|_| serde_json::Value::String(s.to_string()))
    }
}

impl From<&AuditRow> for AuditOut {
    fn from(a: &AuditRow) -> Self {
        AuditOut {
            seq: a.seq,
            at: utc(a.at),
            actor_id: a.actor_id,
            actor_name: a.actor_name.clone(),
            action: a.action.clone(),
            subject_kind: a.subject_kind.clone(),
            subject_id: a.subject_id,
            before: stored_json(&a.before_json),
            after: stored_json(&a.after_json),
            prev_hash: a.prev_hash.clone(),
            hash: a.hash.clone(),
        }
    }
}

/// The outcome of verifying the audit chain.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChainReportOut {
    /// The chain is intact and every signed checkpoint matches it.
    pub ok: bool,
    pub records: u64,
    /// The first broken record's sequence number (for `checkpoint_forged` and
    /// `checkpoints_reordered`: the line of the checkpoint file).
    pub broken_at: Option<i64>,
    /// The chain's problem (`tampered`, `unlinked`, `gap`) or the checkpoints' (`truncated`:
    /// a record a checkpoint vouched for is gone; `rewritten`: it has another hash now;
    /// `checkpoint_forged`, `checkpoints_reordered`, `checkpoints_missing`).
    pub problem: Option<String>,
    /// Signed checkpoints verified against the chain.
    pub checkpoints: usize,
    /// The last record a signed checkpoint vouches for.
    pub sealed_up_to: Option<i64>,
    /// The database's identity (a random id made with it, kept in it) that the checkpoints
    /// must name.
    pub database_id: String,
    /// The host name of the server that answered (its series is `series[0]`).
    pub host: String,
    /// Every checkpoint file checked: this database's series of each host found in the
    /// audit directory, and the old single file if one was left there.
    pub series: Vec<SealSeriesOut>,
}

/// One checkpoint file checked by the audit verification.
#[derive(Debug, Serialize, ToSchema)]
pub struct SealSeriesOut {
    /// The host that wrote it (null: the old single checkpoint file, which names none).
    pub host: Option<String>,
    /// Its file name in the audit directory.
    pub file: String,
    /// Checkpoints verified in it (0 when it is broken).
    pub checkpoints: usize,
    /// The last record it vouches for.
    pub last_seq: Option<i64>,
    /// `ok`; a problem (`truncated`, `rewritten`, `checkpoint_forged`,
    /// `checkpoints_reordered`, `checkpoints_missing`: this host's series is gone); or
    /// `other_database`: the old single file does not match this database's trail (another
    /// database's, or several in turn), left as it is and no finding against this one.
    pub result: String,
    /// The record (or line) the problem is at.
    pub broken_at: Option<i64>,
}

impl From<&crate::audit_seal::SeriesReport> for SealSeriesOut {
    fn from(s: &crate::audit_seal::SeriesReport) -> Self {
        SealSeriesOut {
            host: s.host.clone(),
            file: s.file.clone(),
            checkpoints: s.checkpoints,
            last_seq: s.last_seq,
            result: s.result.code().to_string(),
            broken_at: s.result.at(),
        }
    }
}

/// A game. Amounts in minor units (cents); percentages in basis points.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameOut {
    pub id: i64,
    pub name: String,
    pub variant: String,
    pub small_blind: i64,
    pub big_blind: i64,
    pub limit_class: String,
    pub buy_in_min: i64,
    pub buy_in_max: Option<i64>,
    pub seats: i32,
    pub cagnotte_mode: String,
    pub cagnotte_bp: i32,
    pub active: bool,
    /// BSOP 55, 58: how the game's extra tables run; a change applies when a table of the
    /// game next opens or breaks.
    pub table_policy: crate::domain::game::TablePolicy,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// BSOP 115: the game runs a Cucurucho button, each player putting `cucurucho_bb` big
    /// blinds in the pot on its hand.
    pub cucurucho: bool,
    pub cucurucho_bb: i32,
    /// BSOP 116: the game runs a Macaca button, each player putting `macaca_bb` big blinds
    /// for a new Macaca, who is all in for at most `macaca_cap_bb` big blinds a hand.
    pub macaca: bool,
    pub macaca_bb: i32,
    pub macaca_cap_bb: i32,
}

impl From<&GameRow> for GameOut {
    fn from(g: &GameRow) -> Self {
        GameOut {
            id: g.id,
            name: g.name.clone(),
            variant: g.variant.clone(),
            small_blind: g.small_blind,
            big_blind: g.big_blind,
            limit_class: g.limit_class.clone(),
            buy_in_min: g.buy_in_min,
            buy_in_max: g.buy_in_max,
            seats: g.seats,
            cagnotte_mode: g.cagnotte_mode.clone(),
            cagnotte_bp: g.cagnotte_bp,
            active: g.active,
            table_policy: g.policy(),
            created_at: utc(g.created_at),
            updated_at: utc(g.updated_at),
            cucurucho: g.cucurucho,
            cucurucho_bb: g.cucurucho_bb,
            macaca: g.macaca,
            macaca_bb: g.macaca_bb,
            macaca_cap_bb: g.macaca_cap_bb,
        }
    }
}

/// A game as saved, with the pending limit changes of its tables in play, those its edit just
/// made included (PT-2007 22, BSOP 34: a table keeps its limits until the change is announced
/// there and the next hand starts).
#[derive(Debug, Serialize, ToSchema)]
pub struct GameSavedOut {
    #[serde(flatten)]
    pub game: GameOut,
    pub limit_changes: Vec<crate::web::api_limits::LimitChangeOut>,
}

/// A table, with the game it runs.
#[derive(Debug, Serialize, ToSchema)]
pub struct TableOut {
    pub id: i64,
    pub number: i32,
    pub seats: i32,
    pub game_id: Option<i64>,
    /// continuous | session
    pub mode: String,
    pub state: String,
    pub active: bool,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub game: Option<GameOut>,
    /// The limits the table plays now (PT-2007 22: its own in play, else its game's).
    pub limits: Option<crate::web::api_limits::LimitsOut>,
}

impl TableOut {
    fn new(t: &TableRow, game: Option<&GameRow>) -> Self {
        TableOut {
            id: t.id,
            number: t.number,
            seats: t.seats,
            game_id: t.game_id,
            mode: t.mode.clone(),
            state: t.state.clone(),
            active: t.active,
            created_at: utc(t.created_at),
            updated_at: utc(t.updated_at),
            game: game.map(GameOut::from),
            limits: services::limits::of(t, game).map(Into::into),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ClockOut {
    pub now: DateTime<Utc>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ClockAdvance {
    /// 1 to 10080 (one week).
    pub minutes: i64,
}

// ---- query parameters ------------------------------------------------------------------

#[derive(Debug, Deserialize, IntoParams)]
pub struct PlayerQuery {
    /// Name, alias, document number, phone or e-mail; every word must match.
    pub q: Option<String>,
    /// 1 to 200 (default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<i64>,
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct HistoryQuery {
    /// 1 to 200 (default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<i64>,
}

/// The time window of an audit search (RFC 3339 instants, e.g. `2026-11-21T20:00:00Z`).
#[derive(Debug, Deserialize, IntoParams)]
pub struct AuditRange {
    /// Records at or after this instant.
    #[param(format = DateTime)]
    pub from: Option<String>,
    /// Records before this instant.
    #[param(format = DateTime)]
    pub to: Option<String>,
}

pub(crate) fn page_limit(limit: Option<i64>) -> AppResult<i64> {
    let l = limit.unwrap_or(50);
    if (1..=200).contains(&l) {
        Ok(l)
    } else {
        Err(AppError::field("limit", "err-limit"))
    }
}

fn instant(field: &str, v: Option<&str>) -> Result<Option<DateTime<Utc>>, FieldError> {
    let Some(s) = v.map(str::trim) else {
        return Ok(None);
    };
    // Absent is omitted; an empty value is not an instant (the API is not a form).
    if s.is_empty() {
        return Err(FieldError::new(field, "api-instant"));
    }
    // An unencoded `+` in a query string arrives as a space.
    DateTime::parse_from_rfc3339(s)
        .or_else(|_| DateTime::parse_from_rfc3339(&s.replace(' ', "+")))
        .map(|t| Some(t.with_timezone(&Utc)))
        .map_err(|_| FieldError::new(field, "api-instant"))
}

// ---- sign-in ---------------------------------------------------------------------------

/// Signs in and returns a Bearer token. Repeated failures make the next attempts wait,
/// counted per username from one address, per address and per username (waits doubling from
/// 1 s; 429 with `Retry-After`). An unknown username is answered exactly like a known one.
#[utoipa::path(
    tag = "auth", security(()),
    request_body = LoginRequest,
    responses(
        (status = 200, body = LoginResponse),
        (status = 401, description = "Wrong username or password", body = ErrorResponse),
        (status = 429, description = "Locked after repeated failures", body = ErrorResponse),
    )
)]
#[post("/auth/login")]
pub async fn login(
    req: HttpRequest,
    st: web::Data<AppState>,
    body: ApiJson<LoginRequest>,
) -> AppResult<web::Json<LoginResponse>> {
    let now = st.clock.now();
    let LoginRequest { username, password } = body.into_inner();
    let from = crate::web::client::sign_in_from(&req, &st, SessionKind::Api);
    let (staff, session) = st.sign_in(username, password, from).await??;
    let (token, claims) = auth::issue(
        &st.keys,
        staff.id,
        staff.token_version,
        TokenKind::Api,
        &session.id,
        now,
        st.config.session_hours,
    );
    Ok(web::Json(LoginResponse {
        token,
        expires_at: DateTime::from_timestamp(claims.exp, 0).unwrap_or(now),
        staff: StaffOut::from(&staff),
    }))
}

/// Changes one's own password. Every token of this person ends, this one included: sign in
/// again with the new password.
#[utoipa::path(
    tag = "auth",
    request_body = PasswordChange,
    responses(
        (status = 204, description = "Changed"),
        (status = 401, body = ErrorResponse),
        (status = 422, body = ErrorResponse),
    )
)]
#[post("/auth/password")]
pub async fn change_password(
    st: web::Data<AppState>,
    who: AnyStaff,
    body: Result<ApiJson<PasswordChange>, actix_web::Error>,
) -> AppResult<HttpResponse> {
    // The role is checked before the body is looked at.
    let body = body?;
    let now = st.clock.now();
    let staff = who.0.staff;
    let change = body.into_inner();
    st.write(move |_, c| services::staff::change_password(c, now, &staff, &change))
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// The signed-in staff member.
#[utoipa::path(
    tag = "auth", responses((status = 200, body = StaffOut), (status = 401, body = ErrorResponse)))]
#[get("/me")]
pub async fn me(who: AnyStaff) -> web::Json<StaffOut> {
    web::Json(StaffOut::from(&who.0.staff))
}

/// Signs out: this token's session ends at once (the token is refused from now on).
#[utoipa::path(
    tag = "auth",
    responses((status = 204, description = "Signed out"), (status = 401, body = ErrorResponse))
)]
#[post("/auth/logout")]
pub async fn logout(st: web::Data<AppState>, who: AnyStaff) -> AppResult<HttpResponse> {
    let now = st.clock.now();
    let staff = who.0.staff;
    let sid = who.0.claims.sid;
    st.write(move |_, c| {
        let actor = services::staff::actor(&staff);
        sessions_svc::end(c, now, &actor, staff.id, &sid, EndReason::SignedOut)
    })
    .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// One open session (a page session or an API token) of the signed-in staff member.
#[derive(Debug, Serialize, ToSchema)]
pub struct SessionOut {
    /// Identifies the session for `DELETE /api/v1/me/sessions/{id}`.
    pub id: String,
    /// `web` (a browser's page session) or `api` (a Bearer token).
    pub kind: String,
    /// The browser or program, summarised from its user agent.
    pub device: String,
    /// The client's address at sign-in.
    pub address: String,
    pub signed_in_at: DateTime<Utc>,
    /// Last use, to within five minutes.
    pub last_used_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
    /// The session making this request.
    pub current: bool,
}

/// The signed-in staff member's open sessions, the most recently used first.
#[utoipa::path(
    tag = "auth",
    responses((status = 200, body = [SessionOut]), (status = 401, body = ErrorResponse))
)]
#[get("/me/sessions")]
pub async fn my_sessions(
    st: web::Data<AppState>,
    who: AnyStaff,
) -> AppResult<web::Json<Vec<SessionOut>>> {
    let now = st.clock.now();
    let id = who.0.staff.id;
    let current = who.0.claims.sid.clone();
    let rows = st
        .run(move |_, c| sessions_svc::list_open(c, now, id))
        .await?;
    Ok(web::Json(
        rows.into_iter()
            .map(|r| SessionOut {
                current: r.id == current,
                device: sessions_svc::device(&r.user_agent),
                id: r.id,
                kind: r.kind,
                address: r.address,
                signed_in_at: r.created_at.and_utc(),
                last_used_at: r.last_seen_at.and_utc(),
                expires_at: r.expires_at.and_utc(),
            })
            .collect(),
    ))
}

/// Ends one of one's own sessions (e.g. a browser left signed in elsewhere).
#[utoipa::path(
    tag = "auth",
    params(("id" = String, Path, description = "The session's id")),
    responses(
        (status = 204, description = "Ended"),
        (status = 401, body = ErrorResponse),
        (status = 404, description = "No such open session of yours", body = ErrorResponse),
    )
)]
#[delete("/me/sessions/{id}")]
pub async fn end_my_session(
    st: web::Data<AppState>,
    who: AnyStaff,
    path: web::Path<String>,
) -> AppResult<HttpResponse> {
    let now = st.clock.now();
    let staff = who.0.staff;
    let sid = path.into_inner();
    st.write(move |_, c| {
        let actor = services::staff::actor(&staff);
        sessions_svc::end(c, now, &actor, staff.id, &sid, EndReason::EndedByOwner)
    })
    .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// How many sessions an admin ended.
#[derive(Debug, Serialize, ToSchema)]
pub struct SessionsEnded {
    pub ended: usize,
}

/// Ends every session and API token of a staff member (admin), e.g. a lost tablet or a
/// dismissal: their tokens are refused at once.
#[utoipa::path(
    tag = "staff",
    params(("id" = i64, Path)),
    responses(
        (status = 200, body = SessionsEnded),
        (status = 401, body = ErrorResponse),
        (status = 403, body = ErrorResponse),
        (status = 404, body = ErrorResponse),
    )
)]
#[post("/staff/{id}/sessions/end")]
pub async fn end_staff_sessions(
    st: web::Data<AppState>,
    who: AdminStaff,
    path: web::Path<i64>,
) -> AppResult<web::Json<SessionsEnded>> {
    let now = st.clock.now();
    let admin = who.0.staff;
    let id = path.into_inner();
    let ended = st
        .write(move |_, c| services::staff::end_sessions(c, now, &admin, id))
        .await?;
    Ok(web::Json(SessionsEnded { ended }))
}

// ---- players ---------------------------------------------------------------------------

/// Searches the registry (admin, floor, cashier).
#[utoipa::path(
    tag = "players",
    params(PlayerQuery),
    responses((status = 200, body = [PlayerOut]), (status = 403, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[get("/players")]
pub async fn list_players(
    st: web::Data<AppState>,
    _who: RegistryReader,
    q: web::Query<PlayerQuery>,
) -> AppResult<web::Json<Vec<PlayerOut>>> {
    let limit = page_limit(q.limit)?;
    let text = q.q.clone().unwrap_or_default();
    let rows = st
        .run(move |_, conn| svc::search(conn, &text, limit))
        .await?;
    Ok(web::Json(rows.iter().map(PlayerOut::from).collect()))
}

/// Registers a player (BSOP 1, 3; admin, floor). A record without a photo is saved but may
/// not be seated until one is added (`PUT /api/v1/players/{id}/photo`).
#[utoipa::path(
    tag = "players",
    request_body = PlayerForm,
    responses(
        (status = 201, body = PlayerSaved),
        (status = 400, description = "Malformed JSON", body = ErrorResponse),
        (status = 403, body = ErrorResponse),
        (status = 409, description = "The document is already registered", body = ErrorResponse),
        (status = 415, body = ErrorResponse),
        (status = 422, body = ErrorResponse),
    )
)]
#[post("/players")]
pub async fn create_player(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    body: Result<ApiJson<PlayerForm>, actix_web::Error>,
) -> AppResult<HttpResponse> {
    // The role is checked before the body is looked at.
    let body = body?;
    let input = body.parse()?;
    let now = st.clock.now();
    let actor = services::staff::actor(&who.0.staff);
    let (row, warnings, inel) = st
        .write(move |_, conn| {
            let tz = services::room::get(conn)?.tz;
            let (row, warnings) = svc::create(conn, now, tz, &actor, &input, None)?;
            let inel = svc::eligibility(conn, &row, now, tz)?;
            Ok((row, warnings, inel))
        })
        .await?;
    let saved = player_saved(&st.i18n, request_lang(&req), &row, &warnings, &inel);
    Ok(HttpResponse::Created()
        .insert_header((header::LOCATION, format!("/api/v1/players/{}", row.id)))
        .json(saved))
}

fn player_saved(
    i18n: &I18n,
    lang: Language,
    row: &PlayerRow,
    warnings: &[Warning],
    inel: &[Ineligible],
) -> PlayerSaved {
    PlayerSaved {
        player: PlayerOut::from(row),
        warnings: warnings
            .iter()
            .map(|w| warning_out(i18n, lang, w))
            .collect(),
        eligibility: reason_codes(inel),
    }
}

/// A player, whether they may be seated, their exclusions and separations.
#[utoipa::path(
    tag = "players",
    params(("id" = i64, Path, description = "Player id")),
    responses((status = 200, body = PlayerDetail), (status = 403, body = ErrorResponse), (status = 404, body = ErrorResponse))
)]
#[get("/players/{id}")]
pub async fn get_player(
    req: HttpRequest,
    st: web::Data<AppState>,
    _who: RegistryReader,
    path: web::Path<i64>,
) -> AppResult<web::Json<PlayerDetail>> {
    let id = path.into_inner();
    let now = st.clock.now();
    let (p, inel, bans, seps, tz) = st
        .run(move |_, conn| {
            let tz = services::room::get(conn)?.tz;
            let p = svc::get(conn, id)?;
            let inel = svc::eligibility(conn, &p, now, tz)?;
            let bans = svc::exclusions_of(conn, id, now)?;
            let seps = svc::separations_of(conn, id)?;
            Ok((p, inel, bans, seps, tz))
        })
        .await?;
    let lang = request_lang(&req);
    let warnings =
        crate::domain::player::id_warnings(p.doc_expiry, crate::domain::age::room_date(now, tz));
    Ok(web::Json(PlayerDetail {
        player: PlayerOut::from(&p),
        eligible: inel.is_empty(),
        eligibility: reason_codes(&inel),
        exclusions: bans
            .iter()
            .map(|(e, on)| ExclusionOut::new(e, Some(*on)))
            .collect(),
        separations: seps
            .iter()
            .map(|(s, other)| SeparationOut::new(s, Some(other)))
            .collect(),
        warnings: warnings
            .iter()
            .map(|w| warning_out(&st.i18n, lang, w))
            .collect(),
    }))
}

/// Edits a player (admin, floor). Send the `version` you loaded to refuse a lost update (409).
#[utoipa::path(
    tag = "players",
    params(("id" = i64, Path, description = "Player id")),
    request_body = PlayerForm,
    responses(
        (status = 200, body = PlayerSaved),
        (status = 403, body = ErrorResponse),
        (status = 404, body = ErrorResponse),
        (status = 409, description = "Duplicate document, or changed meanwhile", body = ErrorResponse),
        (status = 422, body = ErrorResponse),
    )
)]
#[put("/players/{id}")]
pub async fn update_player(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<i64>,
    body: Result<ApiJson<PlayerForm>, actix_web::Error>,
) -> AppResult<web::Json<PlayerSaved>> {
    // The role is checked before the body is looked at.
    let body = body?;
    let id = path.into_inner();
    let input = body.parse()?;
    let version = body.version;
    let now = st.clock.now();
    let actor = services::staff::actor(&who.0.staff);
    let (row, warnings, inel) = st
        .write(move |_, conn| {
            let tz = services::room::get(conn)?.tz;
            let (row, warnings) = svc::update(conn, now, tz, &actor, id, version, &input, None)?;
            let inel = svc::eligibility(conn, &row, now, tz)?;
            Ok((row, warnings, inel))
        })
        .await?;
    Ok(web::Json(player_saved(
        &st.i18n,
        request_lang(&req),
        &row,
        &warnings,
        &inel,
    )))
}

/// Replaces a player's photo (admin, floor): the raw JPEG or PNG as the body, at most 5 MB.
/// It is re-encoded as a bounded JPEG without metadata.
#[utoipa::path(
    tag = "players",
    params(("id" = i64, Path, description = "Player id")),
    request_body(content((Image = "image/jpeg"), (Image = "image/png")), description = "The photo, at most 5 MB"),
    responses(
        (status = 200, body = PlayerOut),
        (status = 403, body = ErrorResponse),
        (status = 404, body = ErrorResponse),
        (status = 413, body = ErrorResponse),
        (status = 415, body = ErrorResponse),
        (status = 422, description = "Not a usable image", body = ErrorResponse),
    )
)]
#[put("/players/{id}/photo")]
pub async fn put_photo(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<i64>,
    body: Result<web::Bytes, actix_web::Error>,
) -> AppResult<web::Json<PlayerOut>> {
    // The role is checked before the body is looked at.
    let body = body?;
    let id = path.into_inner();
    let is_image = matches!(req.mime_type(), Ok(Some(m)) if m.essence_str() == "image/jpeg" || m.essence_str() == "image/png");
    if !is_image {
        return Err(AppError::UnsupportedMedia(Problem::new(
            "api-photo-content-type",
        )));
    }
    // Decoding and re-encoding is CPU work: off the async threads.
    let ph = web::block(move || photo::process(&body)).await??;
    let now = st.clock.now();
    let actor = services::staff::actor(&who.0.staff);
    let row = st
        .write(move |_, conn| svc::set_photo(conn, now, &actor, id, &ph))
        .await?;
    Ok(web::Json(PlayerOut::from(&row)))
}

/// A player's photo (admin, floor, cashier).
#[utoipa::path(
    tag = "players",
    params(("id" = i64, Path, description = "Player id")),
    responses(
        (status = 200, content_type = "image/jpeg", body = Image),
        (status = 403, body = ErrorResponse),
        (status = 404, description = "No such player or no photo", body = ErrorResponse),
    )
)]
#[get("/players/{id}/photo")]
pub async fn get_photo(
    st: web::Data<AppState>,
    _who: RegistryReader,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let ph = st.run(move |_, conn| svc::photo(conn, id)).await?;
    Ok(HttpResponse::Ok()
        .content_type(ph.content_type)
        .insert_header((header::CACHE_CONTROL, "private, no-store"))
        .body(ph.data))
}

/// May this player be seated now? (BSOP 1, 2, 3, 10: 18 or over, photo on record, unexpired
/// ID, no exclusion in force.)
#[utoipa::path(
    tag = "players",
    params(("id" = i64, Path, description = "Player id")),
    responses((status = 200, body = EligibilityOut), (status = 403, body = ErrorResponse), (status = 404, body = ErrorResponse))
)]
#[get("/players/{id}/eligibility")]
pub async fn eligibility(
    req: HttpRequest,
    st: web::Data<AppState>,
    _who: RegistryReader,
    path: web::Path<i64>,
) -> AppResult<web::Json<EligibilityOut>> {
    let id = path.into_inner();
    let now = st.clock.now();
    let inel = st
        .run(move |_, conn| {
            let tz = services::room::get(conn)?.tz;
            let p = svc::get(conn, id)?;
            svc::eligibility(conn, &p, now, tz)
        })
        .await?;
    Ok(web::Json(eligibility_out(
        &st.i18n,
        request_lang(&req),
        &inel,
    )))
}

/// Bans a player (BSOP 2, 10, 11; admin, floor): from `starts_at` (default now) until
/// `ends_at` or permanently; times in the room's local time, `YYYY-MM-DDTHH:MM`.
#[utoipa::path(
    tag = "players",
    params(("id" = i64, Path, description = "Player id")),
    request_body = BanForm,
    responses(
        (status = 201, body = ExclusionOut),
        (status = 403, body = ErrorResponse),
        (status = 404, body = ErrorResponse),
        (status = 422, body = ErrorResponse),
    )
)]
#[post("/players/{id}/exclusions")]
pub async fn ban_player(
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<i64>,
    body: Result<ApiJson<BanForm>, actix_web::Error>,
) -> AppResult<HttpResponse> {
    // The role is checked before the body is looked at.
    let body = body?;
    let id = path.into_inner();
    let now = st.clock.now();
    let actor = services::staff::actor(&who.0.staff);
    let form = body.into_inner();
    let row = st
        .write(move |_, conn| {
            let tz = services::room::get(conn)?.tz;
            svc::ban(conn, now, tz, &actor, id, &form)
        })
        .await?;
    Ok(HttpResponse::Created().json(ExclusionOut::new(&row, None)))
}

/// Lifts a ban, with a reason (admin, floor).
#[utoipa::path(
    tag = "players",
    params(("id" = i64, Path, description = "Exclusion id")),
    request_body = ReasonForm,
    responses(
        (status = 200, body = ExclusionOut),
        (status = 403, body = ErrorResponse),
        (status = 404, body = ErrorResponse),
        (status = 409, description = "Already lifted or ended", body = ErrorResponse),
        (status = 422, body = ErrorResponse),
    )
)]
#[post("/exclusions/{id}/lift")]
pub async fn lift_ban(
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<i64>,
    body: Result<ApiJson<ReasonForm>, actix_web::Error>,
) -> AppResult<web::Json<ExclusionOut>> {
    // The role is checked before the body is looked at.
    let body = body?;
    let id = path.into_inner();
    let now = st.clock.now();
    let actor = services::staff::actor(&who.0.staff);
    let form = body.into_inner();
    let row = st
        .write(move |_, conn| svc::lift_ban(conn, now, &actor, id, &form))
        .await?;
    Ok(web::Json(ExclusionOut::new(&row, None)))
}

/// Records that two players must never sit at the same table (BSOP 47; admin, floor).
#[utoipa::path(
    tag = "players",
    params(("id" = i64, Path, description = "Player id")),
    request_body = SeparationForm,
    responses(
        (status = 201, body = SeparationOut),
        (status = 403, body = ErrorResponse),
        (status = 404, body = ErrorResponse),
        (status = 409, description = "Already separated", body = ErrorResponse),
        (status = 422, body = ErrorResponse),
    )
)]
#[post("/players/{id}/separations")]
pub async fn separate(
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<i64>,
    body: Result<ApiJson<SeparationForm>, actix_web::Error>,
) -> AppResult<HttpResponse> {
    // The role is checked before the body is looked at.
    let body = body?;
    let id = path.into_inner();
    let now = st.clock.now();
    let actor = services::staff::actor(&who.0.staff);
    let form = body.into_inner();
    let row = st
        .write(move |_, conn| svc::separate(conn, now, &actor, id, &form))
        .await?;
    Ok(HttpResponse::Created().json(SeparationOut::new(&row, None)))
}

/// Ends a separation (admin, floor).
#[utoipa::path(
    tag = "players",
    params(("id" = i64, Path, description = "Separation id")),
    responses(
        (status = 200, body = SeparationOut),
        (status = 403, body = ErrorResponse),
        (status = 404, body = ErrorResponse),
        (status = 409, description = "Already removed", body = ErrorResponse),
    )
)]
#[delete("/separations/{id}")]
pub async fn remove_separation(
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<i64>,
) -> AppResult<web::Json<SeparationOut>> {
    let id = path.into_inner();
    let now = st.clock.now();
    let actor = services::staff::actor(&who.0.staff);
    let row = st
        .write(move |_, conn| svc::remove_separation(conn, now, &actor, id))
        .await?;
    Ok(web::Json(SeparationOut::new(&row, None)))
}

/// A player's history: the audit records about them, newest first.
#[utoipa::path(
    tag = "players",
    params(("id" = i64, Path, description = "Player id"), HistoryQuery),
    responses((status = 200, body = [AuditOut]), (status = 403, body = ErrorResponse), (status = 404, body = ErrorResponse))
)]
#[get("/players/{id}/history")]
pub async fn player_history(
    st: web::Data<AppState>,
    _who: RegistryReader,
    path: web::Path<i64>,
    q: web::Query<HistoryQuery>,
) -> AppResult<web::Json<Vec<AuditOut>>> {
    let id = path.into_inner();
    let limit = page_limit(q.limit)?;
    let rows = st
        .run(move |_, conn| {
            svc::get(conn, id)?;
            services::audit::history(conn, "player", id, limit)
        })
        .await?;
    Ok(web::Json(rows.iter().map(AuditOut::from).collect()))
}

// ---- room, games, tables ---------------------------------------------------------------

/// The room: name, time zone, currency, language and rule profile.
#[utoipa::path(
    tag = "room", responses((status = 200, body = Room), (status = 401, body = ErrorResponse)))]
#[get("/room")]
pub async fn get_room(st: web::Data<AppState>, _who: AnyStaff) -> AppResult<web::Json<Room>> {
    Ok(web::Json(
        st.run(|_, conn| services::room::get(conn)).await?,
    ))
}

/// Changes the room and its rule profile (admin).
#[utoipa::path(
    tag = "room",
    request_body = RoomUpdate,
    responses((status = 200, body = Room), (status = 403, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[put("/room")]
pub async fn update_room(
    st: web::Data<AppState>,
    who: AdminStaff,
    body: Result<ApiJson<RoomUpdate>, actix_web::Error>,
) -> AppResult<web::Json<Room>> {
    // The role is checked before the body is looked at.
    let body = body?;
    let now = st.clock.now();
    let actor = services::staff::actor(&who.0.staff);
    let u = body.into_inner();
    Ok(web::Json(
        st.write(move |_, conn| services::room::update(conn, now, &actor, &u))
            .await?,
    ))
}

/// Every game, active first.
#[utoipa::path(
    tag = "games", responses((status = 200, body = [GameOut]), (status = 401, body = ErrorResponse)))]
#[get("/games")]
pub async fn list_games(
    st: web::Data<AppState>,
    _who: AnyStaff,
) -> AppResult<web::Json<Vec<GameOut>>> {
    let rows = st.run(|_, conn| services::games::list_games(conn)).await?;
    Ok(web::Json(rows.iter().map(GameOut::from).collect()))
}

/// Creates a game (admin). Amounts in minor units.
#[utoipa::path(
    tag = "games",
    request_body = GameInput,
    responses((status = 201, body = GameOut), (status = 403, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[post("/games")]
pub async fn create_game(
    st: web::Data<AppState>,
    who: AdminStaff,
    body: Result<ApiJson<GameInput>, actix_web::Error>,
) -> AppResult<HttpResponse> {
    // The role is checked before the body is looked at.
    let body = body?;
    let now = st.clock.now();
    let actor = services::staff::actor(&who.0.staff);
    let g = body.into_inner();
    let row = st
        .write(move |_, conn| {
            let profile = services::room::get(conn)?.profile;
            services::games::create_game(conn, now, &actor, &profile, &g)
        })
        .await?;
    Ok(HttpResponse::Created()
        .insert_header((header::LOCATION, format!("/api/v1/games/{}", row.id)))
        .json(GameOut::from(&row)))
}

/// One game.
#[utoipa::path(
    tag = "games",
    params(("id" = i64, Path, description = "Game id")),
    responses((status = 200, body = GameOut), (status = 404, body = ErrorResponse))
)]
#[get("/games/{id}")]
pub async fn get_game(
    st: web::Data<AppState>,
    _who: AnyStaff,
    path: web::Path<i64>,
) -> AppResult<web::Json<GameOut>> {
    let id = path.into_inner();
    let row = st
        .run(move |_, conn| services::games::get_game(conn, id))
        .await?;
    Ok(web::Json(GameOut::from(&row)))
}

/// Changes a game (admin). New limits apply to the tables opened afterwards: each table of
/// the game in play keeps its limits and gets a pending change to the new ones, which the
/// dealer announces at the table and which takes effect at the next hand after it
/// (PT-2007 22, BSOP 34); the answer lists the pending changes of the game's tables.
#[utoipa::path(
    tag = "games",
    params(("id" = i64, Path, description = "Game id")),
    request_body = GameInput,
    responses((status = 200, body = GameSavedOut), (status = 403, body = ErrorResponse), (status = 404, body = ErrorResponse), (status = 409, description = "A change the game's state forbids (e.g. the cagnotte mode once it has started)", body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[put("/games/{id}")]
pub async fn update_game(
    st: web::Data<AppState>,
    who: AdminStaff,
    path: web::Path<i64>,
    body: Result<ApiJson<GameInput>, actix_web::Error>,
) -> AppResult<web::Json<GameSavedOut>> {
    // The role is checked before the body is looked at.
    let body = body?;
    let id = path.into_inner();
    let now = st.clock.now();
    let actor = services::staff::actor(&who.0.staff);
    let g = body.into_inner();
    let (row, lines) = st
        .write(move |_, conn| {
            let profile = services::room::get(conn)?.profile;
            let (row, _) = services::games::update_game(conn, now, &actor, &profile, id, &g)?;
            Ok((row, services::limits::pending_of_game(conn, id)?))
        })
        .await?;
    Ok(web::Json(GameSavedOut {
        game: GameOut::from(&row),
        limit_changes: lines
            .iter()
            .map(crate::web::api_limits::change_out)
            .collect(),
    }))
}

/// Every table by number, each with its game.
#[utoipa::path(
    tag = "games", responses((status = 200, body = [TableOut]), (status = 401, body = ErrorResponse)))]
#[get("/tables")]
pub async fn list_tables(
    st: web::Data<AppState>,
    _who: AnyStaff,
) -> AppResult<web::Json<Vec<TableOut>>> {
    let rows = st.run(|_, conn| services::games::list_tables(conn)).await?;
    Ok(web::Json(
        rows.iter()
            .map(|(t, g)| TableOut::new(t, g.as_ref()))
            .collect(),
    ))
}

/// Reads a table's game for the answer (in the same transaction as the change).
fn table_game(conn: &mut crate::db::DbConn, t: &TableRow) -> AppResult<Option<GameRow>> {
    t.game_id
        .map(|g| services::games::get_game(conn, g))
        .transpose()
}

/// Creates a table (admin).
#[utoipa::path(
    tag = "games",
    request_body = TableInput,
    responses(
        (status = 201, body = TableOut),
        (status = 403, body = ErrorResponse),
        (status = 409, description = "Table number taken", body = ErrorResponse),
        (status = 422, body = ErrorResponse),
    )
)]
#[post("/tables")]
pub async fn create_table(
    st: web::Data<AppState>,
    who: AdminStaff,
    body: Result<ApiJson<TableInput>, actix_web::Error>,
) -> AppResult<HttpResponse> {
    // The role is checked before the body is looked at.
    let body = body?;
    let now = st.clock.now();
    let actor = services::staff::actor(&who.0.staff);
    let t = body.into_inner();
    let (row, game) = st
        .write(move |_, conn| {
            let row = services::games::create_table(conn, now, &actor, &t)?;
            let game = table_game(conn, &row)?;
            Ok((row, game))
        })
        .await?;
    Ok(HttpResponse::Created().json(TableOut::new(&row, game.as_ref())))
}

/// Changes a table (admin).
#[utoipa::path(
    tag = "games",
    params(("id" = i64, Path, description = "Table id")),
    request_body = TableInput,
    responses(
        (status = 200, body = TableOut),
        (status = 403, body = ErrorResponse),
        (status = 404, body = ErrorResponse),
        (status = 409, description = "Table number taken", body = ErrorResponse),
        (status = 422, body = ErrorResponse),
    )
)]
#[put("/tables/{id}")]
pub async fn update_table(
    st: web::Data<AppState>,
    who: AdminStaff,
    path: web::Path<i64>,
    body: Result<ApiJson<TableInput>, actix_web::Error>,
) -> AppResult<web::Json<TableOut>> {
    // The role is checked before the body is looked at.
    let body = body?;
    let id = path.into_inner();
    let now = st.clock.now();
    let actor = services::staff::actor(&who.0.staff);
    let t = body.into_inner();
    let (row, game) = st
        .write(move |_, conn| {
            let row = services::games::update_table(conn, now, &actor, id, &t)?;
            let game = table_game(conn, &row)?;
            Ok((row, game))
        })
        .await?;
    Ok(web::Json(TableOut::new(&row, game.as_ref())))
}

// ---- staff and audit -------------------------------------------------------------------

/// Every staff account (admin).
#[utoipa::path(
    tag = "staff", responses((status = 200, body = [StaffOut]), (status = 403, body = ErrorResponse)))]
#[get("/staff")]
pub async fn list_staff(
    st: web::Data<AppState>,
    _who: AdminStaff,
) -> AppResult<web::Json<Vec<StaffOut>>> {
    let rows = st.run(|_, conn| services::staff::list(conn)).await?;
    Ok(web::Json(rows.iter().map(StaffOut::from).collect()))
}

/// Creates a staff account (admin).
#[utoipa::path(
    tag = "staff",
    request_body = NewStaff,
    responses(
        (status = 201, body = StaffOut),
        (status = 403, body = ErrorResponse),
        (status = 409, description = "Username taken", body = ErrorResponse),
        (status = 422, body = ErrorResponse),
    )
)]
#[post("/staff")]
pub async fn create_staff(
    st: web::Data<AppState>,
    who: AdminStaff,
    body: Result<ApiJson<NewStaff>, actix_web::Error>,
) -> AppResult<HttpResponse> {
    // The role is checked before the body is looked at.
    let body = body?;
    let now = st.clock.now();
    let actor = services::staff::actor(&who.0.staff);
    let i = StaffInput::from(body.into_inner());
    let row = st
        .write(move |_, conn| services::staff::create(conn, now, &actor, &i))
        .await?;
    Ok(HttpResponse::Created().json(StaffOut::from(&row)))
}

/// Changes a staff account (admin). An admin cannot demote or deactivate themselves (409).
#[utoipa::path(
    tag = "staff",
    params(("id" = i64, Path, description = "Staff id")),
    request_body = StaffInput,
    responses(
        (status = 200, body = StaffOut),
        (status = 403, body = ErrorResponse),
        (status = 404, body = ErrorResponse),
        (status = 409, body = ErrorResponse),
        (status = 422, body = ErrorResponse),
    )
)]
#[put("/staff/{id}")]
pub async fn update_staff(
    st: web::Data<AppState>,
    who: AdminStaff,
    path: web::Path<i64>,
    body: Result<ApiJson<StaffInput>, actix_web::Error>,
) -> AppResult<web::Json<StaffOut>> {
    // The role is checked before the body is looked at.
    let body = body?;
    let id = path.into_inner();
    let now = st.clock.now();
    let by = who.0.staff;
    let i = body.into_inner();
    let row = st
        .write(move |_, conn| services::staff::update(conn, now, &by, id, &i))
        .await?;
    Ok(web::Json(StaffOut::from(&row)))
}

/// The audit trail, newest first (admin). Page with `before_seq`.
#[utoipa::path(
    tag = "audit",
    params(AuditFilter, AuditRange),
    responses((status = 200, body = [AuditOut]), (status = 403, body = ErrorResponse), (status = 422, body = ErrorResponse))
)]
#[get("/audit")]
pub async fn list_audit(
    st: web::Data<AppState>,
    _who: AdminStaff,
    filter: web::Query<AuditFilter>,
    range: web::Query<AuditRange>,
) -> AppResult<web::Json<Vec<AuditOut>>> {
    let from = instant("from", range.from.as_deref());
    let to = instant("to", range.to.as_deref());
    let (from, to) = match (from, to) {
        (Ok(f), Ok(t)) => (f, t),
        (f, t) => {
            return Err(AppError::Validation(
                f.err().into_iter().chain(t.err()).collect(),
            ))
        }
    };
    let filter = filter.into_inner();
    let rows = st
        .run(move |_, conn| services::audit::list(conn, &filter, from, to))
        .await?;
    Ok(web::Json(rows.iter().map(AuditOut::from).collect()))
}

/// Verifies the whole hash chain and this database's signed checkpoints, every series the
/// audit directory holds (admin).
#[utoipa::path(
    tag = "audit", responses((status = 200, body = ChainReportOut), (status = 403, body = ErrorResponse)))]
#[get("/audit/verify")]
pub async fn verify_audit(
    st: web::Data<AppState>,
    who: AdminStaff,
) -> AppResult<web::Json<ChainReportOut>> {
    let r = st
        .run(|st, conn| services::audit::verify_all(conn, &st.seal))
        .await?;
    // A failure is a security event, recorded with who found it.
    if !r.ok() {
        let (now, actor, failed) = (
            st.clock.now(),
            services::staff::actor(&who.0.staff),
            r.clone(),
        );
        // Best effort: the verification is answered even if the trail cannot take the
        // record (e.g. records slipped in ahead of its counter).
        if let Err(e) = st
            .write(move |_, c| services::audit::record_failure(c, now, &actor, &failed))
            .await
        {
            log::warn!("recording the failed audit check: {e}");
        }
    }
    Ok(web::Json(ChainReportOut {
        ok: r.ok(),
        records: r.chain.records,
        broken_at: r.broken_at(),
        problem: r.problem().map(str::to_string),
        checkpoints: r.seal.checkpoints,
        sealed_up_to: r.seal.sealed_up_to,
        database_id: r.seal.database_id.clone(),
        host: r.seal.host.clone(),
        series: r.seal.series.iter().map(SealSeriesOut::from).collect(),
    }))
}

// ---- test clock (only with CARDROOM_TEST_CLOCK=1) --------------------------------------

/// The longest single move of the test clock: one week.
pub const MAX_ADVANCE_MINUTES: i64 = 7 * 24 * 60;

/// The server's clock (admin; only when the server runs with `CARDROOM_TEST_CLOCK=1`).
#[utoipa::path(
    tag = "test", responses((status = 200, body = ClockOut), (status = 403, body = ErrorResponse), (status = 404, description = "Test clock off", body = ErrorResponse)))]
#[get("/test/clock")]
pub async fn get_clock(st: web::Data<AppState>, _who: AdminStaff) -> web::Json<ClockOut> {
    web::Json(ClockOut {
        now: st.clock.now(),
    })
}

/// Moves the server's clock forward (admin; only with `CARDROOM_TEST_CLOCK=1`), audited.
#[utoipa::path(
    tag = "test",
    request_body = ClockAdvance,
    responses(
        (status = 200, body = ClockOut),
        (status = 403, body = ErrorResponse),
        (status = 404, description = "Test clock off", body = ErrorResponse),
        (status = 422, body = ErrorResponse),
    )
)]
#[post("/test/clock/advance")]
pub async fn advance_clock(
    st: web::Data<AppState>,
    who: AdminStaff,
    body: Result<ApiJson<ClockAdvance>, actix_web::Error>,
) -> AppResult<web::Json<ClockOut>> {
    // The role is checked before the body is looked at.
    let body = body?;
    let minutes = body.minutes;
    if !(1..=MAX_ADVANCE_MINUTES).contains(&minutes) {
        return Err(AppError::Validation(vec![FieldError::new(
            "minutes",
            "err-range",
        )
        .arg("min", 1)
        .arg("max", MAX_ADVANCE_MINUTES)]));
    }
    let by = chrono::Duration::minutes(minutes);
    let actor = services::staff::actor(&who.0.staff);
    let now = st
        .write(move |s, conn| {
            let from = s.clock.now();
            let note = serde_json::json!({ "minutes": minutes, "from": from, "to": from + by });
            audit_record::<(), _>(
                conn,
                from,
                &actor,
                "clock.advance",
                "clock",
                None,
                None,
                Some(&note),
            )?;
            // Stored, so a restart keeps the moved time (CARDROOM_TEST_CLOCK only).
            let offset = s.clock.offset().ok_or(AppError::NotFound)? + by;
            let us = offset.num_microseconds().unwrap_or(i64::MAX).to_string();
            crate::db::set_setting(conn, crate::db::TEST_CLOCK_OFFSET, &us)?;
            // Last, so a failed audit record leaves the clock where it was.
            s.clock.advance(by).ok_or(AppError::NotFound)
        })
        .await?;
    Ok(web::Json(ClockOut { now }))
}
