//! A rematch over the protocol: after the game, a player creates a room with the same
//! seats and kingdom and names it with `rematch`; the other player and a spectator get
//! `rematch` at once, a player who resumes later gets it after `game_over`, and both
//! take their old seats in the new room. Refused before the end (`game_not_over`), from
//! a spectator (`not_seated`), for an unknown room or one that is not waiting, and for a
//! room another connection created (`not_host`, issue 23).

use crate::common::{Client, config, start};
use serde_json::{Value, json};
use std::time::Duration;

fn code(v: &Value) -> &str {
    assert_eq!(v["type"], "error", "{v}");
    v["code"].as_str().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_is_offered_to_the_old_rooms_members_and_taken_in_the_new_room() {
    let addr = start(config()).await;
    let mut ann = Client::connect(addr, "Ann").await;
    let mut bob = Client::connect(addr, "Bob").await;
    let mut carl = Client::connect(addr, "Carl").await;
    let settings = json!({
        "name": "Ann and Bob",
        "kingdom": {"type": "random", "pool": "2e", "sets": ["base"]},
        "seats": [{"type": "open"}, {"type": "open"}],
        "abandoned": {"type": "wait"},
    });
    let old = ann.create_room_with(settings.clone()).await;
    ann.take_seat(&old).await;
    bob.take_seat(&old).await;
    let watching = carl.ask(json!({"type": "spectate", "room": old})).await;
    assert_eq!(watching["type"], "spectating", "{watching}");
    ann.start().await;

    // Not before the end.
    let lobby = ann.create_room_with(settings.clone()).await;
    let early = ann.ask(json!({"type": "rematch", "room": lobby})).await;
    assert_eq!(code(&early), "game_not_over", "{early}");

    let (over, _) = tokio::time::timeout(Duration::from_secs(120), async {
        tokio::join!(
            ann.play_to_end(Duration::ZERO),
            bob.play_to_end(Duration::ZERO)
        )
    })
    .await
    .expect("the game ends");
    let kingdom = over["kingdom"].clone();

    // The same seats and kingdom, as the cards drawn; a new room.
    let mut again = settings.clone();
    again["kingdom"] = json!({"type": "cards", "cards": kingdom});
    let new = ann.create_room_with(again).await;
    assert_ne!(new, old);

    for (room, want) in [
        ("nosuchroom".to_string(), "unknown_room"),
        (old.clone(), "game_already_started"),
    ] {
        let refused = ann.ask(json!({"type": "rematch", "room": room})).await;
        assert_eq!(code(&refused), want, "{refused}");
    }
    let refused = carl.ask(json!({"type": "rematch", "room": new})).await;
    assert_eq!(code(&refused), "not_seated", "{refused}");

    let ack = ann.ask(json!({"type": "rematch", "room": new})).await;
    assert_eq!(ack["type"], "ack", "{ack}");
    let offer = json!({"type": "rematch", "room": new, "seat": 0});
    for c in [&mut bob, &mut carl] {
        let got = c.until(|v| v["type"] == "rematch").await;
        assert_eq!(got, offer, "{}", c.name);
    }

    // Bob comes back on another connection: the offer follows game_over.
    let token = bob.token.clone().expect("Bob's token");
    drop(bob);
    let mut bob = Client::connect(addr, "Bob").await;
    let seated = bob
        .ask(json!({"type": "resume", "room": old, "token": token}))
        .await;
    assert_eq!(seated["type"], "seated", "{seated}");
    let got = bob.until(|v| v["type"] == "rematch").await;
    assert_eq!(got, offer);
    let types: Vec<String> = bob
        .frames
        .iter()
        .map(|f| {
            serde_json::from_str::<Value>(f).unwrap()["type"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    let over_at = types
        .iter()
        .position(|t| t == "game_over")
        .expect("game_over");
    let offer_at = types.iter().position(|t| t == "rematch").expect("rematch");
    assert!(
        over_at < offer_at,
        "game_over comes before the offer: {types:?}"
    );

    // Both take their old seats in the new room.
    for (c, seat) in [(&mut ann, 0), (&mut bob, 1)] {
        let left = c.ask(json!({"type": "leave"})).await;
        assert_eq!(left["type"], "ack", "{left}");
        let name = c.name.clone();
        let seated = c
            .ask(json!({"type": "take_seat", "room": new, "seat": seat, "name": name}))
            .await;
        assert_eq!(seated["type"], "seated", "{seated}");
        assert_eq!(seated["seat"], seat);
    }
    let room = ann
        .until(|v| v["type"] == "room" && v["room"]["id"] == new.as_str())
        .await;
    assert_eq!(
        room["room"]["settings"]["kingdom"],
        json!({"type": "cards", "cards": kingdom})
    );
    assert_eq!(room["room"]["settings"]["seats"], settings["seats"]);
    ann.start().await;
    let started = ann.until(|v| v["type"] == "events").await;
    let first = &started["events"][0];
    assert_eq!(first["type"], "game_started");
    assert_eq!(
        first["kingdom"], kingdom,
        "the rematch has the same kingdom"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_offer_names_only_a_room_its_player_created() {
    let addr = start(config()).await;
    // Ann's game against a bot, played to its end (a game nobody is connected to
    // stands still, so she plays it rather than leaving it to a bot).
    let mut ann = Client::connect(addr, "Ann").await;
    let old = ann
        .create_room_with(json!({
            "kingdom": {"type": "recommended", "id": "base_2e/first_game"},
            "seats": [{"type": "open"}, {"type": "bot", "bot": "big_money"}],
        }))
        .await;
    ann.take_seat(&old).await;
    ann.start().await;
    let over = tokio::time::timeout(Duration::from_secs(120), ann.play_to_end(Duration::ZERO))
        .await
        .expect("the game ends");
    assert_eq!(over["type"], "game_over");

    // Someone else's waiting room: not Ann's to offer.
    let mut mallory = Client::connect(addr, "Mallory").await;
    let theirs = mallory
        .create_room(json!([{"type": "open"}, {"type": "open"}]))
        .await;
    let refused = ann.ask(json!({"type": "rematch", "room": theirs})).await;
    assert_eq!(code(&refused), "not_host", "{refused}");
    assert!(
        refused["message"].as_str().unwrap().contains("you created"),
        "{refused}"
    );
    // A room Ann created is.
    let mine = ann
        .create_room(json!([{"type": "open"}, {"type": "bot", "bot": "big_money"}]))
        .await;
    let ack = ann.ask(json!({"type": "rematch", "room": mine})).await;
    assert_eq!(ack["type"], "ack", "{ack}");
}
