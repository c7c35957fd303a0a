//! Automatch across the nodes of a cluster (issue 25; `net::automatch::cluster`), with
//! real processes on one PostgreSQL and one Redis: players of different nodes are
//! matched with each other and play through forwarding; 200 players spread over three
//! nodes are each matched exactly once although the node leading the queue is killed
//! (`kill -9`) halfway, its own players reconnecting to another node and queueing
//! again. The exactly-once race of two leaders is tested against Redis directly, in
//! `cluster::automatch`'s tests. Nothing is timed: timeouts are hang stops.

use crate::accounts::{CHEAP, cookie_request, register, signed_in};
use crate::cluster::Backends;
use crate::common::{Client, Closed};
use crate::process::ServerProcess;
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// Limits per address out of the way: every test client is 127.0.0.1.
const ROOMY: [&str; 8] = [
    "--registrations-per-address",
    "100000",
    "--connections-per-address",
    "10000",
    "--rooms-per-address",
    "100000",
    "--max-connections",
    "10000",
];

/// The longest a whole test may take (a hang stop).
const HANG_STOP: Duration = Duration::from_secs(240);

async fn nodes(env: &mut Backends, n: usize) -> Vec<ServerProcess> {
    let flags = [CHEAP.as_slice(), ROOMY.as_slice()].concat();
    let mut nodes = Vec::new();
    for i in 0..n {
        nodes.push(env.node_with(&format!("n{i}"), &flags).await);
    }
    nodes
}

/// The automatch instance node `node` logged, once it has.
async fn instance_of(node: &ServerProcess) -> u64 {
    for _ in 0..3000 {
        for line in node.output_tail(400).lines() {
            if line.contains("this node's queue instance")
                && let Some(n) = line
                    .split_whitespace()
                    .find_map(|w| w.strip_prefix("instance="))
            {
                return n.parse().unwrap();
            }
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("no automatch instance logged:\n{}", node.output_tail(60))
}

/// Which of `nodes` leads the queue now.
async fn leader(env: &Backends, nodes: &[ServerProcess]) -> usize {
    let mut instances = Vec::new();
    for n in nodes {
        instances.push(instance_of(n).await);
    }
    for _ in 0..3000 {
        if let Some(held) = crate::cluster::redis_get(env.redis.port(), "dominion:automatch:leader")
        {
            let instance: u64 = held.split('|').next().unwrap().parse().unwrap();
            if let Some(i) = instances.iter().position(|&x| x == instance) {
                return i;
            }
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("no node leads the automatch queue")
}

/// Registers `name` at `addr`: the session cookie.
async fn account(addr: SocketAddr, name: &str) -> String {
    let answer = register(addr, name, &format!("{name}'s long password")).await;
    assert_eq!(answer.status, 201, "{}", answer.body);
    answer.cookie()
}

/// Queues, accepts every proposal and returns `match_found`; on a dropped connection
/// (its node killed) signs in again at `fallback` and queues again.
async fn matched(
    mut c: Client,
    cookie: &str,
    fallback: SocketAddr,
    found: &AtomicUsize,
) -> (Client, Value) {
    let name = c.name.clone();
    c.command(json!({"type": "find_match", "pool": "2p"})).await;
    loop {
        let v = match c.recv_or_closed().await {
            Ok(v) => v,
            Err(closed) => {
                c = reconnect(fallback, cookie, &name, closed).await;
                c.command(json!({"type": "find_match", "pool": "2p"})).await;
                continue;
            }
        };
        match v["type"].as_str() {
            Some("match_proposed") => {
                c.command(json!({"type": "accept_match", "match": v["match"]}))
                    .await;
            }
            Some("match_found") => {
                found.fetch_add(1, Ordering::Relaxed);
                return (c, v);
            }
            Some("match_cancelled") if v["reason"] != "requeued" => {
                c.command(json!({"type": "find_match", "pool": "2p"})).await;
            }
            // match_queued, acks, requeues, an accept of a proposal already gone.
            _ => {}
        }
    }
}

/// Signs in again at `addr` after the connection closed (`why`), retrying while the
/// node turns the upgrade down (a burst of reconnections from a killed node).
async fn reconnect(addr: SocketAddr, cookie: &str, name: &str, why: Closed) -> Client {
    let mut last = String::new();
    for _ in 0..50 {
        match tokio_tungstenite::connect_async(cookie_request(addr, cookie)).await {
            Ok((ws, _)) => {
                let mut c = Client::over(ws, name);
                c.send(json!({"type": "hello", "protocol": 1})).await;
                let welcome = c.recv().await;
                assert_eq!(welcome["account"]["name"], name, "{welcome}");
                return c;
            }
            Err(e) => last = e.to_string(),
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{name} (closed: {why:?}) cannot reconnect at {addr}: {last}")
}

/// Resumes a seat given by `match_found` at `addr`: the room's seat names once both
/// players are there.
async fn seat_names(c: &mut Client, found: &Value) -> Vec<String> {
    let seated = c
        .ask(json!({"type": "resume", "room": found["room"], "token": found["token"]}))
        .await;
    assert_eq!(seated["type"], "seated", "{}: {seated}", c.name);
    assert_eq!(seated["seat"], found["seat"]);
    let room = c
        .until(|v| v["type"] == "room" && v["room"]["seats"].as_array().is_some())
        .await;
    let mut names: Vec<String> = room["room"]["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            s["occupant"]["name"]
                .as_str()
                .unwrap_or_default()
                .to_string()
        })
        .collect();
    names.sort();
    names
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(all(have_postgres, have_redis)),
    ignore = "needs PostgreSQL and Redis — run scripts/setup-test-deps.sh"
)]
async fn players_of_two_nodes_are_matched_and_play_through_either() {
    tokio::time::timeout(HANG_STOP, async {
        let mut env = Backends::start();
        let nodes = nodes(&mut env, 2).await;
        let ann_cookie = account(nodes[0].addr, "Ann").await;
        let bob_cookie = account(nodes[1].addr, "Bob").await;
        let mut ann = signed_in(nodes[0].addr, &ann_cookie, "Ann").await;
        let mut bob = signed_in(nodes[1].addr, &bob_cookie, "Bob").await;
        for c in [&mut ann, &mut bob] {
            c.command(json!({"type": "find_match", "pool": "2p"})).await;
            let queued = c.until(|v| v["type"] == "match_queued").await;
            assert_eq!(queued["pool"], "2p");
        }
        let pa = ann.until(|v| v["type"] == "match_proposed").await;
        let pb = bob.until(|v| v["type"] == "match_proposed").await;
        assert_eq!(pa["match"], pb["match"], "one proposal for both");
        assert_eq!(pa["opponents"][0]["name"], "Bob");
        assert_eq!(pb["opponents"][0]["name"], "Ann");
        for (c, p) in [(&mut ann, &pa), (&mut bob, &pb)] {
            let ack = c
                .ask(json!({"type": "accept_match", "match": p["match"]}))
                .await;
            assert_eq!(ack["type"], "ack", "{ack}");
        }
        let fa = ann.until(|v| v["type"] == "match_found").await;
        let fb = bob.until(|v| v["type"] == "match_found").await;
        assert_eq!(fa["room"], fb["room"], "the same room");
        assert_ne!(fa["seat"], fb["seat"]);
        // Each resumes at its own node: one of them through forwarding.
        assert_eq!(seat_names(&mut ann, &fa).await, ["Ann", "Bob"]);
        assert_eq!(seat_names(&mut bob, &fb).await, ["Ann", "Bob"]);
        ann.start().await;
        // Both sides play: each answers decisions until both have answered some.
        let (a, b) = tokio::join!(ann.play_decisions(3), bob.play_decisions(3));
        assert!(a > 0 && b > 0);
    })
    .await
    .expect("hang stop");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(all(have_postgres, have_redis)),
    ignore = "needs PostgreSQL and Redis — run scripts/setup-test-deps.sh"
)]
async fn two_hundred_players_on_three_nodes_are_each_matched_once_across_a_leader_kill() {
    const PLAYERS: usize = 200;
    tokio::time::timeout(HANG_STOP, async {
        let mut env = Backends::start();
        let mut nodes = nodes(&mut env, 3).await;
        let lead = leader(&env, &nodes).await;
        let addrs: Vec<SocketAddr> = nodes.iter().map(|n| n.addr).collect();
        // A live node for the killed one's players.
        let fallback = addrs[(lead + 1) % 3];
        // Accounts, made 20 at a time, spread over the nodes.
        let mut cookies = Vec::new();
        for chunk in (0..PLAYERS).collect::<Vec<_>>().chunks(20) {
            let made = futures_util::future::join_all(chunk.iter().map(|&i| {
                let addr = addrs[i % 3];
                async move { account(addr, &format!("p{i:03}")).await }
            }))
            .await;
            cookies.extend(made);
        }
        let mut clients = Vec::new();
        for (i, cookie) in cookies.iter().enumerate() {
            clients.push(signed_in(addrs[i % 3], cookie, &format!("p{i:03}")).await);
        }
        let found = Arc::new(AtomicUsize::new(0));
        let tasks: Vec<_> = clients
            .into_iter()
            .zip(cookies.clone())
            .map(|(c, cookie)| {
                let found = found.clone();
                let name = c.name.clone();
                tokio::spawn(async move {
                    let waiting = matched(c, &cookie, fallback, &found);
                    tokio::time::timeout(HANG_STOP - Duration::from_secs(30), waiting)
                        .await
                        .unwrap_or_else(|_| panic!("{name} was never matched"))
                })
            })
            .collect();
        // Kill the leader once a third are matched: the rest are queued or proposed.
        while found.load(Ordering::Relaxed) < PLAYERS / 3 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        nodes[lead].kill();
        let at_kill = found.load(Ordering::Relaxed);
        let mut results = Vec::new();
        for t in tasks {
            results.push(t.await.expect("a client task"));
        }
        eprintln!(
            "{PLAYERS} players on 3 nodes: the leader n{lead} killed after {at_kill} match_found"
        );

        // Every player told exactly once, two to a room, never one account twice.
        let mut rooms: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        let mut matches: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (i, (_, f)) in results.iter().enumerate() {
            rooms
                .entry(f["room"].as_str().unwrap().to_string())
                .or_default()
                .push(i);
            matches
                .entry(f["match"].as_str().unwrap().to_string())
                .or_default()
                .insert(f["room"].as_str().unwrap().to_string());
        }
        assert_eq!(rooms.len(), PLAYERS / 2, "{rooms:?}");
        assert!(rooms.values().all(|p| p.len() == 2), "{rooms:?}");
        assert!(matches.values().all(|r| r.len() == 1), "{matches:?}");
        // No second match_found: nothing of the kind reached a client before its pong.
        let mut clients: Vec<(Client, Value)> = Vec::new();
        for (i, (mut c, f)) in results.into_iter().enumerate() {
            let alive = if i % 3 == lead {
                fallback
            } else {
                addrs[i % 3]
            };
            let mut open = true;
            if crate::process::try_send(&mut c, &json!({"type": "ping", "id": 1_000_000}))
                .await
                .is_ok()
            {
                loop {
                    match c.recv_or_closed().await {
                        Ok(v) if v["re"] == 1_000_000 => break,
                        Ok(v) => assert_ne!(v["type"], "match_found", "p{i:03} told twice: {v}"),
                        Err(_) => {
                            open = false;
                            break;
                        }
                    }
                }
            } else {
                open = false;
            }
            c.number_from(1_000_000);
            if !open {
                // Its node was killed: a fresh connection at a live one.
                c = signed_in(alive, &cookies[i], &format!("p{i:03}")).await;
            }
            clients.push((c, f));
        }
        // The seats: each room holds exactly the two accounts told of it (ten rooms at
        // a time; a room the killed node ran is taken over by another).
        let mut by_room: BTreeMap<String, Vec<(Client, Value)>> = BTreeMap::new();
        for (c, f) in clients {
            by_room
                .entry(f["room"].as_str().unwrap().to_string())
                .or_default()
                .push((c, f));
        }
        let mut seated: Vec<String> = Vec::new();
        let rooms: Vec<(String, Vec<(Client, Value)>)> = by_room.into_iter().collect();
        let mut rooms = rooms.into_iter();
        loop {
            let batch: Vec<_> = rooms.by_ref().take(10).collect();
            if batch.is_empty() {
                break;
            }
            let checked = futures_util::future::join_all(batch.into_iter().map(
                |(room, mut pair)| async move {
                    let mut told: Vec<String> = pair.iter().map(|(c, _)| c.name.clone()).collect();
                    told.sort();
                    let (c, f) = &mut pair[0];
                    let names = seat_names(c, f).await;
                    assert_eq!(names, told, "room {room}");
                    told
                },
            ))
            .await;
            seated.extend(checked.into_iter().flatten());
        }
        let distinct: BTreeSet<&String> = seated.iter().collect();
        assert_eq!(seated.len(), PLAYERS);
        assert_eq!(distinct.len(), PLAYERS, "an account seated in two rooms");
    })
    .await
    .expect("hang stop");
}

/// Three pairs matched (six waits recorded, five needed), then a seventh player is told
/// an estimate at once: the pool's median wait (nothing waited yet).
async fn an_estimate_after_enough_matches(addrs: &[SocketAddr]) {
    let mut players = Vec::new();
    for i in 0..7 {
        let addr = addrs[i % addrs.len()];
        let name = format!("e{i}");
        let cookie = account(addr, &name).await;
        players.push((signed_in(addr, &cookie, &name).await, cookie));
    }
    let (mut seventh, _) = players.pop().unwrap();
    let found = AtomicUsize::new(0);
    while players.len() >= 2 {
        let (a, ca) = players.remove(0);
        let (b, cb) = players.remove(0);
        // The first waits for its match_queued, so the two are matched in one tick.
        let ((_, fa), (_, fb)) = tokio::join!(
            matched(a, &ca, addrs[0], &found),
            matched(b, &cb, addrs[0], &found)
        );
        assert_eq!(fa["room"], fb["room"]);
    }
    seventh
        .command(json!({"type": "find_match", "pool": "2p"}))
        .await;
    let queued = seventh.until(|v| v["type"] == "match_queued").await;
    let estimate = queued["estimate_ms"].as_u64();
    assert!(estimate.is_some_and(|e| e < 120_000), "{queued}");
}

#[tokio::test]
async fn the_queue_status_estimates_the_wait_on_one_node() {
    let addr = crate::common::start({
        let mut c = crate::common::config();
        c.argon2_memory_kib = 256;
        c.argon2_iterations = 1;
        c.registrations_per_address = 1000;
        c
    })
    .await;
    tokio::time::timeout(HANG_STOP, an_estimate_after_enough_matches(&[addr]))
        .await
        .expect("hang stop");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(all(have_postgres, have_redis)),
    ignore = "needs PostgreSQL and Redis — run scripts/setup-test-deps.sh"
)]
async fn the_queue_status_estimates_the_wait_on_a_cluster() {
    tokio::time::timeout(HANG_STOP, async {
        let mut env = Backends::start();
        let nodes = nodes(&mut env, 2).await;
        let addrs: Vec<SocketAddr> = nodes.iter().map(|n| n.addr).collect();
        an_estimate_after_enough_matches(&addrs).await;
    })
    .await
    .expect("hang stop");
}
