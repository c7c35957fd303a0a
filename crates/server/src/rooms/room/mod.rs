//! A room: one tokio task that owns one game, its seats and its viewers.
//!
//! Everything that touches the room arrives as a [`RoomMsg`] on the room's channel and is
//! handled to completion before the next, so the task is the lock: there is no shared
//! game state. The room never waits on a client — frames go out through each viewer's
//! bounded queue ([`ConnHandle::send`]) — and engine and bot calls run under
//! `catch_unwind`, so a failing game marks only its own room broken (a client asking for
//! it is told why).
//!
//! Every reply, from a human, a seat's bot or a time-out, goes through `apply_reply`
//! (`play.rs`): engine validation, then the durable log, then the viewers. The room
//! awaits each durable step's commit, and each server bot's decision (`clock.rs`),
//! before it goes on; meanwhile it handles nothing else — its messages wait in its
//! channel, so their order is kept — and the other rooms run on: the log's writer
//! commits the steps of all of them together.
//!
//! The task's jobs have a file each: `join.rs` (seats, tokens, resume, spectators),
//! `social.rs` (chat, the host's seats, history, rematch), `play.rs` (the game and a
//! reply's path), `clock.rs` (bots, deadlines, absence, abandonment, expiry),
//! `output.rs` (viewers, saving, hand-over, failure), `undo.rs` and `shown.rs`.
//!
//! A started game in which no player has been connected for `--abandon-after` ends as
//! abandoned: the store keeps it as history, and the room closes, so it no longer counts
//! against `--max-rooms` and is not reopened after a restart. Until then it stands
//! still — no bot moves and no decision time runs out while no player is connected — so
//! a game nobody plays costs no CPU and ends the same way whoever sits in its seats.
//!
//! A room whose game has not started closes `--lobby-timeout` after it opened, even with
//! players connected (they are told, as when a game is abandoned): otherwise one idle
//! client could keep rooms waiting forever and fill `--max-rooms` (issue 23). A room made
//! by a known client address may hold a [`Claim`] on that address's rooms with searching
//! bots: it holds it while a searching bot may play in it and its game is not over.
//!
//! Bots answer in the room's task, except a bot that thinks (`search`): it thinks on one
//! of the server's few bot thinkers (`rooms::thinkers`), and answers as `standard` at
//! once when every thinker is busy — except in a `rated` room (the bot ladder), where it
//! thinks a fixed number of playouts and waits for a thinker instead, so that its
//! strength does not depend on the load.

mod clock;
mod hint;
mod join;
mod open;
mod output;
mod play;
mod rating;
mod removal;
mod shown;
mod snapshot;
mod social;
#[cfg(test)]
mod tests;
mod undo;

use crate::budget::{Budget, Claim};
use crate::config::Config;
use crate::convert::from_wire::{self, FALLBACK_BOT, RoomPlan};
use crate::convert::refusal::Refusal;
use crate::convert::to_wire::decision_id;
use crate::gamelog::durable::Recovered;
use crate::gamelog::{LogError, RoomLog, SeatAccount, SeatRecord};
use crate::metrics::Metrics;
use crate::rooms::chat;
use crate::rooms::outbox::ConnHandle;
use crate::rooms::projection::{self, Topic};
use crate::rooms::state::{HumanSeat, RoomState, Seat, SeatLevels};
use crate::rooms::thinkers::Thinkers;
use crate::token::{self, TokenHash};
use dominion_engine::view::Observation;
use dominion_engine::{Agent, Game, Kingdom, PlayerId, Reply, Setup, Viewer, bots};
use dominion_protocol as wire;
use dominion_protocol::{CloseCode, ErrorCode, ServerMessage};
pub use open::{restore, spawn};
use shown::Shown;
use std::collections::HashMap;
use std::net::IpAddr;
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
        /// The client's address, when known: a room keeps out addresses its host removed.
        from: Option<IpAddr>,
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
    /// Chat line number `line`, if the room still keeps it: what a report quotes
    /// (`POST /api/reports`), read from the room rather than trusted from the reporter.
    ChatLine {
        line: u64,
        done: oneshot::Sender<Option<dominion_protocol::ChatLine>>,
    },
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
        /// The account the connection is signed in as (None: a guest).
        account: Option<SeatAccount>,
        /// That account's levels, as the connection read them (shown in the lobby).
        levels: SeatLevels,
    },
    Resume {
        token: String,
        last_event: Option<u64>,
        /// The connection's account and its levels, when the lobby showed the seat of
        /// that account without one (a room reopened after a restart or taken over).
        levels: Option<(i64, SeatLevels)>,
    },
    /// `name` is what the spectator's chat lines carry.
    Spectate { name: String },
}

pub enum Command {
    Start,
    Leave,
    Reply {
        decision: u64,
        reply: wire::Reply,
    },
    /// A chat line, already checked (`chat::check`), from the client address `from`
    /// (when known): the room holds it to the speaker's and the address's limits.
    Chat {
        text: String,
        from: Option<IpAddr>,
    },
    SetSeat {
        seat: u8,
        occupant: wire::SeatSetting,
    },
    /// The host takes a player or spectator out of the room (`removal`).
    Remove {
        who: wire::Removable,
    },
    History {
        from: u64,
        to: Option<u64>,
    },
    /// A page of the room's chat (see `chat::Log::page`).
    ChatHistory {
        from: u64,
        to: Option<u64>,
    },
    Undo,
    UndoAnswer {
        accept: bool,
    },
    /// What the Hard bot would answer to the seat's pending decision (`hint`).
    Hint,
    /// Offer a rematch in this room (checked by the connection: it exists and waits for
    /// players; `ours`: the offering connection created it).
    Rematch {
        room: String,
        ours: bool,
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
    /// The connection that created this room, in this process (None for a room reopened
    /// from the store): a rematch is offered only in a room its offerer created.
    pub creator: Option<u64>,
}

impl RoomHandle {
    /// Chat line `n` as the room quotes it — (writer's name, text) — if the room still
    /// keeps it: a report keeps the line as the room heard it, never as the reporter
    /// tells it.
    pub async fn quote_chat_line(&self, n: u64) -> Option<(String, String)> {
        let (done, quoted) = oneshot::channel();
        self.tx
            .send(RoomMsg::ChatLine { line: n, done })
            .await
            .ok()?;
        let line = quoted.await.ok()??;
        let name = match line.from {
            wire::ChatSender::Seat { name, .. } | wire::ChatSender::Spectator { name } => name,
        };
        Some((name, line.text))
    }
}

/// What every room shares with the server, and what a room owes its creator's address.
pub struct Context {
    pub config: Arc<Config>,
    pub log: Arc<dyn RoomLog>,
    pub metrics: Arc<Metrics>,
    /// The room's claim on its creator address's rooms with searching bots
    /// (`--search-rooms-per-address`), held if its settings have one; None when its
    /// creator is unknown (a room reopened from the store): then nothing limits it.
    pub search_claim: Option<Claim>,
    /// The chat budgets of client addresses, which every room spends from.
    pub chat: Arc<chat::Addresses>,
    /// Where searching bots think (shared by every room).
    pub thinkers: Arc<Thinkers>,
}

/// Whether a new room was stored: the answer to `create_room` waits for it, so that no
/// client hears of a room the server could not keep.
pub type Stored = oneshot::Receiver<Result<(), String>>;

struct Room {
    state: RoomState,
    config: Arc<Config>,
    log: Arc<dyn RoomLog>,
    metrics: Arc<Metrics>,
    /// The chat budgets of client addresses (shared by every room).
    chat_addresses: Arc<chat::Addresses>,
    /// Each seat's chat budget: it outlives the seat's connections, so a `resume` (or
    /// a new occupant of a freed seat) does not renew it.
    seat_chat: Vec<Budget>,
    /// Each spectator's chat budget, by connection id, while it watches.
    spectator_chat: HashMap<u64, Budget>,
    /// Where searching bots think (shared by every room).
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
    /// Each member connection's client address, when known (see `removal`).
    member_addresses: HashMap<u64, IpAddr>,
    /// Whom the host removed: kept out of the room while it is open.
    barred: removal::Barred,
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
    /// The hint being thought, if any (`hint`).
    hint: Option<hint::HintJob>,
    /// The fewest events an undo has left in this room's life: a client that resumes
    /// from a later event may hold events that were taken back, so it gets a snapshot.
    undo_floor: Option<u64>,
    /// When this run of the room began: a game not started `--lobby-timeout` later is
    /// not going to be, and the room closes.
    opened_at: Instant,
    /// This room's place among its creator address's rooms with searching bots.
    search_claim: Option<Claim>,
    /// What timed decisions had left when last left, by their place in the log (see
    /// `clock`): an undo asks them again with that, not a fresh deadline.
    time_left: std::collections::BTreeMap<u64, clock::TimeLeft>,
    /// Where the last snapshot stored in this room's run ended (`--snapshot-every`).
    snapshot_mark: dominion_engine::snapshot::Mark,
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
                (seat, decision, reply) = hint::next_hint(&mut self.hint) => {
                    self.hint_ready(seat, decision, reply);
                }
            }
            let now = Instant::now();
            self.note_presence(now);
            self.expire_lobby(now);
            self.release_search_when_over();
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
            RoomMsg::ChatLine { line, done } => {
                let _ = done.send(self.state.chat.line(line).cloned());
            }
            RoomMsg::Join {
                conn,
                cmd,
                join,
                from,
                done,
            } => {
                let result = match join {
                    Join::TakeSeat {
                        seat,
                        name,
                        account,
                        levels,
                    } => match self.barred.check(from, &name) {
                        Ok(()) => {
                            self.take_seat(&conn, cmd, seat, &name, (account, levels))
                                .await
                        }
                        Err(refusal) => Err(refusal),
                    },
                    Join::Resume {
                        token,
                        last_event,
                        levels,
                    } => self.resume(&conn, cmd, (&token, last_event), levels),
                    Join::Spectate { name } => match self.barred.check(from, &name) {
                        Ok(()) => self.spectate(&conn, cmd, name),
                        Err(refusal) => Err(refusal),
                    },
                };
                if result.is_ok()
                    && let Some(ip) = from
                {
                    self.member_addresses.insert(conn.id, ip);
                }
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
            RoomMsg::Command {
                conn,
                cmd,
                command: Command::ChatHistory { from, to },
            } => {
                // Reading too, even in a broken room.
                let msg = match self.chat_history(conn.id, cmd, from, to) {
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
                        Command::Chat { text, from } => self.chat(conn.id, text, from),
                        Command::SetSeat { seat, occupant } => {
                            self.set_seat(conn.id, cmd, seat, occupant).await
                        }
                        Command::Remove { who } => self.remove(conn.id, cmd, who).await,
                        // Answered above.
                        Command::History { .. } | Command::ChatHistory { .. } => Ok(()),
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
                        Command::Rematch { room, ours } => self.rematch(conn.id, cmd, room, ours),
                        Command::Hint => self.hint_command(conn.id, cmd),
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

/// The refusal of a room with searching bots to an address that has its
/// `--search-rooms-per-address` open.
pub fn search_refusal(max: usize) -> Refusal {
    let message = if max == 0 {
        "this server opens no rooms with searching bots (\"search\"); choose another bot"
            .to_string()
    } else {
        format!(
            "your address has {max} rooms with searching bots (\"search\") open, the most it may; choose another bot, or wait until one of those games ends"
        )
    };
    Refusal::new(ErrorCode::TooManyRooms, message)
}

fn broken() -> Refusal {
    Refusal::new(
        ErrorCode::Internal,
        "this room stopped after an internal error; its game cannot continue",
    )
}

/// Builds the named bot with the server's thinking budget: `--bot-think-ms` of wall
/// clock per decision (the engine has no clock, so the server lends it one) — or, in a
/// `rated` room (the bot ladder's house bots: docs/protocol.md, "The bot ladder"), a
/// fixed `--ladder-search-playouts` and no clock, so that a house bot plays as well
/// whatever the machine's load and its rating means the same at any hour.
fn bot_agent(config: &Config, name: &str, seed: u64, rated: bool) -> Option<Box<dyn Agent + Send>> {
    if rated {
        let thinking = bots::Thinking::playouts(config.ladder_search_playouts);
        return bots::by_name_thinking(name, seed, &thinking);
    }
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
