//! The special buttons and hands as the pages and the JSON show them.

use super::buttons::{in_play, kind_of, settings_of, table_big_blind};
use super::contributions::{contributed, macaca_of};
use super::hands::{current_hand, special_hand_at, special_of_hand};
use crate::db::models::{SpecialButtonRow, SpecialContributionRow, SpecialHandRow, TableRow};
use crate::db::schema::{hands, players, special_contributions, special_hands};
use crate::db::DbConn;
use crate::domain::ids::TableId;
use crate::domain::refusal::GeneralRefusal;
use crate::domain::special_buttons::{self as rules, Macaca, SpecialButton};
use crate::domain::table::TableState;
use crate::error::{AppError, AppResult};
use diesel::prelude::*;
use serde::Serialize;

/// One seat's contribution as shown.
#[derive(Debug, Clone, Serialize)]
pub struct ContributionLine {
    pub row: SpecialContributionRow,
    pub alias: String,
}

/// A special hand with its contributions and, for the Macaca, her chips.
#[derive(Debug, Clone, Serialize)]
pub struct HandView {
    pub row: SpecialHandRow,
    /// The table's hand number.
    pub number: i32,
    pub contributions: Vec<ContributionLine>,
    /// What the seats taking part put (minor units).
    pub total: i64,
    /// BSOP 116: the Macaca's chips, stake and what waits aside (as of now).
    pub macaca: Option<Macaca>,
    /// Being played (the table's current hand): the dealer may still mark seats and record
    /// the Macaca's result.
    pub current: bool,
}

impl HandView {
    pub fn kind(&self) -> &str {
        self.row.kind.as_str()
    }
    pub fn is_macaca(&self) -> bool {
        self.row.kind == SpecialButton::Macaca
    }
    /// How many seats take part.
    pub fn players(&self) -> usize {
        self.contributions
            .iter()
            .filter(|c| c.row.took_part)
            .count()
    }
    /// BSOP 116: the Macaca plays her own chips (nobody contributes).
    pub fn plays_own_chips(&self) -> bool {
        self.is_macaca() && !Macaca::is_new(self.row.bank_before)
    }
    /// The catalog key saying what each player puts ({ $amount }).
    pub fn each_key(&self) -> &'static str {
        if self.is_macaca() {
            "buttons-each-macaca"
        } else {
            "buttons-each-pot"
        }
    }
    /// The rule of its game.
    pub fn rule(&self) -> &'static str {
        self.row.kind.rule()
    }
}

/// A special hand as shown.
pub fn hand_view(conn: &mut DbConn, s: SpecialHandRow) -> AppResult<HandView> {
    let rows: Vec<(SpecialContributionRow, String)> = special_contributions::table
        .inner_join(players::table)
        .filter(special_contributions::special_hand_id.eq(s.id))
        .order(special_contributions::seat_no.asc())
        .select((SpecialContributionRow::as_select(), players::alias))
        .load(conn)?;
    let plain: Vec<SpecialContributionRow> = rows.iter().map(|(c, _)| c.clone()).collect();
    let total = contributed(&plain)?;
    let macaca = if s.kind == SpecialButton::Macaca {
        Some(macaca_of(&s, &plain)?)
    } else {
        None
    };
    let (number, current) = match current_hand(conn, s.table_id)? {
        Some(h) => {
            let own: i32 = hands::table
                .find(s.hand_id)
                .select(hands::number)
                .first(conn)?;
            (own, h.id == s.hand_id)
        }
        None => (0, false),
    };
    Ok(HandView {
        contributions: rows
            .into_iter()
            .map(|(row, alias)| ContributionLine { row, alias })
            .collect(),
        total,
        macaca,
        current,
        number,
        row: s,
    })
}

/// One special button of a table as shown.
#[derive(Debug, Clone, Serialize)]
pub struct ButtonView {
    pub kind: SpecialButton,
    /// The game's fixed contribution, in big blinds and in money.
    pub contribution_bb: i32,
    pub amount: i64,
    /// Where it is (none: not drawn yet at this opening of the table).
    pub row: Option<SpecialButtonRow>,
}

impl ButtonView {
    pub fn seat(&self) -> Option<i32> {
        self.row.as_ref().map(|r| r.seat_no)
    }
    pub fn pending(&self) -> bool {
        self.row.as_ref().is_some_and(|r| r.pending)
    }
    /// BSOP 116: the Macaca's chips kept for her next hand.
    pub fn bank(&self) -> i64 {
        self.row.as_ref().map(|r| r.bank).unwrap_or(0)
    }
    pub fn is_macaca(&self) -> bool {
        self.kind == SpecialButton::Macaca
    }
    /// The letter on the seat (C, M).
    pub fn letter(&self) -> &'static str {
        match self.kind {
            SpecialButton::Cucurucho => "C",
            SpecialButton::Macaca => "M",
        }
    }
}

/// A table's special buttons: the game's, where each is, and the hand being played when it
/// is special.
#[derive(Debug, Clone, Serialize)]
pub struct TableButtons {
    pub table_id: TableId,
    pub big_blind: i64,
    pub macaca_cap_bb: i32,
    /// The buttons the game runs (Cucurucho first).
    pub buttons: Vec<ButtonView>,
    /// The hand being played, when it is a special hand.
    pub hand: Option<HandView>,
    /// The table is open or running: a button may be drawn.
    pub may_draw: bool,
}

impl TableButtons {
    /// The buttons on a seat (for its marker).
    pub fn at_seat(&self, seat: &i32) -> Vec<&ButtonView> {
        self.buttons
            .iter()
            .filter(|b| b.seat() == Some(*seat))
            .collect()
    }
}

/// The table's special buttons, or `None` when its game runs none.
pub fn of_table(conn: &mut DbConn, t: &TableRow) -> AppResult<Option<TableButtons>> {
    let Some(game_id) = t.game_id else {
        return Ok(None);
    };
    let g = crate::services::games::get_game(conn, game_id)?;
    let settings = settings_of(&g);
    if !settings.cucurucho && !settings.macaca {
        return Ok(None);
    }
    let bb = table_big_blind(conn, t)?;
    let rows = in_play(conn, t)?;
    let mut buttons = Vec::new();
    for kind in SpecialButton::ALL {
        if !settings.runs(*kind) {
            continue;
        }
        let bbs = settings.contribution_bb(*kind);
        buttons.push(ButtonView {
            kind: *kind,
            contribution_bb: bbs,
            amount: rules::in_big_blinds(bb, bbs)
                .map_err(|_| AppError::from(GeneralRefusal::MoneyOverflow))?,
            row: rows.iter().find(|b| kind_of(b) == Some(*kind)).cloned(),
        });
    }
    let hand = match current_hand(conn, t.id)? {
        Some(h) => match special_of_hand(conn, h.id)? {
            Some(s) => Some(hand_view(conn, s)?),
            None => None,
        },
        None => None,
    };
    Ok(Some(TableButtons {
        table_id: t.id,
        big_blind: bb,
        macaca_cap_bb: settings.macaca_cap_bb,
        buttons,
        hand,
        may_draw: matches!(t.state, TableState::Open | TableState::Running),
    }))
}

/// The table's special hands, newest first (at most `limit`).
pub fn hands_of(conn: &mut DbConn, table_id: TableId, limit: i64) -> AppResult<Vec<HandView>> {
    let rows: Vec<SpecialHandRow> = special_hands::table
        .filter(special_hands::table_id.eq(table_id))
        .order(special_hands::id.desc())
        .limit(limit)
        .select(SpecialHandRow::as_select())
        .load(conn)?;
    rows.into_iter().map(|s| hand_view(conn, s)).collect()
}

/// The special hand of a table by id, as shown (404 when it is another table's).
pub fn hand_at(conn: &mut DbConn, table_id: TableId, special_hand_id: i64) -> AppResult<HandView> {
    let s = special_hand_at(conn, table_id, special_hand_id)?;
    hand_view(conn, s)
}
