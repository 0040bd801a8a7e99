//! Waiting lists (PT-2007 8a, 12; BSOP 43, 44, 49, 51): order, positions (the waits are
//! `domain::waits`), call-ins, and who is called for a free seat.

use crate::domain::ids::PlayerId;
use chrono::{DateTime, Utc};
use serde::Serialize;

/// One player on one list, as the rules need it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub id: i64,
    pub player_id: PlayerId,
    /// Smaller first. Keys are spaced so a reorder rarely renumbers everything.
    pub order_key: i64,
    pub joined_at: DateTime<Utc>,
    /// A call-in (telephone) entry not yet checked in lapses at this time.
    pub call_in_expires_at: Option<DateTime<Utc>>,
    /// Already called for a seat (waiting for the answer): keeps its place but is not
    /// called again.
    pub called: bool,
}

impl Entry {
    /// A call-in that was not checked in by its deadline no longer counts.
    pub fn lapsed(&self, now: DateTime<Utc>) -> bool {
        self.call_in_expires_at.is_some_and(|t| now >= t)
    }
}

/// Gap between consecutive order keys.
pub const KEY_STEP: i64 = 1024;

/// The entries in list order (by key, then by joining time, then id: a total order).
pub fn ordered(entries: &[Entry]) -> Vec<&Entry> {
    let mut v: Vec<&Entry> = entries.iter().collect();
    v.sort_by_key(|e| (e.order_key, e.joined_at, e.id));
    v
}

/// The key for a player joining at the bottom.
pub fn key_at_bottom(entries: &[Entry]) -> i64 {
    entries
        .iter()
        .map(|e| e.order_key)
        .max()
        .map_or(KEY_STEP, |k| k + KEY_STEP)
}

/// A player's place on a list: 1 = next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Place {
    pub position: usize,
    pub ahead: usize,
    pub of: usize,
}

/// PT-2007 8a: the position of every player on the list, computed one way for every page,
/// the API and the player's link. Lapsed call-ins are left out.
pub fn positions(entries: &[Entry], now: DateTime<Utc>) -> Vec<(i64, Place)> {
    let live: Vec<&Entry> = ordered(entries)
        .into_iter()
        .filter(|e| !e.lapsed(now))
        .collect();
    let n = live.len();
    live.iter()
        .enumerate()
        .map(|(i, e)| {
            (
                e.id,
                Place {
                    position: i + 1,
                    ahead: i,
                    of: n,
                },
            )
        })
        .collect()
}

pub fn place_of(entries: &[Entry], entry_id: i64, now: DateTime<Utc>) -> Option<Place> {
    positions(entries, now)
        .into_iter()
        .find(|(id, _)| *id == entry_id)
        .map(|(_, p)| p)
}

/// Moves an entry to a new position (1-based; clamped to the list), returning the new keys
/// of the entries that change. The relative order of everyone else is kept.
pub fn reorder(entries: &[Entry], entry_id: i64, new_position: usize) -> Vec<(i64, i64)> {
    let mut order: Vec<&Entry> = ordered(entries);
    let Some(from) = order.iter().position(|e| e.id == entry_id) else {
        return Vec::new();
    };
    let moving = order.remove(from);
    let to = new_position.clamp(1, order.len() + 1) - 1;
    order.insert(to, moving);
    // Renumber with even gaps from the list's smallest key: the keys stay where the list
    // already is (they never fall below those of players seated from it earlier).
    let base = order.iter().map(|e| e.order_key).min().unwrap_or(KEY_STEP);
    order
        .iter()
        .enumerate()
        .filter_map(|(i, e)| {
            let key = base + i as i64 * KEY_STEP;
            (key != e.order_key).then_some((e.id, key))
        })
        .collect()
}

/// An interest list (no running table for the game): how many more players would start one.
pub fn players_needed(on_list: usize, min_players: i32) -> usize {
    (min_players.max(0) as usize).saturating_sub(on_list)
}

/// Where a free seat goes, in the order of PT-2007 12 and BSOP 51.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "source", rename_all = "snake_case")]
pub enum Candidate {
    /// A player already at this table who asked to change seat (first asked, first served).
    SeatChange { player_id: PlayerId },
    /// A must-move player due to move into the main game (BSOP 55, 57).
    MustMove { player_id: PlayerId },
    /// The next player on the waiting list.
    List { entry_id: i64, player_id: PlayerId },
}

/// Why a listed player is passed over for this seat (they keep their place).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PassOver {
    /// BSOP 1, 2, 3: not eligible (photo, ID, ban, age).
    Ineligible,
    /// BSOP 47: must never sit with someone at this table.
    Separated,
    /// BSOP 46: already holds a seat somewhere.
    AlreadySeated,
    /// Already called and the answer is pending.
    AlreadyCalled,
    /// A call-in whose time ran out.
    Lapsed,
    /// No free seat of this table fits the player's seat preference and they
    /// asked to keep their place and wait for one (at most the room's `pref_max_passes`).
    WaitsForSeat,
}

/// PT-2007 12, BSOP 51: for a free seat, first the players at this table who asked to
/// change seat (in the order they asked), then must-move players due now, then the list in
/// order. `pass_over` says, for a listed player, why they cannot take this seat now.
pub fn next_for_seat(
    seat_change_requests: &[(PlayerId, DateTime<Utc>)],
    must_move_due: &[PlayerId],
    list: &[Entry],
    now: DateTime<Utc>,
    pass_over: impl Fn(PlayerId) -> Option<PassOver>,
) -> Option<Candidate> {
    if let Some((p, _)) = seat_change_requests.iter().min_by_key(|(p, at)| (*at, *p)) {
        return Some(Candidate::SeatChange { player_id: *p });
    }
    if let Some(p) = must_move_due.first() {
        return Some(Candidate::MustMove { player_id: *p });
    }
    ordered(list)
        .into_iter()
        .find(|e| !e.called && !e.lapsed(now) && pass_over(e.player_id).is_none())
        .map(|e| Candidate::List {
            entry_id: e.id,
            player_id: e.player_id,
        })
}

/// What happens to a called player who did not answer in time (room setting).
pub fn after_expired_call(entries: &[Entry], entry_id: i64, remove: bool) -> Option<i64> {
    if remove {
        None
    } else {
        // Back to the bottom of the list.
        Some(key_at_bottom(
            &entries
                .iter()
                .filter(|e| e.id != entry_id)
                .cloned()
                .collect::<Vec<_>>(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{Duration, TimeZone};
    use proptest::prelude::*;

    fn t0() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 21, 20, 0, 0).unwrap()
    }

    fn entry(id: i64, key: i64) -> Entry {
        Entry {
            id,
            player_id: PlayerId(100 + id),
            order_key: key,
            joined_at: t0() + Duration::minutes(id),
            call_in_expires_at: None,
            called: false,
        }
    }

    #[test]
    fn pt2007_8a_positions_follow_the_list_order() {
        let l = vec![
            entry(1, 3 * KEY_STEP),
            entry(2, KEY_STEP),
            entry(3, 2 * KEY_STEP),
        ];
        let p = positions(&l, t0());
        assert_eq!(
            p.iter()
                .map(|(id, pl)| (*id, pl.position))
                .collect::<Vec<_>>(),
            vec![(2, 1), (3, 2), (1, 3)]
        );
        assert_eq!(
            place_of(&l, 1, t0()),
            Some(Place {
                position: 3,
                ahead: 2,
                of: 3
            })
        );
    }

    #[test]
    fn lapsed_call_ins_leave_the_count() {
        let mut l = vec![entry(1, KEY_STEP), entry(2, 2 * KEY_STEP)];
        l[0].call_in_expires_at = Some(t0() + Duration::minutes(30));
        assert_eq!(place_of(&l, 2, t0()).unwrap().position, 2);
        assert_eq!(
            place_of(&l, 2, t0() + Duration::minutes(30))
                .unwrap()
                .position,
            1
        );
        assert_eq!(place_of(&l, 1, t0() + Duration::minutes(30)), None);
    }

    #[test]
    fn reorder_moves_one_and_keeps_the_rest() {
        let l = vec![
            entry(1, KEY_STEP),
            entry(2, 2 * KEY_STEP),
            entry(3, 3 * KEY_STEP),
            entry(4, 4 * KEY_STEP),
        ];
        let changes = reorder(&l, 4, 1);
        let mut l2 = l.clone();
        for (id, k) in changes {
            l2.iter_mut().find(|e| e.id == id).unwrap().order_key = k;
        }
        assert_eq!(
            ordered(&l2).iter().map(|e| e.id).collect::<Vec<_>>(),
            vec![4, 1, 2, 3]
        );
    }

    #[test]
    fn interest_list_counts_players_needed_pt2007_24() {
        assert_eq!(players_needed(1, 4), 3);
        assert_eq!(players_needed(6, 4), 0);
    }

    #[test]
    fn pt2007_12_bsop_51_seat_changes_first_then_must_move_then_list() {
        let l = vec![entry(1, KEY_STEP), entry(2, 2 * KEY_STEP)];
        let none = |_| None;
        let changes = [
            (PlayerId(55), t0() + Duration::minutes(5)),
            (PlayerId(54), t0() + Duration::minutes(2)),
        ];
        assert_eq!(
            next_for_seat(&changes, &[PlayerId(77)], &l, t0(), none),
            Some(Candidate::SeatChange {
                player_id: PlayerId(54)
            })
        );
        assert_eq!(
            next_for_seat(&[], &[PlayerId(77)], &l, t0(), none),
            Some(Candidate::MustMove {
                player_id: PlayerId(77)
            })
        );
        assert_eq!(
            next_for_seat(&[], &[], &l, t0(), none),
            Some(Candidate::List {
                entry_id: 1,
                player_id: PlayerId(101)
            })
        );
    }

    #[test]
    fn bsop_47_separated_and_ineligible_players_keep_their_place_but_are_passed_over() {
        let mut l = vec![
            entry(1, KEY_STEP),
            entry(2, 2 * KEY_STEP),
            entry(3, 3 * KEY_STEP),
        ];
        l[1].called = true;
        let pass = |p: PlayerId| (p == PlayerId(101)).then_some(PassOver::Separated);
        assert_eq!(
            next_for_seat(&[], &[], &l, t0(), pass),
            Some(Candidate::List {
                entry_id: 3,
                player_id: PlayerId(103)
            })
        );
        assert_eq!(place_of(&l, 1, t0()).unwrap().position, 1);
    }

    #[test]
    fn an_expired_call_goes_to_the_bottom_or_off_the_list() {
        let l = vec![
            entry(1, KEY_STEP),
            entry(2, 2 * KEY_STEP),
            entry(3, 3 * KEY_STEP),
        ];
        assert_eq!(after_expired_call(&l, 1, false), Some(4 * KEY_STEP));
        assert_eq!(after_expired_call(&l, 1, true), None);
    }

    proptest! {
        /// Whatever the keys, positions are 1..=n with no gaps and no repeats.
        #[test]
        fn positions_are_a_permutation_without_gaps(keys in proptest::collection::vec(-1000i64..1000, 0..40), moves in proptest::collection::vec((0usize..40, 1usize..45), 0..10)) {
            let mut l: Vec<Entry> = keys.iter().enumerate().map(|(i, k)| entry(i as i64, *k)).collect();
            for (who, to) in moves {
                if l.is_empty() { break; }
                let id = l[who % l.len()].id;
                for (eid, k) in reorder(&l, id, to) {
                    l.iter_mut().find(|e| e.id == eid).unwrap().order_key = k;
                }
            }
            let mut pos: Vec<usize> = positions(&l, t0()).into_iter().map(|(_, p)| p.position).collect();
            pos.sort();
            prop_assert_eq!(pos, (1..=l.len()).collect::<Vec<_>>());
        }
    }
}
