//! HTTP tests on the real app (temp SQLite per test; with `CARDROOM_TEST_DB=postgres`, the
//! same tests on PostgreSQL).
// Setup writes its rows in plain transactions; clippy.toml keeps them out of the app.
#![allow(clippy::disallowed_methods)]

#[path = "support/app.rs"]
mod app;
#[path = "http/support.rs"]
mod support;

#[path = "http/admin.rs"]
mod admin;
#[path = "http/api.rs"]
mod api;
#[path = "http/audit_seal.rs"]
mod audit_seal;
#[path = "http/audit_seal_series.rs"]
mod audit_seal_series;
#[path = "http/authz.rs"]
mod authz;
#[path = "http/backups.rs"]
mod backups;
#[path = "http/board.rs"]
mod board;
#[path = "http/board_alarms.rs"]
mod board_alarms;
#[path = "http/cagnotte.rs"]
mod cagnotte;
#[path = "http/calls.rs"]
mod calls;
#[path = "http/concurrency_pg.rs"]
mod concurrency_pg;
#[path = "http/csv_exports.rs"]
mod csv_exports;
#[path = "http/dealer_push.rs"]
mod dealer_push;
#[path = "http/dealer_relief.rs"]
mod dealer_relief;
#[path = "http/dealer_report.rs"]
mod dealer_report;
#[path = "http/dealers.rs"]
mod dealers;
#[path = "http/draws.rs"]
mod draws;
#[path = "http/extra_seat.rs"]
mod extra_seat;
#[path = "http/floor.rs"]
mod floor;
#[path = "http/idempotency.rs"]
mod idempotency;
#[path = "http/invariants.rs"]
mod invariants;
#[path = "http/join.rs"]
mod join;
#[path = "http/kiosk.rs"]
mod kiosk;
#[path = "http/layers.rs"]
mod layers;
#[path = "http/limits.rs"]
mod limits;
#[path = "http/lobby.rs"]
mod lobby;
#[path = "http/loose_ends.rs"]
mod loose_ends;
#[path = "http/migrations.rs"]
mod migrations;
#[path = "http/money.rs"]
mod money;
#[path = "http/notify.rs"]
mod notify;
#[path = "http/observability.rs"]
mod observability;
#[path = "http/offline.rs"]
mod offline;
#[path = "http/openapi.rs"]
mod openapi;
#[path = "http/outage.rs"]
mod outage;
#[path = "http/pages.rs"]
mod pages;
#[path = "support/pg_cluster.rs"]
mod pg_cluster;
#[path = "http/player_link.rs"]
mod player_link;
#[path = "http/push.rs"]
mod push;
#[path = "http/registration.rs"]
mod registration;
#[path = "http/reports.rs"]
mod reports;
#[path = "http/retry_after.rs"]
mod retry_after;
#[path = "http/room_profile.rs"]
mod room_profile;
#[path = "http/rulings.rs"]
mod rulings;
#[path = "http/safe.rs"]
mod safe;
#[path = "http/seat_prefs.rs"]
mod seat_prefs;
#[path = "http/sessions.rs"]
mod sessions;
#[path = "http/special_buttons.rs"]
mod special_buttons;
#[path = "http/sqlite_night.rs"]
mod sqlite_night;
#[path = "http/table_side.rs"]
mod table_side;
#[path = "http/tablets.rs"]
mod tablets;
#[path = "http/text_input.rs"]
mod text_input;
#[path = "http/waits.rs"]
mod waits;
#[path = "http/writes.rs"]
mod writes;
