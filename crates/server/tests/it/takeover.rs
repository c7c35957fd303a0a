//! The server's own players with the new cards: a room's bots, the `standard` bot that
//! answers when a human's time runs out, and the one that takes over a seat whose
//! player left or dropped, must answer every question the new cards ask, or the room
//! would break. Two rooms, one per edition, on kingdoms of the new cards only, end with
//! bots in every seat but one (a game no player is connected to stands still, so one
//! player stays to the end).

use crate::common::{Client, Curious, config, replay_record, start};
use dominion_engine::{Purpose, Request};
use serde_json::json;
use std::collections::BTreeSet;
use std::time::Duration;

/// Decisions each human answers (or lets run out) before going away.
const HUMAN_DECISIONS: usize = 60;
/// Card decisions Bob lets run out (at most), for the fallback bot to answer.
const TIMEOUTS: usize = 5;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_answer_every_decision_of_the_new_cards_to_the_end() {
    let first = [
        "adventurer",
        "chancellor",
        "feast",
        "spy",
        "thief",
        "woodcutter",
        "bureaucrat",
        "gardens",
        "library",
        "moneylender",
    ];
    let second = [
        "artisan",
        "bandit",
        "harbinger",
        "poacher",
        "sentry",
        "vassal",
        "bureaucrat",
        "gardens",
        "library",
        "moneylender",
    ];
    let addr = start(config()).await;
    let (a, b) = tokio::time::timeout(Duration::from_secs(240), async {
        tokio::join!(room(addr, &first, "1e"), room(addr, &second, "2e"))
    })
    .await
    .expect("both rooms end within 240 s");
    // Between them, the stand-ins answered questions of the new cards.
    let asked: BTreeSet<String> = a.into_iter().chain(b).collect();
    assert!(
        asked.len() >= 4,
        "the bots answered few kinds of new-card questions: {asked:?}"
    );
}

/// Plays one room: Ann and Bob buy and play the kingdom; Bob lets a few card decisions
/// run out (the fallback bot answers); after `HUMAN_DECISIONS` Ann leaves and Bob's
/// connection drops, so `standard` takes over both seats and plays them, with the
/// room's `random` bot and Cid, who stays and answers at once, to the end. Returns the
/// (card, purpose) of every question a stand-in answered for a human.
async fn room(addr: std::net::SocketAddr, kingdom: &[&str], edition: &str) -> Vec<String> {
    let mut ann = Client::connect(addr, "Ann").await;
    let room = ann
        .create_room_with(json!({
            "kingdom": {"type": "cards", "cards": kingdom},
            "edition": edition,
            "seats": [{"type": "open"}, {"type": "open"}, {"type": "open"}, {"type": "bot", "bot": "random"}],
            "decision_seconds": 1,
            "abandoned": {"type": "bot_after", "seconds": 0},
        }))
        .await;
    ann.take_seat(&room).await;
    let mut bob = Client::connect(addr, "Bob").await;
    bob.take_seat(&room).await;
    let mut cid = Client::connect(addr, "Cid").await;
    cid.take_seat(&room).await;
    let mut eve = Client::connect(addr, "Eve").await;
    eve.ask(json!({"type": "spectate", "room": room})).await;
    ann.start().await;
    let wants: Vec<String> = kingdom.iter().map(|c| c.to_string()).collect();

    let ann_plays = async {
        let mut me = Curious::new(&wants);
        let mut answered = BTreeSet::new();
        while answered.len() < HUMAN_DECISIONS {
            let v = ann
                .until(|v| v["type"] == "decision" || v["type"] == "game_over")
                .await;
            assert_ne!(v["type"], "game_over", "the game ended before Ann left");
            let d = v["decision"].as_u64().unwrap();
            ann.reply(d, me.reply(&v)).await;
            answered.insert(d);
        }
        let left = ann.ask(json!({"type": "leave"})).await;
        assert_eq!(left["type"], "ack", "{left}");
        answered
    };
    let bob_plays = async {
        let mut me = Curious::new(&wants);
        let mut ran_out = Vec::new();
        let mut answered = BTreeSet::new();
        // Until a card decision ran out, too (most are asked only by some cards).
        while answered.len() < HUMAN_DECISIONS || ran_out.is_empty() {
            let v = bob
                .until(|v| v["type"] == "decision" || v["type"] == "game_over")
                .await;
            assert_ne!(
                v["type"], "game_over",
                "the game ended before Bob went away"
            );
            let phase = ["action_phase", "buy_phase"].contains(&v["purpose"].as_str().unwrap());
            if !phase && ran_out.len() < TIMEOUTS {
                assert!(v["deadline_ms"].as_u64().is_some_and(|d| d <= 1000), "{v}");
                ran_out.push(v["decision"].as_u64().unwrap());
                continue;
            }
            let d = v["decision"].as_u64().unwrap();
            bob.reply(d, me.reply(&v)).await;
            answered.insert(d);
        }
        // Gone without a word, as a lost connection.
        let socket = bob.cut().await;
        (socket, answered, ran_out)
    };
    let cid_plays = async {
        let mut me = Curious::new(&wants);
        loop {
            let v = cid
                .until(|v| v["type"] == "decision" || v["type"] == "game_over")
                .await;
            if v["type"] == "game_over" {
                return;
            }
            cid.reply(v["decision"].as_u64().unwrap(), me.reply(&v))
                .await;
        }
    };
    let watch = async {
        let mut bot_playing = BTreeSet::new();
        loop {
            let v = eve.recv().await;
            if v["type"] == "room" {
                for s in v["room"]["seats"].as_array().unwrap() {
                    if let Some(bot) = s["occupant"]["bot_playing"].as_str() {
                        assert_eq!(bot, "standard", "{v}");
                        bot_playing.insert(s["seat"].as_u64().unwrap());
                    }
                }
            }
            if v["type"] == "game_over" {
                return (v, bot_playing);
            }
        }
    };
    let (ann_answered, (_socket, bob_answered, ran_out), (), (over, bot_playing)) =
        tokio::join!(ann_plays, bob_plays, cid_plays, watch);
    let status = eve.until(|v| v["type"] == "room").await;
    assert_eq!(status["room"]["status"], "finished", "{status}");
    // Both humans' seats were taken over by the room's stand-in.
    assert_eq!(bot_playing, BTreeSet::from([0, 1]));
    assert!(!ran_out.is_empty(), "Bob had card decisions to let run out");

    // Who answered what: the humans know which decisions they answered (by number; each
    // reply in the record names its decision's number, which `replay_record` checks
    // against the engine's); every other reply for their seats came from a stand-in.
    let mut asked: Vec<Option<Request>> = Vec::new();
    replay_record(&over, |g| asked.push(g.pending().cloned()));
    let replies = over["replies"].as_array().unwrap();
    let number = |r: &serde_json::Value| r["decision"].as_u64().unwrap();
    // Where Bob's last own reply is in the log: numbers do not order decisions.
    let bob_last = replies
        .iter()
        .rposition(|r| r["seat"] == 1 && bob_answered.contains(&number(r)))
        .expect("Bob's replies are in the record");
    let mut stand_in = Vec::new();
    let mut answered_for = [0, 0];
    for (i, r) in replies.iter().enumerate() {
        let req = asked[i]
            .as_ref()
            .expect("a reply answers a pending question");
        let seat = r["seat"].as_u64().unwrap() as usize;
        assert_eq!(req.player.idx(), seat);
        let human = [&ann_answered, &bob_answered].get(seat).copied();
        let Some(human) = human else {
            continue; // Cid, who stayed, or the room's own bot
        };
        let d = number(r);
        if human.contains(&d) {
            continue;
        }
        assert!(
            seat == 0 || ran_out.contains(&d) || i > bob_last,
            "decision {d} (reply {i}) of Bob's was answered for him while he was there: {r}"
        );
        answered_for[seat] += 1;
        if req.card.is_some_and(|c| kingdom.contains(&c.key())) && req.purpose != Purpose::React {
            stand_in.push(format!("{}:{:?}", req.card.unwrap().key(), req.purpose));
        }
    }
    assert!(
        answered_for.iter().all(|n| *n > 20),
        "the stand-ins played on for both seats: {answered_for:?}"
    );
    stand_in
}
