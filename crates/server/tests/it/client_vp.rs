//! The browser client's card data (`web-client/data/cards.json`) gives each card worth a
//! fixed number of VP its `vp`, the end screen's VP breakdown adds them up; it must be
//! the engine's (`score::card_vp`), and absent for cards worth nothing and for those
//! that count other cards (Gardens, Duke), which the end screen computes from the deck.

use dominion_engine::card::CARDS;
use dominion_engine::score::{Deck, card_vp};
use serde_json::Value;

#[test]
fn the_clients_fixed_vp_are_the_engines() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../web-client/data/cards.json"
    );
    let text = std::fs::read_to_string(path).expect("cards.json");
    let data: Value = serde_json::from_str(&text).expect("cards.json is JSON");
    let small = Deck {
        size: 5,
        duchies: 0,
    };
    let large = Deck {
        size: 47,
        duchies: 3,
    };
    let mut fixed = 0;
    for def in CARDS.iter() {
        let client = &data["cards"][def.key]["vp"];
        let (a, b) = (card_vp(def.id, small), card_vp(def.id, large));
        if a == b && a != 0 {
            assert_eq!(client, &Value::from(a), "{}: vp", def.key);
            fixed += 1;
        } else {
            assert!(
                client.is_null(),
                "{}: no fixed vp, but cards.json says {client}",
                def.key
            );
        }
    }
    assert!(
        fixed >= 8,
        "Estate, Duchy, Province, Curse, Great Hall, Mill, Harem, Nobles: {fixed}"
    );
}
