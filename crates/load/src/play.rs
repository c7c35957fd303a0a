//! `play`: rooms of socket players answering every decision at once.
//!
//! Each room is one task driving its seats' connections (one WebSocket per seat, as
//! separate players would have). A room plays games back to back: the first client
//! creates a room (every seat open, `abandoned: wait`), every client takes its seat, the
//! first starts, everyone answers each decision addressed to it as soon as it arrives
//! ([`crate::policy`]), and after `game_over` everyone leaves and the next game begins in
//! a new room. The run ends at `--duration` (rooms stop where they are; a game cut off
//! counts its decisions but not as a game) or when every room has played `--games`.
//!
//! **Reply → next decision.** A game waits for one answer at a time, so each room is a
//! chain: a reply goes out, the server applies it, and the next decision goes to
//! whichever seat must answer next (the same player or another). The latency sampled is,
//! per room, the time from the moment a reply has been written to the socket to the
//! moment the room's next `decision` frame is read from any of its sockets — or its
//! `game_over` frame when that reply ended the game. It covers the server's whole path
//! (read, check, apply, store with its fsync, project, queue, write) plus loopback and
//! the client's own scheduling, which is why the client's CPU use is reported next to
//! it. The first decision of a game (after `start`) has no reply before it and is not
//! sampled.
//!
//! **A cluster.** With several nodes in `--addr`, room *i* is created through node
//! *i mod n*, so it runs there. Its players connect to that node (`--players-via
//! owner`), or to the next one in the list (`other`), which does not run the room and
//! forwards every command and frame to and from the node that does; the room then has
//! one more connection, to its own node, used only to create each game's room. The
//! figures are computed exactly as with one node; the servers' CPU time and memory are
//! summed over the nodes' pids, and given per node too.

use crate::procfs::{self, Sample};
use crate::stats::{self, Latency};
use crate::wire::{self, Failure, Frame, Ws};
use dominion_protocol::{
    AbandonPolicy, ClientMessage, KingdomChoice, Limits, RoomSettings, SeatSetting,
};
use futures_util::stream::{self, BoxStream, SelectAll, SplitSink};
use futures_util::{SinkExt, StreamExt};
use serde::Serialize;
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{Semaphore, oneshot, watch};
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::{self, Message};

/// What a play run is asked to do.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The nodes, in `--addr`'s order (one for a single server).
    pub nodes: Vec<SocketAddr>,
    pub players_via: Via,
    pub rooms: usize,
    pub seats: u8,
    /// Stop after this long (measured from the moment every client is greeted).
    pub duration: Option<Duration>,
    /// Stop each room after this many games.
    pub games: Option<u32>,
    /// A recommended kingdom's id or name.
    pub kingdom: String,
    /// The nodes' process ids, in the nodes' order; empty when not given.
    pub pids: Vec<u32>,
    /// A room that hears nothing for this long has failed.
    pub stall: Duration,
    /// How long a player waits before answering each decision (not part of the latency).
    pub think: Duration,
}

/// Where a room's players connect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Via {
    /// The node that runs the room.
    Owner,
    /// The next node in the list, which forwards to the one that runs the room.
    Other,
}

impl Plan {
    /// The node room `index` is created through, so the node that runs it.
    fn owner(&self, index: usize) -> SocketAddr {
        self.nodes[index % self.nodes.len()]
    }

    /// The node room `index`'s players connect to.
    fn players_node(&self, index: usize) -> SocketAddr {
        match self.players_via {
            Via::Owner => self.owner(index),
            Via::Other => self.nodes[(index + 1) % self.nodes.len()],
        }
    }

    /// Room `index`'s connections in order: one per seat, then (players via another
    /// node) the one that creates its rooms on the node that runs them.
    fn connections(&self, index: usize) -> Vec<SocketAddr> {
        let mut addrs = vec![self.players_node(index); usize::from(self.seats)];
        if self.players_via == Via::Other {
            addrs.push(self.owner(index));
        }
        addrs
    }
}

/// Connections opened at once while setting up.
const CONNECT_CONCURRENCY: usize = 64;

/// Everything a play run measured.
#[derive(Debug, Serialize)]
pub struct Summary {
    pub mode: &'static str,
    /// The nodes, comma-separated (just the server's address with one node).
    pub target: String,
    pub nodes: Vec<String>,
    pub players_via: Via,
    /// Connections the tool held: one per player, plus one per room with players via
    /// another node.
    pub connections: usize,
    pub rooms: usize,
    pub seats: u8,
    pub kingdom: String,
    pub duration_limit_s: Option<f64>,
    /// Each player's pause before answering, in milliseconds (0: at once).
    pub think_ms: f64,
    pub games_limit: Option<u32>,
    /// The server's per-connection message budget, as its `welcome` stated it.
    pub server_budget: Option<Limits>,
    pub elapsed_s: f64,
    pub games: u64,
    pub decisions: u64,
    pub decisions_per_s: f64,
    pub reply_to_next_decision: Latency,
    pub rooms_failed: usize,
    /// The distinct reasons rooms failed, with how many failed so.
    pub failures: BTreeMap<String, usize>,
    /// The servers' use, summed over the nodes' distinct pids (its `pid` is set with one
    /// node).
    pub server: Option<Usage>,
    /// Each node's own use, in the nodes' order (empty without --pid).
    pub server_nodes: Vec<NodeUsage>,
    pub client: Usage,
    pub load_average_before: Option<[f64; 3]>,
    pub load_average_after: Option<[f64; 3]>,
}

/// A process's use of the machine over the measured window.
#[derive(Debug, Serialize)]
pub struct Usage {
    pub pid: Option<u32>,
    pub cpu_s: f64,
    /// CPU time over wall time (1.0 = one core busy throughout).
    pub cpu_cores: f64,
    pub cpu_us_per_decision: Option<f64>,
    pub before: Sample,
    pub after: Sample,
}

impl Usage {
    fn between(
        pid: Option<u32>,
        before: Sample,
        after: Sample,
        elapsed: f64,
        decisions: u64,
    ) -> Usage {
        let cpu = after.cpu.saturating_sub(before.cpu).as_secs_f64();
        Usage {
            pid,
            cpu_s: cpu,
            cpu_cores: if elapsed > 0.0 { cpu / elapsed } else { 0.0 },
            cpu_us_per_decision: (decisions > 0).then(|| cpu * 1e6 / decisions as f64),
            before,
            after,
        }
    }
}

/// One node's use of the machine.
#[derive(Debug, Serialize)]
pub struct NodeUsage {
    pub node: String,
    #[serde(flatten)]
    pub usage: Usage,
}

/// What one room did.
#[derive(Debug, Default)]
struct RoomResult {
    games: u64,
    decisions: u64,
    latencies_us: Vec<u32>,
    failure: Option<String>,
}

pub async fn run(plan: Plan) -> Result<Summary, String> {
    let addrs: Vec<SocketAddr> = (0..plan.rooms).flat_map(|i| plan.connections(i)).collect();
    let clients = addrs.len();
    procfs::ensure_open_files(clients as u64 + 64)?;
    let (sockets, limits) = open_all(&addrs).await?;

    let server_before = servers(&plan.pids)?;
    let client_before = procfs::sample(None)?;
    let load_before = procfs::load_average();
    let go = Instant::now();
    // Without --duration the run is bounded by --games (and the stall timeout).
    let deadline = go
        + plan
            .duration
            .unwrap_or(Duration::from_secs(365 * 24 * 3600));
    let (release, released) = watch::channel(false);
    let mut results = Vec::with_capacity(plan.rooms);
    let mut tasks = Vec::with_capacity(plan.rooms);
    let mut sockets = sockets.into_iter();
    for index in 0..plan.rooms {
        let seats: Vec<Ws> = sockets
            .by_ref()
            .take(plan.connections(index).len())
            .collect();
        let (done, result) = oneshot::channel();
        results.push(result);
        let room = Room::new(index, seats, &plan, deadline);
        let mut released = released.clone();
        tasks.push(tokio::spawn(async move {
            let (result, room) = room.play().await;
            let _ = done.send(result);
            // Keep the sockets open until every room is done and the server measured:
            // closing them is work the run should not count.
            let _ = released.wait_for(|r| *r).await;
            drop(room);
        }));
    }
    let mut all = Vec::with_capacity(plan.rooms);
    for result in results {
        all.push(result.await.unwrap_or_else(|_| RoomResult {
            failure: Some("the room's task panicked".into()),
            ..RoomResult::default()
        }));
    }
    let elapsed = go.elapsed().as_secs_f64();
    let server_after = servers(&plan.pids)?;
    let client_after = procfs::sample(None)?;
    let load_after = procfs::load_average();
    let _ = release.send(true);
    for task in tasks {
        let _ = task.await;
    }

    let games = all.iter().map(|r| r.games).sum();
    let decisions: u64 = all.iter().map(|r| r.decisions).sum();
    let mut latencies: Vec<u32> = all
        .iter_mut()
        .flat_map(|r| r.latencies_us.drain(..))
        .collect();
    let mut failures = BTreeMap::new();
    for reason in all.iter().filter_map(|r| r.failure.clone()) {
        *failures.entry(reason).or_insert(0) += 1;
    }
    let nodes: Vec<String> = plan.nodes.iter().map(ToString::to_string).collect();
    let server_nodes: Vec<NodeUsage> = nodes
        .iter()
        .zip(&plan.pids)
        .zip(server_before.iter().zip(&server_after))
        .map(|((node, &pid), (&b, &a))| NodeUsage {
            node: node.clone(),
            usage: Usage::between(Some(pid), b, a, elapsed, decisions),
        })
        .collect();
    let server = (!plan.pids.is_empty()).then(|| {
        let pid = match plan.pids[..] {
            [pid] => Some(pid),
            _ => None,
        };
        let (before, after) = (
            Sample::total(&distinct(&plan.pids, &server_before)),
            Sample::total(&distinct(&plan.pids, &server_after)),
        );
        Usage::between(pid, before, after, elapsed, decisions)
    });
    Ok(Summary {
        mode: "play",
        target: nodes.join(","),
        nodes,
        players_via: plan.players_via,
        connections: clients,
        rooms: plan.rooms,
        seats: plan.seats,
        kingdom: plan.kingdom.clone(),
        duration_limit_s: plan.duration.map(|d| d.as_secs_f64()),
        think_ms: plan.think.as_secs_f64() * 1000.0,
        games_limit: plan.games,
        server_budget: limits,
        elapsed_s: elapsed,
        games,
        decisions,
        decisions_per_s: if elapsed > 0.0 {
            decisions as f64 / elapsed
        } else {
            0.0
        },
        reply_to_next_decision: Latency::of(&mut latencies),
        rooms_failed: failures.values().sum(),
        failures,
        server,
        server_nodes,
        client: Usage::between(None, client_before, client_after, elapsed, decisions),
        load_average_before: load_before,
        load_average_after: load_after,
    })
}

/// Reads every node's process, in order.
fn servers(pids: &[u32]) -> Result<Vec<Sample>, String> {
    pids.iter().map(|&pid| procfs::sample(Some(pid))).collect()
}

/// The samples of distinct processes only: a pid listed for two nodes (one server
/// named twice) is one process and counts once in the sum.
fn distinct(pids: &[u32], samples: &[Sample]) -> Vec<Sample> {
    let mut seen = Vec::with_capacity(pids.len());
    pids.iter()
        .zip(samples)
        .filter(|(pid, _)| {
            let new = !seen.contains(*pid);
            seen.push(**pid);
            new
        })
        .map(|(_, &s)| s)
        .collect()
}

/// Opens and greets a connection to each address, a few at a time; any failure fails
/// the run (a room short of a player measures nothing).
async fn open_all(addrs: &[SocketAddr]) -> Result<(Vec<Ws>, Option<Limits>), String> {
    let n = addrs.len();
    let gate = Arc::new(Semaphore::new(CONNECT_CONCURRENCY));
    let mut tasks = Vec::with_capacity(n);
    for &addr in addrs {
        let gate = gate.clone();
        tasks.push(tokio::spawn(async move {
            let _permit = gate.acquire_owned().await;
            wire::open(addr, Duration::from_secs(30)).await
        }));
    }
    let mut sockets = Vec::with_capacity(n);
    let mut limits = None;
    for (i, task) in tasks.into_iter().enumerate() {
        match task.await {
            Ok(Ok((ws, l))) => {
                limits.get_or_insert(l);
                sockets.push(ws);
            }
            Ok(Err(e)) => {
                return Err(format!(
                    "connection {} of {n} (to {}): {e}",
                    i + 1,
                    addrs[i]
                ));
            }
            Err(e) => {
                return Err(format!(
                    "connection {} of {n} (to {}): {e}",
                    i + 1,
                    addrs[i]
                ));
            }
        }
    }
    Ok((sockets, limits))
}

type Inbox = SelectAll<BoxStream<'static, (usize, Option<Result<Message, tungstenite::Error>>)>>;

/// One room's clients: their sending halves, their receiving halves merged into one
/// stream tagged with the client's index, and their command numbering. Clients
/// `0..players` sit in the seats; `creator` creates each game's room (player 0, or with
/// players via another node an extra client on the room's own node, which never sits).
struct Room {
    index: usize,
    players: usize,
    creator: usize,
    sinks: Vec<SplitSink<Ws, Message>>,
    inbox: Inbox,
    next_id: Vec<u64>,
    settings: RoomSettings,
    games_limit: Option<u32>,
    deadline: Instant,
    stall: Duration,
    think: Duration,
}

enum Next {
    Frame(usize, Frame),
    Deadline,
}

impl Room {
    fn new(index: usize, clients: Vec<Ws>, plan: &Plan, deadline: Instant) -> Room {
        let players = usize::from(plan.seats);
        let creator = match plan.players_via {
            Via::Owner => 0,
            Via::Other => players,
        };
        let mut sinks = Vec::with_capacity(clients.len());
        let mut inbox = SelectAll::new();
        for (i, ws) in clients.into_iter().enumerate() {
            let (sink, stream) = ws.split();
            sinks.push(sink);
            // A `None` after the last frame tells the room which client's stream ended.
            inbox.push(
                stream
                    .map(move |m| (i, Some(m)))
                    .chain(stream::once(async move { (i, None) }))
                    .boxed(),
            );
        }
        Room {
            index,
            players,
            creator,
            next_id: vec![0; sinks.len()],
            sinks,
            inbox,
            settings: RoomSettings {
                name: Some(format!("load {index}")),
                kingdom: KingdomChoice::Recommended {
                    id: plan.kingdom.clone(),
                },
                edition: Default::default(),
                seats: vec![SeatSetting::Open {}; usize::from(plan.seats)],
                decision_seconds: None,
                // A room cut off at the deadline just stops: no bot takes over and
                // plays on while the next run measures.
                abandoned: AbandonPolicy::Wait {},
                spectator_chat: false,
                rated: false,
            },
            games_limit: plan.games,
            deadline,
            stall: plan.stall,
            think: plan.think,
        }
    }

    async fn play(mut self) -> (RoomResult, Room) {
        let mut result = RoomResult::default();
        if let Err(e) = self.games(&mut result).await {
            result.failure = Some(e.to_string());
        }
        (result, self)
    }

    async fn games(&mut self, result: &mut RoomResult) -> Result<(), Failure> {
        let n = self.players;
        // Commands whose answers nobody waits for (leave, start, reply): an error
        // answering one of them still fails the room, except for `leave`.
        let mut leaves: Vec<(usize, u64)> = Vec::new();
        loop {
            if self
                .games_limit
                .is_some_and(|g| result.games >= u64::from(g))
            {
                return Ok(());
            }
            // Set up: create, seat everyone, start.
            let settings = self.settings.clone();
            let creator = self.creator;
            let create = self
                .command(creator, |id| ClientMessage::CreateRoom { id, settings })
                .await?;
            let room = loop {
                match self.next().await? {
                    Next::Deadline => return Ok(()),
                    Next::Frame(i, Frame::RoomCreated { re, room })
                        if i == creator && re == create =>
                    {
                        break room;
                    }
                    Next::Frame(i, frame) => check(i, frame, &leaves)?,
                }
            };
            let mut seating = vec![None; n];
            for (i, pending) in seating.iter_mut().enumerate() {
                let room = room.clone();
                let name = format!("load-{}-{i}", self.index);
                *pending = Some(
                    self.command(i, |id| ClientMessage::TakeSeat {
                        id,
                        room,
                        seat: Some(i as u8),
                        name,
                    })
                    .await?,
                );
            }
            let mut seat_of = vec![0u8; n];
            while seating.iter().any(Option::is_some) {
                match self.next().await? {
                    Next::Deadline => return Ok(()),
                    Next::Frame(i, Frame::Seated { re, seat })
                        if seating.get(i) == Some(&Some(re)) =>
                    {
                        seating[i] = None;
                        seat_of[i] = seat;
                    }
                    Next::Frame(i, frame) => check(i, frame, &leaves)?,
                }
            }
            self.command(0, |id| ClientMessage::Start { id }).await?;

            // Play: answer every decision at once.
            let mut over = vec![false; n];
            let mut replied: Option<Instant> = None;
            while over.contains(&false) {
                let (i, frame) = match self.next().await? {
                    Next::Deadline => return Ok(()),
                    Next::Frame(i, frame) => (i, frame),
                };
                match frame {
                    // The creator (`i == n`) sits nowhere: a decision for it is an error.
                    Frame::Decision(d) if i < n => {
                        if let Some(sent) = replied.take() {
                            result.latencies_us.push(stats::micros(sent.elapsed()));
                        }
                        if d.seat != seat_of[i] {
                            return Err(Failure::Unexpected(format!(
                                "client {i} (seat {}) got a decision for seat {}",
                                seat_of[i], d.seat
                            )));
                        }
                        if !self.think.is_zero() {
                            tokio::time::sleep(self.think).await;
                        }
                        let reply = crate::policy::reply(&d.prompt);
                        let decision = d.decision;
                        self.command(i, |id| ClientMessage::Reply {
                            id,
                            decision,
                            reply,
                        })
                        .await?;
                        replied = Some(Instant::now());
                        result.decisions += 1;
                    }
                    Frame::GameOver if i < n => {
                        if let Some(sent) = replied.take() {
                            result.latencies_us.push(stats::micros(sent.elapsed()));
                        }
                        over[i] = true;
                    }
                    other => check(i, other, &leaves)?,
                }
            }
            result.games += 1;
            leaves.clear();
            for i in 0..n {
                let id = self.command(i, |id| ClientMessage::Leave { id }).await?;
                leaves.push((i, id));
            }
        }
    }

    /// Sends client `i`'s next command; returns its id.
    async fn command(
        &mut self,
        i: usize,
        make: impl FnOnce(u64) -> ClientMessage,
    ) -> Result<u64, Failure> {
        self.next_id[i] += 1;
        let id = self.next_id[i];
        self.sinks[i].send(wire::text(&make(id))).await?;
        Ok(id)
    }

    /// The next frame from any client of the room, or the deadline.
    async fn next(&mut self) -> Result<Next, Failure> {
        tokio::select! {
            biased;
            () = tokio::time::sleep_until(self.deadline) => Ok(Next::Deadline),
            item = tokio::time::timeout(self.stall, self.inbox.next()) => match item {
                Err(_) => Err(Failure::Silent(self.stall)),
                Ok(None) => Err(Failure::Closed(None, String::new())),
                Ok(Some((i, item))) => Ok(Next::Frame(i, wire::classify(item)?)),
            },
        }
    }
}

/// A frame the room was not waiting for: fine unless it is an error (other than the
/// answer to a `leave`, which has nothing left to lose).
fn check(client: usize, frame: Frame, leaves: &[(usize, u64)]) -> Result<(), Failure> {
    match frame {
        Frame::Error { re: Some(re), .. } if leaves.contains(&(client, re)) => Ok(()),
        Frame::Error { code, message, .. } => Err(Failure::Refusal { code, message }),
        Frame::Decision(d) => Err(Failure::Unexpected(format!(
            "decision {} outside a game",
            d.decision
        ))),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(nodes: &[&str], players_via: Via) -> Plan {
        Plan {
            nodes: nodes.iter().map(|n| n.parse().unwrap()).collect(),
            players_via,
            rooms: 5,
            seats: 2,
            duration: None,
            games: Some(1),
            kingdom: "base_2e/first_game".into(),
            pids: Vec::new(),
            stall: Duration::from_secs(30),
            think: Duration::ZERO,
        }
    }

    #[test]
    fn rooms_go_round_the_nodes_and_players_to_the_owner_or_the_next() {
        let [a, b, c] = ["127.0.0.1:1", "127.0.0.1:2", "127.0.0.1:3"];
        let addr = |s: &str| -> SocketAddr { s.parse().unwrap() };
        let owner = plan(&[a, b, c], Via::Owner);
        assert_eq!(owner.connections(0), [addr(a), addr(a)]);
        assert_eq!(owner.connections(4), [addr(b), addr(b)]);
        let other = plan(&[a, b, c], Via::Other);
        // Players on the next node, then the creator on the room's own.
        assert_eq!(other.connections(0), [addr(b), addr(b), addr(a)]);
        assert_eq!(other.connections(2), [addr(a), addr(a), addr(c)]);
        let one = plan(&[a], Via::Owner);
        assert_eq!(one.connections(3), [addr(a), addr(a)]);
    }

    #[test]
    fn a_process_named_for_two_nodes_counts_once() {
        let sample = |rss_kb| Sample {
            cpu: Duration::ZERO,
            rss_kb,
            peak_rss_kb: rss_kb,
        };
        let samples = [sample(1), sample(2), sample(3)];
        assert_eq!(distinct(&[7, 8, 9], &samples), samples);
        assert_eq!(distinct(&[7, 8, 7], &samples), [sample(1), sample(2)]);
    }
}
