//! A player who holds Moat and chooses not to reveal it cannot be identified: while a
//! player is asked whether to reveal a Reaction, no other seat (nor a spectator) is told
//! whom the game waits for. Only holders of a Reaction are asked, so naming them would
//! give their hand away. Nor do the decision numbers tell: a Reaction question takes a
//! number between two others, so the numbers everyone else gets are what they would be
//! had it not been asked.

use crate::common::{Client, config, simple_reply, start};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::time::Duration;

const ATTACKS: &[&str] = &["militia", "witch", "bureaucrat"];

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

    let mut windows = 0;
    let mut declined = 0;
    let mut numbers_checked = 0;
    for (holder, seat) in &clients[..3] {
        let holder_seat = seat.unwrap();
        let mut events = BTreeMap::new();
        for text in &holder.frames {
            let v: Value = serde_json::from_str(text).unwrap();
            collect(&v, &mut events);
            if v["type"] != "decision" || v["purpose"] != "react" {
                continue;
            }
            assert_eq!(v["prompt"]["options"], json!(["moat"]), "{v}");
            declined += 1;
            let asked = v["decision"].as_u64().unwrap();
            assert_ne!(
                asked % 1000,
                0,
                "a Reaction question is numbered in between: {v}"
            );
            let base = asked - asked % 1000;
            // The Attack this question answers: the last one played before it.
            let (&attack, played) = events
                .iter()
                .rev()
                .find(|(_, e)| {
                    ["played", "played_again"].contains(&e["type"].as_str().unwrap())
                        && ATTACKS.contains(&e["card"].as_str().unwrap())
                })
                .expect("an Attack was played before the Reaction question");
            assert_ne!(played["seat"], holder_seat, "the attacker is not asked");
            for (other, other_seat) in clients.iter().filter(|(_, s)| *s != *seat) {
                let seen = window(other, attack);
                assert!(!seen.is_empty(), "{} did not get the Attack", other.name);
                for f in &seen {
                    let view = &f["view"];
                    assert_ne!(
                        view["waiting_for"], holder_seat,
                        "{} ({other_seat:?}) is told that seat {holder_seat} is asked about Moat: {f}",
                        other.name
                    );
                    if f["type"] == "events" || f["type"] == "snapshot" {
                        assert!(
                            view.get("waiting_for").is_some() || view.get("decision").is_none(),
                            "{}: a decision number without whose: {f}",
                            other.name
                        );
                        // Only a viewer asked about its own Reaction meanwhile is told.
                        assert!(
                            view.get("waiting_for").is_none()
                                || view["waiting_for"] == json!(other_seat),
                            "{}: told whom the game waits for during a Reaction question: {f}",
                            other.name
                        );
                    }
                }
                windows += 1;
                // The next decision of its own another seat gets (but a Reaction question)
                // is numbered as if no Reaction question had been asked.
                if let Some(n) = other_seat.and_then(|_| next_decision(other, attack)) {
                    assert!(
                        n % 1000 == 0 && n >= base,
                        "{}: decision {n} after seat {holder_seat} declined Moat at {asked}",
                        other.name
                    );
                    numbers_checked += 1;
                }
            }
        }
    }
    assert!(
        declined >= 1 && windows == 3 * declined,
        "a Moat holder declined at least once ({declined}), and each time the three \
         others' frames were checked ({windows})"
    );
    assert!(
        numbers_checked >= declined,
        "other seats got decisions after the declined Moats ({numbers_checked})"
    );
    check_numbers(&clients);
}

/// Every decision a seat got is numbered as the protocol says: a multiple of 1000 unless
/// it is a Reaction question; and the record's decision numbers are, in order, 0, 1000,
/// 2000, … for the replies to other questions, whatever Reaction questions came between
/// (those are numbered `1000 × s + 1`, `+ 2`, … before decision `1000 × s`).
fn check_numbers(clients: &[(&Client, Option<u64>)]) {
    let mut purposes = BTreeMap::new();
    for (c, _) in &clients[..3] {
        for v in frames(c).filter(|v| v["type"] == "decision") {
            let n = v["decision"].as_u64().unwrap();
            assert_eq!(n % 1000 == 0, v["purpose"] != "react", "{}: {v}", c.name);
            purposes.insert(n, v["purpose"].clone());
        }
    }
    let over = frames(clients[0].0)
        .find(|v| v["type"] == "game_over")
        .expect("game_over received");
    let (mut settled, mut reacts) = (0, 0);
    for r in over["replies"].as_array().unwrap() {
        let n = r["decision"].as_u64().unwrap();
        let purpose = purposes
            .get(&n)
            .unwrap_or_else(|| panic!("reply {r} answers a decision no seat was asked"));
        if purpose == "react" {
            assert_eq!(n, 1000 * settled + 1 + reacts, "{r}");
            reacts += 1;
        } else {
            assert_eq!(n, 1000 * settled, "{r}");
            settled += 1;
            reacts = 0;
        }
    }
}

/// The number of the first decision other than a Reaction question that `c` got after
/// the frame holding event `n`, if any.
fn next_decision(c: &Client, n: u64) -> Option<u64> {
    frames(c)
        .skip_while(|f| !ends_at(f, n))
        .find(|f| f["type"] == "decision" && f["purpose"] != "react")
        .map(|f| f["decision"].as_u64().unwrap())
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

/// Adds a frame's events to `events`, by number.
fn collect(v: &Value, events: &mut BTreeMap<u64, Value>) {
    if v["type"] == "events" {
        let first = v["first"].as_u64().unwrap();
        for (k, e) in v["events"].as_array().unwrap().iter().enumerate() {
            events.insert(first + k as u64, e.clone());
        }
    }
}

/// Whether `f` is an `events` frame whose last event is number `n`.
fn ends_at(f: &Value, n: u64) -> bool {
    f["type"] == "events"
        && f["first"].as_u64().unwrap() + f["events"].as_array().unwrap().len() as u64 == n + 1
}

/// The frames `c` received from the one holding event `n` up to (not including) the one
/// holding event `n + 1`.
fn window(c: &Client, n: u64) -> Vec<Value> {
    let frames: Vec<Value> = c
        .frames
        .iter()
        .map(|f| serde_json::from_str(f).unwrap())
        .collect();
    let Some(start) = frames.iter().position(|f| ends_at(f, n)) else {
        return Vec::new();
    };
    frames[start..]
        .iter()
        .enumerate()
        .take_while(|(i, f)| {
            *i == 0 || f["type"] != "events" || f["events"].as_array().unwrap().is_empty()
        })
        .map(|(_, f)| f.clone())
        .collect()
}
