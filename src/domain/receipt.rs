//! What a player takes away when cashing out: the stack counted at the table, what was bought
//! in, how long the player played, and the result.
//!
//! PT-ONL 65-67: «no final da sessão» the player sees the totals bought in and won or lost. The
//! tablet shows it before the cash-out is confirmed and after it is done; the player's record
//! keeps it.

use super::money::{self, Overflow};
use chrono::{DateTime, Utc};
use serde::Serialize;

/// A cash-out's receipt. Amounts are minor units; `result` is `stack - bought_in` (a loss is
/// negative). `minutes` is the whole minutes played, from the start of play in the game (a
/// player moved to another table keeps their time, BSOP 27) to the cash-out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Receipt {
    pub stack: i64,
    pub bought_in: i64,
    pub minutes: i64,
    pub result: i64,
}

/// The receipt of a stack cashed out at `until` after play since `since`; [`Overflow`] only if
/// the difference does not fit i64, which bounded amounts (`money::check_amount`) never
/// reach. A clock that went backwards counts as no time at all.
pub fn receipt(
    stack: i64,
    bought_in: i64,
    since: DateTime<Utc>,
    until: DateTime<Utc>,
) -> Result<Receipt, Overflow> {
    let result = money::sub(stack, bought_in)?;
    let minutes = (until - since).num_minutes().max(0);
    Ok(Receipt {
        stack,
        bought_in,
        minutes,
        result,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;
    use proptest::prelude::*;

    fn at(h: u32, m: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2024, 3, 1, h, m, 0).unwrap()
    }

    #[test]
    fn a_winner_a_loser_and_the_time_played() {
        let r = receipt(84_000, 50_000, at(20, 0), at(22, 30)).unwrap();
        assert_eq!(r.result, 34_000);
        assert_eq!(r.minutes, 150);
        let r = receipt(0, 20_000, at(20, 0), at(20, 59)).unwrap();
        assert_eq!(r.result, -20_000);
        assert_eq!(r.minutes, 59);
    }

    #[test]
    fn a_clock_that_went_back_counts_no_time() {
        assert_eq!(receipt(1, 1, at(22, 0), at(21, 0)).unwrap().minutes, 0);
    }

    #[test]
    fn an_unbounded_difference_is_no_receipt() {
        assert!(receipt(i64::MIN, 1, at(20, 0), at(21, 0)).is_err());
    }

    proptest! {
        /// The stack is always what was bought in plus the result.
        #[test]
        fn stack_is_bought_in_plus_result(stack in 0i64..=crate::domain::money::STACK_CEILING,
                                          bought in 0i64..=crate::domain::money::STACK_CEILING) {
            let r = receipt(stack, bought, at(20, 0), at(21, 0)).unwrap();
            prop_assert_eq!(r.bought_in + r.result, r.stack);
        }
    }
}
