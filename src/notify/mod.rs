//! Messages to players: a durable outbox, SMS and e-mail transports, the signed
//! player links.
//!
//! # How a message travels
//!
//! 1. An action (a service function in `services::floor`) calls [`messages::tell`], which
//!    writes one outbox row per channel of the player (SMS, e-mail or both, by the player's
//!    preference and only where they gave that contact) **in the action's transaction**:
//!    the message exists exactly when the action is committed.
//! 2. The delivery worker ([`worker`], one thread per server process) claims due rows —
//!    status `sending`, a lease until `now + CARDROOM_NOTIFY_LEASE_SECS`, an attempt row
//!    `started` — writes the text at the first attempt (stored: every retry sends the same
//!    words and link), and sends each outside any transaction, passing the message's
//!    **idempotency key** to the provider: SMTP `Message-ID: <key@sender-domain>`; Twilio
//!    `I-Twilio-Idempotency-Token: key`; generic gateway `Idempotency-Key: key` and `{key}`
//!    in the body template.
//! 3. The outcome is recorded in its own write: `sent`; or `pending` again after the backoff
//!    ([`policy::Backoff`]: `CARDROOM_NOTIFY_BACKOFF_MS` doubling up to
//!    `CARDROOM_NOTIFY_BACKOFF_MAX_MS`); or `failed` once `CARDROOM_NOTIFY_MAX_ATTEMPTS` are
//!    used up or the provider refused it for good. Failed messages show on the floor
//!    dashboard and `/floor/messages`, where "retry now" (audited) starts a new round.
//!
//! # What is guaranteed, and what is not
//!
//! - **Nothing is lost**: a message is a row committed with its action; a restart finds it
//!   `pending` (or `sending` with a lease that runs out) and sends it.
//! - **Never two workers at once on one message**: the claim is a conditional UPDATE
//!   (see [`outbox`]); on PostgreSQL with several server processes exactly one claims a row.
//! - **At least once to the provider**: a worker that dies after the provider accepted a
//!   message but before recording it leaves the row `sending`; when the lease runs out
//!   another pass sends it **again with the same key** (the unrecorded attempt is marked
//!   `interrupted`).
//! - **Once to the player** only where the receiving side honours the key: Twilio drops a
//!   repeat with the same `I-Twilio-Idempotency-Token` (within the period Twilio keeps
//!   tokens); a generic gateway must do the same with `Idempotency-Key`; for e-mail, the
//!   repeated copy has the same `Message-ID`, which many mail stores and clients collapse,
//!   but SMTP itself has no duplicate suppression, so a plain SMTP relay accepts and delivers
//!   both copies. A provider that ignores the key may deliver a message twice after a crash
//!   (never more often than crashes happen between send and record).
//! - A send that timed out after the provider had accepted it looks like a failure and is
//!   retried with the same key: the same caveat applies.
//! - The lease must outlast one send (`CARDROOM_NOTIFY_LEASE_SECS` > 2 ×
//!   `CARDROOM_NOTIFY_TIMEOUT_SECS`, checked at start); a worker paused for longer than its
//!   lease (a frozen VM) may see another worker re-send its message — the same key again.

pub mod channels;
pub mod link;
pub mod messages;
pub mod outbox;
pub mod policy;
pub mod sms;
pub mod smtp;
pub mod transport;
pub mod worker;

pub use messages::{enqueue, tell, Kind, Params};
