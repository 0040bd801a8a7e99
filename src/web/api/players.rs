//! The player registry in the JSON API (BSOP 1, 2, 3, 10, 11, 47): registration and edits,
//! the photo, whether a player may be seated, exclusions, separations and a player's history.

use super::audit::AuditOut;
use super::{page_limit, utc, HistoryQuery};
use crate::db::models::{ExclusionRow, PlayerRow, SeparationRow};
use crate::domain::eligibility::Ineligible;
use crate::domain::ids::PlayerId;
use crate::domain::player::{Language, Warning};
use crate::domain::Problem;
use crate::error::{AppError, AppResult};
use crate::i18n::I18n;
use crate::services::players::{self as svc, BanForm, PlayerForm, ReasonForm, SeparationForm};
use crate::services::{self, photo};
use crate::web::ctx::request_lang;
use crate::web::extract::ActingAs;
use crate::web::extract::{FloorStaff, RegistryReader};
use crate::web::json::ApiJson;
use crate::web::openapi::{ErrorResponse, Image};
use crate::web::state::AppState;
use actix_web::http::header;
use actix_web::{web, HttpMessage, HttpRequest, HttpResponse};
// The route macros: utoipa reads the path and method from them (a bare name).
use actix_web::{delete, get, post, put};
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_actix_web::service_config::ServiceConfig;

/// Registered inside the `/api/v1` scope: each handler carries its path and method
/// (`#[get(…)]`) and its documentation (`#[utoipa::path]`), registered together.
pub fn routes(cfg: &mut ServiceConfig) {
    cfg.service(list_players)
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
        .service(player_history);
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
            id: p.id.get(),
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
    #[schema(value_type = i64)]
    pub player_id: PlayerId,
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
            player_a: s.player_a.get(),
            player_b: s.player_b.get(),
            reason: s.reason.clone(),
            created_by: s.created_by,
            created_at: utc(s.created_at),
            removed_at: s.removed_at.map(utc),
            removed_by: s.removed_by,
            other: other.map(|p| PlayerRef {
                id: p.id.get(),
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

#[derive(Debug, Deserialize, IntoParams)]
pub struct PlayerQuery {
    /// Name, alias, document number, phone or e-mail; every word must match.
    pub q: Option<String>,
    /// 1 to 200 (default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<i64>,
}

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
    who: ActingAs<FloorStaff>,
    body: Result<ApiJson<PlayerForm>, actix_web::Error>,
) -> AppResult<HttpResponse> {
    // The role is checked before the body is looked at.
    let body = body?;
    let input = body.parse()?;
    let now = who.acting.now;
    let acting = who.acting;
    let (row, warnings, inel) = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            let tz = services::room::get(conn)?.tz;
            let (row, warnings) = svc::create(conn, act, &input, None)?;
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
    path: web::Path<PlayerId>,
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
    who: ActingAs<FloorStaff>,
    path: web::Path<PlayerId>,
    body: Result<ApiJson<PlayerForm>, actix_web::Error>,
) -> AppResult<web::Json<PlayerSaved>> {
    // The role is checked before the body is looked at.
    let body = body?;
    let id = path.into_inner();
    let input = body.parse()?;
    let version = body.version;
    let acting = who.acting;
    let (row, warnings, inel) = st
        .write(move |_, conn| {
            let act = acting.in_room(conn)?;
            let (row, warnings) = svc::update(conn, &act, id, version, &input, None)?;
            let inel = svc::eligibility(conn, &row, act.now, act.tz())?;
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
    who: ActingAs<FloorStaff>,
    path: web::Path<PlayerId>,
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
    let acting = who.acting;
    let row = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            svc::set_photo(conn, act, id, &ph)
        })
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
    path: web::Path<PlayerId>,
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
    path: web::Path<PlayerId>,
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
    who: ActingAs<FloorStaff>,
    path: web::Path<PlayerId>,
    body: Result<ApiJson<BanForm>, actix_web::Error>,
) -> AppResult<HttpResponse> {
    // The role is checked before the body is looked at.
    let body = body?;
    let id = path.into_inner();
    let acting = who.acting;
    let form = body.into_inner();
    let row = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            svc::ban(conn, act, id, &form)
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
    who: ActingAs<FloorStaff>,
    path: web::Path<i64>,
    body: Result<ApiJson<ReasonForm>, actix_web::Error>,
) -> AppResult<web::Json<ExclusionOut>> {
    // The role is checked before the body is looked at.
    let body = body?;
    let id = path.into_inner();
    let acting = who.acting;
    let form = body.into_inner();
    let row = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            svc::lift_ban(conn, act, id, &form)
        })
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
    who: ActingAs<FloorStaff>,
    path: web::Path<PlayerId>,
    body: Result<ApiJson<SeparationForm>, actix_web::Error>,
) -> AppResult<HttpResponse> {
    // The role is checked before the body is looked at.
    let body = body?;
    let id = path.into_inner();
    let acting = who.acting;
    let form = body.into_inner();
    let row = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            svc::separate(conn, act, id, &form)
        })
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
    who: ActingAs<FloorStaff>,
    path: web::Path<i64>,
) -> AppResult<web::Json<SeparationOut>> {
    let id = path.into_inner();
    let acting = who.acting;
    let row = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            svc::remove_separation(conn, act, id)
        })
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
    path: web::Path<PlayerId>,
    q: web::Query<HistoryQuery>,
) -> AppResult<web::Json<Vec<AuditOut>>> {
    let id = path.into_inner();
    let limit = page_limit(q.limit)?;
    let rows = st
        .run(move |_, conn| {
            svc::get(conn, id)?;
            services::audit::history(conn, "player", id.get(), limit)
        })
        .await?;
    Ok(web::Json(rows.iter().map(AuditOut::from).collect()))
}
