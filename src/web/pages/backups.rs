//! `/admin/backups`: the scheduled backups (`CARDROOM_BACKUP_DIR`) — each file with its time
//! and size (a file carries its name only once its check passed), the last failure if the last
//! attempt failed, and "Back up now". A failing backup is also an alert at the top of every
//! admin and floor page (see `pages::ctx`).

use super::{ctx, render, see_other};
use crate::backup::BackupFile;
use crate::error::AppResult;
use crate::web::ctx::Ctx;
use crate::web::extract::{AdminStaff, CsrfForm};
use crate::web::state::AppState;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/admin/backups", web::get().to(page))
        .route("/admin/backups", web::post().to(now));
}

#[derive(Template)]
#[template(path = "admin/backups.html")]
struct Page {
    c: Ctx,
    /// `CARDROOM_BACKUP_DIR`, when set (and the database is SQLite).
    dir: Option<String>,
    every_min: u32,
    keep: u32,
    postgres: bool,
    files: Vec<BackupFile>,
    failing: Option<(String, String)>,
}

impl Page {
    fn size(&self, f: &BackupFile) -> String {
        let kb = f.bytes.div_ceil(1024);
        if kb >= 10 * 1024 {
            format!("{} MB", kb / 1024)
        } else {
            format!("{kb} KB")
        }
    }

    fn when(&self, f: &BackupFile) -> String {
        self.c.dt(f.at.naive_utc())
    }
}

async fn page(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: AdminStaff,
) -> AppResult<HttpResponse> {
    let c = ctx(&req, &st, &who.0).await?;
    let postgres = st.db.backend == crate::db::Backend::Postgres;
    let dir = st
        .config
        .backup
        .dir
        .as_ref()
        .map(|d| d.display().to_string())
        .filter(|_| !postgres);
    let files = match &dir {
        Some(d) => {
            let d = std::path::PathBuf::from(d);
            web::block(move || crate::backup::list(&d)).await?
        }
        None => Vec::new(),
    };
    let failing = st
        .backups
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .failing()
        .map(|(t, e)| (c.dt(t.naive_utc()), e.clone()));
    render(
        StatusCode::OK,
        &Page {
            c,
            dir,
            every_min: st.config.backup.every_min,
            keep: st.config.backup.keep,
            postgres,
            files,
            failing,
        },
    )
}

#[derive(serde::Deserialize)]
struct NowForm {}

/// "Back up now": the same checked copy as the scheduled ones; the page shows the outcome.
async fn now(
    st: web::Data<AppState>,
    _who: AdminStaff,
    _f: CsrfForm<NowForm>,
) -> AppResult<HttpResponse> {
    if let Some(dir) = st
        .config
        .backup
        .dir
        .clone()
        .filter(|_| st.db.backend == crate::db::Backend::Sqlite)
    {
        let st2 = st.clone();
        web::block(move || {
            let _ = crate::backup::scheduled(
                &st2.config.database.url,
                std::path::Path::new(&dir),
                st2.config.backup.keep as usize,
                chrono::Utc::now(),
                &st2.backups,
            );
        })
        .await?;
    }
    Ok(see_other("/admin/backups"))
}
