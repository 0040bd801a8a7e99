//! The room's rules as pure code: no web framework, no database.
//!
//! Functions here take the state they need, the time (from a [`clock::Clock`]) and, for
//! draws, a seeded random source; they return decisions or typed errors. Each rule cites
//! its source (`PT-2007 24`, `BSOP 38`, …) as written in `shared/RULES.md`.

pub mod age;
pub mod audit;
pub mod audit_seal;
pub mod cagnotte;
pub mod call_alert;
pub mod cards;
pub mod clock;
pub mod dealers;
pub mod draw;
pub mod eligibility;
pub mod enums;
pub mod error;
pub mod game;
pub mod ids;
pub mod kiosk;
pub mod limits;
pub mod login_throttle;
pub mod money;
pub mod player;
pub mod profile;
pub mod receipt;
pub mod refusal;
pub mod remote_join;
pub mod ruling;
pub mod seat_pref;
pub mod seat_rules;
pub mod special_buttons;
pub mod staff;
pub mod states;
pub mod table;
pub mod tap;
pub mod text;
pub mod theme;
pub mod waitlist;
pub mod waits;

pub use error::{FieldError, Problem};
