//! No frame to one seat carries another seat's hidden cards, any deck order, or the seed
//! before the game ends.
//!
//! The canary: after the game the test rebuilds it exactly with the engine from the
//! record the server published (setup, seed, replies), so it knows every hidden card at
//! every moment — each private event's cards and each hand after each reply — and checks
//! every frame every client received against that truth.

use crate::common::{Client, config, simple_reply, start};
use dominion_engine::{CardId, Edition, Event, Game, Kingdom, Mode, PlayerId, Reply, Setup};
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// Like `simple_reply`, but also buys Militia and Moat so attacks, reactions and their
/// private choices happen between the two human seats.
fn curious_reply(decision: &Value) -> Value {
    let p = &decision["prompt"];
    if p["kind"] == "buy_phase" && p["treasures"].as_array().is_some_and(|t| t.is_empty()) {
        let buyable: Vec<&str> = p["buyable"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        for want in ["province", "gold", "militia", "silver", "moat"] {
            if buyable.contains(&want) {
                return json!({"type": "buy", "card": want});
            }
        }
    }
    simple_reply(decision)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_frame_to_a_seat_contains_another_seats_hidden_cards() {
    let addr = start(config()).await;
    let mut ann = Client::connect(addr, "Ann").await;
    let room = ann
        .create_room(json!([{"type": "open"}, {"type": "open"}, {"type": "bot", "bot": "militia"}]))
        .await;
    ann.take_seat(&room).await;
    let mut bob = Client::connect(addr, "Bob").await;
    bob.take_seat(&room).await;
    let mut eve = Client::connect(addr, "Eve").await;
    eve.ask(json!({"type": "spectate", "room": room})).await;
    ann.start().await;

    let play = |mut c: Client| async move {
        loop {
            let v = c.recv().await;
            match v["type"].as_str() {
                Some("decision") => {
                    let d = v["decision"].as_u64().unwrap();
                    c.reply(d, curious_reply(&v)).await;
                }
                Some("game_over") => return (c, v),
                Some("error") => panic!("{}: {v}", c.name),
                _ => {}
            }
        }
    };
    let watch = |mut c: Client| async move {
        let over = c.until(|v| v["type"] == "game_over").await;
        (c, over)
    };
    let ((ann, result), (bob, _), (eve, _)) = tokio::join!(play(ann), play(bob), watch(eve));

    // Rebuild the game from its published record.
    let setup = Setup {
        players: 3,
        kingdom: Kingdom::Recommended("base_2e/first_game".into()),
        edition: Edition::Second,
    };
    assert_eq!(result["setup"]["kingdom"]["id"], "base_2e/first_game");
    let seed: u64 = result["seed"].as_str().unwrap().parse().unwrap();
    let mut game = Game::new(&setup, seed).unwrap();
    let mut hands = vec![hands_of(&game)];
    for r in result["replies"].as_array().unwrap() {
        let seat = PlayerId(r["seat"].as_u64().unwrap() as u8);
        game.reply(seat, engine_reply(&r["reply"]))
            .expect("the record replays");
        hands.push(hands_of(&game));
    }
    assert!(game.is_over());
    let truth = game.events();

    let clients = [(&ann, Some(0u8)), (&bob, Some(1u8)), (&eve, None)];
    let mut copies: Vec<BTreeMap<u64, Value>> = Vec::new();
    let mut private_checked = 0;
    for (client, seat) in clients {
        let over_at = client
            .frames
            .iter()
            .position(|f| f.contains(r#""type":"game_over""#))
            .expect("game_over received");
        let mut events = BTreeMap::new();
        for (i, text) in client.frames.iter().enumerate() {
            let v: Value = serde_json::from_str(text).unwrap();
            if i < over_at {
                // The seed is secret until the end; no key may hold a deck or the RNG.
                assert!(
                    !text.contains(&result["seed"].as_str().unwrap().to_string()),
                    "seed leaked to {}: {text}",
                    client.name
                );
                assert_no_secret_keys(&v, &client.name);
            }
            match v["type"].as_str().unwrap() {
                "decision" => {
                    assert_eq!(v["seat"].as_u64().map(|s| s as u8), seat, "{}", client.name)
                }
                "events" | "snapshot" => {
                    if let Some(list) = v["events"].as_array() {
                        let first = v["first"].as_u64().unwrap();
                        for (k, e) in list.iter().enumerate() {
                            events.insert(first + k as u64, e.clone());
                        }
                    }
                    check_view(&v["view"], seat, &hands, &client.name);
                }
                _ => {}
            }
        }
        assert_eq!(events.len(), truth.len(), "{} missed events", client.name);
        for (n, e) in truth.iter().enumerate() {
            let copy = &events[&(n as u64)];
            if let Some((owner, hidden)) = private_cards(e) {
                if seat == Some(owner) {
                    assert_eq!(
                        copy["cards"],
                        json!(keys(&hidden)),
                        "{} lacks its own cards",
                        client.name
                    );
                } else {
                    assert!(
                        copy.get("cards").is_none(),
                        "event {n} shows seat {owner}'s cards to {}: {copy}",
                        client.name
                    );
                    private_checked += 1;
                }
            }
        }
        copies.push(events);
    }
    assert!(
        private_checked > 100,
        "the game had private events to check ({private_checked})"
    );
    // Public events are the same for everyone.
    for (n, e) in truth.iter().enumerate() {
        if !e.has_private_part() {
            let n = n as u64;
            assert_eq!(copies[0][&n], copies[2][&n]);
            assert_eq!(copies[1][&n], copies[2][&n]);
        }
    }
}

/// Each player's hand after some number of replies.
fn hands_of(game: &Game) -> Vec<Vec<CardId>> {
    game.state()
        .players
        .iter()
        .map(|p| p.hand.clone())
        .collect()
}

/// The owner and cards of an event's private part, if it has one.
fn private_cards(e: &Event) -> Option<(u8, Vec<CardId>)> {
    if !e.has_private_part() {
        return None;
    }
    match e {
        Event::Drew {
            player,
            cards: Some(c),
            ..
        }
        | Event::Discarded {
            player,
            cards: Some(c),
            ..
        }
        | Event::TopDecked {
            player,
            cards: Some(c),
            ..
        } => Some((player.0, c.clone())),
        other => panic!("unexpected private event {other:?}"),
    }
}

/// A view shows its seat's hand as it truly is, other hands only as counts, and
/// spectators no hand at all.
fn check_view(view: &Value, seat: Option<u8>, hands: &[Vec<Vec<CardId>>], who: &str) {
    let at = view["decision"]
        .as_u64()
        .map_or(hands.len() - 1, |d| d as usize);
    let hands = &hands[at];
    match seat {
        Some(s) => assert_eq!(
            view["hand"],
            json!(keys(&hands[s as usize])),
            "{who}'s hand at {at}"
        ),
        None => assert!(view.get("hand").is_none(), "spectator sees a hand"),
    }
    for (i, sv) in view["seats"].as_array().unwrap().iter().enumerate() {
        assert_eq!(
            sv["hand_count"].as_u64().unwrap() as usize,
            hands[i].len(),
            "{who}"
        );
        let fields: Vec<&String> = sv.as_object().unwrap().keys().collect();
        for f in fields {
            assert!(
                !["hand", "deck", "cards"].contains(&f.as_str()),
                "{who}: seat {i} carries {f}"
            );
        }
    }
}

fn assert_no_secret_keys(v: &Value, who: &str) {
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                assert!(
                    !["deck", "rng", "seed", "decks", "state"].contains(&k.as_str()),
                    "{who} got key {k}: {v}"
                );
                assert_no_secret_keys(child, who);
            }
        }
        Value::Array(items) => items.iter().for_each(|c| assert_no_secret_keys(c, who)),
        _ => {}
    }
}

fn keys(cards: &[CardId]) -> Vec<&'static str> {
    cards.iter().map(|c| c.key()).collect()
}

/// The engine reply a wire reply stands for (written from the protocol guide).
fn engine_reply(r: &Value) -> Reply {
    let card = |v: &Value| v.as_str().unwrap().parse::<CardId>().unwrap();
    let cards = |v: &Value| v.as_array().unwrap().iter().map(card).collect();
    match r["type"].as_str().unwrap() {
        "play" => Reply::Play(card(&r["card"])),
        "play_all_treasures" => Reply::PlayAllTreasures,
        "buy" => Reply::Buy(card(&r["card"])),
        "end_phase" => Reply::EndPhase,
        "cards" => Reply::Cards(cards(&r["cards"])),
        "pile" => Reply::Pile(r.get("card").filter(|c| !c.is_null()).map(card)),
        "modes" => Reply::Modes(
            r["modes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| serde_json::from_value::<Mode>(m.clone()).unwrap())
                .collect(),
        ),
        "yes_no" => Reply::YesNo(r["yes"].as_bool().unwrap()),
        "name" => Reply::Name(card(&r["card"])),
        other => panic!("unknown reply {other}"),
    }
}
