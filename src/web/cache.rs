//! The players' pages built lately, kept by the process (`AppState::player_pages`) and served
//! again by the player's link pages (`web::pages::player_link`) while nothing was recorded.

use crate::services::player_page::PlayerView;
use crate::services::room::Room;
use chrono::{DateTime, Duration, Utc};
use std::collections::HashMap;
use std::sync::Mutex;

/// A player's page as built for one link: the view, the room, the live part rendered and
/// its ETag, and when it was built (the room's audit sequence number and the clock).
pub struct Built {
    pub(crate) seq: i64,
    pub(crate) at: DateTime<Utc>,
    pub(crate) view: PlayerView,
    pub(crate) room: Room,
    pub(crate) state: String,
    pub(crate) etag: String,
}

/// How long a built page is served again while nothing is recorded in the room: what
/// changes with the clock alone (minutes played, estimated waits) shows within this.
const FRESH_FOR: Duration = Duration::seconds(10);

/// The pages built lately, by link. A phone polls its page every few seconds and almost every
/// poll finds nothing changed: building the page again (link check, the player's lists,
/// places, calls, seat and day, ~10 statements, the template, the hash) only to answer 304
/// was the whole cost of the page. A built page is served again — to a poll (304 or the
/// same bytes) and to a reload (the page around it is rendered afresh, with the clock) —
/// while **the room's audit sequence number is unchanged** and for at most
/// [`FRESH_FOR`]: every change of state writes an audit record (a seat call, a seating, a
/// list change, an answer, a revoked link…), so anything that can change what the page
/// says, in this process or another one on the same database, makes the next request build
/// it again. The link's signature and expiry are still checked on every request; its
/// revocation is a recorded change. One statement per request when nothing changed.
#[derive(Default)]
pub struct PageCache {
    pages: Mutex<HashMap<String, std::sync::Arc<Built>>>,
}

impl PageCache {
    pub(crate) fn get(
        &self,
        token: &str,
        seq: i64,
        now: DateTime<Utc>,
    ) -> Option<std::sync::Arc<Built>> {
        let pages = self.pages.lock().unwrap_or_else(|p| p.into_inner());
        pages
            .get(token)
            .filter(|b| b.seq == seq && now >= b.at && now < b.at + FRESH_FOR)
            .cloned()
    }

    pub(crate) fn put(&self, token: &str, built: std::sync::Arc<Built>) {
        let mut pages = self.pages.lock().unwrap_or_else(|p| p.into_inner());
        if pages.len() >= 20_000 {
            let (seq, at) = (built.seq, built.at);
            pages.retain(|_, b| b.seq == seq && at < b.at + FRESH_FOR);
            if pages.len() >= 20_000 {
                pages.clear();
            }
        }
        pages.insert(token.to_string(), built);
    }
}
