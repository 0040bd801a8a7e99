//! The service layer: one function per action, shared by the HTML pages and the JSON API.
//!
//! Each action opens (or runs inside) a write transaction, loads the state the rule needs,
//! asks the pure `domain` function with `now` from the clock, and writes the result and its
//! audit record together.

pub mod audit;
pub mod cagnotte;
pub mod context;
pub mod dealer_scope;
pub mod dealers;
pub mod draws;
pub mod floor;
pub mod games;
pub mod join;
pub mod kiosks;
pub mod limits;
pub mod lookups;
pub mod pairing;
pub mod photo;
pub mod player_page;
pub mod players;
pub mod reports;
pub mod room;
pub mod rulings;
pub mod seat_prefs;
pub mod sessions;
pub mod special_buttons;
pub mod staff;
pub mod table_side;
pub mod tablets;
pub mod waits;

pub use context::{Act, Acting};

use crate::db::DbConn;
use crate::domain::money::{AmountRange, AMOUNT_RANGE_KEY};
use crate::domain::FieldError;
use crate::error::{AppError, AppResult};

/// Field refusals with the bounds of an amount outside its range (`err-amount-range`, see
/// [`crate::domain::money`]) said in the room's currency; other refusals unchanged (their
/// `min`/`max` may be counts, not money).
pub fn in_currency(errs: Vec<FieldError>, currency: &str) -> Vec<FieldError> {
    errs.into_iter()
        .map(|mut f| {
            if f.key == AMOUNT_RANGE_KEY {
                for (k, v) in f.args.iter_mut() {
                    if let (true, Ok(minor)) = (matches!(*k, "min" | "max"), v.parse::<i64>()) {
                        *v = crate::i18n::money(minor, currency);
                    }
                }
            }
            f
        })
        .collect()
}

/// `amount` typed in `field` must lie in `range`; else a 422 on that field with
/// the range in the room's currency (the room is read only then). Checked before anything is
/// written, so a refused amount changes nothing.
pub fn check_amount(
    conn: &mut DbConn,
    field: &str,
    range: AmountRange,
    amount: i64,
) -> AppResult<()> {
    let Err(p) = range.check(amount) else {
        return Ok(());
    };
    let currency = room::get(conn)?.currency;
    Err(AppError::Validation(in_currency(
        vec![FieldError::of(field, p)],
        &currency,
    )))
}
