//! What display text a client chooses (player and room names) may hold.
//!
//! Names are shown to every other player, so they must not be able to hide or disguise
//! themselves: control characters, invisible format characters (zero-width spaces, the
//! soft hyphen, the byte-order mark, tag characters), bidirectional controls (U+202A–E,
//! U+2066–9, which reorder the text around them: "Ann\u{202E}nimda" shows as "Annadmin"),
//! line separators, private-use and unassigned code points, and the blank-looking fillers
//! that pass for letters (Hangul fillers, the braille blank) are refused anywhere; a name
//! must also hold at least one visible character. Joiners (ZWJ, ZWNJ) and variation
//! selectors stay allowed inside a name: emoji sequences and some scripts need them.
//!
//! A character carries at most [`MAX_MARKS`] combining marks (issue 23: one letter with
//! 299 marks stacks into a smear over the lines around it). Four leaves every script its
//! due — Vietnamese needs two, Hebrew with points and a cantillation mark four, Tibetan
//! stacks three, a keycap emoji two (its variation selector counts) — and joiners do
//! not start a new character, so they cannot be used to stack more.

use unicode_general_category::{GeneralCategory as G, get_general_category};

/// Fillers that render as blanks but are not categorized as spaces.
const BLANKS: &[char] = &[
    '\u{115F}', '\u{1160}', '\u{3164}', '\u{FFA0}', '\u{2800}', '\u{034F}',
];

/// Invisible characters allowed inside a name, never alone.
fn joins(c: char) -> bool {
    matches!(c, '\u{200C}' | '\u{200D}' | '\u{FE00}'..='\u{FE0F}' | '\u{E0100}'..='\u{E01EF}')
}

/// The first character a name may not hold, if any.
fn forbidden(s: &str) -> Option<char> {
    s.chars().find(|&c| {
        if joins(c) {
            return false;
        }
        BLANKS.contains(&c)
            || matches!(
                get_general_category(c),
                G::Control
                    | G::Format
                    | G::LineSeparator
                    | G::ParagraphSeparator
                    | G::PrivateUse
                    | G::Surrogate
                    | G::Unassigned
            )
    })
}

/// Whether `c` shows as something: not a space, a joiner or a mark on nothing.
fn visible(c: char) -> bool {
    !c.is_whitespace()
        && !joins(c)
        && !matches!(
            get_general_category(c),
            G::NonspacingMark | G::EnclosingMark | G::SpacingMark | G::SpaceSeparator
        )
}

/// Combining marks one character may carry.
pub const MAX_MARKS: usize = 4;

fn is_mark(c: char) -> bool {
    matches!(
        get_general_category(c),
        G::NonspacingMark | G::EnclosingMark | G::SpacingMark
    )
}

/// The first character carrying more than [`MAX_MARKS`] combining marks, if any (None
/// for marks at the very start), with how many it carries.
fn overloaded(s: &str) -> Option<(Option<char>, usize)> {
    let mut base = None;
    let mut marks = 0;
    let mut over = None;
    for c in s.chars() {
        if is_mark(c) {
            marks += 1;
        } else if !joins(c) {
            if over.is_none() && marks > MAX_MARKS {
                over = Some((base, marks));
            }
            base = Some(c);
            marks = 0;
        }
    }
    over.or((marks > MAX_MARKS).then_some((base, marks)))
}

/// `text` trimmed, or why it cannot be a name of at most `max` characters.
pub fn check(text: &str, max: usize) -> Result<String, String> {
    let name = text.trim();
    let count = name.chars().count();
    if count == 0 {
        return Err("is empty".into());
    }
    if count > max {
        return Err(format!("has {count} characters, more than {max}"));
    }
    if let Some(c) = forbidden(name) {
        return Err(format!(
            "holds U+{:04X}, a control, invisible or direction-changing character",
            u32::from(c)
        ));
    }
    if !name.chars().any(visible) {
        return Err("has no visible character".into());
    }
    if let Some((base, marks)) = overloaded(name) {
        let on = base.map_or("at its start".to_string(), |b| {
            format!("on one character (U+{:04X})", u32::from(b))
        });
        return Err(format!(
            "has {marks} combining marks {on}, more than {MAX_MARKS}"
        ));
    }
    Ok(name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_names_in_any_script_pass_trimmed() {
        for name in [
            "Ann",
            "Ádám",
            "Жанна",
            "Åsa Öberg",
            "李雷",
            "علي",
            "Ann 🙂",
            "👨‍👩‍👧 family",
            "❤️",
        ] {
            assert_eq!(
                check(&format!("  {name} "), 32),
                Ok(name.to_string()),
                "{name}"
            );
        }
    }

    #[test]
    fn hidden_and_reordering_characters_are_refused_by_code_point() {
        for (name, code) in [
            ("Ann\u{202E}nimda", "U+202E"),
            ("Ann\u{2066}x\u{2069}", "U+2066"),
            ("A\u{200B}nn", "U+200B"),
            ("\u{FEFF}Ann", "U+FEFF"),
            ("An\u{00AD}n", "U+00AD"),
            ("Ann\u{7}", "U+0007"),
            ("Ann\u{2028}Bob", "U+2028"),
            ("Ann\u{E0041}", "U+E0041"),
            ("Ann\u{E000}", "U+E000"),
            ("\u{3164}", "U+3164"),
            ("Ann\u{200E}", "U+200E"),
        ] {
            let e = check(name, 32).expect_err(name);
            assert!(e.contains(code), "{name:?}: {e}");
        }
    }

    #[test]
    fn names_made_only_of_blanks_joiners_or_marks_are_refused() {
        for name in [
            "",
            "   ",
            "\u{3000}\u{00A0}",
            "\u{200D}",
            "\u{FE0F}\u{200C}",
            "\u{0301}\u{0301}",
        ] {
            assert!(check(name, 32).is_err(), "{name:?}");
        }
        assert_eq!(check("\u{3000}", 32), Err("is empty".into()));
        assert_eq!(
            check("\u{0301}", 32),
            Err("has no visible character".into())
        );
    }

    #[test]
    fn length_counts_characters() {
        assert!(check(&"é".repeat(32), 32).is_ok());
        assert_eq!(
            check(&"x".repeat(33), 32),
            Err("has 33 characters, more than 32".into())
        );
    }

    #[test]
    fn a_character_carries_at_most_four_combining_marks() {
        for name in [
            "Z\u{0301}\u{0301}\u{0301}\u{0301}",
            "שָׁלוֹם",
            "Vie\u{0323}\u{0302}t",
            "1\u{FE0F}\u{20E3}",
            "क्षत्रिय",
            "བསྒྲུབས",
        ] {
            assert_eq!(check(name, 32), Ok(name.to_string()), "{name:?}");
        }
        let e = check(&format!("Z{}", "\u{0301}".repeat(5)), 32).unwrap_err();
        assert_eq!(
            e,
            "has 5 combining marks on one character (U+005A), more than 4"
        );
        let e = check(&format!("ok Z{}", "\u{0301}".repeat(299)), 400).unwrap_err();
        assert!(e.contains("299 combining marks"), "{e}");
        // Joiners between the marks do not start a new character.
        let e = check(&format!("Z{}", "\u{0301}\u{200D}".repeat(5)), 32).unwrap_err();
        assert!(e.contains("5 combining marks"), "{e}");
    }
}
