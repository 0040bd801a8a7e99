//! Where a page may send the user back to: same-site paths only.

/// Only same-site paths are accepted as a place to go back to.
pub fn safe_next(next: Option<&str>) -> String {
    match next {
        Some(n)
            if n.starts_with('/')
                && !n.starts_with("//")
                && !n.chars().any(|c| c.is_control() || c == '\\')
                && n.len() < 512 =>
        {
            n.to_string()
        }
        _ => "/".to_string(),
    }
}
