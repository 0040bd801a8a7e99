//! The player registry (BSOP 1, 3), exclusions (BSOP 2, 10, 11) and separations (BSOP 47).

mod eligibility;
mod exclusions;
mod form;
mod lists;
mod register;
mod search;
mod separations;

pub use eligibility::{banned_now, eligibility, eligibility_without_bans};
pub use exclusions::{ban, exclusions_of, lift_ban, parse_local, BanForm, ReasonForm};
pub use form::PlayerForm;
pub use lists::{join_lists, lists_of, ListJoin};
pub use register::{create, photo, set_photo, update};
pub use search::{by_document_number, count, find_typed, fold, get, search};
pub use separations::{remove_separation, separate, separations_of, SeparationForm};
