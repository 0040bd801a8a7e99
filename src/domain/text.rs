//! Free text as the room keeps it: what a person types, and nothing that hides, breaks or
//! disguises it.
//!
//! Security policy, not a gaming rule. Whatever a request carries as text (a ruling's note,
//! a floor message, a player's name, a search) ends up in the database, on the floor's
//! screens, in the incident log and in its CSV files. So every text of every request — JSON
//! bodies, forms, query strings and addresses — is checked by [`check`] before anything reads
//! it (the web layer's `web::text` applies it; see there where). Refused:
//!
//! - **NUL and the other C0 control characters** (U+0000–U+001F): PostgreSQL cannot store a
//!   NUL at all (`invalid byte sequence for encoding "UTF8": 0x00`), and the others are
//!   invisible on a screen; except, in a field that allows lines ([`Lines::Many`]), the line
//!   feed, the tab and a carriage return directly followed by a line feed (a browser sends a
//!   textarea's lines as CR LF);
//! - **DEL and the C1 control characters** (U+007F–U+009F), invisible as well;
//! - **the bidirectional formatting characters**: the embeddings and overrides
//!   (U+202A–U+202E), the isolates (U+2066–U+2069) and the invisible direction marks (U+200E,
//!   U+200F, U+061C). They make a text read otherwise than it is stored ("Trojan Source",
//!   CVE-2021-42574): a note that shows "seat 3 wins" may say "seat 5". Arabic or Hebrew
//!   text needs none of them: its direction comes from its letters;
//! - in a one-line field, the Unicode line and paragraph separators (U+2028, U+2029) too.
//!
//! Kept: every other character, the zero-width joiner and non-joiner (U+200D, U+200C)
//! included: emoji sequences and several scripts are written with them.
//!
//! Which fields allow lines is said in one place, [`MULTI_LINE_FIELDS`]: a field is named
//! the same on the page's form and in the API, so its name decides.

use super::error::FieldError;

/// Whether a field's text may have several lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lines {
    /// One line: no line break, no tab.
    One,
    /// Lines: line feeds, CR LF and tabs allowed.
    Many,
}

/// The fields whose text may have several lines: the fields the pages ask for in a text
/// area, named the same in the API — a ruling's `note` (what happened) and `decision` (the
/// floor's reasoning), a floor message's `body`. A note elsewhere (a service request's, a
/// resolution's) is the same kind of prose. Every other text is one line (a name, an
/// alias, a reason given in one sentence, a search). A test checks that every text area of
/// the templates is named here.
pub const MULTI_LINE_FIELDS: &[&str] = &["note", "decision", "body"];

/// How many lines the field `name` takes. `name` is the field's own name, the last part of
/// its path in a body (`lines[0].note` is a `note`).
pub fn lines_of(name: &str) -> Lines {
    if MULTI_LINE_FIELDS.contains(&name) {
        Lines::Many
    } else {
        Lines::One
    }
}

/// Why a text is refused: the first character that may not be there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// A control character (C0, DEL, C1; in a field with lines, a carriage return not
    /// followed by a line feed).
    Control(char),
    /// A line break or a tab in a one-line field.
    LineBreak(char),
    /// A bidirectional formatting character (override, embedding, isolate, direction mark).
    Direction(char),
}

impl Refused {
    /// The character refused.
    pub fn char(self) -> char {
        match self {
            Refused::Control(c) | Refused::LineBreak(c) | Refused::Direction(c) => c,
        }
    }

    /// The message key saying why.
    pub fn key(self) -> &'static str {
        match self {
            Refused::Control(_) => "err-text-control",
            Refused::LineBreak(_) => "err-text-one-line",
            Refused::Direction(_) => "err-text-direction",
        }
    }

    /// The refusal of the field `field`, naming the character (`U+0000`).
    pub fn field_error(self, field: &str) -> FieldError {
        FieldError::new(field, self.key()).arg("char", code_point(self.char()))
    }
}

/// `U+0000`: how a refusal names an invisible character.
pub fn code_point(c: char) -> String {
    format!("U+{:04X}", u32::from(c))
}

/// A bidirectional formatting character: the embeddings and overrides (LRE, RLE, PDF, LRO,
/// RLO), the isolates (LRI, RLI, FSI, PDI) and the direction marks (LRM, RLM, ALM).
pub fn is_direction(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}')
}

/// Whether the text `s` may be kept in a field taking `lines` (see the module's
/// documentation): `Err` names the first character refused.
pub fn check(s: &str, lines: Lines) -> Result<(), Refused> {
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' | '\t' | '\u{2028}' | '\u{2029}' if lines == Lines::One => {
                return Err(Refused::LineBreak(c))
            }
            '\r' if lines == Lines::One => return Err(Refused::LineBreak(c)),
            '\n' | '\t' | '\u{2028}' | '\u{2029}' => {}
            '\r' if chars.peek() == Some(&'\n') => {}
            c if c.is_control() => return Err(Refused::Control(c)),
            c if is_direction(c) => return Err(Refused::Direction(c)),
            _ => {}
        }
    }
    Ok(())
}

/// [`check`] for the field named `field` (its path, for the refusal) whose own name is
/// `name` (for its [`Lines`]).
pub fn check_field(field: &str, name: &str, s: &str) -> Result<(), FieldError> {
    check(s, lines_of(name)).map_err(|r| r.field_error(field))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn nul_and_other_controls_are_refused_everywhere() {
        for lines in [Lines::One, Lines::Many] {
            assert_eq!(check("a\0b", lines), Err(Refused::Control('\0')));
            assert_eq!(check("\u{7}", lines), Err(Refused::Control('\u{7}')));
            assert_eq!(check("\u{1B}[31m", lines), Err(Refused::Control('\u{1B}')));
            assert_eq!(check("x\u{7F}", lines), Err(Refused::Control('\u{7F}')));
            assert_eq!(check("\u{85}", lines), Err(Refused::Control('\u{85}')));
            assert_eq!(check("\u{9F}", lines), Err(Refused::Control('\u{9F}')));
            assert_eq!(check("\u{0B}", lines), Err(Refused::Control('\u{0B}')));
        }
    }

    #[test]
    fn direction_characters_are_refused_everywhere() {
        for c in [
            '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{202E}', '\u{2066}', '\u{2067}',
            '\u{2068}', '\u{2069}', '\u{200E}', '\u{200F}', '\u{061C}',
        ] {
            for lines in [Lines::One, Lines::Many] {
                assert_eq!(
                    check(&format!("seat 3{c} wins"), lines),
                    Err(Refused::Direction(c))
                );
            }
        }
    }

    #[test]
    fn lines_and_tabs_only_where_a_field_allows_lines() {
        for s in ["a\nb", "a\r\nb", "a\tb", "a\u{2028}b", "a\u{2029}b"] {
            assert!(check(s, Lines::Many).is_ok(), "{s:?}");
        }
        assert_eq!(check("a\nb", Lines::One), Err(Refused::LineBreak('\n')));
        assert_eq!(check("a\r\nb", Lines::One), Err(Refused::LineBreak('\r')));
        assert_eq!(check("a\tb", Lines::One), Err(Refused::LineBreak('\t')));
        assert_eq!(
            check("a\u{2028}", Lines::One),
            Err(Refused::LineBreak('\u{2028}'))
        );
        // A carriage return alone is not a line break a browser sends.
        assert_eq!(check("a\rb", Lines::Many), Err(Refused::Control('\r')));
        assert_eq!(check("a\r", Lines::Many), Err(Refused::Control('\r')));
    }

    #[test]
    fn what_people_write_is_kept() {
        for s in [
            "",
            "Mão morta: o dealer expôs a carta ao lado do assento 3.",
            "Ana 👩‍👩‍👧 €50", // a ZWJ emoji sequence
            "می‌خواهم",    // Persian with a ZWNJ
            "שלום עליכם", // Hebrew: right to left by its letters
            "مرحبا",      // Arabic
            "澳門 Macau",
            "=HYPERLINK(\"x\")", // a formula is text here; the CSV writer neutralises it
        ] {
            assert_eq!(check(s, Lines::One), Ok(()), "{s:?}");
        }
    }

    #[test]
    fn multi_line_fields_are_named_in_one_place() {
        assert_eq!(lines_of("note"), Lines::Many);
        assert_eq!(lines_of("decision"), Lines::Many);
        assert_eq!(lines_of("body"), Lines::Many);
        assert_eq!(lines_of("alias"), Lines::One);
        assert_eq!(lines_of("display_name"), Lines::One);
        assert_eq!(lines_of("reason"), Lines::One);
    }

    #[test]
    fn a_refusal_names_the_field_and_the_character() {
        let e = check_field("lines[0].note", "note", "a\0").unwrap_err();
        assert_eq!(e.field, "lines[0].note");
        assert_eq!(e.key, "err-text-control");
        assert_eq!(e.args, vec![("char", "U+0000".to_string())]);
        let e = check_field("alias", "alias", "a\u{202E}b").unwrap_err();
        assert_eq!(e.key, "err-text-direction");
        assert_eq!(e.args, vec![("char", "U+202E".to_string())]);
        assert_eq!(code_point('\u{1F600}'), "U+1F600");
    }

    /// The rule said character by character (a CR LF pair taken out first).
    fn refused(c: char, lines: Lines) -> bool {
        let line = matches!(c, '\n' | '\t' | '\u{2028}' | '\u{2029}');
        match lines {
            Lines::One => c.is_control() || line || is_direction(c),
            Lines::Many => (c.is_control() && !line) || is_direction(c),
        }
    }

    proptest! {
        /// A text is kept exactly when none of its characters is refused (a CR counted with
        /// the LF after it): the check looks at every character, wherever it is.
        #[test]
        fn a_text_is_kept_iff_no_character_is_refused(s in "\\PC{0,8}[\\x00-\\x{A0}\\x{200B}-\\x{206F}]{0,3}\\PC{0,8}", many in any::<bool>()) {
            let lines = if many { Lines::Many } else { Lines::One };
            let crlf = s.replace("\r\n", "");
            let expect_ok = !crlf.chars().any(|c| refused(c, lines))
                && (lines == Lines::Many || !s.contains("\r\n"));
            prop_assert_eq!(check(&s, lines).is_ok(), expect_ok, "{:?}", s);
        }

        /// A refused character is refused wherever it stands, and the refusal names it.
        #[test]
        fn a_refused_character_is_found_anywhere(
            before in "[^\\p{C}\\x{2028}\\x{2029}]{0,20}",
            after in "[^\\p{C}\\x{2028}\\x{2029}]{0,20}",
            c in prop_oneof![Just('\0'), Just('\u{1}'), Just('\u{1F}'), Just('\u{7F}'), Just('\u{9B}'), Just('\u{202E}'), Just('\u{2067}'), Just('\u{200F}')],
            many in any::<bool>(),
        ) {
            let lines = if many { Lines::Many } else { Lines::One };
            let s = format!("{before}{c}{after}");
            // No control, format or line separator around `c`: it is the only one refused.
            prop_assert_eq!(check(&s, lines).unwrap_err().char(), c);
        }
    }
}
