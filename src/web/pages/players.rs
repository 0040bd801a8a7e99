//! Player registry pages: search, register (with the desk photo), view, edit, bans,
//! separations, history.

use super::{ctx, render, see_other, SearchQuery};
use crate::db::models::{AuditRow, ExclusionRow, PlayerRow, SeparationRow};
use crate::domain::eligibility::Ineligible;
use crate::domain::player::{id_warnings, DocumentKind, Language, NotifyPref, Warning};
use crate::domain::Problem;
use crate::error::{AppError, AppResult};
use crate::services::photo::{self, Photo};
use crate::services::players::{self as svc, BanForm, PlayerForm, ReasonForm, SeparationForm};
use crate::services::{self};
use crate::state::AppState;
use crate::web::ctx::{Ctx, Errs, Vals};
use crate::web::extract::{check_csrf, CsrfForm, FloorStaff, RegistryReader};
use actix_multipart::form::bytes::Bytes as MpBytes;
use actix_multipart::form::text::Text;
use actix_multipart::form::{MultipartForm, MultipartFormConfig};
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use askama_web::WebTemplate;
use serde::Deserialize;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.app_data(
        MultipartFormConfig::default()
            .total_limit(photo::MAX_UPLOAD_BYTES + 512 * 1024)
            .memory_limit(photo::MAX_UPLOAD_BYTES + 512 * 1024)
            .error_handler(|e, _| {
                use actix_multipart::MultipartError as M;
                match e {
                    M::ContentTypeMissing | M::ContentTypeIncompatible | M::ContentTypeParse => {
                        AppError::UnsupportedMedia(Problem::new("err-content-type-multipart"))
                            .into()
                    }
                    // Only the form's size limits overflow the payload (the photo is the
                    // only large part).
                    M::Payload(_) => {
                        AppError::TooLarge(Problem::new("err-photo-too-large").arg("max", 5)).into()
                    }
                    // A text field that is not text (invalid UTF-8, or sent as a file): that
                    // field is refused, not the photo's size (issue 16.7).
                    M::Field { name, .. } => {
                        AppError::Validation(vec![crate::domain::FieldError::new(
                            &name,
                            "err-not-text",
                        )
                        .arg("field", &name)])
                        .into()
                    }
                    other => {
                        AppError::BadRequest(Problem::new("err-form").arg("detail", other)).into()
                    }
                }
            }),
    )
    .route("/players", web::get().to(list))
    .route("/players", web::post().to(create))
    .route("/players/new", web::get().to(new_form))
    .route("/players/{id}", web::get().to(show))
    .route("/players/{id}", web::post().to(update))
    .route("/players/{id}/edit", web::get().to(edit_form))
    .route("/players/{id}/photo", web::get().to(photo_file))
    .route("/players/{id}/bans", web::post().to(ban))
    .route("/bans/{id}/lift", web::post().to(lift))
    .route("/players/{id}/separations", web::post().to(separate))
    .route("/separations/{id}/remove", web::post().to(unseparate))
    .route("/players/{id}/link", web::get().to(link_page))
    .route("/players/{id}/link/send", web::post().to(link_send))
    .route("/players/{id}/links/revoke", web::post().to(links_revoke));
}

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
struct ListPage {
    c: Ctx,
    q: String,
    players: Vec<PlayerLine>,
    limited: bool,
}

const LIST_LIMIT: i64 = 100;

async fn list(
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
            let ids: Vec<i64> = rows.iter().map(|p| p.id).collect();
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

#[derive(Template)]
#[template(path = "players/form.html")]
struct FormPage {
    c: Ctx,
    /// None: a new player.
    player_id: Option<i64>,
    has_photo: bool,
    v: Vals,
    errs: Errs,
    /// A conflict (duplicate document, stale edit) shown above the form.
    problem: Option<String>,
    /// The existing record a duplicate document belongs to.
    duplicate_of: Option<i64>,
    doc_kinds: &'static [DocumentKind],
    languages: &'static [Language],
    notifies: &'static [NotifyPref],
}

fn form_page(c: Ctx, player_id: Option<i64>, has_photo: bool, v: Vals) -> FormPage {
    FormPage {
        c,
        player_id,
        has_photo,
        v,
        errs: Errs::default(),
        problem: None,
        duplicate_of: None,
        doc_kinds: DocumentKind::ALL,
        languages: Language::ALL,
        notifies: NotifyPref::ALL,
    }
}

async fn new_form(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
) -> AppResult<HttpResponse> {
    let c = ctx(&req, &st, &who.0).await?;
    let mut v = Vals::of(&PlayerForm::default());
    v.0.insert("language".into(), c.lang.to_string());
    v.0.insert("notify".into(), "sms".into());
    render(StatusCode::OK, &form_page(c, None, false, v))
}

/// The registration form as posted from the desk (multipart, because of the photo).
#[derive(MultipartForm)]
pub struct PlayerUpload {
    csrf: Option<Text<String>>,
    full_name: Option<Text<String>>,
    date_of_birth: Option<Text<String>>,
    doc_kind: Option<Text<String>>,
    doc_number: Option<Text<String>>,
    doc_country: Option<Text<String>>,
    doc_expiry: Option<Text<String>>,
    phone: Option<Text<String>>,
    email: Option<Text<String>>,
    language: Option<Text<String>>,
    notify: Option<Text<String>>,
    alias: Option<Text<String>>,
    version: Option<Text<String>>,
    photo: Option<MpBytes>,
}

impl PlayerUpload {
    fn form(&self) -> PlayerForm {
        let t = |f: &Option<Text<String>>| f.as_ref().map(|t| t.0.clone());
        PlayerForm {
            full_name: t(&self.full_name),
            date_of_birth: t(&self.date_of_birth),
            doc_kind: t(&self.doc_kind),
            doc_number: t(&self.doc_number),
            doc_country: t(&self.doc_country),
            doc_expiry: t(&self.doc_expiry),
            phone: t(&self.phone),
            email: t(&self.email),
            language: t(&self.language),
            notify: t(&self.notify),
            alias: t(&self.alias),
            version: self.version.as_ref().and_then(|v| v.0.trim().parse().ok()),
        }
    }

    fn photo_bytes(&self) -> Option<&[u8]> {
        self.photo
            .as_ref()
            .map(|b| &b.data[..])
            .filter(|d| !d.is_empty())
    }
}

/// Shows the form again with what was typed and every message, changing nothing.
async fn form_again(
    req: &HttpRequest,
    st: &AppState,
    who: &FloorStaff,
    player_id: Option<i64>,
    form: &PlayerForm,
    err: AppError,
) -> AppResult<HttpResponse> {
    let c = ctx(req, st, &who.0).await?;
    let has_photo = match player_id {
        Some(id) => st.run(move |_, conn| svc::get(conn, id)).await?.has_photo,
        None => false,
    };
    let mut page = form_page(c, player_id, has_photo, Vals::of(form));
    let status = actix_web::ResponseError::status_code(&err);
    match &err {
        AppError::Validation(fields) => page.errs = page.c.errors(fields),
        AppError::Conflict(p) | AppError::TooLarge(p) => {
            let args: Vec<(&str, String)> = p.args.iter().map(|(k, v)| (*k, v.clone())).collect();
            page.problem = Some(page.c.i18n.msg(page.c.lang, p.key, &args));
            if p.key == "err-duplicate-document" {
                page.duplicate_of = p
                    .args
                    .iter()
                    .find(|(k, _)| *k == "id")
                    .and_then(|(_, v)| v.parse().ok());
            }
        }
        _ => return Err(err),
    }
    render(status, &page)
}

fn parse_upload(
    up: &PlayerUpload,
) -> Result<(crate::domain::player::PlayerInput, Option<Photo>), AppError> {
    let form = up.form();
    // Parse the fields and the photo together so every problem is shown at once.
    let input = form.parse();
    let photo = up.photo_bytes().map(photo::process).transpose();
    match (input, photo) {
        (Ok(i), Ok(p)) => Ok((i, p)),
        (Err(mut fs), Err(AppError::Validation(more))) => {
            fs.extend(more);
            Err(AppError::Validation(fs))
        }
        (Err(fs), _) => Err(AppError::Validation(fs)),
        (_, Err(e)) => Err(e),
    }
}

async fn create(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    up: MultipartForm<PlayerUpload>,
) -> AppResult<HttpResponse> {
    check_csrf(&req, up.csrf.as_ref().map(|t| t.0.as_str()))?;
    let form = up.form();
    let up = up.into_inner();
    // Decoding a photo is CPU work: on the blocking pool, not on the request thread.
    let (input, photo) = match web::block(move || parse_upload(&up)).await? {
        Ok(x) => x,
        Err(e) => return form_again(&req, &st, &who, None, &form, e).await,
    };
    let now = st.clock.now();
    let actor = services::staff::actor(&who.0.staff);
    let result = st
        .write(move |_, conn| {
            let room = services::room::get(conn)?;
            svc::create(conn, now, room.tz, &actor, &input, photo.as_ref())
        })
        .await;
    match result {
        Ok((row, _)) => Ok(see_other(&format!("/players/{}", row.id))),
        Err(e) => form_again(&req, &st, &who, None, &form, e).await,
    }
}

async fn edit_form(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let c = ctx(&req, &st, &who.0).await?;
    let p = st.run(move |_, conn| svc::get(conn, id)).await?;
    render(
        StatusCode::OK,
        &form_page(
            c,
            Some(id),
            p.has_photo,
            Vals::of(&PlayerForm::from_row(&p)),
        ),
    )
}

async fn update(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<i64>,
    up: MultipartForm<PlayerUpload>,
) -> AppResult<HttpResponse> {
    check_csrf(&req, up.csrf.as_ref().map(|t| t.0.as_str()))?;
    let id = path.into_inner();
    let form = up.form();
    let up = up.into_inner();
    let (input, photo) = match web::block(move || parse_upload(&up)).await? {
        Ok(x) => x,
        Err(e) => return form_again(&req, &st, &who, Some(id), &form, e).await,
    };
    let now = st.clock.now();
    let actor = services::staff::actor(&who.0.staff);
    let version = form.version;
    let result = st
        .write(move |_, conn| {
            let room = services::room::get(conn)?;
            svc::update(
                conn,
                now,
                room.tz,
                &actor,
                id,
                version,
                &input,
                photo.as_ref(),
            )
        })
        .await;
    match result {
        Ok(_) => Ok(see_other(&format!("/players/{id}"))),
        Err(AppError::NotFound) => Err(AppError::NotFound),
        Err(e) => form_again(&req, &st, &who, Some(id), &form, e).await,
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "players/show.html")]
struct ShowPage {
    c: Ctx,
    p: PlayerRow,
    age: i32,
    ineligible: Vec<Ineligible>,
    warnings: Vec<String>,
    bans: Vec<(ExclusionRow, bool)>,
    separations: Vec<(SeparationRow, PlayerRow)>,
    history: Vec<AuditRow>,
    /// What just happened to the player's link (`?link=sent|revoked`).
    link_notice: Option<String>,
}

#[derive(Deserialize)]
struct ShowQuery {
    link: Option<String>,
}

async fn show(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: RegistryReader,
    path: web::Path<i64>,
    q: web::Query<ShowQuery>,
) -> AppResult<ShowPage> {
    let id = path.into_inner();
    let link_notice = match q.into_inner().link.as_deref() {
        Some("sent") => Some("players-link-sent"),
        Some("revoked") => Some("players-links-revoked"),
        _ => None,
    }
    .map(str::to_string);
    let c = ctx(&req, &st, &who.0).await?;
    let now = c.now;
    let tz = c.tz;
    let (p, ineligible, bans, separations, history) = st
        .run(move |_, conn| {
            let p = svc::get(conn, id)?;
            let inel = svc::eligibility(conn, &p, now, tz)?;
            let bans = svc::exclusions_of(conn, id, now)?;
            let seps = svc::separations_of(conn, id)?;
            let hist = services::audit::history(conn, "player", id, 50)?;
            Ok((p, inel, bans, seps, hist))
        })
        .await?;
    let today = crate::domain::age::room_date(now, tz);
    let warnings = id_warnings(p.doc_expiry, today)
        .into_iter()
        .map(|Warning::IdExpiresSoon { on, days }| {
            c.i18n.msg(
                c.lang,
                "warn-id-expires",
                &[("date", on.to_string()), ("days", days.to_string())],
            )
        })
        .collect();
    let age = crate::domain::age::age_on(p.date_of_birth, today);
    Ok(ShowPage {
        c,
        p,
        age,
        ineligible,
        warnings,
        bans,
        separations,
        history,
        link_notice,
    })
}

async fn photo_file(
    st: web::Data<AppState>,
    _who: RegistryReader,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let ph = st.run(move |_, conn| svc::photo(conn, id)).await?;
    Ok(HttpResponse::Ok()
        .content_type(ph.content_type)
        .insert_header(("Cache-Control", "private, no-store"))
        .body(ph.data))
}

/// Small forms on the player page: an error is shown on its own page with a way back.
async fn ban(
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<i64>,
    form: CsrfForm<BanForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let now = st.clock.now();
    let actor = services::staff::actor(&who.0.staff);
    st.write(move |_, conn| {
        let room = services::room::get(conn)?;
        svc::ban(conn, now, room.tz, &actor, id, &form.0)
    })
    .await?;
    Ok(see_other(&format!("/players/{id}#bans")))
}

async fn lift(
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<i64>,
    form: CsrfForm<ReasonForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let now = st.clock.now();
    let actor = services::staff::actor(&who.0.staff);
    let row = st
        .write(move |_, conn| svc::lift_ban(conn, now, &actor, id, &form.0))
        .await?;
    Ok(see_other(&format!("/players/{}#bans", row.player_id)))
}

#[derive(Deserialize)]
struct SeparatePage {
    /// The other player's number, or their document number.
    other: Option<String>,
    reason: Option<String>,
}

async fn separate(
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<i64>,
    form: CsrfForm<SeparatePage>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let now = st.clock.now();
    let actor = services::staff::actor(&who.0.staff);
    let f = form.0;
    st.write(move |_, conn| {
        let other = f.other.as_deref().map(str::trim).unwrap_or("");
        let other_id = if other.is_empty() {
            None
        } else {
            match svc::find_typed(conn, other)? {
                Some(id) => Some(id),
                None => return Err(AppError::field("other_player_id", "err-player-unknown")),
            }
        };
        svc::separate(
            conn,
            now,
            &actor,
            id,
            &SeparationForm {
                other_player_id: other_id,
                reason: f.reason,
            },
        )
    })
    .await?;
    Ok(see_other(&format!("/players/{id}#separations")))
}

#[derive(Deserialize)]
struct Empty {}

async fn unseparate(
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<i64>,
    _f: CsrfForm<Empty>,
    q: web::Query<Back>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let now = st.clock.now();
    let actor = services::staff::actor(&who.0.staff);
    let row = st
        .write(move |_, conn| svc::remove_separation(conn, now, &actor, id))
        .await?;
    let back = q
        .from
        .filter(|f| *f == row.player_a || *f == row.player_b)
        .unwrap_or(row.player_a);
    Ok(see_other(&format!("/players/{back}#separations")))
}

#[derive(Deserialize)]
struct Back {
    from: Option<i64>,
}

// ---- the player's link (issue 5): shown as a QR code at the desk, sent again, revoked ----------

#[derive(Template)]
#[template(path = "players/link.html")]
struct LinkPage {
    c: Ctx,
    p: PlayerRow,
    url: String,
    qr: Option<String>,
    expires: chrono::DateTime<chrono::Utc>,
}

/// The player's link as a QR code on the desk's screen, for the player to scan. Making a link
/// is audited (`player.link_shown`): whoever holds it sees the player's page.
async fn link_page(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let c = ctx(&req, &st, &who.0).await?;
    let now = c.now;
    let actor = services::staff::actor(&who.0.staff);
    let day_ends = crate::notify::link::parse_hhmm(&st.config.gaming_day_ends).unwrap_or_default();
    let (p, token, expires) = st
        .write(move |st, conn| {
            let p = svc::get(conn, id)?;
            let room = services::room::get(conn)?;
            let token = crate::notify::link::issue_for(conn, &st.keys, id, now, room.tz, day_ends)?;
            let expires = crate::notify::link::gaming_day_end(now, room.tz, day_ends);
            crate::db::audit::record::<(), _>(
                conn,
                now,
                &actor,
                "player.link_shown",
                "player",
                Some(id),
                None,
                Some(&serde_json::json!({ "expires_at": expires })),
            )?;
            Ok((p, token, expires))
        })
        .await?;
    let url = crate::notify::link::url(&st.config.public_base(), &token);
    let qr = super::tablet::qr_data_url(&url);
    super::render(
        actix_web::http::StatusCode::OK,
        &LinkPage {
            c,
            p,
            url,
            qr,
            expires,
        },
    )
}

/// The floor sends the player's link again by the player's channels (SMS / e-mail), through
/// the outbox. Refused when the player has no channel to be reached by.
async fn link_send(
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<i64>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let now = st.clock.now();
    let actor = services::staff::actor(&who.0.staff);
    st.write(move |_, conn| {
        let p = svc::get(conn, id)?;
        if crate::notify::messages::channels(&p).is_empty() {
            return Err(AppError::Conflict(crate::domain::Problem::new(
                "err-link-no-channel",
            )));
        }
        let ids = crate::notify::tell(conn, now, id, crate::notify::Kind::Link, |_, _| Ok(()))?;
        crate::db::audit::record::<(), _>(
            conn,
            now,
            &actor,
            "player.link_sent",
            "player",
            Some(id),
            None,
            Some(&serde_json::json!({ "messages": ids })),
        )?;
        Ok(())
    })
    .await?;
    Ok(see_other(&format!("/players/{id}?link=sent")))
}

/// Every link of the player stops working at once (a lost phone, a link passed on).
async fn links_revoke(
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<i64>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let now = st.clock.now();
    let actor = services::staff::actor(&who.0.staff);
    st.write(move |_, conn| crate::notify::link::revoke_all(conn, now, &actor, id))
        .await?;
    Ok(see_other(&format!("/players/{id}?link=revoked")))
}
