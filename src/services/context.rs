//! Who acts, when, and in which room: what every change to the room starts from.
//!
//! A request (or the scheduler) knows who acts and when ([`Acting`]); the room is read inside
//! the write's transaction, so the action sees the room as it is when its turn comes
//! ([`Acting::in_room`] gives the whole [`Act`]). A service function takes the `Act` plus what
//! the action is about.

use crate::db::audit::Actor;
use crate::db::DbConn;
use crate::domain::profile::RuleProfile;
use crate::error::AppResult;
use crate::services::room::{self, Room};
use chrono::{DateTime, Utc};
use chrono_tz::Tz;

/// Who acts and when, before the room is read.
#[derive(Debug, Clone)]
pub struct Acting {
    pub now: DateTime<Utc>,
    pub actor: Actor,
}

impl Acting {
    pub fn new(now: DateTime<Utc>, actor: Actor) -> Acting {
        Acting { now, actor }
    }

    /// The room itself (start-up, the scheduler's timers).
    pub fn system(now: DateTime<Utc>) -> Acting {
        Acting::new(now, Actor::system())
    }

    /// The whole context, with the room as this transaction reads it.
    pub fn in_room(self, conn: &mut DbConn) -> AppResult<Act> {
        let room = room::get(conn)?;
        Ok(self.with_room(room))
    }

    /// The whole context, with a room already read in this transaction.
    pub fn with_room(self, room: Room) -> Act {
        Act {
            now: self.now,
            actor: self.actor,
            room,
        }
    }
}

/// One action's context: who acts, when, and the room (its zone and rule profile).
#[derive(Debug, Clone)]
pub struct Act {
    pub now: DateTime<Utc>,
    pub actor: Actor,
    pub room: Room,
}

impl Act {
    /// The room's time zone: what "today" and the times shown mean.
    pub fn tz(&self) -> Tz {
        self.room.tz
    }

    /// The room's rule profile (the house rules in force).
    pub fn profile(&self) -> &RuleProfile {
        &self.room.profile
    }

    /// The same action done by someone else (the room itself finishing what a person
    /// started, e.g. a table closed by the rules after a player left).
    pub fn by(&self, actor: Actor) -> Act {
        Act {
            actor,
            ..self.clone()
        }
    }
}
