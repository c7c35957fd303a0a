//! The browser client's card data, `web-client/data/cards.json`, against the engine's
//! card table (`card::CARDS`), with Rust alone (no server, no npm): every card the
//! engine has is there with the same cost, types, editions, set and English name, and
//! cards.json has no card the engine lacks. Each card has a rules text and a name in
//! every language the client has (one file per language in `web-client/src/i18n/`),
//! or is listed as untranslated there.
//!
//! (tests/e2e/test/cards.test.mjs checks the same facts against the running server's
//! `GET /api/cards`, and the translations more closely; crates/server/tests/it/
//! client_vp.rs checks each card's `vp`.)

use dominion_engine::card::{CARDS, CardDef, Edition};
use serde_json::{Map, Value};
use std::collections::BTreeSet;

const CARDS_JSON: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../web-client/data/cards.json"
);
const I18N_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../web-client/src/i18n");

fn client_data() -> Value {
    let text = std::fs::read_to_string(CARDS_JSON).expect("web-client/data/cards.json");
    serde_json::from_str(&text).expect("cards.json is JSON")
}

fn client_cards(data: &Value) -> &Map<String, Value> {
    data["cards"]
        .as_object()
        .expect("cards.json has a \"cards\" object")
}

/// A card's printed facts as cards.json writes them.
fn engine_facts(d: &CardDef) -> Value {
    let editions: Vec<&str> = [(Edition::First, "1e"), (Edition::Second, "2e")]
        .into_iter()
        .filter(|(e, _)| d.printed.in_edition(*e))
        .map(|(_, key)| key)
        .collect();
    serde_json::json!({
        "cost": d.cost,
        "types": d.types.names(),
        "editions": editions,
        "set": d.set.key(),
        "name": d.name,
    })
}

fn client_facts(c: &Value) -> Value {
    serde_json::json!({
        "cost": c["cost"],
        "types": c["types"],
        "editions": c["editions"],
        "set": c["set"],
        "name": c["names"]["en"],
    })
}

#[test]
fn cards_json_has_every_card_of_the_engine_with_its_printed_facts_and_no_other() {
    let data = client_data();
    let cards = client_cards(&data);
    let mut problems = Vec::new();
    for d in CARDS {
        match cards.get(d.key) {
            None => problems.push(format!("{}: not in cards.json", d.key)),
            Some(c) if client_facts(c) != engine_facts(d) => problems.push(format!(
                "{}: cards.json says {}, the engine {}",
                d.key,
                client_facts(c),
                engine_facts(d)
            )),
            Some(_) => {}
        }
    }
    let engine: BTreeSet<&str> = CARDS.iter().map(|d| d.key).collect();
    for key in cards.keys() {
        if !engine.contains(key.as_str()) {
            problems.push(format!(
                "{key}: in cards.json, but the engine has no such card"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(
        CARDS.len() >= 71,
        "Basic, Base and Intrigue: {}",
        CARDS.len()
    );
}

/// The languages the client has: `web-client/src/i18n/<lang>.js`, but `index.js`.
fn languages() -> Vec<String> {
    let mut langs: Vec<String> = std::fs::read_dir(I18N_DIR)
        .expect("web-client/src/i18n")
        .map(|e| e.expect("a directory entry").file_name())
        .filter_map(|n| n.to_str()?.strip_suffix(".js").map(String::from))
        .filter(|n| n != "index")
        .collect();
    langs.sort();
    langs
}

fn non_empty(v: &Value) -> bool {
    v.as_str().is_some_and(|s| !s.trim().is_empty())
}

/// A name or text: one string, or one per edition the card is printed in.
fn written(v: &Value, editions: &Value) -> bool {
    match v {
        Value::Object(per) => {
            let keys: Vec<Value> = per.keys().map(|k| Value::from(k.as_str())).collect();
            Value::from(keys) == *editions && per.values().all(non_empty)
        }
        v => non_empty(v),
    }
}

#[test]
fn every_card_has_a_text_in_every_language_and_a_name_or_is_listed_untranslated() {
    let data = client_data();
    let langs = languages();
    assert!(
        langs.len() >= 4 && langs.iter().any(|l| l == "en"),
        "{langs:?}"
    );
    let mut problems = Vec::new();
    for (key, c) in client_cards(&data) {
        let editions = &c["editions"];
        for lang in &langs {
            if !written(&c["texts"][lang], editions) {
                problems.push(format!(
                    "{key}: no {lang} text (a string, or one per edition it is printed in)"
                ));
            }
            let name = &c["names"][lang];
            let untranslated = data["_untranslated"][lang]["cards"]
                .as_array()
                .is_some_and(|l| l.iter().any(|k| k == key.as_str()));
            if lang == "en" && !written(name, editions) {
                problems.push(format!("{key}: no English name"));
            } else if name.is_null() && lang != "en" && !untranslated {
                problems.push(format!(
                    "{key}: no {lang} name, and not in _untranslated.{lang}.cards"
                ));
            } else if !name.is_null() && !written(name, editions) {
                problems.push(format!("{key}: an empty {lang} name"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
