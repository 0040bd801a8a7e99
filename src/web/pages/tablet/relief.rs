//! Relief at the table: the relieving dealer picks their name on the table's tablet and types
//! their PIN. The push happens at that moment (the down, and the table's binding, move to
//! them), the tablet is signed in as them, and it says where the relieved dealer goes next.

use super::device::this_tablet;
use super::view::table_page_with;
use crate::auth::{self, verify_password, TokenKind};
use crate::domain::ids::TableId;
use crate::error::{AppError, AppResult};
use crate::services::dealers::{self, pin, AfterPush, PushOrder};
use crate::services::sessions::{self, EndReason, SessionKind};
use crate::services::{self, Acting};
use crate::web::extract::{CsrfForm, DealerStaff};
use crate::web::pages::floor_board::Flash;
use crate::web::pages::{see_other, session_cookie};
use crate::web::state::AppState;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;

#[derive(Deserialize)]
pub(super) struct ReliefForm {
    #[serde(default)]
    dealer_id: String,
    #[serde(default)]
    pin: String,
}

/// What the tablet says after the relief: who deals here now, and where the relieved dealer
/// goes (a break until, a table at, or free).
fn said(
    st: &AppState,
    req: &HttpRequest,
    done: &dealers::Pushed,
    next: Option<(i32, chrono::DateTime<chrono::Utc>)>,
    tz: chrono_tz::Tz,
) -> String {
    let lang = crate::web::ctx::request_lang(req);
    let hm = |t: chrono::DateTime<chrono::Utc>| t.with_timezone(&tz).format("%H:%M").to_string();
    let mut text = st
        .i18n
        .msg(lang, "relief-done", &[("dealer", done.incoming.clone())]);
    if let Some(out) = &done.outgoing {
        let then = match (done.outgoing_to, done.break_until, next) {
            (Some(AfterPush::Break), Some(u), _) => st.i18n.msg(
                lang,
                "relief-out-break",
                &[("dealer", out.clone()), ("time", hm(u))],
            ),
            (_, _, Some((table, at))) => st.i18n.msg(
                lang,
                "relief-out-table",
                &[
                    ("dealer", out.clone()),
                    ("table", table.to_string()),
                    ("time", hm(at)),
                ],
            ),
            _ => st
                .i18n
                .msg(lang, "relief-out-free", &[("dealer", out.clone())]),
        };
        text.push(' ');
        text.push_str(&then);
    }
    text
}

/// `POST /tablet/relieve`: the relieving dealer's name and PIN.
pub(super) async fn relieve(
    req: HttpRequest,
    st: web::Data<AppState>,
    who: DealerStaff,
    form: CsrfForm<ReliefForm>,
) -> AppResult<HttpResponse> {
    let tablet = this_tablet(&req, &st).await?;
    let f = form.0;
    let now = st.clock.now();
    let tablet_id = tablet.id;
    let refused = |e: AppError| {
        let (req, st, who, tablet) = (req.clone(), st.clone(), who.0.clone(), tablet.clone());
        async move {
            let lang = crate::web::ctx::request_lang(&req);
            let text = crate::web::errors::refusal_text(&st.i18n, lang, &e);
            let status = actix_web::ResponseError::status_code(&e);
            // A locked tablet (429) says how long the lock lasts.
            table_page_with(&req, &st, &who, tablet, status, Some(text))
                .await
                .map(|res| crate::web::errors::with_retry_after(res, &e))
        }
    };
    let Ok(dealer_id) = f.dealer_id.trim().parse::<i64>() else {
        return refused(AppError::field("dealer_id", "err-dealer-unknown")).await;
    };
    if let Err(e) = pin::check_format(f.pin.trim()) {
        return refused(e).await;
    }
    // Read: a locked tablet, and the PIN's hash (none: answered like a wrong PIN).
    let (lock, hash) = st
        .run(move |_, c| {
            Ok((
                pin::locked(c, tablet_id, now)?,
                pin::pin_hash(c, dealer_id)?,
            ))
        })
        .await?;
    if let Some(e) = lock {
        return refused(e).await;
    }
    let typed = f.pin.trim().to_string();
    // A name without a PIN costs the same hashing work: the answer does not tell them apart.
    let ok = web::block(move || match hash {
        Some(h) => verify_password(&typed, &h),
        None => {
            let _ = crate::auth::hash_password(&typed);
            false
        }
    })
    .await?;
    let from = crate::web::client::sign_in_from(&req, &st, SessionKind::Web);
    let hours = st.config.server.session_hours;
    let (old_staff, old_sid) = (who.0.staff.id, who.0.claims.sid.clone());
    let table_id: TableId = tablet.table_id;
    let r = st
        .write(move |_, c| {
            if !ok {
                return Ok(Err(pin::failed(c, tablet_id, now)?));
            }
            pin::passed(c, tablet_id)?;
            let d = dealers::dealer(c, dealer_id)?;
            let acting = Acting::new(now, services::staff::actor(&d));
            let act = acting.in_room(c)?;
            let order = PushOrder {
                table_id,
                dealer_id,
                outgoing_to: None,
            };
            let done = match dealers::push(c, &act, &order) {
                Ok(done) => done,
                Err(e @ (AppError::Conflict(_) | AppError::Validation(_))) => return Ok(Err(e)),
                Err(e) => return Err(e),
            };
            // Where the relieved dealer goes next, by the night as it stands now.
            let next = match done.outgoing_id {
                Some(o) if done.outgoing_to != Some(AfterPush::Break) => {
                    let n = dealers::night(c, &act.room.profile.push_rules(), now)?;
                    n.pushes
                        .iter()
                        .find(|p| p.incoming_id == o)
                        .map(|p| (p.table, p.at))
                }
                _ => None,
            };
            // The tablet is the relieving dealer's now: the session on it ends.
            match sessions::end(
                c,
                now,
                &act.actor,
                old_staff,
                &old_sid,
                EndReason::SignedOut,
            ) {
                Ok(()) | Err(AppError::NotFound) => {}
                Err(e) => return Err(e),
            }
            let s = sessions::open(
                c,
                now,
                &d,
                from.kind,
                hours,
                &from.user_agent,
                &from.address,
            )?;
            Ok(Ok((done, next, d, s, act.tz())))
        })
        .await?;
    let (done, next, d, s, tz) = match r {
        Ok(x) => x,
        Err(e) => return refused(e).await,
    };
    let (token, _) = auth::issue(
        &st.keys,
        d.id,
        d.token_version,
        TokenKind::Web,
        &s.id,
        now,
        hours,
    );
    let mut res = see_other("/tablet");
    res.add_cookie(&session_cookie(&st, token)).ok();
    Flash {
        text: said(&st, &req, &done, next, tz),
        undo: None,
        confirm: None,
    }
    .set_for(&mut res, "/tablet");
    Ok(res)
}
