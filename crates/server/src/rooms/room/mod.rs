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
//! against `--max-rooms` and is not reopened after a restart.

mod shown;
pub mod state;
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
use crate::token::{self, TokenHash};
use dominion_engine::view::Observation;
use dominion_engine::{Agent, Game, Kingdom, PlayerId, Reply, Setup, Viewer, bots};
use dominion_protocol as wire;
use dominion_protocol::{CloseCode, ErrorCode, ServerMessage};
use shown::Shown;
use state::{HumanSeat, RoomState, Seat};
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

    // ---- joining and leaving -------------------------------------------------------

    async fn take_seat(
        &mut self,
        conn: &ConnHandle,
        cmd: u64,
        seat: Option<u8>,
        name: &str,
    ) -> Result<Role, Refusal> {
        if self.state.status == wire::RoomStatus::Broken {
            return Err(broken());
        }
        if self.state.status != wire::RoomStatus::Lobby {
            return Err(Refusal::new(
                ErrorCode::GameAlreadyStarted,
                "the game has started: seats can only be resumed with their token",
            ));
        }
        let name = from_wire::player_name(name)?;
        let idx = match seat {
            Some(s) => match self.state.seats.get(s as usize) {
                Some(Seat::Open) => s as usize,
                Some(_) => {
                    return Err(Refusal::new(
                        ErrorCode::SeatUnavailable,
                        format!("seat {s} is taken"),
                    ));
                }
                None => {
                    return Err(Refusal::new(
                        ErrorCode::SeatUnavailable,
                        format!(
                            "no seat {s}: this room has seats 0 to {}",
                            self.state.seats.len() - 1
                        ),
                    ));
                }
            },
            None => self
                .state
                .seats
                .iter()
                .position(|s| matches!(s, Seat::Open))
                .ok_or_else(|| Refusal::new(ErrorCode::SeatUnavailable, "no seat is open"))?,
        };
        let (token, hash) = token::new_token()
            .map_err(|e| Refusal::new(ErrorCode::Internal, format!("no randomness: {e}")))?;
        let mut human = HumanSeat::new(name, hash);
        human.last_command = cmd;
        self.state.seats[idx] = Seat::Human(human);
        let host_before = self.state.host;
        let creator = (self.state.creator == Some(conn.id)).then_some(idx);
        self.state.settle_host(creator);
        // The token is told only once the seat holding its hash is stored: otherwise a
        // restart could forget a seat its player was given.
        if let Err(e) = self.log.room_saved(&self.state.record()).await {
            self.state.seats[idx] = Seat::Open;
            self.state.host = host_before;
            self.log_failed(&e);
            return Err(broken());
        }
        self.seat_conns[idx] = Some(conn.clone());
        conn.send(&ServerMessage::Seated {
            re: cmd,
            room: self.state.id.clone(),
            seat: idx as u8,
            token,
            last_command: cmd,
        });
        self.broadcast(Topic::Room);
        self.send_to(conn, Viewer::Player(PlayerId(idx as u8)), Topic::ChatLog);
        Ok(Role::Seat(idx as u8))
    }

    fn resume(
        &mut self,
        conn: &ConnHandle,
        cmd: u64,
        token: &str,
        last_event: Option<u64>,
    ) -> Result<Role, Refusal> {
        let bad_token =
            || Refusal::new(ErrorCode::BadToken, "this token holds no seat in this room");
        if !token::well_formed(token) {
            return Err(bad_token());
        }
        let hash = TokenHash::of(token);
        let idx = self
            .state
            .seats
            .iter()
            .position(|s| matches!(s, Seat::Human(h) if h.token_hash == hash))
            .ok_or_else(bad_token)?;
        if let Some(old) = self.seat_conns[idx].replace(conn.clone())
            && old.id != conn.id
        {
            old.close(CloseCode::Replaced, "another connection resumed this seat");
        }
        let last_command = {
            let h = self.state.human_mut(idx).ok_or_else(bad_token)?;
            h.connected = true;
            h.away_since = None;
            h.left = false;
            h.bot_playing = None;
            h.last_command
        };
        self.agents[idx] = None;
        conn.send(&ServerMessage::Seated {
            re: cmd,
            room: self.state.id.clone(),
            seat: idx as u8,
            token: token.to_string(),
            last_command,
        });
        self.broadcast(Topic::Room);
        let viewer = Viewer::Player(PlayerId(idx as u8));
        if let Some(game) = &self.state.game {
            // Only as far as this seat may see now (a private question of another
            // player may be pending: `Game::visible`).
            let total = shown::visible(game, viewer);
            let from = last_event.map(|n| n.saturating_add(1));
            // Events from `f` on are the ones the client missed, unless a move was taken
            // back since it may have received them (see `undo_floor`).
            let catch_up = match from {
                Some(f)
                    if f <= total
                        && total - f <= self.config.resume_gap
                        && self.undo_floor.is_none_or(|floor| f <= floor) =>
                {
                    Topic::EventsFrom(f)
                }
                _ => Topic::Snapshot,
            };
            let now = Instant::now();
            for topic in [
                catch_up,
                Topic::Decision { now },
                Topic::GameOver,
                Topic::Rematch,
            ] {
                self.send_to(conn, viewer, topic);
            }
        }
        self.send_to(conn, viewer, Topic::ChatLog);
        Ok(Role::Seat(idx as u8))
    }

    fn spectate(&mut self, conn: &ConnHandle, cmd: u64, name: String) -> Result<Role, Refusal> {
        if self.spectator_conns.len() >= self.config.max_spectators {
            return Err(Refusal::new(
                ErrorCode::TooManySpectators,
                format!(
                    "this room has its {} spectators already",
                    self.config.max_spectators
                ),
            ));
        }
        self.spectator_conns.push(conn.clone());
        self.spectator_names.insert(conn.id, name);
        self.state.spectators = self.spectator_conns.len() as u32;
        conn.send(&ServerMessage::Spectating {
            re: cmd,
            room: self.state.id.clone(),
        });
        self.broadcast(Topic::Room);
        for topic in [
            Topic::Snapshot,
            Topic::GameOver,
            Topic::ChatLog,
            Topic::Rematch,
        ] {
            self.send_to(conn, Viewer::Spectator, topic);
        }
        Ok(Role::Spectator)
    }

    /// Leaving always detaches the connection (it has forgotten the room already), so it
    /// is never refused as a duplicate: leaving twice is leaving once.
    async fn leave(&mut self, conn_id: u64, cmd: u64) -> Result<(), Refusal> {
        if let Some(idx) = self.seat_of(conn_id) {
            if let Some(h) = self.state.human_mut(idx) {
                h.last_command = h.last_command.max(cmd);
            }
            self.seat_conns[idx] = None;
            if self.state.status == wire::RoomStatus::Lobby {
                self.state.seats[idx] = Seat::Open;
                self.state.settle_host(None);
                self.save_room().await;
            } else if let Some(h) = self.state.human_mut(idx) {
                h.connected = false;
                h.away_since = Some(Instant::now());
                h.left = true;
            }
            self.broadcast(Topic::Room);
            Ok(())
        } else if self.remove_spectator(conn_id) {
            self.broadcast(Topic::Room);
            Ok(())
        } else {
            Err(Refusal::new(
                ErrorCode::NotInRoom,
                "you are not in this room",
            ))
        }
    }

    fn detach(&mut self, conn_id: u64) {
        if let Some(idx) = self.seat_of(conn_id) {
            self.seat_conns[idx] = None;
            if let Some(h) = self.state.human_mut(idx) {
                h.connected = false;
                h.away_since = Some(Instant::now());
            }
            self.broadcast(Topic::Room);
        } else if self.remove_spectator(conn_id) {
            self.broadcast(Topic::Room);
        }
    }

    fn remove_spectator(&mut self, conn_id: u64) -> bool {
        let before = self.spectator_conns.len();
        self.spectator_conns.retain(|c| c.id != conn_id);
        self.spectator_names.remove(&conn_id);
        self.state.spectators = self.spectator_conns.len() as u32;
        self.spectator_conns.len() != before
    }

    fn seat_of(&self, conn_id: u64) -> Option<usize> {
        self.seat_conns
            .iter()
            .position(|c| c.as_ref().is_some_and(|c| c.id == conn_id))
    }

    /// Commands from a seat are numbered across all its connections: one that is not
    /// above the last is a duplicate (say, re-sent after a reconnect) and is not applied.
    /// The seat of `conn_id`, once its command `cmd` is checked as new: the start of
    /// every command only a seated player may give (`why` says so when it is not seated).
    fn seat_command(&mut self, conn_id: u64, cmd: u64, why: &str) -> Result<usize, Refusal> {
        let idx = self
            .seat_of(conn_id)
            .ok_or_else(|| Refusal::new(ErrorCode::NotSeated, why))?;
        self.check_seat_command(idx, cmd)?;
        Ok(idx)
    }

    fn check_seat_command(&mut self, idx: usize, cmd: u64) -> Result<(), Refusal> {
        let h = self
            .state
            .human_mut(idx)
            .ok_or_else(|| Refusal::new(ErrorCode::NotSeated, "this seat is not yours"))?;
        if cmd <= h.last_command {
            return Err(Refusal::new(
                ErrorCode::DuplicateCommand,
                format!(
                    "command {cmd} is not above this seat's last command {}; it was not applied",
                    h.last_command
                ),
            ));
        }
        h.last_command = cmd;
        Ok(())
    }

    // ---- chat, seats, history -------------------------------------------------------

    /// Adds a checked line to the room's chat and sends it to everyone who reads it.
    fn chat(&mut self, conn_id: u64, text: String) -> Result<(), Refusal> {
        let from = if let Some(idx) = self.seat_of(conn_id) {
            wire::ChatSender::Seat {
                seat: idx as u8,
                name: self.state.seat_name(idx),
            }
        } else if let Some(name) = self.spectator_names.get(&conn_id) {
            if !projection::reads_chat(&self.state, Viewer::Spectator) {
                return Err(Refusal::new(
                    ErrorCode::ChatNotAllowed,
                    "spectators do not chat in this room (its spectator_chat is off)",
                ));
            }
            wire::ChatSender::Spectator { name: name.clone() }
        } else {
            return Err(Refusal::new(
                ErrorCode::NotInRoom,
                "you are not in this room",
            ));
        };
        if self.state.chat.len() >= chat::KEEP {
            self.state.chat.pop_front();
        }
        self.state.chat.push_back(wire::ChatLine {
            from,
            text,
            at: chat::now_ms(),
        });
        self.broadcast(Topic::Chat);
        Ok(())
    }

    /// The host opens a bot's seat or puts a bot in an open seat, before the start.
    async fn set_seat(
        &mut self,
        conn_id: u64,
        cmd: u64,
        seat: u8,
        occupant: wire::SeatSetting,
    ) -> Result<(), Refusal> {
        let idx = self
            .seat_of(conn_id)
            .filter(|i| self.state.host == Some(*i as u8))
            .ok_or_else(|| {
                Refusal::new(
                    ErrorCode::NotHost,
                    "only the room's host (the player who created it) changes seats",
                )
            })?;
        self.check_seat_command(idx, cmd)?;
        if self.state.status != wire::RoomStatus::Lobby {
            return Err(Refusal::new(
                ErrorCode::GameAlreadyStarted,
                "seats change only before the game starts",
            ));
        }
        let n = self.state.seats.len();
        let target = seat as usize;
        match self.state.seats.get(target) {
            None => {
                return Err(Refusal::new(
                    ErrorCode::SeatUnavailable,
                    format!("no seat {seat}: this room has seats 0 to {}", n - 1),
                ));
            }
            Some(Seat::Human(_)) => {
                return Err(Refusal::new(
                    ErrorCode::SeatUnavailable,
                    format!("seat {seat} is a player's: only open and bot seats change"),
                ));
            }
            Some(_) => {}
        }
        let new = match &occupant {
            wire::SeatSetting::Open {} => Seat::Open,
            wire::SeatSetting::Bot { bot } => {
                from_wire::known_bot(bot)?;
                Seat::Bot { bot: bot.clone() }
            }
        };
        // The host's own seat is a human's, so a seat for a human always remains; the
        // check keeps that true whatever changes later.
        let humans_left = self
            .state
            .seats
            .iter()
            .enumerate()
            .any(|(i, s)| !matches!(s, Seat::Bot { .. }) && i != target)
            || matches!(new, Seat::Open);
        if !humans_left {
            return Err(Refusal::new(
                ErrorCode::InvalidSettings,
                "at least one seat must stay open for a human",
            ));
        }
        let old = std::mem::replace(&mut self.state.seats[target], new);
        let old_setting = std::mem::replace(&mut self.state.settings.seats[target], occupant);
        if let Err(e) = self.log.room_saved(&self.state.record()).await {
            self.state.seats[target] = old;
            self.state.settings.seats[target] = old_setting;
            tracing::error!(room = %self.state.id, "a seat change could not be stored: {e}");
            return Err(Refusal::new(
                ErrorCode::Internal,
                "the seat change could not be stored; try again later",
            ));
        }
        self.broadcast(Topic::Room);
        Ok(())
    }

    /// A page of the game's events as the asking connection may see them.
    fn history(
        &self,
        conn_id: u64,
        cmd: u64,
        from: u64,
        to: Option<u64>,
    ) -> Result<ServerMessage, Refusal> {
        let viewer = if let Some(idx) = self.seat_of(conn_id) {
            Viewer::Player(PlayerId(idx as u8))
        } else if self.spectator_names.contains_key(&conn_id) {
            Viewer::Spectator
        } else {
            return Err(Refusal::new(
                ErrorCode::NotInRoom,
                "you are not in this room",
            ));
        };
        projection::history(&self.state, viewer, cmd, from, to)
            .ok_or_else(|| Refusal::new(ErrorCode::GameNotStarted, "the game has not started"))
    }

    /// A seated player offers the others a rematch in `room` once the game is over: the
    /// offer goes to every other member now and to whoever resumes or watches later.
    fn rematch(&mut self, conn_id: u64, cmd: u64, room: String) -> Result<(), Refusal> {
        let idx = self.seat_command(conn_id, cmd, "only a player may offer a rematch")?;
        if self.state.status != wire::RoomStatus::Finished {
            return Err(Refusal::new(
                ErrorCode::GameNotOver,
                "a rematch is offered once the game is over",
            ));
        }
        if room == self.state.id {
            return Err(Refusal::new(
                ErrorCode::GameAlreadyStarted,
                "a rematch is played in a new room",
            ));
        }
        tracing::info!(room = %self.state.id, seat = idx, rematch = %room, "rematch offered");
        self.state.rematch = Some((room, idx as u8));
        for (viewer, conn) in self.viewers() {
            if conn.id != conn_id {
                self.send_to(&conn, viewer, Topic::Rematch);
            }
        }
        Ok(())
    }

    // ---- the game ------------------------------------------------------------------

    async fn start(&mut self, conn_id: u64, cmd: u64) -> Result<(), Refusal> {
        let idx = self.seat_of(conn_id).ok_or_else(|| {
            Refusal::new(
                ErrorCode::NotSeated,
                "only a seated player may start the game",
            )
        })?;
        self.check_seat_command(idx, cmd)?;
        if self.state.status != wire::RoomStatus::Lobby {
            return Err(Refusal::new(
                ErrorCode::GameAlreadyStarted,
                "the game has already started",
            ));
        }
        if !self.state.all_seats_filled() {
            let open: Vec<String> = (0..self.state.seats.len())
                .filter(|i| matches!(self.state.seats[*i], Seat::Open))
                .map(|i| i.to_string())
                .collect();
            return Err(Refusal::new(
                ErrorCode::SeatsNotFilled,
                format!("seats {} are still open", open.join(", ")),
            ));
        }
        let seed = getrandom::u64()
            .map_err(|e| Refusal::new(ErrorCode::Internal, format!("no randomness: {e}")))?;
        let setup = self.state.setup.clone();
        let game = match catch_unwind(|| Game::new(&setup, seed)) {
            Ok(Ok(game)) => game,
            Ok(Err(e)) => return Err(Refusal::new(ErrorCode::InvalidSettings, e.to_string())),
            Err(_) => {
                self.fail("the engine failed to set up the game");
                return Err(broken());
            }
        };
        let digest = game.digest();
        // The log keeps the kingdom as drawn, not "random": a later release may draw
        // from a larger pool, and the stored game must replay to the same cards.
        let resolved = Setup {
            kingdom: Kingdom::Cards(game.kingdom().to_vec()),
            ..setup
        };
        let started = self.log.game_started(
            &self.state.id,
            &resolved,
            seed,
            digest,
            Some((idx as u8, cmd)),
        );
        if let Err(e) = started.await {
            self.log_failed(&e);
            return Err(broken());
        }
        for (i, seat) in self.state.seats.iter().enumerate() {
            if let Seat::Bot { bot } = seat {
                self.agents[i] = bot_agent(&self.config, bot, bot_seed(seed, i));
            }
        }
        self.state.game = Some(game);
        self.state.status = wire::RoomStatus::Playing;
        self.metrics.games_started.inc();
        tracing::info!(room = %self.state.id, "game started");
        self.broadcast(Topic::Room);
        self.publish().await;
        Ok(())
    }

    async fn reply_command(
        &mut self,
        conn_id: u64,
        cmd: u64,
        decision: u64,
        reply: &wire::Reply,
    ) -> Result<(), Refusal> {
        let idx = self.seat_command(conn_id, cmd, "only seated players answer decisions")?;
        let game =
            self.state.game.as_ref().ok_or_else(|| {
                Refusal::new(ErrorCode::GameNotStarted, "the game has not started")
            })?;
        let Some(req) = game.pending() else {
            return Err(Refusal::new(ErrorCode::GameOver, "the game is over"));
        };
        let pending = decision_id(game);
        // While another player's private question is pending, this seat sees the game
        // at the last public decision (`Game::visible`): its answer must not tell it
        // more, so it is the same whatever number it names.
        if game.pending_is_private() && req.player.idx() != idx {
            return Err(Refusal::new(
                ErrorCode::StaleDecision,
                format!("decision {decision} is not pending for you"),
            ));
        }
        if decision != pending {
            return Err(Refusal::new(
                ErrorCode::StaleDecision,
                format!(
                    "decision {decision} is not pending; decision {pending} is, for seat {}",
                    req.player
                ),
            ));
        }
        if req.player.idx() != idx {
            return Err(Refusal::new(
                ErrorCode::NotYourDecision,
                format!(
                    "decision {pending} is for seat {}, not for you (seat {idx})",
                    req.player
                ),
            ));
        }
        let reply = from_wire::reply(reply)?;
        self.apply_reply(PlayerId(idx as u8), reply, Some(cmd))
            .await
    }

    /// The one path of every accepted reply. The engine validates and applies it (on a
    /// refusal nothing changed); then the log records it and the room awaits the commit
    /// — durable storage before anyone learns the result; then the viewers are told.
    /// `command` is the player's command id (none when the server answers for the seat),
    /// stored with the reply so a re-sent command stays a duplicate after a restart.
    async fn apply_reply(
        &mut self,
        player: PlayerId,
        reply: Reply,
        command: Option<u64>,
    ) -> Result<(), Refusal> {
        let arrived = std::time::Instant::now();
        let Some(game) = self.state.game.as_mut() else {
            return Err(Refusal::new(
                ErrorCode::GameNotStarted,
                "the game has not started",
            ));
        };
        let index = game.replies().len() as u64;
        match catch_unwind(AssertUnwindSafe(|| game.answer(player, reply.clone()))) {
            Ok(Ok(())) => {}
            Ok(Err(invalid)) => return Err(invalid.into()),
            Err(_) => {
                self.fail("the engine failed while applying a reply");
                return Err(broken());
            }
        }
        let digest = game.digest();
        // The asking player moved on: their undo request no longer stands.
        self.end_undo(wire::UndoOutcome::Cancelled, None);
        let committed =
            self.log
                .reply_accepted(&self.state.id, index, player, &reply, digest, command);
        if let Err(e) = committed.await {
            self.log_failed(&e);
            return Err(broken());
        }
        self.metrics.replies.inc();
        self.publish().await;
        self.metrics
            .reply_broadcast
            .observe(arrived.elapsed().as_secs_f64());
        Ok(())
    }

    /// Sends every viewer what changed since the last publish: new events with the view
    /// after them, a new decision to its seat, and the result once the game is over.
    async fn publish(&mut self) {
        let now = Instant::now();
        let Some(game) = &self.state.game else {
            return;
        };
        let pending = game.pending().map(|r| (decision_id(game), r.player));
        let new_decision = pending.map(|p| p.0) != self.announced.map(|a| a.0);
        let over_now = game.is_over() && !self.over_announced;
        let scores = over_now.then(|| game.scores());
        if new_decision {
            self.announced = pending.map(|(id, _)| (id, now));
            self.state.decision_deadline = match (pending, self.state.settings.decision_seconds) {
                (Some((_, p)), Some(secs)) if self.state.human(p.idx()).is_some() => {
                    Some(now + Duration::from_secs(u64::from(secs)))
                }
                _ => None,
            };
        }
        // Stored before it is told, so a player who hears `game_over` finds the game in
        // the history (/api/games) at once. A failure here loses nothing: the end follows
        // from the stored replies, and a room reopened with its game over records it again.
        if let Some(scores) = &scores
            && let Err(e) = self.log.game_finished(&self.state.id, scores).await
        {
            tracing::error!(room = %self.state.id, "{e}");
        }
        // Each viewer gets the events it may now see and has not been sent, and its own
        // new decision: while a private question is pending, the others get nothing at
        // all (`projection::after_change`, `Game::visible`).
        for (viewer, conn) in self.viewers() {
            let sent = self.shown.get(viewer);
            for msg in projection::after_change(&self.state, viewer, sent, new_decision, now) {
                conn.send(&msg);
            }
            if over_now {
                self.send_to(&conn, viewer, Topic::GameOver);
            }
        }
        self.shown.catch_up(game);
        if scores.is_some() {
            self.over_announced = true;
            self.state.status = wire::RoomStatus::Finished;
            self.finished_at = Some(now);
            tracing::info!(room = %self.state.id, "game over");
            self.metrics.games_finished.inc();
            self.broadcast(Topic::Room);
        }
    }

    // ---- time: bots, deadlines, abandoned seats, closing ---------------------------

    fn controller(&self, seat: usize) -> Controller {
        match self.state.seats.get(seat) {
            Some(Seat::Bot { .. }) => Controller::Bot,
            Some(Seat::Human(h)) if h.bot_playing.is_some() => Controller::Bot,
            _ => Controller::Human,
        }
    }

    /// How long a bot waits before answering `req`: `--bot-delay` at a phase move, none
    /// at a private question. Nobody else sees a private question (`Game::visible`), but
    /// they would see the game pause for the delay — only when the bot was asked, that
    /// is, only when it held a Reaction, an Estate for Baron… — so the server, which
    /// controls that timing, never pauses there.
    fn bot_delay(&self, req: &dominion_engine::Request) -> Duration {
        if dominion_engine::game::is_public(req) {
            self.config.bot_delay
        } else {
            Duration::ZERO
        }
    }

    /// When a seat away since `away` (having `left` or not) is abandoned, per the room.
    fn abandoned_at(&self, away: Instant, left: bool) -> Option<Instant> {
        match &self.state.settings.abandoned {
            wire::AbandonPolicy::BotAfter { seconds, .. } => Some(if left {
                away
            } else {
                away + Duration::from_secs(u64::from(*seconds))
            }),
            wire::AbandonPolicy::Wait {} => None,
        }
    }

    fn next_wake(&self) -> Option<Instant> {
        let mut wake: Option<Instant> = None;
        let mut at = |t: Instant| wake = Some(wake.map_or(t, |w| w.min(t)));
        match self.state.status {
            wire::RoomStatus::Playing => {
                if let Some(since) = self.unattended_since {
                    at(since + self.config.abandon_after);
                }
                if let Some(u) = &self.undo {
                    at(u.deadline);
                }
                let pending = self.state.game.as_ref().and_then(|g| g.pending());
                if let (Some(req), Some((_, since))) = (pending, self.announced) {
                    if self.controller(req.player.idx()) == Controller::Bot {
                        at(since + self.bot_delay(req));
                    } else if let Some(deadline) = self.state.decision_deadline {
                        at(deadline);
                    }
                }
                for seat in &self.state.seats {
                    if let Seat::Human(h) = seat
                        && h.bot_playing.is_none()
                        && let Some(t) = h.away_since.and_then(|a| self.abandoned_at(a, h.left))
                    {
                        at(t);
                    }
                }
            }
            wire::RoomStatus::Lobby => {
                for seat in &self.state.seats {
                    if let Seat::Human(h) = seat
                        && let Some(t) = h.away_since.and_then(|a| self.abandoned_at(a, false))
                    {
                        at(t);
                    }
                }
                if let Some(since) = self.empty_since {
                    at(since + self.config.empty_room_ttl);
                }
            }
            wire::RoomStatus::Finished | wire::RoomStatus::Broken => {
                if let Some(t) = self.finished_at {
                    at(t + self.config.finished_room_ttl);
                }
            }
        }
        wake
    }

    async fn on_timer(&mut self, now: Instant) {
        match self.state.status {
            wire::RoomStatus::Playing => {
                if self.unattended_too_long(now) {
                    self.abandon().await;
                    return;
                }
                self.expire_undo(now);
                self.take_over_abandoned(now);
                self.answer_for_absent(now).await;
            }
            wire::RoomStatus::Lobby => self.free_abandoned(now).await,
            wire::RoomStatus::Finished | wire::RoomStatus::Broken => {}
        }
    }

    /// Hands seats abandoned long enough to the room's bot.
    fn take_over_abandoned(&mut self, now: Instant) {
        let bot_name = match &self.state.settings.abandoned {
            wire::AbandonPolicy::BotAfter { bot, .. } => {
                bot.clone().unwrap_or_else(|| FALLBACK_BOT.to_string())
            }
            wire::AbandonPolicy::Wait {} => return,
        };
        let mut changed = false;
        for i in 0..self.state.seats.len() {
            let due = match &self.state.seats[i] {
                Seat::Human(h) if h.bot_playing.is_none() => h
                    .away_since
                    .and_then(|away| self.abandoned_at(away, h.left))
                    .is_some_and(|t| t <= now),
                _ => false,
            };
            if !due {
                continue;
            }
            if let Some(h) = self.state.human_mut(i) {
                h.bot_playing = Some(bot_name.clone());
            }
            self.agents[i] = bot_agent(&self.config, &bot_name, i as u64);
            changed = true;
            tracing::info!(room = %self.state.id, seat = i, bot = %bot_name, "a bot takes over an abandoned seat");
        }
        if changed {
            self.broadcast(Topic::Room);
        }
    }

    /// Answers the pending decision when a bot plays its seat and its delay is over, or
    /// when a human's time is up.
    ///
    /// The bot decides on a blocking thread (`spawn_blocking`): the searching bot thinks
    /// for up to `--bot-think-ms`, which must not hold a runtime worker that other rooms
    /// and connections need. The game and the agent are moved there and back (the
    /// `Observation` borrows the game, and a `Game` is not `Clone`). Meanwhile this room
    /// handles nothing else, as while it awaits a durable commit: its messages wait in
    /// its channel, and every other room runs on.
    async fn answer_for_absent(&mut self, now: Instant) {
        let Some(game) = &self.state.game else {
            return;
        };
        let Some(req) = game.pending().cloned() else {
            return;
        };
        let Some((_, since)) = self.announced else {
            return;
        };
        let seat = req.player.idx();
        let by_bot = self.controller(seat) == Controller::Bot;
        let due = if by_bot {
            since + self.bot_delay(&req) <= now
        } else {
            self.state.decision_deadline.is_some_and(|d| d <= now)
        };
        if !due {
            return;
        }
        // A seat's own bot plays it; a human out of time gets a one-off fallback bot.
        let name = match (by_bot, &self.state.seats[seat]) {
            (true, Seat::Bot { bot }) => bot.clone(),
            (true, Seat::Human(h)) => h.bot_playing.clone().unwrap_or_default(),
            _ => FALLBACK_BOT.to_string(),
        };
        let agent = match if by_bot {
            self.agents[seat].take()
        } else {
            None
        } {
            Some(agent) => agent,
            None => match bot_agent(&self.config, &name, seat as u64)
                .or_else(|| bot_agent(&self.config, FALLBACK_BOT, seat as u64))
            {
                Some(agent) => agent,
                None => {
                    self.fail("no bot to answer for an absent seat");
                    return;
                }
            },
        };
        let Some(game) = self.state.game.take() else {
            return;
        };
        let player = req.player;
        let started = std::time::Instant::now();
        let thought = tokio::task::spawn_blocking(move || {
            let mut agent = agent;
            let reply = catch_unwind(AssertUnwindSafe(|| {
                agent.decide(&Observation::for_player(&game, player), &req)
            }));
            (game, agent, reply)
        })
        .await;
        let elapsed = started.elapsed();
        let (game, agent, reply) = match thought {
            Ok(back) => back,
            Err(e) => {
                // Only a runtime shutting down gets here (the decision itself runs under
                // catch_unwind); the game went with the thread.
                self.fail(&format!("a bot's thread was lost: {e}"));
                return;
            }
        };
        self.state.game = Some(game);
        if by_bot {
            self.agents[seat] = Some(agent);
        }
        self.metrics.bot_thought(&name, elapsed.as_secs_f64());
        tracing::debug!(room = %self.state.id, seat, bot = %name, think_us = elapsed.as_micros() as u64, "bot decided");
        let Ok(reply) = reply else {
            self.fail("a bot failed while deciding");
            return;
        };
        if !by_bot {
            tracing::info!(room = %self.state.id, seat, "decision time ran out: the server answers");
        }
        if let Err(refusal) = self.apply_reply(player, reply, None).await
            && self.state.status != wire::RoomStatus::Broken
        {
            self.fail(&format!("a bot's reply was refused: {}", refusal.message));
        }
    }

    /// Before the game, frees the seats of players away longer than the room allows.
    async fn free_abandoned(&mut self, now: Instant) {
        let mut changed = false;
        for i in 0..self.state.seats.len() {
            let due = match &self.state.seats[i] {
                Seat::Human(h) => h
                    .away_since
                    .and_then(|away| self.abandoned_at(away, false))
                    .is_some_and(|t| t <= now),
                _ => false,
            };
            if due {
                self.state.seats[i] = Seat::Open;
                changed = true;
            }
        }
        if changed {
            self.state.settle_host(None);
            self.save_room().await;
            self.broadcast(Topic::Room);
        }
    }

    fn note_presence(&mut self, now: Instant) {
        let players = self.seat_conns.iter().any(Option::is_some);
        if players || !self.spectator_conns.is_empty() {
            self.empty_since = None;
        } else if self.empty_since.is_none() {
            self.empty_since = Some(now);
        }
        if players {
            self.unattended_since = None;
        } else if self.unattended_since.is_none() {
            self.unattended_since = Some(now);
        }
    }

    /// Whether no player has been connected to this started game for `--abandon-after`.
    /// Spectators do not count: watching a game nobody plays must not keep it open.
    fn unattended_too_long(&self, now: Instant) -> bool {
        self.state.status == wire::RoomStatus::Playing
            && self
                .unattended_since
                .is_some_and(|t| t + self.config.abandon_after <= now)
    }

    /// Ends the game as abandoned: stored as such (history, never reopened), then the
    /// room closes, so it stops counting against `--max-rooms`. Spectators are told.
    async fn abandon(&mut self) {
        if let Err(e) = self.log.game_abandoned(&self.state.id).await {
            self.log_failed(&e);
            return;
        }
        self.metrics.games_abandoned.inc();
        tracing::info!(
            room = %self.state.id,
            after = ?self.config.abandon_after,
            "game abandoned: no player connected"
        );
        let msg = Refusal::new(
            ErrorCode::UnknownRoom,
            format!(
                "this room has closed: its game was abandoned after {} s without a player",
                self.config.abandon_after.as_secs()
            ),
        )
        .to_message(None);
        for (_, conn) in self.viewers() {
            conn.send(&msg);
        }
        self.closing = true;
    }

    fn expired(&self, now: Instant) -> bool {
        if self.closing {
            return true;
        }
        match self.state.status {
            wire::RoomStatus::Lobby => self
                .empty_since
                .is_some_and(|t| t + self.config.empty_room_ttl <= now),
            wire::RoomStatus::Playing => false,
            wire::RoomStatus::Finished | wire::RoomStatus::Broken => self
                .finished_at
                .is_some_and(|t| t + self.config.finished_room_ttl <= now),
        }
    }

    // ---- output --------------------------------------------------------------------

    fn viewers(&self) -> Vec<(Viewer, ConnHandle)> {
        let seats = self.seat_conns.iter().enumerate().filter_map(|(i, c)| {
            c.as_ref()
                .map(|c| (Viewer::Player(PlayerId(i as u8)), c.clone()))
        });
        let spectators = self
            .spectator_conns
            .iter()
            .map(|c| (Viewer::Spectator, c.clone()));
        seats.chain(spectators).collect()
    }

    /// Sends `viewer` its projection of `topic`, if there is one.
    fn send_to(&self, conn: &ConnHandle, viewer: Viewer, topic: Topic) {
        if let Some(msg) = projection::project(&self.state, viewer, topic) {
            conn.send(&msg);
        }
    }

    fn broadcast(&self, topic: Topic) {
        if matches!(topic, Topic::Room) {
            self.summary_tx
                .send_replace(projection::summary(&self.state));
        }
        for (viewer, conn) in self.viewers() {
            self.send_to(&conn, viewer, topic);
        }
    }

    async fn save_room(&mut self) {
        if let Err(e) = self.log.room_saved(&self.state.record()).await {
            self.log_failed(&e);
        }
    }

    /// Stops running the room here; its game goes on at another node. Nothing is written:
    /// the game's log is already complete up to the last acknowledged reply.
    fn evict(&mut self) {
        for (_, conn) in self.viewers() {
            conn.close(CloseCode::ServiceRestart, MOVED);
        }
        self.evicted = true;
        self.closing = true;
    }

    /// A durable step failed: the room stops. If it failed because another node owns the
    /// room now (fenced), the room is evicted — its game goes on there; otherwise it is
    /// broken.
    fn log_failed(&mut self, e: &LogError) {
        match e {
            LogError::Fenced { .. } => {
                tracing::warn!(room = %self.state.id, "another node owns this room now; stopping here");
                self.evict();
            }
            LogError::Failed(_) => self.fail(&e.to_string()),
        }
    }

    /// Stops the room after an internal failure: its game cannot be trusted any more.
    fn fail(&mut self, why: &str) {
        tracing::error!(room = %self.state.id, "room broken: {why}");
        self.state.status = wire::RoomStatus::Broken;
        self.finished_at = Some(Instant::now());
        let msg = broken().to_message(None);
        for (_, conn) in self.viewers() {
            conn.send(&msg);
        }
        self.broadcast(Topic::Room);
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
