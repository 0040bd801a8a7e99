//! Reports over HTTP (issue 6).

#[allow(unused_imports)]
use super::support::*;
