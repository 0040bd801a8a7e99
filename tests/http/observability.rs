//! Observability: request ids.

use crate::support::TestApp;
use actix_web::test::TestRequest;

#[actix_web::test]
async fn every_answer_carries_a_request_id_and_a_sensible_one_from_the_caller_is_kept() {
    let app = TestApp::new().await;
    let a = app
        .call(TestRequest::get().uri("/healthz").to_request())
        .await;
    let b = app
        .call(TestRequest::get().uri("/healthz").to_request())
        .await;
    let (ia, ib) = (
        a.header("x-request-id").expect("an id"),
        b.header("x-request-id").expect("an id"),
    );
    assert_eq!(ia.len(), 16);
    assert_ne!(ia, ib, "each request its own id");
    let kept = app
        .call(
            TestRequest::get()
                .uri("/healthz")
                .insert_header(("X-Request-Id", "lb-7f3a.42"))
                .to_request(),
        )
        .await;
    assert_eq!(kept.header("x-request-id").as_deref(), Some("lb-7f3a.42"));
    let long = "x".repeat(65);
    let replaced = app
        .call(
            TestRequest::get()
                .uri("/login")
                .insert_header(("X-Request-Id", long.as_str()))
                .to_request(),
        )
        .await;
    let id = replaced.header("x-request-id").unwrap();
    assert!(id != long && id.len() == 16, "{id}");
    // A refusal (4xx) names no request id in its body: only faults do.
    let r = app
        .call(TestRequest::get().uri("/api/v1/room").to_request())
        .await;
    assert_eq!(r.status, 401);
    assert!(r.json()["error"].get("request_id").is_none());
    assert!(r.header("x-request-id").is_some());
}

/// The value of a metric line (`name{labels} value`), 0 when absent.
fn metric(text: &str, line_start: &str) -> f64 {
    text.lines()
        .find(|l| l.starts_with(line_start) && l[line_start.len()..].starts_with(' '))
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|v| v.parse().ok())
        .unwrap_or(0.0)
}

async fn scrape(app: &TestApp) -> String {
    let r = app
        .call(
            TestRequest::get()
                .uri("/metrics")
                .peer_addr("127.0.0.1:50000".parse().unwrap())
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    r.text()
}

#[actix_web::test]
async fn metrics_are_for_the_machine_itself_or_the_token_and_a_seat_call_moves_them() {
    let app = TestApp::new().await;
    let (token, _admin) = crate::push::room(&app, 2).await;
    // From elsewhere, without the token: 401 and no figures.
    let r = app
        .call(
            TestRequest::get()
                .uri("/metrics")
                .peer_addr("10.1.2.3:40000".parse().unwrap())
                .to_request(),
        )
        .await;
    assert_eq!(r.status, 401);
    assert_eq!(r.json()["error"]["code"], "unauthorized");
    assert!(!r.text().contains("cardroom_"), "{}", r.text());

    let before = scrape(&app).await;
    let call = r#"cardroom_http_requests_total{method="POST",route="/api/v1/tables/{id}/seats/{seat}/call-next",status="201"}"#;
    assert_eq!(metric(&before, call), 0.0);
    let r = app
        .send_json(
            "POST",
            "/api/v1/tables/1/seats/1/call-next",
            &token,
            serde_json::json!({}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let after = scrape(&app).await;
    assert_eq!(metric(&after, call), 1.0, "{after}");
    assert_eq!(
        metric(&after, "cardroom_seat_calls_open"),
        metric(&before, "cardroom_seat_calls_open") + 1.0
    );
    assert!(
        metric(&after, "cardroom_audit_records_total")
            > metric(&before, "cardroom_audit_records_total")
    );
    assert!(
        metric(&after, "cardroom_write_turns_total")
            > metric(&before, "cardroom_write_turns_total")
    );
    assert!(metric(&after, "cardroom_write_transactions_total") >= 1.0);
    assert_eq!(metric(&after, "cardroom_db_up"), 1.0);
    assert!(after.contains(r#"cardroom_http_request_duration_seconds_bucket{le="0.001",method="POST",route="/api/v1/tables/{id}/seats/{seat}/call-next"}"#), "{after}");
    assert!(metric(&after, "cardroom_db_pool_connections") >= 1.0);

    // With a token set, the token is what counts (from anywhere), and nothing else.
    let with_token = TestApp::builder()
        .like(&app)
        .tune(|c| c.security.metrics_token = Some("scrape-token-0123456789".into()))
        .start()
        .await;
    let ask = |auth: Option<&'static str>, peer: &'static str| {
        let mut r = TestRequest::get()
            .uri("/metrics")
            .peer_addr(peer.parse().unwrap());
        if let Some(a) = auth {
            r = r.insert_header(("Authorization", a));
        }
        r.to_request()
    };
    assert_eq!(
        with_token
            .call_raw(ask(Some("Bearer scrape-token-0123456789"), "10.1.2.3:1"))
            .await
            .status(),
        200
    );
    assert_eq!(
        with_token
            .call_raw(ask(Some("Bearer wrong-token-0123456789x"), "10.1.2.3:1"))
            .await
            .status(),
        401
    );
    assert_eq!(
        with_token.call_raw(ask(None, "127.0.0.1:1")).await.status(),
        401
    );
}
