//! What a call or a seating checks about a player, read once (BSOP 1-3, 10, 46, 47, 55),
//! and the refusal that names why a player was passed over.

use super::*;
use crate::domain::ids::PlayerId;
use crate::domain::refusal::{CallRefusal, ListRefusal, SeatRefusal};

/// What calling or seating a player asks the database about them first, in one statement
/// with their row ([`player_checks`]): an open seat call (other than `except_call`), a seat
/// held (BSOP 46), and more (statements per call and per seating). The `has_…`
/// answers only tell whether a later check has anything to read: a player with no
/// exclusion, no separation and no must-move refusal on record (nearly everyone) is checked
/// without reading those tables again, and the checks give the same answers as when they
/// read them (see [`player_may_sit_row`], [`barred_from_table`], [`refuse_before_rejoin`]).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct PlayerChecks {
    /// An open seat call (other than the one being answered).
    pub called: bool,
    /// BSOP 46: a seat held now.
    pub seated: bool,
    /// A seat preference stated.
    pub has_pref: bool,
    /// Any exclusion on record (in force or not).
    pub has_bans: bool,
    /// A separation in force (BSOP 47).
    pub has_separations: bool,
    /// Any must-move refusal on record (BSOP 55).
    pub has_refusals: bool,
}

/// The player's row and [`PlayerChecks`], in one statement (`NotFound` for no such player).
pub(super) fn player_checks(
    conn: &mut DbConn,
    player_id: PlayerId,
    except_call: Option<i64>,
) -> AppResult<(PlayerRow, PlayerChecks)> {
    use diesel::dsl::exists;
    let (row, called, seated, has_pref, has_bans, has_separations, has_refusals) =
        crate::native!(conn, |dbc| players::table
            .find(player_id)
            .select((
                PlayerRow::as_select(),
                exists(
                    seat_calls::table
                        .filter(seat_calls::player_id.eq(player_id))
                        .filter(call_open!())
                        .filter(seat_calls::id.ne(except_call.unwrap_or(-1)))
                ),
                exists(
                    seatings::table
                        .filter(seatings::player_id.eq(player_id))
                        .filter(seatings::left_at.is_null())
                ),
                exists(seat_preferences::table.filter(seat_preferences::player_id.eq(player_id))),
                exists(
                    crate::db::schema::exclusions::table
                        .filter(crate::db::schema::exclusions::player_id.eq(player_id))
                ),
                exists(
                    separations::table
                        .filter(separations::removed_at.is_null())
                        .filter(
                            separations::player_a
                                .eq(player_id)
                                .or(separations::player_b.eq(player_id))
                        )
                ),
                exists(
                    must_move_refusals::table.filter(must_move_refusals::player_id.eq(player_id))
                )
            ))
            .first::<(PlayerRow, bool, bool, bool, bool, bool, bool)>(dbc))?;
    Ok((
        row,
        PlayerChecks {
            called,
            seated,
            has_pref,
            has_bans,
            has_separations,
            has_refusals,
        },
    ))
}

pub(super) fn pass_over_error(
    p: PassOver,
    conn: &mut DbConn,
    now: DateTime<Utc>,
    tz: Tz,
    player_id: PlayerId,
) -> AppResult<AppError> {
    Ok(match p {
        PassOver::Ineligible => {
            let pl = registry::get(conn, player_id)?;
            ineligible_error(&registry::eligibility(conn, &pl, now, tz)?)
        }
        PassOver::AlreadySeated => AppError::from(SeatRefusal::AlreadySeated),
        PassOver::Separated => AppError::from(SeatRefusal::SeparatedAtTable),
        PassOver::AlreadyCalled => AppError::from(CallRefusal::AlreadyCalled),
        PassOver::Lapsed => AppError::from(ListRefusal::CallInLapsed),
        PassOver::WaitsForSeat => AppError::from(SeatRefusal::WaitsForPreferredSeat),
    })
}
