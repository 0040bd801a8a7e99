//! Observability (issue 15): request ids.

use crate::support::TestApp;
use actix_web::test::TestRequest;

#[actix_web::test]
async fn every_answer_carries_a_request_id_and_a_sensible_one_from_the_caller_is_kept() {
    let app = TestApp::new().await;
    let a = app.call(TestRequest::get().uri("/healthz").to_request()).await;
    let b = app.call(TestRequest::get().uri("/healthz").to_request()).await;
    let (ia, ib) = (a.header("x-request-id").expect("an id"), b.header("x-request-id").expect("an id"));
    assert_eq!(ia.len(), 16);
    assert_ne!(ia, ib, "each request its own id");
    let kept = app.call(TestRequest::get().uri("/healthz").insert_header(("X-Request-Id", "lb-7f3a.42")).to_request()).await;
    assert_eq!(kept.header("x-request-id").as_deref(), Some("lb-7f3a.42"));
    let long = "x".repeat(65);
    let replaced = app.call(TestRequest::get().uri("/login").insert_header(("X-Request-Id", long.as_str())).to_request()).await;
    let id = replaced.header("x-request-id").unwrap();
    assert!(id != long && id.len() == 16, "{id}");
    // A refusal (4xx) names no request id in its body: only faults do.
    let r = app.call(TestRequest::get().uri("/api/v1/room").to_request()).await;
    assert_eq!(r.status, 401);
    assert!(r.json()["error"].get("request_id").is_none());
    assert!(r.header("x-request-id").is_some());
}
