//! The dealer tablet: pairing (a short code the floor enters), the dealer's sign-in on the
//! paired tablet, and the table view with seat calls pushed live (acknowledge, seat).
//! The floor's side: `/floor/tablets` lists paired tablets, pairs one from its code, revokes.

use super::{ctx, render, see_other};
use crate::auth::{self, TokenKind};
use crate::db::models::TabletRow;
use crate::domain::special_buttons::MacacaOutcome;
use crate::domain::states::CallState;
use crate::domain::states::DueState;
use crate::domain::table::TableState;
use crate::error::{AppError, AppResult};
use crate::services::table_side::TableSideView;
use crate::services::Act;
use crate::services::Acting;
use crate::services::{self, tablets};
use crate::web::ctx::Ctx;
use crate::web::extract::{ActingAs, CsrfForm, DealerStaff, FloorStaff};
use crate::web::state::AppState;
use actix_web::cookie::{time::Duration as CookieDuration, Cookie, SameSite};
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use serde::Deserialize;

pub const DEVICE_COOKIE: &str = "cr_device";
const PAIRING_COOKIE: &str = "cr_pairing";
/// A paired tablet stays paired for a year (or until revoked).
pub(crate) const DEVICE_HOURS: u32 = 24 * 365;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/tablet", web::get().to(home))
        .route("/tablet/pair/status", web::get().to(pair_status))
        .route("/tablet/view", web::get().to(view))
        .route("/tablet/stream", web::get().to(stream))
        .route("/tablet/calls/{id}/ack", web::post().to(ack))
        .route("/tablet/calls/{id}/seat", web::post().to(seat))
        .route("/floor/tablets", web::get().to(floor_tablets))
        .route("/floor/tablets/pair", web::post().to(floor_pair))
        .route("/floor/tablets/{id}/revoke", web::post().to(floor_revoke))
        .route(
            "/floor/kiosks/{id}/revoke",
            web::post().to(floor_revoke_kiosk),
        )
        .route("/floor/tablets/message", web::post().to(floor_message))
        .route("/tablet/messages/{id}/seen", web::post().to(message_seen));
}

pub(crate) fn device_cookie(st: &AppState, token: String) -> Cookie<'static> {
    Cookie::build(DEVICE_COOKIE, token)
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(st.config.server.secure_cookies)
        .max_age(CookieDuration::hours(DEVICE_HOURS as i64))
        .finish()
}

/// The tablet this browser is, if its device token is valid and the tablet still paired.
async fn device(req: &HttpRequest, st: &AppState) -> AppResult<Option<TabletRow>> {
    let Some(c) = req.cookie(DEVICE_COOKIE) else {
        return Ok(None);
    };
    let Ok(claims) = auth::verify(&st.keys, c.value(), TokenKind::Device, st.clock.now()) else {
        return Ok(None);
    };
    st.run(move |_, conn| tablets::active(conn, claims.sub, claims.ver))
        .await
}

/// The tablet, or the refusal for a browser that is not (or no longer) a paired tablet.
pub(super) async fn this_tablet(req: &HttpRequest, st: &AppState) -> AppResult<TabletRow> {
    device(req, st)
        .await?
        .ok_or_else(|| AppError::Forbidden(crate::domain::Problem::new("err-tablet-not-paired")))
}

#[derive(Template)]
#[template(path = "tablet/pair.html")]
struct PairPage {
    c: Ctx,
    code: String,
    expires_at: chrono::NaiveDateTime,
    /// The floor's pairing form with this code filled in, and its QR code.
    link: String,
    qr: Option<String>,
}

#[derive(Template)]
#[template(path = "tablet/table.html")]
struct TablePage {
    c: Ctx,
    tablet: TabletRow,
    v: TableSideView,
    since: i64,
    problem: Option<String>,
    /// Right after a cash-out (`?receipt=<seating>`): its receipt (PT-ONL 65-67).
    receipt: Option<services::table_side::CashOutReceipt>,
}

#[derive(Template)]
#[template(path = "tablet/view.html")]
struct ViewFragment {
    c: Ctx,
    v: TableSideView,
}

/// The table as the tablet shows it (seats with chips, absence and buttons; calls with the
/// buy-in required; open requests to the floor).
fn load_view(
    conn: &mut crate::db::DbConn,
    now: chrono::DateTime<chrono::Utc>,
    table_id: i64,
) -> AppResult<TableSideView> {
    let room = services::room::get(conn)?;
    services::table_side::view(conn, now, &room.profile, table_id)
}

/// `/tablet`: unpaired → the pairing code; paired but nobody signed in → the sign-in page
/// (back here after); paired and signed in (dealer, floor, admin) → the table.
async fn home(req: HttpRequest, st: web::Data<AppState>) -> AppResult<HttpResponse> {
    // A device paired as the desk kiosk shows the kiosk (a revoked one falls
    // through to the pairing code, as a revoked tablet does).
    if let super::kiosk::KioskDevice::Paired(..) = super::kiosk::kiosk_device(&req, &st).await? {
        return Ok(see_other("/kiosk"));
    }
    let Some(tablet) = device(&req, &st).await? else {
        return pairing_page(&req, &st).await;
    };
    let who = match crate::web::extract::authenticate(&req).await {
        Ok(a) if DealerStaff::ROLES.contains(&a.staff.role.as_str()) => a,
        Ok(_) => {
            return Err(AppError::Forbidden(crate::domain::Problem::new(
                "err-forbidden",
            )))
        }
        Err(_) => return Ok(see_other("/login?next=/tablet")),
    };
    // After a cash-out: its receipt, if it was at this tablet's table.
    let receipt_of: Option<i64> =
        serde_urlencoded::from_str::<Vec<(String, String)>>(req.query_string())
            .ok()
            .and_then(|q| q.into_iter().find(|(k, _)| k == "receipt"))
            .and_then(|(_, v)| v.trim().parse().ok());
    let receipt = match receipt_of {
        Some(id) => {
            let table_id = tablet.table_id;
            st.run(
                move |_, conn| match services::table_side::cash_out_receipt(conn, id) {
                    Ok(r) if r.table_id == table_id => Ok(Some(r)),
                    Ok(_) | Err(AppError::NotFound) => Ok(None),
                    Err(e) => Err(e),
                },
            )
            .await?
        }
        None => None,
    };
    table_page_full(&req, &st, &who, tablet, StatusCode::OK, None, receipt).await
}

pub(super) async fn table_page_with(
    req: &HttpRequest,
    st: &AppState,
    who: &crate::web::extract::Authed,
    tablet: TabletRow,
    status: StatusCode,
    problem: Option<String>,
) -> AppResult<HttpResponse> {
    table_page_full(req, st, who, tablet, status, problem, None).await
}

async fn table_page_full(
    req: &HttpRequest,
    st: &AppState,
    who: &crate::web::extract::Authed,
    tablet: TabletRow,
    status: StatusCode,
    problem: Option<String>,
    receipt: Option<services::table_side::CashOutReceipt>,
) -> AppResult<HttpResponse> {
    let c = ctx(req, st, who).await?;
    let now = c.now;
    let t = tablet.clone();
    let (v, since) = st
        .run(move |_, conn| {
            let since = crate::web::stream::last_seq(conn)?;
            Ok((load_view(conn, now, t.table_id)?, since))
        })
        .await?;
    let t = tablet.clone();
    // The floor's list shows when each tablet was last seen.
    let _ = st.write(move |_, conn| tablets::seen(conn, now, &t)).await;
    render(
        status,
        &TablePage {
            c,
            tablet,
            v,
            since,
            problem,
            receipt,
        },
    )
}

/// A QR code as an `<img src>` (SVG, base64 data URL; the page's CSP allows `data:` images).
pub(super) fn qr_data_url(text: &str) -> Option<String> {
    use base64::Engine;
    let code = qrcode::QrCode::new(text.as_bytes()).ok()?;
    let svg = code
        .render::<qrcode::render::svg::Color>()
        .min_dimensions(240, 240)
        .quiet_zone(true)
        .build();
    Some(format!(
        "data:image/svg+xml;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(svg)
    ))
}

async fn pairing_page(req: &HttpRequest, st: &AppState) -> AppResult<HttpResponse> {
    let now = st.clock.now();
    // The same browser keeps its code while it is valid (a reload does not change it).
    let kept = match req.cookie(PAIRING_COOKIE).and_then(|c| {
        c.value()
            .split_once(':')
            .map(|(a, b)| (a.to_string(), b.to_string()))
    }) {
        Some((code, secret)) => st
            .run(move |_, conn| tablets::pairing(conn, now, &code, &secret))
            .await?
            .filter(|p| p.tablet_id.is_none() && p.kiosk_id.is_none())
            .map(|p| (p, None)),
        None => None,
    };
    let (p, secret) = match kept {
        Some(k) => k,
        None => {
            crate::web::limits::pairing_code(st, req)?;
            let (p, secret) = st
                .write(move |_, conn| tablets::start_pairing(conn, now))
                .await?;
            (p, Some(secret))
        }
    };
    // No form on this page (the browser only shows the code and polls): no CSRF token.
    let room = st.run(|_, c| services::room::get(c)).await?;
    let c = Ctx::new(req, st.i18n.clone(), &room, None, String::new(), now);
    // The QR code opens the floor's pairing form with this code filled in (scanned by a floor
    // manager's phone or read aloud as the code above it).
    let info = req.connection_info();
    let link = format!(
        "{}://{}/floor/tablets?code={}",
        info.scheme(),
        info.host(),
        p.code
    );
    drop(info);
    let qr = qr_data_url(&link);
    let mut res = render(
        StatusCode::OK,
        &PairPage {
            c,
            code: tablets::display_code(&p.code),
            expires_at: p.expires_at,
            qr,
            link,
        },
    )?;
    if let Some(secret) = secret {
        let cookie = Cookie::build(PAIRING_COOKIE, format!("{}:{}", p.code, secret))
            .path("/tablet")
            .http_only(true)
            .same_site(SameSite::Strict)
            .secure(st.config.server.secure_cookies)
            .max_age(CookieDuration::minutes(tablets::CODE_VALID_MIN))
            .finish();
        res.add_cookie(&cookie).ok();
    }
    res.headers_mut().insert(
        actix_web::http::header::CACHE_CONTROL,
        actix_web::http::header::HeaderValue::from_static("no-store"),
    );
    Ok(res)
}

/// Polled by the pairing page: 204 while waiting; once the floor has entered the code, the
/// device token is set and the page goes to `/tablet` (htmx `HX-Redirect`); an expired code
/// starts over.
async fn pair_status(req: HttpRequest, st: web::Data<AppState>) -> AppResult<HttpResponse> {
    let now = st.clock.now();
    let Some((code, secret)) = req.cookie(PAIRING_COOKIE).and_then(|c| {
        c.value()
            .split_once(':')
            .map(|(a, b)| (a.to_string(), b.to_string()))
    }) else {
        return Ok(HttpResponse::Ok()
            .insert_header(("HX-Redirect", "/tablet"))
            .finish());
    };
    let r = st
        .write(move |_, conn| tablets::collect(conn, now, &code, &secret, true))
        .await;
    match r {
        Ok(None) => Ok(HttpResponse::NoContent()
            .insert_header(("Cache-Control", "no-store"))
            .finish()),
        Ok(Some(paired)) => {
            // A dealer tablet or the desk kiosk: each its own kind of token, in
            // the same device cookie (a device is one or the other).
            let (id, ver, kind, to) = match paired {
                tablets::Paired::Tablet(t) => (t.id, t.token_version, TokenKind::Device, "/tablet"),
                tablets::Paired::Kiosk(k) => (k.id, k.token_version, TokenKind::Kiosk, "/kiosk"),
            };
            let (token, _) = auth::issue(&st.keys, id, ver, kind, "", now, DEVICE_HOURS);
            let mut res = HttpResponse::Ok()
                .insert_header(("HX-Redirect", to))
                .insert_header(("Cache-Control", "no-store"))
                .finish();
            res.add_cookie(&device_cookie(&st, token)).ok();
            let mut gone = Cookie::build(PAIRING_COOKIE, "").path("/tablet").finish();
            gone.make_removal();
            res.add_cookie(&gone).ok();
            Ok(res)
        }
        // Expired or used: a new code.
        Err(AppError::Conflict(_)) => {
            let mut res = HttpResponse::Ok()
                .insert_header(("HX-Redirect", "/tablet"))
                .finish();
            let mut gone = Cookie::build(PAIRING_COOKIE, "").path("/tablet").finish();
            gone.make_removal();
            res.add_cookie(&gone).ok();
            Ok(res)
        }
        Err(e) => Err(e),
    }
}

async fn view(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
) -> AppResult<HttpResponse> {
    let tablet = this_tablet(&req, &st).await?;
    let c = ctx(&req, &st, &who.0).await?;
    let tid = tablet.table_id;
    let now = c.now;
    let v = st.run(move |_, conn| load_view(conn, now, tid)).await?;
    render(StatusCode::OK, &ViewFragment { c, v })
}

/// The tablet's live stream: the events of its table only; `Last-Event-ID` resumes after a
/// drop or a server restart. It ends when the tablet is revoked or the dealer's session ends.
async fn stream(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
) -> AppResult<HttpResponse> {
    let tablet = this_tablet(&req, &st).await?;
    let (staff_id, ver) = (who.0.staff.id, who.0.claims.ver);
    let start = match crate::web::stream::resume_point(&req) {
        Some(n) => n,
        None => st.run(|_, c| crate::web::stream::last_seq(c)).await?,
    };
    let (table_id, tablet_id, tablet_ver) = (tablet.table_id, tablet.id, tablet.token_version);
    Ok(crate::web::stream::event_stream(
        st.get_ref().clone(),
        start,
        crate::push::Feed::Table(table_id),
        move |st| {
            let Ok(mut c) = st.db.conn() else {
                return false;
            };
            let tablet_ok = tablets::active(&mut c, tablet_id, tablet_ver)
                .ok()
                .flatten()
                .is_some();
            let staff_ok = services::staff::get(&mut c, staff_id).is_ok_and(|s| {
                s.active && s.token_version == ver && DealerStaff::ROLES.contains(&s.role.as_str())
            });
            tablet_ok && staff_ok
        },
    ))
}

#[derive(Deserialize)]
struct Empty {}

/// Runs a tablet action for this tablet's table, then back to the table (or the table
/// with the refusal on top: nothing changed). A tap that arrives later than the room allows
/// after it was made (`tapped_at`) is refused; a tap from the tablet's queue is answered in
/// JSON (`pages::tap`).
pub(super) async fn tablet_act(
    req: &HttpRequest,
    st: &AppState,
    who: &DealerStaff,
    f: impl FnOnce(&mut crate::db::DbConn, &TabletRow, &Act) -> AppResult<()> + Send + 'static,
) -> AppResult<HttpResponse> {
    let tablet = this_tablet(req, st).await?;
    let acting = Acting::new(st.clock.now(), services::staff::actor(&who.0.staff));
    let t = tablet.clone();
    let tapped_at = super::tap::tapped_at(req);
    let r = st
        .write(move |_, conn| {
            let act = acting.in_room(conn)?;
            services::table_side::when_tapped(&act.room, tapped_at.as_deref(), act.now)?;
            f(conn, &t, &act)
        })
        .await;
    let queued = super::tap::queued(req);
    match r {
        Ok(()) if queued => Ok(super::tap::applied("/tablet")),
        Ok(()) => Ok(see_other("/tablet")),
        Err(e @ (AppError::Conflict(_) | AppError::Validation(_) | AppError::NotFound)) => {
            let message =
                crate::web::errors::refusal_text(&st.i18n, crate::web::ctx::request_lang(req), &e);
            if queued {
                return Ok(super::tap::refused(
                    actix_web::ResponseError::status_code(&e),
                    &message,
                ));
            }
            table_page_with(
                req,
                st,
                &who.0,
                tablet,
                actix_web::ResponseError::status_code(&e),
                Some(message),
            )
            .await
        }
        Err(e) => Err(e),
    }
}

/// The dealer acknowledges a seat call for this table (the floor sees it).
async fn ack(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    path: web::Path<i64>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    tablet_act(&req, &st, &who, move |conn, t, act| {
        services::floor::acknowledge_call(conn, act, id, Some(t.table_id)).map(|_| ())
    })
    .await
}

#[derive(Deserialize, Default)]
struct SeatForm {
    #[serde(default)]
    amount: String,
}

/// The called player arrived at the table: the dealer seats them (BSOP 44) with their buy-in,
/// checked against what the player must bring (BSOP 26, 37; PT-2007 28); a move brings the
/// player's stack.
async fn seat(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    path: web::Path<i64>,
    form: CsrfForm<SeatForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let amount = form.0.amount;
    tablet_act(&req, &st, &who, move |conn, t, act| {
        let amount = if amount.trim().is_empty() {
            None
        } else {
            Some(super::table_side::money_field(
                "amount",
                &amount,
                &act.room.currency,
            )?)
        };
        services::table_side::seat_with_buyin(conn, act, id, amount, Some(t.table_id)).map(|_| ())
    })
    .await
}

// ---- the floor's side ---------------------------------------------------------------------

#[derive(Template)]
#[template(path = "floor/tablets.html")]
struct FloorTablets {
    c: Ctx,
    tablets: Vec<(TabletRow, i32)>,
    /// The desk kiosks still paired.
    kiosks: Vec<crate::db::models::KioskRow>,
    tables: Vec<(i64, i32)>,
    messages: Vec<services::table_side::MessageLine>,
    problem: Option<String>,
    f: TabletsForms,
}

/// What the page's two forms show again after a refusal, and what just happened.
#[derive(Default)]
struct TabletsForms {
    code: String,
    label: String,
    /// The pairing form's choice as sent (a table's id, or the desk kiosk), kept on a refusal.
    choice: Option<String>,
    paired: Option<String>,
    msg_table: Option<i64>,
    msg_body: String,
    /// The table a message was just sent to.
    sent_to: Option<i32>,
}

impl FloorTablets {
    /// Whether the pairing form shows `value` (a table's id, or the desk kiosk) chosen again.
    fn chosen(&self, value: &str) -> bool {
        self.f.choice.as_deref() == Some(value)
    }

    /// Tables with a paired tablet (a message can reach them).
    fn with_tablet(&self) -> Vec<(i64, i32)> {
        let mut v: Vec<(i64, i32)> = self.tablets.iter().map(|(t, n)| (t.table_id, *n)).collect();
        v.sort_by_key(|(_, n)| *n);
        v.dedup();
        v
    }
}

async fn floor_tablets_page(
    req: &HttpRequest,
    st: &AppState,
    who: &FloorStaff,
    status: StatusCode,
    problem: Option<String>,
    f: TabletsForms,
) -> AppResult<HttpResponse> {
    let c = ctx(req, st, &who.0).await?;
    let (list, tables, messages) = st
        .run(|_, conn| {
            let tables = services::lookups::tables(conn, true)?;
            Ok((
                (tablets::list(conn)?, services::kiosks::list(conn)?),
                tables,
                services::table_side::messages(conn, None, 20)?,
            ))
        })
        .await?;
    let (list, kiosks) = list;
    render(
        status,
        &FloorTablets {
            c,
            tablets: list,
            kiosks,
            tables,
            messages,
            problem,
            f,
        },
    )
}

#[derive(Deserialize)]
struct TabletsQuery {
    /// From the QR code on a tablet's pairing screen: the code, filled in.
    code: Option<String>,
}

async fn floor_tablets(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: FloorStaff,
    q: web::Query<TabletsQuery>,
) -> AppResult<HttpResponse> {
    let code: String = q
        .into_inner()
        .code
        .unwrap_or_default()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .take(12)
        .collect();
    floor_tablets_page(
        &req,
        &st,
        &who,
        StatusCode::OK,
        None,
        TabletsForms {
            code,
            ..Default::default()
        },
    )
    .await
}

fn problem_of(req: &HttpRequest, st: &AppState, e: &AppError) -> String {
    crate::web::errors::refusal_text(&st.i18n, crate::web::ctx::request_lang(req), e)
}

/// The pairing form's "table" value that pairs the device as the desk kiosk.
const KIOSK_CHOICE: &str = "kiosk";

#[derive(Deserialize)]
struct PairForm {
    code: String,
    table_id: Option<String>,
    #[serde(default)]
    label: String,
}

async fn floor_pair(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    form: CsrfForm<PairForm>,
) -> AppResult<HttpResponse> {
    let f = form.0;
    let acting = who.acting;
    let (code, label) = (f.code.clone(), f.label.clone());
    let table_id = f
        .table_id
        .as_deref()
        .and_then(|v| v.trim().parse::<i64>().ok());
    // "desk kiosk" is a choice of the table list (no table: walk-ins join there).
    let as_kiosk = f.table_id.as_deref().map(str::trim) == Some(KIOSK_CHOICE);
    let r = match (as_kiosk, table_id) {
        (true, _) => {
            st.write(move |_, conn| {
                let act = &acting.in_room(conn)?;
                services::kiosks::pair(conn, act, &code, &label).map(|k| k.label)
            })
            .await
        }
        (false, None) => Err(AppError::field("table_id", "err-table-unknown")),
        (false, Some(tid)) => {
            st.write(move |_, conn| {
                let act = &acting.in_room(conn)?;
                tablets::pair(conn, act, &code, tid, &label).map(|t| t.label)
            })
            .await
        }
    };
    match r {
        Ok(label) => {
            floor_tablets_page(
                &req,
                &st,
                &who.who,
                StatusCode::OK,
                None,
                TabletsForms {
                    paired: Some(label),
                    ..Default::default()
                },
            )
            .await
        }
        Err(e @ (AppError::Conflict(_) | AppError::Validation(_) | AppError::NotFound)) => {
            let problem = problem_of(&req, &st, &e);
            floor_tablets_page(
                &req,
                &st,
                &who.who,
                actix_web::ResponseError::status_code(&e),
                Some(problem),
                TabletsForms {
                    code: f.code,
                    label: f.label,
                    choice: f.table_id.map(|v| v.trim().to_string()),
                    ..Default::default()
                },
            )
            .await
        }
        Err(e) => Err(e),
    }
}

#[derive(Deserialize)]
struct MessageForm {
    table_id: Option<String>,
    #[serde(default)]
    body: String,
}

/// The floor sends a message to a table's tablet (shown there until the dealer marks it seen).
async fn floor_message(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    form: CsrfForm<MessageForm>,
) -> AppResult<HttpResponse> {
    let f = form.0;
    let acting = who.acting;
    let table_id = f
        .table_id
        .as_deref()
        .and_then(|v| v.trim().parse::<i64>().ok());
    let body = f.body.clone();
    let r = match table_id {
        None => Err(AppError::field("table_id", "err-table-unknown")),
        Some(tid) => {
            st.write(move |_, conn| {
                let act = &acting.in_room(conn)?;
                services::table_side::send_message(conn, act, tid, &body)?;
                Ok(services::games::get_table(conn, tid)?.number)
            })
            .await
        }
    };
    match r {
        Ok(n) => {
            floor_tablets_page(
                &req,
                &st,
                &who.who,
                StatusCode::OK,
                None,
                TabletsForms {
                    sent_to: Some(n),
                    msg_table: table_id,
                    ..Default::default()
                },
            )
            .await
        }
        Err(e @ (AppError::Conflict(_) | AppError::Validation(_) | AppError::NotFound)) => {
            let problem = problem_of(&req, &st, &e);
            let status = actix_web::ResponseError::status_code(&e);
            floor_tablets_page(
                &req,
                &st,
                &who.who,
                status,
                Some(problem),
                TabletsForms {
                    msg_table: table_id,
                    msg_body: f.body,
                    ..Default::default()
                },
            )
            .await
        }
        Err(e) => Err(e),
    }
}

/// The dealer marks a message from the floor seen.
async fn message_seen(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    path: web::Path<i64>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    tablet_act(&req, &st, &who, move |conn, t, act| {
        services::table_side::message_seen(conn, act, id, Some(t.table_id)).map(|_| ())
    })
    .await
}

/// The floor revokes a desk kiosk (audited); it shows the pairing code again.
async fn floor_revoke_kiosk(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<i64>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    match st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            services::kiosks::revoke(conn, act, id)
        })
        .await
    {
        Ok(_) => Ok(see_other("/floor/tablets")),
        Err(e @ (AppError::Conflict(_) | AppError::NotFound)) => {
            let problem = problem_of(&req, &st, &e);
            floor_tablets_page(
                &req,
                &st,
                &who.who,
                actix_web::ResponseError::status_code(&e),
                Some(problem),
                TabletsForms::default(),
            )
            .await
        }
        Err(e) => Err(e),
    }
}

async fn floor_revoke(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: ActingAs<FloorStaff>,
    path: web::Path<i64>,
    _f: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let acting = who.acting;
    match st
        .write(move |_, conn| {
            let act = &acting.in_room(conn)?;
            tablets::revoke(conn, act, id)
        })
        .await
    {
        Ok(_) => Ok(see_other("/floor/tablets")),
        Err(e @ (AppError::Conflict(_) | AppError::NotFound)) => {
            let problem = problem_of(&req, &st, &e);
            floor_tablets_page(
                &req,
                &st,
                &who.who,
                actix_web::ResponseError::status_code(&e),
                Some(problem),
                TabletsForms::default(),
            )
            .await
        }
        Err(e) => Err(e),
    }
}
