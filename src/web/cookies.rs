//! The cookie names the plumbing reads as well as the pages: the paired device's token (a
//! dealer tablet or the desk kiosk).

/// The paired device's token, set when the floor pairs a tablet or the kiosk.
pub const DEVICE_COOKIE: &str = "cr_device";
