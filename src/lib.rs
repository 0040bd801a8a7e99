//! Cardroom: the back-office of a live poker cash-game room.
//!
//! `domain` holds the rules as pure code; `db` the storage; `services` the actions (one
//! transaction each, audited); `web` the thin HTML and JSON handlers.

pub mod app;
pub mod audit_seal;
pub mod auth;
pub mod backup;
pub mod config;
pub mod db;
pub mod demo;
pub mod domain;
pub mod error;
pub mod i18n;
pub mod jwt;
pub mod metrics;
pub mod notify;
pub mod push;
pub mod services;
pub mod shutdown;
pub mod web;
