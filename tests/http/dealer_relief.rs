//! Relief at the table: the relieving dealer picks their name on the table's tablet and types
//! their PIN; the down moves to them, the table's binding follows, the tablet is signed in as
//! them and says where the relieved dealer goes. Wrong PINs say only that they are wrong,
//! and the fifth in a row stops the tablet taking PINs for a while. A dealer's own page shows
//! their state and next push, and sets their PIN.

use crate::support::*;
use crate::tablets::{paired_room, Tablet};
use actix_web::test::TestRequest;
use chrono::Duration;
use diesel::prelude::*;
use serde_json::json;

async fn at_tablet(
    app: &TestApp,
    s: &WebSession,
    t: &Tablet,
    uri: &str,
    fields: &[(&str, &str)],
) -> Resp {
    let mut all: Vec<(&str, &str)> = vec![("csrf", s.csrf.as_str())];
    all.extend_from_slice(fields);
    app.call(
        TestRequest::post()
            .uri(uri)
            .cookie(s.c())
            .cookie(t.c())
            .insert_header(("Accept-Language", "en"))
            .set_form(all)
            .to_request(),
    )
    .await
}

async fn tablet_page(app: &TestApp, s: &WebSession, t: &Tablet) -> Resp {
    app.call(
        TestRequest::get()
            .uri("/tablet")
            .cookie(s.c())
            .cookie(t.c())
            .to_request(),
    )
    .await
}

fn id_of(app: &TestApp, username: &str) -> i64 {
    use cardroom::db::schema::staff::dsl as st;
    app.with_conn(|c| {
        st::staff
            .filter(st::username.eq(username))
            .select(st::id)
            .first(c)
            .unwrap()
    })
}

fn open_shift_at(app: &TestApp, table: i64) -> Option<i64> {
    use cardroom::db::schema::dealer_shifts::dsl as d;
    app.with_conn(|c| {
        d::dealer_shifts
            .filter(d::table_id.eq(table))
            .filter(d::ended_at.is_null())
            .select(d::dealer_id)
            .first(c)
            .optional()
            .unwrap()
    })
}

#[actix_web::test]
async fn the_relieving_dealer_takes_the_table_over_at_its_tablet_with_their_pin() {
    let app = TestApp::with_clock(true).await;
    let (admin, _floor, tablet) = paired_room(&app).await;
    let d1_token = app.staff_token("dealer1", "dealer").await;
    let d2_token = app.staff_token("dealer2", "dealer").await;
    let (d1, d2) = (id_of(&app, "dealer1"), id_of(&app, "dealer2"));
    let r = app
        .send_json(
            "POST",
            "/api/v1/tables/1/dealer",
            &admin,
            json!({ "dealer_id": d1 }),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text());

    // dealer2, on their own phone: a PIN of letters is refused; then their PIN, and in.
    let phone = app.web_login("dealer2", STAFF_PW).await;
    let r = app
        .post_form("/dealer/pin", &phone, &[("pin", "12a4")])
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(r.text().contains("A PIN is 4 to 6 digits"), "{}", r.text());
    let r = app
        .post_form("/dealer/pin", &phone, &[("pin", "4821")])
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    let r = app.post_form("/dealer/clock-in", &phone, &[]).await;
    assert_eq!(r.status, 303, "{}", r.text());
    let page = app.page("/dealer", &phone).await.text();
    assert!(page.contains("data-state=\"available\""), "{page}");
    // Table 2 is open without a dealer: dealer2 is proposed there, now.
    assert!(page.contains("Next: table 2 at"), "{page}");

    // dealer1 deals at table 1 on its tablet: the relief form offers dealer2.
    let on_tablet = app.web_login("dealer1", STAFF_PW).await;
    let html = tablet_page(&app, &on_tablet, &tablet).await.text();
    assert!(html.contains("Take this table over"), "{html}");
    assert!(html.contains(&format!("<option value=\"{d2}\">dealer2</option>")));

    // Wrong PINs: the same answer for a name without a PIN (the admin's id) and a wrong
    // PIN, naming nobody; the fifth in a row locks the tablet, even for the right PIN.
    let before = (app.audit_count(), open_shift_at(&app, 1));
    let tries: [(i64, &str); 4] = [(1, "4821"), (d2, "1111"), (d2, "2222"), (d2, "3333")];
    for (who, pin) in tries {
        let r = at_tablet(
            &app,
            &on_tablet,
            &tablet,
            "/tablet/relieve",
            &[("dealer_id", &who.to_string()), ("pin", pin)],
        )
        .await;
        assert_eq!(r.status, 401, "{}", r.text());
        assert!(r.text().contains("That PIN is not right"), "{}", r.text());
        assert!(
            !r.text().contains("tablet-problem\">dealer2"),
            "names nobody"
        );
    }
    let r = at_tablet(
        &app,
        &on_tablet,
        &tablet,
        "/tablet/relieve",
        &[("dealer_id", &d2.to_string()), ("pin", "4444")],
    )
    .await;
    assert_eq!(r.status, 429, "{}", r.text());
    assert!(
        r.text().contains("Too many wrong PINs at this tablet"),
        "{}",
        r.text()
    );
    let r = at_tablet(
        &app,
        &on_tablet,
        &tablet,
        "/tablet/relieve",
        &[("dealer_id", &d2.to_string()), ("pin", "4821")],
    )
    .await;
    assert_eq!(r.status, 429, "locked even for the right PIN: {}", r.text());
    assert_eq!(open_shift_at(&app, 1), before.1, "the down did not move");
    assert_eq!(open_shift_at(&app, 1), Some(d1));

    // Five minutes on, the right PIN: the down is dealer2's at that moment.
    app.state.clock.advance(Duration::minutes(6));
    let r = at_tablet(
        &app,
        &on_tablet,
        &tablet,
        "/tablet/relieve",
        &[("dealer_id", &d2.to_string()), ("pin", "4821")],
    )
    .await;
    assert_eq!(r.status, 303, "{}", r.text());
    assert_eq!(r.header("location").as_deref(), Some("/tablet"));
    assert_eq!(open_shift_at(&app, 1), Some(d2));
    let session = r
        .cookie("cr_session")
        .expect("the tablet is signed in as dealer2");
    let flash = r.cookie("floor_done").expect("what the relief did");
    // The note goes back to the tablet's pages (a browser sends it to /tablet).
    let set: Vec<String> = r
        .headers
        .get_all("set-cookie")
        .filter_map(|v| v.to_str().ok().map(str::to_string))
        .filter(|v| v.starts_with("floor_done="))
        .collect();
    assert!(set.iter().all(|v| v.contains("Path=/tablet")), "{set:?}");
    let s2 = WebSession {
        cookie: session,
        csrf: String::new(),
    };
    let html = app
        .call(
            TestRequest::get()
                .uri("/tablet")
                .cookie(s2.c())
                .cookie(tablet.c())
                .cookie(actix_web::cookie::Cookie::new("floor_done", flash))
                .to_request(),
        )
        .await
        .text();
    assert!(
        html.contains("<span class=\"tablet-dealer\">dealer2</span>"),
        "{html}"
    );
    assert!(html.contains("dealer2 deals at this table now."), "{html}");
    // Table 2 has no dealer: the relieved dealer is told to go there next.
    assert!(html.contains("dealer1: next, table 2 at"), "{html}");
    // The session dealer1 had on the tablet has ended.
    let old = tablet_page(&app, &on_tablet, &tablet).await;
    assert_eq!(old.status, 303, "{}", old.text());
    // The binding followed: dealer2 records tips at table 1, dealer1 may no longer.
    let tips = |t: String| {
        let app = &app;
        async move {
            app.send_json(
                "POST",
                "/api/v1/tables/1/tips",
                &t,
                json!({ "amount": 500 }),
            )
            .await
            .status
        }
    };
    assert_eq!(tips(d2_token.clone()).await, 201);
    assert_eq!(tips(d1_token.clone()).await, 403);
    // The push is audited as dealer2's own.
    let actor: Option<i64> = app.with_conn(|c| {
        use cardroom::db::schema::audit_log::dsl as a;
        a::audit_log
            .filter(a::action.eq("dealer.push"))
            .select(a::actor_id)
            .first(c)
            .unwrap()
    });
    assert_eq!(actor, Some(d2));
}
