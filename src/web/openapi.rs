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

/// A JSON merge patch (RFC 7396) of the room (`PATCH /api/v1/room`): any of `RoomUpdate`'s
/// members, and in `profile` any of the rule profile's settings, with their types and ranges;
/// what is left out is kept. The schema is written from `RoomUpdate`'s and `RuleProfile`'s
/// (`add_patch_schemas`), so it cannot drift from them.
#[derive(ToSchema)]
#[schema(value_type = Object)]
#[allow(dead_code)]
pub struct RoomPatch(serde_json::Map<String, serde_json::Value>);

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
        description = "The back-office of a live poker cash-game room. Sign in with `POST /api/v1/auth/login` and send the token as `Authorization: Bearer <token>`. Every POST, PUT, PATCH and DELETE takes an optional `Idempotency-Key` header (up to 200 visible ASCII characters, kept 24 hours per signed-in staff member or device): a request retried with the same key is applied once and answered with the first answer, byte for byte (with `Idempotent-Replayed: true`); the same key with another body for the same operation is a 422 (a key is kept per method and address); while the first is still running, a 409 with `Retry-After`. Errors are `{\"error\":{\"code\",\"message\",\"fields\"}}`, the message in the language of `Accept-Language` (pt or en). Text, wherever a request carries it (a body's strings and keys, a query string, the address), refuses NUL and the other control characters (U+0000-U+001F, U+007F-U+009F) and the bidirectional formatting characters (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C); a line feed, a CR LF and a tab only in the fields that take lines (`note`, `decision`, `body`): a 422 naming each field (reason `text_control`, `text_direction` or `text_one_line`); in the address, a 400. Every 429 carries `Retry-After`."
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
        (name = "limits", description = "A running table's limits: the limits in force and their history, the floor's approval of a change from the next hand or a stated time, the dealer's confirmation that it was announced, the floor's cancellation (PT-2007 22, BSOP 34)"),
        (name = "cagnotte", description = "The house's percentage: per-session dues collected or exempted, the floor's close of a session, tips, the drop box, commissions and dealer shifts (PT-2007 5, 7, 9; PT-ONL 17-18; MO-13 11)"),
        (name = "dealers", description = "The dealers' night: the roster (clocked in, on a break, dealing, off), the open tables' downs and the pushes proposed by the room's push rules; a dealer deals at one table at a time"),
        (name = "messages", description = "Messages to players by SMS and e-mail (the durable outbox, each attempt, retry now) and revoking a player's links"),
        (name = "tablets", description = "Pairing a dealer tablet with a table (a code the tablet shows, entered by the floor), the tablets paired, revoking one; or pairing the device as the desk kiosk"),
        (name = "buttons", description = "The special buttons Cucurucho and Macaca (BSOP 115, 116): their starting seats drawn, the special hands with each player's fixed contribution, the Macaca's result"),
        (name = "draws", description = "Recorded draws: the seats of a new game (PT-2007 11, 27), with an extra player (BSOP 50), by suits (PT-2007 25), the button (BSOP 48), a special button's starting seat (BSOP 115, 116); those a table's break records (BSOP 52, 56); each with its seed, inputs and result, read and replayed"),
        (name = "rulings", description = "The floor's rulings and the incident log: asked for from a table naming the hand in play, decided (final) or corrected by a later ruling, a pot held aside meanwhile, the chips a decision moves confirmed by a second staff member, the log with its filters and CSV (BSOP 16-22)"),
        (name = "join", description = "Players joining the lists from their phone: the phone numbers the floor blocked from asking for codes"),
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
    // Two types with one schema name: the later would silently replace the earlier in the
    // document (it happened: SeatedOut, SessionOut, CollectRequest). A programming error
    // the tests catch at once; a release build logs it.
    let clashes = name_clashes(&schemas);
    if !clashes.is_empty() {
        let msg = format!("OpenAPI schema names used by different types: {clashes:?} (rename one with #[schema(as = …)])");
        if cfg!(debug_assertions) {
            panic!("{msg}");
        }
        log::error!("{msg}");
    }
    doc.components
        .get_or_insert_with(Default::default)
        .schemas
        .extend(schemas);
    add_common_responses(&mut doc);
    add_room_bounds(&mut doc);
    add_patch_schemas(&mut doc);
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

/// The shared header parameter of every state-changing operation.
const IDEMPOTENCY_KEY: &str = "IdempotencyKey";

/// The refusals any operation of a kind can answer, whatever its own handler does: they come
/// from the layers every request passes through (the database, the sign-in check, the
/// extractors). Each is a shared response in `components.responses`, and each operation
/// refers to those that apply to it unless it documents that status itself:
///
/// - every operation: 503 (the database is unreachable; `Retry-After` says when to retry);
/// - signed-in operations: 401 (no, expired or ended token) and 403 (another role, a dealer
///   at another table, a password that must be changed first);
/// - a path with parameters: 404 (nothing with that id, or an id that is not a number) and
///   400 (a control or direction character in it: `web::text`);
/// - a query string: 400 (not parsable) and 422 (a value out of range, or text refused);
/// - a request body: 400 (not parsable), 413 (over the size limit), 415 (another content
///   type) and 422 (a field refused; `fields` names each).
/// - a state-changing operation (POST, PUT, PATCH, DELETE): the optional `Idempotency-Key`
///   header (a shared parameter), 409 (a twin still running, or already applied) and 422 (a
///   key refused, or reused with another body for the same operation).
fn add_common_responses(doc: &mut utoipa::openapi::OpenApi) {
    let components = doc.components.get_or_insert_with(Default::default);
    add_shared_responses(components);
    add_idempotency_parameter(components);
    let global_security = doc.security.as_ref().is_some_and(|s| !s.is_empty());
    for (path, item) in doc.paths.paths.iter_mut() {
        let has_path_params = path.contains('{');
        for (op, writes) in operations(item) {
            let facts = OperationFacts::of(op, has_path_params, writes, global_security);
            if writes {
                op.parameters
                    .get_or_insert_with(Vec::new)
                    .push(utoipa::openapi::RefOr::Ref(utoipa::openapi::Ref::new(
                        format!("#/components/parameters/{IDEMPOTENCY_KEY}"),
                    )));
            }
            refer_to_shared_responses(op, &facts.common_statuses());
        }
    }
}

/// A refusal shared by many operations, in `components.responses`.
struct SharedResponse {
    status: &'static str,
    name: &'static str,
    description: &'static str,
    /// Says when to retry (`Retry-After`, in seconds).
    retry_after: bool,
}

const SHARED_RESPONSES: &[SharedResponse] = &[
    SharedResponse {
        status: "400",
        name: "BadRequest",
        description: "The request cannot be read (malformed JSON or query string, or a control \
                      or direction character in the address)",
        retry_after: false,
    },
    SharedResponse {
        status: "401",
        name: "Unauthorized",
        description: "No valid token: missing, expired, or its session ended",
        retry_after: false,
    },
    SharedResponse {
        status: "403",
        name: "Forbidden",
        description: "Not allowed for this role or table, or the password must be changed first",
        retry_after: false,
    },
    SharedResponse {
        status: "404",
        name: "NotFound",
        description: "Nothing with that id",
        retry_after: false,
    },
    SharedResponse {
        status: "413",
        name: "PayloadTooLarge",
        description: "The body is larger than allowed",
        retry_after: false,
    },
    SharedResponse {
        status: "415",
        name: "UnsupportedMediaType",
        description: "The body is not of a type this operation takes",
        retry_after: false,
    },
    SharedResponse {
        status: "422",
        name: "Unprocessable",
        description: "A field was refused (among the reasons: text with a control or direction \
                      character); `fields` names each one with its reason",
        retry_after: false,
    },
    SharedResponse {
        status: "503",
        name: "Unavailable",
        description: "The database cannot be reached; retry after `Retry-After` seconds",
        retry_after: true,
    },
    SharedResponse {
        status: "409",
        name: "Conflict",
        description: "The action conflicts with the current state; or a request with the same \
                      Idempotency-Key is still running (retry after `Retry-After` seconds) or was \
                      already applied",
        retry_after: false,
    },
];

/// Each of [`SHARED_RESPONSES`] in `components.responses`, with the error body.
fn add_shared_responses(components: &mut utoipa::openapi::Components) {
    use utoipa::openapi::{Header, Ref, RefOr, ResponseBuilder};
    for shared in SHARED_RESPONSES {
        let mut response = ResponseBuilder::new()
            .description(shared.description)
            .content(
                "application/json",
                utoipa::openapi::Content::new(Some(RefOr::Ref(Ref::from_schema_name(
                    "ErrorResponse",
                )))),
            );
        if shared.retry_after {
            response = response.header(
                "Retry-After",
                Header::new(
                    utoipa::openapi::ObjectBuilder::new()
                        .schema_type(utoipa::openapi::schema::Type::Integer)
                        .build(),
                ),
            );
        }
        components
            .responses
            .insert(shared.name.to_string(), RefOr::T(response.build()));
    }
}

/// Every state-changing operation takes an optional idempotency key (`web::idempotency`).
fn add_idempotency_parameter(components: &mut utoipa::openapi::Components) {
    use utoipa::openapi::path::ParameterIn;
    components.parameters.insert(
        IDEMPOTENCY_KEY.to_string(),
        utoipa::openapi::RefOr::T(
            utoipa::openapi::path::ParameterBuilder::new()
                .name(crate::web::idempotency::HEADER)
                .parameter_in(ParameterIn::Header)
                .required(utoipa::openapi::Required::False)
                .description(Some(
                    "Optional. The same key with the same request (method, path, body) within 24 hours \
                     returns the first answer (status, content type, Location, body) and changes \
                     nothing more. The key is kept per signed-in staff member (or device). The same key \
                     with another body for this operation: 422; a key of more than 200 characters or with characters \
                     other than visible ASCII: 422; the first request with this key still running: \
                     409 with `Retry-After`; applied but its answer lost or too large to keep: 409.",
                ))
                .schema(Some(
                    utoipa::openapi::ObjectBuilder::new()
                        .schema_type(utoipa::openapi::schema::Type::String)
                        .min_length(Some(1))
                        .max_length(Some(crate::web::idempotency::MAX_KEY_LEN))
                        .pattern(Some("^[ -~]+$")),
                ))
                .build(),
        ),
    );
}

/// A path's operations, each with whether it changes state (POST, PUT, PATCH, DELETE).
fn operations(
    item: &mut utoipa::openapi::PathItem,
) -> impl Iterator<Item = (&mut utoipa::openapi::path::Operation, bool)> {
    [
        (&mut item.get, false),
        (&mut item.post, true),
        (&mut item.put, true),
        (&mut item.patch, true),
        (&mut item.delete, true),
    ]
    .into_iter()
    .filter_map(|(op, writes)| op.as_mut().map(|op| (op, writes)))
}

/// What decides which shared refusals an operation can answer.
struct OperationFacts {
    signed_in: bool,
    has_path_params: bool,
    has_query: bool,
    has_body: bool,
    writes: bool,
}

impl OperationFacts {
    fn of(
        op: &utoipa::openapi::path::Operation,
        has_path_params: bool,
        writes: bool,
        global_security: bool,
    ) -> Self {
        use utoipa::openapi::{path::ParameterIn, RefOr};
        let signed_in = match &op.security {
            None => global_security,
            // `security(())`: one empty requirement, i.e. no sign-in.
            Some(reqs) => reqs.iter().any(|r| r != &Default::default()),
        };
        let has_query = op
            .parameters
            .iter()
            .flatten()
            .any(|p| matches!(p, RefOr::T(p) if p.parameter_in == ParameterIn::Query));
        OperationFacts {
            signed_in,
            has_path_params,
            has_query,
            has_body: op.request_body.is_some(),
            writes,
        }
    }

    /// The statuses of the shared refusals that apply (see [`add_common_responses`]).
    fn common_statuses(&self) -> Vec<&'static str> {
        let mut wanted = vec!["503"];
        if self.signed_in {
            wanted.extend(["401", "403"]);
        }
        if self.has_path_params {
            wanted.extend(["400", "404"]);
        }
        if self.has_query || self.has_body {
            wanted.extend(["400", "422"]);
        }
        if self.has_body {
            wanted.extend(["413", "415"]);
        }
        if self.writes {
            wanted.extend(["409", "422"]);
        }
        wanted
    }
}

/// Refers the operation to each shared refusal, unless it documents that status itself.
fn refer_to_shared_responses(op: &mut utoipa::openapi::path::Operation, statuses: &[&str]) {
    use utoipa::openapi::{Ref, RefOr};
    for status in statuses {
        let name = SHARED_RESPONSES
            .iter()
            .find(|r| r.status == *status)
            .map_or("Unavailable", |r| r.name);
        op.responses
            .responses
            .entry(status.to_string())
            .or_insert_with(|| RefOr::Ref(Ref::from_response_name(name)));
    }
}

/// The room settings' bounds, from the code that enforces them (so the document cannot drift
/// from it): each rule-profile number's range (`domain::profile::RANGES`, from the seeds) and
/// the currencies a room may use (`domain::money::CURRENCIES`).
fn add_room_bounds(doc: &mut utoipa::openapi::OpenApi) {
    use utoipa::openapi::schema::Schema;
    use utoipa::openapi::RefOr;
    let Some(components) = doc.components.as_mut() else {
        return;
    };
    if let Some(RefOr::T(Schema::Object(profile))) = components.schemas.get_mut("RuleProfile") {
        let push = crate::domain::profile::PUSH_RANGES;
        for range in crate::domain::profile::RANGES.iter().chain(push) {
            if let Some(RefOr::T(Schema::Object(field))) = profile.properties.get_mut(range.field) {
                field.minimum = Some(range.min.into());
                field.maximum = Some(range.max.into());
            }
        }
    }
    if let Some(RefOr::T(Schema::Object(room))) = components.schemas.get_mut("RoomUpdate") {
        if let Some(RefOr::T(Schema::Object(currency))) = room.properties.get_mut("currency") {
            currency.enum_values = Some(
                crate::domain::money::CURRENCIES
                    .iter()
                    .map(|c| (*c).into())
                    .collect(),
            );
        }
    }
}

/// The room's merge patch (`RoomPatch`) and its profile's (`RuleProfilePatch`): `RoomUpdate`
/// and `RuleProfile` (with their bounds) with every member optional and no other member
/// allowed (an unknown one is refused, and so is `null`: nothing can be removed).
fn add_patch_schemas(doc: &mut utoipa::openapi::OpenApi) {
    use utoipa::openapi::schema::{AdditionalProperties, Schema};
    use utoipa::openapi::{Ref, RefOr};
    let Some(components) = doc.components.as_mut() else {
        return;
    };
    let optional = |name: &str, description: &str| {
        let Some(RefOr::T(Schema::Object(whole))) = components.schemas.get(name) else {
            return None;
        };
        let mut patch = whole.clone();
        patch.required.clear();
        patch.additional_properties = Some(Box::new(AdditionalProperties::FreeForm(false)));
        patch.description = Some(description.to_string());
        Some(patch)
    };
    let profile = optional(
        "RuleProfile",
        "Some settings of the rule profile (a JSON merge patch): each one given takes its \
         value, every other keeps its own; `kind` alone changes only the profile followed.",
    );
    let room = optional(
        "RoomUpdate",
        "Some of the room's settings (a JSON merge patch, RFC 7396): each member given takes \
         its value, every other keeps its own; `profile` is merged setting by setting. No \
         member may be null.",
    );
    let (Some(profile), Some(mut room)) = (profile, room) else {
        return;
    };
    // A member the PUT may leave out reads `null` there as "not given"; a patch names only
    // what it changes, with a value.
    for member in room.properties.values_mut() {
        not_null(member);
    }
    room.properties.insert(
        "profile".to_string(),
        RefOr::Ref(Ref::from_schema_name("RuleProfilePatch")),
    );
    components.schemas.insert(
        "RuleProfilePatch".to_string(),
        RefOr::T(Schema::Object(profile)),
    );
    components
        .schemas
        .insert("RoomPatch".to_string(), RefOr::T(Schema::Object(room)));
}

/// The schema without its `null` alternative (`oneOf [X, null]` is X; `[integer, null]` is
/// `integer`).
fn not_null(member: &mut utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>) {
    use utoipa::openapi::schema::{Schema, SchemaType, Type};
    use utoipa::openapi::RefOr;
    let is_null = |s: &RefOr<Schema>| matches!(s, RefOr::T(Schema::Object(o)) if o.schema_type == SchemaType::Type(Type::Null));
    match member {
        RefOr::T(Schema::OneOf(one)) if one.items.iter().any(is_null) => {
            let mut rest: Vec<_> = one.items.iter().filter(|s| !is_null(s)).cloned().collect();
            if rest.len() == 1 {
                *member = rest.remove(0);
            } else {
                one.items = rest;
            }
        }
        RefOr::T(Schema::Object(o)) => {
            if let SchemaType::Array(types) = &o.schema_type {
                let rest: Vec<Type> = types
                    .iter()
                    .filter(|t| **t != Type::Null)
                    .cloned()
                    .collect();
                o.schema_type = match rest.as_slice() {
                    [one] => SchemaType::Type(one.clone()),
                    _ => SchemaType::Array(rest),
                };
            }
        }
        _ => {}
    }
}

/// The names given to two different schemas (and the components' own names the routes'
/// schemas would replace).
fn name_clashes(
    schemas: &[(
        String,
        utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
    )],
) -> Vec<String> {
    let base = ApiDoc::openapi();
    let mut seen: std::collections::BTreeMap<&str, String> = Default::default();
    for own in base.components.iter().flat_map(|c| c.schemas.iter()) {
        seen.insert(
            own.0.as_str(),
            serde_json::to_string(own.1).unwrap_or_default(),
        );
    }
    let mut clashes = Vec::new();
    for (name, schema) in schemas {
        let json = serde_json::to_string(schema).unwrap_or_default();
        match seen.get(name.as_str()) {
            Some(other) if *other != json => clashes.push(name.clone()),
            Some(_) => {}
            None => {
                seen.insert(name.as_str(), json);
            }
        }
    }
    clashes.sort();
    clashes.dedup();
    clashes
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
    either_required(&mut json);
    json.to_string()
}

/// Bodies where one of two fields must be given, not null (utoipa's derive cannot say it), the second
/// a text that is not blank: a seat hold names the player it is held for or gives the
/// floor's reason (BSOP 45, 49).
fn either_required(doc: &mut serde_json::Value) {
    const EITHER: &[(&str, &str, &str)] = &[("HoldRequest", "player_id", "reason")];
    for (schema, a, b) in EITHER {
        if let Some(obj) = doc
            .pointer_mut(&format!("/components/schemas/{schema}"))
            .and_then(|s| s.as_object_mut())
        {
            obj.insert(
                "anyOf".into(),
                serde_json::json!([
                    { "required": [a], "properties": { *a: { "type": "integer" } } },
                    { "required": [b], "properties": { *b: { "type": "string", "pattern": "\\S" } } }
                ]),
            );
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use utoipa::openapi::{ObjectBuilder, RefOr};

    fn object(field: &str) -> RefOr<utoipa::openapi::schema::Schema> {
        RefOr::T(
            ObjectBuilder::new()
                .property(field, ObjectBuilder::new())
                .into(),
        )
    }

    #[test]
    fn two_types_under_one_schema_name_are_found() {
        let same = vec![
            ("A".to_string(), object("x")),
            ("A".to_string(), object("x")),
        ];
        assert!(name_clashes(&same).is_empty());
        let clash = vec![
            ("A".to_string(), object("x")),
            ("A".to_string(), object("y")),
        ];
        assert_eq!(name_clashes(&clash), vec!["A".to_string()]);
        // A route's schema named like one of the document's own (ErrorResponse) is one too.
        let own = vec![("ErrorResponse".to_string(), object("z"))];
        assert_eq!(name_clashes(&own), vec!["ErrorResponse".to_string()]);
    }
}
