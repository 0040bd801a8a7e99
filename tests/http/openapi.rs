//! The OpenAPI document is a contract: any change to it shows up here as a diff to review.
//! After an intended change, refresh it with `UPDATE_SNAPSHOTS=1 cargo nextest run --test http openapi`.

use crate::support::*;
use actix_web::test::TestRequest;

const SNAPSHOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/snapshots/openapi.json");

#[actix_web::test]
async fn openapi_document_matches_the_snapshot() {
    let app = TestApp::new().await;
    let r = app
        .call(TestRequest::get().uri("/api/openapi.json").to_request())
        .await;
    assert_eq!(r.status, 200);
    let doc: serde_json::Value = r.json();
    let pretty = serde_json::to_string_pretty(&doc).unwrap() + "\n";
    if std::env::var("UPDATE_SNAPSHOTS").is_ok() {
        std::fs::write(SNAPSHOT, &pretty).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(SNAPSHOT)
        .expect("tests/snapshots/openapi.json (create it with UPDATE_SNAPSHOTS=1)");
    if expected != pretty {
        let first = expected
            .lines()
            .zip(pretty.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        panic!(
            "the OpenAPI document changed (first difference at line {}):\n  snapshot: {}\n  now:      {}\nIf intended, refresh with UPDATE_SNAPSHOTS=1.",
            first + 1,
            expected.lines().nth(first).unwrap_or(""),
            pretty.lines().nth(first).unwrap_or("")
        );
    }
    // The document covers the API (paths group several methods) and hides the test clock.
    let paths = doc["paths"].as_object().unwrap();
    assert!(paths.len() >= 20, "{} paths", paths.len());
    assert!(
        !paths.keys().any(|p| p.contains("/test/clock")),
        "test clock documented without the setting"
    );
}
