//! Player registry pages: search, register (with the desk photo), view, edit, bans,
//! separations, history.

use super::{ctx, render, see_other, SearchQuery};
use crate::db::models::{AuditRow, ExclusionRow, GameRow, PlayerRow, SeparationRow};
use crate::domain::eligibility::Ineligible;
use crate::domain::player::{
    id_warnings, phone_region_of_zone, DocumentKind, Language, NotifyPref, PhoneRegion, Warning,
};
use crate::domain::Problem;
use crate::error::{AppError, AppResult};
use crate::services::photo::{self, Photo};
use crate::services::players::{self as svc, BanForm, PlayerForm, ReasonForm, SeparationForm};
use crate::services::Acting;
use crate::services::{self};
use crate::web::ctx::{Ctx, Errs, Vals};
use crate::web::extract::{check_csrf, ActingAs, CsrfForm, FloorStaff, RegistryReader};
use crate::web::pages::player_link::PrefForm;
use crate::web::state::AppState;
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
            // The photo, the text fields, and a photo kept from a refused form (its field).
            .total_limit(photo::MAX_UPLOAD_BYTES + photo::KEEP_MAX_FIELD + 512 * 1024)
            .memory_limit(photo::MAX_UPLOAD_BYTES + photo::KEEP_MAX_FIELD + 512 * 1024)
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
                    // field is refused, not the photo's size.
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
    .route("/players/{id}/lists", web::post().to(join_lists))
    .route("/players/{id}/seat-preference", web::post().to(set_pref))
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

fn form_page(c: Ctx, player_id: Option<i64>, has_photo: bool, v: Vals) -> FormPage {
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
struct NewQuery {
    /// Register a guest who joined from their phone (name and phone filled in).
    guest: Option<i64>,
}

async fn new_form(
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
    player_id: Option<i64>,
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
struct Parsed {
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
    // Parse the fields and the photo together so every problem is shown at once.
    let input = up.form().parse_in(region);
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

async fn create(
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

#[derive(Template)]
#[template(path = "players/show.html")]
struct ShowPage {
    c: Ctx,
    p: PlayerRow,
    age: i32,
    ineligible: Vec<Ineligible>,
    warnings: Vec<String>,
    bans: Vec<(ExclusionRow, bool)>,
    separations: Vec<(SeparationRow, PlayerRow)>,
    /// The player's history, each record with who did it in the reader's language.
    history: Vec<(AuditRow, String)>,
    /// What just happened to the player's link (`?link=sent|revoked`).
    link_notice: Option<String>,
    /// "Record saved" after a registration or an edit (`?saved=new|edit`), naming the player.
    saved_notice: Option<String>,
    /// The games whose lists the player can be added to from here (active games).
    games: Vec<GameRow>,
    /// The games whose lists the player is on now.
    on_lists: Vec<i64>,
    /// After "add to a list": the lists joined, named.
    joined_notice: Option<String>,
    /// After "add to a list": each list that refused, with why.
    refused: Vec<String>,
    /// The call-in box as it was sent (kept on a refusal).
    call_in: bool,
    /// The seat-preference form (as typed when refused, else as stored), its
    /// refusal, and whether it was just saved.
    pref: PrefForm,
    pref_error: Option<String>,
    pref_saved: bool,
    /// BSOP 16-22: the rulings that involved the player (shown to the floor; BSOP 22).
    rulings: Vec<crate::services::rulings::RulingLine>,
    /// PT-ONL 65-67: the player's cash-outs with their receipts, newest first.
    cash_outs: Vec<crate::services::table_side::CashOutReceipt>,
}

#[derive(Deserialize)]
struct ShowQuery {
    link: Option<String>,
    /// `saved` after the seat preference was saved.
    pref: Option<String>,
    saved: Option<String>,
    /// Game ids joined from this page (`3,5`).
    joined: Option<String>,
}

/// Who did a history record, in the reader's language. A player acting through their own
/// link is stored as `player #37 (own link)` (the audit trail is not rewritten): said here.
fn actor_label(c: &Ctx, h: &AuditRow) -> String {
    if h.actor_id.is_none() {
        if let Some(n) = h
            .actor_name
            .strip_prefix("player #")
            .and_then(|r| r.strip_suffix(" (own link)"))
            .filter(|n| n.chars().all(|d| d.is_ascii_digit()))
        {
            return c.t1("players-actor-own-link", "id", n);
        }
        if h.actor_name == "system" {
            return c.t("players-actor-system");
        }
    }
    h.actor_name.clone()
}

async fn show_page(
    req: &HttpRequest,
    st: &AppState,
    who: &crate::web::extract::Authed,
    id: i64,
) -> AppResult<ShowPage> {
    let c = ctx(req, st, who).await?;
    let now = c.now;
    let tz = c.tz;
    let (p, ineligible, bans, separations, history, (games, on_lists, pref, rulings, cash_outs)) =
        st.run(move |_, conn| {
            let p = svc::get(conn, id)?;
            let inel = svc::eligibility(conn, &p, now, tz)?;
            let bans = svc::exclusions_of(conn, id, now)?;
            let seps = svc::separations_of(conn, id)?;
            let hist = services::audit::history(conn, "player", id, 50)?;
            let games = services::games::list_games(conn)?
                .into_iter()
                .filter(|g| g.active)
                .collect::<Vec<_>>();
            let on = svc::lists_of(conn, id)?;
            let pref = services::seat_prefs::get(conn, id)?;
            let rulings = services::rulings::of_player(conn, id, 50)?;
            let cash_outs = services::table_side::cash_outs_of(conn, id, 50)?;
            Ok((
                p,
                inel,
                bans,
                seps,
                hist,
                (games, on, pref, rulings, cash_outs),
            ))
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
    let history = history
        .into_iter()
        .map(|h| {
            let who = actor_label(&c, &h);
            (h, who)
        })
        .collect();
    Ok(ShowPage {
        c,
        p,
        age,
        ineligible,
        warnings,
        bans,
        separations,
        history,
        link_notice: None,
        saved_notice: None,
        games,
        on_lists,
        joined_notice: None,
        refused: Vec::new(),
        call_in: false,
        pref: PrefForm::of(&pref),
        pref_error: None,
        pref_saved: false,
        rulings,
        cash_outs,
    })
}

/// The names of the games with these ids, in the order given, as one phrase ("PLO 2/5, NLH 1/2").
fn game_names(games: &[GameRow], ids: &[i64]) -> String {
    ids.iter()
        .filter_map(|id| games.iter().find(|g| g.id == *id))
        .map(|g| g.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

async fn show(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: RegistryReader,
    path: web::Path<i64>,
    q: web::Query<ShowQuery>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let q = q.into_inner();
    let mut page = show_page(&req, &st, &who.0, id).await?;
    page.link_notice = match q.link.as_deref() {
        Some("sent") => Some("players-link-sent"),
        Some("revoked") => Some("players-links-revoked"),
        _ => None,
    }
    .map(str::to_string);
    // A visible confirmation after saving, naming the player (the name is read
    // from the record, never from the address).
    page.saved_notice = match q.saved.as_deref() {
        Some("new") => Some("players-saved-new"),
        Some("edit") => Some("players-saved-edit"),
        _ => None,
    }
    .map(|k| page.c.t1(k, "name", &page.p.full_name));
    page.pref_saved = q.pref.as_deref() == Some("saved");
    if let Some(j) = q.joined.as_deref() {
        let ids: Vec<i64> = j
            .split(',')
            .filter_map(|x| x.trim().parse().ok())
            .take(50)
            .collect();
        let names = game_names(&page.games, &ids);
        if !names.is_empty() {
            page.joined_notice = Some(page.c.i18n.msg(
                page.c.lang,
                "players-lists-joined",
                &[("name", page.p.full_name.clone()), ("lists", names)],
            ));
        }
    }
    render(StatusCode::OK, &page)
}

/// `POST /players/{id}/seat-preference`: the floor states a player's seat
/// preference for them. Saved: back to the record; refused: the record again (422) with the
/// reason next to the form and what was typed.
async fn set_pref(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<i64>,
    form: web::Form<CsrfPrefForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let CsrfPrefForm { csrf, pref: typed } = form.into_inner();
    check_csrf(&req, csrf.as_deref())?;
    let refusal = match typed.parse() {
        Ok(pref) => {
            let acting = who.acting;
            match st
                .write(move |_, conn| {
                    let act = &acting.in_room(conn)?;
                    services::seat_prefs::set(conn, act, id, &pref)
                })
                .await
            {
                Ok(_) => return Ok(see_other(&format!("/players/{id}?pref=saved#seat-pref"))),
                Err(e @ AppError::Validation(_)) => e,
                Err(e) => return Err(e),
            }
        }
        Err(errs) => AppError::Validation(errs),
    };
    let mut page = show_page(&req, &st, &who.who.0, id).await?;
    page.pref_error = Some(crate::web::errors::refusal_text(
        &st.i18n,
        page.c.lang,
        &refusal,
    ));
    page.pref = typed;
    render(StatusCode::UNPROCESSABLE_ENTITY, &page)
}

/// The seat-preference form with the page's CSRF token.
#[derive(Deserialize)]
struct CsrfPrefForm {
    csrf: Option<String>,
    #[serde(flatten)]
    pref: PrefForm,
}

/// "Add to a list" on the player's record: the lists ticked, as the call-in box
/// says.
#[derive(Deserialize)]
struct JoinListsForm {
    /// Game ids, one per ticked box (`game=3&game=5`).
    #[serde(default)]
    game: Vec<String>,
    call_in: Option<String>,
}

/// Adds the player to every list ticked, each through the floor's own join (same rules, same
/// audit record and messages). A list that refuses is named with its reason and the others
/// are joined — what a floor manager expects at the desk. All joined: back to the record
/// with the lists named; any refused: the record with the refusals on top.
async fn join_lists(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<i64>,
    body: web::Bytes,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    // Repeated `game` keys: read as pairs (serde_urlencoded keeps only one into a Vec).
    let pairs: Vec<(String, String)> = serde_urlencoded::from_bytes(&body)
        .map_err(|e| AppError::BadRequest(Problem::new("err-form").arg("detail", e)))?;
    let field = |k: &str| pairs.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
    check_csrf(&req, field("csrf").as_deref())?;
    let f = JoinListsForm {
        game: pairs
            .iter()
            .filter(|(k, _)| k == "game")
            .map(|(_, v)| v.clone())
            .collect(),
        call_in: field("call_in"),
    };
    let mut ids: Vec<i64> = Vec::new();
    for g in &f.game {
        match g.trim().parse::<i64>() {
            Ok(n) if !ids.contains(&n) => ids.push(n),
            Ok(_) => {}
            Err(_) => return Err(AppError::field("game", "err-game-unknown")),
        }
    }
    if ids.is_empty() {
        return Err(AppError::field("game", "err-choose-a-list"));
    }
    let call_in = f.call_in.is_some();
    let acting = who.acting;
    let gids = ids.clone();
    let outcomes = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            svc::join_lists(conn, act, id, &gids, call_in)
        })
        .await?;
    let joined: Vec<i64> = outcomes
        .iter()
        .filter(|o| o.result.is_ok())
        .map(|o| o.game_id)
        .collect();
    if joined.len() == outcomes.len() {
        let list = joined
            .iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(",");
        return Ok(see_other(&format!("/players/{id}?joined={list}#lists")));
    }
    let mut page = show_page(&req, &st, &who.who.0, id).await?;
    page.call_in = call_in;
    let names: Vec<String> = outcomes
        .iter()
        .filter(|o| o.result.is_ok())
        .map(|o| o.game.clone())
        .collect();
    if !names.is_empty() {
        page.joined_notice = Some(page.c.i18n.msg(
            page.c.lang,
            "players-lists-joined",
            &[
                ("name", page.p.full_name.clone()),
                ("lists", names.join(", ")),
            ],
        ));
    }
    let mut status = StatusCode::OK;
    for o in &outcomes {
        if let Err(e) = &o.result {
            if names.is_empty() && status == StatusCode::OK {
                // Nothing was joined: the answer is the (first) refusal's.
                status = actix_web::ResponseError::status_code(e);
            }
            let why = crate::web::errors::refusal_text(&st.i18n, page.c.lang, e);
            page.refused.push(page.c.i18n.msg(
                page.c.lang,
                "players-list-refused",
                &[("list", o.game.clone()), ("reason", why)],
            ));
        }
    }
    render(status, &page)
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
    who: ActingAs<FloorStaff>,
    path: web::Path<i64>,
    form: CsrfForm<BanForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    st.write(move |_, conn| {
        let act = &acting.in_room(conn)?;
        svc::ban(conn, act, id, &form.0)
    })
    .await?;
    Ok(see_other(&format!("/players/{id}#bans")))
}

async fn lift(
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<i64>,
    form: CsrfForm<ReasonForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    let row = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            svc::lift_ban(conn, act, id, &form.0)
        })
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
    who: ActingAs<FloorStaff>,
    path: web::Path<i64>,
    form: CsrfForm<SeparatePage>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    let f = form.0;
    st.write(move |_, conn| {
        let act = &acting.in_room(conn)?;
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
            act,
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
    who: ActingAs<FloorStaff>,
    path: web::Path<i64>,
    _f: CsrfForm<Empty>,
    q: web::Query<Back>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    let row = st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            svc::remove_separation(conn, act, id)
        })
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

// ---- the player's link: shown as a QR code at the desk, sent again, revoked ----------

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
    let day_ends = st.config.room.gaming_day_ends;
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
    let url = crate::notify::link::url(&st.config.server.public_base, &token);
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
