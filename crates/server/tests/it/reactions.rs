//! A player who holds Moat and chooses not to reveal it cannot be identified: while a
//! player is asked whether to reveal a Reaction (a private question, like every card's
//! question), every other seat and spectator is shown the game as at the last public
//! decision, and is sent nothing until the next one. Only holders of a Reaction are asked,
//! so any sign of the question would give their hand away. Nor do the decision numbers
//! tell: a private question takes a number between two public ones from its seat's own
//! share, so the numbers everyone else gets are what they would be had it not been asked.

use crate::common::{Client, config, simple_reply, start};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_declining_to_reveal_moat_is_not_named_to_anyone_else() {
    let addr = start(config()).await;
    let mut ann = Client::connect(addr, "Ann").await;
    let room = ann
        .create_room_with(json!({
            "kingdom": {"type": "cards", "cards": [
                "moat", "militia", "witch", "bureaucrat", "village", "smithy", "cellar",
                "market", "festival", "laboratory",
            ]},
            "seats": [{"type": "open"}, {"type": "open"}, {"type": "open"}],
        }))
        .await;
    ann.take_seat(&room).await;
    let mut bob = Client::connect(addr, "Bob").await;
    bob.take_seat(&room).await;
    let mut cat = Client::connect(addr, "Cat").await;
    cat.take_seat(&room).await;
    let mut eve = Client::connect(addr, "Eve").await;
    eve.ask(json!({"type": "spectate", "room": room})).await;
    ann.start().await;

    let watch = |mut c: Client| async move {
        c.until(|v| v["type"] == "game_over").await;
        c
    };
    let (ann, bob, cat, eve) = tokio::time::timeout(Duration::from_secs(180), async {
        tokio::join!(play(ann), play(bob), play(cat), watch(eve))
    })
    .await
    .expect("the game ends within 180 s");
    let clients = [
        (&ann, Some(0u64)),
        (&bob, Some(1)),
        (&cat, Some(2)),
        (&eve, None),
    ];

    // Every Moat question was declined, and nobody else was ever shown a moment inside
    // a card's resolution: each frame another viewer got shows the game at a public
    // decision (a phase move of the seat whose turn it is: `waiting_for` is `current`),
    // or at that viewer's own private question (`waiting_for` is the viewer).
    let mut declined = 0;
    for (holder, _) in &clients[..3] {
        for v in frames(holder) {
            if v["type"] == "decision" && v["purpose"] == "react" {
                assert_eq!(v["prompt"]["options"], json!(["moat"]), "{v}");
                assert_ne!(v["decision"].as_u64().unwrap() % 1000, 0, "{v}");
                declined += 1;
            }
        }
    }
    assert!(declined >= 1, "a Moat holder was asked at least once");
    let mut frames_checked = 0;
    for (c, seat) in &clients {
        for f in frames(c).filter(|f| f["type"] == "events" || f["type"] == "snapshot") {
            let view = &f["view"];
            if view["game_over"] == true {
                continue;
            }
            let waiting = &view["waiting_for"];
            let public = *waiting == view["current"]
                && ["action", "buy"].contains(&view["phase"].as_str().unwrap());
            let own = seat.is_some_and(|s| *waiting == json!(s));
            assert!(
                public || own,
                "{} was shown a moment inside a card's resolution: {f}",
                c.name
            );
            assert_eq!(
                view.get("decision").is_some(),
                own,
                "{}: a decision number in a view not its own: {f}",
                c.name
            );
            frames_checked += 1;
        }
    }
    assert!(frames_checked > 100, "{frames_checked} frames checked");
    check_numbers(&clients);
}

/// Every decision a seat got is numbered as the protocol says: a phase move is a
/// multiple of 1000, a card's question (private) is not; and the record's decision
/// numbers are, in order, 0, 1000, 2000, … for the phase moves, whatever private
/// questions came between, which are numbered `1000 × s + 1 + 166 × seat + k` for the
/// seat's k-th private question after phase move `1000 × s` was answered; the numbers
/// each seat got increase.
fn check_numbers(clients: &[(&Client, Option<u64>)]) {
    let phase = |p: &Value| p == "action_phase" || p == "buy_phase";
    let mut purposes = BTreeMap::new();
    for (c, _) in &clients[..3] {
        for v in frames(c).filter(|v| v["type"] == "decision") {
            let n = v["decision"].as_u64().unwrap();
            assert_eq!(n % 1000 == 0, phase(&v["purpose"]), "{}: {v}", c.name);
            purposes.insert(n, v["purpose"].clone());
        }
    }
    let over = frames(clients[0].0)
        .find(|v| v["type"] == "game_over")
        .expect("game_over received");
    let mut settled = 0;
    let mut own = [0u64; 3];
    for r in over["replies"].as_array().unwrap() {
        let n = r["decision"].as_u64().unwrap();
        let seat = r["seat"].as_u64().unwrap();
        let purpose = purposes
            .get(&n)
            .unwrap_or_else(|| panic!("reply {r} answers a decision no seat was asked"));
        if phase(purpose) {
            assert_eq!(n, 1000 * settled, "{r}");
            settled += 1;
            own = [0; 3];
        } else {
            assert_eq!(
                n,
                1000 * (settled - 1) + 1 + 166 * seat + own[seat as usize],
                "{r}"
            );
            own[seat as usize] += 1;
        }
    }
    for (c, _) in &clients[..3] {
        let mine: Vec<u64> = frames(c)
            .filter(|v| v["type"] == "decision")
            .map(|v| v["decision"].as_u64().unwrap())
            .collect();
        assert!(
            mine.windows(2).all(|w| w[0] <= w[1]),
            "{}: its numbers go back: {mine:?}",
            c.name
        );
    }
}

fn frames(c: &Client) -> impl Iterator<Item = Value> + '_ {
    c.frames.iter().map(|f| serde_json::from_str(f).unwrap())
}

/// Plays with `simple_reply`, first buying the Attacks and two Moats, and never
/// reveals Moat.
async fn play(mut c: Client) -> Client {
    let mut todo = vec!["witch", "militia", "moat", "bureaucrat", "moat"];
    loop {
        let v = c.recv().await;
        match v["type"].as_str() {
            Some("decision") => {
                let d = v["decision"].as_u64().unwrap();
                let reply = if v["purpose"] == "react" {
                    json!({"type": "cards", "cards": []})
                } else {
                    buy_from(&v, &mut todo).unwrap_or_else(|| simple_reply(&v))
                };
                c.reply(d, reply).await;
            }
            Some("game_over") => return c,
            Some("error") => panic!("{}: {v}", c.name),
            _ => {}
        }
    }
}

/// The first card of `todo` that can be bought now (unless a Province can), taken off
/// the list.
fn buy_from(d: &Value, todo: &mut Vec<&str>) -> Option<Value> {
    let p = &d["prompt"];
    if p["kind"] != "buy_phase" || !p["treasures"].as_array()?.is_empty() {
        return None;
    }
    let buyable: Vec<&str> = p["buyable"]
        .as_array()?
        .iter()
        .filter_map(Value::as_str)
        .collect();
    if buyable.contains(&"province") {
        return None;
    }
    let i = todo.iter().position(|w| buyable.contains(w))?;
    Some(json!({"type": "buy", "card": todo.remove(i)}))
}
