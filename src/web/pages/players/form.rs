//! Registering a player and editing their record, with the photo taken at the desk.

use crate::domain::ids::PlayerId;
use crate::domain::player::{
    phone_region_of_zone, DocumentKind, Language, NotifyPref, PhoneRegion,
};
use crate::domain::FieldError;
use crate::error::{AppError, AppResult};
use crate::services::photo::{self, Photo};
use crate::services::players::{self as svc, PlayerForm};
use crate::services::Acting;
use crate::services::{self};
use crate::web::ctx::{Ctx, Errs, Vals};
use crate::web::extract::{check_csrf, ActingAs, FloorStaff};
use crate::web::pages::{ctx, render, see_other};
use crate::web::state::AppState;
use actix_multipart::form::bytes::Bytes as MpBytes;
use actix_multipart::form::text::Text;
use actix_multipart::form::MultipartForm;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use serde::Deserialize;

#[derive(Template)]
#[template(path = "players/form.html")]
pub(super) struct FormPage {
    c: Ctx,
    /// None: a new player.
    player_id: Option<PlayerId>,
    /// The guest (joined from their phone) this registration is for: their kept
    /// places become the new player's entries.
    guest: Option<i64>,
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
    /// A refused form's photo, kept: the hidden field's value (see `photo::keep`).
    kept_photo: Option<String>,
    /// Its thumbnail (a `data:` address).
    kept_thumb: Option<String>,
    /// The room's country calling code: a phone typed without one takes it.
    phone_code: Option<&'static str>,
}

fn form_page(c: Ctx, player_id: Option<PlayerId>, has_photo: bool, v: Vals) -> FormPage {
    let phone_code = phone_region_of_zone(c.tz.name()).map(|r| r.code);
    FormPage {
        c,
        player_id,
        guest: None,
        has_photo,
        v,
        errs: Errs::default(),
        problem: None,
        duplicate_of: None,
        doc_kinds: DocumentKind::ALL,
        languages: Language::ALL,
        notifies: NotifyPref::ALL,
        kept_photo: None,
        kept_thumb: None,
        phone_code,
    }
}

#[derive(Deserialize)]
pub(super) struct NewQuery {
    /// Register a guest who joined from their phone (name and phone filled in).
    guest: Option<i64>,
}

pub(super) async fn new_form(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    q: web::Query<NewQuery>,
) -> AppResult<HttpResponse> {
    let c = ctx(&req, &st, &who.0).await?;
    let mut v = Vals::of(&PlayerForm::default());
    v.0.insert("language".into(), c.lang.to_string());
    v.0.insert("notify".into(), "sms".into());
    let guest = match q.into_inner().guest {
        Some(id) => {
            let (name, phone) = st
                .run(move |_, conn| services::join::guest(conn, id))
                .await?;
            v.0.insert("full_name".into(), name);
            v.0.insert("phone".into(), phone);
            Some(id)
        }
        None => None,
    };
    let mut page = form_page(c, None, false, v);
    page.guest = guest;
    render(StatusCode::OK, &page)
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
    /// The photo a refused form kept (`photo::keep`), used when no new file is chosen.
    kept_photo: Option<Text<String>>,
    /// The guest this registration is for.
    guest: Option<Text<String>>,
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

    /// The text parts whose text is refused (`web::text`), by field.
    fn text_refusals(&self) -> Vec<FieldError> {
        fn t(f: &Option<Text<String>>) -> &str {
            f.as_ref().map_or("", |t| t.0.as_str())
        }
        crate::web::text::pair_refusals(&[
            ("csrf", t(&self.csrf)),
            ("full_name", t(&self.full_name)),
            ("date_of_birth", t(&self.date_of_birth)),
            ("doc_kind", t(&self.doc_kind)),
            ("doc_number", t(&self.doc_number)),
            ("doc_country", t(&self.doc_country)),
            ("doc_expiry", t(&self.doc_expiry)),
            ("phone", t(&self.phone)),
            ("email", t(&self.email)),
            ("language", t(&self.language)),
            ("notify", t(&self.notify)),
            ("alias", t(&self.alias)),
            ("version", t(&self.version)),
            ("kept_photo", t(&self.kept_photo)),
            ("guest", t(&self.guest)),
        ])
    }

    fn photo_bytes(&self) -> Option<&[u8]> {
        self.photo
            .as_ref()
            .map(|b| &b.data[..])
            .filter(|d| !d.is_empty())
    }
}

/// What a staff session's kept photos are bound to: the session (its row id) and the staff
/// member, so a kept photo never serves another session.
fn keep_session(who: &FloorStaff) -> String {
    format!("{}:{}", who.0.staff.id, who.0.claims.sid)
}

/// Shows the form again with what was typed and every message, changing nothing. A photo the
/// desk attached (or had kept) is kept again, with its thumbnail, so it is not attached twice.
// The form again with the typed values, the photo kept and the refusal.
#[allow(clippy::too_many_arguments)]
async fn form_again(
    st: &AppState,
    who: &FloorStaff,
    c: Ctx,
    player_id: Option<PlayerId>,
    form: &PlayerForm,
    photo: Option<(Photo, i64)>,
    err: AppError,
    guest: Option<i64>,
) -> AppResult<HttpResponse> {
    let has_photo = match player_id {
        Some(id) => st.run(move |_, conn| svc::get(conn, id)).await?.has_photo,
        None => false,
    };
    let mut page = form_page(c, player_id, has_photo, Vals::of(form));
    page.guest = guest;
    if let Some((ph, exp)) = photo {
        let key = st.keys.short_links;
        let session = keep_session(who);
        // Re-encoding the thumbnail is CPU work: on the blocking pool.
        let (field, thumb) = web::block(move || {
            let field = photo::keep(&key, &session, &ph, exp);
            let thumb = field.as_ref().and_then(|_| photo::thumbnail_data_url(&ph));
            (field, thumb)
        })
        .await?;
        page.kept_photo = field;
        page.kept_thumb = thumb;
    }
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

/// The fields and the photo of a posted form, each with its own outcome: a photo that is
/// fine is kept even when a field is refused, and the reverse.
pub(super) struct Parsed {
    input: Result<crate::domain::player::PlayerInput, Vec<crate::domain::FieldError>>,
    /// The photo to store with its keep-until time (a new file, else the kept one), or why
    /// it was refused.
    photo: Result<Option<(Photo, i64)>, AppError>,
    /// A kept photo that still holds while a new file was refused: kept again for the form.
    fallback: Option<(Photo, i64)>,
}

impl Parsed {
    /// Every problem at once (fields and photo), or what to save.
    fn outcome(
        self,
    ) -> (
        Option<(Photo, i64)>,
        Result<crate::domain::player::PlayerInput, AppError>,
    ) {
        match (self.input, self.photo) {
            (Ok(i), Ok(p)) => (p, Ok(i)),
            (Err(mut fs), Err(AppError::Validation(more))) => {
                fs.extend(more);
                (self.fallback, Err(AppError::Validation(fs)))
            }
            (Err(fs), Ok(p)) => (p, Err(AppError::Validation(fs))),
            (_, Err(e)) => (self.fallback, Err(e)),
        }
    }
}

fn parse_upload(
    up: &PlayerUpload,
    region: Option<&PhoneRegion>,
    key: &[u8; 32],
    session: &str,
    now: chrono::DateTime<chrono::Utc>,
) -> Parsed {
    // Parse the fields and the photo together so every problem is shown at once; a field
    // whose text is refused is said for that (and not parsed further).
    let refused = up.text_refusals();
    let input = match up.form().parse_in(region) {
        r if refused.is_empty() => r,
        Ok(_) => Err(refused),
        Err(fs) => {
            let others: Vec<FieldError> = fs
                .into_iter()
                .filter(|f| !refused.iter().any(|r| r.field == f.field))
                .collect();
            let mut all = refused;
            all.extend(others);
            Err(all)
        }
    };
    let kept = up
        .kept_photo
        .as_ref()
        .map(|t| t.0.trim())
        .filter(|t| !t.is_empty());
    let kept = kept.map(|field| photo::kept(key, session, field, now.timestamp()));
    let (photo, fallback) = match (up.photo_bytes(), kept) {
        // A new file replaces a kept photo; if the new file is refused, the kept one stays
        // kept for the form.
        (Some(bytes), kept) => (
            photo::process(bytes).map(|p| Some((p, now.timestamp() + photo::KEEP_SECS))),
            kept.and_then(Result::ok),
        ),
        (None, Some(kept)) => (kept.map(Some), None),
        (None, None) => (Ok(None), None),
    };
    Parsed {
        input,
        photo,
        fallback,
    }
}

pub(super) async fn create(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    up: MultipartForm<PlayerUpload>,
) -> AppResult<HttpResponse> {
    let acting = who.acting;
    check_csrf(&req, up.csrf.as_ref().map(|t| t.0.as_str()))?;
    let c = ctx(&req, &st, &who.who.0).await?;
    let form = up.form();
    let guest: Option<i64> = up.guest.as_ref().and_then(|t| t.0.trim().parse().ok());
    let up = up.into_inner();
    let (key, session, now, tz) = (st.keys.short_links, keep_session(&who.who), c.now, c.tz);
    // Decoding a photo is CPU work: on the blocking pool, not on the request thread.
    let (photo, input) = web::block(move || {
        let region = phone_region_of_zone(tz.name());
        parse_upload(&up, region.as_ref(), &key, &session, now).outcome()
    })
    .await?;
    let input = match input {
        Ok(i) => i,
        Err(e) => return form_again(&st, &who.who, c, None, &form, photo, e, guest).await,
    };
    let to_store = photo.as_ref().map(|(p, _)| p.clone());
    let result = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            let made = svc::create(conn, act, &input, to_store.as_ref())?;
            // A guest registered at the desk; their kept places are now
            // the player's entries, in the same transaction.
            if let Some(g) = guest {
                services::join::adopt_guest(conn, act, g, made.0.id)?;
            }
            Ok(made)
        })
        .await;
    match result {
        // The record says it was saved, naming the player.
        Ok((row, _)) => Ok(see_other(&format!("/players/{}?saved=new", row.id))),
        Err(e) => form_again(&st, &who.who, c, None, &form, photo, e, guest).await,
    }
}

pub(super) async fn edit_form(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<PlayerId>,
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

pub(super) async fn update(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    path: web::Path<PlayerId>,
    up: MultipartForm<PlayerUpload>,
) -> AppResult<HttpResponse> {
    check_csrf(&req, up.csrf.as_ref().map(|t| t.0.as_str()))?;
    let id = path.into_inner();
    let c = ctx(&req, &st, &who.0).await?;
    let form = up.form();
    let up = up.into_inner();
    let (key, session, now, tz) = (st.keys.short_links, keep_session(&who), c.now, c.tz);
    let (photo, input) = web::block(move || {
        let region = phone_region_of_zone(tz.name());
        parse_upload(&up, region.as_ref(), &key, &session, now).outcome()
    })
    .await?;
    let input = match input {
        Ok(i) => i,
        Err(e) => return form_again(&st, &who, c, Some(id), &form, photo, e, None).await,
    };
    let actor = services::staff::actor(&who.0.staff);
    let version = form.version;
    let to_store = photo.as_ref().map(|(p, _)| p.clone());
    let result = st
        .write(move |_, conn| {
            let act = Acting::new(now, actor).in_room(conn)?;
            svc::update(conn, &act, id, version, &input, to_store.as_ref())
        })
        .await;
    match result {
        Ok(_) => Ok(see_other(&format!("/players/{id}?saved=edit"))),
        Err(AppError::NotFound) => Err(AppError::NotFound),
        Err(e) => form_again(&st, &who, c, Some(id), &form, photo, e, None).await,
    }
}
