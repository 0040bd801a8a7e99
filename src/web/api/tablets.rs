//! Tablet pairing as a JSON API under `/api/v1`, for integrations (a native tablet app, a
//! kiosk script): the same service and rules as the pages (`/tablet`, `/floor/tablets`).
//!
//! The tablet asks for a code (`POST /tablet-pairings`, no sign-in: an unpaired tablet has
//! nobody's account), shows it, and asks with its secret whether the floor has entered it
//! (`POST /tablet-pairings/collect`: 202 while waiting, then its device token once). The
//! floor pairs a code with a table (`POST /tablets`), lists paired tablets and revokes one.
//!
//! The floor may instead pair the code as the desk kiosk (`POST /kiosks`), list
//! the kiosks and revoke one. A kiosk is a browser: it collects its token on its own page
//! (`/tablet`), not through `POST /tablet-pairings/collect`, whose answer is a dealer tablet's.

use crate::auth::{self, TokenKind};
use crate::db::models::TabletRow;
use crate::domain::ids::TableId;
use crate::error::{AppError, AppResult};
use crate::services::{self, tablets};
use crate::web::extract::ActingAs;
use crate::web::extract::FloorStaff;
use crate::web::json::ApiJson;
use crate::web::openapi::ErrorResponse;
use crate::web::state::AppState;
use actix_web::{web, HttpRequest, HttpResponse};
// The route macros: utoipa reads the path and method from them (a bare name).
use actix_web::{get, post};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;

/// Registered inside the `/api/v1` scope, as the other API modules.
pub fn routes(cfg: &mut ServiceConfig) {
    cfg.service(start_pairing)
        .service(collect_pairing)
        .service(pair_tablet)
        .service(list_tablets)
        .service(revoke_tablet)
        .service(pair_kiosk)
        .service(list_kiosks)
        .service(revoke_kiosk);
}

/// A pairing code for an unpaired tablet to show. The `secret` stays on the tablet: with
/// the code it collects the device token once the floor has paired it.
#[derive(Debug, Serialize, ToSchema)]
pub struct PairingOut {
    /// The code as stored (six letters and digits, never 0/O or 1/I/L).
    pub code: String,
    /// The code as shown to the floor (`ABC-DEF`).
    pub display_code: String,
    /// Kept by the tablet only; needed to collect the device token.
    pub secret: String,
    /// The code is refused after this instant (10 minutes).
    pub expires_at: DateTime<Utc>,
}

/// The tablet asks whether its code was paired.
#[derive(Debug, Deserialize, ToSchema)]
pub struct PairingCollectRequest {
    pub code: String,
    pub secret: String,
}

/// A paired tablet.
#[derive(Debug, Serialize, ToSchema)]
pub struct TabletOut {
    pub id: i64,
    #[schema(value_type = i64)]
    pub table_id: TableId,
    /// The table's number, when known.
    pub table_number: Option<i32>,
    pub label: String,
    pub paired_at: DateTime<Utc>,
    pub last_seen_at: Option<DateTime<Utc>>,
    pub revoked_at: Option<DateTime<Utc>>,
}

/// The tablet's pairing is done: its device token, given once (also set as the `cr_device`
/// cookie, which the tablet pages and stream read).
#[derive(Debug, Serialize, ToSchema)]
pub struct PairedOut {
    pub tablet: TabletOut,
    pub device_token: String,
}

/// The floor pairs the tablet showing `code` with a table.
#[derive(Debug, Deserialize, ToSchema)]
pub struct TabletPairRequest {
    /// As shown on the tablet; case, spaces and dashes do not matter.
    pub code: String,
    #[schema(value_type = i64)]
    pub table_id: TableId,
    /// A name for the tablet (at most 40 characters; the table's number when empty).
    #[serde(default)]
    #[schema(max_length = 40)]
    pub label: String,
}

fn tablet_out(t: &TabletRow, table_number: Option<i32>) -> TabletOut {
    TabletOut {
        id: t.id,
        table_id: t.table_id,
        table_number,
        label: t.label.clone(),
        paired_at: t.paired_at.and_utc(),
        last_seen_at: t.last_seen_at.map(|x| x.and_utc()),
        revoked_at: t.revoked_at.map(|x| x.and_utc()),
    }
}

fn table_number(conn: &mut crate::db::DbConn, table_id: TableId) -> AppResult<Option<i32>> {
    match services::games::get_table(conn, table_id) {
        Ok(t) => Ok(Some(t.number)),
        Err(AppError::NotFound) => Ok(None),
        Err(e) => Err(e),
    }
}

/// A new pairing code for an unpaired tablet (no sign-in), valid 10 minutes. The page
/// `/tablet` does the same for a browser. Limited per client address (`web::limits`).
#[utoipa::path(
    tag = "tablets", security(()),
    responses(
        (status = 201, body = PairingOut),
        (status = 429, description = "Too many codes asked for from this client address (see `Retry-After`)", body = ErrorResponse),
    )
)]
#[post("/tablet-pairings")]
pub async fn start_pairing(req: HttpRequest, st: web::Data<AppState>) -> AppResult<HttpResponse> {
    crate::web::limits::pairing_code(&st, &req)?;
    let now = st.clock.now();
    let (p, secret) = st
        .write(move |_, conn| tablets::start_pairing(conn, now))
        .await?;
    Ok(HttpResponse::Created()
        .insert_header(("Cache-Control", "no-store"))
        .json(PairingOut {
            display_code: tablets::display_code(&p.code),
            code: p.code,
            secret,
            expires_at: p.expires_at.and_utc(),
        }))
}

/// The tablet asks (no sign-in, with its code and secret) whether the floor has paired it:
/// 202 while waiting; once paired, its device token (given once: the pairing is then used
/// up). An expired, used or unknown code (or a wrong secret) is a 409: ask for a new one.
#[utoipa::path(
    tag = "tablets", security(()),
    request_body = PairingCollectRequest,
    responses(
        (status = 200, body = PairedOut),
        (status = 202, description = "Not paired yet: ask again in a few seconds"),
        (status = 409, description = "Expired, used or unknown code, or the tablet was revoked", body = ErrorResponse),
    )
)]
#[post("/tablet-pairings/collect")]
pub async fn collect_pairing(
    st: web::Data<AppState>,
    body: ApiJson<PairingCollectRequest>,
) -> AppResult<HttpResponse> {
    let now = st.clock.now();
    let PairingCollectRequest { code, secret } = body.into_inner();
    let paired = st
        .write(move |_, conn| {
            // A code paired as the desk kiosk is collected by the kiosk's page (`/tablet`),
            // not here: this answer is a dealer tablet's (409, the code is left for the page).
            let Some(tablets::Paired::Tablet(t)) =
                tablets::collect(conn, now, &code, &secret, false)?
            else {
                return Ok(None);
            };
            let number = table_number(conn, t.table_id)?;
            Ok(Some((t, number)))
        })
        .await?;
    let Some((t, number)) = paired else {
        return Ok(HttpResponse::Accepted()
            .insert_header(("Cache-Control", "no-store"))
            .finish());
    };
    let (token, _) = auth::issue(
        &st.keys,
        t.id,
        t.token_version,
        TokenKind::Device,
        "",
        now,
        crate::web::pages::tablet::DEVICE_HOURS,
    );
    let mut res = HttpResponse::Ok()
        .insert_header(("Cache-Control", "no-store"))
        .json(PairedOut {
            tablet: tablet_out(&t, number),
            device_token: token.clone(),
        });
    res.add_cookie(&crate::web::pages::tablet::device_cookie(&st, token))
        .ok();
    Ok(res)
}

/// Pairs the tablet showing `code` with a table (admin, floor), audited. The page
/// `/floor/tablets` does the same.
#[utoipa::path(
    tag = "tablets",
    request_body = TabletPairRequest,
    responses(
        (status = 201, body = TabletOut),
        (status = 403, body = ErrorResponse),
        (status = 422, description = "Unknown, used or expired code, unknown table, label too long", body = ErrorResponse),
    )
)]
#[post("/tablets")]
pub async fn pair_tablet(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    body: Result<ApiJson<TabletPairRequest>, actix_web::Error>,
) -> AppResult<HttpResponse> {
    // The role is checked before the body is looked at.
    let TabletPairRequest {
        code,
        table_id,
        label,
    } = body?.into_inner();
    let acting = who.acting;
    let out = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            let t = tablets::pair(conn, act, &code, table_id, &label)?;
            let number = table_number(conn, t.table_id)?;
            Ok(tablet_out(&t, number))
        })
        .await?;
    Ok(HttpResponse::Created().json(out))
}

/// The tablets still paired, by table (admin, floor).
#[utoipa::path(
    tag = "tablets",
    responses((status = 200, body = Vec<TabletOut>), (status = 403, body = ErrorResponse))
)]
#[get("/tablets")]
pub async fn list_tablets(
    st: web::Data<AppState>,
    _who: FloorStaff,
) -> AppResult<web::Json<Vec<TabletOut>>> {
    let rows = st.run(|_, conn| tablets::list(conn)).await?;
    Ok(web::Json(
        rows.iter().map(|(t, n)| tablet_out(t, Some(*n))).collect(),
    ))
}

/// Revokes a tablet (admin, floor), audited: its device token stops working at once and its
/// open stream ends.
#[utoipa::path(
    tag = "tablets",
    params(("id" = i64, Path, description = "Tablet id")),
    responses(
        (status = 200, body = TabletOut),
        (status = 403, body = ErrorResponse),
        (status = 404, body = ErrorResponse),
        (status = 409, description = "Already revoked", body = ErrorResponse),
    )
)]
#[post("/tablets/{id}/revoke")]
pub async fn revoke_tablet(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<i64>,
) -> AppResult<web::Json<TabletOut>> {
    let id = path.into_inner();
    let acting = who.acting;
    let out = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            let t = tablets::revoke(conn, act, id)?;
            let number = table_number(conn, t.table_id)?;
            Ok(tablet_out(&t, number))
        })
        .await?;
    Ok(web::Json(out))
}

// ---- Desk kiosks ----------------------------------------------------------------

/// A tablet paired as the desk kiosk.
#[derive(Debug, Serialize, ToSchema)]
pub struct KioskOut {
    pub id: i64,
    pub label: String,
    pub paired_at: DateTime<Utc>,
    pub last_seen_at: Option<DateTime<Utc>>,
    pub revoked_at: Option<DateTime<Utc>>,
}

/// The floor pairs the device showing `code` as the desk kiosk.
#[derive(Debug, Deserialize, ToSchema)]
pub struct KioskPairRequest {
    /// As shown on the device; case, spaces and dashes do not matter.
    pub code: String,
    /// A name for the kiosk (at most 40 characters; "Kiosk N" when empty).
    #[serde(default)]
    #[schema(max_length = 40)]
    pub label: String,
}

fn kiosk_out(k: &crate::db::models::KioskRow) -> KioskOut {
    KioskOut {
        id: k.id,
        label: k.label.clone(),
        paired_at: k.paired_at.and_utc(),
        last_seen_at: k.last_seen_at.map(|x| x.and_utc()),
        revoked_at: k.revoked_at.map(|x| x.and_utc()),
    }
}

/// Pairs the device showing `code` as the desk kiosk (admin, floor), audited. The page
/// `/floor/tablets` does the same ("Desk kiosk" instead of a table); the device then opens
/// `/kiosk`.
#[utoipa::path(
    tag = "tablets",
    request_body = KioskPairRequest,
    responses(
        (status = 201, body = KioskOut),
        (status = 403, body = ErrorResponse),
        (status = 422, description = "Unknown, used or expired code, label too long", body = ErrorResponse),
    )
)]
#[post("/kiosks")]
pub async fn pair_kiosk(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    body: Result<ApiJson<KioskPairRequest>, actix_web::Error>,
) -> AppResult<HttpResponse> {
    // The role is checked before the body is looked at.
    let KioskPairRequest { code, label } = body?.into_inner();
    let acting = who.acting;
    let k = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            services::kiosks::pair(conn, act, &code, &label)
        })
        .await?;
    Ok(HttpResponse::Created().json(kiosk_out(&k)))
}

/// The desk kiosks still paired (admin, floor).
#[utoipa::path(
    tag = "tablets",
    responses((status = 200, body = Vec<KioskOut>), (status = 403, body = ErrorResponse))
)]
#[get("/kiosks")]
pub async fn list_kiosks(
    st: web::Data<AppState>,
    _who: FloorStaff,
) -> AppResult<web::Json<Vec<KioskOut>>> {
    let rows = st.run(|_, conn| services::kiosks::list(conn)).await?;
    Ok(web::Json(rows.iter().map(kiosk_out).collect()))
}

/// Revokes a desk kiosk (admin, floor), audited: its token stops working at once and the
/// device shows its pairing code again.
#[utoipa::path(
    tag = "tablets",
    params(("id" = i64, Path, description = "Kiosk id")),
    responses(
        (status = 200, body = KioskOut),
        (status = 403, body = ErrorResponse),
        (status = 404, body = ErrorResponse),
        (status = 409, description = "Already revoked", body = ErrorResponse),
    )
)]
#[post("/kiosks/{id}/revoke")]
pub async fn revoke_kiosk(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<i64>,
) -> AppResult<web::Json<KioskOut>> {
    let id = path.into_inner();
    let acting = who.acting;
    let k = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            services::kiosks::revoke(conn, act, id)
        })
        .await?;
    Ok(web::Json(kiosk_out(&k)))
}
