//! The registry's list: players found by name, alias, document or phone.

use crate::db::models::PlayerRow;
use crate::domain::ids::PlayerId;
use crate::error::AppResult;
use crate::services::players::{self as svc};
use crate::web::ctx::Ctx;
use crate::web::extract::RegistryReader;
use crate::web::pages::{ctx, SearchQuery};
use crate::web::state::AppState;
use actix_web::{web, HttpRequest};
use askama::Template;
use askama_web::WebTemplate;

/// A player line in lists, with what the floor needs at a glance.
pub struct PlayerLine {
    pub p: PlayerRow,
    pub status: &'static str,
    pub status_class: &'static str,
}

fn line(p: PlayerRow, c: &Ctx, banned: bool) -> PlayerLine {
    let today = crate::domain::age::room_date(c.now, c.tz);
    let (status, status_class) = if banned {
        ("inelig-banned", "badge-bad")
    } else if !p.has_photo || p.doc_expiry < today {
        ("status-incomplete", "badge-warn")
    } else {
        ("status-complete", "badge-ok")
    };
    PlayerLine {
        p,
        status,
        status_class,
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "players/list.html")]
pub(super) struct ListPage {
    c: Ctx,
    q: String,
    players: Vec<PlayerLine>,
    limited: bool,
}

const LIST_LIMIT: i64 = 100;

pub(super) async fn list(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: RegistryReader,
    q: web::Query<SearchQuery>,
) -> AppResult<ListPage> {
    let c = ctx(&req, &st, &who.0).await?;
    let query = q.q.clone().unwrap_or_default();
    let qq = query.clone();
    let now = c.now;
    let (rows, banned) = st
        .run(move |_, conn| {
            let rows = svc::search(conn, &qq, LIST_LIMIT + 1)?;
            let ids: Vec<PlayerId> = rows.iter().map(|p| p.id).collect();
            Ok((rows, svc::banned_now(conn, &ids, now)?))
        })
        .await?;
    let limited = rows.len() as i64 > LIST_LIMIT;
    let players = rows
        .into_iter()
        .take(LIST_LIMIT as usize)
        .map(|p| {
            let b = banned.contains(&p.id);
            line(p, &c, b)
        })
        .collect();
    Ok(ListPage {
        c,
        q: query,
        players,
        limited,
    })
}
