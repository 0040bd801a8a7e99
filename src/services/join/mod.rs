//! Players join the waiting lists from their phone.
//!
//! The flow, one write transaction per step:
//! 1. [`request_code`]: the phone number (a national one takes the room's country), a name
//!    and up to `remote_max_lists` of the games offered; the limits (per phone, per client
//!    address, per room, the SMS cost cap: 429 with `Retry-After`); a one-time code of six
//!    digits to the phone (or the registered player's e-mail when that is their channel)
//!    through the outbox; only its HMAC is kept. A blocked phone gets the very same answer,
//!    but nothing is sent.
//! 2. [`verify_code`]: 10 minutes, 5 tries. Then a registered, eligible player with that
//!    phone is on the lists at once (`floor::join` as a call-in — it lapses unless checked in,
//!    BSOP 43 — marked `via = phone`: their "added" message and link as today); someone not
//!    registered gets a *guest* place (`guest_entries`), kept in the list's order but never
//!    called until the desk registers them (BSOP 1, 3, 44; [`adopt_guest`]).
//!
//! What a banned or self-excluded player sees (nothing may tell a stranger who typed their
//! number that they are registered, banned or excluded): exactly what anyone sees until the
//! code — "we sent a code" (a code is sent as to anyone); after a right code, the neutral
//! "Please see the desk to complete your request" (also for a phone shared by several
//! records, or a registration the room cannot let play: no photo, an expired ID), with no
//! entry made; the reason is in the audit trail (`join.refused`), not on the page.
//!
//! Every code sent or withheld, every failed try, every entry and every block is audited; a
//! refusal by the limits is not (a flood would flood the trail) but is counted in `/metrics`
//! (`cardroom_join_codes_total{outcome="rate_limited"}`).

mod blocks;
mod entries;
mod guests;
mod limits;
mod offered;
mod request;
mod verify;

pub use blocks::{block_phone, blocks, unblock_phone, Block};
pub use entries::{check_in_at_desk, origins};
pub use guests::{adopt_guest, guest, guest_lines, remove_guest_entry, GuestLine};
pub use limits::Limits;
pub use offered::{offered, OfferedGame};
pub use request::{
    code_request, parse_phone, request_code, CodeRequest, JoinRequest, Requested, NAME_MAX,
};
pub use verify::{verify_code, Verified};
