//! The screens' colours: the room's choice of a light or a dark theme (or the device's own
//! preference), and the WCAG 2.1 contrast ratio both themes are held to.
//!
//! Night mode: a tablet, the floor board and the lobby screen glare in a dim room; the room
//! chooses the theme and each device may choose its own (kept on the device). Text of either
//! theme keeps WCAG AA contrast (4.5:1, success criterion 1.4.3).

use super::enums::string_enum;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

string_enum! {
    /// The room's theme for its screens.
    #[derive(Default)]
    Theme {
        Light = "light",
        Dark = "dark",
        /// Each device follows its own light or dark preference; the lobby screen, made for a
        /// dim room, is dark unless its device asks for light.
        #[default]
        Auto = "auto",
    }
}

/// WCAG AA: the least contrast of normal text against its background (1.4.3).
pub const AA_TEXT: f64 = 4.5;

/// A colour written `#rgb` or `#rrggbb`, as sRGB components 0-255.
pub fn parse_hex(s: &str) -> Option<[u8; 3]> {
    let h = s.trim().strip_prefix('#')?;
    if !h.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let digit = |i: usize, n: usize| u8::from_str_radix(&h[i..i + n], 16).ok();
    match h.len() {
        3 => Some([digit(0, 1)? * 17, digit(1, 1)? * 17, digit(2, 1)? * 17]),
        6 => Some([digit(0, 2)?, digit(2, 2)?, digit(4, 2)?]),
        _ => None,
    }
}

/// WCAG 2.1 relative luminance of an sRGB colour.
pub fn luminance(c: [u8; 3]) -> f64 {
    let lin = |v: u8| {
        let s = f64::from(v) / 255.0;
        if s <= 0.04045 {
            s / 12.92
        } else {
            ((s + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2])
}

/// WCAG 2.1 contrast ratio of two colours, from 1 (same) to 21 (black on white).
pub fn contrast(a: [u8; 3], b: [u8; 3]) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    let (hi, lo) = if la >= lb { (la, lb) } else { (lb, la) };
    (hi + 0.05) / (lo + 0.05)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeMap;

    #[test]
    fn known_ratios() {
        let white = [255, 255, 255];
        let black = [0, 0, 0];
        assert!((contrast(white, black) - 21.0).abs() < 1e-9);
        assert!((contrast(white, white) - 1.0).abs() < 1e-9);
        // The WebAIM checker's figure for #767676 on white: 4.54:1.
        let grey = parse_hex("#767676").unwrap();
        assert!((contrast(grey, white) - 4.54).abs() < 0.01);
        assert_eq!(parse_hex("#fff"), Some(white));
        assert_eq!(parse_hex("#0b6b4f"), Some([11, 107, 79]));
        assert_eq!(parse_hex("0b6b4f"), None);
        assert_eq!(parse_hex("#0b6b4"), None);
        assert_eq!(parse_hex("#zzzzzz"), None);
    }

    #[test]
    fn theme_strings() {
        for t in Theme::ALL {
            assert_eq!(t.as_str().parse::<Theme>(), Ok(*t));
        }
        assert!("night".parse::<Theme>().is_err());
        assert_eq!(Theme::default(), Theme::Auto);
    }

    proptest! {
        #[test]
        fn contrast_is_symmetric_and_bounded(a: [u8; 3], b: [u8; 3]) {
            let c = contrast(a, b);
            prop_assert!((c - contrast(b, a)).abs() < 1e-9);
            prop_assert!((1.0..=21.0 + 1e-9).contains(&c));
        }
    }

    /// The custom properties (`--name: #hex;`) of the first CSS block whose selector is
    /// exactly `selector`.
    fn tokens(css: &str, selector: &str) -> BTreeMap<String, [u8; 3]> {
        let start = css
            .find(&format!("{selector} {{"))
            .unwrap_or_else(|| panic!("{selector} block in app.css"));
        let body = &css[start..];
        let body = &body[body.find('{').unwrap() + 1..body.find('}').unwrap()];
        body.split(';')
            .filter_map(|decl| {
                let decl = decl.split("*/").last()?.trim();
                let (name, value) = decl.split_once(':')?;
                let name = name.trim().strip_prefix("--")?;
                Some((name.to_string(), parse_hex(value)?))
            })
            .collect()
    }

    /// Every text colour of the screens against every background it is written on.
    const PAIRS: &[(&str, &str)] = &[
        ("text", "bg"),
        ("text", "surface"),
        ("text", "surface-alt"),
        ("text", "neutral-soft"),
        ("text-muted", "bg"),
        ("text-muted", "surface"),
        ("text-muted", "surface-alt"),
        ("link", "bg"),
        ("link", "surface"),
        ("accent-text", "surface"),
        ("accent-text", "accent-soft"),
        ("on-accent", "accent"),
        ("on-accent", "accent-hover"),
        ("on-danger", "danger"),
        ("on-danger", "danger-hover"),
        ("danger-text", "danger-soft"),
        ("danger-text", "surface"),
        ("warn", "warn-soft"),
        ("warn", "surface"),
        ("ok", "ok-soft"),
        ("ok", "surface"),
        ("info", "info-soft"),
        ("badge-text", "neutral-soft"),
        ("called-text", "called-bg"),
    ];

    fn check(theme: &str, t: &BTreeMap<String, [u8; 3]>) {
        let mut failures = Vec::new();
        for (fg, bg) in PAIRS {
            let (Some(f), Some(b)) = (t.get(*fg), t.get(*bg)) else {
                failures.push(format!("{theme}: --{fg} or --{bg} missing"));
                continue;
            };
            let c = contrast(*f, *b);
            if c < AA_TEXT {
                failures.push(format!("{theme}: --{fg} on --{bg} is {c:.2}:1"));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    /// Both themes' text passes WCAG AA, read from the stylesheet itself: a colour changed in
    /// app.css that loses contrast fails here.
    #[test]
    fn both_themes_pass_aa() {
        let css = include_str!("../../static/app.css");
        let light = tokens(css, ":root");
        let mut dark = light.clone();
        dark.extend(tokens(css, ":root[data-theme=\"dark\"]"));
        assert_ne!(
            light.get("bg"),
            dark.get("bg"),
            "the dark theme has its own background"
        );
        check("light", &light);
        check("dark", &dark);
    }
}
