//! Scheduled backups: `/admin/backups` lists checked copies, "Back up now" makes
//! one, and a failed backup is an alert on the admin and floor pages until one succeeds.

use crate::support::{is_postgres, TestApp, ADMIN_PW, STAFF_PW};

#[actix_web::test]
async fn backups_are_listed_made_on_demand_and_a_failure_is_an_alert_until_one_succeeds() {
    if is_postgres() {
        eprintln!("skipped: scheduled backups are for SQLite (PostgreSQL: pg_dump)");
        return;
    }
    // Off unless configured.
    let plain = TestApp::new().await;
    let admin = plain.web_login("admin", ADMIN_PW).await;
    let p = plain.page("/admin/backups", &admin).await;
    assert_eq!(p.status, 200);
    assert!(p.text().contains("id=\"backup-off\""), "{}", p.text());

    let dir = tempfile::tempdir().unwrap();
    let blocker = dir.path().join("not-a-dir");
    let good = dir.path().join("backups");
    let target = std::sync::Arc::new(std::sync::Mutex::new(good.clone()));
    let t = target.lock().unwrap().clone();
    let app = TestApp::tuned(|c| c.backup.dir = Some(t.display().to_string())).await;
    let admin = app.web_login("admin", ADMIN_PW).await;
    let p = app.page("/admin/backups", &admin).await;
    assert!(p.text().contains("id=\"backup-none\""), "{}", p.text());
    let r = app.post_form("/admin/backups", &admin, &[]).await;
    assert_eq!(r.status, 303, "{}", r.text());
    let p = app.page("/admin/backups", &admin).await;
    let html = p.text();
    assert!(
        html.contains("id=\"backup-list\"") && html.contains("cardroom-"),
        "{html}"
    );
    let files = cardroom::backup::list(&good);
    assert_eq!(files.len(), 1);
    let checked = cardroom::backup::check_file(&good.join(&files[0].name))
        .expect("a backup that passes its check");
    assert!(checked.audit_records > 0);
    // Without the CSRF token: refused, nothing made.
    let r = app
        .call(
            actix_web::test::TestRequest::post()
                .uri("/admin/backups")
                .cookie(admin.c())
                .set_form([("x", "y")])
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 403);
    assert_eq!(cardroom::backup::list(&good).len(), 1);

    // The disk goes wrong: the directory cannot be made (a file is in the way).
    std::fs::write(&blocker, b"x").unwrap();
    let failing = TestApp::builder()
        .like(&app)
        .tune(|c| c.backup.dir = Some(blocker.join("sub").display().to_string()))
        .build()
        .state;
    let r = cardroom::backup::scheduled(
        &failing.config.database.url,
        &blocker.join("sub"),
        5,
        chrono::Utc::now(),
        &app.state.backups,
    );
    assert!(r.is_err());
    // Admin: an alert on every page, with the way to the backups; the floor sees it too.
    let home = app.page("/admin/games", &admin).await;
    assert!(
        home.text().contains("id=\"backup-alert\"")
            && home.text().contains("href=\"/admin/backups\""),
        "{}",
        home.text()
    );
    app.create_staff("floor1", "floor");
    let floor = app.web_login("floor1", STAFF_PW).await;
    let f = app.page("/floor", &floor).await;
    assert!(
        f.text().contains("id=\"backup-alert\""),
        "the floor sees the alert"
    );
    let p = app.page("/admin/backups", &admin).await;
    assert!(p.text().contains("id=\"backup-failing\""), "{}", p.text());
    assert_eq!(
        cardroom::backup::list(&good).len(),
        1,
        "the good backup is untouched"
    );
    // A backup that works clears it.
    assert_eq!(
        app.post_form("/admin/backups", &admin, &[]).await.status,
        303
    );
    let home = app.page("/admin/games", &admin).await;
    assert!(!home.text().contains("id=\"backup-alert\""));
    // Dealers and cashiers have no backups page.
    app.create_staff("cash1", "cashier");
    let cash = app.web_login("cash1", STAFF_PW).await;
    assert_eq!(app.page("/admin/backups", &cash).await.status, 403);
}
