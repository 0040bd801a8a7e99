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

/// Every status an operation can answer is documented: the refusals every request can meet
/// (503; signed in: 401, 403; an id in the path: 404; a body: 400, 413, 415, 422) on every
/// operation, and each refers to a response whose body is the error schema.
#[actix_web::test]
async fn every_operation_documents_the_refusals_it_can_meet() {
    let app = TestApp::new().await;
    let doc: serde_json::Value = app
        .call(TestRequest::get().uri("/api/openapi.json").to_request())
        .await
        .json();
    let mut checked = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let responses = op["responses"].as_object().unwrap();
            let has = |s: &str| responses.contains_key(s);
            let what = format!("{method} {path}");
            assert!(has("503"), "{what}: no 503");
            let public = op["security"].as_array().is_some_and(|r| {
                r.iter()
                    .all(|x| x.as_object().is_some_and(|o| o.is_empty()))
            });
            if !public {
                assert!(has("401") && has("403"), "{what}: no 401/403");
            }
            if path.contains('{') {
                assert!(has("404"), "{what}: no 404");
            }
            if op.get("requestBody").is_some() {
                for s in ["400", "413", "415", "422"] {
                    assert!(has(s), "{what}: no {s}");
                }
            }
            for (status, r) in responses {
                if status.starts_with('4') || status.starts_with('5') {
                    let schema = r
                        .get("$ref")
                        .and_then(|p| p.as_str())
                        .and_then(|p| p.strip_prefix("#/"))
                        .map(|p| doc.pointer(&format!("/{p}")).unwrap())
                        .unwrap_or(r);
                    assert_eq!(
                        schema["content"]["application/json"]["schema"]["$ref"],
                        "#/components/schemas/ErrorResponse",
                        "{what} {status}"
                    );
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 90, "{checked} operations");
    // The login is public: it names its own refusals, not 401's "no token".
    assert!(doc["paths"]["/api/v1/auth/login"]["post"]["responses"]["429"].is_object());
}

/// The names the document gives an enum are the ones served (the room's rule profile was
/// documented as `BottomOfList` and served `bottom`).
#[actix_web::test]
async fn served_enum_values_are_the_documented_ones() {
    let app = TestApp::new().await;
    let token = app.admin_token().await;
    let doc: serde_json::Value = app
        .call(TestRequest::get().uri("/api/openapi.json").to_request())
        .await
        .json();
    let room = app.get("/api/v1/room", &token).await.json();
    let schemas = &doc["components"]["schemas"];
    for (schema, value) in [
        ("CallExpiry", &room["profile"]["call_expiry"]),
        ("CagnotteMode", &room["profile"]["cagnotte_mode"]),
        ("ProfileKind", &room["profile"]["kind"]),
        ("Language", &room["default_language"]),
    ] {
        let allowed = schemas[schema]["enum"]
            .as_array()
            .unwrap_or_else(|| panic!("{schema}"));
        assert!(
            allowed.contains(value),
            "{schema}: {value} not in {allowed:?}"
        );
    }
    // One schema per name: the tablet's seated player and the seat map's are two.
    assert!(schemas["TabletSeatedOut"].is_object() && schemas["SeatedOut"].is_object());
    assert!(schemas["CagnotteSessionOut"].is_object() && schemas["SessionOut"].is_object());
    assert_eq!(schemas["SessionOut"]["properties"]["id"]["type"], "string");
}
