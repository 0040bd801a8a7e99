//! The room's reports (issue 6).
