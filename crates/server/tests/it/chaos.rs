//! Three nodes on one PostgreSQL and one Redis; players spread over them, playing five
//! games at a time (a new set when the games end before the kills do); one node killed
//! (`kill -9`, or now and then SIGTERM: a drain) at random moments and started again,
//! over and over. Every game must finish, every reply a player saw acknowledged must be in its
//! room's log at its place, and no room may ever have been written by two owners: each
//! reply carries the fencing token it was written under, and a room's tokens must follow
//! its claims and never go back.

use crate::cluster::{Backends, audit};
use crate::common::Client;
use crate::crash::{Player, play_one_life, seat_player, settings, verify_logs};
use crate::process::{ServerProcess, SplitMix};
use serde_json::json;
use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::{Notify, mpsc, watch};

/// The whole test fails past this.
const WALL_CAP: Duration = Duration::from_secs(300);
/// Kills that must land while games are being played (a SIGTERM drain now and then
/// comes on top).
const KILLS: u32 = 12;
/// The kill moments come from this seed unless `CHAOS_TEST_SEED` says otherwise.
const DEFAULT_SEED: u64 = 0x0c1a_0503_2026;
const NAMES: [&str; 3] = ["n0", "n1", "n2"];
/// Each player's pause before a reply: the games must outlast the kills, and a failover
/// round lets the players of the other rooms play on meanwhile.
const PACE: Duration = Duration::from_millis(10);

/// Rooms created through one node, their players seated through others (so from the
/// start some play through a forwarding node), every game started.
async fn set_up(nodes: &[ServerProcess]) -> Vec<Player> {
    let first_game = json!({"type": "recommended", "id": "base_2e/first_game"});
    let mut players = Vec::new();
    let bots = [
        ("Ann", "big_money"),
        ("Bea", "militia"),
        ("Cid", "smithy"),
        ("Gus", "witch"),
    ];
    for (i, (name, bot)) in bots.into_iter().enumerate() {
        let mut creator = Client::connect(nodes[i % 3].addr, "Host").await;
        let room = creator
            .create_room_with(settings(
                json!([{"type": "open"}, {"type": "bot", "bot": bot}]),
                first_game.clone(),
            ))
            .await;
        let mut c = Client::connect(nodes[(i + 1) % 3].addr, name).await;
        c.take_seat(&room).await;
        c.start().await;
        players.push(seat_player(&c, &room));
    }
    let mut creator = Client::connect(nodes[1].addr, "Host").await;
    let room = creator
        .create_room_with(settings(
            json!([{"type": "open"}, {"type": "open"}]),
            json!({"type": "random"}),
        ))
        .await;
    let mut dee = Client::connect(nodes[0].addr, "Dee").await;
    dee.take_seat(&room).await;
    let mut eve = Client::connect(nodes[2].addr, "Eve").await;
    eve.take_seat(&room).await;
    dee.start().await;
    players.push(seat_player(&dee, &room));
    players.push(seat_player(&eve, &room));
    players
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(all(have_postgres, have_redis)),
    ignore = "needs PostgreSQL and Redis — run scripts/setup-test-deps.sh"
)]
async fn nodes_killed_at_random_lose_no_acknowledged_reply_and_no_room_has_two_owners() {
    let seed = std::env::var("CHAOS_TEST_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(DEFAULT_SEED);
    let mut rng = SplitMix::new(seed);
    let started = Instant::now();
    let mut env = Backends::start();
    let mut nodes = Vec::new();
    for name in NAMES {
        nodes.push(env.node(name).await);
    }
    let mut players = set_up(&nodes).await;
    let mut sets = 1;

    let (mut kills, mut drains, mut rounds, mut lives) = (0u32, 0u32, 0u32, 0u32);
    loop {
        let live: Vec<usize> = (0..players.len())
            .filter(|&i| players[i].over.is_none())
            .collect();
        if live.is_empty() {
            if kills >= KILLS {
                break;
            }
            // Every game ended before the kills did (a loaded machine fits more replies
            // into each round): a new set of games takes the rest, so the kills land
            // mid-game however fast the games go.
            players.extend(set_up(&nodes).await);
            sets += 1;
            continue;
        }
        assert!(
            started.elapsed() < WALL_CAP,
            "the games did not finish within {WALL_CAP:?} ({kills} kills, {rounds} rounds); players: {:#?}\n{}",
            players
                .iter()
                .map(|p| (&p.name, &p.room, p.last_event, p.floor, p.over.is_some()))
                .collect::<Vec<_>>(),
            nodes
                .iter()
                .map(|n| format!("--- node at {}:\n{}", n.addr, n.output_tail(40)))
                .collect::<String>()
        );
        rounds += 1;
        let acks = Arc::new(AtomicU64::new(0));
        let notify = Arc::new(Notify::new());
        let (stop_tx, stop) = watch::channel(false);
        let (tx, mut rx) = mpsc::unbounded_channel();
        // After the last kill nobody stops the players, but the last victim's rooms still
        // move: a player whose connection ends then comes straight back (through the
        // next node), or its partner would wait for it forever.
        let last_round = kills >= KILLS;
        let addrs: Vec<_> = nodes.iter().map(|n| n.addr).collect();
        for &i in &live {
            // Each player comes back through any node.
            let first = rng.between(0, 2) as usize;
            let (mut p, acks, notify, tx, stop, addrs) = (
                players[i].clone(),
                acks.clone(),
                notify.clone(),
                tx.clone(),
                stop.clone(),
                addrs.clone(),
            );
            tokio::spawn(async move {
                let mut life = 0;
                let r = loop {
                    let addr = addrs[(first + life) % addrs.len()];
                    match play_one_life(addr, p, acks.clone(), notify.clone(), stop.clone(), PACE)
                        .await
                    {
                        Ok(q) if last_round && q.over.is_none() && life < 50 => {
                            p = q;
                            life += 1;
                            tokio::time::sleep(Duration::from_millis(50)).await;
                        }
                        r => break r,
                    }
                };
                let _ = tx.send((i, r));
            });
        }
        drop(tx);
        let mut results = Vec::new();
        if kills < KILLS {
            // The kill moment: after a few acknowledged replies, or a few milliseconds
            // (a game's replies take a few ms each: the games must outlast the kills).
            let (acks_wanted, wait_ms) = match rng.between(0, 3) {
                0 => (u64::MAX, rng.between(0, 20)),
                _ => (rng.between(1, 4), 3000),
            };
            let deadline = tokio::time::Instant::now() + Duration::from_millis(wait_ms);
            while acks.load(Ordering::SeqCst) < acks_wanted && results.len() < live.len() {
                tokio::select! {
                    r = rx.recv() => match r {
                        Some(r) => results.push(r),
                        None => break,
                    },
                    () = notify.notified() => {}
                    () = tokio::time::sleep_until(deadline) => break,
                }
            }
            let victim = rng.between(0, 2) as usize;
            let drain = rng.between(0, 3) == 0;
            if drain {
                nodes[victim].terminate();
                drains += 1;
            } else {
                nodes[victim].kill();
                if results.len() < live.len() {
                    kills += 1;
                }
            }
            // The other nodes' players play on through the failover for a moment (now and
            // then for most of a lease), then every player drops its connection and
            // comes back through a random node.
            let linger = match rng.between(0, 9) {
                0 => rng.between(100, 400),
                _ => rng.between(0, 20),
            };
            tokio::time::sleep(Duration::from_millis(linger)).await;
            let _ = stop_tx.send(true);
            if drain {
                let exited = nodes[victim].wait_exit(Duration::from_secs(20)).await;
                assert!(
                    exited.is_some_and(|s| s.success()),
                    "a drained node did not exit cleanly ({exited:?}):\n{}",
                    nodes[victim].output_tail(60)
                );
            }
            // A new process, a new name (as the default random node id gives).
            lives += 1;
            nodes[victim] = env.spawn_node(&format!("{}-{lives}", NAMES[victim])).await;
        }
        // (After the last kill nothing stops the players: they play to the end.)
        let collected = tokio::time::timeout(Duration::from_secs(120), async {
            while let Some(r) = rx.recv().await {
                results.push(r);
            }
        })
        .await;
        assert!(
            collected.is_ok(),
            "players still running 120 s into a round"
        );
        assert_eq!(
            results.len(),
            live.len(),
            "a player task panicked (see above); players: {:?}\n{}",
            players
                .iter()
                .map(|p| (&p.name, &p.room, p.last_event, p.over.is_some()))
                .collect::<Vec<_>>(),
            nodes
                .iter()
                .map(|n| format!("--- node at {}:\n{}", n.addr, n.output_tail(80)))
                .collect::<String>()
        );
        for (i, r) in results {
            match r {
                Ok(p) => players[i] = p,
                Err(e) => panic!(
                    "after {kills} kills: {e}\n{}",
                    nodes
                        .iter()
                        .map(|n| format!("--- node at {}:\n{}", n.addr, n.output_tail(60)))
                        .collect::<String>()
                ),
            }
        }
    }

    let rooms: BTreeSet<String> = players.iter().map(|p| p.room.clone()).collect();
    // Every game is over and every acknowledged reply is in its log, at its place, as
    // any node serves it (one was just restarted: use one that is ready).
    let reporter_dir = tempfile::tempdir().expect("tempdir");
    let reporter = ServerProcess::start_with(
        reporter_dir.path(),
        &env.flags("reporter")
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    )
    .await;
    verify_logs(&reporter, &rooms, &players).await;
    // No room ever had two owners: its replies follow its claims, tokens never go back.
    let (mut claims, mut logged, mut owners) = (0, 0, 0);
    for room in &rooms {
        let (c, r, w) = audit(&env.ledger(room).await);
        claims += c;
        logged += r;
        owners += w;
    }
    // Every claim after a room's first is a takeover.
    let taken_over = claims - rooms.len();
    let acked: usize = players.iter().map(|p| p.acked.len()).sum();
    let in_doubt: u64 = players.iter().map(|p| p.in_doubt).sum();
    let resumes: u64 = players.iter().map(|p| p.resumes).sum();
    eprintln!(
        "chaos test (seed {seed}): 3 nodes, {kills} kill -9 mid-game and {drains} drains in {rounds} rounds, {} games \
         in {sets} set(s), \
         {resumes} resumes; {acked} acknowledged replies, all in the logs at their place \
         ({in_doubt} in flight when a connection ended), 0 lost; {logged} replies logged under \
         {claims} claims by {owners} successive owners, 0 written by two owners; \
         {taken_over} takeovers; {:.1} s",
        rooms.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(kills >= KILLS, "only {kills} kills landed mid-game");
}
