//! Messages to players: the durable outbox (a message is a row written in its action's
//! transaction), the delivery worker that sends it by SMS or e-mail with the message's
//! idempotency key, and the signed player links. What is sent when, and what delivery
//! guarantees (at least once to the provider, once to the player where the provider honours
//! the key): `docs/messages.md`.

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
