//! The admin's tables: the list with the new-table form, and a table's edit page.

use super::{
    check_value, checkbox, just_saved, opts, saved_redirect, show, shown, summary, Opt, Parser,
    Shown, SumLine,
};
use crate::db::models::{GameRow, TableRow};
use crate::domain::game::TableMode;
use crate::domain::ids::GameId;
use crate::domain::ids::TableId;
use crate::domain::FieldError;
use crate::error::{AppError, AppResult};
use crate::services;
use crate::services::games::TableInput;
use crate::web::ctx::{Ctx, Errs, Vals};
use crate::web::extract::{ActingAs, AdminStaff, CsrfForm};
use crate::web::pages::{ctx, render};
use crate::web::state::AppState;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use serde::{Deserialize, Serialize};

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/admin/tables", web::get().to(tables_page))
        .route("/admin/tables", web::post().to(table_create))
        .route("/admin/tables/{id}", web::get().to(table_edit))
        .route("/admin/tables/{id}", web::post().to(table_update));
}

const TABLE_LABELS: &[(&str, &str)] = &[
    ("number", "admin-table-number"),
    ("seats", "admin-table-seats"),
    ("game_id", "admin-table-game"),
    ("mode", "admin-table-mode"),
    ("accessible_seats", "admin-table-accessible-seats"),
];

#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(default)]
struct TableForm {
    number: String,
    /// Empty: the game's seats (or 10).
    seats: String,
    /// Empty: no game.
    game_id: String,
    mode: String,
    /// Only on the edit form.
    active: Option<String>,
    /// Only on the edit form: BSOP 45, the seats kept for accessibility needs ("1, 10").
    accessible_seats: String,
}

impl TableForm {
    fn from_row(t: &TableRow, accessible: &[i32]) -> TableForm {
        TableForm {
            number: t.number.to_string(),
            seats: t.seats.to_string(),
            game_id: t.game_id.map(|g| g.to_string()).unwrap_or_default(),
            mode: t.mode.clone(),
            active: check_value(t.active),
            accessible_seats: crate::domain::seat_pref::format_numbers(accessible),
        }
    }

    fn parse(&self, editing: bool) -> Result<TableInput, Vec<FieldError>> {
        let mut p = Parser::default();
        let t = TableInput {
            number: p.int("number", &self.number).unwrap_or(0),
            seats: p.opt_int("seats", &self.seats),
            game_id: p.opt_i64("game_id", &self.game_id).map(GameId),
            mode: self.mode.trim().to_string(),
            active: editing.then(|| checkbox(&self.active)),
        };
        p.finish(|| {
            let mut more = Vec::new();
            if t.mode.parse::<TableMode>().is_err() {
                more.push(
                    FieldError::new(
                        "mode",
                        if t.mode.is_empty() {
                            "err-required"
                        } else {
                            "err-choice"
                        },
                    )
                    .arg("value", &t.mode),
                );
            }
            more
        })?;
        Ok(t)
    }
}

pub struct TableLine {
    pub t: TableRow,
    pub game: Option<GameRow>,
}

#[derive(Template)]
#[template(path = "admin/tables.html")]
struct TablesPage {
    c: Ctx,
    tables: Vec<TableLine>,
    games: Vec<GameRow>,
    modes: Vec<Opt>,
    v: Vals,
    errs: Errs,
    summary: Vec<SumLine>,
    problem: Option<String>,
    saved: bool,
    table_id: Option<TableId>,
}

#[derive(Template)]
#[template(path = "admin/table_edit.html")]
struct TableEditPage {
    c: Ctx,
    t: TableRow,
    games: Vec<GameRow>,
    modes: Vec<Opt>,
    v: Vals,
    errs: Errs,
    summary: Vec<SumLine>,
    problem: Option<String>,
    saved: bool,
    table_id: Option<TableId>,
}

async fn tables_view(
    req: &HttpRequest,
    st: &AppState,
    who: &AdminStaff,
    v: Option<Vals>,
    s: Shown,
    saved: bool,
) -> AppResult<TablesPage> {
    let c = ctx(req, st, &who.0).await?;
    let (tables, games) = st
        .run(|_, conn| {
            Ok((
                services::games::list_tables(conn)?,
                services::games::list_games(conn)?,
            ))
        })
        .await?;
    let v = v.unwrap_or_else(|| {
        let mut v = Vals::default();
        v.0.insert("mode".into(), TableMode::Continuous.to_string());
        let next = tables.iter().map(|(t, _)| t.number).max().unwrap_or(0) + 1;
        v.0.insert("number".into(), next.to_string());
        v
    });
    Ok(TablesPage {
        modes: opts(&c, TableMode::ALL, "mode-"),
        tables: tables
            .into_iter()
            .map(|(t, game)| TableLine { t, game })
            .collect(),
        games,
        v,
        summary: summary(&c, &s.errs, TABLE_LABELS),
        errs: s.errs,
        problem: s.problem,
        saved,
        table_id: None,
        c,
    })
}

async fn tables_page(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: AdminStaff,
) -> AppResult<HttpResponse> {
    let saved = just_saved(&req);
    let page = tables_view(&req, &st, &who, None, Shown::none(), saved).await?;
    show(&st, StatusCode::OK, &page, saved)
}

async fn table_create(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: ActingAs<AdminStaff>,
    form: CsrfForm<TableForm>,
) -> AppResult<HttpResponse> {
    let f = form.0;
    let result = match f.parse(false) {
        Err(fields) => Err(AppError::Validation(fields)),
        Ok(input) => {
            let acting = who.acting;
            st.write(move |_, conn| {
                let act = &acting.in_room(conn)?;
                services::games::create_table(conn, act, &input)
            })
            .await
        }
    };
    match result {
        Ok(_) => Ok(saved_redirect(&st, "/admin/tables")),
        Err(e) => {
            let c = ctx(&req, &st, &who.who.0).await?;
            let s = shown(&c, e)?;
            let status = s.status;
            let page = tables_view(&req, &st, &who.who, Some(Vals::of(&f)), s, false).await?;
            render(status, &page)
        }
    }
}

async fn table_edit_view(
    req: &HttpRequest,
    st: &AppState,
    who: &AdminStaff,
    id: i64,
    v: Option<Vals>,
    s: Shown,
    saved: bool,
) -> AppResult<TableEditPage> {
    let c = ctx(req, st, &who.0).await?;
    let (t, games, accessible) = st
        .run(move |_, conn| {
            Ok((
                services::games::get_table(conn, TableId(id))?,
                services::games::list_games(conn)?,
                services::seat_prefs::accessible_seats(conn, TableId(id))?,
            ))
        })
        .await?;
    let v = v.unwrap_or_else(|| Vals::of(&TableForm::from_row(&t, &accessible)));
    Ok(TableEditPage {
        modes: opts(&c, TableMode::ALL, "mode-"),
        t,
        games,
        v,
        summary: summary(&c, &s.errs, TABLE_LABELS),
        errs: s.errs,
        problem: s.problem,
        saved,
        table_id: Some(TableId(id)),
        c,
    })
}

async fn table_edit(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: AdminStaff,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    let saved = just_saved(&req);
    let page = table_edit_view(
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

async fn table_update(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: ActingAs<AdminStaff>,
    path: web::Path<TableId>,
    form: CsrfForm<TableForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let f = form.0;
    let result = match f.parse(true) {
        Err(fields) => Err(AppError::Validation(fields)),
        Ok(input) => {
            let acting = who.acting;
            let accessible = f.accessible_seats.clone();
            // One transaction: a refused seat list undoes the rest of the edit too.
            st.write(move |_, conn| {
                let act = &acting.in_room(conn)?;
                let t = services::games::update_table(conn, act, id, &input)?;
                services::seat_prefs::set_accessible_seats(conn, act, id, &accessible)?;
                Ok(t)
            })
            .await
        }
    };
    match result {
        Ok(_) => Ok(saved_redirect(&st, &format!("/admin/tables/{id}"))),
        Err(e) => {
            let c = ctx(&req, &st, &who.who.0).await?;
            let s = shown(&c, e)?;
            let status = s.status;
            let page = table_edit_view(&req, &st, &who.who, id.get(), Some(Vals::of(&f)), s, false)
                .await?;
            render(status, &page)
        }
    }
}
