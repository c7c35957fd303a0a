//! Several writer threads on PostgreSQL (`--store-writers`): different rooms' batches
//! commit on different connections at once, and one room's writes still commit in the
//! order they were made, whoever else writes meanwhile.

use crate::process::{Backend, TestStore, on_both_backends};
use dominion_engine::view::Observation;
use dominion_engine::{Edition, Game, Kingdom, Setup, bots};
use dominion_server::gamelog::durable::DurableLog;
use dominion_server::gamelog::{RoomLog, RoomRecord, SeatRecord};
use dominion_server::metrics::Metrics;
use dominion_server::token::TokenHash;
use serde_json::json;
use std::sync::Arc;
use std::time::Duration;

const ROOMS: usize = 24;
const REPLIES: usize = 60;

fn record(id: &str) -> RoomRecord {
    RoomRecord {
        id: id.into(),
        settings: serde_json::from_value(json!({
            "kingdom": {"type": "recommended", "id": "base_2e/first_game"},
            "seats": [{"type": "open"}, {"type": "open"}],
        }))
        .unwrap(),
        host: Some(0),
        seats: (0..2)
            .map(|s| {
                SeatRecord::human(
                    &format!("P{s}"),
                    TokenHash::of(&format!("{id}{s}")),
                    0,
                    None,
                )
            })
            .collect(),
    }
}

/// A room's game played by two `standard` bots for `REPLIES` replies: its drawn setup,
/// and each reply with the player and the state digest after it. (`standard` answers
/// each phase move on its own; a reference bot's money turn is one reply, and a whole
/// big_money game can be shorter than `REPLIES`.)
fn played(
    seed: u64,
) -> (
    Setup,
    u64,
    Vec<(dominion_engine::PlayerId, dominion_engine::Reply, u64)>,
) {
    let recommended = Setup {
        players: 2,
        kingdom: Kingdom::Recommended("base_2e/first_game".into()),
        edition: Edition::Second,
    };
    let mut game = Game::new(&recommended, seed).unwrap();
    let setup = Setup {
        kingdom: Kingdom::Cards(game.kingdom().to_vec()),
        ..recommended
    };
    let start = game.digest();
    let mut players: Vec<_> = (0..2)
        .map(|i| bots::by_name("standard", seed + i).unwrap())
        .collect();
    let replies = (0..REPLIES)
        .map(|_| {
            let req = game.pending().unwrap().clone();
            let reply =
                players[req.player.idx()].decide(&Observation::for_player(&game, req.player), &req);
            game.reply(req.player, reply.clone()).unwrap();
            (req.player, reply, game.digest())
        })
        .collect();
    (setup, start, replies)
}

/// With four writers, `ROOMS` rooms write their games at once. Each room hands over all
/// its writes without awaiting any (more than a room ever has in flight): had two of
/// them gone to different writers, the later could commit first and the store would
/// refuse it as out of order. Every write commits, and every room reads back whole, in
/// order, and replays to its game's digest.
async fn interleaved_rooms_commit_in_order_with_several_writers(backend: Backend) {
    let store = TestStore::new(backend);
    let database = store.database();
    let log = tokio::task::spawn_blocking(move || {
        DurableLog::open_with_writers(&database, Arc::new(Metrics::new()), 4)
    })
    .await
    .unwrap()
    .expect("the log opens with four writers");
    let log = Arc::new(log);
    let games: Vec<_> = (0..ROOMS).map(|i| played(i as u64)).collect();
    let tasks: Vec<_> = games
        .iter()
        .cloned()
        .enumerate()
        .map(|(i, (setup, start, replies))| {
            let log = log.clone();
            tokio::spawn(async move {
                let id = format!("room{i:02}");
                let mut commits = vec![
                    log.room_saved(&record(&id)),
                    log.game_started(&id, &setup, i as u64, start, None),
                ];
                for (n, (player, reply, digest)) in replies.iter().enumerate() {
                    commits.push(log.reply_accepted(&id, n as u64, *player, reply, *digest, None));
                    if n % 7 == 0 {
                        // Let other rooms' writes in between this room's.
                        tokio::task::yield_now().await;
                    }
                }
                for (n, commit) in commits.into_iter().enumerate() {
                    commit
                        .await
                        .unwrap_or_else(|e| panic!("{id}: write {n} failed: {e}"));
                }
            })
        })
        .collect();
    for task in tasks {
        task.await.unwrap();
    }
    for (i, (_, _, replies)) in games.iter().enumerate() {
        let id = format!("room{i:02}");
        let stored = log.game(&id).unwrap().expect("the game is stored");
        let players: Vec<u8> = stored.replies.iter().map(|(p, _)| *p).collect();
        let want: Vec<u8> = replies.iter().map(|(p, _, _)| p.0).collect();
        assert_eq!(players, want, "{id}: the replies' players in order");
        let rebuilt = log
            .recover_one(&id, Duration::from_secs(600))
            .await
            .unwrap()
            .expect("the room reopens");
        assert_eq!(
            rebuilt.game.expect("with its game").game.digest(),
            replies.last().unwrap().2,
            "{id}: the stored log replays to the game's state"
        );
    }
}

on_both_backends!(interleaved_rooms_commit_in_order_with_several_writers);
