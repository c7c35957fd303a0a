//! Several `dominion-server` processes on one PostgreSQL and one Redis, both real and
//! started by the tests on loopback: one lobby, forwarding to the node that runs a room,
//! takeover after `kill -9`, drain on SIGTERM, and a node paused past its lease that can
//! no longer write its room's log. The long random test is in `chaos.rs`.

use crate::common::Client;
use crate::process::ServerProcess;
use dominion_store::Reader;
use dominion_testkit::{TempPostgres, TempRedis};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::time::{Duration, Instant};

/// The lease the test nodes run under: short, so a takeover takes about a second.
pub(crate) const LEASE: &str = "1s";

/// One PostgreSQL database and one Redis for a test's nodes, and their data directories.
pub(crate) struct Backends {
    pub database: String,
    pub redis: TempRedis,
    dirs: Vec<tempfile::TempDir>,
}

impl Backends {
    pub fn start() -> Backends {
        Backends {
            database: TempPostgres::shared().fresh_database(),
            redis: TempRedis::start().unwrap_or_else(|e| panic!("{e}")),
            dirs: Vec::new(),
        }
    }

    /// The flags of node `name`.
    pub fn flags(&self, name: &str) -> Vec<String> {
        [
            "--database",
            &self.database,
            "--cluster",
            &self.redis.url(),
            "--node-id",
            name,
            "--lease",
            LEASE,
        ]
        .map(String::from)
        .to_vec()
    }

    /// Starts node `name` (a fresh process, on a free port) and waits until it serves.
    pub async fn node(&mut self, name: &str) -> ServerProcess {
        self.node_with(name, &[]).await
    }

    /// As [`Backends::node`], with more flags.
    pub async fn node_with(&mut self, name: &str, extra: &[&str]) -> ServerProcess {
        let mut flags = self.flags(name);
        flags.extend(extra.iter().map(|f| f.to_string()));
        let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
        let dir = tempfile::tempdir().expect("tempdir");
        let node = ServerProcess::start_with(dir.path(), &flags).await;
        self.dirs.push(dir);
        node
    }

    /// Starts node `name` without waiting for it to be ready.
    pub async fn spawn_node(&mut self, name: &str) -> ServerProcess {
        let flags = self.flags(name);
        let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
        let dir = tempfile::tempdir().expect("tempdir");
        let node = ServerProcess::spawn(dir.path(), &flags).await;
        self.dirs.push(dir);
        node
    }

    /// A room's claims and reply writers, read from the database (on a blocking thread:
    /// PostgreSQL's blocking client must not run on the test's runtime).
    pub async fn ledger(&self, room: &str) -> Ledger {
        let (url, room) = (self.database.clone(), room.to_string());
        tokio::task::spawn_blocking(move || {
            let reader = Reader::connect(&url).unwrap_or_else(|e| panic!("read the database: {e}"));
            let view = reader.view();
            Ledger {
                claims: view.claims(&room).expect("claims"),
                writers: view.reply_writers(&room).expect("reply writers"),
                room,
            }
        })
        .await
        .expect("reading the database")
    }
}

/// What the database says of one room's owners.
pub(crate) struct Ledger {
    pub room: String,
    pub claims: Vec<dominion_store::ClaimRow>,
    pub writers: Vec<dominion_store::ReplyWriter>,
}

/// Waits (at most 10 s) until `list_rooms` at `addr` shows every room in `rooms`.
pub(crate) async fn wait_listed(addr: SocketAddr, rooms: &[&str]) -> Value {
    let started = Instant::now();
    let mut c = Client::connect(addr, "Lister").await;
    loop {
        let list = c.ask(json!({"type": "list_rooms"})).await;
        let ids: Vec<&str> = list["rooms"]
            .as_array()
            .map(|a| a.iter().filter_map(|r| r["id"].as_str()).collect())
            .unwrap_or_default();
        if rooms.iter().all(|r| ids.contains(r)) {
            return list;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{addr} does not list {rooms:?} after 10 s: {list}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A counter from a node's `/metrics`.
pub(crate) async fn metric(node: &ServerProcess, name: &str) -> u64 {
    let (status, text) = node.get("/metrics").await;
    assert_eq!(status, 200, "{text}");
    text.lines()
        .find_map(|l| {
            l.strip_prefix(name)?
                .strip_prefix(' ')?
                .trim()
                .parse::<f64>()
                .ok()
        })
        .unwrap_or_else(|| panic!("no {name} in /metrics:\n{text}")) as u64
}

/// Resumes a seat at `addr` with a new connection: returns the client once `seated`.
async fn resume(addr: SocketAddr, old: &Client) -> Client {
    let mut c = Client::connect(addr, &old.name).await;
    c.number_from(old.last_id());
    c.last_event = old.last_event;
    let mut msg = json!({
        "type": "resume",
        "room": old.room.clone().expect("room"),
        "token": old.token.clone().expect("token"),
    });
    if let Some(last) = old.last_event {
        msg["last_event"] = json!(last);
    }
    let seated = c.ask(msg).await;
    assert_eq!(
        seated["type"], "seated",
        "{}: resume answered {seated}",
        old.name
    );
    c.number_from(seated["last_command"].as_u64().unwrap_or(0));
    c.token = old.token.clone();
    c
}

/// A room run by `owner` against `bot`, and Ann, who plays it through `via` (the same
/// node or another): seated, the game started, her first `decisions` answered.
async fn game_through(
    owner: &ServerProcess,
    via: &ServerProcess,
    bot: &str,
    decisions: usize,
) -> (String, Client) {
    let mut creator = Client::connect(owner.addr, "Host").await;
    let room = creator
        .create_room(json!([{"type": "open"}, {"type": "bot", "bot": bot}]))
        .await;
    drop(creator);
    let mut ann = Client::connect(via.addr, "Ann").await;
    ann.take_seat(&room).await;
    ann.start().await;
    ann.play_decisions(decisions).await;
    (room, ann)
}

/// Plays until the connection closes; returns its close, or None if the game ended.
async fn play_until_closed(c: &mut Client) -> Option<crate::common::Closed> {
    loop {
        let v = match c.recv_or_closed().await {
            Ok(v) => v,
            Err(closed) => return Some(closed),
        };
        match v["type"].as_str() {
            Some("decision") => {
                let d = v["decision"].as_u64().unwrap();
                c.reply(d, crate::common::simple_reply(&v)).await;
            }
            Some("game_over") => return None,
            Some("error") => panic!("{}: unexpected error {v}", c.name),
            _ => {}
        }
    }
}

/// The audit of one room's log: every reply was written under a claim of the node that
/// wrote it, and the tokens never go back — a write by a node after another node's
/// later claim would show as a smaller token after a larger one. Returns (claims,
/// replies, distinct writers).
pub(crate) fn audit(ledger: &Ledger) -> (usize, usize, usize) {
    let Ledger {
        room,
        claims,
        writers,
    } = ledger;
    assert!(!claims.is_empty(), "room {room}: never claimed");
    for pair in claims.windows(2) {
        assert!(
            pair[0].token < pair[1].token,
            "room {room}: claims out of order {claims:?}"
        );
    }
    let mut last = i64::MIN;
    let mut distinct = std::collections::BTreeSet::new();
    for w in writers {
        let (Some(node), Some(token)) = (&w.node, w.token) else {
            panic!("room {room}: reply {} written without a fence", w.seq);
        };
        assert!(
            claims.iter().any(|c| c.token == token && &c.node == node),
            "room {room}: reply {} written by {node} under token {token}, which {node} never claimed: {claims:?}",
            w.seq
        );
        assert!(
            token >= last,
            "room {room}: reply {} written under token {token} after a reply under {last}: two owners wrote this room ({writers:?})",
            w.seq
        );
        last = token;
        distinct.insert(token);
    }
    (claims.len(), writers.len(), distinct.len())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(all(have_postgres, have_redis)),
    ignore = "needs PostgreSQL and Redis — run scripts/setup-test-deps.sh"
)]
async fn every_node_lists_every_room_and_plays_it_through_any_node() {
    let mut env = Backends::start();
    let nodes = [
        env.node("n0").await,
        env.node("n1").await,
        env.node("n2").await,
    ];
    // A room run by n0, another by n1.
    let mut creator = Client::connect(nodes[0].addr, "Ann").await;
    let r1 = creator
        .create_room(json!([{"type": "open"}, {"type": "bot", "bot": "big_money"}]))
        .await;
    let mut cid = Client::connect(nodes[1].addr, "Cid").await;
    let r2 = cid
        .create_room(json!([{"type": "open"}, {"type": "open"}]))
        .await;
    for n in &nodes {
        let list = wait_listed(n.addr, &[&r1, &r2]).await;
        assert_eq!(list["rooms"].as_array().unwrap().len(), 2, "{list}");
    }

    // Ann plays r1 through n2; Cid plays r2 where it runs, Dee through n2.
    let mut ann = Client::connect(nodes[2].addr, "Ann").await;
    ann.take_seat(&r1).await;
    ann.start().await;
    cid.take_seat(&r2).await;
    let mut dee = Client::connect(nodes[2].addr, "Dee").await;
    dee.take_seat(&r2).await;
    cid.start().await;
    let (a, c, d) = tokio::join!(
        ann.play_to_end(Duration::ZERO),
        cid.play_to_end(Duration::ZERO),
        dee.play_to_end(Duration::ZERO)
    );
    assert_eq!(c["scores"], d["scores"], "both players of r2 see one end");
    assert!(a["scores"].as_array().is_some_and(|s| s.len() == 2), "{a}");

    // The games are history on every node (the store is shared).
    for n in &nodes {
        for room in [&r1, &r2] {
            let (status, body) = n.get(&format!("/api/games/{room}")).await;
            assert_eq!(status, 200, "{room} at {}: {body}", n.addr);
        }
    }
    // Each log was written by the node that runs the room, under its one claim.
    for (room, node) in [(&r1, "n0"), (&r2, "n1")] {
        let ledger = env.ledger(room).await;
        let (claims, replies, writers) = audit(&ledger);
        assert_eq!((claims, writers), (1, 1), "room {room}");
        assert!(replies > 20, "room {room}: {replies} replies");
        assert_eq!(ledger.claims[0].node, node, "room {room}");
    }
    assert_eq!(metric(&nodes[2], "dominion_forwarded_links_total").await, 2);
    assert_eq!(metric(&nodes[0], "dominion_forwarded_links_total").await, 0);
    for n in &nodes {
        assert_eq!(metric(n, "dominion_rooms_taken_over_total").await, 0);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(all(have_postgres, have_redis)),
    ignore = "needs PostgreSQL and Redis — run scripts/setup-test-deps.sh"
)]
async fn a_killed_node_s_room_is_taken_over_and_its_game_goes_on() {
    let mut env = Backends::start();
    let mut nodes = [
        env.node("n0").await,
        env.node("n1").await,
        env.node("n2").await,
    ];
    // The room runs on n1; Ann plays it through n0.
    let (room, mut ann) = game_through(&nodes[1], &nodes[0], "smithy", 6).await;

    nodes[1].kill();
    let killed = Instant::now();
    let closed = play_until_closed(&mut ann).await;
    assert_eq!(
        closed,
        Some(crate::common::Closed::Code(1012)),
        "the link's close reaches the client as 'resume'"
    );
    // Ann reconnects through another node and resumes; the room is taken over.
    let mut ann = resume(nodes[2].addr, &ann).await;
    let resumed_after = killed.elapsed();
    let over = ann.play_to_end(Duration::ZERO).await;
    assert_eq!(over["type"], "game_over");
    eprintln!(
        "failover: room {room} resumed {:.0} ms after kill -9 of its node (lease {LEASE})",
        resumed_after.as_secs_f64() * 1000.0
    );
    let (claims, _, writers) = audit(&env.ledger(&room).await);
    assert_eq!(claims, 2, "claimed by n1, then by its new owner");
    assert_eq!(writers, 2);
    let taken: u64 = metric(&nodes[0], "dominion_rooms_taken_over_total").await
        + metric(&nodes[2], "dominion_rooms_taken_over_total").await;
    assert_eq!(taken, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(all(have_postgres, have_redis)),
    ignore = "needs PostgreSQL and Redis — run scripts/setup-test-deps.sh"
)]
async fn sigterm_hands_a_node_s_rooms_over_without_ending_a_game() {
    let mut env = Backends::start();
    let mut nodes = [env.node("n0").await, env.node("n1").await];
    let (room, mut ann) = game_through(&nodes[1], &nodes[0], "militia", 4).await;

    nodes[1].terminate();
    let asked = Instant::now();
    let closed = play_until_closed(&mut ann).await;
    assert_eq!(closed, Some(crate::common::Closed::Code(1012)));
    // n0 took the room over when n1 released it, before any lease expired.
    let mut ann = resume(nodes[0].addr, &ann).await;
    let resumed = asked.elapsed();
    let status = nodes[1]
        .wait_exit(Duration::from_secs(15))
        .await
        .expect("the drained node exits");
    assert!(status.success(), "drained node exit status {status:?}");
    let exited = asked.elapsed();
    let over = ann.play_to_end(Duration::ZERO).await;
    assert_eq!(over["type"], "game_over");
    eprintln!(
        "drain: the game resumed on the other node {:.0} ms after SIGTERM; the drained node exited after {:.0} ms",
        resumed.as_secs_f64() * 1000.0,
        exited.as_secs_f64() * 1000.0
    );
    assert_eq!(
        metric(&nodes[0], "dominion_rooms_taken_over_total").await,
        1
    );
    let ledger = env.ledger(&room).await;
    let (claims, _, _) = audit(&ledger);
    assert_eq!(claims, 2);
    assert_eq!(ledger.claims[1].node, "n0");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(all(have_postgres, have_redis)),
    ignore = "needs PostgreSQL and Redis — run scripts/setup-test-deps.sh"
)]
async fn a_node_paused_past_its_lease_cannot_write_its_room_again() {
    let mut env = Backends::start();
    let nodes = [env.node("n0").await, env.node("n1").await];
    let mut ann = Client::connect(nodes[0].addr, "Ann").await;
    let room = ann
        .create_room(json!([{"type": "open"}, {"type": "bot", "bot": "big_money"}]))
        .await;
    ann.take_seat(&room).await;
    ann.start().await;
    ann.play_decisions(3).await;
    // Ann's next decision is pending at n0, which now stops (SIGSTOP: its sockets stay
    // open, its leases expire).
    let pending = ann.until(|v| v["type"] == "decision").await;
    let decision = pending["decision"].as_u64().unwrap();
    nodes[0].signal(libc::SIGSTOP);
    tokio::time::sleep(Duration::from_millis(2500)).await;

    // Meanwhile Ann resumes at n1, which takes the room over and takes her answer.
    let mut ann2 = resume(nodes[1].addr, &ann).await;
    let asked = ann2.until(|v| v["type"] == "decision").await;
    assert_eq!(asked["decision"].as_u64(), Some(decision));
    let id = ann2
        .reply(decision, crate::common::simple_reply(&asked))
        .await;
    let ack = ann2.answer(id).await;
    assert_eq!(ack["type"], "ack", "{ack}");

    // The old connection answers the same decision at n0, which wakes up: n0 must not
    // acknowledge it, and must write nothing (its lease and its token are stale).
    ann.number_from(ann2.last_id() + 100);
    let stale = ann
        .reply(decision, crate::common::simple_reply(&pending))
        .await;
    nodes[0].signal(libc::SIGCONT);
    loop {
        match ann.recv_or_closed().await {
            Ok(v) => assert!(
                !(v["re"].as_u64() == Some(stale) && v["type"] == "ack"),
                "the paused node acknowledged a reply after losing its room: {v}"
            ),
            Err(closed) => {
                assert_eq!(closed, crate::common::Closed::Code(1012));
                break;
            }
        }
    }
    let over = ann2.play_to_end(Duration::ZERO).await;
    assert_eq!(over["type"], "game_over");
    let ledger = env.ledger(&room).await;
    let (claims, replies, _) = audit(&ledger);
    assert_eq!(claims, 2);
    // Every reply after the takeover is n1's.
    let n1 = ledger.claims[1].token;
    let writers = &ledger.writers;
    let first_n1 = writers.iter().position(|w| w.token == Some(n1)).unwrap();
    assert!(
        writers[first_n1..].iter().all(|w| w.token == Some(n1)),
        "{writers:?}"
    );
    assert_eq!(writers.len(), replies);
}

/// Sends one inline command to Redis and returns its one-line answer.
pub(crate) fn redis_command(port: u16, command: &str) -> String {
    use std::io::{BufRead, BufReader, Write};
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connect to Redis");
    s.write_all(format!("{command}\r\n").as_bytes()).unwrap();
    let mut line = String::new();
    BufReader::new(s).read_line(&mut line).unwrap();
    line.trim_end().to_string()
}

/// `GET key` from Redis: the value, or None.
pub(crate) fn redis_get(port: u16, key: &str) -> Option<String> {
    use std::io::{BufRead, BufReader, Write};
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connect to Redis");
    s.write_all(format!("GET {key}\r\n").as_bytes()).unwrap();
    let mut reader = BufReader::new(s);
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    if line.starts_with("$-1") {
        return None;
    }
    let mut value = String::new();
    reader.read_line(&mut value).unwrap();
    Some(value.trim_end().to_string())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(all(have_postgres, have_redis)),
    ignore = "needs PostgreSQL and Redis — run scripts/setup-test-deps.sh"
)]
async fn redis_losing_everything_costs_a_resume_and_nothing_else() {
    let mut env = Backends::start();
    let nodes = [env.node("n0").await, env.node("n1").await];
    let (room, mut ann) = game_through(&nodes[0], &nodes[1], "big_money", 4).await;

    // Ann's decision is pending (she waits), when Redis restarts empty: leases, fencing
    // counters, the lobby, the nodes' addresses. n0 finds its lease gone at its next
    // renewal and hands the room on; Ann's connection is closed to resume.
    ann.until(|v| v["type"] == "decision").await;
    assert_eq!(redis_command(env.redis.port(), "FLUSHALL"), "+OK");
    assert_eq!(ann.closed().await, crate::common::Closed::Code(1012));
    let mut ann = resume(nodes[1].addr, &ann).await;
    let over = ann.play_to_end(Duration::ZERO).await;
    assert_eq!(over["type"], "game_over");
    // The room was claimed again under a token above the first, though Redis counted
    // from zero again; every reply is under a claim of its writer.
    let ledger = env.ledger(&room).await;
    let (claims, _, _) = audit(&ledger);
    assert!(claims >= 2, "{:?}", ledger.claims);
    wait_listed(nodes[0].addr, &[]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(all(have_postgres, have_redis)),
    ignore = "needs PostgreSQL and Redis — run scripts/setup-test-deps.sh"
)]
async fn a_dead_node_s_rooms_are_shared_among_the_others() {
    let mut env = Backends::start();
    let mut nodes = [
        env.node("n0").await,
        env.node("n1").await,
        env.node("n2").await,
    ];
    let mut host = Client::connect(nodes[0].addr, "Host").await;
    let mut rooms = Vec::new();
    for _ in 0..6 {
        rooms.push(
            host.create_room(json!([{"type": "open"}, {"type": "bot", "bot": "big_money"}]))
                .await,
        );
    }
    nodes[0].kill();
    // Nobody asks for them: the sweeps alone bring every room back, shared out.
    let started = Instant::now();
    let owners = loop {
        let owners: Vec<Option<String>> = rooms
            .iter()
            .map(|r| redis_get(env.redis.port(), &format!("dominion:owner:{r}")))
            .collect();
        if owners
            .iter()
            .all(|o| o.as_deref().is_some_and(|o| !o.starts_with("n0|")))
        {
            break owners;
        }
        assert!(
            started.elapsed() < Duration::from_secs(15),
            "not every room was taken over: {owners:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    // A room's owner key is written when its lease is taken, before its log is replayed
    // and the counter moves: wait (bounded) for the counters to catch up with the keys.
    let taken = loop {
        let taken = [
            metric(&nodes[1], "dominion_rooms_taken_over_total").await,
            metric(&nodes[2], "dominion_rooms_taken_over_total").await,
        ];
        if taken[0] + taken[1] >= 6 || started.elapsed() > Duration::from_secs(20) {
            break taken;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    eprintln!(
        "6 rooms of a killed node taken over in {:.0} ms, {taken:?} (owner replies {owners:?})",
        started.elapsed().as_secs_f64() * 1000.0
    );
    assert_eq!(taken[0] + taken[1], 6);
    assert!(taken.iter().all(|&t| t >= 1), "shared: {taken:?}");
    for n in &nodes[1..] {
        wait_listed(
            n.addr,
            &rooms.iter().map(String::as_str).collect::<Vec<_>>(),
        )
        .await;
    }
}

/// Announces (or, with `None`, withdraws) a node of a release before schema 11 in the
/// cluster's Redis: its address under `dominion:node:<name>`, and no release beside it,
/// which is all such a release writes (`cluster::releases`).
async fn earlier_release_node(redis: &TempRedis, name: &str, announce: bool) {
    let client = redis::Client::open(redis.url()).expect("the Redis URL");
    let mut c = client
        .get_multiplexed_async_connection()
        .await
        .expect("reach Redis");
    let key = format!("dominion:node:{name}");
    let mut cmd = match announce {
        true => redis::cmd("SET"),
        false => redis::cmd("DEL"),
    };
    cmd.arg(&key);
    if announce {
        cmd.arg("127.0.0.1:9").arg("PX").arg(600_000);
    }
    let _: redis::Value = cmd.query_async(&mut c).await.expect("write to Redis");
}

/// Waits (at most 30 s) until `node`'s `dominion_store_legacy_columns` is `want`.
async fn wait_legacy(node: &ServerProcess, want: u64) -> Duration {
    let started = Instant::now();
    while metric(node, "dominion_store_legacy_columns").await != want {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "dominion_store_legacy_columns is not {want} after 30 s"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    started.elapsed()
}

/// (games.last_hash, the newest reply's digest, seat 0's seats.last_command, seat 0's
/// newest command id in its replies), read in one statement: one snapshot.
fn stored_copies(url: &str, room: &str) -> (String, String, i64, Option<i64>) {
    let room = room.to_string();
    crate::process::on_pg(url, move |c| {
        let r = c.query_one(
            "SELECT g.last_hash,
                    (SELECT state_hash FROM replies WHERE room_id = $1 ORDER BY seq DESC LIMIT 1),
                    s.last_command,
                    (SELECT MAX(command) FROM replies WHERE room_id = $1 AND player = 0)
             FROM games g JOIN seats s ON s.room_id = g.room_id AND s.seat = 0
             WHERE g.room_id = $1",
            &[&room],
        )?;
        Ok((r.get(0), r.get(1), r.get(2), r.get(3)))
    })
}

/// A rolling upgrade from a release before schema 11: while a node of it is announced,
/// every reply keeps `games.last_hash` and `seats.last_command` current, as that node
/// reads them when it takes a room over. Once none has been announced for ten leases, a
/// reply is one row, and a room so written is still taken over (its digest is read from
/// its newest reply and checked). A node of the earlier release announced again turns the
/// copies back on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(all(have_postgres, have_redis)),
    ignore = "needs PostgreSQL and Redis — run scripts/setup-test-deps.sh"
)]
async fn replies_write_an_earlier_releases_columns_only_while_one_of_its_nodes_is_announced() {
    let mut env = Backends::start();
    earlier_release_node(&env.redis, "old-release", true).await;
    let mut n0 = env.node("n0").await;
    let n1 = env.node("n1").await;
    assert_eq!(metric(&n0, "dominion_store_legacy_columns").await, 1);
    let (room, mut ann) = game_through(&n0, &n0, "big_money", 4).await;
    let (hash, newest, command, newest_command) = stored_copies(&env.database, &room);
    assert_eq!(hash, newest, "on: the game row follows every reply");
    assert!(newest_command.is_some());
    assert_eq!(Some(command), newest_command, "on: so does Ann's seat");

    earlier_release_node(&env.redis, "old-release", false).await;
    let quiet = wait_legacy(&n0, 0).await;
    wait_legacy(&n1, 0).await;
    eprintln!(
        "copies off {:.1} s after the earlier release left (lease {LEASE})",
        quiet.as_secs_f64()
    );
    ann.play_decisions(3).await;
    let (hash, newest, command, newest_command) = stored_copies(&env.database, &room);
    assert_ne!(hash, newest, "off: replies no longer update the game row");
    assert!(
        newest_command.is_some_and(|c| c > command),
        "off: nor Ann's seat ({command} against {newest_command:?})"
    );

    // Written one row a reply, the room is taken over by another node and goes on.
    n0.kill();
    assert!(
        play_until_closed(&mut ann).await.is_some(),
        "Ann's connection to n0 ends"
    );
    let mut ann = resume(n1.addr, &ann).await;
    assert_eq!(ann.play_to_end(Duration::ZERO).await["type"], "game_over");
    assert_eq!(metric(&n1, "dominion_rooms_taken_over_total").await, 1);

    earlier_release_node(&env.redis, "old-release", true).await;
    wait_legacy(&n1, 1).await;
}
