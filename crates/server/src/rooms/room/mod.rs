//! A room: one tokio task that owns one game, its seats and its viewers.
//!
//! Everything that touches the room arrives as a [`RoomMsg`] on the room's channel and is
//! handled to completion before the next, so the task is the lock: there is no shared
//! game state. The room never waits on a client — frames go out through each viewer's
//! bounded queue ([`ConnHandle::send`]) — and engine calls run under `catch_unwind`, so a
//! failing game marks only its own room broken.
//!
//! Every reply, from a human, a seat's bot or a time-out, goes through
//! [`Room::apply_reply`]: engine validation, then the durable log, then the viewers.
//! The room awaits each durable step's commit before it tells anyone of it; while it
//! waits it handles nothing else (its messages wait in its channel), and the other rooms
//! run on — the log's writer commits the steps of all of them together.
//!
//! A started game in which no player has been connected for `--abandon-after` ends as
//! abandoned: the store keeps it as history, and the room closes, so it no longer counts
//! against `--max-rooms` and is not reopened after a restart. Until then it stands
//! still — no bot moves and no decision time runs out while no player is connected — so
//! a game nobody plays costs no CPU and ends the same way whoever sits in its seats.
//!
//! Bots answer in the room's task, except a bot that thinks (`search`): it thinks on one
//! of the server's few bot thinkers (`rooms::thinkers`), and answers as `standard` at
//! once when every thinker is busy.

mod clock;
mod join;
mod output;
mod play;
mod shown;
mod social;
#[cfg(test)]
mod tests;
mod undo;

use crate::config::Config;
use crate::convert::from_wire::{self, FALLBACK_BOT, RoomPlan};
use crate::convert::refusal::Refusal;
use crate::convert::to_wire::decision_id;
use crate::gamelog::durable::Recovered;
use crate::gamelog::{LogError, RoomLog, SeatRecord};
use crate::metrics::Metrics;
use crate::rooms::chat;
use crate::rooms::outbox::ConnHandle;
use crate::rooms::projection::{self, Topic};
use crate::rooms::state::{HumanSeat, RoomState, Seat};
use crate::rooms::thinkers::Thinkers;
use crate::token::{self, TokenHash};
use dominion_engine::view::Observation;
use dominion_engine::{Agent, Game, Kingdom, PlayerId, Reply, Setup, Viewer, bots};
use dominion_protocol as wire;
use dominion_protocol::{CloseCode, ErrorCode, ServerMessage};
use shown::Shown;
use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::Instant;

/// Why an evicted room's viewers are closed.
const MOVED: &str = "this room moved to another server; reconnect and resume with your token";

/// Messages a room waits for at most; a connection sending to a full room waits its turn.
const INBOX: usize = 256;

/// What a connection asks of a room.
pub enum RoomMsg {
    /// Enter the room; `done` gets the role on success (the room has already sent the
    /// answer, or the error, to `conn`).
    Join {
        conn: ConnHandle,
        cmd: u64,
        join: Join,
        done: oneshot::Sender<Option<Role>>,
    },
    /// A command from a connection that joined.
    Command {
        conn: ConnHandle,
        cmd: u64,
        command: Command,
    },
    /// The connection closed.
    Detach { conn_id: u64 },
    /// Stop running here without ending the game: another node runs the room next (this
    /// node lost its lease, or is draining). Viewers are closed with 1012 and resume
    /// wherever the room runs now.
    Evict,
}

#[derive(Clone)]
pub enum Join {
    TakeSeat {
        seat: Option<u8>,
        name: String,
    },
    Resume {
        token: String,
        last_event: Option<u64>,
    },
    /// `name` is what the spectator's chat lines carry.
    Spectate {
        name: String,
    },
}

pub enum Command {
    Start,
    Leave,
    Reply {
        decision: u64,
        reply: wire::Reply,
    },
    /// A chat line, already checked (`chat::check`) and within the connection's limit.
    Chat {
        text: String,
    },
    SetSeat {
        seat: u8,
        occupant: wire::SeatSetting,
    },
    History {
        from: u64,
        to: Option<u64>,
    },
    Undo,
    UndoAnswer {
        accept: bool,
    },
    /// Offer a rematch in this room (checked by the connection: it exists and waits for
    /// players).
    Rematch {
        room: String,
    },
}

/// How a connection takes part in a room.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Seat(u8),
    Spectator,
}

/// The hub's grip on a running room.
#[derive(Clone)]
pub struct RoomHandle {
    pub tx: mpsc::Sender<RoomMsg>,
    /// Unique to this run of the room in this process: the same room taken over again
    /// after an eviction is another run, which the old one's end must not unregister.
    pub run: u64,
    pub summary: watch::Receiver<wire::RoomSummary>,
}

/// What every room shares with the server.
#[derive(Clone)]
pub struct Context {
    pub config: Arc<Config>,
    pub log: Arc<dyn RoomLog>,
    pub metrics: Arc<Metrics>,
    /// Where searching bots think (shared by every room).
    pub thinkers: Arc<Thinkers>,
}

/// Whether a new room was stored: the answer to `create_room` waits for it, so that no
/// client hears of a room the server could not keep.
pub type Stored = oneshot::Receiver<Result<(), String>>;

/// Starts the task of a new room. `on_close` runs when the task ends, however it ends,
/// with the room's id and [`RoomHandle::run`].
/// The room's first act is to store itself; [`Stored`] says how that went (a room that
/// could not be stored ends at once).
pub fn spawn(
    id: String,
    plan: RoomPlan,
    creator: Option<u64>,
    cx: Context,
    on_close: impl FnOnce(&str, u64) + Send + 'static,
) -> (RoomHandle, Stored) {
    let seats: Vec<Seat> = plan
        .settings
        .seats
        .iter()
        .map(|s| match s {
            wire::SeatSetting::Open {} => Seat::Open,
            wire::SeatSetting::Bot { bot } => Seat::Bot { bot: bot.clone() },
        })
        .collect();
    let state = RoomState {
        id,
        settings: plan.settings,
        setup: plan.setup,
        status: wire::RoomStatus::Lobby,
        seats,
        spectators: 0,
        game: None,
        decision_deadline: None,
        host: None,
        creator,
        chat: Default::default(),
        rematch: None,
    };
    let (stored_tx, stored) = oneshot::channel();
    (launch(state, cx, on_close, Some(stored_tx)), stored)
}

/// Reopens a room rebuilt from the store after a restart. Its players count as away
/// since now, so abandon timers and decision clocks start afresh: the downtime is never
/// charged to anyone.
pub fn restore(
    rec: Recovered,
    cx: Context,
    on_close: impl FnOnce(&str, u64) + Send + 'static,
) -> Result<RoomHandle, String> {
    let now = Instant::now();
    let seats = rec
        .seats
        .iter()
        .map(|s| match s {
            SeatRecord::Open => Ok(Seat::Open),
            SeatRecord::Bot { bot } => Ok(Seat::Bot { bot: bot.clone() }),
            SeatRecord::Human {
                name,
                token_hash,
                last_command,
            } => {
                let hash = TokenHash::from_hex(token_hash).ok_or("unreadable seat token hash")?;
                let mut h = HumanSeat::new(name.clone(), hash);
                h.last_command = *last_command;
                h.connected = false;
                h.away_since = Some(now);
                Ok(Seat::Human(h))
            }
        })
        .collect::<Result<Vec<_>, String>>()?;
    let (setup, game, status) = match rec.game {
        Some(g) if rec.finished => (g.setup, Some(g.game), wire::RoomStatus::Finished),
        Some(g) => (g.setup, Some(g.game), wire::RoomStatus::Playing),
        None => {
            let plan = from_wire::room_plan(&rec.settings).map_err(|r| r.message)?;
            (plan.setup, None, wire::RoomStatus::Lobby)
        }
    };
    let state = RoomState {
        id: rec.id,
        settings: rec.settings,
        setup,
        status,
        seats,
        spectators: 0,
        game,
        decision_deadline: None,
        host: rec.host,
        creator: None,
        chat: Default::default(),
        rematch: None,
    };
    tracing::info!(room = %state.id, status = ?state.status, "room reopened from the store");
    Ok(launch(state, cx, on_close, None))
}

/// Starts a room's task; `stored` is set for a new room, which stores itself first.
fn launch(
    state: RoomState,
    cx: Context,
    on_close: impl FnOnce(&str, u64) + Send + 'static,
    stored: Option<oneshot::Sender<Result<(), String>>>,
) -> RoomHandle {
    static RUNS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    let run = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let n = state.seats.len();
    let id = state.id.clone();
    let (summary_tx, summary) = watch::channel(projection::summary(&state));
    let (tx, rx) = mpsc::channel(INBOX);
    let now = Instant::now();
    let mut room = Room {
        state,
        config: cx.config,
        log: cx.log,
        metrics: cx.metrics,
        thinkers: cx.thinkers,
        downgrade_told: false,
        summary_tx,
        seat_conns: vec![None; n],
        spectator_conns: Vec::new(),
        spectator_names: HashMap::new(),
        agents: (0..n).map(|_| None).collect(),
        shown: Shown::new(n),
        announced: None,
        over_announced: false,
        empty_since: Some(now),
        unattended_since: Some(now),
        closing: false,
        evicted: false,
        finished_at: None,
        undo: None,
        undo_floor: None,
    };
    if room.state.status == wire::RoomStatus::Finished {
        // Reopened so that players who missed the end can still `resume` and see it; the
        // end is already recorded.
        room.over_announced = true;
        room.finished_at = Some(now);
    }
    if let Some(game) = &room.state.game {
        // A reopened game: its events so far were published before the restart; viewers
        // catch up by `resume`. Bots get their agents back.
        room.shown.catch_up(game);
        let seed = game.seed();
        for (i, seat) in room.state.seats.iter().enumerate() {
            if let Seat::Bot { bot } = seat {
                room.agents[i] = bot_agent(&room.config, bot, bot_seed(seed, i));
            }
        }
    }
    tokio::spawn(async move {
        let _guard = OnClose(Some(Box::new(move || on_close(&id, run))));
        if let Some(stored) = stored {
            let saved = room.log.room_saved(&room.state.record()).await;
            let ok = saved.is_ok();
            if let Err(e) = &saved {
                tracing::error!(room = %room.state.id, "a new room could not be stored: {e}");
            }
            let _ = stored.send(saved.map_err(|e| e.to_string()));
            if !ok {
                // Nobody was told of it: the room simply never existed.
                return;
            }
        } else {
            room.publish().await;
        }
        room.run(rx).await;
    });
    RoomHandle { tx, run, summary }
}

/// Runs `on_close` when the room task ends, even by a panic.
struct OnClose(Option<Box<dyn FnOnce() + Send>>);

impl Drop for OnClose {
    fn drop(&mut self) {
        if let Some(f) = self.0.take() {
            f();
        }
    }
}

struct Room {
    state: RoomState,
    config: Arc<Config>,
    log: Arc<dyn RoomLog>,
    metrics: Arc<Metrics>,
    thinkers: Arc<Thinkers>,
    /// Whether this room has logged that a searching bot answered as `standard` (once
    /// per room; the metric counts every such decision).
    downgrade_told: bool,
    summary_tx: watch::Sender<wire::RoomSummary>,
    /// The live connection of each seat, if any.
    seat_conns: Vec<Option<ConnHandle>>,
    spectator_conns: Vec<ConnHandle>,
    /// The name each spectator's chat lines carry, by connection id.
    spectator_names: HashMap<u64, String>,
    /// The bot answering for each seat: bot seats, and humans a bot has taken over.
    agents: Vec<Option<Box<dyn Agent + Send>>>,
    /// Game events already sent to each viewer (see `shown`).
    shown: Shown,
    /// The pending decision last announced, and since when it has been pending.
    announced: Option<(u64, Instant)>,
    over_announced: bool,
    /// Since when nobody has been connected (None while someone is).
    empty_since: Option<Instant>,
    /// Since when no player (spectators do not count) has been connected: a started
    /// game is abandoned `--abandon-after` later.
    unattended_since: Option<Instant>,
    /// The room ends after this message (its game was abandoned, or it was evicted).
    closing: bool,
    /// The room ends because another node runs it next: it writes nothing more.
    evicted: bool,
    finished_at: Option<Instant>,
    /// An undo waiting for the other players' consent.
    undo: Option<undo::UndoRequest>,
    /// The fewest events an undo has left in this room's life: a client that resumes
    /// from a later event may hold events that were taken back, so it gets a snapshot.
    undo_floor: Option<u64>,
}

/// Who answers a seat's decisions now.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Controller {
    Human,
    Bot,
}

impl Room {
    async fn run(mut self, mut rx: mpsc::Receiver<RoomMsg>) {
        loop {
            let wake = self.next_wake();
            tokio::select! {
                msg = rx.recv() => match msg {
                    Some(msg) => self.handle(msg).await,
                    None => break,
                },
                () = sleep_until(wake) => self.on_timer(Instant::now()).await,
            }
            let now = Instant::now();
            self.note_presence(now);
            if self.expired(now) {
                break;
            }
        }
        if self.evicted {
            tracing::info!(room = %self.state.id, "room handed over");
            return;
        }
        tracing::info!(room = %self.state.id, "room closed");
        if let Err(e) = self.log.room_closed(&self.state.id).await {
            tracing::warn!(room = %self.state.id, "{e}");
        }
    }

    async fn handle(&mut self, msg: RoomMsg) {
        match msg {
            RoomMsg::Evict => self.evict(),
            RoomMsg::Join {
                conn,
                cmd,
                join,
                done,
            } => {
                let result = match join {
                    Join::TakeSeat { seat, name } => self.take_seat(&conn, cmd, seat, &name).await,
                    Join::Resume { token, last_event } => {
                        self.resume(&conn, cmd, &token, last_event)
                    }
                    Join::Spectate { name } => self.spectate(&conn, cmd, name),
                };
                let role = match result {
                    Ok(role) => Some(role),
                    Err(_) if self.evicted => {
                        conn.close(CloseCode::ServiceRestart, MOVED);
                        None
                    }
                    Err(refusal) => {
                        conn.send(&refusal.to_message(Some(cmd)));
                        None
                    }
                };
                let _ = done.send(role);
            }
            RoomMsg::Command {
                conn,
                cmd,
                command: Command::History { from, to },
            } => {
                // Watching a broken room's past is still fine: it is only reading.
                let msg = match self.history(conn.id, cmd, from, to) {
                    Ok(msg) => msg,
                    Err(refusal) => refusal.to_message(Some(cmd)),
                };
                conn.send(&msg);
            }
            RoomMsg::Command { conn, cmd, command } => {
                let result = if self.state.status == wire::RoomStatus::Broken {
                    Err(broken())
                } else {
                    match command {
                        Command::Start => self.start(conn.id, cmd).await,
                        Command::Leave => self.leave(conn.id, cmd).await,
                        Command::Chat { text } => self.chat(conn.id, text),
                        Command::SetSeat { seat, occupant } => {
                            self.set_seat(conn.id, cmd, seat, occupant).await
                        }
                        Command::History { .. } => Ok(()), // answered above
                        Command::Reply { decision, reply } => {
                            let r = self.reply_command(conn.id, cmd, decision, &reply).await;
                            if r.is_err() {
                                self.metrics.replies_rejected.inc();
                            }
                            r
                        }
                        Command::Undo => self.undo_command(conn.id, cmd).await,
                        Command::UndoAnswer { accept } => {
                            self.undo_answer(conn.id, cmd, accept).await
                        }
                        Command::Rematch { room } => self.rematch(conn.id, cmd, room),
                    }
                };
                if self.evicted {
                    // The room runs elsewhere now and its viewers are being closed (1012):
                    // the command's fate is theirs to learn by resuming, not an error.
                    return;
                }
                match result {
                    Ok(()) => conn.send(&ServerMessage::Ack { re: cmd }),
                    Err(refusal) => conn.send(&refusal.to_message(Some(cmd))),
                };
            }
            RoomMsg::Detach { conn_id } => self.detach(conn_id),
        }
    }
}

fn broken() -> Refusal {
    Refusal::new(
        ErrorCode::Internal,
        "this room stopped after an internal error; its game cannot continue",
    )
}

/// Builds the named bot with the server's thinking budget: `--bot-think-ms` of wall
/// clock per decision (the engine has no clock, so the server lends it one).
fn bot_agent(config: &Config, name: &str, seed: u64) -> Option<Box<dyn Agent + Send>> {
    let start = std::time::Instant::now();
    let thinking = bots::Thinking {
        max_playouts: u32::MAX,
        budget_us: config.bot_think_ms.saturating_mul(1000),
        clock: Some(Arc::new(move || {
            u64::try_from(start.elapsed().as_micros()).unwrap_or(u64::MAX)
        })),
    };
    bots::by_name_thinking(name, seed, &thinking)
}

/// Each bot seat gets its own seed, derived from the game's.
fn bot_seed(seed: u64, seat: usize) -> u64 {
    (seed ^ (seat as u64 + 1)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}
