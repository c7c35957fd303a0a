//! What the engine defines and other files of the repository name one by one: the
//! one-edition cards docs/protocol.md lists, the recommended kingdoms and bots the
//! browser client names in each language (`web-client/src/i18n/<lang>.js`), and the
//! cards whose VP the client's end screen computes from the deck. A card, kingdom or bot
//! added to the engine fails here until those lists have it. (Card names and texts are
//! in cards.json: see `client_cards.rs`.)

use dominion_engine::card::{CARDS, Printed, Set};
use dominion_engine::score::{Deck, card_vp};
use dominion_engine::{bots, setup};
use std::collections::BTreeSet;

const PROTOCOL_MD: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/protocol.md");
const I18N_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../web-client/src/i18n");
const ENDSCREEN_JS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../web-client/src/endscreen.js"
);

/// The cards a docs/protocol.md list names, per set: "A, B (Base) and C, D (Intrigue)".
fn listed(list: &str) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    for group in list.split(')').filter(|g| !g.trim().is_empty()) {
        let (names, set) = group
            .rsplit_once('(')
            .unwrap_or_else(|| panic!("no (Set) after {group:?}"));
        let names = names.trim();
        let names = names.strip_prefix("and ").unwrap_or(names);
        for name in names.split(',') {
            out.insert((set.trim().to_string(), name.trim().to_string()));
        }
    }
    out
}

/// The text after `marker` up to the next `;` or `.`, in `text` with its lines joined.
fn list_after<'a>(text: &'a str, marker: &str) -> &'a str {
    let start = text
        .find(marker)
        .unwrap_or_else(|| panic!("docs/protocol.md no longer says {marker:?}"))
        + marker.len();
    let rest = &text[start..];
    &rest[..rest.find([';', '.']).unwrap_or(rest.len())]
}

#[test]
fn protocol_md_lists_every_card_printed_in_one_edition_only() {
    let text = std::fs::read_to_string(PROTOCOL_MD)
        .expect("docs/protocol.md")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for (marker, printed) in [
        ("1st edition only:", Printed::FirstOnly),
        ("2nd edition only:", Printed::SecondOnly),
    ] {
        let engine: BTreeSet<(String, String)> = CARDS
            .iter()
            .filter(|d| d.printed == printed && d.set != Set::Basic)
            .map(|d| (d.set.name().to_string(), d.name.to_string()))
            .collect();
        assert_eq!(
            listed(list_after(&text, marker)),
            engine,
            "docs/protocol.md's \"{marker}\" list (Kingdoms and editions), as (set, card)"
        );
    }
}

/// Each language file of the client, with its name.
fn languages() -> Vec<(String, String)> {
    let mut langs: Vec<(String, String)> = std::fs::read_dir(I18N_DIR)
        .expect("web-client/src/i18n")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "js"))
        .filter(|p| p.file_stem().is_some_and(|s| s != "index"))
        .map(|p| {
            let lang = p.file_stem().unwrap().to_string_lossy().into_owned();
            (lang, std::fs::read_to_string(&p).expect("a language file"))
        })
        .collect();
    langs.sort();
    assert!(langs.len() >= 4, "en, hu, ru, sv: {langs:?}");
    langs
}

fn has_key(strings: &str, key: &str) -> bool {
    strings.contains(&format!("'{key}':"))
}

#[test]
fn every_recommended_kingdom_has_a_name_in_every_language() {
    let mut missing = Vec::new();
    for (lang, strings) in languages() {
        for r in setup::recommended_kingdoms() {
            let (book, name) = r.id.split_once('/').expect("set/name");
            let mut keys = vec![format!("kingdom.{name}")];
            // A 1st-edition rulebook's kingdom: the name that edition prints.
            if book.ends_with("_1e") {
                keys.push(format!("kingdom.1e.{name}"));
            }
            for key in keys.into_iter().filter(|k| !has_key(&strings, k)) {
                missing.push(format!("{lang}.js lacks '{key}' ({})", r.id));
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

#[test]
fn every_bot_has_a_name_in_every_language() {
    let mut missing = Vec::new();
    for (lang, strings) in languages() {
        for name in bots::NAMES {
            if !has_key(&strings, &format!("bot.{name}")) {
                missing.push(format!("{lang}.js lacks 'bot.{name}'"));
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

/// A card worth VP by the deck (Gardens, Duke) has no fixed `vp` in cards.json
/// (crates/server/tests/it/client_vp.rs): the end screen's `cardVp` computes it, as
/// score.rs does, by its key.
#[test]
fn every_card_worth_vp_by_the_deck_is_computed_by_the_end_screen() {
    let js = std::fs::read_to_string(ENDSCREEN_JS).expect("web-client/src/endscreen.js");
    let small = Deck {
        size: 5,
        duchies: 0,
    };
    let large = Deck {
        size: 47,
        duchies: 3,
    };
    let by_deck: Vec<&str> = CARDS
        .iter()
        .filter(|d| card_vp(d.id, small) != card_vp(d.id, large))
        .map(|d| d.key)
        .collect();
    assert!(by_deck.len() >= 2, "Gardens, Duke: {by_deck:?}");
    for key in by_deck {
        assert!(
            js.contains(&format!("key === '{key}'")),
            "endscreen.js's cardVp does not compute {key}'s VP"
        );
    }
}
