//! Room unit tests without sockets (issue 22).
//!
//! Each test drives a real room task (`room::spawn`) through its channel, as a
//! connection would, with [`ConnHandle`]s that no socket reads: the frames the room
//! queues for a connection are drained from its queue and read back as
//! [`ServerMessage`]s. The room writes to a [`MemoryLog`], so a test asserts exactly what
//! was stored, and can make the log fail or hold a commit. Time is tokio's paused clock
//! (`start_paused`): a test moves it with [`Harness::pass`] (`tokio::time::advance`), so
//! bot delays, decision deadlines, `--abandon-after` and the lobby timers take no time.
//!
//! How a test knows the room is done with what it was sent: the room handles its
//! messages one at a time, in order, so after sending anything the harness sends a
//! `history` command from a connection that is in no room ([`Harness::settle`]) and
//! waits for the refusal: everything sent before has been handled by then. The room's
//! `select!` may pick a due timer or a waiting message first, so after moving the clock
//! the harness settles twice (the second probe is sent only once the room has looked at
//! its timers again).
//!
//! Everything these tests use from the server is imported here, in one place: only the
//! room's external surface (`room::spawn`, `RoomMsg`, `Join`, `Command`, `Role`,
//! `RoomHandle`, `Context`), `ConnHandle`, the `RoomLog` trait, `Config`, `Metrics`, the
//! per-address counts a room may hold a place in (`budget`), the chat budgets of
//! addresses (`chat::Addresses`) and the bot `Thinkers` (both part of a room's `Context`).

mod abandonment;
mod chat;
mod hints;
mod joining;
mod lobby_timeout;
mod log_failure;
mod refusals;
mod rematch;
mod removal;
mod replies;
mod searching_bots;
mod thinking;
mod timers;
mod undo;

pub(crate) use crate::budget::{AddressCounts, Claim, address_key};
pub(crate) use crate::config::Config;
pub(crate) use crate::gamelog::memory::{MemoryLog, Step, StepKind};
pub(crate) use crate::gamelog::{LogError, SeatRecord};
pub(crate) use crate::metrics::Metrics;
pub(crate) use crate::rooms::chat::Addresses as ChatAddresses;
pub(crate) use crate::rooms::outbox::{ConnHandle, Kill, OutFrame, Queued};
pub(crate) use crate::rooms::room::{self, Command, Context, Join, Role, RoomHandle, RoomMsg};
pub(crate) use crate::rooms::thinkers::Thinkers;
pub(crate) use dominion_engine::{PlayerId, Reply};
pub(crate) use dominion_protocol as wire;
pub(crate) use dominion_protocol::{CloseCode, DecisionRequest, ErrorCode, ServerMessage};
pub(crate) use std::time::Duration;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use tokio::sync::{mpsc, oneshot};

/// A kingdom without Attacks or Reactions: nobody is asked anything on another's turn,
/// so every decision is a phase move or a question of the player whose turn it is.
pub const KINGDOM: [&str; 10] = [
    "cellar",
    "festival",
    "laboratory",
    "market",
    "merchant",
    "mine",
    "remodel",
    "smithy",
    "village",
    "workshop",
];

/// Room settings with these seats (true: open for a human; false: a `big_money` bot).
pub fn settings(open: &[bool]) -> wire::RoomSettings {
    wire::RoomSettings {
        name: None,
        kingdom: wire::KingdomChoice::Cards {
            cards: KINGDOM.iter().map(|c| c.to_string()).collect(),
        },
        edition: wire::Edition::Second,
        seats: open
            .iter()
            .map(|&o| {
                if o {
                    wire::SeatSetting::Open {}
                } else {
                    wire::SeatSetting::Bot {
                        bot: "big_money".into(),
                    }
                }
            })
            .collect(),
        decision_seconds: None,
        abandoned: wire::AbandonPolicy::default(),
        spectator_chat: false,
        rated: false,
    }
}

/// The server's defaults, with the timings these tests rely on written out.
pub fn config() -> Config {
    Config {
        bot_delay: Duration::from_millis(300),
        abandon_after: Duration::from_secs(3600),
        empty_room_ttl: Duration::from_secs(300),
        finished_room_ttl: Duration::from_secs(600),
        max_spectators: 50,
        resume_gap: 500,
        ..Config::default()
    }
}

/// The id of the connection that creates every test room (its seat is the host's).
pub const CREATOR: u64 = 1;
/// The connection that only ever asks for history, to learn the room has caught up.
const PROBE: u64 = 999_999;

/// One room under test, its log and its metrics.
pub struct Harness {
    pub id: String,
    pub handle: RoomHandle,
    pub log: Arc<MemoryLog>,
    pub metrics: Arc<Metrics>,
    /// The room's bot thinkers (a test may hold one).
    pub thinkers: Arc<Thinkers>,
    /// Set when the room task ends (its `on_close` ran).
    ended: Arc<AtomicBool>,
    probe: Client,
    next_conn: u64,
}

impl Harness {
    /// Creates and stores a room, as `create_room` does.
    pub async fn new(settings: wire::RoomSettings) -> Harness {
        Harness::with(settings, config(), Arc::new(MemoryLog::new())).await
    }

    pub async fn with(
        settings: wire::RoomSettings,
        config: Config,
        log: Arc<MemoryLog>,
    ) -> Harness {
        Harness::with_claim(settings, config, log, None).await
    }

    /// As [`Harness::with`], the room holding `search_claim` (its place among its
    /// creator address's rooms with searching bots), as the hub gives it.
    pub async fn with_claim(
        settings: wire::RoomSettings,
        config: Config,
        log: Arc<MemoryLog>,
        search_claim: Option<Claim>,
    ) -> Harness {
        let plan = crate::convert::from_wire::room_plan(&settings).expect("valid settings");
        let metrics = Arc::new(Metrics::new());
        // One thinker unless the test says otherwise (`--bot-threads`).
        let threads = config.bot_threads.map_or(1, usize::from);
        let thinkers = Thinkers::new(threads, metrics.clone());
        let cx = Context {
            chat: Arc::new(ChatAddresses::new(config.chat_per_address)),
            config: Arc::new(config),
            log: log.clone(),
            metrics: metrics.clone(),
            search_claim,
            thinkers: thinkers.clone(),
        };
        let ended = Arc::new(AtomicBool::new(false));
        let flag = ended.clone();
        let id = "r1".to_string();
        let (handle, stored) = room::spawn(id.clone(), plan, Some(CREATOR), cx, move |_, _| {
            flag.store(true, Ordering::SeqCst)
        });
        stored
            .await
            .expect("the room answers")
            .expect("the room is stored");
        Harness {
            id,
            handle,
            log,
            metrics,
            thinkers,
            ended,
            probe: Client::new(PROBE, "probe"),
            next_conn: CREATOR,
        }
    }

    /// A new connection (the first one is the room's creator).
    pub fn client(&mut self, name: &str) -> Client {
        let c = Client::new(self.next_conn, name);
        self.next_conn += 1;
        c
    }

    /// Whether the room task has ended.
    pub fn ended(&self) -> bool {
        self.ended.load(Ordering::SeqCst) && self.handle.tx.is_closed()
    }

    /// The room as everyone sees it now.
    pub fn summary(&self) -> wire::RoomSummary {
        self.handle.summary.borrow().clone()
    }

    /// Waits until the room has handled everything sent to it before.
    pub async fn settle(&self) {
        let msg = RoomMsg::Command {
            conn: self.probe.conn.clone(),
            cmd: 1,
            command: Command::History { from: 0, to: None },
        };
        if self.handle.tx.send(msg).await.is_err() {
            return; // the room has ended: nothing more will happen in it
        }
        let mut rx = self.probe.rx.lock().await;
        // The room may end before it reads the probe (evicted, abandoned): then it is
        // done too.
        let answer = tokio::select! {
            answer = rx.recv() => answer,
            () = self.handle.tx.closed() => return,
            () = tokio::time::sleep(Duration::from_secs(86_400)) => {
                panic!("the room does not answer")
            }
        };
        if let Some(OutFrame::Text(t)) = &answer {
            self.probe.queued.taken(t.len());
        }
    }

    /// Lets `d` pass on the paused clock, then waits until the room has acted on it.
    pub async fn pass(&self, d: Duration) {
        tokio::time::advance(d).await;
        for _ in 0..8 {
            tokio::task::yield_now().await;
        }
        self.settle().await;
        self.settle().await;
    }

    async fn join(&self, c: &mut Client, join: Join) -> Option<Role> {
        let cmd = c.next_cmd();
        let (done, role) = oneshot::channel();
        let msg = RoomMsg::Join {
            conn: c.conn.clone(),
            cmd,
            join,
            from: c.from,
            done,
        };
        self.handle.tx.send(msg).await.ok()?;
        let role = role.await.ok().flatten();
        c.drain();
        if let Some(Role::Seat(s)) = role {
            c.seat = Some(s);
        }
        role
    }

    pub async fn take_seat(&self, c: &mut Client, seat: Option<u8>) -> Option<Role> {
        let name = c.name.clone();
        self.join(
            c,
            Join::TakeSeat {
                seat,
                name,
                account: None,
                levels: Default::default(),
            },
        )
        .await
    }

    pub async fn resume(
        &self,
        c: &mut Client,
        token: &str,
        last_event: Option<u64>,
    ) -> Option<Role> {
        let join = Join::Resume {
            token: token.to_string(),
            last_event,
            levels: None,
        };
        self.join(c, join).await
    }

    pub async fn spectate(&self, c: &mut Client) -> Option<Role> {
        let name = c.name.clone();
        self.join(c, Join::Spectate { name }).await
    }

    /// Sends a command with the client's next id and waits until the room handled it;
    /// returns that id.
    pub async fn send(&self, c: &mut Client, command: Command) -> u64 {
        let cmd = c.next_cmd();
        self.send_as(c, cmd, command).await;
        cmd
    }

    /// Sends a command with the id `cmd` and waits until the room handled it.
    pub async fn send_as(&self, c: &mut Client, cmd: u64, command: Command) {
        if matches!(command, Command::Reply { .. }) {
            c.pending = None;
        }
        let msg = RoomMsg::Command {
            conn: c.conn.clone(),
            cmd,
            command,
        };
        if self.handle.tx.send(msg).await.is_ok() {
            self.settle().await;
        }
        c.drain();
    }

    /// Sends a command and returns the room's answer to it (`ack`, `error`, `history` or
    /// `chat_history`), leaving the other frames for the test to read.
    pub async fn ask(&self, c: &mut Client, command: Command) -> ServerMessage {
        let cmd = self.send(c, command).await;
        c.answer(cmd)
            .unwrap_or_else(|| panic!("no answer to command {cmd}: {:?}", c.frames))
    }

    /// Answers `decision` with `reply` and returns the room's answer.
    pub async fn reply(&self, c: &mut Client, decision: u64, reply: wire::Reply) -> ServerMessage {
        self.ask(c, Command::Reply { decision, reply }).await
    }

    /// The connection closed.
    pub async fn detach(&self, c: &Client) {
        let _ = self
            .handle
            .tx
            .send(RoomMsg::Detach { conn_id: c.conn.id })
            .await;
        self.settle().await;
    }

    /// Starts the game from `c`, which must be seated; panics unless it is acknowledged.
    pub async fn start(&self, c: &mut Client) {
        let answer = self.ask(c, Command::Start).await;
        assert!(
            matches!(answer, ServerMessage::Ack { .. }),
            "start refused: {answer:?}"
        );
    }

    /// Answers `c`'s decisions the lazy way (ending each phase, buying nothing) until
    /// the game waits for someone else.
    pub async fn pass_turn(&self, c: &mut Client) {
        for _ in 0..20 {
            let Some(d) = c.pending.clone() else {
                return;
            };
            let answer = self.reply(c, d.decision, lazy_reply(&d)).await;
            assert!(
                matches!(answer, ServerMessage::Ack { .. }),
                "{answer:?} to {d:?}"
            );
        }
        panic!("{} is still asked after 20 replies", c.name);
    }

    /// Lets the bots play (in steps of the bot delay) until `c` has a decision pending.
    pub async fn until_asked(&self, c: &mut Client) -> DecisionRequest {
        for _ in 0..200 {
            c.drain();
            if let Some(d) = &c.pending {
                return d.clone();
            }
            self.pass(Duration::from_millis(300)).await;
        }
        panic!("{} is never asked: {:?}", c.name, c.frames);
    }

    /// Plays `c` to the start of its Buy phase with Treasures in hand, then plays them:
    /// returns (the Buy phase decision answered, the decision after it).
    pub async fn play_treasures(&self, c: &mut Client) -> (DecisionRequest, DecisionRequest) {
        let mut first = self.until_asked(c).await;
        if first.purpose == wire::Purpose::ActionPhase {
            let ack = self.reply(c, first.decision, end_phase()).await;
            assert!(matches!(ack, ServerMessage::Ack { .. }), "{ack:?}");
            first = c.pending.clone().expect("the Buy phase follows");
        }
        assert_eq!(first.purpose, wire::Purpose::BuyPhase, "{first:?}");
        let ack = self
            .reply(c, first.decision, wire::Reply::PlayAllTreasures {})
            .await;
        assert!(matches!(ack, ServerMessage::Ack { .. }), "{ack:?}");
        let next = c.pending.clone().expect("still the Buy phase");
        assert_ne!(next.decision, first.decision);
        (first, next)
    }
}

/// One connection that no socket reads: the test drains its queue.
pub struct Client {
    pub name: String,
    pub conn: ConnHandle,
    /// What the room queued for this connection (what its writer task would send). In a
    /// mutex only so that [`Harness::settle`] can await the probe's answer through `&self`.
    rx: tokio::sync::Mutex<mpsc::Receiver<OutFrame>>,
    kill: Arc<Kill>,
    queued: Arc<Queued>,
    /// Every frame received so far, in order.
    pub frames: Vec<ServerMessage>,
    /// How many of `frames` [`Client::take`] has returned.
    read: usize,
    cmd: u64,
    pub seat: Option<u8>,
    /// The client address its joins carry (none unless a test sets one).
    pub from: Option<std::net::IpAddr>,
    /// The last decision sent to this client and not answered since.
    pub pending: Option<DecisionRequest>,
    /// The number of the next event this client expects (from `events` and `snapshot`).
    pub next_event: u64,
}

impl Client {
    fn new(id: u64, name: &str) -> Client {
        let (tx, rx) = mpsc::channel(1024);
        let kill = Arc::new(Kill::default());
        let queued = Arc::new(Queued::new(64 << 20));
        Client {
            name: name.to_string(),
            conn: ConnHandle::new(id, tx, kill.clone(), queued.clone()),
            rx: tokio::sync::Mutex::new(rx),
            kill,
            queued,
            frames: Vec::new(),
            read: 0,
            cmd: 0,
            seat: None,
            from: None,
            pending: None,
            next_event: 0,
        }
    }

    pub fn next_cmd(&mut self) -> u64 {
        self.cmd += 1;
        self.cmd
    }

    /// Numbers the next commands above `last` (as a client does after `seated`).
    pub fn number_from(&mut self, last: u64) {
        self.cmd = self.cmd.max(last);
    }

    /// Moves what the room queued for this connection into `frames`.
    pub fn drain(&mut self) {
        let rx = self.rx.get_mut();
        while let Ok(frame) = rx.try_recv() {
            match frame {
                OutFrame::Text(text) => {
                    self.queued.taken(text.len());
                    let msg: ServerMessage = serde_json::from_str(&text)
                        .unwrap_or_else(|e| panic!("not a server message ({e}): {text}"));
                    match &msg {
                        ServerMessage::Decision(d) => self.pending = Some(d.clone()),
                        ServerMessage::Events { first, events, .. } => {
                            self.next_event = first + events.len() as u64;
                        }
                        ServerMessage::Snapshot { next_event, .. } => {
                            self.next_event = *next_event;
                        }
                        _ => {}
                    }
                    self.frames.push(msg);
                }
                OutFrame::Close(code, why) => {
                    panic!("rooms do not queue close frames: {code:?} {why}")
                }
            }
        }
    }

    /// The frames received since the last call.
    pub fn take(&mut self) -> Vec<ServerMessage> {
        self.drain();
        let new = self.frames[self.read..].to_vec();
        self.read = self.frames.len();
        new
    }

    /// The answer to command `cmd`, if it came.
    pub fn answer(&mut self, cmd: u64) -> Option<ServerMessage> {
        self.drain();
        self.frames
            .iter()
            .rev()
            .find(|m| match m {
                ServerMessage::Ack { re }
                | ServerMessage::History { re, .. }
                | ServerMessage::ChatHistory { re, .. } => *re == cmd,
                ServerMessage::Error { re, .. } => *re == Some(cmd),
                _ => false,
            })
            .cloned()
    }

    /// The token from the last `seated`.
    pub fn token(&self) -> String {
        self.frames
            .iter()
            .rev()
            .find_map(|m| match m {
                ServerMessage::Seated { token, .. } => Some(token.clone()),
                _ => None,
            })
            .expect("seated")
    }

    /// How the room closed this connection, if it did.
    pub fn closed(&self) -> Option<CloseCode> {
        if !self.kill.is_fired() {
            return None;
        }
        let fired = self.kill.fired();
        futures_util::FutureExt::now_or_never(fired).map(|(code, _)| code)
    }
}

/// The kinds of frames, in order: `"seated"`, `"room"`, `"events"`…
pub fn kinds(frames: &[ServerMessage]) -> Vec<String> {
    frames
        .iter()
        .map(|m| {
            serde_json::to_value(m).expect("serializable")["type"]
                .as_str()
                .expect("tagged")
                .to_string()
        })
        .collect()
}

/// The error code and message of a refusal; panics on anything else.
pub fn refusal(msg: &ServerMessage) -> (ErrorCode, String) {
    match msg {
        ServerMessage::Error { code, message, .. } => (*code, message.clone()),
        other => panic!("not a refusal: {other:?}"),
    }
}

pub fn is_ack(msg: &ServerMessage) -> bool {
    matches!(msg, ServerMessage::Ack { .. })
}

pub fn end_phase() -> wire::Reply {
    wire::Reply::EndPhase {}
}

/// A legal answer that changes as little as possible: end the phase, choose the fewest.
pub fn lazy_reply(d: &DecisionRequest) -> wire::Reply {
    match &d.prompt {
        wire::Prompt::ActionPhase { .. } | wire::Prompt::BuyPhase { .. } => end_phase(),
        wire::Prompt::ChooseCards { options, min, .. } => wire::Reply::Cards {
            cards: options[..*min as usize].to_vec(),
        },
        wire::Prompt::ChoosePile { options, optional } => wire::Reply::Pile {
            card: (!optional).then(|| options[0].clone()),
        },
        wire::Prompt::ChooseModes { options, min, .. } => wire::Reply::Modes {
            modes: options[..*min as usize].to_vec(),
        },
        wire::Prompt::OrderCards { cards } => wire::Reply::Cards {
            cards: cards.clone(),
        },
        wire::Prompt::YesNo => wire::Reply::YesNo { yes: false },
        wire::Prompt::NameCard { options } => wire::Reply::Name {
            card: options[0].clone(),
        },
        wire::Prompt::ChooseNumber { min, .. } => wire::Reply::Number { number: *min },
    }
}

/// Ann, seated against a bot, the game started (a room of `settings(&[true, false])`).
pub async fn one_player_against_a_bot(h: &mut Harness) -> Client {
    let mut ann = h.client("Ann");
    h.take_seat(&mut ann, None).await.expect("seated");
    h.start(&mut ann).await;
    ann
}

/// Two humans in a started game: (the one asked first, the other).
pub async fn two_players_started(h: &mut Harness) -> (Client, Client) {
    let mut ann = h.client("Ann");
    let mut bob = h.client("Bob");
    assert_eq!(h.take_seat(&mut ann, None).await, Some(Role::Seat(0)));
    assert_eq!(h.take_seat(&mut bob, None).await, Some(Role::Seat(1)));
    h.start(&mut ann).await;
    bob.drain();
    match (ann.pending.is_some(), bob.pending.is_some()) {
        (true, false) => (ann, bob),
        (false, true) => (bob, ann),
        other => panic!("exactly one player is asked first: {other:?}"),
    }
}
