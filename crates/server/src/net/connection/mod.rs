//! One WebSocket connection: the handshake, the limits, and the routing of commands to
//! the hub or to the connection's room.
//!
//! Reading and writing are separate tasks joined by the connection's bounded queue
//! (`rooms::outbox`), so a client that stops reading blocks only its own writer
//! (`write`); the room that fills the queue drops it (4003) instead of waiting.
//!
//! Nothing reaches a room before it passed every check, in this order: the message
//! budget (1008), the size (1009), the JSON shape (`bad_message`), the handshake
//! (`hello` first, within `--handshake-timeout`, else 4001), the command id (increasing
//! per connection, else `duplicate_command`). Chat lines are checked here too
//! (`rooms::chat::check`, and a `Budget` of `chat::MESSAGES` lines per `chat::WINDOW`),
//! as are spectators' names. Then `commands` hands the command to the hub (list,
//! create) or, as a `RoomMsg`, to its room's channel; a room another node runs gets the
//! frame as it came, on the link of `net::forward`. The room converts what it is sent
//! (`convert::from_wire`) and checks it against its game: this layer holds no game
//! state.
//!
//! **Accounts.** A connection may be signed in (`crate::accounts`): by the session cookie
//! of its upgrade request (`net::http` looks it up before the upgrade), by an API token
//! in `hello` (which wins), or, for a link from another node, by the account that node
//! vouches for. `welcome` then names the account; `take_seat` sits down under the
//! account's name and links the seat to the account in the store; the connection is
//! registered with `accounts::live`, which closes it (4005) when its session or token
//! ends or its account is banned. A guest's `take_seat` under a registered name (folded)
//! is refused `name_taken`.
//!
//! Closing never holds a connection (and its place in `--max-connections`) longer than
//! needed: a client that closed first is answered and let go at once, a forwarding link
//! is dropped first thing, and when the server closes it waits for the client's answer
//! at most `CLOSE_LINGER`.

mod automatch;
mod commands;
mod invite;
mod write;

use write::write_loop;

use crate::accounts::live::{Blocked, LiveGuard};
use crate::accounts::{Accounts, SignedIn};
use crate::budget::{AddressKey, Budget, address_key};
use crate::convert::refusal::Refusal;
use crate::gamelog::SeatAccount;
use crate::metrics::Metrics;
use crate::net::automatch::Automatch;
use crate::net::forward::{self, Reached};
use crate::rooms::chat;
use crate::rooms::hub::{Admission, Hub, ROOM_WINDOW};
use crate::rooms::outbox::{ConnHandle, Kill, OutFrame, Queued};
use crate::rooms::room::{Command, Join, Role, RoomHandle, RoomMsg};
use crate::rooms::state::SeatLevels;
use axum::extract::ws::{CloseFrame, Message, WebSocket};
use dominion_protocol::{
    self as wire, ClientMessage, CloseCode, ErrorCode, Limits, PROTOCOL_VERSION,
    SUPPORTED_VERSIONS, ServerMessage,
};
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use tokio::time::{Instant, sleep_until, timeout};

/// The longest a closing connection waits for the client's half of the close handshake
/// (closing without it can reset the TCP connection and lose the close frame). Only a
/// bound for a client that never answers: a handshake that completes ends the
/// connection at once, and a client that closed first is not waited for at all.
const CLOSE_LINGER: Duration = Duration::from_secs(2);

/// Serves one upgraded socket until it closes; `peer` is the client's address, when
/// known (a trusted proxy's client, or the client a node of the cluster forwards), for
/// the per-address limits and the logs; `signed_in` the account its upgrade signed it in
/// as (a session cookie, or a cluster link's account), if any.
pub async fn run(
    socket: WebSocket,
    admission: Admission,
    peer: Option<IpAddr>,
    accounts: Arc<Accounts>,
    signed_in: Option<SignedIn>,
    automatch: Arc<Automatch>,
) {
    let hub = admission.hub.clone();
    let config = hub.config.clone();
    let (sink, mut stream) = socket.split();
    let (tx, rx) = mpsc::channel(config.outbound_queue.max(1));
    let kill = Arc::new(Kill::default());
    let queued = Arc::new(Queued::new(config.outbound_bytes.max(1)));
    let handle = ConnHandle::new(admission.id, tx.clone(), kill.clone(), queued.clone());
    let blocked = Arc::new(Blocked::default());
    let writer = tokio::spawn(write_loop(
        sink,
        rx,
        queued,
        hub.metrics.clone(),
        config.heartbeat,
        blocked.clone(),
    ));
    let mut conn = Connection {
        hub,
        handle,
        tx,
        greeted: false,
        protocol: PROTOCOL_VERSION,
        last_id: 0,
        room: None,
        upstream: None,
        budget: Budget::new(config.rate_messages, config.rate_window, Instant::now()),
        room_budget: Budget::new(config.rooms_per_connection, ROOM_WINDOW, Instant::now()),
        peer,
        peer_key: peer.map(address_key),
        accounts,
        signed_in,
        live: None,
        blocked,
        automatch,
    };
    let client = peer.map(|ip| ip.to_string()).unwrap_or_default();
    tracing::debug!(conn = admission.id, %client, "connected");
    let ending = conn.read_loop(&mut stream, &kill).await;
    tracing::debug!(conn = admission.id, ?ending, "disconnecting");
    conn.finish(ending, stream, writer).await;
    drop(admission);
}

/// Why the read loop stopped.
#[derive(Debug)]
enum Ending {
    /// The client closed or the socket failed.
    ClientGone,
    /// We close, with this code.
    Close(CloseCode, String),
    /// Something else closed us (a full queue, a newer connection for the seat).
    Killed(CloseCode, String),
}

enum Flow {
    Continue,
    Stop(Ending),
}

struct Attached {
    room: String,
    tx: mpsc::Sender<RoomMsg>,
    role: Role,
}

struct Connection {
    hub: Arc<Hub>,
    handle: ConnHandle,
    /// The sending side of our own queue, for the close frame.
    tx: mpsc::Sender<OutFrame>,
    greeted: bool,
    /// The protocol version the client's hello named.
    protocol: u32,
    /// The last command id received on this connection.
    last_id: u64,
    room: Option<Attached>,
    /// The link to the node running this connection's room, when another node runs it:
    /// the client's frames go on to it as they are.
    upstream: Option<forward::Upstream>,
    budget: Budget,
    /// Rooms this connection may still create (`--rooms-per-connection` a minute).
    room_budget: Budget,
    peer: Option<IpAddr>,
    /// What the per-address limits count this connection under (an IPv6 peer: its /64).
    peer_key: Option<AddressKey>,
    accounts: Arc<Accounts>,
    /// The account this connection is signed in as, if any.
    signed_in: Option<SignedIn>,
    /// Keeps it among its account's live connections (closed when the session ends).
    live: Option<LiveGuard>,
    /// Whose chat lines the writer leaves out (the account's blocks).
    blocked: Arc<Blocked>,
    /// The node's automatch queue (`net::automatch`).
    automatch: Arc<Automatch>,
}

impl Connection {
    async fn read_loop(&mut self, stream: &mut SplitStream<WebSocket>, kill: &Kill) -> Ending {
        let config = self.hub.config.clone();
        let mut shutdown = self.hub.shutdown_signal();
        let started = Instant::now();
        let mut last_heard = started;
        loop {
            let idle_at = if self.greeted {
                last_heard + config.idle_timeout
            } else {
                started + config.handshake_timeout
            };
            let frame = tokio::select! {
                (code, reason) = kill.fired() => return Ending::Killed(code, reason),
                _ = shutdown.wait_for(|down| *down) => {
                    return Ending::Close(CloseCode::ServiceRestart, "the server is restarting; resume with your token".into());
                }
                () = sleep_until(idle_at) => {
                    if self.greeted {
                        return Ending::Close(CloseCode::IdleTimeout, "nothing received within the idle timeout".into());
                    }
                    // As docs/protocol.md says: the error first, so a client that is
                    // slow to speak learns why it is closed.
                    self.refuse(None, Refusal::new(
                        ErrorCode::HandshakeRequired,
                        format!("no hello within {} s of connecting", config.handshake_timeout.as_secs_f64()),
                    ));
                    return Ending::Close(CloseCode::HandshakeRequired, "no hello within the handshake timeout".into());
                }
                frame = stream.next() => frame,
            };
            let now = Instant::now();
            let msg = match frame {
                None => return Ending::ClientGone,
                Some(Ok(msg)) => msg,
                Some(Err(e)) => {
                    return match read_error(e) {
                        ReadError::TooBig(size) => {
                            self.send(&too_big(size, config.max_message_bytes));
                            too_big_close()
                        }
                        ReadError::NotUtf8 => {
                            self.refuse(
                                None,
                                Refusal::new(
                                    ErrorCode::BadMessage,
                                    "a text frame that is not valid UTF-8",
                                ),
                            );
                            Ending::Close(CloseCode::InvalidPayload, "invalid UTF-8".into())
                        }
                        ReadError::Gone => Ending::ClientGone,
                    };
                }
            };
            last_heard = now;
            if let Message::Close(_) = msg {
                return Ending::ClientGone;
            }
            if !self.budget.take(now) {
                self.send(&ServerMessage::Error {
                    re: None,
                    code: ErrorCode::RateLimited,
                    message: format!(
                        "more than {} messages in {:?}",
                        config.rate_messages, config.rate_window
                    ),
                });
                return Ending::Close(CloseCode::PolicyViolation, "message budget exceeded".into());
            }
            let flow = match msg {
                Message::Text(text) => {
                    if text.len() > config.max_message_bytes {
                        self.send(&too_big(Some(text.len()), config.max_message_bytes));
                        return too_big_close();
                    }
                    self.on_text(text.as_str()).await
                }
                Message::Binary(bytes) => {
                    if bytes.len() > config.max_message_bytes {
                        self.send(&too_big(Some(bytes.len()), config.max_message_bytes));
                        return too_big_close();
                    }
                    self.refuse(
                        None,
                        Refusal::new(
                            ErrorCode::BadMessage,
                            "binary frames are not part of the protocol: send JSON text frames",
                        ),
                    );
                    Flow::Continue
                }
                Message::Ping(_) | Message::Pong(_) | Message::Close(_) => Flow::Continue,
            };
            if let Flow::Stop(ending) = flow {
                return ending;
            }
        }
    }

    async fn on_text(&mut self, text: &str) -> Flow {
        let msg: ClientMessage = match serde_json::from_str(text) {
            Ok(msg) => msg,
            Err(e) => {
                // Answer with the command id when the frame is JSON with one.
                let re = serde_json::from_str::<serde_json::Value>(text)
                    .ok()
                    .and_then(|v| v.get("id").and_then(serde_json::Value::as_u64));
                self.refuse(
                    re,
                    Refusal::new(
                        ErrorCode::BadMessage,
                        format!("cannot read the message: {e}"),
                    ),
                );
                return Flow::Continue;
            }
        };
        if !self.greeted {
            return self.on_hello(msg).await;
        }
        let Some(id) = msg.id() else {
            self.refuse(
                None,
                Refusal::new(ErrorCode::HandshakeRequired, "hello was already received"),
            );
            return Flow::Continue;
        };
        if id == 0 {
            self.refuse(
                Some(id),
                Refusal::new(ErrorCode::BadMessage, "command ids start at 1"),
            );
            return Flow::Continue;
        }
        if id <= self.last_id {
            self.refuse(
                Some(id),
                Refusal::new(
                    ErrorCode::DuplicateCommand,
                    format!(
                        "command id {id} is not above the last one on this connection ({}); it was not applied",
                        self.last_id
                    ),
                ),
            );
            return Flow::Continue;
        }
        self.last_id = id;
        if let Some(up) = &mut self.upstream {
            let attach = matches!(
                msg,
                ClientMessage::TakeSeat { .. }
                    | ClientMessage::Resume { .. }
                    | ClientMessage::Spectate { .. }
            );
            if !(up.left && attach) {
                if matches!(msg, ClientMessage::Leave { .. }) {
                    up.left = true;
                }
                if !up.send(text).await {
                    return Flow::Stop(Ending::Close(
                        CloseCode::ServiceRestart,
                        "the server running this room went away; reconnect and resume with your token".into(),
                    ));
                }
                return Flow::Continue;
            }
            // Left that room: this one is routed afresh.
            self.upstream = None;
        }
        self.on_command(id, msg, text).await;
        Flow::Continue
    }

    async fn on_hello(&mut self, msg: ClientMessage) -> Flow {
        let ClientMessage::Hello {
            protocol,
            client,
            token,
        } = msg
        else {
            self.refuse(
                msg.id(),
                Refusal::new(
                    ErrorCode::HandshakeRequired,
                    "the first message must be hello",
                ),
            );
            return Flow::Stop(Ending::Close(
                CloseCode::HandshakeRequired,
                "the first message must be hello".into(),
            ));
        };
        if !SUPPORTED_VERSIONS.contains(&protocol) {
            let message = format!(
                "this server speaks protocol version {PROTOCOL_VERSION} (supported: {SUPPORTED_VERSIONS:?}), not {protocol}"
            );
            self.refuse(None, Refusal::new(ErrorCode::UnsupportedVersion, message));
            return Flow::Stop(Ending::Close(
                CloseCode::UnsupportedVersion,
                "unsupported protocol version".into(),
            ));
        }
        if let Some(token) = token {
            match self.accounts.by_token(&token).await {
                Ok(Some(who)) => self.signed_in = Some(who),
                Ok(None) => {
                    self.refuse(
                        None,
                        Refusal::new(
                            ErrorCode::BadToken,
                            "the API token is unknown or revoked (or its account banned)",
                        ),
                    );
                    return Flow::Stop(Ending::Close(
                        CloseCode::HandshakeRequired,
                        "bad token".into(),
                    ));
                }
                Err(r) => {
                    self.refuse(None, Refusal::new(ErrorCode::Internal, r.message));
                    return Flow::Stop(Ending::Close(
                        CloseCode::HandshakeRequired,
                        "the token could not be checked".into(),
                    ));
                }
            }
        }
        if let Some(who) = &self.signed_in {
            let handle = self.handle.clone();
            self.live = Some(self.accounts.live.register(
                who.account.id,
                who.credential,
                self.blocked.clone(),
                move |reason| handle.close(CloseCode::SignedOut, reason),
            ));
            // A friend's `invited` reaches this connection through it.
            if let Some(live) = &self.live {
                let handle = self.handle.clone();
                live.set_notify(move |msg| handle.send(msg));
            }
            match self.accounts.blocks(who).await {
                Ok(names) => self.blocked.set(names),
                Err(r) => tracing::warn!("cannot read a player's blocks: {}", r.message),
            }
        }
        self.greeted = true;
        self.protocol = protocol;
        tracing::debug!(conn = self.handle.id, client = ?client, "hello");
        let config = &self.hub.config;
        self.send(&ServerMessage::Welcome {
            protocol,
            server: format!("dominion-server {}", env!("CARGO_PKG_VERSION")),
            limits: Limits {
                max_message_bytes: config.max_message_bytes as u64,
                rate_messages: config.rate_messages,
                rate_window_ms: config.rate_window.as_millis() as u64,
                heartbeat_ms: config.heartbeat.as_millis() as u64,
                idle_timeout_ms: config.idle_timeout.as_millis() as u64,
                chat_max_chars: Some(chat::MAX_CHARS as u32),
                chat_max_bytes: Some(chat::MAX_BYTES as u32),
                chat_messages: Some(chat::MESSAGES),
                chat_window_ms: Some(chat::WINDOW.as_millis() as u64),
            },
            account: self.signed_in.as_ref().map(SignedIn::info),
        });
        Flow::Continue
    }

    /// Leaves the room, sends the close frame when we close, waits briefly for the
    /// client's answer, and stops the writer. A client that closed first (or vanished)
    /// is not waited for.
    async fn finish(
        mut self,
        ending: Ending,
        mut stream: SplitStream<WebSocket>,
        writer: tokio::task::JoinHandle<()>,
    ) {
        // The link to the room's node first: it closes now, so that node frees its
        // connection as soon as our client is gone, not after our own close.
        drop(self.upstream.take());
        // Out of the automatch queue (a no-op for a connection that never queued).
        self.automatch.send(crate::net::automatch::Request::Gone {
            conn: self.handle.id,
        });
        if let Some(attached) = self.room.take() {
            let _ = attached
                .tx
                .send(RoomMsg::Detach {
                    conn_id: self.handle.id,
                })
                .await;
        }
        if let Ending::Close(code, _) | Ending::Killed(code, _) = &ending {
            let reason = match code {
                CloseCode::PolicyViolation => Some("rate_limited"),
                CloseCode::MessageTooBig => Some("oversized"),
                CloseCode::TooSlow => Some("too_slow"),
                CloseCode::IdleTimeout => Some("idle"),
                CloseCode::InvalidPayload => Some("invalid_utf8"),
                CloseCode::HandshakeRequired => Some("handshake"),
                _ => None,
            };
            if let Some(reason) = reason {
                self.hub.metrics.close(reason);
            }
        }
        let close = match ending {
            Ending::ClientGone => {
                // The client sent its close frame (tungstenite queued the answer, which
                // this read sends) or is gone: nothing is left to say or to wait for.
                let _ = timeout(CLOSE_LINGER, stream.next()).await;
                writer.abort();
                return;
            }
            // The queue is full and the client is not reading: nothing more can reach it.
            Ending::Killed(CloseCode::TooSlow, _) => {
                writer.abort();
                return;
            }
            Ending::Close(code, reason) | Ending::Killed(code, reason) => (code, reason),
        };
        let deadline = Instant::now() + CLOSE_LINGER;
        let (code, reason) = close;
        if self.tx.try_send(OutFrame::Close(code, reason)).is_err() {
            writer.abort();
            return;
        }
        // Read (and ignore) until the client completes the close handshake; its answer
        // ends the stream at once.
        while let Ok(Some(Ok(_))) = timeout_at_deadline(deadline, stream.next()).await {}
        // The writer stops by itself once the close frame is written. Wait for that
        // instead of aborting it: after a read error (a frame over the hard cap, invalid
        // UTF-8) the stream ends at once, and aborting then would drop the socket before
        // the error and the close frame left, which the client sees as a reset.
        let mut writer = writer;
        if timeout_at_deadline(deadline, &mut writer).await.is_err() {
            writer.abort();
        }
    }
}

async fn timeout_at_deadline<F: std::future::Future>(
    deadline: Instant,
    f: F,
) -> Result<F::Output, tokio::time::error::Elapsed> {
    timeout(deadline.saturating_duration_since(Instant::now()), f).await
}

/// What a failed read means for the client.
enum ReadError {
    /// A frame over the hard cap, refused from its header (its size when known).
    TooBig(Option<usize>),
    /// A text frame whose payload is not UTF-8.
    NotUtf8,
    /// The socket failed or the peer broke the protocol: nothing can be said to it.
    Gone,
}

fn read_error(e: axum::Error) -> ReadError {
    match e.into_inner().downcast_ref::<tungstenite::Error>() {
        Some(tungstenite::Error::Capacity(tungstenite::error::CapacityError::MessageTooLong {
            size,
            ..
        })) => ReadError::TooBig(Some(*size)),
        Some(tungstenite::Error::Capacity(_)) => ReadError::TooBig(None),
        Some(tungstenite::Error::Utf8(_)) => ReadError::NotUtf8,
        _ => ReadError::Gone,
    }
}

fn too_big(size: Option<usize>, max: usize) -> ServerMessage {
    let message = match size {
        Some(size) => format!("a message of {size} bytes is over the limit of {max} bytes"),
        None => format!("a message over the limit of {max} bytes"),
    };
    ServerMessage::Error {
        re: None,
        code: ErrorCode::MessageTooBig,
        message,
    }
}

fn too_big_close() -> Ending {
    Ending::Close(CloseCode::MessageTooBig, "message too big".into())
}

fn unknown_room(hub: &Hub, room: &str) -> Refusal {
    match hub.broken_reason(room) {
        Some(reason) => Refusal::new(
            ErrorCode::Internal,
            format!("room {room:?} could not be reopened after a restart: {reason}"),
        ),
        None => Refusal::new(
            ErrorCode::UnknownRoom,
            format!("no room {room:?} (it may have closed)"),
        ),
    }
}
