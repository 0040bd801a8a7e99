//! The demo room, loaded with `--demo` into a database without games.

use crate::state::AppState;

pub const BANNER: &str = "";

pub fn load(_state: &AppState) -> Result<bool, String> {
    Ok(false)
}
