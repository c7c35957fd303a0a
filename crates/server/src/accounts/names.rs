//! Account names folded for comparison: two names that fold equal cannot both be
//! registered, and a guest may not sit down under a name that folds to a registered one.
//!
//! Folding is NFKC (compatibility forms: full-width letters, ligatures, superscripts),
//! then lowercase, then a small map of look-alikes: Cyrillic and Greek letters that look
//! like Latin ones, `0` as `o`, `1`, `i` and `|` as `l`; runs of spaces count as one. The
//! map is deliberately small (what players confuse in a seat list), not Unicode's whole
//! confusables table.

use unicode_normalization::UnicodeNormalization;

/// The look-alikes, after lowercasing: (character, the Latin letter it is read as).
const LOOK_ALIKES: &[(char, char)] = &[
    // Cyrillic
    ('а', 'a'),
    ('в', 'b'),
    ('е', 'e'),
    ('ё', 'e'),
    ('һ', 'h'),
    ('н', 'h'),
    ('і', 'l'),
    ('ї', 'l'),
    ('ј', 'j'),
    ('к', 'k'),
    ('ӏ', 'l'),
    ('м', 'm'),
    ('о', 'o'),
    ('р', 'p'),
    ('с', 'c'),
    ('ѕ', 's'),
    ('т', 't'),
    ('у', 'y'),
    ('х', 'x'),
    ('ԁ', 'd'),
    ('ԛ', 'q'),
    ('ԝ', 'w'),
    // Greek
    ('α', 'a'),
    ('β', 'b'),
    ('ε', 'e'),
    ('η', 'n'),
    ('ι', 'l'),
    ('κ', 'k'),
    ('μ', 'u'),
    ('ν', 'v'),
    ('ο', 'o'),
    ('ρ', 'p'),
    ('τ', 't'),
    ('υ', 'u'),
    ('χ', 'x'),
    ('ω', 'w'),
    // Digits and signs
    ('0', 'o'),
    ('1', 'l'),
    ('i', 'l'),
    ('|', 'l'),
    ('ı', 'l'),
];

/// The form two names are compared in (see the module's doc). `name` is already checked
/// by the player-name rule (trimmed, visible characters).
pub fn fold(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut space = false;
    for c in name.nfkc().flat_map(char::to_lowercase) {
        if c.is_whitespace() {
            if !space && !out.is_empty() {
                out.push(' ');
            }
            space = true;
            continue;
        }
        space = false;
        let c = LOOK_ALIKES
            .iter()
            .find(|(from, _)| *from == c)
            .map_or(c, |(_, to)| *to);
        out.push(c);
    }
    out.trim_end().to_string()
}

#[cfg(test)]
mod tests {
    use super::fold;

    #[test]
    fn case_compatibility_forms_and_look_alikes_fold_together() {
        assert_eq!(fold("Alice"), fold("ALICE"));
        assert_eq!(fold("Alice"), fold("Аlice"), "Cyrillic А");
        assert_eq!(fold("bob"), fold("b0b"));
        assert_eq!(fold("Bill"), fold("B1ll"));
        assert_eq!(fold("Bill"), fold("BiII"));
        assert_eq!(fold("ｆｕｌｌ"), fold("full"), "full-width letters");
        assert_eq!(fold("Ann  Lee"), fold("ann lee"));
        assert_eq!(fold("Χρ"), fold("xp"), "Greek");
        assert_ne!(fold("Alice"), fold("Alicia"));
        assert_ne!(fold("Anne"), fold("Ann"));
    }
}
