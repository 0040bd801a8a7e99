//! The floor's rulings in the JSON API (BSOP 16-22): a dealer or the floor asks for one at a
//! table, the floor holds a pot aside (BSOP 21), decides (final, BSOP 17) or corrects with a
//! later ruling; a second staff member confirms the chips a decision moves (BSOP 20, 21); the
//! incident log with its filters and its CSV file. Thin handlers over `services::rulings`: the
//! same rules, refusals and audit as the pages.

mod ask;
mod chips;
mod decide;
mod export;
mod log;
mod out;

pub use ask::*;
pub use chips::*;
pub use decide::*;
pub use export::*;
pub use log::*;
pub use out::*;

use chrono::{DateTime, Utc};
use utoipa_actix_web::service_config::ServiceConfig;

pub fn routes(cfg: &mut ServiceConfig) {
    cfg.service(ask_ruling)
        .service(list_rulings)
        .service(rulings_csv)
        .service(get_ruling)
        .service(hold_ruling_pot)
        .service(decide_ruling)
        .service(correct_ruling)
        .service(confirm_ruling_chips)
        .service(refuse_ruling_chips);
}

fn utc(t: chrono::NaiveDateTime) -> DateTime<Utc> {
    t.and_utc()
}
