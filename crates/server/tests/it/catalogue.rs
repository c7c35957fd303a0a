//! `GET /api/kingdoms` and `GET /api/cards` over a real socket: every recommended
//! kingdom of the Base rulebooks is offered (and makes a room in either edition), every
//! Base card says which editions print it, every kingdom card says its set, and a random
//! kingdom limited to some sets draws only from them.
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
/// Intrigue's kingdom cards: printed only in the 1st edition, only in the 2nd, in both.
const INTRIGUE_FIRST_ONLY: &[&str] = &[
    "coppersmith",
    "great_hall",
    "saboteur",
    "scout",
    "secret_chamber",
    "tribute",
];
const INTRIGUE_SECOND_ONLY: &[&str] = &[
    "courtier",
    "diplomat",
    "lurker",
    "mill",
    "patrol",
    "replace",
    "secret_passage",
];
const INTRIGUE_BOTH: &[&str] = &[
    "baron",
    "bridge",
    "conspirator",
    "courtyard",
    "duke",
    "harem",
    "ironworks",
    "masquerade",
    "mining_village",
    "minion",
    "nobles",
    "pawn",
    "shanty_town",
    "steward",
    "swindler",
    "torturer",
    "trading_post",
    "upgrade",
    "wishing_well",
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

#[tokio::test]
async fn every_kingdom_card_says_its_set() {
    let addr = start(config()).await;
    let cards: Value = serde_json::from_str(&http_get(addr, "/api/cards").await).unwrap();
    let cards = cards.as_array().expect("an array");
    let set_of: BTreeMap<&str, Option<&str>> = cards
        .iter()
        .map(|c| {
            (
                c["id"].as_str().unwrap(),
                c.get("set").map(|s| s.as_str().unwrap()),
            )
        })
        .collect();
    let mut want = BTreeMap::new();
    for id in FIRST_ONLY.iter().chain(SECOND_ONLY).chain(BOTH) {
        want.insert(*id, Some("base"));
    }
    for id in INTRIGUE_FIRST_ONLY
        .iter()
        .chain(INTRIGUE_SECOND_ONLY)
        .chain(INTRIGUE_BOTH)
    {
        want.insert(*id, Some("intrigue"));
    }
    for id in BASIC {
        want.insert(*id, None);
    }
    assert_eq!(
        set_of, want,
        "every card, with its set (none for basic cards)"
    );
    // Intrigue's printings, as for Base.
    for (ids, editions) in [
        (INTRIGUE_FIRST_ONLY, json!(["1e"])),
        (INTRIGUE_SECOND_ONLY, json!(["2e"])),
        (INTRIGUE_BOTH, json!(["1e", "2e"])),
    ] {
        for id in ids {
            let c = cards.iter().find(|c| c["id"] == *id).unwrap();
            assert_eq!(c["editions"], editions, "{id}");
            assert_eq!(c["kingdom"], true, "{id}");
        }
    }
}

/// Starts a game in a new room whose kingdom is `kingdom`; returns the room's listed
/// kingdom choice and the ten cards the game started with.
async fn started_with(
    addr: std::net::SocketAddr,
    kingdom: Value,
    edition: &str,
) -> (Value, Vec<String>) {
    let mut ann = Client::connect(addr, "Ann").await;
    let created = ann
        .ask(json!({"type": "create_room", "settings": {
            "kingdom": kingdom,
            "edition": edition,
            "seats": [{"type": "open"}, {"type": "bot", "bot": "big_money"}],
        }}))
        .await;
    assert_eq!(created["type"], "room_created", "{created}");
    let room = created["room"]["id"].as_str().unwrap().to_string();
    ann.take_seat(&room).await;
    ann.start().await;
    let first = ann.until(|v| v["type"] == "events").await;
    let started = &first["events"][0];
    assert_eq!(started["type"], "game_started", "{first}");
    assert_eq!(first["view"]["edition"], edition);
    (
        created["room"]["settings"]["kingdom"].clone(),
        sorted(&started["kingdom"]),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_random_kingdom_draws_from_the_sets_asked_for_in_the_pool_asked_for() {
    let addr = start(config()).await;
    let base: Vec<&str> = FIRST_ONLY
        .iter()
        .chain(SECOND_ONLY)
        .chain(BOTH)
        .copied()
        .collect();
    let intrigue: Vec<&str> = INTRIGUE_FIRST_ONLY
        .iter()
        .chain(INTRIGUE_SECOND_ONLY)
        .chain(INTRIGUE_BOTH)
        .copied()
        .collect();
    let first: Vec<&str> = [FIRST_ONLY, BOTH, INTRIGUE_FIRST_ONLY, INTRIGUE_BOTH].concat();
    let second: Vec<&str> = [SECOND_ONLY, BOTH, INTRIGUE_SECOND_ONLY, INTRIGUE_BOTH].concat();
    let any: Vec<&str> = [base.clone(), intrigue.clone()].concat();
    // (kingdom choice, room edition, the sets' cards, the pool's cards)
    let cases = [
        (
            json!({"type": "random", "pool": "1e", "sets": ["intrigue"]}),
            "1e",
            &intrigue,
            &first,
        ),
        // Without a pool, the room's edition.
        (
            json!({"type": "random", "sets": ["intrigue"]}),
            "2e",
            &intrigue,
            &second,
        ),
        (
            json!({"type": "random", "sets": ["base"]}),
            "1e",
            &base,
            &first,
        ),
        (
            json!({"type": "random", "pool": "2e", "sets": ["base"]}),
            "1e",
            &base,
            &second,
        ),
        (
            json!({"type": "random", "pool": "both", "sets": ["intrigue", "base"]}),
            "2e",
            &any,
            &any,
        ),
    ];
    for (kingdom, edition, sets, pool) in cases {
        for _ in 0..3 {
            let (listed, drawn) = started_with(addr, kingdom.clone(), edition).await;
            assert_eq!(listed, kingdom, "the room lists the choice as asked");
            assert_eq!(drawn.len(), 10, "{kingdom}: {drawn:?}");
            for card in &drawn {
                assert!(
                    sets.contains(&card.as_str()),
                    "{kingdom}: {card} is not of the sets"
                );
                assert!(
                    pool.contains(&card.as_str()),
                    "{kingdom}: {card} is not in the pool"
                );
            }
        }
    }

    // Refused with a reason, and no room is made.
    let mut bob = Client::connect(addr, "Bob").await;
    let listed = bob.ask(json!({"type": "list_rooms"})).await;
    let rooms = listed["rooms"].as_array().expect("rooms").len();
    for (sets, code, says) in [
        (
            json!([]),
            "invalid_settings",
            "a random kingdom needs at least one set to draw from",
        ),
        (
            json!(["base", "intrigue", "base"]),
            "invalid_settings",
            "the set Base is named twice",
        ),
        (
            json!(["seaside"]),
            "bad_message",
            "unknown variant `seaside`, expected `base` or `intrigue`",
        ),
        (json!(["basic"]), "bad_message", "unknown variant `basic`"),
        (json!("base"), "bad_message", "sequence"),
    ] {
        let e = bob
            .ask(json!({"type": "create_room", "settings": {
                "kingdom": {"type": "random", "pool": "both", "sets": sets},
                "seats": [{"type": "open"}, {"type": "open"}],
            }}))
            .await;
        assert_eq!(e["type"], "error", "{sets}: {e}");
        assert_eq!(e["code"], code, "{sets}: {e}");
        let message = e["message"].as_str().unwrap();
        assert!(message.contains(says), "{sets}: {message}");
    }
    let listed = bob.ask(json!({"type": "list_rooms"})).await;
    assert_eq!(listed["rooms"].as_array().unwrap().len(), rooms, "{listed}");
}
