//! The JSON API under `/api/v1`.

use actix_web::web;

pub fn routes(_cfg: &mut web::ServiceConfig, _test_clock: bool) {}
