//! The service layer: one function per action, shared by the HTML pages and the JSON API.
//!
//! Each action opens (or runs inside) a write transaction, loads the state the rule needs,
//! asks the pure `domain` function with `now` from the clock, and writes the result and its
//! audit record together.

pub mod audit;
pub mod cagnotte;
pub mod dealer_scope;
pub mod draws;
pub mod floor;
pub mod games;
pub mod photo;
pub mod player_page;
pub mod players;
pub mod reports;
pub mod room;
pub mod sessions;
pub mod staff;
pub mod table_side;
pub mod tablets;

use crate::domain::Problem;
use crate::error::AppError;

/// A conflict with a message key.
pub fn conflict(key: &'static str) -> AppError {
    AppError::Conflict(Problem::new(key))
}
