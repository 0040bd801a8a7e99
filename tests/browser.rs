//! The real-browser tests, in one binary: headless Chromium driven through chromedriver
//! (WebDriver) against the real `cardroom serve` binary, each test on its own fresh database.
//! One module per screen or journey (the registry, the floor board, the tablet, the player's
//! page, the reports, …); the shared launchers and probes are `support/browser.rs`.
//!
//! Without chromedriver each test is skipped, unless `CARDROOM_REQUIRE_BROWSER=1` (set by
//! `tests/run.sh`), which makes a missing browser a failure. Screenshots go to
//! `target/browser-*.png`.

#[path = "support/app.rs"]
mod app;
#[path = "support/browser.rs"]
mod browser_support;

#[path = "browser/board.rs"]
mod board;
#[path = "browser/buttons.rs"]
mod buttons;
#[path = "browser/calls.rs"]
mod calls;
#[path = "browser/dealers.rs"]
mod dealers;
#[path = "browser/floor.rs"]
mod floor;
#[path = "browser/join.rs"]
mod join;
#[path = "browser/kiosk.rs"]
mod kiosk;
#[path = "browser/layout.rs"]
mod layout;
#[path = "browser/limits.rs"]
mod limits;
#[path = "browser/lobby.rs"]
mod lobby;
#[path = "browser/offline.rs"]
mod offline;
#[path = "browser/player.rs"]
mod player;
#[path = "browser/registry.rs"]
mod registry;
#[path = "browser/reports.rs"]
mod reports;
#[path = "browser/rulings.rs"]
mod rulings;
#[path = "browser/tablet.rs"]
mod tablet;
