//! The floor's JSON API under `/api/v1`: waiting lists, seat calls, seating, tables.

use actix_web::web;

/// Registered inside the `/api/v1` scope.
pub fn routes(_cfg: &mut web::ServiceConfig) {}
