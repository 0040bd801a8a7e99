//! Admin pages: room and rule profile, games, tables, staff, audit trail.

use actix_web::web;

pub fn routes(_cfg: &mut web::ServiceConfig) {}
