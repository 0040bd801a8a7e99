//! Seat preferences: the seats a player would rather have, the tables they
//! would rather avoid, a seat for accessibility needs (BSOP 45), and whether they keep their
//! place and wait for such a seat rather than take another.
//!
//! The list order never changes for a preference (PT-2007 12, BSOP 51): a player who waits for
//! a preferred seat is passed over *keeping their place*, at most the room's number of times
//! (`pref_max_passes`); then they are called like anyone. A preference only ever changes
//! *which* free seat of the table a called player is offered, and lets them wait.

use super::error::{Errors, FieldError};

/// The most seats a table has (a table has at most 11 seats with the extra one, BSOP 50).
pub const MAX_SEAT: i32 = 11;
/// Table numbers a player may name (the admin's range for a table's number).
pub const MAX_TABLE_NUMBER: i32 = 999;
/// At most this many seats or tables in a preference: more says nothing a floor can use.
pub const MAX_ITEMS: usize = 12;

/// What a player asked for. Empty lists mean "any".
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct SeatPreference {
    /// Seat numbers the player would rather have (any table).
    pub seats: Vec<i32>,
    /// Table numbers the player would rather not play at.
    pub avoid_tables: Vec<i32>,
    /// BSOP 45: the player needs a seat the room keeps for accessibility needs.
    pub accessible: bool,
    /// Keep my place and wait for a matching seat rather than take another.
    pub wait_for_match: bool,
}

impl SeatPreference {
    /// No preference at all: every seat fits.
    pub fn is_empty(&self) -> bool {
        self.seats.is_empty() && self.avoid_tables.is_empty() && !self.accessible
    }

    /// Whether this seat of this table fits the preference. `accessible_seats` are the table's
    /// seats kept for accessibility needs (BSOP 45).
    pub fn accepts(&self, table_number: i32, seat: i32, accessible_seats: &[i32]) -> bool {
        !self.avoid_tables.contains(&table_number)
            && (self.seats.is_empty() || self.seats.contains(&seat))
            && (!self.accessible || accessible_seats.contains(&seat))
    }
}

/// How a free seat fits a called player's preference.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fit {
    /// The player stated nothing: any seat.
    Any,
    /// This very seat fits.
    Matches,
    /// This seat does not, but another free seat of the same table does: offer that one.
    OtherSeat(i32),
    /// No free seat of this table fits.
    NoMatch,
}

/// "a call offers a seat that matches when one is free". For the seat the floor
/// is filling (`seat`) at table `table_number`, with the table's other free seats (`free`,
/// neither taken, held nor called) and its accessibility seats.
/// Among several fitting free seats, the one the player listed first is offered.
pub fn fit(
    pref: &SeatPreference,
    table_number: i32,
    seat: i32,
    free: &[i32],
    accessible_seats: &[i32],
) -> Fit {
    if pref.is_empty() {
        return Fit::Any;
    }
    if pref.accepts(table_number, seat, accessible_seats) {
        return Fit::Matches;
    }
    let fits = |s: &i32| *s != seat && pref.accepts(table_number, *s, accessible_seats);
    // The player's own order first (they listed seat 1 before seat 10), then by number.
    pref.seats
        .iter()
        .find(|s| free.contains(s) && fits(s))
        .or_else(|| {
            let mut f: Vec<&i32> = free.iter().filter(|s| fits(s)).collect();
            f.sort();
            f.first().copied()
        })
        .map_or(Fit::NoMatch, |s| Fit::OtherSeat(*s))
}

/// Whether a listed player whose preference no free seat fits is passed over (keeping their
/// place) rather than called: only when they asked to wait, and fewer than the room's
/// `max_passes` offers have gone by them.
pub fn waits_for_match(pref: &SeatPreference, passes_so_far: i32, max_passes: i32) -> bool {
    pref.wait_for_match && !pref.is_empty() && passes_so_far < max_passes
}

/// Reads "1, 2 10" (commas, spaces or semicolons) into distinct numbers in the order given.
/// Refuses anything that is not a number in `1..=max`, and more than [`MAX_ITEMS`].
pub fn parse_numbers(field: &str, text: &str, max: i32) -> Result<Vec<i32>, FieldError> {
    let mut out: Vec<i32> = Vec::new();
    for part in text
        .split([',', ' ', ';', '\t', '\n', '\r'])
        .map(str::trim)
        .filter(|p| !p.is_empty())
    {
        let n: i32 = part.parse().map_err(|_| {
            FieldError::new(field, "err-pref-number")
                .arg("value", part.chars().take(20).collect::<String>())
                .arg("max", max)
        })?;
        if !(1..=max).contains(&n) {
            return Err(FieldError::new(field, "err-pref-number")
                .arg("value", n)
                .arg("max", max));
        }
        if !out.contains(&n) {
            out.push(n);
        }
    }
    if out.len() > MAX_ITEMS {
        return Err(FieldError::new(field, "err-pref-too-many").arg("max", MAX_ITEMS));
    }
    Ok(out)
}

/// Writes numbers back as "1, 2, 10" (stored and shown the same way).
pub fn format_numbers(v: &[i32]) -> String {
    v.iter()
        .map(|n| n.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A preference from the typed fields, every refusal collected (the form keeps what was typed).
pub fn parse(
    seats: &str,
    avoid_tables: &str,
    accessible: bool,
    wait_for_match: bool,
) -> Result<SeatPreference, Vec<FieldError>> {
    let mut e = Errors::default();
    let seats = parse_numbers("seats", seats, MAX_SEAT)
        .map_err(|x| e.0.push(x))
        .unwrap_or_default();
    let avoid_tables = parse_numbers("avoid_tables", avoid_tables, MAX_TABLE_NUMBER)
        .map_err(|x| e.0.push(x))
        .unwrap_or_default();
    e.into_result(SeatPreference {
        seats,
        avoid_tables,
        accessible,
        wait_for_match,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn pref(seats: &[i32], avoid: &[i32], accessible: bool) -> SeatPreference {
        SeatPreference {
            seats: seats.to_vec(),
            avoid_tables: avoid.to_vec(),
            accessible,
            wait_for_match: true,
        }
    }

    #[test]
    fn no_preference_fits_any_seat() {
        assert_eq!(fit(&SeatPreference::default(), 3, 5, &[5], &[]), Fit::Any);
        // Waiting means nothing without a preference.
        let p = SeatPreference {
            wait_for_match: true,
            ..Default::default()
        };
        assert!(!waits_for_match(&p, 0, 2));
    }

    #[test]
    fn a_free_preferred_seat_of_the_table_is_offered_in_the_players_order() {
        let p = pref(&[10, 1], &[], false);
        assert_eq!(fit(&p, 3, 1, &[1, 10], &[]), Fit::Matches);
        assert_eq!(fit(&p, 3, 5, &[1, 5, 10], &[]), Fit::OtherSeat(10));
        assert_eq!(fit(&p, 3, 5, &[1, 5], &[]), Fit::OtherSeat(1));
        assert_eq!(fit(&p, 3, 5, &[5, 6], &[]), Fit::NoMatch);
    }

    #[test]
    fn an_avoided_table_fits_no_seat() {
        let p = pref(&[], &[3], false);
        assert_eq!(fit(&p, 3, 5, &[1, 5], &[]), Fit::NoMatch);
        assert_eq!(fit(&p, 4, 5, &[5], &[]), Fit::Matches);
    }

    #[test]
    fn bsop_45_an_accessibility_need_takes_only_the_tables_accessible_seats() {
        let p = pref(&[], &[], true);
        assert_eq!(fit(&p, 2, 4, &[4], &[]), Fit::NoMatch);
        assert_eq!(fit(&p, 2, 4, &[1, 4], &[1]), Fit::OtherSeat(1));
        assert_eq!(fit(&p, 2, 1, &[1, 4], &[1]), Fit::Matches);
    }

    #[test]
    fn waiting_is_bounded_by_the_rooms_passes() {
        let p = pref(&[1], &[], false);
        assert!(waits_for_match(&p, 0, 2));
        assert!(waits_for_match(&p, 1, 2));
        assert!(!waits_for_match(&p, 2, 2));
        assert!(!waits_for_match(&p, 0, 0));
        let no_wait = SeatPreference {
            wait_for_match: false,
            ..p
        };
        assert!(!waits_for_match(&no_wait, 0, 2));
    }

    #[test]
    fn numbers_are_read_leniently_and_refused_clearly() {
        assert_eq!(
            parse_numbers("seats", " 1, 2 ;10 2", 11),
            Ok(vec![1, 2, 10])
        );
        assert_eq!(parse_numbers("seats", "", 11), Ok(vec![]));
        let e = parse_numbers("seats", "1, x", 11).unwrap_err();
        assert_eq!((e.field.as_str(), e.key), ("seats", "err-pref-number"));
        assert!(parse_numbers("seats", "12", 11).is_err());
        assert!(parse_numbers("seats", "0", 11).is_err());
        let many = (1..=13)
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join(",");
        assert_eq!(
            parse_numbers("avoid_tables", &many, 999).unwrap_err().key,
            "err-pref-too-many"
        );
        let both = parse("a", "0", false, false).unwrap_err();
        assert_eq!(both.len(), 2);
        assert_eq!(format_numbers(&[1, 2, 10]), "1, 2, 10");
    }

    proptest! {
        /// The seat offered always fits, is free, and is the asked seat whenever that fits.
        #[test]
        fn an_offered_seat_always_fits_and_is_free(
            seats in proptest::collection::vec(1i32..=10, 0..4),
            avoid in proptest::collection::vec(1i32..=4, 0..2),
            accessible in any::<bool>(),
            table in 1i32..=4,
            seat in 1i32..=10,
            others in proptest::collection::vec(1i32..=10, 0..6),
            acc in proptest::collection::vec(1i32..=10, 0..3),
        ) {
            let p = pref(&seats, &avoid, accessible);
            let mut free = others.clone();
            free.push(seat);
            match fit(&p, table, seat, &free, &acc) {
                Fit::Any => prop_assert!(p.is_empty()),
                Fit::Matches => prop_assert!(p.accepts(table, seat, &acc)),
                Fit::OtherSeat(s) => {
                    prop_assert!(!p.accepts(table, seat, &acc));
                    prop_assert!(s != seat && free.contains(&s) && p.accepts(table, s, &acc));
                }
                Fit::NoMatch => prop_assert!(free.iter().all(|s| !p.accepts(table, *s, &acc))),
            }
        }

        /// Formatting and reading back give the same numbers.
        #[test]
        fn numbers_round_trip(v in proptest::collection::vec(1i32..=11, 0..12)) {
            let mut distinct: Vec<i32> = Vec::new();
            for n in v { if !distinct.contains(&n) { distinct.push(n); } }
            prop_assert_eq!(parse_numbers("seats", &format_numbers(&distinct), 11), Ok(distinct));
        }
    }
}
