//! The dashboard itself: the page with every list and table, and its live part (htmx), read
//! from the room's state and the last draws.

use super::shared::{BoardFilter, Flash};
use crate::domain::draw::DrawKind;
use crate::domain::ids::TableId;
use crate::domain::states::CallState;
use crate::domain::states::EntryState;
use crate::domain::table::TableState;
use crate::error::{AppError, AppResult};
use crate::services::table_side::FloorAlerts;
use crate::services::{self, floor::Dashboard, floor::TableView};
use crate::web::ctx::Ctx;
use crate::web::extract::FloorStaff;
use crate::web::pages::{ctx, render};
use crate::web::state::AppState;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use serde::Deserialize;
use std::collections::HashMap;

#[derive(Template)]
#[template(path = "floor/dashboard.html")]
pub(super) struct Page {
    pub(super) c: Ctx,
    pub(super) d: Dashboard,
    pub(super) a: FloorAlerts,
    /// The last event this render includes: the live stream starts after it.
    pub(super) since: i64,
    /// A refusal to show above everything (the action changed nothing).
    pub(super) problem: Option<String>,
    /// The draw just made (`/floor?draw=N` after a draw): its result, linked to its record.
    pub(super) draw: Option<services::draws::DrawView>,
    /// Each table's newest draw (table id → draw id), linked from the table.
    pub(super) draws: LastDraws,
    /// The board's search and game filter (from the address: a reload keeps them).
    pub(super) filter: BoardFilter,
    /// What was typed in the join form when it was refused (kept).
    pub(super) typed: String,
    /// The table whose panel is open (`/floor?table=N`).
    pub(super) panel: Option<TableView>,
    /// What the last action did, with its undo if it has one.
    pub(super) done: Option<Flash>,
    /// Tiles and lists render for the page, not as out-of-band swaps.
    pub(super) oob: bool,
}

#[derive(Template)]
#[template(path = "floor/live.html")]
pub(super) struct Live {
    c: Ctx,
    d: Dashboard,
    a: FloorAlerts,
    oob: bool,
}

async fn load(
    st: &AppState,
    now: chrono::DateTime<chrono::Utc>,
) -> AppResult<(Dashboard, FloorAlerts, LastDraws)> {
    let (d, a, _, draws) = load_since(st, now).await?;
    Ok((d, a, draws))
}

/// The dashboard and the last event number read just before it (a change committed in
/// between is pushed again: at worst one extra refresh, never a missed one).
pub(crate) async fn load_since(
    st: &AppState,
    now: chrono::DateTime<chrono::Utc>,
) -> AppResult<(Dashboard, FloorAlerts, i64, LastDraws)> {
    st.run(move |st, conn| {
        let since = crate::web::stream::last_seq(conn)?;
        let room = services::room::get(conn)?;
        let d = services::floor::dashboard(conn, &st.waits, now, &room.profile)?;
        let a = services::table_side::floor_alerts(conn, now, &room.profile)?;
        let draws = LastDraws(services::draws::latest_by_table(conn)?);
        Ok((d, a, since, draws))
    })
    .await
}

/// Each table's newest draw, linked from the table.
pub(crate) struct LastDraws(HashMap<TableId, i64>);

impl LastDraws {
    /// The newest draw of a table (templates pass the id by value or by reference).
    pub(crate) fn of<T: std::borrow::Borrow<TableId>>(&self, table: T) -> Option<i64> {
        self.0.get(table.borrow()).copied()
    }
}

#[derive(Deserialize)]
pub(super) struct PageQuery {
    /// Set by the redirect after a draw: the dashboard names its result.
    draw: Option<i64>,
    /// The table (number) whose panel is open.
    table: Option<String>,
    /// The board's search.
    q: Option<String>,
    /// The board's game filter (a game id; empty: every game).
    game: Option<String>,
}

pub(super) async fn page(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    q: web::Query<PageQuery>,
) -> AppResult<HttpResponse> {
    let c = ctx(&req, &st, &who.0).await?;
    let (d, a, since, draws) = load_since(&st, c.now).await?;
    // A draw id that does not exist (an old bookmark) shows no banner rather than an error.
    let draw = match q.draw {
        Some(id) => {
            st.run(move |_, conn| match services::draws::view(conn, id) {
                Ok(v) => Ok(Some(v)),
                Err(AppError::NotFound) => Ok(None),
                Err(e) => Err(e),
            })
            .await?
        }
        None => None,
    };
    let panel = q
        .table
        .as_deref()
        .and_then(|t| t.trim().parse::<i32>().ok())
        .and_then(|n| d.tables.iter().find(|v| v.table.number == n).cloned());
    let filter = BoardFilter {
        q: q.q.clone().unwrap_or_default().chars().take(60).collect(),
        game: q.game.as_deref().and_then(|g| g.trim().parse().ok()),
    };
    let done = Flash::read(&req);
    let mut res = render(
        StatusCode::OK,
        &Page {
            c,
            d,
            a,
            since,
            problem: None,
            draw,
            draws,
            filter,
            typed: String::new(),
            panel,
            done: done.clone(),
            oob: false,
        },
    )?;
    if done.is_some() {
        Flash::clear(&mut res);
    }
    Ok(res)
}

pub(super) async fn live(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
) -> AppResult<HttpResponse> {
    let c = ctx(&req, &st, &who.0).await?;
    let (d, a, _) = load(&st, c.now).await?;
    render(
        StatusCode::OK,
        &Live {
            c,
            d,
            a,
            oob: false,
        },
    )
}
