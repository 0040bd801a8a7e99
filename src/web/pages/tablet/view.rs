//! The table view on a paired tablet: the page, the part that refreshes, and the live stream.

use super::device::{device, this_tablet};
use super::pairing::pairing_page;
use crate::db::models::TabletRow;
use crate::domain::ids::SeatingId;
use crate::domain::ids::TableId;
use crate::domain::special_buttons::MacacaOutcome;
use crate::domain::states::CallState;
use crate::domain::states::DueState;
use crate::domain::table::TableState;
use crate::error::{AppError, AppResult};
use crate::services::table_side::TableSideView;
use crate::services::{self, tablets};
use crate::web::ctx::Ctx;
use crate::web::extract::DealerStaff;
use crate::web::pages::{ctx, render, see_other};
use crate::web::state::AppState;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;

#[derive(Template)]
#[template(path = "tablet/table.html")]
pub(super) struct TablePage {
    c: Ctx,
    tablet: TabletRow,
    v: TableSideView,
    since: i64,
    problem: Option<String>,
    /// Right after a cash-out (`?receipt=<seating>`): its receipt (PT-ONL 65-67).
    receipt: Option<services::table_side::CashOutReceipt>,
    /// Who may take this table over (free dealers, the proposed one first) and when.
    relief: Relief,
    /// What the last relief did (who deals here now, where the relieved dealer goes).
    done: Option<crate::web::pages::floor_board::Flash>,
}

/// The relief form's choices: the dealers free now, the night's proposal for this table.
pub(super) struct Relief {
    pub(super) free: Vec<(i64, String)>,
    pub(super) proposed: Option<(i64, String, chrono::DateTime<chrono::Utc>)>,
}

impl Relief {
    fn of(night: &services::dealers::Night, table: TableId) -> Relief {
        let proposed = night
            .pushes
            .iter()
            .find(|p| p.table_id == table)
            .map(|p| (p.incoming_id, p.incoming.clone(), p.at));
        let mut free: Vec<(i64, String)> = night
            .free()
            .into_iter()
            .map(|d| (d.id, d.name.clone()))
            .collect();
        if let Some((id, _, _)) = &proposed {
            if let Some(i) = free.iter().position(|(f, _)| f == id) {
                let first = free.remove(i);
                free.insert(0, first);
            }
        }
        Relief { free, proposed }
    }
}

#[derive(Template)]
#[template(path = "tablet/view.html")]
pub(super) struct ViewFragment {
    c: Ctx,
    v: TableSideView,
}

/// The table as the tablet shows it (seats with chips, absence and buttons; calls with the
/// buy-in required; open requests to the floor).
fn load_view(
    conn: &mut crate::db::DbConn,
    now: chrono::DateTime<chrono::Utc>,
    table_id: TableId,
) -> AppResult<TableSideView> {
    let room = services::room::get(conn)?;
    services::table_side::view(conn, now, &room.profile, table_id)
}

/// `/tablet`: unpaired → the pairing code; paired but nobody signed in → the sign-in page
/// (back here after); paired and signed in (dealer, floor, admin) → the table.
pub(super) async fn home(req: HttpRequest, st: web::Data<AppState>) -> AppResult<HttpResponse> {
    // A device paired as the desk kiosk shows the kiosk (a revoked one falls
    // through to the pairing code, as a revoked tablet does).
    if let crate::web::pages::kiosk::KioskDevice::Paired(..) =
        crate::web::pages::kiosk::kiosk_device(&req, &st).await?
    {
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
            st.run(move |_, conn| {
                match services::table_side::cash_out_receipt(conn, SeatingId(id)) {
                    Ok(r) if r.table_id == table_id => Ok(Some(r)),
                    Ok(_) | Err(AppError::NotFound) => Ok(None),
                    Err(e) => Err(e),
                }
            })
            .await?
        }
        None => None,
    };
    table_page_full(&req, &st, &who, tablet, StatusCode::OK, None, receipt).await
}

pub(crate) async fn table_page_with(
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
    let (v, since, relief) = st
        .run(move |_, conn| {
            let since = crate::web::stream::last_seq(conn)?;
            let night = services::dealers::tonight(conn, now)?;
            Ok((
                load_view(conn, now, t.table_id)?,
                since,
                Relief::of(&night, t.table_id),
            ))
        })
        .await?;
    let done = crate::web::pages::floor_board::Flash::read(req);
    let t = tablet.clone();
    // The floor's list shows when each tablet was last seen.
    let _ = st.write(move |_, conn| tablets::seen(conn, now, &t)).await;
    let mut res = render(
        status,
        &TablePage {
            c,
            tablet,
            v,
            since,
            problem,
            receipt,
            relief,
            done: done.clone(),
        },
    )?;
    if done.is_some() {
        crate::web::pages::floor_board::Flash::clear_for(&mut res, "/tablet");
    }
    Ok(res)
}

pub(super) async fn view(
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
pub(super) async fn stream(
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
        crate::push::Feed::Table(table_id.get()),
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
