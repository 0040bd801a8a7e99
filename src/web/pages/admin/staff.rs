//! The admin's staff accounts: the list with the new-account form, an account's edit page,
//! and ending all of someone's sessions.

use super::{
    check_value, checkbox, just_saved, opts, saved_redirect, show, shown, summary, Opt, Shown,
    SumLine,
};
use crate::db::models::StaffRow;
use crate::domain::staff::Role;
use crate::error::AppResult;
use crate::services;
use crate::services::staff::StaffInput;
use crate::web::ctx::{Ctx, Errs, Vals};
use crate::web::extract::{AdminStaff, CsrfForm};
use crate::web::pages::{ctx, render};
use crate::web::state::AppState;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use serde::{Deserialize, Serialize};

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/admin/staff", web::get().to(staff_page))
        .route("/admin/staff", web::post().to(staff_create))
        .route("/admin/staff/{id}", web::get().to(staff_edit))
        .route("/admin/staff/{id}", web::post().to(staff_update))
        .route(
            "/admin/staff/{id}/sessions/end",
            web::post().to(staff_end_sessions),
        );
}

const STAFF_LABELS: &[(&str, &str)] = &[
    ("username", "field-username"),
    ("display_name", "admin-staff-display-name"),
    ("role", "admin-staff-role"),
    ("password", "admin-staff-password"),
    ("active", "admin-active"),
];

#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(default)]
struct StaffForm {
    /// Only on the new form (a username never changes).
    username: String,
    display_name: String,
    role: String,
    /// Required to create; on edit, empty keeps the password. Never shown back.
    #[serde(skip_serializing)]
    password: String,
    /// Only on the edit form.
    active: Option<String>,
}

impl StaffForm {
    fn from_row(s: &StaffRow) -> StaffForm {
        StaffForm {
            username: s.username.clone(),
            display_name: s.display_name.clone(),
            role: s.role.clone(),
            password: String::new(),
            active: check_value(s.active),
        }
    }
}

#[derive(Template)]
#[template(path = "admin/staff.html")]
struct StaffPage {
    c: Ctx,
    staff: Vec<StaffRow>,
    roles: Vec<Opt>,
    v: Vals,
    errs: Errs,
    summary: Vec<SumLine>,
    problem: Option<String>,
    saved: bool,
}

#[derive(Template)]
#[template(path = "admin/staff_edit.html")]
struct StaffEditPage {
    c: Ctx,
    s: StaffRow,
    roles: Vec<Opt>,
    v: Vals,
    errs: Errs,
    summary: Vec<SumLine>,
    problem: Option<String>,
    saved: bool,
    /// Editing one's own account (role and active cannot be taken away).
    is_me: bool,
    /// Sessions and API tokens of this person still open.
    open_sessions: usize,
}

async fn staff_view(
    req: &HttpRequest,
    st: &AppState,
    who: &AdminStaff,
    v: Option<Vals>,
    s: Shown,
    saved: bool,
) -> AppResult<StaffPage> {
    let c = ctx(req, st, &who.0).await?;
    let staff = st.run(|_, conn| services::staff::list(conn)).await?;
    let v = v.unwrap_or_else(|| {
        let mut v = Vals::default();
        v.0.insert("role".into(), Role::Dealer.to_string());
        v
    });
    Ok(StaffPage {
        roles: opts(&c, Role::ALL, "role-"),
        staff,
        v,
        summary: summary(&c, &s.errs, STAFF_LABELS),
        errs: s.errs,
        problem: s.problem,
        saved,
        c,
    })
}

async fn staff_page(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: AdminStaff,
) -> AppResult<HttpResponse> {
    let saved = just_saved(&req);
    let page = staff_view(&req, &st, &who, None, Shown::none(), saved).await?;
    show(&st, StatusCode::OK, &page, saved)
}

async fn staff_create(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: AdminStaff,
    form: CsrfForm<StaffForm>,
) -> AppResult<HttpResponse> {
    let f = form.0;
    let input = StaffInput {
        username: Some(f.username.clone()),
        display_name: f.display_name.clone(),
        role: f.role.trim().to_string(),
        password: Some(f.password.clone()),
        active: None,
    };
    let now = st.clock.now();
    let actor = services::staff::actor(&who.0.staff);
    match st
        .write(move |_, conn| services::staff::create(conn, now, &actor, &input))
        .await
    {
        Ok(_) => Ok(saved_redirect(&st, "/admin/staff")),
        Err(e) => {
            let c = ctx(&req, &st, &who.0).await?;
            let s = shown(&c, e)?;
            let status = s.status;
            let page = staff_view(&req, &st, &who, Some(Vals::of(&f)), s, false).await?;
            render(status, &page)
        }
    }
}

async fn staff_edit_view(
    req: &HttpRequest,
    st: &AppState,
    who: &AdminStaff,
    id: i64,
    v: Option<Vals>,
    sh: Shown,
    saved: bool,
) -> AppResult<StaffEditPage> {
    let c = ctx(req, st, &who.0).await?;
    let now = st.clock.now();
    let (s, open_sessions) = st
        .run(move |_, conn| {
            let s = services::staff::get(conn, id)?;
            let open = services::sessions::list_open(conn, now, id)?.len();
            Ok((s, open))
        })
        .await?;
    let v = v.unwrap_or_else(|| Vals::of(&StaffForm::from_row(&s)));
    Ok(StaffEditPage {
        open_sessions,
        roles: opts(&c, Role::ALL, "role-"),
        is_me: s.id == who.0.staff.id,
        s,
        v,
        summary: summary(&c, &sh.errs, STAFF_LABELS),
        errs: sh.errs,
        problem: sh.problem,
        saved,
        c,
    })
}

async fn staff_edit(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: AdminStaff,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    let saved = just_saved(&req);
    let page = staff_edit_view(
        &req,
        &st,
        &who,
        path.into_inner(),
        None,
        Shown::none(),
        saved,
    )
    .await?;
    show(&st, StatusCode::OK, &page, saved)
}

/// Ends every session and API token of a staff member (a lost tablet, a dismissal).
async fn staff_end_sessions(
    st: web::Data<AppState>,
    who: AdminStaff,
    path: web::Path<i64>,
    _form: CsrfForm<crate::web::pages::Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let now = st.clock.now();
    let by = who.0.staff.clone();
    st.write(move |_, conn| services::staff::end_sessions(conn, now, &by, id))
        .await?;
    Ok(saved_redirect(&st, &format!("/admin/staff/{id}")))
}

async fn staff_update(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: AdminStaff,
    path: web::Path<i64>,
    form: CsrfForm<StaffForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let f = form.0;
    let input = StaffInput {
        username: None,
        display_name: f.display_name.clone(),
        role: f.role.trim().to_string(),
        password: Some(f.password.clone()).filter(|p| !p.is_empty()),
        active: Some(checkbox(&f.active)),
    };
    let now = st.clock.now();
    let by = who.0.staff.clone();
    match st
        .write(move |_, conn| services::staff::update(conn, now, &by, id, &input))
        .await
    {
        Ok(_) => Ok(saved_redirect(&st, &format!("/admin/staff/{id}"))),
        Err(e) => {
            let c = ctx(&req, &st, &who.0).await?;
            let s = shown(&c, e)?;
            let status = s.status;
            let page = staff_edit_view(&req, &st, &who, id, Some(Vals::of(&f)), s, false).await?;
            render(status, &page)
        }
    }
}
