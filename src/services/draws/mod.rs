//! Recorded draws: the start-of-game seat draw (PT-2007 11) and the button (BSOP 48). Each
//! draw is stored with its seed, inputs and result, and can be replayed to settle a dispute.

mod button;
mod start;
mod stored;
mod view;

pub use button::button;
pub use start::{start_game, start_game_with_extra, start_tables_by_suit, StartDraw};
pub use stored::{
    get, latest_by_table, of_table, record, replay, side_by_side, who_played_before, Replay,
    SideBySide,
};
pub use view::{view, CardFace, DrawParticipant, DrawSuitTable, DrawView};
