//! Sign-in and one's own account in the JSON API: the Bearer token, the password, the
//! signed-in staff member's sessions, and an admin ending all of someone's sessions.

use super::staff::StaffOut;
use crate::auth::{self, TokenKind};
use crate::error::AppResult;
use crate::services;
use crate::services::sessions::{self as sessions_svc, EndReason, SessionKind};
use crate::services::staff::PasswordChange;
use crate::web::extract::{AdminStaff, AnyStaff};
use crate::web::json::ApiJson;
use crate::web::openapi::ErrorResponse;
use crate::web::state::AppState;
use actix_web::{web, HttpRequest, HttpResponse};
// The route macros: utoipa reads the path and method from them (a bare name).
use actix_web::{delete, get, post};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;

/// Registered inside the `/api/v1` scope: each handler carries its path and method
/// (`#[get(…)]`) and its documentation (`#[utoipa::path]`), registered together.
pub fn routes(cfg: &mut ServiceConfig) {
    cfg.service(login)
        .service(change_password)
        .service(logout)
        .service(me)
        .service(my_sessions)
        .service(end_my_session)
        .service(end_staff_sessions);
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
        st.config.server.session_hours,
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
    params(("id" = String, Path, description = "The session's id", pattern = r"^[A-Za-z0-9_-]{1,64}$")),
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
