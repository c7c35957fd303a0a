//! `GET /api/kingdoms` and `GET /api/cards` over a real socket: every recommended
//! kingdom of the Base rulebooks is offered (and makes a room in either edition), and
//! every Base card says which editions print it.
//!
//! The expected lists are copied from the rulebooks' recommended kingdoms and card
//! lists, not read from the engine, so a card or kingdom dropped by mistake fails here.

use crate::common::{Client, config, start};
use crate::game::http_get;
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// (id, name, edition, cards) of every Base recommended kingdom.
const BASE_KINGDOMS: &[(&str, &str, &str, [&str; 10])] = &[
    (
        "base_1e/first_game",
        "First Game (1E)",
        "1e",
        [
            "cellar",
            "market",
            "militia",
            "mine",
            "moat",
            "remodel",
            "smithy",
            "village",
            "woodcutter",
            "workshop",
        ],
    ),
    (
        "base_1e/big_money",
        "Big Money (1E)",
        "1e",
        [
            "adventurer",
            "bureaucrat",
            "chancellor",
            "chapel",
            "feast",
            "laboratory",
            "market",
            "mine",
            "moneylender",
            "throne_room",
        ],
    ),
    (
        "base_1e/interaction",
        "Interaction (1E)",
        "1e",
        [
            "bureaucrat",
            "chancellor",
            "council_room",
            "festival",
            "library",
            "militia",
            "moat",
            "spy",
            "thief",
            "village",
        ],
    ),
    (
        "base_1e/size_distortion",
        "Size Distortion (1E)",
        "1e",
        [
            "cellar",
            "chapel",
            "feast",
            "gardens",
            "laboratory",
            "thief",
            "village",
            "witch",
            "woodcutter",
            "workshop",
        ],
    ),
    (
        "base_1e/village_square",
        "Village Square (1E)",
        "1e",
        [
            "bureaucrat",
            "cellar",
            "festival",
            "library",
            "market",
            "remodel",
            "smithy",
            "throne_room",
            "village",
            "woodcutter",
        ],
    ),
    (
        "base_2e/first_game",
        "First Game",
        "2e",
        [
            "cellar", "market", "merchant", "militia", "mine", "moat", "remodel", "smithy",
            "village", "workshop",
        ],
    ),
    (
        "base_2e/size_distortion",
        "Size Distortion",
        "2e",
        [
            "artisan",
            "bandit",
            "bureaucrat",
            "chapel",
            "festival",
            "gardens",
            "sentry",
            "throne_room",
            "witch",
            "workshop",
        ],
    ),
    (
        "base_2e/deck_top",
        "Deck Top",
        "2e",
        [
            "artisan",
            "bureaucrat",
            "council_room",
            "festival",
            "harbinger",
            "laboratory",
            "moneylender",
            "sentry",
            "vassal",
            "village",
        ],
    ),
    (
        "base_2e/sleight_of_hand",
        "Sleight of Hand",
        "2e",
        [
            "cellar",
            "council_room",
            "festival",
            "gardens",
            "library",
            "harbinger",
            "militia",
            "poacher",
            "smithy",
            "throne_room",
        ],
    ),
    (
        "base_2e/improvements",
        "Improvements",
        "2e",
        [
            "artisan",
            "cellar",
            "market",
            "merchant",
            "mine",
            "moat",
            "moneylender",
            "poacher",
            "remodel",
            "witch",
        ],
    ),
    (
        "base_2e/silver_and_gold",
        "Silver & Gold",
        "2e",
        [
            "bandit",
            "bureaucrat",
            "chapel",
            "harbinger",
            "laboratory",
            "merchant",
            "mine",
            "moneylender",
            "throne_room",
            "vassal",
        ],
    ),
];

/// Base kingdom cards printed only in the 1st edition, only in the 2nd, and in both
/// (Bureaucrat, Mine, Moneylender and Throne Room with a different text in each).
const FIRST_ONLY: &[&str] = &[
    "adventurer",
    "chancellor",
    "feast",
    "spy",
    "thief",
    "woodcutter",
];
const SECOND_ONLY: &[&str] = &[
    "artisan",
    "bandit",
    "harbinger",
    "merchant",
    "poacher",
    "sentry",
    "vassal",
];
const BOTH: &[&str] = &[
    "bureaucrat",
    "cellar",
    "chapel",
    "council_room",
    "festival",
    "gardens",
    "laboratory",
    "library",
    "market",
    "militia",
    "mine",
    "moat",
    "moneylender",
    "remodel",
    "smithy",
    "throne_room",
    "village",
    "witch",
    "workshop",
];
const BASIC: &[&str] = &[
    "copper", "silver", "gold", "estate", "duchy", "province", "curse",
];

fn sorted(cards: &Value) -> Vec<String> {
    let mut v: Vec<String> = cards
        .as_array()
        .unwrap_or_else(|| panic!("not a card list: {cards}"))
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect();
    v.sort();
    v
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_base_recommended_kingdom_is_listed_and_makes_a_room_in_either_edition() {
    let addr = start(config()).await;
    let listed: Value = serde_json::from_str(&http_get(addr, "/api/kingdoms").await).unwrap();
    let listed = listed.as_array().expect("an array");
    let by_id: BTreeMap<&str, &Value> = listed
        .iter()
        .map(|k| (k["id"].as_str().expect("id"), k))
        .collect();
    assert_eq!(by_id.len(), listed.len(), "an id is listed twice");
    for (id, name, edition, cards) in BASE_KINGDOMS {
        let k = by_id
            .get(id)
            .unwrap_or_else(|| panic!("GET /api/kingdoms lacks {id}"));
        assert_eq!(k["name"], *name, "{id}");
        assert_eq!(k["edition"], *edition, "{id}");
        let mut want: Vec<String> = cards.iter().map(|c| c.to_string()).collect();
        want.sort();
        assert_eq!(sorted(&k["cards"]), want, "{id}");
    }
    let base = listed
        .iter()
        .filter(|k| k["id"].as_str().unwrap().starts_with("base_"))
        .filter(|k| k["id"].as_str().unwrap().split('/').next().unwrap().len() == 7)
        .count();
    assert_eq!(
        base,
        BASE_KINGDOMS.len(),
        "5 Base 1E and 6 Base 2E kingdoms"
    );

    // Each one starts a game in a room of either edition, by id and by name.
    for (id, name, _, cards) in BASE_KINGDOMS {
        for (edition, choice) in [("1e", *id), ("2e", *name)] {
            let mut ann = Client::connect(addr, "Ann").await;
            let room = ann
                .create_room_with(json!({
                    "kingdom": {"type": "recommended", "id": choice},
                    "edition": edition,
                    "seats": [{"type": "open"}, {"type": "bot", "bot": "big_money"}],
                }))
                .await;
            ann.take_seat(&room).await;
            ann.start().await;
            let first = ann.until(|v| v["type"] == "events").await;
            let started = &first["events"][0];
            assert_eq!(started["type"], "game_started", "{first}");
            let mut want: Vec<String> = cards.iter().map(|c| c.to_string()).collect();
            want.sort();
            assert_eq!(
                sorted(&started["kingdom"]),
                want,
                "{id} in a {edition} room"
            );
            assert_eq!(first["view"]["edition"], edition, "{id}");
        }
    }
}

#[tokio::test]
async fn every_card_says_which_editions_print_it() {
    let addr = start(config()).await;
    let cards: Value = serde_json::from_str(&http_get(addr, "/api/cards").await).unwrap();
    let by_id: BTreeMap<&str, &Value> = cards
        .as_array()
        .expect("an array")
        .iter()
        .map(|c| (c["id"].as_str().expect("id"), c))
        .collect();
    let expect = |ids: &[&str], editions: Value, kingdom: bool| {
        for id in ids {
            let c = by_id
                .get(id)
                .unwrap_or_else(|| panic!("GET /api/cards lacks {id}"));
            assert_eq!(c["editions"], editions, "{id}");
            assert_eq!(c["kingdom"], kingdom, "{id}");
            assert!(c["name"].as_str().is_some_and(|n| !n.is_empty()), "{id}");
        }
    };
    expect(FIRST_ONLY, json!(["1e"]), true);
    expect(SECOND_ONLY, json!(["2e"]), true);
    expect(BOTH, json!(["1e", "2e"]), true);
    expect(BASIC, json!(["1e", "2e"]), false);
    // A few printed facts of the new cards.
    for (id, cost, types) in [
        ("spy", 4, json!(["action", "attack"])),
        ("thief", 4, json!(["action", "attack"])),
        ("bandit", 5, json!(["action", "attack"])),
        ("sentry", 5, json!(["action"])),
        ("gardens", 4, json!(["victory"])),
        ("adventurer", 6, json!(["action"])),
    ] {
        assert_eq!(by_id[id]["cost"], cost, "{id}");
        assert_eq!(by_id[id]["types"], types, "{id}");
    }
}
