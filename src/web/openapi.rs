//! OpenAPI 3 description of `/api/v1`, served at `/api/openapi.json`.

use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi, ToSchema};
use utoipa_actix_web::OpenApiFactory;

/// The name of the Bearer security scheme in the document.
pub const BEARER: &str = "bearer";

/// Every refusal: a stable `code`, a message in the request's language (`Accept-Language`),
/// and for 422 the refused fields. (The body `web::errors` writes.)
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct ErrorResponse {
    error: ErrorBody,
}

#[derive(ToSchema)]
#[allow(dead_code)]
pub struct ErrorBody {
    /// validation_failed | bad_request | unauthorized | forbidden | not_found |
    /// method_not_allowed | conflict | payload_too_large | unsupported_media_type |
    /// too_many_requests | unavailable | internal_error
    #[schema(example = "validation_failed")]
    code: String,
    /// The precise reason, stable for an integration to branch on (e.g. `table_number_taken`,
    /// `document_taken`, `dealer_other_table`, `login_throttled`, `session_ended`); the
    /// `code` is its coarse class.
    #[schema(example = "table_number_taken")]
    reason: String,
    /// Localized headline.
    message: String,
    /// Only for 422 (absent otherwise): each refused field with its reason.
    #[schema(required = false)]
    fields: Vec<FieldErrorBody>,
}

#[derive(ToSchema)]
#[allow(dead_code)]
pub struct FieldErrorBody {
    #[schema(example = "date_of_birth")]
    field: String,
    /// The reason, e.g. required, under_18, too_long, choice.
    #[schema(example = "under_18")]
    code: String,
    message: String,
}

/// A photo's bytes (JPEG or PNG).
#[derive(ToSchema)]
#[schema(value_type = String, format = Binary)]
#[allow(dead_code)]
pub struct Image(Vec<u8>);

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            BEARER,
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("JWT")
                    .build(),
            ),
        );
    }
}

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Cardroom API",
        description = "The back-office of a live poker cash-game room. Sign in with `POST /api/v1/auth/login` and send the token as `Authorization: Bearer <token>`. Errors are `{\"error\":{\"code\",\"message\",\"fields\"}}`, the message in the language of `Accept-Language` (pt or en)."
    ),
    components(schemas(ErrorResponse, ErrorBody, FieldErrorBody, Image)),
    modifiers(&BearerAuth),
    security(("bearer" = [])),
    tags(
        (name = "auth", description = "Sign-in and one's own account"),
        (name = "players", description = "The player registry, exclusions and separations (BSOP 1, 2, 3, 10, 11, 47)"),
        (name = "room", description = "The room and its rule profile"),
        (name = "games", description = "Games and tables"),
        (name = "staff", description = "Staff accounts"),
        (name = "audit", description = "The hash-chained audit trail"),
        (name = "floor", description = "Waiting lists, seat calls, seating and table states (PT-2007 8a, 12, 24; BSOP 44, 46, 47, 51)"),
        (name = "table", description = "The table side, as the dealer tablet runs it: buy-ins, rebuys, leaving, absence and chip custody, hands, requests to the floor (BSOP 26, 27, 36-39; PT-2007 13, 28, 79, 89, 90)"),
        (name = "cagnotte", description = "The house's percentage: per-session dues collected or exempted, the floor's close of a session, tips, the drop box, commissions and dealer shifts (PT-2007 5, 7, 9; PT-ONL 17-18; MO-13 11)"),
        (name = "messages", description = "Messages to players by SMS and e-mail (the durable outbox, each attempt, retry now) and revoking a player's links"),
        (name = "tablets", description = "Pairing a dealer tablet with a table (a code the tablet shows, entered by the floor), the tablets paired, revoking one"),
        (name = "test", description = "The test clock: only when the server runs with CARDROOM_TEST_CLOCK=1"),
    )
)]
pub struct ApiDoc;

/// The document for the routes registered in `api` (collected by `utoipa_actix_web` from
/// the scope before it is mounted): the paths and their schemas, over [`ApiDoc`]'s info,
/// tags, security and error schemas. The `test` tag only when the test clock is mounted.
pub fn document(api: &impl OpenApiFactory) -> utoipa::openapi::OpenApi {
    let mut doc = ApiDoc::openapi();
    doc.paths.merge(api.paths());
    let mut schemas = Vec::new();
    api.schemas(&mut schemas);
    doc.components
        .get_or_insert_with(Default::default)
        .schemas
        .extend(schemas);
    if !doc
        .paths
        .paths
        .keys()
        .any(|p| p.starts_with("/api/v1/test/"))
    {
        if let Some(tags) = doc.tags.as_mut() {
            tags.retain(|t| t.name != "test");
        }
    }
    doc
}

/// The document as served at `/api/openapi.json`.
pub fn to_json(doc: &utoipa::openapi::OpenApi) -> String {
    let mut json = match serde_json::to_value(doc) {
        Ok(v) => v,
        Err(e) => {
            log::error!("OpenAPI document: {e}");
            return "{}".into();
        }
    };
    describe_responses(&mut json);
    json.to_string()
}

/// Gives every response without a description its status's reason phrase ("OK",
/// "Unauthorized", …). The document says OpenAPI 3.1, where a response's `description` is
/// required; utoipa 6 leaves an empty one out (3.2 made it optional), which strict validators
/// and client generators refuse.
fn describe_responses(doc: &mut serde_json::Value) {
    let Some(paths) = doc.get_mut("paths").and_then(|p| p.as_object_mut()) else {
        return;
    };
    for item in paths.values_mut().filter_map(|i| i.as_object_mut()) {
        for op in item.values_mut() {
            let Some(responses) = op.get_mut("responses").and_then(|r| r.as_object_mut()) else {
                continue;
            };
            for (status, response) in responses.iter_mut() {
                let Some(response) = response.as_object_mut() else {
                    continue;
                };
                if response.contains_key("$ref") || response.contains_key("description") {
                    continue;
                }
                let phrase = status
                    .parse::<u16>()
                    .ok()
                    .and_then(|s| actix_web::http::StatusCode::from_u16(s).ok())
                    .and_then(|s| s.canonical_reason())
                    .unwrap_or("Response");
                response.insert("description".into(), phrase.into());
            }
        }
    }
}
