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
    pub addr: SocketAddr,
    pub rooms: usize,
    pub seats: u8,
    /// Stop after this long (measured from the moment every client is greeted).
    pub duration: Option<Duration>,
    /// Stop each room after this many games.
    pub games: Option<u32>,
    /// A recommended kingdom's id or name.
    pub kingdom: String,
    pub pid: Option<u32>,
    /// A room that hears nothing for this long has failed.
    pub stall: Duration,
    /// How long a player waits before answering each decision (not part of the latency).
    pub think: Duration,
}

/// Connections opened at once while setting up.
const CONNECT_CONCURRENCY: usize = 64;

/// Everything a play run measured.
#[derive(Debug, Serialize)]
pub struct Summary {
    pub mode: &'static str,
    pub target: String,
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
    pub server: Option<Usage>,
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

/// What one room did.
#[derive(Debug, Default)]
struct RoomResult {
    games: u64,
    decisions: u64,
    latencies_us: Vec<u32>,
    failure: Option<String>,
}

pub async fn run(plan: Plan) -> Result<Summary, String> {
    let clients = plan.rooms * usize::from(plan.seats);
    procfs::ensure_open_files(clients as u64 + 64)?;
    let (sockets, limits) = open_all(plan.addr, clients).await?;

    let server_before = plan.pid.map(|pid| procfs::sample(Some(pid))).transpose()?;
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
        let seats: Vec<Ws> = sockets.by_ref().take(usize::from(plan.seats)).collect();
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
    let server_after = plan.pid.map(|pid| procfs::sample(Some(pid))).transpose()?;
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
    Ok(Summary {
        mode: "play",
        target: plan.addr.to_string(),
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
        server: match (server_before, server_after) {
            (Some(b), Some(a)) => Some(Usage::between(plan.pid, b, a, elapsed, decisions)),
            _ => None,
        },
        client: Usage::between(None, client_before, client_after, elapsed, decisions),
        load_average_before: load_before,
        load_average_after: load_after,
    })
}

/// Opens and greets `n` connections, a few at a time; any failure fails the run (a
/// room short of a player measures nothing).
async fn open_all(addr: SocketAddr, n: usize) -> Result<(Vec<Ws>, Option<Limits>), String> {
    let gate = Arc::new(Semaphore::new(CONNECT_CONCURRENCY));
    let mut tasks = Vec::with_capacity(n);
    for _ in 0..n {
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
            Ok(Err(e)) => return Err(format!("connection {} of {n}: {e}", i + 1)),
            Err(e) => return Err(format!("connection {} of {n}: {e}", i + 1)),
        }
    }
    Ok((sockets, limits))
}

type Inbox = SelectAll<BoxStream<'static, (usize, Option<Result<Message, tungstenite::Error>>)>>;

/// One room's clients: their sending halves, their receiving halves merged into one
/// stream tagged with the client's index, and their command numbering.
struct Room {
    index: usize,
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
    fn new(index: usize, seats: Vec<Ws>, plan: &Plan, deadline: Instant) -> Room {
        let mut sinks = Vec::with_capacity(seats.len());
        let mut inbox = SelectAll::new();
        for (i, ws) in seats.into_iter().enumerate() {
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
        let n = self.sinks.len();
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
            let create = self
                .command(0, |id| ClientMessage::CreateRoom { id, settings })
                .await?;
            let room = loop {
                match self.next().await? {
                    Next::Deadline => return Ok(()),
                    Next::Frame(0, Frame::RoomCreated { re, room }) if re == create => break room,
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
                    Next::Frame(i, Frame::Seated { re, seat }) if seating[i] == Some(re) => {
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
                    Frame::Decision(d) => {
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
                    Frame::GameOver => {
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
