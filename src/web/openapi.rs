//! OpenAPI 3 description of `/api/v1`, served at `/api/openapi.json`.

use super::api;
use super::api_cagnotte;
use super::api_floor;
use super::api_messages;
use super::api_table;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi, ToSchema};

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
    paths(
        api::login,
        api::change_password,
        api::me,
        api::list_players,
        api::create_player,
        api::get_player,
        api::update_player,
        api::put_photo,
        api::get_photo,
        api::eligibility,
        api::ban_player,
        api::lift_ban,
        api::separate,
        api::remove_separation,
        api::player_history,
        api::get_room,
        api::update_room,
        api::list_games,
        api::create_game,
        api::get_game,
        api::update_game,
        api::list_tables,
        api::create_table,
        api::update_table,
        api::list_staff,
        api::create_staff,
        api::update_staff,
        api::list_audit,
        api::verify_audit,
        api::get_clock,
        api::advance_clock,
        api_floor::list_waitlist,
        api_floor::join_waitlist,
        api_floor::remove_entry,
        api_floor::reorder_entry,
        api_floor::check_in,
        api_floor::open_table,
        api_floor::table_seats,
        api_floor::call_next,
        api_floor::confirm_call,
        api_floor::seat_directly,
        api_floor::leave_seat,
        api_floor::must_move_list,
        api_floor::suggest_table,
        api_floor::refuse_must_move,
        api_floor::request_seat_change,
        api_floor::list_seat_changes,
        api_floor::cancel_seat_change,
        api_floor::hold_seat,
        api_floor::release_hold,
        api_floor::transfer,
        api_cagnotte::table_cagnotte,
        api_cagnotte::close_session,
        api_cagnotte::list_dues,
        api_cagnotte::collect,
        api_cagnotte::exempt,
        api_cagnotte::tip,
        api_cagnotte::drop_box,
        api_cagnotte::commission,
        api_cagnotte::end_shift,
        api_cagnotte::reports,
        api_table::table_side_view,
        api_table::acknowledge,
        api_table::seat_with_buyin,
        api_table::chips,
        api_table::count,
        api_table::cash_out,
        api_table::transfer_with_stack,
        api_table::away,
        api_table::back,
        api_table::missed_blind,
        api_table::blinds_settled,
        api_table::extend_absence,
        api_table::hand_flags,
        api_table::start_removal,
        api_table::list_custody,
        api_table::confirm_removal,
        api_table::cancel_removal,
        api_table::resolve_custody,
        api_table::new_hand,
        api_table::request_service,
        api_table::list_service_requests,
        api_table::handle_service,
        api_table::list_floor_messages,
        api_table::send_floor_message,
        api_table::floor_message_seen,
        api_messages::list_messages,
        api_messages::retry_message,
        api_messages::revoke_links,
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
        (name = "test", description = "The test clock: only when the server runs with CARDROOM_TEST_CLOCK=1"),
    )
)]
pub struct ApiDoc;

/// The document as served: without the test-clock paths when that setting is off.
pub fn spec_json(test_clock: bool) -> String {
    let mut doc = ApiDoc::openapi();
    if !test_clock {
        doc.paths
            .paths
            .retain(|p, _| !p.starts_with("/api/v1/test/"));
        if let Some(tags) = doc.tags.as_mut() {
            tags.retain(|t| t.name != "test");
        }
    }
    let mut json = match serde_json::to_value(&doc) {
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
