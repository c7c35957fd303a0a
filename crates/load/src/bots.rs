//! `bots`: many rooms of server bots (by default five `search` bots and one socket
//! player), and meanwhile what other people see: a separate human's reply latency and
//! `/healthz`'s.
//!
//! It is the attack of issue 23 as a measurement: whoever opens rooms of the strongest
//! bots should not slow down anyone else. The run has three parts:
//!
//! 1. **Set up** `--rooms` bot rooms, one connection each (from `--sources` loopback
//!    addresses 127.0.1.1, 127.0.1.2, …, so an attacker is not the measured human's
//!    127.0.0.1): create a room with one open seat and `--bots-per-room` seats of `--bot`,
//!    take the open seat, start. Then the player `stays` and answers each of its
//!    decisions at once (the load policy), or `leaves` (the room's abandon rule decides
//!    what its bots do next). A room that cannot be set up is counted with its reason
//!    (say, a per-address limit), and the run goes on with the others.
//! 2. **Warm up** for `--warmup`, so the bots are in full swing.
//! 3. **Measure** for `--duration`: `--measure-rooms` rooms of two socket players, each
//!    answering after `--think` (a human's pace), measured exactly as `play` measures
//!    (reply → next decision, the server's CPU with `--pid`), while `/healthz` is asked
//!    every `--healthz-every` on a new connection (connect → whole answer).
//!
//! `--rooms 0` measures the same without bots: the baseline to compare with.

use crate::play::{self, Via};
use crate::stats::{self, Latency};
use crate::wire::{self, Failure, Frame, Ws};
use dominion_protocol::{ClientMessage, KingdomChoice, RoomSettings, SeatSetting};
use futures_util::{SinkExt, StreamExt};
use serde::Serialize;
use std::collections::BTreeMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::{Semaphore, watch};
use tokio::time::Instant;

/// What the bot rooms' player does once the game has started.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Human {
    /// Stays and answers its own decisions at once.
    Stays,
    /// Sends `leave` (and keeps its connection, idle).
    Leaves,
}

#[derive(Clone, Debug)]
pub struct Plan {
    pub addr: SocketAddr,
    pub rooms: usize,
    pub bot: String,
    pub bots_per_room: u8,
    pub human: Human,
    /// How many source addresses the bot rooms' connections come from (127.0.1.1 on).
    pub sources: u8,
    pub kingdom: String,
    pub warmup: Duration,
    pub duration: Duration,
    pub measure_rooms: usize,
    pub think: Duration,
    pub healthz_every: Duration,
    pub pid: Option<u32>,
}

/// Bot rooms set up at once.
const SETUP_CONCURRENCY: usize = 32;
/// Longest wait for any answer while setting up a bot room.
const SETUP_WAIT: Duration = Duration::from_secs(30);

#[derive(Debug, Serialize)]
pub struct Summary {
    pub mode: &'static str,
    pub target: String,
    pub bot_rooms: usize,
    pub bot: String,
    pub bots_per_room: u8,
    pub human: Human,
    pub sources: u8,
    /// Bot rooms whose game started, and those that could not be set up (with why).
    pub bot_rooms_started: usize,
    pub bot_rooms_failed: usize,
    pub bot_failures: BTreeMap<String, usize>,
    /// Decisions the staying players answered, and bot games that ended, during the
    /// whole run (set-up and warm-up included).
    pub bot_room_decisions: u64,
    pub bot_games_over: u64,
    pub warmup_s: f64,
    /// The separate humans, measured as `play` measures (its summary).
    pub measured: play::Summary,
    pub healthz: Healthz,
}

/// `/healthz` asked at intervals during the measured window.
#[derive(Debug, Default, Serialize)]
pub struct Healthz {
    pub every_ms: f64,
    pub asked: u64,
    /// Answers other than 200, or no answer within 10 s.
    pub failed: u64,
    /// Connect → the whole answer read, for the 200s.
    pub latency: Latency,
}

pub async fn run(plan: Plan) -> Result<Summary, String> {
    let sources: Vec<Option<IpAddr>> = match plan.addr.ip() {
        IpAddr::V4(_) => (0..plan.sources)
            .map(|i| Some(IpAddr::V4(Ipv4Addr::new(127, 0, 1, 1 + i))))
            .collect(),
        IpAddr::V6(_) => vec![None],
    };
    crate::procfs::ensure_open_files(plan.rooms as u64 + 2 * plan.measure_rooms as u64 + 64)?;
    let counts = Arc::new(Counts::default());
    let (release, released) = watch::channel(false);
    let gate = Arc::new(Semaphore::new(SETUP_CONCURRENCY));
    let mut setups = Vec::with_capacity(plan.rooms);
    for i in 0..plan.rooms {
        let from = sources[i % sources.len()];
        let (gate, plan, counts, released) =
            (gate.clone(), plan.clone(), counts.clone(), released.clone());
        setups.push(tokio::spawn(async move {
            let permit = gate.acquire_owned().await;
            let room = BotRoom::set_up(&plan, i, from).await;
            drop(permit);
            match room {
                Ok(room) => {
                    // Runs until the measurement is over.
                    tokio::spawn(room.live(plan.human, counts, released));
                    Ok(())
                }
                Err(e) => Err(e.to_string()),
            }
        }));
    }
    let mut started = 0;
    let mut failures = BTreeMap::new();
    for s in setups {
        match s.await {
            Ok(Ok(())) => started += 1,
            Ok(Err(e)) => *failures.entry(e).or_insert(0) += 1,
            Err(e) => *failures.entry(e.to_string()).or_insert(0) += 1,
        }
    }
    tokio::time::sleep(plan.warmup).await;

    let (stop, stopped) = watch::channel(false);
    let poller = tokio::spawn(poll_healthz(plan.addr, plan.healthz_every, stopped));
    let measured = play::run(play::Plan {
        nodes: vec![plan.addr],
        players_via: Via::Owner,
        rooms: plan.measure_rooms,
        seats: 2,
        duration: Some(plan.duration),
        games: None,
        kingdom: plan.kingdom.clone(),
        pids: plan.pid.into_iter().collect(),
        stall: Duration::from_secs(30),
        think: plan.think,
    })
    .await;
    let _ = stop.send(true);
    let healthz = poller.await.map_err(|e| e.to_string())?;
    let _ = release.send(true);
    let measured = measured?;
    Ok(Summary {
        mode: "bots",
        target: plan.addr.to_string(),
        bot_rooms: plan.rooms,
        bot: plan.bot.clone(),
        bots_per_room: plan.bots_per_room,
        human: plan.human,
        sources: plan.sources,
        bot_rooms_started: started,
        bot_rooms_failed: failures.values().sum(),
        bot_failures: failures,
        bot_room_decisions: counts.decisions.load(Ordering::Relaxed),
        bot_games_over: counts.games_over.load(Ordering::Relaxed),
        warmup_s: plan.warmup.as_secs_f64(),
        measured,
        healthz,
    })
}

#[derive(Default)]
struct Counts {
    decisions: AtomicU64,
    games_over: AtomicU64,
}

/// One bot room's player connection, its game started.
struct BotRoom {
    ws: Ws,
    next_id: u64,
    seat: u8,
}

impl BotRoom {
    async fn set_up(plan: &Plan, index: usize, from: Option<IpAddr>) -> Result<BotRoom, Failure> {
        let (ws, _) = wire::open_from(plan.addr, from, SETUP_WAIT).await?;
        let mut room = BotRoom {
            ws,
            next_id: 0,
            seat: 0,
        };
        let mut seats = vec![SeatSetting::Open {}];
        seats.extend((0..plan.bots_per_room).map(|_| SeatSetting::Bot {
            bot: plan.bot.clone(),
        }));
        let settings = RoomSettings {
            name: Some(format!("bots {index}")),
            kingdom: KingdomChoice::Recommended {
                id: plan.kingdom.clone(),
            },
            edition: Default::default(),
            seats,
            decision_seconds: None,
            // The default: a seat left is played by a bot.
            abandoned: Default::default(),
            spectator_chat: false,
            rated: false,
        };
        room.send(|id| ClientMessage::CreateRoom { id, settings })
            .await?;
        let id = loop {
            if let Frame::RoomCreated { room, .. } = room.answer().await? {
                break room;
            }
        };
        let name = format!("bots-{index}");
        room.send(|cmd| ClientMessage::TakeSeat {
            id: cmd,
            room: id,
            seat: Some(0),
            name,
        })
        .await?;
        room.seat = loop {
            if let Frame::Seated { seat, .. } = room.answer().await? {
                break seat;
            }
        };
        room.send(|id| ClientMessage::Start { id }).await?;
        // The start's `ack` (the only command in flight; a `decision` may come first).
        let mut first = None;
        loop {
            match room.answer().await? {
                Frame::Ack => break,
                Frame::Decision(d) => first = Some(d),
                _ => {}
            }
        }
        if let Some(d) = first {
            // Answered as it would be in `live`.
            room.reply(&d).await?;
        }
        Ok(room)
    }

    /// The next frame that answers something or asks something; an error frame fails.
    async fn answer(&mut self) -> Result<Frame, Failure> {
        loop {
            let item = tokio::time::timeout(SETUP_WAIT, self.ws.next())
                .await
                .map_err(|_| Failure::Silent(SETUP_WAIT))?;
            match wire::classify(item)? {
                Frame::Error { code, message, .. } => {
                    return Err(Failure::Refusal { code, message });
                }
                Frame::Ignored => {}
                frame => return Ok(frame),
            }
        }
    }

    async fn send(&mut self, make: impl FnOnce(u64) -> ClientMessage) -> Result<(), Failure> {
        self.next_id += 1;
        self.ws.send(wire::text(&make(self.next_id))).await?;
        Ok(())
    }

    async fn reply(&mut self, d: &dominion_protocol::DecisionRequest) -> Result<(), Failure> {
        let (decision, reply) = (d.decision, crate::policy::reply(&d.prompt));
        self.send(|id| ClientMessage::Reply {
            id,
            decision,
            reply,
        })
        .await
    }

    /// Plays (or leaves) until `released`, then closes.
    async fn live(
        mut self,
        human: Human,
        counts: Arc<Counts>,
        mut released: watch::Receiver<bool>,
    ) {
        if human == Human::Leaves && self.send(|id| ClientMessage::Leave { id }).await.is_err() {
            return;
        }
        loop {
            tokio::select! {
                () = until(&mut released) => break,
                item = self.ws.next() => match wire::classify(item) {
                    Ok(Frame::Decision(d)) if human == Human::Stays && d.seat == self.seat => {
                        if self.reply(&d).await.is_err() {
                            return;
                        }
                        counts.decisions.fetch_add(1, Ordering::Relaxed);
                    }
                    Ok(Frame::GameOver) => {
                        counts.games_over.fetch_add(1, Ordering::Relaxed);
                    }
                    Ok(_) => {}
                    Err(_) => return,
                },
            }
        }
        let _ = self.ws.close(None).await;
    }
}

/// Asks `/healthz` every `every` (one at a time) until `stop`.
async fn poll_healthz(
    addr: SocketAddr,
    every: Duration,
    mut stop: watch::Receiver<bool>,
) -> Healthz {
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut samples = Vec::new();
    let mut out = Healthz {
        every_ms: every.as_secs_f64() * 1000.0,
        ..Healthz::default()
    };
    loop {
        tokio::select! {
            () = until(&mut stop) => break,
            _ = tick.tick() => {}
        }
        out.asked += 1;
        let start = Instant::now();
        match tokio::time::timeout(Duration::from_secs(10), healthz(addr)).await {
            Ok(Ok(true)) => samples.push(stats::micros(start.elapsed())),
            _ => out.failed += 1,
        }
    }
    out.latency = Latency::of(&mut samples);
    out
}

/// One `GET /healthz` on a new connection: whether it answered 200.
async fn healthz(addr: SocketAddr) -> std::io::Result<bool> {
    let mut tcp = tokio::net::TcpStream::connect(addr).await?;
    tcp.set_nodelay(true)?;
    tcp.write_all(b"GET /healthz HTTP/1.1\r\nHost: load\r\nConnection: close\r\n\r\n")
        .await?;
    let mut answer = Vec::with_capacity(256);
    tcp.read_to_end(&mut answer).await?;
    Ok(answer.starts_with(b"HTTP/1.1 200"))
}

/// Until the flag is set (or its sender gone).
async fn until(flag: &mut watch::Receiver<bool>) {
    let _ = flag.wait_for(|set| *set).await;
}
