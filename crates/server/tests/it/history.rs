//! The history API: a finished game's full record, which the engine replays to the same
//! scores; an unfinished game's record stays secret (409); an unknown one is 404. The
//! record survives a restart, and the metrics count replies and SQLite writes.

use crate::common::Client;
use crate::process::{
    Backend, TestStore, engine_reply, on_both_backends, record_from_history, score_fields,
    wire_scores,
};
use dominion_engine::{Game, PlayerId};
use serde_json::{Value, json};
use std::time::Duration;

/// Every key anywhere in a JSON value.
fn keys(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, v) in m {
                out.push(k.clone());
                keys(v, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|v| keys(v, out)),
        _ => {}
    }
}

on_both_backends!(a_finished_games_replay_reproduces_its_scores_and_nothing_leaks_before_the_end,);

async fn a_finished_games_replay_reproduces_its_scores_and_nothing_leaks_before_the_end(
    backend: Backend,
) {
    let store = TestStore::new(backend);
    let server = store.start(&[]).await;
    let mut ann = Client::connect(server.addr, "Ann").await;
    let room = ann
        .create_room(json!([{"type": "open"}, {"type": "bot", "bot": "militia"}]))
        .await;
    ann.take_seat(&room).await;
    ann.start().await;
    ann.play_decisions(6).await;

    // Before the end: 409, and nothing secret in the body.
    let (status, early) = server.get(&format!("/api/games/{room}")).await;
    assert_eq!(status, 409, "an unfinished game: {early}");
    let early_json: Value = serde_json::from_str(&early)
        .unwrap_or_else(|e| panic!("the 409 body is not JSON ({e}): {early}"));
    let mut early_keys = Vec::new();
    keys(&early_json, &mut early_keys);
    for secret in ["seed", "replies", "decks", "hand", "setup"] {
        assert!(
            !early_keys.iter().any(|k| k == secret),
            "the 409 body has {secret:?}: {early}"
        );
    }
    let listing = server.get_json("/api/games").await;
    assert!(
        !listing.to_string().contains(&room),
        "an unfinished game is not history yet: {listing}"
    );

    // The end, as the player hears it; the record is there at once.
    let over = tokio::time::timeout(Duration::from_secs(60), ann.play_to_end(Duration::ZERO))
        .await
        .expect("the game ends within 60 s");
    let path = format!("/api/games/{room}");
    let (status, body) = server.get(&path).await;
    assert_eq!(
        status, 200,
        "GET {path} right after game_over was received: {body}"
    );
    let history: Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(history["room"], room.as_str());
    assert_eq!(history["kingdom"], over["kingdom"]);
    // `setup` is the engine's form here (what `Game::replay` reads), the wire's there.
    for field in ["players", "edition"] {
        assert_eq!(history["setup"][field], over["setup"][field], "{field}");
    }
    assert_eq!(history["seed"], over["seed"]);
    let seed = over["seed"].as_str().expect("seed string");
    assert!(
        !early.contains(seed),
        "the 409 body held the seed {seed}: {early}"
    );
    assert_eq!(
        score_fields(&history["scores"]),
        score_fields(&over["scores"])
    );

    // The engine replays it to the same end.
    let record = record_from_history(&history);
    let told: Vec<_> = over["replies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                PlayerId(r["seat"].as_u64().unwrap() as u8),
                engine_reply(&r["reply"]),
            )
        })
        .collect();
    assert!(
        told == record.replies,
        "the replies served ({}) differ from those in game_over ({})",
        record.replies.len(),
        told.len()
    );
    let game = Game::replay(&record).expect("the record replays");
    assert!(game.is_over());
    assert_eq!(wire_scores(&game.scores()), score_fields(&over["scores"]));
    assert_eq!(
        history["kingdom"],
        serde_json::to_value(game.kingdom()).unwrap(),
        "the kingdom served is the game's"
    );

    // Listed; unknown ids are 404.
    let listing = server.get_json("/api/games").await;
    let entry = listing
        .as_array()
        .unwrap_or_else(|| panic!("GET /api/games is not an array: {listing}"))
        .iter()
        .find(|g| g["room"] == room.as_str() || g["id"] == room.as_str())
        .unwrap_or_else(|| panic!("{room} is not listed: {listing}"));
    if entry.get("scores").is_some() {
        assert_eq!(
            score_fields(&entry["scores"]),
            score_fields(&over["scores"])
        );
    }
    let (status, body) = server.get("/api/games/nosuchroom").await;
    assert_eq!(status, 404, "{body}");

    // Metrics count the replies and time the SQLite writes.
    let (status, metrics) = server.get("/metrics").await;
    assert_eq!(status, 200, "{metrics}");
    for name in ["dominion_replies_total", "dominion_sqlite_write_seconds"] {
        assert!(metrics.contains(name), "no {name} in /metrics:\n{metrics}");
    }

    // History outlives the process.
    let mut server = server;
    server.terminate();
    let status = server.wait_exit(Duration::from_secs(10)).await;
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
    let server = store.start(&[]).await;
    assert_eq!(server.get_json(&path).await, history);
}
